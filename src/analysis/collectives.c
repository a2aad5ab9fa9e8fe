/* fabplan — expected collective bandwidth per placement scope (docs/metrics.md, "Collectives").
 *
 * A scope is a block of servers that reach each other below one tier: one leaf (Clos,
 * fat-tree), one scalable unit (rail-optimized), a pod, a zone, the whole fabric. For a block,
 * the per-GPU bandwidth is the least of three figures: the GPU's NIC ports that are up; at each
 * tier the block's traffic crosses, the uplinks still up of the least-served sub-block (a leaf,
 * a pod's spines, a zone's cores) over the NIC ports under it (the oversubscription in use);
 * and the max-flow between the block's two halves (servers in order, so whole sub-blocks stay
 * on one side and the traffic between them climbs to the top of the block) over the smaller
 * half's GPUs, on the block's own links (graph.c, the bisection's max-flow). The whole fabric's
 * max-flow is the plan's bisection (or the what-if's), never computed again. The nccl-tests
 * busbw and algbw ceilings and NCCL's alpha terms follow from that figure and n. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/graph.h"

enum { SC_LEAF, SC_SU, SC_POD, SC_ZONE, SC_FABRIC };
static const char *const scope_names[] = { "leaf", "su", "pod", "zone", "fabric" };

typedef struct coll_work {
    const fp_stages *st;
    const uint8_t *down;        /* NULL: the plan as built */
    int64_t n_leaves, n_pods, n_zones, nsw;
    int64_t *ep_leaf, *up_leaf; /* NIC links under (as built) / uplinks up, per leaf */
    int64_t *ep_pod, *up_pod;   /* per plane * n_pods + pod: under its leaves / its spines' up */
    int64_t *ep_zone, *up_zone; /* per plane * n_zones + zone, the same for its cores */
    int64_t *up_first, *up_n;   /* per switch: its first uplink's id and its uplink count */
    int64_t *s_links, *t_links; /* per leaf: the flow's source and sink NIC links */
    int64_t *links, n_links;    /* the block's switch links */
    int64_t *set, n_set;        /* the block's switches, tier by tier */
    int64_t set_at[FP_MAX_TIERS + 2];
    int64_t *stamp, stamp_now;  /* per switch: the block that listed it last */
    double epg;                 /* NIC ports per GPU (all planes) */
} coll_work;

static int64_t nic_link(const fp_fabric *fab, const fp_rspec *rs, int p, int64_t s, int r)
{
    return ((int64_t)p * fab->servers + s) * rs->endpoints_per_server + r;
}

/* Block key of a leaf for a scope kind: servers whose NIC ports all have one key share a block. */
static int64_t leaf_key(const fp_fabric *fab, int kind, int64_t leaf)
{
    const fp_device *d = &fab->dev[leaf];
    return kind == SC_LEAF ? leaf : kind == SC_SU ? d->su : kind == SC_POD ? d->pod : d->zone;
}

/* The key of server s's block, or -1 when its NIC ports (plane 0; the planes are copies) land
 * in two blocks. */
static int64_t server_key(const coll_work *w, int kind, int64_t s)
{
    const fp_fabric *fab = w->st->fab;
    const int eps = w->st->rs->endpoints_per_server;
    int64_t key = leaf_key(fab, kind, fab->link[nic_link(fab, w->st->rs, 0, s, 0)].z);
    for (int r = 1; r < eps; r++)
        if (leaf_key(fab, kind, fab->link[nic_link(fab, w->st->rs, 0, s, r)].z) != key)
            return -1;
    return key;
}

static int64_t gpus_of(const fp_rspec *rs, int64_t s0, int64_t s1, int64_t servers)
{
    int64_t g = (s1 - s0) * rs->gpus_per_server;
    if (s1 == servers)      /* the last server may hold fewer */
        g -= servers * rs->gpus_per_server - rs->gpus;
    return g;
}

static void add_switch(coll_work *w, int64_t dev)
{
    int64_t v = dev - w->st->fab->servers;
    if (w->stamp[v] == w->stamp_now)
        return;
    w->stamp[v] = w->stamp_now;
    w->set[w->n_set++] = dev;
}

/* The block's switches tier by tier (leaves of its servers, then the upper ends of their
 * uplinks, `crossed` tiers up) and the links between them. Returns 1 when one of them (or a
 * NIC link of the block) is down. */
