/* BOM: totals equal the sum of the lines, switch and NIC counts by formula, spares, and the
 * written bom.csv / cables.csv / plan.json read back. */
#include <math.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "helpers.h"

Test(bom, totals_are_the_sum_of_lines)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096}}");
    double cost = 0, power = 0;
    int64_t mods = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        cr_expect_float_eq(l.cost, l.unit_cost * (double)l.quantity, 1e-6);
        cost += l.cost;
        power += l.power_w;
        if (!strcmp(l.category, "transceiver") && !l.spare)
            mods += l.quantity;
        cr_expect_gt(l.mtbf_hours, 0, "%s has no MTBF", l.part);
    }
    fp_totals t;
    fp_plan_totals(p, &t);
    cr_expect_float_eq(t.cost, cost, 1e-3);
    cr_expect_float_eq(t.power_w, power, 1e-6);
    cr_expect_eq(t.transceivers, mods);
    cr_expect_float_eq(t.cost_per_gpu, cost / 4096, 1e-6);
    cr_expect_float_eq(t.transceivers_per_gpu, (double)mods / 4096, 1e-12);
    cr_expect_eq(t.cables, (int64_t)fp_plan_cable_count(p));
    fp_bom_line l;
    cr_expect_eq(fp_plan_bom_line(p, fp_plan_bom_count(p), &l, NULL), FP_EINVAL);
    fp_plan_free(p);
}

Test(bom, switches_nics_and_spares)
{
    /* No spares but 10 % optics: each transceiver line has a spare line of ceil(q / 10). */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096},\"bom\":{\"spares\":{\"transceiver\":0.1,"
                           "\"copper\":0,\"fibre\":0}}}");
    int64_t sw = 0, nic = 0, last_q = 0;
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        fp_plan_bom_line(p, i, &l, NULL);
        if (!strcmp(l.category, "switch"))
            sw += l.quantity;
        if (!strcmp(l.category, "nic"))
            nic += l.quantity;
        if (l.spare) {
            cr_expect_str_eq(l.category, "transceiver");
            cr_expect_eq(l.quantity, (last_q + 9) / 10);
            cr_expect_eq(l.power_w, 0);
        }
        last_q = l.quantity;
    }
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(sw, s.switches);
    cr_expect_eq(nic, 4096);   /* one NIC per GPU */
    fp_plan_free(p);
}

/* Split one CSV line (no quoted commas in the fields we read) into fields; returns count. */
static int fields(char *line, char **out, int max)
{
    int n = 0;
    char *s = line;
    while (n < max) {
        out[n++] = s;
        if (*s == '"') {    /* quoted: skip to the closing quote */
            s++;
            while (*s && !(*s == '"' && s[1] != '"'))
                s += *s == '"' ? 2 : 1;
            if (*s)
                s++;
        }
        char *c = strchr(s, ',');
        if (!c)
            break;
        *c = '\0';
        s = c + 1;
    }
    return n;
}

Test(bom, written_files_read_back)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024}}");
    char dir[128], path[96];
    fp_error err = { 0 };
    scratch_dir(dir, sizeof dir, "bom");
    cr_assert_eq(fp_plan_write(p, dir, NULL, &err), FP_OK, "%s", err.msg);

    /* bom.csv: the cost column sums to the total row. */
    snprintf(path, sizeof path, "%s/bom.csv", dir);
    char *txt = slurp(path), *save = NULL, *f[24];
    double sum = 0, total = -1;
    int rows = 0;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (rows++ == 0)
            continue;
        int n = fields(line, f, 16);
        if (!strcmp(f[0], "total"))
            total = atof(f[7]);
        else {
            cr_assert_eq(n, 11);
            sum += atof(f[7]);
        }
    }
    cr_expect_float_eq(sum, total, 0.5);
    cr_expect_eq(rows, (int)fp_plan_bom_count(p) + 2);
    free(txt);

    /* cables.csv: one row per cable; splitter rows name both legs. */
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    txt = slurp(path);
    rows = 0;
    int split_rows = 0;
    save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (rows++ == 0) {
            const char *head = "cable_id,a_hall,a_row,a_rack,a_u,a_device,a_port,z_hall";
            cr_expect(strncmp(line, head, strlen(head)) == 0);
            continue;
        }
        int n = fields(line, f, 24);
        cr_assert_eq(n, 23, "row %d has %d fields", rows, n);  /* ..., label_z, protocol */
        if (strchr(f[11], ';'))
            split_rows++;
        /* gbps after medium: the default spec's NICs are 400G ports and fabric.link_gbps
         * defaults to the NIC port speed at every boundary, so every cable's links run at 400. */
        cr_expect_str_eq(f[14], "400", "row %d", rows);
        cr_assert_geq(atof(f[17]) + 1e-9, atof(f[16]));
    }
    cr_expect_eq(rows, (int)fp_plan_cable_count(p) + 1);
    int64_t split = 0;
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        fp_plan_cable(p, i, &c, NULL);
        split += c.n_z > 1;
    }
    cr_expect_eq(split_rows, split);
    free(txt);

    /* plan.json: totals cost = sum of bom costs; media by boundary sum to links. */
    snprintf(path, sizeof path, "%s/plan.json", dir);
    txt = slurp(path);
    cJSON *j = cJSON_Parse(txt);
    cr_assert_not_null(j);
    double jsum = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(j, "bom"))
        jsum += cJSON_GetObjectItem(it, "cost")->valuedouble;
    cr_expect_float_eq(jsum, cJSON_GetObjectItem(cJSON_GetObjectItem(j, "totals"), "cost")->valuedouble, 0.5);
    double links = 0;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(j, "media_by_boundary")) {
        const char *m[] = { "DAC", "ACC", "AEC", "MMF", "SMF" };
        for (int k = 0; k < 5; k++)
            links += cJSON_GetObjectItem(it, m[k])->valuedouble;
    }
    cr_expect_float_eq(links, (double)fp_plan_link_count(p), 0.1);
    cJSON *lay = cJSON_GetObjectItem(j, "layout");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(lay, "racks")), (int)fp_plan_rack_count(p), "%d racks in plan.json, %zu in the plan", cJSON_GetArraySize(cJSON_GetObjectItem(lay, "racks")), fp_plan_rack_count(p));
    cJSON_Delete(j);
    free(txt);
    const char *names[] = { "plan.json", "links.csv", "cables.csv", "bom.csv" };
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    fp_plan_free(p);
}

