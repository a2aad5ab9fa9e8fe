/* fabplan — the workbook's Optics sheet: every transceiver to seat, device by device in the
 * order a crew walks the floor, so the modules are on paper (the printed Cables sheet stops at
 * its sign-off boxes: the transceiver columns would shrink it below 8 pt). */
#include "xlsx.h"

/* One module in one cage: where its device stands, the device (network and index), the part. */
typedef struct optic {
    int32_t rack; /* fp_plan_rack index, -1 when the device has none */
    int32_t u;    /* the device's lowest U */
    int32_t net;
    int32_t cage; /* 1-based on its device */
    int64_t dev;
    const fp_part *part;
} optic;

typedef struct optics {
    optic *o;
    size_t n, cap;
    int failed;
} optics;

static void add_optic(void *ctx, const fp_net_read *v, int64_t dev, int64_t cage, const fp_part *m)
{
    optics *list = ctx;
    if (list->failed)
        return;
    if (list->n == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 4096;
        optic *o = realloc(list->o, cap * sizeof *o);
        if (o == NULL) {
            list->failed = 1;
            return;
        }
        list->o = o;
        list->cap = cap;
    }
    int u = 0;
    int64_t rack = fp__net_read_rack(v, dev, &u);
    list->o[list->n++] = (optic){ (int32_t)rack, u, (int32_t)v->net, (int32_t)cage, dev, m };
}

/* Floor order (racks as fp_plan_rack lists them, a device without a rack last), a rack's
 * devices from the top U down as the Racks sheet lists them, then network, device, part, cage. */
static int cmp_optic(const void *x, const void *y)
{
    const optic *a = x, *b = y;
    uint32_t ra = (uint32_t)a->rack, rb = (uint32_t)b->rack; /* -1 sorts last */
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (a->u != b->u)
        return a->u > b->u ? -1 : 1;
    if (a->net != b->net)
        return a->net < b->net ? -1 : 1;
    if (a->dev != b->dev)
        return a->dev < b->dev ? -1 : 1;
    int c = strcmp(a->part->id, b->part->id);
    if (c != 0)
        return c;
    return (a->cage > b->cage) - (a->cage < b->cage);
}

static int same_row(const optic *a, const optic *b)
{
    return a->net == b->net && a->dev == b->dev && a->part == b->part;
}

/* The cages of o[0 .. n) (ascending) as runs: "1-16, 19, 21-32"; a network's ("storage 1-2")
 * after its name, as NetBox names its bays (`storage-cage1`). */
static void cage_runs(char *buf, size_t cap, const optic *o, size_t n, const char *net)
{
    size_t len = 0;
    buf[0] = '\0';
    if (net != NULL)
        len = (size_t)snprintf(buf, cap, "%s ", net);
    for (size_t i = 0; i < n && len < cap;) {
        size_t j = i;
        while (j + 1 < n && o[j + 1].cage == o[j].cage + 1)
            j++;
        const char *sep = i ? ", " : "";
        len += j > i ? (size_t)snprintf(buf + len, cap - len, "%s%d-%d", sep, o[i].cage, o[j].cage)
                     : (size_t)snprintf(buf + len, cap - len, "%s%d", sep, o[i].cage);
        i = j + 1;
    }
}

static const fp_xlsx_column optic_cols[] = {
    { "Rack", 12 },  { "U", 5 },      { "Device", 24 },  { "Module", 24 }, { "Count", 6 },
    { "Cages", 40 }, { "Seated", 8 }, { "Initials", 7 }, { "Date", 8 },
};
#define N_OPTIC_COLS ((int)(sizeof optic_cols / sizeof optic_cols[0]))
#define OPTIC_CAGES 5 /* the wrapped column */

void fp_xlsx__write_optics(fp_xlsx_book *b)
{
    optics list = { 0 };
    fp_xlsx_sheet s;
    fp_xlsx__sheet_init(&s, b, "Optics", optic_cols, N_OPTIC_COLS);
    for (size_t net = 0; net < fp_plan_net_count(b->plan) && b->rc == FP_OK && !list.failed; net++)
        b->rc = fp__write_each_module(b->plan, net, add_optic, &list, b->err);
    if (b->rc == FP_OK && list.failed)
        b->rc = fp__error_set(b->err, FP_ENOMEM, b->path, "out of memory for the Optics sheet");
    if (b->rc == FP_OK && list.n > 0)
        qsort(list.o, list.n, sizeof *list.o, cmp_optic);
    char cages[2048], name[160];
    fp_rack_info ri = { 0 };
    int32_t ri_of = -1;
    for (size_t i = 0; i < list.n && b->rc == FP_OK;) {
        size_t j = i + 1;
        while (j < list.n && same_row(&list.o[j], &list.o[i]))
            j++;
        const optic *o = &list.o[i];
        if (o->rack >= 0 && o->rack != ri_of) {
            if (fp_plan_rack(b->plan, (size_t)o->rack, &ri, NULL) != FP_OK)
                memset(&ri, 0, sizeof ri);
            ri_of = o->rack;
        }
        fp_location where = { .hall = o->rack >= 0 ? ri.hall : 0,
                              .row = o->rack >= 0 ? ri.row : 0 };
        if ((b->sc.hall != 0 || b->sc.row != 0) && (o->rack < 0 || !in_scope(&b->sc, &where))) {
            i = j;
            continue;
        }
        lxw_row_t r = fp_xlsx__sheet_next(&s);
        if (r == 0)
            break;
        fp_net_read v = fp__plan_net_read(b->plan, (size_t)o->net);
        cage_runs(cages, sizeof cages, o, j - i, v.ns ? v.label : NULL);
        put_s(b, s.ws, r, 0, o->rack >= 0 ? ri.name : "", b->text);
        if (o->rack >= 0)
            put_n(b, s.ws, r, 1, o->u, b->integer);
        else
            put_s(b, s.ws, r, 1, "", b->text);
        put_s(b, s.ws, r, 2, fp__net_read_dev(&v, o->dev, name, sizeof name, NULL), b->text);
        put_s(b, s.ws, r, 3, o->part->id, b->text);
        put_n(b, s.ws, r, 4, (double)(j - i), b->integer);
        fp_xlsx__fit_row(b, s.ws, r, cages, optic_cols[OPTIC_CAGES].width, 27);
        put_s(b, s.ws, r, OPTIC_CAGES, cages, b->wrap);
        for (int k = 1; k <= 3; k++)
            put_s(b, s.ws, r, (lxw_col_t)(OPTIC_CAGES + k), "", b->box);
        i = j;
    }
    fp_xlsx__sheet_end(&s);
    free(list.o);
}
