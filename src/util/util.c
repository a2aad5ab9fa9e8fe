/* fabplan — small shared helpers. */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

static const struct {
    size_t max;
    const char *what, *limit;
    int regular;            /* 1: a regular file only (a plan folder's files) */
} file_kinds[FP_FILE_N_KINDS] = {
    [FP_FILE_SPEC] = { (size_t)64 << 20, "a spec", "64 MiB", 0 },
    [FP_FILE_CATALOG] = { (size_t)16 << 20, "a catalog", "16 MiB", 0 },
    [FP_FILE_OVERRIDES] = { (size_t)64 << 20, "an overrides file", "64 MiB", 0 },
    [FP_FILE_PLAN] = { (size_t)4 << 30, "a file of a plan folder", "4 GiB", 1 },
    [FP_FILE_DISCOVERY] = { (size_t)4 << 30, "a discovered fabric", "4 GiB", 0 },
};

/* Tests lower a kind's limit (0: the documented one). */
size_t fp__file_limit_test[FP_FILE_N_KINDS];

size_t fp_file_limit(fp_file_kind kind)
{
    if ((unsigned)kind >= FP_FILE_N_KINDS)
        return 0;
    return fp__file_limit_test[kind] ? fp__file_limit_test[kind] : file_kinds[kind].max;
}

fp_status fp_read_file(const char *path, fp_file_kind kind, char **text, size_t *len,
                       fp_error *err)
{
    if (text)
        *text = NULL;
    if (path == NULL || text == NULL || (unsigned)kind >= FP_FILE_N_KINDS)
        FP_FAIL(err, FP_EINVAL, "", "fp_read_file: %s", path == NULL ? "path is NULL" :
                text == NULL ? "text is NULL" : "kind out of range");
    size_t max = fp_file_limit(kind), cap = 0, n = 0;
    const char *what = file_kinds[kind].what;
    char limit[32];
    if (fp__file_limit_test[kind])
        snprintf(limit, sizeof limit, "%zu bytes", max);
    else
        snprintf(limit, sizeof limit, "%s", file_kinds[kind].limit);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0)
        FP_FAIL(err, FP_EIO, path, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        FP_FAIL(err, FP_EIO, path, "cannot read %s: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode) || (file_kinds[kind].regular && !S_ISREG(st.st_mode))) {
        close(fd);
        FP_FAIL(err, FP_EINVAL, path, "%s is %s; expected %s%s", path,
                S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a pipe" :
                S_ISCHR(st.st_mode) ? "a device" : "not a regular file", what,
                file_kinds[kind].regular ? " (a regular file written by fabplan)" : "");
    }
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > (uint64_t)max) {
        close(fd);
        FP_FAIL(err, FP_EINVAL, path, "%s is larger than %s (%lld bytes), the limit of %s; "
                "expected a smaller file", path, limit, (long long)st.st_size, what);
    }
    char *buf = NULL;
    for (;;) {
        if (cap - n < 2) {
            /* the size when known (one allocation), else doubling; one byte past the limit
             * tells a file at the limit from a larger one */
            size_t ncap = cap ? cap * 2 : S_ISREG(st.st_mode) ? (size_t)st.st_size + 2 : 65536;
            if (ncap > max + 2)
                ncap = max + 2;
            char *nb = ncap > cap ? realloc(buf, ncap) : NULL;
            if (nb == NULL) {
                free(buf);
                close(fd);
                FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            FP_FAIL(err, FP_EIO, path, "cannot read %s: %s", path, strerror(e));
        }
        if (got == 0)
            break;
        n += (size_t)got;
        /* a stream stops at the first read that brings a NUL byte: a text file holds none and
         * every reader refuses one (with its offset), so /dev/zero or /dev/urandom is refused
         * at once, not after 4 GiB of a discovery's limit */
        if (!S_ISREG(st.st_mode) && memchr(buf + n - (size_t)got, '\0', (size_t)got) != NULL)
            break;
        if (n > max) {
            free(buf);
            close(fd);
            FP_FAIL(err, FP_EINVAL, path, "%s is larger than %s, the limit of %s; expected a "
                    "smaller file", path, limit, what);
        }
    }
    close(fd);
    buf[n] = '\0';
    *text = buf;
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
