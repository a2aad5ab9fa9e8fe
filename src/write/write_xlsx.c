/* fabplan — the installer workbook (plan.xlsx): the book, its sheets and the entry points; the
 * sheets themselves are written by xlsx_*.c (see xlsx.h).
 *
 * Sheets: Summary, BOM, Cables (continued on "Cables (2)"... past Excel's row limit), Ports,
 * Racks, Pull list. The workbook is written in constant-memory mode: a 4-tier plan has half a
 * million cables and a million switch ports, and constant memory keeps the writer at a few MB
 * (rows go to per-sheet temp files; every sheet must be written in ascending row order, and
 * worksheet tables are not available, hence autofilter + formatted header). */
#include <errno.h>
#include <sys/stat.h>
#include "xlsx.h"

/* A fixed creation date (2000-01-01T00:00:00Z) instead of the clock: same plan, same bytes. */
#define FIXED_CREATED ((time_t)946684800)

<<<<<<< HEAD
enum { K_TEXT, K_INT, K_LEN, K_KINDS };     /* cell kinds that get a per-medium colour */

/* Light fills per medium, close to the jackets crews see: grey copper, aqua OM4, yellow OS2. */
static const lxw_color_t medium_fill[FP_MEDIUM_COUNT] = { 0xEDEDED, 0xE2EFDA, 0xFCE4D6,
                                                          0xDAEEF3, 0xFFF2CC };

typedef struct column {
    const char *title;
    double width;
} column;

/* Which part of the plan a workbook covers: everything, one hall, or one row of a hall. */
typedef struct scope {
    int hall, row;          /* 0 = any */
} scope;

typedef struct pull {
    int32_t ra, rz;         /* racks, ra <= rz */
    int16_t medium, part;   /* part: index into the interned part names */
    float stock_m, route_m;
    int64_t cable;
} pull;

#define MAX_PARTS 256

typedef struct book {
    lxw_workbook *wb;
    const fp_plan *plan;
    const fp_write_options *o;
    const char *path;
    int64_t max_rows;       /* data rows per sheet before it continues on "Name (2)" */
    scope sc;
    lxw_error lerr;         /* first libxlsxwriter error */
    fp_status rc;           /* first fabplan error (err filled) */
    fp_error *err;
    lxw_format *header, *section, *title, *bold, *text, *integer, *len, *money, *ratio, *watts;
    lxw_format *left_int, *center, *indent, *wrap, *percent, *rate, *hours;
    lxw_format *sub_text, *sub_int, *sub_money, *sub_watts;
    lxw_format *tot_text, *tot_int, *tot_money, *tot_watts;
    lxw_format *spare_text, *warn;
    lxw_format *medium[FP_MEDIUM_COUNT][K_KINDS];
    /* Filled while the data sheets are written, shown on the Summary. */
    int64_t cables, cables_by_medium[FP_MEDIUM_COUNT], racks, switches, ports_spare;
    int bom_total_row;      /* 1-based row of the BOM total (0 = none) */
    /* Gathered in the one pass over the cables (fp_plan_cable fills a large struct; the Ports
     * sheet and the Pull list reuse what it gave instead of asking again). */
    char (*cable_id)[16];   /* every cable's id, by index */
    /* Split workbooks (fp__write_xlsx_split): the cables with an end in this book's scope,
     * ascending, the ids of all cables and every device's hall and row, worked out once for
     * all books so a book costs its own cables, not the plan's (NULL for plan.xlsx). */
    const struct split_index *split;
    pull *pulls;            /* cables in scope whose both racks are known */
    size_t n_pulls;
    char parts[MAX_PARTS][48];
    int n_parts;
    const struct rack_index *rack_idx;
} book;

/* A sheet that continues on "Name (2)", "Name (3)"... when it reaches max_rows data rows. */
typedef struct sheet {
    book *b;
    const char *base;
    const column *cols;
    int ncols;
    int print_cols;         /* columns on paper, from A (0 = all) */
    lxw_worksheet *ws;
    int part;
    lxw_row_t row;          /* last row written (0 = the header) */
} sheet;

/* ---- cells: remember the first error instead of checking every call ---- */

static void keep(book *b, lxw_error e)
{
    if (e != LXW_NO_ERROR && b->lerr == LXW_NO_ERROR)
        b->lerr = e;
}

static void put_s(book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const char *s,
                  lxw_format *f)
{
    if (s == NULL || s[0] == '\0') {
        if (f)
            keep(b, worksheet_write_blank(ws, r, c, f));
        return;
    }
    keep(b, worksheet_write_string(ws, r, c, s, f));
}

/* NaN or infinity would be written as a corrupt cell: leave the cell blank instead. */
static void put_n(book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v, lxw_format *f)
{
    if (!isfinite(v)) {
        if (f)
            keep(b, worksheet_write_blank(ws, r, c, f));
        return;
    }
    keep(b, worksheet_write_number(ws, r, c, v, f));
}

/* A formula with its value already computed, so readers that do not recalculate show it too. */
static void put_f(book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const char *formula,
                  double v, lxw_format *f)
{
    keep(b, worksheet_write_formula_num(ws, r, c, formula, f, isfinite(v) ? v : 0));
}

=======
>>>>>>> main
/* ---- sheets ---- */

lxw_worksheet *fp_xlsx__add_sheet(book *b, const char *name)
{
    lxw_worksheet *ws = workbook_add_worksheet(b->wb, name);
    if (ws == NULL && b->lerr == LXW_NO_ERROR)
        b->lerr = LXW_ERROR_MEMORY_MALLOC_FAILED;
    return ws;
}

/* How every sheet prints: the chosen paper, narrow side margins (the data is wide), the plan and
 * sheet named in the header, "page X of Y" in the footer, one page wide. Rows repeat with
 * worksheet_repeat_rows where a sheet has a header row. */
void fp_xlsx__page_setup(book *b, lxw_worksheet *ws, int landscape)
{
    char head[300], name[2 * sizeof fp__plan_rspec(b->plan)->name];
    const char *from = plan_name(b->plan);
    size_t k = 0;
    /* '&' starts a code in a header: a literal one is written twice */
    for (; *from && k + 2 < sizeof name; from++) {
        if (*from == '&')
            name[k++] = '&';
        name[k++] = *from;
    }
    name[k] = '\0';
    if (landscape)
        worksheet_set_landscape(ws);
    else
        worksheet_set_portrait(ws);
    worksheet_set_paper(ws, b->paper == FP_PAPER_LETTER ? 1 : 9);
    worksheet_set_margins(ws, 0.3, 0.3, 0.6, 0.6);
    lxw_header_footer_options hf = { .margin = 0.25 };
    snprintf(head, sizeof head, "&L&\"-,Bold\"%.200s: fabric plan&R&A", name);
    keep(b, worksheet_set_header_opt(ws, head, &hf));
    keep(b, worksheet_set_footer_opt(ws, "&Lfabplan " FP_VERSION "&Cpage &P of &N", &hf));
    worksheet_fit_to_pages(ws, 1, 0);
}

static void sheet_close(sheet *s)
{
    if (s->ws == NULL)
        return;
    keep(s->b, worksheet_autofilter(s->ws, 0, 0, s->row, (lxw_col_t)(s->ncols - 1)));
    if (s->print_cols > 0)
        keep(s->b, worksheet_print_area(s->ws, 0, 0, s->row, (lxw_col_t)(s->print_cols - 1)));
}

static int sheet_open(sheet *s)
{
    char name[32];
    book *b = s->b;
    sheet_close(s);
    s->part++;
    if (s->part == 1)
        snprintf(name, sizeof name, "%s", s->base);
    else
        snprintf(name, sizeof name, "%s (%d)", s->base, s->part);
    if ((s->ws = fp_xlsx__add_sheet(b, name)) == NULL)
        return -1;
    /* Two lines for the wrapped titles: libxlsxwriter does not grow rows to fit. */
    keep(b, worksheet_set_row(s->ws, 0, 30, NULL));
    for (int c = 0; c < s->ncols; c++) {
        keep(b, worksheet_set_column(s->ws, (lxw_col_t)c, (lxw_col_t)c, s->cols[c].width, NULL));
        put_s(b, s->ws, 0, (lxw_col_t)c, s->cols[c].title, b->header);
    }
    worksheet_freeze_panes(s->ws, 1, 0);
    worksheet_repeat_rows(s->ws, 0, 0);
    fp_xlsx__page_setup(b, s->ws, 1);
    s->row = 0;
    return 0;
}

