/* fabplan — the workbook's Ports sheet: every port of every switch, used or spare, printed
 * compactly (see xlsx.h). */
#include "xlsx.h"

/* Each switch's ports in PORT_BLOCKS blocks side by side, read down one block and on to the
 * next, as a phone book is: a row is Device, Location, then per block Port, Far device, Far
 * port, Cable ID, a narrow gap between blocks. Three blocks fill a landscape page at about
 * 9 pt (A4; a little less on Letter), so a page holds three times the ports one block did.
 * Every row names its switch and location, so a page that starts inside a switch still says
 * whose ports these are; a switch's first row has a rule above it. The lane is part of the port's name
 * (`swp1s0`, `1/9/2/1`), a spare port reads "spare" where the far device would be, and a used
 * port's cells take its medium's fill: the Cables sheet names medium and part by cable id. */
#define PORT_BLOCKS 3
#define PORT_LEAD 2         /* Device, Location */
#define PORT_BLOCK_COLS 4   /* Port, Far device, Far port, Cable ID */
#define PORT_STRIDE (PORT_BLOCK_COLS + 1)   /* a block and the gap after it */
#define N_PORT_COLS (PORT_LEAD + PORT_BLOCKS * PORT_STRIDE - 1)

static const fp_xlsx_column port_cols[N_PORT_COLS] = {
    { "Device", 18 },  { "Location", 14 },
    { "Port", 10 },    { "Far device", 18 }, { "Far port", 10 }, { "Cable ID", 10 }, { "", 1.5 },
    { "Port", 10 },    { "Far device", 18 }, { "Far port", 10 }, { "Cable ID", 10 }, { "", 1.5 },
    { "Port", 10 },    { "Far device", 18 }, { "Far port", 10 }, { "Cable ID", 10 },
};

/* Data rows switch dev's n ports take. */
static int64_t switch_rows(int64_t n)
{
    return n <= 0 ? 1 : (n + PORT_BLOCKS - 1) / PORT_BLOCKS;
}

/* What one switch's rows need from the plan. */
typedef struct port_ctx {
    const fp_plan *plan;
    const fp_fabric *fab;
    const fp_rspec *rs;
    int64_t dev;
    int first_row;          /* the switch's first row: the formats with a rule above */
} port_ctx;

/* The format of a port's cells: its medium's fill, grey for a spare port; with the rule above
 * on a switch's first row. */
static lxw_format *port_format(fp_xlsx_book *b, const port_ctx *x, int32_t li)
{
    if (li < 0)
        return x->first_row ? b->port_top[FP_MEDIUM_COUNT] : b->spare_text;
    fp_medium m;
    if (fp_plan_link_medium(x->plan, (size_t)li, &m, NULL) != FP_OK)
        return x->first_row ? b->port_top[FP_MEDIUM_COUNT + 1] : NULL;
    return x->first_row ? b->port_top[m] : b->medium[m][K_TEXT];
}

/* Port p of the switch (its link li, -1 when spare) into block k of row r. */
static void port_cells(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, int k, const port_ctx *x,
                       int p, int32_t li)
{
    char port[FP_PORT_NAME_MAX], far[48], far_port[FP_PORT_NAME_MAX];
    lxw_col_t c = (lxw_col_t)(PORT_LEAD + k * PORT_STRIDE);
    lxw_format *t = port_format(b, x, li);
    put_s(b, ws, r, c, fp__port_name(port, sizeof port, x->fab, x->rs, x->dev, p), t);
    if (li < 0) {
        b->ports_spare++;
        put_s(b, ws, r, c + 1, "spare", t);
        if (x->first_row) {
            put_s(b, ws, r, c + 2, "", t);
            put_s(b, ws, r, c + 3, "", t);
        }
        return;
    }
    const fp_link *l = &x->fab->link[li];
    int64_t other = l->a == x->dev ? l->z : l->a;
    int other_port = l->a == x->dev ? l->z_port : l->a_port;
    size_t ci;
    int has_cable = fp_plan_link_cable(x->plan, (size_t)li, &ci, NULL) == FP_OK;
    put_s(b, ws, r, c + 1, fp__device_name(far, sizeof far, x->fab, x->rs, other), t);
    put_s(b, ws, r, c + 2,
          fp__port_name(far_port, sizeof far_port, x->fab, x->rs, other, other_port), t);
    put_s(b, ws, r, c + 3, has_cable && b->cable_id ? b->cable_id[ci] : "", t);
}

