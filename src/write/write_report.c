/* fabplan — report.html: the plan on one page to send a reviewer. Self-contained: inline CSS,
 * charts drawn here as inline SVG, the diagrams of this run inlined; no script, no fonts or
 * images fetched (a Content-Security-Policy forbids any request). Sections: key figures, tiers,
 * BOM by category with cost and power charts, media mix per boundary, optics per GPU,
 * bisection and hops, reliability, the diagrams, the notes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

static const char *const medium_colour[FP_MEDIUM_COUNT] = { "#7f7f7f", "#a6a6a6", "#5b9bd5",
                                                           "#2ab0b0", "#e0b000", "#8e6cc0" };
static const char *const category[] = { "switch", "nic", "transceiver", "copper", "fibre" };
static const char *const category_colour[] = { "#4472c4", "#70ad47", "#ed7d31", "#7f7f7f",
                                                "#ffc000" };
#define N_CAT 5

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* 1 when the digits s[0 .. len) are a figure to group: 4 or more, no leading zero, not part of a
 * name, id or decimal fraction (the character before is none of letters, digits, _ . , - / : #),
 * nor of a date or a name going on (the character after is no letter, digit or _, nor a '-'
 * before a digit). */
static int figure_to_group(const char *text, const char *s, size_t len)
{
    if (len < 4 || s[0] == '0')
        return 0;
    char before = s > text ? s[-1] : ' ', after = s[len];
    if (before != '\0' && (strchr("_.,-/:#", before) || (before >= '0' && before <= '9') ||
                           (before >= 'A' && before <= 'Z') || (before >= 'a' && before <= 'z')))
        return 0;
    return !(after == '_' || (after >= '0' && after <= '9') || (after >= 'A' && after <= 'Z') ||
             (after >= 'a' && after <= 'z') || (after == '-' && s[len + 1] >= '0' && s[len + 1] <= '9'));
}

/* A sentence of the planner's (the tier choice, a note, why a design cannot work) escaped, its
 * counts grouped as the report's own figures are ("16384 GPUs" -> "16,384 GPUs"); plan.json and
 * the summary keep the sentence as the planner wrote it. */
static void esc_prose(FILE *f, const char *s)
{
    const char *text = s;
    char run[32], out[48];
    while (s && *s) {
        size_t len = strspn(s, "0123456789");
        if (len == 0) {
            size_t plain = strcspn(s, "0123456789");
            char chunk[256];
            size_t k = plain < sizeof chunk - 1 ? plain : sizeof chunk - 1;
            memcpy(chunk, s, k);
            chunk[k] = '\0';
            esc(f, chunk);
            s += k;
        } else if (len < sizeof run && figure_to_group(text, s, len)) {
            memcpy(run, s, len);
            run[len] = '\0';
            fputs(fp__grouped_int(out, sizeof out, strtoll(run, NULL, 10)), f);
            s += len;
        } else {
            fwrite(s, 1, len, f);
            s += len;
        }
    }
}

static void card(FILE *f, const char *label, const char *value)
{
    fprintf(f, "<div class=\"card\"><div class=\"v\">%s</div><div class=\"k\">", value);
    esc(f, label);
    fputs("</div></div>\n", f);
}

/* Horizontal bars, one per label, value and unit written after each bar. */
static void bar_chart(FILE *f, const char *title, const char *const *labels, const double *v,
                      const char *const *colour, int n, const char *unit, int decimals)
{
    double max = 0;
    char buf[64];
    for (int i = 0; i < n; i++)
        if (v[i] > max)
            max = v[i];
    int h = 30 + 26 * n;
    fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 560 %d\" width=\"560\" height=\"%d\" "
               "role=\"img\"><title>", h, h);
    esc(f, title);
    fprintf(f, "</title><text x=\"0\" y=\"16\" class=\"ct\">");
    esc(f, title);
    fputs("</text>\n", f);
    for (int i = 0; i < n; i++) {
        double w = max > 0 ? 300.0 * v[i] / max : 0;
        int y = 28 + 26 * i;
        fprintf(f, "<text x=\"130\" y=\"%d\" text-anchor=\"end\">", y + 15);
        esc(f, labels[i]);
        fprintf(f,
                "</text><rect x=\"138\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>"
                "<text x=\"%.1f\" y=\"%d\">%s %s</text>\n",
                y + 2, w, colour[i], 144 + w, y + 15,
                fp_grouped_text(v[i], decimals, buf, sizeof buf), unit);
    }
    fputs("</svg>\n", f);
}

