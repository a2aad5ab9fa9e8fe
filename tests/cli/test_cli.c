/* The CLI as a user runs it: exit codes, messages, outputs. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "helpers.h"
#include "xlsx_read.h"

#define BIN FP_TEST_BIN_DIR "/src/fabplan"

#define run run_shell

/* Each test in its own scratch folder: the fixed names below are relative to it. */
TestSuite(cli, .init = enter_scratch_dir);

Test(cli, default_plan_writes_outputs)
{
    char out[8192], dir[128], cmd[256];
    scratch_dir(dir, sizeof dir, "cli");
    snprintf(cmd, sizeof cmd, "cd %s && " BIN " plan", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "16384 GPUs") != NULL, "%s", out);
    cr_expect(strstr(out, "using 3 tiers") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "%s/out/plan.json", dir);
    cr_expect_eq(access(cmd, F_OK), 0);
    snprintf(cmd, sizeof cmd, "%s/out/links.csv", dir);
    cr_expect_eq(access(cmd, F_OK), 0);
}

Test(cli, exit_codes)
{
    char out[8192];
    cr_expect_eq(run(BIN, out, sizeof out), 2);
    cr_expect_eq(run(BIN " frobnicate", out, sizeof out), 2);
    cr_expect_eq(run(BIN " plan --bogus", out, sizeof out), 2);
    cr_expect_eq(run(BIN " --version", out, sizeof out), 0);
    cr_expect(strstr(out, FP_VERSION) != NULL);
    cr_expect_eq(run(BIN " --help", out, sizeof out), 0);
    cr_expect_eq(run(BIN " plan --tiers 2 -o fabplan-cli-never", out, sizeof out), 3);
    cr_expect(strstr(out, "2-tier maximum of 2048") != NULL, "%s", out);
    cr_expect_neq(access("fabplan-cli-never/plan.json", F_OK), 0);
    cr_expect_eq(run(BIN " plan /nonexistent.json", out, sizeof out), 4, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 512 --switch nvidia-qm970", out, sizeof out), 3);
    cr_expect(strstr(out, "nvidia-qm9700") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 1024 --topology clos --oversubscription 2", out, sizeof out), 0, "%s", out);
}

/* An option's value follows it as the next word or after '=' (docs/fabplan.1, README), for every
 * option that takes one: --gpus=8 worked while --split-by=row, --preset=, --set=, -o's --out= and
 * --catalog= were "unknown option ...; did you mean --split-by?". */
Test(cli, option_value_after_equals)
{
    char out[8192];
    cr_expect_eq(run(BIN " validate --preset=dgx-h100-4su --set=/layout/halls=2 --labels=tia606 "
                         "--split-by=row --fail=spine:1 --seed=2",
                     out, sizeof out),
                 0, "%s", out);
    cr_expect(strstr(out, "dgx-h100-4su with /layout/halls=2; --fail spine:1: valid") != NULL, "%s",
              out);
    cr_expect_eq(run(BIN " plan --gpus=64 --formats=json --out=fabplan-cli-eq -q", out, sizeof out),
                 0, "%s", out);
    cr_expect_eq(access("fabplan-cli-eq/plan.json", F_OK), 0);
    cr_expect_eq(run(BIN " catalog --catalog=/nonexistent.json", out, sizeof out), 4, "%s", out);
    cr_expect_eq(run(BIN " compare --gpus=256 --jobs=1 --min-bisection=1 -q", out, sizeof out), 0,
                 "%s", out);
    /* a flag takes no value; the word after an option given alone is its value, whole */
    cr_expect_eq(run(BIN " plan --png=yes", out, sizeof out), 2, "%s", out);
    cr_expect(strstr(out, "did you mean --png?") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --name --gpus=64 --print-spec", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "\"name\":\t\"--gpus=64\"") != NULL, "%s", out);
}

/* opt in text as a word of its own: after a space, ',' or '[', before a space, ',', ']', '=' or
 * the end of a line. */
static int names_option(const char *text, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = strstr(text, opt); p; p = strstr(p + 1, opt))
        if ((p == text || strchr(" ,[", p[-1])) && strchr(" ,]=\n", p[n]))
            return 1;
    return 0;
}

/* Each command's --help names every option it takes (fabplan _options, the list behind the
 * completion and "did you mean"; validate takes plan's, as its help says), and the spec
 * options' descriptions stand in the column of the others' (column 23, or under an option too
 * long for columns 3-21): they were at 19 to 24 ("--name NAME        plan name"). sweep's
 * --gpus is its range, listed once (it was beside "--gpus N  number of GPUs"). */
Test(cli, help_names_every_option)
{
    static const char *const cmds[] = { "plan", "validate", "compare", "sweep",
                                        "diff", "verify",   "catalog" };
    static char help[65536];
    char opts[4096], cmd[512];
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        snprintf(cmd, sizeof cmd, BIN " _options %s", cmds[c]);
        cr_assert_eq(run(cmd, opts, sizeof opts), 0, "%s", opts);
        snprintf(cmd, sizeof cmd, BIN " %s --help%s", cmds[c],
                 strcmp(cmds[c], "validate") == 0 ? " && " BIN " plan --help" : "");
        cr_assert_eq(run(cmd, help, sizeof help), 0, "%s", help);
        for (char *o = strtok(opts, "\n"); o; o = strtok(NULL, "\n"))
            if (strcmp(o, "-h") != 0 && strcmp(o, "--help") != 0 && strcmp(o, "--version") != 0)
                cr_expect(names_option(help, o), "fabplan %s --help does not name %s", cmds[c], o);
        if (strcmp(cmds[c], "verify") == 0 || strcmp(cmds[c], "diff") == 0 ||
            strcmp(cmds[c], "catalog") == 0)
            continue;
        int gpus = 0;
        for (char *l = strtok(help, "\n"); l; l = strtok(NULL, "\n")) {
            gpus += strncmp(l, "  --gpus ", 9) == 0;
            if (strncmp(l, "  -", 3) != 0)
                continue;
            size_t len = strlen(l);
            if (strstr(l + 2, "  ") == NULL) /* an option alone, its description below */
                continue;
            cr_expect(len > 22 && l[21] == ' ' && l[22] != ' ' && strstr(l + 2, "  ") < l + 22,
                      "fabplan %s --help: description not at column 23: \"%s\"", cmds[c], l);
        }
        if (strcmp(cmds[c], "sweep") == 0)
            cr_expect_eq(gpus, 1, "fabplan sweep --help lists --gpus %d times", gpus);
    }
}

/* Every spec of examples/specs (the README points a new user there) validates and plans. */
Test(cli, example_specs_validate_and_plan)
{
    static char out[65536];
    char cmd[1024];
    DIR *d = opendir(FP_TEST_SRC_DIR "/examples/specs");
    struct dirent *e;
    int n = 0;
    cr_assert_not_null(d);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        n++;
        snprintf(cmd, sizeof cmd, BIN " validate " FP_TEST_SRC_DIR "/examples/specs/%s", e->d_name);
        cr_expect_eq(run(cmd, out, sizeof out), 0, "%s: %s", cmd, out);
        cr_expect(strstr(out, ": valid\n") != NULL, "%s: %s", cmd, out);
        snprintf(cmd, sizeof cmd,
                 BIN " plan " FP_TEST_SRC_DIR
                     "/examples/specs/%s --formats json -q -o fabplan-cli-ex-%.*s",
                 e->d_name, (int)(len - 5), e->d_name);
        cr_expect_eq(run(cmd, out, sizeof out), 0, "%s: %s", cmd, out);
        snprintf(cmd, sizeof cmd, "fabplan-cli-ex-%.*s/plan.json", (int)(len - 5), e->d_name);
        cr_expect_eq(access(cmd, F_OK), 0, "%s", cmd);
    }
    closedir(d);
    cr_expect_geq(n, 5, "examples/specs holds %d specs", n);
}

/* The summary's tier table: the model column of every tier's row stands under "model", the
 * 4-tier super-core's too (its role, 10 letters, pushed its row one column right). */
Test(cli, summary_tier_table_aligned)
{
    char out[16384];
    cr_assert_eq(run(BIN " plan --switch generic-th3-32x400 --topology clos --tiers 4 --gpus 1024 "
                         "--formats links -o fabplan-cli-t4",
                     out, sizeof out),
                 0, "%s", out);
    const char *head = strstr(out, "  tier "), *col = head ? strstr(head, "model") : NULL;
    cr_assert(head && col, "%s", out);
    int want = (int)(col - head), rows = 0;
    for (const char *l = strchr(head, '\n') + 1;
         strncmp(l, "  ", 2) == 0 && l[2] >= '1' && l[2] <= '4'; l = strchr(l, '\n') + 1, rows++) {
        const char *m = strstr(l, "generic-th3-32x400");
        cr_assert_not_null(m, "%s", l);
        cr_expect_eq((int)(m - l), want, "tier row: %.40s", l);
    }
    cr_expect_eq(rows, 4, "%s", out);
}

Test(cli, spec_file_syntax_error_has_position)
{
    char out[8192];
    FILE *f = fopen("fabplan-cli-bad.json", "w");
    fputs("{\n  \"cluster\": { \"gpus\": 12 \n}\n", f);
    fclose(f);
    cr_expect_eq(run(BIN " validate fabplan-cli-bad.json", out, sizeof out), 3);
    cr_expect(strstr(out, "fabplan-cli-bad.json:4:") != NULL, "%s", out);
}

