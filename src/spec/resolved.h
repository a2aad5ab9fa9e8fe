/* fabplan — private: the spec stage's result, the resolved spec (spec.c, spec_layout.c): every
 * value checked and nothing left "auto" except the sizing (tier count, ports per tier), which is
 * the fabric stage's result (fp_fabric, fp__clos_size). Later stages read it; only the spec
 * stage writes it. */
#ifndef FP_PRIVATE_SPEC_RESOLVED_H
#define FP_PRIVATE_SPEC_RESOLVED_H

#include <math.h>
#include "util/util.h"

#define FP_MAX_TIERS 4
#define FP_MAX_PLANES 8

/* ---- interface names from a part's template (port_names.c) ---- */
#define FP_PORT_NAME_MAX 32     /* longest port name + 1; longer expansions are cut */
/* One port's numbers (1-based; split: the port is broken out, so [..] sections are written). */
typedef struct fp_port_fields {
    int port, cage, sub, lane, serdes, nic;
    int portlane;               /* first electrical lane within the port, 1-based */
    int split;
} fp_port_fields;
/* 0 when template t is well formed, else 1 with the reason in why. */
int fp__port_template_check(const char *t, char *why, size_t n);
/* Expand template t for port f into buf (n bytes, cut like snprintf); returns buf. */
char *fp__port_template(char *buf, size_t n, const char *t, const fp_port_fields *f);
/* Numbers of logical port q (0-based, at link speed) of a switch of model m split breakout ways. */
void fp__switch_port_fields(fp_port_fields *f, const fp_part *m, int breakout, int q);
/* Numbers of NIC port q (0-based over all the server's NICs of this model). */
void fp__nic_port_fields(fp_port_fields *f, const fp_part *nic, int q);
/* The part's template, or the default (p{port}[/{lane}]; NICs nic{nic}[-p{port}]). */
const char *fp__port_template_of(const fp_part *p);
/* FP_EINVAL at where when the part's template is malformed or gives two of its count ports
 * (breakout-way split) the same name. */
fp_status fp__port_names_check(const fp_part *p, int breakout, int count, const char *where,
                               fp_error *err);

/* ---- server (host) names from cluster.server_names (host_names.c) ---- */
/* The longest server name: the read-back API's name fields (fp_device_info.name,
 * fp_cable_end.device_name) hold 47 characters, below Slurm's 64 and a DNS label's 63. */
#define FP_SERVER_NAME_MAX 47
/* A template's fields; each names a 1-based number of the server. */
enum { FP_HOST_TEXT = 0, FP_HOST_SU, FP_HOST_N, FP_HOST_I, FP_HOST_FIELDS };
/* One part of a template: literal text (off, len into text) or a field zero-padded to width
 * digits (0: the width of the field's largest number in the design, at least 2). */
typedef struct fp_host_part {
    uint8_t field, width, off, len;
} fp_host_part;
/* A template resolved: parts in order. Every part writes at least one character, so a name of
 * at most FP_SERVER_NAME_MAX characters has at most that many parts. */
typedef struct fp_host_template {
    int given;                  /* 1: the spec's cluster.server_names; 0: the default */
    int n_part;
    fp_host_part part[FP_SERVER_NAME_MAX];
    char text[FP_SERVER_NAME_MAX + 1];  /* the literal characters, NUL-terminated */
    char source[96];            /* the template as given (cut), for messages */
} fp_host_template;
/* Parse template s (NUL-terminated) into *t. FP_EINVAL at /cluster/server_names when it is
 * empty, names an unknown field, has a bad width or an unmatched brace, holds a character a
 * host name may not (RFC 1123 label, lowercase: a-z, 0-9, '-', not first or last), has no
 * field, or cannot be shorter than FP_SERVER_NAME_MAX + 1. */
fp_status fp__host_template_parse(fp_host_template *t, const char *s, fp_error *err);
/* The default: "su{su}-node-{n}" for a rail-optimized fabric, else "node-{i}" (given = 0). */
void fp__host_template_default(fp_host_template *t, int rail);
/* Name of the server with field values val[FP_HOST_FIELDS] (1-based; [0] unused) and the
 * widths auto_w[] for fields without one, into buf (n bytes, cut like snprintf). Returns the
 * length the name has (not cut). */
size_t fp__host_name(char *buf, size_t n, const fp_host_template *t, const int64_t *val,
                     const int *auto_w);

/* ---- physical spec: layout, media policy, BOM spares, cable overrides (spec_layout.c) ---- */
typedef enum fp_leaf_place { FP_LEAF_MIDDLE = 0, FP_LEAF_END, FP_LEAF_TOR } fp_leaf_place;
/* Where the spines of a 3- or 4-tier fabric stand: beside their pod, or in central rows. */
typedef enum fp_spine_place { FP_SPINE_POD = 0, FP_SPINE_CENTRAL } fp_spine_place;

