/* fabplan — private: the page of a printed work list (relabel.xlsx, verify.xlsx), one setup
 * for every workbook that is a list a crew works down and signs off. */
#ifndef FP_PRIVATE_WRITE_WORKLIST_H
#define FP_PRIVATE_WRITE_WORKLIST_H

#include <xlsxwriter.h>
#include "fabplan/write.h"

/* *first = e unless an error is already kept there (a workbook reports its first error). */
void fp__lxw_keep(lxw_error *first, lxw_error e);
/* Landscape A4 (as plan.xlsx by default), narrow margins, title (at most 200 characters; an '&',
 * which starts a header code, printed as '+') and the sheet's name in the header, fabplan's
 * version and "page N of M" in the footer, one page wide, the first row repeated and frozen. */
void fp__worklist_page_setup(lxw_worksheet *ws, lxw_error *first, const char *title);

/* A work-list workbook being written: fp_worklist_write_xlsx is open, one sheet, close;
 * verify.xlsx adds its Summary sheet between them. */
typedef struct fp__worklist {
    lxw_workbook *wb;
    lxw_error le;               /* the first libxlsxwriter error */
    lxw_format *header, *text, *number, *wrap, *box, *bold;
    char title[300];
    char tmpdir[4096];
} fp__worklist;
/* Create the workbook at path (its temporary files in path's folder) with the document title
 * and the formats. FP_EIO (cannot write path). */
fp_status fp__worklist_open(fp__worklist *wl, const char *path, const char *title, fp_error *err);
/* A sheet of the work list: the page set up, the columns' titles and widths, a last column
 * "Done"; NULL when sheet cannot name a sheet. Then each row (y from 1) by fp__worklist_row,
 * and fp__worklist_filter over the n_rows written. */
lxw_worksheet *fp__worklist_sheet(fp__worklist *wl, const char *sheet, const fp_worklist_column *cols,
                                  size_t n_cols);
/* Row y's cells (cell[c] "" or NULL: empty; a number column's as a number), an empty box under
 * Done, and the row as high as its longest wrapped cell. */
void fp__worklist_row(fp__worklist *wl, lxw_worksheet *ws, const fp_worklist_column *cols,
                      size_t n_cols, const char *const *cell, lxw_row_t y);
void fp__worklist_filter(fp__worklist *wl, lxw_worksheet *ws, size_t n_rows, size_t n_cols);
/* Close and write the workbook: FP_EIO (FP_ENOMEM) with the first error kept. */
fp_status fp__worklist_close(fp__worklist *wl, const char *path, fp_error *err);

#endif
