/* fabplan — the compute fabric as job schedulers place jobs by it (docs/outputs.md, "Scheduler
 * topology"): Slurm's topology.conf (topology/tree), topology-block.conf (topology/block: the
 * NVLink domains) and topology.yaml (both, in Slurm's YAML form); for Kubernetes,
 * k8s-node-labels.sh (kubectl label, each node's groups as node labels) and
 * kueue-topology.yaml (Kueue's Topology object over those labels).
 *
 * The folding rule (one tree, whatever the topology): level 1 groups the servers that reach
 * each other through one leaf tier: the connected pieces of the servers and the leaf switches
 * joined by the NIC-leaf links. Level t (t = 2 .. tiers) adds the links of the next boundary
 * up: the pieces joined through tier t. So a Clos fabric's level-1 groups are its leaf switches
 * (a server on one leaf), a rail-optimized fabric's its scalable units (a unit's servers reach
 * every rail leaf of the unit, one hop apart on each rail), a multi-plane fabric's the leaves
 * of every plane at one place (a server reaches the same leaf in each plane); level 2 is the
 * pods of a 3- or 4-tier fabric, level 3 a 4-tier fabric's zones, and the top tier joins
 * everything: one top switch, levels = the fabric's tiers. Names: a Clos leaf group is its
 * leaf's name (without a plane prefix), a scalable unit, pod or zone the first part of its
 * first switch's name (su01, pod02, zone1), the top the top tier's role (spine, core,
 * super-core). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

#define SCHED_NAME_MAX 65       /* Slurm: a switch name at most 64 characters */

typedef struct sched_level {
    int64_t n;                  /* groups at this level */
    int32_t *of;                /* of[s]: the group of server s */
    int32_t *up;                /* up[g]: the next level's group holding g (NULL at the top) */
    char (*name)[SCHED_NAME_MAX];
} sched_level;

typedef struct sched_tree {
    int levels;
    int64_t servers;
    sched_level lv[FP_MAX_TIERS + 1];   /* [1 .. levels] */
} sched_tree;

static void tree_free(sched_tree *t)
{
    for (int k = 1; k <= FP_MAX_TIERS; k++) {
        free(t->lv[k].of);
        free(t->lv[k].up);
        free(t->lv[k].name);
    }
    memset(t, 0, sizeof *t);
}

