/* fabplan CLI — compare: candidate designs side by side, sorted by cost. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static void compare_usage(FILE *f)
{
    fputs("usage: fabplan compare [SPEC...] [--gpus N] [-o DIR] [options]\n"
          "With no SPEC or one SPEC: vary the switch model (every catalog switch), topology\n"
          "(clos, fat-tree, rail-optimized), tiers (2, 3, 4) and leaf oversubscription (1, 2, 3:1)\n"
          "over that spec (or the built-in default). With several SPECs: compare those as given.\n"
          "Prints a table sorted by cost; candidates that cannot work are listed with the reason.\n"
          "Designs of one leaf down:up are listed together (1:1 first), cheapest first; a forced\n"
          "tier count whose top tier no GPU pair would cross is left out.\n"
          "With -o DIR, also writes DIR/compare.csv, DIR/compare.json and DIR/compare.html.\n\n",
          f);
    cli_spec_opts_help(f, NULL);
    fputs("  -j, --jobs N        threads planning candidates (default: the online CPUs, at\n"
          "                      most 8); the table is the same for any N\n"
          "  --min-bisection F   only designs with at least this share of full bisection:\n"
          "                      0.5, 50% or 1:2 (1 = full bisection)\n"
          "  --max-oversubscription R\n"
          "                      only designs whose leaf down:up is at most R (2, 2:1, 3:2)\n"
          "  --all               every design on its own line (a fat-tree equal to its clos\n"
          "                      design too) and every candidate that cannot work with its\n"
          "                      reason (default: each design once, the reasons grouped)\n"
          "  -o, --out DIR       write compare.csv, compare.json and compare.html there\n"
          "  -q, --quiet         no table on stdout\n",
          f);
}

/* A fat-tree row that repeats a clos row: same leaf switch, tiers and ratio, and the same
 * figures (a k-ary fat-tree is the full-bisection clos of that switch). */
static int same_design(const fp_compare_row *a, const fp_compare_row *b)
{
    return a->status == FP_OK && b->status == FP_OK && a->tiers == b->tiers &&
           a->oversubscription == b->oversubscription &&
           strcmp(a->switch_model, b->switch_model) == 0 && a->switches == b->switches &&
           a->transceivers == b->transceivers && a->cables == b->cables && a->cost == b->cost &&
           a->power_w == b->power_w && a->bisection_gbps == b->bisection_gbps &&
           a->diameter_switches == b->diameter_switches;
}

/* The clos row rows[i] repeats (a fat-tree row), or the fat-tree row repeating clos row i;
 * n when none. */
static size_t twin_of(const fp_compare_row *rows, size_t n, size_t i)
{
    fp_topology want = rows[i].topology == FP_TOPO_FAT_TREE ? FP_TOPO_CLOS
                       : rows[i].topology == FP_TOPO_CLOS   ? FP_TOPO_FAT_TREE
                                                            : rows[i].topology;
    if (want == rows[i].topology)
        return n;
    for (size_t k = 0; k < n; k++)
        if (rows[k].topology == want && same_design(&rows[i], &rows[k]))
            return k;
    return n;
}

/* The table: each working design once (a fat-tree equal to its clos row is that row, marked
 * "= fat-tree"), figures with thousands separators; then what cannot work, grouped (all:
 * every row as it came, each reason in full). Returns the fat-tree rows folded. */
static size_t print_rows(const fp_compare_row *rows, size_t n, int all)
{
    char sw[32], tr[32], ca[32], co[32], pw[32], pg[32], bi[32], design[64];
    size_t folded = 0;
    printf("%-44s %5s %8s %12s %9s %14s %11s %10s %14s %6s %5s\n", "design", "tiers", "switches",
           "transceivers", "cables", "cost USD", "power kW", "USD/GPU", "bisection Gb/s", "of 1:1",
           "diam");
    for (size_t i = 0; i < n; i++) {
        const fp_compare_row *r = &rows[i];
        if (r->status != FP_OK)
            continue;
        int twin = !all && twin_of(rows, n, i) < n;
        if (twin && r->topology == FP_TOPO_FAT_TREE) {
            folded++;
            continue;
        }
        snprintf(design, sizeof design, "%s%s", r->design, twin ? " = fat-tree" : "");
        printf("%-44s %5d %8s %12s %9s %14s %11s %10s %14s %5.0f%% %5d\n", design, r->tiers,
               fp_grouped_text((double)r->switches, 0, sw, sizeof sw),
               fp_grouped_text((double)r->transceivers, 0, tr, sizeof tr),
               fp_grouped_text((double)r->cables, 0, ca, sizeof ca),
               fp_grouped_text(r->cost, 0, co, sizeof co),
               fp_grouped_text(r->power_w / 1000, 1, pw, sizeof pw),
               fp_grouped_text(r->cost_per_gpu, 0, pg, sizeof pg),
               fp_grouped_text(r->bisection_gbps, 0, bi, sizeof bi), r->bisection_fraction * 100,
               r->diameter_switches);
    }
    return folded;
}

