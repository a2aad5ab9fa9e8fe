/* Test helpers: build plans from JSON text and read numbers back through the public API. */
#ifndef FP_TEST_HELPERS_H
#define FP_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabplan.h"

/* A test's timeout in seconds at native speed; scripts/ci-sanitize.sh builds the suites for
 * valgrind with -DFABPLAN_TEST_TIMEOUT_SCALE=60, where everything runs 20-50x slower. */
#ifndef FP_TEST_TIMEOUT_SCALE
#define FP_TEST_TIMEOUT_SCALE 1
#endif
#define TEST_TIMEOUT(seconds) ((seconds) * FP_TEST_TIMEOUT_SCALE)

/* The preset dgx-h100-4su-networks as it was before it followed the RA's Tables 7 and 8 (main
 * 7c07c38: 128 DGX, storage at 1:1, in-band without uplinks_per_leaf, out-of-band in SU-wide
 * leaves with 78 switch management ports given by hand): the spec the networks' mechanism tests
 * derive their counts from (each test's comment). The preset itself: test_superpod.c. */
#define SUPERPOD_V1 \
    "{\"name\": \"dgx-h100-4su-networks\", \"cluster\": {\"gpus\": 1024, " \
    "\"gpus_per_server\": 8, \"nics_per_server\": 1, \"nic\": \"nvidia-dgx-h100-sys\"}, " \
    "\"fabric\": {\"topology\": \"rail-optimized\", \"tiers\": \"auto\", " \
    "\"switch\": \"nvidia-qm9700\", \"su_servers\": 32}, \"networks\": [{\"name\": \"storage\", " \
    "\"role\": \"storage\", \"ports_per_server\": 2, \"port_gbps\": 400, " \
    "\"switch\": \"nvidia-qm9700\", \"oversubscription\": [1]}, {\"name\": \"inband\", " \
    "\"role\": \"management\", \"ports_per_server\": 2, \"port_gbps\": 100, " \
    "\"dual_homed\": true, \"switch\": \"nvidia-sn4600c\", " \
    "\"extra_endpoints\": [{\"name\": \"mgmt-server\", \"count\": 5, \"ports\": 2, \"ru\": 1}, " \
    "{\"name\": \"ufm\", \"count\": 4, \"ports\": 2, \"ru\": 1}]}, {\"name\": \"oob\", " \
    "\"role\": \"oob\", \"ports_per_server\": 1, \"port_gbps\": 1, " \
    "\"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"], " \
    "\"extra_endpoints\": [{\"name\": \"mgmt-server-bmc\", \"ru\": 0, \"count\": 5, " \
    "\"ports\": 1}, {\"name\": \"ufm-bmc\", \"ru\": 0, \"count\": 4, \"ports\": 1}, " \
    "{\"name\": \"switch-mgmt\", \"ru\": 0, \"count\": 78, \"ports\": 1}]}]}"

/* 1 when one of the plan's notes holds a (and b too, unless b is NULL). */
static inline int plan_has_note(const fp_plan *p, const char *a, const char *b)
{
    for (size_t i = 0; i < fp_plan_note_count(p); i++)
        if (strstr(fp_plan_note(p, i), a) && (b == NULL || strstr(fp_plan_note(p, i), b)))
            return 1;
    return 0;
}

/* The spec of built-in preset `name`, or of `name` itself when it is a JSON object (SUPERPOD_V1). */
static inline fp_status spec_from_preset(fp_spec **spec, const char *name, fp_error *err)
{
    if (name[0] == '{')
        return fp_spec_parse(spec, name, strlen(name), "<test>", err);
    return fp_spec_preset(spec, name, err);
}

/* Build a plan from JSON; fails the test with the library's message on error. */
/* The plan of built-in preset `name` (fabplan presets; or a JSON spec, spec_from_preset). */
static inline fp_plan *plan_from_preset(const char *name)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(spec_from_preset(&spec, name, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&plan, spec, cat, &err), FP_OK, "%s", err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return plan;
}

static inline fp_plan *plan_from(const char *json)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &err), FP_OK, "%s", err.msg);
    fp_status rc = fp_plan_new(&plan, spec, cat, &err);
    cr_assert_eq(rc, FP_OK, "%s\n  spec: %s", err.msg, json);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return plan;
}

/* The plan of json (or "preset:NAME") built with just `stages` (fp_plan_new_opts). */
static inline fp_plan *plan_with_stages(const char *json, unsigned stages)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    o.stages = stages;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    if (strncmp(json, "preset:", 7) == 0)
        cr_assert_eq(fp_spec_preset(&spec, json + 7, &err), FP_OK, "%s", err.msg);
    else
        cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new_opts(&plan, spec, cat, &o, &err), FP_OK, "%s", err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return plan;
}

/* Try to build; return the status and copy the error out. */
static inline fp_status plan_error(const char *json, fp_error *err)
{
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    memset(err, 0, sizeof *err);
    cr_assert_eq(fp_catalog_new(&cat, err), FP_OK, "%s", err->msg);
    fp_status rc = fp_spec_parse(&spec, json, strlen(json), "<test>", err);
    if (rc == FP_OK)
        rc = fp_plan_new(&plan, spec, cat, err);
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return rc;
}

/* Files in dir whose names do not start with '.'. */
static inline int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    cr_assert_not_null(d, "cannot open %s", dir);
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The number at s as a reader's text writes it, commas between digit groups ("16,384",
 * "-1,234"), as atoll: digits up to the first other character. */
