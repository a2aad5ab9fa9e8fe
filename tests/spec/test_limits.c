/* Hostile input found by probing (issue 15): each case once crashed, overflowed, was silently
 * misread or gave a misleading message. Every one must now be a clear error naming where. */
#include <criterion/criterion.h>
#include <unistd.h>
#include "helpers.h"

/* fp_catalog_merge_string with the length of a NUL-terminated text. */
static fp_status merge_text(fp_catalog *c, const char *json, const char *origin, fp_error *err)
{
    return fp_catalog_merge_string(c, json, strlen(json), origin, err);
}

static fp_catalog *cat_new(void)
{
    fp_catalog *c = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_catalog_new(&c, &err), FP_OK, "%s", err.msg);
    return c;
}

/* ---- cages ---- */

Test(limits, cages_must_divide_ports_inline)
{
    /* 64 ports in 3 cages: the cabling lays ports out cage by cage, so 64/3 cages overran the
     * cage arrays (segfault). */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"fabric\":{\"switch\":{\"ports\":64,\"port_gbps\":400,\"cages\":3}}}",
                            &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/switch/cages");
    cr_expect(strstr(err.msg, "3 cages do not divide") != NULL, "%s", err.msg);
    cr_expect(strstr(err.msg, "64 ports") != NULL, "%s", err.msg);
    /* 32 twin-port cages divide 64 ports: accepted */
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"fabric\":{\"switch\":{\"ports\":64,\"port_gbps\":400,\"cages\":32}}}",
                            &err),
                 FP_OK, "%s", err.msg);
}

Test(limits, cages_must_divide_ports_catalog)
{
    fp_catalog *c = cat_new();
    fp_error err = { 0 };
    const char *bad = "{\"parts\":[{\"id\":\"nvidia-qm9700\",\"type\":\"switch\",\"ports\":64,"
                      "\"port_gbps\":400,\"cages\":3}]}";
    cr_expect_eq(merge_text(c, bad, "user.json", &err), FP_ECATALOG);
    cr_expect_str_eq(err.where, "user.json:/parts/0/cages");
    cr_expect_eq(fp_catalog_find(c, "nvidia-qm9700")->cages, 32, "catalog must be unchanged");
    fp_catalog_free(c);
}

/* ---- breakouts: whole numbers in range, checked before the conversion to int ---- */

Test(limits, breakouts_whole_and_in_range)
{
    const char *cases[] = { "1e300", "2.5", "65", "1e999" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char spec[256];
        fp_error err = { 0 };
        snprintf(spec, sizeof spec,
                 "{\"cluster\":{\"gpus\":256},\"fabric\":{\"switch\":{\"ports\":32,\"port_gbps\":800,\"breakouts\":[%s]}}}",
                 cases[i]);
        cr_expect_eq(plan_error(spec, &err), FP_EINVAL, "breakouts [%s]", cases[i]);
        cr_expect(strstr(err.msg, "whole number of ways from 2 to 64") != NULL, "[%s]: %s", cases[i],
                  err.msg);
        cr_expect(strstr(err.msg, "-2147483648") == NULL, "%s", err.msg);
    }
    /* 800G split 2 ways reaches the 400G NIC: accepted */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"fabric\":{\"switch\":{\"ports\":32,\"port_gbps\":800,\"breakouts\":[2]}}}",
                            &err),
                 FP_OK, "%s", err.msg);
}

/* ---- capacity products saturate instead of overflowing ---- */

Test(limits, capacity_of_huge_switches_does_not_overflow)
{
    /* 4,096 ports of 25.6 Tb/s split 64 ways: radix 262,144 at 400G. Four tiers multiply four
     * down-port counts of about 2^17-2^18: about 2^69, past int64. 256 GPUs obviously fit. */
    fp_catalog *c = cat_new();
    fp_spec *s = NULL;
    fp_error err = { 0 };
    const char *j = "{\"cluster\":{\"gpus\":256},\"fabric\":{\"topology\":\"clos\",\"tiers\":4,"
                    "\"switch\":{\"ports\":4096,\"port_gbps\":25600,\"breakouts\":[64]}}}";
    cr_assert_eq(fp_spec_parse(&s, j, strlen(j), "<test>", &err), FP_OK);
    cr_expect_eq(fp_spec_validate(s, c, &err), FP_OK, "%s", err.msg);
    fp_spec_free(s);
    fp_catalog_free(c);
}

