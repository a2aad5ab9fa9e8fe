/* Cabling: routes computed by hand from the layout parameters, media and transceivers by rule,
 * transceiver counts of a fat-tree by formula, overrides and the out-of-reach error. */
#include <math.h>
#include <unistd.h>
#include "helpers.h"

/* fp_plan_boundary_links for a boundary the plan has. */
static int64_t boundary_links(const fp_plan *p, int b)
{
    int64_t n = -1;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_boundary_links(p, b, &n, &err), FP_OK, "%s", err.msg);
    return n;
}

/* One rail-optimized 32-server scalable unit (256 GPUs, 8 rails, 2 tiers): 8 compute racks
 * K01..K08 (4 servers of 8U each, from U1 up) and the leaf rack K09 at the end of row R01;
 * the 4 spines in the central row R02, rack K01. Switches stack from U42 down. */
#define HAND_SPEC "{\"cluster\":{\"gpus\":256},\"fabric\":{\"topology\":\"rail-optimized\"}," \
    "\"layout\":{\"racks_per_row\":16,\"leaf_racks\":\"end\",\"service_loop_m\":0.5," \
    "\"slack_percent\":10,\"tray_height_m\":0.3}}"

#define RU_M 0.04445
#define PITCH (1.2 + 1.2)   /* rack depth + aisle */

/* Vertical run from a device at U u to the tray over a 42U rack. */
static double vertical(int u)
{
    return (42 - u + 1) * RU_M + 0.3;
}

/* Route between two racks: both verticals, the Manhattan run, 10 % slack and two 0.5 m loops. */
static double route(int u_a, int u_z, double dx, double dy)
{
    return (vertical(u_a) + vertical(u_z) + fabs(dx) + fabs(dy)) * 1.10 + 2 * 0.5;
}

static fp_cable_info cable_of_link(const fp_plan *p, int64_t link)
{
    fp_cable_info c;
    fp_error err = { 0 };
    size_t ci;
    cr_assert_eq(fp_plan_link_cable(p, (size_t)link, &ci, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_cable(p, ci, &c, &err), FP_OK, "%s", err.msg);
    return c;
}

/* The medium of a link the plan has. */
static fp_medium medium_of(const fp_plan *p, size_t link)
{
    fp_medium m = FP_MEDIUM_COUNT;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_link_medium(p, link, &m, &err), FP_OK, "%s", err.msg);
    return m;
}

Test(cabling, hand_routes_one_scalable_unit)
{
    fp_plan *p = plan_from(HAND_SPEC);
    /* Link order: NIC-leaf links by server, then NIC: link = server * 8 + nic. */

    /* node-01 (K01 U1) nic1 -> su01-leaf-r1 (K09 U42): 8 racks apart in the same row. */
    fp_cable_info c = cable_of_link(p, 0);
    double r = route(1, 42, 8 * 0.6, 0);                /* = 9.04 m */
    cr_expect_str_eq(c.id, "C0000001");
    cr_expect_float_eq(c.route_m, r, 0.006, "route %g, by hand %g", c.route_m, r);
    cr_expect_eq(c.stock_m, 10);                        /* OM4 stock: ... 7, 10 m */
    cr_expect_eq(c.medium, FP_MEDIUM_MMF);              /* > 7 m: beyond every copper part */
    cr_expect_str_eq(c.part, "fibre-om4-mpo12-apc");
    cr_expect_str_eq(c.a.loc.text, "H1-R01-K01-U01");
    cr_expect_str_eq(c.z[0].loc.text, "H1-R01-K09-U42");
    cr_expect_str_eq(c.a.device_name, "su01-node-01");
    cr_expect_str_eq(c.a.port, "nic1");
    cr_expect_str_eq(c.z[0].device_name, "su01-leaf-r1");
    cr_expect_str_eq(c.a.transceiver, "nvidia-mma4z00-ns400");   /* single-port on the NIC */
    cr_expect_str_eq(c.z[0].transceiver, "nvidia-mma4z00-ns");   /* twin-port on the switch */
    cr_expect(strstr(c.a.label, "C0000001") && strstr(c.a.label, "su01-leaf-r1 1/1/1"));
    cr_expect(strstr(c.z[0].label, "C0000001") && strstr(c.z[0].label, "su01-node-01 nic1"));

    /* node-02 (K01 U9) nic1 shares leaf-r1's cage p1-2 with node-01: its own fibre. */
    c = cable_of_link(p, 8);
    cr_expect_float_eq(c.route_m, route(9, 42, 8 * 0.6, 0), 0.006);
    cr_expect_eq(c.stock_m, 10);
    cr_expect_eq(c.medium, FP_MEDIUM_MMF);

    /* node-31 (K08 U17) and node-32 (K08 U25) nic1 share leaf-r1's cage p31-32, one rack away.
     * The longer leg: (26 + 1) U of verticals + 0.6 m -> 3.64 m: past the 3 m passive
     * splitter, within the 5 m active copper splitter, sold in 3/4/5 m: 4 m. One cable, two
     * legs, A end at the switch cage. */
    c = cable_of_link(p, 30 * 8);
    double r31 = route(17, 42, 0.6, 0), r32 = route(25, 42, 0.6, 0);
    cr_expect_float_eq(c.route_m, fmax(r31, r32), 0.006, "route %g", c.route_m);
    cr_expect_eq(c.medium, FP_MEDIUM_ACC);
    cr_expect_str_eq(c.part, "nvidia-acc-800g-split-2x400");
    cr_expect_eq(c.stock_m, 4);
    cr_expect_eq(c.n_z, 2);
    cr_expect_eq(c.n_links, 2);
    cr_expect_str_eq(c.a.device_name, "su01-leaf-r1");
    /* QM9700 ports 31 and 32 are ports 1 and 2 of cage 16; MLNX-OS writes asic/cage/port. */
    cr_expect_str_eq(c.a.port, "1/16/1+1/16/2");
    cr_expect_str_eq(c.z[0].device_name, "su01-node-31");
    cr_expect_str_eq(c.z[1].device_name, "su01-node-32");
    cr_expect_str_eq(c.z[1].loc.text, "H1-R01-K08-U25");
    cr_expect_str_eq(c.a.transceiver, "");
    cr_expect_eq(cable_of_link(p, 31 * 8).index, c.index);

    /* Leaf-spine: su01-leaf-r1 (K09 U42) -> spine-1 (R02 K01 U42): 8 racks across and one row
     * pitch (2.4 m) over: (2 x 0.34 + 4.8 + 2.4) x 1.1 + 1 = 9.68 m -> MMF, 10 m. */
    int64_t up0 = boundary_links(p, 0);
    c = cable_of_link(p, up0);
    cr_expect_eq(c.boundary, 1);
    cr_expect_str_eq(c.z[0].loc.text, "H1-R02-K01-U42");
    cr_expect_float_eq(c.route_m, route(42, 42, 8 * 0.6, PITCH), 0.006);
    cr_expect_eq(c.stock_m, 10);
    cr_expect_eq(c.medium, FP_MEDIUM_MMF);
    cr_expect_str_eq(c.a.transceiver, "nvidia-mma4z00-ns");
    cr_expect_str_eq(c.z[0].transceiver, "nvidia-mma4z00-ns");
    fp_plan_free(p);
}

