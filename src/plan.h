/* fabplan — private: the read layer between the built plan and the writers. struct fp_plan
 * itself is seen only by plan.c (which drives the stages) and the read-back files (plan_read.c,
 * plan_shape.c, plan_cables.c) through plan_data.h; everything after them (write/, and the CLI
 * through the public API) reads the plan through these functions and the public getters.
 * Each returns a borrowed, const view of one stage's result, valid while the plan lives. */
#ifndef FP_PRIVATE_PLAN_H
#define FP_PRIVATE_PLAN_H

#include "analysis/analysis.h"
#include "phys/net_bom.h"
#include "analysis/net_failure.h"
#include "fabplan/write.h"

const fp_rspec *fp__plan_rspec(const fp_plan *plan);
const fp_fabric *fp__plan_fabric(const fp_plan *plan);
const fp_layout *fp__plan_layout(const fp_plan *plan);
const fp_cabling *fp__plan_cabling(const fp_plan *plan);
const fp_bom *fp__plan_bom(const fp_plan *plan);
const fp_names *fp__plan_names(const fp_plan *plan);
const fp_analysis *fp__plan_analysis(const fp_plan *plan);
/* The cluster's other networks (spec `networks`): how many (0 without the section), and network
 * i's resolved spec, fabric (built by the same Clos builder) and parts. */
int fp__plan_net_count(const fp_plan *plan);
const fp_net_spec *fp__plan_net(const fp_plan *plan, int i);
/* The name documents give network `net` of the public index (fabplan.h: 0 the compute fabric,
 * "compute"; k the spec's network k - 1, its name). */
const char *fp__plan_net_label(const fp_plan *plan, size_t net);
const fp_fabric *fp__plan_net_fabric(const fp_plan *plan, int i);
/* Ports with a link on network i's tier t switches, each counted once, by the network owning
 * the switch (fp__net_ports_used: a network attached to it adds its links there). */
int64_t fp__plan_net_ports_used(const fp_plan *plan, int i, int t);
const fp_net_bom *fp__plan_net_bom(const fp_plan *plan, int i);
const fp_net_place *fp__plan_net_place(const fp_plan *plan);
/* Every rack of the floor as all the networks fill it (the owner of fp_plan_rack's units,
 * devices, power and cables leaving); zeroed without FP_STAGE_CABLING. */
const fp_racks *fp__plan_racks(const fp_plan *plan);
/* Each network's layout (compute racks, then the management racks), cabling and parts. */
const fp_net_phys *fp__plan_net_phys(const fp_plan *plan);
/* Network net of the public index (fabplan.h: 0 the compute fabric, k >= 1 the spec's network
 * k - 1) as the writers read it: the same fields for every network, so a writer has one loop
 * over networks 0 .. fp_plan_net_count - 1 and one row builder. The names are the ones
 * fp_plan_net_device and fp_plan_net_link give (they are built by the functions below). */
typedef struct fp_net_read {
    const fp_plan *plan;
    size_t net;
    const fp_fabric *fab;
    const fp_rspec *rs;
    const fp_net_spec *ns;      /* the spec's entry; NULL for the compute fabric */
    const fp_cabling *cab;      /* NULL without FP_STAGE_CABLING */
    const char *label;          /* fp__plan_net_label: "compute" or the network's name */
    char id_prefix[FP_NET_NAME_MAX + 2]; /* before a link id: "" or "<name>-" (links.csv) */
    int64_t cable_base;         /* cable ids "C%07lld" of the first link's number after it */
    int dual_homed;             /* hosts' ports on the two leaves of a pair (ns->dual_homed) */
    int host_ports;             /* ports of each host (fp_device_info.ports of a tier-0 device) */
} fp_net_read;
fp_net_read fp__plan_net_read(const fp_plan *plan, size_t net);
/* Device d of the network: its name (borrowed from the plan's name table, or formatted into
 * buf of n bytes: a network's host that is another network's device, a compute server or a
 * switch's management port, is named as that device), its length in *len (may be NULL). */
const char *fp__net_read_dev(const fp_net_read *v, int64_t d, char *buf, size_t n, size_t *len);
/* Port `port` of device d, named as links.csv names it, the same way. */
const char *fp__net_read_port(const fp_net_read *v, int64_t d, int port, char *buf, size_t n,
                              size_t *len);
/* Where device d stands: its rack (fp_plan_rack's index; -1 when none) and lowest U. Needs
 * FP_STAGE_LAYOUT for the compute fabric and FP_STAGE_CABLING for a network. */
int64_t fp__net_read_rack(const fp_net_read *v, int64_t d, int *u);
/* The device of the NetBox set, the rack elevation and the power budget that device d of the
 * network is: *owner_net and the return value its network and device index. A device that is
 * another network's (fp_host_alias: a switch's management port, or any other) or a compute
 * server is that device; a port group of a multi-port extra endpoint is the endpoint's first
 * group; any other device is itself. */
int64_t fp__net_read_owner(const fp_net_read *v, int64_t d, size_t *owner_net);

/* Network k as a failure what-if reads it (plan.c). */
fp_net_view fp__plan_net_view(const fp_plan *plan, int k);

/* ---- printed labels (plan_labels.c): the one label builder, two styles ---- */

#define FP_LABEL_LINE 20    /* characters on one printed line of a cable label */

