/* Port models: link speeds per boundary, bandwidth ratios, NIC cages, protocols, co-packaged
 * optics, chassis switches, and a catalog that wires every NIC x switch pair it lists. Every
 * expected number is derived by hand in the comment above its check. */
#include <criterion/criterion.h>
#include "helpers.h"

/* fp_plan_boundary_links for a boundary the plan has. */
static int64_t boundary_links(const fp_plan *p, int b)
{
    int64_t n = -1;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_boundary_links(p, b, &n, &err), FP_OK, "%s", err.msg);
    return n;
}

static int64_t links_at(const fp_plan *p, int boundary, int gbps)
{
    int64_t n = 0;
    for (size_t i = 0; i < fp_plan_link_count(p); i++) {
        fp_link_info l;
        cr_assert_eq(fp_plan_link(p, i, &l, NULL), FP_OK);
        if (l.boundary == boundary && l.gbps == gbps)
            n++;
    }
    return n;
}

static int64_t links_of_medium(const fp_plan *p, fp_medium m)
{
    int64_t n = 0;
    for (size_t i = 0; i < fp_plan_link_count(p); i++) {
        fp_medium li = FP_MEDIUM_COUNT;
        cr_assert_eq(fp_plan_link_medium(p, i, &li, NULL), FP_OK);
        n += li == m;
    }
    return n;
}

Test(port_models, sn5600_400g_down_800g_up)
{
    /* SN5600: 64 x 800G ports, one per OSFP cage. Down at 400G a cage splits in two (its
     * catalog breakout 2): 2 links per cage; up at 800G: 1 link per cage. At 1:1 bandwidth the
     * leaf's down Gb/s equal its up Gb/s: d x 400 = u x 800, so u = d / 2; the cages hold
     * d / 2 + u = 64, so d = 64 down links in 32 cages and u = 32 up links in 32 cages.
     * Leaves: 4,096 NIC ports / 64 = 64. Each leaf sends one 800G link to each of 32 spines;
     * a spine (top tier, all 64 ports down at 800G) takes one link from each of the 64 leaves,
     * so 64 x 32 / 64 = 32 spines. Links: 4,096 NIC-leaf at 400G; 64 x 32 = 2,048 leaf-spine
     * at 800G. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":\"nvidia-sn5600\",\"oversubscription\":[1],"
                           "\"link_gbps\":[400,800]}}");
    cr_expect_eq(fp_plan_tier_count(p), 2);
    cr_expect_eq(tier_switches(p, 1), 64);
    cr_expect_eq(tier_switches(p, 2), 32);
    cr_expect_eq(boundary_links(p, 0), 4096);
    cr_expect_eq(boundary_links(p, 1), 2048);
    cr_expect_eq(links_at(p, 0, 400), 4096);
    cr_expect_eq(links_at(p, 1, 800), 2048);
    fp_tier_info leaf, spine;
    cr_assert_eq(fp_plan_tier(p, 0, &leaf, NULL), FP_OK);
    cr_assert_eq(fp_plan_tier(p, 1, &spine, NULL), FP_OK);
    cr_expect_eq(leaf.down_ports, 64);
    cr_expect_eq(leaf.up_ports, 32);
    cr_expect_eq(leaf.port_gbps, 400);
    cr_expect_eq(leaf.up_gbps, 800);
    cr_expect_float_eq(leaf.oversubscription, 1.0, 1e-12);
    /* every cage of a leaf is used: 32 split for the 64 downlinks, 32 whole for the uplinks */
    cr_expect_eq(leaf.ports_spare, 0);
    cr_expect_eq(spine.port_gbps, 800);
    cr_expect_eq(spine.down_ports, 64);
    /* the first uplink leaves the first cage after the 32 split ones: physical port 33, named
     * by the SN5600's Cumulus template (swp33), while the downlinks are lanes (swp1s0) */
    fp_link_info l;
    cr_assert_eq(fp_plan_link(p, 4096, &l, NULL), FP_OK);
    cr_expect_str_eq(l.a_port_name, "swp33");
    cr_assert_eq(fp_plan_link(p, 0, &l, NULL), FP_OK);
    cr_expect_str_eq(l.z_port_name, "swp1s0");
    /* an SN5600 (Ethernet) plan may use AECs: leaf-spine runs of 5-7 m are beyond ACC (5 m)
     * and AEC (to 7 m) is cheaper than a pair of modules there */
    cr_expect_gt(links_of_medium(p, FP_MEDIUM_AEC), 0);
    fp_plan_free(p);
}

Test(port_models, fractional_and_undersubscribed_ratios)
{
    /* QM9700, 64 x 400G, one speed: down d and up ceil(d / r) must fit 64 ports.
     * 16:15 -> d = 33 (up ceil(33 x 15 / 16) = ceil(30.94) = 31, 64 ports); d = 34 would need
     * 32 up, 66 ports. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"clos\","
                           "\"oversubscription\":[\"16:15\"]}}");
    fp_tier_info t;
    cr_assert_eq(fp_plan_tier(p, 0, &t, NULL), FP_OK);
    cr_expect_eq(t.down_ports, 33);
    cr_expect_eq(t.up_ports, 31);
    /* Shown as written, not as 1.06667:1: the tier choice says what was asked (16:15); the
     * tier shows what was built, 33 x 400 : 31 x 400 = 33:31 (400 cancels, 33 = 3 x 11 and 31
     * share no factor). */
    char ratio[32];
    fp_summary su;
    fp_plan_summary(p, &su);
    cr_expect_not_null(strstr(su.tier_choice, " at 16:15"), "%s", su.tier_choice);
    cr_expect_null(strstr(su.tier_choice, "1.0666"), "%s", su.tier_choice);
    cr_expect_str_eq(fp_ratio_text(t.oversubscription, ratio, sizeof ratio), "33:31");
    fp_plan_free(p);
    /* 1:2 (under-subscribed, written 0.5): d + 2d <= 64 -> d = 21, u = 42. 1,024 NIC ports /
     * 21 = 48.8 -> 49 leaves. Spines: the 49 leaves' 42 uplinks each need ceil(49 x 42 / 64)
     * = 33 spines, and the count must divide 42 (even uplinks): 42 spines, one link from each
     * leaf to each. */
    p = plan_from("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"clos\","
                  "\"oversubscription\":[0.5]}}");
    cr_assert_eq(fp_plan_tier(p, 0, &t, NULL), FP_OK);
    cr_expect_eq(t.down_ports, 21);
    cr_expect_eq(t.up_ports, 42);
    cr_expect_float_eq(t.oversubscription, 0.5, 1e-12);
    /* 21 x 400 : 42 x 400 = 1:2, as asked (0.5 = 1:2) */
    cr_expect_str_eq(fp_ratio_text(t.oversubscription, ratio, sizeof ratio), "1:2");
    fp_plan_summary(p, &su);
    cr_expect_not_null(strstr(su.tier_choice, " at 1:2"), "%s", su.tier_choice);
    cr_expect_eq(tier_switches(p, 1), 49);
    cr_expect_eq(tier_switches(p, 2), 42);
    fp_plan_free(p);
}

