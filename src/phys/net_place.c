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

/* Rack units and power of one network device (*own_w: the part of *w placing counts itself, an
 * extra endpoint's; a switch's comes with its network's cabling). */
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

/* What placing the networks keeps between them: the compute racks' additions and the management
 * racks being filled. */
typedef struct place_ctx {
    const fp_layout *lay;
    int64_t R;                  /* compute racks (0 without a layout) */
    int cap_ru;
    double cap_w;
    mg_rack *mg;
    int64_t mg_cap, n_mg;
    int64_t *open;              /* per hall: the management rack being filled, -1 none */
    int64_t *ru, *cnt;          /* per compute rack: units and devices added */
    double *pw;                 /*   and power (the extra endpoints') */
    char *host;                 /*   holds a host of some network */
    int64_t *first_host, *host_leaf;    /* the network being placed: see net_hosts */
    int64_t *first_below;       /*   and each switch's first device below it */
    int16_t *lo, *hi;           /* per compute rack: the units free for the networks, from
                                   above its highest server to below its lowest switch or
                                   patch panel */
    const fp_cabling *cab;      /* the compute fabric's (its patch panels) */
    fp_error *err;              /* a clash's message */
} place_ctx;

/* Each compute rack's free units: above its servers (which stack from U1), below its switches
 * (which stack from the top down) and its structured cabling's patch panels. */
static void free_units(place_ctx *c, const fp_fabric *cfab, const fp_cabling *cab,
                       const fp_rspec *crs)
{
    const fp_layout *lay = c->lay;
    for (int64_t r = 0; r < c->R; r++) {
        c->lo[r] = 1;
        c->hi[r] = (int16_t)c->cap_ru;
        if (cab->rack_panels && cab->rack_panels[r] > 0)
            c->hi[r] = (int16_t)(cab->rack_panel_u[r] - 1);
    }
    for (int64_t d = 0; c->R && d < cfab->n_dev; d++) {
        int64_t r = lay->dev_rack[d];
        int u = lay->dev_u[d];
        if (r < 0 || r >= c->R)
            continue;
        if (d < cfab->servers) {
            if (u + crs->phys.server_ru > c->lo[r])
                c->lo[r] = (int16_t)(u + crs->phys.server_ru);
        } else if (u - 1 < c->hi[r]) {
            c->hi[r] = (int16_t)(u - 1);
        }
    }
}

/* FP_EDESIGN: network device d (u units) would take U[at, at + u - 1] of compute rack r, past
 * its free units. */
static fp_status clash(place_ctx *c, const fp_net_spec *ns, const fp_fabric *f, int64_t d,
                       int64_t r, int at, int u, const fp_fabric *cfab, const fp_cabling *cab,
                       const fp_rspec *crs)
{
    const fp_rack *k = &c->lay->rack[r];
    char name[128], units[32], above[96];
    fp__net_device_name(name, sizeof name, ns, f, cfab, crs, d);
    if (u > 1)
        snprintf(units, sizeof units, "U%d-U%d", at, at + u - 1);
    else
        snprintf(units, sizeof units, "U%d", at);
    if (cab->rack_panels && cab->rack_panels[r] > 0)
        snprintf(above, sizeof above, "its %d patch panel%s from U%d", cab->rack_panels[r],
                 cab->rack_panels[r] == 1 ? "" : "s", c->hi[r] + 1);
    else if (c->hi[r] < c->cap_ru)
        snprintf(above, sizeof above, "its switches from U%d", c->hi[r] + 1);
    else
        snprintf(above, sizeof above, "the rack's top (U%d)", c->cap_ru);
    FP_FAIL(c->err, FP_EDESIGN, "/networks",
            "/networks: rack H%d-R%02d-K%02d: %s (%dU) would take %s, which clashes with %s; the "
            "rack has U%d-U%d (%d units) free for the networks above its servers; expected fewer "
            "servers_per_rack, fewer switches in the rack (max_switches_per_rack), or the "
            "network's leaves elsewhere (a dual-homed network's stand in management racks)",
            k->hall, k->row, k->pos, name, u, units, above, c->lo[r], c->hi[r],
            c->hi[r] >= c->lo[r] ? c->hi[r] - c->lo[r] + 1 : 0);
}

/* The hall a network device's management rack stands in: a leaf's is the hall of its first
 * host (compute server), an extra endpoint's its leaf's, a switch below the top tier that of
 * the first switch under it, the top tier the middle hall. */
