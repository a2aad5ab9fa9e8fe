/* fabplan — the plan object: runs the stages in order (spec -> fabric -> phys -> analysis) and
 * frees them. Each stage reads the results of the ones before it and writes only its own; this
 * file is where one stage's result is handed to the next. Reading a plan back: plan_read.c,
 * plan_cables.c. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "plan_data.h"

/* The spec stage resolves the spec; the fabric stage sizes the fabric (tier count, ports per
 * tier: the first part of its result). */
static fp_status resolve_and_size(fp_rspec *rs, fp_fabric *fab, const fp_spec *spec,
                                  const fp_catalog *cat, fp_error *err)
{
    fp_status rc = fp__spec_resolve(rs, spec, cat, err);
    if (rc == FP_OK && (rc = fp__clos_size(fab, rs, err)) != FP_OK)
        fp__phys_free(&rs->phys);
    /* The scalable unit the sizing chose (the spec left it open) is the one built. */
    if (rc == FP_OK && fab->su_chosen > 0)
        rs->su_servers = fab->su_chosen;
    return rc;
}

fp_status fp_spec_validate(const fp_spec *spec, const fp_catalog *cat, fp_error *err)
{
    fp_rspec rs;
    fp_fabric fab;
    fp_nets nets;
    fp_net_fabrics nf = { NULL, 0 };
    fp_status rc = resolve_and_size(&rs, &fab, spec, cat, err);
    if (rc != FP_OK)
        return rc;
    /* The other networks are checked and sized too (built, as sizing needs the builder's
     * notes of what fits, then dropped). The compute fabric is built only when there is one
     * or the spec names the servers: a network's endpoint counts may follow its switches, and
     * device names repeat only through a network or cluster.server_names. */
    if ((rc = fp__nets_open(&nets, spec, err)) == FP_OK &&
        (nets.in_spec > 0 || rs.server_names.given) &&
        (rc = fp__clos_build(&fab, &rs, err)) == FP_OK) {
        if ((rc = fp__server_names_check(&fab, &rs, err)) == FP_OK &&
            (rc = fp__nets_build(&nf, &nets, spec, &rs, &fab, cat, err)) == FP_OK)
            rc = fp__nets_check_names(&nets, &nf, &fab, &rs, err);
        fp__fabric_free(&fab);
        fp__net_fabrics_free(&nf);
    }
    fp__nets_free(&nets);
    fp__phys_free(&rs.phys);
    return rc;
}

fp_status fp_plan_new(fp_plan **out, const fp_spec *spec, const fp_catalog *cat, fp_error *err)
{
    return fp_plan_new_opts(out, spec, cat, NULL, err);
}

fp_status fp_plan_new_progress(fp_plan **out, const fp_spec *spec, const fp_catalog *cat,
                               fp_progress_cb progress, void *payload, fp_error *err)
{
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    o.progress = progress;
    o.payload = payload;
    return fp_plan_new_opts(out, spec, cat, &o, err);
}

unsigned fp_plan_stages_needed(unsigned stages)
{
    /* Each stage reads every one before it. */
    unsigned s = stages & FP_STAGE_ALL;
    for (unsigned b = FP_STAGE_METRICS; b > FP_STAGE_FABRIC; b >>= 1)
        if (s & b)
            s |= b >> 1;
    return s | FP_STAGE_FABRIC;
}

/* Say which stage starts and how much of the planning is done before it (the shares of
 * examples/specs/clos-100k-4tier.json's time). A false term, to sit inside the || chains. */
#define STAGE(name, done) ((progress ? progress(name, done, payload) : (void)0), 0)

/* The metrics that read only the fabric and the resolved spec (fp__analysis_fabric: bisection
 * max-flow, diameter, hops) run on a thread of their own while this one builds the layout and
 * the names, which write neither; the reliability (from the BOM) is added at the metrics stage. */
typedef struct metrics_job {
    fp_stages st;               /* rs and fab only */
    fp_analysis *an;
    fp_status rc;
    fp_error err;
} metrics_job;

