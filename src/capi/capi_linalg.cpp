// capi_linalg.cpp - C API: matmul, dot and outer (ct_t lives with the views in capi_views.cpp).
#include "capi/capi_common.h"
#include "ops/ops.h"

using namespace ct;

extern "C" {

CT_DEFINE_BINARY(matmul, matmul(A, B))
CT_DEFINE_BINARY(dot, dot(A, B))
CT_DEFINE_BINARY(outer, outer(A, B))

}  // extern "C"
