/* Expected collective bandwidth per placement scope (fp_plan_collectives, plan.json
 * "collectives", report.html): every figure is derived by hand in the comments from the NIC
 * rate, the ratio in use and n, with the nccl-tests definitions (doc/PERFORMANCE.md):
 *   busbw = algbw x 2(n-1)/n (all-reduce), x (n-1)/n (all-gather, reduce-scatter, all-to-all),
 * so a per-GPU bandwidth B (Gb/s) gives busbw B / 8 GB/s and algbw busbw / factor, and NCCL's
 * alpha terms (tuning.cc, Simple protocol):
 *   ring all-reduce  8.4 + (2(n-1) - 2N) x 3.4 + 2N x 14      (N servers)
 *   ring all-gather  8.4 + (n - N) x 3.4 + (N - 1) x 14
 *   tree all-reduce  2 ((n/N - 1) x 28 + floor(log2 N) x 28). */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include "helpers.h"

#define BIN FP_TEST_BIN_DIR "/src/fabplan"

/* The default fabric (rail-optimized DGX H100: 8 GPUs and 8 x 400G ports per server, 32-server
 * scalable units of 8 rail leaves, 64-port switches). */
#define G1024 "{\"cluster\":{\"gpus\":1024}}"
#define G1024_2 "{\"cluster\":{\"gpus\":1024},\"fabric\":{\"oversubscription\":2}}"
#define G16384 "{\"cluster\":{\"gpus\":16384}}"
#define G16384_2 "{\"cluster\":{\"gpus\":16384},\"fabric\":{\"oversubscription\":2}}"

static fp_collectives table_of(const fp_plan *p, const fp_failure_report *f)
{
    fp_collectives c;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_collectives(&c, p, f, &err), FP_OK, "%s", err.msg);
    return c;
}

static fp_failure_report fail_spec(fp_plan *p, const char *spec)
{
    fp_failure_report r;
    fp_error err = { 0 };
    const char *specs[] = { spec };
    cr_assert_eq(fp_plan_fail(&r, p, specs, 1, 1, &err), FP_OK, "%s", err.msg);
    return r;
}

/* One row: scope, GPUs, servers, tiers crossed and B (Gb/s per GPU); then the ceilings that
 * follow from B and n by the definitions above, computed here again from the hand figures. */
static void expect_row(const fp_collective_scope *r, const char *scope, int64_t n, int64_t nodes,
                       int crossed, double b)
{
    const double dn = (double)n;
    cr_expect_str_eq(r->scope, scope);
    cr_expect_eq(r->gpus, n, "%s: %lld GPUs", scope, (long long)r->gpus);
    cr_expect_eq(r->servers, nodes, "%s: %lld servers", scope, (long long)r->servers);
    cr_expect_eq(r->tiers_crossed, crossed, "%s: %d tiers crossed", scope, r->tiers_crossed);
    cr_expect_float_eq(r->gbps, b, 1e-9, "%s: B %.6f, expected %.6f", scope, r->gbps, b);
    cr_expect_float_eq(r->allreduce_busbw, b / 8, 1e-9);
    cr_expect_float_eq(r->allgather_busbw, b / 8, 1e-9);
    cr_expect_float_eq(r->allreduce_algbw, b / 8 * dn / (2 * (dn - 1)), 1e-9);
    cr_expect_float_eq(r->allgather_algbw, b / 8 * dn / (dn - 1), 1e-9);
    cr_expect_float_eq(r->alltoall_algbw, r->alltoall_busbw * dn / (dn - 1), 1e-9);
}

static void expect_alpha(const fp_collective_scope *r, double ring_ar, double ring_ag, double tree)
{
    cr_expect_float_eq(r->ring_allreduce_us, ring_ar, 1e-6, "%s: ring %.3f", r->scope, r->ring_allreduce_us);
    cr_expect_float_eq(r->ring_allgather_us, ring_ag, 1e-6, "%s: ring ag %.3f", r->scope, r->ring_allgather_us);
    cr_expect_float_eq(r->tree_allreduce_us, tree, 1e-6, "%s: tree %.3f", r->scope, r->tree_allreduce_us);
}

