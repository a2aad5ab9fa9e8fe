/* Interface-name templates: each placeholder against numbers worked out by hand from the part's
 * front panel, the optional [..] section, and the checks on malformed templates. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "spec/resolved.h"
#include "helpers.h"

static fp_part part(int ports, int cages, const char *cage, const char *names)
{
    fp_part p;
    memset(&p, 0, sizeof p);
    p.type = FP_PART_SWITCH;
    p.ports = ports;
    p.cages = cages;
    snprintf(p.cage, sizeof p.cage, "%s", cage);
    snprintf(p.interface_names, sizeof p.interface_names, "%s", names);
    return p;
}

static const char *name(const fp_part *p, int breakout, int q)
{
    static char buf[FP_PORT_NAME_MAX];
    fp_port_fields f;
    if (p->type == FP_PART_NIC)
        fp__nic_port_fields(&f, p, q);
    else
        fp__switch_port_fields(&f, p, breakout, q);
    return fp__port_template(buf, sizeof buf, fp__port_template_of(p), &f);
}

/* QM9700: 64 ports in 32 twin-port cages. Logical port 30 (0-based) is port 31 = cage 16, port
 * 1; split in two, logical port 61 is port 31 lane 2. */
Test(port_names, qm9700_cage_and_port)
{
    fp_part p = part(64, 32, "OSFP", "1/{cage}/{sub}[/{lane}]");
    cr_expect_str_eq(name(&p, 1, 30), "1/16/1");
    cr_expect_str_eq(name(&p, 1, 31), "1/16/2");
    cr_expect_str_eq(name(&p, 2, 61), "1/16/1/2");
}

/* SN5600 under Cumulus: swp1..swp64, lanes numbered from 0. Logical port 33 of a 2-way split is
 * port 17 lane 2 -> swp17s1. */
Test(port_names, sn5600_lane0)
{
    fp_part p = part(64, 64, "OSFP", "swp{port}[s{lane0}]");
    cr_expect_str_eq(name(&p, 1, 16), "swp17");
    cr_expect_str_eq(name(&p, 2, 33), "swp17s1");
    cr_expect_str_eq(name(&p, 4, 67), "swp17s3");
}

/* SONiC: Ethernet<first SerDes lane>. An 800G OSFP port has 8 lanes: port 17 starts at lane
 * 16 x 8 = 128; its second 400G lane at 128 + 4 = 132; a QSFP112 port (4 lanes) 17 at 64. */
Test(port_names, sonic_serdes)
{
    fp_part p = part(64, 64, "OSFP", "Ethernet{serdes}");
    cr_expect_str_eq(name(&p, 1, 16), "Ethernet128");
    cr_expect_str_eq(name(&p, 2, 33), "Ethernet132");
    fp_part q = part(32, 32, "QSFP112", "Ethernet{serdes}");
    cr_expect_str_eq(name(&q, 1, 16), "Ethernet64");
}

/* EOS: Ethernet<port>/<first lane of the port>, 1-based. An 800G OSFP port has 8 lanes: whole,
 * port 33 is Ethernet33/1; split in two (400G, 4 lanes each) logical port 65 is port 33's
 * second half, lanes 5-8 -> Ethernet33/5; split in four (2 lanes each) logical port 131 is port
 * 33's fourth quarter, lanes 7-8 -> Ethernet33/7; in eight, logical port 263 -> Ethernet33/8. */
Test(port_names, eos_port_lane)
{
    fp_part p = part(64, 64, "OSFP", "Ethernet{port}/{portlane}");
    cr_expect_str_eq(name(&p, 1, 32), "Ethernet33/1");
    cr_expect_str_eq(name(&p, 2, 64), "Ethernet33/1");
    cr_expect_str_eq(name(&p, 2, 65), "Ethernet33/5");
    cr_expect_str_eq(name(&p, 4, 131), "Ethernet33/7");
    cr_expect_str_eq(name(&p, 8, 263), "Ethernet33/8");
}

/* Defaults: p<port>[/<lane>] on switches, nic<n>[-p<port>] on NICs. */
Test(port_names, defaults)
{
    fp_part p = part(64, 64, "OSFP", "");
    cr_expect_str_eq(name(&p, 1, 16), "p17");
    cr_expect_str_eq(name(&p, 2, 33), "p17/2");
    fp_part nic = part(2, 2, "QSFP112", "");
    nic.type = FP_PART_NIC;
    cr_expect_str_eq(name(&nic, 1, 5), "nic3-p2");     /* NIC port 5 (0-based): NIC 3, port 2 */
    nic.ports = 1;
    cr_expect_str_eq(name(&nic, 1, 5), "nic6");
}

Test(port_names, malformed_templates)
{
    char why[200];
    cr_expect_eq(fp__port_template_check("swp{port}[s{lane0}]", why, sizeof why), 0);
    static const char *const bad[] = { "", "swp", "swp{slot}", "swp{port", "swp}{port}",
                                       "p{port}[/{lane}", "p{port}]", "p{port}[a][b]",
                                       "p {port}", "p{port},x", "p{port}+" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_eq(fp__port_template_check(bad[i], why, sizeof why), 1, "\"%s\" accepted", bad[i]);
}
