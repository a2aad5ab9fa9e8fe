/* fabplan — fabric: the cluster's other networks, each built by the Clos builder (clos.c). */
#include <stdlib.h>
#include <string.h>
#include "fabric/networks.h"

void fp__net_fabrics_free(fp_net_fabrics *nf)
{
    if (nf == NULL)
        return;
    for (int i = 0; i < nf->n; i++)
        fp__fabric_free(&nf->fab[i]);
    free(nf->fab);
    nf->fab = NULL;
    nf->n = 0;
}

/* Errors of the builder name /fabric/... or /cluster/...: the network's own pointer instead. */
static void repoint(fp_error *err, int i)
{
    char where[sizeof err->where], msg[sizeof err->msg];
    if (err == NULL)
        return;
    snprintf(where, sizeof where, "/networks/%d", i);
    snprintf(msg, sizeof msg, "/networks/%d: %s", i, err->msg);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    snprintf(err->where, sizeof err->where, "%s", where);
}

static fp_status size_one(fp_net_spec *ns, fp_error *err)
{
    fp_rspec *rs = &ns->rs;
    fp_status rc;
    if (!ns->dual_homed)
        return fp__clos_size(rs, err);
    /* A unit is as many hosts as one leaf has down ports: size as a plain Clos to learn that,
     * then as two rails with that unit, so each unit gets one leaf per port: the MLAG pair. */
    int tiers = rs->tiers, tiers_auto = rs->tiers_auto;
    rs->topology = FP_TOPO_CLOS;
    if ((rc = fp__clos_size(rs, err)) != FP_OK)
        return rc;
    rs->su_servers = rs->tier[0].down;
    rs->topology = FP_TOPO_RAIL;
    rs->tiers = tiers;
    rs->tiers_auto = tiers_auto;
    rs->tier_choice[0] = '\0';
    return fp__clos_size(rs, err);
}

fp_status fp__nets_build(fp_net_fabrics *out, fp_nets *nets, fp_error *err)
{
    memset(out, 0, sizeof *out);
    if (nets->n == 0)
        return FP_OK;
    out->fab = calloc((size_t)nets->n, sizeof *out->fab);
    if (out->fab == NULL)
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory");
    for (int i = 0; i < nets->n; i++) {
        fp_status rc;
        if ((rc = size_one(&nets->net[i], err)) != FP_OK ||
            (rc = fp__clos_build(&out->fab[i], &nets->net[i].rs, err)) != FP_OK) {
            repoint(err, i);
            fp__net_fabrics_free(out);
            return rc;
        }
        out->n = i + 1;
    }
    return FP_OK;
}

int64_t fp__mlag_peer(const fp_fabric *fab, const fp_net_spec *ns, int64_t leaf)
{
    if (!ns->dual_homed || leaf < fab->tier_base[1] || leaf >= fab->tier_base[1] + fab->level[1].switches)
        return -1;
    /* Two rails, one leaf per rail per unit (leaves_per_su == 2): leaves 2k and 2k+1. */
    int64_t k = leaf - fab->tier_base[1];
    return fab->tier_base[1] + (k ^ 1);
}
