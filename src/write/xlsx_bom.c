/* fabplan — the workbook's BOM (a cost model: formulas, so edited prices flow through) and its
 * Summary (the design on one screen). */
#include "xlsx.h"

/* ---- BOM: lines grouped by category, a SUBTOTAL row per category, a total row ---- */

static const fp_xlsx_column bom_cols[] = {
    { "Category", 12 }, { "Part", 30 }, { "Description", 48 }, { "Length m", 9 },
    { "Spare", 6 },     { "Quantity", 10 }, { "Unit cost USD", 14 }, { "Cost USD", 16 },
    { "Unit power W", 11 }, { "Power W", 12 }, { "MTBF h", 12 }, { "Base price USD", 11 },
    { "USD per m", 9 },
};
/* A cut cable's unit cost is a formula over its base price, price per metre and length (the
 * last two columns); a spares line takes its unit cost and power from the line it spares. */
enum { BC_CAT, BC_PART, BC_DESC, BC_LEN, BC_SPARE, BC_QTY, BC_UCOST, BC_COST, BC_UPOWER,
       BC_POWER, BC_MTBF, BC_BASE, BC_PER_M, BC_N };

/* The catalog part a BOM line prices by the metre, or NULL (ps: the parts of the line's
 * fabric, the compute fabric's or a network's). */
static const fp_part *per_metre_part(const fp_phys_spec *ps, const fp_bom_line *l)
{
    if (!(l->length_m > 0))
        return NULL;
    for (int i = 0; i < ps->n_parts; i++)
        if (strcmp(ps->parts[i].id, l->part) == 0)
            return ps->parts[i].price_per_m_usd > 0 ? &ps->parts[i] : NULL;
    return NULL;
}

/* Columns of the BOM as letters, for formulas. */
static char col_letter(int c)
{
    return (char)('A' + c);
}

/* SUBTOTAL(9, ...) sums the lines and skips nested SUBTOTALs, so the grand total over the whole
 * column does not count the category subtotals twice. */
/* A subtotal (or with total, the total) of rows first..last (0-based). Quantity is summed only
 * over one category (one_category): switches, transceivers and metres of cable added into one
 * number would count nothing; a row over several categories leaves it blank. */
static void bom_sum_row(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_row_t first,
                        lxw_row_t last, const char *label, const double sums[3], int total,
                        int one_category)
{
    char f[64];
    const int cols[3] = { BC_QTY, BC_COST, BC_POWER };
    lxw_format *tf = total ? b->tot_text : b->sub_text;
    lxw_format *nf[3] = { total ? b->tot_int : b->sub_int, total ? b->tot_money : b->sub_money,
                          total ? b->tot_watts : b->sub_watts };
    for (int c = 0; c < BC_N; c++)
        put_s(b, ws, r, (lxw_col_t)c, c == BC_CAT ? label : "", tf);
    for (int k = one_category ? 0 : 1; k < 3; k++) {
        snprintf(f, sizeof f, "=SUBTOTAL(9,%c%u:%c%u)", col_letter(cols[k]), (unsigned)first + 1,
                 col_letter(cols[k]), (unsigned)last + 1);
        put_f(b, ws, r, (lxw_col_t)cols[k], f, sums[k], nf[k]);
    }
}

/* With spec `networks`, a last column names each line's network (a filter picks one). */
static const fp_xlsx_column bom_net_col = { "Network", 12 };

/* The header row: titles, widths, frozen and repeated on every printed page. */
static void bom_header(fp_xlsx_book *b, lxw_worksheet *ws, int nets)
{
    for (int c = 0; c < BC_N + (nets > 0); c++) {
        const fp_xlsx_column *bc = c < BC_N ? &bom_cols[c] : &bom_net_col;
        keep(b, worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, bc->width, NULL));
        put_s(b, ws, 0, (lxw_col_t)c, bc->title, b->header);
    }
    keep(b, worksheet_set_row(ws, 0, 30, NULL));
    worksheet_freeze_panes(ws, 1, 0);
    worksheet_repeat_rows(ws, 0, 0);
    fp_xlsx__page_setup(b, ws, 1);
}

/* One BOM line at row r; its quantity, cost and power (v[3]) go into the running sums. ps: the
 * parts of its fabric. */
