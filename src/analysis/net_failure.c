/* fabplan — failure what-ifs on the cluster's other networks: the same --fail specs, matched
 * against each network's own devices, links, cables and racks, then the network's hosts that
 * lose every path into it and its bisection with the failures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/net_failure.h"
#include "analysis/graph.h"

/* Mark what spec names in the network; returns whether it named anything there. Names: a
 * device as links.csv names it (a compute server is a host of every network it is attached to,
 * another network's switch a host by its management port and a switch where this network is
 * attached to it);
 * "link:<network>-L0000001"; "cable:C0002049" (cables.csv ids); rack:, row:, hall: as cables.csv
 * locations read (management racks included). Role and random specs are the compute fabric's. */
static int mark(const fp_net_view *v, const char *spec, uint8_t *dev_down, uint8_t *link_down)
{
    const fp_fabric *f = v->fab;
    const char *colon = strchr(spec, ':');
    char name[160];
    if (colon == NULL) {
        /* Every device of that name: a switch of another network stands here both as its
         * management port's host and, for a network attached to it (uplink_to), as a switch of
         * the top tier; it fails as both. */
        int hit = 0;
        for (int64_t d = 0; d < f->n_dev; d++)
            if (strcmp(fp__net_device_name(name, sizeof name, v->ns, f, v->cfab, v->crs, d), spec) == 0)
                hit = dev_down[d] = 1;
        return hit;
    }
    const char *val = colon + 1;
    size_t kind = (size_t)(colon - spec), nl = strlen(v->ns->name);
    if (kind == 4 && strncmp(spec, "link", 4) == 0) {
        long long k = 0;
        char tail = 0;
        if (strncmp(val, v->ns->name, nl) != 0 || val[nl] != '-' ||
            sscanf(val + nl + 1, "L%lld%c", &k, &tail) != 1 || k < 1 || k > f->n_link)
            return 0;
        link_down[k - 1] = 1;
        return 1;
    }
    if (kind == 5 && strncmp(spec, "cable", 5) == 0) {
        long long id = 0;
        char tail = 0;
        if (sscanf(val, "C%lld%c", &id, &tail) != 1)
            return 0;
        for (int64_t i = 0; i < v->cab->n_cable; i++) {
            const fp_cable *cb = &v->cab->cable[i];
            const int32_t *links = v->cab->cable_links + cb->first;
            if (v->id_base + links[0] + 1 != id)
                continue;
            for (int k = 0; k < cb->n_links; k++)
                link_down[links[k]] = 1;
            return 1;
        }
        return 0;
    }
    int h = -1, row = -1, pos = -1, ok = 0;
    char tail = 0;
    if (kind == 4 && strncmp(spec, "rack", 4) == 0)
        ok = sscanf(val, "H%d-R%d-K%d%c", &h, &row, &pos, &tail) == 3;
    else if (kind == 3 && strncmp(spec, "row", 3) == 0)
        ok = sscanf(val, "H%d-R%d%c", &h, &row, &tail) == 2;
    else if (kind == 4 && strncmp(spec, "hall", 4) == 0)
        ok = sscanf(val[0] == 'H' || val[0] == 'h' ? val + 1 : val, "%d%c", &h, &tail) == 1;
    if (!ok)
        return 0;
    int hit = 0;
    for (int64_t d = 0; d < f->n_dev; d++) {
        const fp_rack *r = &v->lay->rack[v->lay->dev_rack[d]];
        if (r->hall == h && (row < 0 || r->row == row) && (pos < 0 || r->pos == pos)) {
            dev_down[d] = 1;
            hit = 1;
        }
    }
    return hit;
}

int fp__net_fail_matches(const fp_net_view *v, const char *spec)
{
    const fp_fabric *f = v->fab;
    uint8_t *dd = calloc((size_t)(f->n_dev ? f->n_dev : 1), 1), *ld = calloc((size_t)(f->n_link ? f->n_link : 1), 1);
    int hit = dd && ld && mark(v, spec, dd, ld);
    free(dd);
    free(ld);
    return hit;
}

