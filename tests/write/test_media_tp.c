/* Twisted pair (medium "TP") in every output that names or counts a medium: plan.json,
 * cables.csv, labels.csv, netbox-cables.csv, the workbook (Summary, Cables, Ports and their
 * per-medium fill), fabric.dot and report.html. Numbers are hand counts:
 * - RJ45_HOSTS: 96 one-port 1 GbE hosts (RJ45) on SN2201 leaves (48 x 1G RJ45 + 4 x 100G QSFP28
 *   uplinks, SN2000 series brief) under one SN4600C: 96 / 48 = 2 leaves, every front port a host
 *   link; only the Cat6A cord fits RJ45 at both ends, so 96 twisted-pair cables; each leaf's 48G
 *   takes one 100G uplink (1:1), 2 uplinks, never twisted pair.
 * - the DGX preset's out-of-band network: 215 host links at 1 GbE on SN2201 RJ45 ports (128 DGX
 *   BMCs and the RA's other management ports, superpod_h100_networks_counts), each a Cat6A
 *   cord; its 7 leaf uplinks leave QSFP28 ports (DAC or OM4). Storage and in-band run 100G and
 *   up, no RJ45 anywhere.
 * - a compute fabric with no RJ45 part lists the five older media only, as before TP existed. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include "helpers.h"
#include "xlsx_read.h"

#define RJ45_HOSTS "{\"name\":\"rj45\",\"cluster\":{\"gpus\":96,\"gpus_per_server\":1,\"nics_per_server\":1," \
                   "\"nic\":{\"ports\":1,\"port_gbps\":1,\"cage\":\"RJ45\",\"price_usd\":0,\"power_w\":0}}," \
                   "\"fabric\":{\"topology\":\"clos\",\"switch\":[\"nvidia-sn2201\",\"nvidia-sn4600c\"]}}"

static void write_all(const fp_plan *p, char dir[64])
{
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_DEFAULT & ~(FP_WRITE_FIGURE | FP_WRITE_DETAIL | FP_WRITE_FLOOR);
    scratch_dir(dir, 64, "tp");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
}

static cJSON *load_json(const char *dir)
{
    char path[160];
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *txt = slurp(path);
    cJSON *j = cJSON_Parse(txt);
    free(txt);
    cr_assert_not_null(j);
    return j;
}

static int num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsNumber(v), "no number \"%s\"", key);
    return v->valueint;
}

/* Rows of a CSV file whose `col`-th field (0-based) is `want` (and whose last field is `last`,
 * when given). */
static long rows_with(const char *dir, const char *file, int col, const char *want, const char *last)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    csv_file c = csv_load(path);
    long n = 0;
    for (long i = 1; i < c.n; i++) {
        char line[4096], *f[32];
        snprintf(line, sizeof line, "%s", c.line[i]);
        int nf = csv_split(line, f, 32);
        cr_assert_gt(nf, col, "%s line %ld", file, i);
        n += strcmp(f[col], want) == 0 && (last == NULL || strcmp(f[nf - 1], last) == 0);
    }
    csv_free(&c);
    return n;
}

/* The header field index of `name` in a CSV file. */
static int column_of(const char *dir, const char *file, const char *name)
{
    char path[160], line[4096], *f[32];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    csv_file c = csv_load(path);
    snprintf(line, sizeof line, "%s", c.line[0]);
    csv_free(&c);
    int nf = csv_split(line, f, 32);
    for (int i = 0; i < nf; i++)
        if (strcmp(f[i], name) == 0)
            return i;
    cr_assert_fail("%s has no column %s", file, name);
    return -1;
}

/* Times `needle` occurs in the file dir/name. */
static long occurrences(const char *dir, const char *name, const char *needle)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *s = slurp(path);
    long n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    free(s);
    return n;
}

