/* fabplan — the one-page fabric figure of a scalable-unit group (group-N.dot/.svg), drawn the
 * way NVIDIA's SuperPOD reference architectures draw their compute fabric: every leaf of the group
 * (rail-optimized: scalable units side by side, leaves coloured by rail), the group's servers
 * below, every spine above, the tiers above the group as bands (or boxes while few), a counts
 * table and a legend, on a 16:9 page that fits a slide. See write_dot.c.
 *
 * fabplan places everything itself and Graphviz only draws ("nop2" = neato -n2: node and edge
 * positions are final), as on the floor plan: no layout solver runs. */
#include "write/dot_figure.h"

/* A fixed-size box centred at (cx, cy) on the page (y down), w x h points. */
static Agnode_t *fig_box(fp_figure *f, const char *name, double cx, double cy, double w, double h,
                         const char *label, const char *fill)
{
    char v[64];
    Agnode_t *nd = agnode(f->g, (char *)name, 1);
    pin(nd, cx, cy);
    snprintf(v, sizeof v, "%.4f", w / 72.0);
    set_attr(nd, "width", v);
    snprintf(v, sizeof v, "%.4f", h / 72.0);
    set_attr(nd, "height", v);
    set_attr(nd, "label", label);
    if (fill) {
        set_attr(nd, "fillcolor", fill);
    } else {
        set_attr(nd, "style", "rounded,dashed");
        set_attr(nd, "color", "#808080");
    }
    return nd;
}

/* A straight line between two drawn nodes, from (x0, y0) to (x1, y1) on the page, written as the
 * B-spline Graphviz draws so nop2 takes it as given. */
static Agedge_t *fig_line(fp_figure *f, Agnode_t *a, Agnode_t *b, double x0, double y0, double x1,
                          double y1, const char *colour, double width)
{
    char v[160];
    Agedge_t *e = agedge(f->g, a, b, NULL, 1);
    snprintf(v, sizeof v, "%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f", x0, FIG_H - y0, x0, FIG_H - y0,
             x1, FIG_H - y1, x1, FIG_H - y1);
    set_attr(e, "pos", v);
    set_attr(e, "color", colour);
    snprintf(v, sizeof v, "%.2f", width);
    set_attr(e, "penwidth", v);
    f->edges++;
    return e;
}

static int in_group(const fp_figure *f, const fp_device *d)
{
    return d->plane == 0 && d->tier >= 1 && d->tier <= 2 && (f->pod < 0 || d->pod == f->pod);
}

/* Which devices the figure draws and their places in their rows: the group's leaves and spines,
 * the devices of higher tiers its links reach (plane 1), and the servers on its leaves. */
static void select_devices(fp_figure *f)
{
    f->su_lo = f->su_hi = -1;
    for (int64_t i = 0; i < f->sh.devices; i++) {
        const fp_device d = fp__shape_device(&f->sh, i);
        f->local[i] = -1;
        if (in_group(f, &d)) {
            f->local[i] = f->n[d.tier]++;
            if (d.tier == 1 && d.su >= 0) {
                if (f->su_lo < 0 || d.su < f->su_lo)
                    f->su_lo = d.su;
                if (d.su > f->su_hi)
                    f->su_hi = d.su;
            }
        }
    }
    /* Links run lower to upper and boundary by boundary, so one pass reaches every tier. */
    for (int64_t k = 0; k < f->sh.links; k++) {
        const fp_link l = fp__shape_link(&f->sh, k);
        if (l.boundary == 0) {
            if (f->local[l.z] >= 0 && fp__shape_device(&f->sh, l.z).tier == 1) {
                f->links[0]++;
                if (f->local[l.a] < 0)
                    f->local[l.a] = f->n[0]++;
            }
        } else if (f->local[l.a] >= 0 && fp__shape_device(&f->sh, l.a).tier == l.boundary) {
            const fp_device z = fp__shape_device(&f->sh, l.z);
            f->links[l.boundary]++;
            if (f->local[l.z] < 0 && z.tier > 2)
                f->local[l.z] = f->n[z.tier]++;
        }
    }
}

