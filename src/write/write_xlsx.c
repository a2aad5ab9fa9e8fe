/* fabplan — the installer workbook (plan.xlsx): the book, its sheets and the entry points; the
 * sheets themselves are written by xlsx_*.c (see xlsx.h).
 *
 * Sheets: Summary, BOM, Cables (continued on "Cables (2)"... past Excel's row limit), Ports,
 * Racks, Pull list. The workbook is written in constant-memory mode: a 4-tier plan has half a
 * million cables and a million switch ports, and constant memory keeps the writer at a few MB
 * (rows go to per-sheet temp files; every sheet must be written in ascending row order, and
 * worksheet tables are not available, hence autofilter + formatted header). */
#include <errno.h>
#include <pthread.h>
#include <sys/stat.h>
#include "xlsx.h"

/* A fixed creation date (2000-01-01T00:00:00Z) instead of the clock: same plan, same bytes. */
#define FIXED_CREATED ((time_t)946684800)

/* ---- sheets ---- */

lxw_worksheet *fp_xlsx__add_sheet(fp_xlsx_book *b, const char *name)
{
    if (b->sheet_lock != NULL)
        pthread_mutex_lock(b->sheet_lock);
    lxw_worksheet *ws = workbook_add_worksheet(b->wb, name);
    if (b->sheet_lock != NULL)
        pthread_mutex_unlock(b->sheet_lock);
    if (ws == NULL && b->lerr == LXW_NO_ERROR)
        b->lerr = LXW_ERROR_MEMORY_MALLOC_FAILED;
    return ws;
}

/* The sheet made ahead named name (the Ports thread may be adding one meanwhile). */
static lxw_worksheet *find_sheet(fp_xlsx_book *b, const char *name)
{
    if (b->sheet_lock != NULL)
        pthread_mutex_lock(b->sheet_lock);
    lxw_worksheet *ws = workbook_get_worksheet_by_name(b->wb, name);
    if (b->sheet_lock != NULL)
        pthread_mutex_unlock(b->sheet_lock);
    return ws;
}

static void (*sheet_hook)(const char *sheet, int ports_thread, void *arg);
static void *sheet_hook_arg;

void fp__xlsx_sheet_hook(void (*fn)(const char *sheet, int ports_thread, void *arg), void *arg)
{
    sheet_hook = fn;
    sheet_hook_arg = arg;
}

void fp_xlsx__sheet_started(const fp_xlsx_book *b, const char *name)
{
    if (sheet_hook != NULL)
        sheet_hook(name, b->ports_thread, sheet_hook_arg);
}

/* The plan name as header text, at most max characters, cut between whole characters. '&'
 * starts a code in a header, so a literal one is written twice; before a 'G' or '[' a word
 * joiner (U+2060, invisible) follows, because libxlsxwriter counts "&&G" and "&&[Picture]" as
 * image placeholders and, finding no image, frees the header it goes on to write (a use
 * after free; "double free or corruption" for a plan named "R&G"). */
static void header_name(char *out, size_t n, const char *from, int max)
{
    size_t k = 0;
    int chars = 0;
    while (*from) {
        char piece[8];
        size_t len = 0;
        int w = 1;
        if (*from == '&') {
            memcpy(piece, "&&", 2);
            len = 2;
            w = 2;
            if (from[1] == 'G' || from[1] == '[') {
                memcpy(piece + len, "\xE2\x81\xA0", 3);
                len += 3;
                w = 3;
            }
            from++;
        } else {
            do
                piece[len++] = *from++;
            while (len < 4 && ((unsigned char)*from & 0xC0) == 0x80);
        }
        if (chars + w > max || k + len >= n)
            break;
        memcpy(out + k, piece, len);
        k += len;
        chars += w;
    }
    out[k] = '\0';
}

/* How every sheet prints: the chosen paper, narrow side margins (the data is wide), the plan and
 * sheet named in the header, "page X of Y" in the footer, one page wide. Rows repeat with
 * worksheet_repeat_rows where a sheet has a header row. */
