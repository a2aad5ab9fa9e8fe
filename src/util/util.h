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

/* FNV-1a hash of a NUL-terminated text: the open-addressing name tables (layout projection,
 * the networks' device-name check) index by it. */
static inline uint64_t fp__hash_text(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* ---- files (util.c) ---- */
/* fp_read_file (fabplan/read.h) for a file of no kind of its own: the 4 GiB limit of a
 * discovered fabric, pipes allowed. */
#define fp__read_file(path, out, len, err) fp_read_file((path), FP_FILE_DISCOVERY, (out), (len), (err))
/* Per kind, a limit that replaces the documented one when not 0 (tests only). */
extern size_t fp__file_limit_test[FP_FILE_N_KINDS];
/* s as one CSV cell into f: the rule of fp__csv_cell (util/text.h). */
void fp__csv_field(FILE *f, const char *s);
/* Close a file that was written; FP_EIO naming path and the reason when any write or the close
 * failed. */
fp_status fp__close_written(FILE *f, const char *path, fp_error *err);
/* Create path for writing: a new file only (O_EXCL), never through a symlink (O_NOFOLLOW).
 * NULL with FP_EIO naming the reason. */
FILE *fp__create(const char *path, fp_error *err);
/* malloc that a fault-injection run can make fail (the writers' allocations). */
void *fp__malloc(size_t n);

/* ---- reading CSV (csv_read.c) ---- */
/* fp_csv_record (fabplan/read.h), by its earlier name. */
#define fp__csv_record fp_csv_record

/* ---- test-only fault injection (fault.c) ---- */
/* FP_FAULT_STEP: a point between two steps of the publish that cannot fail, only be killed. */
typedef enum fp_fault_kind {
    FP_FAULT_OPEN, FP_FAULT_WRITE, FP_FAULT_FSYNC, FP_FAULT_RENAME, FP_FAULT_ALLOC, FP_FAULT_STEP
} fp_fault_kind;
/* 1 (errno set: EIO, ENOSPC for writes, ENOMEM for allocations) when this failure point is the
 * one armed; every open, write, fsync, rename and allocation on the writing path asks. Armed
 * to kill (fp__fault_arm_kill), only renames, fsyncs and steps count, and the n-th kills the
 * process (SIGKILL) before it happens. */
int fp__fault(fp_fault_kind kind);
/* Make the n-th point from now fail (0 disarms) and restart the count. */
void fp__fault_arm(long n);
/* Make the process die of SIGKILL at the n-th rename, fsync or step from now (0 disarms). */
void fp__fault_arm_kill(long n);
/* Points passed since the last fp__fault_arm. */
long fp__fault_points(void);

/* pthread_create with every signal blocked in the new thread (it inherits the mask set around
 * the call): the library's worker threads never take a signal, so a program's handler (the
 * CLI's clean-up on SIGTERM) always runs on a thread of the program's, never in the middle of a
 * worker's step. Returns pthread_create's result. */
#include <pthread.h>
int fp__thread_start(pthread_t *tid, void *(*fn)(void *), void *arg);

#endif
