/* Fuzz the spec: any bytes as a spec file, then the plan it asks for (up to FUZZ_MAX_GPUS). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fp_spec *spec = NULL;
    fp_error err = { 0 };
    fp_status rc = fp_spec_parse(&spec, (const char *)data, size, "fuzz.json", &err);
    fuzz_check_error(rc, &err);
    if (rc == FP_OK) {
        fp_plan *plan = fuzz_plan(spec, fuzz_catalog());
        if (plan) {
            fp_summary s;
            fp_plan_summary(plan, &s);
            FUZZ_CHECK(s.gpus >= 1 && s.servers >= 1, "empty plan");
        }
        fp_plan_free(plan);
    }
    fp_spec_free(spec);
    return 0;
}
