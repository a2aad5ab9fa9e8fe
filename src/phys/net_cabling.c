/* fabplan — phys: the cluster's other networks cabled by the compute fabric's cabling stage
 * (cabling.c, media.c) and counted by its BOM (bom.c): a layout per network from where
 * net_place.c put its devices, then the same calls as the compute fabric's. */
#include <stdlib.h>
#include <string.h>
#include "phys/net_bom.h"

void fp__net_phys_free(fp_net_phys *np)
{
    if (np == NULL)
        return;
    for (int i = 0; i < np->n; i++) {
        if (np->bom)
            fp__bom_free(&np->bom[i]);
        if (np->cab)
            fp__cabling_free(&np->cab[i]);
        if (np->lay)
            fp__layout_free(&np->lay[i]);
    }
    free(np->bom);
    free(np->cab);
    free(np->lay);
    free(np->tray_cables);
    free(np->tray_area_mm2);
    free(np->tray_rack);
    memset(np, 0, sizeof *np);
}

/* The compute racks as they stand, then the management racks: those of hall h side by side in
 * a row of their own, one aisle beyond hall h's far edge and centred on its racks (the row after
 * the hall's last). Every device of the network in its rack and U. */
static fp_status net_layout(fp_layout *out, const fp_fabric *f, const int64_t *dr, const int16_t *du,
                            const fp_net_place *pl, const fp_layout *lay, const fp_rspec *crs,
                            fp_error *err)
{
    const fp_phys_spec *ps = &crs->phys;
    const int64_t R = lay->n_rack, n_rack = R + pl->mgmt_racks;
    memset(out, 0, sizeof *out);
    out->rack = calloc((size_t)(n_rack ? n_rack : 1), sizeof *out->rack);
    out->dev_rack = calloc((size_t)(f->n_dev ? f->n_dev : 1), sizeof *out->dev_rack);
    out->dev_u = calloc((size_t)(f->n_dev ? f->n_dev : 1), sizeof *out->dev_u);
    if (out->rack == NULL || out->dev_rack == NULL || out->dev_u == NULL) {
        fp__layout_free(out);
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory laying out the networks");
    }
    memcpy(out->rack, lay->rack, sizeof *out->rack * (size_t)R);
    double floor_d = lay->floor_d;
    for (int64_t k = 0; k < pl->mgmt_racks; k++) {
        int32_t h = pl->mgmt_hall[k];
        if (out->rack[R + k].hall != 0)
            continue;           /* placed with an earlier rack of its hall */
        int max_row = 0, n_h = 0;
        double x_lo = 0, x_hi = 0, y_hi = 0;
        int seen = 0;
        for (int64_t r = 0; r < R; r++) {
            const fp_rack *c = &lay->rack[r];
            if (c->hall != h)
                continue;
            if (!seen || c->x < x_lo)
                x_lo = c->x;
            if (!seen || c->x + ps->rack_width_m > x_hi)
                x_hi = c->x + ps->rack_width_m;
            if (!seen || c->y + ps->rack_depth_m > y_hi)
                y_hi = c->y + ps->rack_depth_m;
            if (c->row > max_row)
                max_row = c->row;
            seen = 1;
        }
        for (int64_t j = k; j < pl->mgmt_racks; j++)
            n_h += pl->mgmt_hall[j] == h;
        double row_w = (double)n_h * ps->rack_width_m;
        double x0 = x_hi - x_lo > row_w ? x_lo + (x_hi - x_lo - row_w) / 2 : x_lo;
        int pos = 0;
        for (int64_t j = k; j < pl->mgmt_racks; j++) {
            if (pl->mgmt_hall[j] != h)
                continue;
            fp_rack *r = &out->rack[R + j];
            r->hall = h;
            r->row = max_row + 1;
            r->pos = ++pos;
            r->role = 1;
            r->x = x0 + (double)(pos - 1) * ps->rack_width_m;
            r->y = y_hi + ps->aisle_m;
            if (r->y + ps->rack_depth_m > floor_d)
                floor_d = r->y + ps->rack_depth_m;
        }
    }
    for (int64_t d = 0; d < f->n_dev; d++) {
        out->dev_rack[d] = (int32_t)(dr[d] >= 0 ? dr[d] : 0);
        out->dev_u[d] = du[d];
    }
    out->n_rack = n_rack;
    out->halls = lay->halls;
    out->rows = lay->rows;
    out->compute_racks = lay->compute_racks;
    out->network_racks = lay->network_racks + pl->mgmt_racks;
    out->floor_w = lay->floor_w;
    out->floor_d = floor_d;
    return FP_OK;
}

