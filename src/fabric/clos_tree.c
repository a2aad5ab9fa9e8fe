/* fabplan — the Clos builder's block tree: the switches of every tier as lists, block by block,
 * and where each uplink lands (see clos_work.h for the lists, clos.c for the rules). */
#include <stdlib.h>
#include <string.h>
#include "fabric/clos_work.h"


/* One member of a group: a switch's links into the group. A switch of a child block that has
 * a switch at every position of the group's block gives all its uplinks to the group of its
 * position (x = 0, 1, ...); the switches of a smaller child (a partial pod or zone) deal their
 * uplinks over every group of the block, so each group carries its share of that child's
 * traffic (x = r, r + P, ...) and the bisection stays whole. */
typedef struct bundle {
    int64_t sw;
    int32_t k;          /* links */
    int32_t r, stride;  /* the member's uplink numbers: r, r + stride, ... */
    int regular;
} bundle;

static void list_free(fp_sw_list *l)
{
    free(l->blk);
    free(l->pos);
    free(l->load);
    free(l->up);
    free(l->upoff);
    free(l->tgt);
    free(l->tport);
    free(l->first);
    free(l->gq_first);
    free(l->gq_base);
    free(l->gq_n);
    memset(l, 0, sizeof *l);
}

void fp__clos_shape_free(fp_clos_shape *sh)
{
    for (int t = 0; t <= FP_MAX_TIERS; t++) {
        list_free(&sh->bt[t]);
        list_free(&sh->ds[t]);
    }
}

static int list_alloc(fp_sw_list *l, int64_t n, int64_t blocks, int64_t groups)
{
    memset(l, 0, sizeof *l);
    l->cap = n > 0 ? n : 1;
    l->blk = calloc((size_t)l->cap, sizeof *l->blk);
    l->pos = calloc((size_t)l->cap, sizeof *l->pos);
    l->load = calloc((size_t)l->cap, sizeof *l->load);
    l->up = calloc((size_t)l->cap, sizeof *l->up);
    l->upoff = calloc((size_t)l->cap + 1, sizeof *l->upoff);
    l->first = calloc((size_t)blocks + 1, sizeof *l->first);
    l->gq_first = calloc((size_t)blocks + 1, sizeof *l->gq_first);
    l->gq_base = calloc((size_t)(groups > 0 ? groups : 1), sizeof *l->gq_base);
    l->gq_n = calloc((size_t)(groups > 0 ? groups : 1), sizeof *l->gq_n);
    l->blocks = blocks;
    return l->blk && l->pos && l->load && l->up && l->upoff && l->first &&
           l->gq_first && l->gq_base && l->gq_n;
}

static int list_copy(fp_sw_list *dst, const fp_sw_list *src)
{
    if (!list_alloc(dst, src->n, src->blocks, src->n_gq))
        return 0;
    dst->n = src->n;
    memcpy(dst->blk, src->blk, sizeof *dst->blk * (size_t)src->n);
    memcpy(dst->pos, src->pos, sizeof *dst->pos * (size_t)src->n);
    memcpy(dst->load, src->load, sizeof *dst->load * (size_t)src->n);
    memcpy(dst->up, src->up, sizeof *dst->up * (size_t)src->n);
    memcpy(dst->first, src->first, sizeof *dst->first * (size_t)(src->blocks + 1));
    memcpy(dst->gq_first, src->gq_first, sizeof *dst->gq_first * (size_t)(src->blocks + 1));
    memcpy(dst->gq_base, src->gq_base, sizeof *dst->gq_base * (size_t)(src->n_gq ? src->n_gq : 1));
    memcpy(dst->gq_n, src->gq_n, sizeof *dst->gq_n * (size_t)(src->n_gq ? src->n_gq : 1));
    dst->n_gq = src->n_gq;
    dst->merged = src->merged;
    dst->per_position = src->per_position;
    dst->min_links = src->min_links;
    return 1;
}

