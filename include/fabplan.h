/* fabplan — plan the network fabric of a GPU cluster.
 *
 * Umbrella header. The library never prints and never exits: every call that can fail returns
 * an fp_status and fills a caller-owned fp_error. See examples/embed/ for a small program. */
#ifndef FABPLAN_H
#define FABPLAN_H

#define FP_VERSION "0.1.0"
#define FP_VERSION_MAJOR 0
#define FP_VERSION_MINOR 1
#define FP_VERSION_PATCH 0

#include "fabplan/error.h"
#include "fabplan/catalog.h"
#include "fabplan/spec.h"
#include "fabplan/plan.h"
#include "fabplan/cabling.h"
#include "fabplan/bom.h"
#include "fabplan/write.h"
#include "fabplan/metrics.h"
#include "fabplan/compare.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The library's version string ("0.1.0"); may differ from FP_VERSION if linked dynamically. */
FP_EXPORT const char *fp_version(void);

#ifdef __cplusplus
}
#endif
#endif
