/* fabplan — interface names from a part's `interface_names` template.
 *
 * A template is text with placeholders in braces and at most one optional section in square
 * brackets, written only when the port is broken out:
 *   "swp{port}[s{lane0}]"  -> swp17 (whole port), swp17s0 / swp17s1 (lanes of a 2-way split)
 *   "1/{cage}/{sub}[/{lane}]" -> 1/9/2 (port 2 of cage 9), 1/9/2/1 when split
 *   "Ethernet{serdes}"     -> Ethernet128 (SONiC: the port's first electrical lane, 0-based)
 *   "Ethernet{port}/{portlane}" -> Ethernet33/1 (EOS), Ethernet33/1 / Ethernet33/5 when an
 *                             8-lane OSFP port is split in two
 * Placeholders (1-based unless said): {port} front-panel port as the catalog counts ports
 * (`ports`; on a NIC, the port on that NIC), {cage} physical cage, {sub} port within its cage,
 * {lane} breakout lane, {lane0} the same 0-based, {serdes} first electrical lane 0-based,
 * {portlane} the first electrical lane within the port, 1-based (EOS's Ethernet<port>/<lane>),
 * {nic} the NIC's number in its server.
 *
 * This file only expands and checks templates; fp__port_name (names.c) is the one function that
 * decides a port's name and every writer calls it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spec/resolved.h"
#include "util/text.h"

static const char *const fields[] = { "port", "cage", "sub", "lane", "lane0", "serdes", "nic",
                                      "portlane" };
#define N_FIELDS (sizeof fields / sizeof fields[0])

static int field_value(const fp_port_fields *f, size_t i)
{
    switch (i) {
    case 0: return f->port;
    case 1: return f->cage;
    case 2: return f->sub;
    case 3: return f->lane;
    case 4: return f->lane - 1;
    case 5: return f->serdes;
    case 7: return f->portlane;
    default: return f->nic;
    }
}

/* Index of the placeholder named by s[0..len), or -1. */
static int field_index(const char *s, size_t len)
{
    for (size_t i = 0; i < N_FIELDS; i++)
        if (strlen(fields[i]) == len && memcmp(fields[i], s, len) == 0)
            return (int)i;
    return -1;
}

int fp__port_template_check(const char *t, char *why, size_t n)
{
    int in_opt = 0, opts = 0, holders = 0;
    if (t[0] == '\0') {
        snprintf(why, n, "expected a template such as \"swp{port}[s{lane0}]\", found an empty string");
        return 1;
    }
    for (const char *p = t; *p; p++) {
        if (*p == '{') {
            const char *end = strchr(p, '}');
            if (end == NULL) {
                snprintf(why, n, "\"{\" at offset %d is not closed by \"}\"", (int)(p - t));
                return 1;
            }
            if (field_index(p + 1, (size_t)(end - p - 1)) < 0) {
                snprintf(why, n,
                         "unknown placeholder \"%.*s\"; expected {port}, {cage}, {sub}, {lane}, {lane0}, {serdes}, {portlane} or {nic}",
                         (int)(end - p + 1), p);
                return 1;
            }
            holders++;
            p = end;
        } else if (*p == '}') {
            snprintf(why, n, "\"}\" at offset %d has no \"{\"", (int)(p - t));
            return 1;
        } else if (*p == '[') {
            if (in_opt || opts) {
                snprintf(why, n, "expected at most one optional [...] section, not nested");
                return 1;
            }
            in_opt = 1;
            opts++;
        } else if (*p == ']') {
            if (!in_opt) {
                snprintf(why, n, "\"]\" at offset %d has no \"[\"", (int)(p - t));
                return 1;
            }
            in_opt = 0;
        } else if ((unsigned char)*p < 0x21 || *p == ',' || *p == '"' || *p == ';' || *p == '+') {
            /* Names go into CSV cells and are joined with ';' and '+' in per-cable files. */
            snprintf(why, n, "character '%c' at offset %d cannot be part of an interface name "
                             "(no blanks, commas, quotes, ';' or '+')",
                     *p < 0x21 ? '?' : *p, (int)(p - t));
            return 1;
        }
    }
    if (in_opt) {
        snprintf(why, n, "\"[\" is not closed by \"]\"");
        return 1;
    }
    if (holders == 0) {
        snprintf(why, n, "expected at least one placeholder such as {port}, found none: every port would get the same name");
        return 1;
    }
    return 0;
}

