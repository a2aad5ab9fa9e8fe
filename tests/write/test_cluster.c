/* One model of the cluster (issue 23): the whole cluster's totals through the public API equal
 * the sum of every network's and what bom.csv and report.html print, to the cent; one power per
 * rack, the same in plan.json, the workbook and the API, on the racks NetBox and floor.svg list.
 * Both presets with spec `networks`: dgx-h100-4su-networks and hgx-h100-enterprise-32. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include "helpers.h"
#include "xlsx_read.h"
#include "plan.h"

static const char *const presets[] = { "dgx-h100-4su-networks", "hgx-h100-enterprise-32" };

/* "4,859,573.10" -> 4859573.10 */
static double ungroup(const char *s)
{
    char buf[64];
    size_t k = 0;
    for (; *s && k + 1 < sizeof buf; s++)
        if (*s != ',')
            buf[k++] = *s;
    buf[k] = '\0';
    return strtod(buf, NULL);
}

static void write_docs(fp_plan *p, const char *dir, unsigned formats)
{
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    fp_error err = { 0 };
    o.formats = formats;
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
}

/* The cluster's totals are the sum of the networks' (network 0 the compute fabric, its figures
 * those of the calls without an index), and every network's BOM lines add up to its cost and
 * power; the switches are the tiers' (fp_plan_tier) and each network's (fp_plan_network),
 * counted from the fabric, not the BOM. bom.csv's total line and report.html's whole-cluster
 * cell print the cluster's cost to the cent. */
Test(cluster, totals_are_every_network_summed, .timeout = TEST_TIMEOUT(120))
{
    for (size_t k = 0; k < sizeof presets / sizeof presets[0]; k++) {
        fp_plan *p = plan_from_preset(presets[k]);
        fp_totals all, t, net0;
        fp_error err = { 0 };
        fp_plan_totals(p, &all);
        cr_assert_eq(fp_plan_net_count(p), 1 + fp_plan_network_count(p));
        cr_assert_gt(fp_plan_network_count(p), 0, "%s has networks", presets[k]);
        double cost = 0, power = 0, lines_cost = 0;
        int64_t sw = 0, cables = 0, xcvr = 0, sw_fabric = 0;
        for (size_t i = 0; i < fp_plan_tier_count(p); i++) {
            fp_tier_info ti;
            cr_assert_eq(fp_plan_tier(p, i, &ti, NULL), FP_OK);
            sw_fabric += ti.switches;
        }
        for (size_t n = 0; n < fp_plan_net_count(p); n++) {
            cr_assert_eq(fp_plan_net_totals(p, n, &t, &err), FP_OK, "%s", err.msg);
            cost += t.cost;
            power += t.power_w;
            sw += t.switches;
            cables += t.cables;
            xcvr += t.transceivers;
            double c = 0, w = 0;
            for (size_t i = 0; i < fp_plan_net_bom_count(p, n); i++) {
                fp_bom_line l;
                cr_assert_eq(fp_plan_net_bom_line(p, n, i, &l, NULL), FP_OK);
                c += l.cost;
                w += l.power_w;
            }
            cr_expect_float_eq(c, t.cost, 0.005, "%s network %zu: lines $%.2f, total $%.2f",
                               presets[k], n, c, t.cost);
            cr_expect_float_eq(w, t.power_w, 0.005, "%s network %zu", presets[k], n);
            lines_cost += c;
            if (n > 0) {
                fp_network_info ni;
                cr_assert_eq(fp_plan_network(p, n - 1, &ni, NULL), FP_OK);
                cr_expect_eq(t.switches, ni.switches, "%s %s", presets[k], ni.name);
                cr_expect_float_eq(t.cost, ni.cost_usd, 1e-9);
                sw_fabric += ni.switches;
            }
        }
        fp_plan_net_totals(p, 0, &net0, NULL);
        cr_expect_eq(fp_plan_net_bom_count(p, 0), fp_plan_bom_count(p));
        cr_expect_eq(net0.cables, (int64_t)fp_plan_cable_count(p));
        cr_expect_float_eq(all.cost, cost, 0.005, "%s: $%.2f vs $%.2f", presets[k], all.cost, cost);
        cr_expect_float_eq(all.cost, lines_cost, 0.005);
        cr_expect_float_eq(all.power_w, power, 0.005);
        cr_expect_eq(all.switches, sw);
        cr_expect_eq(all.switches, sw_fabric);
        cr_expect_eq(all.cables, cables);
        cr_expect_eq(all.transceivers, xcvr);
        cr_expect_gt(all.cost, net0.cost + 1, "the networks add to the compute fabric's cost");
        /* out of range */
        cr_expect_eq(fp_plan_net_totals(p, fp_plan_net_count(p), &t, NULL), FP_EINVAL);
        cr_expect_eq(fp_plan_net_bom_count(p, fp_plan_net_count(p)), 0);

        char dir[64], path[192];
        scratch_dir(dir, sizeof dir, "cluster-totals");
        write_docs(p, dir, FP_WRITE_BOM | FP_WRITE_REPORT);
        snprintf(path, sizeof path, "%s/bom.csv", dir);
        char *bom = slurp(path);
        const char *tl = strstr(bom, "\ntotal,,,,,,,");
        cr_assert_not_null(tl);
        double csv_cost = strtod(tl + strlen("\ntotal,,,,,,,"), NULL);
        cr_expect_eq(llround(csv_cost * 100), llround(all.cost * 100), "%s bom.csv $%.2f, API $%.2f",
                     presets[k], csv_cost, all.cost);
        free(bom);
        snprintf(path, sizeof path, "%s/report.html", dir);
        char *html = slurp(path);
        const char *cell = strstr(html, "<th id=\"cluster-cost\">");
        cr_assert_not_null(cell, "%s: report.html has the whole cluster's cost", presets[k]);
        double rep = ungroup(cell + strlen("<th id=\"cluster-cost\">"));
        cr_expect_eq(llround(rep * 100), llround(all.cost * 100), "%s report $%.2f, API $%.2f",
                     presets[k], rep, all.cost);
        free(html);
        fp_plan_free(p);
    }
}

