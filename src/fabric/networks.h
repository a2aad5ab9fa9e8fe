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

/* Every network of spec's `networks` in turn: resolved (fp__nets_resolve_next, into nets, which
 * fp__nets_open opened; the built compute fabric cfab and the networks before it
 * give its count of switches) then sized (fp__clos_size, into out->fab[i]) and built
 * (fp__clos_build) as its resolved spec (read only afterwards) shapes it: a dual-homed network
 * is two rails whose leaves, one pair per unit, form the MLAG pairs (units and the room for
 * peer links chosen by the spec stage, spec/networks.c), then its MLAG peer links. Errors carry
 * /networks/N pointers. Free out with fp__net_fabrics_free and nets with fp__nets_free (both
 * safe when zeroed, and on failure). */
fp_status fp__nets_build(fp_net_fabrics *out, fp_nets *nets, const struct fp_spec *spec,
                         const fp_rspec *crs, const fp_fabric *cfab, const fp_catalog *cat,
                         fp_error *err);
/* Switches of a built fabric, every tier and plane (its own: not those of an attached tier). */
int64_t fp__fabric_switches(const fp_fabric *fab);
/* Ports with a link on network i's tier t switches, counted once, on the network that owns the
 * switches: its own links' (none on a tier attached to another network, uplink_to) and those of
 * every network attached to it (uplink_to) on its top tier. */
int64_t fp__net_ports_used(const fp_net_fabrics *nf, const fp_nets *nets, int i, int t);
/* Every device name of the plan is unique: each network's own devices (extra endpoints, its
 * switches) against the compute fabric's and the other networks'. FP_EINVAL names the endpoint
 * group (/networks/N/extra_endpoints/K/name) or the network (/networks/N/name) whose device
 * repeats a name; FP_ENOMEM. Nothing to free. */
fp_status fp__nets_check_names(const fp_nets *nets, const fp_net_fabrics *nf,
                               const fp_fabric *cfab, const fp_rspec *crs, fp_error *err);
void fp__net_fabrics_free(fp_net_fabrics *nf);

/* Dual-homed networks: the MLAG partner of leaf device `leaf` (the other leaf of its pair), or
 * -1 when the network is not dual-homed or dev is not a leaf. */
int64_t fp__mlag_peer(const fp_fabric *fab, const fp_net_spec *ns, int64_t leaf);
/* MLAG peer links of a network's fabric: the links after its last boundary
 * (boundary_base[tiers] .. n_link), ns->peer_links per pair, each leaf 2k to 2k+1 on a
 * physical port of its own (in a cage of its own) after the leaf's up ports, the whole port: as
 * many lane links as the leaf's ports split (breakout), each at the up-link speed (their
 * boundary field is 1). Returns the lane links: pairs x peer_links x breakout. */
int64_t fp__net_peer_links(const fp_fabric *fab);

/* Metrics of a network's fabric. Bisection: the smallest over boundaries of (links x speed) / 2
 * (a folded Clos cut through its middle crosses half of every boundary's capacity; the
 * narrowest boundary limits it). Switch failures per day: sum of switches x 24 / MTBF (parts
 * without an MTBF are left out; *unknown counts their switches). Dual-homed: hosts whose two
 * ports land on two leaves of one MLAG pair, and hosts still attached when any one leaf fails
 * (every leaf failed in turn). */
double fp__net_bisection_gbps(const fp_fabric *fab, const fp_rspec *rs);
double fp__net_switch_failures_per_day(const fp_fabric *fab, const fp_rspec *rs, int64_t *unknown);
void fp__net_dual_check(const fp_fabric *fab, const fp_net_spec *ns, int64_t *paired,
                        int64_t *survive);

/* The extra endpoint group (index in ns->extra) whose port group host dev is, its endpoint's
 * first host in *first (a multi-port endpoint is several consecutive hosts); -1 (and *first
 * dev) when dev is no extra endpoint's host. */
int fp__net_endpoint(const fp_net_spec *ns, int64_t dev, int64_t *first);
/* Name of device dev of a network: its compute servers keep their compute names (cfab, crs);
 * extra endpoints are "<group>-NN"; switches are the network name before the builder's name
 * ("inband-su01-leaf-r1": unit 1's MLAG pair is leaves r1 and r2). Returns buf. */
char *fp__net_device_name(char *buf, size_t n, const fp_net_spec *ns, const fp_fabric *nfab,
                          const fp_fabric *cfab, const fp_rspec *crs, int64_t dev);
/* Name of port `port` of network device dev: hosts' ports are "<network>-p1", "-p2", ... (an
 * extra endpoint's port groups numbered on: its second group starts after the first); switch
 * ports are named as the compute fabric names them (fp__port_name). Returns buf. */
char *fp__net_port_name(char *buf, size_t n, const fp_net_spec *ns, const fp_fabric *nfab,
                        int64_t dev, int port);

#endif
