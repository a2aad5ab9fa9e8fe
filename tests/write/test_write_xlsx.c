/* The installer workbook: unzip plan.xlsx, parse the sheet XML, and check it against the plan,
 * against links.csv / cables.csv, and against counts derived by hand in the comments. */
#include <criterion/criterion.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#include "helpers.h"
#include "write/writers.h"
#include "xlsx_read.h"

/* 768 GPUs, 8 per server, one 400G NIC per GPU, 64-port switches, 2 tiers (as in test_write):
 * 24 leaves (32 down + 32 up, all 64 ports used) and 16 spines with 768 links down. */
#define SPEC_768 "{\"name\":\"t768\",\"cluster\":{\"gpus\":768}}"
#define LEAVES 24
#define SPINES 16
#define LINKS (768 * 2)

static void tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/fabplan-xlsx-XXXXXX");
    cr_assert_not_null(mkdtemp(buf));
}

static void write_all(const fp_plan *p, const char *dir)
{
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_write(p, dir, NULL, &err), FP_OK, "%s (%s)", err.msg, err.where);
}

/* 1-based index of a sheet by name, 0 when absent. */
static int sheet_index(const char *xlsx, const char *name)
{
    char names[64][32];
    int n = xl_sheet_names(xlsx, names, 64);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i + 1;
    return 0;
}

static char *sheet_named(const char *xlsx, const char *name)
{
    int i = sheet_index(xlsx, name);
    cr_assert_gt(i, 0, "%s: no sheet \"%s\"", xlsx, name);
    return xl_sheet(xlsx, i);
}

Test(write_xlsx, sheets_in_reading_order)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128], names[16][32];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    int n = xl_sheet_names(path, names, 16);
    static const char *const want[] = { "Summary", "BOM", "Cables", "Ports", "Racks", "Pull list" };
    cr_assert_eq(n, 6, "%d sheets", n);
    for (int i = 0; i < 6; i++)
        cr_expect_str_eq(names[i], want[i]);
    fp_plan_free(p);
}

/* Every switch port is a row: (24 + 16) x 64 = 2,560 rows under the header. A port is used when a
 * link ends on it: each link has its upper end on a switch, and its lower end too unless it is a
 * NIC-leaf link, so used = 2 x 1,536 - 768 = 2,304 and spare = 2,560 - 2,304 = 256 (the spines'
 * 16 x 64 - 768). Each used row names the same far end as links.csv. */
Test(write_xlsx, ports_sheet_has_every_switch_port_and_its_far_end)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/links.csv", dir);
    csv_file links = csv_load(path);
    cr_assert_eq(links.n, LINKS + 1);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "Ports");
    cr_expect_eq(xl_count_rows(xml), 1 + (LEAVES + SPINES) * 64);

    static xl_row row;
    const char *pos = xml;
    long used = 0, spare = 0, checked = 0;
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[0], "Device");
    cr_expect_str_eq(row.v[8], "Status");
    while (xl_next_row(&pos, &row)) {
        if (strcmp(row.v[8], "spare") == 0) {
            spare++;
            cr_expect_str_eq(row.v[4], "", "spare port with a far end at row %ld", row.r);
            continue;
        }
        cr_assert_str_eq(row.v[8], "used", "row %ld", row.r);
        used++;
        if (used % 97 != 1)             /* a sample of ~24 rows against links.csv */
            continue;
        int found = 0;
        for (long i = 1; i < links.n && !found; i++) {
            char buf[256], *f[8];
            snprintf(buf, sizeof buf, "%s", links.line[i]);
            cr_assert_eq(csv_split(buf, f, 8), 8);
            if (strcmp(f[1], row.v[0]) == 0 && strcmp(f[2], row.v[2]) == 0)
                found = strcmp(f[3], row.v[4]) == 0 && strcmp(f[4], row.v[5]) == 0 ? 1 : -1;
            else if (strcmp(f[3], row.v[0]) == 0 && strcmp(f[4], row.v[2]) == 0)
                found = strcmp(f[1], row.v[4]) == 0 && strcmp(f[2], row.v[5]) == 0 ? 1 : -1;
        }
        cr_expect_eq(found, 1, "Ports row %ld (%s %s -> %s %s) not as in links.csv", row.r,
                     row.v[0], row.v[2], row.v[4], row.v[5]);
        checked++;
    }
    cr_expect_eq(used, 2 * LINKS - 768);
    cr_expect_eq(spare, SPINES * 64 - 768);
    cr_expect_gt(checked, 20);
    free(xml);
    csv_free(&links);
    fp_plan_free(p);
}

