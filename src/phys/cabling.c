/* fabplan — cable routes, lengths, media, transceivers, cable ids and labels.
 *
 * A cage is one physical port on a device: a NIC port, or a switch cage that may carry several
 * logical ports (QM9700: two 400G ports per twin-port OSFP cage). Links that share a cage must
 * share its part (one twin-port module, or one copper cable), so the unit of decision is a
 * connected set of cages and the links between them (union-find). For each set we try, in
 * order, passive DAC, active copper (ACC), AEC — only for shapes one copper cable can serve:
 * a straight cable between two cages, or a splitter from one hub cage to single-port cages —
 * then optics: SR on multimode, DR then FR on single-mode. Each link keeps its own fibre; each
 * cage gets one module (a twin-port module counts once for its two links). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define U_M 0.04445     /* one rack unit in metres */

static const char *const medium_names[] = { "DAC", "ACC", "AEC", "MMF", "SMF" };

const char *fp_medium_name(fp_medium m)
{
    return (unsigned)m < FP_MEDIUM_COUNT ? medium_names[m] : "unknown";
}

const char *fp__boundary_name(int b, int tiers, char *buf, size_t n)
{
    snprintf(buf, n, "%s-%s", b == 0 ? "nic" : fp__tier_role(b, tiers), fp__tier_role(b + 1, tiers));
    return buf;
}

/* ---- cages ---- */

static int cages_per_switch(const fp_tier_spec *ts)
{
    return ts->model.cages > 0 ? ts->model.cages : ts->model.ports;
}

static int64_t cage_of(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs,
                       int64_t dev, int port)
{
    int t = fab->dev[dev].tier;
    if (t == 0)
        return dev * rs->nics_per_server * rs->nic.ports + port;
    return cab->cage_base[t] + (dev - fab->tier_base[t]) * cages_per_switch(&rs->tier[t - 1]) +
           port / cab->per_cage[t];
}

int64_t fp__cage_of(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs, int64_t dev,
                    int port)
{
    return cage_of(cab, fab, rs, dev, port);
}

static int64_t cage_device(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs,
                           int64_t cage)
{
    int t = fab->tiers;
    while (t > 0 && cage < cab->cage_base[t])
        t--;
    if (t == 0)
        return cage / (rs->nics_per_server * rs->nic.ports);
    return fab->tier_base[t] + (cage - cab->cage_base[t]) / cages_per_switch(&rs->tier[t - 1]);
}

static const char *cage_type(const fp_fabric *fab, const fp_rspec *rs, int64_t dev)
{
    int t = fab->dev[dev].tier;
    return t == 0 ? rs->nic.cage : rs->tier[t - 1].model.cage;
}

/* cage_type for messages: "untyped" when the part names no cage form factor. */
static const char *cage_word(const fp_fabric *fab, const fp_rspec *rs, int64_t dev)
{
    const char *t = cage_type(fab, rs, dev);
    return t[0] ? t : "untyped";
}

/* "a" or "an" before a cage word ("an OSFP", "a QSFP112", "an untyped"). */
static const char *article(const char *word)
{
    return strchr("AEIOUaeiou", word[0]) && word[0] ? "an" : "a";
}

static int cage_fits(const char *part_cage, const char *port_cage)
{
    return port_cage[0] == '\0' || strcmp(part_cage, port_cage) == 0;
}

/* ---- union-find over cages ---- */

static int32_t uf_find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_join(int32_t *parent, int32_t a, int32_t b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a != b) {
        if (a < b)
            parent[b] = a;
        else
            parent[a] = b;
    }
}

/* ---- routes ---- */

static double route_length(const fp_layout *lay, const fp_phys_spec *ps, int64_t a, int64_t z)
{
    const fp_rack *ra = &lay->rack[lay->dev_rack[a]], *rz = &lay->rack[lay->dev_rack[z]];
    int ua = lay->dev_u[a], uz = lay->dev_u[z];
    double run;
    if (ra == rz) {
        run = abs(ua - uz) * U_M;
    } else {
        double va = (ps->rack_units - ua + 1) * U_M + ps->tray_height_m;
        double vz = (ps->rack_units - uz + 1) * U_M + ps->tray_height_m;
        run = va + vz + fabs(ra->x - rz->x) + fabs(ra->y - rz->y);
    }
    return run * (1.0 + ps->slack_pct / 100.0) + 2.0 * ps->service_loop_m;
}

/* Smallest stock length >= need, or -1 (reach 0 means the longest stock length). */
static double stock_for(const fp_part *p, double need)
{
    for (int i = 0; i < p->n_lengths; i++)
        if (p->lengths_m[i] + 1e-9 >= need) {
            if (p->reach_m > 0 && p->lengths_m[i] > p->reach_m + 1e-9)
                return -1;
            return p->lengths_m[i];
        }
    return -1;
}

static double part_cost(const fp_part *p, double len)
{
    return p->price_usd + p->price_per_m_usd * len;
}

static int copper_medium(const fp_part *p)
{
    if (strcmp(p->medium, "DAC") == 0)
        return FP_MEDIUM_DAC;
    if (strcmp(p->medium, "ACC") == 0)
        return FP_MEDIUM_ACC;
    if (strcmp(p->medium, "AEC") == 0)
        return FP_MEDIUM_AEC;
    return -1;
}

/* Optical classes: 0 SR (multimode), 1 DR (single-mode MPO), 2 FR (single-mode LC). */
static int optic_class(const fp_part *p)
{
    if (strcmp(p->fibre, "MMF") == 0)
        return 0;
    if (strcmp(p->fibre, "SMF") == 0)
        return strstr(p->connector, "LC") ? 2 : 1;
    return -1;
}

/* Connector of one lane: "2xMPO-12/APC" -> "MPO-12/APC". */
static const char *lane_connector(const fp_part *p)
{
    const char *c = p->connector;
    if (c[0] >= '2' && c[0] <= '9' && c[1] == 'x')
        return c + 2;
    return c;
}

/* ---- the decision for one set of cages ---- */

typedef struct comp_cage {
    int64_t cage, dev;
    int k;          /* links the cage carries */
    int n;          /* links of this set in the cage */
    double need;    /* longest stock length among its links */
    int16_t mod;
} comp_cage;