/* The fill colour ("FFE4DFEC") of cell format s, from styles.xml's cellXfs and fills. */
static void fill_of_style(const char *xlsx, int s, char out[16])
{
    char *st = xl_member(xlsx, "xl/styles.xml");
    const char *x = strstr(st, "<cellXfs");
    cr_assert_not_null(x);
    for (int k = 0; k <= s; k++)
        x = strstr(x + 1, "<xf ");
    int fill = atoi(strstr(x, "fillId=\"") + 8);
    const char *f = strstr(st, "<fills");
    for (int k = 0; k <= fill; k++)
        f = strstr(f + 1, "<fill>");
    const char *rgb = strstr(f, "fgColor rgb=\"");
    out[0] = '\0';
    if (rgb != NULL && rgb < strstr(f, "</fill>"))
        snprintf(out, 16, "%.8s", rgb + 13);
    free(st);
}

/* The 1-based index of sheet `name` in the workbook. */
static int sheet_index(const char *xlsx, const char *name)
{
    char names[32][32];
    int n = xl_sheet_names(xlsx, names, 32);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i + 1;
    cr_assert_fail("no sheet %s", name);
    return 0;
}

Test(twisted_pair, compute_fabric_with_rj45_hosts, .timeout = TEST_TIMEOUT(120))
{
    fp_plan *p = plan_from(RJ45_HOSTS);
    char dir[64], xlsx[160];
    write_all(p, dir);

    cJSON *j = load_json(dir);
    const cJSON *mb = cJSON_GetObjectItemCaseSensitive(j, "media_by_boundary");
    cr_assert_eq(cJSON_GetArraySize(mb), 2);
    const cJSON *nic_leaf = cJSON_GetArrayItem(mb, 0), *leaf_spine = cJSON_GetArrayItem(mb, 1);
    cr_assert_eq(num(nic_leaf, "TP"), 96);
    cr_assert_eq(num(nic_leaf, "DAC") + num(nic_leaf, "MMF") + num(nic_leaf, "SMF"), 0);
    cr_assert_eq(num(leaf_spine, "TP"), 0);
    cr_assert_eq(num(leaf_spine, "DAC") + num(leaf_spine, "MMF"), 2);
    cJSON_Delete(j);

    /* one cables.csv row per cord, one labels.csv row per end, one NetBox cable per link */
    cr_assert_eq(rows_with(dir, "cables.csv", column_of(dir, "cables.csv", "medium"), "TP", NULL), 96);
    cr_assert_eq(rows_with(dir, "labels.csv", column_of(dir, "labels.csv", "medium"), "TP", NULL), 2 * 96);
    cr_assert_eq(rows_with(dir, "netbox-cables.csv", 6, "cat6a", NULL), 96);
    cr_assert_eq(rows_with(dir, "netbox-cables.csv", 6, "dac-passive", NULL), 0);

    /* the overview: each leaf's 48 host links, labelled by the medium, in its colour */
    cr_assert_eq(occurrences(dir, "fabric.dot", "label=\"48 × 1G\nTP\""), 2);
    cr_assert_eq(occurrences(dir, "fabric.dot", ">TP</TD>"), 1);
    /* report.html: the nic-leaf bar is all twisted pair, named inside it; the legend's sixth
     * entry sits at x = 154 + 70 x 5, below the 2 bars at y = 36 + 30 x 2 + 11 */
    cr_assert_eq(occurrences(dir, "report.html", "<title>TP: 96 links</title>"), 1);
    cr_assert_eq(occurrences(dir, "report.html", "class=\"in\">TP</text>"), 1);
    cr_assert_eq(occurrences(dir, "report.html", "<text x=\"504\" y=\"107\">TP</text>"), 1);

    /* the workbook: a Summary row "TP 96", 96 Cables rows and 96 used leaf ports in its fill */
    snprintf(xlsx, sizeof xlsx, "%s/plan.xlsx", dir);
    char *xml = xl_sheet(xlsx, sheet_index(xlsx, "Summary"));
    const char *pos = xml;
    xl_row *row = malloc(sizeof *row);
    int summary_tp = -1, tp_style = -1;
    while (xl_next_row(&pos, row))
        if (strcmp(row->v[0], "TP") == 0)
            summary_tp = atoi(row->v[1]);
    free(xml);
    cr_assert_eq(summary_tp, 96);
    xml = xl_sheet(xlsx, sheet_index(xlsx, "Cables"));
    pos = xml;
    int n = 0;
    while (xl_next_row(&pos, row)) {
        if (strcmp(row->v[13], "TP") != 0)
            continue;
        n++;
        if (tp_style < 0)
            tp_style = row->style[13];
        cr_assert_eq(row->style[13], tp_style, "Cables row %ld", row->r);
    }
    free(xml);
    cr_assert_eq(n, 96, "Cables");
    /* Ports names no medium: a used port's cells take its medium's fill (a switch's first row
     * its own style, with a rule above), so 96 leaf ports are lavender. */
    xml = xl_sheet(xlsx, sheet_index(xlsx, "Ports"));
    pos = xml;
    n = 0;
    int seen_style[64] = { 0 };     /* 1 lavender, -1 not, 0 not looked up */
    while (xl_next_row(&pos, row)) {
        xl_port pt[XL_PORT_BLOCKS];
        int np = xl_ports_of_row(row, pt);
        for (int k = 0; k < np; k++) {
            int s = pt[k].style;
            cr_assert(s >= 0 && s < 64, "style %d", s);
            if (seen_style[s] == 0) {
                char f[16];
                fill_of_style(xlsx, s, f);
                seen_style[s] = strcmp(f, "FFE4DFEC") == 0 ? 1 : -1;
            }
            n += seen_style[s] == 1 && strcmp(pt[k].far, "spare") != 0;
        }
    }
    free(xml);
    cr_assert_eq(n, 96, "Ports");
    char fill[16];
    fill_of_style(xlsx, tp_style, fill);
    cr_assert_str_eq(fill, "FFE4DFEC");     /* xlsx.h: lavender twisted pair */
    free(row);
    fp_plan_free(p);
}

