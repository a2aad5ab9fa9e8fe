/* The Slurm topology files (--formats slurm) against the rules of Slurm's man pages
 * (topology.conf(5), topology.yaml(5)), read back with a hostlist expander of the test's own:
 * topology/tree: every node under exactly one leaf switch, one top, names at most 64 characters
 * and unique; topology/block: every block at least the planning base block size (the first
 * BlockSizes value) of nodes, each later size a power of two times the one before; the YAML form
 * the same switches and blocks. Slurm 22.05 (Debian's, tests/write/slurm_test.sh) has no block
 * plugin and no topology.yaml: these rules are checked here. */
#include <criterion/criterion.h>
#include "helpers.h"
#include "xlsx_read.h"

typedef struct names {
    int n, cap;
    char (*name)[72];
} names;

static char *add_name(names *s)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->name = realloc(s->name, sizeof *s->name * (size_t)s->cap);
        cr_assert_not_null(s->name);
    }
    return s->name[s->n++];
}

static void names_free(names *s)
{
    if (s) {
        free(s->name);
        free(s);
    }
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Expand one Slurm hostlist expression ("su01-node-[001-018],spine") into out (appended). */
static void expand(const char *expr, names *out)
{
    const char *p = expr;
    while (*p) {
        const char *open = NULL, *end = p;
        while (*end && (*end != ',' || open)) {
            if (*end == '[')
                open = end;
            else if (*end == ']')
                open = NULL;
            end++;
        }
        const char *br = memchr(p, '[', (size_t)(end - p));
        if (br == NULL) {
            snprintf(add_name(out), 72, "%.*s", (int)(end - p), p);
        } else {
            const char *q = br + 1;
            while (q < end && *q != ']') {
                char *e;
                long lo = strtol(q, &e, 10), hi = lo;
                int w = (int)(e - q);
                if (*e == '-')
                    hi = strtol(e + 1, &e, 10);
                for (long v = lo; v <= hi; v++) {
                    snprintf(add_name(out), 72, "%.*s%0*ld", (int)(br - p), p, w, v);
                }
                q = *e == ',' ? e + 1 : e;
            }
        }
        p = *end == ',' ? end + 1 : end;
    }
}

static int has(const names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->name[i], name) == 0)
            return 1;
    return 0;
}

static char *write_slurm(const char *preset, unsigned extra, char *dir, size_t n)
{
    fp_plan *p = plan_from_preset(preset);
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_SLURM | extra;
    scratch_dir(dir, n, "sched");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s (%s)", err.msg, err.where);
    fp_plan_free(p);
    return dir;
}

static char *read_in(const char *dir, const char *file)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return slurp(path);
}

/* The value of key=VALUE on a line (NULL when absent), copied into buf. */
static const char *field(const char *line, const char *key, char *buf, size_t n)
{
    const char *k = strstr(line, key);
    if (k == NULL)
        return NULL;
    k += strlen(key);
    size_t len = strcspn(k, " \n");
    snprintf(buf, n, "%.*s", (int)len, k);
    return buf;
}

typedef struct sw {
    char name[72];
    names *nodes, *children;
} sw;

/* topology.conf's SwitchName lines. */
static int read_tree(const char *text, sw *out, int max)
{
    int n = 0;
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "SwitchName=", 11) != 0)
            continue;
        char line[4096], v[4096];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(l, "\n"), l);
        cr_assert_lt(n, max);
        sw *s = &out[n++];
        field(line, "SwitchName=", s->name, sizeof s->name);
        s->nodes = calloc(1, sizeof *s->nodes);
        s->children = calloc(1, sizeof *s->children);
        if (field(line, " Nodes=", v, sizeof v))
            expand(v, s->nodes);
        if (field(line, " Switches=", v, sizeof v))
            expand(v, s->children);
    }
    return n;
}

static void free_tree(sw *s, int n)
{
    for (int i = 0; i < n; i++) {
        names_free(s[i].nodes);
        names_free(s[i].children);
    }
}

/* DGX H100 4-SU, 2 tiers rail-optimized (NVIDIA's RA: 4 SUs of 32 DGX, 8 rail leaves each):
 * 4 leaf groups su01..su04 of 32 nodes and one top holding them; no NVLink domain beyond a DGX,
 * so no topology-block.conf. */