static void bom_line(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, const fp_bom_line *l,
                     const fp_phys_spec *ps, double v[3])
{
    char f[64];
    put_s(b, ws, r, BC_CAT, l->category, NULL);
    put_s(b, ws, r, BC_PART, l->part, NULL);
    /* wrapped, its row as tall as the lines: a spare's "spare: " pushed the cable length
     * ("..., 5 m") past the column's edge, cut off on paper */
    put_s(b, ws, r, BC_DESC, l->description, b->wrap);
    fp_xlsx__fit_row(b, ws, r, l->description, (int)bom_cols[BC_DESC].width, 4);
    if (l->length_m > 0)
        put_n(b, ws, r, BC_LEN, l->length_m, b->len);
    put_s(b, ws, r, BC_SPARE, l->spare ? "yes" : "", b->center);
    put_n(b, ws, r, BC_QTY, (double)l->quantity, b->integer);
    const fp_part *pm = per_metre_part(ps, l);
    unsigned x = (unsigned)r + 1;     /* this line's row as formulas write it */
    if (l->spare && r > 1) {
        snprintf(f, sizeof f, "=G%u", x - 1);
        put_f(b, ws, r, BC_UCOST, f, l->unit_cost, b->money);
    } else if (pm) {
        snprintf(f, sizeof f, "=L%u+M%u*D%u", x, x, x);
        put_f(b, ws, r, BC_UCOST, f, l->unit_cost, b->money);
    } else {
        put_n(b, ws, r, BC_UCOST, l->unit_cost, b->money);
    }
    /* Extended figures are formulas: a buyer who edits a unit price sees every total move. */
    snprintf(f, sizeof f, "=F%u*G%u", (unsigned)r + 1, (unsigned)r + 1);
    put_f(b, ws, r, BC_COST, f, (double)l->quantity * l->unit_cost, b->money);
    if (l->spare && r > 1) {
        snprintf(f, sizeof f, "=I%u", x - 1);
        put_f(b, ws, r, BC_UPOWER, f, l->unit_power_w, b->watts);
    } else {
        put_n(b, ws, r, BC_UPOWER, l->unit_power_w, b->watts);
    }
    /* Spares sit on a shelf and draw nothing (as in bom.csv and the plan's power total). */
    if (l->spare) {
        put_n(b, ws, r, BC_POWER, 0, b->watts);
    } else {
        snprintf(f, sizeof f, "=F%u*I%u", (unsigned)r + 1, (unsigned)r + 1);
        put_f(b, ws, r, BC_POWER, f, (double)l->quantity * l->unit_power_w, b->watts);
    }
    if (l->mtbf_hours > 0)
        put_n(b, ws, r, BC_MTBF, l->mtbf_hours, b->integer);
    if (pm && !l->spare) {
        put_n(b, ws, r, BC_BASE, pm->price_usd, b->money);
        put_n(b, ws, r, BC_PER_M, pm->price_per_m_usd, b->money);
    }
    v[0] = (double)l->quantity;
    v[1] = (double)l->quantity * l->unit_cost;
    v[2] = l->spare ? 0.0 : (double)l->quantity * l->unit_power_w;
}

/* ---- with spec `networks`: the compute fabric's lines, then each network's ---- */

/* After the compute fabric's lines (ending at row *r, their sums in compute[]): its subtotal,
 * each network's lines and subtotal, and the whole cluster = the sum of the subtotals. */
