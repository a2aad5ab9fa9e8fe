/* fabplan — cable building: routes and lengths, the sets of cages decided together, hand
 * overrides, cables and their ids, and each rack's power and cables leaving it. Which medium
 * and parts each set takes is media.c's choice. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/cabling_work.h"

#define U_M 0.04445     /* one rack unit in metres */

/* ---- cages ---- */

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
        return cage / (rs->nics_per_server * nic_cages(rs));
    return fab->tier_base[t] + (cage - cab->cage_base[t]) / cages_per_switch(&rs->tier[t - 1]);
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

static fp_status attach_override(fp_cabling_ctx *c, int64_t l, int32_t i, fp_error *err)
{
    const fp_override *o = &c->ps->ov[i];
    if (c->ov_of[l] >= 0 && c->ov_of[l] != i)
        FP_FAIL(err, FP_EINVAL, o->where,
                "%s: link L%07lld is already overridden at %s; expected one override per cable",
                o->where, (long long)fp__link_number(c->fab, l), c->ps->ov[c->ov_of[l]].where);
    c->ov_of[l] = i;
    return FP_OK;
}

static fp_status apply_overrides(fp_cabling_ctx *c, fp_error *err)
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
        int64_t l = sscanf(o->cable, "C%lld%c", &num, &tail) == 1 ? fp__link_by_number(fab, num) : -1;
        if (l >= 0) {
            if ((rc = attach_override(c, l, i, err)) != FP_OK)
                goto out;
            matched[i] = 1;
        }
    }
    if (n_ends > 0) {
        qsort(keys, (size_t)n_ends, sizeof *keys, end_key_cmp);
        char an[48], zn[48], ap[FP_PORT_NAME_MAX], zp[FP_PORT_NAME_MAX], a[96], z[96];
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
                                   "%s: no cable \"%s\" in this plan; expected an id from "
                                   "cables.csv (C0000001 to C%07lld, a cable is named after its "
                                   "first link)",
                                   o->where, o->cable, (long long)fp__link_numbers(fab));
            else
                rc = fp__error_set(err, FP_EINVAL, o->where,
                                   "%s: no link between \"%s\" and \"%s\" in this plan; expected "
                                   "\"device port\" names as in cables.csv (e.g. \"su01-node-01 "
                                   "nic1\")",
                                   o->where, o->a, o->z);
            goto out;
        }
out:
    free(matched);
    free(keys);
    return rc;
}

/* A cable id override must name a cable, not the second leg of a shared one. */
static fp_status check_override_ids(const fp_cabling_ctx *c, fp_error *err)
{
    for (int i = 0; i < c->ps->n_ov; i++) {
        const fp_override *o = &c->ps->ov[i];
        long long num = 0;
        if (o->cable[0] == '\0' || sscanf(o->cable, "C%lld", &num) != 1)
            continue;
        int64_t l = fp__link_by_number(c->fab, num);
        const fp_cable *cb = &c->cab->cable[c->cab->link_cable[l]];
        int32_t first = c->cab->cable_links[cb->first];
        long long n_first = (long long)fp__link_number(c->fab, first);
        if (first != l)
            FP_FAIL(err, FP_EINVAL, o->where,
                    "%s: no cable \"%s\" in this plan: link L%07lld is a leg of cable C%07lld; expected \"C%07lld\"",
                    o->where, o->cable, num, n_first, n_first);
    }
    return FP_OK;
}

/* ---- build ---- */