Test(cli, flags_override_file)
{
    char out[8192];
    FILE *f = fopen("fabplan-cli-spec.json", "w");
    fputs("{\"cluster\":{\"gpus\":65536},\"fabric\":{\"topology\":\"clos\"}}", f);
    fclose(f);
    cr_expect_eq(run(BIN " plan fabplan-cli-spec.json --gpus 512 -o fabplan-cli-o1", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "clos fabric: 512 GPUs") != NULL, "%s", out);
    cr_expect_eq(run(BIN " plan --switch '{\"ports\":4,\"port_gbps\":400}' --topology fat-tree --gpus 16 --gpus-per-server 1 -o fabplan-cli-o2",
                     out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "switches 20") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 512 --set /fabric/reserve=0.95", out, sizeof out), 3);
    cr_expect(strstr(out, "/fabric/reserve") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --set reserve", out, sizeof out), 2);
    /* --name is text whatever it looks like: "--name 2026" was "/name: expected a string,
     * found the number 2026" */
    cr_expect_eq(run(BIN " validate --name 2026 --print-spec", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "\"name\":\t\"2026\"") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --name 'a\"b' --print-spec", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "\"name\":\t\"a\\\"b\"") != NULL, "%s", out);
}

Test(cli, oversubscription_as_ratio)
{
    char out[8192];
    /* "2:1" and "3:2" are how architects write ratios: leaf 2:1 on 64 ports is 42 down / 21 up */
    cr_expect_eq(run(BIN " plan --gpus 1024 --topology clos --oversubscription 2:1 --formats json -o fabplan-cli-o3", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "2:1") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 1024 --oversubscription 3:2,1:1", out, sizeof out), 0, "%s", out);
    /* under-subscribed (more uplink than downlink bandwidth) and fractional ratios plan */
    cr_expect_eq(run(BIN " validate --gpus 1024 --oversubscription 1:2", out, sizeof out), 0, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 1024 --oversubscription 16:15", out, sizeof out), 0, "%s", out);
    /* shown as written: the tier choice "at 16:15"; the leaf's down:up as built, 33 down and
     * 31 up at 400G on 64 ports (33 + ceil(33 x 15 / 16) = 33 + 31 = 64) = 33:31; never a
     * rounded decimal such as 1.06667:1 (asked) or 1.06452:1 (built). The metrics' "in use"
     * figure counts links, not ports, and may stay a decimal (a denominator past 256). */
    cr_expect_eq(run(BIN " plan --gpus 1024 --topology clos --oversubscription 16:15 --formats json -o fabplan-cli-o3", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, " at 16:15") != NULL, "%s", out);
    cr_expect(strstr(out, " 33:31 ") != NULL, "%s", out);
    cr_expect(strstr(out, "1.06667") == NULL && strstr(out, "1.06452") == NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 1024 --oversubscription 0:1", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "/fabric/oversubscription/0") != NULL, "%s", out);
    /* Issue 27 ("leaf 0.996492:1"): an "in use" ratio that stays a decimal has at most four
     * significant digits. At 12,000 GPUs (1,500 servers: the last of 47 scalable units is
     * partial and keeps a full unit's uplinks) the leaves' links in use are not a small
     * fraction. */
    cr_expect_eq(run(BIN " plan --gpus 12000 --formats json -o fabplan-cli-o3", out, sizeof out), 0, "%s", out);
    const char *use = strstr(out, "oversubscription in use: leaf ");
    cr_assert_not_null(use, "%s", out);
    use += strlen("oversubscription in use: leaf ");
    size_t digits = 0, len = strcspn(use, ":");
    for (size_t k = 0; k < len; k++)
        digits += use[k] >= '0' && use[k] <= '9';
    cr_expect(memchr(use, '.', len) != NULL, "a fraction, not a decimal: %.20s", use);
    cr_expect(digits <= 5, "more than four significant digits: %.20s", use);   /* "0." + 4 */
}

Test(cli, catalog_list_and_show)
{
    char out[16384];
    cr_expect_eq(run(BIN " catalog list switch", out, sizeof out), 0);
    cr_expect(strstr(out, "nvidia-qm9700") && strstr(out, "nvidia-sn5600"), "%s", out);
    cr_expect(strstr(out, "nvidia-mma4z00-ns ") == NULL, "switch list shows a transceiver");
    cr_expect_eq(run(BIN " catalog show nvidia-sn5600", out, sizeof out), 0);
    cr_expect(strstr(out, "128 x 400G") != NULL, "%s", out);
    cr_expect_eq(run(BIN " catalog show sn5600x", out, sizeof out), 3);
    cr_expect(strstr(out, "nvidia-sn5600") != NULL, "%s", out);
}

/* Write text to path (a spec or catalog for one test). */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* 1 when dir holds no entry besides . and .. (or does not exist). */
static int dir_empty(const char *dir)
{
    char cmd[256], out[256];
    snprintf(cmd, sizeof cmd, "ls -A %s 2>/dev/null | wc -l", dir);
    run(cmd, out, sizeof out);
    return atoi(out) == 0;
}

Test(cli, repeated_key_is_an_error)
{
    /* cJSON keeps both "gpus" and reads the first: before, 16 was silently ignored. */
    char out[8192];
    write_text("fabplan-cli-dup.json", "{\"cluster\":{\"gpus\":8,\"gpus\":16}}");
    cr_expect_eq(run(BIN " validate fabplan-cli-dup.json", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "/cluster/gpus: key \"gpus\" appears more than once") != NULL, "%s", out);
    write_text("fabplan-cli-arr.json", "[]");
    cr_expect_eq(run(BIN " validate fabplan-cli-arr.json", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "found an empty array") != NULL, "%s", out);
}

Test(cli, set_reaches_into_lists)
{
    char out[8192];
    /* Before, /fabric/oversubscription/0 built an object {"0": 2}, rejected as "found an object". */
    cr_expect_eq(run(BIN " validate --gpus 1024 --topology clos --set /fabric/oversubscription/0=2", out,
                     sizeof out), 0, "%s", out);
    /* An index past the end: the list has 1 item, so 0..1 or "-" are valid. */
    cr_expect_eq(run(BIN " validate --gpus 1024 --oversubscription 2 --set /fabric/oversubscription/5=3",
                     out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "not an index of this 1-item list; expected 0 to 1") != NULL, "%s", out);
    /* ~1 decodes to '/': the key named is "a/b", not "a~1b" re-escaped to "a~01b". */
    cr_expect_eq(run(BIN " validate --set '/a~1b=2'", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "unknown key \"a/b\"") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --set '/a~2b=2'", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "'~' must be followed by 0") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --set /cluster/gpus/x=1", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "which is a number") != NULL, "%s", out);
}

Test(cli, validate_catches_what_plan_would)
{
    /* Each of these passed `validate` before and failed only in `plan`. 512 GPUs at 1:1 on
     * 64-port switches is 2 tiers: 512 NIC links + 512 leaf-spine links = 1024 links and
     * cables, so C9999999 is out of range. */
    char out[8192];
    write_text("fabplan-cli-ov.json",
               "{\"cluster\":{\"gpus\":512},\"overrides\":[{\"cable\":\"C9999999\",\"length_m\":7}]}");
    cr_expect_eq(run(BIN " validate fabplan-cli-ov.json", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "/overrides/0: no cable \"C9999999\"") != NULL, "%s", out);
    /* A leaf-spine run leaves the unit's racks: metres, beyond a 2-3 m DAC. */
    cr_expect_eq(run(BIN " validate --gpus 512 --set /media/leaf-spine=DAC", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "beyond every allowed medium") != NULL, "%s", out);
    /* A NIC with a cage no cable or module in the catalog fits. */
    write_text("fabplan-cli-cage.json", "{\"parts\":[{\"id\":\"nvidia-cx7-osfp\",\"type\":\"nic\","
                                              "\"ports\":1,\"port_gbps\":400,\"cage\":\"CFP8\"}]}");
    cr_expect_eq(run(BIN " validate --gpus 512 --catalog fabplan-cli-cage.json", out, sizeof out), 3,
                 "%s", out);
    cr_expect(strstr(out, "CFP8 cage") != NULL, "%s", out);
    /* 512 GPUs / 8 per server / 32 per unit = 2 scalable units. */
    cr_expect_eq(run(BIN " validate --gpus 512 --detail su:9", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "2 scalable units") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 512 --detail su:2", out, sizeof out), 0, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 512 --fail leaf:99", out, sizeof out), 3, "%s", out);
}

Test(cli, bad_values_leave_no_output)
{
    char out[8192], dir[128], cmd[512];
    scratch_dir(dir, sizeof dir, "cli");
    write_text("fabplan-cli-ovempty.json", "{\"overrides\":\"\"}");
    snprintf(cmd, sizeof cmd, BIN " plan fabplan-cli-ovempty.json -q -o %s/a", dir);
    cr_expect_eq(run(cmd, out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "/overrides: expected a file name") != NULL, "%s", out);
    write_text("fabplan-cli-ovmissing.json", "{\"overrides\":\"/nonexistent-ov.json\"}");
    snprintf(cmd, sizeof cmd, BIN " plan fabplan-cli-ovmissing.json -q -o %s/a", dir);
    cr_expect_eq(run(cmd, out, sizeof out), 4, "%s", out);
    cr_expect(strstr(out, "/overrides: cannot open /nonexistent-ov.json") != NULL, "%s", out);
    cr_expect_eq(run(BIN " plan --gpus 512 -q -o ''", out, sizeof out), 2, "%s", out);
    cr_expect(strstr(out, "-o needs a non-empty value") != NULL, "%s", out);
    /* Every candidate fails on the base spec's GPU count: before, exit 0 and compare.csv. */
    snprintf(cmd, sizeof cmd, BIN " compare --gpus -1 -q -o %s/a", dir);
    cr_expect_eq(run(cmd, out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "none of the") != NULL && strstr(out, "/cluster/gpus") != NULL, "%s", out);
    cr_expect(dir_empty(dir), "outputs left in %s", dir);
    cr_expect_eq(run(BIN " presets default extra", out, sizeof out), 2, "%s", out);
    cr_expect_eq(run(BIN " presets extra", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "unknown preset \"extra\"") != NULL, "%s", out);
    char many[2048] = BIN " validate";
    for (int i = 0; i < 33; i++)
        strcat(many, " --set /layout/halls=1");
    cr_expect_eq(run(many, out, sizeof out), 2, "%s", out);
    cr_expect(strstr(out, "too many overrides (at most 32") != NULL, "%s", out);
}

/* --formats links builds the fabric alone: the summary gives the fabric and says what it did
 * not build (no racks, BOM or metrics lines); --formats bom builds up to the BOM. */
Test(cli, formats_build_only_the_stages_they_read)
{
    char out[8192], dir[128], cmd[512];
    scratch_dir(dir, sizeof dir, "cli");
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 512 -o %s --formats links", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "not built (the outputs chosen do not need them): layout, cabling, BOM and metrics\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "  layout: ") == NULL && strstr(out, "  BOM: ") == NULL &&
              strstr(out, "  bisection ") == NULL, "%s", out);
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 512 -o %s --formats bom", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "not built (the outputs chosen do not need them): metrics\n") != NULL, "%s", out);
    cr_expect(strstr(out, "  BOM: $") != NULL && strstr(out, "  bisection ") == NULL, "%s", out);
    /* All outputs: nothing is left out. */
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 512 -o %s --formats json", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "not built") == NULL && strstr(out, "  bisection ") != NULL, "%s", out);
}

