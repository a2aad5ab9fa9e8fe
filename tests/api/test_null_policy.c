/* The NULL and range policy of the public API (fabplan.h "NULL and ranges"), checked over every
 * function of include/fabplan/ (the list below follows the headers, file by file): a NULL
 * handle, out parameter or string gives FP_EINVAL (fp_status functions), 0 (counts), NULL
 * (pointer getters), "unknown" (names of enum values), or does nothing (void functions); an
 * index or enum value out of range likewise. err may always be NULL. Run under ASan/UBSan
 * (FABPLAN_SANITIZE) it also proves no call reads out of bounds. On main at 7c07c38
 * fp_plan_summary(NULL), the *_count(NULL) calls, getters with a NULL out, fp_spec_to_json(NULL)
 * and fp_strerror(INT_MIN) crashed. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fabplan.h"
#include "fabplan/publish.h"
#include "helpers.h"  /* enter_scratch_dir: a write that should fail writes nothing here */

static fp_plan *plan;
static fp_catalog *cat;
static fp_spec *spec;

static void setup(void)
{
    fp_error err = { 0 };
    enter_scratch_dir();
    const char *json = "{\"cluster\":{\"gpus\":64}}";
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<null>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&plan, spec, cat, &err), FP_OK, "%s", err.msg);
}

static void teardown(void)
{
    fp_plan_free(plan);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

TestSuite(null_policy, .init = setup, .fini = teardown);

#define BIG ((size_t)-1)
#define EINVAL_(call) cr_expect_eq((call), FP_EINVAL, "%s", #call)

Test(null_policy, error_h)
{
    fp_error_clear(NULL);
    const int codes[] = { INT_MIN, -9, 1, INT_MAX };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = fp_strerror((fp_status)codes[i]);
        cr_assert_not_null(s);
        cr_expect_str_eq(s, "unknown error", "fp_strerror(%d) = %s", codes[i], s);
    }
}

Test(null_policy, catalog_h)
{
    fp_error err = { 0 };
    cr_expect_eq(fp_part_protocols(NULL), 0);
    EINVAL_(fp_catalog_new(NULL, NULL));
    EINVAL_(fp_catalog_merge_string(NULL, "{}", 2, "x", NULL));
    EINVAL_(fp_catalog_merge_string(cat, NULL, 2, "x", NULL));
    EINVAL_(fp_catalog_merge_file(NULL, "x.json", NULL));
    EINVAL_(fp_catalog_merge_file(cat, NULL, &err));
    cr_expect_eq(fp_catalog_count(NULL), 0);
    cr_expect_null(fp_catalog_part(NULL, 0));
    cr_expect_null(fp_catalog_part(cat, BIG));
    cr_expect_null(fp_catalog_part(cat, fp_catalog_count(cat)));
    cr_expect_null(fp_catalog_find(NULL, "nvidia-qm9700"));
    cr_expect_null(fp_catalog_find(cat, NULL));
    const char *out[4];
    cr_expect_eq(fp_catalog_suggest(NULL, "x", FP_PART_SWITCH, out, 4), 0);
    cr_expect_eq(fp_catalog_suggest(cat, NULL, FP_PART_SWITCH, out, 4), 0);
    cr_expect_eq(fp_catalog_suggest(cat, "nvidia-qm970", FP_PART_SWITCH, NULL, 4), 0);
    cr_expect_str_eq(fp_part_type_name((fp_part_type)-1), "part");   /* documented */
    cr_expect_str_eq(fp_part_type_name((fp_part_type)1000), "part");
    fp_catalog_free(NULL);
}

