/* fabplan — verify: the planned links of a plan folder (cables.csv, ib-ports.csv) against a
 * discovery, each link classified (docs/outputs.md, "fabplan verify"):
 *   1. a discovered link between the two planned ends: ok, or degraded when slower or narrower;
 *   2. two planned links whose far ends are exchanged (found a1-z2 and a2-z1): swapped;
 *   3. a discovered link at one planned end going elsewhere: wrong-port (the far end on the
 *      planned device; every planned link is given this chance first), then wrong-device (on
 *      another device of the plan), unknown-device (on a node the plan does not have); the A
 *      end is looked at first;
 *   4. a planned link with nothing at either end: missing (not-yet when of a later phase);
 *   5. every discovered link left: unexpected, or unknown-device when an end is not the plan's. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "fabplan/write.h"
#include "verify/verify.h"
#include "util/text.h"

/* ---- a (text, text) -> index table ---- */

fp_status fp__vf_map_init(fp_vf_map *m, int64_t expect)
{
    memset(m, 0, sizeof *m);
    m->cap = 16;
    while (m->cap < expect * 2 + 2)
        m->cap *= 2;
    m->slot = malloc((size_t)m->cap * sizeof *m->slot);
    if (m->slot == NULL) {
        fp__vf_map_free(m);
        return FP_ENOMEM;
    }
    for (int64_t i = 0; i < m->cap; i++)
        m->slot[i] = (fp_vf_slot){ NULL, NULL, 0, -1 };
    return FP_OK;
}

/* A text eight bytes at a time (a multiply and a shift per word): the names are short, and
 * every planned and discovered end is hashed a few times. */
static uint64_t hash_text(const char *s)
{
    size_t n = strlen(s);
    uint64_t h = (uint64_t)n * 0x9e3779b97f4a7c15ULL, w;
    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    for (w = 0; n > 0; n--)
        w = w << 8 | (unsigned char)s[n - 1];
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}

/* Both texts' hashes, their bits mixed down (splitmix64's finalizer): the table is indexed by
 * the low bits. */
static uint64_t hash2(const char *a, const char *b)
{
    uint64_t h = hash_text(a) * 31u ^ hash_text(b);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

/* The slot of (a, b) with hash h: where it is, or the empty slot it would go to. */
static fp_vf_slot *slot_h(const fp_vf_map *m, const char *a, const char *b, uint64_t h)
{
    uint64_t s = h & (uint64_t)(m->cap - 1);
    for (;;) {
        fp_vf_slot *e = &m->slot[s];
        if (e->val < 0 || (e->h == h && strcmp(e->a, a) == 0 && strcmp(e->b, b) == 0))
            return e;
        s = (s + 1) & (uint64_t)(m->cap - 1);
    }
}

int64_t fp__vf_map_put(fp_vf_map *m, const char *a, const char *b, int64_t v)
{
    if ((m->n + 1) * 2 > m->cap) {
        fp_vf_map g;
        if (fp__vf_map_init(&g, m->cap) != FP_OK)
            return -2;
        for (int64_t i = 0; i < m->cap; i++)
            if (m->slot[i].val >= 0) {
                *slot_h(&g, m->slot[i].a, m->slot[i].b, m->slot[i].h) = m->slot[i];
                g.n++;
            }
        fp__vf_map_free(m);
        *m = g;
    }
    uint64_t h = hash2(a, b);
    fp_vf_slot *e = slot_h(m, a, b, h);
    if (e->val >= 0)
        return e->val;
    *e = (fp_vf_slot){ a, b, h, v };
    m->n++;
    return v;
}

int64_t fp__vf_map_get(const fp_vf_map *m, const char *a, const char *b)
{
    if (m->cap == 0)
        return -1;
    return slot_h(m, a, b, hash2(a, b))->val;
}

void fp__vf_map_free(fp_vf_map *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

fp_status fp__vf_grow(void **p, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap)
        return FP_OK;
    int64_t nc = *cap ? *cap * 2 : 1024;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, (size_t)nc * size);
    if (q == NULL)
        return FP_ENOMEM;
    *p = q;
    *cap = nc;
    return FP_OK;
}

/* ---- the plan folder ---- */

/* A CSV file of the plan folder: its text and the columns asked for, per row. */
typedef struct table {
    char *text;
    char **f;                   /* rows x n_col */
    int64_t *line;              /* each row's line in the file */
    int64_t rows;
    int n_col;
} table;