Test(cli, formats_choose_outputs)
{
    char out[8192], dir[128], cmd[512], path[128];
    scratch_dir(dir, sizeof dir, "cli");
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 512 -o %s --formats json,bom", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "wrote ") != NULL && strstr(out, "plan.json, bom.csv\n") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "ls -A %s | tr '\\n' ' '", dir);
    run(cmd, out, sizeof out);
    /* and the folder's manifest of them (one plan per folder, docs/robustness.md) */
    cr_expect_str_eq(out, ".fabplan-manifest bom.csv plan.json ");
    /* --no-xlsx: the default set minus the workbook. */
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 512 -q -o %s/nx --no-xlsx", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/nx/plan.xlsx", dir);
    cr_expect_neq(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/nx/cables.csv", dir);
    cr_expect_eq(access(path, F_OK), 0);
    /* Usage errors, each before planning and without touching DIR/bad. */
    const char *bad[][2] = {
        { "--formats json,bogus", "unknown output \"bogus\"" },
        { "--formats ''", "unknown output \"\"" },
        { "--formats", "--formats needs a comma list of: json, links" },
        { "--formats png", "png renders the diagrams" },
        { "--formats json --split-by row", "add xlsx to --formats" },
        { "--no-xlsx --split-by hall", "add xlsx to --formats" },
        { "--formats json --detail su:1", "add detail (or diagrams)" },
        { "--formats xlsx --no-xlsx", "nothing to write" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, BIN " plan --gpus 512 -q -o %s/bad %s", dir, bad[i][0]);
        cr_expect_eq(run(cmd, out, sizeof out), 2, "%s: %s", bad[i][0], out);
        cr_expect(strstr(out, bad[i][1]) != NULL, "%s: %s", bad[i][0], out);
    }
    snprintf(path, sizeof path, "%s/bad", dir);
    cr_expect_neq(access(path, F_OK), 0);
    cr_expect_eq(run(BIN " plan --help", out, sizeof out), 0);
    cr_expect(strstr(out, "--formats LIST") != NULL && strstr(out, "--no-xlsx") != NULL, "%s", out);
}

Test(cli, overrides_path_relative_to_spec_and_to_cwd)
{
    char out[8192], cmd[512];
    /* spec and override file side by side in one directory, run from another directory */
    system("rm -rf fabplan-cli-ovdir && mkdir -p fabplan-cli-ovdir/specs fabplan-cli-ovdir/run");
    write_text("fabplan-cli-ovdir/specs/ov.json", "{\"cables\":[{\"cable\":\"C0000001\",\"length_m\":9}]}");
    write_text("fabplan-cli-ovdir/specs/spec.json", "{\"cluster\":{\"gpus\":256},\"overrides\":\"ov.json\"}");
    snprintf(cmd, sizeof cmd, "cd fabplan-cli-ovdir/run && " BIN " plan ../specs/spec.json --formats cables -q -o o1");
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    char *csv = slurp("fabplan-cli-ovdir/run/o1/cables.csv");
    /* the override's 9 m route is cable 1's route; its stock length is the next one sold */
    char *row = strstr(csv, "\nC0000001,");
    cr_assert_not_null(row);
    cr_expect(strstr(row, ",9.00,") != NULL, "%.200s", row);
    free(csv);
    /* --overrides on the command line is relative to the working directory */
    snprintf(cmd, sizeof cmd, "cd fabplan-cli-ovdir/specs && " BIN " validate --gpus 256 --overrides ov.json -q");
    cr_expect_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(cmd, sizeof cmd, "cd fabplan-cli-ovdir/run && " BIN " validate --gpus 256 --overrides ov.json");
    cr_expect_eq(run(cmd, out, sizeof out), 4, "%s", out);
    cr_expect(strstr(out, "fabplan-cli-ovdir/run/ov.json") != NULL, "%s", out);
}

Test(cli, help_version_and_suggestions)
{
    char out[16384];
    /* help COMMAND is that command's help, not the top-level one */
    cr_expect_eq(run(BIN " help plan", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "usage: fabplan plan") != NULL && strstr(out, "--formats LIST") != NULL,
              "%s", out);
    cr_expect_eq(run(BIN " help compare", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "--min-bisection") != NULL, "%s", out);
    cr_expect_eq(run(BIN " help frobnicate", out, sizeof out), 2, "%s", out);
    /* --version on every command, anywhere on the line */
    const char *cmds[] = { "plan", "validate", "compare", "catalog", "presets" };
    for (size_t i = 0; i < 5; i++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, BIN " %s --gpus 8 --version", cmds[i]);
        cr_expect_eq(run(cmd, out, sizeof out), 0, "%s: %s", cmds[i], out);
        cr_expect(strncmp(out, "fabplan " FP_VERSION "\n", strlen(FP_VERSION) + 9) == 0, "%s", out);
    }
    /* an unknown option names the closest one instead of dumping the usage */
    cr_expect_eq(run(BIN " plan --gpu 8", out, sizeof out), 2);
    cr_expect(strstr(out, "unknown option --gpu; did you mean --gpus?") != NULL, "%s", out);
    cr_expect(strstr(out, "Spec options") == NULL, "usage dumped: %s", out);
    cr_expect_eq(run(BIN " plan --oversubscriptoin=2", out, sizeof out), 2);
    cr_expect(strstr(out, "did you mean --oversubscription?") != NULL, "%s", out);
    cr_expect_eq(run(BIN " compare --min-bisecton 1", out, sizeof out), 2);
    cr_expect(strstr(out, "did you mean --min-bisection?") != NULL, "%s", out);
    cr_expect_eq(run(BIN " catalog --catalgo x", out, sizeof out), 2);
    cr_expect(strstr(out, "did you mean --catalog?") != NULL, "%s", out);
    /* presets takes no option but --help: an option is named as one (it was "takes one preset
     * name at most, found \"--hepl\""); catalog's --catalog without a file says so (it was
     * "unknown option --catalog") */
    cr_expect_eq(run(BIN " presets --hepl", out, sizeof out), 2);
    cr_expect(strstr(out, "unknown option --hepl; did you mean --help?") != NULL, "%s", out);
    cr_expect_eq(run(BIN " catalog list --catalog", out, sizeof out), 2);
    cr_expect(strstr(out, "--catalog needs a value") != NULL, "%s", out);
    /* nothing close: no guess */
    cr_expect_eq(run(BIN " plan --zzzzzzzz", out, sizeof out), 2);
    cr_expect(strstr(out, "did you mean") == NULL, "%s", out);
}

/* Every option a command's help lists (its lines "  --name ..." and "  -x, --name ...") is one
 * the command's "did you mean" and the bash completion know (fabplan _options COMMAND): the
 * list in options.c cannot fall behind a usage text (verify's options and compare --all were
 * missing). And a misspelt verify option gets its guess. */
Test(cli, every_option_in_help_is_known_to_completion)
{
    static char help[16384], known[8192];
    const char *cmds[] = { "plan", "validate", "compare", "catalog", "diff", "sweep", "verify" };
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, BIN " help %s", cmds[c]);
        cr_assert_eq(run(cmd, help, sizeof help), 0, "%s", help);
        snprintf(cmd, sizeof cmd, BIN " _options %s", cmds[c]);
        cr_assert_eq(run(cmd, known, sizeof known), 0, "%s", known);
        int listed = 0;
        for (char *line = strtok(help, "\n"); line; line = strtok(NULL, "\n")) {
            char *o = line;
            while (*o == ' ')
                o++;
            /* an option line, each name on it up to the first that is not an option */
            while (o > line && o[0] == '-' && o[1] != '\0' && o[1] != ' ') {
                char name[64], want[70];
                size_t k = strcspn(o, " ,=[");
                snprintf(name, sizeof name, "%.*s", (int)(k < 63 ? k : 63), o);
                snprintf(want, sizeof want, "\n%s\n", name);
                char wrapped[8200];
                snprintf(wrapped, sizeof wrapped, "\n%s", known);
                cr_expect(strstr(wrapped, want) != NULL, "%s: help lists %s, _options does not",
                          cmds[c], name);
                listed++;
                o += k;
                if (o[0] != ',')
                    break;
                o += strspn(o, ", ");
            }
        }
        /* catalog's help names its one option in the usage line only */
        cr_expect_geq(listed, strcmp(cmds[c], "catalog") ? 2 : 0, "%s: no option lines read", cmds[c]);
    }
    char out[4096];
    cr_expect_eq(run(BIN " verify plan --lldpp x", out, sizeof out), 2);
    cr_expect(strstr(out, "unknown option --lldpp; did you mean --lldp?") != NULL, "%s", out);
}