/* One hand override: a cable id ("C0000012") or both ends ("dev port" names) -> length, part. */
typedef struct fp_override {
    char cable[16];
    char a[96], z[96];          /* "su01-node-01 nic1" */
    double length_m;            /* < 0 when not given */
    int part;                   /* index into fp_phys_spec.parts, -1 when not given */
    char where[48];             /* JSON pointer of the entry, for errors */
} fp_override;

/* layout.rack_fixtures: units of every compute rack that hold no server (a GB200 NVL72 rack's
 * NVLink switch trays and power shelves): `count` items of `ru` units each from U `u` up. */
#define FP_MAX_FIXTURES 8
typedef struct fp_fixture {
    char name[40];
    int u, ru, count;
    double power_w;             /* each item's */
} fp_fixture;

typedef struct fp_phys_spec {
    int rack_units;
    double rack_width_m, rack_depth_m, aisle_m;
    int servers_per_rack, server_ru;
    double server_power_w;
    fp_fixture fixtures[FP_MAX_FIXTURES];
    int n_fixtures;
    int fixture_units;          /* units the fixtures take in each compute rack */
    double fixture_power_w;     /* and their power */
    int16_t server_u[64];       /* lowest U of a compute rack's k-th server: the units from U1
                                   up that no fixture takes (1 + k x server_ru without) */
    int racks_per_row;          /* most racks in a row (between cross-aisles); 0 = auto */
    int halls;                  /* 0 = as many as hall_power_limit_w needs */
    double hall_gap_m;
    fp_leaf_place leaf_place;
    fp_spine_place spine_place;
    int max_switches_per_rack;
    int max_cords_per_rack;     /* network racks: links terminated per rack, at most */
    double spine_rack_share;    /* largest share of a pod's spines one rack may hold */
    double network_rack_width_m;
    double cross_aisle_m;       /* gap between two rows that share a line */
    int rows_per_line;          /* rows end to end in one line; 0 = auto (hall about square) */
    double rack_power_limit_w;
    double row_power_limit_w;   /* 0 = no limit */
    double hall_power_limit_w;  /* 0 = no limit */
    int structured;             /* layout.cabling "structured": a patch panel at each end */
    int extra_mated_pairs;      /* mated connector pairs every optical link crosses besides */
    double tray_width_mm, tray_depth_mm, tray_fill_max;    /* overhead tray over each row */
    int tray_tiers;             /* most trays stacked over one row (a row takes what it needs) */
    double spare_servers;       /* fraction of servers kept as placed and cabled hot spares */
    double tray_height_m;       /* from the top of a rack up to the overhead tray */
    double service_loop_m;      /* slack coiled at each end */
    double slack_pct;           /* extra length in percent of the run */
    unsigned media_allowed[FP_MAX_TIERS];   /* per boundary, bit (1 << fp_medium) */
    double spares[5];           /* per BOM category (switch, nic, transceiver, copper, fibre) */
    fp_part *parts;             /* transceivers, copper and fibre copied from the catalog */
    int n_parts;
    fp_override *ov;
    int n_ov;
} fp_phys_spec;

/* Resolve the layout, media, bom and overrides members (each may be NULL). */
struct cJSON;
/* base_dir: directory that relative file names in the spec (overrides) are read from; NULL or
 * "" for the working directory. nic: the cluster's NIC; a system part (ru, system_power_w)
 * gives the server's units and power unless layout does. */
fp_status fp__phys_resolve(fp_phys_spec *out, const struct cJSON *layout, const struct cJSON *media,
                           const struct cJSON *bom, const struct cJSON *overrides,
                           const char *base_dir, const fp_part *nic, const fp_catalog *cat,
                           fp_error *err);
void fp__phys_free(fp_phys_spec *ps);
/* The list of cable overrides in the file the spec's "overrides" string v names, read relative
 * to base_dir (spec_layout.c): detached, the caller deletes it. FP_EINVAL (empty name, not a
 * list), FP_EIO, FP_EPARSE, FP_ENOMEM. */
fp_status fp__overrides_file(const struct cJSON *v, const char *base_dir, struct cJSON **list,
                             fp_error *err);

/* ---- resolved spec (spec.c) ---- */
typedef struct fp_tier_spec {
    fp_part model;          /* switch part (a copy; inline switches get id "custom-...") */
    int breakout;           /* ways each physical port is split to reach the down link speed */
    int breakout_up;        /* the same for the up links (0: the up speed cannot be reached) */
    int per_cage;           /* physical ports per cage (model.ports / model.cages) */
    int gbps_down, gbps_up; /* link speeds below and above this tier */
    int radix;              /* logical ports at the down link speed = ports * breakout */
} fp_tier_spec;

