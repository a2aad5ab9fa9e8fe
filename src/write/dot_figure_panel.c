/* fabplan — the one-page fabric figure's labels and right-hand panel: each boundary's links
 * beside its gap, the counts table (this group and the whole fabric) and the legend. */
#include "write/dot_figure.h"

/* "leaf–spine: 1,024 × 400G" beside the gap each boundary crosses, on the left margin. */
void fp__fig_boundary_labels(fp_figure *f)
{
    const fp_shape *sh = &f->sh;
    char name[32], label[128], bn[32], c[32];
    for (int b = 0; b < sh->tiers; b++) {
        if (f->links[b] == 0)
            continue;
        snprintf(name, sizeof name, "label-boundary-%d", b);
        snprintf(label, sizeof label, "%s: %s × %dG", fp__boundary_name(b, bn, sizeof bn),
                 fp__grouped_int(c, sizeof c, f->links[b]), sh->gbps[b]);
        Agnode_t *nd = fig_text(f, name, FIG_LEFT + 2, (f->row_y[b] + f->row_y[b + 1]) / 2, label, "11");
        set_attr(nd, "labeljust", "l");
        /* Left-aligned against the margin: a plaintext node is centred on pos, so shift it. */
        double half = 3.1 * (double)strlen(label);
        pin(nd, FIG_LEFT - 30 + half, (f->row_y[b] + f->row_y[b + 1]) / 2);
        set_attr(nd, "fontcolor", "#303030");
        set_attr(nd, "style", "filled");
        set_attr(nd, "fillcolor", "#ffffffd0");
    }
}

/* A table of the right-hand panel centred at (cx, cy); left out when its text did not fit. */
static void panel_table(fp_figure *f, const char *name, const char *html, int fits,
                        const char *size, double cx, double cy)
{
    if (!fits)
        return;
    Agnode_t *nd = fp__dot_table_node(f->g, name, html);
    set_attr(nd, "fontsize", size);
    pin(nd, cx, cy);
}

int fp__fig_counts_rows(const fp_figure *f)
{
    const fp_shape *sh = &f->sh;
    int models = 0;
    for (int t = 0; t < sh->tiers; t++) {
        int seen = 0;
        for (int u = 0; u < t; u++)
            seen |= strcmp(sh->model[u], sh->model[t]) == 0;
        models += !seen;
    }
    return 3 + (f->su_lo >= 0) + 2 * sh->tiers + models;
}

/* First and last name of the tier's devices in the figure ("pod01-spine-01 … pod01-spine-32"),
 * "" when the tier is a band or empty. */
static void row_names(const fp_figure *f, int t, char *buf, size_t n)
{
    char first[64] = "", last[64] = "";
    buf[0] = '\0';
    if (f->band[t] || f->n[t] == 0)
        return;
    int64_t lo = t == 0 ? 0 : f->sh.tier_base[t];
    for (int64_t i = lo; i < fp__shape_tier_end(&f->sh, t); i++)
        if (f->local[i] == 0)
            fp__plan_device_name(f->plan, i, first, sizeof first);
        else if (f->local[i] == f->n[t] - 1)
            fp__plan_device_name(f->plan, i, last, sizeof last);
    snprintf(buf, n, f->n[t] > 1 ? "%s … %s" : "%s", first, last);
}

/* The counts table: this group and the whole fabric, tier by tier and boundary by boundary,
 * with the names of the first and last device drawn in each row. */