/* The trays of the whole floor: each network's layout has the compute racks first, so the
 * compute trays are its first rows; every network's and the compute fabric's fill adds up. */
static fp_status floor_trays(fp_net_phys *np, const fp_cabling *ccab, fp_error *err)
{
    const int64_t n = np->cab[0].n_tray;
    np->tray_cables = calloc((size_t)(n ? n : 1), sizeof *np->tray_cables);
    np->tray_area_mm2 = calloc((size_t)(n ? n : 1), sizeof *np->tray_area_mm2);
    np->tray_rack = calloc((size_t)(n ? n : 1), sizeof *np->tray_rack);
    if (np->tray_cables == NULL || np->tray_area_mm2 == NULL || np->tray_rack == NULL)
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory for the tray fill");
    np->n_tray = n;
    memcpy(np->tray_rack, np->cab[0].tray_rack, sizeof *np->tray_rack * (size_t)n);
    for (int64_t r = 0; r < ccab->n_tray && r < n; r++) {
        np->tray_cables[r] = ccab->tray_cables[r];
        np->tray_area_mm2[r] = ccab->tray_area_mm2[r];
    }
    for (int i = 0; i < np->n; i++)
        for (int64_t r = 0; r < n && r < np->cab[i].n_tray; r++) {
            np->tray_cables[r] += np->cab[i].tray_cables[r];
            np->tray_area_mm2[r] += np->cab[i].tray_area_mm2[r];
        }
    return FP_OK;
}

fp_status fp__net_phys_build(fp_net_phys *out, const fp_nets *nets, const fp_net_fabrics *nf,
                             const fp_net_place *pl, const fp_layout *lay, const fp_cabling *ccab,
                             const fp_rspec *crs, fp_error *err)
{
    memset(out, 0, sizeof *out);
    if (nets->n == 0)
        return FP_OK;
    out->lay = calloc((size_t)nets->n, sizeof *out->lay);
    out->cab = calloc((size_t)nets->n, sizeof *out->cab);
    out->bom = calloc((size_t)nets->n, sizeof *out->bom);
    if (out->lay == NULL || out->cab == NULL || out->bom == NULL) {
        fp__net_phys_free(out);
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory cabling the networks");
    }
    out->n = nets->n;
    for (int i = 0; i < nets->n; i++) {
        const fp_rspec *rs = &nets->net[i].rs;
        const fp_fabric *f = &nf->fab[i];
        fp_status rc;
        if ((rc = net_layout(&out->lay[i], f, pl->dev_rack[i], pl->dev_u[i], pl, lay, crs, err)) != FP_OK ||
            (rc = fp__cabling_build(&out->cab[i], &out->lay[i], f, rs, err)) != FP_OK ||
            (rc = fp__bom_build(&out->bom[i], &out->cab[i], f, rs, err)) != FP_OK) {
            char base[32];
            snprintf(base, sizeof base, "/networks/%d", i);
            fp__net_error_repoint(err, base);
            fp__net_phys_free(out);
            return rc;
        }
    }
    fp_status rc = floor_trays(out, ccab, err);
    if (rc != FP_OK)
        fp__net_phys_free(out);
    return rc;
}
