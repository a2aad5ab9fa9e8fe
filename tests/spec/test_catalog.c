/* The parts catalog: built-in parts carry the datasheet facts, user files override by id. */
#include <criterion/criterion.h>
#include "helpers.h"

/* fp_catalog_merge_string with the length of a NUL-terminated text. */
static fp_status merge_text(fp_catalog *c, const char *json, const char *origin, fp_error *err)
{
    return fp_catalog_merge_string(c, json, strlen(json), origin, err);
}

static fp_catalog *cat_new(void)
{
    fp_catalog *c = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_catalog_new(&c, &err), FP_OK, "%s", err.msg);
    return c;
}

Test(catalog, builtin_has_reference_parts)
{
    fp_catalog *c = cat_new();
    const fp_part *qm = fp_catalog_find(c, "nvidia-qm9700");
    cr_assert_not_null(qm);
    cr_expect_eq(qm->type, FP_PART_SWITCH);
    cr_expect_eq(qm->ports, 64);
    cr_expect_eq(qm->port_gbps, 400);
    cr_expect_eq(qm->cages, 32);
    cr_expect_eq(qm->ru, 1);
    const fp_part *sn = fp_catalog_find(c, "nvidia-sn5600");
    cr_assert_not_null(sn);
    cr_expect_eq(sn->ports * 2, 128);
    cr_expect_eq(sn->port_gbps, 800);
    cr_expect_eq(sn->ru, 2);
    const fp_part *q3 = fp_catalog_find(c, "nvidia-q3400");
    cr_assert_not_null(q3);
    cr_expect_eq(q3->ports, 144);
    cr_expect_eq(q3->ru, 4);
    const fp_part *sr = fp_catalog_find(c, "nvidia-mma4z00-ns");
    cr_assert_not_null(sr);
    cr_expect_eq(sr->ports, 2);
    cr_expect_float_eq(sr->reach_m, 50, 1e-9);
    cr_expect_float_eq(sr->power_w, 15, 1e-9);
    cr_expect_str_eq(sr->fibre, "MMF");
    const fp_part *dr = fp_catalog_find(c, "nvidia-mms4x00-ns");
    cr_assert_not_null(dr);
    cr_expect_float_eq(dr->reach_m, 100, 1e-9);
    cr_expect_float_eq(dr->power_w, 17, 1e-9);
    const fp_part *fr = fp_catalog_find(c, "nvidia-mms4x50-nm");
    cr_assert_not_null(fr);
    cr_expect_float_eq(fr->reach_m, 2000, 1e-9);
    const fp_part *n400 = fp_catalog_find(c, "nvidia-mma4z00-ns400");
    cr_assert_not_null(n400);
    cr_expect_float_eq(n400->power_w, 9, 1e-9);
    /* every part says where its figures come from and gives a price and (but fibre) a power;
     * a price of 0 only for a DGX's own ports, which come with the system */
    for (size_t i = 0; i < fp_catalog_count(c); i++) {
        const fp_part *p = fp_catalog_part(c, i);
        cr_expect(p->source[0] != '\0', "%s has no source", p->id);
        cr_expect(p->priced, "%s has no price", p->id);
        cr_expect(p->powered || p->type == FP_PART_FIBRE, "%s has no power", p->id);
        cr_expect(p->price_usd > 0 || strstr(p->source, "part of the DGX system") != NULL,
                  "%s has a price of 0", p->id);
        cr_expect(fp_part_protocols(p) != 0, "%s has no protocol", p->id);
    }
    fp_catalog_free(c);
}

Test(catalog, sorted_by_type_then_id)
{
    fp_catalog *c = cat_new();
    for (size_t i = 1; i < fp_catalog_count(c); i++) {
        const fp_part *a = fp_catalog_part(c, i - 1), *b = fp_catalog_part(c, i);
        cr_expect(a->type < b->type || (a->type == b->type && strcmp(a->id, b->id) < 0));
    }
    cr_expect_null(fp_catalog_part(c, fp_catalog_count(c)));
    fp_catalog_free(c);
}