/* Row positions: the top tier drawn at FIG_TOP, servers at FIG_BOTTOM, equal gaps between. */
static void place_rows(fp_figure *f)
{
    int tiers = f->sh.tiers;
    for (int t = 0; t <= tiers; t++)
        f->row_y[t] = FIG_BOTTOM - (FIG_BOTTOM - FIG_TOP) * t / tiers;
}

/* Centre x of item i of n spread over the drawing's width. */
static double spread_x(int64_t i, int64_t n)
{
    double pitch = (FIG_RIGHT - FIG_LEFT) / (double)(n > 0 ? n : 1);
    return FIG_LEFT + pitch * ((double)i + 0.5);
}

static double pitch_of(int64_t n)
{
    return (FIG_RIGHT - FIG_LEFT) / (double)(n > 0 ? n : 1);
}

/* Leaves: scalable units side by side with a gap between them (rail-optimized), else evenly. */
static double leaf_x(const fp_figure *f, const fp_device *d, int64_t local)
{
    if (f->su_lo < 0)
        return spread_x(local, f->n[1]);
    int64_t sus = f->su_hi - f->su_lo + 1, per = (f->n[1] + sus - 1) / sus;
    /* A gap of one leaf between units: sus * per leaves and sus - 1 gaps. */
    double pitch = (FIG_RIGHT - FIG_LEFT) / (double)(sus * per + sus - 1);
    int64_t su = d->su - f->su_lo, k = local - su * per;
    return FIG_LEFT + pitch * ((double)(su * (per + 1) + k) + 0.5);
}

/* Short box labels: "r3" (rail leaf), "L12" / "S4" / "C7" otherwise; the full name is the
 * tooltip. Left out when the box is too narrow to hold them. */
static void switch_boxes(fp_figure *f, int tier, double w, double h)
{
    char name[64], label[32];
    static const char prefix[] = { 'N', 'L', 'S', 'C', 'X' };
    for (int64_t i = f->sh.tier_base[tier]; i < fp__shape_tier_end(&f->sh, tier); i++) {
        const fp_device dv = fp__shape_device(&f->sh, i), *d = &dv;
        int64_t k = f->local[i];
        if (k < 0)
            continue;
        fp__plan_device_name(f->plan, i, name, sizeof name);
        double cx = tier == 1 ? leaf_x(f, d, k) : spread_x(k, f->n[tier]);
        if (w < 14)
            label[0] = '\0';
        else if (d->rail >= 0 && tier == 1)
            snprintf(label, sizeof label, "r%d", d->rail + 1);
        else
            snprintf(label, sizeof label, "%c%lld", prefix[tier], (long long)k + 1);
        f->x[i] = cx;
        f->node[i] =
            fig_box(f, name, cx, f->row_y[tier], w, h, label,
                    tier == 1 && d->rail >= 0 ? fp__rail_colour(d->rail) : fp__dot_role_fill(tier));
        set_attr(f->node[i], "tooltip", name);
        set_attr(f->node[i], "tier", fp__tier_role(tier));
        if (tier == 1 && d->rail >= 0) {
            set_attr(f->node[i], "fontcolor", "white");
            snprintf(label, sizeof label, "%d", d->rail + 1);
            set_attr(f->node[i], "rail", label);
        }
    }
}

/* The su index of server or leaf i within the figure's units (0 without units). */
static int64_t su_in_fig(const fp_figure *f, int64_t i)
{
    return f->su_lo >= 0 ? fp__shape_device(&f->sh, i).su - f->su_lo : 0;
}

/* Servers one by one: the servers of each unit spread under that unit's leaves (or all under
 * all leaves), a small box each. */
