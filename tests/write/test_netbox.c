/* The NetBox import set checked against NetBox's own rules, and one name per port across every
 * output.
 *
 * The rules are NetBox 4.x's bulk import (netbox/dcim/forms/bulk_import.py and
 * netbox/dcim/choices.py in netbox-community/netbox): the columns each import form accepts and
 * requires, the choice values it accepts, that a row can only name objects imported before it
 * (site of a rack, rack and type of a device, device of an interface, interfaces of a cable), that
 * a device fits its rack's units without overlapping another (a full-depth device takes both
 * faces), and that an interface ends at most one cable (CableImportForm: "is already
 * connected"). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <unistd.h>
#include "helpers.h"
#include "xlsx_read.h"
#include "write/writers.h"

/* ---- a sorted set of strings ---- */

typedef struct strset {
    char **s;
    long n, cap;
} strset;

static void set_add(strset *t, const char *a, const char *b)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1024;
        t->s = realloc(t->s, (size_t)t->cap * sizeof *t->s);
    }
    size_t la = strlen(a), lb = b ? strlen(b) : 0;
    char *k = malloc(la + lb + 2);
    memcpy(k, a, la);
    k[la] = '\t';
    if (b)
        memcpy(k + la + 1, b, lb);
    k[la + 1 + lb] = '\0';
    t->s[t->n++] = k;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Sort; returns the first duplicate key or NULL. */
static const char *set_seal(strset *t)
{
    if (t->n == 0)
        return NULL;            /* an empty set has no array: qsort's base must not be NULL */
    qsort(t->s, (size_t)t->n, sizeof *t->s, cmp_str);
    for (long i = 1; i < t->n; i++)
        if (strcmp(t->s[i - 1], t->s[i]) == 0)
            return t->s[i];
    return NULL;
}

static int set_has(const strset *t, const char *a, const char *b)
{
    char key[512];
    snprintf(key, sizeof key, "%s\t%s", a, b ? b : "");
    const char *k = key;
    return t->n > 0 && bsearch(&k, t->s, (size_t)t->n, sizeof *t->s, cmp_str) != NULL;
}

/* The third field of the entry "a\tb\t<value>" of a sealed set, or NULL. */
static const char *set_value(const strset *t, const char *a, const char *b)
{
    char key[512];
    int n = snprintf(key, sizeof key, "%s\t%s\t", a, b);
    long lo = 0, hi = t->n;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        int c = strncmp(t->s[mid], key, (size_t)n);
        if (c == 0)
            return t->s[mid] + n;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void set_free(strset *t)
{
    for (long i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    memset(t, 0, sizeof *t);
}

static int one_of(const char *v, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(v, *list) == 0)
            return 1;
    return 0;
}

/* ---- NetBox's rules ---- */

/* Columns a form accepts (Meta.fields) and the ones it requires, per file. */
typedef struct form {
    const char *file;
    const char *const *accepted, *const *required;
} form;

static const char *const site_cols[] = { "name", "slug", "status", "region", "group", "tenant",
    "facility", "time_zone", "description", "physical_address", "shipping_address", "latitude",
    "longitude", "owner", "comments", "tags", NULL };
static const char *const site_req[] = { "name", "slug", "status", NULL };
static const char *const manuf_cols[] = { "name", "slug", "description", "owner", "comments",
    "tags", NULL };
static const char *const manuf_req[] = { "name", "slug", NULL };
static const char *const role_cols[] = { "name", "slug", "parent", "color", "vm_role",
    "config_template", "description", "owner", "comments", "tags", NULL };
static const char *const role_req[] = { "name", "slug", NULL };
static const char *const type_cols[] = { "manufacturer", "default_platform", "model", "slug",
    "part_number", "u_height", "exclude_from_utilization", "is_full_depth", "subdevice_role",
    "airflow", "description", "weight", "weight_unit", "comments", "tags", NULL };
static const char *const type_req[] = { "manufacturer", "model", "slug", NULL };
static const char *const rack_cols[] = { "site", "location", "group", "name", "facility_id",
    "tenant", "status", "role", "rack_type", "form_factor", "serial", "asset_tag", "width",
    "u_height", "desc_units", "outer_width", "outer_depth", "outer_unit", "mounting_depth",
    "weight", "max_weight", "weight_unit", "description", "comments", "tags", NULL };
/* width and u_height are required when no rack_type is given (RackImportForm.clean). */
static const char *const rack_req[] = { "site", "name", "status", "width", "u_height", NULL };
static const char *const dev_cols[] = { "name", "role", "tenant", "manufacturer", "device_type",
    "platform", "serial", "asset_tag", "status", "site", "location", "rack", "position", "face",
    "latitude", "longitude", "parent", "device_bay", "airflow", "virtual_chassis", "vc_position",
    "vc_priority", "cluster", "description", "config_template", "comments", "tags", NULL };
static const char *const dev_req[] = { "role", "manufacturer", "device_type", "status", "site",
    NULL };
static const char *const if_cols[] = { "device", "name", "label", "parent", "bridge", "lag",
    "type", "speed", "duplex", "enabled", "mark_connected", "mac_address", "wwn", "vdcs", "mtu",
    "mgmt_only", "description", "mode", "vrf", "tags", NULL };
static const char *const if_req[] = { "device", "name", "type", NULL };
static const char *const cable_cols[] = { "side_a_site", "side_a_device", "side_a_type",
    "side_a_name", "side_b_site", "side_b_device", "side_b_type", "side_b_name", "type", "status",
    "tenant", "label", "color", "length", "length_unit", "description", "comments", "tags", NULL };
static const char *const cable_req[] = { "side_a_device", "side_a_type", "side_a_name",
    "side_b_device", "side_b_type", "side_b_name", NULL };
/* extras TagImportForm (name, slug, color, description; later 4.x releases add weight and
 * object_types). */
static const char *const tag_cols[] = { "name", "slug", "color", "description", "weight",
    "object_types", NULL };
static const char *const tag_req[] = { "name", "slug", NULL };

/* The objects around the devices (write_netbox_dcim.c): LocationImportForm,
 * PlatformImportForm, ModuleTypeImportForm, ModuleBayImportForm, ModuleImportForm,
 * PowerPortImportForm, PowerPanelImportForm, PowerFeedImportForm (Meta.fields of 3.6.0 to 4.6;
 * owner, profile, attribute_data, enabled arrived in 4.3-4.5 and are not used). Required: the
 * form fields without required=False and the model fields without blank=True. */
static const char *const loc_cols[] = { "site", "parent", "name", "slug", "status", "tenant",
    "facility", "description", "owner", "comments", "tags", NULL };
static const char *const loc_req[] = { "site", "name", "slug", "status", NULL };
static const char *const plat_cols[] = { "name", "slug", "parent", "manufacturer",
    "config_template", "description", "owner", "comments", "tags", NULL };
static const char *const plat_req[] = { "name", "slug", NULL };
static const char *const mtype_cols[] = { "manufacturer", "model", "part_number", "description",
    "airflow", "weight", "weight_unit", "profile", "attribute_data", "owner", "comments", "tags",
    NULL };
static const char *const mtype_req[] = { "manufacturer", "model", NULL };
static const char *const bay_cols[] = { "device", "name", "label", "position", "enabled",
    "description", "owner", "tags", NULL };
static const char *const bay_req[] = { "device", "name", NULL };
static const char *const mod_cols[] = { "device", "module_bay", "module_type", "serial",
    "asset_tag", "status", "description", "owner", "comments", "replicate_components",
    "adopt_components", "tags", NULL };
static const char *const mod_req[] = { "device", "module_bay", "module_type", "status", NULL };
static const char *const pport_cols[] = { "device", "name", "label", "type", "mark_connected",
    "maximum_draw", "allocated_draw", "description", "owner", "tags", NULL };
static const char *const pport_req[] = { "device", "name", NULL };
static const char *const panel_cols[] = { "site", "location", "name", "description", "owner",
    "comments", "tags", NULL };
static const char *const panel_req[] = { "site", "name", NULL };
static const char *const feed_cols[] = { "site", "power_panel", "location", "rack", "name",
    "status", "type", "mark_connected", "supply", "phase", "voltage", "amperage",
    "max_utilization", "tenant", "description", "owner", "comments", "tags", NULL };
static const char *const feed_req[] = { "site", "power_panel", "name", "status", "type", "supply",
    "phase", "voltage", "amperage", "max_utilization", NULL };

/* Import order: each file names only objects of the files before it. */
static const form forms[] = {
    { "netbox-sites.csv", site_cols, site_req },
    { "netbox-manufacturers.csv", manuf_cols, manuf_req },
    { "netbox-device-roles.csv", role_cols, role_req },
    { "netbox-device-types.csv", type_cols, type_req },
    { "netbox-racks.csv", rack_cols, rack_req },
    { "netbox-devices.csv", dev_cols, dev_req },
    { "netbox-interfaces.csv", if_cols, if_req },
    { "netbox-cables.csv", cable_cols, cable_req },
    /* Imported between the files above (docs/outputs.md): locations after the sites, platforms
     * after the roles, module types after the device types, power panels and feeds after the
     * racks, power ports after the devices, module bays and modules after the interfaces. */
    { "netbox-locations.csv", loc_cols, loc_req },
    { "netbox-platforms.csv", plat_cols, plat_req },
    { "netbox-module-types.csv", mtype_cols, mtype_req },
    { "netbox-module-bays.csv", bay_cols, bay_req },
    { "netbox-modules.csv", mod_cols, mod_req },
    { "netbox-power-ports.csv", pport_cols, pport_req },
    { "netbox-power-panels.csv", panel_cols, panel_req },
    { "netbox-power-feeds.csv", feed_cols, feed_req },
    /* With spec `networks` only, imported first (extras before dcim); last here so the
     * files above keep their indexes. */
    { "netbox-tags.csv", tag_cols, tag_req },
};
#define N_FORMS (sizeof forms / sizeof forms[0])
#define TAGS_FORM (N_FORMS - 1)
enum { F_LOC = 8, F_PLAT, F_MTYPE, F_BAY, F_MOD, F_PPORT, F_PANEL, F_FEED };

/* Choice values (dcim/choices.py). */
static const char *const site_status[] = { "planned", "staging", "active", "decommissioning",
                                           "retired", NULL };
static const char *const rack_status[] = { "reserved", "available", "planned", "active",
                                           "deprecated", NULL };
static const char *const rack_width[] = { "10", "19", "21", "23", NULL };
static const char *const dev_status[] = { "offline", "active", "planned", "staged", "failed",
                                          "inventory", "decommissioning", NULL };
static const char *const faces[] = { "front", "rear", NULL };
/* InterfaceTypeChoices: the pluggable-transceiver, InfiniBand and "other" values. */
static const char *const if_types[] = { "lag", "100gbase-x-qsfp28", "100gbase-x-qsfpdd",
    "200gbase-x-qsfp56", "200gbase-x-qsfpdd", "400gbase-x-qsfp112", "400gbase-x-qsfpdd",
    "400gbase-x-osfp", "400gbase-x-osfp-rhs", "400gbase-x-cdfp", "400gbase-x-cfp8",
    "800gbase-x-qsfpdd", "800gbase-x-osfp", "1000base-t", "10gbase-t", "25gbase-x-sfp28",
    "infiniband-sdr", "infiniband-ddr", "infiniband-qdr",
    "infiniband-fdr10", "infiniband-fdr", "infiniband-edr", "infiniband-hdr", "infiniband-ndr",
    "infiniband-xdr", "other", NULL };
static const char *const cable_types[] = { "cat3", "cat5", "cat5e", "cat6", "cat6a", "cat7",
    "cat7a", "cat8", "dac-active", "dac-passive", "mrj21-trunk", "coaxial", "mmf", "mmf-om1",
    "mmf-om2", "mmf-om3", "mmf-om4", "mmf-om5", "smf", "smf-os1", "smf-os2", "aoc", "power",
    NULL };
static const char *const link_status[] = { "connected", "planned", "decommissioning", NULL };
static const char *const length_units[] = { "km", "m", "cm", "mi", "ft", "in", NULL };
static const char *const loc_status[] = { "planned", "staging", "active", "decommissioning",
                                          "retired", NULL };
static const char *const mod_status[] = { "offline", "active", "planned", "staged", "failed",
                                          "decommissioning", NULL };
static const char *const feed_status[] = { "offline", "active", "planned", "failed", NULL };
static const char *const feed_type[] = { "primary", "redundant", NULL };
static const char *const feed_supply[] = { "ac", "dc", NULL };
static const char *const feed_phase[] = { "single-phase", "three-phase", NULL };
static const char *const booleans[] = { "true", "false", NULL };
/* ContentType of a cable termination on a device interface. */
static const char *const term_types[] = { "dcim.interface", NULL };

static void write_set(const fp_plan *p, char *dir, size_t n, unsigned formats)
{
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = formats;
    scratch_dir(dir, n, "netbox");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s (%s)", err.msg, err.where);
}

/* One loaded file: header columns, and the column index of a name. */
typedef struct table {
    csv_file f;
    char *col[32];
    int ncol;
} table;

static table load_table(const char *dir, const form *fm)
{
    table t;
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, fm->file);
    t.f = csv_load(path);
    static char head[N_FORMS][1024];
    size_t i = (size_t)(fm - forms);
    /* A plan may have no transceiver (all copper), no platform (generic switches). */
    if (i != F_MTYPE && i != F_BAY && i != F_MOD && i != F_PLAT)
        cr_assert_gt(t.f.n, 1, "%s: no rows", fm->file);
    snprintf(head[i], sizeof head[i], "%s", t.f.line[0]);
    t.ncol = csv_split(head[i], t.col, 32);
    for (int c = 0; c < t.ncol; c++)
        cr_expect(one_of(t.col[c], fm->accepted), "%s: NetBox's import form has no column \"%s\"",
                  fm->file, t.col[c]);
    for (const char *const *r = fm->required; *r; r++) {
        int found = 0;
        for (int c = 0; c < t.ncol; c++)
            found |= strcmp(t.col[c], *r) == 0;
        cr_expect(found, "%s: required column \"%s\" missing", fm->file, *r);
    }
    return t;
}

