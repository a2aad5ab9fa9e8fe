/* fabplan — the NetBox import set, one CSV per object type in the order NetBox needs them:
 * sites, manufacturers, device roles, device types, racks, devices, interfaces, cables.
 *
 * Column names and choice values are those of NetBox 4.x's bulk-import forms
 * (netbox/dcim/forms/bulk_import.py: SiteImportForm, ManufacturerImportForm,
 * DeviceRoleImportForm, DeviceTypeImportForm, RackImportForm, DeviceImportForm,
 * InterfaceImportForm, CableImportForm; choices in netbox/dcim/choices.py). Every interface is
 * named by fp__port_name, the same name every other output uses; a breakout lane is its own
 * interface, and a cable that carries several links (a splitter's legs, a twin-port copper
 * cable) is one NetBox cable per link, so no interface ends two cables. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write/writers.h"

/* ---- device types: the community device-type library's names where the part is there ---- */

/* Parts of the built-in catalog that the NetBox devicetype-library has: its manufacturer,
 * model and slug, so a library import and this set name one type (NetBox keys a device type by
 * manufacturer and model). The library's files and commits are in
 * tests/write/data/netbox-library.txt, which test_netbox.c checks this table against: the
 * SN4600C is filed under Mellanox only; the SN2201 under both, and ours is the Nvidia file's
 * (slug nvidia-sn2201). The library has no Q3450-LD and no SN6810: they take its style, Nvidia,
 * the bare model and slug nvidia-<model>. Every other part (the generic and custom switches)
 * has no model number, and its type is its catalog name. */
static const struct {
    const char *id, *manufacturer, *model, *slug;
} library[] = {
    { "nvidia-qm9700", "Nvidia", "QM9700", "nvidia-qm9700" },
    { "nvidia-sn5600", "Nvidia", "SN5600", "nvidia-sn5600" },
    { "nvidia-q3400", "Nvidia", "Q3400-RA", "nvidia-q3400-ra" },
    { "nvidia-sn2201", "Nvidia", "SN2201", "nvidia-sn2201" },
    { "nvidia-sn4600c", "Mellanox", "SN4600C", "mellanox-sn4600c" },
    { "nvidia-q3450-ld", "Nvidia", "Q3450-LD", "nvidia-q3450-ld" },
    { "nvidia-sn6810", "Nvidia", "SN6810", "nvidia-sn6810" },
    { "arista-7060x6-64pe", "Arista", "DCS-7060X6-64PE", "arista-dcs-7060x6-64pe" },
};


/* NetBox slug: lower-case letters, digits, '-' and '_'; anything else becomes '-'. */
void fp__netbox_slugify(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        unsigned char c = (unsigned char)*s;
        char ch = isalnum(c) ? (char)tolower(c) : c == '_' ? '_' : '-';
        if (ch == '-' && (k == 0 || out[k - 1] == '-'))
            continue;
        out[k++] = ch;
    }
    while (k > 0 && out[k - 1] == '-')
        k--;
    if (k == 0 && n > 1)
        out[k++] = 'x';
    out[k] = '\0';
}

/* The library spells NVIDIA "Nvidia"; a part without a vendor is "Generic". */
void fp__netbox_manufacturer(char *out, size_t n, const char *vendor)
{
    if (vendor[0] == '\0' || strcmp(vendor, "generic") == 0)
        snprintf(out, n, "Generic");
    else if (strcmp(vendor, "NVIDIA") == 0)
        snprintf(out, n, "Nvidia");
    else
        snprintf(out, n, "%s", vendor);
}

void fp__netbox_switch_type(fp_nb_type *t, const fp_part *p)
{
    memset(t, 0, sizeof *t);
    fp__netbox_manufacturer(t->manufacturer, sizeof t->manufacturer, p->vendor);
    t->u_height = p->ru > 0 ? p->ru : 1;
    for (size_t i = 0; i < sizeof library / sizeof library[0]; i++)
        if (strcmp(p->id, library[i].id) == 0) {
            snprintf(t->manufacturer, sizeof t->manufacturer, "%s", library[i].manufacturer);
            snprintf(t->model, sizeof t->model, "%s", library[i].model);
            snprintf(t->slug, sizeof t->slug, "%s", library[i].slug);
            return;
        }
    snprintf(t->model, sizeof t->model, "%s", p->name);
    fp__netbox_slugify(t->slug, sizeof t->slug, p->id);
}

