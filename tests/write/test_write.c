/* Writers: read the files back and compare with the plan through the API. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "helpers.h"

static void tmpdir(char *buf, size_t n)
{
    scratch_dir(buf, n, "test");
}

Test(write, plan_json_and_links_csv_read_back)
{
    fp_plan *p = plan_from("{\"name\":\"t\",\"cluster\":{\"gpus\":768}}");
    char dir[64];
    fp_error err = { 0 };
    tmpdir(dir, sizeof dir);
    cr_assert_eq(fp_plan_write(p, dir, NULL, &err), FP_OK, "%s", err.msg);

    char path[128];
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *txt = slurp(path);
    cJSON *j = cJSON_Parse(txt);
    cr_assert_not_null(j);
    cJSON *sum = cJSON_GetObjectItem(j, "summary");
    cr_expect_eq(cJSON_GetObjectItem(sum, "gpus")->valueint, 768);
    cr_expect_eq(cJSON_GetObjectItem(sum, "servers")->valueint, 96);
    cr_expect_eq(cJSON_GetObjectItem(sum, "tiers")->valueint, 2);
    cr_expect_eq(cJSON_GetObjectItem(sum, "switches")->valueint, 24 + 16);
    cr_expect_eq(cJSON_GetObjectItem(sum, "links")->valueint, 768 * 2);
    cr_expect_eq(cJSON_GetObjectItem(sum, "capacity_gpus")->valueint, 2048);
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(sum, "tier_choice")));
    cJSON *tiers = cJSON_GetObjectItem(j, "tiers");
    cr_assert_eq(cJSON_GetArraySize(tiers), 2);
    cJSON *leaf = cJSON_GetArrayItem(tiers, 0);
    const char *keys[] = { "tier", "role", "model", "switches", "ports_per_switch", "ports_used",
                           "ports_spare", "oversubscription", "links_up" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect_not_null(cJSON_GetObjectItem(leaf, keys[i]), "tiers[0].%s missing", keys[i]);
    cr_expect_str_eq(cJSON_GetObjectItem(leaf, "role")->valuestring, "leaf");
    cr_expect_eq(cJSON_GetObjectItem(leaf, "ports_used")->valueint, 24 * 64);
    cJSON *spine = cJSON_GetArrayItem(tiers, 1);
    /* 16 spines x 64 ports, 768 links down: 256 spare */
    cr_expect_eq(cJSON_GetObjectItem(spine, "ports_spare")->valueint, 16 * 64 - 768);
    cJSON *lb = cJSON_GetObjectItem(j, "links_by_boundary");
    cr_assert_eq(cJSON_GetArraySize(lb), 2);
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(lb, 1), "from_tier")->valueint, 1);
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(lb, 1), "links")->valueint, 768);
    cJSON_Delete(j);
    free(txt);

    snprintf(path, sizeof path, "%s/links.csv", dir);
    txt = slurp(path);
    size_t lines = 0;
    for (char *c = txt; *c; c++)
        lines += *c == '\n';
    cr_expect_eq(lines, fp_plan_link_count(p) + 1);
    cr_expect(strncmp(txt, "link_id,a_device,a_port,z_device,z_port,speed_gbps,boundary,plane\n", 66) == 0);
    /* a sample row against the API */
    fp_link_info l;
    fp_device_info a, z;
    fp_plan_link(p, 800, &l, NULL);
    fp_plan_device(p, (size_t)l.a, &a, NULL);
    fp_plan_device(p, (size_t)l.z, &z, NULL);
    char row[256];
    snprintf(row, sizeof row, "\nL0000801,%s,%s,%s,%s,400,leaf-spine,1\n", a.name, l.a_port_name, z.name, l.z_port_name);
    cr_expect(strstr(txt, row) != NULL, "row not found: %s", row);
    free(txt);
    fp_plan_free(p);
}

Test(write, byte_identical_twice)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"tiers\":3}}");
    char d1[64], d2[64], a[128], b[128];
    fp_error err = { 0 };
    tmpdir(d1, sizeof d1);
    tmpdir(d2, sizeof d2);
    cr_assert_eq(fp_plan_write(p, d1, NULL, &err), FP_OK);
    fp_plan *q = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"tiers\":3}}");
    cr_assert_eq(fp_plan_write(q, d2, NULL, &err), FP_OK);
    const char *files[] = { "plan.json", "links.csv" };
    for (int i = 0; i < 2; i++) {
        snprintf(a, sizeof a, "%s/%s", d1, files[i]);
        snprintf(b, sizeof b, "%s/%s", d2, files[i]);
        char *x = slurp(a), *y = slurp(b);
        cr_expect_str_eq(x, y, "%s differs", files[i]);
        free(x);
        free(y);
    }
    fp_plan_free(p);
    fp_plan_free(q);
}

