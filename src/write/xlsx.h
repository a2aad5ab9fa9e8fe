/* fabplan — the installer workbook's private header: the book being written, its sheets and
 * cell helpers. write_xlsx.c opens and closes the book and its sheets; xlsx_cables.c writes the
 * Cables and Pull list, xlsx_bom.c the BOM and Summary, xlsx_ports.c the Ports, xlsx_racks.c
 * the Racks, Rack elevation and Trays, xlsx_optics.c the Optics; xlsx_formats.c makes the cell
 * formats, xlsx_two_threads.c writes the workbook on two threads: the Ports sheet and the sheets after
 * it (Racks to Network cables) on a thread of its own while this one writes Cables and
 * Segments. Types shared by these files are named fp_xlsx_*, functions fp_xlsx__*.
 * Only these files include libxlsxwriter. */
#ifndef FP_WRITE_XLSX_H
#define FP_WRITE_XLSX_H

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>
#include "write/writers.h"

enum { K_TEXT, K_INT, K_LEN, K_WRAP, K_KINDS };     /* cell kinds that get a per-medium colour */

typedef struct fp_xlsx_column {
    const char *title;
    double width;
} fp_xlsx_column;

/* Which part of the plan a workbook covers: everything, one hall, or one row of a hall. */
typedef struct fp_xlsx_scope {
    int hall, row;          /* 0 = any */
} fp_xlsx_scope;

typedef struct fp_xlsx_pull {
    int32_t ra, rz;         /* racks, ra <= rz */
    int16_t medium, part;   /* part: index into the interned part names */
    int16_t trunk_fibres;   /* structured: fibres the link takes in its rack pair's trunks (12
                               for MPO, 2 for LC; part and lengths are the trunk's), else 0 */
    float stock_m, route_m;
    int64_t cable;
} fp_xlsx_pull;


/* Racks indexed by (hall, row, rack) so devices and cable ends find their rack. */
typedef struct fp_xlsx_rack_index {
    int64_t *key;           /* sorted keys */
    int32_t *rack;          /* rack number (fp_plan_rack index) of each key */
    size_t n;
} fp_xlsx_rack_index;

#define MAX_PARTS 256

/* Split workbooks: who belongs where, worked out once for all books (write_xlsx.c). */
typedef struct fp_xlsx_split_index {
    char (*cable_id)[16];   /* every cable */
    int32_t *dev_hall, *dev_row;    /* every device */
    int64_t *start;         /* cables of book k: cable[start[k] .. start[k + 1]) */
    int64_t *cable;
    int n_books;
    int cur;                /* the book being written */
} fp_xlsx_split_index;

static inline int dev_in_scope(const fp_xlsx_split_index *x, const fp_xlsx_scope *sc, int64_t dev)
{
    return (sc->hall == 0 || x->dev_hall[dev] == sc->hall) &&
           (sc->row == 0 || x->dev_row[dev] == sc->row);
}

