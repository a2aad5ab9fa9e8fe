/* fabplan — the "metrics" and "failure" sections of plan.json (cJSON, fixed key order). */
#include <cjson/cJSON.h>
#include "write/writers.h"

/* A time that may be unknown (no MTBF in the catalog): null rather than 0. */
static void add_hours(cJSON *o, const char *key, double hours)
{
    if (hours > 0)
        cJSON_AddNumberToObject(o, key, hours);
    else
        cJSON_AddNullToObject(o, key);
}

void fp__json_reliability(cJSON *m, const fp_reliability *r)
{
    cJSON *o = cJSON_AddObjectToObject(m, "reliability");
    cJSON *d = cJSON_AddObjectToObject(o, "failures_per_day");
    cJSON_AddNumberToObject(d, "switches", r->switch_failures_per_day);
    cJSON_AddNumberToObject(d, "transceivers", r->transceiver_failures_per_day);
    cJSON_AddNumberToObject(d, "cables", r->cable_failures_per_day);
    cJSON_AddNumberToObject(d, "nics", r->nic_failures_per_day);
    cJSON_AddNumberToObject(d, "links", r->link_failures_per_day);
    add_hours(o, "hours_to_first_link_failure", r->hours_to_first_link_failure);
    add_hours(o, "hours_to_first_switch_failure", r->hours_to_first_switch_failure);
    cJSON_AddNumberToObject(o, "units_without_mtbf", (double)r->units_without_mtbf);
}

/* One figure per collective (reduce-scatter's equals all-gather's). */
static void per_collective(cJSON *r, const char *key, double all_reduce, double all_gather,
                           double all_to_all)
{
    cJSON *a = cJSON_AddObjectToObject(r, key);
    cJSON_AddNumberToObject(a, "all_reduce", all_reduce);
    cJSON_AddNumberToObject(a, "all_gather", all_gather);
    cJSON_AddNumberToObject(a, "reduce_scatter", all_gather);
    cJSON_AddNumberToObject(a, "all_to_all", all_to_all);
}

/* The "collectives" object (docs/outputs.md): NCCL's alpha terms used, then a row per scope. */
static void collectives_json(cJSON *parent, const fp_collectives *c)
{
    cJSON *o = cJSON_AddObjectToObject(parent, "collectives"), *arr, *m;
    m = cJSON_AddObjectToObject(o, "alpha_us");
    cJSON_AddNumberToObject(m, "ring_base", FP_NCCL_RING_BASE_US);
    cJSON_AddNumberToObject(m, "ring_nvlink_step", FP_NCCL_RING_NVLINK_US);
    cJSON_AddNumberToObject(m, "ring_net_step", FP_NCCL_RING_NET_US);
    cJSON_AddNumberToObject(m, "tree_base", FP_NCCL_TREE_BASE_US);
    cJSON_AddNumberToObject(m, "tree_nvlink_step", FP_NCCL_TREE_NVLINK_US);
    cJSON_AddNumberToObject(m, "tree_net_step", FP_NCCL_TREE_NET_US);
    arr = cJSON_AddArrayToObject(o, "scopes");
    for (int i = 0; i < c->n_scopes; i++) {
        const fp_collective_scope *s = &c->scope[i];
        cJSON *r = cJSON_CreateObject(), *a;
        cJSON_AddStringToObject(r, "scope", s->scope);
        cJSON_AddStringToObject(r, "block", s->block);
        cJSON_AddNumberToObject(r, "gpus", (double)s->gpus);
        cJSON_AddNumberToObject(r, "servers", (double)s->servers);
        cJSON_AddNumberToObject(r, "tiers_crossed", s->tiers_crossed);
        cJSON_AddNumberToObject(r, "nic_gbps_per_gpu", s->nic_gbps);
        a = cJSON_AddArrayToObject(r, "uplink_gbps_per_gpu");
        for (int t = 0; t < s->tiers_crossed; t++)
            cJSON_AddItemToArray(a, cJSON_CreateNumber(s->uplink_gbps[t]));
        cJSON_AddNumberToObject(r, "bisection_gbps_per_gpu", s->bisection_gbps);
        cJSON_AddNumberToObject(r, "gbps_per_gpu", s->gbps);
        per_collective(r, "busbw_gbyte_s", s->allreduce_busbw, s->allgather_busbw,
                       s->alltoall_busbw);
        per_collective(r, "algbw_gbyte_s", s->allreduce_algbw, s->allgather_algbw,
                       s->alltoall_algbw);
        a = cJSON_AddObjectToObject(r, "latency_us");
        cJSON_AddNumberToObject(a, "ring_all_reduce", s->ring_allreduce_us);
        cJSON_AddNumberToObject(a, "ring_all_gather", s->ring_allgather_us);
        cJSON_AddNumberToObject(a, "ring_reduce_scatter", s->ring_allgather_us);
        cJSON_AddNumberToObject(a, "tree_all_reduce", s->tree_allreduce_us);
        cJSON_AddItemToArray(arr, r);
    }
}

