/* fabplan — publish a set of files into a directory, all or nothing (the fp_publish_* functions
 * of fabplan/write.h, which fp_plan_write uses too).
 *
 * One run: take the folder's lock (flock on the folder itself; a second run into the same
 * folder fails at once with a message), remove temporary folders that killed runs left, write
 * every document into a fresh private folder DIR/.fabplan-tmp-XXXXXX (mkdtemp, 0700), fsync
 * them, then publish: each old output is renamed into the temporary folder's ".old" and the new
 * one renamed into place; if any rename fails every step is undone in reverse, so the folder
 * holds the old set or the new set. Nothing here follows a symlink when deleting: a link named
 * like an output is replaced or removed as a link, its target untouched. SIGINT/SIGTERM: the
 * CLI's handler calls fp_write_cleanup_signal(), which removes the temporary folders of every
 * write in progress; signals are held back for the few renames of the publish step. */
#define _DEFAULT_SOURCE /* flock, syscall */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "write/writers.h"
#include "write/publish.h"

typedef struct fp_publish run;

#define TMP_PREFIX ".fabplan-tmp-"
#define OLD_NAME ".old"

/* ---- removing a tree without following links (async-signal-safe) ---- */

/* getdents64's record; the libc wrapper is not async-signal-safe (opendir allocates). */
struct fp_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* How many entries one removal may take before it gives up (fp__publish_cleanup_limit): our
 * temporary folders hold at most a few hundred; a bigger tree was planted or keeps growing. */
static long cleanup_limit = 1000000;

long fp__publish_cleanup_limit(long limit)
{
    long old = cleanup_limit;
    if (limit > 0)
        cleanup_limit = limit;
    return old;
}

/* Empty folder fd (the root of the tree being removed) of whatever it holds beside the
 * sub-folders, and move each grandchild folder up into root under a fresh name, so the tree
 * gets flatter instead of being descended into. *budget counts the entries handled. */
static int hoist_from(int root, int fd, long *budget, unsigned *fresh)
{
    char buf[4096] __attribute__((aligned(8)));
    long n;
    lseek(fd, 0, SEEK_SET);
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long off = 0; off < n;) {
            struct fp_dirent64 *e = (struct fp_dirent64 *)(void *)(buf + off);
            off += e->d_reclen;
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            if (--*budget < 0) {
                errno = E2BIG;
                return -1;
            }
            if (unlinkat(fd, e->d_name, 0) == 0 || errno == ENOENT)
                continue;
            if (errno != EISDIR && errno != EPERM)
                return -1;
            if (fd == root) {
                /* A child folder: removed now if empty, else emptied in the loop below. */
                if (unlinkat(fd, e->d_name, AT_REMOVEDIR) == 0 || errno == ENOENT)
                    continue;
                int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub < 0)
                    return -1;
                int bad = hoist_from(root, sub, budget, fresh);
                close(sub);
                if (bad)
                    return -1;
                /* Empty unless a grandchild could not move up; the next pass retries. */
                unlinkat(fd, e->d_name, AT_REMOVEDIR);
                continue;
            }
            /* A grandchild folder: up into root (a name that is taken fails; take the next). */
            char up[24] = ".gone-";
            int moved = 0;
            for (int tries = 0; tries < 16 && !moved; tries++) {
                unsigned v = (*fresh)++;
                size_t k = 6;
                do
                    up[k++] = (char)('a' + v % 26);
                while ((v /= 26) != 0 && k < sizeof up - 1);
                up[k] = '\0';
                moved = renameat(fd, e->d_name, root, up) == 0;
                if (!moved && errno != EEXIST && errno != ENOTEMPTY && errno != ENOTDIR)
                    return -1;
            }
            if (!moved)
                return -1;
        }
    }
    return n < 0 ? -1 : 0;
}

/* Remove name (relative to dfd) and everything in it. A file or a link is unlinked (unlink
 * never follows a link). A folder is emptied without recursion: its files are unlinked and its
 * sub-folders' sub-folders renamed up into it, pass after pass, so any depth takes constant
 * stack and time linear in the entries (each is unlinked or moved once). Uses only system
 * calls, so a signal handler may call it. Gives up after cleanup_limit entries (a tree that
 * big, or one another process keeps filling, was not left by fabplan). 0 when name is gone,
 * -1 with errno otherwise (E2BIG: the limit). */
static int remove_tree_at(int dfd, const char *name)
{
    if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT)
        return 0;
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    long budget = cleanup_limit;
    unsigned fresh = 0;
    int bad = 0;
    /* Each pass removes every entry it sees; folders moved up are seen by the next one. A pass
     * costs at least one entry of the budget until the folder is empty, so the loop ends. */
    while ((bad = hoist_from(fd, fd, &budget, &fresh)) == 0) {
        if (unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
            break;
        if (errno != ENOTEMPTY && errno != EEXIST) {
            bad = -1;
            break;
        }
        if (--budget < 0) {
            errno = E2BIG;
            bad = -1;
            break;
        }
    }
    int e = errno;
    close(fd);
    errno = e;
    return bad;
}

