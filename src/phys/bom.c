/* fabplan — bill of materials: every part with quantity, cost and power; totals per GPU.
 *
 * Lines are grouped by category (switch, nic, transceiver, copper, fibre), then part id, then
 * stock length; a spares line (bom.spares: a fraction per category) follows the line it spares. Spares are on
 * the shelf: they add cost, not power. Cut items (copper and fibre) cost price_usd plus
 * price_per_m_usd times their stock length. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/phys.h"

enum {
    CAT_SWITCH = FP_BOM_SWITCH,
    CAT_NIC = FP_BOM_NIC,
    CAT_TRANSCEIVER = FP_BOM_TRANSCEIVER,
    CAT_COPPER = FP_BOM_COPPER,
    CAT_FIBRE = FP_BOM_FIBRE
};
static const char *const categories[] = { "switch", "nic", "transceiver", "copper", "fibre" };

const char *fp_bom_category_name(fp_bom_category category)
{
    return (unsigned)category < FP_BOM_CATEGORY_COUNT ? categories[category] : "unknown";
}

typedef struct bom_ctx {
    fp_bom *bom;
    size_t cap;
    const fp_rspec *rs;
} bom_ctx;

static fp_status add_line(bom_ctx *c, int cat, const fp_part *p, double length, int64_t qty,
                          fp_error *err)
{
    if (qty <= 0)
        return FP_OK;
    for (int spare = 0; spare < 2; spare++) {
        int64_t q = spare ? (int64_t)ceil(qty * c->rs->phys.spares[cat] - 1e-9) : qty;
        if (q <= 0)
            continue;
        if (c->bom->n == c->cap) {
            size_t cap = c->cap ? c->cap * 2 : 64;
            fp_bom_row *r = realloc(c->bom->row, cap * sizeof *r);
            if (r == NULL)
                FP_FAIL(err, FP_ENOMEM, "", "out of memory for the BOM");
            c->bom->row = r;
            c->cap = cap;
        }
        fp_bom_row *row = &c->bom->row[c->bom->n++];
        fp_bom_line *l = &row->line;
        memset(row, 0, sizeof *row);
        l->part = p->id;
        l->category = categories[cat];
        l->kind = (fp_bom_category)cat;
        if (length > 0)
            snprintf(row->desc, sizeof row->desc, "%s%s, %g m", spare ? "spare: " : "", p->name,
                     length);
        else
            snprintf(row->desc, sizeof row->desc, "%s%s", spare ? "spare: " : "", p->name);
        l->length_m = length;
        l->spare = spare;
        l->quantity = q;
        l->unit_cost = p->price_usd + (length > 0 ? p->price_per_m_usd * length : 0);
        l->cost = l->unit_cost * (double)q;
        l->unit_power_w = p->power_w;
        l->power_w = spare ? 0 : p->power_w * (double)q;
        l->mtbf_hours = p->mtbf_hours;
    }
    return FP_OK;
}

static int length_index(const fp_part *p, double len)
{
    for (int i = 0; i < p->n_lengths; i++)
        if (fabs(p->lengths_m[i] - len) < 1e-6)
            return i;
    return p->n_lengths;    /* an override length not in the stock list */
}

static fp_status switch_lines(bom_ctx *c, const fp_fabric *fab, fp_error *err)
{
    const fp_rspec *rs = c->rs;
    int done[FP_MAX_TIERS] = { 0 };
    fp_status rc;
    for (;;) {
        /* Models in id order; tiers sharing a model share a line. */
        int pick = -1;
        for (int t = 0; t < fab->tiers; t++)
            done[t] |= t + 1 == fab->attached_tier;     /* another network's switches */
        for (int t = 0; t < fab->tiers; t++)
            if (!done[t] && (pick < 0 || strcmp(rs->tier[t].model.id, rs->tier[pick].model.id) < 0))
                pick = t;
        if (pick < 0)
            return FP_OK;
        int64_t qty = 0;
        for (int t = 0; t < fab->tiers; t++)
            if (!done[t] && strcmp(rs->tier[t].model.id, rs->tier[pick].model.id) == 0) {
                qty += fp__tier_own_switches(fab, t + 1);
                done[t] = 1;
            }
        if ((rc = add_line(c, CAT_SWITCH, &rs->tier[pick].model, 0, qty, err)) != FP_OK)
            return rc;
    }
}

