/* fabplan — the physical sections of a spec: layout, media policy, BOM spares, cable overrides.
 *
 * Everything here resolves to plain numbers in fp_phys_spec; the media parts are copied out of
 * the catalog so the plan outlives it. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "spec/json_read.h"

static const char *const boundary_keys[] = { "nic-leaf", "leaf-spine", "spine-core",
                                             "core-super-core" };
static const char *const spare_keys[] = { "switch", "nic", "transceiver", "copper", "fibre", NULL };

static void defaults(fp_phys_spec *ps)
{
    memset(ps, 0, sizeof *ps);
    ps->rack_units = 42;
    ps->rack_width_m = 0.6;
    ps->rack_depth_m = 1.2;
    ps->aisle_m = 1.2;
    ps->servers_per_rack = 4;
    ps->server_ru = 8;              /* DGX/HGX H100 class eight-GPU server */
    ps->server_power_w = 10200;     /* DGX H100 maximum system power */
    ps->racks_per_row = 0;          /* auto: power-limited, at most 24 racks (docs/layout.md) */
    ps->halls = 0;                  /* auto: from hall_power_limit_w */
    ps->hall_gap_m = 20;
    ps->leaf_place = FP_LEAF_MIDDLE;
    ps->spine_place = FP_SPINE_POD;
    ps->max_switches_per_rack = 16;
    ps->max_cords_per_rack = 512;   /* 8 x 64-port switches: see docs/layout.md */
    ps->spine_rack_share = 0.25;
    ps->network_rack_width_m = 0.8;
    ps->cross_aisle_m = 1.2;
    ps->rows_per_line = 0;
    ps->rack_power_limit_w = 45000;
    ps->row_power_limit_w = 920000;     /* 1,600 A busway at 415 V, loaded to 80 % */
    ps->hall_power_limit_w = 30e6;
    ps->tray_width_mm = 600;
    ps->tray_depth_mm = 150;
    ps->tray_fill_max = 0.5;
    ps->tray_tiers = 3;             /* more tiers over rows that need them: docs/layout.md */
    ps->tray_height_m = 0.3;
    ps->service_loop_m = 0.3;
    ps->slack_pct = 5;
    for (int b = 0; b < FP_MAX_TIERS; b++)
        ps->media_allowed[b] = (1u << FP_MEDIUM_COUNT) - 1;
    ps->spares[2] = ps->spares[3] = ps->spares[4] = 0.02;
}

/* The layout's choices by name: leaf racks (middle, end, top-of-rack), spine racks (pod,
 * central) and cabling (direct, structured). */
static fp_status resolve_places(fp_phys_spec *ps, const char *place, const char *spines,
                                const char *cabling, fp_error *err)
{
    if (strcmp(place, "middle") == 0)
        ps->leaf_place = FP_LEAF_MIDDLE;
    else if (strcmp(place, "end") == 0)
        ps->leaf_place = FP_LEAF_END;
    else if (strcmp(place, "top-of-rack") == 0)
        ps->leaf_place = FP_LEAF_TOR;
    else
        FP_FAIL(err, FP_EINVAL, "/layout/leaf_racks",
                "/layout/leaf_racks: expected \"middle\", \"end\" or \"top-of-rack\", found \"%s\"",
                place);
    if (strcmp(spines, "pod") == 0)
        ps->spine_place = FP_SPINE_POD;
    else if (strcmp(spines, "central") == 0)
        ps->spine_place = FP_SPINE_CENTRAL;
    else
        FP_FAIL(err, FP_EINVAL, "/layout/spine_racks",
                "/layout/spine_racks: expected \"pod\" (network racks beside each pod) or \"central\" (central network rows), found \"%s\"",
                spines);
    if (strcmp(cabling, "direct") == 0 || strcmp(cabling, "structured") == 0)
        ps->structured = cabling[0] == 's';
    else
        FP_FAIL(err, FP_EINVAL, "/layout/cabling",
                "/layout/cabling: expected \"direct\" (one cord end to end) or \"structured\" (a patch panel at each end), found \"%s\"",
                cabling);
    return FP_OK;
}

/* layout.rack_fixtures: at most FP_MAX_FIXTURES entries {name, u, ru, count, power_w}, each
 * inside the rack (ru_rack units) and none on another's units. */
