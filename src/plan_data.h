/* fabplan — private to the plan files in src/ (plan.c, plan_read.c, plan_shape.c, plan_cables.c,
 * plan_growth.c): what a plan holds. Every other file reads a plan through plan.h or the public getters. */
#ifndef FP_PRIVATE_PLAN_DATA_H
#define FP_PRIVATE_PLAN_DATA_H

#include "plan.h"
#include "phys/net_bom.h"

struct fp_plan {
    fp_rspec rs;                /* spec stage */
    fp_fabric fab;              /* fabric stage */
    fp_layout lay;              /* phys stage: racks, const once built */
    fp_names names;             /* phys stage: device names and locations, formatted once */
    fp_cabling cab;             /* phys stage: media, cables, rack power */
    fp_bom bom;                 /* phys stage */
    fp_analysis *an;            /* analysis stage: metrics */
    unsigned stages;            /* FP_STAGE_* built (fp_plan_options.stages); a stage left out
                                   keeps its zeroed (calloc) result */
    fp_nets nets;               /* spec stage: spec `networks` (n 0 without it), sized by the
                                   fabric stage */
    fp_net_fabrics net_fab;     /* fabric stage: one fabric per network, same builder */
    fp_net_boms net_bom;        /* phys stage: parts per network */
    fp_net_place net_place;     /* phys stage: racks of the networks' devices */
    fp_net_phys net_phys;       /* phys stage: each network's layout, cabling and parts */
    fp_racks racks;             /* phys stage (cabling): every rack of the floor as all the
                                   networks fill it: the one rack units and power */
    int has_growth;             /* fabric.build_for_gpus > cluster.gpus (plan_growth.c) */
    char cost_note[400];        /* the fabric's extra and other-spread links priced (plan_growth.c) */
    fp_growth growth;
};

/* fabric.build_for_gpus (plan_growth.c): the plan for the target is built beside this one —
 * fabric and layout first (the first phase takes its device places from it), then cabling and
 * BOM to keep what growing takes in plan->growth. */
typedef struct fp_target {
    fp_rspec rs;                /* shares rs.phys's arrays with the plan: never freed here */
    fp_fabric fab;
    fp_layout lay;
} fp_target;
fp_status fp__target_build(fp_target *tg, const fp_rspec *rs, const fp_fabric *sized,
                           fp_error *err);
fp_status fp__growth_finish(fp_plan *plan, fp_target *tg, fp_error *err);
void fp__target_free(fp_target *tg);
/* Price the links the fabric's notes count (beyond need, the other spread) at this plan's
 * average cost of modules and cable per link; into plan->cost_note. */
void fp__cost_note(fp_plan *plan);
/* FP_EINVAL at /cluster/server_names when a cable's full label (fp_cable_end.label: a splitter's
 * hub names every leg's server) would be longer than the label holds: labels never lose a
 * character (plan_cables.c). Only straight and twin-port cables otherwise: those always fit. */
fp_status fp__plan_labels_check(const fp_plan *plan, fp_error *err);

/* The built stages as the analysis reads them. */
fp_stages fp__plan_stages(const fp_plan *plan);

#endif
