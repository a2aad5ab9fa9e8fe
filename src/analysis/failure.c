/* fabplan — failure what-ifs: take devices and links down on the plan's graph (the plan itself
 * is not changed), then measure the bisection again and find the endpoints cut off. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/graph.h"

static const char *const role_names[] = { NULL, "leaf", "spine", "core", "super-core" };

/* Appended to every bad-spec message, so whichever form was mistyped the user sees them all. */
static const char accepted_forms[] =
    "accepted forms: ROLE:N (leaf, spine, core, super-core), a device name from links.csv, "
    "link:L0000123, cable:C0000123 (cables.csv), random-links:N or P%, random-switches:N or P%, "
    "rack:H1-R08-K01, row:H1-R08, hall:2; with spec networks also a network device's name, "
    "link:<network>-L0000123 and its cables' ids";

/* A whole positive number (and nothing else) in s. */
static int parse_count(const char *s, int64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)s[0]))
        return 0;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end != '\0')
        return 0;
    *out = v;
    return 1;
}

/* Mark k of n items, chosen uniformly without repeats (Floyd's algorithm). */
static fp_status pick_random(uint8_t *mark, int64_t n, int64_t k, uint64_t *state,
                             const char *spec, fp_error *err)
{
    uint8_t *chosen = calloc((size_t)(n > 0 ? n : 1), 1);
    if (chosen == NULL)
        FP_FAIL(err, FP_ENOMEM, spec, "out of memory");
    for (int64_t j = n - k; j < n; j++) {
        int64_t t = (int64_t)(fp__rand_next(state) % (uint64_t)(j + 1));
        if (chosen[t])
            t = j;
        chosen[t] = 1;
        mark[t] = 1;
    }
    free(chosen);
    return FP_OK;
}

/* "50" or "1%" of n; the share rounds to the nearest whole number. */
static fp_status random_amount(const char *v, int64_t n, int64_t *k, const char *spec,
                               fp_error *err)
{
    size_t len = strlen(v);
    char *end;
    if (len > 1 && v[len - 1] == '%') {
        errno = 0;
        double pct = strtod(v, &end);
        if (errno || end != v + len - 1 || !(pct >= 0 && pct <= 100))
            FP_FAIL(err, FP_EINVAL, spec, "--fail %s: expected a share from 0%% to 100%%, found \"%s\"",
                    spec, v);
        *k = (int64_t)llround((double)n * pct / 100.0);
        return FP_OK;
    }
    if (!parse_count(v, k) || *k > n)
        FP_FAIL(err, FP_EINVAL, spec, "--fail %s: expected a count from 0 to %lld or a share like 1%%, found \"%s\"",
                spec, (long long)n, v);
    return FP_OK;
}

/* The cable whose id (as fp_plan_cable gives it: "C" and its first link's 1-based number, 7
 * digits) is id: every link it carries goes down (one for a straight cable, both for a
 * twin-port copper cable, one per leg of a splitter). */
static fp_status fail_cable(const fp_stages *st, const char *id, uint8_t *link_down,
                            const char *spec, fp_error *err)
{
    const fp_cabling *cab = st->cab;
    size_t n = (size_t)cab->n_cable;
    for (size_t i = 0; i < n; i++) {
        const fp_cable *cb = &cab->cable[i];
        const int32_t *links = cab->cable_links + cb->first;
        char cid[24];
        snprintf(cid, sizeof cid, "C%07lld", (long long)fp__link_number(st->fab, links[0]));
        if (strcmp(cid, id) != 0)
            continue;
        for (int k = 0; k < cb->n_links; k++)
            link_down[links[k]] = 1;
        return FP_OK;
    }
    FP_FAIL(err, FP_EINVAL, spec, "--fail %s: no cable \"%s\" in this plan (it has %zu cables; ids as cables.csv shows them)",
            spec, id, n);
}

/* Every device in the racks that a floor spec names: "rack:H1-R08-K01", "row:H1-R08",
 * "hall:2" (or "hall:H2"). */
