/* fabplan CLI — catalog list / show, and presets. */
#include <string.h>
#include "cli.h"

static void catalog_usage(FILE *f)
{
    fputs("usage: fabplan catalog [list [TYPE]] [--catalog FILE]\n"
          "       fabplan catalog show ID [--catalog FILE]\n"
          "List the parts catalog (built in, plus FILE), optionally one TYPE\n"
          "(switch, nic, transceiver, cable, fibre), or show one part.\n",
          f);
}

static void show_part(const fp_part *p)
{
    printf("id:          %s\ntype:        %s\nname:        %s\n", p->id, fp_part_type_name(p->type), p->name);
    if (p->vendor[0])
        printf("vendor:      %s\n", p->vendor);
    if (p->ports)
        printf("ports:       %d x %dG\n", p->ports, p->port_gbps);
    else if (p->port_gbps)
        printf("speed:       %dG\n", p->port_gbps);
    if (p->cages && (p->type == FP_PART_SWITCH || (p->type == FP_PART_NIC && p->cages != p->ports)))
        printf("cages:       %d %s%s\n", p->cages, p->cage, p->cpo ? " (co-packaged optics)" : "");
    else if (p->cage[0])
        printf("cage:        %s%s%s\n", p->cage, p->leg_cage[0] ? " to " : "", p->leg_cage);
    if (p->line_cards)
        printf("line cards:  %d (modular chassis: spine and above)\n", p->line_cards);
    if (p->type != FP_PART_FIBRE)
        printf("protocol:    %s\n", p->protocol);
    if (p->breakouts[0]) {
        printf("breakouts:  ");
        for (int i = 0; i < FP_MAX_BREAKOUTS && p->breakouts[i]; i++)
            printf(" %d x %dG", p->ports * p->breakouts[i], p->port_gbps / p->breakouts[i]);
        printf("\n");
    }
    if (p->ru)
        printf("rack units:  %d\n", p->ru);
    if (p->lanes > 0)
        printf("lanes:       %d x %dG\n", p->lanes, p->lane_gbps);
    if (p->uplink_lanes > 0)
        printf("uplink lanes: %d x %dG\n", p->uplink_lanes, p->uplink_lane_gbps);
    if (p->lane_source[0])
        printf("lane source: %s\n", p->lane_source);
    if (p->reach_m > 0)
        printf("reach:       %g m\n", p->reach_m);
    if (p->fibre[0])
        printf("fibre:       %s\n", p->fibre);
    if (p->connector[0])
        printf("connector:   %s\n", p->connector);
    if (p->medium[0])
        printf("medium:      %s\n", p->medium);
    if (p->legs > 1)
        printf("legs:        %d\n", p->legs);
    if (p->hub_connector[0])
        printf("hub:         %s\n", p->hub_connector);
    if (p->n_lengths) {
        printf("lengths:    ");
        for (int i = 0; i < p->n_lengths; i++)
            printf(" %g", p->lengths_m[i]);
        printf(" m\n");
    }
    char price[32];
    printf("power:       %g W\nprice:       %s USD", p->power_w,
           fp_grouped_text(p->price_usd, 2, price, sizeof price));
    if (p->price_per_m_usd > 0)
        printf(" + %s USD/m", fp_grouped_text(p->price_per_m_usd, 2, price, sizeof price));
    printf("\n");
    if (p->mtbf_hours > 0)
        printf("MTBF:        %.0f h\n", p->mtbf_hours);
    printf("source:      %s\n", p->source);
}

/* catalog show ID: the part, or the close matches when there is none. Returns the exit code. */
static int catalog_show(const fp_catalog *cat, const char *arg)
{
    const fp_part *p = fp_catalog_find(cat, arg);
    if (p == NULL) {
        const char *near[5];
        size_t n = 0;
        for (int t = FP_PART_SWITCH; t <= FP_PART_FIBRE && n == 0; t++)
            n = fp_catalog_suggest(cat, arg, (fp_part_type)t, near, 5);
        fprintf(stderr, "fabplan catalog show: no part \"%s\"", arg);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "%s%s", i ? ", " : "; close matches: ", near[i]);
        fprintf(stderr, "\n");
        return EXIT_INPUT;
    }
    show_part(p);
    return EXIT_OK;
}

