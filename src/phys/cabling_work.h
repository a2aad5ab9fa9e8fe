/* fabplan — private to the cabling files of the phys stage (media.c chooses media, cabling.c
 * builds cables): the state of one cabling pass and the cage arithmetic both use.
 *
 * A cage is one physical port on a device: a NIC port, or a switch cage that may carry several
 * logical ports (QM9700: two 400G ports per twin-port OSFP cage). Links that share a cage must
 * share its part, so the unit of decision is a connected set of cages and the links between
 * them (union-find, cabling.c). */
#ifndef FP_PRIVATE_PHYS_CABLING_WORK_H
#define FP_PRIVATE_PHYS_CABLING_WORK_H

#include "phys/phys.h"

/* How a link is cabled, decided per set of cages by fp__media_decide. */
enum link_role {
    LINK_UNDECIDED = 0,
    LINK_OWN_CABLE,         /* a cable (or fibre) of its own */
    LINK_SHARED_FIRST,      /* the first link of a copper cable that serves its whole set
                               (a twin cable, or a splitter even with one leg in use) */
    LINK_SHARED_LEG,        /* another link of such a cable */
};

typedef struct fp_comp_cage {
    int64_t cage, dev;
    int k;          /* links the cage carries */
    int n;          /* links of this set in the cage */
    double need;    /* longest stock length among its links */
    int16_t mod;
} fp_comp_cage;

/* What the media choice compares of one catalog part, worked out once per cabling pass
 * (fp__media_prepare): the strings it matches become small ids (equal strings, equal ids), so
 * choosing the media of a set of cages compares integers. */
typedef struct fp_part_key {
    int8_t copper;          /* a cable's FP_MEDIUM_DAC/ACC/AEC/TP, else -1 */
    int8_t optic;           /* a transceiver's optic class (0 SR, 1 DR, 2 FR), else -1 */
    uint8_t proto;          /* proto_ok */
    int16_t cage, far;      /* ids: cage; a cable's far end or legs (leg_cage, else cage) */
    int16_t conn, lane;     /* ids: connector; the connector of one lane (lane_connector) */
    int16_t hub;            /* id: a fan-out's hub connector (hub_connector, else connector) */
    int16_t fibre;          /* id of the fibre type ("MMF", "SMF") */
    int32_t legs, ports;    /* copies of the part's fields the loops read, kept together */
    int32_t gbps;           /*   (port_gbps) */
    int32_t lane_gbps;      /*   (lane_gbps) */
    double reach;           /*   (reach_m) */
} fp_part_key;

typedef struct fp_cabling_ctx {
    fp_cabling *cab;
    const fp_layout *lay;
    const fp_fabric *fab;
    const fp_rspec *rs;
    const fp_phys_spec *ps;
    int16_t *link_part;
    float *link_stock;
    int32_t *ov_of;         /* per link: index into ps->ov, -1 when none; NULL without overrides */
    uint8_t *link_role;     /* per link: how it is cabled (link_role), set by fp__media_decide */
    int32_t *link_next;     /* per link: the next link of its fan-out fibre cord, -1 at the
                               last or when the cord is not a fan-out (copper cables take
                               their whole set of cages instead) */
    fp_comp_cage *cg;
    size_t cg_cap;
    double *stock;          /* per link of the set */
    double *route;          /* per link of the set */
    int64_t *ckey;          /* share_cords: per link of the set, its two ends' connector keys */
    int *cper;              /*   and links per connector (connector_of) */
    size_t stock_cap;
    int budget_cut;         /* try_optics: a module reached but its loss budget did not */
    /* fp__media_prepare: */
    fp_part_key *pk;        /* per part of ps->parts */
    int16_t *list;          /* storage of the part lists below */
    const int16_t *cables;  /* copper cables that speak a protocol of the fabric, in catalog order */
    const int16_t *cords;   /* fibre parts of one leg, in catalog order */
    int n_cords;
    const int16_t *mods[3]; /* per optic class: such transceivers, in catalog order */
    const int16_t *lanes[3];/* per optic class: those that bring a new lane connector */
    int n_cables, n_mods[3], n_lanes[3];
    int16_t mmf, smf;                   /* ids of "MMF" and "SMF" */
    int16_t dev_cage[FP_MAX_TIERS + 1]; /* per tier (0 = NICs): id of its cage type, -1 untyped */
    int16_t up_cage[FP_MAX_TIERS + 1];  /* per switch tier with uplink ports: their cage type */
    int32_t dev_lane[FP_MAX_TIERS + 1]; /* per tier: lane rate of its ports (0 not given) */
    int32_t up_lane[FP_MAX_TIERS + 1];  /*   and of its uplink ports */
    double min_mod[3];                  /* per optic class: the cheapest module's price */
    int8_t cpo_optic[FP_MAX_TIERS + 1]; /* per switch tier with co-packaged optics: their class */
    int16_t cpo_conn[FP_MAX_TIERS + 1]; /*   and the id of their connector */
} fp_cabling_ctx;

