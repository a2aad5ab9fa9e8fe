/* fabplan — diagrams through Graphviz (the only module that includes it).
 *
 * Three diagrams, each written as Graphviz source (.dot) and rendered (.svg, .png on request):
 *  - overview (fabric): one node per group of identical switches and one for all servers, edges
 *    carrying the link count, speed and media between groups. Groups are pods (or runs of pods,
 *    or zones) so the node count stays in the tens at any scale: Graphviz cannot draw 500,000
 *    edges and nobody could read them.
 *  - detail (su-N / pod-N): every server, switch and link of one scalable unit or pod, rails
 *    coloured, port names at both ends of every edge; links leaving the unit are summed into one
 *    edge per device towards a node standing for the tier above.
 *  - floor: racks at their floor position coloured by role, with the busiest rack-to-rack runs.
 *
 * Graphviz names and attribute values are non-const char *; literals are cast through S(). Its
 * strings are interned (agstrdup), so stack buffers are fine as values. */
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/gvc.h>
#include "write/writers.h"

#define S(lit) ((char *)(lit))

/* At most this many leaf (or spine) groups per plane in the overview; pods are merged into runs
 * beyond that. 16 keeps the widest rank about 16 nodes, readable on one screen. */
#define OVERVIEW_GROUPS_PER_TIER 16
/* dot draws layered pictures but is super-linear; above this many edges use sfdp. */
#define DOT_MAX_EDGES 2600
/* Rack-to-rack runs shown on the floor plan. */
#define FLOOR_RUNS 12
/* Floor plan scale: points per metre (1 m = 80 pt keeps a 0.6 m rack wide enough for its label). */
#define FLOOR_PT_PER_M 80.0
/* The legends stand 1 m further left than the floor's left cross aisle, where runs turn. */
#define FLOOR_LEGEND_SHIFT (1.0 * FLOOR_PT_PER_M)

static const char *const role_fill[] = { "#dbe7f3", "#b7e1a1", "#fdd49e", "#f4a582", "#d6a3c8" };
/* Rails: 8 distinct hues that stay apart for common colour-vision deficiencies (Okabe-Ito). */
static const char *const rail_colour[] = { "#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                           "#56b4e9", "#d55e00", "#000000", "#b8a000" };
#define N_RAIL_COLOURS (sizeof rail_colour / sizeof rail_colour[0])

/* ------------------------------------------------------------------------------------------ */
/* Graphviz plumbing: error capture, output by extension. */

/* Graphviz reports through a process-wide callback; keep the last message for fp_error instead
 * of letting it print (the library never prints). */
static char gv_last_error[256];

static int gv_capture(char *msg)
{
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        n--;
    snprintf(gv_last_error, sizeof gv_last_error, "%.*s", (int)n, msg);
    return 0;
}

/* "dir/.fabric.svg.tmp" -> "svg". */
static void format_of(const char *path, char *fmt, size_t n)
{
    char base[512];
    snprintf(base, sizeof base, "%s", path);
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".tmp") == 0)
        base[len - 4] = '\0';
    const char *dot = strrchr(base, '.');
    snprintf(fmt, n, "%s", dot ? dot + 1 : "");
}

static void set_attr(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, S(""));
}

/* One Graphviz context for the whole process, never freed: the pango text plugin of Graphviz
 * 2.42 caches a font name that gvFreeContext frees, so a second context reads freed memory
 * (AddressSanitizer caught it). The context holds only plugin tables. */
static GVC_t *shared_context(void)
{
    static GVC_t *gvc;
    if (gvc == NULL)
        gvc = gvContext();
    return gvc;
}

/* Write the graph to path as .dot source, or lay it out with its "layout" attribute's engine
 * and render it in the format named by the extension. Takes ownership of g. */
static fp_status emit(Agraph_t *g, const char *path, fp_error *err)
{
    char fmt[16];
    fp_status rc = FP_OK;
    format_of(path, fmt, sizeof fmt);
    agusererrf prev = agseterrf(gv_capture);
    agerrlevel_t prev_level = agseterr(AGERR);
    gv_last_error[0] = '\0';
    if (strcmp(fmt, "dot") == 0) {
        FILE *f = fp__create(path, err);
        if (f == NULL) {
            rc = FP_EIO;
        } else {
            agwrite(g, f);
            rc = fp__close_written(f, path, err);
        }
    } else {
        GVC_t *gvc = shared_context();
        const char *engine = agget(g, S("layout"));
        if (gvc == NULL) {
            rc = fp__error_set(err, FP_ENOMEM, path, "Graphviz: cannot create a context");
        } else if (gvLayout(gvc, g, engine && *engine ? engine : "dot") != 0) {
            rc = fp__error_set(err, FP_EGRAPH, path, "Graphviz layout (%s) failed: %s", engine,
                               gv_last_error[0] ? gv_last_error : "no message");
        } else {
            /* Rendered to memory and written here: Graphviz 2.42 calls exit(1) when a write to
             * a file fails (a full disk), which must not end the embedding program. */
            char *data = NULL;
            unsigned int len = 0;
            FILE *f;
            if (gvRenderData(gvc, g, fmt, &data, &len) != 0 || data == NULL)
                rc = fp__error_set(err, FP_EIO, path, "Graphviz cannot render %s as %s: %s", path,
                                   fmt, gv_last_error[0] ? gv_last_error : "no message");
            else if ((f = fp__create(path, err)) == NULL)
                rc = FP_EIO;
            else {
                fwrite(data, 1, len, f);
                rc = fp__close_written(f, path, err);
            }
            if (data)
                gvFreeRenderData(data);
            gvFreeLayout(gvc, g);
        }
    }
    agclose(g);
    agseterrf(prev);
    agseterr(prev_level);
    return rc;
}

/* Object ids in creation order. cgraph's default discipline uses the address of the interned
 * name as a named object's id and orders subgraphs by id, so clusters (and the .dot, and the
 * layout) came out in a different order from run to run. Declining to map names makes cgraph
 * keep them in its internal map under sequential ids. */
typedef struct seq_state {
    Agraph_t *root;
    IDTYPE next;
    int root_named;
} seq_state;

static void *seq_open(Agraph_t *g, Agdisc_t *disc)
{
    (void)disc;
    seq_state *st = malloc(sizeof *st);
    if (st) {
        st->root = g;
        st->next = 1;
        st->root_named = 0;
    }
    return st;
}

/* The root graph keeps cgraph's own scheme (its interned name is its id): agclose never removes
 * the root from the internal map, so putting it there would leak. */
static long seq_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
    seq_state *st = state;
    if (str != NULL && objtype == AGRAPH && !st->root_named && createflag) {
        st->root_named = 1;
        *id = (IDTYPE)(uintptr_t)agstrdup(st->root, str);
        return 1;
    }
    if (str != NULL || !createflag)
        return 0;
    *id = st->next;
    st->next += 2;
    return 1;
}

static long seq_alloc(void *state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    return (id & 1) == 0; /* odd ids are ours */
}

static void seq_free(void *state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    (void)id;
}

static char *seq_print(void *state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    return (id & 1) ? NULL : (char *)(uintptr_t)id;
}

static void seq_close(void *state)
{
    free(state);
}

static void seq_register(void *state, int objtype, void *obj)
{
    (void)state;
    (void)objtype;
    (void)obj;
}

static Agiddisc_t seq_id_disc = { seq_open, seq_map, seq_alloc, seq_free, seq_print, seq_close,
                                  seq_register };
