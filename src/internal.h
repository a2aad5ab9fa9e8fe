/* fabplan — private declarations shared between modules (not installed). */
#ifndef FABPLAN_INTERNAL_H
#define FABPLAN_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "fabplan.h"

#define FP_MAX_TIERS 4
#define FP_MAX_PLANES 8
#define FP_MAX_NOTES 32

/* ---- errors (error.c) ---- */
#if defined(__GNUC__)
#define FP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FP_PRINTF(a, b)
#endif
/* Record the first failure in err (may be NULL) and return code. */
fp_status fp__error_set(fp_error *err, fp_status code, const char *where, const char *fmt, ...)
    FP_PRINTF(4, 5);
#define FP_FAIL(err, code, where, ...) return fp__error_set((err), (code), (where), __VA_ARGS__)

/* ---- physical spec: layout, media policy, BOM spares, cable overrides (spec_layout.c) ---- */
typedef enum fp_leaf_place { FP_LEAF_MIDDLE = 0, FP_LEAF_END, FP_LEAF_TOR } fp_leaf_place;

/* One hand override: a cable id ("C0000012") or both ends ("dev port" names) -> length, part. */
typedef struct fp_override {
    char cable[16];
    char a[64], z[64];          /* "su01-node-01 nic1" */
    double length_m;            /* < 0 when not given */
    int part;                   /* index into fp_phys_spec.parts, -1 when not given */
    char where[48];             /* JSON pointer of the entry, for errors */
} fp_override;

typedef struct fp_phys_spec {
    int rack_units;
    double rack_width_m, rack_depth_m, aisle_m;
    int servers_per_rack, server_ru;
    double server_power_w;
    int racks_per_row;
    int halls;
    double hall_gap_m;
    fp_leaf_place leaf_place;
    int max_switches_per_rack;
    double rack_power_limit_w;
    double spare_servers;       /* fraction of servers kept as placed and cabled hot spares */
    double tray_height_m;       /* from the top of a rack up to the overhead tray */
    double service_loop_m;      /* slack coiled at each end */
    double slack_pct;           /* extra length in percent of the run */
    unsigned media_allowed[FP_MAX_TIERS];   /* per boundary, bit (1 << fp_medium) */
    double spares[5];           /* per BOM category (switch, nic, transceiver, copper, fibre) */
    fp_part *parts;             /* transceivers, copper and fibre copied from the catalog */
    int n_parts;
    fp_override *ov;
    int n_ov;
} fp_phys_spec;

/* Resolve the layout, media, bom and overrides members (each may be NULL). */
struct cJSON;
/* base_dir: directory that relative file names in the spec (overrides) are read from; NULL or
 * "" for the working directory. */
fp_status fp__phys_resolve(fp_phys_spec *out, const struct cJSON *layout, const struct cJSON *media,
                           const struct cJSON *bom, const struct cJSON *overrides,
                           const char *base_dir, const fp_catalog *cat, fp_error *err);
void fp__phys_free(fp_phys_spec *ps);

/* ---- resolved spec (spec.c): nothing left "auto" ---- */
typedef struct fp_tier_spec {
    fp_part model;          /* switch part (a copy; inline switches get id "custom-...") */
    int breakout;           /* ways each physical port is split to reach the link speed */
    int radix;              /* logical ports at link speed = ports * breakout */
    int usable;             /* radix less the reserve */
    double oversub;         /* requested down:up ratio (tiers below the top) */
    int down, up;           /* ports per switch for links down and up */
} fp_tier_spec;

