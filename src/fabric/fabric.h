/* fabplan — private: the fabric stage's result (clos.c builds it, names.c names its parts):
 * devices and links of every plane, and the shape of each tier. */
#ifndef FP_PRIVATE_FABRIC_FABRIC_H
#define FP_PRIVATE_FABRIC_FABRIC_H

#include "spec/resolved.h"

#define FP_MAX_NOTES 32

/* ---- sizing (clos_size.c): ports per switch at each tier ---- */
typedef struct fp_tier_size {
    int usable;             /* logical ports less the reserve */
    int down, up;           /* ports per switch for links down and up */
    int up_phys;            /* -1 when both sides split alike (logical port p sits in physical
                               port p / breakout); else the first physical port of the up side,
                               which starts on a cage of its own */
} fp_tier_size;

/* ---- fabric (clos.c) ---- */
typedef struct fp_device {
    int32_t pod, zone, su, index;   /* -1 when not applicable */
    int16_t rail;                   /* -1 when not a rail leaf */
    uint8_t tier, plane;
} fp_device;

typedef struct fp_link {
    int32_t a, z;                   /* device ids: a lower, z upper */
    int32_t a_port, z_port;         /* 0-based logical ports */
    uint8_t boundary, plane;
} fp_link;

/* Shape of one plane at one tier, computed by the sizing pass. */
typedef struct fp_level {
    int64_t blocks;         /* level-t blocks per plane (tier 1: leaves) */
    int64_t positions;      /* tier-t switches per level-t block (tier 1: 1) */
    int64_t children;       /* full number of level-(t-1) blocks in a level-t block (t >= 2) */
    int64_t switches;       /* tier-t switches per plane */
} fp_level;

/* The fabric stage's result. fp__clos_size fills the sizing (tiers, size[], tier_choice);
 * fp__clos_build the rest. Later stages read the sizing here, never in the resolved spec. */
typedef struct fp_fabric {
    int tiers, planes;
    fp_tier_size size[FP_MAX_TIERS];        /* [0] = leaf, as fp_rspec.tier[] */
    char tier_choice[320];                  /* why this tier count, for the summary */
    fp_device *dev;
    int64_t n_dev;
    fp_link *link;
    int64_t n_link;
    int64_t servers;
    int64_t tier_base[FP_MAX_TIERS + 1];    /* first device id of each tier (0 = servers) */
    int64_t boundary_base[FP_MAX_TIERS + 1];/* first link id of each boundary; [tiers] = n_link */
    fp_level level[FP_MAX_TIERS + 1];       /* [1..tiers] */
    /* The same for fabric.build_for_gpus (equal to level[] without it): names take their digit
     * widths from it, so a first phase names everything as the full build does. */
    fp_level design[FP_MAX_TIERS + 1];
    int64_t design_servers, design_su_count;
    /* Counts the other spread would build (per plane: switches per tier, links per boundary),
     * and what is built beyond the links' need: switches and links (all planes). */
    int64_t alt_switches[FP_MAX_TIERS + 1], alt_links[FP_MAX_TIERS + 1];
    int64_t extra_links[FP_MAX_TIERS + 1];
    int64_t su_count;                       /* rail-optimized: scalable units */
    int su_chosen;                          /* sizing: servers per scalable unit it chose when
                                               the spec left su_servers open (rs->su_auto) and
                                               the default did not fit; 0 otherwise */
    int leaves_per_su;                      /* rail-optimized: full SU */
    int servers_per_leaf;                   /* rail-optimized: servers on one rail leaf */
    int64_t ports_used[FP_MAX_TIERS + 1];   /* per tier, all planes */
    int64_t capacity_endpoints;             /* per plane */
    char notes[FP_MAX_NOTES][512];
    int n_notes;
    /* The 1-based number each link carries in ids (links.csv "L...", a cable's "C..." after its
     * first link): NULL when it is the link's index + 1. A first phase (fabric.build_for_gpus)
     * numbers its links as the plan for the target does (fp__fabric_number_as), so a cable
     * keeps its id when the later phases are built; link_numbers is then the numbers in use
     * (the target's links and any link the target does not have), else unused. */
    int64_t *link_num;
    int64_t link_numbers;
    /* A network's devices that are another network's (per device, n_dev entries; NULL when
     * none): hosts of an endpoint group counted "switches" (each switch's management port),
     * and the switches of an attached top tier. */
    struct fp_host_alias *alias;
    /* The tier (1-based) whose switches are another network's (spec uplink_to: the target's
     * top tier, every one of its devices an alias), 0 when the network has none: such a tier
     * has no switches, power or units of this network's, only its links and their ends. */
    int attached_tier;
} fp_fabric;

