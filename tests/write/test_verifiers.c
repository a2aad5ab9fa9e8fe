/* The cable checkers' files (--formats ptm,cvt) against their tools' published rules:
 *   topology.dot is read with Graphviz's own parser (agread, which ptmd calls on
 *     /etc/ptm.d/topology.dot: CumulusNetworks/ptm src/ptm_conf.c), each edge's ends taken as
 *     ptmd takes them (agnameof of tail and head, the "tailport" and "headport" attributes);
 *     every planned Ethernet link (links.csv) must be one edge, exactly once, and nothing else;
 *   cvt-p2p.xlsx follows UFM Cable Validation Tool's InfiniBand P2P sheet (docs: "P2P File"):
 *     columns Rack, U, Name, HCA/Port, Rack, U, Name, Port; a host port is its HCA number from
 *     1 (1 -> mlx5_0), a switch port a number or a split "1/2"; a sheet per InfiniBand network.
 * The expected rows come from links.csv and cables.csv by those rules, not from the writer. */
#include <graphviz/cgraph.h>
#include "helpers.h"
#include "xlsx_read.h"

#define FABPLAN FP_TEST_BIN_DIR "/src/fabplan"

/* Plan preset into a scratch folder with these formats; the folder into dir. */
static void plan_into(char *dir, size_t n, const char *preset, const char *formats, char *out,
                      size_t on)
{
    char cmd[1024];
    scratch_dir(dir, n, preset);
    snprintf(cmd, sizeof cmd, FABPLAN " plan --preset %s --formats %s -o %s/p", preset, formats,
             dir);
    cr_assert_eq(run_shell(cmd, out, on), 0, "%s", out);
    strcat(dir, "/p");
}

/* links.csv's rows as "a_device:a_port -- z_device:z_port" of the networks ptm checks. */
typedef struct keys {
    char **k;
    long n;
} keys;

