/* fabplan — reading what lldpd reports (lldpcli -f json show neighbors [details]): the link of
 * every interface of a device to its neighbour, as lldpd's JSON writer prints it
 * (src/client/json_writer.c, display.c in lldpd 1.0):
 *
 *   -f json0:  {"lldp": [{"interface": [{"name": "swp1", "via": "LLDP", ...,
 *                "chassis": [{"id": [{"type": "mac", "value": "..."}],
 *                             "name": [{"value": "leaf01"}], ...}],
 *                "port": [{"id": [{"type": "ifname", "value": "swp3"}],
 *                          "descr": [{"value": "swp3"}], ...}]}]}]}
 *   -f json:   the same cleaned up: an array of one member is that member, an object whose only
 *              key is "value" is that value, and an object with a "name" is put under its name:
 *              {"lldp": {"interface": {"swp1": {"chassis": {"leaf01": {...}},
 *                                              "port": {"id": {...}, "descr": "swp3"}}}}}
 *              (two interfaces: "interface": [{"swp1": {...}}, {"swp2": {...}}]).
 *
 * The local device is the file's name (<device>.json) or the name of the `lldpcli -f json show
 * chassis` document ("local-chassis") before the neighbours in the same file, so one file may
 * hold many devices' outputs one after the other. The far port is the port id when its subtype
 * names an interface (ifname, local, ifalias), else (a MAC) the port description. */
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "verify/verify.h"
#include "util/text.h"

#define POOL_BLOCK (1u << 20)

/* A copy of s that lives as long as the discovery. */
static const char *keep(fp_vf_disc *d, const char *s)
{
    size_t n = strlen(s) + 1;
    if (d->n_pool == 0 || d->pool_used + n > POOL_BLOCK) {
        if (d->n_pool == d->cap_pool) {
            int64_t nc = d->cap_pool ? d->cap_pool * 2 : 16;
            char **q = realloc(d->pool, (size_t)nc * sizeof *q);
            if (q == NULL)
                return NULL;
            d->pool = q;
            d->cap_pool = nc;
        }
        char *b = malloc(n > POOL_BLOCK ? n : POOL_BLOCK);
        if (b == NULL)
            return NULL;
        d->pool[d->n_pool++] = b;
        d->pool_used = 0;
    }
    char *c = d->pool[d->n_pool - 1] + d->pool_used;
    memcpy(c, s, n);
    d->pool_used += n;
    return c;
}

/* ---- lldpd's two JSON shapes ---- */

static const cJSON *child(const cJSON *o, const char *key)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

/* The members of a tag: an array's, or the one object json's cleanup left in its place. */
#define EACH(it, x) \
    for (const cJSON *it = cJSON_IsArray(x) ? (x)->child : (x); it != NULL; \
         it = cJSON_IsArray(x) ? it->next : NULL)

/* The text of a value: a string, or an array of one / an object with "value" around it. */
static const char *text_of(const cJSON *x)
{
    while (x != NULL) {
        if (cJSON_IsString(x))
            return x->valuestring;
        if (cJSON_IsArray(x))
            x = cJSON_GetArraySize(x) == 1 ? x->child : NULL;
        else
            x = child(x, "value");
    }
    return NULL;
}

/* A named element (interface, chassis): json0 gives {"name": ..., ...}; json puts the body
 * under its name, {"<name>": {...}}. *name NULL when it has none; returns the body. */
static const cJSON *named(const cJSON *x, const char **name)
{
    const cJSON *n = child(x, "name");
    *name = NULL;
    if (n != NULL) {
        *name = text_of(n);
        return x;
    }
    if (cJSON_IsObject(x) && x->child != NULL && x->child->next == NULL &&
        cJSON_IsObject(x->child) && strcmp(x->child->string, "id") != 0 &&
        strcmp(x->child->string, "port") != 0 && strcmp(x->child->string, "chassis") != 0) {
        *name = x->child->string;
        return x->child;
    }
    return x;
}

static const cJSON *first(const cJSON *x)
{
    return cJSON_IsArray(x) ? x->child : x;
}

/* Above any Ethernet speed (1.6 Tb/s is the fastest IEEE 802.3 names): 100 Tb/s. */
#define MAU_MAX_MBPS 1e8

/* The speed of the MAU type lldpd prints ("100GbaseCR4 - ...", "10GigBaseLR - ...",
 * "1000BaseTFD - ...", "2p5GigT - ..."), in Mb/s; 0 when it names none. The token into rate. */
