/* Layout: every device placed once, racks in floor order at their (x, y), power per rack. */
#include <math.h>
#include "helpers.h"

/* fp_plan_boundary_links for a boundary the plan has. */
static int64_t boundary_links(const fp_plan *p, int b)
{
    int64_t n = -1;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_boundary_links(p, b, &n, &err), FP_OK, "%s", err.msg);
    return n;
}

static fp_location loc(const fp_plan *p, size_t dev)
{
    fp_location l;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_device_location(p, dev, &l, &err), FP_OK, "%s", err.msg);
    return l;
}

Test(layout, one_unit_by_hand)
{
    /* 256 GPUs = 32 servers = one scalable unit: compute racks K01..K08, leaf rack K09 at the
     * row's end, 4 spines in central row R02. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"layout\":{\"racks_per_row\":16,\"leaf_racks\":\"end\"}}");
    cr_expect_eq(fp_plan_rack_count(p), 8 + 1 + 1);
    for (int s = 0; s < 32; s++) {
        fp_location l = loc(p, (size_t)s);
        cr_expect_eq(l.hall, 1);
        cr_expect_eq(l.row, 1);
        cr_expect_eq(l.rack, s / 4 + 1, "server %d rack %d", s, l.rack);
        cr_expect_eq(l.u, 1 + (s % 4) * 8);
    }
    for (int j = 0; j < 8; j++) {   /* leaves, rail order, from U42 down */
        fp_location l = loc(p, (size_t)(32 + j));
        cr_expect_eq(l.rack, 9);
        cr_expect_eq(l.u, 42 - j);
    }
    fp_location s0 = loc(p, 40);
    cr_expect_str_eq(s0.text, "H1-R02-K01-U42");
    fp_rack_info r;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_rack(p, 8, &r, &err), FP_OK);
    cr_expect_str_eq(r.name, "H1-R01-K09");
    cr_expect_str_eq(r.role, "leaf");
    cr_expect_float_eq(r.x_m, 8 * 0.6, 1e-9);
    cr_expect_float_eq(r.y_m, 0, 1e-9);
    cr_expect_eq(r.units_used, 8);
    cr_assert_eq(fp_plan_rack(p, 9, &r, &err), FP_OK);
    cr_expect_str_eq(r.role, "spine");
    cr_expect_float_eq(r.y_m, 1.2 + 1.2, 1e-9);
    cr_expect_eq(fp_plan_rack(p, 10, &r, &err), FP_EINVAL);
    cr_expect_eq(fp_plan_device_location(p, fp_plan_device_count(p), &s0, &err), FP_EINVAL);
    fp_plan_free(p);
}

Test(layout, leaf_rack_in_the_middle)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"layout\":{\"racks_per_row\":16}}");
    /* 8 compute racks: 4, the leaf rack, 4. */
    cr_expect_eq(loc(p, 0).rack, 1);
    cr_expect_eq(loc(p, 16).rack, 6);
    cr_expect_eq(loc(p, 32).rack, 5);
    fp_plan_free(p);
}

