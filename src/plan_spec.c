/* fabplan — the resolved spec as text (fp_spec_resolved_json). The spec stage prints it
 * (spec_print.c); a spec with `networks` is first planned to its fabric, because each network
 * is resolved only after the compute fabric and the networks before it are built (an endpoint
 * count "switches", a network's uplink_to), and its entry is printed as that resolution. */
#include "plan_data.h"

fp_status fp_spec_resolved_json(const fp_spec *spec, const fp_catalog *cat, char **out,
                                fp_error *err)
{
    if (spec == NULL || cat == NULL || out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_resolved_json: %s is NULL",
                spec == NULL ? "spec" : cat == NULL ? "cat" : "out");
    *out = NULL;
    if (fp__spec_networks(spec) == NULL)
        return fp__spec_print(spec, cat, NULL, out, err);
    fp_plan *plan = NULL;
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    o.stages = FP_STAGE_FABRIC;
    fp_status rc = fp_plan_new_opts(&plan, spec, cat, &o, err);
    if (rc == FP_OK)
        rc = fp__spec_print(spec, cat, &plan->nets, out, err);
    fp_plan_free(plan);
    return rc;
}
