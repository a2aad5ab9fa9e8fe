/* The installer workbook: unzip plan.xlsx, parse the sheet XML, and check it against the plan,
 * against links.csv / cables.csv, and against counts derived by hand in the comments. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "helpers.h"
#include "write/writers.h"
/* The Rack elevation of SUPERPOD_V1 (tests/helpers.h) has 60 rack columns and the U column. */
#define XL_MAX_COLS 72
#include "xlsx_read.h"
#include "xlsx_eval.h"

/* 768 GPUs, 8 per server, one 400G NIC per GPU, 64-port switches, 2 tiers (as in test_write):
 * 24 leaves (32 down + 32 up, all 64 ports used) and 16 spines with 768 links down. */
#define SPEC_768 "{\"name\":\"t768\",\"cluster\":{\"gpus\":768}}"
#define LEAVES 24
#define SPINES 16
#define LINKS (768 * 2)

static void tmpdir(char *buf, size_t n)
{
    scratch_dir(buf, n, "xlsx");
}

static void write_all(const fp_plan *p, const char *dir)
{
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_write(p, dir, NULL, &err), FP_OK, "%s (%s)", err.msg, err.where);
}

/* 1-based index of a sheet by name, 0 when absent. */
static int sheet_index(const char *xlsx, const char *name)
{
    char names[512][32];
    int n = xl_sheet_names(xlsx, names, 512);
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

/* Each test in its own scratch folder: the fixed names below are relative to it. */
TestSuite(write_xlsx, .init = enter_scratch_dir);

Test(write_xlsx, sheets_in_reading_order)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128], names[16][32];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    int n = xl_sheet_names(path, names, 16);
    static const char *const want[] = { "Summary",        "BOM",       "Cables", "Ports", "Racks",
                                        "Rack elevation", "Pull list", "Optics", "Trays" };
    cr_assert_eq(n, 9, "%d sheets", n);
    for (int i = 0; i < 9; i++)
        cr_expect_str_eq(names[i], want[i]);
    fp_plan_free(p);
}

/* Every switch port is on the sheet once: (24 + 16) x 64 = 2,560 ports, three to a row, so a
 * switch takes ceil(64 / 3) = 22 rows and the sheet 40 x 22 = 880 under the header. A port is
 * used when a link ends on it: each link has its upper end on a switch, and its lower end too
 * unless it is a NIC-leaf link, so used = 2 x 1,536 - 768 = 2,304 and spare = 2,560 - 2,304 =
 * 256 (the spines' 16 x 64 - 768). Each used port names the same far end as links.csv. The
 * ports run down the blocks: block k of a switch's row i is its port k x 22 + i, and the
 * 64-port switches are Quantum-2 (nvidia-qm9700), whose port p (from 0) is named
 * 1/<p / 2 + 1>/<p % 2 + 1> (cage, port: docs/outputs.md, Port names), so the row reads
 * 1/<i/2+1>/<i%2+1>, then the same for 22 + i and 44 + i (none past port 63). */
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
    cr_expect_eq(xl_count_rows(xml), 1 + (LEAVES + SPINES) * 22);

    static xl_row row;
    const char *pos = xml;
    long used = 0, spare = 0, checked = 0, ports = 0, in_switch = 0;
    char device[64] = "";
    cr_assert(xl_next_row(&pos, &row));
    static const char *const head[] = { "Device", "Location", "Port", "Far device", "Far port",
                                        "Cable ID", "" };
    for (int c = 0; c < 16; c++)
        cr_expect_str_eq(row.v[c], head[c < 2 ? c : 2 + (c - 2) % 5], "header column %d", c);
    while (xl_next_row(&pos, &row)) {
        xl_port pt[XL_PORT_BLOCKS];
        int n = xl_ports_of_row(&row, pt);
        if (strcmp(row.v[0], device) != 0) {
            cr_expect(device[0] == '\0' || in_switch == 22, "%s: %ld rows", device, in_switch);
            snprintf(device, sizeof device, "%s", row.v[0]);
            in_switch = 0;
        }
        cr_expect_neq(row.v[1][0], '\0', "row %ld has no location", row.r);
        for (int k = 0; k < n; k++) {
            char want[16];
            long idx = k * 22 + in_switch;
            snprintf(want, sizeof want, "1/%ld/%ld", idx / 2 + 1, idx % 2 + 1);
            cr_expect_str_eq(pt[k].port, want, "row %ld block %d", row.r, k + 1);
        }
        cr_expect_eq(n, in_switch < 64 - 44 ? 3 : 2, "row %ld: %d ports", row.r, n);
        in_switch++;
        for (int k = 0; k < n; k++, ports++) {
            if (strcmp(pt[k].far, "spare") == 0) {
                spare++;
                cr_expect_str_eq(pt[k].cable, "", "spare port with a cable at row %ld", row.r);
                continue;
            }
            used++;
            cr_expect_eq(pt[k].cable[0], 'C', "row %ld block %d: no cable id", row.r, k + 1);
            if (used % 97 != 1)             /* a sample of ~24 ports against links.csv */
                continue;
            int found = 0;
            for (long i = 1; i < links.n && !found; i++) {
                char buf[256], *f[8];
                snprintf(buf, sizeof buf, "%s", links.line[i]);
                cr_assert_eq(csv_split(buf, f, 8), 8);
                if (strcmp(f[1], pt[k].device) == 0 && strcmp(f[2], pt[k].port) == 0)
                    found = strcmp(f[3], pt[k].far) == 0 && strcmp(f[4], pt[k].far_port) == 0 ? 1 : -1;
                else if (strcmp(f[3], pt[k].device) == 0 && strcmp(f[4], pt[k].port) == 0)
                    found = strcmp(f[1], pt[k].far) == 0 && strcmp(f[2], pt[k].far_port) == 0 ? 1 : -1;
            }
            cr_expect_eq(found, 1, "Ports row %ld (%s %s -> %s %s) not as in links.csv", row.r,
                         pt[k].device, pt[k].port, pt[k].far, pt[k].far_port);
            checked++;
        }
    }
    cr_expect_eq(in_switch, 22);
    cr_expect_eq(ports, (LEAVES + SPINES) * 64);
    cr_expect_eq(used, 2 * LINKS - 768);
    cr_expect_eq(spare, SPINES * 64 - 768);
    cr_expect_gt(checked, 20);
    free(xml);
    csv_free(&links);
    fp_plan_free(p);
}

/* With the per-sheet limit lowered to 100 data rows, the 40 switches of 22 rows each continue
 * on "Ports (2)" .. "Ports (10)": a switch's rows stay on one sheet, so each sheet holds
 * floor(100 / 22) = 4 switches, 88 rows, each with its own header, nothing lost and nothing
 * repeated. With 10 rows a sheet a switch's 22 rows cannot stay together: 880 rows continue
 * every 10, on 88 sheets. */
Test(write_xlsx, sheet_continues_past_the_row_limit)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    fp_error err = { 0 };
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    cr_assert_eq(fp__write_xlsx_rows(p, path, NULL, 100, &err), FP_OK, "%s", err.msg);
    /* The same sheet without a limit, as the reference order. */
    char whole[128];
    snprintf(whole, sizeof whole, "%s/whole.xlsx", dir);
    cr_assert_eq(fp__write_xlsx(p, whole, NULL, &err), FP_OK, "%s", err.msg);
    char *ref = sheet_named(whole, "Ports");
    const char *rpos = ref;
    static xl_row rrow, row;
    cr_assert(xl_next_row(&rpos, &rrow));
    long total = 0;
    for (int k = 1; k <= 10; k++) {
        char part[32];
        snprintf(part, sizeof part, k == 1 ? "Ports" : "Ports (%d)", k);
        char *xml = sheet_named(path, part);
        cr_expect_eq(xl_count_rows(xml), 88 + 1, "%s", part);
        const char *pos = xml;
        cr_assert(xl_next_row(&pos, &row));
        cr_expect_str_eq(row.v[0], "Device", "%s has no header", part);
        long in_part = 0;
        while (xl_next_row(&pos, &row)) {
            cr_assert(xl_next_row(&rpos, &rrow));
            if (in_part++ == 0)
                cr_expect_str_eq(row.v[2], "1/1/1", "%s starts inside a switch", part);
            for (int c = 0; c < 16; c++)
                cr_expect_str_eq(row.v[c], rrow.v[c], "%s row %ld column %d", part, row.r, c);
            total++;
        }
        free(xml);
    }
    free(ref);
    cr_expect_eq(total, (LEAVES + SPINES) * 22);
    cr_expect_eq(sheet_index(path, "Ports (11)"), 0);
    /* The order of sheets: continuations follow their first sheet. */
    cr_expect_eq(sheet_index(path, "Ports (2)"), sheet_index(path, "Ports") + 1);
    cr_expect_eq(sheet_index(path, "Racks"), sheet_index(path, "Ports (10)") + 1);
    snprintf(path, sizeof path, "%s/ten.xlsx", dir);
    cr_assert_eq(fp__write_xlsx_rows(p, path, NULL, 10, &err), FP_OK, "%s", err.msg);
    cr_expect_gt(sheet_index(path, "Ports (88)"), 0);
    cr_expect_eq(sheet_index(path, "Ports (89)"), 0);
    fp_plan_free(p);
}

/* Issue 27: the Rack elevation stopped at 16,382 racks, silently (a plan with 18,181 racks
 * drew 1,799 fewer). With the racks per sheet lowered to 10, every rack of the plan (its Racks,
 * fp_plan_rack, in floor order) heads one column of "Rack elevation", "Rack elevation (2)", ...
 * once, in order: ceil(racks / 10) sheets of 10 racks but the last, each with its U column. */