Test(catalog, user_file_overrides_and_adds)
{
    fp_catalog *c = cat_new();
    fp_error err = { 0 };
    size_t n = fp_catalog_count(c);
    const char *user = "{\"parts\":[{\"id\":\"nvidia-qm9700\",\"type\":\"switch\",\"ports\":64,\"port_gbps\":400,"
                       "\"price_usd\":19999,\"source\":\"our quote\"},"
                       "{\"id\":\"acme-256\",\"type\":\"switch\",\"ports\":256,\"port_gbps\":200}]}";
    cr_assert_eq(merge_text(c, user, "user.json", &err), FP_OK, "%s", err.msg);
    cr_expect_eq(fp_catalog_count(c), n + 1);
    cr_expect_float_eq(fp_catalog_find(c, "nvidia-qm9700")->price_usd, 19999, 1e-9);
    cr_expect_str_eq(fp_catalog_find(c, "nvidia-qm9700")->source, "our quote");
    cr_expect_eq(fp_catalog_find(c, "acme-256")->ports, 256);
    fp_catalog_free(c);
}

Test(catalog, bad_part_leaves_catalog_unchanged)
{
    fp_catalog *c = cat_new();
    fp_error err = { 0 };
    size_t n = fp_catalog_count(c);
    const char *bad = "{\"parts\":[{\"id\":\"ok\",\"type\":\"switch\",\"ports\":8,\"port_gbps\":100},"
                      "{\"id\":\"x\",\"type\":\"switch\",\"ports\":\"many\",\"port_gbps\":400}]}";
    cr_assert_eq(merge_text(c, bad, "user.json", &err), FP_ECATALOG);
    cr_expect(strstr(err.where, "user.json:/parts/1/ports") != NULL, "%s", err.where);
    cr_expect_eq(fp_catalog_count(c), n);
    cr_expect_null(fp_catalog_find(c, "ok"));

    memset(&err, 0, sizeof err);
    cr_expect_eq(merge_text(c, "{\"parts\":[{\"id\":\"t\",\"type\":\"transceiver\",\"ports\":1,\"port_gbps\":400}]}", "u", &err),
                 FP_ECATALOG);
    cr_expect(strstr(err.msg, "reach_m") != NULL, "%s", err.msg);
    memset(&err, 0, sizeof err);
    cr_expect_eq(merge_text(c, "{\"parts\":[{\"id\":\"t\",\"type\":\"router\"}]}", "u", &err), FP_ECATALOG);
    memset(&err, 0, sizeof err);
    cr_expect_eq(merge_text(c, "{\"parts\":[{\"id\":\"a\",\"type\":\"switch\",\"ports\":8,\"port_gbps\":100},"
                                            "{\"id\":\"a\",\"type\":\"switch\",\"ports\":8,\"port_gbps\":100}]}", "u", &err),
                 FP_ECATALOG);
    cr_expect(strstr(err.msg, "defined twice") != NULL, "%s", err.msg);
    memset(&err, 0, sizeof err);
    cr_expect_eq(merge_text(c, "{\"parts\": 3}", "u", &err), FP_ECATALOG);
    memset(&err, 0, sizeof err);
    cr_expect_eq(merge_text(c, "{\"parts\": [", "u", &err), FP_EPARSE);
    memset(&err, 0, sizeof err);
    cr_expect_eq(fp_catalog_merge_file(c, "/nonexistent.json", &err), FP_EIO);
    fp_catalog_free(c);
}

Test(catalog, suggest_close_ids)
{
    fp_catalog *c = cat_new();
    const char *near[3];
    size_t n = fp_catalog_suggest(c, "qm9700", FP_PART_SWITCH, near, 3);
    cr_assert_geq(n, 1);
    cr_expect_str_eq(near[0], "nvidia-qm9700");
    cr_expect_eq(fp_catalog_suggest(c, "zzzzzzzzzzzzzzzzzzzz", FP_PART_SWITCH, near, 3), 0);
    fp_catalog_free(c);
}

/* Twisted pair is a medium of its own ("TP", fp_medium FP_MEDIUM_TP, after the five older
 * ones so they keep their numbers): the built-in Cat6A cord carries it with the 100 m channel
 * of TIA-568.2-D, a user's RJ45 cord may say so, and the rules hold: a twisted-pair cable is
 * RJ45 at both ends, an RJ45 cable is twisted pair, and no channel is longer than 100 m. */
