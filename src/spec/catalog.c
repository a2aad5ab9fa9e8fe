/* fabplan — the parts catalog: built-in parts from templates/catalog.json plus user parts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "spec/json_read.h"

extern const char fp__catalog_json[];
extern const size_t fp__catalog_json_len;

struct fp_catalog {
    fp_part *parts;
    size_t n, cap;
};

static const char *const type_names[] = { "switch", "nic", "transceiver", "cable", "fibre" };

unsigned fp_part_protocols(const fp_part *p)
{
    if (p == NULL || strcmp(p->protocol, "infiniband") == 0)
        return p ? FP_PROTO_IB : 0;
    if (strcmp(p->protocol, "ethernet") == 0)
        return FP_PROTO_ETH;
    return FP_PROTO_IB | FP_PROTO_ETH;
}

const char *fp_part_mgmt_port(const fp_part *p)
{
    return p != NULL && p->mgmt_port[0] ? p->mgmt_port : "mgmt0";
}

const char *fp_part_type_name(fp_part_type type)
{
    if ((unsigned)type >= sizeof type_names / sizeof type_names[0])
        return "part";
    return type_names[type];
}

static int part_cmp(const void *a, const void *b)
{
    const fp_part *x = a, *y = b;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* Read an array of up to max numbers (ascending when sorted is set). */
static fp_status read_num_array(const cJSON *obj, const char *key, const char *ptr, double *out,
                                int max, int *n_out, int sorted, double min, fp_error *err)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key), *it;
    char p[160], d[96];
    int n = 0;
    if (arr == NULL)
        return FP_OK;
    fp__json_ptr(p, sizeof p, ptr, key);
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > max)
        FP_FAIL(err, FP_ECATALOG, p, "%s: expected an array of at most %d numbers, found %s", p,
                max, fp__json_describe(arr, d, sizeof d));
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsNumber(it) || it->valuedouble < min ||
            (sorted && n > 0 && it->valuedouble <= out[n - 1]))
            FP_FAIL(err, FP_ECATALOG, p, "%s/%d: expected a number above %g%s, found %s", p, n,
                    min, sorted ? " and above the previous entry" : "",
                    fp__json_describe(it, d, sizeof d));
        out[n++] = it->valuedouble;
    }
    *n_out = n;
    return FP_OK;
}

/* A JSON reader's failure inside a part: what it reports as FP_EINVAL is a catalog error. */
static fp_status as_catalog(fp_error *err)
{
    if (err && err->code == FP_EINVAL)
        err->code = FP_ECATALOG;
    return FP_ECATALOG;
}

/* The part's id and type (type its text, for messages). */
static fp_status part_id_type(fp_part *pt, const cJSON *o, const char *ptr, char type[16],
                              fp_error *err)
{
    static const char *const keys[] = {
        "id", "type", "name", "vendor", "price_usd", "price_per_m_usd", "power_w", "mtbf_hours",
        "source", "ports", "port_gbps", "cages", "cage", "breakouts", "ru", "reach_m", "fibre",
        "connector", "medium", "legs", "lengths_m", "interface_names", "protocol", "leg_cage",
        "cpo", "line_cards", "attenuation_db_per_km", "mated_pair_db", "budget_db", "uplink_ports",
        "uplink_gbps", "uplink_cage", "lanes", "lane_gbps", "uplink_lanes", "uplink_lane_gbps",
        "lane_source", "system_power_w", "mgmt_port", "hub_connector", NULL
    };
    char d[96];
    if (!cJSON_IsObject(o))
        FP_FAIL(err, FP_ECATALOG, ptr, "%s: expected a part object, found %s", ptr,
                fp__json_describe(o, d, sizeof d));
    if ((fp__json_check_keys(o, ptr, keys, err)) != FP_OK ||
        (fp__json_str(o, "id", ptr, pt->id, sizeof pt->id, err)) != FP_OK ||
        (fp__json_str(o, "type", ptr, type, 16, err)) != FP_OK)
        return as_catalog(err);
    if (pt->id[0] == '\0')
        FP_FAIL(err, FP_ECATALOG, ptr, "%s/id: every part needs a non-empty id", ptr);
    size_t t;
    for (t = 0; t < sizeof type_names / sizeof type_names[0]; t++)
        if (strcmp(type, type_names[t]) == 0)
            break;
    if (t == sizeof type_names / sizeof type_names[0])
        FP_FAIL(err, FP_ECATALOG, ptr,
                "%s/type: expected one of switch, nic, transceiver, cable, fibre for part \"%s\", found \"%s\"",
                ptr, pt->id, type);
    pt->type = (fp_part_type)t;
    return FP_OK;
}

