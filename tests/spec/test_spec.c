/* Spec parsing, overrides and errors: every error names where and what. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include "helpers.h"

Test(spec, syntax_error_has_line_and_column)
{
    fp_spec *s = NULL;
    fp_error err = { 0 };
    const char *txt = "{\n  \"cluster\": {\n    \"gpus\": 16384,\n  }\n}";
    cr_assert_eq(fp_spec_parse(&s, txt, strlen(txt), "x.json", &err), FP_EPARSE);
    cr_expect_eq(err.line, 4, "line %d: %s", err.line, err.msg);
    cr_expect_eq(err.column, 3, "column %d: %s", err.column, err.msg);
    cr_expect(strstr(err.msg, "x.json:4:3") != NULL, "%s", err.msg);
    cr_expect_null(s);
}

Test(spec, trailing_garbage_rejected)
{
    fp_spec *s = NULL;
    fp_error err = { 0 };
    cr_expect_eq(fp_spec_parse(&s, "{} x", 4, "t", &err), FP_EPARSE);
    memset(&err, 0, sizeof err);
    cr_expect_eq(fp_spec_parse(&s, "[1]", 3, "t", &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "must be a JSON object") != NULL, "%s", err.msg);
}

Test(spec, bad_value_names_pointer_expected_found)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"fabric\":{\"tiers\":7}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/tiers");
    cr_expect(strstr(err.msg, "expected \"auto\", 2, 3 or 4") && strstr(err.msg, "found the number 7"), "%s", err.msg);

    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":\"many\"}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/cluster/gpus");
    cr_expect(strstr(err.msg, "found the string \"many\""), "%s", err.msg);

    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":-5}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/cluster/gpus");

    cr_assert_eq(plan_error("{\"fabric\":{\"oversubscription\":[1,0]}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/oversubscription/1");
    cr_assert_eq(plan_error("{\"fabric\":{\"oversubscription\":[\"3:0\"]}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/oversubscription/0");
    cr_expect(strstr(err.msg, "\"16:15\""), "%s", err.msg);

    cr_assert_eq(plan_error("{\"fabric\":{\"topology\":\"torus\"}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/topology");
}

/* An empty name titled every document with nothing and made the NetBox site "fabplan" (a
 * silent default), one of spaces a blank site NetBox refuses; a name given must say something. */
Test(spec, empty_name_refused)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"name\":\"\",\"cluster\":{\"gpus\":64}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/name");
    cr_expect(strstr(err.msg, "expected a name of 1 to 127 characters") && strstr(err.msg, "found an empty string"),
              "%s", err.msg);
    /* NetBox refuses a blank site name: the import failed on "  " */
    cr_assert_eq(plan_error("{\"name\":\"  \",\"cluster\":{\"gpus\":64}}", &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "found only spaces"), "%s", err.msg);
}

Test(spec, unknown_key_suggests)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"fabric\":{\"tier\":3}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/tier");
    cr_expect(strstr(err.msg, "did you mean \"tiers\"") != NULL, "%s", err.msg);
}

Test(spec, unknown_catalog_id_lists_close_matches)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"fabric\":{\"switch\":\"nvidia-qm970\"}}", &err), FP_ECATALOG);
    cr_expect_str_eq(err.where, "/fabric/switch");
    cr_expect(strstr(err.msg, "nvidia-qm9700") != NULL, "%s", err.msg);
    cr_assert_eq(plan_error("{\"cluster\":{\"nic\":\"nvidia-qm9700\"}}", &err), FP_ECATALOG);
    cr_expect(strstr(err.msg, "is a switch, expected a nic") != NULL, "%s", err.msg);
}

Test(spec, switch_too_slow_for_nic)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"nic\":\"nvidia-cx8-osfp\"},\"fabric\":{\"switch\":\"nvidia-qm9700\"}}", &err),
                 FP_EINVAL);
    cr_expect(strstr(err.msg, "400G ports") && strstr(err.msg, "800G"), "%s", err.msg);
}

