/* fabplan — writing a plan's documents to a directory. */
#ifndef FABPLAN_WRITE_H
#define FABPLAN_WRITE_H

#include <stddef.h>
#include <stdio.h>
#include "fabplan/error.h"
#include "fabplan/plan.h"

#ifdef __cplusplus
extern "C" {
#endif


/* Which documents to write (bit set). */
#define FP_WRITE_JSON 0x1u      /**< plan.json */
#define FP_WRITE_LINKS 0x2u     /**< links.csv */
#define FP_WRITE_CABLES 0x100u  /**< cables.csv: one row per physical cable */
#define FP_WRITE_BOM 0x200u     /**< bom.csv: bill of materials with totals */
#define FP_WRITE_XLSX 0x10u     /**< plan.xlsx, the installer workbook (plus by-row/ or by-hall/) */
#define FP_WRITE_LABELS 0x20u   /**< labels.csv: one row per cable end, for a label printer */
#define FP_WRITE_NETBOX 0x40u   /**< netbox-cables.csv: NetBox cable bulk import */
#define FP_WRITE_TOPOLOGY 0x80u /**< topology.csv: one row per link, AVD-style columns */
#define FP_WRITE_AVD 0x400u     /**< avd-cv-topology.yml: Arista AVD eos_designs cv_topology input
                                     (Ethernet fabrics only; nothing for InfiniBand) */
#define FP_WRITE_REPORT 0x800u  /**< report.html: the plan on one self-contained page, with the
                                     diagrams written in the same call inlined */
/* Diagrams (write_dot.c): each is written as Graphviz source (.dot) and SVG. Their bits start at
 * 0x1000 to leave the low bits to data documents. */
#define FP_WRITE_OVERVIEW 0x1000u /**< fabric.dot/.svg: one node per group of identical switches */
#define FP_WRITE_DETAIL 0x2000u /**< su-<n>.dot/.svg or pod-<n>.dot/.svg (see fp_write_options.detail) */
#define FP_WRITE_FLOOR 0x4000u /**< floor.dot/.svg (the site: every rack, or halls as blocks),
                                     floor-by-hall/H<n>.svg (each hall rack by rack) */
#define FP_WRITE_FIGURE 0x10000u /**< group-<n>.dot/.svg: one 16:9 page of one scalable-unit group
                                      (the pod of the unit fp_write_options.detail selects): every
                                      leaf, rails coloured, spines and the tiers above, counts table */
#define FP_WRITE_PNG 0x8000u /**< also render each diagram selected above as PNG (on request) */
/** The planned fabric for InfiniBand tools (on request; InfiniBand fabrics only, nothing for
 *  Ethernet): ibnetdiscover.topo (ibnetdiscover's topology-file form, which ibsim loads),
 *  ib-node-name-map (its GUIDs, synthetic, and names) and ib-ports.csv (each planned port's node
 *  description and InfiniBand port number: what fp_verify_run matches a discovery by). */
#define FP_WRITE_IBNET 0x20000u
/** The compute fabric for Slurm (on request): topology.conf (topology/tree: servers under their
 *  leaf group, levels = the fabric's tiers, one top), topology-block.conf (topology/block, one
 *  block per NVLink domain; only when cluster.nvlink_domain_servers > 1) and topology.yaml
 *  (both, Slurm's YAML form). The folding rule is in docs/outputs.md. */
#define FP_WRITE_SLURM 0x40000u
/** The compute fabric for Kubernetes (on request): k8s-node-labels.sh (one `kubectl label node`
 *  line per server: its NVLink domain, leaf group, pod, zone as node labels, fine to coarse;
 *  keys from fp_write_options.k8s_labels) and kueue-topology.yaml (Kueue's Topology: those
 *  labels coarse to fine, then kubernetes.io/hostname). */
#define FP_WRITE_K8S 0x80000u
/** Cumulus PTM's topology.dot (on request): every link of every Ethernet network of the plan,
 *  one edge `"device":"port" -- "device":"port"` each, for ptmd's LLDP check (nothing when the
 *  plan has no Ethernet network). */
#define FP_WRITE_PTM 0x100000u
/** NVIDIA UFM Cable Validation Tool's P2P file cvt-p2p.xlsx (on request): a sheet per InfiniBand
 *  network, a row per link with each end's rack, U, name and port (nothing when the plan has
 *  no InfiniBand network). */
#define FP_WRITE_CVT 0x200000u
#define FP_WRITE_ALL 0xffffffffu
/** The documents only written on request (not in FP_WRITE_DEFAULT). */
#define FP_WRITE_ON_REQUEST (FP_WRITE_PNG | FP_WRITE_IBNET | FP_WRITE_SLURM | FP_WRITE_K8S | \
                             FP_WRITE_PTM | FP_WRITE_CVT)
