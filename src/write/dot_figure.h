/* fabplan — private to src/write/dot_figure.c and dot_figure_panel.c: the one-page fabric
 * figure being drawn (its page, the struct both files fill, and the small drawing helpers they
 * share). dot_figure.c draws the fabric; dot_figure_panel.c the labels, counts table and legend. */
#ifndef FP_WRITE_DOT_FIGURE_H
#define FP_WRITE_DOT_FIGURE_H
#include "write/dot.h"

/* The page: 16:9 in points, the drawing on the left, the table and legend on the right. */
#define FIG_W 1600.0
#define FIG_H 900.0
#define FIG_LEFT 40.0
#define FIG_RIGHT 1060.0    /* drawing area's right edge; the panel starts 20 pt further */
#define FIG_PANEL 1080.0
#define FIG_TOP 120.0       /* first row's centre */
#define FIG_BOTTOM 820.0    /* servers' row centre */
/* Above this many devices a tier above the group is drawn as one band, not box by box. */
#define FIG_MAX_BOXES 64
/* Above this many servers in the group they are drawn as one bar per block, not one by one. */
#define FIG_MAX_SERVERS 512

typedef struct fp_figure {
    Agraph_t *g;
    const fp_plan *plan;
    fp_shape sh;
    int64_t pod;            /* the group: pod index, -1 = the whole plane (2 tiers) */
    int64_t *local;         /* per device: index within its row of the figure, -1 when not drawn */
    Agnode_t **node;        /* per device drawn */
    double *x;              /* per device drawn: centre x on the page */
    int64_t n[FP_MAX_TIERS + 1];        /* devices of each tier in (or reached by) the group */
    int64_t links[FP_MAX_TIERS + 1];    /* links of each boundary in the group (b: tier b -> b+1) */
    double row_y[FP_MAX_TIERS + 1];     /* page y of each tier's row (y grows down the page) */
    int band[FP_MAX_TIERS + 1];         /* 1 when the tier is drawn as a band */
    int64_t su_lo, su_hi;               /* SUs of the group's leaves (rail-optimized), -1 none */
    int edges;
} fp_figure;

static inline void pin(Agnode_t *nd, double cx, double cy)
{
    fp__dot_pin(nd, cx, FIG_H - cy);
}

/* Text centred at (cx, cy). */
static inline Agnode_t *fig_text(fp_figure *f, const char *name, double cx, double cy,
                                 const char *label, const char *size)
{
    Agnode_t *nd = agnode(f->g, (char *)name, 1);
    pin(nd, cx, cy);
    set_attr(nd, "label", label);
    set_attr(nd, "shape", "plaintext");
    set_attr(nd, "style", "solid");
    set_attr(nd, "fixedsize", "false");
    /* As small as the text: the default minimum (0.75 x 0.5 in) reached past the page. */
    set_attr(nd, "width", "0.1");
    set_attr(nd, "height", "0.1");
    set_attr(nd, "margin", "0.03");
    set_attr(nd, "fontsize", size);
    return nd;
}

/* The right-hand panel and the labels (dot_figure_panel.c). */
void fp__fig_boundary_labels(fp_figure *f);
/* Rows of the counts table (each about 20 pt high at its font size). */
int fp__fig_counts_rows(const fp_figure *f);
void fp__fig_counts_table(fp_figure *f);
void fp__fig_legend(fp_figure *f, double top);

#endif
