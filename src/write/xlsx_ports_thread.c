/* fabplan — the workbook's Ports sheet on a thread of its own (see xlsx.h): the sheets and
 * formats it shares with the Cables sheet are made ahead, so both threads write the same bytes
 * one thread would. */
#include <pthread.h>
#include "xlsx.h"

/* ---- the Ports sheet on a second thread ---- */

/* plan.xlsx's cells are written by libxlsxwriter, which spends most of the workbook's time
 * formatting each sheet's XML; the Cables and Ports sheets are nearly all of it. Each sheet
 * writes its rows to a temporary file of its own, so the Ports sheet is written on a thread of
 * its own while this one writes Cables and Segments. What the sheets share is made safe first:
 * - sheets: adding one changes the workbook's list, so every part of Cables, Segments and Ports
 *   is created here, in sheet order, and found by name when its first row comes;
 * - formats: libxlsxwriter numbers a format (its place in styles.xml) when a cell first uses
 *   it, in a table the workbook shares. Every format the three sheets can use is numbered here,
 *   in the order one thread would have reached them (the Cables sheet first uses the header,
 *   then per medium in the order of its first cable the text, integer and length formats, the
 *   sign-off box after the first cable's; Segments uses only formats Cables used; Ports those
 *   and the spare rows' grey), so the file is the same byte for byte and the threads only read
 *   the numbers. When Ports would show a medium no cable has, it is written on this thread.
 * The Ports thread's errors and counts go into its own copy of the book, merged after the join
 * (a Cables error comes first, as it would one thread). */
struct ports_job {
    book b;
    fp_error err;
    pthread_t tid;
    /* progress from both threads, one call at a time */
    fp_write_options o;
    const fp_write_options *caller;
    pthread_mutex_t lock;
};

static void ports_progress(const char *stage, double frac, void *payload)
{
    ports_job *j = payload;
    pthread_mutex_lock(&j->lock);
    j->caller->progress(stage, frac, j->caller->payload);
    pthread_mutex_unlock(&j->lock);
}

static long ports_threads;

long fp__xlsx_ports_threads(void)
{
    return __atomic_load_n(&ports_threads, __ATOMIC_RELAXED);
}

static void *ports_main(void *arg)
{
    ports_job *j = arg;
    fp_xlsx__write_ports(&j->b);
    return NULL;
}

/* Sheets of `rows` data rows, at least one. */
static int parts_of(const book *b, int64_t rows)
{
    return rows <= 0 ? 1 : (int)((rows + b->max_rows - 1) / b->max_rows);
}

static void add_parts(book *b, const char *base, int parts)
{
    char name[32];
    for (int k = 1; k <= parts; k++) {
        fp_xlsx__part_name(name, sizeof name, base, k);
        fp_xlsx__add_sheet(b, name);
    }
}

/* Start the Ports thread (NULL: write Ports on this thread, after Segments, as without one). */
ports_job *fp_xlsx__ports_thread_start(book *b, const cables_scan *cs, int *n_sheets)
{
    fp_port_links map;
    int in_cables[FP_MEDIUM_COUNT] = { 0 }, spare = 0, ok = 1;
    if (fp__port_links_build(&map, b->plan) != 0)
        return NULL;
    for (int k = 0; k < cs->n_media; k++)
        in_cables[cs->media[k]] = 1;
    int64_t port_rows = map.off[map.n_switches];
    for (int64_t k = 0; k < port_rows && ok; k++) {
        fp_medium m;
        if (map.link_at[k] < 0)
            spare = 1;
        else if (fp_plan_link_medium(b->plan, (size_t)map.link_at[k], &m, NULL) == FP_OK)
            ok = (unsigned)m < FP_MEDIUM_COUNT && in_cables[m];
    }
    fp__port_links_free(&map);
    ports_job *j = ok ? calloc(1, sizeof *j) : NULL;
    if (j == NULL)
        return NULL;
    lxw_format_get_xf_index(b->header);
    for (int k = 0; k < cs->n_media; k++) {
        lxw_format **f = b->medium[cs->media[k]];
        lxw_format_get_xf_index(f[K_TEXT]);
        lxw_format_get_xf_index(f[K_INT]);
        lxw_format_get_xf_index(f[K_LEN]);
        if (k == 0)
            lxw_format_get_xf_index(b->box);
    }
    if (spare)
        lxw_format_get_xf_index(b->spare_text);
    int cables = parts_of(b, cs->rows), segs = 0, ports = parts_of(b, port_rows);
    if (fp__plan_rspec(b->plan)->phys.structured)
        segs = parts_of(b, cs->seg_rows);
    add_parts(b, "Cables", cables);
    add_parts(b, "Segments", segs);
    add_parts(b, "Ports", ports);
    *n_sheets = cables + segs + ports;
    b->sheets_ahead = 1;
    j->caller = b->o;
    j->o = *b->o;
    if (j->o.progress != NULL) {
        j->o.progress = ports_progress;
        j->o.payload = j;
    }
    pthread_mutex_init(&j->lock, NULL);
    j->b = *b;
    j->b.err = &j->err;
    j->b.o = &j->o;
    if (b->lerr != LXW_NO_ERROR || pthread_create(&j->tid, NULL, ports_main, j) != 0) {
        /* no thread: Ports is written here, still into the sheets made ahead */
        pthread_mutex_destroy(&j->lock);
        free(j);
        return NULL;
    }
    b->o = &j->o;
    __atomic_fetch_add(&ports_threads, 1, __ATOMIC_RELAXED);
    return j;
}

/* Join the Ports thread and take its errors and counts; check every sheet made ahead was used. */
void fp_xlsx__ports_thread_join(book *b, ports_job *j, int n_sheets)
{
    pthread_join(j->tid, NULL);
    if (b->rc == FP_OK && j->b.rc != FP_OK) {
        b->rc = j->b.rc;
        if (b->err != NULL)
            *b->err = j->err;
    }
    if (b->lerr == LXW_NO_ERROR)
        b->lerr = j->b.lerr;
    b->switches = j->b.switches;
    b->ports_spare = j->b.ports_spare;
    b->sheets_taken += j->b.sheets_taken;
    b->o = j->caller;
    pthread_mutex_destroy(&j->lock);
    free(j);
    if (b->rc == FP_OK && b->lerr == LXW_NO_ERROR && b->sheets_taken != n_sheets)
        b->rc = fp__error_set(b->err, FP_EIO, b->path,
                              "internal error: %d sheets made ahead, %d written", n_sheets,
                              b->sheets_taken);
}