/* Names, prices, power, reach, optics and connectors; protocol and co-packaged optics. */
static fp_status part_figures(fp_part *pt, const cJSON *o, const char *ptr, fp_error *err)
{
    char d[96];
    snprintf(pt->name, sizeof pt->name, "%s", pt->id);
    if ((fp__json_str(o, "name", ptr, pt->name, sizeof pt->name, err)) != FP_OK ||
        (fp__json_str(o, "vendor", ptr, pt->vendor, sizeof pt->vendor, err)) != FP_OK ||
        (fp__json_str(o, "source", ptr, pt->source, sizeof pt->source, err)) != FP_OK ||
        (fp__json_num(o, "price_usd", ptr, 0, 1e9, &pt->price_usd, err)) != FP_OK ||
        (fp__json_num(o, "price_per_m_usd", ptr, 0, 1e6, &pt->price_per_m_usd, err)) != FP_OK ||
        (fp__json_num(o, "power_w", ptr, 0, 1e6, &pt->power_w, err)) != FP_OK ||
        (fp__json_num(o, "system_power_w", ptr, 0, 200000, &pt->system_power_w, err)) != FP_OK ||
        (fp__json_num(o, "mtbf_hours", ptr, 0, 1e12, &pt->mtbf_hours, err)) != FP_OK ||
        (fp__json_str(o, "cage", ptr, pt->cage, sizeof pt->cage, err)) != FP_OK ||
        (fp__json_num(o, "reach_m", ptr, 0, 1e6, &pt->reach_m, err)) != FP_OK ||
        (fp__json_num(o, "attenuation_db_per_km", ptr, 0, 100, &pt->atten_db_per_km, err)) != FP_OK ||
        (fp__json_num(o, "mated_pair_db", ptr, 0, 10, &pt->mated_pair_db, err)) != FP_OK ||
        (fp__json_num(o, "budget_db", ptr, 0, 100, &pt->budget_db, err)) != FP_OK ||
        (fp__json_str(o, "fibre", ptr, pt->fibre, sizeof pt->fibre, err)) != FP_OK ||
        (fp__json_str(o, "connector", ptr, pt->connector, sizeof pt->connector, err)) != FP_OK ||
        (fp__json_str(o, "medium", ptr, pt->medium, sizeof pt->medium, err)) != FP_OK ||
        (fp__json_str(o, "interface_names", ptr, pt->interface_names,
                           sizeof pt->interface_names, err)) != FP_OK ||
        (fp__json_str(o, "protocol", ptr, pt->protocol, sizeof pt->protocol, err)) != FP_OK ||
        (fp__json_str(o, "leg_cage", ptr, pt->leg_cage, sizeof pt->leg_cage, err)) != FP_OK ||
        (fp__json_str(o, "uplink_cage", ptr, pt->uplink_cage, sizeof pt->uplink_cage, err)) != FP_OK ||
        (fp__json_str(o, "lane_source", ptr, pt->lane_source, sizeof pt->lane_source, err)) != FP_OK ||
        (fp__json_str(o, "mgmt_port", ptr, pt->mgmt_port, sizeof pt->mgmt_port, err)) != FP_OK ||
        (fp__json_str(o, "hub_connector", ptr, pt->hub_connector, sizeof pt->hub_connector,
                      err)) != FP_OK)
        return as_catalog(err);
    pt->priced = cJSON_GetObjectItemCaseSensitive(o, "price_usd") != NULL;
    pt->powered = cJSON_GetObjectItemCaseSensitive(o, "power_w") != NULL;
    if (pt->protocol[0] == '\0')
        snprintf(pt->protocol, sizeof pt->protocol, "both");
    if (strcmp(pt->protocol, "infiniband") != 0 && strcmp(pt->protocol, "ethernet") != 0 &&
        strcmp(pt->protocol, "both") != 0)
        FP_FAIL(err, FP_ECATALOG, ptr,
                "%s/protocol: expected \"infiniband\", \"ethernet\" or \"both\" for part \"%s\", found \"%s\"",
                ptr, pt->id, pt->protocol);
    const cJSON *cpo = cJSON_GetObjectItemCaseSensitive(o, "cpo");
    if (cpo != NULL) {
        if (!cJSON_IsBool(cpo))
            FP_FAIL(err, FP_ECATALOG, ptr, "%s/cpo: expected true or false, found %s", ptr,
                    fp__json_describe(cpo, d, sizeof d));
        pt->cpo = cJSON_IsTrue(cpo);
    }
    return FP_OK;
}