char *fp__port_template(char *buf, size_t n, const char *t, const fp_port_fields *f)
{
    char tmp[FP_PORT_NAME_MAX + 24];
    size_t k = 0;
    int skip = 0;
    for (const char *p = t; *p && k < FP_PORT_NAME_MAX; p++) {
        if (*p == '[') {
            skip = !f->split;
            continue;
        }
        if (*p == ']') {
            skip = 0;
            continue;
        }
        if (*p == '{') {
            const char *end = strchr(p, '}');
            if (end == NULL)
                break;
            int i = field_index(p + 1, (size_t)(end - p - 1));
            p = end;
            if (!skip && i >= 0)
                k += fp__put_int(tmp + k, field_value(f, (size_t)i));
            continue;
        }
        if (!skip)
            tmp[k++] = *p;
    }
    if (k >= FP_PORT_NAME_MAX)
        k = FP_PORT_NAME_MAX - 1;
    tmp[k] = '\0';
    fp__copy_str(buf, n, tmp);
    return buf;
}

/* Electrical lanes in one cage of this form factor (OSFP and QSFP-DD carry 8, the QSFP family 4). */
static int cage_lanes(const char *cage)
{
    if (strncmp(cage, "QSFP", 4) == 0 && strcmp(cage, "QSFP-DD") != 0)
        return 4;
    if (strncmp(cage, "SFP", 3) == 0)
        return 1;
    return 8;
}

void fp__switch_port_fields(fp_port_fields *f, const fp_part *m, int breakout, int q)
{
    int b = breakout > 0 ? breakout : 1;
    int cages = m->cages > 0 ? m->cages : m->ports;
    int per_cage = cages > 0 && m->ports % cages == 0 ? m->ports / cages : 1;
    int pp = q / b, lane0 = q % b;
    int lanes = cage_lanes(m->cage) / per_cage;
    if (lanes < 1)
        lanes = 1;
    f->port = pp + 1;
    f->cage = pp / per_cage + 1;
    f->sub = pp % per_cage + 1;
    f->lane = lane0 + 1;
    f->serdes = pp * lanes + lane0 * (lanes / b > 0 ? lanes / b : 1);
    f->portlane = lane0 * (lanes / b > 0 ? lanes / b : 1) + 1;
    f->nic = 0;
    f->split = b > 1;
}

void fp__nic_port_fields(fp_port_fields *f, const fp_part *nic, int q)
{
    int ports = nic->ports > 0 ? nic->ports : 1;
    f->nic = q / ports + 1;
    f->port = q % ports + 1;
    f->sub = f->port;
    f->cage = q + 1;
    f->lane = 1;
    f->serdes = q * (cage_lanes(nic->cage) / ports > 0 ? cage_lanes(nic->cage) / ports : 1);
    f->portlane = 1;
    f->split = 0;
}

const char *fp__port_template_of(const fp_part *p)
{
    if (p->interface_names[0])
        return p->interface_names;
    if (p->type == FP_PART_NIC)
        return p->ports > 1 ? "nic{nic}-p{port}" : "nic{nic}";
    return "p{port}[/{lane}]";
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

fp_status fp__port_names_check(const fp_part *p, int breakout, int count, const char *where,
                               fp_error *err)
{
    const char *t = fp__port_template_of(p);
    char why[200];
    if (fp__port_template_check(t, why, sizeof why))
        FP_FAIL(err, FP_EINVAL, where, "%s: interface_names of %s: %s", where, p->id, why);
    char *text = malloc((size_t)(count > 0 ? count : 1) * FP_PORT_NAME_MAX);
    const char **ptrs = malloc((size_t)(count > 0 ? count : 1) * sizeof *ptrs);
    fp_status rc = FP_OK;
    if (text == NULL || ptrs == NULL) {
        rc = fp__error_set(err, FP_ENOMEM, where, "out of memory checking interface names");
        goto out;
    }
    for (int q = 0; q < count; q++) {
        fp_port_fields f;
        if (p->type == FP_PART_NIC)
            fp__nic_port_fields(&f, p, q);
        else
            fp__switch_port_fields(&f, p, breakout, q);
        ptrs[q] = fp__port_template(text + (size_t)q * FP_PORT_NAME_MAX, FP_PORT_NAME_MAX, t, &f);
    }
    qsort(ptrs, (size_t)count, sizeof *ptrs, cmp_str);
    for (int q = 1; q < count; q++)
        if (strcmp(ptrs[q - 1], ptrs[q]) == 0) {
            rc = fp__error_set(err, FP_EINVAL, where,
                               "%s: interface_names \"%s\" of %s gives two ports the same name \"%s\" "
                               "(%d ports%s); expected a template that tells every port apart, e.g. "
                               "with {port}, or {cage} and {sub}, and {lane} for split ports",
                               where, t, p->id, ptrs[q], count,
                               breakout > 1 ? ", each port split in lanes" : "");
            goto out;
        }
out:
    free(text);
    free(ptrs);
    return rc;
}
