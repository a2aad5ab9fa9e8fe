/* fabplan — placeholder for layout/cabling/BOM until those modules land (issue 3):
 * every getter reports an empty result. */
#include <string.h>
#include "internal.h"

static const char *const medium_names[] = { "DAC", "ACC", "AEC", "MMF", "SMF" };

const char *fp_medium_name(fp_medium m)
{
    return (unsigned)m < FP_MEDIUM_COUNT ? medium_names[m] : "unknown";
}

fp_status fp_plan_device_location(const fp_plan *plan, size_t device, fp_location *out,
                                  fp_error *err)
{
    (void)plan;
    (void)out;
    FP_FAIL(err, FP_EINVAL, "", "device %zu: no layout in this build", device);
}

size_t fp_plan_rack_count(const fp_plan *plan) { (void)plan; return 0; }
fp_status fp_plan_rack(const fp_plan *plan, size_t i, fp_rack_info *out, fp_error *err)
{
    (void)plan;
    (void)out;
    FP_FAIL(err, FP_EINVAL, "", "rack %zu out of range", i);
}
size_t fp_plan_cable_count(const fp_plan *plan) { (void)plan; return 0; }
fp_status fp_plan_cable(const fp_plan *plan, size_t i, fp_cable_info *out, fp_error *err)
{
    (void)plan;
    (void)out;
    FP_FAIL(err, FP_EINVAL, "", "cable %zu out of range", i);
}
int64_t fp_plan_link_cable(const fp_plan *plan, size_t link) { (void)plan; (void)link; return -1; }
fp_medium fp_plan_link_medium(const fp_plan *plan, size_t link) { (void)plan; (void)link; return FP_MEDIUM_COUNT; }
size_t fp_plan_bom_count(const fp_plan *plan) { (void)plan; return 0; }
fp_status fp_plan_bom_line(const fp_plan *plan, size_t i, fp_bom_line *out, fp_error *err)
{
    (void)plan;
    (void)out;
    FP_FAIL(err, FP_EINVAL, "", "BOM line %zu out of range", i);
}
void fp_plan_totals(const fp_plan *plan, fp_totals *out) { (void)plan; memset(out, 0, sizeof *out); }