Test(null_policy, spec_h)
{
    char name[64], desc[256], *json = NULL;
    fp_spec *s = NULL;
    EINVAL_(fp_spec_new(NULL, NULL));
    EINVAL_(fp_spec_parse(NULL, "{}", 2, "x", NULL));
    EINVAL_(fp_spec_parse(&s, NULL, 2, "x", NULL));
    EINVAL_(fp_spec_load(NULL, "x", NULL));
    EINVAL_(fp_spec_load(&s, NULL, NULL));
    EINVAL_(fp_spec_preset(NULL, "default", NULL));
    EINVAL_(fp_spec_preset(&s, NULL, NULL));
    EINVAL_(fp_spec_preset_info(fp_spec_preset_count(), name, sizeof name, desc, sizeof desc, NULL));
    EINVAL_(fp_spec_preset_info(BIG, name, sizeof name, desc, sizeof desc, NULL));
    EINVAL_(fp_spec_set(NULL, "/name", "\"x\"", NULL));
    EINVAL_(fp_spec_set(spec, NULL, "\"x\"", NULL));
    EINVAL_(fp_spec_set(spec, "/name", NULL, NULL));
    EINVAL_(fp_spec_validate(NULL, cat, NULL));
    EINVAL_(fp_spec_validate(spec, NULL, NULL));
    EINVAL_(fp_spec_inline_files(NULL, NULL));
    EINVAL_(fp_spec_to_json(NULL, &json, NULL));
    EINVAL_(fp_spec_to_json(spec, NULL, NULL));
    EINVAL_(fp_spec_resolved_json(NULL, cat, &json, NULL));
    EINVAL_(fp_spec_resolved_json(spec, NULL, &json, NULL));
    EINVAL_(fp_spec_resolved_json(spec, cat, NULL, NULL));
    fp_spec_free(NULL);
    fp_free(NULL);
}