/* ---- temporary folders of the writes in progress, for fp_write_cleanup_signal ---- */

#define MAX_ACTIVE 64
static struct {
    int dfd;                    /* the output folder */
    char name[32];              /* the temporary folder in it */
    volatile sig_atomic_t used;
} active[MAX_ACTIVE];
static pthread_mutex_t active_lock = PTHREAD_MUTEX_INITIALIZER;

static int active_add(int dfd, const char *name)
{
    int slot = -1;
    pthread_mutex_lock(&active_lock);
    for (int i = 0; i < MAX_ACTIVE && slot < 0; i++)
        if (__atomic_load_n(&active[i].used, __ATOMIC_SEQ_CST) == 0) {
            slot = i;
            active[i].dfd = dfd;
            fp__copy_str(active[i].name, sizeof active[i].name, name);
            __atomic_store_n(&active[i].used, 1, __ATOMIC_SEQ_CST);
        }
    pthread_mutex_unlock(&active_lock);
    return slot;
}

static void active_remove(int slot)
{
    if (slot >= 0)
        __atomic_store_n(&active[slot].used, 0, __ATOMIC_SEQ_CST);
}

/* A publish past its commit point: its folder holds the journal the next run finishes from, so
 * a signal handler must leave it. */
static void active_commit(int slot)
{
    if (slot >= 0)
        __atomic_store_n(&active[slot].used, 2, __ATOMIC_SEQ_CST);
}

/* Back before the commit: the folder holds nothing the next run needs. */
static void active_remove_commit(int slot)
{
    if (slot >= 0)
        __atomic_store_n(&active[slot].used, 1, __ATOMIC_SEQ_CST);
}

void fp_write_cleanup_signal(void)
{
    for (int i = 0; i < MAX_ACTIVE; i++)
        if (__atomic_load_n(&active[i].used, __ATOMIC_SEQ_CST) == 1) {
            remove_tree_at(active[i].dfd, active[i].name);
            __atomic_store_n(&active[i].used, 0, __ATOMIC_SEQ_CST);
        }
}

/* ---- the output folder ---- */

static fp_status make_dirs(const char *dir, fp_error *err)
{
    char path[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path - 64)
        FP_FAIL(err, FP_EIO, dir, "bad output directory \"%s\"", dir);
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] == '/' || path[i] == '\0') {
            char c = path[i];
            path[i] = '\0';
            if (fp__fault(FP_FAULT_OPEN) || (mkdir(path, 0777) != 0 && errno != EEXIST))
                FP_FAIL(err, FP_EIO, path, "cannot create directory %s: %s", path, strerror(errno));
            path[i] = c;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        FP_FAIL(err, FP_EIO, dir, "%s is not a directory", dir);
    return FP_OK;
}

/* ---- the journal: what a publish moves, so a killed one is finished by the next run ----
 *
 * Once every new document is on disk, the publish writes DIR/.fabplan-tmp-X/.journal (through a
 * temporary name, fsynced, renamed, the folders fsynced): "put NAME" for each new output,
 * "drop NAME" for each earlier output of the folder's manifest this set does not include (plan
 * -o only). That rename is the commit point. Then old outputs move into .old, new ones into
 * place, dropped ones into .old. A run killed before the commit leaves a folder without a
 * journal (and .old empty): the next run removes it, the earlier set untouched. A run killed
 * after it leaves the journal: the next run finishes the moves (a "put" whose file is still in
 * the temporary folder is not placed yet; rename is atomic per name), then removes .old, the
 * journal and the folder, in that order, so no journal means nothing of an earlier set is left
 * in .old. Nothing is deleted that the moves have not replaced. */

#define MANIFEST ".fabplan-manifest"
#define JOURNAL ".journal"
#define JOURNAL_TMP ".journal.tmp"
#define JOURNAL_HEAD "fabplan-journal 1\n"
#define LIST_MAX 65536      /* bytes of a manifest or a journal */

static int reserved_name(const char *name)
{
    return strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, OLD_NAME) == 0 ||
           strcmp(name, MANIFEST) == 0 || strcmp(name, JOURNAL) == 0 ||
           strcmp(name, JOURNAL_TMP) == 0 || strncmp(name, TMP_PREFIX, sizeof TMP_PREFIX - 1) == 0;
}

/* A plain name in a folder: no '/', not reserved. */
static int plain_name(const char *name, size_t len)
{
    char buf[256];
    if (len == 0 || len >= sizeof buf || memchr(name, '/', len) != NULL)
        return 0;
    memcpy(buf, name, len);
    buf[len] = '\0';
    return !reserved_name(buf);
}

