/* Fuzz fabplan verify's readers: the first byte chooses what the rest of the input is, checked
 * against the hand-written plan folders of tests/verify/data (FUZZ_VERIFY_DATA):
 *   0  an ibnetdiscover output (either form) against data/plan
 *   1  lldpcli's JSON (one file, leaf1.json) against data/eth-plan
 *   2  a node-name map, with data/faults.topo against data/plan
 *   3  the plan's cables.csv (its ib-ports.csv beside it), with data/faults.topo
 * A refusal must be a clean error (a status and a message); a run that succeeds is written out
 * (verify.csv, verify-summary.json; the workbook when small) and freed. */
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz_common.h"

#define DATA FUZZ_VERIFY_DATA

static void put(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "cannot create %s", path);
    fwrite(data, 1, size, f);
    fclose(f);
}

/* The folder's files removed (it holds no sub-folder), then the folder. */
static void remove_tree(const char *dir)
{
    static const char *const names[] = { "verify.csv",  "verify-summary.json",
                                         "verify.xlsx", ".fabplan-manifest",
                                         "cables.csv",  "ib-ports.csv",
                                         "leaf1.json",  "input" };
    char p[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int mode = data[0] % 4;
    data++;
    size--;
    char dir[256], in[300], out[300];
    snprintf(dir, sizeof dir, "/tmp/fabplan-fuzz-verify-%ld", (long)getpid());
    remove_tree(dir);
    snprintf(out, sizeof out, "%s/out", dir);
    remove_tree(out);
    FUZZ_CHECK(mkdir(dir, 0700) == 0, "cannot create %s", dir);
    fp_verify_options o = FP_VERIFY_OPTIONS_INIT;
    o.plan_dir = DATA "/plan";
    if (mode == 0) {
        snprintf(in, sizeof in, "%s/input", dir);
        o.ibnetdiscover = in;
    } else if (mode == 1) {
        snprintf(in, sizeof in, "%s/leaf1.json", dir);
        o.plan_dir = DATA "/eth-plan";
        o.lldp = in;
    } else if (mode == 2) {
        snprintf(in, sizeof in, "%s/input", dir);
        o.ibnetdiscover = DATA "/faults.topo";
        o.node_name_map = in;
    } else {
        char ib[300];
        snprintf(in, sizeof in, "%s/cables.csv", dir);
        snprintf(ib, sizeof ib, "%s/ib-ports.csv", dir);
        FUZZ_CHECK(symlink(DATA "/plan/ib-ports.csv", ib) == 0, "cannot link %s", ib);
        o.plan_dir = dir;
        o.ibnetdiscover = DATA "/faults.topo";
    }
    put(in, data, size);
    fp_error err = { 0 };
    fp_verify *v = NULL;
    fp_status rc = fp_verify_run(&o, &v, &err);
    fuzz_check_error(rc, &err);
    FUZZ_CHECK((rc == FP_OK) == (v != NULL), "status %d with a result %p", rc, (void *)v);
    if (v != NULL) {
        fp_error werr = { 0 };
        fp_status wrc = fp_verify_write(v, out, &werr);
        fuzz_check_error(wrc, &werr);
        FUZZ_CHECK(wrc == FP_OK, "a verify run that succeeded cannot be written: %s", werr.msg);
        fp_verify_free(v);
    }
    remove_tree(out);
    remove_tree(dir);
    return 0;
}