static fp_status table_load(table *t, const char *dir, const char *name, const char *const *cols,
                            int n_col, const char *hint, fp_error *err)
{
    char path[4200], *hdr[64], *p;
    size_t len;
    int col[32];
    memset(t, 0, sizeof *t);
    t->n_col = n_col;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    fp_error e2 = { 0 };
    /* a plan folder's file: a regular file (not a device or pipe), bounded as one */
    if (fp_read_file(path, FP_FILE_PLAN, &t->text, &len, &e2) != FP_OK)
        FP_FAIL(err, e2.code, path, "%s%s", e2.msg, hint);
    if (memchr(t->text, '\0', len) != NULL) {
        fp__error_set(err, FP_EPARSE, path, "%s has a NUL byte; expected a text %s written by "
                      "fabplan plan", path, name);
        return FP_EPARSE;
    }
    int64_t lines = 1;
    for (const char *c = t->text, *end = t->text + len; (c = memchr(c, '\n', (size_t)(end - c)));
         c++)
        lines++;
    p = t->text;
    int nh = fp__csv_record(&p, hdr, 64);
    for (int c = 0; c < n_col; c++) {
        /* "?name": a column older plan folders lack (its fields read "") */
        const char *want = cols[c][0] == '?' ? cols[c] + 1 : cols[c];
        col[c] = -1;
        for (int h = 0; h < nh && h < 64; h++)
            if (strcmp(hdr[h], want) == 0)
                col[c] = h;
        if (col[c] < 0 && cols[c][0] == '?') {
            col[c] = -2;
        } else if (col[c] < 0) {
            fp__error_set(err, FP_EPARSE, path, "%s has no column \"%s\"; expected a %s written by "
                          "fabplan plan", path, cols[c], name);
            if (err)
                err->line = 1;
            return FP_EPARSE;
        }
    }
    t->f = calloc((size_t)lines * (size_t)n_col, sizeof *t->f);
    t->line = calloc((size_t)lines, sizeof *t->line);
    if (t->f == NULL || t->line == NULL)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory reading %s", path);
    int64_t line = 1;
    while (*p) {
        char *f[64];
        line++;
        int nf = fp__csv_record(&p, f, 64);
        if (nf == 1 && f[0][0] == '\0')
            continue;
        if (nf < nh) {
            fp__error_set(err, FP_EPARSE, path, "%s line %" PRId64 " has %d fields, the header %d",
                          path, line, nf, nh);
            if (err)
                err->line = (int)line;
            return FP_EPARSE;
        }
        for (int c = 0; c < n_col; c++)
            t->f[t->rows * n_col + c] = col[c] >= 0 ? f[col[c]] : (char *)"";
        t->line[t->rows] = line;
        t->rows++;
    }
    return FP_OK;
}

#define T(t, r, c) ((t)->f[(r) * (t)->n_col + (c)])

/* The rows' arrays (the text stays: fields point into it). */
static void table_rows_free(table *t)
{
    free(t->f);
    free(t->line);
    t->f = NULL;
    t->line = NULL;
}

/* A cables.csv speed: a whole number of Gb/s from 1 to 1,000,000; 0 when s is not one. */
static int parse_gbps(const char *s)
{
    long v = 0;
    int digits = 0;
    for (; *s >= '0' && *s <= '9' && digits < 8; s++, digits++)
        v = v * 10 + (*s - '0');
    return *s == '\0' && digits > 0 && v >= 1 && v <= 1000000 ? (int)v : 0;
}

/* Split s in place at sep into at most max parts; returns the count. */
static int split(char *s, char sep, char **parts, int max)
{
    int n = 0;
    for (;;) {
        char *e = strchr(s, sep);
        if (n < max)
            parts[n] = s;
        n++;
        if (e == NULL)
            return n;
        *e = '\0';
        s = e + 1;
    }
}

/* The cables.csv columns verify reads, found by the cables schema's names
 * (fp_cables_column_name); from C_NET on, columns older plan folders lack. */
enum { C_ID, C_AH, C_AR, C_AK, C_AU, C_AD, C_AP, C_ZH, C_ZR, C_ZK, C_ZU, C_ZD, C_ZP, C_GBPS,
       C_LA, C_LZ, C_NET, C_PROTO, C_N };
static const fp_cables_column cable_col[C_N] = {
    [C_ID] = FP_CABLES_CABLE_ID, [C_AH] = FP_CABLES_A_HALL,   [C_AR] = FP_CABLES_A_ROW,
    [C_AK] = FP_CABLES_A_RACK,   [C_AU] = FP_CABLES_A_U,      [C_AD] = FP_CABLES_A_DEVICE,
    [C_AP] = FP_CABLES_A_PORT,   [C_ZH] = FP_CABLES_Z_HALL,   [C_ZR] = FP_CABLES_Z_ROW,
    [C_ZK] = FP_CABLES_Z_RACK,   [C_ZU] = FP_CABLES_Z_U,      [C_ZD] = FP_CABLES_Z_DEVICE,
    [C_ZP] = FP_CABLES_Z_PORT,   [C_GBPS] = FP_CABLES_GBPS,   [C_LA] = FP_CABLES_LABEL_A,
    [C_LZ] = FP_CABLES_LABEL_Z,  [C_NET] = FP_CABLES_NETWORK, [C_PROTO] = FP_CABLES_PROTOCOL,
};

#define MAX_PARTS 16

