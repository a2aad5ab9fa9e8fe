/* fabplan — phys: where the cluster's other networks' devices stand (see net_bom.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/net_bom.h"

void fp__net_place_free(fp_net_place *pl, int n_nets)
{
    if (pl == NULL)
        return;
    for (int i = 0; i < n_nets; i++) {
        if (pl->dev_rack)
            free(pl->dev_rack[i]);
        if (pl->dev_u)
            free(pl->dev_u[i]);
    }
    free(pl->dev_rack);
    free(pl->dev_u);
    free(pl->add);
    free(pl->mgmt_hall);
    memset(pl, 0, sizeof *pl);
}

/* Rack units and power of one network device (*own_w: the part of *w fp__net_place_power
 * counts itself, an extra endpoint's; a switch's comes with its cabling). */
static void dev_size(const fp_net_spec *ns, const fp_fabric *f, int64_t d, int *ru, double *w,
                     double *own_w)
{
    *ru = 0;
    *w = 0;
    *own_w = 0;
    if (d < ns->servers)
        return;                 /* a compute server: already in its rack */
    if (d < f->servers) {
        /* An extra endpoint: its first port group carries its size. */
        int64_t g = d - ns->servers;
        for (int i = 0; i < ns->n_extra; i++) {
            const fp_net_extra *x = &ns->extra[i];
            int per = x->ports / ns->ports;
            if (g < x->count * per) {
                if (g % per == 0) {
                    *ru = x->ru;
                    *w = *own_w = x->power_w;
                }
                return;
            }
            g -= x->count * per;
        }
        return;
    }
    const fp_part *m = &ns->rs.tier[f->dev[d].tier - 1].model;
    *ru = m->ru > 0 ? m->ru : 1;
    *w = m->powered ? m->power_w : 0;
}

static int16_t u_at(int64_t below, int cap_ru)
{
    int64_t u = below + 1;
    return (int16_t)(u < 1 ? 1 : u > cap_ru ? cap_ru : u);
}

/* A management rack being filled. */
typedef struct mg_rack {
    int64_t ru, cnt;
    double w, own_w;            /* power for the fill (switches too), and the rack's own
                                   (extra endpoints: switches come with their cabling) */
    int32_t hall;
} mg_rack;

/* The hall a network device's management rack stands in: a leaf's is the hall of its first
 * host (compute server), an extra endpoint's its leaf's, a switch below the top tier that of
 * the first switch under it, the top tier the middle hall. */
static int32_t dev_hall(const fp_fabric *f, const int64_t *first_host, const int64_t *host_leaf,
                        const int64_t *dr, const fp_layout *lay, int64_t d)
{
    int t = f->dev[d].tier;
    if (t == 0 && host_leaf[d] >= 0) {
        /* An extra endpoint: beside its leaf. */
        int64_t l = host_leaf[d];
        if (dr[l] >= 0 && dr[l] < lay->n_rack)
            return lay->rack[dr[l]].hall;
        return dev_hall(f, first_host, host_leaf, dr, lay, l);
    }
    if (t == 1 && first_host[d - f->tier_base[1]] >= 0)
        return lay->rack[lay->dev_rack[first_host[d - f->tier_base[1]]]].hall;
    if (t >= 2 && t < f->tiers) {
        /* Below the top (a pod's spines): beside the first switch under it. */
        for (int64_t l = f->boundary_base[t - 1]; l < f->boundary_base[t]; l++)
            if (f->link[l].z == d) {
                int64_t b = f->link[l].a;
                if (dr[b] >= 0 && dr[b] < lay->n_rack)
                    return lay->rack[dr[b]].hall;
                return dev_hall(f, first_host, host_leaf, dr, lay, b);
            }
    }
    if (t >= 2)
        return (lay->halls + 1) / 2;
    return 1;
}

