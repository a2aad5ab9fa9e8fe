/* Test helpers: read an .xlsx back (unzip -p, then a small scan of the sheet XML) and CSV files.
 * Just enough XML for what libxlsxwriter writes: <row r="N"> elements holding <c r="B7" ...>
 * cells with an inline string (<is><t>), a number (<v>) or a formula (<f>) and its value. */
#ifndef FP_TEST_XLSX_READ_H
#define FP_TEST_XLSX_READ_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file that reads wider sheets (a Rack elevation with a column per rack) defines it larger
 * before including this header. */
#ifndef XL_MAX_COLS
#define XL_MAX_COLS 32
#endif
#define XL_CELL 4096

/* Whole output of a command (NULL on failure); the caller frees it. */
static inline char *xl_popen_read(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    size_t cap = 1 << 16, len = 0, got;
    char *buf = malloc(cap);
    if (p == NULL || buf == NULL) {
        free(buf);
        if (p)
            pclose(p);
        return NULL;
    }
    while ((got = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += got;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
            cr_assert_not_null(buf);
        }
    }
    buf[len] = '\0';
    if (pclose(p) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* One member of the zip, e.g. "xl/workbook.xml". Fails the test when missing. */
static inline char *xl_member(const char *xlsx, const char *member)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "unzip -p '%s' '%s' 2>/dev/null", xlsx, member);
    char *s = xl_popen_read(cmd);
    cr_assert_not_null(s, "%s: no member %s", xlsx, member);
    return s;
}

