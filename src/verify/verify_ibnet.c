/* fabplan — reading what ibnetdiscover prints (infiniband-diags): its default topology form
 *
 *   switchguid=0x...(...)
 *   Switch  64 "S-<guid>"   # "<description>" enhanced port 0 lid 1 lmc 0
 *   [1]  "H-<guid>"[1](<port guid>)   # "<far description>" lid 4 4xNDR
 *   caguid=0x...
 *   Ca  1 "H-<guid>"   # "<description>"
 *   [1](<port guid>)  "S-<guid>"[1]   # lid 4 lmc 0 "<far description>" lid 1 4xNDR
 *
 * (each link listed from both ends) and its -p ports form
 *
 *   SW     1 17 0x<port guid> 4x NDR - CA     4  1 0x<port guid> ( '<desc>' - '<far desc>' )
 *
 * and its node-name map (`<guid> "<name>"`). A file that is neither is an FP_EPARSE naming the
 * file and line. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "verify/verify.h"

static fp_status bad(fp_error *err, const char *path, int line, const char *fmt, const char *s)
{
    char what[200];
    snprintf(what, sizeof what, fmt, s);
    fp__error_set(err, FP_EPARSE, path, "%s line %d: %s", path, line, what);
    if (err)
        err->line = line;
    return FP_EPARSE;
}

/* A short quote of a line for a message. */
static const char *quote(char *buf, size_t n, const char *s)
{
    size_t k = 0;
    while (s[k] && s[k] != '\n' && k + 1 < n && k < 60) {
        buf[k] = isprint((unsigned char)s[k]) ? s[k] : '?';
        k++;
    }
    buf[k] = '\0';
    return buf;
}

static fp_status grow(void **p, int64_t *cap, int64_t need, size_t size, fp_error *err,
                      const char *path)
{
    if (fp__vf_grow(p, cap, need, size) != FP_OK)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
    return FP_OK;
}

/* The text between the first pair of double quotes at or after s (NUL-terminated in place);
 * *rest past the closing quote. NULL when there is none on this line. */
static char *quoted(char *s, char **rest, char q)
{
    char *a = s;
    while (*a && *a != '\n' && *a != q)
        a++;
    if (*a != q)
        return NULL;
    char *b = a + 1;
    while (*b && *b != '\n' && *b != q)
        b++;
    if (*b != q)
        return NULL;
    *b = '\0';
    *rest = b + 1;
    return a + 1;
}

/* The last width-and-speed token ("4xNDR") in s[0..len), or 0; the token into text. */
static int last_rate(const char *s, size_t len, int *width, int *mbps, char text[16])
{
    size_t e = len;
    while (e > 0) {
        while (e > 0 && isspace((unsigned char)s[e - 1]))
            e--;
        size_t b = e;
        while (b > 0 && !isspace((unsigned char)s[b - 1]))
            b--;
        if (e > b && fp__ib_link_parse(s + b, e - b, width, mbps)) {
            size_t n = e - b < 15 ? e - b : 15;
            memcpy(text, s + b, n);
            text[n] = '\0';
            return 1;
        }
        e = b;
    }
    return 0;
}

/* One port line's reference to its far node, resolved once every record is read. */
typedef struct ref {
    int64_t node;
    int port, rport, width, mbps, line;
    const char *rid;
    char rate[16];
} ref;

static int64_t add_node(fp_vf_disc *d, const char *id, uint64_t guid, const char *desc, int sw,
                        fp_error *err, const char *path)
{
    if (grow((void **)&d->node, &d->cap_node, d->n_node + 1, sizeof *d->node, err, path) != FP_OK)
        return -1;
    fp_vf_node *n = &d->node[d->n_node];
    n->id = id;
    n->guid = guid;
    n->desc = desc;
    n->is_switch = sw;
    return d->n_node++;
}

/* (node, port) -> 2 x link + end: an integer table, open addressing. */
typedef struct end_map {
    uint64_t *key;              /* node << 16 | port, + 1 (0: empty) */
    int64_t *val;
    int64_t cap, n;
} end_map;

