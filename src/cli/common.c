/* fabplan CLI — spec options shared by plan, validate and compare. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "cli.h"

typedef struct flag_map {
    const char *flag;
    const char *pointer;
    int list;       /* comma-separated list -> JSON array */
    const char *arg; /* the value, as the help shows it */
    const char *help;
} flag_map;

static const flag_map flags[] = {
    { "--name", "/name", 0, "NAME", "plan name" },
    { "--gpus", "/cluster/gpus", 0, "N", "number of GPUs" },
    { "--gpus-per-server", "/cluster/gpus_per_server", 0, "N", "GPUs per server" },
    { "--nics-per-server", "/cluster/nics_per_server", 0, "N",
      "NICs per server (default: one per GPU)" },
    { "--nic", "/cluster/nic", 0, "ID", "NIC catalog id" },
    { "--topology", "/fabric/topology", 0, "T", "clos | fat-tree | rail-optimized" },
    { "--tiers", "/fabric/tiers", 0, "T", "auto | 2 | 3 | 4" },
    { "--switch", "/fabric/switch", 1, "ID[,ID..]",
      "switch catalog id, or one per tier (leaf first)" },
    { "--oversubscription", "/fabric/oversubscription", 1, "R[,R..]",
      "down:up bandwidth ratio per tier, leaf first (2:1, 16:15, 1:2)" },
    { "--link-gbps", "/fabric/link_gbps", 1, "G[,G..]",
      "link speed per boundary, NIC-leaf first (last repeats)" },
    { "--su-servers", "/fabric/su_servers", 0, "N", "servers per scalable unit (rail-optimized)" },
    { "--planes", "/fabric/planes", 0, "N", "independent fabric planes" },
    { "--reserve", "/fabric/reserve", 0, "F", "fraction of switch ports kept free" },
    { "--overrides", "/overrides", 0, "FILE",
      "hand cable overrides (cable id or ends -> length, part)" },
};
#define N_FLAGS (sizeof flags / sizeof flags[0])

void cli_spec_opts_help(FILE *f, const char *skip)
{
    fputs("Spec options (override the spec file; the built-in default when no SPEC is given):\n"
          "  --preset NAME       start from a built-in preset (fabplan presets)\n"
          "  --catalog FILE      add or override catalog parts from FILE\n"
          "  --set /PTR=VALUE    set any spec field by JSON pointer (VALUE is JSON or a string)\n",
          f);
    /* the descriptions in one column, as the other options' (a longer option on a line of its
     * own, its description under it) */
    for (size_t i = 0; i < N_FLAGS; i++) {
        char opt[64];
        if (skip && strcmp(skip, flags[i].flag) == 0)
            continue;
        int n = snprintf(opt, sizeof opt, "%s %s", flags[i].flag, flags[i].arg);
        if (n > 19)
            fprintf(f, "  %s\n  %-19s %s\n", opt, "", flags[i].help);
        else
            fprintf(f, "  %-19s %s\n", opt, flags[i].help);
    }
}

size_t cli_spec_flag_names(const char **out, size_t max)
{
    for (size_t i = 0; i < N_FLAGS && i < max; i++)
        out[i] = flags[i].flag;
    return N_FLAGS < max ? N_FLAGS : max;
}

/* "a,b" -> ["a","b"] with numbers left bare. */
static char *list_to_json(const char *v)
{
    size_t n = strlen(v);
    char *out = malloc((n + 1) * 26 + 8), *o = out; /* a 1-char token may become 25 chars */
    if (out == NULL)
        return NULL;
    *o++ = '[';
    const char *p = v;
    while (1) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char *endp;
        char tok[256];
        snprintf(tok, sizeof tok, "%.*s", (int)len, p);
        double x = strtod(tok, &endp);
        int num = tok[0] && *endp == '\0';
        /* a ratio as architects write it, "2:1" or "3:2", is the number 2 or 1.5 */
        if (!num && tok[0] && endp != tok && *endp == ':') {
            char *end2;
            double y = strtod(endp + 1, &end2);
            if (*end2 == '\0' && end2 != endp + 1 && y > 0) {
                snprintf(tok, sizeof tok, "%.17g", x / y);
                num = 1;
            }
        }
        o += sprintf(o, "%s%s%s%s", o[-1] == '[' ? "" : ",", num ? "" : "\"", tok, num ? "" : "\"");
        if (!e)
            break;
        p = e + 1;
    }
    *o++ = ']';
    *o = '\0';
    return out;
}

