/* fabplan — the NetBox objects around the devices: locations (halls and rows), platforms (the
 * switches' operating systems), module types, module bays and modules (the transceivers), power
 * ports with the plan's draw, and power panels and feeds per rack. write_netbox.c writes the
 * sites, types, racks, devices, interfaces and cables; docs/outputs.md gives the import order.
 *
 * Columns and choice values are those of NetBox's bulk-import forms, the same from 3.6.0 to
 * 4.6 (netbox/dcim/forms/bulk_import.py: LocationImportForm, PlatformImportForm,
 * ModuleTypeImportForm, ModuleBayImportForm, ModuleImportForm, PowerPortImportForm,
 * PowerPanelImportForm, PowerFeedImportForm; choices in netbox/dcim/choices.py:
 * LocationStatusChoices, ModuleStatusChoices, PowerFeedStatusChoices, PowerFeedTypeChoices,
 * PowerFeedSupplyChoices, PowerFeedPhaseChoices). Transceivers are modules in module bays, the
 * way NetBox's guide "Modeling Pluggable Transceivers" (docs/best-practices, 4.4 on) gives; a
 * module type here has no interface template, so installing one adds no interface beside the
 * ones netbox-interfaces.csv lists. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

/* ---- platforms ---- */

/* The operating system each switch family ships with (the vendors' product pages: Spectrum
 * Ethernet switches run Cumulus Linux, Quantum-2 InfiniBand (QM9700) MLNX-OS, Quantum-X800
 * (Q3400, Q3450) NVOS; Arista's EOS), by catalog id prefix. NULL: no platform (generic and
 * custom switches). AVD names the same platform by the switch model (write_exports.c). */
const char *fp__switch_os(const fp_part *p, const char **slug)
{
    static const struct {
        const char *prefix, *name, *slug;
    } os[] = {
        { "nvidia-sn", "Cumulus Linux", "cumulus-linux" },
        { "nvidia-qm", "MLNX-OS", "mlnx-os" },
        { "nvidia-q3", "NVOS", "nvos" },
        { "arista-", "EOS", "eos" },
    };
    for (size_t i = 0; i < sizeof os / sizeof os[0]; i++)
        if (strncmp(p->id, os[i].prefix, strlen(os[i].prefix)) == 0) {
            if (slug)
                *slug = os[i].slug;
            return os[i].name;
        }
    return NULL;
}

fp_status fp__write_netbox_platforms(const fp_plan *plan, const char *path,
                                     const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    fp_nb_seen seen = { 0 };
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "name,slug,description\n", err)) != FP_OK)
        return rc;
    for (size_t net = 0; net < fp_plan_net_count(plan); net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        for (int t = 1; t <= v.fab->tiers; t++) {
            const char *slug = NULL, *name = fp__switch_os(&v.rs->tier[t - 1].model, &slug);
            if (name == NULL || !fp__nb_seen_add(&seen, name))
                continue;
            const char *r[] = { name, slug, "switch operating system" };
            fp__csv_row(f, r, 3, 0);
        }
    }
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* ---- locations: halls, and rows inside them ---- */

/* The hall ("H1") and row ("H1-R05") of a rack named "H1-R05-K12": its name up to the first
 * and up to the last '-'. */
void fp__netbox_rack_location(const char *rack, char *hall, size_t hn, char *row, size_t rn)
{
    const char *a = strchr(rack, '-'), *b = strrchr(rack, '-');
    size_t h = a ? (size_t)(a - rack) : strlen(rack), r = b ? (size_t)(b - rack) : strlen(rack);
    snprintf(hall, hn, "%.*s", (int)h, rack);
    snprintf(row, rn, "%.*s", (int)r, rack);
}

static void site_of(char *out, size_t n, const fp_plan *plan)
{
    snprintf(out, n, "%s", fp__plan_rspec(plan)->name[0] ? fp__plan_rspec(plan)->name : "fabplan");
}