static fp_status server_boxes(fp_figure *f, fp_error *err)
{
    const fp_shape *sh = &f->sh;
    char name[64];
    double y = f->row_y[0];
    int64_t sus = f->su_lo >= 0 ? f->su_hi - f->su_lo + 1 : 1;
    int64_t *in_su = calloc((size_t)sus, sizeof *in_su), *seen = calloc((size_t)sus, sizeof *seen);
    double *lo = malloc((size_t)sus * sizeof *lo), *hi = malloc((size_t)sus * sizeof *hi);
    if (!in_su || !seen || !lo || !hi) {
        free(in_su), free(seen), free(lo), free(hi);
        FP_FAIL(err, FP_ENOMEM, "figure", "out of memory for %lld units", (long long)sus);
    }
    for (int64_t s = 0; s < sus; s++)
        lo[s] = FIG_RIGHT, hi[s] = FIG_LEFT;
    for (int64_t i = 0; i < sh->tier_base[1]; i++)
        if (f->local[i] >= 0)
            in_su[su_in_fig(f, i)]++;
    double half = (f->su_lo >= 0 ? (FIG_RIGHT - FIG_LEFT) / (double)(f->n[1] + sus - 1)
                                 : pitch_of(f->n[1])) / 2;
    for (int64_t i = sh->tier_base[1]; i < fp__shape_tier_end(sh, 1); i++) {
        if (f->local[i] < 0)
            continue;
        int64_t s = su_in_fig(f, i);
        lo[s] = f->x[i] - half < lo[s] ? f->x[i] - half : lo[s];
        hi[s] = f->x[i] + half > hi[s] ? f->x[i] + half : hi[s];
    }
    int64_t most = 1;
    for (int64_t s = 0; s < sus; s++)
        most = in_su[s] > most ? in_su[s] : most;
    double pitch = (hi[0] - lo[0]) / (double)most;
    double w = pitch * 0.7 > 24 ? 24 : pitch * 0.7;
    for (int64_t i = 0; i < sh->tier_base[1]; i++) {
        if (f->local[i] < 0)
            continue;
        int64_t s = su_in_fig(f, i);
        fp__plan_device_name(f->plan, i, name, sizeof name);
        f->x[i] = lo[s] + (hi[s] - lo[s]) * ((double)seen[s]++ + 0.5) / (double)in_su[s];
        f->node[i] = fig_box(f, name, f->x[i], y, w, 22, "", fp__dot_role_fill(0));
        set_attr(f->node[i], "tooltip", name);
        set_attr(f->node[i], "tier", "server");
    }
    free(in_su), free(seen), free(lo), free(hi);
    return FP_OK;
}

/* Server bars: one per scalable unit (or per leaf) spanning its leaves, with its servers
 * counted once each, and a line to each leaf it has links to (bar_links[bar][leaf]). */
static fp_status server_bars(fp_figure *f, int64_t n_bars, Agnode_t **bar, const int64_t *bar_links,
                             fp_error *err)
{
    const fp_shape *sh = &f->sh;
    char name[64], label[96];
    double y = f->row_y[0], leaf_y = f->row_y[1] + 14;
    int64_t *servers = calloc((size_t)n_bars, sizeof *servers);
    double *x0 = malloc((size_t)n_bars * sizeof *x0), *x1 = malloc((size_t)n_bars * sizeof *x1);
    if (!servers || !x0 || !x1) {
        free(servers), free(x0), free(x1);
        FP_FAIL(err, FP_ENOMEM, "figure", "out of memory for %lld server bars", (long long)n_bars);
    }
    for (int64_t b = 0; b < n_bars; b++)
        x0[b] = 1e9, x1[b] = -1e9;
    for (int64_t i = sh->tier_base[1]; i < fp__shape_tier_end(sh, 1); i++) {
        if (f->local[i] < 0)
            continue;
        int64_t b = f->su_lo >= 0 ? su_in_fig(f, i) : f->local[i];
        x0[b] = f->x[i] < x0[b] ? f->x[i] : x0[b];
        x1[b] = f->x[i] > x1[b] ? f->x[i] : x1[b];
    }
    for (int64_t i = 0; i < sh->tier_base[1]; i++)
        if (f->local[i] >= 0 && fp__shape_device(&f->sh, i).su >= 0 && f->su_lo >= 0)
            servers[su_in_fig(f, i)]++;
    /* Without units, a leaf's servers: its NIC links over the NIC ports a server has there. */
    for (int64_t b = 0; b < n_bars; b++) {
        char cnt[32];
        if (x1[b] < x0[b])
            continue;
        int64_t s = servers[b];
        if (f->su_lo < 0) {
            int64_t ln = 0;
            for (int64_t j = 0; j < f->n[1]; j++)
                ln += bar_links[b * f->n[1] + j];
            s = ln;
        }
        snprintf(name, sizeof name, "servers-%lld", (long long)b + 1);
        if (f->su_lo >= 0)
            snprintf(label, sizeof label, "%s servers", fp__grouped_int(cnt, sizeof cnt, s));
        else
            snprintf(label, sizeof label, "%s", fp__grouped_int(cnt, sizeof cnt, s));
        double half = pitch_of(f->n[1]) * 0.4;
        bar[b] = fig_box(f, name, (x0[b] + x1[b]) / 2, y, x1[b] - x0[b] + 2 * half, 22, label,
                         fp__dot_role_fill(0));
        set_attr(bar[b], "tier", "server");
        set_attr(bar[b], "fontsize", "9");
    }
    for (int64_t b = 0; b < n_bars; b++)
        for (int64_t i = sh->tier_base[1]; i < fp__shape_tier_end(sh, 1); i++) {
            if (f->local[i] < 0 || bar[b] == NULL || bar_links[b * f->n[1] + f->local[i]] == 0)
                continue;
            const fp_device leaf = fp__shape_device(&f->sh, i);
            Agedge_t *e = fig_line(f, bar[b], f->node[i], f->x[i], y - 11, f->x[i], leaf_y,
                               leaf.rail >= 0 ? fp__rail_colour(leaf.rail) : "#555555", 1.2);
            snprintf(label, sizeof label, "%lld", (long long)bar_links[b * f->n[1] + f->local[i]]);
            set_attr(e, "links", label);
        }
    free(servers), free(x0), free(x1);
    return FP_OK;
}

