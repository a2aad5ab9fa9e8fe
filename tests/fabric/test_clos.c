/* The folded-Clos engine: counts against formulas and the published DGX SuperPOD tables, and
 * structural invariants checked link by link. */
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

/* ---- invariants every built fabric must satisfy ---- */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* No port is used twice; every port is within its device's port count; links join adjacent
 * tiers; and a switch's numbers of links to the upper switches it reaches differ by at most
 * `spread` (0: the even spread, every one the same; 1: balanced). */
static void check_spread(const fp_plan *p, int64_t spread)
{
    size_t nd = fp_plan_device_count(p), nl = fp_plan_link_count(p);
    int64_t *keys = malloc(sizeof(int64_t) * nl * 2);
    int64_t *pairs = malloc(sizeof(int64_t) * nl);
    int *tier = malloc(sizeof(int) * nd), *ports = malloc(sizeof(int) * nd);
    cr_assert(keys && pairs && tier && ports);
    for (size_t i = 0; i < nd; i++) {
        fp_device_info d;
        cr_assert_eq(fp_plan_device(p, i, &d, NULL), FP_OK);
        tier[i] = d.tier;
        ports[i] = d.ports;
    }
    for (size_t i = 0; i < nl; i++) {
        fp_link_info l;
        cr_assert_eq(fp_plan_link(p, i, &l, NULL), FP_OK);
        cr_assert_eq(tier[l.z], tier[l.a] + 1, "link %zu joins tiers %d and %d", i, tier[l.a], tier[l.z]);
        cr_assert_eq(l.boundary, tier[l.a]);
        cr_assert(l.a_port >= 0 && l.a_port < ports[l.a], "link %zu a_port %d of %d", i, l.a_port, ports[l.a]);
        cr_assert(l.z_port >= 0 && l.z_port < ports[l.z], "link %zu z_port %d of %d", i, l.z_port, ports[l.z]);
        keys[2 * i] = l.a * 8192 + l.a_port;
        keys[2 * i + 1] = l.z * 8192 + l.z_port;
        pairs[i] = l.a * (int64_t)nd + l.z;
    }
    qsort(keys, nl * 2, sizeof *keys, cmp_i64);
    for (size_t i = 1; i < nl * 2; i++)
        cr_assert_neq(keys[i], keys[i - 1], "port used twice: device %lld port %lld",
                      (long long)(keys[i] / 8192), (long long)(keys[i] % 8192));
    /* per switch (a), the multiplicities to its upper neighbours lie within `spread` */
    qsort(pairs, nl, sizeof *pairs, cmp_i64);
    int64_t cur_a = -1, lo = 0, hi = 0, run = 0;
    for (size_t i = 0; i <= nl; i++) {
        if (i > 0 && (i == nl || pairs[i] != pairs[i - 1])) {
            int64_t a = pairs[i - 1] / (int64_t)nd;
            if (tier[a] > 0) {
                if (a != cur_a) {
                    cur_a = a;
                    lo = hi = run;
                }
                lo = run < lo ? run : lo;
                hi = run > hi ? run : hi;
                cr_assert(hi - lo <= spread, "switch %lld has %lld links to one upper switch and %lld to another",
                          (long long)a, (long long)lo, (long long)hi);
            }
            run = 0;
        }
        run++;
    }
    free(keys);
    free(pairs);
    free(tier);
    free(ports);
}

static void check_invariants(const fp_plan *p)
{
    check_spread(p, 0);
}

/* Full bisection measured by igraph's max-flow on the switch graph (not the tree formula). */
static void check_full_bisection_maxflow(const fp_plan *p)
{
    const fp_metrics *m = fp_plan_metrics(p);
    cr_expect(m->split_demand_gbps > 0);
    cr_expect(m->bisection_maxflow_gbps >= m->split_demand_gbps - 1e-6,
              "max-flow %.0f Gb/s below the %.0f the half can send (%s)", m->bisection_maxflow_gbps,
              m->split_demand_gbps, m->split);
}

/* ---- k-ary fat-tree (Al-Fares et al.) ---- */

static void check_fat_tree(int k)
{
    char spec[256];
    int64_t hosts = (int64_t)k * k * k / 4;
    snprintf(spec, sizeof spec,
             "{\"cluster\":{\"gpus\":%lld},\"fabric\":{\"topology\":\"fat-tree\",\"switch\":{\"ports\":%d,\"port_gbps\":400}}}",
             (long long)hosts, k);
    fp_plan *p = plan_from(spec);
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.tiers, 3);
    cr_expect_eq(tier_switches(p, 1), k * k / 2, "edge switches for k=%d", k);
    cr_expect_eq(tier_switches(p, 2), k * k / 2, "aggregation switches for k=%d", k);
    cr_expect_eq(tier_switches(p, 3), k * k / 4, "core switches for k=%d", k);
    cr_expect_eq(s.switches, 5 * k * k / 4);
    for (int b = 0; b < 3; b++)
        cr_expect_eq(boundary_links(p, b), hosts, "k=%d boundary %d", k, b);
    cr_expect_eq(s.links, 3 * hosts);
    cr_expect_eq(s.capacity_gpus, hosts);
    if (k <= 48)
        check_invariants(p);
    fp_plan_free(p);
}

Test(clos, fat_tree_k4) { check_fat_tree(4); }
Test(clos, fat_tree_k48) { check_fat_tree(48); }
Test(clos, fat_tree_k64) { check_fat_tree(64); }