Test(port_models, dgx_h100_twin_port_cages_all_optical)
{
    /* DGX H100 SuperPOD, 4 SUs x 32 servers x 8 GPUs = 1,024 GPUs, QM9700, forced all optical.
     * Server side: 8 x 400G compute ports in 4 twin-port OSFP cages -> 4 twin modules per 8 GPUs
     * = 0.5 per GPU. Leaf down: each GPU's link lands on one leaf port; QM9700 cages hold 2
     * ports -> 0.5 per GPU. Leaf up (1:1): 32 leaves (4 SUs x 8 rails) x 32 uplinks = 1,024
     * ports in 512 twin cages -> 0.5 per GPU. Spines: 1,024 uplinks / 64 ports = 16 spines,
     * 16 x 32 cages = 512 modules -> 0.5 per GPU. Total 0.5 x 4 = 2.0 per GPU = 2,048 modules
     * (NVIDIA's all-optical SuperPOD figure); leaves 32 and spines 16 as before. */
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *p = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    cr_assert_eq(fp_spec_preset(&spec, "dgx-h100-4su", &err), FP_OK);
    cr_assert_eq(fp_spec_set(spec, "/media/default", "[\"MMF\",\"SMF\"]", &err), FP_OK);
    cr_assert_eq(fp_plan_new(&p, spec, cat, &err), FP_OK, "%s", err.msg);
    fp_device_info d;
    cr_assert_eq(fp_plan_device(p, 0, &d, NULL), FP_OK);
    cr_expect_str_eq(d.model, "nvidia-dgx-h100-sys");
    cr_expect_eq(tier_switches(p, 1), 32);
    cr_expect_eq(tier_switches(p, 2), 16);
    fp_totals to;
    fp_plan_totals(p, &to);
    cr_expect_eq(to.transceivers, 2048);
    cr_expect_float_eq(to.transceivers_per_gpu, 2.0, 1e-12);
    fp_plan_free(p);
    /* The same ports given inline (8 x 400G in 4 cages) plan the same 2,048 modules. */
    cr_assert_eq(fp_spec_set(spec, "/cluster/nic",
                             "{\"ports\":8,\"port_gbps\":400,\"cages\":4,\"cage\":\"OSFP\",\"price_usd\":0,\"power_w\":0}",
                             &err), FP_OK);
    cr_assert_eq(fp_plan_new(&p, spec, cat, &err), FP_OK, "%s", err.msg);
    fp_plan_totals(p, &to);
    cr_expect_eq(to.transceivers, 2048);
    fp_plan_free(p);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

/* dgx-b200-64su at n SUs (256 GPUs each), optionally all optical and with another NIC. */
static fp_plan *b200_plan(int sus, int optical, const char *nic, int nics)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *p = NULL;
    char v[64];
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    cr_assert_eq(fp_spec_preset(&spec, "dgx-b200-64su", &err), FP_OK);
    snprintf(v, sizeof v, "%d", sus * 256);
    cr_assert_eq(fp_spec_set(spec, "/cluster/gpus", v, &err), FP_OK, "%s", err.msg);
    if (optical)
        cr_assert_eq(fp_spec_set(spec, "/media/default", "[\"MMF\",\"SMF\"]", &err), FP_OK);
    if (nic) {
        snprintf(v, sizeof v, "\"%s\"", nic);
        cr_assert_eq(fp_spec_set(spec, "/cluster/nic", v, &err), FP_OK);
        snprintf(v, sizeof v, "%d", nics);
        cr_assert_eq(fp_spec_set(spec, "/cluster/nics_per_server", v, &err), FP_OK);
    }
    cr_assert_eq(fp_plan_new(&p, spec, cat, &err), FP_OK, "%d SUs: %s", sus, err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return p;
}

Test(port_models, dgx_b200_superpod_table, .timeout = TEST_TIMEOUT(300))
{
    /* NVIDIA DGX SuperPOD B200 reference architecture ("DGX SuperPOD Architecture", the table of
     * larger SuperPOD component counts): SU count -> leaf / spine / core switches and node-leaf /
     * leaf-spine / spine-core cables:
     *    2: 16 / 8 / -,  512 / 512 / -        16: 128 / 128 / 64,  4,096 each
     *    4: 32 / 16 / -, 1,024 / 1,024 / -    32: 256 / 256 / 128, 8,192 each
     *    8: 64 / 32 / -, 2,048 / 2,048 / -    64: 512 / 512 / 256, 16,384 each
     * So 2-8 SUs are 2 tiers, 16-64 three: the preset's tiers are "auto" (2 tiers of 64-port
     * QM9700 serve at most 64 x 32 = 2,048 GPUs at 1:1 = 8 SUs). Each table cable is a link.
     * The system (DGX B200 user guide): 8 x 400G ConnectX-7 in 4 twin-port OSFP cages, 10U,
     * 14.3 kW; the preset racks 2 systems: U1 and U11, 2 x 14,300 = 28,600 W of servers.
     * All optical, each end of every link sits in a twin-port cage (the DGX's and the QM9700's
     * 32 cages of 2 ports), so each boundary costs 2 x 0.5 = 1 module per GPU: 2 tiers
     * (server-leaf, leaf-spine) 2.0 per GPU as for DGX H100, 3 tiers 3.0. The system side is 4
     * modules per DGX (0.5 per GPU); eight single-port ConnectX-7 (the preset before the system
     * part) take 8: the same plan with them has exactly 4 more modules per server. */
    static const struct { int sus, leaf, spine, core; int64_t cables; } ra[] = {
        { 2, 16, 8, 0, 512 },       { 4, 32, 16, 0, 1024 },      { 8, 64, 32, 0, 2048 },
        { 16, 128, 128, 64, 4096 }, { 32, 256, 256, 128, 8192 }, { 64, 512, 512, 256, 16384 },
    };
    for (size_t i = 0; i < sizeof ra / sizeof ra[0]; i++) {
        const int sus = ra[i].sus, tiers = ra[i].core ? 3 : 2;
        const int64_t gpus = (int64_t)sus * 256;
        fp_plan *p = b200_plan(sus, 1, NULL, 0);
        cr_expect_eq(fp_plan_tier_count(p), (size_t)tiers, "%d SUs", sus);
        cr_expect_eq(tier_switches(p, 1), ra[i].leaf, "%d SUs", sus);
        cr_expect_eq(tier_switches(p, 2), ra[i].spine, "%d SUs", sus);
        cr_expect_eq(tier_switches(p, 3), ra[i].core, "%d SUs", sus);
        for (int b = 0; b < tiers; b++)
            cr_expect_eq(boundary_links(p, b), ra[i].cables, "%d SUs boundary %d", sus, b);
        fp_device_info d;
        fp_location loc;
        cr_assert_eq(fp_plan_device(p, 1, &d, NULL), FP_OK);
        cr_expect_str_eq(d.model, "nvidia-dgx-b200-sys");
        cr_assert_eq(fp_plan_device_location(p, 1, &loc, NULL), FP_OK);
        cr_expect_eq(loc.u, 11, "the second DGX B200 of a rack sits above the first 10U one");
        fp_rack_info rk;
        cr_assert_eq(fp_plan_rack(p, 0, &rk, NULL), FP_OK);
        cr_expect_str_eq(rk.role, "compute");
        cr_expect_eq(rk.units_used, 20);
        cr_expect_geq(rk.power_w, 28600);
        cr_expect_lt(rk.power_w, 28600 + 16 * 50, "servers plus at most 50 W of optics per port");
        fp_totals to;
        fp_plan_totals(p, &to);
        cr_expect_eq(to.transceivers, gpus * tiers, "%d SUs", sus);
        cr_expect_float_eq(to.transceivers_per_gpu, (double)tiers, 1e-12);
        fp_plan_free(p);
        if (sus > 8)
            continue;
        p = b200_plan(sus, 1, "nvidia-cx7-osfp", 8);
        fp_totals singles;
        fp_plan_totals(p, &singles);
        cr_expect_eq(singles.transceivers - to.transceivers, 4 * gpus / 8, "%d SUs", sus);
        fp_plan_free(p);
    }
}

Test(port_models, infiniband_default_uses_no_aec)
{
    /* QM9700 and ConnectX-7 speak InfiniBand in common; the only AEC in the catalog is
     * Ethernet, and NVIDIA lists no NDR AEC, so no link of the default plan may be an AEC. */
    fp_plan *p = plan_from("{}");
    cr_expect_eq(links_of_medium(p, FP_MEDIUM_AEC), 0);
    cr_expect_gt(fp_plan_link_count(p), 0);
    fp_plan_free(p);
}

Test(port_models, no_common_protocol_is_an_error)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"nic\":{\"ports\":1,\"port_gbps\":400,\"cage\":\"OSFP\","
                            "\"protocol\":\"ethernet\"}},\"fabric\":{\"switch\":\"nvidia-qm9700\"}}",
                            &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/switch");
    cr_expect(strstr(err.msg, "no protocol in common") && strstr(err.msg, "infiniband") &&
                  strstr(err.msg, "ethernet"),
              "%s", err.msg);
    /* tiers too: an InfiniBand leaf under an Ethernet spine */
    cr_assert_eq(plan_error("{\"fabric\":{\"topology\":\"clos\",\"switch\":[\"nvidia-qm9700\",\"generic-th4-64x400\"]}}",
                            &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/switch/1");
    cr_assert_eq(plan_error("{\"cluster\":{\"nic\":{\"ports\":1,\"port_gbps\":400,\"protocol\":\"fc\"}}}",
                            &err),
                 FP_EINVAL);
    cr_expect(strstr(err.msg, "protocol"), "%s", err.msg);
}

/* Whether a NIC port speed can run on a switch: the same speed or one of its breakouts. */
static int speeds_fit(const fp_part *nic, const fp_part *sw)
{
    if (sw->port_gbps == nic->port_gbps)
        return 1;
    for (int i = 0; i < FP_MAX_BREAKOUTS && sw->breakouts[i]; i++)
        if (sw->port_gbps == nic->port_gbps * sw->breakouts[i])
            return 1;
    return 0;
}

Test(port_models, every_builtin_nic_switch_pair_plans, .timeout = TEST_TIMEOUT(600))
{
    /* Every NIC x switch pair of the built-in catalog whose speeds fit (the NIC's port speed is
     * the switch's, or one of its breakouts) and that speak a protocol in common plans with the
     * built-in catalog: 1,024 GPUs in a clos, one NIC per GPU (a DGX's port set: one per
     * server), and again rail-optimized with the scalable unit left to fabplan (a 32-server
     * unit of 16-port servers needs 32 leaves on TH3, more than a spine's 16 down ports: the
     * unit is chosen smaller, see rail_su_chosen_when_not_given). A chassis serves no leaf and
     * is left out. */
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    int planned = 0, refused = 0, cited = 0;
    for (int topo = 0; topo < 2; topo++)
    for (size_t i = 0; i < fp_catalog_count(cat); i++) {
        const fp_part *nic = fp_catalog_part(cat, i);
        if (nic->type != FP_PART_NIC)
            continue;
        for (size_t j = 0; j < fp_catalog_count(cat); j++) {
            const fp_part *sw = fp_catalog_part(cat, j);
            if (sw->type != FP_PART_SWITCH || sw->line_cards > 0)
                continue;
            char json[512];
            snprintf(json, sizeof json,
                     "{\"cluster\":{\"gpus\":1024,\"nic\":\"%s\",\"nics_per_server\":%d},"
                     "\"fabric\":{\"topology\":\"%s\",\"switch\":\"%s\"}}",
                     nic->id, nic->ports >= 8 ? 1 : 8, topo ? "rail-optimized" : "clos", sw->id);
            int common = (fp_part_protocols(nic) & fp_part_protocols(sw)) != 0;
            /* The speed divides the port's but no breakout splits it: refused, citing the
             * part's source (its published port modes), co-packaged optics said so. */
            if (!speeds_fit(nic, sw)) {
                if (sw->port_gbps % nic->port_gbps != 0)
                    continue;
                cr_expect_eq(plan_error(json, &err), FP_EINVAL, "%s on %s", nic->id, sw->id);
                char head[41];
                snprintf(head, sizeof head, "%s", sw->source);
                cr_expect(strstr(err.msg, "part source: ") && strstr(err.msg, head) &&
                              (!sw->cpo || strstr(err.msg, "co-packaged optics: no")),
                          "%s", err.msg);
                /* never cut by the message's size (a long source ended "...(DR4-class); "):
                 * the source whole, or the message says where the rest of it is */
                char rest[96];
                snprintf(rest, sizeof rest, " (the rest: `fabplan catalog show %s`)", sw->id);
                size_t len = strlen(err.msg);
                cr_expect_lt(len, sizeof err.msg - 1, "%s", err.msg);
                cr_expect(strstr(err.msg, sw->source) != NULL ||
                              (len > strlen(rest) && strcmp(err.msg + len - strlen(rest), rest) == 0),
                          "%s", err.msg);
                cited++;
                continue;
            }
            /* An 800G NIC on 200G lanes (XDR) on an 800G switch on 100G lanes: no catalog cable
             * has two lane rates, and their 800G modules share no optic (the 200G-lane 800G DR4
             * takes MPO-12/APC, the 100G-lane DR8/SR8 MPO-16): refused, citing both parts' lane
             * sources. */
            int lanes_apart = nic->port_gbps == 800 && nic->lane_gbps == 200 && sw->lane_gbps == 100;
            fp_status rc = plan_error(json, &err);
            if (common && lanes_apart) {
                cr_expect_eq(rc, FP_EDESIGN, "%s on %s", nic->id, sw->id);
                cr_expect(strstr(err.msg, "4 x 200G lanes") && strstr(err.msg, "8 x 100G") &&
                              strstr(err.msg, nic->lane_source) && strstr(err.msg, sw->lane_source),
                          "%s", err.msg);
                refused++;
            } else if (common) {
                cr_expect_eq(rc, FP_OK, "%s on %s: %s", nic->id, sw->id, err.msg);
                planned++;
            } else {
                cr_expect_eq(rc, FP_EINVAL, "%s on %s", nic->id, sw->id);
                cr_expect(strstr(err.msg, "no protocol in common"), "%s", err.msg);
            }
        }
    }
    /* Counted by hand from templates/catalog.json: 10 NIC parts (seven at 400G: cx7-osfp,
     * cx7-qsfp112, generic-nic-2x400, dgx-h100-sys, dgx-b200-sys, dgx-b300-2x400, cx8-2x400; one at 200G:
     * cx7-2x200; two at 800G: cx8-osfp, dgx-b300-xdr) and 10 fixed switches. 400G fits QM9700,
     * TH4, TH3 (400G ports) and SN5600, Q3400, both TH5, the Arista 7060X6-64PE (800G split 2):
     * 8, not the two co-packaged 800G switches (no breakouts): 7 x 8 = 56. 200G fits QM9700,
     * TH4, TH3 (split 2), SN5600, both TH5 and the 7060X6 (split 4) and SN6810 (512 x 200G as
     * NVIDIA publishes it: breakout 4 through an MPO to 4 x LC fan-out), not Q3400 (only 2) nor
     * Q3450-LD (800G only): 8. 800G fits SN5600, Q3400, both TH5, the 7060X6, Q3450-LD, SN6810:
     * 2 x 7 = 14. 56 + 8 + 14 = 78; every NIC part speaks both protocols. Both 800G NICs run
     * 4 x 200G lanes, and SN5600, both TH5 and the 7060X6 8 x 100G: those 2 x 4 = 8 pairs are
     * refused, the other 70 plan (the issue counted 28 pairs, 13 of which failed); twice, once
     * per topology. */
    cr_expect_eq(planned, 2 * 70, "%d pairs planned", planned);
    cr_expect_eq(refused, 2 * 8, "%d pairs refused", refused);
    /* Speeds that divide without a breakout: the seven 400G NICs on the two co-packaged 800G
     * switches (14: SN6810 publishes 800G and 200G, Q3450-LD 800G only) and the 200G one on
     * Q3450-LD and on Q3400 (breakout 2 only): 2 (the 7060X6 splits 2 and 4 like TH5: none); 16
     * per topology, each refused with the switch's source cited. */
    cr_expect_eq(cited, 2 * 16, "%d pairs refused citing the part", cited);
    fp_catalog_free(cat);
}

Test(port_models, inline_switch_without_price_warns)
{
    /* An inline switch that gives neither price nor power: one warning naming both, and one
     * unpriced part in the totals (the catalog's NIC, modules and cables are all priced). */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":{\"ports\":64,\"port_gbps\":400,\"cages\":32,\"cage\":\"OSFP\"}}}");
    fp_totals to;
    fp_plan_totals(p, &to);
    cr_expect_eq(to.unpriced_parts, 1);
    cr_assert_eq(fp_plan_warning_count(p), 1);
    const char *w = fp_plan_warning(p, 0);
    cr_expect(strstr(w, "custom-switch-64x400g") && strstr(w, "price_usd") && strstr(w, "power_w"),
              "%s", w);
    cr_expect_null(fp_plan_warning(p, 1));
    char *json = NULL;
    cr_assert_eq(fp_plan_to_json(p, &json, NULL), FP_OK);
    cr_expect(strstr(json, "\"unpriced_parts\":\t1") || strstr(json, "\"unpriced_parts\": 1") ||
                  strstr(json, "\"unpriced_parts\":1"),
              "plan.json has no unpriced_parts of 1");
    fp_free(json);
    fp_plan_free(p);
    /* priced and powered inline parts give no warning */
    p = plan_from("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"clos\","
                  "\"switch\":{\"ports\":64,\"port_gbps\":400,\"cages\":32,\"cage\":\"OSFP\","
                  "\"price_usd\":20000,\"power_w\":700}}}");
    fp_plan_totals(p, &to);
    cr_expect_eq(to.unpriced_parts, 0);
    cr_expect_eq(fp_plan_warning_count(p), 0);
    fp_plan_free(p);
}

Test(port_models, co_packaged_optics_take_fibre_straight)
{
    /* Quantum-X Photonics Q3450-LD: 144 x 800G co-packaged optics, ConnectX-8 800G NICs. Every
     * switch port is optical with no pluggable module, so the only modules are the NICs': one
     * per GPU, 1,024; links between two Q3450s carry no module at all. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024,\"nic\":\"nvidia-cx8-osfp\"},"
                           "\"fabric\":{\"topology\":\"clos\",\"switch\":\"nvidia-q3450-ld\"}}");
    fp_totals to;
    fp_plan_totals(p, &to);
    cr_expect_eq(to.transceivers, 1024);
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        cr_assert_eq(c.medium, FP_MEDIUM_SMF, "%s", c.id);
        cr_assert_str_eq(c.z[0].transceiver, "", "%s: a module in a co-packaged port", c.id);
        if (c.boundary == 0)
            cr_assert_str_neq(c.a.transceiver, "", "%s: NIC end without a module", c.id);
    }
    fp_plan_free(p);
}

Test(port_models, co_packaged_split_fans_out_to_200g)
{
    /* SN6810 as NVIDIA publishes it, 128 x 800G or 512 x 200G ('Inside the NVIDIA Rubin
     * Platform', Figure 15): 1,024 GPUs of 8 ConnectX-7 2 x 200G per server = 128 servers x 16 =
     * 2,048 NIC ports at 200G. Each 800G port split 4 ways: 512 ports of 200G per switch, 1:1
     * 256 down + 256 up: 2,048 / 256 = 8 leaves; 8 x 256 = 2,048 uplinks / 512 = 4 spines.
     * No module in a co-packaged port; each NIC port takes one 200G DR1 (one 200G wavelength,
     * LC duplex: the CPO port's four 200G lanes are four fibre pairs), 2,048 modules. Cords as
     * built: a leaf port's 4 NIC links leave its MPO through one MPO to 4 x LC fan-out, 2,048 /
     * 4 = 512; a leaf's 256 uplinks over 4 spines are 64 each, whole ports (4 lanes) to whole
     * spine ports, so one straight MPO cord carries a port's 4 links: 2,048 / 4 = 512. 1,024
     * cables for 4,096 links. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024,\"nic\":\"nvidia-cx7-2x200\",\"nics_per_server\":8},"
                           "\"fabric\":{\"topology\":\"clos\",\"switch\":\"nvidia-sn6810\"}}");
    cr_expect_eq(tier_switches(p, 1), 8);
    cr_expect_eq(tier_switches(p, 2), 4);
    cr_expect_eq(fp_plan_link_count(p), 4096);
    cr_expect_eq(links_at(p, 0, 200), 2048);
    cr_expect_eq(links_at(p, 1, 200), 2048);
    cr_expect_eq(links_of_medium(p, FP_MEDIUM_SMF), 4096);
    cr_expect_eq(bom_quantity(p, "generic-200g-dr1-qsfp112"), 2048);
    cr_expect_eq(bom_quantity(p, "fibre-os2-mpo12-apc-4xlc"), 512);
    cr_expect_eq(bom_quantity(p, "fibre-os2-mpo12-apc"), 512);
    fp_totals to;
    fp_plan_totals(p, &to);
    cr_expect_eq(to.transceivers, 2048);
    cr_expect_eq(to.cables, 1024);
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        cr_expect_eq(c.n_links, 4, "%s", c.id);
        cr_expect_str_empty(c.a.transceiver, "%s: a module in a co-packaged port", c.id);
        if (c.boundary == 0) {
            /* the hub at the leaf's split port, 4 legs to 4 NIC ports, a module at each */
            cr_expect_str_eq(c.part, "fibre-os2-mpo12-apc-4xlc", "%s", c.id);
            cr_expect_eq(c.n_z, 4, "%s", c.id);
            for (int k = 0; k < c.n_z; k++)
                cr_expect_str_eq(c.z[k].transceiver, "generic-200g-dr1-qsfp112", "%s", c.id);
        } else {
            cr_expect_str_eq(c.part, "fibre-os2-mpo12-apc", "%s", c.id);
            cr_expect_eq(c.n_z, 1, "%s", c.id);
            cr_expect_str_empty(c.z[0].transceiver, "%s: a module in a co-packaged port", c.id);
        }
    }
    fp_plan_free(p);
    /* Error paths: 400G on an SN6810 (no 2-way mode published) and 200G on a Q3450-LD (800G
     * only) are refused at /fabric/switch citing the part's published modes. */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"clos\","
                            "\"switch\":\"nvidia-sn6810\"}}", &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "no 400G mode published") && strstr(err.msg, "128 x 800G or 512 x 200G"),
              "%s", err.msg);
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":1024,\"nic\":\"nvidia-cx7-2x200\",\"nics_per_server\":8},"
                            "\"fabric\":{\"topology\":\"clos\",\"switch\":\"nvidia-q3450-ld\"}}", &err),
                 FP_EINVAL);
    cr_expect(strstr(err.msg, "no 200G mode published") && strstr(err.msg, "144 x 800G"), "%s", err.msg);
}