/** What FP_WRITE_OPTIONS_INIT writes: everything but the PNG copies and the on-request exports
 *  (InfiniBand, Slurm, Kubernetes). */
#define FP_WRITE_DEFAULT (FP_WRITE_ALL & ~FP_WRITE_ON_REQUEST)

/** How the installer workbook is split for crews (fp_write_options.split_by). */
typedef enum fp_split_by {
    FP_SPLIT_NONE = 0,          /**< plan.xlsx only */
    FP_SPLIT_ROW,               /**< plus by-row/plan-H1-R05.xlsx, one per row of racks */
    FP_SPLIT_HALL               /**< plus by-hall/plan-H1.xlsx, one per hall */
} fp_split_by;

/** Identifiers on labels.csv's line1..line3 and label (fp_write_options.labels). */
typedef enum fp_label_style {
    FP_LABELS_PLAIN = 0,        /**< rack and U as the plan names them: R05K12-U40 swp17s0 */
    FP_LABELS_TIA606            /**< TIA-606 style: 1A.E12-40:swp17s0 (rules in docs/outputs.md) */
} fp_label_style;

/** Printed label lines of labels.csv (line2, line3) that do not fit 20 characters in style
 *  `style` with a whole location, even abbreviated (docs/outputs.md): each gives up its
 *  location's hall (or row), or, when even the port name alone is longer, is cut. Returns
 *  their count over every cable of the plan (0 without the cabling stage); *cables (may be
 *  NULL) gets the number of cables with a cut line, and ids (may be NULL) the ids of the first
 *  max_ids of them. Reads every cable: call it once per written set. Cannot fail. */
FP_EXPORT size_t fp_plan_label_cuts(const fp_plan *plan, fp_label_style style, size_t *cables,
                                    char (*ids)[16], size_t max_ids);

/** Paper the workbook's sheets are set up to print on (fp_write_options.paper). */
typedef enum fp_paper {
    FP_PAPER_A4 = 0,            /**< ISO A4, 210 x 297 mm (the default) */
    FP_PAPER_LETTER             /**< US Letter, 8.5 x 11 in */
} fp_paper;

typedef struct fp_write_options {
    int version;                /**< FP_WRITE_OPTIONS_VERSION */
    unsigned formats;           /**< FP_WRITE_* bits */
    fp_progress_cb progress;    /**< optional */
    void *payload;              /**< passed to progress */
    /** Version 2: the unit drawn by FP_WRITE_DETAIL, "su:N" or "pod:N" (1-based, borrowed).
     *  NULL draws the first scalable unit (rail-optimized) or else the first pod. A 2-tier Clos
     *  is one pod, pod:1, drawn whole while it has at most 2600 links; a bigger one gets no
     *  detail diagram (fp_plan_detail_unit says why). A selector the plan does not have fails
     *  fp_plan_write with FP_EINVAL before any file is written. */
    const char *detail;
    fp_split_by split_by;       /**< version 2: extra workbooks per row or hall */
    fp_label_style labels;      /**< version 3: identifier style of labels.csv */
    fp_paper paper;             /**< version 4: paper of the printed workbook (A4 before) */
    /** Version 5: a failure what-if (fp_plan_fail) to report in plan.json's "failure"
     *  section; NULL for none (borrowed). */
    const struct fp_failure_report *failure;
    /** Version 6: threads writing. 0 (the default) = one per online core, at most 8: plan.xlsx
     *  (without it: links.csv, labels.csv, the NetBox set, topology.csv) is written on a thread
     *  of its own while the other documents are written on the calling thread, another thread
     *  fsyncs each finished document while the rest are written, and the --split-by workbooks
     *  are written side by side. 1 = everything on the
     *  calling thread, one file after the other (version 5 and earlier). The files are the
     *  same either way; `progress` is then called from one thread at a time, not always the
     *  caller's. */
    int jobs;
    /** Version 7: the node-label keys of FP_WRITE_K8S (borrowed): NULL or "fabplan" for
     *  topology.fabplan.io/nvlink-domain, /leaf-group, /pod, /zone; "topograph" for NVIDIA
     *  Topograph's network.topology.nvidia.com/accelerator, /block, /spine, /datacenter; or a
     *  comma list of keys, one per level the plan labels, fine to coarse (the NVLink domain
     *  when cluster.nvlink_domain_servers > 1, then one per tier below the top). A list of the
     *  wrong length, a key Kubernetes refuses, a repeated key or kubernetes.io/hostname fails
     *  fp_plan_write with FP_EINVAL before any file is written. */
    const char *k8s_labels;
} fp_write_options;

