/* fabplan — reading a built plan back: the public getters over the stages' results, and the
 * private views the writers read (plan.h). Cables and their labels are in plan_cables.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plan_data.h"

static const char *const topo_names[] = { "clos", "fat-tree", "rail-optimized" };

const char *fp_topology_name(fp_topology t)
{
    return (unsigned)t < 3 ? topo_names[t] : "unknown";
}

/* ---- private views (plan.h) ---- */

const fp_rspec *fp__plan_rspec(const fp_plan *plan)
{
    return &plan->rs;
}

const fp_fabric *fp__plan_fabric(const fp_plan *plan)
{
    return &plan->fab;
}

const fp_layout *fp__plan_layout(const fp_plan *plan)
{
    return &plan->lay;
}

const fp_cabling *fp__plan_cabling(const fp_plan *plan)
{
    return &plan->cab;
}

const fp_bom *fp__plan_bom(const fp_plan *plan)
{
    return &plan->bom;
}

int fp__plan_net_count(const fp_plan *plan)
{
    return plan->nets.n;
}

const fp_net_spec *fp__plan_net(const fp_plan *plan, int i)
{
    return &plan->nets.net[i];
}

const fp_fabric *fp__plan_net_fabric(const fp_plan *plan, int i)
{
    return &plan->net_fab.fab[i];
}

const char *fp__plan_net_label(const fp_plan *plan, size_t net)
{
    return net == 0 || net > (size_t)plan->nets.n ? "compute" : plan->nets.net[net - 1].name;
}

const fp_net_bom *fp__plan_net_bom(const fp_plan *plan, int i)
{
    return &plan->net_bom.b[i];
}

const fp_net_place *fp__plan_net_place(const fp_plan *plan)
{
    return &plan->net_place;
}

const fp_racks *fp__plan_racks(const fp_plan *plan)
{
    return &plan->racks;
}

const fp_net_phys *fp__plan_net_phys(const fp_plan *plan)
{
    return &plan->net_phys;
}

const fp_names *fp__plan_names(const fp_plan *plan)
{
    return &plan->names;
}

const fp_analysis *fp__plan_analysis(const fp_plan *plan)
{
    return plan->an;
}

fp_stages fp__plan_stages(const fp_plan *plan)
{
    fp_stages st = { &plan->rs, &plan->fab, &plan->lay, &plan->cab, &plan->bom };
    return st;
}

/* ---- fabric ---- */

void fp_plan_summary(const fp_plan *plan, fp_summary *out)
{
    if (out == NULL)
        return;
    memset(out, 0, sizeof *out);
    if (plan == NULL)
        return;
    const fp_fabric *f = &plan->fab;
    const fp_rspec *rs = &plan->rs;
    memset(out, 0, sizeof *out);
    out->gpus = rs->gpus;
    out->servers = f->servers - rs->spare_servers;
    out->spare_servers = rs->spare_servers;
    out->endpoints = f->boundary_base[1];
    out->tiers = f->tiers;
    out->planes = f->planes;
    out->topology = rs->topology;
    out->switches = f->n_dev - f->servers;
    out->links = f->n_link;
    out->capacity_gpus = f->capacity_endpoints / rs->endpoints_per_server * rs->gpus_per_server;
    out->tier_choice = plan->fab.tier_choice;
}

size_t fp_plan_network_count(const fp_plan *plan)
{
    return plan ? (size_t)plan->nets.n : 0;
}

fp_status fp_plan_network(const fp_plan *plan, size_t i, fp_network_info *out, fp_error *err)
{
    if (plan == NULL || out == NULL || i >= (size_t)plan->nets.n)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_network: no network %zu (the plan has %d)", i,
                plan ? plan->nets.n : 0);
    const fp_net_spec *ns = &plan->nets.net[i];
    const fp_fabric *f = &plan->net_fab.fab[i];
    const fp_net_bom *b = plan->net_bom.b ? &plan->net_bom.b[i] : NULL;
    int64_t survive = 0;
    memset(out, 0, sizeof *out);
    out->name = ns->name;
    out->role = fp__net_role_name(ns->role);
    out->dual_homed = ns->dual_homed;
    out->tiers = f->tiers;
    out->port_gbps = ns->rs.link_gbps;
    out->hosts = ns->hosts;
    out->switches = fp__fabric_switches(f);
    out->links = f->n_link;
    out->cost_usd = b ? b->cost : 0;     /* 0 without FP_STAGE_BOM */
    out->power_w = b ? b->power_w : 0;
    out->bisection_gbps = fp__net_bisection_gbps(f, &ns->rs);
    fp__net_dual_check(f, ns, &out->hosts_on_pairs, &survive);
    out->note = ns->note;
    out->pair_name = ns->dual_homed ? fp__net_pair_name(ns) : "";
    return FP_OK;
}

