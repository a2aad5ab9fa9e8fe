/* fabplan — private: the physical stage for the cluster's other networks (spec `networks`):
 * each network's parts, grouped by network, with its totals. */
#ifndef FP_PRIVATE_PHYS_NET_BOM_H
#define FP_PRIVATE_PHYS_NET_BOM_H

#include "fabric/networks.h"
#include "phys/phys.h"

#define FP_NET_BOM_LINES (FP_MAX_TIERS + 2 + FP_MAX_NET_EXTRAS)

typedef struct fp_net_bom_line {
    char category[16];          /* "switch", "nic", "cable", "endpoint" */
    char part[64];              /* part id, or the endpoint group's name */
    char desc[128];
    int64_t qty;
    double unit_usd, ext_usd;   /* 0 when the part gives no price */
    double unit_w, ext_w;
    int64_t ru;                 /* rack units of all qty */
} fp_net_bom_line;

typedef struct fp_net_bom {
    fp_net_bom_line line[FP_NET_BOM_LINES];
    int n;
    double cost;                /* switches and NICs (the network's own parts) */
    double power_w;             /* switches and NICs */
    double endpoint_power_w;    /* extra endpoints (storage, management servers) */
    int64_t switches, cables, ru;
    int64_t unpriced;           /* lines whose part gives no price */
} fp_net_bom;

typedef struct fp_net_boms {
    fp_net_bom *b;
    int n;
} fp_net_boms;

/* Count each network's parts. Its cables are one per link: their media are not chosen for the
 * other networks (each line says so and carries no price). Free with fp__net_boms_free. */
fp_status fp__net_boms_build(fp_net_boms *out, const fp_nets *nets, const fp_net_fabrics *nf,
                             fp_error *err);
void fp__net_boms_free(fp_net_boms *nb);

/* ---- placement (net_place.c) ---- */
/* Where the networks' devices stand. Compute servers stay where the layout put them; leaves of
 * single-homed networks (management, out-of-band) go into the compute rack of their first host,
 * as the reference architectures put a management switch in each compute rack; every other
 * switch, and the extra endpoints, fill management racks of their own (the RA's management rack),
 * placed after the layout's racks. Rack units and power of every rack that gains devices are
 * the layout's and cabling's figures plus these. */
typedef struct fp_rack_add {
    int64_t rack;               /* index into the layout's racks, or n_rack + k for management
                                   rack k */
    int64_t devices, ru;
    double power_w;
} fp_rack_add;

typedef struct fp_net_place {
    int64_t **dev_rack;         /* per network, per device: as fp_rack_add.rack */
    fp_rack_add *add;           /* racks that gain devices, in rack order */
    int64_t n_add;
    int64_t mgmt_racks;         /* management racks added */
    int64_t over_ru, over_power;/* compute racks the additions take past rack_units / the
                                   rack power limit */
} fp_net_place;

fp_status fp__net_place_build(fp_net_place *out, const fp_nets *nets, const fp_net_fabrics *nf,
                              const fp_layout *lay, const fp_cabling *cab, const fp_rspec *crs,
                              fp_error *err);
void fp__net_place_free(fp_net_place *pl, int n_nets);

#endif