static void bom_networks(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, const double compute[3])
{
    const fp_plan *plan = b->plan;
    const int nets = fp__plan_net_count(plan);
    lxw_row_t sub[1 + FP_MAX_NETWORKS];
    double all[3] = { compute[0], compute[1], compute[2] };
    char label[96];
    r++;
    bom_sum_row(b, ws, r, 1, r - 1, "Subtotal compute fabric", compute, 0, 0);
    put_s(b, ws, r, BC_N, "compute", b->sub_text);
    sub[0] = r;
    b->bom_total_row = (int)r + 1;
    for (int k = 0; k < nets; k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        const fp_net_bom *nb = fp__plan_net_bom(plan, k);
        double sums[3] = { 0 };
        lxw_row_t first = r + 1;
        for (int i = 0; i < nb->n; i++) {
            fp_bom_line l;
            double v[3];
            fp_plan_net_bom_line(plan, (size_t)k + 1, (size_t)i, &l, NULL);
            bom_line(b, ws, ++r, &l, &ns->rs.phys, v);
            put_s(b, ws, r, BC_N, ns->name, b->indent);
            for (int j = 0; j < 3; j++)
                sums[j] += v[j];
        }
        snprintf(label, sizeof label, "Subtotal %s network", ns->name);
        r++;
        bom_sum_row(b, ws, r, first, r - 1, label, sums, 0, 0);
        put_s(b, ws, r, BC_N, ns->name, b->sub_text);
        sub[k + 1] = r;
        b->bom_net_row[k] = (int)r + 1;
        for (int j = 0; j < 3; j++)
            all[j] += sums[j];
    }
    keep(b, worksheet_autofilter(ws, 0, 0, r, BC_N));
    /* The whole cluster: the subtotals added up (each SUBTOTAL skips nothing twice). */
    r++;
    const int cols[3] = { BC_QTY, BC_COST, BC_POWER };
    lxw_format *nf[3] = { b->tot_int, b->tot_money, b->tot_watts };
    for (int c = 0; c <= BC_N; c++)
        put_s(b, ws, r, (lxw_col_t)c, c == BC_CAT ? "Whole cluster" : "", b->tot_text);
    for (int j = 1; j < 3; j++) {      /* cost and power: quantities of parts do not add */
        char f[16 * (2 + FP_MAX_NETWORKS)];
        size_t len = 0;
        for (int k = 0; k <= nets; k++)
            len += (size_t)snprintf(f + len, sizeof f - len, "%s%c%u", k ? "+" : "=",
                                    col_letter(cols[j]), (unsigned)sub[k] + 1);
        put_f(b, ws, r, (lxw_col_t)cols[j], f, all[j], nf[j]);
    }
}

void fp_xlsx__write_bom(fp_xlsx_book *b)
{
    lxw_worksheet *ws = fp_xlsx__add_sheet(b, "BOM");
    size_t n = fp_plan_bom_count(b->plan);
    fp_bom_line l;
    double cat_sum[3] = { 0 }, all_sum[3] = { 0 };
    const char *cat = NULL;
    lxw_row_t r = 0, cat_first = 1;
    const int nets = fp__plan_net_count(b->plan);
    if (ws == NULL)
        return;
    bom_header(b, ws, nets);
    for (size_t i = 0; i <= n; i++) {
        if (i < n && (b->rc = fp_plan_bom_line(b->plan, i, &l, b->err)) != FP_OK)
            return;
        if (cat != NULL && (i == n || strcmp(l.category, cat) != 0)) {
            char label[48];
            snprintf(label, sizeof label, "Subtotal %s", cat);
            r++;
            bom_sum_row(b, ws, r, cat_first, r - 1, label, cat_sum, 0, 1);
            if (nets)
                put_s(b, ws, r, BC_N, "compute", b->sub_text);
            memset(cat_sum, 0, sizeof cat_sum);
            cat_first = r + 1;
        }
        if (i == n)
            break;
        cat = l.category;
        r++;
        double v[3];
        bom_line(b, ws, r, &l, &fp__plan_rspec(b->plan)->phys, v);
        if (nets)
            put_s(b, ws, r, BC_N, "compute", b->indent);
        for (int k = 0; k < 3; k++) {
            cat_sum[k] += v[k];
            all_sum[k] += v[k];
        }
    }
    if (nets) {
        bom_networks(b, ws, r, all_sum);
        return;
    }
    if (n == 0) {   /* no parts: a header alone, and nothing for formulas to point at */
        keep(b, worksheet_autofilter(ws, 0, 0, 0, BC_N - 1));
        return;
    }
    /* The filter covers the lines and subtotals, not the total. It is set before the total row
     * is written: in constant memory a range ending above the current row is refused. */
    keep(b, worksheet_autofilter(ws, 0, 0, r, BC_N - 1));
    r++;
    bom_sum_row(b, ws, r, 1, r - 1, "Total", all_sum, 1, 0);
    b->bom_total_row = (int)r + 1;
}

/* ---- Summary: the design on one screen ---- */

static void kv_s(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r, const char *k, const char *v)
{
    put_s(b, ws, *r, 0, k, b->bold);
    put_s(b, ws, *r, 1, v, NULL);
    (*r)++;
}

static void kv_n(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r, const char *k, double v,
                 lxw_format *f)
{
    put_s(b, ws, *r, 0, k, b->bold);
    put_n(b, ws, *r, 1, v, f);
    (*r)++;
}

/* Bisection, diameter and reliability from the metrics API: figures of the whole plan, also in a
 * workbook for one hall or row (a crew's row has no bisection of its own). */