/* The reason's spec field ("/fabric/tiers" of "/fabric/tiers: 16384 GPUs exceed ..."), its
 * length; 0 when it names none. */
static size_t reason_field(const char *reason)
{
    const char *c = strstr(reason, ": ");
    return reason[0] == '/' && c != NULL ? (size_t)(c - reason) : 0;
}

/* Rows a and b fail alike: the same leaf switch and the same spec field at fault. */
static int fail_alike(const fp_compare_row *a, const fp_compare_row *b)
{
    size_t fa = reason_field(a->reason);
    return strcmp(a->switch_model, b->switch_model) == 0 && fa == reason_field(b->reason) &&
           strncmp(a->reason, b->reason, fa) == 0 && (fa > 0 || strcmp(a->reason, b->reason) == 0);
}

/* What cannot work: with all, each row and its reason; else one line per leaf switch and spec
 * field at fault, with the count, the tier counts and the first reason (its figures differ
 * among the others when they do not all read alike). */
static void print_failures(const fp_compare_row *rows, size_t n, int all)
{
    size_t failed = 0, groups = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].status != FP_OK) {
            failed++;
            size_t k = 0;
            while (k < i && !(rows[k].status != FP_OK && fail_alike(&rows[k], &rows[i])))
                k++;
            groups += k == i;
        }
    if (failed == 0)
        return;
    if (all) {
        for (size_t i = 0; i < n; i++)
            if (rows[i].status != FP_OK)
                printf("%-44s cannot work: %s\n", rows[i].design, rows[i].reason);
        return;
    }
    printf("%zu candidate design%s cannot work, for %zu reason%s (--all lists each):\n", failed,
           failed == 1 ? "" : "s", groups, groups == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        if (rows[i].status == FP_OK)
            continue;
        size_t k = 0, count = 0;
        while (k < i && !(rows[k].status != FP_OK && fail_alike(&rows[k], &rows[i])))
            k++;
        if (k < i)
            continue;   /* listed with its group's first row */
        int lo = rows[i].tiers, hi = rows[i].tiers, same = 1;
        for (k = i; k < n; k++)
            if (rows[k].status != FP_OK && fail_alike(&rows[i], &rows[k])) {
                count++;
                lo = rows[k].tiers < lo ? rows[k].tiers : lo;
                hi = rows[k].tiers > hi ? rows[k].tiers : hi;
                same &= strcmp(rows[k].reason, rows[i].reason) == 0;
            }
        char tiers[32] = "";
        if (lo > 0)
            snprintf(tiers, sizeof tiers, lo == hi ? ", %d tiers" : ", %d-%d tiers", lo, hi);
        printf("  %3zu %s%s: %s%s\n", count, rows[i].switch_model[0] ? rows[i].switch_model
                                                                       : rows[i].design,
               tiers, rows[i].reason, same || count == 1 ? "" : " (the first of them; the others differ in their figures)");
    }
}

/* "0.5", "50%", "1:2" (a share) or "2", "2:1", "3:2" (a ratio) -> the number; -1 when bad. */
static double parse_share(const char *v, int percent_ok)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || !(x >= 0))
        return -1;
    if (percent_ok && strcmp(end, "%") == 0)
        return x / 100;
    if (*end == ':') {
        const char *d = end + 1;
        double y = strtod(d, &end);
        if (end == d || *end != '\0' || !(y > 0))
            return -1;
        return x / y;
    }
    return *end == '\0' ? x : -1;
}

