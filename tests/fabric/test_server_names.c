/* Server (host) names from cluster.server_names: the template language (fields, widths, the
 * default), the names every document carries (cables, labels, NetBox, Slurm, the InfiniBand
 * export and verify's HCA matching), the edges (one scalable unit, 131,072 GPUs) and every
 * error at /cluster/server_names. Expected names are worked out by hand in the comments. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "spec/resolved.h"
#include "fabplan/verify.h"
#include "helpers.h"

#define T1024 "{\"cluster\": {\"gpus\": 1024, \"server_names\": \"gpu-{su:02}-{n:02}\"}}"

static const char *expand(const char *tpl, int64_t su, int64_t n, int64_t i, int auto_w)
{
    static char buf[256];
    fp_host_template t;
    fp_error err = { 0 };
    cr_assert_eq(fp__host_template_parse(&t, tpl, &err), FP_OK, "%s", err.msg);
    const int64_t val[FP_HOST_FIELDS] = { 0, su, n, i };
    const int w[FP_HOST_FIELDS] = { 0, auto_w, auto_w, auto_w };
    size_t len = fp__host_name(buf, sizeof buf, &t, val, w);
    cr_assert_eq(len, strlen(buf));
    return buf;
}

/* Each field with its width: ":02" pads to two digits, ":01" pads nothing, a number wider than
 * its width is written whole, a field without a width takes the design's width (here 4). */
Test(server_names, fields_and_widths)
{
    cr_expect_str_eq(expand("gpu-{su:02}-{n:02}", 3, 7, 71, 4), "gpu-03-07");
    cr_expect_str_eq(expand("gpu-{su:02}-{n:02}", 123, 32, 3936, 4), "gpu-123-32");
    cr_expect_str_eq(expand("h{i:01}", 1, 5, 5, 4), "h5");
    cr_expect_str_eq(expand("h{i:06}", 1, 5, 5, 4), "h000005");
    cr_expect_str_eq(expand("node-{i}", 1, 12, 12, 4), "node-0012");
    cr_expect_str_eq(expand("{su:01}x{n:03}", 3, 7, 71, 4), "3x007");
    cr_expect_str_eq(expand("{i:01}", 1, 1, 9, 2), "9");
    /* a buffer too small cuts like snprintf and still says the whole length */
    fp_host_template t;
    fp_error err = { 0 };
    char small[5];
    cr_assert_eq(fp__host_template_parse(&t, "gpu-{i:04}", &err), FP_OK, "%s", err.msg);
    const int64_t val[FP_HOST_FIELDS] = { 0, 1, 1, 42 };
    const int w[FP_HOST_FIELDS] = { 0, 2, 2, 2 };
    cr_expect_eq(fp__host_name(small, sizeof small, &t, val, w), 8);   /* "gpu-0042" */
    cr_expect_str_eq(small, "gpu-");
}

static fp_plan *plan_json(const char *json, unsigned stages)
{
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    o.stages = stages;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new_opts(&plan, spec, cat, &o, &err), FP_OK, "%s", err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return plan;
}