void fp_xlsx__sheet_init(sheet *s, book *b, const char *base, const column *cols, int ncols)
{
    memset(s, 0, sizeof *s);
    s->b = b;
    s->base = base;
    s->cols = cols;
    s->ncols = ncols;
}

/* Row index for the next data row, opening the sheet or its continuation as needed
 * (0 when a sheet could not be added). */
lxw_row_t fp_xlsx__sheet_next(sheet *s)
{
    if (s->ws == NULL || (int64_t)s->row >= s->b->max_rows)
        if (sheet_open(s) != 0)
            return 0;
    return ++s->row;
}

/* The sheet must exist even when it has no data rows (a header alone). */
void fp_xlsx__sheet_end(sheet *s)
{
    if (s->ws == NULL)
        sheet_open(s);
    sheet_close(s);
}

<<<<<<< HEAD
static void progress(const book *b, const char *stage, int64_t i, int64_t n)
{
    if (b->o && b->o->progress && ((i & 0xffff) == 0 || i == n))
        b->o->progress(stage, n > 0 ? (double)i / (double)n : 1.0, b->o->payload);
}

/* ---- scope ---- */

static int in_scope(const scope *sc, const fp_location *l)
{
    return (sc->hall == 0 || l->hall == sc->hall) && (sc->row == 0 || l->row == sc->row);
}

static int cable_in_scope(const scope *sc, const fp_cable_info *c)
{
    if (sc->hall == 0 && sc->row == 0)
        return 1;
    if (in_scope(sc, &c->a.loc))
        return 1;
    for (int k = 0; k < c->n_z; k++)
        if (in_scope(sc, &c->z[k].loc))
            return 1;
    return 0;
}

/* ---- split workbooks: who belongs where, worked out once ---- */

typedef struct split_index {
    char (*cable_id)[16];   /* every cable */
    int32_t *dev_hall, *dev_row;    /* every device */
    int64_t *start;         /* cables of book k: cable[start[k] .. start[k + 1]) */
    int64_t *cable;
    int n_books;
    int cur;                /* the book being written */
} split_index;

static int dev_in_scope(const split_index *x, const scope *sc, int64_t dev)
{
    return (sc->hall == 0 || x->dev_hall[dev] == sc->hall) &&
           (sc->row == 0 || x->dev_row[dev] == sc->row);
}

=======
>>>>>>> main
/* ---- racks: index by (hall, row, rack) so devices and cable ends find their rack ---- */

static int64_t rack_key(int hall, int row, int rack)
{
    return ((int64_t)hall << 42) | ((int64_t)row << 21) | (int64_t)rack;
}

static int cmp_i64_pair(const void *x, const void *y)
{
    const int64_t *a = x, *b = y;
    return (a[0] > b[0]) - (a[0] < b[0]);
}

static int rack_index_build(rack_index *ri, const fp_plan *plan)
{
    size_t n = fp_plan_rack_count(plan);
    int64_t *pairs = malloc((n ? n : 1) * 2 * sizeof *pairs);
    ri->key = malloc((n ? n : 1) * sizeof *ri->key);
    ri->rack = malloc((n ? n : 1) * sizeof *ri->rack);
    ri->n = n;
    if (pairs == NULL || ri->key == NULL || ri->rack == NULL) {
        free(pairs);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        pairs[2 * i] = rack_key(r.hall, r.row, r.rack);
        pairs[2 * i + 1] = (int64_t)i;
    }
    qsort(pairs, n, 2 * sizeof *pairs, cmp_i64_pair);
    for (size_t i = 0; i < n; i++) {
        ri->key[i] = pairs[2 * i];
        ri->rack[i] = (int32_t)pairs[2 * i + 1];
    }
    free(pairs);
    return 0;
}

/* Rack number of a location, -1 when unknown. */
int32_t fp_xlsx__rack_of(const rack_index *ri, const fp_location *l)
{
    int64_t k = rack_key(l->hall, l->row, l->rack);
    size_t lo = 0, hi = ri->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ri->key[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ri->n && ri->key[lo] == k ? ri->rack[lo] : -1;
}

static void rack_index_free(rack_index *ri)
{
    free(ri->key);
    free(ri->rack);
}

/* ---- formats ---- */

static lxw_format *fmt(book *b, const char *num, int bold, lxw_color_t fill, int top_border)
{
    lxw_format *f = workbook_add_format(b->wb);
    if (num)
        format_set_num_format(f, num);
    if (bold)
        format_set_bold(f);
    if (fill)
        format_set_bg_color(f, fill);
    if (top_border)
        format_set_top(f, LXW_BORDER_THIN);
    return f;
}

static void make_formats(book *b)
{
    b->header = fmt(b, NULL, 1, 0xD9E1F2, 0);
    format_set_bottom(b->header, LXW_BORDER_THIN);
    format_set_text_wrap(b->header);
    format_set_align(b->header, LXW_ALIGN_VERTICAL_TOP);
    b->section = fmt(b, NULL, 1, 0xD9E1F2, 0);
    format_set_bottom(b->section, LXW_BORDER_THIN);
    b->left_int = fmt(b, "0", 0, 0, 0);
    format_set_align(b->left_int, LXW_ALIGN_LEFT);
    b->center = fmt(b, NULL, 0, 0, 0);
    format_set_align(b->center, LXW_ALIGN_CENTER);
    b->indent = fmt(b, NULL, 0, 0, 0);
    format_set_indent(b->indent, 1);
    /* Long text (a spine rack's contents) wraps inside its column instead of running across
     * the page and shrinking the printout. */
    b->wrap = fmt(b, NULL, 0, 0, 0);
    format_set_indent(b->wrap, 1);
    format_set_text_wrap(b->wrap);
    format_set_align(b->wrap, LXW_ALIGN_VERTICAL_TOP);
    b->title = fmt(b, NULL, 1, 0, 0);
    format_set_font_size(b->title, 14);
    b->bold = fmt(b, NULL, 1, 0, 0);
    b->text = fmt(b, NULL, 0, 0, 0);
    b->integer = fmt(b, "#,##0", 0, 0, 0);
    b->len = fmt(b, "0.0", 0, 0, 0);
    b->money = fmt(b, "$#,##0.00", 0, 0, 0);
    b->ratio = fmt(b, "0.00", 0, 0, 0);
    b->watts = fmt(b, "#,##0.0", 0, 0, 0);
    b->percent = fmt(b, "0.0%", 0, 0, 0);
    b->rate = fmt(b, "0.0000", 0, 0, 0);
    b->hours = fmt(b, "#,##0.00", 0, 0, 0);
    b->sub_text = fmt(b, NULL, 1, 0xF2F2F2, 1);
    b->sub_int = fmt(b, "#,##0", 1, 0xF2F2F2, 1);
    b->sub_money = fmt(b, "$#,##0.00", 1, 0xF2F2F2, 1);
    b->sub_watts = fmt(b, "#,##0.0", 1, 0xF2F2F2, 1);
    b->tot_text = fmt(b, NULL, 1, 0xD9E1F2, 1);
    b->tot_int = fmt(b, "#,##0", 1, 0xD9E1F2, 1);
    b->tot_money = fmt(b, "$#,##0.00", 1, 0xD9E1F2, 1);
    b->tot_watts = fmt(b, "#,##0.0", 1, 0xD9E1F2, 1);
    b->spare_text = fmt(b, NULL, 0, 0, 0);
    format_set_font_color(b->spare_text, 0x808080);
    format_set_indent(b->spare_text, 1);
    b->warn = fmt(b, NULL, 1, 0xFFC7CE, 0);
    /* Elevation cells by tier: servers blue, leaves green, spines yellow, cores orange, super-
     * cores lilac; a grey hairline keeps each unit countable. */
    static const lxw_color_t role_fill[FP_MAX_TIERS + 1] = { 0xDDEBF7, 0xC6E0B4, 0xFFE699,
                                                             0xF8CBAD, 0xD9D2E9 };
    for (int t = 0; t <= FP_MAX_TIERS; t++) {
        b->role[t] = fmt(b, NULL, 0, role_fill[t], 0);
        format_set_font_size(b->role[t], 9);
        format_set_border(b->role[t], LXW_BORDER_HAIR);
        format_set_border_color(b->role[t], 0x808080);
    }
    /* A box to tick or write in (sign-off columns). */
    b->box = fmt(b, NULL, 0, 0, 0);
    format_set_border(b->box, LXW_BORDER_THIN);
    format_set_border_color(b->box, 0xA6A6A6);
    for (int m = 0; m < FP_MEDIUM_COUNT; m++) {
        /* Text indented and small numbers centred, so "42" and "su01-leaf-r1" in adjacent
         * cells do not read as one "42 su01-leaf-r1". */
        b->medium[m][K_TEXT] = fmt(b, NULL, 0, medium_fill[m], 0);
        format_set_indent(b->medium[m][K_TEXT], 1);
        b->medium[m][K_INT] = fmt(b, "0", 0, medium_fill[m], 0);
        format_set_align(b->medium[m][K_INT], LXW_ALIGN_CENTER);
        b->medium[m][K_LEN] = fmt(b, "0.0", 0, medium_fill[m], 0);
<<<<<<< HEAD
    }
}

/* ---- Cables ---- */

static const column cable_cols[] = {
    { "Cable ID", 10 }, { "A hall", 6 }, { "A row", 6 }, { "A rack", 6 }, { "A U", 5 },
    { "A device", 22 }, { "A port", 8 }, { "Z hall", 6 }, { "Z row", 6 }, { "Z rack", 6 },
    { "Z U", 6 }, { "Z device", 26 }, { "Z port", 10 }, { "Medium", 8 }, { "Cable part", 26 },
    { "Route m", 8 }, { "Stock m", 8 }, { "A transceiver", 24 }, { "Z transceiver", 24 },
    { "Label A", 75 }, { "Label Z", 75 },
};
#define N_CABLE_COLS ((int)(sizeof cable_cols / sizeof cable_cols[0]))

/* "a;b" of a field over the legs of a breakout cable (one leg: the field itself), as cables.csv
 * writes it. offset: a string field of fp_cable_end, or with is_int an int field. */
static const char *legs_of(char *buf, size_t n, const fp_cable_info *c, size_t offset, int is_int)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < c->n_z && len < n; k++) {
        const char *field = (const char *)&c->z[k] + offset;
        int w;
        if (is_int) {
            int v;
            memcpy(&v, field, sizeof v);
            w = snprintf(buf + len, n - len, "%s%d", k ? ";" : "", v);
        } else {
            w = snprintf(buf + len, n - len, "%s%s", k ? ";" : "", field);
        }
        if (w < 0)
            break;
        len += (size_t)w;
    }
    /* A breakout whose legs have no such part (no transceivers on either leg) would read ";" */
    if (buf[strspn(buf, ";")] == '\0')
        buf[0] = '\0';
    return buf;
}

