/* fabplan — the printed cable labels (labels.csv's line1..line3 and label), one builder in two
 * styles: the plan's own names (FP_LABELS_PLAIN, "R05K12-U40 swp17s0") and TIA-606
 * (FP_LABELS_TIA606, "1A.E12-40:swp17s0"). A printed line holds FP_LABEL_LINE characters: a
 * line that would be longer is abbreviated in the location, never in a port name, and a line
 * that still does not fit is cut and counted (fp_plan_label_cuts). The full labels carried by
 * each cable (fp_cable_end.label, "<id> <location> <device> <port> > <far end>") are built with
 * the cable in plan_cables.c. */
#include <string.h>
#include "plan_data.h"
#include "util/text.h"

/* Letters for a 1-based number: 1 A, 26 Z, 27 AA (floor-grid rows, spaces). */
static size_t put_letters(char *p, int v)
{
    char tmp[8];
    size_t n = 0;
    for (v = v < 1 ? 1 : v; v > 0 && n < sizeof tmp; v = (v - 1) / 26)
        tmp[n++] = (char)('A' + (v - 1) % 26);
    for (size_t i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

/* How much a printed location is shortened, tried in this order until the line fits. Plain:
 * "H2R05K12-U40" (full), "H2R05K12U40" (no hyphen), "H2R5K12U40" (no leading zeros),
 * "2R5K12U40" (the hall a bare number; the same as before with one hall): each still names the
 * hall, row, rack and U. TIA-606: "1A.E12-40", then "A.E12-40" (fabplan has one floor: the
 * floor digit says nothing). When none fits, the location loses its leading parts rather than
 * the port a character: the hall ("R5K12U40", TIA "E12-40"), then the row ("K12U40", TIA
 * "12-40"); such a line is counted as cut. */
enum { LOC_FULL, LOC_NO_HYPHEN, LOC_NO_ZEROS, LOC_BARE_HALL, LOC_NO_HALL, LOC_NO_ROW, LOC_FORMS };

static size_t put_num(char *p, int v, int form)
{
    return form >= LOC_NO_ZEROS ? fp__put_int(p, v > 0 ? v : 0)
                                : fp__put_uint_w(p, (uint64_t)(v > 0 ? v : 0), 2);
}

/* The rack: plain "R05K12" ("H2R05K12" when the plan has several halls); TIA-606 "1A.E12"
 * (floor 1, space = hall as a letter, then the floor grid: row as letters, position as two
 * digits). */
static size_t rack_id(char *p, const fp_location *l, int halls, fp_label_style st, int form)
{
    size_t k = 0;
    if (st == FP_LABELS_TIA606) {
        if (form == LOC_FULL)
            p[k++] = '1';
        if (form < LOC_NO_HALL) {
            k += put_letters(p + k, l->hall);
            p[k++] = '.';
        }
        if (form < LOC_NO_ROW)
            k += put_letters(p + k, l->row);
        k += fp__put_uint_w(p + k, (uint64_t)(l->rack > 0 ? l->rack : 0), 2);
        return k;
    }
    if (halls > 1 && form < LOC_NO_HALL) {
        if (form < LOC_BARE_HALL)
            p[k++] = 'H';
        k += fp__put_int(p + k, l->hall);
    }
    if (form < LOC_NO_ROW) {
        p[k++] = 'R';
        k += put_num(p + k, l->row, form);
    }
    p[k++] = 'K';
    k += put_num(p + k, l->rack, form);
    return k;
}

/* Ports of one connector, short: "swp1s0+swp1s1" -> "swp1s0+1" (each further port after the
 * text it shares with the first). */
static size_t short_ports(char *p, size_t cap, const char *ports)
{
    const char *plus = strchr(ports, '+');
    size_t first = plus ? (size_t)(plus - ports) : strlen(ports), k = 0;
    for (const char *q = ports; *q && k + 1 < cap;) {
        const char *end = strchr(q, '+');
        size_t len = end ? (size_t)(end - q) : strlen(q), skip = 0;
        if (q != ports) {
            while (skip < len && skip < first && q[skip] == ports[skip])
                skip++;
            /* keep whole numbers: back up to the start of a run of digits */
            while (skip > 0 && q[skip - 1] >= '0' && q[skip - 1] <= '9')
                skip--;
            p[k++] = '+';
        }
        for (size_t i = skip; i < len && k + 1 < cap; i++)
            p[k++] = q[i];
        q += len + (end != NULL);
    }
    p[k] = '\0';
    return k;
}

/* One end into out (cap bytes): plain "R05K12-U40 swp17s0", TIA-606 "1A.E12-40:swp17s0", the
 * location in the given form; full port names, or the short form for a printed line. Returns
 * the length. */
static size_t end_id(char *out, size_t cap, const fp_cable_end *e, int halls, fp_label_style st,
                     int short_form, int form)
{
    char tmp[160];
    size_t k = rack_id(tmp, &e->loc, halls, st, form);
    if (st == FP_LABELS_TIA606 || form == LOC_FULL)
        tmp[k++] = '-';
    if (st != FP_LABELS_TIA606)
        tmp[k++] = 'U';
    k += put_num(tmp + k, e->loc.u, st == FP_LABELS_TIA606 ? LOC_FULL : form);
    tmp[k++] = st == FP_LABELS_TIA606 ? ':' : ' ';
    if (short_form)
        k += short_ports(tmp + k, sizeof tmp - k, e->port);
    else
        k += fp__copy_str(tmp + k, sizeof tmp - k, e->port) < sizeof tmp - k
                 ? strlen(tmp + k) : sizeof tmp - k - 1;
    tmp[k] = '\0';
    fp__copy_str(out, cap, tmp);
    return k < cap ? k : cap - 1;
}

/* The printed line of an end after prefix ("" or "> "): the first location form whose line
 * fits, the prefix's blank dropped before the location is shortened. Returns 1 when the line
 * fits only without part of its location, or not even then and was cut. */
static int end_line(char line[FP_LABEL_LINE + 1], const char *prefix, const fp_cable_end *e,
                    int halls, fp_label_style st)
{
    char tmp[200];
    size_t pn = strlen(prefix), k = 0;
    for (int form = 0; form < LOC_FORMS; form++) {
        if (st == FP_LABELS_TIA606 && (form == LOC_NO_ZEROS || form == LOC_BARE_HALL))
            continue;                               /* TIA-606 has no such forms */
        for (size_t drop = 0; drop <= (pn > 1); drop++) {   /* "> ", then ">" */
            memcpy(tmp, prefix, pn - drop);
            k = pn - drop + end_id(tmp + pn - drop, sizeof tmp - (pn - drop), e, halls, st, 1, form);
            if (k <= FP_LABEL_LINE) {
                memcpy(line, tmp, k + 1);
                return form >= LOC_NO_HALL;
            }
        }
    }
    fp__copy_str(line, FP_LABEL_LINE + 1, tmp);
    return 1;
}

/* A splitter leg k's far end: the hub (c->a) with only that leg's port. */
static void leg_hub(fp_cable_end *hub, const fp_cable_info *c, int k)
{
    *hub = c->a;
    const char *q = c->a.port;
    for (int j = 0; j < k && q; j++)
        if ((q = strchr(q, '+')) != NULL)
            q++;
    fp__copy_str(hub->port, sizeof hub->port, q ? q : "");
    char *plus = strchr(hub->port, '+');
    if (plus)
        *plus = '\0';
}

/* The full label text in TIA-606 style: "<cable id> <this end> / <far end>[ <far end>...]". */
static void tia_label(char *out, size_t cap, const fp_cable_info *c, const fp_cable_end *self,
                      int is_a, int halls)
{
    char id[160];
    size_t k = (size_t)snprintf(out, cap, "%s ", c->id);
    end_id(id, sizeof id, self, halls, FP_LABELS_TIA606, 0, LOC_FULL);
    k += (size_t)snprintf(out + k, k < cap ? cap - k : 0, "%s /", id);
    for (int z = 0; z < (is_a ? c->n_z : 1) && k < cap; z++) {
        end_id(id, sizeof id, is_a ? &c->z[z] : &c->a, halls, FP_LABELS_TIA606, 0, LOC_FULL);
        k += (size_t)snprintf(out + k, cap - k, " %s", id);
    }
}

int fp__cable_end_label(fp_end_label *out, const fp_cable_info *c, int leg, int halls,
                        fp_label_style st)
{
    const fp_cable_end *self = leg == 0 ? &c->a : &c->z[leg - 1];
    fp_cable_end hub;
    const fp_cable_end *far = NULL;
    if (leg == 0) {
        memcpy(out->end, "A", 2);
        far = c->n_z == 1 ? &c->z[0] : NULL;     /* a splitter's hub faces every leg */
    } else {
        out->end[0] = 'Z';
        if (c->n_z == 1)
            out->end[1] = '\0';
        else
            out->end[1 + fp__put_int(out->end + 1, leg)] = '\0';
        if (c->n_z > 1) {
            leg_hub(&hub, c, leg - 1);
            far = &hub;
        } else {
            far = &c->a;
        }
    }
    /* line1: "<id> <end>", copied rather than formatted: one per label row */
    char tmp[160];
    size_t k = fp__copy_str(tmp, sizeof tmp, c->id);
    if (k + 1 < sizeof tmp) {
        tmp[k++] = ' ';
        fp__copy_str(tmp + k, sizeof tmp - k, out->end);
    }
    fp__copy_str(out->line[0], FP_LABEL_LINE + 1, tmp);
    int cut = end_line(out->line[1], "", self, halls, st);
    if (far) {
        cut += end_line(out->line[2], "> ", far, halls, st);
    } else {
        memcpy(tmp, "> ", 2);
        k = 2 + fp__put_int(tmp + 2, c->n_z);
        memcpy(tmp + k, " legs ", 6);
        k += 6;
        k += rack_id(tmp + k, &c->z[0].loc, halls, st, LOC_FULL);
        tmp[k] = '\0';
        fp__copy_str(out->line[2], FP_LABEL_LINE + 1, tmp);
    }
    if (st == FP_LABELS_TIA606) {
        tia_label(out->tia_text, sizeof out->tia_text, c, self, leg == 0, halls);
        out->text = out->tia_text;
    } else {
        out->text = self->label;
    }
    return cut;
}

size_t fp_plan_label_cuts(const fp_plan *plan, fp_label_style style, size_t *cables,
                          char (*ids)[16], size_t max_ids)
{
    size_t cuts = 0, listed = 0, n_cables = 0;
    if (cables)
        *cables = 0;
    if (plan == NULL || !(plan->stages & FP_STAGE_CABLING))
        return 0;
    int halls = plan->lay.halls;
    fp_cable_info c;
    fp_end_label lab;
    size_t nets = fp_plan_net_count(plan);
    for (size_t net = 0; net < nets; net++) {
        size_t n = fp_plan_net_cable_count(plan, net);
        for (size_t i = 0; i < n; i++) {
            if (fp_plan_net_cable(plan, net, i, &c, NULL) != FP_OK)
                continue;
            int cut = 0;
            for (int leg = 0; leg <= c.n_z; leg++)
                cut += fp__cable_end_label(&lab, &c, leg, halls, style);
            if (cut == 0)
                continue;
            cuts += (size_t)cut;
            n_cables++;
            if (ids && listed < max_ids)
                fp__copy_str(ids[listed++], sizeof ids[0], c.id);
        }
    }
    if (cables)
        *cables = n_cables;
    return cuts;
}
