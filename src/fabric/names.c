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

const char *fp__boundary_name(int b, int tiers, char *buf, size_t n)
{
    snprintf(buf, n, "%s-%s", b == 0 ? "nic" : fp__tier_role(b, tiers), fp__tier_role(b + 1, tiers));
    return buf;
}
