/* The cluster's other networks (spec `networks`): validation with JSON pointers, networks built
 * by the Clos builder, dual-homing onto MLAG pairs, the DGX SuperPOD H100 preset against the RA,
 * per-network BOM totals, and plans without the section left as they were. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <unistd.h>
#include "helpers.h"
#include "xlsx_read.h"
#include "plan.h"

/* fp_plan_boundary_links for a boundary the plan has. */
static int64_t boundary_links(const fp_plan *p, int b)
{
    int64_t n = -1;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_boundary_links(p, b, &n, &err), FP_OK, "%s", err.msg);
    return n;
}

#define COMPUTE "\"cluster\": {\"gpus\": 1024, \"gpus_per_server\": 8, \"nics_per_server\": 1, " \
                "\"nic\": \"nvidia-dgx-h100-sys\"}, \"fabric\": {\"topology\": \"rail-optimized\", " \
                "\"switch\": \"nvidia-qm9700\", \"su_servers\": 32}"

/* The preset's plan (tests/helpers.h). */
#define preset_plan plan_from_preset

/* A preset's plan with these stages, after setting the (pointer, value) pairs of `set` (NULL
 * terminated; NULL for none). */
static fp_plan *preset_plan_with(const char *name, unsigned stages, const char *const *set)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    o.stages = stages;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(spec_from_preset(&spec, name, &err), FP_OK, "%s", err.msg);
    for (int k = 0; set && set[k]; k += 2)
        cr_assert_eq(fp_spec_set(spec, set[k], set[k + 1], &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new_opts(&plan, spec, cat, &o, &err), FP_OK, "%s (%s)", err.msg, err.where);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return plan;
}

static int net_index(const fp_plan *p, const char *name)
{
    for (int i = 0; i < fp__plan_net_count(p); i++)
        if (strcmp(fp__plan_net(p, i)->name, name) == 0)
            return i;
    cr_assert_fail("no network %s", name);
    return -1;
}

static int64_t net_switches(const fp_plan *p, int i, int tier)
{
    const fp_fabric *f = fp__plan_net_fabric(p, i);
    return f->level[tier].switches * f->planes;
}

static int64_t net_links(const fp_plan *p, int i, int b)
{
    const fp_fabric *f = fp__plan_net_fabric(p, i);
    return f->boundary_base[b + 1] - f->boundary_base[b];
}

/* Write the plan's formats into a new scratch folder dir (64 bytes; removed when the test
 * process exits). */
static void write_plan(const fp_plan *p, unsigned formats, char dir[64])
{
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = formats;
    scratch_dir(dir, 64, "nets");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
}

/* ---- validation: each error names its place under /networks ---- */

static void expect_error(const char *nets, fp_status code, const char *where, const char *says)
{
    char json[2048];
    fp_error err = { 0 };
    snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE ", \"networks\": %s}", nets);
    cr_assert_eq(plan_error(json, &err), code, "%s -> %d %s", nets, err.code, err.msg);
    cr_assert_str_eq(err.where, where, "%s: where %s (%s)", nets, err.where, err.msg);
    cr_assert(strstr(err.msg, says) != NULL, "%s: message \"%s\" lacks \"%s\"", nets, err.msg, says);
    cr_assert(strncmp(err.msg, where, strlen(where)) == 0 || where[0] == '\0',
              "message starts with its pointer: %s", err.msg);
}

Test(networks, validation_errors_point_into_networks)
{
    expect_error("{}", FP_EINVAL, "/networks", "expected an array");
    expect_error("[]", FP_EINVAL, "/networks", "1 to 8 networks");
    expect_error("[3]", FP_EINVAL, "/networks/0", "expected an object");
    expect_error("[{\"name\": \"s\", \"role\": \"backup\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4600c\"}]",
                 FP_EINVAL, "/networks/0/role", "\"converged\", \"storage\"");
    expect_error("[{\"name\": \"S x\", \"role\": \"storage\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4600c\"}]",
                 FP_EINVAL, "/networks/0", "lower-case");
    expect_error("[{\"name\": \"s\", \"role\": \"storage\", \"switch\": \"nvidia-sn4600c\"}]",
                 FP_EINVAL, "/networks/0/port_gbps", "missing");
    /* A switch too slow for the network's ports: the message's own pointer to the speed is the
     * network's port_gbps (it named the compute fabric's /fabric/link_gbps/0). */
    expect_error("[{\"name\": \"m\", \"role\": \"oob\", \"port_gbps\": 100,"
                 " \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]}]",
                 FP_EINVAL, "/networks/0/switch/0", "100G links below it (/networks/0/port_gbps)");
    /* "compute" names the compute fabric in every output (NetBox tag, the BOM sheet's Network
     * column, plan.json): a network of that name would be filed with it. */
    expect_error("[{\"name\": \"compute\", \"role\": \"oob\", \"port_gbps\": 1,"
                 " \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]}]",
                 FP_EINVAL, "/networks/0/name", "the compute fabric");
    expect_error("[{\"name\": \"s\", \"role\": \"storage\", \"port_gbps\": 100}]",
                 FP_EINVAL, "/networks/0/switch", "missing");
    expect_error("[{\"name\": \"s\", \"role\": \"storage\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4600c\", \"colour\": 1}]",
                 FP_EINVAL, "/networks/0/colour", "");
    expect_error("[{\"name\": \"s\", \"role\": \"oob\", \"port_gbps\": 1, \"dual_homed\": true, \"switch\": \"nvidia-sn2201\"}]",
                 FP_EINVAL, "/networks/0/dual_homed", "exactly 2 ports");
    expect_error("[{\"name\": \"s\", \"role\": \"storage\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4600c\","
                 " \"extra_endpoints\": [{\"name\": \"st\", \"count\": 4, \"ports\": 3}]}]",
                 FP_EINVAL, "/networks/0/extra_endpoints/0", "not a multiple");
    expect_error("[{\"name\": \"o\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": \"nvidia-sn2201\","
                 " \"mlag_peer_links\": 2}]",
                 FP_EINVAL, "/networks/0/mlag_peer_links", "not dual-homed");
    expect_error("[{\"name\": \"c\", \"role\": \"converged\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4600c\","
                 " \"mlag_peer_links\": 17}]",
                 FP_EINVAL, "/networks/0/mlag_peer_links", "");
    /* 16 peer links take a cage each: all 16 ports of a 16-port leaf, none left for the hosts
     * and up links. The fabric stage's error names the field once, under the network. */
    expect_error("[{\"name\": \"c\", \"role\": \"converged\", \"port_gbps\": 100,"
                 " \"switch\": {\"ports\": 16, \"port_gbps\": 100}, \"mlag_peer_links\": 16}]",
                 FP_EDESIGN, "/networks/0/mlag_peer_links", "16 peer links (a cage each) do not fit");
    {
        char json[1024];
        fp_error err = { 0 };
        snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE ", \"networks\": [{\"name\": \"c\","
                 " \"role\": \"converged\", \"port_gbps\": 100, \"switch\": {\"ports\": 16,"
                 " \"port_gbps\": 100}, \"mlag_peer_links\": 16}]}");
        cr_assert_eq(plan_error(json, &err), FP_EDESIGN);
        const char *at = strstr(err.msg, "/mlag_peer_links");
        cr_assert(at != NULL && strstr(at + 1, "/mlag_peer_links") == NULL, "pointer twice: %s", err.msg);
        cr_assert_null(strstr(err.msg, "/networks/0: "), "bare network prefix: %s", err.msg);
    }
    /* Errors of the shared resolver are re-pointed from /fabric/... to the network. */
    expect_error("[{\"name\": \"s\", \"role\": \"storage\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4601\"}]",
                 FP_ECATALOG, "/networks/0/switch", "unknown switch");
    expect_error("[{\"name\": \"a\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]},"
                 " {\"name\": \"b\", \"role\": \"storage\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4600c\", \"tiers\": 9}]",
                 FP_EINVAL, "/networks/1/tiers", "expected \"auto\"");
    expect_error("[{\"name\": \"a\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]},"
                 " {\"name\": \"a\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]}]",
                 FP_EINVAL, "/networks/1", "already the name");
    /* An extra endpoint group's name names its devices (ufm-01, ...): a second group of that
     * name, on another network or the same one, would give NetBox two devices of one name. */
    expect_error("[{\"name\": \"a\", \"role\": \"management\", \"port_gbps\": 100, \"ports_per_server\": 1,"
                 " \"switch\": \"nvidia-sn4600c\", \"extra_endpoints\": [{\"name\": \"ufm\", \"count\": 2}]},"
                 " {\"name\": \"b\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"],"
                 " \"extra_endpoints\": [{\"name\": \"x\", \"count\": 1}, {\"name\": \"ufm\", \"count\": 2}]}]",
                 FP_EINVAL, "/networks/1/extra_endpoints/1/name", "already the name of /networks/0/extra_endpoints/0");
    expect_error("[{\"name\": \"b\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"],"
                 " \"extra_endpoints\": [{\"name\": \"bmc\", \"count\": 1}, {\"name\": \"bmc\", \"count\": 3}]}]",
                 FP_EINVAL, "/networks/0/extra_endpoints/1/name", "already the name of /networks/0/extra_endpoints/0");
    /* Endpoint devices are named "<group>-NN": a group named like a generated device name
     * would give two devices one name (NetBox refuses it; the cable sheets would be
     * ambiguous). The compute fabric has spine-01 and spine-02 (1,024 GPUs, 2 tiers); the oob
     * network's top tier is oob-spine-01. */
    expect_error("[{\"name\": \"o\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"],"
                 " \"extra_endpoints\": [{\"name\": \"spine\", \"count\": 2, \"ru\": 0}]}]",
                 FP_EINVAL, "/networks/0/extra_endpoints/0/name",
                 "\"spine-01\" has the name of a device of the compute fabric");
    expect_error("[{\"name\": \"oob\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]},"
                 " {\"name\": \"inb\", \"role\": \"management\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4600c\","
                 " \"extra_endpoints\": [{\"name\": \"ufm\", \"count\": 1}, {\"name\": \"oob-spine\", \"count\": 2}]}]",
                 FP_EINVAL, "/networks/1/extra_endpoints/1/name",
                 "\"oob-spine-01\" has the name of a device of network \"oob\"");
    /* Sizing errors (the fabric stage) too: 128 hosts do not fit 2 tiers of 8-port switches at
     * 1:1 (4 down per leaf, 8 leaves per spine: 32 hosts at most). */
    expect_error("[{\"name\": \"m\", \"role\": \"management\", \"port_gbps\": 100, \"tiers\": 2,"
                 " \"switch\": {\"ports\": 8, \"port_gbps\": 100}}]",
                 FP_EDESIGN, "/networks/0/tiers", "2-tier maximum");
}

/* ---- the DGX SuperPOD H100 networks (SUPERPOD_V1; the preset itself: test_superpod.c) ---- */

/* NVIDIA DGX SuperPOD H100 RA (RA-11333-001), "Network Fabrics", Table 4 "Compute fabric
 * component count", row SU count 4: 32 leaf and 16 spine QM9700, 1,024 spine-leaf cables (the
 * 1,020 compute-and-UFM cables are 127 nodes x 8 + 4 UFM; SUPERPOD_V1 (tests/helpers.h) plans the full 128 nodes,
 * 128 x 8 = 1,024). The compute fabric must not change when networks are added. */
Test(networks, superpod_h100_compute_matches_ra_table4)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    cr_assert_eq(tier_switches(p, 1), 32);
    cr_assert_eq(tier_switches(p, 2), 16);
    cr_assert_eq(boundary_links(p, 0), 128 * 8);
    cr_assert_eq(boundary_links(p, 1), 1024);
    cr_assert_eq(fp__plan_net_count(p), 3);
    fp_plan_free(p);
}

/* The other networks, counts derived by hand from SUPERPOD_V1 (tests/helpers.h):
 * storage: 128 DGX x 2 ports at 400G on QM9700 (64 ports at 400G), 1:1 -> 32 down, 32 up per
 *   leaf; MLAG-style pairs of 32 hosts: ceil(128/32) = 4 pairs = 8 leaves; 8 x 32 = 256 uplinks
 *   over 64-port spines = 4 spines; 256 host links.
 * in-band: 128 DGX + 5 management servers + 4 UFM appliances (RA Table 7) = 137 hosts x 2 ports
 *   at 100G on SN4600C (64 x 100G), 1:1 -> 32 down: ceil(137/32) = 5 pairs = 10 leaves, the hosts
 *   spread evenly: ceil(137/5) = 28 per pair, so 28 down and 28 up per leaf; 274 host links;
 *   10 x 28 = 280 leaf-spine links, over 64-port spines: at least ceil(280/64) = 5 spines.
 * oob: 128 DGX BMCs + 5 + 4 BMCs + 78 switch management ports = 215 ports at 1G on SN2201
 *   (48 x 1G RJ45 down, 4 x 100G QSFP28 up, datasheet). The compute fabric is rail-optimized in
 *   32-server SUs, so the single-homed oob takes those units: ceil(215/32) = 7 leaves (6 x 32
 *   + 23); each leaf's 32 x 1G need ceil(32 / 100) = 1 uplink of 100G at 1:1; the 7 uplinks
 *   land on one SN4600C (64 x 100G): 215 + 7 links. */
