/* fabplan — spec: the cluster and fabric sections resolved against the catalog (the NIC, the
 * switch of each tier, speeds, breakouts, oversubscription, tiers as given), and the checks
 * that join them, including those that need the tier count the fabric stage chose. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "spec/spec_fabric.h"

#define DEFAULT_GPUS 16384
/* The largest cluster a spec may ask for, 2^20 GPUs: at about 1.2 kB of memory per GPU
 * planned, some 1.3 GB, what a planning workstation can be asked for. */
#define MAX_GPUS 1048576
#define DEFAULT_GPUS_PER_SERVER 8
#define DEFAULT_NIC "nvidia-cx7-osfp"
#define DEFAULT_SWITCH "nvidia-qm9700"
#define DEFAULT_SU_SERVERS 32

/* A part given by catalog id (string) or inline (object). */
static fp_status resolve_part(fp_part *out, const cJSON *v, const char *ptr, fp_part_type type,
                              const fp_catalog *cat, fp_error *err)
{
    char d[96];
    if (cJSON_IsString(v)) {
        const fp_part *p = fp_catalog_find(cat, v->valuestring);
        if (p == NULL || p->type != type) {
            const char *near[5];
            size_t n = fp_catalog_suggest(cat, v->valuestring, type, near, 5);
            char list[320] = "";
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", near[i]);
            if (p != NULL)
                FP_FAIL(err, FP_ECATALOG, ptr, "%s: \"%s\" is a %s, expected a %s%s%s", ptr,
                        v->valuestring, fp_part_type_name(p->type), fp_part_type_name(type),
                        n ? "; close matches: " : "", list);
            if (n == 0) {
                /* No close match: list every part of the type so the user sees the choice. */
                for (size_t i = 0; i < fp_catalog_count(cat) && k < sizeof list - 50; i++) {
                    const fp_part *q = fp_catalog_part(cat, i);
                    if (q->type == type)
                        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", q->id);
                }
                FP_FAIL(err, FP_ECATALOG, ptr, "%s: unknown %s \"%s\"; the catalog has: %s", ptr,
                        fp_part_type_name(type), v->valuestring, list);
            }
            FP_FAIL(err, FP_ECATALOG, ptr, "%s: unknown %s \"%s\"; close matches: %s", ptr,
                    fp_part_type_name(type), v->valuestring, list);
        }
        *out = *p;
        return FP_OK;
    }
    if (cJSON_IsObject(v)) {
        /* Inline parts must at least carry ports and speed; other fields are optional. */
        if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(v, "ports")) ||
            !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(v, "port_gbps")))
            FP_FAIL(err, FP_EINVAL, ptr, "%s: an inline %s needs \"ports\" and \"port_gbps\", e.g. {\"ports\": 64, \"port_gbps\": 400}",
                    ptr, fp_part_type_name(type));
        fp_status rc = fp__part_parse_inline(out, v, ptr, type, err);
        if (rc != FP_OK && err)
            err->code = FP_EINVAL;
        return rc == FP_OK ? FP_OK : FP_EINVAL;
    }
    FP_FAIL(err, FP_EINVAL, ptr, "%s: expected a catalog id (string) or an object {\"ports\": N, \"port_gbps\": G}, found %s",
            ptr, fp__json_describe(v, d, sizeof d));
}

/* Ways a switch port splits to run at link_gbps: 1 when the speeds match, 0 when impossible. */
static int breakout_for(const fp_part *sw, int link_gbps)
{
    if (sw->port_gbps == link_gbps)
        return 1;
    if (sw->port_gbps < link_gbps || sw->port_gbps % link_gbps != 0)
        return 0;
    int ways = sw->port_gbps / link_gbps;
    for (int i = 0; i < FP_MAX_BREAKOUTS; i++)
        if (sw->breakouts[i] == ways)
            return ways;
    return 0;
}

fp_status fp__spec_resolve_cluster(fp_rspec *rs, const cJSON *c, const fp_catalog *cat,
                                   fp_error *err)
{
    static const char *const keys[] = { "gpus", "gpus_per_server", "nics_per_server", "nic",
                                        "nvlink_domain_servers", "server_names", NULL };
    int64_t gpus = DEFAULT_GPUS, gps = DEFAULT_GPUS_PER_SERVER, nps = -1, nvl = 1;
    fp_status rc;
    cJSON def_nic = { 0 };
    def_nic.type = cJSON_String;
    def_nic.valuestring = (char *)DEFAULT_NIC;
    const cJSON *nic = c ? cJSON_GetObjectItemCaseSensitive(c, "nic") : NULL;
    if (c && ((rc = fp__json_check_keys(c, "/cluster", keys, err)) != FP_OK ||
              (rc = fp__json_int(c, "gpus", "/cluster", 1, MAX_GPUS, &gpus, err)) != FP_OK ||
              (rc = fp__json_int(c, "gpus_per_server", "/cluster", 1, 64, &gps, err)) != FP_OK ||
              (rc = fp__json_int(c, "nics_per_server", "/cluster", 1, 64, &nps, err)) != FP_OK ||
              (rc = fp__json_int(c, "nvlink_domain_servers", "/cluster", 1, 4096, &nvl, err)) != FP_OK))
        return rc;
    /* the template is read whole: a longer one cannot make names that fit (each field writes
     * at least one character) */
    char names[8 * FP_SERVER_NAME_MAX + 8] = "";
    const cJSON *sn = c ? cJSON_GetObjectItemCaseSensitive(c, "server_names") : NULL;
    if (cJSON_IsString(sn) && strlen(sn->valuestring) >= sizeof names)
        FP_FAIL(err, FP_EINVAL, "/cluster/server_names",
                "/cluster/server_names: a template of %zu characters; expected at most %zu (names "
                "of at most %d characters)", strlen(sn->valuestring), sizeof names - 1,
                FP_SERVER_NAME_MAX);
    if (sn != NULL &&
        ((rc = fp__json_str(c, "server_names", "/cluster", names, sizeof names, err)) != FP_OK ||
         (rc = fp__host_template_parse(&rs->server_names, names, err)) != FP_OK))
        return rc;
    rs->gpus = gpus;
    rs->nvlink_servers = (int)nvl;
    rs->gpus_per_server = (int)gps;
    rs->nics_per_server = nps < 0 ? (int)gps : (int)nps;
    return resolve_part(&rs->nic, nic ? nic : &def_nic, "/cluster/nic", FP_PART_NIC, cat, err);
}