/* dir "/" v (v alone when dir is empty) as a JSON string: quotes, backslashes and control
 * characters escaped, so the spec reads the text as given (and its name rule judges it). */
static char *json_string(const char *dir, const char *v)
{
    size_t n = strlen(dir) + strlen(v) * 6 + 8;
    char *out = malloc(n), *o = out;
    if (out == NULL)
        return NULL;
    *o++ = '"';
    for (int part = 0; part < 2; part++) {
        const char *s = part == 0 ? dir : v;
        if (part == 1 && dir[0])
            *o++ = '/';
        for (; *s; s++) {
            if ((unsigned char)*s < 0x20) {
                o += sprintf(o, "\\u%04x", (unsigned char)*s);
                continue;
            }
            if (*s == '"' || *s == '\\')
                *o++ = '\\';
            *o++ = *s;
        }
    }
    *o++ = '"';
    *o = '\0';
    return out;
}

/* A file named on the command line is relative to the working directory, while a relative
 * name inside a spec file is relative to that file: pass the command line's as an absolute
 * path, as a JSON string (so a name like "123" stays a string). */
static char *path_to_json(const char *v)
{
    char cwd[4096] = "";
    if (v[0] != '/' && getcwd(cwd, sizeof cwd) == NULL)
        cwd[0] = '\0';
    return json_string(cwd, v);
}

int cli_parse_spec_opt(cli_spec_opts *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const char *val = NULL;
    if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
        o->quiet = 1;
        return 1;
    }
    const char *simple[] = { "--preset", "--catalog", "-o", "--out" };
    for (size_t k = 0; k < sizeof simple / sizeof simple[0]; k++) {
        if (strcmp(a, simple[k]) == 0) {
            if (*i + 1 >= argc) {
                fprintf(stderr, "fabplan: %s needs a value\n", a);
                return -1;
            }
            val = argv[++*i];
            if (val[0] == '\0') {
                fprintf(stderr, "fabplan: %s needs a non-empty value\n", a);
                return -1;
            }
            if (k == 0)
                o->preset = val;
            else if (k == 1)
                o->catalog_path = val;
            else
                o->out_dir = val;
            return 1;
        }
    }
    if (strcmp(a, "--set") == 0) {
        /* generic override for fields without a flag: --set /layout/racks_per_row=20 */
        const char *eq = *i + 1 < argc ? strchr(argv[*i + 1], '=') : NULL;
        if (o->n_set >= 32) {
            fprintf(stderr, "fabplan: too many overrides (at most 32 --set and spec flags together); "
                            "put the rest in the spec file\n");
            return -1;
        }
        if (eq == NULL || argv[*i + 1][0] != '/') {
            fprintf(stderr, "fabplan: --set needs /json/pointer=value, e.g. --set /fabric/reserve=0.1\n");
            return -1;
        }
        val = argv[++*i];
        o->set_val[o->n_set] = strdup(eq + 1);
        o->set_ptr_owned[o->n_set] = strndup(val, (size_t)(eq - val));
        o->set_ptr[o->n_set] = o->set_ptr_owned[o->n_set];
        o->n_set++;
        return 1;
    }
    for (size_t k = 0; k < N_FLAGS; k++) {
        size_t fl = strlen(flags[k].flag);
        if (strncmp(a, flags[k].flag, fl) != 0 || (a[fl] != '\0' && a[fl] != '='))
            continue;
        if (a[fl] == '=')
            val = a + fl + 1;
        else if (*i + 1 < argc)
            val = argv[++*i];
        else {
            fprintf(stderr, "fabplan: %s needs a value\n", a);
            return -1;
        }
        if (o->n_set >= 32) {
            fprintf(stderr, "fabplan: too many overrides (at most 32 --set and spec flags together); "
                            "put the rest in the spec file\n");
            return -1;
        }
        o->set_ptr[o->n_set] = flags[k].pointer;
        /* JSON given whole ({...} or [...]) passes through; "a,b" becomes a list; a lone
         * ratio for --oversubscription is the leaf's. */
        int is_json = val[0] == '{' || val[0] == '[';
        int as_list = !is_json && flags[k].list &&
                      (strchr(val, ',') || strcmp(flags[k].pointer, "/fabric/oversubscription") == 0);
        if (strcmp(flags[k].pointer, "/overrides") == 0 && val[0] == '\0') {
            fprintf(stderr, "fabplan: %s needs a non-empty value (a file of cable overrides)\n",
                    flags[k].flag);
            return -1;
        }
        if (strcmp(flags[k].pointer, "/overrides") == 0 && !is_json)
            o->set_val[o->n_set] = path_to_json(val);
        else if (strcmp(flags[k].pointer, "/name") == 0) /* a name is text: --name 2026 */
            o->set_val[o->n_set] = json_string("", val);
        else
            o->set_val[o->n_set] = as_list ? list_to_json(val) : strdup(val);
        o->n_set++;
        return 1;
    }
    return 0;
}