/* Servers: one small box each while they fit, else one bar per scalable unit (or per leaf),
 * and a line from each server (bar) to each leaf it is cabled to, in the leaf's rail colour. */
static fp_status servers_and_nic_links(fp_figure *f, fp_error *err)
{
    const fp_shape *sh = &f->sh;
    fp_status rc;
    int one_by_one = f->n[0] <= FIG_MAX_SERVERS;
    double y = f->row_y[0], leaf_y = f->row_y[1] + 14;
    if (one_by_one && (rc = server_boxes(f, err)) != FP_OK)
        return rc;
    /* One line per server (or bar) and leaf. Bars: one per scalable unit, else one per leaf. */
    int64_t n_bars = 0;
    Agnode_t **bar = NULL;
    int64_t *bar_links = NULL;
    if (!one_by_one) {
        n_bars = f->su_lo >= 0 ? f->su_hi - f->su_lo + 1 : f->n[1];
        bar = calloc((size_t)n_bars, sizeof *bar);
        bar_links = calloc((size_t)n_bars * (size_t)f->n[1], sizeof *bar_links);
        if (!bar || !bar_links) {
            free(bar);
            free(bar_links);
            FP_FAIL(err, FP_ENOMEM, "figure", "out of memory for %lld server bars", (long long)n_bars);
        }
    }
    for (int64_t k = 0; k < sh->boundary_base[1]; k++) {
        const fp_link l = fp__shape_link(&f->sh, k);
        if (f->local[l.z] < 0 || f->local[l.a] < 0)
            continue;
        const fp_device leaf = fp__shape_device(&f->sh, l.z);
        if (leaf.tier != 1)
            continue;
        const char *colour = leaf.rail >= 0 ? fp__rail_colour(leaf.rail)
                                            : fp__rail_colour(l.a_port / sh->nic_ports);
        if (one_by_one) {
            fig_line(f, f->node[l.a], f->node[l.z], f->x[l.a], y - 11, f->x[l.z], leaf_y, colour,
                     0.5);
        } else {
            int64_t b = f->su_lo >= 0 ? leaf.su - f->su_lo : f->local[l.z];
            bar_links[b * f->n[1] + f->local[l.z]]++;
        }
    }
    rc = one_by_one ? FP_OK : server_bars(f, n_bars, bar, bar_links, err);
    free(bar);
    free(bar_links);
    return rc;
}

/* Switch-to-switch lines of boundary b (tier b -> b + 1) where both tiers are drawn box by box:
 * one line per pair of switches with links, as wide as their links (a twin link twice as wide). */
