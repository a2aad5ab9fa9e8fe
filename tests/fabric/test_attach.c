/* One network attached to another (spec networks[].uplink_to): its top tier is the target
 * network's top-tier switches, its leaves' uplinks are its own links cabled to the target's
 * free ports, and the target's switches stay the target's (counted, placed, priced once).
 * Every count below is derived in its comment from the spec, never read from the program. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <string.h>
#include "helpers.h"

/* 1,024 GPUs of DGX H100 in 4 SUs of 32: 128 servers; the compute fabric is RA Table 4's 32
 * leaves and 16 spines (48 QM9700). */
#define COMPUTE "\"cluster\": {\"gpus\": 1024, \"gpus_per_server\": 8, \"nics_per_server\": 1, " \
                "\"nic\": \"nvidia-dgx-h100-sys\"}, \"fabric\": {\"topology\": \"rail-optimized\", " \
                "\"switch\": \"nvidia-qm9700\", \"su_servers\": 32}"

/* The in-band target: 2 ports per server on MLAG pairs of SN4600C, 32 hosts per leaf, 4 uplinks
 * each: 128 / 32 = 4 pairs = 8 leaves, 8 x 4 = 32 uplinks over the 2 cores a dual-homed
 * network has at the least (32 links fit one 64-port core): 16 each, on core ports 1-16. */
#define INBAND "{\"name\": \"inband\", \"role\": \"management\", \"ports_per_server\": 2, " \
               "\"dual_homed\": true, \"port_gbps\": 100, \"switch\": %s, " \
               "\"hosts_per_leaf\": 32, \"uplinks_per_leaf\": 4}"
/* An out-of-band network of SN2201 (48 x 1G, 4 x 100G uplink ports): one leaf per SU of 32
 * BMCs (48 < 2 x 32, so one SU a leaf): 4 leaves, 2 uplinks each. */
#define OOB(name, extra) "{\"name\": \"" name "\", \"role\": \"oob\", \"port_gbps\": 1, " \
                         "\"switch\": \"nvidia-sn2201\", \"uplink_to\": \"inband\", " \
                         "\"uplinks_per_leaf\": 2" extra "}"

enum { INB = 1, OOB1 = 2, OOB2 = 3 };

static fp_plan *plan_of(const char *nets)
{
    char json[4096];
    snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE ", \"networks\": [%s]}", nets);
    return plan_from(json);
}

static void expect_error(const char *nets, fp_status code, const char *where, const char *says)
{
    char json[4096];
    fp_error err = { 0 };
    snprintf(json, sizeof json, "{\"name\": \"t\", " COMPUTE ", \"networks\": [%s]}", nets);
    cr_assert_eq(plan_error(json, &err), code, "%s -> %d %s", nets, err.code, err.msg);
    cr_assert_str_eq(err.where, where, "%s: where %s (%s)", nets, err.where, err.msg);
    cr_assert(strstr(err.msg, says) != NULL, "message \"%s\" lacks \"%s\"", err.msg, says);
    cr_assert(strncmp(err.msg, where, strlen(where)) == 0, "message starts with its pointer: %s",
              err.msg);
}

static int is_switch_of(const fp_plan *p, size_t net, const char *name)
{
    fp_device_info d;
    for (size_t i = 0; i < fp_plan_net_device_count(p, net); i++) {
        cr_assert_eq(fp_plan_net_device(p, net, i, &d, NULL), FP_OK);
        if (d.tier > 0 && strcmp(d.name, name) == 0)
            return d.owner == (int)net;
    }
    return 0;
}

/* Network net's uplinks into the in-band cores: count, and per core the lowest and highest
 * port number (1-based, from the port name "swpN") they take. */
