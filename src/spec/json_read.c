/* fabplan — JSON reading helpers: syntax errors with line/column, typed members with pointers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <pthread.h>
#include "spec/json_read.h"

/* cJSON records the last error in one process-wide variable on every parse: one parse at a
 * time, so threads parsing specs, catalogs and presets do not race on it. */
static pthread_mutex_t cjson_lock = PTHREAD_MUTEX_INITIALIZER;

cJSON *fp__cjson_parse(const char *text, size_t len, const char **end)
{
    pthread_mutex_lock(&cjson_lock);
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, end, 1);
    pthread_mutex_unlock(&cjson_lock);
    return root;
}

/* Each key of every object at most once: cJSON keeps every copy of a repeated key and lookups
 * see only the first, so a second value would be silently ignored (in a catalog a second
 * "price", in an overrides file a second "cables"). ptr is the object's JSON pointer; depth is
 * bounded by the parse (FP_JSON_MAX_DEPTH). */
static int cmp_key(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

static fp_status check_unique_keys(const cJSON *v, char *ptr, size_t n, const char *origin,
                                   fp_error *err)
{
    size_t k = 0, at = strlen(ptr);
    const cJSON *it, *dup = NULL;
    if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
        return FP_OK;
    cJSON_ArrayForEach(it, v)
        k++;
    if (cJSON_IsObject(v) && k > 1 && k <= 16) {
        for (it = v->child; it && !dup; it = it->next)
            for (const cJSON *q = it->next; q && !dup; q = q->next)
                if (strcmp(it->string, q->string) == 0)
                    dup = q;
    } else if (cJSON_IsObject(v) && k > 16) {
        const cJSON **sorted = malloc(k * sizeof *sorted);
        if (sorted == NULL)
            FP_FAIL(err, FP_ENOMEM, origin, "out of memory parsing %s", origin);
        k = 0;
        cJSON_ArrayForEach(it, v)
            sorted[k++] = it;
        qsort(sorted, k, sizeof *sorted, cmp_key);
        for (size_t i = 1; i < k && !dup; i++)
            if (strcmp(sorted[i - 1]->string, sorted[i]->string) == 0)
                dup = sorted[i];
        free(sorted);
    }
    if (dup != NULL) {
        /* the pointer and the key with control characters shown as '?' (no terminal escape
         * from a hostile file reaches the user's terminal); err.where keeps the pointer */
        char p[512], shown[512], key[128];
        fp__json_ptr(p, sizeof p, ptr, dup->string);
        snprintf(key, sizeof key, "%s", dup->string);
        snprintf(shown, sizeof shown, "%s", p);
        for (char *c = shown; *c; c++)
            *c = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
        for (char *c = key; *c; c++)
            *c = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
        FP_FAIL(err, FP_EINVAL, p, "%s: %s: key \"%s\" appears more than once; expected each key "
                "once", origin, shown, key);
    }
    int i = 0;
    cJSON_ArrayForEach(it, v) {
        if (cJSON_IsObject(it) || cJSON_IsArray(it)) {
            if (cJSON_IsObject(v))
                fp__json_ptr(ptr + at, n - at, "", it->string);
            else
                fp__json_ptr_index(ptr + at, n - at, "", i);
            fp_status rc = check_unique_keys(it, ptr, n, origin, err);
            ptr[at] = '\0';
            if (rc != FP_OK)
                return rc;
        }
        i++;
    }
    return FP_OK;
}

/* 1-based line and column of offset off in text. */
static void line_col(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

fp_status fp__json_parse(cJSON **out, const char *text, size_t len, const char *origin,
                         fp_error *err)
{
    return fp__json_parse_quoted(out, text, len, origin, 1, err);
}

fp_status fp_json_check(const char *text, size_t len, const char *origin, int quote,
                        fp_error *err)
{
    cJSON *root = NULL;
    if (text == NULL || origin == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_json_check: %s is NULL", text == NULL ? "text" : "origin");
    fp_status rc = fp__json_parse_quoted(&root, text, len, origin, quote, err);
    cJSON_Delete(root);
    return rc;
}

fp_status fp__json_parse_quoted(cJSON **out, const char *text, size_t len, const char *origin,
                                int quote, fp_error *err)
{
    const char *end = NULL;
    cJSON *root;
    /* cJSON needs the terminating NUL inside the length when require_null_terminated is set;
     * copy so callers may pass unterminated buffers. */
    char *copy = malloc(len + 1);
    if (copy == NULL)
        FP_FAIL(err, FP_ENOMEM, origin, "out of memory parsing %s", origin);
    memcpy(copy, text, len);
    copy[len] = '\0';
    if (strlen(copy) != len) {
        size_t at = strlen(copy);
        free(copy);
        FP_FAIL(err, FP_EPARSE, origin, "%s: NUL byte at offset %zu; expected JSON text", origin, at);
    }
    /* One rule for every JSON string (keys, values, ids): no U+0000, raw (above) or escaped.
     * cJSON decodes "\u0000" into a NUL that ends the C string, so "a\u0000b" would read as
     * "a" and a key "gpus\u0000junk" as "gpus". Found in the text, outside strings' other
     * escapes: a backslash starts an escape only when not itself escaped. */
    for (size_t i = 0, in_str = 0, depth = 0; i < len; i++) {
        if (copy[i] == '"') {
            in_str = !in_str;
        } else if (!in_str && (copy[i] == '[' || copy[i] == '{') && ++depth > FP_JSON_MAX_DEPTH) {
            int line, col;
            line_col(copy, i, &line, &col);
            free(copy);
            fp__error_set(err, FP_EPARSE, origin, "%s:%d:%d: arrays and objects nested more than "
                          "%d deep; expected at most %d levels", origin, line, col,
                          FP_JSON_MAX_DEPTH, FP_JSON_MAX_DEPTH);
            if (err) {
                err->line = line;
                err->column = col;
            }
            return FP_EPARSE;
        } else if (!in_str && (copy[i] == ']' || copy[i] == '}') && depth > 0) {
            depth--;
        } else if (in_str && copy[i] == '\\' && i + 1 < len) {
            if (len - i >= 6 && copy[i + 1] == 'u' && copy[i + 2] == '0' && copy[i + 3] == '0' &&
                copy[i + 4] == '0' && copy[i + 5] == '0') {
                free(copy);
                FP_FAIL(err, FP_EPARSE, origin,
                        "%s: \\u0000 (a NUL character) in a string at offset %zu; expected "
                        "text without NUL", origin, i);
            }
            i++;    /* the escaped character */
        }
    }
    root = fp__cjson_parse(copy, len + 1, &end);
    if (root == NULL) {
        size_t off = end ? (size_t)(end - copy) : 0;
        /* cJSON reports the position after the offending token when whitespace follows it:
         * step back to the token so line and column point at what is wrong. */
        while (off > 0 && off < len && (copy[off] == ' ' || copy[off] == '\n' ||
                                        copy[off] == '\r' || copy[off] == '\t'))
            off--;
        int line, col;
        line_col(copy, off < len ? off : len, &line, &col);
        /* the text near the error, control characters shown as '?' (a terminal escape in a
         * hostile file must not reach the user's terminal) */
        char near[24] = "";
        size_t k = 0;
        for (size_t i = off; i < len && k < 16 && copy[i] != '\n'; i++)
            near[k++] = (unsigned char)copy[i] < 0x20 || copy[i] == 0x7f ? '?' : copy[i];
        near[k] = '\0';
        free(copy);
        if (off < len && !quote)
            fp__error_set(err, FP_EPARSE, origin, "%s:%d:%d: JSON syntax error; expected a JSON "
                          "document", origin, line, col);
        else
            fp__error_set(err, FP_EPARSE, origin,
                          "%s:%d:%d: JSON syntax error %s%s%s", origin, line, col,
                          off >= len ? "at end of input" : "near '", off >= len ? "" : near,
                          off >= len ? " (unclosed object, array or string?)" : "'");
        if (err) {
            err->line = line;
            err->column = col;
        }
        return FP_EPARSE;
    }
    free(copy);
    char ptr[512] = "";
    fp_status rc = check_unique_keys(root, ptr, sizeof ptr, origin, err);
    if (rc != FP_OK) {
        cJSON_Delete(root);
        return rc;
    }
    *out = root;
    return FP_OK;
}

const char *fp__json_describe(const cJSON *v, char *buf, size_t n)
{
    if (v == NULL)
        snprintf(buf, n, "nothing");
    else if (cJSON_IsString(v))
        snprintf(buf, n, "the string \"%.60s\"", v->valuestring);
    else if (cJSON_IsNumber(v))
        snprintf(buf, n, "the number %.17g", v->valuedouble);
    else if (cJSON_IsBool(v))
        snprintf(buf, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsNull(v))
        snprintf(buf, n, "null");
    else if (cJSON_IsArray(v))
    {
        int k = cJSON_GetArraySize(v);
        if (k == 0)
            snprintf(buf, n, "an empty array");
        else
            snprintf(buf, n, "an array of %d item%s", k, k == 1 ? "" : "s");
    }
    else
        snprintf(buf, n, "an object");
    return buf;
}

char *fp__json_ptr(char *buf, size_t n, const char *base, const char *key)
{
    size_t k = (size_t)snprintf(buf, n, "%s/", base);
    for (; *key && k + 3 < n; key++) {
        if (*key == '~') {
            buf[k++] = '~';
            buf[k++] = '0';
        } else if (*key == '/') {
            buf[k++] = '~';
            buf[k++] = '1';
        } else {
            buf[k++] = *key;
        }
    }
    if (k < n)
        buf[k] = '\0';
    return buf;
}

char *fp__json_ptr_index(char *buf, size_t n, const char *base, int index)
{
    snprintf(buf, n, "%s/%d", base, index);
    return buf;
}

int fp__edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63)
        la = 63;
    if (lb > 63)
        lb = 63;
    int row[64], prev[64];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
        }
        memcpy(prev, row, sizeof(int) * (lb + 1));
    }
    return prev[lb];
}