static int mau_mbps(const char *s, char rate[16])
{
    rate[0] = '\0';
    if (s == NULL)
        return 0;
    size_t n = strcspn(s, " ");
    snprintf(rate, 16, "%.*s", (int)(n < 15 ? n : 15), s);
    char *e;
    double v = strtod(s, &e);
    if (e == s)
        return 0;
    if (*e == 'p') {            /* 2p5 */
        char *f;
        double frac = strtod(e + 1, &f);
        for (char *c = e + 1; c < f; c++)
            frac /= 10;
        v += frac;
        e = f;
    }
    /* Mb/s; a number out of any Ethernet speed's range (1e308, nan, inf, negative) names
     * none: converting it to an int would be undefined */
    double mbps = 0;
    if (*e == 'G')
        mbps = v * 1000;
    else if (strncmp(e, "Base", 4) == 0 || strncmp(e, "base", 4) == 0)
        mbps = v;
    if (!(mbps >= 1 && mbps <= MAU_MAX_MBPS))
        return 0;
    return (int)(mbps + 0.5);
}

/* ---- links ---- */

typedef struct lldp_reader {
    fp_verify *v;
    const fp_vf_map *pe;
    fp_vf_map nodes, ends; /* name -> node; (name, port) -> 2 x link + end */
    const char *path;
    char file[256];             /* the file's name, for the notes */
} lldp_reader;

static fp_status oom(lldp_reader *r, fp_error *err)
{
    FP_FAIL(err, FP_ENOMEM, r->path, "out of memory reading %s", r->path);
}

/* The node of system name `name` (kept), -1 out of memory. Not marked a switch: an unplanned
 * link's row then names first the end that reported it. */
static int64_t node_of(lldp_reader *r, const char *name)
{
    fp_vf_disc *d = &r->v->disc;
    int64_t n = fp__vf_map_get(&r->nodes, name, "");
    if (n >= 0)
        return n;
    const char *k = keep(d, name);
    if (k == NULL || fp__vf_grow((void **)&d->node, &d->cap_node, d->n_node + 1, sizeof *d->node) != FP_OK)
        return -1;
    d->node[d->n_node] = (fp_vf_node){ k, 0, k, 0 };
    if (fp__vf_map_put(&r->nodes, k, "", d->n_node) == -2)
        return -1;
    return d->n_node++;
}

/* The plan's device named so, else NULL. */
static const char *plan_device(const fp_verify *v, const char *name)
{
    int64_t d = fp__vf_map_get(&v->dev_loc, name, "");
    if (d < 0)
        return NULL;
    return (d & 1) ? v->plink[d >> 1].z.device : v->plink[d >> 1].a.device;
}

/* One sighting: local (node, port) sees far (node, port). Adds the link, or marks the far end's
 * own sighting of it, or notes a contradiction on the link seen first. */
static fp_status sighting(lldp_reader *r, int64_t ln, const char *lport, int64_t fn,
                          const char *fport, const char *how, int mbps, const char *rate,
                          int line, fp_error *err)
{
    fp_vf_disc *d = &r->v->disc;
    const char *ln_name = d->node[ln].desc, *fn_name = d->node[fn].desc;
    int64_t e0 = fp__vf_map_get(&r->ends, ln_name, lport);
    int64_t e1 = fp__vf_map_get(&r->ends, fn_name, fport);
    if (e0 >= 0 || e1 >= 0) {
        fp_vf_dlink *l = &d->link[(e0 >= 0 ? e0 : e1) >> 1];
        if (e0 >= 0 && e1 >= 0 && (e0 >> 1) == (e1 >> 1) && (e0 & 1) != (e1 & 1)) {
            l->seen |= 1 << (e0 & 1);
            if (l->mbps == 0 && mbps > 0) {
                l->mbps = mbps;
                fp__copy_str(l->rate, sizeof l->rate, rate);
            }
            return FP_OK;
        }
        char note[600];
        snprintf(note, sizeof note, "%s%sends disagree: %s says %s %s sees %s %s", l->note ? l->note : "",
                 l->note ? "; " : "", r->file, ln_name, lport, fn_name, fport);
        if ((l->note = keep(d, note)) == NULL)
            return oom(r, err);
        d->n_disagree++;
        return FP_OK;
    }
    if (fp__vf_grow((void **)&d->link, &d->cap_link, d->n_link + 1, sizeof *d->link) != FP_OK)
        return oom(r, err);
    fp_vf_dlink *l = &d->link[d->n_link];
    memset(l, 0, sizeof *l);
    l->lldp = 1;
    l->seen = 1;
    l->node[0] = ln;
    l->node[1] = fn;
    l->width = mbps > 0 ? 1 : 0;
    l->mbps = mbps;
    fp__copy_str(l->rate, sizeof l->rate, rate);
    l->line = line;
    l->note = how;
    const char *lp = keep(d, lport), *fp = keep(d, fport);
    if (lp == NULL || fp == NULL)
        return oom(r, err);
    l->pname[0] = lp;
    l->pname[1] = fp;
    l->device[0] = plan_device(r->v, ln_name);
    l->device[1] = plan_device(r->v, fn_name);
    if (fp__vf_map_put(&r->ends, ln_name, lp, 2 * d->n_link) == -2 ||
        fp__vf_map_put(&r->ends, fn_name, fp, 2 * d->n_link + 1) == -2)
        return oom(r, err);
    d->n_link++;
    return FP_OK;
}

