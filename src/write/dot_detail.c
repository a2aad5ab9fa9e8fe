/* fabplan — the detail diagram of one scalable unit or pod (su-N / pod-N .dot/.svg): every
 * device, port and link, rails coloured; see write_dot.c. */
#include <stdarg.h>
#include "write/dot.h"

/* ------------------------------------------------------------------------------------------ */
/* Detail of one scalable unit or pod. */

typedef struct unit_sel {
    int kind;               /* 1 = su, 2 = pod, 0 = none */
    int64_t index;          /* 0-based */
    int whole;              /* pod of a 2-tier fabric: every device (they carry no pod number) */
} unit_sel;

/* A 2-tier fabric's one pod is drawn link by link only while dot can lay it out; sfdp's
 * picture of thousands of port-to-port links is a hairball nobody can read. */
static int whole_fabric_drawable(const fp_shape *sh)
{
    return sh->links <= DOT_MAX_EDGES;
}

static int64_t units_of(const fp_shape *sh, int kind)
{
    if (kind == 1)
        return sh->topology == FP_TOPO_RAIL ? sh->su_count : 0;
    /* A 2-tier leaf-spine is one pod: its detail is the whole fabric. Above 2 tiers, the level
     * above the spines groups leaves and spines into pods. */
    if (sh->tiers == 2)
        return sh->topology != FP_TOPO_RAIL && whole_fabric_drawable(sh) ? 1 : 0;
    return sh->level[2].blocks;
}

static fp_status parse_selector(const fp_plan *plan, const fp_write_options *o, unit_sel *out,
                                fp_error *err)
{
    const char *s = o->detail;
    fp_shape sh;
    fp__plan_shape(plan, &sh);
    out->kind = 0;
    out->index = 0;
    out->whole = sh.tiers == 2;
    if (s == NULL) {
        out->kind = units_of(&sh, 1) > 0 ? 1 : units_of(&sh, 2) > 0 ? 2 : 0;
        return FP_OK;
    }
    const char *num;
    if (strncmp(s, "su:", 3) == 0) {
        out->kind = 1;
        num = s + 3;
    } else if (strncmp(s, "pod:", 4) == 0) {
        out->kind = 2;
        num = s + 4;
    } else {
        FP_FAIL(err, FP_EINVAL, "detail", "detail \"%s\": expected su:N or pod:N (N from 1)", s);
    }
    char *end;
    long long v = strtoll(num, &end, 10);
    if (*num < '0' || *num > '9' || *end != '\0' || v < 1)
        FP_FAIL(err, FP_EINVAL, "detail", "detail \"%s\": expected a number from 1 after \"%s\"",
                s, out->kind == 1 ? "su:" : "pod:");
    int64_t n = units_of(&sh, out->kind);
    if (n == 0) {
        if (out->kind == 1)
            FP_FAIL(err, FP_EINVAL, "detail",
                    "detail \"%s\": this %s fabric has no scalable units (only rail-optimized fabrics do)%s",
                    s, fp_topology_name(sh.topology), units_of(&sh, 2) ? "; use pod:N" : "");
        if (sh.tiers == 2 && sh.topology != FP_TOPO_RAIL)
            FP_FAIL(err, FP_EINVAL, "detail",
                    "detail \"%s\": a 2-tier fabric is one pod, and its %lld links are too many "
                    "to draw one by one (at most %d); fabric.svg shows it by groups",
                    s, (long long)sh.links, DOT_MAX_EDGES);
        FP_FAIL(err, FP_EINVAL, "detail",
                "detail \"%s\": a %d-tier %s fabric has no pods (its unit is the scalable unit)%s",
                s, sh.tiers, fp_topology_name(sh.topology), units_of(&sh, 1) ? "; use su:N" : "");
    }
    if (v > n)
        FP_FAIL(err, FP_EINVAL, "detail", "detail \"%s\": the plan has %lld %s%s (%s:1 to %s:%lld)",
                s, (long long)n, out->kind == 1 ? "scalable unit" : "pod", n == 1 ? "" : "s",
                out->kind == 1 ? "su" : "pod", out->kind == 1 ? "su" : "pod", (long long)n);
    out->index = v - 1;
    return FP_OK;
}