Test(clos, fat_tree_k4_pods_and_names)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":16,\"gpus_per_server\":1},"
                           "\"fabric\":{\"topology\":\"fat-tree\",\"switch\":{\"ports\":4,\"port_gbps\":400}}}");
    /* k pods of k/2 edge + k/2 aggregation switches: every edge switch links only to the
     * aggregation switches of its own pod. */
    for (size_t i = 0; i < fp_plan_link_count(p); i++) {
        fp_link_info l;
        fp_device_info a, z;
        fp_plan_link(p, i, &l, NULL);
        fp_plan_device(p, (size_t)l.a, &a, NULL);
        fp_plan_device(p, (size_t)l.z, &z, NULL);
        if (l.boundary == 1) {
            cr_expect_eq(a.pod, z.pod, "%s -> %s crosses pods", a.name, z.name);
            cr_expect(a.pod >= 0 && a.pod < 4);
        }
    }
    fp_device_info d;
    fp_plan_device(p, fp_plan_device_count(p) - 1, &d, NULL);
    cr_expect_str_eq(d.name, "core-04");
    fp_plan_free(p);
}

/* ---- uniform radix 64 at 1:1: 2(k/2)^L endpoints ---- */

static int64_t clos_capacity(int k, int L)
{
    int64_t c = 2;
    for (int i = 0; i < L; i++)
        c *= k / 2;
    return c;
}

Test(clos, capacity_per_tier_count)
{
    for (int L = 2; L <= 4; L++) {
        char spec[256];
        snprintf(spec, sizeof spec,
                 "{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"clos\",\"tiers\":%d,\"switch\":{\"ports\":64,\"port_gbps\":400}}}",
                 L);
        fp_plan *p = plan_from(spec);
        fp_summary s;
        fp_plan_summary(p, &s);
        cr_expect_eq(s.capacity_gpus, clos_capacity(64, L), "L=%d", L);
        fp_plan_free(p);
    }
    cr_expect_eq(clos_capacity(64, 2), 2048);
    cr_expect_eq(clos_capacity(64, 3), 65536);
    cr_expect_eq(clos_capacity(64, 4), 2097152);
}

static int auto_tiers(int64_t gpus, char *choice, size_t n)
{
    char spec[256];
    snprintf(spec, sizeof spec,
             "{\"cluster\":{\"gpus\":%lld},\"fabric\":{\"topology\":\"clos\",\"tiers\":\"auto\",\"switch\":{\"ports\":64,\"port_gbps\":400}}}",
             (long long)gpus);
    fp_plan *p = plan_from(spec);
    fp_summary s;
    fp_plan_summary(p, &s);
    if (choice)
        snprintf(choice, n, "%s", s.tier_choice);
    int t = s.tiers;
    fp_plan_free(p);
    return t;
}

Test(clos, auto_tiers_boundaries)
{
    char why[512];
    cr_expect_eq(auto_tiers(2048, NULL, 0), 2);
    cr_expect_eq(auto_tiers(2049, NULL, 0), 3);
    cr_expect_eq(auto_tiers(65536, NULL, 0), 3);
    cr_expect_eq(auto_tiers(65537, NULL, 0), 4);
    cr_expect_eq(auto_tiers(100000, why, sizeof why), 4);
    cr_expect(strstr(why, "100000 GPUs exceed the 3-tier maximum of 65536 for 64-port switches at 1:1") != NULL,
              "tier_choice: %s", why);
    cr_expect(strstr(why, "using 4 tiers") != NULL, "tier_choice: %s", why);
}

Test(clos, two_tiers_too_small_names_maximum)
{
    fp_error err = { 0 };
    fp_status rc = plan_error("{\"cluster\":{\"gpus\":16384},\"fabric\":{\"tiers\":2,\"topology\":\"clos\","
                              "\"switch\":{\"ports\":64,\"port_gbps\":400}}}", &err);
    cr_assert_eq(rc, FP_EDESIGN);
    cr_expect(strstr(err.msg, "2-tier maximum of 2048") != NULL, "%s", err.msg);
    cr_expect_str_eq(err.where, "/fabric/tiers");
    /* the default (rail-optimized, QM9700) says the same */
    rc = plan_error("{\"fabric\":{\"tiers\":2}}", &err);
    cr_assert_eq(rc, FP_EDESIGN);
    cr_expect(strstr(err.msg, "2048") != NULL, "%s", err.msg);
}