static fp_status resolve_fixtures(fp_phys_spec *ps, const cJSON *a, int ru_rack, fp_error *err)
{
    static const char *const keys[] = { "name", "u", "ru", "count", "power_w", NULL };
    char d[96], ptr[64];
    uint8_t taken[61] = { 0 };
    if (a == NULL)
        return FP_OK;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > FP_MAX_FIXTURES)
        FP_FAIL(err, FP_EINVAL, "/layout/rack_fixtures",
                "/layout/rack_fixtures: expected a list of at most %d fixtures ({\"name\", \"u\", "
                "\"ru\", \"count\", \"power_w\"}), found %s",
                FP_MAX_FIXTURES, fp__json_describe(a, d, sizeof d));
    for (int i = 0; i < cJSON_GetArraySize(a); i++) {
        const cJSON *o = cJSON_GetArrayItem(a, i);
        fp_fixture *f = &ps->fixtures[i];
        int64_t u = 0, ru = 1, count = 1;
        fp_status rc;
        fp__json_ptr_index(ptr, sizeof ptr, "/layout/rack_fixtures", i);
        memset(f, 0, sizeof *f);
        if (!cJSON_IsObject(o))
            FP_FAIL(err, FP_EINVAL, ptr, "%s: expected a fixture object, found %s", ptr,
                    fp__json_describe(o, d, sizeof d));
        if ((rc = fp__json_check_keys(o, ptr, keys, err)) != FP_OK ||
            (rc = fp__json_str(o, "name", ptr, f->name, sizeof f->name, err)) != FP_OK ||
            (rc = fp__json_int(o, "u", ptr, 1, 60, &u, err)) != FP_OK ||
            (rc = fp__json_int(o, "ru", ptr, 1, 16, &ru, err)) != FP_OK ||
            (rc = fp__json_int(o, "count", ptr, 1, 60, &count, err)) != FP_OK ||
            (rc = fp__json_num(o, "power_w", ptr, 0, 200000, &f->power_w, err)) != FP_OK)
            return rc;
        if (f->name[0] == '\0' || u == 0)
            FP_FAIL(err, FP_EINVAL, ptr, "%s: a fixture needs \"name\" and \"u\" (its lowest unit)", ptr);
        if (u + ru * count - 1 > ru_rack)
            FP_FAIL(err, FP_EINVAL, ptr,
                    "%s: %s: %lld of %lldU from U%lld end at U%lld, above the %dU rack", ptr, f->name,
                    (long long)count, (long long)ru, (long long)u, (long long)(u + ru * count - 1),
                    ru_rack);
        for (int64_t k = u; k < u + ru * count; k++) {
            if (taken[k])
                FP_FAIL(err, FP_EINVAL, ptr, "%s: %s takes U%lld, which %s takes too", ptr,
                        f->name, (long long)k, ps->fixtures[taken[k] - 1].name);
            taken[k] = (uint8_t)(i + 1);
        }
        f->u = (int)u;
        f->ru = (int)ru;
        f->count = (int)count;
        ps->fixture_units += f->ru * f->count;
        ps->fixture_power_w += f->power_w * f->count;
    }
    ps->n_fixtures = cJSON_GetArraySize(a);
    return FP_OK;
}

