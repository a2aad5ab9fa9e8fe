/* fabplan — metrics: bisection (analytic and max-flow), oversubscription in use, hops,
 * reliability. Graph work goes through graph.c; everything else is counted from the structure.
 *
 * The bisection split halves every plane's endpoints keeping whole blocks (zones, pods, SUs,
 * leaves) on one side as far as the halves allow, so traffic between the halves climbs to the
 * top tier: the worst balanced split. The analytic value is the minimum cut of the block tree;
 * max-flow (igraph) measures the same split on the switch graph. */
#include <stdlib.h>
#include <string.h>
#include "analysis/graph.h"

void fp__analysis_free(fp_analysis *an)
{
    if (an == NULL)
        return;
    free(an->nic_side);
    free(an);
}

/* ---- reliability: pure math ---- */

void fp_reliability_from_counts(const fp_part_count *parts, size_t n, fp_reliability *out)
{
    double per_hour_switch = 0, per_hour_xcvr = 0, per_hour_cable = 0, per_hour_nic = 0;
    if (out == NULL)
        return;
    memset(out, 0, sizeof *out);
    if (parts == NULL)
        return;
    for (size_t i = 0; i < n; i++) {
        const fp_part_count *p = &parts[i];
        if (p->quantity <= 0)
            continue;
        if (!(p->mtbf_hours > 0)) {
            out->units_without_mtbf += p->quantity;
            continue;
        }
        double rate = (double)p->quantity / p->mtbf_hours;
        if (strcmp(p->category, "switch") == 0)
            per_hour_switch += rate;
        else if (strcmp(p->category, "transceiver") == 0)
            per_hour_xcvr += rate;
        else if (strcmp(p->category, "copper") == 0 || strcmp(p->category, "fibre") == 0 ||
                 strcmp(p->category, "cable") == 0)
            per_hour_cable += rate;
        else if (strcmp(p->category, "nic") == 0)
            per_hour_nic += rate;
    }
    out->switch_failures_per_day = per_hour_switch * 24;
    out->transceiver_failures_per_day = per_hour_xcvr * 24;
    out->cable_failures_per_day = per_hour_cable * 24;
    out->nic_failures_per_day = per_hour_nic * 24;
    out->link_failures_per_day = (per_hour_xcvr + per_hour_cable) * 24;
    /* The minimum of independent exponential lifetimes is exponential with the summed rate. */
    if (per_hour_xcvr + per_hour_cable > 0)
        out->hours_to_first_link_failure = 1.0 / (per_hour_xcvr + per_hour_cable);
    if (per_hour_switch > 0)
        out->hours_to_first_switch_failure = 1.0 / per_hour_switch;
}

static fp_status reliability_from_bom(const fp_bom *bom, fp_reliability *out, fp_error *err)
{
    size_t n = bom->n, k = 0;
    fp_part_count *parts = calloc(n ? n : 1, sizeof *parts);
    fp_status rc = FP_OK;
    if (parts == NULL)
        FP_FAIL(err, FP_ENOMEM, "reliability", "out of memory");
    for (size_t i = 0; i < n && rc == FP_OK; i++) {
        const fp_bom_line line = bom->row[i].line;
        if (line.spare)
            continue;
        parts[k].category = line.category;
        parts[k].quantity = line.quantity;
        parts[k].mtbf_hours = line.mtbf_hours;
        k++;
    }
    if (rc == FP_OK)
        fp_reliability_from_counts(parts, k, out);
    free(parts);
    return rc;
}

/* ---- the split ---- */

/* Cost of the cheapest cut below a node of the block tree, with the node on the source side
 * (s) or on the sink side (t), in links. */
typedef struct cut_cost {
    int64_t s, t;
} cut_cost;

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* Hang a child (whose own uplinks are `up` links) under its parent: the child either stays on
 * the parent's side or takes the other side and the cut crosses its uplinks. */
static void add_child(cut_cost *parent, cut_cost child, int64_t up)
{
    parent->s += min64(child.s, child.t + up);
    parent->t += min64(child.t, child.s + up);
}

typedef struct split_work {
    int64_t per_plane;      /* leaves per plane */
    int64_t *ep;            /* NIC links per leaf (all planes) */
    int64_t *s_ep;          /* of those, on the source side */
    int64_t *up;            /* uplinks of each leaf (all planes) */
    int64_t *pod_up;        /* uplinks of each pod's spines (plane-major), 3+ tiers */
    int64_t *zone_up;       /* uplinks of each zone's cores (plane-major), 4 tiers */
    cut_cost *pod, *zone;   /* scratch for the tree */
} split_work;

