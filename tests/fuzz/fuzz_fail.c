/* Fuzz the failure what-ifs (fabplan plan --fail): the first byte chooses one of three small
 * plans (the 256-GPU networks preset, a 3-tier Clos in two halls, the default at 64 GPUs), the
 * second the seed, the rest is the failure specs, one per line (more lines than
 * FP_FAIL_MAX_SPECS must be refused). A spec is refused with a message or measured; every
 * network's what-if follows, and plan.json with the "failure" section must parse. */
#include <cjson/cJSON.h>
#include "fuzz_common.h"

static fp_plan *make_plan(const char *json)
{
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    fp_error err = { 0 };
    FUZZ_CHECK(fp_spec_parse(&spec, json, strlen(json), "<fuzz>", &err) == FP_OK, "%s", err.msg);
    FUZZ_CHECK(fp_plan_new(&plan, spec, fuzz_catalog(), &err) == FP_OK, "%s", err.msg);
    fp_spec_free(spec);
    return plan;
}

/* The three plans, built once: a plan that is only read may be shared. */
static const fp_plan *plan_of(int k)
{
    static fp_plan *plans[3];
    if (plans[0] == NULL) {
        fp_spec *spec = NULL;
        fp_error err = { 0 };
        FUZZ_CHECK(fp_spec_preset(&spec, "hgx-h100-enterprise-32", &err) == FP_OK, "%s", err.msg);
        FUZZ_CHECK(fp_plan_new(&plans[0], spec, fuzz_catalog(), &err) == FP_OK, "%s", err.msg);
        fp_spec_free(spec);
        /* 32-port switches: 2 pods of 256 GPUs, one a hall */
        plans[1] = make_plan("{\"cluster\":{\"gpus\":512},\"fabric\":{\"topology\":\"clos\",\"tiers\":3,"
                             "\"switch\":\"generic-th3-32x400\"},\"layout\":{\"halls\":2}}");
        plans[2] = make_plan("{\"cluster\":{\"gpus\":64}}");
    }
    return plans[k];
}

static void write_report(const fp_plan *plan, const fp_failure_report *r)
{
    const char *dir = fuzz_out_dir("f");
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    fp_error err = { 0 };
    o.formats = FP_WRITE_JSON;
    o.failure = r;
    fp_status rc = fp_plan_write(plan, dir, &o, &err);
    FUZZ_CHECK(rc == FP_OK, "writing failed: %s", err.msg);
    char *text = fuzz_slurp(dir, "plan.json");
    FUZZ_CHECK(text != NULL, "no plan.json");
    cJSON *back = cJSON_Parse(text);
    FUZZ_CHECK(cJSON_GetObjectItemCaseSensitive(back, "failure") != NULL, "plan.json without failure");
    cJSON_Delete(back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const fp_plan *plan = plan_of(data[0] % 3);
    char *text = malloc(size - 2 + 1), *specs[48];
    size_t n = 0;
    memcpy(text, data + 2, size - 2);
    text[size - 2] = '\0';
    for (char *s = text, *nl; s != NULL && n < 48; s = nl ? nl + 1 : NULL) {
        nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        specs[n++] = s;
    }
    fp_failure_report r;
    fp_error err = { 0 };
    fp_status rc = fp_plan_fail(&r, plan, (const char *const *)specs, n, data[1], &err);
    fuzz_check_error(rc, &err);
    if (rc == FP_OK) {
        FUZZ_CHECK(n <= FP_FAIL_MAX_SPECS, "%zu specs accepted", n);
        FUZZ_CHECK(r.n_specs == (int)n, "n_specs %d of %zu", r.n_specs, n);
        FUZZ_CHECK(r.switches_failed >= 0 && r.links_failed >= 0 && r.endpoints_cut_off >= 0,
                   "negative count");
        FUZZ_CHECK(r.bisection_after_gbps <= r.bisection_before_gbps * (1 + 1e-9) + 1e-6,
                   "bisection grew: %g -> %g", r.bisection_before_gbps, r.bisection_after_gbps);
        for (size_t i = 0; i < fp_plan_network_count(plan); i++) {
            fp_network_failure nf;
            rc = fp_plan_fail_network(&nf, plan, i, &r, &err);
            fuzz_check_error(rc, &err);
            FUZZ_CHECK(rc != FP_OK || nf.bisection_after_gbps <= nf.bisection_before_gbps * (1 + 1e-9) + 1e-6,
                       "network %zu bisection grew: %g -> %g", i, nf.bisection_before_gbps,
                       nf.bisection_after_gbps);
        }
        /* The table under the failures: the same scopes, none of them faster than as built. */
        fp_collectives built, failed;
        rc = fp_plan_collectives(&failed, plan, &r, &err);
        fuzz_check_error(rc, &err);
        FUZZ_CHECK(fp_plan_collectives(&built, plan, NULL, NULL) == FP_OK, "table as built");
        FUZZ_CHECK(rc != FP_OK || failed.n_scopes == built.n_scopes, "scopes %d, as built %d",
                   failed.n_scopes, built.n_scopes);
        for (int k = 0; rc == FP_OK && k < failed.n_scopes; k++)
            FUZZ_CHECK(failed.scope[k].gbps <= built.scope[k].gbps * (1 + 1e-9) + 1e-9,
                       "scope %s grew: %g -> %g", built.scope[k].scope, built.scope[k].gbps,
                       failed.scope[k].gbps);
        write_report(plan, &r);
    }
    free(text);
    return 0;
}
