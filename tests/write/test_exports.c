/* Exports other tools import: labels.csv, netbox-cables.csv, topology.csv, read back as CSV and
 * checked against the plan (through the API) and against links.csv. */
#include <criterion/criterion.h>
#include <unistd.h>
#include "helpers.h"
#include "xlsx_read.h"
#include "plan.h"

/* 768 GPUs at 1 NIC per GPU on 64-port switches: 2 tiers, 768 NIC-leaf + 768 leaf-spine links. */
#define SPEC_768 "{\"name\":\"t768\",\"cluster\":{\"gpus\":768}}"

static void write_formats(const fp_plan *p, char *dir, size_t n, unsigned formats)
{
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = formats;
    scratch_dir(dir, n, "exports");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s (%s)", err.msg, err.where);
}

static csv_file load(const char *dir, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return csv_load(path);
}

/* A plan of spec with the built-in catalog plus parts (a catalog text); the plan owns copies of
 * what it needs, so the spec and catalog are freed here. */
static fp_plan *plan_with_parts(const char *spec_json, const char *parts)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *p = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_catalog_merge_string(cat, parts, strlen(parts), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, spec_json, strlen(spec_json), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&p, spec, cat, &err), FP_OK, "%s", err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return p;
}

/* topology.csv: the AVD columns, one row per link (not two), in links.csv's order. */
Test(exports, topology_one_row_per_link)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64];
    write_formats(p, dir, sizeof dir, FP_WRITE_TOPOLOGY | FP_WRITE_LINKS);
    csv_file t = load(dir, "topology.csv"), l = load(dir, "links.csv");
    cr_assert_str_eq(t.line[0], "Node Type,Node,Node Interface,Peer Type,Peer Node,Peer Interface,"
                                "Node Interface Enabled");
    cr_assert_eq(t.n, 768 * 2 + 1);
    cr_assert_eq(l.n, t.n);
    long servers = 0, leaves = 0;
    for (long i = 1; i < t.n; i++) {
        char *tf[8], *lf[8];
        cr_assert_eq(csv_split(t.line[i], tf, 8), 7, "line %ld", i + 1);
        cr_assert_eq(csv_split(l.line[i], lf, 8), 8, "line %ld", i + 1);
        cr_expect_str_eq(tf[1], lf[1]);
        cr_expect_str_eq(tf[2], lf[2]);
        cr_expect_str_eq(tf[4], lf[3]);
        cr_expect_str_eq(tf[5], lf[4]);
        cr_expect_str_eq(tf[6], "True");
        servers += strcmp(tf[0], "server") == 0;
        leaves += strcmp(tf[0], "leaf") == 0 && strcmp(tf[3], "spine") == 0;
    }
    /* NIC-leaf links have a server as the node; leaf-spine links a leaf under a spine. */
    cr_expect_eq(servers, 768);
    cr_expect_eq(leaves, 768);
    csv_free(&t);
    csv_free(&l);
    fp_plan_free(p);
}

/* Only the asked-for documents are written. */
Test(exports, formats_select_the_files)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64], path[128];
    write_formats(p, dir, sizeof dir, FP_WRITE_TOPOLOGY);
    static const char *const absent[] = { "plan.json", "links.csv", "plan.xlsx", "labels.csv",
                                          "netbox-cables.csv" };
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, absent[i]);
        cr_expect_neq(access(path, F_OK), 0, "%s written but not asked for", absent[i]);
    }
    snprintf(path, sizeof path, "%s/topology.csv", dir);
    cr_expect_eq(access(path, F_OK), 0);
    fp_plan_free(p);
}

/* The printable lines of one labels.csv row: each at most 20 characters; line1 the cable id and
 * end; line2 this end as R<row>K<rack>-U<u> and its port (one hall: no hall prefix); line3 the
 * far end after ">" (and a blank when it fits). */
static void check_lines(char **r, const fp_cable_info *c, const char *end, const fp_cable_end *e)
{
    char want[64];
    for (int i = 10; i < 13; i++)
        cr_expect_leq(strlen(r[i]), 20, "%s %s line%d \"%s\" is longer than 20", c->id, end, i - 9, r[i]);
    snprintf(want, sizeof want, "%s %s", c->id, end);
    cr_expect_str_eq(r[10], want);
    snprintf(want, sizeof want, "R%02dK%02d-U%02d %s", e->loc.row, e->loc.rack, e->loc.u, e->port);
    if (strchr(e->port, '+') == NULL && strlen(want) <= 20)
        cr_expect_str_eq(r[11], want);
    cr_expect_eq(r[12][0], '>', "%s", r[12]);     /* "> far end", or ">far end" to fit */
}

