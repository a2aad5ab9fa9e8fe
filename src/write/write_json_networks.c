/* fabplan — plan.json: the cluster's other networks (spec `networks`), one section each, and the
 * whole cluster's totals. Without the spec section nothing is written, so such plans stay as
 * they were. */
#include <cjson/cJSON.h>
#include "write/writers.h"

/* Racks that gain the networks' devices: what they add, and the rack's units and power with
 * them as fp_plan_rack gives them (the one figure every document reads). */
static void placement(cJSON *root, const fp_plan *plan)
{
    const fp_net_place *pl = fp__plan_net_place(plan);
    const fp_racks *rk = fp__plan_racks(plan);
    cJSON *o = cJSON_AddObjectToObject(root, "network_placement"), *arr;
    cJSON_AddNumberToObject(o, "management_racks", (double)pl->mgmt_racks);
    int64_t gaining = 0;
    for (int64_t k = 0; k < pl->n_add; k++)
        gaining += pl->add[k].rack < rk->n_layout && pl->add[k].devices > 0;
    cJSON_AddNumberToObject(o, "compute_racks_gaining_devices", (double)gaining);
    cJSON_AddNumberToObject(o, "compute_racks_over_rack_units", (double)pl->over_ru);
    cJSON_AddNumberToObject(o, "compute_racks_over_power_limit", (double)rk->over_power);
    arr = cJSON_AddArrayToObject(o, "racks");
    for (int64_t k = 0; k < pl->n_add; k++) {
        const fp_rack_add *a = &pl->add[k];
        fp_rack_info r;
        cJSON *x = cJSON_CreateObject();
        fp_plan_rack(plan, (size_t)a->rack, &r, NULL);
        cJSON_AddStringToObject(x, "rack", r.name);
        cJSON_AddNumberToObject(x, "devices_added", (double)a->devices);
        cJSON_AddNumberToObject(x, "rack_units_added", (double)a->ru);
        cJSON_AddNumberToObject(x, "power_added_w", rk->net_power_w[a->rack]);
        cJSON_AddNumberToObject(x, "rack_units_used", r.units_used);
        cJSON_AddNumberToObject(x, "power_w", r.power_w);
        cJSON_AddNumberToObject(x, "rack_units", r.units);
        cJSON_AddItemToArray(arr, x);
    }
}

/* What the network is: name, role, its hosts and their ports, the extra endpoints. */
static void net_identity(cJSON *o, const fp_net_spec *ns)
{
    const fp_rspec *rs = &ns->rs;
    cJSON_AddStringToObject(o, "name", ns->name);
    cJSON_AddStringToObject(o, "role", fp__net_role_name(ns->role));
    cJSON_AddNumberToObject(o, "servers", (double)ns->servers);
    cJSON_AddNumberToObject(o, "ports_per_server", ns->ports);
    cJSON_AddNumberToObject(o, "port_gbps", rs->link_gbps);
    cJSON_AddStringToObject(o, "nic", rs->nic.id);
    cJSON_AddBoolToObject(o, "dual_homed", ns->dual_homed);
    cJSON_AddNumberToObject(o, "endpoint_hosts", (double)ns->hosts);
    cJSON *a = cJSON_AddArrayToObject(o, "extra_endpoints");
    for (int k = 0; k < ns->n_extra; k++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", ns->extra[k].name);
        cJSON_AddNumberToObject(x, "count", (double)ns->extra[k].count);
        cJSON_AddNumberToObject(x, "ports", ns->extra[k].ports);
        cJSON_AddNumberToObject(x, "ru", ns->extra[k].ru);
        cJSON_AddItemToArray(a, x);
    }
}

/* Its shape: topology, tier choice, tiers, links by boundary (the MLAG peer links as their own
 * boundary) and the peer links per pair. */
