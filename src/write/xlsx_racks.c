/* fabplan — the workbook's Racks sheet (every rack, what sits in each U, power, cables
 * leaving), Rack elevation and Trays (every row's overhead tray and its fill). */
#include "xlsx.h"

/* ---- Racks: every rack, what sits in each U (top down), power, cables leaving ---- */

static const fp_xlsx_column rack_cols[] = {
    { "Rack", 13 }, { "Hall", 5 }, { "Row", 5 }, { "Position", 8 }, { "Role", 10 },
    { "x m", 7 },  { "y m", 7 },  { "Units", 6 }, { "Units used", 7 }, { "Devices", 8 },
    { "Power W", 10 }, { "Over limit", 8 }, { "Cables leaving", 9 }, { "Contents (U: device)", 90 },
};
#define N_RACK_COLS ((int)(sizeof rack_cols / sizeof rack_cols[0]))

typedef struct placed {
    int32_t rack, u;
    int64_t dev;
} placed;

static int cmp_placed(const void *x, const void *y)
{
    const placed *a = x, *b = y;
    if (a->rack != b->rack)
        return a->rack < b->rack ? -1 : 1;
    if (a->u != b->u)
        return a->u > b->u ? -1 : 1;    /* top of the rack first, as an elevation reads */
    return (a->dev > b->dev) - (a->dev < b->dev);
}

/* Rack units a device fills: a server's from the layout, a switch's from its model. */
static int device_units(const fp_rspec *rs, int tier)
{
    int ru = tier == 0 ? rs->phys.server_ru : rs->tier[tier - 1].model.ru;
    return ru > 0 ? ru : 1;
}

/* The other networks' switches and extra endpoints (spec `networks`), placed by rack and U:
 * rack as fp_rack_add.rack (a management rack after the layout's racks). */
typedef struct net_placed {
    int64_t rack;
    int u, net;
    int64_t dev;
} net_placed;

static int cmp_net_placed(const void *x, const void *y)
{
    const net_placed *a = x, *b = y;
    if (a->rack != b->rack)
        return a->rack < b->rack ? -1 : 1;
    if (a->u != b->u)
        return a->u > b->u ? -1 : 1;
    if (a->net != b->net)
        return a->net - b->net;
    return (a->dev > b->dev) - (a->dev < b->dev);
}

/* Every network device that is not a compute server, sorted; *n its count (NULL on no memory). */
static net_placed *net_devices(const fp_plan *plan, size_t *n)
{
    const fp_net_place *pl = fp__plan_net_place(plan);
    size_t cap = 0, k = 0;
    *n = 0;
    for (int i = 0; i < fp__plan_net_count(plan); i++)
        cap += (size_t)(fp__plan_net_fabric(plan, i)->n_dev - fp__plan_net(plan, i)->servers);
    net_placed *v = malloc((cap ? cap : 1) * sizeof *v);
    if (v == NULL)
        return NULL;
    for (int i = 0; i < fp__plan_net_count(plan); i++)
        for (int64_t d = fp__plan_net(plan, i)->servers; d < fp__plan_net_fabric(plan, i)->n_dev;
             d++)
            if (pl->dev_rack[i][d] >= 0 && !fp__net_is_alias(fp__plan_net_fabric(plan, i), d))
                v[k++] = (net_placed){ pl->dev_rack[i][d], pl->dev_u[i][d], i, d };
    qsort(v, k, sizeof *v, cmp_net_placed);
    *n = k;
    return v;
}

/* Rack units network device dev of network k fills: a switch its model's, an extra endpoint
 * its group's (0 for entries that take none, such as a BMC port) in its first port group's
 * host only (an endpoint with several port groups is several hosts of one box). */
static int net_units(const fp_plan *plan, int k, int64_t dev)
{
    const fp_net_spec *ns = fp__plan_net(plan, k);
    const fp_fabric *nf = fp__plan_net_fabric(plan, k);
    if (dev >= nf->servers) {
        int t = nf->dev[dev].tier;
        int ru = t >= 1 && t <= nf->tiers ? ns->rs.tier[t - 1].model.ru : 1;
        return ru > 0 ? ru : 1;
    }
    int64_t g = dev - ns->servers;
    for (int i = 0; i < ns->n_extra && g >= 0; i++) {
        const fp_net_extra *x = &ns->extra[i];
        int64_t per = ns->ports > 0 && x->ports >= ns->ports ? x->ports / ns->ports : 1;
        if (g < x->count * per)
            return g % per == 0 ? x->ru : 0;
        g -= x->count * per;
    }
    return 0;
}