/* The fabric section's scalars: keys, topology, scalable unit, planes, reserve, spread,
 * build_for_gpus, min_top_switches, uplinks_per_leaf, rail_leaves, the blocks' servers
 * (leaf_servers, pod_servers, zone_servers: 0 when not given). */
static fp_status fabric_scalars(fp_rspec *rs, const cJSON *f, fp_error *err)
{
    static const char *const keys[] = { "topology", "tiers", "switch", "oversubscription",
                                        "su_servers", "planes", "reserve", "spread",
                                        "build_for_gpus", "link_gbps", "min_top_switches",
                                        "uplinks_per_leaf", "rail_leaves", "leaf_servers",
                                        "pod_servers", "zone_servers", NULL };
    char topo[32] = "rail-optimized", spread[32] = "even", rail_leaves[32] = "aligned";
    int64_t su = DEFAULT_SU_SERVERS, planes = 1, build_for = rs->gpus, min_top = 1, leaf_up = 0;
    double reserve = 0;
    fp_status rc;
    if (f && ((rc = fp__json_check_keys(f, "/fabric", keys, err)) != FP_OK ||
              (rc = fp__json_str(f, "topology", "/fabric", topo, sizeof topo, err)) != FP_OK ||
              (rc = fp__json_int_auto(f, "su_servers", "/fabric", 1, 4096, &su, err)) != FP_OK ||
              (rc = fp__json_int(f, "planes", "/fabric", 1, FP_MAX_PLANES, &planes, err)) != FP_OK ||
              (rc = fp__json_num(f, "reserve", "/fabric", 0, 0.9, &reserve, err)) != FP_OK ||
              (rc = fp__json_str(f, "spread", "/fabric", spread, sizeof spread, err)) != FP_OK ||
              (rc = fp__json_str(f, "rail_leaves", "/fabric", rail_leaves, sizeof rail_leaves,
                                 err)) != FP_OK ||
              (rc = fp__json_int(f, "build_for_gpus", "/fabric", 1, MAX_GPUS, &build_for, err)) != FP_OK ||
              (rc = fp__json_int(f, "min_top_switches", "/fabric", 1, 4096, &min_top, err)) != FP_OK ||
              (rc = fp__json_int_auto(f, "uplinks_per_leaf", "/fabric", 1, 4096, &leaf_up, err)) != FP_OK ||
              (rc = fp__json_int_auto(f, "leaf_servers", "/fabric", 1, 4096, &rs->block_servers[1], err)) != FP_OK ||
              (rc = fp__json_int_auto(f, "pod_servers", "/fabric", 1, MAX_GPUS, &rs->block_servers[2], err)) != FP_OK ||
              (rc = fp__json_int_auto(f, "zone_servers", "/fabric", 1, MAX_GPUS, &rs->block_servers[3], err)) != FP_OK))
        return rc;
    rs->min_top = (int)min_top;
    rs->leaf_up = (int)leaf_up;
    if (strcmp(spread, "even") == 0)
        rs->spread = FP_SPREAD_EVEN;
    else if (strcmp(spread, "balanced") == 0)
        rs->spread = FP_SPREAD_BALANCED;
    else
        FP_FAIL(err, FP_EINVAL, "/fabric/spread",
                "/fabric/spread: expected \"even\" or \"balanced\", found \"%s\"", spread);
    if (strcmp(rail_leaves, "aligned") != 0 && strcmp(rail_leaves, "shared") != 0)
        FP_FAIL(err, FP_EINVAL, "/fabric/rail_leaves",
                "/fabric/rail_leaves: expected \"aligned\" (one rail per leaf) or \"shared\" (a "
                "leaf may end one rail and start the next), found \"%s\"",
                rail_leaves);
    rs->rail_shared = strcmp(rail_leaves, "shared") == 0;
    if (build_for < rs->gpus)
        FP_FAIL(err, FP_EINVAL, "/fabric/build_for_gpus",
                "/fabric/build_for_gpus: %lld is less than the %lld GPUs in /cluster/gpus; expected at least %lld",
                (long long)build_for, (long long)rs->gpus, (long long)rs->gpus);
    rs->build_for_gpus = build_for;
    if (strcmp(topo, "clos") == 0)
        rs->topology = FP_TOPO_CLOS;
    else if (strcmp(topo, "fat-tree") == 0)
        rs->topology = FP_TOPO_FAT_TREE;
    else if (strcmp(topo, "rail-optimized") == 0)
        rs->topology = FP_TOPO_RAIL;
    else
        FP_FAIL(err, FP_EINVAL, "/fabric/topology",
                "/fabric/topology: expected \"clos\", \"fat-tree\" or \"rail-optimized\", found \"%s\"",
                topo);
    rs->su_servers = (int)su;
    rs->su_auto = rs->topology == FP_TOPO_RAIL &&
                          (f == NULL || cJSON_GetObjectItemCaseSensitive(f, "su_servers") == NULL ||
                           fp__json_is_auto(f, "su_servers"))
                      ? DEFAULT_SU_SERVERS
                      : 0;
    rs->planes = (int)planes;
    rs->reserve = reserve;
    return FP_OK;
}

