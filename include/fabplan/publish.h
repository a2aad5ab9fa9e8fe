/* fabplan — publishing a set of files into a folder, all or nothing.
 *
 * Not part of the planner's API (fabplan.h does not include it): the mechanism fp_plan_write
 * uses, for a program that writes outputs of its own into a plan's folder the same way
 * (fabplan's compare, diff, sweep and verify do). */
#ifndef FABPLAN_PUBLISH_H
#define FABPLAN_PUBLISH_H

#include <stddef.h>
#include <stdio.h>
#include "fabplan/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Publishing a set of files into a folder, all or nothing: the mechanism fp_plan_write uses,
 *  for any other set of outputs (fabplan compare, diff, sweep). fp_publish_begin creates dir if
 *  missing, takes its lock (the second writer into a folder fails at once with FP_EIO: "another
 *  fabplan run is writing into DIR; ..."), removes temporary folders a killed run left and
 *  makes a fresh private folder DIR/.fabplan-tmp-XXXXXX (mode 0700); a temporary folder that
 *  a killed run left past its commit point is finished first (its journal says which renames
 *  are left), one that cannot be settled is FP_EIO. Each output is registered by its plain
 *  name (no '/', not "." or "..", not ".old", ".journal", ".journal.tmp", ".fabplan-manifest"
 *  or ".fabplan-tmp-*", each name once, at most 64) and written inside the temporary folder.
 *  fp_publish_commit fsyncs them, writes the journal and the folder's manifest (the new names
 *  added to the earlier set's: fp_plan_write alone replaces the set) and renames them into
 *  place with the same undo as fp_plan_write: dir then holds every new file or none (the
 *  earlier files intact), also after a SIGKILL once the next publish into dir has run
 *  (docs/robustness.md); an existing symlink at an output's name is replaced as
 *  a link, its target untouched; a folder where a file goes is an FP_EIO error before anything
 *  moves. fp_write_cleanup_signal removes the temporary folder of every publish in progress.
 *  Errors: FP_EINVAL (NULL argument, bad or repeated name), FP_EIO (err.where names the file;
 *  the message gives the system's reason), FP_ENOMEM. *out is NULL on failure. */
typedef struct fp_publish fp_publish;
FP_EXPORT fp_status fp_publish_begin(const char *dir, fp_publish **out, fp_error *err);
/** Register name and put the path to write it at (in the temporary folder) into path[n]. The
 *  caller creates the file there, never through a symlink (O_EXCL|O_NOFOLLOW; the folder is
 *  private). On failure the publish stays usable and must still be committed or aborted. */
FP_EXPORT fp_status fp_publish_path(fp_publish *p, const char *name, char *path, size_t n,
                                    fp_error *err);
/** Register name and create its file (O_EXCL|O_NOFOLLOW) for writing. The caller fcloses it,
 *  checking ferror and fclose, before fp_publish_commit. NULL on failure (err set). */
FP_EXPORT FILE *fp_publish_create(fp_publish *p, const char *name, fp_error *err);
/** Publish every registered file (see above), then release the lock and free p, whatever the
 *  result. Every registered file must have been written. */
FP_EXPORT fp_status fp_publish_commit(fp_publish *p, fp_error *err);
/** Give up: remove the temporary folder with everything in it, release the lock, free p. The
 *  folder's files are untouched. NULL is a harmless no-op. */
FP_EXPORT void fp_publish_abort(fp_publish *p);

#ifdef __cplusplus
}
#endif

#endif