/* Every --formats value the parser knows (fabplan _options --formats) is named in plan's help
 * (avd was missing), and no help line is wider than 92 columns: a terminal of 100 shows each
 * whole (one format list line ran to 115). */
Test(cli, help_names_every_format_and_fits_a_terminal)
{
    static char help[16384], known[4096];
    cr_assert_eq(run(BIN " _options --formats", known, sizeof known), 0, "%s", known);
    cr_assert_eq(run(BIN " help plan", help, sizeof help), 0, "%s", help);
    /* the list proper: from the option to "all is every output" (avd was named only after it) */
    char *list = strstr(help, "--formats LIST"), *list_end = list ? strstr(list, "all is every") : NULL;
    cr_assert(list && list_end, "%s", help);
    *list_end = '\0';
    int names = 0;
    for (char *name = strtok(known, "\n"); name; name = strtok(NULL, "\n")) {
        /* as a word of the list: followed by one of ,.() or a space or the line's end */
        int found = 0;
        for (const char *at = strstr(list, name); at && !found; at = strstr(at + 1, name))
            found = (at[-1] == ' ' || at[-1] == '(') && strchr(",.() \n", at[strlen(name)]) != NULL;
        cr_expect(found, "format %s is not named in plan's help", name);
        names++;
    }
    cr_expect_geq(names, 20, "_options --formats listed %d names", names);
    /* the man page's --formats paragraph names each too */
    cr_assert_eq(run(BIN " _options --formats", known, sizeof known), 0, "%s", known);
    char *man = slurp(FP_TEST_SRC_DIR "/docs/fabplan.1");
    cr_assert_not_null(man);
    char *para = strstr(man, "\\-\\-formats \" LIST\""), *para_end = para ? strstr(para, "\n.") : NULL;
    cr_assert(para && para_end, "no --formats paragraph in docs/fabplan.1");
    *para_end = '\0';
    for (char *name = strtok(known, "\n"); name; name = strtok(NULL, "\n")) {
        int found = 0;
        for (const char *at = strstr(para, name); at && !found; at = strstr(at + 1, name))
            found = (at[-1] == ' ' || at[-1] == '(' || at[-1] == '\n') &&
                    strchr(",.() \n", at[strlen(name)]) != NULL;
        cr_expect(found, "format %s is not named in docs/fabplan.1's --formats", name);
    }
    free(man);
    const char *cmds[] = { "", " help plan", " help validate", " help compare", " help catalog",
                           " help diff", " help sweep", " help verify", " presets --help" };
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, BIN "%s", cmds[c]);
        run(cmd, help, sizeof help);
        for (char *line = strtok(help, "\n"); line; line = strtok(NULL, "\n")) {
            size_t cols = 0;   /* characters, not bytes: the help has "—" and "×" */
            for (const unsigned char *p = (const unsigned char *)line; *p; p++)
                cols += (*p & 0xC0) != 0x80;
            cr_expect_leq(cols, 92, "fabplan%s: %zu columns: %s", cmds[c], cols, line);
        }
    }
}

Test(cli, validate_names_its_overrides)
{
    char out[8192];
    cr_expect_eq(run(BIN " validate --gpus 3 --set /layout/halls=1", out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, "default spec with /cluster/gpus=3, /layout/halls=1: valid\n");
    cr_expect_eq(run(BIN " validate --preset default", out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, "default: valid\n");
}

/* compare at 512 GPUs. Leaf ratios asked are 1, 2, 3 (fat-trees 1 only): with
 * --max-oversubscription 2:1 no 3:1 row remains; with --min-bisection 1 only full-bisection
 * rows (their "of 1:1" column reads 100%). Rows are grouped by leaf ratio, 1:1 first. */
Test(cli, compare_filters_and_order)
{
    static char out[1 << 16];
    cr_assert_eq(run(BIN " compare --gpus 512", out, sizeof out), 0, "%s", out);
    int seen3 = 0, ones = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (strstr(line, "cannot work") || strncmp(line, "  ", 2) == 0)   /* the reasons */
            continue;
        seen3 |= strstr(line, " 3:1 ") != NULL;
        if (strstr(line, " 1:1 ")) {
            ones++;
            cr_expect_not(seen3, "a 1:1 design listed after a 3:1 one: %s", line);
        }
    }
    cr_expect(seen3 && ones > 0);
    cr_assert_eq(run(BIN " compare --gpus 512 --max-oversubscription 2:1", out, sizeof out), 0, "%s", out);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
        cr_expect(strstr(line, " 3:1 ") == NULL || strstr(line, "cannot work") != NULL ||
                  strncmp(line, "  ", 2) == 0, "%s", line);
    cr_assert_eq(run(BIN " compare --gpus 512 --min-bisection 100%", out, sizeof out), 0, "%s", out);
    int rows = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "design", 6) == 0 || line[0] == '(' || strstr(line, "cannot work") ||
            strncmp(line, "  ", 2) == 0)
            continue;
        rows++;
        cr_expect(strstr(line, " 100% ") != NULL, "%s", line);
    }
    cr_expect_gt(rows, 0);
    cr_expect_eq(run(BIN " compare --gpus 512 --min-bisection 0", out, sizeof out), 2, "%s", out);
    /* --jobs: the same table from 1 thread and from 2; 1 to 64 workers */
    static char one[1 << 16];
    cr_assert_eq(run(BIN " compare --gpus 512 --jobs 1", one, sizeof one), 0, "%s", one);
    cr_assert_eq(run(BIN " compare --gpus 512 -j 2", out, sizeof out), 0, "%s", out);
    cr_expect_str_eq(out, one);
    cr_expect_eq(run(BIN " compare --gpus 512 --jobs 0", out, sizeof out), 2, "%s", out);
    cr_expect(strstr(out, "--jobs expects a number of workers from 1 to 64") != NULL, "%s", out);
    cr_expect_eq(run(BIN " compare --gpus 512 --jobs", out, sizeof out), 2, "%s", out);
    cr_expect_eq(run(BIN " compare --gpus 512 --max-oversubscription 1:2", out, sizeof out), 2, "%s", out);
}

/* Progress goes to a terminal only, from the planning stages on: under script(1) stderr is a
 * terminal; through a pipe it is not and nothing but the summary appears. */
Test(cli, progress_on_a_terminal_only)
{
    static char out[1 << 16];
    char dir[128], cmd[512];
    scratch_dir(dir, sizeof dir, "cli");
    snprintf(cmd, sizeof cmd, "script -qec '" BIN " plan --gpus 512 --formats json -o %s' /dev/null", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "planning: spec") != NULL && strstr(out, "planning: cabling") != NULL &&
              strstr(out, "planned   100%") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 512 --formats json -o %s", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "planning:") == NULL, "%s", out);
    /* links.csv needs the fabric alone: no cabling stage is run, so none is reported */
    snprintf(cmd, sizeof cmd, "script -qec '" BIN " plan --gpus 512 --formats links -o %s/l' /dev/null", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "planning: names") != NULL && strstr(out, "planning: cabling") == NULL,
              "%s", out);
}

/* The names the summary's "wrote DIR/ (N documents, ...):" list gives, one per line into names
 * (sorted by the caller): the indented lines after it, split at ", ", a folder's '/' dropped.
 * Returns their count, or -1 when the summary has no such list ("wrote no document": 0). */
