/* fabplan — spec: the `networks` section (converged, storage, in-band management, out-of-band
 * networks beside the compute fabric). Each network is checked here and turned into a spec of
 * its own, which the same resolver as the compute fabric reads; its errors are re-pointed into
 * /networks/N. */
#include <stdlib.h>
#include <string.h>
#include "spec/json_read.h"
#include "spec/networks.h"

static const char *const role_names[] = { "converged", "storage", "management", "oob" };

const char *fp__net_role_name(fp_net_role role)
{
    return (unsigned)role < 4 ? role_names[role] : "?";
}

const char *fp__net_pair_name(const fp_net_spec *ns)
{
    return ns->rs.protocols == FP_PROTO_IB ? "leaf pair" : "MLAG pair";
}

void fp__nets_free(fp_nets *nets)
{
    if (nets == NULL)
        return;
    for (int i = 0; i < nets->n; i++)
        fp__phys_free(&nets->net[i].rs.phys);
    free(nets->net);
    nets->net = NULL;
    nets->n = 0;
}

/* The network's "GPUs" are its hosts (one per builder server): say so in messages. */
static void say_hosts(char *msg, size_t n)
{
    char out[512];
    size_t k = 0;
    for (const char *p = msg; *p && k + 8 < sizeof out;) {
        if (strncmp(p, "GPUs", 4) == 0) {
            memcpy(out + k, "hosts", 5);
            k += 5;
            p += 4;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = '\0';
    snprintf(msg, n, "%s", out);
}

/* A pointer to the host links' speed inside the message, "(/fabric/link_gbps/0)": the
 * network's port_gbps. */
static void repoint_link_speed(char *msg, size_t n, const char *base)
{
    static const char from[] = "(/fabric/link_gbps/0)";
    char *at = strstr(msg, from), out[sizeof ((fp_error *)0)->msg];
    if (at == NULL)
        return;
    snprintf(out, sizeof out, "%.*s(%s/port_gbps)%s", (int)(at - msg), msg, base,
             at + sizeof from - 1);
    snprintf(msg, n, "%s", out);
}

void fp__net_error_repoint(fp_error *err, const char *base)
{
    if (err != NULL) {
        say_hosts(err->msg, sizeof err->msg);
        repoint_link_speed(err->msg, sizeof err->msg, base);
    }
    static const char *const from[] = { "/cluster/nic", "/cluster/gpus", "/cluster", "/fabric/link_gbps",
                                        "/fabric/su_servers", "/fabric", "/mlag_peer_links",
                                        "/hosts_per_leaf", "/servers_per_leaf", "/uplink_to" };
    static const char *const to[] = { "/nic", "", "", "/port_gbps", "/switch", "", "/mlag_peer_links",
                                      "/hosts_per_leaf", "/servers_per_leaf", "/uplink_to" };
    if (err == NULL)
        return;
    for (size_t k = 0; k < sizeof from / sizeof *from; k++) {
        size_t n = strlen(from[k]);
        if (strncmp(err->where, from[k], n) != 0 || (err->where[n] != '\0' && err->where[n] != '/'))
            continue;
        char old[sizeof err->where], where[sizeof err->where], msg[sizeof err->msg];
        snprintf(old, sizeof old, "%s", err->where);
        snprintf(where, sizeof where, "%s%s%s", base, to[k], old + n);
        char *at = strstr(err->msg, old);
        if (at != NULL) {
            snprintf(msg, sizeof msg, "%.*s%s%s", (int)(at - err->msg), err->msg, where,
                     at + strlen(old));
            snprintf(err->msg, sizeof err->msg, "%s", msg);
        }
        snprintf(err->where, sizeof err->where, "%s", where);
        return;
    }
    /* Anything else: the network's pointer before the message. */
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s: %s", base, err->msg);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    snprintf(err->where, sizeof err->where, "%s", base);
}

static int name_ok(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
            return 0;
    return 1;
}

/* An endpoint group's count: a number, or "switches" (one per switch of the compute fabric and
 * of every network listed before this one: their management ports, counted from the plan). */
static fp_status read_count(fp_net_extra *x, const cJSON *e, const char *p, int64_t switches_before,
                            int64_t *count, fp_error *err)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "count");
    if (cJSON_IsString(c)) {
        if (strcmp(c->valuestring, "switches") != 0)
            FP_FAIL(err, FP_EINVAL, p, "%s/count: expected a number or \"switches\" (one per "
                                       "switch of the compute fabric and of the networks listed "
                                       "before), found \"%s\"",
                    p, c->valuestring);
        x->per_switch = 1;
        *count = switches_before;
        return FP_OK;
    }
    return fp__json_int(e, "count", p, 1, 100000, count, err);
}

