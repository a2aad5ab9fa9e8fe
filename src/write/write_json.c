/* fabplan — plan.json (cJSON). Key order is fixed so output is byte-identical for equal input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "write/writers.h"

/* Part reference as the spec would give it: the catalog id, or the inline object. */
static cJSON *part_ref(const fp_part *p)
{
    if (strncmp(p->id, "custom-", 7) != 0)
        return cJSON_CreateString(p->id);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ports", p->ports);
    cJSON_AddNumberToObject(o, "port_gbps", p->port_gbps);
    if (p->type == FP_PART_SWITCH) {
        cJSON *br = cJSON_AddArrayToObject(o, "breakouts");
        for (int i = 0; i < FP_MAX_BREAKOUTS && p->breakouts[i]; i++)
            cJSON_AddItemToArray(br, cJSON_CreateNumber(p->breakouts[i]));
    }
    return o;
}

/* The resolved spec with the tier count the fabric stage chose. */
static cJSON *resolved_spec(const fp_rspec *rs, int tiers)
{
    cJSON *s = cJSON_CreateObject(), *c, *f, *sw, *os;
    cJSON_AddStringToObject(s, "name", rs->name);
    c = cJSON_AddObjectToObject(s, "cluster");
    cJSON_AddNumberToObject(c, "gpus", (double)rs->gpus);
    cJSON_AddNumberToObject(c, "gpus_per_server", rs->gpus_per_server);
    cJSON_AddNumberToObject(c, "nics_per_server", rs->nics_per_server);
    cJSON_AddItemToObject(c, "nic", part_ref(&rs->nic));
    if (rs->nvlink_servers > 1)     /* only when given: every other plan.json as before */
        cJSON_AddNumberToObject(c, "nvlink_domain_servers", rs->nvlink_servers);
    f = cJSON_AddObjectToObject(s, "fabric");
    cJSON_AddStringToObject(f, "topology", fp_topology_name(rs->topology));
    cJSON_AddNumberToObject(f, "tiers", tiers);
    sw = cJSON_AddArrayToObject(f, "switch");
    for (int t = 0; t < tiers; t++)
        cJSON_AddItemToArray(sw, part_ref(&rs->tier[t].model));
    os = cJSON_AddArrayToObject(f, "oversubscription");
    for (int t = 0; t < tiers - 1; t++)
        cJSON_AddItemToArray(os, cJSON_CreateNumber(rs->oversub[t]));
    cJSON *lg = cJSON_AddArrayToObject(f, "link_gbps");
    for (int b = 0; b < tiers; b++)
        cJSON_AddItemToArray(lg, cJSON_CreateNumber(rs->gbps[b]));
    cJSON_AddNumberToObject(f, "su_servers", rs->su_servers);
    cJSON_AddNumberToObject(f, "planes", rs->planes);
    cJSON_AddNumberToObject(f, "reserve", rs->reserve);
    return s;
}

/* plan.json "growth": what adding the rest of fabric.build_for_gpus takes (only when set). */
static void add_growth(cJSON *root, const fp_plan *plan)
{
    static const char *const roles[] = { "leaf", "spine", "core", "super-core" };
    fp_growth g;
    char b[32];
    if (!fp_plan_growth(plan, &g))
        return;
    cJSON *o = cJSON_AddObjectToObject(root, "growth"), *t;
    cJSON_AddNumberToObject(o, "gpus_now", (double)g.gpus_now);
    cJSON_AddNumberToObject(o, "gpus_target", (double)g.gpus_target);
    cJSON_AddNumberToObject(o, "servers", (double)g.servers);
    cJSON_AddNumberToObject(o, "switches", (double)g.switches);
    t = cJSON_AddObjectToObject(o, "switches_by_tier");
    for (size_t i = 0; i < fp_plan_tier_count(plan) && i < 4; i++)
        cJSON_AddNumberToObject(t, roles[i], (double)g.switches_by_tier[i]);
    cJSON_AddNumberToObject(o, "links", (double)g.links);
    t = cJSON_AddObjectToObject(o, "links_by_boundary");
    for (size_t i = 0; i < fp_plan_tier_count(plan) && i < 4; i++)
        cJSON_AddNumberToObject(t, fp__boundary_name((int)i, b, sizeof b),
                                (double)g.links_by_boundary[i]);
    cJSON_AddNumberToObject(o, "cables", (double)g.cables);
    t = cJSON_AddObjectToObject(o, "cables_by_medium");
    for (int m = 0; m < fp__plan_media_shown(plan); m++)
        cJSON_AddNumberToObject(t, fp_medium_name((fp_medium)m), (double)g.cables_by_medium[m]);
    cJSON_AddNumberToObject(o, "transceivers", (double)g.transceivers);
    cJSON_AddNumberToObject(o, "cost_usd", round(g.cost_usd * 100) / 100);
    cJSON_AddNumberToObject(o, "power_w", round(g.power_w * 100) / 100);
}