/* One stacked bar at row y: the shares of by[] (links per medium, the first `shown` media). */
static void media_bar(FILE *f, int y, const char *label, const int64_t *by, int shown)
{
    double total = 0, x = 138;
    char count[32];
    for (int m = 0; m < shown; m++)
        total += (double)by[m];
    fprintf(f, "<text x=\"130\" y=\"%d\" text-anchor=\"end\">%s</text>\n", y + 15, label);
    for (int m = 0; m < shown && total > 0; m++) {
        double w = 400.0 * (double)by[m] / total;
        if (w <= 0)
            continue;
        fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"20\" fill=\"%s\">"
                   "<title>%s: %s links</title></rect>\n",
                x, y + 2, w, medium_colour[m], fp_medium_name((fp_medium)m),
                fp__grouped_int(count, sizeof count, by[m]));
        if (w > 34)
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"in\">%s</text>\n",
                    x + w / 2, y + 16, fp_medium_name((fp_medium)m));
        x += w;
    }
}

/* Links by medium of links [first, end) of a network (its cabling's link_medium). */
static void media_count(const fp_net_read *v, int64_t first, int64_t end, int64_t *by)
{
    memset(by, 0, FP_MEDIUM_COUNT * sizeof *by);
    for (int64_t l = first; l < end; l++)
        if (v->cab->link_medium[l] < FP_MEDIUM_COUNT)
            by[v->cab->link_medium[l]]++;
}

/* Links by medium per boundary: one stacked bar per boundary of every network (and one for a
 * network's MLAG peer links, after its last boundary), shares of its links; with spec
 * `networks` each bar is named by its network too: "storage leaf-spine". */
static void media_chart(FILE *f, const fp_plan *plan)
{
    const size_t nets = fp_plan_net_count(plan);
    const int shown = fp__plan_media_shown(plan);
    int rows = 0;
    for (size_t k = 0; k < nets; k++) {
        fp_net_read v = fp__plan_net_read(plan, k);
        rows += v.cab ? v.fab->tiers + (v.fab->n_link > v.fab->boundary_base[v.fab->tiers]) : 0;
    }
    const int h = 60 + 30 * rows;
    char bn[48], label[FP_NET_NAME_MAX + 50];
    int64_t by[FP_MEDIUM_COUNT];
    fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 560 %d\" width=\"560\" height=\"%d\" "
               "role=\"img\"><title>Media mix</title>"
               "<text x=\"0\" y=\"16\" class=\"ct\">Links by medium, per boundary%s</text>\n", h,
            h, nets > 1 ? " of each network" : "");
    int row = 0;
    for (size_t k = 0; k < nets; k++) {
        fp_net_read v = fp__plan_net_read(plan, k);
        const fp_fabric *nf = v.fab;
        for (int b = 0; v.cab && b <= nf->tiers; b++) {
            int64_t end = b < nf->tiers ? nf->boundary_base[b + 1] : nf->n_link;
            if (b == nf->tiers && end == nf->boundary_base[b])
                break;      /* no peer links */
            if (b < nf->tiers)
                fp__boundary_name(b, bn, sizeof bn);
            else
                snprintf(bn, sizeof bn, "mlag-peer");
            if (nets > 1)
                snprintf(label, sizeof label, "%s %s", v.label, bn);
            media_count(&v, nf->boundary_base[b], end, by);
            media_bar(f, 28 + 30 * row++, nets > 1 ? label : bn, by, shown);
        }
    }
    /* the legend: 80 px a medium, 70 when twisted pair makes six (within the 560 px) */
    const int ly = 36 + 30 * rows, step = shown > FP_MEDIUM_TP ? 70 : 80;
    for (int m = 0; m < shown; m++)
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                   "<text x=\"%d\" y=\"%d\">%s</text>\n",
                138 + step * m, ly, medium_colour[m], 154 + step * m, ly + 11,
                fp_medium_name((fp_medium)m));
    fputs("</svg>\n", f);
}

/* Copy the SVG file `name` of folder dir, written in this run, into the page (without its XML
 * prolog and doctype) inside a box that scrolls, at its own size up to the page's width (a tall
 * drawing scrolls instead of shrinking until nothing reads), and link the file after the
 * caption ("full size: su-1.svg"), which opens beside report.html. */
static void inline_svg(FILE *f, const char *dir, const char *name, const char *caption)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *in = fopen(path, "rb");
    const int written = in != NULL;
    fprintf(f, "<figure><div class=\"drawing\">");
    if (in == NULL) {
        fputs("<p class=\"muted\">not written in this run</p>", f);
    } else {
        fseek(in, 0, SEEK_END);
        long n = ftell(in);
        fseek(in, 0, SEEK_SET);
        char *text = n > 0 ? malloc((size_t)n + 1) : NULL;
        if (text && fread(text, 1, (size_t)n, in) == (size_t)n) {
            text[n] = '\0';
            const char *svg = strstr(text, "<svg");
            fputs(svg ? svg : "", f);
        }
        free(text);
        fclose(in);
    }
    fputs("</div><figcaption>", f);
    esc(f, caption);
    if (written) {
        fputs(" &middot; full size: <a href=\"", f);
        esc(f, name);
        fputs("\">", f);
        esc(f, name);
        fputs("</a>", f);
    }
    fputs("</figcaption></figure>\n", f);
}

