/* The preset dgx-h100-4su-networks against the published design: NVIDIA, "DGX SuperPOD: Next
 * Generation Scalable Infrastructure for AI Leadership", RA-11333-001 V11, Appendix A, Table 7
 * (major components of the 4 SU, 127-node DGX SuperPOD) and Table 8 (cables), as transcribed in
 * shared/reference/superpod-h100-networks.md. Every count below is the table's, or derived from
 * the preset's inputs by the rule docs/spec.md gives, never read from the program; where the
 * preset does not reach the table the comment says by how much and why (docs/spec.md, "The
 * preset dgx-h100-4su-networks"). Read through the public API only (fp_plan_net_*: network 0
 * the compute fabric, then storage, inband, oob in spec order). */
#include <criterion/criterion.h>
#include <string.h>
#include "helpers.h"

enum { COMPUTE = 0, STORAGE = 1, INBAND = 2, OOB = 3 };

/* Switches of network net whose catalog model is `model`. */
static int64_t switches_of(const fp_plan *p, size_t net, const char *model)
{
    int64_t n = 0;
    fp_device_info d;
    for (size_t i = 0; i < fp_plan_net_device_count(p, net); i++) {
        cr_assert_eq(fp_plan_net_device(p, net, i, &d, NULL), FP_OK);
        n += d.tier > 0 && strcmp(d.model, model) == 0;
    }
    return n;
}

static int64_t switches_all(const fp_plan *p, size_t net)
{
    int64_t n = 0;
    fp_device_info d;
    for (size_t i = 0; i < fp_plan_net_device_count(p, net); i++) {
        cr_assert_eq(fp_plan_net_device(p, net, i, &d, NULL), FP_OK);
        n += d.tier > 0;
    }
    return n;
}

/* Model of the switch of networks 0 .. upto - 1 named `name`, NULL when there is none. */
static const char *switch_model(const fp_plan *p, size_t upto, const char *name)
{
    static fp_device_info d;
    for (size_t n = 0; n < upto; n++)
        for (size_t i = 0; i < fp_plan_net_device_count(p, n); i++) {
            cr_assert_eq(fp_plan_net_device(p, n, i, &d, NULL), FP_OK);
            if (d.tier > 0 && strcmp(d.name, name) == 0)
                return d.model;
        }
    return NULL;
}

/* Host links of network net that end on the management interface of a switch of an earlier
 * network (or the compute fabric): the switch's own name, and the port the catalog names
 * (mgmt_port: "mgmt0" on the QM9700, "eth0" on the Cumulus SN4600C). */
static int64_t mgmt_links(const fp_plan *p, size_t net)
{
    int64_t n = 0;
    fp_link_info l;
    fp_device_info a;
    for (size_t i = 0; i < fp_plan_net_link_count(p, net); i++) {
        cr_assert_eq(fp_plan_net_link(p, net, i, &l, NULL), FP_OK);
        cr_assert_eq(fp_plan_net_device(p, net, (size_t)l.a, &a, NULL), FP_OK);
        const char *m = l.boundary == 0 ? switch_model(p, net, a.name) : NULL;
        if (m == NULL)
            continue;
        cr_assert_str_eq(l.a_port_name, strcmp(m, "nvidia-qm9700") == 0 ? "mgmt0" : "eth0",
                         "%s (%s)", a.name, m);
        n++;
    }
    return n;
}

/* Links of network net in one class: host links (boundary 0) whose host's name starts with
 * `group` followed by "-NN" (group NULL: the compute servers, which carry no group name: every
 * host whose name starts with none of `others` and is no switch's); or, group "", the switch-to-switch links of
 * `boundary` (peer 1: only those between two leaves, the MLAG peer links; peer 0: the others). */
