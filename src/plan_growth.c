/* fabplan — growth: with fabric.build_for_gpus above cluster.gpus, the plan for the target is
 * built beside this one (fabric, layout, cabling, BOM; no analysis) and what it adds is kept:
 * switches, links, cables by medium, transceivers, cost and power. */
#include <math.h>
#include <string.h>
#include "plan_data.h"

fp_status fp__growth_build(fp_plan *plan, fp_error *err)
{
    const fp_rspec *rs = &plan->rs;
    fp_rspec full;
    fp_fabric fab;
    fp_layout lay;
    fp_cabling cab;
    fp_bom bom;
    fp_status rc;
    fp_growth *g = &plan->growth;
    plan->has_growth = 0;
    memset(g, 0, sizeof *g);
    if (rs->build_for_gpus <= rs->gpus)
        return FP_OK;
    /* The target: same spec, build_for_gpus GPUs. Hand overrides name cables of this plan, so
     * they are left out (they cannot change counts). */
    full = *rs;
    full.gpus = rs->build_for_gpus;
    full.phys.n_ov = 0;
    full.spare_servers = (int64_t)ceil((double)((full.gpus + full.gpus_per_server - 1) /
                                                full.gpus_per_server) *
                                       rs->phys.spare_servers - 1e-9);
    memset(&fab, 0, sizeof fab);
    memset(&lay, 0, sizeof lay);
    memset(&cab, 0, sizeof cab);
    memset(&bom, 0, sizeof bom);
    if ((rc = fp__clos_build(&fab, &full, err)) != FP_OK ||
        (rc = fp__layout_build(&lay, &fab, &full, err)) != FP_OK ||
        (rc = fp__cabling_build(&cab, &lay, &fab, &full, err)) != FP_OK ||
        (rc = fp__bom_build(&bom, &cab, &fab, &full, err)) != FP_OK)
        goto out;
    const fp_fabric *now = &plan->fab;
    g->gpus_now = rs->gpus;
    g->gpus_target = full.gpus;
    g->servers = fab.servers - now->servers;
    g->switches = (fab.n_dev - fab.servers) - (now->n_dev - now->servers);
    for (int t = 1; t <= fab.tiers && t <= 4; t++)
        g->switches_by_tier[t - 1] = (fab.level[t].switches - now->level[t].switches) * fab.planes;
    g->links = fab.n_link - now->n_link;
    for (int b = 0; b < fab.tiers && b < 4; b++)
        g->links_by_boundary[b] = (fab.boundary_base[b + 1] - fab.boundary_base[b]) -
                                  (now->boundary_base[b + 1] - now->boundary_base[b]);
    g->cables = cab.n_cable - plan->cab.n_cable;
    for (int64_t i = 0; i < cab.n_cable; i++)
        g->cables_by_medium[cab.cable[i].medium]++;
    for (int64_t i = 0; i < plan->cab.n_cable; i++)
        g->cables_by_medium[plan->cab.cable[i].medium]--;
    g->transceivers = bom.totals.transceivers - plan->bom.totals.transceivers;
    g->cost_usd = bom.totals.cost - plan->bom.totals.cost;
    g->power_w = bom.totals.power_w - plan->bom.totals.power_w;
    plan->has_growth = 1;
out:
    fp__bom_free(&bom);
    fp__cabling_free(&cab);
    fp__layout_free(&lay);
    fp__fabric_free(&fab);
    return rc;
}

int fp_plan_growth(const fp_plan *plan, fp_growth *out)
{
    memset(out, 0, sizeof *out);
    if (plan == NULL || !plan->has_growth)
        return 0;
    *out = plan->growth;
    return 1;
}
