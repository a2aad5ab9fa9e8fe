/* fabplan — exports other tools import: label-printer CSV, AVD topology (NetBox: write_netbox.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

static void csv_row(fp_outbuf *ob, const char *const *fields, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            fp__outbuf_char(ob, ',');
        fp__outbuf_csv(ob, fields[i]);
    }
    fp__outbuf_char(ob, '\n');
}

static void report(const fp_write_options *o, const char *stage, size_t i, size_t n)
{
    if (o && o->progress && ((i & 0xffff) == 0 || i == n))
        o->progress(stage, n ? (double)i / (double)n : 1.0, o->payload);
}

/* "a; b; c" of one field over a breakout cable's legs (truncated to n bytes like snprintf). */
static const char *join_legs(char *buf, size_t n, const fp_cable_info *c, int what)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->n_z; i++) {
        const fp_cable_end *e = &c->z[i];
        const char *s = what == 0 ? e->loc.text : what == 1 ? e->device_name : e->port;
        if (i)
            len += fp__copy_str(buf + len, n - len, "; ");
        if (len >= n)
            break;
        len += fp__copy_str(buf + len, n - len, s);
        if (len >= n)
            break;
    }
    return buf;
}

fp_status fp__write_labels_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_cable_info c;
    fp_status rc;
    size_t n = fp_plan_cable_count(plan);
    char floc[FP_MAX_LEGS * 34], fdev[FP_MAX_LEGS * 50], fport[FP_MAX_LEGS * 18], end[8];
    if ((rc = fp__outbuf_open(&f, path,
                       "cable_id,end,location,device,port,far_location,far_device,far_port,"
                       "medium,label\n",
                       err)) != FP_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        if ((rc = fp_plan_cable(plan, i, &c, err)) != FP_OK)
            goto out;
        const char *medium = fp_medium_name(c.medium);
        /* The A end faces every leg; each Z leg faces the A end. */
        const char *a_row[] = { c.id, "A", c.a.loc.text, c.a.device_name, c.a.port,
                                join_legs(floc, sizeof floc, &c, 0),
                                join_legs(fdev, sizeof fdev, &c, 1),
                                join_legs(fport, sizeof fport, &c, 2), medium, c.a.label };
        csv_row(f, a_row, sizeof a_row / sizeof a_row[0]);
        for (int k = 0; k < c.n_z; k++) {
            const fp_cable_end *z = &c.z[k];
            end[0] = 'Z';
            if (c.n_z == 1)
                end[1] = '\0';
            else
                end[1 + fp__put_int(end + 1, k + 1)] = '\0';
            const char *z_row[] = { c.id, end, z->loc.text, z->device_name, z->port,
                                    c.a.loc.text, c.a.device_name, c.a.port, medium, z->label };
            csv_row(f, z_row, sizeof z_row / sizeof z_row[0]);
        }
        report(o, "labels.csv", i, n);
    }
    report(o, "labels.csv", n, n);
out:
    return fp__outbuf_close(f, path, rc, err);
}

fp_status fp__write_topology_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_names *nm = fp__plan_names(plan);
    fp_outbuf *f = NULL;
    fp_status rc;
    char ap[FP_PORT_NAME_MAX], zp[FP_PORT_NAME_MAX];
    size_t n = (size_t)fab->n_link;
    if ((rc = fp__outbuf_open(&f, path,
                       "Node Type,Node,Node Interface,Peer Type,Peer Node,Peer Interface,"
                       "Node Interface Enabled\n",
                       err)) != FP_OK)
        return rc;
    /* One row per link (AVD writes each link twice, once from each side; users asked for one),
     * the lower end as the node. */
    for (size_t i = 0; i < n; i++) {
        const fp_link *l = &fab->link[i];
        const char *row[] = {
            fp__tier_role(fab->dev[l->a].tier, fab->tiers),
            fp__dev_name(nm, l->a),
            fp__port_name(ap, sizeof ap, fab, rs, l->a, l->a_port),
            fp__tier_role(fab->dev[l->z].tier, fab->tiers),
            fp__dev_name(nm, l->z),
            fp__port_name(zp, sizeof zp, fab, rs, l->z, l->z_port),
            "True",
        };
        csv_row(f, row, sizeof row / sizeof row[0]);
        report(o, "topology.csv", i, n);
    }
    report(o, "topology.csv", n, n);
    return fp__outbuf_close(f, path, FP_OK, err);
}
