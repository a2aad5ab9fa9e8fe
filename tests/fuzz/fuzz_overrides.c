/* Fuzz the cable overrides file: any bytes as the file a spec names in "overrides", applied
 * to a small plan. */
#include <unistd.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    char spec_text[160];
    fp_spec *spec = NULL;
    fp_error err = { 0 };
    if (path[0] == '\0')
        snprintf(path, sizeof path, "/tmp/fabplan-fuzz-ov-%ld.json", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    snprintf(spec_text, sizeof spec_text, "{\"cluster\":{\"gpus\":64},\"overrides\":\"%s\"}", path);
    FUZZ_CHECK(fp_spec_parse(&spec, spec_text, strlen(spec_text), "<fuzz>", &err) == FP_OK, "%s",
               err.msg);
    fp_plan_free(fuzz_plan(spec, fuzz_catalog()));
    fp_spec_free(spec);
    unlink(path);
    return 0;
}
