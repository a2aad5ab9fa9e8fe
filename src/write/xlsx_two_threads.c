/* fabplan — the workbook written on two threads: the Ports sheet and the sheets after it on a
 * thread of their own while the workbook's thread writes Cables and Segments (see xlsx.h).
 * What they share is settled first (sheets made ahead, formats numbered ahead: ahead_table),
 * so both threads write the same bytes one thread would. */
#include <pthread.h>
#include "xlsx.h"

/* ---- the Ports sheet and the sheets after it on a second thread ---- */

/* plan.xlsx's cells are written by libxlsxwriter, which spends most of the workbook's time
 * formatting each sheet's XML; the Cables and Ports sheets are nearly all of it. Each sheet
 * writes its rows to a temporary file of its own, so the sheets after Segments (Ports, Racks,
 * Rack elevation, Pull list, Optics, Trays) are written on a thread of their own while this one writes
 * Cables and Segments; the Summary stays last on this thread, after the join (it shows what the
 * data sheets counted). What the threads share is made safe first:
 * - sheets: adding one changes the workbook's list and its names. Every part of Cables and
 *   Segments is created here, in sheet order, before the thread starts, and found by name when
 *   its first row comes; the other thread adds the sheets after them, in their order (nothing
 *   is added here meanwhile). Adding and finding take b->sheet_lock.
 * - formats: libxlsxwriter numbers a format (its place in styles.xml) when a row using it is
 *   flushed, the first time, in a table the workbook shares (a format equal to a numbered one
 *   looks the table up at each use). Every format Cables and Segments use is numbered here, in
 *   the order one thread would reach them (the Cables sheet first uses the header, then per
 *   medium in the order of its first cable the text, integer and length formats, the sign-off
 *   box after the first cable's; Segments uses only formats Cables used), and each must have a
 *   number of its own: this thread then only reads numbers kept in its formats, and the other
 *   thread is the only one that numbers or looks up anything until the join. It numbers the
 *   formats of its sheets as they come, in the order one thread would after Segments, and the
 *   Summary's and the sheets' last rows (flushed by workbook_close) come after the join on this
 *   thread, as they would: the file is the same byte for byte.
 * The other thread's errors and counts go into its own copy of the book, merged after the join
 * (a Cables or Segments error comes first, as it would on one thread). */
struct fp_xlsx_ports_job {
    fp_xlsx_book b;
    fp_error err;
    pthread_t tid;
    pthread_mutex_t sheets;     /* b->sheet_lock of both threads */
    /* progress from both threads, one call at a time */
    fp_write_options o;
    const fp_write_options *caller;
    fp_progress_lock progress;
};

static long ports_threads;

long fp__xlsx_ports_threads_started(void)
{
    return __atomic_load_n(&ports_threads, __ATOMIC_RELAXED);
}

static void *ports_main(void *arg)
{
    fp_xlsx_ports_job *j = arg;
    if (j->b.rc == FP_OK)
        fp_xlsx__write_ports(&j->b);
    fp_xlsx__write_tail(&j->b);
    return NULL;
}

/* Sheets of `rows` data rows, at least one. */
static int parts_of(const fp_xlsx_book *b, int64_t rows)
{
    return rows <= 0 ? 1 : (int)((rows + b->max_rows - 1) / b->max_rows);
}

static void add_parts(fp_xlsx_book *b, const char *base, int parts)
{
    char name[32];
    for (int k = 1; k <= parts; k++) {
        fp_xlsx__part_name(name, sizeof name, base, k);
        fp_xlsx__add_sheet(b, name);
    }
}

/* Number format f now; 1 when the number is its own (kept in f: a format equal to an earlier
 * one is looked up in the workbook's table at each use instead). */
static int number_own(lxw_format *f)
{
    int32_t xf = lxw_format_get_xf_index(f);
    return f->xf_index == xf;
}

/* The table of the formats numbered ahead: every format the Cables and Segments sheets use, in
 * the order the Cables sheet first uses them (the header; per medium, in the order of its first
 * cable, the text, integer and length formats, the sign-off box after the first medium's).
 * A new format on those sheets goes here, else the cell check (cell_ok in xlsx.h) refuses it.
 * Returns the number of entries (at most 2 + FP_MEDIUM_COUNT * 3). */
static int ahead_table(fp_xlsx_book *b, const fp_xlsx_cables_scan *cs, lxw_format **t)
{
    int n = 0;
    t[n++] = b->header;
    for (int k = 0; k < cs->n_media; k++) {
        lxw_format **f = b->medium[cs->media[k]];
        for (int kind = K_TEXT; kind <= K_LEN; kind++)
            t[n++] = f[kind];
        if (k == 0)
            t[n++] = b->box;
    }
    return n;
}

static int leave_out_for_test = -1;