static fp_status pair_lines(fp_figure *f, int b, fp_error *err)
{
    int64_t na = f->n[b], nz = f->n[b + 1];
    int32_t *count = calloc((size_t)(na * nz), sizeof *count);
    int64_t *dev_a = malloc((size_t)na * sizeof *dev_a), *dev_z = malloc((size_t)nz * sizeof *dev_z);
    if (!count || !dev_a || !dev_z) {
        free(count), free(dev_a), free(dev_z);
        FP_FAIL(err, FP_ENOMEM, "figure", "out of memory for %lld x %lld switch pairs",
                (long long)na, (long long)nz);
    }
    for (int64_t k = f->sh.boundary_base[b]; k < f->sh.boundary_base[b + 1]; k++) {
        const fp_link l = fp__shape_link(&f->sh, k);
        if (f->local[l.a] < 0 || f->local[l.z] < 0)
            continue;
        count[f->local[l.a] * nz + f->local[l.z]]++;
        dev_a[f->local[l.a]] = l.a;
        dev_z[f->local[l.z]] = l.z;
    }
    double hy = 14;
    for (int64_t i = 0; i < na; i++)
        for (int64_t j = 0; j < nz; j++) {
            int32_t c = count[i * nz + j];
            if (c == 0)
                continue;
            int64_t a = dev_a[i], z = dev_z[j];
            const fp_device da = fp__shape_device(&f->sh, a);
            const char *colour = b == 1 && da.rail >= 0 ? fp__rail_colour(da.rail) : "#707070";
            char v[16];
            Agedge_t *e = fig_line(f, f->node[a], f->node[z], f->x[a], f->row_y[b] - hy, f->x[z],
                               f->row_y[b + 1] + hy, colour, 0.5 * c);
            snprintf(v, sizeof v, "%d", c);
            set_attr(e, "links", v);
        }
    free(count), free(dev_a), free(dev_z);
    return FP_OK;
}

/* A tier drawn as one band: a wide box naming how many of the tier the group reaches. */
static Agnode_t *band_box(fp_figure *f, int tier)
{
    char name[32], label[160], a[32], b[32];
    int64_t all = f->sh.level[tier].switches;
    if (f->n[tier] == all)
        snprintf(label, sizeof label, "%s %s (every one of the plane's)", fp__grouped_int(a, sizeof a, all),
                 fp__dot_role_plural(tier));
    else
        snprintf(label, sizeof label, "%s of the plane's %s %s", fp__grouped_int(a, sizeof a, f->n[tier]),
                 fp__grouped_int(b, sizeof b, all), fp__dot_role_plural(tier));
    snprintf(name, sizeof name, "band-%s", fp__dot_role_plural(tier));
    Agnode_t *nd = fig_box(f, name, (FIG_LEFT + FIG_RIGHT) / 2, f->row_y[tier],
                           FIG_RIGHT - FIG_LEFT, 28, label, fp__dot_role_fill(tier));
    set_attr(nd, "tier", fp__tier_role(tier));
    set_attr(nd, "fontsize", "13");
    snprintf(label, sizeof label, "%lld", (long long)f->n[tier]);
    set_attr(nd, "devices", label);
    return nd;
}

/* Lines into a band: each box of the tier below sends one vertical line up to the band, as wide
 * as its links; a band under a band gets one wide line in the middle. */
static void band_lines(fp_figure *f, int b, Agnode_t *band, Agnode_t *band_below)
{
    char v[32];
    if (band_below) {
        Agedge_t *e = fig_line(f, band_below, band, (FIG_LEFT + FIG_RIGHT) / 2, f->row_y[b] - 14,
                           (FIG_LEFT + FIG_RIGHT) / 2, f->row_y[b + 1] + 14, "#707070", 4);
        snprintf(v, sizeof v, "%lld", (long long)f->links[b]);
        set_attr(e, "links", v);
        return;
    }
    int64_t *up = calloc((size_t)f->sh.devices, sizeof *up);
    if (up == NULL)
        return;
    for (int64_t k = f->sh.boundary_base[b]; k < f->sh.boundary_base[b + 1]; k++) {
        int64_t a = fp__shape_link(&f->sh, k).a;
        if (f->local[a] >= 0 && f->node[a])
            up[a]++;
    }
    for (int64_t i = f->sh.tier_base[b]; i < fp__shape_tier_end(&f->sh, b); i++) {
        if (up[i] == 0)
            continue;
        double w = 0.25 * (double)up[i];
        Agedge_t *e = fig_line(f, f->node[i], band, f->x[i], f->row_y[b] - 14, f->x[i],
                           f->row_y[b + 1] + 14, "#707070", w > 4 ? 4 : w);
        snprintf(v, sizeof v, "%lld", (long long)up[i]);
        set_attr(e, "links", v);
    }
    free(up);
}