typedef struct fp_xlsx_book {
    lxw_workbook *wb;
    const fp_plan *plan;
    const fp_write_options *o;
    const char *path;
    int64_t max_rows;       /* data rows per sheet before it continues on "Name (2)" */
    fp_xlsx_scope sc;
    fp_paper paper;
    lxw_error lerr;         /* first libxlsxwriter error */
    fp_status rc;           /* first fabplan error (err filled) */
    fp_error *err;
    lxw_format *header, *section, *title, *bold, *text, *integer, *len, *money, *ratio, *watts;
    lxw_format *left_int, *center, *indent, *wrap, *percent, *rate, *hours;
    lxw_format *sub_text, *sub_int, *sub_money, *sub_watts;
    lxw_format *tot_text, *tot_int, *tot_money, *tot_watts;
    lxw_format *spare_text, *warn, *box;
    lxw_format *role[FP_MAX_TIERS + 1];     /* elevation fill by tier (0 = servers) */
    lxw_format *panel;                      /* elevation: a patch panel's unit */
    lxw_format *warn_percent;               /* an over-full tray's fill */
    lxw_format *medium[FP_MEDIUM_COUNT][K_KINDS];
    /* Ports: a switch's first row, a rule above: by medium, [FP_MEDIUM_COUNT] a spare port,
     * [FP_MEDIUM_COUNT + 1] no fill */
    lxw_format *port_top[FP_MEDIUM_COUNT + 2];
    /* Filled while the data sheets are written, shown on the Summary. */
    int64_t cables, cables_by_medium[FP_MEDIUM_COUNT], racks, switches, ports_spare;
    int64_t net_cables;     /* with spec `networks`: rows of the Network cables sheet */
    int64_t net_cables_by_medium[FP_MEDIUM_COUNT];
    int bom_total_row;      /* 1-based row of the BOM total (0 = none); with spec `networks`
                               the compute fabric's subtotal */
    int bom_net_row[FP_MAX_NETWORKS];   /* with networks: 1-based row of each one's subtotal */
    lxw_format *net_fill[FP_NET_OOB + 2];   /* elevation, with networks: switches by network
                                               role, then [FP_NET_OOB + 1] extra endpoints */
    unsigned gpus_row, servers_row;     /* 1-based Summary rows of those inputs */
    /* Gathered in the one pass over the cables (fp_plan_cable fills a large struct; the Ports
     * sheet and the Pull list reuse what it gave instead of asking again). */
    char (*cable_id)[16];   /* every cable's id, by index */
    /* Split workbooks (fp__write_xlsx_split): the cables with an end in this book's scope,
     * ascending, the ids of all cables and every device's hall and row, worked out once for
     * all books so a book costs its own cables, not the plan's (NULL for plan.xlsx). */
    const struct fp_xlsx_split_index *split;
    fp_xlsx_pull *pulls;            /* cables in scope whose both racks are known */
    size_t n_pulls;
    /* With a Ports thread the Racks, Rack elevation, Pull list, Optics, Trays and Network cables sheets
     * are written on it after Ports (fp_xlsx__write_tail): the Pull list then gathers its
     * cables there (fp_xlsx__gather_pulls) instead of the Cables sheet here. */
    int tail_apart;
    char parts[MAX_PARTS][48];
    int n_parts;
    const struct fp_xlsx_rack_index *rack_idx;
    int ids_ready;          /* cable_id filled before the Cables sheet (fp_xlsx__cables_scan) */
    /* With a Ports thread (write_xlsx.c) the Cables, Segments and Ports sheets are created
     * ahead, in sheet order, and a sheet's parts are found by name: none is added meanwhile. */
    int sheets_ahead;
    int sheets_taken;       /* parts found so far (each must be: checked after the threads) */
    /* While the Ports thread runs: held to add a sheet or find one by name (the Ports thread
     * adds the sheets after Ports while this one finds its parts made ahead); NULL without. */
    pthread_mutex_t *sheet_lock;
    int ports_thread;       /* this copy of the book is the Ports thread's (the sheet hook) */
    /* Set on the workbook thread while the Ports thread runs: every cell written must use a
     * format of the table numbered ahead (put_s, put_n and put_f check it), since the other
     * thread is the only one that may number formats meanwhile (xlsx_two_threads.c). */
    int formats_frozen;
    lxw_format *ahead[2 + FP_MEDIUM_COUNT * 3];     /* that table */
    int n_ahead;
    const lxw_format *ahead_hit;                    /* the entry the last check found */
} fp_xlsx_book;

/* What the Cables sheet will show, counted before it is written (the whole plan only). */
typedef struct fp_xlsx_cables_scan {
    int media[FP_MEDIUM_COUNT];     /* media in the order of their first cable */
    int n_media;
    int64_t rows, seg_rows;         /* data rows of Cables and of Segments */
} fp_xlsx_cables_scan;

/* A sheet that continues on "Name (2)", "Name (3)"... when it reaches max_rows data rows. */
typedef struct fp_xlsx_sheet {
    fp_xlsx_book *b;
    const char *base;
    const fp_xlsx_column *cols;
    int ncols;
    int print_cols;         /* columns on paper, from A (0 = all) */
    lxw_worksheet *ws;
    int part;
    lxw_row_t row;          /* last row written (0 = the header) */
    int full;               /* the next row starts the next part (fp_xlsx__sheet_reserve) */
} fp_xlsx_sheet;
/* ---- cells: remember the first error instead of checking every call ---- */

static inline void keep(fp_xlsx_book *b, lxw_error e)
{
    if (e != LXW_NO_ERROR && b->lerr == LXW_NO_ERROR)
        b->lerr = e;
}

/* The threading rule as code: while formats are frozen, a cell whose format is not in the
 * table numbered ahead would make libxlsxwriter number it, or look it up, in the workbook's
 * shared table on this thread while the Ports thread may insert into it: a data race. Such a
 * cell is not written; the book fails with an internal error naming the sheet's cell (the
 * format belongs in the table, xlsx_two_threads.c). Returns 1 when the cell may be written. */
