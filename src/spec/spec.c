/* fabplan — spec: parse, override, resolve against the catalog. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "spec/json_read.h"

extern const char fp__presets_json[];
extern const size_t fp__presets_json_len;

struct fp_spec {
    cJSON *root;
    char origin[128];
};

#define DEFAULT_GPUS 16384
/* The largest cluster a spec may ask for: 2^20 GPUs. Planning takes about 1.2 kB of memory per
 * GPU (measured: 164 MB at 131,072, 318 MB at 262,144), so about 1.3 GB here; the earlier limit
 * of 10,000,000 needed more than 12 GB, more than a planning workstation should be asked for. */
#define MAX_GPUS 1048576
#define DEFAULT_GPUS_PER_SERVER 8
#define DEFAULT_NIC "nvidia-cx7-osfp"
#define DEFAULT_SWITCH "nvidia-qm9700"
#define DEFAULT_SU_SERVERS 32

static fp_status spec_wrap(fp_spec **out, cJSON *root, const char *origin, fp_error *err)
{
    fp_spec *s = calloc(1, sizeof *s);
    if (s == NULL) {
        cJSON_Delete(root);
        FP_FAIL(err, FP_ENOMEM, origin, "out of memory");
    }
    s->root = root;
    snprintf(s->origin, sizeof s->origin, "%s", origin);
    *out = s;
    return FP_OK;
}

fp_status fp_spec_new(fp_spec **out, fp_error *err)
{
    cJSON *root = cJSON_CreateObject();
    if (out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_new: out is NULL");
    *out = NULL;
    if (root == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    return spec_wrap(out, root, "<default>", err);
}

fp_status fp_spec_parse(fp_spec **out, const char *json, size_t len, const char *origin,
                        fp_error *err)
{
    cJSON *root = NULL;
    fp_status rc;
    char d[96];
    if (out == NULL || json == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_parse: NULL argument");
    *out = NULL;
    if (origin == NULL)
        origin = "<string>";
    if ((rc = fp__json_parse(&root, json, len, origin, err)) != FP_OK)
        return rc;
    if (!cJSON_IsObject(root)) {
        fp__error_set(err, FP_EINVAL, "", "%s: a spec must be a JSON object, found %s", origin,
                      fp__json_describe(root, d, sizeof d));
        cJSON_Delete(root);
        return FP_EINVAL;
    }
    return spec_wrap(out, root, origin, err);
}

fp_status fp_spec_load(fp_spec **out, const char *path, fp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    fp_status rc;
    if (out)
        *out = NULL;
    if ((rc = fp__read_file(path, &text, &len, err)) != FP_OK)
        return rc;
    rc = fp_spec_parse(out, text, len, path, err);
    free(text);
    return rc;
}

static fp_status presets_root(cJSON **out, fp_error *err)
{
    cJSON *root = NULL;
    fp_status rc = fp__json_parse(&root, fp__presets_json, fp__presets_json_len,
                                  "templates/presets.json", err);
    if (rc != FP_OK)
        return rc;
    *out = root;
    return FP_OK;
}

size_t fp_spec_preset_count(void)
{
    cJSON *root = NULL;
    size_t n = 0;
    if (presets_root(&root, NULL) == FP_OK)
        n = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "presets"));
    cJSON_Delete(root);
    return n;
}

fp_status fp_spec_preset_info(size_t i, char *name, size_t name_n, char *desc, size_t desc_n,
                              fp_error *err)
{
    cJSON *root = NULL;
    fp_status rc = presets_root(&root, err);
    if (rc != FP_OK)
        return rc;
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "presets");
    const cJSON *p = cJSON_GetArrayItem(arr, (int)i);
    if (p == NULL || i > (size_t)cJSON_GetArraySize(arr)) {
        cJSON_Delete(root);
        FP_FAIL(err, FP_EINVAL, "", "preset %zu out of range (there are %d)", i,
                cJSON_GetArraySize(arr));
    }
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(p, "description");
    if (name)
        snprintf(name, name_n, "%s", cJSON_IsString(n) ? n->valuestring : "");
    if (desc)
        snprintf(desc, desc_n, "%s", cJSON_IsString(d) ? d->valuestring : "");
    cJSON_Delete(root);
    return FP_OK;
}

