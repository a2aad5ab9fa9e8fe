/* fabplan CLI — decline glibc printf hooks for the whole process.
 *
 * Debian's igraph links ARPACK -> libgfortran -> libquadmath, whose constructor registers
 * printf hooks for __float128 (`%Qf`). While any hook is registered, glibc formats every
 * printf-family call of the process on its slow positional path; libxlsxwriter writes each
 * workbook cell with fprintf: a full run at 131,072 GPUs took 7 % longer, 11 % more CPU
 * (docs/performance.md).
 * glibc has no call to remove a hook, but the registration calls are resolved through the
 * dynamic linker, and a definition in the executable comes first: these refuse every
 * registration, as glibc does for a bad argument (-1), and libquadmath's constructor then gives
 * up before it installs anything. fabplan never prints a __float128; quadmath_snprintf does not
 * need the hooks. The library does not carry this (it must not change its embedder's process);
 * src/CMakeLists.txt exports these symbols from the programs that link it. */
#include <errno.h>
#include <printf.h>

/* Visible from the executable (the build hides symbols by default). */
#define REFUSED __attribute__((visibility("default")))

REFUSED int register_printf_type(printf_va_arg_function *fn)
{
    (void)fn;
    errno = ENOSYS;
    return -1;
}

REFUSED int register_printf_modifier(const wchar_t *str)
{
    (void)str;
    errno = ENOSYS;
    return -1;
}

REFUSED int register_printf_specifier(int spec, printf_function *fn,
                                      printf_arginfo_size_function *arginfo)
{
    (void)spec, (void)fn, (void)arginfo;
    errno = ENOSYS;
    return -1;
}

REFUSED int register_printf_function(int spec, printf_function *fn,
                                     printf_arginfo_function *arginfo)
{
    (void)spec, (void)fn, (void)arginfo;
    errno = ENOSYS;
    return -1;
}
