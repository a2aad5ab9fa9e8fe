/* fabplan — the floor plan (floor.dot/.svg): racks to scale, trays, aisles and the busiest
 * runs along the trays; see write_dot.c. */
#include "write/dot.h"

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
    const int32_t *dev_rack = fp__plan_device_racks(plan);
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
static fp_status run_table(Agraph_t *g, const fp_plan *plan, int tiers, const run *runs,
                           int n_runs, const run_tally *tally, double max_y, fp_error *err)
{
    char buf[4096];
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
    Agnode_t *n = fp__dot_table_node(g, "legend-runs", buf);
    set_attr(n, "fixedsize", "false");
    set_attr(n, "fontsize", "11");
    /* Centre pinned: right edge near the floor's left edge, top below the role legend. */
    int rows = n_runs + 1 + (tally->runs > n_runs);
    double height = rows * RUN_TABLE_ROW_PT;
    double top = (max_y + 1.2) * FLOOR_PT_PER_M - 40.0 * (tiers + 1) - 12.0;
    fp__dot_pin(n, -2.6 * 72.0 - FLOOR_LEGEND_SHIFT, top - height / 2);
    return FP_OK;
}

/* A rectangle of the floor drawn as a fixed-size node: x0..x1 and y0..y1 in floor metres
 * (y grows away from the front, as fp_rack_info's), placed on a page whose y grows up. */