Test(clos, four_tiers_full_scale)
{
    /* 131,072 endpoints, radix 64, 4 tiers: 4096 leaves, 4096 spines, 4096 tier-3 and 2048
     * top switches (k/2)^3 * 2 and (k/2)^3; 131,072 links at every boundary. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":131072},\"fabric\":{\"topology\":\"clos\",\"tiers\":4,"
                           "\"switch\":\"nvidia-qm9700\"}}");
    cr_expect_eq(tier_switches(p, 1), 4096);
    cr_expect_eq(tier_switches(p, 2), 4096);
    cr_expect_eq(tier_switches(p, 3), 4096);
    cr_expect_eq(tier_switches(p, 4), 2048);
    for (int b = 0; b < 4; b++)
        cr_expect_eq(boundary_links(p, b), 131072);
    check_invariants(p);
    fp_plan_free(p);
}

/* ---- DGX SuperPOD tables (../shared/reference/topologies.md) ---- */

typedef struct dgx_row { int sus; int leaf, spine, core; int links; } dgx_row;

static void check_dgx(const dgx_row *r, const char *note)
{
    char spec[256];
    snprintf(spec, sizeof spec,
             "{\"cluster\":{\"gpus\":%d,\"gpus_per_server\":8,\"nics_per_server\":8},"
             "\"fabric\":{\"topology\":\"rail-optimized\",\"su_servers\":32,\"switch\":{\"ports\":64,\"port_gbps\":400}}}",
             r->sus * 256);
    fp_plan *p = plan_from(spec);
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(tier_switches(p, 1), r->leaf, "%s %d SUs leaves", note, r->sus);
    cr_expect_eq(tier_switches(p, 2), r->spine, "%s %d SUs spines", note, r->sus);
    cr_expect_eq(tier_switches(p, 3), r->core, "%s %d SUs cores", note, r->sus);
    cr_expect_eq(s.tiers, r->core ? 3 : 2);
    for (int b = 0; b < s.tiers; b++)
        cr_expect_eq(boundary_links(p, b), r->links, "%s %d SUs boundary %d", note, r->sus, b);
    check_invariants(p);
    fp_plan_free(p);
}

Test(clos, dgx_h100_table)
{
    static const dgx_row rows[] = {
        { 1, 8, 4, 0, 256 }, { 2, 16, 8, 0, 512 }, { 3, 24, 16, 0, 768 }, { 4, 32, 16, 0, 1024 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        check_dgx(&rows[i], "H100");
}

Test(clos, dgx_b200_table)
{
    static const dgx_row rows[] = {
        { 2, 16, 8, 0, 512 },        { 4, 32, 16, 0, 1024 },       { 8, 64, 32, 0, 2048 },
        { 16, 128, 128, 64, 4096 },  { 32, 256, 256, 128, 8192 },  { 64, 512, 512, 256, 16384 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        check_dgx(&rows[i], "B200");
}

Test(clos, three_su_note_explains_uneven_spines)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":768}}");
    int found = 0;
    for (size_t i = 0; i < fp_plan_note_count(p); i++)
        if (strstr(fp_plan_note(p, i), "16 spines") && strstr(fp_plan_note(p, i), "the links need 12"))
            found = 1;
    cr_expect(found, "a note must say why 16 spines, not 12");
    fp_plan_free(p);
}

Test(clos, rail_alignment)
{
    /* NIC r of every server in an SU goes to leaf r of that SU. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2048}}");
    for (size_t i = 0; i < (size_t)boundary_links(p, 0); i++) {
        fp_link_info l;
        fp_device_info srv, leaf;
        fp_plan_link(p, i, &l, NULL);
        fp_plan_device(p, (size_t)l.a, &srv, NULL);
        fp_plan_device(p, (size_t)l.z, &leaf, NULL);
        cr_assert_eq(leaf.su, srv.su);
        cr_assert_eq(leaf.rail, l.a_port, "%s %s -> %s", srv.name, l.a_port_name, leaf.name);
        cr_assert_eq(l.z_port, srv.index);
    }
    fp_plan_free(p);
}

Test(clos, rail_outgrows_one_leaf)
{
    /* 64-server SUs on 64-port leaves at 1:1 (32 down): two leaves per rail per SU. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"su_servers\":64}}");
    cr_expect_eq(tier_switches(p, 1), 2 * 8 * 2);
    fp_device_info d;
    fp_link_info l;
    fp_plan_link(p, 0, &l, NULL);
    fp_plan_device(p, (size_t)l.z, &d, NULL);
    cr_expect_str_eq(d.name, "su01-leaf-r1.1");
    check_invariants(p);
    fp_plan_free(p);
}

Test(clos, rails_aligned_one_rail_per_leaf)
{
    /* GB200 NVL72 units: 144 trays of 4 NIC ports, one per rail. A QM9700 leaf takes 32 down at
     * 1:1, so one rail needs ceil(144 / 32) = 5 leaves; rail-aligned (the default, as NVIDIA's
     * SuperPOD RAs build them) each leaf serves one rail, the rail's 144 trays spread evenly:
     * ceil(144 / 5) = 29 on leaves 1-4 and 144 - 4 x 29 = 28 on leaf 5. 5 x 4 = 20 leaves per
     * unit, 2 units = 288 trays = 1,152 GPUs: 40 leaves. 1:1: each leaf has the uplinks of its
     * own trays (29 or 28), 2 x 4 x 144 = 1,152 uplinks; balanced spread, 64-port spines:
     * 1,152 / 64 = 18 spines, no port idle. Shared rails would take 576 / 32 = 18 leaves per
     * unit: 2 fewer per unit, 2 x 2 x $28,000 (QM9700) = $112,000, which the note prices. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1152,\"gpus_per_server\":4,\"nics_per_server\":4},"
                           "\"fabric\":{\"topology\":\"rail-optimized\",\"su_servers\":144,\"tiers\":2,"
                           "\"spread\":\"balanced\"}}");
    cr_expect_eq(tier_switches(p, 1), 40);
    cr_expect_eq(tier_switches(p, 2), 18);
    cr_expect_eq(boundary_links(p, 1), 1152);
    int64_t per_leaf[40] = { 0 };
    int rails_on[40][4];
    memset(rails_on, 0, sizeof rails_on);
    for (size_t i = 0; i < (size_t)boundary_links(p, 0); i++) {
        fp_link_info l;
        fp_plan_link(p, i, &l, NULL);
        int idx = (int)(l.z - 288);     /* devices: 288 trays, then the leaves */
        cr_assert(idx >= 0 && idx < 40);
        per_leaf[idx]++;
        rails_on[idx][l.a_port % 4] = 1;
    }
    for (int i = 0; i < 40; i++) {
        cr_expect_eq(per_leaf[i], i % 5 == 4 ? 28 : 29, "leaf %d has %lld NIC links", i,
                     (long long)per_leaf[i]);
        cr_expect_eq(rails_on[i][0] + rails_on[i][1] + rails_on[i][2] + rails_on[i][3], 1,
                     "leaf %d serves more than one rail", i);
    }
    int noted = 0;
    for (size_t i = 0; i < fp_plan_note_count(p); i++)
        noted |= strstr(fp_plan_note(p, i), "rail-aligned") && strstr(fp_plan_note(p, i), "$112,000");
    cr_expect(noted, "no note prices the rail-aligned leaves");
    check_spread(p, 1);
    fp_plan_free(p);
    /* A partial third unit (72 trays, 1,440 GPUs) is built in full like the others: 60 leaves. */
    p = plan_from("{\"cluster\":{\"gpus\":1440,\"gpus_per_server\":4,\"nics_per_server\":4},"
                  "\"fabric\":{\"topology\":\"rail-optimized\",\"su_servers\":144,\"tiers\":2}}");
    cr_expect_eq(tier_switches(p, 1), 60);
    check_invariants(p);
    fp_plan_free(p);
    /* rail_leaves takes "aligned" or "shared" only */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"fabric\":{\"rail_leaves\":\"packed\"}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/rail_leaves");
    cr_expect(strstr(err.msg, "\"aligned\"") && strstr(err.msg, "packed"), "%s", err.msg);
}

Test(clos, rails_share_a_leaf_rather_than_add_one)
{
    /* fabric.rail_leaves "shared": GB200 NVL72 units: 144 trays of 4 NIC ports. A QM9700 leaf
     * takes 32 down at 1:1, so one rail needs 144 / 32 = 4.5 leaves: five per rail would be 20
     * per unit with 16 ports idle on each rail's last leaf. Shared, the unit's 4 x 144 = 576
     * ports fill 576 / 32 = 18 leaves exactly; leaf 5 (0-based 4) takes rail 1's trays 129-144
     * and rail 2's trays 1-16. 2 units = 288 trays = 1,152 GPUs: 36 leaves, each with 32 NIC
     * links from at most 2 rails. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1152,\"gpus_per_server\":4,\"nics_per_server\":4},"
                           "\"fabric\":{\"topology\":\"rail-optimized\",\"su_servers\":144,\"tiers\":2,"
                           "\"rail_leaves\":\"shared\"}}");
    cr_expect_eq(tier_switches(p, 1), 36);
    int64_t per_leaf[36] = { 0 };
    int rails_on[36][4];
    memset(rails_on, 0, sizeof rails_on);
    for (size_t i = 0; i < (size_t)boundary_links(p, 0); i++) {
        fp_link_info l;
        fp_device_info leaf;
        fp_plan_link(p, i, &l, NULL);
        fp_plan_device(p, (size_t)l.z, &leaf, NULL);
        cr_assert_eq(leaf.tier, 1);
        int idx = (int)(l.z - 288);     /* devices: 288 trays, then the leaves */
        cr_assert(idx >= 0 && idx < 36);
        per_leaf[idx]++;
        rails_on[idx][l.a_port % 4] = 1;
    }
    for (int i = 0; i < 36; i++) {
        cr_expect_eq(per_leaf[i], 32, "leaf %d has %lld NIC links", i, (long long)per_leaf[i]);
        cr_expect_leq(rails_on[i][0] + rails_on[i][1] + rails_on[i][2] + rails_on[i][3], 2);
    }
    cr_expect_eq(rails_on[4][0] + rails_on[4][1], 2, "leaf 5 ends rail 1 and starts rail 2");
    check_invariants(p);
    fp_plan_free(p);
    /* A partial third unit (72 trays, 1,440 GPUs) is built in full like the others: 54 leaves. */
    p = plan_from("{\"cluster\":{\"gpus\":1440,\"gpus_per_server\":4,\"nics_per_server\":4},"
                  "\"fabric\":{\"topology\":\"rail-optimized\",\"su_servers\":144,\"tiers\":2,"
                  "\"rail_leaves\":\"shared\"}}");
    cr_expect_eq(tier_switches(p, 1), 54);
    check_invariants(p);
    fp_plan_free(p);
}