Test(sched, slurm_tree_dgx_h100)
{
    char dir[256];
    write_slurm("dgx-h100-4su", 0, dir, sizeof dir);
    char *conf = read_in(dir, "topology.conf");
    sw s[16];
    int n = read_tree(conf, s, 16);
    cr_assert_eq(n, 5);
    for (int i = 0; i < 4; i++) {
        char want[16];
        snprintf(want, sizeof want, "su%02d", i + 1);
        cr_expect_str_eq(s[i].name, want);
        cr_expect_eq(s[i].nodes->n, 32);
        cr_expect_eq(s[i].children->n, 0);
        for (int k = 0; k < 32; k++) {
            char node[32];
            snprintf(node, sizeof node, "su%02d-node-%02d", i + 1, k + 1);
            cr_expect(has(s[i].nodes, node), "%s not under %s", node, want);
        }
    }
    cr_expect_str_eq(s[4].name, "spine");
    cr_expect_eq(s[4].children->n, 4);
    cr_expect_eq(s[4].nodes->n, 0);
    char path[300];
    snprintf(path, sizeof path, "%s/topology-block.conf", dir);
    cr_expect_neq(access(path, F_OK), 0, "a DGX H100 plan has no NVLink domain beyond a server");
    free_tree(s, n);
    free(conf);
}

/* GB200 NVL72, 2 SUs of 8 racks x 18 trays (288 nodes): topology/block has one block per rack,
 * 16 blocks of 18, each block's nodes in one rack (netbox-devices.csv's rack column, from the
 * layout stage: not the writer's grouping), every node in one block. BlockSizes by the man
 * page's rule: the base 18 (every block has at least 18 nodes), then each a power of two times
 * the one before, up to the 16 blocks = 2^4: 18, 36, 72, 144, 288. */
Test(sched, slurm_block_gb200_one_block_per_rack)
{
    char dir[256];
    write_slurm("gb200-nvl72-su", FP_WRITE_NETBOX, dir, sizeof dir);
    char *text = read_in(dir, "topology-block.conf");
    char path[300];
    snprintf(path, sizeof path, "%s/netbox-devices.csv", dir);
    csv_file dev = csv_load(path);
    names *all = calloc(1, sizeof *all);
    int blocks = 0;
    char sizes[128] = "";
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        char line[4096], v[4096];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(l, "\n"), l);
        if (strncmp(line, "BlockSizes=", 11) == 0) {
            field(line, "BlockSizes=", sizes, sizeof sizes);
            continue;
        }
        if (strncmp(line, "BlockName=", 10) != 0)
            continue;
        blocks++;
        names *nd = calloc(1, sizeof *nd);
        cr_assert_not_null(field(line, " Nodes=", v, sizeof v));
        expand(v, nd);
        cr_expect_eq(nd->n, 18, "block %d has %d nodes", blocks, nd->n);
        char rack[64] = "";
        for (int k = 0; k < nd->n; k++) {
            cr_expect(!has(all, nd->name[k]), "%s in two blocks", nd->name[k]);
            snprintf(add_name(all), 72, "%s", nd->name[k]);
            for (long r = 1; r < dev.n; r++) {
                char *f[12];
                char copy[1024];
                snprintf(copy, sizeof copy, "%s", dev.line[r]);
                if (csv_split(copy, f, 12) < 7 || strcmp(f[0], nd->name[k]) != 0)
                    continue;
                if (rack[0] == '\0')
                    snprintf(rack, sizeof rack, "%s", f[6]);
                cr_expect_str_eq(f[6], rack, "%s is not in its block's rack", nd->name[k]);
            }
        }
        cr_expect_neq(rack[0], '\0');
        names_free(nd);
    }
    cr_expect_eq(blocks, 16);
    cr_expect_eq(all->n, 288);
    cr_expect_str_eq(sizes, "18,36,72,144,288");
    /* the rule itself, on what was written */
    long prev = 0;
    for (char *p = sizes; *p;) {
        char *e;
        long v = strtol(p, &e, 10);
        if (prev == 0)
            cr_expect_leq(v, 18, "the base is at most the smallest block");
        else
            cr_expect(v % prev == 0 && ((v / prev) & (v / prev - 1)) == 0 && v > prev,
                      "%ld is not a power of two times %ld", v, prev);
        prev = v;
        p = *e == ',' ? e + 1 : e;
    }
    csv_free(&dev);
    names_free(all);
    free(text);
}

/* topology.yaml holds the same tree and blocks: each topology's first attribute is
 * `topology`, exactly one has cluster_default: true, every switch and block of the .conf files
 * appears with the same member list. */
