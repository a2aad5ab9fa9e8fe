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
#define FP_WRITE_XLSX 0x10u     /**< plan.xlsx, the installer workbook (plus by-row/ or by-hall/) */
#define FP_WRITE_LABELS 0x20u   /**< labels.csv: one row per cable end, for a label printer */
#define FP_WRITE_NETBOX 0x40u   /**< netbox-cables.csv: NetBox cable bulk import */
#define FP_WRITE_TOPOLOGY 0x80u /**< topology.csv: one row per link, AVD-style columns */
#define FP_WRITE_ALL 0xffffffffu

/** How the installer workbook is split for crews (fp_write_options.split_by). */
typedef enum fp_split_by {
    FP_SPLIT_NONE = 0,          /**< plan.xlsx only */
    FP_SPLIT_ROW,               /**< plus by-row/plan-H1-R05.xlsx, one per row of racks */
    FP_SPLIT_HALL               /**< plus by-hall/plan-H1.xlsx, one per hall */
} fp_split_by;

typedef struct fp_write_options {
    int version;                /**< FP_WRITE_OPTIONS_VERSION */
    unsigned formats;           /**< FP_WRITE_* bits */
    fp_progress_cb progress;    /**< optional */
    void *payload;              /**< passed to progress */
    fp_split_by split_by;       /**< version 2: extra workbooks per row or hall */
} fp_write_options;

#define FP_WRITE_OPTIONS_VERSION 2
#define FP_WRITE_OPTIONS_INIT { FP_WRITE_OPTIONS_VERSION, FP_WRITE_ALL, NULL, NULL, FP_SPLIT_NONE }

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
