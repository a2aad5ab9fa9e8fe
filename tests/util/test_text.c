/* The hand formatters in text.c must print exactly what the printf formats they replace print:
 * every per-link and per-cable document depends on it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "util/text.h"
#include "helpers.h"

Test(text, put_uint_matches_printf)
{
    const uint64_t values[] = { 0, 7, 10, 99, 100, 1234567, 9999999, 10000000, 4294967296ULL,
                                18446744073709551615ULL };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char got[48], want[48];
        got[fp__put_uint(got, values[i])] = '\0';
        snprintf(want, sizeof want, "%llu", (unsigned long long)values[i]);
        cr_expect_str_eq(got, want);
        /* "C%07lld" cable ids: padded to 7, longer numbers kept whole. */
        got[fp__put_uint_w(got, values[i], 7)] = '\0';
        snprintf(want, sizeof want, "%07llu", (unsigned long long)values[i]);
        cr_expect_str_eq(got, want);
    }
    char got[24];
    got[fp__put_int(got, -42)] = '\0';
    cr_expect_str_eq(got, "-42");
    got[fp__put_int(got, INT64_MIN)] = '\0';
    cr_expect_str_eq(got, "-9223372036854775808");
}

/* Route lengths are rounded to hundredths before printing; the hand path must agree with
 * "%.2f" on those and fall back to it on anything else (negative zero, unrounded, huge). */
Test(text, fixed2_matches_printf)
{
    for (int k = 0; k < 200000; k += 7) {
        double v = round((double)k * 1.01) / 100;
        char got[40], want[40];
        got[fp__put_fixed2(got, v)] = '\0';
        snprintf(want, sizeof want, "%.2f", v);
        cr_assert_str_eq(got, want, "value %.17g", v);
    }
    const double odd[] = { -0.0, -1.5, 0.125, 0.005, 2.675, 1e13, 123.456789 };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        char got[40], want[40];
        got[fp__put_fixed2(got, odd[i])] = '\0';
        snprintf(want, sizeof want, "%.2f", odd[i]);
        cr_expect_str_eq(got, want, "value %.17g", odd[i]);
    }
}

Test(text, copy_str_truncates_like_snprintf)
{
    char got[6], want[6];
    size_t n = fp__copy_str(got, sizeof got, "abcdefgh");
    int w = snprintf(want, sizeof want, "%s", "abcdefgh");
    cr_expect_str_eq(got, want);
    cr_expect_eq(n, (size_t)w);
    cr_expect_eq(fp__copy_str(got, sizeof got, "ab"), 2);
    cr_expect_str_eq(got, "ab");
}

Test(text, memo_reformats_only_on_change)
{
    fp_num_memo m = { 0 };
    size_t len;
    cr_expect_str_eq(fp__memo_format(&m, "%g", 3.0, &len), "3");
    cr_expect_eq(len, 1);
    cr_expect_str_eq(fp__memo_format(&m, "%g", 3.0, NULL), "3");
    cr_expect_str_eq(fp__memo_format(&m, "%g", 2.5, &len), "2.5");
    cr_expect_eq(len, 3);
}

/* Rows written through fp_outbuf, larger than its buffer in total and in one piece, come out
 * whole and in order; fields with commas or quotes are quoted as RFC 4180 says. */
Test(text, outbuf_writes_everything)
{
    char *mem = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&mem, &size);
    cr_assert(f != NULL);
    static fp_outbuf ob;
    static char big[100000];
    memset(big, 'x', sizeof big - 1);
    fp__outbuf_init(&ob, f);
    for (int i = 0; i < 20000; i++) {
        fp__outbuf_int(&ob, i);
        fp__outbuf_char(&ob, '\n');
    }
    fp__outbuf_str(&ob, big);
    fp__outbuf_csv(&ob, "a,\"b\"");
    fp__outbuf_flush(&ob);
    fclose(f);
    /* 20000 numbers: 10 of 1 digit, 90 of 2, 900 of 3, 9000 of 4, 10000 of 5, each + '\n'. */
    size_t numbers = 10 * 2 + 90 * 3 + 900 * 4 + 9000 * 5 + 10000 * 6;
    cr_expect_eq(size, numbers + (sizeof big - 1) + strlen("\"a,\"\"b\"\"\""));
    cr_expect(strncmp(mem, "0\n1\n2\n", 6) == 0);
    cr_expect_str_eq(mem + numbers + sizeof big - 1, "\"a,\"\"b\"\"\"");
    free(mem);
}

/* Ratios as architects write them: the fraction with the smallest denominator, reduced.
 * 2 = 2/1; 1.5 = 3/2; 16/15 has no smaller denominator (16 and 15 share no factor); 0.5 = 1/2;
 * 33 x 400 : 31 x 400 = 33:31 (400 cancels); 64 and 1/64 are the spec's bounds. 1.06667 is a
 * rounded decimal: 1.06667 x q is whole for no q up to 256 (it is 106,667 / 100,000, already
 * reduced), so it stays a decimal. */
