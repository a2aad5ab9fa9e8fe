/* fabplan CLI — plan and validate. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

/* Names for --formats (the summary names the files themselves: fp_plan_write_names). */
typedef struct format_name {
    const char *name;
    unsigned bits;
} format_name;

static const format_name format_names[] = {
    { "json", FP_WRITE_JSON },
    { "links", FP_WRITE_LINKS },
    { "cables", FP_WRITE_CABLES },
    { "bom", FP_WRITE_BOM },
    { "xlsx", FP_WRITE_XLSX },
    { "labels", FP_WRITE_LABELS },
    { "netbox", FP_WRITE_NETBOX },
    { "topology", FP_WRITE_TOPOLOGY },
    { "avd", FP_WRITE_AVD },
    { "report", FP_WRITE_REPORT },
    { "diagrams", FP_WRITE_OVERVIEW | FP_WRITE_FIGURE | FP_WRITE_DETAIL | FP_WRITE_FLOOR },
    { "fabric", FP_WRITE_OVERVIEW },
    { "figure", FP_WRITE_FIGURE },
    { "floor", FP_WRITE_FLOOR },
    { "detail", FP_WRITE_DETAIL },
    { "ibnetdiscover", FP_WRITE_IBNET },
    { "ptm", FP_WRITE_PTM },
    { "cvt", FP_WRITE_CVT },
    { "slurm", FP_WRITE_SLURM },
    { "k8s", FP_WRITE_K8S },
    { "png", FP_WRITE_PNG },
    { "all", FP_WRITE_DEFAULT },
};
#define N_FORMAT_NAMES (sizeof format_names / sizeof format_names[0])
#define DIAGRAM_BITS (FP_WRITE_OVERVIEW | FP_WRITE_FIGURE | FP_WRITE_DETAIL | FP_WRITE_FLOOR)

void cli_format_names(FILE *f, const char *sep)
{
    for (size_t k = 0; k < N_FORMAT_NAMES; k++)
        fprintf(f, "%s%s", k ? sep : "", format_names[k].name);
}

/* "json,links,xlsx" -> FP_WRITE_* bits; 0 (message printed) when a name is unknown or empty. */
static unsigned parse_formats(const char *list)
{
    unsigned bits = 0;
    const char *p = list;
    while (1) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        size_t k = 0;
        while (k < N_FORMAT_NAMES &&
               (strlen(format_names[k].name) != len || strncmp(format_names[k].name, p, len) != 0))
            k++;
        if (k == N_FORMAT_NAMES) {
            fprintf(stderr, "fabplan: --formats: unknown output \"%.*s\" in \"%s\"; expected a comma "
                            "list of: ", (int)len, p, list);
            cli_format_names(stderr, ", ");
            fputc('\n', stderr);
            return 0;
        }
        bits |= format_names[k].bits;
        if (!e)
            return bits;
        p = e + 1;
    }
}

static void plan_usage(FILE *f)
{
    fputs("usage: fabplan plan [SPEC] [-o DIR] [options]\n"
          "Build the fabric for SPEC (a JSON file; the built-in default when omitted) and write\n"
          "its documents (plan.json, links.csv, cables.csv, bom.csv, plan.xlsx, labels.csv,\n"
          "the NetBox import set (netbox-*.csv), topology.csv, report.html (one page for a\n"
          "reviewer), and the fabric, group figure, floor and one unit's detail diagrams as .dot\n"
          "and .svg) into DIR (default ./out). Prints a summary on stdout.\n\n",
          f);
    cli_spec_opts_help(f, NULL);
    cli_fail_opts_help(f);
    fputs("  -o, --out DIR       output directory (default out)\n"
          "  --formats LIST      write only these outputs (comma list, default all): json, links,\n"
          "                      cables, bom, xlsx, labels, netbox, topology, avd, report,\n"
          "                      diagrams (or one of fabric, figure, floor, detail),\n"
          "                      ibnetdiscover, ptm, cvt, slurm, k8s, png, all. all is every\n"
          "                      output but png, ibnetdiscover (the planned InfiniBand fabric\n"
          "                      for ibsim and fabplan verify), ptm (topology.dot for Cumulus\n"
          "                      PTM), cvt (cvt-p2p.xlsx for NVIDIA's Cable Validation Tool),\n"
          "                      slurm (topology.conf, topology-block.conf, topology.yaml for\n"
          "                      Slurm's topology/tree and topology/block) and k8s\n"
          "                      (k8s-node-labels.sh, kueue-topology.yaml). E.g. --formats\n"
          "                      json,bom to iterate quickly: plan.xlsx alone takes ~20 s at\n"
          "                      131,072 GPUs. Only the planning stages these outputs read are\n"
          "                      built (links, topology, avd, detail: the fabric alone)\n"
          "  --no-xlsx           everything but plan.xlsx (and its --split-by workbooks)\n"
          "  --paper a4|letter   paper the workbook's sheets print on (default a4)\n"
          "  --split-by row|hall also write one workbook per row (DIR/by-row/) or hall\n"
          "                      (DIR/by-hall/) for crews that work a row at a time\n"
          "  --detail su:N|pod:N draw scalable unit or pod N in detail (default: the first); the\n"
          "                      group figure shows the group (pod) holding it\n"
          "  --k8s-labels fabplan|topograph|KEY,..\n"
          "                      node-label keys of --formats k8s: fabplan's\n"
          "                      (topology.fabplan.io/leaf-group, ...), NVIDIA Topograph's\n"
          "                      (network.topology.nvidia.com/block, ...), or one key per level,\n"
          "                      fine to coarse\n"
          "  --labels plain|tia606\n"
          "                      identifiers on labels.csv: R05K12-U40 swp17s0 (plain), or\n"
          "                      TIA-606 style 1A.E12-40:swp17s0 (floor-grid rack, U, port)\n"
          "  --png               also render every diagram as PNG\n"
          "  -q, --quiet         no summary on stdout\n",
          f);
}

