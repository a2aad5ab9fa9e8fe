/* fabplan — the planned cabling for the cable checkers customers already run (docs/outputs.md,
 * "Files for the cable checkers"):
 *   topology.dot  Cumulus PTM's prescriptive topology (ptmd reads /etc/ptm.d/topology.dot with
 *                 Graphviz's agread: one edge per link, "device":"port" -- "device":"port", the
 *                 ends' names as the hosts' hostnames and interface names); every link of every
 *                 Ethernet network of the plan;
 *   cvt-p2p.xlsx  NVIDIA UFM Cable Validation Tool's point-to-point (P2P) file: a sheet per
 *                 InfiniBand network, one row per link with each end's rack, U, name and port
 *                 (a host's HCA number, a switch's port as its cage, "cage/split" when split).
 * Both read the plan through the public getters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>
#include "fabplan.h"
#include "write/writers.h"

/* The plan has a network of the protocol asked for (ib: InfiniBand, else Ethernet). */
static int has_net(const fp_plan *plan, int ib)
{
    for (size_t k = 0; k < fp_plan_net_count(plan); k++)
        if (fp__ib_net(plan, (int)k) == ib)
            return 1;
    return 0;
}

int fp__ptm_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                      size_t n)
{
    (void)o;
    if (!has_net(plan, 0))
        return 0;
    fp__copy_str(buf, n, ext);
    return 1;
}

int fp__cvt_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext, char *buf,
                      size_t n)
{
    (void)o;
    if (!has_net(plan, 1))
        return 0;
    fp__copy_str(buf, n, ext);
    return 1;
}

/* s as a DOT double-quoted string: '"' and '\' escaped (Graphviz keeps "\\" as it is, which
 * no device or interface name holds). */
static void dot_id(fp_outbuf *f, const char *s)
{
    fp__outbuf_char(f, '"');
    for (; *s; s++) {
        if (*s == '"')
            fp__outbuf_char(f, '\\');
        fp__outbuf_char(f, *s);
    }
    fp__outbuf_char(f, '"');
}