/* One cable end's printed label: its end ("A", "Z", "Z2"), three lines of at most FP_LABEL_LINE
 * characters, and the whole text (the cable's own full label in the plain style, tia_text in
 * TIA-606). */
typedef struct fp_end_label {
    char end[8];
    char line[3][FP_LABEL_LINE + 1];
    char tia_text[640];
    const char *text;       /* borrowed from the cable or tia_text */
} fp_end_label;

/* The label of end `leg` of cable c (0: A, k: the k-th Z leg) in style st; halls: the plan's
 * halls (a plain rack id names its hall when there are several). line2 is this end, line3
 * "> " and the far end (a splitter's hub faces "> N legs <rack>"), each in the first location
 * form that fits (docs/outputs.md: hyphen, then leading zeros dropped; a port name is never
 * shortened). Returns how many of the two lines were still too long and cut (0..2). */
int fp__cable_end_label(fp_end_label *out, const fp_cable_info *c, int leg, int halls,
                        fp_label_style st);

/* FP_OK when the plan has built stages (FP_STAGE_*, with the ones they need), else FP_ESTAGE
 * naming them and what (the call or output) needs them. */
fp_status fp__plan_need(const fp_plan *plan, unsigned stages, const char *what, fp_error *err);

/* The devices at the ends of cable i (< fp_plan_cable_count) as fp_plan_cable gives them: *a the
 * A end (a breakout's hub), z[] each leg's far end; returns the number of legs. Formats no text,
 * for passes over every cable that need only where the ends are (plan_cables.c). */
int fp__cable_ends(const fp_plan *plan, size_t i, int64_t *a, int64_t z[FP_MAX_LEGS]);

/* ---- The fabric as the diagrams draw it (plan_shape.c): one read for the whole, a device's or
 * a link's record, names; so write/dot_*.c never read the stages' structs. ---- */

/* The fabric's shape and the spec figures a drawing labels. The name, model ids and record
 * arrays are borrowed from the plan (read them through fp__shape_device and fp__shape_link). */
typedef struct fp_shape {
    const char *name;           /* the spec's name, "" when none */
    fp_topology topology;
    int tiers, planes;
    int64_t gpus, servers, devices, links;
    int64_t su_count;           /* rail-optimized: scalable units (0 otherwise) */
    int gpus_per_server;
    int endpoints_per_server;   /* fabric ports per server and plane (rails) */
    int nics_per_server, nic_ports;
    int link_gbps;              /* the NIC-leaf speed as the spec gives it */
    int gbps[FP_MAX_TIERS];     /* link speed per boundary, 0 = NIC-leaf */
    int64_t tier_base[FP_MAX_TIERS + 1];     /* first device id of each tier (0 = servers) */
    int64_t boundary_base[FP_MAX_TIERS + 1]; /* first link id of each boundary; [tiers] = links */
    fp_level level[FP_MAX_TIERS + 1];        /* [1..tiers]: blocks, children, switches per plane */
    fp_tier_size size[FP_MAX_TIERS];         /* [0] = leaf: ports down and up per switch */
    const char *model[FP_MAX_TIERS];         /* switch catalog id per tier, [0] = leaf */
    int radix[FP_MAX_TIERS];                 /* logical ports per switch at the speed below */
    const fp_device *dev;                    /* [devices] */
    const fp_link *link;                     /* [links] */
} fp_shape;

void fp__plan_shape(const fp_plan *plan, fp_shape *out);
/* One past the last device of tier t (0 = servers): tier t is tier_base[t] up to this. */
static inline int64_t fp__shape_tier_end(const fp_shape *sh, int t)
{
    return t < sh->tiers ? sh->tier_base[t + 1] : sh->devices;
}
/* Device i's and link i's records (i < devices, i < links), by value: tier, plane, pod, zone,
 * su, rail, index; the ends, their ports, the boundary and plane. Inline: the diagrams read
 * every link at full scale. */
static inline fp_device fp__shape_device(const fp_shape *sh, int64_t i)
{
    return sh->dev[i];
}

static inline fp_link fp__shape_link(const fp_shape *sh, int64_t i)
{
    return sh->link[i];
}
/* Device i's name and its port p's name as links.csv writes them, into buf; return buf. */
char *fp__plan_device_name(const fp_plan *plan, int64_t i, char *buf, size_t n);
char *fp__plan_port_name(const fp_plan *plan, int64_t i, int p, char *buf, size_t n);
/* Every device's rack: the layout's rack index (floor order, as fp_plan_rack) per device,
 * borrowed; NULL without a layout. */
const int32_t *fp__plan_device_racks(const fp_plan *plan);
/* The same for network k (< fp__plan_net_count; spec `networks`): its fabric's shape (the name
 * is "<plan>-<network>", servers its hosts: the compute servers it attaches, then its extra
 * endpoints' port groups; its records through fp__shape_device / fp__shape_link), and the
 * medium of its link i (an fp_medium, -1 without the cabling stage). */
void fp__plan_net_shape(const fp_plan *plan, int k, fp_shape *out);
int fp__plan_net_link_medium(const fp_plan *plan, int k, int64_t i);
/* How many media the outputs list per medium (media 0 .. n-1, fp_medium order): every medium
 * when any cable of the plan (compute fabric or a network) is twisted pair, else all but
 * FP_MEDIUM_TP, the last, so plans without it read as they did before it existed. Without
 * the cabling stage: all but FP_MEDIUM_TP. */
int fp__plan_media_shown(const fp_plan *plan);

#endif