/* ---- messages that said "maximum of 0 GPUs" ---- */

Test(limits, reserve_leaving_no_capacity_says_why)
{
    /* reserve 0.9 leaves 6 of 64 ports: a leaf has 3 down, so a 32-server SU's 8 rails need
     * ceil(32/3) = 11 rail-aligned leaves each, 8 x 11 = 88 (fabric.rail_leaves "aligned", the
     * default; shared rails would take ceil(256/3) = 86), but a spine reaches 3. */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"fabric\":{\"reserve\":0.9}}", &err),
                 FP_EDESIGN);
    cr_expect_str_eq(err.where, "/fabric/su_servers");
    cr_expect(strstr(err.msg, "needs 88 leaves, more than the 3") != NULL, "%s", err.msg);
    cr_expect(strstr(err.msg, "reserve") != NULL, "%s", err.msg);
    cr_expect(strstr(err.msg, "maximum of 0") == NULL, "%s", err.msg);
}

Test(limits, missing_cage_type_is_named)
{
    /* Inline parts carry no cage type; the message said "a  cage". */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256,\"nic\":{\"ports\":1,\"port_gbps\":100000}},"
                            "\"fabric\":{\"switch\":{\"ports\":64,\"port_gbps\":100000}}}",
                            &err),
                 FP_EDESIGN);
    cr_expect(strstr(err.msg, "an untyped cage on the NIC side") != NULL, "%s", err.msg);
    cr_expect(strstr(err.msg, "  cage") == NULL, "%s", err.msg);
}

/* ---- names: valid UTF-8, no control characters, no U+FFFE/U+FFFF ---- */

Test(limits, names_follow_one_rule)
{
    struct {
        const char *json_name;  /* as written inside the JSON string */
        const char *byte;       /* expected "byte 0x.. at position N" */
    } bad[] = {
        { "ab\\u0001c", "byte 0x01 at position 3" },          /* C0 control */
        { "tab\\there", "byte 0x09 at position 4" },           /* tab is a control character */
        { "x\\u007f", "byte 0x7F at position 2" },             /* DEL */
        { "x\\u0085y", "byte 0xC2 at position 2" },            /* C1 control NEL, UTF-8 C2 85 */
        { "a\\uFFFEb", "byte 0xEF at position 2" },            /* noncharacter */
        { "\\uFFFF", "byte 0xEF at position 1" },
        { "bad\xff", "byte 0xFF at position 4" },              /* not UTF-8 */
        { "over\xc0\xaf", "byte 0xC0 at position 5" },         /* overlong '/' */
        { "cut\xe6\x97", "byte 0xE6 at position 4" },          /* truncated sequence */
        { "sur\xed\xa0\x80", "byte 0xED at position 4" },      /* UTF-8 of a surrogate */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char spec[256];
        fp_error err = { 0 };
        snprintf(spec, sizeof spec, "{\"name\":\"%s\",\"cluster\":{\"gpus\":256}}", bad[i].json_name);
        cr_expect_eq(plan_error(spec, &err), FP_EINVAL, "case %zu", i);
        cr_expect_str_eq(err.where, "/name", "case %zu", i);
        cr_expect(strstr(err.msg, bad[i].byte) != NULL, "case %zu: %s", i, err.msg);
    }
    /* Letters of any script and emoji are names. */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"name\":\"Z\xc3\xbcrich \xe6\x9d\xb1\xe4\xba\xac \xf0\x9f\x9a\x80\","
                            "\"cluster\":{\"gpus\":256}}",
                            &err),
                 FP_OK, "%s", err.msg);
}

Test(limits, catalog_and_override_strings_follow_the_rule)
{
    fp_catalog *c = cat_new();
    fp_error err = { 0 };
    cr_expect_eq(merge_text(c, "{\"parts\":[{\"id\":\"sw\\u0007\",\"type\":\"switch\","
                                            "\"ports\":64,\"port_gbps\":400}]}",
                                         "user.json", &err),
                 FP_ECATALOG);
    cr_expect_str_eq(err.where, "user.json:/parts/0/id");
    cr_expect(strstr(err.msg, "byte 0x07 at position 3") != NULL, "%s", err.msg);
    fp_catalog_free(c);
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":256},\"overrides\":[{\"a\":\"su01-node-01\\u001b[31m nic1\","
                            "\"z\":\"su01-leaf-r1 p1\",\"length_m\":3}]}",
                            &err),
                 FP_EINVAL);
    cr_expect_str_eq(err.where, "/overrides/0/a");
}

