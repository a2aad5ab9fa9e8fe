/* fabplan — the cluster's other networks (spec `networks`: converged, storage, in-band
 * management, out-of-band) in the NetBox import set. write_netbox.c writes the compute fabric's
 * rows and calls these for the rest; without networks they write nothing.
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

/* ---- organisational objects ---- */

/* "<network>-<tier role>": inband-leaf, oob-spine. */
static void switch_role(char *buf, size_t n, const fp_net_spec *ns, const fp_fabric *nf, int tier)
{
    snprintf(buf, n, "%s-%s", ns->name, fp__tier_role(tier, nf->tiers));
}

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

void fp__netbox_net_manufacturers(fp_outbuf *f, const fp_plan *plan, fp_nb_seen *seen)
{
    for (int k = 0; k < fp__plan_net_count(plan); k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        const fp_fabric *nf = fp__plan_net_fabric(plan, k);
        for (int t = 1; t <= nf->tiers; t++) {
            fp_nb_type ty;
            fp__netbox_switch_type(&ty, &ns->rs.tier[t - 1].model);
            fp__netbox_manufacturer_row(f, seen, ty.manufacturer);
        }
        if (ns->n_extra > 0) {
            fp_nb_type ty;
            endpoint_type(&ty, &ns->extra[0]);
            fp__netbox_manufacturer_row(f, seen, ty.manufacturer);
        }
    }
}

static void role_row(fp_outbuf *f, fp_nb_seen *seen, const char *name, const char *color)
{
    char slug[104];
    if (!fp__nb_seen_add(seen, name))
        return;
    fp__netbox_slugify(slug, sizeof slug, name);
    const char *r[] = { name, slug, color };
    fp__csv_row(f, r, 3, 0);
}

void fp__netbox_net_roles(fp_outbuf *f, const fp_plan *plan, fp_nb_seen *seen)
{
    char name[96];
    for (int k = 0; k < fp__plan_net_count(plan); k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        const fp_fabric *nf = fp__plan_net_fabric(plan, k);
        for (int t = 1; t <= nf->tiers; t++) {
            switch_role(name, sizeof name, ns, nf, t);
            role_row(f, seen, name, color_of(ns));
        }
        for (int i = 0; i < ns->n_extra; i++)
            if (!ns->extra[i].per_switch)   /* the switches' own management ports */
                role_row(f, seen, ns->extra[i].name, color_of(ns));
    }
}

static void type_row(fp_outbuf *f, fp_nb_seen *seen, const fp_nb_type *ty)
{
    char u[16];
    if (!fp__nb_seen_add(seen, ty->slug))
        return;
    snprintf(u, sizeof u, "%d", ty->u_height);
    const char *r[] = { ty->manufacturer, ty->model, ty->slug, u,
                        ty->u_height > 0 ? "true" : "false" };
    fp__csv_row(f, r, 5, 0);
}

void fp__netbox_net_device_types(fp_outbuf *f, const fp_plan *plan, fp_nb_seen *seen)
{
    for (int k = 0; k < fp__plan_net_count(plan); k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        const fp_fabric *nf = fp__plan_net_fabric(plan, k);
        fp_nb_type ty;
        for (int t = 1; t <= nf->tiers; t++) {
            fp__netbox_switch_type(&ty, &ns->rs.tier[t - 1].model);
            type_row(f, seen, &ty);
        }
        for (int i = 0; i < ns->n_extra; i++) {
            if (ns->extra[i].per_switch)
                continue;
            endpoint_type(&ty, &ns->extra[i]);
            type_row(f, seen, &ty);
        }
    }
}


/* ---- devices ---- */

/* One device row of network k: dev is its first builder host (an extra endpoint with several
 * port groups is several hosts of one device) or a switch. */
static void device_row(fp_outbuf *f, const fp_plan *plan, int k, int64_t dev, const char *role,
                       const fp_nb_type *ty, const char *platform, const char *site)
{
    const fp_net_spec *ns = fp__plan_net(plan, k);
    const fp_fabric *nf = fp__plan_net_fabric(plan, k);
    const fp_net_place *pl = fp__plan_net_place(plan);
    char name[160], rack[48] = "", pos[16] = "";
    fp__net_device_name(name, sizeof name, ns, nf, fp__plan_fabric(plan), fp__plan_rspec(plan),
                        dev);
    int64_t rk = pl->dev_rack[k][dev];
    if (rk >= 0) {
        fp_rack_info ri;
        fp_plan_rack(plan, (size_t)rk, &ri, NULL);
        snprintf(rack, sizeof rack, "%s", ri.name);
        /* NetBox refuses a rack position for a 0U device type. */
        if (ty->u_height > 0)
            snprintf(pos, sizeof pos, "%d", pl->dev_u[k][dev]);
    }
    const char *r[] = { name, role, ty->manufacturer, ty->model, platform ? platform : "", "planned",
                        site, rack, pos, pos[0] ? "front" : "", ns->name };
    fp__csv_row(f, r, 11, 0);
}

