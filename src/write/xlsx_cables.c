/* fabplan — the workbook's Cables sheet (every cable, as cables.csv, coloured by medium), its
 * Pull list (cables grouped by rack pair, medium, part and stock length) and, with structured
 * cabling, the Segments sheet (cord, trunk, cord of every link between racks). */
#include <stddef.h>
#include "xlsx.h"

/* ---- Cables ---- */

/* What a crew works from comes first: cables.csv's columns through the cable part (the links'
 * speed, Gb/s, among them), the stock length, and four sign-off boxes; then the route length,
 * transceivers and labels (cables.csv's other columns, in its order), which stay off paper. The
 * widths (in Calibri digits, wider than its letters) hold the default plan's longest names, and
 * the 21 printed columns fit one page wide at about 8 pt or more (docs/outputs.md, Printing). */
enum { SIGN_OFF = -1 };          /* a sign-off box: no cables column */
static const struct sheet_col {
    int col;                    /* fp_cables_column (its title the schema's), or SIGN_OFF */
    double width, net_width;    /* on Cables; on Network cables when not 0 */
    const char *title;          /* a sign-off box's */
} sheet_cols[] = {
    { FP_CABLES_CABLE_ID, 9, 0, NULL },     { FP_CABLES_NETWORK, 9, 0, NULL },
    { FP_CABLES_A_HALL, 4, 0, NULL },       { FP_CABLES_A_ROW, 4, 0, NULL },
    { FP_CABLES_A_RACK, 5, 0, NULL },       { FP_CABLES_A_U, 4, 0, NULL },
    { FP_CABLES_A_DEVICE, 14, 24, NULL },   { FP_CABLES_A_PORT, 13, 0, NULL },
    { FP_CABLES_Z_HALL, 4, 0, NULL },       { FP_CABLES_Z_ROW, 4, 0, NULL },
    { FP_CABLES_Z_RACK, 5, 0, NULL },       { FP_CABLES_Z_U, 5, 0, NULL },
    { FP_CABLES_Z_DEVICE, 24, 0, NULL },    { FP_CABLES_Z_PORT, 13, 0, NULL },
    { FP_CABLES_MEDIUM, 7, 0, NULL },       { FP_CABLES_GBPS, 5, 0, NULL },
    { FP_CABLES_CABLE_PART, 24, 0, NULL },  { FP_CABLES_STOCK_M, 6, 0, NULL },
    { SIGN_OFF, 8, 0, "Installed" },        { SIGN_OFF, 7, 0, "Tested" },
    { SIGN_OFF, 7, 0, "Initials" },         { SIGN_OFF, 8, 0, "Date" },
    { FP_CABLES_ROUTE_M, 8, 0, NULL },      { FP_CABLES_A_TRANSCEIVER, 24, 0, NULL },
    { FP_CABLES_Z_TRANSCEIVER, 24, 0, NULL }, { FP_CABLES_LABEL_A, 75, 0, NULL },
    { FP_CABLES_LABEL_Z, 75, 0, NULL },
};
#define N_SHEET_COLS ((int)(sizeof sheet_cols / sizeof sheet_cols[0]))
_Static_assert(N_SHEET_COLS == FP_XLSX_CABLE_COLS, "FP_XLSX_CABLE_COLS counts the sheet's columns");
#define CABLE_PRINT_COLS 21     /* through the sign-off boxes */

int fp_xlsx__cable_columns(fp_xlsx_column out[FP_XLSX_CABLE_COLS], int network)
{
    int n = 0;
    for (int k = 0; k < N_SHEET_COLS; k++) {
        const struct sheet_col *sc = &sheet_cols[k];
        if (sc->col == FP_CABLES_NETWORK && !network)
            continue;
        out[n].title = sc->col == SIGN_OFF ? sc->title : fp__cables_column_title(sc->col);
        out[n++].width = network && sc->net_width > 0 ? sc->net_width : sc->width;
    }
    return n;
}

/* The joined legs of field `what` (fp_leg_field) of a breakout, as cables.csv writes them;
 * one leg: the field itself. Either is "" when it has no character but ";" (a breakout whose
 * legs have no transceivers would read ";"). */
