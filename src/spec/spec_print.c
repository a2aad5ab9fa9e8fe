/* fabplan — the resolved spec as JSON (fp_spec_resolved_json): every key the spec may give,
 * with the value the plan uses, so that the text planned again gives the same plan. */
#include <stdlib.h>
#include <string.h>
#include "spec/json_read.h"
#include "spec/networks.h"
#include "fabplan.h"

/* The member as given (a copy), or NULL. */
static cJSON *given(const cJSON *root, const char *section, const char *key)
{
    const cJSON *sec = section ? cJSON_GetObjectItemCaseSensitive(root, section) : root;
    const cJSON *v = cJSON_IsObject(sec) ? cJSON_GetObjectItemCaseSensitive(sec, key) : NULL;
    return v ? cJSON_Duplicate(v, 1) : NULL;
}

static void add(cJSON *o, const char *key, cJSON *v)
{
    cJSON_AddItemToObject(o, key, v);
}

static cJSON *num(double v)
{
    return cJSON_CreateNumber(v);
}

static cJSON *str(const char *s)
{
    return cJSON_CreateString(s);
}

/* A count the planner chooses when 0: "auto", else the number. */
static cJSON *count_or_auto(int64_t v)
{
    return v > 0 ? num((double)v) : str("auto");
}

static cJSON *or_default(cJSON *v, cJSON *def)
{
    if (v != NULL) {
        cJSON_Delete(def);
        return v;
    }
    return def;
}

static void cluster(cJSON *s, const cJSON *root, const fp_rspec *rs)
{
    cJSON *c = cJSON_AddObjectToObject(s, "cluster");
    add(c, "gpus", num((double)rs->gpus));
    add(c, "gpus_per_server", num(rs->gpus_per_server));
    add(c, "nics_per_server", num(rs->nics_per_server));
    add(c, "nvlink_domain_servers", num(rs->nvlink_servers));
    add(c, "nic", or_default(given(root, "cluster", "nic"), str(rs->nic.id)));
    add(c, "server_names", or_default(given(root, "cluster", "server_names"),
                                      str(rs->server_names.source)));
}

static void fabric(cJSON *s, const cJSON *root, const fp_rspec *rs)
{
    cJSON *f = cJSON_AddObjectToObject(s, "fabric");
    add(f, "topology", str(fp_topology_name(rs->topology)));
    /* a fat-tree's 3 tiers come from the topology: "auto" keeps the plan's reason */
    add(f, "tiers", rs->tiers_auto || rs->tiers_by_topology ? str("auto") : num(rs->tiers_given));
    add(f, "switch", or_default(given(root, "fabric", "switch"), str(rs->tier[0].model.id)));
    add(f, "oversubscription", or_default(given(root, "fabric", "oversubscription"), num(1)));
    add(f, "link_gbps", or_default(given(root, "fabric", "link_gbps"), num(rs->nic.port_gbps)));
    add(f, "su_servers", rs->su_auto ? str("auto") : num(rs->su_servers));
    add(f, "planes", num(rs->planes));
    add(f, "reserve", num(rs->reserve));
    add(f, "spread", str(rs->spread == FP_SPREAD_BALANCED ? "balanced" : "even"));
    add(f, "min_top_switches", num(rs->min_top));
    add(f, "rail_leaves", str(rs->rail_shared ? "shared" : "aligned"));
    add(f, "uplinks_per_leaf", count_or_auto(rs->leaf_up));
    add(f, "build_for_gpus", num((double)rs->build_for_gpus));
    add(f, "leaf_servers", count_or_auto(rs->block_servers[1]));
    add(f, "pod_servers", count_or_auto(rs->block_servers[2]));
    add(f, "zone_servers", count_or_auto(rs->block_servers[3]));
}

