/* Benchmark: plan a fabric and write its documents; prints wall time per stage and peak RSS.
 * Usage: bench_plan [GPUS] [TIERS] [OUTDIR]   (default 131072 GPUs, 4 tiers, clos, 64-port) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "fabplan.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long gpus = argc > 1 ? atol(argv[1]) : 131072;
    int tiers = argc > 2 ? atoi(argv[2]) : 4;
    const char *out = argc > 3 ? argv[3] : "/tmp/fabplan-bench";
    char json[256];
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    snprintf(json, sizeof json,
             "{\"cluster\":{\"gpus\":%ld},\"fabric\":{\"topology\":\"clos\",\"tiers\":%d,\"switch\":\"nvidia-qm9700\"}}",
             gpus, tiers);
    double t0 = now();
    if (fp_catalog_new(&cat, &err) || fp_spec_parse(&spec, json, strlen(json), "bench", &err) ||
        fp_plan_new(&plan, spec, cat, &err)) {
        fprintf(stderr, "bench_plan: %s\n", err.msg);
        return 1;
    }
    double t1 = now();
    if (fp_plan_write(plan, out, NULL, &err)) {
        fprintf(stderr, "bench_plan: %s\n", err.msg);
        return 1;
    }
    double t2 = now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fp_summary s;
    fp_plan_summary(plan, &s);
    printf("gpus %ld tiers %d switches %lld links %lld\nplan %.3f s\nwrite %.3f s\npeak_rss %.1f MiB\n",
           gpus, s.tiers, (long long)s.switches, (long long)s.links, t1 - t0, t2 - t1,
           ru.ru_maxrss / 1024.0);
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return 0;
}