/* The networks' devices on the elevation (spec `networks`; n 0 without): v sorted by rack,
 * a device in a grid cell is -3 - its index here. */
typedef struct net_elev {
    const net_placed *v;
    size_t n;
} net_elev;
#define NET_CELL(k) (-3 - (int64_t)(k))

/* Mark the units of the networks' devices in the grid (after the compute devices: a network
 * device stands above a compute rack's own units). */
static void grid_add_networks(const fp_plan *plan, const net_elev *ne, const int32_t *col,
                              size_t n_all, int units, int64_t *grid)
{
    for (size_t k = 0; k < ne->n; k++) {
        const net_placed *q = &ne->v[k];
        int c = q->rack >= 0 && (size_t)q->rack < n_all ? col[q->rack] : -1;
        int h = net_units(plan, q->net, q->dev);
        for (int u = q->u; c >= 0 && u < q->u + h && u <= units; u++)
            if (u >= 1)
                grid[(size_t)c * (size_t)units + (size_t)(u - 1)] = NET_CELL(k);
    }
}

/* The elevation's grid: col[rack] its column or -1 out of scope, racks[column] its rack (the
 * management racks after the layout's), grid[column * units + U-1] the device in that unit, -2
 * a patch panel, -1 empty, NET_CELL(k) network device k. Returns 0, or -1 out of memory (what
 * was allocated is still in the out parameters for the caller to free). */
static int elevation_grid(fp_xlsx_book *b, const placed *pl, size_t np, const net_elev *ne,
                          int units, int32_t **colp, size_t **racksp, size_t *nrp, int64_t **gridp)
{
    const fp_plan *plan = b->plan;
    const fp_rspec *rs = fp__plan_rspec(plan);
    size_t n = fp_plan_rack_count(plan), nr = 0;
    int32_t *col = *colp = calloc(n ? n : 1, sizeof *col);
    size_t *racks = *racksp = malloc((n ? n : 1) * sizeof *racks);
    int64_t *grid;
    if (col == NULL || racks == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        fp_rack_info ra;
        col[i] = -1;
        fp_plan_rack(plan, i, &ra, NULL);
        fp_location where = { .hall = ra.hall, .row = ra.row, .rack = ra.rack };
        if (in_scope(&b->sc, &where)) {
            col[i] = (int32_t)nr;
            racks[nr++] = i;
        }
    }
    *nrp = nr;
    if ((grid = *gridp = malloc((nr ? nr : 1) * (size_t)units * sizeof *grid)) == NULL)
        return -1;
    for (size_t k = 0; k < nr * (size_t)units; k++)
        grid[k] = -1;
    for (size_t k = 0; k < np; k++) {
        int c = pl[k].rack >= 0 && (size_t)pl[k].rack < n ? col[pl[k].rack] : -1;
        int h = device_units(rs, fp__plan_fabric(plan)->dev[pl[k].dev].tier);
        for (int u = pl[k].u; c >= 0 && u < pl[k].u + h && u <= units; u++)
            if (u >= 1)
                grid[(size_t)c * (size_t)units + (size_t)(u - 1)] = pl[k].dev;
    }
    grid_add_networks(plan, ne, col, n, units, grid);
    /* Patch panels (structured cabling): -2 in their units. */
    for (size_t c = 0; c < nr; c++) {
        fp_rack_info ra;
        fp_plan_rack(plan, racks[c], &ra, NULL);
        for (int u = ra.panel_u; ra.panels > 0 && u < ra.panel_u + ra.panels && u <= units; u++)
            if (u >= 1)
                grid[c * (size_t)units + (size_t)(u - 1)] = -2;
    }
    return 0;
}

/* A network device's cell: its network role's fill (extra endpoints their own) and its name. */
static lxw_format *net_cell(fp_xlsx_book *b, const net_placed *q, char *name, size_t n)
{
    const fp_plan *plan = b->plan;
    const fp_net_spec *ns = fp__plan_net(plan, q->net);
    const fp_fabric *nf = fp__plan_net_fabric(plan, q->net);
    fp__net_device_name(name, n, ns, nf, fp__plan_fabric(plan), fp__plan_rspec(plan), q->dev);
    return q->dev < nf->servers ? b->net_fill[FP_NET_OOB + 1]
                                : b->net_fill[(unsigned)ns->role <= FP_NET_OOB ? ns->role : 0];
}