Test(spec, planes_need_matching_nic_ports)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"fabric\":{\"planes\":2}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/planes");
}

Test(spec, fat_tree_rejects_oversubscription)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"fabric\":{\"topology\":\"fat-tree\",\"oversubscription\":[2]}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/oversubscription");
}

Test(spec, too_many_switch_models)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":512},\"fabric\":{\"tiers\":2,\"switch\":[\"nvidia-qm9700\",\"nvidia-qm9700\",\"nvidia-qm9700\"]}}", &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/switch");
}

Test(spec, extra_oversubscription_only_if_one)
{
    fp_error err = { 0 };
    /* auto picks 2 tiers for 512 GPUs: a 1:1 entry for tier 2 is harmless, 2:1 is an error */
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":512},\"fabric\":{\"oversubscription\":[1,1,1]}}", &err), FP_OK, "%s", err.msg);
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":512},\"fabric\":{\"oversubscription\":[1,2]}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/oversubscription");
}

Test(spec, empty_spec_equals_default_preset)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *a = NULL, *b = NULL;
    fp_plan *pa = NULL, *pb = NULL;
    char *ja = NULL, *jb = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    cr_assert_eq(fp_spec_new(&a, &err), FP_OK);
    cr_assert_eq(fp_spec_preset(&b, "default", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&pa, a, cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&pb, b, cat, &err), FP_OK, "%s", err.msg);
    fp_summary s;
    fp_plan_summary(pa, &s);
    cr_expect_eq(s.gpus, 16384);
    cr_expect_eq(s.topology, FP_TOPO_RAIL);
    cr_assert_eq(fp_plan_to_json(pa, &ja, &err), FP_OK);
    cr_assert_eq(fp_plan_to_json(pb, &jb, &err), FP_OK);
    cr_expect_str_eq(ja, jb);
    fp_free(ja);
    fp_free(jb);
    fp_plan_free(pa);
    fp_plan_free(pb);
    fp_spec_free(a);
    fp_spec_free(b);
    fp_catalog_free(cat);
}

/* fp_spec_preset_info past the end is FP_EINVAL (the header's promise), naming the count; it
 * read the freed presets tree for the message (a crash), and an index of 2^32 wrapped to
 * preset 0 in cJSON's int. The count: templates/presets.json lists one entry per preset, each
 * with one "description" (counted in the text here, not asked of the library). */
Test(spec, preset_info_out_of_range_is_einval)
{
    extern const char fp__presets_json[];
    extern const size_t fp__presets_json_len;
    size_t count = 0;
    for (const char *q = fp__presets_json; (q = strstr(q, "\"description\"")) != NULL; q++)
        count++;
    (void)fp__presets_json_len;
    cr_assert_eq(fp_spec_preset_count(), count);
    char want[64];
    snprintf(want, sizeof want, "(there are %zu)", count);
    const size_t bad[] = { count, count + 1, (size_t)1 << 32, SIZE_MAX };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        fp_error err = { 0 };
        char name[64] = "x", desc[64] = "y";
        cr_expect_eq(fp_spec_preset_info(bad[k], name, sizeof name, desc, sizeof desc, &err),
                     FP_EINVAL, "index %zu", bad[k]);
        cr_expect(strstr(err.msg, want) != NULL, "%s", err.msg);
        cr_expect_str_eq(name, "x");
    }
}

Test(spec, every_preset_plans)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    cr_assert_geq(fp_spec_preset_count(), 5);
    for (size_t i = 0; i < fp_spec_preset_count(); i++) {
        char name[64];
        fp_spec *s = NULL;
        cr_assert_eq(fp_spec_preset_info(i, name, sizeof name, NULL, 0, &err), FP_OK);
        cr_assert_eq(fp_spec_preset(&s, name, &err), FP_OK, "%s", err.msg);
        cr_expect_eq(fp_spec_validate(s, cat, &err), FP_OK, "%s: %s", name, err.msg);
        fp_spec_free(s);
    }
    fp_spec *s = NULL;
    cr_expect_eq(fp_spec_preset(&s, "nope", &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "default") != NULL, "%s", err.msg);
    fp_catalog_free(cat);
}