static int col(const table *t, const char *name)
{
    for (int c = 0; c < t->ncol; c++)
        if (strcmp(t->col[c], name) == 0)
            return c;
    cr_assert_fail("no column %s", name);
    return -1;
}

static int is_slug(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_'))
            return 0;
    return 1;
}

static int is_color(const char *s)
{
    if (strlen(s) != 6)
        return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return 0;
    return 1;
}

typedef struct placed {
    char rack[32];
    int lo, hi;
} placed;

static int cmp_placed(const void *x, const void *y)
{
    const placed *a = x, *b = y;
    int k = strcmp(a->rack, b->rack);
    return k ? k : a->lo - b->lo;
}

/* Per tag (network) of a set with spec `networks`: switches (devices tagged with it alone whose
 * role is "<tag>-<tier>"), devices and cable rows. */
typedef struct net_counts {
    int n;
    char tag[10][40];
    long switches[10], devices[10], cables[10];
} net_counts;

/* Every tag slug of a `tags` value ("storage" or "compute,storage,oob") is a listed tag; counts
 * the row under its tag when it names one. Returns the index of a single tag, else -1. */
static int check_tags(const char *value, const strset *tags, const net_counts *nc)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", value);
    int single = strchr(buf, ',') == NULL;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        cr_expect(set_has(tags, tok, NULL), "tag %s is not in netbox-tags.csv", tok);
    if (single && nc)
        for (int i = 0; i < nc->n; i++)
            if (strcmp(nc->tag[i], value) == 0)
                return i;
    return -1;
}

/* Modules and power ports of the set last checked. */
static long g_modules, g_power_ports, g_lags, g_lag_members;

/* Check the whole set of plan p; returns the number of cables rows (for the caller's counts).
 * nc: when not NULL, the set must carry networks (netbox-tags.csv and the tags columns) and
 * their counts are filled in. */
