/* The public API's conventions, as an embedder meets them (only include/fabplan/ is used):
 * the error record keeps the first failure until fp_error_clear; BOM categories are an enum
 * with category totals; a failure what-if is a report of its own and leaves the plan as it
 * was; out-of-range lookups by index return FP_EINVAL and leave *out alone; outputs come
 * first. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabplan.h"
#include "helpers.h"  /* scratch_dir only: it uses the public API alone */

static fp_plan *build(const char *json)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<api>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&plan, spec, cat, &err), FP_OK, "%s", err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return plan;
}

/* The first failure stays until the record is cleared; then the next one is recorded. */
Test(api, error_keeps_first_failure_until_cleared)
{
    fp_error err = { 0 };
    fp_spec *spec = NULL;
    const char bad_syntax[] = "{\"cluster\": ";
    const char bad_value[] = "{\"fabric\":{\"tiers\":7}}";
    cr_assert_eq(fp_spec_parse(&spec, bad_syntax, strlen(bad_syntax), "<a>", &err), FP_EPARSE);
    cr_assert_null(spec);
    char first[sizeof err.msg];
    snprintf(first, sizeof first, "%s", err.msg);
    fp_catalog *cat = NULL;
    fp_error ok = { 0 };
    cr_assert_eq(fp_catalog_new(&cat, &ok), FP_OK);
    /* A second failing call returns its own status but does not overwrite the record. */
    cr_assert_eq(fp_spec_parse(&spec, bad_value, strlen(bad_value), "<b>", &err), FP_OK);
    cr_assert_eq(fp_spec_validate(spec, cat, &err), FP_EINVAL);
    cr_expect_eq(err.code, FP_EPARSE);
    cr_expect_str_eq(err.msg, first);
    /* Cleared, the next failure is the one recorded. */
    fp_error_clear(&err);
    cr_expect_eq(err.code, FP_OK);
    cr_expect_str_eq(err.msg, "");
    cr_expect_eq(err.line, 0);
    cr_assert_eq(fp_spec_validate(spec, cat, &err), FP_EINVAL);
    cr_expect_eq(err.code, FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/tiers");
    fp_error_clear(NULL);   /* harmless */
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

/* Categories by enum: every line's kind names its category, the category totals add up to the
 * BOM total, and an unknown category is FP_EINVAL. */
Test(api, bom_categories_are_an_enum)
{
    fp_plan *p = build("{\"cluster\":{\"gpus\":2048}}");
    double sum = 0;
    int seen[FP_BOM_CATEGORY_COUNT] = { 0 };
    for (size_t i = 0; i < fp_plan_bom_count(p); i++) {
        fp_bom_line l;
        cr_assert_eq(fp_plan_bom_line(p, i, &l, NULL), FP_OK);
        cr_assert_lt((unsigned)l.kind, FP_BOM_CATEGORY_COUNT);
        cr_expect_str_eq(l.category, fp_bom_category_name(l.kind));
        seen[l.kind] = 1;
    }
    for (int c = 0; c < FP_BOM_CATEGORY_COUNT; c++) {
        double cost = -1;
        cr_assert_eq(fp_plan_bom_category_total(&cost, NULL, p, (fp_bom_category)c, NULL), FP_OK);
        cr_expect(seen[c] ? cost > 0 : cost == 0, "%s: %g", fp_bom_category_name(c), cost);
        sum += cost;
    }
    fp_totals t;
    fp_plan_totals(p, &t);
    cr_expect_float_eq(sum, t.cost, 1e-6);
    fp_error err = { 0 };
    cr_expect_eq(fp_plan_bom_category_total(NULL, NULL, p, (fp_bom_category)99, &err), FP_EINVAL);
    cr_expect_neq(err.msg[0], '\0');
    fp_plan_free(p);
}

/* fp_plan_fail fills the caller's report and changes nothing in the plan: plan.json is the same
 * text before and after, and two what-ifs on one plan are independent. */
Test(api, failure_report_leaves_plan_unchanged)
{
    fp_plan *p = build("{\"cluster\":{\"gpus\":2048},\"fabric\":{\"topology\":\"clos\",\"tiers\":2}}");
    char *before = NULL, *after = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_to_json(p, &before, &err), FP_OK, "%s", err.msg);
    const char *one[] = { "spine:1" }, *two[] = { "spine:1", "spine:2" };
    fp_failure_report a, b, a2;
    cr_assert_eq(fp_plan_fail(&a, p, one, 1, 1, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_fail(&b, p, two, 2, 1, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_fail(&a2, p, one, 1, 1, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(a.switches_failed, 1);
    cr_expect_eq(b.switches_failed, 2);
    cr_expect_eq(a2.links_failed, a.links_failed);
    cr_expect_float_eq(a2.bisection_after_gbps, a.bisection_after_gbps, 1e-9);
    cr_expect_str_eq(b.specs[1], "spine:2");
    cr_assert_eq(fp_plan_to_json(p, &after, &err), FP_OK, "%s", err.msg);
    cr_expect_str_eq(after, before);
    cr_expect_null(strstr(after, "\"failure\""));
    fp_free(before);
    fp_free(after);
    fp_plan_free(p);
}

/* Lookups by index out of range: FP_EINVAL, a message naming the range, *out untouched. */
Test(api, out_of_range_lookups)
{
    fp_plan *p = build("{\"cluster\":{\"gpus\":256}}");
    fp_error err = { 0 };
    fp_link_info li;
    memset(&li, 0x77, sizeof li);
    cr_expect_eq(fp_plan_link(p, fp_plan_link_count(p), &li, &err), FP_EINVAL);
    cr_expect_eq(li.id, (int64_t)0x7777777777777777LL);
    cr_expect(strstr(err.msg, "out of range") != NULL, "%s", err.msg);
    fp_error_clear(&err);
    fp_cable_info ci;
    cr_expect_eq(fp_plan_cable(p, fp_plan_cable_count(p), &ci, &err), FP_EINVAL);
    fp_error_clear(&err);
    fp_rack_info ri;
    cr_expect_eq(fp_plan_rack(p, fp_plan_rack_count(p), &ri, &err), FP_EINVAL);
    fp_error_clear(&err);
    fp_tier_info ti;
    cr_expect_eq(fp_plan_tier(p, fp_plan_tier_count(p), &ti, &err), FP_EINVAL);
    fp_error_clear(&err);
    /* A link's cable and medium: the same rule. The first link's cable is the first cable
     * (cables are numbered by their first link), so its index is 0. */
    size_t cable = 99;
    fp_medium m = FP_MEDIUM_COUNT;
    cr_expect_eq(fp_plan_link_cable(p, fp_plan_link_count(p), &cable, &err), FP_EINVAL);
    cr_expect_eq(cable, 99);
    cr_expect(strstr(err.msg, "out of range") != NULL, "%s", err.msg);
    fp_error_clear(&err);
    cr_expect_eq(fp_plan_link_medium(p, fp_plan_link_count(p), &m, &err), FP_EINVAL);
    cr_expect_eq(m, FP_MEDIUM_COUNT);
    fp_error_clear(&err);
    cr_expect_eq(fp_plan_link_cable(p, 0, &cable, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(cable, 0);
    cr_expect_eq(fp_plan_link_medium(p, 0, &m, &err), FP_OK, "%s", err.msg);
    cr_expect_lt((int)m, FP_MEDIUM_COUNT);
    /* Links per boundary: boundary 0 of 256 GPUs on one 400G NIC per GPU is 256 links; a
     * boundary past the top tier is out of range. */
    int64_t nl = -1;
    cr_expect_eq(fp_plan_boundary_links(p, 0, &nl, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(nl, 256);
    nl = -1;
    cr_expect_eq(fp_plan_boundary_links(p, (int)fp_plan_tier_count(p), &nl, &err), FP_EINVAL);
    cr_expect_eq(nl, -1);
    cr_expect_eq(fp_plan_boundary_links(p, -1, &nl, &err), FP_EINVAL);
    cr_expect_null(fp_plan_note(p, fp_plan_note_count(p)));
    fp_plan_free(p);
}

/* Option structs carry a version: an older caller's version-1 options still write (the
 * library reads only the version-1 members), and FP_WRITE_OPTIONS_INIT is the current one. */
Test(api, write_options_are_versioned)
{
    fp_write_options cur = FP_WRITE_OPTIONS_INIT;
    cr_expect_eq(cur.version, FP_WRITE_OPTIONS_VERSION);
    cr_expect_null(cur.failure);
    fp_plan *p = build("{\"cluster\":{\"gpus\":256}}");
    fp_write_options v1;
    memset(&v1, 0xee, sizeof v1);   /* members after version 1 are garbage to the library */
    v1.version = 1;
    v1.formats = FP_WRITE_JSON;
    v1.progress = NULL;
    v1.payload = NULL;
    char dir[128];
    fp_error err = { 0 };
    scratch_dir(dir, sizeof dir, "api");
    cr_expect_eq(fp_plan_write(p, dir, &v1, &err), FP_OK, "%s", err.msg);
    fp_plan_free(p);
}

/* Large texts are taken as (text, len): a catalog or spec inside a longer buffer is read to len
 * and no further (the bytes after it would not parse), and a NUL byte inside len is refused with
 * its offset rather than silently ending the text. */
Test(api, texts_are_taken_with_their_length)
{
    fp_catalog *cat = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    size_t before = fp_catalog_count(cat);
    const char part[] = "{\"parts\":[{\"id\":\"len-test-switch\",\"type\":\"switch\",\"ports\":64,"
                        "\"port_gbps\":400,\"price_usd\":1,\"power_w\":1,\"source\":\"test\"}]}";
    char buf[sizeof part + 16];
    memcpy(buf, part, sizeof part - 1);
    memcpy(buf + sizeof part - 1, "garbage, no NUL", 16);      /* not terminated at len */
    cr_expect_eq(fp_catalog_merge_string(cat, buf, sizeof part - 1, "<buf>", &err), FP_OK, "%s",
                 err.msg);
    cr_expect_eq(fp_catalog_count(cat), before + 1);
    cr_expect_not_null(fp_catalog_find(cat, "len-test-switch"));
    buf[5] = '\0';
    cr_expect_eq(fp_catalog_merge_string(cat, buf, sizeof part - 1, "<buf>", &err), FP_EPARSE);
    cr_expect(strstr(err.msg, "NUL byte at offset 5") != NULL, "%s", err.msg);
    fp_error_clear(&err);
    const char spec[] = "{\"cluster\":{\"gpus\":256}}trailing";
    fp_spec *s = NULL;
    cr_expect_eq(fp_spec_parse(&s, spec, sizeof spec - 1 - 8, "<buf>", &err), FP_OK, "%s", err.msg);
    fp_spec_free(s);
    fp_catalog_free(cat);
}

/* fp_cable_digest_add is FNV-1a 64 over the cells, each followed by a 0 byte. The expected
 * values were computed outside fabplan from the published algorithm (Python:
 * h = 0xcbf29ce484222325; for b in data: h = ((h ^ b) * 0x100000001b3) % 2**64) over
 * b"C0000001\0su01-node-01\0nic1\0" and that followed by b"C0000002\0'=x\0p1\0": a cell a
 * spreadsheet would run as a formula counts with the apostrophe cables.csv gives it. */
Test(api, cable_digest_is_fnv1a_over_the_cells)
{
    uint64_t h = fp_cable_digest_add(FP_CABLE_DIGEST_INIT, "C0000001", "su01-node-01", "nic1");
    cr_expect_eq(h, 0xb6ace9726af7988eull, "%llx", (unsigned long long)h);
    uint64_t h2 = fp_cable_digest_add(h, "C0000002", "=x", "p1");
    cr_expect_eq(h2, 0xf272a224a19edb32ull, "%llx", (unsigned long long)h2);
    /* the cell as cables.csv shows it gives the same */
    cr_expect_eq(fp_cable_digest_add(h, "C0000002", "'=x", "p1"), h2);
    /* NULL is "" */
    cr_expect_eq(fp_cable_digest_add(FP_CABLE_DIGEST_INIT, NULL, NULL, NULL),
                 fp_cable_digest_add(FP_CABLE_DIGEST_INIT, "", "", ""));
    /* the text plan.json holds: the 16 hex digits in full, leading zeros kept */
    char text[FP_CABLE_DIGEST_TEXT];
    cr_expect_str_eq(fp_cable_digest_text(h, text), "fnv1a64:b6ace9726af7988e");
    cr_expect_str_eq(fp_cable_digest_text(0x1aull, text), "fnv1a64:000000000000001a");
    cr_expect_str_eq(fp_cable_digest_text(~0ull, text), "fnv1a64:ffffffffffffffff");
    /* fp_plan_cable_digest: errors */
    fp_error err = { 0 };
    uint64_t d;
    int64_t n;
    cr_expect_eq(fp_plan_cable_digest(NULL, &d, &n, &err), FP_EINVAL);
}