static fp_status read_extras(fp_net_spec *ns, const cJSON *arr, const char *base,
                             int64_t switches_before, fp_error *err)
{
    static const char *const keys[] = { "name", "count", "ports", "ru", "power_w", NULL };
    char ptr[96], d[96];
    fp_status rc;
    if (arr == NULL)
        return FP_OK;
    snprintf(ptr, sizeof ptr, "%s/extra_endpoints", base);
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > FP_MAX_NET_EXTRAS)
        FP_FAIL(err, FP_EINVAL, ptr, "%s: expected an array of at most %d endpoint groups, found %s",
                ptr, FP_MAX_NET_EXTRAS, fp__json_describe(arr, d, sizeof d));
    for (int i = 0; i < cJSON_GetArraySize(arr); i++) {
        const cJSON *e = cJSON_GetArrayItem(arr, i);
        fp_net_extra *x = &ns->extra[i];
        char p[128];
        int64_t count = -1;
        fp__json_ptr_index(p, sizeof p, ptr, i);
        memset(x, 0, sizeof *x);
        x->ports = ns->ports;
        x->ru = 1;
        if (!cJSON_IsObject(e))
            FP_FAIL(err, FP_EINVAL, p, "%s: expected an object {\"name\", \"count\", \"ports\", \"ru\"}, found %s",
                    p, fp__json_describe(e, d, sizeof d));
        if ((rc = fp__json_check_keys(e, p, keys, err)) != FP_OK ||
            (rc = fp__json_str(e, "name", p, x->name, sizeof x->name, err)) != FP_OK ||
            (rc = read_count(x, e, p, switches_before, &count, err)) != FP_OK ||
            (rc = fp__json_i32(e, "ports", p, 1, 64, &x->ports, err)) != FP_OK ||
            (rc = fp__json_i32(e, "ru", p, 0, 48, &x->ru, err)) != FP_OK ||
            (rc = fp__json_num(e, "power_w", p, 0, 1e6, &x->power_w, err)) != FP_OK)
            return rc;
        if (!name_ok(x->name))
            FP_FAIL(err, FP_EINVAL, p, "%s/name: expected a name of lower-case letters, digits and '-', found \"%s\"",
                    p, x->name);
        if (count < 0)
            FP_FAIL(err, FP_EINVAL, p, "%s/count: missing; expected how many of these endpoints there are", p);
        x->count = count;
        if (x->per_switch && x->ports != ns->ports)
            FP_FAIL(err, FP_EINVAL, p, "%s/ports: %d ports, but an endpoint counted \"switches\" "
                                       "is a switch's management port; expected the network's %d "
                                       "ports per server (or leave ports out)",
                    p, x->ports, ns->ports);
        if (x->per_switch) {
            /* The switch's own units and power are its network's. */
            x->ru = 0;
            x->power_w = 0;
        }
        if (x->ports % ns->ports != 0)
            FP_FAIL(err, FP_EINVAL, p, "%s/ports: %d ports is not a multiple of the network's %d "
                                       "ports per server; each group of %d is attached like a "
                                       "server's",
                    p, x->ports, ns->ports, ns->ports);
        ns->hosts += x->count * (x->ports / ns->ports);
    }
    ns->n_extra = cJSON_GetArraySize(arr);
    return FP_OK;
}

/* The network as a spec of its own: hosts with `ports` ports each at port_gbps. A single-homed
 * network beside a rail-optimized compute fabric takes its scalable units: a leaf then never
 * serves hosts of two units, and the layout starts rows (and lines of rows) only between
 * units, so a leaf's copper runs stay among its unit's racks. */
