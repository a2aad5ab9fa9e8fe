/* fabplan diff OLD_DIR NEW_DIR [-o DIR]: what changes between two plans' cable lists — an
 * expansion phase. Cables are matched by their A end (device and port; a splitter's hub), so a
 * renumbered cable id is not a change. Per A end present in both plans: the same far end(s)
 * and the same medium, part and stock length is unchanged; another far end is "re-terminated";
 * the same ends with another medium, part, stock length or transceiver is "changed". A ends
 * only in NEW are "added", only in OLD "removed"; a kept cable whose labels differ is to be
 * relabelled ("relabel" when nothing else changed). Writes changes.csv (one row per change),
 * relabel.xlsx (the ends to relabel, by place, to print) and changes-summary.json; prints the
 * summary. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "fabplan/publish.h"

/* The cables.csv columns diff reads, found by their names (fp_cables_column_name). */
enum { C_ID, C_AHALL, C_AROW, C_ARACK, C_AU, C_ADEV, C_APORT, C_ZHALL, C_ZROW, C_ZRACK, C_ZU,
       C_ZDEV, C_ZPORT, C_MEDIUM, C_PART, C_STOCK, C_AXCVR, C_ZXCVR, C_LABA, C_LABZ, C_N };
static const fp_cables_column col_of[C_N] = {
    [C_ID] = FP_CABLES_CABLE_ID, [C_AHALL] = FP_CABLES_A_HALL, [C_AROW] = FP_CABLES_A_ROW,
    [C_ARACK] = FP_CABLES_A_RACK, [C_AU] = FP_CABLES_A_U, [C_ADEV] = FP_CABLES_A_DEVICE,
    [C_APORT] = FP_CABLES_A_PORT, [C_ZHALL] = FP_CABLES_Z_HALL, [C_ZROW] = FP_CABLES_Z_ROW,
    [C_ZRACK] = FP_CABLES_Z_RACK, [C_ZU] = FP_CABLES_Z_U, [C_ZDEV] = FP_CABLES_Z_DEVICE,
    [C_ZPORT] = FP_CABLES_Z_PORT, [C_MEDIUM] = FP_CABLES_MEDIUM, [C_PART] = FP_CABLES_CABLE_PART,
    [C_STOCK] = FP_CABLES_STOCK_M, [C_AXCVR] = FP_CABLES_A_TRANSCEIVER,
    [C_ZXCVR] = FP_CABLES_Z_TRANSCEIVER, [C_LABA] = FP_CABLES_LABEL_A,
    [C_LABZ] = FP_CABLES_LABEL_Z,
};

/* One cables.csv: the text, and per row the start of each needed field (NUL-terminated in
 * place). */
typedef struct cable_table {
    char *text;
    char **field;           /* rows x C_N */
    int64_t rows;
    /* open-addressing index: A end -> row */
    int64_t *slot;
    int64_t n_slot;
} cable_table;

static void table_free(cable_table *t)
{
    fp_free(t->text);
    free(t->field);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

static uint64_t hash2(const char *a, const char *b)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *a; a++)
        h = (h ^ (unsigned char)*a) * 1099511628211ULL;
    h = (h ^ ' ') * 1099511628211ULL;
    for (; *b; b++)
        h = (h ^ (unsigned char)*b) * 1099511628211ULL;
    return h;
}

#define F(t, r, c) ((t)->field[(r) * C_N + (c)])

/* Index the rows by A end. Cables are matched by their A end, so one A end twice (a file
 * fabplan did not write, or two files pasted together) is an error: the diff would pair a
 * cable with the wrong one. Returns an exit code (message printed). */
