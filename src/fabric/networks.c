/* fabplan — fabric: the cluster's other networks, each built by the Clos builder (clos.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabric/networks.h"

void fp__net_fabrics_free(fp_net_fabrics *nf)
{
    if (nf == NULL)
        return;
    for (int i = 0; i < nf->n; i++)
        fp__fabric_free(&nf->fab[i]);
    free(nf->fab);
    nf->fab = NULL;
    nf->n = 0;
}

/* Logical ports of one cage at the leaf's down split. */
static int leaf_cage_ports(const fp_rspec *rs)
{
    const fp_tier_spec *ts = &rs->tier[0];
    return (ts->per_cage > 0 ? ts->per_cage : 1) * (ts->breakout > 0 ? ts->breakout : 1);
}

/* First logical port of the MLAG peer links on a leaf: the first whole cage after its down and
 * up ports (each peer link takes a cage of its own, so its cable is a straight one). */
static int peer_port0(const fp_fabric *fab, const fp_rspec *rs)
{
    int kc = leaf_cage_ports(rs), used = fab->size[0].down + fab->size[0].up;
    return (used + kc - 1) / kc * kc;
}

/* The MLAG peer links: peer_links between leaves 2k and 2k+1 of each pair, after the fabric's
 * last boundary (boundary_base[tiers] stays where the builder put it), marked with the leaf's up
 * boundary (1). Each takes the whole of one physical port in a cage of its own: a port split
 * `breakout` ways carries that many lane links, so one straight cable runs the port at its full
 * speed (a 100G QSFP28 port at 25G lanes: 4 x 25G in one 100G DAC, not one lane of it). */