int fp_plan_detail_unit(const fp_plan *plan, const fp_write_options *opts, char *name, size_t n,
                        fp_error *why)
{
    unit_sel sel;
    fp_write_options normal;
    if (name != NULL && n > 0)
        name[0] = '\0';
    if (plan == NULL || name == NULL || n == 0) {
        fp__error_set(why, FP_EINVAL, "", "fp_plan_detail_unit: %s", plan == NULL ? "plan is NULL" :
                      "no room for the name");
        return 0;
    }
    if (fp__write_options_normal(opts, &normal, "fp_plan_detail_unit", why) != FP_OK ||
        parse_selector(plan, &normal, &sel, why) != FP_OK)
        return 0;
    if (sel.kind == 0) {
        fp_shape sh;
        fp__plan_shape(plan, &sh);
        if (sh.tiers == 2 && sh.topology != FP_TOPO_RAIL)
            fp__error_set(why, FP_EINVAL, "detail",
                          "this 2-tier fabric is one pod of %lld links, too many to draw one by "
                          "one (at most %d); fabric.svg shows it by groups",
                          (long long)sh.links, DOT_MAX_EDGES);
        else
            fp__error_set(why, FP_EINVAL, "detail",
                          "the fabric has neither scalable units nor pods");
        return 0;
    }
    snprintf(name, n, "%s-%lld", sel.kind == 1 ? "su" : "pod", (long long)sel.index + 1);
    return 1;
}

fp_status fp__detail_check(const fp_plan *plan, const fp_write_options *o, fp_error *err)
{
    unit_sel sel;
    return parse_selector(plan, o, &sel, err);
}

int fp__detail_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                         char *buf, size_t n)
{
    unit_sel sel;
    if (parse_selector(plan, o, &sel, NULL) != FP_OK || sel.kind == 0)
        return 0;
    snprintf(buf, n, "%s-%lld.%s", sel.kind == 1 ? "su" : "pod", (long long)sel.index + 1, ext);
    return 1;
}

/* The pod (0-based) holding the unit the detail diagram draws: su:N's pod, pod:N itself, 0 for
 * a 2-tier fabric (one group) or when no unit is selected or the selector is bad. */
int64_t fp__detail_pod(const fp_plan *plan, const fp_write_options *o)
{
    fp_shape sh;
    unit_sel sel;
    fp__plan_shape(plan, &sh);
    if (sh.tiers < 3 || parse_selector(plan, o, &sel, NULL) != FP_OK || sel.kind == 0)
        return 0;
    if (sel.kind == 2)
        return sel.index;
    for (int64_t i = sh.tier_base[1]; i < sh.devices; i++) {
        fp_device d = fp__shape_device(&sh, i);
        if (d.tier != 1)
            break;
        if (d.su == sel.index)
            return d.pod;
    }
    return 0;
}

static int in_unit(const fp_device *d, const unit_sel *sel)
{
    if (sel->kind == 1)
        return d->tier <= 1 && d->su == sel->index;
    return d->tier <= 2 && (sel->whole || d->pod == sel->index);
}

/* Whether device i is one the unit holds. */
static int dev_in_unit(const fp_shape *sh, int64_t i, const unit_sel *sel)
{
    fp_device d = fp__shape_device(sh, i);
    return in_unit(&d, sel);
}

/* Rail colour of a link: the leaf's rail (rail-optimized), else the NIC it leaves from. */
static const char *link_colour(const fp_shape *sh, const fp_link *l)
{
    if (l->boundary <= 1) {
        fp_device leaf = fp__shape_device(sh, l->boundary == 0 ? l->z : l->a);
        if (leaf.rail >= 0)
            return fp__rail_colour(leaf.rail);
    }
    if (l->boundary == 0)
        return fp__rail_colour(l->a_port / sh->nic_ports);
    return "#777777";
}

