/* fabplan — write every document into a directory, all or nothing.
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

typedef fp_status (*writer_fn)(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);

/* One overview per network (spec `networks`, at most FP_MAX_NETWORKS): a writer and a file
 * name function per network index, listed below after fabric.*; a plan with fewer networks
 * has no file for the rest. */
#define NET_OVERVIEW(k)                                                                          \
    static fp_status net_overview_##k(const fp_plan *plan, const char *path,                     \
                                      const fp_write_options *o, fp_error *err)                  \
    {                                                                                            \
        return fp__write_net_overview(plan, k, path, o, err);                                    \
    }                                                                                            \
    static int net_overview_name_##k(const fp_plan *plan, const fp_write_options *o,             \
                                     const char *ext, char *buf, size_t n)                       \
    {                                                                                            \
        (void)o;                                                                                 \
        return fp__net_overview_file_name(plan, k, ext, buf, n);                                 \
    }
NET_OVERVIEW(0)
NET_OVERVIEW(1)
NET_OVERVIEW(2)
NET_OVERVIEW(3)
NET_OVERVIEW(4)
NET_OVERVIEW(5)
NET_OVERVIEW(6)
NET_OVERVIEW(7)
_Static_assert(FP_MAX_NETWORKS == 8, "one NET_OVERVIEW per network index");
#define NET_OVERVIEW_OUTPUTS(k)                                                                  \
    { "dot", FP_WRITE_OVERVIEW, net_overview_##k, net_overview_name_##k, FP_SPLIT_NONE },        \
    { "svg", FP_WRITE_OVERVIEW, net_overview_##k, net_overview_name_##k, FP_SPLIT_NONE },        \
    { "png", FP_WRITE_OVERVIEW | FP_WRITE_PNG, net_overview_##k, net_overview_name_##k,          \
      FP_SPLIT_NONE }

static fp_status json_writer(const fp_plan *plan, const char *path, const fp_write_options *o,
                             fp_error *err)
{
    return fp__write_json(plan, path, o && o->version >= 5 ? o->failure : NULL, err);
}

/* An output is written when all of its flag bits are set. name_fn, when given, names the file
 * from the options (returns 0 when this plan has nothing to write there). split !=
 * FP_SPLIT_NONE: written only when the options ask for that split, and the name is a directory
 * of workbooks (replaced as a whole). */
typedef struct output {
    const char *name;
    unsigned flag;
    writer_fn fn;
    int (*name_fn)(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                   size_t n);
    fp_split_by split;
} output;

static const output outputs[] = {
    { "plan.json", FP_WRITE_JSON, json_writer, NULL, FP_SPLIT_NONE },
    { "links.csv", FP_WRITE_LINKS, fp__write_links_csv, NULL, FP_SPLIT_NONE },
    { "cables.csv", FP_WRITE_CABLES, fp__write_cables_csv, NULL, FP_SPLIT_NONE },
    { "bom.csv", FP_WRITE_BOM, fp__write_bom_csv, NULL, FP_SPLIT_NONE },
    { "plan.xlsx", FP_WRITE_XLSX, fp__write_xlsx, NULL, FP_SPLIT_NONE },
    { "by-row", FP_WRITE_XLSX, fp__write_xlsx_split, NULL, FP_SPLIT_ROW },
    { "by-hall", FP_WRITE_XLSX, fp__write_xlsx_split, NULL, FP_SPLIT_HALL },
    { "labels.csv", FP_WRITE_LABELS, fp__write_labels_csv, NULL, FP_SPLIT_NONE },
    /* The NetBox set, in the order NetBox imports it (docs/outputs.md). */
    { "netbox-tags.csv", FP_WRITE_NETBOX, fp__write_netbox_tags, fp__netbox_tags_file_name, FP_SPLIT_NONE },
    { "netbox-sites.csv", FP_WRITE_NETBOX, fp__write_netbox_sites, NULL, FP_SPLIT_NONE },
    { "netbox-manufacturers.csv", FP_WRITE_NETBOX, fp__write_netbox_manufacturers, NULL, FP_SPLIT_NONE },
    { "netbox-device-roles.csv", FP_WRITE_NETBOX, fp__write_netbox_roles, NULL, FP_SPLIT_NONE },
    { "netbox-device-types.csv", FP_WRITE_NETBOX, fp__write_netbox_device_types, NULL, FP_SPLIT_NONE },
    { "netbox-racks.csv", FP_WRITE_NETBOX, fp__write_netbox_racks, NULL, FP_SPLIT_NONE },
    { "netbox-devices.csv", FP_WRITE_NETBOX, fp__write_netbox_devices, NULL, FP_SPLIT_NONE },
    { "netbox-interfaces.csv", FP_WRITE_NETBOX, fp__write_netbox_interfaces, NULL, FP_SPLIT_NONE },
    { "netbox-cables.csv", FP_WRITE_NETBOX, fp__write_netbox_cables, NULL, FP_SPLIT_NONE },
    { "topology.csv", FP_WRITE_TOPOLOGY, fp__write_topology_csv, NULL, FP_SPLIT_NONE },
    { "avd-cv-topology.yml", FP_WRITE_AVD, fp__write_avd_topology, fp__avd_file_name, FP_SPLIT_NONE },
    { "fabric.dot", FP_WRITE_OVERVIEW, fp__write_overview, NULL, FP_SPLIT_NONE },
    { "fabric.svg", FP_WRITE_OVERVIEW, fp__write_overview, NULL, FP_SPLIT_NONE },
    { "fabric.png", FP_WRITE_OVERVIEW | FP_WRITE_PNG, fp__write_overview, NULL, FP_SPLIT_NONE },
    NET_OVERVIEW_OUTPUTS(0), NET_OVERVIEW_OUTPUTS(1), NET_OVERVIEW_OUTPUTS(2),
    NET_OVERVIEW_OUTPUTS(3), NET_OVERVIEW_OUTPUTS(4), NET_OVERVIEW_OUTPUTS(5),
    NET_OVERVIEW_OUTPUTS(6), NET_OVERVIEW_OUTPUTS(7),
    { "dot", FP_WRITE_DETAIL, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE },
    { "svg", FP_WRITE_DETAIL, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE },
    { "png", FP_WRITE_DETAIL | FP_WRITE_PNG, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE },
    { "floor.dot", FP_WRITE_FLOOR, fp__write_floor, NULL, FP_SPLIT_NONE },
    { "floor.svg", FP_WRITE_FLOOR, fp__write_floor, NULL, FP_SPLIT_NONE },
    { "floor.png", FP_WRITE_FLOOR | FP_WRITE_PNG, fp__write_floor, NULL, FP_SPLIT_NONE },
    /* After the floor, so the diagrams drawn without a layout engine (nop2) follow each other:
     * with the figure between the overview and the detail (dot, nop2, dot, nop2 per write), the
     * fault sweep of tests/write/test_publish.c crashed in Graphviz 2.42's dot (a use-after-free
     * in dot_mincross/decompose on a virtual edge freed by dot_rank, valgrind) after about 110
     * writes in one process; dot, dot, nop2, nop2 did not, over every start point tried. */
    { "dot", FP_WRITE_FIGURE, fp__write_figure, fp__figure_file_name, FP_SPLIT_NONE },
    { "svg", FP_WRITE_FIGURE, fp__write_figure, fp__figure_file_name, FP_SPLIT_NONE },
    { "png", FP_WRITE_FIGURE | FP_WRITE_PNG, fp__write_figure, fp__figure_file_name, FP_SPLIT_NONE },
    /* after the diagrams: the report inlines them */
    { "report.html", FP_WRITE_REPORT, fp__write_report, NULL, FP_SPLIT_NONE },
};
#define N_OUTPUTS (sizeof outputs / sizeof outputs[0])

/* The plan stages (FP_STAGE_*) each document reads, so a plan for a few documents builds only
 * those (fp_plan_new_opts). A document reading a getter of a stage not listed here would see
 * that stage's zeroes: tests/write/test_stages.c writes each alone from a plan with just these
 * stages and compares it with the same document from a full plan. */
static const struct {
    unsigned flag;
    unsigned stages;
    const char *name;           /* for the message when the plan lacks them */
} format_stages[] = {
    { FP_WRITE_JSON, FP_STAGE_ALL, "plan.json" },
    { FP_WRITE_LINKS, FP_STAGE_FABRIC, "links.csv" },
    { FP_WRITE_CABLES, FP_STAGE_CABLING, "cables.csv" },
    { FP_WRITE_BOM, FP_STAGE_BOM, "bom.csv" },
    { FP_WRITE_XLSX, FP_STAGE_ALL, "plan.xlsx" },
    { FP_WRITE_LABELS, FP_STAGE_CABLING, "labels.csv" },
    { FP_WRITE_NETBOX, FP_STAGE_CABLING, "the NetBox files" },
    { FP_WRITE_TOPOLOGY, FP_STAGE_FABRIC, "topology.csv" },
    { FP_WRITE_AVD, FP_STAGE_FABRIC, "avd-cv-topology.yml" },
    { FP_WRITE_REPORT, FP_STAGE_ALL, "report.html" },
    { FP_WRITE_OVERVIEW, FP_STAGE_CABLING, "fabric.svg" },   /* links coloured by medium */
    { FP_WRITE_FIGURE, FP_STAGE_FABRIC, "the group figure" },
    { FP_WRITE_DETAIL, FP_STAGE_FABRIC, "the detail diagram" },
    { FP_WRITE_FLOOR, FP_STAGE_CABLING, "floor.svg" },
};
#define N_FORMAT_STAGES (sizeof format_stages / sizeof format_stages[0])

unsigned fp_write_stages(unsigned formats)
{
    unsigned s = FP_STAGE_FABRIC;
    for (size_t i = 0; i < N_FORMAT_STAGES; i++)
        if (formats & format_stages[i].flag)
            s |= format_stages[i].stages;
    return fp_plan_stages_needed(s);
}


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

/* Remove name (relative to dfd): a file or a link is unlinked (unlink never follows a link);
 * a directory is emptied the same way and removed. Uses only system calls, so a signal handler
 * may call it. depth bounds the recursion (our trees are two levels deep). */
static void remove_tree_at(int dfd, const char *name, int depth)
{
    if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT)
        return;
    if (depth > 8)
        return;
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    /* Empty it and remove it; again while it is not empty: a signal handler may run while
     * another writing thread still creates a document in it. */
    for (int pass = 0; pass < 64; pass++) {
        char buf[4096] __attribute__((aligned(8)));
        long n;
        lseek(fd, 0, SEEK_SET);
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
            for (long off = 0; off < n;) {
                struct fp_dirent64 *e = (struct fp_dirent64 *)(void *)(buf + off);
                off += e->d_reclen;
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                remove_tree_at(fd, e->d_name, depth + 1);
            }
        }
        if (unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno != ENOTEMPTY)
            break;
    }
    close(fd);
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
            remove_tree_at(active[i].dfd, active[i].name, 0);
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
 * one). They are never published. */
