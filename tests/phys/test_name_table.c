/* The per-plan name table (phys/name_table.c) against the formatters it caches. */
#include <criterion/criterion.h>
#include <string.h>
#include "helpers.h"
#include "plan.h"

/* The name table holds what fp__device_name and fp__location format, for every device. */
Test(name_table, name_table_matches_formatters)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\",\"tiers\":3}}");
    cr_assert(p != NULL);
    for (int64_t d = 0; d < fp__plan_fabric(p)->n_dev; d++) {
        char name[48];
        fp_location loc;
        fp__device_name(name, sizeof name, fp__plan_fabric(p), fp__plan_rspec(p), d);
        fp__location(&loc, fp__plan_layout(p), d);
        cr_assert_str_eq(fp__dev_name(fp__plan_names(p), d), name);
        cr_assert_eq(fp__dev_name_len(fp__plan_names(p), d), strlen(name));
        cr_assert_str_eq(fp__dev_loc(fp__plan_names(p), d), loc.text);
        cr_assert_eq(fp__dev_loc_len(fp__plan_names(p), d), strlen(loc.text));
    }
    fp_plan_free(p);
}

/* Port names: the table (by tier and port) gives what fp__port_name formats for both ends of
 * every link, with breakout lanes (SN5600 split 2 x 400G down, 800G up), a custom template, and
 * NIC ports of a 2-port NIC on two planes. */
static void expect_ports_match(const char *json)
{
    fp_plan *p = plan_from(json);
    const fp_fabric *fab = fp__plan_fabric(p);
    const fp_names *nm = fp__plan_names(p);
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        int64_t dev[2] = { l->a, l->z };
        int port[2] = { l->a_port, l->z_port };
        for (int e = 0; e < 2; e++) {
            char want[FP_PORT_NAME_MAX];
            size_t len = 0;
            fp__port_name(want, sizeof want, fab, fp__plan_rspec(p), dev[e], port[e]);
            const char *got = fp__port_text(nm, fab, dev[e], port[e], &len);
            cr_assert_not_null(got, "link %lld end %d: no table entry (%s)", (long long)i, e, json);
            cr_assert_eq(len, strlen(want));
            cr_assert_str_eq(got, want, "link %lld end %d (%s)", (long long)i, e, json);
        }
    }
    fp_plan_free(p);
}

Test(name_table, port_table_matches_formatter)
{
    expect_ports_match("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\",\"tiers\":3}}");
    expect_ports_match("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"switch\":\"nvidia-sn5600\","
                       "\"link_gbps\":[400,800]}}");
    expect_ports_match("{\"cluster\":{\"gpus\":1024,\"nic\":\"generic-nic-2x400\"},\"fabric\":{"
                       "\"planes\":2,\"switch\":{\"ports\":64,\"port_gbps\":800,\"breakouts\":[2],"
                       "\"interface_names\":\"Ethernet1/{port}[/{lane}]\"}}}");
}
