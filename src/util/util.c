/* fabplan — small shared helpers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

fp_status fp__read_file(const char *path, char **out, size_t *len, fp_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (f == NULL)
        FP_FAIL(err, FP_EIO, path, "cannot open %s: %s", path, strerror(errno));
    for (;;) {
        if (n + 1 >= cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, ncap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        FP_FAIL(err, FP_EIO, path, "cannot read %s: %s", path, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *out = buf;
    if (len)
        *len = n;
    return FP_OK;
}

void fp__csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

fp_status fp__close_written(FILE *f, const char *path, fp_error *err)
{
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad)
        FP_FAIL(err, FP_EIO, path, "cannot write %s (disk full?)", path);
    return FP_OK;
}

void fp_free(void *p)
{
    free(p);
}