/* Known cost: cgraph 2.42 keeps the internal-map entry of each named object (about 48 bytes)
 * after agclose; valgrind reports it as lost. Deterministic output is worth it. */
static Agdisc_t seq_disc = { &AgMemDisc, &seq_id_disc, &AgIoDisc };

static Agraph_t *new_graph(const char *name, const char *engine, const char *title)
{
    Agraph_t *g = agopen((char *)name, Agundirected, &seq_disc);
    if (g == NULL)
        return NULL;
    set_attr(g, "layout", engine);
    set_attr(g, "label", title);
    set_attr(g, "labelloc", "t");
    set_attr(g, "fontname", "Helvetica");
    set_attr(g, "fontsize", "20");
    agattr(g, AGNODE, S("fontname"), S("Helvetica"));
    agattr(g, AGEDGE, S("fontname"), S("Helvetica"));
    agattr(g, AGNODE, S("style"), S("filled"));
    /* gvc adds this default to every later graph once it has laid one out; declare it up front
     * so the first file of a run is written like the others. */
    agattr(g, AGNODE, S("label"), S("\\N"));
    return g;
}

static const char *role_plural(int tier)
{
    static const char *const plural[] = { "servers", "leaves", "spines", "cores", "super-cores" };
    return tier >= 0 && tier <= FP_MAX_TIERS ? plural[tier] : "switches";
}

static const char *fill_of(int tier)
{
    return role_fill[tier >= 0 && tier <= FP_MAX_TIERS ? tier : 0];
}

/* "4096 × 400G" plus the media, one per line ("MMF", or "3072 MMF" and "1024 DAC" below it);
 * media are left out while the plan has none (no cabling). One per line keeps the label narrow:
 * dot places it beside the edge, and a wide one spilled over the next pod's cluster border. */
static void link_label(char *buf, size_t n, int64_t count, int gbps, const int64_t *by_medium)
{
    size_t k = (size_t)snprintf(buf, n, "%lld × %dG", (long long)count, gbps);
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
            k += (size_t)snprintf(buf + k, n - k, "\n%lld %s", (long long)by_medium[m],
                                  fp_medium_name((fp_medium)m));
    }
}

/* A node drawn as its HTML table (a legend): no box of its own around the table. */
static Agnode_t *table_node(Agraph_t *g, const char *name, const char *html)
{
    Agnode_t *n = agnode(g, (char *)name, 1);
    char *h = agstrdup_html(agroot(g), (char *)html);
    set_attr(n, "label", h);
    agstrfree(agroot(g), h);
    set_attr(n, "shape", "plain");
    set_attr(n, "style", "solid");
    return n;
}

/* Media colours, after cable jackets where there is a convention: OM4 aqua, OS2 yellow; copper
 * in browns and a red for active electrical cables. */
static const char *const medium_colour[FP_MEDIUM_COUNT] = { "#8c510a", "#d27b00", "#b2182b",
                                                            "#00a3ad", "#d4b000" };

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
    table_node(sg, "legend-media", html);
}

/* ------------------------------------------------------------------------------------------ */
/* Overview. */

/* How devices of one tier are grouped: by `unit` (pod, zone, or the whole plane), `chunk` units
 * per group. */
typedef struct tier_grouping {
    int unit;               /* 0 = whole plane, 1 = scalable unit, 2 = pod, 3 = zone */
    int64_t units;          /* units per plane */
    int64_t chunk;          /* units per group */
    int64_t groups;         /* groups per plane */
    int64_t base;           /* first group id of this tier */
} tier_grouping;

typedef struct overview {
    const fp_plan *plan;
    tier_grouping tg[FP_MAX_TIERS + 1];
    int64_t sus;            /* scalable units of a rail-optimized fabric's leaves (0 none) */
    int64_t n_groups;       /* group 0 = servers */
    int64_t *members;       /* per group: devices */
    int64_t *su_lo, *su_hi; /* per group: SU range of its leaves (rail-optimized), -1 none */
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
    const fp_fabric *fab = fp__plan_fabric(ov->plan);
    const int L = fab->tiers;
    int64_t limit = OVERVIEW_GROUPS_PER_TIER / fab->planes;
    if (limit < 2)
        limit = 2;
    int64_t next = 1;
    for (int t = 1; t <= L; t++) {
        tier_grouping *g = &ov->tg[t];
        g->unit = 0;
        g->units = 1;
        if (L >= 3 && t <= 2) {
            g->unit = 2;
            g->units = fab->level[2].blocks;
        } else if (L == 2 && t == 1 && ov->sus > 1) {
            /* A 2-tier rail-optimized fabric: its leaves per scalable unit, not one box. */
            g->unit = 1;
            g->units = ov->sus;
        } else if (L >= 4 && t == 3) {
            g->unit = 3;
            g->units = fab->level[3].blocks;
        }
        g->chunk = (g->units + limit - 1) / limit;
        /* Runs of pods must not straddle zones, so each zone cluster holds whole groups. */
        if (g->unit == 2 && L >= 4 && g->chunk > 1) {
            int64_t per_zone = fab->level[3].children;
            g->chunk = g->chunk <= per_zone
                           ? smallest_divisor_at_least(per_zone, g->chunk)
                           : per_zone * ((g->chunk + per_zone - 1) / per_zone);
        }
        g->groups = (g->units + g->chunk - 1) / g->chunk;
        g->base = next;
        next += g->groups * fab->planes;
    }
    ov->n_groups = next;
}

static int64_t group_of(const overview *ov, int64_t dev)
{
    const fp_device *d = &fp__plan_fabric(ov->plan)->dev[dev];
    if (d->tier == 0)
        return 0;
    const tier_grouping *g = &ov->tg[d->tier];
    int64_t unit = g->unit == 1 ? d->su : g->unit == 2 ? d->pod : g->unit == 3 ? d->zone : 0;
    return g->base + (int64_t)d->plane * g->groups + unit / g->chunk;
}

static void overview_free(overview *ov)
{
    free(ov->members);
    free(ov->su_lo);
    free(ov->su_hi);
    free(ov->pair_slot);
    free(ov->pairs);
}

/* Count members of every group and links between every pair of groups (one pass each). */
static fp_status overview_build(overview *ov, const fp_plan *plan, fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    memset(ov, 0, sizeof *ov);
    ov->plan = plan;
    for (int64_t i = 0; i < fab->n_dev; i++)
        if (fab->dev[i].tier == 1 && fab->dev[i].su >= ov->sus)
            ov->sus = fab->dev[i].su + 1;
    plan_grouping(ov);
    size_t G = (size_t)ov->n_groups;
    ov->members = calloc(G, sizeof *ov->members);
    ov->su_lo = malloc(G * sizeof *ov->su_lo);
    ov->su_hi = malloc(G * sizeof *ov->su_hi);
    ov->pair_slot = malloc(G * G * sizeof *ov->pair_slot);
    ov->pairs = calloc(G * G, sizeof *ov->pairs);
    if (!ov->members || !ov->su_lo || !ov->su_hi || !ov->pair_slot || !ov->pairs) {
        overview_free(ov);
        FP_FAIL(err, FP_ENOMEM, "fabric.svg", "out of memory for %zu diagram groups", G);
    }
    for (size_t i = 0; i < G; i++)
        ov->su_lo[i] = ov->su_hi[i] = -1;
    for (size_t i = 0; i < G * G; i++)
        ov->pair_slot[i] = -1;
    for (int64_t i = 0; i < fab->n_dev; i++) {
        int64_t g = group_of(ov, i);
        ov->members[g]++;
        int64_t su = fab->dev[i].su;
        if (su >= 0 && fab->dev[i].tier == 1) {
            if (ov->su_lo[g] < 0 || su < ov->su_lo[g])
                ov->su_lo[g] = su;
            if (su > ov->su_hi[g])
                ov->su_hi[g] = su;
        }
    }
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        int64_t a = group_of(ov, l->a), z = group_of(ov, l->z);
        int64_t *slot = &ov->pair_slot[a * (int64_t)G + z];
        if (*slot < 0) {
            *slot = ov->n_pairs++;
            ov->pairs[*slot].a = a;
            ov->pairs[*slot].z = z;
            ov->pairs[*slot].gbps = fp__plan_rspec(plan)->gbps[l->boundary];
        }
        struct pair *p = &ov->pairs[*slot];
        p->count++;
        fp_medium m = fp_plan_link_medium(plan, (size_t)i);
        if (m < FP_MEDIUM_COUNT)
            p->by_medium[m]++;
    }
    return FP_OK;
}