static void section_bom(FILE *f, const fp_plan *plan)
{
    double qty[N_CAT] = { 0 }, cost[N_CAT] = { 0 }, power[N_CAT] = { 0 }, total = 0;
    char a[64], b[64], c[64];
    /* Every network's lines (the compute fabric's alone without spec `networks`). */
    for (size_t net = 0; net < fp_plan_net_count(plan); net++)
    for (size_t i = 0; i < fp_plan_net_bom_count(plan, net); i++) {
        fp_bom_line l;
        if (fp_plan_net_bom_line(plan, net, i, &l, NULL) != FP_OK)
            break;
        for (int k = 0; k < N_CAT; k++)
            if (strcmp(l.category, category[k]) == 0) {
                qty[k] += (double)l.quantity;
                cost[k] += l.cost;
                power[k] += l.power_w;
            }
        total += l.cost;
    }
    fputs("<section><h2>Bill of materials by category</h2>\n<table><tr><th>Category</th>"
          "<th>Units (spares included)</th><th>Cost USD</th><th>Share</th><th>Network power W</th>"
          "</tr>\n", f);
    for (int k = 0; k < N_CAT; k++)
        fprintf(f, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%.1f%%</td><td>%s</td></tr>\n",
                category[k], fp_grouped_text(qty[k], 0, a, sizeof a),
                fp_grouped_text(cost[k], 0, b, sizeof b), total > 0 ? 100 * cost[k] / total : 0,
                fp_grouped_text(power[k], 0, c, sizeof c));
    fputs("</table>\n<div class=\"row\">", f);
    bar_chart(f, "Cost by category (USD)", category, cost, category_colour, N_CAT, "", 0);
    bar_chart(f, "Network power by category (W)", category, power, category_colour, N_CAT, "W", 0);
    fputs("</div></section>\n", f);
}

/* With spec `networks`: each network of the cluster (the compute fabric first) with its
 * switches, cables, transceivers, cost and power (fp_plan_net_totals), and the whole cluster's
 * (fp_plan_totals: the summary's figures), cost to the cent. */
static void section_networks(FILE *f, const fp_plan *plan, const fp_totals *all)
{
    char a[64], b[64], c[64], d[64], e[64];
    if (fp_plan_network_count(plan) == 0)
        return;
    fputs("<section><h2>Networks</h2>\n<table><tr><th>Network</th><th>Role</th><th>Switches</th>"
          "<th>Cables</th><th>Transceivers</th><th>Cost USD</th><th>Network power W</th></tr>\n", f);
    for (size_t net = 0; net < fp_plan_net_count(plan); net++) {
        fp_totals t;
        fp_network_info ni = { .name = "compute", .role = "compute fabric" };
        if (fp_plan_net_totals(plan, net, &t, NULL) != FP_OK ||
            (net > 0 && fp_plan_network(plan, net - 1, &ni, NULL) != FP_OK))
            break;
        fputs("<tr><td>", f);
        esc(f, ni.name);
        fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
                ni.role, fp_grouped_text((double)t.switches, 0, a, sizeof a),
                fp_grouped_text((double)t.cables, 0, b, sizeof b),
                fp_grouped_text((double)t.transceivers, 0, c, sizeof c),
                fp_grouped_text(t.cost, 2, d, sizeof d),
                fp_grouped_text(t.power_w, 1, e, sizeof e));
    }
    fprintf(f,
            "<tr><th>whole cluster</th><th></th><th>%s</th><th>%s</th><th>%s</th>"
            "<th id=\"cluster-cost\">%s</th><th>%s</th></tr>\n</table></section>\n",
            fp_grouped_text((double)all->switches, 0, a, sizeof a),
            fp_grouped_text((double)all->cables, 0, b, sizeof b),
            fp_grouped_text((double)all->transceivers, 0, c, sizeof c),
            fp_grouped_text(all->cost, 2, d, sizeof d),
            fp_grouped_text(all->power_w, 1, e, sizeof e));
}

