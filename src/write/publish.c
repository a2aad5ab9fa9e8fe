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
        if (!active[i].used) {
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

void fp_write_cleanup_signal(void)
{
    for (int i = 0; i < MAX_ACTIVE; i++)
        if (__atomic_load_n(&active[i].used, __ATOMIC_SEQ_CST)) {
            remove_tree_at(active[i].dfd, active[i].name);
            active[i].used = 0;
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

/* Remove the temporary folders of runs that were killed (we hold the lock, so no live run owns
 * one). They are never published. Only folders of our own user are fabplan's (mkdtemp made
 * them); anything else of that name is left alone. A folder that cannot be removed (the
 * entry limit, a permission) is an FP_EIO error naming it: the run stops instead of hanging. */
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
    /* Again while a pass removed one: removing while reading may hide an entry from readdir. */
    for (int removed = 1; removed;) {
        removed = 0;
        rewinddir(d);
        while ((e = readdir(d)) != NULL) {
            struct stat st;
            if (strncmp(e->d_name, TMP_PREFIX, sizeof TMP_PREFIX - 1) != 0 ||
                fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
                st.st_uid != geteuid())
                continue;
            if (remove_tree_at(dfd, e->d_name) != 0) {
                int bad = errno;
                char name[256];
                fp__copy_str(name, sizeof name, e->d_name);
                closedir(d);
                if (bad == E2BIG)
                    FP_FAIL(err, FP_EIO, dir,
                            "cannot remove %s/%s (a temporary folder of a fabplan run that was "
                            "killed): more than %ld entries; it was not made by fabplan, remove it "
                            "by hand", dir, name, cleanup_limit);
                FP_FAIL(err, FP_EIO, dir,
                        "cannot remove %s/%s (a temporary folder of a fabplan run that was "
                        "killed): %s; remove it by hand", dir, name, strerror(bad));
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
    if (fp__fault(FP_FAULT_OPEN) || mkdtemp(r->tpath) == NULL)
        FP_FAIL(err, FP_EIO, dir, "cannot create a temporary folder in %s: %s", dir,
                strerror(errno));
    fp__copy_str(r->tname, sizeof r->tname, strrchr(r->tpath, '/') + 1);
    r->slot = active_add(r->dfd, r->tname);
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
        remove_tree_at(r->dfd, r->tname);
        active_remove(r->slot);
    }
    if (r->lfd >= 0)
        close(r->lfd);   /* releases the lock */
    if (r->dfd >= 0)
        close(r->dfd);
}

/* Register name (a plain name in the folder) and give the path to write it at. */
fp_status fp__publish_add(run *r, const char *name, int is_dir, char *path, size_t n,
                          fp_error *err)
{
    size_t len = strlen(name);
    if (len == 0 || len >= sizeof r->name[0] || strchr(name, '/') != NULL ||
        strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, OLD_NAME) == 0 ||
        strncmp(name, TMP_PREFIX, sizeof TMP_PREFIX - 1) == 0)
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

/* Swap the new outputs in. Every step is recorded so a failure can undo them all. */
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
        if (want_dir != !!S_ISDIR(st.st_mode))
            FP_FAIL(err, FP_EIO, r->name[i],
                    "cannot replace %s/%s: it is %s, where fabplan writes %s; move it away",
                    r->dir, r->name[i], S_ISDIR(st.st_mode) ? "a folder" : "not a folder",
                    want_dir ? "a folder of workbooks" : "a file");
    }
    if (fp__fault(FP_FAULT_OPEN) || mkdirat(r->tfd, OLD_NAME, 0700) != 0 ||
        (r->ofd = openat(r->tfd, OLD_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        FP_FAIL(err, FP_EIO, r->dir, "cannot create %s/%s: %s", r->tpath, OLD_NAME, strerror(errno));
    /* The renames run with termination signals held back, so a handler never sees half. */
    sigset_t block, prev;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &prev);
    for (i = 0; i < r->n && rc == FP_OK; i++) {
        int e = 0;
        if (fp__fault(FP_FAULT_RENAME))
            e = errno;
        else if (renameat(r->dfd, r->name[i], r->ofd, r->name[i]) == 0)
            r->moved[i] = 1;
        else
            e = errno;
        if (e != 0 && e != ENOENT) {
            errno = e;
            rc = fp__error_set(err, FP_EIO, r->name[i], "cannot move the old %s/%s aside: %s",
                               r->dir, r->name[i], strerror(errno));
            break;
        }
        if (fp__fault(FP_FAULT_RENAME) || renameat(r->tfd, r->name[i], r->dfd, r->name[i]) != 0) {
            rc = fp__error_set(err, FP_EIO, r->name[i], "cannot rename %s/%s to %s/%s: %s",
                               r->tpath, r->name[i], r->dir, r->name[i], strerror(errno));
            break;
        }
        r->placed[i] = 1;
    }
    if (rc == FP_OK && (fp__fault(FP_FAULT_FSYNC) || fsync(r->dfd) != 0))
        rc = fp__error_set(err, FP_EIO, r->dir, "cannot sync %s: %s", r->dir, strerror(errno));
    if (rc != FP_OK) {
        /* Undo in reverse: new files back into the temporary folder, old ones back in place. */
        for (size_t k = r->n; k-- > 0;) {
            if (r->placed[k])
                renameat(r->dfd, r->name[k], r->tfd, r->name[k]);
            if (r->moved[k])
                renameat(r->ofd, r->name[k], r->dfd, r->name[k]);
        }
        fsync(r->dfd);
    }
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