size_t fp_plan_tier_count(const fp_plan *plan)
{
    return plan ? (size_t)plan->fab.tiers : 0;
}

fp_status fp_plan_tier(const fp_plan *plan, size_t i, fp_tier_info *out, fp_error *err)
{
    if (plan == NULL || out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_tier: %s is NULL", plan ? "out" : "plan");
    const fp_fabric *f = &plan->fab;
    if (i >= (size_t)f->tiers)
        FP_FAIL(err, FP_EINVAL, "", "tier %zu out of range (the plan has %d)", i, f->tiers);
    const fp_tier_spec *ts = &plan->rs.tier[i];
    int t = (int)i + 1;
    memset(out, 0, sizeof *out);
    out->tier = t;
    out->role = fp__tier_role(t);
    out->model = ts->model.id;
    out->switches = f->level[t].switches * f->planes;
    out->ports_per_switch = ts->radix;
    out->port_gbps = ts->gbps_down;
    out->up_gbps = t < f->tiers ? ts->gbps_up : 0;
    const fp_tier_size *sz = &f->size[i];
    out->down_ports = sz->down;
    out->up_ports = sz->up;
    out->ports_used = f->ports_used[t];
    out->ports_spare = out->switches * ts->radix - out->ports_used;
    if (ts->model.uplink_ports > 0 && t < f->tiers) {
        /* Uplink ports of their own (SN2201): the front ports left after the links down. */
        out->ports_spare = out->switches * ts->radix - (f->boundary_base[t] - f->boundary_base[t - 1]);
    } else if (sz->up_phys >= 0 && t < f->tiers) {
        /* The sides split differently: count an up link as the down-speed ports its share of a
         * physical port would give (an 800G uplink on an 800G port is two 400G ports). */
        int64_t down = f->boundary_base[t] - f->boundary_base[t - 1];
        int64_t up = f->boundary_base[t + 1] - f->boundary_base[t];
        out->ports_spare = out->switches * ts->radix - down -
                           (up * ts->breakout + ts->breakout_up - 1) / ts->breakout_up;
    }
    out->oversubscription = sz->up ? (double)sz->down * ts->gbps_down /
                                         ((double)sz->up * ts->gbps_up) : 0.0;
    out->links_up = t < f->tiers ? f->boundary_base[t + 1] - f->boundary_base[t] : 0;
    const int64_t down = f->boundary_base[t] - f->boundary_base[t - 1];
    out->switches_min = sz->down > 0 ? (down + sz->down - 1) / sz->down : out->switches;
    return FP_OK;
}

/* Network net of the plan (net < fp_plan_net_count): its fabric and resolved spec, and its
 * spec entry (NULL for the compute fabric, network 0). */
typedef struct net_ref {
    const fp_fabric *f;
    const fp_rspec *rs;
    const fp_net_spec *ns;
} net_ref;

static net_ref net_ref_of(const fp_plan *plan, size_t net)
{
    if (net == 0)
        return (net_ref){ &plan->fab, &plan->rs, NULL };
    const fp_net_spec *ns = &plan->nets.net[net - 1];
    return (net_ref){ &plan->net_fab.fab[net - 1], &ns->rs, ns };
}

fp_net_read fp__plan_net_read(const fp_plan *plan, size_t net)
{
    fp_net_read v;
    net_ref r = net_ref_of(plan, net);
    memset(&v, 0, sizeof v);
    v.plan = plan;
    v.net = net;
    v.fab = r.f;
    v.rs = r.rs;
    v.ns = r.ns;
    v.label = fp__plan_net_label(plan, net);
    v.host_ports = r.ns ? r.ns->ports : r.rs->nics_per_server * r.rs->nic.ports;
    if (r.ns) {
        snprintf(v.id_prefix, sizeof v.id_prefix, "%s-", r.ns->name);
        v.dual_homed = r.ns->dual_homed;
        v.cable_base = fp__link_numbers(&plan->fab);
        for (size_t j = 0; j + 1 < net; j++)
            v.cable_base += plan->net_fab.fab[j].n_link;
    }
    if (plan->stages & FP_STAGE_CABLING)
        v.cab = net == 0 ? &plan->cab : &plan->net_phys.cab[net - 1];
    return v;
}

const char *fp__net_read_dev(const fp_net_read *v, int64_t d, char *buf, size_t n, size_t *len)
{
    const fp_plan *plan = v->plan;
    if (v->ns == NULL) {
        if (len)
            *len = fp__dev_name_len(&plan->names, d);
        return fp__dev_name(&plan->names, d);
    }
    fp__net_device_name(buf, n, v->ns, v->fab, &plan->fab, &plan->rs, d);
    if (len)
        *len = strlen(buf);
    return buf;
}

const char *fp__net_read_port(const fp_net_read *v, int64_t d, int port, char *buf, size_t n,
                              size_t *len)
{
    size_t k;
    const char *t = v->ns ? NULL : fp__port_text(&v->plan->names, v->fab, d, port, &k);
    if (t == NULL) {
        t = v->ns ? fp__net_port_name(buf, n, v->ns, v->fab, d, port)
                  : fp__port_name(buf, n, v->fab, v->rs, d, port);
        k = strlen(t);
    }
    if (len)
        *len = k;
    return t;
}

int64_t fp__net_read_rack(const fp_net_read *v, int64_t d, int *u)
{
    const fp_plan *plan = v->plan;
    if (v->ns == NULL) {
        *u = plan->lay.dev_u[d];
        return plan->lay.dev_rack[d];
    }
    *u = plan->net_place.dev_u[v->net - 1][d];
    return plan->net_place.dev_rack[v->net - 1][d];
}

int64_t fp__net_read_owner(const fp_net_read *v, int64_t d, size_t *owner_net)
{
    *owner_net = v->net;
    if (v->ns == NULL)
        return d;
    if (fp__net_is_alias(v->fab, d)) {
        *owner_net = (size_t)(v->fab->alias[d].net + 1);
        return v->fab->alias[d].dev;
    }
    if (d >= v->fab->servers)
        return d;
    if (d < v->ns->servers) {
        *owner_net = 0;
        return d;
    }
    int64_t first;
    fp__net_endpoint(v->ns, d, &first);
    return first;
}

/* The network and item a per-network getter was asked for, and its *out zeroed: FP_EINVAL
 * (naming the getter) when the network, the item or an argument is not there. */
static fp_status net_item(const fp_plan *plan, size_t net, size_t i, void *out, size_t out_size,
                          const char *getter, const char *item, net_ref *ref, fp_error *err)
{
    if (plan == NULL || out == NULL || net >= fp_plan_net_count(plan))
        FP_FAIL(err, FP_EINVAL, "", "%s: no network %zu (the plan has %zu), or a NULL argument",
                getter, net, plan ? fp_plan_net_count(plan) : 0);
    *ref = net_ref_of(plan, net);
    int64_t n = strcmp(item, "device") == 0 ? ref->f->n_dev : ref->f->n_link;
    if (i >= (size_t)n)
        FP_FAIL(err, FP_EINVAL, "", "%s: %s %zu out of range (network %zu has %lld)", getter,
                item, i, net, (long long)n);
    memset(out, 0, out_size);
    return FP_OK;
}

size_t fp_plan_net_device_count(const fp_plan *plan, size_t net)
{
    return plan && net < fp_plan_net_count(plan) ? (size_t)net_ref_of(plan, net).f->n_dev : 0;
}

fp_status fp_plan_net_device(const fp_plan *plan, size_t net, size_t i, fp_device_info *out,
                             fp_error *err)
{
    net_ref n = { 0 };
    fp_status rc = net_item(plan, net, i, out, sizeof *out, "fp_plan_net_device", "device", &n, err);
    if (rc != FP_OK)
        return rc;
    const fp_fabric *f = n.f;
    const fp_device *d = &f->dev[i];
    out->tier = d->tier;
    out->plane = d->plane;
    out->pod = d->pod;
    out->zone = d->zone;
    out->su = d->su;
    out->rail = d->rail;
    out->index = d->index;
    fp_net_read v = fp__plan_net_read(plan, net);
    if (d->tier == 0) {
        out->ports = v.host_ports;
        out->model = n.rs->nic.id;
    } else {
        out->ports = fp__switch_ports(f, n.rs, d->tier - 1);
        out->model = n.rs->tier[d->tier - 1].model.id;
    }
    size_t len;
    const char *name = fp__net_read_dev(&v, (int64_t)i, out->name, sizeof out->name, &len);
    if (name != out->name) {
        len = len < sizeof out->name ? len : sizeof out->name - 1;
        memcpy(out->name, name, len);
        out->name[len] = '\0';
    }
    size_t owner;
    fp__net_read_owner(&v, (int64_t)i, &owner);
    out->owner = (int)owner;
    return FP_OK;
}

size_t fp_plan_device_count(const fp_plan *plan)
{
    return plan ? (size_t)plan->fab.n_dev : 0;
}

fp_status fp_plan_device(const fp_plan *plan, size_t i, fp_device_info *out, fp_error *err)
{
    return fp_plan_net_device(plan, 0, i, out, err);
}

/* Port `port` of device d of network v, named by fp__net_read_port, into buf (n bytes). */
static void copy_name(char *buf, size_t n, const fp_net_read *v, int64_t d, int port)
{
    size_t len;
    const char *t = fp__net_read_port(v, d, port, buf, n, &len);
    if (t != buf) {
        len = len < n ? len : n - 1;
        memcpy(buf, t, len);
        buf[len] = '\0';
    }
}

size_t fp_plan_net_link_count(const fp_plan *plan, size_t net)
{
    return plan && net < fp_plan_net_count(plan) ? (size_t)net_ref_of(plan, net).f->n_link : 0;
}

fp_status fp_plan_net_link(const fp_plan *plan, size_t net, size_t i, fp_link_info *out,
                           fp_error *err)
{
    net_ref n = { 0 };
    fp_status rc = net_item(plan, net, i, out, sizeof *out, "fp_plan_net_link", "link", &n, err);
    if (rc != FP_OK)
        return rc;
    const fp_fabric *f = n.f;
    const fp_link *l = &f->link[i];
    out->id = (int64_t)i;
    out->a = l->a;
    out->z = l->z;
    out->a_port = l->a_port;
    out->z_port = l->z_port;
    fp_net_read v = fp__plan_net_read(plan, net);
    copy_name(out->a_port_name, sizeof out->a_port_name, &v, l->a, l->a_port);
    copy_name(out->z_port_name, sizeof out->z_port_name, &v, l->z, l->z_port);
    out->gbps = n.rs->gbps[l->boundary];
    out->boundary = l->boundary;
    out->plane = l->plane;
    return FP_OK;
}

size_t fp_plan_link_count(const fp_plan *plan)
{
    return plan ? (size_t)plan->fab.n_link : 0;
}

fp_status fp_plan_link(const fp_plan *plan, size_t i, fp_link_info *out, fp_error *err)
{
    return fp_plan_net_link(plan, 0, i, out, err);
}

fp_status fp_plan_boundary_links(const fp_plan *plan, int boundary, int64_t *links, fp_error *err)
{
    if (plan == NULL || links == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_boundary_links: NULL plan or links");
    const fp_fabric *f = &plan->fab;
    if (boundary < 0 || boundary >= f->tiers)
        FP_FAIL(err, FP_EINVAL, "", "boundary %d out of range (the plan has %d: 0 to %d)",
                boundary, f->tiers, f->tiers - 1);
    *links = f->boundary_base[boundary + 1] - f->boundary_base[boundary];
    return FP_OK;
}

size_t fp_plan_note_count(const fp_plan *plan)
{
    if (plan == NULL)
        return 0;
    return (size_t)plan->fab.n_notes + (plan->cab.note[0] != '\0') + (plan->cost_note[0] != '\0');
}

/* The fabric's notes, then the cabling's, then the links priced. */
const char *fp_plan_note(const fp_plan *plan, size_t i)
{
    if (plan == NULL)
        return NULL;
    if (i < (size_t)plan->fab.n_notes)
        return plan->fab.notes[i];
    i -= (size_t)plan->fab.n_notes;
    if (plan->cab.note[0] != '\0') {
        if (i == 0)
            return plan->cab.note;
        i--;
    }
    return i == 0 && plan->cost_note[0] ? plan->cost_note : NULL;
}

/* ---- bill of materials ---- */

size_t fp_plan_bom_count(const fp_plan *plan)
{
    return plan ? plan->bom.n : 0;
}

fp_status fp_plan_bom_line(const fp_plan *plan, size_t i, fp_bom_line *out, fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_BOM, "fp_plan_bom_line", err);
    if (rc != FP_OK)
        return rc;
    if (out == NULL || i >= plan->bom.n)
        FP_FAIL(err, FP_EINVAL, "", "BOM line %zu out of range (the plan has %zu), or out is NULL",
                i, plan->bom.n);
    *out = plan->bom.row[i].line;
    return FP_OK;
}

/* The per-GPU figures of *t, over the GPUs requested. */
static void per_gpu(const fp_plan *plan, fp_totals *t)
{
    double gpus = (double)(plan->rs.gpus > 0 ? plan->rs.gpus : 1);
    t->cost_per_gpu = t->cost / gpus;
    t->power_w_per_gpu = t->power_w / gpus;
    t->transceivers_per_gpu = (double)t->transceivers / gpus;
}

/* Network net's totals (net < fp_plan_net_count, FP_STAGE_BOM built). */
static void net_totals(const fp_plan *plan, size_t net, fp_totals *out)
{
    if (net == 0) {
        *out = plan->bom.totals;
        out->switches = plan->fab.n_dev - plan->fab.servers;
        return;
    }
    const fp_net_bom *b = &plan->net_bom.b[net - 1];
    memset(out, 0, sizeof *out);
    out->cost = b->cost;
    out->power_w = b->power_w;
    out->transceivers = b->transceivers;
    out->cables = b->cables;
    out->unpriced_parts = b->unpriced;
    out->switches = b->switches;
    per_gpu(plan, out);
}

size_t fp_plan_net_count(const fp_plan *plan)
{
    return plan ? 1 + (size_t)plan->nets.n : 0;
}

fp_status fp_plan_net_totals(const fp_plan *plan, size_t net, fp_totals *out, fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_BOM, "fp_plan_net_totals", err);
    if (rc != FP_OK)
        return rc;
    if (out == NULL || net >= fp_plan_net_count(plan))
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_net_totals: no network %zu (the plan has %zu), or out is NULL",
                net, fp_plan_net_count(plan));
    net_totals(plan, net, out);
    return FP_OK;
}

