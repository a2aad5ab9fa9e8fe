/* fabplan — physical layout and cables of a plan (read-only views); the bill of materials is
 * in fabplan/bom.h (included here for programs written before it moved).
 *
 * fp_plan_new places every device (hall, row, rack, U), routes and sizes every link, picks its
 * medium and parts, and prices the result. These getters read that back by index. */
#ifndef FABPLAN_CABLING_H
#define FABPLAN_CABLING_H

#include <stddef.h>
#include <stdint.h>
#include "fabplan/error.h"
#include "fabplan/plan.h"
#include "fabplan/bom.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Media a link can use: the direct-attach media, cheapest reach first, then the optics, then
 *  twisted pair (added last so the others keep their numbers). */
typedef enum fp_medium {
    FP_MEDIUM_DAC = 0,  /**< passive direct-attach copper */
    FP_MEDIUM_ACC,      /**< active copper cable */
    FP_MEDIUM_AEC,      /**< active electrical cable */
    FP_MEDIUM_MMF,      /**< multimode optics (SR) on OM4 fibre */
    FP_MEDIUM_SMF,      /**< single-mode optics (DR/FR) on OS2 fibre */
    FP_MEDIUM_TP,       /**< twisted-pair copper: BASE-T on RJ45 (Cat6A patch cords, 100 m) */
    FP_MEDIUM_COUNT
} fp_medium;

/** Static name of a medium: "DAC", "ACC", "AEC", "MMF", "SMF", "TP"; "unknown" out of range. */
FP_EXPORT const char *fp_medium_name(fp_medium m);

/** Where a device sits. Numbers are 1-based as printed on the floor. */
typedef struct fp_location {
    int hall, row, rack, u;     /**< u: lowest rack unit the device occupies */
    char text[32];              /**< "H1-R05-K12-U40" */
} fp_location;

/** METHOD: copy the location of device i (fp_plan_device order) into the caller's *out.
 *  Needs FP_STAGE_LAYOUT. Errors: FP_EINVAL when device is out of range; FP_ESTAGE without
 *  the layout. */
FP_EXPORT fp_status fp_plan_device_location(const fp_plan *plan, size_t device, fp_location *out,
                                            fp_error *err);

/** One rack. */
typedef struct fp_rack_info {
    int hall, row, rack;        /**< 1-based */
    char name[24];              /**< "H1-R05-K12" */
    const char *role;           /**< "compute", "leaf", "spine", "core", "super-core",
                                     "management" (static) */
    double x_m, y_m;            /**< floor position of the rack's front-left corner */
    int units;                  /**< rack height in U */
    int units_used;             /**< devices' units plus its patch panels */
    int64_t devices;            /**< servers and switches (panels not counted) */
    int panels;                 /**< 1U patch panels (layout.cabling "structured"; else 0) */
    int panel_u;                /**< U of the lowest panel; they fill panel_u .. panel_u +
                                     panels - 1, just below the rack's switches (0: none) */
    double power_w;             /**< servers + switches + optics in the rack, every network's */
    int over_limit;             /**< 1 when power_w exceeds the layout's per-rack limit */
    int64_t cables_leaving;     /**< cables with one end in this rack and the other elsewhere */
} fp_rack_info;

/** METHOD: number of racks the plan uses: the layout's (compute and network) in floor order,
 *  then, with FP_STAGE_CABLING, the management racks the other networks add (spec `networks`;
 *  role "management", hall by hall, each hall's in a row of their own); 0 without
 *  FP_STAGE_LAYOUT. A rack's units, devices, power and cables leaving count every network's
 *  devices and cables in it. Cannot fail. */
FP_EXPORT size_t fp_plan_rack_count(const fp_plan *plan);
/** METHOD: copy rack i, in floor order (hall, row, rack), into the caller's *out; its role
 *  string is static. Needs FP_STAGE_LAYOUT; power_w, over_limit and cables_leaving come from
 *  FP_STAGE_CABLING and are 0 without it. Errors: FP_EINVAL when i is out of range; FP_ESTAGE
 *  without the layout. */
FP_EXPORT fp_status fp_plan_rack(const fp_plan *plan, size_t i, fp_rack_info *out, fp_error *err);

/** One unit item of a compute rack that holds no server (spec layout.rack_fixtures: a GB200
 *  NVL72 rack's NVLink switch trays and power shelves). */
typedef struct fp_rack_fixture {
    const char *name;           /**< the spec's name; valid while the plan lives */
    int u, ru;                  /**< lowest U and height in U */
    double power_w;             /**< its power (counted in the rack's power_w) */
} fp_rack_fixture;

