/* fabplan — reading the files fabplan takes as input: one bounded file reader, the JSON rules and
 * the CSV record splitter every reader of fabplan's documents shares. */
#ifndef FABPLAN_READ_H
#define FABPLAN_READ_H

#include <stddef.h>
#include "fabplan/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a file is: each kind has its own size limit (fp_file_limit; docs/robustness.md). */
typedef enum fp_file_kind {
    FP_FILE_SPEC = 0,   /**< a spec (fp_spec_load): 64 MiB */
    FP_FILE_CATALOG,    /**< a catalog (fp_catalog_merge_file): 16 MiB */
    FP_FILE_OVERRIDES,  /**< a cable overrides file a spec's "overrides" names: 64 MiB */
    FP_FILE_PLAN,       /**< a file of a plan folder (plan.json, cables.csv, links.csv, read by
                             diff and verify): 4 GiB, and it must be a regular file */
    FP_FILE_DISCOVERY,  /**< a discovered fabric (ibnetdiscover output, read by verify): 4 GiB;
                             a pipe is allowed */
    FP_FILE_N_KINDS
} fp_file_kind;

/** The size limit of kind in bytes (0 for a kind out of range). */
FP_EXPORT size_t fp_file_limit(fp_file_kind kind);

/** Read the whole file at path into *text (NUL-terminated, freed with fp_free) and its length
 *  into *len (may be NULL). At most fp_file_limit(kind) bytes are read: a regular file larger
 *  than that fails before anything is read, a stream (a pipe, /dev/zero) once it passes the
 *  limit; a stream stops early at the first read that brings a NUL byte (the text then holds
 *  it: refuse it as for any NUL). Errors (*text NULL): FP_EINVAL for a NULL path or text or
 *  a kind out of range, and for a file over the limit ("PATH is larger than 64 MiB, the limit of a spec; expected ..."), a
 *  non-regular file of kind FP_FILE_PLAN or a folder; FP_EIO when it cannot be opened or read
 *  (the system's reason); FP_ENOMEM. A NUL byte in the text is not checked here (the JSON and
 *  CSV readers refuse it with its offset). */
FP_EXPORT fp_status fp_read_file(const char *path, fp_file_kind kind, char **text, size_t *len,
                                 fp_error *err);

/** Check len bytes of JSON text by the rules of every JSON document fabplan reads: valid syntax
 *  (FP_EPARSE with err.line and err.column; the text near the error is quoted unless quote is
 *  0, as for a file a spec names, whose content the user may not be allowed to see), no U+0000
 *  raw or escaped (FP_EPARSE with the offset), nesting at most FP_JSON_MAX_DEPTH arrays and
 *  objects deep (FP_EPARSE with line and column), every key at most once per object (FP_EINVAL
 *  naming the key and its JSON pointer, err.where the pointer). Messages show control
 *  characters of the text as '?'. origin names the text in messages ("plan.json").
 *  FP_EINVAL for a NULL text or origin. For programs that parse fabplan's documents
 *  themselves (the CLI's diff reads plan.json). */
FP_EXPORT fp_status fp_json_check(const char *text, size_t len, const char *origin, int quote,
                                  fp_error *err);
/** The deepest nesting of arrays and objects a JSON document may have. */
#define FP_JSON_MAX_DEPTH 64

/** Split the CSV record at *p in place (RFC 4180: quoted fields, "" inside quotes; CRLF or LF
 *  ends it): each field NUL-terminated in the text, the starts of the first max fields stored in
 *  fields[]. Returns the number of fields in the record (which may exceed max; 0 at the end of
 *  the text) and moves *p past the record. The text must be NUL-terminated and hold no other
 *  NUL (check with memchr first: fp_read_file does not). p, *p or fields NULL (fields with max
 *  > 0): returns 0. */
FP_EXPORT int fp_csv_record(char **p, char **fields, int max);

#ifdef __cplusplus
}
#endif

#endif
