/* header_c89.c - header purity check: ctensor.h alone must compile as C89/C99/C11 and as C++98/C++17 with
 * -pedantic -Wall -Wextra -Werror. Only compiled (never linked): the body checks that declarations parse. */
#include "ctensor.h"

typedef ct_status (*binary_fn)(ct_tensor, ct_tensor, ct_tensor*);
typedef ct_status (*dlpack_export_fn)(ct_tensor, struct DLManagedTensor**);

int main(void) {
    ct_tensor t = NULL;
    ct_generator g = NULL;
    ct_optimizer o = NULL;
    ct_device d;
    ct_status st = CT_OK;
    ct_dtype dt = CT_BOOL;
    ct_deleter_fn deleter = NULL;
    ct_backward_fn backward = NULL;
    binary_fn mul = ct_mul;
    dlpack_export_fn to_dlpack = ct_to_dlpack;
    d.type = CT_DEVICE_CPU;
    d.index = 0;
    (void)t;
    (void)g;
    (void)o;
    (void)d;
    (void)dt;
    (void)deleter;
    (void)backward;
    (void)mul;
    (void)to_dlpack;
    return st + CT_ERR_VERSION * 0 + CT_REDUCTION_SUM * 0 + CT_VERSION_MAJOR * 0 + CT_ABI_VERSION * 0;
}
