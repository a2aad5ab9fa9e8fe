/* Metrics: bisection by formula and max-flow, oversubscription, diameter, hops, reliability,
 * failure what-ifs and compare. Every expected number is derived in the comments. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <unistd.h>
#include "helpers.h"

#define FT48 "{\"cluster\":{\"gpus\":27648},\"fabric\":{\"topology\":\"fat-tree\",\"switch\":{\"ports\":48,\"port_gbps\":400}}}"
#define TWO_TIER_64 "{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\",\"tiers\":2}}"

static fp_failure_report fail_one(fp_plan *p, const char *spec, uint64_t seed)
{
    fp_error err = { 0 };
    const char *specs[] = { spec };
    fp_failure_report r;
    cr_assert_eq(fp_plan_fail(&r, p, specs, 1, seed, &err), FP_OK, "%s", err.msg);
    cr_expect_str_eq(r.specs[0], spec);
    return r;
}

/* Bisection cases, one shape: a spec and what its worst balanced split must give, analytic and
 * by max-flow alike. Zero, "" and -1 fields are not checked. Every figure is derived in the
 * row's comment. */
/* Arrays, not pointers: Criterion may run each case in a fresh process of this binary, where
 * the parent's pointers mean nothing. */
typedef struct bisection_case {
    char name[32];
    char spec[160];
    double bisection;       /* Gb/s, analytic and max-flow */
    double demand;          /* what the source half's NICs could send, Gb/s */
    int full;               /* full bisection: 1 / 0 */
    char split[40];         /* the split's description ("" = not checked) */
    int64_t half;           /* endpoints on each side */
    double oversub0;        /* leaf down:up in use */
    int diameter;           /* switches on the longest shortest path */
} bisection_case;