/* With labels.csv written (labels >= 0, its style) and lines of it cut: "labels_cut", the count
 * of lines that lose part of a port name and the cables they are on (docs/outputs.md). */
static void add_labels_cut(cJSON *root, const fp_plan *plan, int labels)
{
    size_t n_cables = 0, lines;
    if (labels < 0 ||
        (lines = fp_plan_label_cuts(plan, (fp_label_style)labels, &n_cables, NULL, 0)) == 0)
        return;
    char (*ids)[16] = malloc(n_cables * sizeof *ids);
    if (ids == NULL)
        return;
    fp_plan_label_cuts(plan, (fp_label_style)labels, NULL, ids, n_cables);
    cJSON *o = cJSON_AddObjectToObject(root, "labels_cut");
    cJSON_AddStringToObject(o, "style", labels == FP_LABELS_TIA606 ? "tia606" : "plain");
    cJSON_AddNumberToObject(o, "lines", (double)lines);
    cJSON_AddNumberToObject(o, "cable_count", (double)n_cables);
    cJSON *arr = cJSON_AddArrayToObject(o, "cables");
    for (size_t i = 0; i < n_cables; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(ids[i]));
    free(ids);
}

static cJSON *plan_json(const fp_plan *plan, const fp_failure_report *failure, int labels)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    fp_summary sm;
    cJSON *root = cJSON_CreateObject(), *o, *arr;
    if (root == NULL)
        return NULL;
    cJSON_AddStringToObject(root, "fabplan_version", FP_VERSION);
    cJSON_AddItemToObject(root, "spec", resolved_spec(rs, (int)fp_plan_tier_count(plan)));

    fp_plan_summary(plan, &sm);
    o = cJSON_AddObjectToObject(root, "summary");
    cJSON_AddNumberToObject(o, "gpus", (double)sm.gpus);
    cJSON_AddNumberToObject(o, "servers", (double)sm.servers);
    cJSON_AddNumberToObject(o, "endpoints", (double)sm.endpoints);
    cJSON_AddStringToObject(o, "topology", fp_topology_name(sm.topology));
    cJSON_AddNumberToObject(o, "tiers", sm.tiers);
    cJSON_AddNumberToObject(o, "planes", sm.planes);
    cJSON_AddNumberToObject(o, "switches", (double)sm.switches);
    cJSON_AddNumberToObject(o, "links", (double)sm.links);
    cJSON_AddNumberToObject(o, "capacity_gpus", (double)sm.capacity_gpus);
    cJSON_AddStringToObject(o, "tier_choice", sm.tier_choice);
    cJSON_AddNumberToObject(o, "spare_servers", (double)sm.spare_servers);
    if (rs->topology == FP_TOPO_RAIL) {
        cJSON_AddNumberToObject(o, "scalable_units", (double)fab->su_count);
        cJSON_AddNumberToObject(o, "leaves_per_su", fab->leaves_per_su);
    }
    if (fab->tiers >= 3)
        cJSON_AddNumberToObject(o, "pods", (double)fab->level[2].blocks);

    arr = cJSON_AddArrayToObject(root, "tiers");
    for (size_t i = 0; i < fp_plan_tier_count(plan); i++) {
        fp_tier_info ti;
        fp_plan_tier(plan, i, &ti, NULL);
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "tier", ti.tier);
        cJSON_AddStringToObject(t, "role", ti.role);
        cJSON_AddStringToObject(t, "model", ti.model);
        cJSON_AddNumberToObject(t, "switches", (double)ti.switches);
        cJSON_AddNumberToObject(t, "ports_per_switch", ti.ports_per_switch);
        cJSON_AddNumberToObject(t, "port_gbps", ti.port_gbps);
        cJSON_AddNumberToObject(t, "breakout", rs->tier[i].breakout);
        if (ti.up_gbps > 0) {
            cJSON_AddNumberToObject(t, "up_gbps", ti.up_gbps);
            cJSON_AddNumberToObject(t, "breakout_up", rs->tier[i].breakout_up);
        }
        cJSON_AddNumberToObject(t, "down_ports", ti.down_ports);
        cJSON_AddNumberToObject(t, "up_ports", ti.up_ports);
        cJSON_AddNumberToObject(t, "ports_used", (double)ti.ports_used);
        cJSON_AddNumberToObject(t, "ports_spare", (double)ti.ports_spare);
        cJSON_AddNumberToObject(t, "oversubscription", ti.oversubscription);
        cJSON_AddNumberToObject(t, "links_up", (double)ti.links_up);
        cJSON_AddNumberToObject(t, "switches_min", (double)ti.switches_min);
        cJSON_AddItemToArray(arr, t);
    }
    arr = cJSON_AddArrayToObject(root, "links_by_boundary");
    for (int b = 0; b < fab->tiers; b++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "from_tier", b);
        cJSON_AddNumberToObject(t, "to_tier", b + 1);
        int64_t links = 0;
        fp_plan_boundary_links(plan, b, &links, NULL);     /* b < tiers: cannot fail */
        cJSON_AddNumberToObject(t, "links", (double)links);
        cJSON_AddNumberToObject(t, "gbps", rs->gbps[b]);
        cJSON_AddItemToArray(arr, t);
    }
    fp__json_add_physical(root, plan);
    fp__metrics_json(plan, failure, root);
    fp__json_add_networks(root, plan, failure);
    arr = cJSON_AddArrayToObject(root, "notes");
    for (size_t i = 0; i < fp_plan_note_count(plan); i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(fp_plan_note(plan, i)));
    add_growth(root, plan);
    add_labels_cut(root, plan, labels);
    return root;
}