/* Ports, cages, units, legs, line cards, uplink ports, breakouts (*nbr of them) and stock
 * lengths. */
static fp_status part_counts(fp_part *pt, const cJSON *o, const char *ptr, int *nbr,
                             fp_error *err)
{
    double br[FP_MAX_BREAKOUTS];
    pt->legs = 1;
    *nbr = 0;
    if ((fp__json_i32(o, "ports", ptr, 1, 4096, &pt->ports, err)) != FP_OK ||
        (fp__json_i32(o, "port_gbps", ptr, 1, 100000, &pt->port_gbps, err)) != FP_OK ||
        (fp__json_i32(o, "cages", ptr, 1, 4096, &pt->cages, err)) != FP_OK ||
        (fp__json_i32(o, "ru", ptr, 1, 60, &pt->ru, err)) != FP_OK ||
        (fp__json_i32(o, "legs", ptr, 1, 8, &pt->legs, err)) != FP_OK ||
        (fp__json_i32(o, "line_cards", ptr, 1, 64, &pt->line_cards, err)) != FP_OK ||
        (fp__json_i32(o, "uplink_ports", ptr, 1, 64, &pt->uplink_ports, err)) != FP_OK ||
        (fp__json_i32(o, "uplink_gbps", ptr, 1, 100000, &pt->uplink_gbps, err)) != FP_OK ||
        (fp__json_i32(o, "lanes", ptr, 1, 64, &pt->lanes, err)) != FP_OK ||
        (fp__json_i32(o, "lane_gbps", ptr, 1, 100000, &pt->lane_gbps, err)) != FP_OK ||
        (fp__json_i32(o, "uplink_lanes", ptr, 1, 64, &pt->uplink_lanes, err)) != FP_OK ||
        (fp__json_i32(o, "uplink_lane_gbps", ptr, 1, 100000, &pt->uplink_lane_gbps, err)) != FP_OK)
        return as_catalog(err);
    if ((read_num_array(o, "breakouts", ptr, br, FP_MAX_BREAKOUTS, nbr, 1, 2, err)) != FP_OK ||
        (read_num_array(o, "lengths_m", ptr, pt->lengths_m, FP_MAX_LENGTHS, &pt->n_lengths, 1,
                             0.01, err)) != FP_OK)
        return as_catalog(err);
    for (int i = 0; i < *nbr; i++) {
        /* Checked before the conversion: a double out of int's range is undefined to convert. */
        if (!(br[i] <= 64) || br[i] != floor(br[i])) {
            char w[200];
            snprintf(w, sizeof w, "%s/breakouts/%d", ptr, i);
            FP_FAIL(err, FP_ECATALOG, w, "%s: expected a whole number of ways from 2 to 64, found %.17g",
                    w, br[i]);
        }
        pt->breakouts[i] = (int)br[i];
    }
    return FP_OK;
}

/* What a switch or NIC needs: ports and speed, cages dividing the ports, port names that
 * parse, breakouts dividing the speed; a co-packaged-optics switch its fibre and reach; uplink
 * ports only on a fixed switch. */