/* "leaves × 32\nSU 9–12, 8 rails" inside its pod cluster; "cores × 1024" inside its zone;
 * "cores × 64" for a top tier. Where the group sits is said by the cluster around it, and the
 * switch model once in the title, so nodes stay narrow. */
static void group_label(const overview *ov, int64_t gid, int tier, char *buf, size_t n)
{
    const fp_rspec *rs = fp__plan_rspec(ov->plan);
    size_t k = (size_t)snprintf(buf, n, "%s × %lld", role_plural(tier), (long long)ov->members[gid]);
    if (ov->su_lo[gid] >= 0 && k < n) {
        if (ov->su_lo[gid] == ov->su_hi[gid])
            k += (size_t)snprintf(buf + k, n - k, "\nSU %lld", (long long)ov->su_lo[gid] + 1);
        else
            k += (size_t)snprintf(buf + k, n - k, "\nSU %lld–%lld", (long long)ov->su_lo[gid] + 1,
                                  (long long)ov->su_hi[gid] + 1);
        if (k < n)
            snprintf(buf + k, n - k, ", %d rails", rs->endpoints_per_server);
    }
}

/* "switches: nvidia-qm9700 (64 ports)" or "leaf A (64 ports) · spine B (128 ports) · ...". */
static void models_line(const fp_plan *plan, char *buf, size_t n)
{
    const fp_rspec *rs = fp__plan_rspec(plan);
    int same = 1;
    for (int t = 1; t < fp__plan_fabric(plan)->tiers; t++)
        same &= strcmp(rs->tier[t].model.id, rs->tier[0].model.id) == 0 &&
                rs->tier[t].radix == rs->tier[0].radix && rs->gbps[t] == rs->gbps[0];
    if (same) {
        snprintf(buf, n, "switches: %s (%d ports at %dG)", rs->tier[0].model.id, rs->tier[0].radix,
                 rs->link_gbps);
        return;
    }
    size_t k = 0;
    buf[0] = '\0';
    for (int t = 0; t < fp__plan_fabric(plan)->tiers && k < n; t++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s %s (%d ports)", t ? " · " : "",
                              fp__tier_role(t + 1, fp__plan_fabric(plan)->tiers), rs->tier[t].model.id,
                              rs->tier[t].radix);
    /* Link speeds per boundary when they differ ("links 400G / 800G"). */
    int mixed = 0;
    for (int b = 1; b < fp__plan_fabric(plan)->tiers; b++)
        mixed |= rs->gbps[b] != rs->gbps[0];
    for (int b = 0; mixed && b < fp__plan_fabric(plan)->tiers && k < n; b++)
        k += (size_t)snprintf(buf + k, n - k, "%s%dG", b ? " / " : " · links ", rs->gbps[b]);
}

static Agraph_t *subgraph(Agraph_t *parent, const char *name, const char *label)
{
    Agraph_t *sg = agsubg(parent, (char *)name, 1);
    set_attr(sg, "label", label);
    set_attr(sg, "style", "rounded,dashed");
    set_attr(sg, "fontsize", "16");
    return sg;
}

