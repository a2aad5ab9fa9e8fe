/* fabplan — the igraph adapter: the only file that includes igraph.
 *
 * Graphs are built in one igraph_create call (igraph_add_edges is O(E) per call, so adding in
 * chunks is quadratic). Vertices are switches only: servers do not forward traffic, and
 * leaving them out makes the graph ten times smaller. igraph aborts on error by default, so
 * every call runs under a non-aborting handler and failures come back as FP_EGRAPH. */
#include <igraph.h>
#include <pthread.h>
#include <stdlib.h>
#include "analysis/graph.h"

/* Debian's igraph 0.10 is built without thread-local state (IGRAPH_THREAD_SAFE 0): its error
 * handler, the "finally" stack that unwinds on errors and its RNG are process-wide, so two
 * threads inside igraph corrupt each other ("Corrupt finally stack" aborts). Every entry point
 * of this file holds one lock for its whole igraph section, and installs the ignoring handler
 * (the default aborts) for that section only, restoring the caller's on the way out. */
/* An igraph failure as fabplan's status: igraph out of memory is FP_ENOMEM (exit 4 in the CLI),
 * like any allocation of fabplan's own, never a verdict on the design; anything else
 * FP_EGRAPH. */
static fp_status ig_status(igraph_error_t ig)
{
    return ig == IGRAPH_ENOMEM ? FP_ENOMEM : FP_EGRAPH;
}

static pthread_mutex_t igraph_lock = PTHREAD_MUTEX_INITIALIZER;
static igraph_error_handler_t *igraph_prev;

static void ig_enter(void)
{
    pthread_mutex_lock(&igraph_lock);
    igraph_prev = igraph_set_error_handler(igraph_error_handler_ignore);
}

static void ig_leave(void)
{
    igraph_set_error_handler(igraph_prev);
    pthread_mutex_unlock(&igraph_lock);
}

#define IG_CALL(rc, call) ((rc) = (call))

static int64_t switch_count(const fp_fabric *fab)
{
    return fab->n_dev - fab->servers;
}

static int64_t vertex_of(const fp_fabric *fab, int32_t dev)
{
    return (int64_t)dev - fab->servers;
}

/* Links i-1 and i join the same two switches: the fabric lists parallel links one after the
 * other (at 131,072 GPUs, 4 tiers: 131,072 core - super-core links between 8,192 pairs). One
 * arc (or edge) stands for them all - their capacities added - so the graphs are smaller and
 * every max-flow value, distance and component is the same. */
static int same_pair(const fp_fabric *fab, int64_t first, int64_t i)
{
    return i > first && fab->link[i].a == fab->link[i - 1].a && fab->link[i].z == fab->link[i - 1].z;
}

/* Links j and i join the same two switches. */
static int same_ends(const fp_fabric *fab, int64_t j, int64_t i)
{
    return fab->link[i].a == fab->link[j].a && fab->link[i].z == fab->link[j].z;
}

/* The switch links a max-flow reads: links[0 .. n) when links is given (in link order, so
 * parallel links stay next to each other), else every link above the NIC links. */
typedef struct link_walk {
    const fp_fabric *fab;
    const int64_t *links;
    int64_t n, first;
} link_walk;

static int64_t walk_count(const link_walk *w)
{
    return w->links ? w->n : w->fab->n_link - w->first;
}

static int64_t walk_at(const link_walk *w, int64_t k)
{
    return w->links ? w->links[k] : w->first + k;
}