static cJSON *sub_spec(const fp_net_spec *ns, const cJSON *n, const fp_rspec *compute, int gbps,
                       const cJSON *attach_top, int64_t attach_switches)
{
    const char *plan_name = compute->name;
    static const char *const pass[] = { "switch", "tiers", "oversubscription", "reserve", "spread",
                                        "min_top_switches", "uplinks_per_leaf", NULL };
    cJSON *root = cJSON_CreateObject(), *cl = cJSON_CreateObject(), *fa = cJSON_CreateObject();
    char name[200];
    if (root == NULL || cl == NULL || fa == NULL) {
        cJSON_Delete(root);
        cJSON_Delete(cl);
        cJSON_Delete(fa);
        return NULL;
    }
    cJSON_AddItemToObject(root, "cluster", cl);
    cJSON_AddItemToObject(root, "fabric", fa);
    snprintf(name, sizeof name, "%s-%s", plan_name, ns->name);
    cJSON_AddStringToObject(root, "name", name);
    cJSON_AddNumberToObject(cl, "gpus", (double)ns->hosts);
    cJSON_AddNumberToObject(cl, "gpus_per_server", 1);
    const cJSON *nic = cJSON_GetObjectItemCaseSensitive(n, "nic");
    if (nic != NULL) {
        /* A NIC part: as many of them as the ports need (checked below). */
        cJSON_AddItemToObject(cl, "nic", cJSON_Duplicate(nic, 1));
    } else {
        cJSON *on = cJSON_CreateObject();
        cJSON_AddNumberToObject(on, "ports", ns->ports);
        cJSON_AddNumberToObject(on, "port_gbps", gbps);
        cJSON_AddStringToObject(on, "name", "on-board ports");
        cJSON_AddItemToObject(cl, "nic", on);
        cJSON_AddNumberToObject(cl, "nics_per_server", 1);
    }
    /* A single-homed network's leaves serve units of servers: servers_per_leaf, else the
     * compute fabric's scalable units, else (hosts_per_leaf alone) that many. */
    int unit = ns->servers_per_leaf > 0             ? ns->servers_per_leaf
               : compute->topology == FP_TOPO_RAIL ? compute->su_servers
                                                   : ns->hosts_per_leaf;
    int by_unit = !ns->dual_homed && unit > 0;
    cJSON_AddStringToObject(fa, "topology", ns->dual_homed || by_unit ? "rail-optimized" : "clos");
    if (by_unit)
        cJSON_AddNumberToObject(fa, "su_servers", unit);
    /* Never one top switch for a dual-homed network: its pairs would share a single point of
     * failure above them. */
    if (ns->dual_homed && attach_top == NULL &&
        cJSON_GetObjectItemCaseSensitive(n, "min_top_switches") == NULL)
        cJSON_AddNumberToObject(fa, "min_top_switches", 2);
    cJSON_AddNumberToObject(fa, "link_gbps", gbps);
    for (int k = 0; pass[k]; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(n, pass[k]);
        if (v != NULL && !(attach_top != NULL && strcmp(pass[k], "switch") == 0))
            cJSON_AddItemToObject(fa, pass[k], cJSON_Duplicate(v, 1));
    }
    if (attach_top != NULL) {
        /* Attached (uplink_to): two tiers, the leaves' own model and, above them, the target's
         * top tier (its model, as many switches as it has), over which each leaf's uplinks
         * spread in turn ("balanced": every target switch takes as many as the others, give or
         * take one; the fabric stage puts them on the target's free ports). */
        const cJSON *sw = cJSON_GetObjectItemCaseSensitive(n, "switch");
        cJSON *pair = cJSON_CreateArray();
        cJSON_AddItemToArray(pair, cJSON_Duplicate(cJSON_IsArray(sw) ? cJSON_GetArrayItem(sw, 0) : sw, 1));
        cJSON_AddItemToArray(pair, cJSON_Duplicate(attach_top, 1));
        cJSON_AddItemToObject(fa, "switch", pair);
        cJSON_AddNumberToObject(fa, "tiers", 2);
        cJSON_AddStringToObject(fa, "spread", "balanced");
        cJSON_AddNumberToObject(fa, "min_top_switches", (double)attach_switches);
    }
    return root;
}

/* A dual-homed network's shape, decided once here so that the fabric stage only sizes and builds
 * (the resolved spec is read-only after this stage): two rails whose unit is at most as many
 * hosts as one leaf has down ports, the hosts spread evenly over as few units as that allows (a
 * partial last pair would keep a full pair's uplinks, the rail rule for partial scalable
 * units), so each unit gets one leaf per port: the MLAG pair. With peer links, room for them:
 * while they do not fit in the leaf's ports (less the spec's reserve) after its host and up
 * ports, the reserve grows by one cage (which every tier then keeps free). */
