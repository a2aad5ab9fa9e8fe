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
#include <unistd.h>
#include "helpers.h"
#include "xlsx_read.h"

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
    return bsearch(&k, t->s, (size_t)t->n, sizeof *t->s, cmp_str) != NULL;
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
};
#define N_FORMS (sizeof forms / sizeof forms[0])

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
static const char *const if_types[] = { "100gbase-x-qsfp28", "100gbase-x-qsfpdd",
    "200gbase-x-qsfp56", "200gbase-x-qsfpdd", "400gbase-x-qsfp112", "400gbase-x-qsfpdd",
    "400gbase-x-osfp", "400gbase-x-osfp-rhs", "400gbase-x-cdfp", "400gbase-x-cfp8",
    "800gbase-x-qsfpdd", "800gbase-x-osfp", "infiniband-sdr", "infiniband-ddr", "infiniband-qdr",
    "infiniband-fdr10", "infiniband-fdr", "infiniband-edr", "infiniband-hdr", "infiniband-ndr",
    "infiniband-xdr", "other", NULL };
static const char *const cable_types[] = { "cat3", "cat5", "cat5e", "cat6", "cat6a", "cat7",
    "cat7a", "cat8", "dac-active", "dac-passive", "mrj21-trunk", "coaxial", "mmf", "mmf-om1",
    "mmf-om2", "mmf-om3", "mmf-om4", "mmf-om5", "smf", "smf-os1", "smf-os2", "aoc", "power",
    NULL };
static const char *const link_status[] = { "connected", "planned", "decommissioning", NULL };
static const char *const length_units[] = { "km", "m", "cm", "mi", "ft", "in", NULL };
/* ContentType of a cable termination on a device interface. */
static const char *const term_types[] = { "dcim.interface", NULL };

static void write_set(const fp_plan *p, char *dir, size_t n, unsigned formats)
{
    fp_error err = { 0 };
    fp_write_options o = FP_WRITE_OPTIONS_INIT;
    o.formats = formats;
    snprintf(dir, n, "/tmp/fabplan-netbox-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
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
    cr_assert_gt(t.f.n, 1, "%s: no rows", fm->file);
    static char head[N_FORMS][1024];
    size_t i = (size_t)(fm - forms);
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

/* Check the whole set of plan p; returns the number of cables rows (for the caller's counts). */
static long check_netbox(const fp_plan *p)
{
    char dir[64];
    write_set(p, dir, sizeof dir, FP_WRITE_NETBOX);
    table t[N_FORMS];
    for (size_t i = 0; i < N_FORMS; i++)
        t[i] = load_table(dir, &forms[i]);
    strset sites = { 0 }, manufs = { 0 }, roles = { 0 }, types = { 0 }, racks = { 0 },
           devices = { 0 }, ifaces = { 0 }, ends = { 0 };
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
    for (long i = 1; i < t[4].f.n; i++) {
        cr_assert_eq(csv_split(t[4].f.line[i], f, 32), t[4].ncol);
        cr_expect(set_has(&sites, f[col(&t[4], "site")], NULL), "rack in unknown site");
        cr_expect(one_of(f[col(&t[4], "status")], rack_status));
        cr_expect(one_of(f[col(&t[4], "width")], rack_width));
        rack_u = atoi(f[col(&t[4], "u_height")]);
        cr_expect(rack_u >= 1 && rack_u <= 100);
        set_add(&racks, f[col(&t[4], "name")], NULL);
    }
    cr_expect_null(set_seal(&racks), "a rack twice");
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
        cr_expect(one_of(f[col(&t[5], "face")], faces));
        char key[200];
        snprintf(key, sizeof key, "%s\t%s", m, model);
        int u = 0;
        for (int k = 0; k < n_types; k++)
            if (strcmp(type_key[k], key) == 0)
                u = type_u[k];
        int pos = atoi(f[col(&t[5], "position")]);
        cr_expect(pos >= 1 && pos + u - 1 <= rack_u, "%s at U%d (%dU) outside a %dU rack", f[0],
                  pos, u, rack_u);
        snprintf(pl[i - 1].rack, sizeof pl[i - 1].rack, "%s", rack);
        pl[i - 1].lo = pos;
        pl[i - 1].hi = pos + u - 1;
        set_add(&devices, f[col(&t[5], "name")], NULL);
    }
    qsort(pl, (size_t)nd, sizeof *pl, cmp_placed);
    for (long i = 1; i < nd; i++)
        if (strcmp(pl[i].rack, pl[i - 1].rack) == 0)
            cr_expect_gt(pl[i].lo, pl[i - 1].hi, "%s: devices overlap at U%d", pl[i].rack, pl[i].lo);
    free(pl);
    const char *dup = set_seal(&devices);
    cr_expect_null(dup, "device name %s twice", dup);
    for (long i = 1; i < t[6].f.n; i++) {
        cr_assert_eq(csv_split(t[6].f.line[i], f, 32), t[6].ncol);
        const char *d = f[col(&t[6], "device")];
        cr_expect(set_has(&devices, d, NULL), "interface on unknown device %s", d);
        cr_expect(one_of(f[col(&t[6], "type")], if_types), "interface type %s", f[col(&t[6], "type")]);
        cr_expect_gt(atol(f[col(&t[6], "speed")]), 0);
        set_add(&ifaces, d, f[col(&t[6], "name")]);
    }
    dup = set_seal(&ifaces);
    cr_expect_null(dup, "interface %s listed twice", dup);
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
        cr_expect(one_of(f[col(&t[7], "type")], cable_types));
        cr_expect(one_of(f[col(&t[7], "status")], link_status));
        cr_expect(one_of(f[col(&t[7], "length_unit")], length_units));
        cr_expect(is_color(f[col(&t[7], "color")]));
        cr_expect_gt(strtod(f[col(&t[7], "length")], NULL), 0);
    }
    dup = set_seal(&ends);
    cr_expect_null(dup, "interface %s ends two cables", dup);
    long cables = t[7].f.n - 1;
    for (size_t i = 0; i < N_FORMS; i++)
        csv_free(&t[i].f);
    set_free(&sites);
    set_free(&manufs);
    set_free(&roles);
    set_free(&types);
    set_free(&racks);
    set_free(&devices);
    set_free(&ifaces);
    set_free(&ends);
    return cables;
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