typedef struct fp_rspec {
    char name[128];
    int64_t gpus;
    int gpus_per_server;
    int nics_per_server;
    int nvlink_servers;     /* cluster.nvlink_domain_servers: servers (trays) sharing one NVLink
                               domain (18 in a GB200 NVL72 rack); 1 = each server its own */
    fp_part nic;            /* copy; inline NICs get id "custom-nic-..." */
    fp_host_template server_names;  /* cluster.server_names, or the default for the topology;
                                       names.c (fp__device_name) makes every server name */
    fp_topology topology;
    int tiers_given;        /* tier count the spec fixes (fabric.tiers, or 3 for a fat-tree);
                               0 when "auto". The fabric's tier count: fp_fabric.tiers */
    int tiers_auto;         /* 1 when the spec said "auto" (or nothing) */
    int tiers_by_topology;  /* 1 when the topology fixed the count (a k-ary fat-tree: 3) */
    int n_models;           /* switch models given (1 = one for every tier) */
    fp_tier_spec tier[FP_MAX_TIERS];   /* [0] = leaf */
    int n_oversub;          /* entries given in fabric.oversubscription */
    double oversub[FP_MAX_TIERS];   /* THE requested down:up bandwidth ratio per tier (1 when not
                                       given); the only copy */
    int su_servers;
    int su_auto;            /* rail-optimized compute fabric without fabric.su_servers: the
                               largest unit tried (32); the sizing may choose a smaller one
                               (fp_fabric.su_chosen), which the plan then puts in su_servers */
    int planes;
    double reserve;
    int link_gbps;          /* speed of the NIC-leaf links (gbps[0]) */
    int gbps[FP_MAX_TIERS]; /* link speed per boundary, 0 = NIC-leaf (fabric.link_gbps) */
    int n_gbps;             /* entries given in fabric.link_gbps */
    int nic_per_cage;       /* NIC ports sharing one cage (nic.ports / nic.cages) */
    unsigned protocols;     /* FP_PROTO_* every device of the fabric speaks */
    int endpoints_per_server;   /* NIC ports per server per plane = rails */
    int spread;                 /* FP_SPREAD_EVEN (default) or FP_SPREAD_BALANCED */
    int rail_shared;            /* fabric.rail_leaves "shared": a rail-optimized unit whose rails
                                   leave a fraction of a leaf cuts its NIC ports rail after rail
                                   (a leaf may end one rail and start the next); 0 ("aligned",
                                   the default): every leaf serves one rail */
    int min_top;                /* fabric.min_top_switches: the top tier has at least this many
                                   switches (1 when not given; 2 for a dual-homed network) */
    int leaf_up;                /* fabric.uplinks_per_leaf: every leaf with hosts has exactly
                                   this many up links, whatever its ratio (0: by the ratio) */
    int fill_cap;               /* a single-homed network's leaves (rail-optimized, one rail):
                                   each takes up to this many hosts, its unit's su_servers
                                   servers first and extra endpoints in its free ports
                                   (fp__fill_slot); 0: units of su_servers hosts */
    int64_t fill_from;          /* with fill_cap: hosts below this are servers */
    int64_t build_for_gpus;     /* tiers above the pods are built for this many (>= gpus) */
    int64_t block_servers[FP_MAX_TIERS + 1];  /* servers per level-t block as given:
                                   [1] fabric.leaf_servers (clos), [2] pod_servers, [3]
                                   zone_servers; 0: as many as the switch above has down ports
                                   (fp__block_children, the Clos builder's one rule) */
    int64_t spare_servers;      /* hot spares placed and cabled after the production servers */
    fp_phys_spec phys;
} fp_rspec;

enum { FP_SPREAD_EVEN = 0, FP_SPREAD_BALANCED = 1 };

/* Up links a tier-t switch (0 = leaf) needs for d down links at its ratio: the ratio is of
 * bandwidth (down Gb/s : up Gb/s), so faster uplinks need fewer of them. A leaf with
 * uplinks_per_leaf given (rs->leaf_up) has that many, whatever d. */
static inline int fp__up_for(const fp_rspec *rs, int t, int d)
{
    const fp_tier_spec *ts = &rs->tier[t];
    if (d <= 0)
        return 0;
    if (t == 0 && rs->leaf_up > 0)
        return rs->leaf_up;
    return (int)ceil((double)d * ts->gbps_down / ((double)ts->gbps_up * rs->oversub[t]) - 1e-9);
}
/* A network whose extra endpoints fill its servers' leaves (rs->fill_cap > 0): the unit
 * (leaf) and port of host s. Servers (s < fill_from) keep their unit, s / su_servers; the
 * others fill each unit's free ports (fill_cap less its servers) in unit order, then units of
 * their own of fill_cap each. */