static int table_index(cable_table *t, const char *path)
{
    t->n_slot = 1;
    while (t->n_slot < t->rows * 2 + 2)
        t->n_slot *= 2;
    t->slot = malloc(sizeof *t->slot * (size_t)t->n_slot);
    if (t->slot == NULL) {
        fprintf(stderr, "fabplan diff: out of memory reading %s\n", path);
        return EXIT_IO;
    }
    memset(t->slot, 0xff, sizeof *t->slot * (size_t)t->n_slot);
    for (int64_t r = 0; r < t->rows; r++) {
        uint64_t h = hash2(F(t, r, C_ADEV), F(t, r, C_APORT)) & (uint64_t)(t->n_slot - 1);
        for (int64_t q; (q = t->slot[h]) >= 0; h = (h + 1) & (uint64_t)(t->n_slot - 1))
            if (strcmp(F(t, q, C_ADEV), F(t, r, C_ADEV)) == 0 &&
                strcmp(F(t, q, C_APORT), F(t, r, C_APORT)) == 0) {
                fprintf(stderr, "fabplan diff: %s: cables %s and %s both start at %s %s; expected "
                        "one cable per A end (a cables.csv written by fabplan plan)\n", path,
                        F(t, q, C_ID), F(t, r, C_ID), F(t, r, C_ADEV), F(t, r, C_APORT));
                return EXIT_INPUT;
            }
        t->slot[h] = r;
    }
    return EXIT_OK;
}

/* Load DIR/cables.csv; returns an exit code (message printed). */
static int table_load(cable_table *t, const char *dir)
{
    char path[4096], *hdr[64], *p;
    size_t len = 0;
    int col[C_N];
    memset(t, 0, sizeof *t);
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    fp_error err = { 0 };
    if (fp_read_file(path, FP_FILE_PLAN, &t->text, &len, &err) != FP_OK) {
        fprintf(stderr, "fabplan diff: %s\n", err.msg);
        return err.code == FP_EINVAL ? EXIT_INPUT : EXIT_IO;
    }
    /* the rows are split as C strings: a NUL would end the file there, unseen */
    const char *nul = memchr(t->text, '\0', len);
    if (nul != NULL) {
        fprintf(stderr, "fabplan diff: %s has a NUL byte at offset %zu; expected a text cables.csv "
                "written by fabplan plan\n", path, (size_t)(nul - t->text));
        return EXIT_INPUT;
    }
    int64_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += t->text[i] == '\n';
    p = t->text;
    int nh = fp_csv_record(&p, hdr, 64);
    for (int c = 0; c < C_N; c++) {
        col[c] = -1;
        const char *name = fp_cables_column_name(col_of[c]);
        for (int h = 0; h < nh && h < 64; h++)
            if (strcmp(hdr[h], name) == 0)
                col[c] = h;
        if (col[c] < 0) {
            fprintf(stderr, "fabplan diff: %s has no column \"%s\"; expected a cables.csv written by "
                    "fabplan plan\n", path, name);
            return EXIT_INPUT;
        }
    }
    t->field = calloc((size_t)(lines + 1) * C_N, sizeof *t->field);
    if (t->field == NULL) {
        fprintf(stderr, "fabplan diff: out of memory reading %s\n", path);
        return EXIT_IO;
    }
    while (*p) {
        char *f[64];
        int nf = fp_csv_record(&p, f, 64);
        if (nf == 1 && f[0][0] == '\0')
            continue;   /* blank line */
        if (nf < nh) {
            fprintf(stderr, "fabplan diff: %s line %lld has %d fields, the header %d\n", path,
                    (long long)t->rows + 2, nf, nh);
            return EXIT_INPUT;
        }
        for (int c = 0; c < C_N; c++)
            F(t, t->rows, c) = f[col[c]];
        t->rows++;
    }
    return table_index(t, path);
}

static int64_t table_find(const cable_table *t, const char *dev, const char *port)
{
    uint64_t h = hash2(dev, port) & (uint64_t)(t->n_slot - 1);
    while (t->slot[h] >= 0) {
        int64_t r = t->slot[h];
        if (strcmp(F(t, r, C_ADEV), dev) == 0 && strcmp(F(t, r, C_APORT), port) == 0)
            return r;
        h = (h + 1) & (uint64_t)(t->n_slot - 1);
    }
    return -1;
}

