/* fabplan — physical layout: every device gets a hall, row, rack and U; every rack an (x, y).
 *
 * Fill order (docs/layout.md): servers are cut into units of fabric.su_servers consecutive
 * servers (a scalable unit). Each unit is a run of racks: its compute racks, with its leaf
 * network racks in the middle of the run (or at its end, or no network racks when leaves sit
 * top-of-rack). Units are packed into rows of layout.racks_per_row racks, a unit never split
 * across rows unless it is longer than a row. Units are divided evenly over the halls. Each
 * hall gets central network rows in the middle of its compute rows: the spines of its pods
 * (fabrics of 3 or more tiers), and, in the middle hall, the top tiers (cores, super-cores; the
 * spines of a 2-tier fabric). Each switch tier starts a new central row. Switches stack from
 * the top of a rack down; servers from U1 up. */
#include <stdlib.h>
#include <string.h>
#include "phys/phys.h"

#define DEV_TEMP_NONE (-1)

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

typedef struct build {
    const fp_fabric *fab;
    const fp_rspec *rs;
    const fp_phys_spec *ps;
    fp_layout *lay;
    int64_t n_units, unit_servers, units_per_hall;
    int64_t rpr;                        /* racks per row (layout.racks_per_row, or auto) */
    int halls, core_hall;
    int per_rack[FP_MAX_TIERS + 1];     /* switches per network rack, per tier */
    int ru[FP_MAX_TIERS + 1];           /* RU of a switch, per tier */
    /* per unit */
    int64_t *unit_cr, *unit_nr, *unit_leaves, *unit_base, *unit_row, *unit_col;
    int32_t *leaf_unit;                 /* per leaf (tier-1 switch, all planes) */
    int32_t *pod_hall;
    int64_t n_pods;
    /* per hall */
    int64_t hall_compute_rows[64], hall_central_rows[64];
    int64_t central_row0[64][FP_MAX_TIERS + 1], central_base[64][FP_MAX_TIERS + 1],
            central_count[64][FP_MAX_TIERS + 1];
} build;

static int hall_of_unit(const build *b, int64_t u)
{
    return (int)(u / b->units_per_hall);
}

static int switch_hall(const build *b, int64_t dev)
{
    const fp_device *d = &b->fab->dev[dev];
    if (d->tier == 1)
        return hall_of_unit(b, b->leaf_unit[dev - b->fab->tier_base[1]]);
    if (d->tier == 2 && b->fab->tiers >= 3 && d->pod >= 0 && d->pod < b->n_pods)
        return b->pod_hall[d->pod];
    return b->core_hall;
}

static fp_status sizes(build *b, fp_error *err)
{
    const fp_fabric *fab = b->fab;
    const fp_phys_spec *ps = b->ps;
    for (int t = 1; t <= fab->tiers; t++) {
        const fp_part *m = &b->rs->tier[t - 1].model;
        b->ru[t] = m->ru > 0 ? m->ru : 1;
        b->per_rack[t] = ps->rack_units / b->ru[t];
        if (b->per_rack[t] > ps->max_switches_per_rack)
            b->per_rack[t] = ps->max_switches_per_rack;
        if (b->per_rack[t] < 1)
            FP_FAIL(err, FP_EINVAL, "/layout/rack_units",
                    "/layout/rack_units: a %dU rack cannot hold the %dU %s (tier %d)",
                    ps->rack_units, b->ru[t], m->id, t);
    }
    b->unit_servers = b->rs->su_servers;
    b->n_units = ceil_div(fab->servers, b->unit_servers);
    b->units_per_hall = ceil_div(b->n_units, ps->halls);
    b->halls = (int)ceil_div(b->n_units, b->units_per_hall);
    b->core_hall = (b->halls - 1) / 2;
    return FP_OK;
}

