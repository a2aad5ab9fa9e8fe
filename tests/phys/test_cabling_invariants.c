/* Cabling invariants, checked link by link through the public API on several kinds of plan.
 *
 * Nothing here trusts the library's own bookkeeping: every figure is recounted from the cables
 * (fp_plan_cable), the links (fp_plan_link), the racks and the catalog parts:
 * - each link is carried by exactly one cable and each cable's legs list exactly its links;
 * - cable ids are unique; stock length >= route, is a stock length of the part, within its
 *   reach and within the reach of the modules at both ends;
 * - the route equals the documented formula (docs/layout.md) recomputed from rack positions;
 * - modules fit their cages, speed and port count; fibre type and lane connector match the
 *   modules at both ends; copper has no modules; each cage holds one module for all its links;
 * - totals.transceivers = distinct cages holding a module; BOM lines = recount (+ spares);
 * - labels at every end start with the cable id and name every far end;
 * - racks: no two devices overlap in U, units and device counts add up, power = servers +
 *   switches + modules in the rack + a powered cable's power shared evenly by its ends. */
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"

typedef struct params {
    int rack_units, server_ru, nics_per_server;
    double server_w, tray, loop, slack_pct;
    double spares[5];       /* switch, nic, transceiver, copper, fibre */
} params;

static const params DEFAULTS = { 42, 8, 8, 10200, 0.3, 0.3, 5, { 0, 0, 0.02, 0.02, 0.02 } };

typedef struct ctx {
    const fp_plan *p;
    const fp_catalog *cat;
    params pr;
    size_t n_dev, n_link, n_cable, n_rack;
    fp_device_info *dev;
    const fp_part **dev_part;   /* switch model or NIC part */
    int *per_cage;              /* per device: links sharing one cage */
    fp_location *loc;
    int64_t *dev_rack;          /* rack index of each device */
    fp_rack_info *rack;
} ctx;

static const fp_part *part(const ctx *c, const char *id)
{
    const fp_part *p = fp_catalog_find(c->cat, id);
    cr_assert_not_null(p, "part %s is not in the catalog", id);
    return p;
}

static int64_t rack_index(const ctx *c, const fp_location *l)
{
    /* Racks are in floor order (hall, row, rack): binary search. */
    size_t lo = 0, hi = c->n_rack;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const fp_rack_info *r = &c->rack[mid];
        long long kr = ((long long)r->hall << 40) | ((long long)r->row << 20) | r->rack;
        long long kl = ((long long)l->hall << 40) | ((long long)l->row << 20) | l->rack;
        if (kr == kl)
            return (int64_t)mid;
        if (kr < kl)
            lo = mid + 1;
        else
            hi = mid;
    }
    cr_assert_fail("no rack for %s", l->text);
    return -1;
}

static void load(ctx *c, const fp_plan *p, const fp_catalog *cat, const params *pr)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->cat = cat;
    c->pr = *pr;
    c->n_dev = fp_plan_device_count(p);
    c->n_link = fp_plan_link_count(p);
    c->n_cable = fp_plan_cable_count(p);
    c->n_rack = fp_plan_rack_count(p);
    c->dev = calloc(c->n_dev, sizeof *c->dev);
    c->dev_part = calloc(c->n_dev, sizeof *c->dev_part);
    c->per_cage = calloc(c->n_dev, sizeof *c->per_cage);
    c->loc = calloc(c->n_dev, sizeof *c->loc);
    c->dev_rack = calloc(c->n_dev, sizeof *c->dev_rack);
    c->rack = calloc(c->n_rack, sizeof *c->rack);
    cr_assert(c->dev && c->dev_part && c->per_cage && c->loc && c->dev_rack && c->rack);
    for (size_t i = 0; i < c->n_rack; i++)
        cr_assert_eq(fp_plan_rack(p, i, &c->rack[i], NULL), FP_OK);
    for (size_t d = 0; d < c->n_dev; d++) {
        cr_assert_eq(fp_plan_device(p, d, &c->dev[d], NULL), FP_OK);
        cr_assert_eq(fp_plan_device_location(p, d, &c->loc[d], NULL), FP_OK);
        c->dev_part[d] = part(c, c->dev[d].model);
        c->dev_rack[d] = rack_index(c, &c->loc[d]);
        if (c->dev[d].tier == 0) {
            /* NIC ports share a cage as the NIC part says (ports / cages) */
            c->per_cage[d] = c->dev_part[d]->ports /
                             (c->dev_part[d]->cages > 0 ? c->dev_part[d]->cages : c->dev_part[d]->ports);
        } else {
            fp_tier_info t;
            cr_assert_eq(fp_plan_tier(p, (size_t)c->dev[d].tier - 1, &t, NULL), FP_OK);
            int cages = c->dev_part[d]->cages > 0 ? c->dev_part[d]->cages : c->dev_part[d]->ports;
            cr_assert_eq(t.ports_per_switch % cages, 0);
            c->per_cage[d] = t.ports_per_switch / cages;
        }
    }
}