static inline void fp__fill_slot(const fp_rspec *rs, int64_t s, int64_t *unit, int64_t *port)
{
    const int64_t su = rs->su_servers, cap = rs->fill_cap, S = rs->fill_from;
    const int64_t nfull = S / su, last = S - nfull * su, free_full = cap - su;
    int64_t e = s - S, units = nfull;
    if (s < S) {
        *unit = s / su;
        *port = s % su;
        return;
    }
    if (e < nfull * free_full) {
        *unit = e / free_full;
        *port = su + e % free_full;
        return;
    }
    e -= nfull * free_full;
    if (last > 0) {
        if (e < cap - last) {
            *unit = nfull;
            *port = last + e;
            return;
        }
        e -= cap - last;
        units++;
    }
    *unit = units + e / cap;
    *port = e % cap;
}

/* Down ports of a tier-t switch below the top tier (spec_fabric.c), its up ports
 * fp__up_for(rs, t, down): as many as fit beside the up links its ratio needs, after the
 * reserve. When both sides split alike, down + up logical ports fit the usable ones; when they
 * differ (400G down, 800G up on an 800G switch), each side takes whole cages; a switch with
 * uplink ports of its own keeps every front port for the down side while its uplinks carry the
 * ratio. 0 when the up speed cannot be reached. The fabric stage's sizing (fp__clos_size) and the
 * networks' shaping (spec/networks.c) both read it. */
int fp__tier_down(const fp_rspec *rs, int t);

/* Tiers a fabric of `servers` servers (build_for_gpus' when given, hot spares included) needs at
 * least for its blocks: a tier above the pods (fabric.pod_servers: 3) or above the zones
 * (zone_servers: 4) only when the servers fill more than one of them. A fabric that one pod
 * (zone) holds is that block: nothing above it would carry a link between two blocks, so no
 * tier is built for it. Else 2. */
static inline int fp__block_min_tiers(const fp_rspec *rs, int64_t servers)
{
    if (rs->block_servers[3] > 0 && servers > rs->block_servers[3])
        return 4;
    if (rs->block_servers[2] > 0 && servers > rs->block_servers[2])
        return 3;
    return 2;
}

/* The spec's /cluster/gpus as given (whole and at least 1), else 0: for bounds on work taken
 * before anything is resolved (compare's candidates). */
int64_t fp__spec_gpus(const fp_spec *spec);
/* A deep copy of spec (same origin: relative file names read from the same folder), for
 * fp_plan_check_all to take values out of. FP_ENOMEM. */
fp_status fp__spec_copy(fp_spec **out, const fp_spec *spec, fp_error *err);
/* Take the member at JSON pointer ptr out of spec, so that its default stands in; a list item
 * takes its whole list (taking one item out would renumber the rest). The pointer set aside
 * into aside (n bytes); returns its length, 0 when ptr names nothing in the spec (a default,
 * the root, not a pointer), which leaves the spec as it was. */
size_t fp__spec_set_aside(fp_spec *spec, const char *ptr, char *aside, size_t n);
/* Where ptr stands in the spec's text: the pre-order position of the member it names, or of
 * its nearest ancestor in the spec (0: the root, or not a pointer). Orders errors as the spec
 * reads. */
long fp__spec_position(const fp_spec *spec, const char *ptr);
/* Parse and check values (everything but the tier count and the ports per tier, which the
 * fabric stage sizes: fp__clos_size, driven by plan.c). */
fp_status fp__spec_resolve(fp_rspec *out, const fp_spec *spec, const fp_catalog *cat,
                           fp_error *err);
/* The checks of the spec that need the tier count the sizing chose (plan.c calls it after
 * fp__clos_size): no more switch models than tiers, no oversubscription above the top tier. */
fp_status fp__spec_check_tiers(const fp_rspec *rs, int tiers, fp_error *err);
/* The blocks given their size (fabric.leaf_servers, pod_servers, zone_servers; spec_fabric.c):
 * FP_EDESIGN at the key when a leaf's servers need more down ports than it has beside its up
 * links, or a pod (zone) holds more leaves (pods) than a tier-2 (tier-3) switch has down ports
 * (its switches reach every child: non-blocking inside it); FP_EINVAL when a pod is not whole
 * leaves (rail-optimized: whole scalable units) or a zone not whole pods. lps: leaves per
 * scalable unit (rail-optimized; the fabric stage's shape, fp__clos_size passes it). */
fp_status fp__spec_check_blocks(const fp_rspec *rs, int64_t lps, fp_error *err);
/* FP_EINVAL when a tier's switch has fewer than 4 usable ports at its link speed after the
 * reserve (too few for down and up links and a top that joins two blocks). */
fp_status fp__spec_check_ports(const fp_rspec *rs, fp_error *err);

#endif
