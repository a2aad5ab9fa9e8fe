/* fabplan — private to plan.c and the read-back files (plan_read.c, plan_cables.c): what a
 * plan holds. Every other file reads a plan through plan.h or the public getters. */
#ifndef FP_PRIVATE_PLAN_DATA_H
#define FP_PRIVATE_PLAN_DATA_H

#include "plan.h"

#define FP_MAX_FAIL_SPECS 32

struct fp_plan {
    fp_rspec rs;                /* spec stage (sized by the fabric stage's fp__clos_size) */
    fp_fabric fab;              /* fabric stage */
    fp_layout lay;              /* phys stage: racks, const once built */
    fp_names names;             /* phys stage: device names and locations, formatted once */
    fp_cabling cab;             /* phys stage: media, cables, rack power */
    fp_bom bom;                 /* phys stage */
    fp_analysis *an;            /* analysis stage: metrics */
    int has_growth;             /* fabric.build_for_gpus > cluster.gpus (plan_growth.c) */
    fp_growth growth;
    /* The last failure what-if (fp_plan_fail). */
    int has_failure;
    fp_failure_report failure;
    char fail_specs[FP_MAX_FAIL_SPECS][64];
};

/* Build the plan for rs.build_for_gpus beside this one and keep the difference (plan_growth.c). */
fp_status fp__growth_build(fp_plan *plan, fp_error *err);

/* The built stages as the analysis reads them. */
fp_stages fp__plan_stages(const fp_plan *plan);

#endif