static const char *legs(char *buf, size_t n, const fp_cable_info *c, size_t offset)
{
    return legs_of(buf, n, c, offset, 0);
}

/* A Z location number: a number for a plain cable, "1;1" text for a breakout's legs. */
static void put_z_num(book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t col,
                      const fp_cable_info *c, size_t offset, lxw_format *num, lxw_format *text)
{
    char buf[FP_MAX_LEGS * 12];
    int v;
    if (c->n_z > 1) {
        put_s(b, ws, r, col, legs_of(buf, sizeof buf, c, offset, 1), text);
        return;
    }
    memcpy(&v, (const char *)&c->z[0] + offset, sizeof v);
    put_n(b, ws, r, col, v, num);
}

static int32_t rack_of(const rack_index *ri, const fp_location *l);

/* Remember a cable for the Pull list: its two racks (ordered), medium, part, lengths. */
static void gather_pull(book *b, const fp_cable_info *c)
{
    int32_t ra = rack_of(b->rack_idx, &c->a.loc), rz = rack_of(b->rack_idx, &c->z[0].loc);
    if (ra < 0 || rz < 0)
        return;
    int part = 0;
    while (part < b->n_parts && strcmp(b->parts[part], c->part) != 0)
        part++;
    if (part == b->n_parts) {
        if (b->n_parts == MAX_PARTS)
            part = MAX_PARTS - 1;       /* more part numbers than a catalog holds: lump them */
        else
            snprintf(b->parts[b->n_parts++], sizeof b->parts[0], "%s", c->part);
    }
    b->pulls[b->n_pulls++] = (pull){ ra < rz ? ra : rz, ra < rz ? rz : ra, (int16_t)c->medium,
                                     (int16_t)part, (float)c->stock_m, (float)c->route_m,
                                     c->index };
}

static void write_cables(book *b)
{
    sheet s;
    fp_cable_info c;
    char zdev[FP_MAX_LEGS * 50], zport[FP_MAX_LEGS * 18], zxcvr[FP_MAX_LEGS * 50],
        zlabel[FP_MAX_LEGS * 130];
    int64_t n = (int64_t)fp_plan_cable_count(b->plan);
    sheet_init(&s, b, "Cables", cable_cols, N_CABLE_COLS);
    /* On paper, up to the transceivers: the two label columns (what labels.csv feeds a label
     * printer) would shrink a fit-to-width page to an unreadable size. */
    s.print_cols = N_CABLE_COLS - 2;
    const split_index *x = b->split;
    const int64_t *only = x ? x->cable + x->start[x->cur] : NULL;
    int64_t n_iter = x ? x->start[x->cur + 1] - x->start[x->cur] : n;
    b->cable_id = x ? x->cable_id : fp__malloc((size_t)(n ? n : 1) * sizeof *b->cable_id);
    b->pulls = fp__malloc((size_t)(n_iter ? n_iter : 1) * sizeof *b->pulls);
    if (b->cable_id == NULL || b->pulls == NULL) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Cables sheet");
        sheet_end(&s);
        return;
    }
    for (int64_t j = 0; j < n_iter && b->rc == FP_OK; j++) {
        int64_t i = only ? only[j] : j;
        if ((b->rc = fp_plan_cable(b->plan, (size_t)i, &c, b->err)) != FP_OK)
            break;
        progress(b, "plan.xlsx cables", j, n_iter);
        if (!x)
            snprintf(b->cable_id[i], sizeof b->cable_id[i], "%s", c.id);
        if (!cable_in_scope(&b->sc, &c))
            continue;
        gather_pull(b, &c);
        int m = (unsigned)c.medium < FP_MEDIUM_COUNT ? (int)c.medium : FP_MEDIUM_SMF;
        lxw_format *t = b->medium[m][K_TEXT], *in = b->medium[m][K_INT], *ln = b->medium[m][K_LEN];
        lxw_row_t r = sheet_next(&s);
        if (r == 0)
            break;
        lxw_worksheet *ws = s.ws;
        const fp_cable_end *a = &c.a;
        b->cables++;
        b->cables_by_medium[m]++;
        put_s(b, ws, r, 0, c.id, t);
        put_n(b, ws, r, 1, a->loc.hall, in);
        put_n(b, ws, r, 2, a->loc.row, in);
        put_n(b, ws, r, 3, a->loc.rack, in);
        put_n(b, ws, r, 4, a->loc.u, in);
        put_s(b, ws, r, 5, a->device_name, t);
        put_s(b, ws, r, 6, a->port, t);
        put_z_num(b, ws, r, 7, &c, offsetof(fp_cable_end, loc.hall), in, in);
        put_z_num(b, ws, r, 8, &c, offsetof(fp_cable_end, loc.row), in, in);
        put_z_num(b, ws, r, 9, &c, offsetof(fp_cable_end, loc.rack), in, in);
        put_z_num(b, ws, r, 10, &c, offsetof(fp_cable_end, loc.u), in, in);
        put_s(b, ws, r, 11, legs(zdev, sizeof zdev, &c, offsetof(fp_cable_end, device_name)), t);
        put_s(b, ws, r, 12, legs(zport, sizeof zport, &c, offsetof(fp_cable_end, port)), t);
        put_s(b, ws, r, 13, fp_medium_name(c.medium), t);
        put_s(b, ws, r, 14, c.part, t);
        put_n(b, ws, r, 15, c.route_m, ln);
        put_n(b, ws, r, 16, c.stock_m, ln);
        put_s(b, ws, r, 17, a->transceiver, t);
        put_s(b, ws, r, 18, legs(zxcvr, sizeof zxcvr, &c, offsetof(fp_cable_end, transceiver)), t);
        put_s(b, ws, r, 19, a->label, t);
        put_s(b, ws, r, 20, legs(zlabel, sizeof zlabel, &c, offsetof(fp_cable_end, label)), t);
    }
    progress(b, "plan.xlsx cables", n, n);
    sheet_end(&s);
}

/* ---- BOM: lines grouped by category, a SUBTOTAL row per category, a total row ---- */

