/* fabplan CLI — gmtime() with a result per thread, for the whole process.
 *
 * libxlsxwriter 1.1.4 calls gmtime() (one static result for the process) while it writes each
 * workbook's document properties in workbook_close; the CLI closes workbooks on several threads
 * at once (plan.xlsx beside --split-by books, the split books' pool), so two closes could read
 * each other's time. A definition in the executable comes before glibc's for every library
 * resolved through the dynamic linker: this one keeps each thread's result apart
 * (gmtime_r into a thread-local struct), which is all POSIX asks of gmtime's callers.
 * Like the printf hooks beside it, the library does not carry this; src/CMakeLists.txt exports
 * it from the programs that link fabplan_process_hooks. */
#include <time.h>

__attribute__((visibility("default"))) struct tm *gmtime(const time_t *timer)
{
    static _Thread_local struct tm result;
    return gmtime_r(timer, &result);
}