Test(port_models, chassis_serves_spine_not_leaf)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"fabric\":{\"switch\":\"generic-chassis-576x800\"}}", &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "chassis") && strstr(err.msg, "leaf"), "%s", err.msg);
    /* TH5 leaves (64 x 400G down in 32 cages, 32 x 800G up, as the SN5600 above) under a 576 x
     * 800G chassis spine: 4,096 GPUs need 64 leaves with 32 uplinks each; the spine group needs
     * ceil(64 x 32 / 576) = 4 chassis, and 4 divides 32, so each leaf has 8 links to each of 4
     * spines (each spine 64 x 8 = 512 of its 576 ports). */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":[\"generic-th5-osfp\",\"generic-chassis-576x800\"],"
                           "\"link_gbps\":[400,800]}}");
    cr_expect_eq(tier_switches(p, 1), 64);
    cr_expect_eq(tier_switches(p, 2), 4);
    cr_expect_eq(boundary_links(p, 1), 2048);
    fp_plan_free(p);
}

Test(port_models, nothing_fits_names_what_is_missing)
{
    /* A 100G NIC in a QSFP28 cage on a 400G QSFP-DD switch split 4 ways: the catalog's only
     * 100G modules are single-port QSFP28 ones (MMA1B00-C100D, MMA1L30-CM), nothing for a
     * QSFP-DD cage carrying four 100G links; the error names the speed, the cage and the links
     * per cage, and offers the closest modules. */
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":64,\"nic\":{\"ports\":1,\"port_gbps\":100,"
                            "\"cage\":\"QSFP28\",\"price_usd\":500,\"power_w\":10}},"
                            "\"fabric\":{\"topology\":\"clos\",\"switch\":\"generic-th4-64x400\"}}",
                            &err),
                 FP_EDESIGN);
    cr_expect(strstr(err.msg, "no 100G module for a QSFP-DD cage holding 4 links"), "%s", err.msg);
    cr_expect(strstr(err.msg, "closest: "), "%s", err.msg);
    cr_expect(strstr(err.msg, "(Ethernet)") || strstr(err.msg, "(InfiniBand or Ethernet)"), "%s",
              err.msg);
    cr_expect_null(strstr(err.msg, "a  cage"), "%s", err.msg);
}