/* fp_plan_cable_route_m: the length alone, for passes that need nothing else. node-01 nic1 ->
 * su01-leaf-r1 is route(1, 42, 8 racks x 0.6 m, 0) = 9.04 m by hand (as above); the splitter of
 * node-31/32 the longer of its two legs; out of range and a plan without cabling give 0. */
Test(cabling, route_length_alone)
{
    fp_plan *p = plan_from(HAND_SPEC);
    fp_error err = { 0 };
    size_t ci;
    cr_assert_eq(fp_plan_link_cable(p, 0, &ci, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(fp_plan_cable_route_m(p, ci), route(1, 42, 8 * 0.6, 0), 0.006);
    cr_assert_eq(fp_plan_link_cable(p, 30 * 8, &ci, &err), FP_OK, "%s", err.msg);
    cr_expect_float_eq(fp_plan_cable_route_m(p, ci), fmax(route(17, 42, 0.6, 0), route(25, 42, 0.6, 0)),
                       0.006);
    cr_expect_eq(fp_plan_cable_route_m(p, fp_plan_cable_count(p)), 0);
    cr_expect_eq(fp_plan_cable_route_m(NULL, 0), 0);
    fp_plan_free(p);

    fp_plan *fab_only = plan_with_stages(HAND_SPEC, FP_STAGE_FABRIC);
    cr_expect_eq(fp_plan_cable_route_m(fab_only, 0), 0);
    fp_plan_free(fab_only);
}

Test(cabling, same_rack_route_stays_in_the_rack)
{
    /* Top-of-rack leaf (fat-tree leaf: 32 down ports = one rack of 4 x 8-GPU servers) at U42;
     * node-01 at U1: 41 U inside the rack, 5 % slack, two 0.3 m loops = 2.51 m -> a 3 m
     * passive splitter (stock 1..3 m in 0.5 m steps). */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"fabric\":{\"topology\":\"fat-tree\"},"
                           "\"layout\":{\"leaf_racks\":\"top-of-rack\"}}");
    fp_cable_info c = cable_of_link(p, 0);
    double r = 41 * RU_M * 1.05 + 0.6;
    cr_expect_float_eq(c.route_m, r, 0.006, "route %g, by hand %g", c.route_m, r);
    cr_expect_eq(c.medium, FP_MEDIUM_DAC);
    cr_expect_str_eq(c.part, "nvidia-dac-800g-split-2x400");
    cr_expect_eq(c.stock_m, 3);
    cr_expect_str_eq(c.a.loc.text, "H1-R01-K01-U42");
    cr_expect_str_eq(c.z[0].loc.text, "H1-R01-K01-U01");
    cr_expect_str_eq(c.z[1].port, "nic2");          /* the leaf's cage p1-2: nic1 and nic2 */
    fp_plan_free(p);
}

static int64_t transceivers(const fp_plan *p)
{
    fp_totals t;
    fp_plan_totals(p, &t);
    return t.transceivers;
}

#define FAT_TREE "{\"cluster\":{\"gpus\":4096},\"fabric\":{\"topology\":\"fat-tree\"," \
    "\"switch\":\"nvidia-qm9700\"},"

Test(cabling, fat_tree_all_optical_is_three_and_a_half_modules_per_gpu)
{
    /* Every GPU: one single-port NIC module; five switch-side link ends (leaf down and up,
     * spine down and up, core down) on twin-port modules that serve two links each. */
    const int64_t gpus = 4096;
    fp_plan *p = plan_from(FAT_TREE "\"media\":{\"default\":[\"MMF\",\"SMF\"]}}");
    cr_expect_eq(transceivers(p), gpus + 5 * gpus / 2);
    cr_expect_eq(transceivers(p) * 2, gpus * 7);
    fp_totals t;
    fp_plan_totals(p, &t);
    cr_expect_float_eq(t.transceivers_per_gpu, 3.5, 1e-12);
    /* By part: the NIC modules are the single-port ones. */
    int64_t single = 0, twin = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        fp_plan_bom_line(p, i, &l, NULL);
        if (strcmp(l.category, "transceiver") || l.spare)
            continue;
        if (strstr(l.part, "400") && strstr(l.description, "400G"))
            single += l.quantity;
        else
            twin += l.quantity;
    }
    cr_expect_eq(single, gpus);
    cr_expect_eq(twin, 5 * gpus / 2);
    for (size_t l = 0; l < fp_plan_link_count(p); l++)
        cr_assert(medium_of(p, l) >= FP_MEDIUM_MMF);
    fp_plan_free(p);
}