fp_status fp__write_netbox_locations(const fp_plan *plan, const char *path,
                                     const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char site[128], hall[24], row[24], last_hall[24] = "", last_row[24] = "", slug[48];
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "site,parent,name,slug,status,description\n", err)) != FP_OK)
        return rc;
    site_of(site, sizeof site, plan);
    /* Racks come hall by hall and row by row (the management racks after their hall's rows):
     * each new hall, then each new row in it. NetBox finds a location by name alone in the
     * files after this one, so a row's name carries its hall. */
    size_t n = fp_plan_rack_count(plan);
    fp_nb_seen halls = { 0 };
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            fp_rack_info r;
            fp_plan_rack(plan, i, &r, NULL);
            fp__netbox_rack_location(r.name, hall, sizeof hall, row, sizeof row);
            if (pass == 0 && strcmp(hall, last_hall) != 0 && fp__nb_seen_add(&halls, hall)) {
                fp__netbox_slugify(slug, sizeof slug, hall);
                const char *c[] = { site, "", hall, slug, "planned", "hall" };
                fp__csv_row(f, c, 6, 0);
                snprintf(last_hall, sizeof last_hall, "%s", hall);
            }
            if (pass == 1 && strcmp(row, last_row) != 0) {
                fp__netbox_slugify(slug, sizeof slug, row);
                const char *c[] = { site, hall, row, slug, "planned",
                                    strcmp(r.role, "management") == 0 ? "management row" : "row" };
                fp__csv_row(f, c, 6, 0);
                snprintf(last_row, sizeof last_row, "%s", row);
            }
        }
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* ---- power panels and feeds (layout.rack_power_limit_w > 0) ---- */

/* A feed per rack sized for the spec's rack limit: three-phase AC at 415 V (the voltage the
 * layout's row budget assumes), loaded to 80 %, with the amperage whose available power
 * (NetBox: voltage x amperage x sqrt 3 x max_utilization) first reaches the limit. */
#define FEED_V 415
#define FEED_UTIL 80

int fp__netbox_feed_amps(double limit_w)
{
    return (int)ceil(limit_w / (FEED_V * sqrt(3.0) * FEED_UTIL / 100.0) - 1e-9);
}

int fp__netbox_power_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                               char *buf, size_t n)
{
    (void)o;
    if (fp__plan_rspec(plan)->phys.rack_power_limit_w <= 0)
        return 0;
    snprintf(buf, n, "%s", ext);    /* ext: the row's own name */
    return 1;
}

