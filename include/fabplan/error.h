/* fabplan — status codes and the caller-owned error record. */
#ifndef FABPLAN_ERROR_H
#define FABPLAN_ERROR_H

#include "fabplan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Result of every fabplan call that can fail. 0 is success, failures are negative. */
typedef enum fp_status {
    FP_OK = 0,          /**< success */
    FP_ENOMEM = -1,     /**< an allocation failed */
    FP_EINVAL = -2,     /**< a bad argument or spec value (err.where names the JSON pointer) */
    FP_ECATALOG = -3,   /**< an unknown or malformed catalog part */
    FP_EIO = -4,        /**< a file could not be read or written */
    FP_EGRAPH = -5,     /**< a graph computation failed */
    FP_EDESIGN = -6,    /**< the request is valid but cannot be built (too many GPUs for the tiers, ...) */
    FP_EPARSE = -7,     /**< JSON syntax error (err.line and err.column are set) */
    FP_ESTAGE = -8      /**< the plan was built without a stage the call reads
                             (fp_plan_options.stages); the message names the stages */
} fp_status;

/** Error record filled by a failing call. The caller owns it (a stack variable is fine);
 *  zero-initialise it (or fp_error_clear it) before use.
 *
 *  The record keeps the FIRST failure written into it until it is cleared: a later failing
 *  call leaves it as it is (and still returns its own status). So within one call the root
 *  cause is reported, never a failure of the clean-up it caused; and a program that reuses one
 *  record across calls must clear it after handling each failure (or use a fresh record per
 *  call) to see the next one. A successful call never writes the record. Thread safety: a
 *  record belongs to one caller; give each thread its own. */
typedef struct fp_error {
    fp_status code;     /**< same as the returned status */
    char msg[512];      /**< what was wrong, what was expected, what was found */
    char where[160];    /**< where in the input: JSON pointer ("/fabric/tiers"), file, or part id */
    int line;           /**< for FP_EPARSE: 1-based line in the input, else 0 */
    int column;         /**< for FP_EPARSE: 1-based column, else 0 */
} fp_error;

/** Reset err (may be NULL) to "no failure": code FP_OK and empty texts, ready for the next
 *  call. Cannot fail. */
FP_EXPORT void fp_error_clear(fp_error *err);

/** Static English name of a status ("invalid value", ...). Never NULL. */
FP_EXPORT const char *fp_strerror(fp_status status);

#ifdef __cplusplus
}
#endif
#endif