/** METHOD: fixtures in rack i (fp_plan_rack order): every item of layout.rack_fixtures (each
 *  of a fixture's `count`), lowest U first as the spec lists them, in every compute rack; 0 in
 *  other racks, without fixtures or without FP_STAGE_LAYOUT. Cannot fail. */
FP_EXPORT size_t fp_plan_rack_fixture_count(const fp_plan *plan, size_t i);
/** METHOD: copy item k of rack i's fixtures into the caller's *out. Errors: FP_EINVAL when i
 *  or k is out of range or out is NULL. */
FP_EXPORT fp_status fp_plan_rack_fixture(const fp_plan *plan, size_t i, size_t k,
                                         fp_rack_fixture *out, fp_error *err);

/** Power per power domain: the layout's limits and the largest draw found, summed from the
 *  racks' power_w (rows are keyed by hall and row). A limit of 0 means none. */
typedef struct fp_power_domains {
    double rack_limit_w, row_limit_w, hall_limit_w;
    double rack_max_w, row_max_w, hall_max_w;
    int64_t racks_over, rows_over, halls_over;
} fp_power_domains;

/** METHOD: fill *out with the plan's power per rack, row and hall. Reads FP_STAGE_CABLING:
 *  without it only the limits are filled (the rest is 0). Cannot fail. */
FP_EXPORT void fp_plan_power_domains(const fp_plan *plan, fp_power_domains *out);

/** The overhead tray over one row: cables with an end in the row and their cross-section. A
 *  row gets as many stacked tray tiers as its cables need, up to layout.tray_tiers. */
typedef struct fp_tray_info {
    char row[16];               /**< "H1-R05" */
    int64_t cables;
    double area_mm2;            /**< cross-section of those cables */
    int tiers;                  /**< tiers over the row: ceil(area / one tier's capacity), at
                                     least 1, at most layout.tray_tiers */
    double capacity_mm2;        /**< tiers x tray width x depth x the fill allowed (layout.tray_*) */
    double fill;                /**< area_mm2 / capacity_mm2 */
    int over;                   /**< 1 when fill > 1: even layout.tray_tiers tiers are over-full */
} fp_tray_info;

/** METHOD: number of row trays (one per row; with spec networks the management rows too, and
 *  every tray counts the networks' cables as well); 0 without FP_STAGE_CABLING. Cannot fail. */
FP_EXPORT size_t fp_plan_tray_count(const fp_plan *plan);
/** METHOD: copy tray i (rows in floor order) into *out. Needs FP_STAGE_CABLING. Errors:
 *  FP_EINVAL when out of range; FP_ESTAGE without the cabling. */
FP_EXPORT fp_status fp_plan_tray(const fp_plan *plan, size_t i, fp_tray_info *out, fp_error *err);

#define FP_MAX_LEGS 4

/** The connector family of a cable's ends (fp_cable_info.connector), from its part's
 *  `connector`: what a structured panel port and a trunk leg are for it. */
typedef enum fp_connector {
    FP_CONNECTOR_NONE = 0,      /**< no fibre connector: a copper or active cable, module to module */
    FP_CONNECTOR_LC,            /**< duplex LC ("LC"): a fibre pair */
    FP_CONNECTOR_MPO            /**< MPO ("MPO-12/APC", "MPO-16", ...): a multi-fibre cord */
} fp_connector;

/** One end of a cable. */
typedef struct fp_cable_end {
    int64_t device;             /**< device index */
    char device_name[48];
    char port[64];              /**< the port's name (fp_link_info's a_port_name: "p17", "p17/2",
                                     "nic3", "swp17s0"); an end that carries several ports (a
                                     splitter's hub, a twin-port cable) names each, joined with
                                     '+' in the order of the cable's links: "p7+p8" */
    fp_location loc;
    char transceiver[48];       /**< catalog id of the module in this port, "" for copper */
    char label[320];            /**< TIA-606 style label text for this end (a splitter hub names every leg) */
} fp_cable_end;

