/* fabplan verify: a hand-written plan folder (tests/verify/data/plan: nine cables between five
 * servers n1..n5 and two QM9700 leaves) against a hand-written ibnetdiscover file with one fault
 * of every kind (data/faults.topo), each expected row written out below from the fault put in;
 * the plan's own ibnetdiscover.topo verifying clean; the -p form; the node-name map; files
 * that are not what they claim. */
#include "helpers.h"

#define DATA FP_TEST_SRC_DIR "/tests/verify/data"
#define FABPLAN FP_TEST_BIN_DIR "/src/fabplan"

/* The columns a row is checked by: cable id, status, the found ends, the fix. */
typedef struct row {
    const char *cable, *status, *fa_dev, *fa_port, *fz_dev, *fz_port, *fix;
} row;

/* Field i of a verify.csv line (RFC 4180), into buf. */
static const char *field(const char *line, int i, char *buf, size_t n)
{
    const char *p = line;
    size_t k = 0;
    for (int f = 0; f <= i; f++) {
        int q = *p == '"';
        k = 0;
        if (q)
            p++;
        for (; *p && (q || (*p != ',' && *p != '\n')); p++) {
            if (q && *p == '"') {
                if (p[1] == '"') {
                    p++;
                } else {
                    q = 0;
                    continue;
                }
            }
            if (f == i && k + 1 < n)
                buf[k++] = *p;
        }
        if (*p == ',')
            p++;
    }
    buf[k] = '\0';
    return buf;
}

/* verify.csv's columns: cable_id 0, status 1, found_a_device 14, found_a_port 15,
 * found_z_device 16, found_z_port 17, fix 21. */
static void check_rows(const char *csv, const row *want, size_t n)
{
    const char *line = strchr(csv, '\n');
    cr_assert_not_null(line);
    size_t got = 0;
    for (line++; *line; got++) {
        char b[7][512];
        const row *w = &want[got < n ? got : n - 1];
        cr_assert_lt(got, n, "more rows than expected: %.120s", line);
        const char *f[7] = {
            field(line, 0, b[0], sizeof b[0]), field(line, 1, b[1], sizeof b[1]),
            field(line, 14, b[2], sizeof b[2]), field(line, 15, b[3], sizeof b[3]),
            field(line, 16, b[4], sizeof b[4]), field(line, 17, b[5], sizeof b[5]),
            field(line, 21, b[6], sizeof b[6]),
        };
        const char *e[7] = { w->cable, w->status, w->fa_dev, w->fa_port, w->fz_dev, w->fz_port,
                             w->fix };
        for (int c = 0; c < 7; c++)
            cr_assert_str_eq(f[c], e[c], "row %zu column %d: got \"%s\", expected \"%s\"", got + 1,
                             c, f[c], e[c]);
        /* next line: past the newline outside quotes */
        int q = 0;
        while (*line && (q || *line != '\n')) {
            q ^= *line == '"';
            line++;
        }
        if (*line)
            line++;
    }
    cr_assert_eq(got, n, "%zu rows, expected %zu", got, n);
}

/* text written to a new file NAME in a scratch folder; its path into path. */
static void temp_file(char *path, size_t n, const char *name, const char *text)
{
    char dir[256];
    scratch_dir(dir, sizeof dir, "in");
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

static fp_verify *run(const char *topo, const char *map, const char *phase, int ignore_speed)
{
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    fp_error err = { 0 };
    fp_verify *v = NULL;
    o.plan_dir = DATA "/plan";
    o.ibnetdiscover = topo;
    o.node_name_map = map;
    o.phase_dir = phase;
    o.ignore_speed = ignore_speed;
    cr_assert_eq(fp_verify_run(&o, &v, &err), FP_OK, "%s", err.msg);
    return v;
}

static char *write_and_read(const fp_verify *v, const char *tag)
{
    char dir[256], path[300];
    fp_error err = { 0 };
    scratch_dir(dir, sizeof dir, tag);
    cr_assert_eq(fp_verify_write(v, dir, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(count_temp(dir), 0);
    snprintf(path, sizeof path, "%s/verify.csv", dir);
    return slurp(path);
}

/* The faults put into data/faults.topo, one per planned cable, and the row each must give:
 *   C1 n1 nic1 - leaf1 1/1/1 (port 1): as planned, 4xNDR -> ok.
 *   C2 n2 nic1 - leaf1 1/1/2 (port 2): seen at 1xNDR = 100 Gb/s < 400 -> degraded.
 *   C3 n1 nic2 - leaf2 1/1/1 and C4 n2 nic2 - leaf2 1/1/2: the two leaf ends exchanged (n1 mlx5_1
 *      on leaf2 port 2, n2 mlx5_1 on port 1) -> swapped, each naming the other.
 *   C5 n3 nic1 - leaf1 1/2/1 (port 3): found on leaf1 port 4 = 1/2/2 -> wrong-port (Z end).
 *   C6 n3 nic2 - leaf2 1/2/1: found on leaf1 port 5 = 1/3/1 -> wrong-device (Z end on leaf1).
 *   C7 n4 nic1 - leaf2 1/3/1: nothing at either end -> missing.
 *   C8 n4 nic2 - leaf1 1/4/1: nothing, and the phase folder lacks its A end -> not-yet.
 *   C9 n5 nic1 - leaf2 1/4/1 (port 7): port 7 holds "lab-host mlx5_0", a node the plan lacks ->
 *      unknown-device (the A end is wrong).
 * and two links the plan does not have, in the order of the file:
 *   leaf1 port 9 (1/5/1) - leaf2 port 9 (1/5/1): both devices planned -> unexpected;
 *   leaf1 port 11 (1/6/1) - "rogue-sw" port 3: -> unknown-device (switch end named "port 3").
 * Racks: servers in H1-R01-K01 (U = server number), leaf1 H1-R01-K02-U42, leaf2 -U41. */
static const row every_status[] = {
    { "C1", "ok", "n1", "nic1", "leaf1", "1/1/1", "" },
    { "C2", "degraded", "n2", "nic1", "leaf1", "1/1/2",
      "check cable C2 and its transceivers (reseat, clean, replace): seen at 1xNDR, planned "
      "4xNDR (400 Gb/s)" },
    { "C3", "swapped", "n1", "nic2", "leaf2", "1/1/2",
      "swapped with C4: move the Z end from leaf2 1/1/2 to leaf2 1/1/1, rack H1-R01-K02-U41" },
    { "C4", "swapped", "n2", "nic2", "leaf2", "1/1/1",
      "swapped with C3: move the Z end from leaf2 1/1/1 to leaf2 1/1/2, rack H1-R01-K02-U41" },
    { "C5", "wrong-port", "n3", "nic1", "leaf1", "1/2/2",
      "move the Z end from 1/2/2 to 1/2/1 on leaf1, rack H1-R01-K02-U42" },
    { "C6", "wrong-device", "n3", "nic2", "leaf1", "1/3/1",
      "move the Z end from leaf1 1/3/1 to leaf2 1/2/1, rack H1-R01-K02-U41" },
    { "C7", "missing", "", "", "", "",
      "connect n4 nic1 (H1-R01-K01-U04) to leaf2 1/3/1 (H1-R01-K02-U41) with cable C7" },
    { "C8", "not-yet", "", "", "", "", "" },
    { "C9", "unknown-device", "lab-host mlx5_0", "port 1", "leaf2", "1/4/1",
      "the A end is on \"lab-host mlx5_0\", which the plan does not have: move it to n5 nic1, "
      "rack H1-R01-K01-U05" },
    { "", "unexpected", "leaf1", "1/5/1", "leaf2", "1/5/1",
      "remove the cable from leaf1 1/5/1 (H1-R01-K02-U42) to leaf2 1/5/1 (H1-R01-K02-U41): not "
      "in the plan" },
    { "", "unknown-device", "leaf1", "1/6/1", "rogue-sw", "port 3",
      "\"rogue-sw\" is not in the plan: remove its cable from leaf1 1/6/1 (H1-R01-K02-U42), or "
      "correct its node description" },
};

Test(verify, every_status_by_hand)
{
    fp_verify *v = run(DATA "/faults.topo", NULL, DATA "/phase", 0);
    char *csv = write_and_read(v, "verify");
    check_rows(csv, every_status, sizeof every_status / sizeof every_status[0]);
    /* counts from the list above: 1 ok, 1 degraded, 2 swapped, 1 each of wrong-port,
     * wrong-device, missing, not-yet, unexpected; 2 unknown-device */
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_OK), 1);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_SWAPPED), 2);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_UNKNOWN_DEVICE), 2);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_NOT_YET), 1);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_N_STATUS), 11);
    cr_assert_eq(fp_verify_differs(v), 1);
    free(csv);
    fp_verify_free(v);
}

