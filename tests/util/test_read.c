/* The one bounded reader (fp_read_file), the JSON rules every document shares (fp_json_check)
 * and the public CSV record splitter (fp_csv_record): include/fabplan/read.h. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fabplan.h"
#include "util/util.h"
#include "helpers.h"

TestSuite(read, .init = enter_scratch_dir);

/* The documented limits (docs/robustness.md "Sizes of the files read"): 64 MiB = 64 x 2^20
 * bytes for a spec and an overrides file, 16 MiB for a catalog, 4 GiB = 4 x 2^30 for a plan
 * folder's files and a discovered fabric. */
Test(read, limits_per_kind)
{
    cr_expect_eq(fp_file_limit(FP_FILE_SPEC), (size_t)64 * 1048576);
    cr_expect_eq(fp_file_limit(FP_FILE_OVERRIDES), (size_t)64 * 1048576);
    cr_expect_eq(fp_file_limit(FP_FILE_CATALOG), (size_t)16 * 1048576);
    cr_expect_eq(fp_file_limit(FP_FILE_PLAN), (size_t)4 * 1073741824);
    cr_expect_eq(fp_file_limit(FP_FILE_DISCOVERY), (size_t)4 * 1073741824);
    cr_expect_eq(fp_file_limit(FP_FILE_N_KINDS), 0);
    cr_expect_eq(fp_file_limit((fp_file_kind)-1), 0);
}

/* A regular file one byte over the limit fails before anything is read (a sparse file of
 * 64 MiB + 1 bytes: reading it would take 64 MiB); a file at the limit reads whole. */