static const char *legs(char *buf, size_t n, const fp_cable_info *c, fp_leg_field what)
{
    const char *s = c->n_z == 1 && what == FP_LEG_DEVICE ? c->z[0].device_name
                    : c->n_z == 1 && what == FP_LEG_PORT ? c->z[0].port
                    : c->n_z == 1 && what == FP_LEG_TRANSCEIVER ? c->z[0].transceiver
                    : c->n_z == 1 && what == FP_LEG_LABEL ? c->z[0].label
                                                           : fp__join_legs(buf, n, c, what, ";");
    return s[strspn(s, ";")] == '\0' ? "" : s;
}

/* Remember a cable for the Pull list: its two racks (ordered), medium, part, lengths. With
 * structured cabling what is pulled between the racks is the trunk its link rides (its cords
 * are patched inside each rack): the trunk's part and lengths. */
static void gather_pull(fp_xlsx_book *b, const fp_cable_info *c)
{
    int32_t ra = fp_xlsx__rack_of(b->rack_idx, &c->a.loc),
            rz = fp_xlsx__rack_of(b->rack_idx, &c->z[0].loc);
    if (ra < 0 || rz < 0)
        return;
    int trunk = c->n_segments == 3;
    const char *name = trunk ? c->trunk_part : c->part;
    int part = 0;
    while (part < b->n_parts && strcmp(b->parts[part], name) != 0)
        part++;
    if (part == b->n_parts) {
        if (b->n_parts == MAX_PARTS)
            part = MAX_PARTS - 1;       /* more part numbers than a catalog holds: lump them */
        else
            snprintf(b->parts[b->n_parts++], sizeof b->parts[0], "%s", name);
    }
    int16_t fibres = (int16_t)c->trunk_fibres;
    b->pulls[b->n_pulls++] = (fp_xlsx_pull){ ra < rz ? ra : rz,
                                             ra < rz ? rz : ra,
                                             (int16_t)c->medium,
                                             (int16_t)part,
                                             fibres,
                                             (float)(trunk ? c->segment_stock_m[1] : c->stock_m),
                                             (float)(trunk ? c->segment_m[1] : c->route_m),
                                             c->index };
}

/* Ahead of a Ports thread (write_xlsx.c): every cable's id (the Ports sheet names them), the
 * media in the order the Cables sheet first shows them, and the data rows of Cables and
 * Segments. The whole plan only (no split scope). */
int fp_xlsx__cables_scan(fp_xlsx_book *b, fp_xlsx_cables_scan *out)
{
    fp_cable_info c;
    size_t n = fp_plan_cable_count(b->plan);
    int seen[FP_MEDIUM_COUNT] = { 0 };
    memset(out, 0, sizeof *out);
    if ((b->cable_id = fp__malloc((n ? n : 1) * sizeof *b->cable_id)) == NULL) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Cables sheet");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if ((b->rc = fp_plan_cable(b->plan, i, &c, b->err)) != FP_OK)
            return -1;
        memcpy(b->cable_id[i], c.id, sizeof b->cable_id[i]);
        int m = (unsigned)c.medium < FP_MEDIUM_COUNT ? (int)c.medium : FP_MEDIUM_SMF;
        if (!seen[m]++)
            out->media[out->n_media++] = m;
        out->rows++;
        out->seg_rows += c.n_segments >= 3;
    }
    b->ids_ready = 1;
    return 0;
}

int fp_xlsx__gather_pulls(fp_xlsx_book *b)
{
    fp_cable_info c;
    size_t n = fp_plan_cable_count(b->plan);
    if ((b->pulls = fp__malloc((n ? n : 1) * sizeof *b->pulls)) == NULL) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Pull list");
        return -1;
    }
    /* the whole plan (a Ports thread is never used for a split workbook's scope), every cable
     * in order, as fp_xlsx__write_cables gathers them: the same parts in the same order */
    for (size_t i = 0; i < n; i++) {
        if ((b->rc = fp_plan_cable(b->plan, i, &c, b->err)) != FP_OK)
            return -1;
        gather_pull(b, &c);
    }
    return 0;
}