ParameterizedTestParameters(metrics, bisection)
{
    static bisection_case cases[] = {
        /* k = 48 fat-tree: 27,648 hosts; halves of 13,824 hosts at 400 Gb/s = 5,529,600 Gb/s. */
        { "fat-tree k48", FT48, 27648.0 / 2 * 400, 0, 1, "", 13824, 0, 0 },
        /* 2 tiers of 64 ports at 2:1: a leaf has 42 down and 21 up ports (42 + 21 <= 64).
         * 32 full leaves (1,344 GPUs), 16 per side: 16 x 21 uplinks x 400 = 134,400 Gb/s,
         * half of the 672 x 400 = 268,800 the side's NICs could send. */
        { "leaf 2:1",
          "{\"cluster\":{\"gpus\":1344},\"fabric\":{\"topology\":\"clos\",\"tiers\":2,\"oversubscription\":[2]}}",
          134400.0, 268800.0, 0, "", 0, 2.0, 0 },
        /* 3:1: a leaf has 48 down and 16 up. 32 full leaves (1,536 GPUs): 16 x 16 x 400 =
         * 102,400, a third of 768 x 400 = 307,200. */
        { "leaf 3:1",
          "{\"cluster\":{\"gpus\":1536},\"fabric\":{\"topology\":\"clos\",\"tiers\":2,\"oversubscription\":[3]}}",
          102400.0, 307200.0, 0, "", 0, 3.0, 0 },
        /* 3 tiers of 64 ports, 2:1 at the leaf: pods of 32 leaves x 42 GPUs = 1,344; 4 pods =
         * 5,376. Per pod 32 x 21 = 672 uplinks reach the spines, which pass them all up (21
         * spines x 32 up). 2 pods per side: 1,344 x 400 = 537,600 Gb/s, half of 2,688 x 400 =
         * 1,075,200. */
        { "3 tiers, leaf 2:1",
          "{\"cluster\":{\"gpus\":5376},\"fabric\":{\"topology\":\"clos\",\"tiers\":3,\"oversubscription\":[2,1]}}",
          537600.0, 1075200.0, 0, "pods 1-2 | the rest", 0, 0, 0 },
        /* Rail-optimized, 768 GPUs = 3 DGX H100 SUs of 32 servers x 8 GPUs: 24 rail leaves of
         * 32 NICs and 32 uplinks, 16 spines with 2 links from every leaf (48 of their 64 ports
         * in use). Halves of 384 endpoints: SU 1 (8 leaves, 256) + 4 leaves of SU 2 (128).
         * Every path between the halves climbs to a spine, so the cut is the source leaves'
         * uplinks: 12 x 32 = 384 links = 153,600 Gb/s, full bisection. (Counting the spine
         * ports instead, 16 x 64 / 2 x 400 = 204,800, would be wrong: only 768 spine ports carry
         * links. Whole SUs 1 | 2-3 would be a 256 | 512 split, not a bisection: 102,400.) */
        { "rail 768",
          "{\"cluster\":{\"gpus\":768},\"fabric\":{\"topology\":\"rail-optimized\"}}",
          153600.0, 0, 1, "SU 1 + leaves 9-12 | the rest", 384, 0, 0 },
        /* Two planes of 64-port switches, 512 GPUs with one 2 x 400G NIC each: per plane 512
         * endpoints on 16 leaves of 32; halves of 8 leaves cut 8 x 32 = 256 links = 102,400
         * Gb/s per plane; the planes add: 204,800 = 1,024 endpoints / 2 x 400. */
        { "dual plane",
          "{\"cluster\":{\"gpus\":512,\"nic\":\"generic-nic-2x400\"},\"fabric\":{\"topology\":\"clos\",\"planes\":2}}",
          204800.0, 0, -1, "", 512, 0, 0 },
        /* SN5600 as 128 x 400G, 2 tiers at 1:1: leaves of 64 down + 64 up, at most 128 leaves
         * = 8,192 GPUs. Halves of 64 leaves: 64 x 64 uplinks x 400 = 1,638,400 Gb/s. */
        { "sn5600 2 tiers",
          "{\"cluster\":{\"gpus\":8192},\"fabric\":{\"topology\":\"clos\",\"tiers\":2,\"switch\":\"nvidia-sn5600\"}}",
          1638400.0, 0, 1, "", 0, 0, 0 },
        /* 3 tiers of 64 ports, spine at 2:1 (42 down, 21 up): pods of 42 leaves x 32 = 1,344
         * GPUs, each pod 32 spines x 21 = 672 uplinks. 3 pods (4,032): halves of 2,016 = pod 1
         * + 21 leaves of pod 2 (672). The pod-2 halves meet inside pod 2 (672 links of leaf
         * uplinks each side), pod 1 reaches pod 3 over 672 pod uplinks: 1,344 links = 537,600
         * Gb/s (cut: pod 1's uplinks + pod 2's source NICs), 2/3 of the 806,400 the half could
         * send. */
        { "spine 2:1, 3 pods",
          "{\"cluster\":{\"gpus\":4032},\"fabric\":{\"topology\":\"clos\",\"tiers\":3,\"oversubscription\":[1,2]}}",
          537600.0, 806400.0, 0, "", 0, 0, 0 },
        /* As above with a partial 4th pod of 400 GPUs (4,432): 13 leaves (12 x 32 + 16 NICs),
         * 400 leaf uplinks. Sized to them (even spread): ceil(400 / 42) = 10 spines, raised to
         * 16, the smallest divisor of a leaf's 32 uplinks; 16 is fewer than a full pod's 32
         * spine positions, so each keeps all its 21 uplinks, dealt over every core group:
         * 16 x 21 = 336 pod uplinks. Halves of 2,216 = pod 1 + 872 of pod 2. Sinks: pod 2's
         * other 472 (fed inside pod 2), pod 3 through its 672 uplinks, pod 4 through its 336:
         * 472 + 672 + 336 = 1,480 links = 592,000 Gb/s; the sources can send it (pod 1: 672
         * up; pod 2: 472 inside + 400 up). */
        { "spine 2:1, partial 4th pod",
          "{\"cluster\":{\"gpus\":4432},\"fabric\":{\"topology\":\"clos\",\"tiers\":3,\"oversubscription\":[1,2]}}",
          592000.0, 0, -1, "", 2216, 0, 0 },
        /* 131,072 GPUs, 4 tiers of 64 ports at 1:1: 32 leaves x 32 GPUs per pod (1,024), 32
         * pods per zone (32,768), 4 zones. Halves: zones 1-2 | 3-4; each zone's 1,024 cores send
         * 32 links up: 2 x 32,768 links x 400 = 26,214,400 Gb/s = 65,536 x 400, full bisection.
         * Diameter: leaf, spine, core, super-core, core, spine, leaf = 7 switches. */
        { "4 tiers, 131,072 GPUs",
          "{\"cluster\":{\"gpus\":131072},\"fabric\":{\"topology\":\"clos\",\"tiers\":4}}",
          26214400.0, 0, 1, "zones 1-2 | the rest", 0, 0, 7 },
    };
    return cr_make_param_array(bisection_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(bisection_case *c, metrics, bisection)
{
    fp_plan *p = plan_from(c->spec);
    const fp_metrics *m = fp_plan_metrics(p);
    cr_expect_float_eq(m->bisection_gbps, c->bisection, 1e-6, "%s: analytic %f", c->name,
                       m->bisection_gbps);
    cr_expect_float_eq(m->bisection_maxflow_gbps, c->bisection, 1e-6, "%s: max-flow %f", c->name,
                       m->bisection_maxflow_gbps);
    if (c->demand > 0)
        cr_expect_float_eq(m->split_demand_gbps, c->demand, 1e-6, "%s: demand %f", c->name,
                           m->split_demand_gbps);
    if (c->full >= 0)
        cr_expect_eq(m->full_bisection, c->full, "%s: full_bisection %d", c->name,
                     m->full_bisection);
    if (c->split[0])
        cr_expect_str_eq(m->split, c->split, "%s: split \"%s\"", c->name, m->split);
    if (c->half > 0) {
        cr_expect_eq(m->split_endpoints[0], c->half, "%s", c->name);
        cr_expect_eq(m->split_endpoints[1], c->half, "%s", c->name);
    }
    if (c->oversub0 > 0)
        cr_expect_float_eq(m->oversubscription[0], c->oversub0, 1e-9, "%s", c->name);
    if (c->diameter > 0)
        cr_expect_eq(m->diameter_switches, c->diameter, "%s", c->name);
    fp_plan_free(p);
}

/* Analytic and max-flow agree on partial and odd shapes, too (uneven last leaf/pod/SU). */
Test(metrics, analytic_equals_maxflow_on_odd_shapes)
{
    const char *specs[] = {
        "{\"cluster\":{\"gpus\":1000},\"fabric\":{\"topology\":\"clos\",\"tiers\":2,\"oversubscription\":[1.5]}}",
        "{\"cluster\":{\"gpus\":5000},\"fabric\":{\"topology\":\"clos\",\"tiers\":3,\"oversubscription\":[2,3]}}",
        "{\"cluster\":{\"gpus\":3000},\"fabric\":{\"topology\":\"rail-optimized\"}}",
        "{\"cluster\":{\"gpus\":20000},\"fabric\":{\"topology\":\"rail-optimized\",\"oversubscription\":[1,2]}}",
        "{\"cluster\":{\"gpus\":9000},\"fabric\":{\"topology\":\"clos\",\"tiers\":4,\"switch\":\"generic-th3-32x400\",\"oversubscription\":[1,1,2]}}",
        "{\"cluster\":{\"gpus\":100},\"fabric\":{\"topology\":\"clos\",\"tiers\":3}}",
        "{\"cluster\":{\"gpus\":16},\"fabric\":{\"topology\":\"clos\",\"tiers\":2}}",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        fp_plan *p = plan_from(specs[i]);
        const fp_metrics *m = fp_plan_metrics(p);
        cr_expect(m->bisection_gbps > 0, "%s", specs[i]);
        cr_expect_float_eq(m->bisection_gbps, m->bisection_maxflow_gbps, 1e-6, "%s: %s", specs[i], m->split);
        cr_expect_eq(m->diameter_switches, m->diameter_bfs_switches, "%s", specs[i]);
        fp_plan_free(p);
    }
}

/* Full 2-tier fabric of 64-port switches: 64 leaves, 32 spines, each leaf one link to every
 * spine. One spine down removes 1 of each leaf's 32 uplinks: 409,600 -> 409,600 x 31/32. */
Test(metrics, one_spine_failed_drops_one_32nd)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    fp_failure_report r = fail_one(p, "spine:3", 1);
    cr_expect_float_eq(r.bisection_before_gbps, 409600.0, 1e-6);
    cr_expect_float_eq(r.bisection_after_gbps, 409600.0 * 31 / 32, 1e-6);
    cr_expect_float_eq(r.bisection_lost_fraction, 1.0 / 32, 1e-12);
    cr_expect_eq(r.switches_failed, 1);
    cr_expect_eq(r.links_failed, 64);                 /* the spine's 64 down links */
    cr_expect_float_eq(r.link_capacity_lost_gbps, 64 * 400.0, 1e-6);
    cr_expect_eq(r.endpoints_cut_off, 0);
    cr_expect_eq(r.servers_cut_off, 0);
    /* The same spine by the name links.csv shows. */
    fp_failure_report byname = fail_one(p, "spine-03", 1);
    cr_expect_float_eq(byname.bisection_after_gbps, r.bisection_after_gbps, 1e-6);
    fp_plan_free(p);
}

/* A leaf down cuts its 32 NIC ports off: servers 1-4 (8 NICs each, all on leaf 1). */
Test(metrics, leaf_failed_cuts_off_its_servers)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    fp_failure_report r = fail_one(p, "leaf:1", 1);
    cr_expect_eq(r.endpoints_cut_off, 32);
    cr_expect_eq(r.servers_cut_off, 4);
    cr_expect_eq(r.links_failed, 64);                 /* 32 down + 32 up */
    /* One NIC link: one endpoint, no server (it still has 7 ports). */
    r = fail_one(p, "link:L0000001", 1);
    cr_expect_eq(r.links_failed, 1);
    cr_expect_eq(r.endpoints_cut_off, 1);
    cr_expect_eq(r.servers_cut_off, 0);
    fp_plan_free(p);
}

