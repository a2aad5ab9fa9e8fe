/* fabplan CLI — shared declarations. The CLI owns stdout, stderr and exit codes. */
#ifndef FABPLAN_CLI_H
#define FABPLAN_CLI_H

#include <stdio.h>
#include "fabplan.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_INPUT = 3, EXIT_IO = 4 };

typedef int (*cli_cmd_fn)(int argc, char **argv);

/* Options shared by commands that read a spec. */
typedef struct cli_spec_opts {
    const char *spec_path;      /* positional SPEC, or NULL for the built-in default */
    const char *preset;
    const char *catalog_path;
    const char *out_dir;
    int quiet;
    /* command-line overrides, applied in order: JSON pointer and value */
    const char *set_ptr[32];
    char *set_val[32];
    char *set_ptr_owned[32];    /* pointers given with --set, freed with the options */
    int n_set;
    /* failure what-if (cli_metrics.c): --fail specs and --seed */
    const char *fail[32];
    int n_fail;
    unsigned long long seed;
} cli_spec_opts;

/* Parse one shared option at argv[*i]; returns 1 if consumed, 0 if not ours, -1 on error
 * (message printed). */
int cli_parse_spec_opt(cli_spec_opts *o, int argc, char **argv, int *i);
/* Build the catalog and spec from the options; returns an exit code. */
int cli_load(const cli_spec_opts *o, fp_catalog **cat, fp_spec **spec);
/* For commands that build many plans from one spec (sweep, compare): fp_spec_inline_files, so
 * the overrides file is read once (a pipe, /dev/stdin or a shell's <(...), is empty the second
 * time). spec_path prefixes the message. Returns an exit code (message printed). */
int cli_inline_overrides(fp_spec *spec, const char *spec_path);
void cli_opts_free(cli_spec_opts *o);
/* Print an error from the library with the right exit code. */
int cli_report(const char *what, const fp_error *err);
/* The exit code for err (cli_report's, without printing). */
int cli_report_code(const fp_error *err);
/* A spec that failed to plan (first: fp_plan_new_opts's error): every independent error of it
 * (fp_plan_check_all, at most 50, in the order the spec gives them), one line each as
 * cli_report prints, then how many; the exit code of first. */
int cli_report_all(const char *what, const fp_spec *spec, const fp_catalog *cat,
                   const fp_plan_options *opts, const fp_error *first);
/* Fill err as an FP_EIO error with a printf-style message (for cli_report); returns 1. */
int cli_io_error(fp_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The spec options' help, all but skip (an option the command gives a meaning of its own, or
 * NULL). */
void cli_spec_opts_help(FILE *f, const char *skip);
/* -j N / --jobs N at argv[*i] (N from 1 to 64) into *jobs: 1 consumed, 0 not ours, -1 bad
 * (message printed, naming cmd). */
int cli_parse_jobs(const char *cmd, int argc, char **argv, int *i, int *jobs);
/* The number of workers for jobs 0 (the default): the online CPUs, at most 8. */
int cli_default_jobs(void);

/* Option names (options.c): the spec flags of common.c; every option COMMAND takes, into out
 * (at most max; returns how many there are); the closest to a mistyped arg or NULL; and the
 * message for an unknown option (returns EXIT_USAGE). */
size_t cli_spec_flag_names(const char **out, size_t max);
size_t cli_option_names(const char *cmd, const char **out, size_t max);
const char *cli_suggest_option(const char *cmd, const char *arg);
int cli_unknown_option(const char *cmd, const char *arg);
/* argv (argv[0] the command's name) with each "--name=value" of an option of cmd that takes a
 * value as two words, "--name" and "value"; a word after such an option given alone is its
 * value, left whole. Into *out, NULL-terminated, *out_argc words; free(*out) frees it all.
 * Returns 0, or -1 when out of memory. */
int cli_split_equals(const char *cmd, int argc, char **argv, int *out_argc, char ***out);
/* `fabplan _options COMMAND`: one option per line, for the shell completion; `fabplan
 * _options --formats`: the values --formats takes, one per line. */
int cmd_options(int argc, char **argv);
/* The names --formats takes, in the table's order, sep between them (the unknown-name message
 * and `fabplan _options --formats`, the bash completion's list). */
void cli_format_names(FILE *f, const char *sep);

int cmd_plan(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_catalog(int argc, char **argv);
int cmd_presets(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

/* cli_metrics.c: --fail/--seed options, the failure what-if and the metrics summary lines. */
int cli_parse_fail_opt(cli_spec_opts *o, int argc, char **argv, int *i);
void cli_fail_opts_help(FILE *f);
/* Run o's failure what-if on the plan into *report; *have is 1 when o gave failures. Returns an
 * exit code. */
int cli_apply_failures(fp_failure_report *report, int *have, const fp_plan *plan,
                       const cli_spec_opts *o);
/* The metrics lines, and the what-if's when failure is not NULL. */
void cli_print_metrics(const fp_plan *plan, const fp_failure_report *failure);

#endif