static int32_t dev_hall(const place_ctx *c, const fp_fabric *f, const int64_t *dr, int64_t d)
{
    const fp_layout *lay = c->lay;
    int t = f->dev[d].tier;
    if (t == 0 && c->host_leaf[d] >= 0) {
        /* An extra endpoint: beside its leaf. */
        int64_t l = c->host_leaf[d];
        if (dr[l] >= 0 && dr[l] < lay->n_rack)
            return lay->rack[dr[l]].hall;
        return dev_hall(c, f, dr, l);
    }
    if (t == 1 && c->first_host[d - f->tier_base[1]] >= 0)
        return lay->rack[lay->dev_rack[c->first_host[d - f->tier_base[1]]]].hall;
    if (t >= 2 && t < f->tiers && c->first_below[d] >= 0) {
        /* Below the top (a pod's spines): beside the first switch under it. */
        int64_t b = c->first_below[d];
        if (dr[b] >= 0 && dr[b] < lay->n_rack)
            return lay->rack[dr[b]].hall;
        return dev_hall(c, f, dr, b);
    }
    if (t >= 2)
        return (lay->halls + 1) / 2;
    return 1;
}

/* The network's leaves' first compute hosts (first_host, by leaf), each host's first leaf
 * (host_leaf) and each switch above the leaves its first device below, in link order
 * (first_below: one pass, where a scan per switch was quadratic in the endpoints); a
 * single-homed network's leaf stands in its first host's rack (dr). */
static fp_status net_hosts(place_ctx *c, const fp_net_spec *ns, const fp_fabric *f, int64_t *dr)
{
    int64_t n_leaf = f->tiers >= 1 ? f->level[1].switches * f->planes : 0;
    free(c->first_host);
    free(c->host_leaf);
    free(c->first_below);
    c->first_host = malloc(sizeof *c->first_host * (size_t)(n_leaf ? n_leaf : 1));
    c->host_leaf = malloc(sizeof *c->host_leaf * (size_t)(f->servers ? f->servers : 1));
    c->first_below = malloc(sizeof *c->first_below * (size_t)(f->n_dev ? f->n_dev : 1));
    if (c->first_host == NULL || c->host_leaf == NULL || c->first_below == NULL)
        return FP_ENOMEM;
    for (int64_t d = 0; d < f->n_dev; d++)
        c->first_below[d] = -1;
    for (int64_t l = f->tiers >= 2 ? f->boundary_base[1] : 0;
         f->tiers >= 3 && l < f->boundary_base[f->tiers - 1]; l++)
        if (c->first_below[f->link[l].z] < 0)
            c->first_below[f->link[l].z] = f->link[l].a;
    for (int64_t d = 0; d < f->servers; d++)
        c->host_leaf[d] = -1;
    for (int64_t l = f->boundary_base[0]; f->tiers >= 1 && l < f->boundary_base[1]; l++)
        if (f->link[l].a < f->servers && c->host_leaf[f->link[l].a] < 0)
            c->host_leaf[f->link[l].a] = f->link[l].z;
    for (int64_t k = 0; k < n_leaf; k++)
        c->first_host[k] = -1;
    for (int64_t l = f->boundary_base[0]; c->R && f->tiers >= 1 && l < f->boundary_base[1]; l++) {
        const fp_link *k = &f->link[l];
        if (k->a >= ns->servers || c->first_host[k->z - f->tier_base[1]] >= 0)
            continue;
        c->first_host[k->z - f->tier_base[1]] = k->a;
        if (!ns->dual_homed)
            dr[k->z] = c->lay->dev_rack[k->a];
    }
    return FP_OK;
}

/* The management rack of hall h a device of u units and w watts goes into: the one being filled
 * while it has room (units, and power once it holds something), else a new one. -1 when out of
 * memory. */
static int64_t mg_rack_for(place_ctx *c, int32_t h, int u, double w)
{
    int64_t k = c->open[h];
    if (k < 0 || c->mg[k].ru + u > c->cap_ru ||
        (c->cap_w > 0 && c->mg[k].w + w > c->cap_w && c->mg[k].cnt > 0)) {
        if (c->n_mg == c->mg_cap) {
            mg_rack *x = realloc(c->mg, sizeof *x * (size_t)(c->mg_cap * 2));
            if (x == NULL)
                return -1;
            c->mg = x;
            c->mg_cap *= 2;
        }
        k = c->open[h] = c->n_mg++;
        memset(&c->mg[k], 0, sizeof c->mg[k]);
        c->mg[k].hall = h;
    }
    return k;
}

/* Every device of network i: hosts where the layout put them, devices with a compute rack above
 * the rack's own units and what earlier networks added there, the rest into the management
 * racks of their hall, filled in order up to the rack's units and power limit. */