Test(null_policy, plan_h)
{
    fp_plan *p = NULL;
    fp_summary sum;
    fp_tier_info tier;
    fp_network_info net;
    fp_device_info dev;
    fp_link_info link;
    int64_t links = 0;
    char *json = NULL, buf[32];
    EINVAL_(fp_plan_new(NULL, spec, cat, NULL));
    EINVAL_(fp_plan_new(&p, NULL, cat, NULL));
    EINVAL_(fp_plan_new(&p, spec, NULL, NULL));
    EINVAL_(fp_plan_new_progress(NULL, spec, cat, NULL, NULL, NULL));
    EINVAL_(fp_plan_new_opts(&p, NULL, cat, NULL, NULL));
    fp_error found[2];
    size_t n_found = 9;
    EINVAL_(fp_plan_check_all(NULL, cat, NULL, found, 2, &n_found, NULL));
    cr_expect_eq(n_found, 0);
    EINVAL_(fp_plan_check_all(spec, NULL, NULL, found, 2, &n_found, NULL));
    EINVAL_(fp_plan_check_all(spec, cat, NULL, NULL, 2, &n_found, NULL));
    EINVAL_(fp_plan_check_all(spec, cat, NULL, found, 0, &n_found, NULL));
    EINVAL_(fp_plan_check_all(spec, cat, NULL, found, 2, NULL, NULL));
    cr_expect_eq(fp_plan_stages(NULL), 0);
    memset(&sum, 0x55, sizeof sum);
    fp_plan_summary(NULL, &sum);
    fp_plan_summary(plan, NULL);
    cr_expect_eq(fp_plan_tier_count(NULL), 0);
    EINVAL_(fp_plan_tier(NULL, 0, &tier, NULL));
    EINVAL_(fp_plan_tier(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_tier(plan, BIG, &tier, NULL));
    cr_expect_eq(fp_plan_network_count(NULL), 0);
    EINVAL_(fp_plan_network(NULL, 0, &net, NULL));
    EINVAL_(fp_plan_network(plan, BIG, &net, NULL));
    cr_expect_eq(fp_plan_device_count(NULL), 0);
    EINVAL_(fp_plan_device(NULL, 0, &dev, NULL));
    EINVAL_(fp_plan_device(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_device(plan, BIG, &dev, NULL));
    cr_expect_eq(fp_plan_link_count(NULL), 0);
    EINVAL_(fp_plan_link(NULL, 0, &link, NULL));
    EINVAL_(fp_plan_link(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_link(plan, BIG, &link, NULL));
    cr_expect_eq(fp_plan_net_device_count(NULL, 0), 0);
    cr_expect_eq(fp_plan_net_device_count(plan, BIG), 0);
    EINVAL_(fp_plan_net_device(NULL, 0, 0, &dev, NULL));
    EINVAL_(fp_plan_net_device(plan, BIG, 0, &dev, NULL));
    EINVAL_(fp_plan_net_device(plan, 0, 0, NULL, NULL));
    cr_expect_eq(fp_plan_net_link_count(NULL, 0), 0);
    cr_expect_eq(fp_plan_net_link_count(plan, BIG), 0);
    EINVAL_(fp_plan_net_link(NULL, 0, 0, &link, NULL));
    EINVAL_(fp_plan_net_link(plan, BIG, 0, &link, NULL));
    EINVAL_(fp_plan_net_link(plan, 0, 0, NULL, NULL));
    EINVAL_(fp_plan_boundary_links(NULL, 0, &links, NULL));
    EINVAL_(fp_plan_boundary_links(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_boundary_links(plan, -1, &links, NULL));
    EINVAL_(fp_plan_boundary_links(plan, INT_MAX, &links, NULL));
    cr_expect_eq(fp_plan_note_count(NULL), 0);
    cr_expect_null(fp_plan_note(NULL, 0));
    cr_expect_null(fp_plan_note(plan, BIG));
    EINVAL_(fp_plan_to_json(NULL, &json, NULL));
    EINVAL_(fp_plan_to_json(plan, NULL, NULL));
    fp_plan_free(NULL);
    cr_expect_str_eq(fp_topology_name((fp_topology)-1), "unknown");
    cr_expect_str_eq(fp_topology_name((fp_topology)99), "unknown");
    cr_expect_null(fp_ratio_text(2.0, NULL, 8));
    cr_expect_eq(fp_ratio_text(2.0, buf, 0), buf);   /* nothing written */
    cr_expect_null(fp_grouped_text(1234.0, 0, NULL, 8));
    cr_expect_eq(fp_grouped_text(1234.0, 0, buf, 0), buf); /* nothing written */
}

Test(null_policy, bom_h)
{
    fp_bom_line line;
    fp_totals tot;
    double cost = 0, power = 0;
    cr_expect_str_eq(fp_bom_category_name((fp_bom_category)-1), "unknown");
    cr_expect_str_eq(fp_bom_category_name((fp_bom_category)99), "unknown");
    cr_expect_eq(fp_plan_bom_count(NULL), 0);
    EINVAL_(fp_plan_bom_line(NULL, 0, &line, NULL));
    EINVAL_(fp_plan_bom_line(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_bom_line(plan, BIG, &line, NULL));
    fp_plan_totals(NULL, &tot);
    fp_plan_totals(plan, NULL);
    cr_expect_eq(fp_plan_net_count(NULL), 0);
    EINVAL_(fp_plan_net_totals(NULL, 0, &tot, NULL));
    EINVAL_(fp_plan_net_totals(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_net_totals(plan, BIG, &tot, NULL));
    cr_expect_eq(fp_plan_net_bom_count(NULL, 0), 0);
    cr_expect_eq(fp_plan_net_bom_count(plan, BIG), 0);
    EINVAL_(fp_plan_net_bom_line(NULL, 0, 0, &line, NULL));
    EINVAL_(fp_plan_net_bom_line(plan, BIG, 0, &line, NULL));
    EINVAL_(fp_plan_net_bom_line(plan, 0, BIG, &line, NULL));
    EINVAL_(fp_plan_net_bom_line(plan, 0, 0, NULL, NULL));
    cr_expect_eq(fp_plan_warning_count(NULL), 0);
    cr_expect_null(fp_plan_warning(NULL, 0));
    cr_expect_null(fp_plan_warning(plan, BIG));
    EINVAL_(fp_plan_bom_category_total(&cost, &power, NULL, FP_BOM_SWITCH, NULL));
    EINVAL_(fp_plan_bom_category_total(&cost, &power, plan, (fp_bom_category)-1, NULL));
}

Test(null_policy, cabling_h)
{
    fp_location loc;
    fp_rack_info rack;
    fp_power_domains pd;
    fp_tray_info tray;
    fp_cable_info cable;
    fp_media_audit audit;
    fp_medium medium;
    fp_growth growth;
    size_t c = 0;
    cr_expect_str_eq(fp_medium_name((fp_medium)-1), "unknown");
    cr_expect_str_eq(fp_medium_name((fp_medium)99), "unknown");
    EINVAL_(fp_plan_device_location(NULL, 0, &loc, NULL));
    EINVAL_(fp_plan_device_location(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_device_location(plan, BIG, &loc, NULL));
    cr_expect_eq(fp_plan_rack_count(NULL), 0);
    EINVAL_(fp_plan_rack(NULL, 0, &rack, NULL));
    EINVAL_(fp_plan_rack(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_rack(plan, BIG, &rack, NULL));
    fp_plan_power_domains(NULL, &pd);
    fp_plan_power_domains(plan, NULL);
    cr_expect_eq(fp_plan_tray_count(NULL), 0);
    EINVAL_(fp_plan_tray(NULL, 0, &tray, NULL));
    EINVAL_(fp_plan_tray(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_tray(plan, BIG, &tray, NULL));
    cr_expect_eq(fp_plan_cable_count(NULL), 0);
    EINVAL_(fp_plan_cable(NULL, 0, &cable, NULL));
    EINVAL_(fp_plan_cable(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_cable(plan, BIG, &cable, NULL));
    cr_expect_eq(fp_plan_net_cable_count(NULL, 0), 0);
    cr_expect_eq(fp_plan_net_cable_count(plan, BIG), 0);
    EINVAL_(fp_plan_net_cable(NULL, 0, 0, &cable, NULL));
    EINVAL_(fp_plan_net_cable(plan, BIG, 0, &cable, NULL));
    EINVAL_(fp_plan_net_cable(plan, 0, 0, NULL, NULL));
    cr_expect_eq(fp_plan_cable_route_m(NULL, 0), 0);
    cr_expect_eq(fp_plan_cable_route_m(plan, BIG), 0);
    {
        uint64_t digest;
        int64_t cables;
        EINVAL_(fp_plan_cable_digest(NULL, &digest, &cables, NULL));
        EINVAL_(fp_plan_cable_digest(plan, NULL, &cables, NULL));
        EINVAL_(fp_plan_cable_digest(plan, &digest, NULL, NULL));
        cr_expect_eq(fp_cable_digest_add(FP_CABLE_DIGEST_INIT, NULL, NULL, NULL),
                     fp_cable_digest_add(FP_CABLE_DIGEST_INIT, "", "", ""));
        cr_expect_null(fp_cable_digest_text(FP_CABLE_DIGEST_INIT, NULL));
    }
    EINVAL_(fp_plan_link_cable(NULL, 0, &c, NULL));
    EINVAL_(fp_plan_link_cable(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_link_cable(plan, BIG, &c, NULL));
    EINVAL_(fp_plan_media_audit(NULL, 0, &audit, NULL));
    EINVAL_(fp_plan_media_audit(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_media_audit(plan, -1, &audit, NULL));
    EINVAL_(fp_plan_media_audit(plan, INT_MAX, &audit, NULL));
    EINVAL_(fp_plan_link_medium(NULL, 0, &medium, NULL));
    EINVAL_(fp_plan_link_medium(plan, 0, NULL, NULL));
    EINVAL_(fp_plan_link_medium(plan, BIG, &medium, NULL));
    cr_expect_eq(fp_plan_growth(NULL, &growth), 0);
    cr_expect_eq(fp_plan_growth(plan, NULL), 0);
}

Test(null_policy, metrics_h)
{
    fp_failure_report rep;
    fp_network_failure nf;
    fp_reliability rel;
    const char *specs[] = { "spine:1" };
    cr_expect_not_null(fp_plan_metrics(NULL));  /* documented: all zero */
    fp_reliability_from_counts(NULL, 3, &rel);
    fp_reliability_from_counts(NULL, 0, NULL);
    EINVAL_(fp_plan_fail(NULL, plan, specs, 1, 1, NULL));
    EINVAL_(fp_plan_fail(&rep, NULL, specs, 1, 1, NULL));
    EINVAL_(fp_plan_fail(&rep, plan, NULL, 1, 1, NULL));
    EINVAL_(fp_plan_fail_network(NULL, plan, 0, &rep, NULL));
    EINVAL_(fp_plan_fail_network(&nf, NULL, 0, &rep, NULL));
    EINVAL_(fp_plan_fail_network(&nf, plan, 0, NULL, NULL));
    fp_collectives coll;
    EINVAL_(fp_plan_collectives(NULL, plan, NULL, NULL));
    EINVAL_(fp_plan_collectives(&coll, NULL, NULL, NULL));
}

Test(null_policy, compare_h)
{
    fp_compare_row *rows = NULL;
    size_t n = 0;
    const fp_spec *specs[] = { spec };
    EINVAL_(fp_compare_designs(NULL, &n, cat, spec, 64, NULL));
    EINVAL_(fp_compare_designs(&rows, NULL, cat, spec, 64, NULL));
    EINVAL_(fp_compare_designs(&rows, &n, NULL, spec, 64, NULL));
    EINVAL_(fp_compare_specs(NULL, &n, cat, specs, NULL, 1, 64, NULL));
    EINVAL_(fp_compare_specs(&rows, &n, cat, NULL, NULL, 1, 64, NULL));
    EINVAL_(fp_compare_specs(&rows, &n, NULL, specs, NULL, 1, 64, NULL));
    EINVAL_(fp_compare_write(NULL, 1, "x", NULL));
    EINVAL_(fp_compare_write(NULL, 0, NULL, NULL));
    fp_compare_free(NULL);
}

Test(null_policy, verify_h)
{
    fp_verify *v = NULL;
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    EINVAL_(fp_verify_run(NULL, &v, NULL));
    EINVAL_(fp_verify_run(&o, NULL, NULL));
    EINVAL_(fp_verify_run(&o, &v, NULL));  /* no plan_dir, no discovery */
    cr_expect_eq(fp_verify_count(NULL, (fp_verify_status)0), 0);
    cr_expect_eq(fp_verify_differs(NULL), 0);
    cr_expect_str_eq(fp_verify_status_name((fp_verify_status)-1), "?");   /* documented */
    cr_expect_str_eq(fp_verify_status_name((fp_verify_status)99), "?");
    EINVAL_(fp_verify_write(NULL, "x", NULL));
    fp_verify_free(NULL);
}

Test(null_policy, write_h)
{
    size_t cables = 0;
    char ids[4][16], name[64];
    fp_publish *pub = NULL;
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    cr_expect_eq(fp_plan_label_cuts(NULL, FP_LABELS_PLAIN, &cables, ids, 4), 0);
    cr_expect_eq(fp_plan_label_cuts(plan, (fp_label_style)99, &cables, ids, 4), 0);
    cr_expect_eq(fp_plan_detail_unit(NULL, &o, name, sizeof name, NULL), 0);
    EINVAL_(fp_plan_write(NULL, "x", &o, NULL));
    EINVAL_(fp_plan_write(plan, NULL, &o, NULL));
    o.version = 999;
    EINVAL_(fp_plan_write(plan, "never", &o, NULL));
    o.version = FP_WRITE_OPTIONS_VERSION;
    o.labels = (fp_label_style)99;
    EINVAL_(fp_plan_write(plan, "never", &o, NULL));
    o.labels = FP_LABELS_PLAIN;
    o.paper = (fp_paper)-1;
    EINVAL_(fp_plan_write(plan, "never", &o, NULL));
    cr_expect_neq(access("never", F_OK), 0, "a refused write made its folder");
    EINVAL_(fp_publish_begin(NULL, &pub, NULL));
    EINVAL_(fp_publish_begin("x", NULL, NULL));
    EINVAL_(fp_publish_path(NULL, "a", name, sizeof name, NULL));
    cr_expect_null(fp_publish_create(NULL, "a", NULL));
    EINVAL_(fp_publish_commit(NULL, NULL));
    fp_publish_abort(NULL);
    fp_csv_field(NULL, "x");
    fp_csv_field(stdout, NULL);
    static const fp_worklist_column wc[] = { { "A", 5, 0, 0 } };
    const char *cell[] = { "x" };
    EINVAL_(fp_worklist_write_xlsx(NULL, "t", "S", wc, 1, cell, 1, NULL));
    EINVAL_(fp_worklist_write_xlsx("never.xlsx", "t", NULL, wc, 1, cell, 1, NULL));
    EINVAL_(fp_worklist_write_xlsx("never.xlsx", "t", "S", NULL, 1, cell, 1, NULL));
    EINVAL_(fp_worklist_write_xlsx("never.xlsx", "t", "S", wc, 0, cell, 1, NULL));
    EINVAL_(fp_worklist_write_xlsx("never.xlsx", "t", "S", wc, 1, NULL, 1, NULL));
    cr_expect_neq(access("never.xlsx", F_OK), 0, "a refused work list wrote its file");
}

Test(null_policy, read_h)
{
    char *text = NULL, *fields[2];
    cr_expect_eq(fp_file_limit((fp_file_kind)-1), 0);
    EINVAL_(fp_read_file(NULL, FP_FILE_SPEC, &text, NULL, NULL));
    EINVAL_(fp_read_file("x", FP_FILE_SPEC, NULL, NULL, NULL));
    EINVAL_(fp_read_file("x", (fp_file_kind)99, &text, NULL, NULL));
    EINVAL_(fp_json_check(NULL, 0, "x", 1, NULL));
    cr_expect_eq(fp_csv_record(NULL, fields, 2), 0);
}