Test(catalog, twisted_pair_medium)
{
    cr_assert_str_eq(fp_medium_name(FP_MEDIUM_TP), "TP");
    cr_assert_eq(FP_MEDIUM_TP, 5);
    cr_assert_eq(FP_MEDIUM_COUNT, 6);
    cr_assert_str_eq(fp_medium_name(FP_MEDIUM_SMF), "SMF");
    cr_assert_str_eq(fp_medium_name(FP_MEDIUM_COUNT), "unknown");
    fp_catalog *c = cat_new();
    const fp_part *cat6a = fp_catalog_find(c, "generic-cat6a-rj45");
    cr_assert_not_null(cat6a);
    cr_assert_str_eq(cat6a->medium, "TP");
    cr_assert_float_eq(cat6a->reach_m, 100, 1e-9);
    cr_assert(strstr(cat6a->source, "TIA-568") != NULL, "%s", cat6a->source);
    for (size_t i = 0; i < fp_catalog_count(c); i++) {
        const fp_part *p = fp_catalog_part(c, i);
        if (p->type == FP_PART_CABLE)
            cr_assert_eq(strcmp(p->medium, "TP") == 0, strcmp(p->cage, "RJ45") == 0, "%s", p->id);
    }

    fp_error err = { 0 };
    const char *ok = "{\"parts\":[{\"id\":\"cat6-10g\",\"type\":\"cable\",\"port_gbps\":10,"
                     "\"cage\":\"RJ45\",\"medium\":\"TP\",\"legs\":1,\"reach_m\":100,"
                     "\"lengths_m\":[1,3,100]}]}";
    cr_assert_eq(merge_text(c, ok, "user.json", &err), FP_OK, "%s", err.msg);
    cr_assert_str_eq(fp_catalog_find(c, "cat6-10g")->medium, "TP");

    /* 150 m is beyond any BASE-T channel */
    memset(&err, 0, sizeof err);
    cr_assert_eq(merge_text(c, "{\"parts\":[{\"id\":\"long\",\"type\":\"cable\",\"port_gbps\":1,"
                               "\"cage\":\"RJ45\",\"medium\":\"TP\",\"reach_m\":150,\"lengths_m\":[150]}]}",
                            "u.json", &err), FP_ECATALOG);
    cr_expect(strstr(err.where, "/parts/0/reach_m") != NULL, "%s", err.where);
    cr_expect(strstr(err.msg, "100 m") != NULL && strstr(err.msg, "150") != NULL, "%s", err.msg);
    /* an RJ45 cord called DAC, a TP cable with QSFP28 ends, a TP splitter to QSFP28 legs */
    static const char *const wrong[] = {
        "{\"parts\":[{\"id\":\"w\",\"type\":\"cable\",\"port_gbps\":1,\"cage\":\"RJ45\","
        "\"medium\":\"DAC\",\"reach_m\":100,\"lengths_m\":[1]}]}",
        "{\"parts\":[{\"id\":\"w\",\"type\":\"cable\",\"port_gbps\":100,\"cage\":\"QSFP28\","
        "\"medium\":\"TP\",\"reach_m\":5,\"lengths_m\":[1]}]}",
        "{\"parts\":[{\"id\":\"w\",\"type\":\"cable\",\"port_gbps\":1,\"cage\":\"RJ45\","
        "\"leg_cage\":\"QSFP28\",\"medium\":\"TP\",\"reach_m\":5,\"lengths_m\":[1]}]}",
    };
    for (size_t k = 0; k < sizeof wrong / sizeof *wrong; k++) {
        memset(&err, 0, sizeof err);
        cr_assert_eq(merge_text(c, wrong[k], "u.json", &err), FP_ECATALOG, "case %zu", k);
        cr_expect(strstr(err.where, "/parts/0/medium") != NULL, "case %zu: %s", k, err.where);
        cr_expect(strstr(err.msg, "RJ45") != NULL, "case %zu: %s", k, err.msg);
    }
    cr_assert_null(fp_catalog_find(c, "w"));
    /* an unknown copper medium still names the five it takes */
    memset(&err, 0, sizeof err);
    cr_assert_eq(merge_text(c, "{\"parts\":[{\"id\":\"w\",\"type\":\"cable\",\"port_gbps\":1,"
                               "\"cage\":\"RJ45\",\"medium\":\"UTP\",\"reach_m\":100,\"lengths_m\":[1]}]}",
                            "u.json", &err), FP_ECATALOG);
    cr_expect(strstr(err.msg, "\"TP\"") != NULL, "%s", err.msg);
    fp_catalog_free(c);
}