/* Without the phase folder every planned link is due: C8 is missing. */
Test(verify, without_phase_not_yet_is_missing)
{
    fp_verify *v = run(DATA "/faults.topo", NULL, NULL, 0);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_NOT_YET), 0);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_MISSING), 2);
    fp_verify_free(v);
}

/* The node-name map names GUID 0x900 "n5 mlx5_0": C9's HCA is then the planned one (ok), and
 * the only unknown node left is rogue-sw. */
Test(verify, node_name_map_overrides_descriptions)
{
    char map[300];
    temp_file(map, sizeof map, "map",
              "# guid name\n0x0000000000000900 \"n5 mlx5_0\"\n0x5 \"not-in-the-file\"\n");
    fp_verify *v = run(DATA "/faults.topo", map, DATA "/phase", 0);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_OK), 2);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_UNKNOWN_DEVICE), 1);
    fp_verify_free(v);
}

/* Width only: C2 at 1x of a planned 4x stays degraded. */
Test(verify, ignore_speed_compares_width)
{
    fp_verify *v = run(DATA "/faults.topo", NULL, DATA "/phase", 1);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_DEGRADED), 1);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_OK), 1);
    fp_verify_free(v);
}

/* ibnetdiscover -p: each port line once per end; C1 as planned from both ends (one link), C5 on
 * 1/2/2 (port 4), a port with nothing on it (no "-"); the rest of the plan missing. */
Test(verify, ports_form)
{
    char p[300];
    /* as dump_ports_report prints: the far end without width and speed */
    temp_file(p, sizeof p, "p.txt",
          "CA    10  1 0x0000000000000101 4x NDR - SW     1  1 0x0000000000000001 ( 'n1 mlx5_0' - 'leaf1' )\n"
          "SW     1  1 0x0000000000000001 4x NDR - CA    10  1 0x0000000000000101 ( 'leaf1' - 'n1 mlx5_0' )\n"
          "SW     1  4 0x0000000000000001 4x NDR - CA    12  1 0x0000000000000301 ( 'leaf1' - 'n3 mlx5_0' )\n"
          "SW     1  6 0x0000000000000001 4x SDR                                    'leaf1'\n");
    fp_verify *v = run(p, NULL, NULL, 0);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_OK), 1);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_WRONG_PORT), 1);
    /* 9 planned: C1 ok, C5 wrong-port, 7 missing; nothing unplanned */
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_MISSING), 7);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_N_STATUS), 9);
    fp_verify_free(v);
}

static void expect_parse_error(const char *text, int line, const char *needle)
{
    char p[300];
    temp_file(p, sizeof p, "bad.topo", text);
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    fp_error err = { 0 };
    fp_verify *v = NULL;
    o.plan_dir = DATA "/plan";
    o.ibnetdiscover = p;
    cr_assert_eq(fp_verify_run(&o, &v, &err), FP_EPARSE, "%s", err.msg);
    cr_assert_null(v);
    cr_assert_eq(err.line, line, "line %d: %s", err.line, err.msg);
    cr_assert(strstr(err.msg, p) != NULL, "names the file: %s", err.msg);
    cr_assert(strstr(err.msg, needle) != NULL, "\"%s\" in: %s", needle, err.msg);
}

/* A file cut after the first switch record: its ports name nodes that have no record. */
Test(verify, truncated_file_names_file_and_line)
{
    char *all = slurp(DATA "/faults.topo");
    char *cut = strstr(all, "\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x2\n");
    cr_assert_not_null(cut);
    cut[1] = '\0';
    /* the first port line of leaf1 is line 12 of the file (5 comment lines, a blank, 5 lines of
     * ids and the header) and names H-...100, which has no record now */
    expect_parse_error(all, 12, "has no record");
    free(all);
}

