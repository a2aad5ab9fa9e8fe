/* Fuzz the catalog: any bytes as a user catalog merged over the built-in one; when accepted,
 * a small default plan and the 256-GPU networks preset (hgx-h100-enterprise-32) must build
 * with it or be refused cleanly (no crash on odd parts). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fp_catalog *cat = NULL;
    fp_error err = { 0 };
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    FUZZ_CHECK(fp_catalog_new(&cat, &err) == FP_OK, "%s", err.msg);
    size_t before = fp_catalog_count(cat);
    fp_status rc = fp_catalog_merge_string(cat, text, size, "fuzz-catalog.json", &err);
    fuzz_check_error(rc, &err);
    if (rc != FP_OK) {
        FUZZ_CHECK(fp_catalog_count(cat) == before, "a failed merge changed the catalog");
    } else {
        /* parts stay sorted by (type, id) */
        for (size_t i = 1; i < fp_catalog_count(cat); i++) {
            const fp_part *a = fp_catalog_part(cat, i - 1), *b = fp_catalog_part(cat, i);
            FUZZ_CHECK(a->type < b->type || (a->type == b->type && strcmp(a->id, b->id) < 0),
                       "catalog not sorted at %zu", i);
        }
        fp_spec *spec = NULL;
        const char *j = "{\"cluster\":{\"gpus\":64}}";
        FUZZ_CHECK(fp_spec_parse(&spec, j, strlen(j), "<fuzz>", &err) == FP_OK, "%s", err.msg);
        fp_plan_free(fuzz_plan(spec, cat));
        fp_spec_free(spec);
        /* the networks preset: its SN2201 (uplink ports), SN4600C and SN5600 as the user's
         * catalog redefines them */
        spec = NULL;
        FUZZ_CHECK(fp_spec_preset(&spec, "hgx-h100-enterprise-32", &err) == FP_OK, "%s", err.msg);
        fp_plan_free(fuzz_plan(spec, cat));
        fp_spec_free(spec);
    }
    fp_catalog_free(cat);
    free(text);
    return 0;
}