/* ---- cages ---- */

/* A switch's cages: its front cages, then one per uplink port (SN2201: 48 RJ45 + 4 QSFP28). */
static inline int cages_per_switch(const fp_tier_spec *ts)
{
    return (ts->model.cages > 0 ? ts->model.cages : ts->model.ports) + ts->model.uplink_ports;
}

/* Cage (0-based, within its switch) of physical port phys: uplink ports have one cage each,
 * after the front cages. */
static inline int switch_cage(const fp_tier_spec *ts, int phys)
{
    if (phys >= ts->model.ports)
        return (ts->model.cages > 0 ? ts->model.cages : ts->model.ports) + phys - ts->model.ports;
    return phys / ts->per_cage;
}

static inline int nic_cages(const fp_rspec *rs)
{
    return rs->nic.cages > 0 ? rs->nic.cages : rs->nic.ports;
}

static inline int64_t cage_of(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs,
                       int64_t dev, int port)
{
    int t = fab->dev[dev].tier, lane, ways;
    if (t == 0)
        return dev * rs->nics_per_server * nic_cages(rs) + port / rs->nic_per_cage;
    const fp_tier_spec *ts = &rs->tier[t - 1];
    return cab->cage_base[t] + (dev - fab->tier_base[t]) * cages_per_switch(ts) +
           switch_cage(ts, fp__switch_phys(fab, rs, t - 1, port, &lane, &ways));
}

/* Links the cage of (dev, port) carries when full: NIC ports per NIC cage, or a switch's
 * physical ports per cage times the split of this port's side (400G down and 800G up on one
 * SN5600 are 2 and 1). */
static inline int cage_links(const fp_fabric *fab, const fp_rspec *rs, int64_t dev, int port)
{
    int t = fab->dev[dev].tier, lane, ways;
    if (t == 0)
        return rs->nic_per_cage;
    if (fp__switch_phys(fab, rs, t - 1, port, &lane, &ways) >= rs->tier[t - 1].model.ports)
        return ways;                    /* an uplink port: a cage of its own */
    return rs->tier[t - 1].per_cage * ways;
}

/* The switch part of dev when it has co-packaged optics (no module: fibre straight to the
 * far end's module), else NULL. */
static inline const fp_part *cpo_of(const fp_fabric *fab, const fp_rspec *rs, int64_t dev)
{
    int t = fab->dev[dev].tier;
    return t > 0 && rs->tier[t - 1].model.cpo ? &rs->tier[t - 1].model : NULL;
}

/* Whether a part may carry this fabric's traffic: it speaks a protocol every device speaks. */
static inline int proto_ok(const fp_rspec *rs, const fp_part *p)
{
    return (fp_part_protocols(p) & rs->protocols) != 0;
}

/* Cage form factor of dev's ports on one side: up = 1 for its links up (the lower end `a` of a
 * link), which on a switch with uplink ports are those ports' cages. */
static inline const char *cage_type(const fp_fabric *fab, const fp_rspec *rs, int64_t dev, int up)
{
    int t = fab->dev[dev].tier;
    if (t == 0)
        return rs->nic.cage;
    const fp_part *m = &rs->tier[t - 1].model;
    return up && m->uplink_ports > 0 ? m->uplink_cage : m->cage;
}

/* Lane rate of dev's ports on one side (as cage_type): its part's lane_gbps, or on a switch
 * with uplink ports its uplink_lane_gbps for the links up; 0 when the part gives none. */
static inline int port_lane_gbps(const fp_fabric *fab, const fp_rspec *rs, int64_t dev, int up)
{
    int t = fab->dev[dev].tier;
    if (t == 0)
        return rs->nic.lane_gbps;
    const fp_part *m = &rs->tier[t - 1].model;
    return up && m->uplink_ports > 0 ? m->uplink_lane_gbps : m->lane_gbps;
}

/* Whether a module's or cable's lane rate fits a port's: equal, or either not given (0). The
 * host interface must match: a 200G-lane module in a 100G-SerDes port (SN5600) does not run. */
static inline int lane_fits(int part_lane_gbps, int port_lane_gbps)
{
    return part_lane_gbps == 0 || port_lane_gbps == 0 || part_lane_gbps == port_lane_gbps;
}

