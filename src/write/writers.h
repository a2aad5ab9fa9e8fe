/* fabplan — private to the write stage: one writer per output family, called by write.c (the
 * public fp_write_* functions). Writers read the plan through plan.h and the public getters. */
#ifndef FP_PRIVATE_WRITE_WRITERS_H
#define FP_PRIVATE_WRITE_WRITERS_H

#include <pthread.h>
#include "plan.h"
#include "util/text.h"

/* plan.json, with the failure section when failure is not NULL; labels: the style labels.csv
 * is written in by the same call, or -1 (then plan.json says nothing of labels), for the
 * "labels_cut" section (docs/outputs.md). */
fp_status fp__write_json(const fp_plan *plan, const char *path, const fp_failure_report *failure,
                         int labels, fp_error *err);
fp_status fp__plan_json_text(const fp_plan *plan, const fp_failure_report *failure, int labels,
                             char **out, fp_error *err);
/* 1 when no text the per-link and per-cable CSV rows of the compute fabric are made of can
 * need CSV quoting or formula neutralising (fp__csv_plain): every device name and location in
 * the name table, every port name and port-name template (NIC and switch models) and every part
 * id. Decided once per document, so the writers copy those columns as they are instead of
 * scanning each field (write_csv.c). */
int fp__csv_plain_names(const fp_plan *plan);
/* fp__csv_plain_names for network v's rows: the compute fabric's names, decided once; a
 * network's names are checked field by field (0). */
int fp__csv_plain_net(const fp_net_read *v);
/* A CSV field: copied as it is when plain (known safe), else written by the cell writer. */
static inline void fp__outbuf_field_n(fp_outbuf *ob, const char *s, size_t n, int plain)
{
    if (plain)
        fp__outbuf_put(ob, s, n);
    else
        fp__outbuf_csv_n(ob, s, n);
}
static inline void fp__outbuf_field(fp_outbuf *ob, const char *s, int plain)
{
    fp__outbuf_field_n(ob, s, strlen(s), plain);
}
/* The writers' one progress call: stage at item i of n (n 0 reads as done), reported at every
 * 65,536th item and at i == n, so half a million rows cost a handful of calls. */
static inline void fp__write_progress(const fp_write_options *o, const char *stage, int64_t i,
                                      int64_t n)
{
    if (o && o->progress && ((i & 0xffff) == 0 || i == n))
        o->progress(stage, n > 0 ? (double)i / (double)n : 1.0, o->payload);
}

/* The cables columns (cable_columns.c; the public names are fp_cables_column_name's). A field
 * of a cable's Z end, one per leg of a breakout: what a Z column lists. */
typedef enum fp_leg_field {
    FP_LEG_HALL, FP_LEG_ROW, FP_LEG_RACK, FP_LEG_U, FP_LEG_DEVICE, FP_LEG_PORT,
    FP_LEG_TRANSCEIVER, FP_LEG_LABEL, FP_LEG_LOCATION
} fp_leg_field;
/* The workbook's title of cables column col ("Cable ID", "Gb/s"; NULL out of range). */
const char *fp__cables_column_title(int col);
/* The fp_leg_field column col lists, one per leg, or -1 for a field of the cable or its A end. */
int fp__cables_column_leg(int col);
/* 1 when cables.csv has column col: the cord and trunk columns with structured cabling only,
 * network with spec `networks` only. */
int fp__cables_column_written(int col, int structured, int networks);
/* Field `what` of each of c's Z legs in order, joined with sep (";" in cables.csv and the
 * workbook, "; " in labels.csv), into buf (cap bytes, cut like snprintf). Returns buf. */
const char *fp__join_legs(char *buf, size_t cap, const fp_cable_info *c, fp_leg_field what,
                          const char *sep);

fp_status fp__write_links_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                              fp_error *err);
fp_status fp__write_cables_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);
fp_status fp__write_bom_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                            fp_error *err);
/* Add layout, media_by_boundary, bom and totals to plan.json's root object
 * (write_json_phys.c). */