/* The graph with the page's corners pinned, so the SVG is exactly 16:9 whatever is drawn;
 * NULL when out of memory. */
static Agraph_t *figure_graph(void)
{
    Agraph_t *g = fp__dot_new_graph("figure", "nop2", "");
    if (g == NULL)
        return NULL;
    set_attr(g, "notranslate", "true");
    set_attr(g, "pad", "0");
    set_attr(g, "splines", "line");
    set_attr(g, "outputorder", "edgesfirst");
    agattr(g, AGNODE, S("shape"), S("box"));
    agattr(g, AGNODE, S("fixedsize"), S("true"));
    agattr(g, AGNODE, S("fontsize"), S("10"));
    for (int c = 0; c < 2; c++) {
        Agnode_t *nd = agnode(g, c ? S("page-end") : S("page-start"), 1);
        set_attr(nd, "shape", "point");
        set_attr(nd, "style", "invis");
        set_attr(nd, "width", "0.01");
        set_attr(nd, "label", "");
        pin(nd, c ? FIG_W - 0.5 : 0.5, c ? FIG_H - 0.5 : 0.5);
    }
    return g;
}

/* Title and subtitle: the plan, and which group (of how many) this page shows. */
static void figure_titles(fp_figure *f)
{
    const fp_shape *sh = &f->sh;
    char title[400], label[400], a[32], b[32];
    int64_t groups = sh->tiers >= 3 ? sh->level[2].blocks : 1;
    snprintf(title, sizeof title, "%s — %s fabric, %s GPUs, %d tiers%s", sh->name[0] ? sh->name : "fabric",
             fp_topology_name(sh->topology), fp__grouped_int(a, sizeof a, sh->gpus), sh->tiers,
             sh->planes > 1 ? "" : "");
    fig_text(f, "title", FIG_W / 2, 26, title, "22");
    size_t k = 0;
    if (sh->tiers >= 3)
        k += (size_t)snprintf(label, sizeof label, f->su_lo >= 0 ? "scalable-unit group %lld of %s (pod %lld)"
                                                                 : "pod %lld of %s",
                              (long long)f->pod + 1, fp__grouped_int(b, sizeof b, groups), (long long)f->pod + 1);
    else
        k += (size_t)snprintf(label, sizeof label, "the whole fabric (2 tiers: one group)");
    if (f->su_lo >= 0 && k < sizeof label)
        k += (size_t)snprintf(label + k, sizeof label - k, f->su_lo == f->su_hi ? ": SU %lld" : ": SU %lld–%lld",
                              (long long)f->su_lo + 1, (long long)f->su_hi + 1);
    if (sh->planes > 1 && k < sizeof label)
        k += (size_t)snprintf(label + k, sizeof label - k, "; plane 1 of %d (the planes are alike)",
                              sh->planes);
    if (sh->tiers >= 3 && groups > 1 && k < sizeof label)
        snprintf(label + k, sizeof label - k, f->su_lo >= 0 ? "; every leaf and spine of the group, the tiers above as reached"
                                                             : "; every leaf and spine of the pod, the tiers above as reached");
    fig_text(f, "subtitle", FIG_W / 2, 52, label, "13");
}

