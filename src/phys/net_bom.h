/* fabplan — private: the physical stage for the cluster's other networks (spec `networks`):
 * each network's parts, grouped by network, with its totals. */
#ifndef FP_PRIVATE_PHYS_NET_BOM_H
#define FP_PRIVATE_PHYS_NET_BOM_H

#include "fabric/networks.h"
#include "phys/phys.h"

typedef struct fp_net_bom_line {
    char category[16];          /* "switch", "nic", "transceiver", "copper", "fibre", "endpoint" */
    char part[64];              /* part id, or the endpoint group's name */
    char desc[128];
    int64_t qty;
    double unit_usd, ext_usd;   /* 0 when the part gives no price */
    double unit_w, ext_w;       /* spares: ext_w 0 (on the shelf) */
    double length_m;            /* copper and fibre: the stock length; else 0 */
    int spare;
    int64_t ru;                 /* rack units of all qty */
    double mtbf_hours;          /* of one unit, from the catalog; 0 = unknown (and endpoints) */
} fp_net_bom_line;

typedef struct fp_net_bom {
    fp_net_bom_line *line;
    int n;
    double cost;                /* every priced line but the endpoints: switches, NICs,
                                   transceivers, cables and fibre, spares */
    double power_w;             /* the same parts, in service */
    double endpoint_power_w;    /* extra endpoints (storage, management servers) */
    int64_t switches, cables, transceivers, ru;
    int64_t cables_by_medium[FP_MEDIUM_COUNT];
    int64_t unpriced;           /* lines whose part gives no price */
} fp_net_bom;

typedef struct fp_net_boms {
    fp_net_bom *b;
    int n;
} fp_net_boms;

/* ---- cabling (net_cabling.c) ---- */
/* Each network cabled by the compute fabric's cabling stage: a layout of its own (the compute
 * racks with their positions, then the management racks in a row of their own beyond the
 * floor's far edge; every device where fp_net_place put it), its cables with route, stock
 * length, medium and parts (fp__cabling_build), and its parts counted by fp__bom_build. The
 * network's resolved spec carries the compute floor's rack size, tray height, slack and service
 * loops, no server power (the compute servers are counted once, by the compute fabric) and
 * direct cabling. Free with fp__net_phys_free (safe on a zeroed struct). */
typedef struct fp_net_phys {
    fp_layout *lay;             /* per network */
    fp_cabling *cab;
    fp_bom *bom;
    int n;
    /* The overhead tray over each row of the networks' floor (the compute rows in floor order,
     * then the management rows) with every cable that rides it: the compute fabric's (ccab)
     * and each network's; tray_rack indexes lay[0]'s racks (every network's layout has the same
     * racks). n_tray 0 without networks. */
    int64_t n_tray;
    int64_t *tray_cables;
    double *tray_area_mm2;
    int64_t *tray_rack;
} fp_net_phys;

struct fp_net_place;
/* ccab: the compute fabric's cabling (its trays are the first rows of the networks' floor). */
fp_status fp__net_phys_build(fp_net_phys *out, const fp_nets *nets, const fp_net_fabrics *nf,
                             const struct fp_net_place *pl, const fp_layout *lay,
                             const fp_cabling *ccab, const fp_rspec *crs, fp_error *err);
void fp__net_phys_free(fp_net_phys *np);

/* Count each network's parts: its switches per tier, the NICs bought for its compute servers
 * (on-board ports cost nothing), the transceivers, copper cables and fibre its cabling chose
 * (with spares as bom.spares asks), and its extra endpoints (space and power, no price).
 * Free with fp__net_boms_free. */
fp_status fp__net_boms_build(fp_net_boms *out, const fp_nets *nets, const fp_net_fabrics *nf,
                             const fp_net_phys *np, fp_error *err);
void fp__net_boms_free(fp_net_boms *nb);