static void section_metrics(FILE *f, const fp_plan *plan)
{
    const fp_metrics *m = fp_plan_metrics(plan);
    const fp_reliability *r = &m->reliability;
    char a[64], b[64], c[64];
    fprintf(f,
            "<section><h2>Bisection and hops</h2>\n<table>"
            "<tr><th>Bisection (analytic)</th><td>%s Gb/s</td></tr>"
            "<tr><th>Bisection (max-flow)</th><td>%s Gb/s</td></tr>"
            "<tr><th>1:1 target</th><td>%s Gb/s</td></tr>"
            "<tr><th>Share of full bisection</th><td>%.1f%%%s</td></tr><tr><th>Split</th><td>",
            fp_grouped_text(m->bisection_gbps, 0, a, sizeof a),
            fp_grouped_text(m->bisection_maxflow_gbps, 0, b, sizeof b),
            fp_grouped_text(m->split_demand_gbps, 0, c, sizeof c),
            m->split_demand_gbps > 0 ? 100 * m->bisection_gbps / m->split_demand_gbps : 0,
            m->full_bisection ? " (full bisection)" : "");
    esc(f, m->split);
    fprintf(f, "</td></tr><tr><th>Diameter</th><td>%d switches</td></tr></table>\n",
            m->diameter_switches);
    fputs("<table><tr><th>GPU pairs</th><th>Share</th><th>Switches on the path</th></tr>\n", f);
    for (int i = 0; i < m->n_hops; i++) {
        fputs("<tr><td>", f);
        esc(f, m->hops[i].scope);
        fprintf(f, "</td><td>%.2f%%</td><td>%d</td></tr>\n", 100 * m->hops[i].share,
                m->hops[i].switches);
    }
    fputs("</table></section>\n", f);
    char hours[64];
    fprintf(f, "<section><h2>Reliability</h2><p class=\"muted\">Expected failures, parts failing "
               "independently at their catalog MTBF.</p>\n<table>"
               "<tr><th>Switch failures per day</th><td>%.4f</td></tr>"
               "<tr><th>Transceiver failures per day</th><td>%.4f</td></tr>"
               "<tr><th>Cable failures per day</th><td>%.4f</td></tr>"
               "<tr><th>NIC failures per day</th><td>%.4f</td></tr>"
               "<tr><th>Link failures per day</th><td>%.4f</td></tr>",
            r->switch_failures_per_day, r->transceiver_failures_per_day,
            r->cable_failures_per_day, r->nic_failures_per_day, r->link_failures_per_day);
    if (r->hours_to_first_link_failure > 0)
        fprintf(f, "<tr><th>Hours to the first link failure</th><td>%s</td></tr>",
                fp_grouped_text(r->hours_to_first_link_failure, 2, hours, sizeof hours));
    if (r->hours_to_first_switch_failure > 0)
        fprintf(f, "<tr><th>Hours to the first switch failure</th><td>%s</td></tr>",
                fp_grouped_text(r->hours_to_first_switch_failure, 2, hours, sizeof hours));
    fputs("</table></section>\n", f);
}

/* One table of expected collective bandwidth (docs/outputs.md): a row per placement scope,
 * each cell a figure an acceptance test compares nccl-tests' output with. */
