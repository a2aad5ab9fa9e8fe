/* fabplan — the detail diagram of one scalable unit or pod (su-N / pod-N .dot/.svg): every
 * device, port and link, rails coloured; see write_dot.c. */
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
static int whole_fabric_drawable(const fp_plan *plan)
{
    return fp__plan_fabric(plan)->n_link <= DOT_MAX_EDGES;
}

static int64_t units_of(const fp_plan *plan, int kind)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    if (kind == 1)
        return fp__plan_rspec(plan)->topology == FP_TOPO_RAIL ? fab->su_count : 0;
    /* A 2-tier leaf-spine is one pod: its detail is the whole fabric. Above 2 tiers, the level
     * above the spines groups leaves and spines into pods. */
    if (fab->tiers == 2)
        return fp__plan_rspec(plan)->topology != FP_TOPO_RAIL && whole_fabric_drawable(plan) ? 1 : 0;
    return fab->level[2].blocks;
}

static fp_status parse_selector(const fp_plan *plan, const fp_write_options *o, unit_sel *out,
                                fp_error *err)
{
    const char *s = o && o->version >= 2 ? o->detail : NULL;
    out->kind = 0;
    out->index = 0;
    out->whole = fp__plan_fabric(plan)->tiers == 2;
    if (s == NULL) {
        out->kind = units_of(plan, 1) > 0 ? 1 : units_of(plan, 2) > 0 ? 2 : 0;
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
    int64_t n = units_of(plan, out->kind);
    if (n == 0) {
        if (out->kind == 1)
            FP_FAIL(err, FP_EINVAL, "detail",
                    "detail \"%s\": this %s fabric has no scalable units (only rail-optimized fabrics do)%s",
                    s, fp_topology_name(fp__plan_rspec(plan)->topology),
                    units_of(plan, 2) ? "; use pod:N" : "");
        if (fp__plan_fabric(plan)->tiers == 2 && fp__plan_rspec(plan)->topology != FP_TOPO_RAIL)
            FP_FAIL(err, FP_EINVAL, "detail",
                    "detail \"%s\": a 2-tier fabric is one pod, and its %lld links are too many "
                    "to draw one by one (at most %d); fabric.svg shows it by groups",
                    s, (long long)fp__plan_fabric(plan)->n_link, DOT_MAX_EDGES);
        FP_FAIL(err, FP_EINVAL, "detail",
                "detail \"%s\": a %d-tier %s fabric has no pods (its unit is the scalable unit)%s",
                s, fp__plan_fabric(plan)->tiers, fp_topology_name(fp__plan_rspec(plan)->topology),
                units_of(plan, 1) ? "; use su:N" : "");
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
    if (n > 0)
        name[0] = '\0';
    if (parse_selector(plan, opts, &sel, why) != FP_OK)
        return 0;
    if (sel.kind == 0) {
        if (fp__plan_fabric(plan)->tiers == 2 && fp__plan_rspec(plan)->topology != FP_TOPO_RAIL)
            fp__error_set(why, FP_EINVAL, "detail",
                          "no detail diagram: this 2-tier fabric is one pod of %lld links, too many "
                          "to draw one by one (at most %d); fabric.svg shows it by groups",
                          (long long)fp__plan_fabric(plan)->n_link, DOT_MAX_EDGES);
        else
            fp__error_set(why, FP_EINVAL, "detail",
                          "no detail diagram: the fabric has neither scalable units nor pods");
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
    const fp_fabric *fab = fp__plan_fabric(plan);
    unit_sel sel;
    if (fab->tiers < 3 || parse_selector(plan, o, &sel, NULL) != FP_OK || sel.kind == 0)
        return 0;
    if (sel.kind == 2)
        return sel.index;
    for (int64_t i = fab->tier_base[1]; i < fab->n_dev && fab->dev[i].tier == 1; i++)
        if (fab->dev[i].su == sel.index)
            return fab->dev[i].pod;
    return 0;
}

static int in_unit(const fp_device *d, const unit_sel *sel)
{
    if (sel->kind == 1)
        return d->tier <= 1 && d->su == sel->index;
    return d->tier <= 2 && (sel->whole || d->pod == sel->index);
}

/* Rail colour of a link: the leaf's rail (rail-optimized), else the NIC it leaves from. */
static const char *link_colour(const fp_plan *plan, const fp_link *l)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_device *leaf = l->boundary == 0 ? &fab->dev[l->z] : l->boundary == 1 ? &fab->dev[l->a] : NULL;
    if (leaf && leaf->rail >= 0)
        return fp__rail_colour(leaf->rail);
    if (l->boundary == 0)
        return fp__rail_colour(l->a_port / fp__plan_rspec(plan)->nic.ports);
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

/* A device as an HTML table whose cells are its ports, so every edge starts and ends at its
 * port's name: servers show their NIC ports (rail coloured) on the side facing the leaves;
 * switches their down ports on the left and up ports on the right, or (a scalable unit's leaves)
 * down ports on the side of their server and the up ports named in a last row. Returns an
 * interned HTML string (agstrfree it); *w and *h get the table's estimated size in points. */
static char *port_table(Agraph_t *g, const fp_plan *plan, const detail_layout *dl, int64_t dev,
                        char *buf, size_t cap, double *w, double *h)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_device *d = &fab->dev[dev];
    char dn[48], pn[FP_PORT_NAME_MAX], pn2[FP_PORT_NAME_MAX];
    size_t k = 0;
    double wl = 0, wr = 0;
    int rows = 1;
    fp__device_name(dn, sizeof dn, fab, rs, dev);
#define PUT(...) (k += k < cap ? (size_t)snprintf(buf + k, cap - k, __VA_ARGS__) : 0)
#define WIDEN(v, s, b) ((v) = text_pt(s, b) > (v) ? text_pt(s, b) : (v))
    PUT("<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"2\">");
    if (d->tier == 0) {
        int ports = rs->nics_per_server * rs->nic.ports;
        int right = dl->side[dl->local[dev]] == 2;
        PUT("<TR><TD BGCOLOR=\"%s\"><B>%s</B></TD></TR>", fill_of(0), dn);
        WIDEN(wl, dn, 1);
        for (int p = 0; p < ports; p++, rows++) {
            PUT("<TR><TD PORT=\"p%d\" ALIGN=\"%s\"><FONT COLOR=\"%s\">%s</FONT></TD></TR>", p,
                right ? "LEFT" : "RIGHT", fp__rail_colour(p / rs->nic.ports),
                fp__port_name(pn, sizeof pn, fab, rs, dev, p));
            WIDEN(wl, pn, 0);
        }
    } else if (dl->two_sided && d->tier == 1) {
        const fp_tier_size *ts = &fab->size[0];
        const unsigned char *ps = dl->port_side + dl->local[dev] * dl->leaf_ports;
        int left[1024], rightp[1024], nl = 0, nr = 0;
        for (int p = 0; p < ts->down && p < 1024; p++) {
            if (ps[p] == 2)
                rightp[nr++] = p;
            else
                left[nl++] = p;
        }
        PUT("<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"><B>%s</B></TD></TR>", fill_of(1), dn);
        double whead = text_pt(dn, 1);
        rows++;
        if (d->rail >= 0) {
            PUT("<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"><FONT COLOR=\"white\">rail %d</FONT></TD></TR>",
                fp__rail_colour(d->rail), d->rail + 1);
            rows++;
        }
        for (int r = 0; r < (nl > nr ? nl : nr); r++, rows++) {
            PUT("<TR>");
            if (r < nl) {
                PUT("<TD PORT=\"p%d\" ALIGN=\"LEFT\">%s</TD>", left[r],
                    fp__port_name(pn, sizeof pn, fab, rs, dev, left[r]));
                WIDEN(wl, pn, 0);
            } else {
                PUT("<TD BORDER=\"0\"></TD>");
            }
            if (r < nr) {
                PUT("<TD PORT=\"p%d\" ALIGN=\"RIGHT\">%s</TD>", rightp[r],
                    fp__port_name(pn, sizeof pn, fab, rs, dev, rightp[r]));
                WIDEN(wr, pn, 0);
            } else {
                PUT("<TD BORDER=\"0\"></TD>");
            }
            PUT("</TR>");
        }
        if (ts->up > 0) {
            fp__port_name(pn, sizeof pn, fab, rs, dev, ts->down);
            fp__port_name(pn2, sizeof pn2, fab, rs, dev, ts->down + ts->up - 1);
            PUT("<TR><TD COLSPAN=\"2\" PORT=\"up\">up %s%s%s</TD></TR>", pn, ts->up > 1 ? " … " : "",
                ts->up > 1 ? pn2 : "");
            rows++;
        }
        if (whead > wl + wr)
            wl = whead - wr;
    } else {
        const fp_tier_size *ts = &fab->size[d->tier - 1];
        int n = ts->down > ts->up ? ts->down : ts->up;
        PUT("<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"><B>%s</B></TD></TR>", fill_of(d->tier), dn);
        double whead = text_pt(dn, 1);
        if (d->rail >= 0) {
            PUT("<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"><FONT COLOR=\"white\">rail %d</FONT></TD></TR>",
                fp__rail_colour(d->rail), d->rail + 1);
            rows++;
        }
        for (int r = 0; r < n; r++, rows++) {
            PUT("<TR>");
            if (r < ts->down) {
                PUT("<TD PORT=\"p%d\" ALIGN=\"LEFT\">%s</TD>", r,
                    fp__port_name(pn, sizeof pn, fab, rs, dev, r));
                WIDEN(wl, pn, 0);
            } else {
                PUT("<TD BORDER=\"0\"></TD>");
            }
            if (r < ts->up) {
                PUT("<TD PORT=\"p%d\" ALIGN=\"RIGHT\">%s</TD>", ts->down + r,
                    fp__port_name(pn, sizeof pn, fab, rs, dev, ts->down + r));
                WIDEN(wr, pn, 0);
            } else {
                PUT("<TD BORDER=\"0\"></TD>");
            }
            PUT("</TR>");
        }
        if (whead > wl + wr)
            wl = whead - wr;
    }
    PUT("</TABLE>");
#undef WIDEN
#undef PUT
    *w = wl + wr;
    *h = rows * ROW_PT + 2;
    return agstrdup_html(g, buf);
}

/* Column of a device (0 servers .. tiers - 1; the tiers outside stand right of the last). */
typedef struct column {
    double w, total;        /* widest node, stacked height */
    double x;               /* centre */
    double y;               /* running top while placing */
} column;

fp_status fp__write_detail(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    unit_sel sel;
    fp_status rc;
    char title[256], name[64], label[256];
    if ((rc = parse_selector(plan, o, &sel, err)) != FP_OK)
        return rc;
    if (sel.kind == 0)
        FP_FAIL(err, FP_EINVAL, "detail", "this fabric has neither scalable units nor pods to draw");

    int64_t inner = 0, n_in = 0;
    for (int64_t i = 0; i < fab->n_dev; i++)
        n_in += in_unit(&fab->dev[i], &sel);
    for (int64_t i = 0; i < fab->n_link; i++)
        inner += in_unit(&fab->dev[fab->link[i].a], &sel) && in_unit(&fab->dev[fab->link[i].z], &sel);
    const char *kind = sel.kind == 1 ? "scalable unit" : "pod";
    snprintf(title, sizeof title, "%s %lld%s — %lld devices, %lld links inside%s\n ", kind,
             (long long)sel.index + 1,
             sel.kind == 2 && sel.whole ? " (a 2-tier fabric is one pod: all of it)" : "",
             (long long)n_in, (long long)inner,
             rs->topology == FP_TOPO_RAIL ? "; colour = rail" : "; colour = NIC");
    Agraph_t *g = fp__dot_new_graph(sel.kind == 1 ? "su" : "pod", "nop", title);
    /* One node per device in the unit; stubs for the tier above (one per tier and plane). */
    Agnode_t **node = calloc((size_t)fab->n_dev, sizeof *node);
    int64_t n_stub = (int64_t)(FP_MAX_TIERS + 1) * fab->planes;
    Agnode_t **stub = calloc((size_t)n_stub, sizeof *stub);
    int64_t *out_count = calloc((size_t)fab->n_dev, sizeof *out_count);
    int64_t *out_stub = malloc((size_t)fab->n_dev * sizeof *out_stub);
    double *nw = malloc((size_t)fab->n_dev * sizeof *nw), *nh = malloc((size_t)fab->n_dev * sizeof *nh);
    detail_layout dl = { sel.kind == 1, NULL, NULL, NULL, 0, rs->tier[0].radix };
    dl.local = malloc((size_t)fab->n_dev * sizeof *dl.local);
    dl.side = calloc((size_t)fab->n_dev, 1);
    char *table = NULL;
    if (g == NULL || !node || !stub || !out_count || !out_stub || !nw || !nh || !dl.local || !dl.side) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for the detail diagram");
        goto out;
    }
    set_attr(g, "splines", "line");
    set_attr(g, "outputorder", "edgesfirst");
    agattr(g, AGNODE, S("shape"), S("box"));
    agattr(g, AGNODE, S("fontsize"), S("10"));
    agattr(g, AGEDGE, S("fontsize"), S("9"));
    agattr(g, AGEDGE, S("penwidth"), S("0.9"));
    /* Index of each device among the unit's devices of its tier; servers split in halves. */
    int64_t per_tier[FP_MAX_TIERS + 1] = { 0 };
    for (int64_t i = 0; i < fab->n_dev; i++)
        dl.local[i] = in_unit(&fab->dev[i], &sel) ? per_tier[fab->dev[i].tier]++ : -1;
    dl.n_leaf = per_tier[1];
    for (int64_t i = 0; i < fab->n_dev; i++)
        if (dl.local[i] >= 0 && fab->dev[i].tier == 0)
            dl.side[dl.local[i]] = dl.two_sided && dl.local[i] >= (per_tier[0] + 1) / 2 ? 2 : 1;
    if (dl.two_sided) {
        dl.port_side = calloc((size_t)(dl.n_leaf > 0 ? dl.n_leaf : 1) * (size_t)dl.leaf_ports, 1);
        if (dl.port_side == NULL) {
            rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for the detail diagram");
            goto out;
        }
        for (int64_t i = fab->boundary_base[0]; i < fab->boundary_base[1]; i++) {
            const fp_link *l = &fab->link[i];
            if (dl.local[l->a] >= 0 && dl.local[l->z] >= 0 && l->z_port < dl.leaf_ports)
                dl.port_side[dl.local[l->z] * dl.leaf_ports + l->z_port] = dl.side[dl.local[l->a]];
        }
    }
    size_t table_cap = (size_t)(rs->nics_per_server * rs->nic.ports + 2) * 160;
    for (int t = 0; t < fab->tiers; t++)
        if ((size_t)(rs->tier[t].radix + 4) * 160 > table_cap)
            table_cap = (size_t)(rs->tier[t].radix + 4) * 160;
    table = malloc(table_cap);
    if (table == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for the detail diagram");
        goto out;
    }
    for (int64_t i = 0; i < fab->n_dev; i++) {
        const fp_device *d = &fab->dev[i];
        if (!in_unit(d, &sel))
            continue;
        fp__device_name(name, sizeof name, fab, rs, i);
        node[i] = agnode(g, name, 1);
        char *html = port_table(g, plan, &dl, i, table, table_cap, &nw[i], &nh[i]);
        set_attr(node[i], "label", html);
        agstrfree(g, html);
        set_attr(node[i], "shape", "plain");
        set_attr(node[i], "style", "solid");
        set_attr(node[i], "tier", fp__tier_role(d->tier, fab->tiers));
    }
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        int ia = node[l->a] != NULL, iz = node[l->z] != NULL;
        char ap[FP_PORT_NAME_MAX], zp[FP_PORT_NAME_MAX];
        if (ia && iz) {
            Agedge_t *e = agedge(g, node[l->a], node[l->z], NULL, 1);
            /* The port names are drawn as the cells the edge joins; repeated as attributes so
             * the .dot reads on its own. A server right of the leaves leaves from its west. */
            int right = fab->dev[l->a].tier == 0 && dl.side[dl.local[l->a]] == 2;
            snprintf(ap, sizeof ap, "p%d:%s", l->a_port, right ? "w" : "e");
            snprintf(zp, sizeof zp, "p%d:%s", l->z_port, right ? "e" : "w");
            set_attr(e, "tailport", ap);
            set_attr(e, "headport", zp);
            set_attr(e, "a_port", fp__port_name(ap, sizeof ap, fab, rs, l->a, l->a_port));
            set_attr(e, "z_port", fp__port_name(zp, sizeof zp, fab, rs, l->z, l->z_port));
            set_attr(e, "color", link_colour(plan, l));
        } else if (ia || iz) {
            int64_t in = ia ? l->a : l->z, outside = ia ? l->z : l->a;
            const fp_device *od = &fab->dev[outside];
            out_count[in]++;
            out_stub[in] = (int64_t)od->plane * (FP_MAX_TIERS + 1) + od->tier;
        }
    }
    /* Place the columns: widths, stacked heights, then centres left to right. */
    int top_tier = 0;
    for (int t = 0; t <= FP_MAX_TIERS; t++)
        if (per_tier[t] > 0)
            top_tier = t;
    column col[FP_MAX_TIERS + 3];
    memset(col, 0, sizeof col);
    int right_col = top_tier + 1;       /* servers right of a unit's leaves */
    for (int64_t i = 0; i < fab->n_dev; i++) {
        if (node[i] == NULL)
            continue;
        int c = fab->dev[i].tier == 0 && dl.side[dl.local[i]] == 2 ? right_col : fab->dev[i].tier;
        col[c].w = nw[i] > col[c].w ? nw[i] : col[c].w;
        col[c].total += nh[i] + STACK_GAP;
    }
    double height = 0, x = 0;
    for (int c = 0; c <= right_col; c++)
        height = col[c].total > height ? col[c].total : height;
    /* Left to right: servers (left half), leaves, spines, servers (right half). */
    for (int c = 0; c <= right_col; c++) {
        if (col[c].w == 0)
            continue;
        col[c].x = x + col[c].w / 2;
        x += col[c].w + COL_GAP;
        col[c].y = height - (height - col[c].total) / 2;
    }
    for (int64_t i = 0; i < fab->n_dev; i++) {
        if (node[i] == NULL)
            continue;
        int c = fab->dev[i].tier == 0 && dl.side[dl.local[i]] == 2 ? right_col : fab->dev[i].tier;
        fp__dot_pin(node[i], col[c].x, col[c].y - nh[i] / 2);
        col[c].y -= nh[i] + STACK_GAP;
    }
    /* Links leaving the unit: one edge per device to the tier it reaches, with the count. The
     * stubs stand right of the top column; a unit's (servers on both sides) above its leaves. */
    double stub_x = dl.two_sided ? col[1].x + col[1].w / 2 + 90 : x + 60, stub_y = dl.two_sided ? height + 60 : height / 2;
    for (int64_t i = 0; i < fab->n_dev; i++) {
        if (out_count[i] == 0)
            continue;
        int64_t s = out_stub[i];
        int tier = (int)(s % (FP_MAX_TIERS + 1)), plane = (int)(s / (FP_MAX_TIERS + 1));
        if (stub[s] == NULL) {
            snprintf(name, sizeof name, "outside-%s-plane%d", role_plural(tier), plane + 1);
            stub[s] = agnode(g, name, 1);
            snprintf(label, sizeof label, "%s outside this %s%s", role_plural(tier), kind,
                     fab->planes > 1 ? " (this plane)" : "");
            set_attr(stub[s], "label", label);
            set_attr(stub[s], "fillcolor", fill_of(tier));
            set_attr(stub[s], "style", "filled,dashed");
            set_attr(stub[s], "tier", fp__tier_role(tier, fab->tiers));
            fp__dot_pin(stub[s], stub_x + 40, stub_y);
            stub_y -= 50;
        }
        Agedge_t *e = agedge(g, node[i], stub[s], NULL, 1);
        snprintf(label, sizeof label, "%lld up", (long long)out_count[i]);
        set_attr(e, "label", label);
        set_attr(e, "style", "dashed");
        set_attr(e, "color", "#999999");
        if (dl.two_sided && fab->dev[i].tier == 1)
            set_attr(e, "tailport", "up:e");
    }
out:
    free(table);
    free(node);
    free(stub);
    free(out_count);
    free(out_stub);
    free(nw);
    free(nh);
    free(dl.local);
    free(dl.side);
    free(dl.port_side);
    if (rc != FP_OK) {
        if (g)
            agclose(g);
        return rc;
    }
    return fp__dot_emit(g, path, err);
}