Test(text, ratio_text_is_a_reduced_fraction)
{
    char b[32];
    cr_expect_str_eq(fp_ratio_text(2.0, b, sizeof b), "2:1");
    cr_expect_str_eq(fp_ratio_text(1.0, b, sizeof b), "1:1");
    cr_expect_str_eq(fp_ratio_text(1.5, b, sizeof b), "3:2");
    cr_expect_str_eq(fp_ratio_text(16.0 / 15.0, b, sizeof b), "16:15");
    cr_expect_str_eq(fp_ratio_text(0.5, b, sizeof b), "1:2");
    cr_expect_str_eq(fp_ratio_text(33.0 * 400 / (31.0 * 400), b, sizeof b), "33:31");
    cr_expect_str_eq(fp_ratio_text(64.0, b, sizeof b), "64:1");
    cr_expect_str_eq(fp_ratio_text(1.0 / 64, b, sizeof b), "1:64");
    /* a decimal keeps four significant digits: 1.06667 -> 1.067 */
    cr_expect_str_eq(fp_ratio_text(1.06667, b, sizeof b), "1.067:1");
    /* a denominator past 256 reads better as a decimal: 3125 / 3126 = 0.999680..., 0.9997 to
     * four digits; issue 27's "leaf 0.996492:1" (6 digits) reads 0.9965 */
    cr_expect_str_eq(fp_ratio_text(3125.0 / 3126.0, b, sizeof b), "0.9997:1");
    cr_expect_str_eq(fp_ratio_text(0.996492, b, sizeof b), "0.9965:1");
    cr_expect_str_eq(fp_ratio_text(255.0 / 256.0, b, sizeof b), "255:256");
    /* no ratio (a top tier's 0) is printed as the number it is, never a crash */
    cr_expect_str_eq(fp_ratio_text(0.0, b, sizeof b), "0:1");
    /* a short buffer truncates like snprintf */
    char s[4];
    cr_expect_str_eq(fp_ratio_text(16.0 / 15.0, s, sizeof s), "16:");
}

/* The one CSV cell writer (RFC 4180 quoting, OWASP formula rule). Expected texts written out by
 * hand: plain text as it is; a comma or quote quoted with quotes doubled; = + - @ TAB CR first
 * gets an apostrophe inside quotes; numbers (signed, decimal, exponent) stay numbers. */
Test(text, csv_cell_quotes_and_neutralises_formulas)
{
    static const char *const cases[][2] = {
        { "su01-leaf-r1", "su01-leaf-r1" },
        { "a,b", "\"a,b\"" },
        { "say \"hi\"", "\"say \"\"hi\"\"\"" },
        { "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"" },
        { "+cmd", "\"'+cmd\"" },
        { "-1+2", "\"'-1+2\"" },
        { "@SUM(A1)", "\"'@SUM(A1)\"" },
        { "\tx", "\"'\tx\"" },
        { "\rx", "\"'\rx\"" },
        { "-12", "-12" },
        { "+1.5e3", "+1.5e3" },
        { "-0.25", "-0.25" },
        { "-", "\"'-\"" },
        { "-e5", "\"'-e5\"" },
        { "", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *mem = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&mem, &size);
        cr_assert(f != NULL);
        fp_csv_field(f, cases[i][0]);
        fclose(f);
        cr_expect_str_eq(mem, cases[i][1], "cell %zu", i);
        free(mem);
    }
}

/* The separator every reader's figure takes: a comma before each three integer digits, the
 * sign and the decimals untouched, exact for integers beyond 2^53. */
Test(text, grouped_puts_a_comma_every_three_digits)
{
    char b[64];
    cr_expect_str_eq(fp__grouped_int(b, sizeof b, 0), "0");
    cr_expect_str_eq(fp__grouped_int(b, sizeof b, 999), "999");
    cr_expect_str_eq(fp__grouped_int(b, sizeof b, 1000), "1,000");
    cr_expect_str_eq(fp__grouped_int(b, sizeof b, 16384), "16,384");
    cr_expect_str_eq(fp__grouped_int(b, sizeof b, -1234567), "-1,234,567");
    cr_expect_str_eq(fp__grouped_int(b, sizeof b, INT64_MAX), "9,223,372,036,854,775,807");
    cr_expect_str_eq(fp_grouped_text(5529600.4, 2, b, sizeof b), "5,529,600.40");
    cr_expect_str_eq(fp_grouped_text(114600485.4, 0, b, sizeof b), "114,600,485");
    cr_expect_str_eq(fp_grouped_text(-999.5, 0, b, sizeof b), "-1,000");
    cr_expect_str_eq(fp_grouped_text(2420.84, 1, b, sizeof b), "2,420.8");
    /* Decimals outside 0..20 are the nearest of those, not printf's default of six. */
    cr_expect_str_eq(fp_grouped_text(1234.6, -3, b, sizeof b), "1,235");
    cr_expect_str_eq(fp_grouped_text(0.5, 25, b, sizeof b), "0.50000000000000000000");
    /* A short buffer holds a terminated prefix; one just large enough holds it all. */
    cr_expect_str_eq(fp_grouped_text(123456.0, 0, b, 4), "123");
    cr_expect_str_eq(fp_grouped_text(123456.0, 0, b, 5), "123");
    cr_expect_str_eq(fp_grouped_text(123456.0, 0, b, 8), "123,456");
}