static void collectives_table(FILE *f, const fp_collectives *c, const char *id)
{
    fprintf(f, "<table id=\"%s\"><tr><th>Scope</th><th>Block</th><th>GPUs</th><th>Servers</th>"
               "<th>NIC Gb/s per GPU</th><th>Uplinks Gb/s per GPU, leaf up</th>"
               "<th>Bisection Gb/s per GPU</th><th>B Gb/s per GPU</th>"
               "<th>all-reduce busbw GB/s</th><th>all-gather, reduce-scatter busbw GB/s</th>"
               "<th>all-to-all busbw GB/s</th><th>all-reduce algbw GB/s</th>"
               "<th>ring all-reduce &alpha; &micro;s</th><th>tree all-reduce &alpha; &micro;s</th>"
               "</tr>\n", id);
    for (int i = 0; i < c->n_scopes; i++) {
        const fp_collective_scope *r = &c->scope[i];
        char a[64], b[64];
        fprintf(f, "<tr data-scope=\"%s\"><td>%s</td><td>", r->scope, r->scope);
        esc(f, r->block);
        fprintf(f, "</td><td>%s</td><td>%s</td><td>%.1f</td><td>",
                fp_grouped_text((double)r->gpus, 0, a, sizeof a),
                fp_grouped_text((double)r->servers, 0, b, sizeof b), r->nic_gbps);
        for (int t = 0; t < r->tiers_crossed; t++)
            fprintf(f, "%s%.1f", t ? " / " : "", r->uplink_gbps[t]);
        if (r->tiers_crossed == 0)
            fputs("-", f);
        const double v[] = { r->bisection_gbps, r->gbps, r->allreduce_busbw, r->allgather_busbw,
                             r->alltoall_busbw, r->allreduce_algbw, r->ring_allreduce_us,
                             r->tree_allreduce_us };
        const int decimals[] = { 1, 1, 2, 2, 2, 2, 1, 1 };
        fputs("</td>", f);
        for (int k = 0; k < 8; k++)
            fprintf(f, "<td>%s</td>", fp_grouped_text(v[k], decimals[k], a, sizeof a));
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void section_collectives(FILE *f, const fp_plan *plan, const fp_write_options *o)
{
    fp_collectives c;
    if (fp_plan_collectives(&c, plan, NULL, NULL) != FP_OK)
        return;
    fputs("<section><h2>Expected collective bandwidth</h2><p class=\"muted\">Ceilings for a job "
          "confined to one block of each scope, by the nccl-tests definitions (busbw = algbw x "
          "2(n-1)/n for all-reduce, x (n-1)/n for all-gather, reduce-scatter and all-to-all; "
          "GB/s = 10<sup>9</sup> bytes/s) and NCCL's alpha terms (Simple protocol); "
          "docs/metrics.md, \"Collectives\".</p>\n", f);
    if (c.n_scopes == 0)
        fputs("<p class=\"muted\">No scope holds two servers.</p>\n", f);
    else
        collectives_table(f, &c, "collectives");
    if (o != NULL && o->failure != NULL &&
        fp_plan_collectives(&c, plan, o->failure, NULL) == FP_OK && c.n_scopes > 0) {
        fputs("<h3>With the failures of this what-if (the worst block of each scope)</h3>\n", f);
        collectives_table(f, &c, "collectives-failure");
    }
    fputs("</section>\n", f);
}

static void section_tiers(FILE *f, const fp_plan *plan)
{
    char a[64], b[64], c[64], ratio[32];
    fputs("<section><h2>Tiers</h2>\n<table><tr><th>Tier</th><th>Role</th><th>Model</th>"
          "<th>Switches</th><th>Ports</th><th>Gb/s</th><th>Used</th><th>Spare</th>"
          "<th>Down:up</th></tr>\n", f);
    for (size_t i = 0; i < fp_plan_tier_count(plan); i++) {
        fp_tier_info t;
        if (fp_plan_tier(plan, i, &t, NULL) != FP_OK)
            break;
        fprintf(f, "<tr><td>%d</td><td>%s</td><td>", t.tier, t.role);
        esc(f, t.model);
        fprintf(f, "</td><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>",
                fp_grouped_text((double)t.switches, 0, a, sizeof a), t.ports_per_switch,
                t.port_gbps, fp_grouped_text((double)t.ports_used, 0, b, sizeof b),
                fp_grouped_text((double)t.ports_spare, 0, c, sizeof c));
        if (t.up_ports)
            fprintf(f, "%s</td></tr>\n", fp_ratio_text(t.oversubscription, ratio, sizeof ratio));
        else
            fputs("top</td></tr>\n", f);
    }
    fputs("</table></section>\n", f);
}

static const char style[] =
    "body{font:14px/1.45 -apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#222;"
    "margin:0 auto;max-width:1180px;padding:24px}"
    "h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;border-bottom:2px solid #d9e1f2;"
    "padding-bottom:4px;margin-top:28px}"
    ".muted{color:#666}.cards{display:flex;flex-wrap:wrap;gap:10px;margin:16px 0}"
    ".card{border:1px solid #d9e1f2;border-radius:6px;padding:8px 12px;min-width:140px}"
    ".card .v{font-size:20px;font-weight:600}.card .k{color:#555;font-size:12px}"
    "table{border-collapse:collapse;margin:8px 0 12px}th,td{border-bottom:1px solid #e4e4e4;"
    "padding:3px 10px;text-align:left}td{font-variant-numeric:tabular-nums}"
    "th{background:#f3f6fb;font-weight:600}.row{display:flex;flex-wrap:wrap;gap:24px}"
    "svg.chart text{font-size:12px;fill:#333}svg.chart .ct{font-weight:600;font-size:13px}"
    "svg.chart .in{fill:#fff;font-size:11px}"
    "figure{margin:12px 0;border:1px solid #e4e4e4;padding:8px}"
    "figure .drawing{max-height:85vh;overflow:auto}"
    "figure svg{max-width:100%;height:auto}"
    "figcaption{color:#555;font-size:12px}"
    "@media print{figure{break-inside:avoid}}";

/* The closing footer (the page's last element, id "end"), and the file closed. */
static fp_status page_end(FILE *f, const char *footer, const char *path, fp_error *err)
{
    fprintf(f, "<footer id=\"end\" class=\"muted\">%s</footer>\n</body></html>\n", footer);
    return fp__close_written(f, path, err);    /* names the reason; a fault-injection point */
}

/* The page's head and title: the plan's name, topology, tiers and planes. */
static void report_head(FILE *f, const char *name, const fp_summary *su)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:\">\n<title>", f);
    esc(f, name);
    fprintf(f, ": fabric plan</title>\n<style>%s</style></head><body>\n<header><h1>", style);
    esc(f, name);
    fprintf(f, ": fabric plan</h1><div class=\"muted\">%s fabric, %d tier%s, %d plane%s "
               "&middot; generated by fabplan %s</div></header>\n",
            fp_topology_name(su->topology), su->tiers, su->tiers == 1 ? "" : "s", su->planes,
            su->planes == 1 ? "" : "s", FP_VERSION);
}