Test(cabling, dac_inside_the_rack_removes_nic_and_leaf_down_modules)
{
    const int64_t gpus = 4096;
    fp_plan *optical = plan_from(FAT_TREE "\"layout\":{\"leaf_racks\":\"top-of-rack\"},"
                                 "\"media\":{\"default\":[\"MMF\",\"SMF\"]}}");
    fp_plan *dac = plan_from(FAT_TREE "\"layout\":{\"leaf_racks\":\"top-of-rack\"},"
                             "\"media\":{\"default\":[\"MMF\",\"SMF\"],\"nic-leaf\":[\"DAC\",\"MMF\",\"SMF\"]}}");
    int64_t nic_leaf = boundary_links(dac, 0), on_dac = 0;
    for (int64_t l = 0; l < nic_leaf; l++)
        on_dac += medium_of(dac, (size_t)l) == FP_MEDIUM_DAC;
    /* Every NIC sits in the rack of its leaf, within 3 m: all of them go on DAC. */
    cr_expect_eq(on_dac, gpus);
    /* Each DAC link drops its NIC module (1) and half a twin leaf-down module (1/2). */
    cr_expect_eq(transceivers(optical) - transceivers(dac), on_dac + on_dac / 2);
    cr_expect_eq(transceivers(dac), 2 * gpus);
    /* A splitter carries two links: half as many cables as links at the NIC-leaf boundary. */
    fp_cable_info c = cable_of_link(dac, 0);
    cr_expect_eq(c.n_z, 2);
    cr_expect_str_eq(c.a.transceiver, "");
    cr_expect_str_eq(c.z[0].transceiver, "");
    fp_plan_free(optical);
    fp_plan_free(dac);
}

/* Links per medium, counted two independent ways: per link (fp_plan_link_medium, the cabling's
 * per-link array) and per row of the written cables.csv (each cable's medium column times the
 * links it carries: one, or one per leg of a splitter, whose z ends are ';'-separated). They
 * agree only if every link is on exactly one cable and that cable's medium is the link's. At
 * 2,048 GPUs the default spec has copper splitters (ACC, several links per row) and multimode
 * fibre (one link per row), so both kinds of row and more than one medium are counted. */
Test(cabling, links_by_medium_sum_to_link_count)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2048}}");
    int64_t by_link[FP_MEDIUM_COUNT] = { 0 }, by_row[FP_MEDIUM_COUNT] = { 0 }, legs = 0;
    for (size_t l = 0; l < fp_plan_link_count(p); l++) {
        fp_medium m = medium_of(p, l);
        cr_assert_lt((int)m, FP_MEDIUM_COUNT);
        by_link[m]++;
    }
    char dir[128], path[96];
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_CABLES;
    scratch_dir(dir, sizeof dir, "media");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    char *txt = slurp(path), *save = NULL;
    int rows = 0;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (rows++ == 0)
            continue;
        /* Field 11 is z_device, field 13 the medium; no field before 13 holds a comma. */
        char *f[14], *c = line;
        int n = 0;
        while (n < 14 && c) {
            f[n++] = c;
            c = strchr(c, ',');
            if (c)
                *c++ = '\0';
        }
        cr_assert_eq(n, 14, "row %d", rows);
        int carried = 1;
        for (const char *q = f[11]; *q; q++)
            carried += *q == ';';
        int m = 0;
        while (m < FP_MEDIUM_COUNT && strcmp(fp_medium_name((fp_medium)m), f[13]) != 0)
            m++;
        cr_assert_lt(m, FP_MEDIUM_COUNT, "row %d: unknown medium %s", rows, f[13]);
        by_row[m] += carried;
        legs += carried;
    }
    free(txt);
    cr_expect_eq(rows - 1, (int)fp_plan_cable_count(p));
    cr_expect_eq(legs, (int64_t)fp_plan_link_count(p));
    int media_used = 0;
    for (int m = 0; m < FP_MEDIUM_COUNT; m++) {
        cr_expect_eq(by_row[m], by_link[m], "%s: %lld links by cables.csv, %lld by link",
                     fp_medium_name((fp_medium)m), (long long)by_row[m], (long long)by_link[m]);
        media_used += by_link[m] > 0;
    }
    cr_expect_geq(media_used, 2);
    /* Every link is carried by exactly one cable, and the cables carry every link once. */
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        fp_plan_cable(p, i, &c, NULL);
        for (int k = 0; k < c.n_links; k++)
            cr_assert_eq(cable_of_link(p, c.links[k]).index, (int64_t)i);
        cr_assert_geq(c.stock_m + 1e-9, c.route_m, "%s: stock %g < route %g", c.id, c.stock_m,
                      c.route_m);
    }
    /* Out of range: FP_EINVAL with the outputs untouched and the error saying why. */
    size_t ci = 12345;
    fp_medium m = FP_MEDIUM_DAC;
    fp_error_clear(&err);
    cr_expect_eq(fp_plan_link_cable(p, fp_plan_link_count(p), &ci, &err), FP_EINVAL);
    cr_expect_eq(ci, 12345);
    cr_expect(strstr(err.msg, "out of range") != NULL, "%s", err.msg);
    fp_error_clear(&err);
    cr_expect_eq(fp_plan_link_medium(p, fp_plan_link_count(p), &m, &err), FP_EINVAL);
    cr_expect_eq(m, FP_MEDIUM_DAC);
    cr_expect_eq(fp_plan_link_cable(p, 0, NULL, NULL), FP_EINVAL);
    cr_expect_eq(fp_plan_link_medium(p, 0, NULL, NULL), FP_EINVAL);
    fp_plan_free(p);
}