#define FP_WRITE_OPTIONS_VERSION 7
#define FP_WRITE_OPTIONS_INIT { FP_WRITE_OPTIONS_VERSION, FP_WRITE_DEFAULT, NULL, NULL, NULL, \
                                FP_SPLIT_NONE, FP_LABELS_PLAIN, FP_PAPER_A4, NULL, 0, NULL }

/** The plan stages (FP_STAGE_*, with the ones they need) the documents in formats (FP_WRITE_*
 *  bits) read: build a plan with fp_plan_new_opts and these stages to write just them. links.csv,
 *  topology.csv, avd-cv-topology.yml and the detail diagram need only FP_STAGE_FABRIC;
 *  cables.csv, labels.csv, the NetBox files, fabric.svg (links coloured by medium) and floor.svg
 *  FP_STAGE_CABLING; bom.csv FP_STAGE_BOM; plan.json, plan.xlsx and report.html every stage.
 *  Cannot fail. */
FP_EXPORT unsigned fp_write_stages(unsigned formats);

/** Which unit FP_WRITE_DETAIL would draw for these options: returns 1 and writes its file stem
 *  ("su-3", "pod-1") to name (n bytes, truncated to fit), or 0 with the reason in *why (may be
 *  NULL): a selector the plan lacks, or a fabric with no unit small enough to draw. opts may be
 *  NULL. Does not print or write files. */
FP_EXPORT int fp_plan_detail_unit(const fp_plan *plan, const fp_write_options *opts, char *name,
                                  size_t n, fp_error *why);

/** Write the plan's documents into dir (created if missing). Every file is written into a fresh
 *  private folder dir/.fabplan-tmp-XXXXXX and fsynced; then each old output is moved aside and
 *  the new one renamed into place, and if any step fails every step is undone, so dir holds the
 *  earlier set or the new set, never a mix, and no temporary file stays behind. One plan per
 *  folder: the outputs of the earlier set that this call does not write again (named by the
 *  folder's manifest, dir/.fabplan-manifest, which every write keeps) are removed in the same
 *  publish; files the manifest does not name are never touched. A write killed (SIGKILL, power
 *  cut) after its commit point is finished by the next write or publish into dir, one killed
 *  before it is removed: the earlier set or the new set again. A symlink named like an output is replaced as a link
 *  (its target is never written or deleted); a folder where a file goes (or the reverse) is an
 *  FP_EIO error before anything moves. Two writes into one folder exclude each other with a
 *  lock (flock on the folder itself, no lock file): the second fails at once with FP_EIO
 *  saying so.
 *  opts may be NULL (FP_WRITE_DEFAULT, no progress). Of a caller's opts only the members of its
 *  version are read (a version-3 caller prints on A4, has one writing thread, ...).
 *  Errors: FP_EINVAL (NULL argument, an options version outside 1..FP_WRITE_OPTIONS_VERSION,
 *  or a detail selector the plan lacks: checked before any file is touched), FP_ESTAGE (the
 *  plan was built without a stage a document asked for needs, fp_write_stages; checked before
 *  any file is touched), FP_EIO (err.where names the file; the message gives the system's
 *  reason), FP_EGRAPH (Graphviz layout failed), FP_ENOMEM. */
FP_EXPORT fp_status fp_plan_write(const fp_plan *plan, const char *dir,
                                  const fp_write_options *opts, fp_error *err);
/** The names fp_plan_write(plan, dir, opts) writes into dir, in the order it writes them:
 *  fn(name, is_dir, arg) for each (fn may be NULL), name relative to dir ("plan.json", "su-1.svg",
 *  "fabric-storage.svg", a hall's floor plan "floor-by-hall/H2.svg"; is_dir for a --split-by
 *  folder of workbooks, "by-row" or "by-hall").
 *  dir then holds these, its manifest .fabplan-manifest (which names them) and any file fabplan
 *  did not write; earlier outputs not in this list are removed (one plan per folder). A format
 *  asked for that gives this plan no file (fp_plan_write_skipped) is not listed. Returns their
 *  count; 0 for a NULL plan. opts may be NULL (FP_WRITE_DEFAULT). Does not check the options
 *  (fp_plan_write does) and touches no file. Cannot fail. */
