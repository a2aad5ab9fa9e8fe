/* fabplan — physical layout: every device gets a hall, row, rack and U; every rack an (x, y).
 *
 * Fill order (docs/layout.md): servers are cut into units of fabric.su_servers consecutive
 * servers (a scalable unit). A unit is a run of racks: its compute racks with its leaf racks in
 * the middle (or at its end, or none when leaves sit top-of-rack). Units are grouped: a pod
 * (fabrics of 3 or more tiers) or a single unit (2 tiers). Groups are packed into halls in
 * order, a new hall when the next group would take the hall over layout.hall_power_limit_w
 * (or divided evenly when layout.halls is given); a pod never spans two halls, and a zone
 * stays in one hall when zones fit. In a hall, racks stream into rows: a row ends at
 * layout.racks_per_row racks or layout.row_power_limit_w of estimated power; a unit (a group)
 * starts a new row when it does not fit in what is left of the current one. With
 * layout.spine_racks "pod" each pod's spines stand in network racks in the middle of the pod's
 * run, spread round-robin so that no rack holds more than spine_rack_max_share of them. Central
 * network rows in the middle of each hall hold the top tiers (spread evenly over the halls; a
 * 4-tier fabric's cores over the halls of their zone) and, with "central", the spines of the
 * hall's pods. Rows stand end to end in lines, a cross-aisle between them, as many per line as
 * make the hall about as deep as it is wide. Switches stack from the top of a rack down;
 * servers from U1 up. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/layout_work.h"

static fp_status sizes(fp_layout_ctx *b, fp_error *err)
{
    const fp_fabric *fab = b->fab;
    const fp_phys_spec *ps = b->ps;
    /* Link-end allowance for optics: the most a module draws per link it carries. */
    double per_end = 0;
    for (int i = 0; i < ps->n_parts; i++) {
        const fp_part *p = &ps->parts[i];
        if (p->type == FP_PART_TRANSCEIVER) {
            double w = p->power_w / (p->ports > 0 ? p->ports : 1);
            if (w > per_end)
                per_end = w;
        }
    }
    int64_t eps = (int64_t)b->rs->endpoints_per_server * fab->planes;
    /* a compute rack's fixtures (layout.rack_fixtures) shared by its servers */
    b->dev_w[0] = ps->server_power_w + (double)eps * per_end +
                  ps->fixture_power_w / ps->servers_per_rack;
    for (int t = 1; t <= fab->tiers; t++) {
        const fp_part *m = &b->rs->tier[t - 1].model;
        int links = fab->size[t - 1].down + fab->size[t - 1].up;
        if (links < 1)
            links = m->ports;
        b->ru[t] = m->ru > 0 ? m->ru : 1;
        b->per_rack[t] = ps->rack_units / b->ru[t];
        if (b->per_rack[t] > ps->max_switches_per_rack)
            b->per_rack[t] = ps->max_switches_per_rack;
        if (links > 0 && b->per_rack[t] > ps->max_cords_per_rack / links)
            b->per_rack[t] = ps->max_cords_per_rack / links;
        if (b->per_rack[t] < 1)
            b->per_rack[t] = 1;
        if (ps->rack_units / b->ru[t] < 1)
            FP_FAIL(err, FP_EINVAL, "/layout/rack_units",
                    "/layout/rack_units: a %dU rack cannot hold the %dU %s (tier %d)",
                    ps->rack_units, b->ru[t], m->id, t);
        b->dev_w[t] = m->power_w + (double)links * per_end;
    }
    b->unit_servers = b->rs->su_servers;
    b->n_units = ceil_div(fab->servers, b->unit_servers);
    b->pod_mode = fab->tiers >= 3 && ps->spine_place == FP_SPINE_POD;
    b->top_central_from = b->pod_mode ? 3 : 2;
    b->rpr = ps->racks_per_row > 0 ? ps->racks_per_row : 24;
    return FP_OK;
}

/* Which unit each leaf serves: the unit of the first server cabled to it. */
static void leaf_units(fp_layout_ctx *b)
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
}

/* Units and their racks, and the groups they form: a pod is the units whose servers belong to
 * it (a unit joins the pod of its first server); for 2 tiers each unit is its own group. */