Test(verify, other_formats_are_refused)
{
    expect_parse_error("cable_id,a_hall\nC1,1\n", 1, "expected ibnetdiscover");
    expect_parse_error("# only comments\n\n", 2, "no Switch or Ca record");
    expect_parse_error("Switch\t8 \"S-1\"\t# \"leaf1\"\n[1]\t\"S-2\"\n", 2, "expected a port line");
    expect_parse_error("SW 1 1 0x1 4x NDR - CA 2\n", 1, "far end");
    expect_parse_error("Switch\t8 \"S-1\"\t# \"leaf1\"\n[1]\t\"S-1\"[2]\n[1]\t\"S-1\"[3]\n", 3,
                       "another far end");
}

/* The -p form's port numbers and GUIDs are checked as the topology form's are: port -5 was
 * read as "port -5" (a fix "move the Z end from port -5 ..."), 99999999999999999999 as port -1,
 * and port 65537 of one node as port 1 of the next one (a "listed with another far end" error
 * naming the wrong port). */
Test(verify, ports_form_numbers_out_of_range_are_refused)
{
    static const char *const ends[] = { "SW 1 -5 0x1", "SW 1 65536 0x1",
                                        "SW 1 99999999999999999999 0x1",
                                        "SW 1 1 0x1fab1000000000080",
                                        "SW 99999999999999999999 1 0x1" };
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        char text[400];
        snprintf(text, sizeof text,
                 "SW     1  1 0x0000000000000001 4x NDR - CA    10  1 0x0000000000000101 ( 'leaf1' "
                 "- 'n1 mlx5_0' )\n"
                 "%s 4x NDR - CA    12  1 0x0000000000000301 ( 'leaf1' - 'n3 mlx5_0' )\n",
                 ends[i]);
        expect_parse_error(text, 2, "expected ibnetdiscover -p output");
        /* and as the far end */
        snprintf(text, sizeof text,
                 "CA    12  1 0x0000000000000301 4x NDR - %s ( 'n3 mlx5_0' - 'leaf1' )\n", ends[i]);
        expect_parse_error(text, 1, "expected the far end");
    }
}

/* A node-name map's GUID is a number strtoull takes whole: "-1" (read as 2^64 - 1) and one of 17
 * hex digits are refused. */
Test(verify, node_name_map_guid_must_be_a_guid)
{
    static const char *const lines[] = { "-1 \"x\"\n", "0x1fab1000000000080 \"x\"\n",
                                         "+5 \"x\"\n" };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char map[300];
        temp_file(map, sizeof map, "map", lines[i]);
        fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
        fp_error err = { 0 };
        fp_verify *v = NULL;
        o.plan_dir = DATA "/plan";
        o.ibnetdiscover = DATA "/faults.topo";
        o.node_name_map = map;
        cr_assert_eq(fp_verify_run(&o, &v, &err), FP_EPARSE, "%s: %s", lines[i], err.msg);
        cr_assert(strstr(err.msg, "line 1: expected <guid> \"<name>\"") != NULL, "%s", err.msg);
    }
}

/* The plan folder's files are a plan folder's (a regular file, docs/robustness.md): read as a
 * discovered fabric, cables.csv -> /dev/zero was read to 4 GiB (and said "the limit of a
 * discovered fabric", exit 4). Each of cables.csv, ib-ports.csv and links.csv in turn. */
Test(verify, plan_files_are_regular_files, .timeout = TEST_TIMEOUT(60))
{
    static const char *const names[] = { "cables.csv", "ib-ports.csv", "links.csv" };
    for (size_t i = 0; i < 3; i++) {
        char dir[256], path[300], want[400];
        scratch_dir(dir, sizeof dir, names[i]);
        for (size_t k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "%s/%s", dir, names[k]);
            if (k == i)
                cr_assert_eq(symlink("/dev/zero", path), 0);
            else if (k < 2)
                cr_assert_eq(
                    symlink(k == 0 ? DATA "/plan/cables.csv" : DATA "/plan/ib-ports.csv", path), 0);
        }
        fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
        fp_error err = { 0 };
        fp_verify *v = NULL;
        o.plan_dir = dir;
        o.ibnetdiscover = DATA "/faults.topo";
        cr_assert_eq(fp_verify_run(&o, &v, &err), FP_EINVAL, "%s", err.msg);
        snprintf(want, sizeof want, "%s/%s is a device; expected a file of a plan folder", dir,
                 names[i]);
        cr_assert(strstr(err.msg, want) != NULL, "%s", err.msg);
    }
}

/* A plan folder made from data/plan with cables.csv changed by edit (NULL: unchanged) and
 * ib-ports.csv as it is; verify against faults.topo must fail with code, message needle, line. */
static void expect_plan_error(const char *tag, char *(*edit)(char *), fp_status code, int line,
                              const char *needle)
{
    char dir[256], path[300];
    scratch_dir(dir, sizeof dir, tag);
    char *cab = edit(slurp(DATA "/plan/cables.csv"));
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(cab, f);
    cr_assert_eq(fclose(f), 0);
    free(cab);
    snprintf(path, sizeof path, "%s/ib-ports.csv", dir);
    cr_assert_eq(symlink(DATA "/plan/ib-ports.csv", path), 0);
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    fp_error err = { 0 };
    fp_verify *v = NULL;
    o.plan_dir = dir;
    o.ibnetdiscover = DATA "/faults.topo";
    cr_assert_eq(fp_verify_run(&o, &v, &err), code, "%s: %s", tag, err.msg);
    cr_assert_null(v);
    cr_assert(strstr(err.msg, needle) != NULL, "%s: \"%s\" in: %s", tag, needle, err.msg);
    cr_assert_eq(err.line, line, "%s: line %d: %s", tag, err.line, err.msg);
}

/* the header alone */
static char *header_only(char *t)
{
    strchr(t, '\n')[1] = '\0';
    return t;
}

/* cut after the fourth cable (at a line boundary: every row whole) */
static char *cut_after_c4(char *t)
{
    char *c5 = strstr(t, "\nC5,");
    cr_assert_not_null(c5);
    c5[1] = '\0';
    return t;
}