/** One physical cable (a breakout cable is one cable with several Z legs). */
typedef struct fp_cable_info {
    int64_t index;              /**< 0-based, fixed order */
    char id[16];                /**< unique cable id, "C0000123": C + number of its first link
                                     (a first phase of fabric.build_for_gpus numbers its links
                                     as the target plan does: ids are kept across phases) */
    fp_medium medium;
    char part[48];              /**< cable or fibre catalog id */
    double route_m;             /**< estimated route length (or the hand override) */
    double stock_m;             /**< the length ordered: next stock length of the part */
    int boundary;               /**< tier boundary (0 = NIC-leaf) */
    int gbps;                   /**< speed of each link it carries (fabric.link_gbps) */
    int plane;
    fp_cable_end a;             /**< lower-tier end */
    int n_z;                    /**< legs: 1, or 2..FP_MAX_LEGS for breakouts */
    fp_cable_end z[FP_MAX_LEGS];
    int64_t links[FP_MAX_LEGS]; /**< link index carried by each leg */
    int n_links;                /**< links carried: legs for a splitter; 2 for a twin-port
                                     copper cable (one leg, both links of its cages) */
    int n_segments;             /**< 1 (a cord end to end), or 3 with layout.cabling
                                     "structured": cord, trunk, cord */
    double segment_m[3];        /**< each segment's share of route_m (they add up to it) */
    double segment_stock_m[3];  /**< length ordered for each segment (the trunk's stock length) */
    fp_connector connector;     /**< the connector family of the cable part's ends */
    char trunk_part[48];        /**< with n_segments 3: catalog id of the trunk the link rides
                                     between the two racks' panels ("trunk-om4-mpo-144f",
                                     "trunk-os2-mpo-144f"); "" otherwise */
    int trunk_fibres;           /**< with n_segments 3: the fibres of that trunk the link takes
                                     (2 for an LC cord, a 12-fibre leg for an MPO one); else 0 */
} fp_cable_info;

/** METHOD: number of physical cables (a breakout cable counts once); 0 without
 *  FP_STAGE_CABLING. Cannot fail. */
FP_EXPORT size_t fp_plan_cable_count(const fp_plan *plan);
/** METHOD: copy cable i (cable id order) into the caller's *out; every string is copied in.
 *  Needs FP_STAGE_CABLING. Errors: FP_EINVAL when i is out of range; FP_ESTAGE without the
 *  cabling. */
FP_EXPORT fp_status fp_plan_cable(const fp_plan *plan, size_t i, fp_cable_info *out, fp_error *err);
/** METHOD: the cables of network net (fabplan.h: 0 the compute fabric, as fp_plan_cable_count
 *  and fp_plan_cable; k >= 1 the spec's network k - 1): how many (0 when net is out of range or
 *  without FP_STAGE_CABLING), and a copy of its cable i. A network's cable has its ends named
 *  as links.csv names them, locations on the cluster's floor (a management rack is a row of
 *  its own beyond its hall) and an id "C%07lld" numbered on after the compute fabric's links
 *  and the earlier networks', unique in the plan. Errors: FP_EINVAL when net or i is out of
 *  range or out is NULL; FP_ESTAGE without FP_STAGE_CABLING. */
FP_EXPORT size_t fp_plan_net_cable_count(const fp_plan *plan, size_t net);
FP_EXPORT fp_status fp_plan_net_cable(const fp_plan *plan, size_t net, size_t i,
                                      fp_cable_info *out, fp_error *err);
/** The digest of no cable (FNV-1a 64's offset basis), where fp_cable_digest_add starts. */
#define FP_CABLE_DIGEST_INIT 0xcbf29ce484222325ull
/** Fold one cable into a digest of cables (FNV-1a 64): its id, A device and A port, each as
 *  cables.csv's cell reads once unquoted (text a spreadsheet would run as a formula with the
 *  apostrophe fp_csv_field puts before it) and each followed by a 0 byte, so the same value
 *  comes from a plan's cables (fp_plan_cable_digest) and from its cables.csv. NULL counts as
 *  "". Cannot fail. */
FP_EXPORT uint64_t fp_cable_digest_add(uint64_t digest, const char *cable_id, const char *a_device,
                                       const char *a_port);
/** Bytes of a digest's text: "fnv1a64:" and 16 lower-case hex digits, and the 0 byte. */
#define FP_CABLE_DIGEST_TEXT 25
/** The text plan.json's `cable_list.digest` holds for digest: "fnv1a64:%016x" into out (the
 *  caller's, FP_CABLE_DIGEST_TEXT bytes); returns out (NULL, writing nothing, for a NULL
 *  out). */
