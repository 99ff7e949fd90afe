/* abi/header_compile_test.c - compiled by CTest as C89, C99, C11, C++98 and C++17 with gcc and clang under
 * -pedantic -Wall -Wextra -Werror (see abi/CMakeLists.txt): the public header must stay portable C. */
#include "ctensor.h"
#include "ctensor.h" /* the include guard makes a second inclusion harmless */

/* Uses the header's types, constants and a few declarations so they are all type-checked. */
int header_compile_test_use(void);
int header_compile_test_use(void) {
    ct_tensor tensor = NULL;
    ct_device device = {CT_DEVICE_CPU, 0};
    ct_status (*add)(ct_tensor, ct_tensor, double, ct_tensor*) = ct_add;
    ct_deleter_fn deleter = NULL;
    ct_backward_fn backward = NULL;
    ct_dtype dtype = CT_FLOAT32;
    int32_t reduction = CT_REDUCTION_MEAN;
    ct_status status = CT_OK;
    (void)tensor;
    (void)deleter;
    (void)backward;
    return device.type + dtype + reduction + status + (add != NULL) + CT_VERSION_MAJOR;
}