/* Rack name -> power from the workbook's Racks sheet (column A name, K power W). */
typedef struct rack_w {
    char name[24];
    double w;
} rack_w;

static int racks_sheet(const char *xlsx, rack_w *out, int max)
{
    char names[32][32];
    int ns = xl_sheet_names(xlsx, names, 32), n = 0;
    for (int i = 0; i < ns; i++) {
        if (strcmp(names[i], "Racks") != 0)
            continue;
        char *xml = xl_sheet(xlsx, i + 1);
        const char *pos = xml;
        xl_row *row = malloc(sizeof *row);
        while (xl_next_row(&pos, row))
            if (row->r > 1 && n < max) {
                snprintf(out[n].name, sizeof out[n].name, "%s", row->v[0]);
                out[n++].w = strtod(row->v[10], NULL);
            }
        free(row);
        free(xml);
    }
    return n;
}

/* One power per rack: plan.json's layout.racks, the workbook's Racks sheet and fp_plan_rack give
 * each rack the same figure, on the same racks (the management racks included), and NetBox's
 * racks file and floor.svg list those racks. Independently: the racks' power adds up to what
 * stands in them - the compute servers at layout.server_power_w each, every network's parts in
 * service (the cluster's BOM power, fp_plan_totals, NICs aside: a server's figure includes its
 * NICs), and the networks' extra endpoints at their spec power - within each rack's rounding
 * to hundredths. */
