/* fabplan — private: the analysis stage's result (metrics.c, failure.c): the metrics of a built
 * plan and the bisection split kept for failure what-ifs. It reads the stages before it and
 * writes none of them. */
#ifndef FP_PRIVATE_ANALYSIS_ANALYSIS_H
#define FP_PRIVATE_ANALYSIS_ANALYSIS_H

#include "phys/phys.h"

/* The built stages the analysis reads (borrowed, all const). */
typedef struct fp_stages {
    const fp_rspec *rs;
    const fp_fabric *fab;
    const fp_layout *lay;
    const fp_cabling *cab;
    const fp_bom *bom;
} fp_stages;

typedef struct fp_analysis {
    fp_metrics m;
    /* The bisection split, kept for failure what-ifs: side of every NIC-leaf link
     * (boundary 0, all planes): 1 = source half, 2 = sink half. */
    uint8_t *nic_side;
} fp_analysis;

/* compare.c: the refusal by arithmetic: resolve spec and size its tiers (ports per tier, tier
 * count, capacity against the cluster) without building anything. FP_OK when a plan may be
 * built; else the status and message fp_plan_new fails with for this spec. */
fp_status fp__compare_refuse(const fp_catalog *cat, const fp_spec *spec, fp_error *err);

/* Compute the metrics into a new *out, in two parts: first what reads only the fabric and the
 * resolved spec (st->rs, st->fab: bisection, max-flow, diameter, hops; *out is set before any
 * failure, so the caller frees it with fp__analysis_free either way), which may run on another
 * thread while the layout, cabling and BOM are built; then the reliability, from st->bom. */
fp_status fp__analysis_fabric(fp_analysis **out, const fp_stages *st, fp_error *err);
fp_status fp__analysis_bom(fp_analysis *an, const fp_stages *st, fp_error *err);
void fp__analysis_free(fp_analysis *an);

/* A failure what-if on the built stages (failure.c): specs as fp_plan_fail documents them.
 * Fills *out; changes nothing else. */
fp_status fp__failure_run(fp_failure_report *out, const fp_stages *st, const fp_analysis *an,
                          const char *const *specs, size_t n, uint64_t seed, fp_error *err);
/* Whether spec names something of the compute fabric (fp__failure_run would take it). */
int fp__failure_matches(const fp_stages *st, const char *spec);

#endif
