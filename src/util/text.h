/* fabplan — private: fast text for the per-link and per-cable documents (text.c): integers and
 * fixed-point numbers written by hand, and a row buffer handed to stdio in large blocks. */
#ifndef FP_PRIVATE_UTIL_TEXT_H
#define FP_PRIVATE_UTIL_TEXT_H

#include "util/util.h"

/* Decimal digits of v at p (no NUL); returns how many. p needs 20 bytes. */
size_t fp__put_uint(char *p, uint64_t v);
/* As fp__put_uint, zero-padded to width digits like printf's "%0*llu". p needs max(20, width). */
size_t fp__put_uint_w(char *p, uint64_t v, int width);
/* As fp__put_uint with a leading '-' for negatives. p needs 21 bytes. */
size_t fp__put_int(char *p, int64_t v);
/* snprintf(dst, n, "%s", src) without the format parser: copies and truncates to fit; returns
 * strlen(src). */
size_t fp__copy_str(char *dst, size_t n, const char *src);

/* fp_grouped_text (public, plan.h) of an integer, exact beyond 2^53. */
const char *fp__grouped_int(char *buf, size_t n, int64_t v);

/* printf's "%.2f" of v (p needs 32 bytes); hand-written for the usual case of a non-negative
 * value already rounded to hundredths (cable routes), snprintf otherwise. Returns the length. */
size_t fp__put_fixed2(char *p, double v);
/* The last number formatted for one column, reused while the value repeats (stock lengths take
 * a handful of values over half a million rows). fmt takes one double. */
typedef struct fp_num_memo {
    double v;
    int valid;
    size_t len;
    char text[40];
} fp_num_memo;
const char *fp__memo_format(fp_num_memo *m, const char *fmt, double v, size_t *len);

/* Rows of a big CSV assembled here and passed to stdio a block at a time (stdio's per-call
 * locking and format parsing cost more than the bytes). fp__outbuf_flush before fclose. */
typedef struct fp_outbuf {
    FILE *f;
    size_t n;
    char buf[1 << 16];
} fp_outbuf;
void fp__outbuf_init(fp_outbuf *b, FILE *f);
/* Create path and a buffer for it, writing header (may be NULL) first. */
fp_status fp__outbuf_open(fp_outbuf **out, const char *path, const char *header, fp_error *err);
/* Flush, free and close; the result is rc when it is a failure, else the close's. */
fp_status fp__outbuf_close(fp_outbuf *ob, const char *path, fp_status rc, fp_error *err);
void fp__outbuf_flush(fp_outbuf *b);
void fp__outbuf_put(fp_outbuf *b, const char *s, size_t len);
/* ---- CSV cells (every CSV fabplan writes, docs/outputs.md "CSV cells") ----
 * A text cell is written as it is when it is plain; else it is quoted (inner quotes doubled,
 * RFC 4180) and, when a spreadsheet would run it as a formula, starts with an apostrophe inside
 * the quotes (OWASP's rule: text beginning with = + - @ TAB or CR). A number ("-12", "+1.5e3")
 * is not a formula and stays as it is. */
/* 1 when s (n bytes) is text a spreadsheet would read as a formula. */
int fp__csv_formula(const char *s, size_t n);
/* 1 when s (n bytes) is a cell as it is: no , " CR or LF and not a formula. */
int fp__csv_plain(const char *s, size_t n);
typedef void (*fp_csv_put)(void *ctx, const char *s, size_t n);
/* The one cell writer: s (n bytes) as one cell through put. */
void fp__csv_cell(fp_csv_put put, void *ctx, const char *s, size_t n);
/* s as one CSV cell into b (fp__csv_cell). */
void fp__outbuf_csv(fp_outbuf *b, const char *s);
void fp__outbuf_csv_n(fp_outbuf *b, const char *s, size_t n);
/* One CSV record: fields as cells separated by ',' and a '\n'. plain: every field is known to be
 * plain (fp__csv_plain), so none is scanned. */
void fp__csv_row(fp_outbuf *b, const char *const *fields, size_t n, int plain);
static inline void fp__outbuf_char(fp_outbuf *b, char c)
{
    if (b->n == sizeof b->buf)
        fp__outbuf_flush(b);
    b->buf[b->n++] = c;
}
static inline void fp__outbuf_str(fp_outbuf *b, const char *s)
{
    fp__outbuf_put(b, s, strlen(s));
}
static inline void fp__outbuf_int(fp_outbuf *b, int64_t v)
{
    char tmp[24];
    fp__outbuf_put(b, tmp, fp__put_int(tmp, v));
}

#endif
