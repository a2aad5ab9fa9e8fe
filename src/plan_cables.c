/* fabplan — reading the physical plan back: device locations, racks, and cables with their
 * ends and TIA-606 style labels, assembled from the layout, the name table and the cabling. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan_data.h"
#include "util/text.h"

/* ---- racks ---- */

fp_status fp_plan_device_location(const fp_plan *plan, size_t device, fp_location *out,
                                  fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_LAYOUT, "fp_plan_device_location", err);
    if (rc != FP_OK)
        return rc;
    if (out == NULL || device >= (size_t)plan->fab.n_dev)
        FP_FAIL(err, FP_EINVAL, "", "device %zu out of range (the plan has %lld), or out is NULL", device,
                (long long)plan->fab.n_dev);
    memset(out, 0, sizeof *out);
    fp__location(out, &plan->lay, (int64_t)device);
    return FP_OK;
}

size_t fp_plan_rack_count(const fp_plan *plan)
{
    if (plan == NULL)
        return 0;
    return (size_t)(plan->stages & FP_STAGE_CABLING ? plan->racks.n : plan->lay.n_rack);
}

static const char *rack_role(int role, int management)
{
    static const char *const roles[] = { "compute", "leaf", "spine", "core", "super-core" };
    if (management)
        return "management";
    return role >= 0 && role <= FP_MAX_TIERS ? roles[role] : "network";
}

fp_status fp_plan_rack(const fp_plan *plan, size_t i, fp_rack_info *out, fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_LAYOUT, "fp_plan_rack", err);
    if (rc != FP_OK)
        return rc;
    const fp_layout *lay = &plan->lay;
    const int cabled = (plan->stages & FP_STAGE_CABLING) != 0;
    const size_t n = fp_plan_rack_count(plan);
    if (out == NULL || i >= n)
        FP_FAIL(err, FP_EINVAL, "", "rack %zu out of range (the plan has %zu), or out is NULL", i, n);
    const fp_rack *r = cabled ? &plan->racks.rack[i] : &lay->rack[i];
    const int mgmt = (int64_t)i >= lay->n_rack;
    memset(out, 0, sizeof *out);
    out->hall = r->hall;
    out->row = r->row;
    out->rack = r->pos;
    snprintf(out->name, sizeof out->name, "H%d-R%02d-K%02d", r->hall, r->row, r->pos);
    out->role = rack_role(r->role, mgmt);
    out->x_m = r->x;
    out->y_m = r->y;
    out->units = plan->rs.phys.rack_units;
    out->units_used = mgmt ? 0 : r->units_used;
    out->devices = mgmt ? 0 : r->devices;
    if (cabled) {
        if (!mgmt && plan->cab.rack_panels && plan->cab.rack_panels[i] > 0) {
            out->panels = plan->cab.rack_panels[i];
            out->panel_u = plan->cab.rack_panel_u[i];
        }
        out->units_used = plan->racks.units_used[i];
        out->devices = plan->racks.devices[i];
        out->power_w = plan->racks.power_w[i];
        out->over_limit = plan->rs.phys.rack_power_limit_w > 0 &&
                          out->power_w > plan->rs.phys.rack_power_limit_w;
        out->cables_leaving = plan->racks.cables_leaving[i];
    }
    return FP_OK;
}

size_t fp_plan_rack_fixture_count(const fp_plan *plan, size_t i)
{
    if (plan == NULL || !(plan->stages & FP_STAGE_LAYOUT) || (int64_t)i >= plan->lay.n_rack ||
        plan->lay.rack[i].role != 0)
        return 0;
    size_t n = 0;
    for (int f = 0; f < plan->rs.phys.n_fixtures; f++)
        n += (size_t)plan->rs.phys.fixtures[f].count;
    return n;
}

fp_status fp_plan_rack_fixture(const fp_plan *plan, size_t i, size_t k, fp_rack_fixture *out,
                               fp_error *err)
{
    if (out == NULL || k >= fp_plan_rack_fixture_count(plan, i))
        FP_FAIL(err, FP_EINVAL, "", "fixture %zu of rack %zu out of range (it has %zu), or out is NULL",
                k, i, fp_plan_rack_fixture_count(plan, i));
    for (int f = 0;; f++) {
        const fp_fixture *x = &plan->rs.phys.fixtures[f];
        if (k < (size_t)x->count) {
            out->name = x->name;
            out->u = x->u + (int)k * x->ru;
            out->ru = x->ru;
            out->power_w = x->power_w;
            return FP_OK;
        }
        k -= (size_t)x->count;
    }
}