static int block_links(coll_work *w, int64_t s0, int64_t s1, int crossed)
{
    const fp_fabric *fab = w->st->fab;
    const fp_rspec *rs = w->st->rs;
    int touched = 0;
    w->stamp_now++;
    w->n_set = w->n_links = 0;
    w->set_at[1] = 0;
    for (int p = 0; p < fab->planes; p++)
        for (int64_t s = s0; s < s1; s++)
            for (int r = 0; r < rs->endpoints_per_server; r++) {
                int64_t i = nic_link(fab, rs, p, s, r);
                touched |= w->down && w->down[i];
                add_switch(w, fab->link[i].z);
            }
    for (int t = 1; t <= crossed; t++) {
        int64_t from = w->set_at[t], to = w->n_set;
        w->set_at[t + 1] = to;
        for (int64_t k = from; k < to; k++) {
            int64_t v = w->set[k] - fab->servers;
            for (int64_t i = w->up_first[v]; i < w->up_first[v] + w->up_n[v]; i++) {
                touched |= w->down && w->down[i];
                w->links[w->n_links++] = i;
                add_switch(w, fab->link[i].z);
            }
        }
    }
    w->set_at[crossed + 2] = w->n_set;
    return touched;
}

static double ratio_of(int64_t num, int gbps, int64_t den)
{
    return den > 0 ? (double)num * gbps / (double)den : 0;
}

/* Uplinks per NIC port (Gb/s) of the sub-block of tier-t switch dev, and the NIC ports under it. */
static double sub_block(const coll_work *w, int t, int64_t dev, int64_t *ep)
{
    const fp_fabric *fab = w->st->fab;
    const fp_device *d = &fab->dev[dev];
    const int *g = w->st->rs->gbps;
    if (t == 1) {
        int64_t l = dev - fab->tier_base[1];
        *ep = w->ep_leaf[l];
        return ratio_of(w->up_leaf[l], g[1], *ep);
    }
    if (t == 2) {
        int64_t k = d->plane * w->n_pods + d->pod;
        *ep = w->ep_pod[k];
        return ratio_of(w->up_pod[k], g[2], *ep);
    }
    int64_t k = d->plane * w->n_zones + d->zone;
    *ep = w->ep_zone[k];
    return ratio_of(w->up_zone[k], g[3], *ep);
}

/* NCCL's alpha terms (tuning.cc) for n ranks on `nodes` servers, Simple protocol. */
static void alpha_terms(fp_collective_scope *c)
{
    const int64_t n = c->gpus, nodes = c->servers;
    int64_t inter = 2 * nodes, intra = 2 * (n - 1) - inter, lg = 0;
    /* One GPU per server: NCCL's 2 (n - 1) - 2 nodes steps inside servers would be -2. */
    if (intra < 0)
        intra = 0;
    c->ring_allreduce_us = FP_NCCL_RING_BASE_US + (double)intra * FP_NCCL_RING_NVLINK_US +
                           (double)inter * FP_NCCL_RING_NET_US;
    c->ring_allgather_us = FP_NCCL_RING_BASE_US + (double)(n - nodes) * FP_NCCL_RING_NVLINK_US +
                           (double)(nodes - 1) * FP_NCCL_RING_NET_US;
    while ((2LL << lg) <= nodes)    /* log2i: floor(log2(nodes)) */
        lg++;
    c->tree_allreduce_us = FP_NCCL_TREE_BASE_US +
                           2 * ((double)(n / nodes - 1) * FP_NCCL_TREE_NVLINK_US +
                                (double)lg * FP_NCCL_TREE_NET_US);
}

/* The ceilings from the per-GPU figures: B, busbw and algbw (nccl-tests), all-to-all through
 * the narrowest level (a2a: the least of the candidates collected), alpha terms. */
static void finish_scope(fp_collective_scope *c, double a2a)
{
    const double n = (double)c->gpus;
    double b = c->nic_gbps < c->bisection_gbps ? c->nic_gbps : c->bisection_gbps;
    for (int t = 0; t < c->tiers_crossed; t++)
        if (c->uplink_gbps[t] < b)
            b = c->uplink_gbps[t];
    c->gbps = b;
    c->allreduce_busbw = c->allgather_busbw = b / 8;
    c->allreduce_algbw = c->allreduce_busbw * n / (2 * (n - 1));
    c->allgather_algbw = c->allgather_busbw * n / (n - 1);
    c->alltoall_busbw = (isinf(a2a) ? b : a2a) / 8;
    c->alltoall_algbw = c->alltoall_busbw * n / (n - 1);
    alpha_terms(c);
}

