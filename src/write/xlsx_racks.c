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

/* A device of some network standing in a rack (its owner's: fp__net_read_owner), at its lowest
 * U; net is fabplan.h's index (0 the compute fabric). */
typedef struct placed {
    int64_t rack;
    int u, net;
    int64_t dev;
} placed;

static int cmp_placed(const void *x, const void *y)
{
    const placed *a = x, *b = y;
    if (a->rack != b->rack)
        return a->rack < b->rack ? -1 : 1;
    if (a->u != b->u)
        return a->u > b->u ? -1 : 1;    /* top of the rack first, as an elevation reads */
    if (a->net != b->net)
        return a->net - b->net;
    return (a->dev > b->dev) - (a->dev < b->dev);
}

/* Every network's view (fp__plan_net_read) and the devices that stand in racks. */
typedef struct rack_devices {
    fp_net_read *view;          /* [fp_plan_net_count] */
    size_t nets;
    placed *v;                  /* sorted by rack, then from the top U down */
    size_t n;
} rack_devices;

static void rack_devices_free(rack_devices *rd)
{
    free(rd->view);
    free(rd->v);
}

/* Each device of every network that is its own network's (a compute server a network reaches,
 * a switch's management port and a port group after an endpoint's first are another device)
 * and has a rack, sorted. Returns 0, or -1 out of memory. */
static int rack_devices_collect(const fp_plan *plan, rack_devices *rd)
{
    size_t cap = 0;
    memset(rd, 0, sizeof *rd);
    rd->nets = fp_plan_net_count(plan);
    if ((rd->view = malloc(rd->nets * sizeof *rd->view)) == NULL)
        return -1;
    for (size_t k = 0; k < rd->nets; k++) {
        rd->view[k] = fp__plan_net_read(plan, k);
        cap += (size_t)rd->view[k].fab->n_dev;
    }
    if ((rd->v = malloc((cap ? cap : 1) * sizeof *rd->v)) == NULL)
        return -1;
    for (size_t k = 0; k < rd->nets; k++) {
        const fp_net_read *nv = &rd->view[k];
        for (int64_t d = 0; d < nv->fab->n_dev; d++) {
            size_t owner_net;
            int u;
            if (fp__net_read_owner(nv, d, &owner_net) != d || owner_net != k)
                continue;
            int64_t rack = fp__net_read_rack(nv, d, &u);
            if (rack >= 0)
                rd->v[rd->n++] = (placed){ rack, u, (int)k, d };
        }
    }
    qsort(rd->v, rd->n, sizeof *rd->v, cmp_placed);
    return 0;
}

/* Rack units a device of tier `tier` fills: a server its layout's, a switch its model's. */
static int tier_units(const fp_rspec *rs, int tier)
{
    int ru = tier == 0 ? rs->phys.server_ru : rs->tier[tier - 1].model.ru;
    return ru > 0 ? ru : 1;
}

/* Rack units device dev fills: tier_units, or for a network's extra endpoint its group's (0 for
 * entries that take none, such as a BMC port). */
static int device_units(const fp_net_read *nv, int64_t dev)
{
    const fp_fabric *f = nv->fab;
    if (nv->ns == NULL || dev >= f->servers)
        return f->dev[dev].tier <= f->tiers ? tier_units(nv->rs, f->dev[dev].tier) : 1;
    int64_t g = dev - nv->ns->servers;
    for (int i = 0; i < nv->ns->n_extra; i++) {
        const fp_net_extra *x = &nv->ns->extra[i];
        int64_t per = nv->ns->ports > 0 && x->ports >= nv->ns->ports ? x->ports / nv->ns->ports : 1;
        if (g < x->count * per)
            return x->ru;
        g -= x->count * per;
    }
    return 0;
}

/* The fill of a device's cells: the compute fabric's by tier, a network's switches by its role,
 * every network's extra endpoints one of their own. */
static lxw_format *device_fill(const fp_xlsx_book *b, const fp_net_read *nv, int64_t dev)
{
    int tier = nv->fab->dev[dev].tier;
    if (nv->ns == NULL)
        return b->role[tier <= FP_MAX_TIERS ? tier : FP_MAX_TIERS];
    return dev < nv->fab->servers
               ? b->net_fill[FP_NET_OOB + 1]
               : b->net_fill[(unsigned)nv->ns->role <= FP_NET_OOB ? nv->ns->role : 0];
}