/* Counts of the cabling's parts: mods[part] transceivers in cages; cut[part][length] copper
 * and fibre at each stock length (cut_len[part][length] that length), patch cords and trunks
 * of structured cabling included. nl lengths per part. */
static void count_parts(const fp_cabling *cab, const fp_phys_spec *ps, int nl, int64_t *mods,
                        int64_t *cut, double *cut_len)
{
    for (int64_t g = 0; g < cab->n_cage; g++)
        if (cab->cage_mod[g] >= 0)
            mods[cab->cage_mod[g]]++;
    for (int64_t i = 0; i < cab->n_cable; i++) {
        const fp_cable *cb = &cab->cable[i];
        /* Structured: two patch cords (the trunk is counted below), else one cable. */
        int cords = cab->seg && cab->seg[3 * i + 1] > 0 ? 2 : 1;
        for (int k = 0; k < cords; k++) {
            double len = cords == 2 ? cab->seg_stock[3 * i + 2 * k] : cb->stock_m;
            int li = length_index(&ps->parts[cb->part], len);
            cut[(size_t)cb->part * (size_t)nl + (size_t)li]++;
            cut_len[(size_t)cb->part * (size_t)nl + (size_t)li] = len;
        }
    }
    for (int i = 0; cab->struct_qty && i < ps->n_parts; i++)
        for (int k = 0; k < nl; k++) {
            size_t at = (size_t)i * (size_t)nl + (size_t)k;
            if (cab->struct_qty[at] == 0)
                continue;
            cut[at] += cab->struct_qty[at];
            cut_len[at] = k < ps->parts[i].n_lengths ? ps->parts[i].lengths_m[k] : 0;
        }
}

/* The catalog part a BOM line names (switch models, the NIC, the parts list), NULL if none. */
static const fp_part *line_part(const fp_bom_line *l, const fp_fabric *fab, const fp_rspec *rs)
{
    const fp_phys_spec *ps = &rs->phys;
    for (int t = 0; t < fab->tiers; t++)
        if (rs->tier[t].model.id == l->part)
            return &rs->tier[t].model;
    if (rs->nic.id == l->part)
        return &rs->nic;
    for (int k = 0; k < ps->n_parts; k++)
        if (ps->parts[k].id == l->part)
            return &ps->parts[k];
    return NULL;
}

/* Parts that said nothing of price or power cost $0 and draw 0 W: warn, once per part. */
static void warn_unpriced(fp_bom *bom, const fp_fabric *fab, const fp_rspec *rs)
{
    for (size_t i = 0; i < bom->n; i++) {
        const fp_bom_line *l = &bom->row[i].line;
        int seen = 0;
        if (l->spare)
            continue;
        for (size_t j = 0; j < i; j++)
            seen |= !bom->row[j].line.spare && bom->row[j].line.part == l->part;
        if (seen)
            continue;
        const fp_part *p = line_part(l, fab, rs);
        int no_power = p && !p->powered && p->type != FP_PART_FIBRE;
        if (p == NULL || (p->priced && !no_power))
            continue;
        bom->totals.unpriced_parts++;
        if (bom->n_warnings < FP_MAX_NOTES)
            snprintf(bom->warnings[bom->n_warnings++], sizeof bom->warnings[0],
                     "%s %s (%s) gives no %s%s%s: its %lld unit%s count%s as %s in the BOM; add %s to the part",
                     fp_part_type_name(p->type), p->id, p->name, p->priced ? "" : "price_usd",
                     !p->priced && no_power ? " and no " : "", no_power ? "power_w" : "",
                     (long long)l->quantity, l->quantity == 1 ? "" : "s", l->quantity == 1 ? "s" : "",
                     !p->priced && no_power ? "$0 and 0 W" : p->priced ? "0 W" : "$0",
                     !p->priced && no_power ? "\"price_usd\" and \"power_w\""
                                            : p->priced ? "\"power_w\"" : "\"price_usd\"");
    }
}