/* ---- cables ---- */

size_t fp_plan_cable_count(const fp_plan *plan)
{
    return plan ? (size_t)plan->cab.n_cable : 0;
}

/* Appends to a fixed char array, truncating like snprintf: the cable labels are built for every
 * cable of every per-cable document, so they are copied, not formatted. */
typedef struct label_buf {
    char *p;
    size_t cap, n;
} label_buf;

/* The lengths of an end's texts, known as fill_end writes them (no strlen of them again). */
typedef struct end_len {
    size_t loc, dev, port;
} end_len;

static void lb_addn(label_buf *b, const char *s, size_t len)
{
    size_t room = b->cap - 1 - b->n;
    if (len > room)
        len = room;
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = '\0';
}

/* "<loc> <device> <port>" of one end. */
static void lb_add_end(label_buf *b, const fp_cable_end *e, const end_len *n)
{
    lb_addn(b, e->loc.text, n->loc);
    lb_addn(b, " ", 1);
    lb_addn(b, e->device_name, n->dev);
    lb_addn(b, " ", 1);
    lb_addn(b, e->port, n->port);
}

/* What a cable is read from: the compute fabric (net < 0) or network net, with its fabric,
 * resolved spec, cabling and layout; cable ids of network net continue after the compute fabric's
 * links and the earlier networks' (id_base), so every cable id of the plan is unique. */
typedef struct cable_view {
    const fp_plan *plan;
    int net;
    const fp_fabric *fab;
    const fp_rspec *rs;
    const fp_cabling *cab;
    const fp_layout *lay;
    int64_t id_base;
} cable_view;

static cable_view compute_view(const fp_plan *plan)
{
    cable_view v = { plan, -1, &plan->fab, &plan->rs, &plan->cab, &plan->lay, 0 };
    return v;
}

static cable_view net_view(const fp_plan *plan, int k)
{
    cable_view v = { plan, k, &plan->net_fab.fab[k], &plan->nets.net[k].rs,
                     &plan->net_phys.cab[k], &plan->net_phys.lay[k], fp__link_numbers(&plan->fab) };
    for (int j = 0; j < k; j++)
        v.id_base += plan->net_fab.fab[j].n_link;
    return v;
}

/* One end of a cable on device dev carrying ports[0..n) (one port, or every port a twin-port
 * or splitter connector carries, in the order of the cable's links): each port by its one name
 * (fp__port_name, or fp__net_port_name on a network), several joined with '+'. */
static void fill_end(fp_cable_end *e, end_len *len, const cable_view *v, int64_t dev,
                     const int *ports, int n)
{
    const fp_plan *plan = v->plan;
    const fp_fabric *fab = v->fab;
    const fp_rspec *rs = v->rs;
    const fp_cabling *cab = v->cab;
    const fp_layout *lay = v->lay;
    const fp_net_spec *ns = v->net >= 0 ? &plan->nets.net[v->net] : NULL;
    int port = ports[0];
    e->device = dev;
    if (ns) {
        fp__net_device_name(e->device_name, sizeof e->device_name, ns, fab, &plan->fab, &plan->rs, dev);
        len->dev = strlen(e->device_name);
    } else {
        /* From the name table, whose lengths are known. */
        size_t dn = fp__dev_name_len(&plan->names, dev);
        len->dev = dn < sizeof e->device_name ? dn : sizeof e->device_name - 1;
        memcpy(e->device_name, fp__dev_name(&plan->names, dev), len->dev);
        e->device_name[len->dev] = '\0';
    }
    size_t k = 0;
    e->port[0] = '\0';
    for (int i = 0; i < n && k + 1 < sizeof e->port; i++) {
        if (i)
            e->port[k++] = '+';
        size_t pl;
        const char *pt = ns ? NULL : fp__port_text(&plan->names, fab, dev, ports[i], &pl);
        if (pt) {
            /* from the name table; truncated like the formatted name would be */
            if (pl > sizeof e->port - 1 - k)
                pl = sizeof e->port - 1 - k;
            memcpy(e->port + k, pt, pl);
            e->port[k + pl] = '\0';
            k += pl;
            continue;
        }
        if (ns)
            fp__net_port_name(e->port + k, sizeof e->port - k, ns, fab, dev, ports[i]);
        else
            fp__port_name(e->port + k, sizeof e->port - k, fab, rs, dev, ports[i]);
        k += strlen(e->port + k);
    }
    len->port = k;
    /* fp__location's fields, with the text from the plan's name table. */
    const fp_rack *r = &lay->rack[lay->dev_rack[dev]];
    e->loc.hall = r->hall;
    e->loc.row = r->row;
    e->loc.rack = r->pos;
    e->loc.u = lay->dev_u[dev];
    if (ns) {
        fp__location(&e->loc, lay, dev);
        len->loc = strlen(e->loc.text);
    } else {
        size_t ln = fp__dev_loc_len(&plan->names, dev);
        len->loc = ln < sizeof e->loc.text ? ln : sizeof e->loc.text - 1;
        memcpy(e->loc.text, fp__dev_loc(&plan->names, dev), len->loc);
        e->loc.text[len->loc] = '\0';
    }
    int16_t m = cab->cage_mod[fp__cage_of(cab, fab, rs, dev, port)];
    fp__copy_str(e->transceiver, sizeof e->transceiver, m >= 0 ? rs->phys.parts[m].id : "");
}