typedef struct ctx {
    fp_cabling *cab;
    const fp_layout *lay;
    const fp_fabric *fab;
    const fp_rspec *rs;
    const fp_phys_spec *ps;
    int16_t *link_part;
    float *link_stock;
    int32_t *ov_of;         /* per link: index into ps->ov, -1 when none; NULL without overrides */
    comp_cage *cg;
    size_t cg_cap;
    double *stock;          /* per link of the set */
    double *route;          /* per link of the set */
    size_t stock_cap;
} ctx;

static fp_status grow(ctx *c, size_t n_links, fp_error *err)
{
    if (n_links * 2 > c->cg_cap) {
        free(c->cg);
        c->cg_cap = n_links * 2 + 16;
        c->cg = malloc(c->cg_cap * sizeof *c->cg);
    }
    if (n_links > c->stock_cap) {
        free(c->stock);
        free(c->route);
        c->stock_cap = n_links + 16;
        c->stock = malloc(c->stock_cap * sizeof *c->stock);
        c->route = malloc(c->stock_cap * sizeof *c->route);
    }
    if (c->cg == NULL || c->stock == NULL || c->route == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory choosing media");
    return FP_OK;
}

static int add_cage(ctx *c, size_t *n, int64_t cage, int64_t dev, int k)
{
    for (size_t i = 0; i < *n; i++)
        if (c->cg[i].cage == cage) {
            c->cg[i].n++;
            return (int)i;
        }
    comp_cage *g = &c->cg[(*n)++];
    memset(g, 0, sizeof *g);
    g->cage = cage;
    g->dev = dev;
    g->k = k;
    g->n = 1;
    g->mod = -1;
    return (int)(*n - 1);
}

static unsigned allowed_for(const ctx *c, const int32_t *links, size_t n)
{
    unsigned m = (1u << FP_MEDIUM_COUNT) - 1;
    for (size_t i = 0; i < n; i++)
        m &= c->ps->media_allowed[c->fab->link[links[i]].boundary];
    return m;
}

/* Try one copper cable for the whole set. Returns the part or -1; *stock set. */
static int try_copper(const ctx *c, const int32_t *links, size_t n, const comp_cage *cg,
                      size_t ncg, double route, int medium, int forced, double *stock, int *kind)
{
    const fp_rspec *rs = c->rs;
    int legs, gbps, best = -1;
    double best_cost = 0, best_stock = 0;
    if (ncg == 2 && cg[0].k == cg[1].k && (int)n <= cg[0].k) {
        legs = 1;
        gbps = rs->link_gbps * cg[0].k;
        *kind = n > 1 ? FP_CABLE_TWIN : FP_CABLE_STRAIGHT;
    } else if (ncg == n + 1 && n <= FP_MAX_LEGS) {
        /* A splitter: one hub cage holding every link, each far end a single-port cage. */
        size_t hubs = 0, singles = 0, hub = 0;
        for (size_t i = 0; i < ncg; i++) {
            if (cg[i].n == (int)n && cg[i].k >= (int)n && cg[i].k > 1) {
                hubs++;
                hub = i;
            } else if (cg[i].k == 1) {
                singles++;
            }
        }
        if (hubs != 1 || singles != n)
            return -1;
        legs = cg[hub].k;
        gbps = rs->link_gbps;
        *kind = FP_CABLE_SPLIT;
    } else {
        return -1;
    }
    (void)links;
    for (int i = 0; i < c->ps->n_parts; i++) {
        const fp_part *p = &c->ps->parts[i];
        if (p->type != FP_PART_CABLE || (forced >= 0 && i != forced))
            continue;
        if (copper_medium(p) != medium || p->legs != legs || p->port_gbps != gbps)
            continue;
        int fits = 1;
        for (size_t k = 0; k < ncg; k++)
            if (!cage_fits(p->cage, cage_type(c->fab, rs, cg[k].dev)))
                fits = 0;
        double s = stock_for(p, route);
        if (!fits || s < 0)
            continue;
        double cost = part_cost(p, s);
        if (best < 0 || cost < best_cost - 1e-9) {
            best = i;
            best_cost = cost;
            best_stock = s;
        }
    }
    *stock = best_stock;
    return best;
}

/* Try optics of one class on every link of the set; fills cg[].mod and c->stock. Returns the
 * fibre part or -1. */
static int try_optics(ctx *c, const int32_t *links, size_t n, comp_cage *cg, size_t ncg,
                      const double *route, int cls, int forced)
{
    const fp_rspec *rs = c->rs;
    const fp_phys_spec *ps = c->ps;
    const char *fibre = cls == 0 ? "MMF" : "SMF";
    for (int ci = 0; ci < ps->n_parts; ci++) {
        /* Each distinct lane connector of this class's modules, in catalog order. */
        const fp_part *cm = &ps->parts[ci];
        if (cm->type != FP_PART_TRANSCEIVER || optic_class(cm) != cls)
            continue;
        const char *conn = lane_connector(cm);
        int seen = 0;
        for (int j = 0; j < ci; j++)
            if (ps->parts[j].type == FP_PART_TRANSCEIVER && optic_class(&ps->parts[j]) == cls &&
                strcmp(lane_connector(&ps->parts[j]), conn) == 0)
                seen = 1;
        if (seen)
            continue;
        int fp_i = -1;
        for (int j = 0; j < ps->n_parts; j++) {
            const fp_part *f = &ps->parts[j];
            if (f->type != FP_PART_FIBRE || strcmp(f->fibre, fibre) != 0 ||
                strcmp(f->connector, conn) != 0 || (forced >= 0 && j != forced))
                continue;
            if (fp_i < 0 || part_cost(f, 10) < part_cost(&ps->parts[fp_i], 10) - 1e-9)
                fp_i = j;
        }
        if (fp_i < 0)
            continue;
        const fp_part *f = &ps->parts[fp_i];
        int ok = 1;
        for (size_t k = 0; k < ncg; k++)
            cg[k].need = 0;
        for (size_t i = 0; i < n && ok; i++) {
            double s = stock_for(f, route[i]);
            if (s < 0) {
                ok = 0;
                break;
            }
            c->stock[i] = s;
            const fp_link *l = &c->fab->link[links[i]];
            int64_t ca = cage_of(c->cab, c->fab, rs, l->a, l->a_port);
            int64_t cz = cage_of(c->cab, c->fab, rs, l->z, l->z_port);
            for (size_t k = 0; k < ncg; k++)
                if ((cg[k].cage == ca || cg[k].cage == cz) && s > cg[k].need)
                    cg[k].need = s;
        }
        for (size_t k = 0; k < ncg && ok; k++) {
            int best = -1;
            const char *ct = cage_type(c->fab, rs, cg[k].dev);
            for (int j = 0; j < ps->n_parts; j++) {
                const fp_part *m = &ps->parts[j];
                if (m->type != FP_PART_TRANSCEIVER || optic_class(m) != cls ||
                    strcmp(lane_connector(m), conn) != 0 || m->ports != cg[k].k ||
                    m->port_gbps != rs->link_gbps || !cage_fits(m->cage, ct) ||
                    m->reach_m + 1e-9 < cg[k].need)
                    continue;
                if (best < 0 || m->price_usd < ps->parts[best].price_usd - 1e-9)
                    best = j;
            }
            if (best < 0)
                ok = 0;
            cg[k].mod = (int16_t)best;
        }
        if (ok)
            return fp_i;
    }
    return -1;
}

static void link_label(char *buf, size_t n, const ctx *c, int64_t l)
{
    char an[48], zn[48], ap[16], zp[16], bn[32];
    const fp_link *k = &c->fab->link[l];
    snprintf(buf, n, "L%07lld (%s: %s %s -> %s %s)", (long long)l + 1,
             fp__boundary_name(k->boundary, c->fab->tiers, bn, sizeof bn),
             fp__device_name(an, sizeof an, c->fab, c->rs, k->a),
             fp__port_name(ap, sizeof ap, c->fab, c->rs, k->a, k->a_port),
             fp__device_name(zn, sizeof zn, c->fab, c->rs, k->z),
             fp__port_name(zp, sizeof zp, c->fab, c->rs, k->z, k->z_port));
}

static double longest_stock(const fp_part *p)
{
    double len = p->n_lengths > 0 ? p->lengths_m[p->n_lengths - 1] : 0;
    return p->reach_m > 0 && p->reach_m < len ? p->reach_m : len;
}

/* The longest run link l could have with the allowed media and the catalog: for copper, a
 * cable that fits both cages; for optics, the shorter of the best module at each end and the
 * longest fibre of their lane connector. *limit names the part that sets it. 0 when nothing
 * fits the link's cages at all. */
static double longest_reach(const ctx *c, int64_t l, unsigned allowed, const fp_part **limit)
{
    const fp_fabric *fab = c->fab;
    const fp_phys_spec *ps = c->ps;
    const fp_link *k = &fab->link[l];
    int64_t dev[2] = { k->a, k->z };
    int per[2] = { c->cab->per_cage[fab->dev[k->a].tier], c->cab->per_cage[fab->dev[k->z].tier] };
    int gbps = c->rs->link_gbps;
    double best = 0;
    *limit = NULL;
    for (int i = 0; i < ps->n_parts; i++) {
        const fp_part *p = &ps->parts[i];
        if (p->type == FP_PART_CABLE) {
            int m = copper_medium(p);
            if (m < 0 || !(allowed & (1u << m)) ||
                !cage_fits(p->cage, cage_type(fab, c->rs, dev[0])) ||
                !cage_fits(p->cage, cage_type(fab, c->rs, dev[1])))
                continue;
            int straight = p->legs <= 1 && per[0] == per[1] && p->port_gbps == gbps * per[0];
            int split = p->legs > 1 && p->port_gbps == gbps &&
                        (per[0] == 1 || per[1] == 1) && p->legs == (per[0] > per[1] ? per[0] : per[1]);
            if ((straight || split) && longest_stock(p) > best) {
                best = longest_stock(p);
                *limit = p;
            }
        } else if (p->type == FP_PART_FIBRE) {
            int m = strcmp(p->fibre, "MMF") == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF;
            if (!(allowed & (1u << m)))
                continue;
            /* The best module of this fibre's type and lane connector at each end. */
            const fp_part *end_best[2] = { NULL, NULL };
            for (int e = 0; e < 2; e++)
                for (int j = 0; j < ps->n_parts; j++) {
                    const fp_part *mo = &ps->parts[j];
                    if (mo->type != FP_PART_TRANSCEIVER || strcmp(mo->fibre, p->fibre) != 0 ||
                        strcmp(lane_connector(mo), p->connector) != 0 || mo->ports != per[e] ||
                        mo->port_gbps != gbps || !cage_fits(mo->cage, cage_type(fab, c->rs, dev[e])))
                        continue;
                    if (end_best[e] == NULL || mo->reach_m > end_best[e]->reach_m)
                        end_best[e] = mo;
                }
            if (end_best[0] == NULL || end_best[1] == NULL)
                continue;
            const fp_part *lim = p;
            double reach = longest_stock(p);
            for (int e = 0; e < 2; e++)
                if (end_best[e]->reach_m < reach) {
                    reach = end_best[e]->reach_m;
                    lim = end_best[e];
                }
            if (reach > best) {
                best = reach;
                *limit = lim;
            }
        }
    }
    return best;
}

static fp_status decide(ctx *c, const int32_t *links, size_t n, fp_error *err)
{
    const fp_fabric *fab = c->fab;
    const fp_rspec *rs = c->rs;
    fp_cabling *cab = c->cab;
    fp_status rc;
    size_t ncg = 0;
    double route_max = 0;
    int64_t worst = links[0];
    int forced = -1;
    const fp_override *forced_by = NULL, *length_by = NULL;
    double ov_route = 0;
    if ((rc = grow(c, n, err)) != FP_OK)
        return rc;
    double *route = c->route;
    for (size_t i = 0; i < n; i++) {
        const fp_link *l = &fab->link[links[i]];
        route[i] = cab->link_route[links[i]];
        if (route[i] > route_max) {
            route_max = route[i];
            worst = links[i];
        }
        const fp_override *o = c->ov_of && c->ov_of[links[i]] >= 0 ? &c->ps->ov[c->ov_of[links[i]]]
                                                                    : NULL;
        if (o && o->part >= 0) {
            if (forced_by && forced != o->part)
                FP_FAIL(err, FP_EINVAL, o->where,
                        "%s: part \"%s\" conflicts with \"%s\" given at %s: these links share cages, so they take the same medium; give one part for both",
                        o->where, c->ps->parts[o->part].id, c->ps->parts[forced].id, forced_by->where);
            forced = o->part;
            forced_by = o;
        }
        if (o && o->length_m > 0) {
            if (o->length_m > ov_route)
                ov_route = o->length_m;
            length_by = o;
        }
        int ta = fab->dev[l->a].tier, tz = fab->dev[l->z].tier;
        add_cage(c, &ncg, cage_of(cab, fab, rs, l->a, l->a_port), l->a, cab->per_cage[ta]);
        add_cage(c, &ncg, cage_of(cab, fab, rs, l->z, l->z_port), l->z, cab->per_cage[tz]);
    }
    /* A length given for a copper cable is the cable's length, whichever leg it named. */
    double cu_route = length_by ? ov_route : route_max;
    unsigned allowed = allowed_for(c, links, n);
    if (forced >= 0) {
        const fp_part *fpart = &c->ps->parts[forced];
        int m = fpart->type == FP_PART_CABLE ? copper_medium(fpart)
                : strcmp(fpart->fibre, "MMF") == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF;
        allowed = m >= 0 ? 1u << m : 0;
    }
    int medium = -1, part = -1, kind = FP_CABLE_STRAIGHT;
    double stock = 0;
    for (int m = FP_MEDIUM_DAC; m <= FP_MEDIUM_AEC && part < 0; m++) {
        if (!(allowed & (1u << m)))
            continue;
        part = try_copper(c, links, n, c->cg, ncg, cu_route, m, forced, &stock, &kind);
        if (part >= 0)
            medium = m;
    }
    if (part < 0) {
        for (int cls = 0; cls < 3 && part < 0; cls++) {
            int m = cls == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF;
            if (!(allowed & (1u << m)))
                continue;
            part = try_optics(c, links, n, c->cg, ncg, route, cls, forced);
            if (part >= 0)
                medium = m;
        }
        if (part >= 0) {
            for (size_t k = 0; k < ncg; k++)
                cab->cage_mod[c->cg[k].cage] = c->cg[k].mod;
            for (size_t i = 0; i < n; i++) {
                c->link_part[links[i]] = (int16_t)part;
                c->link_stock[links[i]] = (float)c->stock[i];
                cab->link_medium[links[i]] = (uint8_t)medium;
                cab->link_cable[links[i]] = -1;     /* one fibre per link */
            }
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            c->link_part[links[i]] = (int16_t)part;
            c->link_stock[links[i]] = (float)stock;
            cab->link_route[links[i]] = (float)cu_route;
            cab->link_medium[links[i]] = (uint8_t)medium;
            /* -2 - first link: one copper cable for the set (kind encoded below). */
            cab->link_cable[links[i]] = n == 1 ? -1 : -2 - links[0];
        }
        if (n > 1 || kind != FP_CABLE_STRAIGHT)
            cab->link_cable[links[0]] = -2 - links[0];
    }
    if (part < 0) {
        char what[200], where[16];
        const fp_part *limit;
        double reach = longest_reach(c, worst, allowed, &limit);
        link_label(what, sizeof what, c, worst);
        snprintf(where, sizeof where, "L%07lld", (long long)worst + 1);
        if (forced >= 0) {
            const fp_part *fpart = &c->ps->parts[forced];
            double r = fpart->type == FP_PART_CABLE ? cu_route : route_max;
            FP_FAIL(err, FP_EDESIGN, forced_by->where,
                    "%s/part: \"%s\" cannot serve link %s: expected a part that fits its %s and %s cages (%d and %d link%s per cage at %dG) and reaches its %.2f m route; %s %s",
                    forced_by->where, fpart->id, what, cage_word(c->fab, c->rs, c->fab->link[worst].a),
                    cage_word(c->fab, c->rs, c->fab->link[worst].z),
                    cab->per_cage[fab->dev[fab->link[worst].a].tier],
                    cab->per_cage[fab->dev[fab->link[worst].z].tier],
                    cab->per_cage[fab->dev[fab->link[worst].z].tier] == 1 ? "" : "s",
                    c->rs->link_gbps, r, fpart->id,
                    fpart->type == FP_PART_CABLE && longest_stock(fpart) + 1e-9 < r
                        ? "is not sold that long"
                        : "does not fit these cages and speeds, or no module pair for it reaches that far");
        }
        if (limit == NULL) {
            const fp_link *wl = &c->fab->link[worst];
            FP_FAIL(err, FP_EDESIGN, where,
                    "link %s: no allowed catalog part fits its ports (%s %s cage on the %s side, %s %s cage on the %s side, %zu link%s sharing these cages at %dG) for its %.2f m route; add a matching transceiver or cable to the catalog (--catalog FILE) or allow another medium",
                    what, article(cage_word(c->fab, c->rs, wl->a)), cage_word(c->fab, c->rs, wl->a),
                    fp__tier_role(c->fab->dev[wl->a].tier, c->fab->tiers),
                    article(cage_word(c->fab, c->rs, wl->z)), cage_word(c->fab, c->rs, wl->z),
                    fp__tier_role(c->fab->dev[wl->z].tier, c->fab->tiers),
                    n, n == 1 ? "" : "s", c->rs->link_gbps, route_max);
        }
        if (length_by && length_by->length_m + 1e-9 >= route_max && reach < length_by->length_m)
            FP_FAIL(err, FP_EDESIGN, length_by->where,
                    "%s/length_m: link %s: expected a length within reach of an allowed medium, found %g m; the longest reach available is %g m for its ports (%s)",
                    length_by->where, what, length_by->length_m, reach, limit->id);
        if (reach >= route_max)
            FP_FAIL(err, FP_EDESIGN, where,
                    "link %s: no allowed catalog part serves the %zu links sharing its cages for its %.2f m route, though %s reaches %g m; allow another medium or add a matching part (--catalog FILE)",
                    what, n, route_max, limit->id, reach);
        FP_FAIL(err, FP_EDESIGN, where,
                "link %s: its %.2f m route is beyond every allowed medium; the longest reach available is %g m for its ports (%s)",
                what, route_max, reach, limit->id);
    }
    return FP_OK;
}

/* ---- overrides ---- */

/* Attach each override to its link (c->ov_of). Ends are matched through one sorted table of
 * "device port" names (n log n), not by comparing every override with every link. Two
 * overrides of one link are an error. Whether a cable id names a real cable (the first link
 * of its cable) is checked once cables are made (check_override_ids). */
typedef struct end_key {
    const char *a, *z;      /* override ends, or a link's ends as names */
    int32_t ov;
} end_key;

static int end_key_cmp(const void *pa, const void *pb)
{
    const end_key *x = pa, *y = pb;
    int k = strcmp(x->a, y->a);
    return k ? k : strcmp(x->z, y->z);
}

static fp_status attach_override(ctx *c, int64_t l, int32_t i, fp_error *err)
{
    const fp_override *o = &c->ps->ov[i];
    if (c->ov_of[l] >= 0 && c->ov_of[l] != i)
        FP_FAIL(err, FP_EINVAL, o->where,
                "%s: link L%07lld is already overridden at %s; expected one override per cable",
                o->where, (long long)l + 1, c->ps->ov[c->ov_of[l]].where);
    c->ov_of[l] = i;
    return FP_OK;
}

static fp_status apply_overrides(ctx *c, fp_error *err)
{
    const fp_phys_spec *ps = c->ps;
    const fp_fabric *fab = c->fab;
    int64_t n = fab->n_link;
    fp_status rc = FP_OK;
    int n_ends = 0;
    c->ov_of = malloc((size_t)(n ? n : 1) * sizeof *c->ov_of);
    char *matched = calloc((size_t)ps->n_ov, 1);
    end_key *keys = calloc((size_t)ps->n_ov, sizeof *keys);
    if (c->ov_of == NULL || matched == NULL || keys == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for overrides");
        goto out;
    }
    for (int64_t l = 0; l < n; l++)
        c->ov_of[l] = -1;
    for (int32_t i = 0; i < ps->n_ov; i++) {
        const fp_override *o = &ps->ov[i];
        if (o->cable[0] == '\0') {
            keys[n_ends++] = (end_key){ o->a, o->z, i };
            continue;
        }
        long long num = 0;
        char tail = 0;
        if (sscanf(o->cable, "C%lld%c", &num, &tail) == 1 && num >= 1 && num <= n) {
            if ((rc = attach_override(c, num - 1, i, err)) != FP_OK)
                goto out;
            matched[i] = 1;
        }
    }
    if (n_ends > 0) {
        qsort(keys, (size_t)n_ends, sizeof *keys, end_key_cmp);
        char an[48], zn[48], ap[16], zp[16], a[72], z[72];
        for (int64_t l = 0; l < n; l++) {
            const fp_link *k = &fab->link[l];
            snprintf(a, sizeof a, "%s %s", fp__device_name(an, sizeof an, fab, c->rs, k->a),
                     fp__port_name(ap, sizeof ap, fab, c->rs, k->a, k->a_port));
            snprintf(z, sizeof z, "%s %s", fp__device_name(zn, sizeof zn, fab, c->rs, k->z),
                     fp__port_name(zp, sizeof zp, fab, c->rs, k->z, k->z_port));
            for (int dir = 0; dir < 2; dir++) {
                end_key want = { dir ? z : a, dir ? a : z, -1 };
                end_key *hit = bsearch(&want, keys, (size_t)n_ends, sizeof *keys, end_key_cmp);
                if (hit == NULL)
                    continue;
                /* Equal keys sit together: attach each (a second one is the duplicate error). */
                while (hit > keys && end_key_cmp(hit - 1, &want) == 0)
                    hit--;
                for (; hit < keys + n_ends && end_key_cmp(hit, &want) == 0; hit++) {
                    if ((rc = attach_override(c, l, hit->ov, err)) != FP_OK)
                        goto out;
                    matched[hit->ov] = 1;
                }
            }
        }
    }
    for (int i = 0; i < ps->n_ov; i++)
        if (!matched[i]) {
            const fp_override *o = &ps->ov[i];
            if (o->cable[0])
                rc = fp__error_set(err, FP_EINVAL, o->where,
                                   "%s: no cable \"%s\" in this plan; expected an id from cables.csv (C0000001 to C%07lld, a cable is named after its first link)",
                                   o->where, o->cable, (long long)n);
            else
                rc = fp__error_set(err, FP_EINVAL, o->where,
                                   "%s: no link between \"%s\" and \"%s\" in this plan; expected \"device port\" names as in cables.csv (e.g. \"su01-node-01 nic1\")",
                                   o->where, o->a, o->z);
            goto out;
        }
out:
    free(matched);
    free(keys);
    return rc;
}

/* A cable id override must name a cable, not the second leg of a shared one. */
static fp_status check_override_ids(const ctx *c, fp_error *err)
{
    for (int i = 0; i < c->ps->n_ov; i++) {
        const fp_override *o = &c->ps->ov[i];
        long long num = 0;
        if (o->cable[0] == '\0' || sscanf(o->cable, "C%lld", &num) != 1)
            continue;
        int64_t l = num - 1;
        const fp_cable *cb = &c->cab->cable[c->cab->link_cable[l]];
        int32_t first = c->cab->cable_links[cb->first];
        if (first != l)
            FP_FAIL(err, FP_EINVAL, o->where,
                    "%s: no cable \"%s\" in this plan: link L%07lld is a leg of cable C%07lld; expected \"C%07lld\"",
                    o->where, o->cable, (long long)l + 1, (long long)first + 1, (long long)first + 1);
    }
    return FP_OK;
}

/* ---- build ---- */

static fp_status make_cables(ctx *c, const int32_t *comp_start, const int32_t *comp_links,
                             const int32_t *link_root, fp_error *err)
{
    fp_cabling *cab = c->cab;
    const fp_fabric *fab = c->fab;
    int64_t n = 0;
    for (int64_t l = 0; l < fab->n_link; l++)
        if (cab->link_cable[l] == -1 || cab->link_cable[l] == -2 - l)
            n++;
    cab->cable = calloc((size_t)(n ? n : 1), sizeof *cab->cable);
    cab->cable_links = malloc((size_t)(fab->n_link ? fab->n_link : 1) * sizeof *cab->cable_links);
    if (cab->cable == NULL || cab->cable_links == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for %lld cables", (long long)n);
    int64_t ci = 0, off = 0;
    for (int64_t l = 0; l < fab->n_link; l++) {
        int32_t v = cab->link_cable[l];
        if (v != -1 && v != -2 - l)
            continue;
        fp_cable *cb = &cab->cable[ci];
        cb->first = (int32_t)off;
        cb->medium = cab->link_medium[l];
        cb->part = c->link_part[l];
        cb->stock_m = c->link_stock[l];
        cb->kind = FP_CABLE_STRAIGHT;
        if (v == -1) {
            cab->cable_links[off++] = (int32_t)l;
            cb->n_links = 1;
            cb->route_m = cab->link_route[l];
        } else {
            int32_t r = link_root[l];
            float route = 0;
            const fp_part *p = &c->ps->parts[cb->part];
            for (int32_t i = comp_start[r]; i < comp_start[r + 1]; i++) {
                int32_t k = comp_links[i];
                cab->cable_links[off++] = k;
                cb->n_links++;
                if (cab->link_route[k] > route)
                    route = cab->link_route[k];
            }
            cb->route_m = route;
            cb->kind = p->legs > 1 ? FP_CABLE_SPLIT : cb->n_links > 1 ? FP_CABLE_TWIN
                                                                      : FP_CABLE_STRAIGHT;
        }
        for (int i = 0; i < cb->n_links; i++)
            cab->link_cable[cab->cable_links[cb->first + i]] = (int32_t)ci;
        ci++;
    }
    cab->n_cable = ci;
    return FP_OK;
}

/* Whether a splitter's hub (the cage every leg shares) is the links' z end: compare cages, not
 * devices, since two legs may land on two single-port cages of one device. */
static int split_hub_is_z(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs,
                          const int32_t *links, int n_links)
{
    const fp_link *l0 = &fab->link[links[0]];
    if (n_links > 1) {
        const fp_link *l1 = &fab->link[links[1]];
        return cage_of(cab, fab, rs, l1->z, l1->z_port) == cage_of(cab, fab, rs, l0->z, l0->z_port);
    }
    /* One leg in use: the hub is the end whose cage carries several links. */
    return cab->per_cage[fab->dev[l0->z].tier] > 1;
}

/* Power per rack (servers, switches, modules, powered cables) and cables leaving each rack.
 * A powered cable (DAC, ACC, AEC) draws from the cage at each of its ends, so its power is
 * shared evenly by its ends: half at each end of a straight cable, one part in (legs + 1) at
 * the hub and at each leg of a splitter. */
static void rack_totals(const ctx *c, fp_layout *lay)
{
    const fp_fabric *fab = c->fab;
    const fp_rspec *rs = c->rs;
    const fp_cabling *cab = c->cab;
    for (int64_t d = 0; d < fab->n_dev; d++) {
        int t = fab->dev[d].tier;
        lay->rack[lay->dev_rack[d]].power_w += t == 0 ? c->ps->server_power_w
                                                      : rs->tier[t - 1].model.power_w;
    }
    for (int64_t g = 0; g < cab->n_cage; g++)
        if (cab->cage_mod[g] >= 0)
            lay->rack[lay->dev_rack[cage_device(cab, fab, rs, g)]].power_w +=
                c->ps->parts[cab->cage_mod[g]].power_w;
    for (int64_t i = 0; i < cab->n_cable; i++) {
        const fp_cable *cb = &cab->cable[i];
        const int32_t *links = cab->cable_links + cb->first;
        const fp_link *l0 = &fab->link[links[0]];
        /* The racks of the cable's ends: A first, then every Z leg. */
        int32_t ends[FP_MAX_LEGS + 1];
        int n_ends = 0;
        if (cb->kind == FP_CABLE_SPLIT) {
            int hub_z = split_hub_is_z(cab, fab, rs, links, cb->n_links);
            ends[n_ends++] = lay->dev_rack[hub_z ? l0->z : l0->a];
            for (int k = 0; k < cb->n_links && n_ends <= FP_MAX_LEGS; k++) {
                const fp_link *l = &fab->link[links[k]];
                ends[n_ends++] = lay->dev_rack[hub_z ? l->a : l->z];
            }
        } else {
            ends[n_ends++] = lay->dev_rack[l0->a];
            ends[n_ends++] = lay->dev_rack[l0->z];
        }
        if (cb->medium <= FP_MEDIUM_AEC)
            for (int e = 0; e < n_ends; e++)
                lay->rack[ends[e]].power_w += c->ps->parts[cb->part].power_w / n_ends;
        /* Every rack this cable touches counts it once, when it touches more than one. */
        int32_t racks[FP_MAX_LEGS + 1];
        int nr = 0;
        for (int e = 0; e < n_ends; e++) {
            int seen = 0;
            for (int j = 0; j < nr; j++)
                seen |= racks[j] == ends[e];
            if (!seen)
                racks[nr++] = ends[e];
        }
        if (nr > 1)
            for (int j = 0; j < nr; j++)
                lay->rack[racks[j]].cables_leaving++;
    }
}

fp_status fp__cabling_build(fp_cabling *cab, fp_layout *lay, const fp_fabric *fab,
                            const fp_rspec *rs, fp_error *err)
{
    ctx c;
    fp_status rc = FP_OK;
    int32_t *parent = NULL, *comp_start = NULL, *comp_links = NULL, *link_root = NULL;
    memset(cab, 0, sizeof *cab);
    memset(&c, 0, sizeof c);
    c.cab = cab;
    c.lay = lay;
    c.fab = fab;
    c.rs = rs;
    c.ps = &rs->phys;

    /* cages */
    cab->per_cage[0] = 1;
    cab->cage_base[0] = 0;
    int64_t n_cage = fab->servers * rs->nics_per_server * rs->nic.ports;
    for (int t = 1; t <= fab->tiers; t++) {
        const fp_tier_spec *ts = &rs->tier[t - 1];
        int cages = cages_per_switch(ts);
        cab->per_cage[t] = ts->radix % cages == 0 ? ts->radix / cages : ts->breakout;
        cab->cage_base[t] = n_cage;
        n_cage += fab->level[t].switches * fab->planes * cages;
    }
    cab->n_cage = n_cage;
    size_t nl = (size_t)(fab->n_link ? fab->n_link : 1);
    cab->cage_mod = malloc((size_t)n_cage * sizeof *cab->cage_mod);
    cab->link_cable = malloc(nl * sizeof *cab->link_cable);
    cab->link_medium = calloc(nl, sizeof *cab->link_medium);
    cab->link_route = malloc(nl * sizeof *cab->link_route);
    c.link_part = malloc(nl * sizeof *c.link_part);
    c.link_stock = malloc(nl * sizeof *c.link_stock);
    parent = malloc((size_t)n_cage * sizeof *parent);
    comp_start = calloc((size_t)n_cage + 1, sizeof *comp_start);
    comp_links = malloc(nl * sizeof *comp_links);
    link_root = malloc(nl * sizeof *link_root);
    if (!cab->cage_mod || !cab->link_cable || !cab->link_medium || !cab->link_route ||
        !c.link_part || !c.link_stock || !parent || !comp_start || !comp_links || !link_root) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for cabling");
        goto out;
    }
    for (int64_t g = 0; g < n_cage; g++) {
        cab->cage_mod[g] = -1;
        parent[g] = (int32_t)g;
    }
    if (c.ps->n_ov > 0 && (rc = apply_overrides(&c, err)) != FP_OK)
        goto out;

    /* routes, and the sets of cages that must be decided together */
    for (int64_t l = 0; l < fab->n_link; l++) {
        const fp_link *k = &fab->link[l];
        cab->link_route[l] = c.ov_of && c.ov_of[l] >= 0 && c.ps->ov[c.ov_of[l]].length_m > 0
                                 ? (float)c.ps->ov[c.ov_of[l]].length_m
                                 : (float)route_length(lay, c.ps, k->a, k->z);
        uf_join(parent, (int32_t)cage_of(cab, fab, rs, k->a, k->a_port),
                (int32_t)cage_of(cab, fab, rs, k->z, k->z_port));
    }
    /* A length override on one link of a shared cable covers the cable. */
    for (int64_t l = 0; l < fab->n_link; l++) {
        link_root[l] = uf_find(parent, (int32_t)cage_of(cab, fab, rs, fab->link[l].a,
                                                        fab->link[l].a_port));
        comp_start[link_root[l] + 1]++;
    }
    for (int64_t g = 0; g < n_cage; g++)
        comp_start[g + 1] += comp_start[g];
    {
        int32_t *fill = parent;     /* reuse: union-find is done */
        for (int64_t g = 0; g < n_cage; g++)
            fill[g] = comp_start[g];
        for (int64_t l = 0; l < fab->n_link; l++)
            comp_links[fill[link_root[l]]++] = (int32_t)l;
    }
    for (int64_t l = 0; l < fab->n_link; l++)
        cab->link_cable[l] = INT32_MIN;
    for (int64_t l = 0; l < fab->n_link; l++) {
        if (cab->link_cable[l] != INT32_MIN)
            continue;
        int32_t r = link_root[l];
        if ((rc = decide(&c, comp_links + comp_start[r], (size_t)(comp_start[r + 1] - comp_start[r]),
                         err)) != FP_OK)
            goto out;
    }
    if ((rc = make_cables(&c, comp_start, comp_links, link_root, err)) != FP_OK ||
        (c.ov_of && (rc = check_override_ids(&c, err)) != FP_OK))
        goto out;
    for (int64_t l = 0; l < fab->n_link; l++)
        cab->by_medium[fab->link[l].boundary][cab->link_medium[l]]++;
    rack_totals(&c, lay);
    for (int64_t i = 0; i < lay->n_rack; i++)
        lay->rack[i].power_w = round(lay->rack[i].power_w * 100) / 100;
out:
    free(parent);
    free(comp_start);
    free(comp_links);
    free(link_root);
    free(c.link_part);
    free(c.link_stock);
    free(c.ov_of);
    free(c.route);
    free(c.cg);
    free(c.stock);
    if (rc != FP_OK)
        fp__cabling_free(cab);
    return rc;
}

void fp__cabling_free(fp_cabling *cab)
{
    if (cab == NULL)
        return;
    free(cab->cable);
    free(cab->cable_links);
    free(cab->link_cable);
    free(cab->link_medium);
    free(cab->link_route);
    free(cab->cage_mod);
    memset(cab, 0, sizeof *cab);
}

/* ---- public getters ---- */

fp_status fp_plan_device_location(const fp_plan *plan, size_t device, fp_location *out,
                                  fp_error *err)
{
    if (device >= (size_t)plan->fab.n_dev)
        FP_FAIL(err, FP_EINVAL, "", "device %zu out of range (the plan has %lld)", device,
                (long long)plan->fab.n_dev);
    memset(out, 0, sizeof *out);
    fp__location(out, &plan->lay, (int64_t)device);
    return FP_OK;
}

size_t fp_plan_rack_count(const fp_plan *plan)
{
    return (size_t)plan->lay.n_rack;
}

static const char *rack_role(int role)
{
    static const char *const roles[] = { "compute", "leaf", "spine", "core", "super-core" };
    return role >= 0 && role <= FP_MAX_TIERS ? roles[role] : "network";
}

fp_status fp_plan_rack(const fp_plan *plan, size_t i, fp_rack_info *out, fp_error *err)
{
    const fp_layout *lay = &plan->lay;
    if (i >= (size_t)lay->n_rack)
        FP_FAIL(err, FP_EINVAL, "", "rack %zu out of range (the plan has %lld)", i,
                (long long)lay->n_rack);
    const fp_rack *r = &lay->rack[i];
    memset(out, 0, sizeof *out);
    out->hall = r->hall;
    out->row = r->row;
    out->rack = r->pos;
    snprintf(out->name, sizeof out->name, "H%d-R%02d-K%02d", r->hall, r->row, r->pos);
    out->role = rack_role(r->role);
    out->x_m = r->x;
    out->y_m = r->y;
    out->units = plan->rs.phys.rack_units;
    out->units_used = r->units_used;
    out->devices = r->devices;
    out->power_w = r->power_w;
    out->over_limit = plan->rs.phys.rack_power_limit_w > 0 &&
                      r->power_w > plan->rs.phys.rack_power_limit_w;
    out->cables_leaving = r->cables_leaving;
    return FP_OK;
}

size_t fp_plan_cable_count(const fp_plan *plan)
{
    return (size_t)plan->cab.n_cable;
}

/* Appends to a fixed char array, truncating like snprintf: the cable labels are built for every
 * cable of every per-cable document, so they are copied, not formatted. */
typedef struct label_buf {
    char *p;
    size_t cap, n;
} label_buf;

static void lb_add(label_buf *b, const char *s)
{
    size_t len = strlen(s), room = b->cap - 1 - b->n;
    if (len > room)
        len = room;
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = '\0';
}

static void lb_add3(label_buf *b, const char *x, const char *y, const char *z)
{
    lb_add(b, x);
    lb_add(b, " ");
    lb_add(b, y);
    lb_add(b, " ");
    lb_add(b, z);
}

static void fill_end(fp_cable_end *e, const fp_plan *plan, int64_t dev, int port, int cage_only)
{
    const fp_fabric *fab = &plan->fab;
    const fp_rspec *rs = &plan->rs;
    const fp_cabling *cab = &plan->cab;
    const fp_layout *lay = &plan->lay;
    e->device = dev;
    fp__copy_str(e->device_name, sizeof e->device_name, fp__dev_name(&plan->names, dev));
    int t = fab->dev[dev].tier;
    if (cage_only && t > 0 && cab->per_cage[t] > 1) {
        /* The cage: "p9" when it is one split port, "p17-18" when it holds whole ports. */
        int k = cab->per_cage[t], b = rs->tier[t - 1].breakout, first = port / k * k;
        char tmp[48];
        size_t n = 0;
        tmp[n++] = 'p';
        n += fp__put_int(tmp + n, first / b + 1);
        if (k != b) {
            tmp[n++] = '-';
            n += fp__put_int(tmp + n, (first + k - 1) / b + 1);
        }
        tmp[n] = '\0';
        fp__copy_str(e->port, sizeof e->port, tmp);
    } else
        fp__port_name(e->port, sizeof e->port, fab, rs, dev, port);
    /* fp__location's fields, with the text from the plan's name table. */
    const fp_rack *r = &lay->rack[lay->dev_rack[dev]];
    e->loc.hall = r->hall;
    e->loc.row = r->row;
    e->loc.rack = r->pos;
    e->loc.u = lay->dev_u[dev];
    fp__copy_str(e->loc.text, sizeof e->loc.text, fp__dev_loc(&plan->names, dev));
    int16_t m = cab->cage_mod[cage_of(cab, fab, rs, dev, port)];
    fp__copy_str(e->transceiver, sizeof e->transceiver, m >= 0 ? rs->phys.parts[m].id : "");
}

fp_status fp_plan_cable(const fp_plan *plan, size_t i, fp_cable_info *out, fp_error *err)
{
    const fp_cabling *cab = &plan->cab;
    const fp_fabric *fab = &plan->fab;
    const fp_rspec *rs = &plan->rs;
    if (i >= (size_t)cab->n_cable)
        FP_FAIL(err, FP_EINVAL, "", "cable %zu out of range (the plan has %lld)", i,
                (long long)cab->n_cable);
    const fp_cable *cb = &cab->cable[i];
    const int32_t *links = cab->cable_links + cb->first;
    const fp_link *l0 = &fab->link[links[0]];
    memset(out, 0, sizeof *out);
    out->index = (int64_t)i;
    /* "C%07lld" of the first link's 1-based id. */
    out->id[0] = 'C';
    out->id[1 + fp__put_uint_w(out->id + 1, (uint64_t)links[0] + 1, 7)] = '\0';
    out->medium = (fp_medium)cb->medium;
    fp__copy_str(out->part, sizeof out->part, plan->rs.phys.parts[cb->part].id);
    out->route_m = round(cb->route_m * 100) / 100;
    out->stock_m = cb->stock_m;
    out->boundary = l0->boundary;
    out->plane = l0->plane;
    out->n_links = cb->n_links;
    if (cb->kind == FP_CABLE_SPLIT) {
        /* The hub is the end whose cage every leg shares. */
        int hub_z = split_hub_is_z(cab, fab, rs, links, cb->n_links);
        int64_t hub = hub_z ? l0->z : l0->a;
        fill_end(&out->a, plan, hub, hub_z ? l0->z_port : l0->a_port, 1);
        out->n_z = cb->n_links;
        for (int k = 0; k < cb->n_links && k < FP_MAX_LEGS; k++) {
            const fp_link *l = &fab->link[links[k]];
            fill_end(&out->z[k], plan, hub_z ? l->a : l->z, hub_z ? l->a_port : l->z_port, 0);
            out->links[k] = links[k];
        }
    } else {
        fill_end(&out->a, plan, l0->a, l0->a_port, cb->kind == FP_CABLE_TWIN);
        fill_end(&out->z[0], plan, l0->z, l0->z_port, cb->kind == FP_CABLE_TWIN);
        out->n_z = 1;
        for (int k = 0; k < cb->n_links && k < FP_MAX_LEGS; k++)
            out->links[k] = links[k];
    }
    /* TIA-606 style: cable id, this end, far end(s).
     * A: "<id> <loc> <device> <port> >" then " <loc> <device> <port>" per leg;
     * Z: "<id> <loc> <device> <port> > <A loc> <A device> <A port>"; truncated to fit. */
    label_buf a = { out->a.label, sizeof out->a.label, 0 };
    lb_add(&a, out->id);
    lb_add(&a, " ");
    lb_add3(&a, out->a.loc.text, out->a.device_name, out->a.port);
    lb_add(&a, " >");
    for (int z = 0; z < out->n_z; z++) {
        lb_add(&a, " ");
        lb_add3(&a, out->z[z].loc.text, out->z[z].device_name, out->z[z].port);
    }
    for (int z = 0; z < out->n_z; z++) {
        label_buf b = { out->z[z].label, sizeof out->z[z].label, 0 };
        lb_add(&b, out->id);
        lb_add(&b, " ");
        lb_add3(&b, out->z[z].loc.text, out->z[z].device_name, out->z[z].port);
        lb_add(&b, " > ");
        lb_add3(&b, out->a.loc.text, out->a.device_name, out->a.port);
    }
    return FP_OK;
}

int fp__cable_ends(const fp_plan *plan, size_t i, int64_t *a, int64_t z[FP_MAX_LEGS])
{
    const fp_cabling *cab = &plan->cab;
    const fp_fabric *fab = &plan->fab;
    const fp_cable *cb = &cab->cable[i];
    const int32_t *links = cab->cable_links + cb->first;
    const fp_link *l0 = &fab->link[links[0]];
    if (cb->kind != FP_CABLE_SPLIT) {
        *a = l0->a;
        z[0] = l0->z;
        return 1;
    }
    int hub_z = split_hub_is_z(cab, fab, &plan->rs, links, cb->n_links), n = 0;
    *a = hub_z ? l0->z : l0->a;
    for (; n < cb->n_links && n < FP_MAX_LEGS; n++)
        z[n] = hub_z ? fab->link[links[n]].a : fab->link[links[n]].z;
    return n;
}

int64_t fp_plan_link_cable(const fp_plan *plan, size_t link)
{
    if (link >= (size_t)plan->fab.n_link || plan->cab.link_cable == NULL)
        return -1;
    return plan->cab.link_cable[link];
}

fp_medium fp_plan_link_medium(const fp_plan *plan, size_t link)
{
    if (link >= (size_t)plan->fab.n_link || plan->cab.link_medium == NULL)
        return FP_MEDIUM_COUNT;
    return (fp_medium)plan->cab.link_medium[link];
}