Test(cluster, one_power_per_rack, .timeout = TEST_TIMEOUT(180))
{
    for (size_t k = 0; k < sizeof presets / sizeof presets[0]; k++) {
        fp_plan *p = plan_from_preset(presets[k]);
        char dir[64], path[192];
        scratch_dir(dir, sizeof dir, "cluster-racks");
        write_docs(p, dir, FP_WRITE_JSON | FP_WRITE_XLSX | FP_WRITE_NETBOX | FP_WRITE_FLOOR);
        size_t n = fp_plan_rack_count(p);
        cr_assert_gt(n, fp__plan_layout(p)->n_rack, "%s: management racks among the plan's",
                     presets[k]);

        snprintf(path, sizeof path, "%s/plan.json", dir);
        char *text = slurp(path);
        cJSON *root = cJSON_Parse(text);
        cJSON *jr = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "layout"), "racks");
        cr_assert_eq((size_t)cJSON_GetArraySize(jr), n);
        static rack_w book[512];
        snprintf(path, sizeof path, "%s/plan.xlsx", dir);
        int nb = racks_sheet(path, book, 512);
        cr_assert_eq((size_t)nb, n);
        double sum = 0;
        for (size_t i = 0; i < n; i++) {
            fp_rack_info r;
            cr_assert_eq(fp_plan_rack(p, i, &r, NULL), FP_OK);
            cJSON *x = cJSON_GetArrayItem(jr, (int)i);
            cr_expect_str_eq(cJSON_GetObjectItem(x, "name")->valuestring, r.name);
            cr_expect_float_eq(cJSON_GetObjectItem(x, "power_w")->valuedouble, r.power_w, 1e-9,
                               "%s %s", presets[k], r.name);
            cr_expect_str_eq(book[i].name, r.name);
            cr_expect_float_eq(book[i].w, r.power_w, 1e-6, "%s %s: workbook %.2f, API %.2f",
                               presets[k], r.name, book[i].w, r.power_w);
            sum += r.power_w;
        }
        /* network_placement reads the same figure for the racks the networks add to */
        cJSON *x;
        cJSON_ArrayForEach(x, cJSON_GetObjectItem(cJSON_GetObjectItem(root, "network_placement"), "racks")) {
            const char *name = cJSON_GetObjectItem(x, "rack")->valuestring;
            for (size_t i = 0; i < n; i++) {
                fp_rack_info r;
                fp_plan_rack(p, i, &r, NULL);
                if (strcmp(r.name, name) == 0)
                    cr_expect_float_eq(cJSON_GetObjectItem(x, "power_w")->valuedouble, r.power_w, 1e-9,
                                       "%s %s", presets[k], name);
            }
        }
        cJSON_Delete(root);
        free(text);

        /* NetBox lists the same racks */
        snprintf(path, sizeof path, "%s/netbox-racks.csv", dir);
        csv_file c = csv_load(path);
        cr_assert_eq((size_t)c.n - 1, n, "%s: netbox-racks.csv %d rows", presets[k], c.n - 1);
        csv_free(&c);
        /* floor.svg draws them */
        snprintf(path, sizeof path, "%s/floor.svg", dir);
        char *svg = slurp(path), says[64];
        snprintf(says, sizeof says, "floor plan, %zu racks", n);
        cr_expect_not_null(strstr(svg, says), "%s: floor.svg says \"%s\"", presets[k], says);
        free(svg);

        /* what stands in the racks */
        const fp_rspec *rs = fp__plan_rspec(p);
        fp_totals all;
        fp_plan_totals(p, &all);
        double expect = (double)fp__plan_fabric(p)->servers * rs->phys.server_power_w + all.power_w;
        for (size_t net = 0; net < fp_plan_net_count(p); net++)
            for (size_t i = 0; i < fp_plan_net_bom_count(p, net); i++) {
                fp_bom_line l;
                fp_plan_net_bom_line(p, net, i, &l, NULL);
                if (l.kind == FP_BOM_NIC)
                    expect -= l.power_w;
            }
        for (int i = 0; i < fp__plan_net_count(p); i++)
            expect += fp__plan_net_bom(p, i)->endpoint_power_w;
        cr_expect_float_eq(sum, expect, 0.01 * (double)n, "%s: racks %.2f W, parts %.2f W",
                           presets[k], sum, expect);
        fp_plan_free(p);
    }
}

/* Every network read through one set of getters (issue 23): network 0 is the compute fabric,
 * device for device and link for link as the calls without an index read it; network k's
 * switches (tier > 0) are as many as fp_plan_network counts, and its devices and links are its
 * hosts and switches, its links; a cable id is never used twice across the networks. A
 * network or an item past the end is FP_EINVAL naming the getter. */
