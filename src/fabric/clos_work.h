/* fabplan — private to the Clos builder (clos_size.c sizes, clos_tree.c lays out the block tree,
 * clos.c builds devices and links): the rail-optimized leaf shape, the uplink rule and the
 * switch lists of the block tree. */
#ifndef FP_PRIVATE_FABRIC_CLOS_WORK_H
#define FP_PRIVATE_FABRIC_CLOS_WORK_H

#include <math.h>
#include "fabric/fabric.h"

static inline int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Rail-optimized leaf shape: leaves per rail per full SU, servers per leaf, leaves per SU.
 * Every leaf serves one rail (rail-aligned, as NVIDIA's SuperPOD RAs build them): 144 servers
 * on 32-port-down leaves are 5 leaves per rail of 29 servers. With fabric.rail_leaves "shared"
 * (rs->rail_shared), when a rail's servers leave a fraction of a leaf and the rails together
 * need fewer whole leaves than one set per rail (4 x 144 / 32 = 18 leaves, not 4 x 5 = 20),
 * the leaves are shared: the SU's NIC ports are laid out rail after rail and cut every
 * leaf_down_max ports, so a leaf can end one rail and begin the next. Only when a rail already
 * spans several leaves: a rail that fits one leaf keeps it to itself. */
typedef struct fp_rail_shape {
    int lpr, per_leaf, lps, shared;
} fp_rail_shape;

static inline fp_rail_shape rail_shape_of(const fp_rspec *rs, int leaf_down_max)
{
    fp_rail_shape r;
    int eps = rs->endpoints_per_server;
    r.lpr = (int)ceil_div(rs->su_servers, leaf_down_max);
    r.per_leaf = (int)ceil_div(rs->su_servers, r.lpr);
    r.lps = eps * r.lpr;
    r.shared = 0;
    if (eps > 1 && r.lpr > 1 && rs->su_servers % leaf_down_max != 0) {
        int lps = (int)ceil_div((int64_t)eps * rs->su_servers, leaf_down_max);
        if (lps < r.lps && rs->rail_shared) {
            r.lps = lps;
            r.per_leaf = leaf_down_max;
            r.shared = 1;
        }
    }
    return r;
}

/* Rail-aligned: NIC ports on leaf k (0-based in its SU) of a full unit, its rail's su_servers
 * laid over the rail's lpr leaves per_leaf at a time (144 on 29, 29, 29, 29, 28). */
static inline int64_t rail_full_load(const fp_rail_shape *r, int64_t su_servers, int64_t k)
{
    int64_t e = su_servers - (k % r->lpr) * r->per_leaf;
    return e < 0 ? 0 : e > r->per_leaf ? r->per_leaf : e;
}

/* Shared rails: NIC ports on leaf k (0-based in its SU) when the SU has in_su servers; leaf k
 * takes ports [k x per_leaf, (k + 1) x per_leaf) of the SU laid out rail after rail. */
static inline int64_t shared_load(const fp_rail_shape *r, int eps, int64_t su_servers, int64_t k,
                                  int64_t in_su)
{
    int64_t lo = k * r->per_leaf, hi = lo + r->per_leaf, n = 0;
    for (int rail = 0; rail < eps; rail++) {
        int64_t a = (int64_t)rail * su_servers, b = a + in_su;
        int64_t x = a > lo ? a : lo, y = b < hi ? b : hi;
        n += y > x ? y - x : 0;
    }
    return n;
}

/* Units (rail leaves) of `servers` hosts: with rs->fill_cap, as fp__fill_slot places them. */
static inline int64_t rail_units(const fp_rspec *rs, int64_t servers)
{
    int64_t unit = 0, port = 0, S = servers < rs->fill_from ? servers : rs->fill_from;
    if (rs->fill_cap <= 0 || servers <= 0)
        return ceil_div(servers, rs->su_servers);
    /* The servers' units, and those the extra endpoints need beyond them (the last host's:
     * extras fill earlier units first, so it is the largest only when they outgrow them). */
    fp__fill_slot(rs, servers - 1, &unit, &port);
    return unit + 1 > ceil_div(S, rs->su_servers) ? unit + 1 : ceil_div(S, rs->su_servers);
}

/* Endpoints (NIC ports of one plane) under one level-t block and the level-(t-1) blocks it
 * holds (2 <= t below the top; t = 1: a leaf, no children). The one rule for pods and zones: a
 * block holds as many child blocks as a tier-t switch has down ports (a rail-optimized pod: the
 * whole scalable units whose leaves they reach), unless the spec gives the block's servers
 * (fabric.pod_servers, zone_servers: rs->block_servers[t], checked by the spec stage to be
 * whole child blocks within those down ports). lps: leaves per scalable unit. */
static inline int64_t block_children(const fp_rspec *rs, const fp_tier_size *size, int t,
                                     int64_t lps, int64_t *endpoints)
{
    const int64_t eps = rs->endpoints_per_server;
    const int rail = rs->topology == FP_TOPO_RAIL;
    int64_t e = rail ? (int64_t)rs->su_servers * eps : size[0].down, ch = 0;
    for (int k = 2; k <= t; k++) {
        if (k == 2 && rail)
            ch = rs->block_servers[2] > 0 ? rs->block_servers[2] / rs->su_servers * lps
                                          : size[1].down / lps * lps;
        else
            ch = rs->block_servers[k] > 0 ? rs->block_servers[k] * eps / e : size[k - 1].down;
        e = k == 2 && rail ? ch / lps * e : ch * e;
    }
    if (endpoints)
        *endpoints = t == 1 && rail ? 0 : e;
    return ch;
}

/* Up links a tier-t switch needs for d down links (fp__up_for, resolved.h). */
static inline int up_for(const fp_rspec *rs, int t, int d)
{
    return fp__up_for(rs, t, d);
}

/* ---- the block tree ----
 *
 * Sizing works on one plane (planes are copies) as lists of switches per tier, block by block.
 * Each level-t block's tier-(t-1) switches at the same position form a group; a group gets the
 * upper switches its uplinks need:
 *   balanced: n = ceil(uplinks / down ports); uplink g of the group (counted in member order)
 *             goes to upper switch g mod n, so a member's links to its upper switches differ by
 *             at most one and every upper switch takes at most ceil(uplinks / n).
 *   even:     n = the smallest divisor of the tier's uplink count U that can take the uplinks;
 *             a full member has U/n links to each of the n. A member with fewer uplinks u
 *             (partial block) has m = ceil(u/n) links to each of ceil(u/m) upper switches,
 *             starting where the previous member of its group stopped.
 * Members are taken in child order and upper ports in arrival order, so a block that gains
 * children later (growth) leaves every existing link where it was. */

typedef struct fp_sw_list {
    int64_t n, cap;
    int64_t *blk;       /* level-t block of each switch */
    int32_t *pos;       /* position inside its block */
    int32_t *load;      /* links down (leaves: endpoints) */
    int32_t *up;        /* uplinks built */
    int64_t *upoff;     /* first uplink of each switch in tgt/tport; [n] = all uplinks */
    int32_t *tgt;       /* per uplink: the upper switch (index into the next tier's list) */
    int32_t *tport;     /* per uplink: its port number among the upper switch's down ports */
    int64_t blocks;
    int64_t *first;     /* first switch of each block; [blocks] = n */
    /* groups of this tier's switches, per block (set when the tier is built from the one
     * below): first group of each block, and each group's first switch offset and size */
    int64_t *gq_first;
    int32_t *gq_base, *gq_n;
    int64_t n_gq;
    int merged;         /* the top tier as one group over every switch below (no tier beyond
                           need: the groups per position would build more) */
    int64_t per_position;   /* merged: the switches groups per position would have built */
    int64_t min_links;      /* merged: the fewest that carry the links, ceil(links / down) */
} fp_sw_list;

typedef struct fp_clos_shape {
    fp_sw_list bt[FP_MAX_TIERS + 1];    /* switches built */
    fp_sw_list ds[FP_MAX_TIERS + 1];    /* the same for build_for_gpus (the design) */
    int64_t children[FP_MAX_TIERS + 1];
    int64_t need[FP_MAX_TIERS + 1];     /* switches the links need (balanced count), built tiers */
    int64_t extra_links[FP_MAX_TIERS + 1]; /* links beyond need (even rounding), per boundary */
    int designed[FP_MAX_TIERS + 1];     /* tier built for the design size */
} fp_clos_shape;

typedef struct fp_clos_ctx {
    const fp_rspec *rs;
    fp_fabric *fab;
    fp_rail_shape r;
    int64_t n_su;           /* rail-optimized: scalable units present */
    int64_t sus_per_pod;    /* rail-optimized, tiers >= 3 */
    int64_t children[FP_MAX_TIERS + 1];   /* full level-(t-1) blocks per level-t block */
    int32_t *scratch;       /* loads of one group's upper switches (even), U + 1 entries */
} fp_clos_ctx;

/* Switch lists of every tier for the servers present (bt) and for build_for_gpus (ds). 0 when
 * out of memory. */
int fp__clos_shape_make(fp_clos_ctx *c, int spread, int64_t servers, int64_t dservers,
                        fp_clos_shape *sh);
void fp__clos_shape_free(fp_clos_shape *sh);
/* Most switches any block of the list has. */
int64_t fp__clos_max_positions(const fp_sw_list *l);

#endif
