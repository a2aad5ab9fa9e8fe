/* fabplan — private to src/write/write.c and publish.c: the state of one publish (fp_publish of
 * fabplan/publish.h), which fp_plan_write's syncing thread reads, and the two publish steps it
 * calls directly. publish.c owns it; write.c only reads tfd, tpath, n and name and sets synced. */
#ifndef FP_WRITE_PUBLISH_H
#define FP_WRITE_PUBLISH_H

#include <stddef.h>
#include "fabplan/publish.h"
#include "write/writers.h"

/* A publish's state: the folder (its open descriptor and lock), the private temporary folder,
 * the names registered in it, and what was moved where (for the undo). */
#define PUB_MAX 96
#define PUB_MEMBERS 128             /* files in folders of registered files, all folders */
struct fp_publish {
    char dir[4096];
    int dfd, lfd, tfd, ofd, slot;
    char tname[32];
    char tpath[4200];
    size_t n;                       /* registered outputs, then the manifest (publish.c) */
    char name[PUB_MAX + 1][256];
    /* is_dir: 1 a folder written whole (--split-by), 2 a folder of registered files (its
     * files, "floor-by-hall/H1.svg", are in member[] and the manifest lists them) */
    unsigned char is_dir[PUB_MAX + 1], moved[PUB_MAX + 1], placed[PUB_MAX + 1];
    size_t n_member;
    char member[PUB_MEMBERS][256];
    unsigned char synced[PUB_MAX + 1];  /* already fsynced by fp_plan_write's syncing thread */
    /* replace: the set replaces the folder's earlier one (fp_plan_write): the manifest's earlier
     * outputs it does not write are dropped. Else they stay and the manifest keeps them. */
    int replace;
    size_t n_drop;
    char drop[PUB_MAX][256];
    unsigned char dropped[PUB_MAX];
    int keep;                       /* an undo failed: the folder and journal stay */
};

/* Register name (a plain name in the folder: not ".", "..", ".old" or a temporary folder's
 * name, not registered before, at most PUB_MAX) as a folder of files when is_dir, and put the
 * path to write it at into path (n bytes) unless path is NULL. A name "D/F" (two plain names)
 * is file F of folder D: D is registered once, as a folder of registered files (is_dir 2,
 * made in the temporary folder; published whole, like any output), and the manifest lists its
 * files. FP_EINVAL otherwise. */
fp_status fp__publish_add(fp_publish *r, const char *name, int is_dir, char *path, size_t n,
                          fp_error *err);

/* fsync every file and folder under name (relative to dfd; links are not followed, depth
 * bounds the recursion: call with 0). 0 on success, -1 with errno set. */
int fp__sync_tree(int dfd, const char *name, int depth);

/* Test hook: the most entries one removal of a temporary folder takes before it fails (a
 * positive limit sets it); returns the limit before. */
long fp__publish_cleanup_limit(long limit);

#endif