/* The planned links of cables.csv (one per link of each cable). */
static fp_status read_cables(fp_verify *v, table *t, const char *dir, fp_error *err)
{
    const char *cols[C_N];
    char opt[C_N - C_NET][40]; /* "?name": a column table_load may find absent */
    for (int c = 0; c < C_N; c++) {
        cols[c] = fp_cables_column_name(cable_col[c]);
        if (c >= C_NET) {
            snprintf(opt[c - C_NET], sizeof opt[c - C_NET], "?%s", cols[c]);
            cols[c] = opt[c - C_NET];
        }
    }
    fp_status rc = table_load(t, dir, "cables.csv", cols, C_N, "", err);
    if (rc != FP_OK)
        return rc;
    /* every plan has cables: a header alone would make every discovered link unexpected */
    if (t->rows == 0) {
        fp__error_set(err, FP_EPARSE, dir,
                      "%s/cables.csv has no cable, only its header; expected a "
                      "cables.csv written by fabplan plan",
                      dir);
        if (err)
            err->line = 2;
        return FP_EPARSE;
    }
    v->plink = calloc((size_t)t->rows * MAX_PARTS + 1, sizeof *v->plink);
    if (v->plink == NULL)
        FP_FAIL(err, FP_ENOMEM, dir, "out of memory reading %s/cables.csv", dir);
    for (int64_t r = 0; r < t->rows; r++) {
        char *ap[MAX_PARTS], *zd[MAX_PARTS], *zp[MAX_PARTS], *zl[4][MAX_PARTS];
        int na = split(T(t, r, C_AP), '+', ap, MAX_PARTS);
        int legs = split(T(t, r, C_ZD), ';', zd, MAX_PARTS);
        int nzp = split(T(t, r, C_ZP), ';', zp, MAX_PARTS);
        int bad = na > MAX_PARTS || legs > MAX_PARTS || nzp != legs;
        for (int k = 0; k < 4 && !bad; k++)
            bad = split(T(t, r, C_ZH + k), ';', zl[k], MAX_PARTS) != legs;
        char *zpp[MAX_PARTS];
        int nz = legs == 1 && !bad ? split(zp[0], '+', zpp, MAX_PARTS) : legs;
        if (bad || (legs == 1 ? nz != na : na != legs)) {
            fp__error_set(
                err, FP_EPARSE, dir,
                "%s/cables.csv line %" PRId64 ": cable %.40s: its A ports "
                "(%d) and far ends (%d) do not pair; expected a cables.csv written by fabplan "
                "plan",
                dir, t->line[r], T(t, r, C_ID), na, legs == 1 ? nz : legs);
            if (err)
                err->line = (int)t->line[r];
            return FP_EPARSE;
        }
        /* the speed is compared with the discovery's: text that is no speed would switch the
         * comparison off for this cable (atoi: "abc" and "-400" were 0, not compared) */
        int gbps = parse_gbps(T(t, r, C_GBPS));
        if (gbps == 0) {
            fp__error_set(err, FP_EPARSE, dir,
                          "%s/cables.csv line %" PRId64 ": cable %.40s: gbps \"%.20s\" "
                          "is not a link speed; expected a whole number of Gb/s from 1 to 1000000",
                          dir, t->line[r], T(t, r, C_ID), T(t, r, C_GBPS));
            if (err)
                err->line = (int)t->line[r];
            return FP_EPARSE;
        }
        for (int k = 0; k < na; k++) {
            fp_vf_plink *pl = &v->plink[v->n_plink++];
            int leg = legs == 1 ? 0 : k;
            pl->cable = T(t, r, C_ID);
            pl->label_a = T(t, r, C_LA);
            pl->label_z = T(t, r, C_LZ);
            for (int c = 0; c < 4; c++) {
                pl->a.loc[c] = T(t, r, C_AH + c);
                pl->z.loc[c] = zl[c][leg];
            }
            pl->a.device = T(t, r, C_AD);
            pl->a.port = ap[k];
            pl->z.device = zd[leg];
            pl->z.port = legs == 1 ? zpp[k] : zp[k];
            pl->gbps = gbps;
            pl->boundary = "";
            /* a plan without spec networks is the compute fabric alone */
            pl->network = *T(t, r, C_NET) ? T(t, r, C_NET) : "compute";
            pl->proto = strcmp(T(t, r, C_PROTO), "infiniband") == 0 ? VF_IB
                        : strcmp(T(t, r, C_PROTO), "ethernet") == 0 ? VF_ETH : VF_ANY;
        }
    }
    return FP_OK;
}

/* links.csv's boundary of each planned link (by its A end); none when the file is absent. */
static fp_status read_boundaries(fp_verify *v, table *t, const char *dir, const fp_vf_map *pe,
                                 fp_error *err)
{
    static const char *const cols[] = { "a_device", "a_port", "boundary" };
    char path[4200];
    snprintf(path, sizeof path, "%s/links.csv", dir);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return FP_OK;
    fclose(f);
    fp_status rc = table_load(t, dir, "links.csv", cols, 3, "", err);
    if (rc != FP_OK)
        return rc;
    for (int64_t r = 0; r < t->rows; r++) {
        int64_t e = fp__vf_map_get(pe, T(t, r, 0), T(t, r, 1));
        if (e >= 0)
            v->plink[e >> 1].boundary = T(t, r, 2);
    }
    return FP_OK;
}