/* Device names of a table (A ends and every Z leg), sorted and unique. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **device_set(const cable_table *t, int64_t *n, char **buf)
{
    int64_t cap = t->rows * 2 + 1, k = 0;
    size_t bytes = 0;
    for (int64_t r = 0; r < t->rows; r++)
        bytes += strlen(F(t, r, C_ADEV)) + strlen(F(t, r, C_ZDEV)) + 2;
    for (int64_t r = 0; r < t->rows; r++)
        for (const char *s = F(t, r, C_ZDEV); *s; s++)
            cap += *s == ';';
    char **v = malloc(sizeof *v * (size_t)cap);
    char *w = *buf = malloc(bytes + 1);
    if (v == NULL || w == NULL) {
        free(v);
        free(*buf);
        *buf = NULL;
        return NULL;
    }
    for (int64_t r = 0; r < t->rows; r++) {
        strcpy(w, F(t, r, C_ADEV));
        v[k++] = w;
        w += strlen(w) + 1;
        strcpy(w, F(t, r, C_ZDEV));
        v[k++] = w;
        for (char *s = w; *s; s++)
            if (*s == ';') {
                *s = '\0';
                v[k++] = s + 1;
            }
        w += strlen(F(t, r, C_ZDEV)) + 1;
    }
    qsort(v, (size_t)k, sizeof *v, cmp_str);
    int64_t u = 0;
    for (int64_t i = 0; i < k; i++)
        if (u == 0 || strcmp(v[u - 1], v[i]) != 0)
            v[u++] = v[i];
    *n = u;
    return v;
}

static int64_t count_missing(char **a, int64_t na, char **b, int64_t nb)
{
    int64_t i = 0, j = 0, miss = 0;
    while (i < na) {
        int c = j < nb ? strcmp(a[i], b[j]) : -1;
        if (c == 0) {
            i++;
            j++;
        } else if (c < 0) {
            miss++;
            i++;
        } else {
            j++;
        }
    }
    return miss;
}

/* 0 when DIR/plan.json's cable_list (count and digest, fp_plan_cable_digest) matches the
 * cables.csv in t, else 1 with a message; a plan.json without one (an older fabplan's) is
 * not checked. */
static int cables_belong(const char *path, const cJSON *root, const cable_table *t)
{
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(root, "cable_list");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(cl, "cables");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(cl, "digest");
    if (cl == NULL)
        return 0;
    if (!cJSON_IsNumber(n) || !cJSON_IsString(d)) {
        fprintf(stderr, "fabplan diff: %s: /cable_list is not what fabplan plan writes (expected "
                "{\"cables\": N, \"digest\": \"fnv1a64:...\"}); write the plan again\n", path);
        return 1;
    }
    uint64_t h = FP_CABLE_DIGEST_INIT;
    for (int64_t r = 0; r < t->rows; r++)
        h = fp_cable_digest_add(h, F(t, r, C_ID), F(t, r, C_ADEV), F(t, r, C_APORT));
    char hex[FP_CABLE_DIGEST_TEXT];
    fp_cable_digest_text(h, hex);
    if ((double)t->rows != n->valuedouble) {
        fprintf(stderr, "fabplan diff: the cables.csv beside %s has %lld cables where plan.json "
                "lists %.0f: it is cut short or from another run; expected the cables.csv written "
                "with this plan.json (write the plan again)\n", path, (long long)t->rows,
                n->valuedouble);
        return 1;
    }
    if (strcmp(hex, d->valuestring) != 0) {
        fprintf(stderr, "fabplan diff: the cables.csv beside %s is not the one written with it "
                "(its %lld cables' ids and A ends give digest %s, plan.json has %s): edited or "
                "from another run; expected the cables.csv written with this plan.json (write "
                "the plan again)\n", path, (long long)t->rows, hex, d->valuestring);
        return 1;
    }
    return 0;
}

/* The plan's cost in *cost (*ok = 1): DIR/plan.json's cluster_totals.cost_usd with spec
 * `networks` (cables.csv lists their cables too, so the step must cost their parts), else its
 * totals.cost (the compute fabric, the whole plan then); *ok = 0 when DIR has no plan.json (a
 * plan written without json in --formats). A plan.json that cannot be read or has no
 * totals.cost is an error, not an unknown cost; so is a cables.csv in t that does not belong
 * to it (cables_belong). Returns an exit code (message printed). */