static void unload(ctx *c)
{
    free(c->dev);
    free(c->dev_part);
    free(c->per_cage);
    free(c->loc);
    free(c->dev_rack);
    free(c->rack);
}

static int device_ru(const ctx *c, size_t d)
{
    return c->dev[d].tier == 0 ? c->pr.server_ru : (c->dev_part[d]->ru > 0 ? c->dev_part[d]->ru : 1);
}

/* docs/layout.md "Routes", from rack positions and U. */
static double route_by_formula(const ctx *c, int64_t a, int64_t z)
{
    const fp_rack_info *ra = &c->rack[c->dev_rack[a]], *rz = &c->rack[c->dev_rack[z]];
    int ua = c->loc[a].u, uz = c->loc[z].u;
    double run;
    if (ra == rz)
        run = abs(ua - uz) * 0.04445;
    else
        run = (c->pr.rack_units - ua + 1) * 0.04445 + c->pr.tray +
              (c->pr.rack_units - uz + 1) * 0.04445 + c->pr.tray + fabs(ra->x_m - rz->x_m) +
              fabs(ra->y_m - rz->y_m);
    return run * (1 + c->pr.slack_pct / 100) + 2 * c->pr.loop;
}

static int is_stock_length(const fp_part *p, double len)
{
    for (int i = 0; i < p->n_lengths; i++)
        if (fabs(p->lengths_m[i] - len) < 1e-9)
            return 1;
    return 0;
}

static const char *lane_connector(const char *conn)
{
    return conn[0] >= '2' && conn[0] <= '9' && conn[1] == 'x' ? conn + 2 : conn;
}

/* Cage key: device * 4096 + cage number on the device. */
static int64_t cage_key(const ctx *c, int64_t dev, int port)
{
    return dev * 4096 + port / c->per_cage[dev];
}

typedef struct cage_use {
    int64_t key;
    const fp_part *mod;     /* NULL for copper */
    int64_t cable;
} cage_use;

static int cmp_cage_use(const void *pa, const void *pb)
{
    const cage_use *a = pa, *b = pb;
    return (a->key > b->key) - (a->key < b->key);
}

typedef struct cut_item {
    const fp_part *part;
    double len;
} cut_item;

static int cmp_cut(const void *pa, const void *pb)
{
    const cut_item *a = pa, *b = pb;
    int k = strcmp(a->part->id, b->part->id);
    if (k)
        return k;
    return (a->len > b->len) - (a->len < b->len);
}

static int cmp_str(const void *pa, const void *pb)
{
    return strcmp((const char *)pa, (const char *)pb);
}

typedef struct span {
    int64_t rack;
    int lo, hi;
    double power;
} span;

