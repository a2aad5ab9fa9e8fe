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
    FP_EPARSE = -7      /**< JSON syntax error (err.line and err.column are set) */
} fp_status;

/** Error record filled by a failing call. The caller owns it (a stack variable is fine);
 *  zero-initialise it before use. Only the first failure is recorded. */
typedef struct fp_error {
    fp_status code;     /**< same as the returned status */
    char msg[512];      /**< what was wrong, what was expected, what was found */
    char where[160];    /**< where in the input: JSON pointer ("/fabric/tiers"), file, or part id */
    int line;           /**< for FP_EPARSE: 1-based line in the input, else 0 */
    int column;         /**< for FP_EPARSE: 1-based column, else 0 */
} fp_error;

/** Static English name of a status ("invalid value", ...). Never NULL. */
FP_EXPORT const char *fp_strerror(fp_status status);

#ifdef __cplusplus
}
#endif
#endif