static void net_shape(cJSON *o, const fp_plan *plan, int i)
{
    const fp_net_spec *ns = fp__plan_net(plan, i);
    const fp_fabric *fab = fp__plan_net_fabric(plan, i);
    const fp_rspec *rs = &ns->rs;
    char bn[32];
    cJSON_AddStringToObject(o, "topology", ns->dual_homed ? "mlag-pairs" : "clos");
    cJSON_AddStringToObject(o, "tier_choice", fab->tier_choice);
    if (ns->uplink_to >= 0)
        cJSON_AddStringToObject(o, "uplink_to", fp__plan_net(plan, ns->uplink_to)->name);
    cJSON *a = cJSON_AddArrayToObject(o, "tiers");
    for (int t = 1; t <= fab->tiers; t++) {
        const fp_tier_spec *ts = &rs->tier[t - 1];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "tier", t);
        cJSON_AddStringToObject(x, "role", fp__tier_role(t));
        cJSON_AddStringToObject(x, "model", ts->model.id);
        cJSON_AddNumberToObject(x, "switches", (double)fp__tier_own_switches(fab, t));
        cJSON_AddNumberToObject(x, "down_ports", fab->size[t - 1].down);
        cJSON_AddNumberToObject(x, "up_ports", fab->size[t - 1].up);
        cJSON_AddNumberToObject(x, "ports_used", (double)fp__plan_net_ports_used(plan, i, t));
        cJSON_AddItemToArray(a, x);
    }
    a = cJSON_AddArrayToObject(o, "links_by_boundary");
    for (int t = 0; t < fab->tiers; t++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "boundary", fp__boundary_name(t, bn, sizeof bn));
        cJSON_AddNumberToObject(x, "links", (double)(fab->boundary_base[t + 1] - fab->boundary_base[t]));
        cJSON_AddItemToArray(a, x);
    }
    if (fp__net_peer_links(fab) > 0) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "boundary", "mlag-peer");
        cJSON_AddNumberToObject(x, "links", (double)fp__net_peer_links(fab));
        cJSON_AddItemToArray(a, x);
    }
    cJSON_AddNumberToObject(o, "mlag_peer_links_per_pair", ns->dual_homed ? ns->peer_links : 0);
    if (ns->note[0])
        cJSON_AddStringToObject(o, "note", ns->note);
}

/* metrics: host bandwidth, leaf ratio, bisection, reliability, and the MLAG pairs' check. */
static void net_metrics(cJSON *o, const fp_net_spec *ns, const fp_fabric *fab, const fp_net_bom *b)
{
    const fp_rspec *rs = &ns->rs;
    int64_t unknown = 0, paired = 0, survive = 0;
    fp_reliability rel;
    cJSON *m = cJSON_AddObjectToObject(o, "metrics");
    cJSON_AddNumberToObject(m, "host_gbps", (double)ns->ports * rs->link_gbps);
    if (fab->tiers >= 1 && fab->size[0].up > 0)
        cJSON_AddNumberToObject(m, "leaf_oversubscription",
                                (double)fab->size[0].down * rs->tier[0].gbps_down /
                                    ((double)fab->size[0].up * rs->tier[0].gbps_up));
    cJSON_AddNumberToObject(m, "bisection_gbps", fp__net_bisection_gbps(fab, rs));
    cJSON_AddNumberToObject(m, "switch_failures_per_day",
                            fp__net_switch_failures_per_day(fab, rs, &unknown));
    cJSON_AddNumberToObject(m, "switches_without_mtbf", (double)unknown);
    fp__net_reliability(b, &rel);
    fp__json_reliability(m, &rel);
    if (ns->dual_homed) {
        fp__net_dual_check(fab, ns, &paired, &survive);
        cJSON_AddNumberToObject(m, "hosts_on_mlag_pairs", (double)paired);
        cJSON_AddNumberToObject(m, "hosts_connected_after_any_one_leaf_fails", (double)survive);
    }
}

/* Where its devices stand (compute or management racks), and the what-if with --fail. */
static void net_place_fail(cJSON *o, const fp_plan *plan, int i, const fp_failure_report *failure)
{
    const fp_net_spec *ns = fp__plan_net(plan, i);
    const fp_fabric *fab = fp__plan_net_fabric(plan, i);
    const fp_net_place *pl = fp__plan_net_place(plan);
    const int64_t R = fp__plan_layout(plan)->n_rack;
    int64_t in_c = 0, in_m = 0;
    for (int64_t d = ns->servers; d < fab->n_dev; d++) {
        if (fp__net_is_alias(fab, d))
            continue;           /* another network's device, counted there */
        in_c += pl->dev_rack[i][d] >= 0 && pl->dev_rack[i][d] < R;
        in_m += pl->dev_rack[i][d] >= R;
    }
    cJSON *x = cJSON_AddObjectToObject(o, "placement");
    cJSON_AddNumberToObject(x, "devices_in_compute_racks", (double)in_c);
    cJSON_AddNumberToObject(x, "devices_in_management_racks", (double)in_m);
    fp_network_failure nfail;
    if (failure != NULL && fp_plan_fail_network(&nfail, plan, (size_t)i, failure, NULL) == FP_OK) {
        x = cJSON_AddObjectToObject(o, "failure");
        cJSON_AddNumberToObject(x, "switches_failed", (double)nfail.switches_failed);
        cJSON_AddNumberToObject(x, "links_failed", (double)nfail.links_failed);
        cJSON_AddNumberToObject(x, "bisection_before_gbps", nfail.bisection_before_gbps);
        cJSON_AddNumberToObject(x, "bisection_after_gbps", nfail.bisection_after_gbps);
        cJSON_AddNumberToObject(x, "hosts_cut_off", (double)nfail.hosts_cut_off);
        cJSON_AddNumberToObject(x, "servers_cut_off", (double)nfail.servers_cut_off);
    }
}