Test(sched, slurm_yaml_matches_the_conf_files)
{
    char dir[256];
    write_slurm("gb200-nvl72-su", 0, dir, sizeof dir);
    char *yaml = read_in(dir, "topology.yaml"), *conf = read_in(dir, "topology.conf");
    char *block = read_in(dir, "topology-block.conf");
    int defaults = 0, topologies = 0;
    for (const char *l = yaml; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "- ", 2) == 0) {
            topologies++;
            cr_expect_eq(strncmp(l, "- topology: ", 12), 0, "an entry not starting with topology");
        }
        defaults += strncmp(l, "  cluster_default: true\n", 24) == 0;
    }
    cr_expect_eq(topologies, 2);
    cr_expect_eq(defaults, 1);
    /* each SwitchName=X Nodes=L / Switches=L as a yaml switch X with nodes / children L */
    const char *const kinds[][3] = { { "SwitchName=", " Nodes=", "nodes" },
                                     { "SwitchName=", " Switches=", "children" },
                                     { "BlockName=", " Nodes=", "nodes" } };
    int seen = 0;
    for (int c = 0; c < 2; c++)
        for (const char *l = c ? block : conf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
            char line[4096], name[128], list[4096], want[4400];
            snprintf(line, sizeof line, "%.*s", (int)strcspn(l, "\n"), l);
            for (int k = c ? 2 : 0; k < (c ? 3 : 2); k++) {
                if (strncmp(line, kinds[k][0], strlen(kinds[k][0])) != 0 ||
                    !field(line, kinds[k][1], list, sizeof list))
                    continue;
                field(line, kinds[k][0], name, sizeof name);
                snprintf(want, sizeof want, "- %s: \"%s\"\n        %s: \"%s\"\n",
                         c ? "block" : "switch", name, kinds[k][2], list);
                cr_expect_not_null(strstr(yaml, want), "topology.yaml lacks %s", want);
                seen++;
            }
        }
    /* leaf groups su01.1-su01.5 and su02.1-su02.5 (a unit's rails on 5 rail-aligned leaves
     * each), spine; 16 racks */
    cr_expect_eq(seen, 10 + 1 + 16);
    cr_expect_not_null(strstr(yaml, "    block_sizes:\n      - 18\n      - 36\n      - 72\n"
                                    "      - 144\n      - 288\n    blocks:\n"));
    free(yaml);
    free(conf);
    free(block);
}

/* Every preset's tree by topology/tree's rules: names unique and at most 64 characters, every
 * switch with members, every node (the plan's servers: fp_plan_summary) under exactly one leaf,
 * every non-top switch under exactly one parent, one switch that is nobody's child (the top). */
Test(sched, slurm_tree_rules_every_preset, .timeout = TEST_TIMEOUT(120))
{
    const char *const presets[] = { "dgx-h100-4su", "gb200-nvl72-su", "fat-tree-k64",
                                    "dual-plane-32k", "dgx-b200-64su" };
    for (size_t k = 0; k < sizeof presets / sizeof presets[0]; k++) {
        fp_plan *p = plan_from_preset(presets[k]);
        fp_summary sum;
        fp_plan_summary(p, &sum);
        fp_plan_free(p);
        char dir[256];
        write_slurm(presets[k], 0, dir, sizeof dir);
        char *conf = read_in(dir, "topology.conf");
        static sw s[20000];
        int n = read_tree(conf, s, 20000), tops = 0;
        names *sws = calloc(1, sizeof *sws), *nodes = calloc(1, sizeof *nodes);
        for (int i = 0; i < n; i++) {
            cr_expect_leq(strlen(s[i].name), 64);
            cr_expect(s[i].nodes->n + s[i].children->n > 0, "%s: %s has no members", presets[k],
                      s[i].name);
            snprintf(add_name(sws), 72, "%s", s[i].name);
            for (int j = 0; j < s[i].nodes->n; j++)
                snprintf(add_name(nodes), 72, "%s", s[i].nodes->name[j]);
        }
        /* unique switch names; each node once */
        qsort(sws->name, (size_t)sws->n, sizeof *sws->name, cmp_name);
        for (int i = 1; i < sws->n; i++)
            cr_expect_str_neq(sws->name[i - 1], sws->name[i], "%s: switch named twice", presets[k]);
        qsort(nodes->name, (size_t)nodes->n, sizeof *nodes->name, cmp_name);
        for (int i = 1; i < nodes->n; i++)
            cr_expect_str_neq(nodes->name[i - 1], nodes->name[i], "%s: a node under two leaves",
                              presets[k]);
        cr_expect_eq(nodes->n, sum.servers + sum.spare_servers, "%s: %d nodes under leaves, %lld servers", presets[k],
                     nodes->n, (long long)sum.servers);
        /* parents: each child named once over all Switches= lists, and a known switch */
        int *parents = calloc((size_t)n + 1, sizeof *parents);
        for (int j = 0; j < n; j++)
            for (int c = 0; c < s[j].children->n; c++) {
                char(*hit)[72] = bsearch(s[j].children->name[c], sws->name, (size_t)sws->n,
                                         sizeof *sws->name, cmp_name);
                cr_expect_not_null(hit, "%s: child %s is no switch", presets[k],
                                   s[j].children->name[c]);
                if (hit)
                    parents[hit - sws->name]++;
            }
        for (int i = 0; i < n; i++) {
            cr_expect_leq(parents[i], 1, "%s: %s has %d parents", presets[k], sws->name[i],
                         parents[i]);
            tops += parents[i] == 0;
        }
        cr_expect_eq(tops, 1, "%s: %d tops", presets[k], tops);
        free(parents);
        names_free(sws);
        names_free(nodes);
        free_tree(s, n);
        free(conf);
    }
}

