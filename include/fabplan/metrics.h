/* fabplan — metrics of a plan: bisection bandwidth (analytic and max-flow on the real graph),
 * oversubscription in use, hops, reliability, and failure what-ifs.
 *
 * fp_plan_new computes the metrics; fp_plan_metrics reads them back. fp_plan_fail applies a
 * set of failures to the plan's graph (the plan itself is not changed) and keeps the result,
 * which fp_plan_failure and plan.json ("failure") report. */
#ifndef FABPLAN_METRICS_H
#define FABPLAN_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include "fabplan/error.h"
#include "fabplan/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FP_METRICS_MAX_TIERS 4
#define FP_MAX_HOP_ROWS 7

/** GPU pairs whose fabric path turns at the same level (same leaf, same pod, ...). In a
 *  rail-optimized fabric every scope above "same leaf" is split into "..., same rail" and
 *  "..., other rail". */
typedef struct fp_hop_row {
    char scope[48];         /**< "same leaf", "same pod, same rail", "across pods", ... */
    int switches;           /**< switches on the path between the two GPUs' NICs */
    int64_t pairs;          /**< unordered GPU pairs in this scope */
    double share;           /**< pairs / all GPU pairs */
} fp_hop_row;

/** Reliability figures, assuming independent parts with exponential lifetimes. */
typedef struct fp_reliability {
    double switch_failures_per_day;
    double transceiver_failures_per_day;
    double cable_failures_per_day;      /**< copper and fibre */
    double nic_failures_per_day;
    double link_failures_per_day;       /**< transceivers + cables: anything that takes a link down */
    double hours_to_first_link_failure; /**< 1 / link failure rate; 0 when no MTBF is known */
    double hours_to_first_switch_failure; /**< 0 when no MTBF is known */
    int64_t units_without_mtbf;         /**< BOM units (spares excluded) whose part has no MTBF */
} fp_reliability;

/** Metrics of a plan (read with fp_plan_metrics). */
typedef struct fp_metrics {
    double bisection_gbps;          /**< analytic: min cut of the block tree from built uplinks */
    double bisection_maxflow_gbps;  /**< max-flow (igraph) on the fabric graph, same split */
    double split_demand_gbps;       /**< what the smaller half's NICs can send: the 1:1 target */
    int full_bisection;             /**< 1 when the bisection equals split_demand_gbps */
    char split[160];                /**< the source half ("pods 1-2 + leaves 65-78 | the rest") */
    int64_t split_endpoints[2];     /**< endpoints on each side, all planes */
    int tiers;
    double oversubscription[FP_METRICS_MAX_TIERS]; /**< per tier: down links / up links in use
                                                        (0 at the top tier) */
    int diameter_switches;          /**< most switches on a GPU-to-GPU path (from the topology) */
    int diameter_bfs_switches;      /**< the same measured by BFS from sampled leaves */
    int bfs_sources;                /**< leaves BFS started from */
    int64_t gpu_pairs;              /**< all unordered GPU pairs */
    int64_t hop_sample;             /**< 0: the hop rows are exact counts, else the sample size */
    int n_hops;
    fp_hop_row hops[FP_MAX_HOP_ROWS];
    fp_reliability reliability;
} fp_metrics;

/** METHOD: the plan's metrics (borrowed, valid while the plan lives). Never NULL: without
 *  FP_STAGE_METRICS (fp_plan_new_opts), a record of zeroes. */
FP_EXPORT const fp_metrics *fp_plan_metrics(const fp_plan *plan);

/** A quantity of one kind of part, for fp_reliability_from_counts. */
typedef struct fp_part_count {
    const char *category;   /**< "switch", "nic", "transceiver", "copper", "fibre" */
    int64_t quantity;
    double mtbf_hours;      /**< of one unit; 0 = unknown (counted in units_without_mtbf) */
} fp_part_count;

/** Pure reliability math: failure rates per category (quantity / MTBF summed), and the expected
 *  time to the first link (transceiver or cable) and switch failure (1 / rate). Example: 360,000
 *  links at a link MTBF of 5 years (43,800 h) -> 0.1217 h (7.3 minutes) to the first failure. */
FP_EXPORT void fp_reliability_from_counts(const fp_part_count *parts, size_t n,
                                          fp_reliability *out);

/** Result of a failure what-if. */
/** Most failure specs one what-if takes, and the longest spec text kept. */
#define FP_FAIL_MAX_SPECS 32
#define FP_FAIL_SPEC_LEN 64