Test(layout, no_overlap_and_racks_in_floor_order)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":8192},\"layout\":{\"halls\":2}}");
    size_t nr = fp_plan_rack_count(p), nd = fp_plan_device_count(p);
    /* One bit per (rack, U): no two devices share a U. */
    char *used = calloc(nr * 43, 1);
    fp_rack_info prev = { 0 };
    for (size_t i = 0; i < nr; i++) {
        fp_rack_info r;
        fp_plan_rack(p, i, &r, NULL);
        if (i) {
            long a = (long)prev.hall * 1000000 + prev.row * 1000 + prev.rack;
            long b = (long)r.hall * 1000000 + r.row * 1000 + r.rack;
            cr_assert_lt(a, b, "rack %s after %s", r.name, prev.name);
        }
        cr_assert_leq(r.units_used, r.units);
        prev = r;
    }
    int64_t placed = 0;
    for (size_t d = 0; d < nd; d++) {
        fp_device_info di;
        fp_plan_device(p, d, &di, NULL);
        fp_location l = loc(p, d);
        int ru = di.tier == 0 ? 8 : 1;
        /* find the rack index */
        size_t ri = nr;
        for (size_t i = 0; i < nr; i++) {
            fp_rack_info r;
            fp_plan_rack(p, i, &r, NULL);
            if (r.hall == l.hall && r.row == l.row && r.rack == l.rack) {
                ri = i;
                break;
            }
        }
        cr_assert_lt(ri, nr, "device %zu at %s: no such rack", d, l.text);
        for (int u = l.u; u < l.u + ru; u++) {
            cr_assert(u >= 1 && u <= 42);
            cr_assert_eq(used[ri * 43 + (size_t)u], 0, "%s U%d taken twice", l.text, u);
            used[ri * 43 + (size_t)u] = 1;
        }
        placed++;
    }
    cr_expect_eq(placed, (int64_t)nd);
    fp_rack_info last;
    fp_plan_rack(p, nr - 1, &last, NULL);
    cr_expect_eq(last.hall, 2);
    free(used);
    fp_plan_free(p);
}

Test(layout, rack_power_and_limit)
{
    /* All-optical: a compute rack holds 4 servers (10.2 kW each) and 32 NIC modules of 9 W. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"media\":{\"default\":\"MMF\"},"
                           "\"layout\":{\"rack_power_limit_w\":40000}}");
    fp_rack_info r;
    fp_plan_rack(p, 0, &r, NULL);
    cr_expect_str_eq(r.role, "compute");
    cr_expect_float_eq(r.power_w, 4 * 10200 + 32 * 9, 1e-6);
    cr_expect_eq(r.over_limit, 1);
    cr_expect_eq(r.cables_leaving, 32);
    fp_plan_free(p);
}

Test(layout, spare_servers_are_placed_and_cabled)
{
    /* 5 % of 32 servers, rounded up: 2 spares, cabled like the others. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":256},\"layout\":{\"spare_servers\":0.05}}");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.servers, 32);
    cr_expect_eq(s.spare_servers, 2);
    cr_expect_eq(s.endpoints, 34 * 8);
    cr_expect_eq(boundary_links(p, 0), 34 * 8);
    /* The spares are the last servers: a second, partial unit (servers 33-34) in a rack of
     * their own, second slot at U9. */
    fp_location l = loc(p, 33), first = loc(p, 32), before = loc(p, 31);
    cr_expect_eq(l.u, 9);
    cr_expect_eq(first.u, 1);
    cr_expect_str_neq(first.text, before.text);
    cr_expect(first.rack != before.rack || first.row != before.row);
    fp_plan_free(p);
}

Test(layout, errors_name_the_field)
{
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"layout\":{\"racks_per_row\":\"many\"}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/layout/racks_per_row");
    cr_expect_eq(plan_error("{\"layout\":{\"leaf_racks\":\"side\"}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/layout/leaf_racks");
    cr_expect_eq(plan_error("{\"layout\":{\"servers_per_rack\":6}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/layout/servers_per_rack");
    cr_expect_eq(plan_error("{\"layout\":{\"rack_height\":42}}", &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "rack_units"), "%s", err.msg);
    /* Four 10U servers fill a 40U rack: no room for the top-of-rack leaf. */
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"fabric\":{\"topology\":\"fat-tree\"},"
                            "\"layout\":{\"leaf_racks\":\"top-of-rack\",\"rack_units\":40,\"server_ru\":10}}",
                            &err),
                 FP_EDESIGN);
    cr_expect_str_eq(err.where, "/layout/leaf_racks");
}