/* fabplan lays the detail out itself and Graphviz only draws it ("nop": neato -n takes the node
 * positions as given and draws each edge as a straight line between its two port cells): dot's
 * network simplex took ~0.9 s of every run on a 2,000-link pod and drew a 32-server unit as an
 * 801 x 6,431 pt strip. Columns, left to right: servers, leaves, spines, the tiers outside. A
 * scalable unit (servers and leaves only) puts half its servers on each side of the leaves, each
 * leaf showing the down ports of the left servers on its left and of the right ones on its
 * right, which halves the page's height. Table rows are ROW_PT high at font size 10; widths are
 * estimated from the longest text (Helvetica averages under 0.6 em a character). */
#define ROW_PT 17.0
#define CHAR_PT 6.2
#define COL_GAP 320.0
#define STACK_GAP 14.0

/* Side of the leaves a down port's server stands on (1 = left, 2 = right, 0 = none inside). */
typedef struct detail_layout {
    int two_sided;
    int64_t *local;         /* per device: index among the unit's devices of its tier */
    unsigned char *side;    /* per server: 1 left, 2 right; per (leaf, port) below */
    unsigned char *port_side;
    int64_t n_leaf;
    int leaf_ports;
} detail_layout;

static double text_pt(const char *s, int bold)
{
    return (double)strlen(s) * (bold ? CHAR_PT + 0.5 : CHAR_PT) + 8.0;
}

/* The HTML of a port table being written: text, its estimated widths left and right of the
 * middle, and its rows. */
typedef struct table {
    char *buf;
    size_t cap, k;
    double wl, wr;
    int rows;
} table;

static void put(table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (t->k < t->cap)
        t->k += (size_t)vsnprintf(t->buf + t->k, t->cap - t->k, fmt, ap);
    va_end(ap);
}

static void widen(double *v, const char *s, int bold)
{
    if (text_pt(s, bold) > *v)
        *v = text_pt(s, bold);
}

/* A row of two port cells, p on the left and q on the right (-1: an empty cell). */
static void port_row(table *t, const fp_plan *plan, int64_t dev, int p, int q)
{
    char pn[FP_PORT_NAME_MAX];
    put(t, "<TR>");
    if (p >= 0) {
        put(t, "<TD PORT=\"p%d\" ALIGN=\"LEFT\">%s</TD>", p,
            fp__plan_port_name(plan, dev, p, pn, sizeof pn));
        widen(&t->wl, pn, 0);
    } else {
        put(t, "<TD BORDER=\"0\"></TD>");
    }
    if (q >= 0) {
        put(t, "<TD PORT=\"p%d\" ALIGN=\"RIGHT\">%s</TD>", q,
            fp__plan_port_name(plan, dev, q, pn, sizeof pn));
        widen(&t->wr, pn, 0);
    } else {
        put(t, "<TD BORDER=\"0\"></TD>");
    }
    put(t, "</TR>");
}

/* A server: its NIC ports (rail coloured) on the side facing the leaves. */
static void server_table(table *t, const fp_plan *plan, const fp_shape *sh,
                         const detail_layout *dl, int64_t dev, const char *dn)
{
    char pn[FP_PORT_NAME_MAX];
    int ports = sh->nics_per_server * sh->nic_ports;
    int right = dl->side[dl->local[dev]] == 2;
    put(t, "<TR><TD BGCOLOR=\"%s\"><B>%s</B></TD></TR>", fp__dot_role_fill(0), dn);
    widen(&t->wl, dn, 1);
    for (int p = 0; p < ports; p++, t->rows++) {
        put(t, "<TR><TD PORT=\"p%d\" ALIGN=\"%s\"><FONT COLOR=\"%s\">%s</FONT></TD></TR>", p,
            right ? "LEFT" : "RIGHT", fp__rail_colour(p / sh->nic_ports),
            fp__plan_port_name(plan, dev, p, pn, sizeof pn));
        widen(&t->wl, pn, 0);
    }
}