static fp_status shape_dual(fp_net_spec *ns, int given_peers, fp_error *err)
{
    fp_rspec *rs = &ns->rs;
    const fp_tier_spec *ts = &rs->tier[0];
    if (ns->hosts_per_leaf > fp__tier_down(rs, 0))
        FP_FAIL(err, FP_EDESIGN, "/hosts_per_leaf",
                "/hosts_per_leaf: %d hosts, but the %s leaf has %d down ports beside its up links%s; expected at most %d",
                ns->hosts_per_leaf, ts->model.id, fp__tier_down(rs, 0),
                rs->reserve > 0 ? " and the reserve" : "", fp__tier_down(rs, 0));
    if (!ns->dual_homed) {
        /* A single-homed network in units of servers (sub_spec): a leaf that has room for
         * several whole units takes them (SUs of 8 servers on 48-port leaves: 6 to a leaf),
         * so small units do not each get a leaf of their own. With hosts_per_leaf (the
         * hosts a leaf takes) the extra endpoints fill the leaves' free ports, unit by unit,
         * before they take leaves of their own; without it they follow the servers in units of
         * their own. */
        int d = rs->topology == FP_TOPO_RAIL ? fp__tier_down(rs, 0) : 0;
        int cap = ns->hosts_per_leaf > 0 ? ns->hosts_per_leaf : d;
        if (ns->servers_per_leaf > cap && d > 0)
            FP_FAIL(err, FP_EDESIGN, "/servers_per_leaf",
                    "/servers_per_leaf: %d servers, but a %s leaf takes %d hosts%s; expected at most %d",
                    ns->servers_per_leaf, ts->model.id, cap,
                    ns->hosts_per_leaf > 0 ? " (hosts_per_leaf)" : "", cap);
        if (ns->servers_per_leaf == 0 && rs->su_servers > 0 && cap >= 2 * rs->su_servers)
            rs->su_servers = cap / rs->su_servers * rs->su_servers;
        if (ns->hosts_per_leaf > 0 && d > 0 && rs->endpoints_per_server == 1 && ns->n_extra > 0 &&
            rs->su_servers <= cap) {
            rs->fill_cap = cap;
            rs->fill_from = ns->servers;
        }
        return FP_OK;
    }
    if (ns->peer_links > 0 && (ts->breakout_up != ts->breakout || ts->model.uplink_ports > 0)) {
        /* The peer links take whole cages after the leaf's down and up ports, counted at one
         * split; a leaf whose up links split otherwise, or leave by uplink ports of their own,
         * has no such place. Given ones are an error; the default ones are dropped, said so. */
        if (given_peers)
            FP_FAIL(err, FP_EDESIGN, "/mlag_peer_links",
                    "/mlag_peer_links: %d peer links, but the %s leaves' up links %s, so the peer "
                    "links have no cages of their own; expected mlag_peer_links 0 (or left out) or "
                    "a leaf whose ports all split alike",
                    ns->peer_links, ts->model.id,
                    ts->model.uplink_ports > 0 ? "leave by uplink ports of their own" : "split unlike their down links");
        snprintf(ns->note, sizeof ns->note,
                 "no MLAG peer links: the default %d per pair was dropped because the %s leaves' "
                 "up links %s; give the pairs their peering elsewhere",
                 ns->peer_links, ts->model.id,
                 ts->model.uplink_ports > 0 ? "leave by uplink ports of their own" : "split unlike their down links");
        ns->peer_links = 0;
    }
    const int kc = (ts->per_cage > 0 ? ts->per_cage : 1) * (ts->breakout > 0 ? ts->breakout : 1);
    const int cap = (int)floor(ts->radix * (1.0 - rs->reserve) + 1e-9);
    for (int step = 0;; step++) {
        int64_t down = fp__tier_down(rs, 0) > 0 ? fp__tier_down(rs, 0) : 1;
        int64_t pairs = (ns->hosts + down - 1) / down;
        rs->su_servers = ns->hosts_per_leaf > 0 ? ns->hosts_per_leaf
                                                : (int)((ns->hosts + pairs - 1) / pairs);
        rs->topology = FP_TOPO_RAIL;
        /* The peer links start on the first whole cage after a leaf's unit and its up links. */
        int used = rs->su_servers + fp__up_for(rs, 0, rs->su_servers);
        if (ns->peer_links == 0 || (used + kc - 1) / kc * kc + ns->peer_links * kc <= cap)
            return FP_OK;
        fp_error e = { 0 };
        if (step > ts->radix / kc ||
            (rs->reserve += (double)kc / ts->radix, fp__spec_check_ports(rs, &e)) != FP_OK ||
            ns->hosts_per_leaf > fp__tier_down(rs, 0))
            FP_FAIL(err, FP_EDESIGN, "/mlag_peer_links",
                    "/mlag_peer_links: %d peer links (a cage each) do not fit on the %s leaves (%d "
                    "ports) beside their hosts' and up links; expected fewer peer links, a larger "
                    "switch or more tiers",
                    ns->peer_links, ts->model.id, ts->radix);
    }
}

/* The entry's name, role, ports per server and their speed (*gbps). */
static fp_status read_head(fp_net_spec *ns, const cJSON *n, const char *base, int *gbps,
                           fp_error *err)
{
    static const char *const keys[] = { "name", "role", "ports_per_server", "port_gbps", "nic",
                                        "dual_homed", "extra_endpoints", "switch", "tiers",
                                        "oversubscription", "reserve", "mlag_peer_links",
                                        "spread", "min_top_switches", "uplinks_per_leaf",
                                        "hosts_per_leaf", "servers_per_leaf", "uplink_to", NULL };
    char role[32] = "", d[96], p[160];
    fp_status rc;
    if (!cJSON_IsObject(n))
        FP_FAIL(err, FP_EINVAL, base, "%s: expected an object {\"name\", \"role\", \"switch\", ...}, found %s",
                base, fp__json_describe(n, d, sizeof d));
    if ((rc = fp__json_check_keys(n, base, keys, err)) != FP_OK ||
        (rc = fp__json_str(n, "name", base, ns->name, sizeof ns->name, err)) != FP_OK ||
        (rc = fp__json_str(n, "role", base, role, sizeof role, err)) != FP_OK)
        return rc;
    if (!name_ok(ns->name))
        FP_FAIL(err, FP_EINVAL, base, "%s/name: expected a name of lower-case letters, digits and "
                                      "'-' (it prefixes device names), found \"%s\"",
                base, ns->name);
    if (strcmp(ns->name, "compute") == 0) {
        snprintf(p, sizeof p, "%s/name", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: \"compute\" is the compute fabric's name in the outputs "
                                   "(NetBox tag, BOM network column); expected another name",
                p);
    }
    for (ns->role = 0; ns->role < 4 && strcmp(role, role_names[ns->role]) != 0; ns->role++)
        ;
    if (ns->role == 4) {
        snprintf(p, sizeof p, "%s/role", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: expected \"converged\", \"storage\", \"management\" or \"oob\", found \"%s\"",
                p, role);
    }
    ns->ports = ns->role == FP_NET_CONVERGED || ns->role == FP_NET_STORAGE ? 2 : 1;
    if ((rc = fp__json_i32(n, "ports_per_server", base, 1, 16, &ns->ports, err)) != FP_OK ||
        (rc = fp__json_i32(n, "port_gbps", base, 1, 1600, gbps, err)) != FP_OK)
        return rc;
    if (*gbps == 0) {
        snprintf(p, sizeof p, "%s/port_gbps", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: missing; expected the speed of the servers' ports on this "
                                   "network in Gb/s (200 for a DGX H100's storage ports, 1 for a "
                                   "BMC)",
                p);
    }
    return FP_OK;
}