static int cmp_span(const void *pa, const void *pb)
{
    const span *a = pa, *b = pb;
    if (a->rack != b->rack)
        return (a->rack > b->rack) - (a->rack < b->rack);
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The far end of link l seen from device `from`. */
static void link_end(const fp_link_info *l, int64_t dev, int64_t *far, int *port, int *far_port)
{
    if (l->a == dev) {
        *port = l->a_port;
        *far = l->z;
        *far_port = l->z_port;
    } else {
        cr_assert_eq(l->z, dev);
        *port = l->z_port;
        *far = l->a;
        *far_port = l->a_port;
    }
}

static void check_plan(const fp_plan *p, const fp_catalog *cat, const params *pr)
{
    ctx c;
    load(&c, p, cat, pr);
    int64_t *carried = calloc(c.n_link, sizeof *carried);
    char (*ids)[16] = calloc(c.n_cable ? c.n_cable : 1, sizeof *ids);
    cage_use *uses = calloc(2 * c.n_link + 1, sizeof *uses);
    cut_item *cuts = calloc(c.n_cable + 1, sizeof *cuts);
    double *rack_power = calloc(c.n_rack, sizeof *rack_power);
    cr_assert(carried && ids && uses && cuts && rack_power);
    size_t n_uses = 0;

    for (size_t i = 0; i < c.n_cable; i++) {
        fp_cable_info cb;
        fp_error err = { 0 };
        cr_assert_eq(fp_plan_cable(p, i, &cb, &err), FP_OK, "%s", err.msg);
        cr_assert_eq(cb.index, (int64_t)i);
        memcpy(ids[i], cb.id, sizeof ids[i]);
        const fp_part *cp = part(&c, cb.part);
        int copper = cp->type == FP_PART_CABLE;
        cr_assert(copper || cp->type == FP_PART_FIBRE, "%s: %s is not a cable", cb.id, cb.part);
        cr_assert_eq(cb.medium == FP_MEDIUM_MMF || cb.medium == FP_MEDIUM_SMF, !copper, "%s", cb.id);
        cr_assert_str_eq(copper ? cp->medium : cp->fibre, fp_medium_name(cb.medium), "%s", cb.id);
        cr_assert(cb.n_links >= 1 && cb.n_links <= FP_MAX_LEGS, "%s", cb.id);
        cr_assert(cb.n_z >= 1 && cb.n_z <= FP_MAX_LEGS, "%s", cb.id);
        cr_assert(cb.n_z == 1 || cb.n_z == cb.n_links, "%s: %d legs, %d links", cb.id, cb.n_z, cb.n_links);

        /* Lengths: route by formula (the longest leg), stock, reach. */
        double route = 0;
        fp_link_info ln[FP_MAX_LEGS];
        for (int k = 0; k < cb.n_links; k++) {
            int64_t l = cb.links[k];
            cr_assert(l >= 0 && (size_t)l < c.n_link, "%s", cb.id);
            cr_assert_eq(fp_plan_link(p, (size_t)l, &ln[k], NULL), FP_OK);
            carried[l]++;
            size_t at = 0;
            fp_medium m = FP_MEDIUM_COUNT;
            cr_assert_eq(fp_plan_link_cable(p, (size_t)l, &at, NULL), FP_OK);
            cr_assert_eq(at, i, "link %lld", (long long)l);
            cr_assert_eq(fp_plan_link_medium(p, (size_t)l, &m, NULL), FP_OK);
            cr_assert_eq(m, cb.medium);
            cr_assert_eq(ln[k].boundary, cb.boundary, "%s", cb.id);
            cr_assert_eq(ln[k].plane, cb.plane, "%s", cb.id);
            route = fmax(route, route_by_formula(&c, ln[k].a, ln[k].z));
        }
        char want_id[16];
        snprintf(want_id, sizeof want_id, "C%07lld", (long long)cb.links[0] + 1);
        cr_assert_str_eq(cb.id, want_id);
        cr_assert(isfinite(cb.route_m) && isfinite(cb.stock_m), "%s", cb.id);
        cr_assert_float_eq(cb.route_m, route, 0.006, "%s: route %g, by formula %g", cb.id,
                           cb.route_m, route);
        cr_assert_geq(cb.stock_m + 1e-9, cb.route_m, "%s: stock %g < route %g", cb.id, cb.stock_m,
                      cb.route_m);
        cr_assert(is_stock_length(cp, cb.stock_m), "%s: %g m is not a stock length of %s", cb.id,
                  cb.stock_m, cb.part);
        if (cp->reach_m > 0)
            cr_assert_leq(cb.stock_m, cp->reach_m + 1e-9, "%s", cb.id);

        /* Ends: the A end is one device, every leg names the far end of its link. */
        int64_t a_dev = cb.a.device;
        for (int k = 0; k < cb.n_links; k++) {
            int64_t far;
            int port, far_port;
            link_end(&ln[k], a_dev, &far, &port, &far_port);
            int64_t akey = cage_key(&c, a_dev, port);
            const fp_cable_end *ze = &cb.z[cb.n_z == 1 ? 0 : k];
            cr_assert_eq(ze->device, far, "%s leg %d", cb.id, k);
            int64_t zkey = cage_key(&c, far, far_port);
            /* Every link of a cable shares the A cage; a single-Z cable shares the Z cage. */
            if (k > 0) {
                fp_link_info *l0 = &ln[0];
                int64_t f0;
                int p0, fp0;
                link_end(l0, a_dev, &f0, &p0, &fp0);
                cr_assert_eq(akey, cage_key(&c, a_dev, p0), "%s: legs from different cages", cb.id);
                if (cb.n_z == 1)
                    cr_assert_eq(zkey, cage_key(&c, f0, fp0), "%s", cb.id);
            }
            if (k == 0 || cb.n_z > 1) {
                cr_assert_str_eq(cb.a.loc.text, c.loc[a_dev].text);
                cr_assert_str_eq(ze->loc.text, c.loc[far].text);
            }
            const char *mods[2] = { cb.a.transceiver, ze->transceiver };
            int64_t devs[2] = { a_dev, far }, keys[2] = { akey, zkey };
            for (int e = 0; e < 2; e++) {
                const fp_part *m = mods[e][0] ? part(&c, mods[e]) : NULL;
                const char *cage = c.dev_part[devs[e]]->cage;
                if (copper) {
                    cr_assert_null(m, "%s: copper with a module %s", cb.id, mods[e]);
                    /* the cable's own end, or its far end / legs (leg_cage) */
                    const char *far_cage = cp->leg_cage[0] ? cp->leg_cage : cp->cage;
                    cr_assert(strcmp(cp->cage, cage) == 0 || strcmp(far_cage, cage) == 0,
                              "%s: %s does not fit a %s cage", cb.id, cb.part, cage);
                } else {
                    cr_assert_not_null(m, "%s: fibre without a module at end %d", cb.id, e);
                    cr_assert_eq(m->type, FP_PART_TRANSCEIVER);
                    cr_assert_str_eq(m->cage, cage, "%s: %s in a %s cage", cb.id, m->id, cage);
                    cr_assert_eq(m->port_gbps, ln[k].gbps, "%s: %s", cb.id, m->id);
                    cr_assert_eq(m->ports, c.per_cage[devs[e]], "%s: %s has %d ports for %d links",
                                 cb.id, m->id, m->ports, c.per_cage[devs[e]]);
                    cr_assert_str_eq(m->fibre, cp->fibre, "%s: %s optic on %s fibre", cb.id,
                                     m->fibre, cp->fibre);
                    cr_assert_str_eq(lane_connector(m->connector), cp->connector,
                                     "%s: %s lanes on a %s fibre", cb.id, m->connector, cp->connector);
                    cr_assert_geq(m->reach_m + 1e-9, cb.stock_m, "%s: %s reaches %g m", cb.id,
                                  m->id, m->reach_m);
                }
                if (e == 0 && k > 0)
                    continue;       /* the shared A cage: one use per cable */
                if (e == 1 && k > 0 && cb.n_z == 1)
                    continue;
                uses[n_uses++] = (cage_use){ keys[e], m, (int64_t)i };
            }
        }
        if (copper) {
            /* A straight cable carries one cage's links at the cable's speed; a splitter one
             * link per leg (a hub cage with one link in use leaves a leg unplugged). */
            if (cp->legs > 1) {
                cr_assert_eq(cp->legs, c.per_cage[a_dev], "%s", cb.id);
                cr_assert_leq(cb.n_links, cp->legs, "%s", cb.id);
                cr_assert_eq(cp->port_gbps, ln[0].gbps, "%s", cb.id);
            } else {
                cr_assert_eq(cb.n_z, 1, "%s", cb.id);
                cr_assert_eq(cp->port_gbps, ln[0].gbps * c.per_cage[a_dev], "%s", cb.id);
                cr_assert_leq(cb.n_links, c.per_cage[a_dev], "%s", cb.id);
            }
            /* A powered cable draws from the cage at each of its ends. */
            double each = cp->power_w / (1 + cb.n_z);
            rack_power[c.dev_rack[a_dev]] += each;
            for (int z = 0; z < cb.n_z; z++)
                rack_power[c.dev_rack[cb.z[z].device]] += each;
        } else {
            cr_assert_eq(cb.n_links, 1, "%s: one fibre per link", cb.id);
        }
        cuts[i] = (cut_item){ cp, cb.stock_m };

        /* Labels: every end starts with the cable id and names the other end(s). */
        char prefix[20];
        snprintf(prefix, sizeof prefix, "%s ", cb.id);
        cr_assert(strncmp(cb.a.label, prefix, strlen(prefix)) == 0, "%s: label \"%s\"", cb.id, cb.a.label);
        for (int z = 0; z < cb.n_z; z++) {
            char far[96];
            snprintf(far, sizeof far, "%s %s", cb.z[z].device_name, cb.z[z].port);
            cr_assert(strstr(cb.a.label, far), "%s: A label \"%s\" does not name %s", cb.id,
                      cb.a.label, far);
            cr_assert(strncmp(cb.z[z].label, prefix, strlen(prefix)) == 0, "%s", cb.id);
            snprintf(far, sizeof far, "%s %s", cb.a.device_name, cb.a.port);
            cr_assert(strstr(cb.z[z].label, far), "%s: Z label \"%s\" does not name %s", cb.id,
                      cb.z[z].label, far);
        }
    }
    for (size_t l = 0; l < c.n_link; l++)
        cr_assert_eq(carried[l], 1, "link %zu is carried by %lld cables", l, (long long)carried[l]);
    qsort(ids, c.n_cable, sizeof *ids, cmp_str);
    for (size_t i = 1; i < c.n_cable; i++)
        cr_assert_str_neq(ids[i - 1], ids[i]);

    /* Cages: one part per cage (a module, or one copper cable); modules counted per cage. */
    qsort(uses, n_uses, sizeof *uses, cmp_cage_use);
    int64_t modules = 0;
    int64_t *mod_count = calloc(fp_catalog_count(cat), sizeof *mod_count);
    cr_assert_not_null(mod_count);
    for (size_t i = 0; i < n_uses; i++) {
        if (i > 0 && uses[i].key == uses[i - 1].key) {
            cr_assert_eq(uses[i].mod, uses[i - 1].mod, "cage %lld holds two parts",
                         (long long)uses[i].key);
            if (uses[i].mod == NULL)
                cr_assert_eq(uses[i].cable, uses[i - 1].cable, "cage %lld holds two copper cables",
                             (long long)uses[i].key);
            continue;
        }
        if (uses[i].mod) {
            modules++;
            for (size_t k = 0; k < fp_catalog_count(cat); k++)
                if (fp_catalog_part(cat, k) == uses[i].mod)
                    mod_count[k]++;
            rack_power[c.dev_rack[uses[i].key / 4096]] += uses[i].mod->power_w;
        }
    }
    fp_totals t;
    fp_plan_totals(p, &t);
    cr_assert_eq(t.transceivers, modules, "totals say %lld modules, cages hold %lld",
                 (long long)t.transceivers, (long long)modules);
    cr_assert_eq(t.cables, (int64_t)c.n_cable);

    /* BOM: every line recounted; a spares line follows the line it spares. */
    qsort(cuts, c.n_cable, sizeof *cuts, cmp_cut);
    int64_t switches_by_model[8] = { 0 };
    const char *models[8] = { 0 };
    int n_models = 0;
    int64_t servers = 0;
    for (size_t d = 0; d < c.n_dev; d++) {
        if (c.dev[d].tier == 0) {
            servers++;
            continue;
        }
        int m = 0;
        while (m < n_models && strcmp(models[m], c.dev[d].model))
            m++;
        if (m == n_models)
            models[n_models++] = c.dev[d].model;
        switches_by_model[m]++;
    }
    double cost = 0, power = 0;
    int64_t last_q = 0;
    const char *last_cat = "";
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        cr_assert(isfinite(l.cost) && isfinite(l.power_w));
        cr_assert_float_eq(l.cost, l.unit_cost * (double)l.quantity, 1e-6);
        cr_assert_float_eq(l.power_w, l.spare ? 0 : l.unit_power_w * (double)l.quantity, 1e-6);
        cost += l.cost;
        power += l.power_w;
        int cat_i = !strcmp(l.category, "switch") ? 0 : !strcmp(l.category, "nic") ? 1
                    : !strcmp(l.category, "transceiver") ? 2 : !strcmp(l.category, "copper") ? 3 : 4;
        if (l.spare) {
            cr_assert_str_eq(l.category, last_cat);
            cr_assert_eq(l.quantity, (int64_t)ceil((double)last_q * c.pr.spares[cat_i] - 1e-9),
                         "%s spares", l.part);
            continue;
        }
        int64_t want = 0;
        const fp_part *lp = part(&c, l.part);
        cr_assert_float_eq(l.unit_cost, lp->price_usd + lp->price_per_m_usd * l.length_m, 1e-9);
        if (cat_i == 0) {
            for (int m = 0; m < n_models; m++)
                if (!strcmp(models[m], l.part))
                    want = switches_by_model[m];
        } else if (cat_i == 1) {
            want = servers * c.pr.nics_per_server;
        } else if (cat_i == 2) {
            for (size_t k = 0; k < fp_catalog_count(cat); k++)
                if (fp_catalog_part(cat, k) == lp)
                    want = mod_count[k];
        } else {
            for (size_t k = 0; k < c.n_cable; k++)
                want += cuts[k].part == lp && fabs(cuts[k].len - l.length_m) < 1e-9;
        }
        cr_assert_eq(l.quantity, want, "BOM %s %s %g m: %lld, recount %lld", l.category, l.part,
                     l.length_m, (long long)l.quantity, (long long)want);
        last_q = l.quantity;
        last_cat = l.category;
    }
    cr_assert_float_eq(t.cost, cost, 1e-6 * fmax(1, cost));
    cr_assert_float_eq(t.power_w, power, 1e-6 * fmax(1, power));

    /* Racks: U occupancy, device counts, power. */
    span *sp = calloc(c.n_dev, sizeof *sp);
    cr_assert_not_null(sp);
    for (size_t d = 0; d < c.n_dev; d++) {
        int ru = device_ru(&c, d);
        sp[d] = (span){ c.dev_rack[d], c.loc[d].u, c.loc[d].u + ru - 1, 0 };
        cr_assert(sp[d].lo >= 1 && sp[d].hi <= c.pr.rack_units, "%s at %s (%dU) is outside the rack",
                  c.dev[d].name, c.loc[d].text, ru);
        rack_power[c.dev_rack[d]] += c.dev[d].tier == 0 ? c.pr.server_w : c.dev_part[d]->power_w;
    }
    qsort(sp, c.n_dev, sizeof *sp, cmp_span);
    int64_t *used = calloc(c.n_rack, sizeof *used), *count = calloc(c.n_rack, sizeof *count);
    cr_assert(used && count);
    for (size_t d = 0; d < c.n_dev; d++) {
        if (d > 0 && sp[d].rack == sp[d - 1].rack)
            cr_assert_gt(sp[d].lo, sp[d - 1].hi, "%s: devices overlap at U%d",
                         c.rack[sp[d].rack].name, sp[d].lo);
        used[sp[d].rack] += sp[d].hi - sp[d].lo + 1;
        count[sp[d].rack]++;
    }
    for (size_t r = 0; r < c.n_rack; r++) {
        cr_assert_eq(c.rack[r].units_used, used[r], "%s", c.rack[r].name);
        cr_assert_leq(c.rack[r].units_used, c.rack[r].units, "%s", c.rack[r].name);
        cr_assert_eq(c.rack[r].devices, count[r], "%s", c.rack[r].name);
        cr_assert(isfinite(c.rack[r].power_w));
        cr_assert_float_eq(c.rack[r].power_w, rack_power[r], 0.011, "%s: power %g, recount %g",
                           c.rack[r].name, c.rack[r].power_w, rack_power[r]);
    }
    free(used);
    free(count);
    free(sp);
    free(mod_count);
    free(carried);
    free(ids);
    free(uses);
    free(cuts);
    free(rack_power);
    unload(&c);
}