static int64_t host_links(const fp_plan *p, size_t net, const char *group,
                          const char *const *others)
{
    int64_t n = 0;
    fp_link_info l;
    fp_device_info a;
    for (size_t i = 0; i < fp_plan_net_link_count(p, net); i++) {
        cr_assert_eq(fp_plan_net_link(p, net, i, &l, NULL), FP_OK);
        if (l.boundary != 0)
            continue;
        cr_assert_eq(fp_plan_net_device(p, net, (size_t)l.a, &a, NULL), FP_OK);
        if (a.tier != 0)
            continue;
        if (group != NULL) {
            size_t k = strlen(group);
            n += strncmp(a.name, group, k) == 0 && a.name[k] == '-' && a.name[k + 1] >= '0' &&
                 a.name[k + 1] <= '9';
            continue;
        }
        int other = switch_model(p, net, a.name) != NULL;
        for (int g = 0; others && others[g]; g++)
            other |= strncmp(a.name, others[g], strlen(others[g])) == 0;
        n += !other;
    }
    return n;
}

static int64_t switch_links(const fp_plan *p, size_t net, int peer)
{
    int64_t n = 0;
    fp_link_info l;
    fp_device_info a, z;
    for (size_t i = 0; i < fp_plan_net_link_count(p, net); i++) {
        cr_assert_eq(fp_plan_net_link(p, net, i, &l, NULL), FP_OK);
        cr_assert_eq(fp_plan_net_device(p, net, (size_t)l.a, &a, NULL), FP_OK);
        cr_assert_eq(fp_plan_net_device(p, net, (size_t)l.z, &z, NULL), FP_OK);
        if (a.tier == 0)
            continue;
        n += (a.tier == 1 && z.tier == 1) == (peer != 0);
    }
    return n;
}

/* Table 8's 16 out-of-band 100G uplinks "to the in-band network": each SN2201 has 2, on 2
 * different in-band cores, each on an in-band core port no in-band link uses, no port taken
 * twice. */
static void uplinks_into_inband(const fp_plan *p)
{
    fp_link_info l, k;
    fp_device_info a, z, y;
    int64_t n = 0;
    for (size_t i = 0; i < fp_plan_net_link_count(p, OOB); i++) {
        cr_assert_eq(fp_plan_net_link(p, OOB, i, &l, NULL), FP_OK);
        if (l.boundary != 1)
            continue;
        cr_assert_eq(fp_plan_net_device(p, OOB, (size_t)l.a, &a, NULL), FP_OK);
        cr_assert_eq(fp_plan_net_device(p, OOB, (size_t)l.z, &z, NULL), FP_OK);
        cr_assert_str_eq(a.model, "nvidia-sn2201");
        cr_assert_eq(l.gbps, 100);
        n++;
        int64_t same_leaf = 0;
        for (size_t j = 0; j < fp_plan_net_link_count(p, OOB); j++) {
            cr_assert_eq(fp_plan_net_link(p, OOB, j, &k, NULL), FP_OK);
            if (j == i || k.boundary != 1)
                continue;
            cr_assert_eq(fp_plan_net_device(p, OOB, (size_t)k.z, &y, NULL), FP_OK);
            same_leaf += k.a == l.a;
            if (k.a == l.a)
                cr_assert_str_neq(y.name, z.name, "%s: both uplinks on %s", a.name, z.name);
            if (strcmp(y.name, z.name) == 0)
                cr_assert_str_neq(k.z_port_name, l.z_port_name, "%s %s twice", z.name, l.z_port_name);
        }
        cr_assert_eq(same_leaf, 1, "%s", a.name);
        for (size_t j = 0; j < fp_plan_net_link_count(p, INBAND); j++) {
            cr_assert_eq(fp_plan_net_link(p, INBAND, j, &k, NULL), FP_OK);
            cr_assert_eq(fp_plan_net_device(p, INBAND, (size_t)k.z, &y, NULL), FP_OK);
            if (strcmp(y.name, z.name) == 0)
                cr_assert_str_neq(k.z_port_name, l.z_port_name, "%s %s: in-band and out-of-band",
                                  z.name, l.z_port_name);
        }
    }
    cr_assert_eq(n, 16);
}

/* The preset's plan after setting ptr to value (JSON), or its status (*rc) when rc is not NULL
 * (the error in *err, no plan). */