struct cJSON;
void fp__json_add_physical(struct cJSON *root, const fp_plan *plan);
/* The "metrics" and "failure" sections of plan.json (write_json_metrics.c). */
void fp__metrics_json(const fp_plan *plan, const fp_failure_report *failure, struct cJSON *root);
/* plan.json's "reliability" object (failures per day by kind, hours to the first link and switch
 * failure, null when unknown) into m: the compute fabric's metrics and each network's. */
void fp__json_reliability(struct cJSON *m, const fp_reliability *r);
/* plan.json "networks" and "cluster_totals" (spec `networks`; nothing without it). */
void fp__json_add_networks(struct cJSON *root, const fp_plan *plan, const fp_failure_report *failure);
/* The installer workbook (write_xlsx.c). */
fp_status fp__write_xlsx(const fp_plan *plan, const char *path, const fp_write_options *o,
                         fp_error *err);
/* As fp__write_xlsx, calling cells_done(arg) once the cells are written (or a sheet failed),
 * before the workbook is compressed into its file: about half of its time, on one thread; not
 * called when the file cannot be created. write.c starts the other documents then on 2 cores. */
fp_status fp__write_xlsx_gated(const fp_plan *plan, const char *path, const fp_write_options *o,
                               void (*cells_done)(void *), void *arg, fp_error *err);
/* The caller's options (NULL: the defaults) as the current version's struct: the members its
 * version has, the defaults for the later ones. Every writer reads only normalised options
 * (fp_plan_write and fp_plan_detail_unit normalise); FP_EINVAL naming caller for a version
 * outside 1..FP_WRITE_OPTIONS_VERSION. */
fp_status fp__write_options_normal(const fp_write_options *in, fp_write_options *out,
                                   const char *caller, fp_error *err);
/* Progress from several writing threads, one call at a time: *locked is a copy of opts whose
 * progress calls the caller's callback under pl's lock (a plain copy when opts has none). The
 * one mechanism of fp_plan_write's writing threads and the workbook's Ports thread. */
typedef struct fp_progress_lock {
    pthread_mutex_t lock;
    fp_progress_cb fn;
    void *payload;
} fp_progress_lock;
void fp__progress_lock_init(fp_progress_lock *pl, const fp_write_options *opts,
                            fp_write_options *locked);
void fp__progress_lock_destroy(fp_progress_lock *pl);
/* o, or the defaults (FP_WRITE_OPTIONS_INIT's, one writing thread) when o is NULL: for a writer
 * called on its own (the tests call the workbook writer so). The pointer is static. */
const fp_write_options *fp__write_opts(const fp_write_options *o);
/* Writing threads the (normalised) options ask for. */
int fp__write_jobs(const fp_write_options *o);
/* One workbook per row or hall (o->split_by) in the directory dir (created). */
fp_status fp__write_xlsx_split(const fp_plan *plan, const char *dir, const fp_write_options *o,
                               fp_error *err);
/* As fp__write_xlsx with at most max_rows data rows per sheet before "Cables (2)" etc. begin
 * (Excel's limit is FP_XLSX_MAX_DATA_ROWS; tests lower it to check the continuation). */
#define FP_XLSX_MAX_DATA_ROWS 1048575
fp_status fp__write_xlsx_rows(const fp_plan *plan, const char *path, const fp_write_options *o,
                              int64_t max_rows, fp_error *err);
/* How many times this process wrote a workbook's Ports sheet on a thread of its own (tests). */
long fp__xlsx_ports_threads_started(void);
/* Tests: call fn(sheet, ports_thread, arg) when a data sheet of a workbook gets its cells,
 * ports_thread 1 on the Ports thread (from both threads at once: fn must lock); NULL stops.
 * Set it only while no workbook is being written. */
void fp__xlsx_sheet_hook(void (*fn)(const char *sheet, int ports_thread, void *arg), void *arg);
/* Tests: leave entry `entry` of the table of formats numbered ahead (xlsx_two_threads.c) out of
 * the numbering, as a new format on the Cables sheet that nobody added to the table would be;
 * -1 restores. Set it only while no workbook is being written. */
void fp__xlsx_test_leave_out(int entry);
/* Test hook: racks per Rack elevation sheet before "Rack elevation (2)" begins (1 .. 16,383;
 * anything else restores the default, 16,383: a sheet's columns but the U's). Returns the limit
 * before. */