/* A switch's name and, for a rail leaf, its rail. */
static void switch_head(table *t, const fp_device *d, const char *dn)
{
    put(t, "<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"><B>%s</B></TD></TR>", fp__dot_role_fill(d->tier),
        dn);
    if (d->rail >= 0) {
        put(t, "<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"><FONT COLOR=\"white\">rail %d</FONT></TD></TR>",
            fp__rail_colour(d->rail), d->rail + 1);
        t->rows++;
    }
}

/* A scalable unit's leaf: down ports on the side of their server, the up ports in a last row. */
static void unit_leaf_table(table *t, const fp_plan *plan, const fp_shape *sh,
                            const detail_layout *dl, int64_t dev, const fp_device *d,
                            const char *dn, int64_t up_out)
{
    char pn[FP_PORT_NAME_MAX], pn2[FP_PORT_NAME_MAX];
    const fp_tier_size *ts = &sh->size[0];
    const unsigned char *ps = dl->port_side + dl->local[dev] * dl->leaf_ports;
    int left[1024], rightp[1024], nl = 0, nr = 0;
    for (int p = 0; p < ts->down && p < 1024; p++) {
        if (ps[p] == 2)
            rightp[nr++] = p;
        else
            left[nl++] = p;
    }
    t->rows++;
    switch_head(t, d, dn);
    for (int r = 0; r < (nl > nr ? nl : nr); r++, t->rows++)
        port_row(t, plan, dev, r < nl ? left[r] : -1, r < nr ? rightp[r] : -1);
    if (ts->up > 0) {
        char row[3 * FP_PORT_NAME_MAX + 40], count[32] = "", c[32];
        fp__plan_port_name(plan, dev, ts->down, pn, sizeof pn);
        fp__plan_port_name(plan, dev, ts->down + ts->up - 1, pn2, sizeof pn2);
        if (up_out > 0)
            snprintf(count, sizeof count, "%s ", fp__grouped_int(c, sizeof c, up_out));
        snprintf(row, sizeof row, "%sup %s%s%s", count, pn, ts->up > 1 ? " … " : "",
                 ts->up > 1 ? pn2 : "");
        put(t, "<TR><TD COLSPAN=\"2\" PORT=\"up\">%s</TD></TR>", row);
        t->rows++;
        if (text_pt(row, 0) > t->wl + t->wr)
            t->wl = text_pt(row, 0) - t->wr;
    }
}

/* Any other switch: down ports on the left, up ports on the right. */
static void switch_table(table *t, const fp_plan *plan, const fp_shape *sh, int64_t dev,
                         const fp_device *d, const char *dn, int64_t up_out)
{
    const fp_tier_size *ts = &sh->size[d->tier - 1];
    int n = ts->down > ts->up ? ts->down : ts->up;
    switch_head(t, d, dn);
    for (int r = 0; r < n; r++, t->rows++)
        port_row(t, plan, dev, r < ts->down ? r : -1, r < ts->up ? ts->down + r : -1);
    if (up_out > 0) {
        /* The links leaving the unit, the row their one edge leaves from. */
        char c[32];
        put(t, "<TR><TD COLSPAN=\"2\" PORT=\"up\">%s up, out of this unit</TD></TR>",
            fp__grouped_int(c, sizeof c, up_out));
        t->rows++;
    }
}

/* A device as an HTML table whose cells are its ports, so every edge starts and ends at its
 * port's name (server_table, unit_leaf_table, switch_table). Returns an interned HTML string
 * (agstrfree it); *w and *h get the table's estimated size in points. */
