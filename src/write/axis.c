/* fabplan — round chart ticks (fp_axis_ticks, public in fabplan/write.h): for the sweep chart
 * and compare.html, whose axes read like a printed chart's (0, 2000, 4000, ...) rather than the
 * data's range cut in quarters (4798, 5480, 6162, ...). */
#include <math.h>
#include <string.h>
#include "write/writers.h"

/* Multiples of step (m x 10^e) from the one at or below lo to the one at or above hi. The
 * quotients get a tolerance of a millionth of a step: 0.3 / 0.1 is 2.9999999999999996. */
static void span(double lo, double hi, double step, double *first, double *last)
{
    *first = floor(lo / step + 1e-6);
    *last = ceil(hi / step - 1e-6);
}

fp_status fp_axis_ticks(double lo, double hi, int max_ticks, fp_axis *out, fp_error *err)
{
    static const int mantissa[3] = { 1, 2, 5 };
    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (out == NULL)
        FP_FAIL(err, FP_EINVAL, "out", "no fp_axis to fill (out is NULL)");
    if (!isfinite(lo) || !isfinite(hi) || fabs(lo) > 1e300 || fabs(hi) > 1e300)
        FP_FAIL(err, FP_EINVAL, "lo", "axis ends must be finite numbers of size at most 1e300, "
                "found %g .. %g", lo, hi);
    if (lo > hi)
        FP_FAIL(err, FP_EINVAL, "lo", "axis low end %g is above its high end %g", lo, hi);
    if (max_ticks < 2 || max_ticks > FP_AXIS_MAX_TICKS)
        FP_FAIL(err, FP_EINVAL, "max_ticks", "expected 2 .. %d ticks, found %d",
                FP_AXIS_MAX_TICKS, max_ticks);
    double size = fmax(fabs(lo), fabs(hi));
    if (hi - lo <= size * 1e-9) {
        /* One value: a power of ten of its size on each side (0: 0 .. 1). */
        if (size == 0) {
            hi = 1;
        } else {
            double d = pow(10, floor(log10(size)));
            lo -= d;
            hi += d;
        }
    }
    /* The smallest round step that fits: start a decade below what max_ticks would need. */
    int e = (int)floor(log10((hi - lo) / (max_ticks - 1))) - 1;
    double first = 0, last = 0, step = 0;
    int m = 0;
    for (;; e++) {
        for (m = 0; m < 3; m++) {
            step = mantissa[m] * pow(10, e);
            span(lo, hi, step, &first, &last);
            if (last - first + 1 <= max_ticks)
                break;
        }
        if (m < 3)
            break;
    }
    out->step = step;
    out->count = (int)(last - first) + 1;
    out->decimals = e < 0 ? -e : 0;
    /* Each tick from its integer multiple, divided rather than multiplied by a negative power
     * (3 / 10 is 0.3; 3 * 0.1 is not). */
    for (int i = 0; i < out->count; i++) {
        double k = (first + i) * mantissa[m];
        out->tick[i] = e < 0 ? k / pow(10, -e) : k * pow(10, e);
    }
    out->lo = out->tick[0];
    out->hi = out->tick[out->count - 1];
    return FP_OK;
}