/* Planning stages, on the same line as the files' progress after them. */
static void plan_progress(const char *stage, double frac, void *payload)
{
    (void)payload;
    fprintf(stderr, "\rplanning: %-9s %3.0f%%", stage, frac * 100);
    if (frac >= 1.0)
        fputc('\n', stderr);
}

static void progress(const char *stage, double frac, void *payload)
{
    (void)payload;
    fprintf(stderr, "\r%-12s %3.0f%%", stage, frac * 100);
    if (frac >= 1.0)
        fputc('\n', stderr);
}

/* Racks, media per boundary, BOM totals and the five longest cable runs. */
static void print_physical(const fp_plan *plan)
{
    fp_totals t;
    size_t nr = fp_plan_rack_count(plan), nc = fp_plan_cable_count(plan);
    int64_t compute = 0, over = 0;
    int halls = 0, rows = 0;
    for (size_t i = 0; i < nr; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        compute += strcmp(r.role, "compute") == 0;
        over += r.over_limit;
        if (r.hall > halls)
            halls = r.hall;
        if (r.row > rows)
            rows = r.row;
    }
    fp_power_domains pd;
    fp_plan_power_domains(plan, &pd);
    char g[4][32];
    printf("  layout: %s racks (%s compute, %s network), %d hall%s, up to %d rows per hall, %s "
           "over the power limit\n",
           fp_grouped_text((double)nr, 0, g[0], sizeof g[0]),
           fp_grouped_text((double)compute, 0, g[1], sizeof g[1]),
           fp_grouped_text((double)(nr - (size_t)compute), 0, g[2], sizeof g[2]), halls,
           halls == 1 ? "" : "s", rows, fp_grouped_text((double)over, 0, g[3], sizeof g[3]));
    printf("  power: largest row %s kW (limit %s kW, %s over), largest hall %.2f MW (limit %.1f "
           "MW, %lld over)\n",
           fp_grouped_text(pd.row_max_w / 1000, 1, g[0], sizeof g[0]),
           fp_grouped_text(pd.row_limit_w / 1000, 0, g[1], sizeof g[1]),
           fp_grouped_text((double)pd.rows_over, 0, g[2], sizeof g[2]), pd.hall_max_w / 1e6,
           pd.hall_limit_w / 1e6, (long long)pd.halls_over);
    {
        size_t nt = fp_plan_tray_count(plan);
        int64_t over_t = 0;
        fp_tray_info worst = { 0 };
        for (size_t i = 0; i < nt; i++) {
            fp_tray_info tr;
            fp_plan_tray(plan, i, &tr, NULL);
            over_t += tr.over;
            if (tr.fill > worst.fill)
                worst = tr;
        }
        if (nt > 0)
            printf("  trays: fullest %s at %.0f%% of its fill (%s cables, %d tier%s), %s row "
                   "tray%s over-full\n",
                   worst.row, worst.fill * 100,
                   fp_grouped_text((double)worst.cables, 0, g[0], sizeof g[0]), worst.tiers,
                   worst.tiers == 1 ? "" : "s",
                   fp_grouped_text((double)over_t, 0, g[1], sizeof g[1]), over_t == 1 ? "" : "s");
    }
    int64_t by[FP_MEDIUM_COUNT] = { 0 };
    double top[5] = { 0 };
    size_t top_i[5] = { 0 };
    for (size_t l = 0; l < fp_plan_link_count(plan); l++) {
        fp_medium m;
        if (fp_plan_link_medium(plan, l, &m, NULL) == FP_OK)
            by[m]++;
    }
    for (int b = 0; b < (int)fp_plan_tier_count(plan); b++) {
        fp_media_audit ma;
        fp_tier_info lo, hi;
        if (fp_plan_media_audit(plan, b, &ma, NULL) != FP_OK ||
            fp_plan_tier(plan, (size_t)b, &hi, NULL) != FP_OK)
            continue;
        if (b > 0)
            fp_plan_tier(plan, (size_t)b - 1, &lo, NULL);
        char m1[32], m2[32], m3[32];
        printf("  media audit %s-%s: chosen $%s", b > 0 ? lo.role : "nic", hi.role,
               fp_grouped_text(ma.chosen_usd, 0, m1, sizeof m1));
        if (ma.links_with_alternative > 0) {
            int alt = 0;
            for (int m = 1; m < FP_MEDIUM_COUNT; m++)
                if (ma.alternative_links[m] > ma.alternative_links[alt])
                    alt = m;
            printf("; the %s links another medium fits: $%s, the cheapest alternative $%s (+$%s, "
                   "mostly %s)",
                   fp_grouped_text((double)ma.links_with_alternative, 0, g[0], sizeof g[0]),
                   fp_grouped_text(ma.chosen_usd_of_those, 0, m1, sizeof m1),
                   fp_grouped_text(ma.alternative_usd, 0, m2, sizeof m2),
                   fp_grouped_text(ma.alternative_usd - ma.chosen_usd_of_those, 0, m3, sizeof m3),
                   fp_medium_name((fp_medium)alt));
        }
        printf("\n");
    }
    printf("  links by medium:");
    for (int m = 0; m < FP_MEDIUM_COUNT; m++)
        if (m != FP_MEDIUM_TP || by[m] > 0)     /* twisted pair only where it is used */
            printf(" %s %s", fp_medium_name((fp_medium)m),
                   fp_grouped_text((double)by[m], 0, g[0], sizeof g[0]));
    printf("\n");
    for (size_t i = 0; i < nc; i++) {
        double route_m = fp_plan_cable_route_m(plan, i);
        for (int k = 0; k < 5; k++)
            if (route_m > top[k]) {
                memmove(top + k + 1, top + k, (size_t)(4 - k) * sizeof *top);
                memmove(top_i + k + 1, top_i + k, (size_t)(4 - k) * sizeof *top_i);
                top[k] = route_m;
                top_i[k] = i;
                break;
            }
    }
    /* the compute fabric's (network 0); the whole cluster's follows with spec `networks` */
    char money[32], per_gpu[32];
    if (fp_plan_net_totals(plan, 0, &t, NULL) == FP_OK)
        printf("  BOM: $%s, %s kW network power; per GPU $%s, %.2f W, %.4f transceivers (%s "
               "modules, %s cables)\n",
               fp_grouped_text(t.cost, 0, money, sizeof money),
               fp_grouped_text(t.power_w / 1000, 1, g[0], sizeof g[0]),
               fp_grouped_text(t.cost_per_gpu, 2, per_gpu, sizeof per_gpu), t.power_w_per_gpu,
               t.transceivers_per_gpu,
               fp_grouped_text((double)t.transceivers, 0, g[1], sizeof g[1]),
               fp_grouped_text((double)t.cables, 0, g[2], sizeof g[2]));
    printf("  longest cable runs:\n");
    for (int k = 0; k < 5 && k < (int)nc; k++) {
        fp_cable_info c;
        fp_plan_cable(plan, top_i[k], &c, NULL);
        printf("    %s %6.1f m (stock %g m, %s %s) %s %s %s -> %s %s %s\n", c.id, c.route_m, c.stock_m,
               fp_medium_name(c.medium), c.part, c.a.loc.text, c.a.device_name, c.a.port,
               c.z[0].loc.text, c.z[0].device_name, c.z[0].port);
    }
}