static int64_t uplinks(const fp_plan *p, size_t net, int lo[2], int hi[2])
{
    fp_link_info l;
    fp_device_info z;
    int64_t n = 0;
    lo[0] = lo[1] = 1000;
    hi[0] = hi[1] = 0;
    for (size_t i = 0; i < fp_plan_net_link_count(p, net); i++) {
        cr_assert_eq(fp_plan_net_link(p, net, i, &l, NULL), FP_OK);
        if (l.boundary != 1)
            continue;
        cr_assert_eq(fp_plan_net_device(p, net, (size_t)l.z, &z, NULL), FP_OK);
        cr_assert_eq(z.tier, 2);
        cr_assert(is_switch_of(p, INB, z.name), "%s is no in-band switch", z.name);
        cr_assert_eq(z.owner, INB, "%s is the in-band network's", z.name);
        cr_assert_str_eq(z.model, "nvidia-sn4600c");
        int core = strcmp(z.name, "inband-spine-01") == 0 ? 0 : 1;
        cr_assert(core == 0 || strcmp(z.name, "inband-spine-02") == 0, "%s", z.name);
        int port = atoi(l.z_port_name + 3);
        cr_assert_eq(strncmp(l.z_port_name, "swp", 3), 0, "%s", l.z_port_name);
        lo[core] = port < lo[core] ? port : lo[core];
        hi[core] = port > hi[core] ? port : hi[core];
        n++;
    }
    return n;
}

/* The normal path, two networks attached to one target, and a later network counting
 * switches: the out-of-band network's 4 leaves x 2 = 8 uplinks spread over the 2 in-band
 * cores, 4 each, on the ports after the cores' own 16 (ports 17-20); oob2 (the same 4 leaves'
 * worth of BMCs, plus one management port per switch before it) after oob's, from port 21.
 * The cores stay the in-band network's: the out-of-band networks' own switches are their
 * leaves, no BOM line of theirs is a switch above the leaf, and the count "switches" of oob2
 * takes each switch once: 48 compute + 10 in-band (8 leaves, 2 cores) + oob's 4 = 62. */
Test(attach, uplinks_land_on_the_targets_free_ports)
{
    char nets[2048];
    snprintf(nets, sizeof nets, INBAND ", " OOB("oob", "") ", "
             OOB("oob2", ", \"extra_endpoints\": [{\"name\": \"switch-mgmt\", \"count\": \"switches\"}]"),
             "\"nvidia-sn4600c\"");
    fp_plan *p = plan_of(nets);
    fp_network_info ni[3];
    for (size_t k = 0; k < 3; k++)
        cr_assert_eq(fp_plan_network(p, k, &ni[k], NULL), FP_OK);
    cr_assert_eq(ni[0].switches, 8 + 2);
    cr_assert_eq(ni[1].switches, 4);
    cr_assert_eq(ni[1].links, 128 + 4 * 2);
    cr_assert_eq(ni[2].hosts, 128 + 48 + 10 + 4);
    int lo[2], hi[2];
    cr_assert_eq(uplinks(p, OOB1, lo, hi), 8);
    for (int c = 0; c < 2; c++) {
        cr_assert_eq(lo[c], 17, "core %d", c + 1);
        cr_assert_eq(hi[c], 20, "core %d", c + 1);
    }
    /* oob2's own leaves (its 190 hosts' leaves, as many as the plan gives) take 2 uplinks
     * each, one per core, right after oob's. */
    int64_t n2 = uplinks(p, OOB2, lo, hi);
    cr_assert_eq(n2, 2 * ni[2].switches);
    for (int c = 0; c < 2; c++) {
        cr_assert_eq(lo[c], 21, "core %d", c + 1);
        cr_assert_eq(hi[c], 20 + ni[2].switches, "core %d", c + 1);
    }
    /* Each in-band core once: a switch line of the in-band BOM, none of the others'. */
    fp_bom_line b;
    int64_t cores = 0;
    for (size_t net = 1; net <= 3; net++)
        for (size_t i = 0; i < fp_plan_net_bom_count(p, net); i++) {
            cr_assert_eq(fp_plan_net_bom_line(p, net, i, &b, NULL), FP_OK);
            if (b.kind == FP_BOM_SWITCH && !b.spare && strcmp(b.part, "nvidia-sn4600c") == 0) {
                cr_assert_eq(net, INB, "network %zu buys SN4600C", net);
                cores += b.quantity;
            }
        }
    cr_assert_eq(cores, 8 + 2);
    fp_totals all, sum = { 0 }, t;
    fp_plan_totals(p, &all);
    for (size_t net = 0; net < fp_plan_net_count(p); net++) {
        cr_assert_eq(fp_plan_net_totals(p, net, &t, NULL), FP_OK);
        sum.switches += t.switches;
    }
    cr_assert_eq(all.switches, 48 + 10 + 4 + ni[2].switches);
    cr_assert_eq(sum.switches, all.switches);
    fp_plan_free(p);
}