FP_EXPORT size_t fp_plan_write_names(const fp_plan *plan, const fp_write_options *opts,
                                     void (*fn)(const char *name, int is_dir, void *arg),
                                     void *arg);
/** The documents opts->formats asks for that this plan has none of, each with the reason:
 *  fn(what, why, arg) for each (fn may be NULL; both strings are valid during the call only):
 *  avd-cv-topology.yml on an InfiniBand fabric, the InfiniBand exports (FP_WRITE_IBNET) on an
 *  Ethernet one, the detail diagram when no unit can be drawn (fp_plan_detail_unit). Returns
 *  their count; 0 for a NULL plan. opts may be NULL. Touches no file. Cannot fail. */
FP_EXPORT size_t fp_plan_write_skipped(const fp_plan *plan, const fp_write_options *opts,
                                       void (*fn)(const char *what, const char *why, void *arg),
                                       void *arg);
/** For a program's termination-signal handler: removes the temporary folder of every
 *  fp_plan_write and publish in progress in this process that is not yet past its commit point
 *  (the earlier outputs in its folder are untouched until then; from the commit to the end the
 *  writing thread holds SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
 *  SIGPROF and SIGXCPU back, and a folder past it keeps its journal so the next write into the
 *  folder finishes it). Async-signal-safe: only system calls. The program should then end
 *  (_exit, or re-raise the signal with its default action): the interrupted writes cannot go
 *  on. Temporary folders of a run killed with SIGKILL are settled by the next write into the
 *  same folder, never published as they are. */
FP_EXPORT void fp_write_cleanup_signal(void);

/** Write text as one CSV cell into f, by the rule of every CSV fabplan writes (docs/outputs.md,
 *  "CSV cells"): as it is when it holds no ',', '"', CR or LF and does not start like a formula;
 *  else quoted with inner quotes doubled (RFC 4180), and text starting with = + - @ TAB or CR
 *  (a formula to a spreadsheet; a number such as "-12" is not) gets an apostrophe after the
 *  opening quote. For programs that write CSV beside fabplan's (the CLI's diff and sweep).
 *  f and text must not be NULL (the call does nothing then); write errors show in ferror(f). */
FP_EXPORT void fp_csv_field(FILE *f, const char *text);

/** The columns of cables.csv in their order (docs/outputs.md, "cables.csv"): the one schema that
 *  cables.csv, the workbook's Cables and Network cables sheets and `fabplan diff` share. The six
 *  cord and trunk columns are written only with structured cabling (spec phys.structured),
 *  `network` only with spec `networks`; every other column always. */
typedef enum fp_cables_column {
    FP_CABLES_CABLE_ID = 0,
    FP_CABLES_A_HALL,
    FP_CABLES_A_ROW,
    FP_CABLES_A_RACK,
    FP_CABLES_A_U,
    FP_CABLES_A_DEVICE,
    FP_CABLES_A_PORT,
    FP_CABLES_Z_HALL,           /**< the Z columns list a breakout's legs, joined with ";" */
    FP_CABLES_Z_ROW,
    FP_CABLES_Z_RACK,
    FP_CABLES_Z_U,
    FP_CABLES_Z_DEVICE,
    FP_CABLES_Z_PORT,
    FP_CABLES_MEDIUM,
    FP_CABLES_GBPS,
    FP_CABLES_CABLE_PART,
    FP_CABLES_ROUTE_M,
    FP_CABLES_STOCK_M,
    FP_CABLES_A_TRANSCEIVER,
    FP_CABLES_Z_TRANSCEIVER,
    FP_CABLES_LABEL_A,
    FP_CABLES_LABEL_Z,
    FP_CABLES_CORD_A_M,         /**< structured cabling only, through FP_CABLES_CORD_Z_STOCK_M */
    FP_CABLES_CORD_A_STOCK_M,
    FP_CABLES_TRUNK_M,
    FP_CABLES_TRUNK_STOCK_M,
    FP_CABLES_CORD_Z_M,
    FP_CABLES_CORD_Z_STOCK_M,
    FP_CABLES_PROTOCOL,
    FP_CABLES_NETWORK,          /**< spec `networks` only */
    FP_CABLES_COLUMN_COUNT
} fp_cables_column;

/** The header name of cables.csv column col (an fp_cables_column): "cable_id", "a_hall", ...,
 *  "network"; NULL for a number outside 0..FP_CABLES_COLUMN_COUNT-1. A program reading a
 *  cables.csv finds its columns by these names. The string is static. Cannot fail. */