void fp_plan_totals(const fp_plan *plan, fp_totals *out)
{
    if (out == NULL)
        return;
    memset(out, 0, sizeof *out);
    if (plan == NULL || !(plan->stages & FP_STAGE_BOM))
        return;
    net_totals(plan, 0, out);
    if (plan->nets.n == 0)
        return;
    for (size_t k = 1; k < fp_plan_net_count(plan); k++) {
        fp_totals t;
        net_totals(plan, k, &t);
        out->cost += t.cost;
        out->power_w += t.power_w;
        out->transceivers += t.transceivers;
        out->cables += t.cables;
        out->unpriced_parts += t.unpriced_parts;
        out->switches += t.switches;
    }
    per_gpu(plan, out);
}

/* A network's BOM line as the compute fabric's reads (fp_bom_line); the extra endpoints' lines
 * carry no power here (they are not network power) and kind FP_BOM_CATEGORY_COUNT. */
static void net_bom_line_read(fp_bom_line *out, const fp_net_bom_line *l)
{
    int endpoint = strcmp(l->category, "endpoint") == 0;
    memset(out, 0, sizeof *out);
    out->part = l->part;
    out->category = l->category;
    out->description = l->desc;
    out->length_m = l->length_m;
    out->spare = l->spare;
    out->quantity = l->qty;
    out->unit_cost = l->unit_usd;
    out->cost = l->ext_usd;
    out->unit_power_w = endpoint ? 0 : l->unit_w;
    out->power_w = endpoint ? 0 : l->ext_w;
    out->mtbf_hours = l->mtbf_hours;
    out->kind = FP_BOM_CATEGORY_COUNT;
    for (int k = 0; k < FP_BOM_CATEGORY_COUNT; k++)
        if (strcmp(l->category, fp_bom_category_name((fp_bom_category)k)) == 0)
            out->kind = (fp_bom_category)k;
}

