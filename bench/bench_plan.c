/* Benchmark: plan a fabric (the CLI's default preset with --gpus/--tiers/--topology clos applied)
 * and write its documents one format at a time; prints wall time per stage and peak RSS.
 * Usage: bench_plan [GPUS] [TIERS] [OUTDIR] [--xlsx]
 * Defaults: 131072 GPUs, 4 tiers, /tmp/fabplan-bench. The workbook (plan.xlsx) is skipped
 * unless --xlsx is given: bench_xlsx measures it on its own. Each stage is one fp_plan_write call
 * with one format bit, so a stage's time includes its temp-file write and rename. */
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

/* CPU seconds of this process (user + system): steadier than wall time on a shared machine. */
static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static double peak_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

static const struct stage {
    const char *name;
    unsigned formats;
} stages[] = {
    { "plan.json", FP_WRITE_JSON },
    { "links.csv", FP_WRITE_LINKS },
    { "cables.csv", FP_WRITE_CABLES },
    { "bom.csv", FP_WRITE_BOM },
    { "labels.csv", FP_WRITE_LABELS },
    { "netbox-cables.csv", FP_WRITE_NETBOX },
    { "topology.csv", FP_WRITE_TOPOLOGY },
    { "fabric.dot/.svg", FP_WRITE_OVERVIEW },
    { "detail .dot/.svg", FP_WRITE_DETAIL },
    { "floor.dot/.svg", FP_WRITE_FLOOR },
    { "plan.xlsx", FP_WRITE_XLSX },
};

int main(int argc, char **argv)
{
    long gpus = 131072;
    int tiers = 4, xlsx = 0, positional = 0;
    const char *out = "/tmp/fabplan-bench";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--xlsx") == 0)
            xlsx = 1;
        else if (positional == 0 && ++positional)
            gpus = atol(argv[i]);
        else if (positional == 1 && ++positional)
            tiers = atoi(argv[i]);
        else
            out = argv[i];
    }
    char gpus_s[32], tiers_s[16];
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    snprintf(gpus_s, sizeof gpus_s, "%ld", gpus);
    snprintf(tiers_s, sizeof tiers_s, "%d", tiers);
    double t0 = now(), c0 = cpu_now();
    if (fp_catalog_new(&cat, &err) || fp_spec_preset(&spec, "default", &err) ||
        fp_spec_set(spec, "/cluster/gpus", gpus_s, &err) ||
        fp_spec_set(spec, "/fabric/tiers", tiers_s, &err) ||
        fp_spec_set(spec, "/fabric/topology", "clos", &err) || fp_plan_new(&plan, spec, cat, &err)) {
        fprintf(stderr, "bench_plan: %s\n", err.msg);
        return 1;
    }
    double t1 = now(), c1 = cpu_now();
    fp_summary s;
    fp_plan_summary(plan, &s);
    printf("gpus %ld tiers %d switches %lld links %lld\n", gpus, s.tiers, (long long)s.switches,
           (long long)s.links);
    printf("%-20s %8s %8s  %s\n", "stage", "wall s", "cpu s", "peak RSS");
    printf("%-20s %8.3f %8.3f  %7.1f MiB\n", "plan (build)", t1 - t0, c1 - c0, peak_rss_mib());
    double total = t1 - t0, total_cpu = c1 - c0;
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
        if (stages[i].formats == FP_WRITE_XLSX && !xlsx)
            continue;
        fp_write_options wo = FP_WRITE_OPTIONS_INIT;
        wo.formats = stages[i].formats;
        double a = now(), ca = cpu_now();
        if (fp_plan_write(plan, out, &wo, &err)) {
            fprintf(stderr, "bench_plan: %s: %s\n", stages[i].name, err.msg);
            return 1;
        }
        double b = now(), cb = cpu_now();
        total += b - a;
        total_cpu += cb - ca;
        printf("%-20s %8.3f %8.3f  %7.1f MiB\n", stages[i].name, b - a, cb - ca, peak_rss_mib());
    }
    printf("%-20s %8.3f %8.3f\n", "total", total, total_cpu);
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return 0;
}
