/* fabplan — media choice: the medium, cable or fibre, and transceivers for each set of links
 * that share cages.
 *
 * For each set the candidates are one copper cable of each allowed copper medium (passive DAC,
 * active copper (ACC), AEC, twisted pair on RJ45 ports) — only for shapes one copper cable can
 * serve: a straight cable between two cages, or a splitter from one hub cage to single-port
 * cages — and optics: SR on multimode, DR and FR on single-mode, for each lane connector and
 * cord. Only parts of the ports' lane rate fit. The cheapest whole wins (modules, the cable or
 * a cord per link at stock length), then the lower power, then catalog order. Each link keeps
 * its own fibre; each cage gets one module (a twin-port module counts once for its two
 * links). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/cabling_work.h"

/* ---- parts as ids, once per cabling pass ---- */

/* The id of s among the n strings of tab (appended when new). */
static int16_t intern(const char **tab, int *n, const char *s)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(tab[i], s) == 0)
            return (int16_t)i;
    tab[*n] = s;
    return (int16_t)(*n)++;
}

fp_status fp__media_prepare(fp_cabling_ctx *c, fp_error *err)
{
    const fp_phys_spec *ps = c->ps;
    const fp_rspec *rs = c->rs;
    const int np = ps->n_parts;
    /* every string a part or a tier brings: 6 per part, 3 per tier, "MMF" and "SMF" */
    const char **tab = malloc(sizeof *tab * (size_t)(6 * np + 3 * (FP_MAX_TIERS + 1) + 2));
    int nt = 0;
    c->pk = malloc(sizeof *c->pk * (size_t)(np ? np : 1));
    c->list = malloc(sizeof *c->list * (size_t)(8 * np + 1));
    if (tab == NULL || c->pk == NULL || c->list == NULL) {
        free(tab);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory choosing media");
    }
    c->mmf = intern(tab, &nt, "MMF");
    c->smf = intern(tab, &nt, "SMF");
    for (int i = 0; i < np; i++) {
        const fp_part *p = &ps->parts[i];
        fp_part_key *q = &c->pk[i];
        q->copper = (int8_t)(p->type == FP_PART_CABLE ? copper_medium(p) : -1);
        q->optic = (int8_t)(p->type == FP_PART_TRANSCEIVER ? optic_class(p) : -1);
        q->proto = (uint8_t)proto_ok(rs, p);
        q->cage = intern(tab, &nt, p->cage);
        q->far = intern(tab, &nt, p->leg_cage[0] ? p->leg_cage : p->cage);
        q->conn = intern(tab, &nt, p->connector);
        q->lane = intern(tab, &nt, lane_connector(p));
        q->hub = intern(tab, &nt, p->hub_connector[0] ? p->hub_connector : p->connector);
        q->fibre = intern(tab, &nt, p->fibre);
        q->legs = p->legs;
        q->ports = p->ports;
        q->gbps = p->port_gbps;
        q->lane_gbps = p->lane_gbps;
        q->reach = p->reach_m;
    }
    for (int t = 0; t <= c->fab->tiers; t++) {
        const fp_part *m = t == 0 ? &rs->nic : &rs->tier[t - 1].model;
        c->dev_cage[t] = m->cage[0] ? intern(tab, &nt, m->cage) : -1;
        c->up_cage[t] = t > 0 && m->uplink_ports > 0 && m->uplink_cage[0]
                            ? intern(tab, &nt, m->uplink_cage) : -1;
        c->dev_lane[t] = m->lane_gbps;
        c->up_lane[t] = t > 0 && m->uplink_ports > 0 ? m->uplink_lane_gbps : m->lane_gbps;
        c->cpo_optic[t] = (int8_t)(t > 0 && m->cpo ? optic_class(m) : -1);
        c->cpo_conn[t] = intern(tab, &nt, m->connector);
    }
    free(tab);
    /* The lists, each in catalog order so ties are broken as a scan of every part would. */
    int16_t *w = c->list;
    c->cables = w;
    for (int i = 0; i < np; i++)
        if (ps->parts[i].type == FP_PART_CABLE && c->pk[i].proto)
            *w++ = (int16_t)i;
    c->n_cables = (int)(w - c->cables);
    c->cords = w;
    for (int i = 0; i < np; i++)
        if (ps->parts[i].type == FP_PART_FIBRE && ps->parts[i].legs <= 1)
            *w++ = (int16_t)i;
    c->n_cords = (int)(w - c->cords);
    for (int cls = 0; cls < 3; cls++) {
        int16_t *mods = w;
        c->mods[cls] = mods;
        for (int i = 0; i < np; i++)
            if (c->pk[i].optic == cls && c->pk[i].proto)
                *w++ = (int16_t)i;
        c->n_mods[cls] = (int)(w - mods);
        c->min_mod[cls] = 0;
        for (int x = 0; x < c->n_mods[cls]; x++)
            if (x == 0 || ps->parts[mods[x]].price_usd < c->min_mod[cls])
                c->min_mod[cls] = ps->parts[mods[x]].price_usd;
        c->lanes[cls] = w;
        for (int x = 0; x < c->n_mods[cls]; x++) {
            int seen = 0;
            for (int y = 0; y < x; y++)
                seen |= c->pk[mods[y]].lane == c->pk[mods[x]].lane;
            if (!seen)
                *w++ = mods[x];
        }
        c->n_lanes[cls] = (int)(w - c->lanes[cls]);
    }
    return FP_OK;
}