Test(write_xlsx, rack_elevation_continues_past_the_column_limit)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128], name[32];
    fp_error err = { 0 };
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    size_t was = fp__xlsx_test_elevation_racks(10);
    fp_status rc = fp__write_xlsx(p, path, NULL, &err);
    fp__xlsx_test_elevation_racks(was);
    cr_assert_eq(rc, FP_OK, "%s", err.msg);
    size_t racks = fp_plan_rack_count(p), seen = 0;
    cr_assert_gt(racks, 20, "the test wants at least three sheets");
    int sheets = (int)((racks + 9) / 10);
    static xl_row row;
    for (int k = 1; k <= sheets; k++) {
        snprintf(name, sizeof name, k == 1 ? "Rack elevation" : "Rack elevation (%d)", k);
        char *xml = sheet_named(path, name);
        const char *pos = xml;
        cr_assert(xl_next_row(&pos, &row));
        cr_expect_str_eq(row.v[0], "U", "%s", name);
        size_t on_sheet = 0;
        for (int c = 1; c < XL_MAX_COLS && row.present[c]; c++, on_sheet++, seen++) {
            fp_rack_info ra;
            cr_assert_eq(fp_plan_rack(p, seen, &ra, NULL), FP_OK);
            cr_expect_str_eq(row.v[c], ra.name, "%s column %d", name, c + 1);
        }
        cr_expect_eq(on_sheet, k < sheets ? 10 : racks - 10 * (size_t)(sheets - 1), "%s", name);
        free(xml);
    }
    cr_expect_eq(seen, racks);
    snprintf(name, sizeof name, "Rack elevation (%d)", sheets + 1);
    cr_expect_eq(sheet_index(path, name), 0);
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
        /* Gb/s: the speed of each link the cable carries, SPEC_768's one link speed */
        cr_expect_eq(atoi(row.v[14]), c.gbps);
        if (i % 37 != 0)
            continue;
        /* Every column of a sample of rows against cables.csv: its columns through the cable
         * part (0-15, gbps at 14) in place, then stock m (17 -> 16), the four sign-off columns
         * (17-20, empty), route m (16 -> 21) and the rest in cables.csv's order (18-21 ->
         * 22-25); numbers compared as numbers (the CSV rounds lengths to cm). */
        char *f[32];
        cr_assert_eq(csv_split(csv.line[i + 1], f, 32), 23, "cables.csv line %zu", i + 2);
        for (int k = 17; k < 21; k++)
            cr_expect_str_eq(row.v[k], "", "%s sign-off column %d", c.id, k);
        for (int k = 0; k < 22; k++) {
            int sk = k < 16 ? k : k == 16 ? 21 : k == 17 ? 16 : k + 4;
            int numeric = (k >= 1 && k <= 4) || (k >= 7 && k <= 10 && c.n_z == 1) || k == 14 ||
                          k == 16 || k == 17;
            if (numeric)
                cr_expect_float_eq(strtod(row.v[sk], NULL), strtod(f[k], NULL), 0.006,
                                   "%s column %d: sheet %s, cables.csv %s", c.id, k, row.v[sk], f[k]);
            else if (f[k][strspn(f[k], ";")] == '\0')  /* breakout legs with no such part */
                cr_expect_str_eq(row.v[sk], "", "%s column %d: sheet %s, cables.csv %s", c.id,
                                 k, row.v[sk], f[k]);
            else
                cr_expect_str_eq(row.v[sk], f[k], "%s column %d", c.id, k);
        }
        compared++;
    }
    cr_expect_gt(compared, 10);
    csv_free(&csv);
    free(xml);
    fp_plan_free(p);
}

/* Issue 27 point 9: printed BOM descriptions lost the cable length - "spare: OM4 MPO-12/APC
 * patch cord (8-fibre), multimode, 5 m" ran past its 48-character column and the ", 5 m" was
 * cut (the next cell is not empty): the 1,024-GPU book printed through LibreOffice (Carlito)
 * showed 55 characters of it. Every description cell now wraps (its style has wrapText) and
 * one of 56 characters or more gets a row of at least two 15-point lines. The plan has such
 * lines: every spare cable line is "spare: " + the description of the line above. */
Test(write_xlsx, bom_descriptions_wrap_whole)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "BOM");
    char *styles = xl_member(path, "xl/styles.xml");
    static xl_row row;
    const char *pos = xml;
    long long_ones = 0, lines = 0;
    while (xl_next_row(&pos, &row)) {
        if (row.r == 1 || row.v[2][0] == '\0' || strncmp(row.v[0], "Subtotal", 8) == 0 ||
            strncmp(row.v[0], "Total", 5) == 0)
            continue;
        lines++;
        /* the cell's <xf> in cellXfs: its alignment wraps */
        const char *x = strstr(styles, "<cellXfs");
        for (int k = 0; k <= row.style[2] && x; k++)
            x = strstr(x + 1, "<xf ");
        cr_assert_not_null(x);
        const char *end = strstr(x, "</xf>"), *next = strstr(x + 1, "<xf ");
        const char *w = strstr(x, "wrapText=\"1\"");
        cr_expect(w != NULL && w < end && (next == NULL || w < next),
                  "BOM row %ld: description \"%s\" does not wrap", row.r, row.v[2]);
        if (strlen(row.v[2]) >= 56) {
            long_ones++;
            cr_expect_geq(row.ht, 30, "BOM row %ld: \"%s\" (%zu characters) in one line", row.r,
                          row.v[2], strlen(row.v[2]));
        }
    }
    cr_expect_eq(lines, (long)fp_plan_bom_count(p));
    cr_expect_gt(long_ones, 0, "no description longer than the column: the test cannot fail");
    free(styles);
    free(xml);
    fp_plan_free(p);
}

/* BOM: each line's cost is =F*G and its power =F*I (0 for spares, which sit on a shelf), each category ends in a SUBTOTAL row, and the total row sums
 * the whole column with SUBTOTAL(9, ...) (which skips the nested subtotals); its cached value is
 * the sum of quantity x unit cost recomputed here from the API. Quantity is summed per category
 * only. */
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
            /* one category: its quantity adds up (switches, or transceivers, or cables) */
            cr_expect_eq(strncmp(row.f[5], "SUBTOTAL(9,F", 12), 0, "%s", row.f[5]);
        } else if (strcmp(row.v[0], "Total") == 0) {
            char want[64];
            /* issue 27: switches, transceivers and cables added into one quantity count
             * nothing: the total row leaves Quantity blank */
            cr_expect_not(row.present[5], "Total quantity %s (%s)", row.v[5], row.f[5]);
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
    snprintf(cmd, sizeof cmd, "%s/src/fabplan plan --split-by rack -o fabplan-none -q "
             "2>/dev/null", FP_TEST_BIN_DIR);
    int st = system(cmd);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2, "status %d", st);
}

/* ---- printing ---- */

/* The 768-GPU plan written with every output into a fresh dir; path is its plan.xlsx. */
static fp_plan *written_768(char dir[64], char path[128])
{
    fp_plan *p = plan_from(SPEC_768);
    tmpdir(dir, 64);
    write_all(p, dir);
    snprintf(path, 128, "%s/plan.xlsx", dir);
    return p;
}

/* The value of attribute attr in the first <tag ...> of xml ("" when absent). */
static void xml_attr(const char *xml, const char *tag, const char *attr, char *out, size_t n)
{
    char key[64];
    out[0] = '\0';
    snprintf(key, sizeof key, "<%s ", tag);
    const char *t = strstr(xml, key);
    if (t == NULL)
        return;
    const char *end = strchr(t, '>');
    snprintf(key, sizeof key, " %s=\"", attr);
    const char *a = strstr(t, key);
    if (a == NULL || a > end)
        return;
    a += strlen(key);
    snprintf(out, n, "%.*s", (int)(strchr(a, '"') - a), a);
}

/* Every sheet prints on the chosen paper, one page wide, with the plan and sheet in the header,
 * "page X of Y" in the footer; the data sheets repeat their header row on every page (Excel's
 * _xlnm.Print_Titles defined name; the elevation repeats its two header rows and U column).
 * Paper codes are the OOXML ones: 9 = A4, 1 = Letter. */
static void check_print_setup(const char *dir, const char *paper)
{
    char path[160], names[16][32], v[64];
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    int n = xl_sheet_names(path, names, 16);
    cr_assert_eq(n, 9); /* the 9 sheets of sheets_in_reading_order */
    char *wb = xl_member(path, "xl/workbook.xml");
    for (int i = 1; i <= n; i++) {
        char *xml = xl_sheet(path, i);
        xml_attr(xml, "pageSetup", "paperSize", v, sizeof v);
        cr_expect_str_eq(v, paper, "%s: paperSize %s", names[i - 1], v);
        cr_expect(strstr(xml, "<pageSetUpPr fitToPage=\"1\"/>") != NULL, "%s: no fitToPage",
                  names[i - 1]);
        xml_attr(xml, "pageSetup", strcmp(names[i - 1], "Rack elevation") == 0 ? "fitToWidth"
                                                                                : "fitToHeight", v, sizeof v);
        cr_expect_str_eq(v, "0", "%s: pages grow in one direction only", names[i - 1]);
        cr_expect(strstr(xml, "<oddHeader>&amp;L&amp;\"-,Bold\"t768: fabric plan&amp;R&amp;A</oddHeader>") != NULL,
                  "%s: header", names[i - 1]);
        cr_expect(strstr(xml, "<oddFooter>") && strstr(xml, "&amp;Cpage &amp;P of &amp;N"),
                  "%s: footer", names[i - 1]);
        if (i > 1) {    /* the Summary has no header row */
            char want[96];
            snprintf(want, sizeof want, "_xlnm.Print_Titles\" localSheetId=\"%d\"", i - 1);
            cr_expect(strstr(wb, want) != NULL, "%s: no print titles", names[i - 1]);
        }
        free(xml);
    }
    cr_expect(strstr(wb, "'Rack elevation'!$A:$A,'Rack elevation'!$1:$2") != NULL, "%s", wb);
    cr_expect(strstr(wb, ">Cables!$1:$1<") != NULL, "%s", wb);
    free(wb);
}

Test(write_xlsx, every_sheet_prints_with_paper_header_footer_and_titles)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64];
    fp_error err = { 0 };
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    check_print_setup(dir, "9");
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_XLSX;
    o.paper = FP_PAPER_LETTER;
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    check_print_setup(dir, "1");
    fp_plan_free(p);
}

/* A caller built against an older fp_write_options has only that version's members: paper is
 * version 4, so a version-3 struct's paper member is not the caller's (here it holds Letter on
 * purpose) and the book prints on A4 (code 9), as version 3 did; version 4 asks for Letter (1).
 * Versions outside 1..FP_WRITE_OPTIONS_VERSION are FP_EINVAL before anything is written. */
