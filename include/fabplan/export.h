/* fabplan — symbol visibility. */
#ifndef FABPLAN_EXPORT_H
#define FABPLAN_EXPORT_H
#if defined(__GNUC__) && !defined(FABPLAN_STATIC_INTERNAL)
#define FP_EXPORT __attribute__((visibility("default")))
#else
#define FP_EXPORT
#endif
#endif