size_t fp__xlsx_test_elevation_racks(size_t racks);
/* Every switch port's link, for writers that walk the ports of each switch (AVD, the Ports sheet):
 * port p of switch dev is slot off[dev - first] + p of link_at, -1 when spare; switches are
 * devices first .. first + n_switches - 1. Free with fp__port_links_free (NULL-safe fields).
 * Returns 0, or -1 when out of memory (nothing to free then). */
typedef struct {
    int64_t first, n_switches;
    int64_t *off;       /* n_switches + 1 offsets */
    int32_t *link_at;   /* off[n_switches] slots */
} fp_port_links;
int fp__port_links_build(fp_port_links *out, const fp_plan *plan);
void fp__port_links_free(fp_port_links *m);
/* Exports other tools import (write_exports.c). */
fp_status fp__write_labels_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);
/* The NetBox import set (write_netbox.c), one file per object type, in import order. */
fp_status fp__write_netbox_sites(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err);
fp_status fp__write_netbox_manufacturers(const fp_plan *plan, const char *path,
                                         const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_roles(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err);
fp_status fp__write_netbox_device_types(const fp_plan *plan, const char *path,
                                        const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_racks(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err);
fp_status fp__write_netbox_devices(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_interfaces(const fp_plan *plan, const char *path,
                                      const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_cables(const fp_plan *plan, const char *path,
                                  const fp_write_options *o, fp_error *err);
/* Calls fn for every cage of network net that holds a transceiver, once each, in the order of
 * the links (each link's lower end, then its upper): the device, the cage's number on it
 * (1-based, as NetBox's module bays `cageN` and the workbook's Optics sheet name it) and the
 * module's part. The BOM counts the same cages (phys/bom.c). write_netbox_dcim.c. */
typedef void (*fp_cage_fn)(void *ctx, const fp_net_read *v, int64_t dev, int64_t cage,
                           const fp_part *m);
fp_status fp__write_each_module(const fp_plan *plan, size_t net, fp_cage_fn fn, void *ctx,
                                fp_error *err);
/* NetBox InterfaceTypeChoices value for a port of gbps in a cage of this form factor. */
const char *fp__netbox_interface_type(int gbps, const char *cage, int infiniband);
/* Helpers of the NetBox set shared by write_netbox.c and write_netbox_networks.c (rows are
 * written by fp__csv_row): a NetBox slug of s; the manufacturer name NetBox's device-type library uses for a vendor; the
 * device type of a switch part; the cable type and colour of a medium (fp_medium). */
void fp__netbox_slugify(char *out, size_t n, const char *s);
void fp__netbox_manufacturer(char *out, size_t n, const char *vendor);
typedef struct fp_nb_type {
    char manufacturer[40], model[100], slug[100];
    int u_height;
} fp_nb_type;
/* The NetBox device type of switch part p: the device-type library's manufacturer, model and
 * slug for a part it lists, else the part's vendor, name and a slug of its id. */
void fp__netbox_switch_type(fp_nb_type *t, const fp_part *p);
/* The columns of netbox-interfaces.csv, and what the row builder needs of them: device,
 * name, type, speed, then `tags` (with spec `networks`: tag, the row's network), `lag` (some
 * network is dual-homed Ethernet: fp__netbox_lag_column) and `mgmt_only` (some network's hosts
 * are switches' management ports: fp__netbox_mgmt_column). plain: the device and port names
 * never need CSV quoting (fp__csv_plain_names). */
typedef struct fp_nb_if_cols {
    int tags, lag, mgmt, plain;
    const char *tag;
} fp_nb_if_cols;
int fp__netbox_lag_column(const fp_plan *plan);
int fp__netbox_mgmt_column(const fp_plan *plan);
/* One netbox-interfaces.csv row: lag the LAG the port is a member of ("" for none), mgmt 1
 * for a switch's own management interface. */
void fp__nb_if_row(fp_outbuf *f, const fp_nb_if_cols *c, const char *dev, size_t dev_len,
                   const char *port, size_t port_len, const char *type, const char *speed,
                   const char *lag, int mgmt);
/* netbox-interfaces.csv rows of every port of switch dev (tier t >= 1 of a fabric with
 * resolved spec rs, that tier's sizing sz), used or spare, each at its own speed and type: the
 * down side's physical ports split to the speed below the tier; where the up side splits apart
 * (sz->up_phys >= 0) or the part has an uplink group (SN2201: 48 x 1G RJ45 down, 4 x 100G
 * QSFP28 up), those ports at the speed above, or the uplinks' own on a top tier. Named as
 * every other output names them. */
void fp__netbox_switch_rows(fp_outbuf *f, const fp_nb_if_cols *c, const char *dev,
                            size_t dev_len, const fp_rspec *rs, const fp_tier_size *sz, int t,
                            int ib);
/* netbox-interfaces.csv rows of host d of network v (named dev): its ports on the network at
 * the network's speed, a dual-homed Ethernet host's LAG before them; a host that is another
 * network's switch is that switch's management interface, mgmt_only. */
void fp__netbox_host_rows(fp_outbuf *f, const fp_nb_if_cols *c, const fp_net_read *v, int64_t d,
                          const char *dev, size_t dev_len);
/* What a device of a network is in NetBox: its role (and the role's colour), device type,
 * platform ("" for none) and its part's own draw. The kinds of network v, i < fp__nb_kind_count:
 * its hosts' (the compute fabric's servers; a network's extra endpoint groups), then one per
 * switch tier; fp__nb_kind fills kind i and returns 0 for a kind that is no device of its own
 * (an endpoint group of the switches' management ports). fp__nb_kind_of: device d's kind
 * index (-1 for a network's compute server). fp__nb_device_of: 1, and *k filled, when device d
 * of network v is a NetBox device of its own (fp__net_read_owner gives d itself), in
 * netbox-devices.csv's order. */
typedef struct fp_nb_kind {
    char role[FP_NET_NAME_MAX + 64];
    const char *color;
    fp_nb_type type;
    const char *platform;
    double power_w;
} fp_nb_kind;
int fp__nb_kind_count(const fp_net_read *v);
int fp__nb_kind(const fp_net_read *v, int i, fp_nb_kind *k);
int fp__nb_kind_of(const fp_net_read *v, int64_t d);
int fp__nb_device_of(const fp_net_read *v, int64_t d, fp_nb_kind *k);
/* NetBox's cable type and colour for a cable of this medium and part (NULL: unknown); twisted
 * pair by the category its part's id or name gives (cat5e, cat6, cat6a, ...), else cat6a. */
void fp__netbox_cable_kind(int medium, const fp_part *part, const char **type, const char **color);
/* Names a NetBox file already holds (manufacturers, roles, type slugs), so each is listed once:
 * fp__nb_seen_add returns 1 and remembers v when it is new, 0 when it was added before. */
typedef struct fp_nb_seen {
    int n;
    char v[192][104];
} fp_nb_seen;
int fp__nb_seen_add(fp_nb_seen *s, const char *v);
/* A manufacturers row for name unless seen already. */
void fp__netbox_manufacturer_row(fp_outbuf *f, fp_nb_seen *seen, const char *name);

/* The networks in the NetBox set (spec `networks`; write_netbox_networks.c). Without them
 * the set has no tags and is byte for byte what it was. With them: netbox-tags.csv (imported
 * first) lists the tag `compute` and one tag per network; devices, interfaces and cables gain a
 * column `tags` naming the network(s); each network's switches, extra endpoints, device types,
 * roles, interfaces (the compute servers' ports on it too) and cables (one per link, as the
 * compute fabric's) follow the compute fabric's rows in spec order. */
#define FP_NETBOX_COMPUTE_TAG "compute"
fp_status fp__write_netbox_tags(const fp_plan *plan, const char *path, const fp_write_options *o,
                                fp_error *err);
/* "netbox-tags.csv" with networks; 0 (no file) without. */
int fp__netbox_tags_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                              char *buf, size_t n);
/* The tags of a compute server: "compute" and every network (all attach every server). */
void fp__netbox_server_tags(char *buf, size_t n, const fp_plan *plan);
/* The NetBox objects around the devices (write_netbox_dcim.c), each a file of the set:
 * locations (halls, rows in them), platforms (switch operating systems), module types, module
 * bays and modules (one per cage holding a transceiver, as the BOM counts them), power ports
 * (the plan's draw per device), and with layout.rack_power_limit_w a power panel per row and a
 * feed per rack (fp__netbox_power_file_name returns 0 without the limit). */
fp_status fp__write_netbox_locations(const fp_plan *plan, const char *path,
                                     const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_platforms(const fp_plan *plan, const char *path,
                                     const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_module_types(const fp_plan *plan, const char *path,
                                        const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_power_panels(const fp_plan *plan, const char *path,
                                        const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_power_feeds(const fp_plan *plan, const char *path,
                                       const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_power_ports(const fp_plan *plan, const char *path,
                                       const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_module_bays(const fp_plan *plan, const char *path,
                                       const fp_write_options *o, fp_error *err);
fp_status fp__write_netbox_modules(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err);
int fp__netbox_power_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                               char *buf, size_t n);
/* The amperage of a 415 V three-phase feed loaded to 80 % that carries limit_w. */
int fp__netbox_feed_amps(double limit_w);
/* The hall ("H1") and row ("H1-R05") locations of a rack named "H1-R05-K12". */
void fp__netbox_rack_location(const char *rack, char *hall, size_t hn, char *row, size_t rn);
/* The NetBox platform (operating system) a switch part runs, and its slug; NULL when the
 * catalog part is not of a family listed (generic, custom switches). */
const char *fp__switch_os(const fp_part *p, const char **slug);
/* Manufacturers rows for the transceivers' vendors not seen yet. */
void fp__netbox_module_manufacturers(fp_outbuf *f, const fp_plan *plan, fp_nb_seen *seen);
/* avd-cv-topology.yml (Ethernet fabrics); fp__avd_file_name returns 0 for InfiniBand. */
fp_status fp__write_avd_topology(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err);
int fp__avd_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                      size_t n);
/* ibnetdiscover.topo (the compute fabric's: fp__ibnet_file_name returns 0 when it is
 * Ethernet), ibnetdiscover-<network>.topo for each other InfiniBand network (spec network k,
 * 0-based: fp__net_ibnet_file_name returns 0 when it is Ethernet), ib-node-name-map and
 * ib-ports.csv (every InfiniBand network's: fp__ib_any_file_name returns 0 when the plan has
 * none). write_ibnet.c. */
int fp__ibnet_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                        char *buf, size_t n);
int fp__ib_any_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                         char *buf, size_t n);
int fp__net_ibnet_file_name(const fp_plan *plan, int k, const char *ext, char *buf, size_t n);
fp_status fp__write_ibnet_topology(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err);
fp_status fp__write_net_ibnet_topology(const fp_plan *plan, int k, const char *path,
                                       const fp_write_options *o, fp_error *err);
fp_status fp__write_ib_node_name_map(const fp_plan *plan, const char *path,
                                     const fp_write_options *o, fp_error *err);
fp_status fp__write_ib_ports_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err);
/* Network k of the public index (0: the compute fabric) is InfiniBand (write_ibnet.c). */
int fp__ib_net(const fp_plan *plan, int k);
/* The HCA index (0-based, "mlx5_<i>") of port `port` of host dev of network k: a compute
 * server's ports count from 0 over the InfiniBand networks in network order (the compute
 * fabric's, then each later InfiniBand network's), an extra endpoint's over its port groups. */
int fp__ib_hca_index(const fp_plan *plan, int k, int64_t dev, int port);
/* The ends of link `link` of network k as CVT's P2P sheet names ports: a host's HCA number from
 * 1 (fp__ib_hca_index + 1); a switch's port number from 1, "cage/port" on a part with several
 * ports per cage (QM9700: 1/1 .. 32/2), "port/lane" on a split port; into pa, pz (n bytes each). */
void fp__cvt_ports(const fp_plan *plan, int k, int64_t link, char *pa, char *pz, size_t n);
/* The cable checkers' files (write_verifiers.c): Cumulus PTM's topology.dot (every Ethernet
 * network's links; fp__ptm_file_name returns 0 when the plan has none) and NVIDIA CVT's
 * cvt-p2p.xlsx (a sheet per InfiniBand network; fp__cvt_file_name: 0 when none). */
int fp__ptm_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                      size_t n);
fp_status fp__write_ptm_topology(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err);
int fp__cvt_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                      size_t n);
fp_status fp__write_cvt_p2p(const fp_plan *plan, const char *path, const fp_write_options *o,
                            fp_error *err);
/* The Slurm topology files (write_sched.c): topology.conf (topology/tree), topology-block.conf
 * (topology/block, the NVLink domains: fp__slurm_block_file_name returns 0 when a domain is one
 * server) and topology.yaml (both). */
fp_status fp__write_slurm_tree(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);
int fp__slurm_block_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                              char *buf, size_t n);
fp_status fp__write_slurm_block(const fp_plan *plan, const char *path, const fp_write_options *o,
                                fp_error *err);
fp_status fp__write_slurm_yaml(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);
/* Kubernetes (write_sched.c): k8s-node-labels.sh and kueue-topology.yaml; fp__k8s_check says
 * FP_EINVAL before anything is written when fp_write_options.k8s_labels does not fit the plan. */
fp_status fp__k8s_check(const fp_plan *plan, const fp_write_options *o, fp_error *err);
fp_status fp__write_k8s_labels(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);
fp_status fp__write_kueue_topology(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err);
fp_status fp__write_topology_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err);

