/* fabplan — the resolved spec as JSON (fp_spec_resolved_json): every key the spec may give,
 * with the value the plan uses, so that the text planned again gives the same plan. */
#include <stdlib.h>
#include <string.h>
#include "spec/json_read.h"
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

fp_status fp_spec_resolved_json(const fp_spec *spec, const fp_catalog *cat, char **out,
                                fp_error *err)
{
    if (spec == NULL || cat == NULL || out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_resolved_json: %s is NULL",
                spec == NULL ? "spec" : cat == NULL ? "cat" : "out");
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
    cJSON *nets = given(root, NULL, "networks");
    if (nets != NULL)
        add(s, "networks", nets);
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
