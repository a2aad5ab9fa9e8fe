/* fabplan sweep --gpus A..B[:STEP]: plan the same spec at every GPU count of a range and write
 * sweep.csv and sweep.svg (cost, switches and optics per GPU, and tiers, against GPUs), so an
 * architect sees where tier and block boundaries cost money. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "fabplan/publish.h"

#define MAX_POINTS 20000
/* The GPUs of every size together: planning takes about 3 us of one core per GPU, so one
 * command line is bounded near 3-4 minutes of work (2^26 GPUs). */
#define MAX_SWEEP_GPUS ((int64_t)1 << 26)

typedef struct point {
    int64_t gpus;
    int ok;
    int oom;    /* failed for want of memory: the sweep's failure, not a row */
    int tiers;
    int64_t per_tier[4];
    int64_t switches, links, cables, transceivers;
    double cost, cost_per_gpu, switches_per_gpu, optics_per_gpu, power_per_gpu;
    int full_bisection;
    char reason[200];
} point;

static void sweep_usage(FILE *f)
{
    fputs("usage: fabplan sweep --gpus A..B[:STEP] [SPEC] [-o DIR] [options]\n"
          "Plan SPEC (or the built-in default) at every GPU count from A to B in steps of STEP\n"
          "(default: A) and write DIR/sweep.csv (one row per size: tiers, switches per tier,\n"
          "links, cables, transceivers, cost, per-GPU figures, full bisection) and DIR/sweep.svg\n"
          "(cost, switches and optics per GPU and tiers against GPUs; tier changes marked).\n"
          "A size that cannot be built is a row with its reason.\n\n", f);
    cli_spec_opts_help(f, "--gpus");
    fputs("  --gpus A..B[:STEP]  the range (A >= 1, B >= A, STEP >= 1; at most 20000 sizes and\n"
          "                      2^26 GPUs in all the sizes together)\n"
          "  -j, --jobs N        worker processes (default: the online CPUs, at most 8)\n"
          "  -o, --out DIR       output directory (default: sweep)\n"
          "  -q, --quiet         no summary on stdout\n", f);
}

/* "A..B[:STEP]"; 0 when malformed. */
static int parse_range(const char *s, int64_t *a, int64_t *b, int64_t *step)
{
    char *end;
    long long x = strtoll(s, &end, 10);
    if (end == s || strncmp(end, "..", 2) != 0)
        return 0;
    const char *t = end + 2;
    long long y = strtoll(t, &end, 10), z = x;
    if (end == t)
        return 0;
    if (*end == ':') {
        t = end + 1;
        z = strtoll(t, &end, 10);
        if (end == t)
            return 0;
    }
    if (*end != '\0' || x < 1 || y < x || z < 1)
        return 0;
    *a = x;
    *b = y;
    *step = z;
    return 1;
}

/* The spec and catalog, loaded once by cmd_sweep: a spec read from a pipe (/dev/stdin, a shell's
 * <(...)) cannot be read again, so each size only sets /cluster/gpus on this one (a worker
 * process sets its own copy). */
typedef struct sweep_src {
    fp_spec *spec;
    const fp_catalog *cat;
} sweep_src;

static void plan_point(point *pt, const sweep_src *src, int64_t gpus)
{
    fp_spec *spec = src->spec;
    fp_plan *plan = NULL;
    fp_error err = { 0 };
    char v[32];
    memset(pt, 0, sizeof *pt);
    pt->gpus = gpus;
    snprintf(v, sizeof v, "%lld", (long long)gpus);
    if (fp_spec_set(spec, "/cluster/gpus", v, &err) == FP_OK &&
        fp_plan_new(&plan, spec, src->cat, &err) == FP_OK) {
        fp_summary s;
        fp_totals t;
        fp_plan_summary(plan, &s);
        fp_plan_totals(plan, &t);
        pt->ok = 1;
        pt->tiers = s.tiers;
        for (size_t i = 0; i < fp_plan_tier_count(plan) && i < 4; i++) {
            fp_tier_info ti;
            if (fp_plan_tier(plan, i, &ti, NULL) == FP_OK)
                pt->per_tier[i] = ti.switches;
        }
        pt->switches = s.switches;
        pt->links = s.links;
        pt->cables = t.cables;
        pt->transceivers = t.transceivers;
        pt->cost = t.cost;
        pt->cost_per_gpu = t.cost_per_gpu;
        pt->switches_per_gpu = (double)s.switches / (double)gpus;
        pt->optics_per_gpu = t.transceivers_per_gpu;
        pt->power_per_gpu = t.power_w_per_gpu;
        pt->full_bisection = fp_plan_metrics(plan)->full_bisection;
    } else {
        snprintf(pt->reason, sizeof pt->reason, "%s", err.msg);
        pt->oom = err.code == FP_ENOMEM;
    }
    fp_plan_free(plan);
}

