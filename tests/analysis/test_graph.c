/* The igraph adapter, called directly: max-flow between chosen leaves, BFS eccentricity and
 * components, against hand-computed values on a full 2-tier fabric of 64-port switches
 * (64 leaves with 32 NICs and 32 uplinks each, 32 spines, one link per leaf-spine pair). */
#include <criterion/criterion.h>
#include "helpers.h"
#include "analysis/graph.h"
#include "plan.h"

static const int g400[4] = { 400, 400, 400, 400 };   /* every boundary at 400G */

#define TWO_TIER_64 "{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\",\"tiers\":2}}"

/* 32 NICs on leaf 0 send to the 32 on leaf 1: limited by 32 uplinks x 400 = 12,800 Gb/s.
 * With leaf 0's first 8 uplinks down: 24 x 400 = 9,600. */
Test(graph, maxflow_between_two_leaves)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    const fp_fabric *fab = fp__plan_fabric(p);
    int64_t s[64] = { 0 }, t[64] = { 0 };
    double flow = 0;
    fp_error err = { 0 };
    s[0] = 32;
    t[1] = 32;
    cr_assert_eq(fp__graph_bisection(fab, g400, s, t, NULL, NULL, 0, &flow, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(flow, 12800.0, 1e-9);
    uint8_t *down = calloc((size_t)fab->n_link, 1);
    for (int i = 0; i < 8; i++)
        down[fab->boundary_base[1] + i] = 1;     /* leaf 0's uplinks come first */
    cr_assert_eq(fp__graph_bisection(fab, g400, s, t, down, NULL, 0, &flow, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(flow, 9600.0, 1e-9);
    /* Nothing on one side: no flow. */
    int64_t none[64] = { 0 };
    cr_assert_eq(fp__graph_bisection(fab, g400, s, none, NULL, NULL, 0, &flow, &err), FP_OK);
    cr_expect_float_eq(flow, 0.0, 1e-9);
    /* Only the links listed: leaf 0's uplinks to spines 1-8 and all of leaf 1's (one link to
     * each of the 32 spines): 8 leaf-spine-leaf paths x 400 = 3,200 Gb/s. An empty list leaves
     * the leaves apart: 0. */
    int64_t list[40], n = 0;
    for (int i = 0; i < 8; i++)
        list[n++] = fab->boundary_base[1] + i;
    for (int i = 0; i < 32; i++)
        list[n++] = fab->boundary_base[1] + 32 + i;
    cr_assert_eq(fp__graph_bisection(fab, g400, s, t, NULL, list, n, &flow, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(flow, 3200.0, 1e-9);
    cr_assert_eq(fp__graph_bisection(fab, g400, s, t, NULL, list, 0, &flow, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(flow, 0.0, 1e-9);
    free(down);
    fp_plan_free(p);
}

/* Leaf to leaf is leaf-spine-leaf: 2 edges, 3 switches. */
Test(graph, eccentricity_and_components)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    const fp_fabric *fab = fp__plan_fabric(p);
    fp_error err = { 0 };
    int64_t src = fab->tier_base[1];
    int sw = 0;
    cr_assert_eq(fp__graph_leaf_eccentricity(fab, &src, 1, &sw, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(sw, 3);
    int64_t *comp = NULL, n = 0;
    cr_assert_eq(fp__graph_components(fab, NULL, &comp, &n, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(n, 1);
    free(comp);
    /* All of leaf 0's uplinks down: it becomes its own component. */
    uint8_t *down = calloc((size_t)fab->n_link, 1);
    for (int i = 0; i < 32; i++)
        down[fab->boundary_base[1] + i] = 1;
    cr_assert_eq(fp__graph_components(fab, down, &comp, &n, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(n, 2);
    cr_expect_neq(comp[0], comp[1]);
    free(comp);
    free(down);
    fp_plan_free(p);
}

/* Two planes are two separate switch graphs (servers do not forward). */
Test(graph, planes_are_separate_components)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":512,\"nic\":\"generic-nic-2x400\"},\"fabric\":{\"topology\":\"clos\",\"planes\":2}}");
    int64_t *comp = NULL, n = 0;
    fp_error err = { 0 };
    cr_assert_eq(fp__graph_components(fp__plan_fabric(p), NULL, &comp, &n, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(n, 2);
    free(comp);
    /* Bisection of both planes together equals twice one plane's (analytic). */
    const fp_metrics *m = fp_plan_metrics(p);
    cr_expect_float_eq(m->bisection_gbps, m->bisection_maxflow_gbps, 1e-6);
    fp_plan_free(p);
}

/* Max-flow of a balanced split that fills each plane's half from leaves in the given order
 * (whole leaves first; the last one split), so it can be compared with the reported one. */
static double flow_of_order(const fp_plan *p, const int64_t *order)
{
    const fp_fabric *fab = fp__plan_fabric(p);
    int64_t per_plane = fab->level[1].switches, n = per_plane * fab->planes;
    int64_t *ep = calloc((size_t)n, sizeof *ep), *s = calloc((size_t)n, sizeof *s),
            *t = calloc((size_t)n, sizeof *t);
    double flow = -1;
    fp_error err = { 0 };
    for (int64_t i = 0; i < fab->boundary_base[1]; i++)
        ep[fab->link[i].z - fab->tier_base[1]]++;
    for (int pl = 0; pl < fab->planes; pl++) {
        int64_t total = 0, left;
        for (int64_t b = 0; b < per_plane; b++)
            total += ep[pl * per_plane + b];
        left = total / 2;
        for (int64_t k = 0; k < per_plane; k++) {
            int64_t l = pl * per_plane + order[k];
            s[l] = left < ep[l] ? left : ep[l];
            t[l] = ep[l] - s[l];
            left -= s[l];
        }
    }
    cr_assert_eq(fp__graph_bisection(fab, fp__plan_rspec(p)->gbps, s, t, NULL, NULL, 0, &flow, &err), FP_OK, "%s",
                 err.msg);
    free(ep);
    free(s);
    free(t);
    return flow;
}

/* The reported split is the worst balanced one: no other balanced split (leaves in random
 * order, even leaves before odd ones, and whole pods or SUs in another order) has a smaller
 * max-flow on the same graph. The designs include odd and partial blocks and oversubscribed
 * spines, where a whole-block split cannot halve the endpoints. */
Test(graph, reported_split_is_the_worst)
{
    const char *specs[] = {
        "{\"cluster\":{\"gpus\":768},\"fabric\":{\"topology\":\"rail-optimized\"}}",
        "{\"cluster\":{\"gpus\":4432},\"fabric\":{\"topology\":\"clos\",\"tiers\":3,\"oversubscription\":[1,2]}}",
        "{\"cluster\":{\"gpus\":3000},\"fabric\":{\"topology\":\"clos\",\"tiers\":3,\"oversubscription\":[1,3]}}",
        "{\"cluster\":{\"gpus\":20000},\"fabric\":{\"topology\":\"rail-optimized\",\"oversubscription\":[1,2]}}",
        "{\"cluster\":{\"gpus\":9000},\"fabric\":{\"topology\":\"clos\",\"tiers\":4,\"switch\":\"generic-th3-32x400\",\"oversubscription\":[1,1,2]}}",
        "{\"cluster\":{\"gpus\":2048,\"nic\":\"generic-nic-2x400\"},\"fabric\":{\"topology\":\"clos\",\"tiers\":3,\"planes\":2,\"oversubscription\":[2,1]}}",
    };
    uint64_t state = 42;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        fp_plan *p = plan_from(specs[i]);
        const fp_metrics *m = fp_plan_metrics(p);
        int64_t n = fp__plan_fabric(p)->level[1].switches, *order = calloc((size_t)n, sizeof *order);
        cr_expect_float_eq(m->bisection_gbps, m->bisection_maxflow_gbps, 1e-6, "%s", specs[i]);
        for (int trial = 0; trial < 6; trial++) {
            for (int64_t k = 0; k < n; k++)
                order[k] = k;
            if (trial == 0) /* even leaves, then odd ones */
                for (int64_t k = 0; k < n; k++)
                    order[k] = k < (n + 1) / 2 ? 2 * k : 2 * (k - (n + 1) / 2) + 1;
            else if (trial == 1) /* the second half of the leaves first */
                for (int64_t k = 0; k < n; k++)
                    order[k] = (k + n / 2) % n;
            else /* random */
                for (int64_t k = n - 1; k > 0; k--) {
                    int64_t j = (int64_t)(fp__rand_next(&state) % (uint64_t)(k + 1)), x = order[k];
                    order[k] = order[j];
                    order[j] = x;
                }
            double other = flow_of_order(p, order);
            cr_expect(other >= m->bisection_maxflow_gbps - 1e-6,
                      "%s: split %d has %.0f < reported %.0f (%s)", specs[i], trial, other,
                      m->bisection_maxflow_gbps, m->split);
        }
        free(order);
        fp_plan_free(p);
    }
}