/* Scalable-unit frames, drawn first so they lie under the leaves. */
static void su_frames(fp_figure *f)
{
    if (f->su_lo < 0)
        return;
    int64_t sus = f->su_hi - f->su_lo + 1, per = (f->n[1] + sus - 1) / sus;
    double pitch = (FIG_RIGHT - FIG_LEFT) / (double)(sus * per + sus - 1);
    for (int64_t s = 0; s < sus; s++) {
        char name[32], cap[32];
        double x0 = FIG_LEFT + pitch * (double)(s * (per + 1)), x1 = x0 + pitch * (double)per;
        double y0 = f->row_y[1] - 40, y1 = f->row_y[0] + 26;
        snprintf(name, sizeof name, "su-frame-%lld", (long long)(f->su_lo + s + 1));
        fig_box(f, name, (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, "", NULL);
        snprintf(name, sizeof name, "su-label-%lld", (long long)(f->su_lo + s + 1));
        snprintf(cap, sizeof cap, "SU %lld", (long long)(f->su_lo + s + 1));
        fig_text(f, name, (x0 + x1) / 2, y0 + 10, cap, pitch * per > 40 ? "11" : "8");
    }
}

/* Rows of switches: leaves and spines box by box, tiers above as boxes while few, else bands
 * (f->band). */
static void switch_rows(fp_figure *f)
{
    for (int t = 1; t <= f->sh.tiers; t++) {
        double pitch = t == 1 && f->su_lo >= 0 ? (FIG_RIGHT - FIG_LEFT) /
                                                     (double)(f->n[1] + (f->su_hi - f->su_lo))
                                               : pitch_of(f->n[t]);
        f->band[t] = t > 2 && f->n[t] > FIG_MAX_BOXES;
        if (f->band[t])
            continue;
        double w = pitch * 0.8 > 60 ? 60 : pitch * 0.8;
        switch_boxes(f, t, w, 28);
    }
}

/* The bands and the lines between switch tiers (pair by pair, or into a band). */
static fp_status switch_lines(fp_figure *f, fp_error *err)
{
    fp_status rc = FP_OK;
    Agnode_t *bands[FP_MAX_TIERS + 1] = { 0 };
    for (int t = 3; t <= f->sh.tiers; t++)
        if (f->band[t])
            bands[t] = band_box(f, t);
    for (int bd = 1; bd < f->sh.tiers && rc == FP_OK; bd++) {
        if (!f->band[bd + 1])
            rc = pair_lines(f, bd, err);
        else
            band_lines(f, bd, bands[bd + 1], f->band[bd] ? bands[bd] : NULL);
    }
    return rc;
}

fp_status fp__write_figure(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err)
{
    fp_status rc = FP_OK;
    fp_figure f;
    char label[400];
    memset(&f, 0, sizeof f);
    f.plan = plan;
    fp__plan_shape(plan, &f.sh);
    f.pod = f.sh.tiers >= 3 ? fp__detail_pod(plan, o) : -1;
    f.local = malloc((size_t)f.sh.devices * sizeof *f.local);
    f.node = calloc((size_t)f.sh.devices, sizeof *f.node);
    f.x = calloc((size_t)f.sh.devices, sizeof *f.x);
    if (!f.local || !f.node || !f.x) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for the fabric figure");
        goto out;
    }
    select_devices(&f);
    place_rows(&f);
    if ((f.g = figure_graph()) == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, path, "Graphviz: cannot create a graph");
        goto out;
    }
    figure_titles(&f);
    su_frames(&f);
    switch_rows(&f);
    if ((rc = servers_and_nic_links(&f, err)) != FP_OK || (rc = switch_lines(&f, err)) != FP_OK)
        goto out;
    fp__fig_boundary_labels(&f);
    fp__fig_counts_table(&f);
    fp__fig_legend(&f, 100 + fp__fig_counts_rows(&f) * 20.0);
    snprintf(label, sizeof label, "fabplan: %s", f.sh.name[0] ? f.sh.name : "fabric");
    Agnode_t *foot = fig_text(&f, "footer", FIG_W - 20 - 3.0 * (double)strlen(label), FIG_H - 14, label, "9");
    set_attr(foot, "fontcolor", "#808080");
out:
    free(f.local);
    free(f.node);
    free(f.x);
    if (rc != FP_OK) {
        if (f.g)
            agclose(f.g);
        return rc;
    }
    return fp__dot_emit(f.g, path, err);
}

int fp__figure_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                         char *buf, size_t n)
{
    fp_shape sh;
    fp__plan_shape(plan, &sh);
    snprintf(buf, n, "group-%lld.%s", sh.tiers >= 3 ? (long long)fp__detail_pod(plan, o) + 1 : 1LL,
             ext);
    return 1;
}