/* ---- oversubscription ---- */

Test(clos, leaf_2to1_halves_uplinks_and_above)
{
    fp_plan *a = plan_from("{\"cluster\":{\"gpus\":16384},\"fabric\":{\"tiers\":3}}");
    fp_plan *b = plan_from("{\"cluster\":{\"gpus\":16384},\"fabric\":{\"tiers\":3,\"oversubscription\":[2]}}");
    cr_expect_eq(tier_switches(b, 1), tier_switches(a, 1));
    cr_expect_eq(boundary_links(b, 1) * 2, boundary_links(a, 1));
    cr_expect_eq(tier_switches(b, 2) * 2, tier_switches(a, 2));
    cr_expect_eq(tier_switches(b, 3) * 2, tier_switches(a, 3));
    cr_expect_eq(boundary_links(b, 2) * 2, boundary_links(a, 2));
    fp_tier_info t;
    fp_plan_tier(b, 0, &t, NULL);
    cr_expect_float_eq(t.oversubscription, 2.0, 1e-9);
    cr_expect_eq(t.down_ports, 32);
    cr_expect_eq(t.up_ports, 16);
    check_invariants(b);
    fp_plan_free(a);
    fp_plan_free(b);
}

Test(clos, clos_3to1_leaf)
{
    /* 64 ports at 3:1: 48 down, 16 up. 4608 endpoints = 96 leaves; 2 tiers hold 48*64 = 3072,
     * so 3 tiers. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4608},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":{\"ports\":64,\"port_gbps\":400},\"oversubscription\":[3]}}");
    fp_tier_info t;
    fp_plan_tier(p, 0, &t, NULL);
    cr_expect_eq(t.down_ports, 48);
    cr_expect_eq(t.up_ports, 16);
    cr_expect_eq(tier_switches(p, 1), 4608 / 48);
    cr_expect_eq(boundary_links(p, 1), 4608 / 3);
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.tiers, 3);
    check_invariants(p);
    fp_plan_free(p);
}

/* ---- planes, breakouts, reserve ---- */

Test(clos, dual_plane)
{
    fp_plan *one = plan_from("{\"cluster\":{\"gpus\":4096,\"nic\":{\"ports\":1,\"port_gbps\":400}}}");
    fp_plan *two = plan_from("{\"cluster\":{\"gpus\":4096,\"nic\":{\"ports\":2,\"port_gbps\":400}},"
                             "\"fabric\":{\"planes\":2}}");
    fp_summary s1, s2;
    fp_plan_summary(one, &s1);
    fp_plan_summary(two, &s2);
    cr_expect_eq(s2.planes, 2);
    cr_expect_eq(s2.switches, 2 * s1.switches);
    cr_expect_eq(s2.links, 2 * s1.links);
    /* NIC port p goes to plane p */
    for (size_t i = 0; i < (size_t)boundary_links(two, 0); i += 97) {
        fp_link_info l;
        fp_device_info z;
        fp_plan_link(two, i, &l, NULL);
        fp_plan_device(two, (size_t)l.z, &z, NULL);
        cr_expect_eq(l.a_port % 2, l.plane);
        cr_expect_eq(z.plane, l.plane);
    }
    check_invariants(two);
    fp_plan_free(one);
    fp_plan_free(two);
}

Test(clos, sn5600_breakout_counts_128_ports)
{
    /* 64 x 800G split 2 x 400G = 128 ports at 400G: 2 tiers hold 64 * 128 = 8192. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":8192},\"fabric\":{\"topology\":\"clos\",\"switch\":\"nvidia-sn5600\"}}");
    fp_tier_info t;
    fp_plan_tier(p, 0, &t, NULL);
    cr_expect_eq(t.ports_per_switch, 128);
    cr_expect_eq(t.port_gbps, 400);
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.tiers, 2);
    cr_expect_eq(s.capacity_gpus, 8192);
    fp_link_info l;
    fp_plan_link(p, (size_t)boundary_links(p, 0), &l, NULL); /* first leaf uplink */
    /* Port 33, first lane, by Cumulus Linux's names (swp<port>s<lane from 0>): the built-in
     * SN5600 template "swp{port}[s{lane0}]". */
    cr_expect_str_eq(l.a_port_name, "swp33s0");
    fp_plan_free(p);
}

Test(clos, reserve_shrinks_capacity)
{
    /* 25% reserve on 64 ports leaves 48 usable: 24 down/24 up, top 48: 2 tiers hold 1152. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"clos\",\"reserve\":0.25,"
                           "\"switch\":{\"ports\":64,\"port_gbps\":400}}}");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.capacity_gpus, 24 * 48);
    cr_expect_eq(s.tiers, 2);
    fp_tier_info t;
    fp_plan_tier(p, 1, &t, NULL);
    cr_expect(t.ports_spare >= t.switches * 16, "spine reserve must stay spare");
    fp_plan_free(p);
}

Test(clos, mixed_models_per_tier)
{
    /* 64-port leaves under 128-port (SN5600 at 400G) spines: 2 tiers hold 32 * 128 = 4096. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":[\"generic-th4-64x400\",\"nvidia-sn5600\"]}}");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.tiers, 2);
    cr_expect_eq(tier_switches(p, 1), 128);
    cr_expect_eq(tier_switches(p, 2), 4096 / 128);
    check_invariants(p);
    fp_plan_free(p);
}

Test(clos, partial_last_su)
{
    /* 300 servers in 32-server SUs: 10 SUs, the last with 12 servers; leaves 8 per SU. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2400}}");
    cr_expect_eq(tier_switches(p, 1), 80);
    cr_expect_eq(boundary_links(p, 0), 2400);
    check_invariants(p);
    fp_plan_free(p);
}

Test(clos, gpus_not_multiple_of_server)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1001}}");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.servers, 126);
    cr_expect(fp_plan_note_count(p) >= 1);
    fp_plan_free(p);
}

Test(clos, too_many_for_four_tiers)
{
    fp_error err = { 0 };
    /* 32-port switches, 32-server SUs of 8 rails: a leaf has 16 down ports, so an SU needs 2
     * leaves per rail = 16 leaves, and a spine's 16 down ports reach one SU: 256 endpoints per
     * pod x 16 x 32 at the two upper tiers = 131,072 GPUs at 4 tiers. */
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":1000000},\"fabric\":{\"switch\":{\"ports\":32,\"port_gbps\":400}}}", &err),
                 FP_EDESIGN);
    cr_expect(strstr(err.msg, "4-tier maximum of 131072 GPUs") != NULL, "%s", err.msg);
    /* 16-port switches: a leaf has 8 down ports, so a 32-server SU needs 4 leaves per rail x 8
     * rails = 32 leaves, but a spine has only 8 down ports: no tier count holds one SU. The
     * message says why instead of "a maximum of 0 GPUs". */
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":1000000},\"fabric\":{\"switch\":{\"ports\":16,\"port_gbps\":400}}}", &err),
                 FP_EDESIGN);
    cr_expect(strstr(err.msg, "needs 32 leaves, more than the 8") != NULL, "%s", err.msg);
    cr_expect(strstr(err.msg, "maximum of 0") == NULL, "%s", err.msg);
}