Test(limits, name_from_a_file_name_is_made_to_follow_the_rule)
{
    char dir[128], path[128];
    scratch_dir(dir, sizeof dir, "limits");
    snprintf(path, sizeof path, "%s/a\x01" "b\xff.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"cluster\":{\"gpus\":256}}", f);
    fclose(f);
    fp_spec *s = NULL;
    fp_catalog *c = cat_new();
    fp_plan *p = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_spec_load(&s, path, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&p, s, c, &err), FP_OK, "%s", err.msg);
    char *json = NULL;
    cr_assert_eq(fp_plan_to_json(p, &json, &err), FP_OK);
    cr_expect(strstr(json, "\"name\":\t\"a_b_\"") != NULL || strstr(json, "\"name\": \"a_b_\"") != NULL,
              "%.300s", json);
    fp_free(json);
    fp_plan_free(p);
    fp_spec_free(s);
    fp_catalog_free(c);
    unlink(path);
    rmdir(dir);
}

/* ---- catalog files ---- */

Test(limits, nul_in_catalog_file_is_an_error)
{
    char path[] = "/tmp/fabplan-cat-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    /* text after the NUL used to be ignored, so the second part silently vanished */
    static const char text[] = "{\"parts\":[]}\0{\"parts\":[{\"id\":\"x\"}]}";
    cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    fp_catalog *c = cat_new();
    fp_error err = { 0 };
    cr_expect_eq(fp_catalog_merge_file(c, path, &err), FP_EPARSE);
    cr_expect(strstr(err.msg, "NUL byte at offset 12") != NULL, "%s", err.msg);
    fp_catalog_free(c);
    unlink(path);
}

/* Many parts: duplicates found by sorting report the same first pair a reader meets. */
Test(limits, big_catalog_merge_and_duplicates)
{
    const int n = 4000;
    size_t cap = (size_t)n * 120 + 64, k = 0;
    char *t = malloc(cap);
    cr_assert_not_null(t);
    k += (size_t)snprintf(t + k, cap - k, "{\"parts\":[");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(t + k, cap - k,
                              "%s{\"id\":\"sw-%05d\",\"type\":\"switch\",\"ports\":64,\"port_gbps\":400}",
                              i ? "," : "", i);
    snprintf(t + k, cap - k, "]}");
    fp_catalog *c = cat_new();
    size_t before = fp_catalog_count(c);
    fp_error err = { 0 };
    cr_assert_eq(merge_text(c, t, "big.json", &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_catalog_count(c), before + (size_t)n);
    cr_expect_not_null(fp_catalog_find(c, "sw-03999"));
    /* merging the same file again replaces every part: the count stays */
    cr_assert_eq(merge_text(c, t, "big.json", &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_catalog_count(c), before + (size_t)n);
    /* parts 3000 and 3999 repeat parts 7 and 12: the first repeat in file order is reported */
    memcpy(strstr(t, "sw-03000"), "sw-00007", 8);
    memcpy(strstr(t, "sw-03999"), "sw-00012", 8);
    memset(&err, 0, sizeof err);
    cr_expect_eq(merge_text(c, t, "big.json", &err), FP_ECATALOG);
    cr_expect_str_eq(err.where, "big.json:/parts/3000");
    cr_expect(strstr(err.msg, "\"sw-00007\" is defined twice (also at /parts/7)") != NULL, "%s", err.msg);
    /* an earlier bad part is reported before a later repeat */
    char *bad = strstr(t, "sw-00100");
    memcpy(bad + 11, "tipe", 4);
    memset(&err, 0, sizeof err);
    cr_expect_eq(merge_text(c, t, "big.json", &err), FP_ECATALOG);
    cr_expect_str_eq(err.where, "big.json:/parts/100/tipe", "%s", err.msg);
    free(t);
    fp_catalog_free(c);
}

Test(limits, gpu_range_is_what_fits_in_memory)
{
    /* 10,000,000 GPUs needed more than 5.6 GB (about 1.2 kB per GPU); the range is 2^20. */
    fp_error err = { 0 };
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":1048577}}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/cluster/gpus");
    cr_expect(strstr(err.msg, "from 1 to 1048576") != NULL, "%s", err.msg);
    cr_expect_eq(plan_error("{\"cluster\":{\"gpus\":10000000}}", &err), FP_EINVAL);
}
