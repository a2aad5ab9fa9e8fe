/* Blocks of a given size (fabric.leaf_servers, pod_servers, zone_servers; docs/spec.md, "Pods
 * and zones of a given size"): the one folded-Clos builder holds a pod (zone) of that many
 * servers instead of as many leaves (pods) as the switch above has down ports, and the ratio
 * inside a pod (the leaf's entry of fabric.oversubscription) and between pods (the spine's) stay
 * the existing per-tier list. Every expected figure is derived in the comments from the spec and
 * the catalog's port counts by the rules of docs/spec.md ("How the fabric is built"), never read
 * from the program; non-blocking is checked by the plan's max-flow (fp_plan_collectives: the
 * max-flow between a block's two halves, per GPU). */
#include <criterion/criterion.h>
#include <string.h>
#include "helpers.h"

/* Distinct pods (0-based fp_device_info.pod) of the leaves. */
static int64_t leaf_pods(const fp_plan *p)
{
    int64_t most = -1;
    fp_device_info d;
    for (size_t i = 0; i < fp_plan_device_count(p); i++) {
        cr_assert_eq(fp_plan_device(p, i, &d, NULL), FP_OK);
        if (d.tier == 1 && d.pod > most)
            most = d.pod;
    }
    return most + 1;
}

static const fp_collective_scope *scope_of(const fp_collectives *c, const char *name)
{
    for (int i = 0; i < c->n_scopes; i++)
        if (strcmp(c->scope[i].scope, name) == 0)
            return &c->scope[i];
    cr_assert_fail("no %s scope", name);
    return NULL;
}

/* The preset meta-roce-24k against its sources.
 * Sources: Gangidi et al., "RDMA over Ethernet for Distributed AI Training at Meta Scale"
 * (SIGCOMM 2024), its topology section (the AI Zone: a two-stage Clos of rack training switches, RTSW, on
 * copper to the GPUs' NICs, and cluster training switches, CTSW, over single-mode fibre and 400G
 * pluggables, non-blocking inside the zone; aggregator training switches, ATSW, join the CTSWs
 * of a building's zones, the cross-zone links oversubscribed), and the Llama 3 paper (Meta,
 * "The Llama 3 Herd of Models", 2024, Section 3.3.1, which cites it for the same cluster): "each
 * rack hosts 16 GPUs split between two servers and connected by a single Minipack2 ToR switch",
 * "192 such racks ... a pod of 3,072 GPUs with full bisection bandwidth", "eight such pods",
 * "an oversubscription ratio of 1:7" at the aggregation layer, 400 Gb/s between GPUs.
 * Hand derivation (catalog: generic-th4-64x400 has 64 x 400G, arista-7816r3 576 x 400G):
 * - 24,576 GPUs / 8 per server = 3,072 servers; leaf_servers 2 = the rack's two servers:
 *   16 NIC ports down and, at the leaf's 1:1, 16 up: 3,072 / 2 = 1,536 RTSW (the paper's 16
 *   GPUs per rack switch: 24,576 / 16 = 1,536).
 * - pod_servers 384 = 3,072 GPUs (192 racks): 24,576 / 3,072 = 8 zones, 192 RTSW each, whose
 *   192 x 16 = 3,072 uplinks the zone's CTSWs take.
 * - A CTSW at 7:1 (the spine's entry): the largest d with d + ceil(d / 7) <= 576 is 504
 *   (504 + 72). 3,072 uplinks need ceil(3,072 / 504) = 7 by ports; the even spread takes the
 *   fewest that divides an RTSW's 16 uplinks and holds them: 8 (384 each, 2 links from every
 *   RTSW to every CTSW). 8 zones x 8 = 64 CTSW. The paper gives no CTSW count: this is the
 *   builder's rule on a 576-port chassis.
 * - A CTSW's uplinks: ceil(384 / 7) = 55 (7:1 rounded up to a whole link): a zone has
 *   8 x 55 = 440 uplinks for its 3,072 x 400G: 3,072 / 440 = 6.98:1 between zones, "1:7".
 * - ATSW: 3 tiers keep a group per CTSW position: position q's 8 CTSWs bring 8 x 55 = 440 links,
 *   ceil(440 / 576) = 1 ATSW, which divides a full CTSW's 72 uplinks: 8 ATSW, 440 links each.
 *   64 x 55 = 3,520 CTSW-ATSW links. Switches 1,536 + 64 + 8 = 1,608.
 * - Max-flow: inside a zone the two halves' bisection per GPU is the NIC's 400 (non-blocking);
 *   above the CTSWs a zone has 440 x 400 / 3,072 = 57.2917 Gb/s per GPU (= 400 / 6.98). */
