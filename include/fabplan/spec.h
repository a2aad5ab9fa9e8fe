/* fabplan — the plan specification (JSON).
 *
 * A spec is a JSON document; every field is optional and falls back to the built-in default
 * (16,384 GPUs, 8 per server, one 400G NIC per GPU, 64-port 400G switches, rail-optimized,
 * tiers chosen automatically). The field names are a contract; see docs/spec.md.
 * A spec is checked against a catalog when it is resolved (fp_spec_validate, fp_plan_new). */
#ifndef FABPLAN_SPEC_H
#define FABPLAN_SPEC_H

#include <stddef.h>
#include "fabplan/error.h"
#include "fabplan/catalog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fp_spec fp_spec;

/** CONSTRUCTOR: an empty spec ({}), which plans the built-in default. Errors: FP_ENOMEM. */
FP_EXPORT fp_status fp_spec_new(fp_spec **out, fp_error *err);

/** CONSTRUCTOR: parse a spec from JSON text of len bytes (the text need not be NUL-terminated).
 *  origin names the text in messages (a file name or "<string>"). Only syntax and the shape of
 *  the document are checked here; values are checked by fp_spec_validate.
 *  Errors: FP_EPARSE (err.line/err.column), FP_EINVAL (not an object), FP_ENOMEM. */
FP_EXPORT fp_status fp_spec_parse(fp_spec **out, const char *json, size_t len, const char *origin,
                                  fp_error *err);

/** CONSTRUCTOR: read and parse the spec file at path. Errors: FP_EIO and those of fp_spec_parse. */
FP_EXPORT fp_status fp_spec_load(fp_spec **out, const char *path, fp_error *err);

/** CONSTRUCTOR: a named preset from templates/presets.json ("default", "dgx-h100-4su", ...).
 *  Errors: FP_EINVAL for an unknown name (the message lists the presets). */
FP_EXPORT fp_status fp_spec_preset(fp_spec **out, const char *name, fp_error *err);

/** Number of built-in presets (0 only if the embedded presets are malformed). Cannot fail. */
FP_EXPORT size_t fp_spec_preset_count(void);

/** Copy the name and one-line description of preset i into caller buffers (either may be NULL).
 *  Errors: FP_EINVAL when i is out of range. */
FP_EXPORT fp_status fp_spec_preset_info(size_t i, char *name, size_t name_n, char *desc,
                                        size_t desc_n, fp_error *err);

/** Set the value at a JSON pointer ("/cluster/gpus", "/fabric/switch/1"), creating missing
 *  objects on the way (a missing member followed by an index or "-" becomes a list). In lists an index
 *  0..n-1 replaces an item and n or "-" appends; "~1" and "~0" stand for '/' and '~'.
 *  value is JSON text ("16384", "[2,1]", "\"clos\""); text that is not valid JSON is taken as
 *  a string, so `--switch nvidia-sn5600` works. Used for command-line overrides.
 *  Errors: FP_EINVAL (bad pointer, an index out of range, or a path through a value that is
 *  not an object or list), FP_ENOMEM. */
FP_EXPORT fp_status fp_spec_set(fp_spec *spec, const char *pointer, const char *value,
                                fp_error *err);

/** Check every value against the rules and the catalog and resolve "auto" choices, without
 *  building the fabric (the spec is not changed; nothing is returned to own).
 *  Errors: FP_EINVAL (err.where is the JSON pointer), FP_ECATALOG (unknown part; the message
 *  lists close matches), FP_EDESIGN (the request cannot be built), FP_EIO / FP_EPARSE (an
 *  "overrides" file that cannot be read or parsed), FP_ENOMEM. */
FP_EXPORT fp_status fp_spec_validate(const fp_spec *spec, const fp_catalog *cat, fp_error *err);

/** METHOD: read every file the spec names (today the "overrides" file) once and put its content
 *  into the spec, so that the plans built from it, and its copies through fp_spec_to_json,
 *  never read the file again (a pipe reads once; a copy that lost the spec's folder still has
 *  it). A relative name is read from the spec file's folder (the working folder for a spec
 *  parsed from text or a preset), as fp_plan_new reads it. Nothing to do is FP_OK.
 *  Errors (spec unchanged): FP_EINVAL (spec NULL, an empty name, a file that holds no list of
 *  cable overrides), FP_EIO (cannot be read: the message names /overrides and the path),
 *  FP_EPARSE (not JSON: file, line and column), FP_ENOMEM. */
FP_EXPORT fp_status fp_spec_inline_files(fp_spec *spec, fp_error *err);

/** The spec as JSON text, exactly as given (not resolved). The caller frees it with fp_free.
 *  Errors: FP_ENOMEM. */
FP_EXPORT fp_status fp_spec_to_json(const fp_spec *spec, char **out, fp_error *err);

/** The spec resolved against the catalog, as JSON text a spec file may hold: every key of
 *  `name`, `cluster`, `fabric`, `layout`, `media` and `bom` with the value the plan uses, each
 *  default filled in ("auto" where the planner chooses: fabric.tiers, su_servers,
 *  uplinks_per_leaf, leaf/pod/zone_servers, layout.halls); parts as given (a catalog id or the
 *  inline object); `overrides` as a list (a file it names read in, [] when none) and each entry
 *  of `networks` with every default it takes, as the planner resolves it (docs/spec.md). A
 *  network is resolved only after the fabrics before it are built, so a spec with `networks`
 *  is planned to its fabric (FP_STAGE_FABRIC) first. Planned again with the same catalog it
 *  gives the same plan, byte for byte. The caller frees *out with fp_free.
 *  Errors: those of resolving the spec (FP_EINVAL, FP_ECATALOG, FP_EIO, FP_EPARSE: the checks
 *  fp_spec_validate makes before it sizes the fabric; with `networks`, those of building the
 *  fabrics, FP_EDESIGN among them), FP_EINVAL (an argument NULL), FP_ENOMEM. */
FP_EXPORT fp_status fp_spec_resolved_json(const fp_spec *spec, const fp_catalog *cat, char **out,
                                          fp_error *err);

/** The spec's top-level `name` as given, or NULL when it has none (absent, not a string, or
 *  empty). Borrowed: valid until the spec is changed or freed. spec may be NULL (NULL). */
FP_EXPORT const char *fp_spec_name(const fp_spec *spec);

/** DESTRUCTOR: free the spec. NULL is a harmless no-op. */
FP_EXPORT void fp_spec_free(fp_spec *spec);

/** Free memory that a fabplan call returned to the caller (strings from fp_spec_to_json and
 *  fp_plan_to_json). NULL is a harmless no-op. */
FP_EXPORT void fp_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