/* The analytic bisection of one split (s_ep per leaf), in Gb/s (each link at its boundary's
 * speed, gbps[b]), all planes: the minimum cut
 * of the block tree (leaves -> pods -> zones -> top), whose edges are each block's uplinks
 * counted from the built links. The builder spreads every switch's uplinks evenly over its
 * upper group, so a block acts as one node and this tree cut is the fabric's max-flow; it is
 * computed without igraph, so max-flow checks it rather than repeating it. */
static int64_t tree_cut(const fp_fabric *fab, const split_work *w, const int *gbps)
{
    const int L = fab->tiers;
    const int64_t n_pods = L >= 3 ? fab->level[2].blocks : 0;
    const int64_t n_zones = L >= 4 ? fab->level[3].blocks : 0;
    int64_t total = 0;
    for (int p = 0; p < fab->planes; p++) {
        cut_cost root = { 0, 0 };
        memset(w->pod, 0, sizeof *w->pod * (size_t)(n_pods ? n_pods : 1));
        memset(w->zone, 0, sizeof *w->zone * (size_t)(n_zones ? n_zones : 1));
        for (int64_t b = 0; b < w->per_plane; b++) {
            int64_t l = p * w->per_plane + b;
            const fp_device *d = &fab->dev[fab->tier_base[1] + l];
            /* A leaf on the source side cuts its sink NICs, and the other way round. */
            cut_cost leaf = { (w->ep[l] - w->s_ep[l]) * gbps[0], w->s_ep[l] * gbps[0] };
            add_child(L >= 3 ? &w->pod[d->pod] : &root, leaf, w->up[l] * gbps[1]);
        }
        for (int64_t q = 0; q < n_pods; q++) {
            int64_t zone = L >= 4 ? q / fab->level[3].children : -1;
            add_child(L >= 4 ? &w->zone[zone] : &root, w->pod[q],
                      w->pod_up[p * n_pods + q] * gbps[2]);
        }
        for (int64_t z = 0; z < n_zones; z++)
            add_child(&root, w->zone[z], w->zone_up[p * n_zones + z] * gbps[3]);
        total += min64(root.s, root.t);
    }
    return total;
}

/* Put the first (forward) or last half of every plane's NIC links, in leaf order, on the
 * source side. Leaves are numbered block by block, so whole zones, pods or SUs go first and
 * at most one block per level is split. */
static void fill_half(const fp_fabric *fab, split_work *w, int forward)
{
    for (int p = 0; p < fab->planes; p++) {
        int64_t plane_total = 0, left;
        for (int64_t b = 0; b < w->per_plane; b++)
            plane_total += w->ep[p * w->per_plane + b];
        left = plane_total / 2;
        for (int64_t k = 0; k < w->per_plane; k++) {
            int64_t l = p * w->per_plane + (forward ? k : w->per_plane - 1 - k);
            w->s_ep[l] = min64(left, w->ep[l]);
            left -= w->s_ep[l];
        }
    }
}

static const char *unit_word(const fp_stages *st, int level, int plural)
{
    if (level == 1 && st->rs->topology == FP_TOPO_RAIL && st->fab->tiers == 2)
        return plural ? "SUs" : "SU";
    if (level == 3)
        return plural ? "zones" : "zone";
    if (level == 2)
        return plural ? "pods" : "pod";
    return plural ? "leaves" : "leaf";
}

/* Unit of plane-0 leaf b at a description level: 3 zone, 2 pod, 1 SU (rail, 2 tiers), 0 leaf. */
static int64_t unit_of(const fp_stages *st, int64_t b, int level)
{
    const fp_device *d = &st->fab->dev[st->fab->tier_base[1] + b];
    if (level == 3)
        return d->zone;
    if (level == 2)
        return d->pod;
    if (level == 1)
        return d->su;
    return b;
}

/* "pods 1-7 + leaves 295-312 + 16 of 32 endpoints on pod08-leaf-19 | the rest": the source
 * side of plane 0 (planes split alike), units numbered from 1 across the plane. */
