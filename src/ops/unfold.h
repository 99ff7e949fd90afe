// unfold.h - sliding-block extraction and its adjoint (nn_unfold.cpp): torch's F.unfold / F.fold over the last
// two dims, and pixel_shuffle / pixel_unshuffle.
#pragma once
#include "core/tensor.h"

namespace ct {

// Blocks of kernel {kh, kw} with dilation, padding and stride (each {h, w}).
struct UnfoldParams {
    int64_t kernel[2] = {1, 1};
    int64_t dilation[2] = {1, 1};
    int64_t padding[2] = {0, 0};
    int64_t stride[2] = {1, 1};
};
// [N, C, H, W] (or [C, H, W]) -> [N, C * kh * kw, L], L = the number of blocks (row-major over their positions).
Tensor unfold_blocks(const Tensor& x, const UnfoldParams& p);
// [N, C * kh * kw, L] (or 2 dims) -> [N, C, output_size...], overlapping values summed (unfold's adjoint).
Tensor fold_blocks(const Tensor& col, const int64_t output_size[2], const UnfoldParams& p);
// [*, C * r * r, H, W] -> [*, C, H * r, W * r] and back.
Tensor pixel_shuffle(const Tensor& x, int64_t upscale_factor);
Tensor pixel_unshuffle(const Tensor& x, int64_t downscale_factor);

}  // namespace ct
