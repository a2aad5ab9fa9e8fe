/* fabplan — the fabric overview diagram (fabric.dot/.svg): one node per group of identical
 * switches, one for all servers; see write_dot.c. With spec `networks`, the same diagram of each
 * network (fabric-<network>.dot/.svg): its hosts, its tiers, the links between them. */
#include "write/dot.h"

/* "4096 × 400G" plus the media, one per line ("MMF", or "3072 MMF" and "1024 DAC" below it);
 * media are left out while the plan has none (no cabling). One per line keeps the label narrow:
 * dot places it beside the edge, and a wide one spilled over the next pod's cluster border. */
static void link_label(char *buf, size_t n, int64_t count, int gbps, const int64_t *by_medium)
{
    char c[32];
    size_t k = (size_t)snprintf(buf, n, "%s × %dG", fp__grouped_int(c, sizeof c, count), gbps);
    int kinds = 0;
    for (int m = 0; m < FP_MEDIUM_COUNT; m++)
        kinds += by_medium[m] > 0;
    if (kinds == 0)
        return;
    for (int m = 0; m < FP_MEDIUM_COUNT && k < n; m++) {
        if (by_medium[m] == 0)
            continue;
        if (kinds == 1)
            k += (size_t)snprintf(buf + k, n - k, "\n%s", fp_medium_name((fp_medium)m));
        else
            k += (size_t)snprintf(buf + k, n - k, "\n%s %s", fp__grouped_int(c, sizeof c, by_medium[m]),
                                  fp_medium_name((fp_medium)m));
    }
}

/* Media colours, after cable jackets where there is a convention: OM4 aqua, OS2 yellow; copper
 * in browns and a red for active electrical cables; twisted pair in purple. */
static const char *const medium_colour[FP_MEDIUM_COUNT] = { "#8c510a", "#d27b00", "#b2182b",
                                                            "#00a3ad", "#d4b000", "#7b4fb0" };

/* An edge's colour list: one line per medium it carries ("#00a3ad", or "#d27b00:#00a3ad" drawn
 * as parallel lines), grey while the plan has no cabling. */
static void medium_colours(char *buf, size_t n, const int64_t *by_medium)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int m = 0; m < FP_MEDIUM_COUNT && k < n; m++)
        if (by_medium[m] > 0)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? ":" : "", medium_colour[m]);
    if (k == 0)
        snprintf(buf, n, "#555555");
}

/* The media legend: a table node, one row per medium in the plan (a colour swatch and its name),
 * kept on the bottom rank beside the servers. Nothing while the plan has no cabling. */
static void media_legend(Agraph_t *g, const int64_t *media_in_plan)
{
    char html[1024];
    size_t k = (size_t)snprintf(html, sizeof html, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" "
                                "CELLSPACING=\"2\"><TR><TD COLSPAN=\"2\"><B>media</B></TD></TR>");
    int rows = 0;
    for (int m = 0; m < FP_MEDIUM_COUNT && k < sizeof html; m++) {
        if (media_in_plan[m] == 0)
            continue;
        rows++;
        k += (size_t)snprintf(html + k, sizeof html - k, "<TR><TD WIDTH=\"30\" HEIGHT=\"4\" "
                              "BGCOLOR=\"%s\"></TD><TD ALIGN=\"LEFT\">%s</TD></TR>",
                              medium_colour[m], fp_medium_name((fp_medium)m));
    }
    if (rows == 0 || k + 9 > sizeof html)
        return;
    snprintf(html + k, sizeof html - k, "</TABLE>");
    Agraph_t *sg = agsubg(g, S("legend"), 1);
    set_attr(sg, "rank", "sink");
    fp__dot_table_node(sg, "legend-media", html);
}

/* ------------------------------------------------------------------------------------------ */
/* Overview. */

/* How devices of one tier are grouped: by `unit` (pod, zone, or the whole plane), `chunk` units
 * per group. */
typedef struct tier_grouping {
    int unit;               /* 0 = whole plane, 1 = scalable unit, 2 = pod, 3 = zone, 4 = leaf */
    int64_t units;          /* units per plane */
    int64_t chunk;          /* units per group */
    int64_t groups;         /* groups per plane */
    int64_t base;           /* first group id of this tier */
} tier_grouping;