static void groups(fp_layout_ctx *b, int32_t *pod_group, int64_t *pod_spines)
{
    const fp_fabric *fab = b->fab;
    const fp_phys_spec *ps = b->ps;
    int64_t g = -1, last_pod = -2;
    for (int64_t u = 0; u < b->n_units; u++) {
        int64_t siu = fab->servers - u * b->unit_servers;
        if (siu > b->unit_servers)
            siu = b->unit_servers;
        b->unit_cr[u] = ceil_div(siu, ps->servers_per_rack);
        b->unit_nr[u] = ps->leaf_place == FP_LEAF_TOR ? 0 : ceil_div(b->unit_leaves[u], b->per_rack[1]);
        int64_t pod = fab->tiers >= 3 ? fab->dev[u * b->unit_servers].pod : u;
        if (pod != last_pod || g < 0) {
            g++;
            b->grp_unit0[g] = u;
            b->grp_zone[g] = fab->tiers >= 4 ? fab->dev[u * b->unit_servers].zone : 0;
            last_pod = pod;
        }
        b->unit_group[u] = g;
        b->grp_units[g]++;
        b->grp_power[g] += (double)siu * b->dev_w[0] + (double)b->unit_leaves[u] * b->dev_w[1];
    }
    b->n_groups = g + 1;
    if (fab->tiers < 3)
        return;
    /* A pod belongs to the group of its first server (several small pods can share a unit). */
    int64_t n_pods = fab->level[2].blocks;
    for (int64_t p = 0; p < n_pods; p++) {
        pod_group[p] = -1;
        pod_spines[p] = 0;
    }
    for (int64_t sv = 0; sv < fab->servers; sv++) {
        int32_t pod = fab->dev[sv].pod;
        if (pod >= 0 && pod < n_pods && pod_group[pod] < 0)
            pod_group[pod] = (int32_t)b->unit_group[sv / b->unit_servers];
    }
    for (int64_t d = fab->tier_base[2]; d < fab->tier_base[2] + fab->level[2].switches * fab->planes; d++) {
        int32_t pod = fab->dev[d].pod;
        if (pod < 0 || pod >= n_pods)
            continue;
        if (pod_group[pod] < 0)     /* a pod without servers: beside the last group */
            pod_group[pod] = (int32_t)(b->n_groups - 1);
        b->grp_spines[pod_group[pod]]++;
        b->grp_power[pod_group[pod]] += b->dev_w[2];
        pod_spines[pod]++;
    }
    for (int64_t k = 0; k < b->n_groups && b->pod_mode; k++) {
        int64_t s = b->grp_spines[k], most = 0;
        for (int64_t p = 0; p < n_pods; p++)
            if (pod_group[p] == k && pod_spines[p] > most)
                most = pod_spines[p];
        int64_t by_room = ceil_div(s, b->per_rack[2]);
        int64_t by_share = (int64_t)ceil(1.0 / ps->spine_rack_share - 1e-9);
        if (by_share > most)
            by_share = most;
        b->grp_sr[k] = by_room > by_share ? by_room : by_share;
    }
}

/* Power of the switches in central rows (spread over the halls). */
static double central_power(const fp_layout_ctx *b)
{
    const fp_fabric *fab = b->fab;
    double w = 0;
    for (int t = b->top_central_from; t <= fab->tiers; t++)
        if (!is_pod_tier(b, t))
            w += (double)fab->level[t].switches * fab->planes * b->dev_w[t];
    return w;
}

/* Groups into halls. layout.halls given: divided evenly, every hall used (group g in hall
 * g * halls / groups: each hall takes floor or ceil of groups / halls, the larger ones spread
 * along the halls, not first: 16 in 7 halls take 3 2 2 3 2 2 2); more halls than groups is
 * an error, as a group never spans two halls. (The earlier ceil-sized halls used fewer halls
 * than asked, silently: 16 units in 7 halls made 6.)
 * Otherwise in order, a new hall when the next group (or zone, when zones fit in a hall)
 * would pass the hall limit less the hall's share of the central tiers; repeated with more
 * halls until the shares agree. */