static void print_summary(const fp_plan *plan)
{
    fp_summary s;
    fp_plan_summary(plan, &s);
    char g[4][32];
    printf("%s fabric: %s GPUs on %s servers, %d tier%s, %d plane%s\n",
           fp_topology_name(s.topology), fp_grouped_text((double)s.gpus, 0, g[0], sizeof g[0]),
           fp_grouped_text((double)s.servers, 0, g[1], sizeof g[1]), s.tiers,
           s.tiers == 1 ? "" : "s", s.planes, s.planes == 1 ? "" : "s");
    printf("  %s\n", s.tier_choice);
    printf("  %-12s %-20s %9s %6s %10s %10s %7s %10s %9s\n", "tier", "model", "switches", "ports",
           "used", "spare", "down:up", "links up", "min");
    for (size_t i = 0; i < fp_plan_tier_count(plan); i++) {
        fp_tier_info t;
        fp_plan_tier(plan, i, &t, NULL);
        char ratio[32];
        if (t.up_ports)
            fp_ratio_text(t.oversubscription, ratio, sizeof ratio);
        else
            snprintf(ratio, sizeof ratio, "-");
        char c[5][32];
        printf("  %d %-10s %-20s %9s %6d %10s %10s %7s %10s %9s\n", t.tier, t.role, t.model,
               fp_grouped_text((double)t.switches, 0, c[0], sizeof c[0]), t.ports_per_switch,
               fp_grouped_text((double)t.ports_used, 0, c[1], sizeof c[1]),
               fp_grouped_text((double)t.ports_spare, 0, c[2], sizeof c[2]), ratio,
               fp_grouped_text((double)t.links_up, 0, c[3], sizeof c[3]),
               fp_grouped_text((double)t.switches_min, 0, c[4], sizeof c[4]));
    }
    int64_t nic_leaf = 0;
    fp_plan_boundary_links(plan, 0, &nic_leaf, NULL);   /* every plan has boundary 0 */
    printf("  switches %s, links %s (NIC-leaf %s), capacity %s GPUs\n",
           fp_grouped_text((double)s.switches, 0, g[0], sizeof g[0]),
           fp_grouped_text((double)s.links, 0, g[1], sizeof g[1]),
           fp_grouped_text((double)nic_leaf, 0, g[2], sizeof g[2]),
           fp_grouped_text((double)s.capacity_gpus, 0, g[3], sizeof g[3]));
    for (size_t i = 0; i < fp_plan_note_count(plan); i++)
        printf("  note: %s\n", fp_plan_note(plan, i));
    if (fp_plan_stages(plan) & FP_STAGE_CABLING)
        print_physical(plan);
}