Test(write_xlsx, options_of_an_older_version_read_only_its_members)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64];
    fp_error err = { 0 };
    tmpdir(dir, sizeof dir);
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_XLSX;
    o.paper = FP_PAPER_LETTER;
    o.version = 3;
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    check_print_setup(dir, "9");
    o.version = 4;
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    check_print_setup(dir, "1");
    int bad[] = { 0, -1, FP_WRITE_OPTIONS_VERSION + 1 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o.version = bad[i];
        err = (fp_error){ 0 };
        cr_expect_eq(fp_plan_write(p, "/nonexistent/never-made", &o, &err), FP_EINVAL, "version %d", bad[i]);
        cr_expect(strstr(err.msg, "fp_write_options version") != NULL, "%s", err.msg);
        char unit[32];
        err = (fp_error){ 0 };
        cr_expect_eq(fp_plan_detail_unit(p, &o, unit, sizeof unit, &err), 0);
        cr_expect(strstr(err.msg, "fp_plan_detail_unit: fp_write_options version") != NULL, "%s", err.msg);
    }
    fp_plan_free(p);
}

/* Printed Cables at 8 pt or more. The print area's columns have XML widths w (characters plus
 * libxlsxwriter's 5 px padding), w x 7 px each at 100 %, 0.75 pt per px. A page fits
 * 842 pt (A4 landscape) or 792 pt (Letter landscape) less the left and right margins; fit to
 * one page wide scales by printable / total (at most 1), and 11 pt Calibri (styles.xml) prints
 * at 11 x scale. */
static double printed_cables_pt(const char *dir, double page_pt)
{
    char path[160], v[64];
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *wb = xl_member(path, "xl/workbook.xml");
    const char *pa = strstr(wb, "_xlnm.Print_Area");
    cr_assert_not_null(pa, "Cables has no print area");
    pa = strstr(pa, "!$A$1:$");
    cr_assert_not_null(pa);
    int last = pa[7] - 'A';         /* a one-letter last column */
    cr_assert(pa[8] == '$', "print area %.20s", pa);
    char *styles = xl_member(path, "xl/styles.xml");
    xml_attr(styles, "sz", "val", v, sizeof v);
    double font = strtod(v, NULL);
    cr_expect_float_eq(font, 11.0, 1e-9);
    char *xml = sheet_named(path, "Cables");
    double px = 0;
    for (const char *c = xml; (c = strstr(c, "<col ")) != NULL; c++) {
        int lo = atoi(strstr(c, "min=\"") + 5) - 1, hi = atoi(strstr(c, "max=\"") + 5) - 1;
        double w = strtod(strstr(c, "width=\"") + 7, NULL);
        for (int k = lo; k <= hi && k <= last; k++)
            px += floor(w * 7 + 0.5);
    }
    xml_attr(xml, "pageMargins", "left", v, sizeof v);
    double margins = strtod(v, NULL);
    xml_attr(xml, "pageMargins", "right", v, sizeof v);
    margins += strtod(v, NULL);
    double scale = fmin(1.0, (page_pt - margins * 72) / (px * 0.75));
    free(xml);
    free(styles);
    free(wb);
    return font * scale;
}

Test(write_xlsx, printed_cables_are_8pt_with_sign_off_columns)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    fp_error err = { 0 };
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    double a4 = printed_cables_pt(dir, 842);
    cr_expect_geq(a4, 8.0, "A4: %.2f pt", a4);
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_XLSX;
    o.paper = FP_PAPER_LETTER;
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    double letter = printed_cables_pt(dir, 792);
    cr_expect_geq(letter, 8.0, "Letter: %.2f pt", letter);
    /* The sign-off boxes are printed: the print area ends at their last column, U (21st:
     * cables.csv's 16 columns through Cable part, Gb/s among them, Stock m, then 4 boxes). */
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "Cables");
    static xl_row row;
    const char *pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    static const char *const sign[] = { "Installed", "Tested", "Initials", "Date" };
    for (int k = 0; k < 4; k++)
        cr_expect_str_eq(row.v[17 + k], sign[k]);
    cr_expect_str_eq(row.v[14], "Gb/s");
    free(xml);
    xml = sheet_named(path, "Pull list");
    pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    for (int k = 0; k < 4; k++)
        cr_expect_str_eq(row.v[9 + k], sign[k]);
    free(xml);
    char *wb = xl_member(path, "xl/workbook.xml");
    cr_expect(strstr(wb, "Cables!$A$1:$U$") != NULL, "%s", wb);
    free(wb);
    fp_plan_free(p);
}

/* The XML width of the Cables sheet's 1-based column col. */
static double cables_col_width(const char *xml, int col)
{
    for (const char *c = xml; (c = strstr(c, "<col ")) != NULL; c++) {
        int lo = atoi(strstr(c, "min=\"") + 5), hi = atoi(strstr(c, "max=\"") + 5);
        if (lo <= col && col <= hi)
            return strtod(strstr(c, "width=\"") + 7, NULL);
    }
    return 0;
}

/* The port columns fit a two-lane port's name: a 64-cage switch's cage P splits into lanes
 * 1/P/1 and 1/P/2, and a cable over both names "1/P/1+1/P/2" (issue 14), 13 characters for a
 * two-digit P ("1/10/1+1/10/2"). A port is column G (7), Z port column M (13). */
Test(write_xlsx, cable_port_columns_fit_two_lane_port_names)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "Cables");
    static xl_row row;
    const char *pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[6], "A port");
    cr_expect_str_eq(row.v[12], "Z port");
    cr_expect_geq(cables_col_width(xml, 7), 13.0);
    cr_expect_geq(cables_col_width(xml, 13), 13.0);
    free(xml);
    fp_plan_free(p);
}

/* 1-based index of the cable with this id, 0 when none. */
static size_t cable_number(const fp_plan *p, const char *id)
{
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        fp_plan_cable(p, i, &c, NULL);
        if (strcmp(c.id, id) == 0)
            return i + 1;
    }
    return 0;
}

/* The Pull list names every cable of a bundle: expanding each row's "Cables" (a range
 * "C-first-C-last (n)" is every cable from first to last in cable order, n of them) gives exactly
 * Count cables, each in rack From and rack To, and every cable of the plan exactly once. Longest
 * route m is the longest of them in centimetres, as cables.csv writes it (it held float noise:
 * "4.960000038146973"). */
Test(write_xlsx, pull_list_names_every_cable_once)
{
    char dir[64], path[128];
    fp_plan *p = written_768(dir, path);
    char *xml = sheet_named(path, "Pull list");
    size_t n = fp_plan_cable_count(p);
    int *seen = calloc(n + 1, sizeof *seen);
    static xl_row row;
    const char *pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[8], "Cables");
    long bundles = 0;
    while (xl_next_row(&pos, &row)) {
        long count = 0;
        double longest = 0;
        char ids[XL_CELL];
        snprintf(ids, sizeof ids, "%s", row.v[8]);
        for (char *tok = strtok(ids, ","); tok; tok = strtok(NULL, ",")) {
            while (*tok == ' ')
                tok++;
            char first[16], last[16];
            long k = 1;
            if (sscanf(tok, "%15[^-]-%15s (%ld)", first, last, &k) != 3) {
                snprintf(first, sizeof first, "%s", tok);
                snprintf(last, sizeof last, "%s", tok);
                k = 1;
            }
            size_t a = cable_number(p, first), z = cable_number(p, last);
            cr_assert(a > 0 && z >= a, "%s", tok);
            cr_expect_eq((long)(z - a + 1), k, "%s: range of %zu cables says %ld", tok, z - a + 1, k);
            for (size_t c = a; c <= z; c++) {
                fp_cable_info ci;
                fp_plan_cable(p, c - 1, &ci, NULL);
                char ra[24], rz[24];
                snprintf(ra, sizeof ra, "H%d-R%02d-K%02d", ci.a.loc.hall, ci.a.loc.row, ci.a.loc.rack);
                snprintf(rz, sizeof rz, "H%d-R%02d-K%02d", ci.z[0].loc.hall, ci.z[0].loc.row,
                         ci.z[0].loc.rack);
                cr_expect((strcmp(ra, row.v[0]) == 0 && strcmp(rz, row.v[1]) == 0) ||
                          (strcmp(ra, row.v[1]) == 0 && strcmp(rz, row.v[0]) == 0),
                          "%s: %s-%s in bundle %s-%s", ci.id, ra, rz, row.v[0], row.v[1]);
                seen[c]++;
                count++;
                longest = fmax(longest, ci.route_m);
            }
        }
        cr_expect_eq(count, strtol(row.v[5], NULL, 10), "row %ld: count %s, named %ld", row.r,
                     row.v[5], count);
        const char *dot = strchr(row.v[7], '.');
        cr_expect(dot == NULL || strlen(dot + 1) <= 2, "row %ld: longest route %s", row.r,
                  row.v[7]);
        cr_expect_float_eq(strtod(row.v[7], NULL), longest, 0.005, "row %ld: %s, not %.2f", row.r,
                           row.v[7], longest);
        bundles++;
    }
    cr_expect_gt(bundles, 0);
    for (size_t c = 1; c <= n; c++)
        cr_expect_eq(seen[c], 1, "cable %zu named %d times", c, seen[c]);
    free(seen);
    free(xml);
    fp_plan_free(p);
}

/* A lower bound on the lines text takes wrapped in a column `width` digits wide: no line holds
 * more than `width` digits' worth, a letter or digit is at least a digit wide (Calibri's digits
 * are the unit of column widths, its capitals are wider) and anything else at least 0.4 of one
 * (Calibri's space, the narrowest character used here, is 0.226 em against 0.507 em a digit). */
static long wrapped_lines_at_least(const char *text, double width)
{
    double w = 0;
    for (const char *c = text; *c; c++)
        w += isalnum((unsigned char)*c) ? 1.0 : 0.4;
    return (long)ceil(w / width);
}

/* The printed Pull list reads row by row (issue 27): every cell of a row, the sign-off boxes
 * too, is top-aligned, so on a tall row the racks, part and counts stand beside the first line
 * of their own bundle's ids instead of at the bottom, next to the row below; and each row is
 * as tall as its ids wrapped in the Cables column (44 wide), 15 points a line, so no id is cut
 * off the page. The 768-GPU plan has bundles of leaf-spine cables whose ids take more than one
 * line (a leaf rack to a spine rack: 4 leaves x 32 uplinks spread over the spine racks). */