/* --min-bisection / --max-oversubscription at argv[*i]: 1 consumed, 0 not ours, -1 bad. */
static int parse_filter(int argc, char **argv, int *i, double *min_bis, double *max_over)
{
    static const char *const names[2] = { "--min-bisection", "--max-oversubscription" };
    for (int k = 0; k < 2; k++) {
        size_t len = strlen(names[k]);
        const char *a = argv[*i], *v;
        if (strncmp(a, names[k], len) != 0 || (a[len] != '\0' && a[len] != '='))
            continue;
        if (a[len] == '=')
            v = a + len + 1;
        else if (*i + 1 < argc)
            v = argv[++*i];
        else {
            fprintf(stderr, "fabplan compare: %s needs a value\n", names[k]);
            return -1;
        }
        double x = parse_share(v, k == 0);
        if (k == 0 && (x <= 0 || x > 1)) {
            fprintf(stderr, "fabplan compare: --min-bisection expects a share of full bisection "
                            "above 0 and at most 1 (0.5, 50%% or 1:2), found \"%s\"\n", v);
            return -1;
        }
        if (k == 1 && x < 1) {
            fprintf(stderr, "fabplan compare: --max-oversubscription expects a down:up ratio of "
                            "at least 1 (1, 2:1, 3:2), found \"%s\"\n", v);
            return -1;
        }
        *(k == 0 ? min_bis : max_over) = x;
        return 1;
    }
    return 0;
}

/* The command line: spec options into *o, spec paths into paths[], the filters and --jobs.
 * Returns -1 to go on, else the exit code. */
static int compare_args(int argc, char **argv, cli_spec_opts *o, const char **paths,
                        size_t *n_paths, double *min_bis, double *max_over, int *jobs, int *all)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            compare_usage(stdout);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--all") == 0) {
            *all = 1;
            continue;
        }
        int r = parse_filter(argc, argv, &i, min_bis, max_over);
        if (r == 0)
            r = cli_parse_jobs("compare", argc, argv, &i, jobs);
        if (r == 0)
            r = cli_parse_spec_opt(o, argc, argv, &i);
        if (r < 0)
            return EXIT_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_unknown_option("compare", argv[i]);
        paths[(*n_paths)++] = argv[i];
    }
    return -1;
}

/* Several specs compared as given: each loaded (*specs, the first one's catalog into *cat),
 * then planned. Returns the exit code. */
static int compare_given(cli_spec_opts *o, const char **paths, size_t n_paths,
                         const fp_compare_options *copts, fp_catalog **cat, fp_spec ***specs,
                         fp_compare_row **rows, size_t *n_rows, fp_error *err)
{
    int rc;
    *specs = calloc(n_paths, sizeof **specs);
    if (*specs == NULL) {
        fprintf(stderr, "fabplan: out of memory\n");
        return EXIT_IO;
    }
    for (size_t i = 0; i < n_paths; i++) {
        fp_catalog *c = NULL;
        o->spec_path = paths[i];
        rc = cli_load(o, &c, &(*specs)[i]);
        if (rc == EXIT_OK)
            rc = cli_inline_overrides((*specs)[i], paths[i]);
        if (*cat == NULL)
            *cat = c;
        else
            fp_catalog_free(c);
        if (rc != EXIT_OK)
            return rc;
    }
    /* Each named by its spec's `name`, else its file's name without the folder and ".json":
     * a path ("examples/specs/dgx-h100-3su.json") broke the table's columns. */
    char (*label)[64] = calloc(n_paths, sizeof *label);
    const char **names = calloc(n_paths, sizeof *names);
    if (label == NULL || names == NULL) {
        free(label);
        free(names);
        fprintf(stderr, "fabplan: out of memory\n");
        return EXIT_IO;
    }
    for (size_t i = 0; i < n_paths; i++) {
        const char *name = fp_spec_name((*specs)[i]), *base = strrchr(paths[i], '/');
        base = base ? base + 1 : paths[i];
        size_t len = strlen(base);
        if (name != NULL)
            snprintf(label[i], sizeof label[i], "%s", name);
        else
            snprintf(label[i], sizeof label[i], "%.*s",
                     (int)(len > 5 && strcmp(base + len - 5, ".json") == 0 ? len - 5 : len), base);
        names[i] = label[i];
    }
    fp_status st = fp_compare_specs_opts(rows, n_rows, *cat, (const fp_spec *const *)*specs,
                                         names, n_paths, 0, copts, err);
    free(names);
    free(label);
    if (st != FP_OK)
        return cli_report("compare", err);
    return EXIT_OK;
}

