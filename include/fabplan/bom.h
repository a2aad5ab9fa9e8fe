/* fabplan — the bill of materials of a plan: every part with quantity, cost and power, grouped
 * by category, and the totals a costing tool reads.
 *
 * Result structs (fp_bom_line, fp_totals) are filled into the caller's storage; see the ABI
 * note in fabplan.h. */
#ifndef FABPLAN_BOM_H
#define FABPLAN_BOM_H

#include <stddef.h>
#include <stdint.h>
#include "fabplan/error.h"
#include "fabplan/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** BOM categories, in the order the lines are grouped. */
typedef enum fp_bom_category {
    FP_BOM_SWITCH = 0,      /**< switches */
    FP_BOM_NIC,             /**< server NICs */
    FP_BOM_TRANSCEIVER,     /**< optical modules (a twin-port module counts once) */
    FP_BOM_COPPER,          /**< DAC, ACC and AEC cables and splitters, twisted-pair cords */
    FP_BOM_FIBRE,           /**< fibre patch cords */
    FP_BOM_CATEGORY_COUNT
} fp_bom_category;

/** Static name of a category: "switch", "nic", "transceiver", "copper", "fibre" (the
 *  category column of bom.csv); "unknown" out of range. */
FP_EXPORT const char *fp_bom_category_name(fp_bom_category category);

/** One bill-of-materials line. */
typedef struct fp_bom_line {
    const char *part;           /**< catalog id (borrowed) */
    const char *category;       /**< fp_bom_category_name(kind), for display (static) */
    const char *description;    /**< part name, with the length for cut items (borrowed) */
    double length_m;            /**< fibre and copper: the stock length of this line, else 0 */
    int spare;                  /**< 1 for a spares line */
    int64_t quantity;
    double unit_cost, cost;     /**< USD */
    double unit_power_w, power_w;
    double mtbf_hours;          /**< of one unit, from the catalog (0 when unknown) */
    fp_bom_category kind;       /**< the category; compare this, not the category text */
} fp_bom_line;

/* Every call here reads FP_STAGE_BOM (fp_plan_new_opts): without it there are no lines,
 * totals or warnings. */

/** METHOD: number of BOM lines, spares lines included; 0 without FP_STAGE_BOM. Cannot fail. */
FP_EXPORT size_t fp_plan_bom_count(const fp_plan *plan);
/** METHOD: copy BOM line i (grouped by category, then part, then length; a spares line follows
 *  the line it spares) into the caller's *out. Its part and description point into the plan
 *  (valid while it lives). Errors: FP_EINVAL when i is out of range; FP_ESTAGE without
 *  FP_STAGE_BOM. */
FP_EXPORT fp_status fp_plan_bom_line(const fp_plan *plan, size_t i, fp_bom_line *out,
                                     fp_error *err);

/** The BOM totals of a plan (fp_plan_totals): cost and power of every line (spares add cost
 *  only), per GPU, and the transceiver and cable counts a costing tool needs. */

typedef struct fp_totals {
    double cost, power_w;
    double cost_per_gpu, power_w_per_gpu;
    int64_t transceivers;       /**< modules, spares excluded (a twin-port module counts once) */
    double transceivers_per_gpu;
    int64_t cables;             /**< physical cables (copper and fibre), spares excluded */
    int64_t unpriced_parts;     /**< parts in the BOM that give no price_usd (or, but fibre, no
                                     power_w): counted as $0 / 0 W; each has a warning */
    int64_t switches;           /**< switches in service, all tiers (spares excluded) */
} fp_totals;

/** METHOD: fill the caller's *out with the whole cluster's BOM totals: the compute fabric's
 *  and every other network's (spec `networks`), each member the sum of fp_plan_net_totals over
 *  networks 0 .. fp_plan_net_count - 1, added in that order; bom.csv's total line and
 *  report.html's cost are these figures. Spares add cost, not power (they sit on a shelf); the
 *  extra endpoints of a network (storage arrays, management servers) are not priced and their
 *  power is not network power. Per-GPU figures divide by the GPUs requested. Without spec
 *  `networks` these are the compute fabric's. All 0 without FP_STAGE_BOM. Cannot fail. */
FP_EXPORT void fp_plan_totals(const fp_plan *plan, fp_totals *out);

/* ---- Every network by index ----
 * The fp_plan_net_* calls read one network of the cluster by its index `net`: network 0 is the
 * compute fabric, networks 1 .. fp_plan_net_count - 1 the spec's `networks` in order (the one
 * fp_plan_network(plan, net - 1) describes). Network 0 gives what the calls without an index
 * give (fp_plan_bom_line, fp_plan_cable, ...). */

/** METHOD: networks in the cluster: 1 (the compute fabric) + fp_plan_network_count. Cannot
 *  fail; 0 for a NULL plan. */
FP_EXPORT size_t fp_plan_net_count(const fp_plan *plan);

/** METHOD: network net's BOM totals into the caller's *out, as fp_plan_totals sums them (per-GPU
 *  figures over the cluster's GPUs; a network's unpriced_parts counts its switch models without
 *  a price). Errors: FP_EINVAL (*out untouched) when net >= fp_plan_net_count or out is NULL;
 *  FP_ESTAGE without FP_STAGE_BOM. */
FP_EXPORT fp_status fp_plan_net_totals(const fp_plan *plan, size_t net, fp_totals *out,
                                       fp_error *err);

/** METHOD: number of BOM lines of network net (0 when out of range or without FP_STAGE_BOM), and
 *  a copy of its line i into the caller's *out (strings borrowed from the plan). A network's
 *  lines are its switches per tier (none for a tier of another network's switches, spec
 *  uplink_to: that network's lines count them), the NICs bought for it, the modules, copper and fibre its
 *  cabling chose with their spares, then its extra endpoints: category "endpoint", kind
 *  FP_BOM_CATEGORY_COUNT, quantity and rack units only (no price; power 0 here, as they are not
 *  network power). Errors: FP_EINVAL when net or i is out of range; FP_ESTAGE without
 *  FP_STAGE_BOM. */
FP_EXPORT size_t fp_plan_net_bom_count(const fp_plan *plan, size_t net);
FP_EXPORT fp_status fp_plan_net_bom_line(const fp_plan *plan, size_t net, size_t i,
                                         fp_bom_line *out, fp_error *err);

/** METHOD: number of warnings about the plan's numbers (a part without a price or power), and
 *  warning i: a borrowed string that lives with the plan, NULL when out of range (none
 *  without FP_STAGE_BOM). */
FP_EXPORT size_t fp_plan_warning_count(const fp_plan *plan);
FP_EXPORT const char *fp_plan_warning(const fp_plan *plan, size_t i);

/** METHOD: cost and power of one category's lines (spares included in the cost, not in the
 *  power), into the caller's *cost_usd and *power_w (either may be NULL).
 *  Errors: FP_EINVAL when category is not a fp_bom_category; FP_ESTAGE without FP_STAGE_BOM. */
FP_EXPORT fp_status fp_plan_bom_category_total(double *cost_usd, double *power_w,
                                               const fp_plan *plan, fp_bom_category category,
                                               fp_error *err);

#ifdef __cplusplus
}
#endif
#endif