/* A worker process: plans every jobs-th size from k and writes each point into fd. */
static void worker(int fd, int k, int64_t n, int jobs, const sweep_src *src, int64_t a,
                   int64_t step)
{
    for (int64_t i = k; i < n; i += jobs) {
        point pt;
        plan_point(&pt, src, a + i * step);
        const char *b = (const char *)&pt;
        size_t left = sizeof pt;
        while (left > 0) {
            ssize_t w = write(fd, b, left);
            if (w <= 0)
                _exit(1);
            b += w;
            left -= (size_t)w;
        }
    }
    _exit(0);
}

/* Start the workers: pids[k], and fds[k] the pipe each writes its points into. */
static int start_workers(int jobs, int64_t n, const sweep_src *src, int64_t a, int64_t step,
                         int *fds, pid_t *pids)
{
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < jobs; k++) {
        int pfd[2];
        if (pipe(pfd) != 0 || (pids[k] = fork()) < 0) {
            fprintf(stderr, "fabplan sweep: cannot start a worker: %s\n", strerror(errno));
            return EXIT_IO;
        }
        if (pids[k] == 0) {
            close(pfd[0]);
            worker(pfd[1], k, n, jobs, src, a, step);
        }
        close(pfd[1]);
        fds[k] = pfd[0];
    }
    return EXIT_OK;
}

/* Read every worker's points as they come (a full pipe would stall its worker) into pts by
 * index; *got the points read. Closes each pipe at its end (fds[k] = -1). */
