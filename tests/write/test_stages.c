/* Stages on demand (fp_plan_new_opts): a plan built with some stages answers their getters as a
 * full plan does, refuses the others' with FP_ESTAGE (never a crash), and writes each document
 * from just the stages fp_write_stages names, byte for byte as a full plan writes it. */
#include <criterion/criterion.h>
#include <unistd.h>
#include "helpers.h"

/* 768 GPUs, 8 per server, one 400G port per GPU on 64-port switches, rail-optimized in 32-server
 * units: 96 servers, 768 NIC-leaf links; 24 leaves (3 units x 8 rails) with 32 ports down and
 * 32 up -> 768 leaf-spine links. */
#define SMALL "{\"name\":\"t\",\"cluster\":{\"gpus\":768}}"

static void expect_estage(fp_status rc, const fp_error *err, const char *stage)
{
    cr_expect_eq(rc, FP_ESTAGE, "expected FP_ESTAGE, got %d (%s)", rc, err->msg);
    cr_expect(strstr(err->msg, stage) != NULL, "message should name the %s stage: %s", stage,
              err->msg);
}

Test(stages, needed_closes_over_earlier_stages)
{
    /* Each stage reads all before it: spec -> fabric -> layout -> cabling -> bom -> metrics. */
    cr_expect_eq(fp_plan_stages_needed(0), FP_STAGE_FABRIC);
    cr_expect_eq(fp_plan_stages_needed(FP_STAGE_LAYOUT), FP_STAGE_FABRIC | FP_STAGE_LAYOUT);
    cr_expect_eq(fp_plan_stages_needed(FP_STAGE_CABLING),
                 FP_STAGE_FABRIC | FP_STAGE_LAYOUT | FP_STAGE_CABLING);
    cr_expect_eq(fp_plan_stages_needed(FP_STAGE_BOM), FP_STAGE_ALL & ~FP_STAGE_METRICS);
    cr_expect_eq(fp_plan_stages_needed(FP_STAGE_METRICS), FP_STAGE_ALL);
    cr_expect_eq(fp_plan_stages_needed(0xffffffffu), FP_STAGE_ALL);
}

Test(stages, each_document_declares_what_it_reads)
{
    const unsigned cabling = FP_STAGE_FABRIC | FP_STAGE_LAYOUT | FP_STAGE_CABLING;
    /* Documents of the links alone: names and ports come from the fabric. */
    cr_expect_eq(fp_write_stages(FP_WRITE_LINKS), FP_STAGE_FABRIC);
    cr_expect_eq(fp_write_stages(FP_WRITE_TOPOLOGY | FP_WRITE_AVD | FP_WRITE_DETAIL), FP_STAGE_FABRIC);
    cr_expect_eq(fp_write_stages(FP_WRITE_FIGURE), FP_STAGE_FABRIC);
    cr_expect_eq(fp_write_stages(FP_WRITE_SLURM | FP_WRITE_K8S), FP_STAGE_FABRIC);
    /* Per-cable documents need media and places; the overview colours links by medium. */
    cr_expect_eq(fp_write_stages(FP_WRITE_CABLES), cabling);
    cr_expect_eq(fp_write_stages(FP_WRITE_LABELS | FP_WRITE_NETBOX), cabling);
    cr_expect_eq(fp_write_stages(FP_WRITE_OVERVIEW), cabling);
    cr_expect_eq(fp_write_stages(FP_WRITE_FLOOR), cabling);
    cr_expect_eq(fp_write_stages(FP_WRITE_BOM), cabling | FP_STAGE_BOM);
    /* plan.json, the workbook and the report carry metrics. */
    cr_expect_eq(fp_write_stages(FP_WRITE_JSON), FP_STAGE_ALL);
    cr_expect_eq(fp_write_stages(FP_WRITE_XLSX), FP_STAGE_ALL);
    cr_expect_eq(fp_write_stages(FP_WRITE_REPORT), FP_STAGE_ALL);
    cr_expect_eq(fp_write_stages(FP_WRITE_LINKS | FP_WRITE_BOM), cabling | FP_STAGE_BOM);
    cr_expect_eq(fp_write_stages(0), FP_STAGE_FABRIC);
}