Test(cabling, cable_ids_unique_and_ordered)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024}}");
    char prev[16] = "";
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        fp_plan_cable(p, i, &c, NULL);
        cr_assert_gt(strcmp(c.id, prev), 0, "%s after %s", c.id, prev);
        snprintf(prev, sizeof prev, "%s", c.id);
    }
    fp_cable_info c;
    fp_error err = { 0 };
    cr_expect_eq(fp_plan_cable(p, fp_plan_cable_count(p), &c, &err), FP_EINVAL);
    fp_plan_free(p);
}

Test(cabling, policy_forces_single_mode)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"media\":{\"default\":\"SMF\"}}");
    for (size_t l = 0; l < fp_plan_link_count(p); l++)
        cr_assert_eq(medium_of(p, l), FP_MEDIUM_SMF);
    fp_cable_info c = cable_of_link(p, 0);
    cr_expect_str_eq(c.part, "fibre-os2-mpo12-apc");
    cr_expect_str_eq(c.a.transceiver, "nvidia-mms4x00-ns400");  /* DR4, no MMF optic on OS2 */
    cr_expect_str_eq(c.z[0].transceiver, "nvidia-mms4x00-ns");
    fp_plan_free(p);
}

Test(cabling, spine_core_run_beyond_every_reach_is_named)
{
    /* 16 units over two halls 2.5 km apart: pods 3-4 live in hall 2 with their spines, the
     * cores in hall 1. Their spine-core runs exceed the 2 km FR optics. */
    const char *far = FAT_TREE "\"layout\":{\"halls\":2,\"hall_gap_m\":2500}}";
    fp_error err = { 0 };
    cr_assert_eq(plan_error(far, &err), FP_EDESIGN, "%s", err.msg);
    cr_expect(strstr(err.msg, "spine-core"), "%s", err.msg);
    cr_expect(strstr(err.msg, "2000 m"), "%s", err.msg);
    cr_expect_eq(err.where[0], 'L', "%s", err.where);
    long long num = atoll(err.where + 1);
    double len = 0;
    cr_assert(sscanf(strstr(err.msg, "its ") + 4, "%lf m route", &len) == 1, "%s", err.msg);
    cr_expect_gt(len, 2500);
    /* The named link, in the same plan on a near floor, is a spine-core link. */
    fp_plan *near = plan_from(FAT_TREE "\"layout\":{\"halls\":2,\"hall_gap_m\":10}}");
    fp_link_info li;
    cr_assert_eq(fp_plan_link(near, (size_t)(num - 1), &li, NULL), FP_OK);
    cr_expect_eq(li.boundary, 2);
    fp_plan_free(near);
}

Test(cabling, copper_only_policy_fails_with_reach)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":256},\"media\":{\"default\":\"DAC\"}}", &err),
                 FP_EDESIGN);
    cr_expect(strstr(err.msg, "nic-leaf"), "%s", err.msg);
    cr_expect(strstr(err.msg, "longest reach available is 3 m"), "%s", err.msg);
}

Test(cabling, overrides_by_cable_id_and_by_ends)
{
    /* C0000001 forced to 30 m (OM4 stock 30 m); node-09 nic1 <-> leaf-r1 p9 forced onto
     * single-mode fibre. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"overrides\":["
                           "{\"cable\":\"C0000001\",\"length_m\":28.5},"
                           "{\"a\":\"su01-node-09 nic1\",\"z\":\"su01-leaf-r1 1/5/1\",\"part\":\"fibre-os2-mpo12-apc\"}]}");
    fp_cable_info c = cable_of_link(p, 0);
    cr_expect_float_eq(c.route_m, 28.5, 1e-6);
    cr_expect_eq(c.stock_m, 30);
    cr_expect_eq(c.medium, FP_MEDIUM_MMF);
    c = cable_of_link(p, 8 * 8);
    cr_expect_str_eq(c.z[0].device_name, "su01-leaf-r1");
    cr_expect_str_eq(c.z[0].port, "1/5/1");    /* port 9 = cage 5, port 1 */
    cr_expect_eq(c.medium, FP_MEDIUM_SMF);
    cr_expect_str_eq(c.part, "fibre-os2-mpo12-apc");
    /* Its cage partner (node-10 nic1) shares the twin module, so it is single-mode too. */
    cr_expect_eq(medium_of(p, 9 * 8), FP_MEDIUM_SMF);
    fp_plan_free(p);

    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"overrides\":[{\"cable\":\"C9999999\",\"length_m\":3}]}", &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/overrides/0");
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"overrides\":[{\"cable\":\"C0000001\"}]}", &err),
                 FP_EINVAL);
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"overrides\":[{\"cable\":\"C0000001\",\"part\":\"nvidia-qm9700\"}]}", &err),
                 FP_ECATALOG);
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"overrides\":\"/nonexistent/ov.json\"}", &err),
                 FP_EIO);
}

