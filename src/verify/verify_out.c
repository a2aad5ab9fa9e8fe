/* fabplan — verify's outputs: verify.csv (one row per planned link, then one per discovered link
 * the plan lacks, each with the fix for the crew) and verify-summary.json (counts per status,
 * per rack and per boundary), published all or nothing. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "verify/verify.h"
#include "util/text.h"
#include "fabplan/write.h"
#include "fabplan/publish.h"

/* "H1-R01-K05-U42" of an end (as the plan's labels write a location). */
static const char *loc_text(char *buf, size_t n, const char *const loc[4])
{
    if (loc == NULL || loc[0] == NULL || loc[0][0] == '\0') {
        fp__copy_str(buf, n, "?");
        return buf;
    }
    snprintf(buf, n, "H%s-R%02d-K%02d-U%02d", loc[0], atoi(loc[1]), atoi(loc[2]), atoi(loc[3]));
    return buf;
}

/* Where device dev is (a planned end on it), NULL when the plan lacks it. */
static const char *const *dev_loc(const fp_verify *v, const char *dev)
{
    int64_t d = dev ? fp__vf_map_get(&v->dev_loc, dev, "") : -1;
    if (d < 0)
        return NULL;
    const fp_vf_plink *p = &v->plink[d >> 1];
    return (d & 1) ? p->z.loc : p->a.loc;
}

/* The found end k of discovered link l: the plan's device, else the name the fabric gives. */
static const char *found_dev(const fp_verify *v, const fp_vf_dlink *l, int k)
{
    return l->device[k] ? l->device[k] : v->disc.node[l->node[k]].desc;
}

static int same_end(const fp_vf_dlink *l, int k, const char *dev, const char *port)
{
    return l->device[k] != NULL && strcmp(l->device[k], dev) == 0 && strcmp(l->pname[k], port) == 0;
}

/* The planned rate: "4xNDR (400 Gb/s)" for InfiniBand, "400 Gb/s" for Ethernet (LLDP). */
static void planned_rate(char *buf, size_t n, const fp_vf_plink *p, int lldp)
{
    char r[16];
    if (lldp)
        snprintf(buf, n, "%d Gb/s", p->gbps);
    else
        snprintf(buf, n, "%s (%d Gb/s)", fp__ib_link_text(p->gbps, r, sizeof r), p->gbps);
}

/* Where the crew works on row r: the planned end to put right (the A end of a missing or slow
 * link), or for a link the plan lacks the end on a device of the plan. */
void fp__vf_work_end(const fp_verify *v, const fp_vf_row *r, fp_vf_end *out)
{
    static const char *const none[4] = { "", "", "", "" };
    const fp_vf_plink *p = r->plink >= 0 ? &v->plink[r->plink] : NULL;
    const fp_vf_dlink *l = r->dlink >= 0 ? &v->disc.link[r->dlink] : NULL;
    if (p != NULL) {
        *out = l != NULL && r->status != FP_VERIFY_DEGRADED &&
               same_end(l, r->flip, p->a.device, p->a.port) ? p->z : p->a;
        return;
    }
    int k = l->device[r->flip] != NULL ? r->flip : 1 - r->flip;
    const char *const *loc = dev_loc(v, l->device[k]);
    for (int c = 0; c < 4; c++)
        out->loc[c] = loc ? loc[c] : none[c];
    out->device = found_dev(v, l, k);
    out->port = l->pname[k];
}