void fp_xlsx__write_cables(fp_xlsx_book *b)
{
    fp_xlsx_sheet s;
    fp_cable_info c;
    int64_t n = (int64_t)fp_plan_cable_count(b->plan);
    fp_xlsx_column cols[FP_XLSX_CABLE_COLS];
    fp_xlsx__sheet_init(&s, b, "Cables", cols, fp_xlsx__cable_columns(cols, 0));
    /* On paper, through the sign-off boxes: the route, transceivers and labels (what labels.csv
     * feeds a label printer) would shrink a fit-to-width page below 8 pt. */
    s.print_cols = CABLE_PRINT_COLS;
    const fp_xlsx_split_index *x = b->split;
    const int64_t *only = x ? x->cable + x->start[x->cur] : NULL;
    int64_t n_iter = x ? x->start[x->cur + 1] - x->start[x->cur] : n;
    if (!b->ids_ready)
        b->cable_id = x ? x->cable_id : fp__malloc((size_t)(n ? n : 1) * sizeof *b->cable_id);
    if (!b->tail_apart)
        b->pulls = fp__malloc((size_t)(n_iter ? n_iter : 1) * sizeof *b->pulls);
    if (b->cable_id == NULL || (!b->tail_apart && b->pulls == NULL)) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Cables sheet");
        fp_xlsx__sheet_end(&s);
        return;
    }
    for (int64_t j = 0; j < n_iter && b->rc == FP_OK; j++) {
        int64_t i = only ? only[j] : j;
        if ((b->rc = fp_plan_cable(b->plan, (size_t)i, &c, b->err)) != FP_OK)
            break;
        fp__write_progress(b->o, "plan.xlsx cables", j, n_iter);
        if (!x && !b->ids_ready)
            snprintf(b->cable_id[i], sizeof b->cable_id[i], "%s", c.id);
        if (!cable_in_scope(&b->sc, &c))
            continue;
        if (!b->tail_apart)
            gather_pull(b, &c);
        int m = (unsigned)c.medium < FP_MEDIUM_COUNT ? (int)c.medium : FP_MEDIUM_SMF;
        lxw_row_t r = fp_xlsx__sheet_next(&s);
        if (r == 0)
            break;
        b->cables++;
        b->cables_by_medium[m]++;
        fp_xlsx__cable_row(b, s.ws, r, &c, NULL);
    }
    fp__write_progress(b->o, "plan.xlsx cables", n, n);
    fp_xlsx__sheet_end(&s);
}

/* ---- Pull list: cables grouped by rack pair, medium, part and stock length ---- */

/* Every cable of a bundle is named: a first and last id alone would not do, as other cables'
 * ids fall between them in a third of the default plan's bundles. Runs of consecutive cables
 * are written "C0000001-C0000008 (8)": no other cable's id lies inside such a range. */
static const fp_xlsx_column pull_cols[] = {
    { "From rack", 12 }, { "To rack", 12 }, { "Medium", 7 }, { "Cable part", 25 },
    { "Stock m", 6 },    { "Count", 6 },    { "Total m", 7 }, { "Longest route m", 7 },
    { "Cables", 44 }, { "Installed", 8 }, { "Tested", 7 }, { "Initials", 7 }, { "Date", 8 },
};
#define PULL_CABLES 8
#define N_PULL_COLS ((int)(sizeof pull_cols / sizeof pull_cols[0]))

static int cmp_pull(const void *x, const void *y)
{
    const fp_xlsx_pull *a = x, *b = y;
    if (a->ra != b->ra)
        return a->ra < b->ra ? -1 : 1;
    if (a->rz != b->rz)
        return a->rz < b->rz ? -1 : 1;
    if (a->medium != b->medium)
        return a->medium < b->medium ? -1 : 1;
    if (a->part != b->part)
        return a->part < b->part ? -1 : 1;
    if (a->trunk_fibres == 0 && a->stock_m != b->stock_m)     /* a rack pair's trunks: one bundle */
        return a->stock_m < b->stock_m ? -1 : 1;
    return (a->cable > b->cable) - (a->cable < b->cable);
}