/* Leaves for `servers` servers: endpoints and uplinks of each. */
static int leaves_make(fp_sw_list *lv, const fp_clos_ctx *c, int64_t servers)
{
    const fp_rspec *rs = c->rs;
    const int eps = rs->endpoints_per_server;
    const fp_tier_size *t0 = &c->fab->size[0];
    int64_t n;
    if (rs->topology == FP_TOPO_RAIL && rs->fill_cap > 0) {
        /* One rail, a leaf per unit: each leaf's hosts as fp__fill_slot places them. */
        n = rail_units(rs, servers);
        if (!list_alloc(lv, n, n, 0))
            return 0;
        for (int64_t s = 0; s < servers; s++) {
            int64_t unit = 0, port = 0;
            fp__fill_slot(rs, s, &unit, &port);
            lv->load[unit]++;
        }
        for (int64_t l = 0; l < n; l++)
            lv->up[l] = t0->up;     /* a partial unit keeps its full uplinks, as below */
    } else if (rs->topology == FP_TOPO_RAIL) {
        int64_t n_su = ceil_div(servers, rs->su_servers);
        n = n_su * c->r.lps;
        if (!list_alloc(lv, n, n, 0))
            return 0;
        for (int64_t l = 0; l < n; l++) {
            int64_t su = l / c->r.lps, k = l % c->r.lps;
            int64_t in_su = su == n_su - 1 ? servers - su * rs->su_servers : rs->su_servers;
            int64_t e = in_su - (k % c->r.lpr) * c->r.per_leaf;
            e = e < 0 ? 0 : e > c->r.per_leaf ? c->r.per_leaf : e;
            if (c->r.shared)
                e = shared_load(&c->r, rs->endpoints_per_server, rs->su_servers, k, in_su);
            lv->load[l] = (int32_t)e;
            /* Every leaf has the uplinks it has in a full unit: in a full one a rail spread over
             * several leaves (144 servers on 29, 29, 29, 29, 28) gives each leaf the uplinks of
             * its own servers at the ratio, and a partial SU keeps its full leaves and their
             * leaf-spine cables (SuperPOD RA), those and no more: its leaf of 28 servers to come
             * gets 28, not the 29 of a leaf's down ports. */
            lv->up[l] = c->r.lpr > 1 && !c->r.shared
                            ? (int32_t)up_for(rs, 0, (int)rail_full_load(&c->r, rs->su_servers, k))
                            : t0->up;
        }
    } else {
        int64_t E = servers * eps;
        n = ceil_div(E, t0->down);
        if (!list_alloc(lv, n, n, 0))
            return 0;
        for (int64_t l = 0; l < n; l++) {
            int64_t e = E - l * t0->down;
            e = e > t0->down ? t0->down : e;
            lv->load[l] = (int32_t)e;
            lv->up[l] = (int32_t)up_for(rs, 0, (int)e);   /* bandwidth ratio, per-side speeds */
        }
    }
    lv->n = n;
    for (int64_t l = 0; l <= n; l++)
        lv->first[l] = l;
    return 1;
}

/* Divisor of U at or above lo, or 0. */
static int64_t next_divisor(int64_t U, int64_t lo)
{
    for (int64_t n = lo < 1 ? 1 : lo; n <= U; n++)
        if (U % n == 0)
            return n;
    return 0;
}

/* Even spread: a member with k links has m = ceil(k/n) links to each of ceil(k/m) upper
 * switches, starting where the previous member stopped. */
static void even_shape(int64_t k, int64_t n, int64_t *m, int64_t *cnt)
{
    *m = k > 0 ? ceil_div(k, n) : 1;
    *cnt = k > 0 ? ceil_div(k, *m) : 0;
}

/* The largest load on n upper switches when the members spread evenly. */
static int64_t even_load(fp_clos_ctx *c, const bundle *mb, int64_t k, int64_t n)
{
    int64_t s = 0, max = 0;
    memset(c->scratch, 0, sizeof *c->scratch * (size_t)n);
    for (int64_t i = 0; i < k; i++) {
        int64_t m, cnt, left = mb[i].k;
        even_shape(mb[i].k, n, &m, &cnt);
        if (mb[i].regular)
            left = m * cnt;     /* a whole member is rounded up to m links per switch */
        for (int64_t j = 0; j < cnt; j++, left -= m)
            c->scratch[(s + j) % n] += (int32_t)(left < m ? left : m);
        s = (s + cnt) % n;
    }
    for (int64_t j = 0; j < n; j++)
        max = c->scratch[j] > max ? c->scratch[j] : max;
    return max;
}

/* Upper switches for one group: down ports d, full uplink count U of the lower tier, at least
 * at_least of them (the top tier's min_top_switches). */