typedef struct fp_rspec {
    char name[128];
    int64_t gpus;
    int gpus_per_server;
    int nics_per_server;
    fp_part nic;            /* copy; inline NICs get id "custom-nic-..." */
    fp_topology topology;
    int tiers;
    int tiers_auto;         /* 1 when the spec said "auto" (or nothing) */
    int n_models;           /* switch models given (1 = one for every tier) */
    fp_tier_spec tier[FP_MAX_TIERS];   /* [0] = leaf */
    int n_oversub;          /* entries given in fabric.oversubscription */
    double oversub[FP_MAX_TIERS];
    int su_servers;
    int planes;
    double reserve;
    int link_gbps;          /* speed of every fabric link (the NIC port speed) */
    int endpoints_per_server;   /* NIC ports per server per plane = rails */
    char tier_choice[320];
    int64_t spare_servers;      /* hot spares placed and cabled after the production servers */
    fp_phys_spec phys;
} fp_rspec;

/* Parse and check values (everything but the tier count, which needs the builder). */
fp_status fp__spec_resolve(fp_rspec *out, const fp_spec *spec, const fp_catalog *cat,
                           fp_error *err);

/* ---- fabric (clos.c) ---- */
typedef struct fp_device {
    int32_t pod, zone, su, index;   /* -1 when not applicable */
    int16_t rail;                   /* -1 when not a rail leaf */
    uint8_t tier, plane;
} fp_device;

typedef struct fp_link {
    int32_t a, z;                   /* device ids: a lower, z upper */
    int32_t a_port, z_port;         /* 0-based logical ports */
    uint8_t boundary, plane;
} fp_link;

/* Shape of one plane at one tier, computed by the sizing pass. */
typedef struct fp_level {
    int64_t blocks;         /* level-t blocks per plane (tier 1: leaves) */
    int64_t positions;      /* tier-t switches per level-t block (tier 1: 1) */
    int64_t children;       /* full number of level-(t-1) blocks in a level-t block (t >= 2) */
    int64_t groups_up;      /* tier t+1 switches each group of tier-t switches connects to (n) */
    int mult_up;            /* links from a tier-t switch to each upper switch it connects to */
    int64_t switches;       /* tier-t switches per plane */
} fp_level;

typedef struct fp_fabric {
    fp_device *dev;
    int64_t n_dev;
    fp_link *link;
    int64_t n_link;
    int tiers, planes;
    int64_t servers;
    int64_t tier_base[FP_MAX_TIERS + 1];    /* first device id of each tier (0 = servers) */
    int64_t boundary_base[FP_MAX_TIERS + 1];/* first link id of each boundary; [tiers] = n_link */
    fp_level level[FP_MAX_TIERS + 1];       /* [1..tiers] */
    int64_t su_count;                       /* rail-optimized: scalable units */
    int leaves_per_su;                      /* rail-optimized: full SU */
    int servers_per_leaf;                   /* rail-optimized: servers on one rail leaf */
    int64_t ports_used[FP_MAX_TIERS + 1];   /* per tier, all planes */
    int64_t capacity_endpoints;             /* per plane */
    char notes[FP_MAX_NOTES][320];
    int n_notes;
} fp_fabric;

/* Largest number of endpoints per plane `tiers` tiers can hold with these settings (rs->tier[]
 * down/up must be set for that tier count). */
int64_t fp__clos_capacity(const fp_rspec *rs, int tiers);
/* Pick the tier count (when auto), size the tiers' down/up ports, and check it fits. */
fp_status fp__clos_size(fp_rspec *rs, fp_error *err);
/* Build devices and links. */
fp_status fp__clos_build(fp_fabric *fab, const fp_rspec *rs, fp_error *err);
void fp__fabric_free(fp_fabric *fab);

/* ---- names (names.c) ---- */
const char *fp__tier_role(int tier, int tiers);
/* Device name ("su03-leaf-r5"); returns buf. */
char *fp__device_name(char *buf, size_t n, const fp_fabric *fab, const fp_rspec *rs, int64_t dev);
/* Port name on a device ("nic3", "p17", "p17/2"); returns buf. */
char *fp__port_name(char *buf, size_t n, const fp_fabric *fab, const fp_rspec *rs, int64_t dev,
                    int port);

/* The devices at the ends of cable i (< fp_plan_cable_count) as fp_plan_cable gives them: *a the
 * A end (a breakout's hub), z[] each leg's far end; returns the number of legs. Formats no text,
 * for passes over every cable that need only where the ends are (cabling.c). */
