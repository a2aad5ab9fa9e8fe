/* fabplan — exports other tools import: label-printer CSV, AVD topology (NetBox: write_netbox.c). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

/* ---- printable labels (built by plan_labels.c) ---- */

/* The label rows of one cable: its A end, then each Z leg. net: the network column's text,
 * NULL without spec `networks`. */
static void label_rows(fp_outbuf *f, const fp_cable_info *c, int halls, fp_label_style st,
                       const char *net, int plain)
{
    char floc[FP_MAX_LEGS * 34], fdev[FP_MAX_LEGS * 50], fport[FP_MAX_LEGS * 66];
    fp_end_label lab;
    const size_t cols = net ? 14 : 13;
    const char *medium = fp_medium_name(c->medium);
    /* The A end faces every leg; each Z leg faces the A end (a splitter leg its hub port). */
    fp__cable_end_label(&lab, c, 0, halls, st);
    const char *a_row[] = { c->id, "A", c->a.loc.text, c->a.device_name, c->a.port,
                            fp__join_legs(floc, sizeof floc, c, FP_LEG_LOCATION, "; "),
                            fp__join_legs(fdev, sizeof fdev, c, FP_LEG_DEVICE, "; "),
                            fp__join_legs(fport, sizeof fport, c, FP_LEG_PORT, "; "), medium, lab.text,
                            lab.line[0], lab.line[1], lab.line[2], net };
    fp__csv_row(f, a_row, cols, plain);
    for (int k = 0; k < c->n_z; k++) {
        const fp_cable_end *z = &c->z[k];
        fp__cable_end_label(&lab, c, k + 1, halls, st);
        const char *z_row[] = { c->id, lab.end, z->loc.text, z->device_name, z->port,
                                c->a.loc.text, c->a.device_name, c->a.port, medium, lab.text,
                                lab.line[0], lab.line[1], lab.line[2], net };
        fp__csv_row(f, z_row, cols, plain);
    }
}

fp_status fp__write_labels_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_cable_info c;
    fp_status rc;
    size_t n = fp_plan_cable_count(plan);
    int halls = fp__plan_layout(plan)->halls;
    const int nets = fp__plan_net_count(plan);
    fp_label_style st = o->labels;
    if ((rc = fp__outbuf_open(&f, path,
                       nets ? "cable_id,end,location,device,port,far_location,far_device,far_port,"
                              "medium,label,line1,line2,line3,network\n"
                            : "cable_id,end,location,device,port,far_location,far_device,far_port,"
                              "medium,label,line1,line2,line3\n",
                       err)) != FP_OK)
        return rc;
    /* With spec `networks`: every network's cables after the compute fabric's. */
    for (size_t k = 1; k < fp_plan_net_count(plan); k++)
        n += fp_plan_net_cable_count(plan, k);
    for (size_t k = 0, done = 0; k < fp_plan_net_count(plan); k++) {
        fp_net_read v = fp__plan_net_read(plan, k);
        const int plain = fp__csv_plain_net(&v);
        for (size_t i = 0; i < fp_plan_net_cable_count(plan, k); i++) {
            if ((rc = fp_plan_net_cable(plan, k, i, &c, err)) != FP_OK)
                goto out;
            label_rows(f, &c, halls, st, nets ? v.label : NULL, plain);
            fp__write_progress(o, "labels.csv", done++, n);
        }
    }
    fp__write_progress(o, "labels.csv", n, n);
out:
    return fp__outbuf_close(f, path, rc, err);
}

