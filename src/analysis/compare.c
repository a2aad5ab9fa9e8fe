/* fabplan — compare candidate designs: plan each and tabulate the numbers.
 *
 * A candidate the spec checks or the sizing arithmetic refuse (a switch that cannot serve the
 * NICs, a cluster beyond the capacity of the tiers asked for) is refused before anything is
 * built (fp__compare_refuse); the others are planned in full, on `jobs` threads (candidates
 * are independent; rows are filled by index, so the table does not depend on the number of
 * threads). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis/analysis.h"

/* jobs 0 (the default): one thread per online core, at most this many (each plan of a large
 * cluster holds its own memory: about 1.2 kB per GPU). */
#define DEFAULT_JOBS_MAX 8

static const double leaf_ratios[] = { 1, 2, 3 };
static const fp_topology topologies[] = { FP_TOPO_CLOS, FP_TOPO_FAT_TREE, FP_TOPO_RAIL };

fp_status fp__compare_refuse(const fp_catalog *cat, const fp_spec *spec, fp_error *err)
{
    fp_rspec rs;
    fp_fabric fab;
    fp_status rc = fp__spec_resolve(&rs, spec, cat, err);
    if (rc == FP_OK)
        rc = fp__clos_size(&fab, &rs, err);
    fp__phys_free(&rs.phys);
    return rc;
}

/* Plan one spec and fill the row's numbers, or its reason when it cannot be built. A candidate
 * the sizing arithmetic refuses (fp__compare_refuse) is not planned. With left_out (a forced
 * tier count), *left_out is set when no GPU pair crosses the plan's top tier: not a design. */
static void evaluate(const fp_catalog *cat, const fp_spec *spec, fp_compare_row *row,
                     unsigned char *left_out)
{
    fp_error e = { 0 };
    fp_plan *plan = NULL;
    if ((row->status = fp__compare_refuse(cat, spec, &e)) != FP_OK) {
        snprintf(row->reason, sizeof row->reason, "%s", e.msg);
        return;
    }
    row->status = fp_plan_new(&plan, spec, cat, &e);
    if (row->status != FP_OK) {
        snprintf(row->reason, sizeof row->reason, "%s", e.msg);
        return;
    }
    fp_summary s;
    fp_totals t;
    const fp_metrics *m = fp_plan_metrics(plan);
    fp_plan_summary(plan, &s);
    fp_plan_totals(plan, &t);
    row->topology = s.topology;
    row->tiers = s.tiers;
    row->gpus = s.gpus;
    row->switches = s.switches;
    row->transceivers = t.transceivers;
    row->cables = t.cables;
    row->cost = t.cost;
    row->power_w = t.power_w;
    row->cost_per_gpu = t.cost_per_gpu;
    row->bisection_gbps = m->bisection_gbps;
    row->bisection_fraction = m->split_demand_gbps > 0 ? m->bisection_gbps / m->split_demand_gbps : 0;
    row->diameter_switches = m->diameter_switches;
    fp_tier_info ti;
    if (fp_plan_tier(plan, 0, &ti, NULL) == FP_OK) {
        if (row->switch_model[0] == '\0')
            snprintf(row->switch_model, sizeof row->switch_model, "%s", ti.model);
        if (row->oversubscription == 0)
            row->oversubscription = ti.oversubscription;
    }
    /* The longest path of a fabric whose GPUs use every tier crosses 2 x tiers - 1 switches;
     * fewer: a forced tier count the cluster does not need. */
    if (left_out != NULL && row->diameter_switches < 2 * row->tiers - 1)
        *left_out = 1;
    fp_plan_free(plan);
}

/* Like with like: designs of one leaf down:up (full bisection first) together, by cost within.
 * By cost alone, every 3:1 design would come before the cheapest full-bisection one. */
static int row_cmp(const void *pa, const void *pb)
{
    const fp_compare_row *a = pa, *b = pb;
    if (a->oversubscription != b->oversubscription)
        return a->oversubscription < b->oversubscription ? -1 : 1;
    if (a->cost != b->cost)
        return a->cost < b->cost ? -1 : 1;
    if (a->switches != b->switches)
        return a->switches < b->switches ? -1 : 1;
    return strcmp(a->design, b->design);
}