/* The id of the cage type of cage g (-1: untyped, takes any part): its switch's uplink cage
 * type when it is one of the uplink cages after the front ones. */
static int16_t port_cage(const fp_cabling_ctx *c, const fp_comp_cage *g)
{
    const int t = c->fab->dev[g->dev].tier;
    if (t > 0 && c->rs->tier[t - 1].model.uplink_ports > 0) {
        const fp_tier_spec *ts = &c->rs->tier[t - 1];
        int64_t in_switch = (g->cage - c->cab->cage_base[t]) % cages_per_switch(ts);
        if (in_switch >= cages_per_switch(ts) - ts->model.uplink_ports)
            return c->up_cage[t];
    }
    return c->dev_cage[t];
}

/* Whether a part of lane rate lane_gbps fits cage g's ports (lane_fits): the uplink ports'
 * rate on a switch's uplink cages, else its tier's. */
static int port_lane_fits(const fp_cabling_ctx *c, const fp_comp_cage *g, int lane_gbps)
{
    const int t = c->fab->dev[g->dev].tier;
    int port = c->dev_lane[t];
    if (t > 0 && c->rs->tier[t - 1].model.uplink_ports > 0) {
        const fp_tier_spec *ts = &c->rs->tier[t - 1];
        int64_t in_switch = (g->cage - c->cab->cage_base[t]) % cages_per_switch(ts);
        if (in_switch >= cages_per_switch(ts) - ts->model.uplink_ports)
            port = c->up_lane[t];
    }
    return lane_fits(lane_gbps, port);
}

/* ---- the decision for one set of cages ---- */

/* A candidate for a set: its total cost (modules, and the cable or one cord per link at their
 * stock lengths), its power and its part (the cable, or the cord; -1 none yet). */
typedef struct media_pick {
    double cost, power;
    int part;
} media_pick;

/* Whether (cost, power, part) beats b: lower cost, then lower power, then the lower catalog
 * index (the catalog is sorted by type and id), so the choice is deterministic. */
static int pick_better(double cost, double power, int part, const media_pick *b)
{
    if (b->part < 0 || cost < b->cost - 1e-9)
        return 1;
    if (cost > b->cost + 1e-9)
        return 0;
    if (power < b->power - 1e-9)
        return 1;
    if (power > b->power + 1e-9)
        return 0;
    return part < b->part;
}

