/* report.html and compare.html as a reviewer opens them: in a real headless Chromium (Debian's
 * chromium package, scripts/install-deps.sh). Each page must load with no console message (the
 * pages carry a Content-Security-Policy that forbids any request, so a fetched font, image or
 * script would show up as a CSP violation on the console) and its screenshot must not be blank
 * (decoded here with zlib: more than 3 % of the pixels differ from the white background). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include "helpers.h"

#define BIN FP_TEST_BIN_DIR "/src/fabplan"

static int sh(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Share of pixels of an 8-bit RGB or RGBA PNG that are not (near) white. */
static double ink_share(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "no screenshot %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *png = malloc((size_t)n);
    cr_assert_eq(fread(png, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    cr_assert(n > 33 && memcmp(png, "\x89PNG", 4) == 0, "%s is not a PNG", path);
    uint32_t w = be32(png + 16), h = be32(png + 20);
    int depth = png[24], type = png[25], bpp = type == 6 ? 4 : 3;
    cr_assert(depth == 8 && (type == 2 || type == 6) && png[28] == 0, "PNG type %d depth %d", type,
              depth);
    unsigned char *idat = malloc((size_t)n);
    size_t len = 0;
    for (long p = 8; p + 12 <= n;) {
        uint32_t clen = be32(png + p);
        if (memcmp(png + p + 4, "IDAT", 4) == 0) {
            memcpy(idat + len, png + p + 8, clen);
            len += clen;
        }
        p += 12 + (long)clen;
    }
    size_t stride = (size_t)w * (size_t)bpp;
    uLongf raw_len = (uLongf)((stride + 1) * h);
    unsigned char *raw = malloc(raw_len);
    cr_assert_eq(uncompress(raw, &raw_len, idat, (uLong)len), Z_OK);
    long ink = 0;
    for (uint32_t y = 0; y < h; y++) {
        unsigned char *line = raw + y * (stride + 1), *cur = line + 1;
        unsigned char *prev = y ? raw + (y - 1) * (stride + 1) + 1 : NULL;
        for (size_t x = 0; x < stride; x++) {
            int a = x >= (size_t)bpp ? cur[x - bpp] : 0, b = prev ? prev[x] : 0;
            int c = prev && x >= (size_t)bpp ? prev[x - bpp] : 0;
            switch (line[0]) {
            case 1: cur[x] = (unsigned char)(cur[x] + a); break;
            case 2: cur[x] = (unsigned char)(cur[x] + b); break;
            case 3: cur[x] = (unsigned char)(cur[x] + (a + b) / 2); break;
            case 4: cur[x] = (unsigned char)(cur[x] + paeth(a, b, c)); break;
            default: break;
            }
        }
        for (uint32_t x = 0; x < w; x++) {
            const unsigned char *px = cur + x * (uint32_t)bpp;
            ink += px[0] < 235 || px[1] < 235 || px[2] < 235;
        }
    }
    free(raw);
    free(idat);
    free(png);
    return (double)ink / ((double)w * (double)h);
}

/* Open page in headless Chromium: returns the console lines (caller frees) and writes shot. */
static char *open_in_chromium(const char *page, const char *shot)
{
    char profile[128], cmd[2048];
    scratch_dir(profile, sizeof profile, "chromium");
    cr_assert_eq(sh("command -v chromium >/dev/null"), 0,
                 "chromium is not installed: run scripts/install-deps.sh");
    snprintf(cmd, sizeof cmd,
             "timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic "
             "--no-first-run --disable-background-networking --disable-component-update "
             "--disable-sync --user-data-dir=%s --enable-logging=stderr --v=0 "
             "--window-size=1280,1600 --screenshot=%s file://%s 2>&1 | grep ':CONSOLE' || true",
             profile, shot, page);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    char *out = calloc(1, 65536);
    size_t k = fread(out, 1, 65535, p);
    out[k] = '\0';
    pclose(p);
    snprintf(cmd, sizeof cmd, "rm -rf %s", profile);
    sh(cmd);
    return out;
}

static void check_page(const char *page, const char *shot)
{
    char *console = open_in_chromium(page, shot);
    cr_expect_str_eq(console, "", "%s: console says:\n%s", page, console);
    double ink = ink_share(shot);
    cr_expect_gt(ink, 0.03, "%s: the screenshot is %.2f%% ink, blank", page, 100 * ink);
    free(console);
}

/* `fabplan plan ARGS --formats report,diagrams` into a new scratch folder (its path into dir,
 * report.html's into page); report.html's text (caller frees). */
static char *plan_report(const char *args, char *dir, size_t n, char *page, size_t page_n)
{
    char cmd[512];
    scratch_dir(dir, n, "report");
    snprintf(cmd, sizeof cmd, BIN " plan %s --formats report,diagrams -q -o %s", args, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    snprintf(page, page_n, "%s/report.html", dir);
    return slurp(page);
}

Test(report, default_plan_report_opens_in_chromium, .timeout = TEST_TIMEOUT(120))
{
    char dir[128], page[160], shot[160];
    char *html = plan_report("", dir, sizeof dir, page, sizeof page);
    /* self-contained: no attribute loads anything (the SVGs' xmlns URIs are names, not loads) */
    cr_expect(strstr(html, "src=") == NULL, "report.html loads a resource");
    cr_expect(strstr(html, "href=\"http") == NULL && strstr(html, "url(") == NULL);
    /* the default spec: 16,384 GPUs; all three diagrams inlined as <svg> */
    cr_expect(strstr(html, "16,384") != NULL);
    int svgs = 0;
    for (const char *p = html; (p = strstr(p, "<svg")) != NULL; p++)
        svgs++;
    cr_expect_geq(svgs, 3 + 3, "charts and diagrams: %d <svg>", svgs);   /* 3 charts, 3 diagrams */
    free(html);
    snprintf(shot, sizeof shot, "%s/report.png", dir);
    check_page(page, shot);
}

/* Issue 27: the detail diagram shrank to illegibility inside the page with no way to the file.
 * Every diagram in the folder (each .svg beside report.html) is inlined once and linked by its
 * name right after its caption; the drawing sits in a box that scrolls rather than being
 * squeezed to a fixed height. */
Test(report, links_each_diagram_to_its_file, .timeout = TEST_TIMEOUT(120))
{
    char dir[128], page[160], want[256];
    char *html = plan_report("--gpus 1024", dir, sizeof dir, page, sizeof page);
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".svg") != 0)
            continue;
        files++;
        snprintf(want, sizeof want, "full size: <a href=\"%s\">%s</a></figcaption>", e->d_name,
                 e->d_name);
        const char *at = strstr(html, want);
        cr_expect_not_null(at, "report.html does not link %s", e->d_name);
        cr_expect(at == NULL || strstr(at + 1, want) == NULL, "%s linked twice", e->d_name);
    }
    closedir(d);
    /* fabric, group-1, su-1 (or pod-1), floor */
    cr_expect_geq(files, 4, "%d diagrams written", files);
    int links = 0, figures = 0;
    for (const char *p = html; (p = strstr(p, "full size: <a href=")) != NULL; p++)
        links++;
    for (const char *p = html; (p = strstr(p, "<figure><div class=\"drawing\"><svg")) != NULL; p++)
        figures++;
    cr_expect_eq(links, files, "%d links for %d diagram files", links, files);
    cr_expect_eq(figures, files, "%d drawings in scrolling boxes for %d files", figures, files);
    cr_expect_not_null(strstr(html, "figure .drawing{max-height:85vh;overflow:auto}"));
    cr_expect_null(strstr(html, "max-height:1000px"), "drawings squeezed to a fixed height");
    free(html);
}