/* Working rows sorted by cost first, failed rows after them in the order they were tried. */
static fp_status sort_rows(fp_compare_row *rows, size_t n, fp_error *err)
{
    fp_compare_row *tmp = malloc(sizeof *tmp * (n ? n : 1));
    size_t k = 0;
    if (tmp == NULL)
        FP_FAIL(err, FP_ENOMEM, "compare", "out of memory");
    for (size_t i = 0; i < n; i++)
        if (rows[i].status == FP_OK)
            tmp[k++] = rows[i];
    qsort(tmp, k, sizeof *tmp, row_cmp);
    for (size_t i = 0; i < n; i++)
        if (rows[i].status != FP_OK)
            tmp[k++] = rows[i];
    memcpy(rows, tmp, sizeof *tmp * n);
    free(tmp);
    return FP_OK;
}

/* Sort and hand the rows to the caller on success; free them on failure. */
static fp_status hand_over(fp_status rc, fp_compare_row *out, size_t n, fp_compare_row **rows,
                           size_t *n_rows, fp_error *err)
{
    /* Out of memory on any candidate is the run's failure (exit 4), not a row: a candidate
     * that "cannot work" for want of memory would reorder the ranking. */
    for (size_t i = 0; i < n && rc == FP_OK; i++)
        if (out[i].status == FP_ENOMEM)
            rc = fp__error_set(err, FP_ENOMEM, out[i].design, "out of memory planning %s: %s",
                               out[i].design, out[i].reason);
    if (rc == FP_OK)
        rc = sort_rows(out, n, err);
    if (rc != FP_OK) {
        free(out);
        return rc;
    }
    *rows = out;
    *n_rows = n;
    return FP_OK;
}

static fp_status clone_spec(fp_spec **out, const fp_spec *base, fp_error *err)
{
    char *text = NULL;
    fp_status rc;
    if (base == NULL)
        return fp_spec_preset(out, "default", err);
    if ((rc = fp_spec_to_json(base, &text, err)) != FP_OK)
        return rc;
    rc = fp_spec_parse(out, text, strlen(text), "compare", err);
    fp_free(text);
    return rc;
}

static fp_status set_gpus(fp_spec *spec, int64_t gpus, fp_error *err)
{
    char v[32];
    if (gpus <= 0)
        return FP_OK;
    snprintf(v, sizeof v, "%lld", (long long)gpus);
    return fp_spec_set(spec, "/cluster/gpus", v, err);
}

/* The candidates of one compare, evaluated by a pool of threads: each takes the next index. */
typedef struct pool {
    const fp_catalog *cat;
    fp_spec **spec;
    fp_compare_row *row;
    size_t n;
    unsigned char *left_out;    /* per candidate; NULL: every candidate is planned */
    size_t next;            /* next candidate to evaluate (atomic) */
} pool;

static void *pool_worker(void *arg)
{
    pool *p = arg;
    size_t i;
    while ((i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED)) < p->n)
        evaluate(p->cat, p->spec[i], &p->row[i], p->left_out ? &p->left_out[i] : NULL);
    return NULL;
}

static int jobs_for(const fp_compare_options *opts, size_t n)
{
    long jobs = opts ? opts->jobs : 1;
    if (jobs <= 0) {
        jobs = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = jobs < 1 ? 1 : jobs > DEFAULT_JOBS_MAX ? DEFAULT_JOBS_MAX : jobs;
    }
    if ((size_t)jobs > n)
        jobs = (long)n;
    return jobs < 1 ? 1 : (int)jobs;
}

/* Evaluate spec[0..n) into row[0..n) on `jobs` threads (fewer when threads cannot be made:
 * the calling thread always takes part, so the work is done either way). */