Test(pods, meta_roce_24k)
{
    fp_plan *p = plan_from_preset("meta-roce-24k");
    fp_summary sm;
    fp_totals t;
    fp_plan_summary(p, &sm);
    fp_plan_totals(p, &t);
    cr_expect_eq(sm.gpus, 24576);
    cr_expect_eq(sm.servers, 3072);
    cr_expect_eq(t.switches, 1536 + 64 + 8, "switches %lld", (long long)t.switches);
    cr_expect_eq(fp_plan_tier_count(p), 3);
    cr_expect_eq(tier_switches(p, 1), 1536, "RTSW: %lld", (long long)tier_switches(p, 1));
    cr_expect_eq(tier_switches(p, 2), 64, "CTSW: %lld", (long long)tier_switches(p, 2));
    cr_expect_eq(tier_switches(p, 3), 8, "ATSW: %lld", (long long)tier_switches(p, 3));
    cr_expect_eq(leaf_pods(p), 8);
    fp_tier_info ti;
    cr_assert_eq(fp_plan_tier(p, 0, &ti, NULL), FP_OK);
    cr_expect_eq(ti.links_up, 1536 * 16);
    cr_assert_eq(fp_plan_tier(p, 1, &ti, NULL), FP_OK);
    cr_expect_eq(ti.links_up, 64 * 55, "CTSW-ATSW links: %lld", (long long)ti.links_up);
    fp_collectives c;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_collectives(&c, p, NULL, &err), FP_OK, "%s", err.msg);
    const fp_collective_scope *zone = scope_of(&c, "pod"), *all = scope_of(&c, "fabric");
    cr_expect_eq(zone->gpus, 3072);
    cr_expect_float_eq(zone->bisection_gbps, 400, 1e-9, "zone max-flow %.4f", zone->bisection_gbps);
    cr_expect_float_eq(zone->gbps, 400, 1e-9);
    cr_expect_float_eq(all->uplink_gbps[1], 440.0 * 400 / 3072, 1e-9, "above the CTSWs %.4f",
                       all->uplink_gbps[1]);
    cr_expect_float_eq(400 / all->uplink_gbps[1], 3072.0 / 440, 1e-9);
    cr_expect_leq(3072.0 / 440, 7.0);
    /* The notes count from the fewest by ports (the min column): CTSW ceil(24,576 / 504) = 49;
     * each zone's own 7 make 56 (+7 x $900,000); the even rule's 8 a zone 64 (+8, $7,200,000).
     * ATSW ceil(3,520 / 576) = 7; one per CTSW position (8) is 1 more. */
    cr_expect(plan_has_note(
        p,
        "tier 2: 64 spines where the links need 49 (24576 links, 504 down ports each); "
        "each pod's spines sized to its own links (a group per leaf position) take 7 "
        "more ($6,300,000)",
        NULL));
    cr_expect(plan_has_note(p, "which takes 8 more ($7,200,000", NULL));
    cr_expect(plan_has_note(
        p,
        "tier 3: 8 cores where the links need 7 (3520 links, 576 down ports each); a "
        "group of cores per spine position, each sized to its own links, takes 1 more",
        NULL));
    fp_plan_free(p);
}

/* A general pod size on QM9700 (64 ports), clos: 2,048 GPUs = 256 servers of 8 NIC ports; a
 * leaf is 32 down / 32 up (1:1), 4 servers. By the radix 2 tiers hold them (64 x 32 = 2,048);
 * pod_servers 64 (16 leaves) needs a tier above the pods: 3 tiers, 256 / 64 = 4 pods.
 * A pod's 16 x 32 = 512 uplinks: ceil(512 / 32) = 16 spines, a divisor of 32: 16 per pod, 2
 * links from each leaf to each, 32 down each and 32 up at 1:1: 64 spines. Cores: a group per
 * spine position, 4 pods x 32 = 128 links, ceil(128 / 64) = 2 (divides 32): 16 x 2 = 32 cores.
 * Leaves 2,048 x 8 / 8 / 32 = 64. Full bisection (max-flow). */