Test(twisted_pair, networks_count_their_cat6a_apart, .timeout = TEST_TIMEOUT(120))
{
    fp_plan *p = plan_from_preset(SUPERPOD_V1);
    char dir[64];
    write_all(p, dir);
    cJSON *j = load_json(dir);
    const cJSON *nets = cJSON_GetObjectItemCaseSensitive(j, "networks"), *n;
    int seen = 0;
    cJSON_ArrayForEach(n, nets) {
        const char *name = cJSON_GetObjectItemCaseSensitive(n, "name")->valuestring;
        const cJSON *bm = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(n, "bom"),
                                                           "cables_by_medium");
        int all = num(bm, "DAC") + num(bm, "ACC") + num(bm, "AEC") + num(bm, "MMF") + num(bm, "SMF") +
                  num(bm, "TP");
        if (strcmp(name, "oob") == 0) {
            cr_assert_eq(num(bm, "TP"), 215);
            cr_assert_eq(all, 215 + 7);
            cr_assert_eq(num(bm, "DAC") + num(bm, "MMF"), 7);
            seen++;
        } else {
            cr_assert_eq(num(bm, "TP"), 0, "%s", name);
        }
    }
    cr_assert_eq(seen, 1);
    /* the compute fabric's boundaries list TP too (0): one set of keys in the whole file */
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(j, "media_by_boundary"))
        cr_assert_eq(num(b, "TP"), 0);
    cJSON_Delete(j);

    int med = column_of(dir, "cables.csv", "medium");
    cr_assert_eq(rows_with(dir, "cables.csv", med, "TP", "oob"), 215);
    cr_assert_eq(rows_with(dir, "cables.csv", med, "TP", NULL), 215);
    cr_assert_eq(rows_with(dir, "netbox-cables.csv", 6, "cat6a", "oob"), 215);
    cr_assert_eq(rows_with(dir, "netbox-cables.csv", 6, "cat6a", NULL), 215);
    cr_assert_eq(occurrences(dir, "report.html", "<title>TP: 215 links</title>"), 1);
    cr_assert_eq(occurrences(dir, "fabric-oob.dot", ">TP</TD>"), 1);
    cr_assert_eq(occurrences(dir, "fabric-storage.dot", ">TP</TD>"), 0);
    fp_plan_free(p);
}