static fp_status grow(fp_cabling_ctx *c, size_t n_links, fp_error *err)
{
    if (n_links * 2 > c->cg_cap) {
        free(c->cg);
        c->cg_cap = n_links * 2 + 16;
        c->cg = malloc(c->cg_cap * sizeof *c->cg);
    }
    if (n_links > c->stock_cap) {
        free(c->stock);
        free(c->route);
        free(c->ckey);
        free(c->cper);
        c->stock_cap = n_links + 16;
        c->stock = malloc(c->stock_cap * sizeof *c->stock);
        c->route = malloc(c->stock_cap * sizeof *c->route);
        c->ckey = malloc(2 * c->stock_cap * sizeof *c->ckey);
        c->cper = malloc(2 * c->stock_cap * sizeof *c->cper);
    }
    if (c->cg == NULL || c->stock == NULL || c->route == NULL || c->ckey == NULL || c->cper == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory choosing media");
    return FP_OK;
}

static int add_cage(fp_cabling_ctx *c, size_t *n, int64_t cage, int64_t dev, int k)
{
    for (size_t i = 0; i < *n; i++)
        if (c->cg[i].cage == cage) {
            c->cg[i].n++;
            return (int)i;
        }
    fp_comp_cage *g = &c->cg[(*n)++];
    memset(g, 0, sizeof *g);
    g->cage = cage;
    g->dev = dev;
    g->k = k;
    g->n = 1;
    g->mod = -1;
    return (int)(*n - 1);
}

static unsigned allowed_for(const fp_cabling_ctx *c, const int32_t *links, size_t n)
{
    unsigned m = (1u << FP_MEDIUM_COUNT) - 1;
    for (size_t i = 0; i < n; i++)
        m &= c->ps->media_allowed[c->fab->link[links[i]].boundary];
    return m;
}

/* Try one copper cable for the whole set. Returns the part or -1; *stock set. */
static int try_copper(const fp_cabling_ctx *c, const int32_t *links, size_t n,
                      const fp_comp_cage *cg, size_t ncg, double route, int medium, int forced,
                      double *stock, int *kind, media_pick *pick)
{
    const fp_rspec *rs = c->rs;
    const int speed = rs->gbps[c->fab->link[links[0]].boundary];
    int legs, gbps;
    size_t hub = 0;
    double best_stock = 0;
    media_pick best = { 0, 0, -1 };
    for (size_t i = 0; i < ncg; i++)
        if (cpo_of(c->fab, rs, cg[i].dev))
            return -1;      /* a co-packaged port takes fibre only */
    if (ncg == 2 && cg[0].k == cg[1].k && (int)n <= cg[0].k) {
        legs = 1;
        gbps = speed * cg[0].k;
        *kind = n > 1 ? FP_CABLE_TWIN : FP_CABLE_STRAIGHT;
    } else if (ncg == n + 1 && n <= FP_MAX_LEGS) {
        /* A splitter: one hub cage holding every link, each far end a single-port cage. */
        size_t hubs = 0, singles = 0;
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
        gbps = speed;
        *kind = FP_CABLE_SPLIT;
    } else {
        return -1;
    }
    for (int x = 0; x < c->n_cables; x++) {
        const int i = c->cables[x];
        const fp_part_key *q = &c->pk[i];
        if ((forced >= 0 && i != forced) || q->copper != medium || q->legs != legs ||
            q->gbps != gbps)
            continue;
        const fp_part *p = &c->ps->parts[i];
        /* The cable's own end (`cage`) and its far end or legs (`leg_cage`, else the same),
         * each of the lane rate the cable carries. */
        int fits = 1;
        for (size_t k = 0; k < ncg; k++)
            fits &= port_lane_fits(c, &cg[k], q->lane_gbps);
        if (*kind == FP_CABLE_SPLIT) {
            for (size_t k = 0; k < ncg; k++)
                if (!cage_id_fits(k == hub ? q->cage : q->far, port_cage(c, &cg[k])))
                    fits = 0;
        } else {
            const int16_t t0 = port_cage(c, &cg[0]), t1 = port_cage(c, &cg[1]);
            fits &= (cage_id_fits(q->cage, t0) && cage_id_fits(q->far, t1)) ||
                    (cage_id_fits(q->cage, t1) && cage_id_fits(q->far, t0));
        }
        double s = stock_for(p, route);
        if (!fits || s < 0)
            continue;
        double cost = part_cost(p, s);
        if (pick_better(cost, p->power_w, i, &best)) {
            best = (media_pick){ cost, p->power_w, i };
            best_stock = s;
        }
    }
    *stock = best_stock;
    *pick = best;
    return best.part;
}

/* Each link's stock length of cord f into c->stock, and each cage's longest (cg[].need).
 * 0 when a route is longer than f is sold. */
static int cord_lengths(fp_cabling_ctx *c, const int32_t *links, size_t n, fp_comp_cage *cg,
                        size_t ncg, const double *route, const fp_part *f)
{
    for (size_t k = 0; k < ncg; k++)
        cg[k].need = 0;
    for (size_t i = 0; i < n; i++) {
        double s = stock_for(f, route[i]);
        if (s < 0)
            return 0;
        c->stock[i] = s;
        const fp_link *l = &c->fab->link[links[i]];
        int64_t ca = cage_of(c->cab, c->fab, c->rs, l->a, l->a_port);
        int64_t cz = cage_of(c->cab, c->fab, c->rs, l->z, l->z_port);
        for (size_t k = 0; k < ncg; k++)
            if ((cg[k].cage == ca || cg[k].cage == cz) && s > cg[k].need)
                cg[k].need = s;
    }
    return 1;
}

/* The cheapest module of class cls, lane connector conn and the cage's lane rate for every cage (cg[].mod; -1 at
 * co-packaged optics, which must match instead) that reaches its cage's longest cord within
 * the loss budget (pairs: mated connector pairs between the modules). 0 when a cage gets none. */
static int cage_modules(fp_cabling_ctx *c, fp_comp_cage *cg, size_t ncg, int cls, int16_t conn,
                        int speed, const fp_part *f, int pairs, int split)
{
    const fp_phys_spec *ps = c->ps;
    int ok = 1;
    for (size_t k = 0; k < ncg && ok; k++) {
        int best = -1;
        const int16_t ct = port_cage(c, &cg[k]);
        const fp_part *cpo = cpo_of(c->fab, c->rs, cg[k].dev);
        if (cpo) {
            /* Co-packaged optics: no module; the port's own optics must match the fibre, or
             * a split port its fan-out's legs (split: conn is that, cpo_split_conn). */
            const int t = c->fab->dev[cg[k].dev].tier;
            const int fits = split ? cg[k].k > 1
                                   : c->cpo_optic[t] == cls && c->cpo_conn[t] == conn;
            if (!fits || cpo->reach_m + 1e-9 < cg[k].need)
                ok = 0;
            cg[k].mod = -1;
            continue;
        }
        for (int y = 0; y < c->n_mods[cls]; y++) {
            const int j = c->mods[cls][y];
            const fp_part_key *q = &c->pk[j];
            if (q->lane != conn || q->ports != cg[k].k || q->gbps != speed ||
                !cage_id_fits(q->cage, ct) || !port_lane_fits(c, &cg[k], q->lane_gbps) ||
                q->reach + 1e-9 < cg[k].need)
                continue;
            const fp_part *m = &ps->parts[j];
            /* Loss budget: fibre attenuation over the longest cord on this cage plus the
             * mated pairs, against the module's (else the fibre's class) budget. */
            double budget = m->budget_db > 0 ? m->budget_db : f->budget_db;
            double loss = cg[k].need / 1000.0 * f->atten_db_per_km + pairs * f->mated_pair_db;
            if (budget > 0 && loss > budget + 1e-9) {
                c->budget_cut = 1;
                continue;
            }
            /* the cheapest, then the lowest power, then the first in catalog (id) order */
            if (best < 0 || m->price_usd < ps->parts[best].price_usd - 1e-9 ||
                (m->price_usd < ps->parts[best].price_usd + 1e-9 &&
                 m->power_w < ps->parts[best].power_w - 1e-9))
                best = j;
        }
        if (best < 0)
            ok = 0;
        cg[k].mod = (int16_t)best;
    }
    return ok;
}

/* The cost and power of the set's optics as cage_modules and cord_lengths left them: a
 * module per cage, a cord f per link at its stock length. */
static media_pick optics_cost(const fp_cabling_ctx *c, size_t n, const fp_comp_cage *cg, size_t ncg,
                              int f)
{
    const fp_phys_spec *ps = c->ps;
    media_pick m = { 0, 0, f };
    for (size_t k = 0; k < ncg; k++)
        if (cg[k].mod >= 0) {
            m.cost += ps->parts[cg[k].mod].price_usd;
            m.power += ps->parts[cg[k].mod].power_w;
        }
    for (size_t i = 0; i < n; i++)
        m.cost += part_cost(&ps->parts[f], c->stock[i]);
    return m;
}

/* A co-packaged port split k ways (a breakout) meets single-link modules through the fibre
 * plant: a fan-out of k legs whose hub is the port's connector (MPO to 4 x LC). The id of its
 * legs' connector, which the far modules and the cords take, when the catalog has one of
 * optic class cls on the port's fibre (the first in catalog order); else -1. */
static int16_t cpo_split_conn(const fp_cabling_ctx *c, int t, int k, int cls)
{
    const fp_part *m = &c->rs->tier[t - 1].model;
    for (int y = 0; y < c->ps->n_parts; y++) {
        const fp_part *f = &c->ps->parts[y];
        if (f->type == FP_PART_FIBRE && f->legs == k && c->pk[y].hub == c->cpo_conn[t] &&
            strcmp(f->fibre, m->fibre) == 0 && optic_class(f) == cls)
            return c->pk[y].conn;
    }
    return -1;
}

/* The first co-packaged end of the set's cages, or NULL; *tier its tier and *split_k the
 * links its port carries when it is split (a breakout) and the set has modules at other
 * ends, else 0. */
static const fp_part *cpo_in_set(const fp_cabling_ctx *c, const fp_comp_cage *cg, size_t ncg,
                                 int *tier, int *split_k)
{
    const fp_part *cpo = NULL;
    int k_cpo = 0, module_ends = 0;
    for (size_t k = 0; k < ncg; k++) {
        const fp_part *p = cpo_of(c->fab, c->rs, cg[k].dev);
        if (p == NULL) {
            module_ends++;
        } else if (cpo == NULL) {
            cpo = p;
            *tier = c->fab->dev[cg[k].dev].tier;
            k_cpo = cg[k].k;
        }
    }
    *split_k = cpo && k_cpo > 1 && module_ends > 0 ? k_cpo : 0;
    return cpo;
}

/* Optics of one class on every link of the set: each lane connector its modules (or a
 * co-packaged end) use and each cord of that connector, keeping the cheapest whole (modules,
 * cords at stock length; pick_better) into *best when it beats it. Leaves cg[].mod and
 * c->stock as the last one tried: rerun optics_apply for the winner. 1 when one fits. */
static int try_optics(fp_cabling_ctx *c, const int32_t *links, size_t n, fp_comp_cage *cg,
                      size_t ncg, const double *route, int cls, int forced, media_pick *best,
                      int16_t *conn_out)
{
    const fp_rspec *rs = c->rs;
    const fp_phys_spec *ps = c->ps;
    const int16_t fibre = cls == 0 ? c->mmf : c->smf;
    const int speed = rs->gbps[c->fab->link[links[0]].boundary];
    int found = 0;
    /* A co-packaged end fixes the connector: only it is tried (x = -1); a split one with
     * modules at the far ends, its fan-out's legs' (cpo_split_conn). */
    int cpo_tier = 0, split_k = 0;
    const fp_part *cpo_end = cpo_in_set(c, cg, ncg, &cpo_tier, &split_k);
    const int split = split_k > 1;
    /* Mated connector pairs between the two modules: a patch panel at each end when the
     * cabling is structured, and any the spec adds (cross-connects, cassettes). */
    const fp_link *l0 = &c->fab->link[links[0]];
    const int between = c->lay->dev_rack[l0->a] != c->lay->dev_rack[l0->z];
    const int pairs = (ps->structured && between ? 2 : 0) + ps->extra_mated_pairs;
    for (int x = -1; x < (cpo_end ? 0 : c->n_lanes[cls]); x++) {
        int16_t conn;
        if (x < 0 && split) {
            if ((conn = cpo_split_conn(c, cpo_tier, split_k, cls)) < 0)
                continue;
        } else if (x < 0) {
            if (cpo_end == NULL || c->cpo_optic[cpo_tier] != cls)
                continue;
            conn = c->cpo_conn[cpo_tier];
        } else {
            /* Each distinct lane connector of this class's modules, in catalog order. */
            conn = c->pk[c->lanes[cls][x]].lane;
        }
        for (int y = 0; y < c->n_cords; y++) {
            const int f = c->cords[y];
            if (c->pk[f].fibre != fibre || c->pk[f].conn != conn || (forced >= 0 && f != forced))
                continue;
            if (!cord_lengths(c, links, n, cg, ncg, route, &ps->parts[f]) ||
                !cage_modules(c, cg, ncg, cls, conn, speed, &ps->parts[f], pairs, split))
                continue;
            found = 1;
            media_pick m = optics_cost(c, n, cg, ncg, f);
            if (pick_better(m.cost, m.power, m.part, best)) {
                *best = m;
                *conn_out = conn;
            }
        }
    }
    return found;
}

/* The set's routes, cages and hand overrides into *s and c->route / c->cg. FP_EINVAL when two
 * overrides force different parts on links that share cages. */
static fp_status set_read(fp_cabling_ctx *c, const int32_t *links, size_t n, fp_media_set *s,
                          fp_error *err)
{
    const fp_fabric *fab = c->fab;
    const fp_rspec *rs = c->rs;
    fp_cabling *cab = c->cab;
    double ov_route = 0;
    memset(s, 0, sizeof *s);
    s->worst = links[0];
    s->forced = -1;
    for (size_t i = 0; i < n; i++) {
        const fp_link *l = &fab->link[links[i]];
        c->route[i] = cab->link_route[links[i]];
        if (c->route[i] > s->route_max) {
            s->route_max = c->route[i];
            s->worst = links[i];
        }
        const fp_override *o = c->ov_of && c->ov_of[links[i]] >= 0 ? &c->ps->ov[c->ov_of[links[i]]]
                                                                    : NULL;
        if (o && o->part >= 0) {
            if (s->forced_by && s->forced != o->part)
                FP_FAIL(err, FP_EINVAL, o->where,
                        "%s: part \"%s\" conflicts with \"%s\" given at %s: these links share "
                        "cages, so they take the same medium; give one part for both",
                        o->where, c->ps->parts[o->part].id, c->ps->parts[s->forced].id,
                        s->forced_by->where);
            s->forced = o->part;
            s->forced_by = o;
        }
        if (o && o->length_m > 0) {
            if (o->length_m > ov_route)
                ov_route = o->length_m;
            s->length_by = o;
        }
        add_cage(c, &s->ncg, cage_of(cab, fab, rs, l->a, l->a_port), l->a,
                 cage_links(fab, rs, l->a, l->a_port));
        add_cage(c, &s->ncg, cage_of(cab, fab, rs, l->z, l->z_port), l->z,
                 cage_links(fab, rs, l->z, l->z_port));
    }
    /* A length given for a copper cable is the cable's length, whichever leg it named. */
    s->cu_route = s->length_by ? ov_route : s->route_max;
    s->allowed = allowed_for(c, links, n);
    if (s->forced >= 0) {
        const fp_part *fpart = &c->ps->parts[s->forced];
        int m = fpart->type == FP_PART_CABLE ? copper_medium(fpart)
                : strcmp(fpart->fibre, "MMF") == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF;
        s->allowed = m >= 0 ? 1u << m : 0;
    }
    return FP_OK;
}

/* The cheapest copper cable for the whole set among the allowed copper media (pick_better)
 * into *best when it beats it; nothing is written. The part or -1; *medium, *stock and *kind
 * the cable's. */
static int copper_best(const fp_cabling_ctx *c, const int32_t *links, size_t n,
                       const fp_media_set *s, media_pick *best, int *medium, double *stock,
                       int *kind, media_pick *by_medium)
{
    /* Twisted pair fits only RJ45 cages, where no other copper does: its place is moot. */
    static const int copper[] = { FP_MEDIUM_DAC, FP_MEDIUM_ACC, FP_MEDIUM_AEC, FP_MEDIUM_TP };
    int part = -1;
    for (size_t x = 0; x < sizeof copper / sizeof copper[0]; x++) {
        const int m = copper[x];
        if (!(s->allowed & (1u << m)))
            continue;
        double st = 0;
        int k = FP_CABLE_STRAIGHT;
        media_pick pk;
        if (try_copper(c, links, n, c->cg, s->ncg, s->cu_route, m, s->forced, &st, &k, &pk) < 0)
            continue;
        by_medium[m] = pk;
        if (pick_better(pk.cost, pk.power, pk.part, best)) {
            *best = pk;
            part = pk.part;
            *medium = m;
            *stock = st;
            *kind = k;
        }
    }
    return part;
}

/* One copper cable part for the set, of this medium, stock length and kind. */
static void copper_apply(fp_cabling_ctx *c, const int32_t *links, size_t n, const fp_media_set *s,
                         int part, int medium, double stock, int kind)
{
    for (size_t i = 0; i < n; i++) {
        c->link_part[links[i]] = (int16_t)part;
        c->link_stock[links[i]] = (float)stock;
        c->cab->link_route[links[i]] = (float)s->cu_route;
        c->cab->link_medium[links[i]] = (uint8_t)medium;
        /* One copper cable for the set: made from its first link (cabling.c). */
        c->link_role[links[i]] = n == 1 ? LINK_OWN_CABLE : LINK_SHARED_LEG;
    }
    if (n > 1 || kind != FP_CABLE_STRAIGHT)
        c->link_role[links[0]] = LINK_SHARED_FIRST;
}

/* Optics of each allowed class (SR, DR, FR) into *best when one beats it; a class whose
 * cheapest modules alone cost more than *best is not tried. The winning class or -1; *conn
 * its lane connector. *cut: a class before the winner failed only on its loss budget. */
static int optics_best(fp_cabling_ctx *c, const int32_t *links, size_t n, const fp_media_set *s,
                       media_pick *best, int16_t *conn, int *cut, media_pick *by_medium)
{
    int win = -1, failed_cut = 0;
    size_t modules = 0;
    for (size_t k = 0; k < s->ncg; k++)
        modules += cpo_of(c->fab, c->rs, c->cg[k].dev) == NULL;
    *cut = 0;
    for (int cls = 0; cls < 3; cls++) {
        int m = cls == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF;
        /* a class that cannot beat the best, nor the best of another medium (the audit's
         * alternative), is not tried */
        double bar = best->part >= 0 ? best->cost : -1;
        for (int o = 0; o < FP_MEDIUM_COUNT && bar >= 0; o++)
            if (o != m && by_medium[o].part >= 0 && by_medium[o].cost > bar)
                bar = by_medium[o].cost;
        if (!(s->allowed & (1u << m)) || c->n_mods[cls] + (modules < s->ncg) == 0 ||
            (bar >= 0 && (double)modules * c->min_mod[cls] > bar + 1e-9))
            continue;
        c->budget_cut = 0;
        media_pick cb = { 0, 0, -1 };
        int16_t cconn = -1;
        if (!try_optics(c, links, n, c->cg, s->ncg, c->route, cls, s->forced, &cb, &cconn)) {
            failed_cut |= c->budget_cut;
            continue;
        }
        if (by_medium[m].part < 0 || pick_better(cb.cost, cb.power, cb.part, &by_medium[m]))
            by_medium[m] = cb;
        if (pick_better(cb.cost, cb.power, cb.part, best)) {
            *best = cb;
            *conn = cconn;
            win = cls;
            *cut = failed_cut;
        }
    }
    return win;
}

/* Optics of class cls, lane connector conn and cord f for the set: a module per cage and a
 * fibre per link. */
static void optics_apply(fp_cabling_ctx *c, const int32_t *links, size_t n, const fp_media_set *s,
                         int cls, int16_t conn, int f, int cut)
{
    fp_cabling *cab = c->cab;
    const fp_phys_spec *ps = c->ps;
    const fp_link *l0 = &c->fab->link[links[0]];
    const int between = c->lay->dev_rack[l0->a] != c->lay->dev_rack[l0->z];
    const int pairs = (ps->structured && between ? 2 : 0) + ps->extra_mated_pairs;
    int cpo_tier = 0, split_k = 0;
    cpo_in_set(c, c->cg, s->ncg, &cpo_tier, &split_k);
    cord_lengths(c, links, n, c->cg, s->ncg, c->route, &ps->parts[f]);
    cage_modules(c, c->cg, s->ncg, cls, conn, c->rs->gbps[l0->boundary], &ps->parts[f], pairs,
                 split_k > 1);
    if (cut)
        cab->over_budget += (int64_t)n;
    for (size_t k = 0; k < s->ncg; k++)
        cab->cage_mod[c->cg[k].cage] = c->cg[k].mod;
    const int medium = cls == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF;
    for (size_t i = 0; i < n; i++) {
        c->link_part[links[i]] = (int16_t)f;
        c->link_stock[links[i]] = (float)c->stock[i];
        cab->link_medium[links[i]] = (uint8_t)medium;
        c->link_role[links[i]] = LINK_OWN_CABLE;    /* one fibre per link */
    }
    fp__media_share_cords(c, links, n, s->ncg, f);
}

/* The set's media: the cheapest valid whole among one copper cable and the optics of each
 * class (pick_better: cost, then power, then catalog order). */
fp_status fp__media_decide(fp_cabling_ctx *c, const int32_t *links, size_t n, fp_error *err)
{
    fp_media_set s;
    fp_status rc;
    if ((rc = grow(c, n, err)) != FP_OK || (rc = set_read(c, links, n, &s, err)) != FP_OK)
        return rc;
    media_pick best = { 0, 0, -1 };
    int medium = -1, kind = FP_CABLE_STRAIGHT, cut = 0;
    int16_t conn = -1;
    double stock = 0;
    media_pick by_medium[FP_MEDIUM_COUNT];
    for (int m = 0; m < FP_MEDIUM_COUNT; m++)
        by_medium[m] = (media_pick){ 0, 0, -1 };
    const int cu = copper_best(c, links, n, &s, &best, &medium, &stock, &kind, by_medium);
    const int cls = optics_best(c, links, n, &s, &best, &conn, &cut, by_medium);
    if (cls >= 0) {
        optics_apply(c, links, n, &s, cls, conn, best.part, cut);
        medium = cls == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF;
    } else if (cu >= 0) {
        copper_apply(c, links, n, &s, cu, medium, stock, kind);
    } else {
        return fp__media_fail(c, n, &s, err);
    }
    /* The audit: the chosen medium's cost, and the cheapest other medium that fits. */
    const int b = c->fab->link[links[0]].boundary;
    int alt = -1;
    for (int m = 0; m < FP_MEDIUM_COUNT; m++)
        if (m != medium && by_medium[m].part >= 0 &&
            (alt < 0 || pick_better(by_medium[m].cost, by_medium[m].power, by_medium[m].part,
                                    &by_medium[alt])))
            alt = m;
    c->cab->audit_cost[b] += best.cost;
    if (alt >= 0) {
        c->cab->audit_alt_cost[b] += by_medium[alt].cost;
        c->cab->audit_alt_chosen[b] += best.cost;
        c->cab->audit_alt_links[b][alt] += (int64_t)n;
    }
    return FP_OK;
}

void fp__media_scratch_free(fp_cabling_ctx *c)
{
    free(c->pk);
    free(c->list);
    c->pk = NULL;
    c->list = NULL;
    free(c->route);
    free(c->cg);
    free(c->stock);
    free(c->ckey);
    free(c->cper);
    c->ckey = NULL;
    c->cper = NULL;
    c->route = NULL;
    c->cg = NULL;
    c->stock = NULL;
}