/* fabric.tiers: "auto" or 2..4. */
static fp_status fabric_tiers(fp_rspec *rs, const cJSON *f, fp_error *err)
{
    char d[96];
    const cJSON *v;
    rs->tiers_auto = 1;
    rs->tiers_given = 0;
    v = f ? cJSON_GetObjectItemCaseSensitive(f, "tiers") : NULL;
    if (v) {
        if (cJSON_IsString(v) && strcmp(v->valuestring, "auto") == 0) {
            rs->tiers_auto = 1;
        } else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
                   v->valuedouble >= 2 && v->valuedouble <= FP_MAX_TIERS) {
            rs->tiers_auto = 0;
            rs->tiers_given = (int)v->valuedouble;
        } else {
            FP_FAIL(err, FP_EINVAL, "/fabric/tiers",
                    "/fabric/tiers: expected \"auto\", 2, 3 or 4, found %s",
                    fp__json_describe(v, d, sizeof d));
        }
    }
    return FP_OK;
}

/* fabric.switch: one for every tier, or an array leaf first. */
static fp_status fabric_switches(fp_rspec *rs, const cJSON *f, const fp_catalog *cat,
                                 fp_error *err)
{
    fp_status rc;
    const cJSON *v;
    cJSON def_sw = { 0 };
    def_sw.type = cJSON_String;
    def_sw.valuestring = (char *)DEFAULT_SWITCH;
    v = f ? cJSON_GetObjectItemCaseSensitive(f, "switch") : NULL;
    if (v == NULL)
        v = &def_sw;
    if (cJSON_IsArray(v)) {
        int n = cJSON_GetArraySize(v);
        if (n < 1 || n > FP_MAX_TIERS)
            FP_FAIL(err, FP_EINVAL, "/fabric/switch",
                    "/fabric/switch: expected 1 to %d switch models (leaf first), found %d",
                    FP_MAX_TIERS, n);
        for (int i = 0; i < n; i++) {
            char p[64];
            fp__json_ptr_index(p, sizeof p, "/fabric/switch", i);
            if ((rc = resolve_part(&rs->tier[i].model, cJSON_GetArrayItem(v, i), p, FP_PART_SWITCH,
                                   cat, err)) != FP_OK)
                return rc;
        }
        rs->n_models = n;
    } else {
        if ((rc = resolve_part(&rs->tier[0].model, v, "/fabric/switch", FP_PART_SWITCH, cat,
                               err)) != FP_OK)
            return rc;
        rs->n_models = 1;
    }
    for (int i = rs->n_models; i < FP_MAX_TIERS; i++)
        rs->tier[i].model = rs->tier[rs->n_models - 1].model;
    return FP_OK;
}

/* One down:up ratio: a number (2 = 2:1) or text "16:15" (len characters of s); -1 when neither. */
static double ratio_value(const cJSON *num, const char *s, size_t len)
{
    if (num != NULL)
        return num->valuedouble;
    char buf[64], tail = 0;
    double a = 0, b = 0;
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), s);
    if (sscanf(buf, "%lf:%lf%c", &a, &b, &tail) == 2 && a > 0 && b > 0)
        return a / b;
    return -1;
}

/* fabric.oversubscription: array, leaf first; missing entries are 1:1. Each entry is a
 * down:up bandwidth ratio, a number (2 = 2:1) or a string "16:15". A lone number or string is
 * the list, as the --oversubscription flag takes it: 2, "2:1", "2:1,1:1" (so `--set
 * /fabric/oversubscription=2:1` means what `--oversubscription 2:1` does). */
static fp_status fabric_oversub(fp_rspec *rs, const cJSON *f, fp_error *err)
{
    char d[96];
    const cJSON *v;
    for (int i = 0; i < FP_MAX_TIERS; i++)
        rs->oversub[i] = 1.0;
    rs->n_oversub = 0;
    v = f ? cJSON_GetObjectItemCaseSensitive(f, "oversubscription") : NULL;
    if (v == NULL)
        return FP_OK;
    double r[FP_MAX_TIERS];
    int n = 0, ok = 1;
    if (cJSON_IsArray(v) && cJSON_GetArraySize(v) <= FP_MAX_TIERS - 1) {
        const cJSON *it;
        cJSON_ArrayForEach(it, v) {
            r[n] = cJSON_IsNumber(it)   ? ratio_value(it, NULL, 0)
                   : cJSON_IsString(it) ? ratio_value(NULL, it->valuestring, strlen(it->valuestring))
                                        : -1;
            if (!(r[n] >= 1.0 / 64 - 1e-12) || r[n] > 64) {
                char p[64];
                fp__json_ptr_index(p, sizeof p, "/fabric/oversubscription", n);
                FP_FAIL(err, FP_EINVAL, p,
                        "%s: expected a down:up bandwidth ratio from 1:64 to 64:1 (a number, 2 = "
                        "2:1, or a string such as \"16:15\"; 1 = non-blocking), found %s",
                        p, fp__json_describe(it, d, sizeof d));
            }
            n++;
        }
    } else if (cJSON_IsNumber(v)) {
        r[n++] = ratio_value(v, NULL, 0);
    } else if (cJSON_IsString(v)) {
        for (const char *s = v->valuestring; ok;) {
            size_t len = strcspn(s, ",");
            if (n == FP_MAX_TIERS - 1) {
                ok = 0;
                break;
            }
            r[n++] = ratio_value(NULL, s, len);
            if (s[len] == '\0')
                break;
            s += len + 1;
        }
    } else {
        ok = 0;
    }
    for (int i = 0; ok && i < n; i++)
        ok = r[i] >= 1.0 / 64 - 1e-12 && r[i] <= 64;
    if (!ok)
        FP_FAIL(err, FP_EINVAL, "/fabric/oversubscription",
                "/fabric/oversubscription: expected up to %d down:up ratios from 1:64 to 64:1, "
                "leaf first: a list (e.g. [2, 1] or [\"16:15\"]), or one ratio or a comma list as "
                "text (\"2:1\", \"2:1,1:1\"), found %s",
                FP_MAX_TIERS - 1, fp__json_describe(v, d, sizeof d));
    for (int i = 0; i < n; i++)
        rs->oversub[i] = r[i];
    rs->n_oversub = n;
    return FP_OK;
}

