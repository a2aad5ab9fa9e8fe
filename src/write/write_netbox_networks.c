/* fabplan — every network of the cluster (the compute fabric and spec `networks`: converged,
 * storage, in-band management, out-of-band) as the NetBox import set sees it: what each device
 * is (its kind: role, device type, platform, draw), the tags, and the interface rows.
 * write_netbox.c writes the files, one loop over networks 0 .. fp_plan_net_count - 1 each.
 *
 * Where NetBox has a place for the network: a tag (extras TagImportForm: name, slug, color,
 * description; every NetBoxModelImportForm takes `tags`, "tag slugs separated by commas,
 * encased with double quotes") on each device, interface and cable, and a device role per
 * network tier (`oob-leaf`, `inband-spine`) so a rack elevation tells an out-of-band switch from
 * a compute leaf. Names are the ones links.csv and cables.csv give (fp__net_device_name,
 * fp__net_port_name); the compute servers keep theirs and gain one interface per port they
 * have on a network. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

/* Colours per network role (converged, storage, management, out-of-band): teal, brown,
 * blue grey, indigo; the compute tag green as the compute leaf role. */
static const char *const role_color[4] = { "009688", "795548", "607d8b", "3f51b5" };
#define COMPUTE_COLOR "4caf50"
/* The compute fabric's roles by tier: servers grey, leaves green, spines blue, then orange and
 * purple. */
static const char *const tier_color[FP_MAX_TIERS + 1] = { "9e9e9e", "4caf50", "2196f3", "ff9800",
                                                          "9c27b0" };

int fp__nb_seen_add(fp_nb_seen *s, const char *v)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->v[i], v) == 0)
            return 0;
    if (s->n < (int)(sizeof s->v / sizeof s->v[0]))
        fp__copy_str(s->v[s->n++], sizeof s->v[0], v);
    return 1;
}

void fp__netbox_manufacturer_row(fp_outbuf *f, fp_nb_seen *seen, const char *name)
{
    char slug[64];
    if (!fp__nb_seen_add(seen, name))
        return;
    fp__netbox_slugify(slug, sizeof slug, name);
    const char *r[] = { name, slug };
    fp__csv_row(f, r, 2, 0);
}

static const char *color_of(const fp_net_spec *ns)
{
    return (unsigned)ns->role < 4 ? role_color[ns->role] : role_color[0];
}

/* ---- tags ---- */

int fp__netbox_tags_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                              char *buf, size_t n)
{
    (void)o;
    (void)ext;
    if (fp__plan_net_count(plan) == 0)
        return 0;
    snprintf(buf, n, "netbox-tags.csv");
    return 1;
}

fp_status fp__write_netbox_tags(const fp_plan *plan, const char *path, const fp_write_options *o,
                                fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    fp_nb_seen seen = { 0 };
    char desc[96];
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "name,slug,color,description\n", err)) != FP_OK)
        return rc;
    const char *c[] = { FP_NETBOX_COMPUTE_TAG, FP_NETBOX_COMPUTE_TAG, COMPUTE_COLOR,
                        "compute fabric (GPU east-west)" };
    fp__nb_seen_add(&seen, FP_NETBOX_COMPUTE_TAG);
    fp__csv_row(f, c, 4, 0);
    for (int k = 0; k < fp__plan_net_count(plan); k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        if (!fp__nb_seen_add(&seen, ns->name))
            continue;
        snprintf(desc, sizeof desc, "%s network", fp__net_role_name(ns->role));
        const char *r[] = { ns->name, ns->name, color_of(ns), desc };
        fp__csv_row(f, r, 4, 0);
    }
    return fp__outbuf_close(f, path, FP_OK, err);
}

void fp__netbox_server_tags(char *buf, size_t n, const fp_plan *plan)
{
    size_t k = fp__copy_str(buf, n, FP_NETBOX_COMPUTE_TAG);
    for (int i = 0; i < fp__plan_net_count(plan) && k + 1 < n; i++) {
        buf[k++] = ',';
        k += fp__copy_str(buf + k, n - k, fp__plan_net(plan, i)->name);
    }
}

/* ---- kinds: what each device of a network is in NetBox ---- */

/* An extra endpoint's device type: Generic "<group> endpoint <ru>U" (a 0U type for endpoints
 * that take no rack unit, such as a server's BMC port). */
static void endpoint_type(fp_nb_type *t, const fp_net_extra *x)
{
    char s[100];
    memset(t, 0, sizeof *t);
    fp__netbox_manufacturer(t->manufacturer, sizeof t->manufacturer, "");
    snprintf(t->model, sizeof t->model, "%s endpoint %dU", x->name, x->ru);
    snprintf(s, sizeof s, "%s-endpoint-%du", x->name, x->ru);
    fp__netbox_slugify(t->slug, sizeof t->slug, s);
    t->u_height = x->ru;
}