size_t fp_plan_net_bom_count(const fp_plan *plan, size_t net)
{
    if (plan == NULL || !(plan->stages & FP_STAGE_BOM) || net >= fp_plan_net_count(plan))
        return 0;
    return net == 0 ? plan->bom.n : (size_t)plan->net_bom.b[net - 1].n;
}

fp_status fp_plan_net_bom_line(const fp_plan *plan, size_t net, size_t i, fp_bom_line *out,
                               fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_BOM, "fp_plan_net_bom_line", err);
    if (rc != FP_OK)
        return rc;
    if (out == NULL || net >= fp_plan_net_count(plan) || i >= fp_plan_net_bom_count(plan, net))
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_net_bom_line: no line %zu of network %zu (the plan has %zu networks), or out is NULL",
                i, net, fp_plan_net_count(plan));
    if (net == 0)
        *out = plan->bom.row[i].line;
    else
        net_bom_line_read(out, &plan->net_bom.b[net - 1].line[i]);
    return FP_OK;
}

size_t fp_plan_warning_count(const fp_plan *plan)
{
    return plan ? (size_t)plan->bom.n_warnings : 0;
}

const char *fp_plan_warning(const fp_plan *plan, size_t i)
{
    return plan && i < (size_t)plan->bom.n_warnings ? plan->bom.warnings[i] : NULL;
}