/* A leaf whose 32 uplinks all fail is an island: its endpoints are cut off though their own
 * links are up. Leaf 1's uplinks are links 2049..2080 (boundary 1 starts after 2,048 NIC links). */
Test(metrics, isolated_leaf_is_cut_off)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    const char *specs[32];
    char buf[32][24];
    fp_error err = { 0 };
    for (int i = 0; i < 32; i++) {
        snprintf(buf[i], sizeof buf[i], "link:L%07d", 2049 + i);
        specs[i] = buf[i];
    }
    fp_failure_report r;
    cr_assert_eq(fp_plan_fail(&r, p, specs, 32, 1, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(r.endpoints_cut_off, 32);
    cr_expect_eq(r.servers_cut_off, 4);
    cr_expect_eq(r.n_specs, 32);
    cr_expect_str_eq(r.specs[31], "link:L0002080");
    fp_plan_free(p);
}

/* random-links:1% of 4,096 links = round(40.96) = 41 links; the same seed picks the same
 * links (same result), and the count does not depend on the seed. */
Test(metrics, random_failures_are_seeded)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    fp_failure_report a = fail_one(p, "random-links:1%", 7);
    fp_failure_report b = fail_one(p, "random-links:1%", 7);
    fp_failure_report c = fail_one(p, "random-links:1%", 8);
    cr_expect_eq(a.links_failed, 41);
    cr_expect_eq(c.links_failed, 41);
    cr_expect_float_eq(a.bisection_after_gbps, b.bisection_after_gbps, 1e-9);
    cr_expect_eq(a.endpoints_cut_off, b.endpoints_cut_off);
    fp_failure_report s = fail_one(p, "random-switches:2", 3);
    cr_expect_eq(s.switches_failed, 2);
    fp_plan_free(p);
}