void fp_xlsx__page_setup(fp_xlsx_book *b, lxw_worksheet *ws, int landscape)
{
    /* a header holds 255 characters (LXW_HEADER_FOOTER_MAX): 28 are ours */
    char head[1024], name[800];
    header_name(name, sizeof name, plan_name(b->plan), 200);
    if (landscape)
        worksheet_set_landscape(ws);
    else
        worksheet_set_portrait(ws);
    worksheet_set_paper(ws, b->paper == FP_PAPER_LETTER ? 1 : 9);
    /* Letter landscape is 50 pt narrower than A4: 0.2 in side margins (most office printers
     * print to about 0.17 in) keep the Cables sheet at 8 pt or more in LibreOffice. */
    double side = b->paper == FP_PAPER_LETTER ? 0.2 : 0.3;
    worksheet_set_margins(ws, side, side, 0.6, 0.6);
    lxw_header_footer_options hf = { .margin = 0.25 };
    snprintf(head, sizeof head, "&L&\"-,Bold\"%s: fabric plan&R&A", name);
    keep(b, worksheet_set_header_opt(ws, head, &hf));
    keep(b, worksheet_set_footer_opt(ws, "&Lfabplan " FP_VERSION "&Cpage &P of &N", &hf));
    worksheet_fit_to_pages(ws, 1, 0);
}

static void sheet_close(fp_xlsx_sheet *s)
{
    if (s->ws == NULL)
        return;
    keep(s->b, worksheet_autofilter(s->ws, 0, 0, s->row, (lxw_col_t)(s->ncols - 1)));
    if (s->print_cols > 0)
        keep(s->b, worksheet_print_area(s->ws, 0, 0, s->row, (lxw_col_t)(s->print_cols - 1)));
}

/* "Cables", "Cables (2)", ... */
void fp_xlsx__part_name(char *name, size_t n, const char *base, int part)
{
    if (part == 1)
        snprintf(name, n, "%s", base);
    else
        snprintf(name, n, "%s (%d)", base, part);
}

static int sheet_open(fp_xlsx_sheet *s)
{
    char name[32];
    fp_xlsx_book *b = s->b;
    sheet_close(s);
    s->part++;
    fp_xlsx__part_name(name, sizeof name, s->base, s->part);
    if (b->sheets_ahead) {
        /* created ahead (fp_xlsx__ports_thread_start): adding one now would put it after the
         * sheets the other thread adds meanwhile */
        if ((s->ws = find_sheet(b, name)) == NULL) {
            if (b->rc == FP_OK)
                b->rc = fp__error_set(b->err, FP_EIO, b->path,
                                      "internal error: sheet '%s' was not counted ahead", name);
            return -1;
        }
        b->sheets_taken++;
    } else if ((s->ws = fp_xlsx__add_sheet(b, name)) == NULL) {
        return -1;
    }
    fp_xlsx__sheet_started(b, name);
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
    s->full = 0;
    return 0;
}

void fp_xlsx__sheet_init(fp_xlsx_sheet *s, fp_xlsx_book *b, const char *base,
                         const fp_xlsx_column *cols, int ncols)
{
    memset(s, 0, sizeof *s);
    s->b = b;
    s->base = base;
    s->cols = cols;
    s->ncols = ncols;
}

/* Row index for the next data row, opening the sheet or its continuation as needed
 * (0 when a sheet could not be added). */
lxw_row_t fp_xlsx__sheet_next(fp_xlsx_sheet *s)
{
    if (s->ws == NULL || s->full || (int64_t)s->row >= s->b->max_rows)
        if (sheet_open(s) != 0)
            return 0;
    return ++s->row;
}

void fp_xlsx__sheet_reserve(fp_xlsx_sheet *s, int64_t n)
{
    if (s->ws != NULL && s->row > 0 && n <= s->b->max_rows && (int64_t)s->row + n > s->b->max_rows)
        s->full = 1;
}

/* A character's width in units of a digit's (the unit of column widths): punctuation and spaces
 * about half a digit in the workbook's font, everything else counted as a full digit (capitals
 * are a little wider, most lower case narrower). */
static double char_width(char c)
{
    return strchr(" ,.;:()-/'|!", c) != NULL ? 0.5 : 1.0;
}

size_t fp_xlsx__wrapped_lines(const char *text, int width)
{
    /* The wrapped cells are indented by one character, which is not for text. */
    double w = width > 2 ? width - 1 : 1, at = 0;
    size_t lines = 1;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        double word = 0;
        for (size_t k = 0; k < n; k++)
            word += char_width(p[k]);
        if (at > 0 && at + char_width(' ') + word <= w) {
            at += char_width(' ') + word;
        } else {
            lines += at > 0;
            while (word > w) {      /* a word wider than the line: broken inside it */
                lines++;
                word -= w;
            }
            at = word;
        }
        p += n;
    }
    return lines;
}