static fp_status make_cables(fp_cabling_ctx *c, const int32_t *comp_start,
                             const int32_t *comp_links, const int32_t *link_root, fp_error *err)
{
    fp_cabling *cab = c->cab;
    const fp_fabric *fab = c->fab;
    int64_t n = 0;
    for (int64_t l = 0; l < fab->n_link; l++)
        if (c->link_role[l] == LINK_OWN_CABLE || c->link_role[l] == LINK_SHARED_FIRST)
            n++;
    cab->cable = calloc((size_t)(n ? n : 1), sizeof *cab->cable);
    cab->cable_links = malloc((size_t)(fab->n_link ? fab->n_link : 1) * sizeof *cab->cable_links);
    if (cab->cable == NULL || cab->cable_links == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for %lld cables", (long long)n);
    int64_t ci = 0, off = 0;
    for (int64_t l = 0; l < fab->n_link; l++) {
        uint8_t role = c->link_role[l];
        if (role != LINK_OWN_CABLE && role != LINK_SHARED_FIRST)
            continue;
        fp_cable *cb = &cab->cable[ci];
        cb->first = (int32_t)off;
        cb->medium = cab->link_medium[l];
        cb->part = c->link_part[l];
        cb->connector = (uint8_t)fp__part_connector(&c->ps->parts[cb->part]);
        cb->trunk_part = -1;
        cb->stock_m = c->link_stock[l];
        cb->kind = FP_CABLE_STRAIGHT;
        if (role == LINK_OWN_CABLE) {
            cab->cable_links[off++] = (int32_t)l;
            cb->n_links = 1;
            cb->route_m = cab->link_route[l];
        } else {
            int32_t r = link_root[l];
            float route = 0;
            const fp_part *p = &c->ps->parts[cb->part];
            /* A fibre cord shared by links (a fan-out): its own links, chained by media.c; a
             * copper cable: every link of its set of cages. */
            const int fibre = p->type == FP_PART_FIBRE;
            for (int32_t i = fibre ? (int32_t)l : comp_start[r];
                 fibre ? i >= 0 : i < comp_start[r + 1]; i = fibre ? c->link_next[i] : i + 1) {
                int32_t k = fibre ? i : comp_links[i];
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
int fp__split_hub_is_z(const fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs,
                       const int32_t *links, int n_links)
{
    const fp_link *l0 = &fab->link[links[0]];
    if (n_links > 1) {
        const fp_link *l1 = &fab->link[links[1]];
        return cage_of(cab, fab, rs, l1->z, l1->z_port) == cage_of(cab, fab, rs, l0->z, l0->z_port);
    }
    /* One leg in use: the hub is the end whose cage carries several links. */
    return cage_links(fab, rs, l0->z, l0->z_port) > 1;
}

/* Power per rack (servers, switches, modules, powered cables) and cables leaving each rack.
 * A powered cable (DAC, ACC, AEC) draws from the cage at each of its ends, so its power is
 * shared evenly by its ends: half at each end of a straight cable, one part in (legs + 1) at
 * the hub and at each leg of a splitter. */
static fp_status rack_totals(const fp_cabling_ctx *c, fp_error *err)
{
    const fp_fabric *fab = c->fab;
    const fp_rspec *rs = c->rs;
    const fp_layout *lay = c->lay;
    fp_cabling *cab = c->cab;
    double *power = cab->rack_power_w = calloc((size_t)(lay->n_rack ? lay->n_rack : 1), sizeof *power);
    int64_t *leaving = cab->rack_cables_leaving =
        calloc((size_t)(lay->n_rack ? lay->n_rack : 1), sizeof *leaving);
    if (power == NULL || leaving == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for rack totals");
    for (int64_t d = 0; d < fab->n_dev; d++) {
        int t = fab->dev[d].tier;
        if (fp__net_is_alias(fab, d))
            continue;           /* another network's device: its power is that network's */
        power[lay->dev_rack[d]] += t == 0 ? c->ps->server_power_w
                                                      : rs->tier[t - 1].model.power_w;
        /* a compute rack's fixtures, counted with its first server (the one in the lowest
         * server units) */
        if (t == 0 && lay->dev_u[d] == c->ps->server_u[0])
            power[lay->dev_rack[d]] += c->ps->fixture_power_w;
    }
    for (int64_t g = 0; g < cab->n_cage; g++)
        if (cab->cage_mod[g] >= 0)
            power[lay->dev_rack[cage_device(cab, fab, rs, g)]] +=
                c->ps->parts[cab->cage_mod[g]].power_w;
    for (int64_t i = 0; i < cab->n_cable; i++) {
        const fp_cable *cb = &cab->cable[i];
        const int32_t *links = cab->cable_links + cb->first;
        const fp_link *l0 = &fab->link[links[0]];
        /* The racks of the cable's ends: A first, then every Z leg. */
        int32_t ends[FP_MAX_LEGS + 1];
        int n_ends = 0;
        if (cb->kind == FP_CABLE_SPLIT) {
            int hub_z = fp__split_hub_is_z(cab, fab, rs, links, cb->n_links);
            ends[n_ends++] = lay->dev_rack[hub_z ? l0->z : l0->a];
            for (int k = 0; k < cb->n_links && n_ends <= FP_MAX_LEGS; k++) {
                const fp_link *l = &fab->link[links[k]];
                ends[n_ends++] = lay->dev_rack[hub_z ? l->a : l->z];
            }
        } else {
            ends[n_ends++] = lay->dev_rack[l0->a];
            ends[n_ends++] = lay->dev_rack[l0->z];
        }
        if (fp__medium_copper(cb->medium))
            for (int e = 0; e < n_ends; e++)
                power[ends[e]] += c->ps->parts[cb->part].power_w / n_ends;
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
                leaving[racks[j]]++;
    }
    for (int64_t i = 0; i < lay->n_rack; i++)
        power[i] = round(power[i] * 100) / 100;
    return FP_OK;
}

/* Cages per tier (cab->cage_base, per_cage) and their total. */
static int64_t count_cages(fp_cabling *cab, const fp_fabric *fab, const fp_rspec *rs)
{
    cab->per_cage[0] = rs->nic_per_cage;
    cab->cage_base[0] = 0;
    int64_t n_cage = fab->servers * rs->nics_per_server * nic_cages(rs);
    for (int t = 1; t <= fab->tiers; t++) {
        const fp_tier_spec *ts = &rs->tier[t - 1];
        int cages = cages_per_switch(ts);
        cab->per_cage[t] = ts->per_cage * ts->breakout;    /* the down side's (cage_links) */
        cab->cage_base[t] = n_cage;
        n_cage += fab->level[t].switches * fab->planes * cages;
    }
    cab->n_cage = n_cage;
    return n_cage;
}

/* Every link's route (an override's length when given), and the sets of links whose cages
 * connect (union-find over parent, one entry per cage): set r holds
 * comp_links[comp_start[r] .. comp_start[r + 1]), in link order; link_root[l] is l's set. */
static void group_links(fp_cabling_ctx *c, int32_t *parent, int32_t *comp_start,
                        int32_t *comp_links, int32_t *link_root)
{
    fp_cabling *cab = c->cab;
    const fp_fabric *fab = c->fab;
    const fp_rspec *rs = c->rs;
    for (int64_t l = 0; l < fab->n_link; l++) {
        const fp_link *k = &fab->link[l];
        cab->link_route[l] = c->ov_of && c->ov_of[l] >= 0 && c->ps->ov[c->ov_of[l]].length_m > 0
                                 ? (float)c->ps->ov[c->ov_of[l]].length_m
                                 : (float)route_length(c->lay, c->ps, k->a, k->z);
        uf_join(parent, (int32_t)cage_of(cab, fab, rs, k->a, k->a_port),
                (int32_t)cage_of(cab, fab, rs, k->z, k->z_port));
    }
    /* A length override on one link of a shared cable covers the cable. */
    for (int64_t l = 0; l < fab->n_link; l++) {
        link_root[l] = uf_find(parent, (int32_t)cage_of(cab, fab, rs, fab->link[l].a,
                                                        fab->link[l].a_port));
        comp_start[link_root[l] + 1]++;
    }
    for (int64_t g = 0; g < cab->n_cage; g++)
        comp_start[g + 1] += comp_start[g];
    int32_t *fill = parent;     /* reuse: union-find is done */
    for (int64_t g = 0; g < cab->n_cage; g++)
        fill[g] = comp_start[g];
    for (int64_t l = 0; l < fab->n_link; l++)
        comp_links[fill[link_root[l]]++] = (int32_t)l;
}

/* Media for every link still undecided, a connected group of links (comp_links of its root)
 * at a time. */
static fp_status decide_groups(fp_cabling_ctx *c, const int32_t *comp_start,
                               const int32_t *comp_links, const int32_t *link_root, fp_error *err)
{
    fp_status rc;
    for (int64_t l = 0; l < c->fab->n_link; l++) {
        if (c->link_role[l] != LINK_UNDECIDED)
            continue;
        int32_t r = link_root[l];
        if ((rc = fp__media_decide(c, comp_links + comp_start[r], (size_t)(comp_start[r + 1] - comp_start[r]),
                         err)) != FP_OK)
            return rc;
    }
    return FP_OK;
}

/* The plan's note on links moved to a longer-reach optic class by the optical budget. */
static void budget_note(fp_cabling *cab, const fp_rspec *rs)
{
    if (cab->over_budget > 0)
        snprintf(cab->note, sizeof cab->note,
                 "optical budget: %lld links moved to a longer-reach optic class because fibre "
                 "loss plus %d mated connector pair%s per link passed the shorter class's channel "
                 "budget",
                 (long long)cab->over_budget, (rs->phys.structured ? 2 : 0) + rs->phys.extra_mated_pairs,
                 (rs->phys.structured ? 2 : 0) + rs->phys.extra_mated_pairs == 1 ? "" : "s");
}

fp_status fp__cabling_build(fp_cabling *cab, const fp_layout *lay, const fp_fabric *fab,
                            const fp_rspec *rs, fp_error *err)
{
    fp_cabling_ctx c;
    fp_status rc = FP_OK;
    int32_t *parent = NULL, *comp_start = NULL, *comp_links = NULL, *link_root = NULL;
    memset(cab, 0, sizeof *cab);
    memset(&c, 0, sizeof c);
    c.cab = cab;
    c.lay = lay;
    c.fab = fab;
    c.rs = rs;
    c.ps = &rs->phys;

    int64_t n_cage = count_cages(cab, fab, rs);
    size_t nl = (size_t)(fab->n_link ? fab->n_link : 1);
    cab->cage_mod = malloc((size_t)n_cage * sizeof *cab->cage_mod);
    cab->link_cable = malloc(nl * sizeof *cab->link_cable);
    cab->link_medium = calloc(nl, sizeof *cab->link_medium);
    cab->link_route = malloc(nl * sizeof *cab->link_route);
    c.link_part = malloc(nl * sizeof *c.link_part);
    c.link_stock = malloc(nl * sizeof *c.link_stock);
    c.link_role = calloc(nl, sizeof *c.link_role);
    c.link_next = malloc(nl * sizeof *c.link_next);
    parent = malloc((size_t)n_cage * sizeof *parent);
    comp_start = calloc((size_t)n_cage + 1, sizeof *comp_start);
    comp_links = malloc(nl * sizeof *comp_links);
    link_root = malloc(nl * sizeof *link_root);
    if (!cab->cage_mod || !cab->link_cable || !cab->link_medium || !cab->link_route ||
        !c.link_part || !c.link_stock || !c.link_role || !c.link_next || !parent || !comp_start || !comp_links || !link_root) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for cabling");
        goto out;
    }
    for (int64_t g = 0; g < n_cage; g++) {
        cab->cage_mod[g] = -1;
        parent[g] = (int32_t)g;
    }
    for (int64_t l = 0; l < fab->n_link; l++)
        c.link_next[l] = -1;
    if ((rc = fp__media_prepare(&c, err)) != FP_OK ||
        (c.ps->n_ov > 0 && (rc = apply_overrides(&c, err)) != FP_OK))
        goto out;

    group_links(&c, parent, comp_start, comp_links, link_root);
    if ((rc = decide_groups(&c, comp_start, comp_links, link_root, err)) != FP_OK ||
        (rc = make_cables(&c, comp_start, comp_links, link_root, err)) != FP_OK ||
        (c.ov_of && (rc = check_override_ids(&c, err)) != FP_OK))
        goto out;
    for (int64_t l = 0; l < fab->n_link; l++)
        cab->by_medium[fab->link[l].boundary][cab->link_medium[l]]++;
    budget_note(cab, rs);
    if (rs->phys.structured && (rc = fp__structured_build(cab, lay, fab, rs, err)) != FP_OK)
        goto out;
    if ((rc = rack_totals(&c, err)) == FP_OK)
        rc = fp__tray_fill(cab, lay, fab, err);
out:
    free(parent);
    free(comp_start);
    free(comp_links);
    free(link_root);
    free(c.link_part);
    free(c.link_stock);
    free(c.link_role);
    free(c.link_next);
    free(c.ov_of);
    fp__media_scratch_free(&c);
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
    free(cab->seg);
    free(cab->tray_cables);
    free(cab->tray_area_mm2);
    free(cab->tray_rack);
    free(cab->seg_stock);
    free(cab->struct_qty);
    free(cab->rack_panels);
    free(cab->rack_panel_u);
    free(cab->rack_power_w);
    free(cab->rack_cables_leaving);
    memset(cab, 0, sizeof *cab);
}