static void write_summary_metrics(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r)
{
    const fp_metrics *mx = fp_plan_metrics(b->plan);
    const fp_reliability *rel = &mx->reliability;
    char buf[200];
    put_s(b, ws, *r, 0, "Bandwidth and hops", b->section);
    put_s(b, ws, (*r)++, 1, "whole plan", b->section);
    kv_n(b, ws, r, "Bisection Gb/s (analytic)", mx->bisection_gbps, b->integer);
    kv_n(b, ws, r, "Bisection Gb/s (max-flow)", mx->bisection_maxflow_gbps, b->integer);
    kv_n(b, ws, r, "1:1 target Gb/s", mx->split_demand_gbps, b->integer);
    kv_s(b, ws, r, "Full bisection", mx->full_bisection ? "yes" : "no");
    snprintf(buf, sizeof buf, "%s (%lld | %lld NIC ports)", mx->split,
             (long long)mx->split_endpoints[0], (long long)mx->split_endpoints[1]);
    kv_s(b, ws, r, "Split", buf);
    kv_n(b, ws, r, "Diameter (switch hops)", mx->diameter_switches, NULL);
    for (int i = 0; i < mx->n_hops; i++) {
        snprintf(buf, sizeof buf, "GPU pairs %s", mx->hops[i].scope);
        put_s(b, ws, *r, 0, buf, b->indent);
        put_n(b, ws, *r, 1, mx->hops[i].share, b->percent);
        snprintf(buf, sizeof buf, "%d switch%s on the path", mx->hops[i].switches,
                 mx->hops[i].switches == 1 ? "" : "es");
        put_s(b, ws, (*r)++, 2, buf, NULL);
    }
    (*r)++;

    put_s(b, ws, *r, 0, "Reliability", b->section);
    put_s(b, ws, (*r)++, 1, "expected, parts fail independently", b->section);
    kv_n(b, ws, r, "Switch failures per day", rel->switch_failures_per_day, b->rate);
    kv_n(b, ws, r, "Transceiver failures per day", rel->transceiver_failures_per_day, b->rate);
    kv_n(b, ws, r, "Cable failures per day", rel->cable_failures_per_day, b->rate);
    kv_n(b, ws, r, "NIC failures per day", rel->nic_failures_per_day, b->rate);
    kv_n(b, ws, r, "Link failures per day", rel->link_failures_per_day, b->rate);
    /* 0 means no MTBF is known: say so rather than show "0 hours". */
    if (rel->hours_to_first_link_failure > 0)
        kv_n(b, ws, r, "Hours to first link failure", rel->hours_to_first_link_failure, b->hours);
    else
        kv_s(b, ws, r, "Hours to first link failure", "unknown (no MTBF)");
    if (rel->hours_to_first_switch_failure > 0)
        kv_n(b, ws, r, "Hours to first switch failure", rel->hours_to_first_switch_failure,
             b->hours);
    else
        kv_s(b, ws, r, "Hours to first switch failure", "unknown (no MTBF)");
    if (rel->units_without_mtbf > 0)
        kv_n(b, ws, r, "Units without MTBF", (double)rel->units_without_mtbf, b->integer);
    (*r)++;
}

/* The cluster's other networks (spec `networks`), a row each, and the whole cluster: the
 * compute fabric's cost (cost_row, 1-based; 0 when none) plus each network's, as a formula. */
