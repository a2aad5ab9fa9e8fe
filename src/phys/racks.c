/* fabplan — phys: the cluster's racks as every network fills them, the one owner of a rack's
 * units, devices, power and cables leaving (see net_bom.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/net_bom.h"

void fp__racks_free(fp_racks *r)
{
    if (r == NULL)
        return;
    free(r->units_used);
    free(r->devices);
    free(r->power_w);
    free(r->net_power_w);
    free(r->cables_leaving);
    memset(r, 0, sizeof *r);
}

fp_status fp__racks_build(fp_racks *out, const fp_layout *lay, const fp_cabling *cab,
                          const fp_net_place *pl, const fp_net_phys *np, const fp_rspec *crs,
                          fp_error *err)
{
    const int64_t R = lay->n_rack, n = R + pl->mgmt_racks;
    const double cap_w = crs->phys.rack_power_limit_w;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->n_layout = R;
    out->rack = np->n > 0 ? np->lay[0].rack : lay->rack;
    out->units_used = calloc((size_t)(n ? n : 1), sizeof *out->units_used);
    out->devices = calloc((size_t)(n ? n : 1), sizeof *out->devices);
    out->power_w = calloc((size_t)(n ? n : 1), sizeof *out->power_w);
    out->net_power_w = calloc((size_t)(n ? n : 1), sizeof *out->net_power_w);
    out->cables_leaving = calloc((size_t)(n ? n : 1), sizeof *out->cables_leaving);
    if (out->units_used == NULL || out->devices == NULL || out->power_w == NULL ||
        out->net_power_w == NULL || out->cables_leaving == NULL) {
        fp__racks_free(out);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory for the racks of %lld", (long long)n);
    }
    for (int64_t r = 0; r < R; r++) {
        out->units_used[r] = lay->rack[r].units_used + (cab->rack_panels ? cab->rack_panels[r] : 0);
        out->devices[r] = lay->rack[r].devices;
        out->power_w[r] = cab->rack_power_w[r];
        out->cables_leaving[r] = cab->rack_cables_leaving[r];
    }
    /* What the networks add: their devices' units and count as placed, their power as each
     * network's cabling counts it in the rack (switches, modules, powered cables) plus the extra
     * endpoints placing put there, rounded once to hundredths as the compute figure is. */
    for (int64_t k = 0; k < pl->n_add; k++) {
        const fp_rack_add *a = &pl->add[k];
        double w = a->power_w;
        for (int i = 0; i < np->n; i++)
            if (a->rack < np->lay[i].n_rack)
                w += np->cab[i].rack_power_w[a->rack];
        out->net_power_w[a->rack] = round(w * 100) / 100;
        out->power_w[a->rack] += out->net_power_w[a->rack];
        out->units_used[a->rack] += (int32_t)a->ru;
        out->devices[a->rack] += a->devices;
        out->over_power += a->rack < R && cap_w > 0 && out->power_w[a->rack] > cap_w;
    }
    for (int i = 0; i < np->n; i++)
        for (int64_t r = 0; r < n && r < np->lay[i].n_rack; r++)
            out->cables_leaving[r] += np->cab[i].rack_cables_leaving[r];
    return FP_OK;
}