static fp_plan *preset_set(const char *ptr, const char *value, fp_status *rc, fp_error *err)
{
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *p = NULL;
    cr_assert_eq(fp_catalog_new(&cat, err), FP_OK, "%s", err->msg);
    cr_assert_eq(fp_spec_preset(&spec, "dgx-h100-4su-networks", err), FP_OK, "%s", err->msg);
    cr_assert_eq(fp_spec_set(spec, ptr, value, err), FP_OK, "%s", err->msg);
    fp_status st = fp_plan_new(&p, spec, cat, err);
    if (rc != NULL)
        *rc = st;
    else
        cr_assert_eq(st, FP_OK, "%s", err->msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return p;
}

/* Table 7's switches per network, Table 8's cables per connection class.
 *
 * Compute (Table 7: 48 QM9700; Table 8: 2,040 NDR cables "DGX to leaf, leaf to spine"): 127
 *   DGX x 8 rails = 1,016 host cables and 4 SUs x 8 leaves x 32 up = 1,024 leaf-spine (the
 *   last SU, 31 DGX, keeps its full uplinks): 2,040; 32 leaves + 16 spines = 48.
 * Storage (Table 8: 494 NDR "DGX to leaf, leaf to spine", 48 to storage): 127 DGX x 2 ports =
 *   254, and 24 dual-port storage arrays = 48 (the preset's storage: 48 ports as Table 8 has).
 *   At the RA's "near 4:3" a QM9700 leaf of 32 hosts (hosts_per_leaf) has 32 x 3 / 4 = 24 up:
 *   151 hosts per rail over ceil(151 / 32) = 5 leaf pairs = 10 leaves, 10 x 24 = 240 up, so
 *   254 + 240 = 494 as Table 8; 240 links on 64-port spines: 4 spines (24 up per leaf spread
 *   evenly over the least divisor of 24 from 4). 14 QM9700, 2 fewer than Table 7's 16: the RA
 *   puts its storage on leaves of their own at 1:1 (4 leaves of 12 ports down, 12 up: 8 + 4
 *   + 4 = 16), and a network here has one ratio for all its leaves (a finding, docs/spec.md).
 * In-band (Table 7: 8 SN4600C; Table 8: 254 DGX, 8 management nodes, 8 NFS, 24 leaf to core, 6
 *   ISL): 127 x 2 = 254, 4 management servers x 2 = 8, 4 NFS servers x 2 = 8 (Table 7's 4
 *   management servers; the NFS servers' count is Table 8's 8 cables / 2 ports); a leaf of 64
 *   x 100G with 4 up (uplinks_per_leaf) takes up to 60 hosts: 135 hosts per rail over
 *   ceil(135 / 60) = 3 MLAG pairs = 6 leaves, 6 x 4 = 24 leaf-core links; 24 links fit one
 *   64-port core, a dual-homed network takes at least 2; 3 pairs x 2 peer links = 6 ISL.
 *   6 + 2 = 8 SN4600C. The 4 uplinks to the data-centre core are not modelled (no setting).
 * Out-of-band (Table 7: 8 SN2201; Table 8: 1G to 127 DGX, 64 InfiniBand switches, 8
 *   management / UFM nodes, 8 in-band switches, 2 UFM back-to-back, 108 PDUs; 16 x 100G, two
 *   uplinks per SN2201): 127 BMCs; 4 + 4 management and UFM BMCs; one management port per
 *   switch of the networks before it (count "switches"): 48 + 14 + 8 = 70 (Table 8: 64 + 8 =
 *   72, the storage network's 2 missing switches); Table 7's 96 + 12 = 108 PDUs. Two SN2201
 *   per SU (servers_per_leaf 16): ceil(127 / 16) = 8 leaves, whose 8 x 48 = 384 ports hold the
 *   313 hosts (hosts_per_leaf 48: the extra endpoints fill the free ports); 8 x 2 = 16
 *   uplinks, into the in-band network as the RA cables them ("two uplinks per OOB switch to
 *   the in-band network"; uplink_to "inband"): the out-of-band network has no switch of its
 *   own above its 8 SN2201 (Table 7 lists 8 out-of-band switches and no other), and its top
 *   tier is the in-band network's 2 cores, each SN2201's 2 uplinks spread over the 2 cores
 *   (one each: 8 per core). A core's 64 ports hold its 6 leaves x 4 / 2 = 12 in-band links
 *   and the 8 out-of-band uplinks (20 of 64). The uplinks are the out-of-band network's
 *   links (Table 8 lists them under out-of-band); the in-band network keeps its 300. The 2 UFM
 *   back-to-back cables join two appliances directly, a class no setting expresses.
 * Cables: Table 8 counts one NDR cable per 400G connection; the plan counts links so (a link
 *   per port pair). Each link of the compute, in-band and out-of-band networks is one cable; the
 *   storage network's QM9700 cages hold two 400G ports, and its cabling joins two links of one
 *   cage in one twin-port cable where both run to one place, so it has fewer cables than links
 *   (as many as half of them at the least). */
Test(superpod, table7_switches_table8_cables, .timeout = TEST_TIMEOUT(120))
{
    fp_plan *p = plan_from_preset("dgx-h100-4su-networks");
    cr_assert_eq(fp_plan_net_count(p), 4);
    static const char *const names[] = { "storage", "inband", "oob" };
    for (size_t n = 0; n < 3; n++) {
        fp_network_info ni;
        cr_assert_eq(fp_plan_network(p, n, &ni, NULL), FP_OK);
        cr_assert_str_eq(ni.name, names[n]);
    }

    /* Table 7: switches per network. */
    cr_assert_eq(switches_of(p, COMPUTE, "nvidia-qm9700"), 48);
    cr_assert_eq(switches_all(p, COMPUTE), 48);
    cr_assert_eq(switches_of(p, STORAGE, "nvidia-qm9700"), 16 - 2);
    cr_assert_eq(switches_all(p, STORAGE), 16 - 2);
    cr_assert_eq(switches_of(p, INBAND, "nvidia-sn4600c"), 8);
    cr_assert_eq(switches_all(p, INBAND), 8);
    cr_assert_eq(switches_of(p, OOB, "nvidia-sn2201"), 8);
    fp_network_info oi;
    cr_assert_eq(fp_plan_network(p, OOB - 1, &oi, NULL), FP_OK);
    cr_assert_eq(oi.switches, 8, "the out-of-band network's own switches: its SN2201 only");
    /* Its top tier is the in-band network's cores: every switch above its leaves is one. */
    fp_device_info d;
    int64_t above = 0;
    for (size_t i = 0; i < fp_plan_net_device_count(p, OOB); i++) {
        cr_assert_eq(fp_plan_net_device(p, OOB, i, &d, NULL), FP_OK);
        if (d.tier < 2)
            continue;
        above++;
        cr_assert_str_eq(switch_model(p, INBAND + 1, d.name), "nvidia-sn4600c", "%s", d.name);
        cr_assert_eq(d.owner, INBAND, "%s", d.name);
    }
    cr_assert_eq(above, 2);

    /* Table 8, compute: 2,040 NDR cables. */
    cr_assert_eq(fp_plan_net_link_count(p, COMPUTE), 2040);
    cr_assert_eq(host_links(p, COMPUTE, NULL, NULL), 127 * 8);
    cr_assert_eq(switch_links(p, COMPUTE, 0), 2040 - 127 * 8);

    /* Table 8, storage: 494 DGX-leaf and leaf-spine, 48 storage. */
    static const char *const storage_groups[] = { "storage-array-", NULL };
    cr_assert_eq(host_links(p, STORAGE, NULL, storage_groups) + switch_links(p, STORAGE, 0), 494);
    cr_assert_eq(host_links(p, STORAGE, NULL, storage_groups), 254);
    cr_assert_eq(host_links(p, STORAGE, "storage-array", NULL), 48);
    cr_assert_eq(switch_links(p, STORAGE, 1), 0);

    /* Table 8, in-band: 254 DGX, 8 management nodes, 8 NFS, 24 leaf-core, 6 ISL. */
    static const char *const inband_groups[] = { "mgmt-server-", "nfs-", NULL };
    cr_assert_eq(host_links(p, INBAND, NULL, inband_groups), 254);
    cr_assert_eq(host_links(p, INBAND, "mgmt-server", NULL), 8);
    cr_assert_eq(host_links(p, INBAND, "nfs", NULL), 8);
    cr_assert_eq(switch_links(p, INBAND, 0), 24);
    cr_assert_eq(switch_links(p, INBAND, 1), 6);
    cr_assert_eq(fp_plan_net_link_count(p, INBAND), 254 + 8 + 8 + 24 + 6);

    /* Table 8, out-of-band: 1G to 127 DGX, 8 management / UFM, the switches' management ports
     * (64 + 8 in the RA, 62 + 8 here), 108 PDUs; 16 x 100G uplinks. */
    static const char *const oob_groups[] = { "mgmt-server-bmc-", "ufm-bmc-", "pdu-", NULL };
    cr_assert_eq(host_links(p, OOB, NULL, oob_groups), 127);
    cr_assert_eq(host_links(p, OOB, "mgmt-server-bmc", NULL) + host_links(p, OOB, "ufm-bmc", NULL), 8);
    cr_assert_eq(mgmt_links(p, OOB), (64 - 2) + 8);
    cr_assert_eq(host_links(p, OOB, "switch-mgmt", NULL), 0);
    cr_assert_eq(host_links(p, OOB, "pdu", NULL), 96 + 12);
    cr_assert_eq(switch_links(p, OOB, 0), 16);
    cr_assert_eq(fp_plan_net_link_count(p, OOB), 127 + 8 + 70 + 108 + 16);
    uplinks_into_inband(p);

    for (size_t n = 0; n < fp_plan_net_count(p); n++)
        if (n != STORAGE)
            cr_assert_eq(fp_plan_net_cable_count(p, n), fp_plan_net_link_count(p, n), "network %zu", n);
    cr_assert_lt(fp_plan_net_cable_count(p, STORAGE), 494 + 48);
    cr_assert_geq(fp_plan_net_cable_count(p, STORAGE), (494 + 48 + 1) / 2);
    fp_plan_free(p);
}

/* The same preset at 2 SUs (512 GPUs, 64 DGX): the dual-homed networks (storage, in-band) keep
 * at least two top switches (storage: 64 + 24 = 88 hosts, ceil(88 / 32) = 3 pairs of 24 up:
 * 144 links, 3 spines; in-band: 72 hosts in ceil(72 / 60) = 2 pairs of 4 up: 16 links, which
 * one core would carry, and 2 cores), and every SN2201 has its two uplinks. */
Test(superpod, two_sus_no_single_top_switch, .timeout = TEST_TIMEOUT(120))
{
    fp_error err = { 0 };
    fp_plan *p = preset_set("/cluster/gpus", "512", NULL, &err);
    const int64_t top[] = { 0, 3, 2 };
    for (size_t n = STORAGE; n <= INBAND; n++) {
        int64_t tops = 0;
        fp_device_info d;
        for (size_t i = 0; i < fp_plan_net_device_count(p, n); i++) {
            cr_assert_eq(fp_plan_net_device(p, n, i, &d, NULL), FP_OK);
            tops += d.tier == 2;
        }
        cr_assert_eq(tops, top[n], "network %zu", n);
    }
    int64_t sn2201 = 0;
    fp_device_info d;
    for (size_t i = 0; i < fp_plan_net_device_count(p, OOB); i++) {
        cr_assert_eq(fp_plan_net_device(p, OOB, i, &d, NULL), FP_OK);
        if (strcmp(d.model, "nvidia-sn2201") != 0)
            continue;
        sn2201++;
        int64_t up = 0;
        fp_link_info l;
        for (size_t k = 0; k < fp_plan_net_link_count(p, OOB); k++) {
            cr_assert_eq(fp_plan_net_link(p, OOB, k, &l, NULL), FP_OK);
            up += l.a == (int64_t)i && l.boundary == 1;
        }
        cr_assert_eq(up, 2, "%s", d.name);
    }
    cr_assert_geq(sn2201, 64 / 16);
    fp_plan_free(p);
}

/* count "switches" follows the plan: with the storage network at 1:1 (32 up per leaf: more
 * spines than the preset's 4), the out-of-band switch-mgmt group still has one endpoint per
 * switch of the compute, storage and in-band networks, counted here from their device lists.
 * Any other string is an error naming the group's count. */
Test(superpod, switch_management_ports_follow_the_plan, .timeout = TEST_TIMEOUT(120))
{
    fp_error err = { 0 };
    fp_status rc = FP_OK;
    fp_plan *p = preset_set("/networks/0/oversubscription", "[1]", NULL, &err);
    static const char *const oob_groups[] = { "mgmt-server-bmc-", "ufm-bmc-", "pdu-", NULL };
    int64_t before = switches_all(p, COMPUTE) + switches_all(p, STORAGE) + switches_all(p, INBAND);
    cr_assert_gt(switches_all(p, STORAGE), 14);
    cr_assert_eq(mgmt_links(p, OOB), before);
    cr_assert_eq(host_links(p, OOB, NULL, oob_groups), 127);
    fp_plan_free(p);
    p = preset_set("/networks/2/extra_endpoints/2/count", "\"racks\"", &rc, &err);
    cr_assert_null(p);
    cr_assert_eq(rc, FP_EINVAL);
    cr_assert_str_eq(err.where, "/networks/2/extra_endpoints/2", "%s", err.msg);
    cr_assert(strstr(err.msg, "/networks/2/extra_endpoints/2/count") != NULL, "%s", err.msg);
    cr_assert(strstr(err.msg, "\"switches\"") != NULL, "%s", err.msg);
}

/* Fields of one CSV line without quoted commas (cables.csv's first 13 columns have none):
 * f[0..n) point into line, which is cut at each comma. */
static int csv_fields(char *line, char **f, int n)
{
    int k = 0;
    for (char *s = line; k < n; k++) {
        f[k] = s;
        char *c = strchr(s, ',');
        if (c == NULL) {
            s[strcspn(s, "\r\n")] = '\0';
            return k + 1;
        }
        *c = '\0';
        s = c + 1;
    }
    return k;
}

/* The out-of-band cables to the switches' management ports end where each switch stands:
 * cables.csv gives the management port's end (a side) the hall, row, rack and unit of that
 * switch's other cables (its own network's), and NetBox cables the interface on the
 * switch's own device: every cable end of netbox-cables.csv is a device of netbox-devices.csv
 * and an interface of netbox-interfaces.csv, and no device stands for a management port. */
Test(superpod, management_cables_end_on_the_switch, .timeout = TEST_TIMEOUT(120))
{
    fp_plan *p = plan_from_preset("dgx-h100-4su-networks");
    char dir[64], path[128], line[2048], *f[16];
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_CABLES | FP_WRITE_NETBOX;
    scratch_dir(dir, sizeof dir, "superpod");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    /* Every device's place from its cables on other ports: name -> "hall/row/rack/u". */
    enum { MAXD = 4096 };
    static char where[MAXD][96], who[MAXD][64];
    int nd = 0, mgmt = 0;
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in);
    for (int pass = 0; pass < 2; pass++) {
        rewind(in);
        cr_assert_not_null(fgets(line, sizeof line, in));
        while (fgets(line, sizeof line, in)) {
            cr_assert_geq(csv_fields(line, f, 13), 13);
            for (int side = 0; side < 2; side++) {
                char **e = f + 1 + 6 * side;     /* hall, row, rack, u, device, port */
                int is_mgmt = strcmp(e[5], "mgmt0") == 0 || strcmp(e[5], "eth0") == 0;
                char at[96];
                snprintf(at, sizeof at, "%s/%s/%s/%s", e[0], e[1], e[2], e[3]);
                if (pass == 0 && !is_mgmt) {
                    int k = 0;
                    while (k < nd && strcmp(who[k], e[4]) != 0)
                        k++;
                    if (k == nd && nd < MAXD) {
                        snprintf(who[nd], sizeof who[nd], "%s", e[4]);
                        snprintf(where[nd++], sizeof where[0], "%s", at);
                    }
                } else if (pass == 1 && is_mgmt) {
                    int k = 0;
                    while (k < nd && strcmp(who[k], e[4]) != 0)
                        k++;
                    cr_assert_lt(k, nd, "%s has no cable of its own network", e[4]);
                    cr_assert_str_eq(at, where[k], "%s %s", e[4], e[5]);
                    mgmt++;
                }
            }
        }
    }
    fclose(in);
    cr_assert_eq(mgmt, (64 - 2) + 8);
    /* NetBox: devices and interfaces of every cable end. */
    static char devs[MAXD][64], ifs[4 * MAXD][96];
    int ndev = 0, nif = 0, ends = 0;
    snprintf(path, sizeof path, "%s/netbox-devices.csv", dir);
    cr_assert_not_null(in = fopen(path, "r"));
    cr_assert_not_null(fgets(line, sizeof line, in));
    while (fgets(line, sizeof line, in) && ndev < MAXD) {
        csv_fields(line, f, 1);
        cr_assert_neq(strncmp(f[0], "switch-mgmt", 11), 0, "%s", f[0]);
        snprintf(devs[ndev++], sizeof devs[0], "%s", f[0]);
    }
    fclose(in);
    snprintf(path, sizeof path, "%s/netbox-interfaces.csv", dir);
    cr_assert_not_null(in = fopen(path, "r"));
    cr_assert_not_null(fgets(line, sizeof line, in));
    while (fgets(line, sizeof line, in) && nif < 4 * MAXD) {
        csv_fields(line, f, 2);
        snprintf(ifs[nif++], sizeof ifs[0], "%s %s", f[0], f[1]);
    }
    fclose(in);
    snprintf(path, sizeof path, "%s/netbox-cables.csv", dir);
    cr_assert_not_null(in = fopen(path, "r"));
    cr_assert_not_null(fgets(line, sizeof line, in));
    while (fgets(line, sizeof line, in)) {
        csv_fields(line, f, 6);
        for (int side = 0; side < 2; side++) {
            const char *d = f[3 * side], *n = f[3 * side + 2];
            char key[96];
            int k = 0, j = 0;
            if (strcmp(n, "mgmt0") != 0 && strcmp(n, "eth0") != 0)
                continue;
            snprintf(key, sizeof key, "%s %s", d, n);
            while (k < ndev && strcmp(devs[k], d) != 0)
                k++;
            while (j < nif && strcmp(ifs[j], key) != 0)
                j++;
            cr_assert_lt(k, ndev, "no device %s", d);
            cr_assert_lt(j, nif, "no interface %s", key);
            ends++;
        }
    }
    fclose(in);
    cr_assert_eq(ends, (64 - 2) + 8);
    fp_plan_free(p);
}