/* ---- Kubernetes: k8s-node-labels.sh and kueue-topology.yaml ---- */

static char *write_k8s(const char *preset, const char *keys, char *dir, size_t n)
{
    fp_plan *p = plan_from_preset(preset);
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_K8S | FP_WRITE_SLURM;
    o.k8s_labels = keys;
    scratch_dir(dir, n, "k8s");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s (%s)", err.msg, err.where);
    fp_plan_free(p);
    return dir;
}

/* The Kueue Topology's levels (nodeLabel values, in file order) into out; their count. */
static int kueue_levels(const char *yaml, char out[20][128])
{
    int n = 0;
    for (const char *l = strstr(yaml, "  - nodeLabel: \""); l; l = strstr(l + 1, "  - nodeLabel: \"")) {
        cr_assert_lt(n, 20);
        const char *v = l + 16;
        snprintf(out[n++], 128, "%.*s", (int)strcspn(v, "\""), v);
    }
    return n;
}

/* Kueue's rules on Topology.spec.levels (Kueue docs, concepts/topology: 1 to 16 items, each
 * nodeLabel unique, kubernetes.io/hostname only at the last level), and the order expected:
 * coarse to fine, ending with the host name. */
static void expect_kueue(const char *dir, const char *const *want, int n_want)
{
    char *yaml = read_in(dir, "kueue-topology.yaml");
    char lv[20][128];
    int n = kueue_levels(yaml, lv);
    cr_expect(n >= 1 && n <= 16, "%d levels", n);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            cr_expect_str_neq(lv[i], lv[j], "level %s twice", lv[i]);
    cr_expect_str_eq(lv[n - 1], "kubernetes.io/hostname");
    cr_expect_eq(n, n_want);
    for (int i = 0; i < n && i < n_want; i++)
        cr_expect_str_eq(lv[i], want[i], "level %d", i + 1);
    cr_expect_not_null(strstr(yaml, "\nkind: Topology\n"));
    free(yaml);
}

/* The value of label key on node's kubectl line ("" when absent). */
static void label_of(const char *sh, const char *node, const char *key, char *out, size_t n)
{
    char line[128], pat[200];
    snprintf(line, sizeof line, "kubectl label node --overwrite %s ", node);
    const char *l = strstr(sh, line);
    out[0] = '\0';
    if (l == NULL)
        return;
    size_t len = strcspn(l, "\n");
    snprintf(pat, sizeof pat, " %s=", key);
    const char *k = strstr(l, pat);
    if (k == NULL || (size_t)(k - l) > len)
        return;
    k += strlen(pat);
    snprintf(out, n, "%.*s", (int)strcspn(k, " \n"), k);
}

/* GB200 NVL72 (2 tiers, NVLink domains of 18 trays): two labels, the leaf group and the NVLink
 * domain; Kueue levels coarse to fine: leaf group, NVLink domain, host name. Every one of the
 * 288 trays has a kubectl line; its labels name its Slurm leaf switch and the NVLink block of
 * topology-block.conf holding it. Rail-aligned, a rail's 144 trays are on 5 leaves of 29 (the
 * last 28), the same leaf of every rail for one tray: tray k of a unit (0-based) is in leaf
 * group suNN.(k / 29 + 1), and in block 8 x unit + k / 18 + 1 (18 trays a rack, 8 racks a
 * unit). */