Test(write_xlsx, pull_list_rows_are_top_aligned_and_tall_enough)
{
    char dir[64], path[128], va[16];
    fp_plan *p = written_768(dir, path);
    char *xml = sheet_named(path, "Pull list");
    char *styles = xl_member(path, "xl/styles.xml");
    static xl_row row;
    const char *pos = xml;
    long rows = 0, tall = 0;
    while (xl_next_row(&pos, &row)) {
        for (int c = 0; c < 13; c++) {
            const char *align = xl_style_valign(styles, row.style[c], va, sizeof va);
            cr_expect_str_eq(align, "top", "Pull list row %ld column %c: aligned %s", row.r,
                             'A' + c, align);
        }
        if (row.r == 1)
            continue;
        long lines = wrapped_lines_at_least(row.v[8], 44);
        double ht = row.ht > 0 ? row.ht : 15;
        cr_expect_geq(ht, 15.0 * (double)lines, "row %ld: %.0f pt for %ld lines of %s", row.r, ht,
                      lines, row.v[8]);
        tall += lines > 1;
        rows++;
    }
    cr_expect_gt(rows, 0);
    cr_expect_gt(tall, 0, "no bundle's ids take two lines: the heights are not tested");
    free(styles);
    free(xml);
    fp_plan_free(p);
}

/* A number on the cable sheets prints with its thousands grouped, as the summary prints them
 * (issue 27): a bundle's "Total m" of 1,280.0 read as 1280.0 is one misread digit from 128.0.
 * Every number cell of the Pull list, Cables and Segments sheets has a format that groups
 * thousands. The 768-GPU plan's Pull list has a bundle over 1,000 m (a leaf rack's uplinks to
 * a spine rack, tens of cables of tens of metres), so the grouping shows in at least one cell. */
static int is_number(const char *v)
{
    char *end;
    if (v[0] == '\0')
        return 0;
    strtod(v, &end);
    return *end == '\0';
}

Test(write_xlsx, numbers_on_the_cable_sheets_group_thousands)
{
    char dir[64], path[128], code[64];
    fp_plan *p = written_768(dir, path);
    char *styles = xl_member(path, "xl/styles.xml");
    static const char *const sheets[] = { "Pull list", "Cables", "Segments" };
    static xl_row row;
    double largest_total = 0;
    for (size_t k = 0; k < sizeof sheets / sizeof sheets[0]; k++) {
        if (sheet_index(path, sheets[k]) == 0)
            continue;
        char *xml = sheet_named(path, sheets[k]);
        const char *pos = xml;
        long numbers = 0;
        while (xl_next_row(&pos, &row))
            for (int c = 0; c < XL_MAX_COLS; c++) {
                if (!row.present[c] || !is_number(row.v[c]))
                    continue;
                const char *f = xl_style_numfmt(styles, row.style[c], code, sizeof code);
                cr_expect(strstr(f, "#,##0") != NULL, "%s row %ld column %c: %s in format %s",
                          sheets[k], row.r, 'A' + c, row.v[c], f);
                if (k == 0 && c == 6)
                    largest_total = fmax(largest_total, strtod(row.v[c], NULL));
                numbers++;
            }
        cr_expect_gt(numbers, 0, "%s: no number cells", sheets[k]);
        free(xml);
    }
    cr_expect_geq(largest_total, 1000.0, "the Pull list's largest Total m is %.1f", largest_total);
    free(styles);
    fp_plan_free(p);
}

/* The cages a run list names ("1-16, 19, 21-32"): their count, -1 when it is not such a list. */
static long cages_listed(const char *runs)
{
    long n = 0;
    for (const char *p = runs; *p;) {
        char *end;
        long a = strtol(p, &end, 10), z = a;
        if (end == p)
            return -1;
        if (*end == '-')
            z = strtol(end + 1, &end, 10);
        if (z < a)
            return -1;
        n += z - a + 1;
        p = end;
        if (*p == ',')
            p += 1 + (p[1] == ' ');
        else if (*p != '\0')
            return -1;
    }
    return n;
}

/* Issue 27 point 9: the printed Cables sheet leaves out the transceivers (two more columns would
 * print it below 8 pt), so the Optics sheet lists every module to seat: a row per device and
 * module part, in floor order (the racks as fp_plan_rack lists them, a rack's devices from the
 * top U down), Count and the device's cages as runs. 768 GPUs on multimode fibre alone, by hand:
 * 96 servers with a 400G module in each of their 8 NIC cages (768 modules, "1-8"), 24 leaves
 * with all 64 ports used (32 twin-port cages, "1-32") and 16 spines with 768 / 16 = 48 ports
 * down (24 cages, "1-24"): 768 + 384 = 1,152 twin-port modules, 136 rows. Every cable end with
 * a transceiver has its device's row, at the end's rack and U, with that part; each part's
 * total is the BOM's (spares apart). */
Test(write_xlsx, optics_sheet_lists_every_module)
{
    fp_plan *p = plan_from(
        "{\"name\":\"t768m\",\"cluster\":{\"gpus\":768},\"media\":{\"default\":\"MMF\"}}");
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "Optics");
    static xl_row row;
    static struct {
        char key[112], rack[24];
        long u;
    } got[200];
    const char *pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    static const char *const head[] = { "Rack",  "U",      "Device",   "Module", "Count",
                                        "Cages", "Seated", "Initials", "Date" };
    for (int c = 0; c < 9; c++)
        cr_expect_str_eq(row.v[c], head[c]);
    long rows = 0, servers = 0, leaves = 0, spines = 0, nic400 = 0, twin = 0;
    long prev_rack = -1, prev_u = 0;
    size_t racks = fp_plan_rack_count(p);
    while (xl_next_row(&pos, &row)) {
        cr_assert_lt(rows, 200, "more rows than devices");
        long count = strtol(row.v[4], NULL, 10), u = strtol(row.v[1], NULL, 10);
        cr_expect_eq(cages_listed(row.v[5]), count, "row %ld: %s cages, count %ld", row.r, row.v[5],
                     count);
        long rk = -1;
        for (size_t k = 0; k < racks && rk < 0; k++) {
            fp_rack_info ri;
            cr_assert_eq(fp_plan_rack(p, k, &ri, NULL), FP_OK);
            if (strcmp(ri.name, row.v[0]) == 0)
                rk = (long)k;
        }
        cr_expect_geq(rk, 0, "row %ld: no rack %s", row.r, row.v[0]);
        cr_expect(rk > prev_rack || (rk == prev_rack && u < prev_u),
                  "row %ld (%s U%ld) after %ld U%ld", row.r, row.v[0], u, prev_rack, prev_u);
        prev_rack = rk;
        prev_u = u;
        const char *dev = row.v[2], *part = row.v[3];
        const char *want_part =
            strstr(dev, "-node-") ? "nvidia-mma4z00-ns400" : "nvidia-mma4z00-ns";
        const char *want_cages = strstr(dev, "-node-") ? "1-8"
                                 : strstr(dev, "leaf") ? "1-32"
                                                       : "1-24";
        cr_expect_str_eq(part, want_part, "%s", dev);
        cr_expect_str_eq(row.v[5], want_cages, "%s", dev);
        servers += strstr(dev, "-node-") != NULL;
        leaves += strstr(dev, "leaf") != NULL;
        spines += strstr(dev, "spine") != NULL;
        *(strcmp(part, "nvidia-mma4z00-ns400") == 0 ? &nic400 : &twin) += count;
        snprintf(got[rows].key, sizeof got[rows].key, "%s|%s", dev, part);
        snprintf(got[rows].rack, sizeof got[rows].rack, "%s", row.v[0]);
        got[rows++].u = u;
    }
    cr_expect_eq(rows, 136);
    cr_expect_eq(servers, 96);
    cr_expect_eq(leaves, 24);
    cr_expect_eq(spines, 16);
    cr_expect_eq(nic400, 768);
    cr_expect_eq(twin, 1152);
    /* every cable end with a module: its device's row, where the end stands */
    fp_cable_info c;
    long ends = 0;
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        for (int e = 0; e <= c.n_z; e++) {
            const fp_cable_end *end = e == 0 ? &c.a : &c.z[e - 1];
            if (end->transceiver[0] == '\0')
                continue;
            char key[112], rack[24];
            snprintf(key, sizeof key, "%s|%s", end->device_name, end->transceiver);
            snprintf(rack, sizeof rack, "H%d-R%02d-K%02d", end->loc.hall, end->loc.row,
                     end->loc.rack);
            long k = 0;
            while (k < rows && strcmp(got[k].key, key) != 0)
                k++;
            cr_expect_lt(k, rows, "%s %s: no Optics row for %s", c.id, end->port, key);
            if (k < rows)
                cr_expect(strcmp(got[k].rack, rack) == 0 && got[k].u == end->loc.u,
                          "%s: %s U%ld, not %s U%d", key, got[k].rack, got[k].u, rack, end->loc.u);
            ends++;
        }
    }
    cr_expect_eq(ends, 2 * LINKS, "every end of every link has a module");
    /* each part's total is the BOM's */
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        if (l.kind == FP_BOM_TRANSCEIVER && !l.spare)
            cr_expect_eq(l.quantity, strcmp(l.part, "nvidia-mma4z00-ns400") == 0 ? nic400 : twin,
                         "%s", l.part);
    }
    free(xml);
    fp_plan_free(p);
}

/* Rack elevation: a column per rack, a row per U from the top. Each device's name appears once,
 * in the row of its top unit (U + height - 1, height 1 U for these 64-port switches and the
 * layout's server_ru for servers), and the cells its units fill carry its colour. */