/* The racks' names and roles, then one row per U from the top. */
static void elevation_rows(fp_xlsx_book *b, lxw_worksheet *ws, const size_t *racks, size_t nr,
                           const int64_t *grid, int units, const net_elev *ne)
{
    const fp_plan *plan = b->plan;
    char name[160];
    /* Rows strictly in order (constant memory): rack names, then their roles. */
    for (int hr = 0; hr < 2; hr++) {
        put_s(b, ws, (lxw_row_t)hr, 0, hr ? "" : "U", b->header);
        for (size_t c = 0; c < nr; c++) {
            fp_rack_info ra;
            fp_plan_rack(plan, racks[c], &ra, NULL);
            put_s(b, ws, (lxw_row_t)hr, (lxw_col_t)(c + 1), hr ? ra.role : ra.name, b->header);
        }
    }
    for (int u = units; u >= 1; u--) {
        lxw_row_t r = (lxw_row_t)(2 + units - u);
        put_n(b, ws, r, 0, u, b->center);
        for (size_t c = 0; c < nr; c++) {
            int64_t d = grid[c * (size_t)units + (size_t)(u - 1)];
            if (d == -2) {
                put_s(b, ws, r, (lxw_col_t)(c + 1), "patch panel", b->panel);
                continue;
            }
            /* the name in the device's top unit; the units below it carry its colour */
            int top = u == units || grid[c * (size_t)units + (size_t)u] != d;
            if (d <= NET_CELL(0)) {
                lxw_format *f = net_cell(b, &ne->v[NET_CELL(0) - d], name, sizeof name);
                put_s(b, ws, r, (lxw_col_t)(c + 1), top ? name : "", f);
                continue;
            }
            if (d < 0) {
                put_s(b, ws, r, (lxw_col_t)(c + 1), "", b->box);
                continue;
            }
            int tier = fp__plan_fabric(plan)->dev[d].tier;
            lxw_format *f = b->role[tier <= FP_MAX_TIERS ? tier : FP_MAX_TIERS];
            put_s(b, ws, r, (lxw_col_t)(c + 1),
                  top ? fp__device_name(name, sizeof name, fp__plan_fabric(plan),
                                        fp__plan_rspec(plan), d) : "", f);
        }
    }
}

/* The networks' part of the legend (spec `networks`), from row r: each network's switches
 * (model and height) in its role's colour, then the extra endpoints that take rack units. */
static void elevation_legend_networks(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r)
{
    const fp_plan *plan = b->plan;
    char text[200], servers[400];
    size_t len = 0;
    for (int k = 0; k < fp__plan_net_count(plan); k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        const fp_fabric *nf = fp__plan_net_fabric(plan, k);
        for (int t = 1; t <= nf->tiers; t++) {
            const fp_part *m = &ns->rs.tier[t - 1].model;
            if (t > 1 && strcmp(m->id, ns->rs.tier[t - 2].model.id) == 0)
                continue;       /* one line per model */
            snprintf(text, sizeof text, "%s network (%s) switch: %s (%d U)", ns->name,
                     fp__net_role_name(ns->role), m->id, m->ru > 0 ? m->ru : 1);
            put_s(b, ws, r++, 1, text,
                  b->net_fill[(unsigned)ns->role <= FP_NET_OOB ? ns->role : 0]);
        }
        for (int i = 0; i < ns->n_extra; i++)
            if (ns->extra[i].ru > 0 && len + 64 < sizeof servers) {
                int w = snprintf(servers + len, sizeof servers - len, "%s%s (%d U)",
                                 len ? ", " : "", ns->extra[i].name, ns->extra[i].ru);
                len += w > 0 ? (size_t)w : 0;
            }
    }
    if (len > 0) {
        char line[440];
        snprintf(line, sizeof line, "network server: %s", servers);
        put_s(b, ws, r, 1, line, b->net_fill[FP_NET_OOB + 1]);
    }
}

