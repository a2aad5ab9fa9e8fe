/* fabplan — the one folded-Clos builder.
 *
 * A fabric of L switch tiers is built bottom-up from blocks. A level-1 block is one leaf. A
 * level-t block (2 <= t < L) holds as many level-(t-1) blocks as a tier-t switch has down
 * ports (rail-optimized: as many whole scalable units as fit), plus its tier-t switches; the
 * top tier joins all level-(L-1) blocks of a plane. Inside a block, the tier-(t-1) switches
 * that sit at the same position in every child block form a group, and each group gets its own
 * n tier-t switches; every lower switch has the same number of links (u/n) to each of them.
 * n is the fewest switches whose down ports can take the group's uplinks and that divide
 * each lower switch's uplinks evenly. Fat-tree and rail-optimized are parameter sets of this:
 * fat-tree is 3 tiers of one radix at 1:1; rail-optimized changes only how NICs reach leaves. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "fabric/fabric.h"
#include "util/text.h"

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Rail-optimized leaf shape: leaves per rail per full SU, servers per leaf, leaves per SU. */
/* When a rail's servers leave a fraction of a leaf (144 servers on 32-port-down leaves: 4.5
 * leaves per rail) and the rails together need fewer whole leaves than one set per rail
 * (4 x 144 / 32 = 18 leaves, not 4 x 5 = 20), the leaves are shared: the SU's NIC ports are
 * laid out rail after rail and cut every leaf_down_max ports, so a leaf can end one rail and
 * begin the next. Only when a rail already spans several leaves: a rail that fits one leaf
 * keeps it to itself. */
typedef struct rail_shape {
    int lpr, per_leaf, lps, shared;
} rail_shape;

static rail_shape rail_shape_of(const fp_rspec *rs, int leaf_down_max)
{
    rail_shape r;
    int eps = rs->endpoints_per_server;
    r.lpr = (int)ceil_div(rs->su_servers, leaf_down_max);
    r.per_leaf = (int)ceil_div(rs->su_servers, r.lpr);
    r.lps = eps * r.lpr;
    r.shared = 0;
    if (eps > 1 && r.lpr > 1 && rs->su_servers % leaf_down_max != 0) {
        int lps = (int)ceil_div((int64_t)eps * rs->su_servers, leaf_down_max);
        if (lps < r.lps) {
            r.lps = lps;
            r.per_leaf = leaf_down_max;
            r.shared = 1;
        }
    }
    return r;
}

/* Shared rails: NIC ports on leaf k (0-based in its SU) when the SU has in_su servers; leaf k
 * takes ports [k x per_leaf, (k + 1) x per_leaf) of the SU laid out rail after rail. */