static char *port_table(Agraph_t *g, const fp_plan *plan, const fp_shape *sh,
                        const detail_layout *dl, int64_t dev, int64_t up_out, char *buf,
                        size_t cap, double *w, double *h)
{
    const fp_device d = fp__shape_device(sh, dev);
    char dn[48];
    table t = { buf, cap, 0, 0, 0, 1 };
    fp__plan_device_name(plan, dev, dn, sizeof dn);
    put(&t, "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"2\">");
    if (d.tier == 0) {
        server_table(&t, plan, sh, dl, dev, dn);
    } else {
        if (dl->two_sided && d.tier == 1)
            unit_leaf_table(&t, plan, sh, dl, dev, &d, dn, up_out);
        else
            switch_table(&t, plan, sh, dev, &d, dn, up_out);
        double whead = text_pt(dn, 1);
        if (whead > t.wl + t.wr)
            t.wl = whead - t.wr;
    }
    put(&t, "</TABLE>");
    *w = t.wl + t.wr;
    *h = t.rows * ROW_PT + 2;
    return agstrdup_html(g, buf);
}

/* Column of a device (0 servers .. tiers - 1; the tiers outside stand right of the last). */
typedef struct column {
    double w, total;        /* widest node, stacked height */
    double x;               /* centre */
    double y;               /* running top while placing */
} column;

/* One detail diagram being drawn: the unit, its layout, and per device its node, its size and
 * the links it has to devices outside the unit (out_count, to stub out_stub). */
typedef struct detail {
    const fp_plan *plan;
    fp_shape sh;
    unit_sel sel;
    detail_layout dl;
    Agraph_t *g;
    Agnode_t **node, **stub;
    int64_t *out_count, *out_stub;
    double *nw, *nh;
    int64_t per_tier[FP_MAX_TIERS + 1];   /* the unit's devices per tier */
    char *table;
    size_t table_cap;
} detail;

static void detail_free(detail *dt)
{
    free(dt->table);
    free(dt->node);
    free(dt->stub);
    free(dt->out_count);
    free(dt->out_stub);
    free(dt->nw);
    free(dt->nh);
    free(dt->dl.local);
    free(dt->dl.side);
    free(dt->dl.port_side);
}

/* The graph, titled with the unit and its counts of devices and links inside; NULL when out of
 * memory. */
static Agraph_t *detail_graph(const detail *dt)
{
    char title[256];
    int64_t inner = 0, n_in = 0;
    for (int64_t i = 0; i < dt->sh.devices; i++)
        n_in += dev_in_unit(&dt->sh, i, &dt->sel);
    for (int64_t i = 0; i < dt->sh.links; i++) {
        fp_link l = fp__shape_link(&dt->sh, i);
        inner += dev_in_unit(&dt->sh, l.a, &dt->sel) && dev_in_unit(&dt->sh, l.z, &dt->sel);
    }
    char a[32], b[32];
    snprintf(title, sizeof title, "%s %lld%s — %s devices, %s links inside%s\n ",
             dt->sel.kind == 1 ? "scalable unit" : "pod", (long long)dt->sel.index + 1,
             dt->sel.kind == 2 && dt->sel.whole ? " (a 2-tier fabric is one pod: all of it)" : "",
             fp__grouped_int(a, sizeof a, n_in), fp__grouped_int(b, sizeof b, inner),
             dt->sh.topology == FP_TOPO_RAIL ? "; colour = rail" : "; colour = NIC");
    return fp__dot_new_graph(dt->sel.kind == 1 ? "su" : "pod", "nop", title);
}