Test(networks, superpod_h100_networks_counts)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    int s = net_index(p, "storage"), ib = net_index(p, "inband"), o = net_index(p, "oob");
    cr_assert_eq(net_switches(p, s, 1), 8);
    cr_assert_eq(net_links(p, s, 0), 256);
    cr_assert_eq(net_links(p, s, 1), 256);
    cr_assert_geq(net_switches(p, s, 2), 4);
    cr_assert_eq(net_switches(p, ib, 1), 10);
    cr_assert_eq(net_links(p, ib, 0), 274);
    cr_assert_eq(net_links(p, ib, 1), 280);
    cr_assert_geq(net_switches(p, ib, 2), 5);
    cr_assert_eq(fp__plan_net(p, o)->hosts, 128 + 5 + 4 + 78);
    cr_assert_eq(net_switches(p, o, 1), 7);
    cr_assert_eq(net_switches(p, o, 2), 1);
    cr_assert_eq(net_links(p, o, 0), 215);
    cr_assert_eq(net_links(p, o, 1), 7);
    cr_assert_eq(fp__plan_net(p, o)->rs.tier[1].gbps_down, 100);
    /* Metrics: storage bisection = half of 256 links x 400G at its narrowest boundary (both are
     * 256 x 400G): 51,200 Gb/s; oob by its 215 host links at 1G (its 7 uplinks carry 700G):
     * 107.5 Gb/s. Switch failures
     * per day: 12 QM9700 x 24 h / the catalog's 250,000 h MTBF. */
    int64_t unknown = -1;
    const fp_net_spec *sn = fp__plan_net(p, s);
    cr_assert_float_eq(fp__net_bisection_gbps(fp__plan_net_fabric(p, s), &sn->rs), 256 * 400 / 2.0, 1e-9);
    cr_assert_float_eq(fp__net_bisection_gbps(fp__plan_net_fabric(p, o), &fp__plan_net(p, o)->rs), 107.5, 1e-9);
    cr_assert_float_eq(fp__net_switch_failures_per_day(fp__plan_net_fabric(p, s), &sn->rs, &unknown),
                       12 * 24 / 250000.0, 1e-12);
    cr_assert_eq(unknown, 0);
    fp_plan_free(p);
}

/* ---- dual-homing ---- */

/* Every host's two ports land on two different leaves that are MLAG peers; failing either leaf
 * of any pair leaves every host with a live link into the fabric (checked by failing each leaf
 * in turn and walking every host's links). */
Test(networks, dual_homed_hosts_survive_any_one_leaf)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    int n = net_index(p, "inband");
    const fp_net_spec *ns = fp__plan_net(p, n);
    const fp_fabric *f = fp__plan_net_fabric(p, n);
    cr_assert(ns->dual_homed);
    cr_assert_eq(f->servers, 137);
    int64_t *first = malloc(sizeof(int64_t) * (size_t)f->servers);
    int64_t *second = malloc(sizeof(int64_t) * (size_t)f->servers);
    cr_assert(first && second);
    for (int64_t h = 0; h < f->servers; h++)
        first[h] = second[h] = -1;
    for (int64_t l = f->boundary_base[0]; l < f->boundary_base[1]; l++) {
        const fp_link *lk = &f->link[l];
        cr_assert(lk->a < f->servers);
        if (first[lk->a] < 0)
            first[lk->a] = lk->z;
        else {
            cr_assert_eq(second[lk->a], -1, "host %d has more than two links", lk->a);
            second[lk->a] = lk->z;
        }
    }
    int64_t paired = 0, survive = 0;
    fp__net_dual_check(f, ns, &paired, &survive);
    cr_assert_eq(paired, 137);
    cr_assert_eq(survive, 137);
    for (int64_t h = 0; h < f->servers; h++) {
        cr_assert(first[h] >= 0 && second[h] >= 0, "host %lld not dual-homed", (long long)h);
        cr_assert_neq(first[h], second[h], "host %lld: both ports on one leaf", (long long)h);
        cr_assert_eq(fp__mlag_peer(f, ns, first[h]), second[h], "host %lld: leaves not a pair", (long long)h);
    }
    /* Every leaf has uplinks, so a host on a live leaf reaches the rest of the network. */
    for (int64_t leaf = f->tier_base[1]; leaf < f->tier_base[1] + f->level[1].switches; leaf++) {
        int64_t up = 0;
        for (int64_t l = f->boundary_base[1]; l < f->boundary_base[2]; l++)
            up += f->link[l].a == leaf;
        cr_assert_gt(up, 0);
        for (int64_t h = 0; h < f->servers; h++)
            cr_assert(first[h] != leaf || second[h] != leaf);
    }
    free(first);
    free(second);
    fp_plan_free(p);
}

/* A single-homed network (management, one port) is built as a plain Clos: no MLAG pairs. */
Test(networks, single_homed_has_no_pairs)
{
    fp_plan *p = plan_from("{\"name\": \"t\", " COMPUTE ", \"networks\": [{\"name\": \"mgmt\", "
                           "\"role\": \"management\", \"port_gbps\": 100, \"switch\": \"nvidia-sn4600c\"}]}");
    const fp_fabric *f = fp__plan_net_fabric(p, 0);
    cr_assert_eq(fp__plan_net(p, 0)->dual_homed, 0);
    /* 128 hosts x 1 port, 32 down per leaf at 1:1: 4 leaves. */
    cr_assert_eq(f->level[1].switches, 4);
    cr_assert_eq(fp__mlag_peer(f, fp__plan_net(p, 0), f->tier_base[1]), -1);
    fp_plan_free(p);
}

/* ---- BOM: per-network totals, and the cluster total their sum plus the compute fabric ---- */

Test(networks, bom_totals_sum)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    char *text = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_to_json(p, &text, &err), FP_OK, "%s", err.msg);
    cJSON *root = cJSON_Parse(text);
    cr_assert(root);
    double sum = fp__plan_bom(p)->totals.cost;     /* the compute fabric's BOM */
    cJSON *nets = cJSON_GetObjectItem(root, "networks"), *n;
    cr_assert_eq(cJSON_GetArraySize(nets), 3);
    cJSON_ArrayForEach(n, nets) {
        cJSON *b = cJSON_GetObjectItem(n, "bom"), *l;
        double lines = 0;
        cJSON_ArrayForEach(l, cJSON_GetObjectItem(b, "lines"))
            if (strcmp(cJSON_GetObjectItem(l, "category")->valuestring, "endpoint") != 0)
                lines += cJSON_GetObjectItem(l, "extended_usd")->valuedouble;
        cr_assert_float_eq(lines, cJSON_GetObjectItem(b, "cost_usd")->valuedouble, 1e-6);
        sum += cJSON_GetObjectItem(b, "cost_usd")->valuedouble;
    }
    /* Storage: 12 QM9700 at the catalog's $28,000 each (8 leaves + 4 spines), plus its
     * modules, cables and fibre: each line quantity x unit price, added up here by hand. */
    cJSON *st = cJSON_GetArrayItem(nets, 0);
    double parts = 0;
    int64_t switches = 0;
    cJSON_ArrayForEach(n, cJSON_GetObjectItem(cJSON_GetObjectItem(st, "bom"), "lines")) {
        const char *cat = cJSON_GetObjectItem(n, "category")->valuestring;
        double q = cJSON_GetObjectItem(n, "quantity")->valuedouble;
        if (strcmp(cat, "switch") == 0)
            switches += (int64_t)q;
        else
            parts += q * cJSON_GetObjectItem(n, "unit_usd")->valuedouble;
    }
    cr_assert_eq(switches, 8 + net_switches(p, 0, 2));
    cr_assert_gt(parts, 0, "the storage network's cables and modules are priced");
    cr_assert_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(st, "bom"), "cost_usd")->valuedouble,
                       (double)(8 + net_switches(p, 0, 2)) * 28000 + parts, 1e-6);
    cr_assert_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "cluster_totals"), "cost_usd")->valuedouble,
                       sum, 1e-3);
    cJSON_Delete(root);
    free(text);
    fp_plan_free(p);
}

/* Without `networks`, plan.json has neither section (outputs stay as they were). */
Test(networks, absent_section_adds_nothing)
{
    fp_plan *p = preset_plan("dgx-h100-4su");
    char *text = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp__plan_net_count(p), 0);
    cr_assert_eq(fp_plan_to_json(p, &text, &err), FP_OK, "%s", err.msg);
    cr_assert_null(strstr(text, "\"networks\""));
    cr_assert_null(strstr(text, "\"cluster_totals\""));
    free(text);
    fp_plan_free(p);
}

/* ---- links.csv: a network column; every network link once, with its network ---- */

Test(networks, links_csv_network_column)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    char dir[64], path[128];
    o.formats = FP_WRITE_LINKS;
    scratch_dir(dir, sizeof dir, "nets");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/links.csv", dir);
    csv_file c = csv_load(path);
    cr_assert_str_eq(c.line[0], "link_id,a_device,a_port,z_device,z_port,speed_gbps,boundary,plane,network");
    /* Compute 1,024 + 1,024 (RA Table 4), storage 256 + 256, in-band 274 + 280 and 5 pairs x 2
     * MLAG peer links (Ethernet: two per pair; the InfiniBand storage pairs have none), oob
     * 215 + 7 (derivations in superpod_h100_networks_counts). */
    int64_t compute = 0, storage = 0, inband = 0, oob = 0, pair_ok = 0;
    for (long i = 1; i < c.n; i++) {
        const char *net = strrchr(c.line[i], ',') + 1;
        compute += strcmp(net, "compute") == 0;
        storage += strcmp(net, "storage") == 0;
        inband += strcmp(net, "inband") == 0;
        oob += strcmp(net, "oob") == 0;
        /* An in-band host link: the server's port 1 goes to leaf r1, port 2 to r2 of its pair. */
        if (strncmp(c.line[i], "inband-L", 8) == 0 && strstr(c.line[i], ",nic-leaf,"))
            pair_ok += (strstr(c.line[i], "inband-p1,") && strstr(c.line[i], "-leaf-r1,")) ||
                       (strstr(c.line[i], "inband-p2,") && strstr(c.line[i], "-leaf-r2,"));
    }
    cr_assert_eq(c.n - 1, compute + storage + inband + oob);
    cr_assert_eq(compute, 2048);
    cr_assert_eq(storage, 512);
    cr_assert_eq(inband, 274 + 280 + 5 * 2);
    cr_assert_eq(oob, 215 + 7);
    cr_assert_eq(pair_ok, 274);
    /* Servers keep their compute names on every network. */
    int found = 0;
    for (long i = 1; i < c.n; i++)
        found += strncmp(c.line[i], "inband-L0000001,su01-node-01,inband-p1,inband-su01-leaf-r1,", 59) == 0;
    cr_assert_eq(found, 1);
    csv_free(&c);
    fp_plan_free(p);
}

/* ---- placement: rack units and power include the networks' devices ---- */

/* Rack units added over all racks = every network switch's RU + every extra endpoint's RU:
 * QM9700 1U, SN4600C 2U, SN2201 1U (datasheets), 5 management servers and 4 UFM appliances x 1U
 * (the BMC and switch-management entries take no space). Switch counts are the fabric's. */