/* 768 GPUs rail-optimized (3 SUs): leaf su01-leaf-r3 holds rail 3 of SU 1's 32 servers.
 * Failing it cuts exactly those 32 NICs off (every server keeps 7 rails: no server lost) and
 * takes its 32 NIC links and 32 uplinks down (64 x 400 = 25,600 Gb/s). It sits on the source
 * side (SU 1 + leaves 9-12), which keeps 11 leaves' uplinks: 352 x 400 = 140,800 Gb/s. */
Test(metrics, rail_leaf_failed_loses_that_rail)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":768},\"fabric\":{\"topology\":\"rail-optimized\"}}");
    fp_failure_report r = fail_one(p, "su01-leaf-r3", 1);
    cr_expect_eq(r.switches_failed, 1);
    cr_expect_eq(r.links_failed, 64);
    cr_expect_float_eq(r.link_capacity_lost_gbps, 25600.0, 1e-6);
    cr_expect_eq(r.endpoints_cut_off, 32);
    cr_expect_eq(r.servers_cut_off, 0);
    cr_expect_float_eq(r.bisection_after_gbps, 140800.0, 1e-6);
    /* The same leaf by role and number (leaves count rails first within an SU). */
    fp_failure_report by_role = fail_one(p, "leaf:3", 1);
    cr_expect_eq(by_role.endpoints_cut_off, 32);
    cr_expect_float_eq(by_role.bisection_after_gbps, 140800.0, 1e-6);
    /* Random failures repeat with the seed: same seed, same numbers, across calls. */
    const char *specs[] = { "random-switches:3", "random-links:2%" };
    fp_error err = { 0 };
    fp_failure_report a, b;
    cr_assert_eq(fp_plan_fail(&a, p, specs, 2, 99, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_fail(&b, p, specs, 2, 99, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(a.switches_failed, 3);
    cr_expect_eq(a.links_failed, b.links_failed);
    cr_expect_eq(a.endpoints_cut_off, b.endpoints_cut_off);
    cr_expect_float_eq(a.bisection_after_gbps, b.bisection_after_gbps, 1e-9);
    fp_plan_free(p);
}

/* A cable that carries two links takes both down. 256 GPUs on 32 DGX H100 (8 x 400G NIC ports
 * in 4 twin-port OSFP cages) under top-of-rack QM9700 leaves (64 x 400G in 32 twin-port
 * cages), 2 tiers, clos: endpoint e = 8 s + r goes to leaf e / 32, port e mod 32, so node-01's
 * ports 1 and 2 land on leaf-01's ports 1 and 2, one cage at each end, a rack apart at most:
 * one twin copper cable (ACC) carries both, and cables.csv names it by its first link,
 * C0000001. Failing it takes links 1 and 2 down: 2 links, 2 x 400 = 800 Gb/s, 2 NIC ports cut
 * off, no server cut off (its other 6 ports are up), no switch. "C0000002" names no cable (the
 * second link of the twin is not a cable of its own). */
#define TWIN_COPPER "{\"cluster\":{\"gpus\":256,\"gpus_per_server\":8,\"nics_per_server\":1,\"nic\":\"nvidia-dgx-h100-sys\"},\"fabric\":{\"topology\":\"clos\",\"tiers\":2,\"switch\":\"nvidia-qm9700\"},\"layout\":{\"leaf_racks\":\"top-of-rack\"}}"
Test(metrics, failed_twin_cable_takes_both_links)
{
    fp_plan *p = plan_from(TWIN_COPPER);
    fp_cable_info ci;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_cable(p, 0, &ci, &err), FP_OK, "%s", err.msg);
    cr_assert_str_eq(ci.id, "C0000001");
    cr_assert_eq(ci.n_links, 2, "the first cable is a twin: %zu links", (size_t)ci.n_links);
    fp_failure_report r = fail_one(p, "cable:C0000001", 1);
    cr_expect_eq(r.links_failed, 2);
    cr_expect_float_eq(r.link_capacity_lost_gbps, 800.0, 1e-9);
    cr_expect_eq(r.endpoints_cut_off, 2);
    cr_expect_eq(r.servers_cut_off, 0);
    cr_expect_eq(r.switches_failed, 0);
    const char *specs[] = { "cable:C0000002" };
    cr_expect_eq(fp_plan_fail(&r, p, specs, 1, 1, &err), FP_EINVAL);
    fp_plan_free(p);
}

Test(metrics, failure_spec_errors)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    const char *bad[] = { "bogus:1", "spine:33", "spine:0", "core:1", "link:L0009999",
                          "link:x", "no-such-device", "random-links:200%", "random-links:5000",
                          "cable:C000001" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fp_error err = { 0 };
        const char *specs[] = { bad[i] };
        fp_failure_report r;
        memset(&r, 0x5a, sizeof r);
        cr_expect_eq(fp_plan_fail(&r, p, specs, 1, 1, &err), FP_EINVAL, "%s", bad[i]);
        cr_expect_eq(r.n_specs, 0x5a5a5a5a, "a failed what-if leaves the report untouched");
        cr_expect_str_eq(err.where, bad[i]);
        /* Whatever was mistyped, the message names every accepted form. */
        cr_expect(strstr(err.msg, bad[i]) != NULL, "%s", err.msg);
        cr_expect(strstr(err.msg, "ROLE:N") && strstr(err.msg, "link:L0000123") &&
                      strstr(err.msg, "cable:C0000123") && strstr(err.msg, "random-links:") &&
                      strstr(err.msg, "random-switches:") && strstr(err.msg, "device name"),
                  "%s", err.msg);
    }
    fp_plan_free(p);
}