static fp_status add_peer_links(fp_fabric *fab, const fp_net_spec *ns, fp_error *err)
{
    if (!ns->dual_homed || ns->peer_links == 0 || fab->tiers < 1)
        return FP_OK;
    const int64_t leaves = fab->level[1].switches * fab->planes, pairs = leaves / 2;
    const int kc = leaf_cage_ports(&ns->rs), p0 = peer_port0(fab, &ns->rs);
    const int lanes = ns->rs.tier[0].breakout > 0 ? ns->rs.tier[0].breakout : 1;
    fp_link *l = realloc(fab->link, sizeof *l * (size_t)(fab->n_link + pairs * ns->peer_links * lanes));
    if (l == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for MLAG peer links");
    fab->link = l;
    for (int64_t k = 0; k < pairs; k++)
        for (int j = 0; j < ns->peer_links; j++)
            for (int q = 0; q < lanes; q++) {
                fp_link *x = &fab->link[fab->n_link++];
                x->a = (int32_t)(fab->tier_base[1] + 2 * k);
                x->z = x->a + 1;
                x->a_port = x->z_port = p0 + j * kc + q;
                x->boundary = 1;
                x->plane = 0;
            }
    fab->ports_used[1] += 2 * pairs * ns->peer_links * lanes;
    return FP_OK;
}

int64_t fp__net_peer_links(const fp_fabric *fab)
{
    return fab->n_link - fab->boundary_base[fab->tiers];
}

int64_t fp__fabric_switches(const fp_fabric *fab)
{
    int64_t n = 0;
    for (int t = 1; t <= fab->tiers; t++)
        n += fp__tier_own_switches(fab, t);
    return n;
}

int64_t fp__net_ports_used(const fp_net_fabrics *nf, const fp_nets *nets, int i, int t)
{
    const fp_fabric *f = &nf->fab[i];
    int64_t n = t == f->attached_tier ? 0 : f->ports_used[t];
    for (int k = i + 1; t == f->tiers && k < nf->n; k++) {
        const fp_fabric *a = &nf->fab[k];
        if (nets->net[k].uplink_to == i)
            n += a->boundary_base[a->attached_tier] - a->boundary_base[a->attached_tier - 1];
    }
    return n;
}

/* The fabric's alias table (one entry per device, each -1: a device of its own), made once. */
static fp_status alias_table(fp_fabric *f, fp_error *err)
{
    if (f->alias != NULL)
        return FP_OK;
    f->alias = malloc(sizeof *f->alias * (size_t)(f->n_dev ? f->n_dev : 1));
    if (f->alias == NULL)
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory");
    for (int64_t d = 0; d < f->n_dev; d++) {
        f->alias[d].dev = -1;
        f->alias[d].net = -1;
        f->alias[d].name[0] = f->alias[d].port[0] = '\0';
    }
    return FP_OK;
}

/* The next switch after *net / *dev in the order an endpoint group counted "switches" takes
 * them: the compute fabric's devices (*net -1), then each earlier network's; 0 when there is
 * none before network `upto`. Start with *net -1, *dev -1 (before the first). */
static int next_switch(const fp_net_fabrics *out, const fp_fabric *cfab, int upto, int32_t *net,
                       int64_t *dev)
{
    for (;;) {
        const fp_fabric *f = *net < 0 ? cfab : &out->fab[*net];
        *dev = *dev < f->servers ? f->servers : *dev + 1;
        while (*dev < f->n_dev && fp__net_is_alias(f, *dev))
            (*dev)++;           /* an attached tier's switch: its own network counts it */
        if (*dev < f->n_dev)
            return 1;
        if (*net + 1 >= upto)
            return 0;
        (*net)++;
        *dev = -1;
    }
}

/* Network i's hosts of endpoint groups counted "switches" stand for those switches: each one's
 * name and management interface (fp_host_alias); the other hosts have none (dev -1). */
static fp_status set_aliases(fp_net_fabrics *out, const fp_nets *nets, int i,
                             const fp_fabric *cfab, const fp_rspec *crs, fp_error *err)
{
    const fp_net_spec *ns = &nets->net[i];
    fp_fabric *f = &out->fab[i];
    int any = 0;
    for (int g = 0; g < ns->n_extra; g++)
        any |= ns->extra[g].per_switch;
    if (!any)
        return FP_OK;
    fp_status rc = alias_table(f, err);
    if (rc != FP_OK)
        return rc;
    int64_t h = ns->servers;
    for (int g = 0; g < ns->n_extra; g++) {
        const fp_net_extra *x = &ns->extra[g];
        const int64_t hosts = x->count * (x->ports / ns->ports);
        if (!x->per_switch) {
            h += hosts;
            continue;
        }
        int32_t net = -1;
        int64_t dev = -1;
        for (int64_t k = 0; k < hosts && h < f->servers && next_switch(out, cfab, i, &net, &dev);
             k++, h++) {
            fp_host_alias *a = &f->alias[h];
            const fp_fabric *of = net < 0 ? cfab : &out->fab[net];
            const fp_rspec *ors = net < 0 ? crs : &nets->net[net].rs;
            a->net = net;
            a->dev = dev;
            if (net < 0)
                fp__device_name(a->name, sizeof a->name, cfab, crs, dev);
            else
                fp__net_device_name(a->name, sizeof a->name, &nets->net[net], of, cfab, crs, dev);
            snprintf(a->port, sizeof a->port, "%s",
                     fp_part_mgmt_port(&ors->tier[of->dev[dev].tier - 1].model));
        }
    }
    return FP_OK;
}

/* Network i attached to network j (spec uplink_to): the builder made its top tier as j's top
 * tier (its model, as many switches, the leaves' uplinks spread in turn over them); here each
 * of those switches becomes j's own (an alias: name, place, power and units stay j's) and each
 * link's port on it moves to that switch's free ports: after the ports j's own links use and
 * those of every network attached to j before this one, from the next whole cage (a module is
 * never shared by two networks' links), up to the ports j's top tier may use (its reserve
 * kept). Too few free ports is an error naming /uplink_to. */
static fp_status attach(fp_net_fabrics *out, const fp_nets *nets, int i, const fp_fabric *cfab,
                        const fp_rspec *crs, fp_error *err)
{
    const fp_net_spec *ns = &nets->net[i];
    if (ns->uplink_to < 0)
        return FP_OK;
    const int j = ns->uplink_to;
    fp_fabric *f = &out->fab[i];
    const fp_fabric *tf = &out->fab[j];
    const fp_net_spec *tn = &nets->net[j];
    const int T = tf->tiers, A = f->tiers;
    const fp_tier_spec *ts = &tn->rs.tier[T - 1];
    const int64_t k = tf->level[T].switches * tf->planes, n = f->level[A].switches * f->planes;
    const int64_t links = f->boundary_base[A] - f->boundary_base[A - 1];
    const int kc = (ts->per_cage > 0 ? ts->per_cage : 1) * (ts->breakout > 0 ? ts->breakout : 1);
    const int cap = tf->size[T - 1].usable;
    int64_t *next = calloc((size_t)(k ? k : 1), sizeof *next), *cnt = calloc((size_t)(k ? k : 1), sizeof *cnt);
    fp_status rc = FP_OK;
    if (next == NULL || cnt == NULL) {
        free(next);
        free(cnt);
        FP_FAIL(err, FP_ENOMEM, "/uplink_to", "out of memory");
    }
    /* Ports in use on each of j's top switches: its own links', then earlier attachers'. */
    for (int64_t l = tf->boundary_base[T - 1]; l < tf->boundary_base[T]; l++) {
        int64_t m = tf->link[l].z - tf->tier_base[T];
        if (m >= 0 && m < k && tf->link[l].z_port + 1 > next[m])
            next[m] = tf->link[l].z_port + 1;
    }
    for (int e = j + 1; e < i; e++) {
        const fp_fabric *ef = &out->fab[e];
        if (nets->net[e].uplink_to != j)
            continue;
        for (int64_t l = ef->boundary_base[ef->tiers - 1]; l < ef->boundary_base[ef->tiers]; l++) {
            int64_t m = ef->alias[ef->link[l].z].dev - tf->tier_base[T];
            if (m >= 0 && m < k && ef->link[l].z_port + 1 > next[m])
                next[m] = ef->link[l].z_port + 1;
        }
    }
    for (int64_t m = 0; m < k; m++)
        next[m] = (next[m] + kc - 1) / kc * kc;
    for (int64_t l = f->boundary_base[A - 1]; l < f->boundary_base[A]; l++) {
        int64_t m = f->link[l].z - f->tier_base[A];
        if (m >= 0 && m < k)
            cnt[m]++;
    }
    int64_t worst = 0;
    for (int64_t m = 0; m < k; m++)
        if (next[m] + cnt[m] - cap > next[worst] + cnt[worst] - cap)
            worst = m;
    char tname[96];
    if (n != k || (k > 0 && next[worst] + cnt[worst] > cap)) {
        fp__net_device_name(tname, sizeof tname, tn, tf, cfab, crs, tf->tier_base[T] + worst);
        rc = fp__error_set(err, FP_EDESIGN, "/uplink_to",
                           "/uplink_to: %lld uplinks (%lld leaves of %d) over \"%s\"'s %lld "
                           "top-tier %s need %lld free ports on each, but %s has %d of its %d "
                           "usable ports free%s; expected fewer uplinks_per_leaf, or a target with "
                           "more top-tier switches or ports",
                           (long long)links, (long long)(f->level[1].switches * f->planes),
                           f->size[0].up, tn->name, (long long)k, ts->model.id,
                           (long long)((links + (k ? k : 1) - 1) / (k ? k : 1)), tname,
                           (int)(cap - next[worst] > 0 ? cap - next[worst] : 0), cap,
                           kc > 1 ? " (from its next whole cage)" : "");
    }
    if (rc == FP_OK)
        rc = alias_table(f, err);
    for (int64_t m = 0; rc == FP_OK && m < k; m++) {
        fp_host_alias *a = &f->alias[f->tier_base[A] + m];
        a->net = j;
        a->dev = tf->tier_base[T] + m;
        fp__net_device_name(a->name, sizeof a->name, tn, tf, cfab, crs, a->dev);
        a->port[0] = '\0';
    }
    for (int64_t l = f->boundary_base[A - 1]; rc == FP_OK && l < f->boundary_base[A]; l++)
        f->link[l].z_port += (int32_t)next[f->link[l].z - f->tier_base[A]];
    if (rc == FP_OK) {
        f->attached_tier = A;
        snprintf(f->tier_choice, sizeof f->tier_choice,
                 "%d tiers: the leaves and, above them, \"%s\"'s %lld top-tier %s (uplink_to), %lld uplinks on their free ports",
                 A, tn->name, (long long)k, ts->model.id, (long long)links);
    }
    free(next);
    free(cnt);
    return rc;
}

fp_status fp__nets_build(fp_net_fabrics *out, fp_nets *nets, const struct fp_spec *spec,
                         const fp_rspec *crs, const fp_fabric *cfab, const fp_catalog *cat,
                         fp_error *err)
{
    memset(out, 0, sizeof *out);
    if (nets->in_spec == 0)
        return FP_OK;
    out->fab = calloc((size_t)nets->in_spec, sizeof *out->fab);
    if (out->fab == NULL)
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory");
    int64_t switches = fp__fabric_switches(cfab);
    fp_net_built before[FP_MAX_NETWORKS];
    for (int i = 0; i < nets->in_spec; i++) {
        fp_status rc;
        if ((rc = fp__nets_resolve_next(nets, spec, crs, switches, before, cat, err)) != FP_OK) {
            fp__net_fabrics_free(out);
            return rc;
        }
        /* The spec stage shaped the network (spec/networks.c: a dual-homed network's units and
         * the reserve its peer links need); here it is only sized and built. */
        if ((rc = fp__clos_size(&out->fab[i], &nets->net[i].rs, err)) == FP_EDESIGN &&
            nets->net[i].uplink_to >= 0 && strcmp(err->where, "/fabric/tiers") == 0) {
            /* An attached network has two tiers, its leaves and the target's top tier: more
             * hosts than they hold are the attachment's limit, not a tier count to change. */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg + strlen("/fabric/tiers: "));
            char *semi = strstr(msg, "; use more tiers");
            if (semi != NULL)
                *semi = '\0';
            fp_error_clear(err);
            rc = fp__error_set(err, FP_EDESIGN, "/uplink_to",
                               "/uplink_to: %s, and a network attached to \"%s\" has two tiers "
                               "(its leaves and that network's top tier); expected more hosts per "
                               "leaf, or a top tier of the network's own (a switch per tier, no "
                               "uplink_to)",
                               msg, nets->net[nets->net[i].uplink_to].name);
        }
        if (rc != FP_OK ||
            (rc = fp__clos_build(&out->fab[i], &nets->net[i].rs, err)) != FP_OK ||
            (rc = add_peer_links(&out->fab[i], &nets->net[i], err)) != FP_OK ||
            (rc = set_aliases(out, nets, i, cfab, crs, err)) != FP_OK ||
            (rc = attach(out, nets, i, cfab, crs, err)) != FP_OK) {
            char base[32];
            snprintf(base, sizeof base, "/networks/%d", i);
            fp__net_error_repoint(err, base);
            out->n = i + 1;
            fp__net_fabrics_free(out);
            return rc;
        }
        out->n = i + 1;
        switches += fp__fabric_switches(&out->fab[i]);
        before[i].tiers = out->fab[i].tiers;
        before[i].top_switches = out->fab[i].level[out->fab[i].tiers].switches * out->fab[i].planes;
    }
    return FP_OK;
}