/* The one imperative line for the crew. */
void fp__vf_fix_text(char *buf, size_t n, const fp_verify *v, const fp_vf_row *r)
{
    char l1[64], l2[64], pr[48];
    const fp_vf_plink *p = r->plink >= 0 ? &v->plink[r->plink] : NULL;
    const fp_vf_dlink *l = r->dlink >= 0 ? &v->disc.link[r->dlink] : NULL;
    int fa = r->flip, fz = 1 - r->flip;
    buf[0] = '\0';
    switch (r->status) {
    case FP_VERIFY_OK:
    case FP_VERIFY_NOT_YET:
        return;
    case FP_VERIFY_MISSING:
        snprintf(buf, n, "connect %s %s (%s) to %s %s (%s) with cable %s", p->a.device, p->a.port,
                 loc_text(l1, sizeof l1, p->a.loc), p->z.device, p->z.port,
                 loc_text(l2, sizeof l2, p->z.loc), p->cable);
        return;
    case FP_VERIFY_DEGRADED:
        planned_rate(pr, sizeof pr, p, l->lldp);
        snprintf(buf, n, "check cable %s and its transceivers (reseat, clean, replace): seen at "
                 "%s, planned %s", p->cable, l->rate[0] ? l->rate : "?", pr);
        return;
    case FP_VERIFY_SWAPPED:
    case FP_VERIFY_WRONG_PORT:
    case FP_VERIFY_WRONG_DEVICE:
    case FP_VERIFY_UNKNOWN_DEVICE:
        break;
    case FP_VERIFY_UNEXPECTED:
        snprintf(buf, n, "remove the cable from %s %s (%s) to %s %s (%s): not in the plan",
                 found_dev(v, l, fa), l->pname[fa], loc_text(l1, sizeof l1, dev_loc(v, l->device[fa])),
                 found_dev(v, l, fz), l->pname[fz], loc_text(l2, sizeof l2, dev_loc(v, l->device[fz])));
        return;
    default:
        return;
    }
    if (p == NULL) {            /* an unplanned link to a node the plan does not have */
        int k = l->device[fa] == NULL ? fa : fz, o = 1 - k;
        snprintf(buf, n, "\"%s\" is not in the plan: remove its cable from %s %s (%s), or correct "
                 "its %s", found_dev(v, l, k), found_dev(v, l, o), l->pname[o],
                 loc_text(l1, sizeof l1, dev_loc(v, l->device[o])),
                 l->lldp ? "system name" : "node description");
        return;
    }
    /* which planned end is wrong: the one where the found device or port differs */
    int z_wrong = same_end(l, fa, p->a.device, p->a.port);
    const fp_vf_end *want = z_wrong ? &p->z : &p->a;
    int k = z_wrong ? fz : fa;
    const char *end = z_wrong ? "Z" : "A";
    char other[64] = "";
    if (r->status == FP_VERIFY_SWAPPED)
        snprintf(other, sizeof other, "swapped with %s: ", v->plink[r->peer].cable);
    if (r->status == FP_VERIFY_WRONG_PORT)
        snprintf(buf, n, "move the %s end from %s to %s on %s, rack %s", end, l->pname[k],
                 want->port, want->device, loc_text(l1, sizeof l1, want->loc));
    else if (r->status == FP_VERIFY_UNKNOWN_DEVICE)
        snprintf(buf, n, "the %s end is on \"%s\", which the plan does not have: move it to %s %s, "
                 "rack %s", end, found_dev(v, l, k), want->device, want->port,
                 loc_text(l1, sizeof l1, want->loc));
    else
        snprintf(buf, n, "%smove the %s end from %s %s to %s %s, rack %s", other, end,
                 found_dev(v, l, k), l->pname[k], want->device, want->port,
                 loc_text(l1, sizeof l1, want->loc));
}

static void put_fields(fp_outbuf *f, const char *const *fields, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            fp__outbuf_char(f, ',');
        fp__outbuf_csv(f, fields[i] ? fields[i] : "");
    }
}

