/* fabplan — the fabric read back as the diagrams draw it (plan.h): its shape in one read, a
 * device's or a link's record, names and racks. */
#include <string.h>
#include "plan_data.h"

static void shape_of(const fp_fabric *fab, const fp_rspec *rs, fp_shape *out)
{
    memset(out, 0, sizeof *out);
    out->name = rs->name;
    out->topology = rs->topology;
    out->tiers = fab->tiers;
    out->planes = fab->planes;
    out->gpus = rs->gpus;
    out->servers = fab->servers;
    out->devices = fab->n_dev;
    out->links = fab->n_link;
    out->su_count = fab->su_count;
    out->gpus_per_server = rs->gpus_per_server;
    out->endpoints_per_server = rs->endpoints_per_server;
    out->nics_per_server = rs->nics_per_server;
    out->nic_ports = rs->nic.ports;
    out->link_gbps = rs->link_gbps;
    memcpy(out->gbps, rs->gbps, sizeof out->gbps);
    memcpy(out->tier_base, fab->tier_base, sizeof out->tier_base);
    memcpy(out->boundary_base, fab->boundary_base, sizeof out->boundary_base);
    memcpy(out->level, fab->level, sizeof out->level);
    memcpy(out->size, fab->size, sizeof out->size);
    for (int t = 0; t < FP_MAX_TIERS; t++) {
        out->model[t] = rs->tier[t].model.id;
        out->radix[t] = rs->tier[t].radix;
    }
    out->dev = fab->dev;
    out->link = fab->link;
}

void fp__plan_shape(const fp_plan *plan, fp_shape *out)
{
    shape_of(&plan->fab, &plan->rs, out);
}

void fp__plan_net_shape(const fp_plan *plan, int k, fp_shape *out)
{
    shape_of(&plan->net_fab.fab[k], &plan->nets.net[k].rs, out);
}

int fp__plan_net_link_medium(const fp_plan *plan, int k, int64_t i)
{
    const fp_cabling *cab = k < plan->net_phys.n ? &plan->net_phys.cab[k] : NULL;
    return cab && cab->link_medium ? cab->link_medium[i] : -1;
}

/* Links of medium m in one cabling, every boundary. */
static int64_t medium_links(const fp_cabling *cab, int m)
{
    int64_t n = 0;
    for (int b = 0; b < FP_MAX_TIERS; b++)
        n += cab->by_medium[b][m];
    return n;
}

int fp__plan_media_shown(const fp_plan *plan)
{
    int64_t tp = medium_links(&plan->cab, FP_MEDIUM_TP);
    for (int k = 0; k < plan->net_phys.n; k++)
        tp += medium_links(&plan->net_phys.cab[k], FP_MEDIUM_TP);
    return tp > 0 ? FP_MEDIUM_COUNT : FP_MEDIUM_TP;
}

char *fp__plan_device_name(const fp_plan *plan, int64_t i, char *buf, size_t n)
{
    return fp__device_name(buf, n, &plan->fab, &plan->rs, i);
}

char *fp__plan_port_name(const fp_plan *plan, int64_t i, int p, char *buf, size_t n)
{
    return fp__port_name(buf, n, &plan->fab, &plan->rs, i, p);
}

const int32_t *fp__plan_device_racks(const fp_plan *plan)
{
    return plan->lay.dev_rack;
}