Test(report, compare_html_opens_in_chromium, .timeout = TEST_TIMEOUT(120))
{
    char dir[128], cmd[512], page[128], shot[128];
    scratch_dir(dir, sizeof dir, "compare");
    snprintf(cmd, sizeof cmd, BIN " compare --gpus 1024 -q -o %s", dir);
    cr_assert_eq(sh(cmd), 0);
    snprintf(page, sizeof page, "%s/compare.html", dir);
    snprintf(shot, sizeof shot, "%s/compare.png", dir);
    check_page(page, shot);
}

/* svg fitted into a 1,280 x 720 px box in Chromium (an SVG's default preserveAspectRatio,
 * xMidYMid meet): the smallest text as drawn (its font-size times the SVG's screen matrix), and
 * whether everything drawn lies inside the viewBox (nothing cut off at the slide's edge). */
static double chromium_fitted_font(const char *svg_path, int *inside)
{
    char page[256], profile[128], cmd[1024];
    snprintf(page, sizeof page, "%s.fit.html", svg_path);
    char *svg = slurp(svg_path);
    const char *root = strstr(svg, "<svg");
    cr_assert_not_null(root, "%s", svg_path);
    FILE *f = fopen(page, "w");
    cr_assert_not_null(f);
    fprintf(f, "<!DOCTYPE html><html><body style=\"margin:0\"><div style=\"width:1280px;"
               "height:720px\">%s</div><script>\n"
               "var s = document.querySelector('svg'), least = 1e9;\n"
               "s.setAttribute('width', '1280'); s.setAttribute('height', '720');\n"
               "var m = s.getScreenCTM(), vb = s.viewBox.baseVal, bb = s.getBBox();\n"
               "document.querySelectorAll('text').forEach(function (t) {\n"
               "  least = Math.min(least, parseFloat(t.getAttribute('font-size'))); });\n"
               "var inside = bb.x >= vb.x - 1 && bb.y >= vb.y - 1 && bb.x + bb.width <= vb.x + vb.width + 1"
               " && bb.y + bb.height <= vb.y + vb.height + 1;\n"
               "document.body.insertAdjacentHTML('beforeend', '<pre id=\"fit\">' + 'px=' + (least * m.a)"
               " + ' inside=' + (inside ? 1 : 0) + '</pre>');\n"
               "</script></body></html>\n", root);
    fclose(f);
    free(svg);
    scratch_dir(profile, sizeof profile, "chromium");
    snprintf(cmd, sizeof cmd,
             "timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic "
             "--no-first-run --disable-background-networking --disable-component-update "
             "--disable-sync --user-data-dir=%s --window-size=1280,720 --dump-dom file://%s "
             "2>/dev/null", profile, page);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    static char dom[1 << 22];
    size_t k = fread(dom, 1, sizeof dom - 1, p);
    dom[k] = '\0';
    pclose(p);
    const char *at = strstr(dom, "<pre id=\"fit\">px=");
    cr_assert_not_null(at, "%s: Chromium gave no measure", svg_path);
    double px = 0;
    cr_assert_eq(sscanf(at + strlen("<pre id=\"fit\">px="), "%lf inside=%d", &px, inside), 2);
    return px;
}