Test(stages, fabric_only_plan_answers_fabric_and_refuses_the_rest)
{
    fp_plan *p = plan_with_stages(SMALL, FP_STAGE_FABRIC);
    fp_error err = { 0 };
    cr_expect_eq(fp_plan_stages(p), FP_STAGE_FABRIC);
    cr_expect_eq(fp_plan_stages(NULL), 0u);
    /* The fabric is all there (numbers from the comment on SMALL). */
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.servers, 96);
    cr_expect_eq(s.links, 768 + 768);
    cr_expect_eq(fp_plan_link_count(p), 1536u);
    fp_link_info li;
    cr_expect_eq(fp_plan_link(p, 0, &li, &err), FP_OK, "%s", err.msg);
    fp_device_info di;
    cr_expect_eq(fp_plan_device(p, 0, &di, &err), FP_OK, "%s", err.msg);

    /* Counts of the stages not built are 0; per-link lookups fail with FP_ESTAGE. */
    cr_expect_eq(fp_plan_cable_count(p), 0u);
    cr_expect_eq(fp_plan_rack_count(p), 0u);
    cr_expect_eq(fp_plan_tray_count(p), 0u);
    cr_expect_eq(fp_plan_bom_count(p), 0u);
    cr_expect_eq(fp_plan_warning_count(p), 0u);
    size_t cable = 7;
    fp_medium medium = FP_MEDIUM_DAC;
    cr_expect_eq(fp_plan_link_cable(p, 0, &cable, NULL), FP_ESTAGE);
    cr_expect_eq(fp_plan_link_medium(p, 0, &medium, NULL), FP_ESTAGE);
    cr_expect_eq(cable, 7);
    cr_expect_eq(medium, FP_MEDIUM_DAC);
    fp_totals t;
    fp_plan_totals(p, &t);
    cr_expect_eq(t.cost, 0);
    cr_expect_eq(t.cables, 0);
    cr_expect_eq(fp_plan_metrics(p)->bisection_gbps, 0);
    fp_growth g;
    cr_expect_eq(fp_plan_growth(p, &g), 0);
    fp_power_domains pd;
    fp_plan_power_domains(p, &pd);
    cr_expect_eq(pd.rack_max_w, 0);
    cr_expect_gt(pd.rack_limit_w, 0, "the limits come from the spec");

    /* Getters that return a status say which stage is missing. */
    fp_cable_info c;
    expect_estage(fp_plan_cable(p, 0, &c, &err), &err, "cabling");
    fp_error_clear(&err);
    fp_location loc;
    expect_estage(fp_plan_device_location(p, 0, &loc, &err), &err, "layout");
    fp_error_clear(&err);
    fp_rack_info r;
    expect_estage(fp_plan_rack(p, 0, &r, &err), &err, "layout");
    fp_error_clear(&err);
    fp_tray_info tr;
    expect_estage(fp_plan_tray(p, 0, &tr, &err), &err, "cabling");
    fp_error_clear(&err);
    fp_bom_line bl;
    expect_estage(fp_plan_bom_line(p, 0, &bl, &err), &err, "bom");
    fp_error_clear(&err);
    double cost, power;
    expect_estage(fp_plan_bom_category_total(&cost, &power, p, FP_BOM_SWITCH, &err), &err, "bom");
    fp_error_clear(&err);
    fp_failure_report fr;
    const char *spec1[] = { "spine:1" };
    expect_estage(fp_plan_fail(&fr, p, spec1, 1, 1, &err), &err, "metrics");
    fp_error_clear(&err);
    char *json = NULL;
    expect_estage(fp_plan_to_json(p, &json, &err), &err, "layout, cabling, bom and metrics");
    cr_expect_null(json);
    cr_expect_str_eq(fp_strerror(FP_ESTAGE), "stage not built");
    fp_plan_free(p);
}

Test(stages, write_refuses_a_document_whose_stage_is_missing_before_touching_the_folder)
{
    fp_plan *p = plan_with_stages(SMALL, FP_STAGE_FABRIC);
    char dir[256], out[300];
    scratch_dir(dir, sizeof dir, "stages");
    snprintf(out, sizeof out, "%s/out", dir);
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_LINKS | FP_WRITE_BOM;
    expect_estage(fp_plan_write(p, out, &o, &err), &err, "bom.csv");
    cr_expect_neq(access(out, F_OK), 0, "nothing is created when a document cannot be written");
    fp_error_clear(&err);
    o.formats = FP_WRITE_LINKS | FP_WRITE_TOPOLOGY;
    cr_expect_eq(fp_plan_write(p, out, &o, &err), FP_OK, "%s", err.msg);
    fp_plan_free(p);
}

