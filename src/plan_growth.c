/* fabplan — growth: with fabric.build_for_gpus above cluster.gpus, the plan for the target is
 * built beside this one (fabric, layout, cabling, BOM; no analysis) and what it adds is kept:
 * switches, links, cables by medium, transceivers, cost and power. */
#include <math.h>
#include <string.h>
#include "plan_data.h"

fp_status fp__target_build(fp_target *tg, const fp_rspec *rs, const fp_fabric *sized,
                           fp_error *err)
{
    fp_status rc;
    memset(tg, 0, sizeof *tg);
    /* The target: same spec, build_for_gpus GPUs. Hand overrides name cables of this plan, so
     * they are left out (they cannot change counts). */
    tg->rs = *rs;
    tg->rs.gpus = rs->build_for_gpus;
    tg->rs.phys.n_ov = 0;
    tg->rs.spare_servers = (int64_t)ceil((double)((tg->rs.gpus + tg->rs.gpus_per_server - 1) /
                                                  tg->rs.gpus_per_server) *
                                         rs->phys.spare_servers - 1e-9);
    fp__clos_keep_sizing(&tg->fab, sized);
    if ((rc = fp__clos_build(&tg->fab, &tg->rs, err)) != FP_OK ||
        (rc = fp__server_names_check(&tg->fab, &tg->rs, err)) != FP_OK ||
        (rc = fp__layout_build(&tg->lay, &tg->fab, &tg->rs, err)) != FP_OK)
        fp__target_free(tg);
    return rc;
}

void fp__target_free(fp_target *tg)
{
    fp__layout_free(&tg->lay);
    fp__fabric_free(&tg->fab);
}

fp_status fp__growth_finish(fp_plan *plan, fp_target *tg, fp_error *err)
{
    const fp_rspec *rs = &plan->rs;
    fp_cabling cab;
    fp_bom bom;
    fp_status rc;
    fp_growth *g = &plan->growth;
    const fp_fabric *now = &plan->fab, *fab = &tg->fab;
    memset(&cab, 0, sizeof cab);
    memset(&bom, 0, sizeof bom);
    if ((rc = fp__cabling_build(&cab, &tg->lay, fab, &tg->rs, err)) != FP_OK ||
        (rc = fp__bom_build(&bom, &cab, fab, &tg->rs, err)) != FP_OK)
        goto out;
    g->gpus_now = rs->gpus;
    g->gpus_target = tg->rs.gpus;
    g->servers = fab->servers - now->servers;
    g->switches = (fab->n_dev - fab->servers) - (now->n_dev - now->servers);
    for (int t = 1; t <= fab->tiers && t <= 4; t++)
        g->switches_by_tier[t - 1] = (fab->level[t].switches - now->level[t].switches) * fab->planes;
    g->links = fab->n_link - now->n_link;
    for (int b = 0; b < fab->tiers && b < 4; b++)
        g->links_by_boundary[b] = (fab->boundary_base[b + 1] - fab->boundary_base[b]) -
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
    return rc;
}

int fp_plan_growth(const fp_plan *plan, fp_growth *out)
{
    if (out == NULL)
        return 0;
    memset(out, 0, sizeof *out);
    if (plan == NULL || !plan->has_growth)
        return 0;
    *out = plan->growth;
    return 1;
}

static void money(char *buf, size_t n, double v)
{
    char tmp[48];
    int len = snprintf(tmp, sizeof tmp, "%.0f", v < 0 ? -v : v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        buf[o++] = tmp[i];
        if ((len - i - 1) > 0 && (len - i - 1) % 3 == 0)
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

void fp__cost_note(fp_plan *plan)
{
    const fp_fabric *f = &plan->fab;
    double media = 0;
    int64_t extra = 0, built = 0, alt = 0;
    char a[32], b[32], c[32];
    plan->cost_note[0] = '\0';
    for (size_t i = 0; i < plan->bom.n; i++) {
        const fp_bom_line *l = &plan->bom.row[i].line;
        if (!l->spare && (l->kind == FP_BOM_TRANSCEIVER || l->kind == FP_BOM_COPPER ||
                          l->kind == FP_BOM_FIBRE))
            media += l->cost;
    }
    for (int t = 1; t < f->tiers; t++) {
        extra += f->extra_links[t];
        built += f->boundary_base[t + 1] - f->boundary_base[t];
        alt += f->alt_links[t] * f->planes;
    }
    if (f->n_link == 0 || (extra == 0 && alt == built))
        return;
    double per = media / (double)f->n_link;
    money(a, sizeof a, per);
    money(b, sizeof b, (double)extra * per);
    money(c, sizeof c, (double)(alt - built) * per);
    char beyond[128] = "";
    if (extra > 0)      /* none beyond need: nothing to price */
        snprintf(beyond, sizeof beyond, " the %lld switch-to-switch links beyond need cost about $%s;",
                 (long long)extra, b);
    snprintf(plan->cost_note, sizeof plan->cost_note,
             "links priced at this plan's average of $%s of modules and cable per link:%s spread \"%s\" would %s about $%s of links",
             a, beyond, plan->rs.spread == FP_SPREAD_EVEN ? "balanced" : "even",
             alt >= built ? "add" : "save", c);
}