Test(cabling, media_policy_errors)
{
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"media\":{\"nic-leaf\":\"fibre\"}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/media/nic-leaf");
    cr_expect_eq(plan_error("{\"media\":{\"leaf-spine\":[\"MMF\",3]}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/media/leaf-spine/1");
    cr_expect_eq(plan_error("{\"media\":{\"spine-cores\":\"MMF\"}}", &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "spine-core"), "%s", err.msg);
}

/* The note about the optical budget, or NULL. */
static const char *budget_note(const fp_plan *p)
{
    for (size_t i = 0; i < fp_plan_note_count(p); i++)
        if (strstr(fp_plan_note(p, i), "optical budget"))
            return fp_plan_note(p, i);
    return NULL;
}

Test(cabling, optical_budget_moves_sr_to_dr)
{
    /* 1,024 GPUs (dgx-h100-4su shape); leaf-spine link L0001025 forced to a 45 m route: the
     * OM4 cord is the 50 m stock length. SR class: budget 1.9 dB, 3.5 dB/km, 0.75 dB per mated
     * pair (catalog, IEEE 802.3cm / TIA-568.3-D).
     *   structured, 2 pairs:   50 m x 3.5 dB/km = 0.175 + 2 x 0.75 = 1.675 dB <= 1.9: stays SR.
     *   3 pairs (one more):    0.175 + 3 x 0.75 = 2.425 dB > 1.9: moves to DR, whose budget is
     *                          3.0 dB: 50 m x 1.0 dB/km = 0.05 + 2.25 = 2.30 dB <= 3.0.
     * With 3 pairs even a 1 m cord loses 2.25 dB > 1.9, so every optical link moves: 2,048. */
    const char *base = "{\"cluster\":{\"gpus\":1024},\"fabric\":{\"su_servers\":32},"
                       "\"media\":{\"default\":[\"MMF\",\"SMF\"]},"
                       "\"overrides\":[{\"cable\":\"C0001025\",\"length_m\":45}],"
                       "\"layout\":{\"cabling\":\"%s\",\"extra_mated_pairs\":%d}}";
    char json[400];
    snprintf(json, sizeof json, base, "structured", 0);
    fp_plan *p = plan_from(json);
    cr_expect_eq(medium_of(p, 1024), FP_MEDIUM_MMF);
    fp_cable_info c = cable_of_link(p, 1024);
    cr_expect_float_eq(c.stock_m, 50, 1e-9);
    cr_expect_null(budget_note(p));
    fp_plan_free(p);

    snprintf(json, sizeof json, base, "structured", 1);
    p = plan_from(json);
    cr_expect_eq(medium_of(p, 1024), FP_MEDIUM_SMF);
    const char *note = budget_note(p);
    cr_assert_not_null(note);
    cr_expect(strstr(note, "2048 links") != NULL, "%s", note);
    cr_expect(strstr(note, "3 mated connector pairs") != NULL, "%s", note);
    fp_plan_free(p);

    /* Direct cords: no mated pair between the modules, 0.175 dB: SR, no note. */
    snprintf(json, sizeof json, base, "direct", 0);
    p = plan_from(json);
    cr_expect_eq(medium_of(p, 1024), FP_MEDIUM_MMF);
    cr_expect_null(budget_note(p));
    fp_plan_free(p);

    fp_error e2;
    cr_expect_eq(plan_error("{\"layout\":{\"cabling\":\"patch\"}}", &e2), FP_EINVAL);
    cr_expect_str_eq(e2.where, "/layout/cabling");
}

