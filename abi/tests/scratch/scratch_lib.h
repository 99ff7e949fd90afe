/* scratch_lib.h - the public header of a tiny library that abi/tests/test_check_abi.sh builds as "v1" and
 * as variants (-DVARIANT_...), to show which changes the ABI check accepts and which it rejects. */
#ifndef SCRATCH_LIB_H
#define SCRATCH_LIB_H

#ifdef VARIANT_STRUCT_LAYOUT
typedef struct sl_point { int x; long y; } sl_point; /* y widened: size and offsets change */
#else
typedef struct sl_point { int x; int y; } sl_point;
#endif

#ifdef VARIANT_ENUM_VALUE
enum sl_color { SL_RED = 0, SL_GREEN = 2 };           /* a value changed */
#elif defined(VARIANT_ENUM_APPENDED)
enum sl_color { SL_RED = 0, SL_GREEN = 1, SL_BLUE = 2 }; /* a value appended: allowed */
#else
enum sl_color { SL_RED = 0, SL_GREEN = 1 };
#endif

#ifdef VARIANT_SIGNATURE
int sl_add(int a, int b, int c);                      /* a parameter added */
#else
int sl_add(int a, int b);
#endif
int sl_manhattan(sl_point p);
#ifndef VARIANT_REMOVED
int sl_color_code(enum sl_color c);
#endif
#ifdef VARIANT_ADDED
int sl_sub(int a, int b);                             /* a new function: allowed */
#endif

#endif