/* Build with the built-in catalog plus `extra` parts, check, free. */
static void check_spec(const char *json, const char *extra, const params *pr)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    if (extra)
        cr_assert_eq(fp_catalog_merge_string(cat, extra, strlen(extra), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&plan, spec, cat, &err), FP_OK, "%s", err.msg);
    check_plan(plan, cat, pr);
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

Test(cabling_invariants, default_16k_rail_optimized)
{
    check_spec("{\"cluster\":{\"gpus\":16384}}", NULL, &DEFAULTS);
}

Test(cabling_invariants, two_tier_clos_sn5600_breakouts)
{
    /* SN5600: 64 x 800G cages split 2 x 400G: twin-port modules or splitters on every cage. */
    check_spec("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\",\"tiers\":2,"
               "\"switch\":\"nvidia-sn5600\"}}", NULL, &DEFAULTS);
}

Test(cabling_invariants, dual_plane)
{
    /* Two-port QSFP112 NICs, one port per plane; OSFP switches split 2 x 400G. */
    check_spec("{\"cluster\":{\"gpus\":4096,\"nic\":\"generic-nic-2x400\"},\"fabric\":{"
               "\"topology\":\"rail-optimized\",\"switch\":\"generic-th5-osfp\",\"planes\":2,"
               "\"su_servers\":64}}", NULL, &DEFAULTS);
}