static int gather(point *pts, int64_t n, int jobs, int *fds, int64_t *got)
{
    point *buf = calloc((size_t)jobs, sizeof *buf);
    size_t *have = calloc((size_t)jobs, sizeof *have);
    int64_t *next = calloc((size_t)jobs, sizeof *next);
    int open_n = jobs, rc = EXIT_OK;
    if (buf == NULL || have == NULL || next == NULL)
        rc = EXIT_IO;
    for (int k = 0; k < jobs && next; k++)
        next[k] = k;
    while (rc == EXIT_OK && open_n > 0) {
        struct pollfd pf[64];
        int map[64], m = 0;
        for (int k = 0; k < jobs; k++)
            if (fds[k] >= 0) {
                pf[m].fd = fds[k];
                pf[m].events = POLLIN;
                map[m++] = k;
            }
        if (poll(pf, (nfds_t)m, -1) < 0) {
            if (errno == EINTR)
                continue;
            rc = EXIT_IO;
            break;
        }
        for (int j = 0; j < m; j++) {
            int k = map[j];
            if (!(pf[j].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t r = read(fds[k], (char *)&buf[k] + have[k], sizeof buf[k] - have[k]);
            if (r <= 0) {
                close(fds[k]);
                fds[k] = -1;
                open_n--;
                continue;
            }
            have[k] += (size_t)r;
            if (have[k] == sizeof buf[k]) {
                if (next[k] < n)
                    pts[next[k]] = buf[k];
                next[k] += jobs;
                have[k] = 0;
                (*got)++;
            }
        }
    }
    free(buf);
    free(have);
    free(next);
    return rc;
}

/* Plan every point with `jobs` worker processes (sizes are independent; each worker takes every
 * jobs-th size and sends its points back through a pipe), so a sweep uses every core. Results
 * land by index: the output does not depend on which worker finishes first. Returns an exit
 * code. */
static int plan_all(point *pts, int64_t n, const sweep_src *src, int64_t a, int64_t step,
                    int jobs)
{
    int fds[64];
    pid_t pids[64];
    int64_t got = 0;
    if (jobs <= 1 || n < 2) {
        for (int64_t i = 0; i < n; i++)
            plan_point(&pts[i], src, a + i * step);
        return EXIT_OK;
    }
    if (start_workers(jobs, n, src, a, step, fds, pids) != EXIT_OK)
        return EXIT_IO;
    int rc = gather(pts, n, jobs, fds, &got);
    for (int k = 0; k < jobs; k++) {
        int st;
        if (fds[k] >= 0)
            close(fds[k]);
        waitpid(pids[k], &st, 0);
        /* Every dead worker named, with how it died (the OOM killer's SIGKILL, a crash). */
        if (WIFSIGNALED(st))
            fprintf(stderr, "fabplan sweep: worker %d of %d (pid %ld) was killed by signal %d (%s)%s\n",
                    k + 1, jobs, (long)pids[k], WTERMSIG(st), strsignal(WTERMSIG(st)),
                    WTERMSIG(st) == SIGKILL ? "; out of memory? try fewer -j or a smaller range" : "");
        else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            fprintf(stderr, "fabplan sweep: worker %d of %d (pid %ld) failed (exit status %d)\n",
                    k + 1, jobs, (long)pids[k], WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            rc = rc == EXIT_OK ? EXIT_IO : rc;
    }
    if (rc == EXIT_OK && got != n) {
        fprintf(stderr, "fabplan sweep: a worker stopped early (%lld of %lld sizes planned)\n",
                (long long)got, (long long)n);
        rc = EXIT_IO;
    }
    return rc;
}

/* Write into f (created by fp_publish_create) and close it; 0 on a write error. */
static int write_csv(FILE *f, const point *p, size_t n)
{
    fputs("gpus,tiers,leaves,spines,cores,super_cores,switches,links,cables,transceivers,cost_usd,"
          "cost_per_gpu_usd,switches_per_gpu,optics_per_gpu,power_w_per_gpu,full_bisection,reason\n", f);
    for (size_t i = 0; i < n; i++) {
        if (!p[i].ok) {
            fprintf(f, "%lld,,,,,,,,,,,,,,,,", (long long)p[i].gpus);
            fp_csv_field(f, p[i].reason);
            fputc('\n', f);
            continue;
        }
        fprintf(f, "%lld,%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%.2f,%.2f,%.6f,%.4f,%.2f,%s,\n",
                (long long)p[i].gpus, p[i].tiers, (long long)p[i].per_tier[0],
                (long long)p[i].per_tier[1], (long long)p[i].per_tier[2],
                (long long)p[i].per_tier[3], (long long)p[i].switches, (long long)p[i].links,
                (long long)p[i].cables, (long long)p[i].transceivers, p[i].cost,
                p[i].cost_per_gpu, p[i].switches_per_gpu, p[i].optics_per_gpu,
                p[i].power_per_gpu, p[i].full_bisection ? "yes" : "no");
    }
    int bad = ferror(f);
    return (fclose(f) == 0) & !bad;
}

static double metric(const point *p, int k)
{
    return k == 0 ? p->cost_per_gpu : k == 1 ? p->switches_per_gpu * 1000
         : k == 2 ? p->optics_per_gpu : (double)p->tiers;
}

/* Four panels sharing the GPU axis; dashed lines where the tier count changes. */
static int write_svg(FILE *f, const point *p, size_t n, const char *title)
{
    static const char *const names[4] = { "cost per GPU (USD)", "switches per 1,000 GPUs",
                                          "optics per GPU", "tiers" };
    static const char *const colours[4] = { "#1f5fa8", "#2b8a3e", "#c2410c", "#6b21a8" };
    const double W = 1000, left = 90, right = 30, top = 50, ph = 170, gap = 40;
    const double H = top + 4 * (ph + gap) + 30;
    int64_t x0 = p[0].gpus, x1 = p[n - 1].gpus;
#define X(g) (left + (x1 > x0 ? (double)((g) - x0) / (double)(x1 - x0) : 0.5) * (W - left - right))
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"%.0f\" y=\"28\" font-size=\"16\" font-weight=\"bold\">", W, H, W, H, left);
    for (const char *c = title; *c; c++)
        fputs(*c == '<' ? "&lt;" : *c == '>' ? "&gt;" : *c == '&' ? "&amp;" : (char[2]){ *c, 0 }, f);
    fputs("</text>\n", f);
    for (int k = 0; k < 4; k++) {
        double y0 = top + k * (ph + gap), lo = 0, hi = 0;
        int any = 0;
        for (size_t i = 0; i < n; i++)
            if (p[i].ok) {
                double v = metric(&p[i], k);
                lo = any ? (v < lo ? v : lo) : v;
                hi = any ? (v > hi ? v : hi) : v;
                any = 1;
            }
        /* Round ticks (0, 2000, 4000: fp_axis_ticks), the axis from the first to the last;
         * tiers 1 to 4, one a tick. */
        fp_axis ax;
        if (k == 3)
            lo = 1, hi = 4;
        if (fp_axis_ticks(lo, hi, k == 3 ? 4 : 6, &ax, NULL) != FP_OK) {
            fclose(f);
            return 0;
        }
        lo = ax.lo;
        hi = ax.hi;
#define Y(v) (y0 + ph - ((v) - lo) / (hi - lo) * ph)
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\">%s</text>\n", left, y0 - 6, names[k]);
        fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#999\"/>\n",
                left, y0, W - left - right, ph);
        for (int t = 0; t < ax.count; t++) {
            double v = ax.tick[t];
            char num[64];
            fp_grouped_text(v, ax.decimals, num, sizeof num);
            fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                       "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    left, W - right, Y(v), Y(v), left - 6, Y(v) + 4, num);
        }
        /* tier changes */
        for (size_t i = 1; i < n; i++)
            if (p[i].ok && p[i - 1].ok && p[i].tiers != p[i - 1].tiers) {
                double x = (X(p[i - 1].gpus) + X(p[i].gpus)) / 2;
                fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#888\" "
                           "stroke-dasharray=\"4 3\"/>\n", x, x, y0, y0 + ph);
                if (k == 0)
                    fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" fill=\"#555\">%d to %d tiers</text>\n",
                            x + 4, y0 + 14, p[i - 1].tiers, p[i].tiers);
            }
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"", colours[k]);
        for (size_t i = 0; i < n; i++)
            if (p[i].ok)
                fprintf(f, "%.1f,%.1f ", X(p[i].gpus), Y(metric(&p[i], k)));
        fputs("\"/>\n", f);
        if (n <= 200)
            for (size_t i = 0; i < n; i++)
                if (p[i].ok)
                    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>\n",
                            X(p[i].gpus), Y(metric(&p[i], k)), colours[k]);