fp_status fp__write_overview(const fp_plan *plan, const char *path, const fp_write_options *o,
                             fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    overview ov;
    fp_status rc;
    char title[400], name[64], label[256];
    (void)o;
    if ((rc = overview_build(&ov, plan, err)) != FP_OK)
        return rc;
    char planes[32] = "";
    if (fab->planes > 1)
        snprintf(planes, sizeof planes, ", %d planes", fab->planes);
    char models[160];
    models_line(plan, models, sizeof models);
    snprintf(title, sizeof title, "%s — %s fabric, %lld GPUs, %d tiers%s\n%s\n ",
             rs->name[0] ? rs->name : "fabric", fp_topology_name(rs->topology), (long long)rs->gpus,
             fab->tiers, planes, models);
    Agraph_t *g = new_graph("fabric", "dot", title);
    if (g == NULL) {
        overview_free(&ov);
        FP_FAIL(err, FP_ENOMEM, path, "Graphviz: cannot create a graph");
    }
    /* Servers at the bottom, the top tier above: the usual way a Clos is drawn. */
    set_attr(g, "rankdir", "BT");
    set_attr(g, "nodesep", "0.35");
    set_attr(g, "ranksep", "0.9");
    agattr(g, AGNODE, S("shape"), S("box"));
    agattr(g, AGNODE, S("fontsize"), S("12"));
    agattr(g, AGEDGE, S("fontsize"), S("11"));

    Agnode_t **node = calloc((size_t)ov.n_groups, sizeof *node);
    if (node == NULL) {
        agclose(g);
        overview_free(&ov);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory");
    }
    snprintf(label, sizeof label, "servers × %lld\n%d GPUs and %d fabric ports each",
             (long long)fab->servers, rs->gpus_per_server,
             rs->endpoints_per_server * fab->planes);
    node[0] = agnode(g, S("servers"), 1);
    set_attr(node[0], "label", label);
    set_attr(node[0], "fillcolor", fill_of(0));
    set_attr(node[0], "shape", "box3d");

    for (int p = 0; p < fab->planes; p++) {
        Agraph_t *pg = g;
        if (fab->planes > 1) {
            snprintf(name, sizeof name, "cluster_plane%d", p + 1);
            snprintf(label, sizeof label, "plane %d", p + 1);
            pg = subgraph(g, name, label);
        }
        for (int t = fab->tiers; t >= 1; t--) {
            const tier_grouping *tg = &ov.tg[t];
            for (int64_t k = 0; k < tg->groups; k++) {
                int64_t gid = tg->base + (int64_t)p * tg->groups + k, first = k * tg->chunk;
                Agraph_t *parent = pg;
                if (ov.members[gid] == 0)
                    continue;
                /* Zone clusters (4 tiers) hold their cores and their pods' clusters. */
                if (fab->tiers >= 4 && t <= 3 && tg->unit != 0) {
                    int64_t zone = t == 3 ? first : first / fab->level[3].children;
                    if (t == 3 || ov.tg[2].chunk <= fab->level[3].children) {
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
                snprintf(name, sizeof name, "g%lld", (long long)gid);
                group_label(&ov, gid, t, label, sizeof label);
                node[gid] = agnode(parent, name, 1);
                set_attr(node[gid], "label", label);
                set_attr(node[gid], "fillcolor", fill_of(t));
                /* Repeated in the source so a reader of the .dot (or a test) can recount. */
                snprintf(label, sizeof label, "%lld", (long long)ov.members[gid]);
                set_attr(node[gid], "devices", label);
                set_attr(node[gid], "tier", fp__tier_role(t, fab->tiers));
            }
        }
    }
    /* Edges per node: a hub (the servers node, a core group) gathers many edges, and a label in
     * the middle of one of them lands between its neighbours. */
    int64_t *degree = fp__malloc((size_t)ov.n_groups * sizeof *degree);
    if (degree == NULL) {
        free(node);
        overview_free(&ov);
        agclose(g);
        return fp__error_set(err, FP_ENOMEM, path, "out of memory for the overview");
    }
    memset(degree, 0, (size_t)ov.n_groups * sizeof *degree);
    int64_t media_in_plan[FP_MEDIUM_COUNT] = { 0 };
    for (int64_t i = 0; i < ov.n_pairs; i++) {
        degree[ov.pairs[i].a]++;
        degree[ov.pairs[i].z]++;
        for (int m = 0; m < FP_MEDIUM_COUNT; m++)
            media_in_plan[m] += ov.pairs[i].by_medium[m];
    }
    for (int64_t i = 0; i < ov.n_pairs; i++) {
        const struct pair *pr = &ov.pairs[i];
        Agedge_t *e = agedge(g, node[pr->a], node[pr->z], NULL, 1);
        link_label(label, sizeof label, pr->count, pr->gbps, pr->by_medium);
        /* The label sits at the end away from a hub, where this edge is its node's only one
         * that way; edges between equals keep it in the middle. */
        int64_t da = degree[pr->a], dz = degree[pr->z];
        set_attr(e, "label", label);
        if (da != dz)
            set_attr(e, "decorate", "true");
        snprintf(label, sizeof label, "%lld", (long long)pr->count);
        set_attr(e, "links", label);
        medium_colours(label, sizeof label, pr->by_medium);
        set_attr(e, "color", label);
    }
    free(degree);
    media_legend(g, media_in_plan);
    free(node);
    overview_free(&ov);
    return emit(g, path, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Detail of one scalable unit or pod. */

typedef struct unit_sel {
    int kind;               /* 1 = su, 2 = pod, 0 = none */
    int64_t index;          /* 0-based */
    int whole;              /* pod of a 2-tier fabric: every device (they carry no pod number) */
} unit_sel;

/* A 2-tier fabric's one pod is drawn link by link only while dot can lay it out; sfdp's
 * picture of thousands of port-to-port links is a hairball nobody can read. */
static int whole_fabric_drawable(const fp_plan *plan)
{
    return fp__plan_fabric(plan)->n_link <= DOT_MAX_EDGES;
}

static int64_t units_of(const fp_plan *plan, int kind)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    if (kind == 1)
        return fp__plan_rspec(plan)->topology == FP_TOPO_RAIL ? fab->su_count : 0;
    /* A 2-tier leaf-spine is one pod: its detail is the whole fabric. Above 2 tiers, the level
     * above the spines groups leaves and spines into pods. */
    if (fab->tiers == 2)
        return fp__plan_rspec(plan)->topology != FP_TOPO_RAIL && whole_fabric_drawable(plan) ? 1 : 0;
    return fab->level[2].blocks;
}

static fp_status parse_selector(const fp_plan *plan, const fp_write_options *o, unit_sel *out,
                                fp_error *err)
{
    const char *s = o && o->version >= 2 ? o->detail : NULL;
    out->kind = 0;
    out->index = 0;
    out->whole = fp__plan_fabric(plan)->tiers == 2;
    if (s == NULL) {
        out->kind = units_of(plan, 1) > 0 ? 1 : units_of(plan, 2) > 0 ? 2 : 0;
        return FP_OK;
    }
    const char *num;
    if (strncmp(s, "su:", 3) == 0) {
        out->kind = 1;
        num = s + 3;
    } else if (strncmp(s, "pod:", 4) == 0) {
        out->kind = 2;
        num = s + 4;
    } else {
        FP_FAIL(err, FP_EINVAL, "detail", "detail \"%s\": expected su:N or pod:N (N from 1)", s);
    }
    char *end;
    long long v = strtoll(num, &end, 10);
    if (*num < '0' || *num > '9' || *end != '\0' || v < 1)
        FP_FAIL(err, FP_EINVAL, "detail", "detail \"%s\": expected a number from 1 after \"%s\"",
                s, out->kind == 1 ? "su:" : "pod:");
    int64_t n = units_of(plan, out->kind);
    if (n == 0) {
        if (out->kind == 1)
            FP_FAIL(err, FP_EINVAL, "detail",
                    "detail \"%s\": this %s fabric has no scalable units (only rail-optimized fabrics do)%s",
                    s, fp_topology_name(fp__plan_rspec(plan)->topology),
                    units_of(plan, 2) ? "; use pod:N" : "");
        if (fp__plan_fabric(plan)->tiers == 2 && fp__plan_rspec(plan)->topology != FP_TOPO_RAIL)
            FP_FAIL(err, FP_EINVAL, "detail",
                    "detail \"%s\": a 2-tier fabric is one pod, and its %lld links are too many "
                    "to draw one by one (at most %d); fabric.svg shows it by groups",
                    s, (long long)fp__plan_fabric(plan)->n_link, DOT_MAX_EDGES);
        FP_FAIL(err, FP_EINVAL, "detail",
                "detail \"%s\": a %d-tier %s fabric has no pods (its unit is the scalable unit)%s",
                s, fp__plan_fabric(plan)->tiers, fp_topology_name(fp__plan_rspec(plan)->topology),
                units_of(plan, 1) ? "; use su:N" : "");
    }
    if (v > n)
        FP_FAIL(err, FP_EINVAL, "detail", "detail \"%s\": the plan has %lld %s%s (%s:1 to %s:%lld)",
                s, (long long)n, out->kind == 1 ? "scalable unit" : "pod", n == 1 ? "" : "s",
                out->kind == 1 ? "su" : "pod", out->kind == 1 ? "su" : "pod", (long long)n);
    out->index = v - 1;
    return FP_OK;
}

int fp_plan_detail_unit(const fp_plan *plan, const fp_write_options *opts, char *name, size_t n,
                        fp_error *why)
{
    unit_sel sel;
    if (n > 0)
        name[0] = '\0';
    if (parse_selector(plan, opts, &sel, why) != FP_OK)
        return 0;
    if (sel.kind == 0) {
        if (fp__plan_fabric(plan)->tiers == 2 && fp__plan_rspec(plan)->topology != FP_TOPO_RAIL)
            fp__error_set(why, FP_EINVAL, "detail",
                          "no detail diagram: this 2-tier fabric is one pod of %lld links, too many "
                          "to draw one by one (at most %d); fabric.svg shows it by groups",
                          (long long)fp__plan_fabric(plan)->n_link, DOT_MAX_EDGES);
        else
            fp__error_set(why, FP_EINVAL, "detail",
                          "no detail diagram: the fabric has neither scalable units nor pods");
        return 0;
    }
    snprintf(name, n, "%s-%lld", sel.kind == 1 ? "su" : "pod", (long long)sel.index + 1);
    return 1;
}

fp_status fp__detail_check(const fp_plan *plan, const fp_write_options *o, fp_error *err)
{
    unit_sel sel;
    return parse_selector(plan, o, &sel, err);
}

int fp__detail_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                         char *buf, size_t n)
{
    unit_sel sel;
    if (parse_selector(plan, o, &sel, NULL) != FP_OK || sel.kind == 0)
        return 0;
    snprintf(buf, n, "%s-%lld.%s", sel.kind == 1 ? "su" : "pod", (long long)sel.index + 1, ext);
    return 1;
}

static int in_unit(const fp_device *d, const unit_sel *sel)
{
    if (sel->kind == 1)
        return d->tier <= 1 && d->su == sel->index;
    return d->tier <= 2 && (sel->whole || d->pod == sel->index);
}

/* Rail colour of a link: the leaf's rail (rail-optimized), else the NIC it leaves from. */
static const char *link_colour(const fp_plan *plan, const fp_link *l)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_device *leaf = l->boundary == 0 ? &fab->dev[l->z] : l->boundary == 1 ? &fab->dev[l->a] : NULL;
    if (leaf && leaf->rail >= 0)
        return rail_colour[(size_t)leaf->rail % N_RAIL_COLOURS];
    if (l->boundary == 0)
        return rail_colour[(size_t)(l->a_port / fp__plan_rspec(plan)->nic.ports) % N_RAIL_COLOURS];
    return "#777777";
}

/* A device as an HTML table whose cells are its ports, so every edge starts and ends at its
 * port's name: servers show their NIC ports (rail coloured) on the right; switches their down
 * ports on the left and up ports on the right. Returns an interned HTML string (agstrfree it). */
static char *port_table(Agraph_t *g, const fp_plan *plan, int64_t dev, char *buf, size_t cap)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_device *d = &fab->dev[dev];
    char dn[48], pn[FP_PORT_NAME_MAX];
    size_t k = 0;
    fp__device_name(dn, sizeof dn, fab, rs, dev);
#define PUT(...) (k += k < cap ? (size_t)snprintf(buf + k, cap - k, __VA_ARGS__) : 0)
    PUT("<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"2\">");
    if (d->tier == 0) {
        int ports = rs->nics_per_server * rs->nic.ports;
        PUT("<TR><TD BGCOLOR=\"%s\"><B>%s</B></TD></TR>", fill_of(0), dn);
        for (int p = 0; p < ports; p++)
            PUT("<TR><TD PORT=\"p%d\" ALIGN=\"RIGHT\"><FONT COLOR=\"%s\">%s</FONT></TD></TR>", p,
                rail_colour[(size_t)(p / rs->nic.ports) % N_RAIL_COLOURS],
                fp__port_name(pn, sizeof pn, fab, rs, dev, p));
    } else {
        const fp_tier_spec *ts = &rs->tier[d->tier - 1];
        int rows = ts->down > ts->up ? ts->down : ts->up;
        const char *fill = fill_of(d->tier);
        PUT("<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"%s><B>%s</B></TD></TR>", fill,
            d->rail >= 0 ? "" : "", dn);
        if (d->rail >= 0)
            PUT("<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"><FONT COLOR=\"white\">rail %d</FONT></TD></TR>",
                rail_colour[(size_t)d->rail % N_RAIL_COLOURS], d->rail + 1);
        for (int r = 0; r < rows; r++) {
            PUT("<TR>");
            if (r < ts->down)
                PUT("<TD PORT=\"p%d\" ALIGN=\"LEFT\">%s</TD>", r,
                    fp__port_name(pn, sizeof pn, fab, rs, dev, r));
            else
                PUT("<TD BORDER=\"0\"></TD>");
            if (r < ts->up)
                PUT("<TD PORT=\"p%d\" ALIGN=\"RIGHT\">%s</TD>", ts->down + r,
                    fp__port_name(pn, sizeof pn, fab, rs, dev, ts->down + r));
            else
                PUT("<TD BORDER=\"0\"></TD>");
            PUT("</TR>");
        }
    }
    PUT("</TABLE>");
#undef PUT
    return agstrdup_html(g, buf);
}