/* report.html's media chart reads every network as the compute fabric: one bar per boundary of
 * each network (and one for the in-band MLAG peer links), each bar's links Table 8's (derived
 * in table7_switches_table8_cables): compute 1,016 DGX-leaf and 1,024 leaf-spine; storage 254
 * + 48 host links and 240 leaf-spine; in-band 270 host links, 24 leaf-core and 6 ISL;
 * out-of-band 127 + 8 + 70 + 108 = 313 host links and its 16 uplinks into the in-band cores. */
Test(superpod, media_chart_has_every_boundary_of_every_network, .timeout = TEST_TIMEOUT(120))
{
    static const struct { const char *bar; long long links; } want[] = {
        { "compute nic-leaf", 127 * 8 },     { "compute leaf-spine", 4 * 8 * 32 },
        { "storage nic-leaf", 127 * 2 + 48 }, { "storage leaf-spine", 10 * 24 },
        { "inband nic-leaf", 254 + 8 + 8 },   { "inband leaf-spine", 6 * 4 },
        { "inband mlag-peer", 3 * 2 },        { "oob nic-leaf", 127 + 8 + 70 + 108 },
        { "oob leaf-spine", 8 * 2 },
    };
    fp_plan *p = plan_from_preset("dgx-h100-4su-networks");
    char dir[64], path[128];
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_REPORT;
    scratch_dir(dir, sizeof dir, "superpod");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *html = slurp(path);
    cr_assert_not_null(html);
    const char *chart = strstr(html, "<title>Media mix</title>");
    cr_assert_not_null(chart);
    const char *end = strstr(chart, "</svg>");
    size_t bars = 0;
    for (const char *at = chart; (at = strstr(at, "text-anchor=\"end\">")) != NULL && at < end; bars++) {
        at += strlen("text-anchor=\"end\">");
        cr_assert_lt(bars, sizeof want / sizeof want[0], "a bar more than expected: %.30s", at);
        cr_assert_eq(strncmp(at, want[bars].bar, strlen(want[bars].bar)), 0, "bar %zu: %.30s", bars, at);
        cr_assert_eq(at[strlen(want[bars].bar)], '<');
        /* the bar's segments, up to the next bar: "<title>MEDIUM: N links</title>" */
        const char *next = strstr(at, "text-anchor=\"end\">");
        if (next == NULL || next > end)
            next = end;
        long long links = 0;
        for (const char *t = at; (t = strstr(t, " links</title>")) != NULL && t < next; t++) {
            const char *num = t;
            while (num > at && ((num[-1] >= '0' && num[-1] <= '9') || num[-1] == ','))
                num--;
            links += atoll_grouped(num);
        }
        cr_expect_eq(links, want[bars].links, "%s: %lld links", want[bars].bar, links);
    }
    cr_expect_eq(bars, sizeof want / sizeof want[0]);
    free(html);
    fp_plan_free(p);
}

