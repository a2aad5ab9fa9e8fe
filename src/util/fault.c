/* fabplan — test-only fault injection: make the Nth open, write, fsync, rename or allocation of
 * a run fail, as SQLite tests its I/O errors. Disarmed (the normal case) a point costs one
 * atomic load. The publish tests (tests/write/test_publish.c, fault_sweep_*) sweep N over every
 * point a small plan reaches. */
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include "util/util.h"

static long fault_at;       /* 0: disarmed */
static long fault_seen;
static int fault_kill;      /* armed by fp__fault_arm_kill */

void fp__fault_arm(long n)
{
    __atomic_store_n(&fault_kill, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&fault_seen, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&fault_at, n, __ATOMIC_SEQ_CST);
}

void fp__fault_arm_kill(long n)
{
    fp__fault_arm(n);
    __atomic_store_n(&fault_kill, n != 0, __ATOMIC_SEQ_CST);
}

long fp__fault_points(void)
{
    return __atomic_load_n(&fault_seen, __ATOMIC_SEQ_CST);
}

int fp__fault(fp_fault_kind kind)
{
    long at = __atomic_load_n(&fault_at, __ATOMIC_RELAXED);
    if (at == 0)
        return 0;
    if (__atomic_load_n(&fault_kill, __ATOMIC_SEQ_CST)) {
        if ((kind == FP_FAULT_RENAME || kind == FP_FAULT_FSYNC || kind == FP_FAULT_STEP) &&
            __atomic_add_fetch(&fault_seen, 1, __ATOMIC_SEQ_CST) == at)
            kill(getpid(), SIGKILL);
        return 0;
    }
    if (kind == FP_FAULT_STEP)
        return 0;
    if (__atomic_add_fetch(&fault_seen, 1, __ATOMIC_SEQ_CST) != at)
        return 0;
    errno = kind == FP_FAULT_ALLOC ? ENOMEM : kind == FP_FAULT_WRITE ? ENOSPC : EIO;
    return 1;
}