#undef Y
    }
    double yb = top + 4 * (ph + gap) - gap;
    /* GPU ticks at round counts inside the swept range (the axis spans the range itself). */
    fp_axis gx;
    if (fp_axis_ticks((double)x0, (double)x1, 10, &gx, NULL) != FP_OK) {
        fclose(f);
        return 0;
    }
    int drawn = 0;
    for (int t = 0; t <= gx.count; t++) {
        /* After the round ticks, the first size when none of them falls inside (one size). */
        int64_t g = t < gx.count ? (int64_t)llround(gx.tick[t]) : x0;
        char num[64];
        if (t < gx.count ? g < x0 || g > x1 : drawn > 0)
            continue;
        drawn++;
        fp_grouped_text((double)g, 0, num, sizeof num);
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#999\"/>"
                   "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n",
                X(g), X(g), yb, yb + 4, X(g), yb + 16, num);
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">GPUs</text>\n", W / 2, yb + 32);
    fputs("</svg>\n", f);
#undef X
    int bad = ferror(f);
    return (fclose(f) == 0) & !bad;
}

/* The command line into *o, *out, the --gpus range (its text *range, a..b step) and *jobs.
 * Returns -1 to go on, else the exit code. */
static int sweep_args(int argc, char **argv, cli_spec_opts *o, const char **out,
                      const char **range, int64_t *a, int64_t *b, int64_t *step, int *jobs)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            sweep_usage(stdout);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--gpus") == 0 || strncmp(argv[i], "--gpus=", 7) == 0) {
            if (argv[i][6] == '=')
                *range = argv[i] + 7;
            else if (i + 1 < argc)
                *range = argv[++i];
            if (*range == NULL || !parse_range(*range, a, b, step)) {
                fprintf(stderr, "fabplan sweep: --gpus expects A..B or A..B:STEP with 1 <= A <= B "
                                "and STEP >= 1 (e.g. 1024..131072:1024), found \"%s\"\n",
                        *range ? *range : "");
                return EXIT_USAGE;
            }
            continue;
        }
        int jr = cli_parse_jobs("sweep", argc, argv, &i, jobs);
        if (jr < 0)
            return EXIT_USAGE;
        if (jr > 0)
            continue;
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, "fabplan sweep: %s needs a directory\n", argv[i]);
                return EXIT_USAGE;
            }
            *out = argv[++i];
            continue;
        }
        int r = cli_parse_spec_opt(o, argc, argv, &i);
        if (r < 0)
            return EXIT_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_unknown_option("sweep", argv[i]);
        if (o->spec_path != NULL) {
            fprintf(stderr, "fabplan sweep: one SPEC, found a second: %s\n", argv[i]);
            return EXIT_USAGE;
        }
        o->spec_path = argv[i];
    }
    if (*range == NULL) {
        fprintf(stderr, "fabplan sweep: --gpus A..B[:STEP] is required\n");
        sweep_usage(stderr);
        return EXIT_USAGE;
    }
    return -1;
}

