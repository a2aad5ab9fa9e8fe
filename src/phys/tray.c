/* fabplan — overhead tray fill: the tray over each row carries every cable with an end in that
 * row (a cable between rows rides the tray of each row it leaves or enters; cables within one
 * rack stay in it). A cable counts its cross-section: copper (DAC, ACC, AEC, and
 * twisted pair: a Cat6A U/UTP cord is 6-7.5 mm) 7.5 mm across,
 * a fibre cord 3.0 mm; with structured cabling a link between racks puts 1/12 of a 144-fibre
 * trunk (9.0 mm across) in the tray instead of its cords, which stay in their racks. The tray
 * holds tray_width_mm x tray_depth_mm x tray_fill_max (docs/layout.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/phys.h"

#define PI 3.14159265358979323846

static double disc(double d_mm)
{
    return PI * d_mm * d_mm / 4.0;
}

fp_status fp__tray_fill(fp_cabling *cab, const fp_layout *lay, const fp_fabric *fab, fp_error *err)
{
    int64_t n = lay->n_rack;
    int32_t *row_of = malloc((size_t)(n ? n : 1) * sizeof *row_of);
    int64_t rows = 0;
    if (row_of == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for tray fill");
    for (int64_t r = 0; r < n; r++) {
        if (r == 0 || lay->rack[r].hall != lay->rack[r - 1].hall || lay->rack[r].row != lay->rack[r - 1].row)
            rows++;
        row_of[r] = (int32_t)(rows - 1);
    }
    cab->n_tray = rows;
    cab->tray_cables = calloc((size_t)(rows ? rows : 1), sizeof *cab->tray_cables);
    cab->tray_area_mm2 = calloc((size_t)(rows ? rows : 1), sizeof *cab->tray_area_mm2);
    cab->tray_rack = calloc((size_t)(rows ? rows : 1), sizeof *cab->tray_rack);
    if (cab->tray_cables == NULL || cab->tray_area_mm2 == NULL || cab->tray_rack == NULL) {
        free(row_of);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for tray fill");
    }
    for (int64_t r = n - 1; r >= 0; r--)
        cab->tray_rack[row_of[r]] = r;
    for (int64_t i = 0; i < cab->n_cable; i++) {
        const fp_cable *cb = &cab->cable[i];
        const int32_t *links = cab->cable_links + cb->first;
        int64_t racks[2 * FP_MAX_LEGS + 2];
        int nr = 0;
        for (int k = 0; k < cb->n_links && k <= FP_MAX_LEGS; k++) {
            racks[nr++] = lay->dev_rack[fab->link[links[k]].a];
            racks[nr++] = lay->dev_rack[fab->link[links[k]].z];
        }
        int leaves = 0;
        for (int k = 1; k < nr; k++)
            leaves |= racks[k] != racks[0];
        if (!leaves)
            continue;
        double area = fp__medium_copper(cb->medium) ? disc(7.5) : disc(3.0);
        if (cab->seg && cab->seg[3 * i + 1] > 0)
            area = disc(9.0) / 12.0;
        /* Each row the cable touches, once. */
        int32_t seen[2 * FP_MAX_LEGS + 2];
        int ns = 0;
        for (int k = 0; k < nr; k++) {
            int32_t row = row_of[racks[k]];
            int dup = 0;
            for (int j = 0; j < ns; j++)
                dup |= seen[j] == row;
            if (dup)
                continue;
            seen[ns++] = row;
            cab->tray_cables[row]++;
            cab->tray_area_mm2[row] += area;
        }
    }
    free(row_of);
    return FP_OK;
}
