/* Benchmark: write plan.xlsx alone (no other document) and report the time and peak RSS of the
 * planning and of the workbook separately.
 * Usage: bench_xlsx [GPUS] [TIERS] [OUTDIR]   (default 131072 GPUs, 4 tiers, clos) */
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

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

int main(int argc, char **argv)
{
    long gpus = argc > 1 ? atol(argv[1]) : 131072;
    int tiers = argc > 2 ? atoi(argv[2]) : 4;
    const char *out = argc > 3 ? argv[3] : "/tmp/fabplan-bench-xlsx";
    char json[256];
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_XLSX;
    snprintf(json, sizeof json,
             "{\"cluster\":{\"gpus\":%ld},\"fabric\":{\"topology\":\"clos\",\"tiers\":%d}}", gpus,
             tiers);
    double t0 = now();
    if (fp_catalog_new(&cat, &err) || fp_spec_parse(&spec, json, strlen(json), "bench", &err) ||
        fp_plan_new(&plan, spec, cat, &err)) {
        fprintf(stderr, "bench_xlsx: %s\n", err.msg);
        return 1;
    }
    double t1 = now(), rss_plan = peak_mib();
    if (fp_plan_write(plan, out, &o, &err)) {
        fprintf(stderr, "bench_xlsx: %s (%s)\n", err.msg, err.where);
        return 1;
    }
    double t2 = now();
    printf("gpus %ld tiers %d cables %zu\nplan %.3f s (peak %.1f MiB)\nplan.xlsx %.3f s (peak %.1f "
           "MiB)\n",
           gpus, tiers, fp_plan_cable_count(plan), t1 - t0, rss_plan, t2 - t1, peak_mib());
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return 0;
}