void fp_xlsx__fit_row(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, const char *text, int width,
                      size_t max_lines)
{
    size_t lines = fp_xlsx__wrapped_lines(text, width);
    if (lines > 1)
        keep(b, worksheet_set_row(ws, r, 15.0 * (double)(lines > max_lines ? max_lines : lines),
                                  NULL));
}

/* The sheet must exist even when it has no data rows (a header alone). */
void fp_xlsx__sheet_end(fp_xlsx_sheet *s)
{
    if (s->ws == NULL)
        sheet_open(s);
    sheet_close(s);
}

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

static int rack_index_build(fp_xlsx_rack_index *ri, const fp_plan *plan)
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
int32_t fp_xlsx__rack_of(const fp_xlsx_rack_index *ri, const fp_location *l)
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

static void rack_index_free(fp_xlsx_rack_index *ri)
{
    free(ri->key);
    free(ri->rack);
}

/* ---- one workbook ---- */

/* The book's settings from the caller's (rows per sheet clamped to 1 .. the xlsx limit). */
static void book_init(fp_xlsx_book *b, const fp_plan *plan, const char *path,
                      const fp_write_options *o, int64_t max_rows, fp_xlsx_scope sc,
                      const fp_xlsx_split_index *split, fp_error *err)
{
    memset(b, 0, sizeof *b);
    b->plan = plan;
    b->o = o;
    b->path = path;
    b->max_rows = max_rows < 1 ? 1 : max_rows > FP_XLSX_MAX_DATA_ROWS ? FP_XLSX_MAX_DATA_ROWS
                                                                        : max_rows;
    b->sc = sc;
    b->split = split;
    b->paper = o->paper;
    b->err = err;
    b->rc = FP_OK;
}

