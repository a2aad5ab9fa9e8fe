/* fabplan — the diagram writers' shared Graphviz plumbing (private to src/write/write_dot.c,
 * dot_overview.c, dot_figure.c (with dot_figure.h, dot_figure_panel.c), dot_detail.c and
 * dot_floor.c, the only files that include Graphviz).
 *
 * Graphviz names and attribute values are non-const char *; literals are cast through S(). Its
 * strings are interned (agstrdup), so stack buffers are fine as values. */
#ifndef FP_WRITE_DOT_H
#define FP_WRITE_DOT_H
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/gvc.h>
#include "write/writers.h"

#define S(lit) ((char *)(lit))

/* At most this many leaf (or spine) groups per plane in the overview; pods are merged into runs
 * beyond that. 8 keeps the widest rank about 8 nodes, so the drawing fits a 16:9 slide with its
 * text at least 10 px high at 1,280 x 720 (16 drew 2,251 pt wide at 16,384 GPUs: 6 px text). */
#define OVERVIEW_GROUPS_PER_TIER 8
/* A 2-tier Clos is one pod; its detail draws every link up to this many (above, no detail). */
#define DOT_MAX_EDGES 2600
/* Rack-to-rack runs shown on the floor plan. */
#define FLOOR_RUNS 12
/* Floor plan scale: points per metre (1 m = 80 pt keeps a 0.6 m rack wide enough for its label). */
#define FLOOR_PT_PER_M 80.0
/* The legends stand 1 m further left than the floor's left cross aisle, where runs turn. */
#define FLOOR_LEGEND_SHIFT (1.0 * FLOOR_PT_PER_M)

static inline void set_attr(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, S(""));
}

/* Pin node n at (x, y) points for the solver-free engines (nop, neato -n2). */
static inline void fp__dot_pin(void *n, double x, double y)
{
    char v[64];
    snprintf(v, sizeof v, "%.2f,%.2f!", x, y);
    set_attr(n, "pos", v);
}

/* "servers", "leaves", "spines", "cores", "super-cores" for tier 0 .. FP_MAX_TIERS, else
 * "switches". */
const char *fp__dot_role_plural(int tier);
/* The fill colour of a device of this tier (tier 0's out of range). */
const char *fp__dot_role_fill(int tier);
/* Rail colours: 8 distinct hues that stay apart for common colour-vision deficiencies
 * (Okabe-Ito), repeating from the ninth rail on. */
const char *fp__rail_colour(int64_t rail);

/* Write g as Graphviz source (.dot) or render it by path's extension (.svg, .png), then close
 * it. Errors: FP_EIO (with Graphviz's own message), FP_ENOMEM. */
fp_status fp__dot_emit(Agraph_t *g, const char *path, fp_error *err);
/* A new graph with the diagrams' common attributes: engine, title on top. NULL when out of memory. */
Agraph_t *fp__dot_new_graph(const char *name, const char *engine, const char *title);
/* A node drawn as its HTML table (a legend): no box of its own around the table. */
Agnode_t *fp__dot_table_node(Agraph_t *g, const char *name, const char *html);

/* The pod (0-based) of the unit the detail diagram draws (dot_detail.c): the group the one-page
 * figure shows. 0 for a 2-tier fabric, without a selection, or when the selector is bad. */
int64_t fp__detail_pod(const fp_plan *plan, const fp_write_options *o);

#endif
