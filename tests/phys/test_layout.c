/* Layout: every device placed once, racks in floor order at their (x, y), power per rack. */
#include <math.h>
#include "helpers.h"

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
    cr_expect_eq(fp_plan_boundary_links(p, 0), 34 * 8);
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
    fp_error err;
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
