/* Embedding fabplan: build a plan from a JSON string and print its totals.
 * Build: cc main.c $(pkg-config --cflags --libs fabplan)   (or via this project's CMake). */
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
    rc = 0;
out:
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return rc;
}