static int32_t uf_find(int32_t *p, int32_t x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

/* Group g's name at level t from its first switch rep (see the file comment). */
static void group_name(char *buf, const fp_fabric *fab, const fp_rspec *rs, const fp_names *nm,
                       int t, int64_t rep, int64_t g, int64_t groups)
{
    if (t == fab->tiers || rep < 0) {
        const char *role = fp__tier_role(t);
        if (groups > 1)
            snprintf(buf, SCHED_NAME_MAX, "%s-%02lld", role, (long long)g + 1);
        else
            fp__copy_str(buf, SCHED_NAME_MAX, role);
        return;
    }
    const char *s = fp__dev_name(nm, rep);
    if (fab->planes > 1 && strchr(s, '-'))
        s = strchr(s, '-') + 1;     /* "pl1-leaf-03" -> "leaf-03" */
    size_t len = strlen(s);
    /* A rail-aligned unit whose rails span several leaves has a leaf group per leaf of a
     * rail ("su01-leaf-r1.2" -> "su01.2": its servers share leaf 2 of every rail). */
    const char *dot = t == 1 && rs->topology == FP_TOPO_RAIL && groups > fab->su_count
                          ? strrchr(s, '.') : NULL;
    if (t > 1 || rs->topology == FP_TOPO_RAIL) {
        const char *dash = strchr(s, '-');
        if (dash)
            len = (size_t)(dash - s);
    }
    if (len >= SCHED_NAME_MAX)
        len = SCHED_NAME_MAX - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (dot)
        snprintf(buf + len, SCHED_NAME_MAX - len, "%.*s", (int)(SCHED_NAME_MAX - 1 - len), dot);
}

/* The scheduler tree of the compute fabric (the file comment's rule). FP_ENOMEM on failure. */
static fp_status tree_build(sched_tree *tr, const fp_plan *plan)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_names *nm = fp__plan_names(plan);
    const int L = fab->tiers;
    const int64_t nd = fab->n_dev, ns = fab->servers;
    memset(tr, 0, sizeof *tr);
    tr->levels = L;
    tr->servers = ns;
    int32_t *uf = malloc(sizeof *uf * (size_t)(nd + 1));
    int32_t *gid = malloc(sizeof *gid * (size_t)(nd + 1));
    int64_t *rep = malloc(sizeof *rep * (size_t)(ns + 1));
    if (uf == NULL || gid == NULL || rep == NULL)
        goto oom;
    for (int64_t d = 0; d < nd; d++)
        uf[d] = (int32_t)d;
    for (int t = 1; t <= L; t++) {
        sched_level *lv = &tr->lv[t];
        for (int64_t i = fab->boundary_base[t - 1]; i < fab->boundary_base[t]; i++) {
            int32_t a = uf_find(uf, fab->link[i].a), z = uf_find(uf, fab->link[i].z);
            if (a != z)
                uf[a < z ? z : a] = a < z ? a : z;
        }
        for (int64_t d = 0; d < nd; d++)
            gid[d] = -1;
        lv->of = malloc(sizeof *lv->of * (size_t)(ns + 1));
        if (lv->of == NULL)
            goto oom;
        for (int64_t s = 0; s < ns; s++) {
            int32_t r = uf_find(uf, (int32_t)s);
            if (gid[r] < 0)
                gid[r] = (int32_t)lv->n++;
            lv->of[s] = gid[r];
        }
        lv->name = malloc(sizeof *lv->name * (size_t)(lv->n + 1));
        if (lv->name == NULL)
            goto oom;
        for (int64_t g = 0; g < lv->n; g++)
            rep[g] = -1;
        int64_t end = t < L ? fab->tier_base[t + 1] : nd;
        for (int64_t d = fab->tier_base[t]; d < end; d++) {
            int32_t g = gid[uf_find(uf, (int32_t)d)];
            if (g >= 0 && rep[g] < 0)
                rep[g] = d;
        }
        for (int64_t g = 0; g < lv->n; g++)
            group_name(lv->name[g], fab, rs, nm, t, rep[g], g, lv->n);
        if (t > 1) {
            sched_level *below = &tr->lv[t - 1];
            below->up = malloc(sizeof *below->up * (size_t)(below->n + 1));
            if (below->up == NULL)
                goto oom;
            for (int64_t s = 0; s < ns; s++)
                below->up[below->of[s]] = lv->of[s];
        }
    }
    free(uf);
    free(gid);
    free(rep);
    return FP_OK;
oom:
    free(uf);
    free(gid);
    free(rep);
    tree_free(tr);
    return FP_ENOMEM;
}

/* Members grouped: member i of group g is order[start[g] .. start[g + 1]), in index order. */
static fp_status bucket(const int32_t *of, int64_t n, int64_t groups, int64_t **start_out,
                        int64_t **order_out)
{
    int64_t *start = calloc((size_t)groups + 2, sizeof *start);
    int64_t *order = malloc(sizeof *order * (size_t)(n + 1));
    if (start == NULL || order == NULL) {
        free(start);
        free(order);
        return FP_ENOMEM;
    }
    for (int64_t i = 0; i < n; i++)
        start[of[i] + 2]++;
    for (int64_t g = 0; g < groups; g++)
        start[g + 2] += start[g + 1];
    for (int64_t i = 0; i < n; i++)
        order[start[of[i] + 1]++] = i;
    *start_out = start;
    *order_out = order;
    return FP_OK;
}

/* Name s split as Slurm's hostlist reads it: prefix length, and the trailing digits' value and
 * width (0: no trailing digits). */