/* fabric.link_gbps: one speed per boundary, NIC-leaf first; the last one repeats (checked
 * against the NIC and the switches in fp__spec_check_combined). */
static fp_status fabric_link_gbps(fp_rspec *rs, const cJSON *f, fp_error *err)
{
    char d[96];
    const cJSON *v;
    rs->n_gbps = 0;
    v = f ? cJSON_GetObjectItemCaseSensitive(f, "link_gbps") : NULL;
    if (v) {
        const cJSON *it;
        int i = 0;
        if (cJSON_IsNumber(v)) {
            if (v->valuedouble != floor(v->valuedouble) || v->valuedouble < 1 || v->valuedouble > 100000)
                FP_FAIL(err, FP_EINVAL, "/fabric/link_gbps",
                        "/fabric/link_gbps: expected a speed in Gb/s (e.g. 400) or a list per "
                        "boundary, NIC-leaf first (e.g. [400, 800]), found %s",
                        fp__json_describe(v, d, sizeof d));
            rs->gbps[i++] = (int)v->valuedouble;
        } else {
            if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > FP_MAX_TIERS)
                FP_FAIL(err, FP_EINVAL, "/fabric/link_gbps",
                        "/fabric/link_gbps: expected a list of 1 to %d link speeds in Gb/s, NIC-leaf first (e.g. [400, 800]), found %s",
                        FP_MAX_TIERS, fp__json_describe(v, d, sizeof d));
            cJSON_ArrayForEach(it, v) {
                char p[64];
                fp__json_ptr_index(p, sizeof p, "/fabric/link_gbps", i);
                if (!cJSON_IsNumber(it) || it->valuedouble != floor(it->valuedouble) ||
                    it->valuedouble < 1 || it->valuedouble > 100000)
                    FP_FAIL(err, FP_EINVAL, p, "%s: expected a link speed in Gb/s (e.g. 400), found %s",
                            p, fp__json_describe(it, d, sizeof d));
                rs->gbps[i++] = (int)it->valuedouble;
            }
        }
        rs->n_gbps = i;
    }
    return FP_OK;
}

fp_status fp__spec_resolve_fabric(fp_rspec *rs, const cJSON *f, const fp_catalog *cat,
                                  fp_error *err)
{
    fp_status rc;
    if ((rc = fabric_scalars(rs, f, err)) != FP_OK || (rc = fabric_tiers(rs, f, err)) != FP_OK ||
        (rc = fabric_switches(rs, f, cat, err)) != FP_OK ||
        (rc = fabric_oversub(rs, f, err)) != FP_OK || (rc = fabric_link_gbps(rs, f, err)) != FP_OK)
        return rc;
    return FP_OK;
}

/* Planes against the NIC's ports, endpoints per server, and the link speed per boundary (given
 * per boundary, the last repeating, else the NIC port speed everywhere). */
static fp_status check_nic_links(fp_rspec *rs, fp_error *err)
{
    if (rs->nic.ports % rs->planes != 0)
        FP_FAIL(err, FP_EINVAL, "/fabric/planes",
                "/fabric/planes: %d planes need NICs whose port count is a multiple of %d; %s has %d port%s",
                rs->planes, rs->planes, rs->nic.id, rs->nic.ports, rs->nic.ports == 1 ? "" : "s");
    rs->endpoints_per_server = rs->nics_per_server * rs->nic.ports / rs->planes;
    rs->nic_per_cage = rs->nic.ports / (rs->nic.cages > 0 ? rs->nic.cages : rs->nic.ports);
    if (rs->n_gbps == 0) {
        rs->gbps[0] = rs->nic.port_gbps;
        rs->n_gbps = 0;
    }
    for (int i = rs->n_gbps > 0 ? rs->n_gbps : 1; i < FP_MAX_TIERS; i++)
        rs->gbps[i] = rs->gbps[i - 1];
    /* A switch with uplink ports (SN2201: 4 x 100G beside 48 x 1G) runs the links above it at
     * their speed unless link_gbps gives that boundary. */
    for (int t = 0; t + 1 < FP_MAX_TIERS; t++)
        if (rs->tier[t].model.uplink_ports > 0 && rs->n_gbps <= t + 1)
            for (int i = t + 1; i < FP_MAX_TIERS; i++)
                rs->gbps[i] = rs->tier[t].model.uplink_gbps;
    rs->link_gbps = rs->gbps[0];
    if (rs->gbps[0] > rs->nic.port_gbps)
        FP_FAIL(err, FP_EINVAL, "/fabric/link_gbps/0",
                "/fabric/link_gbps/0: NIC-leaf links of %dG are faster than the %dG ports of %s; expected at most %dG",
                rs->gbps[0], rs->nic.port_gbps, rs->nic.id, rs->nic.port_gbps);
    return FP_OK;
}

