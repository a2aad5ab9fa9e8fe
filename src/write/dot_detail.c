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

/* A device as an HTML table whose cells are its ports, so every edge starts and ends at its
 * port's name: servers show their NIC ports (rail coloured) on the right; switches their down
 * ports on the left and up ports on the right. Returns an interned HTML string (agstrfree it). */
static char *port_table(Agraph_t *g, const fp_plan *plan, int64_t dev, char *buf, size_t cap)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_device *d = &fab->dev[dev];
    char dn[48], pn[FP_PORT_NAME_MAX];
    size_t k = 0;
    fp__device_name(dn, sizeof dn, fab, rs, dev);
#define PUT(...) (k += k < cap ? (size_t)snprintf(buf + k, cap - k, __VA_ARGS__) : 0)
    PUT("<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"2\">");
    if (d->tier == 0) {
        int ports = rs->nics_per_server * rs->nic.ports;
        PUT("<TR><TD BGCOLOR=\"%s\"><B>%s</B></TD></TR>", fill_of(0), dn);
        for (int p = 0; p < ports; p++)
            PUT("<TR><TD PORT=\"p%d\" ALIGN=\"RIGHT\"><FONT COLOR=\"%s\">%s</FONT></TD></TR>", p,
                fp__rail_colour(p / rs->nic.ports),
                fp__port_name(pn, sizeof pn, fab, rs, dev, p));
    } else {
        const fp_tier_size *ts = &fab->size[d->tier - 1];
        int rows = ts->down > ts->up ? ts->down : ts->up;
        const char *fill = fill_of(d->tier);
        PUT("<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"%s><B>%s</B></TD></TR>", fill,
            d->rail >= 0 ? "" : "", dn);
        if (d->rail >= 0)
            PUT("<TR><TD COLSPAN=\"2\" BGCOLOR=\"%s\"><FONT COLOR=\"white\">rail %d</FONT></TD></TR>",
                fp__rail_colour(d->rail), d->rail + 1);
        for (int r = 0; r < rows; r++) {
            PUT("<TR>");
            if (r < ts->down)
                PUT("<TD PORT=\"p%d\" ALIGN=\"LEFT\">%s</TD>", r,
                    fp__port_name(pn, sizeof pn, fab, rs, dev, r));
            else
                PUT("<TD BORDER=\"0\"></TD>");
            if (r < ts->up)
                PUT("<TD PORT=\"p%d\" ALIGN=\"RIGHT\">%s</TD>", ts->down + r,
                    fp__port_name(pn, sizeof pn, fab, rs, dev, ts->down + r));
            else
                PUT("<TD BORDER=\"0\"></TD>");
            PUT("</TR>");
        }
    }
    PUT("</TABLE>");
#undef PUT
    return agstrdup_html(g, buf);
}

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

    /* Count what is drawn first, to pick the engine before building. */
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
    Agraph_t *g = fp__dot_new_graph(sel.kind == 1 ? "su" : "pod", inner <= DOT_MAX_EDGES ? "dot" : "sfdp",
                            title);
    /* One node per device in the unit; stubs for the tier above (one per tier and plane). */
    Agnode_t **node = calloc((size_t)fab->n_dev, sizeof *node);
    int64_t n_stub = (int64_t)(FP_MAX_TIERS + 1) * fab->planes;
    Agnode_t **stub = calloc((size_t)n_stub, sizeof *stub);
    int64_t *out_count = calloc((size_t)fab->n_dev, sizeof *out_count);
    int64_t *out_stub = malloc((size_t)fab->n_dev * sizeof *out_stub);
    char *table = NULL;
    if (g == NULL || !node || !stub || !out_count || !out_stub) {
        rc = fp__error_set(err, FP_ENOMEM, path, "out of memory for the detail diagram");
        goto out;
    }
    /* Left to right: servers, leaves, spines, the tier above; each column is a stack of port
     * tables, so the picture grows down the page instead of across it. */
    set_attr(g, "rankdir", "LR");
    set_attr(g, "ranksep", "3.0");
    set_attr(g, "nodesep", "0.25");
    if (inner > DOT_MAX_EDGES) {
        set_attr(g, "overlap", "prism");
        set_attr(g, "outputorder", "edgesfirst");
    }
    agattr(g, AGNODE, S("shape"), S("box"));
    agattr(g, AGNODE, S("fontsize"), S("10"));
    agattr(g, AGEDGE, S("fontsize"), S("9"));
    agattr(g, AGEDGE, S("penwidth"), S("0.9"));
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
        char *html = port_table(g, plan, i, table, table_cap);
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
             * the .dot reads on its own. */
            snprintf(ap, sizeof ap, "p%d:e", l->a_port);
            snprintf(zp, sizeof zp, "p%d:w", l->z_port);
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
    /* Links leaving the unit: one edge per device to the tier it reaches, with the count. */
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
        }
        Agedge_t *e = agedge(g, node[i], stub[s], NULL, 1);
        snprintf(label, sizeof label, "%lld up", (long long)out_count[i]);
        set_attr(e, "label", label);
        set_attr(e, "style", "dashed");
        set_attr(e, "color", "#999999");
    }
out:
    free(table);
    free(node);
    free(stub);
    free(out_count);
    free(out_stub);
    if (rc != FP_OK) {
        if (g)
            agclose(g);
        return rc;
    }
    return fp__dot_emit(g, path, err);
}