/* Without twisted pair anywhere the outputs read as before it existed: five media per
 * boundary in plan.json and in the workbook's Summary, no TP in the report's legend. */
Test(twisted_pair, absent_without_rj45, .timeout = TEST_TIMEOUT(120))
{
    fp_plan *p = plan_from("{\"name\":\"t\",\"cluster\":{\"gpus\":256}}");
    char dir[64], xlsx[160];
    write_all(p, dir);
    cJSON *j = load_json(dir);
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(j, "media_by_boundary")) {
        cr_assert_eq(cJSON_GetArraySize(b), 1 + 5);
        cr_assert_null(cJSON_GetObjectItemCaseSensitive(b, "TP"));
    }
    cJSON_Delete(j);
    cr_assert_eq(occurrences(dir, "report.html", ">TP<"), 0);
    cr_assert_eq(occurrences(dir, "cables.csv", ",TP,"), 0);
    snprintf(xlsx, sizeof xlsx, "%s/plan.xlsx", dir);
    char *xml = xl_sheet(xlsx, sheet_index(xlsx, "Summary"));
    cr_assert_null(strstr(xml, "<t>TP</t>"));
    cr_assert_not_null(strstr(xml, "<t>SMF</t>"));
    free(xml);
    fp_plan_free(p);
}

/* 10GBASE-T: Cat6A carries it over the full 100 m channel (IEEE 802.3an, TIA-568.2-D), so the
 * catalog's 10G Cat6A cord serves 10G RJ45 ports. 96 one-port 10G hosts on 48-port 10G RJ45
 * switches at 1:1: 24 down and 24 up per leaf, 96 / 24 = 4 leaves, 4 x 24 = 96 uplinks over 48-port
 * spines = 2 spines; all 192 links RJ45 at both ends at 10G: 192 twisted-pair cables of
 * generic-cat6a-rj45-10g, 96 per boundary; NetBox interfaces 10gbase-t: 96 NIC ports + 6
 * switches x 48 = 384. */
Test(twisted_pair, ten_gig_rj45_takes_the_10g_cord, .timeout = TEST_TIMEOUT(60))
{
    fp_plan *p = plan_from("{\"name\":\"rj10\",\"cluster\":{\"gpus\":96,\"gpus_per_server\":1,"
                           "\"nics_per_server\":1,\"nic\":{\"ports\":1,\"port_gbps\":10,\"cage\":\"RJ45\","
                           "\"price_usd\":0,\"power_w\":0}},\"fabric\":{\"topology\":\"clos\",\"tiers\":2,"
                           "\"switch\":{\"ports\":48,\"port_gbps\":10,\"cage\":\"RJ45\",\"price_usd\":0,"
                           "\"power_w\":0}}}");
    char dir[64];
    write_all(p, dir);
    cJSON *j = load_json(dir);
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(j, "media_by_boundary"))
        cr_assert_eq(num(b, "TP"), 96);
    cJSON_Delete(j);
    int med = column_of(dir, "cables.csv", "medium"), part = column_of(dir, "cables.csv", "cable_part");
    cr_assert_eq(rows_with(dir, "cables.csv", med, "TP", NULL), 192);
    cr_assert_eq(rows_with(dir, "cables.csv", part, "generic-cat6a-rj45-10g", NULL), 192);
    cr_assert_eq(rows_with(dir, "netbox-interfaces.csv", 2, "10gbase-t", NULL), 384);
    cr_assert_eq(rows_with(dir, "netbox-cables.csv", 6, "cat6a", NULL), 192);
    fp_plan_free(p);
}