/* Every document has each uplink once, and each core once: cables.csv has a row per cable of
 * every network (the uplinks among the out-of-band network's), netbox-devices.csv one row per
 * in-band core, plan.json the cores' ports used once, on the in-band network (per core 16 of
 * its own + 4 of oob: 2 x 20 = 40; none on the out-of-band network's top tier). */
Test(attach, documents_count_each_uplink_and_core_once)
{
    char nets[2048], dir[64], path[128], line[1024];
    snprintf(nets, sizeof nets, INBAND ", " OOB("oob", ""), "\"nvidia-sn4600c\"");
    fp_plan *p = plan_of(nets);
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_CABLES | FP_WRITE_NETBOX | FP_WRITE_JSON | FP_WRITE_LINKS;
    scratch_dir(dir, sizeof dir, "attach");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    int64_t up_cables = 0, up_links = 0, core_rows = 0;
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in);
    while (fgets(line, sizeof line, in))
        up_cables += strstr(line, "oob-su") != NULL && strstr(line, "inband-spine-0") != NULL;
    fclose(in);
    snprintf(path, sizeof path, "%s/links.csv", dir);
    cr_assert_not_null(in = fopen(path, "r"));
    while (fgets(line, sizeof line, in))
        up_links += strstr(line, "oob-su") != NULL && strstr(line, "inband-spine-0") != NULL;
    fclose(in);
    snprintf(path, sizeof path, "%s/netbox-devices.csv", dir);
    cr_assert_not_null(in = fopen(path, "r"));
    while (fgets(line, sizeof line, in))
        core_rows += strncmp(line, "inband-spine-0", 14) == 0;
    fclose(in);
    cr_assert_eq(up_links, 8);
    cr_assert_eq(up_cables, 8);
    cr_assert_eq(core_rows, 2);
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *json = slurp(path);
    cJSON *root = cJSON_Parse(json);
    cr_assert_not_null(root);
    const cJSON *nw = cJSON_GetObjectItem(root, "networks");
    const cJSON *inb = cJSON_GetArrayItem(nw, 0), *oob = cJSON_GetArrayItem(nw, 1);
    const cJSON *ti = cJSON_GetArrayItem(cJSON_GetObjectItem(inb, "tiers"), 1);
    const cJSON *to = cJSON_GetArrayItem(cJSON_GetObjectItem(oob, "tiers"), 1);
    cr_assert_eq(cJSON_GetObjectItem(ti, "ports_used")->valueint, 2 * (16 + 4));
    cr_assert_eq(cJSON_GetObjectItem(ti, "switches")->valueint, 2);
    cr_assert_eq(cJSON_GetObjectItem(to, "ports_used")->valueint, 0);
    cr_assert_eq(cJSON_GetObjectItem(to, "switches")->valueint, 0);
    cr_assert_str_eq(cJSON_GetObjectItem(oob, "uplink_to")->valuestring, "inband");
    cr_assert_null(cJSON_GetObjectItem(inb, "uplink_to"));
    cJSON_Delete(root);
    free(json);
    fp_plan_free(p);
}

/* The target's free ports: inline 18-port cores take the in-band network's 32 uplinks as 2
 * cores of 16 (ceil(32 / 18) = 2), leaving 2 free ports on each, where oob's 8 uplinks need 4
 * on each: an error naming uplink_to. */
