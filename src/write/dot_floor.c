/* fabplan — the floor plans: floor.dot/.svg, the whole site on one 16:9 page (rack by rack
 * when every rack's label is readable there, else the halls as labelled blocks with their rows
 * as bars), and floor-by-hall/H<n>.svg, one hall rack by rack with its trays, aisles, row names
 * and busiest runs; see write_dot.c. */
#include <ctype.h>
#include "write/dot.h"

/* ------------------------------------------------------------------------------------------ */
/* The page and the readability rule. */

/* Every floor plan fits this page (points, 16:9) with no text under FLOOR_FONT_MIN points, so
 * fitted to a 1,280 x 720 px slide its smallest text is at least FLOOR_FONT_MIN px. */
#define FLOOR_PAGE_W 1280.0
#define FLOOR_PAGE_H 720.0
#define FLOOR_FONT_MIN 11.0
/* Width of a line of Helvetica text, estimated at 0.62 em a character (digits are 0.556 em,
 * capitals up to 0.722). */
#define FLOOR_EM_PER_CHAR 0.62
/* What the page holds beside the floor (points): the legends' column left of the floor (the run
 * table's left edge, 2.6 in plus half its widest row, "N more runs, up to M cables each"; the
 * role legend alone on the site plan) and the title (two lines of 20 pt) with the page's pad. */
#define FLOOR_LEFT_PT 313.0
#define FLOOR_SITE_LEFT_PT 173.0
#define FLOOR_TITLE_PT 68.0
#define RACK_W_M 0.6
#define RACK_D_M 1.2

static double text_pt(size_t chars, double font)
{
    return (double)chars * FLOOR_EM_PER_CHAR * font;
}

/* Closer than text_pt, for the box a label is drawn in rather than the room it may need: the
 * width of text in Debian's sans face (DejaVu Sans, wider than Helvetica and its metric twins),
 * by DejaVu Sans's advance widths in classes, each class at its widest member (em). */
static double text_width_pt(const char *text, double font)
{
    static const struct {
        const char *chars;
        double em;
    } cls[] = {
        { " ,.:;'", 0.318 }, { "ijl", 0.278 }, { "-f", 0.361 }, { "tr", 0.411 }, { "csz", 0.550 },
        { "kvxy", 0.592 },   { "w", 0.818 },   { "m", 0.974 },  { "MW", 0.989 },
    };
    double em = 0;
    for (const char *c = text; *c; c++) {
        double w = isupper((unsigned char)*c) ? 0.78 : 0.636; /* capitals; digits, a-z */
        for (size_t k = 0; k < sizeof cls / sizeof cls[0]; k++)
            if (strchr(cls[k].chars, *c)) {
                w = cls[k].em;
                break;
            }
        em += w;
    }
    return em * font;
}

/* The least points per metre at which a rack's label ("R01" over "K05" at FLOOR_FONT_MIN, 2 pt
 * of padding each side) fits inside its 0.6 x 1.2 m box. */
static double label_k(void)
{
    double wide = (text_pt(3, FLOOR_FONT_MIN) + 4.0) / RACK_W_M;
    double deep = (2 * 1.2 * FLOOR_FONT_MIN + 4.0) / RACK_D_M;
    return wide > deep ? wide : deep;
}

/* A row's name: 14 pt where the aisle in front of the row holds it, else the smallest size. */
static double row_font(double k)
{
    return RACK_D_M * k >= 14 * 1.3 ? 14 : FLOOR_FONT_MIN;
}

/* The scale bar below the floor, in points below the deepest rack's rear: the bar's top and
 * height, the gap to its label and the label's height. */
static double bar_gap(double k)
{
    return fmax(0.8 * k, 8.0);
}

static double bar_height(double k)
{
    return fmax(0.15 * k, 4.0);
}

static double bar_label_height(double k)
{
    return fmax(0.4 * k, 14.0);
}

/* The page's size at k points per metre for a floor of w_m x d_m metres (the rightmost rack's
 * right edge, the deepest rack's rear) with left_pt of legends beside it: left of the floor
 * the legends and the runs' cross aisle (1 m), right of it the other cross aisle (1 m); above
 * it the title and the first row's name (a hall's outline on the site plan), below it the scale
 * bar. */
static void page_size(double k, double w_m, double d_m, double left_pt, double *w, double *h)
{
    *w = left_pt + (w_m + 2.0) * k;
    *h = FLOOR_TITLE_PT + fmax(0.6 * k + FLOOR_FONT_MIN + 2, 0.25 * k + row_font(k) * 0.6 + 1) +
         d_m * k + bar_gap(k) +
         bar_height(k) + 2 + bar_label_height(k);
}