void fp__metrics_json(const fp_plan *plan, const fp_failure_report *f, cJSON *root)
{
    fp_collectives coll;
    const fp_metrics *mx = fp_plan_metrics(plan);
    cJSON *m = cJSON_AddObjectToObject(root, "metrics"), *arr, *o;
    cJSON_AddNumberToObject(m, "bisection_gbps", mx->bisection_gbps);
    cJSON_AddNumberToObject(m, "bisection_maxflow_gbps", mx->bisection_maxflow_gbps);
    cJSON_AddNumberToObject(m, "split_demand_gbps", mx->split_demand_gbps);
    cJSON_AddBoolToObject(m, "full_bisection", mx->full_bisection);
    cJSON_AddStringToObject(m, "split", mx->split);
    arr = cJSON_AddArrayToObject(m, "split_endpoints");
    cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)mx->split_endpoints[0]));
    cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)mx->split_endpoints[1]));
    arr = cJSON_AddArrayToObject(m, "oversubscription");
    for (int t = 0; t + 1 < mx->tiers; t++)
        cJSON_AddItemToArray(arr, cJSON_CreateNumber(mx->oversubscription[t]));
    cJSON_AddNumberToObject(m, "diameter_switches", mx->diameter_switches);
    cJSON_AddNumberToObject(m, "diameter_bfs_switches", mx->diameter_bfs_switches);
    cJSON_AddNumberToObject(m, "bfs_sources", mx->bfs_sources);
    o = cJSON_AddObjectToObject(m, "hops");
    cJSON_AddNumberToObject(o, "gpu_pairs", (double)mx->gpu_pairs);
    cJSON_AddNumberToObject(o, "sample_size", (double)mx->hop_sample);
    arr = cJSON_AddArrayToObject(o, "scopes");
    for (int i = 0; i < mx->n_hops; i++) {
        cJSON *h = cJSON_CreateObject();
        cJSON_AddStringToObject(h, "scope", mx->hops[i].scope);
        cJSON_AddNumberToObject(h, "switches", mx->hops[i].switches);
        cJSON_AddNumberToObject(h, "pairs", (double)mx->hops[i].pairs);
        cJSON_AddNumberToObject(h, "share", mx->hops[i].share);
        cJSON_AddItemToArray(arr, h);
    }
    fp__json_reliability(m, &mx->reliability);
    if (fp_plan_collectives(&coll, plan, NULL, NULL) == FP_OK)
        collectives_json(root, &coll);

    if (f == NULL)
        return;
    o = cJSON_AddObjectToObject(root, "failure");
    arr = cJSON_AddArrayToObject(o, "specs");
    for (int i = 0; i < f->n_specs; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(f->specs[i]));
    cJSON_AddNumberToObject(o, "seed", (double)f->seed);
    cJSON_AddNumberToObject(o, "switches_failed", (double)f->switches_failed);
    cJSON_AddNumberToObject(o, "links_failed", (double)f->links_failed);
    cJSON_AddNumberToObject(o, "link_capacity_lost_gbps", f->link_capacity_lost_gbps);
    cJSON_AddNumberToObject(o, "bisection_before_gbps", f->bisection_before_gbps);
    cJSON_AddNumberToObject(o, "bisection_after_gbps", f->bisection_after_gbps);
    cJSON_AddNumberToObject(o, "bisection_lost_fraction", f->bisection_lost_fraction);
    cJSON_AddNumberToObject(o, "endpoints_cut_off", (double)f->endpoints_cut_off);
    cJSON_AddNumberToObject(o, "servers_cut_off", (double)f->servers_cut_off);
    cJSON_AddNumberToObject(o, "devices_failed", (double)f->devices_failed);
    if (f->worst_pod >= 0) {
        cJSON_AddNumberToObject(o, "worst_pod", f->worst_pod + 1);
        cJSON_AddNumberToObject(o, "worst_pod_uplinks_remaining", f->worst_pod_uplinks);
    }
    if (f->worst_zone >= 0) {
        cJSON_AddNumberToObject(o, "worst_zone", f->worst_zone + 1);
        cJSON_AddNumberToObject(o, "worst_zone_uplinks_remaining", f->worst_zone_uplinks);
    }
    if (fp_plan_collectives(&coll, plan, f, NULL) == FP_OK)
        collectives_json(o, &coll);
}
