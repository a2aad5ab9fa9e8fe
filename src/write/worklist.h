/* fabplan — private: the page of a printed work list (relabel.xlsx, verify.xlsx), one setup
 * for every workbook that is a list a crew works down and signs off. */
#ifndef FP_PRIVATE_WRITE_WORKLIST_H
#define FP_PRIVATE_WRITE_WORKLIST_H

#include <xlsxwriter.h>

/* *first = e unless an error is already kept there (a workbook reports its first error). */
void fp__lxw_keep(lxw_error *first, lxw_error e);
/* Landscape A4 (as plan.xlsx by default), narrow margins, title (at most 200 characters; an '&',
 * which starts a header code, printed as '+') and the sheet's name in the header, fabplan's
 * version and "page N of M" in the footer, one page wide, the first row repeated and frozen. */
void fp__worklist_page_setup(lxw_worksheet *ws, lxw_error *first, const char *title);

#endif