static fp_status fail_floor(const fp_stages *st, const char *kind, const char *v,
                            uint8_t *dev_down, const char *spec, fp_error *err)
{
    const fp_layout *lay = st->lay;
    int h = -1, row = -1, pos = -1, n = 0;
    char tail;
    if (strcmp(kind, "rack") == 0)
        n = sscanf(v, "H%d-R%d-K%d%c", &h, &row, &pos, &tail) == 3;
    else if (strcmp(kind, "row") == 0)
        n = sscanf(v, "H%d-R%d%c", &h, &row, &tail) == 2;
    else
        n = sscanf(v[0] == 'H' || v[0] == 'h' ? v + 1 : v, "%d%c", &h, &tail) == 1;
    if (!n || h < 1)
        FP_FAIL(err, FP_EINVAL, spec,
                "--fail %s: expected rack:H1-R08-K01, row:H1-R08 or hall:2 (rack names as "
                "plan.json's layout and the workbook's Racks sheet show them)",
                spec);
    int64_t hit = 0;
    for (int64_t d = 0; d < st->fab->n_dev; d++) {
        const fp_rack *r = &lay->rack[lay->dev_rack[d]];
        if (r->hall == h && (row < 0 || r->row == row) && (pos < 0 || r->pos == pos)) {
            dev_down[d] = 1;
            hit++;
        }
    }
    if (hit == 0)
        FP_FAIL(err, FP_EINVAL, spec, "--fail %s: no device stands in %s %s (the plan has %d hall%s and %lld racks)",
                spec, kind, v, lay->halls, lay->halls == 1 ? "" : "s", (long long)lay->n_rack);
    return FP_OK;
}

static fp_status apply_one(const fp_stages *st, const char *spec, uint8_t *dev_down,
                           uint8_t *link_down, uint64_t *state, fp_error *err)
{
    const fp_fabric *fab = st->fab;
    const char *colon = strchr(spec, ':');
    char kind[32];
    int64_t k;
    if (colon == NULL) {
        /* A device by the name the documents show. */
        char name[48];
        for (int64_t d = 0; d < fab->n_dev; d++)
            if (strcmp(fp__device_name(name, sizeof name, fab, st->rs, d), spec) == 0) {
                dev_down[d] = 1;
                return FP_OK;
            }
        FP_FAIL(err, FP_EINVAL, spec,
                "--fail %s: no device of that name (names as links.csv shows them, e.g. %s)",
                spec, fp__device_name(name, sizeof name, fab, st->rs, fab->tier_base[1]));
    }
    snprintf(kind, sizeof kind, "%.*s", (int)(colon - spec), spec);
    const char *v = colon + 1;
    if (strcmp(kind, "link") == 0) {
        const char *num = (v[0] == 'L' || v[0] == 'l') ? v + 1 : v;
        int64_t l = parse_count(num, &k) ? fp__link_by_number(fab, k) : -1;
        if (l < 0)
            FP_FAIL(err, FP_EINVAL, spec, "--fail %s: expected a link id from L%07d to L%07lld (links.csv)",
                    spec, 1, (long long)fp__link_numbers(fab));
        link_down[l] = 1;
        return FP_OK;
    }
    if (strcmp(kind, "cable") == 0)
        return fail_cable(st, v, link_down, spec, err);
    if (strcmp(kind, "rack") == 0 || strcmp(kind, "row") == 0 || strcmp(kind, "hall") == 0)
        return fail_floor(st, kind, v, dev_down, spec, err);
    if (strcmp(kind, "random-links") == 0) {
        fp_status rc = random_amount(v, fab->n_link, &k, spec, err);
        return rc != FP_OK ? rc : pick_random(link_down, fab->n_link, k, state, spec, err);
    }
    if (strcmp(kind, "random-switches") == 0) {
        int64_t n_sw = fab->n_dev - fab->servers;
        fp_status rc = random_amount(v, n_sw, &k, spec, err);
        return rc != FP_OK ? rc : pick_random(dev_down + fab->servers, n_sw, k, state, spec, err);
    }
    for (int t = 1; t <= fab->tiers; t++) {
        if (strcmp(kind, role_names[t]) != 0 && !(t == 4 && strcmp(kind, "supercore") == 0))
            continue;
        int64_t first = fab->tier_base[t], end = t < fab->tiers ? fab->tier_base[t + 1] : fab->n_dev;
        if (!parse_count(v, &k) || k < 1 || k > end - first)
            FP_FAIL(err, FP_EINVAL, spec, "--fail %s: expected %s:N with N from 1 to %lld", spec,
                    kind, (long long)(end - first));
        dev_down[first + k - 1] = 1;
        return FP_OK;
    }
    FP_FAIL(err, FP_EINVAL, spec,
            "--fail %s: unknown kind \"%s\" (roles as this fabric's tiers allow)", spec, kind);
}