/* The stages the outputs asked for did not need, so were not built: said once, so a summary
 * without racks or BOM does not read as a plan without them. */
static void print_skipped(const fp_plan *plan)
{
    static const struct { unsigned bit; const char *name; } st[] = {
        { FP_STAGE_LAYOUT, "layout" }, { FP_STAGE_CABLING, "cabling" }, { FP_STAGE_BOM, "BOM" },
        { FP_STAGE_METRICS, "metrics" },
    };
    unsigned miss = FP_STAGE_ALL & ~fp_plan_stages(plan);
    int n = 0, k = 0;
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++)
        n += (miss & st[i].bit) != 0;
    if (n == 0)
        return;
    printf("  not built (the outputs chosen do not need them):");
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++)
        if (miss & st[i].bit)
            printf("%s %s", k++ == 0 ? "" : k == n ? " and" : ",", st[i].name);
    printf("\n");
}

/* Options only `plan` takes (NULL for other commands). */
typedef struct plan_opts {
    const char *detail;
    int png;
    fp_split_by split_by;
    fp_label_style labels;
    unsigned formats;   /* FP_WRITE_* from --formats; 0 = the default set */
    int no_xlsx;
    fp_paper paper;
    const char *k8s_labels;     /* --k8s-labels */
    int print_spec;             /* validate --print-spec */
} plan_opts;

/* The options only plan takes (--split-by, --labels, --formats, --paper, --no-xlsx, --png,
 * --detail) into *po: 1 when argv[*i] was one (*i on its value), 0 when not, -1 on a bad
 * value (message printed). */