/* Which unit each leaf serves: the unit of the first server cabled to it. */
static void leaf_units(build *b)
{
    const fp_fabric *fab = b->fab;
    int64_t n_leaf = fab->tier_base[2] - fab->tier_base[1];
    for (int64_t i = 0; i < n_leaf; i++)
        b->leaf_unit[i] = INT32_MAX;
    for (int64_t l = 0; l < fab->boundary_base[1]; l++) {
        const fp_link *k = &fab->link[l];
        int32_t u = (int32_t)(k->a / b->unit_servers);
        int64_t i = k->z - fab->tier_base[1];
        if (u < b->leaf_unit[i])
            b->leaf_unit[i] = u;
    }
    for (int64_t i = 0; i < n_leaf; i++) {
        if (b->leaf_unit[i] == INT32_MAX)
            b->leaf_unit[i] = 0;
        b->unit_leaves[b->leaf_unit[i]]++;
    }
    for (int64_t p = 0; p < b->n_pods; p++)
        b->pod_hall[p] = INT32_MAX;
    for (int64_t i = 0; i < n_leaf; i++) {
        int32_t pod = fab->dev[fab->tier_base[1] + i].pod;
        int h = hall_of_unit(b, b->leaf_unit[i]);
        if (pod >= 0 && pod < b->n_pods && h < b->pod_hall[pod])
            b->pod_hall[pod] = h;
    }
    for (int64_t p = 0; p < b->n_pods; p++)
        if (b->pod_hall[p] == INT32_MAX)
            b->pod_hall[p] = b->core_hall;
}

/* Racks per row when the spec leaves it open: whole units per row, as many as make a hall
 * about as deep as it is wide (rows are rack depth plus an aisle apart). */
static void auto_row_length(build *b)
{
    const fp_phys_spec *ps = b->ps;
    int64_t cr = ceil_div(b->unit_servers, ps->servers_per_rack);
    int64_t nr = ps->leaf_place == FP_LEAF_TOR ? 0 : ceil_div(b->unit_leaves[0], b->per_rack[1]);
    int64_t len = cr + nr, k = 1;
    if (ps->racks_per_row > 0) {
        b->rpr = ps->racks_per_row;
        return;
    }
    double pitch = ps->rack_depth_m + ps->aisle_m;
    while ((double)(k + 1) * len * ps->rack_width_m <=
           (double)ceil_div(b->units_per_hall, k + 1) * pitch)
        k++;
    b->rpr = k * len;
}

/* Pack the units of each hall into compute rows; count racks. Returns the temp rack count. */
static int64_t pack_units(build *b)
{
    const fp_phys_spec *ps = b->ps;
    int64_t rpr = b->rpr, next = 0;
    int64_t row = -1, col = rpr;
    int cur_hall = -1;
    for (int64_t u = 0; u < b->n_units; u++) {
        int64_t siu = b->fab->servers - u * b->unit_servers;
        if (siu > b->unit_servers)
            siu = b->unit_servers;
        b->unit_cr[u] = ceil_div(siu, ps->servers_per_rack);
        b->unit_nr[u] = ps->leaf_place == FP_LEAF_TOR ? 0 : ceil_div(b->unit_leaves[u], b->per_rack[1]);
        int64_t len = b->unit_cr[u] + b->unit_nr[u];
        int h = hall_of_unit(b, u);
        if (h != cur_hall) {
            cur_hall = h;
            row = -1;
            col = rpr;
        }
        if (len > rpr - col) {  /* a new row; a unit longer than a row wraps over several */
            if (col > 0)
                row++;
            col = 0;
        }
        b->unit_row[u] = row;
        b->unit_col[u] = col;
        b->unit_base[u] = next;
        next += len;
        row += (col + len) / rpr;
        col = (col + len) % rpr;
        b->hall_compute_rows[h] = row + (col > 0 ? 1 : 0);
    }
    return next;
}

/* Central rows: count the switches of each tier per hall, give each tier its own rows. */
static int64_t plan_central(build *b, int64_t next)
{
    const fp_fabric *fab = b->fab;
    int64_t rpr = b->rpr;
    for (int t = 2; t <= fab->tiers; t++)
        for (int64_t d = fab->tier_base[t]; d < fab->tier_base[t] + fab->level[t].switches * fab->planes; d++)
            b->central_count[switch_hall(b, d)][t]++;
    for (int h = 0; h < b->halls; h++) {
        int64_t rows = 0;
        for (int t = 2; t <= fab->tiers; t++) {
            int64_t racks = ceil_div(b->central_count[h][t], b->per_rack[t]);
            b->central_row0[h][t] = rows;
            b->central_base[h][t] = next;
            next += racks;
            rows += ceil_div(racks, rpr);
        }
        b->hall_central_rows[h] = rows;
    }
    return next;
}