Test(pods, pods_of_16_leaves)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\","
                           "\"pod_servers\":64}}");
    cr_expect_eq(fp_plan_tier_count(p), 3);
    cr_expect_eq(tier_switches(p, 1), 64);
    cr_expect_eq(tier_switches(p, 2), 64);
    cr_expect_eq(tier_switches(p, 3), 32);
    cr_expect_eq(leaf_pods(p), 4);
    cr_expect(fp_plan_metrics(p)->full_bisection);
    fp_plan_free(p);
}

/* The ratio inside a pod and between pods set apart: the same 4 pods at [1, 3]. A spine of 64
 * ports at 3:1 has 48 down / 16 up; a pod's 512 uplinks need ceil(512 / 48) = 11 by ports, the
 * even spread 16 (divisor of 32), 32 down each, ceil(32 / 3) = 11 up. A pod: 16 x 11 = 176 up
 * for its 512 NIC ports (2.91:1); inside it the max-flow bisection per GPU stays 400. */
Test(pods, ratio_between_pods)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\","
                           "\"pod_servers\":64,\"oversubscription\":[1,3]}}");
    fp_tier_info ti;
    cr_expect_eq(tier_switches(p, 2), 64);
    cr_assert_eq(fp_plan_tier(p, 1, &ti, NULL), FP_OK);
    cr_expect_eq(ti.links_up, 64 * 11, "spine uplinks %lld", (long long)ti.links_up);
    fp_collectives c;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_collectives(&c, p, NULL, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(scope_of(&c, "pod")->bisection_gbps, 400, 1e-9);
    cr_expect_float_eq(scope_of(&c, "fabric")->uplink_gbps[1], 176.0 * 400 / 512, 1e-9);
    fp_plan_free(p);
}

static void expect_error(const char *json, fp_status code, const char *where, const char *text)
{
    fp_error err;
    cr_assert_eq(plan_error(json, &err), code, "status for %s: %s", json, err.msg);
    cr_expect_str_eq(err.where, where, "where: %s (%s)", err.where, err.msg);
    cr_expect(strstr(err.msg, text) != NULL, "message: %s\n  expected: %s", err.msg, text);
}

/* QM9700 clos: a leaf takes 32 NIC ports = 4 servers of 8; 6 servers = 48 ports is not whole
 * leaves (the least whole number is lcm(32, 8) / 8 = 4 servers). */
Test(pods, pod_not_whole_leaves)
{
    expect_error("{\"fabric\":{\"topology\":\"clos\",\"pod_servers\":6}}", FP_EINVAL,
                 "/fabric/pod_servers", "expected a multiple of 4 servers");
}

/* Rail-optimized: a pod is whole 32-server scalable units; 48 is not. */
Test(pods, pod_not_whole_units)
{
    expect_error("{\"fabric\":{\"su_servers\":32,\"pod_servers\":48}}", FP_EINVAL,
                 "/fabric/pod_servers", "expected a multiple of 32");
}

/* 132 servers = 33 leaves, but a spine of 64 ports at 1:1 has 32 down and reaches every leaf
 * of its pod: at most 32 x 4 = 128 servers. */
Test(pods, pod_beyond_the_radix)
{
    expect_error("{\"fabric\":{\"topology\":\"clos\",\"pod_servers\":132}}", FP_EDESIGN,
                 "/fabric/pod_servers", "expected at most 128 servers");
}

/* Rail-optimized 32-server units have 8 rail leaves; a spine reaches 32 leaves = 4 units =
 * 128 servers; 160 is 5 units, 40 leaves. */
Test(pods, rail_pod_beyond_the_radix)
{
    expect_error("{\"fabric\":{\"su_servers\":32,\"pod_servers\":160}}", FP_EDESIGN,
                 "/fabric/pod_servers", "expected at most 128 servers");
}

Test(pods, pods_need_three_tiers)
{
    expect_error("{\"fabric\":{\"topology\":\"clos\",\"tiers\":2,\"pod_servers\":64}}", FP_EINVAL,
                 "/fabric/pod_servers", "expected 3 tiers or more");
    expect_error("{\"fabric\":{\"topology\":\"clos\",\"tiers\":3,\"zone_servers\":512}}", FP_EINVAL,
                 "/fabric/zone_servers", "expected 4 tiers or more");
}

Test(pods, not_for_fat_tree_or_rail_leaves)
{
    expect_error("{\"fabric\":{\"topology\":\"fat-tree\",\"pod_servers\":64}}", FP_EINVAL,
                 "/fabric/pod_servers", "expected topology \"clos\"");
    expect_error("{\"fabric\":{\"leaf_servers\":2}}", FP_EINVAL, "/fabric/leaf_servers",
                 "expected fabric.su_servers");
}