Test(networks, placement_units_and_power)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    const fp_net_place *pl = fp__plan_net_place(p);
    const fp_layout *lay = fp__plan_layout(p);
    int64_t ru = 0;
    double w = 0, w_expect = 0;
    for (int64_t k = 0; k < pl->n_add; k++) {
        ru += pl->add[k].ru;
        w += fp__plan_racks(p)->net_power_w[pl->add[k].rack];
        cr_assert_leq(pl->add[k].ru + (pl->add[k].rack < lay->n_rack ? lay->rack[pl->add[k].rack].units_used : 0),
                      42, "rack %lld over its units", (long long)pl->add[k].rack);
    }
    int s = net_index(p, "storage"), ib = net_index(p, "inband");
    int64_t n_st = net_switches(p, s, 1) + net_switches(p, s, 2);
    int64_t n_ib = net_switches(p, ib, 1) + net_switches(p, ib, 2);
    int64_t n_oob = net_switches(p, net_index(p, "oob"), 1);     /* SN2201 leaves */
    int64_t n_oob_agg = net_switches(p, net_index(p, "oob"), 2); /* SN4600C */
    cr_assert_eq(n_st, 12);
    cr_assert_eq(n_oob, 7);
    cr_assert_eq(n_oob_agg, 1);
    cr_assert_eq(ru, n_st * 1 + n_ib * 2 + n_oob * 1 + n_oob_agg * 2 + 9);
    /* Power: switches at the catalog's figures (QM9700 750 W, SN4600C 400 W, SN2201 100 W),
     * plus every network module and powered cable in service as the networks' BOMs count them
     * (the racks add them up from the cabling, per cage and cable end). */
    w_expect = (double)n_st * 750.0 + (double)(n_ib + n_oob_agg) * 400.0 + (double)n_oob * 100.0;
    for (int i = 0; i < fp__plan_net_count(p); i++) {
        const fp_net_bom *b = fp__plan_net_bom(p, i);
        for (int k = 0; k < b->n; k++)
            if (strcmp(b->line[k].category, "switch") != 0 && strcmp(b->line[k].category, "endpoint") != 0)
                w_expect += b->line[k].ext_w;
    }
    cr_assert_gt(w_expect, (double)n_st * 750.0 + (double)(n_ib + n_oob_agg) * 400.0 + (double)n_oob * 100.0);
    cr_assert_float_eq(w, w_expect, 0.01 * (double)pl->n_add);
    /* Out-of-band leaves stand in the compute rack of their first host (one per scalable unit
     * of 32 servers: the 4 SUs' leaves), the rest in management racks. */
    int o = net_index(p, "oob"), in_compute = 0;
    const fp_fabric *f = fp__plan_net_fabric(p, o);
    for (int64_t l = f->boundary_base[0]; l < f->boundary_base[1]; l++) {
        const fp_link *lk = &f->link[l];
        if (lk->a < 128 && l == f->boundary_base[0] + (lk->z - f->tier_base[1]) * 32) {
            cr_assert_eq(pl->dev_rack[o][lk->z], lay->dev_rack[lk->a]);
            in_compute++;
        }
    }
    cr_assert_eq(in_compute, 4);
    cr_assert_eq(pl->mgmt_racks, 2);
    fp_plan_free(p);
}

/* HGX H100 Enterprise RA pattern: 32 nodes, each with two 200 GbE converged ports to two separate
 * switches (RA "Network Logical Architecture"). SN5600 at 200G: 64 x 800G split 4 ways = 256
 * ports, 1:1 -> 128 down: one pair holds all 32 hosts: 2 leaves, 64 host links, 32 up per leaf;
 * out-of-band: 32 BMCs on one SN2201 leaf (48 x 1G down), whose 32G need one of its 100G
 * uplinks (ceil(32 / 100) = 1, to the SN4600C aggregation). */
Test(networks, hgx_enterprise_converged_pair)
{
    fp_plan *p = preset_plan("hgx-h100-enterprise-32");
    int c = net_index(p, "converged"), o = net_index(p, "oob");
    int64_t paired = 0, survive = 0;
    cr_assert_eq(net_switches(p, c, 1), 2);
    cr_assert_eq(net_links(p, c, 0), 64);
    cr_assert_eq(net_links(p, c, 1), 64);
    fp__net_dual_check(fp__plan_net_fabric(p, c), fp__plan_net(p, c), &paired, &survive);
    cr_assert_eq(paired, 32);
    cr_assert_eq(survive, 32);
    cr_assert_eq(net_switches(p, o, 1), 1);
    cr_assert_eq(net_links(p, o, 0), 32);
    cr_assert_eq(net_links(p, o, 1), 1);
    fp_plan_free(p);
}

/* Reliability per network, from its own parts as the compute fabric's is from its BOM (parts in
 * service, independent, exponential lifetimes: failures per day = 24 x sum(quantity / MTBF)).
 * The DGX preset's out-of-band network (superpod_h100_networks_counts): 7 SN2201 leaves
 * (catalog MTBF 300,000 h) and 1 SN4600C (250,000 h): 24 x (7/300,000 + 1/250,000) = 0.000656
 * switch failures a day, the first after 1 / (7/300,000 + 1/250,000) = 36,585.4 h. Links: 215
 * Cat6A cords (5,000,000 h) and its 7 uplinks, each a 100G DAC (2,000,000 h) or an OM4 cord
 * (5,000,000 h) between two SR4 modules (87,600 h), as network_cables_by_reach checks them. The
 * BMCs and switch management ports are the servers' and switches' own: nothing else counts. */
Test(networks, reliability_per_network)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    int o = net_index(p, "oob");
    const fp_fabric *f = fp__plan_net_fabric(p, o);
    const fp_cabling *cab = &fp__plan_net_phys(p)->cab[o];
    int64_t dac = 0, fibre = 0;
    for (int64_t l = f->boundary_base[1]; l < f->boundary_base[2]; l++) {
        dac += cab->link_medium[l] == FP_MEDIUM_DAC;
        fibre += cab->link_medium[l] == FP_MEDIUM_MMF;
    }
    cr_assert_eq(dac + fibre, 7);
    double sw_h = 7 / 300000.0 + 1 / 250000.0;
    double cable_h = 215 / 5e6 + (double)dac / 2e6 + (double)fibre / 5e6;
    double xcvr_h = 2.0 * (double)fibre / 87600.0;
    fp_reliability r;
    fp__net_reliability(fp__plan_net_bom(p, o), &r);
    cr_assert_float_eq(r.switch_failures_per_day, 24 * sw_h, 1e-12);
    cr_assert_float_eq(24 * sw_h, 0.000656, 1e-9);
    cr_assert_float_eq(r.hours_to_first_switch_failure, 1 / sw_h, 1e-6);
    cr_assert_float_eq(r.cable_failures_per_day, 24 * cable_h, 1e-12);
    cr_assert_float_eq(r.transceiver_failures_per_day, 24 * xcvr_h, 1e-12);
    cr_assert_float_eq(r.link_failures_per_day, 24 * (cable_h + xcvr_h), 1e-12);
    cr_assert_float_eq(r.hours_to_first_link_failure, 1 / (cable_h + xcvr_h), 1e-6);
    cr_assert_eq(r.nic_failures_per_day, 0);
    cr_assert_eq(r.units_without_mtbf, 0);

    /* plan.json carries it in networks[].metrics.reliability, as the compute fabric's. */
    char dir[64], path[128];
    write_plan(p, FP_WRITE_JSON, dir);
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *text = slurp(path);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root);
    const cJSON *nets = cJSON_GetObjectItemCaseSensitive(root, "networks");
    const cJSON *rel = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(nets, o), "metrics"), "reliability");
    const cJSON *per_day = cJSON_GetObjectItemCaseSensitive(rel, "failures_per_day");
    cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(per_day, "switches")->valuedouble, 24 * sw_h, 1e-12);
    cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(per_day, "links")->valuedouble,
                       24 * (cable_h + xcvr_h), 1e-12);
    cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(rel, "hours_to_first_switch_failure")->valuedouble,
                       1 / sw_h, 1e-6);
    cJSON_Delete(root);
    free(text);
    fp_plan_free(p);
}

/* The public view: one entry per network, its figures those of the plan's network. */
Test(networks, public_getters)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    fp_network_info ni;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_network_count(p), 3);
    cr_assert_eq(fp_plan_network(p, 1, &ni, &err), FP_OK);
    cr_assert_str_eq(ni.name, "inband");
    cr_assert_str_eq(ni.role, "management");
    cr_assert_eq(ni.dual_homed, 1);
    cr_assert_eq(ni.hosts, 137);
    cr_assert_eq(ni.links, 274 + 280 + 5 * 2);     /* host, leaf-spine and MLAG peer links */
    cr_assert_eq(ni.hosts_on_pairs, 137);
    cr_assert_eq(ni.switches, net_switches(p, 1, 1) + net_switches(p, 1, 2));
    /* 10 leaves + spines at the catalog's $25,000 per SN4600C, and its cabling's lines. */
    const fp_net_bom *b = fp__plan_net_bom(p, 1);
    double cabling = 0;
    for (int k = 0; k < b->n; k++)
        if (strcmp(b->line[k].category, "switch") != 0)
            cabling += b->line[k].ext_usd;
    cr_assert_gt(cabling, 0);
    cr_assert_float_eq(ni.cost_usd, (double)ni.switches * 25000 + cabling, 1e-6);
    /* Pairs named by protocol: in-band is Ethernet (SN4600C), MLAG pairs; storage InfiniBand
     * (QM9700), which has no MLAG: leaf pairs; out-of-band single-homed: none. */
    cr_assert_str_eq(ni.pair_name, "MLAG pair");
    cr_assert_eq(fp_plan_network(p, 0, &ni, &err), FP_OK);
    cr_assert_str_eq(ni.name, "storage");
    cr_assert_eq(ni.dual_homed, 1);
    cr_assert_str_eq(ni.pair_name, "leaf pair");
    cr_assert_eq(fp_plan_network(p, 2, &ni, &err), FP_OK);
    cr_assert_eq(ni.dual_homed, 0);
    cr_assert_str_eq(ni.pair_name, "");
    cr_assert_eq(fp_plan_network(p, 3, &ni, &err), FP_EINVAL);
    fp_plan_free(p);
    p = preset_plan("dgx-h100-4su");
    cr_assert_eq(fp_plan_network_count(p), 0);
    fp_plan_free(p);
}

/* ---- the networks' cables: media, length and price by reach ---- */

/* Each network is cabled by the compute fabric's rules, so by reach:
 * in-band (100 GbE on SN4600C QSFP28 ports): a link whose route fits the MCP1600 DAC's longest
 *   stock length (5 m, NVIDIA MCP1600-C0xx datasheet) takes that DAC at the shortest stock
 *   length >= its route; every longer one takes two MMA1B00-C100D SR4 modules (100 m on OM4,
 *   more than any run on this floor) and an OM4 MPO-12 cord; so the in-band modules number
 *   2 x the links over 5 m.
 * out-of-band: the 215 host links (1 GbE on SN2201 RJ45 ports) take the Cat6A cord, the
 *   catalog's only 1G part, each priced $3 + $0.60 per metre of stock length (the catalog's
 *   estimate), no modules; the 7 leaf uplinks leave the SN2201's 100G QSFP28 ports, so they
 *   follow the in-band rule above: the 100G DAC up to 5 m, else two SR4 modules and OM4. */