/* With the per-sheet limit lowered to 1,000 data rows, the 2,560 port rows continue on
 * "Ports (2)" and "Ports (3)": 1,000 + 1,000 + 560, each sheet with its own header, nothing
 * lost and nothing repeated. */
Test(write_xlsx, sheet_continues_past_the_row_limit)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    fp_error err = { 0 };
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    cr_assert_eq(fp__write_xlsx_rows(p, path, NULL, 1000, &err), FP_OK, "%s", err.msg);
    /* The same sheet without a limit, as the reference order. */
    char whole[128];
    snprintf(whole, sizeof whole, "%s/whole.xlsx", dir);
    cr_assert_eq(fp__write_xlsx(p, whole, NULL, &err), FP_OK, "%s", err.msg);
    char *ref = sheet_named(whole, "Ports");
    const char *rpos = ref;
    static xl_row rrow, row;
    cr_assert(xl_next_row(&rpos, &rrow));
    static const char *const parts[] = { "Ports", "Ports (2)", "Ports (3)" };
    static const long rows[] = { 1000, 1000, 560 };
    long total = 0;
    for (int k = 0; k < 3; k++) {
        char *xml = sheet_named(path, parts[k]);
        cr_expect_eq(xl_count_rows(xml), rows[k] + 1, "%s", parts[k]);
        const char *pos = xml;
        cr_assert(xl_next_row(&pos, &row));
        cr_expect_str_eq(row.v[0], "Device", "%s has no header", parts[k]);
        while (xl_next_row(&pos, &row)) {
            cr_assert(xl_next_row(&rpos, &rrow));
            cr_expect(strcmp(row.v[0], rrow.v[0]) == 0 && strcmp(row.v[2], rrow.v[2]) == 0,
                      "%s row %ld: %s %s, unsplit sheet has %s %s", parts[k], row.r, row.v[0],
                      row.v[2], rrow.v[0], rrow.v[2]);
            total++;
        }
        free(xml);
    }
    free(ref);
    cr_expect_eq(total, (LEAVES + SPINES) * 64);
    cr_expect_eq(sheet_index(path, "Ports (4)"), 0);
    /* The order of sheets: continuations follow their first sheet. */
    cr_expect_eq(sheet_index(path, "Ports (2)"), sheet_index(path, "Ports") + 1);
    cr_expect_eq(sheet_index(path, "Racks"), sheet_index(path, "Ports (3)") + 1);
    fp_plan_free(p);
}

/* Summary: the spec's name, the fixed "generated by" line, and the design figures. */
Test(write_xlsx, summary_shows_the_design)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "Summary");
    static xl_row row;
    const char *pos = xml;
    int gpus = 0, servers = 0, tiers = 0, version = 0, leaf = 0, spine = 0;
    while (xl_next_row(&pos, &row)) {
        if (strcmp(row.v[0], "generated by fabplan " FP_VERSION) == 0)
            version = 1;
        if (strcmp(row.v[0], "GPUs") == 0)
            gpus = atoi(row.v[1]);
        if (strcmp(row.v[0], "Servers") == 0)
            servers = atoi(row.v[1]);
        if (strcmp(row.v[0], "Switch tiers") == 0)
            tiers = atoi(row.v[1]);
        if (strcmp(row.v[1], "leaf") == 0)
            leaf = atoi(row.v[3]);
        if (strcmp(row.v[1], "spine") == 0)
            spine = atoi(row.v[3]);
    }
    cr_expect(version, "no \"generated by fabplan %s\" line", FP_VERSION);
    cr_expect_eq(gpus, 768);
    cr_expect_eq(servers, 768 / 8);
    cr_expect_eq(tiers, 2);
    cr_expect_eq(leaf, LEAVES);
    cr_expect_eq(spine, SPINES);
    cr_expect_not_null(strstr(xml, "t768: fabric plan"));
    free(xml);
    fp_plan_free(p);
}

