/* fabplan — write every document of a plan into a directory, all or nothing: fp_plan_write
 * lists the documents asked for, writes them into a publish's private folder (publish.c: lock,
 * temporary folder, renames, rollback, signal clean-up) on up to two writing threads and one
 * syncing thread, and publishes them only when every one is written. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "write/writers.h"
#include "write/publish.h"

typedef fp_status (*writer_fn)(const fp_plan *plan, const char *path, const fp_write_options *o,
                               fp_error *err);

/* A document written once per network of spec `networks` (k = 0 .. count - 1): its writer and
 * the name of its file for network k (0 when the plan has no network k). */
typedef fp_status (*net_writer_fn)(const fp_plan *plan, int k, const char *path,
                                   const fp_write_options *o, fp_error *err);
typedef int (*net_name_fn)(const fp_plan *plan, int k, const char *ext, char *buf, size_t n);

static fp_status json_writer(const fp_plan *plan, const char *path, const fp_write_options *o,
                             fp_error *err)
{
    int labels = (o->formats & FP_WRITE_LABELS) ? (int)o->labels : -1;
    return fp__write_json(plan, path, o->failure, labels, err);
}

/* An output is written when all of its flag bits are set. name_fn, when given, names the file
 * from the options (returns 0 when this plan has nothing to write there). split !=
 * FP_SPLIT_NONE: written only when the options ask for that split, and the name is a directory
 * of workbooks (replaced as a whole). A row with net_fn (fn NULL) is written for each network:
 * a run of such rows is written network by network, each network's files in the rows' order. */
typedef struct output {
    const char *name;
    unsigned flag;
    writer_fn fn;
    int (*name_fn)(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                   size_t n);
    fp_split_by split;
    net_writer_fn net_fn;
    net_name_fn net_name;
    int (*items)(const fp_plan *plan);  /* with net_fn: how many (networks, halls) */
    const char *dir;    /* a folder of the output folder the row's files go into, or NULL */
} output;