/* The NIC and every switch model share a protocol; the leaf is a fixed switch. */
static fp_status check_protocols(fp_rspec *rs, fp_error *err)
{
    rs->protocols = fp_part_protocols(&rs->nic);
    for (int i = 0; i < rs->n_models; i++) {
        unsigned p = fp_part_protocols(&rs->tier[i].model);
        if ((rs->protocols & p) == 0) {
            char ptr[64];
            if (rs->n_models > 1)
                fp__json_ptr_index(ptr, sizeof ptr, "/fabric/switch", i);
            else
                snprintf(ptr, sizeof ptr, "/fabric/switch");
            if (i == 0)
                FP_FAIL(err, FP_EINVAL, ptr,
                        "%s: %s speaks %s and the NIC %s speaks %s: no protocol in common; "
                        "expected a switch and NIC of one protocol (InfiniBand or Ethernet)",
                        ptr, rs->tier[i].model.id, rs->tier[i].model.protocol, rs->nic.id, rs->nic.protocol);
            FP_FAIL(err, FP_EINVAL, ptr,
                    "%s: %s speaks %s, which the tiers below it (%s and %s) do not: no protocol in common",
                    ptr, rs->tier[i].model.id, rs->tier[i].model.protocol, rs->nic.id,
                    rs->tier[0].model.id);
        }
        rs->protocols &= p;
    }
    if (rs->tier[0].model.line_cards > 0)
        FP_FAIL(err, FP_EINVAL, rs->n_models > 1 ? "/fabric/switch/0" : "/fabric/switch",
                "%s: %s is a modular chassis (%d line cards); it serves the spine and the tiers "
                "above, not the leaf; expected a list [leaf, spine, ...] with a fixed switch first",
                rs->n_models > 1 ? "/fabric/switch/0" : "/fabric/switch", rs->tier[0].model.id,
                rs->tier[0].model.line_cards);
    return FP_OK;
}

/* A k-ary fat-tree's rules (1:1, one speed, one model, 3 tiers) and the tiers given against
 * the switch models. */
static fp_status check_fat_tree(fp_rspec *rs, fp_error *err)
{
    if (rs->topology == FP_TOPO_FAT_TREE) {
        for (int i = 0; i < rs->n_oversub; i++) {
            char ratio[32];
            if (rs->oversub[i] != 1.0)
                FP_FAIL(err, FP_EINVAL, "/fabric/oversubscription",
                        "/fabric/oversubscription: a fat-tree is non-blocking (1:1 at every tier); use topology \"clos\" for %s",
                        fp_ratio_text(rs->oversub[i], ratio, sizeof ratio));
        }
        for (int i = 1; i < FP_MAX_TIERS; i++)
            if (rs->gbps[i] != rs->gbps[0])
                FP_FAIL(err, FP_EINVAL, "/fabric/link_gbps",
                        "/fabric/link_gbps: a k-ary fat-tree runs every link at one speed; found %dG and %dG (use topology \"clos\")",
                        rs->gbps[0], rs->gbps[i]);
        for (int i = 1; i < rs->n_models; i++)
            if (strcmp(rs->tier[i].model.id, rs->tier[0].model.id) != 0)
                FP_FAIL(err, FP_EINVAL, "/fabric/switch",
                        "/fabric/switch: a k-ary fat-tree uses one switch model at every tier; found %s and %s (use topology \"clos\")",
                        rs->tier[0].model.id, rs->tier[i].model.id);
        if (rs->tiers_auto) {
            rs->tiers_auto = 0;
            rs->tiers_given = 3;
            rs->tiers_by_topology = 1;
        }
    }
    if (!rs->tiers_auto && rs->n_models > rs->tiers_given)
        FP_FAIL(err, FP_EINVAL, "/fabric/switch",
                "/fabric/switch: %d switch models given for a %d-tier fabric; expected at most %d",
                rs->n_models, rs->tiers_given, rs->tiers_given);
    return FP_OK;
}

/* The part's source into out (room bytes), whole when it fits; else up to its last clause
 * that fits (the source separates clauses with "; " outside parentheses), or its last whole word,
 * and where the rest is: an error citing it stays within fp_error's message and never ends
 * mid-word (a long source was cut at "...(DR4-class); "). */
static void source_clauses(char *out, size_t room, const fp_part *m)
{
    const char *s = m->source;
    if (strlen(s) < room) {
        snprintf(out, room, "%s", s);
        return;
    }
    char rest[112];
    size_t nr = (size_t)snprintf(rest, sizeof rest, " ... (the rest: `fabplan catalog show %s`)", m->id);
    size_t clause = 0, word = 0;
    int depth = 0;
    for (size_t k = 0; s[k] != '\0' && k + nr + 1 < room; k++) {
        depth += (s[k] == '(') - (s[k] == ')');
        if (s[k] == ' ' && k > 0 && s[k - 1] != ';' && s[k - 1] != ',')
            word = k;
        if (s[k] == ';' && s[k + 1] == ' ' && depth == 0)
            clause = k;
    }
    size_t keep = clause > 0 ? clause : word;
    if (keep == 0)
        snprintf(out, room, "`fabplan catalog show %s`", m->id);
    else
        snprintf(out, room, "%.*s%s", (int)keep, s, rest);
}

/* Tier i's speeds, breakouts and port names (the switch model must run the links below it and,
 * below the top, above it). */