static long check_netbox_counts(const fp_plan *p, net_counts *nc)
{
    char dir[64], path[128];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    snprintf(path, sizeof path, "%s/netbox-tags.csv", dir);
    int has_tags = access(path, F_OK) == 0;
    cr_assert_eq(has_tags, nc != NULL, "netbox-tags.csv %s", has_tags ? "written without networks" : "missing");
    /* The power panels and feeds are written when the spec gives a rack power limit. */
    fp_power_domains pd;
    fp_plan_power_domains(p, &pd);
    int has_power = pd.rack_limit_w > 0;
    table t[N_FORMS];
    for (size_t i = 0; i < N_FORMS; i++) {
        int absent = (i == TAGS_FORM && !has_tags) || ((i == F_PANEL || i == F_FEED) && !has_power);
        snprintf(path, sizeof path, "%s/%s", dir, forms[i].file);
        cr_expect_eq(access(path, F_OK) == 0, !absent, "%s %s", forms[i].file,
                     absent ? "written" : "missing");
        if (!absent)
            t[i] = load_table(dir, &forms[i]);
    }
    int has_lag = 0, has_mgmt = 0;
    for (int c = 0; c < t[6].ncol; c++) {
        has_lag |= strcmp(t[6].col[c], "lag") == 0;
        has_mgmt |= strcmp(t[6].col[c], "mgmt_only") == 0;
    }
    g_lags = g_lag_members = 0;
    strset lag_rows = { 0 }, lag_members = { 0 };
    strset locs = { 0 }, rack_loc = { 0 }, plats = { 0 }, mtypes = { 0 }, bays = { 0 },
           filled = { 0 }, pported = { 0 }, panels = { 0 };
    strset sites = { 0 }, manufs = { 0 }, roles = { 0 }, types = { 0 }, racks = { 0 },
           devices = { 0 }, ifaces = { 0 }, ends = { 0 }, tags = { 0 }, speeds = { 0 };
    if (nc)
        memset(nc, 0, sizeof *nc);
    for (long i = 1; has_tags && i < t[TAGS_FORM].f.n; i++) {
        char *g[8];
        cr_assert_eq(csv_split(t[TAGS_FORM].f.line[i], g, 8), t[TAGS_FORM].ncol);
        const char *slug = g[col(&t[TAGS_FORM], "slug")];
        cr_expect(is_slug(slug));
        cr_expect(is_color(g[col(&t[TAGS_FORM], "color")]));
        set_add(&tags, slug, NULL);
        cr_assert_lt(nc->n, 10);
        snprintf(nc->tag[nc->n++], sizeof nc->tag[0], "%s", slug);
    }
    cr_expect_null(set_seal(&tags), "a tag twice");
    char *f[32];
    int type_u[64] = { 0 };
    char type_key[64][200];
    int n_types = 0, rack_u = 0;

    for (long i = 1; i < t[0].f.n; i++) {
        cr_assert_eq(csv_split(t[0].f.line[i], f, 32), t[0].ncol);
        cr_expect(is_slug(f[col(&t[0], "slug")]));
        cr_expect(one_of(f[col(&t[0], "status")], site_status), "site status %s", f[col(&t[0], "status")]);
        set_add(&sites, f[col(&t[0], "name")], NULL);
    }
    cr_expect_null(set_seal(&sites), "a site twice");
    /* Locations: a hall (no parent) or a row whose parent is a hall listed above it; NetBox
     * finds a location by name alone (CSVModelChoiceField to_field_name='name'), so every name
     * is unique. */
    for (long i = 1; i < t[F_LOC].f.n; i++) {
        cr_assert_eq(csv_split(t[F_LOC].f.line[i], f, 32), t[F_LOC].ncol);
        const char *parent = f[col(&t[F_LOC], "parent")];
        cr_expect(set_has(&sites, f[col(&t[F_LOC], "site")], NULL), "location in unknown site");
        cr_expect(is_slug(f[col(&t[F_LOC], "slug")]));
        cr_expect(one_of(f[col(&t[F_LOC], "status")], loc_status));
        int found = parent[0] == '\0';
        for (long k = 0; k < locs.n && !found; k++)
            found = strncmp(locs.s[k], parent, strlen(parent)) == 0 && locs.s[k][strlen(parent)] == '\t';
        cr_expect(found, "location %s: parent %s not listed before it", f[col(&t[F_LOC], "name")], parent);
        set_add(&locs, f[col(&t[F_LOC], "name")], NULL);
    }
    const char *dupl = set_seal(&locs);
    cr_expect_null(dupl, "location %s twice", dupl);
    for (long i = 1; i < t[1].f.n; i++) {
        cr_assert_eq(csv_split(t[1].f.line[i], f, 32), t[1].ncol);
        cr_expect(is_slug(f[col(&t[1], "slug")]));
        set_add(&manufs, f[col(&t[1], "name")], NULL);
    }
    cr_expect_null(set_seal(&manufs), "a manufacturer twice");
    for (long i = 1; i < t[2].f.n; i++) {
        cr_assert_eq(csv_split(t[2].f.line[i], f, 32), t[2].ncol);
        cr_expect(is_slug(f[col(&t[2], "slug")]));
        cr_expect(is_color(f[col(&t[2], "color")]));
        set_add(&roles, f[col(&t[2], "name")], NULL);
    }
    cr_expect_null(set_seal(&roles), "a role twice");
    for (long i = 1; i < t[F_PLAT].f.n; i++) {
        cr_assert_eq(csv_split(t[F_PLAT].f.line[i], f, 32), t[F_PLAT].ncol);
        cr_expect(is_slug(f[col(&t[F_PLAT], "slug")]));
        set_add(&plats, f[col(&t[F_PLAT], "name")], NULL);
    }
    cr_expect_null(set_seal(&plats), "a platform twice");
    for (long i = 1; i < t[3].f.n; i++) {
        cr_assert_eq(csv_split(t[3].f.line[i], f, 32), t[3].ncol);
        const char *m = f[col(&t[3], "manufacturer")];
        cr_expect(set_has(&manufs, m, NULL), "device type of unknown manufacturer %s", m);
        cr_expect(is_slug(f[col(&t[3], "slug")]));
        cr_assert_lt(n_types, 64);
        snprintf(type_key[n_types], sizeof type_key[0], "%s\t%s", m, f[col(&t[3], "model")]);
        type_u[n_types++] = atoi(f[col(&t[3], "u_height")]);
        set_add(&types, m, f[col(&t[3], "model")]);
    }
    cr_expect_null(set_seal(&types), "a device type twice");
    /* Module types: NetBox's ModuleImportForm finds one by model alone, so each model once. */
    for (long i = 1; i < t[F_MTYPE].f.n; i++) {
        cr_assert_eq(csv_split(t[F_MTYPE].f.line[i], f, 32), t[F_MTYPE].ncol);
        cr_expect(set_has(&manufs, f[col(&t[F_MTYPE], "manufacturer")], NULL),
                  "module type of unknown manufacturer %s", f[col(&t[F_MTYPE], "manufacturer")]);
        set_add(&mtypes, f[col(&t[F_MTYPE], "model")], NULL);
    }
    cr_expect_null(set_seal(&mtypes), "a module type twice");
    for (long i = 1; i < t[4].f.n; i++) {
        cr_assert_eq(csv_split(t[4].f.line[i], f, 32), t[4].ncol);
        cr_expect(set_has(&sites, f[col(&t[4], "site")], NULL), "rack in unknown site");
        cr_expect(one_of(f[col(&t[4], "status")], rack_status));
        cr_expect(one_of(f[col(&t[4], "width")], rack_width));
        rack_u = atoi(f[col(&t[4], "u_height")]);
        cr_expect(rack_u >= 1 && rack_u <= 100);
        const char *loc = f[col(&t[4], "location")];
        cr_expect(set_has(&locs, loc, NULL), "rack %s in unknown location %s", f[col(&t[4], "name")], loc);
        set_add(&rack_loc, f[col(&t[4], "name")], loc);
        set_add(&racks, f[col(&t[4], "name")], NULL);
    }
    cr_expect_null(set_seal(&racks), "a rack twice");
    set_seal(&rack_loc);
    /* Power panels (in a listed location) and feeds (from a listed panel to a listed rack in
     * the location given: PowerFeedImportForm limits the rack to it). */
    for (long i = 1; has_power && i < t[F_PANEL].f.n; i++) {
        cr_assert_eq(csv_split(t[F_PANEL].f.line[i], f, 32), t[F_PANEL].ncol);
        cr_expect(set_has(&sites, f[col(&t[F_PANEL], "site")], NULL));
        cr_expect(set_has(&locs, f[col(&t[F_PANEL], "location")], NULL));
        set_add(&panels, f[col(&t[F_PANEL], "name")], NULL);
    }
    cr_expect_null(set_seal(&panels), "a power panel twice");
    for (long i = 1; has_power && i < t[F_FEED].f.n; i++) {
        cr_assert_eq(csv_split(t[F_FEED].f.line[i], f, 32), t[F_FEED].ncol);
        const table *ft = &t[F_FEED];
        cr_expect(set_has(&sites, f[col(ft, "site")], NULL));
        cr_expect(set_has(&panels, f[col(ft, "power_panel")], NULL), "feed from unknown panel");
        cr_expect(set_has(&rack_loc, f[col(ft, "rack")], f[col(ft, "location")]),
                  "feed to rack %s not in location %s", f[col(ft, "rack")], f[col(ft, "location")]);
        cr_expect(one_of(f[col(ft, "status")], feed_status));
        cr_expect(one_of(f[col(ft, "type")], feed_type));
        cr_expect(one_of(f[col(ft, "supply")], feed_supply));
        cr_expect(one_of(f[col(ft, "phase")], feed_phase));
        int v = atoi(f[col(ft, "voltage")]), a = atoi(f[col(ft, "amperage")]),
            u = atoi(f[col(ft, "max_utilization")]);
        cr_expect(v > 0 && a > 0 && u >= 1 && u <= 100);
        /* NetBox's available power (PowerFeed.save: V x A x sqrt 3 x utilisation for three
         * phase) carries the spec's rack limit. */
        cr_expect_geq(v * a * 1.7320508 * u / 100, pd.rack_limit_w);
    }
    long nd = t[5].f.n - 1;
    placed *pl = calloc((size_t)nd, sizeof *pl);
    for (long i = 1; i < t[5].f.n; i++) {
        cr_assert_eq(csv_split(t[5].f.line[i], f, 32), t[5].ncol);
        const char *rack = f[col(&t[5], "rack")], *m = f[col(&t[5], "manufacturer")],
                   *model = f[col(&t[5], "device_type")];
        cr_expect(set_has(&roles, f[col(&t[5], "role")], NULL), "unknown role");
        cr_expect(set_has(&sites, f[col(&t[5], "site")], NULL), "device in unknown site");
        cr_expect(set_has(&racks, rack, NULL), "device %s in unknown rack %s", f[0], rack);
        cr_expect(set_has(&types, m, model), "device %s of unknown type %s %s", f[0], m, model);
        cr_expect(one_of(f[col(&t[5], "status")], dev_status));
        const char *plat = f[col(&t[5], "platform")];
        cr_expect(plat[0] == '\0' || set_has(&plats, plat, NULL), "device %s: unknown platform %s", f[0], plat);
        char key[200];
        snprintf(key, sizeof key, "%s\t%s", m, model);
        int u = -1;
        for (int k = 0; k < n_types; k++)
            if (strcmp(type_key[k], key) == 0)
                u = type_u[k];
        cr_expect_geq(u, 0, "%s: no height for its type", f[0]);
        if (u == 0) {
            /* Device.clean: a 0U device type cannot take a rack position (nor a face). */
            cr_expect_str_empty(f[col(&t[5], "position")], "%s is 0U but has a position", f[0]);
            cr_expect_str_empty(f[col(&t[5], "face")]);
            snprintf(pl[i - 1].rack, sizeof pl[i - 1].rack, "~0U %ld", i);
        } else {
            cr_expect(one_of(f[col(&t[5], "face")], faces));
            int pos = atoi(f[col(&t[5], "position")]);
            cr_expect(pos >= 1 && pos + u - 1 <= rack_u, "%s at U%d (%dU) outside a %dU rack",
                      f[0], pos, u, rack_u);
            snprintf(pl[i - 1].rack, sizeof pl[i - 1].rack, "%s", rack);
            pl[i - 1].lo = pos;
            pl[i - 1].hi = pos + u - 1;
        }
        if (has_tags) {
            int k = check_tags(f[col(&t[5], "tags")], &tags, nc);
            if (k >= 0) {
                nc->devices[k]++;
                size_t tl = strlen(nc->tag[k]);
                const char *role = f[col(&t[5], "role")];
                nc->switches[k] += strncmp(role, nc->tag[k], tl) == 0 && role[tl] == '-';
            }
        }
        set_add(&devices, f[col(&t[5], "name")], NULL);
    }
    qsort(pl, (size_t)nd, sizeof *pl, cmp_placed);
    for (long i = 1; i < nd; i++)
        if (strcmp(pl[i].rack, pl[i - 1].rack) == 0)
            cr_expect_gt(pl[i].lo, pl[i - 1].hi, "%s: devices overlap at U%d", pl[i].rack, pl[i].lo);
    free(pl);
    const char *dup = set_seal(&devices);
    cr_expect_null(dup, "device name %s twice", dup);
    /* Power ports: on listed devices, every device one, draws whole watts >= 1 with the
     * allocated draw at most the maximum (PowerPort.clean). */
    for (long i = 1; i < t[F_PPORT].f.n; i++) {
        cr_assert_eq(csv_split(t[F_PPORT].f.line[i], f, 32), t[F_PPORT].ncol);
        const char *d = f[col(&t[F_PPORT], "device")];
        cr_expect(set_has(&devices, d, NULL), "power port on unknown device %s", d);
        const char *mx = f[col(&t[F_PPORT], "maximum_draw")], *al = f[col(&t[F_PPORT], "allocated_draw")];
        cr_expect(mx[0] == '\0' || (strspn(mx, "0123456789") == strlen(mx) && atol(mx) >= 1));
        cr_expect(al[0] == '\0' || (strspn(al, "0123456789") == strlen(al) && atol(al) >= 1));
        cr_expect(al[0] == '\0' || (mx[0] && atol(al) <= atol(mx)), "%s: allocated %s > maximum %s", d, al, mx);
        set_add(&pported, d, NULL);
    }
    dup = set_seal(&pported);
    cr_expect_null(dup, "device %s has two power ports", dup);
    cr_expect_eq(pported.n, devices.n, "%ld power ports for %ld devices", pported.n, devices.n);
    g_power_ports = pported.n;
    for (long i = 1; i < t[6].f.n; i++) {
        cr_assert_eq(csv_split(t[6].f.line[i], f, 32), t[6].ncol);
        const char *d = f[col(&t[6], "device")];
        cr_expect(set_has(&devices, d, NULL), "interface on unknown device %s", d);
        cr_expect(one_of(f[col(&t[6], "type")], if_types), "interface type %s", f[col(&t[6], "type")]);
        cr_expect(atol(f[col(&t[6], "speed")]) > 0 || strcmp(f[col(&t[6], "type")], "lag") == 0);
        if (has_tags)
            check_tags(f[col(&t[6], "tags")], &tags, NULL);
        /* mgmt_only: the model's BooleanField, read by Django's forms.BooleanField (true/false). */
        if (has_mgmt)
            cr_expect(one_of(f[col(&t[6], "mgmt_only")], booleans), "mgmt_only %s", f[col(&t[6], "mgmt_only")]);
        /* A LAG's members name it (InterfaceImportForm `lag`: an interface of type lag on the
         * same device, imported before them). */
        if (has_lag) {
            const char *lag = f[col(&t[6], "lag")];
            char row[300];
            if (strcmp(f[col(&t[6], "type")], "lag") == 0) {
                snprintf(row, sizeof row, "%s\t%ld", f[col(&t[6], "name")], i);
                set_add(&lag_rows, d, row);
                g_lags++;
            } else if (lag[0]) {
                snprintf(row, sizeof row, "%s\t%ld", lag, i);
                set_add(&lag_members, d, row);
            }
        }
        set_add(&ifaces, d, f[col(&t[6], "name")]);
        char nv[256];
        snprintf(nv, sizeof nv, "%s\t%s", f[col(&t[6], "name")], f[col(&t[6], "speed")]);
        set_add(&speeds, d, nv);
    }
    dup = set_seal(&ifaces);
    cr_expect_null(dup, "interface %s listed twice", dup);
    set_seal(&lag_rows);
    for (long i = 0; i < lag_members.n; i++) {
        char dev[200], lag[100];
        long row = 0;
        cr_assert_eq(sscanf(lag_members.s[i], "%199[^\t]\t%99[^\t]\t%ld", dev, lag, &row), 3);
        const char *at = set_value(&lag_rows, dev, lag);
        cr_expect(at && atol(at) < row, "%s: member of LAG %s, not a LAG listed before it", dev, lag);
        g_lag_members++;
    }
    /* Module bays on listed devices, one name once per device; a module in a listed bay of its
     * device (ModuleImportForm limits the bay to the device), of a listed type, one per bay. */
    for (long i = 1; i < t[F_BAY].f.n; i++) {
        cr_assert_eq(csv_split(t[F_BAY].f.line[i], f, 32), t[F_BAY].ncol);
        const char *d = f[col(&t[F_BAY], "device")];
        cr_expect(set_has(&devices, d, NULL), "module bay on unknown device %s", d);
        set_add(&bays, d, f[col(&t[F_BAY], "name")]);
    }
    dup = set_seal(&bays);
    cr_expect_null(dup, "module bay %s twice", dup);
    for (long i = 1; i < t[F_MOD].f.n; i++) {
        cr_assert_eq(csv_split(t[F_MOD].f.line[i], f, 32), t[F_MOD].ncol);
        const char *d = f[col(&t[F_MOD], "device")], *b = f[col(&t[F_MOD], "module_bay")];
        cr_expect(set_has(&bays, d, b), "module in unknown bay %s %s", d, b);
        cr_expect(set_has(&mtypes, f[col(&t[F_MOD], "module_type")], NULL));
        cr_expect(one_of(f[col(&t[F_MOD], "status")], mod_status));
        set_add(&filled, d, b);
    }
    dup = set_seal(&filled);
    cr_expect_null(dup, "two modules in bay %s", dup);
    g_modules = filled.n;
    set_seal(&speeds);
    for (long i = 1; i < t[7].f.n; i++) {
        cr_assert_eq(csv_split(t[7].f.line[i], f, 32), t[7].ncol);
        for (int side = 0; side < 2; side++) {
            char c_dev[16], c_type[16], c_name[16];
            snprintf(c_dev, sizeof c_dev, "side_%c_device", 'a' + side);
            snprintf(c_type, sizeof c_type, "side_%c_type", 'a' + side);
            snprintf(c_name, sizeof c_name, "side_%c_name", 'a' + side);
            const char *d = f[col(&t[7], c_dev)], *n = f[col(&t[7], c_name)];
            cr_expect(one_of(f[col(&t[7], c_type)], term_types));
            cr_expect(set_has(&ifaces, d, n), "cable row %ld ends on %s %s, not a listed interface",
                      i + 1, d, n);
            set_add(&ends, d, n);
        }
        /* A cable joins two interfaces of one speed. */
        const char *sa = set_value(&speeds, f[col(&t[7], "side_a_device")], f[col(&t[7], "side_a_name")]);
        const char *sb = set_value(&speeds, f[col(&t[7], "side_b_device")], f[col(&t[7], "side_b_name")]);
        cr_expect(sa && sb && strcmp(sa, sb) == 0, "cable row %ld: %s %s at %s, %s %s at %s", i + 1,
                  f[col(&t[7], "side_a_device")], f[col(&t[7], "side_a_name")], sa ? sa : "?",
                  f[col(&t[7], "side_b_device")], f[col(&t[7], "side_b_name")], sb ? sb : "?");
        cr_expect(one_of(f[col(&t[7], "type")], cable_types));
        cr_expect(one_of(f[col(&t[7], "status")], link_status));
        cr_expect(one_of(f[col(&t[7], "length_unit")], length_units));
        cr_expect(is_color(f[col(&t[7], "color")]));
        cr_expect_gt(strtod(f[col(&t[7], "length")], NULL), 0);
        if (has_tags) {
            int k = check_tags(f[col(&t[7], "tags")], &tags, nc);
            cr_expect_geq(k, 0, "cable row %ld has no single network tag", i + 1);
            if (k >= 0)
                nc->cables[k]++;
        }
    }
    dup = set_seal(&ends);
    cr_expect_null(dup, "interface %s ends two cables", dup);
    long cables = t[7].f.n - 1;
    for (size_t i = 0; i < N_FORMS; i++)
        if ((i != TAGS_FORM || has_tags) && ((i != F_PANEL && i != F_FEED) || has_power))
            csv_free(&t[i].f);
    set_free(&tags);
    set_free(&sites);
    set_free(&manufs);
    set_free(&roles);
    set_free(&types);
    set_free(&racks);
    set_free(&devices);
    set_free(&ifaces);
    set_free(&ends);
    set_free(&speeds);
    set_free(&lag_rows);
    set_free(&lag_members);
    set_free(&locs);
    set_free(&rack_loc);
    set_free(&plats);
    set_free(&mtypes);
    set_free(&bays);
    set_free(&filled);
    set_free(&pported);
    set_free(&panels);
    return cables;
}

static long check_netbox(const fp_plan *p)
{
    return check_netbox_counts(p, NULL);
}

/* Cables carrying several links in plan p (splitter legs, twin-port copper). */
static long multi_link_cables(const fp_plan *p, long *splitters)
{
    long n = 0;
    *splitters = 0;
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        n += c.n_links > 1;
        *splitters += c.n_z > 1;
    }
    return n;
}

/* The default plan: QM9700 leaves with splitter cables from twin-port cages to NICs. One NetBox
 * cable per link, so the cables file has exactly fp_plan_link_count rows. */