/* Diameter in switches: 2 tiers leaf-spine-leaf = 3, 3 tiers = 5, 4 tiers = 7. The 4-tier case
 * uses 32-port switches (3 tiers hold at most 2 x 16^3 = 8,192 endpoints, so 10,000 GPUs
 * need a 4th tier). */
Test(metrics, diameter_by_tiers)
{
    struct { const char *spec; int sw; } c[] = {
        { TWO_TIER_64, 3 },
        { "{\"cluster\":{\"gpus\":4096},\"fabric\":{\"topology\":\"clos\",\"tiers\":3}}", 5 },
        { "{\"cluster\":{\"gpus\":10000},\"fabric\":{\"topology\":\"clos\",\"tiers\":4,\"switch\":\"generic-th3-32x400\"}}", 7 },
    };
    for (size_t i = 0; i < 3; i++) {
        fp_plan *p = plan_from(c[i].spec);
        const fp_metrics *m = fp_plan_metrics(p);
        cr_expect_eq(m->diameter_switches, c[i].sw, "%s", c[i].spec);
        cr_expect_eq(m->diameter_bfs_switches, c[i].sw, "%s", c[i].spec);
        cr_expect_eq(m->hops[m->n_hops - 1].switches, c[i].sw);
        fp_plan_free(p);
    }
}

/* One rail-optimized SU: 32 servers x 8 GPUs, rail r of every server on leaf r. Same-rail
 * pairs share a leaf: 8 x C(32,2) = 3,968 pairs at 1 switch; the rest of C(256,2) = 32,640
 * go through a spine: 28,672 at 3 switches. */
Test(metrics, rail_su_same_rail_one_switch)
{
    /* One SU: 8 rail leaves of 32 GPUs. Same leaf = same rail: 8 x C(32,2) = 3,968 pairs at
     * 1 switch; each rail has one leaf, so no same-rail pair crosses leaves; the other
     * C(256,2) - 3,968 = 28,672 pairs are on other rails, leaf-spine-leaf (3). */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"fabric\":{\"topology\":\"rail-optimized\"}}");
    const fp_metrics *m = fp_plan_metrics(p);
    cr_assert_eq(m->n_hops, 3);
    cr_expect_str_eq(m->hops[0].scope, "same leaf");
    cr_expect_eq(m->hops[0].switches, 1);
    cr_expect_eq(m->hops[0].pairs, 3968);
    cr_expect_str_eq(m->hops[1].scope, "across leaves, same rail");
    cr_expect_eq(m->hops[1].pairs, 0);
    cr_expect_str_eq(m->hops[2].scope, "across leaves, other rail");
    cr_expect_eq(m->hops[2].switches, 3);
    cr_expect_eq(m->hops[2].pairs, 28672);
    cr_expect_eq(m->gpu_pairs, 32640);
    cr_expect_eq(m->hop_sample, 0, "exact counts");
    fp_plan_free(p);
}

