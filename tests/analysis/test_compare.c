/* compare: the table does not depend on the number of threads, and the refusal by arithmetic
 * (fp__compare_refuse: spec checks and tier sizing, nothing built) agrees with what a full
 * build says of the same candidates. */
#include "helpers.h"
#include "analysis/analysis.h"

static fp_compare_row *designs(const fp_catalog *cat, int64_t gpus, int jobs, size_t *n)
{
    fp_error err = { 0 };
    fp_compare_row *rows = NULL;
    fp_compare_options o = FP_COMPARE_OPTIONS_INIT;
    o.jobs = jobs;
    cr_assert_eq(fp_compare_designs_opts(&rows, n, cat, NULL, gpus, &o, &err), FP_OK, "%s",
                 err.msg);
    return rows;
}

/* The same rows, byte for byte (rows are zeroed before they are filled), with 1, 2 and 3
 * threads and with the serial entry point. */
Test(compare, rows_do_not_depend_on_jobs)
{
    fp_catalog *cat = NULL;
    fp_error err = { 0 };
    size_t n1 = 0, n2 = 0, n3 = 0, n0 = 0;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    fp_compare_row *r1 = designs(cat, 4096, 1, &n1);
    fp_compare_row *r2 = designs(cat, 4096, 2, &n2);
    fp_compare_row *r3 = designs(cat, 4096, 3, &n3);
    fp_compare_row *r0 = NULL;
    cr_assert_eq(fp_compare_designs(&r0, &n0, cat, NULL, 4096, &err), FP_OK);
    cr_assert_gt(n1, 20);
    cr_assert_eq(n2, n1);
    cr_assert_eq(n3, n1);
    cr_assert_eq(n0, n1);
    size_t ok = 0;
    for (size_t i = 0; i < n1; i++) {
        ok += r1[i].status == FP_OK;
        cr_expect_eq(memcmp(&r1[i], &r2[i], sizeof r1[i]), 0, "row %zu: %s / %s", i,
                     r1[i].design, r2[i].design);
        cr_expect_eq(memcmp(&r1[i], &r3[i], sizeof r1[i]), 0, "row %zu: %s", i, r1[i].design);
        cr_expect_eq(memcmp(&r1[i], &r0[i], sizeof r1[i]), 0, "row %zu: %s", i, r1[i].design);
    }
    /* both kinds of row are there, so the comparison covers planned and refused candidates */
    cr_expect(ok > 0 && ok < n1);
    fp_compare_free(r0);
    fp_compare_free(r1);
    fp_compare_free(r2);
    fp_compare_free(r3);

    /* given specs: the same with 2 threads as with 1 */
    const char *texts[] = { "{\"cluster\":{\"gpus\":512}}",
                            "{\"cluster\":{\"gpus\":4096},\"fabric\":{\"tiers\":2}}",
                            "{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"fat-tree\"}}" };
    fp_spec *specs[3];
    for (int i = 0; i < 3; i++)
        cr_assert_eq(fp_spec_parse(&specs[i], texts[i], strlen(texts[i]), "<test>", &err), FP_OK);
    fp_compare_options o = FP_COMPARE_OPTIONS_INIT;
    fp_compare_row *s1 = NULL, *s2 = NULL;
    o.jobs = 1;
    cr_assert_eq(fp_compare_specs_opts(&s1, &n1, cat, (const fp_spec *const *)specs, NULL, 3, 0,
                                       &o, &err), FP_OK);
    o.jobs = 2;
    cr_assert_eq(fp_compare_specs_opts(&s2, &n2, cat, (const fp_spec *const *)specs, NULL, 3, 0,
                                       &o, &err), FP_OK);
    cr_assert_eq(n1, 3);
    cr_assert_eq(n2, 3);
    cr_expect_eq(memcmp(s1, s2, sizeof *s1 * 3), 0);
    /* 4,096 GPUs in 2 tiers of the default's 64-port switches exceed 64^2 / 2 = 2,048: the one
     * row that fails, listed after the two that work */
    cr_expect_eq(s1[0].status, FP_OK, "%s", s1[0].reason);
    cr_expect_eq(s1[1].status, FP_OK, "%s", s1[1].reason);
    cr_expect_eq(s1[2].status, FP_EDESIGN);
    cr_expect(strstr(s1[2].reason, "2-tier maximum of 2048 GPUs") != NULL, "%s", s1[2].reason);
    fp_compare_free(s1);
    fp_compare_free(s2);
    for (int i = 0; i < 3; i++)
        fp_spec_free(specs[i]);
    fp_catalog_free(cat);
}

