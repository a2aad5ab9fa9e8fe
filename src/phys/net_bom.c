/* fabplan — phys: parts of the cluster's other networks, grouped by network. */
#include <stdlib.h>
#include <string.h>
#include "phys/net_bom.h"

void fp__net_boms_free(fp_net_boms *nb)
{
    if (nb == NULL)
        return;
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

static void one(fp_net_bom *b, const fp_net_spec *ns, const fp_fabric *fab)
{
    const fp_rspec *rs = &ns->rs;
    memset(b, 0, sizeof *b);
    for (int t = 1; t <= fab->tiers; t++) {
        const fp_part *m = &rs->tier[t - 1].model;
        int64_t n = fab->level[t].switches * fab->planes;
        fp_net_bom_line *l = add(b, "switch", m->id, n, m->priced ? m->price_usd : 0,
                                 m->powered ? m->power_w : 0, m->ru > 0 ? m->ru : 1);
        snprintf(l->desc, sizeof l->desc, "%s, %s", m->name[0] ? m->name : m->id,
                 fp__tier_role(t, fab->tiers));
        b->switches += n;
        b->unpriced += !m->priced;
        b->cost += l->ext_usd;
        b->power_w += l->ext_w;
        b->ru += l->ru;
    }
    /* NICs bought for this network (on-board ports cost nothing here): compute servers only; the
     * extra endpoints come with their ports. */
    if (rs->nic.priced) {
        fp_net_bom_line *l = add(b, "nic", rs->nic.id, ns->servers * rs->nics_per_server,
                                 rs->nic.price_usd, rs->nic.powered ? rs->nic.power_w : 0, 0);
        snprintf(l->desc, sizeof l->desc, "%s", rs->nic.name[0] ? rs->nic.name : rs->nic.id);
        b->cost += l->ext_usd;
        b->power_w += l->ext_w;
    }
    fp_net_bom_line *c = add(b, "cable", "", fab->n_link, 0, 0, 0);
    snprintf(c->desc, sizeof c->desc, "cables, one per link (%d Gb/s at the hosts; media not chosen for this network)",
             rs->link_gbps);
    b->cables = fab->n_link;
    b->unpriced++;
    for (int i = 0; i < ns->n_extra; i++) {
        const fp_net_extra *x = &ns->extra[i];
        fp_net_bom_line *l = add(b, "endpoint", x->name, x->count, 0, x->power_w, x->ru);
        snprintf(l->desc, sizeof l->desc, "%s: %d port%s on this network, %d RU each (not priced here)",
                 x->name, x->ports, x->ports == 1 ? "" : "s", x->ru);
        b->endpoint_power_w += l->ext_w;
        b->ru += l->ru;
    }
}

fp_status fp__net_boms_build(fp_net_boms *out, const fp_nets *nets, const fp_net_fabrics *nf,
                             fp_error *err)
{
    memset(out, 0, sizeof *out);
    if (nets->n == 0)
        return FP_OK;
    out->b = calloc((size_t)nets->n, sizeof *out->b);
    if (out->b == NULL)
        FP_FAIL(err, FP_ENOMEM, "/networks", "out of memory");
    out->n = nets->n;
    for (int i = 0; i < nets->n; i++)
        one(&out->b[i], &nets->net[i], &nf->fab[i]);
    return FP_OK;
}