/* Device h of a network is device `dev` of network `net` (-1: the compute fabric; j: the
 * spec's network j, listed before it), named `name`; a host on its port `port` (the part's
 * management interface, fp_part_mgmt_port), a switch of an attached tier on the ports its links
 * give ("" here); dev -1 when h is a device of its own. */
typedef struct fp_host_alias {
    int32_t net;
    int64_t dev;
    char name[64];
    char port[16];
} fp_host_alias;

/* Device d of a network's fabric f is another network's device (fp_host_alias). */
static inline int fp__net_is_alias(const fp_fabric *f, int64_t d)
{
    return f->alias != NULL && d >= 0 && d < f->n_dev && f->alias[d].dev >= 0;
}

/* Switches of tier t (1-based) that are the fabric's own, every plane: none on a tier of
 * another network's switches (attached_tier). */
static inline int64_t fp__tier_own_switches(const fp_fabric *f, int t)
{
    return t == f->attached_tier ? 0 : f->level[t].switches * f->planes;
}

/* Largest number of endpoints per plane `tiers` tiers can hold with these settings (size[]
 * down/up must be set for that tier count). */
int64_t fp__clos_capacity(const fp_rspec *rs, const fp_tier_size *size, int tiers);
/* The first part of the fabric stage: clear *fab, pick the tier count (when auto), size the
 * tiers' down/up ports into fab->size[], and check the cluster fits. When the spec left the
 * scalable unit open (rs->su_auto) and its default does not fit under a tier-2 switch, the
 * largest unit that does is fab->su_chosen: the caller sets rs->su_servers to it before
 * fp__clos_build. */
fp_status fp__clos_size(fp_fabric *fab, const fp_rspec *rs, fp_error *err);
/* Clear *fab but for its sizing (tiers, size[], tier_choice), copied from `sized` (NULL: keep
 * fab's own): a fabric of another size built with the same switches and ports. */
void fp__clos_keep_sizing(fp_fabric *fab, const fp_fabric *sized);
/* Build devices and links into a fabric fp__clos_size sized. */
fp_status fp__clos_build(fp_fabric *fab, const fp_rspec *rs, fp_error *err);
void fp__fabric_free(fp_fabric *fab);

/* Physical port (0-based) and lane of logical port `port` on a switch of tier t (0 = leaf);
 * *ways is the split of that port (1 = whole). */
static inline int fp__switch_phys(const fp_fabric *fab, const fp_rspec *rs, int t, int port,
                                  int *lane, int *ways)
{
    const fp_tier_spec *ts = &rs->tier[t];
    const fp_tier_size *sz = &fab->size[t];
    int b = ts->breakout, base = 0;
    if (sz->up_phys >= 0 && port >= sz->down) {
        b = ts->breakout_up;
        port -= sz->down;
        base = sz->up_phys;
    }
    *ways = b;
    *lane = port % b;
    return base + port / b;
}

/* Logical ports of a switch of tier t (0 = leaf): the port numbers fp__switch_phys maps. Both
 * sides split alike: radix. Else the down side's `down` ports, then every physical port from
 * up_phys on (the rest of the front ports, and a part's uplink group) at the up side's split:
 * an SN2201 leaf's 48 RJ45 ports and its 4 QSFP28 uplinks are ports 0-47 and 48-51. */
static inline int fp__switch_ports(const fp_fabric *fab, const fp_rspec *rs, int t)
{
    const fp_tier_spec *ts = &rs->tier[t];
    const fp_tier_size *sz = &fab->size[t];
    if (sz->up_phys < 0)
        return ts->radix;
    int phys = ts->model.ports + (ts->model.uplink_ports > 0 ? ts->model.uplink_ports : 0);
    return sz->down + (phys - sz->up_phys) * ts->breakout_up;
}

