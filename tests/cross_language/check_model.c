/* check_model.c - C's part of run.sh: loads a model file (Linear(5, 8), ReLU, Linear(8, 3) as 0.weight, 0.bias,
 * 2.weight, 2.bias, with `input` and the trainer's `logits`), recomputes the logits through the C API and
 * compares them with the stored ones (max |diff| <= 1e-6). Usage: check_model FILE */
#include <ctensor.h>
#include <math.h>
#include <stdio.h>

#define CHECK(call)                                                           \
    do {                                                                      \
        if ((call) != CT_OK) {                                                \
            fprintf(stderr, "c: %s: %s\n", #call, ct_last_error());           \
            return 1;                                                         \
        }                                                                     \
    } while (0)

int main(int argc, char** argv) {
    ct_safetensors f = NULL;
    ct_tensor w0 = NULL, b0 = NULL, w2 = NULL, b2 = NULL, x = NULL, expected = NULL, h = NULL, r = NULL, y = NULL;
    float got[64], want[64], worst = 0.0f;
    char by[64] = "?";
    int64_t n = 0, i;
    if (argc != 2) {
        fprintf(stderr, "usage: check_model FILE\n");
        return 2;
    }
    CHECK(ct_load_safetensors(argv[1], ct_cpu(), 1, &f));
    CHECK(ct_safetensors_get(f, "0.weight", &w0));
    CHECK(ct_safetensors_get(f, "0.bias", &b0));
    CHECK(ct_safetensors_get(f, "2.weight", &w2));
    CHECK(ct_safetensors_get(f, "2.bias", &b2));
    CHECK(ct_safetensors_get(f, "input", &x));
    CHECK(ct_safetensors_get(f, "logits", &expected));
    ct_safetensors_metadata_get(f, "trained_by", by, (int32_t)sizeof by, NULL);
    CHECK(ct_linear(x, w0, b0, &h));
    CHECK(ct_relu(h, &r));
    CHECK(ct_linear(r, w2, b2, &y));
    CHECK(ct_tensor_numel(y, &n));
    if (n > 64) {
        fprintf(stderr, "c: %lld logits, more than this checker holds\n", (long long)n);
        return 1;
    }
    CHECK(ct_tensor_copy_to_host(y, got, n * (int64_t)sizeof(float)));
    CHECK(ct_tensor_copy_to_host(expected, want, n * (int64_t)sizeof(float)));
    for (i = 0; i < n; ++i) worst = fmaxf(worst, fabsf(got[i] - want[i]));
    printf("c: logits of the model trained in %s: max |diff| = %g over %lld values\n", by, worst, (long long)n);
    ct_tensor_release(w0), ct_tensor_release(b0), ct_tensor_release(w2), ct_tensor_release(b2);
    ct_tensor_release(x), ct_tensor_release(expected), ct_tensor_release(h), ct_tensor_release(r), ct_tensor_release(y);
    ct_safetensors_release(f);
    if (ct_live_handles() != 0) {
        fprintf(stderr, "c: %lld handles leaked\n", (long long)ct_live_handles());
        return 1;
    }
    return worst <= 1e-6f ? 0 : 1;
}
