/* fabplan — every independent error of a spec in one run (fp_plan_check_all): plan a copy of
 * the spec, and after each error take the value at its pointer out (its default stands in)
 * and plan again. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "plan.h"

/* Pointers set aside at most: the rounds are bounded by max + ASIDE_MAX plans. */
#define ASIDE_MAX 64

/* 1 when text names JSON pointer p or one under it ("/cluster/gpus" in "... in /cluster/gpus;",
 * not in "/cluster/gpus_per_server"). */
static int names_pointer(const char *text, const char *p)
{
    const size_t n = strlen(p);
    for (const char *s = strstr(text, p); s != NULL; s = strstr(s + 1, p)) {
        const unsigned char before = s == text ? ' ' : (unsigned char)s[-1];
        const unsigned char after = (unsigned char)s[n];
        if ((before == ' ' || before == '(' || before == '"') &&
            !(isalnum(after) || after == '_' || after == '-' || after == '~'))
            return 1;
    }
    return 0;
}

/* 1 when error e follows from a value set aside: it is at or under one of those pointers, or
 * its message names one (a check that read the default standing in for it). */
static int follows_aside(const fp_error *e, char (*aside)[160], size_t n_aside)
{
    for (size_t k = 0; k < n_aside; k++) {
        const size_t len = strlen(aside[k]);
        if ((strncmp(e->where, aside[k], len) == 0 && (e->where[len] == '\0' || e->where[len] == '/')) ||
            names_pointer(e->msg, aside[k]))
            return 1;
    }
    return 0;
}

fp_status fp_plan_check_all(const fp_spec *spec, const fp_catalog *cat,
                            const fp_plan_options *opts, fp_error *errs, size_t max, size_t *n,
                            fp_error *err)
{
    if (n != NULL)
        *n = 0;
    if (spec == NULL || cat == NULL || n == NULL || errs == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_check_all: %s is NULL",
                spec == NULL ? "spec" : cat == NULL ? "cat" : n == NULL ? "n" : "errs");
    if (max == 0)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_check_all: max is 0; expected room for 1 error or more");
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    if (opts != NULL)
        o = *opts;
    o.progress = NULL;
    fp_spec *work = NULL;
    char (*aside)[160] = malloc(ASIDE_MAX * sizeof *aside);
    long *pos = malloc(max * sizeof *pos);
    fp_status first = FP_OK, rc;
    if (aside == NULL || pos == NULL) {
        free(aside);
        free(pos);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    }
    if ((rc = fp__spec_copy(&work, spec, err)) != FP_OK) {
        free(aside);
        free(pos);
        return rc;
    }
    size_t n_aside = 0;
    for (size_t round = 0; round < max + ASIDE_MAX && *n < max; round++) {
        fp_plan *plan = NULL;
        fp_error e = { 0 };
        rc = fp_plan_new_opts(&plan, work, cat, &o, &e);
        fp_plan_free(plan);
        if (rc == FP_OK)
            break;
        if (first == FP_OK) {
            first = rc;
            if (err != NULL && err->code == FP_OK)
                *err = e;
        }
        if (!follows_aside(&e, aside, n_aside)) {
            errs[*n] = e;
            pos[*n] = fp__spec_position(spec, e.where);
            ++*n;
        }
        /* Only a value of the spec can be set aside; a file, the memory or the graph library
         * failing, or an error at a default (a pointer the spec does not hold), ends it. */
        const int spec_value = rc == FP_EINVAL || rc == FP_ECATALOG || rc == FP_EDESIGN;
        if (!spec_value || n_aside == ASIDE_MAX ||
            fp__spec_set_aside(work, e.where, aside[n_aside], sizeof aside[0]) == 0)
            break;
        n_aside++;
    }
    /* in the order the spec reads (stable: errors at one place keep the order found) */
    for (size_t i = 1; i < *n; i++)
        for (size_t k = i; k > 0 && pos[k - 1] > pos[k]; k--) {
            fp_error t = errs[k];
            long p = pos[k];
            errs[k] = errs[k - 1];
            pos[k] = pos[k - 1];
            errs[k - 1] = t;
            pos[k - 1] = p;
        }
    fp_spec_free(work);
    free(aside);
    free(pos);
    return first;
}
