/* Growth and expansion phases as a user runs them: fabric.build_for_gpus, plan.json "growth",
 * and fabplan diff between a first phase and the full build. */
#include <criterion/criterion.h>
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "helpers.h"
#include "xlsx_read.h"

#define BIN FP_TEST_BIN_DIR "/src/fabplan"

/* run(): helpers.h's run_shell (stdout and stderr captured, exit code returned). */
#define run run_shell

static double json_num(const cJSON *root, const char *a, const char *b)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, a);
    if (b)
        o = cJSON_GetObjectItemCaseSensitive(o, b);
    cr_assert(cJSON_IsNumber(o), "no number at %s/%s", a, b ? b : "");
    return o->valuedouble;
}

static cJSON *load_json(const char *path)
{
    char *text = slurp(path);
    cJSON *j = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(j, "%s is not JSON", path);
    return j;
}

/* Phase 1: 65,536 GPUs (2 zones of 4 x 4-tier clos on QM9700) with the tiers above the pods
 * built for 131,072; the full build: 131,072 GPUs. Hand count of what growing adds: 65,536 more
 * endpoints = 2,048 leaves + 64 pods x 32 spines = 2,048 spines; cores (4 zones x 1,024) and
 * super-cores (2,048) are already there. Links: +65,536 at NIC-leaf, leaf-spine and spine-core
 * (1:1), 0 at core-super-core (built in full). Nothing installed moves: the diff has no
 * removed, re-terminated or changed cable, and the added cables are the difference of the two
 * cable counts. */
/* Each test in its own scratch folder: the fixed names below are relative to it. */
TestSuite(growth, .init = enter_scratch_dir);

Test(growth, phase_one_is_a_subset_of_the_full_build, .timeout = TEST_TIMEOUT(300))
{
    char out[8192], cmd[1024], dir[128], path[256];
    scratch_dir(dir, sizeof dir, "growth");
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 65536 --topology clos --switch nvidia-qm9700 "
             "--set /fabric/build_for_gpus=131072 --formats json,cables -q -o %s/p1", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 131072 --topology clos --switch nvidia-qm9700 "
             "--formats json,cables -q -o %s/full", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(cmd, sizeof cmd, BIN " diff %s/p1 %s/full -o %s/d", dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);

    snprintf(path, sizeof path, "%s/p1/plan.json", dir);
    cJSON *p1 = load_json(path);
    snprintf(path, sizeof path, "%s/full/plan.json", dir);
    cJSON *full = load_json(path);
    snprintf(path, sizeof path, "%s/d/changes-summary.json", dir);
    cJSON *d = load_json(path);

    cr_expect_eq(json_num(p1, "summary", "tiers"), 4);
    cr_expect_eq(json_num(p1, "growth", "switches"), 4096);
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(p1, "growth");
    cr_expect_eq(json_num(g, "switches_by_tier", "leaf"), 2048);
    cr_expect_eq(json_num(g, "switches_by_tier", "spine"), 2048);
    cr_expect_eq(json_num(g, "switches_by_tier", "core"), 0);
    cr_expect_eq(json_num(g, "switches_by_tier", "super-core"), 0);
    cr_expect_eq(json_num(g, "links_by_boundary", "nic-leaf"), 65536);
    cr_expect_eq(json_num(g, "links_by_boundary", "leaf-spine"), 65536);
    cr_expect_eq(json_num(g, "links_by_boundary", "spine-core"), 65536);
    cr_expect_eq(json_num(g, "links_by_boundary", "core-super-core"), 0);

    double c_old = json_num(d, "cables_old", NULL), c_new = json_num(d, "cables_new", NULL);
    cr_expect_eq(json_num(d, "cables_removed", NULL), 0);
    cr_expect_eq(json_num(d, "cables_reterminated", NULL), 0);
    cr_expect_eq(json_num(d, "cables_changed", NULL), 0);
    cr_expect_eq(json_num(d, "cables_with_a_end_moved", NULL), 0);
    cr_expect_eq(json_num(d, "cables_added", NULL), c_new - c_old);
    cr_expect_eq(json_num(d, "cables_unchanged", NULL), c_old);
    /* growth in plan.json said the same before anything was built */
    cr_expect_eq(json_num(g, "cables", NULL), c_new - c_old);
    cr_expect_eq(json_num(d, "devices_added", NULL), 8192 + 4096);   /* servers + switches */
    cr_expect(fabs(json_num(d, "cost_of_step_usd", NULL) - json_num(g, "cost_usd", NULL)) < 1.0,
              "diff's cost %f, growth's %f", json_num(d, "cost_of_step_usd", NULL),
              json_num(g, "cost_usd", NULL));
    (void)full;
    cJSON_Delete(p1);
    cJSON_Delete(full);
    cJSON_Delete(d);
}