/* 5 servers x 8 NIC ports = 40 down ports; a QM9700 leaf at 1:1 has 32: at most 4 servers. */
Test(pods, leaf_beyond_its_ports)
{
    expect_error("{\"fabric\":{\"topology\":\"clos\",\"leaf_servers\":5}}", FP_EDESIGN,
                 "/fabric/leaf_servers", "expected at most 4 servers");
}

/* Zones (4 tiers): pods of 64 servers (16 leaves); a zone of 96 servers is 1.5 pods (a whole
 * number needs a multiple of 64); one of 64 x 33 = 2,112 servers is 33 pods, but a tier-3
 * switch of 64 ports at 1:1 has 32 down: at most 32 x 64 = 2,048 servers. */
Test(pods, zone_checks)
{
    expect_error("{\"fabric\":{\"topology\":\"clos\",\"pod_servers\":64,\"zone_servers\":96}}",
                 FP_EINVAL, "/fabric/zone_servers", "expected a multiple of 64 servers");
    expect_error("{\"fabric\":{\"topology\":\"clos\",\"pod_servers\":64,\"zone_servers\":2112}}",
                 FP_EDESIGN, "/fabric/zone_servers", "expected at most 2048 servers");
}

/* Zones of 512 servers (8 pods of 64) on QM9700: 8,192 GPUs = 1,024 servers = 2 zones, 4 tiers
 * (zone_servers needs a tier above the zones). Leaves 1,024 x 8 / 32 = 256; spines as above,
 * 16 per pod, 16 pods: 256. Cores: a zone's group per spine position takes 8 pods x 32 = 256
 * links: ceil(256 / 32) = 8 cores (a tier-3 switch below the top: 32 down, 32 up), a divisor of
 * 32: 16 positions x 8 = 128 per zone, 256 in all. Full bisection (max-flow). */
Test(pods, zones_of_8_pods)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":8192},\"fabric\":{\"topology\":\"clos\","
                           "\"pod_servers\":64,\"zone_servers\":512}}");
    cr_expect_eq(fp_plan_tier_count(p), 4);
    cr_expect_eq(tier_switches(p, 1), 256);
    cr_expect_eq(tier_switches(p, 2), 256);
    cr_expect_eq(tier_switches(p, 3), 256);
    cr_expect_eq(leaf_pods(p), 16);
    cr_expect(fp_plan_metrics(p)->full_bisection);
    fp_plan_free(p);
}

/* The scalable unit left open (rail-optimized, no su_servers): generic-nic-2x400, 8 per server,
 * is 16 rails; a 32-port TH3 leaf at 1:1 is 16 down / 16 up. A 32-server unit needs 2 leaves a
 * rail, 32 leaves, more than a spine's 16 down ports: the sizing takes 16-server units (16
 * leaves, docs/spec.md). A pod of 16 servers is that one unit and plans; a pod of 32 is 2 units,
 * 32 leaves, more than a spine reaches: refused at the pod's key, at most 16 servers (never
 * a unit's error: the unit was chosen). */
Test(pods, pods_with_the_unit_left_open)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096,\"nic\":\"generic-nic-2x400\"},"
                           "\"fabric\":{\"switch\":\"generic-th3-32x400\",\"pod_servers\":16}}");
    cr_expect_eq(leaf_pods(p), 4096 / 8 / 16);
    cr_expect_eq(tier_switches(p, 1), 4096 / 8 / 16 * 16);
    fp_plan_free(p);
    expect_error("{\"cluster\":{\"gpus\":4096,\"nic\":\"generic-nic-2x400\"},"
                 "\"fabric\":{\"switch\":\"generic-th3-32x400\",\"pod_servers\":32}}",
                 FP_EDESIGN, "/fabric/pod_servers", "expected at most 16 servers");
}

