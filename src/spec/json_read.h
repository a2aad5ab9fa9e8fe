/* fabplan — reading JSON documents with precise errors (the only cJSON user besides the writer). */
#ifndef FP_PRIVATE_SPEC_JSON_READ_H
#define FP_PRIVATE_SPEC_JSON_READ_H

#include <cjson/cJSON.h>
#include "util/util.h"
#include "spec/resolved.h"

/* Parse len bytes by the rules of fp_json_check (fabplan/read.h): syntax errors with line and
 * column, no U+0000, at most FP_JSON_MAX_DEPTH levels, each key once per object; trailing
 * garbage is an error. */
fp_status fp__json_parse(cJSON **out, const char *text, size_t len, const char *origin,
                         fp_error *err);
/* fp__json_parse; quote 0: the messages never quote the text (a file a spec names). */
fp_status fp__json_parse_quoted(cJSON **out, const char *text, size_t len, const char *origin,
                                int quote, fp_error *err);

/* cJSON_ParseWithLengthOpts(text, len, end, 1) under the lock that serialises cJSON's
 * process-wide error record; every parse goes through here. */
cJSON *fp__cjson_parse(const char *text, size_t len, const char **end);

/* "the string \"abc\"", "the number 3", "an object", ... for "found ..." in messages. */
const char *fp__json_describe(const cJSON *v, char *buf, size_t n);

/* Join a JSON pointer: base + "/" + key (with ~ and / escaped). Returns buf. */
char *fp__json_ptr(char *buf, size_t n, const char *base, const char *key);
char *fp__json_ptr_index(char *buf, size_t n, const char *base, int index);

/* Fail on keys of obj not in allowed (NULL-terminated), suggesting the closest allowed key. */
fp_status fp__json_check_keys(const cJSON *obj, const char *ptr, const char *const *allowed,
                              fp_error *err);

/* Typed member readers. A missing member leaves *out unchanged and returns FP_OK;
 * a present member of the wrong type or range fails with the member's pointer. */
fp_status fp__json_int(const cJSON *obj, const char *key, const char *ptr, int64_t min,
                       int64_t max, int64_t *out, fp_error *err);
/* fp__json_int for a value the planner chooses when not given: the string "auto" is as a
 * missing member (*out keeps the default that means "chosen"). fp__json_is_auto: 1 when obj's
 * member key is "auto". */
fp_status fp__json_int_auto(const cJSON *obj, const char *key, const char *ptr, int64_t min,
                            int64_t max, int64_t *out, fp_error *err);
int fp__json_is_auto(const cJSON *obj, const char *key);
/* fp__json_int for int fields; *out keeps its value (the default) when the member is missing. */
fp_status fp__json_i32(const cJSON *obj, const char *key, const char *ptr, int min, int max,
                       int *out, fp_error *err);
fp_status fp__json_num(const cJSON *obj, const char *key, const char *ptr, double min, double max,
                       double *out, fp_error *err);
fp_status fp__json_str(const cJSON *obj, const char *key, const char *ptr, char *out, size_t n,
                       fp_error *err);
/* An object member that must be an object when present; *out NULL when missing. */
fp_status fp__json_obj(const cJSON *obj, const char *key, const char *ptr, const cJSON **out,
                       fp_error *err);

/* The one rule for every name and label a spec or catalog gives (plan name, part ids and names,
 * overrides' device names, ...): valid UTF-8 (no overlong forms, surrogates or values above
 * U+10FFFF), no control characters (C0, DEL, C1) and no U+FFFE/U+FFFF. Returns (size_t)-1 when
 * s[0..len) follows it, else the offset of the first offending byte with *why saying what it is.
 * fp__json_str applies it to every string member it reads. */
size_t fp__text_check(const char *s, size_t len, const char **why);

/* Levenshtein distance, case-insensitive, capped at 64. */
int fp__edit_distance(const char *a, const char *b);



/* The spec's JSON tree (spec.c), borrowed: spec_print.c reads what was given. */
const cJSON *fp__spec_root(const fp_spec *spec);

/* Parse a part given inline in a spec ({"ports": 64, "port_gbps": 400, ...}) (catalog.c). */
fp_status fp__part_parse_inline(fp_part *pt, const cJSON *o, const char *ptr, fp_part_type type,
                                fp_error *err);
#endif
