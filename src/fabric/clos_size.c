/* fabplan — the Clos builder's sizing pass: the tier count (when "auto") and each tier's down
 * and up ports, checked against the cluster. The result is the fabric's (fp_fabric.tiers,
 * .size[], .tier_choice); the resolved spec is only read. */
#include <stdio.h>
#include <string.h>
#include "fabric/clos_work.h"
#include "util/text.h"

/* Down and up ports per switch for an L-tier fabric: below the top, fp__tier_down (resolved.h);
 * the top takes every usable port down. */
static void size_ports(fp_tier_size *size, const fp_rspec *rs, int tiers)
{
    for (int t = 0; t < tiers; t++) {
        const fp_tier_spec *ts = &rs->tier[t];
        fp_tier_size *sz = &size[t];
        sz->usable = (int)floor(ts->radix * (1.0 - rs->reserve) + 1e-9);
        sz->up_phys = -1;
        if (t == tiers - 1) {
            sz->down = sz->usable;
            sz->up = 0;
            continue;
        }
        sz->down = fp__tier_down(rs, t);
        sz->up = up_for(rs, t, sz->down);
    }
    /* fabric.leaf_servers: each leaf takes that many servers' ports (the spec stage checked
     * they fit its down ports). */
    if (rs->block_servers[1] > 0 && size[0].down > 0) {
        size[0].down = (int)(rs->block_servers[1] * rs->endpoints_per_server);
        size[0].up = up_for(rs, 0, size[0].down);
    }
    if (rs->topology == FP_TOPO_RAIL && size[0].down > 0) {
        fp_rail_shape r = rail_shape_of(rs, size[0].down);
        /* A leaf whose free ports the extra endpoints fill takes fill_cap hosts. */
        size[0].down = rs->fill_cap > 0 ? rs->fill_cap : r.per_leaf;
        size[0].up = up_for(rs, 0, size[0].down);
    }
    /* Where the up side starts when it splits differently: on the first whole cage after the
     * down side; on a switch with uplink ports, on the first of them. */
    for (int t = 0; t < tiers - 1; t++) {
        const fp_tier_spec *ts = &rs->tier[t];
        if (ts->model.uplink_ports > 0 && ts->breakout_up > 0)
            size[t].up_phys = ts->model.ports;      /* the uplink group follows the front ports */
        else if (ts->breakout_up != ts->breakout && ts->breakout_up > 0)
            size[t].up_phys = (int)ceil_div(size[t].down, (int64_t)ts->per_cage * ts->breakout) * ts->per_cage;
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

int64_t fp__clos_capacity(const fp_rspec *rs, const fp_tier_size *size, int tiers)
{
    int64_t eps = rs->endpoints_per_server, cap;
    if (tiers < 2)
        return 0;
    for (int t = 0; t < tiers; t++)
        if (size[t].down < 1 || (t < tiers - 1 && size[t].up < 1))
            return 0;
    /* The blocks below the top (pods, zones: block_children), times the blocks the top joins:
     * as many as a top switch has down ports. */
    int64_t lps = 1;
    if (rs->topology == FP_TOPO_RAIL) {
        int64_t su_endpoints = (int64_t)(rs->fill_cap > 0 ? rs->fill_cap : rs->su_servers) * eps;
        lps = rail_shape_of(rs, size[0].down).lps;
        if (tiers == 2)
            return sat_mul(size[1].down / lps, su_endpoints);
        if (block_children(rs, size, 2, lps, NULL) > size[1].down)
            return 0;   /* a unit's leaves more than a spine reaches (fp__spec_check_blocks) */
        cap = sat_mul(block_children(rs, size, 2, lps, NULL) / lps, su_endpoints);
    } else {
        cap = size[0].down;
        if (tiers > 2)
            cap = sat_mul(cap, block_children(rs, size, 2, 1, NULL));
    }
    for (int t = 3; t < tiers; t++)
        cap = sat_mul(cap, block_children(rs, size, t, lps, NULL));
    return sat_mul(cap, size[tiers - 1].down);
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
    for (int t = rs->leaf_up > 0 ? 1 : 0; t < tiers - 1; t++)
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
    /* A leaf with uplinks_per_leaf has its up links given, not a ratio. */
    const int t0 = rs->leaf_up > 0 ? 1 : 0;
    if (rs->leaf_up > 0)
        k += (size_t)snprintf(buf + k, n - k, " with %d up link%s per leaf", rs->leaf_up,
                              rs->leaf_up == 1 ? "" : "s");
    if (t0 < tiers - 1 && all_one) {
        k += (size_t)snprintf(buf + k, n - k, " at 1:1");
    } else if (t0 < tiers - 1) {
        k += (size_t)snprintf(buf + k, n - k, " at ");
        for (int t = t0; t < tiers - 1; t++) {
            char ratio[32];
            k += (size_t)snprintf(buf + k, n - k, "%s%s", t > t0 ? "/" : "",
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
static int su_too_big(const fp_rspec *rs, const fp_tier_size *size)
{
    return rs->topology == FP_TOPO_RAIL && size[0].down > 0 &&
           size[1].down < rail_shape_of(rs, size[0].down).lps;
}

static fp_status su_error(const fp_rspec *rs, const fp_tier_size *size, fp_error *err)
{
    FP_FAIL(err, FP_EDESIGN, "/fabric/su_servers",
            "/fabric/su_servers: a %d-server scalable unit needs %d leaves, more than the %d a "
            "pod's spines can reach%s; use a smaller su_servers%s",
            rs->su_servers, rail_shape_of(rs, size[0].down).lps, size[1].down,
            rs->reserve > 0 ? " after the reserve" : "", rs->reserve > 0 ? " or a smaller reserve" : "");
}

/* Servers the tiers are chosen for: with build_for_gpus, that size (the upper tiers are built
 * for it). */
static int64_t sizing_servers(const fp_rspec *rs)
{
    int64_t servers = ceil_div(rs->gpus, rs->gpus_per_server) + rs->spare_servers;
    if (rs->build_for_gpus > rs->gpus) {
        int64_t ds = ceil_div(rs->build_for_gpus, rs->gpus_per_server);
        servers = ds + (int64_t)ceil((double)ds * rs->phys.spare_servers - 1e-9);
    }
    return servers;
}

/* "auto": the fewest tiers whose capacity holds `need` endpoints per plane. */
static fp_status size_auto(fp_fabric *fab, const fp_rspec *rs, int64_t need, const char *demand,
                           fp_error *err)
{
    int64_t prev_cap = 0, cap = 0;
    char what[200], one[120] = "";
    const int64_t servers = sizing_servers(rs);
    const int L0 = fp__block_min_tiers(rs, servers);
    /* The smallest block given (pod, zone) that holds every server: the fabric is that one
     * block, and no tier above it is built (fp__block_min_tiers). */
    for (int b = 2; b <= 3 && !one[0]; b++)
        if (rs->block_servers[b] > 0 && servers <= rs->block_servers[b])
            snprintf(one, sizeof one,
                     "one %s of %lld servers (fabric.%s) holds them, so no tier above it",
                     b == 2 ? "pod" : "zone", (long long)rs->block_servers[b],
                     b == 2 ? "pod_servers" : "zone_servers");
    for (int L = L0; L <= FP_MAX_TIERS; L++) {
        size_ports(fab->size, rs, L);
        cap = fp__clos_capacity(rs, fab->size, L);
        if (cap < need) {
            prev_cap = cap;
            continue;
        }
        describe(what, sizeof what, rs, L);
        if (L == L0 && L0 > 2) {
            /* Pods (zones) of a given size need a tier above them. */
            snprintf(fab->tier_choice, sizeof fab->tier_choice,
                     "%s in %s of %lld servers (fabric.%s) need a tier above them%s%s; using %d "
                     "tiers (maximum %lld GPUs for %s)",
                     demand, L0 == 4 ? "zones" : "pods", (long long)rs->block_servers[L0 - 1],
                     L0 == 4 ? "zone_servers" : "pod_servers", one[0] ? "; " : "", one, L,
                     (long long)endpoints_to_gpus(rs, cap), what);
        } else if (L == 2) {
            snprintf(fab->tier_choice, sizeof fab->tier_choice,
                     "%s fit in 2 tiers%s%s (maximum %lld GPUs for %s); using 2 tiers", demand,
                     one[0] ? ": " : "", one, (long long)endpoints_to_gpus(rs, cap), what);
        } else {
            describe(what, sizeof what, rs, L - 1);
            snprintf(fab->tier_choice, sizeof fab->tier_choice,
                     "%s exceed the %d-tier maximum of %lld for %s; using %d tiers", demand,
                     L - 1, (long long)endpoints_to_gpus(rs, prev_cap), what, L);
        }
        fab->tiers = L;
        return FP_OK;
    }
    describe(what, sizeof what, rs, FP_MAX_TIERS);
    if (cap == 0 && su_too_big(rs, fab->size))
        return su_error(rs, fab->size, err);
    FP_FAIL(err, FP_EDESIGN, "/cluster/gpus",
            "/cluster/gpus: %s exceed the %d-tier maximum of %lld GPUs for %s; use switches with "
            "more ports, more oversubscription or more planes",
            demand, FP_MAX_TIERS, (long long)endpoints_to_gpus(rs, cap), what);
}

/* The tier count the spec fixes: check that it holds `need` endpoints per plane. */
static fp_status size_given(fp_fabric *fab, const fp_rspec *rs, int64_t need, const char *demand,
                            fp_error *err)
{
    const int L = rs->tiers_given;
    char what[200];
    size_ports(fab->size, rs, L);
    int64_t cap = fp__clos_capacity(rs, fab->size, L);
    describe(what, sizeof what, rs, L);
    if (cap < need) {
        if (L >= 3 && cap == 0 && su_too_big(rs, fab->size))
            return su_error(rs, fab->size, err);
        FP_FAIL(err, FP_EDESIGN, "/fabric/tiers",
                "/fabric/tiers: %s exceed the %d-tier maximum of %lld GPUs for %s; use more tiers or \"auto\"",
                demand, L, (long long)endpoints_to_gpus(rs, cap), what);
    }
    if (rs->tiers_by_topology)
        snprintf(fab->tier_choice, sizeof fab->tier_choice,
                 "a k-ary fat-tree has 3 tiers (edge, aggregation, core)");
    else
        snprintf(fab->tier_choice, sizeof fab->tier_choice,
                 "%d tiers as given (maximum %lld GPUs for %s)", L,
                 (long long)endpoints_to_gpus(rs, cap), what);
    fab->tiers = L;
    return FP_OK;
}

static fp_status size_once(fp_fabric *fab, const fp_rspec *rs, fp_error *err)
{
    int64_t need = sizing_servers(rs) * rs->endpoints_per_server;
    const int d0 = fp__tier_down(rs, 0);
    const int64_t lps = rs->topology == FP_TOPO_RAIL && d0 > 0 ? rail_shape_of(rs, d0).lps : 1;
    char demand[96];
    fp_status rc;
    memset(fab, 0, sizeof *fab);
    describe_demand(demand, sizeof demand, rs, need);
    if ((rc = fp__spec_check_ports(rs, err)) != FP_OK ||
        (rc = fp__spec_check_blocks(rs, lps, err)) != FP_OK ||
        (rc = rs->tiers_auto ? size_auto(fab, rs, need, demand, err)
                             : size_given(fab, rs, need, demand, err)) != FP_OK)
        return rc;
    return fp__spec_check_tiers(rs, fab->tiers, err);
}

fp_status fp__clos_size(fp_fabric *fab, const fp_rspec *rs, fp_error *err)
{
    fp_error first = { 0 };
    fp_status rc = size_once(fab, rs, &first);
    /* The scalable unit left open: the largest that one tier-2 switch's down ports reach. */
    if (rc == FP_EDESIGN && rs->su_auto > 0 && strcmp(first.where, "/fabric/su_servers") == 0) {
        fp_rspec t = *rs;
        fp_error other = { 0 };     /* the largest such unit's pod error (pod_servers) */
        for (t.su_servers = rs->su_servers - 1; t.su_servers >= 1; t.su_servers--) {
            fp_error e = { 0 };
            if (rs->block_servers[2] % t.su_servers != 0)
                continue;   /* pods of whole units only (fabric.pod_servers) */
            fp_status r = size_once(fab, &t, &e);
            if (r == FP_OK) {
                fab->su_chosen = t.su_servers;
                return FP_OK;
            }
            if (other.code == FP_OK && strcmp(e.where, "/fabric/pod_servers") == 0) {
                other = e;
                rc = r;
            }
        }
        if (other.code != FP_OK)
            first = other;
    }
    if (rc != FP_OK && err != NULL)
        *err = first;
    return rc;
}

void fp__clos_keep_sizing(fp_fabric *fab, const fp_fabric *sized)
{
    fp_fabric keep;
    memcpy(keep.size, (sized ? sized : fab)->size, sizeof keep.size);
    memcpy(keep.tier_choice, (sized ? sized : fab)->tier_choice, sizeof keep.tier_choice);
    keep.tiers = (sized ? sized : fab)->tiers;
    memset(fab, 0, sizeof *fab);
    fab->tiers = keep.tiers;
    memcpy(fab->size, keep.size, sizeof keep.size);
    memcpy(fab->tier_choice, keep.tier_choice, sizeof keep.tier_choice);
}
