/* fabplan — the layout's rack stream: units, spine racks and central rows become racks in rows,
 * hall by hall (docs/layout.md gives the fill order), and every device gets its rack and U. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/layout_work.h"

/* ---- the rack stream ---- */

static fp_status push_rack(fp_layout_ctx *b, int role, double width, double power, fp_error *err)
{
    const fp_phys_spec *ps = b->ps;
    if (b->cur_pos > 0 && (b->cur_pos >= b->rpr ||
                           (ps->row_power_limit_w > 0 && b->cur_power + power > ps->row_power_limit_w))) {
        b->cur_row++;
        b->cur_pos = 0;
        b->cur_power = 0;
    }
    if (b->n_rk == b->cap_rk) {
        int64_t cap = b->cap_rk ? b->cap_rk * 2 : 1024;
        fp_temp_rack *n = realloc(b->rk, (size_t)cap * sizeof *n);
        if (n == NULL)
            FP_FAIL(err, FP_ENOMEM, "", "out of memory for the racks");
        b->rk = n;
        b->cap_rk = cap;
    }
    fp_temp_rack *r = &b->rk[b->n_rk++];
    r->hall = b->cur_hall;
    r->row = b->cur_row;
    r->pos = b->cur_pos++;
    r->role = (uint8_t)role;
    r->width = width;
    r->power = power;
    b->cur_power += power;
    return FP_OK;
}

/* A block of n racks drawing w starts a new row unless it fits in what is left of this one. */
static void keep_together(fp_layout_ctx *b, int64_t n, double w)
{
    const fp_phys_spec *ps = b->ps;
    if (b->cur_pos == 0)
        return;
    if (b->cur_pos + n > b->rpr || (ps->row_power_limit_w > 0 && b->cur_power + w > ps->row_power_limit_w)) {
        b->cur_row++;
        b->cur_pos = 0;
        b->cur_power = 0;
    }
}

static void new_row(fp_layout_ctx *b)
{
    if (b->cur_pos > 0) {
        b->cur_row++;
        b->cur_pos = 0;
        b->cur_power = 0;
    }
}

static double unit_power(const fp_layout_ctx *b, int64_t u)
{
    int64_t siu = b->fab->servers - u * b->unit_servers;
    if (siu > b->unit_servers)
        siu = b->unit_servers;
    return (double)siu * b->dev_w[0] + (double)b->unit_leaves[u] * b->dev_w[1];
}

static fp_status emit_unit(fp_layout_ctx *b, int64_t u, fp_error *err)
{
    const fp_phys_spec *ps = b->ps;
    int64_t cr = b->unit_cr[u], nr = b->unit_nr[u];
    int64_t half = ps->leaf_place == FP_LEAF_END ? cr : cr / 2;
    int64_t siu = b->fab->servers - u * b->unit_servers;
    if (siu > b->unit_servers)
        siu = b->unit_servers;
    keep_together(b, cr + nr, unit_power(b, u));
    b->unit_base[u] = b->n_rk;
    fp_status rc = FP_OK;
    int64_t per_leaf_rack = b->per_rack[1];
    for (int64_t p = 0; p < cr + nr && rc == FP_OK; p++) {
        int leaf = p >= half && p < half + nr;
        double w;
        if (leaf) {
            int64_t j = p - half, n = b->unit_leaves[u] - j * per_leaf_rack;
            w = (double)(n < per_leaf_rack ? n : per_leaf_rack) * b->dev_w[1];
        } else {
            int64_t k = p < half ? p : p - nr, n = siu - k * ps->servers_per_rack;
            w = (double)(n < ps->servers_per_rack ? n : ps->servers_per_rack) * b->dev_w[0];
        }
        rc = push_rack(b, leaf ? 1 : 0, leaf ? ps->network_rack_width_m : ps->rack_width_m, w, err);
    }
    return rc;
}

static fp_status emit_spine_racks(fp_layout_ctx *b, int64_t g, fp_error *err)
{
    int64_t n = b->grp_sr[g], s = b->grp_spines[g];
    keep_together(b, n, (double)s * b->dev_w[2]);
    b->grp_sr_base[g] = b->n_rk;
    for (int64_t j = 0; j < n; j++) {
        int64_t in_rack = s / n + (j < s % n ? 1 : 0);
        fp_status rc = push_rack(b, 2, b->ps->network_rack_width_m, (double)in_rack * b->dev_w[2], err);
        if (rc != FP_OK)
            return rc;
    }
    return FP_OK;
}

/* Which hall a central switch stands in: the top tier spread evenly over all halls, a 4-tier
 * fabric's cores over the halls of their zone, spines (central mode) in their pod's hall. */