static void describe_split(const fp_stages *st, fp_analysis *an, const split_work *w, int forward)
{
    const fp_fabric *fab = st->fab;
    char *out = an->m.split, name[48];
    const size_t cap = sizeof an->m.split;
    const int64_t n = w->per_plane;
    int levels[4], n_levels = 0;
    size_t len = 0;
    for (int h = fab->tiers - 1; h >= 2; h--)
        levels[n_levels++] = h;
    if (st->rs->topology == FP_TOPO_RAIL && fab->tiers == 2)
        levels[n_levels++] = 1;
    levels[n_levels++] = 0;
#define LEAF(i) (forward ? (i) : n - 1 - (i))
    /* k: the first leaf, in fill order, not wholly on the source side. */
    int64_t k = 0, from = 0;
    while (k < n && w->s_ep[LEAF(k)] == w->ep[LEAF(k)] && w->ep[LEAF(k)] > 0)
        k++;
    out[0] = '\0';
    for (int i = 0; i < n_levels && len + 1 < cap; i++) {
        int lv = levels[i];
        int64_t lo = -1, hi = -1, j = from;
        /* Whole units of this level between leaf `from` and leaf k. */
        while (j < k) {
            int64_t u = unit_of(st, LEAF(j), lv), e = j;
            while (e < n && unit_of(st, LEAF(e), lv) == u)
                e++;
            if (e > k)
                break;
            lo = lo < 0 || u < lo ? u : lo;
            hi = u > hi ? u : hi;
            j = e;
        }
        if (lo >= 0) {
            len += (size_t)snprintf(out + len, cap - len, "%s%s %lld", len ? " + " : "",
                                    unit_word(st, lv, hi > lo), (long long)lo + 1);
            if (hi > lo && len + 1 < cap)
                len += (size_t)snprintf(out + len, cap - len, "-%lld", (long long)hi + 1);
        }
        from = j;
    }
    if (k < n && w->s_ep[LEAF(k)] > 0 && len + 1 < cap)
        len += (size_t)snprintf(out + len, cap - len, "%s%lld of %lld endpoints on %s",
                                len ? " + " : "", (long long)w->s_ep[LEAF(k)],
                                (long long)w->ep[LEAF(k)],
                                fp__device_name(name, sizeof name, fab, st->rs,
                                                fab->tier_base[1] + LEAF(k)));
#undef LEAF
    if (len + 1 < cap)
        snprintf(out + len, cap - len, " | the rest");
}

/* Choose the split, mark every NIC link's side, and compute the analytic bisection (in Gb/s,
 * all planes). The split halves every plane's endpoints (the smaller half when odd) keeping
 * whole blocks together as far as the halves allow: traffic between whole blocks must climb to
 * the top tier, so this is the worst balanced split of a folded Clos. Filling from the front
 * and from the back split different blocks (a partial last block differs), so both are
 * tried and the smaller cut is kept. */
static fp_status choose_split(const fp_stages *st, fp_analysis *an, int64_t *analytic_links, fp_error *err)
{
    const fp_fabric *fab = st->fab;
    const int L = fab->tiers, P = fab->planes;
    const int64_t nic_links = fab->boundary_base[1];
    const int64_t n_pods = L >= 3 ? fab->level[2].blocks : 0;
    const int64_t n_zones = L >= 4 ? fab->level[3].blocks : 0;
    split_work w = { 0 };
    fp_status rc = FP_OK;
    w.per_plane = fab->level[1].switches;
    int64_t n_leaves = w.per_plane * P;
    w.ep = calloc((size_t)n_leaves, sizeof *w.ep);
    w.s_ep = calloc((size_t)n_leaves, sizeof *w.s_ep);
    w.up = calloc((size_t)n_leaves, sizeof *w.up);
    w.pod_up = calloc((size_t)(n_pods * P + 1), sizeof *w.pod_up);
    w.zone_up = calloc((size_t)(n_zones * P + 1), sizeof *w.zone_up);
    w.pod = calloc((size_t)(n_pods + 1), sizeof *w.pod);
    w.zone = calloc((size_t)(n_zones + 1), sizeof *w.zone);
    if (!w.ep || !w.s_ep || !w.up || !w.pod_up || !w.zone_up || !w.pod || !w.zone) {
        rc = fp__error_set(err, FP_ENOMEM, "bisection", "out of memory");
        goto out;
    }
    for (int64_t i = 0; i < nic_links; i++)
        w.ep[fab->link[i].z - fab->tier_base[1]]++;
    /* Uplinks as built, per leaf, per pod (its spines') and per zone (its cores'). */
    for (int64_t i = fab->boundary_base[1]; i < fab->n_link; i++) {
        const fp_link *lk = &fab->link[i];
        const fp_device *a = &fab->dev[lk->a];
        if (lk->boundary == 1)
            w.up[lk->a - fab->tier_base[1]]++;
        else if (lk->boundary == 2)
            w.pod_up[a->plane * n_pods + a->pod]++;
        else if (lk->boundary == 3)
            w.zone_up[a->plane * n_zones + a->zone]++;
    }
    fill_half(fab, &w, 1);
    int64_t forward_cut = tree_cut(fab, &w, st->rs->gbps);
    fill_half(fab, &w, 0);
    int64_t backward_cut = tree_cut(fab, &w, st->rs->gbps);
    int forward = forward_cut <= backward_cut;
    if (forward)
        fill_half(fab, &w, 1);
    *analytic_links = forward ? forward_cut : backward_cut;
    /* Mark NIC links in link order: the first s_ep of each leaf's links are on the source side. */
    memcpy(w.up, w.s_ep, sizeof *w.up * (size_t)n_leaves);
    for (int64_t i = 0; i < nic_links; i++) {
        int64_t l = fab->link[i].z - fab->tier_base[1];
        an->nic_side[i] = (uint8_t)(w.up[l] > 0 ? 1 : 2);
        if (w.up[l] > 0)
            w.up[l]--;
    }
    describe_split(st, an, &w, forward);
out:
    free(w.ep);
    free(w.s_ep);
    free(w.up);
    free(w.pod_up);
    free(w.zone_up);
    free(w.pod);
    free(w.zone);
    return rc;
}

