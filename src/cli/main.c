/* fabplan CLI — command dispatch. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* The termination signals a shell, a terminal or a batch scheduler sends (Slurm and PBS send
 * SIGTERM, SIGUSR1 or SIGALRM before the end of a job; SIGXCPU at a CPU limit). While writing:
 * remove the temporary folder (the earlier outputs were never touched), then die of the signal
 * as the shell expects. The library holds the same set back during its final renames. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
                                    SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU };

static void on_signal(int sig)
{
    fp_write_cleanup_signal();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        sigaddset(&sa.sa_mask, stop_signals[i]);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        sigaction(stop_signals[i], &sa, NULL);
    /* A file-size limit (ulimit -f) makes the write fail with EFBIG, an I/O error (exit 4)
     * with the file's name, instead of killing the process with its folder half written. */
    signal(SIGXFSZ, SIG_IGN);
}

typedef struct cli_cmd {
    const char *name;
    cli_cmd_fn fn;
    const char *help;
} cli_cmd;

static const cli_cmd cmds[] = {
    { "plan", cmd_plan, "build the fabric and write its documents (JSON, CSVs, workbook, diagrams)" },
    { "validate", cmd_validate, "check a spec: every check plan makes, nothing written" },
    { "catalog", cmd_catalog, "list the parts catalog or show one part" },
    { "presets", cmd_presets, "list the built-in specs" },
    { "compare", cmd_compare, "plan candidate designs side by side, sorted by cost" },
    { "sweep", cmd_sweep, "plan a spec at every GPU count of a range: sweep.csv, sweep.svg" },
    { "diff", cmd_diff, "compare two plans' cables: what an expansion phase adds, removes, moves" },
    { "verify", cmd_verify, "check the built fabric against the plan (ibnetdiscover, LLDP): verify.csv" },
};

static void usage(FILE *f)
{
    fprintf(f, "fabplan %s — plan the network fabric of a GPU cluster\n\n"
               "usage: fabplan COMMAND [ARGS]   (fabplan COMMAND --help for its options)\n\n",
            fp_version());
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].help);
    fputs("\nExit codes: 0 ok, 1 differences found (verify), 2 usage, 3 invalid spec or impossible\n"
          "design, 4 I/O or out of memory.\n", f);
}

static const cli_cmd *find_cmd(const char *name)
{
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(name, cmds[i].name) == 0)
            return &cmds[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    fprintf(stderr, "fabplan: unknown command \"%s\"\n", name);
    usage(stderr);
    return EXIT_USAGE;
}

static int run_command(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        (strcmp(argv[1], "help") == 0 && argc == 2)) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("fabplan %s\n", fp_version());
        return EXIT_OK;
    }
    /* fabplan help COMMAND: that command's --help */
    if (strcmp(argv[1], "help") == 0) {
        const cli_cmd *c = find_cmd(argv[2]);
        char *args[] = { argv[2], (char *)"--help", NULL };
        if (c == NULL)
            return unknown_command(argv[2]);
        return c->fn(2, args);
    }
    /* The shell completion's questions: commands, then a command's options. */
    if (strcmp(argv[1], "_options") == 0) {
        if (argc == 2) {
            for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
                printf("%s\n", cmds[i].name);
            printf("help\n");
            return EXIT_OK;
        }
        return cmd_options(argc - 1, argv + 1);
    }
    const cli_cmd *c = find_cmd(argv[1]);
    if (c == NULL)
        return unknown_command(argv[1]);
    /* --version answers on every command, wherever it stands, as --help does. */
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--version") == 0) {
            printf("fabplan %s\n", fp_version());
            return EXIT_OK;
        }
    /* --gpus=4096 as --gpus 4096, for every option of every command that takes a value */
    int n = 0;
    char **args = NULL;
    if (cli_split_equals(c->name, argc - 1, argv + 1, &n, &args) != 0) {
        fprintf(stderr, "fabplan: out of memory\n");
        return EXIT_IO;
    }
    int rc = c->fn(n, args);
    free(args);
    return rc;
}

/* The result of catalog list, presets, compare, validate ... is what they print: a write error
 * on stdout (a full disk, /dev/full) is exit 4 with the reason, for
 * every command at once, never a silent exit 0. */
int main(int argc, char **argv)
{
    install_handlers();
    int rc = run_command(argc, argv);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "fabplan: cannot write to standard output: %s\n",
                strerror(errno ? errno : EIO));
        if (rc == EXIT_OK || rc == EXIT_FAIL)
            rc = EXIT_IO;
    }
    return rc;
}
