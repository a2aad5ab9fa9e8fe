/* fabplan — why the media choice failed for a set of links, said so a user can act: the link,
 * its cages, what the catalog lacks, the longest reach the allowed media have. */
#include <string.h>
#include "phys/cabling_work.h"

static void link_label(char *buf, size_t n, const fp_cabling_ctx *c, int64_t l)
{
    char an[48], zn[48], ap[FP_PORT_NAME_MAX], zp[FP_PORT_NAME_MAX], bn[32];
    const fp_link *k = &c->fab->link[l];
    snprintf(buf, n, "L%07lld (%s: %s %s -> %s %s)", (long long)fp__link_number(c->fab, l),
             fp__boundary_name(k->boundary, bn, sizeof bn),
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
static double longest_reach(const fp_cabling_ctx *c, int64_t l, unsigned allowed,
                            const fp_part **limit)
{
    const fp_fabric *fab = c->fab;
    const fp_phys_spec *ps = c->ps;
    const fp_link *k = &fab->link[l];
    int64_t dev[2] = { k->a, k->z };
    int per[2] = { cage_links(fab, c->rs, k->a, k->a_port), cage_links(fab, c->rs, k->z, k->z_port) };
    const fp_part *cpo[2] = { cpo_of(fab, c->rs, k->a), cpo_of(fab, c->rs, k->z) };
    int gbps = c->rs->gbps[k->boundary];
    double best = 0;
    *limit = NULL;
    for (int i = 0; i < ps->n_parts; i++) {
        const fp_part *p = &ps->parts[i];
        if (!proto_ok(c->rs, p))
            continue;
        if (p->type == FP_PART_CABLE) {
            int m = copper_medium(p);
            const char *far = p->leg_cage[0] ? p->leg_cage : p->cage;
            const char *t0 = cage_type(fab, c->rs, dev[0], 1), *t1 = cage_type(fab, c->rs, dev[1], 0);
            if (m < 0 || !(allowed & (1u << m)) || cpo[0] || cpo[1] ||
                !lane_fits(p->lane_gbps, port_lane_gbps(fab, c->rs, dev[0], 1)) ||
                !lane_fits(p->lane_gbps, port_lane_gbps(fab, c->rs, dev[1], 0)) ||
                !((cage_fits(p->cage, t0) && cage_fits(far, t1)) ||
                  (cage_fits(p->cage, t1) && cage_fits(far, t0))))
                continue;
            int straight = p->legs <= 1 && per[0] == per[1] && p->port_gbps == gbps * per[0];
            int split = p->legs > 1 && p->port_gbps == gbps &&
                        (per[0] == 1 || per[1] == 1) && p->legs == (per[0] > per[1] ? per[0] : per[1]);
            if ((straight || split) && longest_stock(p) > best) {
                best = longest_stock(p);
                *limit = p;
            }
        } else if (p->type == FP_PART_FIBRE && p->legs <= 1) {
            int m = strcmp(p->fibre, "MMF") == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF;
            if (!(allowed & (1u << m)))
                continue;
            /* The best module of this fibre's type and lane connector at each end. */
            const fp_part *end_best[2] = { NULL, NULL };
            for (int e = 0; e < 2; e++) {
                if (cpo[e]) {
                    /* co-packaged optics: the switch's own ports, when they take this fibre */
                    if (strcmp(cpo[e]->fibre, p->fibre) == 0 &&
                        strcmp(cpo[e]->connector, p->connector) == 0)
                        end_best[e] = cpo[e];
                    continue;
                }
                for (int j = 0; j < ps->n_parts; j++) {
                    const fp_part *mo = &ps->parts[j];
                    if (mo->type != FP_PART_TRANSCEIVER || strcmp(mo->fibre, p->fibre) != 0 ||
                        strcmp(lane_connector(mo), p->connector) != 0 || mo->ports != per[e] ||
                        mo->port_gbps != gbps || !proto_ok(c->rs, mo) ||
                        !lane_fits(mo->lane_gbps, port_lane_gbps(fab, c->rs, dev[e], e == 0)) ||
                        !cage_fits(mo->cage, cage_type(fab, c->rs, dev[e], e == 0)))
                        continue;
                    if (end_best[e] == NULL || mo->reach_m > end_best[e]->reach_m)
                        end_best[e] = mo;
                }
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

static const char *proto_text(unsigned p)
{
    return p == FP_PROTO_IB ? "InfiniBand" : p == FP_PROTO_ETH ? "Ethernet" : "InfiniBand or Ethernet";
}

/* What the catalog lacks for link l, as text: the end whose cage no module fits ("no 200G
 * module for a QSFP112 cage holding 1 link (InfiniBand); closest: ..."), or the two ends'
 * modules that share no fibre. "" when each end has a module and some pair matches. */
static void missing_text(const fp_cabling_ctx *c, int64_t l, unsigned allowed, char *buf, size_t n)
{
    const fp_fabric *fab = c->fab;
    const fp_rspec *rs = c->rs;
    const fp_phys_spec *ps = c->ps;
    const fp_link *k = &fab->link[l];
    int64_t dev[2] = { k->a, k->z };
    int port[2] = { k->a_port, k->z_port };
    int gbps = rs->gbps[k->boundary];
    size_t w = 0;
    buf[0] = '\0';
    if (!(allowed & ((1u << FP_MEDIUM_MMF) | (1u << FP_MEDIUM_SMF))))
        return;
    const fp_part *any[2] = { NULL, NULL };
    for (int e = 0; e < 2 && w < n; e++) {
        const char *ct = cage_type(fab, rs, dev[e], e == 0);
        int per = cage_links(fab, rs, dev[e], port[e]);
        if (cpo_of(fab, rs, dev[e])) {
            any[e] = cpo_of(fab, rs, dev[e]);
            continue;
        }
        int best[3] = { -1, -1, -1 }, score[3] = { 0, 0, 0 };
        const int lane = port_lane_gbps(fab, rs, dev[e], e == 0);
        for (int j = 0; j < ps->n_parts; j++) {
            const fp_part *m = &ps->parts[j];
            int mm = m->type == FP_PART_TRANSCEIVER ? (optic_class(m) == 0 ? FP_MEDIUM_MMF : FP_MEDIUM_SMF) : -1;
            if (mm < 0 || !(allowed & (1u << mm)) || !proto_ok(rs, m))
                continue;
            int sc = 2 * cage_fits(m->cage, ct) + (m->port_gbps == gbps) + (m->ports == per) +
                     lane_fits(m->lane_gbps, lane);
            if (sc == 5) {
                any[e] = m;
                break;
            }
            for (int q = 0; q < 3; q++)
                if (sc > score[q]) {
                    for (int r = 2; r > q; r--) {
                        best[r] = best[r - 1];
                        score[r] = score[r - 1];
                    }
                    best[q] = j;
                    score[q] = sc;
                    break;
                }
        }
        if (any[e])
            continue;
        char lanes[32] = "";
        if (lane > 0)
            snprintf(lanes, sizeof lanes, " on %dG lanes", lane);
        w += (size_t)snprintf(buf + w, n - w, "%sno %dG module for a%s %s cage holding %d link%s%s (%s)",
                              w ? "; " : "", gbps, ct[0] == 'O' ? "n" : "", ct[0] ? ct : "(any)",
                              per, per == 1 ? "" : "s", lanes, proto_text(rs->protocols));
        for (int q = 0; q < 3 && best[q] >= 0 && w < n; q++) {
            const fp_part *m = &ps->parts[best[q]];
            w += (size_t)snprintf(buf + w, n - w, "%s%s (%d x %dG, %s, %dG lanes)",
                                  q ? ", " : "; closest: ", m->id, m->ports, m->port_gbps,
                                  m->cage, m->lane_gbps);
        }
    }
    if (w == 0 && any[0] && any[1])
        snprintf(buf, n, "modules fit both ends (e.g. %s, %s %s, and %s, %s %s) but no pair shares a fibre type and connector",
                 any[0]->id, any[0]->fibre, lane_connector(any[0]), any[1]->id, any[1]->fibre,
                 lane_connector(any[1]));
}

fp_status fp__media_fail(const fp_cabling_ctx *c, size_t n, const fp_media_set *s, fp_error *err)
{
    const fp_fabric *fab = c->fab;
    const fp_rspec *rs = c->rs;
    char what[200], where[16];
    const fp_part *limit;
    double reach = longest_reach(c, s->worst, s->allowed, &limit);
    link_label(what, sizeof what, c, s->worst);
    snprintf(where, sizeof where, "L%07lld", (long long)fp__link_number(fab, s->worst));
    if (s->forced >= 0) {
        const fp_part *fpart = &c->ps->parts[s->forced];
        double r = fpart->type == FP_PART_CABLE ? s->cu_route : s->route_max;
        const fp_link *wl = &fab->link[s->worst];
        int ka = cage_links(fab, rs, wl->a, wl->a_port), kz = cage_links(fab, rs, wl->z, wl->z_port);
        FP_FAIL(err, FP_EDESIGN, s->forced_by->where,
                "%s/part: \"%s\" cannot serve link %s: expected a part that fits its %s and %s "
                "cages (%d and %d link%s per cage at %dG) and reaches its %.2f m route; %s %s",
                s->forced_by->where, fpart->id, what, cage_word(c->fab, c->rs, wl->a, 1),
                cage_word(c->fab, c->rs, wl->z, 0), ka, kz, kz == 1 ? "" : "s",
                rs->gbps[wl->boundary], r, fpart->id,
                fpart->type == FP_PART_CABLE && longest_stock(fpart) + 1e-9 < r
                    ? "is not sold that long"
                    : "does not fit these cages and speeds, or no module pair for it reaches that far");
    }
    if (limit == NULL) {
        const fp_link *wl = &c->fab->link[s->worst];
        /* A part of a medium the policy leaves out fits (RJ45 ports: only twisted pair does):
         * say that, not which optics do not fit. */
        const fp_part *other;
        longest_reach(c, s->worst, (1u << FP_MEDIUM_COUNT) - 1, &other);
        if (other != NULL) {
            const int cu = copper_medium(other);
            const char *med = cu >= 0 ? fp_medium_name((fp_medium)cu) : other->fibre;
            char bn[32];
            fp__boundary_name(wl->boundary, bn, sizeof bn);
            FP_FAIL(err, FP_EDESIGN, "/media",
                    "/media: link %s: no allowed medium fits its %s and %s cages; the media "
                    "allowed at %s leave out medium %s, which %s fits; expected %s in the list for "
                    "%s (or \"default\"), or a part of an allowed medium for these cages in the "
                    "catalog (--catalog FILE)",
                    what, cage_word(fab, rs, wl->a, 1), cage_word(fab, rs, wl->z, 0), bn, med,
                    other->id, med, bn);
        }
        /* Ends of different lane rates: no cable joins them, and the catalog has no module
         * pair that converts between them. Say so, with where each rate comes from. */
        const int la = port_lane_gbps(fab, rs, wl->a, 1), lz = port_lane_gbps(fab, rs, wl->z, 0);
        if (la > 0 && lz > 0 && la != lz) {
            const int ta = fab->dev[wl->a].tier, tz = fab->dev[wl->z].tier;
            const fp_part *pa = ta == 0 ? &rs->nic : &rs->tier[ta - 1].model;
            const fp_part *pz = &rs->tier[tz - 1].model;
            const int g = rs->gbps[wl->boundary];
            FP_FAIL(err, FP_EDESIGN, where,
                    "link %s: %s runs %dG on %d x %dG lanes (%s); %s on %d x %dG (%s): no catalog "
                    "cable or module pair joins these host interfaces; choose parts of one lane "
                    "rate or add such parts (--catalog FILE)",
                    what, pa->id, g, g / la, la, pa->lane_source, pz->id, g / lz, lz,
                    pz->lane_source);
        }
        char missing[600];
        missing_text(c, s->worst, s->allowed, missing, sizeof missing);
        FP_FAIL(err, FP_EDESIGN, where,
                "link %s: no allowed catalog part fits its ports (%s %s cage on the %s side, %s %s "
                "cage on the %s side, %zu link%s sharing these cages at %dG, %s) for its %.2f m "
                "route%s%s; add a matching transceiver or cable to the catalog (--catalog FILE) or "
                "allow another medium",
                what, article(cage_word(c->fab, c->rs, wl->a, 1)), cage_word(c->fab, c->rs, wl->a, 1),
                wl->a < fab->servers ? "NIC" : fp__tier_role(c->fab->dev[wl->a].tier),
                article(cage_word(c->fab, c->rs, wl->z, 0)), cage_word(c->fab, c->rs, wl->z, 0),
                fp__tier_role(c->fab->dev[wl->z].tier),
                n, n == 1 ? "" : "s", rs->gbps[wl->boundary], proto_text(rs->protocols), s->route_max,
                missing[0] ? ": " : "", missing);
    }
    if (s->length_by && s->length_by->length_m + 1e-9 >= s->route_max && reach < s->length_by->length_m)
        FP_FAIL(err, FP_EDESIGN, s->length_by->where,
                "%s/length_m: link %s: expected a length within reach of an allowed medium, found "
                "%g m; the longest reach available is %g m for its ports (%s)",
                s->length_by->where, what, s->length_by->length_m, reach, limit->id);
    if (reach >= s->route_max)
        FP_FAIL(err, FP_EDESIGN, where,
                "link %s: no allowed catalog part serves the %zu links sharing its cages for its "
                "%.2f m route, though %s reaches %g m; allow another medium or add a matching part "
                "(--catalog FILE)",
                what, n, s->route_max, limit->id, reach);
    FP_FAIL(err, FP_EDESIGN, where,
            "link %s: its %.2f m route is beyond every allowed medium; the longest reach available is %g m for its ports (%s)",
            what, s->route_max, reach, limit->id);
}
