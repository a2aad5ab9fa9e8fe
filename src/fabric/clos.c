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
#include "fabric/clos_work.h"
#include "util/text.h"

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

static void level_from(fp_level *lv, const fp_sw_list *l, int64_t children)
{
    lv->blocks = l->blocks;
    lv->positions = fp__clos_max_positions(l);
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

/* Notes that say what was built beyond need, and what the other spread would build. */
static fp_status size_notes(fp_clos_ctx *c, const fp_clos_shape *sh, int64_t servers,
                            int64_t dservers, fp_error *err)
{
    const fp_rspec *rs = c->rs;
    fp_fabric *fab = c->fab;
    const int L = fab->tiers, P = rs->planes;
    char a[32], b[32];
    /* Blocks of a given size (fabric.leaf_servers, pod_servers, zone_servers): what they hold
     * and what the radix alone would have put in them. */
    if (rs->block_servers[1] > 0)
        add_note(fab, "fabric.leaf_servers: each leaf takes %lld servers (%d down and %d up "
                      "links), where its ratio leaves room for %d down ports",
                 (long long)rs->block_servers[1], fab->size[0].down, fab->size[0].up,
                 fp__tier_down(rs, 0));
    for (int t = 2; t < L && t <= 3; t++)
        if (rs->block_servers[t] > 0) {
            const int rail = t == 2 && rs->topology == FP_TOPO_RAIL;
            const int64_t lps = rs->topology == FP_TOPO_RAIL ? c->r.lps : 1;
            const int64_t by_radix = rail ? fab->size[1].down / lps : fab->size[t - 1].down;
            const int64_t held = rail ? c->children[2] / lps : c->children[t];
            add_note(fab, "fabric.%s: %ss of %lld servers, %lld %s each, where a tier-%d switch's %d down ports would hold %lld",
                     t == 2 ? "pod_servers" : "zone_servers", t == 2 ? "pod" : "zone",
                     (long long)rs->block_servers[t], (long long)held,
                     t == 3 ? (held == 1 ? "pod" : "pods")
                            : rail ? (held == 1 ? "scalable unit" : "scalable units")
                                   : (held == 1 ? "leaf" : "leaves"),
                     t, fab->size[t - 1].down, (long long)by_radix);
        }
    /* A block given its size that holds every server is the fabric: no tier above it
     * (fp__block_min_tiers), and the ratio between such blocks has no link to size. */
    for (int t = 2; t <= 3; t++) {
        if (rs->block_servers[t] == 0 || t < L)
            continue;
        const char *key = t == 2 ? "pod_servers" : "zone_servers", *what = t == 2 ? "pod" : "zone";
        if (t - 1 < rs->n_oversub && rs->oversub[t - 1] != 1.0)
            add_note(fab,
                     "fabric.%s: the %lld servers fit in one %s of %lld, which is the whole "
                     "fabric: no tier above it (%d tiers), so the ratio between %ss (%s, "
                     "/fabric/oversubscription/%d) has no link to size",
                     key, (long long)dservers, what, (long long)rs->block_servers[t], L, what,
                     fp_ratio_text(rs->oversub[t - 1], a, sizeof a), t - 1);
        else
            add_note(fab,
                     "fabric.%s: the %lld servers fit in one %s of %lld, which is the whole "
                     "fabric: no tier above it (%d tiers)",
                     key, (long long)dservers, what, (long long)rs->block_servers[t], L);
        break;
    }
    /* Partial blocks below the designed tiers, sized to their links. */
    for (int t = 2; t < L; t++) {
        const fp_sw_list *lo = &sh->bt[t - 1], *hi = &sh->bt[t];
        int64_t nb = hi->blocks, held = lo->blocks - (nb - 1) * c->children[t];
        if (held >= c->children[t] || sh->designed[t])
            continue;
        int64_t in_last = hi->first[nb] - hi->first[nb - 1];
        if (t == 2 && rs->topology == FP_TOPO_RAIL)
            add_note(fab, "the last pod holds %lld of %lld scalable units and gets %lld %s%s, sized to its links",
                     (long long)(held / c->r.lps), (long long)c->sus_per_pod, (long long)in_last,
                     fp__tier_role(t), in_last == 1 ? "" : "s");
        else
            add_note(fab, "the last %s holds %lld of %lld %s and gets %lld %s%s, sized to its links",
                     t == 2 ? "pod" : "zone", (long long)held, (long long)c->children[t],
                     t == 2 ? "leaves" : "pods", (long long)in_last, fp__tier_role(t),
                     in_last == 1 ? "" : "s");
    }
    /* Beyond the fewest by ports (fp_tier_info.switches_min): what a group per position and
     * the even rule each add. The merged top tier of 4 tiers has a note of its own (below). */
    for (int t = 2; t <= L && !(t == L && sh->ds[L].merged); t++) {
        const fp_sw_list *below = sh->designed[t] ? &sh->ds[t - 1] : &sh->bt[t - 1];
        const int64_t built = sh->designed[t] ? sh->ds[t].n : sh->bt[t].n;
        const int64_t links = below->upoff[below->n], down = fab->size[t - 1].down;
        const int64_t by_ports = down > 0 ? (links + down - 1) / down : built;
        /* built - by_ports, in two parts: the groups' own rounding up, then the even rule's
         * (by_ports counts the links the even rule added, so it may exceed the groups' need). */
        const int64_t floor_groups = sh->need[t] > by_ports ? sh->need[t] : by_ports;
        const int64_t by_groups = floor_groups - by_ports;
        const int64_t extra = built - (by_ports + by_groups);
        if (extra <= 0 && by_groups <= 0)
            continue;
        const char *role = fp__tier_role(t), *lower = fp__tier_role(t - 1);
        const double price = rs->tier[t - 1].model.price_usd;
        char text[sizeof fab->notes[0]];
        int len = snprintf(text, sizeof text,
                           "tier %d: %lld %ss where the links need %lld (%lld links, %lld down "
                           "ports each)",
                           t, (long long)(built * P), role, (long long)(by_ports * P),
                           (long long)(links * P), (long long)down);
        if (by_groups > 0 && len > 0 && (size_t)len < sizeof text) {
            fp_grouped_text((double)by_groups * P * price, 0, a, sizeof a);
            if (t == L)
                len += snprintf(text + len, sizeof text - (size_t)len,
                                "; a group of %ss per %s position, each sized to its own links, "
                                "takes %lld more ($%s)",
                                role, lower, (long long)(by_groups * P), a);
            else /* a level-t block's own groups: the pod's spines, the zone's cores */
                len +=
                    snprintf(text + len, sizeof text - (size_t)len,
                             "; each %s's %ss sized to its own links (a group per %s "
                             "position) take %lld more ($%s)",
                             t == 2 ? "pod" : "zone", role, lower, (long long)(by_groups * P), a);
        }
        if (extra > 0 && len > 0 && (size_t)len < sizeof text) {
            fp_grouped_text((double)extra * P * price, 0, a, sizeof a);
            snprintf(text + len, sizeof text - (size_t)len,
                     "; the even spread gives every %s the same number of links to each %s of "
                     "its group (a divisor of its %d uplinks), which takes %lld more ($%s; "
                     "spread \"balanced\" avoids them)",
                     lower, role, fab->size[t - 2].up, (long long)(extra * P), a);
        }
        add_note(fab, "%s", text);
    }
    if (sh->ds[L].merged) {
        const fp_sw_list *top = &sh->ds[L];
        const int64_t saved = top->per_position - top->n, over = top->n - top->min_links;
        const char *below = fp__tier_role(L - 1), *role = fp__tier_role(L);
        const char *blk = L - 1 >= 3 ? "zone" : L - 1 == 2 ? "pod" : "block";
        fp_grouped_text((double)saved * P * rs->tier[L - 1].model.price_usd, 0, a, sizeof a);
        fp_grouped_text((double)over * P * rs->tier[L - 1].model.price_usd, 0, b, sizeof b);
        if (over > 0)
            add_note(fab, "tier %d: %lld %ss where the links need %lld: one group over every %s, "
                          "each %s taking the same share of each %s (a split along %ss crosses in "
                          "full), which takes the %lld more ($%s); a group per %s position would "
                          "build %lld (+%lld, $%s)",
                     L, (long long)(top->n * P), role, (long long)(top->min_links * P), below, role,
                     blk, blk, (long long)(over * P), b, below, (long long)(top->per_position * P),
                     (long long)(saved * P), a);
        else
            add_note(fab, "tier %d: %lld %ss, the fewest that carry its links: one group over "
                          "every %s, each %s taking the same share of each %s (a split along %ss "
                          "crosses in full); a group per %s position would build %lld (+%lld, $%s)",
                     L, (long long)(top->n * P), role, below, role, blk, blk, below,
                     (long long)(top->per_position * P), (long long)(saved * P), a);
    }
    for (int t = 1; t < L; t++) {
        fab->extra_links[t] = sh->extra_links[t] * P;
        if (sh->extra_links[t] > 0)
            add_note(fab, "%s uplinks: %lld links beyond the links below need them: a partial "
                          "block's %ss keep all their uplinks so its traffic reaches every %s "
                          "group (full bisection), and the even spread rounds a partial %s up to "
                          "whole multiples",
                     fp__tier_role(t), (long long)(sh->extra_links[t] * P), fp__tier_role(t),
                     fp__tier_role(t + 1), fp__tier_role(t));
    }
    if (dservers > servers) {
        /* Switches of the designed tiers that nothing below reaches yet, and the uplinks the
         * pods still to come will bring. */
        int64_t idle_sw = 0, to_come = 0;
        double idle_cost = 0;
        for (int t = 2; t <= L; t++) {
            if (!sh->designed[t])
                continue;
            const fp_sw_list *lo = &sh->bt[t - 1], *hi = &sh->bt[t];
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
        fp_grouped_text((double)rs->build_for_gpus, 0, a, sizeof a);
        fp_grouped_text(idle_cost, 0, b, sizeof b);
        add_note(fab, "the tiers above the pods are built for %s GPUs (fabric.build_for_gpus): "
                      "%lld of their switches ($%s) have no link from below yet, and their ports "
                      "for the %lld uplinks still to come stay free",
                 a, (long long)idle_sw, b, (long long)to_come);
    }
    return FP_OK;
}

/* Servers present (production and spares) and notes on them; returns the servers the tiers
 * above the pods are built for (fabric.build_for_gpus, else the same). */
static int64_t servers_make(fp_fabric *fab, const fp_rspec *rs)
{
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
    return dservers;
}

/* Rail-optimized: the scalable units' leaves (shared rails, a partial last unit). */
static void rails_make(fp_clos_ctx *c, int64_t dservers)
{
    const fp_rspec *rs = c->rs;
    fp_fabric *fab = c->fab;
    const int eps = rs->endpoints_per_server, P = rs->planes;
    c->r = rail_shape_of(rs, fab->size[0].down);
    c->r.per_leaf = fab->size[0].down;
    c->n_su = rail_units(rs, fab->servers);
    if (rs->su_auto > rs->su_servers) {
        fp_rspec big = *rs;
        big.su_servers = rs->su_auto;
        add_note(fab, "fabric.su_servers not given: %d-server scalable units, the largest up to %d "
                      "whose leaves one tier-2 switch reaches (a %d-server unit needs %d leaves, "
                      "more than the %d down ports of a tier-2 switch below the top)",
                 rs->su_servers, rs->su_auto, rs->su_auto,
                 rail_shape_of(&big, fp__tier_down(rs, 0)).lps, fp__tier_down(rs, 1));
    }
    if (c->r.shared)
        add_note(fab, "%d-server scalable units: %d leaves per unit take the %d rails' %lld NIC "
                      "ports %d to a leaf, some leaves ending one rail and starting the next (one "
                      "set of leaves per rail would need %d)",
                 rs->su_servers, c->r.lps, eps, (long long)eps * rs->su_servers, c->r.per_leaf,
                 eps * c->r.lpr);
    fp_rspec cut = *rs;
    cut.rail_shared = 1;
    const fp_rail_shape sh = rail_shape_of(&cut, fp__tier_down(rs, 0));
    if (!c->r.shared && sh.shared) {
        char usd[48];
        fp_grouped_text((double)(c->r.lps - sh.lps) * (double)c->n_su * P *
                            rs->tier[0].model.price_usd,
                        0, usd, sizeof usd);
        add_note(fab, "%d-server scalable units, rail-aligned (one rail per leaf, as NVIDIA's "
                      "SuperPOD RAs): %d leaves per rail of up to %d servers, %d per unit; "
                      "fabric.rail_leaves \"shared\" would cut a unit's %lld NIC ports %d to a "
                      "leaf on %d leaves (%d fewer per unit, $%s in leaves over %lld units)",
                 rs->su_servers, c->r.lpr, c->r.per_leaf, c->r.lps,
                 (long long)eps * rs->su_servers, sh.per_leaf, sh.lps, c->r.lps - sh.lps, usd,
                 (long long)c->n_su);
    }
    fab->su_count = c->n_su;
    fab->design_su_count = rail_units(rs, dservers);
    fab->leaves_per_su = c->r.lps;
    fab->servers_per_leaf = c->r.per_leaf;
    int64_t last = fab->servers - (c->n_su - 1) * rs->su_servers;
    if (last == rs->su_servers || rs->fill_cap > 0)
        return;
    int64_t idle = 0;
    for (int k = 0; k < c->r.lpr && !c->r.shared; k++) {
        int64_t e = last - (int64_t)k * c->r.per_leaf;
        idle += rail_full_load(&c->r, rs->su_servers, k) - (e < 0               ? 0
                                                            : e > c->r.per_leaf ? c->r.per_leaf
                                                                                : e);
    }
    int64_t idle_shared = 0, kept = 0; /* over all rails at once; the unit's uplinks */
    for (int k = 0; k < c->r.lps; k++)
        kept += c->r.lpr > 1 && !c->r.shared
                    ? up_for(rs, 0, (int)rail_full_load(&c->r, rs->su_servers, k))
                    : fab->size[0].up;
    for (int k = 0; k < c->r.lps && c->r.shared; k++)
        idle_shared += c->r.per_leaf - shared_load(&c->r, eps, rs->su_servers, k, last);
    add_note(fab,
             "the last scalable unit is partial: %lld of %d servers; as in NVIDIA's SuperPOD "
             "designs it keeps its full %d leaves and %lld leaf-spine links so routing stays "
             "rail-aligned, leaving %lld leaf ports for servers to come",
             (long long)last, rs->su_servers, c->r.lps, (long long)kept * P,
             (long long)((c->r.shared ? idle_shared : idle * eps) * P));
}

/* The block tree of the chosen spread (sh) and of the other one (alt), and the fabric's shape
 * from them. 0 when out of memory. */
static int tree_make(fp_clos_ctx *c, int64_t dservers, fp_clos_shape *sh, fp_clos_shape *alt)
{
    const fp_rspec *rs = c->rs;
    fp_fabric *fab = c->fab;
    const int L = fab->tiers;
    const int64_t lps = rs->topology == FP_TOPO_RAIL ? c->r.lps : 1;
    for (int t = 2; t <= L; t++)
        c->children[t] = t < L ? block_children(rs, fab->size, t, lps, NULL) : fab->size[t - 1].down;
    if (rs->topology == FP_TOPO_RAIL && L >= 3)
        c->sus_per_pod = c->children[2] / c->r.lps;
    int64_t umax = 1;
    for (int t = 0; t < L; t++) {
        umax = fab->size[t].up > umax ? fab->size[t].up : umax;
        umax = fab->size[t].down > umax ? fab->size[t].down : umax;
    }
    c->scratch = calloc((size_t)umax + 1, sizeof *c->scratch);
    if (!c->scratch || !fp__clos_shape_make(c, rs->spread, fab->servers, dservers, sh) ||
        !fp__clos_shape_make(c, 1 - rs->spread, fab->servers, dservers, alt))
        return 0;
    for (int t = 1; t <= L; t++) {
        level_from(&fab->level[t], &sh->bt[t], t >= 2 ? c->children[t] : 0);
        level_from(&fab->design[t], &sh->ds[t], t >= 2 ? c->children[t] : 0);
        if (t == L) {
            fab->level[t].children = sh->bt[t - 1].blocks;
            fab->design[t].children = sh->ds[t - 1].blocks;
        }
        fab->alt_switches[t] = alt->bt[t].n;
        if (t < L)
            for (int64_t i = 0; i < alt->bt[t].n; i++)
                fab->alt_links[t] += alt->bt[t].up[i];
    }
    fab->alt_links[0] = (int64_t)fab->servers * rs->endpoints_per_server;
    return 1;
}

/* Room for every device and link of the tree sh. */
static fp_status alloc_make(fp_fabric *fab, const fp_rspec *rs, const fp_clos_shape *sh,
                            fp_error *err)
{
    const int L = fab->tiers, P = rs->planes;
    int64_t n_dev = fab->servers, n_link = fab->servers * rs->endpoints_per_server * P;
    fab->tier_base[0] = 0;
    for (int t = 1; t <= L; t++) {
        fab->tier_base[t] = n_dev;
        n_dev += fab->level[t].switches * P;
        if (t < L)
            for (int64_t i = 0; i < sh->bt[t].n; i++)
                n_link += (int64_t)sh->bt[t].up[i] * P;
    }
    fab->dev = calloc((size_t)n_dev, sizeof *fab->dev);
    fab->link = calloc((size_t)n_link, sizeof *fab->link);
    if (fab->dev == NULL || fab->link == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for %lld devices and %lld links",
                (long long)n_dev, (long long)n_link);
    fab->n_dev = n_dev;
    fab->n_link = n_link;
    return FP_OK;
}

/* Servers: scalable unit or index, pod and zone. */
static void server_devices(const fp_clos_ctx *c)
{
    const fp_rspec *rs = c->rs;
    fp_fabric *fab = c->fab;
    const int L = fab->tiers, eps = rs->endpoints_per_server;
    const int64_t ch2 = L >= 3 ? c->children[2] : 0, ch3 = L >= 4 ? c->children[3] : 0;
    for (int64_t s = 0; s < fab->servers; s++) {
        fp_device *dv = &fab->dev[s];
        dv->tier = 0;
        dv->plane = 0;
        dv->rail = -1;
        dv->zone = -1;
        if (rs->topology == FP_TOPO_RAIL && rs->fill_cap > 0) {
            int64_t unit = 0, port = 0;
            fp__fill_slot(rs, s, &unit, &port);
            dv->su = (int32_t)unit;
            dv->index = (int32_t)port;
            dv->pod = L >= 3 ? (int32_t)(dv->su / c->sus_per_pod) : -1;
        } else if (rs->topology == FP_TOPO_RAIL) {
            dv->su = (int32_t)(s / rs->su_servers);
            dv->index = (int32_t)(s % rs->su_servers);
            dv->pod = L >= 3 ? (int32_t)(dv->su / c->sus_per_pod) : -1;
        } else {
            dv->su = -1;
            dv->index = (int32_t)s;
            dv->pod = L >= 3 ? (int32_t)(s * eps / fab->size[0].down / ch2) : -1;
        }
        if (L >= 4 && dv->pod >= 0)
            dv->zone = (int32_t)(dv->pod / ch3);
    }
}

/* Leaf i (of one plane): its pod and index, and its scalable unit and rail when rail-optimized. */
static int64_t leaf_place(const fp_clos_ctx *c, fp_device *dv, int64_t i)
{
    const fp_rspec *rs = c->rs;
    const int L = c->fab->tiers;
    const int64_t ch2 = L >= 3 ? c->children[2] : 0;
    int64_t pod = -1;
    if (L >= 3) {
        pod = i / ch2;
        dv->index = (int32_t)(i - pod * ch2);
    } else {
        dv->index = (int32_t)i;
    }
    if (rs->topology == FP_TOPO_RAIL) {
        int64_t k = i % c->r.lps;
        dv->su = (int32_t)(i / c->r.lps);
        dv->rail = (int16_t)(k / c->r.lpr);
        dv->index = (int32_t)(k % c->r.lpr);
        if (c->r.shared) {
            /* The rail of the leaf's first port; index counts from the rail's start, so names
             * stay unique. */
            int64_t e0 = k * c->r.per_leaf;
            dv->rail = (int16_t)(e0 / rs->su_servers);
            dv->index = (int32_t)((e0 - dv->rail * rs->su_servers) / c->r.per_leaf);
        }
    }
    return pod;
}

/* Switches of every tier and plane: position, pod, zone. */
static void switch_devices(const fp_clos_ctx *c, const fp_clos_shape *sh)
{
    fp_fabric *fab = c->fab;
    const int L = fab->tiers, P = c->rs->planes;
    const int64_t ch3 = L >= 4 ? c->children[3] : 0;
    for (int t = 1; t <= L; t++) {
        const fp_sw_list *l = &sh->bt[t];
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
                if (t == 1)
                    pod = leaf_place(c, dv, i);
                else if (t == 2 && L >= 3)
                    pod = l->blk[i];
                dv->pod = (int32_t)pod;
                if (L >= 4) {
                    if (t <= 2 && pod >= 0)
                        dv->zone = (int32_t)(pod / ch3);
                    else if (t == 3)
                        dv->zone = (int32_t)l->blk[i];
                }
            }
    }
}

/* Boundary 0: every NIC port of every plane to its leaf. Returns the next link id. */
static int64_t nic_links(const fp_clos_ctx *c)
{
    const fp_rspec *rs = c->rs;
    fp_fabric *fab = c->fab;
    const int P = rs->planes, eps = rs->endpoints_per_server;
    const int ppp = rs->nic.ports / P; /* NIC ports per plane */
    int64_t li = 0;
    fab->boundary_base[0] = 0;
    for (int p = 0; p < P; p++)
        for (int64_t s = 0; s < fab->servers; s++)
            for (int r = 0; r < eps; r++) {
                fp_link *lk = &fab->link[li++];
                int64_t leaf, port;
                int nic = r / ppp, nic_port = (r % ppp) * P + p;
                if (rs->topology == FP_TOPO_RAIL && rs->fill_cap > 0) {
                    fp__fill_slot(rs, s, &leaf, &port);     /* one rail: the unit's leaf */
                } else if (rs->topology == FP_TOPO_RAIL) {
                    int64_t su = s / rs->su_servers, i = s % rs->su_servers;
                    leaf = su * c->r.lps + (int64_t)r * c->r.lpr + i / c->r.per_leaf;
                    port = i % c->r.per_leaf;
                    if (c->r.shared) {
                        int64_t e = (int64_t)r * rs->su_servers + i;
                        leaf = su * c->r.lps + e / c->r.per_leaf;
                        port = e % c->r.per_leaf;
                    }
                } else {
                    int64_t e = s * eps + r;
                    leaf = e / fab->size[0].down;
                    port = e % fab->size[0].down;
                }
                lk->a = (int32_t)s;
                lk->a_port = nic * rs->nic.ports + nic_port;
                lk->z = (int32_t)dev_id(fab, 1, p, leaf);
                lk->z_port = (int32_t)port;
                lk->boundary = 0;
                lk->plane = (uint8_t)p;
            }
    return li;
}

/* Boundaries 1..L-1 from link id li: upper ports in arrival order. Returns the next link id. */
static int64_t switch_links(const fp_clos_ctx *c, const fp_clos_shape *sh, int64_t li)
{
    fp_fabric *fab = c->fab;
    const int L = fab->tiers, P = c->rs->planes;
    for (int t = 1; t < L; t++) {
        const fp_sw_list *lo = &sh->bt[t];
        const int d = fab->size[t - 1].down;
        fab->boundary_base[t] = li;
        for (int p = 0; p < P; p++)
            for (int64_t i = 0; i < lo->n; i++)
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
    fab->boundary_base[L] = li;
    return li;
}

/* What the other spread would build (its counts per plane, here for all planes). */
static void alt_note(fp_fabric *fab, const fp_rspec *rs)
{
    const int L = fab->tiers, P = rs->planes;
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
    fp_grouped_text(dc < 0 ? -dc : dc, 0, a, sizeof a);
    if (asw != sw || alk != lk)
        add_note(fab, "spread \"%s\" would build %lld switches (%+lld, %c$%s in switches) and %lld switch-to-switch links (%+lld)",
                 spread_name(1 - rs->spread), (long long)(asw * P), (long long)((asw - sw) * P),
                 dc < 0 ? '-' : '+', a, (long long)alk, (long long)(alk - lk));
    else
        add_note(fab, "spread \"%s\" would build the same %lld switches and %lld switch-to-switch links",
                 spread_name(1 - rs->spread), (long long)(sw * P), (long long)lk);
}

fp_status fp__clos_build(fp_fabric *fab, const fp_rspec *rs, fp_error *err)
{
    fp_clos_ctx c;
    fp_clos_shape sh, alt;
    fp_status rc = FP_OK;
    fp__clos_keep_sizing(fab, NULL);
    memset(&c, 0, sizeof c);
    memset(&sh, 0, sizeof sh);
    memset(&alt, 0, sizeof alt);
    c.rs = rs;
    c.fab = fab;
    fab->planes = rs->planes;
    int64_t dservers = servers_make(fab, rs);
    if (rs->topology == FP_TOPO_RAIL)
        rails_make(&c, dservers);
    if (!tree_make(&c, dservers, &sh, &alt)) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory sizing the fabric");
        goto out;
    }
    if ((rc = size_notes(&c, &sh, fab->servers, dservers, err)) != FP_OK ||
        (rc = alloc_make(fab, rs, &sh, err)) != FP_OK)
        goto out;
    server_devices(&c);
    switch_devices(&c, &sh);
    int64_t li = switch_links(&c, &sh, nic_links(&c));
    if (li != fab->n_link) {
        rc = fp__error_set(err, FP_EDESIGN, "", "internal error: built %lld links, expected %lld",
                           (long long)li, (long long)fab->n_link);
        goto out;
    }
    const int L = fab->tiers;
    for (int t = 1; t <= L; t++)
        fab->ports_used[t] = (fab->boundary_base[t] - fab->boundary_base[t - 1]) +
                             (t < L ? fab->boundary_base[t + 1] - fab->boundary_base[t] : 0);
    fab->ports_used[0] = fab->boundary_base[1];
    fab->capacity_endpoints = fp__clos_capacity(rs, fab->size, L);
    alt_note(fab, rs);
out:
    if (rc != FP_OK)
        fp__fabric_free(fab);
    fp__clos_shape_free(&sh);
    fp__clos_shape_free(&alt);
    free(c.scratch);
    return rc;
}

void fp__fabric_free(fp_fabric *fab)
{
    if (fab == NULL)
        return;
    free(fab->dev);
    free(fab->link);
    free(fab->link_num);
    free(fab->alias);
    fab->dev = NULL;
    fab->link = NULL;
    fab->link_num = NULL;
    fab->alias = NULL;
    fab->n_dev = fab->n_link = 0;
}
