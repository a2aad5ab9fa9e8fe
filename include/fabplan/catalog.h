/* fabplan — the parts catalog: switches, NICs, transceivers, copper cables and fibre.
 *
 * The built-in catalog (templates/catalog.json) is compiled into the library. A user
 * catalog in the same format adds parts or replaces built-in parts with the same id.
 * Every price and power figure carries a source note; treat built-in prices as estimates. */
#ifndef FABPLAN_CATALOG_H
#define FABPLAN_CATALOG_H

#include <stddef.h>
#include "fabplan/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fp_catalog fp_catalog;

typedef enum fp_part_type {
    FP_PART_SWITCH = 0,
    FP_PART_NIC,
    FP_PART_TRANSCEIVER,
    FP_PART_CABLE,      /**< copper: passive DAC, active copper (ACC), AEC, splitters */
    FP_PART_FIBRE       /**< fibre patch cord / trunk, priced by length */
} fp_part_type;

#define FP_MAX_BREAKOUTS 4
#define FP_MAX_LENGTHS 24

/** One catalog part. Fields that do not apply to the part's type are zero or "". */
typedef struct fp_part {
    char id[48];            /**< catalog id, e.g. "nvidia-qm9700" */
    fp_part_type type;
    char name[96];          /**< human name, e.g. "NVIDIA Quantum-2 QM9700" */
    char vendor[32];
    double price_usd;       /**< unit price; for fibre the fixed part of the price */
    double price_per_m_usd; /**< fibre and cables: price per metre of length */
    double power_w;         /**< typical/max power of one unit */
    double mtbf_hours;      /**< 0 when unknown */
    char source[320];       /**< where ports, price, power and MTBF come from */
    /* switches, NICs, transceivers */
    int ports;              /**< logical ports at port_gbps (switch: front-panel ports;
                                 transceiver: 1 single, 2 twin-port) */
    int port_gbps;          /**< speed of one port */
    int cages;              /**< physical cages (QM9700: 32 twin-port OSFP cages for 64 ports) */
    char cage[16];          /**< cage / form factor: "OSFP", "QSFP112", "QSFP-DD" */
    int breakouts[FP_MAX_BREAKOUTS]; /**< switch: ways one port can split (2 = 2 x port_gbps/2) */
    int ru;                 /**< rack units (switches; a NIC that is a system part: the whole
                                 server's, the layout's server_ru unless the spec gives it) */
    /* transceivers */
    double reach_m;         /**< transceivers and copper: longest supported length */
    /* optical budget (fibre parts, for the module class they serve; a transceiver may give
     * its own budget_db): 0 when not given, and then not checked */
    double atten_db_per_km; /**< fibre: cabled attenuation at the class's wavelength */
    double mated_pair_db;   /**< fibre: loss of one mated connector pair of its connector */
    double budget_db;       /**< largest channel insertion loss the module class accepts */
    char fibre[8];          /**< transceivers and fibre: "MMF" or "SMF" */
    char connector[24];     /**< "MPO-12/APC", "2xMPO-12/APC", "LC", ... */
    /* cables and fibre */
    char medium[8];         /**< cables: "DAC", "ACC", "AEC"; fibre: "OM4", "OS2" */
    int legs;               /**< cables: far-end legs (1 straight, 2 splitter) */
    int n_lengths;          /**< stock lengths sold, ascending */
    double lengths_m[FP_MAX_LENGTHS];
    /* switches and NICs */
    char interface_names[40]; /**< port-name template ("swp{port}[s{lane0}]"), "" for the
                                   default p{port}[/{lane}] (NIC: nic{nic}[-p{port}]);
                                   placeholders in docs/spec.md */
    char protocol[12];      /**< "infiniband", "ethernet" or "both" (the default): a link runs a
                                 protocol both its ends speak, on parts that speak it too */
    char leg_cage[16];      /**< cables: cage at the far end (each leg of a splitter) when it
                                 differs from `cage` ("" = the same) */
    int cpo;                /**< switches: 1 for co-packaged optics: no pluggable module, each
                                 port takes a fibre (`fibre`, `connector`, `reach_m`) straight
                                 to the module at the far end */
    int line_cards;         /**< switches: line cards of a modular chassis (0 = fixed box); a
                                 chassis serves any tier but the leaf */
    int uplink_ports;       /**< switches: a second group of ports after the `ports` ones, for
                                 the links up only (SN2201: 4 x 100G QSFP28 beside 48 x 1G
                                 RJ45); 0 = none, every port serves both sides */
    int uplink_gbps;        /**< speed of one uplink port */
    char uplink_cage[16];   /**< cage of the uplink ports ("QSFP28"); one port per cage */
    int priced;             /**< 1 when the part gave price_usd (else its cost counts as 0) */
    int powered;            /**< 1 when the part gave power_w (else its power counts as 0) */
    /* electrical host interface (switches, NICs, transceivers, copper cables): a port at
     * port_gbps runs `lanes` lanes of `lane_gbps` each (SN5600 800G: 8 x 100G; Quantum-X800
     * 800G: 4 x 200G; a transceiver or cable: its host side per port or leg). A module or cable
     * fits a port only when their lane rates are equal; 0 = not given, not checked. */
    int lanes;              /**< lanes of one port (cable: of its cage end, or of one leg) */
    int lane_gbps;          /**< rate of one lane (the SerDes class: 25, 50, 100, 200) */
    int uplink_lanes;       /**< switches with uplink ports: lanes of one uplink port */
    int uplink_lane_gbps;   /**<   and their rate */
    char lane_source[160];  /**< where the lane figures come from */
    double system_power_w;  /**< NICs that are a system part (the compute ports of a whole
                                 server, e.g. nvidia-dgx-b200-sys): the server's maximum power,
                                 the layout's server_power_w unless the spec gives it; 0 = not
                                 given */
    char mgmt_port[16];     /**< switches: the management interface's name ("eth0" on Cumulus
                                 Linux, "mgmt0" on NVIDIA's InfiniBand switches); "" for the
                                 default "mgmt0" (fp_part_mgmt_port) */
    char hub_connector[24]; /**< fibre fan-outs (legs > 1): the hub's connector when it
                                 differs from `connector`, which is then each leg's ("" = the
                                 same): "MPO-12/APC" on an MPO to 4 x LC breakout, which splits
                                 a co-packaged port (docs/spec.md) */
} fp_part;

