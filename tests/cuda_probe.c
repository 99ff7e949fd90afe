/* cuda_probe.c - prints what ct_cuda_is_available reports in a fresh process. The backend is loaded once per
   process, so tests/test_cuda.cpp runs this with different CTENSOR_CUDA_BACKEND values to test the loader. */
#include <stdio.h>
#include "ctensor.h"

int main(void) {
    char reason[1024];
    if (ct_cuda_is_available(reason, (int32_t)sizeof reason)) {
        printf("available: %d device(s)\n", (int)ct_cuda_device_count());
        return 0;
    }
    printf("unavailable: %s\n", reason);
    return 0;
}