static inline long long atoll_grouped(const char *s)
{
    long long v = 0;
    int neg = *s == '-';
    for (s += neg; (*s >= '0' && *s <= '9') || (*s == ',' && s[1] >= '0' && s[1] <= '9'); s++)
        if (*s != ',')
            v = v * 10 + (*s - '0');
    return neg ? -v : v;
}

/* v written for a reader, a comma before each three digits from the right: 1024 -> "1,024"
 * (the separators the diagrams and report.html print; written here from the rule). */
static inline const char *with_commas(char *buf, size_t n, long long v)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%lld", v < 0 ? -v : v);
    size_t k = 0;
    if (v < 0 && k + 1 < n)
        buf[k++] = '-';
    for (int i = 0; i < len && k + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
    return buf;
}

/* Whole file as a NUL-terminated string (caller frees); fails the test when unreadable. */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    cr_assert_not_null(b);
    cr_assert_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    return b;
}

/* Write text into path (replaced); the test fails when it cannot. */
static inline void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot create %s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "cannot write %s", path);
}

/* Run a shell command; capture stdout+stderr into out (n bytes); return the exit code, or -1
 * when it did not exit normally. */
static inline int run_shell(const char *cmd, char *out, size_t n)
{
    char full[2048];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    cr_assert_not_null(p);
    size_t k = fread(out, 1, n - 1, p);
    out[k] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Entries of dir that look like leftover temporary files: fabplan's folders (.fabplan-tmp-*)
 * or the earlier scheme's .NAME.tmp. */
static inline int count_temp(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    cr_assert_not_null(d);
    while ((e = readdir(d)) != NULL)
        n += strncmp(e->d_name, ".fabplan-tmp-", 13) == 0 || strstr(e->d_name, ".tmp") != NULL;
    closedir(d);
    return n;
}

/* Remove path and everything under it (no symlink is followed); errors are ignored. */
static inline void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d != NULL && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            size_t n = strlen(path) + strlen(e->d_name) + 2;
            char *child = malloc(n);
            if (child == NULL)
                break;
            snprintf(child, n, "%s/%s", path, e->d_name);
            remove_tree(child);
            free(child);
        }
        if (d != NULL)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* The scratch folders this test process made; a function-local static so that a test file
 * that never calls scratch_dir has no unused variable. */
typedef struct { char **paths; size_t n; } scratch_list;
static inline scratch_list *scratch_dirs(void)
{
    static scratch_list list;
    return &list;
}

static inline void scratch_remove_all(void)
{
    scratch_list *l = scratch_dirs();
    const char *keep = getenv("FABPLAN_TEST_KEEP");
    for (size_t i = 0; i < l->n; i++) {
        if (keep == NULL || *keep == '\0')
            remove_tree(l->paths[i]);
        free(l->paths[i]);
    }
    free(l->paths);
    l->paths = NULL;
    l->n = 0;
}

/* Make a fresh folder BASE/fabplan-TAG-XXXXXX into buf (n bytes) and remove it with everything in it when the test process exits, pass or fail (set
 * FABPLAN_TEST_KEEP=1 to keep the folders for a look). Call from the test's own thread.
 * scratch_dir makes it under $TMPDIR (default /tmp). */
static inline void scratch_dir_in(char *buf, size_t n, const char *base, const char *tag)
{
    scratch_list *l = scratch_dirs();
    int len = snprintf(buf, n, "%s/fabplan-%s-XXXXXX", base, tag);
    cr_assert(len > 0 && (size_t)len < n, "scratch_dir: buffer of %zu bytes too small", n);
    cr_assert_not_null(mkdtemp(buf), "scratch_dir: mkdtemp(%s) failed", buf);
    if (l->n == 0)
        atexit(scratch_remove_all);
    char **grown = realloc(l->paths, (l->n + 1) * sizeof *grown);
    cr_assert_not_null(grown);
    l->paths = grown;
    l->paths[l->n] = strdup(buf);
    cr_assert_not_null(l->paths[l->n]);
    l->n++;
}

static inline void scratch_dir(char *buf, size_t n, const char *tag)
{
    const char *tmp = getenv("TMPDIR");
    scratch_dir_in(buf, n, tmp != NULL && *tmp != '\0' ? tmp : "/tmp", tag);
}

/* Non-spare BOM quantity of one part (all its stock lengths). */
static inline int64_t bom_quantity(const fp_plan *p, const char *part)
{
    int64_t q = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        if (!l.spare && strcmp(l.part, part) == 0)
            q += l.quantity;
    }
    return q;
}

/* Run the test inside its own scratch folder (a suite's .init): fixed file names the test uses
 * (relative ones) then never meet another run's, even when two suites run at once. */
static inline void enter_scratch_dir(void)
{
    char dir[256];
    scratch_dir(dir, sizeof dir, "cwd");
    cr_assert_eq(chdir(dir), 0, "chdir(%s) failed", dir);
}

static inline int64_t tier_switches(const fp_plan *p, int tier)
{
    fp_tier_info t;
    if ((size_t)tier > fp_plan_tier_count(p) || tier < 1)
        return 0;
    cr_assert_eq(fp_plan_tier(p, (size_t)tier - 1, &t, NULL), FP_OK);
    return t.switches;
}

#endif