static const column bom_cols[] = {
    { "Category", 12 }, { "Part", 30 }, { "Description", 48 }, { "Length m", 9 },
    { "Spare", 6 },     { "Quantity", 10 }, { "Unit cost USD", 14 }, { "Cost USD", 16 },
    { "Unit power W", 11 }, { "Power W", 12 }, { "MTBF h", 12 },
};
enum { BC_CAT, BC_PART, BC_DESC, BC_LEN, BC_SPARE, BC_QTY, BC_UCOST, BC_COST, BC_UPOWER,
       BC_POWER, BC_MTBF, BC_N };

/* Columns of the BOM as letters, for formulas. */
static char col_letter(int c)
{
    return (char)('A' + c);
}

/* SUBTOTAL(9, ...) sums the lines and skips nested SUBTOTALs, so the grand total over the whole
 * column does not count the category subtotals twice. */
static void bom_sum_row(book *b, lxw_worksheet *ws, lxw_row_t r, lxw_row_t first, lxw_row_t last,
                        const char *label, const double sums[3], int total)
{
    char f[64];
    const int cols[3] = { BC_QTY, BC_COST, BC_POWER };
    lxw_format *tf = total ? b->tot_text : b->sub_text;
    lxw_format *nf[3] = { total ? b->tot_int : b->sub_int, total ? b->tot_money : b->sub_money,
                          total ? b->tot_watts : b->sub_watts };
    for (int c = 0; c < BC_N; c++)
        put_s(b, ws, r, (lxw_col_t)c, c == BC_CAT ? label : "", tf);
    for (int k = 0; k < 3; k++) {
        snprintf(f, sizeof f, "=SUBTOTAL(9,%c%u:%c%u)", col_letter(cols[k]), (unsigned)first + 1,
                 col_letter(cols[k]), (unsigned)last + 1);
        put_f(b, ws, r, (lxw_col_t)cols[k], f, sums[k], nf[k]);
    }
}

static void write_bom(book *b)
{
    lxw_worksheet *ws = add_sheet(b, "BOM");
    size_t n = fp_plan_bom_count(b->plan);
    fp_bom_line l;
    char f[64];
    double cat_sum[3] = { 0 }, all_sum[3] = { 0 };
    const char *cat = NULL;
    lxw_row_t r = 0, cat_first = 1;
    if (ws == NULL)
        return;
    for (int c = 0; c < BC_N; c++) {
        keep(b, worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, bom_cols[c].width, NULL));
        put_s(b, ws, 0, (lxw_col_t)c, bom_cols[c].title, b->header);
    }
    keep(b, worksheet_set_row(ws, 0, 30, NULL));
    worksheet_freeze_panes(ws, 1, 0);
    worksheet_repeat_rows(ws, 0, 0);
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
    for (size_t i = 0; i <= n; i++) {
        if (i < n && (b->rc = fp_plan_bom_line(b->plan, i, &l, b->err)) != FP_OK)
            return;
        if (cat != NULL && (i == n || strcmp(l.category, cat) != 0)) {
            char label[48];
            snprintf(label, sizeof label, "Subtotal %s", cat);
            r++;
            bom_sum_row(b, ws, r, cat_first, r - 1, label, cat_sum, 0);
            memset(cat_sum, 0, sizeof cat_sum);
            cat_first = r + 1;
        }
        if (i == n)
            break;
        cat = l.category;
        r++;
        put_s(b, ws, r, BC_CAT, l.category, NULL);
        put_s(b, ws, r, BC_PART, l.part, NULL);
        put_s(b, ws, r, BC_DESC, l.description, b->indent);
        if (l.length_m > 0)
            put_n(b, ws, r, BC_LEN, l.length_m, b->len);
        put_s(b, ws, r, BC_SPARE, l.spare ? "yes" : "", b->center);
        put_n(b, ws, r, BC_QTY, (double)l.quantity, b->integer);
        put_n(b, ws, r, BC_UCOST, l.unit_cost, b->money);
        /* Extended figures are formulas: a buyer who edits a unit price sees every total move. */
        snprintf(f, sizeof f, "=F%u*G%u", (unsigned)r + 1, (unsigned)r + 1);
        put_f(b, ws, r, BC_COST, f, (double)l.quantity * l.unit_cost, b->money);
        put_n(b, ws, r, BC_UPOWER, l.unit_power_w, b->watts);
        /* Spares sit on a shelf and draw nothing (as in bom.csv and the plan's power total). */
        if (l.spare) {
            put_n(b, ws, r, BC_POWER, 0, b->watts);
        } else {
            snprintf(f, sizeof f, "=F%u*I%u", (unsigned)r + 1, (unsigned)r + 1);
            put_f(b, ws, r, BC_POWER, f, (double)l.quantity * l.unit_power_w, b->watts);
        }
        if (l.mtbf_hours > 0)
            put_n(b, ws, r, BC_MTBF, l.mtbf_hours, b->integer);
        const double v[3] = { (double)l.quantity, (double)l.quantity * l.unit_cost,
                              l.spare ? 0.0 : (double)l.quantity * l.unit_power_w };
        for (int k = 0; k < 3; k++) {
            cat_sum[k] += v[k];
            all_sum[k] += v[k];
        }
    }
    if (n == 0) {   /* no parts: a header alone, and nothing for formulas to point at */
        keep(b, worksheet_autofilter(ws, 0, 0, 0, BC_N - 1));
        return;
    }
    /* The filter covers the lines and subtotals, not the total. It is set before the total row
     * is written: in constant memory a range ending above the current row is refused. */
    keep(b, worksheet_autofilter(ws, 0, 0, r, BC_N - 1));
    r++;
    bom_sum_row(b, ws, r, 1, r - 1, "Total", all_sum, 1);
    b->bom_total_row = (int)r + 1;
}

/* ---- Ports: every port of every switch, used or spare ---- */

static const column port_cols[] = {
    { "Device", 22 }, { "Location", 16 }, { "Port", 8 }, { "Lane", 5 }, { "Far device", 22 },
    { "Far port", 8 }, { "Cable ID", 10 }, { "Medium", 8 }, { "Status", 7 },
};
#define N_PORT_COLS ((int)(sizeof port_cols / sizeof port_cols[0]))

static void write_ports(book *b)
{
    const fp_plan *plan = b->plan;
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    int64_t first = fab->tier_base[1], nsw = fab->n_dev - first;
    int64_t *off = malloc((size_t)(nsw + 1) * sizeof *off);
    int32_t *link_at = NULL;
    sheet s;
    char name[48], port[FP_PORT_NAME_MAX], far[48], far_port[FP_PORT_NAME_MAX];
    sheet_init(&s, b, "Ports", port_cols, N_PORT_COLS);
    if (off == NULL)
        goto nomem;
    /* Port p of switch d is slot off[d - first] + p: a flat map from port to link. */
    off[0] = 0;
    for (int64_t d = 0; d < nsw; d++)
        off[d + 1] = off[d] + rs->tier[fab->dev[first + d].tier - 1].radix;
    if ((link_at = malloc((size_t)(off[nsw] ? off[nsw] : 1) * sizeof *link_at)) == NULL)
        goto nomem;
    for (int64_t k = 0; k < off[nsw]; k++)
        link_at[k] = -1;
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        if (l->a >= first)
            link_at[off[l->a - first] + l->a_port] = (int32_t)i;
        link_at[off[l->z - first] + l->z_port] = (int32_t)i;
    }
    for (int64_t d = 0; d < nsw && b->rc == FP_OK && b->lerr == LXW_NO_ERROR; d++) {
        int64_t dev = first + d;
        fp_location loc;
        if (b->split && !dev_in_scope(b->split, &b->sc, dev))
            continue;
        memset(&loc, 0, sizeof loc);
        if (fp_plan_device_location(plan, (size_t)dev, &loc, NULL) != FP_OK)
            memset(&loc, 0, sizeof loc);    /* no layout: the sheet still lists the ports */
        if ((b->sc.hall || b->sc.row) && !in_scope(&b->sc, &loc))
            continue;
        b->switches++;
        progress(b, "plan.xlsx ports", d, nsw);
        fp__device_name(name, sizeof name, fab, rs, dev);
        for (int64_t p = 0; p < off[d + 1] - off[d]; p++) {
            int32_t li = link_at[off[d] + p];
            lxw_row_t r = sheet_next(&s);
            if (r == 0)
                break;
            lxw_worksheet *ws = s.ws;
            fp__port_name(port, sizeof port, fab, rs, dev, (int)p);
            int lane = fp__port_lane(fab, rs, dev, (int)p);
            lxw_format *t = b->spare_text, *in = b->spare_text;
            if (li >= 0) {
                fp_medium m = fp_plan_link_medium(plan, (size_t)li);
                if ((unsigned)m < FP_MEDIUM_COUNT) {
                    t = b->medium[m][K_TEXT];
                    in = b->medium[m][K_INT];
                } else {
                    t = in = NULL;
                }
            }
            put_s(b, ws, r, 0, name, t);
            put_s(b, ws, r, 1, loc.text, t);
            put_s(b, ws, r, 2, port, t);
            if (lane)
                put_n(b, ws, r, 3, lane, in);
            else if (li >= 0)
                put_s(b, ws, r, 3, "", t);  /* a blank that carries the medium's fill */
            if (li < 0) {
                /* A spare row has no fill: its empty cells would be markup showing nothing. */
                b->ports_spare++;
                put_s(b, ws, r, 8, "spare", t);
                continue;
            }
            const fp_link *l = &fab->link[li];
            int64_t other = l->a == dev ? l->z : l->a;
            int other_port = l->a == dev ? l->z_port : l->a_port;
            put_s(b, ws, r, 4, fp__device_name(far, sizeof far, fab, rs, other), t);
            put_s(b, ws, r, 5, fp__port_name(far_port, sizeof far_port, fab, rs, other, other_port),
                  t);
            int64_t ci = fp_plan_link_cable(plan, (size_t)li);
            fp_medium m = fp_plan_link_medium(plan, (size_t)li);
            put_s(b, ws, r, 6, ci >= 0 && b->cable_id ? b->cable_id[ci] : "", t);
            put_s(b, ws, r, 7, (unsigned)m < FP_MEDIUM_COUNT ? fp_medium_name(m) : "", t);
            put_s(b, ws, r, 8, "used", t);
        }
    }
    progress(b, "plan.xlsx ports", nsw, nsw);
    sheet_end(&s);
    free(off);
    free(link_at);
    return;