static void write_summary_networks(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r,
                                   unsigned cost_row)
{
    const fp_plan *plan = b->plan;
    size_t n = fp_plan_network_count(plan);
    static const char *const head[] = { "Network", "Role", "Hosts", "Gb/s", "Tiers", "Switches",
                                        "Links", "Cables", "Cost USD", "Power W" };
    char buf[64 + 16 * FP_MAX_NETWORKS];
    if (n == 0)
        return;
    put_s(b, ws, *r, 0, "Networks", b->section);
    put_s(b, ws, (*r)++, 1, "beside the compute fabric: switches, NICs, optics, cables, spares",
          b->section);
    for (int c = 0; c < 10; c++)
        put_s(b, ws, *r, (lxw_col_t)c, head[c], b->section);
    (*r)++;
    lxw_row_t first = *r;
    double total = 0, total_w = 0;
    for (size_t i = 0; i < n; i++, (*r)++) {
        fp_network_info ni;
        if (fp_plan_network(plan, i, &ni, NULL) != FP_OK)
            break;
        put_s(b, ws, *r, 0, ni.name, NULL);
        snprintf(buf, sizeof buf, "%s%s%s%s", ni.role, ni.dual_homed ? ", " : "", ni.pair_name,
                 ni.dual_homed ? "s" : "");
        put_s(b, ws, *r, 1, buf, NULL);
        put_n(b, ws, *r, 2, (double)ni.hosts, b->integer);
        put_n(b, ws, *r, 3, ni.port_gbps, NULL);
        put_n(b, ws, *r, 4, ni.tiers, NULL);
        put_n(b, ws, *r, 5, (double)ni.switches, b->integer);
        put_n(b, ws, *r, 6, (double)ni.links, b->integer);
        put_n(b, ws, *r, 7, (double)fp__plan_net_bom(plan, (int)i)->cables, b->integer);
        /* The BOM sheet's subtotal of this network, so an edited unit price flows here. */
        if (i < FP_MAX_NETWORKS && b->bom_net_row[i] > 0) {
            snprintf(buf, sizeof buf, "=BOM!H%d", b->bom_net_row[i]);
            put_f(b, ws, *r, 8, buf, ni.cost_usd, b->money);
            snprintf(buf, sizeof buf, "=BOM!J%d", b->bom_net_row[i]);
            put_f(b, ws, *r, 9, buf, ni.power_w, b->watts);
        } else {
            put_n(b, ws, *r, 8, ni.cost_usd, b->money);
            put_n(b, ws, *r, 9, ni.power_w, b->watts);
        }
        total += ni.cost_usd;
        total_w += ni.power_w;
    }
    fp_totals to;
    fp_plan_net_totals(plan, 0, &to, NULL);
    put_s(b, ws, *r, 0, "Whole cluster network", b->bold);
    put_s(b, ws, *r, 1, "compute fabric + every network", b->indent);
    if (cost_row > 0) {
        snprintf(buf, sizeof buf, "=B%u+SUM(I%u:I%u)", cost_row, (unsigned)first + 1, (unsigned)*r);
        put_f(b, ws, *r, 8, buf, to.cost + total, b->money);
        /* the compute fabric's power is the row after its cost (summary_totals) */
        snprintf(buf, sizeof buf, "=B%u+SUM(J%u:J%u)", cost_row + 1, (unsigned)first + 1,
                 (unsigned)*r);
        put_f(b, ws, (*r)++, 9, buf, to.power_w + total_w, b->watts);
    } else {
        put_n(b, ws, *r, 8, to.cost + total, b->money);
        put_n(b, ws, (*r)++, 9, to.power_w + total_w, b->watts);
    }
    (*r)++;
}

/* Devices of the networks (spec `networks`) in this workbook's hall or row: in its compute
 * racks and its management racks. */
static int64_t net_devices_in_scope(const fp_plan *plan, const fp_xlsx_scope *sc)
{
    if (fp__plan_net_count(plan) == 0)
        return 0;
    const fp_net_place *pl = fp__plan_net_place(plan);
    const fp_layout *nlay = &fp__plan_net_phys(plan)->lay[0];
    int64_t n = 0;
    for (int64_t a = 0; a < pl->n_add; a++) {
        const fp_rack_add *ad = &pl->add[a];
        if (ad->rack < 0 || ad->rack >= nlay->n_rack)
            continue;
        fp_location where = { .hall = nlay->rack[ad->rack].hall, .row = nlay->rack[ad->rack].row };
        n += in_scope(sc, &where) ? ad->devices : 0;
    }
    return n;
}

/* Title, generator and, for a workbook of one hall or row, what it covers; with networks, how
 * many of their devices stand here and of their cables have an end here, and where to look. */
static void summary_title(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r)
{
    char buf[320];
    snprintf(buf, sizeof buf, "%s: fabric plan", plan_name(b->plan));
    put_s(b, ws, (*r)++, 0, buf, b->title);
    snprintf(buf, sizeof buf, "generated by fabplan %s", FP_VERSION);
    put_s(b, ws, (*r)++, 0, buf, NULL);
    if (b->sc.hall || b->sc.row) {
        if (b->sc.row)
            snprintf(buf, sizeof buf, "This workbook: hall %d, row %d only (%lld racks, %lld "
                     "cables with an end here, %lld switches)", b->sc.hall, b->sc.row,
                     (long long)b->racks, (long long)b->cables, (long long)b->switches);
        else
            snprintf(buf, sizeof buf, "This workbook: hall %d only (%lld racks, %lld cables with "
                     "an end here, %lld switches)", b->sc.hall, (long long)b->racks,
                     (long long)b->cables, (long long)b->switches);
        int64_t nd = net_devices_in_scope(b->plan, &b->sc);
        size_t k = strlen(buf);
        if ((nd > 0 || b->net_cables > 0) && k > 0)
            snprintf(buf + k - 1, sizeof buf - (k - 1), "; of the other networks %lld devices "
                     "and %lld cables with an end here: Racks, Rack elevation, Network cables)",
                     (long long)nd, (long long)b->net_cables);
        put_s(b, ws, (*r)++, 0, buf, b->warn);
    }
    (*r)++;
}