int64_t fp__mlag_peer(const fp_fabric *fab, const fp_net_spec *ns, int64_t leaf)
{
    if (!ns->dual_homed || leaf < fab->tier_base[1] || leaf >= fab->tier_base[1] + fab->level[1].switches)
        return -1;
    /* Two rails, one leaf per rail per unit (leaves_per_su == 2): leaves 2k and 2k+1. */
    int64_t k = leaf - fab->tier_base[1];
    return fab->tier_base[1] + (k ^ 1);
}

static int digits64(int64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d < 2 ? 2 : d;
}

/* Extra endpoint group and unit of host dev (dev >= ns->servers); *grp the port group. */
static const fp_net_extra *extra_of(const fp_net_spec *ns, int64_t dev, int64_t *unit, int *grp)
{
    int64_t g = dev - ns->servers;
    for (int i = 0; i < ns->n_extra; i++) {
        const fp_net_extra *x = &ns->extra[i];
        int per = x->ports / ns->ports;
        if (g < x->count * per) {
            *unit = g / per;
            *grp = (int)(g % per);
            return x;
        }
        g -= x->count * per;
    }
    return NULL;
}

int fp__net_endpoint(const fp_net_spec *ns, int64_t dev, int64_t *first)
{
    int64_t unit = 0;
    int grp = 0;
    const fp_net_extra *x = dev >= ns->servers ? extra_of(ns, dev, &unit, &grp) : NULL;
    *first = x ? dev - grp : dev;
    return x ? (int)(x - ns->extra) : -1;
}