fp_status fp_plan_to_json(const fp_plan *plan, char **out, fp_error *err)
{
    fp_status rc = fp__plan_need(plan, FP_STAGE_ALL, "fp_plan_to_json", err);
    if (rc != FP_OK)
        return rc;
    if (out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_to_json: out is NULL");
    return fp__plan_json_text(plan, NULL, -1, out, err);
}

fp_status fp__plan_json_text(const fp_plan *plan, const fp_failure_report *failure, int labels,
                             char **out, fp_error *err)
{
    cJSON *root = plan_json(plan, failure, labels);
    char *s = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (s == NULL)
        FP_FAIL(err, FP_ENOMEM, "plan.json", "out of memory writing plan.json");
    *out = malloc(strlen(s) + 2);
    if (*out == NULL) {
        cJSON_free(s);
        FP_FAIL(err, FP_ENOMEM, "plan.json", "out of memory writing plan.json");
    }
    sprintf(*out, "%s\n", s);
    cJSON_free(s);
    return FP_OK;
}

fp_status fp__write_json(const fp_plan *plan, const char *path, const fp_failure_report *failure,
                         int labels, fp_error *err)
{
    char *text = NULL;
    fp_status rc = fp__plan_json_text(plan, failure, labels, &text, err);
    if (rc != FP_OK)
        return rc;
    FILE *f = fp__create(path, err);
    if (f == NULL) {
        free(text);
        return FP_EIO;
    }
    fwrite(text, 1, strlen(text), f);
    free(text);
    return fp__close_written(f, path, err);
}