/* Allocates the per-device arrays and the table buffer; -1 when out of memory. */
static int detail_alloc(detail *dt)
{
    const fp_shape *sh = &dt->sh;
    size_t n = (size_t)sh->devices;
    int64_t n_stub = (int64_t)(FP_MAX_TIERS + 1) * sh->planes;
    dt->node = calloc(n, sizeof *dt->node);
    dt->stub = calloc((size_t)n_stub, sizeof *dt->stub);
    dt->out_count = calloc(n, sizeof *dt->out_count);
    dt->out_stub = malloc(n * sizeof *dt->out_stub);
    dt->nw = malloc(n * sizeof *dt->nw);
    dt->nh = malloc(n * sizeof *dt->nh);
    dt->dl.local = malloc(n * sizeof *dt->dl.local);
    dt->dl.side = calloc(n, 1);
    dt->table_cap = (size_t)(sh->nics_per_server * sh->nic_ports + 2) * 160;
    for (int t = 0; t < sh->tiers; t++)
        if ((size_t)(sh->radix[t] + 4) * 160 > dt->table_cap)
            dt->table_cap = (size_t)(sh->radix[t] + 4) * 160;
    return dt->node && dt->stub && dt->out_count && dt->out_stub && dt->nw && dt->nh &&
           dt->dl.local && dt->dl.side ? 0 : -1;
}

/* Index of each device among the unit's devices of its tier; servers split in halves, and a
 * unit's leaf ports on the side of their server. -1 when out of memory. */
static int detail_sides(detail *dt)
{
    detail_layout *dl = &dt->dl;
    for (int64_t i = 0; i < dt->sh.devices; i++) {
        fp_device d = fp__shape_device(&dt->sh, i);
        dl->local[i] = in_unit(&d, &dt->sel) ? dt->per_tier[d.tier]++ : -1;
    }
    dl->n_leaf = dt->per_tier[1];
    /* Links leaving the unit, per device and the tier and plane they reach (before the nodes:
     * each device's table says how many). */
    for (int64_t i = 0; i < dt->sh.links; i++) {
        const fp_link l = fp__shape_link(&dt->sh, i);
        int ia = dl->local[l.a] >= 0, iz = dl->local[l.z] >= 0;
        if (ia != iz) {
            int64_t in = ia ? l.a : l.z, outside = ia ? l.z : l.a;
            const fp_device od = fp__shape_device(&dt->sh, outside);
            dt->out_count[in]++;
            dt->out_stub[in] = (int64_t)od.plane * (FP_MAX_TIERS + 1) + od.tier;
        }
    }
    for (int64_t i = 0; i < dt->sh.devices; i++)
        if (dl->local[i] >= 0 && fp__shape_device(&dt->sh, i).tier == 0)
            dl->side[dl->local[i]] =
                dl->two_sided && dl->local[i] >= (dt->per_tier[0] + 1) / 2 ? 2 : 1;
    if (!dl->two_sided)
        return 0;
    dl->port_side = calloc((size_t)(dl->n_leaf > 0 ? dl->n_leaf : 1) * (size_t)dl->leaf_ports, 1);
    if (dl->port_side == NULL)
        return -1;
    for (int64_t i = dt->sh.boundary_base[0]; i < dt->sh.boundary_base[1]; i++) {
        fp_link l = fp__shape_link(&dt->sh, i);
        if (dl->local[l.a] >= 0 && dl->local[l.z] >= 0 && l.z_port < dl->leaf_ports)
            dl->port_side[dl->local[l.z] * dl->leaf_ports + l.z_port] = dl->side[dl->local[l.a]];
    }
    return 0;
}

/* A node per device in the unit, drawn as its port table. */
static void detail_nodes(detail *dt)
{
    char name[64];
    for (int64_t i = 0; i < dt->sh.devices; i++) {
        fp_device d = fp__shape_device(&dt->sh, i);
        if (!in_unit(&d, &dt->sel))
            continue;
        fp__plan_device_name(dt->plan, i, name, sizeof name);
        dt->node[i] = agnode(dt->g, name, 1);
        char *html = port_table(dt->g, dt->plan, &dt->sh, &dt->dl, i, dt->out_count[i],
                                dt->table, dt->table_cap, &dt->nw[i], &dt->nh[i]);
        set_attr(dt->node[i], "label", html);
        agstrfree(dt->g, html);
        set_attr(dt->node[i], "shape", "plain");
        set_attr(dt->node[i], "style", "solid");
        set_attr(dt->node[i], "tier", fp__tier_role(d.tier));
    }
}