static int plan_cost(const char *dir, const cable_table *t, double *cost, int *ok)
{
    char path[4096];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/plan.json", dir);
    *cost = 0;
    *ok = 0;
    struct stat st;
    char *text = NULL;
    fp_error err = { 0 };
    if (lstat(path, &st) != 0 && errno == ENOENT)
        return EXIT_OK;
    /* the library's reader and JSON rules: size limit, no U+0000, each key once */
    if (fp_read_file(path, FP_FILE_PLAN, &text, &len, &err) != FP_OK ||
        fp_json_check(text, len, path, 1, &err) != FP_OK) {
        fp_free(text);
        fprintf(stderr, "fabplan diff: %s\n", err.msg);
        return err.code == FP_EIO || err.code == FP_ENOMEM ? EXIT_IO : EXIT_INPUT;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "totals"), "cost");
    const cJSON *cluster = cJSON_GetObjectItemCaseSensitive(root, "cluster_totals");
    const char *where = "/totals/cost";
    if (cluster != NULL && cJSON_IsNumber(c)) {
        c = cJSON_GetObjectItemCaseSensitive(cluster, "cost_usd");
        where = "/cluster_totals/cost_usd";
    }
    if (cJSON_IsNumber(c)) {
        *cost = c->valuedouble;
        *ok = 1;
    }
    if (*ok && cables_belong(path, root, t)) {
        cJSON_Delete(root);
        fp_free(text);
        return EXIT_INPUT;
    }
    cJSON_Delete(root);
    fp_free(text);
    if (*ok)
        return EXIT_OK;
    fprintf(stderr, "fabplan diff: %s is not a plan.json written by fabplan plan (expected a number "
            "at %s); remove it or write the plan again\n", path, where);
    return EXIT_INPUT;
}

static void change_row(FILE *f, const char *what, const cable_table *o, int64_t ro,
                       const cable_table *n, int64_t rn, const char *detail)
{
    const cable_table *e = rn >= 0 ? n : o;
    int64_t re = rn >= 0 ? rn : ro;
    const char *v[] = {
        what, ro >= 0 ? F(o, ro, C_ID) : "", rn >= 0 ? F(n, rn, C_ID) : "",
        F(e, re, C_ADEV), F(e, re, C_APORT),
        ro >= 0 ? F(o, ro, C_ZDEV) : "", ro >= 0 ? F(o, ro, C_ZPORT) : "",
        rn >= 0 ? F(n, rn, C_ZDEV) : "", rn >= 0 ? F(n, rn, C_ZPORT) : "",
        ro >= 0 ? F(o, ro, C_MEDIUM) : "", rn >= 0 ? F(n, rn, C_MEDIUM) : "",
        ro >= 0 ? F(o, ro, C_PART) : "", rn >= 0 ? F(n, rn, C_PART) : "",
        ro >= 0 ? F(o, ro, C_STOCK) : "", rn >= 0 ? F(n, rn, C_STOCK) : "",
        detail, F(e, re, C_LABA), F(e, re, C_LABZ),
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        if (i)
            fputc(',', f);
        fp_csv_field(f, v[i]);
    }
    fputc('\n', f);
}

static void diff_usage(FILE *f)
{
    fputs("usage: fabplan diff OLD_DIR NEW_DIR [-o DIR]\n\n"
          "Compare the cables.csv of two plans (an installed phase and the next) and write\n"
          "DIR/changes.csv (every cable added, removed, re-terminated or changed, with both ends\n"
          "and labels), DIR/relabel.xlsx (every cable end whose label changes, old and new label,\n"
          "by hall, row, rack and U, with a Done box: to print) and DIR/changes-summary.json\n"
          "(devices added, cables added / removed / re-terminated / changed, cost of the step\n"
          "from each plan.json). Cables are matched by their A end (device and port), so\n"
          "renumbered cable ids are not changes; every kept cable whose labels change (another\n"
          "id, far end or place) is listed to relabel.\n\n"
          "  -o, --out DIR       output directory (default: diff)\n"
          "  -h, --help          this help\n\n"
          "Exit codes: 0 ok, 2 usage, 3 a file is not a fabplan cables.csv, 4 I/O.\n", f);
}