/* dual_homed (default: converged and storage networks with 2 ports) and mlag_peer_links (-1
 * when not given: the default follows the protocol, resolve_one). */
static fp_status read_homing(fp_net_spec *ns, const cJSON *n, const char *base, fp_error *err)
{
    char d[96], p[160];
    fp_status rc;
    ns->dual_homed = ns->ports == 2 && ns->role != FP_NET_MANAGEMENT && ns->role != FP_NET_OOB;
    const cJSON *dh = cJSON_GetObjectItemCaseSensitive(n, "dual_homed");
    if (dh != NULL) {
        snprintf(p, sizeof p, "%s/dual_homed", base);
        if (!cJSON_IsBool(dh))
            FP_FAIL(err, FP_EINVAL, p, "%s: expected true or false, found %s", p,
                    fp__json_describe(dh, d, sizeof d));
        ns->dual_homed = cJSON_IsTrue(dh);
        if (ns->dual_homed && ns->ports != 2)
            FP_FAIL(err, FP_EINVAL, p, "%s: dual-homing takes exactly 2 ports per server (one to "
                                       "each leaf of a pair), found ports_per_server %d",
                    p, ns->ports);
    }
    ns->peer_links = -1;
    int min_top = 0;
    /* hosts_per_leaf and servers_per_leaf "auto" (validate --print-spec's word) are as left
     * out: the planner chooses. */
    int64_t hosts = 0, servers = 0;
    if ((rc = fp__json_i32(n, "mlag_peer_links", base, 0, 16, &ns->peer_links, err)) != FP_OK ||
        (rc = fp__json_int_auto(n, "hosts_per_leaf", base, 1, 4096, &hosts, err)) != FP_OK ||
        (rc = fp__json_int_auto(n, "servers_per_leaf", base, 1, 4096, &servers, err)) != FP_OK ||
        (rc = fp__json_i32(n, "min_top_switches", base, 1, 4096, &min_top, err)) != FP_OK)
        return rc;
    ns->hosts_per_leaf = (int)hosts;
    ns->servers_per_leaf = (int)servers;
    if (ns->dual_homed && ns->servers_per_leaf > 0) {
        snprintf(p, sizeof p, "%s/servers_per_leaf", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: a dual-homed network's pairs take its hosts in order "
                                   "(servers, then the extra endpoints); expected hosts_per_leaf "
                                   "instead",
                p);
    }
    if (ns->dual_homed && min_top % 2 != 0) {
        /* The top switches of a dual-homed network come in pairs: each leaf pair's two
         * uplink sets then land on two switches, and one failing leaves the other. */
        snprintf(p, sizeof p, "%s/min_top_switches", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: %d, but a dual-homed network's top switches come in pairs "
                                   "(never one above all its pairs); expected an even number "
                                   "(default 2)",
                p, min_top);
    }
    if (ns->peer_links > 0 && !ns->dual_homed) {
        snprintf(p, sizeof p, "%s/mlag_peer_links", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: %d peer links, but the network is not dual-homed; MLAG "
                                   "peer links join the two leaves of a pair (set dual_homed, or "
                                   "leave mlag_peer_links out)",
                p, ns->peer_links);
    }
    return FP_OK;
}

/* uplink_to: the network (listed before this one) whose top tier this network's leaves uplink
 * into (ns->uplink_to, -1 when not given). The target is built first (networks are built in
 * spec order), so a network can only attach to one listed before it: no network attaches to
 * itself and no two attach to each other (no cycle). The settings that would shape a top tier
 * of the network's own (tiers, spread, min_top_switches, a switch per tier) are errors beside
 * it. *top: the target's top-tier switch as the spec gives it (for the sub-spec). */