/* Totals over every line, and per GPU; each line's description pointed at its text. */
static void add_totals(fp_bom *bom, const fp_cabling *cab, const fp_rspec *rs)
{
    fp_totals *t = &bom->totals;
    for (size_t i = 0; i < bom->n; i++) {
        fp_bom_line *l = &bom->row[i].line;
        l->description = bom->row[i].desc;
        t->cost += l->cost;
        t->power_w += l->power_w;
        if (!l->spare && l->kind == FP_BOM_TRANSCEIVER)
            t->transceivers += l->quantity;
    }
    double gpus = (double)(rs->gpus > 0 ? rs->gpus : 1);
    t->cost_per_gpu = t->cost / gpus;
    t->power_w_per_gpu = t->power_w / gpus;
    t->transceivers_per_gpu = (double)t->transceivers / gpus;
    t->cables = cab->n_cable;
}

/* The lines in order: switches, NICs, transceivers, copper, then fibre by part and length. */
static fp_status add_lines(bom_ctx *c, const fp_fabric *fab, const int64_t *mods,
                           const int64_t *cut, const double *cut_len, int nl, fp_error *err)
{
    const fp_rspec *rs = c->rs;
    const fp_phys_spec *ps = &rs->phys;
    fp_status rc;
    if ((rc = switch_lines(c, fab, err)) != FP_OK ||
        (rc = add_line(c, CAT_NIC, &rs->nic, 0, fab->servers * rs->nics_per_server, err)) != FP_OK)
        return rc;
    for (int i = 0; i < ps->n_parts; i++)
        if (ps->parts[i].type == FP_PART_TRANSCEIVER &&
            (rc = add_line(c, CAT_TRANSCEIVER, &ps->parts[i], 0, mods[i], err)) != FP_OK)
            return rc;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < ps->n_parts; i++) {
            if (ps->parts[i].type != (pass == 0 ? FP_PART_CABLE : FP_PART_FIBRE))
                continue;
            for (int k = 0; k < nl; k++) {
                size_t at = (size_t)i * (size_t)nl + (size_t)k;
                if ((rc = add_line(c, pass == 0 ? CAT_COPPER : CAT_FIBRE, &ps->parts[i],
                                   cut_len[at], cut[at], err)) != FP_OK)
                    return rc;
            }
        }
    return FP_OK;
}

fp_status fp__bom_build(fp_bom *bom, const fp_cabling *cab, const fp_fabric *fab,
                        const fp_rspec *rs, fp_error *err)
{
    const fp_phys_spec *ps = &rs->phys;
    bom_ctx c = { bom, 0, rs };
    fp_status rc = FP_OK;
    int np = ps->n_parts, nl = FP_MAX_LENGTHS + 1;
    memset(bom, 0, sizeof *bom);
    int64_t *mods = calloc((size_t)(np ? np : 1), sizeof *mods);
    int64_t *cut = calloc((size_t)(np ? np : 1) * (size_t)nl, sizeof *cut);
    double *cut_len = calloc((size_t)(np ? np : 1) * (size_t)nl, sizeof *cut_len);
    if (mods == NULL || cut == NULL || cut_len == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for the BOM");
        goto out;
    }
    count_parts(cab, ps, nl, mods, cut, cut_len);
    if ((rc = add_lines(&c, fab, mods, cut, cut_len, nl, err)) != FP_OK)
        goto out;
    warn_unpriced(bom, fab, rs);
    add_totals(bom, cab, rs);
out:
    free(mods);
    free(cut);
    free(cut_len);
    if (rc != FP_OK)
        fp__bom_free(bom);
    return rc;
}

void fp__bom_free(fp_bom *bom)
{
    if (bom == NULL)
        return;
    free(bom->row);
    memset(bom, 0, sizeof *bom);
}