/* 1,024 GPUs = 128 servers = 4 SUs of 32, 2 tiers. A rail leaf holds one 400G port of each of
 * its SU's 32 servers and has 32 uplinks (1:1); 32 leaves x 32 = 1,024 uplinks on 16 spines,
 * 2 links from every leaf to every spine.
 * - SU (256 GPUs, 32 servers): every rail on one leaf, so no tier is crossed; each GPU has one
 *   400G port: B = 400, busbw 50 GB/s; algbw 50 x 256/510 = 25.098 (all-reduce),
 *   50 x 256/255 (all-gather). All-to-all: a GPU sends (256 - 8)/256 of its data through its
 *   NIC (the 8 GPUs of its server are NVLink peers): busbw <= 400 x 255/248 / 8 = 51.411;
 *   the halves' bisection allows 400 x 255/128, more.
 *   Alphas (n 256, N 32): ring all-reduce 8.4 + (510 - 64) x 3.4 + 64 x 14 = 2,420.8;
 *   all-gather 8.4 + 224 x 3.4 + 31 x 14 = 1,204; tree 2 (7 x 28 + 5 x 28) = 672.
 * - fabric (1,024 GPUs, 128 servers): 1 tier crossed; uplinks 32 x 400 / 32 ports = 400 per
 *   GPU; bisection 512 x 400 / 512 = 400: B = 400. Alphas (n 1024, N 128): ring
 *   8.4 + (2046 - 256) x 3.4 + 256 x 14 = 9,678.4; all-gather 8.4 + 896 x 3.4 + 127 x 14 =
 *   4,832.8; tree 2 (7 x 28 + 7 x 28) = 784. */
Test(collectives, gpus_1024)
{
    fp_plan *p = plan_from(G1024);
    fp_collectives c = table_of(p, NULL);
    cr_assert_eq(c.n_scopes, 2);
    cr_expect_eq(c.failures, 0);
    expect_row(&c.scope[0], "su", 256, 32, 0, 400);
    cr_expect_str_eq(c.scope[0].block, "SU 1");
    cr_expect_float_eq(c.scope[0].nic_gbps, 400, 1e-9);
    cr_expect_float_eq(c.scope[0].bisection_gbps, 400, 1e-9);
    cr_expect_float_eq(c.scope[0].allreduce_algbw, 50.0 * 256 / 510, 1e-9);
    cr_expect_float_eq(c.scope[0].alltoall_busbw, 400.0 * 255 / 248 / 8, 1e-9);
    expect_alpha(&c.scope[0], 2420.8, 1204, 672);
    expect_row(&c.scope[1], "fabric", 1024, 128, 1, 400);
    cr_expect_float_eq(c.scope[1].uplink_gbps[0], 400, 1e-9);
    cr_expect_float_eq(c.scope[1].bisection_gbps, 400, 1e-9);
    expect_alpha(&c.scope[1], 9678.4, 4832.8, 784);
    fp_plan_free(p);
}

/* 2:1 at the leaf: a rail leaf keeps 32 ports down and 16 up. The SU's traffic stays on its
 * leaves (B = 400, as before); the fabric's crosses them: 16 x 400 / 32 = 200 per GPU, and the
 * bisection 16 leaves x 16 x 400 / 512 GPUs = 200: B = 200, busbw 25 GB/s, half of 1:1.
 * All-to-all: a GPU's data leaves its 32-GPU leaf for (1024 - 32)/1024 of the destinations:
 * 200 x 1023/992 / 8 = 25.781 GB/s. */
Test(collectives, gpus_1024_oversubscribed)
{
    fp_plan *p = plan_from(G1024_2);
    fp_collectives c = table_of(p, NULL);
    cr_assert_eq(c.n_scopes, 2);
    expect_row(&c.scope[0], "su", 256, 32, 0, 400);
    expect_row(&c.scope[1], "fabric", 1024, 128, 1, 200);
    cr_expect_float_eq(c.scope[1].uplink_gbps[0], 200, 1e-9);
    cr_expect_float_eq(c.scope[1].bisection_gbps, 200, 1e-9);
    cr_expect_float_eq(c.scope[1].alltoall_busbw, 200.0 * 1023 / 992 / 8, 1e-9);
    fp_plan_free(p);
}

/* spine:1 down: every leaf loses its 2 links to it, 30 of 32 uplinks left: 30 x 400 / 32 =
 * 375 per GPU in the fabric (and the what-if's bisection, 16 x 30 x 400 = 192,000 Gb/s over
 * 512 GPUs, is 375 too): busbw 46.875 GB/s. The SU's traffic never reaches a spine: 400. */