/* C3's gbps (400) replaced by text */
static char *gbps_text(char *t)
{
    char *c3 = strstr(t, "\nC3,"), *g = strstr(c3, ",400,");
    cr_assert_not_null(g);
    memcpy(g, ",abc,", 5);
    return t;
}

static char *gbps_negative(char *t)
{
    char *c3 = strstr(t, "\nC3,"), *g = strstr(c3, ",400,");
    memcpy(g, ",-40,", 5);
    return t;
}

/* C2's row twice */
static char *row_twice(char *t)
{
    char *c2 = strstr(t, "\nC2,") + 1, *e = strchr(c2, '\n') + 1;
    size_t n = strlen(t), k = (size_t)(e - c2);
    char *u = malloc(n + k + 1);
    memcpy(u, t, (size_t)(e - t));
    memcpy(u + (e - t), c2, k);
    strcpy(u + (e - t) + k, e);
    free(t);
    return u;
}

/* cables.csv that is not its plan's, or that fabplan would not write, is refused: a header
 * alone made every discovered link unexpected, a file cut at a line boundary made the cut
 * cables' links unexpected, a gbps of "abc" or "-40" (atoi: 0) switched the speed comparison off,
 * and a row twice was two planned links on one port, both ok. */
Test(verify, cables_csv_that_is_not_the_plans_is_refused)
{
    expect_plan_error("hdr", header_only, FP_EPARSE, 2, "cables.csv has no cable, only its header");
    /* ib-ports.csv's rows are one per planned link end: C5's A end n3 nic1 is its line 6 */
    expect_plan_error("cut", cut_after_c4, FP_EPARSE, 6,
                      "ib-ports.csv line 6: n3 nic1 has a planned link but no cable in cables.csv");
    expect_plan_error("gbps", gbps_text, FP_EPARSE, 4,
                      "cables.csv line 4: cable C3: gbps \"abc\" is not a link speed");
    expect_plan_error("gbps-", gbps_negative, FP_EPARSE, 4,
                      "cable C3: gbps \"-40\" is not a link speed");
    expect_plan_error(
        "twice", row_twice, FP_EPARSE, 0,
        "n2 nic1 is an end of cable C2 and of cable C2; expected each port in one cable");
}

/* A message quotes the file (a node's id, a cable id): its control characters are shown as
 * '?', so a terminal escape in a discovery does not reach the terminal ("node \"S-\033[2J\"
 * has a second record" cleared the screen). */
Test(verify, messages_show_no_control_character)
{
    expect_parse_error("Switch\t8 \"S-\033[2Jx\"\t# \"leaf1\"\nSwitch\t8 \"S-\033[2Jx\"\t# \"leaf2\"\n", 2,
                       "node \"S-?[2Jx\" has a second record");
    expect_parse_error("Switch\t8 \"S-1\"\t# \"leaf1\"\n[1]\t\"S-\a\r\n\"[2]\n", 2, "expected a port line");
}

/* The plan's own export, discovered unchanged: every planned link ok. DGX H100 4 SU: 128
 * servers x 8 ports = 1,024 NIC-leaf links and 32 leaves x 32 uplinks = 1,024 leaf-spine links,
 * each one cable. */
Test(verify, plan_export_verifies_clean, .timeout = TEST_TIMEOUT(120))
{
    char dir[256], cmd[1024], out[4096];
    scratch_dir(dir, sizeof dir, "clean");
    snprintf(cmd, sizeof cmd, FABPLAN " plan --preset dgx-h100-4su --formats cables,links,"
             "ibnetdiscover -q -o %s/plan", dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 0, "%s", out);
    snprintf(cmd, sizeof cmd, FABPLAN " verify %s/plan --ibnetdiscover %s/plan/ibnetdiscover.topo "
             "--node-name-map %s/plan/ib-node-name-map -o %s/v", dir, dir, dir, dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 0, "%s", out);
    cr_assert(strstr(out, "ok              2048") != NULL, "%s", out);
    /* a discovery that is not one: exit 3, naming the file and line */
    snprintf(cmd, sizeof cmd, FABPLAN " verify %s/plan --ibnetdiscover %s/plan/cables.csv -o %s/v",
             dir, dir, dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 3, "%s", out);
    cr_assert(strstr(out, "cables.csv line 1:") != NULL, "%s", out);
    /* differences: exit 1 */
    snprintf(cmd, sizeof cmd, FABPLAN " verify " DATA "/plan --ibnetdiscover " DATA "/faults.topo "
             "-q -o %s/v", dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 1, "%s", out);
    /* no discovery: usage */
    snprintf(cmd, sizeof cmd, FABPLAN " verify %s/plan", dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 2, "%s", out);
}

/* ---- LLDP ---- */

#define ETH DATA "/eth-plan"

static fp_verify *run_lldp(const char *plan, const char *lldp, fp_status want)
{
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    fp_error err = { 0 };
    fp_verify *v = NULL;
    o.plan_dir = plan;
    o.lldp = lldp;
    cr_assert_eq(fp_verify_run(&o, &v, &err), want, "%s", err.msg);
    return v;
}

