/* fabplan CLI — failure what-if options and the metrics lines of the plan summary. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

void cli_fail_opts_help(FILE *f)
{
    fputs("Failure what-if (repeatable; the plan's documents are unchanged, plan.json gets \"failure\"):\n"
          "  --fail SPEC         ROLE:N (spine:3 = the 3rd spine; leaf, spine, core, super-core),\n"
          "                      a device name (pod01-spine-03), link:L0000123, cable:C0000123,\n"
          "                      random-links:1% or random-links:N, random-switches:N or P%,\n"
          "                      rack:H1-R08-K01, row:H1-R08, hall:2 (every device there)\n"
          "  --seed N            seed of the random choices (default 1): same seed, same failures\n",
          f);
}

int cli_parse_fail_opt(cli_spec_opts *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *val;
    int is_fail = strncmp(a, "--fail", 6) == 0 && (a[6] == '\0' || a[6] == '=');
    int is_seed = strncmp(a, "--seed", 6) == 0 && (a[6] == '\0' || a[6] == '=');
    if (!is_fail && !is_seed)
        return 0;
    if (a[6] == '=')
        val = a + 7;
    else if (*i + 1 < argc)
        val = argv[++*i];
    else {
        fprintf(stderr, "fabplan: %s needs a value\n", a);
        return -1;
    }
    if (is_seed) {
        char *end;
        errno = 0;
        o->seed = strtoull(val, &end, 10);
        if (errno || *end != '\0' || val[0] == '\0' || val[0] == '-') {
            fprintf(stderr, "fabplan: --seed expects a whole number, found \"%s\"\n", val);
            return -1;
        }
        return 1;
    }
    if (o->n_fail >= (int)(sizeof o->fail / sizeof o->fail[0])) {
        fprintf(stderr, "fabplan: too many --fail options (at most %zu)\n",
                sizeof o->fail / sizeof o->fail[0]);
        return -1;
    }
    o->fail[o->n_fail++] = val;
    return 1;
}

int cli_apply_failures(fp_failure_report *report, int *have, const fp_plan *plan,
                       const cli_spec_opts *o)
{
    fp_error err = { 0 };
    *have = 0;
    if (o->n_fail == 0)
        return EXIT_OK;
    /* Seed 0 means "not given": default to 1 so runs without --seed repeat too. */
    if (fp_plan_fail(report, plan, o->fail, (size_t)o->n_fail, o->seed ? o->seed : 1, &err) !=
        FP_OK)
        return cli_report(NULL, &err);
    *have = 1;
    return EXIT_OK;
}


static const char *duration(char *buf, size_t n, double hours)
{
    if (!(hours > 0))
        snprintf(buf, n, "unknown (no MTBF in the catalog)");
    else if (hours < 1)
        snprintf(buf, n, "%.1f minutes", hours * 60);
    else if (hours < 48)
        snprintf(buf, n, "%.1f hours", hours);
    else
        snprintf(buf, n, "%.1f days", hours / 24);
    return buf;
}

