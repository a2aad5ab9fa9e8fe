/* fabplan — spec: parse, override, resolve against the catalog (the cluster and fabric
 * sections: spec_fabric.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "spec/spec_fabric.h"

extern const char fp__presets_json[];
extern const size_t fp__presets_json_len;

struct fp_spec {
    cJSON *root;
    char origin[128];
};


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
    if (out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_new: out is NULL");
    cJSON *root = cJSON_CreateObject();
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
    if (out == NULL || path == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_load: %s is NULL", out ? "path" : "out");
    *out = NULL;
    if ((rc = fp_read_file(path, FP_FILE_SPEC, &text, &len, err)) != FP_OK)
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
    const size_t count = (size_t)cJSON_GetArraySize(arr);
    /* The range is checked before the index is narrowed to cJSON's int, and the count kept:
     * the message must not read the tree after it is freed. */
    const cJSON *p = i < count ? cJSON_GetArrayItem(arr, (int)i) : NULL;
    if (p == NULL) {
        cJSON_Delete(root);
        FP_FAIL(err, FP_EINVAL, "", "preset %zu out of range (there are %zu)", i, count);
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

/* One step of a pointer into a list: tok an index 0..n-1 replaces, n or "-" appends
 * (/fabric/switch/1). The last step (next NULL) places val (*placed = 1); an earlier one gives
 * the item to go into (*child), made when missing. Errors: FP_EINVAL, FP_ENOMEM (val is the
 * caller's to free). */
static fp_status array_step(cJSON *node, const char *tok, const char *next, cJSON *val,
                            const char *pointer, cJSON **child, int *placed, fp_error *err)
{
    int n = cJSON_GetArraySize(node), at = pointer_index(tok, n);
    if (at < 0 || at > n)
        FP_FAIL(err, FP_EINVAL, pointer,
                "%s: \"%s\" is not an index of this %d-item list; expected 0 to %d or \"-\" to append",
                pointer, tok, n, n);
    *child = at < n ? cJSON_GetArrayItem(node, at) : NULL;
    if (next == NULL) {
        if (*child)
            cJSON_ReplaceItemInArray(node, at, val);
        else
            cJSON_AddItemToArray(node, val);
        *placed = 1;
        return FP_OK;
    }
    if (*child == NULL) {
        *child = pointer_index(next, 0) >= 0 ? cJSON_CreateArray() : cJSON_CreateObject();
        if (*child == NULL || !cJSON_AddItemToArray(node, *child)) {
            cJSON_Delete(*child);
            FP_FAIL(err, FP_ENOMEM, pointer, "out of memory");
        }
    }
    return FP_OK;
}

/* One step of a pointer into an object, as array_step: the last step sets member tok, an
 * earlier one gives the member to go into, made when missing. */
static fp_status object_step(cJSON *node, const char *tok, const char *next, cJSON *val,
                             const char *pointer, cJSON **child, int *placed, fp_error *err)
{
    if (next == NULL) {
        if (cJSON_GetObjectItemCaseSensitive(node, tok))
            cJSON_ReplaceItemInObjectCaseSensitive(node, tok, val);
        else
            cJSON_AddItemToObject(node, tok, val);
        *placed = 1;
        return FP_OK;
    }
    *child = cJSON_GetObjectItemCaseSensitive(node, tok);
    if (*child == NULL) {
        /* No spec key is a number, so "/fabric/oversubscription/0" starts a new list. */
        *child = pointer_index(next, 0) >= 0 ? cJSON_AddArrayToObject(node, tok)
                                             : cJSON_AddObjectToObject(node, tok);
        if (*child == NULL)
            FP_FAIL(err, FP_ENOMEM, pointer, "out of memory");
    }
    return FP_OK;
}

fp_status fp_spec_set(fp_spec *spec, const char *pointer, const char *value, fp_error *err)
{
    char path[256], *tok, *save = NULL;
    cJSON *node, *val;
    fp_status rc;
    if (spec == NULL || pointer == NULL || value == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_set: NULL argument");
    if (pointer[0] != '/' || pointer[1] == '\0' || strlen(pointer) >= sizeof path ||
        strstr(pointer, "//") || pointer[strlen(pointer) - 1] == '/')
        FP_FAIL(err, FP_EINVAL, pointer, "bad JSON pointer \"%s\"; expected e.g. /cluster/gpus",
                pointer);
    /* A value that starts like a JSON string, object or list is JSON and goes through the JSON
     * reader's rules (no U+0000; a lone surrogate "\ud800" is a syntax error, not a literal of
     * 8 characters); anything else that is not JSON (a bare word) is taken as a string. */
    val = NULL;
    if (value[0] == '"' || value[0] == '{' || value[0] == '[') {
        char where[300];
        snprintf(where, sizeof where, "--set %s", pointer);
        if ((rc = fp__json_parse(&val, value, strlen(value), where, err)) != FP_OK)
            return rc;
    } else {
        val = fp__cjson_parse(value, strlen(value) + 1, NULL);
    }
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
        cJSON *child = NULL;
        int placed = 0;
        rc = cJSON_IsArray(node) ? array_step(node, tok, next, val, pointer, &child, &placed, err)
                                 : object_step(node, tok, next, val, pointer, &child, &placed, err);
        if (rc != FP_OK) {
            cJSON_Delete(val);
            return rc;
        }
        if (placed)
            return FP_OK;
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
    if (spec == NULL || out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_to_json: %s is NULL", spec ? "out" : "spec");
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

const char *fp_spec_name(const fp_spec *spec)
{
    const cJSON *n = spec ? cJSON_GetObjectItemCaseSensitive(spec->root, "name") : NULL;
    return cJSON_IsString(n) && n->valuestring[0] != '\0' ? n->valuestring : NULL;
}

void fp_spec_free(fp_spec *spec)
{
    if (spec == NULL)
        return;
    cJSON_Delete(spec->root);
    free(spec);
}

/* ---- resolution ---- */

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
        (rc = fp__json_str(spec->root, "name", "", rs->name, sizeof rs->name, err)) != FP_OK)
        return rc;
    /* the name titles every document and names the NetBox site (which must not be blank):
     * "" or spaces alone is a mistake, not a name */
    if (rs->name[strspn(rs->name, " ")] == '\0')
        FP_FAIL(err, FP_EINVAL, "/name", "/name: expected a name of 1 to %zu characters (it titles "
                "every document), found %s", sizeof rs->name - 1,
                rs->name[0] ? "only spaces" : "an empty string");
    if ((rc = fp__json_obj(spec->root, "cluster", "", &cluster, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "fabric", "", &fabric, err)) != FP_OK ||
        (rc = fp__spec_resolve_cluster(rs, cluster, cat, err)) != FP_OK ||
        (rc = fp__spec_resolve_fabric(rs, fabric, cat, err)) != FP_OK ||
        (rc = fp__spec_check_combined(rs, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "layout", "", &layout, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "media", "", &media, err)) != FP_OK ||
        (rc = fp__json_obj(spec->root, "bom", "", &bom, err)) != FP_OK ||
        (rc = fp__phys_resolve(&rs->phys, layout, media, bom,
                               cJSON_GetObjectItemCaseSensitive(spec->root, "overrides"),
                               spec_dir(dir, sizeof dir, spec->origin), &rs->nic, cat, err)) != FP_OK)
        return rc;
    /* Hot spares are cabled like production servers, so the fabric is sized for them too. */
    rs->spare_servers = (int64_t)ceil((rs->gpus + rs->gpus_per_server - 1) / rs->gpus_per_server *
                                      rs->phys.spare_servers - 1e-9);
    return FP_OK;
}

fp_status fp_spec_inline_files(fp_spec *spec, fp_error *err)
{
    if (spec == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_spec_inline_files: spec is NULL");
    cJSON *v = cJSON_GetObjectItemCaseSensitive(spec->root, "overrides");
    if (!cJSON_IsString(v))
        return FP_OK;
    char dir[4096];
    cJSON *list = NULL;
    fp_status rc = fp__overrides_file(v, spec_dir(dir, sizeof dir, spec->origin), &list, err);
    if (rc != FP_OK)
        return rc;
    if (!cJSON_ReplaceItemInObjectCaseSensitive(spec->root, "overrides", list)) {
        cJSON_Delete(list);
        FP_FAIL(err, FP_ENOMEM, "/overrides", "out of memory");
    }
    return FP_OK;
}

/* The networks section (networks.c reads it), NULL when the spec has none. */
const cJSON *fp__spec_networks(const fp_spec *spec)
{
    return spec ? cJSON_GetObjectItemCaseSensitive(spec->root, "networks") : NULL;
}

int64_t fp__spec_gpus(const fp_spec *spec)
{
    const cJSON *g = spec ? cJSON_GetObjectItemCaseSensitive(
                                cJSON_GetObjectItemCaseSensitive(spec->root, "cluster"), "gpus")
                          : NULL;
    if (!cJSON_IsNumber(g) || g->valuedouble < 1 || g->valuedouble > 9e18)
        return 0;
    return (int64_t)g->valuedouble;
}

/* Resolve a spec given as a JSON tree (networks.c: each network's fabric is resolved as a spec
 * of its own, so it is checked and sized by the same code as the compute fabric). */
fp_status fp__spec_resolve_tree(fp_rspec *rs, cJSON *root, const fp_catalog *cat, fp_error *err)
{
    fp_spec s;
    memset(&s, 0, sizeof s);
    s.root = root;
    snprintf(s.origin, sizeof s.origin, "%s", "<network>");
    fp_status rc = fp__spec_resolve(rs, &s, cat, err);
    rs->su_auto = 0;    /* a network's units are shaped by spec/networks.c, not chosen */
    return rc;
}

fp_status fp__spec_copy(fp_spec **out, const fp_spec *spec, fp_error *err)
{
    cJSON *root = cJSON_Duplicate(spec->root, 1);
    *out = NULL;
    if (root == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    return spec_wrap(out, root, spec->origin, err);
}

/* The node at JSON pointer ptr, its parent in *parent (NULL for the root); NULL when the
 * pointer is not a JSON pointer or names nothing in the spec. */
static cJSON *spec_at(cJSON *root, const char *ptr, cJSON **parent)
{
    char path[256], *save = NULL;
    cJSON *node = root;
    *parent = NULL;
    if (ptr[0] != '/' || strlen(ptr) >= sizeof path)
        return NULL;
    snprintf(path, sizeof path, "%s", ptr + 1);
    for (char *tok = strtok_r(path, "/", &save); tok && node; tok = strtok_r(NULL, "/", &save)) {
        if (!pointer_unescape(tok))
            return NULL;
        *parent = node;
        if (cJSON_IsArray(node)) {
            int at = pointer_index(tok, cJSON_GetArraySize(node));
            node = at >= 0 && strcmp(tok, "-") != 0 ? cJSON_GetArrayItem(node, at) : NULL;
        } else {
            node = cJSON_IsObject(node) ? cJSON_GetObjectItemCaseSensitive(node, tok) : NULL;
        }
    }
    return node == root ? NULL : node;
}

size_t fp__spec_set_aside(fp_spec *spec, const char *ptr, char *aside, size_t n)
{
    cJSON *parent, *node = spec_at(spec->root, ptr, &parent);
    if (node == NULL)
        return 0;
    snprintf(aside, n, "%s", ptr);
    if (cJSON_IsArray(parent)) {
        /* a list item: the whole list (taking one item out would renumber the rest) */
        char *slash = strrchr(aside, '/');
        *slash = '\0';
        node = spec_at(spec->root, aside, &parent);
        if (node == NULL || cJSON_IsArray(parent))
            return 0;       /* a list inside a list: the spec has none such to set aside */
    }
    cJSON_DetachItemViaPointer(parent, node);
    cJSON_Delete(node);
    return strlen(aside);
}

/* Pre-order position of node under v (counting from *k), -1 when not found. */
static long preorder(const cJSON *v, const cJSON *node, long *k)
{
    if (v == node)
        return *k;
    for (const cJSON *c = v->child; c; c = c->next) {
        ++*k;
        long at = preorder(c, node, k);
        if (at >= 0)
            return at;
    }
    return -1;
}

long fp__spec_position(const fp_spec *spec, const char *ptr)
{
    char p[256];
    snprintf(p, sizeof p, "%s", ptr);
    while (p[0] == '/') {
        cJSON *parent, *node = spec_at(spec->root, p, &parent);
        if (node != NULL) {
            long k = 0;
            return preorder(spec->root, node, &k);
        }
        *strrchr(p, '/') = '\0';
    }
    return 0;
}

const cJSON *fp__spec_root(const fp_spec *spec)
{
    return spec->root;
}