/* What the diff counted: cables by change, and devices from the cable ends. */
typedef struct diff_counts {
    int64_t added, removed, reterm, changed, same, renumbered, moved, relabel;
    int64_t dev_added, dev_removed;
} diff_counts;

/* The command line: the two folders and -o. Returns -1 to go on, else the exit code. */
static int diff_args(int argc, char **argv, const char *dirs[2], const char **out)
{
    int nd = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            diff_usage(stdout);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, "fabplan diff: %s needs a directory\n", argv[i]);
                return EXIT_USAGE;
            }
            *out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_unknown_option("diff", argv[i]);
        } else if (argv[i][0] == '\0') {
            fprintf(stderr, "fabplan diff: an empty folder name; expected OLD_DIR and NEW_DIR, "
                    "each holding a plan's cables.csv\n");
            return EXIT_USAGE;
        } else if (nd < 2) {
            dirs[nd++] = argv[i];
        } else {
            fprintf(stderr, "fabplan diff: one OLD_DIR and one NEW_DIR, found a third: %s\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    if (nd < 2) {
        diff_usage(stderr);
        return EXIT_USAGE;
    }
    return -1;
}

/* NEW's cable r against OLD's with the same A end (q): re-terminated, changed or the same;
 * any of them whose labels differ (another id, a far end or an end's place) is to be relabelled,
 * and an otherwise unchanged one gets a "relabel" row with its new labels. */
static void compare_cable(FILE *f, const cable_table *o, int64_t q, const cable_table *n,
                          int64_t r, diff_counts *c)
{
    int relabel = strcmp(F(o, q, C_LABA), F(n, r, C_LABA)) != 0 ||
                  strcmp(F(o, q, C_LABZ), F(n, r, C_LABZ)) != 0;
    c->relabel += relabel;
    if (strcmp(F(o, q, C_ZDEV), F(n, r, C_ZDEV)) != 0 ||
        strcmp(F(o, q, C_ZPORT), F(n, r, C_ZPORT)) != 0) {
        change_row(f, "re-terminated", o, q, n, r, "far end moved");
        c->reterm++;
        return;
    }
    char detail[512] = "";
    size_t k = 0;
    static const int cmp_cols[] = { C_MEDIUM, C_PART, C_STOCK, C_AXCVR, C_ZXCVR };
    static const char *const cmp_names[] = { "medium", "part", "stock length", "A transceiver",
                                             "Z transceiver" };
    for (size_t i = 0; i < 5; i++)
        if (strcmp(F(o, q, cmp_cols[i]), F(n, r, cmp_cols[i])) != 0 && k + 1 < sizeof detail)
            k += (size_t)snprintf(detail + k, sizeof detail - k, "%s%s %s -> %s", k ? "; " : "",
                                  cmp_names[i], F(o, q, cmp_cols[i]), F(n, r, cmp_cols[i]));
    if (k) {
        change_row(f, "changed", o, q, n, r, detail);
        c->changed++;
    } else {
        if (relabel)
            change_row(f, "relabel", o, q, n, r,
                       strcmp(F(o, q, C_ID), F(n, r, C_ID)) != 0 ? "cable id changed" : "an end's place changed");
        c->same++;
    }
    c->renumbered += strcmp(F(o, q, C_ID), F(n, r, C_ID)) != 0;
    for (int col = C_AHALL; col <= C_AU; col++)
        if (strcmp(F(o, q, col), F(n, r, col)) != 0) {
            c->moved++;
            break;
        }
}

/* changes.csv's rows: NEW in its order (added, re-terminated, changed), then OLD's removed in
 * its order. */