static int64_t group_size(fp_clos_ctx *c, int spread, const bundle *mb, int64_t k, int64_t d,
                          int64_t U, int64_t at_least)
{
    int64_t S = 0, n;
    for (int64_t i = 0; i < k; i++)
        S += mb[i].k;
    n = ceil_div(S, d);
    if (n < at_least)
        n = at_least;
    if (n < 1)
        n = 1;
    if (spread == FP_SPREAD_BALANCED)
        return n;
    for (int64_t e = next_divisor(U, n); e > 0; e = next_divisor(U, e + 1))
        if (even_load(c, mb, k, e) <= d)
            return e;
    return n > U ? n : U;
}

/* Members of group q (of P) of a block whose children are lower blocks cb0..cb1-1. inv[q]: the
 * group's turn in the order a smaller child deals its uplinks. merged: the block's one group
 * takes every switch of its children. */
static int64_t gather(bundle *mb, const fp_sw_list *lo, int64_t cb0, int64_t cb1, int64_t q,
                      int64_t P, const int64_t *inv, int merged)
{
    int64_t k = 0;
    if (merged) {
        for (int64_t sw = lo->first[cb0]; sw < lo->first[cb1]; sw++)
            mb[k++] = (bundle){ sw, lo->up[sw], 0, 1, 1 };
        return k;
    }
    for (int64_t b = cb0; b < cb1; b++) {
        int64_t pb = lo->first[b + 1] - lo->first[b];
        if (pb >= P) {
            int64_t sw = lo->first[b] + q;
            mb[k++] = (bundle){ sw, lo->up[sw], 0, 1, 1 };
            continue;
        }
        int64_t off = 0;
        for (int64_t sw = lo->first[b]; sw < lo->first[b + 1]; sw++) {
            int64_t u = lo->up[sw], r = ((inv[q] - off) % P + P) % P;
            if (r < u)
                mb[k++] = (bundle){ sw, (int32_t)((u - 1 - r) / P + 1), (int32_t)r, (int32_t)P, 0 };
            off += u;
        }
    }
    return k;
}

/* The order in which a smaller child deals its uplinks over the P groups of block beta: the
 * first switch of every lower group, then the second of each, ... so that a few uplinks reach
 * as many different positions below as they can. inv[q] is group q's turn. Identity when no
 * child of the block has all P positions. */
static void deal_order(int64_t *inv, const fp_sw_list *lo, int64_t cb0, int64_t cb1, int64_t P)
{
    int64_t ref = -1, turn = 0;
    for (int64_t q = 0; q < P; q++)
        inv[q] = q;
    for (int64_t b = cb0; b < cb1 && ref < 0; b++)
        if (lo->first[b + 1] - lo->first[b] == P)
            ref = b;
    if (ref < 0 || lo->gq_first == NULL || lo->n_gq == 0)
        return;
    int64_t g0 = lo->gq_first[ref], g1 = lo->gq_first[ref + 1], most = 0;
    for (int64_t g = g0; g < g1; g++)
        most = lo->gq_n[g] > most ? lo->gq_n[g] : most;
    for (int64_t i = 0; i < most; i++)
        for (int64_t g = g0; g < g1; g++)
            if (i < lo->gq_n[g] && lo->gq_base[g] + i < P)
                inv[lo->gq_base[g] + i] = turn++;
}

/* One pass of level_pass: the groups of every upper block and the members' scratch. */
typedef struct pass {
    int t, L, spread, fixed, merged;
    int64_t limit, min_links;   /* merged: switches to beat; the fewest for the links */
    int64_t d, U;           /* down ports of a tier-t switch, full uplinks of a tier-(t-1) one */
    int64_t ch, nb;         /* children per upper block, upper blocks */
    int64_t *gq_first, G;   /* first group of each upper block; groups */
    int32_t *gq_n, *gq_base;/* per group: upper switches, first position */
    bundle *mb;             /* members of one group */
    int64_t *inv;           /* per group: its turn in a smaller child's deal */
} pass;

static void pass_free(pass *ps)
{
    free(ps->gq_first);
    free(ps->gq_n);
    free(ps->gq_base);
    free(ps->mb);
    free(ps->inv);
}