/* The phase being built: a planned link whose A end its cables.csv lacks is of a later phase. */
static fp_status read_phase(fp_verify *v, table *t, const char *dir, fp_error *err)
{
    const char *cols[] = { fp_cables_column_name(FP_CABLES_A_DEVICE),
                           fp_cables_column_name(FP_CABLES_A_PORT) };
    fp_status rc = table_load(t, dir, "cables.csv", cols, 2, "", err);
    if (rc != FP_OK)
        return rc;
    fp_vf_map m;
    if (fp__vf_map_init(&m, t->rows * 2) != FP_OK)
        FP_FAIL(err, FP_ENOMEM, dir, "out of memory reading %s/cables.csv", dir);
    for (int64_t r = 0; r < t->rows; r++) {
        char *ap[MAX_PARTS];
        int na = split(T(t, r, 1), '+', ap, MAX_PARTS);
        for (int k = 0; k < na && k < MAX_PARTS; k++)
            if (fp__vf_map_put(&m, T(t, r, 0), ap[k], r) == -2) {
                fp__vf_map_free(&m);
                FP_FAIL(err, FP_ENOMEM, dir, "out of memory reading %s/cables.csv", dir);
            }
    }
    for (int64_t i = 0; i < v->n_plink; i++)
        v->plink[i].later = fp__vf_map_get(&m, v->plink[i].a.device, v->plink[i].a.port) < 0;
    fp__vf_map_free(&m);
    return FP_OK;
}

/* Which planned links this discovery checks: those of its protocol (an InfiniBand cable by
 * ibnetdiscover, an Ethernet one by LLDP; a cables.csv without the protocol column: every
 * cable by either) and of the networks asked for (none: every network). FP_EINVAL for a
 * network the plan does not have. */
static fp_status set_scope(fp_verify *v, const char *const *nets, int n_nets, fp_error *err)
{
    for (int k = 0; k < n_nets; k++) {
        int64_t i = 0;
        while (i < v->n_plink && strcmp(v->plink[i].network, nets[k]) != 0)
            i++;
        if (i == v->n_plink) {
            char have[512] = "";
            size_t len = 0;
            for (int64_t j = 0; j < v->n_plink && len + 1 < sizeof have; j++)
                if (j == 0 || strcmp(v->plink[j].network, v->plink[j - 1].network) != 0)
                    len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", len ? ", " : "",
                                            v->plink[j].network);
            FP_FAIL(err, FP_EINVAL, v->plan_dir, "network \"%s\" is not in the plan %s (its "
                    "networks: %s)", nets[k], v->plan_dir, have);
        }
    }
    size_t len = 0;
    for (int k = 0; k < n_nets && len + 1 < sizeof v->networks; k++)
        len += (size_t)snprintf(v->networks + len, sizeof v->networks - len, "%s%s",
                                k ? ", " : "", nets[k]);
    for (int64_t i = 0; i < v->n_plink; i++) {
        fp_vf_plink *p = &v->plink[i];
        int seen = p->proto == VF_ANY || (p->proto == VF_IB && v->disc.has_ib) ||
                   (p->proto == VF_ETH && v->disc.has_lldp);
        int asked = n_nets == 0;
        for (int k = 0; k < n_nets && !asked; k++)
            asked = strcmp(p->network, nets[k]) == 0;
        p->scope = !seen ? VF_OTHER_PROTOCOL : !asked ? VF_OTHER_NETWORK : VF_CHECKED;
        if (p->scope != VF_CHECKED)
            v->not_checked[p->scope]++;
    }
    return FP_OK;
}

/* ---- matching ---- */

