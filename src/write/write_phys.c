/* fabplan — bom.csv and cables.csv (one row per physical cable; a breakout names every leg). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

/* One bom.csv line (the part, its figures as fp_bom_line gives them); net: the network
 * column's text, NULL without spec `networks`. */
static void bom_row(FILE *f, const fp_bom_line *l, const char *net)
{
    fprintf(f, "%s,", l->category);
    fp__csv_field(f, l->part);
    fputc(',', f);
    fp__csv_field(f, l->description);
    fprintf(f, ",%g,%d,%lld,%.2f,%.2f,%.2f,%.2f,%.0f", l->length_m, l->spare,
            (long long)l->quantity, l->unit_cost, l->cost, l->unit_power_w, l->power_w,
            l->mtbf_hours);
    if (net) {
        fputc(',', f);
        fp__csv_field(f, net);
    }
    fputc('\n', f);
}

fp_status fp__write_bom_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                            fp_error *err)
{
    FILE *f = fp__create(path, err);
    fp_totals t;
    (void)o;
    if (f == NULL)
        return FP_EIO;
    /* With spec `networks`, a last column names each line's network ("compute" for the compute
     * fabric's), every network's lines follow, and the total is the whole cluster's. */
    const int nets = fp__plan_net_count(plan);
    fputs("category,part,description,length_m,spare,quantity,unit_cost_usd,cost_usd,unit_power_w,power_w,mtbf_hours",
          f);
    fputs(nets ? ",network\n" : "\n", f);
    for (size_t k = 0; k < fp_plan_net_count(plan); k++)
        for (size_t i = 0; i < fp_plan_net_bom_count(plan, k); i++) {
            fp_bom_line l;
            fp_plan_net_bom_line(plan, k, i, &l, NULL);
            bom_row(f, &l, nets ? fp__plan_net_label(plan, k) : NULL);
        }
    fp_plan_totals(plan, &t);
    fprintf(f, nets ? "total,,,,,,,%.2f,,%.2f,,all\n" : "total,,,,,,,%.2f,,%.2f,\n", t.cost, t.power_w);
    return fp__close_written(f, path, err);
}

/* Field `what` (fp_leg_field) of one cable end as a cables.csv cell. */
static void end_cell(fp_outbuf *ob, const fp_cable_end *e, int what, int plain)
{
    switch (what) {
    case FP_LEG_HALL: fp__outbuf_int(ob, e->loc.hall); break;
    case FP_LEG_ROW: fp__outbuf_int(ob, e->loc.row); break;
    case FP_LEG_RACK: fp__outbuf_int(ob, e->loc.rack); break;
    case FP_LEG_U: fp__outbuf_int(ob, e->loc.u); break;
    case FP_LEG_DEVICE: fp__outbuf_field(ob, e->device_name, plain); break;
    case FP_LEG_PORT: fp__outbuf_field(ob, e->port, plain); break;
    case FP_LEG_TRANSCEIVER: fp__outbuf_field(ob, e->transceiver, plain); break;
    default: fp__outbuf_field(ob, e->label, plain); break;
    }
}

/* Column col (fp_cables_column) of a cable's cables.csv row; net: the network column's text;
 * proto: the protocol column's; plain: its names, ports, part ids and labels need no quoting
 * (fp__csv_plain_names). */