/* The Ethernet plan data/eth-plan: servers n1..n4 (H1-R01-K01, U = number), leaf1 K02-U42,
 * leaf2 K02-U41, spine1 K03-U42, ten 400 Gb/s cables E1..E10. data/lldp holds what lldpd would
 * print on leaf1 (-f json, show neighbors details), leaf2 (-f json0), spine1 (-f json) and n3
 * (-f json, one interface: an object, not an array); servers send their MAC as port id and the
 * interface name as port description, switches (Cumulus) the interface name. Faults put in:
 *   E1 n1 eth1 - leaf1 swp1: leaf1 swp1 sees n1 "eth1" (by description), 400GbaseDR4 -> ok.
 *   E2 n2 eth1 - leaf1 swp2: seen at 100GbaseCR4 = 100 Gb/s < 400 -> degraded.
 *   E3 n1 eth2 - leaf2 swp1 and E4 n2 eth2 - leaf2 swp2: leaf2 swp1 sees n2 eth2, swp2 sees n1
 *      eth2 -> swapped, each naming the other.
 *   E5 n3 eth1 - leaf1 swp3: leaf1 swp4 sees n3 eth1 (and n3 eth1 sees leaf1 swp4: one link)
 *      -> wrong-port (Z end).
 *   E6 n3 eth2 - leaf2 swp3: leaf1 swp5 sees n3 eth2 -> wrong-device (Z end on leaf1).
 *   E7 n4 eth1 - leaf1 swp6: nothing -> missing.
 *   E8 leaf1 swp31 - spine1 swp1: seen from both ends -> ok, once.
 *   E9 leaf2 swp31 - spine1 swp2: leaf2 sees it; spine1 swp2 claims leaf1 swp32 -> ok, its
 *      note says the ends disagree (one disagreement).
 *   E10 n4 eth2 - leaf2 swp6: leaf2 swp6 sees "lab-host" eth0 -> unknown-device (A end).
 * then, in the order of the files (sorted by name): leaf1 swp30 - leaf2 swp30 (both planned
 * devices, from both ends) -> unexpected; spine1 swp9 - "rogue-sw" swp3 -> unknown-device. */
static const row lldp_status[] = {
    { "E1", "ok", "n1", "eth1", "leaf1", "swp1", "" },
    { "E2", "degraded", "n2", "eth1", "leaf1", "swp2",
      "check cable E2 and its transceivers (reseat, clean, replace): seen at 100GbaseCR4, "
      "planned 400 Gb/s" },
    { "E3", "swapped", "n1", "eth2", "leaf2", "swp2",
      "swapped with E4: move the Z end from leaf2 swp2 to leaf2 swp1, rack H1-R01-K02-U41" },
    { "E4", "swapped", "n2", "eth2", "leaf2", "swp1",
      "swapped with E3: move the Z end from leaf2 swp1 to leaf2 swp2, rack H1-R01-K02-U41" },
    { "E5", "wrong-port", "n3", "eth1", "leaf1", "swp4",
      "move the Z end from swp4 to swp3 on leaf1, rack H1-R01-K02-U42" },
    { "E6", "wrong-device", "n3", "eth2", "leaf1", "swp5",
      "move the Z end from leaf1 swp5 to leaf2 swp3, rack H1-R01-K02-U41" },
    { "E7", "missing", "", "", "", "",
      "connect n4 eth1 (H1-R01-K01-U04) to leaf1 swp6 (H1-R01-K02-U42) with cable E7" },
    { "E8", "ok", "leaf1", "swp31", "spine1", "swp1", "" },
    { "E9", "ok", "leaf2", "swp31", "spine1", "swp2", "" },
    { "E10", "unknown-device", "lab-host", "eth0", "leaf2", "swp6",
      "the A end is on \"lab-host\", which the plan does not have: move it to n4 eth2, rack "
      "H1-R01-K01-U04" },
    { "", "unexpected", "leaf1", "swp30", "leaf2", "swp30",
      "remove the cable from leaf1 swp30 (H1-R01-K02-U42) to leaf2 swp30 (H1-R01-K02-U41): not "
      "in the plan" },
    { "", "unknown-device", "spine1", "swp9", "rogue-sw", "swp3",
      "\"rogue-sw\" is not in the plan: remove its cable from spine1 swp9 (H1-R01-K03-U42), or "
      "correct its system name" },
};
#define N_LLDP (sizeof lldp_status / sizeof lldp_status[0])

/* Line `row` (1 = the first after the header) of a CSV text without quoted newlines. */
static const char *csv_line(const char *csv, int n)
{
    const char *p = csv;
    for (int i = 0; i < n && p != NULL; i++)
        if ((p = strchr(p, '\n')) != NULL)
            p++;
    cr_assert_not_null(p);
    return p;
}

Test(verify, lldp_every_status_by_hand)
{
    fp_verify *v = run_lldp(ETH, DATA "/lldp", FP_OK);
    char *csv = write_and_read(v, "lldp");
    check_rows(csv, lldp_status, N_LLDP);
    /* 3 ok (E1, E8, E9), 2 swapped, 2 unknown-device, one each of the rest but not-yet */
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_OK), 3);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_SWAPPED), 2);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_UNKNOWN_DEVICE), 2);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_DEGRADED), 1);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_N_STATUS), N_LLDP);
    cr_assert_eq(fp_verify_differs(v), 1);
    /* the notes (last column): E1's far port by description, E8 none, E9's ends disagree */
    char b[512];
    cr_assert_str_eq(field(csv_line(csv, 1), 22, b, sizeof b),
                     "far port named by its description (its port id is a MAC)");
    cr_assert_str_eq(field(csv_line(csv, 8), 22, b, sizeof b), "");
    cr_assert_str_eq(field(csv_line(csv, 9), 22, b, sizeof b),
                     "ends disagree: spine1.json says spine1 swp2 sees leaf1 swp32");
    free(csv);
    /* 11 links: leaf1's 6, leaf2's 5 less swp30 (leaf1's), spine1's swp9; the rest seen twice */
    char dir[256], path[300];
    scratch_dir(dir, sizeof dir, "lldp-sum");
    fp_error err = { 0 };
    cr_assert_eq(fp_verify_write(v, dir, &err), FP_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/verify-summary.json", dir);
    char *sum = slurp(path);
    cr_assert(strstr(sum, "\"discovered_links\":\t11,") != NULL, "%s", sum);
    cr_assert(strstr(sum, "\"lldp_ends_disagree\":\t1,") != NULL, "%s", sum);
    cr_assert(strstr(sum, "\"form\":\t\"lldp\",") != NULL, "%s", sum);
    free(sum);
    /* verify.xlsx's Fix list: the 9 rows that need work, by hall, row, rack, U of the end to
     * work on, then device, then verify.csv order. Ends: E2 (slow: its A end n2, K01 U2), E7
     * (missing: A end n4, U4) and E10 (the A end to move: n4, U4); K02 U41 leaf2: E3, E4 (Z
     * ends), E6 (Z end planned on leaf2); U42 leaf1: E5 (Z), the unplanned leaf1 swp30 (the
     * end that reported it); K03 spine1: the link to rogue-sw. */
    static const char *const order[] = {
        "check cable E2", "with cable E7", "move it to n4 eth2", "swapped with E4",
        "swapped with E3", "from leaf1 swp5 to leaf2 swp3", "from swp4 to swp3",
        "remove the cable from leaf1 swp30", "or correct its system name",
    };
    char cmd[600], xml[65536];
    snprintf(cmd, sizeof cmd, "unzip -p %s/verify.xlsx xl/worksheets/sheet1.xml", dir);
    cr_assert_eq(run_shell(cmd, xml, sizeof xml), 0, "%s", xml);
    const char *at = xml;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *f = strstr(at, order[i]);
        cr_assert_not_null(f, "Fix list row %zu \"%s\" not after the row before it", i + 1,
                           order[i]);
        at = f;
    }
    cr_assert(strstr(xml, "with cable E7") && !strstr(xml, "E1 H1"), "ok rows are not listed");
    /* written by the one work-list writer (as diff's relabel.xlsx): each row's Done cell is a
     * box of its own style, the header's is not the rows' */
    for (size_t i = 0; i <= sizeof order / sizeof order[0]; i++) {
        char cell[32];
        snprintf(cell, sizeof cell, "<c r=\"K%zu\" s=\"", i + 1);
        const char *k = strstr(xml, cell);
        cr_expect_not_null(k, "row %zu: no Done cell", i + 1);
        if (i == 1 && k != NULL) {
            char head[32];
            snprintf(head, sizeof head, "<c r=\"K1\" s=\"%d\"", atoi(k + strlen(cell)));
            cr_expect_null(strstr(xml, head), "the Done box has the header's style");
        }
    }
    fp_verify_free(v);
}