/* One all-to-all candidate: a level whose m of the n GPUs share per-GPU bandwidth u sends
 * (n - m) / n of the traffic out, so busbw <= u (n - 1) / (n - m). */
static void a2a_level(double *a2a, double u, double n, double m)
{
    if (n > m && u * (n - 1) / (n - m) < *a2a)
        *a2a = u * (n - 1) / (n - m);
}

/* Per GPU: server s's NIC ports that are up x their speed over a full server's GPUs. */
static double server_nic(const coll_work *w, int64_t s)
{
    const fp_fabric *fab = w->st->fab;
    const fp_rspec *rs = w->st->rs;
    int64_t up = 0;
    for (int p = 0; p < fab->planes; p++)
        for (int r = 0; r < rs->endpoints_per_server; r++)
            up += !(w->down && w->down[nic_link(fab, rs, p, s, r)]);
    return (double)up * rs->gbps[0] / rs->gpus_per_server;
}

/* The NIC figure of servers [s0, s1) and the uplink figure of every tier crossed (w->set by
 * tier: the block's switches), with their all-to-all candidates. */
static void level_figures(const coll_work *w, int64_t s0, int64_t s1, fp_collective_scope *c,
                          double *a2a)
{
    c->nic_gbps = INFINITY;
    for (int64_t s = s0; s < s1; s++) {
        double nic = server_nic(w, s);
        if (nic < c->nic_gbps)
            c->nic_gbps = nic;
    }
    a2a_level(a2a, c->nic_gbps, (double)c->gpus, w->st->rs->gpus_per_server);
    for (int t = 1; t <= c->tiers_crossed; t++) {
        c->uplink_gbps[t - 1] = INFINITY;
        for (int64_t k = w->set_at[t]; k < w->set_at[t + 1]; k++) {
            int64_t ep;
            double u = sub_block(w, t, w->set[k], &ep) * w->epg;
            if (ep == 0)
                continue;
            if (u < c->uplink_gbps[t - 1])
                c->uplink_gbps[t - 1] = u;
            a2a_level(a2a, u, (double)c->gpus, (double)ep / w->epg);
        }
        if (isinf(c->uplink_gbps[t - 1]))
            c->uplink_gbps[t - 1] = 0;
    }
}

/* The bisection figure from a max-flow over the smaller half's `small` NIC ports, its
 * all-to-all candidate, and the ceilings. */
static void bisection_figure(const coll_work *w, fp_collective_scope *c, double flow,
                             int64_t small, double a2a)
{
    c->bisection_gbps = small > 0 ? flow / (double)small * w->epg : 0;
    a2a_level(&a2a, c->bisection_gbps, (double)c->gpus, (double)c->gpus - (double)small / w->epg);
    finish_scope(c, a2a);
}

/* Measure one block: servers [s0, s1), its links listed by block_links. */
static fp_status measure_block(coll_work *w, int kind, int64_t s0, int64_t s1, int crossed,
                               fp_collective_scope *c, fp_error *err)
{
    const fp_fabric *fab = w->st->fab;
    const fp_rspec *rs = w->st->rs;
    const int64_t mid = s0 + (s1 - s0) / 2;
    int64_t ep_side[2] = { 0, 0 };
    double a2a = INFINITY, flow = 0;
    fp_status rc;
    memset(c, 0, sizeof *c);
    snprintf(c->scope, sizeof c->scope, "%s", scope_names[kind]);
    if (kind == SC_LEAF)
        fp__device_name(c->block, sizeof c->block, fab, rs, w->set[0]);
    else
        snprintf(c->block, sizeof c->block, "%s %lld", kind == SC_SU ? "SU" : scope_names[kind],
                 (long long)leaf_key(fab, kind, w->set[0]) + 1);
    c->gpus = gpus_of(rs, s0, s1, fab->servers);
    c->servers = s1 - s0;
    c->tiers_crossed = crossed;
    level_figures(w, s0, s1, c, &a2a);
    /* The halves' NIC links that are up, per leaf, as the flow's source and sink. */
    memset(w->s_links, 0, sizeof *w->s_links * (size_t)w->n_leaves);
    memset(w->t_links, 0, sizeof *w->t_links * (size_t)w->n_leaves);
    for (int p = 0; p < fab->planes; p++)
        for (int64_t s = s0; s < s1; s++)
            for (int r = 0; r < rs->endpoints_per_server; r++) {
                int64_t i = nic_link(fab, rs, p, s, r), l = fab->link[i].z - fab->tier_base[1];
                ep_side[s >= mid]++;
                if (!(w->down && w->down[i]))
                    (s < mid ? w->s_links : w->t_links)[l]++;
            }
    if ((rc = fp__graph_bisection(fab, rs->gbps, w->s_links, w->t_links, w->down, w->links,
                                  w->n_links, &flow, err)) != FP_OK)
        return rc;
    bisection_figure(w, c, flow, ep_side[0] < ep_side[1] ? ep_side[0] : ep_side[1], a2a);
    return FP_OK;
}

