/* fabplan — server (host) names from the spec's cluster.server_names template.
 *
 * A template is literal text and fields in braces:
 *   "gpu-{su:02}-{n:02}"  -> gpu-01-01 .. gpu-01-32, gpu-02-01, ...
 *   "node-{i}"            -> node-0001 .. (the default of a fabric that is not rail-optimized)
 * Fields (1-based): {su} the scalable unit (fabric.su_servers servers each, in server order),
 * {n} the server within its unit, {i} the server in the whole cluster. A field is zero-padded:
 * "{su:02}" to 2 digits (":0" and a width of 1 to 47; ":01" pads nothing), "{su}" to the width
 * of the unit count of the design (fabric.build_for_gpus included), at least 2 - today's names.
 * "{{" and "}}" stand for a brace, which no host name may hold: they are parsed so that the
 * error says what is wrong. The result must be a host name as Slurm and Kubernetes take it: an
 * RFC 1123 label in lowercase (a-z, 0-9, '-', not first or last), 1 to FP_SERVER_NAME_MAX
 * characters. What needs the fabric (the longest name, two devices with one name) is checked
 * by fp__server_names_check (fabric/names.c) and fp__nets_check_names (fabric/networks.c).
 *
 * This file parses and expands; fp__device_name (names.c) is the one function that names a
 * server, with the numbers of its place in the fabric. */
#include <stdio.h>
#include <string.h>
#include "spec/resolved.h"
#include "util/text.h"

#define WHERE "/cluster/server_names"

static const char *const field_names[FP_HOST_FIELDS] = { "", "su", "n", "i" };

static int field_index(const char *s, size_t len)
{
    for (int i = 1; i < FP_HOST_FIELDS; i++)
        if (strlen(field_names[i]) == len && memcmp(field_names[i], s, len) == 0)
            return i;
    return -1;
}

/* Reason character c (at offset at) cannot be in a host name, or NULL when it can. */
static const char *bad_char(char c, char *why, size_t n, size_t at)
{
    unsigned char u = (unsigned char)c;
    if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-')
        return NULL;
    if (u >= 'A' && u <= 'Z')
        snprintf(why, n, "character '%c' at offset %zu is upper case; expected lowercase letters, "
                         "digits and '-' (Kubernetes node names are lowercase RFC 1123 labels)",
                 c, at);
    else if (u > 0x20 && u < 0x7f)
        snprintf(why, n, "character '%c' at offset %zu cannot be part of a host name; expected "
                         "lowercase letters, digits and '-' (an RFC 1123 label, as Slurm and "
                         "Kubernetes node names take them)", c, at);
    else
        snprintf(why, n, "byte 0x%02x at offset %zu cannot be part of a host name; expected "
                         "lowercase letters, digits and '-' (an RFC 1123 label, as Slurm and "
                         "Kubernetes node names take them)", u, at);
    return why;
}

static fp_status too_long(const char *src, size_t min_len, fp_error *err)
{
    FP_FAIL(err, FP_EINVAL, WHERE,
            WHERE ": \"%s\" makes names of at least %zu characters; expected at most %d (the "
                  "plan's device-name fields hold %d; Slurm takes 64, a DNS label 63)",
            src, min_len, FP_SERVER_NAME_MAX, FP_SERVER_NAME_MAX);
}

/* One literal character onto t (merged into the text part before it). */
static int add_char(fp_host_template *t, size_t *tl, char c)
{
    if (*tl >= FP_SERVER_NAME_MAX)
        return -1;
    fp_host_part *last = t->n_part > 0 ? &t->part[t->n_part - 1] : NULL;
    if (last == NULL || last->field != FP_HOST_TEXT) {
        if (t->n_part >= FP_SERVER_NAME_MAX)
            return -1;
        last = &t->part[t->n_part++];
        last->field = FP_HOST_TEXT;
        last->off = (uint8_t)*tl;
        last->len = 0;
    }
    t->text[(*tl)++] = c;
    last->len++;
    return 0;
}

/* The field "{...}" at s (the '{'), up to end (its '}'), into a part; 0 or 1 with why. */
static int add_field(fp_host_template *t, const char *s, const char *end, size_t at, char *why,
                     size_t n)
{
    const char *colon = memchr(s + 1, ':', (size_t)(end - s - 1));
    size_t nlen = (size_t)((colon ? colon : end) - s - 1);
    int f = field_index(s + 1, nlen);
    if (f < 0) {
        int floor_field = (nlen == 4 && memcmp(s + 1, "rack", 4) == 0) ||
                          (nlen == 3 && memcmp(s + 1, "row", 3) == 0) ||
                          (nlen == 4 && memcmp(s + 1, "hall", 4) == 0);
        snprintf(why, n, "unknown field \"%.*s\" at offset %zu; expected {su}, {n} or {i}%s",
                 (int)(end - s + 1), s, at,
                 floor_field ? " (names are made before the floor layout: a server's rack, row "
                               "and hall are not fields)" : "");
        return 1;
    }
    int w = 0;
    if (colon != NULL) {
        const char *d = colon + 1;
        size_t dl = (size_t)(end - d);
        int ok = dl >= 2 && dl <= 3 && d[0] == '0';
        for (size_t k = 1; ok && k < dl; k++)
            if (d[k] < '0' || d[k] > '9')
                ok = 0;
            else
                w = w * 10 + (d[k] - '0');
        if (!ok || w < 1 || w > FP_SERVER_NAME_MAX) {
            snprintf(why, n, "bad width \"%.*s\" in \"%.*s\" at offset %zu; expected \":0\" and a "
                             "width of 1 to %d digits, such as {%s:02} (zero-padded to 2)",
                     (int)dl + 1, colon, (int)(end - s + 1), s, at, FP_SERVER_NAME_MAX,
                     field_names[f]);
            return 1;
        }
    }
    if (t->n_part >= FP_SERVER_NAME_MAX)
        return -1;
    fp_host_part *p = &t->part[t->n_part++];
    p->field = (uint8_t)f;
    p->width = (uint8_t)w;
    p->off = p->len = 0;
    return 0;
}

