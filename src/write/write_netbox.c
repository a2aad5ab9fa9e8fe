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

static void report(const fp_write_options *o, const char *stage, size_t i, size_t n)
{
    if (o && o->progress && ((i & 0xffff) == 0 || i == n))
        o->progress(stage, n ? (double)i / (double)n : 1.0, o->payload);
}

/* ---- device types: the community device-type library's names where the part is there ---- */

/* Parts of the built-in catalog that the NetBox devicetype-library has: its manufacturer,
 * model and slug, so a library import and this set name one type (NetBox keys a device type by
 * manufacturer and model). Read in netbox-community/devicetype-library: device-types/Nvidia/
 * QM9700.yaml, SN5600.yaml, Q3400-RA.yaml, SN2201.yaml (slug mellanox-sn2201, as the file
 * gives it), and device-types/Mellanox/SN4600C.yml (the SN4600C is filed under Mellanox only).
 * The library has no Q3450-LD and no SN6810 (device-types/Nvidia/ lists neither): they take
 * the library's style, Nvidia, the bare model and slug nvidia-<model>; nor the Arista
 * 7060X6-64PE, which takes its Arista style (device-types/Arista/DCS-7060CX-32S.yaml: model
 * DCS-<model>, slug arista-dcs-<model>). Every other part (the
 * generic and custom switches) has no model number, and its type is its catalog name. */
static const struct {
    const char *id, *manufacturer, *model, *slug;
} library[] = {
    { "nvidia-qm9700", "Nvidia", "QM9700", "nvidia-qm9700" },
    { "nvidia-sn5600", "Nvidia", "SN5600", "nvidia-sn5600" },
    { "nvidia-q3400", "Nvidia", "Q3400-RA", "nvidia-q3400-ra" },
    { "nvidia-sn2201", "Nvidia", "SN2201", "mellanox-sn2201" },
    { "nvidia-sn4600c", "Mellanox", "SN4600C", "sn4600c" },
    { "nvidia-q3450-ld", "Nvidia", "Q3450-LD", "nvidia-q3450-ld" },
    { "nvidia-sn6810", "Nvidia", "SN6810", "nvidia-sn6810" },
    { "arista-7060x6-64pe", "Arista", "DCS-7060X6-64PE", "arista-dcs-7060x6-64pe" },
};

typedef fp_nb_type nb_type;

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