static void split_name(const char *s, size_t *plen, uint64_t *val, int *width)
{
    size_t len = strlen(s), p = len;
    while (p > 0 && s[p - 1] >= '0' && s[p - 1] <= '9')
        p--;
    *plen = p;
    *width = (int)(len - p);
    *val = 0;
    if (*width > 18)
        *width = 0;
    for (size_t i = p; *width && i < len; i++)
        *val = *val * 10 + (uint64_t)(s[i] - '0');
}

/* names[0 .. n) as one Slurm hostlist expression: a run of names with one prefix and
 * equal-width numbers becomes prefix[01-32,35], a lone name stays as it is. */
static void hostlist(fp_outbuf *f, const char *const *names, int64_t n)
{
    char num[24];
    int64_t i = 0;
    while (i < n) {
        size_t plen;
        uint64_t v;
        int w;
        if (i > 0)
            fp__outbuf_char(f, ',');
        split_name(names[i], &plen, &v, &w);
        /* the names after i with its prefix and width */
        int64_t j = i + 1;
        while (w > 0 && j < n) {
            size_t pl2;
            uint64_t v2;
            int w2;
            split_name(names[j], &pl2, &v2, &w2);
            if (w2 != w || pl2 != plen || memcmp(names[j], names[i], plen) != 0)
                break;
            j++;
        }
        if (j == i + 1) {
            fp__outbuf_str(f, names[i]);
            i++;
            continue;
        }
        fp__outbuf_put(f, names[i], plen);
        fp__outbuf_char(f, '[');
        for (int64_t k = i; k < j;) {
            size_t pl2;
            uint64_t lo, hi, nx;
            int w2;
            split_name(names[k], &pl2, &lo, &w2);
            hi = lo;
            int64_t m = k + 1;
            for (; m < j; m++) {
                split_name(names[m], &pl2, &nx, &w2);
                if (nx != hi + 1)
                    break;
                hi = nx;
            }
            if (k > i)
                fp__outbuf_char(f, ',');
            fp__outbuf_put(f, num, fp__put_uint_w(num, lo, w));
            if (hi != lo) {
                fp__outbuf_char(f, '-');
                fp__outbuf_put(f, num, fp__put_uint_w(num, hi, w));
            }
            k = m;
        }
        fp__outbuf_char(f, ']');
        i = j;
    }
}

/* Everything the three files are written from: the tree, each group's members, the NVLink
 * blocks. */
typedef struct sched_doc {
    sched_tree tr;
    int64_t *start[FP_MAX_TIERS + 1], *order[FP_MAX_TIERS + 1];  /* members of each group:
                                    servers at level 1, level t-1 groups at level t */
    const char **names;         /* scratch: one list of names */
    int64_t n_block;            /* NVLink blocks (0: none, a domain of one server) */
    int64_t *block_start;       /* block b: servers block_srv[block_start[b] .. [b + 1]) */
    int64_t *block_srv;
    int64_t block_base, block_nodes;
} sched_doc;

static void doc_free(sched_doc *d)
{
    for (int t = 0; t <= FP_MAX_TIERS; t++) {
        free(d->start[t]);
        free(d->order[t]);
    }
    free((void *)d->names);
    free(d->block_start);
    free(d->block_srv);
    tree_free(&d->tr);
}

/* The NVLink domains: each level-1 group's servers in plan order, nvlink_servers at a time;
 * when a rail-aligned unit has several leaf groups (its rails span several leaves), each
 * unit's servers in order, as the layout fills its racks. */