fp_status fp__write_detail(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    unit_sel sel;
    fp_status rc;
    char title[256], name[64], label[256];
    if ((rc = parse_selector(plan, o, &sel, err)) != FP_OK)
        return rc;
    if (sel.kind == 0)
        FP_FAIL(err, FP_EINVAL, "detail", "this fabric has neither scalable units nor pods to draw");

    /* Count what is drawn first, to pick the engine before building. */
    int64_t inner = 0, n_in = 0;
    for (int64_t i = 0; i < fab->n_dev; i++)
        n_in += in_unit(&fab->dev[i], &sel);
    for (int64_t i = 0; i < fab->n_link; i++)
        inner += in_unit(&fab->dev[fab->link[i].a], &sel) && in_unit(&fab->dev[fab->link[i].z], &sel);
    const char *kind = sel.kind == 1 ? "scalable unit" : "pod";
    snprintf(title, sizeof title, "%s %lld%s — %lld devices, %lld links inside%s\n ", kind,
             (long long)sel.index + 1,
             sel.kind == 2 && sel.whole ? " (a 2-tier fabric is one pod: all of it)" : "",
             (long long)n_in, (long long)inner,
             rs->topology == FP_TOPO_RAIL ? "; colour = rail" : "; colour = NIC");
    Agraph_t *g = new_graph(sel.kind == 1 ? "su" : "pod", inner <= DOT_MAX_EDGES ? "dot" : "sfdp",
                            title);
    /* One node per device in the unit; stubs for the tier above (one per tier and plane). */
    Agnode_t **node = calloc((size_t)fab->n_dev, sizeof *node);
    int64_t n_stub = (int64_t)(FP_MAX_TIERS + 1) * fab->planes;
    Agnode_t **stub = calloc((size_t)n_stub, sizeof *stub);
    int64_t *out_count = calloc((size_t)fab->n_dev, sizeof *out_count);
    int64_t *out_stub = malloc((size_t)fab->n_dev * sizeof *out_stub);
    char *table = NULL;
    if (g == NULL || !node || !stub || !out_count || !out_stub) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for the detail diagram");
        goto out;
    }
    /* Left to right: servers, leaves, spines, the tier above; each column is a stack of port
     * tables, so the picture grows down the page instead of across it. */
    set_attr(g, "rankdir", "LR");
    set_attr(g, "ranksep", "3.0");
    set_attr(g, "nodesep", "0.25");
    if (inner > DOT_MAX_EDGES) {
        set_attr(g, "overlap", "prism");
        set_attr(g, "outputorder", "edgesfirst");
    }
    agattr(g, AGNODE, S("shape"), S("box"));
    agattr(g, AGNODE, S("fontsize"), S("10"));
    agattr(g, AGEDGE, S("fontsize"), S("9"));
    agattr(g, AGEDGE, S("penwidth"), S("0.9"));
    size_t table_cap = (size_t)(rs->nics_per_server * rs->nic.ports + 2) * 160;
    for (int t = 0; t < fab->tiers; t++)
        if ((size_t)(rs->tier[t].radix + 4) * 160 > table_cap)
            table_cap = (size_t)(rs->tier[t].radix + 4) * 160;
    table = malloc(table_cap);
    if (table == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for the detail diagram");
        goto out;
    }
    for (int64_t i = 0; i < fab->n_dev; i++) {
        const fp_device *d = &fab->dev[i];
        if (!in_unit(d, &sel))
            continue;
        fp__device_name(name, sizeof name, fab, rs, i);
        node[i] = agnode(g, name, 1);
        char *html = port_table(g, plan, i, table, table_cap);
        set_attr(node[i], "label", html);
        agstrfree(g, html);
        set_attr(node[i], "shape", "plain");
        set_attr(node[i], "style", "solid");
        set_attr(node[i], "tier", fp__tier_role(d->tier, fab->tiers));
    }
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        int ia = node[l->a] != NULL, iz = node[l->z] != NULL;
        char ap[FP_PORT_NAME_MAX], zp[FP_PORT_NAME_MAX];
        if (ia && iz) {
            Agedge_t *e = agedge(g, node[l->a], node[l->z], NULL, 1);
            /* The port names are drawn as the cells the edge joins; repeated as attributes so
             * the .dot reads on its own. */
            snprintf(ap, sizeof ap, "p%d:e", l->a_port);
            snprintf(zp, sizeof zp, "p%d:w", l->z_port);
            set_attr(e, "tailport", ap);
            set_attr(e, "headport", zp);
            set_attr(e, "a_port", fp__port_name(ap, sizeof ap, fab, rs, l->a, l->a_port));
            set_attr(e, "z_port", fp__port_name(zp, sizeof zp, fab, rs, l->z, l->z_port));
            set_attr(e, "color", link_colour(plan, l));
        } else if (ia || iz) {
            int64_t in = ia ? l->a : l->z, outside = ia ? l->z : l->a;
            const fp_device *od = &fab->dev[outside];
            out_count[in]++;
            out_stub[in] = (int64_t)od->plane * (FP_MAX_TIERS + 1) + od->tier;
        }
    }
    /* Links leaving the unit: one edge per device to the tier it reaches, with the count. */
    for (int64_t i = 0; i < fab->n_dev; i++) {
        if (out_count[i] == 0)
            continue;
        int64_t s = out_stub[i];
        int tier = (int)(s % (FP_MAX_TIERS + 1)), plane = (int)(s / (FP_MAX_TIERS + 1));
        if (stub[s] == NULL) {
            snprintf(name, sizeof name, "outside-%s-plane%d", role_plural(tier), plane + 1);
            stub[s] = agnode(g, name, 1);
            snprintf(label, sizeof label, "%s outside this %s%s", role_plural(tier), kind,
                     fab->planes > 1 ? " (this plane)" : "");
            set_attr(stub[s], "label", label);
            set_attr(stub[s], "fillcolor", fill_of(tier));
            set_attr(stub[s], "style", "filled,dashed");
            set_attr(stub[s], "tier", fp__tier_role(tier, fab->tiers));
        }
        Agedge_t *e = agedge(g, node[i], stub[s], NULL, 1);
        snprintf(label, sizeof label, "%lld up", (long long)out_count[i]);
        set_attr(e, "label", label);
        set_attr(e, "style", "dashed");
        set_attr(e, "color", "#999999");
    }