/* Value (column B) of the Summary row whose column A is label; NAN when absent. */
static double summary_value(const char *xml, const char *label, char *text, size_t n)
{
    static xl_row row;
    const char *pos = xml;
    while (xl_next_row(&pos, &row))
        if (strcmp(row.v[0], label) == 0) {
            if (text)
                snprintf(text, n, "%s", row.v[1]);
            return row.v[1][0] ? strtod(row.v[1], NULL) : NAN;
        }
    cr_expect_fail("Summary has no \"%s\" row", label);
    return NAN;
}

static int close_to(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want));
}

/* Summary, bandwidth and reliability: the metrics API's figures, read back from the sheet.
 * By hand for the 768-GPU 2-tier plan at 1:1: the split puts 384 NIC ports on each side, so the
 * 1:1 target and the bisection are 384 x 400 Gb/s = 153,600 Gb/s (full bisection), and the
 * longest GPU-to-GPU path is leaf - spine - leaf: 3 switches. Links fail when a transceiver or a
 * cable does, so that rate is the sum of the two. */
Test(write_xlsx, summary_shows_bisection_diameter_and_reliability)
{
    fp_plan *p = plan_from(SPEC_768);
    const fp_metrics *mx = fp_plan_metrics(p);
    const fp_reliability *rel = &mx->reliability;
    char dir[64], path[128], text[256];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "Summary");

    double analytic = summary_value(xml, "Bisection Gb/s (analytic)", NULL, 0);
    double maxflow = summary_value(xml, "Bisection Gb/s (max-flow)", NULL, 0);
    cr_expect(close_to(analytic, 384 * 400.0), "analytic %g", analytic);
    cr_expect(close_to(maxflow, 384 * 400.0), "max-flow %g", maxflow);
    cr_expect(close_to(analytic, mx->bisection_gbps));
    cr_expect(close_to(maxflow, mx->bisection_maxflow_gbps));
    cr_expect(close_to(summary_value(xml, "1:1 target Gb/s", NULL, 0), 384 * 400.0));
    summary_value(xml, "Full bisection", text, sizeof text);
    cr_expect_str_eq(text, "yes");
    cr_expect_eq((int)summary_value(xml, "Diameter (switch hops)", NULL, 0), 3);
    cr_expect_eq(mx->diameter_switches, 3);

    double sw = summary_value(xml, "Switch failures per day", NULL, 0);
    double xc = summary_value(xml, "Transceiver failures per day", NULL, 0);
    double cb = summary_value(xml, "Cable failures per day", NULL, 0);
    double nic = summary_value(xml, "NIC failures per day", NULL, 0);
    double link = summary_value(xml, "Link failures per day", NULL, 0);
    cr_expect(close_to(sw, rel->switch_failures_per_day), "%g", sw);
    cr_expect(close_to(xc, rel->transceiver_failures_per_day), "%g", xc);
    cr_expect(close_to(cb, rel->cable_failures_per_day), "%g", cb);
    cr_expect(close_to(nic, rel->nic_failures_per_day), "%g", nic);
    cr_expect(close_to(link, xc + cb), "links %g, transceivers + cables %g", link, xc + cb);
    /* The catalog knows these MTBFs, so the times are figures (1 / rate in hours), not text. */
    double h_link = summary_value(xml, "Hours to first link failure", NULL, 0);
    double h_sw = summary_value(xml, "Hours to first switch failure", NULL, 0);
    cr_assert_gt(link, 0);
    cr_assert_gt(sw, 0);
    cr_expect(close_to(h_link, 24.0 / link), "%g h vs %g", h_link, 24.0 / link);
    cr_expect(close_to(h_sw, 24.0 / sw), "%g h vs %g", h_sw, 24.0 / sw);
    free(xml);
    fp_plan_free(p);
}