Test(stages, layout_without_cabling_gives_racks_without_power)
{
    fp_plan *p = plan_with_stages(SMALL, FP_STAGE_LAYOUT);
    fp_plan *full = plan_with_stages(SMALL, 0);
    fp_error err = { 0 };
    cr_expect_eq(fp_plan_stages(p), FP_STAGE_FABRIC | FP_STAGE_LAYOUT);
    cr_expect_eq(fp_plan_stages(full), FP_STAGE_ALL);
    cr_assert_eq(fp_plan_rack_count(p), fp_plan_rack_count(full));
    cr_assert_gt(fp_plan_rack_count(p), 0u);
    fp_rack_info a, b;
    cr_expect_eq(fp_plan_rack(p, 0, &a, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_plan_rack(full, 0, &b, &err), FP_OK, "%s", err.msg);
    cr_expect_str_eq(a.name, b.name);
    cr_expect_eq(a.devices, b.devices);
    cr_expect_eq(a.power_w, 0, "power comes from the cabling stage");
    cr_expect_gt(b.power_w, 0);
    fp_location la, lb;
    cr_expect_eq(fp_plan_device_location(p, 5, &la, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_plan_device_location(full, 5, &lb, &err), FP_OK, "%s", err.msg);
    cr_expect_str_eq(la.text, lb.text);
    fp_plan_free(p);
    fp_plan_free(full);
}

Test(stages, options_version_is_checked)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = (fp_plan *)&err;    /* set to NULL on failure */
    fp_plan_options o = FP_PLAN_OPTIONS_INIT;
    o.version = FP_PLAN_OPTIONS_VERSION + 1;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_new(&spec, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_plan_new_opts(&plan, spec, cat, &o, &err), FP_EINVAL);
    cr_expect_null(plan);
    cr_expect(strstr(err.msg, "version") != NULL, "%s", err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

/* Write formats from a plan with fp_write_stages(formats) and from a full plan; both write the
 * same files (none missing from the partial plan's set), every one the same bytes. */
static void expect_same_alone(const char *json, unsigned formats)
{
    fp_plan *full = plan_with_stages(json, 0), *part = plan_with_stages(json, fp_write_stages(formats));
    char dir[256], a[300], b[300];
    scratch_dir(dir, sizeof dir, "stages");
    snprintf(a, sizeof a, "%s/full", dir);
    snprintf(b, sizeof b, "%s/part", dir);
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = formats;
    cr_assert_eq(fp_plan_write(full, a, &o, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_write(part, b, &o, &err), FP_OK, "%s", err.msg);
    DIR *d = opendir(b);
    cr_assert_not_null(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        char pa[512], pb[512];
        if (e->d_name[0] == '.')
            continue;
        snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
        snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
        char *x = slurp(pa), *y = slurp(pb);
        cr_expect_str_eq(y, x, "%s (formats 0x%x, %s) differs from the full plan's", e->d_name,
                         formats, json);
        free(x);
        free(y);
        files++;
    }
    closedir(d);
    cr_expect_gt(files, 0);
    cr_expect_eq(files, count_files(a), "formats 0x%x (%s): the partial plan wrote %d files, the full one %d",
                 formats, json, files, count_files(a));
    fp_plan_free(full);
    fp_plan_free(part);
}

Test(stages, documents_written_alone_match_a_full_plan)
{
    /* links.csv with the other networks' links; NetBox, labels and diagrams from the cabling. */
    expect_same_alone("preset:dgx-h100-4su-networks", FP_WRITE_LINKS);
    expect_same_alone("preset:dgx-h100-4su-networks", FP_WRITE_TOPOLOGY | FP_WRITE_AVD);
    expect_same_alone("preset:dgx-h100-4su-networks", FP_WRITE_CABLES | FP_WRITE_LABELS);
    expect_same_alone("preset:dgx-h100-4su-networks", FP_WRITE_NETBOX);
    expect_same_alone("preset:dgx-h100-4su-networks", FP_WRITE_BOM);
    expect_same_alone(SMALL, FP_WRITE_OVERVIEW | FP_WRITE_FLOOR | FP_WRITE_DETAIL);
    expect_same_alone(SMALL, FP_WRITE_DETAIL);  /* the detail diagram needs the fabric alone */
    expect_same_alone(SMALL, FP_WRITE_FIGURE);
    expect_same_alone("preset:gb200-nvl72-su", FP_WRITE_SLURM);    /* the three Slurm files */
    expect_same_alone("preset:gb200-nvl72-su", FP_WRITE_K8S);
    /* A first phase of a larger build (fabric.build_for_gpus): places come from the target. */
    expect_same_alone("{\"name\":\"g\",\"cluster\":{\"gpus\":512},\"fabric\":{\"build_for_gpus\":4096}}",
                      FP_WRITE_CABLES | FP_WRITE_LINKS);
}