/* Summary: a card per key figure, then why this many tiers, the links and the capacity. */
static void section_summary(FILE *f, const fp_plan *plan, const fp_summary *su,
                            const fp_totals *t)
{
    const fp_metrics *m = fp_plan_metrics(plan);
    char a[64], b[64];
    fputs("<section><h2>Summary</h2><div class=\"cards\">\n", f);
    card(f, "GPUs", fp_grouped_text((double)su->gpus, 0, a, sizeof a));
    card(f, "servers", fp_grouped_text((double)su->servers, 0, a, sizeof a));
    card(f, "switches", fp_grouped_text((double)t->switches, 0, a, sizeof a));
    card(f, "cables", fp_grouped_text((double)t->cables, 0, a, sizeof a));
    card(f, "transceivers", fp_grouped_text((double)t->transceivers, 0, a, sizeof a));
    snprintf(b, sizeof b, "$%s", fp_grouped_text(t->cost, 0, a, sizeof a));
    card(f, "network cost, spares included", b);
    snprintf(b, sizeof b, "$%s", fp_grouped_text(t->cost_per_gpu, 0, a, sizeof a));
    card(f, "network cost per GPU", b);
    snprintf(b, sizeof b, "%s kW", fp_grouped_text(t->power_w / 1000, 1, a, sizeof a));
    card(f, "network power", b);
    snprintf(b, sizeof b, "%.1f W", t->power_w_per_gpu);
    card(f, "network power per GPU", b);
    snprintf(b, sizeof b, "%.2f", t->transceivers_per_gpu);
    card(f, "optics per GPU", b);
    snprintf(b, sizeof b, "%.0f%%",
             m->split_demand_gbps > 0 ? 100 * m->bisection_gbps / m->split_demand_gbps : 0);
    card(f, "of full bisection", b);
    fputs("</div><p>", f);
    esc_prose(f, su->tier_choice);
    fprintf(f,
            "</p><p class=\"muted\">%s links, capacity %s GPUs with these switches.</p>"
            "</section>\n",
            fp_grouped_text((double)su->links, 0, a, sizeof a),
            fp_grouped_text((double)su->capacity_gpus, 0, b, sizeof b));
}

/* The diagrams of this run: written before the report, beside it (fp_plan_write writes every
 * output into one temporary folder and publishes them together). */
static void section_diagrams(FILE *f, const fp_plan *plan, const char *path,
                             const fp_write_options *o)
{
    char dir[4096], unit[64];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    unsigned formats = o ? o->formats : FP_WRITE_DEFAULT;
    fputs("<section><h2>Diagrams</h2>\n", f);
    if (formats & FP_WRITE_OVERVIEW) {
        inline_svg(f, dir, "fabric.svg", "Fabric: groups of identical switches and the links between them");
        /* With spec `networks`: each network's overview after the compute fabric's. */
        for (int k = 0; fp__net_overview_file_name(plan, k, "svg", unit, sizeof unit); k++) {
            char caption[160];
            snprintf(caption, sizeof caption, "Network %s (%s): its hosts, switch groups and the "
                     "links between them", fp__plan_net(plan, k)->name,
                     fp__net_role_name(fp__plan_net(plan, k)->role));
            inline_svg(f, dir, unit, caption);
        }
    }
    if ((formats & FP_WRITE_FIGURE) && fp__figure_file_name(plan, o, "svg", unit, sizeof unit)) {
        inline_svg(f, dir, unit, "One scalable-unit group on a page: every leaf, rails coloured, the "
                           "spines and the tiers above, with counts");
    }
    if ((formats & FP_WRITE_DETAIL) && fp__detail_file_name(plan, o, "svg", unit, sizeof unit)) {
        inline_svg(f, dir, unit, "One unit in detail: every server, switch and link, rails coloured");
    }
    if (formats & FP_WRITE_FLOOR) {
        inline_svg(f, dir, "floor.svg", fp__floor_by_rack(plan)
                                            ? "Floor plan: racks at their position, coloured by role"
                                            : "Site plan: each hall a block with its figures, its "
                                              "rows as bars coloured by role");
        /* each hall rack by rack, linked (floor-by-hall/H<n>.svg) */
        int any = 0;
        for (int k = 0, halls = fp__floor_hall_count(plan); k < halls; k++) {
            if (!fp__floor_hall_file_name(plan, k, "svg", unit, sizeof unit))
                continue;
            fputs(any++ ? " &middot; " : "<p>Each hall rack by rack: ", f);
            fprintf(f, "<a href=\"floor-by-hall/%s\">floor-by-hall/%s</a>", unit, unit);
        }
        if (any)
            fputs("</p>\n", f);
    }
    if (!(formats & (FP_WRITE_OVERVIEW | FP_WRITE_FIGURE | FP_WRITE_DETAIL | FP_WRITE_FLOOR)))
        fputs("<p class=\"muted\">No diagrams in this run (--formats).</p>\n", f);
    fputs("</section>\n", f);
}

/* The planner's notes, when it has any. */
static void section_notes(FILE *f, const fp_plan *plan)
{
    if (fp_plan_note_count(plan) == 0)
        return;
    fputs("<section><h2>Notes</h2><ul>\n", f);
    for (size_t i = 0; i < fp_plan_note_count(plan); i++) {
        fputs("<li>", f);
        esc_prose(f, fp_plan_note(plan, i));
        fputs("</li>\n", f);
    }
    fputs("</ul></section>\n", f);
}