/* A partial unit keeps the uplinks its leaves have in a full unit, no more (docs/spec.md,
 * "Rail-optimized exception"). gb200-nvl72-su at 2,000 GPUs, by hand: 2,000 / 4 = 500 trays of
 * 4 ConnectX-7 (4 rails); units of 144 trays: 3 full and one of 68. A rail of 144 on QM9700
 * leaves of 32 down at 1:1: ceil(144 / 32) = 5 leaves of ceil(144 / 5) = 29, loads 29, 29, 29,
 * 29, 28: 20 leaves a unit, 80 leaves; a full unit's uplinks 4 x 144 = 576, and the partial
 * one keeps those 576 (its fifth leaves take 28 trays when the unit fills, so 28 uplinks; the
 * 29 of a leaf's down ports made 580). Links 4 x 576 = 2,304. 2 tiers reach 64 / 20 = 3 units
 * (1,728 GPUs): 3 tiers; a spine below the top is 32 / 32, a pod is 32 / 20 = 1 unit: 4 pods.
 * Balanced: 576 / 32 = 18 spines a pod, 32 down and 32 up each: 72 spines, 2,304 links up.
 * Cores: a group per spine position, 4 x 32 = 128 links, 128 / 64 = 2: 36 cores, no port
 * idle. 80 + 72 + 36 = 188 switches ($5,264,000 at $28,000), NICs 2,000 x $1,900. Before the
 * fix: the last pod's 580 links took 19 spines, the 19 groups at the core 38 cores, 191
 * switches, and the builder wrote past its member scratch (the full pods' 18 spines each
 * narrower than the 19 groups; malloc abort). */