/* The elevation's grid: col[rack] its column or -1 out of scope, racks[column] its rack (the
 * management racks after the layout's), grid[column * units + U-1] the device in that unit (its
 * index in rd->v), -2 a patch panel, -1 empty. Returns 0, or -1 out of memory (what was
 * allocated is still in the out parameters for the caller to free). */
static int elevation_grid(fp_xlsx_book *b, const rack_devices *rd, int units, int32_t **colp,
                          size_t **racksp, size_t *nrp, int64_t **gridp)
{
    const fp_plan *plan = b->plan;
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
    /* Compute devices first, then each network's in turn: a network device stands above a
     * compute rack's own units. */
    for (size_t net = 0; net < rd->nets; net++)
        for (size_t k = 0; k < rd->n; k++) {
            const placed *q = &rd->v[k];
            if ((size_t)q->net != net)
                continue;
            int c = q->rack >= 0 && (size_t)q->rack < n ? col[q->rack] : -1;
            int h = device_units(&rd->view[net], q->dev);
            for (int u = q->u; c >= 0 && u < q->u + h && u <= units; u++)
                if (u >= 1)
                    grid[(size_t)c * (size_t)units + (size_t)(u - 1)] = (int64_t)k;
        }
    /* Patch panels (structured cabling): -2 in their units; a compute rack's fixtures
     * (layout.rack_fixtures): -3 - k for its fixture k. */
    for (size_t c = 0; c < nr; c++) {
        fp_rack_info ra;
        fp_plan_rack(plan, racks[c], &ra, NULL);
        for (int u = ra.panel_u; ra.panels > 0 && u < ra.panel_u + ra.panels && u <= units; u++)
            if (u >= 1)
                grid[c * (size_t)units + (size_t)(u - 1)] = -2;
        for (size_t k = 0; k < fp_plan_rack_fixture_count(plan, racks[c]); k++) {
            fp_rack_fixture fx;
            fp_plan_rack_fixture(plan, racks[c], k, &fx, NULL);
            for (int u = fx.u; u < fx.u + fx.ru && u <= units; u++)
                grid[c * (size_t)units + (size_t)(u - 1)] = -3 - (int64_t)k;
        }
    }
    return 0;
}