#define IDS_MAX 32000     /* below Excel's 32,767 characters in a cell */

/* Cable z follows cable a in a run: the next cable. In a first phase of fabric.build_for_gpus
 * (links numbered as the target's) also the next id but for a's legs: the numbers of cables
 * still to come are not in this plan, and a run does not reach over them. */
static int run_continues(const fp_xlsx_book *b, const fp_xlsx_pull *a, const fp_xlsx_pull *z)
{
    if (z->cable != a->cable + 1)
        return 0;
    if (fp__plan_fabric(b->plan)->link_num == NULL)
        return 1;
    long long ia = strtoll(b->cable_id[a->cable] + 1, NULL, 10),
              iz = strtoll(b->cable_id[z->cable] + 1, NULL, 10);
    return iz > ia && iz - ia <= FP_MAX_LEGS;
}

/* The ids of a bundle's n cables (sorted by cable number) into buf: runs of consecutive cables
 * as "first-last (count)", others one by one, comma separated. Returns the length. */
static size_t bundle_ids(const fp_xlsx_book *b, const fp_xlsx_pull *pl, size_t n, char *buf,
                         size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len + 40 < cap;) {
        size_t j = i + 1;
        while (j < n && run_continues(b, &pl[j - 1], &pl[j]))
            j++;
        const char *first = b->cable_id[pl[i].cable], *last = b->cable_id[pl[j - 1].cable];
        int w;
        if (j - i > 2)
            w = snprintf(buf + len, cap - len, "%s%s-%s (%zu)", len ? ", " : "", first, last,
                         j - i);
        else if (j - i == 2)
            w = snprintf(buf + len, cap - len, "%s%s, %s", len ? ", " : "", first, last);
        else
            w = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", first);
        if (w > 0)
            len += (size_t)w;
        i = j;
    }
    return len < cap ? len : cap - 1;
}

void fp_xlsx__write_pull_list(fp_xlsx_book *b)
{
    char *ids = malloc(IDS_MAX);
    const fp_plan *plan = b->plan;
    fp_xlsx_pull *pl = b->pulls;
    size_t np = b->n_pulls;
    fp_xlsx_sheet s;
    fp_xlsx__sheet_init(&s, b, "Pull list", pull_cols, N_PULL_COLS);
    if (ids == NULL) {
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Pull list");
        fp_xlsx__sheet_end(&s);
        return;
    }
    /* Parts are numbered in order of first appearance in the (fixed) cable order, so the list
     * is deterministic. */
    if (pl)
        qsort(pl, np, sizeof *pl, cmp_pull);
    for (size_t i = 0; i < np;) {
        size_t j = i;
        double total = 0, longest = 0, stock = pl[i].stock_m;
        int64_t fibres = 0, count;
        while (j < np && pl[j].ra == pl[i].ra && pl[j].rz == pl[i].rz &&
               pl[j].medium == pl[i].medium && pl[j].part == pl[i].part &&
               (pl[i].trunk_fibres > 0 || pl[j].stock_m == pl[i].stock_m)) {
            total += pl[j].stock_m;
            fibres += pl[j].trunk_fibres;
            if (pl[j].route_m > longest)
                longest = pl[j].route_m;
            if (pl[j].stock_m > stock)
                stock = pl[j].stock_m;
            j++;
        }
        /* Trunks: 144 fibres each, all as long as the longest run among them (as the BOM
         * counts them); the Cables column names the links they carry. */
        count = fibres > 0 ? (fibres + 143) / 144 : (int64_t)(j - i);
        if (fibres > 0)
            total = (double)count * stock;
        fp_rack_info r1, r2;
        if (fp_plan_rack(plan, (size_t)pl[i].ra, &r1, NULL) != FP_OK ||
            fp_plan_rack(plan, (size_t)pl[i].rz, &r2, NULL) != FP_OK)
            break;
        lxw_row_t r = fp_xlsx__sheet_next(&s);
        if (r == 0)
            break;
        int m = pl[i].medium;
        lxw_format *t = b->medium[m][K_TEXT], *ln = b->medium[m][K_LEN],
                   *in = b->medium[m][K_INT];
        put_s(b, s.ws, r, 0, r1.name, t);
        put_s(b, s.ws, r, 1, r2.name, t);
        put_s(b, s.ws, r, 2, fp_medium_name((fp_medium)m), t);
        put_s(b, s.ws, r, 3, b->parts[pl[i].part], t);
        put_n(b, s.ws, r, 4, stock, ln);
        put_n(b, s.ws, r, 5, (double)count, in);
        put_n(b, s.ws, r, 6, total, ln);
        /* a float per cable (there may be half a million): back to the centimetres cables.csv
         * prints, not 4.960000038146973 in the cell */
        put_n(b, s.ws, r, 7, round(longest * 100) / 100, ln);
        bundle_ids(b, pl + i, j - i, ids, IDS_MAX);
        fp_xlsx__fit_row(b, s.ws, r, ids, pull_cols[PULL_CABLES].width, 27);
        put_s(b, s.ws, r, PULL_CABLES, ids, b->medium[m][K_WRAP]);
        for (int k = 1; k <= 4; k++)
            put_s(b, s.ws, r, (lxw_col_t)(PULL_CABLES + k), "", b->box);
        i = j;
    }
    fp_xlsx__sheet_end(&s);
    free(ids);
}


