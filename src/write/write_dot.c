/* fabplan — diagrams through Graphviz (the only module that includes it).
 *
 * Three diagrams, each written as Graphviz source (.dot) and rendered (.svg, .png on request):
 *  - overview (fabric): one node per group of identical switches and one for all servers, edges
 *    carrying the link count, speed and media between groups. Groups are pods (or runs of pods,
 *    or zones) so the node count stays in the tens at any scale: Graphviz cannot draw 500,000
 *    edges and nobody could read them.
 *  - detail (su-N / pod-N): every server, switch and link of one scalable unit or pod, rails
 *    coloured, port names at both ends of every edge; links leaving the unit are summed into one
 *    edge per device towards a node standing for the tier above.
 *  - floor: racks at their floor position coloured by role, with the busiest rack-to-rack runs.
 *
 * This file: the plumbing they share (declared in dot.h); the diagrams are in dot_overview.c,
 * dot_detail.c and dot_floor.c. */
#include "write/dot.h"

/* ------------------------------------------------------------------------------------------ */
/* Graphviz plumbing: error capture, output by extension. */

/* Graphviz reports through a process-wide callback; keep the last message for fp_error instead
 * of letting it print (the library never prints). */
static char gv_last_error[256];

static int gv_capture(char *msg)
{
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        n--;
    snprintf(gv_last_error, sizeof gv_last_error, "%.*s", (int)n, msg);
    return 0;
}

/* "dir/.fabric.svg.tmp" -> "svg". */
static void format_of(const char *path, char *fmt, size_t n)
{
    char base[512];
    snprintf(base, sizeof base, "%s", path);
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".tmp") == 0)
        base[len - 4] = '\0';
    const char *dot = strrchr(base, '.');
    snprintf(fmt, n, "%s", dot ? dot + 1 : "");
}

/* One Graphviz context for the whole process, never freed: the pango text plugin of Graphviz
 * 2.42 caches a font name that gvFreeContext frees, so a second context reads freed memory
 * (AddressSanitizer caught it). The context holds only plugin tables. */
static GVC_t *shared_context(void)
{
    static GVC_t *gvc;
    if (gvc == NULL)
        gvc = gvContext();
    return gvc;
}

/* Write the graph to path as .dot source, or lay it out with its "layout" attribute's engine
 * and render it in the format named by the extension. Takes ownership of g. */
fp_status fp__dot_emit(Agraph_t *g, const char *path, fp_error *err)
{
    char fmt[16];
    fp_status rc = FP_OK;
    format_of(path, fmt, sizeof fmt);
    agusererrf prev = agseterrf(gv_capture);
    agerrlevel_t prev_level = agseterr(AGERR);
    gv_last_error[0] = '\0';
    if (strcmp(fmt, "dot") == 0) {
        FILE *f = fp__create(path, err);
        if (f == NULL) {
            rc = FP_EIO;
        } else {
            agwrite(g, f);
            rc = fp__close_written(f, path, err);
        }
    } else {
        GVC_t *gvc = shared_context();
        const char *engine = agget(g, S("layout"));
        if (gvc == NULL) {
            rc = fp__error_set(err, FP_ENOMEM, path, "Graphviz: cannot create a context");
        } else if (gvLayout(gvc, g, engine && *engine ? engine : "dot") != 0) {
            rc = fp__error_set(err, FP_EGRAPH, path, "Graphviz layout (%s) failed: %s", engine,
                               gv_last_error[0] ? gv_last_error : "no message");
        } else {
            /* Rendered to memory and written here: Graphviz 2.42 calls exit(1) when a write to
             * a file fails (a full disk), which must not end the embedding program. */
            char *data = NULL;
            unsigned int len = 0;
            FILE *f;
            if (gvRenderData(gvc, g, fmt, &data, &len) != 0 || data == NULL)
                rc = fp__error_set(err, FP_EIO, path, "Graphviz cannot render %s as %s: %s", path,
                                   fmt, gv_last_error[0] ? gv_last_error : "no message");
            else if ((f = fp__create(path, err)) == NULL)
                rc = FP_EIO;
            else {
                fwrite(data, 1, len, f);
                rc = fp__close_written(f, path, err);
            }
            if (data)
                gvFreeRenderData(data);
            gvFreeLayout(gvc, g);
        }
    }
    agclose(g);
    agseterrf(prev);
    agseterr(prev_level);
    return rc;
}