fp_status fp__netbox_net_devices(fp_outbuf *f, const fp_plan *plan, const char *site,
                                 fp_error *err)
{
    (void)err;
    for (int k = 0; k < fp__plan_net_count(plan); k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        const fp_fabric *nf = fp__plan_net_fabric(plan, k);
        fp_nb_type ty;
        /* Extra endpoints: builder hosts after the compute servers, group by group, each
         * endpoint taking ports / ns->ports hosts. */
        int64_t d = ns->servers;
        for (int i = 0; i < ns->n_extra; i++) {
            const fp_net_extra *x = &ns->extra[i];
            int per = ns->ports > 0 && x->ports >= ns->ports ? x->ports / ns->ports : 1;
            endpoint_type(&ty, x);
            for (int64_t u = 0; u < x->count && d < nf->servers; u++, d += per)
                if (!fp__net_is_alias(nf, d))
                    device_row(f, plan, k, d, x->name, &ty, NULL, site);
        }
        fp_nb_type types[FP_MAX_TIERS + 1];
        char roles[FP_MAX_TIERS + 1][96];
        for (int t = 1; t <= nf->tiers; t++) {
            fp__netbox_switch_type(&types[t], &ns->rs.tier[t - 1].model);
            switch_role(roles[t], sizeof roles[t], ns, nf, t);
        }
        for (int64_t s = nf->servers; s < nf->n_dev; s++) {
            int t = nf->dev[s].tier;
            if (t >= 1 && t <= nf->tiers && !fp__net_is_alias(nf, s))
                device_row(f, plan, k, s, roles[t], &types[t],
                           fp__switch_os(&ns->rs.tier[t - 1].model, NULL), site);
        }
    }
    return FP_OK;
}

/* ---- interfaces ---- */

/* Rows for physical ports [p0, p1) of a switch of model m, each split `ways` ways, at gbps; the
 * ports from m->ports on are the part's uplink group (its own cage). tag: the tags column's
 * text, NULL for no such column. */
static void port_rows(fp_outbuf *f, const char *dev, const char *tag, int cols, const fp_part *m,
                      int p0, int p1, int ways, int gbps, int ib)
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
            const char *r[] = { dev, fp__port_template(port, sizeof port, fp__port_template_of(m), &pf),
                                type, speed, tag, "" };
            fp__csv_row(f, r, (size_t)cols, 0);
        }
    }
}

void fp__netbox_switch_rows(fp_outbuf *f, const char *dev, const char *tag, int cols,
                            const fp_rspec *rs, const fp_tier_size *sz, int t, int ib)
{
    const fp_tier_spec *ts = &rs->tier[t - 1];
    const fp_part *m = &ts->model;
    int end = m->ports + (m->uplink_ports > 0 ? m->uplink_ports : 0);
    int up = sz->up_phys >= 0 ? sz->up_phys : m->uplink_ports > 0 ? m->ports : end;
    port_rows(f, dev, tag, cols, m, 0, up, ts->breakout, ts->gbps_down, ib);
    if (sz->up_phys >= 0)
        port_rows(f, dev, tag, cols, m, up, end, ts->breakout_up, ts->gbps_up, ib);
    else
        port_rows(f, dev, tag, cols, m, up, end, 1, m->uplink_gbps, ib);
}

int fp__netbox_lag_column(const fp_plan *plan)
{
    for (int k = 0; k < fp__plan_net_count(plan); k++)
        if (fp__plan_net(plan, k)->dual_homed && !fp__fabric_infiniband(&fp__plan_net(plan, k)->rs))
            return 1;
    return 0;
}