Test(spec, set_overrides)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *s = NULL;
    fp_plan *p = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    cr_assert_eq(fp_spec_new(&s, &err), FP_OK);
    cr_assert_eq(fp_spec_set(s, "/cluster/gpus", "512", &err), FP_OK);
    cr_assert_eq(fp_spec_set(s, "/fabric/topology", "clos", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_set(s, "/fabric/switch", "nvidia-sn5600", &err), FP_OK);
    cr_assert_eq(fp_plan_new(&p, s, cat, &err), FP_OK, "%s", err.msg);
    fp_summary sm;
    fp_plan_summary(p, &sm);
    cr_expect_eq(sm.gpus, 512);
    cr_expect_eq(sm.topology, FP_TOPO_CLOS);
    cr_expect_eq(fp_spec_set(s, "cluster", "1", &err), FP_EINVAL);
    cr_expect_eq(fp_spec_set(s, "/cluster/gpus/x", "1", &(fp_error){ 0 }), FP_EINVAL);
    fp_plan_free(p);
    fp_spec_free(s);
    fp_catalog_free(cat);
}

Test(spec, resolved_spec_in_plan_json_replans_identically)
{
    /* plan.json's "spec" is fully resolved (no "auto"); fed back it gives the same plan. */
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":4096},\"fabric\":{\"switch\":{\"ports\":64,\"port_gbps\":400}}}");
    char *j = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_plan_to_json(p, &j, &err), FP_OK);
    const char *spec = strstr(j, "\"spec\":");
    cr_assert_not_null(spec);
    cr_expect(strstr(j, "\"auto\"") == NULL, "resolved spec must not say auto");
    /* cut the spec object out by brace matching */
    const char *st = strchr(spec, '{');
    int depth = 0;
    const char *e = st;
    for (; *e; e++) {
        if (*e == '{')
            depth++;
        else if (*e == '}' && --depth == 0)
            break;
    }
    char *sub = strndup(st, (size_t)(e - st + 1));
    fp_plan *q = plan_from(sub);
    char *k = NULL;
    cr_assert_eq(fp_plan_to_json(q, &k, &err), FP_OK);
    /* Same plan; only the reason for the tier count differs ("as given" vs "auto"). */
    cJSON *x = cJSON_Parse(j), *y = cJSON_Parse(k);
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(x, "summary"), "tier_choice");
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(y, "summary"), "tier_choice");
    char *xs = cJSON_Print(x), *ys = cJSON_Print(y);
    cr_expect_str_eq(xs, ys);
    cJSON_free(xs);
    cJSON_free(ys);
    cJSON_Delete(x);
    cJSON_Delete(y);
    free(sub);
    fp_free(j);
    fp_free(k);
    fp_plan_free(p);
    fp_plan_free(q);
}

Test(spec, load_missing_file_is_io_error)
{
    fp_spec *s = NULL;
    fp_error err = { 0 };
    cr_expect_eq(fp_spec_load(&s, "/nonexistent/spec.json", &err), FP_EIO);
    cr_expect(strstr(err.msg, "/nonexistent/spec.json") != NULL);
}

Test(spec, switch_with_too_few_ports)
{
    fp_error err = { 0 };
    cr_assert_eq(plan_error("{\"cluster\":{\"gpus\":4},\"fabric\":{\"switch\":{\"ports\":3,\"port_gbps\":400}}}", &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/switch");
    cr_expect(strstr(err.msg, "3 usable ports") && strstr(err.msg, "at least 4"), "%s", err.msg);
    /* 8 ports with half reserved leaves 4: still a valid (tiny) fabric */
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":4,\"gpus_per_server\":1},\"fabric\":{\"topology\":\"clos\",\"reserve\":0.5,"
                            "\"switch\":{\"ports\":8,\"port_gbps\":400}}}", &err), FP_OK, "%s", err.msg);
}