/* The hosts' kinds of network v: the compute fabric's servers, or a network's extra endpoint
 * groups (its compute servers are the compute fabric's devices). */
static int host_kinds(const fp_net_read *v)
{
    return v->ns ? v->ns->n_extra : 1;
}

int fp__nb_kind_count(const fp_net_read *v)
{
    return host_kinds(v) + v->fab->tiers;
}

int fp__nb_kind(const fp_net_read *v, int i, fp_nb_kind *k)
{
    const int hosts = host_kinds(v);
    memset(k, 0, sizeof *k);
    k->platform = "";
    if (i >= hosts) {
        const int t = i - hosts + 1;
        const fp_part *m = &v->rs->tier[t - 1].model;
        const char *os = fp__switch_os(m, NULL);
        if (fp__net_is_alias(v->fab, v->fab->tier_base[t]))
            return 0;       /* a tier of another network's switches: listed there */
        snprintf(k->role, sizeof k->role, "%s%s", v->id_prefix, fp__tier_role(t));
        k->color = v->ns ? color_of(v->ns) : tier_color[t <= FP_MAX_TIERS ? t : 0];
        fp__netbox_switch_type(&k->type, m);
        k->platform = os ? os : "";
        k->power_w = m->power_w;
        return 1;
    }
    if (v->ns == NULL) {
        const fp_rspec *rs = v->rs;
        snprintf(k->role, sizeof k->role, "%s", fp__tier_role(0));
        k->color = tier_color[0];
        fp__netbox_manufacturer(k->type.manufacturer, sizeof k->type.manufacturer, "");
        snprintf(k->type.model, sizeof k->type.model, "GPU server %d GPU %dU", rs->gpus_per_server,
                 rs->phys.server_ru);
        snprintf(k->type.slug, sizeof k->type.slug, "gpu-server-%dgpu-%du", rs->gpus_per_server,
                 rs->phys.server_ru);
        k->type.u_height = rs->phys.server_ru;
        k->power_w = rs->phys.server_power_w;
        return 1;
    }
    const fp_net_extra *x = &v->ns->extra[i];
    if (x->per_switch)      /* the switches' own management ports: the switches are listed */
        return 0;
    snprintf(k->role, sizeof k->role, "%s", x->name);
    k->color = color_of(v->ns);
    endpoint_type(&k->type, x);
    k->power_w = x->power_w;
    return 1;
}

int fp__nb_kind_of(const fp_net_read *v, int64_t d)
{
    const int t = v->fab->dev[d].tier;
    int64_t first;
    if (t > 0)
        return host_kinds(v) + t - 1;
    return v->ns ? fp__net_endpoint(v->ns, d, &first) : 0;
}

int fp__nb_device_of(const fp_net_read *v, int64_t d, fp_nb_kind *k)
{
    size_t on;
    if (fp__net_read_owner(v, d, &on) != d || on != v->net)
        return 0;
    const int i = fp__nb_kind_of(v, d);
    return i >= 0 && fp__nb_kind(v, i, k);
}

/* ---- interfaces ---- */

void fp__nb_if_row(fp_outbuf *f, const fp_nb_if_cols *c, const char *dev, size_t dev_len,
                   const char *port, size_t port_len, const char *type, const char *speed,
                   const char *lag, int mgmt)
{
    fp__outbuf_field_n(f, dev, dev_len, c->plain);
    fp__outbuf_char(f, ',');
    /* Port names never need quoting (fp__port_template_check refuses ',', '"', CR, LF). */
    fp__outbuf_field_n(f, port, port_len, c->plain);
    fp__outbuf_char(f, ',');
    fp__outbuf_str(f, type);
    fp__outbuf_char(f, ',');
    fp__outbuf_str(f, speed);
    if (c->tags) {
        fp__outbuf_char(f, ',');
        fp__outbuf_csv(f, c->tag);
    }
    if (c->lag) {
        fp__outbuf_char(f, ',');
        fp__outbuf_csv(f, lag);
    }
    if (c->mgmt)
        fp__outbuf_str(f, mgmt ? ",true" : ",false");
    fp__outbuf_char(f, '\n');
}

/* Rows for physical ports [p0, p1) of a switch of model m, each split `ways` ways, at gbps; the
 * ports from m->ports on are the part's uplink group (its own cage). */