void fp__netbox_net_interfaces(fp_outbuf *f, const fp_plan *plan)
{
    char name[160], port[FP_PORT_NAME_MAX], speed[24], lag[FP_NET_NAME_MAX + 24];
    const int cols = 5 + fp__netbox_lag_column(plan);
    for (int k = 0; k < fp__plan_net_count(plan); k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        const fp_fabric *nf = fp__plan_net_fabric(plan, k);
        const fp_rspec *rs = &ns->rs;
        int ib = fp__fabric_infiniband(rs);
        /* Host ports at the network's port speed; one whose part names no cage (on-board
         * ports) takes the leaf's: the cord has the same plug at both ends (RJ45 at 1G,
         * QSFP28 at 100G). */
        speed[fp__put_int(speed, (int64_t)rs->link_gbps * 1000000)] = '\0';
        const char *host_cage = rs->nic.cage[0] ? rs->nic.cage : rs->tier[0].model.cage;
        const char *host_type = fp__netbox_interface_type(rs->link_gbps, host_cage, ib);
        for (int64_t d = 0; d < nf->n_dev; d++) {
            int t = nf->dev[d].tier;
            fp__net_device_name(name, sizeof name, ns, nf, fp__plan_fabric(plan),
                                fp__plan_rspec(plan), d);
            if (t > 0) {
                /* A switch of an attached tier is its own network's, with its interfaces. */
                if (!fp__net_is_alias(nf, d))
                    fp__netbox_switch_rows(f, name, ns->name, cols, &ns->rs, &nf->size[t - 1], t, ib);
                continue;
            }
            /* A dual-homed Ethernet host's ports are the members of one LAG,
             * "<network>-bond<g>" (g: the host's group of ports on its device, 1 for a compute
             * server), listed before them: its links to the two leaves of its MLAG pair. An
             * InfiniBand host's two ports stay two ports (InfiniBand has no link aggregation). */
            lag[0] = '\0';
            if (ns->dual_homed && !ib && ns->ports > 1) {
                const char *first = fp__net_port_name(port, sizeof port, ns, nf, d, 0);
                const char *num = strrchr(first, 'p');
                int g = num ? (atoi(num + 1) - 1) / ns->ports + 1 : 1;
                snprintf(lag, sizeof lag, "%s-bond%d", ns->name, g);
                const char *r[] = { name, lag, "lag", "", ns->name, "" };
                fp__csv_row(f, r, (size_t)cols, 0);
            }
            for (int p = 0; p < ns->ports; p++) {
                const char *r[] = { name, fp__net_port_name(port, sizeof port, ns, nf, d, p),
                                    host_type, speed, ns->name, lag };
                fp__csv_row(f, r, (size_t)cols, 0);
            }
        }
    }
}

/* ---- cables ---- */

fp_status fp__netbox_net_cables(fp_outbuf *f, const fp_plan *plan, fp_error *err)
{
    char an[160], zn[160], ap[FP_PORT_NAME_MAX], zp[FP_PORT_NAME_MAX], label[40], length[24];
    fp_cable_info c;
    fp_status rc;
    for (int k = 0; k < fp__plan_net_count(plan); k++) {
        const fp_net_spec *ns = fp__plan_net(plan, k);
        const fp_fabric *nf = fp__plan_net_fabric(plan, k);
        const fp_cabling *cab = &fp__plan_net_phys(plan)->cab[k];
        for (size_t i = 0; i < fp_plan_net_cable_count(plan, (size_t)k + 1); i++) {
            if ((rc = fp_plan_net_cable(plan, (size_t)k + 1, i, &c, err)) != FP_OK)
                return rc;
            const char *type, *color;
            int16_t part = cab->cable[i].part;
            fp__netbox_cable_kind((int)c.medium, part >= 0 ? &ns->rs.phys.parts[part] : NULL,
                                  &type, &color);
            snprintf(length, sizeof length, "%.1f", c.stock_m);
            int links = c.n_links < FP_MAX_LEGS ? c.n_links : FP_MAX_LEGS;
            for (int j = 0; j < links; j++) {
                const fp_link *l = &nf->link[c.links[j]];
                if (links > 1)
                    snprintf(label, sizeof label, "%s/%d", c.id, j + 1);
                else
                    snprintf(label, sizeof label, "%s", c.id);
                const char *r[] = {
                    fp__net_device_name(an, sizeof an, ns, nf, fp__plan_fabric(plan),
                                        fp__plan_rspec(plan), l->a),
                    "dcim.interface", fp__net_port_name(ap, sizeof ap, ns, nf, l->a, l->a_port),
                    fp__net_device_name(zn, sizeof zn, ns, nf, fp__plan_fabric(plan),
                                        fp__plan_rspec(plan), l->z),
                    "dcim.interface", fp__net_port_name(zp, sizeof zp, ns, nf, l->z, l->z_port),
                    type, "planned", label, color, length, "m", ns->name
                };
                fp__csv_row(f, r, 13, 0);
            }
        }
    }
    return FP_OK;
}
