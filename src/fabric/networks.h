/* fabplan — private: the fabric stage for the cluster's other networks (spec `networks`). Each
 * network is sized and built by the compute fabric's Clos builder (clos.c) from its own resolved
 * spec; nothing here knows a topology of its own. */
#ifndef FP_PRIVATE_FABRIC_NETWORKS_H
#define FP_PRIVATE_FABRIC_NETWORKS_H

#include "fabric/fabric.h"
#include "spec/networks.h"

typedef struct fp_net_fabrics {
    fp_fabric *fab;             /* one per network, in spec order */
    int n;
} fp_net_fabrics;

/* Size (fp__clos_size, writing the tiers into nets->net[i].rs) and build (fp__clos_build) every
 * network. A dual-homed network is built as two rails whose leaves, one pair per unit of as
 * many hosts as a leaf has down ports, form the MLAG pairs. Errors carry /networks/N pointers.
 * Free with fp__net_fabrics_free (safe on a zeroed struct). */
fp_status fp__nets_build(fp_net_fabrics *out, fp_nets *nets, fp_error *err);
void fp__net_fabrics_free(fp_net_fabrics *nf);

/* Dual-homed networks: the MLAG partner of leaf device `leaf` (the other leaf of its pair), or
 * -1 when the network is not dual-homed or dev is not a leaf. */
int64_t fp__mlag_peer(const fp_fabric *fab, const fp_net_spec *ns, int64_t leaf);

#endif