static int central_hall(const fp_layout_ctx *b, int64_t d, const int32_t *pod_group,
                        int32_t zone_h0[], int32_t zone_h1[])
{
    const fp_fabric *fab = b->fab;
    const fp_device *dv = &fab->dev[d];
    int t = dv->tier;
    int64_t n = fab->level[t].switches * fab->planes, i = d - fab->tier_base[t];
    if (is_pod_tier(b, t) && dv->pod >= 0 && pod_group[dv->pod] >= 0)
        return b->grp_hall[pod_group[dv->pod]];
    if (t == 3 && fab->tiers >= 4 && dv->zone >= 0 && zone_h0[dv->zone] >= 0) {
        int64_t per = fab->level[3].positions, q = dv->index;
        int span = zone_h1[dv->zone] - zone_h0[dv->zone] + 1;
        return zone_h0[dv->zone] + (int)(q * span / (per > 0 ? per : 1));
    }
    return (int)(i * b->halls / (n > 0 ? n : 1));
}

fp_status fp__layout_stream(fp_layout_ctx *b, int32_t *pod_group, int32_t *zone_h0,
                            int32_t *zone_h1, fp_error *err)
{
    const fp_fabric *fab = b->fab;
    fp_status rc = FP_OK;
    /* Central switch counts per hall and tier. */
    for (int t = b->top_central_from; t <= fab->tiers; t++)
        for (int64_t d = fab->tier_base[t]; d < fab->tier_base[t] + fab->level[t].switches * fab->planes; d++)
            b->central_count[central_hall(b, d, pod_group, zone_h0, zone_h1)][t]++;
    int64_t g = 0;
    for (int h = 0; h < b->halls; h++) {
        b->cur_hall = h;
        b->cur_row = 0;
        b->cur_pos = 0;
        b->cur_power = 0;
        for (; g < b->n_groups && b->grp_hall[g] == h; g++) {
            int64_t u0 = b->grp_unit0[g], nu = b->grp_units[g];
            int64_t racks = b->grp_sr[g];
            for (int64_t u = u0; u < u0 + nu; u++)
                racks += b->unit_cr[u] + b->unit_nr[u];
            keep_together(b, racks, b->grp_power[g]);
            int64_t mid = (nu + 1) / 2;
            for (int64_t k = 0; k < nu && rc == FP_OK; k++) {
                if (k == mid && b->grp_sr[g] > 0)
                    rc = emit_spine_racks(b, g, err);
                if (rc == FP_OK)
                    rc = emit_unit(b, u0 + k, err);
            }
            if (rc == FP_OK && nu == 1 && b->grp_sr[g] > 0)
                rc = emit_spine_racks(b, g, err);
            if (rc != FP_OK)
                return rc;
        }
        new_row(b);
        b->hall_rows[h] = b->cur_row;
        /* Central rows: each tier starts a new row. */
        int32_t c0 = b->cur_row;
        for (int t = b->top_central_from; t <= fab->tiers; t++) {
            int64_t n = b->central_count[h][t];
            if (n == 0)
                continue;
            b->central_base[h][t] = b->n_rk;
            for (int64_t j = 0; j * b->per_rack[t] < n; j++) {
                int64_t in_rack = n - j * b->per_rack[t];
                if (in_rack > b->per_rack[t])
                    in_rack = b->per_rack[t];
                if ((rc = push_rack(b, t, b->ps->network_rack_width_m,
                                    (double)in_rack * b->dev_w[t], err)) != FP_OK)
                    return rc;
            }
            new_row(b);
        }
        b->hall_central_row0[h] = c0;
        b->hall_central_rows[h] = b->cur_row - c0;
    }
    return FP_OK;
}

/* Servers into their unit's compute racks, from U1 up in the units no fixture takes
 * (ps->server_u); each compute rack that holds a server holds the fixtures too. */
static void place_servers(fp_layout_ctx *b)
{
    const fp_phys_spec *ps = b->ps;
    fp_layout *lay = b->lay;
    for (int64_t s = 0; s < b->fab->servers; s++) {
        int64_t u = s / b->unit_servers, i = s - u * b->unit_servers;
        int64_t k = i / ps->servers_per_rack;
        int64_t half = ps->leaf_place == FP_LEAF_END ? b->unit_cr[u] : b->unit_cr[u] / 2;
        int64_t rack = b->unit_base[u] + (k < half ? k : k + b->unit_nr[u]);
        lay->dev_rack[s] = (int32_t)rack;
        lay->dev_u[s] = ps->server_u[i % ps->servers_per_rack];
        lay->rack[rack].units_used += ps->server_ru +
                                      ((i % ps->servers_per_rack) == 0 ? ps->fixture_units : 0);
        lay->rack[rack].devices++;
    }
}

/* Top-of-rack leaves: each in the rack of the first server cabled to it, below the switches
 * placed there before (top[]: each rack's lowest used U). FP_EDESIGN when they do not fit. */