/* The design's key figures; remembers the GPU and server cells for formulas below. */
static void summary_design(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r, const fp_summary *su)
{
    put_s(b, ws, (*r)++, 0, "Design", b->section);
    kv_n(b, ws, r, "GPUs", (double)su->gpus, b->integer);
    b->gpus_row = *r;       /* 1-based row of the cell just written */
    kv_n(b, ws, r, "Servers", (double)su->servers, b->integer);
    b->servers_row = *r;
    kv_n(b, ws, r, "NIC ports cabled", (double)su->endpoints, b->integer);
    kv_s(b, ws, r, "Topology", fp_topology_name(su->topology));
    kv_n(b, ws, r, "Switch tiers", su->tiers, NULL);
    kv_n(b, ws, r, "Planes", su->planes, NULL);
    kv_n(b, ws, r, "Switches", (double)su->switches, b->integer);
    kv_n(b, ws, r, "Links", (double)su->links, b->integer);
    kv_n(b, ws, r, "Capacity (GPUs)", (double)su->capacity_gpus, b->integer);
    kv_s(b, ws, r, "Tier choice", su->tier_choice);
    (*r)++;
}

/* A row per switch tier, then links and their speed per boundary (fabric.link_gbps). */
static void summary_tiers(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r)
{
    const fp_plan *plan = b->plan;
    char buf[160];
    static const char *const tier_head[] = { "Tier", "Role", "Model", "Switches",
                                             "Ports each", "Gb/s", "Ports used", "Ports spare",
                                             "Down:up", "Links up" };
    for (int c = 0; c < 10; c++)
        put_s(b, ws, *r, (lxw_col_t)c, tier_head[c], b->section);
    (*r)++;
    for (size_t i = 0; i < fp_plan_tier_count(plan); i++, (*r)++) {
        fp_tier_info t;
        if (fp_plan_tier(plan, i, &t, NULL) != FP_OK)
            break;
        put_n(b, ws, *r, 0, t.tier, b->left_int);
        put_s(b, ws, *r, 1, t.role, NULL);
        put_s(b, ws, *r, 2, t.model, NULL);
        put_n(b, ws, *r, 3, (double)t.switches, b->integer);
        put_n(b, ws, *r, 4, t.ports_per_switch, NULL);
        put_n(b, ws, *r, 5, t.port_gbps, NULL);
        put_n(b, ws, *r, 6, (double)t.ports_used, b->integer);
        put_n(b, ws, *r, 7, (double)t.ports_spare, b->integer);
        if (t.up_ports) {
            put_s(b, ws, *r, 8, fp_ratio_text(t.oversubscription, buf, sizeof buf), b->center);
        } else {
            put_s(b, ws, *r, 8, "top", b->center);
        }
        put_n(b, ws, *r, 9, (double)t.links_up, b->integer);
    }
    (*r)++;
    static const char *const link_head[] = { "Boundary", "Links", "Gb/s each" };
    for (int c = 0; c < 3; c++)
        put_s(b, ws, *r, (lxw_col_t)c, link_head[c], b->section);
    (*r)++;
    for (size_t i = 0; i < fp_plan_tier_count(plan); i++, (*r)++) {
        fp_tier_info t;
        if (fp_plan_tier(plan, i, &t, NULL) != FP_OK)
            break;
        put_s(b, ws, *r, 0, fp__boundary_name((int)i, buf, sizeof buf), NULL);
        int64_t links = 0;
        fp_plan_boundary_links(plan, (int)i, &links, NULL);    /* i < tiers: cannot fail */
        put_n(b, ws, *r, 1, (double)links, b->integer);
        put_n(b, ws, *r, 2, t.port_gbps, NULL);
    }
    (*r)++;
}