static void *metrics_main(void *arg)
{
    metrics_job *j = arg;
    j->rc = fp__analysis_fabric(&j->an, &j->st, &j->err);
    return NULL;
}

/* The joined metrics thread's analysis goes to the plan (which frees it either way). */
static fp_status metrics_take(fp_plan *plan, metrics_job *j, fp_error *err)
{
    plan->an = j->an;
    if (j->rc != FP_OK && err != NULL && err->code == FP_OK)
        *err = j->err;
    return j->rc;
}

/* Start the fabric-only metrics on their own thread; 0 when no thread can be made (they are
 * then computed in turn at the metrics stage). */
static int metrics_start(fp_plan *plan, metrics_job *mj, pthread_t *tid)
{
    memset(mj, 0, sizeof *mj);
    mj->st.rs = &plan->rs;
    mj->st.fab = &plan->fab;
    return fp__thread_start(tid, metrics_main, mj) == 0;
}

/* The layout stage: projected from the target's layout when a first phase grows toward
 * fabric.build_for_gpus (grow), else built for the plan itself. */
static fp_status build_layout(fp_plan *plan, fp_target *tg, int grow, fp_error *err)
{
    fp_status rc;
    if (grow ? (rc = fp__target_build(tg, &plan->rs, &plan->fab, err)) != FP_OK ||
                   (rc = fp__fabric_number_as(&plan->fab, &plan->rs, &tg->fab, &tg->rs,
                                              err)) != FP_OK ||
                   (rc = fp__layout_project(&plan->lay, &plan->fab, &plan->rs, &tg->lay,
                                            &tg->fab, &tg->rs, err)) != FP_OK
             : (rc = fp__layout_build(&plan->lay, &plan->fab, &plan->rs, err)) != FP_OK)
        return rc;
    return FP_OK;
}

/* The cabling stage: the compute fabric's cables, then the other networks placed and cabled
 * with them, then every rack's units and power as all of them fill it (their one owner). */
static fp_status build_cabling(fp_plan *plan, fp_error *err)
{
    fp_status rc;
    if ((rc = fp__cabling_build(&plan->cab, &plan->lay, &plan->fab, &plan->rs, err)) != FP_OK ||
        (rc = fp__net_place_build(&plan->net_place, &plan->nets, &plan->net_fab, &plan->fab,
                                  &plan->lay, &plan->cab, &plan->rs, err)) != FP_OK ||
        (rc = fp__net_phys_build(&plan->net_phys, &plan->nets, &plan->net_fab,
                                 &plan->net_place, &plan->lay, &plan->cab, &plan->rs, err)) != FP_OK ||
        (rc = fp__racks_build(&plan->racks, &plan->lay, &plan->cab, &plan->net_place,
                              &plan->net_phys, &plan->rs, err)) != FP_OK)
        return rc;
    return FP_OK;
}

/* The BOM stage: the compute fabric's and the networks' BOMs, a growing plan's finish
 * (from the target), the cost note. */
static fp_status build_bom(fp_plan *plan, fp_target *tg, int grow, fp_error *err)
{
    fp_status rc;
    if ((rc = fp__bom_build(&plan->bom, &plan->cab, &plan->fab, &plan->rs, err)) != FP_OK ||
        (rc = fp__net_boms_build(&plan->net_bom, &plan->nets, &plan->net_fab, &plan->net_phys,
                                 err)) != FP_OK ||
        (grow && (rc = fp__growth_finish(plan, tg, err)) != FP_OK))
        return rc;
    fp__cost_note(plan);
    return FP_OK;
}

/* The metrics stage: the joined thread's result (*joined cleared once taken) or the fabric
 * metrics computed here, then the reliability from the BOM. */
static fp_status build_metrics(fp_plan *plan, const fp_stages *st, metrics_job *mj, int *joined,
                               fp_error *err)
{
    fp_status rc;
    if (*joined) {
        *joined = 0;
        rc = metrics_take(plan, mj, err);
    } else {
        rc = fp__analysis_fabric(&plan->an, st, err);
    }
    if (rc != FP_OK || (rc = fp__analysis_bom(plan->an, st, err)) != FP_OK)
        return rc;
    return FP_OK;
}

