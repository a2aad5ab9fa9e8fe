/* Test helpers: build plans from JSON text and read numbers back through the public API. */
#ifndef FP_TEST_HELPERS_H
#define FP_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabplan.h"

/* Build a plan from JSON; fails the test with the library's message on error. */
static inline fp_plan *plan_from(const char *json)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &err), FP_OK, "%s", err.msg);
    fp_status rc = fp_plan_new(&plan, spec, cat, &err);
    cr_assert_eq(rc, FP_OK, "%s\n  spec: %s", err.msg, json);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return plan;
}

/* Try to build; return the status and copy the error out. */
static inline fp_status plan_error(const char *json, fp_error *err)
{
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    memset(err, 0, sizeof *err);
    cr_assert_eq(fp_catalog_new(&cat, err), FP_OK, "%s", err->msg);
    fp_status rc = fp_spec_parse(&spec, json, strlen(json), "<test>", err);
    if (rc == FP_OK)
        rc = fp_plan_new(&plan, spec, cat, err);
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return rc;
}

/* Whole file as a NUL-terminated string (caller frees); fails the test when unreadable. */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    cr_assert_not_null(b);
    cr_assert_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    return b;
}

static inline int64_t tier_switches(const fp_plan *p, int tier)
{
    fp_tier_info t;
    if ((size_t)tier > fp_plan_tier_count(p) || tier < 1)
        return 0;
    cr_assert_eq(fp_plan_tier(p, (size_t)tier - 1, &t, NULL), FP_OK);
    return t.switches;
}

#endif