nomem:
    free(off);
    free(link_at);
    sheet_end(&s);
    b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Ports sheet");
}

/* ---- Racks: every rack, what sits in each U (top down), power, cables leaving ---- */

static const column rack_cols[] = {
    { "Rack", 13 }, { "Hall", 5 }, { "Row", 5 }, { "Position", 8 }, { "Role", 10 },
    { "x m", 7 },  { "y m", 7 },  { "Units", 6 }, { "Units used", 7 }, { "Devices", 8 },
    { "Power W", 10 }, { "Over limit", 8 }, { "Cables leaving", 9 }, { "Contents (U: device)", 90 },
};
#define N_RACK_COLS ((int)(sizeof rack_cols / sizeof rack_cols[0]))

typedef struct placed {
    int32_t rack, u;
    int64_t dev;
} placed;

static int cmp_placed(const void *x, const void *y)
{
    const placed *a = x, *b = y;
    if (a->rack != b->rack)
        return a->rack < b->rack ? -1 : 1;
    if (a->u != b->u)
        return a->u > b->u ? -1 : 1;    /* top of the rack first, as an elevation reads */
    return (a->dev > b->dev) - (a->dev < b->dev);
}

static void write_racks(book *b, const rack_index *ri)
{
    const fp_plan *plan = b->plan;
    const fp_fabric *fab = fp__plan_fabric(plan);
    size_t n = fp_plan_rack_count(plan), np = 0, k = 0;
    placed *pl = malloc((size_t)(fab->n_dev ? fab->n_dev : 1) * sizeof *pl);
    char *contents = malloc(32768);
    sheet s;
    char name[48];
    sheet_init(&s, b, "Racks", rack_cols, N_RACK_COLS);
    if (pl == NULL || contents == NULL) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Racks sheet");
        goto out;
    }
    for (int64_t d = 0; d < fab->n_dev; d++) {
        fp_location loc;
        if (fp_plan_device_location(plan, (size_t)d, &loc, NULL) != FP_OK)
            continue;
        int32_t rk = rack_of(ri, &loc);
        if (rk >= 0)
            pl[np++] = (placed){ rk, loc.u, d };
    }
    qsort(pl, np, sizeof *pl, cmp_placed);
    for (size_t i = 0; i < n && b->rc == FP_OK; i++) {
        fp_rack_info ra;
        if ((b->rc = fp_plan_rack(plan, i, &ra, b->err)) != FP_OK)
            break;
        /* Contents: "U41 spine-07; U39 spine-08" — capped below Excel's 32,767 characters. */
        size_t len = 0;
        contents[0] = '\0';
        while (k < np && pl[k].rack < (int32_t)i)
            k++;
        for (; k < np && pl[k].rack == (int32_t)i; k++) {
            if (len > 32000)
                continue;
            int w = snprintf(contents + len, 32768 - len, "%sU%d %s", len ? "; " : "", pl[k].u,
                             fp__device_name(name, sizeof name, fab, fp__plan_rspec(plan), pl[k].dev));
            if (w > 0)
                len += (size_t)w;
        }
        fp_location where = { .hall = ra.hall, .row = ra.row, .rack = ra.rack };
        if (!in_scope(&b->sc, &where))
            continue;
        b->racks++;
        lxw_row_t r = sheet_next(&s);
        if (r == 0)
            break;
        lxw_worksheet *ws = s.ws;
        /* Readers do not grow a row to fit wrapped text: give it the lines it needs (about one
         * character per unit of column width), 15 points each. */
        size_t per_line = (size_t)rack_cols[13].width, lines = (len + per_line - 1) / per_line;
        if (lines > 1)
            keep(b, worksheet_set_row(ws, r, 15.0 * (double)(lines > 400 ? 400 : lines), NULL));
        put_s(b, ws, r, 0, ra.name, NULL);
        put_n(b, ws, r, 1, ra.hall, b->center);
        put_n(b, ws, r, 2, ra.row, b->center);
        put_n(b, ws, r, 3, ra.rack, b->center);
        put_s(b, ws, r, 4, ra.role, b->indent);
        put_n(b, ws, r, 5, ra.x_m, b->ratio);
        put_n(b, ws, r, 6, ra.y_m, b->ratio);
        put_n(b, ws, r, 7, ra.units, NULL);
        put_n(b, ws, r, 8, ra.units_used, NULL);
        put_n(b, ws, r, 9, (double)ra.devices, b->integer);
        put_n(b, ws, r, 10, ra.power_w, ra.over_limit ? b->warn : b->watts);
        put_s(b, ws, r, 11, ra.over_limit ? "OVER" : "", ra.over_limit ? b->warn : NULL);
        put_n(b, ws, r, 12, (double)ra.cables_leaving, b->integer);
        put_s(b, ws, r, 13, contents, b->wrap);
    }
out:
    sheet_end(&s);
    free(pl);
    free(contents);
}

/* ---- Pull list: cables grouped by rack pair, medium, part and stock length ---- */

static const column pull_cols[] = {
    { "From rack", 13 }, { "To rack", 13 }, { "Medium", 8 }, { "Cable part", 30 },
    { "Stock m", 8 },    { "Count", 7 },    { "Total m", 9 }, { "Longest route m", 9 },
    { "First cable", 10 }, { "Last cable", 10 },
};
#define N_PULL_COLS ((int)(sizeof pull_cols / sizeof pull_cols[0]))

static int cmp_pull(const void *x, const void *y)
{
    const pull *a = x, *b = y;
    if (a->ra != b->ra)
        return a->ra < b->ra ? -1 : 1;
    if (a->rz != b->rz)
        return a->rz < b->rz ? -1 : 1;
    if (a->medium != b->medium)
        return a->medium < b->medium ? -1 : 1;
    if (a->part != b->part)
        return a->part < b->part ? -1 : 1;
    if (a->stock_m != b->stock_m)
        return a->stock_m < b->stock_m ? -1 : 1;
    return (a->cable > b->cable) - (a->cable < b->cable);
}

