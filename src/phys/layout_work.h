/* fabplan — private to the layout files of the phys stage (layout.c sizes the racks, groups
 * the units and lays out the floor; layout_stream.c streams the racks into rows and puts each
 * device in its rack): the working state of one layout build. */
#ifndef FP_PRIVATE_PHYS_LAYOUT_WORK_H
#define FP_PRIVATE_PHYS_LAYOUT_WORK_H

#include "phys/phys.h"

#define MAX_HALLS 64

static inline int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* One rack before numbering: where it stands and what it is. */
typedef struct fp_temp_rack {
    int32_t hall, row;          /* row: index in the hall's stream (compute and central) */
    int32_t pos;                /* 0-based in its row */
    uint8_t role;
    double width, power;        /* metres; estimated watts */
} fp_temp_rack;

typedef struct fp_layout_ctx {
    const fp_fabric *fab;
    const fp_rspec *rs;
    const fp_phys_spec *ps;
    fp_layout *lay;
    int64_t n_units, unit_servers;
    int64_t rpr;                        /* most racks in a row */
    int halls;
    int per_rack[FP_MAX_TIERS + 1];     /* switches per network rack, per tier */
    int ru[FP_MAX_TIERS + 1];           /* RU of a switch, per tier */
    double dev_w[FP_MAX_TIERS + 1];     /* estimated power of one device per tier ([0] server) */
    int pod_mode;                       /* spines beside their pods */
    int top_central_from;               /* first tier in central rows */
    /* per unit */
    int64_t *unit_cr, *unit_nr, *unit_leaves, *unit_base, *unit_group;
    int32_t *leaf_unit;                 /* per leaf (tier-1 switch, all planes) */
    /* per group (pod, or unit for 2 tiers) */
    int64_t n_groups;
    int64_t *grp_unit0, *grp_units, *grp_spines, *grp_sr, *grp_sr_base, *grp_zone;
    int32_t *grp_hall;
    double *grp_power;
    /* central racks per hall and tier */
    int64_t central_count[MAX_HALLS][FP_MAX_TIERS + 1], central_base[MAX_HALLS][FP_MAX_TIERS + 1];
    int32_t hall_zone_first[MAX_HALLS];
    /* temp racks */
    fp_temp_rack *rk;
    int64_t n_rk, cap_rk;
    /* stream state */
    int cur_hall;
    int32_t cur_row, cur_pos;
    double cur_power;
    int32_t hall_rows[MAX_HALLS], hall_central_rows[MAX_HALLS], hall_central_row0[MAX_HALLS];
} fp_layout_ctx;

static inline int is_pod_tier(const fp_layout_ctx *b, int t)
{
    return t == 2 && b->fab->tiers >= 3;
}

/* Stream every unit's racks, the spine racks and the central rows into b->rk, hall by hall,
 * row by row. FP_ENOMEM when out of memory. */
fp_status fp__layout_stream(fp_layout_ctx *b, int32_t *pod_group, int32_t *zone_h0,
                            int32_t *zone_h1, fp_error *err);
/* Put every device in its rack and U (b->lay->rack must hold b->n_rk racks). */
fp_status fp__layout_place(fp_layout_ctx *b, const int32_t *pod_group, int32_t *zone_h0,
                           int32_t *zone_h1, fp_error *err);

#endif