typedef struct overview {
    const fp_plan *plan;
    int net;                /* the network drawn (spec `networks`), -1 the compute fabric */
    fp_shape sh;
    tier_grouping tg[FP_MAX_TIERS + 1];
    int64_t sus;            /* scalable units of a rail-optimized fabric's leaves (0 none) */
    int64_t n_groups;       /* group 0 = servers */
    int64_t *members;       /* per group: devices */
    int64_t *su_lo, *su_hi; /* per group: SU range of its leaves (rail-optimized), -1 none */
    int64_t *peer;          /* per group: MLAG peer links between its leaves (networks) */
    int64_t *pair_slot;     /* n_groups^2: index into pairs, -1 none */
    struct pair {
        int64_t a, z, count, by_medium[FP_MEDIUM_COUNT];
        int gbps;           /* speed of the pair's links (one boundary) */
    } *pairs;
    int64_t n_pairs;
} overview;

static int64_t smallest_divisor_at_least(int64_t of, int64_t at_least)
{
    for (int64_t d = at_least; d < of; d++)
        if (of % d == 0)
            return d;
    return of;
}

static void plan_grouping(overview *ov)
{
    const fp_shape *sh = &ov->sh;
    const int L = sh->tiers;
    int64_t limit = OVERVIEW_GROUPS_PER_TIER / sh->planes;
    if (limit < 2)
        limit = 2;
    int64_t next = 1;
    for (int t = 1; t <= L; t++) {
        tier_grouping *g = &ov->tg[t];
        g->unit = 0;
        g->units = 1;
        if (L >= 3 && t <= 2) {
            g->unit = 2;
            g->units = sh->level[2].blocks;
        } else if (L == 2 && t == 1 && ov->sus > 1) {
            /* A 2-tier rail-optimized fabric: its leaves per scalable unit, not one box. */
            g->unit = 1;
            g->units = ov->sus;
        } else if (L == 2 && t == 1 && sh->level[1].blocks > 1) {
            /* Any other 2-tier fabric: its leaves in runs of consecutive leaves (at 1,024
             * GPUs on 64-port switches, 32 leaves as 8 boxes of 4), not one box for all. */
            g->unit = 4;
            g->units = sh->level[1].blocks;
        } else if (L >= 4 && t == 3) {
            g->unit = 3;
            g->units = sh->level[3].blocks;
        }
        g->chunk = (g->units + limit - 1) / limit;
        /* Runs of pods must not straddle zones, so each zone cluster holds whole groups. */
        if (g->unit == 2 && L >= 4 && g->chunk > 1) {
            int64_t per_zone = sh->level[3].children;
            g->chunk = g->chunk <= per_zone
                           ? smallest_divisor_at_least(per_zone, g->chunk)
                           : per_zone * ((g->chunk + per_zone - 1) / per_zone);
        }
        g->groups = (g->units + g->chunk - 1) / g->chunk;
        g->base = next;
        next += g->groups * sh->planes;
    }
    ov->n_groups = next;
}

/* A link's medium (-1 none) in the fabric drawn. */
static int ov_medium(const overview *ov, int64_t i)
{
    fp_medium m;
    if (ov->net >= 0)
        return fp__plan_net_link_medium(ov->plan, ov->net, i);
    return fp_plan_link_medium(ov->plan, (size_t)i, &m, NULL) == FP_OK ? (int)m : -1;
}

static int64_t group_of(const overview *ov, int64_t dev)
{
    const fp_device d = fp__shape_device(&ov->sh, dev);
    if (d.tier == 0)
        return 0;
    const tier_grouping *g = &ov->tg[d.tier];
    int64_t unit = g->unit == 1 ? d.su : g->unit == 2 ? d.pod : g->unit == 3 ? d.zone
                 : g->unit == 4 ? d.index : 0;
    return g->base + (int64_t)d.plane * g->groups + unit / g->chunk;
}

static void overview_free(overview *ov)
{
    free(ov->members);
    free(ov->su_lo);
    free(ov->su_hi);
    free(ov->peer);
    free(ov->pair_slot);
    free(ov->pairs);
}

/* Count members of every group and links between every pair of groups (one pass each); net:
 * the network to draw, -1 the compute fabric. */