fp_status fp__host_template_parse(fp_host_template *t, const char *s, fp_error *err)
{
    char why[320];
    size_t tl = 0;
    memset(t, 0, sizeof *t);
    t->given = 1;
    fp__copy_str(t->source, sizeof t->source, s);
    if (s[0] == '\0')
        FP_FAIL(err, FP_EINVAL, WHERE,
                WHERE ": expected a template such as \"gpu-{su:02}-{n:02}\", found an empty string");
    for (size_t k = 0; s[k];) {
        int r = 0;
        if ((s[k] == '{' && s[k + 1] == '{') || (s[k] == '}' && s[k + 1] == '}')) {
            snprintf(why, sizeof why, "\"%c%c\" at offset %zu is a literal '%c', which cannot be "
                     "part of a host name; expected lowercase letters, digits and '-' (an RFC "
                     "1123 label, as Slurm and Kubernetes node names take them)",
                     s[k], s[k], k, s[k]);
            r = 1;
        } else if (s[k] == '}') {
            snprintf(why, sizeof why, "\"}\" at offset %zu closes no field; expected a field "
                                      "such as {su:02} (\"}}\" is a literal brace)", k);
            r = 1;
        } else if (s[k] == '{') {
            const char *end = strchr(s + k, '}'), *open = strchr(s + k + 1, '{');
            if (end == NULL || (open != NULL && open < end)) {
                snprintf(why, sizeof why, "\"{\" at offset %zu is not closed by \"}\"; expected a "
                                          "field such as {su:02} (\"{{\" is a literal brace)", k);
                r = 1;
            } else if ((r = add_field(t, s + k, end, k, why, sizeof why)) == 0) {
                k = (size_t)(end - s) + 1;
                continue;
            }
        } else if (bad_char(s[k], why, sizeof why, k) != NULL) {
            r = 1;
        } else {
            r = add_char(t, &tl, s[k]);
            k++;
        }
        if (r > 0)
            FP_FAIL(err, FP_EINVAL, WHERE, WHERE ": %s", why);
        if (r < 0)
            return too_long(t->source, tl + (size_t)t->n_part, err);
    }
    t->text[tl] = '\0';
    /* The shortest names it can make: every field at least its width (auto: 2). */
    size_t min_len = 0;
    int fields = 0;
    for (int i = 0; i < t->n_part; i++) {
        const fp_host_part *p = &t->part[i];
        min_len += p->field == FP_HOST_TEXT ? p->len : p->width ? p->width : 2;
        fields += p->field != FP_HOST_TEXT;
    }
    if (fields == 0)
        FP_FAIL(err, FP_EINVAL, WHERE,
                WHERE ": \"%s\" has no field: every server would get the same name; expected "
                      "{su} and {n}, or {i}, such as \"gpu-{su:02}-{n:02}\"", t->source);
    if (t->text[0] == '-' && t->part[0].field == FP_HOST_TEXT)
        FP_FAIL(err, FP_EINVAL, WHERE,
                WHERE ": \"%s\" starts with '-'; expected a host name that starts with a letter "
                      "or digit (RFC 1123)", t->source);
    if (tl > 0 && t->text[tl - 1] == '-' && t->part[t->n_part - 1].field == FP_HOST_TEXT)
        FP_FAIL(err, FP_EINVAL, WHERE,
                WHERE ": \"%s\" ends with '-'; expected a host name that ends with a letter or "
                      "digit (RFC 1123)", t->source);
    if (min_len > FP_SERVER_NAME_MAX)
        return too_long(t->source, min_len, err);
    return FP_OK;
}

void fp__host_template_default(fp_host_template *t, int rail)
{
    /* Well formed by construction: parsing cannot fail. */
    (void)fp__host_template_parse(t, rail ? "su{su}-node-{n}" : "node-{i}", NULL);
    t->given = 0;
}

size_t fp__host_name(char *buf, size_t n, const fp_host_template *t, const int64_t *val,
                     const int *auto_w)
{
    char num[FP_SERVER_NAME_MAX + 24];
    size_t len = 0;
    for (int i = 0; i < t->n_part; i++) {
        const fp_host_part *p = &t->part[i];
        const char *s = t->text + p->off;
        size_t k = p->len;
        if (p->field != FP_HOST_TEXT) {
            int w = p->width ? p->width : auto_w[p->field];
            k = fp__put_uint_w(num, (uint64_t)(val[p->field] > 0 ? val[p->field] : 0), w);
            s = num;
        }
        if (n > 0 && len < n - 1)
            memcpy(buf + len, s, len + k < n - 1 ? k : n - 1 - len);
        len += k;
    }
    if (n > 0)
        buf[len < n - 1 ? len : n - 1] = '\0';
    return len;
}