int fp_xlsx__cell_format_ok(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                            const lxw_format *f);
static inline int cell_ok(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                          const lxw_format *f)
{
    return !b->formats_frozen || f == b->ahead_hit || fp_xlsx__cell_format_ok(b, ws, r, c, f);
}

static inline void put_s(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                         const char *s, lxw_format *f)
{
    if (!cell_ok(b, ws, r, c, f))
        return;
    if (s == NULL || s[0] == '\0') {
        if (f)
            keep(b, worksheet_write_blank(ws, r, c, f));
        return;
    }
    keep(b, worksheet_write_string(ws, r, c, s, f));
}

/* NaN or infinity would be written as a corrupt cell: leave the cell blank instead. */
static inline void put_n(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v,
                         lxw_format *f)
{
    if (!cell_ok(b, ws, r, c, f))
        return;
    if (!isfinite(v)) {
        if (f)
            keep(b, worksheet_write_blank(ws, r, c, f));
        return;
    }
    keep(b, worksheet_write_number(ws, r, c, v, f));
}

/* A formula with its value already computed, so readers that do not recalculate show it too. */
static inline void put_f(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                         const char *formula, double v, lxw_format *f)
{
    if (!cell_ok(b, ws, r, c, f))
        return;
    keep(b, worksheet_write_formula_num(ws, r, c, formula, f, isfinite(v) ? v : 0));
}

/* ---- scope ---- */

static inline int in_scope(const fp_xlsx_scope *sc, const fp_location *l)
{
    return (sc->hall == 0 || l->hall == sc->hall) && (sc->row == 0 || l->row == sc->row);
}

static inline int cable_in_scope(const fp_xlsx_scope *sc, const fp_cable_info *c)
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

/* The plan's name, or "fabplan" when it has none. */
static inline const char *plan_name(const fp_plan *plan)
{
    const char *n = fp__plan_rspec(plan)->name;
    return n[0] ? n : "fabplan";
}

/* ---- write_xlsx.c: sheets and racks ---- */

/* A new workbook at path in constant memory (zip64), its temporary files in path's folder
 * (tmpdir, n bytes, kept by the caller until the workbook is closed: /tmp may be a small tmpfs,
 * about 0.7 kB per row); path is created first so a folder that cannot take it fails quietly
 * with FP_EIO (libxlsxwriter would print). */
fp_status fp_xlsx__workbook_new(lxw_workbook **wb, const char *path, char *tmpdir, size_t n,
                                fp_error *err);
lxw_worksheet *fp_xlsx__add_sheet(fp_xlsx_book *b, const char *name);
/* Paper, margins, header (plan and sheet), footer (page X of Y), one page wide. */
void fp_xlsx__page_setup(fp_xlsx_book *b, lxw_worksheet *ws, int landscape);
void fp_xlsx__sheet_init(fp_xlsx_sheet *s, fp_xlsx_book *b, const char *base,
                         const fp_xlsx_column *cols, int ncols);
/* Row index for the next data row, opening the sheet or its continuation as needed
 * (0 when a sheet could not be added). */
lxw_row_t fp_xlsx__sheet_next(fp_xlsx_sheet *s);
/* Start the next part now when n more data rows would not fit in this one and fit in a
 * part of their own (a switch's ports stay on one sheet). */
void fp_xlsx__sheet_reserve(fp_xlsx_sheet *s, int64_t n);
/* Close the sheet (opening it first when it has no data rows: a header alone). */
void fp_xlsx__sheet_end(fp_xlsx_sheet *s);
/* Rack number of a location, -1 when unknown. */
int32_t fp_xlsx__rack_of(const fp_xlsx_rack_index *ri, const fp_location *l);
/* A part's sheet name into name (n bytes): "Cables" for part 1, "Cables (2)", ... after. */
void fp_xlsx__part_name(char *name, size_t n, const char *base, int part);
/* Lines text takes when wrapped at its spaces (a word longer than a line broken inside it) in a
 * column `width` characters wide. */
size_t fp_xlsx__wrapped_lines(const char *text, int width);
/* Give row r of ws the height of text's wrapped lines in a column `width` characters wide (15
 * points a line, at most max_lines): readers do not grow a row to fit wrapped text. A row of one
 * line keeps the default height. */
void fp_xlsx__fit_row(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, const char *text, int width,
                      size_t max_lines);