static fp_status check_tier_ports(fp_rspec *rs, int i, fp_error *err)
{
    fp_tier_spec *t = &rs->tier[i];
    int top = rs->tiers_auto ? FP_MAX_TIERS : rs->tiers_given;
    char p[64];
    if (rs->n_models > 1)
        fp__json_ptr_index(p, sizeof p, "/fabric/switch", i < rs->n_models ? i : rs->n_models - 1);
    else
        snprintf(p, sizeof p, "/fabric/switch");
    t->gbps_down = rs->gbps[i];
    t->gbps_up = i + 1 < FP_MAX_TIERS ? rs->gbps[i + 1] : rs->gbps[i];
    t->per_cage = t->model.ports / (t->model.cages > 0 ? t->model.cages : t->model.ports);
    int b = breakout_for(&t->model, t->gbps_down);
    int bu = t->model.uplink_ports > 0 ? (t->model.uplink_gbps == t->gbps_up)
                                       : breakout_for(&t->model, t->gbps_up);
    if (b == 0 && i < top) {
        if (i >= rs->n_models && i > 0 && rs->gbps[i] == rs->gbps[i - 1])
            return FP_OK; /* same model and speed as an earlier tier: already reported there */
        if (i > 0 && rs->tier[i - 1].model.uplink_ports > 0)
            FP_FAIL(err, FP_EINVAL, p,
                    "%s: %s has %dG ports, which cannot take the %dG uplinks of the %s below it; "
                    "expected a list of switch models, leaf first, with %dG ports above the leaf "
                    "(e.g. [\"%s\", \"nvidia-sn4600c\"])",
                    p, t->model.id, t->model.port_gbps, t->gbps_down, rs->tier[i - 1].model.id,
                    t->gbps_down, rs->tier[0].model.id);
        /* A port the speed divides but no breakout splits: say so and cite the part's source
         * (its published port modes); a co-packaged port splits only in the modes its maker
         * publishes (the catalog's breakouts, SN6810 4 x 200G), through a fan-out. */
        char head[sizeof err->msg], why[sizeof err->msg] = "";
        if (i == 0 && rs->n_gbps == 0)
            snprintf(head, sizeof head,
                     "%s: %s has %dG ports, which cannot run the NIC's %dG links (expected ports of "
                     "%dG, or a faster port with a breakout to %dG)",
                     p, t->model.id, t->model.port_gbps, t->gbps_down, t->gbps_down, t->gbps_down);
        else
            snprintf(head, sizeof head,
                     "%s: %s has %dG ports, which cannot run the %dG links below it "
                     "(/fabric/link_gbps/%d); expected ports of %dG, or a faster port with a "
                     "breakout to %dG",
                     p, t->model.id, t->model.port_gbps, t->gbps_down, i, t->gbps_down, t->gbps_down);
        if (t->model.port_gbps % t->gbps_down == 0) {
            int n = snprintf(why, sizeof why,
                             t->model.cpo ? "; co-packaged optics: no %dG mode published (a "
                                            "co-packaged port splits only as its part source "
                                            "gives); part source: "
                                          : "; the catalog gives no %dG breakout; part source: ",
                             t->gbps_down);
            size_t room = sizeof err->msg - strlen(head);
            if (n > 0 && (size_t)n < room)
                source_clauses(why + n, room - (size_t)n, &t->model);
        }
        FP_FAIL(err, FP_EINVAL, p, "%s%s", head, why);
    }
    if (bu == 0 && b != 0 && i + 1 < top && t->model.uplink_ports > 0)
        FP_FAIL(err, FP_EINVAL, p,
                "%s: the %d uplink ports of %s run at %dG, not the %dG of the links above it "
                "(/fabric/link_gbps/%d); expected link_gbps to leave that boundary out or give %dG",
                p, t->model.uplink_ports, t->model.id, t->model.uplink_gbps, t->gbps_up,
                i + 1 < rs->n_gbps ? i + 1 : rs->n_gbps - 1, t->model.uplink_gbps);
    if (bu == 0 && b != 0 && i + 1 < top)
        FP_FAIL(err, FP_EINVAL, p,
                "%s: %s has %dG ports, which cannot run the %dG links above it "
                "(/fabric/link_gbps/%d); expected ports of %dG, or a faster port with a breakout "
                "to %dG",
                p, t->model.id, t->model.port_gbps, t->gbps_up, i + 1 < rs->n_gbps ? i + 1 : rs->n_gbps - 1,
                t->gbps_up, t->gbps_up);
    t->breakout = b;
    t->breakout_up = bu;
    t->radix = t->model.ports * b;
    if (i < rs->n_models || i == 0) {
        fp_status rc;
        if ((rc = fp__port_names_check(&t->model, b, t->radix, p, err)) != FP_OK ||
            (bu > 0 && bu != b &&
             (rc = fp__port_names_check(&t->model, bu, t->model.ports * bu, p, err)) != FP_OK))
            return rc;
    }
    return FP_OK;
}

/* uplinks_per_leaf: not beside a leaf ratio of its own, and room for at least one host beside
 * that many up links (on the leaf's uplink ports when it has them). */