static void write_pull_list(book *b)
{
    const fp_plan *plan = b->plan;
    pull *pl = b->pulls;
    size_t np = b->n_pulls;
    sheet s;
    sheet_init(&s, b, "Pull list", pull_cols, N_PULL_COLS);
    /* Parts are numbered in order of first appearance in the (fixed) cable order, so the list
     * is deterministic. */
    if (pl)
        qsort(pl, np, sizeof *pl, cmp_pull);
    for (size_t i = 0; i < np;) {
        size_t j = i;
        double total = 0, longest = 0;
        int64_t first = pl[i].cable, last = pl[i].cable;
        while (j < np && pl[j].ra == pl[i].ra && pl[j].rz == pl[i].rz &&
               pl[j].medium == pl[i].medium && pl[j].part == pl[i].part &&
               pl[j].stock_m == pl[i].stock_m) {
            total += pl[j].stock_m;
            if (pl[j].route_m > longest)
                longest = pl[j].route_m;
            last = pl[j].cable;
            j++;
        }
        fp_rack_info r1, r2;
        if (fp_plan_rack(plan, (size_t)pl[i].ra, &r1, NULL) != FP_OK ||
            fp_plan_rack(plan, (size_t)pl[i].rz, &r2, NULL) != FP_OK)
            break;
        lxw_row_t r = sheet_next(&s);
        if (r == 0)
            break;
        int m = pl[i].medium;
        lxw_format *t = b->medium[m][K_TEXT], *ln = b->medium[m][K_LEN],
                   *in = b->medium[m][K_INT];
        put_s(b, s.ws, r, 0, r1.name, t);
        put_s(b, s.ws, r, 1, r2.name, t);
        put_s(b, s.ws, r, 2, fp_medium_name((fp_medium)m), t);
        put_s(b, s.ws, r, 3, b->parts[pl[i].part], t);
        put_n(b, s.ws, r, 4, pl[i].stock_m, ln);
        put_n(b, s.ws, r, 5, (double)(j - i), in);
        put_n(b, s.ws, r, 6, total, ln);
        put_n(b, s.ws, r, 7, longest, ln);
        put_s(b, s.ws, r, 8, b->cable_id[first], t);
        put_s(b, s.ws, r, 9, b->cable_id[last], t);
        i = j;
    }
    sheet_end(&s);
}

/* ---- Summary: the design on one screen ---- */

static void kv_s(book *b, lxw_worksheet *ws, lxw_row_t *r, const char *k, const char *v)
{
    put_s(b, ws, *r, 0, k, b->bold);
    put_s(b, ws, *r, 1, v, NULL);
    (*r)++;
}

static void kv_n(book *b, lxw_worksheet *ws, lxw_row_t *r, const char *k, double v,
                 lxw_format *f)
{
    put_s(b, ws, *r, 0, k, b->bold);
    put_n(b, ws, *r, 1, v, f);
    (*r)++;
}

/* Bisection, diameter and reliability from the metrics API: figures of the whole plan, also in a
 * workbook for one hall or row (a crew's row has no bisection of its own). */
static void write_summary_metrics(book *b, lxw_worksheet *ws, lxw_row_t *r)
{
    const fp_metrics *mx = fp_plan_metrics(b->plan);
    const fp_reliability *rel = &mx->reliability;
    char buf[200];
    put_s(b, ws, *r, 0, "Bandwidth and hops", b->section);
    put_s(b, ws, (*r)++, 1, "whole plan", b->section);
    kv_n(b, ws, r, "Bisection Gb/s (analytic)", mx->bisection_gbps, b->integer);
    kv_n(b, ws, r, "Bisection Gb/s (max-flow)", mx->bisection_maxflow_gbps, b->integer);
    kv_n(b, ws, r, "1:1 target Gb/s", mx->split_demand_gbps, b->integer);
    kv_s(b, ws, r, "Full bisection", mx->full_bisection ? "yes" : "no");
    snprintf(buf, sizeof buf, "%s (%lld | %lld NIC ports)", mx->split,
             (long long)mx->split_endpoints[0], (long long)mx->split_endpoints[1]);
    kv_s(b, ws, r, "Split", buf);
    kv_n(b, ws, r, "Diameter (switch hops)", mx->diameter_switches, NULL);
    for (int i = 0; i < mx->n_hops; i++) {
        snprintf(buf, sizeof buf, "GPU pairs %s", mx->hops[i].scope);
        put_s(b, ws, *r, 0, buf, b->indent);
        put_n(b, ws, *r, 1, mx->hops[i].share, b->percent);
        snprintf(buf, sizeof buf, "%d switch%s on the path", mx->hops[i].switches,
                 mx->hops[i].switches == 1 ? "" : "es");
        put_s(b, ws, (*r)++, 2, buf, NULL);
    }
    (*r)++;

    put_s(b, ws, *r, 0, "Reliability", b->section);
    put_s(b, ws, (*r)++, 1, "expected, parts fail independently", b->section);
    kv_n(b, ws, r, "Switch failures per day", rel->switch_failures_per_day, b->rate);
    kv_n(b, ws, r, "Transceiver failures per day", rel->transceiver_failures_per_day, b->rate);
    kv_n(b, ws, r, "Cable failures per day", rel->cable_failures_per_day, b->rate);
    kv_n(b, ws, r, "NIC failures per day", rel->nic_failures_per_day, b->rate);
    kv_n(b, ws, r, "Link failures per day", rel->link_failures_per_day, b->rate);
    /* 0 means no MTBF is known: say so rather than show "0 hours". */
    if (rel->hours_to_first_link_failure > 0)
        kv_n(b, ws, r, "Hours to first link failure", rel->hours_to_first_link_failure, b->hours);
    else
        kv_s(b, ws, r, "Hours to first link failure", "unknown (no MTBF)");
    if (rel->hours_to_first_switch_failure > 0)
        kv_n(b, ws, r, "Hours to first switch failure", rel->hours_to_first_switch_failure,
             b->hours);
    else
        kv_s(b, ws, r, "Hours to first switch failure", "unknown (no MTBF)");
    if (rel->units_without_mtbf > 0)
        kv_n(b, ws, r, "Units without MTBF", (double)rel->units_without_mtbf, b->integer);
    (*r)++;
}