fp_status fp__write_report(const fp_plan *plan, const char *path, const fp_write_options *o,
                           fp_error *err)
{
    FILE *f = fp__create(path, err);
    fp_summary su;
    fp_totals t;
    char a[64], b[64];
    const char *name = fp__plan_rspec(plan)->name[0] ? fp__plan_rspec(plan)->name : "fabplan";
    if (f == NULL)
        return FP_EIO;
    fp_plan_summary(plan, &su);
    fp_plan_totals(plan, &t);
    report_head(f, name, &su);
    section_summary(f, plan, &su, &t);
    section_networks(f, plan, &t);
    section_tiers(f, plan);
    section_bom(f, plan);

    fputs("<section><h2>Media mix</h2>\n", f);
    media_chart(f, plan);
    fprintf(f,
            "<h3>Optics per GPU</h3><p>%s transceivers for %s GPUs: <b>%.3f per GPU</b> "
            "(spares excluded; a twin-port module counts once).</p></section>\n",
            fp_grouped_text((double)t.transceivers, 0, a, sizeof a),
            fp_grouped_text((double)su.gpus, 0, b, sizeof b), t.transceivers_per_gpu);

    section_metrics(f, plan);
    section_collectives(f, plan, o);
    section_diagrams(f, plan, path, o);
    section_notes(f, plan);
    return page_end(f, "Figures from the catalog's estimates; see plan.json and plan.xlsx for "
                       "every line.", path, err);
}

/* ---- compare.html ---- */

static const char *const topo_colour[] = { "#4472c4", "#70ad47", "#ed7d31" };

static const char *topology_colour(fp_topology t)
{
    switch (t) {
    case FP_TOPO_FAT_TREE: return topo_colour[1];
    case FP_TOPO_RAIL: return topo_colour[2];
    default: return topo_colour[0];
    }
}

/* A marker per tier count: circle 2 tiers, square 3, triangle 4. */
static void marker(FILE *f, double x, double y, int tiers, const char *colour)
{
    if (tiers <= 2)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"", x, y, colour);
    else if (tiers == 3)
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\"", x - 4.5,
                y - 4.5, colour);
    else
        fprintf(f, "<path d=\"M%.1f %.1fl5.5 9.5h-11z\" fill=\"%s\"", x, y - 5.5, colour);
    fputs(" fill-opacity=\"0.75\" stroke=\"#222\" stroke-width=\"0.6\">", f);
}

/* The chart's size and margins (left, right, top, bottom) in SVG units. */
static const struct chart_box {
    double W, H, L, R, T, B;
} chart = { 900, 480, 80, 20, 20, 50 };

/* The grid (x every 10 %, y at the round ticks of ax, ax->hi the top) and the axis titles. */
static void chart_grid(FILE *f, const fp_axis *ax)
{
    const double top = ax->hi;
    const double W = chart.W, H = chart.H, L = chart.L, R = chart.R, T = chart.T, B = chart.B;
    char a[64];
    for (int k = 0; k <= 10; k++) {
        double x = L + (W - L - R) * k / 10.0;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#e4e4e4\"/>"
                   "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%d%%</text>\n",
                x, T, x, H - B, x, H - B + 16, k * 10);
    }
    for (int k = 0; k < ax->count; k++) {
        double y = H - B - (H - B - T) * ax->tick[k] / top;
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
                "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">$%s</text>\n",
                L, y, W - R, y, L - 6, y + 4,
                fp_grouped_text(ax->tick[k], ax->decimals, a, sizeof a));
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" class=\"ct\">share of full "
               "bisection</text><text x=\"16\" y=\"%.0f\" class=\"ct\" transform=\"rotate(-90 16 "
               "%.0f)\" text-anchor=\"middle\">network cost per GPU (USD)</text>\n",
            L + (W - L - R) / 2, H - 10, T + (H - B - T) / 2, T + (H - B - T) / 2);
}

/* The Pareto front: designs no other beats on both cost and bisection, left to right (what
 * each step of bisection costs at the least). At most a few hundred rows: quadratic. */
static void pareto_line(FILE *f, const fp_compare_row *rows, size_t n, double top)
{
    const double W = chart.W, H = chart.H, L = chart.L, R = chart.R, T = chart.T, B = chart.B;
    fputs("<polyline fill=\"none\" stroke=\"#666\" stroke-dasharray=\"4 3\" points=\"", f);
    double last_x = -1;
    for (;;) {
        size_t pick = n;
        for (size_t i = 0; i < n; i++) {
            const fp_compare_row *r = &rows[i];
            int beaten = 0;
            if (r->status != FP_OK || r->bisection_fraction <= last_x)
                continue;
            for (size_t j = 0; j < n && !beaten; j++)
                beaten = j != i && rows[j].status == FP_OK &&
                         rows[j].bisection_fraction >= r->bisection_fraction &&
                         rows[j].cost_per_gpu <= r->cost_per_gpu &&
                         (rows[j].bisection_fraction > r->bisection_fraction ||
                          rows[j].cost_per_gpu < r->cost_per_gpu || j < i);
            if (!beaten && (pick == n || r->bisection_fraction < rows[pick].bisection_fraction))
                pick = i;
        }
        if (pick == n)
            break;
        last_x = rows[pick].bisection_fraction;
        fprintf(f, "%.1f,%.1f ", L + (W - L - R) * fmin(last_x, 1.0),
                H - B - (H - B - T) * rows[pick].cost_per_gpu / top);
    }
    fputs("\"/>\n", f);
}