/* Server power (a per-server input times the servers cell) and the total power. */
static void summary_server_power(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r,
                                 const fp_summary *su, const fp_totals *to, unsigned net_row)
{
    char buf[160];
    double srv_each = fp__plan_rspec(b->plan)->phys.server_power_w;
    double n_srv = (double)(su->servers + su->spare_servers);
    kv_n(b, ws, r, "Power per server W", srv_each, b->watts);
    if (b->servers_row == 0)
        return;
    if (su->spare_servers > 0)
        snprintf(buf, sizeof buf, "=(B%u+%lld)*B%u", b->servers_row,
                 (long long)su->spare_servers, *r);
    else
        snprintf(buf, sizeof buf, "=B%u*B%u", b->servers_row, *r);
    put_s(b, ws, *r, 0, "Server power W", b->bold);
    put_f(b, ws, *r, 1, buf, n_srv * srv_each, b->watts);
    put_s(b, ws, (*r)++, 2, su->spare_servers > 0 ? "servers and hot spares, apart from the network"
                                                  : "apart from the network", b->indent);
    unsigned srv_row = *r;
    snprintf(buf, sizeof buf, "=B%u+B%u", net_row, srv_row);
    put_s(b, ws, *r, 0, "Total power W", b->bold);
    put_f(b, ws, (*r)++, 1, buf, to->power_w + n_srv * srv_each, b->watts);
}

/* Totals, a cost model: cost and network power link to the BOM's total row, per-GPU figures
 * divide by the GPUs cell above, server power multiplies the servers cell by a per-server input;
 * so an edited unit price, GPU count or server power flows through to every figure here.
 * Returns the 1-based row of the cost cell. */
static unsigned summary_totals(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r,
                               const fp_summary *su, const fp_totals *to)
{
    char buf[160];
    put_s(b, ws, *r, 0, "Totals", b->section);
    /* With spec `networks` these are the compute fabric's; the Networks table below adds the
     * rest up to the whole cluster. */
    put_s(b, ws, (*r)++, 1, fp__plan_net_count(b->plan) > 0
                                ? "compute fabric, spares included (networks below)"
                                : "whole plan, spares included", b->section);
    unsigned cost_row = 0, net_row = 0, xcvr_row = 0;
    if (b->bom_total_row > 0) {
        snprintf(buf, sizeof buf, "=BOM!H%d", b->bom_total_row);
        put_s(b, ws, *r, 0, "Cost USD", b->bold);
        put_f(b, ws, (*r)++, 1, buf, to->cost, b->money);
        cost_row = *r;
        snprintf(buf, sizeof buf, "=BOM!J%d", b->bom_total_row);
        put_s(b, ws, *r, 0, "Network power W", b->bold);
        put_f(b, ws, *r, 1, buf, to->power_w, b->watts);
        put_s(b, ws, (*r)++, 2, "switches, NICs, optics (spares draw none)", b->indent);
        net_row = *r;
    } else {
        kv_n(b, ws, r, "Cost USD", to->cost, b->money);
        cost_row = *r;
        kv_n(b, ws, r, "Network power W", to->power_w, b->watts);
        net_row = *r;
    }
    summary_server_power(b, ws, r, su, to, net_row);
    if (b->gpus_row > 0 && su->gpus > 0) {
        snprintf(buf, sizeof buf, "=B%u/B%u", cost_row, b->gpus_row);
        put_s(b, ws, *r, 0, "Cost per GPU USD", b->bold);
        put_f(b, ws, (*r)++, 1, buf, to->cost_per_gpu, b->money);
        snprintf(buf, sizeof buf, "=B%u/B%u", net_row, b->gpus_row);
        put_s(b, ws, *r, 0, "Network power per GPU W", b->bold);
        put_f(b, ws, (*r)++, 1, buf, to->power_w_per_gpu, b->watts);
    }
    kv_n(b, ws, r, "Transceivers", (double)to->transceivers, b->integer);
    xcvr_row = *r;
    if (b->gpus_row > 0 && su->gpus > 0) {
        snprintf(buf, sizeof buf, "=B%u/B%u", xcvr_row, b->gpus_row);
        put_s(b, ws, *r, 0, "Transceivers per GPU", b->bold);
        put_f(b, ws, (*r)++, 1, buf, to->transceivers_per_gpu, b->ratio);
    }
    kv_n(b, ws, r, "Cables", (double)to->cables, b->integer);
    if (to->unpriced_parts > 0)
        kv_n(b, ws, r, "Parts without price or power", (double)to->unpriced_parts, b->integer);
    (*r)++;
    return cost_row;
}