Test(write, failure_leaves_no_files)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256}}");
    fp_error err = { 0 };
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    /* a folder where links.csv goes is the user's: refused before anything is published */
    snprintf(path, sizeof path, "%s/links.csv", dir);
    cr_assert_eq(mkdir(path, 0777), 0);
    cr_expect_eq(fp_plan_write(p, dir, NULL, &err), FP_EIO);
    cr_expect(strstr(err.msg, "it is a folder") != NULL, "%s", err.msg);
    snprintf(path, sizeof path, "%s/plan.json", dir);
    cr_expect_neq(access(path, F_OK), 0, "plan.json must not be left behind");
    cr_expect_eq(count_temp(dir), 0, "temporary folders must be removed");
    /* output "directory" that is a file */
    memset(&err, 0, sizeof err);
    snprintf(path, sizeof path, "%s/file", dir);
    FILE *f = fopen(path, "w");
    fclose(f);
    cr_expect_eq(fp_plan_write(p, path, NULL, &err), FP_EIO);
    fp_plan_free(p);
}

/* cables.csv's first line is the cables schema (fp_cables_column_name) over the columns the plan
 * has, and is the header docs/outputs.md documents: a plain plan's, with structured cabling the
 * six cord and trunk columns before protocol, with spec `networks` network last. A column moved
 * in the schema or in the writer alone breaks one of the two comparisons. */