Test(port_models, link_speed_errors)
{
    fp_error err = { 0 };
    /* QM9700 ports are 400G: no 800G uplinks */
    cr_assert_eq(plan_error("{\"fabric\":{\"link_gbps\":[400,800]}}", &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "800G links above it"), "%s", err.msg);
    /* NIC links faster than the NIC */
    cr_assert_eq(plan_error("{\"fabric\":{\"link_gbps\":[800]}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/link_gbps/0");
    cr_assert_eq(plan_error("{\"fabric\":{\"link_gbps\":[400,\"fast\"]}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/link_gbps/1");
    /* a fat-tree runs one speed */
    cr_assert_eq(plan_error("{\"fabric\":{\"topology\":\"fat-tree\",\"switch\":\"nvidia-sn5600\","
                            "\"link_gbps\":[400,800]}}",
                            &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/link_gbps");
}

Test(port_models, dgx_b300_xdr_superpod_table, .timeout = TEST_TIMEOUT(120))
{
    /* NVIDIA DGX SuperPOD B300 XDR reference architecture, Table 3: 72 DGX B300 per SU (576
     * GPUs), each with 8 x 800G ConnectX-8 ports in 8 OSFP cages (the system part), Quantum-X800
     * Q3400 (144 x 800G) at every tier, rail-optimized. A leaf takes its rail of one SU: 72 down,
     * 72 up, so 8 leaves per SU. Spines: SUs x 8 x 72 uplinks / 144 ports, raised to a divisor
     * of 72 (even uplinks): 1 SU 4; 2 SUs 8; 4 SUs 2,304 / 144 = 16 -> 18; 8 SUs 32 -> 36;
     * 18 SUs 72. Published: leaves 8/16/32/64/144, spines 4/8/18/36/72, node-leaf and
     * leaf-spine cables 576/1,152/2,304/4,608/10,368 each (one cable per link). */
    static const int sus[] = { 1, 2, 4, 8, 18 };
    static const int64_t leaves[] = { 8, 16, 32, 64, 144 }, spines[] = { 4, 8, 18, 36, 72 };
    static const int64_t cables[] = { 576, 1152, 2304, 4608, 10368 };
    for (int i = 0; i < 5; i++) {
        char json[400];
        snprintf(json, sizeof json,
                 "{\"cluster\":{\"gpus\":%d,\"nics_per_server\":1,\"nic\":\"nvidia-dgx-b300-xdr\"},"
                 "\"fabric\":{\"switch\":\"nvidia-q3400\",\"su_servers\":72}}",
                 sus[i] * 576);
        fp_plan *p = plan_from(json);
        cr_expect_eq(fp_plan_tier_count(p), 2, "%d SUs", sus[i]);
        cr_expect_eq(tier_switches(p, 1), leaves[i], "%d SUs", sus[i]);
        cr_expect_eq(tier_switches(p, 2), spines[i], "%d SUs", sus[i]);
        cr_expect_eq(boundary_links(p, 0), cables[i], "%d SUs", sus[i]);
        cr_expect_eq(boundary_links(p, 1), cables[i], "%d SUs", sus[i]);
        cr_expect_eq((int64_t)fp_plan_cable_count(p), 2 * cables[i], "%d SUs", sus[i]);
        cr_expect_eq(links_at(p, 1, 800), cables[i]);
        fp_plan_free(p);
    }
}

Test(port_models, fibre_cords_counted_as_built_at_200g)
{
    /* 1,024 GPUs, 8 ConnectX-7 2 x 200G per server (QSFP112, one cage per port): 128 servers x
     * 16 = 2,048 NIC ports at 200G. QM9700: 64 x 400G in 32 twin-port OSFP cages, split 2 ways
     * = 128 ports of 200G, 4 per cage. 1:1: 64 down + 64 up per leaf; 2,048 / 64 = 32 leaves;
     * 32 x 64 = 2,048 uplinks / 128 = 16 spines. Forced multimode: every cage takes an SR
     * module. A leaf or spine cage: the twin-port OSFP as 4 x 200G, 2 MPO-12/APC connectors of
     * 2 links each; a NIC port: one 200G module, one MPO-12/APC.
     * Cords as built:
     * - NIC-leaf: each leaf connector's 2 links go to 2 NIC ports (2 single-port cages): one
     *   1:2 splitter fibre (MFP7E20, "legs": 2) per connector = 2,048 / 2 = 1,024 cords, not
     *   one whole MPO cord per 200G link (2,048).
     * - leaf-spine: a leaf's 64 uplinks over 16 spines are 4 each, one whole cage to one whole
     *   spine cage, port k to port k: both links of a leaf connector land on one spine
     *   connector, so one straight MPO-12/APC cord carries the two: 2,048 / 2 = 1,024.
     * Modules are unchanged: 2,048 NIC + 32 x 32 leaf + 16 x 32 spine = 3,584. Cables
     * (cords): 1,024 + 1,024 = 2,048 for 4,096 links. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024,\"nic\":\"nvidia-cx7-2x200\",\"nics_per_server\":8},"
                           "\"fabric\":{\"topology\":\"clos\",\"switch\":\"nvidia-qm9700\"},"
                           "\"media\":{\"default\":\"MMF\"}}");
    cr_expect_eq(tier_switches(p, 1), 32);
    cr_expect_eq(tier_switches(p, 2), 16);
    cr_expect_eq(fp_plan_link_count(p), 4096);
    cr_expect_eq(bom_quantity(p, "nvidia-mfp7e20"), 1024);
    cr_expect_eq(bom_quantity(p, "fibre-om4-mpo12-apc"), 1024);
    fp_totals to;
    fp_plan_totals(p, &to);
    cr_expect_eq(to.transceivers, 3584);
    cr_expect_eq(to.cables, 2048);
    cr_expect_eq(fp_plan_cable_count(p), 2048);
    /* Each splitter: hub at the leaf (its 2 ports), 2 legs to NIC ports, each link at 200G. */
    int64_t split = 0, twin = 0;
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        cr_expect_eq(c.gbps, 200);
        cr_expect_eq(c.n_links, 2, "%s", c.id);
        if (strcmp(c.part, "nvidia-mfp7e20") == 0) {
            split++;
            cr_expect_eq(c.n_z, 2, "%s", c.id);
            cr_expect_eq(c.boundary, 0);
            cr_expect_not_null(strchr(c.a.port, '+'), "%s hub %s", c.id, c.a.port);
        } else {
            twin++;
            cr_expect_eq(c.n_z, 1, "%s", c.id);
            cr_expect_eq(c.boundary, 1);
        }
    }
    cr_expect_eq(split, 1024);
    cr_expect_eq(twin, 1024);
    fp_plan_free(p);
}

/* A switch with uplink ports of its own (catalog uplink_ports): NVIDIA SN2201, 48 x 1GbE RJ45
 * front ports and 4 x 100GbE QSFP28 uplinks (SN2000 series brief). 96 one-port 1G hosts on
 * SN2201 leaves under an SN4600C (64 x 100G): each leaf keeps its 48 front ports for hosts
 * (96 / 48 = 2 leaves, no front port spare) and its 48G need ceil(48 / 100) = 1 uplink at 1:1,
 * on the first uplink port (swp49, after swp1-swp48) at 100G; 2 uplinks to 1 spine. The uplink's
 * cable fits QSFP28 at both ends (the 100G DAC or an SR4 pair), never the RJ45 Cat6A. */
Test(port_models, uplink_ports_of_their_own)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":96,\"gpus_per_server\":1,\"nics_per_server\":1,"
                           "\"nic\":{\"ports\":1,\"port_gbps\":1,\"cage\":\"RJ45\"}},"
                           "\"fabric\":{\"topology\":\"clos\",\"switch\":[\"nvidia-sn2201\",\"nvidia-sn4600c\"]}}");
    fp_tier_info t;
    cr_assert_eq(fp_plan_tier(p, 0, &t, NULL), FP_OK);
    cr_assert_eq(t.switches, 2);
    cr_assert_eq(t.down_ports, 48);
    cr_assert_eq(t.up_ports, 1);
    cr_assert_eq(t.port_gbps, 1);
    cr_assert_eq(t.up_gbps, 100);
    cr_assert_eq(t.ports_spare, 0);
    cr_assert_float_eq(t.oversubscription, 0.48, 1e-12);
    cr_assert_eq(fp_plan_tier(p, 1, &t, NULL), FP_OK);
    cr_assert_eq(t.switches, 1);
    cr_assert_eq(boundary_links(p, 0), 96);
    cr_assert_eq(boundary_links(p, 1), 2);
    cr_assert_eq(links_at(p, 1, 100), 2);
    for (size_t i = 0; i < fp_plan_link_count(p); i++) {
        fp_link_info l;
        cr_assert_eq(fp_plan_link(p, i, &l, NULL), FP_OK);
        if (l.boundary == 1)
            cr_assert_str_eq(l.a_port_name, "swp49");
    }
    /* A leaf numbers its 48 front ports and then its 4 uplinks (52 logical ports, the uplink
     * swp49 is port 48); the SN4600C spine its 64. The Ports sheet and the AVD topology list a
     * switch's ports by these numbers: with 48 a leaf's uplink fell on the next leaf's port 0. */
    for (size_t i = 0; i < fp_plan_device_count(p); i++) {
        fp_device_info d;
        cr_assert_eq(fp_plan_device(p, i, &d, NULL), FP_OK);
        if (d.tier > 0)
            cr_assert_eq(d.ports, d.tier == 1 ? 48 + 4 : 64, "%s", d.name);
    }
    /* The 96 host links are twisted pair (RJ45 at both ends), the 2 uplinks DAC or OM4. */
    cr_assert_eq(links_of_medium(p, FP_MEDIUM_TP), 96);
    cr_assert_eq(links_of_medium(p, FP_MEDIUM_DAC) + links_of_medium(p, FP_MEDIUM_MMF), 2);
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        if (c.gbps == 100)
            cr_assert(strcmp(c.part, "nvidia-mcp1600-c0xx") == 0 || strcmp(c.part, "fibre-om4-mpo12") == 0,
                      "%s", c.part);
        else
            cr_assert_str_eq(c.part, "generic-cat6a-rj45");
        cr_assert_eq(c.medium == FP_MEDIUM_TP, c.gbps == 1, "%s: %s", c.id, fp_medium_name(c.medium));
    }
    fp_plan_free(p);

    /* Above the leaf the links run at the uplinks' 100G: an SN2201 spine (1G ports) cannot take
     * them, and a link_gbps that gives the boundary another speed does not fit the uplinks. */
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":96,\"gpus_per_server\":1,\"nics_per_server\":1,"
                            "\"nic\":{\"ports\":1,\"port_gbps\":1}},"
                            "\"fabric\":{\"topology\":\"clos\",\"switch\":\"nvidia-sn2201\"}}", &err), FP_EINVAL);
    cr_assert(strstr(err.msg, "cannot take the 100G uplinks of the nvidia-sn2201") != NULL, "%s", err.msg);
    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":96,\"gpus_per_server\":1,\"nics_per_server\":1,"
                            "\"nic\":{\"ports\":1,\"port_gbps\":1}},"
                            "\"fabric\":{\"topology\":\"clos\",\"link_gbps\":[1,25],"
                            "\"switch\":[\"nvidia-sn2201\",\"nvidia-sn4600c\"]}}", &err), FP_EINVAL);
    cr_assert_str_eq(err.where, "/fabric/switch/0");
    cr_assert(strstr(err.msg, "uplink ports of nvidia-sn2201 run at 100G, not the 25G") != NULL, "%s", err.msg);
}