/* One switch: its n ports from slot `at` of link_at, down block 1, then block 2, ... */
static void write_switch(fp_xlsx_book *b, fp_xlsx_sheet *s, port_ctx *x, const char *name,
                         const char *loc, const int32_t *link_at, int64_t n)
{
    int64_t rows = switch_rows(n);
    fp_xlsx__sheet_reserve(s, rows);
    for (int64_t i = 0; i < rows && b->rc == FP_OK && b->lerr == LXW_NO_ERROR; i++) {
        lxw_row_t r = fp_xlsx__sheet_next(s);
        if (r == 0)
            return;
        x->first_row = i == 0;
        lxw_format *lead = x->first_row ? b->port_top[FP_MEDIUM_COUNT + 1] : NULL;
        put_s(b, s->ws, r, 0, name, lead);
        put_s(b, s->ws, r, 1, loc, lead);
        for (int k = 0; k < PORT_BLOCKS; k++) {
            int64_t p = k * rows + i;
            if (x->first_row && k > 0)  /* the gap before the block keeps the rule going */
                put_s(b, s->ws, r, (lxw_col_t)(PORT_LEAD + k * PORT_STRIDE - 1), "", lead);
            if (p < n)
                port_cells(b, s->ws, r, k, x, (int)p, link_at[p]);
            else if (x->first_row)
                for (int c = 0; c < PORT_BLOCK_COLS; c++)
                    put_s(b, s->ws, r, (lxw_col_t)(PORT_LEAD + k * PORT_STRIDE + c), "", lead);
        }
    }
}

void fp_xlsx__write_ports(fp_xlsx_book *b)
{
    const fp_plan *plan = b->plan;
    port_ctx x = { plan, fp__plan_fabric(plan), fp__plan_rspec(plan), 0, 0 };
    fp_port_links map;
    fp_xlsx_sheet s;
    char name[48];
    fp_xlsx__sheet_init(&s, b, "Ports", port_cols, N_PORT_COLS);
    if (fp__port_links_build(&map, plan) != 0) {
        fp_xlsx__sheet_end(&s);
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Ports sheet");
        return;
    }
    int64_t first = map.first, nsw = map.n_switches;
    for (int64_t d = 0; d < nsw && b->rc == FP_OK && b->lerr == LXW_NO_ERROR; d++) {
        fp_location loc;
        x.dev = first + d;
        if (b->split && !dev_in_scope(b->split, &b->sc, x.dev))
            continue;
        memset(&loc, 0, sizeof loc);
        if (fp_plan_device_location(plan, (size_t)x.dev, &loc, NULL) != FP_OK)
            memset(&loc, 0, sizeof loc);    /* no layout: the sheet still lists the ports */
        if ((b->sc.hall || b->sc.row) && !in_scope(&b->sc, &loc))
            continue;
        b->switches++;
        fp__write_progress(b->o, "plan.xlsx ports", d, nsw);
        fp__device_name(name, sizeof name, x.fab, x.rs, x.dev);
        write_switch(b, &s, &x, name, loc.text, map.link_at + map.off[d],
                     map.off[d + 1] - map.off[d]);
    }
    fp__write_progress(b->o, "plan.xlsx ports", nsw, nsw);
    fp_xlsx__sheet_end(&s);
    fp__port_links_free(&map);
}