/* Final row number (0-based in the hall) of compute row r, and of central row c. */
static int64_t compute_row(const build *b, int h, int64_t r)
{
    int64_t first = (b->hall_compute_rows[h] + 1) / 2;
    return r < first ? r : r + b->hall_central_rows[h];
}

static int64_t central_row(const build *b, int h, int64_t c)
{
    return (b->hall_compute_rows[h] + 1) / 2 + c;
}

static void set_rack(build *b, int64_t id, int h, int64_t row, int64_t col, int role)
{
    fp_rack *r = &b->lay->rack[id];
    r->hall = h;
    r->row = (int32_t)row;
    r->pos = (int32_t)col;
    r->role = (uint8_t)role;
}

static void place_racks(build *b)
{
    const fp_fabric *fab = b->fab;
    int64_t rpr = b->rpr;
    for (int64_t u = 0; u < b->n_units; u++) {
        int h = hall_of_unit(b, u);
        int64_t cr = b->unit_cr[u], nr = b->unit_nr[u];
        int64_t half = b->ps->leaf_place == FP_LEAF_END ? cr : cr / 2;
        for (int64_t p = 0; p < cr + nr; p++) {
            int64_t lin = b->unit_col[u] + p;
            int role = (p >= half && p < half + nr) ? 1 : 0;
            set_rack(b, b->unit_base[u] + p, h, compute_row(b, h, b->unit_row[u] + lin / rpr),
                     lin % rpr, role);
        }
    }
    for (int h = 0; h < b->halls; h++)
        for (int t = 2; t <= fab->tiers; t++) {
            int64_t racks = ceil_div(b->central_count[h][t], b->per_rack[t]);
            for (int64_t k = 0; k < racks; k++)
                set_rack(b, b->central_base[h][t] + k, h,
                         central_row(b, h, b->central_row0[h][t] + k / rpr), k % rpr, t);
        }
}

/* Temp rack of compute rack k (0-based) of unit u, and of its network rack j. */
static int64_t unit_compute_rack(const build *b, int64_t u, int64_t k)
{
    int64_t half = b->ps->leaf_place == FP_LEAF_END ? b->unit_cr[u] : b->unit_cr[u] / 2;
    return b->unit_base[u] + (k < half ? k : k + b->unit_nr[u]);
}