FP_EXPORT const char *fp_cables_column_name(int col);

/** A column of a printed work list (fp_worklist_write_xlsx). */
typedef struct fp_worklist_column {
    const char *title;
    double width;   /**< in characters of the sheet's font */
    int number;     /**< 1: the cells hold whole numbers (hall, row, rack, U), written as numbers */
    int wrap;       /**< 1: long text wraps in the column and its row grows to fit */
} fp_worklist_column;

/** Write a work list for a crew to print and tick off, such as the cables to relabel after a
 *  growth phase (fabplan diff's relabel.xlsx): one sheet named `sheet` with a header row of the
 *  n_cols columns' titles and a last column "Done" (an empty box per row), then n_rows rows in
 *  the order given (the caller sorts them, by place for a walk through the hall), row r's cell
 *  c being cells[r * n_cols + c] ("" or NULL: empty). It prints as plan.xlsx does: landscape
 *  A4, one page wide, the header row on every page, `title` and the sheet named in the page
 *  header, "page X of Y" below; the header row has a filter. The same rows give the same bytes
 *  (a fixed creation date). The file is written in the folder of path (its temporary files
 *  too). cols and cells are read only. Errors: FP_EINVAL (path, sheet or cols NULL, n_cols 0,
 *  or cells NULL with rows), FP_EIO (cannot write path), FP_ENOMEM. */
FP_EXPORT fp_status fp_worklist_write_xlsx(const char *path, const char *title, const char *sheet,
                                           const fp_worklist_column *cols, size_t n_cols,
                                           const char *const *cells, size_t n_rows, fp_error *err);

/** The most ticks an fp_axis holds. */
#define FP_AXIS_MAX_TICKS 16

/** Round ticks for a chart axis (fp_axis_ticks): every tick a multiple of `step`, which is 1, 2
 *  or 5 times a power of ten. */
typedef struct fp_axis {
    double lo, hi;      /**< the axis' ends: the first and last tick, lo <= the data's low end,
                             hi >= its high end */
    double step;        /**< between neighbouring ticks */
    int count;          /**< ticks in tick[], from lo to hi (2 .. FP_AXIS_MAX_TICKS) */
    int decimals;       /**< digits after the point that print every tick exactly (0 for a
                             step of 1 or more, 1 for 0.5, 2 for 0.05, ...) */
    double tick[FP_AXIS_MAX_TICKS]; /**< lo, lo + step, ..., hi */
} fp_axis;

/** Round ticks covering the values lo .. hi with at most max_ticks ticks (2 ..
 *  FP_AXIS_MAX_TICKS): the smallest step of 1, 2 or 5 x 10^k for which the multiples of the step
 *  from the one at or below lo to the one at or above hi are at most max_ticks, so 4798 .. 7526
 *  with at most 6 ticks gives 4000, 5000, 6000, 7000, 8000 (step 1000). When lo equals hi (or
 *  hi - lo is below a billionth of their size) the range is first widened by the power of ten
 *  of the value's size on each side (5 gives 4 .. 6, 250 gives 150 .. 350; 0 gives 0 .. 1).
 *  Fills the caller's *out (no allocation, nothing to free). For charts that should read like a
 *  printed one: the sweep chart (fabplan sweep) and compare.html use it. Errors: FP_EINVAL when
 *  out is NULL, lo or hi is not finite or above 1e300 in size, lo > hi, or max_ticks is outside
 *  2 .. FP_AXIS_MAX_TICKS; *out is then zeroed. */
FP_EXPORT fp_status fp_axis_ticks(double lo, double hi, int max_ticks, fp_axis *out,
                                  fp_error *err);

/*  Threads: fp_plan_write may run from several threads at once, on one plan or several, into
 *  different folders (into one folder the lock makes all but one fail). Diagrams go through
 *  Graphviz, whose error handler, plugin tables and layout state are process-wide (fabplan keeps
 *  one Graphviz context for the life of the process, never freed, because Graphviz 2.42's text
 *  plugin reads freed memory after a context is released): fabplan draws one diagram at a time
 *  under its own lock, so the embedder's own Graphviz use must not overlap any fp_plan_write
 *  with a diagram bit (FP_WRITE_OVERVIEW, FP_WRITE_DETAIL, FP_WRITE_FLOOR). Diagrams are
 *  rendered to memory and written by fabplan, so a full disk is an FP_EIO error, not Graphviz's
 *  exit(1); Graphviz still exits when it runs out of memory while rendering. */

#ifdef __cplusplus
}
#endif
#endif