Test(attach, target_without_free_ports_is_an_error)
{
    char nets[2048];
    snprintf(nets, sizeof nets, INBAND ", " OOB("oob", ""),
             "[\"nvidia-sn4600c\", {\"ports\": 18, \"port_gbps\": 100}]");
    expect_error(nets, FP_EDESIGN, "/networks/1/uplink_to", "need 4 free ports on each");
    expect_error(nets, FP_EDESIGN, "/networks/1/uplink_to", "has 2 of its 18 usable ports free");
    /* More leaves than two tiers hold: a leaf of one host (hosts_per_leaf 1) makes 128 leaves,
     * and a 64-port top switch reaches 64 of them; an attached network cannot take a third
     * tier, so the error names uplink_to (not tiers, which it may not set). */
    snprintf(nets, sizeof nets, INBAND ", " OOB("oob", ", \"hosts_per_leaf\": 1, \"servers_per_leaf\": 1"),
             "\"nvidia-sn4600c\"");
    expect_error(nets, FP_EDESIGN, "/networks/1/uplink_to", "128 hosts exceed the 2-tier maximum of 64 hosts");
    expect_error(nets, FP_EDESIGN, "/networks/1/uplink_to", "a top tier of the network's own");
}

/* An out-of-band network after `first` whose uplink_to is `value` (JSON): the error. */
static void expect_uplink_error(const char *first, const char *value, fp_status code,
                                const char *where, const char *says)
{
    char nets[2048];
    snprintf(nets, sizeof nets, "%s, {\"name\": \"oob\", \"role\": \"oob\", \"port_gbps\": 1,"
             " \"switch\": \"nvidia-sn2201\", \"uplink_to\": %s}", first, value);
    expect_error(nets, code, where, says);
}

Test(attach, each_error_names_uplink_to)
{
    char inb[512], nets[2048];
    snprintf(inb, sizeof inb, INBAND, "\"nvidia-sn4600c\"");
    /* Itself, the compute fabric, a network listed after it (two networks cannot attach to
     * each other: no cycle), a name no network has, not a name. */
    expect_uplink_error(inb, "\"oob\"", FP_EINVAL, "/networks/1/uplink_to", "is this network");
    expect_uplink_error(inb, "\"compute\"", FP_EINVAL, "/networks/1/uplink_to",
                        "the compute fabric takes no");
    snprintf(nets, sizeof nets, "%s, %s",
             "{\"name\": \"a\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": \"nvidia-sn2201\", \"uplink_to\": \"b\"}",
             "{\"name\": \"b\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": \"nvidia-sn2201\", \"uplink_to\": \"a\"}");
    expect_error(nets, FP_EINVAL, "/networks/0/uplink_to", "is /networks/1, listed after this one");
    expect_uplink_error(inb, "\"inbnd\"", FP_EINVAL, "/networks/1/uplink_to",
                        "no network listed before this one is named \"inbnd\"; expected one of the networks before it: \"inband\"");
    expect_uplink_error(inb, "3", FP_EINVAL, "/networks/1/uplink_to", "");
    /* A target that itself attaches: name the network whose switches are the top tier. */
    snprintf(nets, sizeof nets, "%s, " OOB("oob", "") ", %s", inb,
             "{\"name\": \"x\", \"role\": \"oob\", \"port_gbps\": 1, \"switch\": \"nvidia-sn2201\", \"uplink_to\": \"oob\"}");
    expect_error(nets, FP_EINVAL, "/networks/2/uplink_to", "\"oob\" itself uplinks to \"inband\"");
    /* The settings of a top tier of its own. */
    snprintf(nets, sizeof nets, "%s, " OOB("oob", ", \"tiers\": 2"), inb);
    expect_error(nets, FP_EINVAL, "/networks/1/tiers", "leave tiers out");
    snprintf(nets, sizeof nets, "%s, " OOB("oob", ", \"spread\": \"even\""), inb);
    expect_error(nets, FP_EINVAL, "/networks/1/spread", "leave spread out");
    snprintf(nets, sizeof nets, "%s, " OOB("oob", ", \"min_top_switches\": 2"), inb);
    expect_error(nets, FP_EINVAL, "/networks/1/min_top_switches", "leave min_top_switches out");
    snprintf(nets, sizeof nets, "%s, %s", inb,
             "{\"name\": \"oob\", \"role\": \"oob\", \"port_gbps\": 1, \"uplink_to\": \"inband\","
             " \"switch\": [\"nvidia-sn2201\", \"nvidia-sn4600c\"]}");
    expect_error(nets, FP_EINVAL, "/networks/1/switch", "expected one model");
    /* Protocols: an InfiniBand storage fabric takes no Ethernet leaves' uplinks. */
    snprintf(nets, sizeof nets, "%s, %s",
             "{\"name\": \"inband\", \"role\": \"storage\", \"port_gbps\": 400, \"switch\": \"nvidia-qm9700\"}",
             OOB("oob", ""));
    expect_error(nets, FP_EINVAL, "/networks/1/uplink_to", "speaks infiniband");
    /* Speeds: a target whose cores run their ports at 25G (split 4 ways) against the SN2201's
     * 100G uplinks. */
    snprintf(nets, sizeof nets, "%s, %s",
             "{\"name\": \"inband\", \"role\": \"management\", \"ports_per_server\": 1, \"port_gbps\": 25,"
             " \"switch\": \"nvidia-sn4600c\"}",
             OOB("oob", ""));
    expect_error(nets, FP_EDESIGN, "/networks/1/uplink_to", "leaves uplink at 100G");
}