static fp_status check_port_part(fp_part *pt, const cJSON *o, const char *ptr, const char *type,
                                 int nbr, fp_error *err)
{
    char d[96];
    if (pt->ports == 0 || pt->port_gbps == 0)
        FP_FAIL(err, FP_ECATALOG, ptr, "%s: %s \"%s\" needs \"ports\" and \"port_gbps\"", ptr,
                type, pt->id);
    if (pt->type == FP_PART_SWITCH && pt->ru == 0)
        pt->ru = 1;
    /* A NIC with rack units is a system part (the compute ports of a whole server): its units
     * become the layout's server_ru, which is 1 .. 16 (docs/spec.md). */
    if (pt->type == FP_PART_NIC && pt->ru > 16)
        FP_FAIL(err, FP_ECATALOG, fp__json_ptr(d, sizeof d, ptr, "ru"),
                "%s/ru: nic \"%s\" is a system part of %dU; expected 1 .. 16, the range of the layout's server_ru",
                ptr, pt->id, pt->ru);
    if (pt->cages == 0)
        pt->cages = pt->ports;
    /* Every cage holds the same number of ports: the cabling lays ports out cage by cage. */
    if (pt->ports % pt->cages != 0)
        FP_FAIL(err, FP_ECATALOG, fp__json_ptr(d, sizeof d, ptr, "cages"),
                "%s/cages: %d cages do not divide %s \"%s\"'s %d ports; expected a divisor of %d (e.g. %d for twin-port cages)",
                ptr, pt->cages, type, pt->id, pt->ports, pt->ports,
                pt->ports % 2 == 0 ? pt->ports / 2 : pt->ports);
    if (cJSON_GetObjectItemCaseSensitive(o, "interface_names")) {
        char why[200], p[200];
        fp__json_ptr(p, sizeof p, ptr, "interface_names");
        if (fp__port_template_check(pt->interface_names, why, sizeof why))
            FP_FAIL(err, FP_ECATALOG, p, "%s: %s", p, why);
    }
    for (int i = 0; i < nbr; i++)
        if (pt->port_gbps % pt->breakouts[i] != 0)
            FP_FAIL(err, FP_ECATALOG, ptr, "%s/breakouts/%d: %d does not divide the port speed %d", ptr,
                    i, pt->breakouts[i], pt->port_gbps);
    if (pt->ports % pt->cages != 0)
        FP_FAIL(err, FP_ECATALOG, ptr,
                "%s/cages: %s \"%s\" has %d ports in %d cages; expected a cage count that divides the ports evenly",
                ptr, type, pt->id, pt->ports, pt->cages);
    if (pt->cpo && (pt->type != FP_PART_SWITCH || pt->reach_m <= 0 ||
                    (strcmp(pt->fibre, "MMF") != 0 && strcmp(pt->fibre, "SMF") != 0) ||
                    pt->connector[0] == '\0'))
        FP_FAIL(err, FP_ECATALOG, ptr,
                "%s: co-packaged-optics part \"%s\" must be a switch with \"fibre\" (\"MMF\" or "
                "\"SMF\"), \"connector\" and \"reach_m\" for its ports",
                ptr, pt->id);
    if ((pt->uplink_ports > 0 || pt->uplink_gbps > 0 || pt->uplink_cage[0]) &&
        (pt->type != FP_PART_SWITCH || pt->uplink_ports == 0 || pt->uplink_gbps == 0 ||
         pt->cpo || pt->line_cards > 0))
        FP_FAIL(err, FP_ECATALOG, ptr,
                "%s: part \"%s\": uplink ports take a fixed switch (not co-packaged optics, not a "
                "chassis) with both \"uplink_ports\" and \"uplink_gbps\" (and optionally "
                "\"uplink_cage\")",
                ptr, pt->id);
    return FP_OK;
}

/* A copper cable: its speed, reach, stock lengths and medium. Twisted pair (medium "TP") is
 * the RJ45 cord and only it: an RJ45 cage takes no direct-attach cable, and a BASE-T channel
 * is at most 100 m at any category (TIA-568.2-D: 90 m permanent link plus 10 m of cords;
 * 1000BASE-T, IEEE 802.3ab, and 10GBASE-T on Cat6A, IEEE 802.3an). */