/* The media policy names twisted pair as "TP": the 96 RJ45 host links of
 * uplink_ports_of_their_own take it when it is allowed, forced or listed, and have no medium
 * when the nic-leaf boundary allows only the direct-attach and optical media (the Cat6A cord is
 * the only part that fits RJ45 at both ends): the error points at /media and names the cord
 * and the medium left out (such a policy planned this fabric while the cord counted as DAC);
 * an unknown name lists "TP" among the six. */
#define RJ45_HOSTS "{\"cluster\":{\"gpus\":96,\"gpus_per_server\":1,\"nics_per_server\":1," \
                   "\"nic\":{\"ports\":1,\"port_gbps\":1,\"cage\":\"RJ45\"}}," \
                   "\"fabric\":{\"topology\":\"clos\",\"switch\":[\"nvidia-sn2201\",\"nvidia-sn4600c\"]}," \
                   "\"media\":{\"nic-leaf\":"
Test(port_models, media_policy_names_twisted_pair)
{
    fp_plan *p = plan_from(RJ45_HOSTS "\"TP\"}}");
    cr_assert_eq(links_of_medium(p, FP_MEDIUM_TP), 96);
    fp_plan_free(p);
    p = plan_from(RJ45_HOSTS "[\"DAC\",\"TP\"]}}");
    cr_assert_eq(links_of_medium(p, FP_MEDIUM_TP), 96);
    fp_plan_free(p);
    fp_error err = { 0 };
    cr_assert_eq(plan_error(RJ45_HOSTS "[\"DAC\",\"ACC\",\"AEC\",\"MMF\",\"SMF\"]}}", &err), FP_EDESIGN);
    cr_assert(strstr(err.msg, "RJ45") != NULL, "%s", err.msg);
    cr_expect_str_eq(err.where, "/media");
    cr_expect(strstr(err.msg, "leave out medium TP, which generic-cat6a-rj45 fits") != NULL, "%s",
              err.msg);
    cr_assert_eq(plan_error(RJ45_HOSTS "\"Cat6A\"}}", &err), FP_EINVAL);
    cr_assert_str_eq(err.where, "/media/nic-leaf");
    cr_assert(strstr(err.msg, "DAC, ACC, AEC, MMF, SMF or TP") != NULL, "%s", err.msg);
}
