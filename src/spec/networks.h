/* fabplan — private: the spec stage's view of the cluster's other networks (spec section
 * `networks`: converged, storage, in-band management, out-of-band). Each network is resolved as
 * a fabric of its own (an fp_rspec read by the same code as the compute fabric) and later sized
 * and built by the same Clos builder (fabric/networks.c). */
#ifndef FP_PRIVATE_SPEC_NETWORKS_H
#define FP_PRIVATE_SPEC_NETWORKS_H

#include "spec/resolved.h"

#define FP_MAX_NETWORKS 8
#define FP_MAX_NET_EXTRAS 8
/* The ports of every network's extra endpoints together (counts given as numbers): planning
 * takes about 440 bytes per endpoint port, so the limit bounds it near 460 MB and 7 s. */
#define FP_MAX_EXTRA_PORTS (1 << 20)
#define FP_NET_NAME_MAX 32

typedef enum fp_net_role {
    FP_NET_CONVERGED = 0, FP_NET_STORAGE, FP_NET_MANAGEMENT, FP_NET_OOB
} fp_net_role;

/* Endpoints only this network has (storage servers, management and UFM servers). */
typedef struct fp_net_extra {
    char name[FP_NET_NAME_MAX];
    int64_t count;
    int ports;                  /* ports each has on this network (a multiple of the servers') */
    int ru;                     /* rack units each */
    double power_w;             /* each, 0 when not given */
    int per_switch;             /* spec count "switches": one per switch of the compute fabric
                                   and of every network listed before this one (their
                                   management ports), counted from the plan */
} fp_net_extra;

typedef struct fp_net_spec {
    char name[FP_NET_NAME_MAX];
    fp_net_role role;
    int ports;                  /* ports per compute server on this network */
    int dual_homed;             /* 1: the two ports of each host go to the two leaves of an
                                   MLAG pair (built as two rails, one leaf pair per unit) */
    int peer_links;             /* dual-homed: MLAG peer links between the two leaves of each
                                   pair (spec mlag_peer_links; default 2 on Ethernet, 0 on
                                   InfiniBand, which has no MLAG) */
    int hosts_per_leaf;         /* spec hosts_per_leaf: the hosts one leaf takes (a dual-homed
                                   pair: each of its leaves), 0 when not given (single-homed
                                   beside a rail-optimized compute fabric: whole scalable units;
                                   dual-homed: spread evenly over as few pairs as hold them) */
    int servers_per_leaf;       /* spec servers_per_leaf (single-homed): the servers of one
                                   leaf's unit, its free ports taking extra endpoints; 0 when
                                   not given (the compute fabric's scalable units) */
    int uplink_to;              /* spec uplink_to: the network (an index into fp_nets.net,
                                   listed before this one) whose top-tier switches are this
                                   network's top tier: its leaves' uplinks are cabled to them
                                   and it builds no top tier of its own; -1 when not given */
    char note[256];             /* a choice the reader should know ("" for none): default MLAG
                                   peer links dropped */
    int64_t servers;            /* compute servers attached (production and hot spares) */
    int64_t hosts;              /* endpoints the builder sees: servers, plus each extra's ports
                                   in groups of `ports` */
    fp_net_extra extra[FP_MAX_NET_EXTRAS];
    int n_extra;
    fp_rspec rs;                /* the network's fabric: cluster.gpus = hosts, 1 per "server" */
} fp_net_spec;

typedef struct fp_nets {
    fp_net_spec *net;           /* [in_spec], the first n resolved */
    int n;
    int in_spec;                /* entries of the spec's `networks` */
} fp_nets;

/* What the fabric stage built of a network before the one being resolved (fp__nets_build):
 * its tier count and its top tier's switches, which a network attaching to it (uplink_to)
 * takes as its own top tier. */
typedef struct fp_net_built {
    int tiers;
    int64_t top_switches;
} fp_net_built;

struct fp_spec;
struct cJSON;
/* The spec's `networks` section (NULL when absent) and a spec given as a tree (spec.c). */
const struct cJSON *fp__spec_networks(const struct fp_spec *spec);
fp_status fp__spec_resolve_tree(fp_rspec *rs, struct cJSON *root, const fp_catalog *cat,
                                fp_error *err);

/* Open spec's `networks`: out->in_spec entries allocated, none resolved (out->n 0). Without the
 * section, out->in_spec is 0 and nothing is allocated. FP_EINVAL (not an array of 1 to
 * FP_MAX_NETWORKS), FP_ENOMEM. Free with fp__nets_free (safe on a zeroed fp_nets). */
fp_status fp__nets_open(fp_nets *out, const struct fp_spec *spec, fp_error *err);
/* Resolve the next entry (nets->n, below nets->in_spec; nets->n grows by one) against the
 * resolved compute spec (its server count). switches_before: the switches of the compute fabric
 * and of the networks before this one as built (an endpoint group's count "switches");
 * before[0 .. nets->n): each earlier network as built (a network with uplink_to takes its
 * target's top tier: that tier's model and switch count): the fabric stage resolves each
 * network after building the ones before it (fp__nets_build). Errors carry /networks/N/...
 * pointers; nets stays freeable with fp__nets_free. */
fp_status fp__nets_resolve_next(fp_nets *nets, const struct fp_spec *spec, const fp_rspec *compute,
                                int64_t switches_before, const fp_net_built *before,
                                const fp_catalog *cat, fp_error *err);
void fp__nets_free(fp_nets *nets);
/* fp_spec_resolved_json's text (spec_print.c): the spec resolved, and each entry of its
 * `networks` as nets resolved it (nets: the fabric stage's, every entry resolved; NULL when the
 * spec has no `networks`). */
fp_status fp__spec_print(const struct fp_spec *spec, const fp_catalog *cat, const fp_nets *nets,
                         char **out, fp_error *err);
/* An error of the shared fabric code names /cluster/... or /fabric/...: point it (where and the
 * message) at the network base ("/networks/1") instead. */
void fp__net_error_repoint(fp_error *err, const char *base);
/* "converged", "storage", "management", "oob". */
const char *fp__net_role_name(fp_net_role role);
/* What a dual-homed network's leaf pairs are called, by its protocol: "MLAG pair" on Ethernet,
 * "leaf pair" on InfiniBand (which has no MLAG: each host's two ports are two paths through
 * the subnet manager's routing). Static. */
const char *fp__net_pair_name(const fp_net_spec *ns);

#endif
