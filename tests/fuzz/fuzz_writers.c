/* Fuzz the writers: the first bytes choose a small plan (GPUs, topology, planes, split), the
 * rest is the plan's name (any bytes: the name rule must refuse what the outputs cannot hold).
 * With bit 4 of the fourth byte set the rest is a whole spec instead (its networks, layout and
 * catalog parts reach the writers: NetBox, networks in plan.json, split workbooks); bit 3
 * asks for TIA-606 labels. Every accepted plan is written (CSV, JSON, workbook, NetBox) and
 * plan.json must parse. */
#include <cjson/cJSON.h>
#include "fuzz_common.h"

/* The spec text: the plan the first bytes choose, named by the rest; or the rest itself. */
static char *spec_text(const uint8_t *data, size_t size)
{
    static const char *const topo[] = { "rail-optimized", "clos", "fat-tree" };
    char *text = malloc(size - 4 + 1);
    memcpy(text, data + 4, size - 4);
    text[size - 4] = '\0';
    if (data[3] & 16)
        return text;
    int gpus = 8 * (1 + data[0] % 64), planes = 1 + data[1] % 2;
    cJSON *root = cJSON_CreateObject(), *cluster = cJSON_AddObjectToObject(root, "cluster"),
          *fabric = cJSON_AddObjectToObject(root, "fabric");
    cJSON_AddStringToObject(root, "name", text);
    free(text);
    cJSON_AddNumberToObject(cluster, "gpus", gpus);
    if (planes == 2)
        cJSON_AddStringToObject(cluster, "nic", "generic-nic-2x400");
    cJSON_AddStringToObject(fabric, "topology", topo[data[2] % 3]);
    cJSON_AddNumberToObject(fabric, "planes", planes);
    char *json = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    text = strdup(json);
    cJSON_free(json);
    return text;
}

static void write_and_check(const fp_plan *plan, const uint8_t *data)
{
    const char *dir = fuzz_out_dir("w");
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_JSON | FP_WRITE_LINKS | FP_WRITE_CABLES | FP_WRITE_BOM |
                FP_WRITE_LABELS | FP_WRITE_NETBOX | FP_WRITE_TOPOLOGY;
    if (data[3] & 1)
        o.formats |= FP_WRITE_XLSX;
    o.split_by = (fp_split_by)((data[3] >> 1) % 3);
    if (o.split_by != FP_SPLIT_NONE)
        o.formats |= FP_WRITE_XLSX;
    if (data[3] & 8)
        o.labels = FP_LABELS_TIA606;
    fp_status rc = fp_plan_write(plan, dir, &o, &err);
    fuzz_check_error(rc, &err);
    FUZZ_CHECK(rc == FP_OK, "writing failed: %s", err.msg);
    char *json = fuzz_slurp(dir, "plan.json");
    FUZZ_CHECK(json != NULL, "no plan.json");
    cJSON *back = cJSON_Parse(json);
    FUZZ_CHECK(back != NULL, "plan.json does not parse");
    cJSON_Delete(back);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    char *text = spec_text(data, size);
    fp_spec *spec = NULL;
    fp_error err = { 0 };
    fp_status rc = fp_spec_parse(&spec, text, strlen(text), "<fuzz>", &err);
    free(text);
    fuzz_check_error(rc, &err);
    /* a name alone must be refused by the parser or be writable; a whole spec may be refused */
    FUZZ_CHECK(rc == FP_OK || (data[3] & 16), "%s", err.msg);
    fp_plan *plan = rc == FP_OK ? fuzz_plan(spec, fuzz_catalog()) : NULL;
    if (plan)
        write_and_check(plan, data);
    fp_plan_free(plan);
    fp_spec_free(spec);
    return 0;
}