static uint64_t mix(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

static int64_t *end_slot(const end_map *m, uint64_t key)
{
    uint64_t s = mix(key) & (uint64_t)(m->cap - 1);
    while (m->key[s] != 0 && m->key[s] != key)
        s = (s + 1) & (uint64_t)(m->cap - 1);
    m->key[s] = key;            /* end_put's: the slot is claimed */
    return &m->val[s];
}

static int64_t end_get(const end_map *m, int64_t node, int port)
{
    uint64_t key = ((uint64_t)node << 16 | (uint64_t)port) + 1;
    uint64_t s = mix(key) & (uint64_t)(m->cap - 1);
    while (m->key[s] != 0 && m->key[s] != key)
        s = (s + 1) & (uint64_t)(m->cap - 1);
    return m->key[s] == key ? m->val[s] : -1;
}

static fp_status end_init(end_map *m, int64_t cap)
{
    m->cap = cap;
    m->n = 0;
    m->key = calloc((size_t)cap, sizeof *m->key);
    m->val = malloc((size_t)cap * sizeof *m->val);
    return m->key && m->val ? FP_OK : FP_ENOMEM;
}

static void end_free(end_map *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static fp_status end_put(end_map *m, int64_t node, int port, int64_t v)
{
    if ((m->n + 1) * 2 > m->cap) {
        end_map g;
        if (end_init(&g, m->cap * 2) != FP_OK) {
            end_free(&g);
            return FP_ENOMEM;
        }
        for (int64_t i = 0; i < m->cap; i++)
            if (m->key[i] != 0) {
                *end_slot(&g, m->key[i]) = m->val[i];
                g.n++;
            }
        end_free(m);
        *m = g;
    }
    *end_slot(m, ((uint64_t)node << 16 | (uint64_t)port) + 1) = v;
    m->n++;
    return FP_OK;
}

/* Each link once: the second sighting of a port pair (the far end's own line) is dropped; a
 * port listed with two different far ends is an error. */
static fp_status add_link(fp_vf_disc *d, end_map *ends, int64_t n0, int p0, int64_t n1, int p1,
                          int width, int mbps, const char *rate, int line, const char *path,
                          fp_error *err)
{
    int64_t s0 = end_get(ends, n0, p0), s1 = end_get(ends, n1, p1);
    if (s0 >= 0 || s1 >= 0) {
        int64_t s = s0 >= 0 ? s0 : s1;
        const fp_vf_dlink *l = &d->link[s];
        int same = (l->node[0] == n0 && l->port[0] == p0 && l->node[1] == n1 && l->port[1] == p1) ||
                   (l->node[0] == n1 && l->port[0] == p1 && l->node[1] == n0 && l->port[1] == p0);
        if (same)
            return FP_OK;
        char msg[300];
        snprintf(msg, sizeof msg, "port %d of \"%s\" is listed with another far end at line %d",
                 s0 >= 0 ? p0 : p1, d->node[s0 >= 0 ? n0 : n1].desc, l->line);
        return bad(err, path, line, "%s; expected each port linked once", msg);
    }
    if (grow((void **)&d->link, &d->cap_link, d->n_link + 1, sizeof *d->link, err, path) != FP_OK)
        return FP_ENOMEM;
    fp_vf_dlink *l = &d->link[d->n_link];
    memset(l, 0, sizeof *l);
    l->node[0] = n0;
    l->port[0] = p0;
    l->node[1] = n1;
    l->port[1] = p1;
    l->width = width;
    l->mbps = mbps;
    size_t rn = strnlen(rate, sizeof l->rate - 1);
    memcpy(l->rate, rate, rn);
    l->rate[rn] = '\0';
    l->line = line;
    if (end_put(ends, n0, p0, d->n_link) != FP_OK || end_put(ends, n1, p1, d->n_link) != FP_OK)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
    d->n_link++;
    return FP_OK;
}

/* The next line of the text at *at, NUL-terminated in place (a CR before the LF dropped), its
 * leading blanks skipped; *at moves past it and *line counts it. NULL at the end. */
static char *next_line(char **at, int *line, char **whole)
{
    char *s = *at;
    if (*s == '\0')
        return NULL;
    char *eol = strchr(s, '\n');
    *at = eol ? eol + 1 : s + strlen(s);
    ++*line;
    if (eol) {
        *eol = '\0';
        if (eol > s && eol[-1] == '\r')
            eol[-1] = '\0';
    }
    *whole = s;
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static int starts(const char *s, const char *w)
{
    return strncmp(s, w, strlen(w)) == 0;
}

/* The topology form. */
static fp_status read_topology(fp_vf_disc *d, const char *path, fp_error *err)
{
    fp_vf_map ids = { 0 };
    end_map ends = { 0 };
    ref *refs = NULL;
    int64_t n_ref = 0, cap_ref = 0, cur = -1;
    uint64_t next_guid = 0;
    fp_status rc = FP_OK;
    char q[80];
    if (fp__vf_map_init(&ids, 4096) != FP_OK || end_init(&ends, 16384) != FP_OK) {
        fp__vf_map_free(&ids);
        end_free(&ends);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
    }
    int line = 0;
    char *at = d->text, *p, *s;
    while (rc == FP_OK && (p = next_line(&at, &line, &s)) != NULL) {
        if (*p == '\0' || *p == '#') {
            cur = *p == '\0' ? -1 : cur;
        } else if (starts(p, "switchguid=") || starts(p, "caguid=") || starts(p, "rtguid=") ||
                   starts(p, "hcaguids=")) {
            next_guid = strtoull(strchr(p, '=') + 1, NULL, 0);
        } else if (starts(p, "vendid=") || starts(p, "devid=") || starts(p, "sysimgguid=") ||
                   starts(p, "Chassis") || starts(p, "Non-Chassis") || starts(p, "Hostname:")) {
            /* ids and the -g form's chassis lines: nothing to match by */
        } else if (starts(p, "Switch") || starts(p, "Ca\t") || starts(p, "Ca ") ||
                   starts(p, "Hca") || starts(p, "Rt")) {
            int sw = starts(p, "Switch");
            char *rest, *id = quoted(p, &rest, '"');
            if (id == NULL) {
                rc = bad(err, path, line, "a node record without its \"id\": %s", quote(q, sizeof q, s));
                break;
            }
            char *desc = id, *r2;
            char *h = strchr(rest, '#');
            if (h != NULL) {
                char *dq = quoted(h, &r2, '"');
                if (dq != NULL)
                    desc = dq;
            }
            int64_t old = fp__vf_map_get(&ids, id, "");
            if (old >= 0) {
                rc = bad(err, path, line, "node \"%s\" has a second record; expected one per node", id);
                break;
            }
            if ((cur = add_node(d, id, next_guid, desc, sw, err, path)) < 0 ||
                fp__vf_map_put(&ids, id, "", cur) == -2) {
                rc = FP_ENOMEM;
                break;
            }
            next_guid = 0;
        } else if (*p == '[') {
            if (cur < 0) {
                rc = bad(err, path, line, "a port line outside a Switch or Ca record: %s",
                         quote(q, sizeof q, s));
                break;
            }
            char *e;
            long port = strtol(p + 1, &e, 10);
            char *rest, *rid = e && *e == ']' ? quoted(e, &rest, '"') : NULL;
            if (port < 0 || port > 65535 || rid == NULL || rest[0] != '[') {
                rc = bad(err, path, line, "expected a port line such as [1] \"S-...\"[17], found: %s",
                         quote(q, sizeof q, s));
                break;
            }
            long rport = strtol(rest + 1, &e, 10);
            if (*e != ']' || rport < 0 || rport > 65535) {
                rc = bad(err, path, line, "expected the far port number in brackets, found: %s",
                         quote(q, sizeof q, s));
                break;
            }
            ref r = { cur, (int)port, (int)rport, 0, 0, line, rid, "" };
            char *h = strchr(e, '#');
            if (h != NULL)
                last_rate(h, strlen(h), &r.width, &r.mbps, r.rate);
            if (grow((void **)&refs, &cap_ref, n_ref + 1, sizeof *refs, err, path) != FP_OK) {
                rc = FP_ENOMEM;
                break;
            }
            refs[n_ref++] = r;
        } else {
            rc = bad(err, path, line, "expected ibnetdiscover's topology output (Switch, Ca or "
                     "port lines), found: %s", quote(q, sizeof q, s));
            break;
        }
    }
    if (rc == FP_OK && d->n_node == 0)
        rc = bad(err, path, line > 0 ? line : 1, "%s", "no Switch or Ca record; expected the "
                 "output of ibnetdiscover");
    for (int64_t i = 0; rc == FP_OK && i < n_ref; i++) {
        int64_t far = fp__vf_map_get(&ids, refs[i].rid, "");
        if (far < 0) {
            rc = bad(err, path, refs[i].line, "node \"%s\" is linked to but has no record (a "
                     "truncated file?)", refs[i].rid);
            break;
        }
        rc = add_link(d, &ends, refs[i].node, refs[i].port, far, refs[i].rport, refs[i].width,
                      refs[i].mbps, refs[i].rate, refs[i].line, path, err);
    }
    free(refs);
    fp__vf_map_free(&ids);
    end_free(&ends);
    return rc;
}

/* One end of a -p line: "SW     1 17 0x0000000000200000 4x NDR" (rate != NULL: the local end,
 * with width and speed) or "CA     4  1 0x0000000000100001" (the far end). */
static int ports_end(char **s, int *sw, int *port, uint64_t *guid, int *width, int *mbps,
                     char *rate)
{
    char *p = *s, *e;
    while (*p == ' ')
        p++;
    if ((p[0] == 'S' && p[1] == 'W') || (p[0] == 'C' && p[1] == 'A') ||
        (p[0] == 'R' && p[1] == 'T'))
        *sw = p[0] == 'S';
    else
        return 0;
    p += 2;
    /* lid and port 0 to 65535 (as the topology form's ports), a GUID of at most 16 hex digits */
    long num[2];
    for (int k = 0; k < 2; k++) {
        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            return 0;
        errno = 0;
        num[k] = strtol(p, &e, 10);
        if (errno != 0 || num[k] > 65535 || (*e != ' ' && *e != '\t'))
            return 0;
        p = e;
    }
    *port = (int)num[1];
    while (*p == ' ')
        p++;
    if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X') || !isxdigit((unsigned char)p[2]))
        return 0;
    *guid = strtoull(p, &e, 16);
    if (e - p > 18)
        return 0;
    p = e;
    *s = p;
    if (rate == NULL)
        return 1;
    while (*p == ' ')
        p++;
    /* "4x NDR": two tokens */
    char *w = p;
    while (*p && *p != ' ')
        p++;
    while (*p == ' ')
        p++;
    while (*p && *p != ' ')
        p++;
    *width = *mbps = 0;
    rate[0] = '\0';
    if (fp__ib_link_parse(w, (size_t)(p - w), width, mbps)) {
        /* "4x NDR" -> "4xNDR", as the topology form prints it */
        const char *b = memchr(w, ' ', (size_t)(p - w));
        if (b == NULL)
            snprintf(rate, 16, "%.*s", (int)(p - w), w);
        else
            snprintf(rate, 16, "%.*s%.*s", (int)(b - w), w, (int)(p - b - 1), b + 1);
    }
    *s = p;
    return 1;
}

/* The -p form: one line per port, each link from both ends; nodes by GUID (switches) or by
 * description (a CA's port GUID is not its node's). */
static fp_status read_ports(fp_vf_disc *d, const char *path, fp_error *err)
{
    fp_vf_map nodes = { 0 };
    end_map ends = { 0 };
    fp_status rc = FP_OK;
    char q[80];
    if (fp__vf_map_init(&nodes, 4096) != FP_OK || end_init(&ends, 16384) != FP_OK) {
        fp__vf_map_free(&nodes);
        end_free(&ends);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
    }
    d->ports_form = 1;
    int line = 0;
    char *at = d->text, *p, *s;
    while (rc == FP_OK && (p = next_line(&at, &line, &s)) != NULL) {
        if (*p == '\0' || *p == '#')
            continue;
        int sw[2], port[2], width[2], mbps[2];
        uint64_t guid[2];
        char rate[16];
        if (!ports_end(&p, &sw[0], &port[0], &guid[0], &width[0], &mbps[0], rate)) {
            rc = bad(err, path, line, "expected ibnetdiscover -p output (SW or CA, lid, port, GUID, "
                     "width, speed), found: %s", quote(q, sizeof q, s));
            break;
        }
        while (*p == ' ')
            p++;
        if (*p != '-')          /* a port with nothing on it: "... 'desc'" */
            continue;
        p++;
        char *rest, *d0, *d1;
        if (!ports_end(&p, &sw[1], &port[1], &guid[1], &width[1], &mbps[1], NULL) ||
            (d0 = quoted(p, &rest, '\'')) == NULL || (d1 = quoted(rest, &rest, '\'')) == NULL) {
            rc = bad(err, path, line, "expected the far end and ( 'name' - 'far name' ), found: %s",
                     quote(q, sizeof q, s));
            break;
        }
        int64_t n[2];
        for (int k = 0; k < 2 && rc == FP_OK; k++) {
            char *desc = k ? d1 : d0;
            char key[40];
            snprintf(key, sizeof key, "%016" PRIx64, guid[k]);
            /* switches by GUID; CAs by description */
            const char *ka = sw[k] ? "S" : "H";
            int64_t got = sw[k] ? fp__vf_map_get(&nodes, ka, key) : fp__vf_map_get(&nodes, ka, desc);
            if (got < 0) {
                char *id = strdup(key);
                if (id == NULL || (got = add_node(d, id, sw[k] ? guid[k] : guid[k] - (uint64_t)port[k],
                                                  desc, sw[k], err, path)) < 0 ||
                    fp__vf_map_put(&nodes, ka, sw[k] ? id : desc, got) == -2) {
                    free(id);
                    rc = FP_ENOMEM;
                    break;
                }
            }
            n[k] = got;
        }
        if (rc == FP_OK)
            rc = add_link(d, &ends, n[0], port[0], n[1], port[1], width[0], mbps[0], rate,
                          line, path, err);
    }
    if (rc == FP_OK && d->n_link == 0)
        rc = bad(err, path, line > 0 ? line : 1, "%s", "no link; expected the output of "
                 "ibnetdiscover -p");
    fp__vf_map_free(&nodes);
    end_free(&ends);
    return rc;
}

/* The node-name map: GUID -> name, applied to the nodes read. */
static fp_status apply_map(fp_vf_disc *d, const char *path, char **text, fp_error *err)
{
    size_t len;
    fp_status rc = fp__read_file(path, text, &len, err);
    if (rc != FP_OK)
        return rc;
    if (memchr(*text, '\0', len) != NULL)
        return bad(err, path, 1, "%s", "a NUL byte; expected a text node-name map");
    fp_vf_map by = { 0 };
    if (fp__vf_map_init(&by, d->n_node) != FP_OK)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
    char (*keys)[24] = calloc((size_t)d->n_node + 1, sizeof *keys);
    if (keys == NULL) {
        fp__vf_map_free(&by);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
    }
    for (int64_t i = 0; i < d->n_node; i++) {
        snprintf(keys[i], sizeof keys[i], "%016" PRIx64, d->node[i].guid);
        fp__vf_map_put(&by, keys[i], "", i);
    }
    int line = 0;
    char q[80];
    char *at = *text, *p, *s, *e;
    while (rc == FP_OK && (p = next_line(&at, &line, &s)) != NULL) {
        if (*p != '\0' && *p != '#') {
            errno = 0;
            /* strtoull takes "-1" (as 2^64 - 1) and "+5": a GUID starts with a digit */
            uint64_t g = isdigit((unsigned char)*p) ? strtoull(p, &e, 0) : (e = p, 0);
            if (e == p || errno != 0 || (*e != ' ' && *e != '\t')) {
                rc = bad(err, path, line, "expected <guid> \"<name>\", found: %s", quote(q, sizeof q, s));
                break;
            }
            while (*e == ' ' || *e == '\t')
                e++;
            char *rest, *name = *e == '"' ? quoted(e, &rest, '"') : e;
            if (name == NULL || *name == '\0') {
                rc = bad(err, path, line, "expected <guid> \"<name>\", found: %s", quote(q, sizeof q, s));
                break;
            }
            char key[24];
            snprintf(key, sizeof key, "%016" PRIx64, g);
            int64_t i = fp__vf_map_get(&by, key, "");
            if (i >= 0)
                d->node[i].desc = name;
        }
    }
    free(keys);
    fp__vf_map_free(&by);
    return rc;
}

fp_status fp__vf_read_ibnet(fp_vf_disc *d, const char *path, const char *map_path, fp_error *err)
{
    size_t len;
    memset(d, 0, sizeof *d);
    fp_status rc = fp__read_file(path, &d->text, &len, err);
    if (rc != FP_OK)
        return rc;
    const char *nul = memchr(d->text, '\0', len);
    if (nul != NULL) {
        int line = 1;
        for (const char *c = d->text; c < nul; c++)
            line += *c == '\n';
        return bad(err, path, line, "%s", "a NUL byte; expected ibnetdiscover's text output");
    }
    /* the form: the first line that is not blank or a comment */
    const char *p = d->text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p != '#')
            break;
        while (*p && *p != '\n')
            p++;
    }
    int ports = (p[0] == 'S' && p[1] == 'W' && p[2] == ' ') ||
                (p[0] == 'C' && p[1] == 'A' && p[2] == ' ') ||
                (p[0] == 'R' && p[1] == 'T' && p[2] == ' ');
    d->has_ib = 1;
    rc = ports ? read_ports(d, path, err) : read_topology(d, path, err);
    d->n_ib_node = d->n_node;
    if (rc == FP_OK && map_path != NULL) {
        /* the names point into the map's text: it is freed with the discovery */
        rc = apply_map(d, map_path, &d->map_text, err);
    }
    return rc;
}

void fp__vf_disc_free(fp_vf_disc *d)
{
    if (d->ports_form)
        for (int64_t i = 0; i < d->n_ib_node; i++)
            free((char *)d->node[i].id);
    for (int64_t i = 0; i < d->n_pool; i++)
        free(d->pool[i]);
    free(d->pool);
    free(d->text);
    free(d->map_text);
    free(d->node);
    free(d->link);
    memset(d, 0, sizeof *d);
}
