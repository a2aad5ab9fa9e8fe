/* fabplan — compare.csv, compare.json and compare.html (write_report.c): the comparison table,
 * written all or nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "write/writers.h"
#include "fabplan/publish.h"

static fp_status write_csv(const fp_compare_row *rows, size_t n, const char *path, fp_error *err)
{
    FILE *f = fp__create(path, err);
    char num[64];
    if (f == NULL)
        return FP_EIO;
    fputs("design,topology,tiers,switch,leaf_oversubscription,status,switches,transceivers,cables,"
          "cost_usd,power_w,cost_per_gpu_usd,bisection_gbps,diameter_switches,reason\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const fp_compare_row *r = &rows[i];
        fp__csv_field(f, r->design);
        fprintf(f, ",%s,%d,", fp_topology_name(r->topology), r->tiers);
        fp__csv_field(f, r->switch_model);
        fprintf(f, ",%g,%s", r->oversubscription, r->status == FP_OK ? "ok" : "cannot work");
        if (r->status == FP_OK)
            fprintf(f, ",%lld,%lld,%lld,%.2f,%.1f,%.2f,%.0f,%d,", (long long)r->switches,
                    (long long)r->transceivers, (long long)r->cables, r->cost, r->power_w,
                    r->cost_per_gpu, r->bisection_gbps, r->diameter_switches);
        else
            fputs(",,,,,,,,,", f);
        snprintf(num, sizeof num, "%s", "");
        fp__csv_field(f, r->status == FP_OK ? num : r->reason);
        fputc('\n', f);
    }
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad)
        FP_FAIL(err, FP_EIO, path, "cannot write %s (disk full?)", path);
    return FP_OK;
}

static fp_status write_json(const fp_compare_row *rows, size_t n, const char *path, fp_error *err)
{
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "candidates");
    for (size_t i = 0; i < n; i++) {
        const fp_compare_row *r = &rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "design", r->design);
        cJSON_AddStringToObject(o, "topology", fp_topology_name(r->topology));
        cJSON_AddNumberToObject(o, "tiers", r->tiers);
        cJSON_AddStringToObject(o, "switch", r->switch_model);
        cJSON_AddNumberToObject(o, "leaf_oversubscription", r->oversubscription);
        cJSON_AddBoolToObject(o, "ok", r->status == FP_OK);
        if (r->status == FP_OK) {
            cJSON_AddNumberToObject(o, "switches", (double)r->switches);
            cJSON_AddNumberToObject(o, "transceivers", (double)r->transceivers);
            cJSON_AddNumberToObject(o, "cables", (double)r->cables);
            cJSON_AddNumberToObject(o, "cost_usd", r->cost);
            cJSON_AddNumberToObject(o, "power_w", r->power_w);
            cJSON_AddNumberToObject(o, "cost_per_gpu_usd", r->cost_per_gpu);
            cJSON_AddNumberToObject(o, "bisection_gbps", r->bisection_gbps);
            cJSON_AddNumberToObject(o, "diameter_switches", r->diameter_switches);
        } else {
            cJSON_AddStringToObject(o, "reason", r->reason);
        }
        cJSON_AddItemToArray(arr, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (text == NULL)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    FILE *f = fp__create(path, err);
    if (f == NULL) {
        cJSON_free(text);
        return FP_EIO;
    }
    int bad = fputs(text, f) < 0 || fputc('\n', f) == EOF;
    bad |= fclose(f) != 0;
    cJSON_free(text);
    if (bad)
        FP_FAIL(err, FP_EIO, path, "cannot write %s (disk full?)", path);
    return FP_OK;
}

fp_status fp_compare_write(const fp_compare_row *rows, size_t n, const char *dir, fp_error *err)
{
    static const char *const names[3] = { "compare.csv", "compare.json", "compare.html" };
    fp_status (*const writers[3])(const fp_compare_row *, size_t, const char *, fp_error *) = {
        write_csv, write_json, fp__write_compare_html
    };
    fp_publish *pub;
    fp_status rc;
    if (dir == NULL || (n > 0 && rows == NULL))
        FP_FAIL(err, FP_EINVAL, "", "fp_compare_write: NULL argument");
    if ((rc = fp_publish_begin(dir, &pub, err)) != FP_OK)
        return rc;
    for (int i = 0; i < 3; i++) {
        char path[4600];
        if ((rc = fp_publish_path(pub, names[i], path, sizeof path, err)) != FP_OK ||
            (rc = writers[i](rows, n, path, err)) != FP_OK) {
            fp_publish_abort(pub);
            return rc;
        }
    }
    return fp_publish_commit(pub, err);
}