/* Legend below the racks: each role's colour and height. */
static void elevation_legend(fp_xlsx_book *b, lxw_worksheet *ws, int units)
{
    const fp_plan *plan = b->plan;
    const fp_rspec *rs = fp__plan_rspec(plan);
    char name[48];
    lxw_row_t r = (lxw_row_t)(units + 3);
    put_s(b, ws, r++, 1, "Legend", b->bold);
    for (int t = 0; t <= (int)fp_plan_tier_count(plan) && t <= FP_MAX_TIERS; t++) {
        fp_tier_info ti;
        const char *role = "server";
        if (t > 0 && fp_plan_tier(plan, (size_t)(t - 1), &ti, NULL) == FP_OK)
            role = ti.role;
        snprintf(name, sizeof name, "%s (%d U)", role, device_units(rs, t));
        put_s(b, ws, r++, 1, name, b->role[t]);
    }
    if (rs->phys.structured)
        put_s(b, ws, r++, 1, "patch panel (1 U)", b->panel);
    elevation_legend_networks(b, ws, r);
}

/* Racks one elevation sheet holds: a sheet has LXW_COL_MAX columns, the first for the U; more
 * racks continue on "Rack elevation (2)"... (fp__xlsx_test_elevation_racks sets fewer). */
static size_t elevation_racks = LXW_COL_MAX - 1;

size_t fp__xlsx_test_elevation_racks(size_t racks)
{
    size_t was = elevation_racks;
    elevation_racks = racks >= 1 && racks < LXW_COL_MAX ? racks : LXW_COL_MAX - 1;
    return was;
}

/* "Rack elevation": one column per rack in scope (floor order), one row per U from the top, each
 * device's units filled in its role's colour and its name in its top unit, as a rack elevation
 * drawing reads. Prints one page tall, portrait, the U column repeated on every page. Past a
 * sheet's columns the racks continue on "Rack elevation (2)", ..., each sheet with its U column
 * and legend: every rack is drawn (the first sheet once stopped at 16,382 racks, silently). */
static void write_elevation(fp_xlsx_book *b, const placed *pl, size_t np, const net_elev *ne)
{
    const fp_rspec *rs = fp__plan_rspec(b->plan);
    int units = rs->phys.rack_units > 0 ? rs->phys.rack_units : 1;
    int32_t *col = NULL;        /* rack -> column, -1 out of scope */
    size_t *racks = NULL, nr = 0;   /* column -> rack */
    int64_t *grid = NULL;       /* [column][U-1] -> device, -1 */
    if (elevation_grid(b, pl, np, ne, units, &col, &racks, &nr, &grid) != 0) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Rack elevation");
        goto out;
    }
    size_t first = 0;
    int part = 1;
    do {    /* a sheet even with no rack in scope */
        size_t n = nr - first < elevation_racks ? nr - first : elevation_racks;
        char name[32];
        fp_xlsx__part_name(name, sizeof name, "Rack elevation", part++);
        lxw_worksheet *ws = fp_xlsx__add_sheet(b, name);
        if (ws == NULL)
            goto out;
        fp_xlsx__sheet_started(b, name);
        keep(b, worksheet_set_column(ws, 0, 0, 4, NULL));
        /* wider with networks: "inband-su01-leaf-r1" */
        if (n > 0)
            keep(b, worksheet_set_column(ws, 1, (lxw_col_t)n, ne->n ? 19 : 15, NULL));
        elevation_rows(b, ws, racks + first, n, grid + first * (size_t)units, units, ne);
        elevation_legend(b, ws, units);
        worksheet_freeze_panes(ws, 2, 1);
        worksheet_repeat_rows(ws, 0, 1);
        keep(b, worksheet_repeat_columns(ws, 0, 0));
        fp_xlsx__page_setup(b, ws, 0);
        worksheet_fit_to_pages(ws, 0, 1);
        first += n;
    } while (first < nr);
out:
    free(col);
    free(racks);
    free(grid);
}

/* "U24-U34 11 patch panels" (or "U34 patch panel"), after "; " unless it comes first. */
static size_t panel_text(char *buf, size_t n, size_t len, const fp_rack_info *ra)
{
    int w = ra->panels == 1
                ? snprintf(buf, n, "%sU%d patch panel", len ? "; " : "", ra->panel_u)
                : snprintf(buf, n, "%sU%d-U%d %d patch panels", len ? "; " : "", ra->panel_u,
                           ra->panel_u + ra->panels - 1, ra->panels);
    return w > 0 ? (size_t)w : 0;
}

