/* fabplan — the planned InfiniBand fabric as the tools of an InfiniBand site read it:
 * ibnetdiscover.topo (ibnetdiscover's topology-file form, which ibsim also loads; the compute
 * fabric's, and ibnetdiscover-<network>.topo for each other InfiniBand network: a subnet
 * each), the node-name map (ib-node-name-map, every InfiniBand network's nodes) and
 * ib-ports.csv (every planned port of every InfiniBand network, its node description and port
 * number beside the plan's device and port name: what `fabplan verify` matches a discovery by;
 * with spec `networks` a last column names the network). docs/outputs.md.
 *
 * Nodes: a switch is one node, its description the plan's device name; every fabric port of a
 * host is an HCA of its own, `<host> mlx5_<i>` (i: fp__ib_hca_index, a compute server's ports
 * counted over the InfiniBand networks in order), with one port. GUIDs are synthetic and fixed
 * (real ones come from the hardware): switch device d of network k 0xfab1000000000000 +
 * 2^32 k + d; HCA i of compute server s 0xfab0000000000000 + 256 s + 2 i (i is unique over the
 * networks), of another host h of network k 0xfab0000000000000 + 2^32 k + 256 h + 2 i; its port
 * GUID one more. Network 0, the compute fabric, has the GUIDs it always had. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fabplan.h"
#include "write/writers.h"

#define SW_GUID_BASE 0xfab1000000000000ULL
#define CA_GUID_BASE 0xfab0000000000000ULL

int fp__ib_net(const fp_plan *plan, int k)
{
    return fp__fabric_infiniband(k == 0 ? fp__plan_rspec(plan) : &fp__plan_net(plan, k - 1)->rs);
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
    if (fp__ib_net(plan, 0))
        off += fp__plan_net_read(plan, 0).host_ports;
    for (int j = 1; j < k; j++)
        if (fp__ib_net(plan, j) && dev < fp__plan_net(plan, j - 1)->servers)
            off += fp__plan_net(plan, j - 1)->ports;
    return off + port;
}

void fp__cvt_ports(const fp_plan *plan, int k, int64_t link, char *pa, char *pz, size_t n)
{
    fp_net_read r = fp__plan_net_read(plan, (size_t)k);
    const fp_rspec *rs = r.rs;
    const fp_fabric *fab = r.fab;
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

/* One InfiniBand network as the exports write it: network k (0: the compute fabric), read as
 * every writer reads a network (fp_net_read). */
typedef struct ibv {
    const fp_plan *plan;
    int k;
    const fp_fabric *fab;
    const fp_rspec *rs;
    const fp_net_spec *ns;      /* NULL for the compute fabric */
    fp_net_read r;
} ibv;

static ibv ib_view(const fp_plan *plan, int k)
{
    ibv v;
    v.r = fp__plan_net_read(plan, (size_t)k);
    v.plan = plan;
    v.k = k;
    v.fab = v.r.fab;
    v.rs = v.r.rs;
    v.ns = v.r.ns;
    return v;
}

static const char *dev_name(const ibv *v, int64_t d, char *buf, size_t n)
{
    return fp__net_read_dev(&v->r, d, buf, n, NULL);
}

static const char *port_name(const ibv *v, int64_t d, int p, char *buf, size_t n)
{
    return fp__net_read_port(&v->r, d, p, buf, n, NULL);
}

static uint64_t sw_guid(const ibv *v, int64_t d)
{
    return SW_GUID_BASE + ((uint64_t)v->k << 32) + (uint64_t)d;
}

static uint64_t ca_guid(const ibv *v, int64_t s, int port)
{
    uint64_t net = v->k > 0 && s >= v->ns->servers ? (uint64_t)v->k << 32 : 0;
    return CA_GUID_BASE + net + (uint64_t)s * 256u +
           (uint64_t)fp__ib_hca_index(v->plan, v->k, s, port) * 2u;
}