/* A name a list file may give: what fp__publish_add accepts (a plain name, or "D/F": file F
 * of folder D), or the manifest itself. */
static int list_name_ok(const char *name)
{
    size_t len = strlen(name);
    const char *slash = strchr(name, '/');
    if (len == 0 || len >= 256)
        return 0;
    if (slash != NULL)
        return plain_name(name, (size_t)(slash - name)) && plain_name(slash + 1, strlen(slash + 1));
    return strcmp(name, MANIFEST) == 0 || !reserved_name(name);
}

/* A small regular file (name relative to fd, not through a link) into a fresh NUL-terminated
 * buffer of at most LIST_MAX bytes. NULL with errno (ENOENT when it is missing, EFBIG when too
 * big). */
static char *read_list(int fd, const char *name)
{
    int f = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    char *buf = NULL;
    if (f < 0)
        return NULL;
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size >= LIST_MAX) {
        int e = fstat(f, &st) == 0 && S_ISREG(st.st_mode) ? EFBIG : EINVAL;
        close(f);
        errno = e;
        return NULL;
    }
    size_t n = 0;
    ssize_t k = 0;
    if ((buf = malloc(LIST_MAX)) != NULL)
        while (n < LIST_MAX - 1 && (k = read(f, buf + n, LIST_MAX - 1 - n)) > 0)
            n += (size_t)k;
    int e = errno;
    close(f);
    if (buf == NULL || k < 0) {
        free(buf);
        errno = buf == NULL ? ENOMEM : e;
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* The next line of *p (split in place), NULL at the end. */
static char *next_line(char **p)
{
    char *s = *p, *nl;
    if (*s == '\0')
        return NULL;
    if ((nl = strchr(s, '\n')) != NULL) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = s + strlen(s);
    }
    return s;
}

static int registered(const run *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->name[i], name) == 0)
            return 1;
    return 0;
}

