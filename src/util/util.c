/* fabplan — small shared helpers. */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>
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

fp_status fp__close_written(FILE *f, const char *path, fp_error *err)
{
    int bad = ferror(f), e = errno;
    if (fclose(f) != 0) {
        bad = 1;
        e = errno;
    }
    if (!bad && fp__fault(FP_FAULT_WRITE)) {
        bad = 1;
        e = errno;
    }
    if (bad)
        FP_FAIL(err, FP_EIO, path, "cannot write %s: %s", path, e ? strerror(e) : "write error");
    return FP_OK;
}

FILE *fp__create(const char *path, fp_error *err)
{
    int fd = -1;
    FILE *f = NULL;
    if (!fp__fault(FP_FAULT_OPEN))
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 && (f = fdopen(fd, "wb")) == NULL)
        close(fd);
    if (f == NULL)
        fp__error_set(err, FP_EIO, path, "cannot create %s: %s", path, strerror(errno));
    return f;
}

void *fp__malloc(size_t n)
{
    return fp__fault(FP_FAULT_ALLOC) ? NULL : malloc(n);
}

void fp_free(void *p)
{
    free(p);
}

int fp__thread_start(pthread_t *tid, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(tid, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