Test(cabling, structured_segments_panels_and_trunks)
{
    /* 1,024 GPUs on fibre only, structured: every optical cable between two racks becomes cord + trunk +
     * cord, and the three add up to its route (to the cent). Counted by hand from the cable
     * ends: each end takes one MPO port on its rack's panel; 12 ports to an adapter plate, 4
     * plates to a 1U panel; the links between two racks share 144-fibre trunks, one MPO-12 leg
     * (12 fibres) per link: ceil(links / 12) trunks per rack pair. Patch cords: two per link. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"su_servers\":32},"
                           "\"media\":{\"default\":[\"MMF\",\"SMF\"]},"
                           "\"layout\":{\"cabling\":\"structured\"}}");
    size_t n = fp_plan_cable_count(p), nr = fp_plan_rack_count(p);
    int64_t *ends = calloc(nr, sizeof *ends), *pair = calloc(nr * nr, sizeof *pair);
    int64_t split = 0;
    for (size_t i = 0; i < n; i++) {
        fp_cable_info c;
        fp_error err = { 0 };
        cr_assert_eq(fp_plan_cable(p, i, &c, &err), FP_OK, "%s", err.msg);
        if (c.n_segments != 3) {
            /* one cord end to end rides no trunk */
            cr_expect_str_eq(c.trunk_part, "", "%s", c.id);
            cr_expect_eq(c.trunk_fibres, 0, "%s", c.id);
            continue;
        }
        split++;
        cr_expect(c.medium == FP_MEDIUM_MMF || c.medium == FP_MEDIUM_SMF);
        /* the trunk of its fibre (docs/layout.md: OM4 or OS2, 144 fibres), one MPO-12 leg of it
         * for an MPO cord */
        cr_expect_str_eq(c.trunk_part, c.medium == FP_MEDIUM_SMF ? "trunk-os2-mpo-144f" : "trunk-om4-mpo-144f",
                         "%s", c.id);
        cr_expect_eq(c.connector, FP_CONNECTOR_MPO, "%s: %s", c.id, c.part);
        cr_expect_eq(c.trunk_fibres, 12, "%s", c.id);
        double sum = c.segment_m[0] + c.segment_m[1] + c.segment_m[2];
        cr_expect_float_eq(sum, c.route_m, 0.006, "%s: %g + %g + %g != %g", c.id, c.segment_m[0],
                           c.segment_m[1], c.segment_m[2], c.route_m);
        for (int k = 0; k < 3; k++) {
            cr_expect_geq(c.segment_m[k], 0);
            cr_expect_geq(c.segment_stock_m[k] + 1e-9, c.segment_m[k]);
        }
        /* rack index of each end */
        size_t ra = nr, rz = nr;
        for (size_t r = 0; r < nr; r++) {
            fp_rack_info ri;
            fp_plan_rack(p, r, &ri, NULL);
            if (ri.hall == c.a.loc.hall && ri.row == c.a.loc.row && ri.rack == c.a.loc.rack)
                ra = r;
            if (ri.hall == c.z[0].loc.hall && ri.row == c.z[0].loc.row && ri.rack == c.z[0].loc.rack)
                rz = r;
        }
        cr_assert(ra < nr && rz < nr && ra != rz);
        ends[ra]++;
        ends[rz]++;
        pair[(ra < rz ? ra : rz) * nr + (ra < rz ? rz : ra)]++;
    }
    cr_expect_eq(split, 2048, "every one of the 2,048 links leaves its rack on fibre");
    int64_t panels = 0, plates = 0, trunks = 0;
    for (size_t r = 0; r < nr; r++) {
        int64_t pl = (ends[r] + 11) / 12;
        plates += pl;
        panels += (pl + 3) / 4;
    }
    for (size_t k = 0; k < nr * nr; k++)
        trunks += (pair[k] + 11) / 12;
    int64_t got_panels = 0, got_plates = 0, got_trunks = 0, got_cords = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        fp_plan_bom_line(p, i, &l, NULL);
        if (l.spare)
            continue;
        if (strcmp(l.part, "panel-1u-4slot") == 0)
            got_panels += l.quantity;
        else if (strcmp(l.part, "adapter-plate-mpo12") == 0)
            got_plates += l.quantity;
        else if (strncmp(l.part, "trunk-", 6) == 0)
            got_trunks += l.quantity;
        else if (strcmp(l.part, "fibre-om4-mpo12-apc") == 0 || strcmp(l.part, "fibre-os2-mpo12-apc") == 0)
            got_cords += l.quantity;
    }
    cr_expect_eq(got_panels, panels);
    cr_expect_eq(got_plates, plates);
    cr_expect_eq(got_trunks, trunks);
    cr_expect_eq(got_cords, 2 * 2048);
    cr_expect_gt(panels, 0);
    free(ends);
    free(pair);
    fp_plan_free(p);
}