Test(netbox, default_plan_follows_netbox_rules)
{
    fp_plan *p = plan_from("{}");
    long splitters;
    cr_assert_gt(multi_link_cables(p, &splitters), 0);
    cr_assert_gt(splitters, 0, "the default plan should have splitter cables");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(check_netbox(p), s.links);
    fp_plan_free(p);
}

/* Two planes of 51.2T switches behind dual-port NICs (examples/specs/dual-plane.json, smaller). */
Test(netbox, dual_plane_plan_follows_netbox_rules)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":1024,\"nic\":\"generic-nic-2x400\"},"
                           "\"fabric\":{\"topology\":\"rail-optimized\",\"switch\":\"generic-th5-osfp\","
                           "\"planes\":2,\"su_servers\":32}}");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(s.planes, 2);
    cr_expect_eq(check_netbox(p), s.links);
    fp_plan_free(p);
}

/* SN5600 ports split 2 x 400G, with top-of-rack leaves so copper splitters reach the NICs. */
Test(netbox, splitter_plan_follows_netbox_rules)
{
    fp_plan *p = plan_from("{\"cluster\":{\"gpus\":512},\"fabric\":{\"switch\":\"nvidia-sn5600\"},"
                           "\"layout\":{\"leaf_racks\":\"top-of-rack\",\"servers_per_rack\":2}}");
    long splitters;
    multi_link_cables(p, &splitters);
    cr_assert_gt(splitters, 0, "expected splitter cables in this plan");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(check_netbox(p), s.links);
    fp_plan_free(p);
}

/* The DGX H100 SuperPOD preset with its storage, in-band and out-of-band networks: every
 * network's switches, extra endpoints, interfaces and cables follow NetBox's rules above (every
 * cable end a listed interface of a listed device, no interface on two cables, unique names, 0U
 * endpoints without a rack position), each tagged with its network. Counts derived by hand from
 * SUPERPOD_V1 (tests/helpers.h, the preset before Tables 7 and 8) and the builder's rules (docs/spec.md):
 * storage: 1,024 GPUs / 8 = 128 DGX x 2 ports at 400G on QM9700 (64 ports, 1:1: 32 down, 32 up);
 *   ceil(256 / 32) = 8 leaves, 8 x 32 = 256 uplinks over 64-port spines: 4 spines -> 12
 *   switches; links 256 + 256 = 512, one NetBox cable per link (its leaf-spine twin-port DACs
 *   carry two links each and are two rows).
 * in-band: 128 DGX + 5 management servers + 4 UFM = 137 hosts x 2 ports at 100G on SN4600C
 *   (64 ports, 2 kept for the MLAG peer links, 1:1): 5 MLAG pairs = 10 leaves with
 *   ceil(137 / 5) = 28 hosts each, so 28 up ports; the 280 uplinks spread evenly: the spine count
 *   is the smallest divisor of 28 at or above ceil(280 / 64) = 5, i.e. 7 (4 links from each
 *   leaf, 40 ports per spine) -> 17 switches; links 274 + 280 + 5 pairs x 2 peer links = 564.
 * oob: 128 + 5 + 4 BMCs + 78 switch management ports = 215 ports at 1G on SN2201 (48 x 1G
 *   down, 4 x 100G uplinks), one leaf per 32-server SU of the rail-optimized compute fabric:
 *   ceil(215 / 32) = 7 leaves, each 32G under one 100G uplink, to one SN4600C -> 8 switches;
 *   links 215 + 7 = 222.
 * compute: RA-11333-001 Table 4, 32 leaves + 16 spines, 1,024 + 1,024 links. */
Test(netbox, networks_preset_carries_every_network)
{
    fp_plan *p = plan_from_preset(SUPERPOD_V1);
    net_counts nc;
    long cables = check_netbox_counts(p, &nc);
    static const struct {
        const char *tag;
        long switches, devices, cables;
    } want[] = {
        { "compute", 0, 0, 1024 + 1024 },
        { "storage", 12, 12, 512 },
        { "inband", 17, 17 + 5 + 4, 564 },
        { "oob", 8, 8 + 5 + 4 + 78, 222 },
    };
    cr_assert_eq(nc.n, 4, "tags: compute and the three networks");
    long sum = 0;
    for (int i = 0; i < 4; i++) {
        cr_expect_str_eq(nc.tag[i], want[i].tag);
        cr_expect_eq(nc.switches[i], want[i].switches, "%s: %ld switches", nc.tag[i], nc.switches[i]);
        cr_expect_eq(nc.cables[i], want[i].cables, "%s: %ld cables", nc.tag[i], nc.cables[i]);
        if (i > 0)
            cr_expect_eq(nc.devices[i], want[i].devices, "%s: %ld devices", nc.tag[i], nc.devices[i]);
        sum += want[i].cables;
    }
    cr_expect_eq(cables, sum);
    /* LAGs: the in-band network is dual-homed Ethernet (MLAG pairs): each of its 137 hosts
     * has one LAG of its two ports; the storage network's InfiniBand hosts none. */
    cr_expect_eq(g_lags, 137);
    cr_expect_eq(g_lag_members, 2 * 137);
    /* An SN2201 leaf has the ports of its datasheet (and of the device-type library's
     * Nvidia/SN2201.yaml): swp1-swp48 1000BASE-T and swp49-swp52 100G QSFP28, at their own
     * speeds (Kbps), used or spare. */
    char dir[64], path[128];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    snprintf(path, sizeof path, "%s/netbox-interfaces.csv", dir);
    csv_file c = csv_load(path);
    int g1 = 0, g100 = 0;
    for (long i = 1; i < c.n; i++) {
        char *f[8];
        if (strncmp(c.line[i], "oob-su01-leaf-r1,", 17) != 0)
            continue;
        cr_assert_eq(csv_split(c.line[i], f, 8), 6, "tags and lag columns");
        int port = atoi(f[1] + 3);
        if (port <= 48) {
            cr_expect(strcmp(f[2], "1000base-t") == 0 && strcmp(f[3], "1000000") == 0, "%s %s %s", f[1], f[2], f[3]);
            g1++;
        } else {
            cr_expect(strcmp(f[2], "100gbase-x-qsfp28") == 0 && strcmp(f[3], "100000000") == 0, "%s %s %s", f[1], f[2], f[3]);
            g100++;
        }
    }
    cr_expect_eq(g1, 48);
    cr_expect_eq(g100, 4);
    csv_free(&c);
    fp_plan_free(p);
}

/* The HGX Enterprise RA preset (compute, converged, out-of-band) follows the same rules; every
 * cable row carries one network's tag, the compute fabric's one per compute link. */
Test(netbox, enterprise_networks_preset_follows_netbox_rules)
{
    fp_plan *p = plan_from_preset("hgx-h100-enterprise-32");
    net_counts nc;
    long cables = check_netbox_counts(p, &nc), sum = 0;
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_assert_gt(nc.n, 1);
    cr_expect_str_eq(nc.tag[0], "compute");
    cr_expect_eq(nc.cables[0], s.links);
    for (int i = 0; i < nc.n; i++) {
        cr_expect(i == 0 || nc.switches[i] > 0, "%s has no switch", nc.tag[i]);
        sum += nc.cables[i];
    }
    cr_expect_eq(sum, cables);
    fp_plan_free(p);
}

/* The transceivers: one NetBox module per cage holding one, in a module bay of its device, so
 * the modules file has the BOM's transceiver count (spares aside: they sit on a shelf, in no
 * cage), every network's. The compute fabric's, derived by hand for SUPERPOD_V1 (tests/
 * helpers.h: the DGX H100 SuperPOD RA-11333-001 of 4 SUs): 128 DGX x 4 twin-port OSFP cages (8 x 400G) = 512; 32 leaves x (32 down + 32 up
 * twin-port cages: 1,024 down and 1,024 up links, two per cage) = 1,024; 16 spines x 32 cages
 * (1,024 links, two per cage) = 512: 2,048, in bays named cage<N> (a network's are prefixed
 * with its name). */
Test(netbox, modules_equal_the_bom)
{
    fp_plan *p = plan_from_preset(SUPERPOD_V1);
    check_netbox_counts(p, &(net_counts){ 0 });
    long bom = 0;
    for (size_t net = 0; net < fp_plan_net_count(p); net++)
        for (size_t i = 0; i < fp_plan_net_bom_count(p, net); i++) {
            fp_bom_line l;
            cr_assert_eq(fp_plan_net_bom_line(p, net, i, &l, NULL), FP_OK);
            bom += l.kind == FP_BOM_TRANSCEIVER && !l.spare ? l.quantity : 0;
        }
    cr_expect_gt(bom, 2048, "the networks have transceivers too");
    cr_expect_eq(g_modules, bom, "%ld modules, the BOM %ld transceivers", g_modules, bom);
    char dir[64], path[128];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    snprintf(path, sizeof path, "%s/netbox-modules.csv", dir);
    csv_file c = csv_load(path);
    long compute = 0;
    for (long i = 1; i < c.n; i++) {
        char *f[8];
        cr_assert_eq(csv_split(c.line[i], f, 8), 4);
        compute += strncmp(f[1], "cage", 4) == 0;
    }
    cr_expect_eq(compute, 2048);
    csv_free(&c);
    fp_plan_free(p);
}

/* Power ports: every device one, with the plan's draw. A compute spine of SUPERPOD_V1
 * draws its QM9700's 750 W and its 32 cages' MMA4Z00-NS modules at 15 W each (templates/
 * catalog.json): 750 + 480 = 1,230 W; a DGX its 10,200 W (layout.server_power_w) with its
 * modules. Each rack's ports add up to the rack's power (fp_plan_rack), each port rounded up
 * to a whole watt. Locations: one hall and the four rows of its racks (H1-R01..R04, from
 * fp_plan_rack's hall and row numbers); every device of a QM9700 spine runs MLNX-OS, the
 * out-of-band SN2201 leaves Cumulus Linux. */
Test(netbox, power_locations_platforms)
{
    fp_plan *p = plan_from_preset(SUPERPOD_V1);
    check_netbox_counts(p, &(net_counts){ 0 });
    char dir[64], path[128];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    snprintf(path, sizeof path, "%s/netbox-devices.csv", dir);
    csv_file dv = csv_load(path);
    snprintf(path, sizeof path, "%s/netbox-power-ports.csv", dir);
    csv_file pp = csv_load(path);
    cr_assert_eq(dv.n, pp.n);
    size_t nr = fp_plan_rack_count(p);
    double *sum = calloc(nr, sizeof *sum);
    long *devs = calloc(nr, sizeof *devs);
    int spines = 0, oob_leaves = 0;
    for (long i = 1; i < dv.n; i++) {
        char *d[16], *w[8];
        cr_assert_eq(csv_split(dv.line[i], d, 16), 11);
        cr_assert_eq(csv_split(pp.line[i], w, 8), 4);
        cr_assert_str_eq(d[0], w[0], "power ports in the devices' order");
        for (size_t r = 0; r < nr; r++) {
            fp_rack_info ri;
            fp_plan_rack(p, r, &ri, NULL);
            if (strcmp(ri.name, d[7]) == 0) {
                sum[r] += atof(w[3]);
                devs[r]++;
            }
        }
        if (strncmp(d[0], "spine-", 6) == 0) {
            cr_expect_str_eq(w[3], "1230", "%s draws %s W", d[0], w[3]);
            cr_expect_str_eq(d[4], "MLNX-OS");
            spines++;
        }
        if (strncmp(d[0], "oob-su", 6) == 0 && strstr(d[0], "-leaf-")) {
            cr_expect_str_eq(d[4], "Cumulus Linux");
            oob_leaves++;
        }
        if (strncmp(d[0], "su01-node-", 10) == 0)
            cr_expect_geq(atof(w[3]), 10200);
    }
    cr_expect_eq(spines, 16);
    cr_expect_eq(oob_leaves, 7);
    int halls = 0, rows = 0, last_h = 0, last_r = 0;
    for (size_t r = 0; r < nr; r++) {
        fp_rack_info ri;
        fp_plan_rack(p, r, &ri, NULL);
        cr_expect(sum[r] >= ri.power_w - 1e-6 && sum[r] <= ri.power_w + (double)devs[r],
                  "%s: ports %.0f W, rack %.2f W", ri.name, sum[r], ri.power_w);
        halls += ri.hall != last_h;
        rows += ri.hall != last_h || ri.row != last_r;
        last_h = ri.hall;
        last_r = ri.row;
    }
    cr_expect_eq(halls, 1);
    cr_expect_eq(rows, 4);
    snprintf(path, sizeof path, "%s/netbox-locations.csv", dir);
    csv_file lc = csv_load(path);
    cr_expect_eq(lc.n - 1, halls + rows);
    csv_free(&lc);
    free(sum);
    free(devs);
    csv_free(&dv);
    csv_free(&pp);
    fp_plan_free(p);
}

