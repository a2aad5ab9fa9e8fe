/* fabplan — building a plan and reading it back.
 *
 * Lifecycle: fp_catalog_new -> fp_spec_parse (or _load/_new/_preset) -> fp_plan_new ->
 * read summary, tiers, devices, links -> fp_plan_free. The plan copies what it needs from the
 * spec and the catalog, so both may be freed once fp_plan_new returns. */
#ifndef FABPLAN_PLAN_H
#define FABPLAN_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "fabplan/error.h"
#include "fabplan/catalog.h"
#include "fabplan/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fp_plan fp_plan;

/** Topologies; fat-tree and rail-optimized are parameter sets of the one folded-Clos builder. */
typedef enum fp_topology { FP_TOPO_CLOS = 0, FP_TOPO_FAT_TREE, FP_TOPO_RAIL } fp_topology;

/** Totals of a plan (filled by fp_plan_summary). */
typedef struct fp_summary {
    int64_t gpus;           /**< GPUs requested */
    int64_t servers;        /**< servers = ceil(gpus / gpus_per_server) */
    int64_t endpoints;      /**< NIC ports cabled to the fabric, all planes */
    int tiers;              /**< switch tiers (1 = leaf) */
    int planes;
    fp_topology topology;
    int64_t switches;       /**< all tiers, all planes */
    int64_t links;          /**< all boundaries, all planes (NIC-leaf included) */
    int64_t capacity_gpus;  /**< most GPUs these tiers, switches and settings can hold */
    const char *tier_choice;/**< why this number of tiers (borrowed, lives with the plan) */
    int64_t spare_servers;  /**< hot spares (layout.spare_servers), placed and cabled like the
                                 others and not counted in servers */
} fp_summary;

/** One switch tier (filled by fp_plan_tier). Counts are over all planes. */
typedef struct fp_tier_info {
    int tier;               /**< 1 = leaf, 2 = spine, 3 = core, 4 = super-core */
    const char *role;       /**< "leaf", "spine", "core", "super-core" (static) */
    const char *model;      /**< catalog id, or "custom-<ports>x<gbps>G" (borrowed) */
    int64_t switches;
    int ports_per_switch;   /**< logical ports at the speed of the links below (breakouts counted) */
    int port_gbps;          /**< speed of the links below this tier (fabric.link_gbps) */
    int up_gbps;            /**< speed of the links above it (0 at the top tier) */
    int down_ports;         /**< ports per switch reserved for links down */
    int up_ports;           /**< ports per switch for links up (0 at the top tier) */
    int64_t ports_used;     /**< ports with a link, all switches of the tier */
    int64_t ports_spare;    /**< switches * ports_per_switch - ports_used (a switch with uplink
                                 ports, SN2201: its front ports left after the links down) */
    double oversubscription;/**< down : up bandwidth (down_ports x port_gbps : up_ports x
                                 up_gbps) as a ratio (0 at the top tier) */
    int64_t links_up;       /**< links from this tier to the next */
    int64_t switches_min;   /**< the fewest switches that carry the links below this tier:
                                 ceil(links down / down_ports); `switches` beyond it are the
                                 stated rules' (even spread, full scalable units, the top
                                 tier's zone shares), each named in the plan's notes */
} fp_tier_info;