out:
    free(table);
    free(node);
    free(stub);
    free(out_count);
    free(out_stub);
    if (rc != FP_OK) {
        if (g)
            agclose(g);
        return rc;
    }
    return emit(g, path, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Floor plan. */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

typedef struct run {
    int64_t a, b, cables;
} run;

/* Every rack-to-rack run beside the busiest: how many there are and the most cables on one of
 * those left out (many runs tie, and a reader must not take the top list for the only busy ones). */
typedef struct run_tally {
    int64_t runs, rest_max;
} run_tally;

/* The FLOOR_RUNS rack pairs with the most cables between them (cables inside one rack are not
 * runs). Fills runs[] and *n_runs, and tally with the count of all runs. */
static fp_status busiest_runs(const fp_plan *plan, size_t n_racks, run *runs, int *n_runs,
                              run_tally *tally, fp_error *err)
{
    size_t n_cables = fp_plan_cable_count(plan), n_pairs = 0;
    int64_t *pairs = malloc((n_cables * FP_MAX_LEGS + 1) * sizeof *pairs);
    const int32_t *dev_rack = fp__plan_layout(plan)->dev_rack;
    *n_runs = 0;
    tally->runs = tally->rest_max = 0;
    if (pairs == NULL)
        FP_FAIL(err, FP_ENOMEM, "floor.svg", "out of memory for %zu cables", n_cables);
    for (size_t i = 0; i < n_cables; i++) {
        /* Racks in floor order are the layout's rack indices (fp_plan_rack). */
        int64_t a, z[FP_MAX_LEGS], seen[FP_MAX_LEGS];
        int n_z = fp__cable_ends(plan, i, &a, z), n_seen = 0;
        int64_t ra = dev_rack[a];
        for (int k = 0; k < n_z; k++) {
            int64_t rz = dev_rack[z[k]];
            int dup = 0;
            for (int s = 0; s < n_seen; s++)
                dup |= seen[s] == rz;
            /* Legs of one breakout that end in the same rack are one cable on the run. */
            if (ra < 0 || rz < 0 || ra == rz || dup)
                continue;
            seen[n_seen++] = rz;
            int64_t lo = ra < rz ? ra : rz, hi = ra < rz ? rz : ra;
            pairs[n_pairs++] = lo * (int64_t)n_racks + hi;
        }
    }
    qsort(pairs, n_pairs, sizeof *pairs, cmp_i64);
    for (size_t i = 0; i < n_pairs;) {
        size_t j = i;
        while (j < n_pairs && pairs[j] == pairs[i])
            j++;
        run r = { pairs[i] / (int64_t)n_racks, pairs[i] % (int64_t)n_racks, (int64_t)(j - i) };
        tally->runs++;
        /* Insert into the top list, kept sorted by cables (ties: first pair in floor order). */
        int pos = *n_runs;
        while (pos > 0 && runs[pos - 1].cables < r.cables)
            pos--;
        int64_t left_out = pos < FLOOR_RUNS ? (*n_runs == FLOOR_RUNS ? runs[FLOOR_RUNS - 1].cables : 0)
                                            : r.cables;
        if (left_out > tally->rest_max)
            tally->rest_max = left_out;
        if (pos < FLOOR_RUNS) {
            int last = *n_runs < FLOOR_RUNS ? *n_runs : FLOOR_RUNS - 1;
            memmove(&runs[pos + 1], &runs[pos], (size_t)(last - pos) * sizeof *runs);
            runs[pos] = r;
            if (*n_runs < FLOOR_RUNS)
                (*n_runs)++;
        }
        i = j;
    }
    free(pairs);
    return FP_OK;
}

/* Points per row of the run table at its font size; used only to place the table, whose top
 * edge then lines up below the role legend. */
#define RUN_TABLE_ROW_PT 17.0

/* The run list as a table node left of the floor, below the role legend: each run's two racks
 * and cable count, then how many runs are not drawn. Rack names repeat the box labels (row R,
 * rack K), so a reader finds both ends of each line. */
static fp_status run_table(Agraph_t *g, const fp_plan *plan, const run *runs, int n_runs,
                           const run_tally *tally, double max_y, fp_error *err)
{
    char buf[4096], pos[64];
    size_t k = 0, cap = sizeof buf;
    fp_rack_info a, b;
#define PUT(...) (k += k < cap ? (size_t)snprintf(buf + k, cap - k, __VA_ARGS__) : 0)
    PUT("<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"3\">"
        "<TR><TD COLSPAN=\"3\" BGCOLOR=\"#e8eef7\"><B>busiest runs (cables)</B></TD></TR>");
    for (int i = 0; i < n_runs; i++) {
        fp_plan_rack(plan, (size_t)runs[i].a, &a, NULL);
        fp_plan_rack(plan, (size_t)runs[i].b, &b, NULL);
        PUT("<TR><TD>%s</TD><TD>%s</TD><TD ALIGN=\"RIGHT\"><FONT COLOR=\"#1f4e9a\">%lld</FONT></TD></TR>",
            a.name, b.name, (long long)runs[i].cables);
    }
    if (tally->runs > n_runs)
        PUT("<TR><TD COLSPAN=\"3\">%lld more runs, up to %lld cables each</TD></TR>",
            (long long)(tally->runs - n_runs), (long long)tally->rest_max);
    PUT("</TABLE>");
#undef PUT
    if (k >= cap)
        FP_FAIL(err, FP_ENOMEM, "floor.svg", "run table longer than %zu bytes", cap);
    Agnode_t *n = table_node(g, "legend-runs", buf);
    set_attr(n, "fixedsize", "false");
    set_attr(n, "fontsize", "11");
    /* Centre pinned: right edge near the floor's left edge, top below the role legend. */
    int rows = n_runs + 1 + (tally->runs > n_runs);
    double height = rows * RUN_TABLE_ROW_PT;
    double top = (max_y + 1.2) * FLOOR_PT_PER_M - 40.0 * (fp__plan_fabric(plan)->tiers + 1) - 12.0;
    snprintf(pos, sizeof pos, "%.2f,%.2f!", -2.6 * 72.0 - FLOOR_LEGEND_SHIFT, top - height / 2);
    set_attr(n, "pos", pos);
    return FP_OK;
}

/* A rectangle of the floor drawn as a fixed-size node: x0..x1 and y0..y1 in floor metres
 * (y grows away from the front, as fp_rack_info's), placed on a page whose y grows up. */
static Agnode_t *floor_rect(Agraph_t *g, const char *name, double x0, double x1, double y0,
                            double y1, double max_y)
{
    char v[64];
    Agnode_t *n = agnode(g, (char *)name, 1);
    snprintf(v, sizeof v, "%.2f,%.2f!", (x0 + x1) / 2 * FLOOR_PT_PER_M,
             (max_y + 1.2 - (y0 + y1) / 2) * FLOOR_PT_PER_M);
    set_attr(n, "pos", v);
    snprintf(v, sizeof v, "%.4f", (x1 - x0) * FLOOR_PT_PER_M / 72.0);
    set_attr(n, "width", v);
    snprintf(v, sizeof v, "%.4f", (y1 - y0) * FLOOR_PT_PER_M / 72.0);
    set_attr(n, "height", v);
    set_attr(n, "label", "");
    return n;
}

/* Rows, their overhead trays and the aisles between them. A row's tray runs its length over the
 * racks' rear 0.3 m (clear of the rack labels), red when the tray is over-full; an aisle is the
 * floor between two rows of a hall, drawn dashed and named. */
static fp_status floor_rows(Agraph_t *g, const fp_plan *plan, size_t n_racks, double max_y,
                            fp_error *err)
{
    char name[64];
    double px0 = 0, px1 = 0, py = 0;
    int phall = -1;
    for (size_t i = 0; i < n_racks;) {
        fp_rack_info r, q;
        fp_status rc = fp_plan_rack(plan, i, &r, err);
        if (rc != FP_OK)
            return rc;
        double x0 = r.x_m, x1 = r.x_m + 0.6;
        size_t j = i + 1;
        for (; j < n_racks && fp_plan_rack(plan, j, &q, NULL) == FP_OK && q.hall == r.hall &&
               q.row == r.row; j++) {
            x0 = q.x_m < x0 ? q.x_m : x0;
            x1 = q.x_m + 0.6 > x1 ? q.x_m + 0.6 : x1;
        }
        char row[16];
        snprintf(row, sizeof row, "H%d-R%02d", r.hall, r.row);
        snprintf(name, sizeof name, "floor-tray-%s", row);
        Agnode_t *t = floor_rect(g, name, x0, x1, r.y_m + 0.9, r.y_m + 1.2, max_y);
        set_attr(t, "style", "filled");
        set_attr(t, "fillcolor", "#8080804d");
        set_attr(t, "color", "#606060");
        for (size_t k = 0; k < fp_plan_tray_count(plan); k++) {
            fp_tray_info ti;
            if (fp_plan_tray(plan, k, &ti, NULL) == FP_OK && strcmp(ti.row, row) == 0 && ti.over) {
                set_attr(t, "fillcolor", "#d000004d");
                set_attr(t, "color", "#d00000");
            }
        }
        if (r.hall == phall && r.y_m > py + 1.2) {
            snprintf(name, sizeof name, "floor-aisle-%s", row);
            Agnode_t *a = floor_rect(g, name, x0 < px0 ? x0 : px0, x1 > px1 ? x1 : px1,
                                     py + 1.2, r.y_m, max_y);
            set_attr(a, "style", "dashed");
            set_attr(a, "color", "#a0a0a0");
            set_attr(a, "label", "aisle");
            set_attr(a, "fontcolor", "#808080");
            set_attr(a, "fontsize", "10");
        }
        phall = r.hall;
        px0 = x0;
        px1 = x1;
        py = r.y_m;
        i = j;
    }
    return FP_OK;
}

/* A scale bar below the floor's left end: alternate black and white 1-m (or longer) segments,
 * the bar about a quarter of the floor's width, and its length in metres. */
static void scale_bar(Agraph_t *g, double width_m, double max_y)
{
    static const double lengths[] = { 1, 2, 5, 10, 20, 50, 100 };
    double len = 1;
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++)
        if (lengths[k] <= width_m / 4)
            len = lengths[k];
    int segs = 5;
    char name[64], v[64];
    for (int s = 0; s < segs; s++) {
        snprintf(name, sizeof name, "legend-scale-%d", s);
        Agnode_t *n = floor_rect(g, name, len * s / segs, len * (s + 1) / segs, max_y + 2.0,
                                 max_y + 2.15, max_y);
        set_attr(n, "style", "filled");
        set_attr(n, "fillcolor", s % 2 ? "white" : "black");
        set_attr(n, "color", "black");
    }
    Agnode_t *n = floor_rect(g, "legend-scale", 0, len, max_y + 2.2, max_y + 2.6, max_y);
    snprintf(v, sizeof v, "%g m", len);
    set_attr(n, "label", v);
    set_attr(n, "shape", "plaintext");
    set_attr(n, "style", "solid");
    set_attr(n, "fontsize", "12");
    snprintf(v, sizeof v, "%g", len);
    set_attr(n, "metres", v);
}

