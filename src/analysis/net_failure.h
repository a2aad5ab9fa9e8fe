/* fabplan — private: failure what-ifs on the cluster's other networks (net_failure.c). */
#ifndef FP_PRIVATE_ANALYSIS_NET_FAILURE_H
#define FP_PRIVATE_ANALYSIS_NET_FAILURE_H

#include "analysis/analysis.h"
#include "phys/net_bom.h"

/* One network as a what-if reads it (all borrowed): its spec and fabric, its layout and cabling,
 * the first cable id's offset (as cables.csv numbers them), and the compute fabric for the names
 * of the servers it shares. */
typedef struct fp_net_view {
    const fp_net_spec *ns;
    const fp_fabric *fab;
    const fp_layout *lay;
    const fp_cabling *cab;
    int64_t id_base;
    const fp_fabric *cfab;
    const fp_rspec *crs;
} fp_net_view;

/* The network's reliability from its part counts, as the compute fabric's (metrics.c): every
 * line of its BOM in service (switches, NICs bought for it, modules, copper, fibre; not the
 * spares, not the extra endpoints, which are servers) at its catalog MTBF. */
void fp__net_reliability(const fp_net_bom *b, fp_reliability *out);

/* Whether a --fail spec names something of this network. */
int fp__net_fail_matches(const fp_net_view *v, const char *spec);

/* The specs (as fp_plan_fail takes them; role and random specs are the compute fabric's and do
 * nothing here) applied to the network: *out gets what failed and what is left. */
fp_status fp__net_fail_run(fp_network_failure *out, const fp_net_view *v, const char *const *specs,
                           size_t n, fp_error *err);

#endif