Test(networks, network_cables_by_reach)
{
    static const double dac_stock[] = { 0.5, 1, 1.5, 2, 2.5, 3, 5 };
    fp_plan *p = preset_plan(SUPERPOD_V1);
    const fp_net_phys *np = fp__plan_net_phys(p);
    int ib = net_index(p, "inband"), o = net_index(p, "oob");
    const fp_cabling *cab = &np->cab[ib];
    const fp_fabric *f = fp__plan_net_fabric(p, ib);
    const fp_phys_spec *ps = &fp__plan_net(p, ib)->rs.phys;
    int64_t over5 = 0, dac = 0;
    for (int64_t l = 0; l < f->n_link; l++) {
        const fp_cable *cb = &cab->cable[cab->link_cable[l]];
        double route = cab->link_route[l];
        cr_assert_gt(route, 0);
        cr_assert_geq(cb->stock_m + 1e-6, route, "link %lld: stock %g m < route %g m", (long long)l,
                      cb->stock_m, route);
        if (route <= 5.0) {
            double want = 0;
            for (size_t k = 0; k < sizeof dac_stock / sizeof *dac_stock && want == 0; k++)
                if (dac_stock[k] + 1e-6 >= route)
                    want = dac_stock[k];
            cr_assert_eq(cab->link_medium[l], FP_MEDIUM_DAC, "link %lld at %g m", (long long)l, route);
            cr_assert_str_eq(ps->parts[cb->part].id, "nvidia-mcp1600-c0xx");
            cr_assert_float_eq(cb->stock_m, want, 1e-6);
            dac++;
        } else {
            cr_assert_eq(cab->link_medium[l], FP_MEDIUM_MMF, "link %lld at %g m", (long long)l, route);
            cr_assert_str_eq(ps->parts[cb->part].id, "fibre-om4-mpo12");
            over5++;
        }
    }
    cr_assert_gt(dac, 0);
    cr_assert_gt(over5, 0);
    const fp_net_bom *b = fp__plan_net_bom(p, ib);
    int64_t mods = 0, cords = 0;
    for (int k = 0; k < b->n; k++) {
        if (b->line[k].spare)
            continue;
        if (strcmp(b->line[k].category, "transceiver") == 0) {
            cr_assert_str_eq(b->line[k].part, "nvidia-mma1b00-c100d");
            mods += b->line[k].qty;
        }
        if (strcmp(b->line[k].category, "copper") == 0 || strcmp(b->line[k].category, "fibre") == 0)
            cords += b->line[k].qty;
    }
    cr_assert_eq(mods, 2 * over5);
    cr_assert_eq(b->transceivers, 2 * over5);
    cr_assert_eq(cords, f->n_link);
    cr_assert_eq(b->cables_by_medium[FP_MEDIUM_DAC] + b->cables_by_medium[FP_MEDIUM_MMF], f->n_link);

    cab = &np->cab[o];
    f = fp__plan_net_fabric(p, o);
    ps = &fp__plan_net(p, o)->rs.phys;
    int64_t up_fibre = 0, up_dac = 0;
    for (int64_t l = 0; l < f->n_link; l++) {
        const fp_cable *cb = &cab->cable[cab->link_cable[l]];
        const char *id = ps->parts[cb->part].id;
        if (f->link[l].boundary == 0) {
            cr_assert_str_eq(id, "generic-cat6a-rj45", "host link %lld", (long long)l);
            cr_assert_eq(cab->link_medium[l], FP_MEDIUM_TP, "host link %lld", (long long)l);
        } else if (cab->link_route[l] <= 5.0) {
            cr_assert_str_eq(id, "nvidia-mcp1600-c0xx", "uplink %lld at %g m", (long long)l, cab->link_route[l]);
            up_dac++;
        } else {
            cr_assert_str_eq(id, "fibre-om4-mpo12", "uplink %lld at %g m", (long long)l, cab->link_route[l]);
            up_fibre++;
        }
    }
    cr_assert_eq(up_dac + up_fibre, 7);
    cr_assert_gt(up_fibre, 0);
    b = fp__plan_net_bom(p, o);
    cords = mods = 0;
    for (int k = 0; k < b->n; k++) {
        const fp_net_bom_line *l = &b->line[k];
        if (l->spare)
            continue;
        if (strcmp(l->category, "transceiver") == 0) {
            cr_assert_str_eq(l->part, "nvidia-mma1b00-c100d");
            mods += l->qty;
        }
        if (strcmp(l->category, "copper") != 0 || strcmp(l->part, "generic-cat6a-rj45") != 0)
            continue;
        cr_assert_float_eq(l->unit_usd, 3 + 0.6 * l->length_m, 1e-9);
        cr_assert_float_eq(l->ext_usd, l->unit_usd * (double)l->qty, 1e-9);
        cords += l->qty;
    }
    cr_assert_eq(cords, 215);
    cr_assert_eq(mods, 2 * up_fibre);
    cr_assert_eq(b->cables, 215 + 7);
    /* By medium: the 215 Cat6A cords are twisted pair, not DAC; DAC only the 100G uplinks. */
    cr_assert_eq(b->cables_by_medium[FP_MEDIUM_TP], 215);
    cr_assert_eq(b->cables_by_medium[FP_MEDIUM_DAC], up_dac);
    cr_assert_eq(b->cables_by_medium[FP_MEDIUM_MMF], up_fibre);
    cr_assert_eq(fp__plan_net_bom(p, ib)->cables_by_medium[FP_MEDIUM_TP], 0);
    fp_plan_free(p);
}

/* The SN2201's uplinks at full scale: the DGX preset's networks beside a 131,072-GPU, 4-tier
 * compute fabric (16,384 DGX). Before the SN2201 had its 4 x 100G QSFP28 uplinks it was 52 x 1G
 * and an out-of-band leaf-to-aggregation run of 115.8 m had only the 1G Cat6A cord (100 m
 * channel, TIA-568): the plan stopped. Now every host link is Cat6A (a leaf serves one 32-server
 * SU, whose racks stand together), every uplink leaves a QSFP28 port (swp49-swp52) at 100G, and
 * runs beyond copper's reach take fibre: over the 100G DAC's 5 m an SR4 pair on OM4 (100 m,
 * MMA1B00-C100D datasheet), over 100 m a CWDM4 pair on single-mode (2 km, MMA1L30-CM). Some
 * uplink on this floor runs past 100 m (the aggregation stands in a central management rack). */
Test(networks, oob_uplinks_at_full_scale_take_fibre, .timeout = TEST_TIMEOUT(120))
{
    static const char *const set[] = { "/cluster/gpus", "131072", "/fabric/tiers", "4", NULL };
    fp_plan *p = preset_plan_with(SUPERPOD_V1, FP_STAGE_CABLING, set);
    int o_net = net_index(p, "oob");
    const fp_fabric *f = fp__plan_net_fabric(p, o_net);
    const fp_net_spec *ns = fp__plan_net(p, o_net);
    const fp_cabling *cab = &fp__plan_net_phys(p)->cab[o_net];
    cr_assert_eq(f->level[1].switches, (16384 + 5 + 4 + 78 + 31) / 32);  /* a leaf per SU */
    int64_t host = 0, smf = 0, mmf = 0, dac = 0;
    for (int64_t l = f->boundary_base[0]; l < f->boundary_base[2]; l++) {
        const fp_link *k = &f->link[l];
        const char *id = ns->rs.phys.parts[cab->cable[cab->link_cable[l]].part].id;
        double route = cab->link_route[l];
        if (k->boundary == 0) {
            cr_assert_str_eq(id, "generic-cat6a-rj45");
            cr_assert_leq(route, 100.0);
            host++;
            continue;
        }
        char port[FP_PORT_NAME_MAX];
        fp__net_port_name(port, sizeof port, ns, f, k->a, k->a_port);
        cr_assert(strcmp(port, "swp49") >= 0 && strcmp(port, "swp52") <= 0 && strlen(port) == 5,
                  "uplink on %s", port);
        cr_assert_eq(ns->rs.gbps[1], 100);
        if (route > 100.0) {
            cr_assert_eq(cab->link_medium[l], FP_MEDIUM_SMF, "%g m uplink on %s", route, id);
            smf++;
        } else if (route > 5.0) {
            cr_assert_eq(cab->link_medium[l], FP_MEDIUM_MMF, "%g m uplink on %s", route, id);
            mmf++;
        } else {
            dac++;
        }
    }
    cr_assert_eq(host, ns->hosts);
    cr_assert_eq(smf + mmf + dac, f->level[1].switches);
    cr_assert_gt(smf, 0);
    fp_plan_free(p);
}

/* ---- cables.csv, labels.csv, topology.csv: a network column and every network's cables ---- */

static const char *last_field(const char *line)
{
    const char *c = strrchr(line, ',');
    return c ? c + 1 : line;
}

/* In-band: 274 + 280 = 554 links, out-of-band 215 + 18 = 233 (superpod_h100_networks_counts);
 * out-of-band cords are straight Cat6A, one per link, so 233 cables, each labelled at its A and
 * Z end. Cable ids stay unique in the plan: the networks' number on after the compute fabric's
 * 2,048 links (RA Table 4: 1,024 + 1,024). Without `networks` no column is added (the header is
 * the plain one: absent_section_adds_nothing covers plan.json). */
Test(networks, cables_labels_topology_network_column)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    char dir[64], path[160];
    write_plan(p, FP_WRITE_CABLES | FP_WRITE_LABELS | FP_WRITE_TOPOLOGY, dir);

    snprintf(path, sizeof path, "%s/cables.csv", dir);
    csv_file c = csv_load(path);
    cr_assert_str_eq(last_field(c.line[0]), "network");
    int64_t compute = 0, oob = 0, inband = 0, storage = 0, max_compute_id = 0, min_net_id = -1;
    for (long i = 1; i < c.n; i++) {
        const char *net = last_field(c.line[i]);
        long long id = atoll(c.line[i] + 1);
        if (strcmp(net, "compute") == 0) {
            compute++;
            max_compute_id = id > max_compute_id ? id : max_compute_id;
            continue;
        }
        min_net_id = min_net_id < 0 || id < min_net_id ? id : min_net_id;
        oob += strcmp(net, "oob") == 0;
        inband += strcmp(net, "inband") == 0;
        storage += strcmp(net, "storage") == 0;
        if (strcmp(net, "oob") == 0)    /* host links at 1G on Cat6A, uplinks at 100G */
            cr_assert(strstr(c.line[i], ",TP,1,generic-cat6a-rj45,") != NULL ||
                      (strstr(c.line[i], ",100,") != NULL && strstr(c.line[i], ",swp49,") != NULL),
                      "%s", c.line[i]);
        if (strcmp(net, "inband") == 0)
            cr_assert(strstr(c.line[i], ",100,") != NULL, "%s", c.line[i]);
    }
    cr_assert_eq(compute, (int64_t)fp_plan_cable_count(p));
    cr_assert_eq(oob, 215 + 7);
    cr_assert_eq(inband, 554 + 10); /* 100G: straight DAC or one SR4 cord per link, and the
                                       5 pairs' 2 peer links each */
    cr_assert_eq(storage, (int64_t)fp_plan_net_cable_count(p, (size_t)net_index(p, "storage") + 1));
    cr_assert_leq(max_compute_id, 2048);
    cr_assert_eq(min_net_id, 2049);
    csv_free(&c);

    snprintf(path, sizeof path, "%s/labels.csv", dir);
    c = csv_load(path);
    cr_assert_str_eq(last_field(c.line[0]), "network");
    int64_t oob_labels = 0;
    for (long i = 1; i < c.n; i++)
        oob_labels += strcmp(last_field(c.line[i]), "oob") == 0;
    cr_assert_eq(oob_labels, 2 * (215 + 7));
    csv_free(&c);

    snprintf(path, sizeof path, "%s/topology.csv", dir);
    c = csv_load(path);
    cr_assert_str_eq(last_field(c.line[0]), "Network");
    int64_t rows[4] = { 0 };
    for (long i = 1; i < c.n; i++) {
        const char *net = last_field(c.line[i]);
        rows[0] += strcmp(net, "compute") == 0;
        rows[1] += strcmp(net, "storage") == 0;
        rows[2] += strcmp(net, "inband") == 0;
        rows[3] += strcmp(net, "oob") == 0;
    }
    cr_assert_eq(rows[0], 2048);
    cr_assert_eq(rows[1], 512);
    cr_assert_eq(rows[2], 554 + 10);
    cr_assert_eq(rows[3], 215 + 7);
    csv_free(&c);
    fp_plan_free(p);
}

/* ---- MLAG peer links ---- */

/* In-band (Ethernet, SN4600C): 10 leaves = 5 MLAG pairs, 2 peer links each (the default: a LAG
 * of two, one cable or port may fail) = 10 links, each joining leaf 2k to its peer 2k+1 on a
 * port of its own past the leaf's 28 down and 28 up ports, cabled at 100G and priced. Storage
 * (InfiniBand, QM9700) has no MLAG: no peer links. With "mlag_peer_links": 4 the in-band pairs
 * get 5 x 4 = 20; the HGX converged pair (SN5600 at 200G, ports split 4 ways) gets 2 x 4 lane links. */