static fp_status place_devices(build *b, fp_error *err)
{
    const fp_fabric *fab = b->fab;
    const fp_phys_spec *ps = b->ps;
    fp_layout *lay = b->lay;
    int64_t *leaf_slot = calloc((size_t)b->n_units, sizeof *leaf_slot);
    int16_t *top = NULL;        /* per rack: lowest U taken by switches from the top */
    fp_status rc = FP_OK;
    top = malloc((size_t)lay->n_rack * sizeof *top);
    if (leaf_slot == NULL || top == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory placing devices");
        goto out;
    }
    for (int64_t r = 0; r < lay->n_rack; r++)
        top[r] = (int16_t)(ps->rack_units + 1);
    for (int64_t s = 0; s < fab->servers; s++) {
        int64_t u = s / b->unit_servers, i = s - u * b->unit_servers;
        int64_t rack = unit_compute_rack(b, u, i / ps->servers_per_rack);
        lay->dev_rack[s] = (int32_t)rack;
        lay->dev_u[s] = (int16_t)(1 + (i % ps->servers_per_rack) * ps->server_ru);
        lay->rack[rack].units_used += ps->server_ru;
        lay->rack[rack].devices++;
    }
    int64_t central_slot[64][FP_MAX_TIERS + 1];
    memset(central_slot, 0, sizeof central_slot);
    for (int64_t d = fab->servers; d < fab->n_dev; d++) {
        int t = fab->dev[d].tier, ru = b->ru[t];
        int64_t rack;
        if (t == 1) {
            int64_t u = b->leaf_unit[d - fab->tier_base[1]];
            if (ps->leaf_place == FP_LEAF_TOR) {
                rack = -1;  /* placed below, in the rack of its first server */
            } else {
                int64_t j = leaf_slot[u]++;
                rack = b->unit_base[u] + (ps->leaf_place == FP_LEAF_END ? b->unit_cr[u]
                                                                         : b->unit_cr[u] / 2) +
                       j / b->per_rack[1];
            }
        } else {
            int h = switch_hall(b, d);
            int64_t j = central_slot[h][t]++;
            rack = b->central_base[h][t] + j / b->per_rack[t];
        }
        if (rack < 0)
            continue;   /* top-of-rack leaves: placed by place_tor_leaves */
        top[rack] = (int16_t)(top[rack] - ru);
        lay->dev_rack[d] = (int32_t)rack;
        lay->dev_u[d] = top[rack];
        lay->rack[rack].units_used += ru;
        lay->rack[rack].devices++;
    }
    if (ps->leaf_place == FP_LEAF_TOR) {
        /* Rack of the first server cabled to each leaf. */
        int64_t n_leaf = fab->tier_base[2] - fab->tier_base[1];
        int64_t *first = malloc((size_t)n_leaf * sizeof *first);
        if (first == NULL) {
            rc = fp__error_set(err, FP_ENOMEM, "", "out of memory placing devices");
            goto out;
        }
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
                rc = fp__error_set(err, FP_EDESIGN, "/layout/leaf_racks",
                                   "/layout/leaf_racks: top-of-rack leaves do not fit: a rack holds %d servers of %dU and its leaves need %dU each, more than the %dU rack; use fewer servers_per_rack or leaf_racks \"middle\"",
                                   ps->servers_per_rack, ps->server_ru, ru, ps->rack_units);
                goto out;
            }
        }
        free(first);
    }
out:
    free(leaf_slot);
    free(top);
    return rc;
}

typedef struct rack_key {
    int64_t key, index;
} rack_key;