/* A cable's route length as the documents give it: rounded to the centimetre. */
static double route_cm(const fp_cable *cb)
{
    return round(cb->route_m * 100) / 100;
}

/* The cable's own fields: id, medium, part, lengths and segments, the first link's boundary. */
static void fill_cable_head(const cable_view *v, size_t i, fp_cable_info *out)
{
    const fp_cabling *cab = v->cab;
    const fp_rspec *rs = v->rs;
    const fp_cable *cb = &cab->cable[i];
    const int32_t *links = cab->cable_links + cb->first;
    const fp_link *l0 = &v->fab->link[links[0]];
    out->index = (int64_t)i;
    /* "C%07lld" of the first link's number (after id_base on a network). */
    out->id[0] = 'C';
    out->id[1 + fp__put_uint_w(out->id + 1, (uint64_t)(v->id_base + fp__link_number(v->fab, links[0])), 7)] = '\0';
    out->medium = (fp_medium)cb->medium;
    fp__copy_str(out->part, sizeof out->part, rs->phys.parts[cb->part].id);
    out->route_m = route_cm(cb);
    out->stock_m = cb->stock_m;
    out->n_segments = 1;
    out->segment_m[0] = out->route_m;
    out->segment_stock_m[0] = out->stock_m;
    if (cab->seg && cab->seg[3 * i + 1] > 0) {
        /* Cords rounded like the route; the trunk takes the rest, so the three add up. */
        const float *sg = cab->seg + 3 * i, *st = cab->seg_stock + 3 * i;
        out->n_segments = 3;
        out->segment_m[0] = round(sg[0] * 100) / 100;
        out->segment_m[2] = round(sg[2] * 100) / 100;
        out->segment_m[1] = round((out->route_m - out->segment_m[0] - out->segment_m[2]) * 100) / 100;
        for (int k = 0; k < 3; k++)
            out->segment_stock_m[k] = st[k];
    }
    out->connector = (fp_connector)cb->connector;
    /* the trunk as the segments show it: a cable whose trunk run is 0 reads as one cord */
    const int trunk = out->n_segments == 3 && cb->trunk_part >= 0;
    fp__copy_str(out->trunk_part, sizeof out->trunk_part, trunk ? rs->phys.parts[cb->trunk_part].id : "");
    out->trunk_fibres = trunk ? fp__trunk_fibres(cb->connector) : 0;
    out->boundary = l0->boundary;
    out->gbps = rs->gbps[l0->boundary];
    out->plane = l0->plane;
    out->n_links = cb->n_links;
}

/* The cable's ends and links: a split cable's hub (A) with one port per leg and a Z end per
 * leg, else one A and one Z end with every link's port; la/lz get the ends' text lengths. */