static void cable_cell(fp_outbuf *ob, const fp_cable_info *c, int col, fp_num_memo *stock,
                       const char *net, const char *proto, int plain)
{
    char num[40], legs[FP_MAX_LEGS * 132];
    size_t len;
    const char *text;
    switch (col) {
    case FP_CABLES_CABLE_ID: fp__outbuf_str(ob, c->id); break;
    case FP_CABLES_A_HALL: case FP_CABLES_A_ROW: case FP_CABLES_A_RACK: case FP_CABLES_A_U:
    case FP_CABLES_A_DEVICE: case FP_CABLES_A_PORT:
        end_cell(ob, &c->a, FP_LEG_HALL + (col - FP_CABLES_A_HALL), plain);
        break;
    case FP_CABLES_A_TRANSCEIVER: end_cell(ob, &c->a, FP_LEG_TRANSCEIVER, plain); break;
    case FP_CABLES_LABEL_A: end_cell(ob, &c->a, FP_LEG_LABEL, plain); break;
    case FP_CABLES_MEDIUM: fp__outbuf_str(ob, fp_medium_name(c->medium)); break;
    case FP_CABLES_GBPS: fp__outbuf_int(ob, c->gbps); break;
    case FP_CABLES_CABLE_PART: fp__outbuf_field(ob, c->part, plain); break;
    case FP_CABLES_ROUTE_M: fp__outbuf_put(ob, num, fp__put_fixed2(num, c->route_m)); break;
    case FP_CABLES_STOCK_M:
        text = fp__memo_format(stock, "%g", c->stock_m, &len);
        fp__outbuf_put(ob, text, len);
        break;
    case FP_CABLES_CORD_A_M: case FP_CABLES_CORD_A_STOCK_M: case FP_CABLES_TRUNK_M:
    case FP_CABLES_TRUNK_STOCK_M: case FP_CABLES_CORD_Z_M: case FP_CABLES_CORD_Z_STOCK_M: {
        /* one cord end to end: the trunk and Z cord empty */
        const int k = (col - FP_CABLES_CORD_A_M) / 2;
        if (k > 0 && c->n_segments < 3)
            break;
        if ((col - FP_CABLES_CORD_A_M) % 2 == 0) {
            fp__outbuf_put(ob, num, fp__put_fixed2(num, c->segment_m[k]));
        } else {
            text = fp__memo_format(stock, "%g", c->segment_stock_m[k], &len);
            fp__outbuf_put(ob, text, len);
        }
        break;
    }
    case FP_CABLES_PROTOCOL: fp__outbuf_str(ob, proto); break;
    case FP_CABLES_NETWORK: fp__outbuf_csv(ob, net); break;
    default:
        /* a Z column: the one far end's field, or a breakout's legs joined */
        if (c->n_z == 1)
            end_cell(ob, &c->z[0], fp__cables_column_leg(col), plain);
        else
            fp__outbuf_field(ob, fp__join_legs(legs, sizeof legs, c, fp__cables_column_leg(col), ";"),
                             plain);
        break;
    }
}

/* One cables.csv row: the columns fp__cables_column_written gives, in the schema's order. */
static void cable_row(fp_outbuf *ob, const fp_cable_info *c, int structured, fp_num_memo *stock,
                      const char *net, const char *proto, int plain)
{
    for (int col = 0, first = 1; col < FP_CABLES_COLUMN_COUNT; col++) {
        if (!fp__cables_column_written(col, structured, net != NULL))
            continue;
        if (!first)
            fp__outbuf_char(ob, ',');
        first = 0;
        cable_cell(ob, c, col, stock, net, proto, plain);
    }
    fp__outbuf_char(ob, '\n');
}

fp_status fp__write_cables_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err)
{
    size_t n = fp_plan_cable_count(plan);
    fp_cable_info c;
    fp_num_memo stock = { 0 };
    fp_outbuf *ob = NULL;
    fp_status rc;
    /* One row per cable: assembled by hand, handed to stdio a block at a time. */
    if ((rc = fp__outbuf_open(&ob, path, NULL, err)) != FP_OK)
        return rc;
    /* Structured cabling adds each link's segments: cord at A, trunk, cord at Z (route and
     * stock lengths; one cord end to end leaves the trunk and Z cord empty). With spec
     * `networks`, a last column names the network (the compute fabric's rows say "compute")
     * and every network's cables follow the compute fabric's. */
    const int structured = fp__plan_rspec(plan)->phys.structured;
    const int nets = fp__plan_net_count(plan);
    for (size_t k = 1; k < fp_plan_net_count(plan); k++)
        n += fp_plan_net_cable_count(plan, k);
    for (int col = 0, first = 1; col < FP_CABLES_COLUMN_COUNT; col++)
        if (fp__cables_column_written(col, structured, nets)) {
            if (!first)
                fp__outbuf_char(ob, ',');
            first = 0;
            fp__outbuf_str(ob, fp_cables_column_name(col));
        }
    fp__outbuf_char(ob, '\n');
    for (size_t k = 0, done = 0; k < fp_plan_net_count(plan); k++) {
        fp_net_read v = fp__plan_net_read(plan, k);
        const int plain = fp__csv_plain_net(&v);
        /* the protocol the network's switches speak: what fabplan verify checks with which
         * discovery (ibnetdiscover, LLDP) */
        const char *proto = fp__ib_net(plan, (int)k) ? "infiniband" : "ethernet";
        for (size_t i = 0; i < fp_plan_net_cable_count(plan, k); i++, done++) {
            fp_plan_net_cable(plan, k, i, &c, NULL);
            cable_row(ob, &c, structured, &stock, nets ? v.label : NULL, proto, plain);
            fp__write_progress(o, "cables.csv", (int64_t)done, (int64_t)n);
        }
    }
    fp__write_progress(o, "cables.csv", (int64_t)n, (int64_t)n);
    return fp__outbuf_close(ob, path, FP_OK, err);
}