char *fp__net_device_name(char *buf, size_t n, const fp_net_spec *ns, const fp_fabric *nfab,
                          const fp_fabric *cfab, const fp_rspec *crs, int64_t dev)
{
    char tmp[96];
    if (dev < ns->servers)
        return fp__device_name(buf, n, cfab, crs, dev);
    if (fp__net_is_alias(nfab, dev)) {
        snprintf(buf, n, "%s", nfab->alias[dev].name);
        return buf;
    }
    if (dev < nfab->servers) {
        int64_t unit = 0;
        int grp = 0;
        const fp_net_extra *x = extra_of(ns, dev, &unit, &grp);
        if (x != NULL) {
            snprintf(buf, n, "%s-%0*lld", x->name, digits64(x->count), (long long)unit + 1);
            return buf;
        }
    }
    fp__device_name(tmp, sizeof tmp, nfab, &ns->rs, dev);
    snprintf(buf, n, "%s-%s", ns->name, tmp);
    return buf;
}

char *fp__net_port_name(char *buf, size_t n, const fp_net_spec *ns, const fp_fabric *nfab,
                        int64_t dev, int port)
{
    if (dev < nfab->servers) {
        int64_t unit = 0;
        int grp = 0;
        if (fp__net_is_alias(nfab, dev)) {
            snprintf(buf, n, "%s", nfab->alias[dev].port);
            return buf;
        }
        if (dev >= ns->servers)
            extra_of(ns, dev, &unit, &grp);
        snprintf(buf, n, "%s-p%d", ns->name, grp * ns->ports + port + 1);
        return buf;
    }
    return fp__port_name(buf, n, nfab, &ns->rs, dev, port);
}