static fp_status read_uplink(fp_nets *nets, int i, const cJSON *all, const fp_net_built *before,
                             const char *base, const cJSON **top, fp_error *err)
{
    static const char *const own_top[] = { "tiers", "spread", "min_top_switches", NULL };
    const cJSON *n = cJSON_GetArrayItem(all, i);
    fp_net_spec *ns = &nets->net[i];
    char name[FP_NET_NAME_MAX + 8] = "", p[160];
    fp_status rc;
    ns->uplink_to = -1;
    *top = NULL;
    if (cJSON_GetObjectItemCaseSensitive(n, "uplink_to") == NULL)
        return FP_OK;
    if ((rc = fp__json_str(n, "uplink_to", base, name, sizeof name, err)) != FP_OK)
        return rc;
    snprintf(p, sizeof p, "%s/uplink_to", base);
    if (strcmp(name, ns->name) == 0)
        FP_FAIL(err, FP_EINVAL, p, "%s: \"%s\" is this network; expected the name of another "
                                   "network, listed before this one, whose top-tier switches take "
                                   "this network's uplinks",
                p, name);
    if (strcmp(name, "compute") == 0)
        FP_FAIL(err, FP_EINVAL, p, "%s: the compute fabric takes no other network's uplinks (its "
                                   "ports are sized for its GPUs); expected the name of a network "
                                   "listed before this one in /networks",
                p);
    int j = 0;
    while (j < i && strcmp(nets->net[j].name, name) != 0)
        j++;
    if (j == i) {
        /* Not before this one: listed after it, or nowhere. */
        for (int k = i + 1; k < cJSON_GetArraySize(all); k++) {
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(all, k), "name");
            if (cJSON_IsString(nm) && strcmp(nm->valuestring, name) == 0)
                FP_FAIL(err, FP_EINVAL, p, "%s: \"%s\" is /networks/%d, listed after this one; "
                                           "networks are built in spec order and a network's "
                                           "uplinks land on switches already built, so no two "
                                           "networks attach to each other; expected a network "
                                           "listed before this one (move \"%s\" before it)",
                        p, name, k, name);
        }
        char known[160] = "";
        for (int k = 0; k < i; k++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s\"%s\"",
                     k ? ", " : "", nets->net[k].name);
        FP_FAIL(err, FP_EINVAL, p, "%s: no network listed before this one is named \"%s\"; expected one of the networks before it%s%s",
                p, name, i ? ": " : " (there is none)", known);
    }
    if (nets->net[j].uplink_to >= 0)
        FP_FAIL(err, FP_EINVAL, p, "%s: \"%s\" itself uplinks to \"%s\" (its top tier is that "
                                   "network's switches); expected \"%s\", the network whose "
                                   "switches are the top tier",
                p, name, nets->net[nets->net[j].uplink_to].name, nets->net[nets->net[j].uplink_to].name);
    for (int k = 0; own_top[k]; k++)
        if (cJSON_GetObjectItemCaseSensitive(n, own_top[k]) != NULL) {
            snprintf(p, sizeof p, "%s/%s", base, own_top[k]);
            FP_FAIL(err, FP_EINVAL, p, "%s: with uplink_to the network's top tier is \"%s\"'s "
                                       "switches (two tiers: the leaves and those), so it has no "
                                       "%s of its own; leave %s out",
                    p, name, own_top[k], own_top[k]);
        }
    const cJSON *sw = cJSON_GetObjectItemCaseSensitive(n, "switch");
    if (cJSON_IsArray(sw) && cJSON_GetArraySize(sw) != 1) {
        snprintf(p, sizeof p, "%s/switch", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: %d models, but with uplink_to the network's only switches "
                                   "are its leaves (the top tier is \"%s\"'s); expected one model",
                p, cJSON_GetArraySize(sw), name);
    }
    ns->uplink_to = j;
    /* The target's top-tier model as its entry gives it: one for every tier, or the list's
     * entry for its top tier (the last entry repeats). */
    const cJSON *tsw = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(all, j), "switch");
    *top = tsw;
    if (cJSON_IsArray(tsw)) {
        int at = before[j].tiers - 1, last = cJSON_GetArraySize(tsw) - 1;
        *top = cJSON_GetArrayItem(tsw, at < last ? at : last);
    }
    return FP_OK;
}

/* The network is cabled on the compute fabric's floor: its racks, trays, slack and service
 * loops, and its spares fractions. Its hosts' power is counted once, by the compute fabric (a
 * network adds only its own parts), and its cabling is direct (no patch panels). */
static void share_floor(fp_phys_spec *ps, const fp_phys_spec *cp)
{
    ps->rack_units = cp->rack_units;
    ps->rack_width_m = cp->rack_width_m;
    ps->rack_depth_m = cp->rack_depth_m;
    ps->aisle_m = cp->aisle_m;
    ps->tray_height_m = cp->tray_height_m;
    ps->service_loop_m = cp->service_loop_m;
    ps->slack_pct = cp->slack_pct;
    ps->extra_mated_pairs = cp->extra_mated_pairs;
    ps->rack_power_limit_w = cp->rack_power_limit_w;
    ps->tray_width_mm = cp->tray_width_mm;
    ps->tray_depth_mm = cp->tray_depth_mm;
    ps->tray_fill_max = cp->tray_fill_max;
    ps->tray_tiers = cp->tray_tiers;
    memcpy(ps->spares, cp->spares, sizeof ps->spares);
    ps->server_power_w = 0;
    ps->structured = 0;
}