Test(sched, k8s_labels_gb200)
{
    char dir[256];
    write_k8s("gb200-nvl72-su", NULL, dir, sizeof dir);
    const char *const want[] = { "topology.fabplan.io/leaf-group", "topology.fabplan.io/nvlink-domain",
                                 "kubernetes.io/hostname" };
    expect_kueue(dir, want, 3);
    char *sh = read_in(dir, "k8s-node-labels.sh");
    cr_expect_eq(strncmp(sh, "#!/bin/sh\n", 10), 0);
    int lines = 0;
    for (const char *l = strstr(sh, "\nkubectl label node"); l; l = strstr(l + 1, "\nkubectl label node"))
        lines++;
    cr_expect_eq(lines, 288);
    for (int su = 0; su < 2; su++)
        for (int k = 0; k < 144; k++) {
            char node[32], v[64], want_su[16], want_nvl[16];
            snprintf(node, sizeof node, "su%02d-node-%03d", su + 1, k + 1);
            snprintf(want_su, sizeof want_su, "su%02d.%d", su + 1, k / 29 + 1);
            snprintf(want_nvl, sizeof want_nvl, "nvl%02d", 8 * su + k / 18 + 1);
            label_of(sh, node, "topology.fabplan.io/leaf-group", v, sizeof v);
            cr_expect_str_eq(v, want_su, "%s", node);
            label_of(sh, node, "topology.fabplan.io/nvlink-domain", v, sizeof v);
            cr_expect_str_eq(v, want_nvl, "%s", node);
        }
    /* the same blocks as topology-block.conf: nvl02 is su01-node-[019-036] */
    char *block = read_in(dir, "topology-block.conf");
    cr_expect_not_null(strstr(block, "\nBlockName=nvl02 Nodes=su01-node-[019-036]\n"));
    free(block);
    free(sh);
}

/* The default preset (16,384 GPUs, 3 tiers, rail-optimized, no NVLink domain beyond a server)
 * with Topograph's keys: block = the scalable unit, spine = the pod; Kueue: spine, block, host.
 * Each node's spine label is the Slurm parent of its block (topology.conf's pod line). */
Test(sched, k8s_labels_topograph_keys)
{
    char dir[256];
    write_k8s("default", "topograph", dir, sizeof dir);
    const char *const want[] = { "network.topology.nvidia.com/spine",
                                 "network.topology.nvidia.com/block", "kubernetes.io/hostname" };
    expect_kueue(dir, want, 3);
    char *sh = read_in(dir, "k8s-node-labels.sh"), *conf = read_in(dir, "topology.conf");
    sw s[200];
    int n = read_tree(conf, s, 200);
    const char *const nodes[] = { "su01-node-01", "su05-node-32", "su64-node-17" };
    for (size_t i = 0; i < 3; i++) {
        char blk[64], spine[64], want_su[8];
        label_of(sh, nodes[i], "network.topology.nvidia.com/block", blk, sizeof blk);
        label_of(sh, nodes[i], "network.topology.nvidia.com/spine", spine, sizeof spine);
        snprintf(want_su, sizeof want_su, "%.4s", nodes[i]);
        cr_expect_str_eq(blk, want_su);
        int found = 0;
        for (int j = 0; j < n; j++)
            if (strcmp(s[j].name, spine) == 0)
                found = has(s[j].children, blk);
        cr_expect(found, "%s: spine label %s does not hold %s in topology.conf", nodes[i], spine, blk);
    }
    free_tree(s, n);
    free(sh);
    free(conf);
}

/* Keys of one's own, one per level (fine to coarse); wrong counts, invalid keys, a repeated
 * key and kubernetes.io/hostname fail with FP_EINVAL before any file is written. */
Test(sched, k8s_label_keys_checked)
{
    char dir[256];
    write_k8s("dgx-h100-4su", "example.com/su", dir, sizeof dir);
    const char *const want[] = { "example.com/su", "kubernetes.io/hostname" };
    expect_kueue(dir, want, 2);
    const char *const bad[] = { "a/b,c/d", "", "example.com/", "-x", "kubernetes.io/hostname",
                                "Upper.Case/x", "a/b/c" };
    fp_plan *p = plan_from_preset("dgx-h100-4su");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fp_error err = { 0 };
        fp_write_options o = FP_WRITE_OPTIONS_INIT;
        o.formats = FP_WRITE_K8S;
        o.k8s_labels = bad[i];
        char d2[256];
        scratch_dir(d2, sizeof d2, "k8s-bad");
        cr_expect_eq(fp_plan_write(p, d2, &o, &err), FP_EINVAL, "\"%s\" accepted", bad[i]);
        cr_expect_eq(count_files(d2), 0, "\"%s\": files written", bad[i]);
    }
    fp_plan_free(p);
}
