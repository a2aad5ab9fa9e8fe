/* fabplan — write every document into a directory, all or nothing. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "write/writers.h"

typedef fp_status (*writer_fn)(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);

static fp_status json_writer(const fp_plan *plan, const char *path, const fp_write_options *o,
                             fp_error *err)
{
    (void)o;
    return fp__write_json(plan, path, err);
}

/* An output is written when all of its flag bits are set. name_fn, when given, names the file
 * from the options (returns 0 when this plan has nothing to write there). split !=
 * FP_SPLIT_NONE: written only when the options ask for that split, and the name is a directory
 * of workbooks (replaced as a whole). */
typedef struct output {
    const char *name;
    unsigned flag;
    writer_fn fn;
    int (*name_fn)(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                   size_t n);
    fp_split_by split;
} output;

static const output outputs[] = {
    { "plan.json", FP_WRITE_JSON, json_writer, NULL, FP_SPLIT_NONE },
    { "links.csv", FP_WRITE_LINKS, fp__write_links_csv, NULL, FP_SPLIT_NONE },
    { "cables.csv", FP_WRITE_CABLES, fp__write_cables_csv, NULL, FP_SPLIT_NONE },
    { "bom.csv", FP_WRITE_BOM, fp__write_bom_csv, NULL, FP_SPLIT_NONE },
    { "plan.xlsx", FP_WRITE_XLSX, fp__write_xlsx, NULL, FP_SPLIT_NONE },
    { "by-row", FP_WRITE_XLSX, fp__write_xlsx_split, NULL, FP_SPLIT_ROW },
    { "by-hall", FP_WRITE_XLSX, fp__write_xlsx_split, NULL, FP_SPLIT_HALL },
    { "labels.csv", FP_WRITE_LABELS, fp__write_labels_csv, NULL, FP_SPLIT_NONE },
    /* The NetBox set, in the order NetBox imports it (docs/outputs.md). */
    { "netbox-sites.csv", FP_WRITE_NETBOX, fp__write_netbox_sites, NULL, FP_SPLIT_NONE },
    { "netbox-manufacturers.csv", FP_WRITE_NETBOX, fp__write_netbox_manufacturers, NULL, FP_SPLIT_NONE },
    { "netbox-device-roles.csv", FP_WRITE_NETBOX, fp__write_netbox_roles, NULL, FP_SPLIT_NONE },
    { "netbox-device-types.csv", FP_WRITE_NETBOX, fp__write_netbox_device_types, NULL, FP_SPLIT_NONE },
    { "netbox-racks.csv", FP_WRITE_NETBOX, fp__write_netbox_racks, NULL, FP_SPLIT_NONE },
    { "netbox-devices.csv", FP_WRITE_NETBOX, fp__write_netbox_devices, NULL, FP_SPLIT_NONE },
    { "netbox-interfaces.csv", FP_WRITE_NETBOX, fp__write_netbox_interfaces, NULL, FP_SPLIT_NONE },
    { "netbox-cables.csv", FP_WRITE_NETBOX, fp__write_netbox_cables, NULL, FP_SPLIT_NONE },
    { "topology.csv", FP_WRITE_TOPOLOGY, fp__write_topology_csv, NULL, FP_SPLIT_NONE },
    { "avd-cv-topology.yml", FP_WRITE_AVD, fp__write_avd_topology, fp__avd_file_name, FP_SPLIT_NONE },
    { "fabric.dot", FP_WRITE_OVERVIEW, fp__write_overview, NULL, FP_SPLIT_NONE },
    { "fabric.svg", FP_WRITE_OVERVIEW, fp__write_overview, NULL, FP_SPLIT_NONE },
    { "fabric.png", FP_WRITE_OVERVIEW | FP_WRITE_PNG, fp__write_overview, NULL, FP_SPLIT_NONE },
    { "dot", FP_WRITE_DETAIL, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE },
    { "svg", FP_WRITE_DETAIL, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE },
    { "png", FP_WRITE_DETAIL | FP_WRITE_PNG, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE },
    { "floor.dot", FP_WRITE_FLOOR, fp__write_floor, NULL, FP_SPLIT_NONE },
    { "floor.svg", FP_WRITE_FLOOR, fp__write_floor, NULL, FP_SPLIT_NONE },
    { "floor.png", FP_WRITE_FLOOR | FP_WRITE_PNG, fp__write_floor, NULL, FP_SPLIT_NONE },
};
#define N_OUTPUTS (sizeof outputs / sizeof outputs[0])

/* Remove a file, or a directory of files (one level: the split workbooks). */
static void remove_output(const char *path)
{
    DIR *d = opendir(path);
    if (d == NULL) {
        unlink(path);
        return;
    }
    struct dirent *e;
    char sub[4400];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        unlink(sub);
    }
    closedir(d);
    rmdir(path);
}

static fp_status make_dirs(const char *dir, fp_error *err)
{
    char path[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path)
        FP_FAIL(err, FP_EIO, dir, "bad output directory \"%s\"", dir);
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] == '/' || path[i] == '\0') {
            char c = path[i];
            path[i] = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                FP_FAIL(err, FP_EIO, path, "cannot create directory %s: %s", path, strerror(errno));
            path[i] = c;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        FP_FAIL(err, FP_EIO, dir, "%s is not a directory", dir);
    return FP_OK;
}

fp_status fp_plan_write(const fp_plan *plan, const char *dir, const fp_write_options *opts,
                        fp_error *err)
{
    fp_write_options def = FP_WRITE_OPTIONS_INIT;
    char tmp[N_OUTPUTS][4200], final[N_OUTPUTS][4200];
    int written[N_OUTPUTS] = { 0 };
    fp_status rc = FP_OK;
    if (plan == NULL || dir == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_write: NULL plan or directory");
    if (opts == NULL)
        opts = &def;
    /* Options that depend on the plan are checked before anything touches the disk. */
    if ((opts->formats & FP_WRITE_DETAIL) && (rc = fp__detail_check(plan, opts, err)) != FP_OK)
        return rc;
    if ((rc = make_dirs(dir, err)) != FP_OK)
        return rc;
    fp_split_by split = opts->version >= 2 ? opts->split_by : FP_SPLIT_NONE;
    for (size_t i = 0; i < N_OUTPUTS; i++) {
        char name[256];
        if ((opts->formats & outputs[i].flag) != outputs[i].flag ||
            (outputs[i].split != FP_SPLIT_NONE && outputs[i].split != split))
            continue;
        snprintf(name, sizeof name, "%s", outputs[i].name);
        if (outputs[i].name_fn && !outputs[i].name_fn(plan, opts, outputs[i].name, name, sizeof name))
            continue;
        snprintf(final[i], sizeof final[i], "%s/%s", dir, name);
        snprintf(tmp[i], sizeof tmp[i], "%s/.%s.tmp", dir, name);
        written[i] = 1;
        if ((rc = outputs[i].fn(plan, tmp[i], opts, err)) != FP_OK)
            goto out;
    }
    for (size_t i = 0; i < N_OUTPUTS; i++) {
        if (written[i] && outputs[i].split != FP_SPLIT_NONE)
            remove_output(final[i]);    /* rename cannot replace a non-empty directory */
        if (written[i] && rename(tmp[i], final[i]) != 0) {
            rc = fp__error_set(err, FP_EIO, final[i], "cannot rename %s to %s: %s", tmp[i],
                               final[i], strerror(errno));
            goto out;
        }
    }
    return FP_OK;
out:
    for (size_t i = 0; i < N_OUTPUTS; i++)
        if (written[i])
            remove_output(tmp[i]);
    return rc;
}