/* ---- hops ---- */

static int64_t pairs_of(int64_t n)
{
    return n * (n - 1) / 2;
}

static void add_hop_row(fp_metrics *m, const char *scope, int switches, int64_t pairs, int64_t all)
{
    fp_hop_row *h = &m->hops[m->n_hops++];
    snprintf(h->scope, sizeof h->scope, "%s", scope);
    h->switches = switches;
    h->pairs = pairs;
    h->share = all > 0 ? (double)pairs / (double)all : 0;
}

/* Pairs in groups keyed [block * rails + rail]: pairs that share the block AND the rail. */
static int64_t pairs_in(const int64_t *n, int64_t count)
{
    int64_t p = 0;
    for (int64_t i = 0; i < count; i++)
        p += pairs_of(n[i]);
    return p;
}

/* Counts of GPUs per leaf, per (pod, rail), per (zone, rail), per rail; and per pod, zone. */
typedef struct hop_counts {
    int64_t *leaf_n, *pod_n, *zone_n, *pod_rail_n, *zone_rail_n, *rail_n;
} hop_counts;

/* Count every GPU into its leaf, pod, zone and rail groups. */
static void count_gpus(const fp_fabric *fab, const fp_rspec *rs, int rails, hop_counts *c)
{
    const int L = fab->tiers, eps = rs->endpoints_per_server, gps = rs->gpus_per_server;
    /* GPU i of a server talks through its NIC port i * eps / gps of plane 0 (one NIC per GPU
     * in the usual case); planes are copies, so plane 0 stands for all. */
    for (int64_t s = 0; s < fab->servers; s++) {
        int64_t g_here = s == fab->servers - 1 ? rs->gpus - s * gps : gps;
        for (int64_t i = 0; i < g_here; i++) {
            int64_t r = i * eps / gps;
            const fp_device *leaf = &fab->dev[fab->link[s * eps + r].z];
            int64_t rail = rails > 1 ? r : 0;  /* NIC port r is rail r (a shared leaf holds two) */
            int64_t pod = L >= 3 ? leaf->pod : 0, zone = L >= 4 ? leaf->zone : 0;
            c->leaf_n[fab->link[s * eps + r].z - fab->tier_base[1]]++;
            c->pod_n[pod]++;
            c->zone_n[zone]++;
            c->pod_rail_n[pod * rails + rail]++;
            c->zone_rail_n[zone * rails + rail]++;
            c->rail_n[rail]++;
        }
    }
}

/* The hop rows from same[k] / same_rail[k] (pairs inside one level-k block, and of those the
 * pairs that share a rail): level k rows are the pairs first joined at level k (inside a
 * level-k block, not a level-(k-1) one); a path between them climbs k tiers, crossing 2k - 1
 * switches. Levels that the fabric does not have are skipped: the top level is the whole plane. */