static fp_status resolve_layout(fp_phys_spec *ps, const cJSON *l, fp_error *err)
{
    static const char *const keys[] = { "rack_units", "rack_width_m", "rack_depth_m", "aisle_m",
                                        "servers_per_rack", "server_ru", "server_power_w",
                                        "racks_per_row", "halls", "hall_gap_m", "leaf_racks",
                                        "spine_racks", "max_switches_per_rack",
                                        "max_cords_per_rack", "spine_rack_max_share",
                                        "network_rack_width_m", "cross_aisle_m", "rows_per_line",
                                        "rack_power_limit_w", "row_power_limit_w",
                                        "hall_power_limit_w", "cabling", "extra_mated_pairs",
                                        "tray_width_mm", "tray_depth_mm", "tray_fill_max", "tray_tiers",
                                        "spare_servers", "tray_height_m", "service_loop_m",
                                        "slack_percent", "rack_fixtures", NULL };
    int64_t ru = ps->rack_units, spr = ps->servers_per_rack, sru = ps->server_ru,
            rpr = ps->racks_per_row, halls = ps->halls, msw = ps->max_switches_per_rack,
            cords = ps->max_cords_per_rack, rpl = ps->rows_per_line, pairs = ps->extra_mated_pairs,
            tiers = ps->tray_tiers;
    char place[32] = "middle", spines[32] = "pod", cabling[32] = "direct";
    fp_status rc;
    if (l == NULL)
        return FP_OK;
    if ((rc = fp__json_check_keys(l, "/layout", keys, err)) != FP_OK ||
        (rc = fp__json_int(l, "rack_units", "/layout", 4, 60, &ru, err)) != FP_OK ||
        (rc = fp__json_num(l, "rack_width_m", "/layout", 0.3, 2, &ps->rack_width_m, err)) != FP_OK ||
        (rc = fp__json_num(l, "rack_depth_m", "/layout", 0.3, 3, &ps->rack_depth_m, err)) != FP_OK ||
        (rc = fp__json_num(l, "aisle_m", "/layout", 0.5, 10, &ps->aisle_m, err)) != FP_OK ||
        (rc = fp__json_int(l, "servers_per_rack", "/layout", 1, 64, &spr, err)) != FP_OK ||
        (rc = fp__json_int(l, "server_ru", "/layout", 1, 16, &sru, err)) != FP_OK ||
        (rc = fp__json_num(l, "server_power_w", "/layout", 0, 200000, &ps->server_power_w, err)) != FP_OK ||
        (rc = fp__json_int(l, "racks_per_row", "/layout", 0, 1000, &rpr, err)) != FP_OK ||
        (rc = fp__json_int_auto(l, "halls", "/layout", 1, 64, &halls, err)) != FP_OK ||
        (rc = fp__json_num(l, "hall_gap_m", "/layout", 0, 100000, &ps->hall_gap_m, err)) != FP_OK ||
        (rc = fp__json_str(l, "leaf_racks", "/layout", place, sizeof place, err)) != FP_OK ||
        (rc = fp__json_str(l, "spine_racks", "/layout", spines, sizeof spines, err)) != FP_OK ||
        (rc = fp__json_int(l, "max_switches_per_rack", "/layout", 1, 60, &msw, err)) != FP_OK ||
        (rc = fp__json_int(l, "max_cords_per_rack", "/layout", 1, 100000, &cords, err)) != FP_OK ||
        (rc = fp__json_num(l, "spine_rack_max_share", "/layout", 0.01, 1, &ps->spine_rack_share, err)) != FP_OK ||
        (rc = fp__json_num(l, "network_rack_width_m", "/layout", 0.3, 2, &ps->network_rack_width_m, err)) != FP_OK ||
        (rc = fp__json_num(l, "cross_aisle_m", "/layout", 0, 20, &ps->cross_aisle_m, err)) != FP_OK ||
        (rc = fp__json_int(l, "rows_per_line", "/layout", 0, 100, &rpl, err)) != FP_OK ||
        (rc = fp__json_num(l, "rack_power_limit_w", "/layout", 0, 1e7, &ps->rack_power_limit_w, err)) != FP_OK ||
        (rc = fp__json_num(l, "row_power_limit_w", "/layout", 0, 1e9, &ps->row_power_limit_w, err)) != FP_OK ||
        (rc = fp__json_num(l, "hall_power_limit_w", "/layout", 0, 1e11, &ps->hall_power_limit_w, err)) != FP_OK ||
        (rc = fp__json_str(l, "cabling", "/layout", cabling, sizeof cabling, err)) != FP_OK ||
        (rc = fp__json_int(l, "extra_mated_pairs", "/layout", 0, 20, &pairs, err)) != FP_OK ||
        (rc = fp__json_num(l, "tray_width_mm", "/layout", 50, 3000, &ps->tray_width_mm, err)) != FP_OK ||
        (rc = fp__json_num(l, "tray_depth_mm", "/layout", 20, 1000, &ps->tray_depth_mm, err)) != FP_OK ||
        (rc = fp__json_num(l, "tray_fill_max", "/layout", 0.05, 1, &ps->tray_fill_max, err)) != FP_OK ||
        (rc = fp__json_int(l, "tray_tiers", "/layout", 1, 6, &tiers, err)) != FP_OK ||
        (rc = fp__json_num(l, "spare_servers", "/layout", 0, 0.5, &ps->spare_servers, err)) != FP_OK ||
        (rc = fp__json_num(l, "tray_height_m", "/layout", 0, 5, &ps->tray_height_m, err)) != FP_OK ||
        (rc = fp__json_num(l, "service_loop_m", "/layout", 0, 10, &ps->service_loop_m, err)) != FP_OK ||
        (rc = fp__json_num(l, "slack_percent", "/layout", 0, 100, &ps->slack_pct, err)) != FP_OK)
        return rc;
    if ((rc = resolve_places(ps, place, spines, cabling, err)) != FP_OK ||
        (rc = resolve_fixtures(ps, cJSON_GetObjectItemCaseSensitive(l, "rack_fixtures"), (int)ru,
                               err)) != FP_OK)
        return rc;
    ps->rack_units = (int)ru;
    ps->servers_per_rack = (int)spr;
    ps->server_ru = (int)sru;
    ps->racks_per_row = (int)rpr;
    ps->halls = (int)halls;
    ps->max_switches_per_rack = (int)msw;
    ps->max_cords_per_rack = (int)cords;
    ps->rows_per_line = (int)rpl;
    ps->extra_mated_pairs = (int)pairs;
    ps->tray_tiers = (int)tiers;
    return FP_OK;
}