/* catalog list [TYPE]: a line per part (of that type). Returns the exit code. */
static int catalog_list(const fp_catalog *cat, const char *arg)
{
    int type = -1;
    if (arg) {
        for (int t = FP_PART_SWITCH; t <= FP_PART_FIBRE; t++)
            if (strcmp(arg, fp_part_type_name((fp_part_type)t)) == 0)
                type = t;
        if (type < 0) {
            fprintf(stderr, "fabplan catalog list: unknown type %s (expected switch, nic, transceiver, cable or fibre)\n", arg);
            return EXIT_USAGE;
        }
    }
    printf("%-28s %-12s %-14s %12s  %s\n", "id", "type", "ports/speed", "price USD", "name");
    for (size_t i = 0; i < fp_catalog_count(cat); i++) {
        const fp_part *p = fp_catalog_part(cat, i);
        char spd[32] = "";
        if (type >= 0 && (int)p->type != type)
            continue;
        if (p->ports)
            snprintf(spd, sizeof spd, "%dx%dG", p->ports, p->port_gbps);
        else if (p->port_gbps)
            snprintf(spd, sizeof spd, "%dG", p->port_gbps);
        char price[32];
        printf("%-28s %-12s %-14s %12s  %s\n", p->id, fp_part_type_name(p->type), spd,
               fp_grouped_text(p->price_usd, 2, price, sizeof price), p->name);
    }
    return EXIT_OK;
}

int cmd_catalog(int argc, char **argv)
{
    const char *sub = "list", *arg = NULL, *file = NULL;
    fp_catalog *cat = NULL;
    fp_error err = { 0 };
    int rc = EXIT_OK, npos = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            catalog_usage(stdout);
            return EXIT_OK;
        } else if (strcmp(argv[i], "--catalog") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, "fabplan catalog: --catalog needs a value (a catalog file)\n");
                return EXIT_USAGE;
            }
            file = argv[++i];
        } else if (argv[i][0] == '-') {
            return cli_unknown_option("catalog", argv[i]);
        } else if (npos == 0) {
            sub = argv[i];
            npos++;
        } else if (npos == 1) {
            arg = argv[i];
            npos++;
        } else {
            catalog_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (strcmp(sub, "list") != 0 && strcmp(sub, "show") != 0) {
        fprintf(stderr, "fabplan catalog: unknown subcommand %s (expected list or show)\n", sub);
        return EXIT_USAGE;
    }
    if (strcmp(sub, "show") == 0 && arg == NULL) {
        fprintf(stderr, "fabplan catalog show: give a part ID (fabplan catalog list shows them)\n");
        return EXIT_USAGE;
    }
    if (fp_catalog_new(&cat, &err) != FP_OK ||
        (file && fp_catalog_merge_file(cat, file, &err) != FP_OK))
        rc = cli_report("catalog", &err);
    else
        rc = strcmp(sub, "show") == 0 ? catalog_show(cat, arg) : catalog_list(cat, arg);
    fp_catalog_free(cat);
    return rc;
}

/* text after `indent` columns (already printed), wrapped at spaces to lines of at most `width`
 * columns, each continuation line indented as much; a word longer than a line stands alone. */
static void print_wrapped(const char *text, int indent, int width)
{
    int at = indent;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        int n = (int)strcspn(p, " ");
        if (n == 0)
            break;
        if (at > indent && at + 1 + n > width) {
            printf("\n%*s", indent, "");
            at = indent;
        } else if (at > indent) {
            putchar(' ');
            at++;
        }
        printf("%.*s", n, p);
        at += n;
        p += n;
    }
    putchar('\n');
}

/* `fabplan presets NAME`: the preset's spec as JSON, to start a spec of one's own from. */
static int preset_show(const char *name)
{
    fp_spec *spec = NULL;
    fp_error err = { 0 };
    char *json = NULL;
    if (fp_spec_preset(&spec, name, &err) != FP_OK || fp_spec_to_json(spec, &json, &err) != FP_OK) {
        fp_spec_free(spec);
        return cli_report("presets", &err);
    }
    printf("%s\n", json);
    fp_free(json);
    fp_spec_free(spec);
    return EXIT_OK;
}

int cmd_presets(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: fabplan presets [NAME]\nList the built-in specs (use one with --preset NAME);\n"
               "with NAME, print that preset's spec as JSON.\n");
        return EXIT_OK;
    }
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_unknown_option("presets", argv[i]);
    if (argc > 2) {
        fprintf(stderr, "fabplan presets: takes one preset name at most, found \"%s\" (usage: "
                "fabplan presets [NAME])\n", argv[argc > 2 ? 2 : 1]);
        return EXIT_USAGE;
    }
    if (argc == 2)
        return preset_show(argv[1]);
    /* names in a column as wide as the longest, descriptions wrapped at words to 100 columns */
    int w = 0;
    for (size_t i = 0; i < fp_spec_preset_count(); i++) {
        char name[64];
        if (fp_spec_preset_info(i, name, sizeof name, NULL, 0, NULL) == FP_OK &&
            (int)strlen(name) > w)
            w = (int)strlen(name);
    }
    for (size_t i = 0; i < fp_spec_preset_count(); i++) {
        char name[64], desc[4096];
        if (fp_spec_preset_info(i, name, sizeof name, desc, sizeof desc, NULL) != FP_OK)
            continue;
        printf("%-*s  ", w, name);
        print_wrapped(desc, w + 2, 100);
    }
    return EXIT_OK;
}
