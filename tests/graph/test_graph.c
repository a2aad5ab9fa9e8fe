/* The igraph adapter, called directly: max-flow between chosen leaves, BFS eccentricity and
 * components, against hand-computed values on a full 2-tier fabric of 64-port switches
 * (64 leaves with 32 NICs and 32 uplinks each, 32 spines, one link per leaf-spine pair). */
#include <criterion/criterion.h>
#include "helpers.h"
#include "analysis.h"

#define TWO_TIER_64 "{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\",\"tiers\":2}}"

/* 32 NICs on leaf 0 send to the 32 on leaf 1: limited by 32 uplinks x 400 = 12,800 Gb/s.
 * With leaf 0's first 8 uplinks down: 24 x 400 = 9,600. */
Test(graph, maxflow_between_two_leaves)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    const fp_fabric *fab = &p->fab;
    int64_t s[64] = { 0 }, t[64] = { 0 };
    double flow = 0;
    fp_error err = { 0 };
    s[0] = 32;
    t[1] = 32;
    cr_assert_eq(fp__graph_bisection(fab, 400, s, t, NULL, &flow, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(flow, 12800.0, 1e-9);
    uint8_t *down = calloc((size_t)fab->n_link, 1);
    for (int i = 0; i < 8; i++)
        down[fab->boundary_base[1] + i] = 1;     /* leaf 0's uplinks come first */
    cr_assert_eq(fp__graph_bisection(fab, 400, s, t, down, &flow, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(flow, 9600.0, 1e-9);
    /* Nothing on one side: no flow. */
    int64_t none[64] = { 0 };
    cr_assert_eq(fp__graph_bisection(fab, 400, s, none, NULL, &flow, &err), FP_OK);
    cr_expect_float_eq(flow, 0.0, 1e-9);
    free(down);
    fp_plan_free(p);
}

/* Leaf to leaf is leaf-spine-leaf: 2 edges, 3 switches. */
Test(graph, eccentricity_and_components)
{
    fp_plan *p = plan_from(TWO_TIER_64);
    const fp_fabric *fab = &p->fab;
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
    cr_assert_eq(fp__graph_components(&p->fab, NULL, &comp, &n, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(n, 2);
    free(comp);
    /* Bisection of both planes together equals twice one plane's (analytic). */
    const fp_metrics *m = fp_plan_metrics(p);
    cr_expect_float_eq(m->bisection_gbps, m->bisection_maxflow_gbps, 1e-6);
    fp_plan_free(p);
}