/* labels.csv: for every cable, one row for the A end and one per Z leg, all with the cable's id;
 * each end names the other as its far end. */
Test(exports, labels_both_ends_of_every_cable)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64];
    write_formats(p, dir, sizeof dir, FP_WRITE_LABELS);
    csv_file f = load(dir, "labels.csv");
    cr_assert_str_eq(f.line[0], "cable_id,end,location,device,port,far_location,far_device,"
                                "far_port,medium,label,line1,line2,line3");
    size_t n = fp_plan_cable_count(p);
    long want = 1, li = 1;
    for (size_t i = 0; i < n; i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        want += 1 + c.n_z;
        char *a[16];
        cr_assert_lt(li, f.n);
        cr_assert_eq(csv_split(f.line[li++], a, 16), 13);
        check_lines(a, &c, "A", &c.a);
        cr_expect_str_eq(a[0], c.id);
        cr_expect_str_eq(a[1], "A");
        cr_expect_str_eq(a[3], c.a.device_name);
        cr_expect_str_eq(a[4], c.a.port);
        cr_expect_str_eq(a[8], fp_medium_name(c.medium));
        cr_expect_str_eq(a[9], c.a.label);
        for (int k = 0; k < c.n_z; k++) {
            char *z[16];
            cr_assert_lt(li, f.n);
            cr_assert_eq(csv_split(f.line[li++], z, 16), 13);
            check_lines(z, &c, z[1], &c.z[k]);
            cr_expect_str_eq(z[0], c.id);
            cr_expect_str_eq(z[3], c.z[k].device_name);
            cr_expect_str_eq(z[4], c.z[k].port);
            cr_expect_str_eq(z[6], c.a.device_name);    /* far end of a Z leg: the A end */
            cr_expect_str_eq(z[7], c.a.port);
            cr_expect_str_eq(z[9], c.z[k].label);
        }
        if (c.n_z == 1)
            cr_expect_str_eq(a[6], c.z[0].device_name);
    }
    cr_expect_eq(f.n, want);
    csv_free(&f);
    fp_plan_free(p);
}

/* netbox-cables.csv: NetBox's bulk-import columns, one NetBox cable per link (a splitter's legs
 * and a twin-port cable's links each get a row), planned, in metres, with a cable type NetBox
 * knows; each row ends on its link's two ports by the names links.csv gives them. */
Test(exports, netbox_columns_and_one_row_per_link)
{
    fp_plan *p = plan_from(SPEC_768);
    char dir[64];
    write_formats(p, dir, sizeof dir, FP_WRITE_NETBOX);
    csv_file f = load(dir, "netbox-cables.csv");
    cr_assert_str_eq(f.line[0], "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,"
                                "side_b_name,type,status,label,color,length,length_unit");
    size_t n = fp_plan_cable_count(p);
    long want = 1, li = 1;
    static const char *const types[] = { "dac-passive", "dac-active", "mmf-om4", "smf-os2" };
    for (size_t i = 0; i < n; i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        want += c.n_links;
        for (int k = 0; k < c.n_links; k++) {
            char *r[16], label[32];
            fp_link_info l;
            cr_assert_eq(fp_plan_link(p, (size_t)c.links[k], &l, NULL), FP_OK);
            cr_assert_lt(li, f.n);
            cr_assert_eq(csv_split(f.line[li++], r, 16), 12);
            fp_device_info a, z;
            cr_assert_eq(fp_plan_device(p, (size_t)l.a, &a, NULL), FP_OK);
            cr_assert_eq(fp_plan_device(p, (size_t)l.z, &z, NULL), FP_OK);
            cr_expect_str_eq(r[0], a.name);
            cr_expect_str_eq(r[1], "dcim.interface");
            cr_expect_str_eq(r[2], l.a_port_name);
            cr_expect_str_eq(r[3], z.name);
            cr_expect_str_eq(r[5], l.z_port_name);
            if (c.n_links > 1)
                snprintf(label, sizeof label, "%s/%d", c.id, k + 1);
            else
                snprintf(label, sizeof label, "%s", c.id);
            cr_expect_str_eq(r[8], label);
            int known = 0;
            for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
                known |= strcmp(r[6], types[t]) == 0;
            cr_expect(known, "unknown NetBox cable type %s", r[6]);
            cr_expect_str_eq(r[7], "planned");
            cr_expect_float_eq(strtod(r[10], NULL), c.stock_m, 0.051);
            cr_expect_str_eq(r[11], "m");
        }
    }
    cr_expect_eq(f.n, want);
    csv_free(&f);
    fp_plan_free(p);
}