fp_status fp__write_topology_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char an[160], zn[160], ap[FP_PORT_NAME_MAX + 32], zp[FP_PORT_NAME_MAX + 32];
    const size_t nets = fp_plan_net_count(plan);
    size_t n = 0, done = 0;
    if ((rc = fp__outbuf_open(&f, path,
                       nets > 1 ? "Node Type,Node,Node Interface,Peer Type,Peer Node,Peer Interface,"
                                  "Node Interface Enabled,Network\n"
                                : "Node Type,Node,Node Interface,Peer Type,Peer Node,Peer Interface,"
                                  "Node Interface Enabled\n",
                       err)) != FP_OK)
        return rc;
    for (size_t k = 0; k < nets; k++)
        n += fp_plan_net_link_count(plan, k);
    /* One row per link of every network (AVD writes each link twice, once from each side; users
     * asked for one), the lower end as the node, named as links.csv names it; with spec
     * `networks` the network in a last column. */
    for (size_t k = 0; k < nets; k++) {
        fp_net_read v = fp__plan_net_read(plan, k);
        const fp_fabric *fab = v.fab;
        for (int64_t i = 0; i < fab->n_link; i++) {
            const fp_link *l = &fab->link[i];
            const char *row[] = {
                fp__tier_role(fab->dev[l->a].tier),
                fp__net_read_dev(&v, l->a, an, sizeof an, NULL),
                fp__net_read_port(&v, l->a, l->a_port, ap, sizeof ap, NULL),
                fp__tier_role(fab->dev[l->z].tier),
                fp__net_read_dev(&v, l->z, zn, sizeof zn, NULL),
                fp__net_read_port(&v, l->z, l->z_port, zp, sizeof zp, NULL),
                "True",
                v.label,
            };
            fp__csv_row(f, row, nets > 1 ? 8 : 7, 0);
            fp__write_progress(o, "topology.csv", done++, n);
        }
    }
    fp__write_progress(o, "topology.csv", n, n);
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* ---- Arista AVD: the planned cabling as eos_designs' cv_topology input ---- */

int fp__avd_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                      size_t n)
{
    (void)o;
    /* AVD configures Ethernet (EOS) switches; an InfiniBand fabric has nothing for it. */
    if (fp__fabric_infiniband(fp__plan_rspec(plan)))
        return 0;
    fp__copy_str(buf, n, ext);
    return 1;
}

/* s as a double-quoted YAML scalar. */
static void yaml_str(fp_outbuf *f, const char *s)
{
    fp__outbuf_char(f, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fp__outbuf_char(f, '\\');
        fp__outbuf_char(f, *s);
    }
    fp__outbuf_char(f, '"');
}

int fp__port_links_build(fp_port_links *out, const fp_plan *plan)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    int64_t first = fab->tier_base[1], nsw = fab->n_dev - first;
    int64_t *off = malloc((size_t)(nsw + 1) * sizeof *off);
    int32_t *link_at;
    memset(out, 0, sizeof *out);
    if (off == NULL)
        return -1;
    off[0] = 0;
    for (int64_t d = 0; d < nsw; d++)
        off[d + 1] = off[d] + fp__switch_ports(fab, rs, fab->dev[first + d].tier - 1);
    if ((link_at = malloc((size_t)(off[nsw] ? off[nsw] : 1) * sizeof *link_at)) == NULL) {
        free(off);
        return -1;
    }
    for (int64_t k = 0; k < off[nsw]; k++)
        link_at[k] = -1;
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        if (l->a >= first)
            link_at[off[l->a - first] + l->a_port] = (int32_t)i;
        link_at[off[l->z - first] + l->z_port] = (int32_t)i;
    }
    out->first = first;
    out->n_switches = nsw;
    out->off = off;
    out->link_at = link_at;
    return 0;
}

void fp__port_links_free(fp_port_links *m)
{
    free(m->off);
    free(m->link_at);
    memset(m, 0, sizeof *m);
}

/* The platform AVD reads for a switch (cv_topology's `platform`, matched against
 * platform_settings and default_interfaces `platforms`): an Arista part's EOS model
 * ("arista-7060x6-64pe" -> "7060X6-64PE", as AVD's platform names spell models); any other part
 * its catalog id (AVD configures EOS only; such a fabric's file is a plan to read, not to
 * deploy). */
static void avd_platform(char *buf, size_t n, const fp_part *m)
{
    size_t k = 0;
    if (strncmp(m->id, "arista-", 7) != 0) {
        fp__copy_str(buf, n, m->id);
        return;
    }
    for (const char *s = m->id + 7; *s && k + 1 < n; s++)
        buf[k++] = (char)toupper((unsigned char)*s);
    buf[k] = '\0';
}