/* A run's path along the trays: from rack a's tray along its row to the nearer end of the floor
 * (a cross aisle 0.4 m past the last rack), along that end to rack b's row, and along b's tray
 * to b; a run within one line of rows stays on its tray. Each run is offset by 0.05 m from the
 * one before so runs sharing a tray stay apart. The polyline is written as the B-spline pos
 * Graphviz draws (each corner repeated), so nop2 draws it as given. */
static void run_path(Agedge_t *e, const fp_plan *plan, const run *rn, int k, double max_x,
                     double max_y)
{
    fp_rack_info ra, rb;
    if (fp_plan_rack(plan, (size_t)rn->a, &ra, NULL) != FP_OK ||
        fp_plan_rack(plan, (size_t)rn->b, &rb, NULL) != FP_OK)
        return;
    double off = 0.05 * k, xa = ra.x_m + 0.3, xb = rb.x_m + 0.3;
    double ya = ra.y_m + 1.05 + off * 0.25, yb = rb.y_m + 1.05 + off * 0.25;
    double left = -0.4 - off, right = max_x + 0.4 + off;
    double end = fabs(xa - left) + fabs(xb - left) <= fabs(xa - right) + fabs(xb - right) ? left : right;
    double pt[4][2];
    int n = 0;
    pt[n][0] = xa, pt[n++][1] = ya;
    if (ra.hall == rb.hall && ra.y_m == rb.y_m) {
        pt[n][0] = xb, pt[n++][1] = ya;
    } else {
        pt[n][0] = end, pt[n++][1] = ya;
        pt[n][0] = end, pt[n++][1] = yb;
        pt[n][0] = xb, pt[n++][1] = yb;
    }
    char buf[512];
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        /* p0, then per segment: p(i-1) again, p(i), p(i) */
        for (int r = 0; r < (i == 0 ? 1 : 3) && len < sizeof buf; r++) {
            const double *q = r == 0 && i > 0 ? pt[i - 1] : pt[i];
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%.2f,%.2f", len ? " " : "",
                                    q[0] * FLOOR_PT_PER_M, (max_y + 1.2 - q[1]) * FLOOR_PT_PER_M);
        }
    }
    set_attr(e, "pos", buf);
}