static Agnode_t *floor_rect(Agraph_t *g, const char *name, double x0, double x1, double y0,
                            double y1, double max_y)
{
    char v[64];
    Agnode_t *n = agnode(g, (char *)name, 1);
    fp__dot_pin(n, (x0 + x1) / 2 * FLOOR_PT_PER_M, (max_y + 1.2 - (y0 + y1) / 2) * FLOOR_PT_PER_M);
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
    size_t tray = 0;
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
        /* Trays are the rows in floor order: this row's is the next one (the others are
         * searched only if that ever stops holding). */
        fp_tray_info ti;
        int over = 0;
        if (fp_plan_tray(plan, tray, &ti, NULL) == FP_OK && strcmp(ti.row, row) == 0)
            over = ti.over;
        else
            for (size_t k = 0; k < fp_plan_tray_count(plan); k++)
                if (fp_plan_tray(plan, k, &ti, NULL) == FP_OK && strcmp(ti.row, row) == 0 && ti.over)
                    over = 1;
        tray++;
        if (over) {
            set_attr(t, "fillcolor", "#d000004d");
            set_attr(t, "color", "#d00000");
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
        /* The row's name in the aisle in front of it, at its first rack: two rows that share
         * a line of the floor (R01 and R02 side by side) read as two, each named where it
         * starts. */
        snprintf(name, sizeof name, "floor-rowname-%s", row);
        Agnode_t *rn = floor_rect(g, name, x0, x0 + 1.8, r.y_m - 0.45, r.y_m - 0.05, max_y);
        set_attr(rn, "label", row);
        set_attr(rn, "shape", "plaintext");
        set_attr(rn, "style", "solid");
        set_attr(rn, "fontsize", "14");
        set_attr(rn, "row", row);
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

/* The floor's graph, titled; NULL when out of memory. Positions are given, so no layout engine
 * moves anything: "nop2" is neato -n2, which takes node and edge pos (in points) as final and
 * only draws. Plain neato with pinned nodes drew the same picture but spent seconds in its
 * solver on 5,000 racks at full scale. */
static Agraph_t *floor_graph(const fp_shape *sh, size_t n_racks)
{
    char title[256];
    snprintf(title, sizeof title, "%s — floor plan, %zu racks%s\n ", sh->name[0] ? sh->name : "fabric",
             n_racks, n_racks ? "; lines: the busiest rack-to-rack runs, listed on the left" :
                                ": this build places no racks (no layout)");
    Agraph_t *g = fp__dot_new_graph("floor", "nop2", title);
    if (g == NULL)
        return NULL;
    set_attr(g, "notranslate", "true");
    set_attr(g, "splines", "line");
    set_attr(g, "outputorder", "edgesfirst");
    agattr(g, AGNODE, S("shape"), S("box"));
    agattr(g, AGNODE, S("fixedsize"), S("true"));
    agattr(g, AGNODE, S("fontsize"), S("8"));
    agattr(g, AGEDGE, S("fontsize"), S("12"));
    return g;
}

/* The floor's depth (*max_y, the deepest rack's y) and width (*max_x, its right edge) in m. */
static fp_status floor_extent(const fp_plan *plan, size_t n_racks, double *max_y, double *max_x,
                              fp_error *err)
{
    fp_status rc;
    *max_y = *max_x = 0;
    for (size_t i = 0; i < n_racks; i++) {
        fp_rack_info r;
        if ((rc = fp_plan_rack(plan, i, &r, err)) != FP_OK)
            return rc;
        if (r.y_m > *max_y)
            *max_y = r.y_m;
        if (r.x_m + 0.6 > *max_x)
            *max_x = r.x_m + 0.6;
    }
    return FP_OK;
}

/* A box per rack, filled in its role's colour, y growing up the page the way a floor plan is
 * read from the front; a rack over its power limit outlined in red. */
static void rack_nodes(Agraph_t *g, const fp_plan *plan, Agnode_t **node, size_t n_racks,
                       double max_y)
{
    char label[256];
    for (size_t i = 0; i < n_racks; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        node[i] = agnode(g, r.name, 1);
        int tier = 0;
        for (int t = 0; t <= FP_MAX_TIERS; t++)
            if (strcmp(r.role, t == 0 ? "compute" : fp__tier_role(t)) == 0)
                tier = t;
        snprintf(label, sizeof label, "R%02d\nK%02d", r.row, r.rack);
        set_attr(node[i], "label", label);
        set_attr(node[i], "fillcolor", fp__dot_role_fill(tier));
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
}

/* A line per busiest run, as thick as its count relative to the busiest. */
static void run_edges(Agraph_t *g, const fp_plan *plan, Agnode_t **node, const run *runs,
                      int n_runs, double max_x, double max_y)
{
    char label[256];
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
}

/* Legend: one box per role, pinned left of the floor. */
static void role_legend(Agraph_t *g, int tiers, double max_y)
{
    char name[64], label[256];
    for (int t = 0; t <= tiers; t++) {
        snprintf(name, sizeof name, "legend-%s", t == 0 ? "compute" : fp__tier_role(t));
        Agnode_t *n = agnode(g, name, 1);
        set_attr(n, "label", t == 0 ? "compute" : fp__tier_role(t));
        set_attr(n, "fillcolor", fp__dot_role_fill(t));
        set_attr(n, "fontsize", "12");
        set_attr(n, "width", "1.2");
        set_attr(n, "height", "0.4");
        snprintf(label, sizeof label, "%.2f,%.2f!", -1.7 * 72.0 - FLOOR_LEGEND_SHIFT,
                 (max_y + 1.2) * FLOOR_PT_PER_M - 40.0 * t);
        set_attr(n, "pos", label);
    }
}

fp_status fp__write_floor(const fp_plan *plan, const char *path, const fp_write_options *o,
                          fp_error *err)
{
    fp_shape sh;
    size_t n_racks = fp_plan_rack_count(plan);
    fp_status rc = FP_OK;
    run runs[FLOOR_RUNS];
    run_tally tally = { 0, 0 };
    int n_runs = 0;
    double max_y = 0, max_x = 0;
    (void)o;
    fp__plan_shape(plan, &sh);
    Agnode_t **node = calloc(n_racks + 1, sizeof *node);
    Agraph_t *g = NULL;
    if (node == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for %zu racks", n_racks);
        goto out;
    }
    if ((g = floor_graph(&sh, n_racks)) == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, path, "Graphviz: cannot create a graph");
        goto out;
    }
    if ((rc = floor_extent(plan, n_racks, &max_y, &max_x, err)) != FP_OK)
        goto out;
    rack_nodes(g, plan, node, n_racks, max_y);
    if ((rc = floor_rows(g, plan, n_racks, max_y, err)) != FP_OK)
        goto out;
    if (n_racks > 0)
        scale_bar(g, max_x, max_y);
    if (n_racks > 0 && (rc = busiest_runs(plan, n_racks, runs, &n_runs, &tally, err)) != FP_OK)
        goto out;
    run_edges(g, plan, node, runs, n_runs, max_x, max_y);
    role_legend(g, sh.tiers, max_y);
    if (n_runs > 0 &&
        (rc = run_table(g, plan, sh.tiers, runs, n_runs, &tally, max_y, err)) != FP_OK)
        goto out;
out:
    free(node);
    if (rc != FP_OK) {
        if (g)
            agclose(g);
        return rc;
    }
    return fp__dot_emit(g, path, err);
}