/* One cables.csv read for comparing: its lines, and per line the cable id, the A end and the
 * labels (fields of the copy in `split`). */
typedef struct cable_rows {
    csv_file f;
    char **id, **aend, **lab_a, **lab_z;
    char *split;
    long n;
} cable_rows;

static cable_rows cable_rows_load(const char *path)
{
    cable_rows c = { .f = csv_load(path) };
    size_t len = 0;
    for (long i = 0; i < c.f.n; i++)
        len += strlen(c.f.line[i]) + 1;
    c.split = malloc(len + 1);
    c.id = calloc((size_t)c.f.n, sizeof *c.id);
    c.aend = calloc((size_t)c.f.n, sizeof *c.aend);
    c.lab_a = calloc((size_t)c.f.n, sizeof *c.lab_a);
    c.lab_z = calloc((size_t)c.f.n, sizeof *c.lab_z);
    cr_assert(c.split && c.id && c.aend && c.lab_a && c.lab_z);
    char *w = c.split;
    for (long i = 1; i < c.f.n; i++) {       /* line 0: the header */
        char *fld[32];
        strcpy(w, c.f.line[i]);
        int nf = csv_split(w, fld, 32);
        w += strlen(c.f.line[i]) + 1;
        if (nf < 22)
            continue;
        /* cable_id, a_hall, ... a_device (5), a_port (6), ..., label_a (20), label_z (21) */
        c.id[c.n] = fld[0];
        fld[6][-1] = ' ';                   /* "device port": a_device's NUL back to a space */
        c.aend[c.n] = fld[5];
        c.lab_a[c.n] = fld[20];
        c.lab_z[c.n] = fld[21];
        c.n++;
    }
    return c;
}

