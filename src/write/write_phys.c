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

static void put_int_comma(fp_outbuf *ob, int v)
{
    fp__outbuf_int(ob, v);
    fp__outbuf_char(ob, ',');
}

static void end_fields(fp_outbuf *ob, const fp_cable_end *e, int plain)
{
    put_int_comma(ob, e->loc.hall);
    put_int_comma(ob, e->loc.row);
    put_int_comma(ob, e->loc.rack);
    put_int_comma(ob, e->loc.u);
    fp__outbuf_field(ob, e->device_name, plain);
    fp__outbuf_char(ob, ',');
    fp__outbuf_field(ob, e->port, plain);
}

/* Appends s to buf (cap bytes) at *k, truncating like snprintf. */
static void append(char *buf, size_t cap, size_t *k, const char *s)
{
    size_t len = strlen(s);
    if (*k + len > cap - 1)
        len = *k < cap - 1 ? cap - 1 - *k : 0;
    memcpy(buf + *k, s, len);
    *k += len;
    buf[*k] = '\0';
}

/* Z fields of a breakout: each field lists the legs in order, separated by ";". */
static void legs_field(fp_outbuf *ob, const fp_cable_info *c, int what, int plain)
{
    /* one leg (most cables): the text field as it is, without the join buffer */
    if (c->n_z == 1 && what >= 6) {
        fp__outbuf_field(ob, what == 6 ? c->z[0].transceiver : c->z[0].label, plain);
        return;
    }
    char buf[FP_MAX_LEGS * 132], num[24];
    size_t k = 0;
    buf[0] = '\0';
    for (int z = 0; z < c->n_z; z++) {
        const fp_cable_end *e = &c->z[z];
        if (z)
            append(buf, sizeof buf, &k, ";");
        const char *text = num;
        switch (what) {
        case 0: num[fp__put_int(num, e->loc.hall)] = '\0'; break;
        case 1: num[fp__put_int(num, e->loc.row)] = '\0'; break;
        case 2: num[fp__put_int(num, e->loc.rack)] = '\0'; break;
        case 3: num[fp__put_int(num, e->loc.u)] = '\0'; break;
        case 4: text = e->device_name; break;
        case 5: text = e->port; break;
        case 6: text = e->transceiver; break;
        default: text = e->label; break;
        }
        append(buf, sizeof buf, &k, text);
    }
    fp__outbuf_field(ob, buf, plain);
}

/* One cables.csv row; net: the network column's text, NULL without spec `networks`; proto: the
 * protocol column's; plain: its names, ports, part ids and labels need no quoting
 * (fp__csv_plain_names). */
static void cable_row(fp_outbuf *ob, const fp_cable_info *c, int structured, fp_num_memo *stock,
                      const char *net, const char *proto, int plain)
{
    char route[40];
    fp__outbuf_str(ob, c->id);
    fp__outbuf_char(ob, ',');
    end_fields(ob, &c->a, plain);
    fp__outbuf_char(ob, ',');
    if (c->n_z == 1) {
        end_fields(ob, &c->z[0], plain);
    } else {
        for (int w = 0; w < 6; w++) {
            legs_field(ob, c, w, plain);
            if (w < 5)
                fp__outbuf_char(ob, ',');
        }
    }
    /* ",%s,%s,%.2f,%g," */
    fp__outbuf_char(ob, ',');
    fp__outbuf_str(ob, fp_medium_name(c->medium));
    fp__outbuf_char(ob, ',');
    fp__outbuf_int(ob, c->gbps);
    fp__outbuf_char(ob, ',');
    fp__outbuf_field(ob, c->part, plain);
    fp__outbuf_char(ob, ',');
    fp__outbuf_put(ob, route, fp__put_fixed2(route, c->route_m));
    fp__outbuf_char(ob, ',');
    size_t stock_len;
    const char *stock_text = fp__memo_format(stock, "%g", c->stock_m, &stock_len);
    fp__outbuf_put(ob, stock_text, stock_len);
    fp__outbuf_char(ob, ',');
    fp__outbuf_field(ob, c->a.transceiver, plain);
    fp__outbuf_char(ob, ',');
    legs_field(ob, c, 6, plain);
    fp__outbuf_char(ob, ',');
    fp__outbuf_field(ob, c->a.label, plain);
    fp__outbuf_char(ob, ',');
    legs_field(ob, c, 7, plain);
    for (int k = 0; structured && k < 3; k++) {
        fp__outbuf_char(ob, ',');
        if (k > 0 && c->n_segments < 3) {
            fp__outbuf_char(ob, ',');
            continue;
        }
        fp__outbuf_put(ob, route, fp__put_fixed2(route, c->segment_m[k]));
        fp__outbuf_char(ob, ',');
        const char *t = fp__memo_format(stock, "%g", c->segment_stock_m[k], &stock_len);
        fp__outbuf_put(ob, t, stock_len);
    }
    fp__outbuf_char(ob, ',');
    fp__outbuf_str(ob, proto);
    if (net) {
        fp__outbuf_char(ob, ',');
        fp__outbuf_csv(ob, net);
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
    fp__outbuf_str(ob, "cable_id,a_hall,a_row,a_rack,a_u,a_device,a_port,z_hall,z_row,z_rack,z_u,z_device,z_port,"
                       "medium,gbps,cable_part,route_m,stock_m,a_transceiver,z_transceiver,label_a,label_z");
    if (structured)
        fp__outbuf_str(ob, ",cord_a_m,cord_a_stock_m,trunk_m,trunk_stock_m,cord_z_m,cord_z_stock_m");
    fp__outbuf_str(ob, nets ? ",protocol,network\n" : ",protocol\n");
    for (size_t k = 0, done = 0; k < fp_plan_net_count(plan); k++) {
        fp_net_read v = fp__plan_net_read(plan, k);
        const int plain = fp__csv_plain_net(&v);
        /* the protocol the network's switches speak: what fabplan verify checks with which
         * discovery (ibnetdiscover, LLDP) */
        const char *proto = fp__ib_net(plan, (int)k) ? "infiniband" : "ethernet";
        for (size_t i = 0; i < fp_plan_net_cable_count(plan, k); i++, done++) {
            fp_plan_net_cable(plan, k, i, &c, NULL);
            cable_row(ob, &c, structured, &stock, nets ? v.label : NULL, proto, plain);
            if (o && o->progress && (done & 0xffff) == 0)
                o->progress("cables.csv", (double)done / (double)n, o->payload);
        }
    }
    if (o && o->progress)
        o->progress("cables.csv", 1.0, o->payload);
    return fp__outbuf_close(ob, path, FP_OK, err);
}