fp_status fp_xlsx__workbook_new(lxw_workbook **wb, const char *path, char *tmpdir, size_t n,
                                fp_error *err)
{
    snprintf(tmpdir, n, "%s", path);
    char *slash = strrchr(tmpdir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(tmpdir, n, ".");
    lxw_workbook_options wo = { .constant_memory = LXW_TRUE, .tmpdir = tmpdir,
                                .use_zip64 = LXW_TRUE };
    /* libxlsxwriter opens the file only when closing, and prints its own message when that
     * fails: find out first, quietly. */
    FILE *probe = fp__create(path, err);
    if (probe == NULL)
        return FP_EIO;
    fclose(probe);
    if ((*wb = workbook_new_opt(path, &wo)) == NULL)
        FP_FAIL(err, FP_EIO, path, "cannot create %s", path);
    return FP_OK;
}

void fp_xlsx__write_tail(fp_xlsx_book *b)
{
    if (b->rc == FP_OK)
        fp_xlsx__write_racks(b);
    if (b->rc == FP_OK && b->tail_apart)
        fp_xlsx__gather_pulls(b);
    if (b->rc == FP_OK)
        fp_xlsx__write_pull_list(b);
    if (b->tail_apart) {
        /* gathered for the Pull list alone: not kept while the other thread still writes */
        free(b->pulls);
        b->pulls = NULL;
    }
    if (b->rc == FP_OK)
        fp_xlsx__write_optics(b);
    if (b->rc == FP_OK)
        fp_xlsx__write_trays(b);
    /* With spec `networks`: their cables, last (on the Ports thread when there is one: it
     * numbers every format after Segments, so one used first here is numbered alike). */
    if (b->rc == FP_OK)
        fp_xlsx__write_net_cables(b);
}

/* Every sheet, in reading order, until one fails (b->rc); Cables and Segments here while the
 * Ports sheet and the sheets after it are written on a thread of their own when they can be.
 * The Summary is filled last, from what the data sheets counted (each sheet has its own row
 * stream, so that is allowed in constant memory). */
static void write_sheets(fp_xlsx_book *b)
{
    lxw_worksheet *summary = fp_xlsx__add_sheet(b, "Summary");
    if (b->sc.hall == 0 && b->sc.row == 0)
        fp_xlsx__write_bom(b);
    fp_xlsx_ports_job *pj = NULL;
    int n_ahead = 0;
    fp_xlsx_cables_scan cs;
    if (b->rc == FP_OK && b->split == NULL && fp__write_jobs(b->o) > 1 &&
        fp_xlsx__cables_scan(b, &cs) == 0)
        pj = fp_xlsx__ports_thread_start(b, &cs, &n_ahead);
    if (b->rc == FP_OK)
        fp_xlsx__write_cables(b);
    if (b->rc == FP_OK)
        fp_xlsx__write_segments(b);
    if (pj != NULL) {
        fp_xlsx__ports_thread_join(b, pj, n_ahead);
    } else {
        if (n_ahead > 0 && b->rc == FP_OK && b->sheets_taken != n_ahead)
            b->rc = fp__error_set(b->err, FP_EIO, b->path,
                                  "internal error: %d sheets made ahead, %d written", n_ahead,
                                  b->sheets_taken);
        b->sheets_ahead = 0;
        if (b->rc == FP_OK)
            fp_xlsx__write_ports(b);
        fp_xlsx__write_tail(b);
    }
    b->sheets_ahead = 0;
    if (b->rc == FP_OK && summary)
        fp_xlsx__write_summary(b, summary);
}

/* Free the book's working memory, say the cells are done (cells_done), compress and close the
 * file; the first error stands: a sheet's, libxlsxwriter's while writing, then the close's. */
static fp_status book_close(fp_xlsx_book *b, fp_xlsx_rack_index *ri, void (*cells_done)(void *),
                            void *arg)
{
    const char *path = b->path;
    fp_error *err = b->err;
    rack_index_free(ri);
    if (b->split == NULL)
        free(b->cable_id);
    free(b->pulls);
    if (cells_done != NULL)
        cells_done(arg);
    lxw_error ce = workbook_close(b->wb);
    if (b->rc != FP_OK)
        return b->rc;
    if (b->lerr != LXW_NO_ERROR)
        FP_FAIL(err, FP_EIO, path, "cannot write %s: %s", path, lxw_strerror(b->lerr));
    if (ce != LXW_NO_ERROR)
        FP_FAIL(err, FP_EIO, path, "cannot write %s: %s", path, lxw_strerror(ce));
    if (fp__fault(FP_FAULT_WRITE))
        FP_FAIL(err, FP_EIO, path, "cannot write %s: %s", path, strerror(errno));
    return FP_OK;
}

static fp_status write_book(const fp_plan *plan, const char *path, const fp_write_options *o,
                            int64_t max_rows, fp_xlsx_scope sc, const fp_xlsx_split_index *split,
                            void (*cells_done)(void *), void *arg, fp_error *err)
{
    fp_xlsx_book b;
    fp_xlsx_rack_index ri = { 0 };
    char tmpdir[4096], title[200];
    fp_status rc;
    book_init(&b, plan, path, fp__write_opts(o), max_rows, sc, split, err);
    if ((rc = fp_xlsx__workbook_new(&b.wb, path, tmpdir, sizeof tmpdir, err)) != FP_OK)
        return rc;
    snprintf(title, sizeof title, "%s: fabric plan", plan_name(plan));
    lxw_doc_properties props = { .title = title, .comments = "generated by fabplan " FP_VERSION,
                                 .created = FIXED_CREATED };
    keep(&b, workbook_set_properties(b.wb, &props));
    fp_xlsx__make_formats(&b);
    if (rack_index_build(&ri, plan) != 0) {
        b.rc = fp__error_set(err, FP_ENOMEM, path, "out of memory indexing racks");
    } else {
        b.rack_idx = &ri;
        write_sheets(&b);
    }
    return book_close(&b, &ri, cells_done, arg);
}

fp_status fp__write_xlsx_rows(const fp_plan *plan, const char *path, const fp_write_options *o,
                              int64_t max_rows, fp_error *err)
{
    fp_xlsx_scope all = { 0, 0 };
    return write_book(plan, path, o, max_rows, all, NULL, NULL, NULL, err);
}

fp_status fp__write_xlsx_gated(const fp_plan *plan, const char *path, const fp_write_options *o,
                               void (*cells_done)(void *), void *arg, fp_error *err)
{
    fp_xlsx_scope all = { 0, 0 };
    return write_book(plan, path, o, FP_XLSX_MAX_DATA_ROWS, all, NULL, cells_done, arg, err);
}

fp_status fp__write_xlsx(const fp_plan *plan, const char *path, const fp_write_options *o,
                         fp_error *err)
{
    return fp__write_xlsx_rows(plan, path, o, FP_XLSX_MAX_DATA_ROWS, err);
}

/* The book whose scope holds loc, or -1 (books are sorted by hall, then row). */
static int book_of(const fp_xlsx_scope *books, int n, const fp_location *loc, fp_split_by by)
{
    fp_xlsx_scope key = { loc->hall, by == FP_SPLIT_ROW ? loc->row : 0 };
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

static void split_index_free(fp_xlsx_split_index *x)
{
    free(x->cable_id);
    free(x->dev_hall);
    free(x->dev_row);
    free(x->start);
    free(x->cable);
}

/* One pass over devices and one over cables: every device's hall and row, every cable's id,
 * and for each book the cables with an end in it (ascending, as plan.xlsx lists them). Before,
 * every book read every cable: rows x cables (16,384 GPUs, one rack per row: 672 books). */
static fp_status split_index_build(fp_xlsx_split_index *x, const fp_plan *plan,
                                   const fp_xlsx_scope *books, int n_books, fp_split_by by,
                                   const char *dir, fp_error *err)
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

/* The workbooks of a split, written by a pool of threads: each takes the next book. The first
 * failure stops the pool from starting more; the error kept is the failed book's that comes
 * first (one thread: the first failure, as a loop would). */
typedef struct split_pool {
    const fp_plan *plan;
    const char *dir;
    const fp_write_options *o;
    const fp_xlsx_scope *books;
    int n_books;
    fp_split_by by;
    const fp_xlsx_split_index *x;   /* shared, read-only; each book gets a copy with its own cur */
    int next, stop, failed;
    fp_status rc;
    fp_error err;
} split_pool;

static pthread_mutex_t split_lock = PTHREAD_MUTEX_INITIALIZER;

static void *split_worker(void *arg)
{
    split_pool *p = arg;
    int i;
    while ((i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED)) < p->n_books &&
           !__atomic_load_n(&p->stop, __ATOMIC_RELAXED)) {
        const fp_xlsx_scope *sc = &p->books[i];
        char path[4200];
        fp_xlsx_split_index x = *p->x;
        fp_error e = { 0 };
        x.cur = i;
        if (p->by == FP_SPLIT_ROW)
            snprintf(path, sizeof path, "%s/plan-H%d-R%02d.xlsx", p->dir, sc->hall, sc->row);
        else
            snprintf(path, sizeof path, "%s/plan-H%d.xlsx", p->dir, sc->hall);
        fp_status rc = write_book(p->plan, path, p->o, FP_XLSX_MAX_DATA_ROWS, *sc, &x, NULL, NULL,
                                  &e);
        if (rc != FP_OK) {
            pthread_mutex_lock(&split_lock);
            if (p->failed < 0 || i < p->failed) {
                p->failed = i;
                p->rc = rc;
                p->err = e;
            }
            __atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
            pthread_mutex_unlock(&split_lock);
        }
    }
    return NULL;
}

static int cmp_scope(const void *x, const void *y)
{
    const fp_xlsx_scope *a = x, *b = y;
    return a->hall != b->hall ? (a->hall < b->hall ? -1 : 1)
                              : (a->row > b->row) - (a->row < b->row);
}

/* The books in floor order, each once: the management racks the networks add come after the
 * layout's racks (fp_plan_rack), so their halls (and rows) may repeat an earlier book's; a
 * management row gets its workbook as any other row (its racks, their elevation, its tray).
 * Returns the new count. */
static int sort_books(fp_xlsx_scope *books, int n)
{
    qsort(books, (size_t)n, sizeof *books, cmp_scope);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || cmp_scope(&books[k - 1], &books[i]) != 0)
            books[k++] = books[i];
    return k;
}