int fp__cable_ends(const fp_plan *plan, size_t i, int64_t *a, int64_t z[FP_MAX_LEGS]);

/* ---- fast text (text.c) ---- */
/* Decimal digits of v at p (no NUL); returns how many. p needs 20 bytes. */
size_t fp__put_uint(char *p, uint64_t v);
/* As fp__put_uint, zero-padded to width digits like printf's "%0*llu". p needs max(20, width). */
size_t fp__put_uint_w(char *p, uint64_t v, int width);
/* As fp__put_uint with a leading '-' for negatives. p needs 21 bytes. */
size_t fp__put_int(char *p, int64_t v);
/* snprintf(dst, n, "%s", src) without the format parser: copies and truncates to fit; returns
 * strlen(src). */
size_t fp__copy_str(char *dst, size_t n, const char *src);

/* printf's "%.2f" of v (p needs 32 bytes); hand-written for the usual case of a non-negative
 * value already rounded to hundredths (cable routes), snprintf otherwise. Returns the length. */
size_t fp__put_fixed2(char *p, double v);
/* The last number formatted for one column, reused while the value repeats (stock lengths take
 * a handful of values over half a million rows). fmt takes one double. */
typedef struct fp_num_memo {
    double v;
    int valid;
    size_t len;
    char text[40];
} fp_num_memo;
const char *fp__memo_format(fp_num_memo *m, const char *fmt, double v, size_t *len);

/* Every device's name and location text ("H1-R05-K12-U40", "" without a layout), formatted once
 * per plan into one buffer: off[2*d] is the name of device d, off[2*d+1] its location, each
 * NUL-terminated, and off[2*n_dev] the end of the text. */
typedef struct fp_names {
    char *text;
    uint32_t *off;
    int64_t n_dev;
} fp_names;
struct fp_layout;
fp_status fp__names_build(fp_names *nm, const fp_fabric *fab, const fp_rspec *rs,
                          const struct fp_layout *lay, fp_error *err);
void fp__names_free(fp_names *nm);
static inline const char *fp__dev_name(const fp_names *nm, int64_t d)
{
    return nm->text + nm->off[2 * d];
}
static inline size_t fp__dev_name_len(const fp_names *nm, int64_t d)
{
    return nm->off[2 * d + 1] - nm->off[2 * d] - 1;
}
static inline const char *fp__dev_loc(const fp_names *nm, int64_t d)
{
    return nm->text + nm->off[2 * d + 1];
}
static inline size_t fp__dev_loc_len(const fp_names *nm, int64_t d)
{
    return nm->off[2 * d + 2] - nm->off[2 * d + 1] - 1;
}

/* Rows of a big CSV assembled here and passed to stdio a block at a time (stdio's per-call
 * locking and format parsing cost more than the bytes). fp__outbuf_flush before fclose. */
typedef struct fp_outbuf {
    FILE *f;
    size_t n;
    char buf[1 << 16];
} fp_outbuf;
void fp__outbuf_init(fp_outbuf *b, FILE *f);
/* Create path and a buffer for it, writing header (may be NULL) first. */
fp_status fp__outbuf_open(fp_outbuf **out, const char *path, const char *header, fp_error *err);
/* Flush, free and close; the result is rc when it is a failure, else the close's. */
fp_status fp__outbuf_close(fp_outbuf *ob, const char *path, fp_status rc, fp_error *err);
void fp__outbuf_flush(fp_outbuf *b);
void fp__outbuf_put(fp_outbuf *b, const char *s, size_t len);
/* s as one CSV field: quoted (and inner quotes doubled) when it holds , " or a line break. */
void fp__outbuf_csv(fp_outbuf *b, const char *s);
static inline void fp__outbuf_char(fp_outbuf *b, char c)
{
    if (b->n == sizeof b->buf)
        fp__outbuf_flush(b);
    b->buf[b->n++] = c;
}
static inline void fp__outbuf_str(fp_outbuf *b, const char *s)
{
    fp__outbuf_put(b, s, strlen(s));
}
static inline void fp__outbuf_int(fp_outbuf *b, int64_t v)
{
    char tmp[24];
    fp__outbuf_put(b, tmp, fp__put_int(tmp, v));
}