Test(catalog, lane_figures)
{
    /* Every built-in switch, NIC, transceiver and copper cable says how its ports run: lanes
     * x lane rate equal to its port speed (a cable: per end or leg), with a source; a
     * co-packaged-optics switch has no pluggable interface and says so. Spot checks from the
     * datasheets: SN5600 800G = 8 x 100G (Spectrum-4, 100G SerDes), Q3400 800G = 4 x 200G
     * (XDR), the XDR 800G DR4 OSFP224 module 4 x 200G, the 800G DR8 8 x 100G. */
    fp_catalog *c = cat_new();
    for (size_t i = 0; i < fp_catalog_count(c); i++) {
        const fp_part *p = fp_catalog_part(c, i);
        if (p->type == FP_PART_FIBRE)
            continue;
        cr_expect(p->lane_source[0] != '\0', "%s: no lane_source", p->id);
        if (p->type == FP_PART_SWITCH && p->cpo)
            continue;
        cr_expect(p->lanes > 0 && p->lanes * p->lane_gbps == p->port_gbps, "%s: %d x %dG for %dG",
                  p->id, p->lanes, p->lane_gbps, p->port_gbps);
        if (p->uplink_ports > 0)
            cr_expect(p->uplink_lanes * p->uplink_lane_gbps == p->uplink_gbps, "%s", p->id);
    }
    static const struct { const char *id; int lanes, gbps; } spot[] = {
        { "nvidia-sn5600", 8, 100 }, { "nvidia-q3400", 4, 200 },
        { "generic-800g-dr4-osfp224", 4, 200 }, { "generic-800g-dr8-osfp", 8, 100 },
    };
    for (size_t k = 0; k < sizeof spot / sizeof *spot; k++) {
        const fp_part *p = fp_catalog_find(c, spot[k].id);
        cr_assert_not_null(p, "%s", spot[k].id);
        cr_expect_eq(p->lanes, spot[k].lanes, "%s", p->id);
        cr_expect_eq(p->lane_gbps, spot[k].gbps, "%s", p->id);
    }
    /* 4 x 100G does not make an 800G port; lanes on a fibre cord mean nothing */
    fp_error err = { 0 };
    cr_assert_eq(merge_text(c, "{\"parts\":[{\"id\":\"w\",\"type\":\"transceiver\",\"ports\":1,"
                               "\"port_gbps\":800,\"reach_m\":50,\"fibre\":\"MMF\",\"lanes\":4,"
                               "\"lane_gbps\":100}]}", "u.json", &err), FP_ECATALOG);
    cr_expect(strstr(err.where, "/parts/0/lanes") != NULL, "%s", err.where);
    cr_expect(strstr(err.msg, "4 x 100G") && strstr(err.msg, "800G"), "%s", err.msg);
    memset(&err, 0, sizeof err);
    cr_assert_eq(merge_text(c, "{\"parts\":[{\"id\":\"w\",\"type\":\"fibre\",\"fibre\":\"SMF\","
                               "\"lengths_m\":[1],\"lanes\":1,\"lane_gbps\":100}]}", "u.json", &err),
                 FP_ECATALOG);
    cr_assert_null(fp_catalog_find(c, "w"));
    fp_catalog_free(c);
}

/* mgmt_port: the management interface's name as each switch's OS calls it (Cumulus Linux on
 * the Spectrum switches: eth0; NVIDIA's InfiniBand switch OS: mgmt0), "mgmt0" when a part
 * gives none (the generic parts). */
