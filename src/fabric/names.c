/* fabplan — names of devices and ports, derived from ids when written (never stored). */
#include <stdio.h>
#include <string.h>
#include "fabric/fabric.h"
#include "util/text.h"

static const char *const roles[] = { "server", "leaf", "spine", "core", "super-core" };

const char *fp__tier_role(int tier, int tiers)
{
    (void)tiers;
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
        if (rs->topology == FP_TOPO_RAIL)
            snprintf(buf, n, "su%0*d-node-%0*d", digits(fab->design_su_count), d->su + 1,
                     digits(rs->su_servers), d->index + 1);
        else
            snprintf(buf, n, "node-%0*d", digits(fab->design_servers), d->index + 1);
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

/* "<prefix><a>" or "<prefix><a><sep><b>" into buf (n bytes, truncated like snprintf). Port
 * names are formatted for every row of the per-link files, so no printf here. */
static char *port_text(char *buf, size_t n, const char *prefix, int a, const char *sep, int b)
{
    char tmp[64];
    size_t k = strlen(prefix);
    memcpy(tmp, prefix, k);
    k += fp__put_int(tmp + k, a);
    if (sep) {
        size_t s = strlen(sep);
        memcpy(tmp + k, sep, s);
        k += s;
        k += fp__put_int(tmp + k, b);
    }
    tmp[k] = '\0';
    fp__copy_str(buf, n, tmp);
    return buf;
}

char *fp__port_name(char *buf, size_t n, const fp_fabric *fab, const fp_rspec *rs, int64_t id,
                    int port)
{
    const fp_device *d = &fab->dev[id];
    if (d->tier == 0) {
        if (rs->nic.ports == 1)
            return port_text(buf, n, "nic", port + 1, NULL, 0);
        return port_text(buf, n, "nic", port / rs->nic.ports + 1, "-p", port % rs->nic.ports + 1);
    }
    int b = rs->tier[d->tier - 1].breakout;
    if (b <= 1)
        return port_text(buf, n, "p", port + 1, NULL, 0);
    return port_text(buf, n, "p", port / b + 1, "/", port % b + 1);
}

const char *fp__boundary_name(int b, int tiers, char *buf, size_t n)
{
    snprintf(buf, n, "%s-%s", b == 0 ? "nic" : fp__tier_role(b, tiers), fp__tier_role(b + 1, tiers));
    return buf;
}
