/* fabplan — CSV documents. */
#include <stdio.h>
#include "internal.h"

fp_status fp__write_links_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                              fp_error *err)
{
    const fp_fabric *fab = &plan->fab;
    const fp_rspec *rs = &plan->rs;
    FILE *f = fopen(path, "wb");
    char an[48], zn[48], ap[16], zp[16], bn[32];
    if (f == NULL)
        FP_FAIL(err, FP_EIO, path, "cannot create %s", path);
    /* A large buffer: this file has one row per link (half a million at full scale). */
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    fputs("link_id,a_device,a_port,z_device,z_port,speed_gbps,boundary,plane\n", f);
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        fprintf(f, "L%07lld,%s,%s,%s,%s,%d,%s,%d\n", (long long)i + 1,
                fp__device_name(an, sizeof an, fab, rs, l->a),
                fp__port_name(ap, sizeof ap, fab, rs, l->a, l->a_port),
                fp__device_name(zn, sizeof zn, fab, rs, l->z),
                fp__port_name(zp, sizeof zp, fab, rs, l->z, l->z_port), rs->link_gbps,
                fp__boundary_name(l->boundary, fab->tiers, bn, sizeof bn), l->plane + 1);
        if (o && o->progress && (i & 0xffff) == 0)
            o->progress("links.csv", (double)i / (double)fab->n_link, o->payload);
    }
    if (o && o->progress)
        o->progress("links.csv", 1.0, o->payload);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad)
        FP_FAIL(err, FP_EIO, path, "cannot write %s (disk full?)", path);
    return FP_OK;
}