int fp__failure_matches(const fp_stages *st, const char *spec)
{
    const fp_fabric *fab = st->fab;
    uint64_t state = 1;
    fp_error scratch = { 0 };
    uint8_t *dd = calloc((size_t)(fab->n_dev ? fab->n_dev : 1), 1);
    uint8_t *ld = calloc((size_t)(fab->n_link ? fab->n_link : 1), 1);
    int hit = dd && ld && apply_one(st, spec, dd, ld, &state, &scratch) == FP_OK;
    free(dd);
    free(ld);
    return hit;
}

/* Endpoints whose link is down or whose leaf is outside its plane's largest piece. */
static fp_status cut_off(const fp_fabric *fab, const uint8_t *link_down, fp_failure_report *r,
                         fp_error *err)
{
    const int64_t nic_links = fab->boundary_base[1];
    int64_t *comp = NULL, n_comp = 0, *count = NULL, *ok_per_server = NULL;
    int64_t main_comp[FP_MAX_PLANES];
    fp_status rc = fp__graph_components(fab, link_down, &comp, &n_comp, err);
    if (rc != FP_OK)
        return rc;
    count = calloc((size_t)n_comp + 1, sizeof *count);
    ok_per_server = calloc((size_t)fab->servers + 1, sizeof *ok_per_server);
    if (count == NULL || ok_per_server == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "failure", "out of memory");
        goto out;
    }
    for (int p = 0; p < fab->planes; p++) {
        int64_t best = -1;
        memset(count, 0, sizeof *count * (size_t)n_comp);
        for (int64_t i = 0; i < nic_links; i++)
            if (fab->link[i].plane == p && !link_down[i])
                count[comp[fab->link[i].z - fab->servers]]++;
        main_comp[p] = 0;
        for (int64_t c = 0; c < n_comp; c++)
            if (count[c] > best) {
                best = count[c];
                main_comp[p] = c;
            }
    }
    r->endpoints_cut_off = 0;
    for (int64_t i = 0; i < nic_links; i++) {
        const fp_link *lk = &fab->link[i];
        if (link_down[i] || comp[lk->z - fab->servers] != main_comp[lk->plane])
            r->endpoints_cut_off++;
        else
            ok_per_server[lk->a]++;
    }
    r->servers_cut_off = 0;
    for (int64_t s = 0; s < fab->servers; s++)
        r->servers_cut_off += ok_per_server[s] == 0;
out:
    free(comp);
    free(count);
    free(ok_per_server);
    return rc;
}

/* Remaining uplink fraction of the worst pod and zone: for each boundary above the leaves,
 * the links still up whose lower end belongs to the pod (zone), over all such links. */
static fp_status uplinks_left(const fp_fabric *fab, const uint8_t *link_down, fp_failure_report *r,
                              fp_error *err)
{
    r->worst_pod = r->worst_zone = -1;
    r->worst_pod_uplinks = r->worst_zone_uplinks = 1;
    if (fab->tiers < 3)
        return FP_OK;
    int64_t n_pods = fab->level[2].blocks, n_zones = fab->tiers >= 4 ? fab->level[3].blocks : 0;
    int64_t n = (n_pods + n_zones) * FP_MAX_TIERS;
    int64_t *all = calloc((size_t)n, sizeof *all), *up = calloc((size_t)n, sizeof *up);
    if (all == NULL || up == NULL) {
        free(all);
        free(up);
        FP_FAIL(err, FP_ENOMEM, "failure", "out of memory");
    }
    for (int64_t i = fab->boundary_base[1]; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        const fp_device *lo = &fab->dev[l->a];
        int b = l->boundary;
        if (lo->pod >= 0 && lo->pod < n_pods && b <= 2) {
            all[lo->pod * FP_MAX_TIERS + b]++;
            up[lo->pod * FP_MAX_TIERS + b] += !link_down[i];
        }
        if (lo->zone >= 0 && lo->zone < n_zones) {
            all[(n_pods + lo->zone) * FP_MAX_TIERS + b]++;
            up[(n_pods + lo->zone) * FP_MAX_TIERS + b] += !link_down[i];
        }
    }
    for (int64_t k = 0; k < n_pods + n_zones; k++)
        for (int b = 1; b < FP_MAX_TIERS; b++) {
            int64_t j = k * FP_MAX_TIERS + b;
            if (all[j] == 0)
                continue;
            double f = (double)up[j] / (double)all[j];
            if (k < n_pods && (r->worst_pod < 0 || f < r->worst_pod_uplinks)) {
                r->worst_pod = (int)k;
                r->worst_pod_uplinks = f;
            } else if (k >= n_pods && (r->worst_zone < 0 || f < r->worst_zone_uplinks)) {
                r->worst_zone = (int)(k - n_pods);
                r->worst_zone_uplinks = f;
            }
        }
    free(all);
    free(up);
    return FP_OK;
}