/* Spines per pod in each rack, and the largest such count (pods x racks by hand). */
static int most_pod_spines_in_a_rack(const fp_plan *p, int *pods_out)
{
    size_t nd = fp_plan_device_count(p), nr = fp_plan_rack_count(p);
    int pods = 0, most = 0;
    for (size_t d = 0; d < nd; d++) {
        fp_device_info di;
        fp_plan_device(p, d, &di, NULL);
        if (di.tier == 2 && di.pod + 1 > pods)
            pods = di.pod + 1;
    }
    int *count = calloc(nr * (size_t)pods, sizeof *count);
    for (size_t d = 0; d < nd; d++) {
        fp_device_info di;
        fp_plan_device(p, d, &di, NULL);
        if (di.tier != 2)
            continue;
        fp_location l = loc(p, d);
        for (size_t i = 0; i < nr; i++) {
            fp_rack_info r;
            fp_plan_rack(p, i, &r, NULL);
            if (r.hall == l.hall && r.row == l.row && r.rack == l.rack) {
                int c = ++count[i * (size_t)pods + (size_t)di.pod];
                if (c > most)
                    most = c;
                cr_expect_str_eq(r.role, "spine");
                break;
            }
        }
    }
    free(count);
    *pods_out = pods;
    return most;
}

Test(layout, pod_spines_spread_over_four_racks)
{
    /* 16,384 GPUs (the default): 64 SUs of 32 DGX, 8 rail leaves per SU; a QM9700 pod takes
     * 32 down ports / 8 leaves per SU = 4 SUs, so 16 pods of 32 leaves and 32 spines (the B200
     * SuperPOD table: 512 spines). A network rack terminates at most 512 cords, 64 per QM9700:
     * 8 spines, so a pod's 32 spines need 4 racks, and 8 / 32 = 25 %: no rack holds more than a
     * quarter of any pod's spines. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":16384}}");
    int pods = 0;
    cr_expect_eq(most_pod_spines_in_a_rack(p, &pods), 8);
    cr_expect_eq(pods, 16);
    fp_plan_free(p);
}

Test(layout, small_pods_still_spread)
{
    /* 4,096 GPUs forced to 3 tiers: whatever the pod size, a pod of S spines gets at least
     * min(S, 4) racks, filled round-robin, so one rack holds at most ceil(S / 4) of them. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"tiers\":3}}");
    int pods = 0, most = most_pod_spines_in_a_rack(p, &pods);
    cr_expect_gt(pods, 0);
    size_t nd = fp_plan_device_count(p);
    int spines = 0;
    for (size_t d = 0; d < nd; d++) {
        fp_device_info di;
        fp_plan_device(p, d, &di, NULL);
        spines += di.tier == 2 && di.pod == 0;
    }
    cr_expect_leq(most, (spines + 3) / 4, "%d of %d spines in one rack", most, spines);
    fp_plan_free(p);
}

Test(layout, central_spines_on_request)
{
    /* "central": today's layout, every spine in a central network row with no compute rack. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":16384},\"layout\":{\"spine_racks\":\"central\"}}");
    size_t nr = fp_plan_rack_count(p);
    for (size_t i = 0; i < nr; i++) {
        fp_rack_info r;
        fp_plan_rack(p, i, &r, NULL);
        if (strcmp(r.role, "spine") != 0)
            continue;
        for (size_t j = 0; j < nr; j++) {
            fp_rack_info o;
            fp_plan_rack(p, j, &o, NULL);
            if (o.hall == r.hall && o.row == r.row)
                cr_assert_str_neq(o.role, "compute", "%s shares a row with compute rack %s", r.name, o.name);
        }
    }
    fp_plan_free(p);
}

Test(layout, rows_and_halls_within_power)
{
    /* 2,048 servers at 10.2 kW: 20.9 MW of servers, under 30 MW: one hall. A row is limited to
     * 920 kW: a 32-server unit is 8 racks x 4 x 10.2 kW = 326.4 kW plus its leaf rack, so two
     * units and a pod's spine racks fit a row, three units do not (979 kW). */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":16384}}");
    fp_power_domains pd;
    fp_plan_power_domains(p, &pd);
    cr_expect_float_eq(pd.row_limit_w, 920000, 1e-6);
    cr_expect_float_eq(pd.hall_limit_w, 30e6, 1e-6);
    cr_expect_eq(pd.rows_over, 0);
    cr_expect_eq(pd.halls_over, 0);
    cr_expect_gt(pd.row_max_w, 2 * 326400);
    cr_expect_lt(pd.row_max_w, 3 * 326400);
    fp_rack_info last;
    fp_plan_rack(p, fp_plan_rack_count(p) - 1, &last, NULL);
    cr_expect_eq(last.hall, 1);
    fp_plan_free(p);
    /* A 2 MW hall limit: each 4-unit pod draws about 1.4 MW, so one pod per hall: 16 halls. */
    p = plan_from("{\"cluster\":{\"gpus\":16384},\"layout\":{\"hall_power_limit_w\":2000000}}");
    fp_plan_power_domains(p, &pd);
    fp_plan_rack(p, fp_plan_rack_count(p) - 1, &last, NULL);
    cr_expect_eq(last.hall, 16);
    cr_expect_eq(pd.halls_over, 0);
    fp_plan_free(p);
}