fp_status fp_spec_preset(fp_spec **out, const char *name, fp_error *err)
{
    cJSON *root = NULL, *p;
    char list[512] = "";
    size_t k = 0;
    fp_status rc;
    if (out == NULL || name == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_preset: NULL argument");
    *out = NULL;
    if ((rc = presets_root(&root, err)) != FP_OK)
        return rc;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(root, "presets")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
        if (!cJSON_IsString(n))
            continue;
        if (strcmp(n->valuestring, name) == 0) {
            cJSON *spec = cJSON_DetachItemFromObjectCaseSensitive(p, "spec");
            char origin[96];
            cJSON_Delete(root);
            snprintf(origin, sizeof origin, "preset %s", name);
            if (spec == NULL)
                FP_FAIL(err, FP_EINVAL, name, "preset %s has no spec", name);
            return spec_wrap(out, spec, origin, err);
        }
        if (k < sizeof list - 64)
            k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", n->valuestring);
    }
    cJSON_Delete(root);
    FP_FAIL(err, FP_EINVAL, name, "unknown preset \"%s\"; presets: %s", name, list);
}

/* Decode one JSON pointer token in place (~1 -> '/', ~0 -> '~'); 0 when a '~' is not followed
 * by 0 or 1 (RFC 6901 allows nothing else). */
static int pointer_unescape(char *tok)
{
    char *w = tok;
    for (const char *r = tok; *r; r++) {
        if (*r != '~') {
            *w++ = *r;
            continue;
        }
        if (r[1] != '0' && r[1] != '1')
            return 0;
        *w++ = r[1] == '1' ? '/' : '~';
        r++;
    }
    *w = '\0';
    return 1;
}

/* An array index token: "-" (append) gives n; digits give their value; anything else -1. */
static int pointer_index(const char *tok, int n)
{
    if (strcmp(tok, "-") == 0)
        return n;
    if (tok[0] == '\0' || strlen(tok) > 6 || (tok[0] == '0' && tok[1] != '\0'))
        return -1;
    for (const char *c = tok; *c; c++)
        if (*c < '0' || *c > '9')
            return -1;
    return atoi(tok);
}