typedef struct fp_failure_report {
    int n_specs;                /**< failure specs applied */
    uint64_t seed;              /**< seed of the random choices */
    int64_t switches_failed;
    int64_t links_failed;       /**< links down: named, random, and those of failed devices */
    double link_capacity_lost_gbps; /**< links_failed x link speed */
    double bisection_before_gbps;   /**< max-flow before (= metrics' bisection_maxflow_gbps) */
    double bisection_after_gbps;    /**< max-flow with the failures, same split */
    double bisection_lost_fraction; /**< 1 - after / before */
    int64_t endpoints_cut_off;  /**< NIC ports whose link is down or whose leaf cannot reach the
                                     rest of its plane */
    int64_t servers_cut_off;    /**< servers with every NIC port cut off */
    int64_t devices_failed;     /**< servers and switches down (rack:, row:, hall: and names) */
    int worst_pod;              /**< 0-based pod with the least uplink left; -1 without pods */
    double worst_pod_uplinks;   /**< that pod's remaining uplink fraction (1 = untouched): the
                                     lower of its leaf-spine and spine-core links still up */
    int worst_zone;             /**< 0-based zone likewise (4 tiers); -1 without zones */
    double worst_zone_uplinks;  /**< lowest remaining fraction over the zone's leaf-spine,
                                     spine-core and core-super-core links */
    char specs[FP_FAIL_MAX_SPECS][FP_FAIL_SPEC_LEN]; /**< the n_specs specs as given (copies,
                                     cut to FP_FAIL_SPEC_LEN - 1 characters) */
} fp_failure_report;

/** METHOD: a failure what-if: take the named devices and links down on a copy of the plan's
 *  graph and measure what is left. The report goes to the caller's *out (output first); the
 *  plan is not changed, so several what-ifs may be run on one plan, and a plan that is only
 *  read may be shared. To put a report in plan.json, pass it as fp_write_options.failure.
 *  Each spec is one of:
 *    "spine:3"            the 3rd spine in device order (roles: leaf, spine, core, super-core)
 *    "pod01-spine-03"     a device by the name links.csv shows (a server fails all its links)
 *    "link:L0000123"      a link by its links.csv id ("link:123" also works)
 *    "cable:C0000123"     every link carried by a cable (ids from cables.csv)
 *    "random-links:1%"    that share (or "random-links:50" that number) of all links, chosen
 *    "random-switches:2"  ... or of all switches, with a generator seeded by seed: repeatable
 *    "rack:H1-R08-K01"    every device in a rack (names as fp_plan_rack gives them)
 *    "row:H1-R08"         every device in a row; "hall:2" (or "hall:H2") in a hall
 *  At most FP_FAIL_MAX_SPECS specs. *out is filled only on success.
 *  Needs FP_STAGE_METRICS. Errors: FP_EINVAL (err.where is the spec text), FP_EGRAPH,
 *  FP_ENOMEM; FP_ESTAGE without the metrics stage. */
FP_EXPORT fp_status fp_plan_fail(fp_failure_report *out, const fp_plan *plan,
                                 const char *const *specs, size_t n, uint64_t seed,
                                 fp_error *err);

/** A failure what-if on one of the cluster's other networks, filled by fp_plan_fail_network. */
typedef struct fp_network_failure {
    int specs_matched;          /**< specs that named something of this network */
    int64_t switches_failed;
    int64_t links_failed;       /**< named links, cables' links, and those of failed devices */
    int64_t hosts_cut_off;      /**< hosts (servers and extra endpoints' port groups) with every
                                     link down or on a leaf cut off from the network's largest
                                     piece */
    int64_t servers_cut_off;    /**< of those, compute servers */
    double bisection_before_gbps;   /**< the network's analytic bisection (narrowest boundary) */
    double bisection_after_gbps;    /**< the same over the links still up */
} fp_network_failure;

/** METHOD: the what-if of report (from fp_plan_fail: its specs) on network i: a spec naming a
 *  device as links.csv names it (a compute server is a host of every network), a network link
 *  ("link:inband-L0000007"), a network cable ("cable:C0002049" as cables.csv numbers it) or a
 *  rack, row or hall takes that down in the network; role and random specs act on the compute
 *  fabric only. fp_plan_fail accepts the specs that name only network things. The report goes
 *  to the caller's *out. Errors: FP_EINVAL (i out of range, NULL arguments), FP_EGRAPH,
 *  FP_ENOMEM. */
FP_EXPORT fp_status fp_plan_fail_network(fp_network_failure *out, const fp_plan *plan, size_t i,
                                         const fp_failure_report *report, fp_error *err);

/* ---- expected collective bandwidth per placement scope ---- */

/** Scopes a table has at most: same leaf (or scalable unit), pod, zone, the whole fabric. */
#define FP_MAX_COLLECTIVE_SCOPES 5