static int summary_names(const char *out, char names[][64], int max, long *said)
{
    const char *p = strstr(out, "  wrote ");
    if (p == NULL)
        return -1;
    const char *list = strstr(p, "/ ("), *eol = strchr(p, '\n');
    if (list == NULL || list > eol)
        return strstr(p, "wrote no document into") == p + 2 ? 0 : -1;
    *said = strtol(list + 3, NULL, 10);
    p = strchr(p, '\n') + 1;
    int n = 0;
    while (strncmp(p, "    ", 4) == 0) {
        const char *e = strchr(p, '\n');
        p += 4;
        while (p < e && n < max) {
            const char *c = memchr(p, ',', (size_t)(e - p));
            const char *end = c ? c : e;
            int len = (int)(end - p);
            if (len > 0 && p[len - 1] == '/')
                len--;
            snprintf(names[n++], 64, "%.*s", len, p);
            p = c ? c + 2 : e;
        }
        p = e + 1;
    }
    return n;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Issue 27: the summary lists exactly the files a plan wrote. For every --formats value (png
 * alone is a usage error: it renders the diagrams chosen), on an InfiniBand plan (the default
 * spec: no AVD or PTM file) and an Ethernet plan with spec `networks` (hgx-h100-enterprise-32:
 * an overview per network, netbox-tags.csv, no InfiniBand exports or CVT sheet),
 * the summary's names are the folder's listing (`ls -A` less the manifest), its count is theirs,
 * and a format that gave nothing says so with its reason. */
Test(cli, summary_lists_exactly_the_files_written, .timeout = 600)
{
    static const char *formats[] = { "json", "links", "cables", "bom", "xlsx", "labels", "netbox",
                                     "topology", "avd", "report", "diagrams", "fabric", "figure",
                                     "floor", "detail", "ibnetdiscover", "diagrams,png", "all",
                                     "ptm", "cvt", "slurm", "k8s" };
    static const char *plans[] = { "--gpus 128", "--preset hgx-h100-enterprise-32" };
    static char out[65536], listing[8192], said_names[96][64], dir_names[96][64];
    char dir[128], cmd[512];
    scratch_dir(dir, sizeof dir, "cli");
    for (size_t pl = 0; pl < 2; pl++)
        for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
            snprintf(cmd, sizeof cmd, BIN " plan %s --formats %s -o %s/p%zu-f%zu%s", plans[pl],
                     formats[f], dir, pl, f, f == 4 ? " --split-by row" : "");
            cr_assert_eq(run(cmd, out, sizeof out), 0, "%s\n%s", cmd, out);
            long said = -1;
            int n = summary_names(out, said_names, 96, &said);
            cr_assert(n >= 0, "%s: no file list in\n%s", cmd, out);
            snprintf(cmd, sizeof cmd, "ls -A %s/p%zu-f%zu | grep -vx .fabplan-manifest", dir, pl, f);
            run(cmd, listing, sizeof listing);
            int m = 0;
            for (char *s = strtok(listing, "\n"); s != NULL && m < 96; s = strtok(NULL, "\n"))
                snprintf(dir_names[m++], 64, "%s", s);
            cr_expect_eq(n, m, "%s %s: summary lists %d, folder holds %d\n%s", plans[pl],
                         formats[f], n, m, out);
            if (n > 0)
                cr_expect_eq(said, n, "%s %s: count %ld, names %d", plans[pl], formats[f], said, n);
            qsort(said_names, (size_t)n, sizeof said_names[0], cmp_name);
            qsort(dir_names, (size_t)m, sizeof dir_names[0], cmp_name);
            for (int k = 0; k < n && k < m; k++)
                cr_expect_str_eq(said_names[k], dir_names[k], "%s %s", plans[pl], formats[f]);
            /* the BOM total (all: every stage built) with thousands separators, as the
             * bisection beside it: any total of $1,000 or more has a ',' before 3 digits */
            const char *bom = strstr(out, "  BOM: $");
            if (f == 17)
                cr_expect(bom != NULL, "%s", out);
            if (f == 17 && bom != NULL) {
                long first = strtol(bom + 8, NULL, 10);
                const char *c = bom + 8 + strspn(bom + 8, "0123456789");
                cr_expect(first < 1000 && *c == ',' && strspn(c + 1, "0123456789") == 3,
                          "%.60s", bom);
            }
            /* avd and ptm on InfiniBand, ibnetdiscover and cvt on Ethernet: nothing, and the
             * reason */
            if ((pl == 0 && (f == 8 || f == 18)) || (pl == 1 && (f == 15 || f == 19))) {
                cr_expect_eq(m, 0, "%s %s", plans[pl], formats[f]);
                const char *why = f == 8 ? "not written: avd-cv-topology.yml: "
                                  : f == 18 ? "not written: topology.dot: "
                                  : f == 15 ? "not written: ibnetdiscover.topo, "
                                            : "not written: cvt-p2p.xlsx: ";
                cr_expect(strstr(out, why) != NULL, "%s %s: no \"%s\" in\n%s", plans[pl],
                          formats[f], why, out);
            }
        }
}

/* The files under dir (a folder's by its path, "floor-by-hall/H2.svg"), the manifest left out,
 * sorted, one per line into out. */
static void listing_of(const char *dir, char *out, size_t n)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && find . -type f ! -name .fabplan-manifest | sed 's|^\\./||' "
             "| LC_ALL=C sort", dir);
    cr_assert_eq(run(cmd, out, n), 0, "%s", out);
}

/* The summary's names, sorted, one per line (as listing_of). */
static void summary_sorted(const char *summary, char *out, size_t n)
{
    static char names[200][64];
    long said = -1;
    int k = summary_names(summary, names, 200, &said);
    cr_assert_geq(k, 0, "no file list in\n%s", summary);
    cr_expect_eq(said, k, "the summary counts %ld and lists %d", said, k);
    qsort(names, (size_t)k, sizeof names[0], cmp_name);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < k; i++)
        len += (size_t)snprintf(out + len, n - len, "%s\n", names[i]);
}

/* The manifest's names (its lines after the comments), sorted, one per line. */
static void manifest_sorted(const char *dir, char *out, size_t n)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "grep -v '^#' %s/.fabplan-manifest | LC_ALL=C sort", dir);
    cr_assert_eq(run(cmd, out, n), 0, "%s", out);
}

/* Issue 27: a hall's floor plan is a document of the plan like any other. With layout.halls 4
 * (every hall used, docs/layout.md) floor-by-hall/ holds H1.svg .. H4.svg, and the summary and
 * the manifest name exactly the files the folder holds, each hall's by its path; report.html
 * links each. A second plan into the folder with 2 halls leaves H1.svg and H2.svg only, and a
 * 1,024-GPU plan (one hall, drawn rack by rack in floor.svg) no floor-by-hall/ at all. */
Test(cli, floor_by_hall_files_listed_and_replaced, .timeout = 300)
{
    static char out[65536], listing[8192], said[8192], manifest[8192];
    static const struct {
        const char *args;
        int halls;
    } plans[] = { { "--gpus 16384 --set /layout/halls=4 --formats floor,report", 4 },
                  { "--gpus 16384 --set /layout/halls=2 --formats floor", 2 },
                  { "--gpus 1024 --formats floor,report", 0 } };
    char dir[128], cmd[512], path[256], want[8192];
    scratch_dir(dir, sizeof dir, "cli");
    for (size_t k = 0; k < sizeof plans / sizeof plans[0]; k++) {
        snprintf(cmd, sizeof cmd, BIN " plan %s -o %s/d", plans[k].args, dir);
        cr_assert_eq(run(cmd, out, sizeof out), 0, "%s\n%s", cmd, out);
        snprintf(path, sizeof path, "%s/d", dir);
        listing_of(path, listing, sizeof listing);
        summary_sorted(out, said, sizeof said);
        manifest_sorted(path, manifest, sizeof manifest);
        cr_expect_str_eq(said, listing, "%s: the summary and the folder differ", plans[k].args);
        cr_expect_str_eq(manifest, listing, "%s: the manifest and the folder differ", plans[k].args);
        /* floor-by-hall/ holds each hall's plan and nothing else (none: no folder) */
        size_t len = 0;
        want[0] = '\0';
        for (int h = 1; h <= plans[k].halls; h++)
            len += (size_t)snprintf(want + len, sizeof want - len, "floor-by-hall/H%d.svg\n", h);
        snprintf(cmd, sizeof cmd, "cd %s && find . -path './floor-by-hall/*' | sed 's|^\\./||' "
                 "| LC_ALL=C sort", path);
        cr_assert_eq(run(cmd, out, sizeof out), 0);
        cr_expect_str_eq(out, want, "%s", plans[k].args);
        snprintf(cmd, sizeof cmd, "test -e %s/floor-by-hall", path);
        cr_expect_eq(run(cmd, out, sizeof out) == 0, plans[k].halls > 0, "%s", plans[k].args);
        if (strstr(plans[k].args, "report") == NULL)
            continue;
        snprintf(path, sizeof path, "%s/d/report.html", dir);
        char *html = slurp(path);
        for (int h = 1; h <= plans[k].halls; h++) {
            char link[96];
            snprintf(link, sizeof link, "<a href=\"floor-by-hall/H%d.svg\">", h);
            cr_expect_not_null(strstr(html, link), "report.html does not link H%d.svg", h);
        }
        cr_expect_eq(strstr(html, "floor-by-hall/") != NULL, plans[k].halls > 0);
        free(html);
    }
}

/* Issue 27: compare's table names each design once. At 512 GPUs (--all: every row as planned)
 * a fat-tree row whose figures (every column after the name) equal those of the clos row of
 * the same tiers, switch and ratio is left out of the default table and that clos row reads
 * "= fat-tree"; the folded count is said; the rows that cannot work, one a line with --all,
 * are grouped with counts that add up to them; money has thousands separators. */
