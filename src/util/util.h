/* fabplan — private: the utility stage (errors, files). Every stage may include it; it includes
 * only the public headers. */
#ifndef FP_PRIVATE_UTIL_UTIL_H
#define FP_PRIVATE_UTIL_UTIL_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "fabplan.h"

/* ---- errors (error.c) ---- */
#if defined(__GNUC__)
#define FP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FP_PRINTF(a, b)
#endif
/* Record the first failure in err (may be NULL) and return code. */
fp_status fp__error_set(fp_error *err, fp_status code, const char *where, const char *fmt, ...)
    FP_PRINTF(4, 5);
#define FP_FAIL(err, code, where, ...) return fp__error_set((err), (code), (where), __VA_ARGS__)

/* ---- files (util.c) ---- */
fp_status fp__read_file(const char *path, char **out, size_t *len, fp_error *err);
/* CSV field quoting per RFC 4180 when needed. */
void fp__csv_field(FILE *f, const char *s);
/* Close a file that was written; FP_EIO naming path when any write or the close failed. */
fp_status fp__close_written(FILE *f, const char *path, fp_error *err);

#endif