/* An edge per link inside the unit, port cell to port cell (links leaving it are counted by
 * detail_sides). */
static void detail_edges(detail *dt)
{
    for (int64_t i = 0; i < dt->sh.links; i++) {
        const fp_link l = fp__shape_link(&dt->sh, i);
        int ia = dt->node[l.a] != NULL, iz = dt->node[l.z] != NULL;
        char ap[FP_PORT_NAME_MAX], zp[FP_PORT_NAME_MAX];
        if (ia && iz) {
            Agedge_t *e = agedge(dt->g, dt->node[l.a], dt->node[l.z], NULL, 1);
            /* The port names are drawn as the cells the edge joins; repeated as attributes so
             * the .dot reads on its own. A server right of the leaves leaves from its west. */
            int right = fp__shape_device(&dt->sh, l.a).tier == 0 &&
                        dt->dl.side[dt->dl.local[l.a]] == 2;
            snprintf(ap, sizeof ap, "p%d:%s", l.a_port, right ? "w" : "e");
            snprintf(zp, sizeof zp, "p%d:%s", l.z_port, right ? "e" : "w");
            set_attr(e, "tailport", ap);
            set_attr(e, "headport", zp);
            set_attr(e, "a_port", fp__plan_port_name(dt->plan, l.a, l.a_port, ap, sizeof ap));
            set_attr(e, "z_port", fp__plan_port_name(dt->plan, l.z, l.z_port, zp, sizeof zp));
            set_attr(e, "color", link_colour(&dt->sh, &l));
        }
    }
}

/* Column of device i: its tier, or right_col for a server right of a unit's leaves. */
static int column_of(const detail *dt, int64_t i, int right_col)
{
    int tier = fp__shape_device(&dt->sh, i).tier;
    return tier == 0 && dt->dl.side[dt->dl.local[i]] == 2 ? right_col : tier;
}

/* Place the columns: widths, stacked heights, then centres left to right (servers (left half),
 * leaves, spines, servers (right half)), and pin every node. *height and *x get the drawing's
 * height and right edge. */
static void place_columns(detail *dt, column *col, double *height, double *x)
{
    int top_tier = 0;
    for (int t = 0; t <= FP_MAX_TIERS; t++)
        if (dt->per_tier[t] > 0)
            top_tier = t;
    memset(col, 0, (FP_MAX_TIERS + 3) * sizeof *col);
    int right_col = top_tier + 1;       /* servers right of a unit's leaves */
    for (int64_t i = 0; i < dt->sh.devices; i++) {
        if (dt->node[i] == NULL)
            continue;
        int c = column_of(dt, i, right_col);
        col[c].w = dt->nw[i] > col[c].w ? dt->nw[i] : col[c].w;
        col[c].total += dt->nh[i] + STACK_GAP;
    }
    *height = 0;
    *x = 0;
    for (int c = 0; c <= right_col; c++)
        *height = col[c].total > *height ? col[c].total : *height;
    for (int c = 0; c <= right_col; c++) {
        if (col[c].w == 0)
            continue;
        col[c].x = *x + col[c].w / 2;
        *x += col[c].w + COL_GAP;
        col[c].y = *height - (*height - col[c].total) / 2;
    }
    for (int64_t i = 0; i < dt->sh.devices; i++) {
        if (dt->node[i] == NULL)
            continue;
        int c = column_of(dt, i, right_col);
        fp__dot_pin(dt->node[i], col[c].x, col[c].y - dt->nh[i] / 2);
        col[c].y -= dt->nh[i] + STACK_GAP;
    }
}

/* Links leaving the unit: one edge per device to the tier it reaches, with the count. The
 * stubs stand at (stub_x, stub_y) down. */