static int plan_option(int argc, char **argv, int *i, plan_opts *po)
{
    if (strcmp(argv[*i], "--split-by") == 0) {
        const char *v = *i + 1 < argc ? argv[++*i] : "";
        if (strcmp(v, "row") == 0)
            po->split_by = FP_SPLIT_ROW;
        else if (strcmp(v, "hall") == 0)
            po->split_by = FP_SPLIT_HALL;
        else {
            fprintf(stderr, "fabplan: --split-by expects row or hall, got \"%s\"\n", v);
            return -1;
        }
        return 1;
    }
    if (strcmp(argv[*i], "--labels") == 0) {
        const char *v = *i + 1 < argc ? argv[++*i] : "";
        if (strcmp(v, "plain") == 0)
            po->labels = FP_LABELS_PLAIN;
        else if (strcmp(v, "tia606") == 0)
            po->labels = FP_LABELS_TIA606;
        else {
            fprintf(stderr, "fabplan: --labels expects plain or tia606, got \"%s\"\n", v);
            return -1;
        }
        return 1;
    }
    if (strcmp(argv[*i], "--formats") == 0 || strncmp(argv[*i], "--formats=", 10) == 0) {
        const char *v = argv[*i][9] == '=' ? argv[*i] + 10 : *i + 1 < argc ? argv[++*i] : NULL;
        if (v == NULL) {
            fprintf(stderr, "fabplan: --formats needs a comma list of: ");
            cli_format_names(stderr, ", ");
            fputc('\n', stderr);
            return -1;
        }
        unsigned bits = parse_formats(v);
        if (bits == 0)
            return -1;
        po->formats |= bits;
        return 1;
    }
    if (strcmp(argv[*i], "--paper") == 0 || strncmp(argv[*i], "--paper=", 8) == 0) {
        const char *v = argv[*i][7] == '=' ? argv[*i] + 8 : *i + 1 < argc ? argv[++*i] : "";
        if (strcmp(v, "a4") == 0 || strcmp(v, "A4") == 0)
            po->paper = FP_PAPER_A4;
        else if (strcmp(v, "letter") == 0 || strcmp(v, "Letter") == 0)
            po->paper = FP_PAPER_LETTER;
        else {
            fprintf(stderr, "fabplan: --paper expects a4 or letter, got \"%s\"\n", v);
            return -1;
        }
        return 1;
    }
    if (strcmp(argv[*i], "--no-xlsx") == 0) {
        po->no_xlsx = 1;
        return 1;
    }
    if (strcmp(argv[*i], "--png") == 0) {
        po->png = 1;
        return 1;
    }
    if (strcmp(argv[*i], "--k8s-labels") == 0 || strncmp(argv[*i], "--k8s-labels=", 13) == 0) {
        if (argv[*i][12] == '=')
            po->k8s_labels = argv[*i] + 13;
        else if (*i + 1 < argc)
            po->k8s_labels = argv[++*i];
        else {
            fprintf(stderr, "fabplan: --k8s-labels needs a value (fabplan, topograph or KEY,..)\n");
            return -1;
        }
        return 1;
    }
    if (strncmp(argv[*i], "--detail", 8) == 0 && (argv[*i][8] == '\0' || argv[*i][8] == '=')) {
        if (argv[*i][8] == '=')
            po->detail = argv[*i] + 9;
        else if (*i + 1 < argc)
            po->detail = argv[++*i];
        else {
            fprintf(stderr, "fabplan: --detail needs a value (su:N or pod:N)\n");
            return -1;
        }
        return 1;
    }
    return 0;
}

static void validate_usage(FILE *f);

static int parse_args(int argc, char **argv, cli_spec_opts *o, void (*usage)(FILE *), plan_opts *po)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return -1;
        }
        if (po && usage == validate_usage && strcmp(argv[i], "--print-spec") == 0) {
            po->print_spec = 1;
            continue;
        }
        if (po) {
            int pr = plan_option(argc, argv, &i, po);
            if (pr < 0)
                return EXIT_USAGE;
            if (pr > 0)
                continue;
        }
        int r = cli_parse_spec_opt(o, argc, argv, &i);
        if (r == 0)
            r = cli_parse_fail_opt(o, argc, argv, &i);
        if (r < 0)
            return EXIT_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_unknown_option(usage == plan_usage ? "plan" : "validate", argv[i]);
        }
        if (o->spec_path) {
            fprintf(stderr, "fabplan: more than one SPEC given (%s, %s)\n", o->spec_path, argv[i]);
            return EXIT_USAGE;
        }
        o->spec_path = argv[i];
    }
    return EXIT_OK;
}

/* The FP_WRITE_* set the options ask for; 0 (message printed) when they contradict each other
 * or leave nothing to write, so a mistake costs no planning time and touches no file. */