int cli_parse_jobs(const char *cmd, int argc, char **argv, int *i, int *jobs)
{
    if (strcmp(argv[*i], "-j") != 0 && strcmp(argv[*i], "--jobs") != 0)
        return 0;
    char *end = NULL;
    long j = *i + 1 < argc ? strtol(argv[*i + 1], &end, 10) : 0;
    if (*i + 1 >= argc || end == argv[*i + 1] || *end != '\0' || j < 1 || j > 64) {
        fprintf(stderr, "fabplan %s: %s expects a number of workers from 1 to 64\n", cmd, argv[*i]);
        return -1;
    }
    *jobs = (int)j;
    ++*i;
    return 1;
}

int cli_default_jobs(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > 8 ? 8 : (int)cpus;
}

void cli_opts_free(cli_spec_opts *o)
{
    for (int i = 0; i < o->n_set; i++) {
        free(o->set_val[i]);
        free(o->set_ptr_owned[i]);
    }
    o->n_set = 0;
}

int cli_report(const char *what, const fp_error *err)
{
    fprintf(stderr, "fabplan: %s%s%s\n", what ? what : "", what ? ": " : "", err->msg);
    return cli_report_code(err);
}

int cli_report_code(const fp_error *err)
{
    switch (err->code) {
    case FP_EIO:
    case FP_ENOMEM:     /* the system refused a resource, like I/O: exit 4 */
    case FP_EGRAPH:
        return EXIT_IO;
    default:
        return EXIT_INPUT;
    }
}

int cli_report_all(const char *what, const fp_spec *spec, const fp_catalog *cat,
                   const fp_plan_options *opts, const fp_error *first)
{
    enum { MAX_ERRORS = 50 };
    static fp_error found[MAX_ERRORS];
    fp_error e = { 0 };
    size_t n = 0;
    if (fp_plan_check_all(spec, cat, opts, found, MAX_ERRORS, &n, &e) == FP_OK || n == 0)
        return cli_report(what, first);
    for (size_t i = 0; i < n; i++)
        cli_report(what, &found[i]);
    if (n == MAX_ERRORS)
        fprintf(stderr, "fabplan: %s%sstopped after %d errors\n", what ? what : "", what ? ": " : "",
                MAX_ERRORS);
    else if (n > 1)
        fprintf(stderr, "fabplan: %s%s%zu errors\n", what ? what : "", what ? ": " : "", n);
    return cli_report_code(first);
}

int cli_io_error(fp_error *err, const char *fmt, ...)
{
    va_list ap;
    err->code = FP_EIO;
    err->where[0] = '\0';
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return 1;
}

int cli_load(const cli_spec_opts *o, fp_catalog **cat, fp_spec **spec)
{
    fp_error err = { 0 };
    *cat = NULL;
    *spec = NULL;
    if (o->spec_path && o->preset) {
        fprintf(stderr, "fabplan: give a SPEC file or --preset, not both\n");
        return EXIT_USAGE;
    }
    if (fp_catalog_new(cat, &err) != FP_OK)
        return cli_report("catalog", &err);
    if (o->catalog_path && fp_catalog_merge_file(*cat, o->catalog_path, &err) != FP_OK)
        return cli_report(NULL, &err);
    fp_status rc;
    if (o->spec_path)
        rc = fp_spec_load(spec, o->spec_path, &err);
    else if (o->preset)
        rc = fp_spec_preset(spec, o->preset, &err);
    else
        rc = fp_spec_preset(spec, "default", &err);
    if (rc != FP_OK)
        return cli_report(NULL, &err);
    for (int i = 0; i < o->n_set; i++)
        if (fp_spec_set(*spec, o->set_ptr[i], o->set_val[i], &err) != FP_OK)
            return cli_report("command line", &err);
    return EXIT_OK;
}

int cli_inline_overrides(fp_spec *spec, const char *spec_path)
{
    fp_error err = { 0 };
    return fp_spec_inline_files(spec, &err) == FP_OK ? EXIT_OK : cli_report(spec_path, &err);
}