static fp_status place_tor_leaves(fp_layout_ctx *b, int16_t *top, fp_error *err)
{
    const fp_fabric *fab = b->fab;
    const fp_phys_spec *ps = b->ps;
    fp_layout *lay = b->lay;
    int64_t n_leaf = fab->tier_base[2] - fab->tier_base[1];
    int64_t *first = malloc((size_t)n_leaf * sizeof *first);
    if (first == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory placing devices");
    for (int64_t i = 0; i < n_leaf; i++)
        first[i] = INT64_MAX;
    for (int64_t l = 0; l < fab->boundary_base[1]; l++) {
        int64_t i = fab->link[l].z - fab->tier_base[1];
        if (fab->link[l].a < first[i])
            first[i] = fab->link[l].a;
    }
    for (int64_t i = 0; i < n_leaf; i++) {
        int64_t d = fab->tier_base[1] + i;
        int64_t rack = lay->dev_rack[first[i] == INT64_MAX ? 0 : first[i]];
        int ru = b->ru[1];
        top[rack] = (int16_t)(top[rack] - ru);
        lay->dev_rack[d] = (int32_t)rack;
        lay->dev_u[d] = top[rack];
        lay->rack[rack].units_used += ru;
        lay->rack[rack].devices++;
        if (lay->rack[rack].units_used > ps->rack_units) {
            free(first);
            FP_FAIL(err, FP_EDESIGN, "/layout/leaf_racks",
                    "/layout/leaf_racks: top-of-rack leaves do not fit: a rack holds %d servers of "
                    "%dU and its leaves need %dU each, more than the %dU rack; use fewer "
                    "servers_per_rack or leaf_racks \"middle\"",
                    ps->servers_per_rack, ps->server_ru, ru, ps->rack_units);
        }
    }
    free(first);
    return FP_OK;
}

fp_status fp__layout_place(fp_layout_ctx *b, const int32_t *pod_group, int32_t *zone_h0,
                           int32_t *zone_h1, fp_error *err)
{
    const fp_fabric *fab = b->fab;
    const fp_phys_spec *ps = b->ps;
    fp_layout *lay = b->lay;
    int64_t *leaf_slot = calloc((size_t)b->n_units, sizeof *leaf_slot);
    int64_t *spine_slot = calloc((size_t)(b->n_groups ? b->n_groups : 1), sizeof *spine_slot);
    int16_t *top = malloc((size_t)lay->n_rack * sizeof *top);
    int64_t (*central_slot)[FP_MAX_TIERS + 1] = calloc(MAX_HALLS, sizeof *central_slot);
    fp_status rc = FP_OK;
    if (leaf_slot == NULL || spine_slot == NULL || top == NULL || central_slot == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory placing devices");
        goto out;
    }
    for (int64_t r = 0; r < lay->n_rack; r++)
        top[r] = (int16_t)(ps->rack_units + 1);
    place_servers(b);
    for (int64_t d = fab->servers; d < fab->n_dev; d++) {
        const fp_device *dv = &fab->dev[d];
        int t = dv->tier, ru = b->ru[t];
        int64_t rack;
        if (t == 1) {
            int64_t u = b->leaf_unit[d - fab->tier_base[1]];
            if (ps->leaf_place == FP_LEAF_TOR)
                continue;   /* placed below, in the rack of its first server */
            int64_t j = leaf_slot[u]++;
            rack = b->unit_base[u] + (ps->leaf_place == FP_LEAF_END ? b->unit_cr[u] : b->unit_cr[u] / 2) +
                   j / b->per_rack[1];
        } else if (b->pod_mode && is_pod_tier(b, t) && dv->pod >= 0 && pod_group[dv->pod] >= 0 &&
                   b->grp_sr[pod_group[dv->pod]] > 0) {
            /* Round-robin over the pod's spine racks: each holds at most its share. */
            int64_t g = pod_group[dv->pod];
            rack = b->grp_sr_base[g] + spine_slot[g]++ % b->grp_sr[g];
        } else {
            int h = central_hall(b, d, pod_group, zone_h0, zone_h1);
            int64_t j = central_slot[h][t]++;
            rack = b->central_base[h][t] + j / b->per_rack[t];
        }
        top[rack] = (int16_t)(top[rack] - ru);
        lay->dev_rack[d] = (int32_t)rack;
        lay->dev_u[d] = top[rack];
        lay->rack[rack].units_used += ru;
        lay->rack[rack].devices++;
        if (lay->rack[rack].units_used > ps->rack_units) {
            rc = fp__error_set(err, FP_EDESIGN, "/layout/rack_units",
                               "/layout/rack_units: a %dU network rack cannot hold its switches "
                               "(%dU each); lower max_switches_per_rack or max_cords_per_rack",
                               ps->rack_units, ru);
            goto out;
        }
    }
    if (ps->leaf_place == FP_LEAF_TOR)
        rc = place_tor_leaves(b, top, err);
out:
    free(leaf_slot);
    free(spine_slot);
    free(top);
    free(central_slot);
    return rc;
}