static fp_status check_cable(const fp_part *pt, const char *ptr, fp_error *err)
{
    const int tp = strcmp(pt->medium, "TP") == 0;
    const int rj45 = strcmp(pt->cage, "RJ45") == 0 || strcmp(pt->leg_cage, "RJ45") == 0;
    if (pt->port_gbps == 0 || pt->reach_m <= 0 || pt->n_lengths == 0 ||
        (strcmp(pt->medium, "DAC") != 0 && strcmp(pt->medium, "ACC") != 0 &&
         strcmp(pt->medium, "AEC") != 0 && !tp))
        FP_FAIL(err, FP_ECATALOG, ptr,
                "%s: cable \"%s\" needs \"port_gbps\", \"reach_m\", \"lengths_m\" and \"medium\" (\"DAC\", \"ACC\", \"AEC\" or \"TP\")",
                ptr, pt->id);
    char where[160];
    if (tp != rj45 || (tp && pt->leg_cage[0] && strcmp(pt->leg_cage, "RJ45") != 0)) {
        snprintf(where, sizeof where, "%s/medium", ptr);
        FP_FAIL(err, FP_ECATALOG, where,
                "%s: cable \"%s\": twisted pair (\"TP\") is the RJ45 cord, RJ45 at both ends; "
                "found medium \"%s\", cage \"%s\", leg_cage \"%s\"",
                where, pt->id, pt->medium, pt->cage, pt->leg_cage);
    }
    if (tp && pt->reach_m > 100 + 1e-9) {
        snprintf(where, sizeof where, "%s/reach_m", ptr);
        FP_FAIL(err, FP_ECATALOG, where,
                "%s: cable \"%s\": a twisted-pair channel is at most 100 m (TIA-568.2-D), found %g m",
                where, pt->id, pt->reach_m);
    }
    return FP_OK;
}

/* Required fields per type: what the planner needs to use the part. */
static fp_status check_required(fp_part *pt, const cJSON *o, const char *ptr, const char *type,
                                int nbr, fp_error *err)
{
    if (pt->hub_connector[0] && (pt->type != FP_PART_FIBRE || pt->legs < 2)) {
        char w[200];
        FP_FAIL(err, FP_ECATALOG, fp__json_ptr(w, sizeof w, ptr, "hub_connector"),
                "%s/hub_connector: part \"%s\": a hub connector is a fan-out's (a fibre with \"legs\" of 2 or more)",
                ptr, pt->id);
    }
    switch (pt->type) {
    case FP_PART_SWITCH:
    case FP_PART_NIC:
        return check_port_part(pt, o, ptr, type, nbr, err);
    case FP_PART_TRANSCEIVER:
        if (pt->ports == 0 || pt->port_gbps == 0 || pt->reach_m <= 0 ||
            (strcmp(pt->fibre, "MMF") != 0 && strcmp(pt->fibre, "SMF") != 0))
            FP_FAIL(err, FP_ECATALOG, ptr,
                    "%s: transceiver \"%s\" needs \"ports\", \"port_gbps\", \"reach_m\" and \"fibre\" (\"MMF\" or \"SMF\")",
                    ptr, pt->id);
        break;
    case FP_PART_CABLE:
        return check_cable(pt, ptr, err);
    case FP_PART_FIBRE:
        /* A fitting of structured cabling (patch panel, adapter plate, cassette) is sold by
         * the piece: connector "panel", "plate" or "cassette", no lengths and no fibre. */
        if (pt->n_lengths == 0 && pt->fibre[0] == '\0' &&
            (strcmp(pt->connector, "panel") == 0 || strcmp(pt->connector, "plate") == 0 ||
             strcmp(pt->connector, "cassette") == 0))
            break;
        if (pt->n_lengths == 0 || (strcmp(pt->fibre, "MMF") != 0 && strcmp(pt->fibre, "SMF") != 0))
            FP_FAIL(err, FP_ECATALOG, ptr,
                    "%s: fibre \"%s\" needs \"lengths_m\" and \"fibre\" (\"MMF\" or \"SMF\")", ptr, pt->id);
        break;
    }
    return FP_OK;
}

/* Lane figures: both of a pair or neither, multiplying to the speed they describe (a port,
 * a transceiver port, a cable end or leg); on the parts that have an electrical interface. */