Test(write_xlsx, rack_elevation_shows_every_device_at_its_units)
{
    fp_plan *p = plan_from(SPEC_768);
    const fp_plan *pl = p;
    char dir[64], path[128], name[48];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_named(path, "Rack elevation");
    int units = fp__plan_rspec(pl)->phys.rack_units, server_ru = fp__plan_rspec(pl)->phys.server_ru;
    size_t nr = fp_plan_rack_count(p);
    cr_assert_lt(nr, XL_MAX_COLS, "768 GPUs fit in a few racks");
    /* grid[u][col]: the name read back */
    static char grid[64][XL_MAX_COLS][48];
    static xl_row row;
    const char *pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    for (size_t i = 0; i < nr; i++) {
        fp_rack_info r;
        fp_plan_rack(p, i, &r, NULL);
        cr_expect_str_eq(row.v[i + 1], r.name);
    }
    cr_assert(xl_next_row(&pos, &row));     /* roles */
    for (int u = units; u >= 1; u--) {
        cr_assert(xl_next_row(&pos, &row));
        cr_expect_eq(strtol(row.v[0], NULL, 10), u);
        for (size_t i = 0; i < nr; i++)
            snprintf(grid[u][i], 48, "%s", row.v[i + 1]);
    }
    size_t ndev = fp_plan_device_count(p), named = 0;
    for (size_t d = 0; d < ndev; d++) {
        fp_location loc;
        cr_assert_eq(fp_plan_device_location(p, d, &loc, NULL), FP_OK);
        fp__device_name(name, sizeof name, fp__plan_fabric(pl), fp__plan_rspec(pl), (int64_t)d);
        int h = fp__plan_fabric(pl)->dev[d].tier == 0 ? server_ru : 1;
        size_t col = 0;
        for (size_t i = 0; i < nr; i++) {
            fp_rack_info r;
            fp_plan_rack(p, i, &r, NULL);
            if (r.hall == loc.hall && r.row == loc.row && r.rack == loc.rack)
                col = i;
        }
        cr_expect_str_eq(grid[loc.u + h - 1][col], name, "%s at %s", name, loc.text);
        named++;
    }
    long cells = 0;
    for (int u = 1; u <= units; u++)
        for (size_t i = 0; i < nr; i++)
            cells += grid[u][i][0] != '\0';
    cr_expect_eq(cells, (long)named, "every name once: %ld cells named, %zu devices", cells, named);
    free(xml);
    fp_plan_free(p);
}

/* ---- the workbook as a cost model ---- */

/* Row (1-based) of the Summary whose column A reads label. */
static long summary_row(const char *xml, const char *label)
{
    static xl_row row;
    const char *pos = xml;
    while (xl_next_row(&pos, &row))
        if (strcmp(row.v[0], label) == 0)
            return row.r;
    cr_assert_fail("Summary has no \"%s\" row", label);
    return 0;
}

/* Change one unit price as a buyer would and recompute the workbook's formulas: the line's
 * spares line costs quantity_spare x the new price, the BOM total and the Summary's cost move by
 * delta x (quantity + quantity_spare), and the cost per GPU by that over the GPU count; changing
 * the GPU count cell changes every per-GPU figure. The expected deltas are computed here from
 * the quantities, not read from the workbook's cached values. */
Test(write_xlsx, unit_price_flows_to_spares_totals_and_per_gpu)
{
    char dir[64], path[128];
    fp_plan *p = written_768(dir, path);
    char *bom = sheet_named(path, "BOM"), *sum = sheet_named(path, "Summary");
    xe_book b = { 0 };
    xe_load(&b, "BOM", bom);
    xe_load(&b, "Summary", sum);
    /* the first line followed by its spares line (transceivers: 2 % spares by default) */
    static xl_row row, next;
    const char *pos = bom;
    long line = 0, spare = 0;
    double q = 0, qs = 0;
    cr_assert(xl_next_row(&pos, &row));
    cr_assert(xl_next_row(&pos, &row));
    while (xl_next_row(&pos, &next)) {
        if (strcmp(next.v[4], "yes") == 0 && strcmp(row.v[4], "") == 0 && row.f[6][0] == '\0') {
            line = row.r;
            spare = next.r;
            q = strtod(row.v[5], NULL);
            qs = strtod(next.v[5], NULL);
            break;
        }
        row = next;
    }
    cr_assert(line > 0, "no line with a spares line");
    cr_assert_gt(qs, 0);
    long total = 0, cost = summary_row(sum, "Cost USD"), per_gpu = summary_row(sum, "Cost per GPU USD");
    long gpus = summary_row(sum, "GPUs");
    double cached_total = 0;
    pos = bom;
    while (xl_next_row(&pos, &row))
        if (strcmp(row.v[0], "Total") == 0) {
            total = row.r;
            cached_total = strtod(row.v[7], NULL);
        }
    cr_assert_gt(total, 0);
    double price = xe_value(&b, "BOM", line, 6);
    double before_spare = xe_value(&b, "BOM", spare, 7), before_total = xe_value(&b, "BOM", total, 7);
    double before_cost = xe_value(&b, "Summary", cost, 1), before_pg = xe_value(&b, "Summary", per_gpu, 1);
    /* the formulas reproduce the cached values and the plan's totals before any change */
    cr_expect(close_to(before_total, cached_total), "%f vs %f", before_total, cached_total);
    fp_totals t;
    fp_plan_totals(p, &t);
    cr_expect(close_to(before_cost, t.cost), "%f vs %f", before_cost, t.cost);
    cr_expect(close_to(before_pg, t.cost / 768), "%f vs %f", before_pg, t.cost / 768);
    double delta = 100;
    xe_set(&b, "BOM", line, 6, price + delta);
    cr_expect(close_to(xe_value(&b, "BOM", spare, 6), price + delta));
    cr_expect(close_to(xe_value(&b, "BOM", spare, 7), before_spare + qs * delta),
              "spares line: %f, expected %f", xe_value(&b, "BOM", spare, 7), before_spare + qs * delta);
    cr_expect(close_to(xe_value(&b, "BOM", total, 7), before_total + (q + qs) * delta));
    cr_expect(close_to(xe_value(&b, "Summary", cost, 1), before_cost + (q + qs) * delta));
    cr_expect(close_to(xe_value(&b, "Summary", per_gpu, 1), (before_cost + (q + qs) * delta) / 768));
    /* twice the GPUs, half the cost per GPU; the network power per GPU follows the same cell */
    long pw = summary_row(sum, "Network power per GPU W"), net = summary_row(sum, "Network power W");
    xe_set(&b, "Summary", gpus, 1, 1536);
    cr_expect(close_to(xe_value(&b, "Summary", per_gpu, 1), (before_cost + (q + qs) * delta) / 1536));
    cr_expect(close_to(xe_value(&b, "Summary", pw, 1), xe_value(&b, "Summary", net, 1) / 1536));
    free(b.cell);
    free(bom);
    free(sum);
    fp_plan_free(p);
}

/* A cut cable is priced by the metre: its unit cost is base + per-metre price x stock length
 * (catalog: price_usd + price_per_m_usd x length), so raising the per-metre price by 1 raises
 * each such cable by its length and the line by quantity x length. Power is the network's, the
 * servers' shown apart: servers x server_power_w, both summed into the total. */
Test(write_xlsx, per_metre_prices_and_power_apart)
{
    char dir[64], path[128];
    fp_plan *p = written_768(dir, path);
    const fp_plan *pl = p;
    char *bom = sheet_named(path, "BOM"), *sum = sheet_named(path, "Summary");
    xe_book b = { 0 };
    xe_load(&b, "BOM", bom);
    xe_load(&b, "Summary", sum);
    static xl_row row;
    const char *pos = bom;
    int per_m_lines = 0;
    cr_assert(xl_next_row(&pos, &row));
    while (xl_next_row(&pos, &row)) {
        if (row.f[6][0] == '\0' || strcmp(row.v[4], "yes") == 0)
            continue;
        /* G = L + M x D */
        double len = strtod(row.v[3], NULL), q = strtod(row.v[5], NULL);
        double unit = xe_value(&b, "BOM", row.r, 6), cost = xe_value(&b, "BOM", row.r, 7);
        cr_expect(close_to(unit, strtod(row.v[11], NULL) + strtod(row.v[12], NULL) * len));
        cr_expect(close_to(unit, strtod(row.v[6], NULL)), "formula %f, cached %s", unit, row.v[6]);
        xe_set(&b, "BOM", row.r, 12, strtod(row.v[12], NULL) + 1);
        cr_expect(close_to(xe_value(&b, "BOM", row.r, 7), cost + q * len));
        xe_set(&b, "BOM", row.r, 12, strtod(row.v[12], NULL));
        per_m_lines++;
    }
    cr_expect_gt(per_m_lines, 0, "no cable priced by the metre");
    fp_summary su;
    fp_totals t;
    fp_plan_summary(p, &su);
    fp_plan_totals(p, &t);
    double srv = xe_value(&b, "Summary", summary_row(sum, "Server power W"), 1);
    double net = xe_value(&b, "Summary", summary_row(sum, "Network power W"), 1);
    double all = xe_value(&b, "Summary", summary_row(sum, "Total power W"), 1);
    cr_expect(close_to(srv, (double)(su.servers + su.spare_servers) *
                       fp__plan_rspec(pl)->phys.server_power_w));
    cr_expect(close_to(net, t.power_w));
    cr_expect(close_to(all, net + srv));
    free(b.cell);
    free(bom);
    free(sum);
    fp_plan_free(p);
}

/* Structured cabling in the workbook, 256 GPUs all on OM4 (the racks of
 * tests/phys/test_cabling.c's structured_panels_stand_in_the_racks): every link is one cable
 * between two racks, 256 NIC-leaf + 256 leaf-spine = 512 cables, each cord + trunk + cord: the
 * Segments sheet has 512 rows whose three segments add up to the cable's route. The elevation
 * shows the panels in their units: 8 compute racks x 1 + 11 in the leaf rack + 6 in the spine
 * rack = 25 "patch panel" cells. The Trays sheet has a row per tray (2 rows: R01, R02). With a
 * 50 x 20 mm tray in one tier (500 mm^2 at 50 %) row 1's trunks (512 x 1/12 of a 9.0 mm
 * trunk = 2,714.3 mm^2, plus nothing else) are over-full: OVER. */
