/* fabplan — bom.csv and cables.csv (one row per physical cable; a breakout names every leg). */
#include <stdio.h>
#include "internal.h"

fp_status fp__write_bom_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                            fp_error *err)
{
    FILE *f = fopen(path, "wb");
    fp_totals t;
    (void)o;
    if (f == NULL)
        FP_FAIL(err, FP_EIO, path, "cannot create %s", path);
    fputs("category,part,description,length_m,spare,quantity,unit_cost_usd,cost_usd,unit_power_w,power_w,mtbf_hours\n",
          f);
    for (size_t i = 0; i < fp_plan_bom_count(plan); i++) {
        fp_bom_line l;
        fp_plan_bom_line(plan, i, &l, NULL);
        fprintf(f, "%s,", l.category);
        fp__csv_field(f, l.part);
        fputc(',', f);
        fp__csv_field(f, l.description);
        fprintf(f, ",%g,%d,%lld,%.2f,%.2f,%.2f,%.2f,%.0f\n", l.length_m, l.spare,
                (long long)l.quantity, l.unit_cost, l.cost, l.unit_power_w, l.power_w,
                l.mtbf_hours);
    }
    fp_plan_totals(plan, &t);
    fprintf(f, "total,,,,,,,%.2f,,%.2f,\n", t.cost, t.power_w);
    return fp__close_written(f, path, err);
}

static void end_fields(FILE *f, const fp_cable_end *e)
{
    fprintf(f, "%d,%d,%d,%d,", e->loc.hall, e->loc.row, e->loc.rack, e->loc.u);
    fp__csv_field(f, e->device_name);
    fputc(',', f);
    fp__csv_field(f, e->port);
}

/* Z fields of a breakout: each field lists the legs in order, separated by ";". */
static void legs_field(FILE *f, const fp_cable_info *c, int what)
{
    char buf[FP_MAX_LEGS * 132];
    size_t k = 0;
    buf[0] = '\0';
    for (int z = 0; z < c->n_z; z++) {
        const fp_cable_end *e = &c->z[z];
        const char *sep = z ? ";" : "";
        switch (what) {
        case 0: k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", sep, e->loc.hall); break;
        case 1: k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", sep, e->loc.row); break;
        case 2: k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", sep, e->loc.rack); break;
        case 3: k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", sep, e->loc.u); break;
        case 4: k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", sep, e->device_name); break;
        case 5: k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", sep, e->port); break;
        case 6: k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", sep, e->transceiver); break;
        default: k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", sep, e->label); break;
        }
        if (k >= sizeof buf)
            break;
    }
    fp__csv_field(f, buf);
}

fp_status fp__write_cables_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err)
{
    FILE *f = fopen(path, "wb");
    size_t n = fp_plan_cable_count(plan);
    fp_cable_info c;
    if (f == NULL)
        FP_FAIL(err, FP_EIO, path, "cannot create %s", path);
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    fputs("cable_id,a_hall,a_row,a_rack,a_u,a_device,a_port,z_hall,z_row,z_rack,z_u,z_device,z_port,"
          "medium,cable_part,route_m,stock_m,a_transceiver,z_transceiver,label_a,label_z\n",
          f);
    for (size_t i = 0; i < n; i++) {
        fp_plan_cable(plan, i, &c, NULL);
        fprintf(f, "%s,", c.id);
        end_fields(f, &c.a);
        fputc(',', f);
        if (c.n_z == 1) {
            end_fields(f, &c.z[0]);
        } else {
            for (int w = 0; w < 6; w++) {
                legs_field(f, &c, w);
                if (w < 5)
                    fputc(',', f);
            }
        }
        fprintf(f, ",%s,%s,%.2f,%g,", fp_medium_name(c.medium), c.part, c.route_m, c.stock_m);
        fp__csv_field(f, c.a.transceiver);
        fputc(',', f);
        if (c.n_z == 1)
            fp__csv_field(f, c.z[0].transceiver);
        else
            legs_field(f, &c, 6);
        fputc(',', f);
        fp__csv_field(f, c.a.label);
        fputc(',', f);
        if (c.n_z == 1)
            fp__csv_field(f, c.z[0].label);
        else
            legs_field(f, &c, 7);
        fputc('\n', f);
        if (o && o->progress && (i & 0xffff) == 0)
            o->progress("cables.csv", (double)i / (double)n, o->payload);
    }
    if (o && o->progress)
        o->progress("cables.csv", 1.0, o->payload);
    return fp__close_written(f, path, err);
}
