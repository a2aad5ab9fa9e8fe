/* fabplan — phys: where the cluster's other networks' devices stand (see net_bom.h). */
#include <stdlib.h>
#include <string.h>
#include "phys/net_bom.h"

void fp__net_place_free(fp_net_place *pl, int n_nets)
{
    if (pl == NULL)
        return;
    if (pl->dev_rack)
        for (int i = 0; i < n_nets; i++)
            free(pl->dev_rack[i]);
    free(pl->dev_rack);
    free(pl->add);
    memset(pl, 0, sizeof *pl);
}

/* Rack units and power of one network device. */
static void dev_size(const fp_net_spec *ns, const fp_fabric *f, int64_t d, int *ru, double *w)
{
    *ru = 0;
    *w = 0;
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
                    *w = x->power_w;
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

fp_status fp__net_place_build(fp_net_place *out, const fp_nets *nets, const fp_net_fabrics *nf,
                              const fp_layout *lay, const fp_cabling *cab, const fp_rspec *crs,
                              fp_error *err)
{
    memset(out, 0, sizeof *out);
    if (nets->n == 0)
        return FP_OK;
    const int64_t R = lay->dev_rack ? lay->n_rack : 0;
    const int cap_ru = crs->phys.rack_units;
    const double cap_w = crs->phys.rack_power_limit_w;
    int64_t mg_cap = 16, n_mg = 0;
    int ok = 0;
    int64_t *mg_ru = calloc((size_t)mg_cap, sizeof *mg_ru);
    double *mg_w = calloc((size_t)mg_cap, sizeof *mg_w);
    int64_t *ru = calloc((size_t)(R ? R : 1), sizeof *ru), *cnt = calloc((size_t)(R ? R : 1), sizeof *cnt);
    int64_t *mg_cnt = calloc((size_t)mg_cap, sizeof *mg_cnt);
    double *pw = calloc((size_t)(R ? R : 1), sizeof *pw);
    out->dev_rack = calloc((size_t)nets->n, sizeof *out->dev_rack);
    if (!mg_ru || !mg_w || !ru || !cnt || !pw || !mg_cnt || !out->dev_rack)
        goto oom;
    for (int i = 0; i < nets->n; i++) {
        const fp_net_spec *ns = &nets->net[i];
        const fp_fabric *f = &nf->fab[i];
        int64_t *dr = out->dev_rack[i] = malloc(sizeof *dr * (size_t)(f->n_dev ? f->n_dev : 1));
        if (dr == NULL)
            goto oom;
        for (int64_t d = 0; d < f->n_dev; d++)
            dr[d] = -1;
        /* Leaves of single-homed networks: the rack of their first compute host. */
        if (!ns->dual_homed)
            for (int64_t l = f->boundary_base[0]; l < f->boundary_base[1]; l++)
                if (R && dr[f->link[l].z] < 0 && f->link[l].a < ns->servers)
                    dr[f->link[l].z] = lay->dev_rack[f->link[l].a];
        for (int64_t d = 0; d < f->n_dev; d++) {
            int u;
            double w;
            dev_size(ns, f, d, &u, &w);
            if (d < ns->servers) {
                dr[d] = R ? lay->dev_rack[d] : -1;
                continue;
            }
            if (dr[d] >= 0 && dr[d] < R) {
                ru[dr[d]] += u;
                pw[dr[d]] += w;
                cnt[dr[d]]++;
                continue;
            }
            /* Management racks, filled in order up to the rack's units and power limit. */
            if (n_mg == 0 || mg_ru[n_mg - 1] + u > cap_ru ||
                (cap_w > 0 && mg_w[n_mg - 1] + w > cap_w && mg_cnt[n_mg - 1] > 0)) {
                if (n_mg == mg_cap) {
                    int64_t nc = mg_cap * 2;
                    int64_t *a = realloc(mg_ru, sizeof *a * (size_t)nc);
                    if (a == NULL)
                        goto oom;
                    mg_ru = a;
                    double *b = realloc(mg_w, sizeof *b * (size_t)nc);
                    if (b == NULL)
                        goto oom;
                    mg_w = b;
                    int64_t *c = realloc(mg_cnt, sizeof *c * (size_t)nc);
                    if (c == NULL)
                        goto oom;
                    mg_cnt = c;
                    mg_cap = nc;
                }
                mg_ru[n_mg] = 0;
                mg_w[n_mg] = 0;
                mg_cnt[n_mg] = 0;
                n_mg++;
            }
            dr[d] = R + n_mg - 1;
            mg_ru[n_mg - 1] += u;
            mg_w[n_mg - 1] += w;
            mg_cnt[n_mg - 1]++;
        }
    }
    int64_t n_add = n_mg;
    for (int64_t r = 0; r < R; r++)
        n_add += cnt[r] > 0;
    out->add = calloc((size_t)(n_add ? n_add : 1), sizeof *out->add);
    if (out->add == NULL)
        goto oom;
    for (int64_t r = 0; r < R; r++)
        if (cnt[r] > 0) {
            fp_rack_add *a = &out->add[out->n_add++];
            a->rack = r;
            a->devices = cnt[r];
            a->ru = ru[r];
            a->power_w = pw[r];
            out->over_ru += lay->rack[r].units_used + (cab->rack_panels ? cab->rack_panels[r] : 0) +
                            ru[r] > cap_ru;
            out->over_power += cap_w > 0 && cab->rack_power_w[r] + pw[r] > cap_w;
        }
    for (int64_t k = 0; k < n_mg; k++) {
        fp_rack_add *a = &out->add[out->n_add++];
        a->rack = R + k;
        a->devices = mg_cnt[k];
        a->ru = mg_ru[k];
        a->power_w = mg_w[k];
    }
    out->mgmt_racks = n_mg;
    ok = 1;
oom:
    free(mg_ru);
    free(mg_w);
    free(mg_cnt);
    free(ru);
    free(pw);
    free(cnt);
    if (ok)
        return FP_OK;
    fp__net_place_free(out, nets->n);
    FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory placing the networks");
}