/* No U+0000 in any JSON string, raw or escaped: cJSON decodes \u0000 into a NUL that ends the C
 * string, so on a6fa17a {"name":"a\u0000b"} planned as "a", a key "gpus\u0000junk" was read as
 * "gpus", and a catalog part "nvidia-qm9700\u0000evil" replaced the built-in QM9700. Each is
 * FP_EPARSE naming the offset of the backslash (counted by hand below). An escaped backslash
 * followed by "u0000" is six ordinary characters and stays allowed. */
Test(spec, escaped_nul_in_any_string_is_refused)
{
    static const struct { const char *json; size_t at; } bad[] = {
        { "{\"name\":\"a\\u0000b\"}", 10 },                    /* {"name":"a = 10 bytes */
        { "{\"cluster\":{\"gpus\\u0000junk\":128}}", 17 },     /* {"cluster":{"gpus = 17 */
        { "{\"name\":\"\\u0000\"}", 9 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fp_error err = { 0 };
        fp_spec *s = NULL;
        cr_expect_eq(fp_spec_parse(&s, bad[i].json, strlen(bad[i].json), "<t>", &err), FP_EPARSE,
                     "%s", bad[i].json);
        char want[64];
        snprintf(want, sizeof want, "at offset %zu", bad[i].at);
        cr_expect(strstr(err.msg, want) != NULL && strstr(err.msg, "NUL") != NULL, "%s", err.msg);
        fp_spec_free(s);
    }
    static const char part[] =
        "{\"parts\":[{\"id\":\"nvidia-qm9700\\u0000evil\",\"type\":\"switch\",\"ports\":64,"
        "\"port_gbps\":400,\"price_usd\":1}]}";
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    cr_expect_eq(fp_catalog_merge_string(cat, part, strlen(part), "<t>", &err), FP_EPARSE);
    cr_expect(strstr(err.msg, "NUL") != NULL, "%s", err.msg);
    fp_catalog_free(cat);
    static const char ok[] = "{\"name\":\"a\\\\u0000b\"}";
    fp_spec *s = NULL;
    cr_expect_eq(fp_spec_parse(&s, ok, strlen(ok), "<t>", &err), FP_OK, "%s", err.msg);
    fp_spec_free(s);
}

/* An out-of-range number is quoted with the digits that tell it from the bound: on a6fa17a
 * "reserve": 0.9000000001 said "found 0.9" (%g), which reads as in range. */
Test(spec, out_of_range_number_keeps_its_digits)
{
    static const char json[] = "{\"fabric\":{\"reserve\":0.9000000001}}";
    fp_error err = { 0 };
    fp_spec *s = NULL;
    fp_catalog *cat = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    fp_status rc = fp_spec_parse(&s, json, strlen(json), "<t>", &err);
    if (rc == FP_OK)
        rc = fp_spec_validate(s, cat, &err);
    cr_expect_eq(rc, FP_EINVAL);
    cr_expect(strstr(err.msg, "found 0.9000000001") != NULL, "%s", err.msg);
    fp_spec_free(s);
    fp_catalog_free(cat);
}

/* fp_spec_set (--set): a value that starts like JSON goes through the JSON reader. On a6fa17a a
 * lone surrogate "\ud800" failed cJSON's parse and silently became the 8-character literal
 * "\"\\ud800\"", and "a\u0000b" set the name "a". Both are FP_EPARSE now; a bare word is still
 * a string. */
Test(spec, set_value_follows_the_json_rules)
{
    fp_error err = { 0 };
    fp_spec *s = NULL;
    cr_assert_eq(fp_spec_preset(&s, "default", &err), FP_OK, "%s", err.msg);
    fp_error e1 = { 0 }, e2 = { 0 }, e3 = { 0 };   /* an fp_error keeps its first failure */
    cr_expect_eq(fp_spec_set(s, "/name", "\"\\ud800\"", &e1), FP_EPARSE);
    cr_expect_eq(fp_spec_set(s, "/name", "\"a\\u0000b\"", &e2), FP_EPARSE);
    cr_expect(strstr(e2.msg, "NUL") != NULL, "%s", e2.msg);
    cr_expect_eq(fp_spec_set(s, "/name", "plain-word", &e3), FP_OK, "%s", e3.msg);
    fp_spec_free(s);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* fp_spec_inline_files reads the overrides file once, from the spec's folder, and puts its list
 * into the spec: with the file gone afterwards, the plan and a copy through fp_spec_to_json
 * still carry the override (cable C0000001 routed at the 9 m the file gives). A file that
 * cannot be read is FP_EIO naming /overrides and the path; a file without a list is FP_EINVAL
 * naming the file; the spec is unchanged after an error. */
Test(spec, inline_files_reads_the_overrides_file_once)
{
    char dir[256], spec_path[320], ov_path[320];
    scratch_dir(dir, sizeof dir, "spec-inline");
    snprintf(spec_path, sizeof spec_path, "%s/spec.json", dir);
    snprintf(ov_path, sizeof ov_path, "%s/ov.json", dir);
    write_file(ov_path, "{\"cables\":[{\"cable\":\"C0000001\",\"length_m\":9}]}");
    write_file(spec_path, "{\"cluster\":{\"gpus\":256},\"overrides\":\"ov.json\"}");
    fp_spec *spec = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_spec_load(&spec, spec_path, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_inline_files(spec, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(unlink(ov_path), 0);
    char *json = NULL;
    cr_assert_eq(fp_spec_to_json(spec, &json, &err), FP_OK);
    cr_expect(strstr(json, "\"length_m\":\t9") != NULL && strstr(json, "ov.json") == NULL, "%s", json);
    fp_spec *copy = NULL;
    cr_assert_eq(fp_spec_parse(&copy, json, strlen(json), "<copy>", &err), FP_OK, "%s", err.msg);
    fp_free(json);
    fp_catalog *cat = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    fp_spec *both[] = { spec, copy };
    for (int k = 0; k < 2; k++) {
        fp_plan *p = NULL;
        cr_assert_eq(fp_plan_new(&p, both[k], cat, &err), FP_OK, "%s", err.msg);
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, 0, &c, &err), FP_OK, "%s", err.msg);
        cr_expect_str_eq(c.id, "C0000001");
        cr_expect_float_eq(c.route_m, 9.0, 1e-9, "%s: route %g", k ? "copy" : "spec", c.route_m);
        fp_plan_free(p);
    }
    /* nothing left to read: a second call is FP_OK and changes nothing */
    cr_expect_eq(fp_spec_inline_files(spec, &err), FP_OK, "%s", err.msg);
    fp_spec_free(copy);
    fp_spec_free(spec);

    /* the file is gone: FP_EIO, the spec keeps its string */
    write_file(spec_path, "{\"cluster\":{\"gpus\":256},\"overrides\":\"ov.json\"}");
    cr_assert_eq(fp_spec_load(&spec, spec_path, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_spec_inline_files(spec, &err), FP_EIO);
    cr_expect(strncmp(err.msg, "/overrides: ", 12) == 0 && strstr(err.msg, ov_path) != NULL, "%s", err.msg);
    cr_assert_eq(fp_spec_to_json(spec, &json, NULL), FP_OK);
    cr_expect(strstr(json, "\"overrides\":\t\"ov.json\"") != NULL, "%s", json);
    fp_free(json);
    /* a file whose object has no "cables" list */
    write_file(ov_path, "{\"cabels\":[]}");
    err = (fp_error){ 0 };
    cr_expect_eq(fp_spec_inline_files(spec, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "ov.json: expected a list of cable overrides") != NULL, "%s", err.msg);
    err = (fp_error){ 0 };
    cr_expect_eq(fp_spec_inline_files(NULL, &err), FP_EINVAL);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}
