/* fabplan — the planned InfiniBand fabric as the tools of an InfiniBand site read it:
 * ibnetdiscover.topo (ibnetdiscover's topology-file form, which ibsim also loads), the
 * node-name map for it (ib-node-name-map) and ib-ports.csv (every planned port's node
 * description and port number beside the plan's device and port name: what `fabplan verify`
 * matches a discovery by). Compute fabric only, and only an InfiniBand one (docs/outputs.md).
 *
 * Nodes: a switch is one node, its description the plan's device name; every fabric port of a
 * server is an HCA of its own, `<server> mlx5_<i>` (i = the server's port index from 0, in
 * plan port order), with one port. GUIDs are synthetic and fixed (real ones come from the
 * hardware): switch device d 0xfab1000000000000 + d; HCA i of server s
 * 0xfab0000000000000 + 256 s + 2 i, its port GUID one more. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabplan.h"
#include "write/writers.h"

#define SW_GUID_BASE 0xfab1000000000000ULL
#define CA_GUID_BASE 0xfab0000000000000ULL

static uint64_t sw_guid(int64_t d)
{
    return SW_GUID_BASE + (uint64_t)d;
}

static uint64_t ca_guid(int64_t s, int port)
{
    return CA_GUID_BASE + (uint64_t)s * 256u + (uint64_t)port * 2u;
}

int fp__ib_net(const fp_plan *plan, int k)
{
    return fp__fabric_infiniband(k == 0 ? fp__plan_rspec(plan) : &fp__plan_net(plan, k - 1)->rs);
}

/* Network k's fabric and resolved spec. */
static const fp_fabric *net_fabric(const fp_plan *plan, int k, const fp_rspec **rs)
{
    *rs = k == 0 ? fp__plan_rspec(plan) : &fp__plan_net(plan, k - 1)->rs;
    return k == 0 ? fp__plan_fabric(plan) : fp__plan_net_fabric(plan, k - 1);
}

int fp__ib_hca_index(const fp_plan *plan, int k, int64_t dev, int port)
{
    if (k == 0)
        return port;
    const fp_net_spec *ns = fp__plan_net(plan, k - 1);
    if (dev >= ns->servers) {
        /* an extra endpoint's port group: the port's number on its device, as its name says
         * ("storage-p3": the groups are numbered on) */
        char pn[FP_NET_NAME_MAX + 32];
        fp__net_port_name(pn, sizeof pn, ns, fp__plan_net_fabric(plan, k - 1), dev, port);
        const char *p = strrchr(pn, 'p');
        return p != NULL && p[1] >= '1' && p[1] <= '9' ? atoi(p + 1) - 1 : port;
    }
    /* a compute server: after its ports on the InfiniBand networks before this one */
    int off = 0;
    fp_device_info di;
    if (fp__ib_net(plan, 0) && fp_plan_device(plan, (size_t)dev, &di, NULL) == FP_OK)
        off += di.ports;
    for (int j = 1; j < k; j++)
        if (fp__ib_net(plan, j) && dev < fp__plan_net(plan, j - 1)->servers)
            off += fp__plan_net(plan, j - 1)->ports;
    return off + port;
}

void fp__cvt_ports(const fp_plan *plan, int k, int64_t link, char *pa, char *pz, size_t n)
{
    const fp_rspec *rs;
    const fp_fabric *fab = net_fabric(plan, k, &rs);
    const fp_link *l = &fab->link[link];
    for (int e = 0; e < 2; e++) {
        int64_t d = e ? l->z : l->a;
        int p = e ? l->z_port : l->a_port, t = fab->dev[d].tier;
        char *out = e ? pz : pa;
        if (t == 0) {
            snprintf(out, n, "%d", fp__ib_hca_index(plan, k, d, p) + 1);
            continue;
        }
        /* the port's numbers as its name takes them (names.c): a cage of several ports
         * (QM9700: two NDR ports per OSFP cage) is "cage/port in cage", a split port
         * "port/lane" */
        const fp_part *m = &rs->tier[t - 1].model;
        fp_port_fields f;
        int lane, ways, phys = fp__switch_phys(fab, rs, t - 1, p, &lane, &ways);
        fp__switch_port_fields(&f, m, ways, phys * ways + lane);
        int per_cage = m->cages > 0 && m->ports % m->cages == 0 ? m->ports / m->cages : 1;
        if (per_cage > 1 && f.split)
            snprintf(out, n, "%d/%d/%d", f.cage, f.sub, f.lane);
        else if (per_cage > 1)
            snprintf(out, n, "%d/%d", f.cage, f.sub);
        else if (f.split)
            snprintf(out, n, "%d/%d", f.port, f.lane);
        else
            snprintf(out, n, "%d", f.port);
    }
}