static fp_status check_lanes(const fp_part *pt, const char *ptr, fp_error *err)
{
    const int electrical = pt->type != FP_PART_FIBRE && !(pt->type == FP_PART_SWITCH && pt->cpo);
    char w[200];
    if ((pt->lanes || pt->lane_gbps) &&
        (!electrical || pt->lanes * pt->lane_gbps != pt->port_gbps))
        FP_FAIL(err, FP_ECATALOG, fp__json_ptr(w, sizeof w, ptr, "lanes"),
                "%s/lanes: part \"%s\": \"lanes\" x \"lane_gbps\" (%d x %dG) must equal its port "
                "speed %dG, on a switch, NIC, transceiver or copper cable (a co-packaged port has "
                "no pluggable interface)",
                ptr, pt->id, pt->lanes, pt->lane_gbps, pt->port_gbps);
    if ((pt->uplink_lanes || pt->uplink_lane_gbps) &&
        (pt->uplink_ports == 0 || pt->uplink_lanes * pt->uplink_lane_gbps != pt->uplink_gbps))
        FP_FAIL(err, FP_ECATALOG, fp__json_ptr(w, sizeof w, ptr, "uplink_lanes"),
                "%s/uplink_lanes: part \"%s\": \"uplink_lanes\" x \"uplink_lane_gbps\" (%d x %dG) must equal its uplink speed %dG",
                ptr, pt->id, pt->uplink_lanes, pt->uplink_lane_gbps, pt->uplink_gbps);
    return FP_OK;
}

static fp_status parse_part(fp_part *pt, const cJSON *o, const char *ptr, fp_error *err)
{
    char type[16] = "";
    int nbr = 0;
    fp_status rc;
    memset(pt, 0, sizeof *pt);
    if ((rc = part_id_type(pt, o, ptr, type, err)) != FP_OK ||
        (rc = part_figures(pt, o, ptr, err)) != FP_OK ||
        (rc = part_counts(pt, o, ptr, &nbr, err)) != FP_OK ||
        (rc = check_required(pt, o, ptr, type, nbr, err)) != FP_OK)
        return rc;
    if (pt->type != FP_PART_NIC && cJSON_GetObjectItemCaseSensitive(o, "system_power_w")) {
        char d[96];
        FP_FAIL(err, FP_ECATALOG, fp__json_ptr(d, sizeof d, ptr, "system_power_w"),
                "%s/system_power_w: only a nic that is a system part (a whole server's compute ports) has a system power; \"%s\" is a %s",
                ptr, pt->id, type);
    }
    return check_lanes(pt, ptr, err);
}

static const fp_part *find(const fp_part *parts, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(parts[i].id, id) == 0)
            return &parts[i];
    return NULL;
}

/* A part's id with its position: sorting these by (id, position) puts repeats side by side. */
typedef struct id_at {
    const char *id;
    size_t at;
} id_at;

static int id_at_cmp(const void *a, const void *b)
{
    const id_at *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* Parse the file's parts into add[] up to the first bad one (*failed_at, its error in *perr;
 * (size_t)-1 when none), their ids and positions into ids[]. Returns how many parsed. */
static size_t parse_parts(const cJSON *arr, const char *base, fp_part *add, id_at *ids,
                          size_t *failed_at, fp_error *perr)
{
    const cJSON *it;
    char p[200];
    size_t n_add = 0;
    *failed_at = (size_t)-1;
    memset(perr, 0, sizeof *perr);
    cJSON_ArrayForEach(it, arr) {
        snprintf(p, sizeof p, "%s/parts/%zu", base, n_add);
        if (parse_part(&add[n_add], it, p, perr) != FP_OK) {
            *failed_at = n_add;
            break;
        }
        ids[n_add].id = add[n_add].id;
        ids[n_add].at = n_add;
        n_add++;
    }
    return n_add;
}

/* The first part (by position) whose id an earlier part of the same file has: its position,
 * *first the earlier one's; (size_t)-1 when none. Sorts ids. */
static size_t first_repeat(id_at *ids, size_t n_add, size_t *first)
{
    size_t dup = (size_t)-1;
    *first = 0;
    qsort(ids, n_add, sizeof *ids, id_at_cmp);
    for (size_t k = 1; k < n_add; k++)
        if (strcmp(ids[k].id, ids[k - 1].id) == 0 &&
            (k < 2 || strcmp(ids[k - 2].id, ids[k].id) != 0) && ids[k].at < dup) {
            dup = ids[k].at;
            *first = ids[k - 1].at;
        }
    return dup;
}

/* The catalog's parts into parts[], those of add[] replacing parts of the same id and the
 * others appended, sorted; returns the count. old_ids is scratch for cat->n ids. */