Test(clos, extra_tiers_over_a_single_block_stay_small)
{
    /* 4096 GPUs forced into 4 tiers of 64-port switches: 128 leaves, 4 pods of 32 leaves with 32
     * spines each, ONE zone holding 4 pods: each spine position's 4 spines x 32 uplinks need
     * ceil(4*32/32) = 4 tier-3 switches (4 divides 32) -> 32*4 = 128; the single zone's 128
     * tier-3 switches x 32 uplinks = 4,096 links need 4,096 / 64 = 64 top switches (at least 32
     * so each tier-3 switch reaches 32 different ones; one zone's share ceil(4,096 / 64) = 64
     * fits 64 ports), where one group per tier-3 position (1 switch each) built 128. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"topology\":\"clos\",\"tiers\":4,"
                           "\"switch\":{\"ports\":64,\"port_gbps\":400}}}");
    cr_expect_eq(tier_switches(p, 1), 128);
    cr_expect_eq(tier_switches(p, 2), 128);
    cr_expect_eq(tier_switches(p, 3), 128);
    cr_expect_eq(tier_switches(p, 4), 64);
    cr_expect_eq(boundary_links(p, 3), 128 * 32);
    check_invariants(p);
    fp_plan_free(p);
    /* 288-port switches (a Q3400's 144 x 800G split in two), 144 down / 144 up. 4096 GPUs ->
     * ceil(4096/144) = 29 leaves in one pod: spines = smallest n >= 29 dividing 144 = 36; the
     * single zone and the top each need one switch per spine position: 36 + 36 (one group
     * over the tier would need 144, to reach 144 different switches from each). */
    p = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"topology\":\"clos\",\"tiers\":4,"
                  "\"switch\":{\"ports\":288,\"port_gbps\":400}}}");
    cr_expect_eq(tier_switches(p, 1), 29);
    cr_expect_eq(tier_switches(p, 2), 36);
    cr_expect_eq(tier_switches(p, 3), 36);
    cr_expect_eq(tier_switches(p, 4), 36);
    fp_plan_free(p);
}