Test(networks, mlag_peer_links)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    int ib = net_index(p, "inband"), st = net_index(p, "storage");
    const fp_fabric *f = fp__plan_net_fabric(p, ib);
    const fp_net_spec *ns = fp__plan_net(p, ib);
    const fp_cabling *cab = &fp__plan_net_phys(p)->cab[ib];
    cr_assert_eq(fp__net_peer_links(f), 10);
    cr_assert_eq(fp__net_peer_links(fp__plan_net_fabric(p, st)), 0);
    int64_t per_leaf[10] = { 0 };
    for (int64_t l = f->boundary_base[f->tiers]; l < f->n_link; l++) {
        const fp_link *k = &f->link[l];
        cr_assert_eq(fp__mlag_peer(f, ns, k->a), k->z);
        cr_assert_eq((k->a - f->tier_base[1]) % 2, 0);
        cr_assert_geq(k->a_port, 28 + 28);
        cr_assert_lt(k->a_port, 64);
        per_leaf[k->a - f->tier_base[1]]++;
        per_leaf[k->z - f->tier_base[1]]++;
        cr_assert_eq(ns->rs.gbps[k->boundary], 100);
        const fp_cable *cb = &cab->cable[cab->link_cable[l]];
        cr_assert(ns->rs.phys.parts[cb->part].priced);
        cr_assert_gt(cb->stock_m, 0);
    }
    for (int i = 0; i < 10; i++)
        cr_assert_eq(per_leaf[i], 2, "leaf %d has %lld peer links", i, (long long)per_leaf[i]);
    /* No port carries two links. */
    for (int64_t a = 0; a < f->n_link; a++)
        for (int64_t b = a + 1; b < f->n_link; b++) {
            const fp_link *x = &f->link[a], *y = &f->link[b];
            cr_assert(!((x->a == y->a && x->a_port == y->a_port) || (x->z == y->z && x->z_port == y->z_port) ||
                        (x->a == y->z && x->a_port == y->z_port) || (x->z == y->a && x->z_port == y->a_port)),
                      "links %lld and %lld share a port", (long long)a, (long long)b);
        }
    fp_plan_free(p);

    p = preset_plan("hgx-h100-enterprise-32");
    /* One pair, 2 peer links, each a whole 800G port split 4 ways to the network's 200G: 8. */
    cr_assert_eq(fp__net_peer_links(fp__plan_net_fabric(p, net_index(p, "converged"))), 2 * 4);
    fp_plan_free(p);

    char json[1024];
    snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE ", \"networks\": [{\"name\": \"inband\","
             " \"role\": \"management\", \"ports_per_server\": 2, \"port_gbps\": 100, \"dual_homed\": true,"
             " \"switch\": \"nvidia-sn4600c\", \"mlag_peer_links\": 4}]}");
    p = plan_from(json);
    /* 128 hosts; a 64-port leaf at 1:1 with 4 peer ports keeps down + up <= 60: 30 down, so
     * ceil(128 / 30) = 5 pairs (10 leaves) and 5 x 4 = 20 peer links (without the peers: 32
     * down, 4 pairs). */
    cr_assert_eq(fp__plan_net_fabric(p, 0)->level[1].switches, 10);
    cr_assert_eq(fp__net_peer_links(fp__plan_net_fabric(p, 0)), 20);
    fp_plan_free(p);
}

/* ---- --fail on the networks ---- */

static fp_network_failure net_fail(const fp_plan *p, const char *net, const char *const *specs, size_t n,
                                   fp_failure_report *r)
{
    fp_error err = { 0 };
    fp_network_failure nf;
    cr_assert_eq(fp_plan_fail(r, p, specs, n, 1, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_fail_network(&nf, p, (size_t)net_index(p, net), r, &err), FP_OK, "%s", err.msg);
    return nf;
}

/* In-band (5 MLAG pairs of 28 hosts, 28 up and 2 peer links per leaf; superpod_h100_networks_counts):
 * - one leaf down: 28 + 28 + 2 = 58 links; no host cut off (each has its other port on the
 *   peer); bisection min(246 x 100, 252 x 100) / 2 = 12,300 Gb/s (was 274 x 100 / 2 = 13,700);
 *   the compute fabric loses nothing;
 * - every leaf, one at a time: no host cut off (the dual-homing promise, through --fail);
 * - both leaves of the first pair: its 28 hosts cut off, all of them DGX servers;
 * out-of-band: its first leaf (SU 1's) holds hosts 1-32 (servers) and one 100G uplink: 33
 * links, 32 cut off, bisection min((215 - 32) x 1, (7 - 1) x 100) / 2 = 91.5 Gb/s. A name
 * nothing has still fails. */
Test(networks, fail_per_network)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    fp_failure_report r;
    const char *one[] = { "inband-su01-leaf-r1" };
    fp_network_failure nf = net_fail(p, "inband", one, 1, &r);
    cr_assert_eq(r.switches_failed, 0);
    cr_assert_eq(r.links_failed, 0);
    cr_assert_eq(r.n_specs, 1);
    cr_assert_eq(nf.switches_failed, 1);
    cr_assert_eq(nf.links_failed, 58);
    cr_assert_eq(nf.hosts_cut_off, 0);
    cr_assert_float_eq(nf.bisection_before_gbps, 13700, 1e-9);
    cr_assert_float_eq(nf.bisection_after_gbps, 12300, 1e-9);
    nf = net_fail(p, "storage", one, 1, &r);
    cr_assert_eq(nf.switches_failed + nf.links_failed + nf.hosts_cut_off, 0);

    char name[64];
    const char *spec[2] = { name, NULL };
    for (int su = 1; su <= 5; su++)
        for (int leg = 1; leg <= 2; leg++) {
            snprintf(name, sizeof name, "inband-su%02d-leaf-r%d", su, leg);
            nf = net_fail(p, "inband", spec, 1, &r);
            cr_assert_eq(nf.switches_failed, 1, "%s", name);
            cr_assert_eq(nf.hosts_cut_off, 0, "%s cuts off %lld hosts", name, (long long)nf.hosts_cut_off);
        }
    const char *pair[] = { "inband-su01-leaf-r1", "inband-su01-leaf-r2" };
    nf = net_fail(p, "inband", pair, 2, &r);
    cr_assert_eq(nf.hosts_cut_off, 28);
    cr_assert_eq(nf.servers_cut_off, 28);

    const char *oob[] = { "oob-su01-leaf-r1" };
    nf = net_fail(p, "oob", oob, 1, &r);
    cr_assert_eq(nf.links_failed, 33);
    cr_assert_eq(nf.hosts_cut_off, 32);
    cr_assert_eq(nf.servers_cut_off, 32);
    cr_assert_float_eq(nf.bisection_after_gbps, 91.5, 1e-9);

    fp_error err = { 0 };
    const char *none[] = { "inband-su09-leaf-r1" };
    cr_assert_eq(fp_plan_fail(&r, p, none, 1, 1, &err), FP_EINVAL);
    cr_assert_str_eq(err.where, "inband-su09-leaf-r1");
    fp_plan_free(p);
}

/* ---- plan.xlsx Summary: a row per network and the whole cluster ---- */

/* Hosts per network: 128 DGX (storage), 128 + 5 + 4 (in-band), 215 (oob); switches and cost are
 * the networks' own (fp_plan_network); the whole-cluster cell is a formula adding the compute
 * fabric's cost cell and the three network costs, its cached value their sum. */
Test(networks, xlsx_summary_per_network)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    char dir[64], path[160];
    write_plan(p, FP_WRITE_XLSX, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = xl_sheet(path, 1);
    cr_assert_not_null(xml);
    static const char *const names[] = { "storage", "inband", "oob" };
    static const int64_t hosts[] = { 128, 137, 215 };
    const char *pos = xml;
    xl_row row;
    int at = -1, seen = 0, whole = 0;
    double sum = fp__plan_bom(p)->totals.cost;
    while (xl_next_row(&pos, &row)) {
        if (strcmp(row.v[0], "Network") == 0 && strcmp(row.v[8], "Cost USD") == 0) {
            at = 0;
            continue;
        }
        if (at >= 0 && at < 3) {
            fp_network_info ni;
            cr_assert_eq(fp_plan_network(p, (size_t)at, &ni, NULL), FP_OK);
            cr_assert_str_eq(row.v[0], names[at]);
            cr_assert_eq(atoll(row.v[2]), hosts[at]);
            cr_assert_eq(atoll(row.v[5]), ni.switches);
            cr_assert_float_eq(atof(row.v[8]), ni.cost_usd, 0.01);
            sum += ni.cost_usd;
            at++;
            seen++;
            continue;
        }
        if (strcmp(row.v[0], "Whole cluster network") == 0) {
            cr_assert(strstr(row.f[8], "+SUM(I") != NULL, "formula %s", row.f[8]);
            cr_assert_float_eq(atof(row.v[8]), sum, 0.01);
            whole = 1;
        }
    }
    cr_assert_eq(seen, 3);
    cr_assert(whole);
    free(xml);
    fp_plan_free(p);
}

/* ---- row trays carry the networks' cables ---- */

/* COMPUTE (128 servers) with one storage network of 1 port per server at 400G on QM9700
 * (64 ports, 32 down and 32 up at 1:1): ceil(128 / 32) = 4 leaves and 4 x 32 / 64 = 2 spines.
 * The leaves stand in compute racks (their first host's), the spines in a management rack in a
 * row of its own beyond the compute rows (net_place.c). Every leaf-spine cable (4 x 32 = 128
 * links at the spine's 400G port speed, one link per cable) leaves its compute rack for the
 * management row: it rides its leaf's row tray and the management row's. By hand against the
 * same spec without the network: one tray more (the management row) carrying exactly those
 * 128 cables; the compute rows' trays carry at least those 128 more between them (plus the
 * server cables that reach a leaf in another rack); each cable adds at least a 3.0 mm fibre
 * cord's section (pi x 3.0^2 / 4 = 7.07 mm2). Before the fix the trays had only the compute
 * cables and no management row. */
Test(networks, trays_carry_network_cables)
{
    const char *net = ", \"networks\": [{\"name\": \"storage\", \"role\": \"storage\", \"ports_per_server\": 1,"
                      " \"port_gbps\": 400, \"switch\": \"nvidia-qm9700\"}]";
    char json[1024];
    snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE "}");
    fp_plan *c = plan_from(json);
    snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE "%s}", net);
    fp_plan *p = plan_from(json);
    const fp_fabric *f = fp__plan_net_fabric(p, 0);
    cr_assert_eq(f->level[1].switches, 4);
    cr_assert_eq(f->level[2].switches, 2);
    size_t nc = fp_plan_tray_count(c), np = fp_plan_tray_count(p);
    cr_assert_eq(np, nc + 1, "trays: %zu with the network, %zu without", np, nc);
    fp_tray_info a, b;
    fp_error err = { 0 };
    int64_t more = 0;
    double area = 0;
    const double cord = 3.14159265358979 * 3.0 * 3.0 / 4;
    for (size_t i = 0; i < nc; i++) {
        cr_assert_eq(fp_plan_tray(c, i, &a, &err), FP_OK, "%s", err.msg);
        cr_assert_eq(fp_plan_tray(p, i, &b, &err), FP_OK, "%s", err.msg);
        cr_assert_str_eq(a.row, b.row);
        cr_assert_geq(b.cables, a.cables);
        more += b.cables - a.cables;
        area += b.area_mm2 - a.area_mm2;
    }
    cr_assert_geq(more, 128);
    cr_assert_geq(area, 128 * cord - 1);
    cr_assert_eq(fp_plan_tray(p, nc, &b, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(b.cables, 128, "management row %s: %lld cables", b.row, (long long)b.cables);
    cr_assert_geq(b.area_mm2, 128 * cord - 1);
    cr_assert_eq(fp_plan_tray(p, np, &b, &err), FP_EINVAL);
    fp_plan_free(p);
    fp_plan_free(c);
}

/* ---- plan.xlsx Racks: every network's devices in their racks, the management racks added ---- */

/* The units added over all racks are the networks' switches and endpoints: 12 QM9700 x 1U +
 * the in-band SN4600C (10 leaves and its spines) x 2U + the out-of-band 7 SN2201 leaves x 1U
 * and its SN4600C aggregation x 2U + 9 one-U servers
 * (placement_units_and_power); the
 * first out-of-band leaf stands in the rack of the first DGX (H1-R01-K01), above its four 8U
 * DGX H100 (U1-U32), so it reads first there: every rack's contents list all its networks'
 * devices from the top U down; the two management racks follow the layout's racks. */
Test(networks, xlsx_racks_include_networks)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    const fp_layout *lay = fp__plan_layout(p);
    char dir[64], path[160];
    write_plan(p, FP_WRITE_XLSX, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = xl_sheet(path, 5);
    cr_assert_not_null(xml);
    const char *pos = xml;
    xl_row row;
    int64_t used = 0, layout_used = 0, mgmt = 0, rows = 0;
    int oob_in_k01 = 0;
    for (int64_t r = 0; r < lay->n_rack; r++)
        layout_used += lay->rack[r].units_used;
    xl_next_row(&pos, &row);                            /* header */
    cr_assert_str_eq(row.v[8], "Units used");
    while (xl_next_row(&pos, &row)) {
        rows++;
        used += atoll(row.v[8]);
        mgmt += strcmp(row.v[4], "management") == 0;
        if (strcmp(row.v[0], "H1-R01-K01") == 0)
            oob_in_k01 = strncmp(row.v[13], "U33 oob-su01-leaf-r1; U25 ", 26) == 0;
        /* one list per rack, every network's devices from the top U down */
        int last_u = 1000;
        for (const char *c = row.v[13]; (c = strchr(c, 'U')) != NULL; c++)
            if ((c == row.v[13] || c[-1] == ' ') && c[1] >= '0' && c[1] <= '9') {
                int u = atoi(c + 1);
                cr_expect_leq(u, last_u, "%s: U%d after U%d", row.v[0], u, last_u);
                last_u = u;
            }
    }
    cr_assert_eq(rows, lay->n_rack + 2);
    cr_assert_eq(mgmt, 2);
    int ib = net_index(p, "inband");
    cr_assert_eq(used - layout_used, 12 * 1 + (net_switches(p, ib, 1) + net_switches(p, ib, 2)) * 2 + 7 * 1 + 2 + 9);
    cr_assert(oob_in_k01);
    free(xml);
    fp_plan_free(p);
}

/* A peer link takes a whole physical port. Storage at 200G on SN5600: each 800G OSFP port
 * splits 4 ways (catalog: 64 x 800G or 256 x 200G), one port per cage. Each of the 2 default
 * peer links of a pair is one port = its 4 lanes x 200G = 800G, the 4 lane links on the same
 * physical port of both leaves, carried by one straight 800G cable. So per pair: 2 x 4 = 8
 * lane links, 2 cables of 4 links each at an 800G part, 1,600 Gb/s between the peers (before:
 * 2 links of one 200G lane each, 400 Gb/s, 3 lanes of each cage idle). */
Test(networks, mlag_peer_link_takes_whole_port)
{
    char json[1024];
    snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE ", \"networks\": [{\"name\": \"storage\","
             " \"role\": \"storage\", \"port_gbps\": 200, \"switch\": \"nvidia-sn5600\"}]}");
    fp_plan *p = plan_from(json);
    const fp_fabric *f = fp__plan_net_fabric(p, 0);
    const fp_net_spec *ns = fp__plan_net(p, 0);
    const fp_cabling *cab = &fp__plan_net_phys(p)->cab[0];
    cr_assert_eq(ns->rs.tier[0].breakout, 4);
    const int64_t pairs = f->level[1].switches / 2;
    cr_assert_gt(pairs, 0);
    cr_assert_eq(fp__net_peer_links(f), pairs * 2 * 4);
    double gbps = 0;
    int64_t cables = 0;
    for (int64_t l = f->boundary_base[f->tiers]; l < f->n_link; l++) {
        const fp_link *k = &f->link[l];
        int64_t first = f->boundary_base[f->tiers] + (l - f->boundary_base[f->tiers]) / 4 * 4;
        /* lanes 1..4 of the port the first lane link of its group is on */
        cr_assert_eq(k->a_port / 4, f->link[first].a_port / 4);
        cr_assert_eq(k->a_port % 4, (int)(l - first));
        cr_assert_eq(fp__port_lane(f, &ns->rs, k->a, k->a_port), (int)(l - first) + 1);
        gbps += ns->rs.gbps[k->boundary];
        const fp_cable *cb = &cab->cable[cab->link_cable[l]];
        cr_assert_eq(cb->n_links, 4);
        cr_assert_eq(ns->rs.phys.parts[cb->part].port_gbps, 800);
        cr_assert_eq(cab->link_cable[l], cab->link_cable[first]);
        cables += l == first;
    }
    cr_assert_eq(cables, pairs * 2);
    cr_assert_float_eq(gbps, (double)pairs * 1600, 1e-9);
    fp_plan_free(p);
}