/* Children cb0..cb1-1 of upper block beta. */
static void children_of(const pass *ps, const fp_sw_list *lo, int64_t beta, int64_t *cb0,
                        int64_t *cb1)
{
    *cb0 = beta * ps->ch;
    *cb1 = *cb0 + ps->ch < lo->blocks ? *cb0 + ps->ch : lo->blocks;
}

/* The groups of every upper block (as many as its widest child has switches; fixed: as many as
 * the design has) and room for the pass: a group's members (gather) are at most one per lower
 * switch of its block, whichever children are narrower than the block's groups (a partial pod,
 * or full pods beside a wider last one: gb200-nvl72-su at 2,000 GPUs has pods of 18, 18, 18 and
 * 19 spines). 0 when out of memory. */
static int groups_make(pass *ps, const fp_sw_list *lo, const fp_sw_list *hi)
{
    int64_t most = 0; /* lower switches under one upper block */
    ps->gq_first = calloc((size_t)ps->nb + 1, sizeof *ps->gq_first);
    if (ps->gq_first == NULL)
        return 0;
    for (int64_t beta = 0; beta < ps->nb; beta++) {
        int64_t cb0, cb1, p = 0;
        children_of(ps, lo, beta, &cb0, &cb1);
        if (lo->first[cb1] - lo->first[cb0] > most)
            most = lo->first[cb1] - lo->first[cb0];
        for (int64_t b = cb0; b < cb1; b++)
            if (lo->first[b + 1] - lo->first[b] > p)
                p = lo->first[b + 1] - lo->first[b];
        if (ps->fixed)
            p = hi->gq_first[beta + 1] - hi->gq_first[beta];
        else if (ps->merged)
            p = 1;
        ps->gq_first[beta] = ps->G;
        ps->G += p;
    }
    ps->gq_first[ps->nb] = ps->G;
    ps->gq_n = calloc((size_t)(ps->G ? ps->G : 1), sizeof *ps->gq_n);
    ps->gq_base = calloc((size_t)(ps->G ? ps->G : 1), sizeof *ps->gq_base);
    ps->mb = calloc((size_t)(most + 1), sizeof *ps->mb);
    ps->inv = calloc((size_t)(ps->G + 1), sizeof *ps->inv);
    return ps->gq_n && ps->gq_base && ps->mb && ps->inv;
}

/* A child with fewer switches than its block has groups (a partial pod or zone) keeps all its
 * switches' uplinks, dealt over every group: its traffic can then enter and leave through any
 * position of the blocks beside it, which full bisection needs. */
static void partial_children(pass *ps, fp_sw_list *lo, int64_t *extra)
{
    for (int64_t beta = 0; beta < ps->nb; beta++) {
        int64_t cb0, cb1, P = ps->gq_first[beta + 1] - ps->gq_first[beta];
        children_of(ps, lo, beta, &cb0, &cb1);
        for (int64_t b = cb0; b < cb1; b++)
            if (lo->first[b + 1] - lo->first[b] < P)
                for (int64_t sw = lo->first[b]; sw < lo->first[b + 1]; sw++) {
                    if (extra)
                        *extra += ps->U - lo->up[sw];
                    lo->up[sw] = (int32_t)ps->U;
                }
        deal_order(ps->inv + ps->gq_first[beta], lo, cb0, cb1, P);
    }
}

/* Links of child block b. */
static int64_t block_links(const fp_sw_list *lo, int64_t b)
{
    int64_t w = 0;
    for (int64_t sw = lo->first[b]; sw < lo->first[b + 1]; sw++)
        w += lo->up[sw];
    return w;
}

/* Switches of the merged top group: the fewest n that carry the links (ceil(S / d), into
 * *min_links), reach U distinct switches from each switch below (one link to each), and give
 * every top switch the same share of each child block: link j of every block lands on switch
 * j mod n, so each block's links split evenly over the tier and every split along blocks
 * crosses in full; that needs the sum over blocks of ceil(W_b / n) <= d. 0 when no n below
 * `limit` does. */
static int64_t merged_size(const fp_sw_list *lo, int64_t cb0, int64_t cb1, int64_t d, int64_t U,
                           int64_t limit, int64_t *min_links)
{
    int64_t S = 0;
    for (int64_t b = cb0; b < cb1; b++)
        S += block_links(lo, b);
    *min_links = S > 0 ? ceil_div(S, d) : 1;
    for (int64_t n = *min_links > U ? *min_links : U; n < limit; n++) {
        int64_t most = 0;
        for (int64_t b = cb0; b < cb1 && most <= d; b++)
            most += ceil_div(block_links(lo, b), n);
        if (most <= d)
            return n;
    }
    return 0;
}

