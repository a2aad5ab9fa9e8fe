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
    fp_collectives coll;    /* the expected collective bandwidth of the plan as built */
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
/* The devices and links the specs take down (a device down takes its links down too): two new
 * arrays of one byte per device and per link, which the caller frees. */
fp_status fp__failure_marks(const fp_stages *st, const char *const *specs, size_t n,
                            uint64_t seed, uint8_t **dev_down, uint8_t **link_down,
                            fp_error *err);
/* The expected collective bandwidth per placement scope (collectives.c) into *out: the plan as
 * built (link_down NULL) or with those links down; fabric_flow is the whole fabric's max-flow
 * on the bisection split in the same state (the metrics' or the what-if's). */
fp_status fp__collectives_run(fp_collectives *out, const fp_stages *st, const fp_analysis *an,
                              const uint8_t *link_down, double fabric_flow, fp_error *err);
/* Whether spec names something of the compute fabric (fp__failure_run would take it). */
int fp__failure_matches(const fp_stages *st, const char *spec);

#endif