/* Cables by medium, counted over this workbook's cables. */
static void summary_media(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r)
{
    /* With spec `networks` a second column: their cables (the Network cables sheet's). */
    const int nets = fp__plan_net_count(b->plan) > 0;
    put_s(b, ws, *r, 0, "Cables by medium", b->section);
    put_s(b, ws, *r, 1, b->sc.hall || b->sc.row ? "in this workbook" : "Cables", b->section);
    if (nets)
        put_s(b, ws, *r, 2, "Network cables", b->section);
    (*r)++;
    for (int m = 0; m < fp__plan_media_shown(b->plan); m++) {
        put_s(b, ws, *r, 0, fp_medium_name((fp_medium)m), b->medium[m][K_TEXT]);
        put_n(b, ws, *r, 1, (double)b->cables_by_medium[m], b->integer);
        if (nets)
            put_n(b, ws, *r, 2, (double)b->net_cables_by_medium[m], b->integer);
        (*r)++;
    }
    (*r)++;
}

/* Transceivers and cables by part: the lengths of one part added up, spares apart. */
static void summary_parts(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t *r)
{
    const fp_plan *plan = b->plan;
    char buf[160];
    put_s(b, ws, *r, 0, "Transceivers and cables", b->section);
    put_s(b, ws, *r, 1, "Quantity", b->section);
    put_s(b, ws, (*r)++, 2, "Part", b->section);
    size_t nb = fp_plan_bom_count(plan);
    for (size_t i = 0; i < nb; i++) {
        fp_bom_line l, m;
        int seen = 0;
        if (fp_plan_bom_line(plan, i, &l, NULL) != FP_OK)
            break;
        if (strcmp(l.category, "switch") == 0 || strcmp(l.category, "nic") == 0)
            continue;
        for (size_t j = 0; j < i && !seen; j++)     /* a few dozen lines: quadratic is fine */
            seen = fp_plan_bom_line(plan, j, &m, NULL) == FP_OK && strcmp(m.part, l.part) == 0 &&
                   m.spare == l.spare;
        if (seen)
            continue;
        int64_t q = 0;
        for (size_t j = i; j < nb; j++)
            if (fp_plan_bom_line(plan, j, &m, NULL) == FP_OK && strcmp(m.part, l.part) == 0 &&
                m.spare == l.spare)
                q += m.quantity;
        snprintf(buf, sizeof buf, "%s%s", l.category, l.spare ? " (spares)" : "");
        put_s(b, ws, *r, 0, buf, NULL);
        put_n(b, ws, *r, 1, (double)q, b->integer);
        put_s(b, ws, (*r)++, 2, l.part, b->indent);
    }
    (*r)++;
}

void fp_xlsx__write_summary(fp_xlsx_book *b, lxw_worksheet *ws)
{
    const fp_plan *plan = b->plan;
    fp_summary su;
    fp_totals to;
    lxw_row_t r = 0;
    double widths[] = { 28, 16, 26, 10, 11, 8, 11, 12, 10, 11 };
    /* The Networks table's role column reads "management, MLAG pairs", its cost column the
     * whole cluster's ($4,826,901.20). */
    if (fp__plan_net_count(plan) > 0) {
        widths[1] = 23;
        widths[8] = 15;
    }
    fp_plan_summary(plan, &su);
    fp_plan_net_totals(plan, 0, &to, NULL);     /* the compute fabric's: its own block */
    for (int c = 0; c < (int)(sizeof widths / sizeof widths[0]); c++)
        keep(b, worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, widths[c], NULL));
    fp_xlsx__page_setup(b, ws, 1);

    summary_title(b, ws, &r);
    summary_design(b, ws, &r, &su);
    summary_tiers(b, ws, &r);
    write_summary_metrics(b, ws, &r);
    unsigned cost_row = summary_totals(b, ws, &r, &su, &to);
    summary_media(b, ws, &r);
    summary_parts(b, ws, &r);
    write_summary_networks(b, ws, &r, cost_row);
    for (size_t i = 0; i < fp_plan_note_count(plan); i++) {
        put_s(b, ws, r, 0, i == 0 ? "Notes" : "", b->bold);
        put_s(b, ws, r++, 1, fp_plan_note(plan, i), NULL);
    }
}