Test(read, regular_file_over_the_limit)
{
    char *text = (char *)1;
    size_t len = 7;
    fp_error err = { 0 };
    int fd = open("big.json", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    cr_assert_eq(ftruncate(fd, (off_t)64 * 1048576 + 1), 0);
    close(fd);
    cr_expect_eq(fp_read_file("big.json", FP_FILE_SPEC, &text, &len, &err), FP_EINVAL);
    cr_expect_null(text);
    cr_expect(strstr(err.msg, "big.json is larger than 64 MiB (67108865 bytes), the limit of a spec") != NULL,
              "%s", err.msg);
    cr_expect_str_eq(err.where, "big.json");
    /* the same file is within an overrides file's limit? no: 64 MiB too; a plan file's: yes */
    fp_error_clear(&err);
    cr_expect_eq(fp_read_file("big.json", FP_FILE_PLAN, &text, &len, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(len, (size_t)64 * 1048576 + 1);
    cr_expect_eq(text[len], '\0');
    fp_free(text);
    unlink("big.json");
    /* exactly at a (lowered) limit reads; one byte more fails */
    fp__file_limit_test[FP_FILE_CATALOG] = 10;
    put_file("ten.json", "0123456789");
    fp_error_clear(&err);
    cr_expect_eq(fp_read_file("ten.json", FP_FILE_CATALOG, &text, &len, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(len, 10);
    cr_expect_str_eq(text, "0123456789");
    fp_free(text);
    put_file("eleven.json", "0123456789a");
    fp_error_clear(&err);
    cr_expect_eq(fp_read_file("eleven.json", FP_FILE_CATALOG, &text, &len, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "larger than 10 bytes (11 bytes), the limit of a catalog") != NULL, "%s", err.msg);
    fp__file_limit_test[FP_FILE_CATALOG] = 0;
}

/* A stream stops one byte past the limit, or at the first read that brings a NUL byte: /dev/zero
 * as a spec (was read until the OOM killer came, 23 GB) stops at once, its NUL left to the
 * reader to refuse (as a discovery it was read to 4 GiB first, 4 GiB of memory); a stream
 * without a NUL fails past the limit; a plan folder's file must be a regular file, so
 * /dev/zero as cables.csv fails before reading. */
Test(read, stream_over_the_limit)
{
    char *text = NULL;
    fp_error err = { 0 };
    size_t len = 0;
    static const fp_file_kind kinds[] = { FP_FILE_SPEC, FP_FILE_DISCOVERY };
    for (size_t k = 0; k < 2; k++) {
        cr_expect_eq(fp_read_file("/dev/zero", kinds[k], &text, &len, &err), FP_OK, "%s", err.msg);
        cr_expect(text != NULL && len > 0 && len <= 65536 && text[0] == '\0', "%zu bytes", len);
        fp_free(text);
        text = NULL;
    }
    fp__file_limit_test[FP_FILE_DISCOVERY] = 4096;
    int q[2];
    char a[8192];
    memset(a, 'a', sizeof a);
    cr_assert_eq(pipe(q), 0);
    cr_assert_eq(write(q[1], a, sizeof a), (ssize_t)sizeof a);
    close(q[1]);
    char qdev[64];
    snprintf(qdev, sizeof qdev, "/dev/fd/%d", q[0]);
    cr_expect_eq(fp_read_file(qdev, FP_FILE_DISCOVERY, &text, NULL, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "larger than 4096 bytes, the limit of a discovered fabric") != NULL, "%s", err.msg);
    close(q[0]);
    fp__file_limit_test[FP_FILE_DISCOVERY] = 0;
    fp_error_clear(&err);
    cr_expect_eq(fp_read_file("/dev/zero", FP_FILE_PLAN, &text, NULL, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "/dev/zero is a device; expected a file of a plan folder") != NULL, "%s", err.msg);
    /* a pipe is fine for a spec (a shell's <(...)) */
    int p[2];
    cr_assert_eq(pipe(p), 0);
    cr_assert_eq(write(p[1], "{}", 2), 2);
    close(p[1]);
    char dev[64];
    snprintf(dev, sizeof dev, "/dev/fd/%d", p[0]);
    fp_error_clear(&err);
    cr_expect_eq(fp_read_file(dev, FP_FILE_SPEC, &text, &len, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(len, 2);
    fp_free(text);
    close(p[0]);
}

Test(read, bad_arguments_and_missing_files)
{
    char *text = (char *)1;
    fp_error err = { 0 };
    cr_expect_eq(fp_read_file(NULL, FP_FILE_SPEC, &text, NULL, &err), FP_EINVAL);
    cr_expect_null(text);
    cr_expect_eq(fp_read_file("x", FP_FILE_SPEC, NULL, NULL, NULL), FP_EINVAL);
    cr_expect_eq(fp_read_file("x", FP_FILE_N_KINDS, &text, NULL, NULL), FP_EINVAL);
    cr_expect_eq(fp_read_file("x", (fp_file_kind)-5, &text, NULL, NULL), FP_EINVAL);
    fp_error_clear(&err);
    cr_expect_eq(fp_read_file("no-such-file.json", FP_FILE_SPEC, &text, NULL, &err), FP_EIO);
    cr_expect(strstr(err.msg, "cannot open no-such-file.json: No such file or directory") != NULL, "%s", err.msg);
    cr_assert_eq(mkdir("adir", 0755), 0);
    fp_error_clear(&err);
    cr_expect_eq(fp_read_file("adir", FP_FILE_CATALOG, &text, NULL, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "adir is a folder; expected a catalog") != NULL, "%s", err.msg);
}

static fp_status check(const char *json, int quote, fp_error *err)
{
    fp_error_clear(err);
    return fp_json_check(json, strlen(json), "doc.json", quote, err);
}

/* Each key once in every object at any depth, small objects (pairwise) and large (sorted);
 * the error names the key and its JSON pointer. */
Test(read, json_duplicate_keys)
{
    fp_error err;
    cr_expect_eq(check("{\"a\":1,\"b\":{\"c\":[1,{\"d\":2,\"e\":3}]}}", 1, &err), FP_OK, "%s", err.msg);
    cr_expect_eq(check("{\"a\":1,\"a\":2}", 1, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "doc.json: /a: key \"a\" appears more than once") != NULL, "%s", err.msg);
    cr_expect_str_eq(err.where, "/a");
    cr_expect_eq(check("{\"b\":{\"c\":[0,{\"d\":2,\"x/y\":3,\"x/y\":4}]}}", 1, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "/b/c/1/x~1y: key \"x/y\" appears more than once") != NULL, "%s", err.msg);
    /* 40 keys k0..k39 and k17 again: the sorted path */
    char big[1024];
    size_t k = (size_t)snprintf(big, sizeof big, "{\"o\":{");
    for (int i = 0; i < 40; i++)
        k += (size_t)snprintf(big + k, sizeof big - k, "\"k%d\":%d,", i, i);
    snprintf(big + k, sizeof big - k, "\"k17\":0}}");
    cr_expect_eq(check(big, 1, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "/o/k17: key \"k17\" appears more than once") != NULL, "%s", err.msg);
    big[k - 1] = '}';   /* drop the repeat: 40 distinct keys */
    big[k] = '}';
    big[k + 1] = '\0';
    cr_expect_eq(check(big, 1, &err), FP_OK, "%s: %s", big, err.msg);
    /* a key with a terminal escape is named with '?' for the control character */
    cr_expect_eq(check("{\"k\\u001b[2J\":1,\"k\\u001b[2J\":2}", 0, &err), FP_EINVAL);
    cr_expect(strstr(err.msg, "/k?[2J: key \"k?[2J\" appears more than once") != NULL, "%s", err.msg);
}

/* 64 levels of arrays and objects read, 65 do not (cJSON's own limit is 1000 and its error
 * says only "syntax error"); brackets inside strings do not count. */
Test(read, json_depth)
{
    char doc[512];
    fp_error err;
    size_t k = 0;
    /* {"a":[{"a":[ ... : 64 openers, objects at even levels */
    for (int i = 0; i < FP_JSON_MAX_DEPTH; i++)
        k += (size_t)sprintf(doc + k, "%s", i % 2 ? "[" : "{\"a\":");
    /* the innermost (64th) level is an array: close in reverse */
    char closed[1024];
    snprintf(closed, sizeof closed, "%s\"[[[{{{\"", doc);
    size_t c = strlen(closed);
    for (int i = FP_JSON_MAX_DEPTH - 1; i >= 0; i--)
        closed[c++] = i % 2 ? ']' : '}';
    closed[c] = '\0';
    cr_expect_eq(check(closed, 1, &err), FP_OK, "%s: %s", closed, err.msg);
    snprintf(closed, sizeof closed, "%s{}", doc);
    c = strlen(closed);
    for (int i = FP_JSON_MAX_DEPTH - 1; i >= 0; i--)
        closed[c++] = i % 2 ? ']' : '}';
    closed[c] = '\0';
    cr_expect_eq(check(closed, 1, &err), FP_EPARSE);
    cr_expect(strstr(err.msg, "nested more than 64 deep; expected at most 64 levels") != NULL, "%s", err.msg);
    /* the 65th opener is on line 1 at column strlen(doc) + 1 */
    cr_expect_eq(err.line, 1);
    cr_expect_eq(err.column, (int)strlen(doc) + 1);
}

/* The text near a syntax error is quoted, control characters as '?', and not at all with
 * quote 0; \u0000 is refused. */
Test(read, json_syntax_quoting_and_nul)
{
    fp_error err;
    cr_expect_eq(check("root:x:0:0:\x1b[31mred", 1, &err), FP_EPARSE);
    cr_expect(strstr(err.msg, "doc.json:1:1: JSON syntax error near 'root:x:0:0:?[31m'") != NULL,
              "%s", err.msg);
    cr_expect_eq(check("root:x:0:0:secret", 0, &err), FP_EPARSE);
    cr_expect(strstr(err.msg, "root") == NULL, "%s", err.msg);
    cr_expect(strstr(err.msg, "doc.json:1:1: JSON syntax error; expected a JSON document") != NULL, "%s", err.msg);
    cr_expect_eq(check("{\"a\":\"b\\u0000c\"}", 1, &err), FP_EPARSE);
    cr_expect(strstr(err.msg, "\\u0000") != NULL, "%s", err.msg);
    cr_expect_eq(fp_json_check(NULL, 0, "x", 1, NULL), FP_EINVAL);
    cr_expect_eq(fp_json_check("{}", 2, NULL, 1, NULL), FP_EINVAL);
}

/* RFC 4180 records: quotes, doubled quotes, an embedded line break, CRLF and LF endings. */
Test(read, csv_record)
{
    char text[] = "a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,x\nlast";
    char *p = text, *f[4];
    cr_assert_eq(fp_csv_record(&p, f, 4), 3);
    cr_expect_str_eq(f[0], "a");
    cr_expect_str_eq(f[1], "b,c");
    cr_expect_str_eq(f[2], "say \"hi\"");
    cr_assert_eq(fp_csv_record(&p, f, 2), 3);   /* three fields, two stored */
    cr_expect_str_eq(f[0], "two\nlines");
    cr_expect_str_eq(f[1], "");
    cr_assert_eq(fp_csv_record(&p, f, 4), 1);
    cr_expect_str_eq(f[0], "last");
    cr_expect_eq(fp_csv_record(&p, f, 4), 0);
    cr_expect_eq(fp_csv_record(NULL, f, 4), 0);
    char *np = NULL;
    cr_expect_eq(fp_csv_record(&np, f, 4), 0);
    cr_expect_eq(fp_csv_record(&p, NULL, 4), 0);
}