/* ---- right-sized partial blocks, spreads ---- */

Test(clos, balanced_20000_sized_to_need, .timeout = TEST_TIMEOUT(60))
{
    /* 20,000 GPUs = 20,000 endpoints on 64-port switches at 1:1 (32 down / 32 up): 3 tiers.
     * Leaves: 20,000 / 32 = 625 (all full). Pods of 32 leaves: 19 full pods + one of
     * 625 - 608 = 17 leaves. Spines: a full pod's 32 x 32 = 1,024 uplinks need 32 spines; the
     * partial pod's 17 x 32 = 544 need ceil(544 / 32) = 17 (balanced: no divisor rule), each
     * taking exactly 32 links: 19 x 32 + 17 = 625 spines, 20,000 leaf-spine links.
     * Cores: 625 spines x 32 uplinks = 20,000. The 17 spines of the partial pod deal their 32
     * uplinks one to each of the 32 spine-position groups, so group q carries 19 x 32 + 17 = 625
     * links: ceil(625 / 64) = 10 cores; 32 groups x 10 = 320 cores. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":20000},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":\"nvidia-qm9700\",\"spread\":\"balanced\"}}");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.tiers, 3);
    cr_expect_eq(tier_switches(p, 1), 625);
    cr_expect_eq(tier_switches(p, 2), 625);
    cr_expect_eq(tier_switches(p, 3), 320);
    cr_expect_eq(boundary_links(p, 1), 20000);
    cr_expect_eq(boundary_links(p, 2), 20000);
    check_spread(p, 1);
    check_full_bisection_maxflow(p);
    /* The note says what "even" would build: 640 spines and 512 cores (test below). */
    cr_expect(plan_has_note(p, "spread \"even\" would build 1777 switches (+207", NULL),
              "note on the other spread missing");
    /* Cores: 20,000 links need ceil(20,000 / 64) = 313 by ports; the 32 groups' 10 each are
     * 7 more (7 x $28,000), and no even rule here. */
    cr_expect(plan_has_note(
        p,
        "tier 3: 320 cores where the links need 313 (20000 links, 64 down ports each); "
        "a group of cores per spine position, each sized to its own links, takes 7 more ($196,000)",
        NULL));
    cr_expect(!plan_has_note(p, "tier 3", "even spread"));
    /* The link cost note: balanced builds no switch-to-switch link beyond need, so it prices
     * only what "even" would add (its 32 extra links, test below), never "0 links ... $0". */
    cr_expect(plan_has_note(p, "per link: spread \"even\" would add about $", NULL));
    cr_expect(!plan_has_note(p, "beyond need cost", NULL));
    fp_plan_free(p);
}

Test(clos, even_20000_builds_only_what_the_rule_requires, .timeout = TEST_TIMEOUT(60))
{
    /* Same 625 leaves. Even: a group's spine count must divide a leaf's 32 uplinks.
     * Full pod: 1,024 uplinks over 32-down spines: 32 (divides 32). Partial pod, 17 leaves x 32
     * = 544: at least 17, smallest divisor of 32 at or above 17 is 32: 32 spines, one link
     * from each leaf, 17 down each and 17 up (1:1). Spines 19 x 32 + 32 = 640.
     * Cores, group q: 19 full spines x 32 + one partial spine's 17 = 625 links: at least
     * ceil(625 / 64) = 10, smallest divisor of 32 that fits is 16 (2 links from each full
     * spine = 38 per core; the partial spine: ceil(17 / 16) = 2 links to each of 9 cores, one
     * link more than its 17, 40 at most on a core <= 64). 32 groups x 16 = 512 cores.
     * Nothing beyond that: 640 + 512 and 32 extra links (one per partial spine). */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":20000},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":\"nvidia-qm9700\"}}");
    cr_expect_eq(tier_switches(p, 1), 625);
    cr_expect_eq(tier_switches(p, 2), 640);
    cr_expect_eq(tier_switches(p, 3), 512);
    cr_expect_eq(boundary_links(p, 1), 20000);
    cr_expect_eq(boundary_links(p, 2), 19 * 32 * 32 + 32 * 18);
    check_invariants(p);
    check_full_bisection_maxflow(p);
    /* The notes count from the fewest by ports (the tiers' min column): spines ceil(20,000 /
     * 32) = 625, the even rule's 640 take 15 more ($28,000 each: $420,000). Cores: the 20,032
     * spine uplinks need ceil(20,032 / 64) = 313; a group per spine position carries 626 links
     * (19 x 32 + a partial spine's 18), ceil(626 / 64) = 10, 32 x 10 = 320: 7 more ($196,000);
     * the even rule's 512: 192 more ($5,376,000). 313 + 7 + 192 = 512. */
    cr_expect(plan_has_note(p, "tier 2: 640 spines where the links need 625 (20000 links",
                            "takes 15 more ($420,000"));
    cr_expect(
        plan_has_note(p, "tier 3: 512 cores where the links need 313 (20032 links",
                      "a group of cores per spine position, each sized to its own links, takes 7 "
                      "more ($196,000)"));
    cr_expect(plan_has_note(p, "tier 3: 512 cores", "which takes 192 more ($5,376,000"));
    cr_expect(plan_has_note(p, "spread \"balanced\" would build 1570 switches (-207", NULL));
    cr_expect(plan_has_note(p, "the 32 switch-to-switch links beyond need cost about $", NULL));
    fp_plan_free(p);
}