/* sweep.csv and sweep.svg, both or neither, through the publishing plan -o uses (lock, private
 * temporary folder, rollback, cleanup on SIGINT/SIGTERM). Returns the exit code. */
static int publish_sweep(const char *out, const point *pts, int64_t n, const char *title)
{
    fp_error err = { 0 };
    fp_publish *pub = NULL;
    FILE *f;
    if (fp_publish_begin(out, &pub, &err) != FP_OK)
        return cli_report("writing outputs", &err);
    if ((f = fp_publish_create(pub, "sweep.csv", &err)) == NULL ||
        (!write_csv(f, pts, (size_t)n) &&
         cli_io_error(&err, "cannot write %s/sweep.csv (disk full?)", out)) ||
        (f = fp_publish_create(pub, "sweep.svg", &err)) == NULL ||
        (!write_svg(f, pts, (size_t)n, title) &&
         cli_io_error(&err, "cannot write %s/sweep.svg (disk full?)", out))) {
        fp_publish_abort(pub);
        return cli_report("writing outputs", &err);
    }
    if (fp_publish_commit(pub, &err) != FP_OK)
        return cli_report("writing outputs", &err);
    return EXIT_OK;
}

/* The three largest rises in cost per GPU, and whether the tier count changed there. */
static void print_rises(const point *pts, int64_t n)
{
    int64_t best[3] = { -1, -1, -1 };
    for (int64_t i = 1; i < n; i++) {
        if (!pts[i].ok || !pts[i - 1].ok)
            continue;
        double d = pts[i].cost_per_gpu - pts[i - 1].cost_per_gpu;
        for (int k = 0; k < 3; k++)
            if (best[k] < 0 ||
                d > pts[best[k]].cost_per_gpu - pts[best[k] - 1].cost_per_gpu) {
                for (int m = 2; m > k; m--)
                    best[m] = best[m - 1];
                best[k] = i;
                break;
            }
    }
    for (int k = 0; k < 3 && best[k] > 0; k++) {
        const point *p0 = &pts[best[k] - 1], *p1 = &pts[best[k]];
        if (p1->cost_per_gpu <= p0->cost_per_gpu)
            break;
        char d[32], a[32], b[32];
        printf("  cost per GPU rises +$%s from %lld to %lld GPUs ($%s -> $%s)%s\n",
               fp_grouped_text(p1->cost_per_gpu - p0->cost_per_gpu, 0, d, sizeof d),
               (long long)p0->gpus, (long long)p1->gpus,
               fp_grouped_text(p0->cost_per_gpu, 0, a, sizeof a),
               fp_grouped_text(p1->cost_per_gpu, 0, b, sizeof b),
               p1->tiers != p0->tiers ? " at a tier change" : "");
    }
}