void fp__xlsx_test_leave_out(int entry)
{
    leave_out_for_test = entry;
}

/* The table into b->ahead, numbered in its order; 1 when each entry has a number of its own. */
static int number_cables_formats(fp_xlsx_book *b, const fp_xlsx_cables_scan *cs)
{
    lxw_format *t[2 + FP_MEDIUM_COUNT * 3];
    int n = ahead_table(b, cs, t), own = 1;
    b->n_ahead = 0;
    for (int k = 0; k < n; k++)
        if (k != leave_out_for_test) {
            own &= number_own(t[k]);
            b->ahead[b->n_ahead++] = t[k];
        }
    b->ahead_hit = NULL;
    return own;
}

int fp_xlsx__cell_format_ok(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                            const lxw_format *f)
{
    if (f == NULL)
        return 1;
    for (int k = 0; k < b->n_ahead; k++)
        if (b->ahead[k] == f) {
            b->ahead_hit = f;
            return 1;
        }
    if (b->rc == FP_OK)
        b->rc = fp__error_set(b->err, FP_EIO, b->path,
                              "internal error: sheet '%s' cell row %u column %u uses a format not "
                              "numbered ahead while the Ports thread runs (add it to ahead_table "
                              "in xlsx_two_threads.c)",
                              ws->name ? ws->name : "?", (unsigned)r + 1, (unsigned)c + 1);
    return 0;
}

/* The Ports thread's book: a copy of b with its own errors, progress and sheets after Segments. */
static void job_init(fp_xlsx_ports_job *j, fp_xlsx_book *b)
{
    j->caller = b->o;
    fp__progress_lock_init(&j->progress, b->o, &j->o);
    pthread_mutex_init(&j->sheets, NULL);
    b->sheet_lock = &j->sheets;
    b->tail_apart = 1;
    j->b = *b;
    j->b.err = &j->err;
    j->b.o = &j->o;
    j->b.sheets_ahead = 0;
    j->b.ports_thread = 1;
}

/* Start the Ports thread (NULL: write Ports and the sheets after it on this thread, after
 * Segments, as without one). */
fp_xlsx_ports_job *fp_xlsx__ports_thread_start(fp_xlsx_book *b, const fp_xlsx_cables_scan *cs,
                                               int *n_sheets)
{
    *n_sheets = 0;
    fp_xlsx_ports_job *j = calloc(1, sizeof *j);
    if (j == NULL)
        return NULL;
    if (!number_cables_formats(b, cs)) {
        free(j);
        return NULL;
    }
    int cables = parts_of(b, cs->rows), segs = 0;
    if (fp__plan_rspec(b->plan)->phys.structured)
        segs = parts_of(b, cs->seg_rows);
    add_parts(b, "Cables", cables);
    add_parts(b, "Segments", segs);
    *n_sheets = cables + segs;
    b->sheets_ahead = 1;
    job_init(j, b);
    if (b->lerr != LXW_NO_ERROR || fp__thread_start(&j->tid, ports_main, j) != 0) {
        /* no thread: Ports and the rest are written here, after the sheets made ahead */
        b->sheet_lock = NULL;
        b->tail_apart = 0;
        fp__progress_lock_destroy(&j->progress);
        pthread_mutex_destroy(&j->sheets);
        free(j);
        return NULL;
    }
    b->o = &j->o;
    b->formats_frozen = 1;
    __atomic_fetch_add(&ports_threads, 1, __ATOMIC_RELAXED);
    return j;
}

/* Join the Ports thread and take its errors and counts; check every sheet made ahead was used. */
void fp_xlsx__ports_thread_join(fp_xlsx_book *b, fp_xlsx_ports_job *j, int n_sheets)
{
    pthread_join(j->tid, NULL);
    b->formats_frozen = 0;
    if (b->rc == FP_OK && j->b.rc != FP_OK) {
        b->rc = j->b.rc;
        if (b->err != NULL)
            *b->err = j->err;
    }
    if (b->lerr == LXW_NO_ERROR)
        b->lerr = j->b.lerr;
    b->switches = j->b.switches;
    b->ports_spare = j->b.ports_spare;
    b->racks = j->b.racks;
    b->net_cables = j->b.net_cables;
    memcpy(b->net_cables_by_medium, j->b.net_cables_by_medium, sizeof b->net_cables_by_medium);
    b->o = j->caller;
    b->sheet_lock = NULL;
    fp__progress_lock_destroy(&j->progress);
    pthread_mutex_destroy(&j->sheets);
    free(j->b.pulls);
    free(j);
    if (b->rc == FP_OK && b->lerr == LXW_NO_ERROR && b->sheets_taken != n_sheets)
        b->rc = fp__error_set(b->err, FP_EIO, b->path,
                              "internal error: %d sheets made ahead, %d written", n_sheets,
                              b->sheets_taken);
}