Test(bom, overrides_from_a_file)
{
    char path[] = "/tmp/fabplan-ov-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    const char *ov = "{\"cables\":[{\"cable\":\"C0000001\",\"length_m\":44}]}";
    cr_assert_eq(write(fd, ov, strlen(ov)), (ssize_t)strlen(ov));
    close(fd);
    char spec[256];
    snprintf(spec, sizeof spec, "{\"cluster\":{\"gpus\":256},\"overrides\":\"%s\"}", path);
    fp_plan *p = plan_from(spec);
    fp_cable_info c;
    size_t ci = 0;
    cr_assert_eq(fp_plan_link_cable(p, 0, &ci, NULL), FP_OK);
    cr_assert_eq(fp_plan_cable(p, ci, &c, NULL), FP_OK);
    cr_expect_eq(c.stock_m, 50);    /* OM4 stock ... 40, 50 m */
    cr_expect_eq(c.medium, FP_MEDIUM_MMF);
    fp_plan_free(p);
    unlink(path);
}

/* One BOM figure by hand. 1,024 GPUs of the default spec (DGX H100: 8 x ConnectX-7 1 x 400G
 * per server, one NIC port per GPU; QM9700 64 x 400G switches; 2 tiers at 1:1):
 *   NICs:     1,024 x $1,900 (catalog nvidia-cx7-osfp)                      = $1,945,600
 *   leaves:   1,024 NIC links / 32 down ports                               = 32
 *   spines:   32 leaves x 32 uplinks = 1,024 links / 64 ports                = 16
 *   switches: 48 x $28,000 (catalog nvidia-qm9700)                          = $1,344,000
 * Switches + NICs = $3,289,600; power 48 x 750 W + 1,024 x 25 W = 61,600 W. No spares of
 * either by default. */
Test(bom, switch_and_nic_totals_by_hand)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024}}");
    double sw_cost = 0, sw_power = 0, nic_cost = 0, nic_power = 0;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_bom_category_total(&sw_cost, &sw_power, p, FP_BOM_SWITCH, &err), FP_OK,
                 "%s", err.msg);
    cr_assert_eq(fp_plan_bom_category_total(&nic_cost, &nic_power, p, FP_BOM_NIC, &err), FP_OK,
                 "%s", err.msg);
    cr_expect_float_eq(sw_cost, 1344000.0, 1e-6);
    cr_expect_float_eq(nic_cost, 1945600.0, 1e-6);
    cr_expect_float_eq(sw_cost + nic_cost, 3289600.0, 1e-6);
    cr_expect_float_eq(sw_power + nic_power, 61600.0, 1e-6);
    /* The lines agree with the category totals, and carry the enum. */
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        cr_expect_str_eq(l.category, fp_bom_category_name(l.kind));
        if (l.kind == FP_BOM_SWITCH)
            cr_expect_eq(l.quantity, 48);
    }
    cr_expect_eq(fp_plan_bom_category_total(NULL, NULL, p, FP_BOM_CATEGORY_COUNT, &err), FP_EINVAL);
    cr_expect_str_eq(fp_bom_category_name(FP_BOM_CATEGORY_COUNT), "unknown");
    fp_plan_free(p);
}
