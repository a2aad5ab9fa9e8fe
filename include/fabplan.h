/* fabplan — plan the network fabric of a GPU cluster.
 *
 * Umbrella header. The library never prints and never exits: every call that can fail returns
 * an fp_status and fills a caller-owned fp_error. See examples/embed/ for a small program.
 *
 * Conventions of the API:
 * - Handles (fp_catalog, fp_spec, fp_plan) are opaque; *_new / *_parse create them into an
 *   out parameter, *_free releases them (NULL is a no-op).
 * - Outputs come first: fp_x(out, ..., err), with the error record last; so do functions that
 *   compute a result from a plan (fp_plan_fail, fp_plan_fail_network, fp_plan_collectives,
 *   fp_plan_bom_category_total). Lookups of a stored record or value by index are the one
 *   exception to the order: the plan and the index come first, then the out parameter, then
 *   the error record: fp_plan_x(plan, i, out, err).
 * - A value looked up by index (a record, a link's cable or medium) is copied into the caller's
 *   *out by a function returning fp_status: FP_EINVAL (and *out untouched) when the index is
 *   out of range. Borrowed strings looked up by index (notes, warnings) return NULL out of
 *   range; counts (fp_plan_x_count) return 0 for a stage the plan was built without.
 * - Text is taken as (text, len) where it may be large or not NUL-terminated (specs, catalogs);
 *   short names and JSON pointers are NUL-terminated strings.
 * - Networks: a plan is one cluster of networks; network 0 is the compute fabric and networks
 *   1 .. fp_plan_net_count - 1 the spec's `networks` in order. The fp_plan_net_* calls take
 *   that index right after the plan (fp_plan_net_bom_line(plan, net, i, &out, err)); the calls
 *   without it read network 0, and fp_plan_network(plan, k) describes network k + 1. Cluster
 *   figures (fp_plan_totals, fp_plan_rack) count every network.
 * - NULL and ranges, for every function: err may always be NULL. A NULL handle, out parameter
 *   or string, an index out of range or an enum value outside its type gives FP_EINVAL from a
 *   function returning fp_status (nothing written to *out), 0 from a count, NULL from a
 *   lookup returning a pointer (fp_plan_metrics: its all-zero metrics), the documented name
 *   ("unknown", "?", "part") from a name function, and nothing from a void function (one with
 *   an out struct zero-fills it for a NULL plan); fp_strerror of any int is a string. Checked
 *   for every function of include/fabplan/ by tests/api/test_null_policy.c (under ASan/UBSan
 *   with FABPLAN_SANITIZE).
 * - Errors: see fp_error in fabplan/error.h (the first failure is kept until cleared).
 *
 * ABI policy for the result structs the caller owns (fp_summary, fp_tier_info,
 * fp_device_info, fp_link_info, fp_location, fp_rack_info, fp_cable_info, fp_bom_line,
 * fp_totals, fp_growth, fp_metrics, fp_failure_report, fp_compare_row): they are transparent
 * so that a costing tool can keep them in arrays, and their size and layout are part of the
 * ABI. Within one SONAME they do not change, so a program built against one release reads
 * them safely with any library of the same SONAME. From 1.0 the SONAME is FP_VERSION_MAJOR and a
 * release that adds, removes or retypes a member raises it; new members go at the end. Before
 * 1.0 the SONAME is MAJOR.MINOR (libfabplan.so.0.2) and every minor release may change these
 * structs and signatures: docs/changelog.md lists each change. Option structs the caller
 * fills (fp_plan_options, fp_write_options, fp_compare_options) carry a version field
 * instead: the library reads only the members of the version the caller sets, so they grow
 * without breaking callers built against an older header. */
#ifndef FABPLAN_H
#define FABPLAN_H

#define FP_VERSION "0.2.0"
#define FP_VERSION_MAJOR 0
#define FP_VERSION_MINOR 2
#define FP_VERSION_PATCH 0

#include "fabplan/error.h"
#include "fabplan/catalog.h"
#include "fabplan/spec.h"
#include "fabplan/plan.h"
#include "fabplan/cabling.h"
#include "fabplan/bom.h"
#include "fabplan/write.h"
#include "fabplan/metrics.h"
#include "fabplan/compare.h"
#include "fabplan/verify.h"
#include "fabplan/read.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The library's version string ("0.2.0"); may differ from FP_VERSION if linked dynamically. */
FP_EXPORT const char *fp_version(void);

#ifdef __cplusplus
}
#endif
#endif