static fp_status check_leaf_up(const fp_rspec *rs, fp_error *err)
{
    char ratio[32];
    const fp_tier_spec *ts = &rs->tier[0];
    if (rs->leaf_up == 0)
        return FP_OK;
    if (rs->n_oversub > 0 && rs->oversub[0] != 1.0)
        FP_FAIL(err, FP_EINVAL, "/fabric/uplinks_per_leaf",
                "/fabric/uplinks_per_leaf: %d up links per leaf and a leaf ratio of %s "
                "(/fabric/oversubscription/0) both fix the leaf's up links; expected one of them "
                "(give 1 for the leaf's entry)",
                rs->leaf_up, fp_ratio_text(rs->oversub[0], ratio, sizeof ratio));
    if (fp__tier_down(rs, 0) < 1) {
        if (ts->model.uplink_ports > 0)
            FP_FAIL(err, FP_EDESIGN, "/fabric/uplinks_per_leaf",
                    "/fabric/uplinks_per_leaf: %d up links, but the %s leaf has %d uplink ports%s; expected at most %d",
                    rs->leaf_up, ts->model.id, ts->model.uplink_ports,
                    rs->reserve > 0 ? " (after the reserve: fewer)" : "",
                    (int)floor(ts->model.uplink_ports * (1.0 - rs->reserve) + 1e-9) * ts->breakout_up);
        FP_FAIL(err, FP_EDESIGN, "/fabric/uplinks_per_leaf",
                "/fabric/uplinks_per_leaf: %d up links leave no port for a host on the %s leaf (%d "
                "ports at %dG%s); expected fewer up links",
                rs->leaf_up, ts->model.id, ts->radix, ts->gbps_down,
                rs->reserve > 0 ? ", less the reserve" : "");
    }
    return FP_OK;
}

/* Blocks given their size: only where the topology has such blocks, and tiers enough. */
static fp_status check_block_keys(const fp_rspec *rs, fp_error *err)
{
    static const char *const key[] = { "", "/fabric/leaf_servers", "/fabric/pod_servers",
                                       "/fabric/zone_servers" };
    for (int t = 1; t <= 3; t++) {
        const int64_t b = rs->block_servers[t];
        if (b == 0)
            continue;
        if (rs->topology == FP_TOPO_FAT_TREE)
            FP_FAIL(err, FP_EINVAL, key[t],
                    "%s: a k-ary fat-tree's leaves and pods follow its radix (k/2 hosts a leaf, "
                    "k/2 leaves a pod); expected topology \"clos\" for blocks of a size of their "
                    "own",
                    key[t]);
        if (t == 1 && rs->topology == FP_TOPO_RAIL)
            FP_FAIL(err, FP_EINVAL, key[t],
                    "%s: a rail-optimized leaf takes one rail of its scalable unit's servers; "
                    "expected fabric.su_servers to size it, or topology \"clos\"",
                    key[t]);
        if (t >= 2 && !rs->tiers_auto && rs->tiers_given < t + 1)
            FP_FAIL(err, FP_EINVAL, key[t],
                    "%s: %s of %lld servers need a tier above them, but /fabric/tiers is %d (a "
                    "%d-tier fabric is one %s); expected %d tiers or more, or \"auto\"",
                    key[t], t == 2 ? "pods" : "zones", (long long)b, rs->tiers_given,
                    rs->tiers_given, t == 2 ? "pod" : "zone", t + 1);
    }
    return FP_OK;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b != 0) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

fp_status fp__spec_check_blocks(const fp_rspec *rs, int64_t lps, fp_error *err)
{
    static const char *const key[] = { "", "/fabric/leaf_servers", "/fabric/pod_servers",
                                       "/fabric/zone_servers" };
    const int64_t eps = rs->endpoints_per_server;
    const int rail = rs->topology == FP_TOPO_RAIL;
    char ratio[32];
    /* e: NIC ports (one plane) of a child block: a leaf, a rail-optimized scalable unit (lps
     * leaves), a pod; n: leaves in it. */
    int64_t e, n;
    const int d0 = fp__tier_down(rs, 0);
    if (rail) {
        e = (int64_t)rs->su_servers * eps;
        n = lps;
        /* A unit whose leaves no spine reaches is the unit's error (/fabric/su_servers, which
         * the sizing reports and, when the unit is not given, answers with a smaller one). */
        if (rs->block_servers[2] > 0 && lps > fp__tier_down(rs, 1))
            return FP_OK;
    } else {
        e = rs->block_servers[1] > 0 ? rs->block_servers[1] * eps : d0;
        n = 1;
        if (rs->block_servers[1] * eps > d0)
            FP_FAIL(err, FP_EDESIGN, key[1],
                    "%s: %lld servers of %lld NIC ports each need %lld leaf down ports, but the %s "
                    "leaf has %d beside its up links at %s%s; expected at most %lld servers",
                    key[1], (long long)rs->block_servers[1], (long long)eps,
                    (long long)(rs->block_servers[1] * eps), rs->tier[0].model.id, d0,
                    fp_ratio_text(rs->oversub[0], ratio, sizeof ratio),
                    rs->reserve > 0 ? " after the reserve" : "", (long long)(d0 / eps));
    }
    for (int t = 2; t <= 3; t++) {
        const int64_t b = rs->block_servers[t];
        const int d = fp__tier_down(rs, t - 1);   /* a tier-t switch below the top */
        if (b == 0) {
            /* The block by the radix: as many children as a tier-t switch has down ports. */
            int64_t k = t == 2 && rail ? d / lps : d;
            e *= k;
            n *= k;
            continue;
        }
        const int64_t be = b * eps, unit = e / gcd64(e, eps);    /* servers: lcm(e, eps) / eps */
        if (be % e != 0) {
            if (t == 2 && rail)
                FP_FAIL(err, FP_EINVAL, key[t],
                        "%s: %lld servers is not a whole number of %d-server scalable units "
                        "(fabric.su_servers%s); expected a multiple of %d",
                        key[t], (long long)b, rs->su_servers, rs->su_auto ? ", 32 when not given" : "",
                        rs->su_servers);
            FP_FAIL(err, FP_EINVAL, key[t],
                    "%s: %lld servers (%lld NIC ports) is not a whole number of %s of %lld NIC ports; expected a multiple of %lld servers",
                    key[t], (long long)b, (long long)be, t == 2 ? "leaves" : "pods", (long long)e,
                    (long long)unit);
        }
        const int64_t k = be / e, leaves = t == 2 ? k * n : k;
        const int64_t most = t == 2 && rail ? d / lps : d;      /* children a block can hold */
        if (leaves > d)
            FP_FAIL(err, FP_EDESIGN, key[t],
                    "%s: %lld servers make a %s of %lld %s, but a tier-%d switch (%s) has %d down "
                    "ports at %s%s and reaches every %s of its %s (non-blocking inside it); "
                    "expected at most %lld servers",
                    key[t], (long long)b, t == 2 ? "pod" : "zone", (long long)(t == 2 ? leaves : k),
                    t == 2 ? "leaves" : "pods", t, rs->tier[t - 1].model.id, d,
                    fp_ratio_text(rs->oversub[t - 1], ratio, sizeof ratio),
                    rs->reserve > 0 ? " after the reserve" : "", t == 2 ? "leaf" : "pod",
                    t == 2 ? "pod" : "zone", (long long)(most * e / eps));
        e = be;
        n = t == 2 ? leaves : n * k;
    }
    return FP_OK;
}