static void add_hop_rows(fp_metrics *m, int L, int rails, const int64_t *same,
                         const int64_t *same_rail, int64_t all)
{
    for (int k = 1; k <= L && k <= 4; k++) {
        int64_t in_k = k == L ? all : same[k], in_rail = k == L ? same_rail[4] : same_rail[k];
        const char *name = k == 1 ? "same leaf" : k == 2 && L == 2 ? "across leaves"
                         : k == 2 ? "same pod" : k == 3 && L == 3 ? "across pods"
                         : k == 3 ? "same zone" : "across zones";
        int64_t n = in_k - (k == 1 ? 0 : same[k - 1]);
        int64_t n_rail = in_rail - (k == 1 ? 0 : same_rail[k - 1]);
        if (k == 1 || rails == 1) {
            add_hop_row(m, name, 2 * k - 1, n, all);
        } else {
            char a[48], b[48];
            snprintf(a, sizeof a, "%s, same rail", name);
            snprintf(b, sizeof b, "%s, other rail", name);
            add_hop_row(m, a, 2 * k - 1, n_rail, all);
            add_hop_row(m, b, 2 * k - 1, n - n_rail, all);
        }
    }
}

static fp_status count_hops(const fp_stages *st, fp_analysis *an, fp_error *err)
{
    const fp_fabric *fab = st->fab;
    const fp_rspec *rs = st->rs;
    fp_metrics *m = &an->m;
    const int L = fab->tiers, eps = rs->endpoints_per_server;
    const int64_t per_plane = fab->level[1].switches;
    const int64_t n_pods = L >= 3 ? fab->level[2].blocks : 1, n_zones = L >= 4 ? fab->level[3].blocks : 1;
    /* Rail-optimized fabrics also split each scope by rail: NCCL's rail-aligned traffic stays on
     * one rail, so architects want to see how many pairs share it. */
    const int rails = rs->topology == FP_TOPO_RAIL ? eps : 1;
    hop_counts c;
    c.leaf_n = calloc((size_t)per_plane, sizeof *c.leaf_n);
    c.pod_n = calloc((size_t)n_pods, sizeof *c.pod_n);
    c.zone_n = calloc((size_t)n_zones, sizeof *c.zone_n);
    c.pod_rail_n = calloc((size_t)(n_pods * rails), sizeof *c.pod_rail_n);
    c.zone_rail_n = calloc((size_t)(n_zones * rails), sizeof *c.zone_rail_n);
    c.rail_n = calloc((size_t)rails, sizeof *c.rail_n);
    fp_status rc = FP_OK;
    if (!c.leaf_n || !c.pod_n || !c.zone_n || !c.pod_rail_n || !c.zone_rail_n || !c.rail_n) {
        rc = fp__error_set(err, FP_ENOMEM, "hops", "out of memory");
        goto out;
    }
    count_gpus(fab, rs, rails, &c);
    const int64_t all = pairs_of(rs->gpus);
    /* same[k]: pairs inside one level-k block (k = 1 leaf, 2 pod, 3 zone, 4 plane);
     * same_rail[k]: of those, pairs that also share a rail (rail-optimized only). */
    int64_t same[5], same_rail[5];
    same[1] = same_rail[1] = pairs_in(c.leaf_n, per_plane);
    same[2] = L >= 3 ? pairs_in(c.pod_n, n_pods) : all;
    same[3] = L >= 4 ? pairs_in(c.zone_n, n_zones) : all;
    same[4] = all;
    same_rail[2] = L >= 3 ? pairs_in(c.pod_rail_n, n_pods * rails) : pairs_in(c.rail_n, rails);
    same_rail[3] = L >= 4 ? pairs_in(c.zone_rail_n, n_zones * rails) : pairs_in(c.rail_n, rails);
    same_rail[4] = pairs_in(c.rail_n, rails);

    m->gpu_pairs = all;
    m->hop_sample = 0;
    m->n_hops = 0;
    add_hop_rows(m, L, rails, same, same_rail, all);
out:
    free(c.leaf_n);
    free(c.pod_n);
    free(c.zone_n);
    free(c.pod_rail_n);
    free(c.zone_rail_n);
    free(c.rail_n);
    return rc;
}