static fp_status place_net(place_ctx *c, fp_net_place *out, int i, const fp_net_spec *ns,
                           const fp_fabric *f, const fp_fabric *cfab, const fp_rspec *crs)
{
    const fp_layout *lay = c->lay;
    int64_t *dr = out->dev_rack[i] = malloc(sizeof *dr * (size_t)(f->n_dev ? f->n_dev : 1));
    int16_t *du = out->dev_u[i] = calloc((size_t)(f->n_dev ? f->n_dev : 1), sizeof *du);
    if (dr == NULL || du == NULL)
        FP_FAIL(c->err, FP_ENOMEM, "/networks", "out of memory placing the networks");
    for (int64_t d = 0; d < f->n_dev; d++)
        dr[d] = -1;
    if (net_hosts(c, ns, f, dr) != FP_OK)
        FP_FAIL(c->err, FP_ENOMEM, "/networks", "out of memory placing the networks");
    for (int64_t d = 0; d < f->n_dev; d++) {
        int u;
        double w, own_w;
        dev_size(ns, f, d, &u, &w, &own_w);
        if (d < ns->servers) {
            dr[d] = c->R ? lay->dev_rack[d] : -1;
            du[d] = c->R ? lay->dev_u[d] : 1;
            if (c->R)
                c->host[dr[d]] = 1;
            continue;
        }
        if (fp__net_is_alias(f, d)) {
            /* Another network's switch (its management port): where that switch stands, which
             * an earlier network's placing or the layout decided. */
            const fp_host_alias *a = &f->alias[d];
            dr[d] = a->net >= 0 ? out->dev_rack[a->net][a->dev] : c->R ? lay->dev_rack[a->dev] : -1;
            du[d] = a->net >= 0 ? out->dev_u[a->net][a->dev] : c->R ? lay->dev_u[a->dev] : 1;
            if (dr[d] >= 0 && dr[d] < c->R)
                c->host[dr[d]] = 1;
            continue;
        }
        if (dr[d] >= 0 && dr[d] < c->R) {
            int at = c->lo[dr[d]] + (int)c->ru[dr[d]];
            if (u > 0 && at + u - 1 > c->hi[dr[d]])
                return clash(c, ns, f, d, dr[d], at, u, cfab, c->cab, crs);
            du[d] = u_at(at - 1, c->cap_ru);
            c->ru[dr[d]] += u;
            c->pw[dr[d]] += own_w;
            c->cnt[dr[d]]++;
            continue;
        }
        int32_t h = c->R ? dev_hall(c, f, dr, d) : 1;
        int64_t k = mg_rack_for(c, h, u, w);
        if (k < 0)
            FP_FAIL(c->err, FP_ENOMEM, "/networks", "out of memory placing the networks");
        dr[d] = c->R + k;
        du[d] = u_at(c->mg[k].ru, c->cap_ru);
        c->mg[k].ru += u;
        c->mg[k].w += w;
        c->mg[k].own_w += own_w;
        c->mg[k].cnt++;
    }
    return FP_OK;
}

/* Number the management racks hall by hall (in the order each hall's were opened), so the
 * floor's racks read hall, row, rack after the layout's; the devices' racks follow. */
static fp_status mgmt_by_hall(place_ctx *c, fp_net_place *out, const fp_nets *nets,
                              const fp_net_fabrics *nf)
{
    int64_t *to = malloc(sizeof *to * (size_t)(c->n_mg ? c->n_mg : 1));
    mg_rack *sorted = malloc(sizeof *sorted * (size_t)(c->n_mg ? c->n_mg : 1));
    if (to == NULL || sorted == NULL) {
        free(to);
        free(sorted);
        FP_FAIL(c->err, FP_ENOMEM, "/networks", "out of memory placing the networks");
    }
    int32_t max_hall = 0;
    for (int64_t k = 0; k < c->n_mg; k++)
        max_hall = c->mg[k].hall > max_hall ? c->mg[k].hall : max_hall;
    int64_t n = 0;
    for (int32_t h = 0; h <= max_hall; h++)
        for (int64_t k = 0; k < c->n_mg; k++)
            if (c->mg[k].hall == h) {
                to[k] = n;
                sorted[n++] = c->mg[k];
            }
    memcpy(c->mg, sorted, sizeof *sorted * (size_t)c->n_mg);
    for (int i = 0; i < nets->n; i++)
        for (int64_t d = 0; d < nf->fab[i].n_dev; d++)
            if (out->dev_rack[i][d] >= c->R)
                out->dev_rack[i][d] = c->R + to[out->dev_rack[i][d] - c->R];
    free(to);
    free(sorted);
    return FP_OK;
}