static void fill_cable_ends(const cable_view *v, const fp_cable *cb, fp_cable_info *out,
                            end_len *la, end_len *lz)
{
    const fp_cabling *cab = v->cab;
    const fp_fabric *fab = v->fab;
    const int32_t *links = cab->cable_links + cb->first;
    const fp_link *l0 = &fab->link[links[0]];
    int ap[FP_MAX_LEGS] = { 0 }, zp[FP_MAX_LEGS] = { 0 }, nl = cb->n_links < FP_MAX_LEGS ? cb->n_links : FP_MAX_LEGS;
    if (cb->kind == FP_CABLE_SPLIT) {
        /* The hub is the end whose cage every leg shares; it carries one port per leg. */
        int hub_z = fp__split_hub_is_z(cab, fab, v->rs, links, cb->n_links);
        int64_t hub = hub_z ? l0->z : l0->a;
        for (int k = 0; k < nl; k++)
            ap[k] = hub_z ? fab->link[links[k]].z_port : fab->link[links[k]].a_port;
        fill_end(&out->a, la, v, hub, ap, nl);
        out->n_z = nl;
        for (int k = 0; k < nl; k++) {
            const fp_link *l = &fab->link[links[k]];
            int port = hub_z ? l->a_port : l->z_port;
            fill_end(&out->z[k], &lz[k], v, hub_z ? l->a : l->z, &port, 1);
            out->links[k] = links[k];
        }
    } else {
        /* A straight cable carries one link; a twin-port cable every link of its two cages. */
        for (int k = 0; k < nl; k++) {
            ap[k] = fab->link[links[k]].a_port;
            zp[k] = fab->link[links[k]].z_port;
            out->links[k] = links[k];
        }
        fill_end(&out->a, la, v, l0->a, ap, nl);
        fill_end(&out->z[0], &lz[0], v, l0->z, zp, nl);
        out->n_z = 1;
    }
}

/* The full labels each cable end carries (cables.csv label_a/label_z, the plain style's
 * labels.csv `label`; the printed lines are plan_labels.c's): cable id, this end, far end(s).
 * A: "<id> <loc> <device> <port> >" then " <loc> <device> <port>" per leg;
 * Z: "<id> <loc> <device> <port> > <A loc> <A device> <A port>"; truncated to fit. */
static void fill_cable_labels(fp_cable_info *out, const end_len *la, const end_len *lz)
{
    const size_t id_len = 8;   /* "C" and 7 digits at least */
    size_t idn = out->id[id_len] ? strlen(out->id) : id_len;
    label_buf a = { out->a.label, sizeof out->a.label, 0 };
    lb_addn(&a, out->id, idn);
    lb_addn(&a, " ", 1);
    lb_add_end(&a, &out->a, la);
    lb_addn(&a, " >", 2);
    for (int z = 0; z < out->n_z; z++) {
        lb_addn(&a, " ", 1);
        lb_add_end(&a, &out->z[z], &lz[z]);
    }
    for (int z = 0; z < out->n_z; z++) {
        label_buf b = { out->z[z].label, sizeof out->z[z].label, 0 };
        lb_addn(&b, out->id, idn);
        lb_addn(&b, " ", 1);
        lb_add_end(&b, &out->z[z], &lz[z]);
        lb_addn(&b, " > ", 3);
        lb_add_end(&b, &out->a, la);
    }
}

/* The length the hub's (A's) full label needs, not cut: "<id> <A end> >" and " <leg>" for each
 * leg. A straight or twin-port cable's labels name two ends of at most 23 + 47 + 63 characters
 * each, so they always fit; only a splitter's hub label can grow beyond the field. */
static size_t hub_label_need(const fp_cable_info *out, const end_len *la, const end_len *lz)
{
    size_t k = strlen(out->id) + 1 + la->loc + 1 + la->dev + 1 + la->port + 2;
    for (int z = 0; z < out->n_z; z++)
        k += 1 + lz[z].loc + 1 + lz[z].dev + 1 + lz[z].port;
    return k;
}