static const output outputs[] = {
    { "plan.json", FP_WRITE_JSON, json_writer, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "links.csv", FP_WRITE_LINKS, fp__write_links_csv, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "cables.csv", FP_WRITE_CABLES, fp__write_cables_csv, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "bom.csv", FP_WRITE_BOM, fp__write_bom_csv, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "plan.xlsx", FP_WRITE_XLSX, fp__write_xlsx, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "by-row", FP_WRITE_XLSX, fp__write_xlsx_split, NULL, FP_SPLIT_ROW, NULL, NULL, NULL, NULL },
    { "by-hall", FP_WRITE_XLSX, fp__write_xlsx_split, NULL, FP_SPLIT_HALL, NULL, NULL, NULL, NULL },
    { "labels.csv", FP_WRITE_LABELS, fp__write_labels_csv, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    /* The NetBox set, in the order NetBox imports it (docs/outputs.md). */
    { "netbox-tags.csv", FP_WRITE_NETBOX, fp__write_netbox_tags, fp__netbox_tags_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-sites.csv", FP_WRITE_NETBOX, fp__write_netbox_sites, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-locations.csv", FP_WRITE_NETBOX, fp__write_netbox_locations, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-manufacturers.csv", FP_WRITE_NETBOX, fp__write_netbox_manufacturers, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-device-roles.csv", FP_WRITE_NETBOX, fp__write_netbox_roles, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-platforms.csv", FP_WRITE_NETBOX, fp__write_netbox_platforms, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-device-types.csv", FP_WRITE_NETBOX, fp__write_netbox_device_types, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-module-types.csv", FP_WRITE_NETBOX, fp__write_netbox_module_types, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-racks.csv", FP_WRITE_NETBOX, fp__write_netbox_racks, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-power-panels.csv", FP_WRITE_NETBOX, fp__write_netbox_power_panels, fp__netbox_power_file_name, FP_SPLIT_NONE,
      NULL, NULL, NULL, NULL },
    { "netbox-power-feeds.csv", FP_WRITE_NETBOX, fp__write_netbox_power_feeds, fp__netbox_power_file_name, FP_SPLIT_NONE,
      NULL, NULL, NULL, NULL },
    { "netbox-devices.csv", FP_WRITE_NETBOX, fp__write_netbox_devices, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-power-ports.csv", FP_WRITE_NETBOX, fp__write_netbox_power_ports, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-interfaces.csv", FP_WRITE_NETBOX, fp__write_netbox_interfaces, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-module-bays.csv", FP_WRITE_NETBOX, fp__write_netbox_module_bays, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-modules.csv", FP_WRITE_NETBOX, fp__write_netbox_modules, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "netbox-cables.csv", FP_WRITE_NETBOX, fp__write_netbox_cables, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "topology.csv", FP_WRITE_TOPOLOGY, fp__write_topology_csv, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "avd-cv-topology.yml", FP_WRITE_AVD, fp__write_avd_topology, fp__avd_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "ibnetdiscover.topo", FP_WRITE_IBNET, fp__write_ibnet_topology, fp__ibnet_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    /* each other InfiniBand network's subnet (ibnetdiscover-<network>.topo) */
    { "topo", FP_WRITE_IBNET, NULL, NULL, FP_SPLIT_NONE, fp__write_net_ibnet_topology, fp__net_ibnet_file_name, fp__plan_net_count, NULL },
    { "ib-node-name-map", FP_WRITE_IBNET, fp__write_ib_node_name_map, fp__ib_any_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "ib-ports.csv", FP_WRITE_IBNET, fp__write_ib_ports_csv, fp__ib_any_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "topology.dot", FP_WRITE_PTM, fp__write_ptm_topology, fp__ptm_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "cvt-p2p.xlsx", FP_WRITE_CVT, fp__write_cvt_p2p, fp__cvt_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "topology.conf", FP_WRITE_SLURM, fp__write_slurm_tree, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "topology-block.conf", FP_WRITE_SLURM, fp__write_slurm_block, fp__slurm_block_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "topology.yaml", FP_WRITE_SLURM, fp__write_slurm_yaml, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "k8s-node-labels.sh", FP_WRITE_K8S, fp__write_k8s_labels, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "kueue-topology.yaml", FP_WRITE_K8S, fp__write_kueue_topology, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "fabric.dot", FP_WRITE_OVERVIEW, fp__write_overview, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "fabric.svg", FP_WRITE_OVERVIEW, fp__write_overview, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "fabric.png", FP_WRITE_OVERVIEW | FP_WRITE_PNG, fp__write_overview, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    /* each network's overview (fabric-<network>.*) */
    { "dot", FP_WRITE_OVERVIEW, NULL, NULL, FP_SPLIT_NONE, fp__write_net_overview, fp__net_overview_file_name, fp__plan_net_count, NULL },
    { "svg", FP_WRITE_OVERVIEW, NULL, NULL, FP_SPLIT_NONE, fp__write_net_overview, fp__net_overview_file_name, fp__plan_net_count, NULL },
    { "png", FP_WRITE_OVERVIEW | FP_WRITE_PNG, NULL, NULL, FP_SPLIT_NONE, fp__write_net_overview,
      fp__net_overview_file_name, fp__plan_net_count, NULL },
    { "dot", FP_WRITE_DETAIL, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "svg", FP_WRITE_DETAIL, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "png", FP_WRITE_DETAIL | FP_WRITE_PNG, fp__write_detail, fp__detail_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "floor.dot", FP_WRITE_FLOOR, fp__write_floor, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "floor.svg", FP_WRITE_FLOOR, fp__write_floor, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "floor.png", FP_WRITE_FLOOR | FP_WRITE_PNG, fp__write_floor, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    /* each hall rack by rack (floor-by-hall/H<n>.svg) */
    { "svg", FP_WRITE_FLOOR, NULL, NULL, FP_SPLIT_NONE, fp__write_floor_hall, fp__floor_hall_file_name,
      fp__floor_hall_count, "floor-by-hall" },
    /* After the floor, so the diagrams drawn without a layout engine (nop2) follow each other:
     * dot and nop2 alternating in one process crash Graphviz 2.42's dot (use-after-free). */
    { "dot", FP_WRITE_FIGURE, fp__write_figure, fp__figure_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "svg", FP_WRITE_FIGURE, fp__write_figure, fp__figure_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    { "png", FP_WRITE_FIGURE | FP_WRITE_PNG, fp__write_figure, fp__figure_file_name, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
    /* after the diagrams: the report inlines them */
    { "report.html", FP_WRITE_REPORT, fp__write_report, NULL, FP_SPLIT_NONE, NULL, NULL, NULL, NULL },
};
#define N_OUTPUTS (sizeof outputs / sizeof outputs[0])
/* Halls at most (spec layout.halls is 1 to 64, as the layout's limit): a floor-by-hall file each. */
#define MAX_HALL_FILES 64
/* Documents of one write at most: the per-network rows (4) once per network, the per-hall row
 * once per hall. */
#define MAX_JOBS (N_OUTPUTS + 4 * (FP_MAX_NETWORKS - 1) + MAX_HALL_FILES)

/* The plan stages (FP_STAGE_*) each document reads, so a plan for a few documents builds only
 * those (fp_plan_new_opts). A document reading a getter of a stage not listed here would see
 * that stage's zeroes: tests/write/test_stages.c writes each alone from a plan with just these
 * stages and compares it with the same document from a full plan. */
static const struct {
    unsigned flag;
    unsigned stages;
    const char *name;           /* for the message when the plan lacks them */
} format_stages[] = {
    { FP_WRITE_JSON, FP_STAGE_ALL, "plan.json" },
    { FP_WRITE_LINKS, FP_STAGE_FABRIC, "links.csv" },
    { FP_WRITE_CABLES, FP_STAGE_CABLING, "cables.csv" },
    { FP_WRITE_BOM, FP_STAGE_BOM, "bom.csv" },
    { FP_WRITE_XLSX, FP_STAGE_ALL, "plan.xlsx" },
    { FP_WRITE_LABELS, FP_STAGE_CABLING, "labels.csv" },
    { FP_WRITE_NETBOX, FP_STAGE_CABLING, "the NetBox files" },
    { FP_WRITE_TOPOLOGY, FP_STAGE_FABRIC, "topology.csv" },
    { FP_WRITE_AVD, FP_STAGE_FABRIC, "avd-cv-topology.yml" },
    { FP_WRITE_IBNET, FP_STAGE_FABRIC, "ibnetdiscover.topo" },
    { FP_WRITE_PTM, FP_STAGE_FABRIC, "topology.dot" },
    { FP_WRITE_CVT, FP_STAGE_CABLING, "cvt-p2p.xlsx" },   /* racks and U */
    { FP_WRITE_SLURM, FP_STAGE_FABRIC, "topology.conf" },
    { FP_WRITE_K8S, FP_STAGE_FABRIC, "k8s-node-labels.sh" },
    { FP_WRITE_REPORT, FP_STAGE_ALL, "report.html" },
    { FP_WRITE_OVERVIEW, FP_STAGE_CABLING, "fabric.svg" },   /* links coloured by medium */
    { FP_WRITE_FIGURE, FP_STAGE_FABRIC, "the group figure" },
    { FP_WRITE_DETAIL, FP_STAGE_FABRIC, "the detail diagram" },
    { FP_WRITE_FLOOR, FP_STAGE_CABLING, "floor.svg" },
};
#define N_FORMAT_STAGES (sizeof format_stages / sizeof format_stages[0])

unsigned fp_write_stages(unsigned formats)
{
    unsigned s = FP_STAGE_FABRIC;
    for (size_t i = 0; i < N_FORMAT_STAGES; i++)
        if (formats & format_stages[i].flag)
            s |= format_stages[i].stages;
    return fp_plan_stages_needed(s);
}

/* Diagrams go through Graphviz, which keeps process-wide state: one diagram at a time. */
static pthread_mutex_t graphviz_lock = PTHREAD_MUTEX_INITIALIZER;

/* Write one document (network k for a per-network row). */
static fp_status run_writer(const output *out, int k, const fp_plan *plan, const char *path,
                            const fp_write_options *o, fp_error *err)
{
    int gv = (out->flag & (FP_WRITE_OVERVIEW | FP_WRITE_FIGURE | FP_WRITE_DETAIL | FP_WRITE_FLOOR)) != 0;
    if (gv)
        pthread_mutex_lock(&graphviz_lock);
    fp_status rc = out->net_fn ? out->net_fn(plan, k, path, o, err) : out->fn(plan, path, o, err);
    if (gv)
        pthread_mutex_unlock(&graphviz_lock);
    return rc;
}

fp_status fp__write_options_normal(const fp_write_options *in, fp_write_options *out,
                                   const char *caller, fp_error *err)
{
    const fp_write_options def = FP_WRITE_OPTIONS_INIT;
    *out = def;
    if (in == NULL)
        return FP_OK;
    if (in->version < 1 || in->version > FP_WRITE_OPTIONS_VERSION)
        FP_FAIL(err, FP_EINVAL, "", "%s: fp_write_options version %d, expected 1 to %d "
                "(FP_WRITE_OPTIONS_INIT sets it)", caller, in->version, FP_WRITE_OPTIONS_VERSION);
    /* A caller built against version v has the members of versions 1..v only. */
    out->formats = in->formats;
    out->progress = in->progress;
    out->payload = in->payload;
    if (in->version >= 2) {
        out->detail = in->detail;
        out->split_by = in->split_by;
    }
    if (in->version >= 3)
        out->labels = in->labels;
    if (in->version >= 4)
        out->paper = in->paper;
    if (in->version >= 5)
        out->failure = in->failure;
    if (in->version >= 6)
        out->jobs = in->jobs;
    else
        out->jobs = 1;  /* one thread, as version 5 and earlier wrote */
    if (in->version >= 7)
        out->k8s_labels = in->k8s_labels;
    if ((unsigned)out->split_by > FP_SPLIT_HALL || (unsigned)out->labels > FP_LABELS_TIA606 ||
        (unsigned)out->paper > FP_PAPER_LETTER || out->jobs < 0)
        FP_FAIL(err, FP_EINVAL, "", "%s: options out of range (split_by %d, labels %d, paper %d, "
                "jobs %d; expected 0 to 2, 0 to 1, 0 to 1, 0 or more)", caller,
                (int)out->split_by, (int)out->labels, (int)out->paper, out->jobs);
    return FP_OK;
}

const fp_write_options *fp__write_opts(const fp_write_options *o)
{
    /* FP_WRITE_OPTIONS_INIT's values, on one thread as a NULL always meant here */
    static const fp_write_options def = { .version = FP_WRITE_OPTIONS_VERSION,
                                          .formats = FP_WRITE_DEFAULT, .jobs = 1 };
    return o ? o : &def;
}

int fp__write_jobs(const fp_write_options *o)
{
    if (o->jobs == 1)
        return 1;
    long jobs = o->jobs;
    if (jobs <= 0) {
        jobs = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = jobs < 1 ? 1 : jobs > 8 ? 8 : jobs;
    }
    return jobs > 64 ? 64 : (int)jobs;
}

static void locked_progress(const char *stage, double frac, void *payload)
{
    fp_progress_lock *p = payload;
    pthread_mutex_lock(&p->lock);
    p->fn(stage, frac, p->payload);
    pthread_mutex_unlock(&p->lock);
}

void fp__progress_lock_init(fp_progress_lock *pl, const fp_write_options *opts,
                            fp_write_options *locked)
{
    *locked = *opts;
    pthread_mutex_init(&pl->lock, NULL);
    pl->fn = opts->progress;
    pl->payload = opts->payload;
    if (opts->progress != NULL) {
        locked->progress = locked_progress;
        locked->payload = pl;
    }
}

void fp__progress_lock_destroy(fp_progress_lock *pl)
{
    pthread_mutex_destroy(&pl->lock);
}

/* The hall files are one output, their folder; each is a member of it. */
_Static_assert(MAX_JOBS - MAX_HALL_FILES + 1 <= PUB_MAX, "PUB_MAX holds every output of fp_plan_write");
_Static_assert(MAX_HALL_FILES <= PUB_MEMBERS, "PUB_MEMBERS holds every hall's floor plan");
typedef struct fp_publish run;


/* ---- fp_plan_write on several threads ---- */

/* One document to write: its row of the output table, its name in the run, its path. */
typedef struct doc_job {
    const output *out;
    int net;                    /* the network of a per-network row (output.net_fn) */
    size_t at;                  /* index in outputs[]: the earlier failure is the one returned */
    size_t name;                /* index in run.name */
    char path[4600];
} doc_job;

/* Every document is fsynced before anything is published. With threads, a thread of its own
 * does it while the others write: each writing thread hands over the name of every document it
 * finishes, so the disk writes one document while the CPU makes the next, and publishing waits
 * only for the last ones. A name not synced here (no thread, or an earlier sync failed) is
 * synced by publish() as before. */
typedef struct syncer {
    run *r;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t queue[PUB_MAX], head, tail;
    int closed;
    size_t failed;              /* index of the name whose sync failed; PUB_MAX: none */
    int failed_errno;
} syncer;

static void *sync_main(void *arg)
{
    syncer *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->head == s->tail && !s->closed)
            pthread_cond_wait(&s->cond, &s->lock);
        if (s->head == s->tail)
            break;
        size_t i = s->queue[s->head++];
        int skip = s->failed != PUB_MAX;
        pthread_mutex_unlock(&s->lock);
        int bad = skip ? 0 : fp__sync_tree(s->r->tfd, s->r->name[i], 0), e = errno;
        pthread_mutex_lock(&s->lock);
        if (skip)
            continue;
        if (bad) {
            s->failed = i;
            s->failed_errno = e;
        } else {
            s->r->synced[i] = 1;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void sync_hand(syncer *s, size_t name)
{
    if (s == NULL || name >= PUB_MAX)
        return;
    pthread_mutex_lock(&s->lock);
    if (s->tail < PUB_MAX)
        s->queue[s->tail++] = name;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

/* Start the syncing thread; 0 when it cannot be made (publish() then syncs everything). */
static int sync_start(syncer *s, pthread_t *tid, run *r)
{
    memset(s, 0, sizeof *s);
    s->r = r;
    s->failed = PUB_MAX;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    if (fp__thread_start(tid, sync_main, s) == 0)
        return 1;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    return 0;
}

/* No more names: wait for the syncing thread. A failed sync is the run's error unless a
 * document already failed (rc). */
static fp_status sync_finish(syncer *s, pthread_t tid, fp_status rc, fp_error *err)
{
    pthread_mutex_lock(&s->lock);
    s->closed = 1;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    pthread_join(tid, NULL);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    if (rc == FP_OK && s->failed != PUB_MAX) {
        const run *r = s->r;
        errno = s->failed_errno;
        rc = fp__error_set(err, FP_EIO, r->name[s->failed], "cannot sync %s/%s: %s", r->tpath,
                           r->name[s->failed], strerror(errno));
    }
    return rc;
}

/* On two cores the other documents wait until plan.xlsx's cells are written: the workbook's
 * cells (the Cables sheet on its thread, the Ports sheet on another: write_xlsx.c) and then its
 * compression (one thread, about half its time) are its critical path, and the other documents
 * written meanwhile would take a third of both cores from the Cables sheet; written during the
 * compression they use the core it leaves idle. The gate opens at the cells' end, or when the
 * workbook's thread is done (it failed early). */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int open;
} gate;

static void gate_open(void *arg)
{
    gate *g = arg;
    pthread_mutex_lock(&g->lock);
    g->open = 1;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

static void gate_wait(gate *g)
{
    pthread_mutex_lock(&g->lock);
    while (!g->open)
        pthread_cond_wait(&g->cond, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

/* The documents one thread writes, in table order, until one fails. */
typedef struct doc_list {
    doc_job **job;
    size_t n;
    const fp_plan *plan;
    const fp_write_options *o;
    syncer *sync;
    fp_status rc;
    size_t failed_at;           /* outputs[] index of the failed document; N_OUTPUTS: none */
    fp_error *err;
    fp_error own_err;           /* err of the second thread */
    gate *xlsx_gate;            /* opened when plan.xlsx's cells are written (NULL: none) */
} doc_list;

static void write_docs(doc_list *w)
{
    w->rc = FP_OK;
    w->failed_at = N_OUTPUTS;
    for (size_t k = 0; k < w->n; k++) {
        const doc_job *j = w->job[k];
        if (w->xlsx_gate != NULL && j->out->fn == fp__write_xlsx)
            w->rc = fp__write_xlsx_gated(w->plan, j->path, w->o, gate_open, w->xlsx_gate, w->err);
        else
            w->rc = run_writer(j->out, j->net, w->plan, j->path, w->o, w->err);
        if (w->rc != FP_OK) {
            w->failed_at = j->at;
            return;
        }
        sync_hand(w->sync, j->name);
    }
}

static void *side_main(void *arg)
{
    doc_list *w = arg;
    write_docs(w);
    if (w->xlsx_gate != NULL)
        gate_open(w->xlsx_gate);
    return NULL;
}

/* What the second writing thread takes: plan.xlsx when it is asked for (at 131,072 GPUs the
 * workbook takes longer than every other document together); without it the large tables that
 * need no Graphviz - links.csv, labels.csv, the NetBox set, topology.csv: about half of the
 * other documents' work - while this thread writes plan.json, cables.csv, bom.csv, the diagrams
 * (one at a time under the Graphviz lock) and report.html (which inlines the diagrams' files,
 * so it follows them on the same thread). The files are the same either way. */
static int on_side(const output *out, unsigned formats)
{
    if (formats & FP_WRITE_XLSX)
        return out->fn == fp__write_xlsx;
    return (out->flag & (FP_WRITE_LINKS | FP_WRITE_LABELS | FP_WRITE_NETBOX | FP_WRITE_TOPOLOGY)) != 0;
}

/* Register document `name` of row i (network or hall k) and list it. A file in a folder of
 * the output folder ("floor-by-hall/H2.svg") is a file of that folder, which publishes whole. */
static fp_status add_job(run *r, size_t i, int k, const char *name, doc_job *jobs, size_t *n,
                         fp_error *err)
{
    fp_status rc = fp__publish_add(r, name, outputs[i].split != FP_SPLIT_NONE, jobs[*n].path,
                                   sizeof jobs[*n].path, err);
    if (rc != FP_OK)
        return rc;
    jobs[*n].out = &outputs[i];
    jobs[*n].net = k;
    jobs[*n].at = i;
    /* a folder's file is synced with its folder, by publish */
    jobs[*n].name = strchr(name, '/') != NULL ? PUB_MAX : r->n - 1;
    (*n)++;
    return FP_OK;
}

/* Call fn(arg, i, k, name) for every document the options ask of this plan, in the table's
 * order (row i, network k, its file name): the one walk that both lists the documents to write
 * and names them for the caller (fp_plan_write_names). Stops at the first non-FP_OK return. */
typedef fp_status (*each_doc_fn)(void *arg, size_t i, int k, const char *name);
static fp_status each_doc(const fp_plan *plan, const fp_write_options *opts, each_doc_fn fn,
                          void *arg)
{
    fp_split_by split = opts->split_by;
    fp_status rc;
    for (size_t i = 0; i < N_OUTPUTS; i++) {
        char name[256];
        if (outputs[i].net_fn) {
            /* a run of per-network (or per-hall) rows: network by network; a row with a folder
             * names its files in it */
            size_t end = i;
            while (end < N_OUTPUTS && outputs[end].net_fn && outputs[end].items == outputs[i].items)
                end++;
            int items = outputs[i].items(plan);
            for (int k = 0; k < items; k++)
                for (size_t j = i; j < end; j++) {
                    char file[200];
                    if ((opts->formats & outputs[j].flag) != outputs[j].flag ||
                        !outputs[j].net_name(plan, k, outputs[j].name, file, sizeof file))
                        continue;
                    snprintf(name, sizeof name, "%s%s%s", outputs[j].dir ? outputs[j].dir : "",
                             outputs[j].dir ? "/" : "", file);
                    if ((rc = fn(arg, j, k, name)) != FP_OK)
                        return rc;
                }
            i = end - 1;
            continue;
        }
        if ((opts->formats & outputs[i].flag) != outputs[i].flag ||
            (outputs[i].split != FP_SPLIT_NONE && outputs[i].split != split))
            continue;
        snprintf(name, sizeof name, "%s", outputs[i].name);
        if (outputs[i].name_fn &&
            !outputs[i].name_fn(plan, opts, outputs[i].name, name, sizeof name))
            continue;
        if ((rc = fn(arg, i, 0, name)) != FP_OK)
            return rc;
    }
    return FP_OK;
}

typedef struct job_walk {
    run *r;
    doc_job *jobs;
    size_t n;
    fp_error *err;
} job_walk;

static fp_status add_walked(void *arg, size_t i, int k, const char *name)
{
    job_walk *w = arg;
    return add_job(w->r, i, k, name, w->jobs, &w->n, w->err);
}

/* Register every document's name (checked before anything is written) and list them. */
static fp_status plan_jobs(run *r, const fp_plan *plan, const fp_write_options *opts,
                           doc_job *jobs, size_t *n_jobs, fp_error *err)
{
    job_walk w = { r, jobs, 0, err };
    fp_status rc = each_doc(plan, opts, add_walked, &w);
    *n_jobs = w.n;
    return rc;
}

/* ---- what a write holds, for the caller's summary ---- */

typedef struct name_walk {
    void (*fn)(const char *name, int is_dir, void *arg);
    void *arg;
    size_t n;
    unsigned wrote;             /* FP_WRITE_* bits of the rows that gave a file */
} name_walk;

static fp_status name_walked(void *arg, size_t i, int k, const char *name)
{
    name_walk *w = arg;
    (void)k;
    w->n++;
    w->wrote |= outputs[i].flag & ~FP_WRITE_PNG;
    if (w->fn != NULL)
        w->fn(name, outputs[i].split != FP_SPLIT_NONE, w->arg);
    return FP_OK;
}

size_t fp_plan_write_names(const fp_plan *plan, const fp_write_options *opts,
                           void (*fn)(const char *name, int is_dir, void *arg), void *arg)
{
    fp_write_options def = FP_WRITE_OPTIONS_INIT;
    name_walk w = { fn, arg, 0, 0 };
    if (plan == NULL)
        return 0;
    each_doc(plan, opts != NULL ? opts : &def, name_walked, &w);
    return w.n;
}

/* The documents a plan can lack, and why (the name functions of the table say when). */
static const struct {
    unsigned flag;
    const char *what, *why;
} not_for_plan[] = {
    { FP_WRITE_AVD, "avd-cv-topology.yml",
      "AVD's cv_topology configures Ethernet (EOS) switches and this fabric is InfiniBand" },
    { FP_WRITE_IBNET, "ibnetdiscover.topo, ib-node-name-map, ib-ports.csv",
      "they describe an InfiniBand fabric for ibsim and fabplan verify and this fabric is "
      "Ethernet" },
    { FP_WRITE_PTM, "topology.dot",
      "Cumulus PTM checks Ethernet links (LLDP) and this plan has no Ethernet network" },
    { FP_WRITE_CVT, "cvt-p2p.xlsx",
      "it is NVIDIA CVT's sheet of InfiniBand links and this plan has no InfiniBand network" },
    { FP_WRITE_DETAIL, "the detail diagram", NULL },    /* why: fp_plan_detail_unit */
};

size_t fp_plan_write_skipped(const fp_plan *plan, const fp_write_options *opts,
                             void (*fn)(const char *what, const char *why, void *arg), void *arg)
{
    fp_write_options def = FP_WRITE_OPTIONS_INIT;
    name_walk w = { NULL, NULL, 0, 0 };
    size_t n = 0;
    if (plan == NULL)
        return 0;
    if (opts == NULL)
        opts = &def;
    each_doc(plan, opts, name_walked, &w);
    for (size_t i = 0; i < sizeof not_for_plan / sizeof not_for_plan[0]; i++) {
        if (!(opts->formats & not_for_plan[i].flag) || (w.wrote & not_for_plan[i].flag))
            continue;
        fp_error why = { 0 };
        char unit[32];
        const char *text = not_for_plan[i].why;
        if (text == NULL) {
            if (fp_plan_detail_unit(plan, opts, unit, sizeof unit, &why))
                continue;   /* a unit to draw: not skipped (cannot happen with no file) */
            text = why.msg;
        }
        n++;
        if (fn != NULL)
            fn(not_for_plan[i].what, text, arg);
    }
    return n;
}

/* Options that depend on the plan, checked before anything touches the disk. */
static fp_status check_for_plan(const fp_plan *plan, const fp_write_options *opts, fp_error *err)
{
    fp_status rc;
    for (size_t i = 0; i < N_FORMAT_STAGES; i++)
        if ((opts->formats & format_stages[i].flag) &&
            (rc = fp__plan_need(plan, format_stages[i].stages, format_stages[i].name, err)) != FP_OK)
            return rc;
    if ((opts->formats & FP_WRITE_DETAIL) && (rc = fp__detail_check(plan, opts, err)) != FP_OK)
        return rc;
    if ((opts->formats & FP_WRITE_K8S) && (rc = fp__k8s_check(plan, opts, err)) != FP_OK)
        return rc;
    return FP_OK;
}

/* Open the private folder and list the documents (*jobs, *n_jobs); nothing to undo on error. */
static fp_status begin_jobs(const fp_plan *plan, const char *dir, const fp_write_options *opts,
                            run **r, doc_job **jobs, size_t *n_jobs, fp_error *err)
{
    fp_status rc;
    *jobs = calloc(MAX_JOBS, sizeof **jobs);
    if (fp__fault(FP_FAULT_ALLOC) || *jobs == NULL) {
        free(*jobs);
        FP_FAIL(err, FP_ENOMEM, dir, "out of memory writing into %s", dir);
    }
    if ((rc = fp_publish_begin(dir, r, err)) != FP_OK) {
        free(*jobs);
        return rc;
    }
    (*r)->replace = 1;  /* one plan per folder: the earlier plan's other documents go */
    if ((rc = plan_jobs(*r, plan, opts, *jobs, n_jobs, err)) != FP_OK) {
        fp_publish_abort(*r);
        free(*jobs);
        return rc;
    }
    return FP_OK;
}

/* The threads of one fp_plan_write and what they share: this thread's list (here), the second
 * writing thread's (side), the syncing thread, the workbook's gate, progress under a lock. */
typedef struct crew {
    doc_job *mine[MAX_JOBS], *theirs[MAX_JOBS];
    doc_list here, side;
    fp_write_options topts;
    fp_progress_lock pl;
    syncer sync;
    gate xg;
    pthread_t side_tid, sync_tid;
    int side_started, sync_started, locked;
} crew;

/* Both writing threads call progress through one lock, so the caller's sees one call at a time. */
static void crew_lock_progress(crew *c, const fp_write_options *opts)
{
    fp__progress_lock_init(&c->pl, opts, &c->topts);
    c->here.o = c->side.o = &c->topts;
    c->locked = 1;
}

/* Start the syncing thread and the second writing thread with its share (on_side); when no
 * thread can be made, this one writes them all in table order. */
static void crew_start(crew *c, run *r, doc_job *jobs, size_t n_jobs, const fp_write_options *opts,
                       int threads)
{
    if ((c->sync_started = sync_start(&c->sync, &c->sync_tid, r)) != 0)
        c->here.sync = c->side.sync = &c->sync;
    for (size_t k = 0; k < n_jobs; k++)
        if (on_side(jobs[k].out, opts->formats))
            c->theirs[c->side.n++] = &jobs[k];
    /* plan.xlsx first, the rest after its cells on two cores (gate) */
    if (threads == 2 && (opts->formats & FP_WRITE_XLSX)) {
        pthread_mutex_init(&c->xg.lock, NULL);
        pthread_cond_init(&c->xg.cond, NULL);
        c->side.xlsx_gate = &c->xg;
    }
    if (c->side.n > 0 && fp__thread_start(&c->side_tid, side_main, &c->side) == 0)
        c->side_started = 1;
}

/* Join the threads (the second writer, then the syncer) and return the run's status: of two
 * failed documents the earlier in the table wins, a document's failure before a sync's. */
static fp_status crew_finish(crew *c, fp_status rc, fp_error *err)
{
    if (c->side_started) {
        pthread_join(c->side_tid, NULL);
        /* Both failed: the error of the earlier document in the table. */
        if (c->side.rc != FP_OK && c->side.failed_at < c->here.failed_at) {
            rc = c->side.rc;
            if (err != NULL)
                *err = c->side.own_err;
        }
    }
    if (c->side.xlsx_gate != NULL) {
        pthread_mutex_destroy(&c->xg.lock);
        pthread_cond_destroy(&c->xg.cond);
    }
    if (c->sync_started)
        rc = sync_finish(&c->sync, c->sync_tid, rc, err);
    if (c->locked)
        fp__progress_lock_destroy(&c->pl);
    return rc;
}

fp_status fp_plan_write(const fp_plan *plan, const char *dir, const fp_write_options *opts,
                        fp_error *err)
{
    fp_write_options normal;
    fp_status rc = FP_OK;
    run *r;
    if (plan == NULL || dir == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_write: NULL plan or directory");
    /* Every writer reads the options of the current version, whatever the caller's. */
    if ((rc = fp__write_options_normal(opts, &normal, "fp_plan_write", err)) != FP_OK)
        return rc;
    opts = &normal;
    if ((rc = check_for_plan(plan, opts, err)) != FP_OK)
        return rc;
    doc_job *jobs;
    size_t n_jobs = 0;
    if ((rc = begin_jobs(plan, dir, opts, &r, &jobs, &n_jobs, err)) != FP_OK)
        return rc;
    /* With threads: a second thread writes its share (on_side) while this one writes the rest,
     * a third fsyncs what they finish; progress calls one at a time. Files go into the private
     * folder either way, and nothing is published until every thread is done. */
    const int threads = fp__write_jobs(opts);
    crew c;
    memset(&c, 0, sizeof c);
    c.here = (doc_list){ c.mine, 0, plan, opts, NULL, FP_OK, N_OUTPUTS, err, { 0 }, NULL };
    c.side = (doc_list){ c.theirs, 0, plan, opts, NULL, FP_OK, N_OUTPUTS, NULL, { 0 }, NULL };
    c.side.err = &c.side.own_err;
    if (threads > 1 && opts->progress != NULL)
        crew_lock_progress(&c, opts);
    if (threads > 1)
        crew_start(&c, r, jobs, n_jobs, opts, threads);
    for (size_t k = 0; k < n_jobs; k++)
        if (!c.side_started || !on_side(jobs[k].out, opts->formats))
            c.mine[c.here.n++] = &jobs[k];
    if (c.side_started && c.side.xlsx_gate != NULL)
        gate_wait(&c.xg);
    write_docs(&c.here);
    rc = crew_finish(&c, c.here.rc, err);
    free(jobs);
    if (rc != FP_OK) {
        fp_publish_abort(r);
        return rc;
    }
    return fp_publish_commit(r, err);
}