/* ---- layout (layout.c) ---- */
typedef struct fp_rack {
    int32_t hall, row, pos;         /* 1-based */
    uint8_t role;                   /* 0 compute, else the tier of its switches */
    double x, y;                    /* front-left corner on the floor, metres */
    int32_t units_used;
    int32_t devices;
    double power_w;
    int64_t cables_leaving;
} fp_rack;

typedef struct fp_layout {
    fp_rack *rack;
    int64_t n_rack;
    int32_t *dev_rack;              /* per device */
    int16_t *dev_u;                 /* per device: lowest U */
    int halls, rows;
    int64_t compute_racks, network_racks;
    double floor_w, floor_d;
} fp_layout;

fp_status fp__layout_build(fp_layout *lay, const fp_fabric *fab, const fp_rspec *rs, fp_error *err);
void fp__layout_free(fp_layout *lay);
/* "H1-R05-K12-U40" for device dev. */
void fp__location(fp_location *out, const fp_layout *lay, int64_t dev);

/* ---- cabling (cabling.c) ---- */
typedef struct fp_cable {
    int32_t first;                  /* offset into fp_cabling.cable_links */
    uint8_t n_links;
    uint8_t kind;                   /* FP_CABLE_STRAIGHT, _TWIN (one cable, two links), _SPLIT */
    uint8_t medium;
    int16_t part;                   /* index into rs.phys.parts */
    float route_m, stock_m;
} fp_cable;
enum { FP_CABLE_STRAIGHT = 0, FP_CABLE_TWIN, FP_CABLE_SPLIT };

typedef struct fp_cabling {
    fp_cable *cable;
    int64_t n_cable;
    int32_t *cable_links;           /* links of each cable, cable order */
    int32_t *link_cable;            /* per link */
    uint8_t *link_medium;           /* per link */
    float *link_route;              /* per link: route length in metres */
    int16_t *cage_mod;              /* per cage: transceiver part or -1 */
    int64_t n_cage;
    int64_t cage_base[FP_MAX_TIERS + 1];  /* first cage of each tier's devices */
    int per_cage[FP_MAX_TIERS + 1]; /* links sharing one cage, per tier (0 = NIC ports) */
    int64_t by_medium[FP_MAX_TIERS][FP_MEDIUM_COUNT];   /* links per boundary and medium */
} fp_cabling;

fp_status fp__cabling_build(fp_cabling *cab, fp_layout *lay, const fp_fabric *fab,
                            const fp_rspec *rs, fp_error *err);
void fp__cabling_free(fp_cabling *cab);
/* Cage index of (device, port). */
int64_t fp__cage_of(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs, int64_t dev,
                    int port);

/* ---- bill of materials (bom.c) ---- */
typedef struct fp_bom_row {
    fp_bom_line line;
    char desc[128];
} fp_bom_row;

typedef struct fp_bom {
    fp_bom_row *row;
    size_t n;
    fp_totals totals;
} fp_bom;

fp_status fp__bom_build(fp_bom *bom, const fp_cabling *cab, const fp_fabric *fab,
                        const fp_rspec *rs, fp_error *err);
void fp__bom_free(fp_bom *bom);

/* ---- the plan (plan.c) ---- */
struct fp_plan {
    fp_rspec rs;
    fp_fabric fab;
    fp_layout lay;
    fp_cabling cab;
    fp_bom bom;
    fp_names names;             /* device names and locations, formatted once (text.c) */
    struct fp_analysis *an;     /* metrics and failure what-if (metrics.c, failure.c) */
};
struct fp_analysis;
fp_status fp__analysis_run(fp_plan *plan, fp_error *err);
void fp__analysis_free(struct fp_analysis *an);

