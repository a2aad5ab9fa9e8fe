/* fabplan — compare candidate designs for one cluster.
 *
 * fp_compare_designs varies the switch model (every switch in the catalog), the topology
 * (clos, fat-tree, rail-optimized), the tier count (2, 3, 4) and the leaf oversubscription
 * (1:1, 2:1, 3:1; fat-trees only 1:1) over a base spec; fp_compare_specs evaluates given specs.
 * Every tier count is planned, but a forced tier count that degenerates is left out: when the
 * longest GPU-to-GPU path crosses fewer than 2 x tiers - 1 switches, the top tier is a lone block
 * no path uses (4 tiers asked for a cluster that fits 2). A candidate the spec checks or the
 * sizing arithmetic refuse (a cluster beyond the capacity of the tiers asked for) is refused
 * before anything is built; the others are planned in full, on several threads with
 * fp_compare_designs_opts. Those that cannot be built keep the library's message. The rows do
 * not depend on the number of threads. */
#ifndef FABPLAN_COMPARE_H
#define FABPLAN_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include "fabplan/error.h"
#include "fabplan/catalog.h"
#include "fabplan/spec.h"
#include "fabplan/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One evaluated candidate. */
typedef struct fp_compare_row {
    char design[160];       /**< "clos 3T nvidia-qm9700 2:1", or the spec's name */
    fp_topology topology;
    int tiers;              /**< as asked (0 = auto); the plan's count when it worked */
    char switch_model[48];  /**< leaf switch model */
    double oversubscription;/**< leaf down:up asked */
    fp_status status;       /**< FP_OK, or why the candidate cannot work */
    char reason[512];       /**< the library's message when status != FP_OK */
    int64_t gpus;
    int64_t switches, transceivers, cables;
    double cost, power_w, cost_per_gpu;
    double bisection_gbps;  /**< analytic (equal to max-flow on every design built) */
    double bisection_fraction; /**< bisection_gbps over the 1:1 target (1 = full bisection) */
    int diameter_switches;
} fp_compare_row;

/** Options of fp_compare_designs_opts / fp_compare_specs_opts. */
typedef struct fp_compare_options {
    int version;            /**< 1 */
    int jobs;               /**< threads planning candidates: 0 = one per online core, at most
                                 8 (each plan holds its own memory, about 1.2 kB per GPU);
                                 1 = the calling thread alone */
} fp_compare_options;
#define FP_COMPARE_OPTIONS_INIT { 1, 0 }
/** The most planning one fp_compare_designs may ask for: candidate designs x GPUs (2^27; 273
 *  candidates of the built-in catalog at 262,144 GPUs, 71.6 M, took 92 s of one core). */
#define FP_COMPARE_MAX_GPUS (INT64_C(1) << 27)

/** Evaluate the generated candidates over base (NULL = built-in default spec) for gpus GPUs
 *  (0 = the base spec's count). *rows is caller-owned (fp_compare_free); rows that work come
 *  first sorted by leaf oversubscription (1:1 first), then cost, switches and design; then those
 *  that do not, in the order tried. Outputs first: *rows and *n_rows are set on success.
 *  Runs on the calling thread (fp_compare_designs_opts plans on several).
 *  Errors: FP_EINVAL, before any candidate is planned, when the candidates times the GPUs
 *  exceed FP_COMPARE_MAX_GPUS; FP_ENOMEM; candidate failures are rows, not errors. */
FP_EXPORT fp_status fp_compare_designs(fp_compare_row **rows, size_t *n_rows,
                                       const fp_catalog *cat, const fp_spec *base, int64_t gpus,
                                       fp_error *err);

/** fp_compare_designs with options (NULL: one thread, as fp_compare_designs). The rows are
 *  the same whatever opts->jobs; the function is thread-safe as fp_plan_new is. If a thread
 *  cannot be started, fewer threads do the work. */
FP_EXPORT fp_status fp_compare_designs_opts(fp_compare_row **rows, size_t *n_rows,
                                            const fp_catalog *cat, const fp_spec *base,
                                            int64_t gpus, const fp_compare_options *opts,
                                            fp_error *err);

/** Evaluate the given specs as they are (gpus overrides their count when > 0), sorted the same
 *  way. names[i] (may be NULL) labels spec i. Errors: FP_ENOMEM. */
FP_EXPORT fp_status fp_compare_specs(fp_compare_row **rows, size_t *n_rows,
                                     const fp_catalog *cat, const fp_spec *const *specs,
                                     const char *const *names, size_t n, int64_t gpus,
                                     fp_error *err);

/** fp_compare_specs with options (NULL: one thread), as fp_compare_designs_opts. */
FP_EXPORT fp_status fp_compare_specs_opts(fp_compare_row **rows, size_t *n_rows,
                                          const fp_catalog *cat, const fp_spec *const *specs,
                                          const char *const *names, size_t n, int64_t gpus,
                                          const fp_compare_options *opts, fp_error *err);

/** Write compare.csv, compare.json and compare.html (a chart of cost per GPU against the share
 *  of full bisection, and the table) into dir (created if missing, with its parents), all or
 *  nothing, the way fp_plan_write publishes (fp_publish_begin: folder lock, private temporary
 *  folder, never through a symlink, earlier files intact on any failure).
 *  rows stay owned by the caller. Errors: FP_EINVAL (NULL argument), FP_EIO (including
 *  "another fabplan run is writing into DIR"), FP_ENOMEM. */
FP_EXPORT fp_status fp_compare_write(const fp_compare_row *rows, size_t n, const char *dir,
                                     fp_error *err);

/** Free rows from fp_compare_designs / fp_compare_specs. NULL is a harmless no-op. */
FP_EXPORT void fp_compare_free(fp_compare_row *rows);

#ifdef __cplusplus
}
#endif
#endif
