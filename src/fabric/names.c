/* fabplan — names of devices and ports, derived from ids when written (never stored). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "fabric/fabric.h"
#include "util/text.h"

static const char *const roles[] = { "server", "leaf", "spine", "core", "super-core" };

const char *fp__tier_role(int tier)
{
    if (tier < 0 || tier > FP_MAX_TIERS)
        return "switch";
    return roles[tier];
}

static int digits(int64_t count)
{
    int d = 1;
    for (int64_t v = count > 0 ? count : 1; v >= 10; v /= 10)
        d++;
    return d < 2 ? 2 : d;
}

/* Server id's numbers for its name (1-based; [0] unused) and the widths of fields given
 * without one: each the digits of the field's largest number in the design, at least 2. A
 * rail-optimized fabric's servers carry their unit and place in it; in any other fabric the
 * units are of fabric.su_servers servers in server order, as the floor layout takes them. */
static void server_fields(int64_t val[FP_HOST_FIELDS], int w[FP_HOST_FIELDS],
                          const fp_fabric *fab, const fp_rspec *rs, int64_t id)
{
    const fp_device *d = &fab->dev[id];
    const int64_t su = rs->su_servers > 0 ? rs->su_servers : 1;
    const int rail = rs->topology == FP_TOPO_RAIL;
    val[0] = 0;
    val[FP_HOST_SU] = rail ? d->su + 1 : id / su + 1;
    val[FP_HOST_N] = rail ? d->index + 1 : id % su + 1;
    val[FP_HOST_I] = id + 1;
    w[0] = 0;
    w[FP_HOST_SU] = digits(rail ? fab->design_su_count : (fab->design_servers + su - 1) / su);
    w[FP_HOST_N] = digits(rs->su_servers);
    w[FP_HOST_I] = digits(fab->design_servers);
}

/* Server id's name by the resolved template; returns its length (not cut). */
static size_t server_name(char *buf, size_t n, const fp_fabric *fab, const fp_rspec *rs,
                          int64_t id)
{
    int64_t val[FP_HOST_FIELDS];
    int w[FP_HOST_FIELDS];
    server_fields(val, w, fab, rs, id);
    return fp__host_name(buf, n, &rs->server_names, val, w);
}

fp_status fp__server_names_check(const fp_fabric *fab, const fp_rspec *rs, fp_error *err)
{
    /* Every field writes more characters for a larger number, and {su} and {i} grow with the
     * server: within the last unit the last server's name is the longest, before it the last
     * server of the unit before (the largest {n} with the largest {su} and {i} left), so the
     * longer of those two is the longest name of the fabric. */
    char name[FP_SERVER_NAME_MAX * FP_SERVER_NAME_MAX + 64];
    const int64_t su = rs->su_servers > 0 ? rs->su_servers : 1;
    const int64_t cand[] = { fab->servers - 1, (fab->servers - 1) / su * su - 1 };
    for (size_t k = 0; k < sizeof cand / sizeof cand[0]; k++) {
        if (cand[k] < 0)
            continue;
        size_t len = server_name(name, sizeof name, fab, rs, cand[k]);
        if (len > FP_SERVER_NAME_MAX)
            FP_FAIL(err, FP_EINVAL, "/cluster/server_names",
                    "/cluster/server_names: \"%s\" names server %lld \"%s\", %zu characters; "
                    "expected at most %d (the plan's device-name fields hold %d; Slurm takes 64, "
                    "a DNS label 63): use smaller widths or less text",
                    rs->server_names.source, (long long)cand[k] + 1, name, len,
                    FP_SERVER_NAME_MAX, FP_SERVER_NAME_MAX);
    }
    return FP_OK;
}

