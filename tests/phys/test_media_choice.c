/* Media choice by cost: lane rates decide what fits a port, and among what fits the cheapest
 * whole (modules at both ends and the cable or cord at its stock length) wins, whatever the
 * catalog's order. Every expected figure is derived in the comment above its check. */
#include <criterion/criterion.h>
#include "helpers.h"

/* Non-spare cost of the BOM's transceiver lines. */
static double transceiver_cost(const fp_plan *p)
{
    double usd = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        if (!l.spare && l.kind == FP_BOM_TRANSCEIVER)
            usd += l.cost;
    }
    return usd;
}

Test(media_choice, catalog_order_and_cost_disagree)
{
    /* A twin-port 2xDR4 module at $400, cheaper than the twin SR module nvidia-mma4z00-ns
     * ($1,000) that comes first in the old class order (SR before DR) and in catalog order
     * ("nvidia-..." before "zz-..."). Optics only, 1,024 GPUs on ConnectX-7 OSFP NICs and
     * QM9700 in a 2-tier clos: 1,024 / 32 = 32 leaves of 32 down and 32 up links, 32 x 32 / 64
     * = 16 spines. Per NIC link: SR 600 (NS400) + 1,000 / 2 = 1,100 against DR 750 (MMS4X00-NS400)
     * + 400 / 2 = 950; per leaf-spine link SR 1,000 against DR 400 (cords differ by under $10 at
     * these lengths: OM4 35 + 3/m, OS2 40 + 2.5/m). So every link is DR: 1,024 NIC modules at
     * $750 and (32 + 16) x 32 = 1,536 twin cages at $400: 768,000 + 614,400 = $1,382,400; no SR
     * module at all. */
    static const char extra[] =
        "{\"parts\":[{\"id\":\"zz-cheap-2xdr4-osfp\",\"type\":\"transceiver\",\"ports\":2,"
        "\"port_gbps\":400,\"cage\":\"OSFP\",\"reach_m\":500,\"fibre\":\"SMF\","
        "\"connector\":\"2xMPO-12/APC\",\"lanes\":4,\"lane_gbps\":100,\"power_w\":17,"
        "\"price_usd\":400}]}";
    static const char spec_json[] =
        "{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"clos\",\"switch\":\"nvidia-qm9700\"},"
        "\"media\":{\"default\":[\"MMF\",\"SMF\"]}}";
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *p = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_catalog_merge_string(cat, extra, strlen(extra), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, spec_json, strlen(spec_json), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&p, spec, cat, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(tier_switches(p, 1), 32);
    cr_expect_eq(tier_switches(p, 2), 16);
    cr_expect_eq(bom_quantity(p, "zz-cheap-2xdr4-osfp"), 1536);
    cr_expect_eq(bom_quantity(p, "nvidia-mms4x00-ns400"), 1024);
    cr_expect_eq(bom_quantity(p, "nvidia-mma4z00-ns"), 0);
    cr_expect_eq(bom_quantity(p, "nvidia-mma4z00-ns400"), 0);
    cr_expect_float_eq(transceiver_cost(p), 1382400.0, 1e-6);
    /* The audit of the leaf-spine links (32 x 32 = 1,024, multimode the only other medium):
     * the SR alternative costs $1,000 - $400 = $600 more per twin module, 2 x 512 = 1,024
     * modules: $614,400, plus per link the OM4 cord (35 + 3/m) against the OS2 one (40 + 2.5/m)
     * at the stock length s both sell (the same lengths to 100 m): 0.5 s - 5. */
    fp_media_audit ma;
    cr_assert_eq(fp_plan_media_audit(p, 1, &ma, &err), FP_OK, "%s", err.msg);
    double cords = 0;
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        if (c.boundary == 1)
            cords += (0.5 * c.stock_m - 5) * c.n_links;
    }
    cr_expect_eq(ma.links_with_alternative, 1024);
    cr_expect_eq(ma.alternative_links[FP_MEDIUM_MMF], 1024);
    cr_expect_float_eq(ma.chosen_usd_of_those, ma.chosen_usd, 1e-6);
    cr_expect_float_eq(ma.alternative_usd - ma.chosen_usd, 614400 + cords, 1e-3);
    fp_plan_free(p);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

/* The next stock length of p at or above need within its reach (reach 0: any), or -1. */
static double stock_of(const fp_part *p, double need)
{
    for (int i = 0; i < p->n_lengths; i++)
        if (p->lengths_m[i] + 1e-9 >= need)
            return p->reach_m > 0 && p->lengths_m[i] > p->reach_m + 1e-9 ? -1 : p->lengths_m[i];
    return -1;
}

static const char *one_lane(const char *conn)
{
    return conn[0] >= '2' && conn[0] <= '9' && conn[1] == 'x' ? conn + 2 : conn;
}

Test(media_choice, spectrum_x_800g_takes_the_cheapest_part_that_fits, .timeout = TEST_TIMEOUT(120))
{
    /* spectrum-x-100k with 400G to the NICs and 800G between switches: every SN5600 port runs
     * 100G lanes (8 x 100G at 800G, 4 x 100G per 400G half), so no module or cable with 200G
     * lanes may sit in one (the XDR generic-800g-dr4-osfp224 at $1,400 used to). Each 800G
     * link joins two single-port OSFP cages; the cheapest valid whole for its route is worked
     * out here from the catalog: a copper cable (port_gbps 800, one leg, OSFP, 100G lanes,
     * Ethernet) at its stock length, or for each fibre cord the cheapest module of that cord's
     * fibre and lane connector (OSFP, 1 x 800G, 100G lanes, reach >= the cord's stock length)
     * at both ends plus the cord at its stock length. (Loss budget: without patch panels at
     * most 0.5 dB of DR's 3.0 dB, 0.2 dB of SR's 1.9 dB; it rules nothing out here.) The
     * plan's medium part and both modules must be that choice, and the 800G links' module
     * cost their sum. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":100000,\"gpus_per_server\":8,\"nics_per_server\":8,"
                           "\"nic\":\"nvidia-cx7-osfp\"},\"fabric\":{\"topology\":\"rail-optimized\","
                           "\"tiers\":\"auto\",\"switch\":\"nvidia-sn5600\",\"su_servers\":64,"
                           "\"link_gbps\":[400,800]}}");
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    const fp_part *sn = fp_catalog_find(cat, "nvidia-sn5600");
    cr_assert(sn && sn->lane_gbps == 100 && sn->lanes == 8, "SN5600 lanes: 8 x 100G");
    double want = 0, got = 0;
    int64_t n800 = 0;
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        /* every module in a switch port has the switch's lane rate */
        for (int e = 0; e < c.n_z + 1; e++) {
            const char *t = e == 0 ? c.a.transceiver : c.z[e - 1].transceiver;
            if ((e == 0 && c.boundary == 0) || t[0] == '\0')
                continue;
            const fp_part *m = fp_catalog_find(cat, t);
            cr_assert(m != NULL, "%s", t);
            cr_assert_eq(m->lane_gbps, 100, "%s: %s (%dG lanes) in an SN5600 port", c.id, t,
                         m->lane_gbps);
        }
        const fp_part *cp = fp_catalog_find(cat, c.part);
        cr_assert(cp != NULL, "%s", c.part);
        if (cp->type == FP_PART_CABLE)
            cr_assert(cp->lane_gbps == 100, "%s: %s", c.id, c.part);
        if (c.gbps != 800)
            continue;
        n800++;
        /* the cheapest valid whole for this route */
        double best = -1, best_mod = 0;
        const char *best_part = NULL, *best_m = "";
        for (size_t j = 0; j < fp_catalog_count(cat); j++) {
            const fp_part *x = fp_catalog_part(cat, j);
            if (x->type == FP_PART_CABLE && x->port_gbps == 800 && x->legs == 1 &&
                strcmp(x->cage, "OSFP") == 0 && x->leg_cage[0] == '\0' && x->lane_gbps == 100 &&
                (fp_part_protocols(x) & FP_PROTO_ETH)) {
                double s = stock_of(x, c.route_m);
                double cost = x->price_usd + x->price_per_m_usd * s;
                if (s >= 0 && (best < 0 || cost < best - 1e-9)) {
                    best = cost;
                    best_part = x->id;
                    best_m = "";
                    best_mod = 0;
                }
            }
            if (x->type != FP_PART_FIBRE || x->legs > 1 || x->n_lengths == 0)
                continue;
            double s = stock_of(x, c.route_m);
            if (s < 0)
                continue;
            const fp_part *mod = NULL;
            for (size_t k = 0; k < fp_catalog_count(cat); k++) {
                const fp_part *m = fp_catalog_part(cat, k);
                if (m->type == FP_PART_TRANSCEIVER && strcmp(m->cage, "OSFP") == 0 &&
                    m->ports == 1 && m->port_gbps == 800 && m->lane_gbps == 100 &&
                    strcmp(m->fibre, x->fibre) == 0 && strcmp(one_lane(m->connector), x->connector) == 0 &&
                    m->reach_m + 1e-9 >= s && (fp_part_protocols(m) & FP_PROTO_ETH) &&
                    (mod == NULL || m->price_usd < mod->price_usd - 1e-9))
                    mod = m;
            }
            if (mod == NULL)
                continue;
            double cost = 2 * mod->price_usd + x->price_usd + x->price_per_m_usd * s;
            if (best < 0 || cost < best - 1e-9) {
                best = cost;
                best_part = x->id;
                best_m = mod->id;
                best_mod = 2 * mod->price_usd;
            }
        }
        cr_assert(best_part != NULL, "%s: nothing fits", c.id);
        cr_assert_str_eq(c.part, best_part, "%s (%.2f m): %s, cheapest %s", c.id, c.route_m, c.part,
                         best_part);
        cr_assert_str_eq(c.a.transceiver, best_m, "%s", c.id);
        cr_assert_str_eq(c.z[0].transceiver, best_m, "%s", c.id);
        want += best_mod;
        if (c.a.transceiver[0])
            got += fp_catalog_find(cat, c.a.transceiver)->price_usd +
                   fp_catalog_find(cat, c.z[0].transceiver)->price_usd;
    }
    /* leaf-spine and spine-core links at 800G: 1,568 leaves x 32 up + 1,568 spines x 32 up */
    cr_expect_eq(n800, 2 * 50176);
    cr_expect_float_eq(got, want, 1e-6);
    cr_expect_eq(bom_quantity(p, "generic-800g-dr4-osfp224"), 0);
    fp_catalog_free(cat);
    fp_plan_free(p);
}