static size_t merge_parts(const fp_catalog *cat, fp_part *parts, const fp_part *add,
                          size_t n_add, id_at *old_ids)
{
    size_t n = cat->n;
    if (cat->n)
        memcpy(parts, cat->parts, cat->n * sizeof *parts);
    for (size_t k = 0; k < cat->n; k++) {
        old_ids[k].id = parts[k].id;
        old_ids[k].at = k;
    }
    qsort(old_ids, cat->n, sizeof *old_ids, id_at_cmp);
    for (size_t k = 0; k < n_add; k++) {
        size_t lo = 0, hi = cat->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(old_ids[mid].id, add[k].id) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < cat->n && strcmp(old_ids[lo].id, add[k].id) == 0)
            parts[old_ids[lo].at] = add[k];
        else
            parts[n++] = add[k];
    }
    qsort(parts, n, sizeof *parts, part_cmp);
    return n;
}

/* Merge: n log n in the parts of both sides (each file part is parsed once, repeats are found
 * by sorting, and existing ids are found by binary search). */
fp_status fp_catalog_merge_string(fp_catalog *cat, const char *json, size_t len,
                                  const char *origin, fp_error *err)
{
    cJSON *root = NULL;
    const cJSON *arr;
    fp_part *parts = NULL, *add = NULL;
    id_at *ids = NULL, *old_ids = NULL;
    size_t cap, n_add = 0, failed_at = (size_t)-1;
    fp_status rc;
    fp_error perr;
    char base[160], p[200];
    if (cat == NULL || json == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_catalog_merge_string: NULL catalog or text");
    if (origin == NULL)
        origin = "<catalog>";
    if ((rc = fp__json_parse(&root, json, len, origin, err)) != FP_OK)
        return rc;
    snprintf(base, sizeof base, "%s:", origin);
    arr = cJSON_GetObjectItemCaseSensitive(root, "parts");
    if (!cJSON_IsObject(root) || !cJSON_IsArray(arr)) {
        cJSON_Delete(root);
        FP_FAIL(err, FP_ECATALOG, base, "%s: expected an object with a \"parts\" array", origin);
    }
    /* Work on a copy so the catalog is unchanged on failure. */
    size_t m = (size_t)cJSON_GetArraySize(arr);
    cap = cat->n + m + 1;
    parts = malloc(cap * sizeof *parts);
    add = malloc((m + 1) * sizeof *add);
    ids = malloc((m + 1) * sizeof *ids);
    old_ids = malloc((cat->n + 1) * sizeof *old_ids);
    if (parts == NULL || add == NULL || ids == NULL || old_ids == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, origin, "out of memory reading catalog %s", origin);
        goto out;
    }
    /* Parse up to the first bad part; its error is reported unless a repeated id comes first
     * (the order a reader scanning the file would meet them). */
    n_add = parse_parts(arr, base, add, ids, &failed_at, &perr);
    /* A duplicate inside one file is a mistake; across files it is an override. */
    size_t first, dup = first_repeat(ids, n_add, &first);
    if (dup != (size_t)-1) {
        snprintf(p, sizeof p, "%s/parts/%zu", base, dup);
        rc = fp__error_set(err, FP_ECATALOG, p, "%s/id: part \"%s\" is defined twice (also at /parts/%zu)",
                           p, add[dup].id, first);
        goto out;
    }
    if (failed_at != (size_t)-1) {
        if (err && err->code == FP_OK)
            *err = perr;
        rc = perr.code != FP_OK ? perr.code : FP_ECATALOG;
        goto out;
    }
    /* Replace parts whose id exists, append the others. */
    size_t n = merge_parts(cat, parts, add, n_add, old_ids);
    free(cat->parts);
    cat->parts = parts;
    cat->n = n;
    cat->cap = cap;
    parts = NULL;
    rc = FP_OK;
out:
    free(parts);
    free(add);
    free(ids);
    free(old_ids);
    cJSON_Delete(root);
    return rc;
}

