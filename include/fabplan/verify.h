/* fabplan — verify a built fabric against its plan: read a plan folder and what the fabric
 * reports (ibnetdiscover's topology file, lldpd's neighbours), say cable by cable what is wrong and how to fix it.
 * Rules and files: docs/outputs.md, "fabplan verify". */
#ifndef FABPLAN_VERIFY_H
#define FABPLAN_VERIFY_H

#include <stddef.h>
#include "fabplan/error.h"
#include "fabplan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What verify says of one planned link or one discovered link the plan does not have. */
typedef enum fp_verify_status {
    FP_VERIFY_OK = 0,           /**< planned and seen as planned */
    FP_VERIFY_MISSING,          /**< planned, not seen */
    FP_VERIFY_UNEXPECTED,       /**< seen between devices of the plan, not planned */
    FP_VERIFY_WRONG_PORT,       /**< right devices, another port at one end */
    FP_VERIFY_WRONG_DEVICE,     /**< one end on another device of the plan */
    FP_VERIFY_SWAPPED,          /**< two planned links whose far ends are exchanged */
    FP_VERIFY_DEGRADED,         /**< seen as planned, at a lower width or speed */
    FP_VERIFY_UNKNOWN_DEVICE,   /**< an end on a node the plan does not have */
    FP_VERIFY_NOT_YET,          /**< planned for a later growth phase, not seen */
    FP_VERIFY_N_STATUS
} fp_verify_status;

typedef struct fp_verify_options {
    int version;                /**< FP_VERIFY_OPTIONS_VERSION */
    /** The plan folder (fabplan plan -o): its cables.csv, and for InfiniBand its ib-ports.csv
     *  (--formats ibnetdiscover, needed with ibnetdiscover only); links.csv when present (the
     *  counts per boundary). */
    const char *plan_dir;
    /** ibnetdiscover's output: the default topology form, or its -p ports form. NULL for none. */
    const char *ibnetdiscover;
    /** Optional: ibnetdiscover's node-name map (`<guid> "<name>"` lines): a GUID listed there
     *  is named so, over the node description the file gives. NULL for none. */
    const char *node_name_map;
    /** Optional: the folder of the growth phase being built (its cables.csv): a planned link of
     *  plan_dir whose cable's A end that plan lacks belongs to a later phase, FP_VERIFY_NOT_YET
     *  when not seen. NULL: every planned link is due. */
    const char *phase_dir;
    /** 1: compare only the link width, not the speed (ibsim reports at most QDR). */
    int ignore_speed;
    /** Version 2: lldpd's JSON as `lldpcli -f json show neighbors` (or -f json0, or `show
     *  neighbors details`) prints it: a folder of `<device>.json` files, one per device, or one
     *  file (named after its device, or holding each device's `lldpcli -f json show chassis`
     *  before its neighbours). NULL for none. At least one of ibnetdiscover and lldp is given;
     *  with both, every planned link is looked for in either. A discovery checks the cables
     *  of its protocol only (cables.csv's protocol column: InfiniBand by ibnetdiscover,
     *  Ethernet by LLDP); the others are not checked (fp_verify_not_checked), not missing. */
    const char *lldp;
    /** Version 3: check only the cables of these networks (cables.csv's network column; a plan
     *  without spec networks is the one network "compute"), n_networks names (borrowed).
     *  NULL or 0: every network. A name the plan does not have is FP_EINVAL. An ibnetdiscover
     *  output is one subnet: name its network. */
    const char *const *networks;
    int n_networks;
} fp_verify_options;

#define FP_VERIFY_OPTIONS_VERSION 3
#define FP_VERIFY_OPTIONS_INIT { FP_VERIFY_OPTIONS_VERSION, NULL, NULL, NULL, NULL, 0, NULL, \
                                 NULL, 0 }

/** The result: one row per planned link checked, then one per discovered link the plan
 *  lacks. */
typedef struct fp_verify fp_verify;

/** Read the plan folder and the discovery and classify every link. *out is the caller's
 *  (fp_verify_free). Never changes a file.
 *  Options of version 1 are read without lldp, of version 2 without networks.
 *  Errors: FP_EINVAL (NULL argument, wrong options version, no discovery given, a network
 *  the plan lacks); FP_EIO (a file cannot be read: err.where names it); FP_EPARSE (a discovery or node-name map that is not what
 *  it claims, a plan file without its columns: err.where is the file, err.line the 1-based
 *  line); FP_ENOMEM. */
FP_EXPORT fp_status fp_verify_run(const fp_verify_options *opts, fp_verify **out,
                                  fp_error *err);

/** Rows of status s (FP_VERIFY_N_STATUS: every row). 0 for NULL. */
FP_EXPORT size_t fp_verify_count(const fp_verify *v, fp_verify_status s);

/** Planned links this run did not check (they have no row): why 1, of the other protocol
 *  (no discovery of it given); why 2, of a network not asked for (fp_verify_options.networks);
 *  why 0, both. 0 for NULL or another why. */
FP_EXPORT size_t fp_verify_not_checked(const fp_verify *v, int why);

/** 1 when any row is neither FP_VERIFY_OK nor FP_VERIFY_NOT_YET (fabplan verify exits 1). */
FP_EXPORT int fp_verify_differs(const fp_verify *v);

/** "ok", "missing", "unexpected", "wrong-port", "wrong-device", "swapped", "degraded",
 *  "unknown-device", "not-yet"; "?" out of range. Static, never NULL. */
FP_EXPORT const char *fp_verify_status_name(fp_verify_status s);

/** Write verify.csv, verify-summary.json and verify.xlsx (the crew's Fix list) into dir
 *  (created if missing), all or nothing as fp_plan_write publishes.
 *  Errors: FP_EINVAL (NULL), FP_EIO, FP_ENOMEM. */
FP_EXPORT fp_status fp_verify_write(const fp_verify *v, const char *dir, fp_error *err);

/** Free a result (NULL is fine). */
FP_EXPORT void fp_verify_free(fp_verify *v);

#ifdef __cplusplus
}
#endif
#endif