static void type_of(nb_type *t, const fp_plan *plan, int tier)
{
    const fp_rspec *rs = fp__plan_rspec(plan);
    memset(t, 0, sizeof *t);
    if (tier == 0) {
        fp__netbox_manufacturer(t->manufacturer, sizeof t->manufacturer, "");
        snprintf(t->model, sizeof t->model, "GPU server %d GPU %dU", rs->gpus_per_server,
                 rs->phys.server_ru);
        snprintf(t->slug, sizeof t->slug, "gpu-server-%dgpu-%du", rs->gpus_per_server,
                 rs->phys.server_ru);
        t->u_height = rs->phys.server_ru;
        return;
    }
    fp__netbox_switch_type(t, &rs->tier[tier - 1].model);
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

/* Tiers (0 = servers) whose device type is listed: the first tier of each distinct model. */
static int first_of_type(const fp_plan *plan, int tier)
{
    for (int u = 1; u < tier; u++)
        if (strcmp(fp__plan_rspec(plan)->tier[u - 1].model.id, fp__plan_rspec(plan)->tier[tier - 1].model.id) == 0)
            return 0;
    return 1;
}

static const char *role_of(const fp_plan *plan, int tier)
{
    return fp__tier_role(tier, fp__plan_fabric(plan)->tiers);
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

fp_status fp__write_netbox_manufacturers(const fp_plan *plan, const char *path,
                                         const fp_write_options *o, fp_error *err)
{
    fp_outbuf *f = NULL;
    fp_status rc;
    fp_nb_seen seen = { 0 };
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "name,slug\n", err)) != FP_OK)
        return rc;
    for (int t = 0; t <= fp__plan_fabric(plan)->tiers; t++) {
        nb_type ty;
        type_of(&ty, plan, t);
        fp__netbox_manufacturer_row(f, &seen, ty.manufacturer);
    }
    fp__netbox_net_manufacturers(f, plan, &seen);
    fp__netbox_module_manufacturers(f, plan, &seen);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_netbox_roles(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    static const char *const colors[] = { "9e9e9e", "4caf50", "2196f3", "ff9800", "9c27b0" };
    fp_outbuf *f = NULL;
    fp_status rc;
    fp_nb_seen seen = { 0 };
    (void)o;
    if ((rc = fp__outbuf_open(&f, path, "name,slug,color\n", err)) != FP_OK)
        return rc;
    for (int t = 0; t <= fp__plan_fabric(plan)->tiers; t++) {
        const char *name = role_of(plan, t);
        const char *r[] = { name, name, colors[t <= FP_MAX_TIERS ? t : 0] };
        fp__nb_seen_add(&seen, name);
        fp__csv_row(f, r, 3, 0);
    }
    fp__netbox_net_roles(f, plan, &seen);
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
    for (int t = 0; t <= fp__plan_fabric(plan)->tiers; t++) {
        if (t > 0 && !first_of_type(plan, t))
            continue;
        nb_type ty;
        type_of(&ty, plan, t);
        snprintf(u, sizeof u, "%d", ty.u_height);
        const char *r[] = { ty.manufacturer, ty.model, ty.slug, u, "true" };
        fp__nb_seen_add(&seen, ty.slug);
        fp__csv_row(f, r, 5, 0);
    }
    fp__netbox_net_device_types(f, plan, &seen);
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
        report(o, "netbox-racks.csv", i, n);
    }
    report(o, "netbox-racks.csv", n, n);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_netbox_devices(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_layout *lay = fp__plan_layout(plan);
    fp_outbuf *f = NULL;
    fp_status rc;
    char site[128], pos[16], server_tags[FP_MAX_NETWORKS * (FP_NET_NAME_MAX + 1) + 16];
    const int nets = fp__plan_net_count(plan);
    nb_type types[FP_MAX_TIERS + 1];
    char (*rack_names)[24] = malloc((size_t)(lay->n_rack ? lay->n_rack : 1) * sizeof *rack_names);
    if (rack_names == NULL)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    for (int64_t i = 0; i < lay->n_rack; i++) {
        fp_rack_info r;
        fp_plan_rack(plan, (size_t)i, &r, NULL);
        memcpy(rack_names[i], r.name, sizeof r.name);
    }
    const char *platform[FP_MAX_TIERS + 1] = { "" };
    for (int t = 0; t <= fab->tiers; t++) {
        type_of(&types[t], plan, t);
        const char *os = t > 0 ? fp__switch_os(&fp__plan_rspec(plan)->tier[t - 1].model, NULL) : NULL;
        platform[t] = os ? os : "";
    }
    site_name(site, sizeof site, plan);
    fp__netbox_server_tags(server_tags, sizeof server_tags, plan);
    /* With spec `networks`, a last column tags: the networks a device is on. */
    if ((rc = fp__outbuf_open(&f, path,
                              nets ? "name,role,manufacturer,device_type,platform,status,site,rack,position,face,tags\n"
                                   : "name,role,manufacturer,device_type,platform,status,site,rack,position,face\n",
                              err)) != FP_OK) {
        free(rack_names);
        return rc;
    }
    size_t n = (size_t)fab->n_dev;
    for (size_t d = 0; d < n; d++) {
        int t = fab->dev[d].tier;
        pos[fp__put_int(pos, lay->dev_u[d])] = '\0';
        const char *r[] = { fp__dev_name(fp__plan_names(plan), (int64_t)d), role_of(plan, t),
                            types[t].manufacturer, types[t].model, platform[t], "planned", site,
                            rack_names[lay->dev_rack[d]], pos, "front",
                            t == 0 ? server_tags : FP_NETBOX_COMPUTE_TAG };
        fp__csv_row(f, r, nets ? 11 : 10, 0);
        report(o, "netbox-devices.csv", d, n);
    }
    rc = fp__netbox_net_devices(f, plan, site, err);
    report(o, "netbox-devices.csv", n, n);
    free(rack_names);
    return fp__outbuf_close(f, path, rc, err);
}

/* A switch of tier t whose ports all run at one speed, split alike: its logical ports are
 * its interfaces, in order (the fast path: names from the name table). */
static int uniform_ports(const fp_fabric *fab, const fp_rspec *rs, int t)
{
    return t == 0 || (fab->size[t - 1].up_phys < 0 && rs->tier[t - 1].model.uplink_ports <= 0);
}