/* Pass A: group sizes (fixed: the design's); whole members rounded up to the even
 * multiplicity. Returns the upper switches the groups get (0 when fixed). */
static int64_t group_sizes(fp_clos_ctx *c, pass *ps, fp_sw_list *lo, const fp_sw_list *hi,
                           int64_t *need, int64_t *extra)
{
    int64_t total = 0, at_least = 1;
    /* The top tier's minimum (min_top_switches), shared over its groups. */
    if (ps->t == ps->L && c->rs->min_top > 1 && ps->G > 0)
        at_least = ceil_div(c->rs->min_top, ps->G);
    for (int64_t beta = 0; beta < ps->nb; beta++) {
        int64_t cb0, cb1, base = 0, P = ps->gq_first[beta + 1] - ps->gq_first[beta];
        children_of(ps, lo, beta, &cb0, &cb1);
        for (int64_t q = 0; q < P; q++) {
            int64_t g = ps->gq_first[beta] + q, n, S = 0;
            int64_t k = gather(ps->mb, lo, cb0, cb1, q, P, ps->inv + ps->gq_first[beta],
                               ps->merged);
            for (int64_t i = 0; i < k; i++)
                S += ps->mb[i].k;
            if (ps->fixed) {
                n = hi->gq_n[hi->gq_first[beta] + q];
                base = hi->gq_base[hi->gq_first[beta] + q];
            } else if (ps->merged) {
                n = merged_size(lo, cb0, cb1, ps->d, ps->U, ps->limit, &ps->min_links);
                if (n == 0)
                    return -1;
                if (need)
                    *need += n;
            } else {
                n = group_size(c, ps->spread, ps->mb, k, ps->d, ps->U, at_least);
                if (need) {
                    int64_t by_links = S > 0 ? ceil_div(S, ps->d) : 1;
                    *need += by_links > at_least ? by_links : at_least;
                }
            }
            ps->gq_n[g] = (int32_t)n;
            ps->gq_base[g] = (int32_t)base;
            if (!ps->fixed) {
                base += n;
                total += n;
            }
            if (ps->spread == FP_SPREAD_EVEN)
                for (int64_t i = 0; i < k; i++)
                    if (ps->mb[i].regular && ps->mb[i].k > 0) {
                        int64_t m, cnt;
                        even_shape(ps->mb[i].k, n, &m, &cnt);
                        if (extra)
                            *extra += m * cnt - ps->mb[i].k;
                        lo->up[ps->mb[i].sw] = (int32_t)(m * cnt);
                    }
        }
    }
    return total;
}

/* The upper list from the groups: total switches, block by block, group by group. */
static int upper_make(const pass *ps, fp_sw_list *hi, int64_t total)
{
    if (!list_alloc(hi, total, ps->nb, ps->G))
        return 0;
    hi->n = total;
    memcpy(hi->gq_first, ps->gq_first, sizeof *ps->gq_first * (size_t)(ps->nb + 1));
    memcpy(hi->gq_n, ps->gq_n, sizeof *ps->gq_n * (size_t)(ps->G ? ps->G : 1));
    memcpy(hi->gq_base, ps->gq_base, sizeof *ps->gq_base * (size_t)(ps->G ? ps->G : 1));
    hi->n_gq = ps->G;
    int64_t at = 0;
    for (int64_t beta = 0; beta < ps->nb; beta++) {
        hi->first[beta] = at;
        for (int64_t g = ps->gq_first[beta]; g < ps->gq_first[beta + 1]; g++)
            for (int64_t i = 0; i < ps->gq_n[g]; i++, at++) {
                hi->blk[at] = beta;
                hi->pos[at] = ps->gq_base[g] + (int32_t)i;
            }
    }
    hi->first[ps->nb] = at;
    return 1;
}

/* Pass B of the merged top group (merged_size): link j of every child block on switch
 * j mod n. */