fp_status fp__json_check_keys(const cJSON *obj, const char *ptr, const char *const *allowed,
                              fp_error *err)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        /* cJSON keeps every copy of a repeated key and lookups see only the first, so a second
         * value would be silently ignored. */
        for (const cJSON *prev = obj->child; prev != it; prev = prev->next)
            if (strcmp(prev->string, it->string) == 0) {
                char p[160];
                fp__json_ptr(p, sizeof p, ptr, it->string);
                FP_FAIL(err, FP_EINVAL, p, "%s: key \"%s\" appears more than once; expected each key once",
                        p, it->string);
            }
        int ok = 0, best = 1000;
        const char *near = NULL;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, it->string) == 0;
        /* The nearest allowed key only for an unknown one (every catalog part's keys are read
         * at each start: distances for known keys were a tenth of a small plan's time). */
        for (const char *const *a = allowed; *a && !ok; a++) {
            int d = fp__edit_distance(*a, it->string);
            if (d < best) {
                best = d;
                near = *a;
            }
        }
        if (!ok) {
            char p[160], list[400];
            size_t k = 0;
            list[0] = '\0';
            for (const char *const *a = allowed; *a && k < sizeof list - 40; a++)
                k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", *a);
            fp__json_ptr(p, sizeof p, ptr, it->string);
            if (near && best <= 3)
                FP_FAIL(err, FP_EINVAL, p, "%s: unknown key \"%s\"; did you mean \"%s\"? (expected one of: %s)",
                        p, it->string, near, list);
            FP_FAIL(err, FP_EINVAL, p, "%s: unknown key \"%s\" (expected one of: %s)", p,
                    it->string, list);
        }
    }
    return FP_OK;
}