/* Tiers a block's traffic climbs above its leaves: a scalable unit whose every rail sits on one
 * leaf stays there; else one tier up. */
static int crossed_of(const coll_work *w, int kind, int64_t s0, int64_t s1)
{
    const fp_fabric *fab = w->st->fab;
    const fp_rspec *rs = w->st->rs;
    if (kind == SC_LEAF)
        return 0;
    if (kind == SC_POD)
        return 1;
    if (kind == SC_ZONE)
        return 2;
    for (int r = 0; r < rs->endpoints_per_server; r++)
        for (int64_t s = s0 + 1; s < s1; s++)
            if (fab->link[nic_link(fab, rs, 0, s, r)].z != fab->link[nic_link(fab, rs, 0, s0, r)].z)
                return 1;
    return 0;
}

/* The scope of one kind: the first block (as built), or the worst of the first block and every
 * block a failure touches. *servers: the first block's servers, 0 when there is none. */
static fp_status scope_row(coll_work *w, int kind, fp_collective_scope *row, int64_t *servers,
                           fp_error *err)
{
    const int64_t S = w->st->fab->servers;
    int64_t s0 = 0;
    *servers = 0;
    while (s0 < S) {
        int64_t key = server_key(w, kind, s0), s1 = s0 + 1;
        if (key < 0) {
            s0++;
            continue;
        }
        while (s1 < S && server_key(w, kind, s1) == key)
            s1++;
        int first = *servers == 0;
        int crossed = crossed_of(w, kind, s0, s1);
        int touched = block_links(w, s0, s1, crossed);
        if (first)
            *servers = s1 - s0;
        if (first || touched) {
            fp_collective_scope c;
            fp_status rc = measure_block(w, kind, s0, s1, crossed, &c, err);
            if (rc != FP_OK)
                return rc;
            if (first || c.gbps < row->gbps)
                *row = c;
        }
        if (w->down == NULL)
            break;
        s0 = s1;
    }
    return FP_OK;
}

/* The whole fabric: every server, every sub-block, the plan's (or the what-if's) bisection. */
static void fabric_row(coll_work *w, const fp_analysis *an, double flow, fp_collective_scope *c)
{
    const fp_fabric *fab = w->st->fab;
    const int64_t *half = an->m.split_endpoints;
    double a2a = INFINITY;
    memset(c, 0, sizeof *c);
    snprintf(c->scope, sizeof c->scope, "fabric");
    snprintf(c->block, sizeof c->block, "fabric");
    c->gpus = w->st->rs->gpus;
    c->servers = fab->servers;
    /* Traffic climbs to the lowest tier whose one block holds every leaf (a 1-leaf fabric: 0). */
    c->tiers_crossed = (an->m.diameter_switches - 1) / 2;
    /* Every switch, tier by tier. */
    w->n_set = 0;
    for (int t = 1; t <= fab->tiers; t++) {
        int64_t end = t < fab->tiers ? fab->tier_base[t + 1] : fab->n_dev;
        w->set_at[t] = w->n_set;
        for (int64_t d = fab->tier_base[t]; d < end; d++)
            w->set[w->n_set++] = d;
    }
    w->set_at[fab->tiers + 1] = w->n_set;
    level_figures(w, 0, fab->servers, c, &a2a);
    bisection_figure(w, c, flow, half[0] < half[1] ? half[0] : half[1], a2a);
}

/* Endpoints under every leaf, pod and zone (as built), uplinks up above them, and every
 * switch's uplink range. */
