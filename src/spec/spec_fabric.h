/* fabplan — private to the spec stage's spec.c and spec_fabric.c: resolving the cluster and
 * fabric sections of a spec. */
#ifndef FP_PRIVATE_SPEC_SPEC_FABRIC_H
#define FP_PRIVATE_SPEC_SPEC_FABRIC_H

#include "spec/json_read.h"

/* The cluster section (c may be NULL: defaults): GPUs, servers, the NIC. */
fp_status fp__spec_resolve_cluster(fp_rspec *rs, const cJSON *c, const fp_catalog *cat,
                                   fp_error *err);
/* The fabric section (f may be NULL: defaults): topology, tiers, switches, speeds,
 * oversubscription, planes, reserve. */
fp_status fp__spec_resolve_fabric(fp_rspec *rs, const cJSON *f, const fp_catalog *cat,
                                  fp_error *err);
/* Checks across the two sections (NIC and switch speeds and protocols, fat-tree rules, tiers
 * given against the models) and each tier's breakouts and port names. */
fp_status fp__spec_check_combined(fp_rspec *rs, fp_error *err);

#endif