static void remove_stale(int dfd)
{
    int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    if (d == NULL) {
        if (fd >= 0)
            close(fd);
        return;
    }
    char names[16][256];
    int n;
    do {
        n = 0;
        rewinddir(d);
        while ((e = readdir(d)) != NULL && n < 16)
            if (strncmp(e->d_name, TMP_PREFIX, sizeof TMP_PREFIX - 1) == 0)
                fp__copy_str(names[n++], sizeof names[0], e->d_name);
        for (int i = 0; i < n; i++)
            remove_tree_at(dfd, names[i], 0);
    } while (n == 16);
    closedir(d);
}

/* Whole tree on disk: fsync every file and folder under name (relative to dfd). */
static int sync_tree(int dfd, const char *name, int depth)
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
                    bad = sync_tree(fd, e->d_name, depth + 1);
            closedir(d);
        }
    }
    if (!bad && (fp__fault(FP_FAULT_FSYNC) || fsync(fd) != 0))
        bad = -1;
    close(fd);
    return bad;
}

/* Diagrams go through Graphviz, which keeps process-wide state: one diagram at a time. */
static pthread_mutex_t graphviz_lock = PTHREAD_MUTEX_INITIALIZER;

static fp_status run_writer(const output *out, const fp_plan *plan, const char *path,
                            const fp_write_options *o, fp_error *err)
{
    if (out->flag & (FP_WRITE_OVERVIEW | FP_WRITE_FIGURE | FP_WRITE_DETAIL | FP_WRITE_FLOOR)) {
        pthread_mutex_lock(&graphviz_lock);
        fp_status rc = out->fn(plan, path, o, err);
        pthread_mutex_unlock(&graphviz_lock);
        return rc;
    }
    return out->fn(plan, path, o, err);
}