static unsigned resolve_formats(const plan_opts *po)
{
    unsigned f = po->formats ? po->formats : FP_WRITE_DEFAULT;
    if (po->png)
        f |= FP_WRITE_PNG;
    if (po->no_xlsx)
        f &= ~FP_WRITE_XLSX;
    if ((f & FP_WRITE_PNG) && !(f & DIAGRAM_BITS)) {
        fprintf(stderr, "fabplan: png renders the diagrams as PNG, but the outputs chosen have no "
                        "diagram; add diagrams (or fabric, figure, floor, detail) to --formats\n");
        return 0;
    }
    if (po->split_by != FP_SPLIT_NONE && !(f & FP_WRITE_XLSX)) {
        fprintf(stderr, "fabplan: --split-by writes workbooks per row or hall, but the outputs chosen "
                        "leave out xlsx; add xlsx to --formats (and drop --no-xlsx)\n");
        return 0;
    }
    if (po->detail && !(f & (FP_WRITE_DETAIL | FP_WRITE_FIGURE))) {
        fprintf(stderr, "fabplan: --detail chooses the detail diagram (and the group figure's group), "
                        "but the outputs chosen leave both out; add detail (or diagrams) to --formats\n");
        return 0;
    }
    if ((f & ~FP_WRITE_PNG) == 0) {
        fprintf(stderr, "fabplan: nothing to write: --no-xlsx removes the only output --formats chose\n");
        return 0;
    }
    return f;
}

/* The summary's list of the files written: each name as the folder lists it (a --split-by
 * folder with a '/'), wrapped under "  wrote DIR/ ...:" at 100 columns. */
typedef struct written_list {
    int col, any;
} written_list;

static void print_name(const char *name, int is_dir, void *arg)
{
    written_list *w = arg;
    int len = (int)strlen(name) + (is_dir ? 1 : 0);
    if (w->any && w->col + len + 2 > 100) {
        printf(",\n   ");
        w->col = 3;
    } else if (w->any) {
        printf(",");
        w->col++;
    }
    w->any = 1;
    printf(" %s%s", name, is_dir ? "/" : "");
    w->col += len + 1;
}

static void print_skip(const char *what, const char *why, void *arg)
{
    (void)arg;
    printf("  not written: %s: %s\n", what, why);
}

/* What the folder now holds, exactly: every file written (fp_plan_write_names), the manifest
 * naming them, and each format asked for that this plan has no file for, with the reason. */
static void print_written(const char *dir, const fp_plan *plan, const fp_write_options *wo)
{
    size_t n = fp_plan_write_names(plan, wo, NULL, NULL);
    if (n == 0) {
        printf("  wrote no document into %s/ (its .fabplan-manifest lists none)\n", dir);
    } else {
        written_list w = { 0 };
        printf("  wrote %s/ (%zu document%s, listed in %s/.fabplan-manifest):\n   ", dir, n,
               n == 1 ? "" : "s", dir);
        w.col = 3;
        fp_plan_write_names(plan, wo, print_name, &w);
        printf("\n");
    }
    fp_plan_write_skipped(plan, wo, print_skip, NULL);
}

/* Files of another plan left beside this one: a name fabplan writes for this plan with some
 * format (or a --split-by folder) that this run did not write and that is in dir. A folder
 * written by fabplan since 0.2 never holds one (the manifest's earlier outputs are removed);
 * one without a manifest, or with files copied in, may, and nothing there is touched. */
typedef struct stale_names {
    const char *dir;
    const fp_plan *plan;
    const fp_write_options *now;
    char list[400];
    size_t n;
} stale_names;

static void written_now(const char *name, int is_dir, void *arg)
{
    const char **want = arg;
    (void)is_dir;
    if (*want != NULL && strcmp(*want, name) == 0)
        *want = NULL;
}

static void check_stale(const char *name, int is_dir, void *arg)
{
    stale_names *st = arg;
    char path[4096];
    const char *want = name;
    fp_plan_write_names(st->plan, st->now, written_now, &want);
    if (want == NULL || (size_t)snprintf(path, sizeof path, "%s/%s", st->dir, name) >= sizeof path ||
        access(path, F_OK) != 0)
        return;
    size_t len = strlen(st->list);
    if (st->n < 6)
        snprintf(st->list + len, sizeof st->list - len, "%s%s%s", st->n ? ", " : "", name,
                 is_dir ? "/" : "");
    st->n++;
}