/* 2 rail-optimized SUs (512 GPUs, 2 tiers): 16 rail leaves of 32 GPUs. Same leaf (same rail,
 * same SU): 16 x C(32,2) = 16 x 496 = 7,936 pairs at 1 switch; same rail, other SU: per rail
 * C(64,2) - 2 x 496 = 1,024, x 8 rails = 8,192; the other 130,816 - 7,936 - 8,192 = 114,688
 * are on other rails; both go leaf-spine-leaf: 3 switches. */
Test(metrics, rail_two_sus_hop_counts)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":512},\"fabric\":{\"topology\":\"rail-optimized\"}}");
    const fp_metrics *m = fp_plan_metrics(p);
    cr_assert_eq(m->n_hops, 3);
    cr_expect_eq(m->gpu_pairs, 130816);
    cr_expect_eq(m->hops[0].pairs, 7936);
    cr_expect_eq(m->hops[1].pairs, 8192);
    cr_expect_eq(m->hops[2].pairs, 114688);
    cr_expect_eq(m->hops[1].switches, 3);
    cr_expect_eq(m->hops[2].switches, 3);
    cr_expect_float_eq(m->hops[0].share, 7936.0 / 130816, 1e-12);
    fp_plan_free(p);
}

/* The default (16,384 GPUs, 64 SUs, 16 pods of 4 SUs, 3 tiers). Per rail per pod 128 GPUs,
 * per rail 2,048.
 *   same leaf:               512 leaves x C(32,2)                         =     253,952 (1)
 *   same pod, same rail:     16 x 8 x (C(128,2) - 4 x 496) = 128 x 6,144  =     786,432 (3)
 *   same pod, other rail:    16 x C(1024,2) - 253,952 - 786,432          =   7,340,032 (3)
 *   across pods, same rail:  8 x (C(2048,2) - 16 x C(128,2))             =  15,728,640 (5)
 *   across pods, other rail: C(16384,2) - 16 x C(1024,2) - 15,728,640     = 110,100,480 (5) */
Test(metrics, rail_three_tier_hop_counts_by_rail)
{
    fp_plan *p = plan_from("{}");
    const fp_metrics *m = fp_plan_metrics(p);
    cr_assert_eq(m->n_hops, 5);
    const char *names[] = { "same leaf", "same pod, same rail", "same pod, other rail",
                            "across pods, same rail", "across pods, other rail" };
    const int64_t pairs[] = { 253952, 786432, 7340032, 15728640, 110100480 };
    const int sw[] = { 1, 3, 3, 5, 5 };
    int64_t sum = 0;
    for (int i = 0; i < 5; i++) {
        cr_expect_str_eq(m->hops[i].scope, names[i]);
        cr_expect_eq(m->hops[i].pairs, pairs[i], "%s", names[i]);
        cr_expect_eq(m->hops[i].switches, sw[i]);
        sum += m->hops[i].pairs;
    }
    cr_expect_eq(sum, (int64_t)16384 * 16383 / 2);
    fp_plan_free(p);
}

/* k = 4 fat-tree, one GPU and NIC per server: 16 hosts, 4 pods of 2 edge switches x 2 hosts.
 * Same edge: 8 x C(2,2) = 8 pairs (1 switch); same pod: 4 x C(4,2) = 24, less those 8 = 16
 * (edge-aggregation-edge, 3); across pods: C(16,2) = 120 - 24 = 96 (5 switches, via a core).
 * Bisection: pods 1-2 | 3-4, 8 hosts x 400 = 3,200 Gb/s. */
Test(metrics, fat_tree_k4_hop_counts)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":16,\"gpus_per_server\":1,\"nics_per_server\":1},\"fabric\":{\"topology\":\"fat-tree\",\"switch\":{\"ports\":4,\"port_gbps\":400}}}");
    const fp_metrics *m = fp_plan_metrics(p);
    cr_assert_eq(m->n_hops, 3);
    cr_expect_eq(m->gpu_pairs, 120);
    cr_expect_eq(m->hops[0].pairs, 8);
    cr_expect_eq(m->hops[1].pairs, 16);
    cr_expect_eq(m->hops[2].pairs, 96);
    cr_expect_eq(m->hops[2].switches, 5);
    cr_expect_eq(m->diameter_bfs_switches, 5);
    cr_expect_float_eq(m->bisection_gbps, 3200.0, 1e-9);
    cr_expect_float_eq(m->bisection_maxflow_gbps, 3200.0, 1e-9);
    fp_plan_free(p);
}

/* k = 48 fat-tree: 1,152 edge switches of 24 hosts: 1,152 x C(24,2) = 317,952 same-leaf pairs;
 * 48 pods of 576: 48 x C(576,2) = 7,948,800 same-pod pairs, less the same-leaf ones = 7,630,848;
 * C(27,648, 2) = 382,192,128 in all. */
