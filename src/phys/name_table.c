/* fabplan — every device's name and location text, formatted once per plan into one flat
 * buffer (fp_names): the per-link and per-cable documents print half a million rows at full
 * scale, and formatting names from ids for every row was most of their cost. */
#include <stdlib.h>
#include <string.h>
#include "phys/phys.h"

fp_status fp__names_build(fp_names *nm, const fp_fabric *fab, const fp_rspec *rs,
                          const fp_layout *lay, fp_error *err)
{
    size_t n = (size_t)fab->n_dev, cap = n * 40 + 64, len = 0;
    memset(nm, 0, sizeof *nm);
    nm->off = malloc((2 * n + 1) * sizeof *nm->off);
    nm->text = malloc(cap);
    if (nm->off == NULL || nm->text == NULL) {
        fp__names_free(nm);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for %zu device names", n);
    }
    int have_layout = lay != NULL && lay->rack != NULL && lay->dev_rack != NULL;
    for (size_t i = 0; i < n; i++) {
        char name[48];      /* the size every writer used: fp_cable_end.device_name */
        fp_location loc;
        loc.text[0] = '\0';
        fp__device_name(name, sizeof name, fab, rs, (int64_t)i);
        if (have_layout)
            fp__location(&loc, lay, (int64_t)i);
        size_t a = strlen(name) + 1, b = strlen(loc.text) + 1;
        if (len + a + b > cap) {
            size_t ncap = (len + a + b) * 2;
            char *t = realloc(nm->text, ncap);
            if (t == NULL) {
                fp__names_free(nm);
                FP_FAIL(err, FP_ENOMEM, "", "out of memory for %zu device names", n);
            }
            nm->text = t;
            cap = ncap;
        }
        nm->off[2 * i] = (uint32_t)len;
        memcpy(nm->text + len, name, a);
        len += a;
        nm->off[2 * i + 1] = (uint32_t)len;
        memcpy(nm->text + len, loc.text, b);
        len += b;
    }
    nm->off[2 * n] = (uint32_t)len;
    nm->n_dev = (int64_t)n;
    return FP_OK;
}

void fp__names_free(fp_names *nm)
{
    free(nm->off);
    free(nm->text);
    memset(nm, 0, sizeof *nm);
}