Test(collectives, gpus_1024_spine_failed)
{
    fp_plan *p = plan_from(G1024);
    fp_failure_report r = fail_spec(p, "spine:1");
    cr_expect_float_eq(r.bisection_after_gbps, 192000, 1e-6);
    fp_collectives c = table_of(p, &r);
    cr_assert_eq(c.n_scopes, 2);
    cr_expect_eq(c.failures, 1);
    expect_row(&c.scope[0], "su", 256, 32, 0, 400);
    expect_row(&c.scope[1], "fabric", 1024, 128, 1, 375);
    cr_expect_float_eq(c.scope[1].bisection_gbps, 375, 1e-9);
    cr_expect_float_eq(c.scope[1].allreduce_busbw, 46.875, 1e-9);
    /* The table of the plan as built is unchanged by the what-if. */
    cr_expect_float_eq(table_of(p, NULL).scope[1].gbps, 400, 1e-9);
    fp_plan_free(p);
}

/* 16,384 GPUs = 2,048 servers = 64 SUs, 3 tiers: pods of 4 SUs (1,024 GPUs, 32 leaves), each
 * leaf one link to each of its pod's 32 spines; 16 pods.
 * - SU: as at 1,024 GPUs (256 GPUs, 32 servers, B 400).
 * - pod: 1,024 GPUs, 128 servers, 1 tier crossed: 32 x 400 / 32 = 400. Alphas as the 1,024-GPU
 *   fabric's (same n and N): 9,678.4, 4,832.8, 784.
 * - fabric: 16,384 GPUs, 2,048 servers, 2 tiers crossed, [400, 400]; bisection 8 pods x 1,024
 *   x 400 / 8,192 = 400. Alphas (n 16384, N 2048): ring 8.4 + (32766 - 4096) x 3.4 + 4096 x 14
 *   = 154,830.4; all-gather 8.4 + 14336 x 3.4 + 2047 x 14 = 77,408.8; tree
 *   2 (7 x 28 + 11 x 28) = 1,008. */
Test(collectives, gpus_16384)
{
    fp_plan *p = plan_from(G16384);
    fp_collectives c = table_of(p, NULL);
    cr_assert_eq(c.n_scopes, 3);
    expect_row(&c.scope[0], "su", 256, 32, 0, 400);
    expect_row(&c.scope[1], "pod", 1024, 128, 1, 400);
    cr_expect_str_eq(c.scope[1].block, "pod 1");
    expect_alpha(&c.scope[1], 9678.4, 4832.8, 784);
    expect_row(&c.scope[2], "fabric", 16384, 2048, 2, 400);
    cr_expect_float_eq(c.scope[2].uplink_gbps[0], 400, 1e-9);
    cr_expect_float_eq(c.scope[2].uplink_gbps[1], 400, 1e-9);
    cr_expect_float_eq(c.scope[2].bisection_gbps, 400, 1e-9);
    expect_alpha(&c.scope[2], 154830.4, 77408.8, 1008);
    fp_plan_free(p);
}

/* 2:1 at the leaf (the spines stay 1:1 and pass the leaves' 16 uplinks each on): pod and fabric
 * 16 x 400 / 32 = 200 per GPU at the leaves, and the pods' spines carry 32 x 16 links up for
 * 1,024 ports: 200 again. Busbw 25 GB/s, half of 1:1; the SU keeps 50. All-to-all in the
 * fabric: the leaf level, 200 x 16383/(16384 - 32) / 8 = 25.047 GB/s (the pod level allows
 * 200 x 16383/15360 / 8, more). */
Test(collectives, gpus_16384_oversubscribed)
{
    fp_plan *p = plan_from(G16384_2);
    fp_collectives c = table_of(p, NULL);
    cr_assert_eq(c.n_scopes, 3);
    expect_row(&c.scope[0], "su", 256, 32, 0, 400);
    expect_row(&c.scope[1], "pod", 1024, 128, 1, 200);
    expect_row(&c.scope[2], "fabric", 16384, 2048, 2, 200);
    cr_expect_float_eq(c.scope[2].uplink_gbps[1], 200, 1e-9);
    cr_expect_float_eq(c.scope[2].alltoall_busbw, 200.0 * 16383 / 16352 / 8, 1e-9);
    fp_plan_free(p);
}

/* spine:1 is pod 1's first spine: pod 1's 32 leaves keep 31 of 32 uplinks (387.5 per GPU) and
 * its spines 31 x 32 of 1,024 links up (387.5 again). The pod row is pod 1, the worst: B 387.5,
 * busbw 48.4375 GB/s. The fabric row: uplinks [387.5, 387.5] of the worst pod; bisection
 * (7 x 1,024 x 400 + 1,024 x 387.5) / 8,192 = 398.4375; B = 387.5. */