static void warn_stale(const char *dir, const fp_plan *plan, const fp_write_options *wo)
{
    stale_names st = { dir, plan, wo, "", 0 };
    fp_write_options all = *wo;
    all.formats = FP_WRITE_ALL;
    all.split_by = FP_SPLIT_NONE;
    fp_plan_write_names(plan, &all, check_stale, &st);
    static const char *const split[] = { "by-row", "by-hall" };
    for (size_t i = 0; i < 2; i++)
        check_stale(split[i], 1, &st);
    if (st.n == 0)
        return;
    fprintf(stderr, "fabplan: warning: %s/ holds %zu document%s fabplan writes that %s not this "
            "plan's (no .fabplan-manifest named %s): %s%s; left as %s, remove %s or plan into an "
            "empty folder\n", dir, st.n, st.n == 1 ? "" : "s", st.n == 1 ? "is" : "are",
            st.n == 1 ? "it" : "them", st.list, st.n > 6 ? ", ..." : "", st.n == 1 ? "it was" :
            "they were", st.n == 1 ? "it" : "them");
}

/* labels.csv's printed lines that lose part of a port name (fp_plan_label_cuts): a warning with
 * the count and the first cables; plan.json's labels_cut lists them all. */
static void warn_label_cuts(const fp_plan *plan, unsigned formats, fp_label_style style)
{
    char ids[5][16];
    size_t cables = 0, lines;
    if (!(formats & FP_WRITE_LABELS) ||
        (lines = fp_plan_label_cuts(plan, style, &cables, ids, 5)) == 0)
        return;
    fprintf(stderr, "fabplan: warning: labels.csv: %zu printed label line%s on %zu cable%s fit%s 20 "
            "characters only without the hall (or row) of %s location:", lines,
            lines == 1 ? "" : "s", cables, cables == 1 ? "" : "s", lines == 1 ? "s" : "",
            lines == 1 ? "its" : "their");
    for (size_t i = 0; i < cables && i < 5; i++)
        fprintf(stderr, "%s %s", i ? "," : "", ids[i]);
    fprintf(stderr, "%s%s\n", cables > 5 ? ", ..." : "",
            formats & FP_WRITE_JSON ? " (every one in plan.json labels_cut)" : "");
}

int cmd_plan(int argc, char **argv)
{
    cli_spec_opts o = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    fp_error err = { 0 };
    plan_opts po = { NULL, 0, FP_SPLIT_NONE, FP_LABELS_PLAIN, 0, 0, FP_PAPER_A4, NULL, 0 };
    unsigned formats = 0;
    int rc = parse_args(argc, argv, &o, plan_usage, &po);
    if (rc != EXIT_OK)
        goto out;
    if ((formats = resolve_formats(&po)) == 0) {
        rc = EXIT_USAGE;
        goto out;
    }
    if (o.out_dir == NULL)
        o.out_dir = "out";
    if ((rc = cli_load(&o, &cat, &spec)) != EXIT_OK)
        goto out;
    /* Progress on a terminal from the first second: the planning stages, then the files. */
    int show = !o.quiet && isatty(STDERR_FILENO);
    /* Only the stages the outputs read (a failure what-if reads the metrics). */
    fp_plan_options popt = FP_PLAN_OPTIONS_INIT;
    popt.stages = o.n_fail > 0 ? FP_STAGE_ALL : fp_write_stages(formats);
    popt.progress = show ? plan_progress : NULL;
    if (fp_plan_new_opts(&plan, spec, cat, &popt, &err) != FP_OK) {
        rc = cli_report_all(NULL, spec, cat, &popt, &err);
        goto out;
    }
    for (size_t i = 0; i < fp_plan_warning_count(plan); i++)
        fprintf(stderr, "fabplan: warning: %s\n", fp_plan_warning(plan, i));
    fp_failure_report failure;
    int have_failure = 0;
    if ((rc = cli_apply_failures(&failure, &have_failure, plan, &o)) != EXIT_OK)
        goto out;
    fp_write_options wo = FP_WRITE_OPTIONS_INIT;
    wo.failure = have_failure ? &failure : NULL;
    wo.split_by = po.split_by;
    wo.labels = po.labels;
    wo.paper = po.paper;
    if (show)
        wo.progress = progress;
    wo.detail = po.detail;
    wo.k8s_labels = po.k8s_labels;
    wo.formats = formats;
    if (fp_plan_write(plan, o.out_dir, &wo, &err) != FP_OK) {
        rc = cli_report("writing outputs", &err);
        goto out;
    }
    warn_label_cuts(plan, formats, po.labels);
    warn_stale(o.out_dir, plan, &wo);
    if (!o.quiet) {
        print_summary(plan);
        if (fp_plan_stages(plan) & FP_STAGE_METRICS)
            cli_print_metrics(plan, have_failure ? &failure : NULL);
        print_skipped(plan);
        print_written(o.out_dir, plan, &wo);
        char unit[32];
        if ((formats & FP_WRITE_DETAIL) && fp_plan_detail_unit(plan, &wo, unit, sizeof unit, NULL))
            printf("  detail diagram: %s.svg (choose another with --detail su:N or pod:N)\n", unit);
    }
out:
    if (rc < 0)
        rc = EXIT_OK;
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    cli_opts_free(&o);
    return rc;
}