/* ---- interface types: NetBox's InterfaceTypeChoices for a port of this speed and cage ---- */

/* InfiniBand by rate (the values NetBox 4.0 onward accepts; the library's QM9700 and Q3400
 * types use them too), Ethernet by speed and form factor; "other" where NetBox has no value for
 * the pair (a 200G lane of an OSFP cage). */
const char *fp__netbox_interface_type(int gbps, const char *cage, int infiniband)
{
    if (infiniband)
        return gbps >= 800 ? "infiniband-xdr" : gbps >= 400 ? "infiniband-ndr"
             : gbps >= 200 ? "infiniband-hdr" : gbps >= 100 ? "infiniband-edr" : "other";
    static const struct {
        int gbps;
        const char *cage, *type;
    } eth[] = {
        { 800, "OSFP", "800gbase-x-osfp" },       { 800, "QSFP-DD", "800gbase-x-qsfpdd" },
        { 400, "OSFP", "400gbase-x-osfp" },       { 400, "QSFP-DD", "400gbase-x-qsfpdd" },
        { 400, "QSFP112", "400gbase-x-qsfp112" }, { 200, "QSFP56", "200gbase-x-qsfp56" },
        { 200, "QSFP-DD", "200gbase-x-qsfpdd" },  { 100, "QSFP28", "100gbase-x-qsfp28" },
        { 100, "QSFP-DD", "100gbase-x-qsfpdd" },  { 1, "RJ45", "1000base-t" },
        { 10, "RJ45", "10gbase-t" },              { 25, "SFP28", "25gbase-x-sfp28" },
    };
    for (size_t i = 0; i < sizeof eth / sizeof eth[0]; i++)
        if (eth[i].gbps == gbps && strcmp(eth[i].cage, cage) == 0)
            return eth[i].type;
    return "other";
}

/* ---- the files ---- */

static void site_name(char *out, size_t n, const fp_plan *plan)
{
    snprintf(out, n, "%s", fp__plan_rspec(plan)->name[0] ? fp__plan_rspec(plan)->name : "fabplan");
}

fp_status fp__write_netbox_sites(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char name[128], slug[128], desc[160];
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "name,slug,status,description\n", err)) != FP_OK)
        return rc;
    site_name(name, sizeof name, plan);
    fp__netbox_slugify(slug, sizeof slug, name);
    snprintf(desc, sizeof desc, "GPU fabric planned by fabplan: %lld GPUs",
             (long long)fp__plan_rspec(plan)->gpus);
    const char *r[] = { name, slug, "planned", desc };
    fp__csv_row(f, r, 4, 0);
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* ---- compute racks' fixtures (layout.rack_fixtures): devices of role "rack fixture" ---- */

/* Fixture x's device type: model "NVLink switch tray 1U", its slug. */
static void fixture_type(const fp_fixture *x, char *model, size_t nm, char *slug, size_t ns)
{
    snprintf(model, nm, "%s %dU", x->name, x->ru);
    fp__netbox_slugify(slug, ns, model);
}

/* The fixtures' manufacturer, role or device types, once each (what: 0, 1, 2). */
static void fixture_rows(fp_outbuf *f, fp_nb_seen *seen, const fp_plan *plan, int what)
{
    const fp_phys_spec *ps = &fp__plan_rspec(plan)->phys;
    char model[64], slug[64], u[16];
    for (int i = 0; i < ps->n_fixtures; i++) {
        fixture_type(&ps->fixtures[i], model, sizeof model, slug, sizeof slug);
        if (what == 0) {
            fp__netbox_manufacturer_row(f, seen, "Generic");
        } else if (what == 1 && fp__nb_seen_add(seen, "rack fixture")) {
            const char *r[] = { "rack fixture", "rack-fixture", "607d8b" };
            fp__csv_row(f, r, 3, 0);
        } else if (what == 2 && fp__nb_seen_add(seen, slug)) {
            snprintf(u, sizeof u, "%d", ps->fixtures[i].ru);
            const char *r[] = { "Generic", model, slug, u, "true" };
            fp__csv_row(f, r, 5, 0);
        }
    }
}