/* Write text as tfd/name, fsynced (a new file, never through a link). 0 or -1 with errno. */
static int write_synced(int tfd, const char *name, const char *text, size_t len)
{
    int f = fp__fault(FP_FAULT_OPEN)
                ? -1
                : openat(tfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (f < 0)
        return -1;
    size_t done = 0;
    while (done < len) {
        ssize_t k = fp__fault(FP_FAULT_WRITE) ? -1 : write(f, text + done, len - done);
        if (k <= 0) {
            int e = k < 0 ? errno : EIO;
            close(f);
            errno = e;
            return -1;
        }
        done += (size_t)k;
    }
    if (fp__fault(FP_FAULT_FSYNC) || fsync(f) != 0) {
        int e = errno;
        close(f);
        errno = e;
        return -1;
    }
    return close(f);
}

static int sync_fd(int fd)
{
    return fp__fault(FP_FAULT_FSYNC) || fsync(fd) != 0 ? -1 : 0;
}

/* Append "word name\n" to the list in b (cap LIST_MAX); 0 when it does not fit. */
static int list_add(char *b, size_t *len, const char *word, const char *name)
{
    int k = snprintf(b + *len, LIST_MAX - *len, "%s%s%s\n", word, word[0] ? " " : "", name);
    if (k < 0 || (size_t)k >= LIST_MAX - *len)
        return 0;
    *len += (size_t)k;
    return 1;
}

/* Read DIR's manifest: with r->replace, its outputs this set does not write again become
 * drops (those still there); else they are kept in the new manifest. Then write the new
 * manifest into the temporary folder and register it (last, so it moves last). */
static fp_status plan_manifest(run *r, fp_error *err)
{
    char *old = read_list(r->dfd, MANIFEST), *p = old, *line;
    char *text = malloc(LIST_MAX);
    size_t len = 0;
    if (text == NULL || fp__fault(FP_FAULT_ALLOC)) {
        free(old);
        free(text);
        FP_FAIL(err, FP_ENOMEM, r->dir, "out of memory writing into %s", r->dir);
    }
    if (old == NULL && errno != ENOENT) {
        int e = errno;
        free(text);
        FP_FAIL(err, FP_EIO, r->dir, "cannot read %s/" MANIFEST ": %s", r->dir,
                e == EFBIG ? "more than 64 KB" : strerror(e));
    }
    list_add(text, &len, "",
             "# fabplan: the outputs of the last run into this folder. The next `fabplan plan -o`\n"
             "# here removes those it does not write again; it never touches other files.");
    for (size_t i = 0; i < r->n; i++) {
        if (r->is_dir[i] != 2) {
            list_add(text, &len, "", r->name[i]);
            continue;
        }
        /* a folder of registered files: its files */
        size_t dl = strlen(r->name[i]);
        for (size_t m = 0; m < r->n_member; m++)
            if (strncmp(r->member[m], r->name[i], dl) == 0 && r->member[m][dl] == '/')
                list_add(text, &len, "", r->member[m]);
    }
    r->n_drop = 0;
    while (old != NULL && (line = next_line(&p)) != NULL) {
        struct stat st;
        if (line[0] == '#' || !list_name_ok(line) || strcmp(line, MANIFEST) == 0)
            continue;
        /* A file of a folder: the folder is what a set writes again or drops whole (a set
         * that keeps the earlier outputs keeps the line). */
        char *slash = strchr(line, '/');
        if (slash != NULL) {
            *slash = '\0';
            int again = registered(r, line);
            if (!r->replace)
                *slash = '/';
            if (again)
                continue;
        }
        if (registered(r, line) || fstatat(r->dfd, line, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        int dup = 0;
        for (size_t k = 0; k < r->n_drop && !dup; k++)
            dup = strcmp(r->drop[k], line) == 0;
        if (dup)
            continue;
        if (r->replace && r->n_drop < PUB_MAX)
            fp__copy_str(r->drop[r->n_drop++], sizeof r->drop[0], line);
        else if (!r->replace)
            list_add(text, &len, "", line);
    }
    free(old);
    char path[4600];
    snprintf(path, sizeof path, "%s/" MANIFEST, r->tpath);
    memcpy(r->name[r->n], MANIFEST, sizeof MANIFEST);
    r->is_dir[r->n] = 0;
    if (write_synced(r->tfd, MANIFEST, text, len) != 0) {
        int e = errno;
        free(text);
        FP_FAIL(err, FP_EIO, MANIFEST, "cannot write %s: %s", path, strerror(e));
    }
    free(text);
    r->synced[r->n] = 1;
    r->n++;
    return FP_OK;
}

/* The commit point: the journal of every move, on disk. */
static fp_status write_journal(run *r, fp_error *err)
{
    char *text = malloc(LIST_MAX);
    size_t len = 0;
    int ok = text != NULL && !fp__fault(FP_FAULT_ALLOC);
    if (!ok) {
        free(text);
        FP_FAIL(err, FP_ENOMEM, r->dir, "out of memory writing into %s", r->dir);
    }
    ok = list_add(text, &len, "", "fabplan-journal 1");
    for (size_t i = 0; i < r->n && ok; i++)
        ok = list_add(text, &len, "put", r->name[i]);
    for (size_t i = 0; i < r->n_drop && ok; i++)
        ok = list_add(text, &len, "drop", r->drop[i]);
    ok = ok && list_add(text, &len, "", "end");
    if (!ok) {
        free(text);
        FP_FAIL(err, FP_EINVAL, r->dir, "too many outputs into %s", r->dir);
    }
    int bad = write_synced(r->tfd, JOURNAL_TMP, text, len);
    free(text);
    if (bad || fp__fault(FP_FAULT_RENAME) || renameat(r->tfd, JOURNAL_TMP, r->tfd, JOURNAL) != 0 ||
        sync_fd(r->tfd) != 0 || sync_fd(r->dfd) != 0)
        FP_FAIL(err, FP_EIO, r->dir, "cannot write %s/" JOURNAL ": %s", r->tpath, strerror(errno));
    return FP_OK;
}

/* Finish the publish a killed run left in dir/name (its journal is there): place every new
 * output still in the folder (the old one into .old first), move the drops into .old, then
 * remove .old, the journal and the folder. A move that fails is an error and the folder stays
 * (its files are the only copy). */
static fp_status finish_stale(int dfd, const char *dir, const char *name, char *journal,
                              fp_error *err)
{
    int tfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), ofd = -1;
    char *p = journal, *line;
    fp_status rc = FP_OK;
    if (tfd < 0)
        FP_FAIL(err, FP_EIO, dir, "cannot open %s/%s: %s", dir, name, strerror(errno));
    if ((mkdirat(tfd, OLD_NAME, 0700) != 0 && errno != EEXIST) ||
        (ofd = openat(tfd, OLD_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
        rc = fp__error_set(err, FP_EIO, dir, "cannot open %s/%s/" OLD_NAME ": %s", dir, name,
                           strerror(errno));
        goto out;
    }
    next_line(&p);    /* the head, checked by the caller */
    while (rc == FP_OK && (line = next_line(&p)) != NULL) {
        int put = strncmp(line, "put ", 4) == 0, drop = strncmp(line, "drop ", 5) == 0;
        const char *n = line + (put ? 4 : 5);
        struct stat st;
        if ((!put && !drop) || !list_name_ok(n))
            continue;
        if (put && fstatat(tfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;   /* placed before the run was killed */
        if ((fp__fault(FP_FAULT_RENAME) || renameat(dfd, n, ofd, n) != 0) && errno != ENOENT) {
            rc = fp__error_set(err, FP_EIO, n, "cannot finish the interrupted write into %s "
                               "(moving the old %s aside): %s; its files are in %s/%s",
                               dir, n, strerror(errno), dir, name);
            break;
        }
        if (put && (fp__fault(FP_FAULT_RENAME) || renameat(tfd, n, dfd, n) != 0))
            rc = fp__error_set(err, FP_EIO, n, "cannot finish the interrupted write into %s "
                               "(placing %s): %s; its files are in %s/%s",
                               dir, n, strerror(errno), dir, name);
    }
    if (rc == FP_OK && sync_fd(dfd) != 0)
        rc = fp__error_set(err, FP_EIO, dir, "cannot sync %s: %s", dir, strerror(errno));
    if (rc == FP_OK && (remove_tree_at(tfd, OLD_NAME) != 0 || sync_fd(tfd) != 0 ||
                        unlinkat(tfd, JOURNAL, 0) != 0))
        rc = fp__error_set(err, FP_EIO, dir, "cannot remove %s/%s: %s", dir, name,
                           strerror(errno));
out:
    if (ofd >= 0)
        close(ofd);
    close(tfd);
    if (rc == FP_OK && remove_tree_at(dfd, name) != 0)
        rc = fp__error_set(err, FP_EIO, dir, "cannot remove %s/%s: %s", dir, name,
                           strerror(errno));
    return rc;
}

/* One temporary folder a killed run left: finished from its journal, else removed (a folder
 * without a journal never moved anything; one whose .old still holds files is not ours to
 * delete). */
static fp_status settle_stale(int dfd, const char *dir, const char *name, fp_error *err)
{
    int tfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    char *journal = tfd >= 0 ? read_list(tfd, JOURNAL) : NULL;
    int e = errno;
    if (journal != NULL && strncmp(journal, JOURNAL_HEAD, sizeof JOURNAL_HEAD - 1) == 0 &&
        strstr(journal, "\nend\n") != NULL) {
        close(tfd);
        fp_status rc = finish_stale(dfd, dir, name, journal, err);
        free(journal);
        return rc;
    }
    free(journal);
    if (tfd >= 0) {
        int ofd = openat(tfd, OLD_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int empty = 1;
        if (ofd >= 0) {
            char buf[512] __attribute__((aligned(8)));
            long n = syscall(SYS_getdents64, ofd, buf, sizeof buf);
            for (long off = 0; off < n && empty;) {
                struct fp_dirent64 *d = (struct fp_dirent64 *)(void *)(buf + off);
                off += d->d_reclen;
                empty = strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0;
            }
            close(ofd);
        }
        close(tfd);
        if (!empty)
            FP_FAIL(err, FP_EIO, dir,
                    "%s/%s/" OLD_NAME " holds files of an earlier run and no journal says where "
                    "they go; move them back by hand and remove %s/%s", dir, name, dir, name);
    }
    (void)e;
    if (remove_tree_at(dfd, name) != 0) {
        int bad = errno;
        if (bad == E2BIG)
            FP_FAIL(err, FP_EIO, dir,
                    "cannot remove %s/%s (a temporary folder of a fabplan run that was "
                    "killed): more than %ld entries; it was not made by fabplan, remove it "
                    "by hand", dir, name, cleanup_limit);
        FP_FAIL(err, FP_EIO, dir,
                "cannot remove %s/%s (a temporary folder of a fabplan run that was "
                "killed): %s; remove it by hand", dir, name, strerror(bad));
    }
    return FP_OK;
}

/* Settle the temporary folders of runs that were killed (we hold the lock, so no live run owns
 * one): finished from their journal or removed, never published as they are. Only folders of
 * our own user are fabplan's (mkdtemp made them); anything else of that name is left alone. A
 * folder that cannot be settled (the entry limit, a permission, a failed move) is an FP_EIO
 * error naming it: the run stops instead of hanging or losing files. */
static fp_status remove_stale(int dfd, const char *dir, fp_error *err)
{
    int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    if (d == NULL) {
        if (fd >= 0)
            close(fd);
        FP_FAIL(err, FP_EIO, dir, "cannot read %s: %s", dir, strerror(errno));
    }
    /* Again while a pass settled one: removing while reading may hide an entry from readdir. */
    for (int removed = 1; removed;) {
        removed = 0;
        rewinddir(d);
        while ((e = readdir(d)) != NULL) {
            struct stat st;
            if (strncmp(e->d_name, TMP_PREFIX, sizeof TMP_PREFIX - 1) != 0 ||
                fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
                st.st_uid != geteuid())
                continue;
            char name[256];
            fp__copy_str(name, sizeof name, e->d_name);
            fp_status rc = settle_stale(dfd, dir, name, err);
            if (rc != FP_OK) {
                closedir(d);
                return rc;
            }
            removed = 1;
        }
    }
    closedir(d);
    return FP_OK;
}

/* Whole tree on disk: fsync every file and folder under name (relative to dfd). */
int fp__sync_tree(int dfd, const char *name, int depth)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    int bad = 0;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode) && depth < 4) {
        int fd2 = dup(fd);
        DIR *d = fd2 >= 0 ? fdopendir(fd2) : NULL;
        struct dirent *e;
        if (d == NULL) {
            if (fd2 >= 0)
                close(fd2);
            bad = -1;
        } else {
            while ((e = readdir(d)) != NULL && !bad)
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                    bad = fp__sync_tree(fd, e->d_name, depth + 1);
            closedir(d);
        }
    }
    if (!bad && (fp__fault(FP_FAULT_FSYNC) || fsync(fd) != 0))
        bad = -1;
    close(fd);
    return bad;
}


/* Hold back, in this thread, the termination signals whose clean-up (fp_write_cleanup_signal)
 * removes the temporary folders; the previous mask into *prev. */
static void hold_stop_signals(sigset_t *prev)
{
    static const int held[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                                SIGVTALRM, SIGPROF, SIGXCPU };
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++)
        sigaddset(&block, held[i]);
    pthread_sigmask(SIG_BLOCK, &block, prev);
}

static fp_status run_open(run *r, const char *dir, fp_error *err)
{
    fp_status rc;
    fp__copy_str(r->dir, sizeof r->dir, dir);
    dir = r->dir;
    r->dfd = r->lfd = r->tfd = r->ofd = r->slot = -1;
    if ((rc = make_dirs(dir, err)) != FP_OK)
        return rc;
    if (fp__fault(FP_FAULT_OPEN) ||
        (r->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        FP_FAIL(err, FP_EIO, dir, "cannot open directory %s: %s", dir, strerror(errno));
    /* The lock is on the folder itself (flock works on directories), so no lock file is left
     * behind and none can be planted. */
    if ((r->lfd = dup(r->dfd)) < 0)
        FP_FAIL(err, FP_EIO, dir, "cannot lock %s: %s", dir, strerror(errno));
    if (flock(r->lfd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            FP_FAIL(err, FP_EIO, dir,
                    "another fabplan run is writing into %s; wait for it to finish or choose another folder",
                    dir);
        FP_FAIL(err, FP_EIO, dir, "cannot lock %s: %s", dir, strerror(errno));
    }
    if ((rc = remove_stale(r->dfd, dir, err)) != FP_OK)
        return rc;
    snprintf(r->tpath, sizeof r->tpath, "%s/" TMP_PREFIX "XXXXXX", dir);
    /* held back from making the folder until the signal clean-up knows it, so a signal
     * between the two cannot leave it behind */
    sigset_t prev;
    hold_stop_signals(&prev);
    if (fp__fault(FP_FAULT_OPEN) || mkdtemp(r->tpath) == NULL) {
        int e = errno;
        pthread_sigmask(SIG_SETMASK, &prev, NULL);
        FP_FAIL(err, FP_EIO, dir, "cannot create a temporary folder in %s: %s", dir,
                strerror(e));
    }
    fp__copy_str(r->tname, sizeof r->tname, strrchr(r->tpath, '/') + 1);
    r->slot = active_add(r->dfd, r->tname);
    pthread_sigmask(SIG_SETMASK, &prev, NULL);
    if (fp__fault(FP_FAULT_OPEN) ||
        (r->tfd = openat(r->dfd, r->tname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        FP_FAIL(err, FP_EIO, dir, "cannot open %s: %s", r->tpath, strerror(errno));
    return FP_OK;
}

static void run_close(run *r)
{
    if (r->ofd >= 0)
        close(r->ofd);
    if (r->tfd >= 0)
        close(r->tfd);
    if (r->dfd >= 0 && r->tname[0]) {
        if (!r->keep)   /* kept: its journal is how the next run finishes a failed undo */
            remove_tree_at(r->dfd, r->tname);
        active_remove(r->slot);
    }
    if (r->lfd >= 0)
        close(r->lfd);   /* releases the lock */
    if (r->dfd >= 0)
        close(r->dfd);
}

/* Register file "D/F" (list_name_ok): folder D once, as a folder of registered files made in
 * the temporary folder, and the file as one of its members; give the path to write it at. */
static fp_status add_member(run *r, const char *name, char *path, size_t n, fp_error *err)
{
    char dir[256];
    size_t dl = (size_t)(strchr(name, '/') - name), i;
    memcpy(dir, name, dl);
    dir[dl] = '\0';
    for (size_t m = 0; m < r->n_member; m++)
        if (strcmp(r->member[m], name) == 0)
            FP_FAIL(err, FP_EINVAL, name, "%s/%s is written twice", r->dir, name);
    if (r->n_member >= PUB_MEMBERS)
        FP_FAIL(err, FP_EINVAL, name, "more than %d files in folders of %s", PUB_MEMBERS, r->dir);
    for (i = 0; i < r->n && strcmp(r->name[i], dir) != 0; i++)
        ;
    if (i < r->n && r->is_dir[i] != 2)
        FP_FAIL(err, FP_EINVAL, name, "%s/%s is written twice", r->dir, dir);
    if (i == r->n) {
        if (r->n >= PUB_MAX)
            FP_FAIL(err, FP_EINVAL, name, "more than %d outputs into %s", PUB_MAX, r->dir);
        if (fp__fault(FP_FAULT_OPEN) || mkdirat(r->tfd, dir, 0777) != 0)
            FP_FAIL(err, FP_EIO, name, "cannot create %s/%s: %s", r->tpath, dir, strerror(errno));
        memcpy(r->name[r->n], dir, dl + 1);
        r->is_dir[r->n] = 2;
        r->n++;
    }
    if (path != NULL && (size_t)snprintf(path, n, "%s/%s", r->tpath, name) >= n)
        FP_FAIL(err, FP_EINVAL, name, "path of %s/%s too long", r->tpath, name);
    fp__copy_str(r->member[r->n_member++], sizeof r->member[0], name);
    return FP_OK;
}

/* Register name (a plain name in the folder) and give the path to write it at. */
fp_status fp__publish_add(run *r, const char *name, int is_dir, char *path, size_t n,
                          fp_error *err)
{
    size_t len = strlen(name);
    const char *slash = strchr(name, '/');
    if (slash != NULL && list_name_ok(name) && !is_dir)
        return add_member(r, name, path, n, err);
    if (len == 0 || len >= sizeof r->name[0] || slash != NULL || reserved_name(name))
        FP_FAIL(err, FP_EINVAL, name, "\"%s\" is not a plain file name for %s", name, r->dir);
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->name[i], name) == 0)
            FP_FAIL(err, FP_EINVAL, name, "%s/%s is written twice", r->dir, name);
    if (r->n >= PUB_MAX)
        FP_FAIL(err, FP_EINVAL, name, "more than %d outputs into %s", PUB_MAX, r->dir);
    if (path != NULL && (size_t)snprintf(path, n, "%s/%s", r->tpath, name) >= n)
        FP_FAIL(err, FP_EINVAL, name, "path of %s/%s too long", r->tpath, name);
    memcpy(r->name[r->n], name, len + 1);
    r->is_dir[r->n] = (unsigned char)!!is_dir;
    r->n++;
    return FP_OK;
}

/* Move the old output at name into .old (a missing one is fine) and the new one into place;
 * records each step for the undo. */
static int put_one(run *r, size_t i, fp_error *err)
{
    const char *n = r->name[i];
    if (fp__fault(FP_FAULT_RENAME) || renameat(r->dfd, n, r->ofd, n) != 0) {
        if (errno != ENOENT) {
            fp__error_set(err, FP_EIO, n, "cannot move the old %s/%s aside: %s", r->dir, n,
                          strerror(errno));
            return -1;
        }
    } else {
        r->moved[i] = 1;
    }
    if (fp__fault(FP_FAULT_RENAME) || renameat(r->tfd, n, r->dfd, n) != 0) {
        fp__error_set(err, FP_EIO, n, "cannot rename %s/%s to %s/%s: %s", r->tpath, n, r->dir, n,
                      strerror(errno));
        return -1;
    }
    r->placed[i] = 1;
    return 0;
}

/* Undo every recorded move in reverse: dropped outputs back, new files back into the
 * temporary folder, old ones back in place. 0 when all went back. */
static int undo(run *r)
{
    int bad = 0;
    for (size_t k = r->n_drop; k-- > 0;)
        if (r->dropped[k] && renameat(r->ofd, r->drop[k], r->dfd, r->drop[k]) != 0)
            bad = 1;
    for (size_t k = r->n; k-- > 0;) {
        if (r->placed[k] && renameat(r->dfd, r->name[k], r->tfd, r->name[k]) != 0)
            bad = 1;
        if (r->moved[k] && renameat(r->ofd, r->name[k], r->dfd, r->name[k]) != 0)
            bad = 1;
    }
    return bad || fsync(r->dfd) != 0 ? -1 : 0;
}

/* Swap the new outputs in (see "the journal" above). Every step is recorded so a failure can
 * undo them all. */
static fp_status publish(run *r, fp_error *err)
{
    fp_status rc = FP_OK;
    size_t i;
    /* Everything on disk first. */
    for (i = 0; i < r->n; i++)
        if (!r->synced[i] && fp__sync_tree(r->tfd, r->name[i], 0) != 0)
            FP_FAIL(err, FP_EIO, r->name[i], "cannot sync %s/%s: %s", r->tpath, r->name[i],
                    strerror(errno));
    /* An output's name held by something of another kind (a folder where a file goes, or the
     * other way round) is the user's, not ours: refuse before anything moves. A link is
     * replaced as a link. */
    for (i = 0; i < r->n; i++) {
        struct stat st;
        if (fstatat(r->dfd, r->name[i], &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISLNK(st.st_mode))
            continue;
        int want_dir = r->is_dir[i];
        if (!!want_dir != !!S_ISDIR(st.st_mode))
            FP_FAIL(err, FP_EIO, r->name[i],
                    "cannot replace %s/%s: it is %s, where fabplan writes %s; move it away",
                    r->dir, r->name[i], S_ISDIR(st.st_mode) ? "a folder" : "not a folder",
                    want_dir == 2 ? "a folder of documents" : want_dir ? "a folder of workbooks"
                                                                    : "a file");
    }
    if ((rc = plan_manifest(r, err)) != FP_OK)
        return rc;
    if (fp__fault(FP_FAULT_OPEN) || mkdirat(r->tfd, OLD_NAME, 0700) != 0 ||
        (r->ofd = openat(r->tfd, OLD_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        FP_FAIL(err, FP_EIO, r->dir, "cannot create %s/%s: %s", r->tpath, OLD_NAME, strerror(errno));
    /* From the commit to the end termination signals are held back in this thread, and the
     * signal clean-up leaves this folder (its journal finishes the moves). */
    sigset_t prev;
    hold_stop_signals(&prev);
    active_commit(r->slot);
    if ((rc = write_journal(r, err)) != FP_OK) {
        unlinkat(r->tfd, JOURNAL, 0);
        goto out;
    }
    for (i = 0; i < r->n && rc == FP_OK; i++)
        if (put_one(r, i, err) != 0)
            rc = err ? err->code : FP_EIO;
    for (i = 0; i < r->n_drop && rc == FP_OK; i++) {
        if (fp__fault(FP_FAULT_RENAME) || renameat(r->dfd, r->drop[i], r->ofd, r->drop[i]) != 0) {
            if (errno != ENOENT)
                rc = fp__error_set(err, FP_EIO, r->drop[i],
                                   "cannot move %s/%s (an output of the earlier plan) aside: %s",
                                   r->dir, r->drop[i], strerror(errno));
        } else {
            r->dropped[i] = 1;
        }
    }
    if (rc == FP_OK && sync_fd(r->dfd) != 0)
        rc = fp__error_set(err, FP_EIO, r->dir, "cannot sync %s: %s", r->dir, strerror(errno));
    if (rc != FP_OK) {
        rc = FP_EIO;
        if (undo(r) == 0 && unlinkat(r->tfd, JOURNAL, 0) == 0 && fsync(r->tfd) == 0) {
            /* back to the earlier set, nothing for the next run to finish */
        } else {
            r->keep = 1;
        }
        goto out;
    }
    /* Done: the earlier outputs go, then the journal (so a journal never outlives .old's
     * files unfinished). A kill between the steps leaves work the next run completes. */
    fp__fault(FP_FAULT_STEP);
    remove_tree_at(r->tfd, OLD_NAME);
    fp__fault(FP_FAULT_STEP);
    unlinkat(r->tfd, JOURNAL, 0);
out:
    if (!r->keep)
        active_remove_commit(r->slot);
    pthread_sigmask(SIG_SETMASK, &prev, NULL);
    return rc;
}

/* ---- the general interface (fabplan/write.h) ---- */

fp_status fp_publish_begin(const char *dir, fp_publish **out, fp_error *err)
{
    fp_status rc;
    run *r;
    if (out != NULL)
        *out = NULL;
    if (dir == NULL || out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_publish_begin: NULL argument");
    if (fp__fault(FP_FAULT_ALLOC) || (r = calloc(1, sizeof *r)) == NULL)
        FP_FAIL(err, FP_ENOMEM, dir, "out of memory writing into %s", dir);
    if ((rc = run_open(r, dir, err)) != FP_OK) {
        run_close(r);
        free(r);
        return rc;
    }
    *out = r;
    return FP_OK;
}

fp_status fp_publish_path(fp_publish *p, const char *name, char *path, size_t n, fp_error *err)
{
    if (p == NULL || name == NULL || path == NULL || n == 0)
        FP_FAIL(err, FP_EINVAL, "", "fp_publish_path: NULL argument");
    /* a plain name: folders of registered files are fp_plan_write's */
    if (strchr(name, '/') != NULL)
        FP_FAIL(err, FP_EINVAL, name, "\"%s\" is not a plain file name for %s", name, p->dir);
    return fp__publish_add(p, name, 0, path, n, err);
}

FILE *fp_publish_create(fp_publish *p, const char *name, fp_error *err)
{
    char path[4600];
    if (fp_publish_path(p, name, path, sizeof path, err) != FP_OK)
        return NULL;
    return fp__create(path, err);
}

fp_status fp_publish_commit(fp_publish *p, fp_error *err)
{
    if (p == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_publish_commit: NULL argument");
    fp_status rc = publish(p, err);
    run_close(p);
    free(p);
    return rc;
}

void fp_publish_abort(fp_publish *p)
{
    if (p == NULL)
        return;
    run_close(p);
    free(p);
}