static void layout(cJSON *s, const fp_phys_spec *ps)
{
    static const char *const leaf[] = { "middle", "end", "top-of-rack" };
    cJSON *l = cJSON_AddObjectToObject(s, "layout");
    add(l, "rack_units", num(ps->rack_units));
    add(l, "rack_width_m", num(ps->rack_width_m));
    add(l, "rack_depth_m", num(ps->rack_depth_m));
    add(l, "aisle_m", num(ps->aisle_m));
    add(l, "servers_per_rack", num(ps->servers_per_rack));
    add(l, "server_ru", num(ps->server_ru));
    add(l, "server_power_w", num(ps->server_power_w));
    add(l, "racks_per_row", num(ps->racks_per_row));
    add(l, "halls", count_or_auto(ps->halls));
    add(l, "hall_gap_m", num(ps->hall_gap_m));
    add(l, "leaf_racks", str(leaf[ps->leaf_place]));
    add(l, "spine_racks", str(ps->spine_place == FP_SPINE_CENTRAL ? "central" : "pod"));
    add(l, "max_switches_per_rack", num(ps->max_switches_per_rack));
    add(l, "max_cords_per_rack", num(ps->max_cords_per_rack));
    add(l, "spine_rack_max_share", num(ps->spine_rack_share));
    add(l, "network_rack_width_m", num(ps->network_rack_width_m));
    add(l, "cross_aisle_m", num(ps->cross_aisle_m));
    add(l, "rows_per_line", num(ps->rows_per_line));
    add(l, "rack_power_limit_w", num(ps->rack_power_limit_w));
    add(l, "row_power_limit_w", num(ps->row_power_limit_w));
    add(l, "hall_power_limit_w", num(ps->hall_power_limit_w));
    add(l, "cabling", str(ps->structured ? "structured" : "direct"));
    add(l, "extra_mated_pairs", num(ps->extra_mated_pairs));
    add(l, "tray_width_mm", num(ps->tray_width_mm));
    add(l, "tray_depth_mm", num(ps->tray_depth_mm));
    add(l, "tray_fill_max", num(ps->tray_fill_max));
    add(l, "tray_tiers", num(ps->tray_tiers));
    add(l, "spare_servers", num(ps->spare_servers));
    add(l, "tray_height_m", num(ps->tray_height_m));
    add(l, "service_loop_m", num(ps->service_loop_m));
    add(l, "slack_percent", num(ps->slack_pct));
    cJSON *fx = cJSON_AddArrayToObject(l, "rack_fixtures");
    for (int i = 0; i < ps->n_fixtures; i++) {
        const fp_fixture *f = &ps->fixtures[i];
        cJSON *o = cJSON_CreateObject();
        add(o, "name", str(f->name));
        add(o, "u", num(f->u));
        add(o, "count", num(f->count));
        add(o, "ru", num(f->ru));
        add(o, "power_w", num(f->power_w));
        cJSON_AddItemToArray(fx, o);
    }
}

/* media: each boundary's allowed media, by name; bom: the spares. */
static void media_bom(cJSON *s, const fp_phys_spec *ps)
{
    static const char *const boundary[] = { "nic-leaf", "leaf-spine", "spine-core",
                                            "core-super-core" };
    static const char *const spare[] = { "switch", "nic", "transceiver", "copper", "fibre" };
    cJSON *m = cJSON_AddObjectToObject(s, "media");
    for (int b = 0; b < FP_MAX_TIERS; b++) {
        cJSON *list = cJSON_AddArrayToObject(m, boundary[b]);
        for (int k = 0; k < FP_MEDIUM_COUNT; k++)
            if (ps->media_allowed[b] & (1u << k))
                cJSON_AddItemToArray(list, str(fp_medium_name((fp_medium)k)));
    }
    cJSON *sp = cJSON_AddObjectToObject(cJSON_AddObjectToObject(s, "bom"), "spares");
    for (int i = 0; i < 5; i++)
        add(sp, spare[i], num(ps->spares[i]));
}

/* The member of the entry as given (a copy), else def. */
static cJSON *entry_or(const cJSON *n, const char *key, cJSON *def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(n, key);
    return or_default(v ? cJSON_Duplicate(v, 1) : NULL, def);
}

/* One entry of `networks` with every default it takes, as the fabric stage resolved it (ns),
 * in the order docs/spec.md lists the keys. What is given is kept as given (parts, the count
 * "switches", "auto"); what the planner chooses reads "auto" (tiers, hosts_per_leaf,
 * servers_per_leaf, uplinks_per_leaf). Left out: nic when the hosts use on-board ports (no NIC
 * part), uplink_to when not given, and beside uplink_to the keys it forbids (tiers, spread,
 * min_top_switches); mlag_peer_links when its default was dropped (the plan's note says why:
 * given, it would be an error). */