/* ---- Segments (structured cabling): each link between racks as cord, trunk, cord ---- */

/* The lengths a crew cuts or orders per segment: the cord from the A port up to its rack's
 * panel, the trunk between the two racks' panels (shared by the links of that rack pair, 144
 * fibres), the cord down to the Z port. The three routes add up to the cable's route. */
static const fp_xlsx_column seg_cols[] = {
    { "Cable ID", 9 },   { "A rack", 11 },       { "A device", 18 },     { "A port", 13 },
    { "Cord A m", 7 },   { "Cord A stock m", 7 }, { "Trunk part", 19 },  { "Trunk m", 7 },
    { "Trunk stock m", 7 }, { "Z rack", 11 },    { "Z device", 18 },     { "Z port", 13 },
    { "Cord Z m", 7 },   { "Cord Z stock m", 7 }, { "Cord part", 24 },   { "Route m", 7 },
};
#define N_SEG_COLS ((int)(sizeof seg_cols / sizeof seg_cols[0]))

void fp_xlsx__write_segments(fp_xlsx_book *b)
{
    if (!fp__plan_rspec(b->plan)->phys.structured)
        return;
    fp_xlsx_sheet s;
    fp_cable_info c;
    char rack[24];
    const fp_xlsx_split_index *x = b->split;
    const int64_t *only = x ? x->cable + x->start[x->cur] : NULL;
    int64_t n = (int64_t)fp_plan_cable_count(b->plan);
    int64_t n_iter = x ? x->start[x->cur + 1] - x->start[x->cur] : n;
    fp_xlsx__sheet_init(&s, b, "Segments", seg_cols, N_SEG_COLS);
    for (int64_t j = 0; j < n_iter && b->rc == FP_OK; j++) {
        int64_t i = only ? only[j] : j;
        if ((b->rc = fp_plan_cable(b->plan, (size_t)i, &c, b->err)) != FP_OK)
            break;
        if (c.n_segments < 3 || !cable_in_scope(&b->sc, &c))
            continue;
        int m = (unsigned)c.medium < FP_MEDIUM_COUNT ? (int)c.medium : FP_MEDIUM_SMF;
        lxw_format *t = b->medium[m][K_TEXT], *ln = b->medium[m][K_LEN];
        lxw_row_t r = fp_xlsx__sheet_next(&s);
        if (r == 0)
            break;
        lxw_worksheet *ws = s.ws;
        put_s(b, ws, r, 0, c.id, t);
        snprintf(rack, sizeof rack, "H%d-R%02d-K%02d", c.a.loc.hall, c.a.loc.row, c.a.loc.rack);
        put_s(b, ws, r, 1, rack, t);
        put_s(b, ws, r, 2, c.a.device_name, t);
        put_s(b, ws, r, 3, c.a.port, t);
        put_n(b, ws, r, 4, c.segment_m[0], ln);
        put_n(b, ws, r, 5, c.segment_stock_m[0], ln);
        put_s(b, ws, r, 6, c.trunk_part, t);
        put_n(b, ws, r, 7, c.segment_m[1], ln);
        put_n(b, ws, r, 8, c.segment_stock_m[1], ln);
        snprintf(rack, sizeof rack, "H%d-R%02d-K%02d", c.z[0].loc.hall, c.z[0].loc.row,
                 c.z[0].loc.rack);
        put_s(b, ws, r, 9, rack, t);
        put_s(b, ws, r, 10, c.z[0].device_name, t);
        put_s(b, ws, r, 11, c.z[0].port, t);
        put_n(b, ws, r, 12, c.segment_m[2], ln);
        put_n(b, ws, r, 13, c.segment_stock_m[2], ln);
        put_s(b, ws, r, 14, c.part, t);
        put_n(b, ws, r, 15, c.route_m, ln);
    }
    fp_xlsx__sheet_end(&s);
}