static void merged_place(pass *ps, fp_sw_list *lo, fp_sw_list *hi, int64_t *zc)
{
    const int64_t n = ps->gq_n[0];
    for (int64_t b = 0; b < lo->blocks; b++) {
        int64_t j = 0;
        for (int64_t sw = lo->first[b]; sw < lo->first[b + 1]; sw++)
            for (int64_t k = 0; k < lo->up[sw]; k++, j++) {
                const int64_t z = j % n, at = lo->upoff[sw] + k;
                lo->tgt[at] = (int32_t)z;
                lo->tport[at] = (int32_t)zc[z]++;
                if (!ps->fixed)
                    hi->load[z]++;
            }
    }
}

/* Pass B: every uplink's upper switch and port, members in child order; zc counts the links
 * each upper switch takes. */
static void uplinks_place(pass *ps, fp_sw_list *lo, fp_sw_list *hi, int64_t *zc)
{
    const int even = ps->spread == FP_SPREAD_EVEN;
    if (ps->merged) {
        merged_place(ps, lo, hi, zc);
        return;
    }
    for (int64_t beta = 0; beta < ps->nb; beta++) {
        int64_t cb0, cb1, P = ps->gq_first[beta + 1] - ps->gq_first[beta];
        children_of(ps, lo, beta, &cb0, &cb1);
        for (int64_t q = 0; q < P; q++) {
            int64_t g = ps->gq_first[beta] + q, n = ps->gq_n[g];
            int64_t k = gather(ps->mb, lo, cb0, cb1, q, P, ps->inv + ps->gq_first[beta],
                               ps->merged);
            int64_t gb = hi->first[beta] + ps->gq_base[g], s = 0;
            for (int64_t i = 0; i < k; i++) {
                const bundle *mb = &ps->mb[i];
                int64_t m = 1, cnt = mb->k;
                if (even)
                    even_shape(mb->k, n, &m, &cnt);
                for (int64_t j = 0; j < mb->k; j++) {
                    int64_t z = gb + (even ? (s + j / m) % n : (s + j) % n);
                    int64_t at = lo->upoff[mb->sw] + mb->r + j * mb->stride;
                    lo->tgt[at] = (int32_t)z;
                    lo->tport[at] = (int32_t)zc[z]++;
                    if (!ps->fixed)
                        hi->load[z]++;
                }
                s = (s + (even ? cnt : mb->k)) % n;
            }
        }
    }
}

/* Build tier t's list hi from tier t-1's list lo, sizing every group; or, with fixed (the tier
 * is built for the design size and hi already is that design), spread lo's switches over the
 * groups hi has. Fills lo's tgt/tport. need: switches the links need (the balanced count);
 * extra: links added by rounding a member up to the even multiplicity. 0 when out of memory. */