static int same(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* Name the discovered ends as the plan does: (node, port) through ib-ports.csv; else the node
 * is a device of the plan (a switch's description, or "<server> mlx5_<i>") with a port the
 * plan does not use; else it is not the plan's (device NULL). */
static void name_ends(fp_verify *v, const table *ib, const fp_vf_map *ibm)
{
    for (int64_t i = 0; i < v->disc.n_link; i++) {
        fp_vf_dlink *l = &v->disc.link[i];
        if (l->lldp)
            continue;
        for (int k = 0; k < 2; k++) {
            const char *desc = v->disc.node[l->node[k]].desc;
            /* "port 61", its number the key (no printf: two per link end at full scale) */
            memcpy(l->ptext[k], "port ", 5);
            l->ptext[k][5 + fp__put_int(l->ptext[k] + 5, l->port[k])] = '\0';
            int64_t r = fp__vf_map_get(ibm, desc, l->ptext[k] + 5);
            l->pname[k] = l->ptext[k];
            l->device[k] = NULL;
            if (r >= 0) {
                l->device[k] = T(ib, r, 2);
                l->pname[k] = T(ib, r, 3);
                continue;
            }
            int64_t d = fp__vf_map_get(&v->dev_loc, desc, "");
            if (d >= 0) {
                l->device[k] = (d & 1) ? v->plink[d >> 1].z.device : v->plink[d >> 1].a.device;
                continue;
            }
            /* "<server> mlx5_<i>": the server's, on an HCA the plan does not use */
            const char *sp = strrchr(desc, ' ');
            if (sp != NULL && strncmp(sp + 1, "mlx5_", 5) == 0) {
                char dev[256];
                snprintf(dev, sizeof dev, "%.*s", (int)(sp - desc), desc);
                d = fp__vf_map_get(&v->dev_loc, dev, "");
                if (d >= 0) {
                    l->device[k] = (d & 1) ? v->plink[d >> 1].z.device : v->plink[d >> 1].a.device;
                    l->pname[k] = sp + 1;
                }
            }
        }
    }
}

static fp_status add_row(fp_verify *v, fp_verify_status s, int64_t p, int64_t d, int64_t peer,
                         int flip, fp_error *err)
{
    fp_vf_row *r = &v->row[v->n_row++];
    r->status = s;
    r->plink = p;
    r->dlink = d;
    r->peer = peer;
    r->flip = flip;
    v->count[s]++;
    (void)err;
    return FP_OK;
}

/* pe: the planned ends, (device, port) -> 2 x planned link + end. */
static fp_status classify(fp_verify *v, const fp_vf_map *pe, fp_error *err)
{
    int64_t np = v->n_plink, nd = v->disc.n_link;
    fp_vf_map de;
    unsigned char *used = calloc((size_t)nd + 1, 1);
    int64_t *prow = malloc(((size_t)np + 1) * sizeof *prow);
    v->row = calloc((size_t)(np + nd) + 1, sizeof *v->row);
    if (used == NULL || prow == NULL || v->row == NULL) {
        free(used);
        free(prow);
        FP_FAIL(err, FP_ENOMEM, "verify", "out of memory matching %" PRId64 " links", np);
    }
    if (fp__vf_map_init(&de, nd * 2) != FP_OK) {
        free(used);
        free(prow);
        FP_FAIL(err, FP_ENOMEM, "verify", "out of memory matching %" PRId64 " links", np);
    }
    for (int64_t i = 0; i < nd; i++)
        for (int k = 0; k < 2; k++)
            if (v->disc.link[i].device[k] != NULL)
                fp__vf_map_put(&de, v->disc.link[i].device[k], v->disc.link[i].pname[k], 2 * i + k);
    /* the rows of the planned links, in plan order, filled in by the passes below */
    for (int64_t i = 0; i < np; i++)
        prow[i] = i;
    v->n_row = np;
    /* a planned link this discovery does not check: no row (NOT_CHECKED until dropped) */
    const fp_verify_status NOT_CHECKED = (fp_verify_status)(FP_VERIFY_N_STATUS + 1);
    for (int64_t i = 0; i < np; i++) {
        v->row[i].plink = i;
        v->row[i].dlink = -1;
        v->row[i].peer = -1;
        v->row[i].status = v->plink[i].scope == VF_CHECKED ? FP_VERIFY_N_STATUS : NOT_CHECKED;
    }
#define OTHER(l, k, w) ((w) ? (l)->pname[1 - (k)] : (l)->device[1 - (k)])
    /* 1: as planned */
    for (int64_t i = 0; i < np; i++) {
        const fp_vf_plink *p = &v->plink[i];
        if (v->row[i].status == NOT_CHECKED)
            continue;
        int64_t e = fp__vf_map_get(&de, p->a.device, p->a.port);
        if (e < 0)
            continue;
        const fp_vf_dlink *l = &v->disc.link[e >> 1];
        int k = (int)(e & 1);
        if (!same(OTHER(l, k, 0), p->z.device) || !same(OTHER(l, k, 1), p->z.port))
            continue;
        int slow;
        if (v->ignore_speed)
            slow = l->width > 0 && p->width > 0 && l->width < p->width;
        else
            slow = l->mbps > 0 && (int64_t)l->width * l->mbps < (int64_t)p->gbps * 1000;
        used[e >> 1] = 1;
        v->row[i].status = slow ? FP_VERIFY_DEGRADED : FP_VERIFY_OK;
        v->row[i].dlink = e >> 1;
        v->row[i].flip = k;
    }
    /* 2: swapped far ends */
    for (int64_t i = 0; i < np; i++) {
        if (v->row[i].status != FP_VERIFY_N_STATUS)
            continue;
        const fp_vf_plink *p = &v->plink[i];
        int64_t e = fp__vf_map_get(&de, p->a.device, p->a.port);
        if (e < 0 || used[e >> 1])
            continue;
        const fp_vf_dlink *l = &v->disc.link[e >> 1];
        int k = (int)(e & 1);
        if (OTHER(l, k, 0) == NULL)
            continue;
        int64_t q = fp__vf_map_get(pe, OTHER(l, k, 0), OTHER(l, k, 1));
        if (q < 0 || !(q & 1) || (q >> 1) == i || v->row[q >> 1].status != FP_VERIFY_N_STATUS)
            continue;
        int64_t j = q >> 1;
        const fp_vf_plink *pj = &v->plink[j];
        int64_t e2 = fp__vf_map_get(&de, pj->a.device, pj->a.port);
        if (e2 < 0 || used[e2 >> 1])
            continue;
        const fp_vf_dlink *l2 = &v->disc.link[e2 >> 1];
        int k2 = (int)(e2 & 1);
        if (!same(OTHER(l2, k2, 0), p->z.device) || !same(OTHER(l2, k2, 1), p->z.port))
            continue;
        used[e >> 1] = used[e2 >> 1] = 1;
        v->row[i] = (fp_vf_row){ FP_VERIFY_SWAPPED, i, e >> 1, j, k };
        v->row[j] = (fp_vf_row){ FP_VERIFY_SWAPPED, j, e2 >> 1, i, k2 };
    }
    /* 3: one planned end linked elsewhere (the A end first, then the Z end): first only to the
     * planned far device (wrong-port), then anywhere, so a link that moved within a device is
     * not taken for another planned link's wrong device */
    for (int pass = 0; pass < 2; pass++)
        for (int64_t i = 0; i < np; i++) {
            if (v->row[i].status != FP_VERIFY_N_STATUS)
                continue;
            const fp_vf_plink *p = &v->plink[i];
            for (int side = 0; side < 2; side++) {
                const fp_vf_end *at = side ? &p->z : &p->a, *far = side ? &p->a : &p->z;
                int64_t e = fp__vf_map_get(&de, at->device, at->port);
                if (e < 0 || used[e >> 1])
                    continue;
                const fp_vf_dlink *l = &v->disc.link[e >> 1];
                int k = (int)(e & 1);
                const char *od = OTHER(l, k, 0);
                fp_verify_status s = od == NULL ? FP_VERIFY_UNKNOWN_DEVICE
                                     : same(od, far->device) ? FP_VERIFY_WRONG_PORT
                                     : FP_VERIFY_WRONG_DEVICE;
                if (pass == 0 && s != FP_VERIFY_WRONG_PORT)
                    continue;
                used[e >> 1] = 1;
                /* flip: the discovered end on the planned A side is end 1 */
                v->row[i] = (fp_vf_row){ s, i, e >> 1, -1, side ? 1 - k : k };
                break;
            }
            if (pass == 1 && v->row[i].status == FP_VERIFY_N_STATUS)
                v->row[i].status = p->later ? FP_VERIFY_NOT_YET : FP_VERIFY_MISSING;
        }
    /* the rows of the links not checked go */
    int64_t kept = 0;
    for (int64_t i = 0; i < np; i++)
        if (v->row[i].status != NOT_CHECKED) {
            v->count[v->row[i].status]++;
            v->row[kept++] = v->row[i];
        }
    v->n_row = kept;
    /* 4: what is left of the discovery; a link at a planned end not checked, or between
     * devices none of whose checked links it could be, is not checked either */
    fp_vf_map scoped = { 0 };
    if (kept < np) {
        if (fp__vf_map_init(&scoped, kept * 2) != FP_OK) {
            fp__vf_map_free(&de);
            free(used);
            free(prow);
            FP_FAIL(err, FP_ENOMEM, "verify", "out of memory matching %" PRId64 " links", np);
        }
        for (int64_t i = 0; i < np; i++)
            if (v->plink[i].scope == VF_CHECKED) {
                fp__vf_map_put(&scoped, v->plink[i].a.device, "", i);
                fp__vf_map_put(&scoped, v->plink[i].z.device, "", i);
            }
    }
    for (int64_t i = 0; i < nd; i++) {
        if (used[i])
            continue;
        const fp_vf_dlink *l = &v->disc.link[i];
        if (kept < np) {
            int drop = 1;
            for (int k = 0; k < 2; k++) {
                const char *d = l->device[k];
                int64_t e = d ? fp__vf_map_get(pe, d, l->pname[k]) : -1;
                if (e >= 0 && v->plink[e >> 1].scope != VF_CHECKED) {
                    drop = 1;
                    break;
                }
                if (d != NULL && fp__vf_map_get(&scoped, d, "") >= 0)
                    drop = 0;
            }
            if (drop) {
                v->not_checked_found++;
                continue;
            }
        }
        fp_verify_status s = l->device[0] == NULL || l->device[1] == NULL
                             ? FP_VERIFY_UNKNOWN_DEVICE : FP_VERIFY_UNEXPECTED;
        /* a server's end first, as the plan writes its cables */
        int flip = v->disc.node[l->node[0]].is_switch && !v->disc.node[l->node[1]].is_switch;
        add_row(v, s, -1, i, -1, flip, err);
    }
#undef OTHER
    fp__vf_map_free(&scoped);
    fp__vf_map_free(&de);
    free(used);
    free(prow);
    return FP_OK;
}

/* The discovery's ibnetdiscover file, then the plan folder's ib-ports.csv and its table, read
 * on a thread of their own while cables.csv and links.csv are read on the caller's (they share
 * nothing until name_ends): verify at 131,072 GPUs spends about as long on either
 * (docs/performance.md). */
typedef struct ibnet_job {
    fp_vf_disc *d;
    const char *path, *map, *plan_dir;
    table *ib;                  /* ib-ports.csv */
    fp_vf_map *ibm;             /* its (node, ib_port) -> row */
    fp_error err, ib_err;       /* the discovery's, ib-ports.csv's */
    fp_status rc, ib_rc;
} ibnet_job;

static void *ibnet_main(void *arg)
{
    static const char *const ib_cols[] = { "node", "ib_port", "device", "port", "link" };
    ibnet_job *j = arg;
    j->rc = fp__vf_read_ibnet(j->d, j->path, j->map, &j->err);
    j->ib_rc = table_load(j->ib, j->plan_dir, "ib-ports.csv", ib_cols, 5,
                          " (write it with fabplan plan --formats ...,ibnetdiscover)", &j->ib_err);
    if (j->ib_rc == FP_OK && fp__vf_map_init(j->ibm, j->ib->rows) != FP_OK)
        j->ib_rc = fp__error_set(&j->ib_err, FP_ENOMEM, j->plan_dir, "out of memory reading %s",
                                 j->plan_dir);
    for (int64_t r = 0; j->ib_rc == FP_OK && r < j->ib->rows; r++)
        fp__vf_map_put(j->ibm, T(j->ib, r, 0), T(j->ib, r, 1), r);
    return NULL;
}

/* The caller's options as the current version: a caller built against version v has the
 * members of versions 1..v only; the later ones are left at their "not given" values. */
static fp_status normalise_options(const fp_verify_options *in, fp_verify_options *out,
                                   fp_error *err)
{
    if (in->version < 1 || in->version > FP_VERIFY_OPTIONS_VERSION)
        FP_FAIL(err, FP_EINVAL, "", "fp_verify_run: options version %d, expected %d", in->version,
                FP_VERIFY_OPTIONS_VERSION);
    *out = (fp_verify_options)FP_VERIFY_OPTIONS_INIT;
    out->plan_dir = in->plan_dir;
    out->ibnetdiscover = in->ibnetdiscover;
    out->node_name_map = in->node_name_map;
    out->phase_dir = in->phase_dir;
    out->ignore_speed = in->ignore_speed;
    if (in->version >= 2)
        out->lldp = in->lldp;
    if (in->version >= 3 && in->networks != NULL) {
        out->networks = in->networks;
        out->n_networks = in->n_networks;
    }
    return FP_OK;
}

fp_status fp_verify_run(const fp_verify_options *given, fp_verify **out, fp_error *err)
{
    if (given == NULL || out == NULL || given->plan_dir == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_verify_run: NULL argument");
    fp_verify_options opts = FP_VERIFY_OPTIONS_INIT;
    if (normalise_options(given, &opts, err) != FP_OK)
        return FP_EINVAL;
    const fp_verify_options *o = &opts;
    const char *lldp = o->lldp;
    if (o->ibnetdiscover == NULL && lldp == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_verify_run: no discovery to verify (ibnetdiscover, lldp)");
    *out = NULL;
    fp_verify *v = calloc(1, sizeof *v);
    if (v == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    v->ignore_speed = o->ignore_speed;
    fp__copy_str(v->plan_dir, sizeof v->plan_dir, o->plan_dir);
    snprintf(v->discovery, sizeof v->discovery, "%s%s%s", o->ibnetdiscover ? o->ibnetdiscover : "",
             o->ibnetdiscover && lldp ? " + " : "", lldp ? lldp : "");
    table cab = { 0 }, ib = { 0 }, lk = { 0 }, ph = { 0 };
    fp_vf_map ibm = { 0 }, pe = { 0 };
    /* the discovery and ib-ports.csv on a second thread (on the caller's when none can start) */
    ibnet_job job = { &v->disc, o->ibnetdiscover, o->node_name_map, o->plan_dir, &ib, &ibm,
                      { 0 }, { 0 }, FP_OK, FP_OK };
    pthread_t tid;
    int threaded = o->ibnetdiscover != NULL && fp__thread_start(&tid, ibnet_main, &job) == 0;
    fp_status rc = read_cables(v, &cab, o->plan_dir, err);
    /* what is read after cables.csv, its error reported after ib-ports.csv's */
    fp_error e2 = { 0 };
    fp_status rc2 = rc;
    if (rc2 == FP_OK && (fp__vf_map_init(&v->dev_loc, v->n_plink) != FP_OK ||
                         fp__vf_map_init(&pe, v->n_plink * 2) != FP_OK))
        rc2 = fp__error_set(&e2, FP_ENOMEM, o->plan_dir, "out of memory reading %s", o->plan_dir);
    for (int64_t i = 0; rc2 == FP_OK && i < v->n_plink; i++) {
        /* a device's first end is the one kept: the next link's A end is most often the same
         * device (cables.csv is in A device order) */
        if (i == 0 || strcmp(v->plink[i].a.device, v->plink[i - 1].a.device) != 0)
            fp__vf_map_put(&v->dev_loc, v->plink[i].a.device, "", 2 * i);
        fp__vf_map_put(&v->dev_loc, v->plink[i].z.device, "", 2 * i + 1);
        for (int k = 0; k < 2 && rc2 == FP_OK; k++) {
            const fp_vf_end *e = k ? &v->plink[i].z : &v->plink[i].a;
            int64_t got = fp__vf_map_put(&pe, e->device, e->port, 2 * i + k);
            if (got == -2)
                rc2 = fp__error_set(&e2, FP_ENOMEM, o->plan_dir, "out of memory reading %s",
                                    o->plan_dir);
            else if (got != 2 * i + k)
                /* a port is the end of one cable: a row twice, or two cables on one port */
                rc2 = fp__error_set(
                    &e2, FP_EPARSE, o->plan_dir,
                    "%s/cables.csv: %.60s %.40s is an end of "
                    "cable %.40s and of cable %.40s; expected each port in one cable (a "
                    "cables.csv written by fabplan plan)",
                    o->plan_dir, e->device, e->port, v->plink[got >> 1].cable, v->plink[i].cable);
        }
    }
    if (rc2 == FP_OK)
        rc2 = read_boundaries(v, &lk, o->plan_dir, &pe, &e2);
    if (rc2 == FP_OK && o->phase_dir != NULL)
        rc2 = read_phase(v, &ph, o->phase_dir, &e2);
    if (o->ibnetdiscover != NULL) {
        if (threaded)
            pthread_join(tid, NULL);
        else
            ibnet_main(&job);
        /* the plan folder's errors first, in the order its files are named, then the
         * discovery's, as when read one after the other */
        fp_status rcs[3] = { job.ib_rc, rc2, job.rc };
        const fp_error *errs[3] = { &job.ib_err, &e2, &job.err };
        for (int k = 0; k < 3 && rc == FP_OK; k++)
            if (rcs[k] != FP_OK) {
                rc = rcs[k];
                if (err != NULL)
                    *err = *errs[k];
            }
        for (int64_t r = 0; rc == FP_OK && r < ib.rows; r++) {
            int w, mbps;
            const char *lt = T(&ib, r, 4);
            if (*lt == '\0')
                continue;       /* an unused port: no planned link */
            int64_t e = fp__vf_map_get(&pe, T(&ib, r, 2), T(&ib, r, 3));
            if (e < 0) {
                /* the two files are not one plan's (a cables.csv cut at a line boundary reads
                 * as a shorter plan: its missing cables' links were all "unexpected") */
                rc = fp__error_set(
                    err, FP_EPARSE, o->plan_dir,
                    "%s/ib-ports.csv line %" PRId64 ": %.60s "
                    "%.40s has a planned link but no cable in cables.csv; expected the "
                    "ib-ports.csv written with this cables.csv",
                    o->plan_dir, ib.line[r], T(&ib, r, 2), T(&ib, r, 3));
                if (err)
                    err->line = (int)ib.line[r];
            } else if (fp__ib_link_parse(lt, strlen(lt), &w, &mbps)) {
                v->plink[e >> 1].width = w;
            }
        }
        if (rc == FP_OK)
            name_ends(v, &ib, &ibm);
    } else if (rc == FP_OK && rc2 != FP_OK) {
        rc = rc2;
        if (err != NULL)
            *err = e2;
    }
    if (rc == FP_OK && lldp != NULL)
        rc = fp__vf_read_lldp(v, lldp, &pe, err);
    if (rc == FP_OK)
        rc = set_scope(v, o->networks, o->n_networks, err);
    if (rc == FP_OK)
        rc = classify(v, &pe, err);
    /* keep the texts the rows point into; the row arrays of the tables go */
    v->text[0] = cab.text;
    v->text[1] = ib.text;
    v->text[2] = lk.text;
    v->text[3] = ph.text;
    table_rows_free(&cab);
    table_rows_free(&ib);
    table_rows_free(&lk);
    table_rows_free(&ph);
    fp__vf_map_free(&ibm);
    fp__vf_map_free(&pe);
    if (rc != FP_OK) {
        fp_verify_free(v);
        return rc;
    }
    *out = v;
    return FP_OK;
}

size_t fp_verify_not_checked(const fp_verify *v, int why)
{
    if (v == NULL)
        return 0;
    if (why == 1 || why == 2)
        return (size_t)v->not_checked[why];
    return why == 0 ? (size_t)(v->not_checked[1] + v->not_checked[2]) : 0;
}

size_t fp_verify_count(const fp_verify *v, fp_verify_status s)
{
    if (v == NULL)
        return 0;
    if (s == FP_VERIFY_N_STATUS)
        return (size_t)v->n_row;
    return (unsigned)s < FP_VERIFY_N_STATUS ? v->count[s] : 0;
}

int fp_verify_differs(const fp_verify *v)
{
    if (v == NULL)
        return 0;
    return (int64_t)(v->count[FP_VERIFY_OK] + v->count[FP_VERIFY_NOT_YET]) != v->n_row;
}

const char *fp_verify_status_name(fp_verify_status s)
{
    static const char *const names[FP_VERIFY_N_STATUS] = {
        "ok", "missing", "unexpected", "wrong-port", "wrong-device", "swapped", "degraded",
        "unknown-device", "not-yet"
    };
    return (unsigned)s < FP_VERIFY_N_STATUS ? names[s] : "?";
}

void fp_verify_free(fp_verify *v)
{
    if (v == NULL)
        return;
    for (int i = 0; i < 4; i++)
        free(v->text[i]);
    free(v->plink);
    free(v->row);
    fp__vf_disc_free(&v->disc);
    fp__vf_map_free(&v->dev_loc);
    free(v);
}
