/* fabplan — media choice, fibre cords as built: links whose modules share a lane connector
 * share one cord (a straight multi-fibre cord, or a fan-out to single-port modules). */
#include <string.h>
#include "phys/cabling_work.h"

/* Lane connectors on a module: "2xMPO-12/APC" has 2, "MPO-12/APC" 1. */
static int lane_connectors(const fp_part *p)
{
    const char *c = p->connector;
    return c[0] >= '2' && c[0] <= '9' && c[1] == 'x' ? c[0] - '0' : 1;
}

/* 0-based place of (dev, port) among the links its cage carries: a NIC cage's ports in order;
 * a switch cage's physical ports in order, each port's lanes in order. */
static int cage_slot(const fp_cabling_ctx *c, int64_t dev, int port)
{
    int t = c->fab->dev[dev].tier, lane, ways;
    if (t == 0)
        return port % c->rs->nic_per_cage;
    const fp_tier_spec *ts = &c->rs->tier[t - 1];
    int phys = fp__switch_phys(c->fab, c->rs, t - 1, port, &lane, &ways);
    return (phys % ts->per_cage) * ways + lane;
}

/* Links that share the lane connector of (dev, port)'s module (1 when the connector is the
 * port's own), or the connector of a co-packaged port (all the links of a split port: one
 * MPO), and in *key that connector (cage x 16 + connector); in *hub the connector's id. */
static int connector_of(const fp_cabling_ctx *c, size_t ncg, int64_t dev, int port, int64_t *key,
                        int16_t *hub)
{
    int64_t cage = cage_of(c->cab, c->fab, c->rs, dev, port);
    int mod = -1, links = 1;
    *key = -1;
    for (size_t k = 0; k < ncg; k++)
        if (c->cg[k].cage == cage) {
            mod = c->cg[k].mod;
            links = c->cg[k].k;
        }
    if (cpo_of(c->fab, c->rs, dev)) {
        *hub = c->cpo_conn[c->fab->dev[dev].tier];
        if (links > 1)
            *key = cage * 16;
        return links;
    }
    *hub = mod >= 0 ? c->pk[mod].lane : -1;
    if (mod < 0)
        return 1;
    const fp_part *m = &c->ps->parts[mod];
    int nc = lane_connectors(m), per = m->ports % nc == 0 ? m->ports / nc : 1;
    if (per <= 1)
        return 1;
    *key = cage * 16 + cage_slot(c, dev, port) / per;
    return per;
}

/* After optics are chosen (each link its own cord so far): links that share one lane connector
 * of a module, or one split co-packaged port, share one cord, as built. A 4 x 200G twin-port
 * OSFP has 2 MPO connectors of 2 links each: to single-port 200G modules each connector takes a
 * 1:2 fan-out (a fibre part with "legs": 2) - 2 cords for the cage's 4 links, not 4; an SN6810
 * port split 4 x 200G takes one MPO to 4 x LC fan-out ("hub_connector"); when both ends'
 * connectors carry the same links, one straight cord carries them all. Other shapes (a connector's links to
 * connectors that carry other links too, no fan-out part of that many legs and reach) keep one
 * cord per link. Structured cabling patches each link through its panels and is left alone. */
void fp__media_share_cords(fp_cabling_ctx *c, const int32_t *links, size_t n, size_t ncg,
                           int straight)
{
    const fp_phys_spec *ps = c->ps;
    const fp_part *sf = &ps->parts[straight];
    if (ps->structured)
        return;
    /* Each link's connectors once (the modules are chosen; links only change role below). */
    int16_t hub;
    for (size_t i = 0; i < n; i++) {
        const fp_link *l = &c->fab->link[links[i]];
        c->cper[2 * i] = connector_of(c, ncg, l->a, l->a_port, &c->ckey[2 * i], &hub);
        c->cper[2 * i + 1] = connector_of(c, ncg, l->z, l->z_port, &c->ckey[2 * i + 1], &hub);
    }
    for (size_t i = 0; i < n; i++) {
        if (c->link_role[links[i]] != LINK_OWN_CABLE)
            continue;
        const int pa = c->cper[2 * i], pz = c->cper[2 * i + 1];
        const int64_t ka = c->ckey[2 * i], kz = c->ckey[2 * i + 1];
        if (pa <= 1 && pz <= 1)
            continue;
        /* The group: this link and the later ones of the set on the same connector (the hub's,
         * or the A end's when both ends share connectors). */
        const int hub_z = pa <= 1;
        const int64_t key = hub_z ? kz : ka;
        int32_t grp[FP_MAX_LEGS];
        int g = 0, same_far = 1;
        double need = 0;
        for (size_t j = i; j < n; j++) {
            const int64_t ja = c->ckey[2 * j], jz = c->ckey[2 * j + 1];
            if (c->link_role[links[j]] != LINK_OWN_CABLE)
                continue;
            if ((hub_z ? jz : ja) != key)
                continue;
            if (g == FP_MAX_LEGS)
                return;     /* more links on one connector than a cable holds: leave them */
            same_far &= jz == kz;
            grp[g++] = links[j];
            if (c->cab->link_route[links[j]] > need)
                need = c->cab->link_route[links[j]];
        }
        if (g < 2)
            continue;
        int part = -1;
        double stock = 0;
        if (pa > 1 && pz > 1) {
            /* both ends share connectors: one straight cord when they hold the same links */
            if (!same_far || pa != pz || g != pa)
                continue;
            part = straight;
            stock = stock_for(sf, need);
        } else {
            /* a fan-out whose hub takes the hub end's connector (a module's lane connector,
             * or a co-packaged port's) and whose legs the straight cord's */
            const fp_link *l = &c->fab->link[links[i]];
            int64_t k_hub;
            connector_of(c, ncg, hub_z ? l->z : l->a, hub_z ? l->z_port : l->a_port, &k_hub, &hub);
            for (int j = 0; j < ps->n_parts; j++) {
                const fp_part *f = &ps->parts[j];
                double s;
                if (f->type != FP_PART_FIBRE || f->legs != (hub_z ? pz : pa) ||
                    c->pk[j].fibre != c->pk[straight].fibre || c->pk[j].conn != c->pk[straight].conn ||
                    c->pk[j].hub != hub || (s = stock_for(f, need)) < 0)
                    continue;
                if (part < 0 || part_cost(f, s) < part_cost(&ps->parts[part], stock) - 1e-9) {
                    part = j;
                    stock = s;
                }
            }
        }
        if (part < 0 || stock < 0)
            continue;
        for (int k = 0; k < g; k++) {
            c->link_part[grp[k]] = (int16_t)part;
            c->link_stock[grp[k]] = (float)stock;
            c->link_role[grp[k]] = k == 0 ? LINK_SHARED_FIRST : LINK_SHARED_LEG;
            c->link_next[grp[k]] = k + 1 < g ? grp[k + 1] : -1;
        }
    }
}
