/* Fuzz the writers: the first bytes choose a small plan (GPUs, topology, planes, split), the
 * rest is the plan's name (any bytes: the name rule must refuse what the outputs cannot hold).
 * With bit 4 of the fourth byte set the rest is a whole spec instead (its networks, layout and
 * catalog parts reach the writers: NetBox, networks in plan.json, split workbooks); bit 3
 * asks for TIA-606 labels. Every accepted plan is written (CSV, JSON, workbook, NetBox) and
 * plan.json must parse. */
#include <cjson/cJSON.h>
#include <unistd.h>
#include "fuzz_common.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = '\0';
    fclose(f);
    return b;
}

static char dir[256];

/* The output folder is reused by every input of this process; gone when the process ends. */
static void remove_outputs(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz_writers: could not remove %s\n", dir);
}

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
    char path[300];
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *json = slurp(path);
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
    if (dir[0] == '\0') {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/fabplan-fuzz-w-%ld", tmp != NULL && *tmp ? tmp : "/tmp", (long)getpid());
        atexit(remove_outputs);
    }
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