fp_status fp__write_netbox_power_panels(const fp_plan *plan, const char *path,
                                        const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char site[128], hall[24], row[24], last[24] = "", name[48];
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "site,location,name,description\n", err)) != FP_OK)
        return rc;
    site_of(site, sizeof site, plan);
    for (size_t i = 0; i < fp_plan_rack_count(plan); i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        fp__netbox_rack_location(r.name, hall, sizeof hall, row, sizeof row);
        if (strcmp(row, last) == 0)
            continue;
        snprintf(last, sizeof last, "%s", row);
        snprintf(name, sizeof name, "%s-PP", row);
        const char *c[] = { site, row, name, "power panel of the row" };
        fp__csv_row(f, c, 4, 0);
    }
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_netbox_power_feeds(const fp_plan *plan, const char *path,
                                       const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char site[128], hall[24], row[24], panel[48], name[48], amps[16], volts[16], util[16];
    (void)o;
    if ((rc = fp__outbuf_open(&f, path,
                              "site,power_panel,location,rack,name,status,type,supply,phase,"
                              "voltage,amperage,max_utilization\n", err)) != FP_OK)
        return rc;
    site_of(site, sizeof site, plan);
    snprintf(amps, sizeof amps, "%d", fp__netbox_feed_amps(fp__plan_rspec(plan)->phys.rack_power_limit_w));
    snprintf(volts, sizeof volts, "%d", FEED_V);
    snprintf(util, sizeof util, "%d", FEED_UTIL);
    for (size_t i = 0; i < fp_plan_rack_count(plan); i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        fp__netbox_rack_location(r.name, hall, sizeof hall, row, sizeof row);
        snprintf(panel, sizeof panel, "%s-PP", row);
        snprintf(name, sizeof name, "%s-A", r.name);
        const char *c[] = { site, panel, row, r.name, name, "planned", "primary", "ac",
                            "three-phase", volts, amps, util };
        fp__csv_row(f, c, 12, 0);
    }
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* ---- transceivers: module types, module bays, modules ---- */

/* Every cage of network net that holds a transceiver (writers.h). */
fp_status fp__write_each_module(const fp_plan *plan, size_t net, fp_cage_fn fn, void *ctx,
                                fp_error *err)
{
    fp_net_read v = fp__plan_net_read(plan, net);
    if (v.cab == NULL || v.cab->cage_mod == NULL || v.cab->n_cage == 0)
        return FP_OK;
    unsigned char *done = calloc((size_t)(v.cab->n_cage / 8 + 1), 1);
    if (done == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory listing the transceivers");
    for (int64_t i = 0; i < v.fab->n_link; i++) {
        const fp_link *l = &v.fab->link[i];
        int64_t ends[2] = { l->a, l->z };
        int ports[2] = { l->a_port, l->z_port };
        for (int e = 0; e < 2; e++) {
            int64_t g = fp__cage_of(v.cab, v.fab, v.rs, ends[e], ports[e]);
            if (g < 0 || g >= v.cab->n_cage || v.cab->cage_mod[g] < 0 || (done[g / 8] >> (g % 8)) & 1)
                continue;
            done[g / 8] |= (unsigned char)(1u << (g % 8));
            int64_t first = fp__cage_of(v.cab, v.fab, v.rs, ends[e], 0);
            fn(ctx, &v, ends[e], g - first + 1, &v.rs->phys.parts[v.cab->cage_mod[g]]);
        }
    }
    free(done);
    return FP_OK;
}

typedef struct mod_ctx {
    const fp_plan *plan;
    fp_outbuf *f;
    fp_nb_seen *seen;
    int net;
    int64_t count;
} mod_ctx;

static void type_row(void *p, const fp_net_read *v, int64_t dev, int64_t cage, const fp_part *m)
{
    mod_ctx *c = p;
    char maker[40];
    (void)v;
    (void)dev;
    (void)cage;
    if (!fp__nb_seen_add(c->seen, m->id))
        return;
    fp__netbox_manufacturer(maker, sizeof maker, m->vendor);
    const char *r[] = { maker, m->id, m->id, m->name[0] ? m->name : m->id };
    fp__csv_row(c->f, r, 4, 0);
}

static void maker_row(void *p, const fp_net_read *v, int64_t dev, int64_t cage, const fp_part *m)
{
    mod_ctx *c = p;
    char maker[40];
    (void)v;
    (void)dev;
    (void)cage;
    fp__netbox_manufacturer(maker, sizeof maker, m->vendor);
    fp__netbox_manufacturer_row(c->f, c->seen, maker);
}

void fp__netbox_module_manufacturers(fp_outbuf *f, const fp_plan *plan, fp_nb_seen *seen)
{
    mod_ctx c = { plan, f, seen, 0, 0 };
    for (size_t net = 0; net < fp_plan_net_count(plan); net++)
        (void)fp__write_each_module(plan, net, maker_row, &c, NULL);
}

/* A bay's name on its device: "cage<N>", prefixed with the network's name for a network's
 * cages (a compute server has bays of several networks). */
static void bay_name(char *buf, size_t n, const fp_net_read *v, int64_t cage)
{
    if (v->ns)
        snprintf(buf, n, "%s-cage%lld", v->ns->name, (long long)cage);
    else
        snprintf(buf, n, "cage%lld", (long long)cage);
}

static void bay_row(void *p, const fp_net_read *v, int64_t dev, int64_t cage, const fp_part *m)
{
    mod_ctx *c = p;
    char name[160], bay[64], pos[24], desc[64];
    bay_name(bay, sizeof bay, v, cage);
    snprintf(pos, sizeof pos, "%lld", (long long)cage);
    snprintf(desc, sizeof desc, "%s cage", m->cage[0] ? m->cage : "transceiver");
    const char *r[] = { fp__net_read_dev(v, dev, name, sizeof name, NULL), bay, pos, desc };
    fp__csv_row(c->f, r, 4, 0);
    c->count++;
}

static void module_row(void *p, const fp_net_read *v, int64_t dev, int64_t cage, const fp_part *m)
{
    mod_ctx *c = p;
    char name[160], bay[64];
    bay_name(bay, sizeof bay, v, cage);
    const char *r[] = { fp__net_read_dev(v, dev, name, sizeof name, NULL), bay, m->id, "planned" };
    fp__csv_row(c->f, r, 4, 0);
    c->count++;
}

static fp_status module_file(const fp_plan *plan, const char *path, const char *header,
                             fp_cage_fn fn, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    fp_nb_seen seen = { 0 };
    if ((rc = fp__outbuf_open(&f, path, header, err)) != FP_OK)
        return rc;
    mod_ctx c = { plan, f, &seen, 0, 0 };
    for (size_t net = 0; net < fp_plan_net_count(plan) && rc == FP_OK; net++)
        rc = fp__write_each_module(plan, net, fn, &c, err);
    return fp__outbuf_close(f, path, rc, err);
}

fp_status fp__write_netbox_module_types(const fp_plan *plan, const char *path,
                                        const fp_write_options *o, fp_error *err)
{
    (void)o;
    return module_file(plan, path, "manufacturer,model,part_number,description\n", type_row, err);
}

fp_status fp__write_netbox_module_bays(const fp_plan *plan, const char *path,
                                       const fp_write_options *o, fp_error *err)
{
    (void)o;
    return module_file(plan, path, "device,name,position,description\n", bay_row, err);
}

fp_status fp__write_netbox_modules(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err)
{
    (void)o;
    return module_file(plan, path, "device,module_bay,module_type,status\n", module_row, err);
}

/* ---- power ports ---- */

/* What each device draws in the plan, as the racks' power sums it (phys/cabling.c
 * rack_totals): the part's own power, the transceivers in its cages, and its share of each
 * powered copper cable ending on it (the cable's power over its ends). Per network, per
 * device of that network's fabric; a network's compute servers add theirs to the compute
 * server's. */
static void add_modules(void *p, const fp_net_read *v, int64_t dev, int64_t cage, const fp_part *m)
{
    double *w = p;
    (void)v;
    (void)cage;
    w[dev] += m->power_w;
}

static void add_cables(double *w, const fp_net_read *v)
{
    for (int64_t i = 0; i < v->cab->n_cable; i++) {
        const fp_cable *cb = &v->cab->cable[i];
        if (!fp__medium_copper(cb->medium) || cb->part < 0)
            continue;
        const int32_t *links = v->cab->cable_links + cb->first;
        const fp_link *l0 = &v->fab->link[links[0]];
        double pw = v->rs->phys.parts[cb->part].power_w;
        if (cb->kind == FP_CABLE_SPLIT) {
            int hub_z = fp__split_hub_is_z(v->cab, v->fab, v->rs, links, cb->n_links);
            int n_ends = 1 + (cb->n_links < FP_MAX_LEGS ? cb->n_links : FP_MAX_LEGS);
            w[hub_z ? l0->z : l0->a] += pw / n_ends;
            for (int k = 0; k + 1 < n_ends; k++) {
                const fp_link *l = &v->fab->link[links[k]];
                w[hub_z ? l->a : l->z] += pw / n_ends;
            }
        } else {
            w[l0->a] += pw / 2;
            w[l0->z] += pw / 2;
        }
    }
}

static void draw_text(char *buf, size_t n, double w)
{
    long long x = (long long)ceil(w - 1e-6);
    if (x < 1)
        buf[0] = '\0';      /* NetBox takes 1 W or more, or nothing */
    else
        snprintf(buf, n, "%lld", x);
}

static void power_row(fp_outbuf *f, const char *dev, double part_w, double plan_w)
{
    char mx[24], al[24];
    draw_text(mx, sizeof mx, part_w > plan_w ? part_w : plan_w);
    draw_text(al, sizeof al, plan_w);
    const char *r[] = { dev, "PSU", mx, al };
    fp__csv_row(f, r, 4, 0);
}

fp_status fp__write_netbox_power_ports(const fp_plan *plan, const char *path,
                                       const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc = FP_OK;
    const size_t nets = fp_plan_net_count(plan);
    double *w[FP_MAX_NETWORKS + 1] = { NULL }, *own[FP_MAX_NETWORKS + 1] = { NULL };
    char name[160];
    (void)o;
    /* What every device of every network draws there (w), then each NetBox device's sum of
     * what its network devices draw (own): a compute server adds its ports on each network, an
     * extra endpoint its port groups, a switch its management port. */
    for (size_t net = 0; net < nets && rc == FP_OK; net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        size_t n = (size_t)(v.fab->n_dev ? v.fab->n_dev : 1);
        w[net] = calloc(n, sizeof *w[net]);
        own[net] = calloc(n, sizeof *own[net]);
        if (w[net] == NULL || own[net] == NULL) {
            fp__error_set(err, FP_ENOMEM, path, "out of memory writing %s", path);
            rc = FP_ENOMEM;
            break;
        }
        if ((rc = fp__write_each_module(plan, net, add_modules, w[net], err)) == FP_OK)
            add_cables(w[net], &v);
    }
    for (size_t net = 0; net < nets && rc == FP_OK; net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        for (int64_t d = 0; d < v.fab->n_dev; d++) {
            size_t on;
            int64_t od = fp__net_read_owner(&v, d, &on);
            own[on][od] += w[net][d];
        }
    }
    if (rc == FP_OK)
        rc = fp__outbuf_open(&f, path, "device,name,maximum_draw,allocated_draw\n", err);
    /* netbox-devices.csv's devices, in its order. */
    for (size_t net = 0; net < nets && rc == FP_OK; net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        fp_nb_kind k;
        for (int64_t d = 0; d < v.fab->n_dev; d++)
            if (fp__nb_device_of(&v, d, &k))
                power_row(f, fp__net_read_dev(&v, d, name, sizeof name, NULL), k.power_w,
                          k.power_w + own[net][d]);
    }
    for (size_t net = 0; net < nets; net++) {
        free(w[net]);
        free(own[net]);
    }
    return f ? fp__outbuf_close(f, path, rc, err) : rc;
}