/* On failure: wait for a metrics thread still running and hand its analysis to the plan (to
 * be freed with it) without its error - an earlier stage's error stands. */
static void metrics_abandon(fp_plan *plan, metrics_job *mj, const pthread_t *tid, int started,
                            int joined)
{
    if (started)
        pthread_join(*tid, NULL);
    if (started || joined)
        (void)metrics_take(plan, mj, NULL);
}

/* The caller's options (NULL: the defaults) are of a version this library reads. */
static fp_status check_options(const fp_plan_options *opts, fp_error *err)
{
    if (opts != NULL && (opts->version < 1 || opts->version > FP_PLAN_OPTIONS_VERSION))
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_new_opts: options version %d; this library reads "
                "versions 1 to %d (FP_PLAN_OPTIONS_INIT sets it)", opts->version,
                FP_PLAN_OPTIONS_VERSION);
    return FP_OK;
}

fp_status fp_plan_new_opts(fp_plan **out, const fp_spec *spec, const fp_catalog *cat,
                           const fp_plan_options *opts, fp_error *err)
{
    fp_plan *plan;
    fp_status rc;
    if (out == NULL || spec == NULL || cat == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_new: %s is NULL", out == NULL ? "out" :
                spec == NULL ? "spec" : "cat");
    *out = NULL;
    if ((rc = check_options(opts, err)) != FP_OK)
        return rc;
    const fp_progress_cb progress = opts ? opts->progress : NULL;
    void *const payload = opts ? opts->payload : NULL;
    const unsigned want = fp_plan_stages_needed(opts && opts->stages ? opts->stages : FP_STAGE_ALL);
    plan = calloc(1, sizeof *plan);
    if (plan == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    fp_stages st = fp__plan_stages(plan);
    fp_target tg;
    metrics_job mj;
    pthread_t metrics_tid;
    int grow = 0, metrics_started = 0, metrics_joined = 0;
    memset(&tg, 0, sizeof tg);
    if (STAGE("spec", 0.0) || (rc = resolve_and_size(&plan->rs, &plan->fab, spec, cat, err)) != FP_OK ||
        STAGE("fabric", 0.01) || (rc = fp__clos_build(&plan->fab, &plan->rs, err)) != FP_OK ||
        (rc = fp__server_names_check(&plan->fab, &plan->rs, err)) != FP_OK ||
        (rc = fp__nets_open(&plan->nets, spec, err)) != FP_OK ||
        (rc = fp__nets_build(&plan->net_fab, &plan->nets, spec, &plan->rs, &plan->fab, cat,
                             err)) != FP_OK ||
        (rc = fp__nets_check_names(&plan->nets, &plan->net_fab, &plan->fab, &plan->rs, err)) != FP_OK)
        goto fail;
    plan->stages = FP_STAGE_FABRIC;
    if (want & FP_STAGE_METRICS)
        metrics_started = metrics_start(plan, &mj, &metrics_tid);
    /* A first phase (fabric.build_for_gpus) takes its places from the plan for the target. */
    grow = plan->rs.build_for_gpus > plan->rs.gpus;
    if (want & FP_STAGE_LAYOUT) {
        (void)STAGE("layout", 0.01);
        if ((rc = build_layout(plan, &tg, grow, err)) != FP_OK)
            goto fail;
        plan->stages |= FP_STAGE_LAYOUT;
    }
    /* Names with their locations when the layout is built, else names alone ("" locations);
     * progress says "cabling" only when cables are built. */
    if (STAGE(want & FP_STAGE_CABLING ? "cabling" : "names", 0.02) ||
        (rc = fp__names_build(&plan->names, &plan->fab, &plan->rs, &plan->lay, err)) != FP_OK)
        goto fail;
    /* The metrics thread ends here: the cabling's working memory is the largest of the
     * planning, and igraph's graph beside it would raise the peak (at 1,048,576 GPUs by about
     * 110 MiB); its result is taken at the metrics stage, so a later stage's error still comes
     * first. */
    if (metrics_started) {
        metrics_started = 0;
        pthread_join(metrics_tid, NULL);
        metrics_joined = 1;
    }
    if (want & FP_STAGE_CABLING) {
        if ((rc = build_cabling(plan, err)) != FP_OK)
            goto fail;
        plan->stages |= FP_STAGE_CABLING;
        /* Today's names (and the networks' own) keep every label well within its field. */
        if (plan->rs.server_names.given && (rc = fp__plan_labels_check(plan, err)) != FP_OK)
            goto fail;
    }
    if (want & FP_STAGE_BOM) {
        if (STAGE("bom", 0.91) || (rc = build_bom(plan, &tg, grow, err)) != FP_OK)
            goto fail;
        plan->stages |= FP_STAGE_BOM;
    }
    if (want & FP_STAGE_METRICS) {
        (void)STAGE("metrics", 0.92);
        if ((rc = build_metrics(plan, &st, &mj, &metrics_joined, err)) != FP_OK)
            goto fail;
        plan->stages |= FP_STAGE_METRICS;
    }
    (void)STAGE("planned", 1.0);
    fp__target_free(&tg);
    *out = plan;
    return FP_OK;
fail:
    metrics_abandon(plan, &mj, &metrics_tid, metrics_started, metrics_joined);
    fp__target_free(&tg);
    fp_plan_free(plan);
    return rc;
}

unsigned fp_plan_stages(const fp_plan *plan)
{
    return plan ? plan->stages : 0;
}

/* "layout, cabling and bom" for a set of FP_STAGE_* bits. */
static void stage_names(unsigned stages, char *buf, size_t n)
{
    static const char *const names[] = { "fabric", "layout", "cabling", "bom", "metrics" };
    int count = 0, total = 0;
    for (unsigned b = 0; b < 5; b++)
        total += (stages >> b) & 1;
    buf[0] = '\0';
    for (unsigned b = 0; b < 5; b++)
        if (stages & (1u << b)) {
            size_t k = strlen(buf);
            snprintf(buf + k, n - k, "%s%s", count == 0 ? "" : count + 1 == total ? " and " : ", ",
                     names[b]);
            count++;
        }
}

fp_status fp__plan_need(const fp_plan *plan, unsigned stages, const char *what, fp_error *err)
{
    unsigned miss = plan ? fp_plan_stages_needed(stages) & ~plan->stages : 0;
    if (plan == NULL)
        FP_FAIL(err, FP_EINVAL, "", "%s: plan is NULL", what);
    if (miss == 0)
        return FP_OK;
    char names[96];
    stage_names(miss, names, sizeof names);
    FP_FAIL(err, FP_ESTAGE, "", "%s needs the %s stage%s, which this plan was built without "
            "(fp_plan_options.stages; fp_write_stages names what each output needs)", what, names,
            strchr(names, ' ') ? "s" : "");
}

void fp_plan_free(fp_plan *plan)
{
    if (plan == NULL)
        return;
    fp__racks_free(&plan->racks);
    fp__net_place_free(&plan->net_place, plan->nets.n);
    fp__net_boms_free(&plan->net_bom);
    fp__net_phys_free(&plan->net_phys);
    fp__net_fabrics_free(&plan->net_fab);
    fp__nets_free(&plan->nets);
    fp__bom_free(&plan->bom);
    fp__cabling_free(&plan->cab);
    fp__names_free(&plan->names);
    fp__layout_free(&plan->lay);
    fp__fabric_free(&plan->fab);
    fp__phys_free(&plan->rs.phys);
    fp__analysis_free(plan->an);
    free(plan);
}

/* The specs of a what-if that the compute fabric takes, into cs (n <= FP_FAIL_MAX_SPECS): a spec
 * that names only something of the other networks is theirs (fp_plan_fail_network); the
 * compute fabric takes the rest and says what it does not know. */
static size_t compute_specs(const fp_plan *plan, const fp_stages *st, const char *const *specs,
                            size_t n, const char **cs)
{
    size_t nc = 0;
    for (size_t i = 0; i < n; i++) {
        int net_only = 0;
        for (int k = 0; k < plan->nets.n && !net_only; k++) {
            fp_net_view v = fp__plan_net_view(plan, k);
            net_only = fp__net_fail_matches(&v, specs[i]);
        }
        if (!net_only || fp__failure_matches(st, specs[i]))
            cs[nc++] = specs[i];
    }
    return nc;
}

fp_status fp_plan_fail(fp_failure_report *out, const fp_plan *plan, const char *const *specs,
                       size_t n, uint64_t seed, fp_error *err)
{
    fp_failure_report r;
    fp_status rc;
    if (out == NULL || plan == NULL || (n > 0 && specs == NULL))
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_fail: NULL report, plan or specs");
    if ((rc = fp__plan_need(plan, FP_STAGE_METRICS, "fp_plan_fail", err)) != FP_OK)
        return rc;
    if (n > FP_FAIL_MAX_SPECS)
        FP_FAIL(err, FP_EINVAL, "", "--fail given %zu times; at most %d", n, FP_FAIL_MAX_SPECS);
    fp_stages st = fp__plan_stages(plan);
    const char *cs[FP_FAIL_MAX_SPECS];
    size_t nc = compute_specs(plan, &st, specs, n, cs);
    if ((rc = fp__failure_run(&r, &st, plan->an, cs, nc, seed, err)) != FP_OK)
        return rc;
    r.n_specs = (int)n;
    for (size_t i = 0; i < n; i++)
        snprintf(r.specs[i], sizeof r.specs[i], "%s", specs[i]);
    *out = r;
    return FP_OK;
}

fp_status fp_plan_collectives(fp_collectives *out, const fp_plan *plan,
                               const fp_failure_report *failure, fp_error *err)
{
    fp_status rc;
    if (out == NULL || plan == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_collectives: NULL table or plan");
    if ((rc = fp__plan_need(plan, FP_STAGE_METRICS, "fp_plan_collectives", err)) != FP_OK)
        return rc;
    if (failure == NULL) {
        *out = plan->an->coll;
        return FP_OK;
    }
    fp_stages st = fp__plan_stages(plan);
    const char *specs[FP_FAIL_MAX_SPECS], *cs[FP_FAIL_MAX_SPECS];
    int n = failure->n_specs < 0 ? 0 : failure->n_specs;
    uint8_t *dev_down = NULL, *link_down = NULL;
    if (n > FP_FAIL_MAX_SPECS)
        n = FP_FAIL_MAX_SPECS;
    for (int k = 0; k < n; k++)
        specs[k] = failure->specs[k];
    size_t nc = compute_specs(plan, &st, specs, (size_t)n, cs);
    if ((rc = fp__failure_marks(&st, cs, nc, failure->seed, &dev_down, &link_down, err)) != FP_OK)
        return rc;
    rc = fp__collectives_run(out, &st, plan->an, link_down, failure->bisection_after_gbps, err);
    free(dev_down);
    free(link_down);
    return rc;
}

fp_net_view fp__plan_net_view(const fp_plan *plan, int k)
{
    fp_net_view v = { &plan->nets.net[k], &plan->net_fab.fab[k], &plan->net_phys.lay[k],
                      &plan->net_phys.cab[k], fp__link_numbers(&plan->fab), &plan->fab, &plan->rs };
    for (int j = 0; j < k; j++)
        v.id_base += plan->net_fab.fab[j].n_link;
    return v;
}

fp_status fp_plan_fail_network(fp_network_failure *out, const fp_plan *plan, size_t i,
                               const fp_failure_report *report, fp_error *err)
{
    if (out == NULL || plan == NULL || report == NULL || i >= (size_t)plan->nets.n)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_fail_network: no network %zu (the plan has %d), or a NULL argument",
                i, plan ? plan->nets.n : 0);
    const char *specs[FP_FAIL_MAX_SPECS];
    int n = report->n_specs < FP_FAIL_MAX_SPECS ? report->n_specs : FP_FAIL_MAX_SPECS;
    for (int k = 0; k < n; k++)
        specs[k] = report->specs[k];
    fp_net_view v = fp__plan_net_view(plan, (int)i);
    return fp__net_fail_run(out, &v, specs, (size_t)n, err);
}
