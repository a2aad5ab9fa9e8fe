/* fabplan — structured cabling (layout.cabling "structured"): an optical link between two racks
 * runs as a patch cord from its port up to a patch panel at the top of its rack, a trunk from
 * that panel to the far rack's panel, and a patch cord down to the far port. The three segments
 * add up to the link's route: each cord is its end's vertical run (with slack) plus a service
 * loop, the trunk the rest. Trunks are shared: the links between two racks on one kind of fibre
 * ride ceil(fibres / 144) trunks of the longest such trunk run. Each rack's panel holds one
 * port per link end: MPO links on 12-port MPO adapter plates, LC links on 12-port LC cassettes,
 * four plates or cassettes to a 1U panel. Copper cables and links within one rack stay one
 * cable. A rack's panels stand in its free units just below its switches (servers fill from
 * U1 up, switches from the top down), as high as they fit. Part ids: docs/layout.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "phys/phys.h"

#define U_M 0.04445
#define TRUNK_FIBRES 144
#define PORTS_PER_PLATE 12
#define PLATES_PER_PANEL 4

static int part_by_id(const fp_phys_spec *ps, const char *id)
{
    for (int i = 0; i < ps->n_parts; i++)
        if (strcmp(ps->parts[i].id, id) == 0)
            return i;
    return -1;
}

/* Smallest stock length >= need (the longest when none is long enough). */
static double stock_of(const fp_part *p, double need)
{
    for (int i = 0; i < p->n_lengths; i++)
        if (p->lengths_m[i] + 1e-9 >= need)
            return p->lengths_m[i];
    return p->n_lengths ? p->lengths_m[p->n_lengths - 1] : need;
}

static int length_index(const fp_part *p, double len)
{
    for (int i = 0; i < p->n_lengths; i++)
        if (fabs(p->lengths_m[i] - len) < 1e-6)
            return i;
    return p->n_lengths < FP_MAX_LENGTHS ? p->n_lengths : FP_MAX_LENGTHS;
}

typedef struct trunk_key {
    int64_t ra, rz;     /* racks, ra < rz */
    int smf;
    double run;         /* this link's trunk segment */
    int fibres;
} trunk_key;

static int trunk_cmp(const void *pa, const void *pb)
{
    const trunk_key *a = pa, *b = pb;
    if (a->ra != b->ra)
        return a->ra < b->ra ? -1 : 1;
    if (a->rz != b->rz)
        return a->rz < b->rz ? -1 : 1;
    return a->smf - b->smf;
}

/* Each rack's panels in its free units, from just below its lowest switch (or the rack's top)
 * down; free means above its highest server. A rack whose panels do not fit is a design error.
 * panels: per rack; work: scratch, one per rack. */
static fp_status place_panels(fp_cabling *cab, const fp_layout *lay, const fp_fabric *fab,
                              const fp_phys_spec *ps, const int64_t *panels, int64_t *work,
                              fp_error *err)
{
    int64_t n = lay->n_rack;
    int16_t *low = calloc((size_t)(n ? n : 1), sizeof *low);  /* highest server U + 1 */
    cab->rack_panels = calloc((size_t)(n ? n : 1), sizeof *cab->rack_panels);
    cab->rack_panel_u = calloc((size_t)(n ? n : 1), sizeof *cab->rack_panel_u);
    if (low == NULL || cab->rack_panels == NULL || cab->rack_panel_u == NULL) {
        free(low);
        FP_FAIL(err, FP_ENOMEM, "", "out of memory placing patch panels");
    }
    for (int64_t r = 0; r < n; r++) {
        work[r] = ps->rack_units + 1;   /* lowest switch U */
        low[r] = 1;
    }
    for (int64_t d = 0; d < fab->n_dev; d++) {
        int64_t r = lay->dev_rack[d];
        int u = lay->dev_u[d];
        if (d < fab->servers) {
            if (u + ps->server_ru > low[r])
                low[r] = (int16_t)(u + ps->server_ru);
        } else if (u < work[r]) {
            work[r] = u;
        }
    }
    for (int64_t r = 0; r < n; r++) {
        int64_t free_u = work[r] - low[r];
        if (panels[r] > free_u) {
            const fp_rack *k = &lay->rack[r];
            free(low);
            FP_FAIL(err, FP_EDESIGN, "/layout/cabling",
                    "/layout/cabling: rack H%d-R%02d-K%02d needs %lld 1U patch panels for its "
                    "structured links but has %lld free units between its servers and switches; "
                    "use fewer servers_per_rack or max_switches_per_rack, or cabling \"direct\"",
                    k->hall, k->row, k->pos, (long long)panels[r], (long long)(free_u > 0 ? free_u : 0));
        }
        cab->rack_panels[r] = (int16_t)panels[r];
        cab->rack_panel_u[r] = (int16_t)(work[r] - panels[r]);
    }
    free(low);
    return FP_OK;
}

