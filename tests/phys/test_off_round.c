/* Counts and dollars away from the published cases: GPU counts off the round numbers, with the
 * default spec, an oversubscribed one and a preset, each derived from the spec and the catalog
 * (templates/catalog.json) in the comments, never read from the program. Switch tiers by
 * docs/spec.md ("How the fabric is built", "Sizing", "Spreads"); modules by docs/layout.md
 * ("How modules are counted": one per cage with optical links, a twin-port module for a
 * QM9700 or SN5600 cage whatever its links). Which NIC links go on copper (an ACC splitter of
 * 5 m reach) and every cord's stock length follow from the routes, so the copper and fibre
 * dollars and the total were re-derived by an independent script: routes from the racks'
 * places (docs/layout.md "Routes"), the cheapest whole per set of cages that share links, the
 * next stock length, 2 % spares per BOM line, ceil(quantity x 0.02). It matched bom.csv line
 * for line in every case here. Prices: QM9700 $28,000, SN5600 $42,000, ConnectX-7 OSFP $1,900,
 * MMA4Z00-NS (twin SR4) $1,000, MMA4Z00-NS400 (single SR4) $600. */
#include "helpers.h"

static double category_cost(const fp_plan *p, fp_bom_category k)
{
    double usd = -1;
    cr_assert_eq(fp_plan_bom_category_total(&usd, NULL, p, k, NULL), FP_OK);
    return usd;
}

static int64_t boundary_links(const fp_plan *p, int tier)
{
    fp_tier_info ti;
    cr_assert_eq(fp_plan_tier(p, (size_t)tier - 1, &ti, NULL), FP_OK);
    return ti.links_up;
}

/* What a case pins: its tiers, switches per tier, links above the leaves and the spines (0:
 * not checked), the switch price, modules, and the category and total dollars. */
typedef struct off_round_case {
    const char *spec;
    int tiers;
    int64_t switches[4], links_up[2];
    double switch_usd;
    int64_t gpus, modules;
    double modules_usd, copper_usd, fibre_usd, total_usd;
} off_round_case;

static void expect_case(const off_round_case *k)
{
    fp_plan *p = plan_from(k->spec);
    fp_totals t;
    int64_t sw = 0;
    fp_plan_totals(p, &t);
    cr_expect_eq(fp_plan_tier_count(p), k->tiers, "%s", k->spec);
    for (int i = 0; i < k->tiers; i++) {
        cr_expect_eq(tier_switches(p, i + 1), k->switches[i], "%s: tier %d", k->spec, i + 1);
        sw += k->switches[i];
    }
    for (int i = 0; i < 2 && i < k->tiers - 1; i++)
        cr_expect_eq(boundary_links(p, i + 1), k->links_up[i], "%s: tier %d up", k->spec, i + 1);
    cr_expect_float_eq(category_cost(p, FP_BOM_SWITCH), (double)sw * k->switch_usd, 1e-6);
    cr_expect_float_eq(category_cost(p, FP_BOM_NIC), (double)k->gpus * 1900, 1e-6);
    cr_expect_eq(t.transceivers, k->modules, "%s: %lld modules", k->spec,
                 (long long)t.transceivers);
    cr_expect_float_eq(category_cost(p, FP_BOM_TRANSCEIVER), k->modules_usd, 1e-6);
    cr_expect_float_eq(category_cost(p, FP_BOM_COPPER), k->copper_usd, 1e-6);
    cr_expect_float_eq(category_cost(p, FP_BOM_FIBRE), k->fibre_usd, 1e-6);
    cr_expect_float_eq(t.cost, k->total_usd, 1e-6, "%s: cost %.2f", k->spec, t.cost);
    fp_plan_free(p);
}

/* 1,536 GPUs, default (rail-optimized, QM9700 64 x 400G, 32-server units): 192 servers, 6 full
 * units of 8 rail leaves: 48 leaves, 32 down / 32 up, 1,536 uplinks. 2 tiers hold 64 x 32 =
 * 2,048 GPUs. Spines by ports 1,536 / 64 = 24; the even spread takes the least divisor of a
 * leaf's 32 uplinks >= 24: 32 spines of 48 links (16 ports idle each; "balanced" would take 24,
 * the note prices the 8 at $224,000). 80 switches: $2,240,000; NICs 1,536 x 1,900 = $2,918,400.
 * Modules: 1,536 leaf-spine links fill 768 leaf and 32 x 24 = 768 spine twin cages, 1,536
 * MMA4Z00-NS; of the 1,536 NIC links 948 are within the splitter's reach (474 ACC splitters)
 * and 588 optical, in 294 full leaf cages: 588 MMA4Z00-NS400 + 294 MMA4Z00-NS. 2,418 modules:
 * (588 + 12) x 600 + (1,830 + 37) x 1,000 = $2,227,000. Copper $355,750, fibre $140,220
 * (script). Total $7,881,370. */
Test(off_round, default_1536)
{
    expect_case(&(off_round_case){ "{\"cluster\":{\"gpus\":1536}}",
                                   2,
                                   { 48, 32 },
                                   { 1536 },
                                   28000,
                                   1536,
                                   588 + 294 + 1536,
                                   600 * 600.0 + 1867 * 1000.0,
                                   355750,
                                   140220,
                                   7881370 });
}

