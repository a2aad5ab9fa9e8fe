/* fabplan — CSV documents. */
#include <stdio.h>
#include <stdlib.h>
#include "write/writers.h"

fp_status fp__write_links_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                              fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_names *nm = fp__plan_names(plan);
    char row[256], speed[FP_MAX_TIERS + 1][16], bn[FP_MAX_TIERS + 1][32];
    size_t speed_len[FP_MAX_TIERS + 1];
    fp_outbuf *ob = NULL;
    fp_status rc;
    /* One row per link (half a million at full scale): names come from the plan's name table
     * and rows are assembled by hand, one fwrite per block. */
    if ((rc = fp__outbuf_open(&ob, path, NULL, err)) != FP_OK)
        return rc;
    for (int b = 0; b <= FP_MAX_TIERS; b++) {
        fp__boundary_name(b, fab->tiers, bn[b], sizeof bn[b]);
        speed_len[b] = (size_t)snprintf(speed[b], sizeof speed[b], ",%d,",
                                        rs->gbps[b < FP_MAX_TIERS ? b : FP_MAX_TIERS - 1]);
    }
    fp__outbuf_str(ob, "link_id,a_device,a_port,z_device,z_port,speed_gbps,boundary,plane\n");
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        size_t k = 0;
        row[k++] = 'L';
        k += fp__put_uint_w(row + k, (uint64_t)i + 1, 7);
        row[k++] = ',';
        fp__outbuf_put(ob, row, k);
        fp__outbuf_put(ob, fp__dev_name(nm, l->a), fp__dev_name_len(nm, l->a));
        fp__outbuf_char(ob, ',');
        fp__outbuf_str(ob, fp__port_name(row, FP_PORT_NAME_MAX, fab, rs, l->a, l->a_port));
        fp__outbuf_char(ob, ',');
        fp__outbuf_put(ob, fp__dev_name(nm, l->z), fp__dev_name_len(nm, l->z));
        fp__outbuf_char(ob, ',');
        fp__outbuf_str(ob, fp__port_name(row, FP_PORT_NAME_MAX, fab, rs, l->z, l->z_port));
        int sb = l->boundary < FP_MAX_TIERS ? l->boundary : FP_MAX_TIERS - 1;
        fp__outbuf_put(ob, speed[sb], speed_len[sb]);
        fp__outbuf_str(ob, (unsigned)l->boundary <= FP_MAX_TIERS
                               ? bn[l->boundary]
                               : fp__boundary_name(l->boundary, fab->tiers, row, 32));
        fp__outbuf_char(ob, ',');
        fp__outbuf_int(ob, l->plane + 1);
        fp__outbuf_char(ob, '\n');
        if (o && o->progress && (i & 0xffff) == 0)
            o->progress("links.csv", (double)i / (double)fab->n_link, o->payload);
    }
    if (o && o->progress)
        o->progress("links.csv", 1.0, o->payload);
    return fp__outbuf_close(ob, path, FP_OK, err);
}