/* Same plan, same bytes: no clock in the document properties or the zip entries. */
Test(write_xlsx, reproducible_bytes)
{
    fp_plan *p = plan_from(SPEC_768);
    char d1[64], d2[64], cmd[256];
    tmpdir(d1, sizeof d1);
    tmpdir(d2, sizeof d2);
    write_all(p, d1);
    sleep(2);                           /* zip timestamps have a 2 s resolution */
    write_all(p, d2);
    snprintf(cmd, sizeof cmd, "cmp -s %s/plan.xlsx %s/plan.xlsx", d1, d2);
    cr_expect_eq(system(cmd), 0, "plan.xlsx differs between two runs");
    snprintf(cmd, sizeof cmd, "%s/plan.xlsx", d1);
    char *core = xl_member(cmd, "docProps/core.xml");
    cr_expect_not_null(strstr(core, "2000-01-01T00:00:00Z"), "%s", core);
    free(core);
    fp_plan_free(p);
}

/* Cables: one row per cable under the header, in cable order, each as in cables.csv. */
Test(write_xlsx, cables_sheet_has_one_row_per_cable)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "Cables");
    size_t n = fp_plan_cable_count(p);
    cr_assert_gt(n, 0);
    cr_expect_eq(xl_count_rows(xml), (long)n + 1);
    static xl_row row;
    const char *pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[0], "Cable ID");
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    csv_file csv = csv_load(path);
    cr_assert_eq(csv.n, (long)n + 1);
    long compared = 0;
    for (size_t i = 0; i < n && xl_next_row(&pos, &row); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        cr_expect_str_eq(row.v[0], c.id);
        cr_expect_str_eq(row.v[5], c.a.device_name);
        cr_expect_str_eq(row.v[6], c.a.port);
        cr_expect_str_eq(row.v[13], fp_medium_name(c.medium));
        if (i % 37 != 0)
            continue;
        /* Every column of a sample of rows against cables.csv: same order, same columns;
         * numbers compared as numbers (the CSV rounds lengths to cm). */
        char *f[32];
        cr_assert_eq(csv_split(csv.line[i + 1], f, 32), 21, "cables.csv line %zu", i + 2);
        for (int k = 0; k < 21; k++) {
            int numeric = (k >= 1 && k <= 4) || (k >= 7 && k <= 10 && c.n_z == 1) || k == 15 ||
                          k == 16;
            if (numeric)
                cr_expect_float_eq(strtod(row.v[k], NULL), strtod(f[k], NULL), 0.006,
                                   "%s column %d: sheet %s, cables.csv %s", c.id, k, row.v[k], f[k]);
            else if (f[k][strspn(f[k], ";")] == '\0')  /* breakout legs with no such part */
                cr_expect_str_eq(row.v[k], "", "%s column %d: sheet %s, cables.csv %s", c.id,
                                 k, row.v[k], f[k]);
            else
                cr_expect_str_eq(row.v[k], f[k], "%s column %d", c.id, k);
        }
        compared++;
    }
    cr_expect_gt(compared, 10);
    csv_free(&csv);
    free(xml);
    fp_plan_free(p);
}

/* BOM: each line's cost is =F*G and its power =F*I (0 for spares, which sit on a shelf), each category ends in a SUBTOTAL row, and the total row sums
 * the whole column with SUBTOTAL(9, ...) (which skips the nested subtotals); its cached value is
 * the sum of quantity x unit cost recomputed here from the API. */