static fp_status overview_build(overview *ov, const fp_plan *plan, int net, fp_error *err)
{
    memset(ov, 0, sizeof *ov);
    ov->plan = plan;
    ov->net = net;
    if (net < 0)
        fp__plan_shape(plan, &ov->sh);
    else
        fp__plan_net_shape(plan, net, &ov->sh);
    for (int64_t i = 0; i < ov->sh.devices; i++) {
        fp_device d = fp__shape_device(&ov->sh, i);
        if (d.tier == 1 && d.su >= ov->sus)
            ov->sus = d.su + 1;
    }
    plan_grouping(ov);
    size_t G = (size_t)ov->n_groups;
    ov->members = calloc(G, sizeof *ov->members);
    ov->su_lo = malloc(G * sizeof *ov->su_lo);
    ov->su_hi = malloc(G * sizeof *ov->su_hi);
    ov->peer = calloc(G, sizeof *ov->peer);
    ov->pair_slot = malloc(G * G * sizeof *ov->pair_slot);
    ov->pairs = calloc(G * G, sizeof *ov->pairs);
    if (!ov->members || !ov->su_lo || !ov->su_hi || !ov->peer || !ov->pair_slot || !ov->pairs) {
        overview_free(ov);
        FP_FAIL(err, FP_ENOMEM, "fabric.svg", "out of memory for %zu diagram groups", G);
    }
    for (size_t i = 0; i < G; i++)
        ov->su_lo[i] = ov->su_hi[i] = -1;
    for (size_t i = 0; i < G * G; i++)
        ov->pair_slot[i] = -1;
    for (int64_t i = 0; i < ov->sh.devices; i++) {
        int64_t g = group_of(ov, i);
        ov->members[g]++;
        fp_device d = fp__shape_device(&ov->sh, i);
        int64_t su = d.su;
        if (su >= 0 && d.tier == 1) {
            if (ov->su_lo[g] < 0 || su < ov->su_lo[g])
                ov->su_lo[g] = su;
            if (su > ov->su_hi[g])
                ov->su_hi[g] = su;
        }
    }
    for (int64_t i = 0; i < ov->sh.links; i++) {
        const fp_link l = fp__shape_link(&ov->sh, i);
        int64_t a = group_of(ov, l.a), z = group_of(ov, l.z);
        if (i >= ov->sh.boundary_base[ov->sh.tiers]) {
            /* A network's MLAG peer links (after its last boundary): said on the leaves' node. */
            ov->peer[a]++;
            continue;
        }
        int64_t *slot = &ov->pair_slot[a * (int64_t)G + z];
        if (*slot < 0) {
            *slot = ov->n_pairs++;
            ov->pairs[*slot].a = a;
            ov->pairs[*slot].z = z;
            ov->pairs[*slot].gbps = ov->sh.gbps[l.boundary];
        }
        struct pair *p = &ov->pairs[*slot];
        p->count++;
        int m = ov_medium(ov, i);
        if (m >= 0 && m < FP_MEDIUM_COUNT)
            p->by_medium[m]++;
    }
    return FP_OK;
}

/* "leaves × 32\nSU 9–12, 8 rails" inside its pod cluster; "cores × 1024" inside its zone;
 * "cores × 64" for a top tier. Where the group sits is said by the cluster around it, and the
 * switch model once in the title, so nodes stay narrow. */
