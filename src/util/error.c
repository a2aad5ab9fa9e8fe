/* fabplan — status strings and error recording. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "util/util.h"

static const char *const status_names[] = {
    "ok", "out of memory", "invalid value", "catalog error", "I/O error", "graph error",
    "design cannot be built", "JSON syntax error", "stage not built",
};

const char *fp_strerror(fp_status status)
{
    /* compared before negating: -INT_MIN overflows */
    if ((int)status > 0 || (int)status <= -(int)(sizeof status_names / sizeof status_names[0]))
        return "unknown error";
    return status_names[-(int)status];
}

void fp_error_clear(fp_error *err)
{
    if (err != NULL)
        memset(err, 0, sizeof *err);
}

fp_status fp__error_set(fp_error *err, fp_status code, const char *where, const char *fmt, ...)
{
    if (err == NULL || err->code != FP_OK)
        return code;
    va_list ap;
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    snprintf(err->where, sizeof err->where, "%s", where ? where : "");
    /* a message quotes its input (a node description, a cable id, a key): a control character
     * there (a terminal escape, a line break) is shown as '?', whatever the input */
    for (char *c = err->msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    for (char *c = err->where; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return code;
}

const char *fp_version(void)
{
    return FP_VERSION;
}