fp_status fp_catalog_merge_file(fp_catalog *cat, const char *path, fp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (cat == NULL || path == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_catalog_merge_file: %s is NULL", cat ? "path" : "cat");
    fp_status rc = fp_read_file(path, FP_FILE_CATALOG, &text, &len, err);
    /* A NUL inside the file is refused by the parser (FP_EPARSE, its offset). */
    if (rc == FP_OK)
        rc = fp_catalog_merge_string(cat, text, len, path, err);
    free(text);
    return rc;
}

fp_status fp_catalog_new(fp_catalog **out, fp_error *err)
{
    fp_status rc;
    if (out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_catalog_new: out is NULL");
    *out = NULL;
    fp_catalog *cat = calloc(1, sizeof *cat);
    if (cat == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory creating the catalog");
    rc = fp_catalog_merge_string(cat, fp__catalog_json, fp__catalog_json_len,
                                 "templates/catalog.json", err);
    if (rc != FP_OK) {
        fp_catalog_free(cat);
        return rc;
    }
    *out = cat;
    return FP_OK;
}

size_t fp_catalog_count(const fp_catalog *cat)
{
    return cat ? cat->n : 0;
}

const fp_part *fp_catalog_part(const fp_catalog *cat, size_t i)
{
    return cat && i < cat->n ? &cat->parts[i] : NULL;
}

const fp_part *fp_catalog_find(const fp_catalog *cat, const char *id)
{
    return cat && id ? find(cat->parts, cat->n, id) : NULL;
}

size_t fp_catalog_suggest(const fp_catalog *cat, const char *id, fp_part_type type,
                          const char **out, size_t max)
{
    size_t k = 0;
    if (cat == NULL || id == NULL || out == NULL)
        return 0;
    /* Rank by (substring match first, then edit distance, then id) with a simple selection. */
    int used[512] = { 0 };
    for (; k < max; k++) {
        int best = 1 << 30;
        size_t bi = (size_t)-1;
        for (size_t i = 0; i < cat->n && i < 512; i++) {
            const fp_part *p = &cat->parts[i];
            if (p->type != type || used[i])
                continue;
            int dist = fp__edit_distance(id, p->id);
            /* also against the id without its vendor prefix ("sn5600" for "nvidia-sn5600") */
            const char *dash = strchr(p->id, '-');
            if (dash && fp__edit_distance(id, dash + 1) < dist)
                dist = fp__edit_distance(id, dash + 1);
            if (id[0] && strstr(p->id, id) != NULL)
                dist = 0;
            if (dist < best) {
                best = dist;
                bi = i;
            }
        }
        if (bi == (size_t)-1 || best > (int)strlen(id) / 2 + 4)
            break;
        used[bi] = 1;
        out[k] = cat->parts[bi].id;
    }
    return k;
}

void fp_catalog_free(fp_catalog *cat)
{
    if (cat == NULL)
        return;
    free(cat->parts);
    free(cat);
}

fp_status fp__part_parse_inline(fp_part *pt, const cJSON *o, const char *ptr, fp_part_type type,
                                fp_error *err)
{
    /* An inline part is a catalog part without id and type: add both, then parse as usual. */
    cJSON *copy = cJSON_Duplicate(o, 1);
    fp_status rc;
    if (copy == NULL)
        FP_FAIL(err, FP_ENOMEM, ptr, "out of memory");
    if (cJSON_GetObjectItemCaseSensitive(copy, "id") == NULL)
        cJSON_AddStringToObject(copy, "id", "custom");
    if (cJSON_GetObjectItemCaseSensitive(copy, "type") == NULL)
        cJSON_AddStringToObject(copy, "type", fp_part_type_name(type));
    rc = parse_part(pt, copy, ptr, err);
    cJSON_Delete(copy);
    if (rc != FP_OK)
        return rc;
    if (pt->type != type)
        FP_FAIL(err, FP_EINVAL, ptr, "%s: expected a %s, found a %s", ptr, fp_part_type_name(type),
                fp_part_type_name(pt->type));
    if (strcmp(pt->id, "custom") == 0) {
        snprintf(pt->id, sizeof pt->id, "custom-%s-%dx%dg", type == FP_PART_NIC ? "nic" : "switch",
                 pt->ports, pt->port_gbps);
        if (strcmp(pt->name, "custom") == 0)
            snprintf(pt->name, sizeof pt->name, "%d x %dG %s (from the spec)", pt->ports,
                     pt->port_gbps, type == FP_PART_NIC ? "NIC" : "switch");
        if (pt->source[0] == '\0')
            snprintf(pt->source, sizeof pt->source, "given inline in the spec");
    }
    return FP_OK;
}

static const char *const medium_names[FP_MEDIUM_COUNT] = { "DAC", "ACC", "AEC", "MMF", "SMF", "TP" };

const char *fp_medium_name(fp_medium m)
{
    return (unsigned)m < FP_MEDIUM_COUNT ? medium_names[m] : "unknown";
}