int fp__write_jobs(const fp_write_options *o)
{
    if (o == NULL || o->version < 6 || o->jobs == 1)
        return 1;
    long jobs = o->jobs;
    if (jobs <= 0) {
        jobs = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = jobs < 1 ? 1 : jobs > 8 ? 8 : jobs;
    }
    return jobs > 64 ? 64 : (int)jobs;
}

/* Progress from several writing threads: one call at a time, to the caller's callback. */
typedef struct progress_lock {
    pthread_mutex_t lock;
    fp_progress_cb fn;
    void *payload;
} progress_lock;

static void locked_progress(const char *stage, double frac, void *payload)
{
    progress_lock *p = payload;
    pthread_mutex_lock(&p->lock);
    p->fn(stage, frac, p->payload);
    pthread_mutex_unlock(&p->lock);
}

/* A publish's state: the folder (its open descriptor and lock), the private temporary folder,
 * the names registered in it, and what was moved where (for the undo). */
#define PUB_MAX 64
_Static_assert(N_OUTPUTS <= PUB_MAX, "PUB_MAX holds every output of fp_plan_write");
struct fp_publish {
    char dir[4096];
    int dfd, lfd, tfd, ofd, slot;
    char tname[32];
    char tpath[4200];
    size_t n;
    char name[PUB_MAX][256];
    unsigned char is_dir[PUB_MAX], moved[PUB_MAX], placed[PUB_MAX];
    unsigned char synced[PUB_MAX];  /* already fsynced by fp_plan_write's syncing thread */
};
typedef struct fp_publish run;

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
    remove_stale(r->dfd);
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
        remove_tree_at(r->dfd, r->tname, 0);
        active_remove(r->slot);
    }
    if (r->lfd >= 0)
        close(r->lfd);   /* releases the lock */
    if (r->dfd >= 0)
        close(r->dfd);
}