static void server_name(const fp_plan *p, size_t i, char *out, size_t n)
{
    fp_device_info d;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_device(p, i, &d, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(d.tier, 0, "device %zu is not a server", i);
    snprintf(out, n, "%s", d.name);
}

static void expect_name(const fp_plan *p, size_t i, const char *want)
{
    char got[64];
    server_name(p, i, got, sizeof got);
    cr_expect_str_eq(got, want, "server %zu", i);
}

/* Without the setting the names are today's: a rail-optimized fabric of 1,024 GPUs has 128
 * servers in 4 units of 32, each number two digits (at least 2); the same template given
 * explicitly names every server alike. A Clos of 2,048 GPUs has 256 servers: node-001 ..
 * node-256 (3 digits for 256). */
Test(server_names, default_is_todays)
{
    char a[64], b[64];
    fp_plan *p = plan_json("{\"cluster\": {\"gpus\": 1024}}", FP_STAGE_FABRIC);
    fp_plan *q = plan_json("{\"cluster\": {\"gpus\": 1024, \"server_names\": \"su{su}-node-{n}\"}}",
                           FP_STAGE_FABRIC);
    expect_name(p, 0, "su01-node-01");
    expect_name(p, 127, "su04-node-32");
    for (size_t i = 0; i < 128; i++) {
        server_name(p, i, a, sizeof a);
        server_name(q, i, b, sizeof b);
        cr_expect_str_eq(a, b);
    }
    fp_plan_free(p);
    fp_plan_free(q);
    p = plan_json("{\"cluster\": {\"gpus\": 2048}, \"fabric\": {\"topology\": \"clos\"}}",
                  FP_STAGE_FABRIC);
    expect_name(p, 0, "node-001");
    expect_name(p, 255, "node-256");
    fp_plan_free(p);
}

/* In a Clos fabric the units are of fabric.su_servers servers in server order (as the floor
 * layout takes them): with 16 a unit, server 17 (0-based 16) is unit 2, place 1. */
Test(server_names, clos_units)
{
    fp_plan *p = plan_json("{\"cluster\": {\"gpus\": 2048, \"server_names\": \"c{su:02}n{n:02}\"}, "
                           "\"fabric\": {\"topology\": \"clos\", \"su_servers\": 16}}",
                           FP_STAGE_FABRIC);
    expect_name(p, 16, "c02n01");
    expect_name(p, 255, "c16n16");         /* 256 = 16 x 16: unit 16, place 16 */
    fp_plan_free(p);
}

/* Does text hold line (a whole line)? */
static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = strstr(text, line); p; p = strstr(p + 1, line))
        if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
            return 1;
    return 0;
}

static char *read_in(const char *dir, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return slurp(path);
}