static fp_status blocks_build(sched_doc *d, const fp_rspec *rs, const fp_fabric *fab)
{
    const sched_level *lv = &d->tr.lv[1];
    int64_t D = rs->nvlink_servers, ns = d->tr.servers;
    if (D <= 1 || ns == 0)
        return FP_OK;
    int64_t most = 0;
    for (int64_t g = 0; g < lv->n; g++)
        most += (d->start[1][g + 1] - d->start[1][g] + D - 1) / D;
    d->block_start = malloc(sizeof *d->block_start * (size_t)(most + 1));
    d->block_srv = malloc(sizeof *d->block_srv * (size_t)(ns + 1));
    if (d->block_start == NULL || d->block_srv == NULL)
        return FP_ENOMEM;
    int64_t at = 0;
    d->block_base = D;
    if (rs->topology == FP_TOPO_RAIL && lv->n > fab->su_count) {
        most = 0;
        for (int64_t s0 = 0; s0 < ns; s0 += rs->su_servers)
            most += (ns - s0 < rs->su_servers ? ns - s0 : rs->su_servers) / D + 1;
        free(d->block_start);
        if ((d->block_start = malloc(sizeof *d->block_start * (size_t)(most + 1))) == NULL)
            return FP_ENOMEM;
        for (int64_t k = 0; k < ns; k++) {
            if ((k % rs->su_servers) % D == 0)
                d->block_start[d->n_block++] = at;
            d->block_srv[at++] = k;
        }
    } else
    for (int64_t g = 0; g < lv->n; g++)
        for (int64_t k = d->start[1][g]; k < d->start[1][g + 1]; k++) {
            if ((k - d->start[1][g]) % D == 0)
                d->block_start[d->n_block++] = at;
            d->block_srv[at++] = d->order[1][k];
        }
    d->block_start[d->n_block] = at;
    d->block_nodes = at;
    for (int64_t b = 0; b < d->n_block; b++)
        if (d->block_start[b + 1] - d->block_start[b] < d->block_base)
            d->block_base = d->block_start[b + 1] - d->block_start[b];
    return FP_OK;
}

static fp_status doc_build(sched_doc *d, const fp_plan *plan)
{
    memset(d, 0, sizeof *d);
    if (tree_build(&d->tr, plan) != FP_OK)
        return FP_ENOMEM;
    const sched_tree *tr = &d->tr;
    int64_t most = tr->servers;
    if (bucket(tr->lv[1].of, tr->servers, tr->lv[1].n, &d->start[1], &d->order[1]) != FP_OK)
        return FP_ENOMEM;
    for (int t = 2; t <= tr->levels; t++)
        if (bucket(tr->lv[t - 1].up, tr->lv[t - 1].n, tr->lv[t].n, &d->start[t],
                   &d->order[t]) != FP_OK)
            return FP_ENOMEM;
    d->names = malloc(sizeof *d->names * (size_t)(most + 1));
    if (d->names == NULL)
        return FP_ENOMEM;
    return blocks_build(d, fp__plan_rspec(plan), fp__plan_fabric(plan));
}

/* The members of group g at level t as a hostlist: servers (t = 1) or the groups below. */
static void members(fp_outbuf *f, sched_doc *d, const fp_names *nm, int t, int64_t g)
{
    int64_t n = 0;
    for (int64_t k = d->start[t][g]; k < d->start[t][g + 1]; k++)
        d->names[n++] = t == 1 ? fp__dev_name(nm, d->order[t][k])
                               : d->tr.lv[t - 1].name[d->order[t][k]];
    hostlist(f, d->names, n);
}

static void block_nodes(fp_outbuf *f, sched_doc *d, const fp_names *nm, int64_t b)
{
    int64_t n = 0;
    for (int64_t k = d->block_start[b]; k < d->block_start[b + 1]; k++)
        d->names[n++] = fp__dev_name(nm, d->block_srv[k]);
    hostlist(f, d->names, n);
}

static void block_name(char *buf, size_t n, const sched_doc *d, int64_t b)
{
    int w = 2;
    for (int64_t v = d->n_block; v >= 100; v /= 10)
        w++;
    snprintf(buf, n, "nvl%0*lld", w, (long long)b + 1);
}

/* Slurm's block sizes: the base (the smallest block), then the base times 2, 4, ... while that
 * many nodes fit in the blocks there are. */
static int64_t block_size(const sched_doc *d, int k)
{
    int64_t s = d->block_base << k;
    return k > 0 && s > d->block_nodes ? 0 : s;
}