void cli_print_metrics(const fp_plan *plan, const fp_failure_report *f)
{
    const fp_metrics *m = fp_plan_metrics(plan);
    const fp_reliability *r = &m->reliability;
    char a[32], b[32], t1[48], t2[48];
    printf("  bisection %s Gb/s analytic, %s Gb/s max-flow (%s); full bisection: %s\n",
           fp_grouped_text(m->bisection_gbps, 0, a, sizeof a),
           fp_grouped_text(m->bisection_maxflow_gbps, 0, b, sizeof b), m->split,
           m->full_bisection ? "yes" : "no");
    printf("  oversubscription in use:");
    for (int t = 0; t + 1 < m->tiers; t++) {
        fp_tier_info ti;
        fp_plan_tier(plan, (size_t)t, &ti, NULL);
        char ratio[32];
        printf(" %s %s", ti.role, fp_ratio_text(m->oversubscription[t], ratio, sizeof ratio));
    }
    printf("\n  diameter %d switches (BFS from %d leaves: %d); GPU pairs:", m->diameter_switches,
           m->bfs_sources, m->diameter_bfs_switches);
    for (int i = 0; i < m->n_hops; i++)
        printf("%s %s %.2f%% (%d sw)", i ? "," : "", m->hops[i].scope, m->hops[i].share * 100,
               m->hops[i].switches);
    printf("\n  reliability: failures per day: switches %.3g, transceivers %.3g, cables %.3g; "
           "first link failure in %s, first switch failure in %s\n",
           r->switch_failures_per_day, r->transceiver_failures_per_day, r->cable_failures_per_day,
           duration(t1, sizeof t1, r->hours_to_first_link_failure),
           duration(t2, sizeof t2, r->hours_to_first_switch_failure));
    for (size_t i = 0; i < fp_plan_network_count(plan); i++) {
        fp_network_info ni;
        if (fp_plan_network(plan, i, &ni, NULL) != FP_OK)
            continue;
        char h[32], sw[32], ln[32];
        printf("  network %s (%s%s%s%s): %s hosts at %d Gb/s, %d tiers, %s switches, %s links, "
               "$%s, bisection %s Gb/s\n",
               ni.name, ni.role, ni.dual_homed ? ", dual-homed on " : "", ni.pair_name,
               ni.dual_homed ? "s" : "", fp_grouped_text((double)ni.hosts, 0, h, sizeof h),
               ni.port_gbps, ni.tiers, fp_grouped_text((double)ni.switches, 0, sw, sizeof sw),
               fp_grouped_text((double)ni.links, 0, ln, sizeof ln),
               fp_grouped_text(ni.cost_usd, 0, a, sizeof a),
               fp_grouped_text(ni.bisection_gbps, 0, b, sizeof b));
        if (ni.note[0])
            printf("    note: %s\n", ni.note);
    }
    if (fp_plan_network_count(plan) > 0) {
        fp_totals t;
        fp_plan_totals(plan, &t);
        printf("  whole cluster network (compute fabric BOM + every network): $%s\n",
               fp_grouped_text(t.cost, 0, a, sizeof a));
    }
    if (f == NULL)
        return;
    printf("  failure what-if (");
    for (int i = 0; i < f->n_specs; i++)
        printf("%s%s", i ? ", " : "", f->specs[i]);
    char c1[32], c2[32];
    printf(", seed %llu): %s switches and %s links down (%s Gb/s of links)\n",
           (unsigned long long)f->seed,
           fp_grouped_text((double)f->switches_failed, 0, c1, sizeof c1),
           fp_grouped_text((double)f->links_failed, 0, c2, sizeof c2),
           fp_grouped_text(f->link_capacity_lost_gbps, 0, a, sizeof a));
    printf("    bisection %s -> %s Gb/s (%.2f%% lost); %s endpoints and %s servers cut off\n",
           fp_grouped_text(f->bisection_before_gbps, 0, a, sizeof a),
           fp_grouped_text(f->bisection_after_gbps, 0, b, sizeof b),
           f->bisection_lost_fraction * 100,
           fp_grouped_text((double)f->endpoints_cut_off, 0, c1, sizeof c1),
           fp_grouped_text((double)f->servers_cut_off, 0, c2, sizeof c2));
    if (f->worst_pod >= 0)
        printf("    worst pod: pod %d keeps %.2f%% of its uplinks", f->worst_pod + 1,
               f->worst_pod_uplinks * 100);
    if (f->worst_zone >= 0)
        printf("; worst zone: zone %d keeps %.2f%%", f->worst_zone + 1, f->worst_zone_uplinks * 100);
    if (f->worst_pod >= 0)
        printf("\n");
    /* The same what-if on each other network. */
    for (size_t i = 0; i < fp_plan_network_count(plan); i++) {
        fp_network_info ni;
        fp_network_failure nf;
        if (fp_plan_network(plan, i, &ni, NULL) != FP_OK || fp_plan_fail_network(&nf, plan, i, f, NULL) != FP_OK)
            continue;
        char c3[32], c4[32];
        printf("    network %s: %s switches and %s links down; bisection %s -> %s Gb/s; %s hosts "
               "(%s servers) cut off\n",
               ni.name, fp_grouped_text((double)nf.switches_failed, 0, c1, sizeof c1),
               fp_grouped_text((double)nf.links_failed, 0, c2, sizeof c2),
               fp_grouped_text(nf.bisection_before_gbps, 0, a, sizeof a),
               fp_grouped_text(nf.bisection_after_gbps, 0, b, sizeof b),
               fp_grouped_text((double)nf.hosts_cut_off, 0, c3, sizeof c3),
               fp_grouped_text((double)nf.servers_cut_off, 0, c4, sizeof c4));
    }
}
