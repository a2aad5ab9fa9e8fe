/* Test helper: a small spreadsheet evaluator for the workbook's formulas, so a test can change an
 * input cell (a unit price, the GPU count) and recompute what depends on it, as Excel would.
 * Handles what fabplan writes: numbers, A1 references (optionally Sheet!A1), + - * / and
 * parentheses, SUBTOTAL(9, range) (which skips nested SUBTOTALs) and SUM(range). */
#ifndef FP_TEST_XLSX_EVAL_H
#define FP_TEST_XLSX_EVAL_H

#include <ctype.h>
#include <math.h>
#include "xlsx_read.h"

#define XE_MAX_CELLS 20000

typedef struct xe_cell {
    char sheet[32];
    long row;                   /* 1-based */
    int col;                    /* 0-based */
    double v;                   /* cached or overridden value */
    char f[96];                 /* formula without "=", "" for an input */
    int overridden;
} xe_cell;

typedef struct xe_book {
    xe_cell *cell;
    int n;
} xe_book;

/* Add every cell of a sheet's XML under the sheet's name. */
static inline void xe_load(xe_book *b, const char *sheet, const char *xml)
{
    static xl_row row;
    const char *pos = xml;
    if (b->cell == NULL)
        b->cell = calloc(XE_MAX_CELLS, sizeof *b->cell);
    while (xl_next_row(&pos, &row))
        for (int c = 0; c < XL_MAX_COLS; c++) {
            if (!row.present[c] || b->n >= XE_MAX_CELLS)
                continue;
            xe_cell *x = &b->cell[b->n++];
            snprintf(x->sheet, sizeof x->sheet, "%s", sheet);
            x->row = row.r;
            x->col = c;
            x->v = strtod(row.v[c], NULL);
            snprintf(x->f, sizeof x->f, "%s", row.f[c]);
        }
}

static inline xe_cell *xe_find(xe_book *b, const char *sheet, long row, int col)
{
    for (int i = 0; i < b->n; i++)
        if (b->cell[i].row == row && b->cell[i].col == col && strcmp(b->cell[i].sheet, sheet) == 0)
            return &b->cell[i];
    return NULL;
}

static inline double xe_value(xe_book *b, const char *sheet, long row, int col);

typedef struct xe_parse {
    xe_book *b;
    const char *sheet;          /* the sheet the formula is on */
    const char *p;
} xe_parse;

static inline double xe_expr(xe_parse *x);

/* [Sheet!]$A$1 -> sheet, row, col; returns 0 when *p is not a reference. */
static inline int xe_ref(xe_parse *x, char *sheet, long *row, int *col)
{
    const char *p = x->p, *bang = NULL;
    for (const char *q = p; isalnum((unsigned char)*q) || *q == '_' || *q == ' ' || *q == '!'; q++)
        if (*q == '!') {
            bang = q;
            break;
        }
    if (bang) {
        snprintf(sheet, 32, "%.*s", (int)(bang - p), p);
        p = bang + 1;
    } else {
        snprintf(sheet, 32, "%s", x->sheet);
    }
    if (*p == '$')
        p++;
    if (!isupper((unsigned char)*p))
        return 0;
    int c = 0;
    while (isupper((unsigned char)*p))
        c = c * 26 + (*p++ - 'A' + 1);
    if (*p == '$')
        p++;
    if (!isdigit((unsigned char)*p))
        return 0;
    *row = strtol(p, (char **)&p, 10);
    *col = c - 1;
    x->p = p;
    return 1;
}

/* SUBTOTAL(9,A1:A9) or SUM(A1:A9): the sum over the range (SUBTOTAL skips SUBTOTAL cells). */
static inline double xe_range_sum(xe_parse *x, int skip_subtotals)
{
    char s1[32], s2[32];
    long r1, r2;
    int c1, c2;
    cr_assert(xe_ref(x, s1, &r1, &c1), "range expected at %s", x->p);
    cr_assert_eq(*x->p, ':');
    x->p++;
    cr_assert(xe_ref(x, s2, &r2, &c2));
    double sum = 0;
    for (long r = r1; r <= r2; r++)
        for (int c = c1; c <= c2; c++) {
            xe_cell *cell = xe_find(x->b, s1, r, c);
            if (cell == NULL || (skip_subtotals && strncmp(cell->f, "SUBTOTAL", 8) == 0))
                continue;
            sum += xe_value(x->b, s1, r, c);
        }
    return sum;
}

static inline double xe_factor(xe_parse *x)
{
    while (*x->p == ' ')
        x->p++;
    if (*x->p == '(') {
        x->p++;
        double v = xe_expr(x);
        cr_assert_eq(*x->p, ')');
        x->p++;
        return v;
    }
    if (*x->p == '-') {
        x->p++;
        return -xe_factor(x);
    }
    if (isdigit((unsigned char)*x->p) || *x->p == '.')
        return strtod(x->p, (char **)&x->p);
    if (strncmp(x->p, "SUBTOTAL(9,", 11) == 0 || strncmp(x->p, "SUM(", 4) == 0) {
        int sub = x->p[1] == 'U' && x->p[2] == 'B';
        x->p += sub ? 11 : 4;
        double v = xe_range_sum(x, sub);
        cr_assert_eq(*x->p, ')');
        x->p++;
        return v;
    }
    char sheet[32];
    long row;
    int col;
    cr_assert(xe_ref(x, sheet, &row, &col), "cannot read formula at \"%s\"", x->p);
    return xe_value(x->b, sheet, row, col);
}

static inline double xe_term(xe_parse *x)
{
    double v = xe_factor(x);
    for (;;) {
        if (*x->p == '*') {
            x->p++;
            v *= xe_factor(x);
        } else if (*x->p == '/') {
            x->p++;
            v /= xe_factor(x);
        } else {
            return v;
        }
    }
}

static inline double xe_expr(xe_parse *x)
{
    double v = xe_term(x);
    for (;;) {
        if (*x->p == '+') {
            x->p++;
            v += xe_term(x);
        } else if (*x->p == '-') {
            x->p++;
            v -= xe_term(x);
        } else {
            return v;
        }
    }
}

/* A cell's value: an input's number, or its formula evaluated now (empty cells are 0). */
static inline double xe_value(xe_book *b, const char *sheet, long row, int col)
{
    xe_cell *c = xe_find(b, sheet, row, col);
    if (c == NULL)
        return 0;
    if (c->f[0] == '\0' || c->overridden)
        return c->v;
    xe_parse x = { b, sheet, c->f };
    double v = xe_expr(&x);
    cr_assert_eq(*x.p, '\0', "%s!%c%ld: unread \"%s\" in %s", sheet, 'A' + col, row, x.p, c->f);
    return v;
}

/* Set an input cell (it must exist and hold no formula). */
static inline void xe_set(xe_book *b, const char *sheet, long row, int col, double v)
{
    xe_cell *c = xe_find(b, sheet, row, col);
    cr_assert_not_null(c, "%s!%c%ld missing", sheet, 'A' + col, row);
    cr_assert_eq(c->f[0], '\0', "%s!%c%ld is a formula (%s), not an input", sheet, 'A' + col, row,
                 c->f);
    c->v = v;
    c->overridden = 1;
}

#endif
