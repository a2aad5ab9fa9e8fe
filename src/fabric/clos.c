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

/* Rail-optimized leaf shape: leaves per rail per full SU, servers per leaf, leaves per SU.
 * When a rail's servers leave a fraction of a leaf (144 servers on 32-port-down leaves: 4.5
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

/* Down and up ports per switch for an L-tier fabric. */
static void size_ports(fp_rspec *rs, int tiers)
{
    for (int t = 0; t < tiers; t++) {
        fp_tier_spec *ts = &rs->tier[t];
        ts->usable = (int)floor(ts->radix * (1.0 - rs->reserve) + 1e-9);
        ts->oversub = rs->oversub[t];
        if (t == tiers - 1) {
            ts->down = ts->usable;
            ts->up = 0;
            continue;
        }
        int d = ts->usable;
        while (d > 0 && d + (int)ceil(d / ts->oversub - 1e-9) > ts->usable)
            d--;
        ts->down = d;
        ts->up = d > 0 ? (int)ceil(d / ts->oversub - 1e-9) : 0;
    }
    if (rs->topology == FP_TOPO_RAIL && rs->tier[0].down > 0) {
        rail_shape r = rail_shape_of(rs, rs->tier[0].down);
        rs->tier[0].down = r.per_leaf;
        rs->tier[0].up = (int)ceil(r.per_leaf / rs->tier[0].oversub - 1e-9);
    }
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
        cap = (rs->tier[1].down / r.lps) * su_endpoints;
        for (int t = 2; t < tiers; t++)
            cap *= rs->tier[t].down;
        return cap;
    }
    cap = 1;
    for (int t = 0; t < tiers; t++)
        cap *= rs->tier[t].down;
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
        for (int t = 0; t < tiers - 1; t++)
            k += (size_t)snprintf(buf + k, n - k, "%s%g:1", t ? "/" : "", rs->oversub[t]);
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