/* Without a rack power limit there is no feed to size: no power panels or feeds (the check
 * asserts the files are absent), the rest as before. */
Test(netbox, no_rack_limit_no_feeds)
{
    fp_plan *p = plan_from("{\"layout\":{\"rack_power_limit_w\":0}}");
    fp_power_domains pd;
    fp_plan_power_domains(p, &pd);
    cr_assert_eq(pd.rack_limit_w, 0);
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(check_netbox(p), s.links);
    fp_plan_free(p);
}

/* ---- one name per port across every output ---- */

/* A plan on the built-in catalog plus `extra` (a catalog JSON text). */
static fp_plan *plan_with_catalog(const char *json, const char *extra)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_catalog_merge_string(cat, extra, strlen(extra), "<test catalog>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_spec_parse(&spec, json, strlen(json), "<test>", &err), FP_OK, "%s", err.msg);
    cr_assert_eq(fp_plan_new(&plan, spec, cat, &err), FP_OK, "%s", err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
    return plan;
}

/* The SN5600 as the built-in catalog has it, with interface_names set to `names` (or left out:
 * fabplan's default p<port>/<lane>). */
static char *sn5600_catalog(char *buf, size_t n, const char *names)
{
    snprintf(buf, n,
             "{\"parts\":[{\"id\":\"nvidia-sn5600\",\"type\":\"switch\",\"name\":\"SN5600 test\","
             "\"vendor\":\"NVIDIA\",\"ports\":64,\"port_gbps\":800,\"cages\":64,\"cage\":\"OSFP\","
             "\"breakouts\":[2,4],\"ru\":2,\"power_w\":1000,\"price_usd\":42000%s%s%s}]}",
             names ? ",\"interface_names\":\"" : "", names ? names : "", names ? "\"" : "");
    return buf;
}

#define SN5600_SPEC "{\"cluster\":{\"gpus\":512},\"fabric\":{\"switch\":\"nvidia-sn5600\"}}"

/* Every "p<N>/<L>" standing as a word (after start, ',', ' ', ';', '+', '"', '>') rewritten
 * "swp<N>s<L>": what the template "swp{cage}s{lane}" should make of each split SN5600 port
 * (64 cages of one port each, so cage = port; lanes 1-based). */
static char *rename_ports(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n * 2 + 1), *w = out;
    for (size_t i = 0; i < n;) {
        int word = i == 0 || strchr(",; +\">\n\t", s[i - 1]) != NULL;
        if (word && s[i] == 'p' && s[i + 1] >= '0' && s[i + 1] <= '9') {
            size_t j = i + 1;
            while (s[j] >= '0' && s[j] <= '9')
                j++;
            if (s[j] == '/' && s[j + 1] >= '0' && s[j + 1] <= '9') {
                size_t k = j + 1;
                while (s[k] >= '0' && s[k] <= '9')
                    k++;
                w += sprintf(w, "swp%.*ss%.*s", (int)(j - i - 1), s + i + 1, (int)(k - j - 1),
                             s + j + 1);
                i = k;
                continue;
            }
        }
        *w++ = s[i++];
    }
    *w = '\0';
    return out;
}

/* Keep the first n CSV columns of every line (no quoted commas in these files' first columns). */
static void cut_columns(char *s, int n)
{
    char *w = s;
    int c = 0;
    for (; *s; s++) {
        if (*s == '\n')
            c = 0;
        else if (*s == ',' && ++c >= n)
            continue;
        if (c < n || *s == '\n')
            *w++ = *s;
    }
    *w = '\0';
}

static void strip_quotes(char *s)
{
    char *w = s;
    for (; *s; s++)
        if (*s != '"')
            *w++ = *s;
    *w = '\0';
}

/* Drop every pos="x,y!" (the detail's node positions follow its estimated text widths, which
 * longer port names change). */
static void strip_positions(char *s)
{
    char *w = s;
    while (*s) {
        if (strncmp(s, "pos=\"", 5) == 0) {
            char *end = strchr(s + 5, '"');
            if (end) {
                s = end + 1;
                continue;
            }
        }
        *w++ = *s++;
    }
    *w = '\0';
}

static char *read_out(const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path);
}

/* Done means: a plan on an SN5600 with interface_names "swp{cage}s{lane}" writes swp17s1
 * everywhere the default names write p17/1 - byte for byte in every per-port file, and cell for
 * cell in the workbook's Cables and Ports sheets. */
Test(port_names, sn5600_template_renames_every_output)
{
    char cat_a[1024], cat_b[1024];
    fp_plan *a = plan_with_catalog(SN5600_SPEC, sn5600_catalog(cat_a, sizeof cat_a, NULL));
    fp_plan *b = plan_with_catalog(SN5600_SPEC, sn5600_catalog(cat_b, sizeof cat_b, "swp{cage}s{lane}"));
    unsigned formats = FP_WRITE_LINKS | FP_WRITE_CABLES | FP_WRITE_LABELS | FP_WRITE_NETBOX |
                       FP_WRITE_TOPOLOGY | FP_WRITE_XLSX | FP_WRITE_DETAIL;
    char da[64], db[64];
    write_set(a, da, sizeof da, formats);
    write_set(b, db, sizeof db, formats);
    static const char *const files[] = { "links.csv", "cables.csv", "labels.csv",
                                         "netbox-interfaces.csv", "netbox-cables.csv",
                                         "topology.csv", "su-1.dot" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *ta = read_out(da, files[i]), *tb = read_out(db, files[i]);
        cr_assert(strstr(ta, "p17/1"), "%s: the default names should write p17/1", files[i]);
        cr_expect_null(strstr(tb, "p17/1"), "%s: p17/1 left with a template", files[i]);
        if (strcmp(files[i], "labels.csv") == 0) {
            /* line1..line3 are cut at 20 characters, where longer names may lose their end:
             * compare the first ten columns. */
            cut_columns(ta, 10);
            cut_columns(tb, 10);
        }
        char *want = rename_ports(ta);
        if (strstr(files[i], ".dot")) {
            /* Graphviz quotes "p17/1" (a slash) but not swp17s1: compare without quotes; node
             * positions follow the names' widths, so compare without them. */
            strip_positions(want);
            strip_positions(tb);
            strip_quotes(want);
            strip_quotes(tb);
        }
        cr_expect(strcmp(want, tb) == 0, "%s differs from the default names with p<N>/<L> -> swp<N>s<L>",
                  files[i]);
        cr_expect(strstr(tb, "swp17s1"), "%s", files[i]);
        free(want);
        free(ta);
        free(tb);
    }
    char xa[128], xb[128];
    snprintf(xa, sizeof xa, "%s/plan.xlsx", da);
    snprintf(xb, sizeof xb, "%s/plan.xlsx", db);
    char names[16][32];
    int ns = xl_sheet_names(xa, names, 16);
    long cells = 0;
    for (int s = 0; s < ns; s++) {
        if (strcmp(names[s], "Cables") != 0 && strcmp(names[s], "Ports") != 0)
            continue;
        char *sa = xl_sheet(xa, s + 1), *sb = xl_sheet(xb, s + 1);
        const char *pa = sa, *pb = sb;
        static xl_row ra, rb;
        while (xl_next_row(&pa, &ra)) {
            cr_assert(xl_next_row(&pb, &rb), "%s: fewer rows with the template", names[s]);
            for (int c = 0; c < XL_MAX_COLS; c++) {
                char *want = rename_ports(ra.v[c]);
                cr_expect_str_eq(rb.v[c], want, "%s row %ld col %d", names[s], ra.r, c);
                cells += strcmp(ra.v[c], rb.v[c]) != 0;
                free(want);
            }
        }
        free(sa);
        free(sb);
    }
    cr_expect_gt(cells, 1000, "the workbook should rename many port cells");
    fp_plan_free(a);
    fp_plan_free(b);
}

/* Split "x+y" or "x;y" lists in place. */
static int split_list(char *s, const char *seps, char **out, int max)
{
    int n = 0;
    for (char *tok = strtok(s, seps); tok && n < max; tok = strtok(NULL, seps))
        out[n++] = tok;
    return n;
}

/* Done means: the same port has the same name in links.csv, cables.csv, labels.csv, the
 * workbook's Ports sheet and netbox-interfaces.csv - joined on (device, port name). */
Test(port_names, same_name_in_every_output)
{
    char cat[1024], dir[64], path[128], *f[32];
    fp_plan *p = plan_with_catalog(SN5600_SPEC, sn5600_catalog(cat, sizeof cat, "swp{cage}s{lane}"));
    write_set(p, dir, sizeof dir, FP_WRITE_LINKS | FP_WRITE_CABLES | FP_WRITE_LABELS |
                                       FP_WRITE_NETBOX | FP_WRITE_XLSX);
    strset links = { 0 }, ifaces = { 0 };
    snprintf(path, sizeof path, "%s/links.csv", dir);
    csv_file lf = csv_load(path);
    for (long i = 1; i < lf.n; i++) {
        cr_assert_eq(csv_split(lf.line[i], f, 32), 8);
        char a[128], z[128];
        snprintf(a, sizeof a, "%s %s", f[1], f[2]);
        snprintf(z, sizeof z, "%s %s", f[3], f[4]);
        set_add(&links, a, z);
        set_add(&links, z, a);      /* either orientation */
    }
    cr_expect_null(set_seal(&links));
    snprintf(path, sizeof path, "%s/netbox-interfaces.csv", dir);
    csv_file nf = csv_load(path);
    for (long i = 1; i < nf.n; i++) {
        cr_assert_eq(csv_split(nf.line[i], f, 32), 4);
        set_add(&ifaces, f[0], f[1]);
    }
    cr_expect_null(set_seal(&ifaces));
    cr_expect(set_has(&ifaces, "su01-leaf-r1", "swp17s1"));
    long pairs = 0;
    /* cables.csv: a_port lists the ports at the A connector ('+'), the z fields the legs (';');
     * leg k pairs with the A end's k-th port, a twin cable's k-th port with the Z end's k-th. */
    snprintf(path, sizeof path, "%s/cables.csv", dir);
    csv_file cf = csv_load(path);
    for (long i = 1; i < cf.n; i++) {
        cr_assert_eq(csv_split(cf.line[i], f, 32), 23);  /* ..., label_z, protocol */
        char *ap[8], *zd[8], *zp[8];
        int na = split_list(f[6], "+", ap, 8), nzd = split_list(f[11], ";", zd, 8);
        int nzp = split_list(f[12], ";+", zp, 8);
        cr_assert_eq(na, nzp, "cables row %ld: %d A ports, %d Z ports", i + 1, na, nzp);
        for (int k = 0; k < na; k++) {
            char a[128], z[128];
            snprintf(a, sizeof a, "%s %s", f[5], ap[k]);
            snprintf(z, sizeof z, "%s %s", zd[nzd > 1 ? k : 0], zp[k]);
            cr_expect(set_has(&links, a, z), "cables row %ld: %s - %s is not a link", i + 1, a, z);
            pairs++;
        }
    }
    cr_expect_eq(pairs, lf.n - 1, "cables.csv should carry every link once");
    /* labels.csv: every end names ports that exist, and each Z row's far end is its link. */
    snprintf(path, sizeof path, "%s/labels.csv", dir);
    csv_file bf = csv_load(path);
    long zrows = 0;
    for (long i = 1; i < bf.n; i++) {
        int nf_ = csv_split(bf.line[i], f, 32);
        cr_assert_geq(nf_, 10);
        char *pp[8];
        int np = split_list(f[4], "+", pp, 8);
        for (int k = 0; k < np; k++)
            cr_expect(set_has(&ifaces, f[3], pp[k]), "labels row %ld: %s %s", i + 1, f[3], pp[k]);
        if (f[1][0] == 'Z' && strchr(f[7], '+') == NULL && strchr(f[4], '+') == NULL) {
            char a[128], z[128];
            snprintf(a, sizeof a, "%s %s", f[3], f[4]);
            snprintf(z, sizeof z, "%s %s", f[6], f[7]);
            zrows += set_has(&links, a, z);
        }
    }
    cr_expect_gt(zrows, 100);
    /* The workbook's Ports sheet: used rows are links, spare rows name listed interfaces. */
    snprintf(path, sizeof path, "%s/plan.xlsx", dir);
    char names[16][32];
    int ns = xl_sheet_names(path, names, 16), ports = 0;
    for (int s = 0; s < ns; s++)
        if (strcmp(names[s], "Ports") == 0)
            ports = s + 1;
    cr_assert_gt(ports, 0);
    char *xml = xl_sheet(path, ports);
    const char *pos = xml;
    static xl_row row;
    long used = 0, spare = 0;
    xl_next_row(&pos, &row);
    while (xl_next_row(&pos, &row)) {
        xl_port pt[XL_PORT_BLOCKS];
        int n = xl_ports_of_row(&row, pt);
        for (int k = 0; k < n; k++) {
            cr_expect(set_has(&ifaces, pt[k].device, pt[k].port), "Ports row %ld: %s %s", row.r,
                      pt[k].device, pt[k].port);
            if (strcmp(pt[k].far, "spare") == 0) {
                spare++;
                continue;
            }
            char a[128], z[128];
            snprintf(a, sizeof a, "%s %s", pt[k].device, pt[k].port);
            snprintf(z, sizeof z, "%s %s", pt[k].far, pt[k].far_port);
            cr_expect(set_has(&links, a, z), "Ports row %ld: %s - %s is not a link", row.r, a, z);
            used++;
        }
    }
    cr_expect_gt(used, 0);
    free(xml);
    csv_free(&lf);
    csv_free(&nf);
    csv_free(&cf);
    csv_free(&bf);
    set_free(&links);
    set_free(&ifaces);
    fp_plan_free(p);
}