/* --fail cable: with a network cable's id as cables.csv prints it. The compute fabric has 2,048
 * links (1,024 NIC-leaf + 1,024 leaf-spine, RA Table 4), so the networks' cable ids go on from
 * C0002049: storage's first cable carries its link 1, su01-node-01's first storage port to its
 * leaf (a 400G port in a cage of its own: one link). Down: that link alone, in storage; the
 * compute fabric loses nothing; storage's narrowest boundary was 256 x 400 / 2 = 51,200 Gb/s,
 * now 255 x 400 / 2 = 51,000; no host cut off (its second port is on the MLAG peer). */
Test(networks, fail_network_cable)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    fp_failure_report r;
    const char *one[] = { "cable:C0002049" };
    fp_network_failure nf = net_fail(p, "storage", one, 1, &r);
    cr_assert_eq(r.links_failed, 0);
    cr_assert_eq(nf.links_failed, 1);
    cr_assert_float_eq(nf.bisection_before_gbps, 51200, 1e-6);
    cr_assert_float_eq(nf.bisection_after_gbps, 51000, 1e-6);
    cr_assert_eq(nf.hosts_cut_off, 0);
    nf = net_fail(p, "inband", one, 1, &r);
    cr_assert_eq(nf.links_failed, 0);
    fp_plan_free(p);
}

/* ---- rack units: network devices never share a unit with the rack's own ---- */

/* 32 DGX H100 (8U each, 4 to a rack: U1-U32) with top-of-rack leaves: the SU's eight 1U QM9700
 * rail leaves stack from the rack's top down, U42 to U35, in its first rack (H1-R01-K01), which
 * leaves U33-U34 free. Each single-homed network's leaf stands in the rack of its first host
 * (the first server), so two networks' leaves take U33 and U34; a third's would need U35, where
 * a compute leaf stands: a clash, reported with the rack, the device and the units, and no plan
 * (before, it was stacked onto U35 and counted as one rack over its units). */
Test(networks, rack_unit_clash_is_an_error)
{
#define CLASH_NET(n) "{\"name\": \"" n "\", \"role\": \"management\", \"port_gbps\": 1," \
                     " \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]}"
    static const char *const head =
        "{\"name\": \"t\", \"cluster\": {\"gpus\": 256, \"gpus_per_server\": 8, \"nics_per_server\": 1,"
        " \"nic\": \"nvidia-dgx-h100-sys\"}, \"fabric\": {\"topology\": \"rail-optimized\","
        " \"switch\": \"nvidia-qm9700\", \"su_servers\": 32},"
        " \"layout\": {\"leaf_racks\": \"top-of-rack\", \"servers_per_rack\": 4}, \"networks\": [";
    char json[2048];
    snprintf(json, sizeof json, "%s%s, %s]}", head, CLASH_NET("oob"), CLASH_NET("mgmt"));
    fp_plan *p = plan_from(json);
    const fp_net_place *pl = fp__plan_net_place(p);
    for (int i = 0; i < 2; i++) {
        const fp_fabric *f = fp__plan_net_fabric(p, i);
        int64_t leaf = f->tier_base[1];
        cr_assert_eq(pl->dev_rack[i][leaf], fp__plan_layout(p)->dev_rack[0]);
        cr_assert_eq(pl->dev_u[i][leaf], 33 + i);
    }
    fp_plan_free(p);

    fp_error err = { 0 };
    snprintf(json, sizeof json, "%s%s, %s, %s]}", head, CLASH_NET("oob"), CLASH_NET("mgmt"),
             CLASH_NET("ipmi"));
    cr_assert_eq(plan_error(json, &err), FP_EDESIGN, "%s", err.msg);
    cr_assert_str_eq(err.where, "/networks");
    cr_assert(strstr(err.msg, "rack H1-R01-K01: ipmi-su01-leaf-r1 (1U) would take U35, which clashes with its switches from U35") != NULL,
              "%s", err.msg);
    cr_assert(strstr(err.msg, "U33-U34 (2 units) free") != NULL, "%s", err.msg);
#undef CLASH_NET
}

/* MLAG peer links take whole cages after a leaf's host and up ports. An SN2201 leaf's up links
 * leave by its 4 QSFP28 uplink ports, so a dual-homed network on SN2201 leaves has no place for
 * them: the default 2 per pair (Ethernet) are dropped and the plan says so (fp_network_info.note,
 * plan.json networks[].note); asking for them is an error at the entry's mlag_peer_links. */
Test(networks, dropped_default_peer_links_are_noted)
{
#define DUAL_1G(extra) "[{\"name\": \"bmc\", \"role\": \"converged\", \"port_gbps\": 1, " extra \
                       "\"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]}]"
    char json[2048];
    snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE ", \"networks\": %s}", DUAL_1G(""));
    fp_plan *p = plan_from(json);
    fp_network_info ni;
    cr_assert_eq(fp_plan_network(p, 0, &ni, NULL), FP_OK);
    cr_assert(ni.dual_homed);
    cr_assert_eq(fp__net_peer_links(fp__plan_net_fabric(p, 0)), 0);
    cr_assert(strstr(ni.note, "the default 2 per pair was dropped") != NULL, "note: %s", ni.note);
    fp_plan_free(p);
    expect_error(DUAL_1G("\"mlag_peer_links\": 2, "), FP_EDESIGN, "/networks/0/mlag_peer_links",
                 "uplink ports of their own");
    /* Leaves whose ports all split alike keep their default peer links and say nothing. */
    p = preset_plan(SUPERPOD_V1);
    cr_assert_eq(fp_plan_network(p, (size_t)net_index(p, "inband"), &ni, NULL), FP_OK);
    cr_assert_str_eq(ni.note, "");
    fp_plan_free(p);
#undef DUAL_1G
}

/* A single-homed network takes the compute fabric's scalable units, as many whole ones to a
 * leaf as its down ports hold: 128 DGX in SUs of 8 servers, out-of-band on SN2201 leaves (48 x
 * 1G down): 48 / 8 = 6 SUs (48 servers) to a leaf, ceil(128 / 48) = 3 leaves (48 + 48 + 32),
 * not 16 leaves of 8; with the DGX preset's 32-server SUs one SU to a leaf (48 / 32 = 1). */
Test(networks, single_homed_leaves_take_whole_units)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"name\": \"t\", \"cluster\": {\"gpus\": 1024, \"gpus_per_server\": 8, \"nics_per_server\": 1,"
             " \"nic\": \"nvidia-dgx-h100-sys\"}, \"fabric\": {\"topology\": \"rail-optimized\","
             " \"switch\": \"nvidia-qm9700\", \"su_servers\": 8}, \"networks\": [{\"name\": \"oob\","
             " \"role\": \"oob\", \"port_gbps\": 1, \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]}]}");
    fp_plan *p = plan_from(json);
    const fp_fabric *f = fp__plan_net_fabric(p, 0);
    cr_assert_eq(f->level[1].switches, 3);
    cr_assert_eq(net_links(p, 0, 0), 128);
    /* Each leaf's hosts are whole SUs: servers 48k .. 48k + 47. */
    for (int64_t l = f->boundary_base[0]; l < f->boundary_base[1]; l++)
        cr_assert_eq(f->link[l].z - f->tier_base[1], f->link[l].a / 48);
    fp_plan_free(p);
}

/* The workbook's Networks table (Summary) words each network's pairs by its protocol: the
 * InfiniBand storage network is on leaf pairs, the Ethernet in-band one on MLAG pairs, the
 * single-homed out-of-band one on neither. */
Test(networks, workbook_words_pairs_by_protocol)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    char dir[64], xlsx[128], names[16][32];
    write_plan(p, FP_WRITE_XLSX, dir);
    snprintf(xlsx, sizeof xlsx, "%s/plan.xlsx", dir);
    int n = xl_sheet_names(xlsx, names, 16), summary = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], "Summary") == 0)
            summary = i + 1;
    cr_assert_gt(summary, 0);
    char *xml = xl_sheet(xlsx, summary);
    const char *pos = xml;
    xl_row *row = malloc(sizeof *row);
    int seen = 0;
    while (xl_next_row(&pos, row)) {
        if (strcmp(row->v[0], "storage") == 0 && (seen |= 1))
            cr_expect_str_eq(row->v[1], "storage, leaf pairs");
        if (strcmp(row->v[0], "inband") == 0 && (seen |= 2))
            cr_expect_str_eq(row->v[1], "management, MLAG pairs");
        if (strcmp(row->v[0], "oob") == 0 && (seen |= 4))
            cr_expect_str_eq(row->v[1], "oob");
    }
    cr_expect_eq(seen, 7);
    free(row);
    free(xml);
    fp_plan_free(p);
}

/* --split-by row with spec `networks`: the management row (the racks the networks add, a row of
 * their own after the compute rows) gets its workbook like any other row, with its racks, their
 * elevation and its tray. Every rack of plan.xlsx's Racks sheet is in exactly one row's
 * workbook. The Summary line of each says how many network devices stand in it; over all rows
 * that is every network device (SUPERPOD_V1, superpod_h100_networks_counts): switches
 * 12 storage + 17 in-band + 8 out-of-band = 37, endpoints 5 management servers + 4 UFM
 * (in-band) + 5 + 4 BMCs + 78 switch management ports (out-of-band) = 96; 133 in all. The
 * compute rows hold only the out-of-band leaves that stand in compute racks. */