static int level_pass(fp_clos_ctx *c, int spread, int t, fp_sw_list *lo, fp_sw_list *hi, int fixed,
                      int64_t *need, int64_t *extra)
{
    const fp_rspec *rs = c->rs;
    pass ps;
    int64_t *zc = NULL;
    int ok = 0;
    memset(&ps, 0, sizeof ps);
    ps.t = t;
    ps.L = c->fab->tiers;
    ps.spread = spread;
    ps.fixed = fixed;
    ps.d = c->fab->size[t - 1].down;
    ps.U = c->fab->size[t - 2].up;
    ps.ch = t == ps.L ? lo->blocks : c->children[t];
    ps.nb = t == ps.L ? 1 : ceil_div(lo->blocks, ps.ch);
    if (fixed && hi->blocks < ps.nb)
        return 0;   /* the design has every block the present fabric has */
    ps.merged = fixed ? hi->merged : 0;
    if (!groups_make(&ps, lo, hi))
        goto out;
    int32_t *up0 = NULL;
    /* The top of 4 tiers only: over pods (3 tiers) a split inside a pod loses a little of the
     * bisection when the cores mix positions (max-flow on 20,000 GPUs), over zones it does not. */
    if (!fixed && t == ps.L && ps.L >= 4 && (up0 = malloc(sizeof *up0 * (size_t)(lo->n + 1))) == NULL)
        goto out;
    if (up0)
        memcpy(up0, lo->up, sizeof *up0 * (size_t)lo->n);
    const int64_t need0 = need ? *need : 0;
    int64_t per_position = 0, min_links = 0;
    partial_children(&ps, lo, extra);
    int64_t total = group_sizes(c, &ps, lo, hi, need, extra);
    if (up0) {
        /* The top tier as one group over every switch below, when that builds fewer than the
         * groups per position (a few zones or pods under-fill each position's group): a
         * switch's uplinks then spread over the whole tier, which carries every link at the
         * minimum count and keeps the bisection (each zone's share of every top switch). */
        pass pm = ps;
        pm.merged = 1;
        pm.limit = total;
        pm.gq_first = NULL;
        pm.gq_n = NULL;
        pm.gq_base = NULL;
        pm.mb = NULL;
        pm.inv = NULL;
        pm.G = 0;
        int32_t *up1 = malloc(sizeof *up1 * (size_t)(lo->n + 1));
        int ok_m = up1 != NULL && groups_make(&pm, lo, hi);
        if (ok_m) {
            int64_t need_m = 0;
            memcpy(up1, lo->up, sizeof *up1 * (size_t)lo->n);
            memcpy(lo->up, up0, sizeof *up0 * (size_t)lo->n);
            int64_t tm = group_sizes(c, &pm, lo, hi, &need_m, NULL);
            if (tm > 0 && tm < total) {
                pass_free(&ps);
                ps = pm;
                per_position = total;
                min_links = pm.min_links;
                total = tm;
                if (need)
                    *need = need0 + need_m;
            } else {
                memcpy(lo->up, up1, sizeof *up1 * (size_t)lo->n);
                pass_free(&pm);
            }
        } else {
            pass_free(&pm);
        }
        free(up1);
        free(up0);
        if (!ok_m)
            goto out;
    }
    if (!fixed && !upper_make(&ps, hi, total))
        goto out;
    if (!fixed) {
        hi->merged = ps.merged;
        hi->per_position = per_position;
        hi->min_links = min_links;
    }
    lo->upoff[0] = 0;
    for (int64_t i = 0; i < lo->n; i++)
        lo->upoff[i + 1] = lo->upoff[i] + lo->up[i];
    free(lo->tgt);
    free(lo->tport);
    lo->tgt = malloc(sizeof *lo->tgt * (size_t)(lo->upoff[lo->n] + 1));
    lo->tport = malloc(sizeof *lo->tport * (size_t)(lo->upoff[lo->n] + 1));
    zc = calloc((size_t)(hi->n ? hi->n : 1), sizeof *zc);
    if (lo->tgt == NULL || lo->tport == NULL || zc == NULL)
        goto out;
    uplinks_place(&ps, lo, hi, zc);
    for (int64_t i = 0; i < hi->n; i++)
        if (zc[i] > ps.d)
            goto out;   /* more links than down ports: cannot happen */
    if (!fixed)
        for (int64_t i = 0; i < hi->n; i++)
            hi->up[i] = t == ps.L ? 0 : (int32_t)up_for(rs, t - 1, hi->load[i]);
    ok = 1;
out:
    pass_free(&ps);
    free(zc);
    return ok;
}

int fp__clos_shape_make(fp_clos_ctx *c, int spread, int64_t servers, int64_t dservers,
                        fp_clos_shape *sh)
{
    const int L = c->fab->tiers;
    memset(sh, 0, sizeof *sh);
    if (!leaves_make(&sh->bt[1], c, servers) || !leaves_make(&sh->ds[1], c, dservers))
        return 0;
    for (int t = 2; t <= L; t++) {
        /* Tiers above the pods (in 2 tiers: the spines) are built for the design size. */
        sh->designed[t] = t >= 3 || t == L;
        if (!level_pass(c, spread, t, &sh->ds[t - 1], &sh->ds[t], 0,
                        sh->designed[t] ? &sh->need[t] : NULL, NULL))
            return 0;
        if (sh->designed[t]) {
            if (!list_copy(&sh->bt[t], &sh->ds[t]) ||
                !level_pass(c, spread, t, &sh->bt[t - 1], &sh->bt[t], 1, NULL,
                            &sh->extra_links[t - 1]))
                return 0;
        } else if (!level_pass(c, spread, t, &sh->bt[t - 1], &sh->bt[t], 0, &sh->need[t],
                               &sh->extra_links[t - 1])) {
            return 0;
        }
    }
    return 1;
}

int64_t fp__clos_max_positions(const fp_sw_list *l)
{
    int64_t m = 0;
    for (int64_t b = 0; b < l->blocks; b++)
        if (l->first[b + 1] - l->first[b] > m)
            m = l->first[b + 1] - l->first[b];
    return m;
}
