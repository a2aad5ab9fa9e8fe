/* fabplan — private to src/verify/: the verify stage's data (verify.c reads the plan folder and
 * classifies, verify_ibnet.c reads ibnetdiscover's files, verify_out.c writes the results). The
 * stage comes after the writers: it reads a plan folder's files, never a plan in memory, and
 * never changes a plan. */
#ifndef FP_PRIVATE_VERIFY_VERIFY_H
#define FP_PRIVATE_VERIFY_VERIFY_H

#include "fabric/fabric.h"
#include "fabplan/verify.h"

/* A table of (text, text) keys to an index, open addressing; the keys are borrowed. One slot
 * is one cache line's quarter: the hash is compared before the texts. */
typedef struct fp_vf_slot {
    const char *a, *b;
    uint64_t h;
    int64_t val;                /* -1: empty */
} fp_vf_slot;
typedef struct fp_vf_map {
    fp_vf_slot *slot;
    int64_t cap, n;
} fp_vf_map;
fp_status fp__vf_map_init(fp_vf_map *m, int64_t expect);
/* Insert (a, b) -> v unless present; returns the index stored under the key (v when new), -2
 * when out of memory. */
int64_t fp__vf_map_put(fp_vf_map *m, const char *a, const char *b, int64_t v);
int64_t fp__vf_map_get(const fp_vf_map *m, const char *a, const char *b);
void fp__vf_map_free(fp_vf_map *m);

/* Grow the array *p of *cap elements of size bytes to hold need (doubling, from 1024); *p is
 * kept on failure (FP_ENOMEM). */
fp_status fp__vf_grow(void **p, int64_t *cap, int64_t need, size_t size);

/* One end as a plan row gives it: hall, row, rack, U (text as in cables.csv), device, port. */
typedef struct fp_vf_end {
    const char *loc[4];
    const char *device, *port;
} fp_vf_end;

/* A planned link: one per link of a cables.csv row (a twin-port or splitter cable has several,
 * each with the cable's id). */
typedef struct fp_vf_plink {
    const char *cable, *label_a, *label_z;
    fp_vf_end a, z;
    int gbps;
    int width;                  /* planned lanes (ib-ports.csv's link), 0 unknown */
    int later;                  /* of a later growth phase (phase_dir lacks its A end) */
    const char *boundary;       /* links.csv's boundary, "" when unknown */
    const char *network;        /* cables.csv's network ("compute" without the column) */
    int proto;                  /* VF_IB, VF_ETH, or VF_ANY (cables.csv without protocol) */
    int scope;                  /* VF_CHECKED, or why this discovery does not check it */
} fp_vf_plink;
enum { VF_ANY, VF_IB, VF_ETH };
enum { VF_CHECKED, VF_OTHER_PROTOCOL, VF_OTHER_NETWORK };

/* One node of the discovery. */
typedef struct fp_vf_node {
    const char *id;             /* "S-<guid>", "H-<guid>" (topology form) or "0x<guid>" */
    uint64_t guid;
    const char *desc;           /* node description, or the node-name map's name */
    int is_switch;
} fp_vf_node;

/* A discovered link (each once), ends as the discovery gives them. */
typedef struct fp_vf_dlink {
    int64_t node[2];
    int port[2];
    int width, mbps;            /* 0: not given */
    char rate[16];              /* as the file gives it: "4xNDR" ("" when not given) */
    int line;                   /* where it was first read */
    /* the ends as the plan names them: device NULL when the node is not the plan's */
    const char *device[2];
    const char *pname[2];       /* the plan's port name, else "mlx5_3" or "port 61" */
    char ptext[2][16];          /* the "port 61" text */
    int lldp;                   /* read from LLDP: device and pname set by the reader */
    int seen;                   /* LLDP: 1, 2 or 3: which ends reported the link */
    const char *note;           /* LLDP: how a port was named, ends that disagree (NULL) */
} fp_vf_dlink;

typedef struct fp_vf_disc {
    char *text, *map_text;
    fp_vf_node *node;
    int64_t n_node, cap_node;
    fp_vf_dlink *link;
    int64_t n_link, cap_link;
    int ports_form;             /* read from ibnetdiscover -p */
    int has_ib, has_lldp;       /* which discoveries were read */
    int64_t n_ib_node;          /* the first nodes, ibnetdiscover's (the -p form's ids owned) */
    int64_t n_disagree;         /* LLDP sightings that contradict an earlier one */
    char **pool;                /* LLDP: blocks of the names kept (never moved) */
    int64_t n_pool, cap_pool;
    size_t pool_used;           /* in the last block */
} fp_vf_disc;

/* Read ibnetdiscover's output at path (either form) into d; names from the node-name map at
 * map_path (NULL: none). FP_EPARSE naming path and line when the file is not what it claims. */
fp_status fp__vf_read_ibnet(fp_vf_disc *d, const char *path, const char *map_path, fp_error *err);
void fp__vf_disc_free(fp_vf_disc *d);

/* Read lldpd's JSON (lldpcli -f json or -f json0, show neighbors [details], optionally after
 * show chassis) at path, a file or a folder of <device>.json files, adding its links to v->disc
 * with the ends named as the plan names them: devices by system name, ports by port id, else
 * by port description (planned_ends: the plan's (device, port) -> end, dev_loc its devices).
 * Each link once; a sighting that contradicts an earlier one is noted on it. FP_EPARSE naming
 * the file and line when a file is not lldpcli's JSON. */
fp_status fp__vf_read_lldp(fp_verify *v, const char *path, const fp_vf_map *planned_ends,
                           fp_error *err);

/* One output row. */
typedef struct fp_vf_row {
    fp_verify_status status;
    int64_t plink;              /* -1: a discovered link the plan lacks */
    int64_t dlink;              /* -1: nothing seen */
    int64_t peer;               /* swapped: the other planned link */
    int flip;                   /* the discovered link's end 1 is the planned A side */
} fp_vf_row;

struct fp_verify {
    char *text[4];              /* the plan files' text (fields point into them) */
    fp_vf_plink *plink;
    int64_t n_plink;
    fp_vf_disc disc;
    fp_vf_row *row;
    int64_t n_row;
    size_t count[FP_VERIFY_N_STATUS];
    int ignore_speed;
    char discovery[1024];
    char plan_dir[1024];
    fp_vf_map dev_loc;          /* device -> 2 x a planned link with an end on it + that end */
    int64_t not_checked[3];     /* planned links not checked, by scope (VF_OTHER_*) */
    int64_t not_checked_found;  /* discovered links left out with them */
    char networks[512];         /* the networks asked for, ", "-joined ("" for every one) */
};

/* Write verify.csv / verify-summary.json at path (verify_out.c), verify.xlsx (verify_xlsx.c). */
fp_status fp__vf_write_csv(const fp_verify *v, const char *path, fp_error *err);
fp_status fp__vf_write_summary(const fp_verify *v, const char *path, fp_error *err);
fp_status fp__vf_write_xlsx(const fp_verify *v, const char *path, fp_error *err);

/* Row r's fix for the crew (empty when ok or not yet due), into buf (verify_out.c). */
void fp__vf_fix_text(char *buf, size_t n, const fp_verify *v, const fp_vf_row *r);
/* Where the crew works on row r: the planned end to put right (a missing or slow link's A
 * end), or for a link the plan lacks its end on a device of the plan (location "" when
 * neither is). */
void fp__vf_work_end(const fp_verify *v, const fp_vf_row *r, fp_vf_end *out);

#endif
