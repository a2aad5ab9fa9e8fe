/* fabplan — private declarations shared between modules (not installed). */
#ifndef FABPLAN_INTERNAL_H
#define FABPLAN_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
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

/* ---- the plan (plan.c) ---- */
struct fp_plan {
    fp_rspec rs;
    fp_fabric fab;
};

/* ---- writers ---- */
fp_status fp__write_json(const fp_plan *plan, const char *path, fp_error *err);
fp_status fp__write_links_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                              fp_error *err);

/* ---- small utilities (util.c) ---- */
fp_status fp__read_file(const char *path, char **out, size_t *len, fp_error *err);
/* CSV field quoting per RFC 4180 when needed. */
void fp__csv_field(FILE *f, const char *s);

#endif