/* The racks' names and roles, then one row per U from the top. */
static void elevation_rows(fp_xlsx_book *b, lxw_worksheet *ws, const size_t *racks, size_t nr,
                           const int64_t *grid, int units, const rack_devices *rd)
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
            if (d <= -3) {
                /* a fixture: its name in its top unit */
                fp_rack_fixture fx;
                fp_plan_rack_fixture(plan, racks[c], (size_t)(-3 - d), &fx, NULL);
                put_s(b, ws, r, (lxw_col_t)(c + 1), u == fx.u + fx.ru - 1 ? fx.name : "",
                      b->panel);
                continue;
            }
            if (d < 0) {
                put_s(b, ws, r, (lxw_col_t)(c + 1), "", b->box);
                continue;
            }
            /* the name in the device's top unit; the units below it carry its colour */
            int top = u == units || grid[c * (size_t)units + (size_t)u] != d;
            const placed *q = &rd->v[d];
            const fp_net_read *nv = &rd->view[q->net];
            put_s(b, ws, r, (lxw_col_t)(c + 1),
                  top ? fp__net_read_dev(nv, q->dev, name, sizeof name, NULL) : "",
                  device_fill(b, nv, q->dev));
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
        snprintf(name, sizeof name, "%s (%d U)", role, tier_units(rs, t));
        put_s(b, ws, r++, 1, name, b->role[t]);
    }
    if (rs->phys.structured)
        put_s(b, ws, r++, 1, "patch panel (1 U)", b->panel);
    for (int f = 0; f < rs->phys.n_fixtures; f++) {
        int seen = 0;
        for (int g = 0; g < f; g++)
            seen |= strcmp(rs->phys.fixtures[g].name, rs->phys.fixtures[f].name) == 0;
        if (seen)
            continue;   /* one line per name */
        snprintf(name, sizeof name, "%.36s (%d U)", rs->phys.fixtures[f].name,
                 rs->phys.fixtures[f].ru);
        put_s(b, ws, r++, 1, name, b->panel);
    }
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
static void write_elevation(fp_xlsx_book *b, const rack_devices *rd)
{
    const fp_rspec *rs = fp__plan_rspec(b->plan);
    int units = rs->phys.rack_units > 0 ? rs->phys.rack_units : 1;
    int32_t *col = NULL;        /* rack -> column, -1 out of scope */
    size_t *racks = NULL, nr = 0;   /* column -> rack */
    int64_t *grid = NULL;       /* [column][U-1] -> device, -1 */
    if (elevation_grid(b, rd, units, &col, &racks, &nr, &grid) != 0) {
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
            keep(b, worksheet_set_column(ws, 1, (lxw_col_t)n, rd->nets > 1 ? 19 : 15, NULL));
        elevation_rows(b, ws, racks + first, n, grid + first * (size_t)units, units, rd);
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

/* Contents of rack i: "U41 spine-07; U39 spine-08; U33 oob-leaf-01" (every network's devices
 * from the top U down, rd->v sorted, *k advanced past the rack), with its patch panels in their
 * place below the switches ("U24-U34 11 patch panels") - capped below Excel's 32,767
 * characters. Returns the length written into contents. */
static size_t rack_contents(const fp_plan *plan, const rack_devices *rd, const fp_rack_info *ra,
                            size_t i, size_t *k, char *contents)
{
    char name[160];
    size_t len = 0;
    contents[0] = '\0';
    while (*k < rd->n && rd->v[*k].rack < (int64_t)i)
        (*k)++;
    int panels_left = ra->panels > 0;
    for (; *k < rd->n && rd->v[*k].rack == (int64_t)i; (*k)++) {
        const placed *q = &rd->v[*k];
        if (len > 32000)
            continue;
        if (panels_left && q->u < ra->panel_u) {
            len += panel_text(contents + len, 32768 - len, len, ra);
            panels_left = 0;
        }
        int w = snprintf(contents + len, 32768 - len, "%sU%d %s", len ? "; " : "", q->u,
                         fp__net_read_dev(&rd->view[q->net], q->dev, name, sizeof name, NULL));
        if (w > 0)
            len += (size_t)w;
    }
    if (panels_left && len <= 32000)
        len += panel_text(contents + len, 32768 - len, len, ra);
    /* then the compute rack's fixtures, each run of one name ("U13-U21 9 x NVLink switch
     * tray") */
    const size_t nf = fp_plan_rack_fixture_count(plan, i);
    for (size_t f = 0, g; f < nf && len <= 32000; f = g) {
        fp_rack_fixture a, z;
        fp_plan_rack_fixture(plan, i, f, &a, NULL);
        z = a;
        for (g = f + 1; g < nf; g++) {
            fp_rack_fixture x;
            fp_plan_rack_fixture(plan, i, g, &x, NULL);
            if (strcmp(x.name, a.name) != 0 || x.u != z.u + z.ru)
                break;
            z = x;
        }
        int w = g - f == 1 ? snprintf(contents + len, 32768 - len, "%sU%d %s", len ? "; " : "", a.u, a.name)
                           : snprintf(contents + len, 32768 - len, "%sU%d-U%d %zu x %s",
                                      len ? "; " : "", a.u, z.u + z.ru - 1, g - f, a.name);
        if (w > 0)
            len += (size_t)w;
    }
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

void fp_xlsx__write_racks(fp_xlsx_book *b)
{
    const fp_plan *plan = b->plan;
    size_t n = fp_plan_rack_count(plan), k = 0;
    char *contents = malloc(32768);
    rack_devices rd;
    fp_xlsx_sheet s;
    int no_memory = rack_devices_collect(plan, &rd) != 0 || contents == NULL;
    fp_xlsx__sheet_init(&s, b, "Racks", rack_cols, N_RACK_COLS);
    if (no_memory) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Racks sheet");
        goto out;
    }
    for (size_t i = 0; i < n && b->rc == FP_OK; i++) {
        fp_rack_info ra;
        if ((b->rc = fp_plan_rack(plan, i, &ra, b->err)) != FP_OK)
            break;
        rack_contents(plan, &rd, &ra, i, &k, contents);
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
    if (b->rc == FP_OK)
        write_elevation(b, &rd);
    rack_devices_free(&rd);
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