/** One device (filled by fp_plan_device). Groups that do not apply are -1. */
typedef struct fp_device_info {
    int tier;               /**< 0 = server, 1..4 = switch tier */
    int plane;              /**< 0-based; servers are in every plane and report 0 */
    int pod;                /**< 0-based level-2 block (pod), -1 when none */
    int zone;               /**< 0-based level-3 block (4-tier fabrics), -1 when none */
    int su;                 /**< 0-based scalable unit (rail-optimized), -1 when none */
    int rail;               /**< 0-based rail of a rail leaf, -1 when none */
    int index;              /**< 0-based index in its group */
    int ports;              /**< logical ports, the numbers links use (servers: NIC ports cabled;
                                 a switch whose up side splits otherwise, or that has uplink ports,
                                 counts its down ports, then every port from the up side on) */
    const char *model;      /**< catalog id (borrowed) */
    char name[48];          /**< e.g. "su03-leaf-r5", "pod02-spine-07", "core-0123", "su03-node-17"
                                 (servers: spec cluster.server_names, at most 47 characters) */
    int owner;              /**< the network whose device it is (fabplan.h's index: 0 the compute
                                 fabric), which counts, places and prices it: the network asked
                                 for, or the one a network's device stands for (a compute
                                 server: 0; a host that is a switch's management port, and a
                                 switch of a top tier attached to another network, spec
                                 uplink_to: that switch's network) */
} fp_device_info;

/** One link (filled by fp_plan_link). a is the lower end, z the upper end. */
typedef struct fp_link_info {
    int64_t id;             /**< 0-based, in the plan's fixed order */
    int64_t a, z;           /**< device indexes */
    int a_port, z_port;     /**< 0-based logical port on each device */
    char a_port_name[32];   /**< "nic3", "p17", "p17/2" (breakout lane), or the part's
                                 interface_names ("swp17s0")  */
    char z_port_name[32];
    int gbps;
    int boundary;           /**< tier of the lower end: 0 = NIC-leaf, 1 = leaf-spine, ... */
    int plane;
} fp_link_info;

/** Progress callback: stage name ("cabling", "links.csv"), fraction done in [0, 1], caller's
 *  payload. Called from the thread doing the work; it must not call back into the plan. */
typedef void (*fp_progress_cb)(const char *stage, double fraction, void *payload);

/* Stages of a plan (bit set), in the order they run; each reads every stage before it, so
 * asking for one builds the ones it needs too (fp_plan_stages_needed). A plan built with only
 * some of them (fp_plan_new_opts) answers the getters of those stages; the getters of the
 * others return FP_ESTAGE (those returning fp_status), 0 (counts) or zeroes, as each says.
 * fp_write_stages (fabplan/write.h) gives the stages a set of documents needs. */
#define FP_STAGE_FABRIC 0x1u  /**< spec resolved, devices, links, device and port names, the
                                   other networks' fabrics: always built */
#define FP_STAGE_LAYOUT 0x2u  /**< racks, rows and halls; every device's rack, U and location */
#define FP_STAGE_CABLING 0x4u /**< media, cables, transceivers, labels, trays, rack power; the
                                   other networks' racks and cabling */
#define FP_STAGE_BOM 0x8u     /**< bill of materials, totals, warnings; the other networks' parts;
                                   growth (fabric.build_for_gpus); the cost note */
#define FP_STAGE_METRICS 0x10u /**< metrics (bisection, hops, reliability); failure what-ifs */
#define FP_STAGE_ALL 0x1fu

/** Options of fp_plan_new_opts. Fill from FP_PLAN_OPTIONS_INIT, then change members. */
typedef struct fp_plan_options {
    int version;                /**< FP_PLAN_OPTIONS_VERSION */
    unsigned stages;            /**< FP_STAGE_* to build (with the ones they need); 0 = all */
    fp_progress_cb progress;    /**< optional, as fp_plan_new_progress */
    void *payload;              /**< passed to progress */
} fp_plan_options;

#define FP_PLAN_OPTIONS_VERSION 1
#define FP_PLAN_OPTIONS_INIT { FP_PLAN_OPTIONS_VERSION, FP_STAGE_ALL, NULL, NULL }

/** CONSTRUCTOR: resolve the spec against the catalog, build the fabric, place it on the floor,
 *  cable it, price it and compute its metrics. *out is set on success (NULL on failure) and
 *  owned by the caller (fp_plan_free). Errors: those of fp_spec_validate; FP_EDESIGN when a
 *  link no allowed medium can serve, or leaves that do not fit a rack (err.where names the
 *  link, cable or spec pointer); FP_EGRAPH (igraph); FP_ENOMEM. */