/* The catalog ids structured cabling needs: id[0] OM4 trunk, [1] OS2 trunk, [2] panel,
 * [3] MPO adapter plate, [4] LC cassette. FP_ECATALOG when one is missing. */
static fp_status need_parts(const fp_phys_spec *ps, int id[5], fp_error *err)
{
    static const char *const need_ids[] = { "trunk-om4-mpo-144f", "trunk-os2-mpo-144f",
                                            "panel-1u-4slot", "adapter-plate-mpo12",
                                            "cassette-mpo-lc12" };
    for (int k = 0; k < 5; k++)
        if ((id[k] = part_by_id(ps, need_ids[k])) < 0)
            FP_FAIL(err, FP_ECATALOG, "/layout/cabling",
                    "/layout/cabling: structured cabling needs the catalog part \"%s\" (the "
                    "built-in catalog has it; a --catalog file must not remove it)",
                    need_ids[k]);
    return FP_OK;
}

/* Each fibre cable between two racks as three segments (patch cord, trunk run, patch cord)
 * into cab->seg and their stock lengths into cab->seg_stock; the panel ports it takes in each
 * rack (LC or MPO) counted, and its trunk leg into tk[]. Returns the trunk legs. */
static size_t split_cables(fp_cabling *cab, const fp_layout *lay, const fp_fabric *fab,
                           const fp_phys_spec *ps, const int id[5], int64_t *mpo_ports,
                           int64_t *lc_ports, trunk_key *tk)
{
    size_t nt = 0, n = (size_t)cab->n_cable;
    double slack = 1.0 + ps->slack_pct / 100.0;
    for (size_t i = 0; i < n; i++) {
        fp_cable *cb = &cab->cable[i];
        const fp_link *l = &fab->link[cab->cable_links[cb->first]];
        int64_t ra = lay->dev_rack[l->a], rz = lay->dev_rack[l->z];
        const fp_part *f = &ps->parts[cb->part];
        float *sg = cab->seg + 3 * i, *st = cab->seg_stock + 3 * i;
        sg[1] = 0;
        if ((cb->medium != FP_MEDIUM_MMF && cb->medium != FP_MEDIUM_SMF) || ra == rz) {
            sg[0] = cb->route_m;
            st[0] = cb->stock_m;
            continue;
        }
        double va = ((ps->rack_units - lay->dev_u[l->a] + 1) * U_M) * slack + ps->service_loop_m;
        double vz = ((ps->rack_units - lay->dev_u[l->z] + 1) * U_M) * slack + ps->service_loop_m;
        sg[0] = (float)va;
        sg[2] = (float)vz;
        sg[1] = cb->route_m - sg[0] - sg[2];
        if (sg[1] < 0)
            sg[1] = 0;
        st[0] = (float)stock_of(f, sg[0]);
        st[2] = (float)stock_of(f, sg[2]);
        int smf = cb->medium == FP_MEDIUM_SMF;
        cb->trunk_part = (int16_t)id[smf];
        st[1] = (float)stock_of(&ps->parts[id[smf]], sg[1]);
        int lc = cb->connector == FP_CONNECTOR_LC;
        (lc ? lc_ports : mpo_ports)[ra]++;
        (lc ? lc_ports : mpo_ports)[rz]++;
        tk[nt].ra = ra < rz ? ra : rz;
        tk[nt].rz = ra < rz ? rz : ra;
        tk[nt].smf = smf;
        tk[nt].run = sg[1];
        tk[nt].fibres = fp__trunk_fibres(cb->connector);
        nt++;
    }
    return nt;
}