void fp_xlsx__cable_row(fp_xlsx_book *b, lxw_worksheet *ws, lxw_row_t r, const fp_cable_info *c,
                        const char *network)
{
    char buf[FP_MAX_LEGS * 130];
    int m = (unsigned)c->medium < FP_MEDIUM_COUNT ? (int)c->medium : FP_MEDIUM_SMF;
    lxw_format *t = b->medium[m][K_TEXT], *in = b->medium[m][K_INT], *ln = b->medium[m][K_LEN];
    const fp_cable_end *a = &c->a;
    lxw_col_t x = 0;
    for (int k = 0; k < N_SHEET_COLS; k++) {
        const int col = sheet_cols[k].col, leg = fp__cables_column_leg(col);
        if (col == FP_CABLES_NETWORK && network == NULL)
            continue;
        switch (col) {
        case SIGN_OFF: put_s(b, ws, r, x, "", b->box); break;
        case FP_CABLES_CABLE_ID: put_s(b, ws, r, x, c->id, t); break;
        case FP_CABLES_NETWORK: put_s(b, ws, r, x, network, t); break;
        case FP_CABLES_A_HALL: put_n(b, ws, r, x, a->loc.hall, in); break;
        case FP_CABLES_A_ROW: put_n(b, ws, r, x, a->loc.row, in); break;
        case FP_CABLES_A_RACK: put_n(b, ws, r, x, a->loc.rack, in); break;
        case FP_CABLES_A_U: put_n(b, ws, r, x, a->loc.u, in); break;
        case FP_CABLES_A_DEVICE: put_s(b, ws, r, x, a->device_name, t); break;
        case FP_CABLES_A_PORT: put_s(b, ws, r, x, a->port, t); break;
        case FP_CABLES_MEDIUM: put_s(b, ws, r, x, fp_medium_name(c->medium), t); break;
        case FP_CABLES_GBPS: put_n(b, ws, r, x, c->gbps, in); break;
        case FP_CABLES_CABLE_PART: put_s(b, ws, r, x, c->part, t); break;
        case FP_CABLES_STOCK_M: put_n(b, ws, r, x, c->stock_m, ln); break;
        case FP_CABLES_ROUTE_M: put_n(b, ws, r, x, c->route_m, ln); break;
        case FP_CABLES_A_TRANSCEIVER: put_s(b, ws, r, x, a->transceiver, t); break;
        case FP_CABLES_LABEL_A: put_s(b, ws, r, x, a->label, t); break;
        default:
            /* a Z column: a plain cable's hall, row, rack and U as numbers, a breakout's legs
             * ("1;1") and every text as text */
            if (leg <= FP_LEG_U && c->n_z == 1) {
                const fp_location *z = &c->z[0].loc;
                put_n(b, ws, r, x, leg == FP_LEG_HALL ? z->hall : leg == FP_LEG_ROW ? z->row
                                   : leg == FP_LEG_RACK ? z->rack : z->u, in);
            } else {
                put_s(b, ws, r, x, legs(buf, sizeof buf, c, leg), leg <= FP_LEG_U ? in : t);
            }
            break;
        }
        x++;
    }
}