/* ---- link numbers (names.c) ---- */

/* The 1-based number of link l in ids ("L0000042", and "C0000042" for the cable it is the first
 * link of). */
static inline int64_t fp__link_number(const fp_fabric *fab, int64_t l)
{
    return fab->link_num ? fab->link_num[l] : l + 1;
}

/* How many numbers the links use (the largest number): ids of another network's links follow. */
static inline int64_t fp__link_numbers(const fp_fabric *fab)
{
    return fab->link_num ? fab->link_numbers : fab->n_link;
}

/* The link numbered num, -1 when no link has that number. */
int64_t fp__link_by_number(const fp_fabric *fab, int64_t num);

/* Number fab's links (a first phase, rs) as target (the plan for fabric.build_for_gpus, trs)
 * numbers them: each link takes the number of the target's link from the same A end (device
 * name and port), so growing into the target keeps every installed cable's id; a link the
 * target lacks takes a number after the target's. Fills fab->link_num and link_numbers (freed
 * by fp__fabric_free). FP_ENOMEM on allocation failure. */
fp_status fp__fabric_number_as(fp_fabric *fab, const fp_rspec *rs, const fp_fabric *target,
                               const fp_rspec *trs, fp_error *err);

/* ---- names (names.c) ---- */
/* "server", "leaf", "spine", "core", "super-core" for tier 0 .. FP_MAX_TIERS; "switch" else. */
const char *fp__tier_role(int tier);
/* Device name ("su03-leaf-r5"); returns buf. */
char *fp__device_name(char *buf, size_t n, const fp_fabric *fab, const fp_rspec *rs, int64_t dev);
/* FP_EINVAL at /cluster/server_names when the longest server name the template makes for this
 * fabric has more than FP_SERVER_NAME_MAX characters (names that repeat: fp__nets_check_names). */
fp_status fp__server_names_check(const fp_fabric *fab, const fp_rspec *rs, fp_error *err);
/* THE name of port `port` (0-based logical port at link speed) of device dev: its part's
 * interface_names template ("swp17s0", "1/9/2") or the default ("nic3", "p17", "p17/2"). Every
 * output names ports through this function. buf needs FP_PORT_NAME_MAX bytes; returns buf. */
char *fp__port_name(char *buf, size_t n, const fp_fabric *fab, const fp_rspec *rs, int64_t dev,
                    int port);
/* Breakout lane (1-based) of the port, 0 when the port is not split. */
int fp__port_lane(const fp_fabric *fab, const fp_rspec *rs, int64_t dev, int port);
/* 1 when the fabric runs InfiniBand (every part speaks only InfiniBand: QM9700, Q3400), 0 for
 * Ethernet (parts that speak only Ethernet, or both, as inline parts do by default). */
int fp__fabric_infiniband(const fp_rspec *rs);

/* InfiniBand port number of port `port` of device dev, as a subnet manager and ibnetdiscover
 * number it: 1 on a server (each of its fabric ports is an HCA of its own, `mlx5_<port>`); on a
 * switch W x (physical port - 1) + lane, W the widest split of its tier (1 when no port is
 * split: the catalog's front-port number, 2 x (cage - 1) + sub on a QM9700). */
int fp__ib_port_number(const fp_fabric *fab, const fp_rspec *rs, int64_t dev, int port);
/* A link of gbps as ibnetdiscover prints its width and speed ("4xNDR" for 400, "4xHDR" for
 * 200, "4xXDR" for 800; 4x, then 2x, 1x, 8x, 12x lanes of a known speed): "4x?" when no width
 * and speed give gbps. Returns buf. */
const char *fp__ib_link_text(int gbps, char *buf, size_t n);
/* Parse "4xNDR" (or the -p form "4x NDR") in s[0..len): 1 with the lane count and the lane rate
 * in Mb/s, 0 when it is not a width and a known speed. */
int fp__ib_link_parse(const char *s, size_t len, int *width, int *mbps);

/* "nic-leaf", "leaf-spine", ... for boundary b (0 = NIC-leaf). Returns buf. */
const char *fp__boundary_name(int boundary, char *buf, size_t n);

#endif
