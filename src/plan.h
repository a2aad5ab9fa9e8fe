/* fabplan — private: the read layer between the built plan and the writers. struct fp_plan
 * itself is seen only by plan.c (which drives the stages) and the read-back files
 * (plan_read.c, plan_cables.c) through plan_data.h; everything after them (write/, and the
 * CLI through the public API) reads the plan through these functions and the public getters.
 * Each returns a borrowed, const view of one stage's result, valid while the plan lives. */
#ifndef FP_PRIVATE_PLAN_H
#define FP_PRIVATE_PLAN_H

#include "analysis/analysis.h"
#include "phys/net_bom.h"

const fp_rspec *fp__plan_rspec(const fp_plan *plan);
const fp_fabric *fp__plan_fabric(const fp_plan *plan);
const fp_layout *fp__plan_layout(const fp_plan *plan);
const fp_cabling *fp__plan_cabling(const fp_plan *plan);
const fp_bom *fp__plan_bom(const fp_plan *plan);
const fp_names *fp__plan_names(const fp_plan *plan);
const fp_analysis *fp__plan_analysis(const fp_plan *plan);
/* The cluster's other networks (spec `networks`): how many (0 without the section), and network
 * i's resolved spec, fabric (built by the same Clos builder) and parts. */
int fp__plan_net_count(const fp_plan *plan);
const fp_net_spec *fp__plan_net(const fp_plan *plan, int i);
const fp_fabric *fp__plan_net_fabric(const fp_plan *plan, int i);
const fp_net_bom *fp__plan_net_bom(const fp_plan *plan, int i);
const fp_net_place *fp__plan_net_place(const fp_plan *plan);
/* Each network's layout (compute racks, then the management racks), cabling and parts. */
const fp_net_phys *fp__plan_net_phys(const fp_plan *plan);

/* The devices at the ends of cable i (< fp_plan_cable_count) as fp_plan_cable gives them: *a the
 * A end (a breakout's hub), z[] each leg's far end; returns the number of legs. Formats no text,
 * for passes over every cable that need only where the ends are (plan_cables.c). */
int fp__cable_ends(const fp_plan *plan, size_t i, int64_t *a, int64_t z[FP_MAX_LEGS]);

#endif