int cmd_sweep(int argc, char **argv)
{
    cli_spec_opts o = { 0 };
    const char *out = "sweep", *range = NULL;
    int64_t a = 0, b = 0, step = 0;
    int rc = EXIT_OK, jobs = 0;
    point *pts = NULL;
    fp_spec *spec = NULL;
    fp_catalog *cat = NULL;
    if ((rc = sweep_args(argc, argv, &o, &out, &range, &a, &b, &step, &jobs)) >= 0)
        goto done;
    rc = EXIT_OK;
    int64_t n = (b - a) / step + 1;
    if (n > MAX_POINTS) {
        fprintf(stderr, "fabplan sweep: --gpus %s gives %lld sizes; at most %d\n", range,
                (long long)n, MAX_POINTS);
        rc = EXIT_USAGE;
        goto done;
    }
    /* The sizes a, a + step, ..., a + (n - 1) step: n (first + last) / 2 GPUs, in double
     * because B may be any int64 (a size past the cluster limit is a row of its own). */
    double all_gpus = (double)n * ((double)a + ((double)a + (double)(n - 1) * (double)step)) / 2;
    if (all_gpus > (double)MAX_SWEEP_GPUS) {
        fprintf(stderr, "fabplan sweep: --gpus %s asks for %.0f GPUs in all (%lld sizes); at most "
                        "%lld (2^26) in one sweep: expected fewer sizes (a larger STEP) or a "
                        "smaller range\n",
                range, all_gpus, (long long)n, (long long)MAX_SWEEP_GPUS);
        rc = EXIT_INPUT;
        goto done;
    }
    /* The spec loads once, before anything is planned or written. */
    if ((rc = cli_load(&o, &cat, &spec)) != EXIT_OK ||
        (rc = cli_inline_overrides(spec, o.spec_path)) != EXIT_OK)
        goto done;
    sweep_src src = { spec, cat };
    pts = calloc((size_t)n, sizeof *pts);
    if (pts == NULL) {
        fprintf(stderr, "fabplan: out of memory\n");
        rc = EXIT_IO;
        goto done;
    }
    int64_t ok = 0;
    if (jobs == 0)
        jobs = cli_default_jobs();
    if (jobs > n)
        jobs = (int)n;
    if ((rc = plan_all(pts, n, &src, a, step, jobs)) != EXIT_OK)
        goto done;
    for (int64_t i = 0; i < n; i++) {
        ok += pts[i].ok;
        if (pts[i].oom) {
            fprintf(stderr, "fabplan sweep: out of memory planning %lld GPUs: %s\n",
                    (long long)pts[i].gpus, pts[i].reason);
            rc = EXIT_IO;
            goto done;
        }
    }
    if (ok == 0) {
        fprintf(stderr, "fabplan sweep: no size from %lld to %lld GPUs can be built: %s\n",
                (long long)a, (long long)b, pts[0].reason);
        rc = EXIT_INPUT;
        goto done;
    }
    char title[256];
    snprintf(title, sizeof title, "fabplan sweep %s%s%s", range, o.spec_path ? " " : "",
             o.spec_path ? o.spec_path : "");
    if ((rc = publish_sweep(out, pts, n, title)) != EXIT_OK)
        goto done;
    if (!o.quiet) {
        printf("sweep %s: %lld sizes, %lld planned, %lld cannot be built\n", range, (long long)n,
               (long long)ok, (long long)(n - ok));
        print_rises(pts, n);
        printf("  wrote %s/sweep.csv, %s/sweep.svg\n", out, out);
    }
done:
    free(pts);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    cli_opts_free(&o);
    return rc;
}