/* Appends the network devices of rack r (from *k on) to contents: "U33 oob-leaf-01". */
static size_t net_contents(char *contents, size_t len, const fp_plan *plan, const net_placed *v,
                           size_t n, size_t *k, int64_t r)
{
    char name[160];
    while (*k < n && v[*k].rack < r)
        (*k)++;
    for (; *k < n && v[*k].rack == r; (*k)++) {
        if (len > 32000)
            continue;
        int i = v[*k].net;
        int w = snprintf(contents + len, 32768 - len, "%sU%d %s", len ? "; " : "", v[*k].u,
                         fp__net_device_name(name, sizeof name, fp__plan_net(plan, i),
                                             fp__plan_net_fabric(plan, i), fp__plan_fabric(plan),
                                             fp__plan_rspec(plan), v[*k].dev));
        if (w > 0)
            len += (size_t)w;
    }
    return len;
}

/* Contents of rack i: "U41 spine-07; U39 spine-08" (pl sorted, *k advanced past the rack),
 * with its patch panels in their place below the switches ("U24-U34 11 patch panels") -
 * capped below Excel's 32,767 characters. Returns the length written into contents. */
static size_t rack_contents(const fp_plan *plan, const fp_rack_info *ra, size_t i,
                            const placed *pl, size_t np, size_t *k, char *contents)
{
    char name[48];
    size_t len = 0;
    contents[0] = '\0';
    while (*k < np && pl[*k].rack < (int32_t)i)
        (*k)++;
    int panels_left = ra->panels > 0;
    for (; *k < np && pl[*k].rack == (int32_t)i; (*k)++) {
        if (len > 32000)
            continue;
        if (panels_left && pl[*k].u < ra->panel_u) {
            len += panel_text(contents + len, 32768 - len, len, ra);
            panels_left = 0;
        }
        int w = snprintf(contents + len, 32768 - len, "%sU%d %s", len ? "; " : "", pl[*k].u,
                         fp__device_name(name, sizeof name, fp__plan_fabric(plan),
                                         fp__plan_rspec(plan), pl[*k].dev));
        if (w > 0)
            len += (size_t)w;
    }
    if (panels_left && len <= 32000)
        len += panel_text(contents + len, 32768 - len, len, ra);
    return len;
}

/* One rack's line at row r; contents (len characters) in the last column. */
static void rack_row(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, const fp_rack_info *ra,
                     const char *contents)
{
    fp_xlsx__fit_row(b, ws, r, contents, rack_cols[13].width, 400);
    put_s(b, ws, r, 0, ra->name, b->text);
    put_n(b, ws, r, 1, ra->hall, b->center);
    put_n(b, ws, r, 2, ra->row, b->center);
    put_n(b, ws, r, 3, ra->rack, b->center);
    put_s(b, ws, r, 4, ra->role, b->indent);
    put_n(b, ws, r, 5, ra->x_m, b->ratio);
    put_n(b, ws, r, 6, ra->y_m, b->ratio);
    put_n(b, ws, r, 7, ra->units, b->text);
    put_n(b, ws, r, 8, ra->units_used, b->text);
    put_n(b, ws, r, 9, (double)ra->devices, b->integer);
    put_n(b, ws, r, 10, ra->power_w, ra->over_limit ? b->warn : b->watts);
    put_s(b, ws, r, 11, ra->over_limit ? "OVER" : "", ra->over_limit ? b->warn : NULL);
    put_n(b, ws, r, 12, (double)ra->cables_leaving, b->integer);
    put_s(b, ws, r, 13, contents, b->wrap);
}

/* Every compute device with a rack, sorted by rack and from the top U down; returns the count. */
static size_t placed_devices(const fp_plan *plan, const fp_xlsx_rack_index *ri, placed *pl)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    size_t np = 0;
    for (int64_t d = 0; d < fab->n_dev; d++) {
        fp_location loc;
        if (fp_plan_device_location(plan, (size_t)d, &loc, NULL) != FP_OK)
            continue;
        int32_t rk = fp_xlsx__rack_of(ri, &loc);
        if (rk >= 0)
            pl[np++] = (placed){ rk, loc.u, d };
    }
    qsort(pl, np, sizeof *pl, cmp_placed);
    return np;
}

