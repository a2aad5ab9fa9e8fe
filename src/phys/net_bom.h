/* fabplan — private: the physical stage for the cluster's other networks (spec `networks`):
 * each network's parts, grouped by network, with its totals. */
#ifndef FP_PRIVATE_PHYS_NET_BOM_H
#define FP_PRIVATE_PHYS_NET_BOM_H

#include "fabric/networks.h"

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

#endif