static void port_rows(fp_outbuf *f, const fp_nb_if_cols *c, const char *dev, size_t dev_len,
                      const fp_part *m, int p0, int p1, int ways, int gbps, int ib)
{
    char port[FP_PORT_NAME_MAX], speed[24];
    speed[fp__put_int(speed, (int64_t)gbps * 1000000)] = '\0';     /* Kbps */
    ways = ways > 0 ? ways : 1;
    for (int p = p0; p < p1; p++) {
        const char *cage = p >= m->ports && m->uplink_cage[0] ? m->uplink_cage : m->cage;
        const char *type = fp__netbox_interface_type(gbps, cage, ib);
        for (int lane = 0; lane < ways; lane++) {
            fp_port_fields pf;
            fp__switch_port_fields(&pf, m, ways, p * ways + lane);
            fp__port_template(port, sizeof port, fp__port_template_of(m), &pf);
            fp__nb_if_row(f, c, dev, dev_len, port, strlen(port), type, speed, "", 0);
        }
    }
}

void fp__netbox_switch_rows(fp_outbuf *f, const fp_nb_if_cols *c, const char *dev,
                            size_t dev_len, const fp_rspec *rs, const fp_tier_size *sz, int t,
                            int ib)
{
    const fp_tier_spec *ts = &rs->tier[t - 1];
    const fp_part *m = &ts->model;
    int end = m->ports + (m->uplink_ports > 0 ? m->uplink_ports : 0);
    int up = sz->up_phys >= 0 ? sz->up_phys : m->uplink_ports > 0 ? m->ports : end;
    port_rows(f, c, dev, dev_len, m, 0, up, ts->breakout, ts->gbps_down, ib);
    if (sz->up_phys >= 0)
        port_rows(f, c, dev, dev_len, m, up, end, ts->breakout_up, ts->gbps_up, ib);
    else
        port_rows(f, c, dev, dev_len, m, up, end, 1, m->uplink_gbps, ib);
}

int fp__netbox_lag_column(const fp_plan *plan)
{
    for (int k = 0; k < fp__plan_net_count(plan); k++)
        if (fp__plan_net(plan, k)->dual_homed && !fp__fabric_infiniband(&fp__plan_net(plan, k)->rs))
            return 1;
    return 0;
}

int fp__netbox_mgmt_column(const fp_plan *plan)
{
    for (int k = 0; k < fp__plan_net_count(plan); k++)
        if (fp__plan_net_fabric(plan, k)->alias != NULL)
            return 1;
    return 0;
}

void fp__netbox_host_rows(fp_outbuf *f, const fp_nb_if_cols *c, const fp_net_read *v, int64_t d,
                          const char *dev, size_t dev_len)
{
    const fp_rspec *rs = v->rs;
    const int ib = fp__fabric_infiniband(rs);
    char port[FP_PORT_NAME_MAX + 32], speed[24], lag[FP_NET_NAME_MAX + 24];
    size_t pl;
    /* Host ports at the network's port speed; one whose part names no cage (on-board ports)
     * takes the leaf's: the cord has the same plug at both ends (RJ45 at 1G, QSFP28 at 100G). */
    speed[fp__put_int(speed, (int64_t)rs->link_gbps * 1000000)] = '\0';
    const char *cage = rs->nic.cage[0] ? rs->nic.cage : rs->tier[0].model.cage;
    const char *type = fp__netbox_interface_type(rs->link_gbps, cage, ib);
    /* A dual-homed Ethernet host's ports are the members of one LAG, "<network>-bond<g>" (g:
     * the host's group of ports on its device, 1 for a compute server), listed before them:
     * its links to the two leaves of its MLAG pair. An InfiniBand host's two ports stay two
     * ports (InfiniBand has no link aggregation). */
    lag[0] = '\0';
    if (v->dual_homed && !ib && v->host_ports > 1) {
        const char *first = fp__net_read_port(v, d, 0, port, sizeof port, &pl);
        const char *num = strrchr(first, 'p');
        int g = num ? (atoi(num + 1) - 1) / v->host_ports + 1 : 1;
        snprintf(lag, sizeof lag, "%s-bond%d", v->label, g);
        fp__nb_if_row(f, c, dev, dev_len, lag, strlen(lag), "lag", "", "", 0);
    }
    /* A host that is another network's switch is that switch's management port (mgmt_only). */
    const int mgmt = fp__net_is_alias(v->fab, d);
    for (int p = 0; p < v->host_ports; p++) {
        const char *t = fp__net_read_port(v, d, p, port, sizeof port, &pl);
        fp__nb_if_row(f, c, dev, dev_len, t, pl, type, speed, lag, mgmt);
    }
}