static int medium_from_name(const char *s)
{
    for (int m = 0; m < FP_MEDIUM_COUNT; m++)
        if (strcmp(s, fp_medium_name((fp_medium)m)) == 0)
            return m;
    return -1;
}

/* For a name that is not a medium but says one: a fibre grade, a cord category, a medium in
 * lower case. " (OM4 is a multimode fibre grade: MMF)" into buf, or "" (buf). */
static const char *medium_hint(char *buf, size_t n, const char *s)
{
    static const struct {
        const char *prefix, *what;
        fp_medium m;
    } says[] = {
        { "OM", "a multimode fibre grade", FP_MEDIUM_MMF },
        { "OS", "a single-mode fibre grade", FP_MEDIUM_SMF },
        { "CAT", "a twisted-pair cord category", FP_MEDIUM_TP },
        { "RJ45", "a twisted-pair connector", FP_MEDIUM_TP },
        { "UTP", "twisted pair", FP_MEDIUM_TP },
    };
    char up[16];
    size_t k = 0;
    for (; s[k] != '\0' && k + 1 < sizeof up; k++)
        up[k] = (char)toupper((unsigned char)s[k]);
    up[k] = '\0';
    buf[0] = '\0';
    if (s[k] != '\0')
        return buf;
    int m = medium_from_name(up);
    if (m >= 0) {
        snprintf(buf, n, " (media are named in capitals: %s)", up);
        return buf;
    }
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
        if (strncmp(up, says[i].prefix, strlen(says[i].prefix)) == 0) {
            snprintf(buf, n, " (%s is %s: %s)", s, says[i].what, fp_medium_name(says[i].m));
            break;
        }
    return buf;
}

/* A boundary's policy: a medium name forces it; an array lists the media allowed. */
static fp_status media_value(unsigned *out, const cJSON *v, const char *ptr, fp_error *err)
{
    char d[96], p[96], hint[96];
    unsigned mask = 0;
    if (cJSON_IsString(v)) {
        int m = medium_from_name(v->valuestring);
        if (m < 0)
            FP_FAIL(err, FP_EINVAL, ptr,
                    "%s: unknown medium \"%s\"%s; expected DAC, ACC, AEC, MMF, SMF or TP", ptr,
                    v->valuestring, medium_hint(hint, sizeof hint, v->valuestring));
        *out = 1u << m;
        return FP_OK;
    }
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
        FP_FAIL(err, FP_EINVAL, ptr,
                "%s: expected a medium (\"SMF\") or a non-empty list of media ([\"DAC\", \"MMF\"]), found %s",
                ptr, fp__json_describe(v, d, sizeof d));
    int i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, v) {
        fp__json_ptr_index(p, sizeof p, ptr, i++);
        int m = cJSON_IsString(it) ? medium_from_name(it->valuestring) : -1;
        if (m < 0)
            FP_FAIL(err, FP_EINVAL, p, "%s: expected DAC, ACC, AEC, MMF, SMF or TP, found %s%s", p,
                    fp__json_describe(it, d, sizeof d),
                    cJSON_IsString(it) ? medium_hint(hint, sizeof hint, it->valuestring) : "");
        mask |= 1u << m;
    }
    *out = mask;
    return FP_OK;
}

