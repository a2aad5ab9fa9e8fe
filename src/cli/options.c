/* fabplan CLI — every command's option names in one place: "did you mean" for an unknown option,
 * and the list the bash completion asks for (`fabplan _options COMMAND`). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char *const common_opts[] = { "-h", "--help", "--version", NULL };
static const char *const spec_opts[] = { "--preset", "--catalog", "--set", "-q", "--quiet", NULL };
static const char *const fail_opts[] = { "--fail", "--seed", NULL };
static const char *const plan_opts[] = { "-o", "--out", "--formats", "--no-xlsx", "--split-by",
                                         "--detail", "--png", "--paper", "--labels",
                                         "--k8s-labels", NULL };
static const char *const validate_opts[] = { "--print-spec", NULL };
static const char *const compare_opts[] = { "-o", "--out", "--all", "--min-bisection",
                                            "--max-oversubscription", "-j", "--jobs", NULL };
static const char *const catalog_opts[] = { "--catalog", NULL };
static const char *const out_opts[] = { "-o", "--out", NULL };
static const char *const sweep_opts[] = { "-j", "--jobs", NULL };
static const char *const verify_opts[] = { "--ibnetdiscover", "--lldp", "--node-name-map", "--phase",
                                           "--network", "--ignore-speed", "-q", "--quiet", NULL };

/* Which groups of options a command takes. */
enum { G_SPEC = 1, G_FAIL = 2, G_PLAN = 4, G_COMPARE = 8, G_CATALOG = 16, G_OUT = 32, G_SWEEP = 64,
       G_VERIFY = 128, G_VALIDATE = 256 };

static unsigned groups_of(const char *cmd)
{
    if (strcmp(cmd, "plan") == 0)
        return G_SPEC | G_FAIL | G_PLAN;
    if (strcmp(cmd, "validate") == 0)
        return G_SPEC | G_FAIL | G_PLAN | G_VALIDATE;
    if (strcmp(cmd, "compare") == 0)
        return G_SPEC | G_COMPARE;
    if (strcmp(cmd, "catalog") == 0)
        return G_CATALOG;
    if (strcmp(cmd, "diff") == 0)
        return G_OUT;
    if (strcmp(cmd, "sweep") == 0)
        return G_SPEC | G_OUT | G_SWEEP;
    if (strcmp(cmd, "verify") == 0)
        return G_OUT | G_VERIFY;
    return 0;
}

static void add_list(const char *const *list, const char **out, size_t max, size_t *n)
{
    for (; *list; list++) {
        size_t k = 0;
        while (k < *n && k < max && strcmp(out[k], *list) != 0)
            k++;
        if (k < *n)
            continue;       /* -o appears in two groups */
        if (*n < max)
            out[*n] = *list;
        (*n)++;
    }
}

size_t cli_option_names(const char *cmd, const char **out, size_t max)
{
    const char *flag_names[64];
    size_t n = 0, nf = cli_spec_flag_names(flag_names, 63);
    unsigned g = groups_of(cmd);
    flag_names[nf < 63 ? nf : 63] = NULL;
    add_list(common_opts, out, max, &n);
    if (g & G_SPEC) {
        add_list(spec_opts, out, max, &n);
        add_list(flag_names, out, max, &n);
    }
    if (g & G_FAIL)
        add_list(fail_opts, out, max, &n);
    if (g & G_PLAN)
        add_list(plan_opts, out, max, &n);
    if (g & G_COMPARE)
        add_list(compare_opts, out, max, &n);
    if (g & G_CATALOG)
        add_list(catalog_opts, out, max, &n);
    if (g & G_OUT)
        add_list(out_opts, out, max, &n);
    if (g & G_SWEEP)
        add_list(sweep_opts, out, max, &n);
    if (g & G_VERIFY)
        add_list(verify_opts, out, max, &n);
    if (g & G_VALIDATE)
        add_list(validate_opts, out, max, &n);
    return n;
}

/* The options that take no value; every other option a command takes has one. */
static const char *const no_value[] = { "-h",      "--help",         "--version", "-q",
                                        "--quiet", "--no-xlsx",      "--png",     "--print-spec",
                                        "--all",   "--ignore-speed", NULL };

static int takes_value(const char *const *names, size_t n, const char *name, size_t len)
{
    for (const char *const *p = no_value; *p; p++)
        if (strlen(*p) == len && strncmp(*p, name, len) == 0)
            return 0;
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
            return 1;
    return 0;
}

int cli_split_equals(const char *cmd, int argc, char **argv, int *out_argc, char ***out)
{
    const char *names[128];
    size_t n = cli_option_names(cmd, names, 128), bytes = 0;
    if (n > 128)
        n = 128;
    for (int i = 0; i < argc; i++)
        bytes += strlen(argv[i]) + 1;
    char **v = malloc(sizeof *v * (size_t)(2 * argc + 1) + bytes);
    if (v == NULL)
        return -1;
    char *text = (char *)(v + 2 * argc + 1);
    int k = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        if (i > 0 && strncmp(a, "--", 2) == 0 && takes_value(names, n, a, len)) {
            if (eq == NULL) { /* the next word is its value, whatever it looks like */
                v[k++] = argv[i];
                if (i + 1 < argc)
                    v[k++] = argv[++i];
                continue;
            }
            memcpy(text, a, len);
            text[len] = '\0';
            v[k++] = text;
            text += len + 1;
            v[k++] = (char *)eq + 1;
            continue;
        }
        v[k++] = argv[i];
    }
    v[k] = NULL;
    *out_argc = k;
    *out = v;
    return 0;
}

/* Levenshtein distance, capped: option names are short. */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int row[64];
    if (la > 62 || lb > 62)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int best = prev + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

const char *cli_suggest_option(const char *cmd, const char *arg)
{
    const char *names[128], *best = NULL;
    char key[64];
    size_t n = cli_option_names(cmd, names, 128);
    int best_d = 99;
    /* "--gpu=8" is judged on its name */
    snprintf(key, sizeof key, "%s", arg);
    char *eq = strchr(key, '=');
    if (eq)
        *eq = '\0';
    size_t klen = strlen(key);
    for (size_t i = 0; i < n && i < 128; i++) {
        int d = distance(key, names[i]);
        /* a prefix ("--over" for --oversubscription, --overrides) counts as close when only
         * one option starts with it */
        if (klen >= 4 && strncmp(names[i], key, klen) == 0)
            d = 1;
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    /* Close means at most a third of the name changed (two edits for short names). */
    int limit = (int)klen / 3 > 2 ? (int)klen / 3 : 2;
    return best_d <= limit ? best : NULL;
}

int cli_unknown_option(const char *cmd, const char *arg)
{
    const char *near = cli_suggest_option(cmd, arg);
    fprintf(stderr, "fabplan %s: unknown option %s", cmd, arg);
    if (near)
        fprintf(stderr, "; did you mean %s?", near);
    fprintf(stderr, "\n(fabplan help %s lists the options)\n", cmd);
    return EXIT_USAGE;
}

int cmd_options(int argc, char **argv)
{
    const char *names[128];
    if (argc < 2)
        return EXIT_USAGE;
    if (strcmp(argv[1], "--formats") == 0) {     /* the option's values */
        cli_format_names(stdout, "\n");
        putchar('\n');
        return EXIT_OK;
    }
    size_t n = cli_option_names(argv[1], names, 128);
    for (size_t i = 0; i < n && i < 128; i++)
        printf("%s\n", names[i]);
    return EXIT_OK;
}