/* Object ids in creation order. cgraph's default discipline uses the address of the interned
 * name as a named object's id and orders subgraphs by id, so clusters (and the .dot, and the
 * layout) came out in a different order from run to run. Declining to map names makes cgraph
 * keep them in its internal map under sequential ids. */
typedef struct seq_state {
    Agraph_t *root;
    IDTYPE next;
    int root_named;
} seq_state;

static void *seq_open(Agraph_t *g, Agdisc_t *disc)
{
    (void)disc;
    seq_state *st = malloc(sizeof *st);
    if (st) {
        st->root = g;
        st->next = 1;
        st->root_named = 0;
    }
    return st;
}

/* The root graph keeps cgraph's own scheme (its interned name is its id): agclose never removes
 * the root from the internal map, so putting it there would leak. */
static long seq_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
    seq_state *st = state;
    if (str != NULL && objtype == AGRAPH && !st->root_named && createflag) {
        st->root_named = 1;
        *id = (IDTYPE)(uintptr_t)agstrdup(st->root, str);
        return 1;
    }
    if (str != NULL || !createflag)
        return 0;
    *id = st->next;
    st->next += 2;
    return 1;
}

static long seq_alloc(void *state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    return (id & 1) == 0; /* odd ids are ours */
}

static void seq_free(void *state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    (void)id;
}

static char *seq_print(void *state, int objtype, IDTYPE id)
{
    (void)state;
    (void)objtype;
    return (id & 1) ? NULL : (char *)(uintptr_t)id;
}

static void seq_close(void *state)
{
    free(state);
}

static void seq_register(void *state, int objtype, void *obj)
{
    (void)state;
    (void)objtype;
    (void)obj;
}

static Agiddisc_t seq_id_disc = { seq_open, seq_map, seq_alloc, seq_free, seq_print, seq_close,
                                  seq_register };
/* Known cost: cgraph 2.42 keeps the internal-map entry of each named object (about 48 bytes)
 * after agclose; valgrind reports it as lost. Deterministic output is worth it. */
static Agdisc_t seq_disc = { &AgMemDisc, &seq_id_disc, &AgIoDisc };

Agraph_t *fp__dot_new_graph(const char *name, const char *engine, const char *title)
{
    Agraph_t *g = agopen((char *)name, Agundirected, &seq_disc);
    if (g == NULL)
        return NULL;
    set_attr(g, "layout", engine);
    set_attr(g, "label", title);
    set_attr(g, "labelloc", "t");
    set_attr(g, "fontname", "Helvetica");
    set_attr(g, "fontsize", "20");
    agattr(g, AGNODE, S("fontname"), S("Helvetica"));
    agattr(g, AGEDGE, S("fontname"), S("Helvetica"));
    agattr(g, AGNODE, S("style"), S("filled"));
    /* gvc adds this default to every later graph once it has laid one out; declare it up front
     * so the first file of a run is written like the others. */
    agattr(g, AGNODE, S("label"), S("\\N"));
    return g;
}

/* A node drawn as its HTML table (a legend): no box of its own around the table. */
Agnode_t *fp__dot_table_node(Agraph_t *g, const char *name, const char *html)
{
    Agnode_t *n = agnode(g, (char *)name, 1);
    char *h = agstrdup_html(agroot(g), (char *)html);
    set_attr(n, "label", h);
    agstrfree(agroot(g), h);
    set_attr(n, "shape", "plain");
    set_attr(n, "style", "solid");
    return n;
}

const char *fp__dot_role_plural(int tier)
{
    static const char *const plural[] = { "servers", "leaves", "spines", "cores", "super-cores" };
    return tier >= 0 && tier <= FP_MAX_TIERS ? plural[tier] : "switches";
}

const char *fp__dot_role_fill(int tier)
{
    static const char *const role_fill[] = { "#dbe7f3", "#b7e1a1", "#fdd49e", "#f4a582",
                                             "#d6a3c8" };
    return role_fill[tier >= 0 && tier <= FP_MAX_TIERS ? tier : 0];
}

const char *fp__rail_colour(int64_t rail)
{
    static const char *const rail_colour[] = { "#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                               "#56b4e9", "#d55e00", "#000000", "#b8a000" };
    return rail_colour[(rail < 0 ? 0 : rail) % 8];
}