Test(cluster, every_network_through_one_set_of_getters, .timeout = TEST_TIMEOUT(120))
{
    fp_plan *p = plan_from_preset("dgx-h100-4su-networks");
    fp_error err = { 0 };
    fp_device_info d0, d;
    fp_link_info l0, l;
    cr_assert_eq(fp_plan_net_device_count(p, 0), fp_plan_device_count(p));
    cr_assert_eq(fp_plan_net_link_count(p, 0), fp_plan_link_count(p));
    for (size_t i = 0; i < fp_plan_device_count(p); i += 97) {
        cr_assert_eq(fp_plan_device(p, i, &d0, NULL), FP_OK);
        cr_assert_eq(fp_plan_net_device(p, 0, i, &d, NULL), FP_OK);
        cr_assert_str_eq(d.name, d0.name);
        cr_assert_eq(d.tier, d0.tier);
    }
    for (size_t i = 0; i < fp_plan_link_count(p); i += 101) {
        cr_assert_eq(fp_plan_link(p, i, &l0, NULL), FP_OK);
        cr_assert_eq(fp_plan_net_link(p, 0, i, &l, NULL), FP_OK);
        cr_assert_eq(l.a, l0.a);
        cr_assert_eq(l.z_port, l0.z_port);
        cr_assert_str_eq(l.a_port_name, l0.a_port_name);
    }
    size_t cables = 0;
    for (size_t net = 0; net < fp_plan_net_count(p); net++)
        cables += fp_plan_net_cable_count(p, net);
    char (*ids)[16] = calloc(cables, sizeof *ids);
    cr_assert_not_null(ids);
    size_t n_ids = 0;
    for (size_t net = 1; net < fp_plan_net_count(p); net++) {
        fp_network_info ni;
        cr_assert_eq(fp_plan_network(p, net - 1, &ni, &err), FP_OK, "%s", err.msg);
        int64_t switches = 0, hosts = 0;
        for (size_t i = 0; i < fp_plan_net_device_count(p, net); i++) {
            cr_assert_eq(fp_plan_net_device(p, net, i, &d, &err), FP_OK, "%s", err.msg);
            cr_assert_neq(d.name[0], '\0');
            /* A switch of another network (the in-band cores above the out-of-band leaves,
             * uplink_to) is that network's: counted there. */
            if (d.tier > 0)
                switches += d.owner == (int)net;
            else
                hosts++;
        }
        cr_assert_eq(switches, ni.switches, "%s", ni.name);
        cr_assert_gt(hosts, 0, "%s", ni.name);
        cr_assert_eq((int64_t)fp_plan_net_link_count(p, net), ni.links, "%s", ni.name);
        err = (fp_error){ 0 };
        cr_assert_eq(fp_plan_net_device(p, net, fp_plan_net_device_count(p, net), &d, &err), FP_EINVAL);
        cr_assert(strstr(err.msg, "fp_plan_net_device") != NULL, "%s", err.msg);
        err = (fp_error){ 0 }; /* the first error is kept: start afresh */
        cr_assert_eq(fp_plan_net_link(p, net, fp_plan_net_link_count(p, net), &l, &err), FP_EINVAL);
        cr_assert(strstr(err.msg, "fp_plan_net_link") != NULL, "%s", err.msg);
    }
    for (size_t net = 0; net < fp_plan_net_count(p); net++)
        for (size_t i = 0; i < fp_plan_net_cable_count(p, net); i++) {
            fp_cable_info c;
            cr_assert_eq(fp_plan_net_cable(p, net, i, &c, &err), FP_OK, "%s", err.msg);
            memcpy(ids[n_ids++], c.id, sizeof ids[0]);
        }
    cr_assert_eq(n_ids, cables);
    qsort(ids, n_ids, sizeof ids[0], (int (*)(const void *, const void *))strcmp);
    for (size_t i = 1; i < n_ids; i++)
        cr_assert_str_neq(ids[i - 1], ids[i], "cable id %s used twice", ids[i]);
    size_t past = fp_plan_net_count(p);
    cr_assert_eq(fp_plan_net_device_count(p, past), 0);
    cr_assert_eq(fp_plan_net_device(p, past, 0, &d, &err), FP_EINVAL);
    cr_assert_eq(fp_plan_net_link(p, past, 0, &l, &err), FP_EINVAL);
    free(ids);
    fp_plan_free(p);
}