/* Its bill of materials: the lines and their totals (cables of the first `shown` media,
 * fp__plan_media_shown). */
static void net_bom(cJSON *o, const fp_net_bom *b, int shown)
{
    cJSON *bo = cJSON_AddObjectToObject(o, "bom");
    cJSON *a = cJSON_AddArrayToObject(bo, "lines");
    for (int k = 0; k < b->n; k++) {
        const fp_net_bom_line *l = &b->line[k];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "category", l->category);
        cJSON_AddStringToObject(x, "part", l->part);
        cJSON_AddStringToObject(x, "description", l->desc);
        cJSON_AddNumberToObject(x, "quantity", (double)l->qty);
        cJSON_AddNumberToObject(x, "unit_usd", l->unit_usd);
        cJSON_AddNumberToObject(x, "extended_usd", l->ext_usd);
        cJSON_AddNumberToObject(x, "power_w", l->ext_w);
        cJSON_AddNumberToObject(x, "rack_units", (double)l->ru);
        if (l->length_m > 0)
            cJSON_AddNumberToObject(x, "length_m", l->length_m);
        cJSON_AddBoolToObject(x, "spare", l->spare);
        cJSON_AddItemToArray(a, x);
    }
    cJSON_AddNumberToObject(bo, "cost_usd", b->cost);
    cJSON_AddNumberToObject(bo, "power_w", b->power_w);
    cJSON_AddNumberToObject(bo, "endpoint_power_w", b->endpoint_power_w);
    cJSON_AddNumberToObject(bo, "switches", (double)b->switches);
    cJSON_AddNumberToObject(bo, "cables", (double)b->cables);
    cJSON_AddNumberToObject(bo, "transceivers", (double)b->transceivers);
    cJSON *bm = cJSON_AddObjectToObject(bo, "cables_by_medium");
    for (int k = 0; k < shown; k++)
        cJSON_AddNumberToObject(bm, fp_medium_name((fp_medium)k), (double)b->cables_by_medium[k]);
    cJSON_AddNumberToObject(bo, "rack_units", (double)b->ru);
}

void fp__json_add_networks(cJSON *root, const fp_plan *plan, const fp_failure_report *failure)
{
    int n = fp__plan_net_count(plan);
    if (n == 0)
        return;
    const fp_bom *cb = fp__plan_bom(plan);
    const fp_fabric *cf = fp__plan_fabric(plan);
    double cost = cb->totals.cost, power = cb->totals.power_w;
    int64_t switches = cf->n_dev - cf->servers, cables = cb->totals.cables;
    cJSON *arr = cJSON_AddArrayToObject(root, "networks");
    for (int i = 0; i < n; i++) {
        const fp_net_spec *ns = fp__plan_net(plan, i);
        const fp_fabric *fab = fp__plan_net_fabric(plan, i);
        const fp_net_bom *b = fp__plan_net_bom(plan, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        net_identity(o, ns);
        net_shape(o, plan, i);
        net_metrics(o, ns, fab, b);
        net_place_fail(o, plan, i, failure);
        net_bom(o, b, fp__plan_media_shown(plan));
        cost += b->cost;
        power += b->power_w;
        switches += b->switches;
        cables += b->cables;
    }
    placement(root, plan);
    cJSON *t = cJSON_AddObjectToObject(root, "cluster_totals");
    cJSON_AddStringToObject(t, "note", "compute fabric (bom) plus every network's bom");
    cJSON_AddNumberToObject(t, "cost_usd", cost);
    cJSON_AddNumberToObject(t, "power_w", power);
    cJSON_AddNumberToObject(t, "switches", (double)switches);
    cJSON_AddNumberToObject(t, "cables", (double)cables);
}