/* One file for all: each device's `lldpcli -f json show chassis` before its neighbours names
 * the device (the file's own name then does not); the same rows as the folder. */
Test(verify, lldp_one_merged_file)
{
    static const char *const dev[] = { "leaf1", "leaf2", "n3", "spine1" };
    char path[300], *all = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&all, &len);
    cr_assert_not_null(m);
    for (int i = 0; i < 4; i++) {
        char p[300];
        /* json0's local-chassis for leaf2 (it was printed with -f json0), json's for the rest */
        if (i == 1)
            fprintf(m, "{\n  \"local-chassis\": [\n    {\n      \"chassis\": [\n        {\n"
                       "          \"id\": [\n            {\n              \"type\": \"mac\",\n"
                       "              \"value\": \"1c:34:da:02:00:00\"\n            }\n"
                       "          ],\n          \"name\": [\n            {\n"
                       "              \"value\": \"%s\"\n            }\n          ]\n        }\n"
                       "      ]\n    }\n  ]\n}\n\n", dev[i]);
        else
            fprintf(m, "{\n  \"local-chassis\": {\n    \"chassis\": {\n      \"%s\": {\n"
                       "        \"id\": {\n          \"type\": \"mac\",\n"
                       "          \"value\": \"1c:34:da:00:00:00\"\n        }\n      }\n    }\n"
                       "  }\n}\n\n", dev[i]);
        snprintf(p, sizeof p, DATA "/lldp/%s.json", dev[i]);
        char *t = slurp(p);
        fputs(t, m);
        free(t);
    }
    cr_assert_eq(fclose(m), 0);
    temp_file(path, sizeof path, "fabric.json", all);
    free(all);
    fp_verify *v = run_lldp(ETH, path, FP_OK);
    char *csv = write_and_read(v, "lldp-one");
    check_rows(csv, lldp_status, N_LLDP);
    free(csv);
    fp_verify_free(v);
}

/* What Debian's lldpd 1.0.16 printed in two network namespaces joined by two veth pairs
 * (leaf01 swp1 - gpu-node-001 swp3, leaf01 swp2 - gpu-node-001 eth0; leaf01 configured with
 * `portidsubtype ifname`, gpu-node-001 left at lldpd's default, its MAC as port id): leaf01's
 * `-f json show neighbors`, gpu-node-001's `-f json0 show neighbors details` (veth reports
 * 10GbaseT). Planned at 10 Gb/s both cables are ok, each seen from both ends once; planned at
 * 400 Gb/s (the plan rewritten) both are degraded. */
Test(verify, lldp_real_lldpd_output)
{
    fp_verify *v = run_lldp(DATA "/lldp-real-plan", DATA "/lldp-real", FP_OK);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_OK), 2);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_N_STATUS), 2);
    cr_assert_eq(fp_verify_differs(v), 0);
    fp_verify_free(v);
    char dir[256], path[300];
    scratch_dir(dir, sizeof dir, "plan400");
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    char *c = slurp(DATA "/lldp-real-plan/cables.csv");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (char *p = c; *p; p++) {
        if (strncmp(p, ",TP,10,", 7) == 0) {
            fputs(",TP,400,", f);
            p += 6;
        } else {
            fputc(*p, f);
        }
    }
    cr_assert_eq(fclose(f), 0);
    free(c);
    v = run_lldp(dir, DATA "/lldp-real", FP_OK);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_DEGRADED), 2);
    fp_verify_free(v);
}

static void expect_lldp_error(const char *text, fp_status st, int line, const char *needle)
{
    char p[300];
    temp_file(p, sizeof p, "leaf1.json", text);
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    fp_error err = { 0 };
    fp_verify *v = NULL;
    o.plan_dir = ETH;
    o.lldp = p;
    cr_assert_eq(fp_verify_run(&o, &v, &err), st, "%s", err.msg);
    cr_assert_null(v);
    cr_assert_eq(err.line, line, "line %d: %s", err.line, err.msg);
    cr_assert(strstr(err.msg, p) != NULL, "names the file: %s", err.msg);
    cr_assert(strstr(err.msg, needle) != NULL, "\"%s\" in: %s", needle, err.msg);
}

