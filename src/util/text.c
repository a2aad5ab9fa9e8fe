/* fabplan — fast text for the per-link and per-cable documents.
 *
 * At full scale links.csv, cables.csv, labels.csv, netbox-cables.csv, topology.csv and the
 * workbook each print half a million rows, and printf-family formatting of names derived from
 * ids was most of their cost. So: integers are written by hand, and rows are assembled in a
 * plain buffer (fp_outbuf) handed to stdio in large blocks; device names and location texts are
 * formatted once per plan by the phys stage (phys/name_table.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/text.h"

size_t fp__put_uint(char *p, uint64_t v)
{
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

size_t fp__put_uint_w(char *p, uint64_t v, int width)
{
    char tmp[20];
    size_t n = fp__put_uint(tmp, v), pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
    memset(p, '0', pad);
    memcpy(p + pad, tmp, n);
    return pad + n;
}

size_t fp__put_int(char *p, int64_t v)
{
    if (v >= 0)
        return fp__put_uint(p, (uint64_t)v);
    p[0] = '-';
    return 1 + fp__put_uint(p + 1, (uint64_t)0 - (uint64_t)v);
}

size_t fp__copy_str(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    if (n == 0)
        return len;
    size_t k = len < n - 1 ? len : n - 1;
    memcpy(dst, src, k);
    dst[k] = '\0';
    return len;
}

size_t fp__put_fixed2(char *p, double v)
{
    double h = v * 100.0;
    if (!signbit(v) && v < 1e12) {
        long long k = llround(h);
        /* Hand-formatted only where "%.2f" must print k/100: v is within a hair of it. */
        if (fabs(h - (double)k) < 1e-6) {
            size_t n = fp__put_uint(p, (uint64_t)(k / 100));
            p[n++] = '.';
            p[n++] = (char)('0' + k % 100 / 10);
            p[n++] = (char)('0' + k % 10);
            return n;
        }
    }
    return (size_t)snprintf(p, 32, "%.2f", v);
}

const char *fp__memo_format(fp_num_memo *m, const char *fmt, double v, size_t *len)
{
    if (!m->valid || memcmp(&m->v, &v, sizeof v) != 0) {
        m->len = (size_t)snprintf(m->text, sizeof m->text, fmt, v);
        if (m->len >= sizeof m->text)
            m->len = sizeof m->text - 1;
        m->v = v;
        m->valid = 1;
    }
    if (len)
        *len = m->len;
    return m->text;
}

/* ---- buffered output ---- */

void fp__outbuf_init(fp_outbuf *b, FILE *f)
{
    b->f = f;
    b->n = 0;
}

fp_status fp__outbuf_open(fp_outbuf **out, const char *path, const char *header, fp_error *err)
{
    FILE *f = fp__create(path, err);
    *out = NULL;
    if (f == NULL)
        return FP_EIO;
    fp_outbuf *ob = fp__malloc(sizeof *ob);
    if (ob == NULL) {
        fclose(f);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    }
    fp__outbuf_init(ob, f);
    if (header)
        fp__outbuf_str(ob, header);
    *out = ob;
    return FP_OK;
}

fp_status fp__outbuf_close(fp_outbuf *ob, const char *path, fp_status rc, fp_error *err)
{
    FILE *f = ob->f;
    fp__outbuf_flush(ob);
    free(ob);
    if (rc != FP_OK) {
        fclose(f);
        return rc;
    }
    return fp__close_written(f, path, err);
}

void fp__outbuf_flush(fp_outbuf *b)
{
    if (b->n)
        fwrite(b->buf, 1, b->n, b->f);
    b->n = 0;
}

void fp__outbuf_put(fp_outbuf *b, const char *s, size_t len)
{
    if (b->n + len > sizeof b->buf) {
        fp__outbuf_flush(b);
        if (len > sizeof b->buf) {
            fwrite(s, 1, len, b->f);
            return;
        }
    }
    memcpy(b->buf + b->n, s, len);
    b->n += len;
}

/* ---- CSV cells: the one rule every CSV the program writes follows ---- */

/* A number as a spreadsheet reads one: [+-]digits[.digits][(e|E)[+-]digits]. A cell that is
 * one is a number, not a formula, even with a leading sign. */
static int csv_number(const char *s, size_t n)
{
    size_t i = 0, d = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        d++;
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            d++;
    if (d == 0)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t e = 0;
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            e++;
        if (e == 0)
            return 0;
    }
    return i == n;
}

/* The bytes a plain cell cannot hold (and the NUL that ends a text). */
static const unsigned char csv_special[256] = {
    [0] = 1, [','] = 1, ['"'] = 1, ['\n'] = 1, ['\r'] = 1
};