Test(cabling, tray_fill_by_row)
{
    /* 256 GPUs on fibre: row 1 holds the 8 compute racks and the leaf rack, the spines stand in
     * a central row. Row 1's tray carries the 256 NIC-leaf cords (between racks of row 1) and
     * the 256 leaf-spine cords (row 1 to the spine row): 512 cords of 3.0 mm, 512 x pi x 1.5^2
     * = 3,619.1 mm^2; the spine row's tray the 256 leaf-spine cords, 1,809.6 mm^2. A 600 x 150
     * mm tray filled to 50 % holds 45,000 mm^2: 8.04 %, one tier. A 50 x 20 mm tray (500 mm^2)
     * is over-full 7.24 times in one tier (tray_tiers 1), and 2.41 times in the three tiers the
     * default allows (1,500 mm^2). */
    const char *fmt = "{\"cluster\":{\"gpus\":256},\"media\":{\"default\":\"MMF\"},"
                      "\"layout\":{\"racks_per_row\":16,\"leaf_racks\":\"end\"%s}}";
    char json[300];
    snprintf(json, sizeof json, fmt, "");
    fp_plan *p = plan_from(json);
    cr_assert_eq(fp_plan_tray_count(p), 2);
    fp_tray_info t;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_tray(p, 0, &t, &err), FP_OK, "%s", err.msg);
    cr_expect_str_eq(t.row, "H1-R01");
    cr_expect_eq(t.cables, 512);
    cr_expect_float_eq(t.area_mm2, 3619.1, 0.06);
    cr_expect_float_eq(t.capacity_mm2, 45000, 1e-9);
    cr_expect_eq(t.tiers, 1);
    cr_expect_float_eq(t.fill, 0.0804, 1e-4);
    cr_expect_eq(t.over, 0);
    cr_assert_eq(fp_plan_tray(p, 1, &t, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(t.cables, 256);
    cr_expect_float_eq(t.area_mm2, 1809.6, 0.06);
    cr_expect_eq(fp_plan_tray(p, 2, &t, &err), FP_EINVAL);
    fp_plan_free(p);
    snprintf(json, sizeof json, fmt, ",\"tray_width_mm\":50,\"tray_depth_mm\":20,\"tray_tiers\":1");
    p = plan_from(json);
    fp_plan_tray(p, 0, &t, NULL);
    cr_expect_float_eq(t.fill, 7.2382, 1e-4);
    cr_expect_eq(t.tiers, 1);
    cr_expect_eq(t.over, 1);
    fp_plan_free(p);
    snprintf(json, sizeof json, fmt, ",\"tray_width_mm\":50,\"tray_depth_mm\":20");
    p = plan_from(json);
    fp_plan_tray(p, 0, &t, NULL);
    cr_expect_float_eq(t.fill, 2.4127, 1e-4);
    cr_expect_eq(t.tiers, 3);
    cr_expect_float_eq(t.capacity_mm2, 1500, 1e-9);
    cr_expect_eq(t.over, 1);
    fp_plan_free(p);
    fp_error e2;
    cr_expect_eq(plan_error("{\"layout\":{\"tray_tiers\":0}}", &e2), FP_EINVAL);
    cr_expect_str_eq(e2.where, "/layout/tray_tiers");
}

Test(cabling, default_plan_has_no_over_full_tray)
{
    /* 16,384 GPUs, 3 tiers of QM9700: 16 pods x 32 spines x 32 uplinks = 16,384 spine-core
     * links to 256 cores. The cores stand 8 to a 0.8 m network rack (512 cords) in central rows
     * of at most 24 racks: a first core row of 24 racks = 192 cores carries 192 x 64 = 12,288
     * cords (the second row's 8 racks the other 4,096). 12,288 cords of 3.0 mm: 12,288 x pi x
     * 1.5^2 = 86,858.8 mm^2, 1.93 times what one 600 x 150 mm tray filled to 50 % holds
     * (45,000 mm^2): the row gets a second tier, 90,000 mm^2, 96.51 % full. No other row needs
     * more than two tiers: no tray is over-full. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":16384}}");
    fp_tray_info most = { 0 };
    int over = 0;
    for (size_t i = 0; i < fp_plan_tray_count(p); i++) {
        fp_tray_info t;
        fp_plan_tray(p, i, &t, NULL);
        over += t.over;
        if (t.cables > most.cables)
            most = t;
    }
    cr_expect_eq(most.cables, 12288);
    cr_expect_float_eq(most.area_mm2, 86858.8, 0.06);
    cr_expect_eq(most.tiers, 2);
    cr_expect_float_eq(most.capacity_mm2, 90000, 1e-9);
    cr_expect_float_eq(most.fill, 0.9651, 1e-4);
    cr_expect_eq(most.over, 0);
    cr_expect_eq(over, 0);
    fp_plan_free(p);
}

/* Sum of the non-spare BOM quantities of one part. */
static int64_t bom_qty(const fp_plan *p, const char *part)
{
    int64_t q = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        fp_plan_bom_line(p, i, &l, NULL);
        if (!l.spare && strcmp(l.part, part) == 0)
            q += l.quantity;
    }
    return q;
}

/* Every rack of a role (there is at least one) holds `panels` 1U panels from U panel_u up and
 * uses `units` units in all. */
static void expect_panels(const fp_plan *p, const char *role, int panels, int panel_u, int units)
{
    int seen = 0;
    for (size_t i = 0; i < fp_plan_rack_count(p); i++) {
        fp_rack_info r;
        fp_plan_rack(p, i, &r, NULL);
        if (strcmp(r.role, role) != 0)
            continue;
        seen++;
        cr_expect_eq(r.panels, panels, "%s", r.name);
        cr_expect_eq(r.panel_u, panel_u, "%s", r.name);
        cr_expect_eq(r.units_used, units, "%s", r.name);
    }
    cr_expect_gt(seen, 0, "no %s rack", role);
}

Test(cabling, structured_panels_stand_in_the_racks)
{
    /* 256 GPUs, all on OM4 (MPO), structured. Racks: K01-K04 compute, K05 the 8 leaves, K06-K09
     * compute, then the 4 spines in R02-K01. Each link is one cable with one MPO port at each
     * end's panel:
     *   compute rack: 4 servers x 8 NIC links = 32 ports -> ceil(32 / 12) = 3 plates -> 1 panel;
     *     servers fill U1-U32 and no switch stands above them: the panel takes U42;
     *     units used 32 + 1 = 33.
     *   leaf rack: 8 x 32 NIC links + 8 x 32 uplinks = 512 ports -> 43 plates -> 11 panels;
     *     leaves at U42-U35, panels below them at U24-U34; units used 8 + 11 = 19.
     *   spine rack: 4 x 64 = 256 ports -> 22 plates -> 6 panels; spines U42-U39, panels
     *     U33-U38; units used 4 + 6 = 10.
     * BOM: 8 x 1 + 11 + 6 = 25 panels, 8 x 3 + 43 + 22 = 89 plates. Power does not change:
     * panels are passive. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"media\":{\"default\":\"MMF\"},"
                           "\"layout\":{\"cabling\":\"structured\"}}");
    cr_assert_eq(fp_plan_rack_count(p), 10);
    expect_panels(p, "compute", 1, 42, 33);
    expect_panels(p, "leaf", 11, 24, 19);
    expect_panels(p, "spine", 6, 33, 10);
    cr_expect_eq(bom_qty(p, "panel-1u-4slot"), 25);
    cr_expect_eq(bom_qty(p, "adapter-plate-mpo12"), 89);
    cr_expect_eq(bom_qty(p, "cassette-mpo-lc12"), 0);
    fp_plan_free(p);
    /* Direct cabling: no panels anywhere. */
    p = plan_from("{\"cluster\":{\"gpus\":256},\"media\":{\"default\":\"MMF\"}}");
    fp_rack_info r;
    fp_plan_rack(p, 4, &r, NULL);
    cr_expect_eq(r.panels, 0);
    cr_expect_eq(r.units_used, 8);
    fp_plan_free(p);
    /* Panels that do not fit are a design error naming the rack: 5 servers of 8U fill all of
     * a 40U rack, and their 40 NIC links need ceil(40 / 12) = 4 plates, 1 panel, with no unit
     * free for it. */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":320},\"media\":{\"default\":\"MMF\"},"
                            "\"layout\":{\"cabling\":\"structured\",\"servers_per_rack\":5,\"rack_units\":40}}",
                            &err), FP_EDESIGN);
    cr_expect_str_eq(err.where, "/layout/cabling");
    cr_expect(strstr(err.msg, "needs 1 1U patch panels") && strstr(err.msg, "has 0 free units"), "%s", err.msg);
}