Test(cabling_invariants, fat_tree_k16)
{
    /* k = 16: k^3/4 = 1,024 hosts on 16-port twin-cage switches (8 OSFP cages). */
    const char *sw = "{\"parts\":[{\"id\":\"test-16x400\",\"type\":\"switch\",\"name\":\"16 x 400G\","
                     "\"vendor\":\"test\",\"ports\":16,\"port_gbps\":400,\"cages\":8,\"cage\":\"OSFP\","
                     "\"breakouts\":[2],\"ru\":1,\"power_w\":200,\"price_usd\":5000,\"mtbf_hours\":1,"
                     "\"source\":\"test\"}]}";
    check_spec("{\"cluster\":{\"gpus\":1024},\"fabric\":{\"topology\":\"fat-tree\","
               "\"switch\":\"test-16x400\"}}", sw, &DEFAULTS);
}

Test(cabling_invariants, spare_servers)
{
    params pr = DEFAULTS;
    pr.spares[0] = 0.05;
    pr.spares[2] = 0.1;
    check_spec("{\"cluster\":{\"gpus\":2048},\"layout\":{\"spare_servers\":0.05},"
               "\"bom\":{\"spares\":{\"switch\":0.05,\"transceiver\":0.1}}}", NULL, &pr);
}

Test(cabling_invariants, top_of_rack_dac_nic_leaf)
{
    params pr = DEFAULTS;
    pr.loop = 0.4;
    pr.slack_pct = 10;
    pr.tray = 0.4;
    /* In the rack: 41 U x 1.1 + 2 x 0.4 = 2.81 m, within the 3 m passive splitter. */
    check_spec("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"topology\":\"fat-tree\"},"
               "\"layout\":{\"leaf_racks\":\"top-of-rack\",\"service_loop_m\":0.4,"
               "\"slack_percent\":10,\"tray_height_m\":0.4},"
               "\"media\":{\"nic-leaf\":\"DAC\"}}", NULL, &pr);
}