static void change_rows(FILE *f, const cable_table *o, const cable_table *n, diff_counts *c)
{
    fputs("change,old_cable_id,new_cable_id,a_device,a_port,old_z_device,old_z_port,new_z_device,"
          "new_z_port,old_medium,new_medium,old_part,new_part,old_stock_m,new_stock_m,detail,"
          "label_a,label_z\n", f);
    for (int64_t r = 0; r < n->rows; r++) {
        int64_t q = table_find(o, F(n, r, C_ADEV), F(n, r, C_APORT));
        if (q < 0) {
            change_row(f, "added", o, -1, n, r, "");
            c->added++;
        } else {
            compare_cable(f, o, q, n, r, c);
        }
    }
    for (int64_t r = 0; r < o->rows; r++)
        if (table_find(n, F(o, r, C_ADEV), F(o, r, C_APORT)) < 0) {
            change_row(f, "removed", o, r, n, -1, "");
            c->removed++;
        }
}

/* Devices added and removed, from the cable ends. */
static void count_devices(const cable_table *o, const cable_table *n, diff_counts *c)
{
    char *bo = NULL, *bn = NULL;
    int64_t ndo = 0, ndn = 0;
    char **vo = device_set(o, &ndo, &bo), **vn = device_set(n, &ndn, &bn);
    c->dev_added = vo && vn ? count_missing(vn, ndn, vo, ndo) : 0;
    c->dev_removed = vo && vn ? count_missing(vo, ndo, vn, ndn) : 0;
    free(vo);
    free(vn);
    free(bo);
    free(bn);
}

/* changes-summary.json's text (cJSON_free it), NULL when out of memory. */
static char *summary_text(const char *const dirs[2], const cable_table *o, const cable_table *n,
                          const diff_counts *c, int ok, double cost_o, double cost_n)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "old", dirs[0]);
    cJSON_AddStringToObject(s, "new", dirs[1]);
    cJSON_AddNumberToObject(s, "cables_old", (double)o->rows);
    cJSON_AddNumberToObject(s, "cables_new", (double)n->rows);
    cJSON_AddNumberToObject(s, "cables_added", (double)c->added);
    cJSON_AddNumberToObject(s, "cables_removed", (double)c->removed);
    cJSON_AddNumberToObject(s, "cables_reterminated", (double)c->reterm);
    cJSON_AddNumberToObject(s, "cables_changed", (double)c->changed);
    cJSON_AddNumberToObject(s, "cables_unchanged", (double)c->same);
    cJSON_AddNumberToObject(s, "cables_renumbered", (double)c->renumbered);
    cJSON_AddNumberToObject(s, "cables_with_a_end_moved", (double)c->moved);
    cJSON_AddNumberToObject(s, "cables_to_relabel", (double)c->relabel);
    cJSON_AddNumberToObject(s, "devices_added", (double)c->dev_added);
    cJSON_AddNumberToObject(s, "devices_removed", (double)c->dev_removed);
    if (ok)
        cJSON_AddNumberToObject(s, "cost_of_step_usd", cost_n - cost_o);
    else
        cJSON_AddNullToObject(s, "cost_of_step_usd");
    char *js = cJSON_Print(s);
    cJSON_Delete(s);
    return js;
}

/* Writes changes-summary.json (js, NULL when out of memory) and publishes both files, or
 * abandons them. Returns the exit code. */
static int publish_summary(fp_publish *pub, const char *js, const char *out, fp_error *err)
{
    FILE *f;
    if (js == NULL) {
        cli_io_error(err, "out of memory writing %s/changes-summary.json", out);
        err->code = FP_ENOMEM;
        fp_publish_abort(pub);
        return cli_report("writing outputs", err);
    }
    if ((f = fp_publish_create(pub, "changes-summary.json", err)) == NULL) {
        fp_publish_abort(pub);
        return cli_report("writing outputs", err);
    }
    int werr = fprintf(f, "%s\n", js) < 0;
    werr |= ferror(f);
    if ((fclose(f) != 0) | werr) {
        cli_io_error(err, "cannot write %s/changes-summary.json: %s", out,
                     strerror(errno ? errno : EIO));
        fp_publish_abort(pub);
        return cli_report("writing outputs", err);
    }
    if (fp_publish_commit(pub, err) != FP_OK)
        return cli_report("writing outputs", err);
    return EXIT_OK;
}

/* One cable end to relabel: NEW's cable r (OLD's q), end 0 = A, 1 = Z. */
typedef struct relabel_end {
    int64_t q, r;
    int z;
} relabel_end;