static void group_label(const overview *ov, int64_t gid, int tier, char *buf, size_t n)
{
    char c[32];
    size_t k = (size_t)snprintf(buf, n, "%s × %s", fp__dot_role_plural(tier),
                                fp__grouped_int(c, sizeof c, ov->members[gid]));
    if (ov->net >= 0 && ov->su_lo[gid] >= 0 && k < n) {
        /* A network's leaves by unit: a dual-homed network's unit is one leaf pair (an MLAG
         * pair on Ethernet). */
        const fp_net_spec *ns = fp__plan_net(ov->plan, ov->net);
        const char *what = ns->dual_homed ? fp__net_pair_name(ns) : "unit";
        if (ov->su_lo[gid] == ov->su_hi[gid])
            k += (size_t)snprintf(buf + k, n - k, "\n%s %lld", what, (long long)ov->su_lo[gid] + 1);
        else
            k += (size_t)snprintf(buf + k, n - k, "\n%ss %lld–%lld", what,
                                  (long long)ov->su_lo[gid] + 1, (long long)ov->su_hi[gid] + 1);
        if (ov->peer[gid] > 0 && k < n)
            snprintf(buf + k, n - k, "\n%s peer links", fp__grouped_int(c, sizeof c, ov->peer[gid]));
    } else if (ov->su_lo[gid] >= 0 && k < n) {
        if (ov->su_lo[gid] == ov->su_hi[gid])
            k += (size_t)snprintf(buf + k, n - k, "\nSU %lld", (long long)ov->su_lo[gid] + 1);
        else
            k += (size_t)snprintf(buf + k, n - k, "\nSU %lld–%lld", (long long)ov->su_lo[gid] + 1,
                                  (long long)ov->su_hi[gid] + 1);
        if (k < n)
            snprintf(buf + k, n - k, ", %d rails", ov->sh.endpoints_per_server);
    } else if (ov->tg[tier].unit == 4 && k < n) {
        /* A run of leaves: "leaves 3–4" (1-based, as their names). */
        const tier_grouping *g = &ov->tg[tier];
        int64_t first = ((gid - g->base) % g->groups) * g->chunk + 1;
        int64_t last = first + g->chunk - 1 < g->units ? first + g->chunk - 1 : g->units;
        if (first == last)
            snprintf(buf + k, n - k, "\nleaf %lld", (long long)first);
        else
            snprintf(buf + k, n - k, "\nleaves %lld–%lld", (long long)first, (long long)last);
    }
}

/* "switches: nvidia-qm9700 (64 ports)" or "leaf A (64 ports) · spine B (128 ports) · ...". */
static void models_line(const fp_shape *sh, char *buf, size_t n)
{
    int same = 1;
    for (int t = 1; t < sh->tiers; t++)
        same &= strcmp(sh->model[t], sh->model[0]) == 0 &&
                sh->radix[t] == sh->radix[0] && sh->gbps[t] == sh->gbps[0];
    if (same) {
        snprintf(buf, n, "switches: %s (%d ports at %dG)", sh->model[0], sh->radix[0],
                 sh->link_gbps);
        return;
    }
    size_t k = 0;
    buf[0] = '\0';
    for (int t = 0; t < sh->tiers && k < n; t++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s %s (%d ports)", t ? " · " : "",
                              fp__tier_role(t + 1), sh->model[t],
                              sh->radix[t]);
    /* Link speeds per boundary when they differ ("links 400G / 800G"). */
    int mixed = 0;
    for (int b = 1; b < sh->tiers; b++)
        mixed |= sh->gbps[b] != sh->gbps[0];
    for (int b = 0; mixed && b < sh->tiers && k < n; b++)
        k += (size_t)snprintf(buf + k, n - k, "%s%dG", b ? " / " : " · links ", sh->gbps[b]);
}

static Agraph_t *subgraph(Agraph_t *parent, const char *name, const char *label)
{
    Agraph_t *sg = agsubg(parent, (char *)name, 1);
    set_attr(sg, "label", label);
    set_attr(sg, "style", "rounded,dashed");
    set_attr(sg, "fontsize", "16");
    return sg;
}

/* The overview's graph: its title (name, topology, size, the switch models) and the drawing
 * attributes; NULL when out of memory. ns: the network drawn, NULL for the compute fabric. */
static Agraph_t *overview_graph(const fp_shape *sh, const fp_net_spec *ns)
{
    char title[400], count[32];
    char planes[32] = "";
    if (sh->planes > 1)
        snprintf(planes, sizeof planes, ", %d planes", sh->planes);
    char models[160];
    models_line(sh, models, sizeof models);
    if (ns)
        snprintf(title, sizeof title, "%s — %s network%s%s%s, %s hosts, %d tier%s\n%s\n ",
                 sh->name[0] ? sh->name : "fabric", fp__net_role_name(ns->role),
                 ns->dual_homed ? ", dual-homed on " : "", ns->dual_homed ? fp__net_pair_name(ns) : "",
                 ns->dual_homed ? "s" : "", fp__grouped_int(count, sizeof count, sh->servers),
                 sh->tiers, sh->tiers == 1 ? "" : "s", models);
    else
        snprintf(title, sizeof title, "%s — %s fabric, %s GPUs, %d tiers%s\n%s\n ",
                 sh->name[0] ? sh->name : "fabric", fp_topology_name(sh->topology),
                 fp__grouped_int(count, sizeof count, sh->gpus), sh->tiers, planes, models);
    Agraph_t *g = fp__dot_new_graph("fabric", "dot", title);
    if (g == NULL)
        return NULL;
    /* Servers at the bottom, the top tier above: the usual way a Clos is drawn. */
    set_attr(g, "rankdir", "BT");
    set_attr(g, "nodesep", "0.35");
    set_attr(g, "ranksep", "0.9");
    agattr(g, AGNODE, S("shape"), S("box"));
    /* 14 pt: at 8 groups a tier the drawing is about 1,150 x 850 pt, so fitted to a 1,280 x
     * 720 slide its smallest text is still about 12 px. */
    agattr(g, AGNODE, S("fontsize"), S("14"));
    agattr(g, AGEDGE, S("fontsize"), S("14"));
    return g;
}