/* Tell the sheet hook (fp__xlsx_sheet_hook, tests) that sheet name gets its cells now. */
void fp_xlsx__sheet_started(const fp_xlsx_book *b, const char *name);
/* Racks, Rack elevation, Pull list, Optics and Trays, in sheet order, each while b->rc is FP_OK: on the
 * Ports thread after Ports when b->tail_apart, else on the workbook thread after Ports. */
void fp_xlsx__write_tail(fp_xlsx_book *b);

/* ---- xlsx_formats.c ---- */

/* Every style of the workbook into b's format fields, made in one fixed order (the order
 * numbers them in styles.xml). */
void fp_xlsx__make_formats(fp_xlsx_book *b);

/* ---- xlsx_two_threads.c: Ports and the sheets after it on a thread of their own ---- */

typedef struct fp_xlsx_ports_job fp_xlsx_ports_job;
/* Make every Cables, Segments and Ports sheet and number every format they share (*n_sheets:
 * how many sheets were made ahead, 0 when none), then start the Ports thread on a copy of b;
 * it writes the sheets after Ports too (b->tail_apart set) when this thread's formats all have
 * numbers of their own. NULL when there is no thread (Ports and the sheets after it are then
 * written on this thread, after Segments, still into the sheets made ahead if *n_sheets > 0). */
fp_xlsx_ports_job *fp_xlsx__ports_thread_start(fp_xlsx_book *b, const fp_xlsx_cables_scan *cs,
                                               int *n_sheets);
/* Join the Ports thread, take its errors and counts into b, check every sheet made ahead was
 * used, and free j. */
void fp_xlsx__ports_thread_join(fp_xlsx_book *b, fp_xlsx_ports_job *j, int n_sheets);

/* ---- the sheets, in the order write_book calls them ---- */

void fp_xlsx__write_bom(fp_xlsx_book *b);           /* xlsx_bom.c */
void fp_xlsx__write_cables(fp_xlsx_book *b);        /* xlsx_cables.c */
/* Every cable's id into b->cable_id, and what cables_scan says; -1 with b->rc set on failure. */
int fp_xlsx__cables_scan(fp_xlsx_book *b, fp_xlsx_cables_scan *out);
/* xlsx_ports.c. With two jobs Ports and the sheets after it (fp_xlsx__write_tail) are written
 * on a thread of their own while Cables and Segments are written (xlsx_two_threads.c): the
 * Cables and Segments sheets may then use only the formats numbered ahead there, and no sheet
 * may add a sheet before its own (test write_xlsx/ports_thread_writes_the_same_bytes). */
void fp_xlsx__write_ports(fp_xlsx_book *b);
void fp_xlsx__write_racks(fp_xlsx_book *b);         /* xlsx_racks.c */
void fp_xlsx__write_pull_list(fp_xlsx_book *b);     /* xlsx_cables.c */
/* xlsx_optics.c: every transceiver, by rack and device (runs of cages per module part). */
void fp_xlsx__write_optics(fp_xlsx_book *b);
/* The whole plan's cables for the Pull list into b->pulls, apart from the Cables sheet (with
 * b->tail_apart, on the Ports thread); -1 with b->rc set on failure. xlsx_cables.c */
int fp_xlsx__gather_pulls(fp_xlsx_book *b);
void fp_xlsx__write_segments(fp_xlsx_book *b);      /* xlsx_cables.c: structured cabling only */
void fp_xlsx__write_trays(fp_xlsx_book *b);         /* xlsx_racks.c */
void fp_xlsx__write_summary(fp_xlsx_book *b, lxw_worksheet *ws);    /* xlsx_bom.c */
/* xlsx_net_cables.c: with spec `networks`, their cables in scope (nothing without); the last
 * sheet of fp_xlsx__write_tail (on the Ports thread when there is one). */
void fp_xlsx__write_net_cables(fp_xlsx_book *b);
/* xlsx_cables.c: the Cables sheet's columns into out, cables.csv's columns (the schema of
 * cable_columns.c) arranged for the crew with four sign-off boxes; with network the Network
 * cables sheet's, a Network column after the id. Returns their count (one less without
 * network). */
#define FP_XLSX_CABLE_COLS 27
int fp_xlsx__cable_columns(fp_xlsx_column out[FP_XLSX_CABLE_COLS], int network);
/* xlsx_cables.c: cable c's row r as the Cables sheet writes it; with `network` (not NULL) a
 * Network column after the id (the Network cables sheet), the other columns one to the right. */
void fp_xlsx__cable_row(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, const fp_cable_info *c,
                        const char *network);

#endif