/* cage_type for messages: "untyped" when the part names no cage form factor. */
static inline const char *cage_word(const fp_fabric *fab, const fp_rspec *rs, int64_t dev, int up)
{
    const char *t = cage_type(fab, rs, dev, up);
    return t[0] ? t : "untyped";
}

/* "a" or "an" before a cage word ("an OSFP", "a QSFP112", "an untyped"). */
static inline const char *article(const char *word)
{
    return word[0] && strchr("AEIOUaeiou", word[0]) ? "an" : "a";
}

static inline int cage_fits(const char *part_cage, const char *port_cage)
{
    return port_cage[0] == '\0' || strcmp(part_cage, port_cage) == 0;
}
/* Whether a part's cage id fits a port's (-1: an untyped port takes any part), as cage_fits. */
static inline int cage_id_fits(int16_t part_cage, int16_t port_cage)
{
    return port_cage < 0 || part_cage == port_cage;
}

/* ---- parts ---- */

/* Smallest stock length >= need, or -1 (reach 0 means the longest stock length). */
static inline double stock_for(const fp_part *p, double need)
{
    for (int i = 0; i < p->n_lengths; i++)
        if (p->lengths_m[i] + 1e-9 >= need) {
            if (p->reach_m > 0 && p->lengths_m[i] > p->reach_m + 1e-9)
                return -1;
            return p->lengths_m[i];
        }
    return -1;
}

static inline double part_cost(const fp_part *p, double len)
{
    return p->price_usd + p->price_per_m_usd * len;
}

static inline int copper_medium(const fp_part *p)
{
    if (strcmp(p->medium, "DAC") == 0)
        return FP_MEDIUM_DAC;
    if (strcmp(p->medium, "ACC") == 0)
        return FP_MEDIUM_ACC;
    if (strcmp(p->medium, "AEC") == 0)
        return FP_MEDIUM_AEC;
    if (strcmp(p->medium, "TP") == 0)
        return FP_MEDIUM_TP;
    return -1;
}

/* Optical classes: 0 SR (multimode), 1 DR (single-mode MPO), 2 FR (single-mode LC). */
static inline int optic_class(const fp_part *p)
{
    if (strcmp(p->fibre, "MMF") == 0)
        return 0;
    if (strcmp(p->fibre, "SMF") == 0)
        return fp__part_connector(p) == FP_CONNECTOR_LC ? 2 : 1;
    return -1;
}

/* Connector of one lane: "2xMPO-12/APC" -> "MPO-12/APC". */
static inline const char *lane_connector(const fp_part *p)
{
    const char *c = p->connector;
    if (c[0] >= '2' && c[0] <= '9' && c[1] == 'x')
        return c + 2;
    return c;
}

/* One set of links that share cages, as fp__media_decide reads it (media.c). */
typedef struct fp_media_set {
    size_t ncg;                 /* cages in c->cg */
    double route_max;           /* longest route of the set */
    int64_t worst;              /* the link with that route */
    double cu_route;            /* a copper cable's length: a hand length, else route_max */
    unsigned allowed;           /* media allowed, bit (1 << fp_medium) */
    int forced;                 /* part a hand override forces, -1 */
    const fp_override *forced_by, *length_by;   /* the overrides giving a part, a length */
} fp_media_set;

/* Work out c->pk and the part lists from c->ps and c->rs; call once before fp__media_decide.
 * FP_ENOMEM when out of memory. */
fp_status fp__media_prepare(fp_cabling_ctx *c, fp_error *err);
/* Choose the medium and parts for one set of links that share cages (links[0..n)): sets
 * cab->link_medium, cab->link_route (copper: the cable's length), cab->cage_mod, and per link
 * c->link_part, c->link_stock and c->link_role. FP_EDESIGN (or FP_EINVAL for conflicting
 * overrides) when nothing allowed fits, naming the link and why. */
fp_status fp__media_decide(fp_cabling_ctx *c, const int32_t *links, size_t n, fp_error *err);
/* Links of the set (links[0..n), cages c->cg[0..ncg)) on fibre part `straight` whose modules
 * share a lane connector share one cord, as built (media_cords.c): sets c->link_part,
 * c->link_stock, c->link_role and c->link_next of each group. */
void fp__media_share_cords(fp_cabling_ctx *c, const int32_t *links, size_t n, size_t ncg,
                           int straight);
/* The error for a set nothing allowed serves (media_fail.c): FP_EDESIGN naming the link, its
 * cages, what the catalog lacks or the longest reach available. Always fails. */
fp_status fp__media_fail(const fp_cabling_ctx *c, size_t n, const fp_media_set *s, fp_error *err);
/* Release the scratch arrays fp__media_decide grows. */
void fp__media_scratch_free(fp_cabling_ctx *c);

#endif