static fp_status graph_bisection_locked(const fp_fabric *fab, const int *gbps, const int64_t *s_links,
                              const int64_t *t_links, const uint8_t *link_down,
                              const int64_t *links, int64_t n_links, double *out, fp_error *err)
{
    const int64_t nsw = switch_count(fab), n_leaves = fab->tier_base[2] - fab->tier_base[1];
    const link_walk w = { fab, links, n_links, fab->boundary_base[1] };
    const int64_t n_walk = walk_count(&w);
    const igraph_integer_t src = nsw, snk = nsw + 1;
    igraph_vector_int_t edges;
    igraph_vector_t cap;
    igraph_t g;
    igraph_error_t ig;
    igraph_real_t value = 0;
    fp_status rc = FP_OK;
    int64_t n_arcs = 0, e = 0;

    /* A link that is down adds no arc (an arc of capacity 0 carries nothing, so the value is
     * the same); one that joins the same two switches as the last arc made adds to it. */
    for (int64_t k = 0, last = -1; k < n_walk; k++) {
        int64_t i = walk_at(&w, k);
        if (link_down && link_down[i])
            continue;
        n_arcs += last >= 0 && same_ends(fab, last, i) ? 0 : 2;
        last = i;
    }
    for (int64_t l = 0; l < n_leaves; l++)
        n_arcs += (s_links[l] > 0) + (t_links[l] > 0);
    /* dir2: every link is two opposite arcs, which max-flow handles about twice as fast as
     * an undirected graph (it would build the same arcs internally). */
    if (igraph_vector_int_init(&edges, 2 * n_arcs) != IGRAPH_SUCCESS)
        FP_FAIL(err, FP_ENOMEM, "bisection", "out of memory for %lld arcs", (long long)n_arcs);
    if (igraph_vector_init(&cap, n_arcs) != IGRAPH_SUCCESS) {
        igraph_vector_int_destroy(&edges);
        FP_FAIL(err, FP_ENOMEM, "bisection", "out of memory for %lld arcs", (long long)n_arcs);
    }
    for (int64_t k = 0, last = -1; k < n_walk; k++) {
        int64_t i = walk_at(&w, k);
        const fp_link *lk = &fab->link[i];
        if (link_down && link_down[i])
            continue;
        double c = (double)gbps[lk->boundary];
        int64_t a = vertex_of(fab, lk->a), z = vertex_of(fab, lk->z);
        int dup = last >= 0 && same_ends(fab, last, i);
        last = i;
        if (dup) {
            VECTOR(cap)[e - 2] += c;
            VECTOR(cap)[e - 1] += c;
            continue;
        }
        VECTOR(edges)[2 * e] = a;
        VECTOR(edges)[2 * e + 1] = z;
        VECTOR(cap)[e++] = c;
        VECTOR(edges)[2 * e] = z;
        VECTOR(edges)[2 * e + 1] = a;
        VECTOR(cap)[e++] = c;
    }
    for (int64_t l = 0; l < n_leaves; l++) {
        int64_t v = vertex_of(fab, (int32_t)(fab->tier_base[1] + l));
        if (s_links[l] > 0) {
            VECTOR(edges)[2 * e] = src;
            VECTOR(edges)[2 * e + 1] = v;
            VECTOR(cap)[e++] = (double)s_links[l] * gbps[0];
        }
        if (t_links[l] > 0) {
            VECTOR(edges)[2 * e] = v;
            VECTOR(edges)[2 * e + 1] = snk;
            VECTOR(cap)[e++] = (double)t_links[l] * gbps[0];
        }
    }
    IG_CALL(ig, igraph_create(&g, &edges, nsw + 2, IGRAPH_DIRECTED));
    igraph_vector_int_destroy(&edges);
    if (ig != IGRAPH_SUCCESS) {
        igraph_vector_destroy(&cap);
        FP_FAIL(err, ig_status(ig), "bisection", "building the flow graph: %s", igraph_strerror(ig));
    }
    /* igraph does not check the capacity length on every path: a short vector reads past
     * its end. Make sure it matches the edges we made. */
    if (igraph_vector_size(&cap) != igraph_ecount(&g)) {
        rc = fp__error_set(err, FP_EGRAPH, "bisection",
                           "internal: %lld capacities for %lld arcs",
                           (long long)igraph_vector_size(&cap), (long long)igraph_ecount(&g));
    } else {
        IG_CALL(ig, igraph_maxflow_value(&g, &value, src, snk, &cap, NULL));
        if (ig != IGRAPH_SUCCESS)
            rc = fp__error_set(err, ig_status(ig), "bisection", "max-flow: %s", igraph_strerror(ig));
    }
    igraph_destroy(&g);
    igraph_vector_destroy(&cap);
    if (rc == FP_OK)
        *out = value;
    return rc;
}