char *fp__device_name(char *buf, size_t n, const fp_fabric *fab, const fp_rspec *rs, int64_t id)
{
    const fp_device *d = &fab->dev[id];
    const int L = fab->tiers;
    char pl[8] = "";
    if (d->tier > 0 && fab->planes > 1)
        snprintf(pl, sizeof pl, "pl%d-", d->plane + 1);
    int pw = L >= 3 ? digits(fab->design[2].blocks) : 2;
    switch (d->tier) {
    case 0:
        server_name(buf, n, fab, rs, id);
        break;
    case 1:
        if (rs->topology == FP_TOPO_RAIL) {
            int lpr = (fab->leaves_per_su / rs->endpoints_per_server);
            if (lpr > 1)
                snprintf(buf, n, "%ssu%0*d-leaf-r%d.%d", pl, digits(fab->design_su_count), d->su + 1,
                         d->rail + 1, d->index + 1);
            else
                snprintf(buf, n, "%ssu%0*d-leaf-r%d", pl, digits(fab->design_su_count), d->su + 1,
                         d->rail + 1);
        } else if (L >= 3) {
            snprintf(buf, n, "%spod%0*d-leaf-%0*d", pl, pw, d->pod + 1,
                     digits(fab->design[2].children), d->index + 1);
        } else {
            snprintf(buf, n, "%sleaf-%0*d", pl, digits(fab->design[1].switches), d->index + 1);
        }
        break;
    case 2:
        if (L >= 3)
            snprintf(buf, n, "%spod%0*d-spine-%0*d", pl, pw, d->pod + 1,
                     digits(fab->design[2].positions), d->index + 1);
        else
            snprintf(buf, n, "%sspine-%0*d", pl, digits(fab->design[2].switches), d->index + 1);
        break;
    case 3:
        if (L >= 4)
            snprintf(buf, n, "%szone%0*d-core-%0*d", pl, digits(fab->design[3].blocks), d->zone + 1,
                     digits(fab->design[3].positions), d->index + 1);
        else
            snprintf(buf, n, "%score-%0*d", pl, digits(fab->design[3].switches), d->index + 1);
        break;
    default:
        snprintf(buf, n, "%ssupercore-%0*d", pl, digits(fab->design[4].switches), d->index + 1);
        break;
    }
    return buf;
}

/* The template and numbers of port `port` of device id. */
static const char *port_fields(fp_port_fields *f, const fp_fabric *fab, const fp_rspec *rs,
                               int64_t id, int port)
{
    const fp_device *d = &fab->dev[id];
    if (d->tier == 0) {
        fp__nic_port_fields(f, &rs->nic, port);
        return fp__port_template_of(&rs->nic);
    }
    const fp_tier_spec *ts = &rs->tier[d->tier - 1];
    /* Each side's own split (400G down, 800G up): the physical port and lane of this port. */
    int lane, ways, phys = fp__switch_phys(fab, rs, d->tier - 1, port, &lane, &ways);
    fp__switch_port_fields(f, &ts->model, ways, phys * ways + lane);
    return fp__port_template_of(&ts->model);
}

char *fp__port_name(char *buf, size_t n, const fp_fabric *fab, const fp_rspec *rs, int64_t id,
                    int port)
{
    fp_port_fields f;
    const char *t = port_fields(&f, fab, rs, id, port);
    return fp__port_template(buf, n, t, &f);
}

int fp__port_lane(const fp_fabric *fab, const fp_rspec *rs, int64_t id, int port)
{
    fp_port_fields f;
    port_fields(&f, fab, rs, id, port);
    return f.split ? f.lane : 0;
}

int fp__fabric_infiniband(const fp_rspec *rs)
{
    return rs->protocols == FP_PROTO_IB;
}

const char *fp__boundary_name(int b, char *buf, size_t n)
{
    snprintf(buf, n, "%s-%s", b == 0 ? "nic" : fp__tier_role(b), fp__tier_role(b + 1));
    return buf;
}

int fp__ib_port_number(const fp_fabric *fab, const fp_rspec *rs, int64_t id, int port)
{
    const fp_device *d = &fab->dev[id];
    if (d->tier == 0)
        return 1;
    const fp_tier_spec *ts = &rs->tier[d->tier - 1];
    int w = ts->breakout > ts->breakout_up ? ts->breakout : ts->breakout_up;
    int lane, ways, phys = fp__switch_phys(fab, rs, d->tier - 1, port, &lane, &ways);
    return phys * (w > 0 ? w : 1) + lane + 1;
}

/* InfiniBand lane rates (Mb/s) by the names ibnetdiscover prints (infiniband-diags'
 * dump_linkspeed_compat / dump_linkspeedext_compat: SDR .. XDR, FDR10). */
static const struct {
    const char *name;
    int mbps;
} ib_speeds[] = {
    { "SDR", 2500 }, { "DDR", 5000 }, { "QDR", 10000 }, { "FDR10", 10000 }, { "FDR", 14000 },
    { "EDR", 25000 }, { "HDR", 50000 }, { "NDR", 100000 }, { "XDR", 200000 },
};
#define N_IB_SPEEDS (sizeof ib_speeds / sizeof ib_speeds[0])