static void write_summary(book *b, lxw_worksheet *ws)
{
    const fp_plan *plan = b->plan;
    fp_summary su;
    fp_totals to;
    char buf[160];
    lxw_row_t r = 0;
    static const double widths[] = { 28, 16, 26, 10, 11, 8, 11, 12, 10, 11 };
    fp_plan_summary(plan, &su);
    fp_plan_totals(plan, &to);
    for (int c = 0; c < (int)(sizeof widths / sizeof widths[0]); c++)
        keep(b, worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, widths[c], NULL));
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);

    snprintf(buf, sizeof buf, "%s: fabric plan", fp__plan_rspec(plan)->name[0] ? fp__plan_rspec(plan)->name : "fabplan");
    put_s(b, ws, r++, 0, buf, b->title);
    snprintf(buf, sizeof buf, "generated by fabplan %s", FP_VERSION);
    put_s(b, ws, r++, 0, buf, NULL);
    if (b->sc.hall || b->sc.row) {
        if (b->sc.row)
            snprintf(buf, sizeof buf, "This workbook: hall %d, row %d only (%lld racks, %lld "
                     "cables with an end here, %lld switches)", b->sc.hall, b->sc.row,
                     (long long)b->racks, (long long)b->cables, (long long)b->switches);
        else
            snprintf(buf, sizeof buf, "This workbook: hall %d only (%lld racks, %lld cables with "
                     "an end here, %lld switches)", b->sc.hall, (long long)b->racks,
                     (long long)b->cables, (long long)b->switches);
        put_s(b, ws, r++, 0, buf, b->warn);
    }
    r++;
    put_s(b, ws, r++, 0, "Design", b->section);
    kv_n(b, ws, &r, "GPUs", (double)su.gpus, b->integer);
    kv_n(b, ws, &r, "Servers", (double)su.servers, b->integer);
    kv_n(b, ws, &r, "NIC ports cabled", (double)su.endpoints, b->integer);
    kv_s(b, ws, &r, "Topology", fp_topology_name(su.topology));
    kv_n(b, ws, &r, "Switch tiers", su.tiers, NULL);
    kv_n(b, ws, &r, "Planes", su.planes, NULL);
    kv_n(b, ws, &r, "Switches", (double)su.switches, b->integer);
    kv_n(b, ws, &r, "Links", (double)su.links, b->integer);
    kv_n(b, ws, &r, "Capacity (GPUs)", (double)su.capacity_gpus, b->integer);
    kv_s(b, ws, &r, "Tier choice", su.tier_choice);
    r++;

    static const char *const tier_head[] = { "Tier", "Role", "Model", "Switches",
                                             "Ports each", "Gb/s", "Ports used", "Ports spare",
                                             "Down:up", "Links up" };
    for (int c = 0; c < 10; c++)
        put_s(b, ws, r, (lxw_col_t)c, tier_head[c], b->section);
    r++;
    for (size_t i = 0; i < fp_plan_tier_count(plan); i++, r++) {
        fp_tier_info t;
        if (fp_plan_tier(plan, i, &t, NULL) != FP_OK)
            break;
        put_n(b, ws, r, 0, t.tier, b->left_int);
        put_s(b, ws, r, 1, t.role, NULL);
        put_s(b, ws, r, 2, t.model, NULL);
        put_n(b, ws, r, 3, (double)t.switches, b->integer);
        put_n(b, ws, r, 4, t.ports_per_switch, NULL);
        put_n(b, ws, r, 5, t.port_gbps, NULL);
        put_n(b, ws, r, 6, (double)t.ports_used, b->integer);
        put_n(b, ws, r, 7, (double)t.ports_spare, b->integer);
        if (t.up_ports) {
            snprintf(buf, sizeof buf, "%g:1", t.oversubscription);
            put_s(b, ws, r, 8, buf, b->center);
        } else {
            put_s(b, ws, r, 8, "top", b->center);
        }
        put_n(b, ws, r, 9, (double)t.links_up, b->integer);
    }
    r++;
    /* Links and their speed per boundary (fabric.link_gbps). */
    static const char *const link_head[] = { "Boundary", "Links", "Gb/s each" };
    for (int c = 0; c < 3; c++)
        put_s(b, ws, r, (lxw_col_t)c, link_head[c], b->section);
    r++;
    for (size_t i = 0; i < fp_plan_tier_count(plan); i++, r++) {
        fp_tier_info t;
        if (fp_plan_tier(plan, i, &t, NULL) != FP_OK)
            break;
        put_s(b, ws, r, 0, fp__boundary_name((int)i, (int)fp_plan_tier_count(plan), buf, sizeof buf), NULL);
        put_n(b, ws, r, 1, (double)fp_plan_boundary_links(plan, (int)i), b->integer);
        put_n(b, ws, r, 2, t.port_gbps, NULL);
    }
    r++;
    write_summary_metrics(b, ws, &r);

    put_s(b, ws, r, 0, "Totals", b->section);
    put_s(b, ws, r++, 1, "whole plan, spares included", b->section);
    if (b->bom_total_row > 0) {
        /* Linked to the BOM's total row, so edited unit prices flow through to here. */
        snprintf(buf, sizeof buf, "=BOM!H%d", b->bom_total_row);
        put_s(b, ws, r, 0, "Cost USD", b->bold);
        put_f(b, ws, r++, 1, buf, to.cost, b->money);
        snprintf(buf, sizeof buf, "=BOM!J%d", b->bom_total_row);
        put_s(b, ws, r, 0, "Power W", b->bold);
        put_f(b, ws, r++, 1, buf, to.power_w, b->watts);
        if (su.gpus > 0) {
            snprintf(buf, sizeof buf, "=B%u/%lld", (unsigned)r - 1, (long long)su.gpus);
            put_s(b, ws, r, 0, "Cost per GPU USD", b->bold);
            put_f(b, ws, r++, 1, buf, to.cost_per_gpu, b->money);
            snprintf(buf, sizeof buf, "=B%u/%lld", (unsigned)r - 1, (long long)su.gpus);
            put_s(b, ws, r, 0, "Power per GPU W", b->bold);
            put_f(b, ws, r++, 1, buf, to.power_w_per_gpu, b->watts);
        }
    } else {
        kv_n(b, ws, &r, "Cost USD", to.cost, b->money);
        kv_n(b, ws, &r, "Power W", to.power_w, b->watts);
        kv_n(b, ws, &r, "Cost per GPU USD", to.cost_per_gpu, b->money);
        kv_n(b, ws, &r, "Power per GPU W", to.power_w_per_gpu, b->watts);
    }
    kv_n(b, ws, &r, "Transceivers", (double)to.transceivers, b->integer);
    kv_n(b, ws, &r, "Transceivers per GPU", to.transceivers_per_gpu, b->ratio);
    kv_n(b, ws, &r, "Cables", (double)to.cables, b->integer);
    if (to.unpriced_parts > 0)
        kv_n(b, ws, &r, "Parts without price or power", (double)to.unpriced_parts, b->integer);
    r++;

    put_s(b, ws, r, 0, "Cables by medium", b->section);
    put_s(b, ws, r++, 1, b->sc.hall || b->sc.row ? "in this workbook" : "Cables", b->section);
    for (int m = 0; m < FP_MEDIUM_COUNT; m++) {
        put_s(b, ws, r, 0, fp_medium_name((fp_medium)m), b->medium[m][K_TEXT]);
        put_n(b, ws, r++, 1, (double)b->cables_by_medium[m], b->integer);
    }
    r++;

    /* Transceivers and cables by part: the lengths of one part added up, spares apart. */
    put_s(b, ws, r, 0, "Transceivers and cables", b->section);
    put_s(b, ws, r, 1, "Quantity", b->section);
    put_s(b, ws, r++, 2, "Part", b->section);
    size_t nb = fp_plan_bom_count(plan);
    for (size_t i = 0; i < nb; i++) {
        fp_bom_line l, m;
        int seen = 0;
        if (fp_plan_bom_line(plan, i, &l, NULL) != FP_OK)
            break;
        if (strcmp(l.category, "switch") == 0 || strcmp(l.category, "nic") == 0)
            continue;
        for (size_t j = 0; j < i && !seen; j++)     /* a few dozen lines: quadratic is fine */
            seen = fp_plan_bom_line(plan, j, &m, NULL) == FP_OK && strcmp(m.part, l.part) == 0 &&
                   m.spare == l.spare;
        if (seen)
            continue;
        int64_t q = 0;
        for (size_t j = i; j < nb; j++)
            if (fp_plan_bom_line(plan, j, &m, NULL) == FP_OK && strcmp(m.part, l.part) == 0 &&
                m.spare == l.spare)
                q += m.quantity;
        snprintf(buf, sizeof buf, "%s%s", l.category, l.spare ? " (spares)" : "");
        put_s(b, ws, r, 0, buf, NULL);
        put_n(b, ws, r, 1, (double)q, b->integer);
        put_s(b, ws, r++, 2, l.part, b->indent);
    }
    r++;
    for (size_t i = 0; i < fp_plan_note_count(plan); i++) {
        put_s(b, ws, r, 0, i == 0 ? "Notes" : "", b->bold);
        put_s(b, ws, r++, 1, fp_plan_note(plan, i), NULL);
=======
        b->medium[m][K_WRAP] = fmt(b, NULL, 0, medium_fill[m], 0);
        format_set_text_wrap(b->medium[m][K_WRAP]);
        format_set_align(b->medium[m][K_WRAP], LXW_ALIGN_VERTICAL_TOP);
>>>>>>> main
    }
}

/* ---- one workbook ---- */