fp_status fp__net_fail_run(fp_network_failure *out, const fp_net_view *v, const char *const *specs,
                           size_t n, fp_error *err)
{
    const fp_fabric *f = v->fab;
    const fp_rspec *rs = &v->ns->rs;
    fp_status rc = FP_OK;
    int64_t *comp = NULL, n_comp = 0, *count = NULL, *ok_ports = NULL;
    int64_t up[FP_MAX_TIERS] = { 0 };
    uint8_t *dev_down = calloc((size_t)(f->n_dev ? f->n_dev : 1), 1);
    uint8_t *link_down = calloc((size_t)(f->n_link ? f->n_link : 1), 1);
    memset(out, 0, sizeof *out);
    if (dev_down == NULL || link_down == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "failure", "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        out->specs_matched += mark(v, specs[i], dev_down, link_down);
    /* the network's own switches: a top-tier switch of the network it is attached to is that
     * network's failure (its links here still go down) */
    for (int64_t d = f->servers; d < f->n_dev; d++)
        out->switches_failed += dev_down[d] && !fp__net_is_alias(f, d);
    for (int64_t i = 0; i < f->n_link; i++) {
        link_down[i] |= dev_down[f->link[i].a] | dev_down[f->link[i].z];
        out->links_failed += link_down[i];
    }
    /* Bisection, analytic as the network's metric: the narrowest boundary's links still up. */
    for (int b = 0; b < f->tiers; b++)
        for (int64_t i = f->boundary_base[b]; i < f->boundary_base[b + 1]; i++)
            up[b] += !link_down[i];
    out->bisection_before_gbps = fp__net_bisection_gbps(f, rs);
    out->bisection_after_gbps = -1;
    for (int b = 0; b < f->tiers; b++) {
        double c = (double)up[b] * rs->gbps[b] / 2;
        if (out->bisection_after_gbps < 0 || c < out->bisection_after_gbps)
            out->bisection_after_gbps = c;
    }
    if (out->bisection_after_gbps < 0)
        out->bisection_after_gbps = 0;
    /* A host is cut off when every one of its links is down or lands on a leaf outside the
     * network's largest piece (counted by the host links it holds). */
    if ((rc = fp__graph_components(f, link_down, &comp, &n_comp, err)) != FP_OK)
        goto done;
    count = calloc((size_t)n_comp + 1, sizeof *count);
    ok_ports = calloc((size_t)(f->servers ? f->servers : 1), sizeof *ok_ports);
    if (count == NULL || ok_ports == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "failure", "out of memory");
        goto done;
    }
    int64_t main_comp = 0, best = -1;
    for (int64_t i = 0; i < f->boundary_base[1]; i++)
        if (!link_down[i])
            count[comp[f->link[i].z - f->servers]]++;
    for (int64_t c = 0; c < n_comp; c++)
        if (count[c] > best) {
            best = count[c];
            main_comp = c;
        }
    for (int64_t i = 0; i < f->boundary_base[1]; i++)
        if (!link_down[i] && comp[f->link[i].z - f->servers] == main_comp)
            ok_ports[f->link[i].a]++;
    for (int64_t s = 0; s < f->servers; s++)
        if (ok_ports[s] == 0) {
            out->hosts_cut_off++;
            out->servers_cut_off += s < v->ns->servers;
        }
done:
    free(comp);
    free(count);
    free(ok_ports);
    free(dev_down);
    free(link_down);
    return rc;
}

void fp__net_reliability(const fp_net_bom *b, fp_reliability *out)
{
    fp_part_count parts[64];
    size_t k = 0;
    fp_reliability part;
    memset(out, 0, sizeof *out);
    /* In slices of 64 lines, their rates added (the figures are sums of quantity / MTBF). */
    for (int i = 0; i <= b->n; i++) {
        if (i == b->n || k == sizeof parts / sizeof *parts) {
            fp_reliability_from_counts(parts, k, &part);
            out->switch_failures_per_day += part.switch_failures_per_day;
            out->transceiver_failures_per_day += part.transceiver_failures_per_day;
            out->cable_failures_per_day += part.cable_failures_per_day;
            out->nic_failures_per_day += part.nic_failures_per_day;
            out->units_without_mtbf += part.units_without_mtbf;
            k = 0;
            if (i == b->n)
                break;
        }
        const fp_net_bom_line *l = &b->line[i];
        if (l->spare || strcmp(l->category, "endpoint") == 0)
            continue;
        parts[k].category = l->category;
        parts[k].quantity = l->qty;
        parts[k].mtbf_hours = l->mtbf_hours;
        k++;
    }
    out->link_failures_per_day = out->transceiver_failures_per_day + out->cable_failures_per_day;
    if (out->link_failures_per_day > 0)
        out->hours_to_first_link_failure = 24.0 / out->link_failures_per_day;
    if (out->switch_failures_per_day > 0)
        out->hours_to_first_switch_failure = 24.0 / out->switch_failures_per_day;
}