static int planned(const lldp_reader *r, const char *dev, const char *port)
{
    return dev != NULL && port != NULL && fp__vf_map_get(r->pe, dev, port) >= 0;
}

static fp_status bad(fp_error *err, const char *path, int line, const char *what)
{
    fp__error_set(err, FP_EPARSE, path, "%s line %d: %s", path, line, what);
    if (err)
        err->line = line;
    return FP_EPARSE;
}

/* One interface of an "lldp" document (the k-th, from 1): its neighbour. The errors name it:
 * the line is the document's first (cJSON keeps no positions), which for a whole device's
 * output said only "line 1". */
static fp_status interface(lldp_reader *r, const cJSON *it, const char *local, int line, int k,
                           fp_error *err)
{
    char what[300];
    const char *ifname, *sysname;
    const cJSON *b = named(it, &ifname);
    const cJSON *ch = named(first(child(b, "chassis")), &sysname);
    const cJSON *port = first(child(b, "port"));
    const cJSON *id = first(child(port, "id"));
    const char *pid = text_of(id), *ptype = text_of(child(id, "type"));
    const char *descr = text_of(child(port, "descr"));
    if (ifname == NULL || ch == NULL || port == NULL || pid == NULL) {
        snprintf(what, sizeof what,
                 "interface %d of the document%s%.40s%s: without its name, chassis or port "
                 "id; expected lldpcli -f json show neighbors",
                 k, ifname ? " (" : "", ifname ? ifname : "", ifname ? ")" : "");
        return bad(err, r->path, line, what);
    }
    if (sysname == NULL)        /* no SysName: the chassis id (a MAC) names it */
        sysname = text_of(child(ch, "id"));
    if (sysname == NULL) {
        snprintf(what, sizeof what,
                 "interface %d of the document (%.40s): a neighbour without a system name "
                 "or chassis id",
                 k, ifname);
        return bad(err, r->path, line, what);
    }
    const char *dev = plan_device(r->v, sysname);
    /* the far port: the id when it names an interface, else the description */
    const char *fport = pid, *how = NULL;
    int is_mac = ptype != NULL && strcmp(ptype, "mac") == 0;
    if (descr != NULL && descr[0] != '\0' &&
        (is_mac || (!planned(r, dev, pid) && planned(r, dev, descr)))) {
        fport = descr;
        how = is_mac ? "far port named by its description (its port id is a MAC)"
                     : "far port named by its description (its port id is not the plan's)";
    }
    char rate[16];
    int mbps = mau_mbps(text_of(child(first(child(port, "auto-negotiation")), "current")), rate);
    int64_t ln = node_of(r, local), fn = ln >= 0 ? node_of(r, sysname) : -1;
    if (fn < 0)
        return oom(r, err);
    return sighting(r, ln, ifname, fn, fport, how, mbps, rate, line, err);
}

/* NULL when ll is what "lldp" holds in lldpcli's neighbours (an object, or json0's list of
 * objects, whose members are "interface"), else what is wrong, into buf: any other value read
 * as no neighbours at all. */
static const char *lldp_shape(const cJSON *ll, char *buf, size_t n)
{
    static const char *const exp = "expected lldpcli -f json show neighbors output (\"lldp\": an "
                                   "object of \"interface\" members, or a list of them)";
    if (!cJSON_IsObject(ll) && !cJSON_IsArray(ll)) {
        snprintf(buf, n, "\"lldp\" is %s; %s",
                 cJSON_IsNull(ll)     ? "null"
                 : cJSON_IsString(ll) ? "a string"
                 : cJSON_IsNumber(ll) ? "a number"
                                      : "true or false",
                 exp);
        return buf;
    }
    EACH(l, ll)
    {
        if (!cJSON_IsObject(l)) {
            snprintf(buf, n, "\"lldp\" lists something other than an object; %s", exp);
            return buf;
        }
        for (const cJSON *m = l->child; m != NULL; m = m->next)
            if (strcmp(m->string, "interface") != 0) {
                snprintf(buf, n, "\"lldp\" holds \"%.24s\"; %s", m->string, exp);
                return buf;
            }
    }
    return NULL;
}

/* The line of at, counting on from *from (at *line) and moving it there: the documents of a
 * file are read in order, so the whole file is counted once (counting from its start for each
 * document took 1 minute on 500 devices' outputs in one file, 4.7 minutes on 1,000). */
static int line_to(const char **from, int *line, const char *at)
{
    for (const char *c = *from; c < at; c++)
        *line += *c == '\n';
    if (at > *from)
        *from = at;
    return *line;
}