static int cmp_key(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void keys_add(keys *s, const char *a, const char *ap, const char *z, const char *zp)
{
    size_t len = strlen(a) + strlen(ap) + strlen(z) + strlen(zp) + 8;
    s->k = realloc(s->k, (size_t)(s->n + 1) * sizeof *s->k);
    s->k[s->n] = malloc(len);
    snprintf(s->k[s->n++], len, "%s:%s -- %s:%s", a, ap, z, zp);
}

static void keys_free(keys *s)
{
    for (long i = 0; i < s->n; i++)
        free(s->k[i]);
    free(s->k);
}

/* dgx-h100-4su-networks: compute and storage are QM9700 InfiniBand networks, inband and oob
 * Ethernet (the preset's spec, docs/spec.md "networks"). */
static int ethernet_network(const char *net)
{
    return strcmp(net, "inband") == 0 || strcmp(net, "oob") == 0;
}

Test(verifiers, ptm_every_ethernet_link_once_as_ptmd_reads_it, .timeout = TEST_TIMEOUT(120))
{
    char dir[300], path[400], out[8192];
    plan_into(dir, sizeof dir, "dgx-h100-4su-networks", "ptm,links", out, sizeof out);
    /* expected: links.csv's Ethernet rows */
    keys want = { 0 }, got = { 0 };
    snprintf(path, sizeof path, "%s/links.csv", dir);
    csv_file lc = csv_load(path);
    long ib_rows = 0;
    for (long i = 1; i < lc.n; i++) {
        char *f[16];
        if (lc.line[i][0] == '\0')
            continue;
        int nf = csv_split(lc.line[i], f, 16);
        cr_assert_eq(nf, 9, "links.csv line %ld", i + 1);
        if (ethernet_network(f[8]))
            keys_add(&want, f[1], f[2], f[3], f[4]);
        else
            ib_rows++;
    }
    cr_assert_gt(want.n, 0);
    cr_assert_gt(ib_rows, 0, "the plan has InfiniBand links to leave out");
    /* what ptmd sees: Graphviz's agread, ports from the edge's tailport and headport */
    snprintf(path, sizeof path, "%s/topology.dot", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    Agraph_t *g = agread(f, NULL);
    fclose(f);
    cr_assert_not_null(g, "Graphviz cannot read %s", path);
    cr_assert(agisundirected(g) && !agisstrict(g), "an undirected graph with parallel edges");
    for (Agnode_t *n = agfstnode(g); n != NULL; n = agnxtnode(g, n))
        for (Agedge_t *e = agfstout(g, n); e != NULL; e = agnxtout(g, e)) {
            const char *tp = agget(e, "tailport"), *hp = agget(e, "headport");
            cr_assert(tp != NULL && *tp && hp != NULL && *hp, "an edge without its ports");
            keys_add(&got, agnameof(agtail(e)), tp, agnameof(aghead(e)), hp);
        }
    agclose(g);
    qsort(want.k, (size_t)want.n, sizeof *want.k, cmp_key);
    qsort(got.k, (size_t)got.n, sizeof *got.k, cmp_key);
    cr_assert_eq(got.n, want.n, "%ld edges, %ld Ethernet links planned", got.n, want.n);
    for (long i = 0; i < want.n; i++) {
        cr_assert_str_eq(got.k[i], want.k[i]);
        if (i > 0)
            cr_assert_str_neq(want.k[i], want.k[i - 1], "a link planned twice");
    }
    keys_free(&want);
    keys_free(&got);
    csv_free(&lc);
}

/* An InfiniBand-only plan has nothing for PTM: skipped with the reason; an Ethernet-only plan
 * nothing for CVT. */
Test(verifiers, ptm_and_cvt_skipped_with_the_reason, .timeout = TEST_TIMEOUT(60))
{
    char dir[300], out[16384];
    plan_into(dir, sizeof dir, "dgx-h100-4su", "ptm,cvt,links", out, sizeof out);
    cr_assert(strstr(out, "not written: topology.dot: Cumulus PTM checks Ethernet links") != NULL,
              "%s", out);
    char path[400];
    snprintf(path, sizeof path, "%s/topology.dot", dir);
    cr_assert_eq(access(path, F_OK), -1);
    snprintf(path, sizeof path, "%s/cvt-p2p.xlsx", dir);
    cr_assert_eq(access(path, F_OK), 0);
    fp_plan *p = plan_from_preset("spectrum-x-100k");
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_PTM | FP_WRITE_CVT;
    cr_assert_eq(fp_plan_write_skipped(p, &o, NULL, NULL), 1);
    cr_assert_eq(fp_plan_write_names(p, &o, NULL, NULL), 1);
    fp_plan_free(p);
}

/* Split s in place at sep into at most 4 parts; the count. */
static int split_at(char *s, char sep, char **part)
{
    int n = 0;
    for (;;) {
        cr_assert_lt(n, 4);
        part[n++] = s;
        char *e = strchr(s, sep);
        if (e == NULL)
            return n;
        *e = '\0';
        s = e + 1;
    }
}

/* Port `port` of device `dev` as CVT writes it: a QM9700 port "1/<cage>/<port>" (the catalog's
 * interface_names) is "<cage>/<port>"; a host port its HCA number: a compute server's 8
 * compute ports nic1-p1 .. nic1-p8 are 1..8, its storage ports storage-p1, -p2 then 9, 10; a
 * storage array (on the storage network only) storage-pN is N. */
static void cvt_port(char *buf, size_t n, const char *dev, const char *port)
{
    if (strncmp(port, "nic1-p", 6) == 0)
        snprintf(buf, n, "%d", atoi(port + 6));
    else if (strncmp(port, "storage-p", 9) == 0)
        snprintf(buf, n, "%d", (strncmp(dev, "su", 2) == 0 ? 8 : 0) + atoi(port + 9));
    else if (strncmp(port, "1/", 2) == 0)
        snprintf(buf, n, "%s", port + 2);
    else
        cr_assert_fail("a port of %s not named as expected: %s", dev, port);
}

Test(verifiers, cvt_sheet_per_infiniband_network, .timeout = TEST_TIMEOUT(120))
{
    char dir[300], path[400], out[8192];
    plan_into(dir, sizeof dir, "dgx-h100-4su-networks", "cvt,cables", out, sizeof out);
    snprintf(path, sizeof path, "%s/cvt-p2p.xlsx", dir);
    char names[8][32];
    cr_assert_eq(xl_sheet_names(path, names, 8), 2);
    cr_assert_str_eq(names[0], "compute");
    cr_assert_str_eq(names[1], "storage");
    /* expected rows, from cables.csv: a row per link, the cable's A end first */
    keys want[2] = { { 0 }, { 0 } };
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    csv_file cc = csv_load(path);
    for (long i = 1; i < cc.n; i++) {
        char *f[32], ra[32], rz[32], pa[16], pz[16], row[512];
        if (cc.line[i][0] == '\0')
            continue;
        int nf = csv_split(cc.line[i], f, 32);
        /* ..., protocol, network */
        cr_assert_str_eq(f[nf - 2], strcmp(f[nf - 1], "compute") == 0 ||
                                    strcmp(f[nf - 1], "storage") == 0 ? "infiniband" : "ethernet");
        int net = strcmp(f[nf - 1], "compute") == 0 ? 0 : strcmp(f[nf - 1], "storage") == 0 ? 1 : -1;
        if (net < 0)
            continue;
        /* a splitter (storage arrays on a leaf's split cage) has its legs ';'-separated at Z and
         * its hub's ports '+'-joined at A, leg k on A port k */
        char *ap[4], *zd[4], *zp[4], *zh[4], *zr[4], *zk[4], *zu[4];
        int na = split_at(f[6], '+', ap), legs = split_at(f[11], ';', zd);
        cr_assert_eq(split_at(f[12], ';', zp), legs);
        split_at(f[7], ';', zh);
        split_at(f[8], ';', zr);
        split_at(f[9], ';', zk);
        split_at(f[10], ';', zu);
        /* a twin-port cable (one leg, two links): its Z ports '+'-joined too, in A's order */
        char *zpp[4];
        int twin = legs == 1 && na > 1;
        if (twin)
            cr_assert_eq(split_at(zp[0], '+', zpp), na, "cable %s", f[0]);
        else
            cr_assert_eq(na, legs, "cable %s: one link per leg", f[0]);
        snprintf(ra, sizeof ra, "H%s-R%02d-K%02d", f[1], atoi(f[2]), atoi(f[3]));
        for (int k = 0; k < na; k++) {
            int leg = twin ? 0 : k;
            snprintf(rz, sizeof rz, "H%s-R%02d-K%02d", zh[leg], atoi(zr[leg]), atoi(zk[leg]));
            cvt_port(pa, sizeof pa, f[5], ap[k]);
            cvt_port(pz, sizeof pz, zd[leg], twin ? zpp[k] : zp[k]);
            snprintf(row, sizeof row, "%s|%s|%s|%s|%s|%s|%s|%s", ra, f[4], f[5], pa, rz, zu[leg],
                     zd[leg], pz);
            keys_add(&want[net], row, "", "", "");
        }
    }
    snprintf(path, sizeof path, "%s/cvt-p2p.xlsx", dir);
    for (int s = 0; s < 2; s++) {
        char *xml = xl_sheet(path, s + 1);
        cr_assert_not_null(xml);
        const char *pos = xml;
        static xl_row r;
        keys got = { 0 };
        cr_assert(xl_next_row(&pos, &r));
        static const char *const head[8] = { "Rack", "U", "Name", "HCA/Port", "Rack", "U",
                                              "Name", "Port" };
        for (int c = 0; c < 8; c++)
            cr_assert_str_eq(r.v[c], head[c]);
        while (xl_next_row(&pos, &r)) {
            char row[512];
            snprintf(row, sizeof row, "%s|%s|%s|%s|%s|%s|%s|%s", r.v[0], r.v[1], r.v[2], r.v[3],
                     r.v[4], r.v[5], r.v[6], r.v[7]);
            keys_add(&got, row, "", "", "");
        }
        qsort(want[s].k, (size_t)want[s].n, sizeof *want[s].k, cmp_key);
        qsort(got.k, (size_t)got.n, sizeof *got.k, cmp_key);
        cr_assert_gt(want[s].n, 0);
        cr_assert_eq(got.n, want[s].n, "sheet %s: %ld rows, %ld links", names[s], got.n,
                     want[s].n);
        for (long i = 0; i < got.n; i++)
            cr_assert_str_eq(got.k[i], want[s].k[i], "sheet %s", names[s]);
        keys_free(&got);
        keys_free(&want[s]);
        free(xml);
    }
    csv_free(&cc);
}
