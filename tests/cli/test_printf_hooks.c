/* The programs refuse glibc's printf hooks (src/cli/printf_hooks.c): libquadmath is in the
 * process (Debian's igraph -> ARPACK -> libgfortran -> libquadmath) but registers none. This
 * binary links printf_hooks.c the way the CLI does. */
#include <dlfcn.h>
#include <errno.h>
#include <printf.h>
#include <pthread.h>
#include <time.h>
#include "helpers.h"

#define BIN FP_TEST_BIN_DIR "/src/fabplan"

/* libquadmath in this process (else the test below would pass for the wrong reason). */
static void expect_quadmath_loaded(void)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":64}}");   /* uses igraph: keeps it linked */
    fp_plan_free(p);
    void *q = dlopen("libquadmath.so.0", RTLD_NOLOAD | RTLD_LAZY);
    cr_assert_not_null(q, "libquadmath is not loaded: if igraph no longer pulls it in, "
                          "src/cli/printf_hooks.c and this test can go");
    dlclose(q);
}

Test(printf_hooks, quadmath_is_loaded_but_its_conversion_is_not_registered)
{
    expect_quadmath_loaded();
    /* With libquadmath's hooks, "%Qf" formats a __float128 as "1.500000"; without them glibc
     * copies the unknown conversion as it is. A variable format keeps -Wformat out of it. */
    const char *fmt = "<%Qf>";
    char buf[64];
    snprintf(buf, sizeof buf, fmt, (__float128)1.5);
    cr_expect_str_eq(buf, "<%Qf>");
}

Test(printf_hooks, the_refusals_answer_as_glibc_does_for_a_bad_argument)
{
    errno = 0;
    cr_expect_eq(register_printf_modifier(L"Q"), -1);
    cr_expect_eq(errno, ENOSYS);
    errno = 0;
    cr_expect_eq(register_printf_specifier('Z', NULL, NULL), -1);
    cr_expect_eq(errno, ENOSYS);
}

/* The CLI itself: the dynamic linker binds libquadmath's registration call to the CLI's
 * refusal, not to glibc (LD_DEBUG=bindings names both ends of every binding). */
Test(printf_hooks, the_cli_binds_libquadmath_to_its_refusal)
{
    char out[8192];
    int rc = run_shell("LD_DEBUG=bindings " BIN " presets 2>&1 >/dev/null | "
                       "grep 'libquadmath.*register_printf'", out, sizeof out);
    cr_assert_eq(rc, 0, "libquadmath registers no printf hook at all: %s", out);
    cr_expect_not_null(strstr(out, "/src/fabplan [0]: normal symbol `register_printf_type'"),
                       "%s", out);
    cr_expect_null(strstr(out, "libc.so.6 [0]: normal symbol `register_printf"),
                   "a hook reached glibc:\n%s", out);
}

/* gmtime with a result per thread (src/cli/gmtime_hook.c): libxlsxwriter calls gmtime() when it
 * closes a workbook, and the CLI closes workbooks on several threads. Two threads' results are
 * two buffers, each the time it was asked for (1 January 1970 and 2001-09-09 01:46:40 UTC,
 * time 1e9); and the CLI binds libxlsxwriter's call to its own definition, not glibc's. */
static void *gmtime_of_a_billion(void *arg)
{
    (void)arg;
    time_t t = 1000000000;
    return gmtime(&t);
}

Test(printf_hooks, gmtime_keeps_one_result_per_thread)
{
    time_t zero = 0;
    struct tm *mine = gmtime(&zero);
    pthread_t th;
    void *theirs = NULL;
    cr_assert_eq(pthread_create(&th, NULL, gmtime_of_a_billion, NULL), 0);
    pthread_join(th, &theirs);
    cr_assert_not_null(theirs);
    cr_expect_neq((void *)mine, theirs, "both threads got the same static result");
    cr_expect_eq(mine->tm_year, 70, "this thread's result was overwritten: year %d", mine->tm_year);
    cr_expect_eq(mine->tm_yday, 0);
}

Test(printf_hooks, the_cli_binds_libxlsxwriter_gmtime_to_its_own)
{
    char out[8192], cmd[512], dir[] = "/tmp/fabplan-gmtime-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cd %s && LD_DEBUG=bindings " BIN " plan --gpus 64 --formats xlsx "
             "-o out -q 2>&1 >/dev/null | grep \"symbol .gmtime'\"", dir);
    int rc = run_shell(cmd, out, sizeof out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
    cr_assert_eq(rc, 0, "no binding of gmtime seen: %s", out);
    /* Each line reads "binding file FROM [0] to TO [0]: normal symbol `gmtime'". Only
     * libxlsxwriter's own lines count: under AddressSanitizer the executable itself also binds
     * glibc's gmtime (the sanitizer's interceptor looks up the real one), which is not a call
     * of libxlsxwriter's. */
    int xlsx_lines = 0, xlsx_to_fabplan = 0;
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strstr(line, "libxlsxwriter.so.4 [0] to ") == NULL)
            continue;
        xlsx_lines++;
        xlsx_to_fabplan += strstr(line, "/src/fabplan [0]: normal symbol `gmtime'") != NULL;
        cr_expect_null(strstr(line, "libc.so.6"), "libxlsxwriter bound to glibc: %s", line);
    }
    cr_expect_gt(xlsx_lines, 0, "no binding of libxlsxwriter's gmtime seen");
    cr_expect_eq(xlsx_to_fabplan, xlsx_lines, "libxlsxwriter's gmtime bound elsewhere than the CLI");
}
