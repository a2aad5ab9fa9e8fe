/* fabplan — phys: parts of the cluster's other networks, grouped by network. */
#include <stdlib.h>
#include <string.h>
#include "phys/net_bom.h"

void fp__net_boms_free(fp_net_boms *nb)
{
    if (nb == NULL)
        return;
    for (int i = 0; i < nb->n; i++)
        free(nb->b[i].line);
    free(nb->b);
    nb->b = NULL;
    nb->n = 0;
}

static fp_net_bom_line *add(fp_net_bom *b, const char *cat, const char *part, int64_t qty,
                            double usd, double w, int64_t ru_each)
{
    fp_net_bom_line *l = &b->line[b->n++];
    memset(l, 0, sizeof *l);
    snprintf(l->category, sizeof l->category, "%s", cat);
    snprintf(l->part, sizeof l->part, "%s", part);
    l->qty = qty;
    l->unit_usd = usd;
    l->ext_usd = usd * (double)qty;
    l->unit_w = w;
    l->ext_w = w * (double)qty;
    l->ru = ru_each * qty;
    return l;
}

static fp_status one(fp_net_bom *b, const fp_net_spec *ns, const fp_fabric *fab, const fp_bom *pb,
                     const fp_cabling *cab, fp_error *err)
{
    const fp_rspec *rs = &ns->rs;
    memset(b, 0, sizeof *b);
    b->line = calloc((size_t)fab->tiers + 1 + pb->n + (size_t)ns->n_extra, sizeof *b->line);
    if (b->line == NULL)
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory for the networks' BOM");
    for (int t = 1; t <= fab->tiers; t++) {
        const fp_part *m = &rs->tier[t - 1].model;
        int64_t n = fp__tier_own_switches(fab, t);
        if (t == fab->attached_tier)
            continue;           /* another network's switches (uplink_to): its BOM's */
        fp_net_bom_line *l = add(b, "switch", m->id, n, m->priced ? m->price_usd : 0,
                                 m->powered ? m->power_w : 0, m->ru > 0 ? m->ru : 1);
        snprintf(l->desc, sizeof l->desc, "%s, %s", m->name[0] ? m->name : m->id,
                 fp__tier_role(t));
        l->mtbf_hours = m->mtbf_hours;
        b->switches += n;
        b->unpriced += !m->priced;
        b->ru += l->ru;
    }
    /* NICs bought for this network (on-board ports cost nothing here): compute servers only; the
     * extra endpoints come with their ports. */
    if (rs->nic.priced) {
        fp_net_bom_line *l = add(b, "nic", rs->nic.id, ns->servers * rs->nics_per_server,
                                 rs->nic.price_usd, rs->nic.powered ? rs->nic.power_w : 0, 0);
        snprintf(l->desc, sizeof l->desc, "%s", rs->nic.name[0] ? rs->nic.name : rs->nic.id);
        l->mtbf_hours = rs->nic.mtbf_hours;
    }
    /* What the network's cabling chose, as the compute fabric's BOM counts it: modules, copper
     * cables and fibre cords by stock length, with their spares; and spare switches. */
    for (size_t k = 0; k < pb->n; k++) {
        const fp_bom_line *x = &pb->row[k].line;
        if (x->kind == FP_BOM_NIC || (x->kind == FP_BOM_SWITCH && !x->spare))
            continue;
        fp_net_bom_line *l = add(b, x->category, x->part, x->quantity, x->unit_cost,
                                 x->unit_power_w, 0);
        snprintf(l->desc, sizeof l->desc, "%s", pb->row[k].desc);
        l->ext_usd = x->cost;
        l->ext_w = x->power_w;
        l->length_m = x->length_m;
        l->spare = x->spare;
        l->mtbf_hours = x->mtbf_hours;
        if (!x->spare && x->kind == FP_BOM_TRANSCEIVER)
            b->transceivers += x->quantity;
    }
    for (int k = 0; k < b->n; k++) {
        b->cost += b->line[k].ext_usd;
        b->power_w += b->line[k].ext_w;
    }
    b->cables = cab->n_cable;
    for (int64_t c = 0; c < cab->n_cable; c++)
        b->cables_by_medium[cab->cable[c].medium]++;
    for (int i = 0; i < ns->n_extra; i++) {
        const fp_net_extra *x = &ns->extra[i];
        if (x->per_switch)
            continue;           /* the switches' management ports: their networks' parts */
        fp_net_bom_line *l = add(b, "endpoint", x->name, x->count, 0, x->power_w, x->ru);
        snprintf(l->desc, sizeof l->desc, "%s: %d port%s on this network, %d RU each (not priced here)",
                 x->name, x->ports, x->ports == 1 ? "" : "s", x->ru);
        b->endpoint_power_w += l->ext_w;
        b->ru += l->ru;
    }
    return FP_OK;
}

fp_status fp__net_boms_build(fp_net_boms *out, const fp_nets *nets, const fp_net_fabrics *nf,
                             const fp_net_phys *np, fp_error *err)
{
    memset(out, 0, sizeof *out);
    if (nets->n == 0)
        return FP_OK;
    out->b = calloc((size_t)nets->n, sizeof *out->b);
    if (out->b == NULL)
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory");
    out->n = nets->n;
    for (int i = 0; i < nets->n; i++) {
        fp_status rc = one(&out->b[i], &nets->net[i], &nf->fab[i], &np->bom[i], &np->cab[i], err);
        if (rc != FP_OK) {
            fp__net_boms_free(out);
            return rc;
        }
    }
    return FP_OK;
}
