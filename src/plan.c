/* fabplan — the plan object: resolve, build, and read back. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const char *const topo_names[] = { "clos", "fat-tree", "rail-optimized" };

const char *fp_topology_name(fp_topology t)
{
    return (unsigned)t < 3 ? topo_names[t] : "unknown";
}

fp_status fp_plan_new(fp_plan **out, const fp_spec *spec, const fp_catalog *cat, fp_error *err)
{
    fp_plan *plan;
    fp_status rc;
    if (out == NULL)
        FP_FAIL(err, FP_EINVAL, "", "fp_plan_new: out is NULL");
    *out = NULL;
    plan = calloc(1, sizeof *plan);
    if (plan == NULL)
        FP_FAIL(err, FP_ENOMEM, "", "out of memory");
    if ((rc = fp__spec_resolve(&plan->rs, spec, cat, err)) != FP_OK ||
        (rc = fp__clos_build(&plan->fab, &plan->rs, err)) != FP_OK ||
        (rc = fp__layout_build(&plan->lay, &plan->fab, &plan->rs, err)) != FP_OK ||
        (rc = fp__names_build(&plan->names, &plan->fab, &plan->rs, &plan->lay, err)) != FP_OK ||
        (rc = fp__cabling_build(&plan->cab, &plan->lay, &plan->fab, &plan->rs, err)) != FP_OK ||
        (rc = fp__bom_build(&plan->bom, &plan->cab, &plan->fab, &plan->rs, err)) != FP_OK ||
        (rc = fp__analysis_run(plan, err)) != FP_OK) {
        fp_plan_free(plan);
        return rc;
    }
    *out = plan;
    return FP_OK;
}

void fp_plan_free(fp_plan *plan)
{
    if (plan == NULL)
        return;
    fp__bom_free(&plan->bom);
    fp__cabling_free(&plan->cab);
    fp__names_free(&plan->names);
    fp__layout_free(&plan->lay);
    fp__fabric_free(&plan->fab);
    fp__phys_free(&plan->rs.phys);
    fp__analysis_free(plan->an);
    free(plan);
}

void fp_plan_summary(const fp_plan *plan, fp_summary *out)
{
    const fp_fabric *f = &plan->fab;
    const fp_rspec *rs = &plan->rs;
    memset(out, 0, sizeof *out);
    out->gpus = rs->gpus;
    out->servers = f->servers - rs->spare_servers;
    out->spare_servers = rs->spare_servers;
    out->endpoints = f->boundary_base[1];
    out->tiers = f->tiers;
    out->planes = f->planes;
    out->topology = rs->topology;
    out->switches = f->n_dev - f->servers;
    out->links = f->n_link;
    out->capacity_gpus = f->capacity_endpoints / rs->endpoints_per_server * rs->gpus_per_server;
    out->tier_choice = rs->tier_choice;
}

size_t fp_plan_tier_count(const fp_plan *plan)
{
    return (size_t)plan->fab.tiers;
}

fp_status fp_plan_tier(const fp_plan *plan, size_t i, fp_tier_info *out, fp_error *err)
{
    const fp_fabric *f = &plan->fab;
    if (i >= (size_t)f->tiers)
        FP_FAIL(err, FP_EINVAL, "", "tier %zu out of range (the plan has %d)", i, f->tiers);
    const fp_tier_spec *ts = &plan->rs.tier[i];
    int t = (int)i + 1;
    memset(out, 0, sizeof *out);
    out->tier = t;
    out->role = fp__tier_role(t, f->tiers);
    out->model = ts->model.id;
    out->switches = f->level[t].switches * f->planes;
    out->ports_per_switch = ts->radix;
    out->port_gbps = ts->gbps_down;
    out->up_gbps = t < f->tiers ? ts->gbps_up : 0;
    out->down_ports = ts->down;
    out->up_ports = ts->up;
    out->ports_used = f->ports_used[t];
    out->ports_spare = out->switches * ts->radix - out->ports_used;
    out->oversubscription = ts->up ? (double)ts->down * ts->gbps_down /
                                         ((double)ts->up * ts->gbps_up) : 0.0;
    out->links_up = t < f->tiers ? f->boundary_base[t + 1] - f->boundary_base[t] : 0;
    return FP_OK;
}

size_t fp_plan_device_count(const fp_plan *plan)
{
    return (size_t)plan->fab.n_dev;
}

fp_status fp_plan_device(const fp_plan *plan, size_t i, fp_device_info *out, fp_error *err)
{
    const fp_fabric *f = &plan->fab;
    if (i >= (size_t)f->n_dev)
        FP_FAIL(err, FP_EINVAL, "", "device %zu out of range (the plan has %lld)", i,
                (long long)f->n_dev);
    const fp_device *d = &f->dev[i];
    memset(out, 0, sizeof *out);
    out->tier = d->tier;
    out->plane = d->plane;
    out->pod = d->pod;
    out->zone = d->zone;
    out->su = d->su;
    out->rail = d->rail;
    out->index = d->index;
    if (d->tier == 0) {
        out->ports = plan->rs.nics_per_server * plan->rs.nic.ports;
        out->model = plan->rs.nic.id;
    } else {
        out->ports = plan->rs.tier[d->tier - 1].radix;
        out->model = plan->rs.tier[d->tier - 1].model.id;
    }
    fp__device_name(out->name, sizeof out->name, f, &plan->rs, (int64_t)i);
    return FP_OK;
}

size_t fp_plan_link_count(const fp_plan *plan)
{
    return (size_t)plan->fab.n_link;
}

fp_status fp_plan_link(const fp_plan *plan, size_t i, fp_link_info *out, fp_error *err)
{
    const fp_fabric *f = &plan->fab;
    if (i >= (size_t)f->n_link)
        FP_FAIL(err, FP_EINVAL, "", "link %zu out of range (the plan has %lld)", i,
                (long long)f->n_link);
    const fp_link *l = &f->link[i];
    memset(out, 0, sizeof *out);
    out->id = (int64_t)i;
    out->a = l->a;
    out->z = l->z;
    out->a_port = l->a_port;
    out->z_port = l->z_port;
    fp__port_name(out->a_port_name, sizeof out->a_port_name, f, &plan->rs, l->a, l->a_port);
    fp__port_name(out->z_port_name, sizeof out->z_port_name, f, &plan->rs, l->z, l->z_port);
    out->gbps = plan->rs.gbps[l->boundary];
    out->boundary = l->boundary;
    out->plane = l->plane;
    return FP_OK;
}

int64_t fp_plan_boundary_links(const fp_plan *plan, int boundary)
{
    const fp_fabric *f = &plan->fab;
    if (boundary < 0 || boundary >= f->tiers)
        return 0;
    return f->boundary_base[boundary + 1] - f->boundary_base[boundary];
}

size_t fp_plan_note_count(const fp_plan *plan)
{
    return (size_t)plan->fab.n_notes;
}

const char *fp_plan_note(const fp_plan *plan, size_t i)
{
    return i < (size_t)plan->fab.n_notes ? plan->fab.notes[i] : NULL;
}