Test(cli, compare_names_each_design_once)
{
    static char all[1 << 17], def[1 << 17], names[256][64], figs[256][160];
    cr_assert_eq(run(BIN " compare --gpus 512 --all", all, sizeof all), 0, "%s", all);
    cr_assert_eq(run(BIN " compare --gpus 512", def, sizeof def), 0, "%s", def);
    int n = 0, failed = 0, twins = 0;
    for (char *line = strtok(all, "\n"); line && n < 256; line = strtok(NULL, "\n")) {
        if (strstr(line, " cannot work: ")) {
            failed++;
            continue;
        }
        if (strncmp(line, "design", 6) == 0 || line[0] == '(')
            continue;
        snprintf(names[n], sizeof names[n], "%.44s", line);
        for (int k = 43; k >= 0 && names[n][k] == ' '; k--)
            names[n][k] = '\0';
        snprintf(figs[n], sizeof figs[n], "%s", line + 44);
        n++;
    }
    for (int i = 0; i < n; i++)
        if (strncmp(names[i], "fat-tree ", 9) == 0)
            for (int k = 0; k < n; k++)
                if (strncmp(names[k], "clos ", 5) == 0 && strcmp(names[k] + 5, names[i] + 9) == 0 &&
                    strcmp(figs[k], figs[i]) == 0) {
                    twins++;
                    char marked[96];
                    snprintf(marked, sizeof marked, "\n%s = fat-tree ", names[k]);
                    cr_expect(strstr(def, marked) != NULL, "%s not marked", names[k]);
                    snprintf(marked, sizeof marked, "\n%s ", names[i]);
                    cr_expect(strstr(def, marked) == NULL, "%s repeated", names[i]);
                }
    cr_expect_gt(twins, 0, "512 GPUs: clos and fat-tree 1:1 build the same fabric");
    char said[96];
    snprintf(said, sizeof said, "\n(%d fat-tree design%s equal to ", twins, twins == 1 ? "" : "s");
    cr_expect(strstr(def, said) != NULL, "%s", def);
    cr_expect_gt(failed, 0);
    snprintf(said, sizeof said, "\n%d candidate designs cannot work, for ", failed);
    const char *g = strstr(def, said);
    cr_assert(g != NULL, "%d failed; %s", failed, def);
    long sum = 0;
    for (const char *p = strchr(g + 1, '\n'); p && strncmp(p, "\n  ", 3) == 0; p = strchr(p + 1, '\n'))
        sum += strtol(p + 1, NULL, 10);
    cr_expect_eq(sum, failed, "the groups count %ld of %d", sum, failed);
    cr_expect_eq(strstr(def, " cannot work: "), NULL, "a reason listed one by one without --all");
    /* every design's cost has more than 6 digits at 512 GPUs: grouped by three */
    cr_expect(strstr(figs[0], ",") != NULL, "%s", figs[0]);
}

/* Several specs: each named by its spec's `name`, else by its file's name without folder and
 * ".json" (a path broke the table's columns). */