/* The CSV writers copy names, ports, part ids and labels unquoted only when no such text of the
 * plan can need quoting (fp__csv_plain_names); a part id with a comma (a user catalog may give
 * one) turns that off, and the per-cable documents quote it (RFC 4180). The module is the
 * cheapest OSFP SR4 of the catalog, so the default NIC end (OSFP) takes it. */
Test(exports, part_id_with_a_comma_is_quoted)
{
    static const char part[] =
        "{\"parts\": [{\"id\": \"acme,sr4\", \"type\": \"transceiver\", \"name\": \"SR4\", "
        "\"ports\": 1, \"port_gbps\": 400, \"cage\": \"OSFP\", \"reach_m\": 50, \"fibre\": \"MMF\", "
        "\"connector\": \"MPO-12/APC\", \"power_w\": 9, \"price_usd\": 1, \"source\": \"test\"}]}";
    fp_plan *p = plan_with_parts(SPEC_768, part);
    char dir[64];
    write_formats(p, dir, sizeof dir, FP_WRITE_CABLES | FP_WRITE_LABELS);
    char path[128];
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    char *txt = slurp(path);
    cr_expect(strstr(txt, ",\"acme,sr4\",") != NULL, "the module id is quoted in cables.csv");
    cr_expect(strstr(txt, ",acme,sr4,") == NULL, "never unquoted");
    free(txt);
    fp_plan_free(p);
}

/* Formula injection (OWASP "CSV Injection"): text from the spec and the catalog reaches CSV
 * cells; a spreadsheet runs a cell that starts with = + - @ TAB or CR as a formula. Every text
 * cell of every CSV must then start with an apostrophe (inside quotes); a number such as "-1"
 * is a number. The plan's name and a transceiver (the cheapest OSFP SR4, so the default OSFP
 * NIC end takes it: its id, name and vendor) carry formulas here. */
static int is_number(const char *s)
{
    char *end;
    if (*s == '\0')
        return 0;
    strtod(s, &end);
    return *end == '\0';
}

Test(exports, no_csv_cell_starts_a_formula)
{
    static const char part[] =
        "{\"parts\": [{\"id\": \"=evil-sr4\", \"type\": \"transceiver\", \"name\": \"+cmd|' /C calc'!A0\", "
        "\"vendor\": \"@SUM(1+1)\", \"ports\": 1, \"port_gbps\": 400, \"cage\": \"OSFP\", \"reach_m\": 50, "
        "\"fibre\": \"MMF\", \"connector\": \"MPO-12/APC\", \"power_w\": 9, \"price_usd\": 1, "
        "\"source\": \"test\"}]}";
    static const char spec_json[] = "{\"name\":\"=HYPERLINK(\\\"http://evil/\\\")\",\"cluster\":{\"gpus\":768}}";
    fp_plan *p = plan_with_parts(spec_json, part);
    char dir[64];
    write_formats(p, dir, sizeof dir,
                  FP_WRITE_LINKS | FP_WRITE_CABLES | FP_WRITE_BOM | FP_WRITE_LABELS |
                      FP_WRITE_NETBOX | FP_WRITE_TOPOLOGY);
    static const char *const files[] = { "links.csv", "cables.csv", "bom.csv", "labels.csv",
                                         "topology.csv", "netbox-cables.csv",
                                         "netbox-devices.csv", "netbox-device-types.csv",
                                         "netbox-manufacturers.csv", "netbox-sites.csv",
                                         "netbox-racks.csv", "netbox-interfaces.csv",
                                         "netbox-device-roles.csv", "netbox-module-types.csv",
                                         "netbox-modules.csv", "netbox-module-bays.csv",
                                         "netbox-locations.csv", "netbox-power-ports.csv" };
    long in_cables = 0, in_bom = 0;
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        csv_file f = load(dir, files[k]);
        for (long i = 0; i < f.n; i++) {
            char *cell[64];
            int n = csv_split(f.line[i], cell, 64);
            for (int j = 0; j < n; j++) {
                cr_expect(strchr("=+-@\t\r", cell[j][0]) == NULL || cell[j][0] == '\0' ||
                              is_number(cell[j]),
                          "%s line %ld cell %d starts a formula: %s", files[k], i + 1, j + 1,
                          cell[j]);
                int kept = cell[j][0] == '\'' && strchr("=+-@", cell[j][1]) != NULL;
                in_cables += kept && k == 1;
                in_bom += kept && k == 2;
            }
        }
        csv_free(&f);
    }
    /* The texts are kept, behind the apostrophe: the part id in the cable rows that take the
     * module, and its id and name on its bom.csv line. */
    cr_expect_gt(in_cables, 0);
    cr_expect_geq(in_bom, 2);
    fp_plan_free(p);
}