/* Undirected switch graph of the links that are up. */
static fp_status switch_graph(igraph_t *g, const fp_fabric *fab, const uint8_t *link_down,
                              const char *what, fp_error *err)
{
    const int64_t first = fab->boundary_base[1];
    int64_t n = 0, e = 0;
    igraph_vector_int_t edges;
    igraph_error_t ig;
    /* up: the last link kept joins the same pair as link i and is up (parallel links that are
     * down are left out; one up link of a pair keeps its edge). */
    for (int64_t i = first, prev_up = -1; i < fab->n_link; i++) {
        if (link_down && link_down[i])
            continue;
        n += !(prev_up == i - 1 && same_pair(fab, first, i));
        prev_up = i;
    }
    if (igraph_vector_int_init(&edges, 2 * n) != IGRAPH_SUCCESS)
        FP_FAIL(err, FP_ENOMEM, what, "out of memory for %lld edges", (long long)n);
    for (int64_t i = first, prev_up = -1; i < fab->n_link; i++) {
        if (link_down && link_down[i])
            continue;
        int dup = prev_up == i - 1 && same_pair(fab, first, i);
        prev_up = i;
        if (dup)
            continue;
        VECTOR(edges)[e++] = vertex_of(fab, fab->link[i].a);
        VECTOR(edges)[e++] = vertex_of(fab, fab->link[i].z);
    }
    IG_CALL(ig, igraph_create(g, &edges, switch_count(fab), IGRAPH_UNDIRECTED));
    igraph_vector_int_destroy(&edges);
    if (ig != IGRAPH_SUCCESS)
        FP_FAIL(err, ig_status(ig), what, "building the switch graph: %s", igraph_strerror(ig));
    return FP_OK;
}

/* BFS over the switch graph in fabplan's own arrays (no igraph: a plain BFS needs neither its
 * graph nor its lock, and this runs on the metrics thread): the graph in compressed rows, one
 * edge per pair of switches (same_pair), distances in hops, -1 for a switch not reached (the
 * leaves of other planes). */
static fp_status leaf_eccentricity_bfs(const fp_fabric *fab, const int64_t *sources, int n,
                                       int *out_switches, fp_error *err)
{
    const int64_t nsw = switch_count(fab), first = fab->boundary_base[1];
    const int64_t leaf0 = vertex_of(fab, (int32_t)fab->tier_base[1]),
                  leaf_end = vertex_of(fab, (int32_t)fab->tier_base[2]);
    int64_t *row = calloc((size_t)nsw + 1, sizeof *row), edges = 0, worst = 0;
    int32_t *dist = malloc(sizeof *dist * (size_t)(nsw > 0 ? nsw : 1));
    int32_t *queue = malloc(sizeof *queue * (size_t)(nsw > 0 ? nsw : 1));
    int32_t *adj = NULL;
    fp_status rc = FP_OK;
    if (row == NULL || dist == NULL || queue == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "diameter", "out of memory for %lld switches",
                           (long long)nsw);
        goto out;
    }
    for (int64_t i = first; i < fab->n_link; i++)
        if (!same_pair(fab, first, i)) {
            row[vertex_of(fab, fab->link[i].a) + 1]++;
            row[vertex_of(fab, fab->link[i].z) + 1]++;
            edges++;
        }
    for (int64_t v = 0; v < nsw; v++)
        row[v + 1] += row[v];
    if ((adj = malloc(sizeof *adj * (size_t)(2 * edges > 0 ? 2 * edges : 1))) == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, "diameter", "out of memory for %lld edges",
                           (long long)edges);
        goto out;
    }
    /* fill with dist[] as each row's cursor */
    for (int64_t v = 0; v < nsw; v++)
        dist[v] = 0;
    for (int64_t i = first; i < fab->n_link; i++)
        if (!same_pair(fab, first, i)) {
            int64_t a = vertex_of(fab, fab->link[i].a), z = vertex_of(fab, fab->link[i].z);
            adj[row[a] + dist[a]++] = (int32_t)z;
            adj[row[z] + dist[z]++] = (int32_t)a;
        }
    for (int s = 0; s < n; s++) {
        int64_t head = 0, tail = 0, root = vertex_of(fab, (int32_t)sources[s]);
        for (int64_t v = 0; v < nsw; v++)
            dist[v] = -1;
        dist[root] = 0;
        queue[tail++] = (int32_t)root;
        while (head < tail) {
            int32_t v = queue[head++];
            for (int64_t k = row[v]; k < row[v + 1]; k++)
                if (dist[adj[k]] < 0) {
                    dist[adj[k]] = dist[v] + 1;
                    queue[tail++] = adj[k];
                }
        }
        for (int64_t v = leaf0; v < leaf_end; v++)
            if (dist[v] > worst)
                worst = dist[v];
    }
    *out_switches = (int)worst + 1;