Test(verify, lldp_other_files_are_refused)
{
    /* leaf1.json cut after its fourth line opens swp1: cJSON fails at the end, line 4 */
    expect_lldp_error("{\n  \"lldp\": {\n    \"interface\": {\n      \"swp1\": {", FP_EPARSE, 4,
                      "not JSON");
    expect_lldp_error("Switch\t8 \"S-1\"\t# \"leaf1\"\n", FP_EPARSE, 1, "not JSON");
    expect_lldp_error("{\"neighbors\": []}\n", FP_EPARSE, 1, "expected lldpcli");
    expect_lldp_error("", FP_EPARSE, 1, "empty");
    /* an interface without its port: the document's first line */
    expect_lldp_error("\n{\"lldp\": {\"interface\": {\"swp1\": {\"via\": \"LLDP\", \"chassis\": "
                      "{\"n1\": {\"id\": {\"type\": \"mac\", \"value\": \"0\"}}}}}}}\n",
                      FP_EPARSE, 2, "port id");
}

/* "lldp" holding anything but what lldpcli prints (an object, or json0's list of objects,
 * with "interface" members) is refused: a number, null, a string, a list of numbers or a
 * misspelt member read as "no neighbours", every planned link missing and exit 1. */
Test(verify, lldp_wrong_shape_is_refused)
{
    static const char *const bad[] = {
        "{\"lldp\": 5}\n",
        "{\"lldp\": null}\n",
        "{\"lldp\": \"leaf1\"}\n",
        "{\"lldp\": [5, null]}\n",
        "{\"lldp\": {\"interfaces\": [{\"swp1\": {}}]}}\n",
        "{\"lldp\": [{\"interface\": [], \"x\": 1}]}\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_lldp_error(bad[i], FP_EPARSE, 1, "expected lldpcli");
    /* json0's empty neighbour list is still no neighbours */
    char p[300];
    temp_file(p, sizeof p, "leaf9.json", "{\"lldp\": [{}]}\n");
    fp_verify *v = run_lldp(ETH, p, FP_OK);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_MISSING), 10);
    fp_verify_free(v);
}

/* An interface that is not lldpcli's is named, by its place and name: the line is the
 * document's first (cJSON keeps no positions), so for one device's output it said "line 1" of
 * however many interfaces. */
Test(verify, lldp_bad_interface_is_named)
{
    expect_lldp_error(
        "{\"lldp\": {\"interface\": [{\"swp1\": {\"chassis\": {\"n1\": {\"id\": \"0\"}}, \"port\": "
        "{\"id\": \"eth1\"}}}, {\"swp2\": {\"chassis\": {\"n2\": {\"id\": \"0\"}}}}]}}\n",
        FP_EPARSE, 1, "interface 2 of the document (swp2): without its name, chassis or port id");
}

/* A MAU type whose number is out of any speed's range (1e308G, nan, inf, negative) names no
 * speed: the link is not compared, as without a MAU (a double out of an int's range converted to
 * it is undefined: the sanitizer build stopped at "inf is outside the range of ... 'int'"). */
Test(verify, lldp_mau_out_of_range_names_no_speed)
{
    static const char *const mau[] = { "1e308GbaseCR4", "nanGbaseCR4", "infBaseT",
                                       "-400GbaseCR4",  "2p5e999GigT", "4e6GbaseCR4" };
    for (size_t i = 0; i < sizeof mau / sizeof mau[0]; i++) {
        char text[600], p[300];
        snprintf(
            text, sizeof text,
            "{\"lldp\": {\"interface\": {\"swp1\": {\"chassis\": {\"n1\": {\"id\": {\"type\": "
            "\"mac\", "
            "\"value\": \"0\"}}}, \"port\": {\"id\": {\"type\": \"ifname\", \"value\": \"eth1\"}, "
            "\"auto-negotiation\": {\"current\": \"%s - x\"}}}}}}\n",
            mau[i]);
        temp_file(p, sizeof p, "leaf1.json", text);
        fp_verify *v = run_lldp(ETH, p, FP_OK);
        cr_assert_eq(fp_verify_count(v, FP_VERIFY_OK), 1, "%s", mau[i]);
        cr_assert_eq(fp_verify_count(v, FP_VERIFY_DEGRADED), 0, "%s", mau[i]);
        fp_verify_free(v);
    }
}

/* No neighbours at all (`{"lldp": {}}`, what lldpcli prints then): every planned link missing;
 * a folder without a .json file is an I/O error. */
Test(verify, lldp_nothing_seen)
{
    char p[300];
    temp_file(p, sizeof p, "leaf9.json", "{\n  \"lldp\": {\n    \n  }\n}\n\n");
    fp_verify *v = run_lldp(ETH, p, FP_OK);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_MISSING), 10);
    fp_verify_free(v);
    char dir[256];
    scratch_dir(dir, sizeof dir, "empty");
    v = run_lldp(ETH, dir, FP_EIO);
    cr_assert_null(v);
}

/* ---- scope: a discovery checks its protocol's cables; --network narrows to networks ---- */

#define MIXED DATA "/mixed-plan"

/* data/mixed-plan: n1's three cables, M1 nic1 - leaf1 1/1/1 on the InfiniBand compute
 * fabric, M2 eth1 - oob-sw swp1 on the Ethernet oob network, M3 eth2 - inb-sw swp1 on the
 * Ethernet inband network (cables.csv's network and protocol columns). data/mixed-lldp/n1.json
 * (-f json, two interfaces) sees eth1 on oob-sw swp1 and eth2 on inb-sw swp1: both Ethernet
 * cables as planned. */
static fp_verify *run_mixed(const char *const *nets, int n, fp_status want, fp_error *err)
{
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    fp_verify *v = NULL;
    o.plan_dir = MIXED;
    o.lldp = DATA "/mixed-lldp";
    o.networks = nets;
    o.n_networks = n;
    cr_assert_eq(fp_verify_run(&o, &v, err), want, "%s", err->msg);
    return v;
}

/* LLDP alone: M1 (InfiniBand) is not checked, not missing: two rows, both ok, exit 0. */
Test(verify, lldp_checks_ethernet_cables_only)
{
    fp_error err = { 0 };
    fp_verify *v = run_mixed(NULL, 0, FP_OK, &err);
    static const row want[] = {
        { "M2", "ok", "n1", "eth1", "oob-sw", "swp1", "" },
        { "M3", "ok", "n1", "eth2", "inb-sw", "swp1", "" },
    };
    char *csv = write_and_read(v, "mixed");
    check_rows(csv, want, 2);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_MISSING), 0);
    cr_assert_eq(fp_verify_not_checked(v, 1), 1);     /* M1, the other protocol */
    cr_assert_eq(fp_verify_not_checked(v, 2), 0);
    cr_assert_eq(fp_verify_not_checked(v, 0), 1);
    cr_assert_eq(fp_verify_differs(v), 0);
    free(csv);
    fp_verify_free(v);
}

