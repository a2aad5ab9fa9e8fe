/* The CLI as a user runs it: exit codes, messages, outputs. */
#include <criterion/criterion.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"

#define BIN FP_TEST_BIN_DIR "/src/fabplan"

/* Run a shell command; capture stdout+stderr into out; return the exit code. */
static int run(const char *cmd, char *out, size_t n)
{
    char full[1024];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    cr_assert_not_null(p);
    size_t k = fread(out, 1, n - 1, p);
    out[k] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(cli, default_plan_writes_outputs)
{
    char out[8192], dir[64] = "/tmp/fabplan-cli-XXXXXX", cmd[256];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cd %s && " BIN " plan", dir);
    cr_assert_eq(run(cmd, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "16384 GPUs") != NULL, "%s", out);
    cr_expect(strstr(out, "using 3 tiers") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "%s/out/plan.json", dir);
    cr_expect_eq(access(cmd, F_OK), 0);
    snprintf(cmd, sizeof cmd, "%s/out/links.csv", dir);
    cr_expect_eq(access(cmd, F_OK), 0);
}

Test(cli, exit_codes)
{
    char out[8192];
    cr_expect_eq(run(BIN, out, sizeof out), 2);
    cr_expect_eq(run(BIN " frobnicate", out, sizeof out), 2);
    cr_expect_eq(run(BIN " plan --bogus", out, sizeof out), 2);
    cr_expect_eq(run(BIN " --version", out, sizeof out), 0);
    cr_expect(strstr(out, FP_VERSION) != NULL);
    cr_expect_eq(run(BIN " --help", out, sizeof out), 0);
    cr_expect_eq(run(BIN " plan --tiers 2 -o /tmp/fabplan-cli-never", out, sizeof out), 3);
    cr_expect(strstr(out, "2-tier maximum of 2048") != NULL, "%s", out);
    cr_expect_neq(access("/tmp/fabplan-cli-never/plan.json", F_OK), 0);
    cr_expect_eq(run(BIN " plan /nonexistent.json", out, sizeof out), 4, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 512 --switch nvidia-qm970", out, sizeof out), 3);
    cr_expect(strstr(out, "nvidia-qm9700") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 1024 --topology clos --oversubscription 2", out, sizeof out), 0, "%s", out);
}

Test(cli, spec_file_syntax_error_has_position)
{
    char out[8192];
    FILE *f = fopen("/tmp/fabplan-cli-bad.json", "w");
    fputs("{\n  \"cluster\": { \"gpus\": 12 \n}\n", f);
    fclose(f);
    cr_expect_eq(run(BIN " validate /tmp/fabplan-cli-bad.json", out, sizeof out), 3);
    cr_expect(strstr(out, "/tmp/fabplan-cli-bad.json:4:") != NULL, "%s", out);
}

Test(cli, flags_override_file)
{
    char out[8192];
    FILE *f = fopen("/tmp/fabplan-cli-spec.json", "w");
    fputs("{\"cluster\":{\"gpus\":65536},\"fabric\":{\"topology\":\"clos\"}}", f);
    fclose(f);
    cr_expect_eq(run(BIN " plan /tmp/fabplan-cli-spec.json --gpus 512 -o /tmp/fabplan-cli-o1", out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "clos fabric: 512 GPUs") != NULL, "%s", out);
    cr_expect_eq(run(BIN " plan --switch '{\"ports\":4,\"port_gbps\":400}' --topology fat-tree --gpus 16 --gpus-per-server 1 -o /tmp/fabplan-cli-o2",
                     out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "switches 20") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --gpus 512 --set /fabric/reserve=0.95", out, sizeof out), 3);
    cr_expect(strstr(out, "/fabric/reserve") != NULL, "%s", out);
    cr_expect_eq(run(BIN " validate --set reserve", out, sizeof out), 2);
}

Test(cli, catalog_list_and_show)
{
    char out[16384];
    cr_expect_eq(run(BIN " catalog list switch", out, sizeof out), 0);
    cr_expect(strstr(out, "nvidia-qm9700") && strstr(out, "nvidia-sn5600"), "%s", out);
    cr_expect(strstr(out, "nvidia-mma4z00-ns ") == NULL, "switch list shows a transceiver");
    cr_expect_eq(run(BIN " catalog show nvidia-sn5600", out, sizeof out), 0);
    cr_expect(strstr(out, "128 x 400G") != NULL, "%s", out);
    cr_expect_eq(run(BIN " catalog show sn5600x", out, sizeof out), 3);
    cr_expect(strstr(out, "nvidia-sn5600") != NULL, "%s", out);
}