out:
    free(row);
    free(dist);
    free(queue);
    free(adj);
    return rc;
}

static fp_status graph_components_locked(const fp_fabric *fab, const uint8_t *link_down, int64_t **comp,
                               int64_t *n_comp, fp_error *err)
{
    igraph_t g;
    igraph_vector_int_t membership;
    igraph_integer_t count = 0;
    igraph_error_t ig;
    fp_status rc;
    const int64_t nsw = switch_count(fab);
    *comp = NULL;
    if ((rc = switch_graph(&g, fab, link_down, "failure", err)) != FP_OK)
        return rc;
    if (igraph_vector_int_init(&membership, 0) != IGRAPH_SUCCESS) {
        igraph_destroy(&g);
        FP_FAIL(err, FP_ENOMEM, "failure", "out of memory");
    }
    IG_CALL(ig, igraph_connected_components(&g, &membership, NULL, &count, IGRAPH_WEAK));
    igraph_destroy(&g);
    if (ig != IGRAPH_SUCCESS) {
        igraph_vector_int_destroy(&membership);
        FP_FAIL(err, ig_status(ig), "failure", "connected components: %s", igraph_strerror(ig));
    }
    *comp = malloc(sizeof **comp * (size_t)(nsw > 0 ? nsw : 1));
    if (*comp == NULL) {
        igraph_vector_int_destroy(&membership);
        FP_FAIL(err, FP_ENOMEM, "failure", "out of memory");
    }
    for (int64_t v = 0; v < nsw; v++)
        (*comp)[v] = VECTOR(membership)[v];
    *n_comp = count;
    igraph_vector_int_destroy(&membership);
    return FP_OK;
}

fp_status fp__graph_bisection(const fp_fabric *fab, const int *gbps, const int64_t *s_links,
                              const int64_t *t_links, const uint8_t *link_down,
                              const int64_t *links, int64_t n_links, double *out, fp_error *err)
{
    ig_enter();
    fp_status rc = graph_bisection_locked(fab, gbps, s_links, t_links, link_down, links, n_links,
                                          out, err);
    ig_leave();
    return rc;
}

fp_status fp__graph_leaf_eccentricity(const fp_fabric *fab, const int64_t *sources, int n,
                                      int *out_switches, fp_error *err)
{
    return leaf_eccentricity_bfs(fab, sources, n, out_switches, err);
}

fp_status fp__graph_components(const fp_fabric *fab, const uint8_t *link_down, int64_t **comp,
                               int64_t *n_comp, fp_error *err)
{
    ig_enter();
    fp_status rc = graph_components_locked(fab, link_down, comp, n_comp, err);
    ig_leave();
    return rc;
}