/* A network's hosts: "hosts × 137\n128 compute servers\n5 mgmt-server · 4 ufm\n2 ports each"
 * (an extra endpoint with several port groups is that many hosts). */
static void hosts_label(char *buf, size_t n, const fp_shape *sh, const fp_net_spec *ns)
{
    char a[32], b[32];
    size_t k = (size_t)snprintf(buf, n, "hosts × %s\n%s compute servers",
                                fp__grouped_int(a, sizeof a, sh->servers),
                                fp__grouped_int(b, sizeof b, ns->servers));
    for (int i = 0; i < ns->n_extra && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s %s", i ? " · " : "\n",
                              fp__grouped_int(a, sizeof a, ns->extra[i].count), ns->extra[i].name);
    if (k < n)
        snprintf(buf + k, n - k, "\n%d port%s each at %dG", ns->ports, ns->ports == 1 ? "" : "s",
                 sh->link_gbps);
}

/* The one node for all servers (a network's hosts). */
static Agnode_t *servers_node(Agraph_t *g, const fp_shape *sh, const fp_net_spec *ns)
{
    char label[512], count[32];
    if (ns)
        hosts_label(label, sizeof label, sh, ns);
    else
        snprintf(label, sizeof label, "servers × %s\n%d GPUs and %d fabric ports each",
                 fp__grouped_int(count, sizeof count, sh->servers), sh->gpus_per_server,
                 sh->endpoints_per_server * sh->planes);
    Agnode_t *n = agnode(g, S("servers"), 1);
    set_attr(n, "label", label);
    set_attr(n, "fillcolor", fp__dot_role_fill(0));
    set_attr(n, "shape", "box3d");
    return n;
}

/* The cluster group k of tier t in plane p sits in: its zone (4 tiers) and pod run, made on
 * first use inside pg; pg itself when neither applies. */
static Agraph_t *group_parent(Agraph_t *pg, const overview *ov, int p, int t, int64_t k)
{
    const fp_shape *sh = &ov->sh;
    const tier_grouping *tg = &ov->tg[t];
    int64_t first = k * tg->chunk;
    Agraph_t *parent = pg;
    char name[64], label[256];
    /* Zone clusters (4 tiers) hold their cores and their pods' clusters. */
    if (sh->tiers >= 4 && t <= 3 && tg->unit != 0) {
        int64_t zone = t == 3 ? first : first / sh->level[3].children;
        if (t == 3 || ov->tg[2].chunk <= sh->level[3].children) {
            snprintf(name, sizeof name, "cluster_p%d_zone%lld", p + 1, (long long)zone + 1);
            snprintf(label, sizeof label, "zone %lld", (long long)zone + 1);
            parent = subgraph(pg, name, label);
        }
    }
    if (t <= 2 && tg->unit == 2) {
        int64_t last = first + tg->chunk > tg->units ? tg->units : first + tg->chunk;
        snprintf(name, sizeof name, "cluster_p%d_pod%lld", p + 1, (long long)first + 1);
        if (last - first == 1)
            snprintf(label, sizeof label, "pod %lld", (long long)first + 1);
        else
            snprintf(label, sizeof label, "pods %lld–%lld", (long long)first + 1,
                     (long long)last);
        parent = subgraph(parent, name, label);
    }
    return parent;
}