/* Diagrams (write_dot.c, the only Graphviz user). Each writer picks the format from the file
 * name it is given: ".dot" writes the Graphviz source, ".svg"/".png" lay out and render. */
fp_status fp__write_overview(const fp_plan *plan, const char *path, const fp_write_options *o,
                             fp_error *err);
/* The overview of network k (spec `networks`, k < fp__plan_net_count): fabric-<network>.dot/.svg
 * (fp__net_overview_file_name gives the name for ext, 0 when the plan has no network k).
 * FP_EINVAL when k is out of range. */
fp_status fp__write_net_overview(const fp_plan *plan, int k, const char *path,
                                 const fp_write_options *o, fp_error *err);
int fp__net_overview_file_name(const fp_plan *plan, int k, const char *ext, char *buf, size_t n);
/* The one-page fabric figure of one scalable-unit group (dot_figure.c): the group of the unit
 * the detail diagram draws (fp_write_options.detail), group-<pod>.dot/.svg. */
fp_status fp__write_figure(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err);
int fp__figure_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                         char *buf, size_t n);
fp_status fp__write_detail(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err);
/* floor.dot/.svg: the whole site on one 16:9 page, rack by rack when every rack's label is
 * readable there, else the halls as labelled blocks (dot_floor.c). */
fp_status fp__write_floor(const fp_plan *plan, const char *path, const fp_write_options *o,
                          fp_error *err);