/* ---- writers ---- */
fp_status fp__write_json(const fp_plan *plan, const char *path, fp_error *err);
fp_status fp__write_links_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                              fp_error *err);
fp_status fp__write_cables_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);
fp_status fp__write_bom_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                            fp_error *err);
/* Add layout, media_by_boundary, bom and totals to plan.json's root object. */
struct cJSON;
void fp__json_add_physical(struct cJSON *root, const fp_plan *plan);
/* "nic-leaf", "leaf-spine", ... */
const char *fp__boundary_name(int boundary, int tiers, char *buf, size_t n);
/* The installer workbook (write_xlsx.c). */
fp_status fp__write_xlsx(const fp_plan *plan, const char *path, const fp_write_options *o,
                         fp_error *err);
/* One workbook per row or hall (o->split_by) in the directory dir (created). */
fp_status fp__write_xlsx_split(const fp_plan *plan, const char *dir, const fp_write_options *o,
                               fp_error *err);
/* As fp__write_xlsx with at most max_rows data rows per sheet before "Cables (2)" etc. begin
 * (Excel's limit is FP_XLSX_MAX_DATA_ROWS; tests lower it to check the continuation). */
#define FP_XLSX_MAX_DATA_ROWS 1048575
fp_status fp__write_xlsx_rows(const fp_plan *plan, const char *path, const fp_write_options *o,
                              int64_t max_rows, fp_error *err);
/* Exports other tools import (write_exports.c). */
fp_status fp__write_labels_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);
fp_status fp__write_netbox_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);
fp_status fp__write_topology_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err);

/* Diagrams (write_dot.c, the only Graphviz user). Each writer picks the format from the file
 * name it is given: ".dot" writes the Graphviz source, ".svg"/".png" lay out and render. */
fp_status fp__write_overview(const fp_plan *plan, const char *path, const fp_write_options *o,
                             fp_error *err);
fp_status fp__write_detail(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err);
fp_status fp__write_floor(const fp_plan *plan, const char *path, const fp_write_options *o,
                          fp_error *err);
/* Check o->detail against the plan (FP_EINVAL naming the selector and the valid range). */
fp_status fp__detail_check(const fp_plan *plan, const fp_write_options *o, fp_error *err);
/* "su-3.<ext>" / "pod-2.<ext>" for the selected unit; 0 when the plan has no unit to draw. */
int fp__detail_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                         char *buf, size_t n);

/* ---- test-only fault injection (fault.c) ---- */
typedef enum fp_fault_kind {
    FP_FAULT_OPEN, FP_FAULT_WRITE, FP_FAULT_FSYNC, FP_FAULT_RENAME, FP_FAULT_ALLOC
} fp_fault_kind;
/* 1 (errno set: EIO, ENOSPC for writes, ENOMEM for allocations) when this failure point is the
 * one armed; every open, write, fsync, rename and allocation on the writing path asks. */
int fp__fault(fp_fault_kind kind);
/* Make the n-th point from now fail (0 disarms) and restart the count. */
void fp__fault_arm(long n);
/* Points passed since the last fp__fault_arm. */
long fp__fault_points(void);

/* ---- small utilities (util.c) ---- */
fp_status fp__read_file(const char *path, char **out, size_t *len, fp_error *err);
/* CSV field quoting per RFC 4180 when needed. */
void fp__csv_field(FILE *f, const char *s);
/* Close a file that was written; FP_EIO naming path and the reason when any write or the close
 * failed. */
fp_status fp__close_written(FILE *f, const char *path, fp_error *err);
/* Create path for writing: a new file only (O_EXCL), never through a symlink (O_NOFOLLOW).
 * NULL with FP_EIO naming the reason. */
FILE *fp__create(const char *path, fp_error *err);
/* malloc that a fault-injection run can make fail (the writers' allocations). */
void *fp__malloc(size_t n);

#endif