Test(clos, partial_zone_65537_not_9249, .timeout = TEST_TIMEOUT(120))
{
    /* 65,537 GPUs: 8,193 servers (the last with 1 GPU) x 8 NICs = 65,544 endpoints > 65,536
     * (3 tiers), so 4 tiers. Leaves: 2,048 full + 1 with 8 endpoints = 2,049. Pods: 64 full
     * (32 spines each) + pod 65 with that one leaf: 8 uplinks need 1 spine (1 divides 32) =
     * 2,049 spines. Zones of 32 pods: zones 1-2 full (32 spine positions x 32 cores = 1,024
     * each); zone 3 holds pod 65's one spine (8 up): 1 core = 2,049 cores.
     * Super-cores: zone 3's lone core has fewer positions than a full zone (1 < 1,024), so it
     * keeps all 32 uplinks, dealt one to each spine position (groups (s, 0), s = 0..31). A
     * group without it carries 2 x 32 = 64 links = 1 super-core; the 32 with it carry 65 = 2
     * (2 divides 32): 1,024 + 32 = 1,056. Total 2,049 x 3 + 1,056 = 7,203 ("about 7,200",
     * where every partial block built in full gave 9,249). */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":65537},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":\"nvidia-qm9700\"}}");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.tiers, 4);
    cr_expect_eq(tier_switches(p, 1), 2049);
    cr_expect_eq(tier_switches(p, 2), 2049);
    cr_expect_eq(tier_switches(p, 3), 2049);
    cr_expect_eq(tier_switches(p, 4), 1056);
    cr_expect_eq(s.switches, 7203);
    check_full_bisection_maxflow(p);
    fp_plan_free(p);
}

Test(clos, partial_su_keeps_full_leaves_and_cables)
{
    /* 300 servers in 32-server SUs: 10 SUs, the last with 12 servers. SuperPOD practice: the
     * partial SU keeps all 8 rail leaves and every leaf-spine cable: 80 leaves x 32 uplinks
     * = 2,560 leaf-spine links though only 2,400 NICs are cabled. Two tiers hold 64 / 8 = 8
     * whole SUs (2,048 GPUs), so 3 tiers: pods of 32 / 8 = 4 SUs, 2 full + 1 of 2 SUs. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2400}}");
    cr_expect_eq(tier_switches(p, 1), 80);
    cr_expect_eq(boundary_links(p, 0), 2400);
    cr_expect_eq(boundary_links(p, 1), 80 * 32);
    cr_expect(plan_has_note(p, "keeps its full 8 leaves", NULL));
    check_invariants(p);
    check_full_bisection_maxflow(p);
    fp_plan_free(p);
    /* 64-server SUs (two leaves per rail): 1,280 GPUs = 160 servers = 2 SUs + 32 servers; the
     * third SU still gets 2 leaves per rail: 3 x 16 = 48 leaves, 48 x 32 leaf uplinks. */
    p = plan_from("{\"cluster\":{\"gpus\":1280},\"fabric\":{\"su_servers\":64}}");
    cr_expect_eq(tier_switches(p, 1), 48);
    cr_expect_eq(boundary_links(p, 1), 48 * 32);
    check_invariants(p);
    fp_plan_free(p);
}

Test(clos, spread_errors_name_the_field)
{
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"fabric\":{\"spread\":\"random\"}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/spread");
    cr_expect(strstr(err.msg, "\"even\" or \"balanced\"") != NULL, "%s", err.msg);
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"build_for_gpus\":512}}", &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/build_for_gpus");
    cr_expect(strstr(err.msg, "at least 1024") != NULL, "%s", err.msg);
}

Test(clos, top_of_4_tiers_sized_to_its_links, .timeout = TEST_TIMEOUT(120))
{
    /* 100,000 GPUs on QM9700 (64 ports, 32 down / 32 up at 1:1): 100,000 endpoints > 65,536
     * (3 tiers), so 4 tiers: 3,125 leaves, pods of 32 leaves (98, the last with 21), zones of
     * 32 pods: 3 full zones of 1,024 cores x 32 uplinks = 32,768 links each, and zone 4 with
     * the rest of the B3 links into the top. One group per core position built 2 super-cores
     * for each of the 1,024 positions (3 x 32 + the last zone's share > 64): 2,048. Sized to
     * its links the top needs ceil(B3 / 64); the stated rule (every super-core takes the same
     * share of each zone: link j of a zone on super-core j mod n, so a split along zones
     * crosses in full) needs the smallest n >= ceil(B3 / 64) (and >= 32) with 3 x ceil(32,768
     * / n) + ceil(W4 / n) <= 64. The note names the rule and the switches it adds; the
     * bisection is full by max-flow. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":100000},\"fabric\":{\"topology\":\"clos\","
                           "\"switch\":\"nvidia-qm9700\"}}");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_assert_eq(s.tiers, 4);
    cr_expect_eq(tier_switches(p, 1), 3125);
    const int64_t b3 = boundary_links(p, 3), w4 = b3 - 3 * 32768;
    const int64_t need = (b3 + 63) / 64;
    int64_t n = need;
    while (3 * ((32768 + n - 1) / n) + (w4 + n - 1) / n > 64)
        n++;
    cr_expect(need <= 1568, "%lld", (long long)need);  /* 100,352 / 64 at most */
    cr_expect_eq(tier_switches(p, 4), n);
    cr_expect(n < 2048);
    /* the audit: the top tier's fewest for its links is B3 / 64 rounded up, the leaves' the
     * 100,000 NIC links / 32 down ports = 3,125 (all built) */
    fp_tier_info top, leaf;
    cr_assert_eq(fp_plan_tier(p, 3, &top, NULL), FP_OK);
    cr_assert_eq(fp_plan_tier(p, 0, &leaf, NULL), FP_OK);
    cr_expect_eq(top.switches_min, need);
    cr_expect_eq(leaf.switches_min, 3125);
    char want[96];
    snprintf(want, sizeof want, "tier 4: %lld super-cores where the links need %lld", (long long)n,
             (long long)need);
    char more[48];
    snprintf(more, sizeof more, "which takes the %lld more", (long long)(n - need));
    cr_expect(plan_has_note(p, want, more), "no note: %s ... %s", want, more);
    cr_expect(plan_has_note(p, "a group per core position would build 2048", NULL));
    check_invariants(p);
    check_full_bisection_maxflow(p);
    fp_plan_free(p);
}

