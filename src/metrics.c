/* fabplan — metrics: bisection (analytic and max-flow), oversubscription in use, hops,
 * reliability. Graph work goes through graph.c; everything else is counted from the structure.
 *
 * The bisection split puts whole blocks on opposite sides: the largest blocks below the top
 * tier (zones in 4 tiers, pods in 3, leaves or scalable units in 2), so every path between the
 * halves climbs to the top tier and the cut crosses every tier's uplinks: the worst split.
 * When there is only one such block the split moves down a level. */
#include <stdlib.h>
#include <string.h>
#include "analysis.h"

static const fp_metrics no_metrics;

const fp_metrics *fp_plan_metrics(const fp_plan *plan)
{
    return plan && plan->an ? &plan->an->m : &no_metrics;
}

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
    memset(out, 0, sizeof *out);
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

static fp_status reliability_from_bom(const fp_plan *plan, fp_reliability *out, fp_error *err)
{
    size_t n = fp_plan_bom_count(plan), k = 0;
    fp_part_count *parts = calloc(n ? n : 1, sizeof *parts);
    fp_status rc = FP_OK;
    if (parts == NULL)
        FP_FAIL(err, FP_ENOMEM, "reliability", "out of memory");
    for (size_t i = 0; i < n && rc == FP_OK; i++) {
        fp_bom_line line;
        if ((rc = fp_plan_bom_line(plan, i, &line, err)) != FP_OK || line.spare)
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

/* Unit (within its plane) of a leaf at a split level: 3 = zone, 2 = pod, 1 = leaf or SU. */
static int64_t unit_of(const fp_plan *plan, int64_t leaf_dev, int level)
{
    const fp_fabric *fab = &plan->fab;
    const fp_device *d = &fab->dev[leaf_dev];
    if (level == 3)
        return d->zone;
    if (level == 2)
        return d->pod;
    if (plan->rs.topology == FP_TOPO_RAIL)
        return d->su;
    return leaf_dev - fab->tier_base[1] - (int64_t)d->plane * fab->level[1].switches;
}

static int64_t unit_count(const fp_plan *plan, int level)
{
    const fp_fabric *fab = &plan->fab;
    if (level == 1 && plan->rs.topology == FP_TOPO_RAIL)
        return fab->su_count;
    return fab->level[level].blocks;
}

static const char *unit_name(const fp_plan *plan, int level)
{
    static const char *const names[] = { "endpoints", "leaves", "pods", "zones" };
    if (level == 1 && plan->rs.topology == FP_TOPO_RAIL)
        return "SUs";
    return names[level];
}

typedef struct split_work {
    int64_t n_leaves;       /* all planes */
    int64_t per_plane;      /* leaves per plane */
    int64_t *ep;            /* NIC links per leaf */
    int64_t *s_links, *t_links;
} split_work;

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* Choose the split, mark every NIC link's side, and compute the analytic bisection (in links,
 * one plane). */
static fp_status choose_split(fp_plan *plan, split_work *w, int64_t *analytic_links,
                              fp_error *err)
{
    const fp_fabric *fab = &plan->fab;
    const fp_rspec *rs = &plan->rs;
    fp_metrics *m = &plan->an->m;
    const int L = fab->tiers;
    const int64_t nic_links = fab->boundary_base[1];
    int level = L - 1;
    while (level > 1 && unit_count(plan, level) < 2)
        level--;
    int64_t n_units = unit_count(plan, level);

    if (n_units < 2) {
        /* One leaf per plane: halve its NIC ports; the leaf itself is the only switch crossed. */
        int64_t per_plane = nic_links / fab->planes, half = per_plane / 2;
        for (int64_t i = 0; i < nic_links; i++)
            plan->an->nic_side[i] = (uint8_t)(i % per_plane < half ? 1 : 2);
        *analytic_links = min64(half, per_plane - half);
        snprintf(m->split, sizeof m->split, "endpoints 1-%lld | %lld-%lld of the one leaf",
                 (long long)half, (long long)half + 1, (long long)per_plane);
        return FP_OK;
    }

    int64_t *unit_ep = calloc((size_t)n_units, sizeof *unit_ep);
    int64_t *unit_cap = calloc((size_t)n_units, sizeof *unit_cap);
    int64_t *pod_cap = NULL;
    if (unit_ep == NULL || unit_cap == NULL) {
        free(unit_ep);
        free(unit_cap);
        FP_FAIL(err, FP_ENOMEM, "bisection", "out of memory");
    }
    /* Capacity of a block toward its parent tier: what its children bring, capped by its own
     * uplinks. The builder spreads every switch's uplinks evenly over its upper group, so
     * blocks are symmetric and these sums are the max-flow values. */
    int64_t leaf_up = rs->tier[0].up;
    if (level == 3) {
        pod_cap = calloc((size_t)fab->level[2].blocks, sizeof *pod_cap);
        if (pod_cap == NULL) {
            free(unit_ep);
            free(unit_cap);
            FP_FAIL(err, FP_ENOMEM, "bisection", "out of memory");
        }
    }
    for (int64_t l = 0; l < w->per_plane; l++) {
        int64_t dev = fab->tier_base[1] + l, u = unit_of(plan, dev, level);
        int64_t c = min64(w->ep[l], leaf_up);
        unit_ep[u] += w->ep[l];
        if (level == 3)
            pod_cap[fab->dev[dev].pod] += c;
        else
            unit_cap[u] += c;
    }
    if (level >= 2) {
        int64_t pod_up = fab->level[2].positions * rs->tier[1].up;
        if (level == 2) {
            for (int64_t u = 0; u < n_units; u++)
                unit_cap[u] = min64(unit_cap[u], pod_up);
        } else {
            int64_t zone_up = fab->level[3].positions * rs->tier[2].up;
            for (int64_t p = 0; p < fab->level[2].blocks; p++) {
                int64_t zone = p / fab->level[3].children;
                unit_cap[zone] += min64(pod_cap[p], pod_up);
            }
            for (int64_t u = 0; u < n_units; u++)
                unit_cap[u] = min64(unit_cap[u], zone_up);
        }
    }
    /* The most even split at a block boundary (ties: the smaller first half). */
    int64_t total = 0, prefix = 0, best_k = 1, best_gap = -1, cap_s = 0, cap_t = 0;
    for (int64_t u = 0; u < n_units; u++)
        total += unit_ep[u];
    for (int64_t k = 1; k < n_units; k++) {
        prefix += unit_ep[k - 1];
        int64_t gap = 2 * prefix - total;
        if (gap < 0)
            gap = -gap;
        if (best_gap < 0 || gap < best_gap) {
            best_gap = gap;
            best_k = k;
        }
    }
    for (int64_t u = 0; u < n_units; u++) {
        if (u < best_k)
            cap_s += unit_cap[u];
        else
            cap_t += unit_cap[u];
    }
    *analytic_links = min64(cap_s, cap_t);
    for (int64_t i = 0; i < nic_links; i++) {
        int64_t dev = fab->link[i].z;
        plan->an->nic_side[i] = (uint8_t)(unit_of(plan, dev, level) < best_k ? 1 : 2);
    }
    const char *un = unit_name(plan, level);
    snprintf(m->split, sizeof m->split, "%s 1-%lld | %s %lld-%lld", un, (long long)best_k, un,
             (long long)best_k + 1, (long long)n_units);
    free(unit_ep);
    free(unit_cap);
    free(pod_cap);
    return FP_OK;
}

/* ---- hops ---- */

static int64_t pairs_of(int64_t n)
{
    return n * (n - 1) / 2;
}

static fp_status count_hops(fp_plan *plan, fp_error *err)
{
    const fp_fabric *fab = &plan->fab;
    const fp_rspec *rs = &plan->rs;
    fp_metrics *m = &plan->an->m;
    const int L = fab->tiers, eps = rs->endpoints_per_server, gps = rs->gpus_per_server;
    const int64_t per_plane = fab->level[1].switches;
    int64_t n_pods = L >= 3 ? fab->level[2].blocks : 1, n_zones = L >= 4 ? fab->level[3].blocks : 1;
    int64_t *leaf_n = calloc((size_t)per_plane, sizeof *leaf_n);
    int64_t *pod_n = calloc((size_t)n_pods, sizeof *pod_n);
    int64_t *zone_n = calloc((size_t)n_zones, sizeof *zone_n);
    if (leaf_n == NULL || pod_n == NULL || zone_n == NULL) {
        free(leaf_n);
        free(pod_n);
        free(zone_n);
        FP_FAIL(err, FP_ENOMEM, "hops", "out of memory");
    }
    /* GPU i of a server talks through its NIC port i * eps / gps of plane 0 (one NIC per GPU
     * in the usual case); planes are copies, so plane 0 stands for all. */
    for (int64_t s = 0; s < fab->servers; s++) {
        int64_t g_here = s == fab->servers - 1 ? rs->gpus - s * gps : gps;
        for (int64_t i = 0; i < g_here; i++) {
            int64_t r = i * eps / gps;
            const fp_device *leaf = &fab->dev[fab->link[s * eps + r].z];
            leaf_n[fab->link[s * eps + r].z - fab->tier_base[1]]++;
            if (L >= 3)
                pod_n[leaf->pod]++;
            if (L >= 4)
                zone_n[leaf->zone]++;
        }
    }
    int64_t same_leaf = 0, same_pod = 0, same_zone = 0, all = pairs_of(rs->gpus);
    for (int64_t l = 0; l < per_plane; l++)
        same_leaf += pairs_of(leaf_n[l]);
    for (int64_t p = 0; p < n_pods && L >= 3; p++)
        same_pod += pairs_of(pod_n[p]);
    for (int64_t z = 0; z < n_zones && L >= 4; z++)
        same_zone += pairs_of(zone_n[z]);
    free(leaf_n);
    free(pod_n);
    free(zone_n);

    m->gpu_pairs = all;
    m->hop_sample = 0;
    m->n_hops = 0;
#define ROW(sc, sw, n)                                  \
    do {                                                \
        fp_hop_row *h_ = &m->hops[m->n_hops++];         \
        h_->scope = (sc);                               \
        h_->switches = (sw);                            \
        h_->pairs = (n);                                \
        h_->share = all > 0 ? (double)(n) / (double)all : 0; \
    } while (0)
    ROW("same leaf", 1, same_leaf);
    if (L == 2) {
        ROW("across leaves", 3, all - same_leaf);
    } else {
        ROW("same pod", 3, same_pod - same_leaf);
        if (L == 3) {
            ROW("across pods", 5, all - same_pod);
        } else {
            ROW("same zone", 5, same_zone - same_pod);
            ROW("across zones", 7, all - same_zone);
        }
    }
#undef ROW
    return FP_OK;
}

/* Seeded, portable generator (splitmix64): same seed, same choices everywhere. */
uint64_t fp__rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static fp_status diameter(fp_plan *plan, fp_error *err)
{
    const fp_fabric *fab = &plan->fab;
    fp_metrics *m = &plan->an->m;
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
fp_status fp__split_links(const fp_plan *plan, const uint8_t *link_down, int64_t **s_links,
                          int64_t **t_links, fp_error *err)
{
    const fp_fabric *fab = &plan->fab;
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
        if (plan->an->nic_side[i] == 1)
            (*s_links)[l]++;
        else
            (*t_links)[l]++;
    }
    return FP_OK;
}

fp_status fp__analysis_run(fp_plan *plan, fp_error *err)
{
    const fp_fabric *fab = &plan->fab;
    const int g = plan->rs.link_gbps, P = fab->planes;
    fp_status rc;
    split_work w = { 0 };
    int64_t analytic = 0;
    plan->an = calloc(1, sizeof *plan->an);
    if (plan->an == NULL)
        FP_FAIL(err, FP_ENOMEM, "metrics", "out of memory");
    fp_metrics *m = &plan->an->m;
    plan->an->nic_side = malloc((size_t)(fab->boundary_base[1] > 0 ? fab->boundary_base[1] : 1));
    w.per_plane = fab->level[1].switches;
    w.n_leaves = w.per_plane * P;
    w.ep = calloc((size_t)w.n_leaves, sizeof *w.ep);
    if (plan->an->nic_side == NULL || w.ep == NULL) {
        free(w.ep);
        FP_FAIL(err, FP_ENOMEM, "metrics", "out of memory");
    }
    for (int64_t i = 0; i < fab->boundary_base[1]; i++)
        w.ep[fab->link[i].z - fab->tier_base[1]]++;

    if ((rc = choose_split(plan, &w, &analytic, err)) != FP_OK ||
        (rc = fp__split_links(plan, NULL, &w.s_links, &w.t_links, err)) != FP_OK)
        goto out;
    for (int64_t l = 0; l < w.n_leaves; l++) {
        m->split_endpoints[0] += w.s_links[l];
        m->split_endpoints[1] += w.t_links[l];
    }
    m->bisection_gbps = (double)analytic * g * P;
    m->split_demand_gbps = (double)min64(m->split_endpoints[0], m->split_endpoints[1]) * g;
    if ((rc = fp__graph_bisection(fab, g, w.s_links, w.t_links, NULL, &m->bisection_maxflow_gbps,
                                  err)) != FP_OK)
        goto out;
    m->full_bisection = m->bisection_gbps >= m->split_demand_gbps;

    m->tiers = fab->tiers;
    for (int t = 1; t < fab->tiers; t++) {
        int64_t down = fab->boundary_base[t] - fab->boundary_base[t - 1];
        int64_t up = fab->boundary_base[t + 1] - fab->boundary_base[t];
        m->oversubscription[t - 1] = up > 0 ? (double)down / (double)up : 0;
    }
    if ((rc = diameter(plan, err)) != FP_OK || (rc = count_hops(plan, err)) != FP_OK ||
        (rc = reliability_from_bom(plan, &m->reliability, err)) != FP_OK)
        goto out;
out:
    free(w.ep);
    free(w.s_links);
    free(w.t_links);
    return rc;
}