fp_status fp__clos_size(fp_rspec *rs, fp_error *err)
{
    int64_t servers = ceil_div(rs->gpus, rs->gpus_per_server) + rs->spare_servers;
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
            if (rs->topology == FP_TOPO_RAIL && rs->tiers >= 3 && cap == 0 &&
                rs->tier[1].down < rail_shape_of(rs, rs->tier[0].down).lps)
                FP_FAIL(err, FP_EDESIGN, "/fabric/su_servers",
                        "/fabric/su_servers: a %d-server scalable unit needs %d leaves, more than the %d a pod's spines can reach; use a smaller su_servers",
                        rs->su_servers, rail_shape_of(rs, rs->tier[0].down).lps, rs->tier[1].down);
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
    for (int t = rs->tiers - 1; t < rs->n_oversub; t++)
        if (rs->oversub[t] != 1.0)
            FP_FAIL(err, FP_EINVAL, "/fabric/oversubscription",
                    "/fabric/oversubscription/%d: %g:1 given for tier %d, but a %d-tier fabric has uplinks only at tiers 1 to %d",
                    t, rs->oversub[t], t + 1, rs->tiers, rs->tiers - 1);
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

/* Plane-local leaf index -> SU, rail, sub-leaf (rail-optimized). */
typedef struct leaf_pos {
    int64_t su;
    int rail, sub;
} leaf_pos;

typedef struct build_ctx {
    const fp_rspec *rs;
    fp_fabric *fab;
    rail_shape r;
    int64_t n_su, last_su_servers;
    int last_lpr;           /* leaves per rail in the last SU */
    int last_lps;           /* leaves in the last SU (shared rails) */
    int64_t sus_per_pod;    /* rail-optimized, tiers >= 3 */
} build_ctx;

static leaf_pos leaf_position(const build_ctx *c, int64_t leaf)
{
    leaf_pos p;
    p.su = leaf / c->r.lps;
    int64_t k = leaf - p.su * c->r.lps;
    if (c->r.shared) {
        /* The rail of the leaf's first port; sub counts leaves from the rail's start. */
        int64_t s_su = p.su == c->n_su - 1 ? c->last_su_servers : c->rs->su_servers;
        int64_t e0 = k * c->r.per_leaf;
        p.rail = (int)(e0 / s_su);
        p.sub = (int)((e0 - p.rail * s_su) / c->r.per_leaf);
        return p;
    }
    int lpr = p.su == c->n_su - 1 ? c->last_lpr : c->r.lpr;
    p.rail = (int)(k / lpr);
    p.sub = (int)(k % lpr);
    return p;
}

/* Parent block and child index of a tier-t switch's block b (t >= 1). */
static void parent_of(const build_ctx *c, int t, int64_t b, int64_t *pb, int64_t *ci)
{
    const fp_fabric *fab = c->fab;
    if (t + 1 == fab->tiers) {
        *pb = 0;
        *ci = b;
    } else if (t == 1 && c->rs->topology == FP_TOPO_RAIL) {
        int64_t su = b / c->r.lps;
        *pb = su / c->sus_per_pod;
        *ci = b - *pb * c->sus_per_pod * c->r.lps;
    } else {
        int64_t ch = fab->level[t + 1].children;
        *pb = b / ch;
        *ci = b % ch;
    }
}

static int64_t dev_id(const fp_fabric *fab, int tier, int plane, int64_t block, int64_t pos)
{
    const fp_level *lv = &fab->level[tier];
    return fab->tier_base[tier] + (int64_t)plane * lv->switches + block * lv->positions + pos;
}

fp_status fp__clos_build(fp_fabric *fab, const fp_rspec *rs, fp_error *err)
{
    build_ctx c;
    const int L = rs->tiers, P = rs->planes, eps = rs->endpoints_per_server;
    memset(fab, 0, sizeof *fab);
    memset(&c, 0, sizeof c);
    c.rs = rs;
    c.fab = fab;
    fab->tiers = L;
    fab->planes = P;
    fab->servers = ceil_div(rs->gpus, rs->gpus_per_server) + rs->spare_servers;
    if (rs->spare_servers > 0)
        add_note(fab, "%lld hot-spare servers (%g%%) are placed and cabled after the %lld production servers",
                 (long long)rs->spare_servers, rs->phys.spare_servers * 100,
                 (long long)(fab->servers - rs->spare_servers));
    if ((fab->servers - rs->spare_servers) * rs->gpus_per_server != rs->gpus)
        add_note(fab, "%lld GPUs is not a multiple of %d per server: planning %lld servers, the last with %lld GPUs",
                 (long long)rs->gpus, rs->gpus_per_server,
                 (long long)(fab->servers - rs->spare_servers),
                 (long long)(rs->gpus - (fab->servers - rs->spare_servers - 1) * rs->gpus_per_server));

    /* ---- sizing pass: blocks and positions per tier ---- */
    int64_t E = fab->servers * eps;
    if (rs->topology == FP_TOPO_RAIL) {
        c.r = rail_shape_of(rs, rs->tier[0].down);
        c.r.per_leaf = rs->tier[0].down;
        c.n_su = ceil_div(fab->servers, rs->su_servers);
        c.last_su_servers = fab->servers - (c.n_su - 1) * rs->su_servers;
        c.last_lpr = (int)ceil_div(c.last_su_servers, c.r.per_leaf);
        c.last_lps = c.r.shared ? (int)ceil_div((int64_t)eps * c.last_su_servers, c.r.per_leaf)
                                : eps * c.last_lpr;
        fab->level[1].blocks = (c.n_su - 1) * c.r.lps + c.last_lps;
        if (c.r.shared)
            add_note(fab, "%d-server scalable units: %d leaves per unit take the %d rails' %lld NIC ports %d to a leaf, some leaves ending one rail and starting the next (one set of leaves per rail would need %d)",
                     rs->su_servers, c.r.lps, eps, (long long)eps * rs->su_servers, c.r.per_leaf,
                     eps * (int)ceil_div(rs->su_servers, c.r.per_leaf));
        fab->su_count = c.n_su;
        fab->leaves_per_su = c.r.lps;
        fab->servers_per_leaf = c.r.per_leaf;
        if (c.last_su_servers != rs->su_servers)
            add_note(fab, "the last scalable unit is partial: %lld of %d servers", (long long)c.last_su_servers,
                     rs->su_servers);
    } else {
        fab->level[1].blocks = ceil_div(E, rs->tier[0].down);
    }
    fab->level[1].positions = 1;
    fab->level[1].switches = fab->level[1].blocks;
    for (int t = 2; t <= L; t++) {
        fp_level *lv = &fab->level[t], *lo = &fab->level[t - 1];
        int64_t d = rs->tier[t - 1].down, u = rs->tier[t - 2].up, G;
        if (t < L) {
            if (t == 2 && rs->topology == FP_TOPO_RAIL) {
                c.sus_per_pod = d / c.r.lps;
                lv->children = c.sus_per_pod * c.r.lps;
                lv->blocks = ceil_div(c.n_su, c.sus_per_pod);
            } else {
                lv->children = d;
                lv->blocks = ceil_div(lo->blocks, d);
            }
        } else {
            lv->children = lo->blocks;
            lv->blocks = 1;
        }
        /* Groups are sized for full blocks so partial ones can grow; but when a level has a
         * single block (more tiers than the size needs), size it for what it holds, or a
         * forced 4th tier over a few pods would build thousands of idle switches. */
        G = lv->blocks == 1 ? lo->blocks : lv->children;
        if (t < L && lo->blocks % G != 0 && !(t == 2 && rs->topology == FP_TOPO_RAIL))
            add_note(fab, "the last %s holds %lld of %lld %s; its %ss are built in full, ready for growth",
                     t == 2 ? "pod" : "zone", (long long)(lo->blocks % G), (long long)G,
                     t == 2 ? "leaves" : "pods", fp__tier_role(t, L));
        else if (t == 2 && t < L && rs->topology == FP_TOPO_RAIL && lv->blocks > 1 &&
                 c.n_su % c.sus_per_pod != 0)
            add_note(fab, "the last pod holds %lld of %lld scalable units; its spines are built in full, ready for growth",
                     (long long)(c.n_su % c.sus_per_pod), (long long)c.sus_per_pod);
        int64_t need = ceil_div(G * u, d), n = need < 1 ? 1 : need;
        while (u % n != 0)
            n++;
        if (n > need)
            add_note(fab, "tier %d: %lld %s%s per group instead of the %lld the ports need, so each %s's %lld uplinks divide evenly (%lld to each)",
                     t, (long long)n, fp__tier_role(t, L), n == 1 ? "" : "s", (long long)need,
                     fp__tier_role(t - 1, L), (long long)u, (long long)(u / n));
        lo->groups_up = n;
        lo->mult_up = (int)(u / n);
        lv->positions = lo->positions * n;
        lv->switches = lv->blocks * lv->positions;
    }

    /* ---- allocate ---- */
    int64_t n_dev = fab->servers, n_link = fab->servers * eps * P;
    fab->tier_base[0] = 0;
    for (int t = 1; t <= L; t++) {
        fab->tier_base[t] = n_dev;
        n_dev += fab->level[t].switches * P;
        if (t < L)
            n_link += fab->level[t].switches * P * rs->tier[t - 1].up;
    }
    fab->dev = calloc((size_t)n_dev, sizeof *fab->dev);
    fab->link = calloc((size_t)n_link, sizeof *fab->link);
    if (fab->dev == NULL || fab->link == NULL) {
        fp__fabric_free(fab);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for %lld devices and %lld links",
                (long long)n_dev, (long long)n_link);
    }
    fab->n_dev = n_dev;
    fab->n_link = n_link;

    /* ---- devices ---- */
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
            dv->pod = L >= 3 ? (int32_t)(s * eps / rs->tier[0].down / fab->level[2].children) : -1;
        }
        if (L >= 4 && dv->pod >= 0)
            dv->zone = (int32_t)(dv->pod / fab->level[3].children);
    }
    for (int t = 1; t <= L; t++) {
        const fp_level *lv = &fab->level[t];
        for (int p = 0; p < P; p++)
            for (int64_t b = 0; b < lv->blocks; b++)
                for (int64_t q = 0; q < lv->positions; q++) {
                    fp_device *dv = &fab->dev[dev_id(fab, t, p, b, q)];
                    int64_t pod = -1, ci = 0;
                    dv->tier = (uint8_t)t;
                    dv->plane = (uint8_t)p;
                    dv->su = -1;
                    dv->rail = -1;
                    dv->zone = -1;
                    dv->index = (int32_t)q;
                    if (t == 1) {
                        if (L >= 3)
                            parent_of(&c, 1, b, &pod, &ci);
                        else
                            ci = b;
                        dv->index = (int32_t)ci;
                        if (rs->topology == FP_TOPO_RAIL) {
                            leaf_pos lp = leaf_position(&c, b);
                            dv->su = (int32_t)lp.su;
                            dv->rail = (int16_t)lp.rail;
                            dv->index = lp.sub;
                        }
                    } else if (t == 2 && L >= 3) {
                        pod = b;
                    }
                    dv->pod = (int32_t)pod;
                    if (L >= 4) {
                        if (t <= 2 && pod >= 0)
                            dv->zone = (int32_t)(pod / fab->level[3].children);
                        else if (t == 3)
                            dv->zone = (int32_t)b;
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
                    if (c.r.shared) {
                        int64_t s_su = su == c.n_su - 1 ? c.last_su_servers : rs->su_servers;
                        int64_t e = (int64_t)r * s_su + i;
                        leaf = su * c.r.lps + e / c.r.per_leaf;
                        port = e % c.r.per_leaf;
                    } else {
                        int lpr = su == c.n_su - 1 ? c.last_lpr : c.r.lpr;
                        leaf = su * c.r.lps + (int64_t)r * lpr + i / c.r.per_leaf;
                        port = i % c.r.per_leaf;
                    }
                } else {
                    int64_t e = s * eps + r;
                    leaf = e / rs->tier[0].down;
                    port = e % rs->tier[0].down;
                }
                lk->a = (int32_t)s;
                lk->a_port = nic * rs->nic.ports + nic_port;
                lk->z = (int32_t)dev_id(fab, 1, p, leaf, 0);
                lk->z_port = (int32_t)port;
                lk->boundary = 0;
                lk->plane = (uint8_t)p;
            }

    /* ---- links: boundaries 1..L-1 ---- */
    for (int t = 1; t < L; t++) {
        const fp_level *lv = &fab->level[t];
        int64_t n = lv->groups_up;
        int m = lv->mult_up, d = rs->tier[t - 1].down;
        fab->boundary_base[t] = li;
        for (int p = 0; p < P; p++)
            for (int64_t b = 0; b < lv->blocks; b++) {
                int64_t pb, ci;
                parent_of(&c, t, b, &pb, &ci);
                for (int64_t j = 0; j < lv->positions; j++)
                    for (int64_t i = 0; i < n; i++)
                        for (int x = 0; x < m; x++) {
                            fp_link *lk = &fab->link[li++];
                            lk->a = (int32_t)dev_id(fab, t, p, b, j);
                            lk->a_port = (int32_t)(d + i * m + x);
                            lk->z = (int32_t)dev_id(fab, t + 1, p, pb, j * n + i);
                            lk->z_port = (int32_t)(ci * m + x);
                            lk->boundary = (uint8_t)t;
                            lk->plane = (uint8_t)p;
                        }
            }
    }
    fab->boundary_base[L] = li;
    if (li != n_link) {
        fp__fabric_free(fab);
        FP_FAIL(err, FP_EDESIGN, "", "internal error: built %lld links, expected %lld",
                (long long)li, (long long)n_link);
    }
    for (int t = 1; t <= L; t++)
        fab->ports_used[t] = (fab->boundary_base[t] - fab->boundary_base[t - 1]) +
                             (t < L ? fab->boundary_base[t + 1] - fab->boundary_base[t] : 0);
    fab->ports_used[0] = fab->boundary_base[1];
    fab->capacity_endpoints = fp__clos_capacity(rs, L);
    return FP_OK;
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