fp_status fp__net_place_build(fp_net_place *out, const fp_nets *nets, const fp_net_fabrics *nf,
                              const fp_layout *lay, const fp_rspec *crs, fp_error *err)
{
    memset(out, 0, sizeof *out);
    if (nets->n == 0)
        return FP_OK;
    const int64_t R = lay->dev_rack ? lay->n_rack : 0;
    const int cap_ru = crs->phys.rack_units;
    const double cap_w = crs->phys.rack_power_limit_w;
    const int halls = lay->halls > 0 ? lay->halls : 1;
    int64_t mg_cap = 16, n_mg = 0;
    int ok = 0;
    mg_rack *mg = calloc((size_t)mg_cap, sizeof *mg);
    int64_t *open = malloc(sizeof *open * (size_t)(halls + 1)), *first_host = NULL, *host_leaf = NULL;
    int64_t *ru = calloc((size_t)(R ? R : 1), sizeof *ru), *cnt = calloc((size_t)(R ? R : 1), sizeof *cnt);
    double *pw = calloc((size_t)(R ? R : 1), sizeof *pw);
    char *host = calloc((size_t)(R ? R : 1), 1);    /* holds a host of some network */
    out->dev_rack = calloc((size_t)nets->n, sizeof *out->dev_rack);
    out->dev_u = calloc((size_t)nets->n, sizeof *out->dev_u);
    if (!mg || !open || !ru || !cnt || !pw || !host || !out->dev_rack || !out->dev_u)
        goto oom;
    for (int h = 0; h <= halls; h++)
        open[h] = -1;
    for (int i = 0; i < nets->n; i++) {
        const fp_net_spec *ns = &nets->net[i];
        const fp_fabric *f = &nf->fab[i];
        int64_t *dr = out->dev_rack[i] = malloc(sizeof *dr * (size_t)(f->n_dev ? f->n_dev : 1));
        int16_t *du = out->dev_u[i] = calloc((size_t)(f->n_dev ? f->n_dev : 1), sizeof *du);
        int64_t n_leaf = f->tiers >= 1 ? f->level[1].switches * f->planes : 0;
        free(first_host);
        free(host_leaf);
        first_host = malloc(sizeof *first_host * (size_t)(n_leaf ? n_leaf : 1));
        host_leaf = malloc(sizeof *host_leaf * (size_t)(f->servers ? f->servers : 1));
        if (dr == NULL || du == NULL || first_host == NULL || host_leaf == NULL)
            goto oom;
        for (int64_t d = 0; d < f->n_dev; d++)
            dr[d] = -1;
        for (int64_t d = 0; d < f->servers; d++)
            host_leaf[d] = -1;
        for (int64_t l = f->boundary_base[0]; f->tiers >= 1 && l < f->boundary_base[1]; l++)
            if (f->link[l].a < f->servers && host_leaf[f->link[l].a] < 0)
                host_leaf[f->link[l].a] = f->link[l].z;
        for (int64_t k = 0; k < n_leaf; k++)
            first_host[k] = -1;
        /* Each leaf's first compute host; a single-homed network's leaf stands in its rack. */
        for (int64_t l = f->boundary_base[0]; R && f->tiers >= 1 && l < f->boundary_base[1]; l++) {
            const fp_link *k = &f->link[l];
            if (k->a >= ns->servers || first_host[k->z - f->tier_base[1]] >= 0)
                continue;
            first_host[k->z - f->tier_base[1]] = k->a;
            if (!ns->dual_homed)
                dr[k->z] = lay->dev_rack[k->a];
        }
        for (int64_t d = 0; d < f->n_dev; d++) {
            int u;
            double w, own_w;
            dev_size(ns, f, d, &u, &w, &own_w);
            if (d < ns->servers) {
                dr[d] = R ? lay->dev_rack[d] : -1;
                du[d] = R ? lay->dev_u[d] : 1;
                if (R)
                    host[dr[d]] = 1;
                continue;
            }
            if (dr[d] >= 0 && dr[d] < R) {
                /* Above the rack's own units and what earlier networks added there. */
                du[d] = u_at(lay->rack[dr[d]].units_used + ru[dr[d]], cap_ru);
                ru[dr[d]] += u;
                pw[dr[d]] += own_w;
                cnt[dr[d]]++;
                continue;
            }
            /* The management racks of its hall, filled in order up to the rack's units and
             * power limit. */
            int32_t h = R ? dev_hall(f, first_host, host_leaf, dr, lay, d) : 1;
            int64_t k = open[h];
            if (k < 0 || mg[k].ru + u > cap_ru || (cap_w > 0 && mg[k].w + w > cap_w && mg[k].cnt > 0)) {
                if (n_mg == mg_cap) {
                    mg_rack *x = realloc(mg, sizeof *x * (size_t)(mg_cap * 2));
                    if (x == NULL)
                        goto oom;
                    mg = x;
                    mg_cap *= 2;
                }
                k = open[h] = n_mg++;
                memset(&mg[k], 0, sizeof mg[k]);
                mg[k].hall = h;
            }
            dr[d] = R + k;
            du[d] = u_at(mg[k].ru, cap_ru);
            mg[k].ru += u;
            mg[k].w += w;
            mg[k].own_w += own_w;
            mg[k].cnt++;
        }
    }
    int64_t n_add = n_mg;
    /* Every compute rack with a network's device or host: a host's ports may bring modules. */
    for (int64_t r = 0; r < R; r++)
        n_add += cnt[r] > 0 || host[r];
    out->add = calloc((size_t)(n_add ? n_add : 1), sizeof *out->add);
    out->mgmt_hall = calloc((size_t)(n_mg ? n_mg : 1), sizeof *out->mgmt_hall);
    if (out->add == NULL || out->mgmt_hall == NULL)
        goto oom;
    for (int64_t r = 0; r < R; r++)
        if (cnt[r] > 0 || host[r]) {
            fp_rack_add *a = &out->add[out->n_add++];
            a->rack = r;
            a->devices = cnt[r];
            a->ru = ru[r];
            a->power_w = pw[r];
            out->over_ru += lay->rack[r].units_used + ru[r] > cap_ru;
        }
    for (int64_t k = 0; k < n_mg; k++) {
        fp_rack_add *a = &out->add[out->n_add++];
        a->rack = R + k;
        a->devices = mg[k].cnt;
        a->ru = mg[k].ru;
        a->power_w = mg[k].own_w;
        out->mgmt_hall[k] = mg[k].hall;
    }
    out->mgmt_racks = n_mg;
    ok = 1;
oom:
    free(mg);
    free(open);
    free(first_host);
    free(host_leaf);
    free(host);
    free(ru);
    free(pw);
    free(cnt);
    if (ok)
        return FP_OK;
    fp__net_place_free(out, nets->n);
    FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory placing the networks");
}

void fp__net_place_power(fp_net_place *pl, const fp_nets *nets, const fp_net_fabrics *nf,
                         const fp_net_phys *np, const fp_layout *lay, const fp_cabling *cab,
                         const fp_rspec *crs)
{
    const double cap_w = crs->phys.rack_power_limit_w;
    (void)nf;
    pl->over_power = 0;
    for (int64_t k = 0; k < pl->n_add; k++) {
        fp_rack_add *a = &pl->add[k];
        double w = a->power_w;
        for (int i = 0; i < nets->n && i < np->n; i++)
            if (a->rack < np->lay[i].n_rack)
                w += np->cab[i].rack_power_w[a->rack];
        a->power_w = round(w * 100) / 100;
        pl->over_power += a->rack < lay->n_rack && cap_w > 0 &&
                          cab->rack_power_w[a->rack] + a->power_w > cap_w;
        /* Structured cabling's patch panels take units too (placed after the networks). */
        if (a->rack < lay->n_rack && cab->rack_panels && cab->rack_panels[a->rack] > 0) {
            int64_t used = lay->rack[a->rack].units_used + a->ru, cap = crs->phys.rack_units;
            pl->over_ru += used <= cap && used + cab->rack_panels[a->rack] > cap;
        }
    }
}