static fp_status write_book(const fp_plan *plan, const char *path, const fp_write_options *o,
                            int64_t max_rows, scope sc, const split_index *split, fp_error *err)
{
    book b;
    rack_index ri = { 0 };
    char tmpdir[4096], title[200];
    memset(&b, 0, sizeof b);
    b.plan = plan;
    b.o = o;
    b.path = path;
    b.max_rows = max_rows < 1 ? 1 : max_rows > FP_XLSX_MAX_DATA_ROWS ? FP_XLSX_MAX_DATA_ROWS
                                                                       : max_rows;
    b.sc = sc;
<<<<<<< HEAD
    b.split = split;
=======
    b.paper = o && o->version >= 3 ? o->paper : FP_PAPER_A4;
>>>>>>> main
    b.err = err;
    b.rc = FP_OK;
    /* Temp files next to the output (about 0.7 kB per row): /tmp may be a small tmpfs. */
    snprintf(tmpdir, sizeof tmpdir, "%s", path);
    char *slash = strrchr(tmpdir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(tmpdir, sizeof tmpdir, ".");
    lxw_workbook_options wo = { .constant_memory = LXW_TRUE, .tmpdir = tmpdir,
                                .use_zip64 = LXW_TRUE };
    /* libxlsxwriter opens the file only when closing, and prints its own message when that
     * fails: find out first, quietly. */
    FILE *probe = fp__create(path, err);
    if (probe == NULL)
        return FP_EIO;
    fclose(probe);
    if ((b.wb = workbook_new_opt(path, &wo)) == NULL)
        FP_FAIL(err, FP_EIO, path, "cannot create %s", path);
    snprintf(title, sizeof title, "%s: fabric plan", plan_name(plan));
    lxw_doc_properties props = { .title = title, .comments = "generated by fabplan " FP_VERSION,
                                 .created = FIXED_CREATED };
    keep(&b, workbook_set_properties(b.wb, &props));
    make_formats(&b);
    if (rack_index_build(&ri, plan) != 0) {
        b.rc = fp__error_set(err, FP_ENOMEM, path, "out of memory indexing racks");
        goto close;
    }
    b.rack_idx = &ri;
    /* Sheets are created in reading order; the Summary is filled last, from what the data sheets
     * counted (each sheet has its own row stream, so that is allowed in constant memory). */
    lxw_worksheet *summary = fp_xlsx__add_sheet(&b, "Summary");
    if (sc.hall == 0 && sc.row == 0)
        fp_xlsx__write_bom(&b);
    if (b.rc == FP_OK)
        fp_xlsx__write_cables(&b);
    if (b.rc == FP_OK)
        fp_xlsx__write_ports(&b);
    if (b.rc == FP_OK)
        fp_xlsx__write_racks(&b, &ri);
    if (b.rc == FP_OK)
        fp_xlsx__write_pull_list(&b);
    if (b.rc == FP_OK && summary)
        fp_xlsx__write_summary(&b, summary);
close:
    rack_index_free(&ri);
    if (split == NULL)
        free(b.cable_id);
    free(b.pulls);
    lxw_error ce = workbook_close(b.wb);
    if (b.rc != FP_OK)
        return b.rc;
    if (b.lerr != LXW_NO_ERROR)
        FP_FAIL(err, FP_EIO, path, "cannot write %s: %s", path, lxw_strerror(b.lerr));
    if (ce != LXW_NO_ERROR)
        FP_FAIL(err, FP_EIO, path, "cannot write %s: %s", path, lxw_strerror(ce));
    if (fp__fault(FP_FAULT_WRITE))
        FP_FAIL(err, FP_EIO, path, "cannot write %s: %s", path, strerror(errno));
    return FP_OK;
}

fp_status fp__write_xlsx_rows(const fp_plan *plan, const char *path, const fp_write_options *o,
                              int64_t max_rows, fp_error *err)
{
    scope all = { 0, 0 };
    return write_book(plan, path, o, max_rows, all, NULL, err);
}

fp_status fp__write_xlsx(const fp_plan *plan, const char *path, const fp_write_options *o,
                         fp_error *err)
{
    return fp__write_xlsx_rows(plan, path, o, FP_XLSX_MAX_DATA_ROWS, err);
}

/* The book whose scope holds loc, or -1 (books are sorted by hall, then row). */
static int book_of(const scope *books, int n, const fp_location *loc, fp_split_by by)
{
    scope key = { loc->hall, by == FP_SPLIT_ROW ? loc->row : 0 };
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (books[mid].hall < key.hall || (books[mid].hall == key.hall && books[mid].row < key.row))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && books[lo].hall == key.hall && books[lo].row == key.row ? lo : -1;
}

static void split_index_free(split_index *x)
{
    free(x->cable_id);
    free(x->dev_hall);
    free(x->dev_row);
    free(x->start);
    free(x->cable);
}

/* One pass over devices and one over cables: every device's hall and row, every cable's id,
 * and for each book the cables with an end in it (ascending, as plan.xlsx lists them). */
static fp_status split_index_build(split_index *x, const fp_plan *plan, const scope *books,
                                   int n_books, fp_split_by by, const char *dir, fp_error *err)
{
    size_t nd = fp_plan_device_count(plan), nc = fp_plan_cable_count(plan);
    int64_t *count = NULL, (*pairs)[2] = NULL, n_pairs = 0;
    fp_status rc = FP_OK;
    memset(x, 0, sizeof *x);
    x->n_books = n_books;
    x->cable_id = fp__malloc((nc ? nc : 1) * sizeof *x->cable_id);
    x->dev_hall = fp__malloc((nd ? nd : 1) * sizeof *x->dev_hall);
    x->dev_row = fp__malloc((nd ? nd : 1) * sizeof *x->dev_row);
    x->start = calloc((size_t)n_books + 2, sizeof *x->start);
    count = calloc((size_t)n_books + 1, sizeof *count);
    pairs = fp__malloc((nc ? nc : 1) * (1 + FP_MAX_LEGS) * sizeof *pairs);
    if (!x->cable_id || !x->dev_hall || !x->dev_row || !x->start || !count || !pairs) {
        rc = fp__error_set(err, FP_ENOMEM, dir, "out of memory indexing the split workbooks");
        goto out;
    }
    for (size_t d = 0; d < nd; d++) {
        fp_location loc;
        memset(&loc, 0, sizeof loc);
        fp_plan_device_location(plan, d, &loc, NULL);
        x->dev_hall[d] = loc.hall;
        x->dev_row[d] = loc.row;
    }
    for (size_t i = 0; i < nc; i++) {
        fp_cable_info c;
        if ((rc = fp_plan_cable(plan, i, &c, err)) != FP_OK)
            goto out;
        fp__copy_str(x->cable_id[i], sizeof x->cable_id[i], c.id);
        int seen[1 + FP_MAX_LEGS], ns = 0;
        for (int k = -1; k < c.n_z && k < FP_MAX_LEGS; k++) {
            int bk = book_of(books, n_books, k < 0 ? &c.a.loc : &c.z[k].loc, by), dup = 0;
            for (int q = 0; q < ns; q++)
                dup |= seen[q] == bk;
            if (bk < 0 || dup)
                continue;
            seen[ns++] = bk;
            pairs[n_pairs][0] = bk;
            pairs[n_pairs++][1] = (int64_t)i;
            count[bk]++;
        }
    }
    for (int k = 0; k < n_books; k++)
        x->start[k + 1] = x->start[k] + count[k];
    x->cable = fp__malloc((size_t)(n_pairs ? n_pairs : 1) * sizeof *x->cable);
    if (x->cable == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, dir, "out of memory indexing the split workbooks");
        goto out;
    }
    memset(count, 0, (size_t)n_books * sizeof *count);
    for (int64_t p = 0; p < n_pairs; p++) {
        int bk = (int)pairs[p][0];
        x->cable[x->start[bk] + count[bk]++] = pairs[p][1];
    }
out:
    free(count);
    free(pairs);
    return rc;
}

fp_status fp__write_xlsx_split(const fp_plan *plan, const char *dir, const fp_write_options *o,
                               fp_error *err)
{
    fp_split_by by = o && o->version >= 2 ? o->split_by : FP_SPLIT_NONE;
    size_t n = fp_plan_rack_count(plan);
    char path[4200];
    scope last = { -1, -1 }, *books;
    int n_books = 0;
    split_index x;
    fp_status rc = FP_OK;
    if (fp__fault(FP_FAULT_OPEN) || (mkdir(dir, 0777) != 0 && errno != EEXIST))
        FP_FAIL(err, FP_EIO, dir, "cannot create directory %s: %s", dir, strerror(errno));
    /* Racks come in floor order (hall, row, rack): each new hall or row starts a workbook. The
     * BOM is left out: it prices the whole plan, and a row's share of it would mislead. */
    if ((books = fp__malloc((n ? n : 1) * sizeof *books)) == NULL)
        FP_FAIL(err, FP_ENOMEM, dir, "out of memory for %zu racks", n);
    for (size_t i = 0; i < n; i++) {
        fp_rack_info r;
        if ((rc = fp_plan_rack(plan, i, &r, err)) != FP_OK) {
            free(books);
            return rc;
        }
        scope sc = { r.hall, by == FP_SPLIT_ROW ? r.row : 0 };
        if (sc.hall == last.hall && sc.row == last.row)
            continue;
        last = sc;
        books[n_books++] = sc;
    }
    if ((rc = split_index_build(&x, plan, books, n_books, by, dir, err)) == FP_OK)
        for (x.cur = 0; x.cur < n_books && rc == FP_OK; x.cur++) {
            const scope *sc = &books[x.cur];
            if (by == FP_SPLIT_ROW)
                snprintf(path, sizeof path, "%s/plan-H%d-R%02d.xlsx", dir, sc->hall, sc->row);
            else
                snprintf(path, sizeof path, "%s/plan-H%d.xlsx", dir, sc->hall);
            rc = write_book(plan, path, o, FP_XLSX_MAX_DATA_ROWS, *sc, &x, err);
        }
    split_index_free(&x);
    free(books);
    return rc;
}