/* The level names (0-based, as scontrol numbers them), for the files' first comment lines. */
static void level_comment(fp_outbuf *f, const fp_fabric *fab, const fp_rspec *rs, const char *lead)
{
    char line[200];
    for (int t = 1; t <= fab->tiers; t++) {
        const char *what = t == fab->tiers ? "the top tier: one switch"
                           : t == 1 ? (rs->topology == FP_TOPO_RAIL && fab->leaves_per_su >
                                                                          rs->endpoints_per_server
                                           && fab->leaves_per_su % rs->endpoints_per_server == 0
                                           ? "leaf groups (a group's servers share one leaf of every rail of their unit)"
                                           : rs->topology == FP_TOPO_RAIL
                                           ? "scalable units (a unit's servers share every rail leaf)"
                                           : fab->planes > 1 ? "leaf switches, one per plane group"
                                                             : "leaf switches")
                           : t == 2 ? "pods" : "zones";
        snprintf(line, sizeof line, "%slevel %d: %s\n", lead, t - 1, what);
        fp__outbuf_str(f, line);
    }
}

static fp_status begin(fp_outbuf **f, const char *path, const fp_plan *plan, sched_doc *d,
                       const char *what, int script, fp_error *err)
{
    if (doc_build(d, plan) != FP_OK) {
        doc_free(d);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    }
    char head[400], name[sizeof fp__plan_rspec(plan)->name];
    fp__copy_str(name, sizeof name, fp__plan_rspec(plan)->name);
    for (char *c = name; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = '?';           /* a spec name's line break would end the comment */
    snprintf(head, sizeof head, "%s# %s for plan %s, written by fabplan plan (docs/outputs.md)\n",
             script ? "#!/bin/sh\n" : "", what, name);
    fp_status rc = fp__outbuf_open(f, path, head, err);
    if (rc != FP_OK)
        doc_free(d);
    return rc;
}

/* How a file spells a tree switch (sw NAME nodes|children LIST end) and a block (block NAME
 * block_nodes LIST end). */
typedef struct sched_syntax {
    const char *sw, *nodes, *children, *block, *block_nodes, *end;
} sched_syntax;
static const sched_syntax conf_syntax = { "SwitchName=", " Nodes=", " Switches=", "BlockName=",
                                          " Nodes=", "\n" };
static const sched_syntax yaml_syntax = { "      - switch: \"", "\"\n        nodes: \"",
                                          "\"\n        children: \"", "      - block: \"",
                                          "\"\n        nodes: \"", "\"\n" };

static void put_tree(fp_outbuf *f, sched_doc *d, const fp_names *nm, const sched_syntax *sx)
{
    for (int t = 1; t <= d->tr.levels; t++)
        for (int64_t g = 0; g < d->tr.lv[t].n; g++) {
            fp__outbuf_str(f, sx->sw);
            fp__outbuf_str(f, d->tr.lv[t].name[g]);
            fp__outbuf_str(f, t == 1 ? sx->nodes : sx->children);
            members(f, d, nm, t, g);
            fp__outbuf_str(f, sx->end);
        }
}

static void put_blocks(fp_outbuf *f, sched_doc *d, const fp_names *nm, const sched_syntax *sx)
{
    char name[32];
    for (int64_t b = 0; b < d->n_block; b++) {
        block_name(name, sizeof name, d, b);
        fp__outbuf_str(f, sx->block);
        fp__outbuf_str(f, name);
        fp__outbuf_str(f, sx->block_nodes);
        block_nodes(f, d, nm, b);
        fp__outbuf_str(f, sx->end);
    }
}

/* BlockSizes: "18,36,72" (conf) or one "      - 18" line each (yaml). */
static void put_sizes(fp_outbuf *f, const sched_doc *d, int yaml)
{
    for (int k = 0; block_size(d, k) > 0; k++) {
        fp__outbuf_str(f, yaml ? "      - " : k ? "," : "");
        fp__outbuf_int(f, block_size(d, k));
        if (yaml)
            fp__outbuf_char(f, '\n');
    }
}

enum { SCHED_TREE, SCHED_BLOCK, SCHED_YAML };

static fp_status write_sched(const fp_plan *plan, const char *path, int kind, fp_error *err)
{
    static const char *const what[] = {
        "Slurm topology.conf (TopologyPlugin=topology/tree)",
        "Slurm topology.conf (TopologyPlugin=topology/block): NVLink domains",
        "Slurm topology.yaml",
    };
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_names *nm = fp__plan_names(plan);
    sched_doc d;
    fp_outbuf *f = NULL;
    fp_status rc = begin(&f, path, plan, &d, what[kind], 0, err);
    if (rc != FP_OK)
        return rc;
    if (kind == SCHED_TREE) {
        level_comment(f, fab, rs, "# ");
        put_tree(f, &d, nm, &conf_syntax);
    } else if (kind == SCHED_BLOCK) {
        put_blocks(f, &d, nm, &conf_syntax);
        fp__outbuf_str(f, "BlockSizes=");
        put_sizes(f, &d, 0);
        fp__outbuf_char(f, '\n');
    } else {
        fp__outbuf_str(f, "# tree \"fabric\" (topology/tree, the cluster default):\n");
        level_comment(f, fab, rs, "#   ");
        if (d.n_block > 0)
            fp__outbuf_str(f, "# block \"nvlink\" (topology/block): one block per NVLink domain\n");
        fp__outbuf_str(f, "---\n- topology: fabric\n  cluster_default: true\n  tree:\n"
                          "    switches:\n");
        put_tree(f, &d, nm, &yaml_syntax);
        if (d.n_block > 0) {
            fp__outbuf_str(f, "- topology: nvlink\n  cluster_default: false\n  block:\n"
                              "    block_sizes:\n");
            put_sizes(f, &d, 1);
            fp__outbuf_str(f, "    blocks:\n");
            put_blocks(f, &d, nm, &yaml_syntax);
        }
    }
    doc_free(&d);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_slurm_tree(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err)
{
    (void)o;
    return write_sched(plan, path, SCHED_TREE, err);
}

int fp__slurm_block_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                              char *buf, size_t n)
{
    (void)o;
    if (fp__plan_rspec(plan)->nvlink_servers <= 1)
        return 0;
    fp__copy_str(buf, n, ext);
    return 1;
}

fp_status fp__write_slurm_block(const fp_plan *plan, const char *path, const fp_write_options *o,
                                fp_error *err)
{
    (void)o;
    return write_sched(plan, path, SCHED_BLOCK, err);
}

fp_status fp__write_slurm_yaml(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err)
{
    (void)o;
    return write_sched(plan, path, SCHED_YAML, err);
}

/* ---- Kubernetes: k8s-node-labels.sh and kueue-topology.yaml ---- */

/* The label levels, fine to coarse: the NVLink domain (when the plan has blocks), then the
 * tree's levels below the top (the leaf group, pods, zones): kind 0 the domain, kind t tree
 * level t. The top holds every node: no label. */
#define K8S_KINDS 4
static const char *const k8s_fabplan_keys[K8S_KINDS] = {
    "topology.fabplan.io/nvlink-domain", "topology.fabplan.io/leaf-group",
    "topology.fabplan.io/pod", "topology.fabplan.io/zone",
};
/* NVIDIA Topograph's node labels (docs/k8s.md of NVIDIA/topograph): accelerator (the NVLink
 * domain), block (the switches the nodes hang from), spine, datacenter. */
static const char *const k8s_topograph_keys[K8S_KINDS] = {
    "network.topology.nvidia.com/accelerator", "network.topology.nvidia.com/block",
    "network.topology.nvidia.com/spine", "network.topology.nvidia.com/datacenter",
};

typedef struct k8s_keys {
    int n;
    int kind[K8S_KINDS];
    char key[K8S_KINDS][320];
} k8s_keys;

static int label_char(char c, int name)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           (name && ((c >= 'A' && c <= 'Z') || c == '_')) || c == '-' || c == '.';
}