/* One file: one or more JSON documents, each "lldp" (neighbours) or "local-chassis". */
static fp_status read_file(lldp_reader *r, const char *path, fp_error *err)
{
    char *text = NULL;
    size_t len;
    r->path = path;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    fp__copy_str(r->file, sizeof r->file, base);
    char local[256];
    fp__copy_str(local, sizeof local, base);
    size_t bl = strlen(local);
    if (bl > 5 && strcmp(local + bl - 5, ".json") == 0)
        local[bl - 5] = '\0';
    fp_status rc = fp__read_file(path, &text, &len, err);
    if (rc != FP_OK)
        return rc;
    const char *nul = memchr(text, '\0', len), *counted = text;
    int counted_line = 1;
    if (nul != NULL) {
        rc = bad(err, path, line_to(&counted, &counted_line, nul),
                 "a NUL byte; expected lldpcli's JSON output");
        free(text);
        return rc;
    }
    const char *p = text, *end = text + len;
    int docs = 0;
    while (rc == FP_OK) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        if (p >= end)
            break;
        int line = line_to(&counted, &counted_line, p);
        const char *stop = NULL;
        cJSON *doc = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, 0);
        if (doc == NULL) {
            const char *e = cJSON_GetErrorPtr();
            rc = bad(err, path, line_to(&counted, &counted_line, e && e >= p && e <= end ? e : p),
                     "not JSON (truncated?); expected lldpcli -f json show neighbors");
            break;
        }
        const cJSON *ll = child(doc, "lldp"), *lc = child(doc, "local-chassis");
        char shape[200];
        if (ll != NULL && lldp_shape(ll, shape, sizeof shape) != NULL) {
            rc = bad(err, path, line, shape);
        } else if (ll != NULL) {
            int k = 0;
            EACH(l, ll)
                EACH(it, child(l, "interface")) {
                    if ((rc = interface(r, it, local, line, ++k, err)) != FP_OK)
                        break;
                }
        } else if (lc != NULL) {
            const char *name;
            named(first(child(first(lc), "chassis")), &name);
            if (name == NULL)
                rc = bad(err, path, line, "a local-chassis without a name");
            else
                fp__copy_str(local, sizeof local, name);
        } else {
            rc = bad(err, path, line, "expected lldpcli -f json show neighbors output (an "
                     "\"lldp\" object)");
        }
        cJSON_Delete(doc);
        docs++;
        p = stop;
    }
    if (rc == FP_OK && docs == 0)
        rc = bad(err, path, 1, "empty; expected lldpcli -f json show neighbors output");
    free(text);
    return rc;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.json files of a folder, sorted by name (readdir's order is the file system's). */
static fp_status list_dir(DIR *dir, const char *path, char ***out, int64_t *n, fp_error *err)
{
    struct dirent *e;
    int64_t cap = 0;
    *out = NULL;
    *n = 0;
    while ((e = readdir(dir)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= 5 || strcmp(e->d_name + l - 5, ".json") != 0 || e->d_name[0] == '.')
            continue;
        char *s = malloc(strlen(path) + l + 2);
        if (s == NULL || fp__vf_grow((void **)out, &cap, *n + 1, sizeof **out) != FP_OK) {
            free(s);
            FP_FAIL(err, FP_ENOMEM, path, "out of memory listing %s", path);
        }
        sprintf(s, "%s/%s", path, e->d_name);
        (*out)[(*n)++] = s;
    }
    if (*n > 0)
        qsort(*out, (size_t)*n, sizeof **out, cmp_name);
    return FP_OK;
}

fp_status fp__vf_read_lldp(fp_verify *v, const char *path, const fp_vf_map *pe, fp_error *err)
{
    lldp_reader r = { .v = v, .pe = pe, .path = path };
    if (fp__vf_map_init(&r.nodes, 1024) != FP_OK || fp__vf_map_init(&r.ends, 16384) != FP_OK) {
        fp__vf_map_free(&r.nodes);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
    }
    v->disc.has_lldp = 1;
    fp_status rc = FP_OK;
    DIR *dir = opendir(path);
    if (dir == NULL) {
        rc = read_file(&r, path, err);
    } else {
        char **files = NULL;
        int64_t n = 0;
        rc = list_dir(dir, path, &files, &n, err);
        closedir(dir);
        if (rc == FP_OK && n == 0)
            rc = fp__error_set(err, FP_EIO, path, "%s has no <device>.json file; expected the "
                               "output of lldpcli -f json show neighbors of each device", path);
        for (int64_t i = 0; i < n; i++) {
            if (rc == FP_OK)
                rc = read_file(&r, files[i], err);
            free(files[i]);
        }
        free(files);
    }
    fp__vf_map_free(&r.nodes);
    fp__vf_map_free(&r.ends);
    return rc;
}