static int64_t shared_load(const rail_shape *r, int eps, int64_t su_servers, int64_t k,
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

/* Up links a switch needs for d down links at its ratio: the ratio is of bandwidth (down Gb/s :
 * up Gb/s), so faster uplinks need fewer of them. */
static int up_for(const fp_tier_spec *ts, int d)
{
    if (d <= 0)
        return 0;
    return (int)ceil((double)d * ts->gbps_down / ((double)ts->gbps_up * ts->oversub) - 1e-9);
}

/* Down and up ports per switch for an L-tier fabric. When both sides split their physical ports
 * alike, down + up logical ports must fit the usable ones; when they differ (400G down, 800G up
 * on an 800G switch), each side takes whole cages and the cages must fit. */
static void size_ports(fp_rspec *rs, int tiers)
{
    for (int t = 0; t < tiers; t++) {
        fp_tier_spec *ts = &rs->tier[t];
        ts->usable = (int)floor(ts->radix * (1.0 - rs->reserve) + 1e-9);
        ts->oversub = rs->oversub[t];
        ts->up_phys = -1;
        if (t == tiers - 1) {
            ts->down = ts->usable;
            ts->up = 0;
            continue;
        }
        int d = ts->usable;
        if (ts->breakout_up == ts->breakout) {
            while (d > 0 && d + up_for(ts, d) > ts->usable)
                d--;
        } else if (ts->breakout_up > 0) {
            int cages = ts->model.ports / ts->per_cage;
            int usable_cages = (int)floor(cages * (1.0 - rs->reserve) + 1e-9);
            int kd = ts->per_cage * ts->breakout, ku = ts->per_cage * ts->breakout_up;
            d = usable_cages * kd;
            while (d > 0 && ceil_div(d, kd) + ceil_div(up_for(ts, d), ku) > usable_cages)
                d--;
        } else {
            d = 0;
        }
        ts->down = d;
        ts->up = up_for(ts, d);
    }
    if (rs->topology == FP_TOPO_RAIL && rs->tier[0].down > 0) {
        rail_shape r = rail_shape_of(rs, rs->tier[0].down);
        rs->tier[0].down = r.per_leaf;
        rs->tier[0].up = up_for(&rs->tier[0], r.per_leaf);
    }
    /* Where the up side starts when it splits differently: on the first whole cage after the
     * down side. */
    for (int t = 0; t < tiers - 1; t++) {
        fp_tier_spec *ts = &rs->tier[t];
        if (ts->breakout_up != ts->breakout && ts->breakout_up > 0)
            ts->up_phys = (int)ceil_div(ts->down, (int64_t)ts->per_cage * ts->breakout) * ts->per_cage;
    }
}

/* a * b for non-negative a and b, held at FP_CAPACITY_MAX rather than overflowing (a 4,096-port
 * switch split 250 ways has a radix near 10^6, and four tiers of it exceed 2^63). */
#define FP_CAPACITY_MAX ((int64_t)1 << 53)
static int64_t sat_mul(int64_t a, int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    if (a > FP_CAPACITY_MAX / b)
        return FP_CAPACITY_MAX;
    return a * b;
}

int64_t fp__clos_capacity(const fp_rspec *rs, int tiers)
{
    int64_t eps = rs->endpoints_per_server, cap;
    if (tiers < 2)
        return 0;
    for (int t = 0; t < tiers; t++)
        if (rs->tier[t].down < 1 || (t < tiers - 1 && rs->tier[t].up < 1))
            return 0;
    if (rs->topology == FP_TOPO_RAIL) {
        rail_shape r = rail_shape_of(rs, rs->tier[0].down);
        int64_t su_endpoints = (int64_t)rs->su_servers * eps;
        cap = sat_mul(rs->tier[1].down / r.lps, su_endpoints);
        for (int t = 2; t < tiers; t++)
            cap = sat_mul(cap, rs->tier[t].down);
        return cap;
    }
    cap = 1;
    for (int t = 0; t < tiers; t++)
        cap = sat_mul(cap, rs->tier[t].down);
    return cap;
}

static int64_t endpoints_to_gpus(const fp_rspec *rs, int64_t endpoints)
{
    return endpoints / rs->endpoints_per_server * rs->gpus_per_server;
}

/* "64-port switches at 1:1" style description for messages. */
static void describe(char *buf, size_t n, const fp_rspec *rs, int tiers)
{
    size_t k = 0;
    int same = 1, all_one = 1;
    for (int t = 1; t < tiers; t++)
        if (rs->tier[t].radix != rs->tier[0].radix)
            same = 0;
    for (int t = 0; t < tiers - 1; t++)
        if (rs->oversub[t] != 1.0)
            all_one = 0;
    if (same) {
        k += (size_t)snprintf(buf + k, n - k, "%d-port", rs->tier[0].radix);
        if (rs->tier[0].breakout > 1)
            k += (size_t)snprintf(buf + k, n - k, " (%d x %dG split %d ways)", rs->tier[0].model.ports,
                                  rs->tier[0].model.port_gbps, rs->tier[0].breakout);
        k += (size_t)snprintf(buf + k, n - k, " switches");
    } else {
        k += (size_t)snprintf(buf + k, n - k, "switches of ");
        for (int t = 0; t < tiers; t++)
            k += (size_t)snprintf(buf + k, n - k, "%s%d", t ? "/" : "", rs->tier[t].radix);
        k += (size_t)snprintf(buf + k, n - k, " ports (leaf first)");
    }
    if (all_one) {
        k += (size_t)snprintf(buf + k, n - k, " at 1:1");
    } else {
        k += (size_t)snprintf(buf + k, n - k, " at ");
        for (int t = 0; t < tiers - 1; t++) {
            char ratio[32];
            k += (size_t)snprintf(buf + k, n - k, "%s%s", t ? "/" : "",
                                  fp_ratio_text(rs->oversub[t], ratio, sizeof ratio));
        }
    }
    if (rs->reserve > 0)
        k += (size_t)snprintf(buf + k, n - k, " with %g%% of ports reserved", rs->reserve * 100);
    if (rs->topology == FP_TOPO_RAIL && k < n)
        snprintf(buf + k, n - k, " in %d-server scalable units", rs->su_servers);
}

static void describe_demand(char *buf, size_t n, const fp_rspec *rs, int64_t endpoints)
{
    if (rs->endpoints_per_server == rs->gpus_per_server && rs->gpus % rs->gpus_per_server == 0)
        snprintf(buf, n, "%lld GPUs", (long long)rs->gpus);
    else
        snprintf(buf, n, "%lld GPUs (%lld endpoints per plane)", (long long)rs->gpus,
                 (long long)endpoints);
}

/* Rail-optimized: a scalable unit needs more leaves than one tier-2 switch reaches, so no
 * tier count holds even one SU (the capacity is 0). */
static int su_too_big(const fp_rspec *rs)
{
    return rs->topology == FP_TOPO_RAIL && rs->tier[0].down > 0 &&
           rs->tier[1].down < rail_shape_of(rs, rs->tier[0].down).lps;
}

static fp_status su_error(const fp_rspec *rs, fp_error *err)
{
    FP_FAIL(err, FP_EDESIGN, "/fabric/su_servers",
            "/fabric/su_servers: a %d-server scalable unit needs %d leaves, more than the %d a pod's spines can reach%s; use a smaller su_servers%s",
            rs->su_servers, rail_shape_of(rs, rs->tier[0].down).lps, rs->tier[1].down,
            rs->reserve > 0 ? " after the reserve" : "", rs->reserve > 0 ? " or a smaller reserve" : "");
}

fp_status fp__clos_size(fp_rspec *rs, fp_error *err)
{
    /* With build_for_gpus the tiers are chosen for that size (the upper tiers are built for it). */
    int64_t servers = ceil_div(rs->gpus, rs->gpus_per_server) + rs->spare_servers;
    if (rs->build_for_gpus > rs->gpus) {
        int64_t ds = ceil_div(rs->build_for_gpus, rs->gpus_per_server);
        servers = ds + (int64_t)ceil((double)ds * rs->phys.spare_servers - 1e-9);
    }
    int64_t need = servers * rs->endpoints_per_server, cap = 0;
    char what[200], demand[96];
    int chosen = 0;

    describe_demand(demand, sizeof demand, rs, need);
    /* Fewer than 4 ports cannot give a tier both down and up links and a top that joins two
     * blocks; say so rather than report a capacity of 0. */
    for (int t = 0; t < FP_MAX_TIERS; t++) {
        int usable = (int)floor(rs->tier[t].radix * (1.0 - rs->reserve) + 1e-9);
        if (usable < 4)
            FP_FAIL(err, FP_EINVAL, "/fabric/switch",
                    "/fabric/switch: %s has %d usable port%s at %dG%s; a folded-Clos switch needs at least 4",
                    rs->tier[t].model.id, usable, usable == 1 ? "" : "s", rs->link_gbps,
                    rs->reserve > 0 ? " after the reserve" : "");
    }
    if (rs->tiers_auto) {
        int64_t prev_cap = 0;
        for (int L = 2; L <= FP_MAX_TIERS; L++) {
            size_ports(rs, L);
            cap = fp__clos_capacity(rs, L);
            if (cap >= need) {
                chosen = L;
                describe(what, sizeof what, rs, L);
                if (L == 2)
                    snprintf(rs->tier_choice, sizeof rs->tier_choice,
                             "%s fit in 2 tiers (maximum %lld GPUs for %s); using 2 tiers", demand,
                             (long long)endpoints_to_gpus(rs, cap), what);
                else {
                    size_ports(rs, L - 1);
                    describe(what, sizeof what, rs, L - 1);
                    snprintf(rs->tier_choice, sizeof rs->tier_choice,
                             "%s exceed the %d-tier maximum of %lld for %s; using %d tiers", demand,
                             L - 1, (long long)endpoints_to_gpus(rs, prev_cap), what, L);
                    size_ports(rs, L);
                }
                break;
            }
            prev_cap = cap;
        }
        if (!chosen) {
            describe(what, sizeof what, rs, FP_MAX_TIERS);
            if (cap == 0 && su_too_big(rs))
                return su_error(rs, err);
            FP_FAIL(err, FP_EDESIGN, "/cluster/gpus",
                    "/cluster/gpus: %s exceed the %d-tier maximum of %lld GPUs for %s; use switches with more ports, more oversubscription or more planes",
                    demand, FP_MAX_TIERS, (long long)endpoints_to_gpus(rs, cap), what);
        }
        rs->tiers = chosen;
        rs->tiers_auto = 1;
    } else {
        size_ports(rs, rs->tiers);
        cap = fp__clos_capacity(rs, rs->tiers);
        describe(what, sizeof what, rs, rs->tiers);
        if (cap < need) {
            if (rs->tiers >= 3 && cap == 0 && su_too_big(rs))
                return su_error(rs, err);
            FP_FAIL(err, FP_EDESIGN, "/fabric/tiers",
                    "/fabric/tiers: %s exceed the %d-tier maximum of %lld GPUs for %s; use more tiers or \"auto\"",
                    demand, rs->tiers, (long long)endpoints_to_gpus(rs, cap), what);
        }
        if (rs->tier_choice[0] == '\0')
            snprintf(rs->tier_choice, sizeof rs->tier_choice,
                     "%d tiers as given (maximum %lld GPUs for %s)", rs->tiers,
                     (long long)endpoints_to_gpus(rs, cap), what);
    }
    if (rs->n_models > rs->tiers)
        FP_FAIL(err, FP_EINVAL, "/fabric/switch",
                "/fabric/switch: %d switch models given, but the fabric has %d tiers", rs->n_models,
                rs->tiers);
    /* Extra 1:1 entries are harmless (a spec written for "auto" cannot know the tier count). */
    for (int t = rs->tiers - 1; t < rs->n_oversub; t++) {
        char ratio[32];
        if (rs->oversub[t] != 1.0)
            FP_FAIL(err, FP_EINVAL, "/fabric/oversubscription",
                    "/fabric/oversubscription/%d: %s given for tier %d, but a %d-tier fabric has uplinks only at tiers 1 to %d",
                    t, fp_ratio_text(rs->oversub[t], ratio, sizeof ratio), t + 1, rs->tiers,
                    rs->tiers - 1);
    }
    return FP_OK;
}

static void add_note(fp_fabric *fab, const char *fmt, ...) FP_PRINTF(2, 3);
static void add_note(fp_fabric *fab, const char *fmt, ...)
{
    va_list ap;
    if (fab->n_notes >= FP_MAX_NOTES)
        return;
    va_start(ap, fmt);
    vsnprintf(fab->notes[fab->n_notes++], sizeof fab->notes[0], fmt, ap);
    va_end(ap);
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

typedef struct sw_list {
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
} sw_list;

typedef struct shape {
    sw_list bt[FP_MAX_TIERS + 1];   /* switches built */
    sw_list ds[FP_MAX_TIERS + 1];   /* the same for build_for_gpus (the design) */
    int64_t children[FP_MAX_TIERS + 1];
    int64_t need[FP_MAX_TIERS + 1];     /* switches the links need (balanced count), built tiers */
    int64_t extra_links[FP_MAX_TIERS + 1]; /* links beyond need (even rounding), per boundary */
    int designed[FP_MAX_TIERS + 1];     /* tier built for the design size */
} shape;

typedef struct build_ctx {
    const fp_rspec *rs;
    fp_fabric *fab;
    rail_shape r;
    int64_t n_su;           /* rail-optimized: scalable units present */
    int64_t sus_per_pod;    /* rail-optimized, tiers >= 3 */
    int64_t children[FP_MAX_TIERS + 1];   /* full level-(t-1) blocks per level-t block */
    int32_t *scratch;       /* loads of one group's upper switches (even), U + 1 entries */
} build_ctx;

/* One member of a group: a switch's links into the group. A switch of a child block that has
 * a switch at every position of the group's block gives all its uplinks to the group of its
 * position (x = 0, 1, ...); the switches of a smaller child (a partial pod or zone) deal their
 * uplinks over every group of the block, so each group carries its share of that child's
 * traffic (x = r, r + P, ...) and the bisection stays whole. */
typedef struct bundle {
    int64_t sw;
    int32_t k;          /* links */
    int32_t r, stride;  /* the member's uplink numbers: r, r + stride, ... */
    int regular;
} bundle;

static void list_free(sw_list *l)
{
    free(l->blk);
    free(l->pos);
    free(l->load);
    free(l->up);
    free(l->upoff);
    free(l->tgt);
    free(l->tport);
    free(l->first);
    free(l->gq_first);
    free(l->gq_base);
    free(l->gq_n);
    memset(l, 0, sizeof *l);
}

static void shape_free(shape *sh)
{
    for (int t = 0; t <= FP_MAX_TIERS; t++) {
        list_free(&sh->bt[t]);
        list_free(&sh->ds[t]);
    }
}

static int list_alloc(sw_list *l, int64_t n, int64_t blocks, int64_t groups)
{
    memset(l, 0, sizeof *l);
    l->cap = n > 0 ? n : 1;
    l->blk = calloc((size_t)l->cap, sizeof *l->blk);
    l->pos = calloc((size_t)l->cap, sizeof *l->pos);
    l->load = calloc((size_t)l->cap, sizeof *l->load);
    l->up = calloc((size_t)l->cap, sizeof *l->up);
    l->upoff = calloc((size_t)l->cap + 1, sizeof *l->upoff);
    l->first = calloc((size_t)blocks + 1, sizeof *l->first);
    l->gq_first = calloc((size_t)blocks + 1, sizeof *l->gq_first);
    l->gq_base = calloc((size_t)(groups > 0 ? groups : 1), sizeof *l->gq_base);
    l->gq_n = calloc((size_t)(groups > 0 ? groups : 1), sizeof *l->gq_n);
    l->blocks = blocks;
    return l->blk && l->pos && l->load && l->up && l->upoff && l->first &&
           l->gq_first && l->gq_base && l->gq_n;
}

static int list_copy(sw_list *dst, const sw_list *src)
{
    if (!list_alloc(dst, src->n, src->blocks, src->n_gq))
        return 0;
    dst->n = src->n;
    memcpy(dst->blk, src->blk, sizeof *dst->blk * (size_t)src->n);
    memcpy(dst->pos, src->pos, sizeof *dst->pos * (size_t)src->n);
    memcpy(dst->load, src->load, sizeof *dst->load * (size_t)src->n);
    memcpy(dst->up, src->up, sizeof *dst->up * (size_t)src->n);
    memcpy(dst->first, src->first, sizeof *dst->first * (size_t)(src->blocks + 1));
    memcpy(dst->gq_first, src->gq_first, sizeof *dst->gq_first * (size_t)(src->blocks + 1));
    memcpy(dst->gq_base, src->gq_base, sizeof *dst->gq_base * (size_t)(src->n_gq ? src->n_gq : 1));
    memcpy(dst->gq_n, src->gq_n, sizeof *dst->gq_n * (size_t)(src->n_gq ? src->n_gq : 1));
    dst->n_gq = src->n_gq;
    return 1;
}

/* Leaves for `servers` servers: endpoints and uplinks of each. */
static int leaves_make(sw_list *lv, const build_ctx *c, int64_t servers)
{
    const fp_rspec *rs = c->rs;
    const int eps = rs->endpoints_per_server;
    const fp_tier_spec *t0 = &rs->tier[0];
    int64_t n;
    if (rs->topology == FP_TOPO_RAIL) {
        int64_t n_su = ceil_div(servers, rs->su_servers);
        n = n_su * c->r.lps;
        if (!list_alloc(lv, n, n, 0))
            return 0;
        for (int64_t l = 0; l < n; l++) {
            int64_t su = l / c->r.lps, k = l % c->r.lps;
            int64_t in_su = su == n_su - 1 ? servers - su * rs->su_servers : rs->su_servers;
            int64_t e = in_su - (k % c->r.lpr) * c->r.per_leaf;
            e = e < 0 ? 0 : e > c->r.per_leaf ? c->r.per_leaf : e;
            if (c->r.shared)
                e = shared_load(&c->r, rs->endpoints_per_server, rs->su_servers, k, in_su);
            lv->load[l] = (int32_t)e;
            /* A partial SU keeps its full leaves and leaf-spine cables (SuperPOD RA). */
            lv->up[l] = t0->up;
        }
    } else {
        int64_t E = servers * eps;
        n = ceil_div(E, t0->down);
        if (!list_alloc(lv, n, n, 0))
            return 0;
        for (int64_t l = 0; l < n; l++) {
            int64_t e = E - l * t0->down;
            e = e > t0->down ? t0->down : e;
            lv->load[l] = (int32_t)e;
            lv->up[l] = (int32_t)up_for(t0, (int)e);   /* bandwidth ratio, per-side speeds */
        }
    }
    lv->n = n;
    for (int64_t l = 0; l <= n; l++)
        lv->first[l] = l;
    return 1;
}

/* Divisor of U at or above lo, or 0. */
static int64_t next_divisor(int64_t U, int64_t lo)
{
    for (int64_t n = lo < 1 ? 1 : lo; n <= U; n++)
        if (U % n == 0)
            return n;
    return 0;
}

/* Even spread: a member with k links has m = ceil(k/n) links to each of ceil(k/m) upper
 * switches, starting where the previous member stopped. */
static void even_shape(int64_t k, int64_t n, int64_t *m, int64_t *cnt)
{
    *m = k > 0 ? ceil_div(k, n) : 1;
    *cnt = k > 0 ? ceil_div(k, *m) : 0;
}

/* The largest load on n upper switches when the members spread evenly. */
static int64_t even_load(build_ctx *c, const bundle *mb, int64_t k, int64_t n)
{
    int64_t s = 0, max = 0;
    memset(c->scratch, 0, sizeof *c->scratch * (size_t)n);
    for (int64_t i = 0; i < k; i++) {
        int64_t m, cnt, left = mb[i].k;
        even_shape(mb[i].k, n, &m, &cnt);
        if (mb[i].regular)
            left = m * cnt;     /* a whole member is rounded up to m links per switch */
        for (int64_t j = 0; j < cnt; j++, left -= m)
            c->scratch[(s + j) % n] += (int32_t)(left < m ? left : m);
        s = (s + cnt) % n;
    }
    for (int64_t j = 0; j < n; j++)
        max = c->scratch[j] > max ? c->scratch[j] : max;
    return max;
}

/* Upper switches for one group: down ports d, full uplink count U of the lower tier. */
static int64_t group_size(build_ctx *c, int spread, const bundle *mb, int64_t k, int64_t d,
                          int64_t U)
{
    int64_t S = 0, n;
    for (int64_t i = 0; i < k; i++)
        S += mb[i].k;
    n = ceil_div(S, d);
    if (n < 1)
        n = 1;
    if (spread == FP_SPREAD_BALANCED)
        return n;
    for (int64_t e = next_divisor(U, n); e > 0; e = next_divisor(U, e + 1))
        if (even_load(c, mb, k, e) <= d)
            return e;
    return n > U ? n : U;
}

/* Members of group q (of P) of a block whose children are lower blocks cb0..cb1-1. inv[q]: the
 * group's turn in the order a smaller child deals its uplinks. */
static int64_t gather(bundle *mb, const sw_list *lo, int64_t cb0, int64_t cb1, int64_t q,
                      int64_t P, const int64_t *inv)
{
    int64_t k = 0;
    for (int64_t b = cb0; b < cb1; b++) {
        int64_t pb = lo->first[b + 1] - lo->first[b];
        if (pb >= P) {
            int64_t sw = lo->first[b] + q;
            mb[k++] = (bundle){ sw, lo->up[sw], 0, 1, 1 };
            continue;
        }
        int64_t off = 0;
        for (int64_t sw = lo->first[b]; sw < lo->first[b + 1]; sw++) {
            int64_t u = lo->up[sw], r = ((inv[q] - off) % P + P) % P;
            if (r < u)
                mb[k++] = (bundle){ sw, (int32_t)((u - 1 - r) / P + 1), (int32_t)r, (int32_t)P, 0 };
            off += u;
        }
    }
    return k;
}

/* The order in which a smaller child deals its uplinks over the P groups of block beta: the
 * first switch of every lower group, then the second of each, ... so that a few uplinks reach
 * as many different positions below as they can. inv[q] is group q's turn. Identity when no
 * child of the block has all P positions. */
static void deal_order(int64_t *inv, const sw_list *lo, int64_t cb0, int64_t cb1, int64_t P)
{
    int64_t ref = -1, turn = 0;
    for (int64_t q = 0; q < P; q++)
        inv[q] = q;
    for (int64_t b = cb0; b < cb1 && ref < 0; b++)
        if (lo->first[b + 1] - lo->first[b] == P)
            ref = b;
    if (ref < 0 || lo->gq_first == NULL || lo->n_gq == 0)
        return;
    int64_t g0 = lo->gq_first[ref], g1 = lo->gq_first[ref + 1], most = 0;
    for (int64_t g = g0; g < g1; g++)
        most = lo->gq_n[g] > most ? lo->gq_n[g] : most;
    for (int64_t i = 0; i < most; i++)
        for (int64_t g = g0; g < g1; g++)
            if (i < lo->gq_n[g] && lo->gq_base[g] + i < P)
                inv[lo->gq_base[g] + i] = turn++;
}

/* Build tier t's list hi from tier t-1's list lo, sizing every group; or, with fixed (the tier
 * is built for the design size and hi already is that design), spread lo's switches over the
 * groups hi has. Fills lo's tgt/tport. need: switches the links need (the balanced count);
 * extra: links added by rounding a member up to the even multiplicity. 0 when out of memory. */
static int level_pass(build_ctx *c, int spread, int t, sw_list *lo, sw_list *hi, int fixed,
                      int64_t *need, int64_t *extra)
{
    const fp_rspec *rs = c->rs;
    const int L = rs->tiers;
    const int64_t d = rs->tier[t - 1].down, U = rs->tier[t - 2].up;
    const int64_t ch = t == L ? lo->blocks : c->children[t];
    const int64_t nb = t == L ? 1 : ceil_div(lo->blocks, ch);
    int64_t *gq_first = NULL, G = 0, total = 0, maxp = 0, *zc = NULL;
    int32_t *gq_n = NULL, *gq_base = NULL;
    bundle *mb = NULL;
    int64_t *inv = NULL;
    int ok = 0;

    if (fixed && hi->blocks < nb)
        return 0;   /* the design has every block the present fabric has */
    gq_first = calloc((size_t)nb + 1, sizeof *gq_first);
    if (gq_first == NULL)
        return 0;
    for (int64_t b = 0; b < lo->blocks; b++)
        if (lo->first[b + 1] - lo->first[b] > maxp)
            maxp = lo->first[b + 1] - lo->first[b];
    for (int64_t beta = 0; beta < nb; beta++) {
        int64_t cb0 = beta * ch, cb1 = cb0 + ch < lo->blocks ? cb0 + ch : lo->blocks, p = 0;
        for (int64_t b = cb0; b < cb1; b++)
            if (lo->first[b + 1] - lo->first[b] > p)
                p = lo->first[b + 1] - lo->first[b];
        if (fixed)
            p = hi->gq_first[beta + 1] - hi->gq_first[beta];
        gq_first[beta] = G;
        G += p;
    }
    gq_first[nb] = G;
    gq_n = calloc((size_t)(G ? G : 1), sizeof *gq_n);
    gq_base = calloc((size_t)(G ? G : 1), sizeof *gq_base);
    mb = calloc((size_t)(ch + maxp + 1), sizeof *mb);
    inv = calloc((size_t)(G + 1), sizeof *inv);
    if (gq_n == NULL || gq_base == NULL || mb == NULL || inv == NULL)
        goto out;
    /* A child with fewer switches than its block has groups (a partial pod or zone) keeps all
     * its switches' uplinks, dealt over every group: its traffic can then enter and leave
     * through any position of the blocks beside it, which full bisection needs. */
    for (int64_t beta = 0; beta < nb; beta++) {
        int64_t cb0 = beta * ch, cb1 = cb0 + ch < lo->blocks ? cb0 + ch : lo->blocks;
        int64_t P = gq_first[beta + 1] - gq_first[beta];
        for (int64_t b = cb0; b < cb1; b++)
            if (lo->first[b + 1] - lo->first[b] < P)
                for (int64_t sw = lo->first[b]; sw < lo->first[b + 1]; sw++) {
                    if (extra)
                        *extra += U - lo->up[sw];
                    lo->up[sw] = (int32_t)U;
                }
        deal_order(inv + gq_first[beta], lo, cb0, cb1, P);
    }
    /* pass A: group sizes; whole members rounded up to the even multiplicity */
    for (int64_t beta = 0; beta < nb; beta++) {
        int64_t cb0 = beta * ch, cb1 = cb0 + ch < lo->blocks ? cb0 + ch : lo->blocks, base = 0;
        int64_t P = gq_first[beta + 1] - gq_first[beta];
        for (int64_t q = 0; q < P; q++) {
            int64_t g = gq_first[beta] + q, k = gather(mb, lo, cb0, cb1, q, P, inv + gq_first[beta]), n, S = 0;
            for (int64_t i = 0; i < k; i++)
                S += mb[i].k;
            if (fixed) {
                n = hi->gq_n[hi->gq_first[beta] + q];
                base = hi->gq_base[hi->gq_first[beta] + q];
            } else {
                n = group_size(c, spread, mb, k, d, U);
                if (need)
                    *need += S > 0 ? ceil_div(S, d) : 1;
            }
            gq_n[g] = (int32_t)n;
            gq_base[g] = (int32_t)base;
            if (!fixed) {
                base += n;
                total += n;
            }
            if (spread == FP_SPREAD_EVEN)
                for (int64_t i = 0; i < k; i++)
                    if (mb[i].regular && mb[i].k > 0) {
                        int64_t m, cnt;
                        even_shape(mb[i].k, n, &m, &cnt);
                        if (extra)
                            *extra += m * cnt - mb[i].k;
                        lo->up[mb[i].sw] = (int32_t)(m * cnt);
                    }
        }
    }
    if (!fixed) {
        if (!list_alloc(hi, total, nb, G))
            goto out;
        hi->n = total;
        memcpy(hi->gq_first, gq_first, sizeof *gq_first * (size_t)(nb + 1));
        memcpy(hi->gq_n, gq_n, sizeof *gq_n * (size_t)(G ? G : 1));
        memcpy(hi->gq_base, gq_base, sizeof *gq_base * (size_t)(G ? G : 1));
        hi->n_gq = G;
        int64_t at = 0;
        for (int64_t beta = 0; beta < nb; beta++) {
            hi->first[beta] = at;
            for (int64_t g = gq_first[beta]; g < gq_first[beta + 1]; g++)
                for (int64_t i = 0; i < gq_n[g]; i++, at++) {
                    hi->blk[at] = beta;
                    hi->pos[at] = gq_base[g] + (int32_t)i;
                }
        }
        hi->first[nb] = at;
    }
    /* pass B: every uplink's upper switch and port, members in child order */
    lo->upoff[0] = 0;
    for (int64_t i = 0; i < lo->n; i++)
        lo->upoff[i + 1] = lo->upoff[i] + lo->up[i];
    free(lo->tgt);
    free(lo->tport);
    lo->tgt = malloc(sizeof *lo->tgt * (size_t)(lo->upoff[lo->n] + 1));
    lo->tport = malloc(sizeof *lo->tport * (size_t)(lo->upoff[lo->n] + 1));
    zc = calloc((size_t)(hi->n ? hi->n : 1), sizeof *zc);
    if (lo->tgt == NULL || lo->tport == NULL || zc == NULL)
        goto out;
    for (int64_t beta = 0; beta < nb; beta++) {
        int64_t cb0 = beta * ch, cb1 = cb0 + ch < lo->blocks ? cb0 + ch : lo->blocks;
        int64_t P = gq_first[beta + 1] - gq_first[beta];
        for (int64_t q = 0; q < P; q++) {
            int64_t g = gq_first[beta] + q, k = gather(mb, lo, cb0, cb1, q, P, inv + gq_first[beta]), n = gq_n[g];
            int64_t gb = hi->first[beta] + gq_base[g], s = 0;
            for (int64_t i = 0; i < k; i++) {
                int64_t m = 1, cnt = mb[i].k;
                if (spread == FP_SPREAD_EVEN)
                    even_shape(mb[i].k, n, &m, &cnt);
                for (int64_t j = 0; j < mb[i].k; j++) {
                    int64_t z = gb + (spread == FP_SPREAD_EVEN ? (s + j / m) % n : (s + j) % n);
                    int64_t at = lo->upoff[mb[i].sw] + mb[i].r + j * mb[i].stride;
                    lo->tgt[at] = (int32_t)z;
                    lo->tport[at] = (int32_t)zc[z]++;
                    if (!fixed)
                        hi->load[z]++;
                }
                s = (s + (spread == FP_SPREAD_EVEN ? cnt : mb[i].k)) % n;
            }
        }
    }
    for (int64_t i = 0; i < hi->n; i++)
        if (zc[i] > d)
            goto out;   /* more links than down ports: cannot happen */
    if (!fixed)
        for (int64_t i = 0; i < hi->n; i++)
            hi->up[i] = t == L ? 0 : (int32_t)up_for(&rs->tier[t - 1], hi->load[i]);
    ok = 1;
out:
    free(gq_first);
    free(gq_n);
    free(gq_base);
    free(mb);
    free(inv);
    free(zc);
    return ok;
}

/* Switch lists of every tier for the servers present (bt) and for build_for_gpus (ds). */
static int shape_make(build_ctx *c, int spread, int64_t servers, int64_t dservers, shape *sh)
{
    const int L = c->rs->tiers;
    memset(sh, 0, sizeof *sh);
    if (!leaves_make(&sh->bt[1], c, servers) || !leaves_make(&sh->ds[1], c, dservers))
        return 0;
    for (int t = 2; t <= L; t++) {
        /* Tiers above the pods (in 2 tiers: the spines) are built for the design size. */
        sh->designed[t] = t >= 3 || t == L;
        if (!level_pass(c, spread, t, &sh->ds[t - 1], &sh->ds[t], 0,
                        sh->designed[t] ? &sh->need[t] : NULL, NULL))
            return 0;
        if (sh->designed[t]) {
            if (!list_copy(&sh->bt[t], &sh->ds[t]) ||
                !level_pass(c, spread, t, &sh->bt[t - 1], &sh->bt[t], 1, NULL,
                            &sh->extra_links[t - 1]))
                return 0;
        } else if (!level_pass(c, spread, t, &sh->bt[t - 1], &sh->bt[t], 0, &sh->need[t],
                               &sh->extra_links[t - 1])) {
            return 0;
        }
    }
    return 1;
}

static int64_t max_positions(const sw_list *l)
{
    int64_t m = 0;
    for (int64_t b = 0; b < l->blocks; b++)
        if (l->first[b + 1] - l->first[b] > m)
            m = l->first[b + 1] - l->first[b];
    return m;
}

static void level_from(fp_level *lv, const sw_list *l, int64_t children)
{
    lv->blocks = l->blocks;
    lv->positions = max_positions(l);
    lv->children = children;
    lv->switches = l->n;
}

static int64_t dev_id(const fp_fabric *fab, int tier, int plane, int64_t sw)
{
    return fab->tier_base[tier] + (int64_t)plane * fab->level[tier].switches + sw;
}

static const char *spread_name(int spread)
{
    return spread == FP_SPREAD_BALANCED ? "balanced" : "even";
}

static void grouped(char *buf, size_t n, double v)
{
    char tmp[48];
    int len = snprintf(tmp, sizeof tmp, "%.0f", v < 0 ? -v : v), k = 0;
    size_t o = 0;
    if (v < 0 && o + 1 < n)
        buf[o++] = '-';
    for (int i = 0; i < len && o + 1 < n; i++) {
        buf[o++] = tmp[i];
        k = len - i - 1;
        if (k > 0 && k % 3 == 0 && o + 1 < n)
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

/* Notes that say what was built beyond need, and what the other spread would build. */
static fp_status size_notes(build_ctx *c, const shape *sh, int64_t servers, int64_t dservers,
                            fp_error *err)
{
    const fp_rspec *rs = c->rs;
    fp_fabric *fab = c->fab;
    const int L = rs->tiers, P = rs->planes;
    char a[32], b[32];
    /* Partial blocks below the designed tiers, sized to their links. */
    for (int t = 2; t < L; t++) {
        const sw_list *lo = &sh->bt[t - 1], *hi = &sh->bt[t];
        int64_t nb = hi->blocks, held = lo->blocks - (nb - 1) * c->children[t];
        if (held >= c->children[t] || sh->designed[t])
            continue;
        int64_t in_last = hi->first[nb] - hi->first[nb - 1], full = max_positions(hi);
        (void)full;
        if (t == 2 && rs->topology == FP_TOPO_RAIL)
            add_note(fab, "the last pod holds %lld of %lld scalable units and gets %lld %s%s, sized to its links",
                     (long long)(held / c->r.lps), (long long)c->sus_per_pod, (long long)in_last,
                     fp__tier_role(t, L), in_last == 1 ? "" : "s");
        else
            add_note(fab, "the last %s holds %lld of %lld %s and gets %lld %s%s, sized to its links",
                     t == 2 ? "pod" : "zone", (long long)held, (long long)c->children[t],
                     t == 2 ? "leaves" : "pods", (long long)in_last, fp__tier_role(t, L),
                     in_last == 1 ? "" : "s");
    }
    /* Beyond need: the even rule's extra switches and links. */
    for (int t = 2; t <= L; t++) {
        int64_t extra = (sh->designed[t] ? sh->ds[t].n : sh->bt[t].n) - sh->need[t];
        fab->extra_switches[t] = extra > 0 ? extra * P : 0;
        if (extra > 0) {
            grouped(a, sizeof a, (double)extra * P * rs->tier[t - 1].model.price_usd);
            add_note(fab, "tier %d: %lld %ss where the links need %lld: the even spread gives every %s the same number of links to each %s of its group (a divisor of its %d uplinks); the %lld extra %ss cost $%s (spread \"balanced\" avoids them)",
                     t, (long long)((sh->designed[t] ? sh->ds[t].n : sh->bt[t].n) * P),
                     fp__tier_role(t, L), (long long)(sh->need[t] * P), fp__tier_role(t - 1, L),
                     fp__tier_role(t, L), rs->tier[t - 2].up, (long long)(extra * P),
                     fp__tier_role(t, L), a);
        }
    }
    for (int t = 1; t < L; t++) {
        fab->extra_links[t] = sh->extra_links[t] * P;
        if (sh->extra_links[t] > 0)
            add_note(fab, "%s uplinks: %lld links beyond the links below need them: a partial block's %ss keep all their uplinks so its traffic reaches every %s group (full bisection), and the even spread rounds a partial %s up to whole multiples",
                     fp__tier_role(t, L), (long long)(sh->extra_links[t] * P), fp__tier_role(t, L),
                     fp__tier_role(t + 1, L), fp__tier_role(t, L));
    }
    if (dservers > servers) {
        /* Switches of the designed tiers that nothing below reaches yet, and the uplinks the
         * pods still to come will bring. */
        int64_t idle_sw = 0, to_come = 0;
        double idle_cost = 0;
        for (int t = 2; t <= L; t++) {
            if (!sh->designed[t])
                continue;
            const sw_list *lo = &sh->bt[t - 1], *hi = &sh->bt[t];
            uint8_t *reached = calloc((size_t)(hi->n ? hi->n : 1), 1);
            if (reached == NULL)
                FP_FAIL(err, FP_ENOMEM, "", "out of memory");
            for (int64_t x = 0; x < lo->upoff[lo->n]; x++)
                reached[lo->tgt[x]] = 1;
            int64_t idle = 0;
            for (int64_t i = 0; i < hi->n; i++)
                idle += !reached[i];
            free(reached);
            idle_sw += idle * P;
            idle_cost += (double)idle * P * rs->tier[t - 1].model.price_usd;
            int64_t design = 0, built = 0;
            for (int64_t i = 0; i < sh->ds[t - 1].n; i++)
                design += sh->ds[t - 1].up[i];
            for (int64_t i = 0; i < lo->n; i++)
                built += lo->up[i];
            to_come += (design - built) * P;
        }
        grouped(a, sizeof a, (double)rs->build_for_gpus);
        grouped(b, sizeof b, idle_cost);
        add_note(fab, "the tiers above the pods are built for %s GPUs (fabric.build_for_gpus): %lld of their switches ($%s) have no link from below yet, and their ports for the %lld uplinks still to come stay free",
                 a, (long long)idle_sw, b, (long long)to_come);
    }
    return FP_OK;
}

fp_status fp__clos_build(fp_fabric *fab, const fp_rspec *rs, fp_error *err)
{
    build_ctx c;
    shape sh, alt;
    const int L = rs->tiers, P = rs->planes, eps = rs->endpoints_per_server;
    fp_status rc = FP_OK;
    memset(fab, 0, sizeof *fab);
    memset(&c, 0, sizeof c);
    memset(&sh, 0, sizeof sh);
    memset(&alt, 0, sizeof alt);
    c.rs = rs;
    c.fab = fab;
    fab->tiers = L;
    fab->planes = P;
    fab->servers = ceil_div(rs->gpus, rs->gpus_per_server) + rs->spare_servers;
    int64_t dgpus = rs->build_for_gpus > rs->gpus ? rs->build_for_gpus : rs->gpus;
    int64_t dservers = fab->servers;
    if (dgpus > rs->gpus) {
        int64_t ds = ceil_div(dgpus, rs->gpus_per_server);
        dservers = ds + (int64_t)ceil((double)ds * rs->phys.spare_servers - 1e-9);
    }
    fab->design_servers = dservers;
    if (rs->spare_servers > 0)
        add_note(fab, "%lld hot-spare servers (%g%%) are placed and cabled after the %lld production servers",
                 (long long)rs->spare_servers, rs->phys.spare_servers * 100,
                 (long long)(fab->servers - rs->spare_servers));
    if ((fab->servers - rs->spare_servers) * rs->gpus_per_server != rs->gpus)
        add_note(fab, "%lld GPUs is not a multiple of %d per server: planning %lld servers, the last with %lld GPUs",
                 (long long)rs->gpus, rs->gpus_per_server,
                 (long long)(fab->servers - rs->spare_servers),
                 (long long)(rs->gpus - (fab->servers - rs->spare_servers - 1) * rs->gpus_per_server));

    /* ---- sizing: the block tree ---- */
    if (rs->topology == FP_TOPO_RAIL) {
        c.r = rail_shape_of(rs, rs->tier[0].down);
        c.r.per_leaf = rs->tier[0].down;
        c.n_su = ceil_div(fab->servers, rs->su_servers);
        if (c.r.shared)
            add_note(fab, "%d-server scalable units: %d leaves per unit take the %d rails' %lld NIC ports %d to a leaf, some leaves ending one rail and starting the next (one set of leaves per rail would need %d)",
                     rs->su_servers, c.r.lps, eps, (long long)eps * rs->su_servers, c.r.per_leaf,
                     eps * c.r.lpr);
        fab->su_count = c.n_su;
        fab->design_su_count = ceil_div(dservers, rs->su_servers);
        fab->leaves_per_su = c.r.lps;
        fab->servers_per_leaf = c.r.per_leaf;
        int64_t last = fab->servers - (c.n_su - 1) * rs->su_servers;
        if (last != rs->su_servers) {
            int64_t idle = 0;
            for (int k = 0; k < c.r.lpr && !c.r.shared; k++) {
                int64_t e = last - (int64_t)k * c.r.per_leaf;
                idle += c.r.per_leaf - (e < 0 ? 0 : e > c.r.per_leaf ? c.r.per_leaf : e);
            }
            int64_t idle_shared = 0;    /* over all rails at once */
            for (int k = 0; k < c.r.lps && c.r.shared; k++)
                idle_shared += c.r.per_leaf - shared_load(&c.r, eps, rs->su_servers, k, last);
            add_note(fab, "the last scalable unit is partial: %lld of %d servers; as in NVIDIA's SuperPOD designs it keeps its full %d leaves and %lld leaf-spine links so routing stays rail-aligned, leaving %lld leaf ports for servers to come",
                     (long long)last, rs->su_servers, c.r.lps,
                     (long long)c.r.lps * rs->tier[0].up * P,
                     (long long)((c.r.shared ? idle_shared : idle * eps) * P));
        }
    }
    for (int t = 2; t <= L; t++)
        c.children[t] = rs->tier[t - 1].down;
    if (rs->topology == FP_TOPO_RAIL && L >= 3) {
        c.sus_per_pod = rs->tier[1].down / c.r.lps;
        c.children[2] = c.sus_per_pod * c.r.lps;
    }
    {
        int64_t umax = 1, mmax = 1;
        for (int t = 0; t < L; t++) {
            umax = rs->tier[t].up > umax ? rs->tier[t].up : umax;
            umax = rs->tier[t].down > umax ? rs->tier[t].down : umax;
        }
        mmax = ceil_div(dservers * eps, rs->tier[0].down) + 1;
        for (int t = 2; t <= L; t++)
            mmax = c.children[t] > mmax ? c.children[t] : mmax;
        c.scratch = calloc((size_t)umax + 1, sizeof *c.scratch);
    }
    if (!c.scratch ||
        !shape_make(&c, rs->spread, fab->servers, dservers, &sh) ||
        !shape_make(&c, 1 - rs->spread, fab->servers, dservers, &alt)) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory sizing the fabric");
        goto out;
    }
    for (int t = 1; t <= L; t++) {
        level_from(&fab->level[t], &sh.bt[t], t >= 2 ? c.children[t] : 0);
        level_from(&fab->design[t], &sh.ds[t], t >= 2 ? c.children[t] : 0);
        if (t == L) {
            fab->level[t].children = sh.bt[t - 1].blocks;
            fab->design[t].children = sh.ds[t - 1].blocks;
        }
        fab->alt_switches[t] = alt.bt[t].n;
        if (t < L)
            for (int64_t i = 0; i < alt.bt[t].n; i++)
                fab->alt_links[t] += alt.bt[t].up[i];
    }
    fab->alt_links[0] = (int64_t)fab->servers * eps;
    if ((rc = size_notes(&c, &sh, fab->servers, dservers, err)) != FP_OK)
        goto out;

    /* ---- allocate ---- */
    int64_t n_dev = fab->servers, n_link = fab->servers * eps * P;
    fab->tier_base[0] = 0;
    for (int t = 1; t <= L; t++) {
        fab->tier_base[t] = n_dev;
        n_dev += fab->level[t].switches * P;
        if (t < L)
            for (int64_t i = 0; i < sh.bt[t].n; i++)
                n_link += (int64_t)sh.bt[t].up[i] * P;
    }
    fab->dev = calloc((size_t)n_dev, sizeof *fab->dev);
    fab->link = calloc((size_t)n_link, sizeof *fab->link);
    if (fab->dev == NULL || fab->link == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for %lld devices and %lld links",
                           (long long)n_dev, (long long)n_link);
        goto out;
    }
    fab->n_dev = n_dev;
    fab->n_link = n_link;

    /* ---- devices ---- */
    const int64_t ch2 = L >= 3 ? c.children[2] : 0, ch3 = L >= 4 ? c.children[3] : 0;
    for (int64_t s = 0; s < fab->servers; s++) {
        fp_device *dv = &fab->dev[s];
        dv->tier = 0;
        dv->plane = 0;
        dv->rail = -1;
        dv->zone = -1;
        if (rs->topology == FP_TOPO_RAIL) {
            dv->su = (int32_t)(s / rs->su_servers);
            dv->index = (int32_t)(s % rs->su_servers);
            dv->pod = L >= 3 ? (int32_t)(dv->su / c.sus_per_pod) : -1;
        } else {
            dv->su = -1;
            dv->index = (int32_t)s;
            dv->pod = L >= 3 ? (int32_t)(s * eps / rs->tier[0].down / ch2) : -1;
        }
        if (L >= 4 && dv->pod >= 0)
            dv->zone = (int32_t)(dv->pod / ch3);
    }
    for (int t = 1; t <= L; t++) {
        const sw_list *l = &sh.bt[t];
        for (int p = 0; p < P; p++)
            for (int64_t i = 0; i < l->n; i++) {
                fp_device *dv = &fab->dev[dev_id(fab, t, p, i)];
                int64_t pod = -1;
                dv->tier = (uint8_t)t;
                dv->plane = (uint8_t)p;
                dv->su = -1;
                dv->rail = -1;
                dv->zone = -1;
                dv->index = l->pos[i];
                if (t == 1) {
                    if (L >= 3) {
                        pod = i / ch2;
                        dv->index = (int32_t)(i - pod * ch2);
                    } else {
                        dv->index = (int32_t)i;
                    }
                    if (rs->topology == FP_TOPO_RAIL) {
                        int64_t k = i % c.r.lps;
                        dv->su = (int32_t)(i / c.r.lps);
                        dv->rail = (int16_t)(k / c.r.lpr);
                        dv->index = (int32_t)(k % c.r.lpr);
                        if (c.r.shared) {
                            /* The rail of the leaf's first port; index counts from the rail's
                             * start, so names stay unique. */
                            int64_t e0 = k * c.r.per_leaf;
                            dv->rail = (int16_t)(e0 / rs->su_servers);
                            dv->index = (int32_t)((e0 - dv->rail * rs->su_servers) / c.r.per_leaf);
                        }
                    }
                } else if (t == 2 && L >= 3) {
                    pod = l->blk[i];
                }
                dv->pod = (int32_t)pod;
                if (L >= 4) {
                    if (t <= 2 && pod >= 0)
                        dv->zone = (int32_t)(pod / ch3);
                    else if (t == 3)
                        dv->zone = (int32_t)l->blk[i];
                }
            }
    }

    /* ---- links: boundary 0 (NIC to leaf) ---- */
    int64_t li = 0;
    int ppp = rs->nic.ports / P; /* NIC ports per plane */
    fab->boundary_base[0] = 0;
    for (int p = 0; p < P; p++)
        for (int64_t s = 0; s < fab->servers; s++)
            for (int r = 0; r < eps; r++) {
                fp_link *lk = &fab->link[li++];
                int64_t leaf, port;
                int nic = r / ppp, nic_port = (r % ppp) * P + p;
                if (rs->topology == FP_TOPO_RAIL) {
                    int64_t su = s / rs->su_servers, i = s % rs->su_servers;
                    leaf = su * c.r.lps + (int64_t)r * c.r.lpr + i / c.r.per_leaf;
                    port = i % c.r.per_leaf;
                    if (c.r.shared) {
                        int64_t e = (int64_t)r * rs->su_servers + i;
                        leaf = su * c.r.lps + e / c.r.per_leaf;
                        port = e % c.r.per_leaf;
                    }
                } else {
                    int64_t e = s * eps + r;
                    leaf = e / rs->tier[0].down;
                    port = e % rs->tier[0].down;
                }
                lk->a = (int32_t)s;
                lk->a_port = nic * rs->nic.ports + nic_port;
                lk->z = (int32_t)dev_id(fab, 1, p, leaf);
                lk->z_port = (int32_t)port;
                lk->boundary = 0;
                lk->plane = (uint8_t)p;
            }

    /* ---- links: boundaries 1..L-1, upper ports in arrival order ---- */
    for (int t = 1; t < L; t++) {
        const sw_list *lo = &sh.bt[t];
        const int d = rs->tier[t - 1].down;
        fab->boundary_base[t] = li;
        for (int p = 0; p < P; p++) {
            for (int64_t i = 0; i < lo->n; i++) {
                for (int64_t x = 0; x < lo->up[i]; x++) {
                    int64_t at = lo->upoff[i] + x;
                    fp_link *lk = &fab->link[li++];
                    lk->a = (int32_t)dev_id(fab, t, p, i);
                    lk->a_port = (int32_t)(d + x);
                    lk->z = (int32_t)dev_id(fab, t + 1, p, lo->tgt[at]);
                    lk->z_port = lo->tport[at];
                    lk->boundary = (uint8_t)t;
                    lk->plane = (uint8_t)p;
                }
            }
        }
    }
    fab->boundary_base[L] = li;
    if (li != n_link) {
        rc = fp__error_set(err, FP_EDESIGN, "", "internal error: built %lld links, expected %lld",
                           (long long)li, (long long)n_link);
        goto out;
    }
    for (int t = 1; t <= L; t++)
        fab->ports_used[t] = (fab->boundary_base[t] - fab->boundary_base[t - 1]) +
                             (t < L ? fab->boundary_base[t + 1] - fab->boundary_base[t] : 0);
    fab->ports_used[0] = fab->boundary_base[1];
    fab->capacity_endpoints = fp__clos_capacity(rs, L);
    if (rc == FP_OK) {
        /* What the other spread would build (its counts per plane, here for all planes). */
        int64_t sw = 0, asw = 0, lk = 0, alk = 0;
        double dc = 0;
        char a[32];
        for (int t = 1; t <= L; t++) {
            sw += fab->level[t].switches;
            asw += fab->alt_switches[t];
            dc += (double)(fab->alt_switches[t] - fab->level[t].switches) * P *
                  rs->tier[t - 1].model.price_usd;
            if (t < L) {
                lk += fab->boundary_base[t + 1] - fab->boundary_base[t];
                alk += fab->alt_links[t] * P;
            }
        }
        grouped(a, sizeof a, dc < 0 ? -dc : dc);
        if (asw != sw || alk != lk)
            add_note(fab, "spread \"%s\" would build %lld switches (%+lld, %c$%s in switches) and %lld switch-to-switch links (%+lld)",
                     spread_name(1 - rs->spread), (long long)(asw * P), (long long)((asw - sw) * P),
                     dc < 0 ? '-' : '+', a, (long long)alk, (long long)(alk - lk));
        else
            add_note(fab, "spread \"%s\" would build the same %lld switches and %lld switch-to-switch links",
                     spread_name(1 - rs->spread), (long long)(sw * P), (long long)lk);
    }
out:
    if (rc != FP_OK)
        fp__fabric_free(fab);
    shape_free(&sh);
    shape_free(&alt);
    free(c.scratch);
    return rc;
}

void fp__fabric_free(fp_fabric *fab)
{
    if (fab == NULL)
        return;
    free(fab->dev);
    free(fab->link);
    fab->dev = NULL;
    fab->link = NULL;
    fab->n_dev = fab->n_link = 0;
}