fp_status fp_spec_set(fp_spec *spec, const char *pointer, const char *value, fp_error *err)
{
    char path[256], *tok, *save = NULL;
    cJSON *node, *val;
    if (spec == NULL || pointer == NULL || value == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_set: NULL argument");
    if (pointer[0] != '/' || pointer[1] == '\0' || strlen(pointer) >= sizeof path ||
        strstr(pointer, "//") || pointer[strlen(pointer) - 1] == '/')
        FP_FAIL(err, FP_EINVAL, pointer, "bad JSON pointer \"%s\"; expected e.g. /cluster/gpus",
                pointer);
    val = fp__cjson_parse(value, strlen(value) + 1, NULL);
    if (val == NULL)
        val = cJSON_CreateString(value);
    if (val == NULL)
        FP_FAIL(err, FP_ENOMEM, pointer, "out of memory");
    snprintf(path, sizeof path, "%s", pointer + 1);
    node = spec->root;
    tok = strtok_r(path, "/", &save);
    while (tok) {
        char *next = strtok_r(NULL, "/", &save);
        if (!pointer_unescape(tok)) {
            cJSON_Delete(val);
            FP_FAIL(err, FP_EINVAL, pointer,
                    "bad JSON pointer \"%s\": '~' must be followed by 0 ('~') or 1 ('/')", pointer);
        }
        cJSON *child;
        if (cJSON_IsArray(node)) {
            /* Array steps: an index 0..n-1 replaces, n or "-" appends (/fabric/switch/1). */
            int n = cJSON_GetArraySize(node), at = pointer_index(tok, n);
            if (at < 0 || at > n) {
                cJSON_Delete(val);
                FP_FAIL(err, FP_EINVAL, pointer,
                        "%s: \"%s\" is not an index of this %d-item list; expected 0 to %d or \"-\" to append",
                        pointer, tok, n, n);
            }
            child = at < n ? cJSON_GetArrayItem(node, at) : NULL;
            if (next == NULL) {
                if (child)
                    cJSON_ReplaceItemInArray(node, at, val);
                else
                    cJSON_AddItemToArray(node, val);
                return FP_OK;
            }
            if (child == NULL) {
                child = pointer_index(next, 0) >= 0 ? cJSON_CreateArray() : cJSON_CreateObject();
                if (child == NULL || !cJSON_AddItemToArray(node, child)) {
                    cJSON_Delete(child);
                    cJSON_Delete(val);
                    FP_FAIL(err, FP_ENOMEM, pointer, "out of memory");
                }
            }
        } else {
            if (next == NULL) {
                if (cJSON_GetObjectItemCaseSensitive(node, tok))
                    cJSON_ReplaceItemInObjectCaseSensitive(node, tok, val);
                else
                    cJSON_AddItemToObject(node, tok, val);
                return FP_OK;
            }
            child = cJSON_GetObjectItemCaseSensitive(node, tok);
            if (child == NULL) {
                /* No spec key is a number, so "/fabric/oversubscription/0" starts a new list. */
                child = pointer_index(next, 0) >= 0 ? cJSON_AddArrayToObject(node, tok)
                                                    : cJSON_AddObjectToObject(node, tok);
                if (child == NULL) {
                    cJSON_Delete(val);
                    FP_FAIL(err, FP_ENOMEM, pointer, "out of memory");
                }
            }
        }
        if (!cJSON_IsObject(child) && !cJSON_IsArray(child)) {
            cJSON_Delete(val);
            FP_FAIL(err, FP_EINVAL, pointer,
                    "%s: cannot set inside \"%s\", which is %s, not an object or a list",
                    pointer, tok, cJSON_IsString(child) ? "a string" : cJSON_IsNumber(child) ? "a number" : "a value");
        }
        node = child;
        tok = next;
    }
    cJSON_Delete(val);
    FP_FAIL(err, FP_EINVAL, pointer, "bad JSON pointer \"%s\"", pointer);
}

fp_status fp_spec_to_json(const fp_spec *spec, char **out, fp_error *err)
{
    char *s = cJSON_Print(spec->root);
    if (s == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    /* Hand back memory from our allocator so fp_free works whatever cJSON's hooks are. */
    *out = malloc(strlen(s) + 1);
    if (*out == NULL) {
        cJSON_free(s);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    }
    strcpy(*out, s);
    cJSON_free(s);
    return FP_OK;
}

void fp_spec_free(fp_spec *spec)
{
    if (spec == NULL)
        return;
    cJSON_Delete(spec->root);
    free(spec);
}

/* ---- resolution ---- */

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

static fp_status resolve_cluster(fp_rspec *rs, const cJSON *c, const fp_catalog *cat,
                                 fp_error *err)
{
    static const char *const keys[] = { "gpus", "gpus_per_server", "nics_per_server", "nic", NULL };
    int64_t gpus = DEFAULT_GPUS, gps = DEFAULT_GPUS_PER_SERVER, nps = -1;
    fp_status rc;
    cJSON def_nic = { 0 };
    def_nic.type = cJSON_String;
    def_nic.valuestring = (char *)DEFAULT_NIC;
    const cJSON *nic = c ? cJSON_GetObjectItemCaseSensitive(c, "nic") : NULL;
    if (c && ((rc = fp__json_check_keys(c, "/cluster", keys, err)) != FP_OK ||
              (rc = fp__json_int(c, "gpus", "/cluster", 1, MAX_GPUS, &gpus, err)) != FP_OK ||
              (rc = fp__json_int(c, "gpus_per_server", "/cluster", 1, 64, &gps, err)) != FP_OK ||
              (rc = fp__json_int(c, "nics_per_server", "/cluster", 1, 64, &nps, err)) != FP_OK))
        return rc;
    rs->gpus = gpus;
    rs->gpus_per_server = (int)gps;
    rs->nics_per_server = nps < 0 ? (int)gps : (int)nps;
    return resolve_part(&rs->nic, nic ? nic : &def_nic, "/cluster/nic", FP_PART_NIC, cat, err);
}

static fp_status resolve_fabric(fp_rspec *rs, const cJSON *f, const fp_catalog *cat,
                                fp_error *err)
{
    static const char *const keys[] = { "topology", "tiers", "switch", "oversubscription",
                                        "su_servers", "planes", "reserve", "spread",
                                        "build_for_gpus", "link_gbps", NULL };
    char topo[32] = "rail-optimized", spread[32] = "even", d[96];
    int64_t su = DEFAULT_SU_SERVERS, planes = 1, build_for = rs->gpus;
    double reserve = 0;
    fp_status rc;
    const cJSON *v;
    if (f && ((rc = fp__json_check_keys(f, "/fabric", keys, err)) != FP_OK ||
              (rc = fp__json_str(f, "topology", "/fabric", topo, sizeof topo, err)) != FP_OK ||
              (rc = fp__json_int(f, "su_servers", "/fabric", 1, 4096, &su, err)) != FP_OK ||
              (rc = fp__json_int(f, "planes", "/fabric", 1, FP_MAX_PLANES, &planes, err)) != FP_OK ||
              (rc = fp__json_num(f, "reserve", "/fabric", 0, 0.9, &reserve, err)) != FP_OK ||
              (rc = fp__json_str(f, "spread", "/fabric", spread, sizeof spread, err)) != FP_OK ||
              (rc = fp__json_int(f, "build_for_gpus", "/fabric", 1, MAX_GPUS, &build_for, err)) != FP_OK))
        return rc;
    if (strcmp(spread, "even") == 0)
        rs->spread = FP_SPREAD_EVEN;
    else if (strcmp(spread, "balanced") == 0)
        rs->spread = FP_SPREAD_BALANCED;
    else
        FP_FAIL(err, FP_EINVAL, "/fabric/spread",
                "/fabric/spread: expected \"even\" or \"balanced\", found \"%s\"", spread);
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
    rs->planes = (int)planes;
    rs->reserve = reserve;

    /* tiers: "auto" or 2..4 */
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

    /* switch: one for every tier, or an array leaf first */
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

    /* oversubscription: array, leaf first; missing entries are 1:1. Each entry is a down:up
     * bandwidth ratio, a number (2 = 2:1) or a string "16:15". */
    for (int i = 0; i < FP_MAX_TIERS; i++)
        rs->oversub[i] = 1.0;
    rs->n_oversub = 0;
    v = f ? cJSON_GetObjectItemCaseSensitive(f, "oversubscription") : NULL;
    if (v) {
        const cJSON *it;
        int i = 0;
        if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > FP_MAX_TIERS - 1)
            FP_FAIL(err, FP_EINVAL, "/fabric/oversubscription",
                    "/fabric/oversubscription: expected an array of up to %d down:up ratios, leaf first (e.g. [2, 1] or [\"16:15\"]), found %s",
                    FP_MAX_TIERS - 1, fp__json_describe(v, d, sizeof d));
        cJSON_ArrayForEach(it, v) {
            char p[64];
            double r = -1;
            fp__json_ptr_index(p, sizeof p, "/fabric/oversubscription", i);
            if (cJSON_IsNumber(it)) {
                r = it->valuedouble;
            } else if (cJSON_IsString(it)) {
                double a = 0, b = 0;
                char tail = 0;
                if (sscanf(it->valuestring, "%lf:%lf%c", &a, &b, &tail) == 2 && a > 0 && b > 0)
                    r = a / b;
            }
            if (!(r >= 1.0 / 64 - 1e-12) || r > 64)
                FP_FAIL(err, FP_EINVAL, p,
                        "%s: expected a down:up bandwidth ratio from 1:64 to 64:1 (a number, 2 = 2:1, or a string such as \"16:15\"; 1 = non-blocking), found %s",
                        p, fp__json_describe(it, d, sizeof d));
            rs->oversub[i++] = r;
        }
        rs->n_oversub = i;
    }

    /* link_gbps: one speed per boundary, NIC-leaf first; the last one repeats (checked against
     * the NIC and the switches in check_combined). */
    rs->n_gbps = 0;
    v = f ? cJSON_GetObjectItemCaseSensitive(f, "link_gbps") : NULL;
    if (v) {
        const cJSON *it;
        int i = 0;
        if (cJSON_IsNumber(v)) {
            if (v->valuedouble != floor(v->valuedouble) || v->valuedouble < 1 || v->valuedouble > 100000)
                FP_FAIL(err, FP_EINVAL, "/fabric/link_gbps",
                        "/fabric/link_gbps: expected a speed in Gb/s (e.g. 400) or a list per boundary, NIC-leaf first (e.g. [400, 800]), found %s",
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

/* Checks that need cluster and fabric together. */
static fp_status check_combined(fp_rspec *rs, fp_error *err)
{
    if (rs->nic.ports % rs->planes != 0)
        FP_FAIL(err, FP_EINVAL, "/fabric/planes",
                "/fabric/planes: %d planes need NICs whose port count is a multiple of %d; %s has %d port%s",
                rs->planes, rs->planes, rs->nic.id, rs->nic.ports, rs->nic.ports == 1 ? "" : "s");
    rs->endpoints_per_server = rs->nics_per_server * rs->nic.ports / rs->planes;
    rs->nic_per_cage = rs->nic.ports / (rs->nic.cages > 0 ? rs->nic.cages : rs->nic.ports);
    /* Link speeds: given per boundary (last repeats), else the NIC port speed everywhere. */
    if (rs->n_gbps == 0) {
        rs->gbps[0] = rs->nic.port_gbps;
        rs->n_gbps = 0;
    }
    for (int i = rs->n_gbps > 0 ? rs->n_gbps : 1; i < FP_MAX_TIERS; i++)
        rs->gbps[i] = rs->gbps[i - 1];
    rs->link_gbps = rs->gbps[0];
    if (rs->gbps[0] > rs->nic.port_gbps)
        FP_FAIL(err, FP_EINVAL, "/fabric/link_gbps/0",
                "/fabric/link_gbps/0: NIC-leaf links of %dG are faster than the %dG ports of %s; expected at most %dG",
                rs->gbps[0], rs->nic.port_gbps, rs->nic.id, rs->nic.port_gbps);
    /* Protocols: the NIC and every switch model must share one. */
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
                        "%s: %s speaks %s and the NIC %s speaks %s: no protocol in common; expected a switch and NIC of one protocol (InfiniBand or Ethernet)",
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
                "%s: %s is a modular chassis (%d line cards); it serves the spine and the tiers above, not the leaf; expected a list [leaf, spine, ...] with a fixed switch first",
                rs->n_models > 1 ? "/fabric/switch/0" : "/fabric/switch", rs->tier[0].model.id,
                rs->tier[0].model.line_cards);
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
    for (int i = 0; i < FP_MAX_TIERS; i++) {
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
        int bu = breakout_for(&t->model, t->gbps_up);
        if (b == 0 && i < top) {
            if (i >= rs->n_models && i > 0 && rs->gbps[i] == rs->gbps[i - 1])
                continue; /* same model and speed as an earlier tier: already reported there */
            if (i == 0 && rs->n_gbps == 0)
                FP_FAIL(err, FP_EINVAL, p,
                        "%s: %s has %dG ports, which cannot run the NIC's %dG links (expected ports of %dG, or a faster port with a breakout to %dG)",
                        p, t->model.id, t->model.port_gbps, t->gbps_down, t->gbps_down, t->gbps_down);
            FP_FAIL(err, FP_EINVAL, p,
                    "%s: %s has %dG ports, which cannot run the %dG links below it (/fabric/link_gbps/%d); expected ports of %dG, or a faster port with a breakout to %dG",
                    p, t->model.id, t->model.port_gbps, t->gbps_down, i, t->gbps_down, t->gbps_down);
        }
        if (bu == 0 && b != 0 && i + 1 < top)
            FP_FAIL(err, FP_EINVAL, p,
                    "%s: %s has %dG ports, which cannot run the %dG links above it (/fabric/link_gbps/%d); expected ports of %dG, or a faster port with a breakout to %dG",
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
    }
    return fp__port_names_check(&rs->nic, 1, rs->nics_per_server * rs->nic.ports, "/cluster/nic",
                                err);
}

/* Directory of the spec's file ("specs/a.json" -> "specs"), or "" when the spec did not come
 * from a file (a string, a preset, the default) or sits in the working directory. */
static const char *spec_dir(char *buf, size_t n, const char *origin)
{
    const char *slash = strrchr(origin, '/');
    buf[0] = '\0';
    if (origin[0] == '<' || strncmp(origin, "preset ", 7) == 0 || slash == NULL)
        return buf;
    snprintf(buf, n, "%.*s", (int)(slash - origin), origin);
    if (buf[0] == '\0')
        snprintf(buf, n, "/");
    return buf;
}

/* A spec without a name is named after its file ("racks/a1.json" -> "a1"), else "default". */
static void default_name(char *buf, size_t n, const char *origin)
{
    const char *base = strrchr(origin, '/');
    base = base ? base + 1 : origin;
    if (base[0] == '<' || base[0] == '\0' || strncmp(origin, "preset ", 7) == 0) {
        snprintf(buf, n, "default");
        return;
    }
    snprintf(buf, n, "%s", base);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
    /* A file name may hold bytes a name may not (fp__text_check): each offending byte becomes
     * '_' so the derived name follows the same rule as a given one. */
    const char *why;
    size_t len = strlen(buf), bad;
    while ((bad = fp__text_check(buf, len, &why)) != (size_t)-1)
        buf[bad] = '_';
}

fp_status fp__spec_resolve(fp_rspec *rs, const fp_spec *spec, const fp_catalog *cat,
                           fp_error *err)
{
    static const char *const keys[] = { "name", "cluster", "fabric", "layout", "media", "bom",
                                        "overrides", "networks", NULL };
    const cJSON *cluster = NULL, *fabric = NULL, *layout = NULL, *media = NULL, *bom = NULL;
    char dir[4096];
    fp_status rc;
    memset(rs, 0, sizeof *rs);
    if (spec == NULL || cat == NULL)
        FP_FAIL(err, FP_EINVAL, "", "NULL spec or catalog");
    default_name(rs->name, sizeof rs->name, spec->origin);
    if ((rc = fp__json_check_keys(spec->root, "", keys, err)) != FP_OK ||
        (rc = fp__json_str(spec->root, "name", "", rs->name, sizeof rs->name, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "cluster", "", &cluster, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "fabric", "", &fabric, err)) != FP_OK ||
        (rc = resolve_cluster(rs, cluster, cat, err)) != FP_OK ||
        (rc = resolve_fabric(rs, fabric, cat, err)) != FP_OK ||
        (rc = check_combined(rs, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "layout", "", &layout, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "media", "", &media, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "bom", "", &bom, err)) != FP_OK ||
        (rc = fp__phys_resolve(&rs->phys, layout, media, bom,
                               cJSON_GetObjectItemCaseSensitive(spec->root, "overrides"),
                               spec_dir(dir, sizeof dir, spec->origin), cat, err)) != FP_OK)
        return rc;
    /* Hot spares are cabled like production servers, so the fabric is sized for them too. */
    rs->spare_servers = (int64_t)ceil((rs->gpus + rs->gpus_per_server - 1) / rs->gpus_per_server *
                                      rs->phys.spare_servers - 1e-9);
    return FP_OK;
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
    /* Extra 1:1 entries are harmless (a spec written for "auto" cannot know the tier count). */
    for (int t = tiers - 1; t < rs->n_oversub; t++) {
        char ratio[32];
        if (rs->oversub[t] != 1.0)
            FP_FAIL(err, FP_EINVAL, "/fabric/oversubscription",
                    "/fabric/oversubscription/%d: %s given for tier %d, but a %d-tier fabric has uplinks only at tiers 1 to %d",
                    t, fp_ratio_text(rs->oversub[t], ratio, sizeof ratio), t + 1, tiers,
                    tiers - 1);
    }
    return FP_OK;
}

/* The networks section (networks.c reads it), NULL when the spec has none. */
const cJSON *fp__spec_networks(const fp_spec *spec)
{
    return spec ? cJSON_GetObjectItemCaseSensitive(spec->root, "networks") : NULL;
}

/* Resolve a spec given as a JSON tree (networks.c: each network's fabric is resolved as a spec
 * of its own, so it is checked and sized by the same code as the compute fabric). */
fp_status fp__spec_resolve_tree(fp_rspec *rs, cJSON *root, const fp_catalog *cat, fp_error *err)
{
    fp_spec s;
    memset(&s, 0, sizeof s);
    s.root = root;
    snprintf(s.origin, sizeof s.origin, "%s", "<network>");
    return fp__spec_resolve(rs, &s, cat, err);
}
