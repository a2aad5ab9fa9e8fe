/* Embedding fabplan: build a plan from a JSON string, print its totals, what its switches and
 * NICs cost (BOM categories), and a failure what-if (a report of its own; the plan is not
 * changed by it).
 * Build: cc main.c $(pkg-config --cflags --libs fabplan)   (or via this project's CMake);
 * static: cc main.c $(pkg-config --cflags fabplan) libfabplan.a $(pkg-config --static --libs fabplan). */
#include <stdio.h>
#include <string.h>
#include <fabplan.h>

static const char spec_json[] =
    "{ \"name\": \"embed-example\","
    "  \"cluster\": { \"gpus\": 4096, \"gpus_per_server\": 8 },"
    "  \"fabric\":  { \"topology\": \"rail-optimized\", \"switch\": \"nvidia-qm9700\" } }";

int main(int argc, char **argv)
{
    const char *json = argc > 1 ? argv[1] : spec_json;
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    int rc = 1;

    if (fp_catalog_new(&cat, &err) != FP_OK ||
        fp_spec_parse(&spec, json, strlen(json), "<embedded>", &err) != FP_OK ||
        fp_plan_new(&plan, spec, cat, &err) != FP_OK) {
        fprintf(stderr, "error: %s (%s)\n", err.msg, fp_strerror(err.code));
        goto out;
    }
    fp_summary s;
    fp_plan_summary(plan, &s);
    printf("gpus %lld\nservers %lld\ntiers %d\nswitches %lld\nlinks %lld\n", (long long)s.gpus,
           (long long)s.servers, s.tiers, (long long)s.switches, (long long)s.links);
    for (size_t i = 0; i < fp_plan_tier_count(plan); i++) {
        fp_tier_info t;
        fp_plan_tier(plan, i, &t, NULL);
        printf("tier %d %s %s %lld\n", t.tier, t.role, t.model, (long long)t.switches);
    }
    /* Totals a costing tool reads: all of the BOM, and one category by its enum. */
    fp_totals tot;
    double switch_cost = 0;
    fp_plan_totals(plan, &tot);
    if (fp_plan_bom_category_total(&switch_cost, NULL, plan, FP_BOM_SWITCH, &err) != FP_OK)
        goto fail;
    printf("cost %.2f\n%s cost %.2f\n", tot.cost, fp_bom_category_name(FP_BOM_SWITCH),
           switch_cost);
    /* A what-if: one spine down. The report is the caller's; run as many as wanted. */
    const char *what_if[] = { "spine:1" };
    fp_failure_report rep;
    if (fp_plan_fail(&rep, plan, what_if, 1, 1, &err) != FP_OK)
        goto fail;
    printf("what-if %s: bisection %.0f -> %.0f Gb/s\n", rep.specs[0], rep.bisection_before_gbps,
           rep.bisection_after_gbps);
    rc = 0;
    goto out;
fail:
    /* The error record keeps the first failure until cleared (fp_error_clear). */
    fprintf(stderr, "error: %s (%s)\n", err.msg, fp_strerror(err.code));
    fp_error_clear(&err);
out:
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return rc;
}