/* A marker per working design, its name and figures as its tooltip. */
static void design_markers(FILE *f, const fp_compare_row *rows, size_t n, double top)
{
    const double W = chart.W, H = chart.H, L = chart.L, R = chart.R, T = chart.T, B = chart.B;
    char a[64];
    for (size_t i = 0; i < n; i++) {
        const fp_compare_row *r = &rows[i];
        if (r->status != FP_OK)
            continue;
        marker(f, L + (W - L - R) * fmin(r->bisection_fraction, 1.0),
               H - B - (H - B - T) * r->cost_per_gpu / top, r->tiers, topology_colour(r->topology));
        fputs("<title>", f);
        esc(f, r->design);
        fprintf(f, ": $%s per GPU, %.0f%% of full bisection, diameter %d</title>",
                fp_grouped_text(r->cost_per_gpu, 0, a, sizeof a), 100 * r->bisection_fraction,
                r->diameter_switches);
        fputs(r->tiers <= 2 ? "</circle>\n" : r->tiers == 3 ? "</rect>\n" : "</path>\n", f);
    }
}

/* Cost per GPU (y) against the share of full bisection (x), one marker per working design;
 * the cheapest design at each bisection share joined by a line (what more bisection costs). */
static void compare_chart(FILE *f, const fp_compare_row *rows, size_t n)
{
    double ymax = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].status == FP_OK && rows[i].cost_per_gpu > ymax)
            ymax = rows[i].cost_per_gpu;
    /* From $0 to a round top, ticks 1, 2 or 5 x 10^k apart (at most 7 of them). */
    fp_axis ax;
    if (fp_axis_ticks(0, ymax > 0 ? ymax : 1, 7, &ax, NULL) != FP_OK)
        return;
    double top = ax.hi;
    fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
               "role=\"img\"><title>Cost per GPU against bisection</title>\n", chart.W, chart.H,
            chart.W, chart.H);
    chart_grid(f, &ax);
    pareto_line(f, rows, n, top);
    design_markers(f, rows, n, top);
    fputs("</svg>\n<p class=\"muted\">", f);
    static const fp_topology topos[] = { FP_TOPO_CLOS, FP_TOPO_FAT_TREE, FP_TOPO_RAIL };
    for (int k = 0; k < 3; k++)
        fprintf(f, "<span style=\"color:%s\">&#9632;</span> %s &nbsp; ", topology_colour(topos[k]),
                fp_topology_name(topos[k]));
    fputs("&middot; &#9679; 2 tiers, &#9632; 3 tiers, &#9650; 4 tiers &middot; dashed: the "
          "designs no other beats on both cost and bisection</p>\n", f);
}

fp_status fp__write_compare_html(const fp_compare_row *rows, size_t n, const char *path,
                                 fp_error *err)
{
    FILE *f = fp__create(path, err);
    char a[64], b[64], c[64];
    size_t ok = 0;
    if (f == NULL)
        return FP_EIO;
    for (size_t i = 0; i < n; i++)
        ok += rows[i].status == FP_OK;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
               "style-src 'unsafe-inline'; img-src data:\">\n<title>fabplan compare</title>\n"
               "<style>%s</style></head><body>\n<header><h1>Candidate designs</h1><div "
               "class=\"muted\">%zu designs, %zu of them work &middot; generated by fabplan %s"
               "</div></header>\n<section><h2>Cost per GPU against bisection</h2>\n",
            style, n, ok, FP_VERSION);
    compare_chart(f, rows, n);
    fputs("</section><section><h2>Designs</h2><p class=\"muted\">By leaf down:up (1:1 first), "
          "then cost.</p>\n<table><tr><th>Design</th><th>Tiers</th><th>Switches</th>"
          "<th>Cost per GPU USD</th><th>Network power kW</th><th>Of full bisection</th>"
          "<th>Diameter</th></tr>\n", f);
    for (size_t i = 0; i < n; i++) {
        const fp_compare_row *r = &rows[i];
        fputs("<tr><td>", f);
        esc(f, r->design);
        if (r->status == FP_OK)
            fprintf(f,
                    "</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%.0f%%</td>"
                    "<td>%d</td></tr>\n",
                    r->tiers, fp_grouped_text((double)r->switches, 0, a, sizeof a),
                    fp_grouped_text(r->cost_per_gpu, 0, b, sizeof b),
                    fp_grouped_text(r->power_w / 1000, 1, c, sizeof c), 100 * r->bisection_fraction,
                    r->diameter_switches);
        else {
            fputs("</td><td colspan=\"6\" class=\"muted\">cannot work: ", f);
            esc_prose(f, r->reason);
            fputs("</td></tr>\n", f);
        }
    }
    fputs("</table></section>\n", f);
    return page_end(f, "compare.csv and compare.json hold the same rows.", path, err);
}
