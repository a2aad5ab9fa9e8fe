/* Benchmark: build a plan (which computes every metric) and time the max-flow bisection on its
 * graph alone; print times and peak RSS. Not a test: nothing here asserts on time.
 * usage: bench_metrics [GPUS [TIERS [TOPOLOGY]]]   (default 131072 4 clos) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include "analysis/graph.h"
#include "plan.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    const char *gpus = argc > 1 ? argv[1] : "131072", *tiers = argc > 2 ? argv[2] : "4";
    const char *topo = argc > 3 ? argv[3] : "clos";
    char json[256];
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    int64_t *s = NULL, *t = NULL;
    double flow = 0;
    int rc = 1;
    snprintf(json, sizeof json, "{\"cluster\":{\"gpus\":%s},\"fabric\":{\"tiers\":%s,\"topology\":\"%s\"}}",
             gpus, tiers, topo);
    double t0 = now();
    if (fp_catalog_new(&cat, &err) != FP_OK ||
        fp_spec_parse(&spec, json, strlen(json), "bench", &err) != FP_OK ||
        fp_plan_new(&plan, spec, cat, &err) != FP_OK)
        goto out;
    double t1 = now();
    if (fp__split_links(fp__plan_fabric(plan), fp__plan_analysis(plan), NULL, &s, &t, &err) != FP_OK ||
        fp__graph_bisection(fp__plan_fabric(plan), fp__plan_rspec(plan)->gbps, s, t, NULL, NULL, 0, &flow, &err) != FP_OK)
        goto out;
    double t2 = now();
    const char *fail[] = { "spine:1", "random-links:1%" };
    fp_failure_report rep;
    if (fp_plan_fail(&rep, plan, fail, 2, 1, &err) != FP_OK)
        goto out;
    double t3 = now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("spec %s\n", json);
    printf("switches %lld, links %lld\n", (long long)(fp__plan_fabric(plan)->n_dev - fp__plan_fabric(plan)->servers),
           (long long)fp__plan_fabric(plan)->n_link);
    printf("plan_new (build + all metrics): %.3f s\n", t1 - t0);
    printf("max-flow bisection alone:       %.3f s (%.0f Gb/s)\n", t2 - t1, flow);
    printf("failure what-if (2 specs):      %.3f s\n", t3 - t2);
    printf("peak RSS: %.1f MiB\n", ru.ru_maxrss / 1024.0);
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "bench_metrics: %s\n", err.msg);
    free(s);
    free(t);
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return rc;
}