Test(write, cables_csv_header_is_the_schema)
{
    static const char *const base =
        "cable_id,a_hall,a_row,a_rack,a_u,a_device,a_port,z_hall,z_row,z_rack,z_u,z_device,z_port,"
        "medium,gbps,cable_part,route_m,stock_m,a_transceiver,z_transceiver,label_a,label_z";
    static const char *const segs =
        ",cord_a_m,cord_a_stock_m,trunk_m,trunk_stock_m,cord_z_m,cord_z_stock_m";
    static const struct { const char *spec; int structured, networks; } cases[] = {
        { "{\"name\":\"t\",\"cluster\":{\"gpus\":256}}", 0, 0 },
        { "{\"name\":\"t\",\"cluster\":{\"gpus\":256},\"layout\":{\"cabling\":\"structured\"}}", 1, 0 },
        { "preset:dgx-h100-4su-networks", 0, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fp_plan *p = strncmp(cases[i].spec, "preset:", 7) == 0 ? plan_from_preset(cases[i].spec + 7)
                                                                : plan_from(cases[i].spec);
        char dir[64], path[128], want[1024], schema[1024] = "";
        fp_error err = { 0 };
        fp_write_options o = FP_WRITE_OPTIONS_INIT;
        o.formats = FP_WRITE_CABLES;
        tmpdir(dir, sizeof dir);
        cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
        snprintf(want, sizeof want, "%s%s,protocol%s\n", base, cases[i].structured ? segs : "",
                 cases[i].networks ? ",network" : "");
        for (int c = 0; c < FP_CABLES_COLUMN_COUNT; c++) {
            int seg = c >= FP_CABLES_CORD_A_M && c <= FP_CABLES_CORD_Z_STOCK_M;
            if ((seg && !cases[i].structured) || (c == FP_CABLES_NETWORK && !cases[i].networks))
                continue;
            size_t k = strlen(schema);
            snprintf(schema + k, sizeof schema - k, "%s%s", k ? "," : "", fp_cables_column_name(c));
        }
        strcat(schema, "\n");
        snprintf(path, sizeof path, "%s/cables.csv", dir);
        char *txt = slurp(path);
        char *nl = strchr(txt, '\n');
        cr_assert_not_null(nl);
        nl[1] = '\0';
        cr_expect_str_eq(txt, want, "case %zu: docs/outputs.md's header", i);
        cr_expect_str_eq(txt, schema, "case %zu: the schema's names", i);
        free(txt);
        fp_plan_free(p);
    }
    /* every column has a name of its own; none outside the schema */
    for (int a = 0; a < FP_CABLES_COLUMN_COUNT; a++) {
        cr_assert_not_null(fp_cables_column_name(a), "column %d", a);
        for (int b = 0; b < a; b++)
            cr_expect_str_neq(fp_cables_column_name(a), fp_cables_column_name(b));
    }
    cr_expect_null(fp_cables_column_name(-1));
    cr_expect_null(fp_cables_column_name(FP_CABLES_COLUMN_COUNT));
}

/* fp_axis_ticks: each expectation worked by hand from the rule (the smallest step of 1, 2 or
 * 5 x 10^k whose multiples from the one at or below lo to the one at or above hi are at most
 * max_ticks). */
static void expect_ticks(double lo, double hi, int max_ticks, double step, double first,
                         int count, int decimals)
{
    fp_axis ax;
    fp_error err = { 0 };
    cr_assert_eq(fp_axis_ticks(lo, hi, max_ticks, &ax, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(ax.step, step, step * 1e-12, "%g..%g: step %g, expected %g", lo, hi,
                       ax.step, step);
    cr_assert_eq(ax.count, count, "%g..%g: %d ticks, expected %d", lo, hi, ax.count, count);
    cr_expect_eq(ax.decimals, decimals, "%g..%g", lo, hi);
    for (int i = 0; i < count; i++) {
        /* printed at ax.decimals, each tick reads as the multiple exactly */
        char got[64], want[64];
        snprintf(got, sizeof got, "%.*f", ax.decimals, ax.tick[i]);
        snprintf(want, sizeof want, "%.*f", decimals, first + i * step);
        cr_expect_str_eq(got, want, "%g..%g tick %d", lo, hi, i);
    }
    cr_expect(ax.lo == ax.tick[0] && ax.hi == ax.tick[count - 1]);
}

Test(write, axis_ticks_are_round)
{
    /* The sweep chart's cost range of issue 27 (ticks read 4798, 5480, 6162): step 500 needs
     * 4500 .. 8000, 8 ticks; step 1000 gives 4000 .. 8000, 5. */
    expect_ticks(4798, 7526, 6, 1000, 4000, 5, 0);
    /* GPUs 0 .. 131072, 8 ticks: step 10000 needs 15, 20000 needs 0 .. 140000, 8. */
    expect_ticks(0, 131072, 8, 20000, 0, 8, 0);
    /* ... with 6: 20000 needs 8, 50000 gives 0, 50000, 100000, 150000. */
    expect_ticks(0, 131072, 6, 50000, 0, 4, 0);
    /* 0.3 .. 0.7, 5 ticks: step 0.1 gives 0.3 .. 0.7 exactly (no 0.2 from 0.3 / 0.1 rounding). */
    expect_ticks(0.3, 0.7, 5, 0.1, 0.3, 5, 1);
    /* Below zero: -3 .. 7 in 7 ticks: step 1 needs 11, 2 gives -4 .. 8, 7. */
    expect_ticks(-3, 7, 7, 2, -4, 7, 0);
    /* One value: 5 widened to 4 .. 6; step 0.2 needs 11, 0.5 gives 5. Zero: 0 .. 1 by 0.2. */
    expect_ticks(5, 5, 6, 0.5, 4, 5, 1);
    expect_ticks(0, 0, 6, 0.2, 0, 6, 1);
    /* Small steps: 0.012 .. 0.047 in 6: step 0.005 needs 0.010 .. 0.050, 9; 0.01 gives 5. */
    expect_ticks(0.012, 0.047, 6, 0.01, 0.01, 5, 2);
    /* A range already on round ends keeps them: 0 .. 100 in 6, step 20. */
    expect_ticks(0, 100, 6, 20, 0, 6, 0);

    /* Errors: the out struct zeroed, FP_EINVAL. */
    fp_axis ax;
    fp_error err = { 0 };
    cr_expect_eq(fp_axis_ticks(2, 1, 6, &ax, &err), FP_EINVAL);
    cr_expect_eq(ax.count, 0);
    cr_expect_eq(fp_axis_ticks(0, NAN, 6, &ax, &err), FP_EINVAL);
    cr_expect_eq(fp_axis_ticks(0, INFINITY, 6, &ax, &err), FP_EINVAL);
    cr_expect_eq(fp_axis_ticks(0, 1, 1, &ax, &err), FP_EINVAL);
    cr_expect_eq(fp_axis_ticks(0, 1, FP_AXIS_MAX_TICKS + 1, &ax, &err), FP_EINVAL);
    cr_expect_eq(fp_axis_ticks(0, 1, 6, NULL, &err), FP_EINVAL);
}