Test(layout, hundred_thousand_gpus_in_several_halls)
{
    /* 100,000 GPUs = 12,500 servers x 10.2 kW = 127.5 MW of servers alone: more than four
     * 30 MW halls can take, so at least 5 halls; no row over 920 kW, no hall over 30 MW. With
     * each pod's spines beside the pod, NIC-leaf and leaf-spine runs stay within a pod's two
     * rows (well under 50 m), so none of them needs single-mode fibre. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":100000}}");
    fp_power_domains pd;
    fp_plan_power_domains(p, &pd);
    fp_rack_info last;
    fp_plan_rack(p, fp_plan_rack_count(p) - 1, &last, NULL);
    cr_expect_geq(last.hall, 5);
    cr_expect_eq(pd.rows_over, 0);
    cr_expect_eq(pd.halls_over, 0);
    cr_expect_leq(pd.hall_max_w, 30e6);
    size_t nl = fp_plan_link_count(p);
    int64_t smf_low = 0;
    for (size_t l = 0; l < nl; l++) {
        fp_link_info li;
        fp_medium m = FP_MEDIUM_COUNT;
        fp_plan_link(p, l, &li, NULL);
        cr_assert_eq(fp_plan_link_medium(p, l, &m, NULL), FP_OK);
        if (li.boundary <= 1 && m == FP_MEDIUM_SMF)
            smf_low++;
    }
    cr_expect_eq(smf_low, 0);
    /* Trays: a central core row holds at most 24 racks x 8 cores x 64 cords = 12,288 cords,
     * 86,859 mm^2 if all are 3.0 mm fibre (a few 7.5 mm copper cables add a little), under the
     * 3 x 45,000 mm^2 of three tiers: no tray over-full. */
    int over = 0;
    for (size_t i = 0; i < fp_plan_tray_count(p); i++) {
        fp_tray_info t;
        fp_plan_tray(p, i, &t, NULL);
        over += t.over;
        cr_expect_leq(t.cables, 24 * 8 * 64, "%s", t.row);
    }
    cr_expect_eq(over, 0);
    fp_plan_free(p);
}