fp_status fp__vf_write_csv(const fp_verify *v, const char *path, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc = fp__outbuf_open(&f, path,
                                   "cable_id,status,a_hall,a_row,a_rack,a_u,a_device,a_port,"
                                   "z_hall,z_row,z_rack,z_u,z_device,z_port,found_a_device,"
                                   "found_a_port,found_z_device,found_z_port,found_link,label_a,"
                                   "label_z,fix,note\n", err);
    if (rc != FP_OK)
        return rc;
    static const char *const none[4] = { "", "", "", "" };
    for (int64_t i = 0; i < v->n_row; i++) {
        const fp_vf_row *r = &v->row[i];
        const fp_vf_plink *p = r->plink >= 0 ? &v->plink[r->plink] : NULL;
        const fp_vf_dlink *l = r->dlink >= 0 ? &v->disc.link[r->dlink] : NULL;
        const char *const *al = p ? p->a.loc : none, *const *zl = p ? p->z.loc : none;
        int fa = r->flip, fz = 1 - r->flip;
        char fix[768];
        fp__vf_fix_text(fix, sizeof fix, v, r);
        const char *row[] = {
            p ? p->cable : "", fp_verify_status_name(r->status),
            al[0], al[1], al[2], al[3], p ? p->a.device : "", p ? p->a.port : "",
            zl[0], zl[1], zl[2], zl[3], p ? p->z.device : "", p ? p->z.port : "",
            l ? found_dev(v, l, fa) : "", l ? l->pname[fa] : "",
            l ? found_dev(v, l, fz) : "", l ? l->pname[fz] : "", l ? l->rate : "",
            p ? p->label_a : "", p ? p->label_z : "", fix, l && l->note ? l->note : "",
        };
        put_fields(f, row, (int)(sizeof row / sizeof row[0]));
        fp__outbuf_char(f, '\n');
    }
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* ---- verify-summary.json ---- */

typedef struct rack_count {
    int hall, row, rack;
    size_t count[FP_VERIFY_N_STATUS];
} rack_count;

static int cmp_rack(const void *x, const void *y)
{
    const rack_count *a = x, *b = y;
    if (a->hall != b->hall)
        return a->hall < b->hall ? -1 : 1;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return (a->rack > b->rack) - (a->rack < b->rack);
}

static cJSON *counts(const size_t c[FP_VERIFY_N_STATUS], int all)
{
    cJSON *o = cJSON_CreateObject();
    for (int s = 0; s < FP_VERIFY_N_STATUS; s++)
        if (all || c[s])
            cJSON_AddNumberToObject(o, fp_verify_status_name((fp_verify_status)s), (double)c[s]);
    return o;
}

/* The racks a row touches: each end's, once (the planned ends; else the found ends the plan
 * places). */
static int row_racks(const fp_verify *v, const fp_vf_row *r, const char *const *out[2])
{
    int n = 0;
    const char *const *loc[2] = { NULL, NULL };
    if (r->plink >= 0) {
        loc[0] = v->plink[r->plink].a.loc;
        loc[1] = v->plink[r->plink].z.loc;
    } else {
        const fp_vf_dlink *l = &v->disc.link[r->dlink];
        loc[0] = dev_loc(v, l->device[0]);
        loc[1] = dev_loc(v, l->device[1]);
    }
    for (int k = 0; k < 2; k++) {
        if (loc[k] == NULL || loc[k][0][0] == '\0')
            continue;
        if (n == 1 && strcmp(out[0][0], loc[k][0]) == 0 && strcmp(out[0][1], loc[k][1]) == 0 &&
            strcmp(out[0][2], loc[k][2]) == 0)
            continue;
        out[n++] = loc[k];
    }
    return n;
}

/* "hall/row/rack", the key of a rack, into buf of n bytes (cut short as snprintf cuts). */
static void rack_key(char *buf, size_t n, const char *const *loc)
{
    size_t at = 0;
    for (int c = 0; c < 3; c++) {
        if (c > 0 && at + 1 < n)
            buf[at++] = '/';
        for (const char *s = loc[c]; *s && at + 1 < n; s++)
            buf[at++] = *s;
    }
    buf[at] = '\0';
}

static int same_rack(const char *const *a, const char *const *b)
{
    for (int c = 0; c < 3; c++)
        if (a[c] != b[c] && strcmp(a[c], b[c]) != 0)
            return 0;
    return 1;
}

fp_status fp__vf_write_summary(const fp_verify *v, const char *path, fp_error *err)
{
    rack_count *rc_ = calloc((size_t)v->n_row * 2 + 1, sizeof *rc_);
    char (*key)[48] = calloc((size_t)v->n_row * 2 + 1, sizeof *key);
    fp_vf_map racks = { 0 }, bnd = { 0 };
    size_t (*bc)[FP_VERIFY_N_STATUS] = calloc((size_t)v->n_row + 1, sizeof *bc);
    const char **bname = calloc((size_t)v->n_row + 1, sizeof *bname);
    int64_t n_rack = 0, n_bnd = 0, last[2] = { -1, -1 };
    const char *const *last_loc[2] = { NULL, NULL };
    cJSON *root = NULL;
    char *text = NULL;
    fp_status st = FP_OK;
    if (rc_ == NULL || key == NULL || bc == NULL || bname == NULL ||
        fp__vf_map_init(&racks, 1024) != FP_OK || fp__vf_map_init(&bnd, 16) != FP_OK) {
        st = fp__error_set(err, FP_ENOMEM, path, "out of memory writing %s", path);
        goto out;
    }
    for (int64_t i = 0; i < v->n_row; i++) {
        const fp_vf_row *r = &v->row[i];
        const char *const *loc[2];
        int n = row_racks(v, r, loc);
        for (int k = 0; k < n; k++) {
            /* the rack of one of the last two ends looked up (a device's links are listed
             * together): no key to make */
            int64_t at = -1;
            for (int c = 0; c < 2 && at < 0; c++)
                if (last[c] >= 0 && same_rack(loc[k], last_loc[c]))
                    at = last[c];
            if (at < 0) {
                rack_key(key[n_rack], sizeof key[n_rack], loc[k]);
                at = fp__vf_map_put(&racks, key[n_rack], "", n_rack);
                if (at == -2) {
                    st = fp__error_set(err, FP_ENOMEM, path, "out of memory writing %s", path);
                    goto out;
                }
                if (at == n_rack) {
                    rc_[at].hall = atoi(loc[k][0]);
                    rc_[at].row = atoi(loc[k][1]);
                    rc_[at].rack = atoi(loc[k][2]);
                    n_rack++;
                }
                last[1] = last[0];
                last_loc[1] = last_loc[0];
                last[0] = at;
                last_loc[0] = loc[k];
            }
            rc_[at].count[r->status]++;
        }
        const char *b = r->plink >= 0 ? v->plink[r->plink].boundary : "";
        if (b[0]) {
            int64_t at = fp__vf_map_put(&bnd, b, "", n_bnd);
            if (at == -2) {
                st = fp__error_set(err, FP_ENOMEM, path, "out of memory writing %s", path);
                goto out;
            }
            if (at == n_bnd)
                bname[n_bnd++] = b;
            bc[at][r->status]++;
        }
    }
    qsort(rc_, (size_t)n_rack, sizeof *rc_, cmp_rack);
    root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "discovery", v->discovery);
    const char *ibf = v->disc.ports_form ? "ibnetdiscover -p" : "ibnetdiscover";
    char form[64];
    snprintf(form, sizeof form, "%s%s%s", v->disc.has_ib ? ibf : "",
             v->disc.has_ib && v->disc.has_lldp ? " + " : "", v->disc.has_lldp ? "lldp" : "");
    cJSON_AddStringToObject(root, "form", form);
    cJSON_AddBoolToObject(root, "speed_compared", !v->ignore_speed);
    cJSON_AddNumberToObject(root, "planned_links", (double)v->n_plink);
    cJSON_AddNumberToObject(root, "discovered_links", (double)v->disc.n_link);
    cJSON_AddNumberToObject(root, "rows", (double)v->n_row);
    /* what this discovery does not check: no rows, counted here */
    cJSON *nc = cJSON_AddObjectToObject(root, "not_checked");
    cJSON_AddNumberToObject(nc, "planned_links",
                            (double)(v->not_checked[VF_OTHER_PROTOCOL] + v->not_checked[VF_OTHER_NETWORK]));
    cJSON_AddNumberToObject(nc, "other_protocol", (double)v->not_checked[VF_OTHER_PROTOCOL]);
    cJSON_AddNumberToObject(nc, "other_network", (double)v->not_checked[VF_OTHER_NETWORK]);
    cJSON_AddNumberToObject(nc, "discovered_links", (double)v->not_checked_found);
    cJSON_AddStringToObject(root, "networks", v->networks[0] ? v->networks : "all");
    if (v->disc.has_lldp)
        cJSON_AddNumberToObject(root, "lldp_ends_disagree", (double)v->disc.n_disagree);
    cJSON_AddBoolToObject(root, "differences", fp_verify_differs(v));
    cJSON_AddItemToObject(root, "status", counts(v->count, 1));
    cJSON *by = cJSON_AddArrayToObject(root, "by_rack");
    for (int64_t i = 0; i < n_rack; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "hall", rc_[i].hall);
        cJSON_AddNumberToObject(o, "row", rc_[i].row);
        cJSON_AddNumberToObject(o, "rack", rc_[i].rack);
        cJSON_AddItemToObject(o, "status", counts(rc_[i].count, 0));
        cJSON_AddItemToArray(by, o);
    }
    cJSON *bb = cJSON_AddObjectToObject(root, "by_boundary");
    for (int64_t i = 0; i < n_bnd; i++)
        cJSON_AddItemToObject(bb, bname[i], counts(bc[i], 0));
    text = cJSON_Print(root);
    if (text == NULL) {
        st = fp__error_set(err, FP_ENOMEM, path, "out of memory writing %s", path);
        goto out;
    }
    FILE *f = fp__create(path, err);
    if (f == NULL) {
        st = FP_EIO;
        goto out;
    }
    fputs(text, f);
    fputc('\n', f);
    st = fp__close_written(f, path, err);