Test(superpod, gb200_partial_unit_keeps_a_full_units_uplinks)
{
    fp_plan *p =
        plan_from("{\"cluster\":{\"gpus\":2000,\"gpus_per_server\":4,\"nics_per_server\":4,"
                  "\"nic\":\"nvidia-cx7-osfp\"},\"fabric\":{\"topology\":\"rail-optimized\","
                  "\"switch\":\"nvidia-qm9700\",\"su_servers\":144,\"spread\":\"balanced\"}}");
    fp_totals t;
    fp_plan_totals(p, &t);
    cr_expect_eq(fp_plan_tier_count(p), 3);
    cr_expect_eq(tier_switches(p, 1), 80);
    cr_expect_eq(tier_switches(p, 2), 72);
    cr_expect_eq(tier_switches(p, 3), 36);
    fp_tier_info ti;
    cr_assert_eq(fp_plan_tier(p, 0, &ti, NULL), FP_OK);
    cr_expect_eq(ti.links_up, 4 * 576, "leaf uplinks %lld", (long long)ti.links_up);
    cr_assert_eq(fp_plan_tier(p, 1, &ti, NULL), FP_OK);
    cr_expect_eq(ti.links_up, 4 * 576);
    cr_expect_eq(ti.ports_spare, 0);
    cr_expect_eq(t.switches, 188);
    double usd = 0;
    cr_assert_eq(fp_plan_bom_category_total(&usd, NULL, p, FP_BOM_SWITCH, NULL), FP_OK);
    cr_expect_float_eq(usd, 188 * 28000.0, 1e-6);
    cr_assert_eq(fp_plan_bom_category_total(&usd, NULL, p, FP_BOM_NIC, NULL), FP_OK);
    cr_expect_float_eq(usd, 2000 * 1900.0, 1e-6);
    /* The note counts the unit's 576 and the ports its 76 trays to come will take per rail. */
    cr_expect(plan_has_note(p, "keeps its full 20 leaves and 576 leaf-spine links", NULL));
    cr_expect(plan_has_note(p, "leaving 304 leaf ports for servers to come", NULL));
    fp_plan_free(p);
}