Test(collectives, gpus_16384_spine_failed)
{
    fp_plan *p = plan_from(G16384);
    fp_failure_report r = fail_spec(p, "spine:1");
    cr_expect_float_eq(r.bisection_after_gbps, 7 * 1024 * 400.0 + 1024 * 387.5, 1e-6);
    fp_collectives c = table_of(p, &r);
    cr_assert_eq(c.n_scopes, 3);
    expect_row(&c.scope[0], "su", 256, 32, 0, 400);
    expect_row(&c.scope[1], "pod", 1024, 128, 1, 387.5);
    cr_expect_str_eq(c.scope[1].block, "pod 1");
    cr_expect_float_eq(c.scope[1].allreduce_busbw, 48.4375, 1e-9);
    expect_row(&c.scope[2], "fabric", 16384, 2048, 2, 387.5);
    cr_expect_float_eq(c.scope[2].uplink_gbps[0], 387.5, 1e-9);
    cr_expect_float_eq(c.scope[2].uplink_gbps[1], 387.5, 1e-9);
    cr_expect_float_eq(c.scope[2].bisection_gbps, 398.4375, 1e-9);
    /* A spine of another pod: pod 1 is whole, the worst pod is the one hit (pod 2: its first
     * spine is the 33rd). */
    r = fail_spec(p, "spine:33");
    c = table_of(p, &r);
    cr_expect_str_eq(c.scope[1].block, "pod 2");
    cr_expect_float_eq(c.scope[1].gbps, 387.5, 1e-9);
    fp_plan_free(p);
}

/* Clos, 2 tiers of 64 ports: a leaf holds 4 servers (32 ports). Same leaf: 32 GPUs, 4 servers,
 * no tier crossed, B 400; all-to-all 400 x 31/24 / 8 = 64.583 (24 of 32 peers off the server).
 * Alphas (n 32, N 4): ring 8.4 + (62 - 8) x 3.4 + 8 x 14 = 304; all-gather
 * 8.4 + 28 x 3.4 + 3 x 14 = 145.6; tree 2 (7 x 28 + 2 x 28) = 504. */
Test(collectives, clos_same_leaf)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\",\"tiers\":2}}");
    fp_collectives c = table_of(p, NULL);
    cr_assert_eq(c.n_scopes, 2);
    expect_row(&c.scope[0], "leaf", 32, 4, 0, 400);
    cr_expect_str_eq(c.scope[0].block, "leaf-01");
    cr_expect_float_eq(c.scope[0].alltoall_busbw, 400.0 * 31 / 24 / 8, 1e-9);
    expect_alpha(&c.scope[0], 304, 145.6, 504);
    expect_row(&c.scope[1], "fabric", 2048, 256, 1, 400);
    /* leaf:1 down: its 4 servers have no port left, so the worst GPU gets 0 everywhere. */
    fp_failure_report r = fail_spec(p, "leaf:1");
    c = table_of(p, &r);
    cr_expect_float_eq(c.scope[0].gbps, 0, 1e-9);
    cr_expect_float_eq(c.scope[1].nic_gbps, 0, 1e-9);
    fp_plan_free(p);
}

/* Two planes, a 2 x 400G NIC per GPU, one port in each plane: a GPU's figures count both ports,
 * 800 Gb/s per GPU (busbw 100 GB/s), and the leaf scope is the 4 servers on plane 1's leaf 1
 * (and the same ports' leaf of plane 2). */
Test(collectives, planes_add)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":512,\"nic\":\"generic-nic-2x400\"},"
                           "\"fabric\":{\"topology\":\"clos\",\"planes\":2}}");
    fp_collectives c = table_of(p, NULL);
    cr_assert_eq(c.n_scopes, 2);
    expect_row(&c.scope[0], "leaf", 32, 4, 0, 800);
    cr_expect_str_eq(c.scope[0].block, "pl1-leaf-01");
    expect_row(&c.scope[1], "fabric", 512, 64, 1, 800);
    cr_expect_float_eq(c.scope[1].allreduce_busbw, 100, 1e-9);
    fp_plan_free(p);
}

/* Edges. A 1-leaf fabric (32 GPUs, 4 servers on one leaf): the leaf is the whole fabric, so the
 * table is the fabric row alone, no tier crossed. One GPU per server (1 x 400G NIC): n = N, and
 * NCCL's 2(n-1) - 2N ring steps inside servers would be -2: none (8.4 + 2N x 14). A one-server
 * cluster: no scope holds two servers. */
