/* fabplan — the layout of a first phase (fabric.build_for_gpus): every device sits where the
 * plan for the target puts it, so the racks, positions and cable routes of what is installed
 * now are those of the full build and growing never moves anything. Devices are matched by
 * name (names take their widths from the target, see fabric.h). */
#include <stdlib.h>
#include <string.h>
#include "phys/phys.h"

/* Keep the racks that hold something now; positions (K12) are the full build's. keep[] maps
 * the full build's racks to the kept ones (-1 dropped). */
static void keep_used_racks(fp_layout *lay, const fp_fabric *fab, const fp_layout *full,
                            int64_t *keep)
{
    int64_t n = 0;
    for (int64_t r = 0; r < full->n_rack; r++) {
        keep[r] = lay->rack[r].devices > 0 ? n : -1;
        if (keep[r] >= 0) {
            lay->rack[n] = lay->rack[r];
            if (lay->rack[n].role == 0)
                lay->compute_racks++;
            else
                lay->network_racks++;
            n++;
        }
    }
    lay->n_rack = n;
    for (int64_t d = 0; d < fab->n_dev; d++)
        lay->dev_rack[d] = (int32_t)keep[lay->dev_rack[d]];
    lay->halls = full->halls;
    lay->rows = full->rows;
    lay->floor_w = full->floor_w;
    lay->floor_d = full->floor_d;
}

/* Every device of the full build by name: fname[d] its name, slot[] an open-addressing hash
 * table of n_slot entries (a power of two) holding device ids, -1 empty. */
static void name_index(const fp_fabric *ffab, const fp_rspec *frs, char (*fname)[64],
                       int64_t *slot, int64_t n_slot)
{
    memset(slot, 0xff, sizeof *slot * (size_t)n_slot);
    for (int64_t d = 0; d < ffab->n_dev; d++) {
        fp__device_name(fname[d], sizeof fname[d], ffab, frs, d);
        uint64_t h = fp__hash_text(fname[d]) & (uint64_t)(n_slot - 1);
        while (slot[h] >= 0)
            h = (h + 1) & (uint64_t)(n_slot - 1);
        slot[h] = d;
    }
}

fp_status fp__layout_project(fp_layout *lay, const fp_fabric *fab, const fp_rspec *rs,
                             const fp_layout *full, const fp_fabric *ffab, const fp_rspec *frs,
                             fp_error *err)
{
    int64_t n_slot = 1, *slot = NULL, *keep = NULL;
    char (*fname)[64] = NULL, name[64];
    fp_status rc = FP_OK;
    memset(lay, 0, sizeof *lay);
    while (n_slot < ffab->n_dev * 2 + 2)
        n_slot *= 2;
    slot = malloc(sizeof *slot * (size_t)n_slot);
    fname = malloc(sizeof *fname * (size_t)(ffab->n_dev ? ffab->n_dev : 1));
    keep = malloc(sizeof *keep * (size_t)(full->n_rack ? full->n_rack : 1));
    lay->dev_rack = calloc((size_t)(fab->n_dev ? fab->n_dev : 1), sizeof *lay->dev_rack);
    lay->dev_u = calloc((size_t)(fab->n_dev ? fab->n_dev : 1), sizeof *lay->dev_u);
    lay->rack = calloc((size_t)(full->n_rack ? full->n_rack : 1), sizeof *lay->rack);
    if (!slot || !fname || !keep || !lay->dev_rack || !lay->dev_u || !lay->rack) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for the layout");
        goto out;
    }
    name_index(ffab, frs, fname, slot, n_slot);
    for (int64_t r = 0; r < full->n_rack; r++) {
        lay->rack[r] = full->rack[r];
        lay->rack[r].units_used = 0;
        lay->rack[r].devices = 0;
    }
    for (int64_t d = 0; d < fab->n_dev; d++) {
        fp__device_name(name, sizeof name, fab, rs, d);
        uint64_t h = fp__hash_text(name) & (uint64_t)(n_slot - 1);
        int64_t f = -1;
        for (; slot[h] >= 0; h = (h + 1) & (uint64_t)(n_slot - 1))
            if (strcmp(fname[slot[h]], name) == 0) {
                f = slot[h];
                break;
            }
        if (f < 0) {
            rc = fp__error_set(err, FP_EDESIGN, "/fabric/build_for_gpus",
                               "internal error: %s is not in the plan for build_for_gpus", name);
            goto out;
        }
        int t = fab->dev[d].tier;
        fp_rack *rk = &lay->rack[full->dev_rack[f]];
        lay->dev_rack[d] = full->dev_rack[f];
        lay->dev_u[d] = full->dev_u[f];
        rk->units_used += t == 0 ? rs->phys.server_ru
                                 : (rs->tier[t - 1].model.ru > 0 ? rs->tier[t - 1].model.ru : 1);
        rk->devices++;
    }
    keep_used_racks(lay, fab, full, keep);
out:
    free(slot);
    free(fname);
    free(keep);
    if (rc != FP_OK)
        fp__layout_free(lay);
    return rc;
}