/* A template with an unknown placeholder is refused where the catalog gives it; one that names
 * two ports alike is refused when a plan would use it, at the spec's switch. */
Test(port_names, bad_templates_are_refused)
{
    fp_error err = { 0 };
    fp_catalog *cat = NULL;
    char json[1024];
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK);
    sn5600_catalog(json, sizeof json, "swp{slot}");
    cr_expect_eq(fp_catalog_merge_string(cat, json, strlen(json), "<t>", &err),
                 FP_ECATALOG);
    cr_expect(strstr(err.where, "/parts/0/interface_names"), "%s", err.where);
    cr_expect(strstr(err.msg, "{slot}"), "%s", err.msg);
    memset(&err, 0, sizeof err);
    sn5600_catalog(json, sizeof json, "swp[{port}");
    cr_expect_eq(fp_catalog_merge_string(cat, json, strlen(json), "<t>", &err),
                 FP_ECATALOG);
    /* "swp{port}" on ports split in two lanes: both lanes of port 1 are "swp1". */
    memset(&err, 0, sizeof err);
    sn5600_catalog(json, sizeof json, "swp{port}");
    cr_assert_eq(fp_catalog_merge_string(cat, json, strlen(json), "<t>", &err),
                 FP_OK, "%s", err.msg);
    fp_spec *spec = NULL;
    fp_plan *plan = NULL;
    cr_assert_eq(fp_spec_parse(&spec, SN5600_SPEC, strlen(SN5600_SPEC), "<test>", &err), FP_OK);
    cr_expect_eq(fp_plan_new(&plan, spec, cat, &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/fabric/switch");
    cr_expect(strstr(err.msg, "same name \"swp1\""), "%s", err.msg);
    fp_spec_free(spec);
    fp_catalog_free(cat);
}

/* ---- labels: TIA-606 identifiers, several halls ---- */

static void letters(char *out, int v)
{
    char tmp[8];
    int n = 0;
    for (; v > 0; v = (v - 1) / 26)
        tmp[n++] = (char)('A' + (v - 1) % 26);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
}

/* Two halls: plain lines carry the hall (H2R05K12-U40 ...); TIA-606 lines read
 * <floor 1><hall letter>.<row letters><rack 2 digits>-<U 2 digits>:<port>, the far end after
 * "> ", each line at most 20 characters. */
Test(labels, tia606_and_hall_prefix)
{
    static const char *spec = "{\"cluster\":{\"gpus\":2048},\"fabric\":{\"switch\":\"nvidia-sn5600\"},"
                              "\"layout\":{\"halls\":2,\"racks_per_row\":6}}";
    fp_plan *p = plan_from(spec);
    char dir[64], path[128], *r[16];
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = FP_WRITE_LABELS;
    o.labels = FP_LABELS_TIA606;
    scratch_dir(dir, sizeof dir, "labels");
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/labels.csv", dir);
    csv_file f = csv_load(path);
    long li = 1, hall2 = 0;
    for (size_t i = 0; i < fp_plan_cable_count(p); i++) {
        fp_cable_info c;
        cr_assert_eq(fp_plan_cable(p, i, &c, NULL), FP_OK);
        for (int e = 0; e <= c.n_z; e++) {
            const fp_cable_end *end = e == 0 ? &c.a : &c.z[e - 1];
            cr_assert_lt(li, f.n);
            cr_assert_eq(csv_split(f.line[li++], r, 16), 13);
            char row[8], want[96];
            letters(row, end->loc.row);
            snprintf(want, sizeof want, "1%c.%s%02d-%02d:%s", 'A' + end->loc.hall - 1, row,
                     end->loc.rack, end->loc.u, end->port);
            if (strchr(end->port, '+') == NULL && strlen(want) <= 20)
                cr_expect_str_eq(r[11], want, "%s", c.id);
            cr_expect(strstr(r[9], want), "label %s lacks %s", r[9], want);
            for (int k = 10; k < 13; k++)
                cr_expect_leq(strlen(r[k]), 20, "%s", r[k]);
            hall2 += end->loc.hall == 2;
        }
    }
    cr_expect_gt(hall2, 0, "expected ends in hall 2");
    csv_free(&f);
    o.labels = FP_LABELS_PLAIN;
    cr_assert_eq(fp_plan_write(p, dir, &o, &err), FP_OK, "%s", err.msg);
    f = csv_load(path);
    cr_assert_eq(csv_split(f.line[1], r, 16), 13);
    cr_expect_eq(r[11][0], 'H', "several halls: plain lines start with the hall, got %s", r[11]);
    csv_free(&f);
    fp_plan_free(p);
}

/* ---- AVD ---- */

/* An Ethernet plan: every switch is a cv_topology host and every switch port cabled in links.csv
 * is one of its interfaces, with the far end as neighbor; an InfiniBand plan writes no file. */
Test(avd, cv_topology_lists_every_switch_link)
{
    fp_plan *p = plan_from(SN5600_SPEC);
    char dir[64], path[128];
    write_set(p, dir, sizeof dir, FP_WRITE_AVD | FP_WRITE_LINKS);
    char *y = read_out(dir, "avd-cv-topology.yml");
    cr_expect(strstr(y, "\nuse_cv_topology: true\ncv_topology:\n"));
    /* Re-read as (host, interface, neighbor, neighbor_interface) lines. */
    strset got = { 0 };
    char host[64] = "", name[64] = "", nb[64] = "";
    long hosts = 0;
    for (char *line = strtok(y, "\n"); line; line = strtok(NULL, "\n")) {
        char v[64];
        if (sscanf(line, "  - hostname: \"%63[^\"]\"", v) == 1) {
            snprintf(host, sizeof host, "%s", v);
            hosts++;
        } else if (sscanf(line, "      - name: \"%63[^\"]\"", v) == 1) {
            snprintf(name, sizeof name, "%s", v);
        } else if (sscanf(line, "        neighbor: \"%63[^\"]\"", v) == 1) {
            snprintf(nb, sizeof nb, "%s", v);
        } else if (sscanf(line, "        neighbor_interface: \"%63[^\"]\"", v) == 1) {
            char a[160], z[160];
            snprintf(a, sizeof a, "%s %s", host, name);
            snprintf(z, sizeof z, "%s %s", nb, v);
            set_add(&got, a, z);
        }
    }
    cr_expect_null(set_seal(&got), "an interface twice");
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(hosts, s.switches);
    snprintf(path, sizeof path, "%s/links.csv", dir);
    csv_file lf = csv_load(path);
    long want = 0;
    for (long i = 1; i < lf.n; i++) {
        char *f[8], a[160], z[160];
        cr_assert_eq(csv_split(lf.line[i], f, 8), 8);
        snprintf(a, sizeof a, "%s %s", f[1], f[2]);
        snprintf(z, sizeof z, "%s %s", f[3], f[4]);
        int server = strstr(f[1], "-node-") != NULL;
        cr_expect(set_has(&got, z, a), "%s - %s missing on %s", z, a, f[3]);
        if (!server)
            cr_expect(set_has(&got, a, z), "%s - %s missing on %s", a, z, f[1]);
        want += server ? 1 : 2;
    }
    cr_expect_eq(got.n, want);
    csv_free(&lf);
    set_free(&got);
    free(y);
    fp_plan_free(p);
    /* InfiniBand (QM9700, the default): nothing for AVD. */
    p = plan_from("{\"cluster\":{\"gpus\":256}}");
    write_set(p, dir, sizeof dir, FP_WRITE_AVD);
    snprintf(path, sizeof path, "%s/avd-cv-topology.yml", dir);
    cr_expect_neq(access(path, F_OK), 0, "an InfiniBand plan should write no AVD topology");
    fp_plan_free(p);
}

/* Is s "Ethernet<port>/<lane>", the EOS name of a (split) port? */
static int eos_name(const char *s)
{
    int port = 0, lane = 0, n = 0;
    return sscanf(s, "Ethernet%d/%d%n", &port, &lane, &n) == 2 && s[n] == '\0' && port >= 1 &&
           port <= 64 && lane >= 1 && lane <= 8;
}

/* An Arista-part plan's avd-cv-topology.yml against AVD's published eos_designs schema
 * (aristanetworks/avd, python-avd/pyavd/_eos_designs/schema/schema_fragments/:
 * fabric_name.schema.yml: str, required; use_cv_topology.schema.yml: bool; cv_topology.schema.yml:
 * a list, primary key hostname, each item hostname str, platform str (required), interfaces
 * list (required, primary key name) of name, neighbor, neighbor_interface, all str), line by
 * line: every key is one the schema has, at its place, every value of its type; hostnames and
 * each switch's interface names are unique (the primary keys). AVD takes a switch's uplinks
 * by exact name (shared_utils/cv_topology.py: get_item(cv_interfaces, "name", ...) over
 * default_interfaces' uplink_interfaces), so every name is EOS's Ethernet<port>/<lane>.
 * Uplinks, derived by hand: 4,096 GPUs / 8 = 512 servers x 8 rails of 400G; a 7060X6-64PE
 * (64 x 800G, split 2 x 400G: 128 ports) leaf takes one rail of a 64-server SU (64 down) and
 * 64 up at 1:1, so 8 SUs x 8 rails = 64 leaves x 64 uplinks = 4,096 leaf-spine links, each
 * listed on its leaf with a spine as neighbor, over 4,096 / 128 = 32 spines. */
#define ARISTA_SPEC "{\"name\":\"arista-4k\",\"cluster\":{\"gpus\":4096,\"gpus_per_server\":8," \
                    "\"nics_per_server\":8,\"nic\":\"nvidia-cx7-osfp\"},\"fabric\":{\"topology\":" \
                    "\"rail-optimized\",\"switch\":\"arista-7060x6-64pe\",\"su_servers\":64}}"
Test(avd, arista_plan_fits_eos_designs_schema)
{
    fp_plan *p = plan_from(ARISTA_SPEC);
    char dir[64];
    write_set(p, dir, sizeof dir, FP_WRITE_AVD);
    char *y = read_out(dir, "avd-cv-topology.yml");
    strset hosts = { 0 }, ifaces = { 0 }, uplink_to = { 0 };
    char host[64] = "", name[64] = "", nb[64] = "", v[64];
    int fabric_name = 0, use_cv = 0, cv = 0, state = 0;   /* 1 host, 2 platform, 3 interfaces */
    long items = 0, with_platform = 0, with_interfaces = 0, not_eos = 0;
    for (char *line = strtok(y, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        if (sscanf(line, "fabric_name: \"%63[^\"]\"", v) == 1 && !cv) {
            fabric_name++;
            cr_expect_str_eq(v, "ARISTA_4K", "fabric_name: an Ansible group name from the spec's");
        } else if (strcmp(line, "use_cv_topology: true") == 0 && !cv) {
            use_cv++;
        } else if (strcmp(line, "cv_topology:") == 0) {
            cv++;
        } else if (cv && sscanf(line, "  - hostname: \"%63[^\"]\"", v) == 1) {
            snprintf(host, sizeof host, "%s", v);
            set_add(&hosts, host, NULL);
            items++;
            state = 1;
        } else if (state == 1 && sscanf(line, "    platform: \"%63[^\"]\"", v) == 1) {
            cr_expect_str_eq(v, "7060X6-64PE");
            with_platform++;
            state = 2;
        } else if (state == 2 && strcmp(line, "    interfaces:") == 0) {
            with_interfaces++;
            state = 3;
        } else if (state == 3 && sscanf(line, "      - name: \"%63[^\"]\"", v) == 1) {
            snprintf(name, sizeof name, "%s", v);
            set_add(&ifaces, host, name);
            not_eos += !eos_name(name);
        } else if (state == 3 && sscanf(line, "        neighbor: \"%63[^\"]\"", v) == 1) {
            snprintf(nb, sizeof nb, "%s", v);
        } else if (state == 3 && sscanf(line, "        neighbor_interface: \"%63[^\"]\"", v) == 1) {
            if (strstr(host, "-leaf-") && strncmp(nb, "spine-", 6) == 0)
                set_add(&uplink_to, host, name);
        } else {
            cr_expect_fail("not in eos_designs' schema at this place: \"%s\"", line);
        }
    }
    cr_expect_eq(fabric_name, 1, "fabric_name is required");
    cr_expect_eq(use_cv, 1);
    cr_expect_eq(cv, 1);
    cr_expect_eq(with_platform, items, "platform is required on every cv_topology item");
    cr_expect_eq(with_interfaces, items, "interfaces is required on every cv_topology item");
    const char *dup = set_seal(&hosts);
    cr_expect_null(dup, "hostname %s twice (the primary key)", dup);
    dup = set_seal(&ifaces);
    cr_expect_null(dup, "interface %s twice on one switch (the primary key)", dup);
    cr_expect_eq(not_eos, 0, "%ld interface names not in EOS's Ethernet<port>/<lane> form", not_eos);
    fp_summary s;
    fp_plan_summary(p, &s);
    cr_expect_eq(items, s.switches);
    cr_expect_eq(items, 64 + 32);
    /* Every uplink: the plan's leaf-spine links (boundary 1), and by hand 4,096, 64 a leaf. */
    long plan_up = 0;
    for (size_t i = 0; i < fp_plan_link_count(p); i++) {
        fp_link_info l;
        cr_assert_eq(fp_plan_link(p, i, &l, NULL), FP_OK);
        plan_up += l.boundary == 1;
    }
    dup = set_seal(&uplink_to);
    cr_expect_null(dup);
    cr_expect_eq(uplink_to.n, plan_up, "%ld uplinks in the file, %ld in the plan", uplink_to.n, plan_up);
    cr_expect_eq(uplink_to.n, 4096);
    long first_leaf = 0;
    for (long i = 0; i < uplink_to.n; i++)
        first_leaf += strncmp(uplink_to.s[i], "su01-leaf-r1\t", 13) == 0;
    cr_expect_eq(first_leaf, 64);
    set_free(&hosts);
    set_free(&ifaces);
    set_free(&uplink_to);
    free(y);
    /* The NetBox set of the same plan follows NetBox's rules, the switches on platform EOS. */
    cr_expect_eq(check_netbox(p), s.links);
    fp_plan_free(p);
}

/* The NetBox device-type library's names, as tests/write/data/netbox-library.txt records them
 * from netbox-community/devicetype-library (each file and commit on its line): "in" lines the
 * parts the library has (manufacturer, model, slug, u_height), "out" lines the parts it has
 * not (manufacturer, model). */
typedef struct nb_lib_entry {
    int in;
    char id[48], manufacturer[32], model[48], slug[64];
    int u_height;
} nb_lib_entry;

static size_t nb_library(nb_lib_entry *out, size_t max)
{
    FILE *f = fopen(FP_TEST_SRC_DIR "/tests/write/data/netbox-library.txt", "r");
    char line[512], kind[8];
    size_t n = 0;
    cr_assert_not_null(f, "tests/write/data/netbox-library.txt");
    while (fgets(line, sizeof line, f) && n < max) {
        nb_lib_entry *e = &out[n];
        memset(e, 0, sizeof *e);
        if (line[0] == '#' || sscanf(line, "%7s", kind) != 1)
            continue;
        e->in = strcmp(kind, "in") == 0;
        int got = e->in ? sscanf(line, "in %47s %31s %47s %63s %d", e->id, e->manufacturer,
                                 e->model, e->slug, &e->u_height)
                        : sscanf(line, "out %47s %31s %47s", e->id, e->manufacturer, e->model);
        cr_assert_eq(got, e->in ? 5 : 3, "netbox-library.txt: %s", line);
        n++;
    }
    fclose(f);
    return n;
}

/* The library's slug rule, as every "in" line of the file shows it: manufacturer-model in
 * lower case. */
static void nb_library_slug(char *out, size_t n, const char *manufacturer, const char *model)
{
    snprintf(out, n, "%s-%s", manufacturer, model);
    for (char *c = out; *c; c++)
        *c = (char)tolower((unsigned char)*c);
}

/* Device types carry the library's names where the library has the switch (manufacturer, model,
 * slug and height of its file); a switch it has not takes the library's style (the
 * manufacturer as the library spells it, the bare model, slug manufacturer-model). Generic parts
 * keep their catalog name, and their vendor decides the manufacturer. */
Test(netbox, device_types_use_library_names)
{
    nb_lib_entry lib[32];
    const size_t n_lib = nb_library(lib, 32);
    cr_assert_geq(n_lib, 8);
    for (size_t k = 0; k < n_lib; k++)
        if (lib[k].in) {
            char rule[128];
            nb_library_slug(rule, sizeof rule, lib[k].manufacturer, lib[k].model);
            cr_expect_str_eq(lib[k].slug, rule, "the library's %s", lib[k].model);
        }
    fp_catalog *cat = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_catalog_new(&cat, &err), FP_OK, "%s", err.msg);
    size_t checked = 0;
    for (size_t i = 0; i < fp_catalog_count(cat); i++) {
        const fp_part *part = fp_catalog_part(cat, i);
        if (part->type != FP_PART_SWITCH)
            continue;
        fp_nb_type t;
        fp__netbox_switch_type(&t, part);
        size_t k = 0;
        while (k < n_lib && strcmp(lib[k].id, part->id) != 0)
            k++;
        if (k < n_lib) {
            char slug[128];
            nb_library_slug(slug, sizeof slug, lib[k].manufacturer, lib[k].model);
            cr_expect_str_eq(t.manufacturer, lib[k].manufacturer, "%s", part->id);
            cr_expect_str_eq(t.model, lib[k].model, "%s", part->id);
            cr_expect_str_eq(t.slug, lib[k].in ? lib[k].slug : slug, "%s", part->id);
            if (lib[k].in)
                cr_expect_eq(t.u_height, lib[k].u_height, "%s", part->id);
            checked++;
        } else {
            /* every NVIDIA switch of the catalog is in the file */
            cr_expect_str_neq(part->vendor, "NVIDIA", "%s has no library name", part->id);
            cr_expect_str_eq(t.model, part->name, "%s", part->id);
        }
        cr_expect_eq(t.u_height, part->ru > 0 ? part->ru : 1, "%s", part->id);
    }
    cr_expect_eq(checked, n_lib, "every part of the file is in the catalog");
    fp_catalog_free(cat);

    /* In the networks preset's files: the in-band switches (10 leaves, 7 spines) and the
     * out-of-band spine are SN4600C, 18 devices, of the manufacturer the library files it
     * under, which is listed once; no device type keeps the descriptive name. */
    const nb_lib_entry *sn4600c = NULL, *sn2201 = NULL, *qm9700 = NULL;
    for (size_t k = 0; k < n_lib; k++) {
        sn4600c = strcmp(lib[k].id, "nvidia-sn4600c") == 0 ? &lib[k] : sn4600c;
        sn2201 = strcmp(lib[k].id, "nvidia-sn2201") == 0 ? &lib[k] : sn2201;
        qm9700 = strcmp(lib[k].id, "nvidia-qm9700") == 0 ? &lib[k] : qm9700;
    }
    cr_assert(sn4600c && sn2201 && qm9700 && sn4600c->in && sn2201->in && qm9700->in);
    fp_plan *p = plan_from_preset(SUPERPOD_V1);
    char dir[64], path[128], want[256];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    snprintf(path, sizeof path, "%s/netbox-device-types.csv", dir);
    char *types = slurp(path);
    const nb_lib_entry *three[] = { sn4600c, sn2201, qm9700 };
    for (int k = 0; k < 3; k++) {
        snprintf(want, sizeof want, "\n%s,%s,%s,%d,", three[k]->manufacturer, three[k]->model,
                 three[k]->slug, three[k]->u_height);
        cr_expect_not_null(strstr(types, want), "%s in %s", want, types);
    }
    cr_expect_null(strstr(types, "NVIDIA Spectrum"), "%s", types);
    free(types);
    snprintf(path, sizeof path, "%s/netbox-manufacturers.csv", dir);
    char *makers = slurp(path);
    char maker_slug[64];
    nb_library_slug(maker_slug, sizeof maker_slug, sn4600c->manufacturer, "");
    maker_slug[strlen(maker_slug) - 1] = '\0';
    snprintf(want, sizeof want, "\n%s,%s\n", sn4600c->manufacturer, maker_slug);
    cr_expect_not_null(strstr(makers, want), "%s in %s", want, makers);
    cr_expect_null(strstr(strstr(makers, sn4600c->manufacturer) + 1, sn4600c->manufacturer), "%s",
                   makers);
    free(makers);
    snprintf(path, sizeof path, "%s/netbox-devices.csv", dir);
    csv_file c = csv_load(path);
    long n_sn4600c = 0;
    snprintf(want, sizeof want, ",%s,%s,", sn4600c->manufacturer, sn4600c->model);
    for (long i = 1; i < c.n; i++)
        n_sn4600c += strstr(c.line[i], want) != NULL;
    cr_expect_eq(n_sn4600c, 10 + 7 + 1);
    csv_free(&c);
    fp_plan_free(p);
}

/* Interfaces of the compute fabric at each port's own speed. MIXED: 512 GPUs, one 400G NIC per
 * GPU, SN5600 (64 x 800G OSFP, breakouts 2 and 4), links 400G below the leaves and 800G above,
 * two-tier Clos at 1:1. A leaf's down bandwidth equals its up: d x 400 = u x 800, and its 64
 * cages hold d / 2 split ports plus u whole ones, so d = 64 (swp1-swp32, s0 and s1, at 400G)
 * and u = 32 (swp33-swp64 at 800G): 96 interfaces, 64 `400gbase-x-osfp` and 32
 * `800gbase-x-osfp`. A spine's 64 ports all run 800G whole. 512 / 64 = 8 leaves x 32 = 256
 * uplinks over 4 spines. Before, every port was listed at the NIC speed and a leaf had 128
 * (swp33-swp96 at 400G: ports the switch does not have). RJ45: the SN2201 leaves of the 96-host
 * 1 GbE fabric (device-type library SN2201: swp1-48 1000BASE-T, swp49-52 100G QSFP28) and the
 * SN4600C spine, 64 x 100G. Every cable end must be one of these interfaces (check_netbox). */
#define MIXED "{\"name\":\"mixed\",\"cluster\":{\"gpus\":512,\"gpus_per_server\":8,\"nic\":\"nvidia-cx7-osfp\"}," \
              "\"fabric\":{\"topology\":\"clos\",\"switch\":\"nvidia-sn5600\",\"link_gbps\":[400,800]}}"
#define RJ45 "{\"name\":\"rj45\",\"cluster\":{\"gpus\":96,\"gpus_per_server\":1,\"nics_per_server\":1," \
             "\"nic\":{\"ports\":1,\"port_gbps\":1,\"cage\":\"RJ45\"}}," \
             "\"fabric\":{\"topology\":\"clos\",\"switch\":[\"nvidia-sn2201\",\"nvidia-sn4600c\"]}}"

/* Interfaces of device `dev` in dir/netbox-interfaces.csv with this type and speed (Kbps). */
static long interfaces_of(const char *dir, const char *dev, const char *type, const char *kbps)
{
    char path[128];
    snprintf(path, sizeof path, "%s/netbox-interfaces.csv", dir);
    csv_file c = csv_load(path);
    long n = 0;
    for (long i = 1; i < c.n; i++) {
        char *f[8];
        cr_assert_geq(csv_split(c.line[i], f, 8), 4);
        n += strcmp(f[0], dev) == 0 && strcmp(f[2], type) == 0 && strcmp(f[3], kbps) == 0;
    }
    csv_free(&c);
    return n;
}

Test(netbox, interfaces_at_each_ports_speed)
{
    fp_plan *p = plan_from(MIXED);
    char dir[64];
    cr_expect_eq(check_netbox(p), 512 + 256);
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    cr_expect_eq(interfaces_of(dir, "leaf-01", "400gbase-x-osfp", "400000000"), 64);
    cr_expect_eq(interfaces_of(dir, "leaf-01", "800gbase-x-osfp", "800000000"), 32);
    cr_expect_eq(interfaces_of(dir, "leaf-01", "400gbase-x-osfp", "800000000") +
                 interfaces_of(dir, "leaf-01", "800gbase-x-osfp", "400000000"), 0);
    cr_expect_eq(interfaces_of(dir, "spine-01", "800gbase-x-osfp", "800000000"), 64);
    for (size_t i = 0; i < fp_plan_device_count(p); i++) {
        fp_device_info d;
        cr_assert_eq(fp_plan_device(p, i, &d, NULL), FP_OK);
        if (d.tier > 0)
            cr_expect_eq(d.ports, d.tier == 1 ? 64 + 32 : 64, "%s", d.name);
    }
    fp_plan_free(p);

    p = plan_from(RJ45);
    cr_expect_eq(check_netbox(p), 96 + 2);
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    cr_expect_eq(interfaces_of(dir, "leaf-01", "1000base-t", "1000000"), 48);
    cr_expect_eq(interfaces_of(dir, "leaf-01", "100gbase-x-qsfp28", "100000000"), 4);
    cr_expect_eq(interfaces_of(dir, "spine-01", "100gbase-x-qsfp28", "100000000"), 64);
    fp_plan_free(p);
}

/* A cable's NetBox type: by medium (DAC dac-passive, ACC and AEC dac-active, MMF mmf-om4, SMF
 * smf-os2), and twisted pair by the category its part's id or name says (NetBox's cat3 ... cat8
 * choices), "Cat6A" before "Cat6"; a part that says none is the built-in cord's cat6a. Colours:
 * black copper, aqua OM4, yellow OS2, blue twisted pair. */
Test(netbox, cable_types_by_medium_and_category)
{
    static const struct {
        int medium;
        const char *id, *name, *type, *color;
    } want[] = {
        { FP_MEDIUM_DAC, "x", "x", "dac-passive", "000000" },
        { FP_MEDIUM_ACC, "x", "x", "dac-active", "000000" },
        { FP_MEDIUM_AEC, "x", "x", "dac-active", "000000" },
        { FP_MEDIUM_MMF, "x", "x", "mmf-om4", "00ffff" },
        { FP_MEDIUM_SMF, "x", "x", "smf-os2", "ffff00" },
        { FP_MEDIUM_TP, "generic-cat6a-rj45", "Cat6A U/UTP RJ45 patch cord", "cat6a", "2196f3" },
        { FP_MEDIUM_TP, "acme-cord-10g", "Cat6 U/UTP patch cord", "cat6", "2196f3" },
        { FP_MEDIUM_TP, "cat5e-1g", "patch cord", "cat5e", "2196f3" },
        { FP_MEDIUM_TP, "acme-cord", "CAT8 S/FTP 40G", "cat8", "2196f3" },
        { FP_MEDIUM_TP, "acme-cord", "twisted pair", "cat6a", "2196f3" },
        /* the first category the text names, not the first of NetBox's list found anywhere */
        { FP_MEDIUM_TP, "acme-cord", "Cat6 patch cord (not Cat6A)", "cat6", "2196f3" },
        { FP_MEDIUM_TP, "acme-cord", "Cat6 cord, replaces Cat5e", "cat6", "2196f3" },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        fp_part p;
        memset(&p, 0, sizeof p);
        snprintf(p.id, sizeof p.id, "%s", want[i].id);
        snprintf(p.name, sizeof p.name, "%s", want[i].name);
        const char *type = NULL, *color = NULL;
        fp__netbox_cable_kind(want[i].medium, &p, &type, &color);
        cr_expect_str_eq(type, want[i].type, "case %zu", i);
        cr_expect_str_eq(color, want[i].color, "case %zu", i);
    }
    const char *type = NULL, *color = NULL;
    fp__netbox_cable_kind(FP_MEDIUM_TP, NULL, &type, &color);
    cr_expect_str_eq(type, "cat6a");
}

/* One power port per device, also where an endpoint group is the switches' own management
 * ports (dgx-h100-4su-networks counts one per switch): such a host is the switch itself, whose
 * PSU row is written once, so the power ports are exactly as many as the devices (NetBox
 * refuses a second "PSU" on one device). */
Test(netbox, one_power_port_per_device_with_switch_management_ports)
{
    fp_plan *p = plan_from_preset("dgx-h100-4su-networks");
    char dir[64], path[128];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    snprintf(path, sizeof path, "%s/netbox-devices.csv", dir);
    csv_file dv = csv_load(path);
    snprintf(path, sizeof path, "%s/netbox-power-ports.csv", dir);
    csv_file pp = csv_load(path);
    cr_expect_eq(pp.n, dv.n, "%ld power port rows for %ld device rows", pp.n, dv.n);
    csv_free(&dv);
    csv_free(&pp);
    fp_plan_free(p);
}

/* Each switch's own management interface, cabled to its out-of-band leaf (issue 30): in
 * dgx-h100-4su-networks the out-of-band network's endpoint group counted "switches" is one port
 * per switch of the compute fabric and of every network listed before it (docs/spec.md), so the
 * interfaces marked mgmt_only are exactly those switches, counted here from the plan's switch
 * counts (fp_plan_summary, fp_plan_network), each named by its part's catalog mgmt_port
 * (templates/catalog.json: QM9700 mgmt0, SN4600C eth0) and ending one cable; no other interface
 * is marked. The set passes NetBox's rules (the booleans among them). */
Test(netbox, switch_management_interfaces_are_mgmt_only)
{
    fp_plan *p = plan_from_preset("dgx-h100-4su-networks");
    check_netbox_counts(p, &(net_counts){ 0 });
    fp_catalog *cat = NULL;
    cr_assert_eq(fp_catalog_new(&cat, NULL), FP_OK);
    /* The switches the group counts: every network's before the first one with such a group
     * (the out-of-band network, role "oob"), and their management ports' names. */
    size_t oob = 0;
    for (size_t i = 0; i < fp_plan_network_count(p); i++) {
        fp_network_info ni;
        cr_assert_eq(fp_plan_network(p, i, &ni, NULL), FP_OK);
        if (strcmp(ni.role, "oob") == 0 && oob == 0)
            oob = i + 1;
    }
    cr_assert_gt(oob, 0, "the preset has an out-of-band network");
    fp_summary s;
    fp_plan_summary(p, &s);
    long want = (long)s.switches;
    for (size_t i = 0; i + 1 < oob; i++) {
        fp_network_info ni;
        fp_plan_network(p, i, &ni, NULL);
        want += (long)ni.switches;
    }
    strset port_of = { 0 };
    long listed = 0;
    for (size_t net = 0; net < oob; net++)
        for (size_t d = 0; d < fp_plan_net_device_count(p, net); d++) {
            fp_device_info di;
            cr_assert_eq(fp_plan_net_device(p, net, d, &di, NULL), FP_OK);
            if (di.tier == 0)
                continue;
            const fp_part *m = fp_catalog_find(cat, di.model);
            cr_assert_not_null(m, "%s: no part %s", di.name, di.model);
            set_add(&port_of, di.name, fp_part_mgmt_port(m));
            listed++;
        }
    set_seal(&port_of);
    cr_expect_eq(listed, want, "%ld switches listed, the counts say %ld", listed, want);
    char dir[64], path[128];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    snprintf(path, sizeof path, "%s/netbox-cables.csv", dir);
    csv_file cb = csv_load(path);
    strset ends = { 0 };
    for (long i = 1; i < cb.n; i++) {
        char *f[16];
        cr_assert_geq(csv_split(cb.line[i], f, 16), 6);
        set_add(&ends, f[0], f[2]);
        set_add(&ends, f[3], f[5]);
    }
    set_seal(&ends);
    snprintf(path, sizeof path, "%s/netbox-interfaces.csv", dir);
    csv_file c = csv_load(path);
    char head[256], *h[16];
    snprintf(head, sizeof head, "%s", c.line[0]);
    int nh = csv_split(head, h, 16), mc = -1;
    for (int k = 0; k < nh; k++)
        if (strcmp(h[k], "mgmt_only") == 0)
            mc = k;
    cr_assert_geq(mc, 0, "netbox-interfaces.csv has no mgmt_only column");
    long mgmt = 0, eth0 = 0, mgmt0 = 0;
    for (long i = 1; i < c.n; i++) {
        char *f[16];
        cr_assert_eq(csv_split(c.line[i], f, 16), nh);
        if (strcmp(f[mc], "true") != 0)
            continue;
        mgmt++;
        cr_expect(set_has(&port_of, f[0], f[1]),
                  "%s %s is mgmt_only but not a counted switch's management interface", f[0], f[1]);
        cr_expect(set_has(&ends, f[0], f[1]), "%s %s ends no cable", f[0], f[1]);
        eth0 += strcmp(f[1], "eth0") == 0;
        mgmt0 += strcmp(f[1], "mgmt0") == 0;
    }
    cr_expect_eq(mgmt, want, "%ld mgmt_only interfaces, %ld switches", mgmt, want);
    cr_expect_gt(eth0, 0, "Spectrum switches (Cumulus eth0)");
    cr_expect_gt(mgmt0, 0, "Quantum switches (mgmt0)");
    csv_free(&c);
    csv_free(&cb);
    set_free(&ends);
    set_free(&port_of);
    fp_catalog_free(cat);
    fp_plan_free(p);
}

/* Issue 30's "the counts in NetBox equal the plan's", on dgx-h100-4su-networks, each derived from
 * the plan's own getters (not the NetBox writer):
 * - devices: every rack's devices (fp_plan_rack: servers, switches and extra endpoints of every
 *   network; a 0U endpoint stands in its rack too), one power port each;
 * - interfaces: every device's logical ports on every network (fp_plan_net_device .ports: a
 *   host's ports on the network, a switch's every port, used or spare), plus one LAG per host of
 *   a dual-homed Ethernet network (its two ports bonded);
 * - cables: one NetBox cable per link, every network's (fp_plan_net_link_count);
 * - modules: the BOM's transceivers in service, every network's;
 * - locations: the halls and the (hall, row) pairs of the racks. */
Test(netbox, networks_preset_counts_equal_the_plan)
{
    fp_plan *p = plan_from_preset("dgx-h100-4su-networks");
    long cables = check_netbox_counts(p, &(net_counts){ 0 });
    long devices = 0, ports = 0, lags = 0, links = 0, bom = 0, halls = 0, rows = 0;
    int last_h = 0, last_r = 0;
    for (size_t r = 0; r < fp_plan_rack_count(p); r++) {
        fp_rack_info ri;
        cr_assert_eq(fp_plan_rack(p, r, &ri, NULL), FP_OK);
        devices += (long)ri.devices;
        halls += ri.hall != last_h;
        rows += ri.hall != last_h || ri.row != last_r;
        last_h = ri.hall;
        last_r = ri.row;
    }
    for (size_t net = 0; net < fp_plan_net_count(p); net++) {
        int lag_hosts = 0;
        if (net > 0) {
            fp_network_info ni;
            cr_assert_eq(fp_plan_network(p, net - 1, &ni, NULL), FP_OK);
            lag_hosts = ni.dual_homed && strcmp(ni.pair_name, "MLAG pair") == 0;
        }
        for (size_t d = 0; d < fp_plan_net_device_count(p, net); d++) {
            fp_device_info di;
            cr_assert_eq(fp_plan_net_device(p, net, d, &di, NULL), FP_OK);
            if (di.tier > 0 && di.owner != (int)net)
                continue;   /* another network's switch (uplink_to): its ports are listed there */
            ports += di.ports;
            lags += lag_hosts && di.tier == 0;
        }
        links += (long)fp_plan_net_link_count(p, net);
        for (size_t i = 0; i < fp_plan_net_bom_count(p, net); i++) {
            fp_bom_line l;
            cr_assert_eq(fp_plan_net_bom_line(p, net, i, &l, NULL), FP_OK);
            bom += l.kind == FP_BOM_TRANSCEIVER && !l.spare ? l.quantity : 0;
        }
    }
    char dir[64], path[128];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    static const char *const files[] = { "netbox-devices.csv", "netbox-power-ports.csv",
                                         "netbox-interfaces.csv", "netbox-modules.csv",
                                         "netbox-locations.csv" };
    long rows_of[5];
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        csv_file c = csv_load(path);
        rows_of[i] = c.n - 1;
        csv_free(&c);
    }
    cr_expect_eq(rows_of[0], devices, "%ld devices, the racks hold %ld", rows_of[0], devices);
    cr_expect_eq(rows_of[1], devices, "%ld power ports, %ld devices", rows_of[1], devices);
    cr_expect_eq(rows_of[2], ports + lags, "%ld interfaces, the plan %ld ports + %ld LAGs",
                 rows_of[2], ports, lags);
    cr_expect_eq(cables, links, "%ld cables, %ld links", cables, links);
    cr_expect_eq(rows_of[3], bom, "%ld modules, the BOM %ld transceivers", rows_of[3], bom);
    cr_expect_eq(rows_of[4], halls + rows, "%ld locations, %ld halls + %ld rows", rows_of[4], halls, rows);
    fp_plan_free(p);
}
