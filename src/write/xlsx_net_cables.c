/* fabplan — the workbook's Network cables sheet (spec `networks` only): every cable of the
 * cluster's other networks (storage, in-band, out-of-band), as cables.csv lists them, coloured by
 * medium as the Cables sheet is, with the network named beside the cable id. A split workbook
 * (--split-by) holds the cables with an end in its row or hall, so a management row's crew gets
 * the cables of the switches it installs.
 *
 * Written after every other data sheet, last of fp_xlsx__write_tail (write_xlsx.c): on the Ports
 * thread when there is one, which numbers every format after Segments, so the formats this
 * sheet is first to use (a medium the compute fabric has not, such as twisted pair) are
 * numbered in the same order with one thread or two. Its count goes back with the thread's. */
#include "xlsx.h"

/* The Cables sheet's columns with Network after the cable id (fp_xlsx__cable_columns); the
 * printed part runs through the sign-off boxes. */
#define NET_PRINT_COLS 22

/* Whether cable i of network k may have an end in scope sc, from its links' devices' racks
 * alone (the network's layout, which places the cable's ends): a split workbook then builds
 * only its own cables' rows, not every network cable's for every row. */
static int may_be_in_scope(const fp_plan *plan, int k, size_t i, const fp_xlsx_scope *sc)
{
    if (sc->hall == 0 && sc->row == 0)
        return 1;
    const fp_cabling *cab = &fp__plan_net_phys(plan)->cab[k];
    const fp_layout *lay = &fp__plan_net_phys(plan)->lay[k];
    const fp_fabric *nf = fp__plan_net_fabric(plan, k);
    const fp_cable *cb = &cab->cable[i];
    for (int j = 0; j < cb->n_links; j++) {
        const fp_link *l = &nf->link[cab->cable_links[cb->first + j]];
        const int64_t ends[2] = { l->a, l->z };
        for (int e = 0; e < 2; e++) {
            int32_t r = lay->dev_rack[ends[e]];
            if (r < 0 || r >= lay->n_rack)
                return 1;       /* not placed: let the cable's own ends decide */
            fp_location where = { .hall = lay->rack[r].hall, .row = lay->rack[r].row };
            if (in_scope(sc, &where))
                return 1;
        }
    }
    return 0;
}

void fp_xlsx__write_net_cables(fp_xlsx_book *b)
{
    const fp_plan *plan = b->plan;
    const int nets = fp__plan_net_count(plan);
    fp_cable_info c;
    fp_xlsx_sheet s;
    if (nets == 0)
        return;
    fp_xlsx_column cols[FP_XLSX_CABLE_COLS];
    fp_xlsx__sheet_init(&s, b, "Network cables", cols, fp_xlsx__cable_columns(cols, 1));
    s.print_cols = NET_PRINT_COLS;
    for (int k = 0; k < nets && b->rc == FP_OK; k++) {
        const char *name = fp__plan_net(plan, k)->name;
        size_t n = fp_plan_net_cable_count(plan, (size_t)k + 1);
        for (size_t i = 0; i < n && b->rc == FP_OK; i++) {
            if (!may_be_in_scope(plan, k, i, &b->sc))
                continue;
            if ((b->rc = fp_plan_net_cable(plan, (size_t)k + 1, i, &c, b->err)) != FP_OK)
                break;
            if (!cable_in_scope(&b->sc, &c))
                continue;
            lxw_row_t r = fp_xlsx__sheet_next(&s);
            if (r == 0)
                break;
            b->net_cables++;
            b->net_cables_by_medium[(unsigned)c.medium < FP_MEDIUM_COUNT ? c.medium
                                                                         : FP_MEDIUM_SMF]++;
            fp_xlsx__cable_row(b, s.ws, r, &c, name);
        }
    }
    fp_xlsx__sheet_end(&s);
}