Test(write_xlsx, structured_segments_panels_and_trays)
{
    fp_plan *p = plan_from("{\"name\":\"s256\",\"cluster\":{\"gpus\":256},\"media\":{\"default\":\"MMF\"},"
                           "\"layout\":{\"cabling\":\"structured\",\"tray_width_mm\":50,"
                           "\"tray_depth_mm\":20,\"tray_tiers\":1}}");
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    write_all(p, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    cr_expect_eq(sheet_index(path, "Segments"), 4, "Segments follows Cables");
    char *xml = sheet_named(path, "Segments");
    static xl_row row;
    const char *pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[4], "Cord A m");
    cr_expect_str_eq(row.v[7], "Trunk m");
    cr_expect_str_eq(row.v[12], "Cord Z m");
    long rows = 0;
    while (xl_next_row(&pos, &row)) {
        double sum = atof(row.v[4]) + atof(row.v[7]) + atof(row.v[12]);
        cr_expect(fabs(sum - atof(row.v[15])) < 0.006, "%s: %s + %s + %s != %s", row.v[0], row.v[4],
                  row.v[7], row.v[12], row.v[15]);
        cr_expect_str_eq(row.v[6], "trunk-om4-mpo-144f");
        rows++;
    }
    cr_expect_eq(rows, 512);
    free(xml);
    xml = sheet_named(path, "Rack elevation");
    long panels = 0;
    for (const char *q = xml; (q = strstr(q, ">patch panel<")) != NULL; q++)
        panels++;
    cr_expect_eq(panels, 25);
    cr_expect(strstr(xml, ">patch panel (1 U)<") != NULL, "legend");
    free(xml);
    xml = sheet_named(path, "Racks");
    cr_expect(strstr(xml, "U24-U34 11 patch panels") != NULL, "leaf rack contents");
    free(xml);
    /* Pull list: between racks the crew pulls trunks, 12 fibres per MPO link, 144 a trunk:
     * each compute rack to the leaf rack 32 x 12 = 384 fibres = 3 trunks; the leaf rack to the
     * spine rack 256 x 12 = 3,072 fibres = 22 trunks (21.3): 8 x 3 + 22 = 46, the BOM's count. */
    xml = sheet_named(path, "Pull list");
    pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    long trunks = 0, bundles = 0;
    while (xl_next_row(&pos, &row)) {
        cr_expect_str_eq(row.v[3], "trunk-om4-mpo-144f");
        trunks += atol(row.v[5]);
        bundles++;
    }
    cr_expect_eq(bundles, 9);
    cr_expect_eq(trunks, 46);
    int64_t bom_trunks = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        fp_plan_bom_line(p, i, &l, NULL);
        if (!l.spare && strcmp(l.part, "trunk-om4-mpo-144f") == 0)
            bom_trunks += l.quantity;
    }
    cr_expect_eq(bom_trunks, 46);
    free(xml);
    xml = sheet_named(path, "Trays");
    pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[0], "Row");
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[0], "H1-R01");
    cr_expect_eq(atol(row.v[1]), 512);
    cr_expect_eq(atol(row.v[3]), 1);
    cr_expect_str_eq(row.v[6], "OVER");
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[0], "H1-R02");
    cr_expect(!xl_next_row(&pos, &row), "one row per tray");
    free(xml);
    fp_plan_free(p);
}

/* Which thread gave each data sheet its cells (fp__xlsx_sheet_hook), in the order they came. */
typedef struct sheet_log {
    pthread_mutex_t lock;
    char name[512][32];
    int ports_thread[512];
    int n;
} sheet_log;

static void log_sheet(const char *sheet, int ports_thread, void *arg)
{
    sheet_log *l = arg;
    pthread_mutex_lock(&l->lock);
    if (l->n < 512) {
        snprintf(l->name[l->n], sizeof l->name[l->n], "%s", sheet);
        l->ports_thread[l->n] = ports_thread;
    }
    l->n++;
    pthread_mutex_unlock(&l->lock);
}

/* Where each sheet of workbook xlsx was written, by log l: every sheet but the Summary and the
 * BOM (written by the workbook's thread before and after the others) exactly once; with a Ports
 * thread (threaded) Cables and Segments with their parts on the workbook's thread and every
 * sheet after them (Ports, Racks, Rack elevation, Pull list, Trays, with their parts) on the
 * Ports thread, without one all on the workbook's thread. */
static void expect_sheet_threads(const char *xlsx, const sheet_log *l, int threaded,
                                 const char *what)
{
    char names[512][32];
    int n = xl_sheet_names(xlsx, names, 512), logged = 0;
    cr_assert_lt(l->n, 512, "%s: %d sheets logged", what, l->n);
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], "Summary") == 0 || strcmp(names[i], "BOM") == 0)
            continue;
        int seen = 0, on = -1;
        for (int k = 0; k < l->n; k++)
            if (strcmp(l->name[k], names[i]) == 0) {
                seen++;
                on = l->ports_thread[k];
            }
        int before_ports = strncmp(names[i], "Cables", 6) == 0 ||
                           strncmp(names[i], "Segments", 8) == 0;
        cr_expect_eq(seen, 1, "%s: sheet \"%s\" written %d times", what, names[i], seen);
        cr_expect_eq(on, threaded && !before_ports, "%s: sheet \"%s\" written on the %s thread",
                     what, names[i], on ? "Ports" : "workbook's");
        logged++;
    }
    cr_expect_eq(l->n, logged, "%s: %d sheets logged, %d in the workbook", what, l->n, logged);
}

/* One workbook of p with `jobs` threads and max_rows data rows per sheet at path; checks which
 * thread wrote each sheet. */
static void write_threads(fp_plan *p, const char *path, int jobs, int64_t max_rows,
                          const char *what)
{
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    sheet_log *log = calloc(1, sizeof *log);
    cr_assert_not_null(log);
    pthread_mutex_init(&log->lock, NULL);
    o.jobs = jobs;
    long threads = fp__xlsx_ports_threads_started();
    fp__xlsx_sheet_hook(log_sheet, log);
    fp_status rc = fp__write_xlsx_rows(p, path, &o, max_rows, &err);
    fp__xlsx_sheet_hook(NULL, NULL);
    cr_assert_eq(rc, FP_OK, "%s: %s", what, err.msg);
    cr_expect_eq(fp__xlsx_ports_threads_started(), threads + (jobs > 1), "%s: %d jobs, %ld Ports threads",
                 what, jobs, fp__xlsx_ports_threads_started() - threads);
    expect_sheet_threads(path, log, jobs > 1, what);
    pthread_mutex_destroy(&log->lock);
    free(log);
}

/* With two threads the sheets after Segments (Ports, Racks, Rack elevation, Pull list, Trays)
 * are written on a thread of their own while Cables and Segments are written (write_xlsx.c,
 * xlsx_two_threads.c); the workbook must be the one a single thread writes, byte for byte:
 * the same sheets in the same order, the same format numbers (styles.xml and every cell's s=).
 * max_rows data rows per sheet make sheets continue on further sheets; each sheet named in
 * `parts` (NULL-terminated) must exist, so the plan covers what it is meant to. */
static void same_bytes_one_or_two_threads(fp_plan *p, const char *what, int64_t max_rows,
                                          const char *const *parts)
{
    char dir[64], one[128], two[128], cmd[300];
    tmpdir(dir, sizeof dir);
    snprintf(one, sizeof one, "%s/one.xlsx", dir);
    snprintf(two, sizeof two, "%s/two.xlsx", dir);
    write_threads(p, one, 1, max_rows, what);
    write_threads(p, two, 2, max_rows, what);
    snprintf(cmd, sizeof cmd, "unzip -p %s xl/styles.xml | cmp -s - <(unzip -p %s xl/styles.xml)",
             one, two);
    char sh[400];
    snprintf(sh, sizeof sh, "bash -c '%s'", cmd);
    cr_expect_eq(system(sh), 0, "%s: styles.xml differs with a Ports thread", what);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", one, two);
    cr_expect_eq(system(cmd), 0, "%s: plan.xlsx differs with a Ports thread", what);
    for (int k = 0; parts[k] != NULL; k++)
        cr_expect_gt(sheet_index(two, parts[k]), 0, "%s: no sheet \"%s\"", what, parts[k]);
}

/* The plans: one medium with every port used (768 GPUs), spare ports (640 GPUs: 20 of 24
 * leaves' server ports), structured cabling (the Segments sheet, patch panels on the elevation,
 * an over-full tray), a preset with storage, in-band and out-of-band networks (copper and
 * fibre in one book, management racks on the Racks sheet and the elevation), and a small
 * structured plan with a rack per row and a power limit that four of its six racks exceed, at
 * 4 rows per sheet so that Racks, Pull list and Trays continue too (its first rack is over the
 * limit, its third within: the Racks sheet's warning and watts formats are first used on
 * different rows, both on the Ports thread). */
Test(write_xlsx, ports_thread_writes_the_same_bytes, .timeout = TEST_TIMEOUT(60))
{
    static const char *const cables[] = { "Cables (2)", "Ports (2)", "Pull list", "Trays", NULL };
    static const char *const segs[] = { "Cables (2)", "Segments (2)", "Ports", NULL };
    static const char *const nets[] = { "Cables (2)", "Ports (2)", "Rack elevation", NULL };
    static const char *const tails[] = { "Cables (2)", "Segments (2)", "Ports (2)", "Racks (2)",
                                         "Pull list (2)", "Trays (2)", NULL };
    fp_plan *p = plan_from(SPEC_768);
    same_bytes_one_or_two_threads(p, "768 GPUs", 300, cables);
    fp_plan_free(p);
    p = plan_from("{\"name\":\"t640\",\"cluster\":{\"gpus\":640}}");
    same_bytes_one_or_two_threads(p, "640 GPUs", 300, cables);
    fp_plan_free(p);
    p = plan_from("{\"name\":\"s256\",\"cluster\":{\"gpus\":256},\"media\":{\"default\":\"MMF\"},"
                  "\"layout\":{\"cabling\":\"structured\"}}");
    same_bytes_one_or_two_threads(p, "structured", 300, segs);
    fp_plan_free(p);
    p = plan_from_preset(SUPERPOD_V1);
    same_bytes_one_or_two_threads(p, "dgx-h100-4su-networks", 300, nets);
    fp_plan_free(p);
    p = plan_from("{\"name\":\"tiny\",\"cluster\":{\"gpus\":64},\"media\":{\"default\":\"MMF\"},"
                  "\"layout\":{\"cabling\":\"structured\",\"racks_per_row\":1,"
                  "\"servers_per_rack\":2,\"rack_power_limit_w\":15000}}");
    same_bytes_one_or_two_threads(p, "rack per row, 4 rows per sheet", 4, tails);
    fp_plan_free(p);
}