static int64_t net_devices_said(const char *xlsx)
{
    char *xml = xl_sheet(xlsx, 1);
    const char *s = strstr(xml, "; of the other networks ");
    int64_t n = s ? atoll(s + strlen("; of the other networks ")) : 0;
    free(xml);
    return n;
}

/* The XML of sheet `name` of xlsx (caller frees); fails the test when there is none. */
static char *sheet_of(const char *xlsx, const char *name)
{
    char sheets[32][32];
    int ns = xl_sheet_names(xlsx, sheets, 32);
    for (int i = 0; i < ns; i++)
        if (strcmp(sheets[i], name) == 0)
            return xl_sheet(xlsx, i + 1);
    cr_assert_fail("%s has no sheet %s", xlsx, name);
    return NULL;
}

/* Rack names of the Racks sheet (column A, rows 2 on) of xlsx, with their role, appended to
 * names ("H1-R04-K01 management"); returns how many. */
static int racks_listed(const char *xlsx, char (*names)[64], int at, int max)
{
    char *xml = sheet_of(xlsx, "Racks");
    const char *pos = xml;
    xl_row *row = malloc(sizeof *row);
    int n = 0;
    while (xl_next_row(&pos, row))
        if (row->r > 1 && at + n < max)
            snprintf(names[at + n++], 64, "%s %s", row->v[0], row->v[4]);
    free(row);
    free(xml);
    return n;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

Test(networks, split_by_row_gives_the_management_row_its_workbook, .timeout = TEST_TIMEOUT(300))
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    char dir[64], path[192];
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_XLSX;
    o.split_by = FP_SPLIT_ROW;
    scratch_dir(dir, sizeof dir, "nets-split");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    /* the compute racks stand in rows 1-3 of hall 1; the management row is the next, 4 (the
     * plan's racks list them after the layout's) */
    int max_row = 0, mgmt = 0;
    for (size_t i = 0; i < fp_plan_rack_count(p); i++) {
        fp_rack_info r;
        cr_assert_eq(fp_plan_rack(p, i, &r, NULL), FP_OK);
        cr_assert_eq(r.hall, 1);
        if (strcmp(r.role, "management") == 0) {
            cr_assert_eq(r.row, 4);
            mgmt++;
        } else {
            max_row = r.row > max_row ? r.row : max_row;
        }
    }
    cr_assert_eq(max_row, 3);
    cr_assert_eq(mgmt, fp__plan_net_place(p)->mgmt_racks);
    static char whole[128][64], split[128][64];
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    int n_whole = racks_listed(path, whole, 0, 128), n_split = 0;
    int64_t devices = 0, in_compute_rows = 0;
    for (int row = 1; row <= 4; row++) {
        snprintf(path, sizeof path, "%s/by-row/plan-H1-R%02d.xlsx", dir, row);
        cr_assert_eq(access(path, R_OK), 0, "missing %s", path);
        int k = racks_listed(path, split, n_split, 128);
        for (int i = n_split; i < n_split + k; i++)
            cr_expect_eq(strstr(split[i], " management") != NULL, row == 4, "%s", split[i]);
        n_split += k;
        int64_t d = net_devices_said(path);
        devices += d;
        in_compute_rows += row < 4 ? d : 0;
    }
    snprintf(path, sizeof path, "%s/by-row/plan-H1-R05.xlsx", dir);
    cr_expect_neq(access(path, R_OK), 0, "no row 5");
    /* the management row's Network cables: each has an end in row 4 (A row, or a Z row) */
    snprintf(path, sizeof path, "%s/by-row/plan-H1-R04.xlsx", dir);
    char *xml = sheet_of(path, "Network cables");
    const char *pos = xml;
    xl_row *row = malloc(sizeof *row);
    long in_row4 = 0;
    while (xl_next_row(&pos, row))
        if (row->r > 1) {
            cr_expect(atoi(row->v[3]) == 4 || strstr(row->v[9], "4") != NULL, "row %ld", row->r);
            in_row4++;
        }
    cr_expect_gt(in_row4, 0);
    free(row);
    free(xml);
    cr_expect_eq(devices, 37 + 96);
    cr_expect_lt(in_compute_rows, 8);   /* at most the 7 out-of-band leaves (one per SU) */
    /* the same racks, each once */
    cr_assert_eq(n_split, n_whole);
    qsort(whole, (size_t)n_whole, sizeof whole[0], cmp_name);
    qsort(split, (size_t)n_split, sizeof split[0], cmp_name);
    for (int i = 0; i < n_whole; i++)
        cr_expect_str_eq(split[i], whole[i]);
    fp_plan_free(p);
}

/* bom.csv carries every network's lines after the compute fabric's, each named in a last
 * column, and its total is the whole cluster's: the sum of every line's cost and power (a
 * costing tool that reads bom.csv gets the networks too). Extra endpoints are counted at no
 * cost and no power (theirs is their racks'). By hand from the catalog: the out-of-band
 * network's 7 SN2201 leaves at $6,000 = $42,000 and 7 x 100 W = 700 W; its 78 switch
 * management ports, 0U endpoints. Without networks the header has no network column. */
Test(networks, bom_csv_carries_every_network)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    char dir[64], path[128];
    write_plan(p, FP_WRITE_BOM, dir);
    snprintf(path, sizeof path, "%s/bom.csv", dir);
    csv_file c = csv_load(path);
    cr_assert_str_eq(last_field(c.line[0]), "network");
    double cost = 0, power = 0, total_cost = -1, total_power = -1;
    long compute = 0, per_net[3] = { 0 }, sn2201 = 0, mgmt_ports = 0;
    for (long i = 1; i < c.n; i++) {
        char line[1024], *f[16];
        snprintf(line, sizeof line, "%s", c.line[i]);
        cr_assert_eq(csv_split(line, f, 16), 12, "%s", c.line[i]);
        if (strcmp(f[0], "total") == 0) {
            cr_assert_eq(i, c.n - 1, "the total is the last row");
            cr_assert_str_eq(f[11], "all");
            total_cost = atof(f[7]);
            total_power = atof(f[9]);
            continue;
        }
        cost += atof(f[7]);
        power += atof(f[9]);
        compute += strcmp(f[11], "compute") == 0;
        for (int k = 0; k < 3; k++)
            per_net[k] += strcmp(f[11], fp__plan_net(p, k)->name) == 0;
        if (strcmp(f[11], "oob") == 0 && strcmp(f[1], "nvidia-sn2201") == 0 && atoi(f[4]) == 0) {
            sn2201++;
            cr_expect_eq(atoll(f[5]), 7);
            cr_expect_float_eq(atof(f[7]), 7 * 6000.0, 1e-6);
            cr_expect_float_eq(atof(f[9]), 7 * 100.0, 1e-6);
        }
        if (strcmp(f[11], "oob") == 0 && strcmp(f[1], "switch-mgmt") == 0) {
            mgmt_ports++;
            cr_expect_str_eq(f[0], "endpoint");
            cr_expect_eq(atoll(f[5]), 78);
            cr_expect_float_eq(atof(f[7]) + atof(f[9]), 0, 1e-9);
        }
    }
    csv_free(&c);
    cr_expect_eq(compute, (long)fp_plan_bom_count(p));
    for (int k = 0; k < 3; k++)
        cr_expect_eq(per_net[k], fp__plan_net_bom(p, k)->n, "%s", fp__plan_net(p, k)->name);
    cr_expect_eq(sn2201, 1);
    cr_expect_eq(mgmt_ports, 1);
    cr_expect_float_eq(total_cost, cost, 0.01 * (double)c.n);
    cr_expect_float_eq(total_power, power, 0.01 * (double)c.n);
    fp_totals t;
    fp_plan_net_totals(p, 0, &t, NULL);     /* the compute fabric's */
    double nets = 0;
    for (int k = 0; k < 3; k++)
        nets += fp__plan_net_bom(p, k)->cost;
    cr_expect_float_eq(total_cost, t.cost + nets, 0.01);
    fp_plan_free(p);

    p = preset_plan("dgx-h100-4su");
    write_plan(p, FP_WRITE_BOM, dir);
    snprintf(path, sizeof path, "%s/bom.csv", dir);
    c = csv_load(path);
    cr_expect_str_eq(last_field(c.line[0]), "mtbf_hours");
    csv_free(&c);
    fp_plan_free(p);
}

/* The workbook lists the networks' cables on a sheet of their own (Network cables), as
 * cables.csv does: one row per cable, the network beside the id, the medium in the Cables
 * sheet's colours. Per network the rows are cables.csv's rows of that network; the out-of-band
 * network's 215 host cords are twisted pair (TP, superpod_h100_networks_counts), its 7 uplinks
 * not. A plan without networks has no such sheet. */
Test(networks, workbook_lists_the_networks_cables)
{
    fp_plan *p = preset_plan(SUPERPOD_V1);
    char dir[64], path[128];
    write_plan(p, FP_WRITE_XLSX | FP_WRITE_CABLES, dir);
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    csv_file c = csv_load(path);
    long csv_rows[3] = { 0 };
    for (long i = 1; i < c.n; i++)
        for (int k = 0; k < 3; k++)
            csv_rows[k] += strcmp(last_field(c.line[i]), fp__plan_net(p, k)->name) == 0;
    csv_free(&c);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char *xml = sheet_of(path, "Network cables");
    const char *pos = xml;
    xl_row *row = malloc(sizeof *row);
    long rows[3] = { 0 }, oob_tp = 0, oob_other = 0;
    int tp_style = -1;
    while (xl_next_row(&pos, row)) {
        if (row->r == 1) {
            cr_expect_str_eq(row->v[1], "Network");
            cr_expect_str_eq(row->v[14], "Medium");
            continue;
        }
        for (int k = 0; k < 3; k++)
            rows[k] += strcmp(row->v[1], fp__plan_net(p, k)->name) == 0;
        if (strcmp(row->v[1], "oob") == 0) {
            int tp = strcmp(row->v[14], "TP") == 0;
            oob_tp += tp;
            oob_other += !tp;
            if (tp && tp_style < 0)
                tp_style = row->style[14];
            if (tp)
                cr_expect_eq(row->style[14], tp_style, "row %ld", row->r);
        }
    }
    free(row);
    free(xml);
    for (int k = 0; k < 3; k++)
        cr_expect_eq(rows[k], csv_rows[k], "%s", fp__plan_net(p, k)->name);
    cr_expect_eq(oob_tp, 215);
    cr_expect_eq(oob_other, 7);
    /* The Summary's Cables by medium: the compute fabric's column and the networks' beside it,
     * each medium's network cables the networks' BOMs' count (TP: the 215 out-of-band cords). */
    xml = sheet_of(path, "Summary");
    pos = xml;
    row = malloc(sizeof *row);
    int media_rows = 0, in_media = 0;
    while (xl_next_row(&pos, row)) {
        if (strcmp(row->v[0], "Cables by medium") == 0) {
            cr_expect_str_eq(row->v[2], "Network cables");
            in_media = 1;
            continue;
        }
        if (!in_media || row->v[0][0] == '\0')
            continue;
        int m = 0;
        while (m < FP_MEDIUM_COUNT && strcmp(fp_medium_name((fp_medium)m), row->v[0]) != 0)
            m++;
        if (m == FP_MEDIUM_COUNT) {
            in_media = 0;
            continue;
        }
        int64_t want = 0;
        for (int k = 0; k < 3; k++)
            want += fp__plan_net_bom(p, k)->cables_by_medium[m];
        cr_expect_eq(atoll(row->v[2]), want, "%s", row->v[0]);
        if (m == FP_MEDIUM_TP)
            cr_expect_eq(atoll(row->v[2]), 215);
        media_rows++;
    }
    cr_expect_eq(media_rows, FP_MEDIUM_COUNT);
    free(row);
    free(xml);
    fp_plan_free(p);

    p = preset_plan("dgx-h100-4su");
    write_plan(p, FP_WRITE_XLSX, dir);
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char names[32][32];
    int ns = xl_sheet_names(path, names, 32);
    for (int i = 0; i < ns; i++)
        cr_expect_str_neq(names[i], "Network cables");
    fp_plan_free(p);
}

/* ---- sizing settings: the compute fabric's, for every network ---- */