/* Trunks per rack pair and fibre: enough for the fibres, as long as the longest run. */
static void count_trunks(fp_cabling *cab, const fp_phys_spec *ps, const int id[5],
                         trunk_key *tk, size_t nt)
{
    size_t nl = FP_MAX_LENGTHS + 1;
    qsort(tk, nt, sizeof *tk, trunk_cmp);
    for (size_t a = 0, b; a < nt; a = b) {
        int64_t fibres = 0;
        double run = 0;
        for (b = a; b < nt && trunk_cmp(&tk[a], &tk[b]) == 0; b++) {
            fibres += tk[b].fibres;
            if (tk[b].run > run)
                run = tk[b].run;
        }
        const fp_part *tp = &ps->parts[id[tk[a].smf]];
        double len = stock_of(tp, run);
        cab->struct_qty[(size_t)id[tk[a].smf] * nl + (size_t)length_index(tp, len)] +=
            (fibres + TRUNK_FIBRES - 1) / TRUNK_FIBRES;
    }
}

fp_status fp__structured_build(fp_cabling *cab, const fp_layout *lay, const fp_fabric *fab,
                               const fp_rspec *rs, fp_error *err)
{
    const fp_phys_spec *ps = &rs->phys;
    int id[5];
    fp_status rc;
    if ((rc = need_parts(ps, id, err)) != FP_OK)
        return rc;
    size_t nl = FP_MAX_LENGTHS + 1, n = (size_t)cab->n_cable;
    int64_t *mpo_ports = calloc((size_t)(lay->n_rack ? lay->n_rack : 1), sizeof *mpo_ports);
    int64_t *lc_ports = calloc((size_t)(lay->n_rack ? lay->n_rack : 1), sizeof *lc_ports);
    trunk_key *tk = malloc((n ? n : 1) * sizeof *tk);
    cab->seg = calloc((n ? n : 1) * 3, sizeof *cab->seg);
    cab->seg_stock = calloc((n ? n : 1) * 3, sizeof *cab->seg_stock);
    cab->struct_qty = calloc((size_t)(ps->n_parts ? ps->n_parts : 1) * nl, sizeof *cab->struct_qty);
    if (!mpo_ports || !lc_ports || !tk || !cab->seg || !cab->seg_stock || !cab->struct_qty) {
        rc = fp__error_set(err, FP_ENOMEM, "", "out of memory for structured cabling");
        goto out;
    }
    size_t nt = split_cables(cab, lay, fab, ps, id, mpo_ports, lc_ports, tk);
    count_trunks(cab, ps, id, tk, nt);
    for (int64_t r = 0; r < lay->n_rack; r++) {
        int64_t plates = (mpo_ports[r] + PORTS_PER_PLATE - 1) / PORTS_PER_PLATE;
        int64_t cass = (lc_ports[r] + PORTS_PER_PLATE - 1) / PORTS_PER_PLATE;
        int64_t panels = (plates + cass + PLATES_PER_PANEL - 1) / PLATES_PER_PANEL;
        cab->struct_qty[(size_t)id[3] * nl] += plates;
        cab->struct_qty[(size_t)id[4] * nl] += cass;
        cab->struct_qty[(size_t)id[2] * nl] += panels;
        /* mpo_ports now holds the panels, lc_ports the rack's free units' top (see below) */
        mpo_ports[r] = panels;
    }
    rc = place_panels(cab, lay, fab, ps, mpo_ports, lc_ports, err);
out:
    free(mpo_ports);
    free(lc_ports);
    free(tk);
    return rc;
}
