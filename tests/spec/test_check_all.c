/* fp_plan_check_all: every independent error of a spec in one run, in the order the spec gives
 * them; an error that follows from another is not listed (docs/spec.md, "Every error at once"). */
#include <criterion/criterion.h>
#include "helpers.h"

/* The errors of json (at most 8) into found; returns the call's status, *n how many. */
static fp_status check_all(const char *json, unsigned stages, fp_error *found, size_t *n,
                           fp_error *first)
{
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_error err = { 0 };
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    o.stages = stages;
    memset(first, 0, sizeof *first);
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &err), FP_OK, "%s", err.msg);
    fp_status rc = fp_plan_check_all(spec, cat, &o, found, 8, n, first);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return rc;
}

/* Three values wrong each by its own rule (docs/spec.md: halls 1 .. 64, a NIC the catalog
 * has, topology one of three names), written layout first: listed in that order, though the
 * cluster is checked first (and is the first error, the one fp_plan_new reports). */
Test(check_all, three_independent_errors_in_spec_order)
{
    fp_error found[8], first;
    size_t n = 0;
    fp_status rc = check_all("{\"layout\": {\"halls\": 0},"
                             " \"cluster\": {\"gpus\": 256, \"nic\": \"no-such-nic\"},"
                             " \"fabric\": {\"topology\": \"ring\"}}", FP_STAGE_ALL, found, &n, &first);
    cr_expect_eq(rc, FP_ECATALOG);
    cr_expect_str_eq(first.where, "/cluster/nic");
    cr_assert_eq(n, 3, "%zu errors, the first %s", n, found[0].msg);
    cr_expect_str_eq(found[0].where, "/layout/halls");
    cr_expect_eq(found[0].code, FP_EINVAL);
    cr_expect(strstr(found[0].msg, "from 1 to 64") && strstr(found[0].msg, "found the number 0"),
              "%s", found[0].msg);
    cr_expect_str_eq(found[1].where, "/cluster/nic");
    cr_expect_eq(found[1].code, FP_ECATALOG);
    cr_expect(strstr(found[1].msg, "\"no-such-nic\"") != NULL, "%s", found[1].msg);
    cr_expect_str_eq(found[2].where, "/fabric/topology");
    cr_expect(strstr(found[2].msg, "found \"ring\"") != NULL, "%s", found[2].msg);
}

Test(check_all, one_error_gives_one)
{
    fp_error found[8], first;
    size_t n = 0;
    cr_expect_eq(check_all("{\"cluster\": {\"gpus\": 256}, \"fabric\": {\"planes\": 0}}",
                           FP_STAGE_ALL, found, &n, &first), FP_EINVAL);
    cr_assert_eq(n, 1, "%zu errors: %s", n, found[1].msg);
    cr_expect_str_eq(found[0].where, "/fabric/planes");
    cr_expect_str_eq(found[0].msg, first.msg);
    /* and a spec that plans has none */
    cr_expect_eq(check_all("{\"cluster\": {\"gpus\": 256}}", FP_STAGE_ALL, found, &n, &first), FP_OK);
    cr_expect_eq(n, 0);
    cr_expect_eq(first.code, FP_OK);
}

/* The errors of json are exactly the pointers wheres (NULL-terminated), in that order, and the
 * call returns rc. */
static void expect_wheres(const char *json, unsigned stages, fp_status rc, const char *const *wheres)
{
    fp_error found[8], first;
    size_t n = 0, want = 0;
    cr_expect_eq(check_all(json, stages, found, &n, &first), rc, "%s", json);
    while (wheres[want])
        want++;
    cr_assert_eq(n, want, "%zu errors, the first %s", n, n ? found[0].msg : "");
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(found[i].where, wheres[i], "%s", found[i].msg);
}

/* GPUs that are not a number: their default (16,384) stands in, and build_for_gpus 1000 is
 * then below it, an error the default made (its message names /cluster/gpus): not listed.
 * The halls after it are wrong by themselves: listed. */
Test(check_all, an_error_a_default_causes_is_not_listed)
{
    static const char *const w[] = { "/cluster/gpus", "/layout/halls", NULL };
    expect_wheres("{\"cluster\": {\"gpus\": \"many\"}, \"fabric\": {\"build_for_gpus\": 1000},"
                  " \"layout\": {\"halls\": 0}}", FP_STAGE_FABRIC, FP_EINVAL, w);
}

/* An 800G NIC beside the default 400G switch: the error is at /fabric/switch, which the spec
 * does not hold, so nothing can be set aside and checking again would repeat it: listed once,
 * and the check ends there. */
Test(check_all, an_error_at_a_default_is_listed_once)
{
    static const char *const w[] = { "/fabric/switch", NULL };
    expect_wheres("{\"cluster\": {\"gpus\": 256, \"nic\": \"nvidia-cx8-osfp\"},"
                  " \"layout\": {\"halls\": 0}}", FP_STAGE_ALL, FP_EINVAL, w);
}

/* A wrong item of a list sets the list aside whole: the second bad override is not listed
 * under the first one's renumbered place, and the error after the list is. The spares are
 * checked before the overrides, listed after them as the spec reads. */
Test(check_all, a_list_with_an_error_is_set_aside_whole)
{
    static const char *const w[] = { "/fabric/planes", "/overrides/0", "/bom/spares/nic", NULL };
    expect_wheres("{\"cluster\": {\"gpus\": 256}, \"fabric\": {\"planes\": 0},"
                  " \"overrides\": [{\"cable\": \"C1\"}, {\"cable\": \"C2\", \"length_m\": -1}],"
                  " \"bom\": {\"spares\": {\"nic\": 2}}}", FP_STAGE_ALL, FP_EINVAL, w);
}