double fp__net_bisection_gbps(const fp_fabric *fab, const fp_rspec *rs)
{
    double best = -1;
    for (int b = 0; b < fab->tiers; b++) {
        double c = (double)(fab->boundary_base[b + 1] - fab->boundary_base[b]) * rs->gbps[b] / 2;
        if (best < 0 || c < best)
            best = c;
    }
    return best < 0 ? 0 : best;
}

double fp__net_switch_failures_per_day(const fp_fabric *fab, const fp_rspec *rs, int64_t *unknown)
{
    double f = 0;
    *unknown = 0;
    for (int t = 1; t <= fab->tiers; t++) {
        int64_t n = fp__tier_own_switches(fab, t);
        double m = rs->tier[t - 1].model.mtbf_hours;
        if (m > 0)
            f += (double)n * 24.0 / m;
        else
            *unknown += n;
    }
    return f;
}

void fp__net_dual_check(const fp_fabric *fab, const fp_net_spec *ns, int64_t *paired,
                        int64_t *survive)
{
    *paired = *survive = 0;
    if (!ns->dual_homed)
        return;
    /* Boundary 0 holds each host's two links in turn (one plane). */
    for (int64_t s = 0; s < fab->servers; s++) {
        int64_t l0 = fab->link[2 * s].z, l1 = fab->link[2 * s + 1].z;
        *paired += fab->link[2 * s].a == s && fab->link[2 * s + 1].a == s && l0 != l1 &&
                   fp__mlag_peer(fab, ns, l0) == l1;
        /* One leaf failing takes at most one of two different leaves. */
        *survive += l0 != l1;
    }
}

/* ---- one name per device across the compute fabric and every network ---- */

/* Names seen so far: open addressing over a flat text buffer; owner -1 is the compute fabric
 * (-2 its servers when cluster.server_names names them),
 * k >= 0 network k. */
typedef struct name_set {
    char *text;
    size_t len, cap;
    size_t *at;                 /* per slot: offset into text + 1, 0 when empty */
    int *owner;
    size_t mask;
} name_set;

static void name_set_free(name_set *s)
{
    free(s->text);
    free(s->at);
    free(s->owner);
}

/* Adds name for owner: 0; -2 with *prev the earlier owner when the name is taken; -1 when out
 * of memory. */
static int name_set_add(name_set *s, const char *name, int owner, int *prev)
{
    size_t i = (size_t)fp__hash_text(name) & s->mask;
    for (; s->at[i] != 0; i = (i + 1) & s->mask)
        if (strcmp(s->text + s->at[i] - 1, name) == 0) {
            *prev = s->owner[i];
            return -2;
        }
    size_t n = strlen(name) + 1;
    if (s->len + n > s->cap) {
        size_t cap = (s->len + n) * 2;
        char *t = realloc(s->text, cap);
        if (t == NULL)
            return -1;
        s->text = t;
        s->cap = cap;
    }
    memcpy(s->text + s->len, name, n);
    s->at[i] = s->len + 1;
    s->owner[i] = owner;
    s->len += n;
    return 0;
}

/* The error for network k's device dev whose name is already owner's: an extra endpoint points
 * at its group's name, a switch at the network's name (it prefixes the switch names). */