Test(catalog, switch_management_port_names)
{
    fp_catalog *c = NULL;
    fp_error err = { 0 };
    cr_assert_eq(fp_catalog_new(&c, &err), FP_OK, "%s", err.msg);
    static const struct { const char *id, *mgmt; } spot[] = {
        { "nvidia-sn2201", "eth0" }, { "nvidia-sn4600c", "eth0" }, { "nvidia-sn5600", "eth0" },
        { "nvidia-qm9700", "mgmt0" }, { "nvidia-q3400", "mgmt0" }, { "generic-th5-osfp", "mgmt0" },
    };
    for (size_t k = 0; k < sizeof spot / sizeof *spot; k++) {
        const fp_part *p = fp_catalog_find(c, spot[k].id);
        cr_assert_not_null(p, "%s", spot[k].id);
        cr_expect_str_eq(fp_part_mgmt_port(p), spot[k].mgmt, "%s", p->id);
    }
    cr_expect_str_eq(fp_catalog_find(c, "generic-th5-osfp")->mgmt_port, "");
    cr_assert_eq(merge_text(c, "{\"parts\":[{\"id\":\"w\",\"type\":\"switch\",\"ports\":32,"
                               "\"port_gbps\":400,\"mgmt_port\":\"ma1\"}]}", "u.json", &err), FP_OK,
                 "%s", err.msg);
    cr_expect_str_eq(fp_part_mgmt_port(fp_catalog_find(c, "w")), "ma1");
    fp_catalog_free(c);
}

Test(catalog, system_parts)
{
    /* DGX B200 user guide, "Introduction to NVIDIA DGX B200 Systems": the cluster network is
     * 4 OSFP ports for 8 single-port ConnectX-7 (400G), the system 10U and 14.3 kW at most.
     * DGX H100 user guide: 8U, 10.2 kW (the layout's defaults, so its plans are unchanged). */
    fp_catalog *c = cat_new();
    const fp_part *b200 = fp_catalog_find(c, "nvidia-dgx-b200-sys");
    cr_assert_not_null(b200);
    cr_expect_eq(b200->type, FP_PART_NIC);
    cr_expect_eq(b200->ports, 8);
    cr_expect_eq(b200->port_gbps, 400);
    cr_expect_eq(b200->cages, 4);
    cr_expect_eq(b200->ru, 10);
    cr_expect_float_eq(b200->system_power_w, 14300, 1e-9);
    cr_expect(strstr(b200->source, "DGX B200 user guide") != NULL, "%s", b200->source);
    const fp_part *h100 = fp_catalog_find(c, "nvidia-dgx-h100-sys");
    cr_assert_not_null(h100);
    cr_expect_eq(h100->ru, 8);
    cr_expect_float_eq(h100->system_power_w, 10200, 1e-9);

    fp_error err = { 0 };
    /* a system taller than the layout's server_ru range (1 .. 16) */
    cr_assert_eq(merge_text(c, "{\"parts\":[{\"id\":\"tall\",\"type\":\"nic\",\"ports\":8,"
                               "\"port_gbps\":400,\"ru\":17}]}", "u.json", &err), FP_ECATALOG);
    cr_expect_str_eq(err.where, "u.json:/parts/0/ru");
    cr_expect(strstr(err.msg, "17U") && strstr(err.msg, "1 .. 16"), "%s", err.msg);
    /* a system power on anything but a NIC */
    memset(&err, 0, sizeof err);
    cr_assert_eq(merge_text(c, "{\"parts\":[{\"id\":\"sw\",\"type\":\"switch\",\"ports\":64,"
                               "\"port_gbps\":400,\"system_power_w\":100}]}", "u.json", &err),
                 FP_ECATALOG);
    cr_expect_str_eq(err.where, "u.json:/parts/0/system_power_w");
    cr_expect(strstr(err.msg, "\"sw\" is a switch"), "%s", err.msg);
    cr_assert_null(fp_catalog_find(c, "tall"));
    cr_assert_null(fp_catalog_find(c, "sw"));
    fp_catalog_free(c);

    /* A 12U system part: 4 to a rack (the default) is 48U, more than 42; 3 fit, and the
     * second server of a rack then sits at U1 + 12 = U13. A layout server_ru overrides it. */
#define SYS12 "{\"cluster\":{\"gpus\":256,\"nics_per_server\":1,\"nic\":{\"ports\":8,\"port_gbps\":400," \
              "\"cages\":4,\"cage\":\"OSFP\",\"price_usd\":0,\"power_w\":0,\"ru\":12,\"system_power_w\":9000}}"
    memset(&err, 0, sizeof err);
    cr_assert_eq(plan_error(SYS12 "}", &err), FP_EINVAL);
    cr_expect_str_eq(err.where, "/layout/servers_per_rack");
    cr_expect(strstr(err.msg, "4 servers of 12U") && strstr(err.msg, "system part") &&
                  strstr(err.msg, "48U"), "%s", err.msg);
    fp_location loc;
    fp_plan *p = plan_from(SYS12 ",\"layout\":{\"servers_per_rack\":3}}");
    cr_assert_eq(fp_plan_device_location(p, 1, &loc, NULL), FP_OK);
    cr_expect_eq(loc.u, 13);
    /* 3 x 9,000 W of servers in the first compute rack, plus its optics */
    fp_rack_info rk;
    cr_assert_eq(fp_plan_rack(p, 0, &rk, NULL), FP_OK);
    cr_expect_geq(rk.power_w, 27000);
    cr_expect_lt(rk.power_w, 27000 + 24 * 50);
    fp_plan_free(p);
    p = plan_from(SYS12 ",\"layout\":{\"server_ru\":8,\"server_power_w\":5000}}");
    cr_assert_eq(fp_plan_device_location(p, 1, &loc, NULL), FP_OK);
    cr_expect_eq(loc.u, 9);
    cr_assert_eq(fp_plan_rack(p, 0, &rk, NULL), FP_OK);
    cr_expect_lt(rk.power_w, 4 * 5000 + 32 * 50);
    fp_plan_free(p);
#undef SYS12
}