Test(layout, new_fields_are_checked)
{
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"layout\":{\"spine_racks\":\"side\"}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/layout/spine_racks");
    cr_expect_eq(plan_error("{\"layout\":{\"row_power_limit_w\":-1}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/layout/row_power_limit_w");
    cr_expect_eq(plan_error("{\"layout\":{\"spine_rack_max_share\":2}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/layout/spine_rack_max_share");
}

Test(layout, fail_a_spine_rack)
{
    /* 16,384 GPUs: a spine rack holds 8 of pod 1's 32 spines. Each pod-1 leaf has one link to
     * each of the 32 spines, so it loses 8 / 32 = 25 % of its uplinks, and the pod's spine-core
     * links lose the same share: pod 1 keeps 75 %. The bisection (pods 1-8 | 9-16) is bounded by
     * the 8 pods' 1,024 spine-core uplinks each; pod 1 loses 256: (8 x 1024 - 256) x 400 =
     * 3,174,400 of 3,276,800 Gb/s. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":16384}}");
    size_t nr = fp_plan_rack_count(p);
    char spec[40] = "";
    for (size_t i = 0; i < nr && !spec[0]; i++) {
        fp_rack_info r;
        fp_plan_rack(p, i, &r, NULL);
        if (strcmp(r.role, "spine") == 0)
            snprintf(spec, sizeof spec, "rack:%s", r.name);
    }
    const char *specs[] = { spec };
    fp_error err = { 0 };
    fp_failure_report rep;
    cr_assert_eq(fp_plan_fail(&rep, p, specs, 1, 1, &err), FP_OK, "%s", err.msg);
    const fp_failure_report *f = &rep;
    cr_expect_eq(f->switches_failed, 8);
    cr_expect_eq(f->worst_pod, 0);
    cr_expect_float_eq(f->worst_pod_uplinks, 0.75, 1e-9);
    cr_expect_eq(f->worst_zone, -1);
    cr_expect_float_eq(f->bisection_after_gbps, 3174400, 1e-6);
    /* A hall takes everything: every server cut off. */
    const char *hall[] = { "hall:1" };
    cr_assert_eq(fp_plan_fail(&rep, p, hall, 1, 1, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(rep.servers_cut_off, 2048);
    const char *bad[] = { "rack:H1-R01" }, *none[] = { "row:H9-R01" };
    cr_expect_eq(fp_plan_fail(&rep, p, bad, 1, 1, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "rack:H1-R08-K01"), "%s", err.msg);
    memset(&err, 0, sizeof err);
    cr_expect_eq(fp_plan_fail(&rep, p, none, 1, 1, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "no device stands in row H9-R01"), "%s", err.msg);
    fp_plan_free(p);
}

Test(layout, gb200_nvl72_preset)
{
    /* NVIDIA's DGX GB200 rack: 18 one-U compute trays of 4 GPUs and 4 ConnectX-7 400G ports
     * (DGX GB200 user guide, "Hardware"); NVIDIA's DPS device registry gives a tray 6,667 W at
     * most (DGX_GB200 maxLoadWatts), so a rack draws 18 x 6,667 = 120,006 W before optics: the
     * "120 kW" NVIDIA quoted at GTC 2024. A rack whose 72 NIC ports all carry 9 W 400G SR4
     * modules adds 648 W: 120,654 W, under the 132 kW limit of the preset. An SU is 8 racks
     * (144 trays, 576 GPUs); the preset's 2 SUs fill 16 compute racks. */
    fp_error err = { 0 };
    fp_spec *spec = NULL;
    fp_catalog *cat = NULL;
    fp_plan *p = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_preset(&spec, "gb200-nvl72-su", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&p, spec, cat, &err), FP_OK, "%s", err.msg);
    size_t nr = fp_plan_rack_count(p);
    int compute = 0;
    double most = 0;
    for (size_t i = 0; i < nr; i++) {
        fp_rack_info r;
        fp_plan_rack(p, i, &r, NULL);
        if (strcmp(r.role, "compute") != 0)
            continue;
        compute++;
        cr_expect_eq(r.devices, 18);
        cr_expect_geq(r.power_w, 18 * 6667.0 - 1e-6);
        cr_expect_leq(r.power_w, 18 * 6667.0 + 72 * 9 + 1e-6);
        cr_expect_eq(r.over_limit, 0);
        if (r.power_w > most)
            most = r.power_w;
    }
    cr_expect_eq(compute, 16);
    /* the fixtures add no power (power_w 0: the trays' 6,667 W carry the rack's 120 kW) */
    cr_expect_leq(most, 120654 + 1e-6);
    /* The rack as built: the preset's fixtures are 4 power shelves at U1-U4, 9 NVLink switch
     * trays at U13-U21 and 4 power shelves at U32-U35 (1U each); the trays fill the free units
     * from U1 up: trays 1-8 at U5-U12 (8 units), trays 9-18 at U22-U31 (10 units). A compute
     * rack uses 18 + 9 + 8 = 35 of its 42 U and lists 17 fixtures; a network rack none. */
    for (size_t i = 0; i < nr; i++) {
        fp_rack_info r;
        fp_plan_rack(p, i, &r, NULL);
        size_t nf = fp_plan_rack_fixture_count(p, i);
        if (strcmp(r.role, "compute") != 0) {
            cr_expect_eq(nf, 0, "%s", r.name);
            continue;
        }
        cr_expect_eq(r.units_used, 35, "%s", r.name);
        cr_assert_eq(nf, 17, "%s", r.name);
        for (size_t k = 0; k < nf; k++) {
            fp_rack_fixture fx;
            cr_assert_eq(fp_plan_rack_fixture(p, i, k, &fx, NULL), FP_OK);
            int want = k < 4 ? 1 + (int)k : k < 13 ? 13 + (int)k - 4 : 32 + (int)k - 13;
            cr_expect_eq(fx.u, want, "%s fixture %zu", r.name, k);
            cr_expect_eq(fx.ru, 1);
            cr_expect_str_eq(fx.name, k >= 4 && k < 13 ? "NVLink switch tray" : "power shelf");
        }
        fp_rack_fixture fx;
        cr_expect_eq(fp_plan_rack_fixture(p, i, nf, &fx, &err), FP_EINVAL);
    }
    for (size_t d = 0; d < 288; d++) {
        fp_location loc;
        cr_assert_eq(fp_plan_device_location(p, d, &loc, NULL), FP_OK);
        int k = (int)(d % 18);
        cr_expect_eq(loc.u, k < 8 ? 5 + k : 22 + (k - 8), "tray %zu", d);
    }
    /* Leaves rail-aligned (one rail per leaf, as NVIDIA's SuperPOD): a rail's 144 trays need
     * ceil(144 / 32) = 5 QM9700 leaves of 32 down, spread 29, 29, 29, 29, 28; 4 rails x 5 =
     * 20 per unit, 40 for 2 units. At 1:1 each leaf has its trays' uplinks: 2 x 4 x 144 =
     * 1,152 leaf-spine links; 64-port spines take them in 1,152 / 64 = 18 spines with no port
     * idle. Balanced: a leaf's 29 uplinks over 18 spines are 2 links to 11 and 1 to the other
     * 7 (22 + 7 = 29); 28 uplinks: 2 to 10, 1 to 8 (20 + 8 = 28). */
    int64_t spines = 0, leaves = 0;
    for (size_t d = 0; d < fp_plan_device_count(p); d++) {
        fp_device_info di;
        fp_plan_device(p, d, &di, NULL);
        spines += di.tier == 2;
        leaves += di.tier == 1;
    }
    cr_expect_eq(leaves, 40);
    cr_expect_eq(spines, 18);
    cr_expect_eq(boundary_links(p, 1), 1152);
    int64_t to[40][18];
    memset(to, 0, sizeof to);
    int64_t first_leaf = -1, first_spine = -1;
    for (size_t d = 0; d < fp_plan_device_count(p); d++) {
        fp_device_info di;
        fp_plan_device(p, d, &di, NULL);
        if (di.tier == 1 && first_leaf < 0)
            first_leaf = (int64_t)d;
        if (di.tier == 2 && first_spine < 0)
            first_spine = (int64_t)d;
    }
    int64_t per_spine[18] = { 0 };
    for (size_t i = 0; i < fp_plan_link_count(p); i++) {
        fp_link_info l;
        fp_plan_link(p, i, &l, NULL);
        if (l.boundary != 1)
            continue;
        int64_t a = l.a - first_leaf, z = l.z - first_spine;
        cr_assert(a >= 0 && a < 40 && z >= 0 && z < 18);
        to[a][z]++;
        per_spine[z]++;
    }
    for (int z = 0; z < 18; z++)
        cr_expect_eq(per_spine[z], 64, "spine %d has %lld leaf links", z, (long long)per_spine[z]);
    for (int a = 0; a < 40; a++) {
        int twos = 0, ones = 0;
        for (int z = 0; z < 18; z++) {
            twos += to[a][z] == 2;
            ones += to[a][z] == 1;
        }
        /* leaves 5, 10, ... of each rail (0-based a % 5 == 4) have 28 trays */
        cr_expect_eq(twos, a % 5 == 4 ? 10 : 11, "leaf %d", a);
        cr_expect_eq(ones, a % 5 == 4 ? 8 : 7, "leaf %d", a);
    }
    fp_power_domains pd;
    fp_plan_power_domains(p, &pd);
    cr_expect_eq(pd.rows_over, 0);
    fp_plan_free(p);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

Test(layout, rack_fixtures_errors)
{
    /* layout.rack_fixtures: each inside the rack, none on another's units, and the units left
     * must hold servers_per_rack servers of server_ru in whole free units. */
    static const struct { const char *json, *where, *what; } bad[] = {
        /* 9 trays from U40 end at U48, above the 42U rack */
        { "{\"layout\":{\"rack_fixtures\":[{\"name\":\"tray\",\"u\":40,\"count\":9}]}}",
          "/layout/rack_fixtures/0", "U48" },
        /* U5 is the first fixture's (U1-U8) and the second's */
        { "{\"layout\":{\"rack_fixtures\":[{\"name\":\"a\",\"u\":1,\"count\":8},"
          "{\"name\":\"b\",\"u\":5}]}}",
          "/layout/rack_fixtures/1", "U5" },
        /* 4 servers of 8U need 32U; fixtures at U8 and U30 leave runs of 7, 21 and 12 free
         * units: 2 servers fit the 21, 1 the 12, none the 7: 3 of 4 */
        { "{\"layout\":{\"rack_fixtures\":[{\"name\":\"a\",\"u\":8},{\"name\":\"b\",\"u\":30}]}}",
          "/layout/rack_fixtures", "hold 3 of its 4 servers" },
        { "{\"layout\":{\"rack_fixtures\":[{\"u\":3}]}}", "/layout/rack_fixtures/0", "\"name\"" },
        { "{\"layout\":{\"rack_fixtures\":{\"name\":\"a\",\"u\":3}}}", "/layout/rack_fixtures",
          "a list" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fp_error err = { 0 };
        cr_expect_eq(plan_error(bad[i].json, &err), FP_EINVAL, "case %zu", i);
        cr_expect_str_eq(err.where, bad[i].where, "case %zu: %s", i, err.msg);
        cr_expect(strstr(err.msg, bad[i].what), "case %zu: %s", i, err.msg);
    }
}

/* Min x and min y of hall h's racks: the hall's origin on the campus. */
static void hall_origin(const fp_plan *p, int h, double *x, double *y)
{
    *x = *y = 1e18;
    for (size_t i = 0; i < fp_plan_rack_count(p); i++) {
        fp_rack_info r;
        fp_plan_rack(p, i, &r, NULL);
        if (r.hall == h) {
            *x = fmin(*x, r.x_m);
            *y = fmin(*y, r.y_m);
        }
    }
}

Test(layout, halls_on_a_campus_grid)
{
    /* 2,048 GPUs in 2 tiers = 8 units of 32 servers; 4 halls given: 2 units a hall. With
     * racks_per_row 9 a unit is its own row: 4 compute racks, the 0.8 m leaf rack, 4 compute
     * racks = 8 x 0.6 + 0.8 = 5.6 m. The 32 spines (64 leaves x 32 uplinks / 64 ports) spread
     * over 4 halls are 8 a hall: one network rack, a central row. rows_per_line 1: a hall is 3
     * rows, 3 x (1.2 + 1.2) - 1.2 = 6.0 m deep and 5.6 m wide. With 2 m between halls a cell is
     * 7.6 x 8.0 m. The grid takes the columns whose width + depth (the corner-to-corner run) is
     * least: 1 column 7.6 + 4 x 8.0 = 39.6, 2: 15.2 + 16.0 = 31.2, 3: 22.8 + 16.0 = 38.8, 4:
     * 30.4 + 8.0 = 38.4; so 2 columns: halls 1 2 / 3 4. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"tiers\":2},\"layout\":{\"halls\":4,"
                           "\"racks_per_row\":9,\"rows_per_line\":1,\"hall_gap_m\":2}}");
    double want[4][2] = { { 0, 0 }, { 7.6, 0 }, { 0, 8.0 }, { 7.6, 8.0 } };
    for (int h = 1; h <= 4; h++) {
        double x, y;
        hall_origin(p, h, &x, &y);
        cr_expect_float_eq(x, want[h - 1][0], 1e-9, "hall %d x %g", h, x);
        cr_expect_float_eq(y, want[h - 1][1], 1e-9, "hall %d y %g", h, y);
    }
    fp_plan_free(p);
}

Test(layout, many_halls_far_apart_still_plan)
{
    /* The 1,048,576-GPU 4-tier plan makes 54 halls; stacked in one line they put super-core
     * runs past the 2 km of the longest single-mode optic. The same on a small scale: a 2 MW
     * hall limit cuts 16,384 GPUs into 16 halls (one 1.4 MW pod each) and 200 m between halls
     * puts hall 16 at least 15 x 200 = 3,000 m from hall 1 in one line: beyond 2 km, no medium.
     * On the grid every cell is a hall plus 200 m, each hall a few tens of metres, so cells are
     * about square (a by b, a ~ b) and 4 columns give the least width + depth: 4a + 4b against
     * 3a + 6b or 5a + 4b. Hall 5 starts a second grid row right under hall 1, and the farthest
     * halls are 3 cells across and 3 down, under 2 x 3 x (200 + 60) = 1,560 m. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":16384},\"layout\":{\"hall_power_limit_w\":2000000,"
                           "\"hall_gap_m\":200}}");
    double x1, y1, x4, y4, x5, y5;
    hall_origin(p, 1, &x1, &y1);
    hall_origin(p, 4, &x4, &y4);
    hall_origin(p, 5, &x5, &y5);
    cr_expect_float_eq(x5, x1, 1e-9);
    cr_expect_gt(y5, y1 + 200);
    cr_expect_float_eq(y4, y1, 1e-9);
    cr_expect_gt(x4, x1 + 3 * 200);
    double longest = 0;
    for (size_t c = 0; c < fp_plan_cable_count(p); c++) {
        fp_cable_info ci;
        fp_plan_cable(p, c, &ci, NULL);
        if (ci.route_m > longest)
            longest = ci.route_m;
    }
    cr_expect_lt(longest, 1560, "%g", longest);
    cr_expect_gt(longest, 2 * 200, "%g", longest);
    fp_plan_free(p);
}

/* Halls given are all used. 2,048 GPUs in 2 tiers = 8 units of 32 servers (256 GPUs each).
 * 5 halls: unit g goes to hall floor(g x 5 / 8) + 1 = 1 1 2 2 3 4 4 5, so the halls hold
 * 2, 2, 1, 2, 1 units = 64, 64, 32, 64, 32 servers. The earlier ceil-sized halls (2 units
 * each) filled 4 halls and said nothing. 9 halls for 8 units cannot be: a unit never spans
 * two halls. */
Test(layout, halls_given_are_all_used)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"tiers\":2},\"layout\":{\"halls\":5}}");
    int servers[7] = { 0 };
    fp_summary s;
    fp_plan_summary(p, &s);
    for (size_t d = 0; d < (size_t)s.servers; d++) {
        fp_device_info di;
        fp_plan_device(p, d, &di, NULL);
        cr_assert_eq(di.tier, 0, "devices start with the servers");
        int h = loc(p, d).hall;
        cr_assert(h >= 1 && h <= 6, "hall %d", h);
        servers[h]++;
    }
    const int want[7] = { 0, 64, 64, 32, 64, 32, 0 };
    for (int h = 1; h <= 6; h++)
        cr_expect_eq(servers[h], want[h], "hall %d: %d servers, expected %d", h, servers[h], want[h]);
    fp_plan_free(p);
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"tiers\":2},\"layout\":{\"halls\":9}}", &err),
                 FP_EDESIGN);
    cr_expect_str_eq(err.where, "/layout/halls");
    cr_expect(strstr(err.msg, "9 halls for 8 scalable units") && strstr(err.msg, "at most 8"), "%s", err.msg);
}