FP_EXPORT fp_status fp_plan_new(fp_plan **out, const fp_spec *spec, const fp_catalog *cat,
                                fp_error *err);


/** CONSTRUCTOR: as fp_plan_new, telling progress (may be NULL) as each stage starts and when
 *  all are done: "spec", "fabric", "layout", "cabling", "bom", "metrics", with the fraction of
 *  the planning done before that stage (shares of the time measured on a 131,072-GPU 4-tier
 *  plan, where cabling takes 90 %), then "planned" at 1. Same errors as fp_plan_new. */
FP_EXPORT fp_status fp_plan_new_progress(fp_plan **out, const fp_spec *spec, const fp_catalog *cat,
                                         fp_progress_cb progress, void *payload, fp_error *err);

/** CONSTRUCTOR: as fp_plan_new, building only opts->stages (and the stages they need): a
 *  plan for links.csv alone needs FP_STAGE_FABRIC, skipping layout, media, cables, BOM and
 *  metrics, which are most of the time at full scale. Whatever is built is the same as in a
 *  plan with every stage, so the documents it can write are byte-identical. opts may be NULL
 *  (every stage, no progress). Progress tells only the stages built. Errors: those of
 *  fp_plan_new, for the stages built (a design whose media cannot be chosen fails only with
 *  FP_STAGE_CABLING); FP_EINVAL for an options version this library does not know. */
FP_EXPORT fp_status fp_plan_new_opts(fp_plan **out, const fp_spec *spec, const fp_catalog *cat,
                                     const fp_plan_options *opts, fp_error *err);

/** Check the spec as fp_plan_new_opts(opts) would and collect its independent errors into the
 *  caller's errs[0 .. max) (*n of them; errs and the spec stay the caller's, nothing else is
 *  returned to own; opts may be NULL, its progress is not called). The rule (docs/spec.md,
 *  "Every error at once"): plan a copy of the spec; after an error at a JSON pointer, take that
 *  value out (its default stands in; an item of a list takes the whole list) and plan again.
 *  An error at or under a value taken out, or whose message names one, follows from it and is
 *  not listed. It stops at a plan without error, at max errors, at an error that is not a
 *  value of the spec (FP_EIO, FP_EPARSE, FP_ENOMEM, FP_EGRAPH; a pointer the spec does not
 *  hold, a default: taking nothing out would repeat it), listing that one too. errs is in
 *  the order the spec's text gives the values (an error at a default goes with the
 *  nearest member given). Returns FP_OK (*n = 0) when the spec plans; else the status of the
 *  first error found, the one fp_plan_new_opts reports, which err receives too. Errors of
 *  the call itself (*n = 0): FP_EINVAL (spec, cat or n NULL, max 0 or errs NULL),
 *  FP_ENOMEM. */
FP_EXPORT fp_status fp_plan_check_all(const fp_spec *spec, const fp_catalog *cat,
                                      const fp_plan_options *opts, fp_error *errs, size_t max,
                                      size_t *n, fp_error *err);

/** METHOD: the FP_STAGE_* bits this plan has built (FP_STAGE_ALL from fp_plan_new); 0 for a
 *  NULL plan. Cannot fail. */
FP_EXPORT unsigned fp_plan_stages(const fp_plan *plan);

/** The FP_STAGE_* bits that building stages takes: stages with every stage they read (and
 *  FP_STAGE_FABRIC, always built). Cannot fail. */
FP_EXPORT unsigned fp_plan_stages_needed(unsigned stages);

/* The calls from here to fp_plan_note read FP_STAGE_FABRIC, which every plan has. */

/** METHOD: fill the caller's *out with the plan's totals; tier_choice is borrowed from the
 *  plan. Cannot fail. */
FP_EXPORT void fp_plan_summary(const fp_plan *plan, fp_summary *out);

/** METHOD: number of switch tiers, and a copy of tier i (0 = leaf) into the caller's *out
 *  (role static, model borrowed from the plan). Errors: FP_EINVAL when i is out of range. */