void fp__fig_counts_table(fp_figure *f)
{
    const fp_shape *sh = &f->sh;
    char html[8000], a[32], b[32], bn[32], names[160];
    size_t k = 0, cap = sizeof html;
#define PUT(...) (k += k < cap ? (size_t)snprintf(html + k, cap - k, __VA_ARGS__) : 0)
#define HEAD "<TD BGCOLOR=\"#e8eef7\"><B>"
    PUT("<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"3\">"
        "<TR>" HEAD "counts</B></TD>" HEAD "this group%s</B></TD>" HEAD "fabric</B></TD>" HEAD
        "first … last in the figure</B></TD></TR>", sh->planes > 1 ? " (plane 1)" : "");
#undef HEAD
    int64_t gpus_in = f->n[0] * sh->gpus_per_server;
    row_names(f, 0, names, sizeof names);
    PUT("<TR><TD ALIGN=\"LEFT\">GPUs</TD><TD ALIGN=\"RIGHT\">%s</TD><TD ALIGN=\"RIGHT\">%s</TD>"
        "<TD></TD></TR>", fp__grouped_int(a, sizeof a, gpus_in), fp__grouped_int(b, sizeof b, sh->gpus));
    PUT("<TR><TD ALIGN=\"LEFT\" BGCOLOR=\"%s\">servers</TD><TD ALIGN=\"RIGHT\">%s</TD>"
        "<TD ALIGN=\"RIGHT\">%s</TD><TD ALIGN=\"LEFT\">%s</TD></TR>",
        fp__dot_role_fill(0), fp__grouped_int(a, sizeof a, f->n[0]), fp__grouped_int(b, sizeof b, sh->servers),
        names);
    if (f->su_lo >= 0)
        PUT("<TR><TD ALIGN=\"LEFT\">scalable units</TD><TD ALIGN=\"RIGHT\">%lld</TD>"
            "<TD ALIGN=\"RIGHT\">%s</TD><TD ALIGN=\"LEFT\">SU %lld … SU %lld</TD></TR>",
            (long long)(f->su_hi - f->su_lo + 1), fp__grouped_int(b, sizeof b, sh->su_count),
            (long long)f->su_lo + 1, (long long)f->su_hi + 1);
    for (int t = 1; t <= sh->tiers; t++) {
        row_names(f, t, names, sizeof names);
        PUT("<TR><TD ALIGN=\"LEFT\" BGCOLOR=\"%s\">%s</TD><TD ALIGN=\"RIGHT\">%s%s</TD>"
            "<TD ALIGN=\"RIGHT\">%s</TD><TD ALIGN=\"LEFT\">%s</TD></TR>",
            fp__dot_role_fill(t), fp__dot_role_plural(t), t > 2 ? "reached: " : "",
            fp__grouped_int(a, sizeof a, f->n[t]), fp__grouped_int(b, sizeof b, sh->level[t].switches * sh->planes),
            names);
    }
    for (int bd = 0; bd < sh->tiers; bd++) {
        int64_t all = sh->boundary_base[bd + 1] - sh->boundary_base[bd];
        if (all == 0)
            continue;
        PUT("<TR><TD ALIGN=\"LEFT\">%s links</TD><TD ALIGN=\"RIGHT\">%s%s</TD>"
            "<TD ALIGN=\"RIGHT\">%s</TD><TD ALIGN=\"LEFT\">%dG each</TD></TR>",
            fp__boundary_name(bd, bn, sizeof bn), bd > 2 ? "of those reached: " : "",
            fp__grouped_int(a, sizeof a, f->links[bd]), fp__grouped_int(b, sizeof b, all), sh->gbps[bd]);
    }
    /* Switch models, tiers sharing a model named together. */
    for (int t = 0; t < sh->tiers; t++) {
        int seen = 0;
        for (int u = 0; u < t; u++)
            seen |= strcmp(sh->model[u], sh->model[t]) == 0;
        if (seen)
            continue;
        PUT("<TR><TD ALIGN=\"LEFT\">switch</TD><TD COLSPAN=\"3\" ALIGN=\"LEFT\">%s (%d ports): %s",
            sh->model[t], sh->radix[t], fp__tier_role(t + 1));
        for (int u = t + 1; u < sh->tiers; u++)
            if (strcmp(sh->model[u], sh->model[t]) == 0)
                PUT(", %s", fp__tier_role(u + 1));
        PUT("</TD></TR>");
    }
    PUT("</TABLE>");
#undef PUT
    panel_table(f, "legend-counts", html, k < cap, "10", (FIG_PANEL + FIG_W) / 2 - 15,
                80 + fp__fig_counts_rows(f) * 9.5);
}

/* The legend: rail colours (rail-optimized) or NIC-port colours, tier fills, what a line is. */
void fp__fig_legend(fp_figure *f, double top)
{
    const fp_shape *sh = &f->sh;
    char html[4000];
    size_t k = 0, cap = sizeof html;
    int rails = sh->endpoints_per_server;
#define PUT(...) (k += k < cap ? (size_t)snprintf(html + k, cap - k, __VA_ARGS__) : 0)
    PUT("<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"1\">"
        "<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\"><B>legend</B></TD></TR>");
    int shown = rails > 8 ? 8 : rails;
    for (int r = 0; r < shown; r += 2) {
        PUT("<TR>");
        for (int c = r; c < r + 2; c++) {
            if (c < shown)
                PUT("<TD WIDTH=\"24\" BGCOLOR=\"%s\"></TD><TD ALIGN=\"LEFT\">%s %d%s</TD>",
                    fp__rail_colour(c), sh->topology == FP_TOPO_RAIL ? "rail" : "NIC port", c + 1,
                    rails > 8 && c == 7 ? " (repeat from 9)" : "");
            else
                PUT("<TD></TD><TD></TD>");
        }
        PUT("</TR>");
    }
    for (int t = 0; t <= sh->tiers; t++)
        PUT("<TR><TD WIDTH=\"24\" BGCOLOR=\"%s\" BORDER=\"1\"></TD><TD ALIGN=\"LEFT\" "
            "COLSPAN=\"3\">%s</TD></TR>",
            fp__dot_role_fill(t), fp__dot_role_plural(t));
    PUT("<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\">a line: the links between two devices"
        "<BR ALIGN=\"LEFT\"/>(the wider, the more links)<BR ALIGN=\"LEFT\"/>"
        "%s</TD></TR>", sh->topology == FP_TOPO_RAIL ? "leaf colour = its rail; NIC and leaf-spine lines"
                                                     "<BR ALIGN=\"LEFT\"/>in the leaf's rail colour<BR ALIGN=\"LEFT\"/>"
                                                     : "NIC lines in the NIC port's colour<BR ALIGN=\"LEFT\"/>");
    PUT("</TABLE>");
#undef PUT
    int rows = (shown + 1) / 2 + sh->tiers + 1 + 1 + 4;
    panel_table(f, "legend-colours", html, k < cap, "12", (FIG_PANEL + FIG_W - 20) / 2,
                top + rows * 8.5);
}