Test(cabling, structured_lc_links_take_cassettes)
{
    /* 256 GPUs in a Clos with top-of-rack leaves: each rack's 4 servers x 8 NICs = 32 links go to
     * the leaf at its top (one copper cable each, inside the rack), the leaf's 32 uplinks leave
     * for the spine rack. Leaf-spine forced to single-mode, structured, 2 extra mated pairs: a
     * link crosses 2 + 2 = 4 pairs = 3.0 dB before any fibre, past DR's 3.0 dB budget, within
     * FR's 4.0 dB (a 10 m cord adds 0.01 dB): every uplink moves to FR, duplex LC, and lands on
     * 12-port MPO-LC cassettes:
     *   compute rack: 32 LC ports -> ceil(32 / 12) = 3 cassettes -> 1 panel, just below the
     *     leaf (U42): U41; units 32 + 1 + 1 = 34.
     *   spine rack: 8 x 32 = 256 LC ports -> 22 cassettes -> 6 panels below the 4 spines
     *     (U39-U42): U33-U38; units 4 + 6 = 10.
     * BOM: 8 x 3 + 22 = 46 cassettes, no MPO plates, 8 + 6 = 14 panels. An LC link is a fibre
     * pair of a trunk: each compute rack sends 32 x 2 = 64 fibres to the spine rack, one
     * 144-fibre trunk per rack pair: 8 trunks. Cords: 2 per link, 512 LC duplex cords. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"fabric\":{\"topology\":\"clos\"},"
                           "\"media\":{\"leaf-spine\":\"SMF\"},"
                           "\"layout\":{\"cabling\":\"structured\",\"leaf_racks\":\"top-of-rack\","
                           "\"extra_mated_pairs\":2}}");
    cr_assert_eq(fp_plan_rack_count(p), 9);
    expect_panels(p, "compute", 1, 41, 34);
    expect_panels(p, "spine", 6, 33, 10);
    cr_expect_eq(bom_qty(p, "cassette-mpo-lc12"), 46);
    cr_expect_eq(bom_qty(p, "adapter-plate-mpo12"), 0);
    cr_expect_eq(bom_qty(p, "panel-1u-4slot"), 14);
    cr_expect_eq(bom_qty(p, "trunk-os2-mpo-144f"), 8);
    cr_expect_eq(bom_qty(p, "fibre-os2-lc-duplex"), 512);
    /* each uplink's cable: an LC cord on the OS2 trunk, a fibre pair of it; the copper
     * cables inside a rack: no fibre connector, no trunk */
    int64_t lc = 0, copper = 0;
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        if (c.medium == FP_MEDIUM_SMF) {
            lc++;
            cr_expect_eq(c.connector, FP_CONNECTOR_LC, "%s: %s", c.id, c.part);
            cr_expect_str_eq(c.trunk_part, "trunk-os2-mpo-144f", "%s", c.id);
            cr_expect_eq(c.trunk_fibres, 2, "%s", c.id);
        } else {
            copper += c.n_links;     /* a twin-port copper cable carries two */
            cr_expect_eq(c.connector, FP_CONNECTOR_NONE, "%s: %s", c.id, c.part);
            cr_expect_str_eq(c.trunk_part, "", "%s", c.id);
        }
    }
    cr_expect_eq(lc, 256, "8 leaves x 32 uplinks");
    cr_expect_eq(copper, 256, "8 racks x 32 NIC links: %lld", (long long)copper);
    fp_plan_free(p);
}