/* Occurrences of needle in text. */
static size_t count_of(const char *text, const char *needle)
{
    size_t k = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

static void write_plan(const fp_plan *p, const char *dir, unsigned formats)
{
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    fp_error err = { 0 };
    o.formats = formats;
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
}

/* 1,024 GPUs with gpu-{su:02}-{n:02}: 128 servers, 4 units of 32 (8 GPUs a server): unit u's
 * servers are gpu-0u-01 .. gpu-0u-32. Every document names them so and no other way: cables.csv
 * and labels.csv (each server's 8 NIC ports, one row per end in labels.csv: 8 ports x 128
 * servers = 1,024 ends name a server as their own device), netbox-devices.csv (one row per
 * server), Slurm's topology.conf (one leaf switch per unit, its nodes one compressed hostlist
 * gpu-0u-[01-32]), the Kubernetes labels (one kubectl line per node, its unit the leaf group)
 * and the InfiniBand export (one HCA per port: "gpu-01-01 mlx5_0" .. mlx5_7). */
Test(server_names, every_document, .timeout = TEST_TIMEOUT(120))
{
    char dir[256], name[32], line[96];
    scratch_dir(dir, sizeof dir, "server-names");
    fp_plan *p = plan_json(T1024, FP_STAGE_ALL);
    write_plan(p, dir, FP_WRITE_CABLES | FP_WRITE_LABELS | FP_WRITE_NETBOX | FP_WRITE_SLURM |
                           FP_WRITE_IBNET | FP_WRITE_LINKS | FP_WRITE_K8S);
    char *cables = read_in(dir, "cables.csv"), *labels = read_in(dir, "labels.csv");
    char *nb = read_in(dir, "netbox-devices.csv"), *topo = read_in(dir, "topology.conf");
    char *ib = read_in(dir, "ibnetdiscover.topo"), *links = read_in(dir, "links.csv");
    char *k8s = read_in(dir, "k8s-node-labels.sh");
    for (int su = 1; su <= 4; su++) {
        for (int n = 1; n <= 32; n++) {
            snprintf(name, sizeof name, "gpu-%02d-%02d", su, n);
            /* a device cell, alone or one of a split cable's legs ("gpu-04-19;gpu-04-20") */
            cr_expect(strstr(cables, name) != NULL, "cables.csv lacks %s", name);
            snprintf(line, sizeof line, "\n%s,", name);
            cr_expect(strstr(nb, line) != NULL, "netbox-devices.csv has no row %s", name);
            for (int k = 1; k <= 8; k++) {
                snprintf(line, sizeof line, "%s nic%d", name, k);
                cr_expect(strstr(labels, line) != NULL, "labels.csv lacks \"%s\"", line);
                snprintf(line, sizeof line, "\"%s mlx5_%d\"", name, k - 1);
                cr_expect(strstr(ib, line) != NULL, "ibnetdiscover.topo lacks %s", line);
            }
            /* the node's leaf group is its unit (docs/outputs.md, Kubernetes) */
            snprintf(line, sizeof line, "kubectl label node --overwrite %s "
                     "topology.fabplan.io/leaf-group=su%02d", name, su);
            cr_expect(has_line(k8s, line), "k8s-node-labels.sh lacks \"%s\"", line);
        }
        snprintf(line, sizeof line, "SwitchName=su%02d Nodes=gpu-%02d-[01-32]", su, su);
        cr_expect(has_line(topo, line), "topology.conf lacks \"%s\":\n%s", line, topo);
    }
    /* labels.csv: one row per cable end; the ends at servers name the server as their device
     * (",gpu-" then the port): 8 ports x 128 servers */
    size_t own = 0;
    for (const char *q = strchr(labels, '\n'); q; q = strchr(q + 1, '\n')) {
        const char *c = q + 1;
        for (int f = 0; f < 3 && c; f++)   /* cable_id,end,location,device */
            c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
        own += c != NULL && strncmp(c, "gpu-", 4) == 0;
    }
    cr_expect_eq(own, 1024);
    const char *docs[] = { cables, labels, nb, topo, ib, links, k8s };
    /* today's names, "su01-node-01": "-node-" and a digit (k8s-node-labels.sh names itself) */
    for (size_t k = 0; k < sizeof docs / sizeof docs[0]; k++)
        for (const char *q = strstr(docs[k], "-node-"); q; q = strstr(q + 1, "-node-"))
            cr_expect(q[6] < '0' || q[6] > '9', "document %zu still names a server: \"%.12s\"", k, q);
    free(cables);
    free(labels);
    free(nb);
    free(topo);
    free(ib);
    free(links);
    free(k8s);
    fp_plan_free(p);
}

static void replace_all(char *text, const char *from, const char *to)
{
    size_t n = strlen(from);
    cr_assert_eq(n, strlen(to));
    for (char *q = strstr(text, from); q; q = strstr(q + n, from))
        memcpy(q, to, n);
}

/* verify matches HCAs by "<server> mlx5_<i>" with the template's names: the plan's own
 * ibnetdiscover.topo verifies clean; the same file with server gpu-02-05's 8 HCAs described as
 * "gpx-02-05 mlx5_<i>" (a name the plan lacks; each HCA is named twice, in its own Ca record and
 * on its leaf's port line: 16 times) gives its 8 links unknown-device and leaves the others
 * ok. */
Test(server_names, verify_matches_hcas, .timeout = TEST_TIMEOUT(120))
{
    char dir[256], topo[300], bad[300];
    fp_error err = { 0 };
    scratch_dir(dir, sizeof dir, "server-names-verify");
    fp_plan *p = plan_json(T1024, FP_STAGE_ALL);
    write_plan(p, dir, FP_WRITE_CABLES | FP_WRITE_LINKS | FP_WRITE_IBNET);
    size_t links = fp_plan_link_count(p);
    fp_plan_free(p);
    snprintf(topo, sizeof topo, "%s/ibnetdiscover.topo", dir);
    snprintf(bad, sizeof bad, "%s/renamed.topo", dir);
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    fp_verify *v = NULL;
    o.plan_dir = dir;
    o.ibnetdiscover = topo;
    cr_assert_eq(fp_verify_run(&o, &v, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_verify_differs(v), 0);
    cr_expect_eq(fp_verify_count(v, FP_VERIFY_UNKNOWN_DEVICE), 0);
    fp_verify_free(v);
    char *text = slurp(topo);
    cr_expect_eq(count_of(text, "\"gpu-02-05 mlx5_"), 16);
    replace_all(text, "\"gpu-02-05 mlx5_", "\"gpx-02-05 mlx5_");
    put_file(bad, text);
    free(text);
    o.ibnetdiscover = bad;
    cr_assert_eq(fp_verify_run(&o, &v, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_verify_count(v, FP_VERIFY_UNKNOWN_DEVICE), 8);
    cr_expect_eq(fp_verify_count(v, FP_VERIFY_OK), links - 8);
    fp_verify_free(v);
}

/* One scalable unit (256 GPUs = 32 servers): gpu-01-01 .. gpu-01-32, one hostlist. */
Test(server_names, one_unit)
{
    char dir[256];
    scratch_dir(dir, sizeof dir, "server-names-1su");
    fp_plan *p = plan_json("{\"cluster\": {\"gpus\": 256, \"server_names\": \"gpu-{su:02}-{n:02}\"}}",
                           FP_STAGE_ALL);
    expect_name(p, 0, "gpu-01-01");
    expect_name(p, 31, "gpu-01-32");
    write_plan(p, dir, FP_WRITE_SLURM);
    char *topo = read_in(dir, "topology.conf");
    cr_expect(strstr(topo, "Nodes=gpu-01-[01-32]") != NULL, "%s", topo);
    free(topo);
    fp_plan_free(p);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* 131,072 GPUs: 16,384 servers in 512 units of 32; gpu-{su:03}-{n:02} names them gpu-001-01 ..
 * gpu-512-32, every name once (sorted, no two equal); the fabric with its name checks is built
 * in well under the time limit (about 0.1 s on a quiet machine). */
Test(server_names, scale_131072_unique, .timeout = TEST_TIMEOUT(120))
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fp_plan *p = plan_json("{\"cluster\": {\"gpus\": 131072, \"server_names\": "
                           "\"gpu-{su:03}-{n:02}\"}}", FP_STAGE_FABRIC);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cr_expect_lt(s, 20.0 * FP_TEST_TIMEOUT_SCALE, "fabric of 131,072 GPUs took %.2f s", s);
    enum { SERVERS = 16384 };
    static char names[SERVERS][16];
    for (size_t i = 0; i < SERVERS; i++)
        server_name(p, i, names[i], sizeof names[i]);
    cr_expect_str_eq(names[0], "gpu-001-01");
    cr_expect_str_eq(names[SERVERS - 1], "gpu-512-32");
    cr_expect_str_eq(names[32 * 100 + 4], "gpu-101-05");
    qsort(names, SERVERS, sizeof names[0], cmp_name);
    for (size_t i = 1; i < SERVERS; i++)
        cr_expect_str_neq(names[i - 1], names[i]);
    fp_plan_free(p);
}

/* The error of a plan with this server_names at gpus GPUs (rail-optimized unless topology). */
static void expect_error(int gpus, const char *tpl_json, const char *needle)
{
    char json[1024];
    fp_error err;
    snprintf(json, sizeof json, "{\"cluster\": {\"gpus\": %d, \"server_names\": %s}}", gpus,
             tpl_json);
    cr_expect_eq(plan_error(json, &err), FP_EINVAL, "%s: no FP_EINVAL (%s)", tpl_json, err.msg);
    cr_expect_str_eq(err.where, "/cluster/server_names", "%s: at %s", tpl_json, err.where);
    cr_expect(strstr(err.msg, needle) != NULL, "%s: \"%s\" lacks \"%s\"", tpl_json, err.msg,
              needle);
    cr_expect(strncmp(err.msg, "/cluster/server_names", 21) == 0, "%s", err.msg);
    /* validate (no plan built) finds the same */
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_error verr = { 0 };
    cr_assert_eq(fp_catalog_new(&cat, &verr), FP_OK);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &verr), FP_OK);
    cr_expect_eq(fp_spec_validate(spec, cat, &verr), FP_EINVAL, "%s: validate passed", tpl_json);
    cr_expect_str_eq(verr.msg, err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

Test(server_names, errors_in_the_template)
{
    expect_error(1024, "\"\"", "found an empty string");
    expect_error(1024, "5", "string");
    expect_error(1024, "\"gpu-{rack}-{n}\"", "unknown field \"{rack}\" at offset 4; expected {su}, {n} or {i} (names are made before the floor layout");
    expect_error(1024, "\"gpu-{x}\"", "unknown field \"{x}\" at offset 4; expected {su}, {n} or {i}");
    expect_error(1024, "\"gpu-{}\"", "unknown field \"{}\"");
    expect_error(1024, "\"gpu-{su:2}\"", "bad width \":2\"");
    expect_error(1024, "\"gpu-{su:00}\"", "bad width \":00\"");
    expect_error(1024, "\"gpu-{su:048}\"", "bad width \":048\"");
    expect_error(1024, "\"gpu-{su:0x}\"", "bad width \":0x\"");
    expect_error(1024, "\"gpu-{su:}\"", "bad width \":\"");
    expect_error(1024, "\"gpu-{su\"", "\"{\" at offset 4 is not closed");
    expect_error(1024, "\"gpu-{su{n}\"", "\"{\" at offset 4 is not closed");
    expect_error(1024, "\"gpu-su}\"", "\"}\" at offset 6 closes no field");
    expect_error(1024, "\"gpu{{{i}\"", "\"{{\" at offset 3 is a literal '{'");
    expect_error(1024, "\"gpu}}{i}\"", "\"}}\" at offset 3 is a literal '}'");
    expect_error(1024, "\"GPU-{i}\"", "character 'G' at offset 0 is upper case");
    expect_error(1024, "\"gpu_{i}\"", "character '_' at offset 3 cannot be part of a host name");
    expect_error(1024, "\"gpu.{i}\"", "character '.' at offset 3");
    expect_error(1024, "\"gpu {i}\"", "byte 0x20 at offset 3");
    expect_error(1024, "\"gpu\\u00e9{i}\"", "byte 0xc3 at offset 3");
    expect_error(1024, "\"gpu-node\"", "has no field: every server would get the same name");
    expect_error(1024, "\"-{i}\"", "starts with '-'");
    expect_error(1024, "\"{i}-\"", "ends with '-'");
}

/* Names too long: 46 letters and {i} cannot be shorter than 46 + 2 = 48 characters (a field
 * without a width writes at least 2); 45 letters and {i} at 1,024 GPUs (128 servers, {i} 3
 * digits wide) make 48 for every server, the last (128) named in the error; 44 letters make
 * 47, the most a name may have. A template longer than 8 x 47 + 7 = 383 characters is refused
 * before it is read. */
Test(server_names, errors_too_long)
{
    char a46[64], a45[64], a44[64], huge[500], tpl[600];
    memset(a46, 'a', 46);
    a46[46] = '\0';
    memset(a45, 'a', 45);
    a45[45] = '\0';
    memset(a44, 'a', 44);
    a44[44] = '\0';
    snprintf(tpl, sizeof tpl, "\"%s{i}\"", a46);
    expect_error(1024, tpl, "makes names of at least 48 characters; expected at most 47");
    snprintf(tpl, sizeof tpl, "\"%s{i}\"", a45);
    expect_error(1024, tpl, "names server 128 \"");
    expect_error(1024, tpl, "128\", 48 characters; expected at most 47");
    snprintf(tpl, sizeof tpl, "{\"cluster\": {\"gpus\": 1024, \"server_names\": \"%s{i}\"}}", a44);
    fp_plan *p = plan_json(tpl, FP_STAGE_FABRIC);
    char name[64];
    server_name(p, 127, name, sizeof name);
    cr_expect_eq(strlen(name), 47);
    fp_plan_free(p);
    memset(huge, 'a', 390);
    huge[390] = '\0';
    snprintf(tpl, sizeof tpl, "\"%s{i}\"", huge);
    expect_error(1024, tpl, "a template of 393 characters; expected at most 383");
}

/* Two devices with one name. gpu{su:01}{n:01} at 16,384 GPUs (2,048 servers, 64 units): no
 * repeat within units 1-10 ("gpu1" + n never equals "gpu10" + n'), and unit 11's first server
 * (number 10 x 32 + 1 = 321) is gpu111, the name of unit 1's server 11. su01-leaf-r{n:01} in
 * one unit (256 GPUs: 32 servers, 8 rail leaves su01-leaf-r1 .. r8) names server 1 as leaf
 * su01-leaf-r1. */
Test(server_names, errors_duplicates, .timeout = TEST_TIMEOUT(60))
{
    expect_error(16384, "\"gpu{su:01}{n:01}\"", "gives server 321 the name \"gpu111\" of an earlier server");
    expect_error(256, "\"su01-leaf-r{n:01}\"", "names a server \"su01-leaf-r1\", the name of a leaf switch");
}

/* A splitter's hub label names every leg's server, so long names could overflow the label
 * field (fp_cable_end.label, 319 characters); the plan is refused rather than a label cut.
 * 128 GPUs, 2 NICs of 200G a server (16 servers in one rack), TH5 QSFP-DD leaves at the top
 * of the rack, DAC only: each 800G leaf port is split 4 ways (generic-dac-800g-qsfpdd-4xqsfp112)
 * to 4 servers. SONiC names a leg by its first SerDes lane of 8 per port, 2 per leg: port 1's
 * hub is "Ethernet0+Ethernet2+Ethernet4+Ethernet6" (39 characters), port 2's
 * "Ethernet8+Ethernet10+Ethernet12+Ethernet14" (42), ports 3 and 4 "Ethernet16+...+22" (43).
 * The hub label "C0000017 H1-R01-K01-U.. su01-leaf-r1 <ports> >" is 8+1+14+1+12+1+43+2 = 82
 * characters and each leg adds " H1-R01-K01-U.. <name> nic1", 21 + L for a name of L: with 4
 * legs 166 + 4L <= 319 holds up to L = 38. Names of 39 (37 letters and {n}, 2 digits): C0000001
 * (39-character ports) needs 78 + 4 x 60 = 318 and fits, C0000009 needs 81 + 240 = 321, the
 * first refused; names of 38 fit, C0000017's hub label 166 + 152 = 318 characters whole. */
#define SPLIT4 "{\"cluster\": {\"gpus\": 128, \"nics_per_server\": 2, \"server_names\": \"%s{n}\", " \
    "\"nic\": {\"ports\": 1, \"port_gbps\": 200, \"cage\": \"QSFP112\", \"price_usd\": 1, " \
    "\"power_w\": 1}}, \"fabric\": {\"switch\": \"generic-th5-qsfpdd\"}, \"layout\": " \
    "{\"server_ru\": 2, \"servers_per_rack\": 16, \"leaf_racks\": \"top-of-rack\"}, " \
    "\"media\": {\"nic-leaf\": \"DAC\"}}"

Test(server_names, labels_never_cut, .timeout = TEST_TIMEOUT(60))
{
    char letters[40], json[1024];
    fp_error err;
    memset(letters, 'a', 37);
    letters[37] = '\0';
    snprintf(json, sizeof json, SPLIT4, letters);
    cr_expect_eq(plan_error(json, &err), FP_EINVAL, "%s", err.msg);
    cr_expect_str_eq(err.where, "/cluster/server_names");
    cr_expect(strstr(err.msg, "the label of cable C0000009 at its hub (su01-leaf-r1 "
                              "Ethernet8+Ethernet10+Ethernet12+Ethernet14, 4 legs) 321 characters, "
                              "more than the 319") != NULL, "%s", err.msg);
    cr_expect(strstr(err.msg, "expected server names of at most 38 characters") != NULL, "%s",
              err.msg);
    letters[36] = '\0';
    snprintf(json, sizeof json, SPLIT4, letters);
    fp_plan *p = plan_from(json);
    fp_cable_info c;
    size_t n = fp_plan_cable_count(p), i = 0;
    for (; i < n; i++) {
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        if (strcmp(c.id, "C0000017") == 0)
            break;
    }
    cr_assert_lt(i, n, "no cable C0000017");
    cr_expect_eq(c.n_z, 4);
    cr_expect_eq(strlen(c.a.label), 318, "%s", c.a.label);
    cr_expect(strcmp(c.a.label + 318 - 5, " nic1") == 0, "%s", c.a.label);
    fp_plan_free(p);
}

/* A network's device named as a server: in the DGX H100 4-SU preset with networks, the storage
 * network's first rail leaf is storage-su01-leaf-r1; servers named storage-su01-leaf-r{i:01}
 * give server 1 that name, and the error says the other device is a server named by the
 * template (at the network, whose name prefixes its switches). */
Test(server_names, errors_network_clash)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_preset(&spec, "dgx-h100-4su-networks", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_set(spec, "/cluster/server_names", "storage-su01-leaf-r{i:01}", &err),
                 FP_OK, "%s", err.msg);
    cr_expect_eq(fp_plan_new(&plan, spec, cat, &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/networks/0/name");
    cr_expect(strstr(err.msg, "switch \"storage-su01-leaf-r1\" has the name of a server of the "
                              "compute fabric (/cluster/server_names)") != NULL, "%s", err.msg);
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}