fp_status fp__plan_labels_check(const fp_plan *plan, fp_error *err)
{
    fp_cable_info c, first;
    end_len la, lz[FP_MAX_LEGS];
    const int64_t cap = (int64_t)sizeof c.a.label - 1;
    int64_t first_need = 0, fit = INT64_MAX;    /* the longest names every hub label holds */
    first.id[0] = '\0';
    for (int net = -1; net < plan->nets.n; net++) {
        cable_view v = net < 0 ? compute_view(plan) : net_view(plan, net);
        for (int64_t i = 0; i < v.cab->n_cable; i++) {
            const fp_cable *cb = &v.cab->cable[i];
            if (cb->kind != FP_CABLE_SPLIT)
                continue;
            memset(&c, 0, sizeof c);
            fill_cable_head(&v, (size_t)i, &c);
            fill_cable_ends(&v, cb, &c, &la, lz);
            int64_t need = (int64_t)hub_label_need(&c, &la, lz), longest = 0;
            for (int z = 0; z < c.n_z; z++)
                longest = (int64_t)lz[z].dev > longest ? (int64_t)lz[z].dev : longest;
            /* each leg's name shorter (or longer) by the excess (room) shared over the legs */
            int64_t d = need - cap, share = d > 0 ? (d + c.n_z - 1) / c.n_z : -(-d / c.n_z);
            if (longest - share < fit)
                fit = longest - share;
            if (need > cap && first.id[0] == '\0') {
                first = c;
                first_need = need;
            }
        }
    }
    if (first.id[0] == '\0')
        return FP_OK;
    FP_FAIL(err, FP_EINVAL, "/cluster/server_names",
            "/cluster/server_names: \"%s\" makes the label of cable %s at its hub (%s %s, %d "
            "legs) %lld characters, more than the %lld a cable label holds, and a label never "
            "loses a character: expected server names of at most %lld characters",
            plan->rs.server_names.source, first.id, first.a.device_name, first.a.port, first.n_z,
            (long long)first_need, (long long)cap, (long long)(fit > 0 ? fit : 0));
}

static void fill_cable(const cable_view *v, size_t i, fp_cable_info *out)
{
    end_len la, lz[FP_MAX_LEGS];
    memset(out, 0, sizeof *out);
    fill_cable_head(v, i, out);
    fill_cable_ends(v, &v->cab->cable[i], out, &la, lz);
    fill_cable_labels(out, &la, lz);
}

fp_status fp_plan_cable(const fp_plan *plan, size_t i, fp_cable_info *out, fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_CABLING, "fp_plan_cable", err);
    if (rc != FP_OK)
        return rc;
    if (out == NULL || i >= (size_t)plan->cab.n_cable)
        FP_FAIL(err, FP_EINVAL, "", "cable %zu out of range (the plan has %lld), or out is NULL", i,
                (long long)plan->cab.n_cable);
    cable_view v = compute_view(plan);
    fill_cable(&v, i, out);
    return FP_OK;
}

double fp_plan_cable_route_m(const fp_plan *plan, size_t i)
{
    if (plan == NULL || !(plan->stages & FP_STAGE_CABLING) || i >= (size_t)plan->cab.n_cable)
        return 0;
    return route_cm(&plan->cab.cable[i]);
}

size_t fp_plan_net_cable_count(const fp_plan *plan, size_t net)
{
    if (plan == NULL || net > (size_t)plan->net_phys.n)
        return 0;
    return net == 0 ? fp_plan_cable_count(plan) : (size_t)plan->net_phys.cab[net - 1].n_cable;
}

fp_status fp_plan_net_cable(const fp_plan *plan, size_t net, size_t i, fp_cable_info *out,
                            fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_CABLING, "fp_plan_net_cable", err);
    if (rc != FP_OK)
        return rc;
    if (out == NULL || net >= 1 + (size_t)plan->nets.n || i >= fp_plan_net_cable_count(plan, net))
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_net_cable: no cable %zu of network %zu (the plan has "
                                    "%d networks beside the compute fabric), or out is NULL",
                i, net, plan->nets.n);
    cable_view v = net == 0 ? compute_view(plan) : net_view(plan, (int)net - 1);
    fill_cable(&v, i, out);
    return FP_OK;
}

int fp__cable_ends(const fp_plan *plan, size_t i, int64_t *a, int64_t z[FP_MAX_LEGS])
{
    const fp_cabling *cab = &plan->cab;
    const fp_fabric *fab = &plan->fab;
    const fp_cable *cb = &cab->cable[i];
    const int32_t *links = cab->cable_links + cb->first;
    const fp_link *l0 = &fab->link[links[0]];
    if (cb->kind != FP_CABLE_SPLIT) {
        *a = l0->a;
        z[0] = l0->z;
        return 1;
    }
    int hub_z = fp__split_hub_is_z(cab, fab, &plan->rs, links, cb->n_links), n = 0;
    *a = hub_z ? l0->z : l0->a;
    for (; n < cb->n_links && n < FP_MAX_LEGS; n++)
        z[n] = hub_z ? fab->link[links[n]].a : fab->link[links[n]].z;
    return n;
}

