/* fabplan — verify.xlsx, the installer's sheet: a Fix list of every row that needs work (neither
 * ok nor not yet due), one per wrong link with its fix, sorted by hall, row, rack and U of the
 * end to put right (the walk a crew makes), a Done column to tick; and a Summary of the counts.
 * Printed as the plan's workbook prints (landscape, one page wide, the header row repeated, the
 * sheet named in the page header, "page X of Y" below). */
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>
#include "fabplan.h"
#include "verify/verify.h"
#include "write/worklist.h"

typedef struct fix_row {
    fp_vf_end at;
    int64_t row;
} fix_row;

static int num(const char *s)
{
    return s && *s ? atoi(s) : 0;
}

static int cmp_fix(const void *x, const void *y)
{
    const fix_row *a = x, *b = y;
    for (int c = 0; c < 4; c++) {
        int u = num(a->at.loc[c]), w = num(b->at.loc[c]);
        if (u != w)
            return u < w ? -1 : 1;
    }
    int d = strcmp(a->at.device, b->at.device);
    if (d != 0)
        return d;
    return (a->row > b->row) - (a->row < b->row);
}

/* The Fix list goes through the work-list writer (write/worklist.h, as fp_worklist_write_xlsx
 * and diff's relabel.xlsx); the Summary sheet follows it in the same workbook. */
fp_status fp__vf_write_xlsx(const fp_verify *v, const char *path, fp_error *err)
{
    static const fp_worklist_column cols[] = {
        { "Hall", 5, 1, 0 }, { "Row", 5, 1, 0 }, { "Rack", 5, 1, 0 }, { "U", 5, 1, 0 },
        { "Device", 16, 0, 0 }, { "Port", 9, 0, 0 }, { "Status", 14, 0, 0 }, { "Cable", 10, 0, 0 },
        { "Fix", 60, 0, 1 }, { "Label", 36, 0, 1 },
    };
    enum { N_COL = sizeof cols / sizeof cols[0] };
    fix_row *fx = malloc(((size_t)v->n_row + 1) * sizeof *fx);
    if (fx == NULL)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    int64_t n = 0;
    for (int64_t i = 0; i < v->n_row; i++) {
        const fp_vf_row *r = &v->row[i];
        if (r->status == FP_VERIFY_OK || r->status == FP_VERIFY_NOT_YET)
            continue;
        fp__vf_work_end(v, r, &fx[n].at);
        fx[n++].row = i;
    }
    qsort(fx, (size_t)n, sizeof *fx, cmp_fix);

    char title[300];
    const char *pd = strrchr(v->plan_dir, '/');
    snprintf(title, sizeof title, "%.120s: verify", pd && pd[1] ? pd + 1 : v->plan_dir);
    fp__worklist wl;
    fp_status st = fp__worklist_open(&wl, path, title, err);
    if (st != FP_OK) {
        free(fx);
        return st;
    }
    lxw_worksheet *ws = fp__worklist_sheet(&wl, "Fix list", cols, N_COL);
    for (int64_t i = 0; i < n; i++) {
        const fp_vf_row *r = &v->row[fx[i].row];
        const fp_vf_plink *p = r->plink >= 0 ? &v->plink[r->plink] : NULL;
        char fix[768];
        fp__vf_fix_text(fix, sizeof fix, v, r);
        /* the label on the cable at the end to work on */
        const char *label = p == NULL ? ""
                            : strcmp(fx[i].at.device, p->z.device) == 0 &&
                              strcmp(fx[i].at.port, p->z.port) == 0 ? p->label_z : p->label_a;
        const char *cells[N_COL] = { fx[i].at.loc[0], fx[i].at.loc[1], fx[i].at.loc[2],
                                     fx[i].at.loc[3], fx[i].at.device, fx[i].at.port,
                                     fp_verify_status_name(r->status), p ? p->cable : "", fix,
                                     label };
        fp__worklist_row(&wl, ws, cols, N_COL, cells, (lxw_row_t)(i + 1));
    }
    fp__worklist_filter(&wl, ws, (size_t)n, N_COL);

    lxw_worksheet *sum = workbook_add_worksheet(wl.wb, "Summary");
    fp__worklist_page_setup(sum, &wl.le, title);
    fp__lxw_keep(&wl.le, worksheet_set_column(sum, 0, 0, 18, NULL));
    fp__lxw_keep(&wl.le, worksheet_set_column(sum, 1, 1, 12, NULL));
    fp__lxw_keep(&wl.le, worksheet_write_string(sum, 0, 0, "Status", wl.header));
    fp__lxw_keep(&wl.le, worksheet_write_string(sum, 0, 1, "Rows", wl.header));
    for (int s = 0; s < FP_VERIFY_N_STATUS; s++) {
        fp__lxw_keep(&wl.le, worksheet_write_string(sum, (lxw_row_t)(s + 1), 0,
                                                    fp_verify_status_name((fp_verify_status)s), wl.text));
        fp__lxw_keep(&wl.le, worksheet_write_number(sum, (lxw_row_t)(s + 1), 1, (double)v->count[s],
                                                    wl.text));
    }
    lxw_row_t y = FP_VERIFY_N_STATUS + 2;
    fp__lxw_keep(&wl.le, worksheet_write_string(sum, y, 0, "Plan", wl.bold));
    fp__lxw_keep(&wl.le, worksheet_write_string(sum, y++, 1, v->plan_dir, wl.text));
    fp__lxw_keep(&wl.le, worksheet_write_string(sum, y, 0, "Discovery", wl.bold));
    fp__lxw_keep(&wl.le, worksheet_write_string(sum, y++, 1, v->discovery, wl.text));
    fp__lxw_keep(&wl.le, worksheet_write_string(sum, y, 0, "Fixes", wl.bold));
    fp__lxw_keep(&wl.le, worksheet_write_number(sum, y, 1, (double)n, wl.text));
    free(fx);
    return fp__worklist_close(&wl, path, err);
}