/* 5,000 GPUs at 2:1 (--set /fabric/oversubscription=2:1: the leaf's ratio, 1 above it): 625
 * servers, 20 units (the last of 17 servers keeps its 8 leaves), 160 leaves; a rail leaf of 32
 * servers has 32 / 2 = 16 uplinks: 2,560. 2 tiers reach 64 / 8 = 8 units (2,048 GPUs): 3 tiers.
 * A spine below the top is 32 / 32: a pod is 32 leaves = 4 units, 5 pods; a pod's 512 uplinks
 * need 16 spines (divides 16), one link from each leaf: 80 spines, 2,560 up. Cores: a group per
 * spine position (16), 5 x 32 = 160 links, ceil(160 / 64) = 3, even 4 (divides 32): 64 cores
 * ("balanced": 48). 304 switches: $8,512,000; NICs $9,500,000.
 * Modules: leaf up 160 x 8 cages, spine down and up 80 x (16 + 16), cores 64 x 20 (40 links
 * each): 1,280 x 4 = 5,120 twin; 1,872 NIC links optical, in 932 full leaf cages and the 8
 * one-link cages of the partial unit (17 servers: port 17 alone in its cage): 940 twin more.
 * (1,872 + 38) x 600 + (6,060 + 122) x 1,000 = $7,328,000. Copper $1,170,450, fibre $558,849
 * (script). Total $27,069,299. */
Test(off_round, oversubscribed_5000)
{
    expect_case(&(off_round_case){
        "{\"cluster\":{\"gpus\":5000},\"fabric\":{\"oversubscription\":\"2:1\"}}",
        3,
        { 160, 80, 64 },
        { 2560, 2560 },
        28000,
        5000,
        1872 + 940 + 5120,
        1910 * 600.0 + 6182 * 1000.0,
        1170450,
        558849,
        27069299 });
}

/* 24,584 GPUs (24,576 + 8), default: 3,073 servers, 97 units (the last of 1 server keeps its 8
 * leaves and 256 uplinks): 776 leaves, 24,832 uplinks. 3 tiers (2 hold 2,048, 3 hold
 * 2 x 32^3 = 65,536). Pods of 4 units: 24 full pods of 32 spines (1,024 uplinks / 32) and a
 * last pod of 1 unit: 256 / 32 = 8 spines (divides 32): 776 spines, 32 up each. The last pod's
 * 8 spines are fewer than the 32 core groups, so they deal their 256 uplinks over all of them,
 * 8 a group: each group 24 x 32 + 8 = 776 links, ceil(776 / 64) = 13 cores, even 16: 512
 * cores (388 by ports). 2,064 switches: $57,792,000; NICs 24,584 x 1,900 = $46,709,600.
 * Modules (script): 9,408 MMA4Z00-NS400, 44,221 MMA4Z00-NS and 10,083 MMS4X00-NS (a set of
 * cages with a cord past SR's 50 m takes DR, $1,300), 63,712, $64,234,700 with spares; copper
 * $5,741,730, fibre $6,575,729. Total $181,053,759. */
Test(off_round, default_24584)
{
    expect_case(&(off_round_case){ "{\"cluster\":{\"gpus\":24584}}",
                                   3,
                                   { 776, 776, 512 },
                                   { 24832, 24832 },
                                   28000,
                                   24584,
                                   63712,
                                   64234700,
                                   5741730,
                                   6575729,
                                   181053759 });
}

/* spectrum-x-100k at 5,000 GPUs: SN5600 64 x 800G as 128 x 400G, 64-server units: 625 servers,
 * 10 units (the last 49), 8 rail leaves each of 64 down / 64 up: 80 leaves, 5,120 uplinks.
 * 2 tiers reach 128 / 8 = 16 units (8,192 GPUs). Spines by ports 5,120 / 128 = 40; even: the
 * least divisor of 64 >= 40 is 64. 144 switches: $6,048,000; NICs $9,500,000. Modules: a
 * split 800G cage carries 2 x 400G and takes a twin module (4 x 100G per port, the SN5600's
 * 100G lanes): leaf-spine 2,560 + 64 x 40 = 5,120 twin; 3,860 NIC links optical in 1,934 leaf
 * cages (the partial unit's 8 leaves end on a one-link cage): 7,054 twin, 10,914 modules,
 * (3,860 + 78) x 600 + (7,054 + 142) x 1,000 = $9,558,800. Copper $430,350, fibre $653,769
 * (script). Total $26,190,919. */
Test(off_round, spectrum_x_5000)
{
    expect_case(&(off_round_case){
        "{\"cluster\":{\"gpus\":5000,\"gpus_per_server\":8,\"nics_per_server\":8,"
        "\"nic\":\"nvidia-cx7-osfp\"},\"fabric\":{\"topology\":\"rail-optimized\","
        "\"tiers\":\"auto\",\"switch\":\"nvidia-sn5600\",\"su_servers\":64}}",
        2,
        { 80, 64 },
        { 5120 },
        42000,
        5000,
        3860 + 7054,
        3938 * 600.0 + 7196 * 1000.0,
        430350,
        653769,
        26190919 });
}