FP_EXPORT size_t fp_plan_tier_count(const fp_plan *plan);
FP_EXPORT fp_status fp_plan_tier(const fp_plan *plan, size_t i, fp_tier_info *out, fp_error *err);

/** One of the cluster's other networks (spec `networks`), filled by fp_plan_network. */
typedef struct fp_network_info {
    const char *name;       /**< the spec's name (borrowed from the plan) */
    const char *role;       /**< "converged", "storage", "management" or "oob" (static) */
    int dual_homed;         /**< 1 when each host's two ports go to the two leaves of a pair */
    int tiers;              /**< switch tiers of the network's fabric */
    int port_gbps;          /**< speed of the hosts' ports */
    int64_t hosts;          /**< endpoints: servers plus the extra endpoints' port groups */
    int64_t switches;       /**< all tiers: the network's own (a top tier of another
                                 network's switches, spec uplink_to, adds none) */
    int64_t links;          /**< all boundaries, and the MLAG peer links of a dual-homed
                                 Ethernet network */
    double cost_usd;        /**< switches, NICs bought for the network, transceivers, copper
                                 cables and fibre its cabling chose, and their spares */
    double power_w;         /**< the same parts in service */
    double bisection_gbps;  /**< narrowest boundary's capacity / 2 */
    int64_t hosts_on_pairs; /**< dual-homed: hosts whose two ports land on one MLAG pair */
    const char *note;       /**< a choice the planner made that the reader should know ("" for
                                 none; borrowed from the plan): default MLAG peer links dropped */
    const char *pair_name;  /**< dual-homed: what its leaf pairs are called, "MLAG pair" on
                                 Ethernet, "leaf pair" on InfiniBand (no MLAG there); "" when
                                 single-homed (static) */
} fp_network_info;

/** METHOD: number of networks beside the compute fabric (0 without spec `networks`), and a copy
 *  of network i (spec order) into the caller's *out. cost_usd and power_w come from
 *  FP_STAGE_BOM and are 0 without it; the rest needs only the fabric. Errors: FP_EINVAL when i
 *  is out of range. */
FP_EXPORT size_t fp_plan_network_count(const fp_plan *plan);
FP_EXPORT fp_status fp_plan_network(const fp_plan *plan, size_t i, fp_network_info *out,
                                    fp_error *err);


/** METHOD: number of devices, and a copy of device i into the caller's *out (model borrowed
 *  from the plan). Fixed order: servers, then switches by tier, plane, pod, index.
 *  Errors: FP_EINVAL when i is out of range. */
FP_EXPORT size_t fp_plan_device_count(const fp_plan *plan);
FP_EXPORT fp_status fp_plan_device(const fp_plan *plan, size_t i, fp_device_info *out,
                                   fp_error *err);

/** METHOD: number of links, and a copy of link i into the caller's *out. Fixed order: by
 *  boundary, plane, lower device, port (links.csv row i + 1). Errors: FP_EINVAL when i is out
 *  of range. */
FP_EXPORT size_t fp_plan_link_count(const fp_plan *plan);
FP_EXPORT fp_status fp_plan_link(const fp_plan *plan, size_t i, fp_link_info *out, fp_error *err);

/** METHOD: the devices and links of network net (fabplan.h: 0 the compute fabric, as
 *  fp_plan_device and fp_plan_link give them; k >= 1 the spec's network k - 1): how many (0
 *  when net is out of range), and a copy of device or link i. A network's devices are its
 *  hosts (the compute servers it attaches, named as the compute fabric names them, then its
 *  extra endpoints' port groups (an endpoint of a group counted "switches" is that switch, by
 *  its name, its port the catalog part's management interface: "su01-leaf-r1", "mgmt0"; model
 *  the network's NIC, ports its ports per host), then its
 *  switches by tier ("inband-su01-leaf-r1"; a network attached to another, spec uplink_to,
 *  has as its top tier that network's top-tier switches, by their names and model: they are
 *  that network's devices, counted, placed and priced there, and the links to them this
 *  network's, on the ports they take there); its links by boundary, then a dual-homed
 *  network's MLAG peer links (boundary 1), ids from 0 within the network, a and z device
 *  indexes of the network, ports named as links.csv names them. Errors: FP_EINVAL when net or
 *  i is out of range or out is NULL. */