const char *fp__ib_link_text(int gbps, char *buf, size_t n)
{
    static const int widths[] = { 4, 2, 1, 8, 12 };
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
        for (size_t s = 0; s < N_IB_SPEEDS; s++)
            if ((int64_t)widths[w] * ib_speeds[s].mbps == (int64_t)gbps * 1000 &&
                strcmp(ib_speeds[s].name, "FDR10") != 0) {
                snprintf(buf, n, "%dx%s", widths[w], ib_speeds[s].name);
                return buf;
            }
    snprintf(buf, n, "4x?");
    return buf;
}

int fp__ib_link_parse(const char *s, size_t len, int *width, int *mbps)
{
    size_t i = 0;
    int w = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9' && w < 100)
        w = w * 10 + (s[i++] - '0');
    if (i == 0 || i >= len || (s[i] != 'x' && s[i] != 'X') || w == 0)
        return 0;
    i++;
    /* the -p form prints "4x SDR": one blank may stand between width and speed */
    if (i < len && s[i] == ' ')
        i++;
    for (size_t k = 0; k < N_IB_SPEEDS; k++) {
        size_t nl = strlen(ib_speeds[k].name);
        if (len - i == nl && memcmp(s + i, ib_speeds[k].name, nl) == 0) {
            *width = w;
            *mbps = ib_speeds[k].mbps;
            return 1;
        }
    }
    return 0;
}

/* ---- link numbers: a first phase numbered as its target ---- */

int64_t fp__link_by_number(const fp_fabric *fab, int64_t num)
{
    if (fab->link_num == NULL)
        return num >= 1 && num <= fab->n_link ? num - 1 : -1;
    for (int64_t l = 0; l < fab->n_link; l++)
        if (fab->link_num[l] == num)
            return l;
    return -1;
}

typedef struct named_dev {
    char name[48];
    int64_t dev;
} named_dev;

static int named_cmp(const void *x, const void *y)
{
    return strcmp(((const named_dev *)x)->name, ((const named_dev *)y)->name);
}

fp_status fp__fabric_number_as(fp_fabric *fab, const fp_rspec *rs, const fp_fabric *target,
                               const fp_rspec *trs, fp_error *err)
{
    fp_status rc = FP_OK;
    size_t nt = (size_t)target->n_dev;
    named_dev *names = malloc((nt ? nt : 1) * sizeof *names);
    int64_t *first = calloc(nt + 1, sizeof *first);          /* target links by A device */
    int64_t *by_a = malloc((size_t)(target->n_link ? target->n_link : 1) * sizeof *by_a);
    int64_t *at = calloc(nt + 1, sizeof *at);
    int64_t *num = malloc((size_t)(fab->n_link ? fab->n_link : 1) * sizeof *num);
    if (names == NULL || first == NULL || by_a == NULL || at == NULL || num == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory numbering the links as the target's");
        free(num);
        goto out;
    }
    /* The target's devices by name, and its links grouped by A device (A is the lower end, and
     * each port carries one link: device and port name a link). */
    for (size_t d = 0; d < nt; d++) {
        fp__device_name(names[d].name, sizeof names[d].name, target, trs, (int64_t)d);
        names[d].dev = (int64_t)d;
    }
    qsort(names, nt, sizeof *names, named_cmp);
    for (int64_t l = 0; l < target->n_link; l++)
        first[target->link[l].a + 1]++;
    for (size_t d = 0; d < nt; d++)
        first[d + 1] += first[d];
    for (int64_t l = 0; l < target->n_link; l++) {
        int32_t a = target->link[l].a;
        by_a[first[a] + at[a]++] = l;
    }
    int64_t next = target->n_link;
    named_dev key;
    int64_t last_a = -1, ta = -1;
    for (int64_t l = 0; l < fab->n_link; l++) {
        const fp_link *k = &fab->link[l];
        if (k->a != last_a) {
            fp__device_name(key.name, sizeof key.name, fab, rs, k->a);
            const named_dev *hit = bsearch(&key, names, nt, sizeof *names, named_cmp);
            ta = hit ? hit->dev : -1;
            last_a = k->a;
        }
        num[l] = 0;
        for (int64_t i = ta >= 0 ? first[ta] : 0; ta >= 0 && i < first[ta + 1]; i++)
            if (target->link[by_a[i]].a_port == k->a_port) {
                num[l] = by_a[i] + 1;
                break;
            }
        if (num[l] == 0)
            num[l] = ++next;
    }
    free(fab->link_num);
    fab->link_num = num;
    fab->link_numbers = next;
out:
    free(names);
    free(first);
    free(by_a);
    free(at);
    return rc;
}