Test(cabling_invariants, two_halls_end_leaf_racks)
{
    check_spec("{\"cluster\":{\"gpus\":8192},\"layout\":{\"halls\":2,\"leaf_racks\":\"end\"}}", NULL,
               &DEFAULTS);
}

/* ---- overrides: errors name the override's JSON pointer; a cable's length covers the cable ---- */

#define SU256 "{\"cluster\":{\"gpus\":256},\"overrides\":["
#define TOR256 "{\"cluster\":{\"gpus\":256},\"fabric\":{\"topology\":\"fat-tree\"}," \
    "\"layout\":{\"leaf_racks\":\"top-of-rack\"},\"overrides\":["

Test(cabling_invariants, override_errors_name_the_override)
{
    fp_error err = { 0 };
    /* The same link twice, once by id and once by its ends (named far end first). */
    cr_expect_eq(plan_error(SU256 "{\"cable\":\"C0000001\",\"length_m\":2},"
                            "{\"a\":\"su01-leaf-r1 1/1/1\",\"z\":\"su01-node-01 nic1\",\"length_m\":30}]}", &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/overrides/1");
    cr_expect(strstr(err.msg, "/overrides/0"), "%s", err.msg);
    /* Links 1 and 9 (node-01 and node-02 nic1) share leaf-r1's twin cage p1-2: one medium. */
    cr_expect_eq(plan_error(SU256 "{\"cable\":\"C0000001\",\"part\":\"fibre-os2-mpo12-apc\"},"
                            "{\"cable\":\"C0000009\",\"part\":\"fibre-om4-mpo12-apc\"}]}", &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/overrides/1");
    /* 500 m: the NIC side's longest single-port OSFP module is the 100 m DR4. */
    cr_expect_eq(plan_error(SU256 "{\"cable\":\"C0000001\",\"length_m\":500}]}", &err), FP_EDESIGN);
    cr_expect_str_eq(err.where, "/overrides/0");
    cr_expect(strstr(err.msg, "500 m") && strstr(err.msg, "100 m"), "%s", err.msg);
    /* A straight 400G DAC is sold up to 3 m; this route is 5.76 m. */
    cr_expect_eq(plan_error(SU256 "{\"cable\":\"C0000001\",\"part\":\"nvidia-dac-400g-osfp\"}]}", &err),
                 FP_EDESIGN);
    cr_expect_str_eq(err.where, "/overrides/0");
    cr_expect(strstr(err.msg, "not sold that long"), "%s", err.msg);
    /* In a top-of-rack fat-tree, node-01 nic1 and nic2 share one splitter, cable C0000001:
     * C0000002 names its second leg, not a cable. */
    cr_expect_eq(plan_error(TOR256 "{\"cable\":\"C0000002\",\"length_m\":2}]}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/overrides/0");
    cr_expect(strstr(err.msg, "C0000001"), "%s", err.msg);
}

Test(cabling_invariants, a_length_override_covers_the_whole_splitter)
{
    /* The splitter's legs are 2.51 m by estimate (3 m DAC); 4 m given for the cable is past
     * the 3 m passive splitter, so the 3/4/5 m active splitter at 4 m, for both legs. */
    fp_plan *p = plan_from(TOR256 "{\"cable\":\"C0000001\",\"length_m\":4}]}");
    fp_cable_info c;
    size_t c0 = 0, c1 = 0;
    cr_assert_eq(fp_plan_link_cable(p, 0, &c0, NULL), FP_OK);
    cr_assert_eq(fp_plan_cable(p, c0, &c, NULL), FP_OK);
    cr_expect_eq(c.n_links, 2);
    cr_expect_float_eq(c.route_m, 4, 1e-6);
    cr_expect_eq(c.stock_m, 4);
    cr_expect_eq(c.medium, FP_MEDIUM_ACC);
    cr_assert_eq(fp_plan_link_cable(p, 1, &c1, NULL), FP_OK);
    cr_expect_eq((int64_t)c1, c.index);
    fp_plan_free(p);
}

Test(cabling_invariants, cli_bad_overrides_exit_3_without_outputs)
{
    char dir[128], cmd[512], path[128];
    scratch_dir(dir, sizeof dir, "ov");
    snprintf(path, sizeof path, "%s/ov.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"cables\":[{\"cable\":\"C0000001\",\"length_m\":500}]}", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, FP_TEST_BIN_DIR "/src/fabplan plan --gpus 256 --overrides %s -q -o %s/out 2>%s/err",
             path, dir, dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st));
    cr_expect_eq(WEXITSTATUS(st), 3);
    snprintf(path, sizeof path, "%s/out/cables.csv", dir);
    cr_expect_neq(access(path, F_OK), 0, "an output was left behind");
    snprintf(path, sizeof path, "%s/err", dir);
    char msg[1024] = "";
    f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t k = fread(msg, 1, sizeof msg - 1, f);
    msg[k] = '\0';
    fclose(f);
    cr_expect(strstr(msg, "/0/length_m"), "%s", msg);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}