static void stub_edges(detail *dt, double stub_x, double stub_y)
{
    char name[64], label[256];
    const char *kind = dt->sel.kind == 1 ? "scalable unit" : "pod";
    for (int64_t i = 0; i < dt->sh.devices; i++) {
        if (dt->out_count[i] == 0)
            continue;
        int64_t s = dt->out_stub[i];
        int tier = (int)(s % (FP_MAX_TIERS + 1)), plane = (int)(s / (FP_MAX_TIERS + 1));
        if (dt->stub[s] == NULL) {
            snprintf(name, sizeof name, "outside-%s-plane%d", fp__dot_role_plural(tier), plane + 1);
            dt->stub[s] = agnode(dt->g, name, 1);
            snprintf(label, sizeof label, "%s outside this %s%s", fp__dot_role_plural(tier), kind,
                     dt->sh.planes > 1 ? " (this plane)" : "");
            set_attr(dt->stub[s], "label", label);
            set_attr(dt->stub[s], "fillcolor", fp__dot_role_fill(tier));
            set_attr(dt->stub[s], "style", "filled,dashed");
            set_attr(dt->stub[s], "tier", fp__tier_role(tier));
            fp__dot_pin(dt->stub[s], stub_x + 40, stub_y);
            stub_y -= 50;
        }
        Agedge_t *e = agedge(dt->g, dt->node[i], dt->stub[s], NULL, 1);
        /* The count is in the device's table, on the row the edge leaves from ("32 up: ..."),
         * not a label mid-line among the other devices' links; repeated for the .dot. */
        snprintf(label, sizeof label, "%lld", (long long)dt->out_count[i]);
        set_attr(e, "links", label);
        set_attr(e, "style", "dashed");
        set_attr(e, "color", "#999999");
        if (fp__shape_device(&dt->sh, i).tier >= 1)
            set_attr(e, "tailport", "up:e");
    }
}

fp_status fp__write_detail(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err)
{
    detail dt;
    fp_status rc;
    memset(&dt, 0, sizeof dt);
    dt.plan = plan;
    fp__plan_shape(plan, &dt.sh);
    if ((rc = parse_selector(plan, o, &dt.sel, err)) != FP_OK)
        return rc;
    if (dt.sel.kind == 0)
        FP_FAIL(err, FP_EINVAL, "detail", "this fabric has neither scalable units nor pods to draw");
    dt.g = detail_graph(&dt);
    /* One node per device in the unit; stubs for the tier above (one per tier and plane). */
    dt.dl = (detail_layout){ dt.sel.kind == 1, NULL, NULL, NULL, 0, dt.sh.radix[0] };
    if (dt.g == NULL || detail_alloc(&dt) != 0 || detail_sides(&dt) != 0 ||
        (dt.table = malloc(dt.table_cap)) == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for the detail diagram");
        goto out;
    }
    set_attr(dt.g, "splines", "line");
    set_attr(dt.g, "outputorder", "edgesfirst");
    agattr(dt.g, AGNODE, S("shape"), S("box"));
    agattr(dt.g, AGNODE, S("fontsize"), S("10"));
    agattr(dt.g, AGEDGE, S("fontsize"), S("9"));
    agattr(dt.g, AGEDGE, S("penwidth"), S("0.9"));
    detail_nodes(&dt);
    detail_edges(&dt);
    column col[FP_MAX_TIERS + 3];
    double height, x;
    place_columns(&dt, col, &height, &x);
    /* The stubs stand right of the top column; a unit's (servers on both sides) above its
     * leaves. */
    stub_edges(&dt, dt.dl.two_sided ? col[1].x + col[1].w / 2 + 90 : x + 60,
               dt.dl.two_sided ? height + 60 : height / 2);
out:
    detail_free(&dt);
    if (rc != FP_OK) {
        if (dt.g)
            agclose(dt.g);
        return rc;
    }
    return fp__dot_emit(dt.g, path, err);
}