/* FP_ESTAGE without the cabling stage; FP_EINVAL unless link is one of the plan's links. */
static fp_status link_check(const fp_plan *plan, size_t link, const char *what, fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_CABLING, what, err);
    if (rc != FP_OK)
        return rc;
    if (link >= (size_t)plan->fab.n_link)
        FP_FAIL(err, FP_EINVAL, "", "%s: link %zu out of range (the plan has %lld)", what, link,
                (long long)plan->fab.n_link);
    return FP_OK;
}

fp_status fp_plan_link_cable(const fp_plan *plan, size_t link, size_t *cable, fp_error *err)
{
    fp_status rc;
    if (cable == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_link_cable: cable is NULL");
    if ((rc = link_check(plan, link, "fp_plan_link_cable", err)) != FP_OK)
        return rc;
    *cable = (size_t)plan->cab.link_cable[link];
    return FP_OK;
}

fp_status fp_plan_link_medium(const fp_plan *plan, size_t link, fp_medium *medium, fp_error *err)
{
    fp_status rc;
    if (medium == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_link_medium: medium is NULL");
    if ((rc = link_check(plan, link, "fp_plan_link_medium", err)) != FP_OK)
        return rc;
    *medium = (fp_medium)plan->cab.link_medium[link];
    return FP_OK;
}

fp_status fp_plan_media_audit(const fp_plan *plan, int b, fp_media_audit *out, fp_error *err)
{
    if (out == NULL || plan == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_media_audit: %s is NULL", out ? "plan" : "out");
    if (b < 0 || b >= plan->fab.tiers)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_media_audit: boundary %d out of range (the plan has %d)",
                b, plan->fab.tiers);
    fp_status rc = fp__plan_need(plan, FP_STAGE_CABLING, "fp_plan_media_audit", err);
    if (rc != FP_OK)
        return rc;
    const fp_cabling *cab = &plan->cab;
    memset(out, 0, sizeof *out);
    out->chosen_usd = cab->audit_cost[b];
    out->chosen_usd_of_those = cab->audit_alt_chosen[b];
    out->alternative_usd = cab->audit_alt_cost[b];
    for (int m = 0; m < FP_MEDIUM_COUNT; m++) {
        out->alternative_links[m] = cab->audit_alt_links[b][m];
        out->links_with_alternative += cab->audit_alt_links[b][m];
    }
    return FP_OK;
}

/* One cell as cables.csv shows it unquoted: a formula gets its apostrophe (see fp_csv_field). */
static uint64_t digest_cell(uint64_t h, const char *s)
{
    if (s == NULL)
        s = "";
    size_t n = strlen(s);
    if (fp__csv_formula(s, n))
        h = (h ^ (unsigned char)'\'') * 0x100000001b3ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h * 0x100000001b3ull;     /* the 0 byte after the cell: h ^ 0 */
}

char *fp_cable_digest_text(uint64_t digest, char out[FP_CABLE_DIGEST_TEXT])
{
    if (out != NULL)
        snprintf(out, FP_CABLE_DIGEST_TEXT, "fnv1a64:%016llx", (unsigned long long)digest);
    return out;
}

uint64_t fp_cable_digest_add(uint64_t digest, const char *cable_id, const char *a_device,
                             const char *a_port)
{
    return digest_cell(digest_cell(digest_cell(digest, cable_id), a_device), a_port);
}

fp_status fp_plan_cable_digest(const fp_plan *plan, uint64_t *digest, int64_t *cables, fp_error *err)
{
    if (digest == NULL || cables == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_cable_digest: NULL argument");
    fp_status rc = fp__plan_need(plan, FP_STAGE_CABLING, "fp_plan_cable_digest", err);
    if (rc != FP_OK)
        return rc;
    uint64_t h = FP_CABLE_DIGEST_INIT;
    int64_t n = 0;
    /* fp_plan_net_cable without the labels (the digest reads the id and the A end only) */
    fp_cable_info *c = malloc(sizeof *c);
    if (c == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    for (size_t k = 0; k < fp_plan_net_count(plan); k++) {
        cable_view v = k == 0 ? compute_view(plan) : net_view(plan, (int)k - 1);
        for (size_t i = 0; i < fp_plan_net_cable_count(plan, k); i++) {
            end_len la, lz[FP_MAX_LEGS];
            fill_cable_head(&v, i, c);
            fill_cable_ends(&v, &v.cab->cable[i], c, &la, lz);
            h = fp_cable_digest_add(h, c->id, c->a.device_name, c->a.port);
            n++;
        }
    }
    free(c);
    *digest = h;
    *cables = n;
    return FP_OK;
}