static const cable_table *sort_o, *sort_n;      /* for cmp_relabel (qsort has no argument) */

/* An end's place and name in NEW: hall, row, rack, U, device, port. */
static const char *end_field(const relabel_end *e, int k)
{
    static const int a[] = { C_AHALL, C_AROW, C_ARACK, C_AU, C_ADEV, C_APORT };
    static const int z[] = { C_ZHALL, C_ZROW, C_ZRACK, C_ZU, C_ZDEV, C_ZPORT };
    return F(sort_n, e->r, e->z ? z[k] : a[k]);
}

/* By the end's place (hall, row, rack, U: the walk through the hall), then device and port. */
static int cmp_relabel(const void *x, const void *y)
{
    const relabel_end *a = x, *b = y;
    for (int k = 0; k < 4; k++) {
        long u = atol(end_field(a, k)), w = atol(end_field(b, k));
        if (u != w)
            return u < w ? -1 : 1;
    }
    for (int k = 4; k < 6; k++) {
        int d = strcmp(end_field(a, k), end_field(b, k));
        if (d != 0)
            return d;
    }
    return (a->r > b->r) - (a->r < b->r);
}

/* DIR/relabel.xlsx: every end of a kept cable (same A end in both plans) whose label changes,
 * by its place in NEW, with the label it has and the one it gets and a Done box. Errors
 * through err. */
static fp_status write_relabel(fp_publish *pub, const char *const dirs[2], const cable_table *o,
                         const cable_table *n, fp_error *err)
{
    static const fp_worklist_column cols[] = {
        { "Hall", 5, 1, 0 }, { "Row", 5, 1, 0 }, { "Rack", 5, 1, 0 }, { "U", 5, 1, 0 },
        { "Device", 16, 0, 0 }, { "Port", 9, 0, 0 }, { "Old cable ID", 10, 0, 0 },
        { "Cable ID", 10, 0, 0 }, { "Old label", 40, 0, 1 }, { "New label", 40, 0, 1 },
    };
    enum { N = sizeof cols / sizeof cols[0] };
    relabel_end *v = malloc(sizeof *v * (size_t)(2 * n->rows + 1));
    const char **cells = NULL;
    size_t k = 0;
    if (v == NULL)
        goto oom;
    for (int64_t r = 0; r < n->rows; r++) {
        int64_t q = table_find(o, F(n, r, C_ADEV), F(n, r, C_APORT));
        if (q < 0)
            continue;
        for (int z = 0; z < 2; z++)
            if (strcmp(F(o, q, z ? C_LABZ : C_LABA), F(n, r, z ? C_LABZ : C_LABA)) != 0)
                v[k++] = (relabel_end){ q, r, z };
    }
    sort_o = o;
    sort_n = n;
    qsort(v, k, sizeof *v, cmp_relabel);
    if ((cells = malloc(sizeof *cells * (k * N + 1))) == NULL)
        goto oom;
    for (size_t i = 0; i < k; i++) {
        const char **c = cells + i * N;
        for (int f = 0; f < 6; f++)
            c[f] = end_field(&v[i], f);
        c[6] = F(o, v[i].q, C_ID);
        c[7] = F(n, v[i].r, C_ID);
        c[8] = F(o, v[i].q, v[i].z ? C_LABZ : C_LABA);
        c[9] = F(n, v[i].r, v[i].z ? C_LABZ : C_LABA);
    }
    char path[4096], title[300];
    const char *from = strrchr(dirs[0], '/'), *to = strrchr(dirs[1], '/');
    snprintf(title, sizeof title, "relabel: %.100s -> %.100s", from && from[1] ? from + 1 : dirs[0],
             to && to[1] ? to + 1 : dirs[1]);
    fp_status st = fp_publish_path(pub, "relabel.xlsx", path, sizeof path, err);
    if (st == FP_OK)
        st = fp_worklist_write_xlsx(path, title, "Relabel", cols, N, cells, k, err);
    free(v);
    free(cells);
    return st;
oom:
    free(v);
    cli_io_error(err, "out of memory writing relabel.xlsx");
    err->code = FP_ENOMEM;
    return FP_ENOMEM;
}