/* The filters drop working designs that miss the bar; designs that cannot work stay, with
 * their reasons. 1e-9: a full-bisection design is 1.0 give or take rounding. Returns how many
 * were dropped. */
static size_t filter_rows(fp_compare_row *rows, size_t *n_rows, double min_bis, double max_over)
{
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < *n_rows; i++) {
        const fp_compare_row *r = &rows[i];
        if (r->status == FP_OK && ((min_bis > 0 && r->bisection_fraction < min_bis - 1e-9) ||
                                   (max_over > 0 && r->oversubscription > max_over + 1e-9))) {
            dropped++;
            continue;
        }
        rows[kept++] = rows[i];
    }
    *n_rows = kept;
    return dropped;
}

int cmd_compare(int argc, char **argv)
{
    double min_bis = 0, max_over = 0;
    cli_spec_opts o = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *base = NULL, **specs = NULL;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    size_t n_paths = 0, n_rows = 0;
    fp_compare_row *rows = NULL;
    fp_error err = { 0 };
    int rc = EXIT_OK, jobs = 0, all = 0;
    if (paths == NULL) {
        fprintf(stderr, "fabplan: out of memory\n");
        return EXIT_IO;
    }
    if ((rc = compare_args(argc, argv, &o, paths, &n_paths, &min_bis, &max_over, &jobs,
                           &all)) >= 0)
        goto out;
    rc = EXIT_OK;
    fp_compare_options copts = FP_COMPARE_OPTIONS_INIT;
    copts.jobs = jobs ? jobs : cli_default_jobs();
    if (n_paths <= 1) {
        o.spec_path = n_paths ? paths[0] : NULL;
        if ((rc = cli_load(&o, &cat, &base)) != EXIT_OK ||
            (rc = cli_inline_overrides(base, o.spec_path)) != EXIT_OK)
            goto out;
        if (fp_compare_designs_opts(&rows, &n_rows, cat, base, 0, &copts, &err) != FP_OK) {
            rc = cli_report("compare", &err);
            goto out;
        }
    } else if ((rc = compare_given(&o, paths, n_paths, &copts, &cat, &specs, &rows, &n_rows,
                                   &err)) != EXIT_OK) {
        goto out;
    }
    size_t dropped = filter_rows(rows, &n_rows, min_bis, max_over);
    /* When no candidate works the input is at fault (a bad base spec shows up as the same
     * reason on every row): show the reasons, but exit 3 and write nothing. */
    size_t n_ok = 0;
    for (size_t i = 0; i < n_rows; i++)
        n_ok += rows[i].status == FP_OK;
    if (n_ok == 0 && dropped > 0) {
        fprintf(stderr, "fabplan: compare: none of the %zu working designs meets --min-bisection / "
                        "--max-oversubscription\n", dropped);
        rc = EXIT_INPUT;
        goto out;
    }
    if (n_ok == 0) {
        if (!o.quiet)
            print_failures(rows, n_rows, all);
        fprintf(stderr, "fabplan: compare: none of the %zu candidate designs can work%s%s\n", n_rows,
                n_rows ? "; first reason: " : "", n_rows ? rows[0].reason : "");
        rc = EXIT_INPUT;
        goto out;
    }
    if (o.out_dir && fp_compare_write(rows, n_rows, o.out_dir, &err) != FP_OK) {
        rc = cli_report("writing outputs", &err);
        goto out;
    }
    if (!o.quiet) {
        size_t folded = print_rows(rows, n_rows, all);
        if (folded)
            printf("(%zu fat-tree design%s equal to %s clos design%s: marked \"= fat-tree\"; --all "
                   "lists %s)\n", folded, folded == 1 ? "" : "s", folded == 1 ? "its" : "their",
                   folded == 1 ? "" : "s", folded == 1 ? "it" : "them");
        print_failures(rows, n_rows, all);
        if (dropped)
            printf("(%zu designs left out by --min-bisection / --max-oversubscription)\n", dropped);
        if (o.out_dir)
            printf("wrote %s/compare.csv, %s/compare.json, %s/compare.html\n", o.out_dir,
                   o.out_dir, o.out_dir);
    }
out:
    fp_compare_free(rows);
    for (size_t i = 0; specs && i < n_paths; i++)
        fp_spec_free(specs[i]);
    free(specs);
    free(paths);
    fp_spec_free(base);
    fp_catalog_free(cat);
    cli_opts_free(&o);
    return rc;
}