/* The most points per metre (at most FLOOR_PT_PER_M) at which that floor fits the page. */
static double fit_k(double w_m, double d_m, double left_pt)
{
    double lo = 0, hi = FLOOR_PT_PER_M, w, h;
    page_size(hi, w_m, d_m, left_pt, &w, &h);
    if (w <= FLOOR_PAGE_W && h <= FLOOR_PAGE_H)
        return hi;
    for (int i = 0; i < 40; i++) {
        double mid = (lo + hi) / 2;
        page_size(mid, w_m, d_m, left_pt, &w, &h);
        if (w <= FLOOR_PAGE_W && h <= FLOOR_PAGE_H)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* ------------------------------------------------------------------------------------------ */
/* What one drawing shows. */

/* A view of the floor: every hall (hall 0) or one, at k points per metre. (x0, y0) is the
 * view's origin on the floor, max_x the right edge of its rightmost rack and max_y the front of
 * its deepest one, from the origin (m). labels: each rack's row and position inside its box. */
typedef struct floor_view {
    int hall;
    double k;
    double x0, y0, max_x, max_y;
    int labels;
} floor_view;

/* The racks' halls and each hall's extent on the floor: hx0..hx1 (left edge to right edge) and
 * hy0..hy1 (the first rack's front to the deepest rack's front), hall h at index h - 1. */
typedef struct floor_halls {
    size_t n_racks;
    int halls;
    int *hall;                  /* [n_racks] */
    double *hx0, *hx1, *hy0, *hy1;
} floor_halls;

static void halls_free(floor_halls *fh)
{
    free(fh->hall);
    free(fh->hx0);
    memset(fh, 0, sizeof *fh);
}

static fp_status halls_read(const fp_plan *plan, floor_halls *fh, fp_error *err)
{
    memset(fh, 0, sizeof *fh);
    fh->n_racks = fp_plan_rack_count(plan);
    fh->hall = malloc((fh->n_racks + 1) * sizeof *fh->hall);
    if (fh->hall == NULL)
        FP_FAIL(err, FP_ENOMEM, "floor.svg", "out of memory for %zu racks", fh->n_racks);
    for (size_t i = 0; i < fh->n_racks; i++) {
        fp_rack_info r;
        fp_status rc = fp_plan_rack(plan, i, &r, err);
        if (rc != FP_OK) {
            halls_free(fh);
            return rc;
        }
        fh->hall[i] = r.hall;
        fh->halls = r.hall > fh->halls ? r.hall : fh->halls;
    }
    fh->hx0 = malloc(4 * ((size_t)fh->halls + 1) * sizeof *fh->hx0);
    if (fh->hx0 == NULL) {
        halls_free(fh);
        FP_FAIL(err, FP_ENOMEM, "floor.svg", "out of memory for %d halls", fh->halls);
    }
    fh->hx1 = fh->hx0 + fh->halls + 1;
    fh->hy0 = fh->hx1 + fh->halls + 1;
    fh->hy1 = fh->hy0 + fh->halls + 1;
    for (int h = 0; h < fh->halls; h++)
        fh->hx0[h] = fh->hy0[h] = 1e300, fh->hx1[h] = fh->hy1[h] = -1e300;
    for (size_t i = 0; i < fh->n_racks; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        int h = r.hall - 1;
        if (h < 0)
            continue;
        fh->hx0[h] = fmin(fh->hx0[h], r.x_m);
        fh->hx1[h] = fmax(fh->hx1[h], r.x_m + RACK_W_M);
        fh->hy0[h] = fmin(fh->hy0[h], r.y_m);
        fh->hy1[h] = fmax(fh->hy1[h], r.y_m);
    }
    return FP_OK;
}

/* The whole floor's view: from (0, 0) to the rightmost rack's right edge and the deepest
 * rack's front; k fits it onto the page with the legends and run table. */
static floor_view site_view(const floor_halls *fh)
{
    floor_view v = { 0, FLOOR_PT_PER_M, 0, 0, 0, 0, 0 };
    for (int h = 0; h < fh->halls; h++) {
        v.max_x = fmax(v.max_x, fh->hx1[h]);
        v.max_y = fmax(v.max_y, fh->hy1[h]);
    }
    v.k = fit_k(v.max_x, v.max_y + RACK_D_M, FLOOR_LEFT_PT);
    v.labels = v.k >= label_k();
    return v;
}

/* Hall h's view (1-based), from its first rack's corner. */
static floor_view hall_view(const floor_halls *fh, int h)
{
    floor_view v = { h, FLOOR_PT_PER_M, fh->hx0[h - 1], fh->hy0[h - 1], 0, 0, 0 };
    v.max_x = fh->hx1[h - 1] - v.x0;
    v.max_y = fh->hy1[h - 1] - v.y0;
    v.k = fit_k(v.max_x, v.max_y + RACK_D_M, FLOOR_LEFT_PT);
    v.labels = v.k >= label_k();
    return v;
}

/* floor.svg draws every rack when the whole floor fits the page at a scale where each rack's
 * label is readable (site_view's labels); else it draws the halls as blocks. */
static int site_by_rack(const floor_halls *fh)
{
    return fh->n_racks > 0 && site_view(fh).labels;
}

static int in_view(const floor_view *v, int hall)
{
    return v->hall == 0 || hall == v->hall;
}

/* A floor point (m) on the page (points, y growing up the page as a plan is read from the
 * front). */
static double page_x(const floor_view *v, double x)
{
    return (x - v->x0) * v->k;
}

static double page_y(const floor_view *v, double y)
{
    return (v->max_y + RACK_D_M - (y - v->y0)) * v->k;
}

/* ------------------------------------------------------------------------------------------ */
/* The busiest runs. */

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

/* The FLOOR_RUNS rack pairs of the view (both racks in it) with the most cables between them
 * (cables inside one rack are not runs). Fills runs[] and *n_runs, and tally with the count of
 * all runs. */
static fp_status busiest_runs(const fp_plan *plan, const floor_halls *fh, const floor_view *v,
                              run *runs, int *n_runs, run_tally *tally, fp_error *err)
{
    size_t n_racks = fh->n_racks, n_cables = fp_plan_cable_count(plan), n_pairs = 0;
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
        if (ra < 0 || !in_view(v, fh->hall[ra]))
            continue;
        for (int k = 0; k < n_z; k++) {
            int64_t rz = dev_rack[z[k]];
            int dup = 0;
            for (int s = 0; s < n_seen; s++)
                dup |= seen[s] == rz;
            /* Legs of one breakout that end in the same rack are one cable on the run. */
            if (rz < 0 || ra == rz || dup || !in_view(v, fh->hall[rz]))
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
                           int n_runs, const run_tally *tally, const floor_view *v, fp_error *err)
{
    char buf[4096], n1[32], n2[32];
    size_t k = 0, cap = sizeof buf;
    fp_rack_info a, b;
#define PUT(...) (k += k < cap ? (size_t)snprintf(buf + k, cap - k, __VA_ARGS__) : 0)
    PUT("<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"3\">"
        "<TR><TD COLSPAN=\"3\" BGCOLOR=\"#e8eef7\"><B>busiest runs (cables)</B></TD></TR>");
    for (int i = 0; i < n_runs; i++) {
        fp_plan_rack(plan, (size_t)runs[i].a, &a, NULL);
        fp_plan_rack(plan, (size_t)runs[i].b, &b, NULL);
        PUT("<TR><TD>%s</TD><TD>%s</TD><TD ALIGN=\"RIGHT\"><FONT COLOR=\"#1f4e9a\">%s</FONT></TD></TR>",
            a.name, b.name, fp__grouped_int(n1, sizeof n1, runs[i].cables));
    }
    if (tally->runs > n_runs)
        PUT("<TR><TD COLSPAN=\"3\">%s more runs, up to %s cables each</TD></TR>",
            fp__grouped_int(n1, sizeof n1, tally->runs - n_runs),
            fp__grouped_int(n2, sizeof n2, tally->rest_max));
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
    double top = (v->max_y + RACK_D_M) * v->k - 40.0 * (tiers + 1) - 12.0;
    fp__dot_pin(n, -2.6 * 72.0 - v->k, top - height / 2);
    return FP_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Shapes on the floor. */

/* A box of the page: x0..x1 and y0..y1 in points, pinned (the solver-free engine draws it
 * there). */
static Agnode_t *page_rect(Agraph_t *g, const char *name, double x0, double x1, double y0,
                           double y1)
{
    char val[64];
    Agnode_t *n = agnode(g, (char *)name, 1);
    fp__dot_pin(n, (x0 + x1) / 2, (y0 + y1) / 2);
    snprintf(val, sizeof val, "%.4f", (x1 - x0) / 72.0);
    set_attr(n, "width", val);
    snprintf(val, sizeof val, "%.4f", (y1 - y0) / 72.0);
    set_attr(n, "height", val);
    set_attr(n, "label", "");
    return n;
}

/* A rectangle of the floor drawn as a fixed-size node: x0..x1 and y0..y1 in floor metres
 * (y grows away from the front, as fp_rack_info's), placed on the view's page. */
static Agnode_t *floor_rect(Agraph_t *g, const char *name, double x0, double x1, double y0,
                            double y1, const floor_view *v)
{
    return page_rect(g, name, page_x(v, x0), page_x(v, x1), page_y(v, y1), page_y(v, y0));
}

/* The tier whose role a rack has (0: compute, and management racks). */
static int rack_tier(const fp_rack_info *r, int tiers)
{
    int tier = 0;
    for (int t = 1; t <= tiers; t++)
        if (strcmp(r->role, fp__tier_role(t)) == 0)
            tier = t;
    return tier;
}

/* The row's name in the aisle in front of it, from its first rack (x0, front y): two rows that
 * share a line of the floor (R01 and R02 side by side) read as two, each named where it
 * starts. The box is as wide as the name. */
static void row_name(Agraph_t *g, const char *row, double x0, double y, const floor_view *v)
{
    char name[64], val[32];
    double font = row_font(v->k), w_m = (text_pt(strlen(row), font) + 4.0) / v->k;
    snprintf(name, sizeof name, "floor-rowname-%s", row);
    Agnode_t *rn = floor_rect(g, name, x0, x0 + w_m, y - 0.45, y - 0.05, v);
    set_attr(rn, "label", row);
    set_attr(rn, "shape", "plaintext");
    set_attr(rn, "style", "solid");
    snprintf(val, sizeof val, "%g", font);
    set_attr(rn, "fontsize", val);
    set_attr(rn, "row", row);
}

/* Rows, their overhead trays and the aisles between them. A row's tray runs its length over the
 * racks' rear 0.3 m (clear of the rack labels), red when the tray is over-full; an aisle is the
 * floor between two rows of a hall, drawn dashed (and named when the racks are labelled). */
static fp_status floor_rows(Agraph_t *g, const fp_plan *plan, const floor_halls *fh,
                            const floor_view *v, fp_error *err)
{
    char name[64];
    double px0 = 0, px1 = 0, py = 0;
    int phall = -1;
    size_t tray = 0, n_racks = fh->n_racks;
    for (size_t i = 0; i < n_racks;) {
        fp_rack_info r, q;
        fp_status rc = fp_plan_rack(plan, i, &r, err);
        if (rc != FP_OK)
            return rc;
        double x0 = r.x_m, x1 = r.x_m + RACK_W_M;
        size_t j = i + 1;
        for (; j < n_racks && fp_plan_rack(plan, j, &q, NULL) == FP_OK && q.hall == r.hall &&
               q.row == r.row; j++) {
            x0 = q.x_m < x0 ? q.x_m : x0;
            x1 = q.x_m + RACK_W_M > x1 ? q.x_m + RACK_W_M : x1;
        }
        char row[16];
        snprintf(row, sizeof row, "H%d-R%02d", r.hall, r.row);
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
        if (!in_view(v, r.hall)) {
            i = j;
            continue;
        }
        snprintf(name, sizeof name, "floor-tray-%s", row);
        Agnode_t *t = floor_rect(g, name, x0, x1, r.y_m + 0.9, r.y_m + RACK_D_M, v);
        set_attr(t, "style", "filled");
        set_attr(t, "fillcolor", "#8080804d");
        set_attr(t, "color", "#606060");
        if (over) {
            set_attr(t, "fillcolor", "#d000004d");
            set_attr(t, "color", "#d00000");
        }
        if (r.hall == phall && r.y_m > py + RACK_D_M) {
            snprintf(name, sizeof name, "floor-aisle-%s", row);
            Agnode_t *a = floor_rect(g, name, x0 < px0 ? x0 : px0, x1 > px1 ? x1 : px1,
                                     py + RACK_D_M, r.y_m, v);
            set_attr(a, "style", "dashed");
            set_attr(a, "color", "#a0a0a0");
            if (v->labels) {
                set_attr(a, "label", "aisle");
                set_attr(a, "fontcolor", "#808080");
                set_attr(a, "fontsize", "11");
            }
        }
        row_name(g, row, x0, r.y_m, v);
        phall = r.hall;
        px0 = x0;
        px1 = x1;
        py = r.y_m;
        i = j;
    }
    return FP_OK;
}

/* A scale bar below the view's left end: alternate black and white segments, the bar about a
 * quarter of the view's width, and its length in metres below it. */
static void scale_bar(Agraph_t *g, const floor_view *v)
{
    static const double lengths[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500 };
    double len = 1, k = v->k, top = -bar_gap(k), bottom = top - bar_height(k);
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
        if (lengths[i] <= v->max_x / 4)
            len = lengths[i];
    int segs = 5;
    char name[64], val[64];
    for (int s = 0; s < segs; s++) {
        snprintf(name, sizeof name, "legend-scale-%d", s);
        Agnode_t *n = page_rect(g, name, len * k * s / segs, len * k * (s + 1) / segs, bottom, top);
        set_attr(n, "style", "filled");
        set_attr(n, "fillcolor", s % 2 ? "white" : "black");
        set_attr(n, "color", "black");
    }
    Agnode_t *n = page_rect(g, "legend-scale", 0, len * k, bottom - 2 - bar_label_height(k),
                            bottom - 2);
    snprintf(val, sizeof val, "%g m", len);
    set_attr(n, "label", val);
    set_attr(n, "shape", "plaintext");
    set_attr(n, "style", "solid");
    set_attr(n, "fontsize", "12");
    snprintf(val, sizeof val, "%g", len);
    set_attr(n, "metres", val);
}

/* A run's path along the trays: from rack a's tray along its row to the nearer end of the view
 * (a cross aisle 0.4 m past the last rack), along that end to rack b's row, and along b's tray
 * to b; a run within one line of rows stays on its tray. Each run is offset by 0.05 m from the
 * one before so runs sharing a tray stay apart. The polyline is written as the B-spline pos
 * Graphviz draws (each corner repeated), so nop2 draws it as given. */
static void run_path(Agedge_t *e, const fp_plan *plan, const run *rn, int k, const floor_view *v)
{
    fp_rack_info ra, rb;
    if (fp_plan_rack(plan, (size_t)rn->a, &ra, NULL) != FP_OK ||
        fp_plan_rack(plan, (size_t)rn->b, &rb, NULL) != FP_OK)
        return;
    double off = 0.05 * k, xa = ra.x_m + 0.3, xb = rb.x_m + 0.3;
    double ya = ra.y_m + 1.05 + off * 0.25, yb = rb.y_m + 1.05 + off * 0.25;
    double left = v->x0 - 0.4 - off, right = v->x0 + v->max_x + 0.4 + off;
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
                                    page_x(v, q[0]), page_y(v, q[1]));
        }
    }
    set_attr(e, "pos", buf);
}

/* The floor's graph, titled; NULL when out of memory. Positions are given, so no layout engine
 * moves anything: "nop2" is neato -n2, which takes node and edge pos (in points) as final and
 * only draws. Plain neato with pinned nodes drew the same picture but spent seconds in its
 * solver on 5,000 racks at full scale. */
static Agraph_t *floor_graph(const char *title)
{
    Agraph_t *g = fp__dot_new_graph("floor", "nop2", title);
    if (g == NULL)
        return NULL;
    set_attr(g, "notranslate", "true");
    set_attr(g, "splines", "line");
    set_attr(g, "outputorder", "edgesfirst");
    agattr(g, AGNODE, S("shape"), S("box"));
    agattr(g, AGNODE, S("fixedsize"), S("true"));
    agattr(g, AGNODE, S("fontsize"), S("11"));
    agattr(g, AGEDGE, S("fontsize"), S("12"));
    return g;
}

/* A box per rack of the view, filled in its role's colour, y growing up the page the way a
 * floor plan is read from the front; a rack over its power limit outlined in red. Its row and
 * position inside when the view labels racks (the SVG's title names it either way). */
static void rack_nodes(Agraph_t *g, const fp_plan *plan, int tiers, Agnode_t **node,
                       const floor_halls *fh, const floor_view *v)
{
    char label[256];
    for (size_t i = 0; i < fh->n_racks; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        if (!in_view(v, r.hall))
            continue;
        node[i] = agnode(g, r.name, 1);
        if (v->labels)
            snprintf(label, sizeof label, "R%02d\nK%02d", r.row, r.rack);
        else
            label[0] = '\0';
        set_attr(node[i], "label", label);
        set_attr(node[i], "fillcolor", fp__dot_role_fill(rack_tier(&r, tiers)));
        set_attr(node[i], "role", r.role);
        if (r.over_limit) {
            set_attr(node[i], "color", "#d00000");
            set_attr(node[i], "penwidth", v->labels ? "3" : "2");
        }
        /* nop reads pos in points (width and height stay in inches). */
        fp__dot_pin(node[i], page_x(v, r.x_m + RACK_W_M / 2), page_y(v, r.y_m + RACK_D_M / 2));
        /* Four decimals: to two, 0.67 in drew a 0.6 m rack 0.5 % wide of the scale bar. */
        snprintf(label, sizeof label, "%.4f", RACK_W_M * v->k / 72.0);
        set_attr(node[i], "width", label);
        snprintf(label, sizeof label, "%.4f", RACK_D_M * v->k / 72.0);
        set_attr(node[i], "height", label);
    }
}

/* A line per busiest run, as thick as its count relative to the busiest. */
static void run_edges(Agraph_t *g, const fp_plan *plan, Agnode_t **node, const run *runs,
                      int n_runs, const floor_view *v)
{
    char label[256];
    for (int i = 0; i < n_runs; i++) {
        Agedge_t *e = agedge(g, node[runs[i].a], node[runs[i].b], NULL, 1);
        snprintf(label, sizeof label, "%lld", (long long)runs[i].cables);
        /* The counts are in the run table, not on the lines: runs fan out of one leaf rack and
         * into a few spine racks, so labels at either end or the middle piled up there. */
        set_attr(e, "cables", label);
        /* Thickness grows with the count relative to the busiest run, and with the scale (at
         * least 1.5 pt, so a run stays visible on a hall of 15 pt per metre). */
        double scale = v->k / FLOOR_PT_PER_M;
        snprintf(label, sizeof label, "%.1f",
                 fmax(1.5, (1.5 + 6.0 * (double)runs[i].cables / (double)runs[0].cables) * scale));
        set_attr(e, "penwidth", label);
        set_attr(e, "color", "#1f4e9acc");
        run_path(e, plan, &runs[i], i, v);
    }
}

/* Legend: one box per role, pinned left of the floor. */
static void role_legend(Agraph_t *g, int tiers, const floor_view *v)
{
    char name[64];
    for (int t = 0; t <= tiers; t++) {
        snprintf(name, sizeof name, "legend-%s", t == 0 ? "compute" : fp__tier_role(t));
        Agnode_t *n = agnode(g, name, 1);
        set_attr(n, "label", t == 0 ? "compute" : fp__tier_role(t));
        set_attr(n, "fillcolor", fp__dot_role_fill(t));
        set_attr(n, "fontsize", "12");
        set_attr(n, "width", "1.2");
        set_attr(n, "height", "0.4");
        fp__dot_pin(n, -1.7 * 72.0 - v->k, (v->max_y + RACK_D_M) * v->k - 40.0 * t);
    }
}

/* Every rack of the view: racks, rows, trays, aisles, the scale, the busiest runs and their
 * table, the role legend. */
static fp_status draw_racks(Agraph_t *g, const fp_plan *plan, const fp_shape *sh,
                            const floor_halls *fh, const floor_view *v, fp_error *err)
{
    run runs[FLOOR_RUNS];
    run_tally tally = { 0, 0 };
    int n_runs = 0;
    fp_status rc = FP_OK;
    Agnode_t **node = calloc(fh->n_racks + 1, sizeof *node);
    if (node == NULL)
        FP_FAIL(err, FP_ENOMEM, "floor.svg", "out of memory for %zu racks", fh->n_racks);
    rack_nodes(g, plan, sh->tiers, node, fh, v);
    if ((rc = floor_rows(g, plan, fh, v, err)) != FP_OK)
        goto out;
    if (fh->n_racks > 0)
        scale_bar(g, v);
    if (fh->n_racks > 0 &&
        (rc = busiest_runs(plan, fh, v, runs, &n_runs, &tally, err)) != FP_OK)
        goto out;
    run_edges(g, plan, node, runs, n_runs, v);
    role_legend(g, sh->tiers, v);
    if (n_runs > 0)
        rc = run_table(g, plan, sh->tiers, runs, n_runs, &tally, v, err);
out:
    free(node);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* The site: halls as blocks, rows as bars. */

/* One hall's figures for its block's label. */
typedef struct hall_sum {
    int rows;
    int64_t racks, gpus, spares, switches[FP_MAX_TIERS + 1];
    double power_w;
} hall_sum;

static fp_status hall_sums(const fp_plan *plan, const fp_shape *sh, const floor_halls *fh,
                           hall_sum *hs, fp_error *err)
{
    const int32_t *dev_rack = fp__plan_device_racks(plan);
    int prow = -1, phall = -1;
    memset(hs, 0, (size_t)fh->halls * sizeof *hs);
    for (size_t i = 0; i < fh->n_racks; i++) {
        fp_rack_info r;
        fp_status rc = fp_plan_rack(plan, i, &r, err);
        if (rc != FP_OK)
            return rc;
        hall_sum *h = &hs[r.hall - 1];
        h->racks++;
        h->power_w += r.power_w;
        h->rows += r.hall != phall || r.row != prow;
        phall = r.hall;
        prow = r.row;
    }
    /* The production servers hold the plan's GPUs (the last one fewer when they do not divide);
     * the hot spares are the servers after them (docs/layout.md, "Fill order"). */
    int64_t gps = sh->gpus_per_server > 0 ? sh->gpus_per_server : 1;
    int64_t production = (sh->gpus + gps - 1) / gps;
    for (int t = 0; t <= sh->tiers && dev_rack != NULL; t++)
        for (int64_t d = sh->tier_base[t]; d < fp__shape_tier_end(sh, t); d++) {
            int32_t rk = dev_rack[d];
            if (rk < 0 || (size_t)rk >= fh->n_racks)
                continue;
            hall_sum *h = &hs[fh->hall[rk] - 1];
            int64_t server = d - sh->tier_base[0];
            if (t > 0)
                h->switches[t]++;
            else if (server < production)
                h->gpus += server + 1 < production ? gps : sh->gpus - (production - 1) * gps;
            else
                h->spares++;
        }
    return FP_OK;
}

/* Each row as a bar: one box per run of neighbouring racks of one role, in its colour; the
 * row's name in front of it where the aisle holds the smallest text. */
static void row_bars(Agraph_t *g, const fp_plan *plan, int tiers, const floor_halls *fh,
                     const floor_view *v)
{
    char name[64];
    size_t bars = 0;
    int names = RACK_D_M * v->k >= FLOOR_FONT_MIN * 1.3, phall = -1, prow = -1;
    for (size_t i = 0; i < fh->n_racks;) {
        fp_rack_info r, q;
        fp_plan_rack(plan, i, &r, NULL);
        if (names && (r.hall != phall || r.row != prow)) {
            snprintf(name, sizeof name, "H%d-R%02d", r.hall, r.row);
            row_name(g, name, r.x_m, r.y_m, v);
        }
        phall = r.hall;
        prow = r.row;
        int tier = rack_tier(&r, tiers);
        double x1 = r.x_m + RACK_W_M;
        size_t j = i + 1;
        for (; j < fh->n_racks && fp_plan_rack(plan, j, &q, NULL) == FP_OK && q.hall == r.hall &&
               q.row == r.row && rack_tier(&q, tiers) == tier && fabs(q.x_m - x1) < 0.5; j++)
            x1 = q.x_m + RACK_W_M;
        snprintf(name, sizeof name, "floor-bar-%zu", ++bars);
        Agnode_t *n = floor_rect(g, name, r.x_m, x1, r.y_m, r.y_m + RACK_D_M, v);
        set_attr(n, "style", "filled");
        set_attr(n, "fillcolor", fp__dot_role_fill(tier));
        set_attr(n, "color", "#606060");
        set_attr(n, "penwidth", "0.5");
        snprintf(name, sizeof name, "H%d-R%02d", r.hall, r.row);
        set_attr(n, "row", name);
        i = j;
    }
}

/* "22.4 MW" / "850 kW". */
static void power_text(char *buf, size_t n, double w)
{
    if (w >= 1e6)
        snprintf(buf, n, "%.1f MW", w / 1e6);
    else
        snprintf(buf, n, "%.0f kW", w / 1e3);
}

/* How far (pt) hall h's label may reach past each side of its block (0.6 m around its racks):
 * half the gap to the next hall beside it (blocks whose depths overlap), or, with none on that
 * side, to the legends' column on the left and to the page's right edge (the page stays within
 * FLOOR_PAGE_W: the site plan's width at this scale is page_size's). The smaller side's. */
static double label_room(const floor_halls *fh, int h, const floor_view *v)
{
    double w, ht, k = v->k, left = -1, right = -1;
    double x0 = fh->hx0[h - 1] - 0.6, x1 = fh->hx1[h - 1] + 0.6;
    for (int j = 1; j <= fh->halls; j++) {
        if (j == h || fh->hy1[j - 1] + RACK_D_M < fh->hy0[h - 1] ||
            fh->hy0[j - 1] > fh->hy1[h - 1] + RACK_D_M)
            continue;
        double gl = x0 - (fh->hx1[j - 1] + 0.6), gr = fh->hx0[j - 1] - 0.6 - x1;
        if (gl >= 0 && (left < 0 || gl < left))
            left = gl;
        if (gr >= 0 && (right < 0 || gr < right))
            right = gr;
    }
    page_size(k, v->max_x, v->max_y + RACK_D_M, FLOOR_SITE_LEFT_PT, &w, &ht);
    /* the role legend's right edge is 79 pt and 1 m left of the floor's (role_legend) */
    double room_l = left >= 0 ? left / 2 * k : (x0 - v->x0 + 1.0) * k + 79 - 6;
    double room_r = right >= 0 ? right / 2 * k
                               : (v->x0 + v->max_x - x1 + 1.0) * k + (FLOOR_PAGE_W - w) - 6;
    return fmax(0, fmin(room_l, room_r) - 4);
}

/* A box of the page (points) and what hiding it under a label costs. */
typedef struct page_box {
    double x0, x1, y0, y1;
    double weight;
} page_box;

/* A switch rack or a row's name costs this many times a compute rack's area: the site plan is
 * where one finds the spine and core rows and reads which row is which. */
#define SPOT_SWITCH 4.0

/* Hall h's racks and (where row_bars draws them) row names as boxes of the page into out
 * (room for 2 per rack), their count. */
static size_t hall_boxes(const fp_plan *plan, const floor_halls *fh, int h, const floor_view *v,
                         int tiers, page_box *out)
{
    size_t n = 0;
    int names = RACK_D_M * v->k >= FLOOR_FONT_MIN * 1.3, prow = -1;
    double font = row_font(v->k);
    for (size_t i = 0; i < fh->n_racks; i++) {
        fp_rack_info r;
        if (fh->hall[i] != h || fp_plan_rack(plan, i, &r, NULL) != FP_OK)
            continue;
        out[n++] =
            (page_box){ page_x(v, r.x_m), page_x(v, r.x_m + RACK_W_M), page_y(v, r.y_m + RACK_D_M),
                        page_y(v, r.y_m), rack_tier(&r, tiers) > 0 ? SPOT_SWITCH : 1 };
        if (names && r.row != prow) {
            char name[32];
            double y = page_y(v, r.y_m - 0.25); /* row_name's box, the text's height */
            snprintf(name, sizeof name, "H%d-R%02d", r.hall, r.row);
            out[n++] =
                (page_box){ page_x(v, r.x_m), page_x(v, r.x_m) + text_pt(strlen(name), font) + 4,
                            y - 0.6 * font, y + 0.6 * font, SPOT_SWITCH };
        }
        prow = r.row;
    }
    return n;
}

#define SPOT_CELL 2.0 /* pt: the grid label_spot weighs places on */

/* The cost in cells i..i+w-1, j..j+h-1 of a summed-area table with rows of stride entries. */
static double area_sum(const double *sat, size_t stride, int i, int j, int w, int h)
{
    size_t i0 = (size_t)i, i1 = (size_t)(i + w), j0 = (size_t)j * stride,
           j1 = (size_t)(j + h) * stride;
    return sat[j1 + i1] - sat[j0 + i1] - sat[j1 + i0] + sat[j0 + i0];
}

/* Where hall h's label (lw x lh pt) goes, its centre into (cx, cy): the place inside region
 * (page pt: the block, or with the room beside it) whose box hides the least of the hall's
 * racks and row names (hall_boxes), its centre inside the block (bx0..bx1) so it reads as the
 * block's, and of equals the nearest the block's centre. The middle of a hall is often its
 * spine and core rows, which a label there hid. Coverage is counted on SPOT_CELL-pt cells
 * with a summed-area table, so each place costs the same whatever the racks. Falls back to
 * the block's centre when the box has no room or memory runs out. */
static void label_spot(const fp_plan *plan, const floor_halls *fh, int h, const floor_view *v,
                       int tiers, const page_box *region, double bx0, double bx1, double lw,
                       double lh, double *cx, double *cy)
{
    *cx = (bx0 + bx1) / 2;
    *cy = (region->y0 + region->y1) / 2;
    int nx = (int)ceil((region->x1 - region->x0) / SPOT_CELL),
        ny = (int)ceil((region->y1 - region->y0) / SPOT_CELL);
    int cw = (int)ceil(lw / SPOT_CELL), ch = (int)ceil(lh / SPOT_CELL);
    if (nx < cw || ny < ch || nx <= 0 || ny <= 0)
        return;
    size_t stride = (size_t)nx + 1, racks = 0;
    for (size_t i = 0; i < fh->n_racks; i++)
        racks += fh->hall[i] == h;
    double *sat = calloc(stride * ((size_t)ny + 1), sizeof *sat);
    page_box *box = malloc((2 * racks + 1) * sizeof *box);
    if (sat == NULL || box == NULL) {
        free(sat);
        free(box);
        return;
    }
    /* a cell costs the most of the boxes its centre lies in; the table's first row and
     * column stay 0 */
    size_t n = hall_boxes(plan, fh, h, v, tiers, box);
    for (size_t b = 0; b < n; b++) {
        int i0 = (int)ceil((box[b].x0 - region->x0) / SPOT_CELL - 0.5),
            i1 = (int)floor((box[b].x1 - region->x0) / SPOT_CELL - 0.5),
            j0 = (int)ceil((box[b].y0 - region->y0) / SPOT_CELL - 0.5),
            j1 = (int)floor((box[b].y1 - region->y0) / SPOT_CELL - 0.5);
        for (int j = j0 < 0 ? 0 : j0; j <= j1 && j < ny; j++)
            for (int i = i0 < 0 ? 0 : i0; i <= i1 && i < nx; i++) {
                double *c = &sat[(size_t)(j + 1) * stride + (size_t)i + 1];
                *c = fmax(*c, box[b].weight);
            }
    }
    for (size_t j = 1; j <= (size_t)ny; j++)
        for (size_t i = 1; i <= (size_t)nx; i++)
            sat[j * stride + i] +=
                sat[(j - 1) * stride + i] + sat[j * stride + i - 1] - sat[(j - 1) * stride + i - 1];
    /* the costs are sums of small integers, exact in a double, so equal places compare equal */
    double best = -1, best_d = 0, mx = *cx, my = *cy;
    for (int j = 0; j + ch <= ny; j++)
        for (int i = 0; i + cw <= nx; i++) {
            double x = region->x0 + (i + cw / 2.0) * SPOT_CELL,
                   y = region->y0 + (j + ch / 2.0) * SPOT_CELL;
            if (x < bx0 || x > bx1)
                continue;
            double cover = area_sum(sat, stride, i, j, cw, ch),
                   d = (x - mx) * (x - mx) + (y - my) * (y - my);
            if (best < 0 || cover < best || (cover == best && d < best_d)) {
                best = cover;
                best_d = d;
                *cx = x;
                *cy = y;
            }
        }
    free(sat);
    free(box);
}

/* Hall h's block: its outline, and a label with its name, GPUs, rows and racks, switches per
 * tier and power, as many of those lines as fit (the name always): within the block's depth,
 * and its width and label_room each side, where it hides the fewest racks (label_spot). */
static void hall_block(Agraph_t *g, const fp_plan *plan, const fp_shape *sh, const floor_halls *fh,
                       const hall_sum *s, int h, const floor_view *v)
{
    char name[64], lines[FP_MAX_TIERS + 6][96], a[32], b[32], html[2048];
    double x0 = fh->hx0[h - 1] - 0.6, x1 = fh->hx1[h - 1] + 0.6;
    /* 0.6 m around the racks, and room for the first row's name above them */
    double names = RACK_D_M * v->k >= FLOOR_FONT_MIN * 1.3 ? (FLOOR_FONT_MIN + 2) / v->k : 0;
    double y0 = fh->hy0[h - 1] - 0.6 - names, y1 = fh->hy1[h - 1] + RACK_D_M + 0.6;
    snprintf(name, sizeof name, "floor-hall-H%d", h);
    Agnode_t *n = floor_rect(g, name, x0, x1, y0, y1, v);
    set_attr(n, "style", "dashed");
    set_attr(n, "color", "#707070");
    snprintf(a, sizeof a, "H%d", h);
    set_attr(n, "hall", a);
    int k = 0;
    snprintf(lines[k++], sizeof lines[0], "%s GPUs", fp__grouped_int(a, sizeof a, s->gpus));
    if (s->spares > 0)
        snprintf(lines[k++], sizeof lines[0], "%s hot-spare server%s",
                 fp__grouped_int(a, sizeof a, s->spares), s->spares == 1 ? "" : "s");
    snprintf(lines[k++], sizeof lines[0], "%d rows, %s racks", s->rows,
             fp__grouped_int(b, sizeof b, s->racks));
    for (int t = 1; t <= sh->tiers; t++)
        if (s->switches[t] > 0)
            snprintf(lines[k++], sizeof lines[0], "%s %s",
                     fp__grouped_int(a, sizeof a, s->switches[t]), fp__dot_role_plural(t));
    power_text(a, sizeof a, s->power_w);
    snprintf(lines[k++], sizeof lines[0], "%s", a);
    /* Lines that fit: the block less 6 pt of padding, at FLOOR_FONT_MIN + 1 with a 16-pt name. */
    double font = FLOOR_FONT_MIN + 1, h_pt = (y1 - y0) * v->k - 6, room = label_room(fh, h, v);
    double w_pt = (x1 - x0) * v->k - 6 + 2 * room;
    int fit = k;
    for (; fit > 0; fit--) {
        double w = text_pt(4, 16), ht = 16 * 1.25 + 6;
        for (int i = 0; i < fit; i++) {
            w = fmax(w, text_pt(strlen(lines[i]), font));
            ht += font * 1.25;
        }
        if (w + 6 <= w_pt && ht <= h_pt)
            break;
    }
    /* The label's box, drawn as the node (the table has no fill): its size is ours, so the
     * place label_spot weighs is the place it covers. The name in bold 16 pt, each line a row
     * of font-size text. */
    snprintf(a, sizeof a, "H%d", h);
    double lw = text_width_pt(a, 16 * 1.1), lh = 16 * 1.25 + fit * font * 1.25 + 2;
    for (int i = 0; i < fit; i++)
        lw = fmax(lw, text_width_pt(lines[i], font));
    lw += 4;
    size_t len = (size_t)snprintf(html, sizeof html,
                                  "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" "
                                  "CELLPADDING=\"1\"><TR><TD><FONT POINT-SIZE=\"16\"><B>H%d</B>"
                                  "</FONT></TD></TR>",
                                  h);
    for (int i = 0; i < fit && len < sizeof html; i++)
        len += (size_t)snprintf(html + len, sizeof html - len, "<TR><TD>%s</TD></TR>", lines[i]);
    if (len < sizeof html)
        snprintf(html + len, sizeof html - len, "</TABLE>");
    snprintf(name, sizeof name, "floor-hall-label-H%d", h);
    Agnode_t *l = fp__dot_table_node(g, name, html);
    set_attr(l, "shape", "box");
    set_attr(l, "style", "filled");
    set_attr(l, "fillcolor", "#ffffffd9");
    set_attr(l, "color", "#ffffff00");
    set_attr(l, "fixedsize", "true");
    snprintf(a, sizeof a, "%.4f", lw / 72.0);
    set_attr(l, "width", a);
    snprintf(a, sizeof a, "%.4f", lh / 72.0);
    set_attr(l, "height", a);
    snprintf(a, sizeof a, "%g", font);
    set_attr(l, "fontsize", a);
    /* inside the block when the label fits there, else reaching into the room beside it */
    double reach = lw <= (x1 - x0) * v->k - 6 ? 0 : room;
    page_box region = { page_x(v, x0) + 3 - reach, page_x(v, x1) - 3 + reach, page_y(v, y1) + 3,
                        page_y(v, y0) - 3, 0 };
    double cx, cy;
    label_spot(plan, fh, h, v, sh->tiers, &region, page_x(v, x0), page_x(v, x1), lw, lh, &cx, &cy);
    fp__dot_pin(l, cx, cy);
}

static fp_status draw_site(Agraph_t *g, const fp_plan *plan, const fp_shape *sh,
                           const floor_halls *fh, const floor_view *v, fp_error *err)
{
    hall_sum *hs = calloc((size_t)fh->halls + 1, sizeof *hs);
    if (hs == NULL)
        FP_FAIL(err, FP_ENOMEM, "floor.svg", "out of memory for %d halls", fh->halls);
    fp_status rc = hall_sums(plan, sh, fh, hs, err);
    if (rc == FP_OK) {
        row_bars(g, plan, sh->tiers, fh, v);
        for (int h = 1; h <= fh->halls; h++)
            hall_block(g, plan, sh, fh, &hs[h - 1], h, v);
        scale_bar(g, v);
        role_legend(g, sh->tiers, v);
    }
    free(hs);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* The files. */

/* Draw view v (every rack, or the site's blocks) into a graph titled title and write it to
 * path; frees fh. */
static fp_status floor_emit(const fp_plan *plan, const fp_shape *sh, floor_halls *fh,
                            const floor_view *v, int by_rack, const char *title,
                            const char *path, fp_error *err)
{
    Agraph_t *g = floor_graph(title);
    fp_status rc;
    if (g == NULL)
        rc = fp__error_set(err, FP_ENOMEM, path, "Graphviz: cannot create a graph");
    else
        rc = by_rack ? draw_racks(g, plan, sh, fh, v, err) : draw_site(g, plan, sh, fh, v, err);
    halls_free(fh);
    if (rc != FP_OK) {
        if (g != NULL)
            agclose(g);
        return rc;
    }
    return fp__dot_emit(g, path, err);
}

/* floor.svg (hall 0) or hall's own plan (1-based). */
static fp_status write_view(const fp_plan *plan, int hall, const char *path, fp_error *err)
{
    fp_shape sh;
    floor_halls fh;
    char title[512], count[32];
    fp__plan_shape(plan, &sh);
    fp_status rc = halls_read(plan, &fh, err);
    if (rc != FP_OK)
        return rc;
    if (hall < 0 || hall > fh.halls) {
        halls_free(&fh);
        FP_FAIL(err, FP_EINVAL, path, "the plan has no hall %d (%d halls)", hall, fh.halls);
    }
    const char *name = sh.name[0] ? sh.name : "fabric";
    floor_view v = site_view(&fh);
    int by_rack = site_by_rack(&fh) || fh.n_racks == 0;
    if (hall > 0) {
        int racks = 0, rows = 0, prow = -1;
        for (size_t i = 0; i < fh.n_racks; i++) {
            fp_rack_info r;
            fp_plan_rack(plan, i, &r, NULL);
            if (r.hall == hall) {
                racks++;
                rows += r.row != prow;
                prow = r.row;
            }
        }
        snprintf(title, sizeof title, "%s — hall H%d of %d: %s racks in %d rows; lines: the "
                 "busiest runs in the hall, listed on the left\n ", name, hall, fh.halls,
                 fp__grouped_int(count, sizeof count, racks), rows);
        v = hall_view(&fh, hall);
        by_rack = 1;
    } else if (by_rack) {
        snprintf(title, sizeof title, "%s — floor plan, %s racks%s\n ", name,
                 fp__grouped_int(count, sizeof count, (int64_t)fh.n_racks),
                 fh.n_racks ? "; lines: the busiest rack-to-rack runs, listed on the left" :
                              ": this build places no racks (no layout)");
    } else {
        /* Blocks and bars: the page leaves out the run table. */
        v.k = fit_k(v.max_x, v.max_y + RACK_D_M, FLOOR_SITE_LEFT_PT);
        v.labels = 0;
        snprintf(title, sizeof title, "%s — site plan, %s racks in %d hall%s; each hall rack by "
                 "rack in floor-by-hall/\n ", name, fp__grouped_int(count, sizeof count,
                 (int64_t)fh.n_racks), fh.halls, fh.halls == 1 ? "" : "s");
    }
    return floor_emit(plan, &sh, &fh, &v, by_rack, title, path, err);
}

fp_status fp__write_floor(const fp_plan *plan, const char *path, const fp_write_options *o,
                          fp_error *err)
{
    (void)o;
    return write_view(plan, 0, path, err);
}

int fp__floor_by_rack(const fp_plan *plan)
{
    floor_halls fh;
    if (halls_read(plan, &fh, NULL) != FP_OK)
        return 1;
    int by_rack = site_by_rack(&fh) || fh.n_racks == 0;
    halls_free(&fh);
    return by_rack;
}

int fp__floor_hall_count(const fp_plan *plan)
{
    int halls = 0;
    for (size_t i = 0, n = fp_plan_rack_count(plan); i < n; i++) {
        fp_rack_info r;
        if (fp_plan_rack(plan, i, &r, NULL) == FP_OK && r.hall > halls)
            halls = r.hall;
    }
    return halls;
}

int fp__floor_hall_file_name(const fp_plan *plan, int k, const char *ext, char *buf, size_t n)
{
    floor_halls fh;
    if (halls_read(plan, &fh, NULL) != FP_OK)
        return 0;
    int write = k >= 0 && k < fh.halls && (fh.halls > 1 || !site_by_rack(&fh));
    halls_free(&fh);
    if (write)
        snprintf(buf, n, "H%d.%s", k + 1, ext);
    return write;
}

fp_status fp__write_floor_hall(const fp_plan *plan, int k, const char *path,
                               const fp_write_options *o, fp_error *err)
{
    (void)o;
    if (k < 0)
        FP_FAIL(err, FP_EINVAL, path, "the plan has no hall %d", k + 1);
    return write_view(plan, k + 1, path, err);
}
