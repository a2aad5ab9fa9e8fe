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
          "With -o DIR, also writes DIR/compare.csv and DIR/compare.json.\n\n",
          f);
    cli_spec_opts_help(f);
    fputs("  -o, --out DIR       write compare.csv and compare.json there\n"
          "  -q, --quiet         no table on stdout\n",
          f);
}

static void print_rows(const fp_compare_row *rows, size_t n)
{
    printf("%-44s %5s %8s %12s %9s %14s %11s %10s %14s %5s\n", "design", "tiers", "switches",
           "transceivers", "cables", "cost USD", "power kW", "USD/GPU", "bisection Gb/s", "diam");
    for (size_t i = 0; i < n; i++) {
        const fp_compare_row *r = &rows[i];
        if (r->status == FP_OK)
            printf("%-44s %5d %8lld %12lld %9lld %14.0f %11.1f %10.0f %14.0f %5d\n", r->design,
                   r->tiers, (long long)r->switches, (long long)r->transceivers,
                   (long long)r->cables, r->cost, r->power_w / 1000, r->cost_per_gpu,
                   r->bisection_gbps, r->diameter_switches);
        else
            printf("%-44s cannot work: %s\n", r->design, r->reason);
    }
}

int cmd_compare(int argc, char **argv)
{
    cli_spec_opts o = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *base = NULL, **specs = NULL;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    size_t n_paths = 0, n_rows = 0;
    fp_compare_row *rows = NULL;
    fp_error err = { 0 };
    int rc = EXIT_OK;
    if (paths == NULL) {
        fprintf(stderr, "fabplan: out of memory\n");
        return EXIT_IO;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            compare_usage(stdout);
            goto out;
        }
        int r = cli_parse_spec_opt(&o, argc, argv, &i);
        if (r < 0) {
            rc = EXIT_USAGE;
            goto out;
        }
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "fabplan: unknown option %s\n", argv[i]);
            compare_usage(stderr);
            rc = EXIT_USAGE;
            goto out;
        }
        paths[n_paths++] = argv[i];
    }
    if (n_paths <= 1) {
        o.spec_path = n_paths ? paths[0] : NULL;
        if ((rc = cli_load(&o, &cat, &base)) != EXIT_OK)
            goto out;
        if (fp_compare_designs(cat, base, 0, &rows, &n_rows, &err) != FP_OK) {
            rc = cli_report("compare", &err);
            goto out;
        }
    } else {
        specs = calloc(n_paths, sizeof *specs);
        if (specs == NULL) {
            fprintf(stderr, "fabplan: out of memory\n");
            rc = EXIT_IO;
            goto out;
        }
        for (size_t i = 0; i < n_paths; i++) {
            fp_catalog *c = NULL;
            o.spec_path = paths[i];
            rc = cli_load(&o, &c, &specs[i]);
            if (cat == NULL)
                cat = c;
            else
                fp_catalog_free(c);
            if (rc != EXIT_OK)
                goto out;
        }
        if (fp_compare_specs(cat, (const fp_spec *const *)specs, paths, n_paths, 0, &rows,
                             &n_rows, &err) != FP_OK) {
            rc = cli_report("compare", &err);
            goto out;
        }
    }
    /* When no candidate works the input is at fault (a bad base spec shows up as the same
     * reason on every row): show the reasons, but exit 3 and write nothing. */
    size_t n_ok = 0;
    for (size_t i = 0; i < n_rows; i++)
        n_ok += rows[i].status == FP_OK;
    if (n_ok == 0) {
        if (!o.quiet)
            print_rows(rows, n_rows);
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
        print_rows(rows, n_rows);
        if (o.out_dir)
            printf("wrote %s/compare.csv, %s/compare.json\n", o.out_dir, o.out_dir);
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