/* Every generated candidate at 4,096 and 512 GPUs: when the arithmetic refuses one, a full
 * build refuses it with the same status and message; when it does not, a full build gets past
 * the sizing (it may still fail later, for a reason the sizing cannot know, such as a route
 * longer than any part's reach). */
Test(compare, refusal_agrees_with_full_build)
{
    static const char *const topo[] = { "clos", "fat-tree", "rail-optimized" };
    static const int ratio[] = { 1, 2, 3 };
    static const int64_t sizes[] = { 4096, 512 };
    fp_catalog *cat = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    int refused = 0, passed = 0, built = 0, th3_2t = 0, th3_3t = 0;
    for (size_t g = 0; g < 2; g++)
        for (size_t i = 0; i < fp_catalog_count(cat); i++) {
            const fp_part *sw = fp_catalog_part(cat, i);
            if (sw->type != FP_PART_SWITCH)
                continue;
            for (int t = 0; t < 3; t++)
                for (int tiers = 2; tiers <= 4; tiers++)
                    for (int r = 0; r < 3; r++) {
                        char json[512];
                        snprintf(json, sizeof json,
                                 "{\"cluster\":{\"gpus\":%lld},\"fabric\":{\"topology\":\"%s\","
                                 "\"tiers\":%d,\"switch\":\"%s\",\"oversubscription\":[%d]}}",
                                 (long long)sizes[g], topo[t], tiers, sw->id, ratio[r]);
                        fp_spec *spec = NULL;
                        fp_plan *plan = NULL;
                        fp_error e1 = { 0 }, e2 = { 0 };
                        cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &e1), FP_OK);
                        fp_status a = fp__compare_refuse(cat, spec, &e1);
                        fp_status b = fp_plan_new(&plan, spec, cat, &e2);
                        if (a != FP_OK) {
                            refused++;
                            cr_expect_eq(b, a, "%s: %s / %s", json, e1.msg, e2.msg);
                            cr_expect_str_eq(e2.msg, e1.msg, "%s", json);
                        } else {
                            passed++;
                            built += b == FP_OK;
                            cr_expect(b == FP_OK || strstr(e2.msg, "-tier maximum") == NULL,
                                      "%s: %s", json, e2.msg);
                        }
                        /* 32-port switches at 1:1 (k = 32): 2 tiers hold k^2 / 2 = 512 GPUs
                         * (one NIC port per GPU), 3 tiers k^3 / 4 = 8,192 */
                        if (sizes[g] == 4096 && strcmp(sw->id, "generic-th3-32x400") == 0 &&
                            t == 0 && ratio[r] == 1 && tiers <= 3) {
                            if (tiers == 2) {
                                th3_2t = 1;
                                cr_expect_eq(a, FP_EDESIGN);
                                cr_expect(strstr(e1.msg, "maximum of 512 GPUs") != NULL, "%s", e1.msg);
                            } else {
                                th3_3t = 1;
                                cr_expect_eq(a, FP_OK, "%s", e1.msg);
                                cr_expect_eq(b, FP_OK, "%s", e2.msg);
                            }
                        }
                        fp_plan_free(plan);
                        fp_spec_free(spec);
                    }
        }
    cr_expect(th3_2t && th3_3t);
    cr_expect_gt(refused, 0);
    cr_expect_gt(built, 0);
    cr_expect_geq(passed, built);
    fp_catalog_free(cat);
}