/* The status of planning the preset after setting the (pointer, value) pairs of set. */
static fp_status preset_error(const char *name, const char *const *set, fp_error *err)
{
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    o.stages = FP_STAGE_FABRIC;
    cr_assert_eq(fp_catalog_new(&cat, err), FP_OK, "%s", err->msg);
    cr_assert_eq(spec_from_preset(&spec, name, err), FP_OK, "%s", err->msg);
    for (int k = 0; set && set[k]; k += 2)
        cr_assert_eq(fp_spec_set(spec, set[k], set[k + 1], err), FP_OK, "%s", err->msg);
    fp_status rc = fp_plan_new_opts(&plan, spec, cat, &o, err);
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return rc;
}

/* The example, derived: 824 GPUs = 103 DGX, storage dual-homed at 1:1 on QM9700 (64
 * ports at 400G: 32 down, 32 up). ceil(103 / 32) = 4 pairs of ceil(103 / 4) = 26 hosts, so 8
 * leaves with 26 uplinks each: 208 leaf-spine links, which 64-port spines carry on
 * ceil(208 / 64) = 4. The even spread needs a divisor of 26 that is at least 4: 13. Balanced
 * builds the 4. With 24 storage arrays of 4 ports (2 host groups each) as well: 103 + 48 = 151
 * hosts, ceil(151 / 32) = 5 pairs of ceil(151 / 5) = 31, 10 leaves x 31 = 310 links:
 * ceil(310 / 64) = 5 spines balanced; even, the least divisor of 31 from 5 up: 31. */
Test(networks, spread_for_a_network)
{
    static const char *const even[] = { "/cluster/gpus", "824", NULL };
    static const char *const bal[] = { "/cluster/gpus", "824", "/networks/0/spread", "balanced", NULL };
    static const char *const arr_even[] = {
        "/cluster/gpus", "824",
        "/networks/0/extra_endpoints", "[{\"name\": \"array\", \"count\": 24, \"ports\": 4}]", NULL };
    static const char *const arr_bal[] = {
        "/cluster/gpus", "824", "/networks/0/spread", "balanced",
        "/networks/0/extra_endpoints", "[{\"name\": \"array\", \"count\": 24, \"ports\": 4}]", NULL };
    static const struct { const char *const *set; int64_t leaves, links, spines; } c[] = {
        { even, 8, 208, 13 }, { bal, 8, 208, 4 }, { arr_even, 10, 310, 31 }, { arr_bal, 10, 310, 5 },
    };
    for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
        fp_plan *p = preset_plan_with(SUPERPOD_V1, FP_STAGE_FABRIC, c[k].set);
        int s = net_index(p, "storage");
        cr_assert_eq(net_switches(p, s, 1), c[k].leaves, "case %zu", k);
        cr_assert_eq(net_links(p, s, 1), c[k].links, "case %zu", k);
        cr_assert_eq(net_switches(p, s, 2), c[k].spines, "case %zu", k);
        fp_plan_free(p);
    }
    fp_error err = { 0 };
    static const char *const bad[] = { "/networks/0/spread", "random", NULL };
    cr_assert_eq(preset_error(SUPERPOD_V1, bad, &err), FP_EINVAL);
    cr_assert_str_eq(err.where, "/networks/0/spread", "%s", err.msg);
}

/* A dual-homed network never has one top switch. In-band at 12:1 on SN4600C (64 x 100G): a
 * leaf takes d hosts with d + ceil(d / 12) <= 64, d = 59; 137 hosts (128 DGX, 5 management
 * servers, 4 UFM) make ceil(137 / 59) = 3 pairs of ceil(137 / 3) = 46, each leaf with
 * ceil(46 / 12) = 4 uplinks: 6 leaves, 24 leaf-spine links, which one 64-port spine would
 * carry; the minimum for a dual-homed network is 2 (a divisor of 4: 2 links from each leaf to
 * each). min_top_switches 4 gives 4 (1 link each); an odd minimum is an error. */
Test(networks, dual_homed_top_switches_in_pairs)
{
    static const char *const r12[] = { "/networks/1/oversubscription", "[12]", NULL };
    static const char *const r12m4[] = { "/networks/1/oversubscription", "[12]",
                                         "/networks/1/min_top_switches", "4", NULL };
    fp_plan *p = preset_plan_with(SUPERPOD_V1, FP_STAGE_FABRIC, r12);
    int ib = net_index(p, "inband");
    cr_assert_eq(net_switches(p, ib, 1), 6);
    cr_assert_eq(net_links(p, ib, 1), 24);
    cr_assert_eq(net_switches(p, ib, 2), 2);
    const fp_fabric *f = fp__plan_net_fabric(p, ib);
    int64_t per[2] = { 0, 0 };
    for (int64_t l = f->boundary_base[1]; l < f->boundary_base[2]; l++)
        per[f->link[l].z - f->tier_base[2]]++;
    cr_assert(per[0] == 12 && per[1] == 12, "%lld / %lld", (long long)per[0], (long long)per[1]);
    fp_plan_free(p);
    p = preset_plan_with(SUPERPOD_V1, FP_STAGE_FABRIC, r12m4);
    cr_assert_eq(net_switches(p, ib, 2), 4);
    fp_plan_free(p);
    fp_error err = { 0 };
    static const char *const odd[] = { "/networks/1/min_top_switches", "3", NULL };
    cr_assert_eq(preset_error(SUPERPOD_V1, odd, &err), FP_EINVAL);
    cr_assert_str_eq(err.where, "/networks/1/min_top_switches", "%s", err.msg);
    cr_assert(strstr(err.msg, "even") != NULL, "%s", err.msg);
    /* The HGX converged network (one pair of SN5600 leaves, 32 uplinks each at 1:1: 64 links,
     * one 256-port spine by ports) gets the minimum's 2 spines, 32 links each (2 divides 32). */
    p = preset_plan("hgx-h100-enterprise-32");
    cr_assert_eq(net_switches(p, net_index(p, "converged"), 2), 2);
    fp_plan_free(p);
}

/* uplinks_per_leaf, hosts_per_leaf, servers_per_leaf. The out-of-band SN2201 (48 x 1G, 4 x
 * 100G uplink ports): with 2 uplinks per leaf, the 7 leaves of 32 hosts
 * (superpod_h100_networks_counts) have 14 uplinks. With 48 hosts per leaf as well, each
 * compute SU's leaf takes its 32 BMCs and 16 of the 87 extra endpoints (5 + 4 BMCs, 78 switch
 * ports) in its free ports: 4 x 16 = 64, the other 23 on a fifth leaf; 10 uplinks. With
 * servers_per_leaf 16 (half an SU, as the RA's two SN2201 per SU) the 128 BMCs make 8 units
 * of 16, and the 87 extras fill 32 free ports on the first (32, 32, 23): 8 leaves, loads 48,
 * 48, 39 and five of 16. More uplinks than the 4 uplink ports, more hosts than the 48 down
 * ports, or uplinks beside a leaf ratio are errors naming the setting. */
Test(networks, uplinks_and_hosts_per_leaf)
{
    static const char *const up2[] = { "/networks/2/uplinks_per_leaf", "2", NULL };
    static const char *const up2h48[] = { "/networks/2/uplinks_per_leaf", "2",
                                          "/networks/2/hosts_per_leaf", "48", NULL };
    static const char *const s16[] = { "/networks/2/uplinks_per_leaf", "2",
                                       "/networks/2/hosts_per_leaf", "48",
                                       "/networks/2/servers_per_leaf", "16", NULL };
    fp_plan *p = preset_plan_with(SUPERPOD_V1, FP_STAGE_FABRIC, up2);
    int o = net_index(p, "oob");
    cr_assert_eq(net_switches(p, o, 1), 7);
    cr_assert_eq(net_links(p, o, 1), 14);
    fp_plan_free(p);
    p = preset_plan_with(SUPERPOD_V1, FP_STAGE_FABRIC, up2h48);
    const fp_fabric *f = fp__plan_net_fabric(p, o);
    cr_assert_eq(net_switches(p, o, 1), 5);
    cr_assert_eq(net_links(p, o, 0), 215);
    cr_assert_eq(net_links(p, o, 1), 10);
    for (int64_t l = f->boundary_base[0]; l < f->boundary_base[1]; l++) {
        int64_t h = f->link[l].a, e = h - 128;
        int64_t want = h < 128 ? h / 32 : e < 64 ? e / 16 : 4;
        cr_assert_eq(f->link[l].z - f->tier_base[1], want, "host %lld", (long long)h);
    }
    fp_plan_free(p);
    p = preset_plan_with(SUPERPOD_V1, FP_STAGE_FABRIC, s16);
    f = fp__plan_net_fabric(p, o);
    cr_assert_eq(net_switches(p, o, 1), 8);
    cr_assert_eq(net_links(p, o, 1), 16);
    int64_t load[8] = { 0 };
    for (int64_t l = f->boundary_base[0]; l < f->boundary_base[1]; l++)
        load[f->link[l].z - f->tier_base[1]]++;
    static const int64_t want[8] = { 48, 48, 39, 16, 16, 16, 16, 16 };
    for (int k = 0; k < 8; k++)
        cr_assert_eq(load[k], want[k], "leaf %d: %lld", k, (long long)load[k]);
    fp_plan_free(p);
    static const struct { const char *k, *v, *where; } bad[] = {
        { "/networks/2/uplinks_per_leaf", "5", "/networks/2/uplinks_per_leaf" },
        { "/networks/2/hosts_per_leaf", "49", "/networks/2/hosts_per_leaf" },
        { "/networks/0/hosts_per_leaf", "33", "/networks/0/hosts_per_leaf" },
        { "/networks/0/uplinks_per_leaf", "64", "/networks/0/uplinks_per_leaf" },
        { "/networks/2/servers_per_leaf", "49", "/networks/2/servers_per_leaf" },
        { "/networks/0/servers_per_leaf", "16", "/networks/0/servers_per_leaf" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        fp_error err = { 0 };
        const char *set[] = { bad[k].k, bad[k].v, NULL };
        cr_assert_neq(preset_error(SUPERPOD_V1, set, &err), FP_OK, "%s", bad[k].k);
        cr_assert_str_eq(err.where, bad[k].where, "%s", err.msg);
        cr_assert(strncmp(err.msg, bad[k].where, strlen(bad[k].where)) == 0, "%s", err.msg);
    }
    fp_error err = { 0 };
    static const char *const both[] = { "/networks/0/uplinks_per_leaf", "8",
                                        "/networks/0/oversubscription", "[2]", NULL };
    cr_assert_eq(preset_error(SUPERPOD_V1, both, &err), FP_EINVAL);
    cr_assert_str_eq(err.where, "/networks/0/uplinks_per_leaf", "%s", err.msg);
    /* The preset's own [1] (1:1) says nothing against it. 8 uplinks leave a storage leaf
     * 64 - 8 = 56 host ports: ceil(128 / 56) = 3 pairs, 6 leaves, 6 x 8 = 48 uplinks. */
    static const char *const one[] = { "/networks/0/uplinks_per_leaf", "8", NULL };
    fp_plan *q = preset_plan_with(SUPERPOD_V1, FP_STAGE_FABRIC, one);
    cr_assert_eq(net_switches(q, net_index(q, "storage"), 1), 6);
    cr_assert_eq(net_links(q, net_index(q, "storage"), 1), 6 * 8);
    fp_plan_free(q);
}

/* The compute fabric takes the same settings. DGX H100 4 SUs (32 leaves of 32 uplinks, 1,024
 * links, 16 spines: Table 4): min_top_switches 20 gives, balanced, 20 spines; even, the least
 * divisor of 32 from 20 up: 32. uplinks_per_leaf 16 gives 32 x 16 = 512 links on
 * ceil(512 / 64) = 8 spines (8 divides 16). */
Test(networks, compute_fabric_takes_the_settings)
{
    static const char *const m20[] = { "/fabric/min_top_switches", "20", NULL };
    static const char *const m20b[] = { "/fabric/min_top_switches", "20", "/fabric/spread", "balanced", NULL };
    static const char *const u16[] = { "/fabric/uplinks_per_leaf", "16", NULL };
    fp_plan *p = preset_plan_with("dgx-h100-4su", FP_STAGE_FABRIC, m20);
    cr_assert_eq(tier_switches(p, 2), 32);
    fp_plan_free(p);
    p = preset_plan_with("dgx-h100-4su", FP_STAGE_FABRIC, m20b);
    cr_assert_eq(tier_switches(p, 2), 20);
    fp_plan_free(p);
    p = preset_plan_with("dgx-h100-4su", FP_STAGE_FABRIC, u16);
    cr_assert_eq(tier_switches(p, 1), 32);
    cr_assert_eq(boundary_links(p, 1), 512);
    cr_assert_eq(tier_switches(p, 2), 8);
    fp_plan_free(p);
}