static int alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* 1 when key is a Kubernetes label key: an optional prefix (a DNS subdomain: lower-case
 * letters, digits, '-' and '.', at most 253) and '/', then a name of 1 to 63 letters, digits,
 * '-', '_' or '.', starting and ending with a letter or digit. */
static int label_key_ok(const char *key)
{
    const char *slash = strchr(key, '/'), *name = slash ? slash + 1 : key;
    if (slash) {
        size_t pl = (size_t)(slash - key);
        if (pl == 0 || pl > 253 || !alnum(key[0]) || !alnum(key[pl - 1]) || strchr(name, '/'))
            return 0;
        for (size_t i = 0; i < pl; i++)
            if (!label_char(key[i], 0))
                return 0;
    }
    size_t nl = strlen(name);
    if (nl == 0 || nl > 63 || !alnum(name[0]) || !alnum(name[nl - 1]))
        return 0;
    for (size_t i = 0; i < nl; i++)
        if (!label_char(name[i], 1))
            return 0;
    return 1;
}

/* The label keys for this plan and options (fp_write_options.k8s_labels): FP_EINVAL for a list
 * of the wrong length, a key Kubernetes would refuse, a repeated key or kubernetes.io/hostname
 * (Kueue's last level, added after these). */
static fp_status k8s_keys_of(const fp_plan *plan, const fp_write_options *o, k8s_keys *k,
                             fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const char *spec = o ? o->k8s_labels : NULL;   /* o is normalised (write.c) */
    memset(k, 0, sizeof *k);
    if (fp__plan_rspec(plan)->nvlink_servers > 1)
        k->kind[k->n++] = 0;
    for (int t = 1; t < fab->tiers && k->n < K8S_KINDS; t++)
        k->kind[k->n++] = t;
    if (spec == NULL || strcmp(spec, "fabplan") == 0 || strcmp(spec, "topograph") == 0) {
        const char *const *keys = spec && spec[0] == 't' ? k8s_topograph_keys : k8s_fabplan_keys;
        for (int i = 0; i < k->n; i++)
            fp__copy_str(k->key[i], sizeof k->key[i], keys[k->kind[i]]);
        return FP_OK;
    }
    int n = 0;
    for (const char *p = spec;; n++) {
        size_t len = strcspn(p, ",");
        if (n >= k->n)
            FP_FAIL(err, FP_EINVAL, "k8s_labels",
                    "k8s labels \"%s\": this plan labels %d levels (fine to coarse: %s%s), give "
                    "as many keys", spec, k->n, k->kind[0] == 0 ? "NVLink domain, " : "",
                    "leaf group, pod, zone as it has tiers");
        if (len >= sizeof k->key[n])
            len = sizeof k->key[n] - 1;
        memcpy(k->key[n], p, len);
        k->key[n][len] = '\0';
        if (!label_key_ok(k->key[n]) || strcmp(k->key[n], "kubernetes.io/hostname") == 0)
            FP_FAIL(err, FP_EINVAL, "k8s_labels",
                    "k8s labels: \"%s\" is not a label key to use (expected [prefix/]name, the "
                    "name 1-63 letters, digits, '-', '_' or '.'; not kubernetes.io/hostname)",
                    k->key[n]);
        for (int j = 0; j < n; j++)
            if (strcmp(k->key[j], k->key[n]) == 0)
                FP_FAIL(err, FP_EINVAL, "k8s_labels", "k8s labels: \"%s\" given twice", k->key[n]);
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    if (n + 1 != k->n)
        FP_FAIL(err, FP_EINVAL, "k8s_labels",
                "k8s labels \"%s\": %d keys for the %d levels this plan labels", spec, n + 1, k->n);
    return FP_OK;
}

fp_status fp__k8s_check(const fp_plan *plan, const fp_write_options *o, fp_error *err)
{
    k8s_keys k;
    return k8s_keys_of(plan, o, &k, err);
}

fp_status fp__write_k8s_labels(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err)
{
    const fp_names *nm = fp__plan_names(plan);
    k8s_keys k;
    sched_doc d;
    fp_outbuf *f = NULL;
    char name[32];
    fp_status rc = k8s_keys_of(plan, o, &k, err);
    if (rc != FP_OK)
        return rc;
    if ((rc = begin(&f, path, plan, &d, "Kubernetes node labels (kubectl)", 1, err)) != FP_OK)
        return rc;
    /* each server's NVLink block */
    int64_t *block_of = NULL;
    if (d.n_block > 0) {
        block_of = malloc(sizeof *block_of * (size_t)(d.tr.servers + 1));
        if (block_of == NULL) {
            doc_free(&d);
            return fp__outbuf_close(f, path, fp__error_set(err, FP_ENOMEM, path,
                                                           "out of memory writing %s", path), err);
        }
        for (int64_t s = 0; s < d.tr.servers; s++)
            block_of[s] = -1;
        for (int64_t b = 0; b < d.n_block; b++)
            for (int64_t i = d.block_start[b]; i < d.block_start[b + 1]; i++)
                block_of[d.block_srv[i]] = b;
    }
    fp__outbuf_str(f, "# Each node's place in the fabric, fine to coarse (the levels of "
                      "kueue-topology.yaml). Run it\n# with kubectl pointed at the cluster: "
                      "sh k8s-node-labels.sh\nset -e\n");
    for (int64_t s = 0; s < d.tr.servers; s++) {
        fp__outbuf_str(f, "kubectl label node --overwrite ");
        fp__outbuf_str(f, fp__dev_name(nm, s));
        for (int i = 0; i < k.n; i++) {
            fp__outbuf_char(f, ' ');
            fp__outbuf_str(f, k.key[i]);
            fp__outbuf_char(f, '=');
            if (k.kind[i] == 0) {
                if (block_of[s] >= 0)
                    block_name(name, sizeof name, &d, block_of[s]);
                fp__outbuf_str(f, block_of[s] >= 0 ? name : "none");
            } else {
                const sched_level *lv = &d.tr.lv[k.kind[i]];
                fp__outbuf_str(f, lv->name[lv->of[s]]);
            }
        }
        fp__outbuf_char(f, '\n');
    }
    free(block_of);
    doc_free(&d);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_kueue_topology(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err)
{
    k8s_keys k;
    fp_outbuf *f = NULL;
    fp_status rc = k8s_keys_of(plan, o, &k, err);
    if (rc != FP_OK)
        return rc;
    /* metadata.name: the plan name as a DNS subdomain (lower case; other characters '-') */
    const char *pn = fp__plan_rspec(plan)->name;
    char name[128];
    size_t n = 0;
    for (const char *c = pn; *c && n + 1 < sizeof name; c++) {
        char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
        if (!label_char(ch, 0))
            ch = '-';
        if (n == 0 && !alnum(ch))
            continue;
        name[n++] = ch;
    }
    while (n > 0 && !alnum(name[n - 1]))
        n--;
    name[n] = '\0';
    if ((rc = fp__outbuf_open(&f, path,
                              "# Kueue Topology (topology-aware scheduling), written by fabplan "
                              "plan (docs/outputs.md):\n# levels coarse to fine, the labels of "
                              "k8s-node-labels.sh, then kubernetes.io/hostname.\n"
                              "# kueue.x-k8s.io/v1beta2, Kueue's current API; an older Kueue "
                              "reads the same spec as v1alpha1.\napiVersion: "
                              "kueue.x-k8s.io/v1beta2\nkind: Topology\nmetadata:\n  name: \"",
                              err)) != FP_OK)
        return rc;
    fp__outbuf_str(f, n ? name : "fabplan");
    fp__outbuf_str(f, "\"\nspec:\n  levels:\n");
    for (int i = k.n - 1; i >= 0; i--) {
        fp__outbuf_str(f, "  - nodeLabel: \"");
        fp__outbuf_str(f, k.key[i]);
        fp__outbuf_str(f, "\"\n");
    }
    fp__outbuf_str(f, "  - nodeLabel: \"kubernetes.io/hostname\"\n");
    return fp__outbuf_close(f, path, FP_OK, err);
}