/* Issue 27: the floor plans fit a 16:9 slide at any size. Each of floor.svg and the hall plans
 * (floor-by-hall/) of the 131,072-GPU plan (7 halls) and of examples/specs' two-halls spec,
 * fitted by Chromium into 1,280 x 720 px, draws no text under 10 px and nothing outside its
 * viewBox. */
Test(report, floor_plans_fit_a_slide_in_chromium, .timeout = TEST_TIMEOUT(300))
{
    char dir[128], cmd[512], path[512];
    const char *plans[] = { "--gpus 131072", FP_TEST_SRC_DIR "/examples/specs/two-halls-layout-media-bom.json" };
    cr_assert_eq(sh("command -v chromium >/dev/null"), 0,
                 "chromium is not installed: run scripts/install-deps.sh");
    for (size_t k = 0; k < 2; k++) {
        scratch_dir(dir, sizeof dir, "floor");
        snprintf(cmd, sizeof cmd, BIN " plan %s --formats floor -q -o %s", plans[k], dir);
        cr_assert_eq(sh(cmd), 0, "%s", cmd);
        /* floor.svg, then each hall's */
        static char paths[80][512];
        int files = 0;
        snprintf(paths[files++], sizeof paths[0], "%s/floor.svg", dir);
        snprintf(path, sizeof path, "%s/floor-by-hall", dir);
        DIR *d = opendir(path);
        cr_assert_not_null(d, "%s: no floor-by-hall/", plans[k]);
        for (struct dirent *e; (e = readdir(d)) != NULL && files < 80;)
            if (e->d_name[0] == 'H')
                snprintf(paths[files++], sizeof paths[0], "%s/%s", path, e->d_name);
        closedir(d);
        for (int i = 0; i < files; i++) {
            int inside = 0;
            double px = chromium_fitted_font(paths[i], &inside);
            cr_expect_geq(px, 10.0, "%s: smallest text %.2f px at 1,280 x 720", paths[i], px);
            cr_expect(inside, "%s: drawn outside its viewBox", paths[i]);
        }
        cr_expect_geq(files, 3, "%s: %d files", plans[k], files);
    }
}

/* A blank page must fail the ink check (so the check above can fail). */
Test(report, blank_page_has_no_ink, .timeout = TEST_TIMEOUT(60))
{
    char dir[128], page[128], shot[128];
    scratch_dir(dir, sizeof dir, "blank");
    snprintf(page, sizeof page, "%s/blank.html", dir);
    FILE *f = fopen(page, "w");
    fputs("<!DOCTYPE html><html><body></body></html>\n", f);
    fclose(f);
    snprintf(shot, sizeof shot, "%s/blank.png", dir);
    free(open_in_chromium(page, shot));
    cr_expect_lt(ink_share(shot), 0.001);
}