fp_status fp_plan_bom_category_total(double *cost_usd, double *power_w, const fp_plan *plan,
                                     fp_bom_category category, fp_error *err)
{
    double cost = 0, power = 0;
    fp_status rc = fp__plan_need(plan, FP_STAGE_BOM, "fp_plan_bom_category_total", err);
    if (rc != FP_OK)
        return rc;
    if ((unsigned)category >= FP_BOM_CATEGORY_COUNT)
        FP_FAIL(err, FP_EINVAL, "", "BOM category %d out of range (0 to %d)", (int)category,
                FP_BOM_CATEGORY_COUNT - 1);
    for (size_t i = 0; i < plan->bom.n; i++)
        if (plan->bom.row[i].line.kind == category) {
            cost += plan->bom.row[i].line.cost;
            power += plan->bom.row[i].line.power_w;
        }
    if (cost_usd)
        *cost_usd = cost;
    if (power_w)
        *power_w = power;
    return FP_OK;
}

/* ---- analysis ---- */

static const fp_metrics no_metrics;

const fp_metrics *fp_plan_metrics(const fp_plan *plan)
{
    return plan && plan->an ? &plan->an->m : &no_metrics;
}

/* Power per rack, row and hall, summed from every rack of the floor (fp_plan_rack: the
 * layout's in floor order, then the management racks hall by hall). A row's racks are
 * consecutive; a hall's are its run of the layout's racks plus its management racks. */
