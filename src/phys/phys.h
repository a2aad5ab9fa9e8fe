/* fabplan — private: the physical stage's results. The layout places every device in a rack
 * (layout.c) and is not changed after it is built; the name table formats every device's name
 * and location once (name_table.c); cabling chooses media and makes cables (media.c,
 * cabling.c); the bill of materials counts parts (bom.c). */
#ifndef FP_PRIVATE_PHYS_PHYS_H
#define FP_PRIVATE_PHYS_PHYS_H

#include <string.h>
#include "fabric/fabric.h"

/* ---- layout (layout.c) ---- */
typedef struct fp_rack {
    int32_t hall, row, pos;         /* 1-based */
    uint8_t role;                   /* 0 compute, else the tier of its switches */
    double x, y;                    /* front-left corner on the floor, metres */
    int32_t units_used;
    int32_t devices;
} fp_rack;

typedef struct fp_layout {
    fp_rack *rack;
    int64_t n_rack;
    int32_t *dev_rack;              /* per device */
    int16_t *dev_u;                 /* per device: lowest U */
    int halls, rows;
    int64_t compute_racks, network_racks;
    double floor_w, floor_d;
} fp_layout;

fp_status fp__layout_build(fp_layout *lay, const fp_fabric *fab, const fp_rspec *rs, fp_error *err);
void fp__layout_free(fp_layout *lay);
/* The layout of fab (a first phase built with fabric.build_for_gpus) as the plan for the target
 * (ffab, frs, its layout full) places the same devices: matched by name; only racks that hold
 * something now are kept, with the target's positions (layout_project.c). */
fp_status fp__layout_project(fp_layout *lay, const fp_fabric *fab, const fp_rspec *rs,
                             const fp_layout *full, const fp_fabric *ffab, const fp_rspec *frs,
                             fp_error *err);
/* "H1-R05-K12-U40" for device dev. */
void fp__location(fp_location *out, const fp_layout *lay, int64_t dev);

/* ---- device names and locations (name_table.c) ---- */
/* Every device's name and location text ("H1-R05-K12-U40", "" without a layout), formatted once
 * per plan into one buffer: off[2*d] is the name of device d, off[2*d+1] its location, each
 * NUL-terminated, and off[2*n_dev] the end of the text. */
typedef struct fp_names {
    char *text;
    uint32_t *off;
    int64_t n_dev;
    /* Port names (fp__port_name) depend only on the device's tier and the port: port p of a
     * tier-t device is port_text + port_off[port_base[t] + p], its length the next offset less
     * that one less one, for p < port_base[t + 1] - port_base[t] (the ports links use). */
    char *port_text;
    uint32_t *port_off;
    int64_t port_base[FP_MAX_TIERS + 2];
} fp_names;
fp_status fp__names_build(fp_names *nm, const fp_fabric *fab, const fp_rspec *rs,
                          const fp_layout *lay, fp_error *err);
void fp__names_free(fp_names *nm);
static inline const char *fp__dev_name(const fp_names *nm, int64_t d)
{
    return nm->text + nm->off[2 * d];
}
static inline size_t fp__dev_name_len(const fp_names *nm, int64_t d)
{
    return nm->off[2 * d + 1] - nm->off[2 * d] - 1;
}
/* Port port of device d from the table, its length in *len; NULL when the table lacks it (the
 * caller then formats it with fp__port_name). */
static inline const char *fp__port_text(const fp_names *nm, const fp_fabric *fab, int64_t d,
                                        int port, size_t *len)
{
    int t = fab->dev[d].tier;
    if (nm->port_off == NULL || port < 0 || nm->port_base[t] + port >= nm->port_base[t + 1])
        return NULL;
    const uint32_t *o = nm->port_off + nm->port_base[t] + port;
    *len = o[1] - o[0] - 1;
    return nm->port_text + o[0];
}
static inline const char *fp__dev_loc(const fp_names *nm, int64_t d)
{
    return nm->text + nm->off[2 * d + 1];
}
static inline size_t fp__dev_loc_len(const fp_names *nm, int64_t d)
{
    return nm->off[2 * d + 2] - nm->off[2 * d + 1] - 1;
}

/* ---- cabling (cabling.c) ---- */
typedef struct fp_cable {
    int32_t first;                  /* offset into fp_cabling.cable_links */
    uint8_t n_links;
    uint8_t kind;                   /* FP_CABLE_STRAIGHT, _TWIN (one cable, two links), _SPLIT */
    uint8_t medium;
    uint8_t connector;              /* fp_connector of the part's ends (fp__part_connector) */
    int16_t part;                   /* index into rs.phys.parts */
    int16_t trunk_part;             /* structured.c: the trunk it rides between racks, else -1 */
    float route_m, stock_m;
} fp_cable;
enum { FP_CABLE_STRAIGHT = 0, FP_CABLE_TWIN, FP_CABLE_SPLIT };

/* A part's connector family from its `connector`: "LC" anywhere is a duplex LC, "MPO" anywhere
 * an MPO; anything else (a copper cable's, a cage's) none. The one reading of the text: the
 * media choice's optical class, a cable's connector, structured cabling's panel ports. */