Test(clos, spectrum_x_100k_note_counts_from_the_min_column, .timeout = TEST_TIMEOUT(120))
{
    /* spectrum-x-100k: 12,500 servers x 8 NICs on SN5600 at 400G (128 ports, 64 down / 64 up).
     * 64-server SUs of 8 leaves: 196 SUs (the last 20 servers keeps its 8 leaves) = 1,568
     * leaves, 1,568 x 64 = 100,352 uplinks; pods of 8 SUs: 24 full pods of 64 spines and one of
     * 4 SUs with 32: 1,568 spines, 100,352 spine uplinks. Cores by ports: 100,352 / 128 = 784
     * (the min column). A group per spine position (64) carries 100,352 / 64 = 1,568 links:
     * ceil(1,568 / 128) = 13, 64 x 13 = 832, 48 more ($42,000 each: $2,016,000). The even rule:
     * the smallest divisor of a spine's 64 uplinks >= 13 is 16, 64 x 16 = 1,024, 192 more
     * ($8,064,000). 784 + 48 + 192 = 1,024: the note and the column tell one story. */
    fp_plan *p = plan_from_preset("spectrum-x-100k");
    fp_tier_info core;
    cr_assert_eq(fp_plan_tier(p, 2, &core, NULL), FP_OK);
    cr_expect_eq(core.switches, 1024);
    cr_expect_eq(core.switches_min, 784);
    cr_expect_eq(boundary_links(p, 2), 100352);
    cr_expect(plan_has_note(
        p, "tier 3: 1024 cores where the links need 784 (100352 links, 128 down ports each)",
        "each sized to its own links, takes 48 more ($2,016,000); the even spread"));
    cr_expect(plan_has_note(p, "tier 3: 1024 cores",
                            "which takes 192 more ($8,064,000; spread \"balanced\" avoids them)"));
    fp_plan_free(p);
}

Test(clos, rail_su_chosen_when_not_given)
{
    /* 1,024 GPUs on 128 servers of 8 dual-port 400G NICs (16 rails) on 32-port TH3 at 1:1:
     * a leaf takes 16 servers down and has 16 up; below the top a tier-2 switch has 16 down.
     * A unit of n <= 16 servers needs one leaf per rail, 16 leaves; n = 17 needs 17 (shared
     * rails: ceil(16 x 17 / 16)), more than 16. So the largest unit is 16 servers: 128 / 16 =
     * 8 units x 16 leaves = 128 leaves, 2,048 NIC links. 2 tiers hold 32 x 16 / 16 = 32
     * servers at most, so 3. A 32-server unit (the default) needs 32 x 16 / 16 = 32 leaves. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024,\"nics_per_server\":8,\"nic\":\"generic-nic-2x400\"},"
                           "\"fabric\":{\"topology\":\"rail-optimized\",\"switch\":\"generic-th3-32x400\"}}");
    cr_expect_eq(fp_plan_tier_count(p), 3);
    cr_expect_eq(tier_switches(p, 1), 128);
    cr_expect_eq(boundary_links(p, 0), 2048);
    fp_device_info d;
    cr_assert_eq(fp_plan_device(p, 16, &d, NULL), FP_OK);
    cr_expect_eq(d.su, 1, "server 17 opens the second 16-server unit");
    cr_expect_str_eq(d.name, "su02-node-01");
    int found = 0;
    for (size_t i = 0; i < fp_plan_note_count(p); i++)
        if (strstr(fp_plan_note(p, i), "fabric.su_servers not given: 16-server scalable units") &&
            strstr(fp_plan_note(p, i), "a 32-server unit needs 32 leaves, more than the 16 down ports"))
            found = 1;
    cr_expect(found, "a note must say the unit was chosen and why");
    check_invariants(p);
    fp_plan_free(p);
    /* Given, the same 32-server unit stays an error. */
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":1024,\"nics_per_server\":8,\"nic\":\"generic-nic-2x400\"},"
                            "\"fabric\":{\"topology\":\"rail-optimized\",\"switch\":\"generic-th3-32x400\","
                            "\"su_servers\":32}}", &err),
                 FP_EDESIGN);
    cr_expect_str_eq(err.where, "/fabric/su_servers");
    cr_expect(strstr(err.msg, "32 leaves, more than the 16") != NULL, "%s", err.msg);
    /* Not given where 32 fits (QM9700, 8 single-port NICs: 8 leaves): 32 and no such note. */
    p = plan_from("{\"cluster\":{\"gpus\":1024}}");
    cr_expect_eq(tier_switches(p, 1), 32);
    for (size_t i = 0; i < fp_plan_note_count(p); i++)
        cr_expect(strstr(fp_plan_note(p, i), "su_servers not given") == NULL, "%s", fp_plan_note(p, i));
    fp_plan_free(p);
}