/** The name of switch p's management interface: its catalog mgmt_port, else "mgmt0". Borrowed
 *  from p (or static). */
FP_EXPORT const char *fp_part_mgmt_port(const fp_part *p);

/** Protocol bits of a part: FP_PROTO_IB, FP_PROTO_ETH, or both. */
#define FP_PROTO_IB 1u
#define FP_PROTO_ETH 2u
/** The protocol bits of p ("both" and "" give FP_PROTO_IB | FP_PROTO_ETH). */
FP_EXPORT unsigned fp_part_protocols(const fp_part *p);

/** CONSTRUCTOR: a new catalog holding the built-in parts. *out is set on success and
 *  owned by the caller (free with fp_catalog_free). Errors: FP_ENOMEM; FP_ECATALOG if the
 *  embedded catalog is malformed (a build defect). */
FP_EXPORT fp_status fp_catalog_new(fp_catalog **out, fp_error *err);

/** Add or replace parts from the len bytes of catalog JSON text at json ({"parts": [...]}; no
 *  NUL terminator needed, a NUL byte inside is FP_EPARSE); the text is not kept. origin names
 *  the text in errors (a file name; NULL: "<catalog>"). On failure the catalog is unchanged.
 *  Part pointers borrowed earlier are invalid after a successful merge.
 *  Errors: FP_EINVAL (NULL argument), FP_EPARSE, FP_ECATALOG, FP_ENOMEM. */
FP_EXPORT fp_status fp_catalog_merge_string(fp_catalog *cat, const char *json, size_t len,
                                            const char *origin, fp_error *err);

/** Same as fp_catalog_merge_string, reading the file at path. Errors: also FP_EIO. */
FP_EXPORT fp_status fp_catalog_merge_file(fp_catalog *cat, const char *path, fp_error *err);

/** Number of parts; parts are kept sorted by (type, id). Cannot fail. */
FP_EXPORT size_t fp_catalog_count(const fp_catalog *cat);

/** Borrowed pointer to part i (0 <= i < count), valid until the catalog is changed or freed;
 *  NULL when out of range. */
FP_EXPORT const fp_part *fp_catalog_part(const fp_catalog *cat, size_t i);

/** Borrowed pointer to the part with this id, or NULL. */
FP_EXPORT const fp_part *fp_catalog_find(const fp_catalog *cat, const char *id);

/** Up to max ids of the given type closest to id (edit distance, then prefix), written to
 *  out as borrowed pointers; returns how many were written (0 when cat, id or out is NULL).
 *  For "did you mean" messages. */
FP_EXPORT size_t fp_catalog_suggest(const fp_catalog *cat, const char *id, fp_part_type type,
                                    const char **out, size_t max);

/** Static name of a part type ("switch", "nic", ...); "part" out of range. */
FP_EXPORT const char *fp_part_type_name(fp_part_type type);

/** DESTRUCTOR: free the catalog. NULL is a harmless no-op. */
FP_EXPORT void fp_catalog_free(fp_catalog *cat);

#ifdef __cplusplus
}
#endif
#endif