static void count_blocks(coll_work *w)
{
    const fp_fabric *fab = w->st->fab;
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *lk = &fab->link[i];
        if (lk->boundary == 0) {
            const fp_device *leaf = &fab->dev[lk->z];
            w->ep_leaf[lk->z - fab->tier_base[1]]++;
            if (fab->tiers >= 3)
                w->ep_pod[leaf->plane * w->n_pods + leaf->pod]++;
            if (fab->tiers >= 4)
                w->ep_zone[leaf->plane * w->n_zones + leaf->zone]++;
            continue;
        }
        const fp_device *a = &fab->dev[lk->a];
        int64_t v = lk->a - fab->servers;
        if (w->up_n[v]++ == 0)
            w->up_first[v] = i;
        if (w->down && w->down[i])
            continue;
        if (lk->boundary == 1)
            w->up_leaf[lk->a - fab->tier_base[1]]++;
        else if (lk->boundary == 2)
            w->up_pod[a->plane * w->n_pods + a->pod]++;
        else if (lk->boundary == 3)
            w->up_zone[a->plane * w->n_zones + a->zone]++;
    }
}

fp_status fp__collectives_run(fp_collectives *out, const fp_stages *st, const fp_analysis *an,
                              const uint8_t *link_down, double fabric_flow, fp_error *err)
{
    const fp_fabric *fab = st->fab;
    const int L = fab->tiers, P = fab->planes;
    coll_work w = { 0 };
    fp_status rc = FP_OK;
    w.st = st;
    w.down = link_down;
    w.n_leaves = fab->tier_base[2] - fab->tier_base[1];
    w.n_pods = L >= 3 ? fab->level[2].blocks : 0;
    w.n_zones = L >= 4 ? fab->level[3].blocks : 0;
    w.nsw = fab->n_dev - fab->servers;
    w.epg = (double)st->rs->endpoints_per_server * P / st->rs->gpus_per_server;
    memset(out, 0, sizeof *out);
    out->failures = link_down != NULL;
    if (fab->servers < 2)
        return FP_OK;
    size_t nl = (size_t)w.n_leaves + 1, np = (size_t)(w.n_pods * P) + 1,
           nz = (size_t)(w.n_zones * P) + 1, ns = (size_t)w.nsw + 1;
    w.ep_leaf = calloc(nl, sizeof *w.ep_leaf);
    w.up_leaf = calloc(nl, sizeof *w.up_leaf);
    w.s_links = calloc(nl, sizeof *w.s_links);
    w.t_links = calloc(nl, sizeof *w.t_links);
    w.ep_pod = calloc(np, sizeof *w.ep_pod);
    w.up_pod = calloc(np, sizeof *w.up_pod);
    w.ep_zone = calloc(nz, sizeof *w.ep_zone);
    w.up_zone = calloc(nz, sizeof *w.up_zone);
    w.up_first = calloc(ns, sizeof *w.up_first);
    w.up_n = calloc(ns, sizeof *w.up_n);
    w.set = calloc(ns, sizeof *w.set);
    w.stamp = calloc(ns, sizeof *w.stamp);
    w.links = calloc((size_t)(fab->n_link - fab->boundary_base[1]) + 1, sizeof *w.links);
    if (!w.ep_leaf || !w.up_leaf || !w.s_links || !w.t_links || !w.ep_pod || !w.up_pod ||
        !w.ep_zone || !w.up_zone || !w.up_first || !w.up_n || !w.set || !w.stamp || !w.links) {
        rc = fp__error_set(err, FP_ENOMEM, "collectives", "out of memory");
        goto out;
    }
    count_blocks(&w);
    /* Smallest scope first; one that holds no more servers than the scope below it (or as
     * many as the whole fabric) adds nothing and is left out. */
    int kinds[4], n_kinds = 0;
    int64_t below = 1;
    kinds[n_kinds++] = st->rs->topology == FP_TOPO_RAIL ? SC_SU : SC_LEAF;
    if (L >= 3)
        kinds[n_kinds++] = SC_POD;
    if (L >= 4)
        kinds[n_kinds++] = SC_ZONE;
    for (int k = 0; k < n_kinds && rc == FP_OK; k++) {
        fp_collective_scope row;
        int64_t servers = 0;
        rc = scope_row(&w, kinds[k], &row, &servers, err);
        if (rc == FP_OK && servers > below && servers < fab->servers) {
            out->scope[out->n_scopes++] = row;
            below = servers;
        }
    }
    if (rc == FP_OK)
        fabric_row(&w, an, fabric_flow, &out->scope[out->n_scopes++]);
out:
    free(w.ep_leaf);
    free(w.up_leaf);
    free(w.s_links);
    free(w.t_links);
    free(w.ep_pod);
    free(w.up_pod);
    free(w.ep_zone);
    free(w.up_zone);
    free(w.up_first);
    free(w.up_n);
    free(w.set);
    free(w.stamp);
    free(w.links);
    return rc;
}
