/* Compiles every public header alone and together under -pedantic -Werror. */
#include "fabplan/error.h"
#include "fabplan/catalog.h"
#include "fabplan/spec.h"
#include "fabplan/plan.h"
#include "fabplan/bom.h"
#include "fabplan/cabling.h"
#include "fabplan/write.h"
#include "fabplan/metrics.h"
#include "fabplan/compare.h"
#include "fabplan/verify.h"
#include "fabplan.h"
int fp_headertest_dummy(void);
int fp_headertest_dummy(void) { return FP_OK; }