static fp_status assign_halls(fp_layout_ctx *b, fp_error *err)
{
    const fp_phys_spec *ps = b->ps;
    int64_t ng = b->n_groups;
    if (ps->halls > 0 || ps->hall_power_limit_w <= 0) {
        int h = ps->halls > 0 ? ps->halls : 1;
        if (h > ng)
            FP_FAIL(err, FP_EDESIGN, "/layout/halls",
                    "/layout/halls: %d halls for %lld %s%s; a %s never spans two halls, so at most %lld",
                    h, (long long)ng, b->fab->tiers <= 2 ? "scalable unit" : "pod", ng == 1 ? "" : "s",
                    b->fab->tiers <= 2 ? "unit" : "pod", (long long)ng);
        for (int64_t g = 0; g < ng; g++)
            b->grp_hall[g] = (int32_t)(g * h / ng);
        b->halls = h;
        return FP_OK;
    }
    double top = central_power(b), limit = ps->hall_power_limit_w, zone_max = 0, zw = 0;
    for (int64_t g = 0; g < ng; g++) {
        zw = (g > 0 && b->grp_zone[g] == b->grp_zone[g - 1]) ? zw + b->grp_power[g] : b->grp_power[g];
        if (zw > zone_max)
            zone_max = zw;
    }
    for (int h = 1; h <= MAX_HALLS; h++) {
        double budget = limit - top / h, used = 0;
        int zones_fit = b->fab->tiers >= 4 && zone_max <= budget, hall = 0;
        for (int64_t g = 0; g < ng; g++) {
            double w = b->grp_power[g];
            int starts = 1;
            if (zones_fit) {
                starts = g == 0 || b->grp_zone[g] != b->grp_zone[g - 1];
                for (int64_t k = g + 1; starts && k < ng && b->grp_zone[k] == b->grp_zone[g]; k++)
                    w += b->grp_power[k];
            }
            if (starts && used > 0 && used + w > budget) {
                hall++;
                used = 0;
            }
            used += b->grp_power[g];
            b->grp_hall[g] = hall;
        }
        if (hall + 1 > h)
            continue;
        b->halls = hall + 1;
        /* Even out: the same number of halls, groups (zones) cut at equal shares of the power,
         * kept only when no hall passes the budget. */
        int32_t *even = malloc((size_t)ng * sizeof *even);
        double *in_hall = calloc((size_t)b->halls, sizeof *in_hall);
        double total = 0, cum = 0;
        int ok = even != NULL && in_hall != NULL;
        for (int64_t g = 0; g < ng; g++)
            total += b->grp_power[g];
        for (int64_t g = 0, g1; ok && g < ng; g = g1) {
            double w = 0;
            g1 = g + 1;
            if (zones_fit)
                while (g1 < ng && b->grp_zone[g1] == b->grp_zone[g])
                    g1++;
            for (int64_t k = g; k < g1; k++)
                w += b->grp_power[k];
            int hh = total > 0 ? (int)((cum + w / 2) * b->halls / total) : 0;
            if (hh >= b->halls)
                hh = b->halls - 1;
            for (int64_t k = g; k < g1; k++)
                even[k] = hh;
            in_hall[hh] += w;
            cum += w;
        }
        for (int k = 0; ok && k < b->halls; k++)
            ok = in_hall[k] <= budget && in_hall[k] > 0;
        if (ok)
            memcpy(b->grp_hall, even, (size_t)ng * sizeof *even);
        free(even);
        free(in_hall);
        return FP_OK;
    }
    FP_FAIL(err, FP_EDESIGN, "/layout/hall_power_limit_w",
            "/layout/hall_power_limit_w: %.0f W per hall needs more than %d halls for this fabric; raise the limit",
            limit, MAX_HALLS);
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

/* Final row of stream row r in hall h: central rows go in the middle of the compute rows,
 * starting a line. */
static int32_t final_row(const fp_layout_ctx *b, int h, int32_t r, int k)
{
    int32_t c = b->hall_rows[h], n = b->hall_central_rows[h];
    int32_t lines = (c + k - 1) / k;
    int32_t first = ((lines + 1) / 2) * k;
    if (first > c)
        first = c;
    if (r >= b->hall_central_row0[h])
        return first + (r - b->hall_central_row0[h]);
    return r < first ? r : r + n;
}

/* Rows per line for hall h: as many rows end to end as make the hall about square. */
static int rows_per_line(const fp_layout_ctx *b, int rows, double row_span)
{
    const fp_phys_spec *ps = b->ps;
    if (ps->rows_per_line > 0)
        return ps->rows_per_line;
    double pitch = ps->rack_depth_m + ps->aisle_m, span = row_span + ps->cross_aisle_m;
    int k = 1;
    while (k < rows && (double)(k + 1) * span <= (double)ceil_div(rows, k + 1) * pitch + 1e-9)
        k++;
    return k;
}

/* Halls on the campus: a grid of equal cells (the largest hall's width and depth, hall_gap_m
 * between cells), filled row by row, with the number of columns that makes the campus's width
 * plus depth (the corner-to-corner run) least (the fewest columns on a tie), so the longest run
 * between two halls grows with the square root of the halls, not with their number (54 halls in
 * one line would be about 3 km end to end). Sets each hall's origin and the campus depth. */
static void campus_grid(const fp_layout_ctx *b, const int k_of[], const double span_of[],
                        double x0[], double y0[], double *depth)
{
    const fp_phys_spec *ps = b->ps;
    double pitch = ps->rack_depth_m + ps->aisle_m, cell_w = 0, cell_d = 0, hd[MAX_HALLS];
    for (int h = 0; h < b->halls; h++) {
        int32_t rows = b->hall_rows[h] + b->hall_central_rows[h];
        int32_t lines = (rows + k_of[h] - 1) / k_of[h], across = rows < k_of[h] ? rows : k_of[h];
        double w = across * (span_of[h] + ps->cross_aisle_m) - ps->cross_aisle_m;
        hd[h] = lines * pitch - ps->aisle_m;
        if (w > cell_w)
            cell_w = w;
        if (hd[h] > cell_d)
            cell_d = hd[h];
    }
    cell_w += ps->hall_gap_m;
    cell_d += ps->hall_gap_m;
    int cols = 1;
    for (int c = 2; c <= b->halls; c++)
        if (c * cell_w + ceil_div(b->halls, c) * cell_d <
            cols * cell_w + ceil_div(b->halls, cols) * cell_d - 1e-9)
            cols = c;
    *depth = 0;
    for (int h = 0; h < b->halls; h++) {
        x0[h] = (h % cols) * cell_w;
        y0[h] = (h / cols) * cell_d;
        if (y0[h] + hd[h] > *depth)
            *depth = y0[h] + hd[h];
    }
}

/* Row widths: the widest row of a hall sets where the next row in a line begins. */
static void row_spans(const fp_layout_ctx *b, double span_of[MAX_HALLS])
{
    double w = 0;
    memset(span_of, 0, MAX_HALLS * sizeof *span_of);
    for (int64_t i = 0; i < b->lay->n_rack; i++) {
        const fp_temp_rack *t = &b->rk[i];
        w = (i > 0 && b->rk[i - 1].hall == t->hall && b->rk[i - 1].row == t->row) ? w + t->width : t->width;
        if (w > span_of[t->hall])
            span_of[t->hall] = w;
    }
}

/* Rack i of floor order (order[i].index in the stream) into sorted[i] with its 1-based hall,
 * row and position and its coordinates; inv[stream index] = i. Counts compute and network
 * racks and the floor's width into the layout. */
static void place_racks(fp_layout_ctx *b, const rack_key *order, const double *x_in_row,
                        const int *k_of, const double *span_of, const double *hall_x0,
                        const double *hall_y0, fp_rack *sorted, int64_t *inv)
{
    fp_layout *lay = b->lay;
    const fp_phys_spec *ps = b->ps;
    double pitch = ps->rack_depth_m + ps->aisle_m;
    lay->floor_w = 0;
    for (int64_t i = 0; i < lay->n_rack; i++) {
        int64_t src = order[i].index;
        const fp_temp_rack *t = &b->rk[src];
        fp_rack *r = &sorted[i];
        int k = k_of[t->hall];
        int32_t row = final_row(b, t->hall, t->row, k);
        inv[src] = i;
        r->units_used = lay->rack[src].units_used;
        r->devices = lay->rack[src].devices;
        r->hall = t->hall + 1;
        r->row = row + 1;
        r->pos = t->pos + 1;
        r->role = t->role;
        r->x = hall_x0[t->hall] + (row % k) * (span_of[t->hall] + ps->cross_aisle_m) + x_in_row[src];
        r->y = hall_y0[t->hall] + (row / k) * pitch;
        if (r->x + t->width > lay->floor_w)
            lay->floor_w = r->x + t->width;
        if (t->role == 0)
            lay->compute_racks++;
        else
            lay->network_racks++;
    }
}

/* Number racks in floor order, make hall/row/pos 1-based, set coordinates. */
static fp_status finish(fp_layout_ctx *b, fp_error *err)
{
    fp_layout *lay = b->lay;
    int64_t n = lay->n_rack;
    int k_of[MAX_HALLS];
    double span_of[MAX_HALLS];
    row_spans(b, span_of);
    for (int h = 0; h < b->halls; h++)
        k_of[h] = rows_per_line(b, b->hall_rows[h] + b->hall_central_rows[h], span_of[h]);
    double *x_in_row = malloc((size_t)n * sizeof *x_in_row);
    rack_key *order = malloc((size_t)n * sizeof *order);
    int64_t *inv = malloc((size_t)n * sizeof *inv);
    fp_rack *sorted = calloc((size_t)(n ? n : 1), sizeof *sorted);
    if (order == NULL || inv == NULL || x_in_row == NULL || sorted == NULL) {
        free(order);
        free(inv);
        free(x_in_row);
        free(sorted);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory sorting racks");
    }
    for (int64_t i = 0; i < n; i++) {
        const fp_temp_rack *t = &b->rk[i];
        x_in_row[i] = (i > 0 && b->rk[i - 1].hall == t->hall && b->rk[i - 1].row == t->row)
                          ? x_in_row[i - 1] + b->rk[i - 1].width : 0;
        int32_t row = final_row(b, t->hall, t->row, k_of[t->hall]);
        order[i].key = ((int64_t)t->hall << 42) | ((int64_t)row << 21) | t->pos;
        order[i].index = i;
    }
    qsort(order, (size_t)n, sizeof *order, rack_key_cmp);
    double y0 = 0, hall_x0[MAX_HALLS], hall_y0[MAX_HALLS];
    int64_t rows_total = 0;
    campus_grid(b, k_of, span_of, hall_x0, hall_y0, &y0);
    for (int h = 0; h < b->halls; h++)
        rows_total += b->hall_rows[h] + b->hall_central_rows[h];
    place_racks(b, order, x_in_row, k_of, span_of, hall_x0, hall_y0, sorted, inv);
    free(lay->rack);
    lay->rack = sorted;
    lay->floor_d = y0;
    lay->rows = (int)rows_total;
    lay->halls = b->halls;
    free(order);
    free(x_in_row);
    /* dev_rack holds stream indices until here. */
    for (int64_t d = 0; d < b->fab->n_dev; d++)
        b->lay->dev_rack[d] = (int32_t)inv[b->lay->dev_rack[d]];
    free(inv);
    return FP_OK;
}

/* The build's per-unit and per-group arrays, and the layout's per-device ones. 0 when out of
 * memory (build_free releases what was made). */
static int build_alloc(fp_layout_ctx *b, int64_t n_leaf)
{
    const size_t nu = (size_t)b->n_units;
    b->unit_cr = calloc(nu, sizeof(int64_t));
    b->unit_nr = calloc(nu, sizeof(int64_t));
    b->unit_leaves = calloc(nu, sizeof(int64_t));
    b->unit_base = calloc(nu, sizeof(int64_t));
    b->unit_group = calloc(nu, sizeof(int64_t));
    b->grp_unit0 = calloc(nu, sizeof(int64_t));
    b->grp_units = calloc(nu, sizeof(int64_t));
    b->grp_spines = calloc(nu, sizeof(int64_t));
    b->grp_sr = calloc(nu, sizeof(int64_t));
    b->grp_sr_base = calloc(nu, sizeof(int64_t));
    b->grp_zone = calloc(nu, sizeof(int64_t));
    b->grp_hall = calloc(nu, sizeof(int32_t));
    b->grp_power = calloc(nu, sizeof(double));
    b->leaf_unit = calloc((size_t)n_leaf, sizeof(int32_t));
    b->lay->dev_rack = calloc((size_t)b->fab->n_dev, sizeof *b->lay->dev_rack);
    b->lay->dev_u = calloc((size_t)b->fab->n_dev, sizeof *b->lay->dev_u);
    return b->unit_cr && b->unit_nr && b->unit_leaves && b->unit_base && b->unit_group &&
           b->grp_unit0 && b->grp_units && b->grp_spines && b->grp_sr && b->grp_sr_base &&
           b->grp_zone && b->grp_hall && b->grp_power && b->leaf_unit && b->lay->dev_rack &&
           b->lay->dev_u;
}

static void build_free(fp_layout_ctx *b)
{
    free(b->unit_cr);
    free(b->unit_nr);
    free(b->unit_leaves);
    free(b->unit_base);
    free(b->unit_group);
    free(b->grp_unit0);
    free(b->grp_units);
    free(b->grp_spines);
    free(b->grp_sr);
    free(b->grp_sr_base);
    free(b->grp_zone);
    free(b->grp_hall);
    free(b->grp_power);
    free(b->leaf_unit);
    free(b->rk);
}

/* The first and last hall of each zone's pods (-1 when the zone has none). */
static void zone_halls(const fp_layout_ctx *b, int64_t n_zones, int32_t *zone_h0, int32_t *zone_h1)
{
    for (int64_t z = 0; z < n_zones; z++)
        zone_h0[z] = zone_h1[z] = -1;
    for (int64_t g = 0; g < b->n_groups && n_zones > 0; g++) {
        int64_t z = b->grp_zone[g];
        if (z < 0 || z >= n_zones)
            continue;
        if (zone_h0[z] < 0)
            zone_h0[z] = b->grp_hall[g];
        zone_h1[z] = b->grp_hall[g];
    }
}

fp_status fp__layout_build(fp_layout *lay, const fp_fabric *fab, const fp_rspec *rs, fp_error *err)
{
    fp_layout_ctx b;
    fp_status rc;
    int32_t *pod_group = NULL, *zone_h0 = NULL, *zone_h1 = NULL;
    int64_t *pod_spines = NULL;
    memset(lay, 0, sizeof *lay);
    memset(&b, 0, sizeof b);
    b.fab = fab;
    b.rs = rs;
    b.ps = &rs->phys;
    b.lay = lay;
    if ((rc = sizes(&b, err)) != FP_OK)
        return rc;
    int64_t n_leaf = fab->tier_base[2] - fab->tier_base[1];
    int64_t n_pods = fab->tiers >= 3 ? fab->level[2].blocks : 0;
    int64_t n_zones = fab->tiers >= 4 ? fab->level[3].blocks : 0;
    int ok = build_alloc(&b, n_leaf);
    pod_group = malloc((size_t)(n_pods ? n_pods : 1) * sizeof *pod_group);
    pod_spines = malloc((size_t)(n_pods ? n_pods : 1) * sizeof *pod_spines);
    zone_h0 = malloc((size_t)(n_zones ? n_zones : 1) * sizeof *zone_h0);
    zone_h1 = malloc((size_t)(n_zones ? n_zones : 1) * sizeof *zone_h1);
    if (!ok || !pod_group || !pod_spines || !zone_h0 || !zone_h1) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for the layout");
        goto out;
    }
    leaf_units(&b);
    groups(&b, pod_group, pod_spines);
    if ((rc = assign_halls(&b, err)) != FP_OK)
        goto out;
    if (b.halls > MAX_HALLS) {
        rc = fp__error_set(err, FP_EDESIGN, "/layout/halls", "/layout/halls: at most %d halls",
                           MAX_HALLS);
        goto out;
    }
    zone_halls(&b, n_zones, zone_h0, zone_h1);
    if ((rc = fp__layout_stream(&b, pod_group, zone_h0, zone_h1, err)) != FP_OK)
        goto out;
    lay->rack = calloc((size_t)(b.n_rk ? b.n_rk : 1), sizeof *lay->rack);
    if (lay->rack == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for %lld racks", (long long)b.n_rk);
        goto out;
    }
    lay->n_rack = b.n_rk;
    if ((rc = fp__layout_place(&b, pod_group, zone_h0, zone_h1, err)) != FP_OK ||
        (rc = finish(&b, err)) != FP_OK)
        goto out;
out:
    build_free(&b);
    free(pod_group);
    free(pod_spines);
    free(zone_h0);
    free(zone_h1);
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

