/* fabplan fuzz harnesses: shared helpers. Each harness defines LLVMFuzzerTestOneInput; clang
 * links it with libFuzzer (scripts/fuzz.sh), gcc with replay.c, which feeds it every file of
 * the corpora in the normal test suite. A harness aborts only on a real defect: a crash, a
 * sanitizer report, or an output that breaks a stated promise (plan.json must parse). */
#ifndef FP_FUZZ_COMMON_H
#define FP_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fabplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop with a message when a promise is broken (libFuzzer saves the input as a crash). */
#define FUZZ_CHECK(cond, ...)                                                                  \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "fuzz check failed: " __VA_ARGS__);                                \
            fputc('\n', stderr);                                                               \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* Every error must carry a status that is an error and a message. */
static inline void fuzz_check_error(fp_status rc, const fp_error *err)
{
    if (rc == FP_OK)
        return;
    FUZZ_CHECK(err->code == rc, "status %d but err.code %d (%s)", rc, err->code, err->msg);
    FUZZ_CHECK(err->msg[0] != '\0', "status %d without a message", rc);
}

/* The built-in catalog, made once (the harnesses never change it). */
static inline const fp_catalog *fuzz_catalog(void)
{
    static fp_catalog *cat;
    if (cat == NULL) {
        fp_error err = { 0 };
        FUZZ_CHECK(fp_catalog_new(&cat, &err) == FP_OK, "%s", err.msg);
    }
    return cat;
}

/* Plans larger than this many GPUs are not built (slow, and sizes are not what is fuzzed). */
#define FUZZ_MAX_GPUS 2048

/* Build a plan from a spec; NULL when the spec is refused (checked to be a clean refusal).
 * Specs asking for more than FUZZ_MAX_GPUS are validated only. */
static inline fp_plan *fuzz_plan(fp_spec *spec, const fp_catalog *cat)
{
    fp_error err = { 0 };
    fp_plan *plan = NULL;
    char *json = NULL;
    /* gpus read back through the spec's own JSON, as a user of the library would */
    if (fp_spec_to_json(spec, &json, &err) != FP_OK)
        return NULL;
    const char *g = strstr(json, "\"gpus\":");
    double gpus = g ? strtod(g + 7, NULL) : 16384;
    fp_free(json);
    if (!(gpus <= FUZZ_MAX_GPUS)) {
        fuzz_check_error(fp_spec_validate(spec, cat, &err), &err);
        return NULL;
    }
    fp_status rc = fp_plan_new(&plan, spec, cat, &err);
    fuzz_check_error(rc, &err);
    return rc == FP_OK ? plan : NULL;
}

/* The output folder of this process ($TMPDIR/fabplan-fuzz-TAG-PID), reused by every input
 * and removed with everything in it when the process ends. */
static char fuzz_dir_path[256];

static inline void fuzz_remove_dir(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir_path);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir_path);
}

static inline const char *fuzz_out_dir(const char *tag)
{
    if (fuzz_dir_path[0] == '\0') {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/fabplan-fuzz-%s-%ld",
                 tmp != NULL && *tmp ? tmp : "/tmp", tag, (long)getpid());
        atexit(fuzz_remove_dir);
    }
    return fuzz_dir_path;
}

/* DIR/name read whole (free it), NULL when it cannot be read. */
static inline char *fuzz_slurp(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = '\0';
    fclose(f);
    return b;
}

#endif
