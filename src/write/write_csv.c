/* fabplan — CSV documents. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

void fp_csv_field(FILE *f, const char *text)
{
    if (f != NULL && text != NULL)
        fp__csv_field(f, text);
}

static int plain_str(const char *s)
{
    return fp__csv_plain(s, strlen(s));
}

/* Every NUL-terminated text of a table (off[0..n] the starts, the last one its end) plain. */
static int plain_table(const char *text, const uint32_t *off, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (!fp__csv_plain(text + off[i], off[i + 1] - off[i] - 1))
            return 0;
    return 1;
}

int fp__csv_plain_names(const fp_plan *plan)
{
    const fp_names *nm = fp__plan_names(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    if (nm->text == NULL || !plain_table(nm->text, nm->off, 2 * nm->n_dev) ||
        (nm->port_off != NULL &&
         !plain_table(nm->port_text, nm->port_off, nm->port_base[FP_MAX_TIERS + 1])) ||
        !plain_str(rs->nic.interface_names) || !plain_str(rs->nic.id))
        return 0;
    for (int t = 0; t < fp__plan_fabric(plan)->tiers; t++)
        if (!plain_str(rs->tier[t].model.interface_names) || !plain_str(rs->tier[t].model.id))
            return 0;
    for (int i = 0; i < rs->phys.n_parts; i++)
        if (!plain_str(rs->phys.parts[i].id))
            return 0;
    return 1;
}

int fp__csv_plain_net(const fp_net_read *v)
{
    return v->ns == NULL && fp__csv_plain_names(v->plan);
}

/* links.csv rows of network v (every network the same way): "<id_prefix>L<number>", the ends
 * named as fp_plan_net_link names them, the speed and boundary of the link (a dual-homed
 * network's MLAG peer links, after its last boundary, say "mlag-peer"), its plane, and with
 * spec `networks` the network's label. */
static void net_links(fp_outbuf *ob, const fp_net_read *v, int network_col,
                      const fp_write_options *o, int64_t *done, int64_t total)
{
    const fp_fabric *fab = v->fab;
    const int plain = fp__csv_plain_net(v);
    char row[64], speed[FP_MAX_TIERS + 1][16], bn[FP_MAX_TIERS + 1][32];
    char dev[160], port[FP_PORT_NAME_MAX + 32];
    size_t speed_len[FP_MAX_TIERS + 1], prefix_len = strlen(v->id_prefix);
    for (int b = 0; b <= FP_MAX_TIERS; b++) {
        fp__boundary_name(b, bn[b], sizeof bn[b]);
        speed_len[b] = (size_t)snprintf(speed[b], sizeof speed[b], ",%d,",
                                        v->rs->gbps[b < FP_MAX_TIERS ? b : FP_MAX_TIERS - 1]);
    }
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        size_t k = prefix_len, len;
        memcpy(row, v->id_prefix, prefix_len);
        row[k++] = 'L';
        k += fp__put_uint_w(row + k, (uint64_t)fp__link_number(fab, i), 7);
        fp__outbuf_field_n(ob, row, k, plain);
        fp__outbuf_char(ob, ',');
        const char *t = fp__net_read_dev(v, l->a, dev, sizeof dev, &len);
        fp__outbuf_field_n(ob, t, len, plain);
        fp__outbuf_char(ob, ',');
        t = fp__net_read_port(v, l->a, l->a_port, port, sizeof port, &len);
        fp__outbuf_field_n(ob, t, len, plain);
        fp__outbuf_char(ob, ',');
        t = fp__net_read_dev(v, l->z, dev, sizeof dev, &len);
        fp__outbuf_field_n(ob, t, len, plain);
        fp__outbuf_char(ob, ',');
        t = fp__net_read_port(v, l->z, l->z_port, port, sizeof port, &len);
        fp__outbuf_field_n(ob, t, len, plain);
        int sb = l->boundary < FP_MAX_TIERS ? l->boundary : FP_MAX_TIERS - 1;
        fp__outbuf_put(ob, speed[sb], speed_len[sb]);
        fp__outbuf_str(ob, i >= fab->boundary_base[fab->tiers] ? "mlag-peer"
                           : (unsigned)l->boundary <= FP_MAX_TIERS
                               ? bn[l->boundary]
                               : fp__boundary_name(l->boundary, row, 32));
        fp__outbuf_char(ob, ',');
        fp__outbuf_int(ob, l->plane + 1);
        if (network_col) {
            fp__outbuf_char(ob, ',');
            fp__outbuf_csv(ob, v->label);
        }
        fp__outbuf_char(ob, '\n');
        fp__write_progress(o, "links.csv", (*done)++, total);
    }
}

fp_status fp__write_links_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                              fp_error *err)
{
    fp_outbuf *ob = NULL;
    fp_status rc;
    /* One row per link (half a million at full scale): the compute fabric's names come from
     * the plan's name table and rows are assembled by hand, one fwrite per block. */
    if ((rc = fp__outbuf_open(&ob, path, NULL, err)) != FP_OK)
        return rc;
    /* With spec `networks`, a network column (compute rows say "compute"); without, the file
     * is as it always was. */
    const size_t nets = fp_plan_net_count(plan);
    fp__outbuf_str(ob, nets > 1 ? "link_id,a_device,a_port,z_device,z_port,speed_gbps,boundary,plane,network\n"
                                : "link_id,a_device,a_port,z_device,z_port,speed_gbps,boundary,plane\n");
    int64_t done = 0, total = 0;
    for (size_t k = 0; k < nets; k++)
        total += (int64_t)fp_plan_net_link_count(plan, k);
    for (size_t k = 0; k < nets; k++) {
        fp_net_read v = fp__plan_net_read(plan, k);
        net_links(ob, &v, nets > 1, o, &done, total);
    }
    fp__write_progress(o, "links.csv", total, total);
    return fp__outbuf_close(ob, path, FP_OK, err);
}