/* fabric_name (required by eos_designs: the inventory group of the fabric's devices): the
 * spec's name in capitals, every character but a letter or digit an underscore, as an Ansible
 * group name may hold ("spectrum-x-100k" -> "SPECTRUM_X_100K"); "FABPLAN" without a name. */
static void avd_fabric_name(char *buf, size_t n, const char *name)
{
    size_t k = 0;
    for (const char *s = name[0] ? name : "fabplan"; *s && k + 1 < n; s++)
        buf[k++] = isalnum((unsigned char)*s) ? (char)toupper((unsigned char)*s) : '_';
    buf[k] = '\0';
}

/* eos_designs' cv_topology (AVD docs, roles/eos_designs "CV Topology"; schema
 * pyavd/_eos_designs/schema/schema_fragments/cv_topology.schema.yml): fabric_name, then one
 * entry per switch, hostname, platform and its cabled interfaces with neighbor and
 * neighbor_interface. With use_cv_topology: true AVD takes a switch's uplinks from it: the
 * names of default_interfaces' uplink_interfaces that it lists (an exact match, so a split
 * port needs a name AVD's ranges give: Ethernet33/1, the EOS form Arista parts have);
 * neighbors that are not in the AVD inventory (the servers) are left out by AVD. */
fp_status fp__write_avd_topology(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_names *nm = fp__plan_names(plan);
    fp_port_links map;
    fp_outbuf *f = NULL;
    fp_status rc;
    char port[FP_PORT_NAME_MAX], far[FP_PORT_NAME_MAX], platform[FP_MAX_TIERS][48], fabric[160];
    if (fp__port_links_build(&map, plan) != 0)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    int64_t first = map.first, nsw = map.n_switches;
    const int64_t *off = map.off;
    const int32_t *link_at = map.link_at;
    if ((rc = fp__outbuf_open(&f, path,
                              "# Arista AVD eos_designs input: the cabling fabplan planned, as a\n"
                              "# CloudVision topology. AVD reads it with use_cv_topology: true;\n"
                              "# hostnames must match the AVD inventory, and neighbors outside it\n"
                              "# (the GPU servers) are ignored. fabric_name must be the inventory\n"
                              "# group of the switches. Platform: the EOS model of an Arista part,\n"
                              "# else the catalog part id.\n",
                              err)) != FP_OK)
        goto out;
    avd_fabric_name(fabric, sizeof fabric, rs->name);
    fp__outbuf_str(f, "fabric_name: ");
    yaml_str(f, fabric);
    fp__outbuf_str(f, "\nuse_cv_topology: true\ncv_topology:\n");
    for (int t = 1; t <= fab->tiers; t++)
        avd_platform(platform[t - 1], sizeof platform[0], &rs->tier[t - 1].model);
    for (int64_t d = 0; d < nsw; d++) {
        int64_t dev = first + d;
        fp__outbuf_str(f, "  - hostname: ");
        yaml_str(f, fp__dev_name(nm, dev));
        fp__outbuf_str(f, "\n    platform: ");
        yaml_str(f, platform[fab->dev[dev].tier - 1]);
        fp__outbuf_str(f, "\n    interfaces:\n");
        for (int64_t p = 0; p < off[d + 1] - off[d]; p++) {
            int32_t li = link_at[off[d] + p];
            if (li < 0)
                continue;
            const fp_link *l = &fab->link[li];
            int64_t other = l->a == dev ? l->z : l->a;
            int other_port = l->a == dev ? l->z_port : l->a_port;
            fp__outbuf_str(f, "      - name: ");
            yaml_str(f, fp__port_name(port, sizeof port, fab, rs, dev, (int)p));
            fp__outbuf_str(f, "\n        neighbor: ");
            yaml_str(f, fp__dev_name(nm, other));
            fp__outbuf_str(f, "\n        neighbor_interface: ");
            yaml_str(f, fp__port_name(far, sizeof far, fab, rs, other, other_port));
            fp__outbuf_char(f, '\n');
        }
        fp__write_progress(o, "avd-cv-topology.yml", d, nsw);
    }
    fp__write_progress(o, "avd-cv-topology.yml", nsw, nsw);
    rc = fp__outbuf_close(f, path, FP_OK, err);
out:
    fp__port_links_free(&map);
    return rc;
}
