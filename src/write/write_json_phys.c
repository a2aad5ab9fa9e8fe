/* fabplan — the physical part of plan.json: layout, racks, media by boundary, BOM, totals. */
#include <math.h>
#include <cjson/cJSON.h>
#include "write/writers.h"

/* Power per domain: racks (the most any draws, how many are over their limit), rows, halls. */
static void power_json(cJSON *o, const fp_plan *plan, const fp_phys_spec *ps)
{
    int64_t over = 0;
    double max_w = 0;
    for (size_t i = 0; i < fp_plan_rack_count(plan); i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        over += r.over_limit;
        if (r.power_w > max_w)
            max_w = r.power_w;
    }
    cJSON_AddNumberToObject(o, "rack_power_limit_w", ps->rack_power_limit_w);
    cJSON_AddNumberToObject(o, "rack_power_max_w", max_w);
    cJSON_AddNumberToObject(o, "racks_over_limit", (double)over);
    fp_power_domains pd;
    fp_plan_power_domains(plan, &pd);
    cJSON_AddNumberToObject(o, "row_power_limit_w", pd.row_limit_w);
    cJSON_AddNumberToObject(o, "row_power_max_w", round(pd.row_max_w * 100) / 100);
    cJSON_AddNumberToObject(o, "rows_over_limit", (double)pd.rows_over);
    cJSON_AddNumberToObject(o, "hall_power_limit_w", pd.hall_limit_w);
    cJSON_AddNumberToObject(o, "hall_power_max_w", round(pd.hall_max_w * 100) / 100);
    cJSON_AddNumberToObject(o, "halls_over_limit", (double)pd.halls_over);
}

/* Overhead trays, one per row: flagged when over-full. */
static void trays_json(cJSON *o, const fp_plan *plan, const fp_phys_spec *ps)
{
    size_t nt = fp_plan_tray_count(plan);
    int64_t over_t = 0;
    double most = 0;
    cJSON *trays = cJSON_CreateArray();
    for (size_t i = 0; i < nt; i++) {
        fp_tray_info t;
        fp_plan_tray(plan, i, &t, NULL);
        over_t += t.over;
        if (t.fill > most)
            most = t.fill;
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "row", t.row);
        cJSON_AddNumberToObject(k, "cables", (double)t.cables);
        cJSON_AddNumberToObject(k, "area_mm2", t.area_mm2);
        cJSON_AddNumberToObject(k, "tiers", t.tiers);
        cJSON_AddNumberToObject(k, "fill", t.fill);
        cJSON_AddBoolToObject(k, "over_full", t.over);
        cJSON_AddItemToArray(trays, k);
    }
    cJSON_AddNumberToObject(o, "tray_capacity_mm2", ps->tray_width_mm * ps->tray_depth_mm * ps->tray_fill_max);
    cJSON_AddNumberToObject(o, "tray_tiers_max", ps->tray_tiers);
    cJSON_AddNumberToObject(o, "tray_fill_max", most);
    cJSON_AddNumberToObject(o, "trays_over_full", (double)over_t);
    cJSON_AddItemToObject(o, "trays", trays);
}

/* Every rack: where it stands, what it holds and draws, the cables leaving it. */
static void racks_json(cJSON *o, const fp_plan *plan, const fp_phys_spec *ps)
{
    cJSON *arr = cJSON_AddArrayToObject(o, "racks");
    for (size_t i = 0; i < fp_plan_rack_count(plan); i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", r.name);
        cJSON_AddStringToObject(k, "role", r.role);
        cJSON_AddNumberToObject(k, "x_m", r.x_m);
        cJSON_AddNumberToObject(k, "y_m", r.y_m);
        cJSON_AddNumberToObject(k, "units_used", r.units_used);
        cJSON_AddNumberToObject(k, "devices", (double)r.devices);
        if (ps->structured) {
            cJSON_AddNumberToObject(k, "panels", r.panels);
            cJSON_AddNumberToObject(k, "panel_u", r.panel_u);
        }
        cJSON_AddNumberToObject(k, "power_w", r.power_w);
        cJSON_AddBoolToObject(k, "over_limit", r.over_limit);
        cJSON_AddNumberToObject(k, "cables_leaving", (double)r.cables_leaving);
        cJSON_AddItemToArray(arr, k);
    }
}

static cJSON *layout_json(const fp_plan *plan)
{
    const fp_layout *lay = fp__plan_layout(plan);
    const fp_phys_spec *ps = &fp__plan_rspec(plan)->phys;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "halls", lay->halls);
    cJSON_AddNumberToObject(o, "rows", lay->rows);
    cJSON_AddNumberToObject(o, "rack_count", (double)lay->n_rack);
    cJSON_AddNumberToObject(o, "compute_racks", (double)lay->compute_racks);
    cJSON_AddNumberToObject(o, "network_racks", (double)lay->network_racks);
    cJSON_AddNumberToObject(o, "floor_width_m", lay->floor_w);
    cJSON_AddNumberToObject(o, "floor_depth_m", lay->floor_d);
    cJSON_AddNumberToObject(o, "servers_per_rack", ps->servers_per_rack);
    cJSON_AddNumberToObject(o, "spare_servers", (double)fp__plan_rspec(plan)->spare_servers);
    power_json(o, plan, ps);
    cJSON_AddStringToObject(o, "spine_racks", fp__plan_fabric(plan)->tiers < 3 ? "none"
                                              : ps->spine_place == FP_SPINE_POD ? "pod" : "central");
    trays_json(o, plan, ps);
    racks_json(o, plan, ps);
    return o;
}

