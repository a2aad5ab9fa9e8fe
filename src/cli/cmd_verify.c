/* fabplan verify PLAN_DIR --ibnetdiscover FILE | --lldp FILE|DIR [...]: the built fabric against its plan, from
 * what the fabric itself reports. Writes verify.csv, verify-summary.json and verify.xlsx (all or nothing);
 * exits 0 when every planned link is ok (or of a later phase), 1 when anything differs. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static void verify_usage(FILE *f)
{
    fputs("usage: fabplan verify PLAN_DIR [--ibnetdiscover FILE [--node-name-map FILE]]\n"
          "                      [--lldp FILE|DIR] [--phase DIR] [--ignore-speed]\n"
          "                      [--network NAME]... [-o DIR] [-q]\n"
          "Check the built fabric against the plan in PLAN_DIR from what the fabric reports,\n"
          "and say cable by cable what is wrong and how to fix it. PLAN_DIR is a folder fabplan\n"
          "plan wrote: its cables.csv, for InfiniBand its ib-ports.csv (--formats\n"
          "...,ibnetdiscover), and links.csv when there.\n"
          "Writes DIR/verify.csv (one row per planned link, then one per link the plan lacks:\n"
          "ok, missing, unexpected, wrong-port, wrong-device, swapped, degraded, unknown-device,\n"
          "not-yet), DIR/verify-summary.json and DIR/verify.xlsx (the Fix list for the crew,\n"
          "by hall, row, rack and U). Exit 0 when every planned link is ok (or not yet due),\n"
          "1 when anything differs, 2 usage, 3 a file that is not what it claims (named with\n"
          "its line), 4 I/O or out of memory.\n"
          "A discovery checks the cables of its protocol only (cables.csv's protocol: InfiniBand\n"
          "by --ibnetdiscover, Ethernet by --lldp); the others are counted as not checked.\n\n"
          "  --ibnetdiscover FILE\n"
          "                      what ibnetdiscover printed (its default topology form or -p)\n"
          "  --node-name-map FILE\n"
          "                      ibnetdiscover's node-name map (<guid> \"<name>\"): names that\n"
          "                      override the node descriptions of the GUIDs it lists\n"
          "  --lldp FILE|DIR     what lldpd reports: lldpcli -f json (or json0) show neighbors\n"
          "                      [details], a folder of <device>.json (one per device), or one\n"
          "                      file (<device>.json, or each device's show chassis output\n"
          "                      before its neighbours)\n"
          "  --phase DIR         the plan of the growth phase being built: a planned link whose\n"
          "                      A end its cables.csv lacks is not-yet when not seen\n"
          "  --ignore-speed      compare the link width only, not the speed (ibsim reports at\n"
          "                      most QDR)\n"
          "  --network NAME      check only the cables of network NAME (cables.csv's network\n"
          "                      column, \"compute\" without spec networks); repeatable. An\n"
          "                      ibnetdiscover output is one subnet: name its network\n"
          "  -o, --out DIR       output directory (default verify)\n"
          "  -q, --quiet         no summary on stdout\n",
          f);
}

/* The value of option argv[*i]; NULL (message printed) when missing. */
static const char *opt_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc || argv[*i + 1][0] == '\0') {
        fprintf(stderr, "fabplan verify: %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/* The command, with room for a --network name per argument in nets. */
static int run_verify(int argc, char **argv, const char **nets)
{
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    const char *out = "verify";
    int quiet = 0;
    o.networks = nets;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **dst = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            verify_usage(stdout);
            return EXIT_OK;
        }
        if (strcmp(a, "--ibnetdiscover") == 0)
            dst = &o.ibnetdiscover;
        else if (strcmp(a, "--lldp") == 0)
            dst = &o.lldp;
        else if (strcmp(a, "--node-name-map") == 0)
            dst = &o.node_name_map;
        else if (strcmp(a, "--phase") == 0)
            dst = &o.phase_dir;
        else if (strcmp(a, "--network") == 0)
            dst = &nets[o.n_networks++];
        else if (strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0)
            dst = &out;
        else if (strcmp(a, "--ignore-speed") == 0) {
            o.ignore_speed = 1;
            continue;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_unknown_option("verify", a);
        } else if (o.plan_dir == NULL && a[0] != '\0') {
            o.plan_dir = a;
            continue;
        } else {
            fprintf(stderr, "fabplan verify: one PLAN_DIR, found another: \"%s\"\n", a);
            return EXIT_USAGE;
        }
        if ((*dst = opt_value(argc, argv, &i)) == NULL)
            return EXIT_USAGE;
    }
    if (o.plan_dir == NULL || (o.ibnetdiscover == NULL && o.lldp == NULL)) {
        fprintf(stderr, "fabplan verify: %s\n", o.plan_dir == NULL
                ? "expected PLAN_DIR, a folder fabplan plan wrote"
                : "nothing to verify against: give --ibnetdiscover FILE or --lldp FILE|DIR");
        verify_usage(stderr);
        return EXIT_USAGE;
    }
    fp_error err = { 0 };
    fp_verify *v = NULL;
    if (fp_verify_run(&o, &v, &err) != FP_OK)
        return cli_report("verify", &err);
    if (fp_verify_write(v, out, &err) != FP_OK) {
        fp_verify_free(v);
        return cli_report("writing outputs", &err);
    }
    if (!quiet) {
        printf("fabplan verify %s against %s%s%s: %zu rows\n", o.plan_dir,
               o.ibnetdiscover ? o.ibnetdiscover : "", o.ibnetdiscover && o.lldp ? " and " : "",
               o.lldp ? o.lldp : "", fp_verify_count(v, FP_VERIFY_N_STATUS));
        for (int s = 0; s < FP_VERIFY_N_STATUS; s++)
            if (fp_verify_count(v, (fp_verify_status)s) > 0)
                printf("  %-15s %zu\n", fp_verify_status_name((fp_verify_status)s),
                       fp_verify_count(v, (fp_verify_status)s));
        if (fp_verify_not_checked(v, 0) > 0)
            printf("  not checked     %zu planned links (%zu of the other protocol, %zu of other "
                   "networks)\n", fp_verify_not_checked(v, 0), fp_verify_not_checked(v, 1),
                   fp_verify_not_checked(v, 2));
        printf("  wrote %s/: verify.csv, verify-summary.json, verify.xlsx\n", out);
    }
    int rc = fp_verify_differs(v) ? EXIT_FAIL : EXIT_OK;
    fp_verify_free(v);
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    const char **nets = calloc((size_t)argc + 1, sizeof *nets);
    if (nets == NULL) {
        fputs("fabplan verify: out of memory\n", stderr);
        return EXIT_IO;
    }
    int rc = run_verify(argc, argv, nets);
    free(nets);
    return rc;
}