int fp__ibnet_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                        char *buf, size_t n)
{
    (void)o;
    if (!fp__fabric_infiniband(fp__plan_rspec(plan)))
        return 0;
    fp__copy_str(buf, n, ext);
    return 1;
}

/* One port end of a link: the link and which end (0 = a). */
typedef struct port_end {
    int64_t link;
    int port;                   /* the plan's logical port */
    int ib_port;                /* its InfiniBand number (the HCA's index on a server) */
    int end;
} port_end;

static int cmp_end(const void *x, const void *y)
{
    const port_end *a = x, *b = y;
    return (a->ib_port > b->ib_port) - (a->ib_port < b->ib_port);
}

/* "su01-node-01 mlx5_3": the node description of server s's port p. */
static const char *ca_desc(char *buf, size_t n, const fp_names *nm, int64_t s, int p)
{
    snprintf(buf, n, "%s mlx5_%d", fp__dev_name(nm, s), p);
    return buf;
}

/* The far end of one port as ibnetdiscover writes it: "S-<guid>"[port] or
 * "H-<guid>"[1](<port guid>), and the far node's description. */
static void far_end(fp_outbuf *f, const fp_fabric *fab, const fp_rspec *rs, const fp_names *nm,
                    const fp_link *l, int end, int from_ca)
{
    int64_t d = end ? l->z : l->a;
    int p = end ? l->z_port : l->a_port;
    char tmp[200], rate[16];
    if (fab->dev[d].tier == 0) {
        uint64_t g = ca_guid(d, p);
        snprintf(tmp, sizeof tmp, "\t\"H-%016" PRIx64 "\"[1]%s(%" PRIx64 ") ", g,
                 from_ca ? " " : "", g + 1);
        fp__outbuf_str(f, tmp);
    } else {
        snprintf(tmp, sizeof tmp, "\t\"S-%016" PRIx64 "\"[%d]", sw_guid(d),
                 fp__ib_port_number(fab, rs, d, p));
        fp__outbuf_str(f, tmp);
    }
    fp__outbuf_str(f, from_ca ? "\t\t# lid 0 lmc 0 \"" : "\t\t# \"");
    if (fab->dev[d].tier == 0)
        fp__outbuf_str(f, ca_desc(tmp, sizeof tmp, nm, d, p));
    else
        fp__outbuf_str(f, fp__dev_name(nm, d));
    fp__outbuf_str(f, "\" lid 0 ");
    fp__outbuf_str(f, fp__ib_link_text(rs->gbps[l->boundary], rate, sizeof rate));
    fp__outbuf_char(f, '\n');
}

/* The ends of every link grouped by device: device d's are ends[start[d] .. start[d + 1]), each
 * device's sorted by InfiniBand port number. */
static fp_status group_ports(const fp_fabric *fab, const fp_rspec *rs, int64_t **start_out,
                             port_end **ends_out)
{
    int64_t nd = fab->n_dev, nl = fab->n_link;
    int64_t *start = calloc((size_t)nd + 1, sizeof *start);
    port_end *ends = fp__malloc(sizeof *ends * (size_t)(2 * nl + 1));
    if (start == NULL || ends == NULL) {
        free(start);
        free(ends);
        return FP_ENOMEM;
    }
    for (int64_t i = 0; i < nl; i++) {
        start[fab->link[i].a + 1]++;
        start[fab->link[i].z + 1]++;
    }
    for (int64_t d = 0; d < nd; d++)
        start[d + 1] += start[d];
    for (int64_t i = 0; i < nl; i++) {
        const fp_link *l = &fab->link[i];
        for (int e = 0; e < 2; e++) {
            int64_t d = e ? l->z : l->a;
            int p = e ? l->z_port : l->a_port;
            port_end *pe = &ends[start[d]++];
            pe->link = i;
            pe->end = e;
            pe->port = p;
            pe->ib_port = fab->dev[d].tier == 0 ? p : fp__ib_port_number(fab, rs, d, p);
        }
    }
    for (int64_t d = nd; d > 0; d--)
        start[d] = start[d - 1];
    start[0] = 0;
    for (int64_t d = 0; d < nd; d++)
        qsort(ends + start[d], (size_t)(start[d + 1] - start[d]), sizeof *ends, cmp_end);
    *start_out = start;
    *ends_out = ends;
    return FP_OK;
}

