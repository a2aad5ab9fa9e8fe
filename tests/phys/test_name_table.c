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