/* Every compute rack's fixtures as devices ("H1-R01-K01-nvlink-switch-tray-1u-13": rack, type
 * and U), after the networks' devices. */
static void fixture_devices(fp_outbuf *f, const fp_plan *plan, const char *site, int tags)
{
    const fp_phys_spec *ps = &fp__plan_rspec(plan)->phys;
    char model[64], slug[64], name[160], pos[16];
    for (size_t i = 0; ps->n_fixtures > 0 && i < fp_plan_rack_count(plan); i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        for (size_t k = 0; k < fp_plan_rack_fixture_count(plan, i); k++) {
            fp_rack_fixture fx;
            fp_plan_rack_fixture(plan, i, k, &fx, NULL);
            const fp_fixture *x = ps->fixtures;
            while (strcmp(x->name, fx.name) != 0 || x->ru != fx.ru)
                x++;
            fixture_type(x, model, sizeof model, slug, sizeof slug);
            snprintf(name, sizeof name, "%s-%s-%d", r.name, slug, fx.u);
            snprintf(pos, sizeof pos, "%d", fx.u);
            const char *c[] = { name, "rack fixture", "Generic", model, "", "planned", site,
                                r.name, pos, "front", "" };
            fp__csv_row(f, c, tags ? 11 : 10, 0);
        }
    }
}

/* The manufacturers, roles and device types of every network's devices, each once, in the
 * order netbox-devices.csv first uses them. */