Test(collectives, edges)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":32},\"fabric\":{\"topology\":\"clos\"}}");
    fp_collectives c = table_of(p, NULL);
    cr_assert_eq(c.n_scopes, 1);
    expect_row(&c.scope[0], "fabric", 32, 4, 0, 400);
    fp_plan_free(p);

    /* 64 one-GPU servers on 2-tier Clos leaves of 32 ports: a leaf holds 32 servers (32 GPUs).
     * Ring all-reduce 8.4 + 0 + 64 x 14 = 904.4; all-gather 8.4 + 0 + 31 x 14 = 442.4; tree
     * 2 (0 + 5 x 28) = 280. All-to-all: every peer is off the server: 400 x 31/31 / 8 = 50. */
    p = plan_from("{\"cluster\":{\"gpus\":64,\"gpus_per_server\":1,\"nic\":{\"ports\":1,\"port_gbps\":400}},"
                  "\"fabric\":{\"topology\":\"clos\",\"tiers\":2}}");
    c = table_of(p, NULL);
    cr_assert_eq(c.n_scopes, 2);
    expect_row(&c.scope[0], "leaf", 32, 32, 0, 400);
    expect_alpha(&c.scope[0], 904.4, 442.4, 280);
    cr_expect_float_eq(c.scope[0].alltoall_busbw, 50, 1e-9);
    fp_plan_free(p);

    p = plan_from("{\"cluster\":{\"gpus\":8},\"fabric\":{\"topology\":\"clos\"}}");
    c = table_of(p, NULL);
    cr_expect_eq(c.n_scopes, 0);
    fp_plan_free(p);
}

Test(collectives, errors)
{
    fp_error err = { 0 };
    fp_collectives c;
    fp_plan *p = plan_from(G1024);
    cr_expect_eq(fp_plan_collectives(NULL, p, NULL, &err), FP_EINVAL);
    cr_expect_eq(fp_plan_collectives(&c, NULL, NULL, &err), FP_EINVAL);
    /* A report whose spec this plan does not have. */
    fp_failure_report r = fail_spec(p, "spine:1");
    snprintf(r.specs[0], sizeof r.specs[0], "spine:999");
    memset(&err, 0, sizeof err);        /* the first error is kept: start afresh */
    cr_expect_eq(fp_plan_collectives(&c, p, &r, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "spine:999") != NULL, "%s", err.msg);
    fp_plan_free(p);
    /* Without the metrics stage. */
    p = plan_with_stages(G1024, FP_STAGE_FABRIC);
    cr_expect_eq(fp_plan_collectives(&c, p, NULL, &err), FP_ESTAGE);
    fp_plan_free(p);
}

/* The CLI's flags reach the table: --oversubscription 2 halves the fabric row of plan.json
 * (busbw 25 GB/s, as gpus_1024_oversubscribed derives), --fail spine:1 adds failure.collectives
 * (derived below), and report.html carries both tables with a row per scope. */
Test(collectives, plan_json_and_report)
{
    char dir[512], cmd[1400], out[4096], path[600];
    scratch_dir(dir, sizeof dir, "coll");
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 1024 --oversubscription 2 --fail spine:1 "
             "--formats json,report -q -o %s", dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *text = slurp(path);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root);
    cJSON *scopes = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "collectives"), "scopes");
    cr_assert_eq(cJSON_GetArraySize(scopes), 2);
    cJSON *fab = cJSON_GetArrayItem(scopes, 1);
    cr_expect_str_eq(cJSON_GetObjectItem(fab, "scope")->valuestring, "fabric");
    cr_expect_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(fab, "busbw_gbyte_s"), "all_reduce")->valuedouble,
                       25.0, 1e-9);
    cJSON *fs = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "failure"), "collectives"),
                                    "scopes");
    cr_assert_eq(cJSON_GetArraySize(fs), 2);
    /* 2:1 and spine:1: 32 leaves x 16 uplinks = 512 links on 8 spines of 64 ports, 2 from
     * every leaf to each; spine 1 takes 2 of a leaf's 16: 14 x 400 / 32 = 175 per GPU. */
    cr_expect_float_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(fs, 1), "gbps_per_gpu")->valuedouble,
                       175.0, 1e-9);
    cJSON_Delete(root);
    free(text);
    snprintf(path, sizeof path, "%s/report.html", dir);
    text = slurp(path);
    cr_expect(strstr(text, "<table id=\"collectives\">") != NULL);
    cr_expect(strstr(text, "<table id=\"collectives-failure\">") != NULL);
    int rows = 0;
    for (const char *q = text; (q = strstr(q, "<tr data-scope=\"fabric\">")) != NULL; q++)
        rows++;
    cr_expect_eq(rows, 2);
    free(text);
    scratch_remove_all();
}