static fp_status resolve_media(fp_phys_spec *ps, const cJSON *m, fp_error *err)
{
    static const char *const keys[] = { "default", "nic-leaf", "leaf-spine", "spine-core",
                                        "core-super-core", NULL };
    fp_status rc;
    char p[96];
    if (m == NULL)
        return FP_OK;
    if ((rc = fp__json_check_keys(m, "/media", keys, err)) != FP_OK)
        return rc;
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(m, "default");
    if (def) {
        unsigned mask;
        if ((rc = media_value(&mask, def, "/media/default", err)) != FP_OK)
            return rc;
        for (int b = 0; b < FP_MAX_TIERS; b++)
            ps->media_allowed[b] = mask;
    }
    for (int b = 0; b < FP_MAX_TIERS; b++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, boundary_keys[b]);
        fp__json_ptr(p, sizeof p, "/media", boundary_keys[b]);
        if (v && (rc = media_value(&ps->media_allowed[b], v, p, err)) != FP_OK)
            return rc;
    }
    return FP_OK;
}

static fp_status resolve_bom(fp_phys_spec *ps, const cJSON *b, fp_error *err)
{
    static const char *const keys[] = { "spares", NULL };
    const cJSON *sp = NULL;
    fp_status rc;
    if (b == NULL)
        return FP_OK;
    if ((rc = fp__json_check_keys(b, "/bom", keys, err)) != FP_OK ||
        (rc = fp__json_obj(b, "spares", "/bom", &sp, err)) != FP_OK)
        return rc;
    if (sp == NULL)
        return FP_OK;
    if ((rc = fp__json_check_keys(sp, "/bom/spares", spare_keys, err)) != FP_OK)
        return rc;
    for (int i = 0; spare_keys[i]; i++)
        if ((rc = fp__json_num(sp, spare_keys[i], "/bom/spares", 0, 1, &ps->spares[i], err)) != FP_OK)
            return rc;
    return FP_OK;
}

static int part_index(const fp_phys_spec *ps, const char *id)
{
    for (int i = 0; i < ps->n_parts; i++)
        if (strcmp(ps->parts[i].id, id) == 0)
            return i;
    return -1;
}

static fp_status resolve_override(fp_phys_spec *ps, fp_override *o, const cJSON *e,
                                  const char *ptr, fp_error *err)
{
    static const char *const keys[] = { "cable", "a", "z", "length_m", "part", NULL };
    char part[48] = "", d[96];
    fp_status rc;
    memset(o, 0, sizeof *o);
    o->length_m = -1;
    o->part = -1;
    snprintf(o->where, sizeof o->where, "%s", ptr);
    if (!cJSON_IsObject(e))
        FP_FAIL(err, FP_EINVAL, ptr,
                "%s: expected {\"cable\": \"C0000012\", \"length_m\": 7} or {\"a\": \"dev port\", "
                "\"z\": \"dev port\", \"part\": \"id\"}, found %s",
                ptr, fp__json_describe(e, d, sizeof d));
    if ((rc = fp__json_check_keys(e, ptr, keys, err)) != FP_OK ||
        (rc = fp__json_str(e, "cable", ptr, o->cable, sizeof o->cable, err)) != FP_OK ||
        (rc = fp__json_str(e, "a", ptr, o->a, sizeof o->a, err)) != FP_OK ||
        (rc = fp__json_str(e, "z", ptr, o->z, sizeof o->z, err)) != FP_OK ||
        (rc = fp__json_num(e, "length_m", ptr, 0.1, 100000, &o->length_m, err)) != FP_OK ||
        (rc = fp__json_str(e, "part", ptr, part, sizeof part, err)) != FP_OK)
        return rc;
    if (o->cable[0] == '\0' && (o->a[0] == '\0' || o->z[0] == '\0'))
        FP_FAIL(err, FP_EINVAL, ptr, "%s: name the cable (\"cable\": \"C0000012\") or both ends (\"a\" and \"z\": \"device port\")",
                ptr);
    if (o->length_m < 0 && part[0] == '\0')
        FP_FAIL(err, FP_EINVAL, ptr, "%s: give \"length_m\", \"part\" or both", ptr);
    if (part[0]) {
        o->part = part_index(ps, part);
        if (o->part < 0 || ps->parts[o->part].type == FP_PART_TRANSCEIVER)
            FP_FAIL(err, FP_ECATALOG, ptr, "%s/part: \"%s\" is not a copper cable or fibre in the catalog",
                    ptr, part);
    }
    return FP_OK;
}