/* Seeded, portable generator (splitmix64): same seed, same choices everywhere. */
uint64_t fp__rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static fp_status diameter(const fp_stages *st, fp_analysis *an, fp_error *err)
{
    const fp_fabric *fab = st->fab;
    fp_metrics *m = &an->m;
    int h = 1;
    /* A path climbs to the lowest tier whose blocks hold both ends: h tiers up and down. */
    while (h < fab->tiers && fab->level[h].blocks > 1)
        h++;
    m->diameter_switches = 2 * h - 1;
    int64_t per_plane = fab->level[1].switches, sources[4];
    uint64_t state = 1;
    int n = per_plane < 4 ? (int)per_plane : 4;
    sources[0] = fab->tier_base[1];
    for (int i = 1; i < n; i++)
        sources[i] = fab->tier_base[1] + (int64_t)(fp__rand_next(&state) % (uint64_t)per_plane);
    m->bfs_sources = n;
    return fp__graph_leaf_eccentricity(fab, sources, n, &m->diameter_bfs_switches, err);
}

/* NIC links per leaf on each side, counting only links that are up. */
fp_status fp__split_links(const fp_fabric *fab, const fp_analysis *an, const uint8_t *link_down,
                          int64_t **s_links, int64_t **t_links, fp_error *err)
{
    int64_t n_leaves = fab->tier_base[2] - fab->tier_base[1];
    *s_links = calloc((size_t)n_leaves, sizeof **s_links);
    *t_links = calloc((size_t)n_leaves, sizeof **t_links);
    if (*s_links == NULL || *t_links == NULL) {
        free(*s_links);
        free(*t_links);
        *s_links = *t_links = NULL;
        FP_FAIL(err, FP_ENOMEM, "bisection", "out of memory");
    }
    for (int64_t i = 0; i < fab->boundary_base[1]; i++) {
        if (link_down && link_down[i])
            continue;
        int64_t l = fab->link[i].z - fab->tier_base[1];
        if (an->nic_side[i] == 1)
            (*s_links)[l]++;
        else
            (*t_links)[l]++;
    }
    return FP_OK;
}

fp_status fp__analysis_fabric(fp_analysis **out, const fp_stages *st, fp_error *err)
{
    const fp_fabric *fab = st->fab;
    const int g = st->rs->link_gbps;
    fp_status rc;
    int64_t analytic = 0, *s_links = NULL, *t_links = NULL;
    fp_analysis *an = *out = calloc(1, sizeof *an);
    if (an == NULL)
        FP_FAIL(err, FP_ENOMEM, "metrics", "out of memory");
    fp_metrics *m = &an->m;
    an->nic_side = malloc((size_t)(fab->boundary_base[1] > 0 ? fab->boundary_base[1] : 1));
    if (an->nic_side == NULL)
        FP_FAIL(err, FP_ENOMEM, "metrics", "out of memory");

    if ((rc = choose_split(st, an, &analytic, err)) != FP_OK ||
        (rc = fp__split_links(fab, an, NULL, &s_links, &t_links, err)) != FP_OK)
        goto out;
    for (int64_t l = 0; l < fab->tier_base[2] - fab->tier_base[1]; l++) {
        m->split_endpoints[0] += s_links[l];
        m->split_endpoints[1] += t_links[l];
    }
    m->bisection_gbps = (double)analytic;
    m->split_demand_gbps = (double)min64(m->split_endpoints[0], m->split_endpoints[1]) * g;
    if ((rc = fp__graph_bisection(fab, st->rs->gbps, s_links, t_links, NULL, NULL, 0,
                                  &m->bisection_maxflow_gbps,
                                  err)) != FP_OK)
        goto out;
    m->full_bisection = m->bisection_gbps >= m->split_demand_gbps;

    m->tiers = fab->tiers;
    for (int t = 1; t < fab->tiers; t++) {
        int64_t down = fab->boundary_base[t] - fab->boundary_base[t - 1];
        int64_t up = fab->boundary_base[t + 1] - fab->boundary_base[t];
        m->oversubscription[t - 1] = up > 0 ? (double)down * st->rs->gbps[t - 1] /
                                                   ((double)up * st->rs->gbps[t]) : 0;
    }
    if ((rc = diameter(st, an, err)) != FP_OK || (rc = count_hops(st, an, err)) != FP_OK ||
        (rc = fp__collectives_run(&an->coll, st, an, NULL, m->bisection_maxflow_gbps, err)) != FP_OK)
        goto out;
out:
    free(s_links);
    free(t_links);
    return rc;
}

fp_status fp__analysis_bom(fp_analysis *an, const fp_stages *st, fp_error *err)
{
    return reliability_from_bom(st->bom, &an->m.reliability, err);
}
