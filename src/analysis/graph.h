/* fabplan — private to the analysis stage: the igraph adapter (graph.c, the only module that
 * includes igraph) and the bisection split helpers metrics.c shares with failure.c. */
#ifndef FP_PRIVATE_ANALYSIS_GRAPH_H
#define FP_PRIVATE_ANALYSIS_GRAPH_H

#include "analysis/analysis.h"

/* ---- graph.c ----
 * The graphs hold switches only (vertex = device id - servers): servers do not forward. */

/* Max flow from the source half to the sink half. s_links[l] / t_links[l]: NIC links of the
 * source / sink half on leaf l (l = 0-based over all leaves of all planes); link_down: NULL,
 * or 1 per link that is down (its capacity becomes 0). A link's capacity is gbps[its boundary]
 * (NIC links: gbps[0]). links: NULL for every switch-to-switch link, else the n_links of
 * them the flow may use (a block of the fabric; link ids in increasing order). */
fp_status fp__graph_bisection(const fp_fabric *fab, const int *gbps, const int64_t *s_links,
                              const int64_t *t_links, const uint8_t *link_down,
                              const int64_t *links, int64_t n_links, double *out, fp_error *err);

/* Largest number of switches on a shortest path from any of the source leaves (device ids)
 * to any leaf: BFS over the switch graph. */
fp_status fp__graph_leaf_eccentricity(const fp_fabric *fab, const int64_t *sources, int n,
                                      int *out_switches, fp_error *err);

/* Connected components of the switch graph without the links that are down: comp[v] for
 * every switch v (0-based over switches), and *n_comp. The caller frees *comp. */
fp_status fp__graph_components(const fp_fabric *fab, const uint8_t *link_down, int64_t **comp,
                               int64_t *n_comp, fp_error *err);

/* ---- metrics.c helpers shared with failure.c ---- */
/* Seeded, portable generator (splitmix64). */
uint64_t fp__rand_next(uint64_t *state);
/* NIC links per leaf on each side of the bisection split, counting only links that are up
 * (link_down may be NULL). The caller frees both arrays. */
fp_status fp__split_links(const fp_fabric *fab, const fp_analysis *an, const uint8_t *link_down,
                          int64_t **s_links, int64_t **t_links, fp_error *err);

#endif