Test(catalog, fan_out_hub_connector)
{
    /* The built-in MPO to 4 x LC breakout: hub MPO-12/APC (an SN6810 port's connector), 4
     * legs of LC; the fan-outs before it keep one connector for hub and legs (""). */
    fp_catalog *c = cat_new();
    const fp_part *f = fp_catalog_find(c, "fibre-os2-mpo12-apc-4xlc");
    cr_assert_not_null(f);
    cr_expect_eq(f->legs, 4);
    cr_expect_str_eq(f->connector, "LC");
    cr_expect_str_eq(f->hub_connector, "MPO-12/APC");
    cr_expect_str_empty(fp_catalog_find(c, "nvidia-mfp7e40")->hub_connector);
    /* SN6810: 128 x 800G or 512 x 200G, the 200G mode as breakout 4 */
    const fp_part *sw = fp_catalog_find(c, "nvidia-sn6810");
    cr_expect_eq(sw->breakouts[0], 4);
    cr_expect_eq(sw->breakouts[1], 0);
    cr_expect_eq(fp_catalog_find(c, "nvidia-q3450-ld")->breakouts[0], 0);
    /* a hub connector on a straight cord or on a module is a catalog error at its pointer */
    static const char *const wrong[] = {
        "{\"parts\":[{\"id\":\"w\",\"type\":\"fibre\",\"fibre\":\"SMF\",\"connector\":\"LC\","
        "\"hub_connector\":\"MPO-12/APC\",\"lengths_m\":[1]}]}",
        "{\"parts\":[{\"id\":\"w\",\"type\":\"transceiver\",\"ports\":1,\"port_gbps\":200,"
        "\"reach_m\":500,\"fibre\":\"SMF\",\"connector\":\"LC\",\"hub_connector\":\"LC\"}]}",
    };
    for (size_t k = 0; k < sizeof wrong / sizeof *wrong; k++) {
        fp_error err = { 0 };
        cr_assert_eq(merge_text(c, wrong[k], "u.json", &err), FP_ECATALOG, "case %zu", k);
        cr_expect(strstr(err.where, "/parts/0/hub_connector") != NULL, "case %zu: %s", k, err.where);
        cr_expect(strstr(err.msg, "fan-out") != NULL, "case %zu: %s", k, err.msg);
    }
    cr_assert_null(fp_catalog_find(c, "w"));
    fp_catalog_free(c);
}