static fp_status name_clash(const fp_nets *nets, const fp_fabric *nfab, int k, int64_t dev,
                            const char *name, int owner, fp_error *err)
{
    const fp_net_spec *ns = &nets->net[k];
    char where[96], whose[64];
    if (owner == -2)
        snprintf(whose, sizeof whose, "a server of the compute fabric (/cluster/server_names)");
    else if (owner < 0)
        snprintf(whose, sizeof whose, "a device of the compute fabric");
    else if (owner == k)
        snprintf(whose, sizeof whose, "another device of this network");
    else
        snprintf(whose, sizeof whose, "a device of network \"%s\"", nets->net[owner].name);
    if (dev < nfab->servers) {
        int64_t unit = 0;
        int grp = 0;
        const fp_net_extra *x = extra_of(ns, dev, &unit, &grp);
        snprintf(where, sizeof where, "/networks/%d/extra_endpoints/%d/name", k,
                 x != NULL ? (int)(x - ns->extra) : 0);
        FP_FAIL(err, FP_EINVAL, where, "%s: endpoint \"%s\" has the name of %s; the cable sheets "
                                       "and NetBox need one name per device: expected a group name "
                                       "that no generated device name starts with",
                where, name, whose);
    }
    snprintf(where, sizeof where, "/networks/%d/name", k);
    FP_FAIL(err, FP_EINVAL, where, "%s: switch \"%s\" has the name of %s; the cable sheets and "
                                   "NetBox need one name per device: expected another network name",
            where, name, whose);
}

fp_status fp__nets_check_names(const fp_nets *nets, const fp_net_fabrics *nf,
                               const fp_fabric *cfab, const fp_rspec *crs, fp_error *err)
{
    if (nets->n == 0 && !crs->server_names.given)
        return FP_OK;
    size_t total = (size_t)cfab->n_dev, slots = 16;
    for (int k = 0; k < nf->n; k++)
        total += (size_t)(nf->fab[k].n_dev - nets->net[k].servers);
    while (slots < 2 * total)
        slots *= 2;
    name_set s = { NULL, 0, 0, calloc(slots, sizeof(size_t)), calloc(slots, sizeof(int)), slots - 1 };
    fp_status rc = FP_OK;
    char name[160];
    int prev = 0, r = 0;
    if (s.at == NULL || s.owner == NULL)
        r = -1;
    int64_t cd = 0;
    for (; r == 0 && cd < cfab->n_dev; cd++)
        r = name_set_add(&s, fp__device_name(name, sizeof name, cfab, crs, cd),
                         cfab->dev[cd].tier == 0 && crs->server_names.given ? -2 : -1, &prev);
    /* The compute fabric's names repeat only through cluster.server_names (servers come
     * first: the second device is a server, or a switch a server is named as). */
    if (r == -2 && cfab->dev[cd - 1].tier == 0)
        rc = fp__error_set(err, FP_EINVAL, "/cluster/server_names",
                           "/cluster/server_names: \"%s\" gives server %lld the name \"%s\" of an "
                           "earlier server; the cable sheets, NetBox and the schedulers need one "
                           "name per device: expected a template whose fields stand apart (a "
                           "non-digit between {su} and {n}) or {i}",
                           crs->server_names.source, (long long)cd, name);
    else if (r == -2)
        rc = fp__error_set(err, FP_EINVAL, "/cluster/server_names",
                           "/cluster/server_names: \"%s\" names a server \"%s\", the name of a "
                           "%s switch; the cable sheets, NetBox and the schedulers need one name "
                           "per device: expected a template that makes no switch's name",
                           crs->server_names.source, name,
                           fp__tier_role(cfab->dev[cd - 1].tier));
    for (int k = 0; r == 0 && k < nf->n; k++) {
        const fp_net_spec *ns = &nets->net[k];
        const fp_fabric *nfab = &nf->fab[k];
        for (int64_t d = ns->servers; r == 0 && d < nfab->n_dev; d++) {
            int64_t unit = 0;
            int grp = 0;
            if (d < nfab->servers && extra_of(ns, d, &unit, &grp) != NULL && grp > 0)
                continue;       /* a further port group of the same endpoint */
            if (fp__net_is_alias(nfab, d))
                continue;       /* another network's switch, named by it */
            r = name_set_add(&s, fp__net_device_name(name, sizeof name, ns, nfab, cfab, crs, d), k,
                             &prev);
            if (r == -2)
                rc = name_clash(nets, nfab, k, d, name, prev, err);
        }
    }
    if (r == -1)
        rc = fp__error_set(err, FP_ENOMEM, "/networks", "out of memory for %zu device names", total);
    name_set_free(&s);
    return rc;
}