fp_status fp__write_netbox_manufacturers(const fp_plan *plan, const char *path,
                                         const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    fp_nb_seen seen = { 0 };
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "name,slug\n", err)) != FP_OK)
        return rc;
    for (size_t net = 0; net < fp_plan_net_count(plan); net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        fp_nb_kind k;
        for (int i = 0; i < fp__nb_kind_count(&v); i++)
            if (fp__nb_kind(&v, i, &k))
                fp__netbox_manufacturer_row(f, &seen, k.type.manufacturer);
    }
    fixture_rows(f, &seen, plan, 0);
    fp__netbox_module_manufacturers(f, plan, &seen);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_netbox_roles(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    fp_nb_seen seen = { 0 };
    char slug[sizeof ((fp_nb_kind *)0)->role];
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "name,slug,color\n", err)) != FP_OK)
        return rc;
    for (size_t net = 0; net < fp_plan_net_count(plan); net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        fp_nb_kind k;
        for (int i = 0; i < fp__nb_kind_count(&v); i++) {
            if (!fp__nb_kind(&v, i, &k) || !fp__nb_seen_add(&seen, k.role))
                continue;
            fp__netbox_slugify(slug, sizeof slug, k.role);
            const char *r[] = { k.role, slug, k.color };
            fp__csv_row(f, r, 3, 0);
        }
    }
    fixture_rows(f, &seen, plan, 1);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_netbox_device_types(const fp_plan *plan, const char *path,
                                        const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char u[16];
    fp_nb_seen seen = { 0 };
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "manufacturer,model,slug,u_height,is_full_depth\n",
                              err)) != FP_OK)
        return rc;
    for (size_t net = 0; net < fp_plan_net_count(plan); net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        fp_nb_kind k;
        for (int i = 0; i < fp__nb_kind_count(&v); i++) {
            if (!fp__nb_kind(&v, i, &k) || !fp__nb_seen_add(&seen, k.type.slug))
                continue;
            snprintf(u, sizeof u, "%d", k.type.u_height);
            /* a 0U type (a BMC port) is no full-depth device */
            const char *r[] = { k.type.manufacturer, k.type.model, k.type.slug, u,
                                k.type.u_height > 0 ? "true" : "false" };
            fp__csv_row(f, r, 5, 0);
        }
    }
    fixture_rows(f, &seen, plan, 2);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_netbox_racks(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char site[128], units[16], hall[24], row[24];
    size_t n = fp_plan_rack_count(plan);
    if ((rc = fp__outbuf_open(&f, path, "site,location,name,status,width,u_height\n", err)) != FP_OK)
        return rc;
    site_name(site, sizeof site, plan);
    snprintf(units, sizeof units, "%d", fp__plan_rspec(plan)->phys.rack_units);
    for (size_t i = 0; i < n; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        /* in its row (netbox-locations.csv) */
        fp__netbox_rack_location(r.name, hall, sizeof hall, row, sizeof row);
        const char *fields[] = { site, row, r.name, "planned", "19", units };
        fp__csv_row(f, fields, 6, 0);
        fp__write_progress(o, "netbox-racks.csv", i, n);
    }
    fp__write_progress(o, "netbox-racks.csv", n, n);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_netbox_devices(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char site[128], pos[16], name[160], server_tags[FP_MAX_NETWORKS * (FP_NET_NAME_MAX + 1) + 16];
    const size_t nets = fp_plan_net_count(plan), nr = fp_plan_rack_count(plan);
    char (*rack_names)[24] = malloc((nr ? nr : 1) * sizeof *rack_names);
    if (rack_names == NULL)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    for (size_t i = 0; i < nr; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, i, &r, NULL);
        memcpy(rack_names[i], r.name, sizeof r.name);
    }
    site_name(site, sizeof site, plan);
    fp__netbox_server_tags(server_tags, sizeof server_tags, plan);
    /* With spec `networks`, a last column tags: the networks a device is on. */
    if ((rc = fp__outbuf_open(&f, path,
                              nets > 1 ? "name,role,manufacturer,device_type,platform,status,site,rack,position,face,tags\n"
                                       : "name,role,manufacturer,device_type,platform,status,site,rack,position,face\n",
                              err)) != FP_OK) {
        free(rack_names);
        return rc;
    }
    /* Every network's own devices (fp__nb_device_of), in its device order. */
    for (size_t net = 0; net < nets; net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        const size_t n = (size_t)v.fab->n_dev;
        fp_nb_kind k;
        for (size_t d = 0; d < n; d++) {
            if (!fp__nb_device_of(&v, (int64_t)d, &k))
                continue;
            int u = 0;
            int64_t rk = fp__net_read_rack(&v, (int64_t)d, &u);
            /* NetBox refuses a rack position for a 0U device type. */
            pos[0] = '\0';
            if (rk >= 0 && k.type.u_height > 0)
                pos[fp__put_int(pos, u)] = '\0';
            /* A compute server is on every network. */
            const int server = v.ns == NULL && v.fab->dev[d].tier == 0;
            const char *r[] = { fp__net_read_dev(&v, (int64_t)d, name, sizeof name, NULL), k.role,
                                k.type.manufacturer, k.type.model, k.platform, "planned", site,
                                rk >= 0 && (size_t)rk < nr ? rack_names[rk] : "", pos,
                                pos[0] ? "front" : "", server ? server_tags : v.label };
            fp__csv_row(f, r, nets > 1 ? 11 : 10, 0);
            fp__write_progress(o, "netbox-devices.csv", d, n);
        }
    }
    fixture_devices(f, plan, site, nets > 1);
    fp__write_progress(o, "netbox-devices.csv", 1, 1);
    free(rack_names);
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* A switch of tier t whose ports all run at one speed, split alike: its logical ports are
 * its interfaces, in order (the fast path: names from the name table). */
static int uniform_ports(const fp_fabric *fab, const fp_rspec *rs, int t)
{
    return fab->size[t - 1].up_phys < 0 && rs->tier[t - 1].model.uplink_ports <= 0;
}

fp_status fp__write_netbox_interfaces(const fp_plan *plan, const char *path,
                                      const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    char port[FP_PORT_NAME_MAX + 32], name[160], speed[FP_MAX_TIERS + 1][24];
    const size_t nets = fp_plan_net_count(plan);
    fp_nb_if_cols c = { nets > 1, fp__netbox_lag_column(plan), fp__netbox_mgmt_column(plan), 0,
                        "" };
    char head[64];
    snprintf(head, sizeof head, "device,name,type,speed%s%s%s\n", c.tags ? ",tags" : "",
             c.lag ? ",lag" : "", c.mgmt ? ",mgmt_only" : "");
    if ((rc = fp__outbuf_open(&f, path, head, err)) != FP_OK)
        return rc;
    /* Every network's devices, each with its ports on that network: a switch's every port, a
     * host's ports on the network (a compute server's on each network it is on). */
    for (size_t net = 0; net < nets; net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        const fp_fabric *fab = v.fab;
        const fp_rspec *rs = v.rs;
        const int ib = fp__fabric_infiniband(rs);
        const char *type[FP_MAX_TIERS + 1];
        /* A uniform switch's ports at the speed below its tier. Kbps. */
        for (int t = 1; t <= fab->tiers; t++) {
            speed[t][fp__put_int(speed[t], (int64_t)rs->tier[t - 1].gbps_down * 1000000)] = '\0';
            type[t] = fp__netbox_interface_type(rs->tier[t - 1].gbps_down, rs->tier[t - 1].model.cage, ib);
        }
        c.tag = v.label;
        c.plain = v.ns == NULL && fp__csv_plain_names(plan);
        const size_t n = (size_t)fab->n_dev;
        for (size_t d = 0; d < n; d++) {
            const int t = fab->dev[d].tier;
            size_t dl, pl;
            size_t on;
            const char *dev = fp__net_read_dev(&v, (int64_t)d, name, sizeof name, &dl);
            /* Another network's switch has its ports listed by its own network. */
            if (t > 0 && (fp__net_read_owner(&v, (int64_t)d, &on) != (int64_t)d || on != net))
                continue;
            if (t == 0)
                fp__netbox_host_rows(f, &c, &v, (int64_t)d, dev, dl);
            else if (!uniform_ports(fab, rs, t))
                fp__netbox_switch_rows(f, &c, dev, dl, rs, &fab->size[t - 1], t, ib);
            else
                for (int p = 0; p < rs->tier[t - 1].radix; p++) {
                    const char *pt = fp__net_read_port(&v, (int64_t)d, p, port, sizeof port, &pl);
                    fp__nb_if_row(f, &c, dev, dl, pt, pl, type[t], speed[t], "", 0);
                }
            fp__write_progress(o, "netbox-interfaces.csv", d, n);
        }
    }
    fp__write_progress(o, "netbox-interfaces.csv", 1, 1);
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* NetBox cable types and jacket colours (the usual ones: black copper, aqua OM4, yellow OS2,
 * blue management patch cords). NetBox has no AEC type; active copper is the nearest. Twisted
 * pair takes NetBox's category type its part names (fp__netbox_cable_kind), else `cat6a`, the
 * built-in cord's. */
static const char *const cable_type[FP_MEDIUM_COUNT] = { "dac-passive", "dac-active",
                                                         "dac-active", "mmf-om4", "smf-os2",
                                                         "cat6a" };
static const char *const cable_color[FP_MEDIUM_COUNT] = { "000000", "000000", "000000",
                                                          "00ffff", "ffff00", "2196f3" };

/* NetBox's twisted-pair types (CableTypeChoices), longest name first so "cat6a" is not read
 * as "cat6". */
static const char *const tp_types[] = { "cat5e", "cat6a", "cat7a", "cat3", "cat5", "cat6",
                                        "cat7", "cat8" };

static int starts_nocase(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != *prefix)
            return 0;
    return 1;
}

/* The category a twisted-pair part's id or name gives ("Cat6 U/UTP" -> cat6), else cat6a: the
 * first one the text names ("Cat6 cord, replaces Cat5e" -> cat6), the id before the name. */
static const char *tp_type(const fp_part *p)
{
    const char *texts[2] = { p ? p->id : "", p ? p->name : "" };
    for (int t = 0; t < 2; t++)
        for (const char *s = texts[t]; *s; s++)
            for (size_t k = 0; k < sizeof tp_types / sizeof tp_types[0]; k++)
                if (starts_nocase(s, tp_types[k]))
                    return tp_types[k];
    return "cat6a";
}

void fp__netbox_cable_kind(int medium, const fp_part *part, const char **type, const char **color)
{
    int m = medium >= 0 && medium < FP_MEDIUM_COUNT ? medium : FP_MEDIUM_SMF;
    *type = m == FP_MEDIUM_TP ? tp_type(part) : cable_type[m];
    *color = cable_color[m];
}

fp_status fp__write_netbox_cables(const fp_plan *plan, const char *path,
                                  const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    fp_num_memo length = { 0 };
    char label[40], an[160], zn[160], ap[FP_PORT_NAME_MAX + 32], zp[FP_PORT_NAME_MAX + 32];
    /* With spec `networks`, a last column tags: the cable's network. */
    const size_t nets = fp_plan_net_count(plan);
    if ((rc = fp__outbuf_open(&f, path,
                              nets > 1 ? "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,"
                                         "side_b_name,type,status,label,color,length,length_unit,tags\n"
                                       : "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,"
                                         "side_b_name,type,status,label,color,length,length_unit\n",
                              err)) != FP_OK)
        return rc;
    for (size_t net = 0; net < nets; net++) {
        fp_net_read v = fp__plan_net_read(plan, net);
        const fp_cabling *cab = v.cab;
        const size_t n = fp_plan_net_cable_count(plan, net);
        for (size_t i = 0; i < n; i++) {
            /* What fp_plan_net_cable gives for these columns (id, medium, stock length, links),
             * read from the cabling: this file needs none of its labels. */
            const fp_cable *cb = &cab->cable[i];
            const int32_t *cl = cab->cable_links + cb->first;
            char id[24];
            id[0] = 'C';
            size_t id_len = 1 + fp__put_uint_w(id + 1, (uint64_t)(v.cable_base + fp__link_number(v.fab, cl[0])), 7);
            id[id_len] = '\0';
            const char *type, *color;
            fp__netbox_cable_kind(cb->medium, cb->part >= 0 ? &v.rs->phys.parts[cb->part] : NULL,
                                  &type, &color);
            const char *length_text = fp__memo_format(&length, "%.1f", (double)cb->stock_m, NULL);
            int links = cb->n_links < FP_MAX_LEGS ? cb->n_links : FP_MAX_LEGS;
            /* One NetBox cable per link: each ends on the two interfaces of its link. */
            for (int k = 0; k < links; k++) {
                const fp_link *l = &v.fab->link[cl[k]];
                memcpy(label, id, id_len);
                size_t lab_len = id_len;
                if (links > 1) {
                    label[lab_len++] = '/';
                    lab_len += fp__put_int(label + lab_len, k + 1);
                }
                label[lab_len] = '\0';
                const char *r[] = { fp__net_read_dev(&v, l->a, an, sizeof an, NULL), "dcim.interface",
                                    fp__net_read_port(&v, l->a, l->a_port, ap, sizeof ap, NULL),
                                    fp__net_read_dev(&v, l->z, zn, sizeof zn, NULL), "dcim.interface",
                                    fp__net_read_port(&v, l->z, l->z_port, zp, sizeof zp, NULL),
                                    type, "planned", label, color, length_text, "m", v.label };
                fp__csv_row(f, r, nets > 1 ? 13 : 12, 0);
            }
            fp__write_progress(o, "netbox-cables.csv", i, n);
        }
    }
    fp__write_progress(o, "netbox-cables.csv", 1, 1);
    return fp__outbuf_close(f, path, FP_OK, err);
}
