/* Benchmark floors: what writing the same rows costs without fabplan, so bench/run can say how
 * far each writer is from the bare minimum.
 *   bench_floor csv  OUTDIR FILE...   every row of each FILE (a CSV fabplan wrote), read into
 *                                     memory first, written back with one fputs per row into
 *                                     OUTDIR and fsynced (fabplan fsyncs its outputs too)
 *   bench_floor xlsx OUTDIR FILE      the cells of FILE (fields that read as numbers written as
 *                                     numbers, the rest as strings) into one workbook with
 *                                     libxlsxwriter in constant-memory mode, as plan.xlsx is
 *                                     written, a new sheet every 1,048,575 rows
 * Prints "<seconds> s <rows> rows <cells> cells" for the writing alone (reading excluded). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xlsxwriter.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The whole file, NUL-terminated; NULL when unreadable. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        fclose(f);
        return NULL;
    }
    b[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* Rows of text: each line NUL-terminated in place (newline kept out), pointers in *rows. */
static size_t split_rows(char *text, size_t len, char ***rows)
{
    size_t n = 0, cap = 1024;
    char **r = malloc(cap * sizeof *r);
    for (size_t i = 0; i < len && r;) {
        if (n == cap) {
            char **g = realloc(r, (cap *= 2) * sizeof *g);
            if (g == NULL) {
                free(r);
                return 0;
            }
            r = g;
        }
        r[n++] = text + i;
        char *e = memchr(text + i, '\n', len - i);
        if (e == NULL)
            break;
        *e = '\0';
        i = (size_t)(e - text) + 1;
    }
    *rows = r;
    return r ? n : 0;
}

static int floor_csv(const char *outdir, int nfiles, char **files)
{
    char **text = calloc((size_t)nfiles, sizeof *text), ***rows = calloc((size_t)nfiles, sizeof *rows);
    size_t *nrows = calloc((size_t)nfiles, sizeof *nrows), total = 0;
    if (text == NULL || rows == NULL || nrows == NULL)
        return 1;
    for (int i = 0; i < nfiles; i++) {
        size_t len;
        if ((text[i] = slurp(files[i], &len)) == NULL) {
            fprintf(stderr, "bench_floor: cannot read %s\n", files[i]);
            return 1;
        }
        nrows[i] = split_rows(text[i], len, &rows[i]);
        total += nrows[i];
    }
    double t0 = now();
    for (int i = 0; i < nfiles; i++) {
        char path[4096];
        const char *base = strrchr(files[i], '/');
        snprintf(path, sizeof path, "%s/%s", outdir, base ? base + 1 : files[i]);
        FILE *f = fopen(path, "w");
        if (f == NULL) {
            fprintf(stderr, "bench_floor: %s: %s\n", path, strerror(errno));
            return 1;
        }
        for (size_t r = 0; r < nrows[i]; r++) {
            fputs(rows[i][r], f);
            fputc('\n', f);
        }
        if (fflush(f) != 0 || fsync(fileno(f)) != 0 || fclose(f) != 0) {
            fprintf(stderr, "bench_floor: writing %s failed\n", path);
            return 1;
        }
    }
    printf("%.3f s %zu rows\n", now() - t0, total);
    for (int i = 0; i < nfiles; i++) {
        free(text[i]);
        free(rows[i]);
    }
    free(text);
    free(rows);
    free(nrows);
    return 0;
}

/* Next CSV field of *p (quotes undone into buf, n bytes); *p moves past its comma. Returns 0 at
 * the end of the row. */
static int next_field(const char **p, char *buf, size_t n, int *more)
{
    const char *s = *p;
    size_t k = 0;
    if (*s == '"') {
        for (s++; *s && !(s[0] == '"' && s[1] != '"'); s++) {
            if (s[0] == '"')
                s++;
            if (k + 1 < n)
                buf[k++] = *s;
        }
        if (*s == '"')
            s++;
    } else {
        for (; *s && *s != ','; s++)
            if (k + 1 < n)
                buf[k++] = *s;
    }
    buf[k] = '\0';
    *more = *s == ',';
    *p = *s == ',' ? s + 1 : s;
    return 1;
}

static int floor_xlsx(const char *outdir, const char *file)
{
    size_t len, cells = 0;
    char *text = slurp(file, &len), **rows = NULL, path[4096], field[1024];
    if (text == NULL) {
        fprintf(stderr, "bench_floor: cannot read %s\n", file);
        return 1;
    }
    size_t n = split_rows(text, len, &rows);
    snprintf(path, sizeof path, "%s/floor.xlsx", outdir);
    double t0 = now();
    lxw_workbook_options opt = { .constant_memory = LXW_TRUE, .tmpdir = (char *)outdir };
    lxw_workbook *wb = workbook_new_opt(path, &opt);
    lxw_worksheet *ws = NULL;
    if (wb == NULL)
        return 1;
    for (size_t r = 0; r < n; r++) {
        if (r % (LXW_ROW_MAX - 1) == 0) {
            char name[32];
            snprintf(name, sizeof name, "Rows %zu", r / (LXW_ROW_MAX - 1) + 1);
            ws = workbook_add_worksheet(wb, name);
        }
        const char *p = rows[r];
        lxw_row_t row = (lxw_row_t)(r % (LXW_ROW_MAX - 1));
        int more = 1;
        for (lxw_col_t c = 0; more; c++) {
            next_field(&p, field, sizeof field, &more);
            char *end;
            double v = strtod(field, &end);
            if (field[0] && *end == '\0' && r > 0)
                worksheet_write_number(ws, row, c, v, NULL);
            else
                worksheet_write_string(ws, row, c, field, NULL);
            cells++;
        }
    }
    lxw_error e = workbook_close(wb);
    if (e != LXW_NO_ERROR) {
        fprintf(stderr, "bench_floor: %s\n", lxw_strerror(e));
        return 1;
    }
    printf("%.3f s %zu rows %zu cells\n", now() - t0, n, cells);
    free(rows);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "csv") == 0)
        return floor_csv(argv[2], argc - 3, argv + 3);
    if (argc == 4 && strcmp(argv[1], "xlsx") == 0)
        return floor_xlsx(argv[2], argv[3]);
    fprintf(stderr, "usage: bench_floor csv OUTDIR FILE... | bench_floor xlsx OUTDIR FILE\n");
    return 2;
}