/* The first port of an end's port text ("swp37s0" of "swp37s0+swp37s1") and whether line holds
 * it whole: followed by the line's end or by '+' (the short form of the further ports). */
static int line_keeps_port(const char *line, const char *ports)
{
    char first[64];
    size_t n = strcspn(ports, "+");
    snprintf(first, sizeof first, "%.*s", (int)n, ports);
    for (const char *p = strstr(line, first); p; p = strstr(p + 1, first))
        if (p[n] == '\0' || p[n] == '+')
            return p == line || p[-1] == ' ' || p[-1] == ':';
    return 0;
}

/* Issue 27: a printed label line never loses a character of a port name. spectrum-x-100k
 * (several halls, ports "swp37s0+1") had 425,761 of 589,060 label rows whose line3 lost the
 * s0/s1. Every line2 (this end) and line3 (the far end) now holds its first port whole; the
 * location is shortened instead (docs/outputs.md), and a line whose location had to give up its
 * hall is counted by fp_plan_label_cuts: with several halls a whole location starts with the
 * hall ("H5R40..." or the bare "5R40..."), so the lines without it are exactly the count. */
Test(exports, labels_keep_every_port_character, .timeout = TEST_TIMEOUT(120))
{
    fp_plan *p = plan_with_stages("preset:spectrum-x-100k", FP_STAGE_CABLING);
    int halls = fp__plan_layout(p)->halls;
    cr_assert_gt(halls, 1);
    size_t n = fp_plan_cable_count(p), lines = 0, lost = 0, no_hall = 0;
    fp_cable_info c;
    fp_end_label lab;
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        for (int leg = 0; leg <= c.n_z; leg++) {
            fp__cable_end_label(&lab, &c, leg, halls, FP_LABELS_PLAIN);
            const fp_cable_end *self = leg ? &c.z[leg - 1] : &c.a;
            const fp_cable_end *far = leg ? &c.a : c.n_z == 1 ? &c.z[0] : NULL;
            lines += 1 + (far != NULL);
            if (!line_keeps_port(lab.line[1], self->port) && lost++ < 3)
                cr_expect_fail("%s %s: \"%s\" loses port %s", c.id, lab.end, lab.line[1], self->port);
            const char *l2 = lab.line[1];
            no_hall += !(l2[0] == 'H' || (l2[0] >= '1' && l2[0] <= '9'));
            if (far && !(leg && c.n_z > 1)) {
                if (!line_keeps_port(lab.line[2], far->port) && lost++ < 3)
                    cr_expect_fail("%s %s: \"%s\" loses port %s", c.id, lab.end, lab.line[2], far->port);
                const char *l3 = lab.line[2] + 1 + (lab.line[2][1] == ' ');
                no_hall += !(l3[0] == 'H' || (l3[0] >= '1' && l3[0] <= '9'));
            } else if (far) {
                no_hall += !(lab.line[2][1] == 'H' || lab.line[2][2] == 'H' ||
                             (lab.line[2][1] >= '1' && lab.line[2][1] <= '9'));
            }
        }
    }
    cr_expect_eq(lost, 0, "%zu of %zu label lines lose part of a port name", lost, lines);
    size_t cables = 0;
    cr_expect_eq(fp_plan_label_cuts(p, FP_LABELS_PLAIN, &cables, NULL, 0), no_hall);
    cr_expect_leq(cables, n);
    fp_plan_free(p);
}