/* The plan has an InfiniBand network (0 when none). */
static int any_ib(const fp_plan *plan)
{
    for (size_t k = 0; k < fp_plan_net_count(plan); k++)
        if (fp__ib_net(plan, (int)k))
            return 1;
    return 0;
}

int fp__ibnet_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                        char *buf, size_t n)
{
    (void)o;
    if (!fp__ib_net(plan, 0))
        return 0;
    fp__copy_str(buf, n, ext);
    return 1;
}

int fp__ib_any_file_name(const fp_plan *plan, const fp_write_options *o, const char *ext,
                         char *buf, size_t n)
{
    (void)o;
    if (!any_ib(plan))
        return 0;
    fp__copy_str(buf, n, ext);
    return 1;
}

int fp__net_ibnet_file_name(const fp_plan *plan, int k, const char *ext, char *buf, size_t n)
{
    if (k < 0 || k >= fp__plan_net_count(plan) || !fp__ib_net(plan, k + 1))
        return 0;
    snprintf(buf, n, "ibnetdiscover-%s.%s", fp__plan_net(plan, k)->name, ext);
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

/* "su01-node-01 mlx5_3": the node description of host s's port p. */
static const char *ca_desc(char *buf, size_t n, const ibv *v, int64_t s, int p)
{
    char name[128];
    snprintf(buf, n, "%s mlx5_%d", dev_name(v, s, name, sizeof name),
             fp__ib_hca_index(v->plan, v->k, s, p));
    return buf;
}

/* The far end of one port as ibnetdiscover writes it: "S-<guid>"[port] or
 * "H-<guid>"[1](<port guid>), and the far node's description. */
static void far_end(fp_outbuf *f, const ibv *v, const fp_link *l, int end, int from_ca)
{
    const fp_fabric *fab = v->fab;
    int64_t d = end ? l->z : l->a;
    int p = end ? l->z_port : l->a_port;
    char tmp[200], rate[16];
    if (fab->dev[d].tier == 0) {
        uint64_t g = ca_guid(v, d, p);
        snprintf(tmp, sizeof tmp, "\t\"H-%016" PRIx64 "\"[1]%s(%" PRIx64 ") ", g,
                 from_ca ? " " : "", g + 1);
        fp__outbuf_str(f, tmp);
    } else {
        snprintf(tmp, sizeof tmp, "\t\"S-%016" PRIx64 "\"[%d]", sw_guid(v, d),
                 fp__ib_port_number(fab, v->rs, d, p));
        fp__outbuf_str(f, tmp);
    }
    fp__outbuf_str(f, from_ca ? "\t\t# lid 0 lmc 0 \"" : "\t\t# \"");
    if (fab->dev[d].tier == 0)
        fp__outbuf_str(f, ca_desc(tmp, sizeof tmp, v, d, p));
    else
        fp__outbuf_str(f, dev_name(v, d, tmp, sizeof tmp));
    fp__outbuf_str(f, "\" lid 0 ");
    fp__outbuf_str(f, fp__ib_link_text(v->rs->gbps[l->boundary], rate, sizeof rate));
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

/* Network k's topology file. */
static fp_status write_topology(const ibv *v, const char *path, fp_error *err)
{
    const fp_fabric *fab = v->fab;
    const fp_rspec *rs = v->rs;
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
    char head[300];
    if (v->k == 0)
        snprintf(head, sizeof head, "#\n# Topology file: the planned fabric, written by fabplan plan\n"
                 "# (ibnetdiscover's topology form; ibsim loads it)\n#\n");
    else
        snprintf(head, sizeof head, "#\n# Topology file: the planned %s network (a subnet of its own), "
                 "written by fabplan plan\n# (ibnetdiscover's topology form; ibsim loads it)\n#\n",
                 v->ns->name);
    if ((rc = fp__outbuf_open(&f, path, head, err)) != FP_OK) {
        free(start);
        free(ends);
        return rc;
    }
    char tmp[256];
    /* switches first, as ibnetdiscover lists them, each with its connected ports in order */
    for (int64_t d = fab->tier_base[1]; d < nd; d++) {
        uint64_t g = sw_guid(v, d);
        snprintf(tmp, sizeof tmp,
                 "\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x%" PRIx64 "\nswitchguid=0x%" PRIx64
                 "(%" PRIx64 ")\nSwitch\t%d \"S-%016" PRIx64 "\"\t\t# \"",
                 g, g, g, nports[fab->dev[d].tier], g);
        fp__outbuf_str(f, tmp);
        fp__outbuf_str(f, dev_name(v, d, tmp, sizeof tmp));
        fp__outbuf_str(f, "\" enhanced port 0 lid 0 lmc 0\n");
        for (int64_t k = start[d]; k < start[d + 1]; k++) {
            const fp_link *l = &fab->link[ends[k].link];
            snprintf(tmp, sizeof tmp, "[%d]", ends[k].ib_port);
            fp__outbuf_str(f, tmp);
            far_end(f, v, l, !ends[k].end, 0);
        }
    }
    /* then one HCA per host port, in host and port order */
    for (int64_t s = 0; s < fab->tier_base[1]; s++) {
        for (int64_t k = start[s]; k < start[s + 1]; k++) {
            const fp_link *l = &fab->link[ends[k].link];
            int p = ends[k].ib_port;
            uint64_t g = ca_guid(v, s, p);
            snprintf(tmp, sizeof tmp,
                     "\nvendid=0x2c9\ndevid=0x1021\nsysimgguid=0x%" PRIx64 "\ncaguid=0x%" PRIx64
                     "\nCa\t1 \"H-%016" PRIx64 "\"\t\t# \"",
                     g, g, g);
            fp__outbuf_str(f, tmp);
            fp__outbuf_str(f, ca_desc(tmp, sizeof tmp, v, s, p));
            snprintf(tmp, sizeof tmp, "\"\n[1](%" PRIx64 ") ", g + 1);
            fp__outbuf_str(f, tmp);
            far_end(f, v, l, !ends[k].end, 1);
        }
    }
    free(start);
    free(ends);
    return fp__outbuf_close(f, path, FP_OK, err);
}

fp_status fp__write_ibnet_topology(const fp_plan *plan, const char *path,
                                   const fp_write_options *o, fp_error *err)
{
    (void)o;
    ibv v = ib_view(plan, 0);
    return write_topology(&v, path, err);
}

fp_status fp__write_net_ibnet_topology(const fp_plan *plan, int k, const char *path,
                                       const fp_write_options *o, fp_error *err)
{
    (void)o;
    ibv v = ib_view(plan, k + 1);
    return write_topology(&v, path, err);
}

fp_status fp__write_ib_node_name_map(const fp_plan *plan, const char *path,
                                     const fp_write_options *o, fp_error *err)
{
    (void)o;
    fp_outbuf *f = NULL;
    fp_status rc;
    char tmp[256];
    if ((rc = fp__outbuf_open(&f, path,
                              "# ibnetdiscover --node-name-map: the GUIDs of ibnetdiscover.topo\n"
                              "# (synthetic, fabplan plan) and each node's planned name\n",
                              err)) != FP_OK)
        return rc;
    /* every InfiniBand network, the compute fabric first */
    for (int k = 0; k < (int)fp_plan_net_count(plan); k++) {
        if (!fp__ib_net(plan, k))
            continue;
        ibv v = ib_view(plan, k);
        const fp_fabric *fab = v.fab;
        for (int64_t d = fab->tier_base[1]; d < fab->n_dev; d++) {
            snprintf(tmp, sizeof tmp, "0x%016" PRIx64 " \"", sw_guid(&v, d));
            fp__outbuf_str(f, tmp);
            fp__outbuf_str(f, dev_name(&v, d, tmp, sizeof tmp));
            fp__outbuf_str(f, "\"\n");
        }
        /* host ports with a link: the ports of nic-leaf links, in link order */
        for (int64_t i = 0; i < fab->n_link; i++) {
            const fp_link *l = &fab->link[i];
            if (fab->dev[l->a].tier != 0)
                continue;
            snprintf(tmp, sizeof tmp, "0x%016" PRIx64 " \"", ca_guid(&v, l->a, l->a_port));
            fp__outbuf_str(f, tmp);
            fp__outbuf_str(f, ca_desc(tmp, sizeof tmp, &v, l->a, l->a_port));
            fp__outbuf_str(f, "\"\n");
        }
    }
    return fp__outbuf_close(f, path, FP_OK, err);
}

/* One ib-ports.csv row: port p of device d (rate "" when unused); net: the network column,
 * NULL without spec `networks`. */
static void port_row(fp_outbuf *f, const ibv *v, int64_t d, int p, const char *rate,
                     const char *net)
{
    char desc[200], name[128], pn[FP_PORT_NAME_MAX + 32];
    const fp_fabric *fab = v->fab;
    fp__outbuf_csv(f, fab->dev[d].tier == 0 ? ca_desc(desc, sizeof desc, v, d, p)
                                            : dev_name(v, d, desc, sizeof desc));
    fp__outbuf_char(f, ',');
    fp__outbuf_int(f, fp__ib_port_number(fab, v->rs, d, p));
    fp__outbuf_char(f, ',');
    fp__outbuf_csv(f, dev_name(v, d, name, sizeof name));
    fp__outbuf_char(f, ',');
    fp__outbuf_csv(f, port_name(v, d, p, pn, sizeof pn));
    fp__outbuf_char(f, ',');
    fp__outbuf_str(f, rate);
    if (net != NULL) {
        fp__outbuf_char(f, ',');
        fp__outbuf_csv(f, net);
    }
    fp__outbuf_char(f, '\n');
}

/* Network k's rows of ib-ports.csv. */
static fp_status ports_rows(fp_outbuf *f, const ibv *v, const char *net)
{
    const fp_fabric *fab = v->fab;
    const fp_rspec *rs = v->rs;
    char rate[16];
    int64_t *start = NULL;
    port_end *ends = NULL;
    if (group_ports(fab, rs, &start, &ends) != FP_OK)
        return FP_ENOMEM;
    int most = 1;
    for (int t = 1; t <= fab->tiers; t++)
        if (fp__switch_ports(fab, rs, t - 1) > most)
            most = fp__switch_ports(fab, rs, t - 1);
    unsigned char *linked = calloc((size_t)most, 1);
    if (linked == NULL) {
        free(start);
        free(ends);
        return FP_ENOMEM;
    }
    /* every planned end, in link order, A then Z */
    for (int64_t i = 0; i < fab->n_link; i++) {
        const fp_link *l = &fab->link[i];
        fp__ib_link_text(rs->gbps[l->boundary], rate, sizeof rate);
        for (int e = 0; e < 2; e++)
            port_row(f, v, e ? l->z : l->a, e ? l->z_port : l->a_port, rate, net);
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
                port_row(f, v, d, p, "", net);
    }
    free(start);
    free(ends);
    free(linked);
    return FP_OK;
}

fp_status fp__write_ib_ports_csv(const fp_plan *plan, const char *path, const fp_write_options *o,
                                 fp_error *err)
{
    (void)o;
    fp_outbuf *f = NULL;
    fp_status rc;
    const int nets = fp__plan_net_count(plan) > 0;
    if ((rc = fp__outbuf_open(&f, path, nets ? "node,ib_port,device,port,link,network\n"
                                             : "node,ib_port,device,port,link\n", err)) != FP_OK)
        return rc;
    /* every InfiniBand network, the compute fabric first */
    for (int k = 0; k < (int)fp_plan_net_count(plan) && rc == FP_OK; k++) {
        if (!fp__ib_net(plan, k))
            continue;
        ibv v = ib_view(plan, k);
        if (ports_rows(f, &v, nets ? fp__plan_net_label(plan, (size_t)k) : NULL) != FP_OK)
            rc = fp__error_set(err, FP_ENOMEM, path, "out of memory writing %s", path);
    }
    return fp__outbuf_close(f, path, rc, err);
}