void fp_plan_power_domains(const fp_plan *plan, fp_power_domains *out)
{
    if (out == NULL)
        return;
    memset(out, 0, sizeof *out);
    if (plan == NULL)
        return;
    const fp_phys_spec *ps = &plan->rs.phys;
    const fp_racks *rk = &plan->racks;
    const int64_t n = (plan->stages & FP_STAGE_CABLING) ? rk->n : 0, R = rk->n_layout;
    double row_w = 0, hall_w = 0;
    memset(out, 0, sizeof *out);
    out->rack_limit_w = ps->rack_power_limit_w;
    out->row_limit_w = ps->row_power_limit_w;
    out->hall_limit_w = ps->hall_power_limit_w;
    for (int64_t i = 0; i < n; i++) {
        const fp_rack *r = &rk->rack[i];
        double w = rk->power_w[i];
        int same_hall = i > 0 && i != R && rk->rack[i - 1].hall == r->hall;
        int same_row = same_hall && rk->rack[i - 1].row == r->row;
        row_w = same_row ? row_w + w : w;
        hall_w = same_hall ? hall_w + w : w;
        if (w > out->rack_max_w)
            out->rack_max_w = w;
        out->racks_over += ps->rack_power_limit_w > 0 && w > ps->rack_power_limit_w;
        int last = i + 1 == n || i + 1 == R;
        if (last || rk->rack[i + 1].hall != r->hall || rk->rack[i + 1].row != r->row) {
            if (row_w > out->row_max_w)
                out->row_max_w = row_w;
            out->rows_over += ps->row_power_limit_w > 0 && row_w > ps->row_power_limit_w;
        }
        if (i >= R)
            continue;           /* a management rack: counted in its hall's run below */
        if (last || rk->rack[i + 1].hall != r->hall) {
            for (int64_t m = R; m < n; m++)
                hall_w += rk->rack[m].hall == r->hall ? rk->power_w[m] : 0;
            if (hall_w > out->hall_max_w)
                out->hall_max_w = hall_w;
            out->halls_over += ps->hall_power_limit_w > 0 && hall_w > ps->hall_power_limit_w;
        }
    }
}