fp_status fp__write_floor(const fp_plan *plan, const char *path, const fp_write_options *o,
                          fp_error *err)
{
    const fp_rspec *rs = fp__plan_rspec(plan);
    size_t n_racks = fp_plan_rack_count(plan);
    char title[256], name[64], label[256];
    fp_status rc = FP_OK;
    run runs[FLOOR_RUNS];
    run_tally tally = { 0, 0 };
    int n_runs = 0;
    (void)o;
    Agnode_t **node = calloc(n_racks + 1, sizeof *node);
    Agraph_t *g = NULL;
    if (node == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for %zu racks", n_racks);
        goto out;
    }
    snprintf(title, sizeof title, "%s — floor plan, %zu racks%s\n ", rs->name[0] ? rs->name : "fabric",
             n_racks, n_racks ? "; lines: the busiest rack-to-rack runs, listed on the left" :
                                ": this build places no racks (no layout)");
    /* Positions are given, so no layout engine moves anything: "nop2" is neato -n2, which takes
     * node and edge pos (in points) as final and only draws. Plain neato with pinned nodes drew the
     * same picture but spent seconds in its solver on 5,000 racks at full scale. */
    g = new_graph("floor", "nop2", title);
    if (g == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, path, "Graphviz: cannot create a graph");
        goto out;
    }
    set_attr(g, "notranslate", "true");
    set_attr(g, "splines", "line");
    set_attr(g, "outputorder", "edgesfirst");
    agattr(g, AGNODE, S("shape"), S("box"));
    agattr(g, AGNODE, S("fixedsize"), S("true"));
    agattr(g, AGNODE, S("fontsize"), S("8"));
    agattr(g, AGEDGE, S("fontsize"), S("12"));
    /* Draw the racks with y growing up the page the way a floor plan is read from the front. */
    double max_y = 0, max_x = 0;
    for (size_t i = 0; i < n_racks; i++) {
        fp_rack_info r;
        if ((rc = fp_plan_rack(plan, i, &r, err)) != FP_OK)
            goto out;
        if (r.y_m > max_y)
            max_y = r.y_m;
        if (r.x_m + 0.6 > max_x)
            max_x = r.x_m + 0.6;
    }
    for (size_t i = 0; i < n_racks; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        node[i] = agnode(g, r.name, 1);
        int tier = 0;
        for (int t = 0; t <= FP_MAX_TIERS; t++)
            if (strcmp(r.role, t == 0 ? "compute" : fp__tier_role(t, fp__plan_fabric(plan)->tiers)) == 0)
                tier = t;
        snprintf(label, sizeof label, "R%02d\nK%02d", r.row, r.rack);
        set_attr(node[i], "label", label);
        set_attr(node[i], "fillcolor", fill_of(tier));
        set_attr(node[i], "role", r.role);
        if (r.over_limit) {
            set_attr(node[i], "color", "#d00000");
            set_attr(node[i], "penwidth", "3");
        }
        /* Racks are 0.6 m wide and 1.2 m deep on the default floor; the centre is pinned. */
        /* nop reads pos in points (width and height stay in inches). */
        snprintf(label, sizeof label, "%.2f,%.2f!", (r.x_m + 0.3) * FLOOR_PT_PER_M,
                 (max_y - r.y_m + 0.6) * FLOOR_PT_PER_M);
        set_attr(node[i], "pos", label);
        /* Four decimals: to two, 0.67 in drew a 0.6 m rack 0.5 % wide of the scale bar. */
        snprintf(label, sizeof label, "%.4f", 0.6 * FLOOR_PT_PER_M / 72.0);
        set_attr(node[i], "width", label);
        snprintf(label, sizeof label, "%.4f", 1.2 * FLOOR_PT_PER_M / 72.0);
        set_attr(node[i], "height", label);
    }
    if ((rc = floor_rows(g, plan, n_racks, max_y, err)) != FP_OK)
        goto out;
    if (n_racks > 0)
        scale_bar(g, max_x, max_y);
    if (n_racks > 0 && (rc = busiest_runs(plan, n_racks, runs, &n_runs, &tally, err)) != FP_OK)
        goto out;
    for (int i = 0; i < n_runs; i++) {
        Agedge_t *e = agedge(g, node[runs[i].a], node[runs[i].b], NULL, 1);
        snprintf(label, sizeof label, "%lld", (long long)runs[i].cables);
        /* The counts are in the run table, not on the lines: runs fan out of one leaf rack and
         * into a few spine racks, so labels at either end or the middle piled up there. */
        set_attr(e, "cables", label);
        /* Thickness grows with the count relative to the busiest run. */
        snprintf(label, sizeof label, "%.1f", 1.5 + 6.0 * (double)runs[i].cables / (double)runs[0].cables);
        set_attr(e, "penwidth", label);
        set_attr(e, "color", "#1f4e9acc");
        run_path(e, plan, &runs[i], i, max_x, max_y);
    }
    /* Legend: one box per role, pinned left of the floor. */
    for (int t = 0; t <= fp__plan_fabric(plan)->tiers; t++) {
        snprintf(name, sizeof name, "legend-%s", t == 0 ? "compute" : fp__tier_role(t, fp__plan_fabric(plan)->tiers));
        Agnode_t *n = agnode(g, name, 1);
        set_attr(n, "label", t == 0 ? "compute" : fp__tier_role(t, fp__plan_fabric(plan)->tiers));
        set_attr(n, "fillcolor", fill_of(t));
        set_attr(n, "fontsize", "12");
        set_attr(n, "width", "1.2");
        set_attr(n, "height", "0.4");
        snprintf(label, sizeof label, "%.2f,%.2f!", -1.7 * 72.0 - FLOOR_LEGEND_SHIFT,
                 (max_y + 1.2) * FLOOR_PT_PER_M - 40.0 * t);
        set_attr(n, "pos", label);
    }
    if (n_runs > 0 && (rc = run_table(g, plan, runs, n_runs, &tally, max_y, err)) != FP_OK)
        goto out;
out:
    free(node);
    if (rc != FP_OK) {
        if (g)
            agclose(g);
        return rc;
    }
    return emit(g, path, err);
}