FP_EXPORT char *fp_cable_digest_text(uint64_t digest, char out[FP_CABLE_DIGEST_TEXT]);
/** METHOD: the plan's identity as cables.csv holds it: every network's cables in cables.csv's
 *  order (network 0 first) folded by fp_cable_digest_add into *digest, and their number into
 *  *cables. plan.json records both (`cable_list`), and `fabplan diff` recomputes them from
 *  cables.csv to refuse one that does not belong to its plan.json. Errors: FP_EINVAL when
 *  digest or cables is NULL; FP_ESTAGE without FP_STAGE_CABLING; FP_ENOMEM. */
FP_EXPORT fp_status fp_plan_cable_digest(const fp_plan *plan, uint64_t *digest, int64_t *cables,
                                         fp_error *err);
/** METHOD: cable i's route_m as fp_plan_cable gives it (metres, rounded to the centimetre),
 *  without building its names and labels: for a pass over every cable that needs only the
 *  length. 0 when i is out of range or the plan has no FP_STAGE_CABLING. Cannot fail. */
FP_EXPORT double fp_plan_cable_route_m(const fp_plan *plan, size_t i);
/** METHOD: the cable that carries link `link` (links.csv row link + 1): its index, as
 *  fp_plan_cable takes it, into *cable. Errors (*cable untouched): FP_EINVAL when link is
 *  out of range or cable is NULL; FP_ESTAGE without FP_STAGE_CABLING. */
FP_EXPORT fp_status fp_plan_link_cable(const fp_plan *plan, size_t link, size_t *cable,
                                       fp_error *err);
/** The media audit of one tier boundary: what the media choice paid (modules, the cable or a
 *  cord per link at stock length, as the choice weighs them; fibre cords shared as built may
 *  cost less in the BOM) and, for the links another medium also serves, what the cheapest such
 *  alternative would have cost. */
typedef struct fp_media_audit {
    double chosen_usd;              /**< the chosen media, every link of the boundary */
    int64_t links_with_alternative; /**< links where another allowed medium fits */
    double chosen_usd_of_those;     /**< the chosen media of those links */
    double alternative_usd;         /**< the cheapest other medium for those links */
    int64_t alternative_links[FP_MEDIUM_COUNT]; /**< those links by the alternative's medium */
} fp_media_audit;

/** METHOD: the media audit of boundary b (0 = NIC-leaf) into *out. Errors (*out untouched):
 *  FP_EINVAL when b is out of range or out is NULL; FP_ESTAGE without FP_STAGE_CABLING. */
FP_EXPORT fp_status fp_plan_media_audit(const fp_plan *plan, int b, fp_media_audit *out,
                                        fp_error *err);

/** METHOD: the medium of link `link` into *medium. Errors (*medium untouched): FP_EINVAL
 *  when link is out of range or medium is NULL; FP_ESTAGE without FP_STAGE_CABLING. */
FP_EXPORT fp_status fp_plan_link_medium(const fp_plan *plan, size_t link, fp_medium *medium,
                                        fp_error *err);

/** What adding the rest of fabric.build_for_gpus takes (filled by fp_plan_growth): the plan
 *  for build_for_gpus GPUs less this one. Counts are over all planes; the tiers above the pods
 *  are already built for the target, so the switches to add are the new pods' leaves and
 *  spines, and the links those pods bring. The compute fabric only: the networks of spec
 *  `networks` are sized for the servers present, and their growth is not counted here. */
typedef struct fp_growth {
    int64_t gpus_now, gpus_target;
    int64_t servers;                            /**< servers to add (hot spares included) */
    int64_t switches;                           /**< switches to add, all tiers */
    int64_t switches_by_tier[4];                /**< [0] leaves ... [3] super-cores */
    int64_t links;                              /**< links to add, NIC-leaf included */
    int64_t links_by_boundary[4];               /**< [0] NIC-leaf ... [3] core-super-core */
    int64_t cables;                             /**< physical cables to add */
    int64_t cables_by_medium[FP_MEDIUM_COUNT];  /**< indexed by fp_medium */
    int64_t transceivers;                       /**< modules to add, spares excluded */
    double cost_usd;                            /**< BOM cost to add (network parts and spares) */
    double power_w;                             /**< network power to add */
} fp_growth;

/** METHOD: fill *out with what growing this plan to fabric.build_for_gpus takes. Returns 1
 *  when the spec gives a build_for_gpus above cluster.gpus, else 0 (and *out is zeroed).
 *  Needs FP_STAGE_BOM: 0 without it. Cannot fail: the target plan is built with the plan. */
FP_EXPORT int fp_plan_growth(const fp_plan *plan, fp_growth *out);

#ifdef __cplusplus
}
#endif
#endif