Test(cli, compare_names_specs_by_name)
{
    static char out[1 << 16];
    char dir[128], cmd[512];
    scratch_dir(dir, sizeof dir, "cli");
    snprintf(cmd, sizeof cmd, "mkdir -p %s/specs && printf '{\"name\":\"hall A\",\"cluster\":{\"gpus\":256}}' > %s/specs/a.json && "
             "printf '{\"cluster\":{\"gpus\":512}}' > %s/specs/second-try.json", dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(cmd, sizeof cmd, BIN " compare %s/specs/a.json %s/specs/second-try.json", dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "\nhall A ") != NULL, "%s", out);
    cr_expect(strstr(out, "\nsecond-try ") != NULL, "%s", out);
    cr_expect(strstr(out, "/specs/") == NULL, "%s", out);
    /* Every figure of a row has separators, power too: the default 16,384-GPU plan's network
     * draws about 2 MW (its summary: 1975.2 kW), 5th column from the end of its row. */
    snprintf(cmd, sizeof cmd, "printf '{\"name\":\"big\",\"cluster\":{\"gpus\":16384}}' > %s/specs/big.json && "
             BIN " compare %s/specs/big.json %s/specs/a.json", dir, dir, dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    const char *row = strstr(out, "\nbig ");
    cr_assert_not_null(row, "%s", out);
    char line[256], *tok[16];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
    int nt = 0;
    for (char *t = strtok(line, " "); t && nt < 16; t = strtok(NULL, " "))
        tok[nt++] = t;
    cr_assert_geq(nt, 11, "%s", row);
    for (int k = 1; k < nt; k++)
        if (strspn(tok[k], "0123456789") >= 4)
            cr_expect_fail("a figure without separators: %s in %s", tok[k], row);
    cr_expect(strchr(tok[nt - 5], ',') != NULL, "power kW %s", tok[nt - 5]);
}


/* Issue 27: `presets` cut descriptions mid-word at 255 bytes ("storage ", "Connec"). Each line
 * is now at most 100 columns, names in a column as wide as the longest; the words of a
 * preset's lines, joined, are its whole description as fp_spec_preset_info gives it (here with
 * a buffer larger than any description). `presets NAME` prints the preset's spec: the JSON
 * fp_spec_to_json gives for fp_spec_preset. */
Test(cli, presets_wrap_whole_words_and_show_one)
{
    static char out[65536];
    cr_assert_eq(run(BIN " presets", out, sizeof out), 0, "%s", out);
    size_t w = 0;
    for (size_t i = 0; i < fp_spec_preset_count(); i++) {
        char name[64];
        cr_assert_eq(fp_spec_preset_info(i, name, sizeof name, NULL, 0, NULL), FP_OK);
        w = strlen(name) > w ? strlen(name) : w;
    }
    char *line = out;
    for (size_t i = 0; i < fp_spec_preset_count(); i++) {
        char name[64], desc[8192], got[8192] = "";
        cr_assert_eq(fp_spec_preset_info(i, name, sizeof name, desc, sizeof desc, NULL), FP_OK);
        cr_assert(strlen(desc) < sizeof desc - 1, "preset %s: description longer than the test's buffer", name);
        cr_assert_eq(strncmp(line, name, strlen(name)), 0, "line \"%.40s\" is not preset %s", line, name);
        /* the first line, then the continuation lines (indented by w + 2 spaces) */
        int first = 1;
        while (*line && (first || strncmp(line, "                                        ", w + 2) == 0)) {
            char *nl = strchr(line, '\n');
            cr_assert_not_null(nl);
            cr_expect_leq(nl - line, 100, "a line of %ld columns: %.*s", (long)(nl - line),
                          (int)(nl - line), line);
            const char *text = line + w + 2;
            if (!first || strlen(name) <= w)
                strncat(got, " ", sizeof got - strlen(got) - 1);
            strncat(got, text, (size_t)(nl - text) < sizeof got - strlen(got) - 1
                                   ? (size_t)(nl - text) : sizeof got - strlen(got) - 1);
            line = nl + 1;
            first = 0;
        }
        cr_expect_str_eq(got + 1, desc, "preset %s", name);
    }
    cr_expect_eq(*line, '\0', "lines after the last preset: %s", line);

    fp_spec *spec = NULL;
    char *json = NULL;
    cr_assert_eq(fp_spec_preset(&spec, "dgx-h100-4su", NULL), FP_OK);
    cr_assert_eq(fp_spec_to_json(spec, &json, NULL), FP_OK);
    cr_assert_eq(run(BIN " presets dgx-h100-4su 2>/dev/null", out, sizeof out), 0, "%s", out);
    size_t n = strlen(json);
    cr_expect(strncmp(out, json, n) == 0 && out[n] == '\n' && out[n + 1] == '\0',
              "presets dgx-h100-4su printed:\n%.300s", out);
    fp_free(json);
    fp_spec_free(spec);
}

/* Every money figure of a text people read ("$" before it or " USD" after it) is grouped by
 * three: 1 to 3 digits, then ",ddd" groups, then at most ".dd". Returns how many figures of
 * 1,000 or more it saw (so a text with none cannot pass by accident); fails on a bad one. */
static int money_grouped(const char *text)
{
    int big = 0;
    for (const char *p = text; *p; p++) {
        const char *s = NULL;
        if (*p == '$' && p[1] >= '0' && p[1] <= '9')
            s = p + 1;
        else if (strncmp(p, " USD", 4) == 0 && p > text && p[-1] >= '0' && p[-1] <= '9') {
            s = p;
            while (s > text && (s[-1] == ',' || s[-1] == '.' || (s[-1] >= '0' && s[-1] <= '9')))
                s--;
        }
        if (s == NULL)
            continue;
        size_t lead = strspn(s, "0123456789"), k = lead;
        cr_expect(lead >= 1 && lead <= 3, "money not grouped at \"%.24s\"", s);
        while (s[k] == ',' && strspn(s + k + 1, "0123456789") == 3 &&
               !(s[k + 4] >= '0' && s[k + 4] <= '9')) {
            k += 4;
        }
        big += k > lead;
        cr_expect(!(s[k] >= '0' && s[k] <= '9') && !(s[k] == ',' && s[k + 1] >= '0' && s[k + 1] <= '9'), "money not grouped at \"%.24s\"", s);
    }
    return big;
}

/* The plan summary's money (media audit, BOM, per GPU) and the catalog's prices carry
 * thousands separators; the per-GPU figure is plan.json's totals.cost_per_gpu to the cent. */
Test(cli, money_in_summaries_has_separators)
{
    static char out[1 << 15];
    char dir[128], cmd[512];
    scratch_dir(dir, sizeof dir, "cli");
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 512 -o %s --formats json,bom", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect_geq(money_grouped(out), 4, "%s", out);
    cr_expect(strstr(out, "  media audit nic-leaf: chosen $") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "%s/plan.json", dir);
    char *json = slurp(cmd);
    cr_assert_not_null(json);
    const char *totals = strstr(json, "\"totals\"");
    cr_assert_not_null(totals);
    const char *c = strstr(totals, "\"cost_per_gpu\":");
    cr_assert_not_null(c);
    double per_gpu = strtod(c + strlen("\"cost_per_gpu\":"), NULL);
    free(json);
    /* grouped here by hand: thousands, then the cents */
    long cents = lround(per_gpu * 100);
    char want[64];
    if (cents >= 100000)
        snprintf(want, sizeof want, "per GPU $%ld,%03ld.%02ld,", cents / 100000,
                 cents / 100 % 1000, cents % 100);
    else
        snprintf(want, sizeof want, "per GPU $%ld.%02ld,", cents / 100, cents % 100);
    cr_expect_gt(per_gpu, 1000, "512 GPUs cost more than $1,000 of network each");
    cr_expect(strstr(out, want) != NULL, "expected \"%s\" in %s", want, out);
    cr_assert_eq(run(BIN " catalog show nvidia-qm9700", out, sizeof out), 0, "%s", out);
    cr_expect_eq(money_grouped(out), 1, "%s", out);
    /* the list's price column shows the same grouped figure */
    char price[32] = "";
    const char *pr = strstr(out, "price:");
    cr_assert_not_null(pr);
    sscanf(pr, "price: %31s", price);
    cr_assert_eq(run(BIN " catalog list switch", out, sizeof out), 0, "%s", out);
    const char *row = strstr(out, "\nnvidia-qm9700 ");
    cr_assert_not_null(row, "%s", out);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
    cr_expect(strstr(line, price) != NULL && strchr(price, ',') != NULL, "%s in \"%s\"", price, line);
}

/* validate and plan list every independent error of a spec, one line each, with how many, exit
 * 3 and write nothing (fp_plan_check_all). Three values each wrong by its own rule. */
Test(cli, validate_lists_every_error)
{
    static char out[1 << 14];
    char dir[128], cmd[512];
    scratch_dir(dir, sizeof dir, "cli");
    write_text("fabplan-cli-three.json",
               "{\"layout\": {\"halls\": 0}, \"cluster\": {\"gpus\": 256, \"nic\": \"no-such-nic\"},"
               " \"fabric\": {\"topology\": \"ring\"}}");
    cr_expect_eq(run(BIN " validate fabplan-cli-three.json", out, sizeof out), 3, "%s", out);
    const char *a = strstr(out, "fabplan: fabplan-cli-three.json: /layout/halls: ");
    const char *b = strstr(out, "fabplan: fabplan-cli-three.json: /cluster/nic: ");
    const char *c = strstr(out, "fabplan: fabplan-cli-three.json: /fabric/topology: ");
    cr_expect(a && b && c && a < b && b < c, "%s", out);
    cr_expect(strstr(out, "fabplan: fabplan-cli-three.json: 3 errors\n") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, BIN " plan fabplan-cli-three.json -o %s/p", dir);
    cr_expect_eq(run(cmd, out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "fabplan: 3 errors\n") != NULL, "%s", out);
    cr_expect(dir_empty(dir), "outputs left in %s", dir);
    /* one error: its line alone, no count */
    cr_expect_eq(run(BIN " validate --gpus 256 --planes 0", out, sizeof out), 3, "%s", out);
    cr_expect(strstr(out, "/fabric/planes: ") != NULL && strstr(out, " errors") == NULL &&
              strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
}

/* A dual-homed Ethernet network on SN2201 leaves, whose up links leave by uplink ports of
 * their own: its default 2 MLAG peer links per pair are dropped (a note says so), and an
 * out-of-band network attached to its top tier (uplink_to) with an endpoint per switch. */
/* The networks of a printed spec hold each network's defaults, by docs/spec.md ("networks"):
 * ports_per_server 2 for converged and storage, else 1; dual-homed when a converged or storage
 * network has 2 ports; 2 MLAG peer links per Ethernet pair, 0 on InfiniBand or single-homed; a
 * dual-homed network's top switches at least 2, else 1; reserve 0, tiers and the per-leaf
 * counts "auto"; an endpoint group's ports the network's, 1 RU (0 for a count "switches", a
 * switch's own port). k: 3 dgx-h100-4su-networks, 4 hgx-h100-enterprise-32, 5 the dropped
 * peers. */
static void printed_networks_resolved(const char *text, size_t k)
{
    fp_spec *s = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_spec_parse(&s, text, strlen(text), "<printed>", &err), FP_OK, "%s", err.msg);
    /* name, ports per server, dual-homed, peer links (-1: none printed), top switches (-1: none) */
    static const struct { const char *name; int ports, dual, peers, top; } want[3][4] = {
        { { "storage", 2, 1, 0, 2 }, { "inband", 2, 1, 2, 2 }, { "oob", 1, 0, 0, -1 }, { NULL } },
        { { "converged", 2, 1, 2, 2 }, { "oob", 1, 0, 0, 1 }, { NULL }, { NULL } },
        { { "bmc", 2, 1, -1, 2 }, { "oob", 1, 0, 0, -1 }, { NULL }, { NULL } },
    };
    for (int i = 0; i < 4 && want[k - 3][i].name; i++) {
        char key[160], needle[160];
        const char *at = NULL;
        snprintf(needle, sizeof needle, "\"name\":\t\"%s\",\n\t\t\t\"role\"", want[k - 3][i].name);
        at = strstr(text, needle);
        cr_assert_not_null(at, "network %s not printed:\n%s", want[k - 3][i].name, text);
        const char *end = strstr(at, "\n\t\t}");
        cr_assert_not_null(end);
        char entry[4096];
        snprintf(entry, sizeof entry, "%.*s", (int)(end - at < 4095 ? end - at : 4095), at);
        snprintf(key, sizeof key, "\"ports_per_server\":\t%d,", want[k - 3][i].ports);
        cr_expect(strstr(entry, key) != NULL, "%s: no %s in\n%s", want[k - 3][i].name, key, entry);
        snprintf(key, sizeof key, "\"dual_homed\":\t%s,", want[k - 3][i].dual ? "true" : "false");
        cr_expect(strstr(entry, key) != NULL, "%s: no %s in\n%s", want[k - 3][i].name, key, entry);
        if (want[k - 3][i].peers >= 0) {
            snprintf(key, sizeof key, "\"mlag_peer_links\":\t%d,", want[k - 3][i].peers);
            cr_expect(strstr(entry, key) != NULL, "%s: no %s in\n%s", want[k - 3][i].name, key, entry);
        } else {
            cr_expect(strstr(entry, "mlag_peer_links") == NULL, "%s: dropped peer links printed:\n%s",
                      want[k - 3][i].name, entry);
        }
        if (want[k - 3][i].top >= 0) {
            snprintf(key, sizeof key, "\"min_top_switches\":\t%d,", want[k - 3][i].top);
            cr_expect(strstr(entry, key) != NULL, "%s: no %s in\n%s", want[k - 3][i].name, key, entry);
        } else {
            /* attached (uplink_to): no top tier of its own, so none of its keys */
            cr_expect(strstr(entry, "min_top_switches") == NULL && strstr(entry, "\"tiers\"") == NULL &&
                      strstr(entry, "\"uplink_to\"") != NULL, "%s:\n%s", want[k - 3][i].name, entry);
        }
        cr_expect(strstr(entry, "\"reserve\":\t") && strstr(entry, "\"uplinks_per_leaf\":\t") &&
                  strstr(entry, "\"hosts_per_leaf\":\t") && strstr(entry, "\"oversubscription\":\t") &&
                  strstr(entry, "\"extra_endpoints\":\t["), "%s:\n%s", want[k - 3][i].name, entry);
    }
    /* every endpoint group with its ports, units and power */
    for (const char *g = strstr(text, "\"count\":\t"); g; g = strstr(g + 1, "\"count\":\t")) {
        const char *end = strchr(g, '}');
        cr_assert_not_null(end);
        char grp[512];
        snprintf(grp, sizeof grp, "%.*s", (int)(end - g < 511 ? end - g : 511), g);
        cr_expect(strstr(grp, "\"ports\":\t") && strstr(grp, "\"ru\":\t") && strstr(grp, "\"power_w\":\t"),
                  "an endpoint group without its defaults: %s", grp);
        if (strstr(grp, "\"switches\""))
            cr_expect(strstr(grp, "\"ru\":\t0,") != NULL, "a switch's port with units: %s", grp);
    }
    fp_spec_free(s);
}

#define NETS_DROPPED_PEERS "{\"name\": \"t\", \"cluster\": {\"gpus\": 256}, \"networks\": [" \
    "{\"name\": \"bmc\", \"role\": \"converged\", \"port_gbps\": 1, " \
    "\"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]}, " \
    "{\"name\": \"oob\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": \"nvidia-sn2201\", " \
    "\"uplink_to\": \"bmc\", \"extra_endpoints\": [{\"name\": \"sw-mgmt\", \"count\": \"switches\"}]}]}"

/* validate --print-spec: the spec resolved, every default filled in; planned again it gives
 * the same plan byte for byte (plan.json, whose `spec` is the resolved one, cables.csv,
 * bom.csv), and printed again the same text. The default spec, a preset with rack fixtures
 * and NVLink domains, the example that gives layout, media, bom and overrides, and specs with
 * `networks`: both presets (every role, dual-homing, extra endpoints, uplink_to, a count
 * "switches") and one whose default peer links are dropped. */
Test(cli, printed_spec_plans_the_same, .timeout = 300)
{
    char dir[128], cmd[1024], out[4096], dropped[160];
    scratch_dir(dir, sizeof dir, "cli");
    snprintf(dropped, sizeof dropped, "%s/dropped-peers.json", dir);
    FILE *df = fopen(dropped, "w");
    cr_assert_not_null(df);
    fputs(NETS_DROPPED_PEERS, df);
    fclose(df);
    const char *const from[] = { "", "--preset gb200-nvl72-su",
                                 FP_TEST_SRC_DIR "/examples/specs/two-halls-layout-media-bom.json",
                                 "--preset dgx-h100-4su-networks", "--preset hgx-h100-enterprise-32",
                                 dropped };
    for (size_t k = 0; k < sizeof from / sizeof from[0]; k++) {
        snprintf(cmd, sizeof cmd, BIN " plan %s --formats json,cables,bom -q -o %s/a && "
                 BIN " validate %s --print-spec > %s/resolved.json && "
                 BIN " plan %s/resolved.json --formats json,cables,bom -q -o %s/b && "
                 BIN " validate %s/resolved.json --print-spec > %s/again.json",
                 from[k], dir, from[k], dir, dir, dir, dir, dir);
        cr_assert_eq(run(cmd, out, sizeof out), 0, "%s: %s", from[k], out);
        static const char *const files[] = { "a/plan.json", "a/cables.csv", "a/bom.csv",
                                             "resolved.json" };
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
            char a[256], b[256];
            snprintf(a, sizeof a, "%s/%s", dir, files[f]);
            snprintf(b, sizeof b, "%s/%s", dir, f < 3 ? files[f] : "again.json");
            if (f < 3)
                b[strlen(dir) + 1] = 'b';
            char *x = slurp(a), *y = slurp(b);
            cr_assert(x && y, "%s %s", a, b);
            cr_expect(strcmp(x, y) == 0, "%s: %s and %s differ", from[k], a, b);
            free(x);
            free(y);
        }
        /* every default is there: keys the spec left out, with their documented defaults */
        snprintf(cmd, sizeof cmd, "%s/resolved.json", dir);
        char *r = slurp(cmd);
        cr_assert_not_null(r);
        cr_expect(strstr(r, "\"tray_tiers\":\t") && strstr(r, "\"spread\":\t") &&
                  strstr(r, "\"core-super-core\":\t[") && strstr(r, "\"fibre\":\t") &&
                  strstr(r, "\"server_names\":\t\""), "%s", r);
        if (k == 0)
            cr_expect(strstr(r, "\"gpus\":\t16384,") && strstr(r, "\"switch\":\t\"nvidia-qm9700\"") &&
                      strstr(r, "\"tiers\":\t\"auto\"") && strstr(r, "\"slack_percent\":\t5,"), "%s", r);
        if (k >= 3)
            printed_networks_resolved(r, k);
        free(r);
    }
}

