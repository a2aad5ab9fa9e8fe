/* Plans built from several threads at once (issue 15): Debian's igraph keeps its error handler
 * and "finally" stack process-wide, and this used to abort in about 2 runs of 9 ("Corrupt
 * finally stack"). 4 threads x 40 plans must finish and give the same plan.json as serial runs. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <unistd.h>
#include "helpers.h"

#define THREADS 4
#define PLANS 40

static const char *const specs[] = {
    "{\"cluster\":{\"gpus\":256}}",
    "{\"cluster\":{\"gpus\":4096},\"fabric\":{\"tiers\":3}}",
    "{\"cluster\":{\"gpus\":512},\"fabric\":{\"topology\":\"clos\",\"oversubscription\":[3]}}",
    "{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"fat-tree\",\"switch\":{\"ports\":32,\"port_gbps\":400}}}",
    "{\"cluster\":{\"gpus\":768,\"nic\":\"generic-nic-2x400\"},\"fabric\":{\"planes\":2},\"layout\":{\"halls\":2}}",
};
#define N_SPECS (sizeof specs / sizeof specs[0])

static char *reference[N_SPECS];

static char *plan_json(const char *spec, fp_error *err)
{
    fp_catalog *cat = NULL;
    fp_spec *s = NULL;
    fp_plan *p = NULL;
    char *out = NULL;
    if (fp_catalog_new(&cat, err) == FP_OK &&
        fp_spec_parse(&s, spec, strlen(spec), "<thread>", err) == FP_OK &&
        fp_plan_new(&p, s, cat, err) == FP_OK)
        fp_plan_to_json(p, &out, err);
    fp_plan_free(p);
    fp_spec_free(s);
    fp_catalog_free(cat);
    return out;
}

typedef struct job {
    int id;
    int mismatches, failures;
    char first_error[256];
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (int i = 0; i < PLANS; i++) {
        size_t k = (size_t)(i + j->id) % N_SPECS;
        fp_error err = { 0 };
        char *got = plan_json(specs[k], &err);
        if (got == NULL) {
            if (j->failures++ == 0)
                snprintf(j->first_error, sizeof j->first_error, "%s", err.msg);
        } else if (strcmp(got, reference[k]) != 0) {
            j->mismatches++;
        }
        fp_free(got);
    }
    return NULL;
}

Test(threads, four_threads_forty_plans_match_serial, .timeout = TEST_TIMEOUT(300))
{
    for (size_t k = 0; k < N_SPECS; k++) {
        fp_error err = { 0 };
        reference[k] = plan_json(specs[k], &err);
        cr_assert_not_null(reference[k], "%s", err.msg);
    }
    pthread_t t[THREADS];
    job jobs[THREADS];
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < THREADS; i++) {
        jobs[i].id = i;
        cr_assert_eq(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        cr_expect_eq(jobs[i].failures, 0, "thread %d: %s", i, jobs[i].first_error);
        cr_expect_eq(jobs[i].mismatches, 0, "thread %d: plan.json differs from the serial run", i);
    }
    for (size_t k = 0; k < N_SPECS; k++)
        fp_free(reference[k]);
}

/* Writes with diagrams from several threads, each into its own folder: Graphviz is drawn one
 * diagram at a time under fabplan's lock, and the outputs equal a serial write's. */
typedef struct wjob {
    const fp_plan *plan;
    char dir[64];
    fp_status rc;
    char msg[256];
} wjob;

static void *writer(void *arg)
{
    wjob *w = arg;
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_JSON | FP_WRITE_OVERVIEW | FP_WRITE_FLOOR;
    for (int i = 0; i < 3 && w->rc == FP_OK; i++)
        w->rc = fp_plan_write(w->plan, w->dir, &o, &err);
    snprintf(w->msg, sizeof w->msg, "%s", err.msg);
    return NULL;
}

Test(threads, diagrams_from_four_threads, .timeout = TEST_TIMEOUT(300))
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":512}}");
    pthread_t t[THREADS];
    wjob w[THREADS];
    memset(w, 0, sizeof w);
    for (int i = 0; i < THREADS; i++) {
        w[i].plan = p;
        scratch_dir(w[i].dir, sizeof w[i].dir, "thr");
        cr_assert_eq(pthread_create(&t[i], NULL, writer, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        cr_expect_eq(w[i].rc, FP_OK, "thread %d: %s", i, w[i].msg);
    }
    const char *files[] = { "plan.json", "fabric.dot", "fabric.svg", "floor.svg" };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char a[128], b[128];
        snprintf(a, sizeof a, "%s/%s", w[0].dir, files[f]);
        char *x = slurp(a);
        for (int i = 1; i < THREADS; i++) {
            snprintf(b, sizeof b, "%s/%s", w[i].dir, files[f]);
            char *y = slurp(b);
            cr_expect_str_eq(x, y, "%s differs between threads", files[f]);
            free(y);
        }
        free(x);
    }
    fp_plan_free(p);
}