fp_status fp__write_xlsx_split(const fp_plan *plan, const char *dir, const fp_write_options *o,
                               fp_error *err)
{
    fp_split_by by = fp__write_opts(o)->split_by;
    size_t n = fp_plan_rack_count(plan);
    fp_xlsx_scope last = { -1, -1 }, *books;
    int n_books = 0;
    fp_xlsx_split_index x;
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
        fp_xlsx_scope sc = { r.hall, by == FP_SPLIT_ROW ? r.row : 0 };
        if (sc.hall == last.hall && sc.row == last.row)
            continue;
        last = sc;
        books[n_books++] = sc;
    }
    n_books = sort_books(books, n_books);
    if ((rc = split_index_build(&x, plan, books, n_books, by, dir, err)) == FP_OK) {
        split_pool p = { plan, dir, o, books, n_books, by, &x, 0, 0, -1, FP_OK, { 0 } };
        pthread_t tid[64];
        int jobs = fp__write_jobs(o), started = 0;
        if (jobs > n_books)
            jobs = n_books;
        for (int k = 1; k < jobs; k++)
            if (fp__thread_start(&tid[started], split_worker, &p) == 0)
                started++;
        split_worker(&p);
        for (int k = 0; k < started; k++)
            pthread_join(tid[k], NULL);
        if ((rc = p.rc) != FP_OK && err != NULL)
            *err = p.err;
    }
    split_index_free(&x);
    free(books);
    return rc;
}