static int rack_key_cmp(const void *pa, const void *pb)
{
    const rack_key *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Number racks in floor order, make hall/row/pos 1-based, set coordinates. */
static fp_status finish(build *b, fp_error *err)
{
    fp_layout *lay = b->lay;
    const fp_phys_spec *ps = b->ps;
    int64_t n = lay->n_rack;
    rack_key *order = malloc((size_t)n * sizeof *order);
    int64_t *inv = malloc((size_t)n * sizeof *inv);
    fp_rack *sorted = malloc((size_t)n * sizeof *sorted);
    if (order == NULL || inv == NULL || sorted == NULL) {
        free(order);
        free(inv);
        free(sorted);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory sorting racks");
    }
    for (int64_t i = 0; i < n; i++) {
        const fp_rack *r = &lay->rack[i];
        order[i].key = ((int64_t)r->hall << 42) | ((int64_t)r->row << 21) | r->pos;
        order[i].index = i;
    }
    qsort(order, (size_t)n, sizeof *order, rack_key_cmp);
    for (int64_t i = 0; i < n; i++) {
        sorted[i] = lay->rack[order[i].index];
        inv[order[i].index] = i;
    }
    for (int64_t d = 0; d < b->fab->n_dev; d++)
        lay->dev_rack[d] = (int32_t)inv[lay->dev_rack[d]];
    free(lay->rack);
    lay->rack = sorted;
    free(order);
    free(inv);

    double pitch = ps->rack_depth_m + ps->aisle_m, y0 = 0;
    int64_t rows_total = 0;
    lay->floor_w = 0;
    for (int h = 0; h < b->halls; h++) {
        int64_t rows = b->hall_compute_rows[h] + b->hall_central_rows[h];
        for (int64_t i = 0; i < n; i++) {
            fp_rack *r = &lay->rack[i];
            if (r->hall != h)
                continue;
            r->x = r->pos * ps->rack_width_m;
            r->y = y0 + r->row * pitch;
            if (r->x + ps->rack_width_m > lay->floor_w)
                lay->floor_w = r->x + ps->rack_width_m;
        }
        y0 += rows * pitch - ps->aisle_m + (h + 1 < b->halls ? ps->hall_gap_m : 0);
        rows_total += rows;
    }
    lay->floor_d = y0;
    lay->rows = (int)rows_total;
    lay->halls = b->halls;
    for (int64_t i = 0; i < n; i++) {
        fp_rack *r = &lay->rack[i];
        r->hall++;
        r->row++;
        r->pos++;
        if (r->role == 0)
            lay->compute_racks++;
        else
            lay->network_racks++;
    }
    return FP_OK;
}

fp_status fp__layout_build(fp_layout *lay, const fp_fabric *fab, const fp_rspec *rs, fp_error *err)
{
    build b;
    fp_status rc;
    memset(lay, 0, sizeof *lay);
    memset(&b, 0, sizeof b);
    b.fab = fab;
    b.rs = rs;
    b.ps = &rs->phys;
    b.lay = lay;
    if ((rc = sizes(&b, err)) != FP_OK)
        return rc;
    int64_t n_leaf = fab->tier_base[2] - fab->tier_base[1];
    b.n_pods = fab->tiers >= 3 ? fab->level[2].blocks : 0;
    size_t nu = (size_t)b.n_units;
    b.unit_cr = calloc(nu, sizeof(int64_t));
    b.unit_nr = calloc(nu, sizeof(int64_t));
    b.unit_leaves = calloc(nu, sizeof(int64_t));
    b.unit_base = calloc(nu, sizeof(int64_t));
    b.unit_row = calloc(nu, sizeof(int64_t));
    b.unit_col = calloc(nu, sizeof(int64_t));
    b.leaf_unit = calloc((size_t)n_leaf, sizeof(int32_t));
    b.pod_hall = calloc((size_t)(b.n_pods ? b.n_pods : 1), sizeof(int32_t));
    lay->dev_rack = calloc((size_t)fab->n_dev, sizeof *lay->dev_rack);
    lay->dev_u = calloc((size_t)fab->n_dev, sizeof *lay->dev_u);
    if (!b.unit_cr || !b.unit_nr || !b.unit_leaves || !b.unit_base || !b.unit_row || !b.unit_col ||
        !b.leaf_unit || !b.pod_hall || !lay->dev_rack || !lay->dev_u) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for the layout");
        goto out;
    }
    leaf_units(&b);
    auto_row_length(&b);
    int64_t n = pack_units(&b);
    n = plan_central(&b, n);
    lay->rack = calloc((size_t)n, sizeof *lay->rack);
    if (lay->rack == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for %lld racks", (long long)n);
        goto out;
    }
    lay->n_rack = n;
    place_racks(&b);
    if ((rc = place_devices(&b, err)) != FP_OK || (rc = finish(&b, err)) != FP_OK)
        goto out;
out:
    free(b.unit_cr);
    free(b.unit_nr);
    free(b.unit_leaves);
    free(b.unit_base);
    free(b.unit_row);
    free(b.unit_col);
    free(b.leaf_unit);
    free(b.pod_hall);
    if (rc != FP_OK)
        fp__layout_free(lay);
    return rc;
}

void fp__layout_free(fp_layout *lay)
{
    if (lay == NULL)
        return;
    free(lay->rack);
    free(lay->dev_rack);
    free(lay->dev_u);
    memset(lay, 0, sizeof *lay);
}

void fp__location(fp_location *out, const fp_layout *lay, int64_t dev)
{
    const fp_rack *r = &lay->rack[lay->dev_rack[dev]];
    out->hall = r->hall;
    out->row = r->row;
    out->rack = r->pos;
    out->u = lay->dev_u[dev];
    snprintf(out->text, sizeof out->text, "H%d-R%02d-K%02d-U%02d", r->hall, r->row, r->pos, out->u);
}