/* out->add: every compute rack with a network's device or host (a host's ports may bring
 * modules), then the management racks. */
static fp_status fill_adds(place_ctx *c, fp_net_place *out)
{
    int64_t n_add = c->n_mg;
    for (int64_t r = 0; r < c->R; r++)
        n_add += c->cnt[r] > 0 || c->host[r];
    out->add = calloc((size_t)(n_add ? n_add : 1), sizeof *out->add);
    out->mgmt_hall = calloc((size_t)(c->n_mg ? c->n_mg : 1), sizeof *out->mgmt_hall);
    if (out->add == NULL || out->mgmt_hall == NULL)
        FP_FAIL(c->err, FP_ENOMEM, "/networks", "out of memory placing the networks");
    for (int64_t r = 0; r < c->R; r++)
        if (c->cnt[r] > 0 || c->host[r]) {
            fp_rack_add *a = &out->add[out->n_add++];
            a->rack = r;
            a->devices = c->cnt[r];
            a->ru = c->ru[r];
            a->power_w = c->pw[r];
            out->over_ru += c->lay->rack[r].units_used + c->ru[r] > c->cap_ru;
        }
    for (int64_t k = 0; k < c->n_mg; k++) {
        fp_rack_add *a = &out->add[out->n_add++];
        a->rack = c->R + k;
        a->devices = c->mg[k].cnt;
        a->ru = c->mg[k].ru;
        a->power_w = c->mg[k].own_w;
        out->mgmt_hall[k] = c->mg[k].hall;
    }
    out->mgmt_racks = c->n_mg;
    return FP_OK;
}

fp_status fp__net_place_build(fp_net_place *out, const fp_nets *nets, const fp_net_fabrics *nf,
                              const fp_fabric *cfab, const fp_layout *lay, const fp_cabling *cab,
                              const fp_rspec *crs, fp_error *err)
{
    memset(out, 0, sizeof *out);
    if (nets->n == 0)
        return FP_OK;
    place_ctx c = { 0 };
    const int halls = lay->halls > 0 ? lay->halls : 1;
    fp_status rc = FP_ENOMEM;
    c.lay = lay;
    c.cab = cab;
    c.err = err;
    c.R = lay->dev_rack ? lay->n_rack : 0;
    c.cap_ru = crs->phys.rack_units;
    c.cap_w = crs->phys.rack_power_limit_w;
    c.mg_cap = 16;
    c.mg = calloc((size_t)c.mg_cap, sizeof *c.mg);
    c.open = malloc(sizeof *c.open * (size_t)(halls + 1));
    c.ru = calloc((size_t)(c.R ? c.R : 1), sizeof *c.ru);
    c.cnt = calloc((size_t)(c.R ? c.R : 1), sizeof *c.cnt);
    c.pw = calloc((size_t)(c.R ? c.R : 1), sizeof *c.pw);
    c.host = calloc((size_t)(c.R ? c.R : 1), 1);
    c.lo = calloc((size_t)(c.R ? c.R : 1), sizeof *c.lo);
    c.hi = calloc((size_t)(c.R ? c.R : 1), sizeof *c.hi);
    out->dev_rack = calloc((size_t)nets->n, sizeof *out->dev_rack);
    out->dev_u = calloc((size_t)nets->n, sizeof *out->dev_u);
    if (c.mg && c.open && c.ru && c.cnt && c.pw && c.host && c.lo && c.hi && out->dev_rack &&
        out->dev_u) {
        for (int h = 0; h <= halls; h++)
            c.open[h] = -1;
        free_units(&c, cfab, cab, crs);
        rc = FP_OK;
        for (int i = 0; i < nets->n && rc == FP_OK; i++)
            rc = place_net(&c, out, i, &nets->net[i], &nf->fab[i], cfab, crs);
        if (rc == FP_OK)
            rc = mgmt_by_hall(&c, out, nets, nf);
        if (rc == FP_OK)
            rc = fill_adds(&c, out);
    } else {
        fp__error_set(err, FP_ENOMEM, "/networks", "out of memory placing the networks");
    }
    free(c.mg);
    free(c.open);
    free(c.first_host);
    free(c.host_leaf);
    free(c.first_below);
    free(c.host);
    free(c.ru);
    free(c.pw);
    free(c.cnt);
    free(c.lo);
    free(c.hi);
    if (rc != FP_OK)
        fp__net_place_free(out, nets->n);
    return rc;
}