/* --network oob: M2 only; M3 (inband) not checked, and the link LLDP saw on its planned end is
 * left out with it, not unexpected. A network the plan lacks is refused, naming those it has. */
Test(verify, network_narrows_the_check)
{
    fp_error err = { 0 };
    const char *oob[] = { "oob" };
    fp_verify *v = run_mixed(oob, 1, FP_OK, &err);
    static const row want[] = { { "M2", "ok", "n1", "eth1", "oob-sw", "swp1", "" } };
    char *csv = write_and_read(v, "oob");
    check_rows(csv, want, 1);
    cr_assert_eq(fp_verify_count(v, FP_VERIFY_UNEXPECTED), 0);
    cr_assert_eq(fp_verify_not_checked(v, 1), 1);     /* M1 */
    cr_assert_eq(fp_verify_not_checked(v, 2), 1);     /* M3 */
    free(csv);
    fp_verify_free(v);
    const char *bad[] = { "oob", "storage" };
    v = run_mixed(bad, 2, FP_EINVAL, &err);
    cr_assert_null(v);
    cr_assert(strstr(err.msg, "\"storage\"") != NULL && strstr(err.msg, "compute, oob, inband") != NULL,
              "%s", err.msg);
}

/* A caller built against an older fp_verify_options has none of the later members: version 2
 * reads no networks (a network the plan lacks would be refused), version 1 no lldp (given
 * alone it leaves no discovery to verify); version 0 and one past the current are refused. */
Test(verify, older_options_versions_ignore_later_members)
{
    fp_error err = { 0 };
    fp_verify *v = NULL;
    const char *bad[] = { "storage" };
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    o.plan_dir = MIXED;
    o.lldp = DATA "/mixed-lldp";
    o.networks = bad;
    o.n_networks = 1;
    o.version = 2;
    cr_assert_eq(fp_verify_run(&o, &v, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_verify_count(v, FP_VERIFY_OK), 2); /* M2 and M3, as with no networks given */
    cr_expect_eq(fp_verify_not_checked(v, 2), 0);
    fp_verify_free(v);
    v = NULL;
    o.version = 1;
    err = (fp_error){ 0 };
    cr_assert_eq(fp_verify_run(&o, &v, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "no discovery") != NULL, "%s", err.msg);
    cr_assert_null(v);
    for (int version = 0; version <= FP_VERIFY_OPTIONS_VERSION + 1;
         version += FP_VERIFY_OPTIONS_VERSION + 1) {
        o.version = version;
        err = (fp_error){ 0 };
        cr_assert_eq(fp_verify_run(&o, &v, &err), FP_EINVAL, "version %d", version);
        cr_expect(strstr(err.msg, "options version") != NULL, "%s", err.msg);
    }
}

/* links.csv's rows of network net (its last column), counted by hand. */
static long links_of(const char *dir, const char *net)
{
    char path[400];
    snprintf(path, sizeof path, "%s/links.csv", dir);
    char *t = slurp(path);
    long n = 0;
    size_t len = strlen(net);
    for (char *line = strchr(t, '\n'); line != NULL && line[1]; line = strchr(line + 1, '\n')) {
        char *e = strchr(line + 1, '\n');
        size_t ll = e ? (size_t)(e - line - 1) : strlen(line + 1);
        n += ll > len && line[ll - len] == ',' && strncmp(line + 1 + ll - len, net, len) == 0;
    }
    free(t);
    return n;
}

/* The DGX H100 4-SU plan with its networks: two InfiniBand subnets (compute, storage), two
 * Ethernet networks. Each subnet's own export verifies clean when its network is named; the
 * storage subnet's alone, checked against every InfiniBand network, has every compute link
 * missing; the Ethernet cables are never looked for in an ibnetdiscover output. Expected
 * counts: links.csv's rows per network. */
Test(verify, each_infiniband_subnet_by_network, .timeout = TEST_TIMEOUT(120))
{
    char dir[256], cmd[2048], out[4096], want[64];
    scratch_dir(dir, sizeof dir, "subnets");
    snprintf(cmd, sizeof cmd, FABPLAN " plan --preset dgx-h100-4su-networks --formats cables,"
             "links,ibnetdiscover -q -o %s/plan", dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 0, "%s", out);
    char plan[300];
    snprintf(plan, sizeof plan, "%s/plan", dir);
    long compute = links_of(plan, "compute"), storage = links_of(plan, "storage");
    long eth = links_of(plan, "inband") + links_of(plan, "oob");
    cr_assert(compute > 0 && storage > 0 && eth > 0);
    snprintf(cmd, sizeof cmd, FABPLAN " verify %s --ibnetdiscover %s/ibnetdiscover.topo "
             "--network compute -o %s/v1", plan, plan, dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 0, "%s", out);
    snprintf(want, sizeof want, "ok              %ld\n", compute);
    cr_assert(strstr(out, want) != NULL, "%s", out);
    snprintf(want, sizeof want, "not checked     %ld planned links (%ld of the other protocol, "
             "%ld", eth + storage, eth, storage);
    cr_assert(strstr(out, want) != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, FABPLAN " verify %s --ibnetdiscover %s/ibnetdiscover-storage.topo "
             "--node-name-map %s/ib-node-name-map --network storage -o %s/v2", plan, plan, plan, dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 0, "%s", out);
    snprintf(want, sizeof want, "ok              %ld\n", storage);
    cr_assert(strstr(out, want) != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, FABPLAN " verify %s --ibnetdiscover %s/ibnetdiscover-storage.topo "
             "-o %s/v3", plan, plan, dir);
    cr_assert_eq(run_shell(cmd, out, sizeof out), 1, "%s", out);
    snprintf(want, sizeof want, "missing         %ld\n", compute);
    cr_assert(strstr(out, want) != NULL, "%s", out);
}