/* One pod holding every server is the whole fabric: no tier above it (docs/spec.md, "Pods and
 * zones of a given size"). The preset meta-roce-24k at 3,000 GPUs, derived by hand from the
 * catalog (generic-th4-64x400: 64 x 400G QSFP-DD on 8 x 50G lanes, $18,000; arista-7816r3:
 * 576 x 400G QSFP-DD on 8 x 50G, $900,000; nvidia-cx7-osfp: 1 x 400G OSFP on 4 x 100G, $1,900):
 * - 3,000 / 8 = 375 servers, 3,000 NIC ports. leaf_servers 2: ceil(375 / 2) = 188 RTSW, 187 of
 *   16 down / 16 up and the last of one server, 8 down / 8 up: 187 x 16 + 8 = 3,000 uplinks.
 * - 375 <= pod_servers 384: one pod, nothing for a tier above it to join. 2 tiers: the CTSW is
 *   the top, every port down (576): ceil(3,000 / 576) = 6 by ports; the even spread takes the
 *   fewest dividing an RTSW's 16 uplinks: 8 (375 links each). 188 + 8 = 196 switches.
 *   Before the fix "auto" took 3 tiers for any pod_servers: 8 CTSW at 7:1 (504 down, 72 up),
 *   ceil(375 / 7) = 54 up each, and 8 ATSW for those 432 links, $7,200,000 of chassis (and 864
 *   modules) that no traffic crossed.
 * - Switches 188 x 18,000 + 8 x 900,000 = 3,384,000 + 7,200,000 = $10,584,000; NICs
 *   3,000 x 1,900 = $5,700,000.
 * - Media: no catalog copper joins the NIC's 4 x 100G lanes to the TH4's 8 x 50G (nor
 *   QSFP-DD to OSFP), and the preset forces SMF between leaf and spine. NIC-leaf multimode
 *   fails on the connector (the OSFP SR4 modules are MPO-12/APC, the QSFP-DD SR4 and SR8 MPO-12
 *   and MPO-16), so DR: a $750 nvidia-mms4x00-ns400 at each NIC and a $550
 *   generic-400g-dr4-qsfpdd at the leaf; leaf-spine DR4 QSFP-DD at both ends. Modules 3,000 +
 *   3 x 3,000 = 12,000; 2 % spares ceil(60) and ceil(180): (3,060 x 750) + (9,180 x 550) =
 *   2,295,000 + 5,049,000 = $7,344,000. No copper.
 * - Fibre: one OS2 MPO-12/APC cord per link at its stock length, 6,000 and 2 % spares per
 *   length: $401,082.50, re-derived by an independent script from the racks' places (routes as
 *   docs/layout.md "Routes" gives them, the next stock length, $40 + $2.50/m).
 * Total $24,029,082.50. */
#define META_3000                                                                                  \
    "{\"cluster\":{\"gpus\":3000,\"gpus_per_server\":8,\"nics_per_server\":8,"                     \
    "\"nic\":\"nvidia-cx7-osfp\"},\"fabric\":{\"topology\":\"clos\",\"tiers\":\"auto\","           \
    "\"switch\":[\"generic-th4-64x400\",\"arista-7816r3\"],\"oversubscription\":[1,7],"            \
    "\"leaf_servers\":2,\"pod_servers\":384%s},\"layout\":{\"servers_per_rack\":2,"                \
    "\"leaf_racks\":\"top-of-rack\"},\"media\":{\"leaf-spine\":\"SMF\"}}"
static double category_cost(const fp_plan *p, fp_bom_category k)
{
    double usd = -1;
    cr_assert_eq(fp_plan_bom_category_total(&usd, NULL, p, k, NULL), FP_OK);
    return usd;
}

Test(pods, one_pod_is_the_fabric)
{
    char json[1024];
    snprintf(json, sizeof json, META_3000, "");
    fp_plan *p = plan_from(json);
    fp_totals t;
    fp_plan_totals(p, &t);
    cr_expect_eq(fp_plan_tier_count(p), 2);
    cr_expect_eq(tier_switches(p, 1), 188);
    cr_expect_eq(tier_switches(p, 2), 8);
    cr_expect_eq(t.switches, 196);
    fp_tier_info ti;
    cr_assert_eq(fp_plan_tier(p, 0, &ti, NULL), FP_OK);
    cr_expect_eq(ti.links_up, 3000);
    cr_expect_float_eq(category_cost(p, FP_BOM_SWITCH), 10584000, 1e-6);
    cr_expect_float_eq(category_cost(p, FP_BOM_NIC), 5700000, 1e-6);
    cr_expect_eq(t.transceivers, 12000);
    cr_expect_float_eq(category_cost(p, FP_BOM_TRANSCEIVER), 7344000, 1e-6);
    cr_expect_float_eq(category_cost(p, FP_BOM_COPPER), 0, 1e-6);
    cr_expect_float_eq(category_cost(p, FP_BOM_FIBRE), 401082.5, 1e-6, "fibre %.2f",
                       category_cost(p, FP_BOM_FIBRE));
    cr_expect_float_eq(t.cost, 24029082.5, 1e-6, "cost %.2f", t.cost);
    /* The ratio between pods (7:1) is no error when "auto" found one pod: the note says why. */
    cr_expect(plan_has_note(p,
                            "fabric.pod_servers: the 375 servers fit in one pod of 384, which is "
                            "the whole fabric: no tier above it (2 tiers), so the ratio between "
                            "pods (7:1, /fabric/oversubscription/1) has no link to size",
                            NULL));
    fp_plan_free(p);
    /* Grown to the preset's 24,576 GPUs (build_for_gpus: 3,072 servers, 8 pods), the tier
     * above the pods stays: 3 tiers, the first phase's 8 CTSW and 8 ATSW. */
    snprintf(json, sizeof json, META_3000, ",\"build_for_gpus\":24576");
    p = plan_from(json);
    cr_expect_eq(fp_plan_tier_count(p), 3);
    cr_expect_eq(tier_switches(p, 2), 8);
    cr_expect_eq(tier_switches(p, 3), 8);
    fp_plan_free(p);
}