static fp_status not_a_list(const char *base, const cJSON *list, fp_error *err)
{
    char d[96];
    FP_FAIL(err, FP_EINVAL, base,
            "%s: expected a list of cable overrides (or a file holding {\"cables\": [...]}), found %s",
            base, fp__json_describe(list, d, sizeof d));
}

/* The list of cable overrides in the file a spec's "overrides" string names ({"cables": [...]}
 * or a bare list), read relative to base_dir (the spec's folder, as a user writing "overrides":
 * "cables-fix.json" beside the spec expects; the working folder when base_dir is NULL or "").
 * *list is detached: the caller deletes it. The one reader of that file: fp__phys_resolve and
 * fp_spec_inline_files both come here. */
fp_status fp__overrides_file(const cJSON *v, const char *base_dir, cJSON **list, fp_error *err)
{
    const char *base = "/overrides";
    char *text = NULL, path[4096];
    size_t len = 0;
    cJSON *file = NULL;
    *list = NULL;
    if (v->valuestring[0] == '\0')
        FP_FAIL(err, FP_EINVAL, base,
                "%s: expected a file name or a list of cable overrides, found the string \"\"", base);
    if (v->valuestring[0] != '/' && base_dir && base_dir[0])
        snprintf(path, sizeof path, "%s/%s", base_dir, v->valuestring);
    else
        snprintf(path, sizeof path, "%s", v->valuestring);
    fp_status rc = fp_read_file(path, FP_FILE_OVERRIDES, &text, &len, err);
    if (rc != FP_OK) {
        if (err) {
            /* Say which spec field named the file. */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s: %s", base, err->msg);
            snprintf(err->msg, sizeof err->msg, "%s", msg);
        }
        return rc;
    }
    /* The spec, not the user, names this file: its content is never quoted (a spec naming
     * /etc/shadow must not show its first line). */
    rc = fp__json_parse_quoted(&file, text, len, path, 0, err);
    free(text);
    if (rc != FP_OK)
        return rc;
    *list = cJSON_IsObject(file) ? cJSON_DetachItemFromObjectCaseSensitive(file, "cables") : file;
    if (*list != file)
        cJSON_Delete(file);
    if (!cJSON_IsArray(*list)) {
        rc = not_a_list(v->valuestring, *list, err);
        cJSON_Delete(*list);
        *list = NULL;
    }
    return rc;
}

static fp_status resolve_overrides(fp_phys_spec *ps, const cJSON *v, const char *base_dir,
                                   fp_error *err)
{
    cJSON *file = NULL;
    const cJSON *list = v;
    const char *base = "/overrides";
    char p[96];
    fp_status rc = FP_OK;
    if (v == NULL)
        return FP_OK;
    if (cJSON_IsString(v)) {
        if ((rc = fp__overrides_file(v, base_dir, &file, err)) != FP_OK)
            return rc;
        list = file;
        base = v->valuestring;
    }
    if (!cJSON_IsArray(list)) {
        rc = not_a_list(base, list, err);
        goto out;
    }
    int n = cJSON_GetArraySize(list), i = 0;
    ps->ov = calloc((size_t)(n ? n : 1), sizeof *ps->ov);
    if (ps->ov == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, base, "out of memory");
        goto out;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        fp__json_ptr_index(p, sizeof p, base, i);
        if ((rc = resolve_override(ps, &ps->ov[i], e, p, err)) != FP_OK)
            goto out;
        i++;
    }
    ps->n_ov = n;