static inline fp_connector fp__part_connector(const fp_part *p)
{
    return strstr(p->connector, "LC") ? FP_CONNECTOR_LC
           : strstr(p->connector, "MPO") ? FP_CONNECTOR_MPO : FP_CONNECTOR_NONE;
}

/* The fibres of a trunk a link between two racks takes (structured.c): an LC cord a pair, any
 * other fibre cord one 12-fibre MPO leg. */
static inline int fp__trunk_fibres(int connector)
{
    return connector == FP_CONNECTOR_LC ? 2 : 12;
}

/* A copper cable end to end (DAC, ACC, AEC or twisted pair): no fibre, no module; its own
 * power, if any, is drawn at its ends. */
static inline int fp__medium_copper(int m)
{
    return m <= FP_MEDIUM_AEC || m == FP_MEDIUM_TP;
}

typedef struct fp_cabling {
    fp_cable *cable;
    int64_t n_cable;
    int32_t *cable_links;           /* links of each cable, cable order */
    int32_t *link_cable;            /* per link */
    uint8_t *link_medium;           /* per link */
    float *link_route;              /* per link: route length in metres */
    int16_t *cage_mod;              /* per cage: transceiver part or -1 */
    int64_t n_cage;
    int64_t cage_base[FP_MAX_TIERS + 1];  /* first cage of each tier's devices */
    int per_cage[FP_MAX_TIERS + 1]; /* links sharing one cage, per tier (0 = NIC ports) */
    int64_t by_medium[FP_MAX_TIERS][FP_MEDIUM_COUNT];   /* links per boundary and medium */
    /* the media audit, per boundary: the chosen media's cost as the choice weighs it (modules,
     * the cable or a cord per link at stock length), and for the links where another medium
     * also fits, the cheapest such alternative's cost and medium (links per medium) */
    double audit_cost[FP_MAX_TIERS], audit_alt_cost[FP_MAX_TIERS], audit_alt_chosen[FP_MAX_TIERS];
    int64_t audit_alt_links[FP_MAX_TIERS][FP_MEDIUM_COUNT];
    int64_t over_budget;            /* optical links moved to a longer reach class by loss */
    char note[320];                 /* said in the plan's notes when not empty */
    /* layout.cabling "structured" (structured.c): per cable, NULL when direct */
    float *seg;                     /* 3 per cable: cord at A, trunk, cord at Z (trunk 0: one cord) */
    float *seg_stock;               /* 3 per cable: the lengths ordered */
    int64_t *struct_qty;            /* per part (rs.phys.parts) x (FP_MAX_LENGTHS + 1) stock length:
                                       trunks, panels, adapter plates, cassettes to order */
    int16_t *rack_panels;           /* per rack (structured): 1U patch panels placed in it */
    int16_t *rack_panel_u;          /* per rack: the lowest panel's U (they stack upward from it
                                       to just below the rack's switches, or to its top) */
    /* Per rack of the layout (which stays as it was built): power drawn by its servers,
     * switches, modules and powered cables (W, rounded to hundredths), and cables that leave
     * it for another rack. */
    double *rack_power_w;
    /* Overhead tray over each row (tray.c): rows in floor order (a row is a run of racks with
     * one hall and row number); cross-section of the cables it carries, mm^2. */
    int64_t n_tray;
    int64_t *tray_cables;
    double *tray_area_mm2;
    int64_t *tray_rack;             /* first rack of each tray's row (it names the row) */
    int64_t *rack_cables_leaving;
} fp_cabling;

fp_status fp__cabling_build(fp_cabling *cab, const fp_layout *lay, const fp_fabric *fab,
                            const fp_rspec *rs, fp_error *err);
void fp__cabling_free(fp_cabling *cab);
/* Structured cabling: split every optical cable between racks into cord, trunk, cord; count the
 * trunks (shared per rack pair and fibre, 144 fibres each), patch panels and their adapter
 * plates or LC cassettes. Called by fp__cabling_build when layout.cabling is "structured". */
/* Fill of the overhead tray over each row: every cable with an end in a row rides that row's
 * tray (a cable between rows rides both); structured links put their trunk's share there, not
 * their cords. Called by fp__cabling_build. */
fp_status fp__tray_fill(fp_cabling *cab, const fp_layout *lay, const fp_fabric *fab, fp_error *err);
fp_status fp__structured_build(fp_cabling *cab, const fp_layout *lay, const fp_fabric *fab,
                               const fp_rspec *rs, fp_error *err);
/* Cage index of (device, port). */
int64_t fp__cage_of(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs, int64_t dev,
                    int port);
/* Whether a splitter's hub (the cage every leg shares) is its links' z end. */
int fp__split_hub_is_z(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs,
                       const int32_t *links, int n_links);

/* ---- bill of materials (bom.c) ---- */
typedef struct fp_bom_row {
    fp_bom_line line;
    char desc[128];
} fp_bom_row;

typedef struct fp_bom {
    fp_bom_row *row;
    size_t n;
    fp_totals totals;
    char warnings[FP_MAX_NOTES][320];   /* parts without a price or power */
    int n_warnings;
} fp_bom;

fp_status fp__bom_build(fp_bom *bom, const fp_cabling *cab, const fp_fabric *fab,
                        const fp_rspec *rs, fp_error *err);
void fp__bom_free(fp_bom *bom);

#endif