/* The location a printed label line names: line2 starts with it; line3 after "> " (or ">"),
 * and a hub's after "> N legs ". */
static const char *label_location(const char *line, int far)
{
    if (!far)
        return line;
    line += 1 + (line[1] == ' ');
    const char *legs = strstr(line, " legs ");
    return legs && line[0] >= '1' && line[0] <= '9' ? legs + 6 : line;
}

/* Issue 27: a label line that cannot keep its whole location says so. spectrum-x-100k has
 * several halls, so every whole plain location starts with its hall ("H3R26K24-U35", or the
 * bare "3R26K24U35", docs/outputs.md); a line whose location starts otherwise gave up the hall.
 * Counted here from labels.csv itself: the summary's warning names that many lines on that
 * many cables and the first of them, and plan.json's labels_cut has the same counts and every
 * one of those cables, each once. */
Test(cli, cut_labels_are_counted_in_the_summary_and_plan_json, .timeout = TEST_TIMEOUT(120))
{
    static char out[1 << 16], cut_ids[4096][16];
    char dir[128], cmd[512], path[256];
    scratch_dir(dir, sizeof dir, "cli");
    snprintf(cmd, sizeof cmd, BIN " plan --preset spectrum-x-100k --formats json,labels -o %s/x", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    snprintf(path, sizeof path, "%s/x/labels.csv", dir);
    csv_file f = csv_load(path);
    cr_assert_gt(f.n, 1);
    long lines = 0, cables = 0;
    for (long i = 1; i < f.n; i++) {
        char *fld[16];
        cr_assert_eq(csv_split(f.line[i], fld, 16), 13, "row %ld", i);
        int cut = 0;
        for (int k = 0; k < 2; k++) {
            const char *line = fld[11 + k];
            if (line[0] == '\0')
                continue;
            const char *loc = label_location(line, k);
            int whole = loc[0] == 'H' || (loc[0] >= '1' && loc[0] <= '9');
            lines += !whole;
            cut |= !whole;
        }
        /* rows of one cable are adjacent (A, then Z or Z1, Z2, ...) */
        if (cut && (cables == 0 || strcmp(fld[0], cut_ids[cables - 1]) != 0)) {
            cr_assert_lt(cables, 4096);
            snprintf(cut_ids[cables++], sizeof cut_ids[0], "%s", fld[0]);
        }
    }
    csv_free(&f);
    cr_assert_gt(lines, 0, "no cut line: the test cannot fail");
    char want[160];
    snprintf(want, sizeof want, "fabplan: warning: labels.csv: %ld printed label lines on %ld cables ",
             lines, cables);
    const char *w = strstr(out, want);
    cr_expect(w != NULL, "no \"%s\" in\n%s", want, out);
    if (w != NULL) {
        const char *eol = strchr(w, '\n'), *at = strstr(w, cut_ids[0]);
        cr_expect(at != NULL && at < eol, "the warning does not name %s: %.300s", cut_ids[0], w);
    }
    snprintf(path, sizeof path, "%s/x/plan.json", dir);
    char *text = slurp(path);
    cJSON *j = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(j);
    const cJSON *lc = cJSON_GetObjectItemCaseSensitive(j, "labels_cut");
    cr_assert_not_null(lc, "plan.json has no labels_cut");
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(lc, "style")->valuestring, "plain");
    cr_expect_eq((long)cJSON_GetObjectItemCaseSensitive(lc, "lines")->valuedouble, lines);
    cr_expect_eq((long)cJSON_GetObjectItemCaseSensitive(lc, "cable_count")->valuedouble, cables);
    /* the cables: exactly those with a cut line, in id order, each once */
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(lc, "cables");
    cr_assert_eq(cJSON_GetArraySize(ids), cables);
    for (int k = 0; k < cables; k++)
        cr_expect_str_eq(cJSON_GetArrayItem(ids, k)->valuestring, cut_ids[k], "cable %d", k);
    cJSON_Delete(j);
}

/* Issue 27, one plan per folder: a folder without a manifest (written before 0.2, or with
 * files copied in) keeps its files, so `plan` says which of them carry the names of documents
 * fabplan writes (docs/outputs.md's table: plan.xlsx, labels.csv, report.html; a --split-by
 * folder by-row/) and that this run did not write: they are another plan's. The user's own
 * file and the documents written now are not named; a folder fabplan wrote since 0.2 gets no
 * warning, its earlier documents are gone. */
Test(cli, documents_of_another_plan_left_in_the_folder_are_named)
{
    static char out[1 << 15];
    char cmd[512];
    cr_assert_eq(run("mkdir -p old/by-row && echo x > old/plan.xlsx && echo x > old/labels.csv && "
                     "echo x > old/report.html && echo x > old/plan.json && echo x > old/mine.txt",
                     out, sizeof out), 0, "%s", out);
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 128 --formats json -q -o old");
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    const char *w = strstr(out, "fabplan: warning: old/ holds 4 documents fabplan writes that are "
                                "not this plan's");
    cr_assert_not_null(w, "%s", out);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(w, "\n"), w);
    static const char *const stale[] = { "plan.xlsx", "labels.csv", "report.html", "by-row/" };
    for (size_t i = 0; i < 4; i++)
        cr_expect(strstr(line, stale[i]) != NULL, "%s not named: %s", stale[i], line);
    cr_expect(strstr(line, "mine.txt") == NULL && strstr(line, "plan.json") == NULL, "%s", line);
    /* the files are left as they were */
    cr_expect_eq(access("old/plan.xlsx", F_OK), 0);
    cr_expect_eq(access("old/mine.txt", F_OK), 0);
    /* written by fabplan: the second plan removes the first's documents and says nothing */
    snprintf(cmd, sizeof cmd, BIN " plan --gpus 128 -q -o new && " BIN
             " plan --gpus 256 --formats json,cables -q -o new");
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect_eq(strstr(out, "warning"), NULL, "%s", out);
}

/* Issue 27, item 9: the summary printed "BOM: $114600485" beside "bisection 3,276,800"; money
 * was grouped, the counts beside it were not ("1975.2 kW", "42176 modules"). Every figure of
 * four or more digits on the lines the CLI writes itself is now grouped by three (the planner's
 * sentences, tier choice and notes, are the library's). The 16,384-GPU default on 64-port
 * QM9700 at 1:1: 16,384 / 32 down ports = 512 leaves, as many spines, 256 cores (1,280); one
 * link per GPU at each of the three boundaries (49,152); 8 GPUs a server (2,048 servers). */
Test(cli, summary_counts_have_separators, .timeout = TEST_TIMEOUT(120))
{
    static char out[1 << 16];
    cr_assert_eq(run(BIN " plan --gpus 16384 --formats json,bom -o s16", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "rail-optimized fabric: 16,384 GPUs on 2,048 servers, 3 tiers") != NULL, "%s", out);
    cr_expect(strstr(out, "\n  switches 1,280, links 49,152 (NIC-leaf 16,384), capacity ") != NULL, "%s", out);
    static const char *const own[] = { "rail-optimized fabric:", "  1 leaf", "  2 spine", "  3 core",
                                       "  switches ", "  layout:", "  power:", "  trays:",
                                       "  media audit ", "  links by medium:", "  BOM:", "  bisection " };
    int checked = 0;
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        int mine = 0;
        for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
            mine |= strncmp(line, own[k], strlen(own[k])) == 0;
        if (!mine)
            continue;
        checked++;
        for (const char *c = line; *c; c++) {
            size_t n = strspn(c, "0123456789");
            int after_mark = c > line && (c[-1] == ',' || c[-1] == '.' || c[-1] == '-' ||
                                          isalpha((unsigned char)c[-1]));
            if (n >= 4 && !after_mark)
                cr_expect_fail("%.*s ungrouped in: %s", (int)n, c, line);
            c += n ? n - 1 : 0;
        }
    }
    cr_expect_eq(checked, 14, "summary lines checked: %d", checked);
}
