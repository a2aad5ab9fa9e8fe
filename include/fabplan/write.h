/* fabplan — writing a plan's documents to a directory. */
#ifndef FABPLAN_WRITE_H
#define FABPLAN_WRITE_H

#include "fabplan/error.h"
#include "fabplan/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Progress callback: stage name ("links.csv"), fraction done in [0, 1], caller's payload. */
typedef void (*fp_progress_cb)(const char *stage, double fraction, void *payload);

/* Which documents to write (bit set). */
#define FP_WRITE_JSON 0x1u      /**< plan.json */
#define FP_WRITE_LINKS 0x2u     /**< links.csv */
#define FP_WRITE_CABLES 0x100u  /**< cables.csv: one row per physical cable */
#define FP_WRITE_BOM 0x200u     /**< bom.csv: bill of materials with totals */
#define FP_WRITE_ALL 0xffffffffu

typedef struct fp_write_options {
    int version;                /**< FP_WRITE_OPTIONS_VERSION */
    unsigned formats;           /**< FP_WRITE_* bits */
    fp_progress_cb progress;    /**< optional */
    void *payload;              /**< passed to progress */
} fp_write_options;

#define FP_WRITE_OPTIONS_VERSION 1
#define FP_WRITE_OPTIONS_INIT { FP_WRITE_OPTIONS_VERSION, FP_WRITE_ALL, NULL, NULL }

/** Write the plan's documents into dir (created if missing). Each file is written under a
 *  temporary name and all are renamed into place only when every one succeeded, so a failure
 *  leaves no half-written output. opts may be NULL (all formats, no progress).
 *  Errors: FP_EIO (err.where names the file), FP_ENOMEM. */
FP_EXPORT fp_status fp_plan_write(const fp_plan *plan, const char *dir,
                                  const fp_write_options *opts, fp_error *err);

#ifdef __cplusplus
}
#endif
#endif
