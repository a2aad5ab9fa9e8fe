/* fabplan — every device's name and location text, formatted once per plan into one flat
 * buffer (fp_names): the per-link and per-cable documents print half a million rows at full
 * scale, and formatting names from ids for every row was most of their cost. */
#include <stdlib.h>
#include <string.h>
#include "phys/phys.h"

static fp_status port_names_build(fp_names *nm, const fp_fabric *fab, const fp_rspec *rs,
                                  fp_error *err);

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
    fp_status rc = port_names_build(nm, fab, rs, err);
    if (rc != FP_OK)
        fp__names_free(nm);
    return rc;
}

/* Every port name links use, per tier (names.c names ports by tier and port alone). */
static fp_status port_names_build(fp_names *nm, const fp_fabric *fab, const fp_rspec *rs,
                                  fp_error *err)
{
    int64_t used[FP_MAX_TIERS + 1] = { 0 };
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        int ta = fab->dev[l->a].tier, tz = fab->dev[l->z].tier;
        if (l->a_port + 1 > used[ta])
            used[ta] = l->a_port + 1;
        if (l->z_port + 1 > used[tz])
            used[tz] = l->z_port + 1;
    }
    nm->port_base[0] = 0;
    for (int t = 0; t <= FP_MAX_TIERS; t++)
        nm->port_base[t + 1] = nm->port_base[t] + (t <= fab->tiers ? used[t] : 0);
    int64_t n = nm->port_base[FP_MAX_TIERS + 1];
    size_t cap = (size_t)n * 16 + 64, len = 0;
    nm->port_off = malloc((size_t)(n + 1) * sizeof *nm->port_off);
    nm->port_text = malloc(cap);
    if (nm->port_off == NULL || nm->port_text == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for %lld port names", (long long)n);
    for (int t = 0; t <= fab->tiers && t <= FP_MAX_TIERS; t++)
        for (int64_t p = 0; p < used[t]; p++) {
            char name[FP_PORT_NAME_MAX];
            fp__port_name(name, sizeof name, fab, rs, fab->tier_base[t], (int)p);
            size_t a = strlen(name) + 1;
            if (len + a > cap) {
                char *g = realloc(nm->port_text, cap = (len + a) * 2);
                if (g == NULL)
                    FP_FAIL(err, FP_ENOMEM, "", "out of memory for %lld port names", (long long)n);
                nm->port_text = g;
            }
            nm->port_off[nm->port_base[t] + p] = (uint32_t)len;
            memcpy(nm->port_text + len, name, a);
            len += a;
        }
    nm->port_off[n] = (uint32_t)len;
    return FP_OK;
}

void fp__names_free(fp_names *nm)
{
    free(nm->port_off);
    free(nm->port_text);
    free(nm->off);
    free(nm->text);
    memset(nm, 0, sizeof *nm);
}