/* The same rule with a plan to compare against: the default (rail-optimized, QM9700 at $28,000,
 * ConnectX-7 at $1,900) at 1,000 GPUs is 125 servers in 4 scalable units of 32 (the last 29),
 * 8 rail leaves each (a partial unit keeps its leaves: docs/spec.md): 32 leaves, 32 x 32 =
 * 1,024 uplinks, 2 tiers (at most 64 x 32 = 2,048 GPUs), 1,024 / 64 = 16 spines (divides 32):
 * 48 switches, $1,344,000, NICs $1,900,000. pod_servers 128 (4 units, >= 125 servers) is one pod:
 * the same plan, part for part, where 3 tiers built 32 spines and 32 cores (96 switches,
 * $7,529,595 against $5,036,011). Zones the same way: clos, 3,000 GPUs in pods of 64 servers
 * (16 leaves of 4 servers) and zones of 512: 375 servers are one zone, so 3 tiers as with the
 * pods alone: ceil(3,000 / 32) = 94 leaves, 6 pods (the last 14 leaves), 16 spines a pod
 * (even: a divisor of 32 >= 14) = 96, a group per spine position of 5 x 32 + 28 links,
 * ceil(188 / 64) = 3, even 4: 64 cores; 254 switches where 4 tiers built 365. */
Test(pods, one_block_plans_as_without_it)
{
    const char *pairs[][2] = {
        { "{\"cluster\":{\"gpus\":1000},\"fabric\":{\"pod_servers\":128}}",
          "{\"cluster\":{\"gpus\":1000}}" },
        { "{\"cluster\":{\"gpus\":3000},\"fabric\":{\"topology\":\"clos\",\"pod_servers\":64,"
          "\"zone_servers\":512}}",
          "{\"cluster\":{\"gpus\":3000},\"fabric\":{\"topology\":\"clos\",\"pod_servers\":64}}" },
    };
    const int tiers[] = { 2, 3 };
    const int64_t switches[] = { 48, 94 + 96 + 64 };
    for (int i = 0; i < 2; i++) {
        fp_plan *a = plan_from(pairs[i][0]), *b = plan_from(pairs[i][1]);
        fp_totals ta, tb;
        fp_plan_totals(a, &ta);
        fp_plan_totals(b, &tb);
        cr_expect_eq(fp_plan_tier_count(a), tiers[i], "%s", pairs[i][0]);
        cr_expect_eq(ta.switches, switches[i], "%s: %lld", pairs[i][0], (long long)ta.switches);
        cr_expect_eq(ta.switches, tb.switches);
        cr_expect_eq(ta.transceivers, tb.transceivers);
        cr_expect_eq(ta.cables, tb.cables);
        cr_expect_float_eq(ta.cost, tb.cost, 1e-6, "%s: %.2f against %.2f", pairs[i][0], ta.cost,
                           tb.cost);
        fp_plan_free(a);
        fp_plan_free(b);
    }
    fp_plan *p = plan_from(pairs[0][0]);
    cr_expect_float_eq(category_cost(p, FP_BOM_SWITCH), 48 * 28000.0, 1e-6);
    cr_expect_float_eq(category_cost(p, FP_BOM_NIC), 1000 * 1900.0, 1e-6);
    fp_plan_free(p);
}