Test(write_xlsx, bom_total_row_is_formulas)
{
    fp_plan *p = plan_from(SPEC_768);
    size_t n = fp_plan_bom_count(p);
    cr_assert_gt(n, 0);
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "BOM");
    double cost = 0, power = 0;
    int categories = 0;
    const char *prev = "";
    for (size_t i = 0; i < n; i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        cost += (double)l.quantity * l.unit_cost;
        if (!l.spare)       /* spares on the shelf draw no power */
            power += (double)l.quantity * l.unit_power_w;
        if (strcmp(l.category, prev) != 0)
            categories++;
        prev = l.category;
    }
    /* header + lines + one subtotal per category + the total */
    cr_expect_eq(xl_count_rows(xml), 1 + (long)n + categories + 1);
    static xl_row row;
    const char *pos = xml;
    long last = 0, subtotals = 0, lines = 0;
    while (xl_next_row(&pos, &row)) {
        if (row.r == 1)
            continue;
        if (strncmp(row.v[0], "Subtotal ", 9) == 0) {
            subtotals++;
            cr_expect_eq(strncmp(row.f[7], "SUBTOTAL(9,H", 12), 0, "%s", row.f[7]);
        } else if (strcmp(row.v[0], "Total") == 0) {
            char want[64];
            snprintf(want, sizeof want, "SUBTOTAL(9,H2:H%ld)", row.r - 1);
            cr_expect_str_eq(row.f[7], want);
            snprintf(want, sizeof want, "SUBTOTAL(9,J2:J%ld)", row.r - 1);
            cr_expect_str_eq(row.f[9], want);
            cr_expect_float_eq(strtod(row.v[7], NULL), cost, 1e-6 * (cost + 1));
            cr_expect_float_eq(strtod(row.v[9], NULL), power, 1e-6 * (power + 1));
            last = row.r;
        } else {
            char want[32];
            snprintf(want, sizeof want, "F%ld*G%ld", row.r, row.r);
            cr_expect_str_eq(row.f[7], want);
            if (strcmp(row.v[4], "yes") == 0) {
                cr_expect_str_eq(row.f[9], "", "spare line %ld has a power formula", row.r);
                cr_expect_float_eq(strtod(row.v[9], NULL), 0.0, 1e-9);
            } else {
                snprintf(want, sizeof want, "F%ld*I%ld", row.r, row.r);
                cr_expect_str_eq(row.f[9], want);
            }
            lines++;
        }
    }
    cr_expect_eq(lines, (long)n);
    cr_expect_eq(subtotals, categories);
    cr_expect_eq(last, 1 + (long)n + categories + 1);
    free(xml);
    fp_plan_free(p);
}

/* --split-by row: one workbook per row of racks, each with its own Summary; every cable appears in
 * the workbook of each row it touches, so the Cables rows add up to at least the cable count. */
Test(write_xlsx, split_by_row_writes_one_workbook_per_row)
{
    fp_plan *p = plan_from(SPEC_768);
    size_t nr = fp_plan_rack_count(p);
    cr_assert_gt(nr, 0);
    char dir[64], path[256];
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.split_by = FP_SPLIT_ROW;
    tmpdir(dir, sizeof dir);
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    int rows_seen = 0, last_hall = -1, last_row = -1;
    long cable_rows = 0;
    for (size_t i = 0; i < nr; i++) {
        fp_rack_info r;
        cr_assert_eq(fp_plan_rack(p, i, &r, NULL), FP_OK);
        if (r.hall == last_hall && r.row == last_row)
            continue;
        last_hall = r.hall;
        last_row = r.row;
        rows_seen++;
        snprintf(path, sizeof path, "%s/by-row/plan-H%d-R%02d.xlsx", dir, r.hall, r.row);
        cr_assert_eq(access(path, R_OK), 0, "missing %s", path);
        cr_expect_eq(sheet_index(path, "Summary"), 1);
        char *xml = sheet_named(path, "Cables");
        cable_rows += xl_count_rows(xml) - 1;
        free(xml);
    }
    cr_expect_gt(rows_seen, 0);
    cr_expect_geq(cable_rows, (long)fp_plan_cable_count(p));
    fp_plan_free(p);
}

Test(write_xlsx, unwritable_path_is_an_io_error)
{
    fp_plan *p = plan_from(SPEC_768);
    fp_error err = { 0 };
    const char *path = "/nonexistent-dir/x/plan.xlsx";
    cr_expect_eq(fp__write_xlsx(p, path, NULL, &err), FP_EIO);
    cr_expect_str_eq(err.where, path);
    fp_plan_free(p);
}

Test(write_xlsx, cli_split_by_rejects_other_values)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/src/fabplan plan --split-by rack -o /tmp/fabplan-none -q "
             "2>/dev/null", FP_TEST_BIN_DIR);
    int st = system(cmd);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2, "status %d", st);
}