/* Decode the few XML entities libxlsxwriter writes. */
static inline void xl_unescape(char *s)
{
    static const struct { const char *ent; char c; } ents[] = {
        { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' }
    };
    char *w = s;
    for (const char *r = s; *r;) {
        int done = 0;
        for (size_t i = 0; i < sizeof ents / sizeof ents[0] && !done; i++) {
            size_t n = strlen(ents[i].ent);
            if (strncmp(r, ents[i].ent, n) == 0) {
                *w++ = ents[i].c;
                r += n;
                done = 1;
            }
        }
        if (!done)
            *w++ = *r++;
    }
    *w = '\0';
}

/* Sheet names in workbook order; returns how many. */
static inline int xl_sheet_names(const char *xlsx, char names[][32], int max)
{
    char *wb = xl_member(xlsx, "xl/workbook.xml");
    int n = 0;
    for (const char *p = wb; n < max && (p = strstr(p, "<sheet name=\"")) != NULL; n++) {
        p += strlen("<sheet name=\"");
        const char *e = strchr(p, '"');
        size_t len = (size_t)(e - p) < 31 ? (size_t)(e - p) : 31;
        memcpy(names[n], p, len);
        names[n][len] = '\0';
        xl_unescape(names[n]);
        p = e;
    }
    free(wb);
    return n;
}

/* XML of the i-th sheet (1-based, workbook order: libxlsxwriter names them sheetI.xml). */
static inline char *xl_sheet(const char *xlsx, int i)
{
    char member[64];
    snprintf(member, sizeof member, "xl/worksheets/sheet%d.xml", i);
    return xl_member(xlsx, member);
}

/* One parsed row: cell text by column (A = 0), formulas apart. */
typedef struct xl_row {
    long r;                             /* 1-based row number */
    double ht;                          /* the row's height in points, 0 when the default */
    char v[XL_MAX_COLS][XL_CELL];       /* value: string text, or number / cached formula value */
    char f[XL_MAX_COLS][96];            /* formula text without "=", "" when none */
    int present[XL_MAX_COLS];
    int style[XL_MAX_COLS];             /* the cell's s="N" (its format), 0 when none; blank
                                         * formatted cells have one too */
} xl_row;

static inline void xl_copy(char *dst, size_t n, const char *from, const char *to)
{
    size_t len = (size_t)(to - from) < n - 1 ? (size_t)(to - from) : n - 1;
    memcpy(dst, from, len);
    dst[len] = '\0';
    xl_unescape(dst);
}

/* needle in [p, end) (end NULL: to the string's end), else NULL. Every search inside a row or
 * a cell is bounded by it: an unbounded strstr for a tag the cell lacks ("<f>" in a sheet
 * without formulas) would scan the rest of the sheet for each cell. */
static inline const char *xl_find(const char *p, const char *end, const char *needle)
{
    if (end == NULL)
        return strstr(p, needle);
    size_t n = strlen(needle);
    for (const char *q = p; q + n <= end; q++) {
        q = memchr(q, needle[0], (size_t)(end - q));
        if (q == NULL || q + n > end)
            return NULL;
        if (memcmp(q, needle, n) == 0)
            return q;
    }
    return NULL;
}

/* Parse the row at or after *pos; advances *pos. Returns 0 at the end of the sheet. */
static inline int xl_next_row(const char **pos, xl_row *row)
{
    const char *p = strstr(*pos, "<row r=\"");
    if (p == NULL)
        return 0;
    /* Clear what a row holds (not all of its text buffers: a wide row is large). */
    for (int c = 0; c < XL_MAX_COLS; c++) {
        row->v[c][0] = row->f[c][0] = '\0';
        row->present[c] = row->style[c] = 0;
    }
    row->r = strtol(p + 8, NULL, 10);
    const char *gt = strchr(p, '>');
    const char *ht = xl_find(p, gt, " ht=\"");
    row->ht = ht ? strtod(ht + 5, NULL) : 0;
    if (gt[-1] == '/') {                /* <row .../> without cells */
        *pos = gt + 1;
        return 1;
    }
    const char *end = strstr(gt, "</row>");
    if (end == NULL) {
        *pos = gt + 1;
        return 1;
    }
    for (const char *c = gt; (c = xl_find(c, end, "<c r=\"")) != NULL;) {
        c += 6;
        int col = 0;
        while (*c >= 'A' && *c <= 'Z')
            col = col * 26 + (*c++ - 'A' + 1);
        col -= 1;
        const char *ce = strchr(c, '>');
        const char *st = xl_find(c, ce, " s=\"");
        if (st && col >= 0 && col < XL_MAX_COLS)
            row->style[col] = atoi(st + 4);
        if (ce[-1] == '/') {            /* <c r="B2" s="3"/>: blank, formatted (not present) */
            c = ce;
            continue;
        }
        const char *close = xl_find(ce, end, "</c>");
        if (close == NULL)
            break;
        if (col < 0 || col >= XL_MAX_COLS) {
            c = close;
            continue;
        }
        row->present[col] = 1;
        const char *t = xl_find(ce, close, "<t");
        const char *v = xl_find(ce, close, "<v>");
        const char *f = xl_find(ce, close, "<f>");
        if (f)
            xl_copy(row->f[col], sizeof row->f[col], f + 3, xl_find(f, close, "</f>"));
        if (t) {
            t = strchr(t, '>') + 1;
            xl_copy(row->v[col], XL_CELL, t, xl_find(t, close, "</t>"));
        } else if (v) {
            xl_copy(row->v[col], XL_CELL, v + 3, xl_find(v, close, "</v>"));
        }
        c = close;
    }
    *pos = end + 6;
    return 1;
}

/* Cell style s's <xf> in styles.xml's <cellXfs>, and the end of that list. */
static inline const char *xl_style_xf(const char *styles, int s, const char **end)
{
    const char *p = strstr(styles, "<cellXfs");
    cr_assert_not_null(p, "styles.xml: no <cellXfs>");
    *end = strstr(p, "</cellXfs>");
    for (int i = 0; i <= s; i++) {
        p = strstr(p + 1, "<xf ");
        cr_assert(p != NULL && p < *end, "styles.xml: no cell style %d", s);
    }
    return p;
}

/* The vertical alignment of cell style s (a cell's s="N") in styles.xml's text: "top",
 * "center", ... or "bottom" (the default when the style sets none). Returns a static string or
 * one into styles. */
static inline const char *xl_style_valign(const char *styles, int s, char *out, size_t n)
{
    const char *end, *p = xl_style_xf(styles, s, &end);
    const char *next = strstr(p + 1, "<xf ");
    const char *v = strstr(p, "vertical=\"");
    if (v == NULL || (next && v > next) || v > end)
        return "bottom";
    xl_copy(out, n, v + 10, strchr(v + 10, '"'));
    return out;
}

/* The number format code of cell style s: a custom <numFmt>'s formatCode, or one of the built-in
 * codes ECMA-376 numbers 0-4 ("General", "0", "0.00", "#,##0", "#,##0.00"); "?" for another
 * built-in. Returns a static string or out. */
static inline const char *xl_style_numfmt(const char *styles, int s, char *out, size_t n)
{
    static const char *const builtin[] = { "General", "0", "0.00", "#,##0", "#,##0.00" };
    const char *end, *p = xl_style_xf(styles, s, &end);
    const char *id = xl_find(p, strchr(p, '>'), "numFmtId=\"");
    int k = id ? atoi(id + 10) : 0;
    if (k < 5)
        return builtin[k];
    char want[40];
    snprintf(want, sizeof want, "<numFmt numFmtId=\"%d\"", k);
    const char *f = strstr(styles, want);
    const char *code = f ? strstr(f, "formatCode=\"") : NULL;
    if (code == NULL)
        return "?";
    xl_copy(out, n, code + 12, strchr(code + 12, '"'));
    xl_unescape(out);
    return out;
}

/* The Ports sheet as docs/outputs.md lays it out: a row is Device, Location, then three blocks
 * of Port, Far device, Far port, Cable ID with a gap column after each but the last; a switch's
 * ports run down the first block, then the second, then the third. */
#define XL_PORT_BLOCKS 3
typedef struct xl_port {
    const char *device, *location, *port, *far, *far_port, *cable;     /* into the row */
    int style;                          /* the Port cell's format */
} xl_port;

/* The ports of one data row of the Ports sheet into out (blocks with a port), their count. */
static inline int xl_ports_of_row(const xl_row *row, xl_port out[XL_PORT_BLOCKS])
{
    int n = 0;
    for (int k = 0; k < XL_PORT_BLOCKS; k++) {
        int c = 2 + 5 * k;
        if (row->v[c][0] == '\0')
            continue;
        out[n] = (xl_port){ row->v[0], row->v[1], row->v[c], row->v[c + 1], row->v[c + 2],
                            row->v[c + 3], row->style[c] };
        n++;
    }
    return n;
}

/* Number of <row> elements in a sheet. */
static inline long xl_count_rows(const char *xml)
{
    long n = 0;
    for (const char *p = xml; (p = strstr(p, "<row r=\"")) != NULL; p += 8)
        n++;
    return n;
}

/* ---- CSV (RFC 4180) ---- */

/* Split one line into fields in place; returns the count. Quoted fields may hold commas. */
static inline int csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *r = line, *w = line;
    while (n < max) {
        fields[n++] = w;
        if (*r == '"') {
            r++;
            for (;;) {
                if (*r == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else if (*r == '\0') {
                    break;
                } else {
                    *w++ = *r++;
                }
            }
        }
        while (*r && *r != ',' && *r != '\n' && *r != '\r')
            *w++ = *r++;
        if (*r != ',') {
            *w = '\0';
            break;
        }
        *w++ = '\0';
        r++;
    }
    return n;
}

/* Lines of a text file (the caller frees lines[0] block and the array). */
typedef struct csv_file {
    char *text;
    char **line;
    long n;
} csv_file;

static inline csv_file csv_load(const char *path)
{
    csv_file c = { 0 };
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    c.text = malloc((size_t)len + 1);
    cr_assert_eq(fread(c.text, 1, (size_t)len, f), (size_t)len);
    c.text[len] = '\0';
    fclose(f);
    long cap = 1024;
    c.line = malloc((size_t)cap * sizeof *c.line);
    for (char *p = c.text; *p;) {
        if (c.n == cap)
            c.line = realloc(c.line, (size_t)(cap *= 2) * sizeof *c.line);
        c.line[c.n++] = p;
        char *nl = strchr(p, '\n');
        if (nl == NULL)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    return c;
}

static inline void csv_free(csv_file *c)
{
    free(c->text);
    free(c->line);
}

#endif