out:
    cJSON_Delete(root);
    cJSON_free(text);
    fp__vf_map_free(&racks);
    fp__vf_map_free(&bnd);
    free(rc_);
    free(key);
    free(bc);
    free(bname);
    return st;
}

/* verify.csv, the largest file, written on a thread of its own while the summary and the
 * workbook are written on the caller's (each reads the result only). */
typedef struct csv_job {
    const fp_verify *v;
    char path[4600];
    fp_error err;
    fp_status rc;
} csv_job;

static void *csv_main(void *arg)
{
    csv_job *j = arg;
    j->rc = fp__vf_write_csv(j->v, j->path, &j->err);
    return NULL;
}

fp_status fp_verify_write(const fp_verify *v, const char *dir, fp_error *err)
{
    static const char *const names[3] = { "verify.csv", "verify-summary.json", "verify.xlsx" };
    fp_status (*const writers[3])(const fp_verify *, const char *, fp_error *) = {
        fp__vf_write_csv, fp__vf_write_summary, fp__vf_write_xlsx
    };
    fp_publish *pub;
    fp_status rc;
    if (v == NULL || dir == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_verify_write: NULL argument");
    csv_job *job = calloc(1, sizeof *job);
    if (job == NULL)
        FP_FAIL(err, FP_ENOMEM, dir, "out of memory writing into %s", dir);
    if ((rc = fp_publish_begin(dir, &pub, err)) != FP_OK) {
        free(job);
        return rc;
    }
    char path[3][4600];
    for (int i = 0; i < 3; i++)
        if ((rc = fp_publish_path(pub, names[i], path[i], sizeof path[i], err)) != FP_OK) {
            fp_publish_abort(pub);
            free(job);
            return rc;
        }
    job->v = v;
    job->rc = FP_OK;
    fp__copy_str(job->path, sizeof job->path, path[0]);
    pthread_t tid;
    int threaded = fp__thread_start(&tid, csv_main, job) == 0;
    if (!threaded)
        csv_main(job);
    for (int i = 1; i < 3 && rc == FP_OK; i++)
        rc = writers[i](v, path[i], err);
    if (threaded)
        pthread_join(tid, NULL);
    /* the first file's error first, as when written one after the other */
    if (job->rc != FP_OK) {
        rc = job->rc;
        if (err != NULL)
            *err = job->err;
    }
    free(job);
    if (rc != FP_OK) {
        fp_publish_abort(pub);
        return rc;
    }
    return fp_publish_commit(pub, err);
}