/* A node per switch group, top tier first, inside its plane, zone and pod clusters. */
static void group_nodes(Agraph_t *g, const overview *ov, Agnode_t **node)
{
    const fp_shape *sh = &ov->sh;
    char name[64], label[256];
    for (int p = 0; p < sh->planes; p++) {
        Agraph_t *pg = g;
        if (sh->planes > 1) {
            snprintf(name, sizeof name, "cluster_plane%d", p + 1);
            snprintf(label, sizeof label, "plane %d", p + 1);
            pg = subgraph(g, name, label);
        }
        for (int t = sh->tiers; t >= 1; t--) {
            const tier_grouping *tg = &ov->tg[t];
            for (int64_t k = 0; k < tg->groups; k++) {
                int64_t gid = tg->base + (int64_t)p * tg->groups + k;
                if (ov->members[gid] == 0)
                    continue;
                Agraph_t *parent = group_parent(pg, ov, p, t, k);
                snprintf(name, sizeof name, "g%lld", (long long)gid);
                group_label(ov, gid, t, label, sizeof label);
                node[gid] = agnode(parent, name, 1);
                set_attr(node[gid], "label", label);
                set_attr(node[gid], "fillcolor", fp__dot_role_fill(t));
                /* Repeated in the source so a reader of the .dot (or a test) can recount. */
                snprintf(label, sizeof label, "%lld", (long long)ov->members[gid]);
                set_attr(node[gid], "devices", label);
                set_attr(node[gid], "tier", fp__tier_role(t));
            }
        }
    }
}

/* An edge per pair of groups with links between them, labelled with their count, speed and
 * media, then the media legend. */
static void group_edges(Agraph_t *g, const overview *ov, Agnode_t **node)
{
    char label[256];
    int64_t media_in_plan[FP_MEDIUM_COUNT] = { 0 };
    for (int64_t i = 0; i < ov->n_pairs; i++)
        for (int m = 0; m < FP_MEDIUM_COUNT; m++)
            media_in_plan[m] += ov->pairs[i].by_medium[m];
    for (int64_t i = 0; i < ov->n_pairs; i++) {
        const struct pair *pr = &ov->pairs[i];
        Agedge_t *e = agedge(g, node[pr->a], node[pr->z], NULL, 1);
        link_label(label, sizeof label, pr->count, pr->gbps, pr->by_medium);
        /* The label stands beside its edge, off the line (dot keeps it clear of every edge);
         * no `decorate`: its leader line and underline struck through the numbers. */
        set_attr(e, "label", label);
        snprintf(label, sizeof label, "%lld", (long long)pr->count);
        set_attr(e, "links", label);
        medium_colours(label, sizeof label, pr->by_medium);
        set_attr(e, "color", label);
    }
    media_legend(g, media_in_plan);
}

/* The overview of the compute fabric (net -1) or of network net. */
static fp_status write_overview(const fp_plan *plan, int net, const char *path, fp_error *err)
{
    overview ov;
    fp_status rc;
    const fp_net_spec *ns = net >= 0 ? fp__plan_net(plan, net) : NULL;
    if ((rc = overview_build(&ov, plan, net, err)) != FP_OK)
        return rc;
    Agraph_t *g = overview_graph(&ov.sh, ns);
    if (g == NULL) {
        overview_free(&ov);
        FP_FAIL(err, FP_ENOMEM, path, "Graphviz: cannot create a graph");
    }
    Agnode_t **node = calloc((size_t)ov.n_groups, sizeof *node);
    if (node == NULL) {
        agclose(g);
        overview_free(&ov);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory");
    }
    node[0] = servers_node(g, &ov.sh, ns);
    group_nodes(g, &ov, node);
    group_edges(g, &ov, node);
    free(node);
    overview_free(&ov);
    return fp__dot_emit(g, path, err);
}

fp_status fp__write_overview(const fp_plan *plan, const char *path, const fp_write_options *o,
                             fp_error *err)
{
    (void)o;
    return write_overview(plan, -1, path, err);
}

fp_status fp__write_net_overview(const fp_plan *plan, int k, const char *path,
                                 const fp_write_options *o, fp_error *err)
{
    (void)o;
    if (k < 0 || k >= fp__plan_net_count(plan))
        FP_FAIL(err, FP_EINVAL, path, "network %d out of range (the plan has %d)", k,
                fp__plan_net_count(plan));
    return write_overview(plan, k, path, err);
}

int fp__net_overview_file_name(const fp_plan *plan, int k, const char *ext, char *buf, size_t n)
{
    if (k < 0 || k >= fp__plan_net_count(plan))
        return 0;
    snprintf(buf, n, "fabric-%s.%s", fp__plan_net(plan, k)->name, ext);
    return 1;
}