void fp_xlsx__write_racks(fp_xlsx_book *b, const fp_xlsx_rack_index *ri)
{
    const fp_plan *plan = b->plan;
    const fp_fabric *fab = fp__plan_fabric(plan);
    size_t n = fp_plan_rack_count(plan), np = 0, k = 0;
    placed *pl = malloc((size_t)(fab->n_dev ? fab->n_dev : 1) * sizeof *pl);
    char *contents = malloc(32768);
    fp_xlsx_sheet s;
    /* With spec `networks`: their devices in the contents of the racks that hold them, the
     * management racks they add among the plan's racks (fp_plan_rack: units, devices and power
     * are every network's). */
    const int nets = fp__plan_net_count(plan);
    size_t n_nd = 0, k_nd = 0;
    net_placed *nd = nets ? net_devices(plan, &n_nd) : NULL;
    fp_xlsx__sheet_init(&s, b, "Racks", rack_cols, N_RACK_COLS);
    if (pl == NULL || contents == NULL || (nets && nd == NULL)) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Racks sheet");
        goto out;
    }
    np = placed_devices(plan, ri, pl);
    for (size_t i = 0; i < n && b->rc == FP_OK; i++) {
        fp_rack_info ra;
        if ((b->rc = fp_plan_rack(plan, i, &ra, b->err)) != FP_OK)
            break;
        size_t len = rack_contents(plan, &ra, i, pl, np, &k, contents);
        if (nets)
            len = net_contents(contents, len, plan, nd, n_nd, &k_nd, (int64_t)i);
        fp_location where = { .hall = ra.hall, .row = ra.row, .rack = ra.rack };
        if (!in_scope(&b->sc, &where))
            continue;
        b->racks++;
        lxw_row_t r = fp_xlsx__sheet_next(&s);
        if (r == 0)
            break;
        rack_row(b, s.ws, r, &ra, contents);
    }
out:
    fp_xlsx__sheet_end(&s);
    if (b->rc == FP_OK && pl) {
        net_elev ne = { nd, n_nd };
        write_elevation(b, pl, np, &ne);
    }
    free(nd);
    free(pl);
    free(contents);
}


/* ---- Trays: the overhead tray over every row, its fill, over-full flagged ---- */

static const fp_xlsx_column tray_cols[] = {
    { "Row", 9 }, { "Cables", 9 }, { "Cross-section mm2", 14 }, { "Tiers", 6 },
    { "Capacity mm2", 13 }, { "Fill", 8 }, { "Over-full", 9 },
};
#define N_TRAY_COLS ((int)(sizeof tray_cols / sizeof tray_cols[0]))

/* One line per row tray in scope (rows in floor order): the cables with an end in the row, their
 * cross-section, the tiers the row gets (up to layout.tray_tiers), the capacity of those tiers
 * at the fill allowed, the fill, and OVER when even the most tiers cannot take the cables. */
void fp_xlsx__write_trays(fp_xlsx_book *b)
{
    fp_xlsx_sheet s;
    fp_xlsx__sheet_init(&s, b, "Trays", tray_cols, N_TRAY_COLS);
    for (size_t i = 0; i < fp_plan_tray_count(b->plan) && b->rc == FP_OK; i++) {
        fp_tray_info t;
        if ((b->rc = fp_plan_tray(b->plan, i, &t, b->err)) != FP_OK)
            break;
        fp_location where = { 0 };
        if (sscanf(t.row, "H%d-R%d", &where.hall, &where.row) != 2 || !in_scope(&b->sc, &where))
            continue;
        lxw_row_t r = fp_xlsx__sheet_next(&s);
        if (r == 0)
            break;
        put_s(b, s.ws, r, 0, t.row, NULL);
        put_n(b, s.ws, r, 1, (double)t.cables, b->integer);
        put_n(b, s.ws, r, 2, t.area_mm2, b->integer);
        put_n(b, s.ws, r, 3, t.tiers, b->center);
        put_n(b, s.ws, r, 4, t.capacity_mm2, b->integer);
        put_n(b, s.ws, r, 5, t.fill, t.over ? b->warn_percent : b->percent);
        put_s(b, s.ws, r, 6, t.over ? "OVER" : "", t.over ? b->warn : NULL);
    }
    fp_xlsx__sheet_end(&s);
}