static void validate_usage(FILE *f)
{
    fputs("usage: fabplan validate [SPEC] [options]\n"
          "Check a spec against the rules and the catalog, then build the plan in memory (fabric,\n"
          "layout, media, cable overrides, --fail) without writing anything, so everything\n"
          "`fabplan plan` would reject is caught here. Takes the same options as plan: --detail and\n"
          "--formats are checked, -o is ignored. Exit 0 when valid; else every independent error, a\n"
          "line each in the order the spec gives the values (docs/spec.md, \"Every error at once\").\n\n",
          f);
    fputs("  --print-spec        print the spec resolved, every default filled in, as JSON on\n"
          "                      stdout instead of \"valid\" (planned again, the same plan)\n"
          "  -q, --quiet         no \"valid\" line on stdout (errors still on stderr)\n",
          f);
    cli_spec_opts_help(f, NULL);
    cli_fail_opts_help(f);
}

int cmd_validate(int argc, char **argv)
{
    cli_spec_opts o = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    fp_error err = { 0 };
    plan_opts po = { NULL, 0, FP_SPLIT_NONE, FP_LABELS_PLAIN, 0, 0, FP_PAPER_A4, NULL, 0 };
    int rc = parse_args(argc, argv, &o, validate_usage, &po);
    if (rc != EXIT_OK)
        goto out;
    unsigned formats = resolve_formats(&po);
    if (formats == 0) {
        rc = EXIT_USAGE;
        goto out;
    }
    if ((rc = cli_load(&o, &cat, &spec)) != EXIT_OK)
        goto out;
    /* Building the plan makes every check plan makes (the spec's, and what the spec alone
     * cannot: media reach, cage fit, override ids), with plan's messages. The spec is read
     * once: fp_spec_validate first read the overrides file a second time, so from a pipe
     * validate failed where plan did not. */
    if (fp_plan_new(&plan, spec, cat, &err) != FP_OK) {
        rc = cli_report_all(o.spec_path, spec, cat, NULL, &err);
        goto out;
    }
    for (size_t i = 0; i < fp_plan_warning_count(plan); i++)
        fprintf(stderr, "fabplan: warning: %s\n", fp_plan_warning(plan, i));
    fp_failure_report failure;
    int have_failure = 0;
    if ((rc = cli_apply_failures(&failure, &have_failure, plan, &o)) != EXIT_OK)
        goto out;
    fp_write_options wo = FP_WRITE_OPTIONS_INIT;
    wo.failure = have_failure ? &failure : NULL;
    wo.detail = po.detail;
    char unit[32];
    if (po.detail && !fp_plan_detail_unit(plan, &wo, unit, sizeof unit, &err)) {
        rc = cli_report("--detail", &err);
        goto out;
    }
    if (po.print_spec) {
        char *json = NULL;
        if (fp_spec_resolved_json(spec, cat, &json, &err) != FP_OK) {
            rc = cli_report(o.spec_path, &err);
            goto out;
        }
        fputs(json, stdout);
        fp_free(json);
    } else if (!o.quiet) {
        /* Name what was checked: the spec, then every override in the order applied. */
        printf("%s", o.spec_path ? o.spec_path : o.preset ? o.preset : "default spec");
        if (o.catalog_path)
            printf(" with catalog %s", o.catalog_path);
        for (int i = 0; i < o.n_set; i++)
            printf("%s%s=%s", i ? ", " : o.catalog_path ? ", " : " with ", o.set_ptr[i],
                   o.set_val[i]);
        for (int i = 0; i < o.n_fail; i++)
            printf("%s--fail %s", i ? ", " : "; ", o.fail[i]);
        printf(": valid\n");
    }
out:
    if (rc < 0)
        rc = EXIT_OK;
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    cli_opts_free(&o);
    return rc;
}