FP_EXPORT size_t fp_plan_net_device_count(const fp_plan *plan, size_t net);
FP_EXPORT fp_status fp_plan_net_device(const fp_plan *plan, size_t net, size_t i,
                                       fp_device_info *out, fp_error *err);
FP_EXPORT size_t fp_plan_net_link_count(const fp_plan *plan, size_t net);
FP_EXPORT fp_status fp_plan_net_link(const fp_plan *plan, size_t net, size_t i,
                                     fp_link_info *out, fp_error *err);

/** METHOD: links crossing boundary `boundary` (0 = NIC-leaf, up to fp_plan_tier_count - 1)
 *  over all planes, into *links. Errors (*links untouched): FP_EINVAL when the boundary is out
 *  of range or an argument is NULL. */
FP_EXPORT fp_status fp_plan_boundary_links(const fp_plan *plan, int boundary, int64_t *links,
                                           fp_error *err);

/** METHOD: number of notes the planner wants the user to read (evened-out uplinks, rounding),
 *  and note i: a borrowed string that lives with the plan, NULL when out of range. The
 *  fabric's notes come first; the cabling's and the cost note's only with FP_STAGE_CABLING and
 *  FP_STAGE_BOM. */
FP_EXPORT size_t fp_plan_note_count(const fp_plan *plan);
FP_EXPORT const char *fp_plan_note(const fp_plan *plan, size_t i);

/** METHOD: the whole result as plan.json text; the caller frees it with fp_free.
 *  Needs every stage (FP_STAGE_ALL). Errors: FP_ENOMEM; FP_ESTAGE naming the stages this plan
 *  was built without. */
FP_EXPORT fp_status fp_plan_to_json(const fp_plan *plan, char **out, fp_error *err);

/** DESTRUCTOR: free the plan. NULL is a harmless no-op. */
FP_EXPORT void fp_plan_free(fp_plan *plan);

/** Static name of a topology ("clos", "fat-tree", "rail-optimized"); "unknown" out of range. */
FP_EXPORT const char *fp_topology_name(fp_topology t);

/** A down:up ratio as people write it, into the caller's buf (n bytes; 32 hold any result):
 *  the fraction with the smallest denominator (up to 256, any port count of a switch up to 256
 *  ports) equal to ratio, reduced, "p:q" - 2 -> "2:1", 16/15 -> "16:15", 1.5 -> "3:2", 0.5 ->
 *  "1:2". A ratio no such fraction equals (1.06667, a rounded decimal, or the links in use of a
 *  large fabric, 3125:3126) prints as a decimal of four significant digits, "%.4g:1"
 *  ("0.9997:1", "1.067:1"), which reads better than a fraction of four-digit numbers. Returns
 *  buf (NULL for a NULL buf). Cannot fail. */
FP_EXPORT const char *fp_ratio_text(double ratio, char *buf, size_t n);

/** v for a reader, rounded to decimals places (0 to 20; outside, the nearest) with a comma
 *  between each three integer digits, into the caller's buf (n bytes; 352 hold any double):
 *  16384 -> "16,384", -1234 -> "-1,234", 5529600.4 at 2 -> "5,529,600.40" (printf's
 *  rounding). The one grouping of every figure fabplan shows people (the CLI's summaries,
 *  report.html, the diagrams); CSV and JSON keep plain numbers. Returns buf (NULL for a NULL
 *  buf; nothing written when n is 0). Cannot fail. */
FP_EXPORT const char *fp_grouped_text(double v, int decimals, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