/* Checks that need cluster and fabric together. */
fp_status fp__spec_check_combined(fp_rspec *rs, fp_error *err)
{
    fp_status rc;
    if ((rc = check_nic_links(rs, err)) != FP_OK || (rc = check_protocols(rs, err)) != FP_OK ||
        (rc = check_fat_tree(rs, err)) != FP_OK)
        return rc;
    for (int i = 0; i < FP_MAX_TIERS; i++)
        if ((rc = check_tier_ports(rs, i, err)) != FP_OK)
            return rc;
    if ((rc = check_leaf_up(rs, err)) != FP_OK || (rc = check_block_keys(rs, err)) != FP_OK)
        return rc;
    if (!rs->server_names.given)
        fp__host_template_default(&rs->server_names, rs->topology == FP_TOPO_RAIL);
    return fp__port_names_check(&rs->nic, 1, rs->nics_per_server * rs->nic.ports, "/cluster/nic",
                                err);
}

fp_status fp__spec_check_ports(const fp_rspec *rs, fp_error *err)
{
    for (int t = 0; t < FP_MAX_TIERS; t++) {
        int usable = (int)floor(rs->tier[t].radix * (1.0 - rs->reserve) + 1e-9);
        if (usable < 4)
            FP_FAIL(err, FP_EINVAL, "/fabric/switch",
                    "/fabric/switch: %s has %d usable port%s at %dG%s; a folded-Clos switch needs at least 4",
                    rs->tier[t].model.id, usable, usable == 1 ? "" : "s", rs->link_gbps,
                    rs->reserve > 0 ? " after the reserve" : "");
    }
    return FP_OK;
}

fp_status fp__spec_check_tiers(const fp_rspec *rs, int tiers, fp_error *err)
{
    if (rs->n_models > tiers)
        FP_FAIL(err, FP_EINVAL, "/fabric/switch",
                "/fabric/switch: %d switch models given, but the fabric has %d tiers", rs->n_models,
                tiers);
    /* Extra 1:1 entries are harmless (a spec written for "auto" cannot know the tier count), and
     * so is the ratio between pods (zones) of a given size when "auto" found one pod (zone)
     * holding every server: that block is the fabric (fp__block_min_tiers), with no link
     * between two of them for the ratio to size (the fabric's note says so). */
    for (int t = tiers - 1; t < rs->n_oversub; t++) {
        char ratio[32];
        if (rs->tiers_auto && t >= 1 && t <= 2 && rs->block_servers[t + 1] > 0)
            continue;
        if (rs->oversub[t] != 1.0)
            FP_FAIL(err, FP_EINVAL, "/fabric/oversubscription",
                    "/fabric/oversubscription/%d: %s given for tier %d, but a %d-tier fabric has uplinks only at tiers 1 to %d",
                    t, fp_ratio_text(rs->oversub[t], ratio, sizeof ratio), t + 1, tiers,
                    tiers - 1);
    }
    return FP_OK;
}


int fp__tier_down(const fp_rspec *rs, int t)
{
    const fp_tier_spec *ts = &rs->tier[t];
    const int usable = (int)floor(ts->radix * (1.0 - rs->reserve) + 1e-9);
    int d = usable;
    if (ts->model.uplink_ports > 0) {
        /* Uplink ports of their own (SN2201): the down side has every front port, the up side
         * what the uplinks carry, and the down side shrinks until its ratio fits. */
        int ku = (int)floor(ts->model.uplink_ports * (1.0 - rs->reserve) + 1e-9) * ts->breakout_up;
        while (d > 0 && fp__up_for(rs, t, d) > ku)
            d--;
    } else if (ts->breakout_up == ts->breakout) {
        while (d > 0 && d + fp__up_for(rs, t, d) > usable)
            d--;
    } else if (ts->breakout_up > 0) {
        int cages = ts->model.ports / ts->per_cage;
        int usable_cages = (int)floor(cages * (1.0 - rs->reserve) + 1e-9);
        int kd = ts->per_cage * ts->breakout, ku = ts->per_cage * ts->breakout_up;
        d = usable_cages * kd;
        while (d > 0 && (d + kd - 1) / kd + (fp__up_for(rs, t, d) + ku - 1) / ku > usable_cages)
            d--;
    } else {
        d = 0;
    }
    return d;
}