static void cable_rows_free(cable_rows *c)
{
    csv_free(&c->f);
    free(c->split);
    free(c->id);
    free(c->aend);
    free(c->lab_a);
    free(c->lab_z);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* c's A ends sorted, each followed by its row: row_of_aend finds a row by binary search. */
typedef struct aend_row {
    const char *aend;
    long row;
} aend_row;

static aend_row *aend_index(const cable_rows *c)
{
    aend_row *x = malloc((size_t)(c->n ? c->n : 1) * sizeof *x);
    cr_assert_not_null(x);
    for (long i = 0; i < c->n; i++)
        x[i] = (aend_row){ c->aend[i], i };
    qsort(x, (size_t)c->n, sizeof *x, cmp_str);
    return x;
}

/* The row of the indexed table whose A end is aend, -1 when none. */
static long row_of_aend(const aend_row *x, long n, const char *aend)
{
    aend_row key = { aend, 0 };
    const aend_row *hit = bsearch(&key, x, (size_t)n, sizeof *x, cmp_str);
    return hit ? hit->row : -1;
}

/* Issue 27: a cable keeps its id, and so its labels, from the phase that first built it.
 * Phase 1: 8,192 GPUs built for 16,384 (default rail-optimized, 3 tiers: its pods are whole, so
 * nothing is re-terminated); phase 2: the 16,384-GPU plan. Every phase-1 row of cables.csv is
 * in phase 2 word for word (id, ends, places, lengths, labels: the ends' places are the
 * target's, docs/spec.md); the diff renumbers and relabels nothing; phase 2's new cables take
 * ids phase 1 does not use (phase 2's ids are distinct, so the ids common to both are exactly
 * phase 1's). A plain 8,192-GPU plan against the same full build does renumber (its leaf-spine
 * cables follow its own 8,192 NIC cables, in phase 2 they follow 16,384): there the diff lists
 * every kept cable whose labels differ, each with a row of changes.csv holding its new labels,
 * and cables_to_relabel is their count. */
Test(growth, phase_one_cable_ids_survive_growth, .timeout = TEST_TIMEOUT(120))
{
    char out[8192], cmd[1024], dir[128], path[256];
    scratch_dir(dir, sizeof dir, "ids");
    snprintf(cmd, sizeof cmd,
             BIN " plan --gpus 8192 --set /fabric/build_for_gpus=16384 --formats json,cables -q -o %s/ph1 && "
             BIN " plan --gpus 16384 --formats json,cables -q -o %s/ph2 && "
             BIN " plan --gpus 8192 --formats json,cables -q -o %s/p8 && "
             BIN " diff %s/ph1 %s/ph2 -o %s/d12 && " BIN " diff %s/p8 %s/ph2 -o %s/d82",
             dir, dir, dir, dir, dir, dir, dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/ph1/cables.csv", dir);
    csv_file f1 = csv_load(path);
    snprintf(path, sizeof path, "%s/ph2/cables.csv", dir);
    csv_file f2 = csv_load(path);
    cr_assert_gt(f1.n, 1);
    cr_assert_gt(f2.n, f1.n);
    /* both files list cables in id order: a merge finds each phase-1 row in phase 2 */
    long j = 1, missing = 0;
    for (long i = 1; i < f1.n; i++) {
        while (j < f2.n && strncmp(f2.line[j], f1.line[i], 8) < 0)
            j++;
        if (j >= f2.n || strcmp(f2.line[j], f1.line[i]) != 0) {
            if (missing++ < 3)
                cr_expect_fail("phase 1 row not in phase 2: %s", f1.line[i]);
        }
    }
    cr_expect_eq(missing, 0, "%ld of %ld phase-1 cables are not in phase 2 as they were",
                 missing, f1.n - 1);
    /* phase 2's ids are distinct */
    char **ids = malloc((size_t)f2.n * sizeof *ids);
    for (long i = 1; i < f2.n; i++)
        ids[i - 1] = f2.line[i];
    long dup = 0;
    for (long i = 1; i < f2.n - 1; i++)
        dup += strncmp(ids[i - 1], ids[i], 9) == 0;
    cr_expect_eq(dup, 0);
    free(ids);
    csv_free(&f1);
    csv_free(&f2);

    snprintf(path, sizeof path, "%s/d12/changes-summary.json", dir);
    cJSON *d = load_json(path);
    cr_expect_eq(json_num(d, "cables_renumbered", NULL), 0);
    cr_expect_eq(json_num(d, "cables_to_relabel", NULL), 0);
    cr_expect_eq(json_num(d, "cables_reterminated", NULL), 0);
    cr_expect_eq(json_num(d, "cables_unchanged", NULL), json_num(d, "cables_old", NULL));
    cJSON_Delete(d);
    cr_expect(strstr(out, "(0 renumbered)") != NULL, "%s", out);

    /* the plain 8,192-GPU plan: every kept cable whose labels differ is listed */
    snprintf(path, sizeof path, "%s/p8/cables.csv", dir);
    cable_rows o = cable_rows_load(path);
    snprintf(path, sizeof path, "%s/ph2/cables.csv", dir);
    cable_rows n = cable_rows_load(path);
    snprintf(path, sizeof path, "%s/d82/changes.csv", dir);
    csv_file ch = csv_load(path);
    /* changes.csv's rows by "a_device a_port" -> their labels */
    char **listed = calloc((size_t)ch.n, sizeof *listed);
    long n_listed = 0;
    for (long i = 1; i < ch.n; i++) {
        char *fld[24];
        if (csv_split(ch.line[i], fld, 24) < 18 || strcmp(fld[0], "added") == 0 ||
            strcmp(fld[0], "removed") == 0)
            continue;
        fld[4][-1] = ' ';
        listed[n_listed++] = fld[3];        /* "device port", then label_a (16) and label_z (17) */
    }
    qsort(listed, (size_t)n_listed, sizeof *listed, cmp_str);
    long relabel = 0, renumbered = 0;
    aend_row *nx = aend_index(&n);
    for (long i = 0; i < o.n; i++) {
        long k = row_of_aend(nx, n.n, o.aend[i]);
        if (k < 0)
            continue;
        renumbered += strcmp(o.id[i], n.id[k]) != 0;
        if (strcmp(o.lab_a[i], n.lab_a[k]) == 0 && strcmp(o.lab_z[i], n.lab_z[k]) == 0)
            continue;
        relabel++;
        char *key = o.aend[i];
        char **hit = bsearch(&key, listed, (size_t)n_listed, sizeof *listed, cmp_str);
        cr_expect_not_null(hit, "%s: labels change (%s -> %s) but changes.csv has no row", o.aend[i],
                           o.lab_a[i], n.lab_a[k]);
        if (hit) {
            const char *lab_a = *hit + strlen(*hit) + 1;     /* the fields after a_device a_port */
            for (int f = 5; f < 16; f++)    /* fld[5] .. fld[15]: to label_a, fld[16] */
                lab_a += strlen(lab_a) + 1;
            cr_expect_str_eq(lab_a, n.lab_a[k]);
        }
    }
    cr_expect_gt(renumbered, 0, "the plain phase renumbers nothing: the test cannot fail");
    snprintf(path, sizeof path, "%s/d82/changes-summary.json", dir);
    d = load_json(path);
    cr_expect_eq(json_num(d, "cables_to_relabel", NULL), relabel);
    cJSON_Delete(d);
    free(nx);
    free(listed);
    csv_free(&ch);
    cable_rows_free(&o);
    cable_rows_free(&n);
}

/* A diff the other way round removes what the forward diff adds and re-terminates the same
 * cables: 2,560 and 3,072 GPUs (3 tiers; the third pod holds 16 leaves with 16 spines in the
 * first, 32 leaves with 32 spines in the second). A different spread moves cables (the partial
 * pod of 20,000 GPUs has 32 spines even, 17 balanced). */
Test(growth, diff_categories, .timeout = TEST_TIMEOUT(120))
{
    char out[8192], cmd[1024], dir[128], path[256];
    scratch_dir(dir, sizeof dir, "diff");
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 2560 --topology clos --formats json,cables -q -o %s/a && "
             BIN " plan --gpus 3072 --topology clos --formats json,cables -q -o %s/b && "
             BIN " diff %s/a %s/b -o %s/ab && " BIN " diff %s/b %s/a -o %s/ba",
             dir, dir, dir, dir, dir, dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/ab/changes-summary.json", dir);
    cJSON *ab = load_json(path);
    snprintf(path, sizeof path, "%s/ba/changes-summary.json", dir);
    cJSON *ba = load_json(path);
    cr_expect(json_num(ab, "cables_added", NULL) > 0);
    cr_expect(json_num(ab, "cables_reterminated", NULL) > 0);
    cr_expect_eq(json_num(ab, "cables_added", NULL), json_num(ba, "cables_removed", NULL));
    cr_expect_eq(json_num(ab, "cables_removed", NULL), json_num(ba, "cables_added", NULL));
    cr_expect_eq(json_num(ab, "cables_reterminated", NULL), json_num(ba, "cables_reterminated", NULL));
    cr_expect_eq(json_num(ab, "devices_added", NULL), json_num(ba, "devices_removed", NULL));
    cr_expect_eq(json_num(ab, "cables_new", NULL) - json_num(ab, "cables_old", NULL),
                 json_num(ab, "cables_added", NULL) - json_num(ab, "cables_removed", NULL));
    cJSON_Delete(ab);
    cJSON_Delete(ba);
    snprintf(path, sizeof path, "%s/ba/changes.csv", dir);
    char *csv = slurp(path);
    cr_expect(strncmp(csv, "change,old_cable_id,new_cable_id,a_device,a_port,", 49) == 0);
    cr_expect(strstr(csv, "\nremoved,") != NULL);
    cr_expect(strstr(csv, "\nre-terminated,") != NULL);
    free(csv);

    snprintf(cmd, sizeof cmd, BIN " plan --gpus 20000 --topology clos --formats json,cables -q -o %s/e && "
             BIN " plan --gpus 20000 --topology clos --set /fabric/spread=balanced --formats json,cables -q -o %s/f && "
             BIN " diff %s/e %s/f -o %s/d2", dir, dir, dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/d2/changes-summary.json", dir);
    cJSON *d = load_json(path);
    cr_expect(json_num(d, "cables_reterminated", NULL) > 0);
    cr_expect(json_num(d, "devices_removed", NULL) >= 15 + 192, "640 -> 625 spines, 512 -> 320 cores");
    cJSON_Delete(d);
}

Test(growth, diff_bad_input)
{
    char out[8192], cmd[512];
    cr_expect_eq(run(BIN " diff", out, sizeof out), 2);
    cr_expect_eq(run(BIN " diff /nonexistent-a /nonexistent-b -o fabplan-diff-never", out, sizeof out), 4, "%s", out);
    cr_expect(strstr(out, "/nonexistent-a/cables.csv") != NULL, "%s", out);
    FILE *f = fopen("fabplan-diff-bad/cables.csv", "w");
    if (f == NULL) {
        cr_assert_eq(system("mkdir -p fabplan-diff-bad"), 0);
        f = fopen("fabplan-diff-bad/cables.csv", "w");
    }
    cr_assert_not_null(f);
    fputs("id,a,b\n1,2,3\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, BIN " diff fabplan-diff-bad fabplan-diff-bad -o fabplan-diff-never");
    cr_expect_eq(run(cmd, out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "no column \"cable_id\"") != NULL, "%s", out);
    cr_expect_neq(access("fabplan-diff-never/changes.csv", F_OK), 0);
}

/* diff finds cables.csv's columns by their names (fp_cables_column_name), not their places: a
 * copy of a plan whose cables.csv has its columns in reverse order (header and rows alike)
 * is the same plan, no change; a column renamed is missing, and diff names it. */
Test(growth, diff_reads_columns_by_name, .timeout = TEST_TIMEOUT(60))
{
    char out[8192], cmd[2048], dir[128], path[256];
    scratch_dir(dir, sizeof dir, "diff-columns");
    snprintf(cmd, sizeof cmd,
             "cd %s && " BIN " plan --gpus 256 --formats json,cables -q -o a && rm -rf r && "
             "cp -r a r && awk -F, -v OFS=, '{ for (i = NF; i > 1; i--) printf \"%%s,\", $i; "
             "print $1 }' a/cables.csv > r/cables.csv && " BIN " diff a r -o ar",
             dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/r/cables.csv", dir);
    char *csv = slurp(path);
    cr_assert(strncmp(csv, "protocol,label_z,label_a,", 25) == 0, "the columns reversed: %.60s", csv);
    free(csv);
    snprintf(path, sizeof path, "%s/ar/changes-summary.json", dir);
    cJSON *d = load_json(path);
    static const char *const none[] = { "cables_added", "cables_removed", "cables_reterminated",
                                        "cables_changed", "cables_renumbered",
                                        "cables_with_a_end_moved", "cables_to_relabel" };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        cr_expect_eq(json_num(d, none[i], NULL), 0, "%s", none[i]);
    cr_expect_gt(json_num(d, "cables_old", NULL), 0);
    cr_expect_eq(json_num(d, "cables_old", NULL), json_num(d, "cables_new", NULL));
    cr_expect_eq(json_num(d, "cables_unchanged", NULL), json_num(d, "cables_old", NULL));
    cJSON_Delete(d);

    snprintf(cmd, sizeof cmd, "cd %s && sed '1s/,label_a,/,label_A,/' a/cables.csv > r/cables.csv && "
             BIN " diff a r -o ar2", dir);
    cr_expect_eq(run(cmd, out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "no column \"label_a\"") != NULL, "%s", out);
}

/* FNV-1a 64 over cells, each followed by a 0 byte (the rule docs/outputs.md states for
 * plan.json's cable_list), written here from the published algorithm: offset basis
 * 0xcbf29ce484222325, prime 0x100000001b3. */
static uint64_t fnv_cell(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h * 0x100000001b3ull;
}

/* The digest of a cables.csv without quoted cells: cable_id, a_device, a_port (columns 1, 6, 7). */
static uint64_t csv_digest(const char *csv, long *rows)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const char *line = strchr(csv, '\n') + 1;
    *rows = 0;
    while (*line) {
        const char *cell = line, *end;
        for (int col = 0; col < 7; col++) {
            end = strpbrk(cell, ",\n");
            if (col == 0 || col == 5 || col == 6)
                h = fnv_cell(h, cell, (size_t)(end - cell));
            cell = end + 1;
        }
        line = strchr(line, '\n') + 1;
        (*rows)++;
    }
    return h;
}

/* diff refuses a cables.csv that is not its plan.json's (issue: cut at a line boundary it
 * reported "68 added", header-only "160 -> 0", an old one beside a refreshed plan.json "0
 * changed" with the other plan's cost): plan.json's cable_list holds the count and the digest
 * of the cables' ids and A ends, which diff recomputes. */
Test(growth, diff_refuses_a_cables_csv_that_is_not_its_plans, .timeout = TEST_TIMEOUT(60))
{
    char out[8192], cmd[2048], dir[128], path[256];
    scratch_dir(dir, sizeof dir, "diff-identity");
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 64 --formats json,cables -q -o %s/a && "
             BIN " plan --gpus 128 --formats json,cables -q -o %s/b && "
             BIN " diff %s/a %s/b -o %s/ok", dir, dir, dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);

    /* plan.json's cable_list is the digest of its own cables.csv, computed here */
    snprintf(path, sizeof path, "%s/b/cables.csv", dir);
    char *csv = slurp(path);
    long rows = 0;
    uint64_t h = csv_digest(csv, &rows);
    free(csv);
    snprintf(path, sizeof path, "%s/b/plan.json", dir);
    cJSON *pj = load_json(path);
    char want[32];
    snprintf(want, sizeof want, "fnv1a64:%016llx", (unsigned long long)h);
    cr_expect_eq(json_num(pj, "cable_list", "cables"), (double)rows);
    const cJSON *dg = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(pj, "cable_list"), "digest");
    cr_assert(cJSON_IsString(dg));
    cr_expect_str_eq(dg->valuestring, want);
    cJSON_Delete(pj);

    static const struct { const char *name, *spoil, *says; } cases[] = {
        { "cut", "head -11 b/cables.csv > b2/cables.csv", "has 10 cables where plan.json lists" },
        { "header", "head -1 b/cables.csv > b2/cables.csv", "has 0 cables where plan.json lists" },
        { "other-plan", "cp a/plan.json b2/plan.json", "where plan.json lists" },
        /* the same number of cables, one A port moved (to a port no other cable has): only
         * the digest tells */
        { "edited", "awk -F, -v OFS=, 'NR == 2 { $7 = $7 \"x\" } { print }' b/cables.csv > b2/cables.csv",
          "is not the one written with it" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && rm -rf b2 && cp -r b b2 && %s", dir, cases[i].spoil);
        cr_assert_eq(run(cmd, out, sizeof out), 0, "%s: %s", cases[i].name, out);
        snprintf(cmd, sizeof cmd, BIN " diff %s/a %s/b2 -o %s/%s", dir, dir, dir, cases[i].name);
        cr_expect_eq(run(cmd, out, sizeof out), 3, "%s: %s", cases[i].name, out);
        cr_expect(strstr(out, cases[i].says) != NULL, "%s: %s", cases[i].name, out);
        snprintf(path, sizeof path, "%s/%s/changes.csv", dir, cases[i].name);
        cr_expect_neq(access(path, F_OK), 0, "%s: no output after a refusal", cases[i].name);
    }
    /* a plan.json of an earlier fabplan (no cable_list) is not checked */
    snprintf(cmd, sizeof cmd, "cd %s && rm -rf b2 && cp -r b b2 && "
             "sed -i '/\"cable_list\"/,/}/d' b2/plan.json && grep -c cable_list b2/plan.json; "
             BIN " diff %s/a %s/b2 -o %s/old", dir, dir, dir, dir);
    cr_expect_eq(run(cmd, out, sizeof out), 0, "%s", out);
}

/* A step that adds a network (spec `networks`) costs that network: cables.csv lists its cables,
 * so diff counts them, and the step's cost must count its parts too. 256 GPUs (32 servers of 8)
 * without and with an out-of-band network of 1 GbE BMC ports on SN2201 leaves (48 x 1G + 4 x
 * 100G) under an SN4600C: 32 BMCs take one leaf, whose one 100G uplink needs one spine. Hand
 * count: 32 cords + 1 uplink = 33 cables added, 2 switches added, and at least the switches'
 * catalog prices, $6,000 + $25,000; exactly the oob lines of the new plan's bom.csv. The compute
 * fabric is the same in both plans, so plan.json `totals` (compute only) would say $0. */
Test(growth, diff_costs_an_added_network, .timeout = TEST_TIMEOUT(60))
{
    char out[8192], cmd[1024], dir[128], path[256];
    scratch_dir(dir, sizeof dir, "diffnet");
    snprintf(cmd, sizeof cmd,
             BIN " plan --set /cluster/gpus=256 --formats json,cables,bom -q -o %s/a && "
             BIN " plan --set /cluster/gpus=256 --set '/networks=[{\"name\":\"oob\",\"role\":\"oob\","
             "\"port_gbps\":1,\"switch\":[\"nvidia-sn2201\",\"nvidia-sn4600c\"]}]' "
             "--formats json,cables,bom -q -o %s/b && " BIN " diff %s/a %s/b -o %s/d",
             dir, dir, dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/d/changes-summary.json", dir);
    cJSON *d = load_json(path);
    cr_expect_eq(json_num(d, "cables_added", NULL), 33);
    cr_expect_eq(json_num(d, "devices_added", NULL), 2);
    /* the oob lines of b's bom.csv (last column: network) */
    snprintf(path, sizeof path, "%s/b/bom.csv", dir);
    csv_file c = csv_load(path);
    double oob = 0;
    for (long i = 1; i < c.n; i++) {
        char line[4096], *f[32];
        snprintf(line, sizeof line, "%s", c.line[i]);
        int nf = csv_split(line, f, 32);
        cr_assert_eq(nf, 12, "bom.csv line %ld: %s", i, c.line[i]);
        if (strcmp(f[11], "oob") == 0)
            oob += strtod(f[7], NULL);
    }
    csv_free(&c);
    cr_expect_geq(oob, 6000 + 25000);
    double step = json_num(d, "cost_of_step_usd", NULL);
    cr_expect(fabs(step - oob) < 0.01, "cost of the step $%.2f, the oob network's lines $%.2f", step,
              oob);
    cJSON_Delete(d);
}

/* fabplan sweep, clos on QM9700 (64 x 400G, 32 down / 32 up at 1:1), even spread:
 * - 1,024 GPUs: 2 tiers (up to 2,048); 32 leaves; the spine group takes 32 x 32 = 1,024 uplinks
 *   on 64-port spines: 16 spines (16 divides 32): 48 switches, 0.046875 per GPU.
 * - 2,048: 64 leaves, 2,048 / 64 = 32 spines: 96 switches, 0.046875 per GPU: flat.
 * - 3,072: more than 2 tiers hold: 3 tiers; 96 leaves in 3 pods of 32 leaves with 32 spines
 *   each (96); a core group (one spine position of the 3 pods) takes 3 x 32 = 96 uplinks:
 *   2 cores (2 divides 32), 32 groups: 64 cores. 256 switches, 0.0833 per GPU: the jump.
 * - 4,096: 128 leaves, 4 pods: 128 spines; groups of 4 x 32 = 128 uplinks: 2 cores: 64;
 *   320 switches. */
Test(growth, sweep_jump_and_flat, .timeout = TEST_TIMEOUT(120))
{
    char out[8192], cmd[512], dir[128], path[256];
    scratch_dir(dir, sizeof dir, "sweep");
    snprintf(cmd, sizeof cmd, BIN " sweep --gpus 1024..4096:1024 --topology clos --switch nvidia-qm9700 -o %s", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "from 2048 to 3072 GPUs") != NULL && strstr(out, "at a tier change") != NULL,
              "the largest rise must be the tier change: %s", out);
    snprintf(path, sizeof path, "%s/sweep.csv", dir);
    char *csv = slurp(path);
    cr_expect(strstr(csv, "\n1024,2,32,16,0,0,48,") != NULL, "%s", csv);
    cr_expect(strstr(csv, "\n2048,2,64,32,0,0,96,") != NULL, "%s", csv);
    cr_expect(strstr(csv, "\n3072,3,96,96,64,0,256,") != NULL, "%s", csv);
    cr_expect(strstr(csv, "\n4096,3,128,128,64,0,320,") != NULL, "%s", csv);
    cr_expect(strstr(csv, ",0.046875,") != NULL);
    free(csv);
    snprintf(path, sizeof path, "%s/sweep.svg", dir);
    char *svg = slurp(path);
    cr_expect(strncmp(svg, "<svg ", 5) == 0);
    cr_expect(strstr(svg, "2 to 3 tiers") != NULL);
    free(svg);
    /* workers only share the work: one worker writes the same bytes */
    snprintf(cmd, sizeof cmd, BIN " sweep --gpus 1024..4096:1024 --topology clos --switch nvidia-qm9700 -j 1 -q -o %s/one"
             " && cmp %s/sweep.csv %s/one/sweep.csv && cmp %s/sweep.svg %s/one/sweep.svg", dir, dir, dir, dir, dir);
    cr_expect_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect_eq(run(BIN " sweep --gpus 4096..1024", out, sizeof out), 2);
    cr_expect(strstr(out, "A..B") != NULL, "%s", out);
    cr_expect_eq(run(BIN " sweep --topology clos", out, sizeof out), 2);
    cr_assert_eq(system("rm -rf fabplan-sweep-never"), 0);
    cr_expect_eq(run(BIN " sweep --gpus 1..2 --switch nvidia-nope -o fabplan-sweep-never", out, sizeof out), 3,
                 "%s", out);
    cr_expect_neq(access("fabplan-sweep-never/sweep.csv", F_OK), 0);
}

/* diff's relabel.xlsx (issue 27): one row per end of a kept cable whose label changes, the
 * label it has and the one it gets, sorted by the end's place for a walk through the hall, a
 * Done box to tick. 512 -> 1,024 GPUs (default rail-optimized: the second half's leaves take
 * spine ports, so kept leaf-spine cables are re-terminated and renumbered). Expected: from the
 * two cables.csv, every cable whose A end is in both, each of its two labels that differs. A
 * plan against itself relabels nothing: the sheet is its header row alone. */
static int cmp_pstr(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

Test(growth, relabel_sheet_lists_every_end_whose_label_changes, .timeout = TEST_TIMEOUT(120))
{
    char out[8192], cmd[1024], dir[128], path[256];
    scratch_dir(dir, sizeof dir, "relabel");
    snprintf(cmd, sizeof cmd,
             BIN " plan --gpus 512 --formats json,cables -q -o %s/a && "
             BIN " plan --gpus 1024 --formats json,cables -q -o %s/b && "
             BIN " diff %s/a %s/b -o %s/ab && " BIN " diff %s/a %s/a -o %s/aa",
             dir, dir, dir, dir, dir, dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    /* the summary's money has thousands separators (issue 27 point 9), from the two plan.json */
    double ca = 0, cb = 0;
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s/plan.json", dir, k ? "b" : "a");
        cJSON *pj = load_json(path);
        *(k ? &cb : &ca) = json_num(pj, "totals", "cost");
        cJSON_Delete(pj);
    }
    char want_cost[160];
    long s = lrint(cb - ca), a0 = lrint(ca), b0 = lrint(cb);  /* as printf %.0f rounds */
    cr_assert(s >= 1000000 && s < 1000000000 && a0 >= 1000000 && b0 < 1000000000,
              "costs out of the range this check formats");
    snprintf(want_cost, sizeof want_cost,
             "cost of the step: $%ld,%03ld,%03ld (plan.json totals: $%ld,%03ld,%03ld -> "
             "$%ld,%03ld,%03ld)", s / 1000000, s / 1000 % 1000, s % 1000, a0 / 1000000,
             a0 / 1000 % 1000, a0 % 1000, b0 / 1000000, b0 / 1000 % 1000, b0 % 1000);
    cr_expect(strstr(out, want_cost) != NULL, "want \"%s\" in:\n%s", want_cost, out);
    snprintf(path, sizeof path, "%s/a/cables.csv", dir);
    cable_rows o = cable_rows_load(path);
    snprintf(path, sizeof path, "%s/b/cables.csv", dir);
    cable_rows n = cable_rows_load(path);
    aend_row *ox = aend_index(&o);
    /* "old id|new id|old label|new label" per end that changes */
    char **want = calloc((size_t)(2 * n.n + 1), sizeof *want);
    long n_want = 0;
    for (long i = 0; i < n.n; i++) {
        long q = row_of_aend(ox, o.n, n.aend[i]);
        if (q < 0)
            continue;
        for (int z = 0; z < 2; z++) {
            const char *lo = z ? o.lab_z[q] : o.lab_a[q], *ln = z ? n.lab_z[i] : n.lab_a[i];
            if (strcmp(lo, ln) == 0)
                continue;
            size_t len = strlen(lo) + strlen(ln) + 40;
            want[n_want] = malloc(len);
            snprintf(want[n_want++], len, "%s|%s|%s|%s", o.id[q], n.id[i], lo, ln);
        }
    }
    cr_assert_gt(n_want, 0, "the step relabels nothing: the test cannot fail");
    qsort(want, (size_t)n_want, sizeof *want, cmp_pstr);

    snprintf(path, sizeof path, "%s/ab/relabel.xlsx", dir);
    char names[4][32];
    cr_assert_eq(xl_sheet_names(path, names, 4), 1);
    cr_expect_str_eq(names[0], "Relabel");
    char *xml = xl_sheet(path, 1);
    const char *pos = xml;
    static xl_row row;
    static const char *const head[] = { "Hall", "Row", "Rack", "U", "Device", "Port",
                                        "Old cable ID", "Cable ID", "Old label", "New label",
                                        "Done" };
    cr_assert(xl_next_row(&pos, &row));
    for (int c = 0; c < 11; c++)
        cr_expect_str_eq(row.v[c], head[c], "header column %d", c + 1);
    char **got = calloc((size_t)(n_want + 1), sizeof *got);
    long n_got = 0, prev[4] = { 0, 0, 0, 0 };
    while (xl_next_row(&pos, &row)) {
        cr_assert_lt(n_got, n_want, "more rows than ends to relabel");
        long at[4];
        for (int k = 0; k < 4; k++)
            at[k] = atol(row.v[k]);
        int order = 0;
        for (int k = 0; k < 4 && order == 0; k++)
            order = (at[k] > prev[k]) - (at[k] < prev[k]);
        cr_expect_geq(order, 0, "row %ld: H%ld R%ld K%ld U%ld before the row above", row.r,
                      at[0], at[1], at[2], at[3]);
        memcpy(prev, at, sizeof prev);
        /* the end's place is the one the new label names first: "<id> H1-R01-K05-U35 ..." */
        char place[64];
        snprintf(place, sizeof place, "%s H%ld-R%02ld-K%02ld-U%02ld ", row.v[7], at[0], at[1],
                 at[2], at[3]);
        cr_expect(strncmp(row.v[9], place, strlen(place)) == 0, "row %ld: %s is not at %s",
                  row.r, row.v[9], place);
        cr_expect_neq(row.style[10], 0, "row %ld: no Done box", row.r);
        size_t len = strlen(row.v[8]) + strlen(row.v[9]) + 40;
        got[n_got] = malloc(len);
        snprintf(got[n_got++], len, "%s|%s|%s|%s", row.v[6], row.v[7], row.v[8], row.v[9]);
    }
    cr_expect_eq(n_got, n_want);
    qsort(got, (size_t)n_got, sizeof *got, cmp_pstr);
    for (long i = 0; i < n_got && i < n_want; i++)
        cr_expect_str_eq(got[i], want[i]);
    free(xml);
    snprintf(path, sizeof path, "%s/aa/relabel.xlsx", dir);
    xml = xl_sheet(path, 1);
    cr_expect_eq(xl_count_rows(xml), 1, "a plan against itself has ends to relabel");
    free(xml);
    for (long i = 0; i < n_want; i++)
        free(want[i]);
    for (long i = 0; i < n_got; i++)
        free(got[i]);
    free(want);
    free(got);
    free(ox);
    cable_rows_free(&o);
    cable_rows_free(&n);
}