fp_status fp__json_num(const cJSON *obj, const char *key, const char *ptr, double min, double max,
                       double *out, fp_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char p[160], d[96];
    if (v == NULL)
        return FP_OK;
    fp__json_ptr(p, sizeof p, ptr, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        FP_FAIL(err, FP_EINVAL, p, "%s: expected a number from %g to %g, found %s", p, min, max,
                fp__json_describe(v, d, sizeof d));
    if (v->valuedouble < min || v->valuedouble > max) {
        /* The value with as many digits as it takes to tell it from the bound: %g rounded
         * 0.9000000001 to "0.9", which read as in range. */
        char found[40];
        for (int prec = 6; prec <= 17; prec++) {
            snprintf(found, sizeof found, "%.*g", prec, v->valuedouble);
            if (strtod(found, NULL) == v->valuedouble)
                break;
        }
        FP_FAIL(err, FP_EINVAL, p, "%s: expected a number from %g to %g, found %s", p, min, max,
                found);
    }
    *out = v->valuedouble;
    return FP_OK;
}

fp_status fp__json_int(const cJSON *obj, const char *key, const char *ptr, int64_t min,
                       int64_t max, int64_t *out, fp_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char p[160], d[96];
    if (v == NULL)
        return FP_OK;
    fp__json_ptr(p, sizeof p, ptr, key);
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < (double)min || v->valuedouble > (double)max)
        FP_FAIL(err, FP_EINVAL, p, "%s: expected a whole number from %lld to %lld, found %s", p,
                (long long)min, (long long)max, fp__json_describe(v, d, sizeof d));
    *out = (int64_t)v->valuedouble;
    return FP_OK;
}