fp_status fp__write_ptm_topology(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    (void)o;
    fp_outbuf *f = NULL;
    fp_status rc;
    if ((rc = fp__outbuf_open(&f, path,
                              "# Cumulus PTM prescriptive topology: the planned Ethernet links,\n"
                              "# written by fabplan plan. Copy to /etc/ptm.d/topology.dot on each\n"
                              "# switch; ptmd checks every port's LLDP neighbour against its edge.\n"
                              "graph G {\n", err)) != FP_OK)
        return rc;
    fp_device_info da, dz;
    fp_link_info l;
    for (size_t k = 0; k < fp_plan_net_count(plan); k++) {
        if (fp__ib_net(plan, (int)k))
            continue;
        fp__outbuf_str(f, "## network ");
        fp__outbuf_str(f, fp__plan_net_label(plan, k));
        fp__outbuf_char(f, '\n');
        size_t n = fp_plan_net_link_count(plan, k);
        for (size_t i = 0; i < n; i++) {
            fp_plan_net_link(plan, k, i, &l, NULL);
            fp_plan_net_device(plan, k, (size_t)l.a, &da, NULL);
            fp_plan_net_device(plan, k, (size_t)l.z, &dz, NULL);
            fp__outbuf_str(f, "    ");
            dot_id(f, da.name);
            fp__outbuf_char(f, ':');
            dot_id(f, l.a_port_name);
            fp__outbuf_str(f, " -- ");
            dot_id(f, dz.name);
            fp__outbuf_char(f, ':');
            dot_id(f, l.z_port_name);
            fp__outbuf_char(f, '\n');
        }
    }
    fp__outbuf_str(f, "}\n");
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* ---- CVT ---- */

/* "H1-R05-K12" of a location "H1-R05-K12-U40". */
static void rack_text(char *buf, size_t n, const fp_location *l)
{
    fp__copy_str(buf, n, l->text);
    char *u = strrchr(buf, '-');
    if (u != NULL && u[1] == 'U')
        *u = '\0';
}

/* One end: rack, U, name, port (columns c .. c + 3 of row y). */
static void cvt_end(lxw_worksheet *ws, lxw_row_t y, lxw_col_t c, const fp_cable_end *e,
                    const char *port, lxw_error *le)
{
    char rack[32];
    rack_text(rack, sizeof rack, &e->loc);
    lxw_error r[4];
    r[0] = worksheet_write_string(ws, y, c, rack, NULL);
    r[1] = worksheet_write_number(ws, y, c + 1, e->loc.u, NULL);
    r[2] = worksheet_write_string(ws, y, c + 2, e->device_name, NULL);
    /* a whole number as a number, as CVT's samples give it; "1/2" as text */
    r[3] = strchr(port, '/') ? worksheet_write_string(ws, y, c + 3, port, NULL)
                             : worksheet_write_number(ws, y, c + 3, atoi(port), NULL);
    for (int i = 0; i < 4; i++)
        if (*le == LXW_NO_ERROR)
            *le = r[i];
}

fp_status fp__write_cvt_p2p(const fp_plan *plan, const char *path, const fp_write_options *o,
                            fp_error *err)
{
    (void)o;
    char tmpdir[4200];
    fp__copy_str(tmpdir, sizeof tmpdir, path);
    char *slash = strrchr(tmpdir, '/');
    if (slash != NULL)
        *slash = '\0';
    else
        fp__copy_str(tmpdir, sizeof tmpdir, ".");
    /* libxlsxwriter opens the file only when closing: find out first, quietly */
    FILE *probe = fp__create(path, err);
    if (probe == NULL)
        return FP_EIO;
    fclose(probe);
    lxw_workbook_options wo = { .constant_memory = LXW_TRUE, .tmpdir = tmpdir,
                                .use_zip64 = LXW_TRUE };
    lxw_workbook *wb = workbook_new_opt(path, &wo);
    if (wb == NULL)
        FP_FAIL(err, FP_EIO, path, "cannot create %s", path);
    lxw_error le = LXW_NO_ERROR;
    /* the plan workbook's fixed creation time: the same file byte for byte */
    lxw_doc_properties props = { .title = (char *)"CVT point-to-point file",
                                 .created = (time_t)946684800 };
    le = workbook_set_properties(wb, &props);
    static const char *const head[8] = { "Rack", "U", "Name", "HCA/Port", "Rack", "U", "Name",
                                         "Port" };
    fp_cable_info c;
    for (size_t k = 0; k < fp_plan_net_count(plan) && le == LXW_NO_ERROR; k++) {
        if (!fp__ib_net(plan, (int)k))
            continue;
        lxw_worksheet *ws = workbook_add_worksheet(wb, fp__plan_net_label(plan, k));
        if (ws == NULL) {
            le = LXW_ERROR_MEMORY_MALLOC_FAILED;
            break;
        }
        for (lxw_col_t col = 0; col < 8; col++)
            if (le == LXW_NO_ERROR)
                le = worksheet_write_string(ws, 0, col, head[col], NULL);
        lxw_row_t y = 1;
        size_t n = fp_plan_net_cable_count(plan, k);
        for (size_t i = 0; i < n && le == LXW_NO_ERROR; i++) {
            fp_plan_net_cable(plan, k, i, &c, NULL);
            /* a link per row: a splitter's legs each, a twin-port cable's links each */
            for (int j = 0; j < c.n_links && le == LXW_NO_ERROR; j++) {
                char pa[16], pz[16];
                const fp_cable_end *z = &c.z[c.n_z > 1 ? j : 0];
                fp_link_info li;
                fp__cvt_ports(plan, (int)k, c.links[j], pa, pz, sizeof pa);
                /* the cable's A end is the link's lower end, or a splitter's hub above it */
                fp_plan_net_link(plan, k, (size_t)c.links[j], &li, NULL);
                int hub = li.a != c.a.device;
                cvt_end(ws, y, 0, &c.a, hub ? pz : pa, &le);
                cvt_end(ws, y, 4, z, hub ? pa : pz, &le);
                y++;
            }
        }
    }
    lxw_error ce = workbook_close(wb);
    if (le == LXW_NO_ERROR)
        le = ce;
    if (le != LXW_NO_ERROR)
        FP_FAIL(err, FP_EIO, path, "cannot write %s: %s", path, lxw_strerror(le));
    return FP_OK;
}