void fp__json_add_physical(cJSON *root, const fp_plan *plan)
{
    const fp_cabling *cab = fp__plan_cabling(plan);
    char bn[32];
    fp_totals t;
    cJSON *arr;
    cJSON_AddItemToObject(root, "layout", layout_json(plan));
    arr = cJSON_AddArrayToObject(root, "media_by_boundary");
    for (int b = 0; b < fp__plan_fabric(plan)->tiers; b++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "boundary", fp__boundary_name(b, bn, sizeof bn));
        for (int m = 0; m < fp__plan_media_shown(plan); m++)
            cJSON_AddNumberToObject(o, fp_medium_name((fp_medium)m), (double)cab->by_medium[b][m]);
        cJSON_AddItemToArray(arr, o);
    }
    arr = cJSON_AddArrayToObject(root, "media_audit");
    for (int b = 0; b < fp__plan_fabric(plan)->tiers; b++) {
        /* the chosen media's cost, and for the links another medium also serves, what the
         * cheapest such alternative would cost (links by that medium) */
        fp_media_audit ma;
        cJSON *au = cJSON_CreateObject(), *am = cJSON_CreateObject();
        cJSON_AddStringToObject(au, "boundary", fp__boundary_name(b, bn, sizeof bn));
        if (fp_plan_media_audit(plan, b, &ma, NULL) == FP_OK) {
            cJSON_AddNumberToObject(au, "chosen_usd", round(ma.chosen_usd * 100) / 100);
            cJSON_AddNumberToObject(au, "links_with_alternative", (double)ma.links_with_alternative);
            cJSON_AddNumberToObject(au, "chosen_usd_of_those", round(ma.chosen_usd_of_those * 100) / 100);
            cJSON_AddNumberToObject(au, "alternative_usd", round(ma.alternative_usd * 100) / 100);
            for (int m = 0; m < FP_MEDIUM_COUNT; m++)
                if (ma.alternative_links[m] > 0)
                    cJSON_AddNumberToObject(am, fp_medium_name((fp_medium)m), (double)ma.alternative_links[m]);
        }
        cJSON_AddItemToObject(au, "alternative_media", am);
        cJSON_AddItemToArray(arr, au);
    }
    arr = cJSON_AddArrayToObject(root, "bom");
    for (size_t i = 0; i < fp_plan_bom_count(plan); i++) {
        fp_bom_line l;
        fp_plan_bom_line(plan, i, &l, NULL);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "part", l.part);
        cJSON_AddStringToObject(o, "category", l.category);
        cJSON_AddStringToObject(o, "description", l.description);
        if (l.length_m > 0)
            cJSON_AddNumberToObject(o, "length_m", l.length_m);
        if (l.spare)
            cJSON_AddBoolToObject(o, "spare", 1);
        cJSON_AddNumberToObject(o, "quantity", (double)l.quantity);
        cJSON_AddNumberToObject(o, "unit_cost", l.unit_cost);
        cJSON_AddNumberToObject(o, "cost", l.cost);
        cJSON_AddNumberToObject(o, "unit_power_w", l.unit_power_w);
        cJSON_AddNumberToObject(o, "power_w", l.power_w);
        cJSON_AddNumberToObject(o, "mtbf_hours", l.mtbf_hours);
        cJSON_AddItemToArray(arr, o);
    }
    fp_plan_net_totals(plan, 0, &t, NULL);     /* the compute fabric's BOM (network 0) */
    cJSON *o = cJSON_AddObjectToObject(root, "totals");
    cJSON_AddNumberToObject(o, "cost", t.cost);
    cJSON_AddNumberToObject(o, "power_w", t.power_w);
    cJSON_AddNumberToObject(o, "cost_per_gpu", t.cost_per_gpu);
    cJSON_AddNumberToObject(o, "power_w_per_gpu", t.power_w_per_gpu);
    cJSON_AddNumberToObject(o, "transceivers", (double)t.transceivers);
    cJSON_AddNumberToObject(o, "transceivers_per_gpu", t.transceivers_per_gpu);
    cJSON_AddNumberToObject(o, "cables", (double)t.cables);
    cJSON_AddNumberToObject(o, "unpriced_parts", (double)t.unpriced_parts);
    /* The plan's identity as cables.csv holds it, which `fabplan diff` checks. */
    uint64_t digest;
    int64_t cables;
    if (fp_plan_cable_digest(plan, &digest, &cables, NULL) == FP_OK) {
        char hex[FP_CABLE_DIGEST_TEXT];
        fp_cable_digest_text(digest, hex);
        cJSON *cl = cJSON_AddObjectToObject(root, "cable_list");
        cJSON_AddNumberToObject(cl, "cables", (double)cables);
        cJSON_AddStringToObject(cl, "digest", hex);
    }
    cJSON *w = cJSON_AddArrayToObject(root, "warnings");
    for (size_t i = 0; i < fp_plan_warning_count(plan); i++)
        cJSON_AddItemToArray(w, cJSON_CreateString(fp_plan_warning(plan, i)));
}