fp_status fp__write_netbox_interfaces(const fp_plan *plan, const char *path,
                                      const fp_write_options *o, fp_error *err)
{
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_names *nm = fp__plan_names(plan);
    fp_outbuf *f = NULL;
    fp_status rc;
    char port[FP_PORT_NAME_MAX], speed[FP_MAX_TIERS + 1][24];
    /* NIC ports at the NIC-leaf speed; a switch's ports at the speed below its tier, or, where
     * its sides differ (400G down, 800G up; an uplink group), each at its own. Kbps. */
    int ib = fp__fabric_infiniband(rs);
    const char *type[FP_MAX_TIERS + 1];
    for (int t = 0; t <= fab->tiers; t++) {
        int gbps = t == 0 ? rs->link_gbps : rs->tier[t - 1].gbps_down;
        speed[t][fp__put_int(speed[t], (int64_t)gbps * 1000000)] = '\0';
        type[t] = fp__netbox_interface_type(gbps, t == 0 ? rs->nic.cage : rs->tier[t - 1].model.cage, ib);
    }
    /* With spec `networks`, a last column tags: the network of the port. */
    const int nets = fp__plan_net_count(plan), lags = fp__netbox_lag_column(plan);
    if ((rc = fp__outbuf_open(&f, path, lags ? "device,name,type,speed,tags,lag\n"
                                             : nets ? "device,name,type,speed,tags\n"
                                                    : "device,name,type,speed\n", err)) != FP_OK)
        return rc;
    size_t n = (size_t)fab->n_dev;
    for (size_t d = 0; d < n; d++) {
        int t = fab->dev[d].tier;
        const char *dev = fp__dev_name(nm, (int64_t)d);
        size_t dev_len = fp__dev_name_len(nm, (int64_t)d);
        if (!uniform_ports(fab, rs, t)) {
            fp__netbox_switch_rows(f, dev, FP_NETBOX_COMPUTE_TAG, 4 + (nets > 0) + lags, rs,
                                   &fab->size[t - 1], t, ib);
            continue;
        }
        int ports = t == 0 ? rs->nics_per_server * rs->nic.ports : rs->tier[t - 1].radix;
        for (int p = 0; p < ports; p++) {
            fp__outbuf_put(f, dev, dev_len);
            fp__outbuf_char(f, ',');
            /* Port names never need quoting (fp__port_template_check refuses ',', '"', CR, LF). */
            size_t pl;
            const char *pt = fp__port_text(nm, fab, (int64_t)d, p, &pl);
            if (pt)
                fp__outbuf_put(f, pt, pl);
            else
                fp__outbuf_csv(f, fp__port_name(port, sizeof port, fab, rs, (int64_t)d, p));
            fp__outbuf_char(f, ',');
            fp__outbuf_str(f, type[t]);
            fp__outbuf_char(f, ',');
            fp__outbuf_str(f, speed[t]);
            if (nets)
                fp__outbuf_str(f, "," FP_NETBOX_COMPUTE_TAG);
            if (lags)
                fp__outbuf_char(f, ',');
            fp__outbuf_char(f, '\n');
        }
        report(o, "netbox-interfaces.csv", d, n);
    }
    fp__netbox_net_interfaces(f, plan);
    report(o, "netbox-interfaces.csv", n, n);
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
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_cabling *cab = fp__plan_cabling(plan);
    const fp_names *nm = fp__plan_names(plan);
    fp_outbuf *f = NULL;
    fp_status rc;
    size_t n = fp_plan_cable_count(plan);
    fp_num_memo length = { 0 };
    char label[40], ap[FP_PORT_NAME_MAX], zp[FP_PORT_NAME_MAX];
    /* With spec `networks`, a last column tags: the cable's network. */
    const int nets = fp__plan_net_count(plan);
    if ((rc = fp__outbuf_open(&f, path,
                              nets ? "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,"
                                     "side_b_name,type,status,label,color,length,length_unit,tags\n"
                                   : "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,"
                                     "side_b_name,type,status,label,color,length,length_unit\n",
                              err)) != FP_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        /* What fp_plan_cable gives for these columns (id, medium, stock length, links), read
         * from the cabling: this file needs none of its names or labels. */
        const fp_cable *cb = &cab->cable[i];
        const int32_t *cl = cab->cable_links + cb->first;
        char id[16];
        id[0] = 'C';
        size_t id_len = 1 + fp__put_uint_w(id + 1, (uint64_t)fp__link_number(fab, cl[0]), 7);
        id[id_len] = '\0';
        const char *type, *color;
        fp__netbox_cable_kind(cb->medium, cb->part >= 0 ? &rs->phys.parts[cb->part] : NULL,
                              &type, &color);
        const char *length_text = fp__memo_format(&length, "%.1f", (double)cb->stock_m, NULL);
        int links = cb->n_links < FP_MAX_LEGS ? cb->n_links : FP_MAX_LEGS;
        /* One NetBox cable per link: each ends on the two interfaces of its link. */
        for (int k = 0; k < links; k++) {
            const fp_link *l = &fab->link[cl[k]];
            memcpy(label, id, id_len);
            size_t lab_len = id_len;
            if (links > 1) {
                label[lab_len++] = '/';
                lab_len += fp__put_int(label + lab_len, k + 1);
            }
            label[lab_len] = '\0';
            size_t pl;
            const char *at = fp__port_text(nm, fab, l->a, l->a_port, &pl);
            const char *zt = fp__port_text(nm, fab, l->z, l->z_port, &pl);
            const char *r[] = { fp__dev_name(nm, l->a), "dcim.interface",
                                at ? at : fp__port_name(ap, sizeof ap, fab, rs, l->a, l->a_port),
                                fp__dev_name(nm, l->z), "dcim.interface",
                                zt ? zt : fp__port_name(zp, sizeof zp, fab, rs, l->z, l->z_port),
                                type, "planned", label, color, length_text,
                                "m", FP_NETBOX_COMPUTE_TAG };
            fp__csv_row(f, r, nets ? 13 : 12, 0);
        }
        report(o, "netbox-cables.csv", i, n);
    }
    rc = fp__netbox_net_cables(f, plan, err);
    report(o, "netbox-cables.csv", n, n);
    return fp__outbuf_close(f, path, rc, err);
}