Test(metrics, fat_tree_hop_counts)
{
    fp_plan *p = plan_from(FT48);
    const fp_metrics *m = fp_plan_metrics(p);
    cr_assert_eq(m->n_hops, 3);
    cr_expect_eq(m->hops[0].pairs, 317952);
    cr_expect_eq(m->hops[1].pairs, 7630848);
    cr_expect_eq(m->hops[2].pairs, 382192128LL - 7948800);
    cr_expect_eq(m->gpu_pairs, 382192128LL);
    cr_expect_float_eq(m->hops[0].share + m->hops[1].share + m->hops[2].share, 1.0, 1e-12);
    fp_plan_free(p);
}

/* 360,000 links (100,000 GPUs x 3.6) at a 5-year link MTBF (5 x 8,760 = 43,800 h):
 * 43,800 / 360,000 = 0.12167 h = 7.3 minutes to the first failure, 197.26 failures a day.
 * 1,000 switches at 1,000,000 h: 1,000 h to the first switch failure. */
Test(metrics, reliability_pure_math)
{
    fp_part_count parts[] = {
        { "transceiver", 360000, 43800 },
        { "switch", 1000, 1e6 },
        { "fibre", 10, 0 },     /* unknown MTBF: counted, not guessed */
    };
    fp_reliability r;
    fp_reliability_from_counts(parts, 3, &r);
    cr_expect_float_eq(r.hours_to_first_link_failure, 43800.0 / 360000, 1e-12);
    cr_expect_float_eq(r.hours_to_first_link_failure * 60, 7.3, 1e-9);
    cr_expect_float_eq(r.transceiver_failures_per_day, 360000.0 / 43800 * 24, 1e-9);
    cr_expect_float_eq(r.hours_to_first_switch_failure, 1000.0, 1e-9);
    cr_expect_float_eq(r.switch_failures_per_day, 0.024, 1e-12);
    cr_expect_eq(r.units_without_mtbf, 10);
    /* Links fail through transceivers and cables: rates add. 1,000 cables at 1e6 h add 1e-3/h. */
    fp_part_count both[] = { { "transceiver", 2000, 1e6 }, { "copper", 1000, 1e6 } };
    fp_reliability_from_counts(both, 2, &r);
    cr_expect_float_eq(r.hours_to_first_link_failure, 1e6 / 3000, 1e-9);
    cr_expect_float_eq(r.cable_failures_per_day, 0.024, 1e-12);
    /* Nothing known: no time rather than an infinite one. */
    fp_reliability_from_counts(NULL, 0, &r);
    cr_expect_eq(r.hours_to_first_link_failure, 0);
    cr_expect_eq(r.hours_to_first_switch_failure, 0);
}

static cJSON *plan_json_of(fp_plan *p)
{
    char *text = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_to_json(p, &text, &err), FP_OK, "%s", err.msg);
    cJSON *root = cJSON_Parse(text);
    fp_free(text);
    cr_assert_not_null(root);
    return root;
}

/* plan.json carries metrics always, and a what-if's failure section when the write options
 * pass its report; read back and compared with the numbers derived above. */
Test(metrics, plan_json_sections)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    cJSON *root = plan_json_of(p);
    cJSON *m = cJSON_GetObjectItem(root, "metrics");
    cr_assert_not_null(m);
    cr_expect_float_eq(cJSON_GetObjectItem(m, "bisection_gbps")->valuedouble, 409600.0, 1e-6);
    cr_expect_float_eq(cJSON_GetObjectItem(m, "bisection_maxflow_gbps")->valuedouble, 409600.0, 1e-6);
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(m, "full_bisection")));
    cr_expect_eq(cJSON_GetObjectItem(m, "diameter_switches")->valueint, 3);
    cr_expect_null(cJSON_GetObjectItem(root, "failure"));
    cJSON_Delete(root);
    /* The what-if is the caller's report; plan.json carries it when the write options do. */
    fp_failure_report rep = fail_one(p, "spine:1", 1);
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_JSON;
    o.failure = &rep;
    char dir[128], path[64];
    fp_error err = { 0 };
    scratch_dir(dir, sizeof dir, "failjson");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/plan.json", dir);
    FILE *jf = fopen(path, "rb");
    cr_assert_not_null(jf);
    static char text[1 << 22];
    size_t len = fread(text, 1, sizeof text - 1, jf);
    fclose(jf);
    text[len] = '\0';
    root = cJSON_Parse(text);
    cr_assert_not_null(root);
    cJSON *f = cJSON_GetObjectItem(root, "failure");
    cr_assert_not_null(f);
    cr_expect_float_eq(cJSON_GetObjectItem(f, "bisection_after_gbps")->valuedouble, 396800.0, 1e-6);
    cr_expect_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(f, "specs"), 0)->valuestring, "spine:1");
    cJSON_Delete(root);
    fp_plan_free(p);
}

/* compare at 4,096 GPUs: a 2-tier fabric of 32-port switches holds 2 x 16^2 = 512 endpoints,
 * so that candidate cannot work and says why; working rows come first, sorted by cost. */