/* With spec networks the trays of the whole floor (every network's cables, the management
 * rows), else the compute fabric's. */
size_t fp_plan_tray_count(const fp_plan *plan)
{
    if (plan == NULL)
        return 0;
    return (size_t)(plan->net_phys.n_tray > 0 ? plan->net_phys.n_tray : plan->cab.n_tray);
}

fp_status fp_plan_tray(const fp_plan *plan, size_t i, fp_tray_info *out, fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_CABLING, "fp_plan_tray", err);
    if (rc != FP_OK)
        return rc;
    const fp_net_phys *np = &plan->net_phys;
    const int nets = np->n_tray > 0;
    const fp_layout *lay = nets ? &np->lay[0] : &plan->lay;
    const int64_t n_tray = nets ? np->n_tray : plan->cab.n_tray;
    const int64_t *t_rack = nets ? np->tray_rack : plan->cab.tray_rack;
    const int64_t *t_cables = nets ? np->tray_cables : plan->cab.tray_cables;
    const double *t_area = nets ? np->tray_area_mm2 : plan->cab.tray_area_mm2;
    const fp_phys_spec *ps = &plan->rs.phys;
    if (out == NULL || i >= (size_t)n_tray)
        FP_FAIL(err, FP_EINVAL, "", "tray %zu out of range (the plan has %lld), or out is NULL", i,
                (long long)n_tray);
    memset(out, 0, sizeof *out);
    /* The first rack of row i in floor order names it. */
    const fp_rack *first = &lay->rack[t_rack[i]];
    snprintf(out->row, sizeof out->row, "H%d-R%02d", first->hall, first->row);
    out->cables = t_cables[i];
    out->area_mm2 = round(t_area[i] * 10) / 10;
    double tier = ps->tray_width_mm * ps->tray_depth_mm * ps->tray_fill_max;
    out->tiers = tier > 0 ? (int)ceil(out->area_mm2 / tier - 1e-9) : 1;
    if (out->tiers < 1)
        out->tiers = 1;
    if (out->tiers > ps->tray_tiers)
        out->tiers = ps->tray_tiers;
    out->capacity_mm2 = tier * out->tiers;
    out->fill = out->capacity_mm2 > 0 ? round(out->area_mm2 / out->capacity_mm2 * 10000) / 10000 : 0;
    out->over = out->fill > 1;
    return FP_OK;
}

int64_t fp__plan_net_ports_used(const fp_plan *plan, int i, int t)
{
    return fp__net_ports_used(&plan->net_fab, &plan->nets, i, t);
}