/* 1 when floor.svg draws every rack (the readability rule of docs/outputs.md), 0 when it draws
 * the halls as blocks. */
int fp__floor_by_rack(const fp_plan *plan);
/* floor-by-hall/H<k + 1>.svg: hall k (0-based) rack by rack on one 16:9 page. The plan's halls
 * (0 without a layout); the file's name for ext, 0 when the plan has no such file (no hall k,
 * or one hall that floor.svg already draws rack by rack). FP_EINVAL when k is out of range. */
int fp__floor_hall_count(const fp_plan *plan);
int fp__floor_hall_file_name(const fp_plan *plan, int k, const char *ext, char *buf, size_t n);
fp_status fp__write_floor_hall(const fp_plan *plan, int k, const char *path,
                               const fp_write_options *o, fp_error *err);
/* Check o->detail against the plan (FP_EINVAL naming the selector and the valid range). */
fp_status fp__detail_check(const fp_plan *plan, const fp_write_options *o, fp_error *err);
/* "su-3.<ext>" / "pod-2.<ext>" for the selected unit; 0 when the plan has no unit to draw. */
int fp__detail_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                         char *buf, size_t n);

/* report.html (write_report.c): one self-contained page; it inlines the diagrams written before
 * it in the same fp_plan_write (they sit beside it, in the run's temporary folder). */
fp_status fp__write_report(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err);
/* compare.html: cost per GPU against bisection for the rows, and the table. */
fp_status fp__write_compare_html(const fp_compare_row *rows, size_t n, const char *path,
                                 fp_error *err);

#endif