static fp_status resolve_one(fp_nets *nets, int i, const cJSON *all, const char *base,
                             const fp_rspec *compute, int64_t switches_before,
                             const fp_net_built *before, const fp_catalog *cat, fp_error *err)
{
    fp_net_spec *ns = &nets->net[i];
    const cJSON *n = cJSON_GetArrayItem(all, i), *attach_top = NULL;
    char p[160];
    int gbps = 0;
    fp_status rc;
    memset(ns, 0, sizeof *ns);
    if ((rc = read_head(ns, n, base, &gbps, err)) != FP_OK ||
        (rc = read_homing(ns, n, base, err)) != FP_OK ||
        (rc = read_uplink(nets, i, all, before, base, &attach_top, err)) != FP_OK)
        return rc;
    if (cJSON_GetObjectItemCaseSensitive(n, "switch") == NULL) {
        snprintf(p, sizeof p, "%s/switch", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: missing; expected a switch model id (\"nvidia-sn4600c\") or one per tier, leaf first",
                p);
    }
    ns->servers = (compute->gpus + compute->gpus_per_server - 1) / compute->gpus_per_server +
                  compute->spare_servers;
    ns->hosts = ns->servers;
    if ((rc = read_extras(ns, cJSON_GetObjectItemCaseSensitive(n, "extra_endpoints"), base, switches_before,
                          err)) != FP_OK)
        return rc;
    if (ns->hosts > 10000000)
        FP_FAIL(err, FP_EINVAL, base, "%s: %lld endpoints; at most 10,000,000", base, (long long)ns->hosts);
    const fp_net_spec *tgt = ns->uplink_to >= 0 ? &nets->net[ns->uplink_to] : NULL;
    cJSON *root = sub_spec(ns, n, compute, gbps, attach_top,
                           tgt ? before[ns->uplink_to].top_switches : 0);
    if (root == NULL)
        FP_FAIL(err, FP_ENOMEM, base, "out of memory");
    rc = fp__spec_resolve_tree(&ns->rs, root, cat, err);
    cJSON_Delete(root);
    if (rc != FP_OK && tgt != NULL && strcmp(err->where, "/fabric/switch/1") == 0) {
        /* The only check of the target's model against the leaves': their protocols. */
        const fp_part *top = &tgt->rs.tier[before[ns->uplink_to].tiers - 1].model;
        snprintf(p, sizeof p, "%s/uplink_to", base);
        fp_error_clear(err);
        FP_FAIL(err, rc, p, "%s: \"%s\"'s top-tier %s speaks %s, which this network's leaves and "
                            "hosts do not: no protocol in common; expected a network of the "
                            "leaves' protocol",
                p, tgt->name, top->id, top->protocol);
    }
    if (rc != FP_OK) {
        fp__net_error_repoint(err, base);
        return rc;
    }
    if (tgt != NULL) {
        /* The leaves' uplinks run at the speed the target's top tier runs its ports at, so
         * they take its ports as its own links do (same split, same names). */
        const fp_tier_spec *top = &tgt->rs.tier[before[ns->uplink_to].tiers - 1];
        if (ns->rs.tier[1].gbps_down != top->gbps_down) {
            fp__phys_free(&ns->rs.phys);
            snprintf(p, sizeof p, "%s/uplink_to", base);
            FP_FAIL(err, FP_EDESIGN, p, "%s: this network's leaves uplink at %dG, but \"%s\"'s "
                                        "top-tier %s runs its ports at %dG; expected a target "
                                        "whose top tier runs at the leaves' uplink speed",
                    p, ns->rs.tier[1].gbps_down, tgt->name, top->model.id, top->gbps_down);
        }
    }
    share_floor(&ns->rs.phys, &compute->phys);
    /* MLAG is an Ethernet feature: two peer links per pair by default (a LAG of two, so one
     * cable or port failing keeps the peers joined); an InfiniBand pair has none. */
    const int given_peers = ns->peer_links >= 0;
    if (ns->peer_links < 0)
        ns->peer_links = ns->dual_homed && (ns->rs.protocols & FP_PROTO_ETH) ? 2 : 0;
    if (ns->rs.endpoints_per_server != ns->ports) {
        fp__phys_free(&ns->rs.phys);
        snprintf(p, sizeof p, "%s/nic", base);
        FP_FAIL(err, FP_EINVAL, p, "%s: %s has %d port%s; expected exactly the network's %d ports per server",
                p, ns->rs.nic.id, ns->rs.nic.ports, ns->rs.nic.ports == 1 ? "" : "s", ns->ports);
    }
    if ((rc = shape_dual(ns, given_peers, err)) != FP_OK) {
        fp__phys_free(&ns->rs.phys);
        fp__net_error_repoint(err, base);
        return rc;
    }
    return FP_OK;
}

/* An extra endpoint group's name names its devices (<name>-01, ...) in every output: network
 * i's groups must not repeat one of its own or of an earlier network. */
static fp_status extras_unique(const fp_nets *nets, int i, const char *base, fp_error *err)
{
    const fp_net_spec *ns = &nets->net[i];
    for (int k = 0; k < ns->n_extra; k++)
        for (int j = 0; j <= i; j++)
            for (int m = 0; m < (j == i ? k : nets->net[j].n_extra); m++)
                if (strcmp(nets->net[j].extra[m].name, ns->extra[k].name) == 0) {
                    char p[128];
                    snprintf(p, sizeof p, "%s/extra_endpoints/%d/name", base, k);
                    FP_FAIL(err, FP_EINVAL, p, "%s: \"%s\" is already the name of "
                                               "/networks/%d/extra_endpoints/%d; each endpoint "
                                               "group needs its own name (it names the group's "
                                               "devices)",
                            p, ns->extra[k].name, j, m);
                }
    return FP_OK;
}

/* Refuse, before any network is resolved or built, a spec whose extra endpoints together have
 * more than FP_MAX_EXTRA_PORTS ports (each network is built after the one before it, so a check
 * per network would come after the earlier ones' work). Only counts and ports given as numbers
 * are summed: anything else is refused later, where the entry is read. */
static fp_status extra_ports_bounded(const cJSON *arr, fp_error *err)
{
    double ports = 0;
    for (int i = 0; i < cJSON_GetArraySize(arr); i++) {
        const cJSON *n = cJSON_GetArrayItem(arr, i);
        const cJSON *xs = cJSON_GetObjectItemCaseSensitive(n, "extra_endpoints");
        const cJSON *pps = cJSON_GetObjectItemCaseSensitive(n, "ports_per_server");
        for (int j = 0; cJSON_IsArray(xs) && j < cJSON_GetArraySize(xs); j++) {
            const cJSON *x = cJSON_GetArrayItem(xs, j);
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(x, "count");
            const cJSON *p = cJSON_GetObjectItemCaseSensitive(x, "ports");
            if (!cJSON_IsNumber(c) || c->valuedouble < 1)
                continue;
            double each = cJSON_IsNumber(p) && p->valuedouble >= 1 ? p->valuedouble
                          : cJSON_IsNumber(pps) && pps->valuedouble >= 1 ? pps->valuedouble : 1;
            ports += c->valuedouble * each;
            if (ports > FP_MAX_EXTRA_PORTS) {
                char ptr[96];
                snprintf(ptr, sizeof ptr, "/networks/%d/extra_endpoints/%d", i, j);
                FP_FAIL(err, FP_EINVAL, ptr, "%s: the extra endpoints of every network up to here "
                                             "have %.0f ports; expected at most %d (2^20) in all "
                                             "networks together",
                        ptr, ports, FP_MAX_EXTRA_PORTS);
            }
        }
    }
    return FP_OK;
}

fp_status fp__nets_open(fp_nets *out, const struct fp_spec *spec, fp_error *err)
{
    const cJSON *arr = fp__spec_networks(spec);
    char d[96];
    memset(out, 0, sizeof *out);
    if (arr == NULL)
        return FP_OK;
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1 || cJSON_GetArraySize(arr) > FP_MAX_NETWORKS)
        FP_FAIL(err, FP_EINVAL, "/networks", "/networks: expected an array of 1 to %d networks, found %s",
                FP_MAX_NETWORKS, fp__json_describe(arr, d, sizeof d));
    int n = cJSON_GetArraySize(arr);
    fp_status rc = extra_ports_bounded(arr, err);
    if (rc != FP_OK)
        return rc;
    out->net = calloc((size_t)n, sizeof *out->net);
    if (out->net == NULL)
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory");
    out->in_spec = n;
    return FP_OK;
}

fp_status fp__nets_resolve_next(fp_nets *nets, const struct fp_spec *spec, const fp_rspec *compute,
                                int64_t switches_before, const fp_net_built *before,
                                const fp_catalog *cat, fp_error *err)
{
    const cJSON *arr = fp__spec_networks(spec);
    const int i = nets->n;
    char base[48];
    fp__json_ptr_index(base, sizeof base, "/networks", i);
    fp_status rc = resolve_one(nets, i, arr, base, compute, switches_before, before, cat, err);
    if (rc != FP_OK)
        return rc;
    nets->n = i + 1;
    for (int j = 0; j < i; j++)
        if (strcmp(nets->net[j].name, nets->net[i].name) == 0)
            FP_FAIL(err, FP_EINVAL, base, "%s/name: \"%s\" is already the name of /networks/%d; each network needs its own name",
                    base, nets->net[i].name, j);
    return extras_unique(nets, i, base, err);
}