/* The edges of numbering the Cables formats ahead (xlsx_two_threads.c): a medium whose first
 * cable is the last row of a Cables part - a row libxlsxwriter writes out only when the next
 * part's rows come, or at workbook_close for the sheet's last row. One and two threads must
 * still give the same bytes, with the Ports thread used. 640 GPUs: (1) the second medium's
 * first cable ends part 1; (2) the last cable forced to single-mode fibre by an override, the
 * only SMF cable. */
Test(write_xlsx, medium_first_on_a_parts_last_row_keeps_the_bytes, .timeout = TEST_TIMEOUT(60))
{
    static const char *const two_parts[] = { "Cables (2)", NULL };
    static const char *const one_part[] = { "Cables", NULL };
    const char *spec = "{\"name\":\"t640\",\"cluster\":{\"gpus\":640}}";
    fp_plan *p = plan_from(spec);
    fp_cable_info c;
    fp_error err = { 0 };
    size_t n = fp_plan_cable_count(p), first = 0;
    cr_assert_eq(fp_plan_cable(p, 0, &c, &err), FP_OK, "%s", err.msg);
    fp_medium m0 = c.medium;
    for (size_t i = 1; i < n && first == 0; i++) {
        cr_assert_eq(fp_plan_cable(p, i, &c, &err), FP_OK, "%s", err.msg);
        if (c.medium != m0)
            first = i;
    }
    cr_assert_gt(first, 0, "the plan needs a second medium");
    same_bytes_one_or_two_threads(p, "second medium ends part 1", (int64_t)first + 1, two_parts);
    cr_assert_eq(fp_plan_cable(p, n - 1, &c, &err), FP_OK, "%s", err.msg);
    cr_assert_neq(c.medium, FP_MEDIUM_SMF);
    char json[300];
    snprintf(json, sizeof json,
             "{\"name\":\"t640\",\"cluster\":{\"gpus\":640},\"overrides\":"
             "[{\"cable\":\"%s\",\"part\":\"fibre-os2-mpo12-apc\"}]}", c.id);
    fp_plan_free(p);
    p = plan_from(json);
    cr_assert_eq(fp_plan_cable(p, n - 1, &c, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(c.medium, FP_MEDIUM_SMF, "the override makes the last cable single-mode");
    same_bytes_one_or_two_threads(p, "only SMF cable last", FP_XLSX_MAX_DATA_ROWS, one_part);
    fp_plan_free(p);
}

/* ---- the cluster's other networks (spec `networks`) ---- */

/* The SUPERPOD_V1 plan with its plan.xlsx written alone; path: the workbook's. */
static fp_plan *networks_workbook(char path[128])
{
    fp_plan *p = plan_from_preset(SUPERPOD_V1);
    char dir[64];
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_XLSX;
    tmpdir(dir, sizeof dir);
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    snprintf(path, 128, "%s/plan.xlsx", dir);
    return p;
}

/* SUPERPOD_V1: the BOM sheet lists the compute fabric's lines (with their category
 * subtotals) and "Subtotal compute fabric", then each network's lines and "Subtotal <network>
 * network", then "Whole cluster" = the sum of those subtotals. The expected figures are re-added
 * here line by line, quantity x unit price, from the plan's BOM lines (the compute fabric's
 * through fp_plan_bom_line, each network's from its BOM); the sheet's formulas are evaluated,
 * not their cached values read. Raising one storage line's unit price moves the storage
 * subtotal, the whole cluster and the Summary's storage cost by quantity x the change. */
Test(write_xlsx, bom_grouped_by_network_with_subtotals)
{
    char path[128];
    fp_plan *p = networks_workbook(path);
    char *bom = sheet_named(path, "BOM"), *sum = sheet_named(path, "Summary");
    xe_book b = { 0 };
    xe_load(&b, "BOM", bom);
    xe_load(&b, "Summary", sum);

    const int nets = fp__plan_net_count(p);
    cr_assert_eq(nets, 3);
    double want[4] = { 0 }, want_w[4] = { 0 }, cluster = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        want[0] += (double)l.quantity * l.unit_cost;
        want_w[0] += l.spare ? 0 : (double)l.quantity * l.unit_power_w;
    }
    for (int k = 0; k < nets; k++) {
        const fp_net_bom *nb = fp__plan_net_bom(p, k);
        for (int i = 0; i < nb->n; i++) {
            const fp_net_bom_line *l = &nb->line[i];
            want[k + 1] += (double)l->qty * l->unit_usd;
            if (!l->spare && strcmp(l->category, "endpoint") != 0)
                want_w[k + 1] += (double)l->qty * l->unit_w;
        }
        cr_assert_gt(want[k + 1], 0);
    }
    for (int k = 0; k <= nets; k++)
        cluster += want[k];

    /* Rows: every line names its network in the last column (N), in order compute, storage,
     * inband, oob; one subtotal per network, after its lines. */
    static const char *const order[] = { "compute", "storage", "inband", "oob" };
    static xl_row row;
    const char *pos = bom;
    long sub[4] = { 0 }, whole = 0, storage_line = 0;
    int at = 0;
    cr_assert(xl_next_row(&pos, &row));
    cr_expect_str_eq(row.v[13], "Network");
    while (xl_next_row(&pos, &row)) {
        if (strcmp(row.v[0], "Whole cluster") == 0) {
            whole = row.r;
            continue;
        }
        cr_assert_lt(at, 4, "row %ld after the last network's subtotal", row.r);
        if (strcmp(row.v[13], order[at]) != 0) {
            cr_assert_gt(sub[at], 0, "%s's lines before %s's subtotal", row.v[13], order[at]);
            at++;
        }
        cr_expect_str_eq(row.v[13], order[at], "row %ld", row.r);
        char label[64];
        snprintf(label, sizeof label, at ? "Subtotal %s network" : "Subtotal %s fabric", order[at]);
        if (strcmp(row.v[0], label) == 0)
            sub[at] = row.r;
        else if (at == 1 && storage_line == 0 && row.f[6][0] == '\0' && strtod(row.v[5], NULL) > 0 &&
                 strcmp(row.v[4], "yes") != 0)
            storage_line = row.r;
    }
    cr_assert_eq(at, 3);
    cr_assert_gt(whole, sub[3]);
    for (int k = 0; k <= nets; k++) {
        cr_assert_gt(sub[k], 0, "no subtotal for %s", order[k]);
        double got = xe_value(&b, "BOM", sub[k], 7);
        cr_expect(close_to(got, want[k]), "%s: subtotal %f, re-added %f", order[k], got, want[k]);
        got = xe_value(&b, "BOM", sub[k], 9);
        cr_expect(fabs(got - want_w[k]) < 1e-6 * want_w[k], "%s power %f, re-added %f", order[k],
                  got, want_w[k]);
    }
    cr_expect(close_to(xe_value(&b, "BOM", whole, 7), cluster), "whole cluster %f, expected %f",
              xe_value(&b, "BOM", whole, 7), cluster);
    /* The plan's own per-network totals agree (what a costing tool reads from the API). */
    for (int k = 0; k < nets; k++) {
        fp_network_info ni;
        cr_assert_eq(fp_plan_network(p, (size_t)k, &ni, NULL), FP_OK);
        cr_expect(close_to(ni.cost_usd, want[k + 1]), "%s: API %f", order[k + 1], ni.cost_usd);
    }

    /* A buyer edits a storage unit price: storage subtotal, whole cluster and the Summary's
     * storage cost (a formula on the BOM) move by quantity x delta; compute stays. */
    cr_assert_gt(storage_line, 0);
    long st_row = summary_row(sum, "storage");
    double q = xe_value(&b, "BOM", storage_line, 5), price = xe_value(&b, "BOM", storage_line, 6);
    double st_sum = xe_value(&b, "Summary", st_row, 8);
    cr_expect(close_to(st_sum, want[1]), "Summary storage cost %f", st_sum);
    xe_set(&b, "BOM", storage_line, 6, price + 100);
    cr_expect(close_to(xe_value(&b, "BOM", sub[1], 7), want[1] + q * 100));
    cr_expect(close_to(xe_value(&b, "BOM", whole, 7), cluster + q * 100));
    cr_expect(close_to(xe_value(&b, "BOM", sub[0], 7), want[0]));
    cr_expect(close_to(xe_value(&b, "Summary", st_row, 8), want[1] + q * 100));
    /* and its unit power: the storage power and the whole cluster's on the Summary move by
     * quantity x the change (the whole cluster's power was a number, not a formula) */
    long whole_row = summary_row(sum, "Whole cluster network");
    double cluster_w = want_w[0] + want_w[1] + want_w[2] + want_w[3];
    double unit_w = xe_value(&b, "BOM", storage_line, 8);
    cr_assert_gt(whole_row, 0);
    cr_expect(fabs(xe_value(&b, "Summary", whole_row, 9) - cluster_w) < 1e-6 * cluster_w,
              "whole cluster power %f, re-added %f", xe_value(&b, "Summary", whole_row, 9),
              cluster_w);
    xe_set(&b, "BOM", storage_line, 8, unit_w + 10);
    cr_expect(fabs(xe_value(&b, "Summary", st_row, 9) - (want_w[1] + q * 10)) < 1e-6);
    cr_expect(fabs(xe_value(&b, "Summary", whole_row, 9) - (cluster_w + q * 10)) < 1e-6,
              "whole cluster power %f after +10 W on %g units, expected %f",
              xe_value(&b, "Summary", whole_row, 9), q, cluster_w + q * 10);
    free(b.cell);
    free(bom);
    free(sum);
    fp_plan_free(p);
}

/* SUPERPOD_V1 on the Rack elevation: every network device that takes rack units is
 * drawn in its rack (the management racks get columns after the compute racks) with its name in
 * its top unit, in a fill of its own: one per network role for switches, one for the extra
 * endpoints, none shared with the compute servers, leaves or spines, and each is the fill of its
 * legend line. Devices drawn, from the preset by hand: storage 12 switches (QM9700, 1 U),
 * in-band 17 switches (SN4600C, 2 U) + 5 management servers + 4 UFM appliances (1 U each),
 * out-of-band 7 SN2201 leaves (one per 32-server SU: ceil(215 / 32), 1 U) and one SN4600C
 * aggregation (2 U) = 46 (derivations in test_netbox.c); the 87 BMC and switch-management
 * entries take no unit and are not drawn. */
Test(write_xlsx, rack_elevation_shows_network_devices)
{
    char path[128];
    fp_plan *p = networks_workbook(path);
    char *xml = sheet_named(path, "Rack elevation");
    const int units = fp__plan_rspec(p)->phys.rack_units;
    static char head[64][24];
    static char grid[64][64][48];     /* [U][column] */
    static int style[64][64];
    static xl_row row;
    const char *pos = xml;
    cr_assert(xl_next_row(&pos, &row));
    int ncol = 0;
    for (int c = 1; c < XL_MAX_COLS && row.present[c]; c++, ncol++)
        snprintf(head[c], sizeof head[c], "%s", row.v[c]);
    cr_assert(xl_next_row(&pos, &row));
    int mgmt_cols = 0;
    for (int c = 1; c <= ncol; c++)
        mgmt_cols += strcmp(row.v[c], "management") == 0;
    cr_expect_eq(mgmt_cols, (int)fp__plan_net_place(p)->mgmt_racks);
    for (int u = units; u >= 1; u--) {
        cr_assert(xl_next_row(&pos, &row));
        for (int c = 1; c <= ncol; c++) {
            snprintf(grid[u][c], 48, "%s", row.v[c]);
            style[u][c] = row.style[c];
        }
    }
    /* the compute fills: a server's and a leaf's cell */
    int srv_style = 0, leaf_style = 0;
    for (int u = 1; u <= units; u++)
        for (int c = 1; c <= ncol; c++) {
            if (strstr(grid[u][c], "-node-") && !srv_style)
                srv_style = style[u][c];
            if (strncmp(grid[u][c], "su01-leaf-", 10) == 0 && !leaf_style)
                leaf_style = style[u][c];
        }
    cr_assert(srv_style && leaf_style && srv_style != leaf_style);
    int role_style[5] = { 0 }, drawn = 0;
    char name[160], rack[24];
    const fp_layout *nlay = &fp__plan_net_phys(p)->lay[0];
    for (int k = 0; k < fp__plan_net_count(p); k++) {
        const fp_net_spec *ns = fp__plan_net(p, k);
        const fp_fabric *nf = fp__plan_net_fabric(p, k);
        for (int64_t d = ns->servers; d < nf->n_dev; d++) {
            int h = d >= nf->servers ? ns->rs.tier[nf->dev[d].tier - 1].model.ru : 0;
            if (d < nf->servers)     /* an extra endpoint: its group's units (one port group each) */
                for (int i = 0, g = (int)(d - ns->servers); i < ns->n_extra; g -= (int)ns->extra[i].count, i++)
                    if (g >= 0 && g < ns->extra[i].count) {
                        h = ns->extra[i].ru;
                        break;
                    }
            if (h == 0)
                continue;
            int64_t rk = fp__plan_net_place(p)->dev_rack[k][d];
            int u = fp__plan_net_place(p)->dev_u[k][d] + h - 1;
            const fp_rack *r = &nlay->rack[rk];
            snprintf(rack, sizeof rack, "H%d-R%02d-K%02d", r->hall, r->row, r->pos);
            fp__net_device_name(name, sizeof name, ns, nf, fp__plan_fabric(p), fp__plan_rspec(p), d);
            int col = 0;
            for (int c = 1; c <= ncol; c++)
                if (strcmp(head[c], rack) == 0)
                    col = c;
            cr_assert_gt(col, 0, "no column for rack %s", rack);
            cr_expect_str_eq(grid[u][col], name, "%s at %s U%d", name, rack, u);
            int slot = d < nf->servers ? 4 : (int)ns->role;
            if (role_style[slot] == 0)
                role_style[slot] = style[u][col];
            cr_expect_eq(style[u][col], role_style[slot], "%s: not its network's fill", name);
            drawn++;
        }
    }
    cr_expect_eq(drawn, 12 + 17 + 5 + 4 + 8);
    /* storage, management, oob and the endpoints: four fills, none a compute one */
    int used[] = { role_style[FP_NET_STORAGE], role_style[FP_NET_MANAGEMENT], role_style[FP_NET_OOB],
                   role_style[4] };
    for (int i = 0; i < 4; i++) {
        cr_expect(used[i] && used[i] != srv_style && used[i] != leaf_style, "fill %d", i);
        for (int j = 0; j < i; j++)
            cr_expect_neq(used[i], used[j], "two kinds share a fill");
    }
    /* the legend: a line per network in its switches' fill, and the network servers' */
    int legend[4] = { 0 };
    while (xl_next_row(&pos, &row)) {
        if (strncmp(row.v[1], "storage network", 15) == 0)
            legend[0] = row.style[1];
        if (strncmp(row.v[1], "inband network", 14) == 0)
            legend[1] = row.style[1];
        if (strncmp(row.v[1], "oob network", 11) == 0)
            legend[2] = row.style[1];
        if (strncmp(row.v[1], "network server: mgmt-server (1 U), ufm (1 U)", 44) == 0)
            legend[3] = row.style[1];
    }
    for (int i = 0; i < 4; i++)
        cr_expect_eq(legend[i], used[i], "legend line %d: style %d, cells %d", i, legend[i], used[i]);
    free(xml);
    fp_plan_free(p);
}

/* On two cores the other documents are written after plan.xlsx's cells (write.c's gate), during
 * the workbook's compression: every progress report of another document comes after the Cables
 * and Ports sheets' last one (reports are serialised by fp_plan_write). With three threads
 * nothing waits, and the order is whatever the scheduler makes of it (not checked). */
typedef struct stage_log {
    char stage[64][32];
    int n, last_cables, last_ports, first_other;
    int in_call, overlaps;      /* calls running at once (atomic), and how often that was > 1 */
} stage_log;

static void log_stage(const char *stage, double frac, void *payload)
{
    stage_log *l = payload;
    if (__atomic_add_fetch(&l->in_call, 1, __ATOMIC_SEQ_CST) > 1)
        __atomic_add_fetch(&l->overlaps, 1, __ATOMIC_SEQ_CST);
    nanosleep(&(struct timespec){ 0, 200000 }, NULL); /* widen the window two unserialised
                                                          calls would share */
    int at = l->n < 64 ? l->n : 63;
    snprintf(l->stage[at], sizeof l->stage[at], "%s", stage);
    if (strcmp(stage, "plan.xlsx cables") == 0 && frac >= 1.0)
        l->last_cables = l->n;
    else if (strcmp(stage, "plan.xlsx ports") == 0 && frac >= 1.0)
        l->last_ports = l->n;
    else if (strncmp(stage, "plan.xlsx", 9) != 0 && l->first_other < 0)
        l->first_other = l->n;
    l->n++;
    __atomic_sub_fetch(&l->in_call, 1, __ATOMIC_SEQ_CST);
}

Test(write_xlsx, other_documents_wait_for_the_cells_on_two_cores)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64];
    fp_error err = { 0 };
    stage_log log = { .last_cables = -1, .last_ports = -1, .first_other = -1 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.jobs = 2;
    o.progress = log_stage;
    o.payload = &log;
    tmpdir(dir, sizeof dir);
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    cr_assert_geq(log.last_cables, 0, "no Cables progress");
    cr_assert_geq(log.last_ports, 0, "no Ports progress");
    cr_assert_geq(log.first_other, 0, "no other document's progress");
    cr_expect_gt(log.first_other, log.last_cables, "%s before the Cables sheet's end",
                 log.stage[log.first_other]);
    cr_expect_gt(log.first_other, log.last_ports, "%s before the Ports sheet's end",
                 log.stage[log.first_other]);
    cr_expect_eq(log.overlaps, 0, "progress called from two threads at once %d times", log.overlaps);
    fp_plan_free(p);
}

