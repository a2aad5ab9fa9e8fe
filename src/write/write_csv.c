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

/* links.csv rows of network k: ids "<network>-L0000001", names from the network's builder. */
static void net_links(fp_outbuf *ob, const fp_plan *plan, int k)
{
    const fp_net_spec *ns = fp__plan_net(plan, k);
    const fp_fabric *nf = fp__plan_net_fabric(plan, k), *cf = fp__plan_fabric(plan);
    const fp_rspec *crs = fp__plan_rspec(plan);
    char name[128], port[FP_PORT_NAME_MAX + 32], bn[32], row[512];
    for (int64_t i = 0; i < nf->n_link; i++) {
        const fp_link *l = &nf->link[i];
        int b = l->boundary < FP_MAX_TIERS ? l->boundary : FP_MAX_TIERS - 1;
        size_t n = (size_t)snprintf(row, sizeof row, "%s-L%07lld", ns->name, (long long)i + 1);
        fp__outbuf_csv_n(ob, row, n);
        fp__outbuf_char(ob, ',');
        fp__outbuf_csv(ob, fp__net_device_name(name, sizeof name, ns, nf, cf, crs, l->a));
        fp__outbuf_char(ob, ',');
        fp__outbuf_csv(ob, fp__net_port_name(port, sizeof port, ns, nf, l->a, l->a_port));
        fp__outbuf_char(ob, ',');
        fp__outbuf_csv(ob, fp__net_device_name(name, sizeof name, ns, nf, cf, crs, l->z));
        fp__outbuf_char(ob, ',');
        fp__outbuf_csv(ob, fp__net_port_name(port, sizeof port, ns, nf, l->z, l->z_port));
        /* The MLAG peer links follow the last boundary. */
        n = (size_t)snprintf(row, sizeof row, ",%d,%s,%d,", ns->rs.gbps[b],
                             i >= nf->boundary_base[nf->tiers]
                                 ? "mlag-peer"
                                 : fp__boundary_name(l->boundary, nf->tiers, bn, sizeof bn),
                             l->plane + 1);
        fp__outbuf_put(ob, row, n);
        fp__outbuf_csv(ob, ns->name);
        fp__outbuf_char(ob, '\n');
    }
}

/* A port's name from the name table (formatted only if the table lacks it). */
static void put_port(fp_outbuf *ob, const fp_names *nm, const fp_fabric *fab, const fp_rspec *rs,
                     int64_t dev, int port, int plain)
{
    size_t len;
    char buf[FP_PORT_NAME_MAX];
    const char *t = fp__port_text(nm, fab, dev, port, &len);
    if (t)
        fp__outbuf_field_n(ob, t, len, plain);
    else
        fp__outbuf_field(ob, fp__port_name(buf, sizeof buf, fab, rs, dev, port), plain);
}

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
    /* With spec `networks`, a network column (compute rows say "compute") and the networks'
     * links after the compute fabric's; without, the file is as it always was. */
    const int nets = fp__plan_net_count(plan), plain = fp__csv_plain_names(plan);
    fp__outbuf_str(ob, nets ? "link_id,a_device,a_port,z_device,z_port,speed_gbps,boundary,plane,network\n"
                            : "link_id,a_device,a_port,z_device,z_port,speed_gbps,boundary,plane\n");
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        size_t k = 0;
        row[k++] = 'L';
        k += fp__put_uint_w(row + k, (uint64_t)fp__link_number(fab, i), 7);
        row[k++] = ',';
        fp__outbuf_put(ob, row, k);
        fp__outbuf_field_n(ob, fp__dev_name(nm, l->a), fp__dev_name_len(nm, l->a), plain);
        fp__outbuf_char(ob, ',');
        put_port(ob, nm, fab, rs, l->a, l->a_port, plain);
        fp__outbuf_char(ob, ',');
        fp__outbuf_field_n(ob, fp__dev_name(nm, l->z), fp__dev_name_len(nm, l->z), plain);
        fp__outbuf_char(ob, ',');
        put_port(ob, nm, fab, rs, l->z, l->z_port, plain);
        int sb = l->boundary < FP_MAX_TIERS ? l->boundary : FP_MAX_TIERS - 1;
        fp__outbuf_put(ob, speed[sb], speed_len[sb]);
        fp__outbuf_str(ob, (unsigned)l->boundary <= FP_MAX_TIERS
                               ? bn[l->boundary]
                               : fp__boundary_name(l->boundary, fab->tiers, row, 32));
        fp__outbuf_char(ob, ',');
        fp__outbuf_int(ob, l->plane + 1);
        if (nets)
            fp__outbuf_str(ob, ",compute");
        fp__outbuf_char(ob, '\n');
        if (o && o->progress && (i & 0xffff) == 0)
            o->progress("links.csv", (double)i / (double)fab->n_link, o->payload);
    }
    for (int k = 0; k < nets; k++)
        net_links(ob, plan, k);
    if (o && o->progress)
        o->progress("links.csv", 1.0, o->payload);
    return fp__outbuf_close(ob, path, FP_OK, err);
}