static void run_pool(const fp_catalog *cat, fp_spec **spec, fp_compare_row *row, size_t n,
                     unsigned char *left_out, int jobs)
{
    pool p = { cat, spec, row, n, left_out, 0 };
    pthread_t tid[64];
    int started = 0;
    if (jobs > 64)
        jobs = 64;
    for (int k = 1; k < jobs; k++)
        if (fp__thread_start(&tid[started], pool_worker, &p) == 0)
            started++;
    pool_worker(&p);
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
}

/* The generated candidates' specs, in the order they are tried (switch model, topology, tiers,
 * leaf ratio); rows get their labels. */
static fp_status make_candidates(fp_spec **specs, fp_compare_row *out, size_t *n_out,
                                 const fp_catalog *cat, const fp_spec *base, int64_t gpus,
                                 fp_error *err)
{
    fp_status rc = FP_OK;
    size_t n = 0;
    for (size_t i = 0; i < fp_catalog_count(cat) && rc == FP_OK; i++) {
        const fp_part *sw = fp_catalog_part(cat, i);
        if (sw->type != FP_PART_SWITCH)
            continue;
        for (size_t ti = 0; ti < 3 && rc == FP_OK; ti++) {
            for (int tiers = 2; tiers <= 4 && rc == FP_OK; tiers++)
                for (size_t r = 0; r < 3 && rc == FP_OK; r++) {
                    fp_topology topo = topologies[ti];
                    if (topo == FP_TOPO_FAT_TREE && leaf_ratios[r] != 1)
                        continue;
                    fp_compare_row *row = &out[n];
                    fp_spec *spec = NULL;
                    char v[96], ratio[32];
                    row->topology = topo;
                    row->tiers = tiers;
                    row->oversubscription = leaf_ratios[r];
                    snprintf(row->switch_model, sizeof row->switch_model, "%s", sw->id);
                    snprintf(row->design, sizeof row->design, "%s %dT %s %s",
                             fp_topology_name(topo), tiers, sw->id,
                             fp_ratio_text(leaf_ratios[r], ratio, sizeof ratio));
                    if ((rc = clone_spec(&spec, base, err)) != FP_OK)
                        break;
                    specs[n++] = spec;
                    /* Each override is valid JSON, so fp_spec_set can only run out of memory. */
                    snprintf(v, sizeof v, "\"%s\"", fp_topology_name(topo));
                    rc = fp_spec_set(spec, "/fabric/topology", v, err);
                    snprintf(v, sizeof v, "%d", tiers);
                    if (rc == FP_OK)
                        rc = fp_spec_set(spec, "/fabric/tiers", v, err);
                    snprintf(v, sizeof v, "\"%s\"", sw->id);
                    if (rc == FP_OK)
                        rc = fp_spec_set(spec, "/fabric/switch", v, err);
                    snprintf(v, sizeof v, "[%g]", leaf_ratios[r]);
                    if (rc == FP_OK)
                        rc = fp_spec_set(spec, "/fabric/oversubscription", v, err);
                    if (rc == FP_OK)
                        rc = set_gpus(spec, gpus, err);
                }
        }
    }
    *n_out = n;
    return rc;
}

static fp_spec **free_specs(fp_spec **specs, size_t n)
{
    for (size_t i = 0; specs && i < n; i++)
        fp_spec_free(specs[i]);
    free(specs);
    return NULL;
}