/* With every writing thread (the side writer, the Ports thread, the syncer) progress still
 * reaches the caller one call at a time: one lock (fp__progress_lock) serialises both the
 * writing threads' and the workbook's Ports thread's calls. */
Test(write_xlsx, progress_is_one_call_at_a_time_on_every_thread)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64];
    fp_error err = { 0 };
    stage_log log = { .last_cables = -1, .last_ports = -1, .first_other = -1 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.jobs = 4;
    o.formats = FP_WRITE_DEFAULT;
    o.progress = log_stage;
    o.payload = &log;
    tmpdir(dir, sizeof dir);
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    cr_assert_gt(log.n, 10, "only %d progress calls", log.n);
    cr_expect_eq(log.overlaps, 0, "progress called from two threads at once %d times", log.overlaps);
    fp_plan_free(p);
}

/* The threading rule as code (xlsx.h cell_ok, xlsx_two_threads.c): a format the Cables sheet
 * uses that nobody numbered ahead - here the first medium's text format (entry 1 of the table:
 * 0 is the header), left out of the numbering as a newly added format would be - must stop the
 * workbook with the check's internal error on the Cables sheet, not race with the Ports thread
 * and show only as a byte difference (the check is by membership of the table, so it does not
 * depend on which thread reaches the format first). The same plan on one thread needs no
 * numbering ahead and writes; with the entry restored two threads write again. */
Test(write_xlsx, a_format_not_numbered_ahead_stops_the_book, .timeout = TEST_TIMEOUT(60))
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/broken.xlsx", dir);
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    fp_error err = { 0 };
    o.jobs = 2;
    fp__xlsx_test_leave_out(1);
    long threads = fp__xlsx_ports_threads_started();
    fp_status rc = fp__write_xlsx_rows(p, path, &o, FP_XLSX_MAX_DATA_ROWS, &err);
    fp__xlsx_test_leave_out(-1);
    cr_expect_eq(fp__xlsx_ports_threads_started(), threads + 1, "the Ports thread must have run");
    cr_assert_eq(rc, FP_EIO, "a format not numbered ahead must fail the book, got %d (%s)", rc,
                 err.msg);
    cr_expect(strstr(err.msg, "not numbered ahead") != NULL, "message: %s", err.msg);
    cr_expect(strstr(err.msg, "sheet 'Cables'") != NULL, "the Cables sheet: %s", err.msg);
    snprintf(path, sizeof path, "%s/one.xlsx", dir);
    write_threads(p, path, 1, FP_XLSX_MAX_DATA_ROWS, "one thread");
    snprintf(path, sizeof path, "%s/two.xlsx", dir);
    write_threads(p, path, 2, FP_XLSX_MAX_DATA_ROWS, "entry restored");
    fp_plan_free(p);
}