Test(metrics, compare_designs)
{
    fp_catalog *cat = NULL;
    fp_error err = { 0 };
    fp_compare_row *rows = NULL;
    size_t n = 0;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    cr_assert_eq(fp_compare_designs(&rows, &n, cat, NULL, 4096, &err), FP_OK, "%s", err.msg);
    cr_assert_gt(n, 20);
    int seen_fail = 0, found = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].status != FP_OK) {
            seen_fail = 1;
            cr_expect(strlen(rows[i].reason) > 0, "%s", rows[i].design);
        } else {
            cr_expect_not(seen_fail, "working rows first");
            cr_expect_eq(rows[i].gpus, 4096);
            cr_expect(rows[i].bisection_gbps > 0);
            /* grouped by leaf down:up (1:1 first), by cost within a group */
            if (i > 0 && rows[i - 1].status == FP_OK) {
                cr_expect(rows[i - 1].oversubscription <= rows[i].oversubscription);
                if (rows[i - 1].oversubscription == rows[i].oversubscription)
                    cr_expect(rows[i - 1].cost <= rows[i].cost);
            }
            /* a fabric of T tiers whose GPUs use them all has a longest path of 2T - 1
             * switches (up T, down T - 1 from the top); fewer means a degenerate top tier */
            cr_expect_geq(rows[i].diameter_switches, 2 * rows[i].tiers - 1, "%s", rows[i].design);
            cr_expect(rows[i].bisection_fraction > 0 && rows[i].bisection_fraction <= 1.0001);
        }
        if (strcmp(rows[i].design, "clos 2T generic-th3-32x400 1:1") == 0) {
            found = 1;
            cr_expect_eq(rows[i].status, FP_EDESIGN);
            cr_expect(strstr(rows[i].reason, "512") != NULL, "%s", rows[i].reason);
        }
    }
    cr_expect(found);
    /* 4,096 GPUs fit 2 tiers of 128-port switches (2 x 64^2 = 8,192 endpoints): 4 tiers of them
     * would put a lone block on top that no GPU pair crosses, so that row is left out. */
    int four_tier_ok = 1;
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].design, "clos 4T nvidia-sn5600 1:1") == 0)
            four_tier_ok = 0;
    cr_expect(four_tier_ok);
    /* Written files read back: one CSV line per row plus the header, one JSON object each. */
    char dir[128], path[64], line[2048];
    scratch_dir(dir, sizeof dir, "compare");
    cr_assert_eq(fp_compare_write(rows, n, dir, &err), FP_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/compare.csv", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t lines = 0;
    while (fgets(line, sizeof line, f))
        lines++;
    fclose(f);
    cr_expect_eq(lines, n + 1);
    unlink(path);
    snprintf(path, sizeof path, "%s/compare.json", dir);
    char *text = NULL;
    size_t len = 0;
    f = fopen(path, "r");
    cr_assert_not_null(f);
    text = calloc(1, 1 << 20);
    len = fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root, "%zu bytes", len);
    cr_expect_eq((size_t)cJSON_GetArraySize(cJSON_GetObjectItem(root, "candidates")), n);
    cJSON_Delete(root);
    free(text);
    unlink(path);
    rmdir(dir);
    fp_compare_free(rows);
    fp_catalog_free(cat);
}

/* Reliability of a real plan: every link part in the BOM (transceivers at the catalog's
 * 87,600 h, copper and fibre at theirs) adds quantity / MTBF to the link failure rate; spares
 * sit on the shelf and add nothing. The transceiver count matches the plan's totals. */
Test(metrics, reliability_from_plan_bom)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    const fp_reliability *r = &fp_plan_metrics(p)->reliability;
    fp_totals tot;
    double rate = 0, xcvr_rate = 0;
    int64_t xcvrs = 0;
    fp_plan_totals(p, &tot);
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        if (l.spare || l.mtbf_hours <= 0)
            continue;
        if (strcmp(l.category, "transceiver") == 0) {
            cr_expect_float_eq(l.mtbf_hours, 87600.0, 1e-9, "%s", l.part);
            xcvrs += l.quantity;
            xcvr_rate += l.quantity / 87600.0;
        }
        if (strcmp(l.category, "transceiver") == 0 || strcmp(l.category, "copper") == 0 ||
            strcmp(l.category, "fibre") == 0)
            rate += l.quantity / l.mtbf_hours;
    }
    cr_assert_gt(xcvrs, 0);
    cr_expect_eq(xcvrs, tot.transceivers);
    /* Transceivers alone: MTBF / modules. */
    cr_expect_float_eq(r->transceiver_failures_per_day / 24, xcvrs / 87600.0, 1e-12);
    cr_expect_float_eq(1.0 / xcvr_rate, 87600.0 / (double)xcvrs, 1e-9);
    cr_expect_float_eq(r->hours_to_first_link_failure, 1.0 / rate, 1e-9);
    cr_expect(r->hours_to_first_switch_failure > 0);
    fp_plan_free(p);
}