fp_status fp_compare_designs_opts(fp_compare_row **rows, size_t *n_rows, const fp_catalog *cat,
                                  const fp_spec *base, int64_t gpus,
                                  const fp_compare_options *opts, fp_error *err)
{
    size_t n_sw = 0, cap, n = 0, kept = 0;
    fp_status rc;
    if (rows == NULL || n_rows == NULL || cat == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_compare_designs: NULL argument");
    *rows = NULL;
    *n_rows = 0;
    for (size_t i = 0; i < fp_catalog_count(cat); i++)
        n_sw += fp_catalog_part(cat, i)->type == FP_PART_SWITCH;
    cap = n_sw * 3 * 3 * 3;
    fp_compare_row *out = calloc(cap ? cap : 1, sizeof *out);
    fp_spec **specs = calloc(cap ? cap : 1, sizeof *specs);
    unsigned char *left_out = calloc(cap ? cap : 1, 1);
    if (out == NULL || specs == NULL || left_out == NULL) {
        free(out);
        free(specs);
        free(left_out);
        FP_FAIL(err, FP_ENOMEM, "compare", "out of memory for %zu candidates", cap);
    }
    rc = make_candidates(specs, out, &n, cat, base, gpus, err);
    /* Every candidate is planned at the size: bound the whole (before any is planned). */
    double size = (double)(gpus > 0 ? gpus : fp__spec_gpus(base));
    if (rc == FP_OK && (double)n * size > (double)FP_COMPARE_MAX_GPUS)
        rc = fp__error_set(err, FP_EINVAL, "compare",
                           "%zu candidate designs at %.0f GPUs is %.0f GPUs of planning; at most "
                           "%lld (2^27, about 3 minutes of one core) in one compare: expected "
                           "fewer GPUs, or the designs to compare given as specs (fabplan compare "
                           "SPEC...)",
                           n, size, (double)n * size, (long long)FP_COMPARE_MAX_GPUS);
    if (rc == FP_OK)
        run_pool(cat, specs, out, n, left_out, jobs_for(opts, n));
    specs = free_specs(specs, n);
    /* A forced tier count the cluster does not need: the extra tier is a lone block no GPU pair
     * crosses (a 4-tier design whose longest path is 3 switches is a 2-tier fabric with
     * switches on top). Not a design: left out, in the order tried. */
    for (size_t i = 0; i < n; i++)
        if (!left_out[i])
            out[kept++] = out[i];
    free(left_out);
    return hand_over(rc, out, kept, rows, n_rows, err);
}

fp_status fp_compare_designs(fp_compare_row **rows, size_t *n_rows, const fp_catalog *cat,
                             const fp_spec *base, int64_t gpus, fp_error *err)
{
    return fp_compare_designs_opts(rows, n_rows, cat, base, gpus, NULL, err);
}

fp_status fp_compare_specs_opts(fp_compare_row **rows, size_t *n_rows, const fp_catalog *cat,
                                const fp_spec *const *specs, const char *const *names, size_t n,
                                int64_t gpus, const fp_compare_options *opts, fp_error *err)
{
    fp_status rc = FP_OK;
    size_t made = 0;
    if (rows == NULL || n_rows == NULL || cat == NULL || (n > 0 && specs == NULL))
        FP_FAIL(err, FP_EINVAL, "", "fp_compare_specs: NULL argument");
    *rows = NULL;
    *n_rows = 0;
    fp_compare_row *out = calloc(n ? n : 1, sizeof *out);
    fp_spec **own = calloc(n ? n : 1, sizeof *own);
    if (out == NULL || own == NULL) {
        free(out);
        free(own);
        FP_FAIL(err, FP_ENOMEM, "compare", "out of memory");
    }
    for (size_t i = 0; i < n && rc == FP_OK; i++) {
        snprintf(out[i].design, sizeof out[i].design, "%s",
                 names && names[i] ? names[i] : "spec");
        if ((rc = clone_spec(&own[i], specs[i], err)) == FP_OK) {
            made++;
            rc = set_gpus(own[i], gpus, err);
        }
    }
    if (rc == FP_OK)
        run_pool(cat, own, out, n, NULL, jobs_for(opts, n));
    free_specs(own, made);
    return hand_over(rc, out, n, rows, n_rows, err);
}

fp_status fp_compare_specs(fp_compare_row **rows, size_t *n_rows, const fp_catalog *cat,
                           const fp_spec *const *specs, const char *const *names, size_t n,
                           int64_t gpus, fp_error *err)
{
    return fp_compare_specs_opts(rows, n_rows, cat, specs, names, n, gpus, NULL, err);
}

void fp_compare_free(fp_compare_row *rows)
{
    free(rows);
}