static cJSON *network_entry(const cJSON *n, const fp_net_spec *ns)
{
    const fp_rspec *rs = &ns->rs;
    const int attached = cJSON_GetObjectItemCaseSensitive(n, "uplink_to") != NULL;
    cJSON *o = cJSON_CreateObject();
    add(o, "name", str(ns->name));
    add(o, "role", str(fp__net_role_name(ns->role)));
    add(o, "ports_per_server", num(ns->ports));
    add(o, "port_gbps", entry_or(n, "port_gbps", num(rs->link_gbps)));
    if (cJSON_GetObjectItemCaseSensitive(n, "nic") != NULL)
        add(o, "nic", entry_or(n, "nic", NULL));
    cJSON_AddBoolToObject(o, "dual_homed", ns->dual_homed);
    if (ns->note[0] == '\0')
        add(o, "mlag_peer_links", num(ns->peer_links));
    add(o, "hosts_per_leaf", entry_or(n, "hosts_per_leaf", str("auto")));
    add(o, "servers_per_leaf", entry_or(n, "servers_per_leaf", str("auto")));
    add(o, "switch", entry_or(n, "switch", NULL));
    if (!attached) {
        add(o, "tiers", entry_or(n, "tiers", str("auto")));
        add(o, "spread", str(rs->spread == FP_SPREAD_BALANCED ? "balanced" : "even"));
        add(o, "min_top_switches", num(rs->min_top));
    }
    add(o, "oversubscription", entry_or(n, "oversubscription", num(1)));
    add(o, "reserve", entry_or(n, "reserve", num(0)));
    add(o, "uplinks_per_leaf", entry_or(n, "uplinks_per_leaf", str("auto")));
    if (attached)
        add(o, "uplink_to", entry_or(n, "uplink_to", NULL));
    cJSON *xs = cJSON_AddArrayToObject(o, "extra_endpoints");
    const cJSON *given_xs = cJSON_GetObjectItemCaseSensitive(n, "extra_endpoints");
    for (int k = 0; k < ns->n_extra; k++) {
        const fp_net_extra *x = &ns->extra[k];
        cJSON *e = cJSON_CreateObject();
        add(e, "name", str(x->name));
        add(e, "count", entry_or(cJSON_GetArrayItem(given_xs, k), "count", num((double)x->count)));
        add(e, "ports", num(x->ports));
        add(e, "ru", num(x->ru));
        add(e, "power_w", num(x->power_w));
        cJSON_AddItemToArray(xs, e);
    }
    return o;
}

fp_status fp__spec_print(const fp_spec *spec, const fp_catalog *cat, const fp_nets *nets,
                         char **out, fp_error *err)
{
    *out = NULL;
    fp_spec *copy = NULL;
    fp_rspec rs;
    fp_status rc;
    if ((rc = fp__spec_copy(&copy, spec, err)) != FP_OK)
        return rc;
    if ((rc = fp_spec_inline_files(copy, err)) != FP_OK ||
        (rc = fp__spec_resolve(&rs, copy, cat, err)) != FP_OK) {
        fp_spec_free(copy);
        return rc;
    }
    const cJSON *root = fp__spec_root(copy);
    cJSON *s = cJSON_CreateObject();
    add(s, "name", str(rs.name));
    cluster(s, root, &rs);
    fabric(s, root, &rs);
    layout(s, &rs.phys);
    media_bom(s, &rs.phys);
    add(s, "overrides", or_default(given(root, NULL, "overrides"), cJSON_CreateArray()));
    const cJSON *given_nets = cJSON_GetObjectItemCaseSensitive(root, "networks");
    if (given_nets != NULL) {
        cJSON *arr = cJSON_AddArrayToObject(s, "networks");
        for (int i = 0; nets != NULL && i < nets->n; i++)
            cJSON_AddItemToArray(arr, network_entry(cJSON_GetArrayItem(given_nets, i), &nets->net[i]));
    }
    fp__phys_free(&rs.phys);
    fp_spec_free(copy);
    char *text = cJSON_Print(s);
    cJSON_Delete(s);
    if (text != NULL)
        *out = malloc(strlen(text) + 2);
    if (*out == NULL) {
        cJSON_free(text);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    }
    strcpy(*out, text);
    strcat(*out, "\n");
    cJSON_free(text);
    return FP_OK;
}