fp_status fp__failure_marks(const fp_stages *st, const char *const *specs, size_t n,
                            uint64_t seed, uint8_t **dev_down_out, uint8_t **link_down_out,
                            fp_error *err)
{
    const fp_fabric *fab = st->fab;
    uint64_t state = seed;
    fp_status rc = FP_OK;
    uint8_t *dev_down = calloc((size_t)(fab->n_dev ? fab->n_dev : 1), 1);
    uint8_t *link_down = calloc((size_t)(fab->n_link ? fab->n_link : 1), 1);
    *dev_down_out = *link_down_out = NULL;
    if (dev_down == NULL || link_down == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "failure", "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n && rc == FP_OK; i++)
        rc = apply_one(st, specs[i], dev_down, link_down, &state, err);
    if (rc == FP_EINVAL && err != NULL) {
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len, "; %s", accepted_forms);
    }
    if (rc != FP_OK)
        goto out;
    for (int64_t i = 0; i < fab->n_link; i++)
        if (dev_down[fab->link[i].a] || dev_down[fab->link[i].z])
            link_down[i] = 1;
    *dev_down_out = dev_down;
    *link_down_out = link_down;
    return FP_OK;
out:
    free(dev_down);
    free(link_down);
    return rc;
}

fp_status fp__failure_run(fp_failure_report *out, const fp_stages *st, const fp_analysis *an,
                          const char *const *specs, size_t n, uint64_t seed, fp_error *err)
{
    fp_status rc;
    fp_failure_report r;
    int64_t *s_links = NULL, *t_links = NULL;
    const fp_fabric *fab = st->fab;
    uint8_t *dev_down = NULL, *link_down = NULL;
    if ((rc = fp__failure_marks(st, specs, n, seed, &dev_down, &link_down, err)) != FP_OK)
        return rc;
    memset(&r, 0, sizeof r);
    r.n_specs = (int)n;
    r.seed = seed;
    for (int64_t d = fab->servers; d < fab->n_dev; d++)
        r.switches_failed += dev_down[d];
    for (int64_t d = 0; d < fab->n_dev; d++)
        r.devices_failed += dev_down[d];
    for (int64_t i = 0; i < fab->n_link; i++) {
        r.links_failed += link_down[i];
        r.link_capacity_lost_gbps += link_down[i] ? st->rs->gbps[fab->link[i].boundary] : 0;
    }
    r.bisection_before_gbps = an->m.bisection_maxflow_gbps;
    if ((rc = fp__split_links(fab, an, link_down, &s_links, &t_links, err)) != FP_OK ||
        (rc = fp__graph_bisection(fab, st->rs->gbps, s_links, t_links, link_down, NULL,
                                  0, &r.bisection_after_gbps, err)) != FP_OK ||
        (rc = cut_off(fab, link_down, &r, err)) != FP_OK ||
        (rc = uplinks_left(fab, link_down, &r, err)) != FP_OK)
        goto out;
    r.bisection_lost_fraction =
        r.bisection_before_gbps > 0 ? 1.0 - r.bisection_after_gbps / r.bisection_before_gbps : 0;
    *out = r;
out:
    free(dev_down);
    free(link_down);
    free(s_links);
    free(t_links);
    return rc;
}