fp_status fp__write_ibnet_topology(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err)
{
    (void)o;
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_names *nm = fp__plan_names(plan);
    int64_t nd = fab->n_dev, nl = fab->n_link;
    int64_t *start = NULL;
    port_end *ends = NULL;
    fp_outbuf *f = NULL;
    fp_status rc;
    if (group_ports(fab, rs, &start, &ends) != FP_OK)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    /* ports a switch of each tier has: its front (and uplink) ports at its widest split, or
     * more when a port number goes beyond */
    int nports[FP_MAX_TIERS + 1] = { 0 };
    for (int t = 1; t <= fab->tiers; t++) {
        const fp_tier_spec *ts = &rs->tier[t - 1];
        int w = ts->breakout > ts->breakout_up ? ts->breakout : ts->breakout_up;
        int phys = ts->model.ports + (ts->model.uplink_ports > 0 ? ts->model.uplink_ports : 0);
        nports[t] = phys * (w > 0 ? w : 1);
    }
    for (int64_t k = 0; k < 2 * nl; k++) {
        const fp_link *l = &fab->link[ends[k].link];
        int t = fab->dev[ends[k].end ? l->z : l->a].tier;
        if (t > 0 && ends[k].ib_port > nports[t])
            nports[t] = ends[k].ib_port;
    }
    if ((rc = fp__outbuf_open(&f, path,
                              "#\n# Topology file: the planned fabric, written by fabplan plan\n"
                              "# (ibnetdiscover's topology form; ibsim loads it)\n#\n",
                              err)) != FP_OK) {
        free(start);
        free(ends);
        return rc;
    }
    char tmp[256];
    /* switches first, as ibnetdiscover lists them, each with its connected ports in order */
    for (int64_t d = fab->tier_base[1]; d < nd; d++) {
        uint64_t g = sw_guid(d);
        snprintf(tmp, sizeof tmp,
                 "\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x%" PRIx64 "\nswitchguid=0x%" PRIx64
                 "(%" PRIx64 ")\nSwitch\t%d \"S-%016" PRIx64 "\"\t\t# \"",
                 g, g, g, nports[fab->dev[d].tier], g);
        fp__outbuf_str(f, tmp);
        fp__outbuf_str(f, fp__dev_name(nm, d));
        fp__outbuf_str(f, "\" enhanced port 0 lid 0 lmc 0\n");
        for (int64_t k = start[d]; k < start[d + 1]; k++) {
            const fp_link *l = &fab->link[ends[k].link];
            snprintf(tmp, sizeof tmp, "[%d]", ends[k].ib_port);
            fp__outbuf_str(f, tmp);
            far_end(f, fab, rs, nm, l, !ends[k].end, 0);
        }
    }
    /* then one HCA per server port, in server and port order */
    for (int64_t s = 0; s < fab->tier_base[1]; s++) {
        for (int64_t k = start[s]; k < start[s + 1]; k++) {
            const fp_link *l = &fab->link[ends[k].link];
            int p = ends[k].ib_port;
            uint64_t g = ca_guid(s, p);
            snprintf(tmp, sizeof tmp,
                     "\nvendid=0x2c9\ndevid=0x1021\nsysimgguid=0x%" PRIx64 "\ncaguid=0x%" PRIx64
                     "\nCa\t1 \"H-%016" PRIx64 "\"\t\t# \"",
                     g, g, g);
            fp__outbuf_str(f, tmp);
            fp__outbuf_str(f, ca_desc(tmp, sizeof tmp, nm, s, p));
            snprintf(tmp, sizeof tmp, "\"\n[1](%" PRIx64 ") ", g + 1);
            fp__outbuf_str(f, tmp);
            far_end(f, fab, rs, nm, l, !ends[k].end, 1);
        }
    }
    free(start);
    free(ends);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_ib_node_name_map(const fp_plan *plan, const char *path,
                                     const fp_write_options *o, fp_error *err)
{
    (void)o;
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_names *nm = fp__plan_names(plan);
    fp_outbuf *f = NULL;
    fp_status rc;
    char tmp[256];
    if ((rc = fp__outbuf_open(&f, path,
                              "# ibnetdiscover --node-name-map: the GUIDs of ibnetdiscover.topo\n"
                              "# (synthetic, fabplan plan) and each node's planned name\n",
                              err)) != FP_OK)
        return rc;
    for (int64_t d = fab->tier_base[1]; d < fab->n_dev; d++) {
        snprintf(tmp, sizeof tmp, "0x%016" PRIx64 " \"", sw_guid(d));
        fp__outbuf_str(f, tmp);
        fp__outbuf_str(f, fp__dev_name(nm, d));
        fp__outbuf_str(f, "\"\n");
    }
    /* server ports with a link: the ports of nic-leaf links, in link order */
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        if (fab->dev[l->a].tier != 0)
            continue;
        snprintf(tmp, sizeof tmp, "0x%016" PRIx64 " \"", ca_guid(l->a, l->a_port));
        fp__outbuf_str(f, tmp);
        fp__outbuf_str(f, ca_desc(tmp, sizeof tmp, nm, l->a, l->a_port));
        fp__outbuf_str(f, "\"\n");
    }
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* One ib-ports.csv row: port p of device d (rate "" when unused). */
static void port_row(fp_outbuf *f, const fp_fabric *fab, const fp_rspec *rs, const fp_names *nm,
                     int64_t d, int p, const char *rate, char *desc, size_t n,
                     char pn[FP_PORT_NAME_MAX])
{
    size_t len;
    const char *port = fp__port_text(nm, fab, d, p, &len);
    if (port == NULL)
        port = fp__port_name(pn, FP_PORT_NAME_MAX, fab, rs, d, p);
    fp__outbuf_csv(f, fab->dev[d].tier == 0 ? ca_desc(desc, n, nm, d, p) : fp__dev_name(nm, d));
    fp__outbuf_char(f, ',');
    fp__outbuf_int(f, fp__ib_port_number(fab, rs, d, p));
    fp__outbuf_char(f, ',');
    fp__outbuf_csv(f, fp__dev_name(nm, d));
    fp__outbuf_char(f, ',');
    fp__outbuf_csv(f, port);
    fp__outbuf_char(f, ',');
    fp__outbuf_str(f, rate);
    fp__outbuf_char(f, '\n');
}

fp_status fp__write_ib_ports_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    (void)o;
    const fp_fabric *fab = fp__plan_fabric(plan);
    const fp_rspec *rs = fp__plan_rspec(plan);
    const fp_names *nm = fp__plan_names(plan);
    fp_outbuf *f = NULL;
    fp_status rc;
    char desc[200], pn[FP_PORT_NAME_MAX], rate[16];
    int64_t *start = NULL;
    port_end *ends = NULL;
    if (group_ports(fab, rs, &start, &ends) != FP_OK)
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    int most = 1;
    for (int t = 1; t <= fab->tiers; t++)
        if (fp__switch_ports(fab, rs, t - 1) > most)
            most = fp__switch_ports(fab, rs, t - 1);
    unsigned char *linked = calloc((size_t)most, 1);
    if (linked == NULL) {
        free(start);
        free(ends);
        FP_FAIL(err, FP_ENOMEM, path, "out of memory writing %s", path);
    }
    if ((rc = fp__outbuf_open(&f, path, "node,ib_port,device,port,link\n", err)) != FP_OK) {
        free(start);
        free(ends);
        free(linked);
        return rc;
    }
    /* every planned end, in link order, A then Z */
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        fp__ib_link_text(rs->gbps[l->boundary], rate, sizeof rate);
        for (int e = 0; e < 2; e++)
            port_row(f, fab, rs, nm, e ? l->z : l->a, e ? l->z_port : l->a_port, rate, desc,
                     sizeof desc, pn);
    }
    /* then each switch's unused ports, so a cable moved to one is named by the plan's port */
    for (int64_t d = fab->tier_base[1]; d < fab->n_dev; d++) {
        int np = fp__switch_ports(fab, rs, fab->dev[d].tier - 1);
        memset(linked, 0, (size_t)most);
        for (int64_t k = start[d]; k < start[d + 1]; k++)
            if (ends[k].port >= 0 && ends[k].port < most)
                linked[ends[k].port] = 1;
        for (int p = 0; p < np && p < most; p++)
            if (!linked[p])
                port_row(f, fab, rs, nm, d, p, "", desc, sizeof desc, pn);
    }
    free(start);
    free(ends);
    free(linked);
    return fp__outbuf_close(f, path, FP_OK, err);
}