/** NCCL's alpha terms for the Simple protocol, in microseconds (NVIDIA/nccl
 *  src/graph/tuning.cc, baseLat and hwLat; docs/metrics.md, "Collectives"): a ring step inside a
 *  server (NVLink) and across the network, the ring's base, and the tree's per step (its base
 *  is 0). */
#define FP_NCCL_RING_BASE_US 8.4
#define FP_NCCL_RING_NVLINK_US 3.4
#define FP_NCCL_RING_NET_US 14.0
#define FP_NCCL_TREE_BASE_US 0.0
#define FP_NCCL_TREE_NVLINK_US 28.0
#define FP_NCCL_TREE_NET_US 28.0

/** What a job confined to one placement scope can expect from the fabric (docs/metrics.md,
 *  "Collectives"). Bandwidths per GPU count every NIC port of the GPU (all planes: a GPU with
 *  one port in each of 2 planes has twice the port rate). Gb/s are link units; the collective
 *  ceilings are in GB/s (10^9 bytes per second), as nccl-tests prints them. */
typedef struct fp_collective_scope {
    char scope[16];         /**< "leaf", "su", "pod", "zone" or "fabric" */
    char block[64];         /**< the block measured: "pod01-leaf-01", "SU 1", "pod 1", "zone 1",
                                 "fabric"; with failures the worst block of the scope */
    int64_t gpus;           /**< n: the block's GPUs (ranks) */
    int64_t servers;        /**< the block's servers (NCCL's nodes) */
    int tiers_crossed;      /**< switch tiers above the leaves its traffic climbs (0: one leaf) */
    double nic_gbps;        /**< per GPU: its NIC ports that are up x link speed, least server */
    double uplink_gbps[FP_METRICS_MAX_TIERS]; /**< [t-1], t = 1 .. tiers_crossed: per GPU, the
                                 uplinks still up above tier t of the least-served tier-t block
                                 inside the scope (a leaf, a pod's spines, a zone's cores) over
                                 the NIC ports under it; 0 above tiers_crossed */
    double bisection_gbps;  /**< per GPU of the smaller half: max-flow between the block's two
                                 halves (servers in order) over that half's GPUs */
    double gbps;            /**< B: the least of nic_gbps, uplink_gbps[] and bisection_gbps */
    double allreduce_busbw;         /**< GB/s: B / 8 (nccl-tests busbw reaches B) */
    double allreduce_algbw;         /**< GB/s: busbw / (2 (n - 1) / n) */
    double allgather_busbw;         /**< GB/s: B / 8; reduce-scatter is the same */
    double allgather_algbw;         /**< GB/s: busbw / ((n - 1) / n); reduce-scatter the same */
    double alltoall_busbw;          /**< GB/s: uniform traffic through the narrowest level */
    double alltoall_algbw;          /**< GB/s: busbw / ((n - 1) / n) */
    double ring_allreduce_us;       /**< alpha of a ring all-reduce (NCCL's structure) */
    double ring_allgather_us;       /**< alpha of a ring all-gather or reduce-scatter */
    double tree_allreduce_us;       /**< alpha of a tree all-reduce */
} fp_collective_scope;

/** The expected collective bandwidth of every placement scope the fabric has, smallest first
 *  (read with fp_plan_collectives). */
typedef struct fp_collectives {
    int n_scopes;           /**< 0 when no scope holds two servers (a one-server cluster) */
    int failures;           /**< 1 when computed under a failure what-if */
    fp_collective_scope scope[FP_MAX_COLLECTIVE_SCOPES];
} fp_collectives;

/** METHOD: the expected collective bandwidth per placement scope into the caller's *out: the
 *  plan as built (failure NULL), or under the failure what-if of a report from fp_plan_fail
 *  (its specs and seed are applied again; the worst block of each scope is reported). Scopes:
 *  one leaf (Clos and fat-tree: the servers all of whose NIC ports are on one leaf), one
 *  scalable unit (rail-optimized), a pod (3+ tiers), a zone (4 tiers) and the whole fabric,
 *  each only when it holds at least 2 servers and more than the scope below it; the first such
 *  block is measured. Needs FP_STAGE_METRICS. Errors: FP_EINVAL (NULL out or plan, or a
 *  report whose specs no longer apply), FP_ESTAGE, FP_EGRAPH, FP_ENOMEM. */
FP_EXPORT fp_status fp_plan_collectives(fp_collectives *out, const fp_plan *plan,
                                        const fp_failure_report *failure, fp_error *err);

#ifdef __cplusplus
}
#endif
#endif