int fp__csv_formula(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    char c = s[0];
    return (c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r') &&
           !csv_number(s, n);
}

int fp__csv_plain(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != '\0' && csv_special[(unsigned char)s[i]])
            return 0;
    return !fp__csv_formula(s, n);
}

void fp__csv_cell(fp_csv_put put, void *ctx, const char *s, size_t n)
{
    if (fp__csv_plain(s, n)) {
        put(ctx, s, n);
        return;
    }
    /* Quoted, inner quotes doubled (RFC 4180); text a spreadsheet would run as a formula gets
     * a leading apostrophe inside the quotes (the OWASP rule), so it is shown as text. */
    put(ctx, fp__csv_formula(s, n) ? "\"'" : "\"", fp__csv_formula(s, n) ? 2 : 1);
    size_t from = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '"') {
            put(ctx, s + from, i + 1 - from);
            from = i;
        }
    put(ctx, s + from, n - from);
    put(ctx, "\"", 1);
}

static void put_outbuf(void *ctx, const char *s, size_t n)
{
    fp__outbuf_put(ctx, s, n);
}

void fp__outbuf_csv_n(fp_outbuf *b, const char *s, size_t n)
{
    if (fp__csv_plain(s, n))
        fp__outbuf_put(b, s, n);
    else
        fp__csv_cell(put_outbuf, b, s, n);
}

void fp__outbuf_csv(fp_outbuf *b, const char *s)
{
    /* one pass for the length and the plain test, the common case */
    size_t n = 0;
    while (!csv_special[(unsigned char)s[n]])
        n++;
    if (s[n] == '\0' && !fp__csv_formula(s, n))
        fp__outbuf_put(b, s, n);
    else
        fp__outbuf_csv_n(b, s, n + strlen(s + n));
}

void fp__csv_row(fp_outbuf *b, const char *const *fields, size_t n, int plain)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            fp__outbuf_char(b, ',');
        if (plain)
            fp__outbuf_str(b, fields[i]);
        else
            fp__outbuf_csv(b, fields[i]);
    }
    fp__outbuf_char(b, '\n');
}

static void put_file(void *ctx, const char *s, size_t n)
{
    fwrite(s, 1, n, ctx);
}

void fp__csv_field(FILE *f, const char *s)
{
    fp__csv_cell(put_file, f, s, strlen(s));
}

const char *fp_ratio_text(double ratio, char *buf, size_t n)
{
    /* The smallest q with ratio x q a whole number p: reduced by construction (a common
     * factor of p and q would give a smaller q first). Ratios come from integer port counts
     * times speeds or from a spec's "a:b", so the product is whole up to rounding. */
    if (buf == NULL)
        return NULL;
    if (isfinite(ratio) && ratio > 0 && ratio < 1e6)
        for (int q = 1; q <= 256; q++) {
            double p = ratio * q, r = floor(p + 0.5);
            if (r >= 1 && fabs(p - r) <= 1e-9 * r) {
                snprintf(buf, n, "%.0f:%d", r, q);
                return buf;
            }
        }
    /* Four significant digits: "0.9965:1", not the six of %g ("0.996492:1", issue 27). */
    snprintf(buf, n, "%.4g:1", ratio);
    return buf;
}

/* raw ("-16384", "5529600.40") into buf with a comma between each three integer digits. */
static const char *group_digits(char *buf, size_t n, const char *raw)
{
    const char *dot = strchr(raw, '.');
    size_t ilen = dot ? (size_t)(dot - raw) : strlen(raw), k = 0, start = raw[0] == '-';
    if (n == 0)
        return buf;
    for (size_t i = 0; raw[i]; i++) {
        int comma = i > start && i < ilen && (ilen - i) % 3 == 0;
        if (k + (size_t)comma + 1 >= n)
            break;
        if (comma)
            buf[k++] = ',';
        buf[k++] = raw[i];
    }
    buf[k] = '\0';
    return buf;
}

const char *fp_grouped_text(double v, int decimals, char *buf, size_t n)
{
    if (buf == NULL)
        return NULL;
    char raw[352];
    snprintf(raw, sizeof raw, "%.*f", decimals < 0 ? 0 : decimals > 20 ? 20 : decimals, v);
    return group_digits(buf, n, raw);
}

const char *fp__grouped_int(char *buf, size_t n, int64_t v)
{
    char raw[24];
    snprintf(raw, sizeof raw, "%lld", (long long)v);
    return group_digits(buf, n, raw);
}