int fp__json_is_auto(const cJSON *obj, const char *key)
{
    const cJSON *v = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    return cJSON_IsString(v) && strcmp(v->valuestring, "auto") == 0;
}

fp_status fp__json_int_auto(const cJSON *obj, const char *key, const char *ptr, int64_t min,
                            int64_t max, int64_t *out, fp_error *err)
{
    if (fp__json_is_auto(obj, key))
        return FP_OK;
    fp_error own = { 0 };
    fp_status rc = fp__json_int(obj, key, ptr, min, max, out, &own);
    if (rc != FP_OK) {
        /* "expected a whole number ..." says the other choice too */
        char *at = strstr(own.msg, "expected a whole number");
        if (at != NULL)
            return fp__error_set(err, rc, own.where, "%.*sexpected \"auto\" or %s",
                                 (int)(at - own.msg), own.msg, at + strlen("expected "));
        if (err != NULL && err->code == FP_OK)
            *err = own;
    }
    return rc;
}

fp_status fp__json_i32(const cJSON *obj, const char *key, const char *ptr, int min, int max,
                       int *out, fp_error *err)
{
    int64_t v = *out;
    fp_status rc = fp__json_int(obj, key, ptr, min, max, &v, err);
    if (rc == FP_OK)
        *out = (int)v;
    return rc;
}

size_t fp__text_check(const char *s, size_t len, const char **why)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7F) {
                *why = "a control character";
                return i;
            }
            i++;
            continue;
        }
        /* Lead byte: sequence length and the smallest code point it may encode (no overlong
         * forms); surrogates and values above U+10FFFF are not UTF-8. */
        int n;
        uint32_t cp, min;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
            cp = c & 0x1F;
            min = 0x80;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            cp = c & 0x0F;
            min = 0x800;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            cp = c & 0x07;
            min = 0x10000;
        } else {
            *why = "not valid UTF-8";
            return i;
        }
        if (i + (size_t)n > len) {
            *why = "not valid UTF-8 (a truncated sequence)";
            return i;
        }
        for (int k = 1; k < n; k++) {
            if ((p[i + (size_t)k] & 0xC0) != 0x80) {
                *why = "not valid UTF-8";
                return i;
            }
            cp = cp << 6 | (p[i + (size_t)k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            *why = "not valid UTF-8";
            return i;
        }
        if (cp >= 0x80 && cp <= 0x9F) {
            *why = "a control character";
            return i;
        }
        if (cp == 0xFFFE || cp == 0xFFFF) {
            *why = "a noncharacter (U+FFFE or U+FFFF)";
            return i;
        }
        i += (size_t)n;
    }
    return (size_t)-1;
}

fp_status fp__json_str(const cJSON *obj, const char *key, const char *ptr, char *out, size_t n,
                       fp_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char p[160], d[96];
    if (v == NULL)
        return FP_OK;
    fp__json_ptr(p, sizeof p, ptr, key);
    if (!cJSON_IsString(v))
        FP_FAIL(err, FP_EINVAL, p, "%s: expected a string, found %s", p,
                fp__json_describe(v, d, sizeof d));
    if (strlen(v->valuestring) >= n)
        FP_FAIL(err, FP_EINVAL, p, "%s: expected a string of at most %zu characters, found %zu",
                p, n - 1, strlen(v->valuestring));
    const char *why = "";
    size_t bad = fp__text_check(v->valuestring, strlen(v->valuestring), &why);
    if (bad != (size_t)-1)
        FP_FAIL(err, FP_EINVAL, p,
                "%s: byte 0x%02X at position %zu (counting from 1) is %s; names and labels must be "
                "valid UTF-8 without control characters, U+FFFE or U+FFFF",
                p, (unsigned char)v->valuestring[bad], bad + 1, why);
    snprintf(out, n, "%s", v->valuestring);
    return FP_OK;
}

fp_status fp__json_obj(const cJSON *obj, const char *key, const char *ptr, const cJSON **out,
                       fp_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char p[160], d[96];
    *out = NULL;
    if (v == NULL)
        return FP_OK;
    fp__json_ptr(p, sizeof p, ptr, key);
    if (!cJSON_IsObject(v))
        FP_FAIL(err, FP_EINVAL, p, "%s: expected an object, found %s", p,
                fp__json_describe(v, d, sizeof d));
    *out = v;
    return FP_OK;
}
