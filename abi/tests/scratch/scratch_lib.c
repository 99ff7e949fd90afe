/* scratch_lib.c - implementation of scratch_lib.h for every variant (see abi/tests/test_check_abi.sh). */
#include "scratch_lib.h"

#ifdef VARIANT_SIGNATURE
int sl_add(int a, int b, int c) { return a + b + c; }
#else
int sl_add(int a, int b) { return a + b; }
#endif

int sl_manhattan(sl_point p) { return p.x + (int)p.y; }

#ifndef VARIANT_REMOVED
int sl_color_code(enum sl_color c) { return (int)c; }
#endif

#ifdef VARIANT_ADDED
int sl_sub(int a, int b) { return a - b; }
#endif