static void print_diff(const char *const dirs[2], const cable_table *o, const cable_table *n,
                       const diff_counts *c, int ok, double cost_o, double cost_n,
                       const char *out)
{
    printf("%s -> %s: %lld cables -> %lld\n", dirs[0], dirs[1], (long long)o->rows, (long long)n->rows);
    printf("  cables: %lld added, %lld removed, %lld re-terminated, %lld changed, %lld unchanged (%lld renumbered)\n",
           (long long)c->added, (long long)c->removed, (long long)c->reterm, (long long)c->changed,
           (long long)c->same, (long long)c->renumbered);
    printf("  devices: %lld added, %lld removed; %lld kept cables whose A end sits elsewhere\n",
           (long long)c->dev_added, (long long)c->dev_removed, (long long)c->moved);
    printf("  relabel: %lld kept cables (new labels in %s/changes.csv, a printed list in "
           "%s/relabel.xlsx)\n", (long long)c->relabel, out, out);
    if (ok) {
        char step[40], from[40], to[40];
        printf("  cost of the step: $%s (plan.json totals: $%s -> $%s)\n",
               fp_grouped_text(cost_n - cost_o, 0, step, sizeof step),
               fp_grouped_text(cost_o, 0, from, sizeof from),
               fp_grouped_text(cost_n, 0, to, sizeof to));
    }
    else
        printf("  cost of the step: unknown (no plan.json beside both cables.csv)\n");
    printf("  wrote %s/changes.csv, %s/relabel.xlsx, %s/changes-summary.json\n", out, out, out);
}

int cmd_diff(int argc, char **argv)
{
    const char *dirs[2] = { NULL, NULL }, *out = "diff";
    int rc;
    if ((rc = diff_args(argc, argv, dirs, &out)) >= 0)
        return rc;
    cable_table o, n;
    memset(&n, 0, sizeof n);
    int ok_o, ok_n;
    double cost_o, cost_n;
    if ((rc = table_load(&o, dirs[0])) != EXIT_OK || (rc = table_load(&n, dirs[1])) != EXIT_OK ||
        (rc = plan_cost(dirs[0], &o, &cost_o, &ok_o)) != EXIT_OK ||
        (rc = plan_cost(dirs[1], &n, &cost_n, &ok_n)) != EXIT_OK) {
        table_free(&o);
        table_free(&n);
        return rc;
    }
    /* Both files or neither, through the publishing plan -o uses (lock, private temporary
     * folder, rollback, cleanup on SIGINT/SIGTERM). */
    fp_error err = { 0 };
    fp_publish *pub = NULL;
    if (fp_publish_begin(out, &pub, &err) != FP_OK) {
        table_free(&o);
        table_free(&n);
        return cli_report("writing outputs", &err);
    }
    FILE *f = fp_publish_create(pub, "changes.csv", &err);
    if (f == NULL) {
        fp_publish_abort(pub);
        table_free(&o);
        table_free(&n);
        return cli_report("writing outputs", &err);
    }
    diff_counts c;
    memset(&c, 0, sizeof c);
    change_rows(f, &o, &n, &c);
    int bad = ferror(f);
    if ((fclose(f) != 0) | bad) {
        cli_io_error(&err, "cannot write %s/changes.csv: %s", out, strerror(errno ? errno : EIO));
        fp_publish_abort(pub);
        table_free(&o);
        table_free(&n);
        return cli_report("writing outputs", &err);
    }
    if (write_relabel(pub, dirs, &o, &n, &err) != FP_OK) {
        fp_publish_abort(pub);
        table_free(&o);
        table_free(&n);
        return cli_report("writing outputs", &err);
    }
    count_devices(&o, &n, &c);
    char *js = summary_text(dirs, &o, &n, &c, ok_o && ok_n, cost_o, cost_n);
    rc = publish_summary(pub, js, out, &err);
    cJSON_free(js);
    if (rc == EXIT_OK)
        print_diff(dirs, &o, &n, &c, ok_o && ok_n, cost_o, cost_n, out);
    table_free(&o);
    table_free(&n);
    return rc;
}