/* ---- placement (net_place.c) ---- */
/* Where the networks' devices stand. Compute servers stay where the layout put them; leaves of
 * single-homed networks (management, out-of-band) go into the compute rack of their first host,
 * as the reference architectures put a management switch in each compute rack; every other
 * switch, and the extra endpoints, fill management racks of their own (the RA's management rack),
 * numbered after the layout's racks, per hall: a leaf's in the hall of its first host, an extra
 * endpoint's beside its leaf, a switch below the top tier beside the first switch under it, the
 * top tier in the middle hall. fp_rack_add lists every compute rack that gains a device or holds
 * a network's host (its ports may bring modules), then the management racks, with what placing
 * puts there; the rack's whole units and power are fp_racks' (racks.c). */
typedef struct fp_rack_add {
    int64_t rack;               /* index into the layout's racks, or n_rack + k for management
                                   rack k */
    int64_t devices, ru;
    double power_w;             /* the extra endpoints placed there (switches, modules and
                                   powered cables come with each network's cabling) */
} fp_rack_add;

typedef struct fp_net_place {
    int64_t **dev_rack;         /* per network, per device: as fp_rack_add.rack */
    int16_t **dev_u;            /* per network, per device: lowest U (network devices stack
                                   above a compute rack's own units, management racks from U1) */
    fp_rack_add *add;           /* racks that gain devices, in rack order */
    int64_t n_add;
    int64_t mgmt_racks;         /* management racks added */
    int32_t *mgmt_hall;         /* per management rack: its hall (a leaf's is its first host's,
                                   upper tiers the middle hall, extra endpoints hall 1) */
    int64_t over_ru;            /* compute racks the additions take past rack_units */
} fp_net_place;

/* Place every network device (cfab, lay, cab and crs: the compute fabric, its layout, its
 * cabling's patch panels, its spec). A device standing in a compute rack takes the units above
 * the rack's servers, below its switches and patch panels: when they would overlap, FP_EDESIGN
 * names the rack, the device and the units (a clash, not a rack silently over its units). */
fp_status fp__net_place_build(fp_net_place *out, const fp_nets *nets, const fp_net_fabrics *nf,
                              const fp_fabric *cfab, const fp_layout *lay, const fp_cabling *cab,
                              const fp_rspec *crs, fp_error *err);
void fp__net_place_free(fp_net_place *pl, int n_nets);

/* ---- the cluster's racks (racks.c) ---- */
/* Every rack of the cluster's floor as every network fills it: the layout's racks (floor order),
 * then the management racks the networks add (hall by hall, as fp_net_place numbers them). The
 * one owner of a rack's units, devices, power and cables leaving: built once, after every
 * network is cabled, and read by fp_plan_rack, fp_plan_power_domains and every writer. Without
 * networks it is the compute fabric's layout and cabling as they are. Free with fp__racks_free
 * (safe on a zeroed struct). */
typedef struct fp_racks {
    int64_t n;                  /* the layout's racks, then the management racks */
    int64_t n_layout;           /* the layout's racks */
    const fp_rack *rack;        /* [n], borrowed: the networks' floor (every network's layout
                                   has these racks) or the compute layout's */
    int32_t *units_used;        /* devices' units, patch panels and the networks' devices */
    int64_t *devices;           /* servers, switches and the networks' devices (no panels) */
    double *power_w;            /* the compute fabric's figure plus net_power_w */
    double *net_power_w;        /* the networks' share: extra endpoints, and each network's
                                   switches, modules and powered cables (W, to hundredths) */
    int64_t *cables_leaving;    /* every network's cables with one end here, the other elsewhere */
    int64_t over_power;         /* compute racks the networks' additions hold (fp_rack_add)
                                   that are over the rack power limit */
} fp_racks;

/* pl and np: the networks' placement and cabling (zeroed without networks). FP_ENOMEM. */
fp_status fp__racks_build(fp_racks *out, const fp_layout *lay, const fp_cabling *cab,
                          const fp_net_place *pl, const fp_net_phys *np, const fp_rspec *crs,
                          fp_error *err);
void fp__racks_free(fp_racks *r);

#endif