/* --fail on a core of the target: the in-band network loses the switch and its 16 leaf-core
 * links; the out-of-band network loses no switch of its own (the core is the in-band
 * network's) but the 4 uplinks into it (one per leaf), and no host (each leaf keeps its uplink
 * to the other core); its bisection is its narrowest boundary, the 128 BMC links at 1G:
 * 128 / 2 = 64 Gb/s, before and after (the uplinks, 4 x 100 / 2 = 200 Gb/s, are wider). Both
 * cores down: the 8 uplinks, and each leaf is alone: the largest piece is one leaf's 32 BMCs,
 * the other 3 x 32 = 96 (all servers) cut off; no uplink left, bisection 0. */
Test(attach, a_failed_core_is_the_targets_switch)
{
    char nets[2048];
    snprintf(nets, sizeof nets, INBAND ", " OOB("oob", ""), "\"nvidia-sn4600c\"");
    fp_plan *p = plan_of(nets);
    fp_failure_report r;
    fp_network_failure inb, oob;
    fp_error err = { 0 };
    const char *one[] = { "inband-spine-01" }, *both[] = { "inband-spine-01", "inband-spine-02" };
    cr_assert_eq(fp_plan_fail(&r, p, one, 1, 1, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_fail_network(&inb, p, INB - 1, &r, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_fail_network(&oob, p, OOB1 - 1, &r, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(inb.switches_failed, 1);
    cr_expect_eq(inb.links_failed, 16);
    cr_expect_eq(oob.switches_failed, 0, "the core is the in-band network's switch");
    cr_expect_eq(oob.links_failed, 4);
    cr_expect_eq(oob.hosts_cut_off, 0);
    cr_expect_float_eq(oob.bisection_before_gbps, 64.0, 1e-9);
    cr_expect_float_eq(oob.bisection_after_gbps, 64.0, 1e-9);
    cr_assert_eq(fp_plan_fail(&r, p, both, 2, 1, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_fail_network(&oob, p, OOB1 - 1, &r, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(oob.switches_failed, 0);
    cr_expect_eq(oob.links_failed, 8);
    cr_expect_eq(oob.hosts_cut_off, 96);
    cr_expect_eq(oob.servers_cut_off, 96);
    cr_expect_float_eq(oob.bisection_after_gbps, 0.0, 1e-9);
    fp_plan_free(p);
}