out:
    cJSON_Delete(file);
    return rc;
}

static fp_status copy_media_parts(fp_phys_spec *ps, const fp_catalog *cat, fp_error *err)
{
    size_t n = 0, total = fp_catalog_count(cat);
    for (size_t i = 0; i < total; i++)
        if (fp_catalog_part(cat, i)->type >= FP_PART_TRANSCEIVER)
            n++;
    ps->parts = calloc(n ? n : 1, sizeof *ps->parts);
    if (ps->parts == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    for (size_t i = 0; i < total; i++) {
        const fp_part *p = fp_catalog_part(cat, i);
        if (p->type >= FP_PART_TRANSCEIVER)
            ps->parts[ps->n_parts++] = *p;
    }
    return FP_OK;
}

/* The servers of a rack must fit it, whichever of the layout and the system part gave their
 * units. */
static fp_status check_rack_fit(fp_phys_spec *ps, const fp_part *nic, fp_error *err)
{
    int need = ps->servers_per_rack * ps->server_ru;
    char from[96] = "";
    if (nic != NULL && nic->ru == ps->server_ru)
        snprintf(from, sizeof from, " (the height of system part \"%s\")", nic->id);
    if (need > ps->rack_units)
        FP_FAIL(err, FP_EINVAL, "/layout/servers_per_rack",
                "/layout/servers_per_rack: %d servers of %dU%s need %dU, more than the %dU rack",
                ps->servers_per_rack, ps->server_ru, from, need, ps->rack_units);
    /* The servers fill the units no fixture takes, from U1 up, each in whole free units. */
    uint8_t taken[62] = { 0 };
    for (int i = 0; i < ps->n_fixtures; i++)
        for (int k = 0; k < ps->fixtures[i].ru * ps->fixtures[i].count; k++)
            taken[ps->fixtures[i].u + k] = 1;
    int u = 1;
    for (int k = 0; k < ps->servers_per_rack; k++) {
        int run = 0;
        while (u + run <= ps->rack_units && run < ps->server_ru) {
            if (taken[u + run]) {
                u += run + 1;
                run = 0;
            } else {
                run++;
            }
        }
        if (run < ps->server_ru)
            FP_FAIL(err, FP_EINVAL, "/layout/rack_fixtures",
                    "/layout/rack_fixtures: the fixtures take %dU of the %dU rack, and the units "
                    "left hold %d of its %d servers of %dU%s; expected fewer servers_per_rack or "
                    "fixtures",
                    ps->fixture_units, ps->rack_units, k, ps->servers_per_rack, ps->server_ru,
                    from);
        ps->server_u[k] = (int16_t)u;
        u += ps->server_ru;
    }
    return FP_OK;
}

fp_status fp__phys_resolve(fp_phys_spec *ps, const cJSON *layout, const cJSON *media,
                           const cJSON *bom, const cJSON *overrides, const char *base_dir,
                           const fp_part *nic, const fp_catalog *cat, fp_error *err)
{
    fp_status rc;
    defaults(ps);
    /* A system part (nvidia-dgx-b200-sys: 10U, 14.3 kW) describes the whole server. */
    if (nic != NULL && nic->ru > 0)
        ps->server_ru = nic->ru;
    if (nic != NULL && nic->system_power_w > 0)
        ps->server_power_w = nic->system_power_w;
    if ((rc = copy_media_parts(ps, cat, err)) != FP_OK ||
        (rc = resolve_layout(ps, layout, err)) != FP_OK ||
        (rc = check_rack_fit(ps, nic, err)) != FP_OK ||
        (rc = resolve_media(ps, media, err)) != FP_OK ||
        (rc = resolve_bom(ps, bom, err)) != FP_OK ||
        (rc = resolve_overrides(ps, overrides, base_dir, err)) != FP_OK) {
        fp__phys_free(ps);
        return rc;
    }
    return FP_OK;
}

void fp__phys_free(fp_phys_spec *ps)
{
    if (ps == NULL)
        return;
    free(ps->parts);
    free(ps->ov);
    ps->parts = NULL;
    ps->ov = NULL;
    ps->n_parts = ps->n_ov = 0;
}