/* Register name (a plain name in the folder) and give the path to write it at. */
static fp_status run_add(run *r, const char *name, int is_dir, char *path, size_t n,
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
        if (!r->synced[i] && sync_tree(r->tfd, r->name[i], 0) != 0)
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
    return run_add(p, name, 0, path, n, err);
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

/* ---- fp_plan_write on several threads ---- */

/* One document to write: its row of the output table, its name in the run, its path. */
typedef struct doc_job {
    const output *out;
    size_t at;                  /* index in outputs[]: the earlier failure is the one returned */
    size_t name;                /* index in run.name */
    char path[4600];
} doc_job;

/* Every document is fsynced before anything is published. With threads, a thread of its own
 * does it while the others write: each writing thread hands over the name of every document it
 * finishes, so the disk writes one document while the CPU makes the next, and publishing waits
 * only for the last ones. A name not synced here (no thread, or an earlier sync failed) is
 * synced by publish() as before. */
typedef struct syncer {
    run *r;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t queue[PUB_MAX], head, tail;
    int closed;
    size_t failed;              /* index of the name whose sync failed; PUB_MAX: none */
    int failed_errno;
} syncer;

static void *sync_main(void *arg)
{
    syncer *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->head == s->tail && !s->closed)
            pthread_cond_wait(&s->cond, &s->lock);
        if (s->head == s->tail)
            break;
        size_t i = s->queue[s->head++];
        int skip = s->failed != PUB_MAX;
        pthread_mutex_unlock(&s->lock);
        int bad = skip ? 0 : sync_tree(s->r->tfd, s->r->name[i], 0), e = errno;
        pthread_mutex_lock(&s->lock);
        if (skip)
            continue;
        if (bad) {
            s->failed = i;
            s->failed_errno = e;
        } else {
            s->r->synced[i] = 1;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void sync_hand(syncer *s, size_t name)
{
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->lock);
    if (s->tail < PUB_MAX)
        s->queue[s->tail++] = name;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

/* Start the syncing thread; 0 when it cannot be made (publish() then syncs everything). */
static int sync_start(syncer *s, pthread_t *tid, run *r)
{
    memset(s, 0, sizeof *s);
    s->r = r;
    s->failed = PUB_MAX;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    if (pthread_create(tid, NULL, sync_main, s) == 0)
        return 1;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    return 0;
}

/* No more names: wait for the syncing thread. A failed sync is the run's error unless a
 * document already failed (rc). */
static fp_status sync_finish(syncer *s, pthread_t tid, fp_status rc, fp_error *err)
{
    pthread_mutex_lock(&s->lock);
    s->closed = 1;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    pthread_join(tid, NULL);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    if (rc == FP_OK && s->failed != PUB_MAX) {
        const run *r = s->r;
        errno = s->failed_errno;
        rc = fp__error_set(err, FP_EIO, r->name[s->failed], "cannot sync %s/%s: %s", r->tpath,
                           r->name[s->failed], strerror(errno));
    }
    return rc;
}

/* On two cores the other documents wait until plan.xlsx's cells are written: the workbook's
 * cells (the Cables sheet on its thread, the Ports sheet on another: write_xlsx.c) and then its
 * compression (one thread, about half its time) are its critical path, and the other documents
 * written meanwhile would take a third of both cores from the Cables sheet; written during the
 * compression they use the core it leaves idle. The gate opens at the cells' end, or when the
 * workbook's thread is done (it failed early). */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int open;
} gate;

static void gate_open(void *arg)
{
    gate *g = arg;
    pthread_mutex_lock(&g->lock);
    g->open = 1;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

static void gate_wait(gate *g)
{
    pthread_mutex_lock(&g->lock);
    while (!g->open)
        pthread_cond_wait(&g->cond, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

/* The documents one thread writes, in table order, until one fails. */
typedef struct doc_list {
    doc_job **job;
    size_t n;
    const fp_plan *plan;
    const fp_write_options *o;
    syncer *sync;
    fp_status rc;
    size_t failed_at;           /* outputs[] index of the failed document; N_OUTPUTS: none */
    fp_error *err;
    fp_error own_err;           /* err of the second thread */
    gate *xlsx_gate;            /* opened when plan.xlsx's cells are written (NULL: none) */
} doc_list;

static void write_docs(doc_list *w)
{
    w->rc = FP_OK;
    w->failed_at = N_OUTPUTS;
    for (size_t k = 0; k < w->n; k++) {
        const doc_job *j = w->job[k];
        if (w->xlsx_gate != NULL && j->out->fn == fp__write_xlsx)
            w->rc = fp__write_xlsx_gated(w->plan, j->path, w->o, gate_open, w->xlsx_gate, w->err);
        else
            w->rc = run_writer(j->out, w->plan, j->path, w->o, w->err);
        if (w->rc != FP_OK) {
            w->failed_at = j->at;
            return;
        }
        sync_hand(w->sync, j->name);
    }
}

static void *side_main(void *arg)
{
    doc_list *w = arg;
    write_docs(w);
    if (w->xlsx_gate != NULL)
        gate_open(w->xlsx_gate);
    return NULL;
}

/* What the second writing thread takes: plan.xlsx when it is asked for (at 131,072 GPUs the
 * workbook takes longer than every other document together); without it the large tables that
 * need no Graphviz - links.csv, labels.csv, the NetBox set, topology.csv: about half of the
 * other documents' work - while this thread writes plan.json, cables.csv, bom.csv, the diagrams
 * (one at a time under the Graphviz lock) and report.html (which inlines the diagrams' files,
 * so it follows them on the same thread). The files are the same either way. */
static int on_side(const output *out, unsigned formats)
{
    if (formats & FP_WRITE_XLSX)
        return out->fn == fp__write_xlsx;
    return (out->flag & (FP_WRITE_LINKS | FP_WRITE_LABELS | FP_WRITE_NETBOX | FP_WRITE_TOPOLOGY)) != 0;
}

/* Register every document's name (checked before anything is written) and list them. */
static fp_status plan_jobs(run *r, const fp_plan *plan, const fp_write_options *opts,
                           doc_job *jobs, size_t *n_jobs, fp_error *err)
{
    fp_split_by split = opts->version >= 2 ? opts->split_by : FP_SPLIT_NONE;
    fp_status rc;
    size_t n = 0;
    for (size_t i = 0; i < N_OUTPUTS; i++) {
        char name[256];
        if ((opts->formats & outputs[i].flag) != outputs[i].flag ||
            (outputs[i].split != FP_SPLIT_NONE && outputs[i].split != split))
            continue;
        snprintf(name, sizeof name, "%s", outputs[i].name);
        if (outputs[i].name_fn &&
            !outputs[i].name_fn(plan, opts, outputs[i].name, name, sizeof name))
            continue;
        if ((rc = run_add(r, name, outputs[i].split != FP_SPLIT_NONE, jobs[n].path,
                          sizeof jobs[n].path, err)) != FP_OK)
            return rc;
        jobs[n].out = &outputs[i];
        jobs[n].at = i;
        jobs[n].name = r->n - 1;
        n++;
    }
    *n_jobs = n;
    return FP_OK;
}

/* Options that depend on the plan, checked before anything touches the disk. */
static fp_status check_for_plan(const fp_plan *plan, const fp_write_options *opts, fp_error *err)
{
    fp_status rc;
    for (size_t i = 0; i < N_FORMAT_STAGES; i++)
        if ((opts->formats & format_stages[i].flag) &&
            (rc = fp__plan_need(plan, format_stages[i].stages, format_stages[i].name, err)) != FP_OK)
            return rc;
    if ((opts->formats & FP_WRITE_DETAIL) && (rc = fp__detail_check(plan, opts, err)) != FP_OK)
        return rc;
    return FP_OK;
}

/* Open the private folder and list the documents (*jobs, *n_jobs); nothing to undo on error. */
static fp_status begin_jobs(const fp_plan *plan, const char *dir, const fp_write_options *opts,
                            run **r, doc_job **jobs, size_t *n_jobs, fp_error *err)
{
    fp_status rc;
    *jobs = calloc(N_OUTPUTS, sizeof **jobs);
    if (fp__fault(FP_FAULT_ALLOC) || *jobs == NULL) {
        free(*jobs);
        FP_FAIL(err, FP_ENOMEM, dir, "out of memory writing into %s", dir);
    }
    if ((rc = fp_publish_begin(dir, r, err)) != FP_OK) {
        free(*jobs);
        return rc;
    }
    if ((rc = plan_jobs(*r, plan, opts, *jobs, n_jobs, err)) != FP_OK) {
        fp_publish_abort(*r);
        free(*jobs);
        return rc;
    }
    return FP_OK;
}

/* The threads of one fp_plan_write and what they share: this thread's list (here), the second
 * writing thread's (side), the syncing thread, the workbook's gate, progress under a lock. */
typedef struct crew {
    doc_job *mine[N_OUTPUTS], *theirs[N_OUTPUTS];
    doc_list here, side;
    fp_write_options topts;
    progress_lock pl;
    syncer sync;
    gate xg;
    pthread_t side_tid, sync_tid;
    int side_started, sync_started, locked;
} crew;

/* Both writing threads call progress through one lock, so the caller's sees one call at a time. */
static void crew_lock_progress(crew *c, const fp_write_options *opts)
{
    c->topts = *opts;
    pthread_mutex_init(&c->pl.lock, NULL);
    c->pl.fn = opts->progress;
    c->pl.payload = opts->payload;
    c->topts.progress = locked_progress;
    c->topts.payload = &c->pl;
    c->here.o = c->side.o = &c->topts;
    c->locked = 1;
}

/* Start the syncing thread and the second writing thread with its share (on_side); when no
 * thread can be made, this one writes them all in table order. */
static void crew_start(crew *c, run *r, doc_job *jobs, size_t n_jobs, const fp_write_options *opts,
                       int threads)
{
    if ((c->sync_started = sync_start(&c->sync, &c->sync_tid, r)) != 0)
        c->here.sync = c->side.sync = &c->sync;
    for (size_t k = 0; k < n_jobs; k++)
        if (on_side(jobs[k].out, opts->formats))
            c->theirs[c->side.n++] = &jobs[k];
    /* plan.xlsx first, the rest after its cells on two cores (gate) */
    if (threads == 2 && (opts->formats & FP_WRITE_XLSX)) {
        pthread_mutex_init(&c->xg.lock, NULL);
        pthread_cond_init(&c->xg.cond, NULL);
        c->side.xlsx_gate = &c->xg;
    }
    if (c->side.n > 0 && pthread_create(&c->side_tid, NULL, side_main, &c->side) == 0)
        c->side_started = 1;
}

/* Join the threads (the second writer, then the syncer) and return the run's status: of two
 * failed documents the earlier in the table wins, a document's failure before a sync's. */
static fp_status crew_finish(crew *c, fp_status rc, fp_error *err)
{
    if (c->side_started) {
        pthread_join(c->side_tid, NULL);
        /* Both failed: the error of the earlier document in the table. */
        if (c->side.rc != FP_OK && c->side.failed_at < c->here.failed_at) {
            rc = c->side.rc;
            if (err != NULL)
                *err = c->side.own_err;
        }
    }
    if (c->side.xlsx_gate != NULL) {
        pthread_mutex_destroy(&c->xg.lock);
        pthread_cond_destroy(&c->xg.cond);
    }
    if (c->sync_started)
        rc = sync_finish(&c->sync, c->sync_tid, rc, err);
    if (c->locked)
        pthread_mutex_destroy(&c->pl.lock);
    return rc;
}

fp_status fp_plan_write(const fp_plan *plan, const char *dir, const fp_write_options *opts,
                        fp_error *err)
{
    fp_write_options def = FP_WRITE_OPTIONS_INIT;
    fp_status rc = FP_OK;
    run *r;
    if (plan == NULL || dir == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_write: NULL plan or directory");
    if (opts == NULL)
        opts = &def;
    if ((rc = check_for_plan(plan, opts, err)) != FP_OK)
        return rc;
    doc_job *jobs;
    size_t n_jobs = 0;
    if ((rc = begin_jobs(plan, dir, opts, &r, &jobs, &n_jobs, err)) != FP_OK)
        return rc;
    /* With threads: a second thread writes its share (on_side) while this one writes the rest,
     * a third fsyncs what they finish; progress calls one at a time. Files go into the private
     * folder either way, and nothing is published until every thread is done. */
    const int threads = fp__write_jobs(opts);
    crew c;
    memset(&c, 0, sizeof c);
    c.here = (doc_list){ c.mine, 0, plan, opts, NULL, FP_OK, N_OUTPUTS, err, { 0 }, NULL };
    c.side = (doc_list){ c.theirs, 0, plan, opts, NULL, FP_OK, N_OUTPUTS, NULL, { 0 }, NULL };
    c.side.err = &c.side.own_err;
    if (threads > 1 && opts->progress != NULL)
        crew_lock_progress(&c, opts);
    if (threads > 1)
        crew_start(&c, r, jobs, n_jobs, opts, threads);
    for (size_t k = 0; k < n_jobs; k++)
        if (!c.side_started || !on_side(jobs[k].out, opts->formats))
            c.mine[c.here.n++] = &jobs[k];
    if (c.side_started && c.side.xlsx_gate != NULL)
        gate_wait(&c.xg);
    write_docs(&c.here);
    rc = crew_finish(&c, c.here.rc, err);
    free(jobs);
    if (rc != FP_OK) {
        fp_publish_abort(r);
        return rc;
    }
    return fp_publish_commit(r, err);
}
