// conv_geom.h - the geometry of one N-d convolution (spatial rank 1, 2 or 3) shared by the conv ops
// (nn_conv.cpp), their CPU kernels (nn_conv_cpu.cpp) and unfold/fold. Note [Conv rank]: every geometry is
// normalised to 3 spatial dims; a rank-r convolution fills the last r slots and leaves the leading 3 - r slots
// at size 1, kernel 1, stride 1, padding 0, dilation 1, so one loop nest serves every rank.
#pragma once
#include "core/tensor.h"
#include "ops/ops.h"

namespace ct {

constexpr int kConvMaxRank = 3;

struct ConvGeom {
    const char* op;  // the user-facing name (conv1d, conv_transpose3d, ...) for messages
    int32_t nd;      // spatial rank 1..3
    int64_t N, C, O, G, Cg, Og;  // input [N, C, in...], weight [O, C/G, k...], output [N, O, out...]
    int64_t in[kConvMaxRank], k[kConvMaxRank], out[kConvMaxRank];
    int64_t stride[kConvMaxRank], padding[kConvMaxRank], dilation[kConvMaxRank];
    int64_t in_plane() const { return in[0] * in[1] * in[2]; }
    int64_t taps() const { return k[0] * k[1] * k[2]; }
    int64_t out_plane() const { return out[0] * out[1] * out[2]; }
    int64_t col_rows() const { return Cg * taps(); }
    // 1x..x1 kernel, stride 1, no padding, output as large as the input: the input is its own im2col matrix.
    bool is_pointwise() const {
        for (int d = 0; d < kConvMaxRank; ++d)
            if (k[d] != 1 || stride[d] != 1 || padding[d] != 0 || out[d] != in[d]) return false;
        return true;
    }
    Shape x_shape() const { return with_spatial({N, C}, in); }
    Shape w_shape() const { return with_spatial({O, Cg}, k); }
    Shape out_shape() const { return with_spatial({N, O}, out); }
    Shape with_spatial(Shape head, const int64_t* s) const {
        for (int d = kConvMaxRank - nd; d < kConvMaxRank; ++d) head.push_back(s[d]);
        return head;
    }
};

// The geometry of convolving x_shape [N, C, in...] with w_shape [O, C/groups, k...] under p (p.transposed is
// ignored: this is always the direct convolution). out_sizes (nd values) sets the output size, which must not
// exceed the natural one (a transposed convolution's output_padding can ask for less); NULL: the natural size.
// Errors name p's op and the sizes.
ConvGeom conv_geom(const Shape& x_shape, const Shape& w_shape, const ConvNdParams& p, const int64_t* out_sizes);

// The op's user-facing name: conv{1,2,3}d or conv_transpose{1,2,3}d.
const char* conv_op_name(int32_t nd, bool transposed);

// CPU kernels (nn_conv_cpu.cpp) on contiguous tensors. col is [col_rows, out_plane] for one sample and group.
// col[(c * taps + t)][p] = x[c][position of output p under tap t] (0 in the padding); col2im is its adjoint
// and adds into x (zeroed by the caller).
template <typename T> void im2col_nd(const T* x, T* col, const ConvGeom& g);
template <typename T> void col2im_nd(const T* col, T* x, const ConvGeom& g);
// Note [Conv col reuse]: the weight gradient needs im2col(x) again, which the forward already made. When the
// weight will get a gradient, the CPU forward writes the whole batch's im2col ([N * G, col_rows, out_plane],
// item n * G + g) into one buffer instead of a per-thread scratch, and ConvolutionBackward saves it for
// conv_weight_grad_cpu, when it takes at most kConvKeepColBytes (conv_keeps_col); otherwise the weight gradient
// recomputes it. The buffer is plain data (a function of x): conv_weight_grad stays an op of its own whose
// backward reads the saved x (Note [Conv family]), so double backward is unchanged.
constexpr int64_t kConvKeepColBytes = int64_t(32) << 20;
bool conv_keeps_col(const ConvGeom& g, DType dt);
// out = conv(x, w) + b (keep_col non-null: set to the batch im2col when conv_keeps_col); grad_x from grad_out and
// w; grad_w from grad_out and x, or from kept_col when defined.
Tensor conv_forward_cpu(const Tensor& x, const Tensor& w, const Tensor& b, const ConvGeom& g, Tensor* keep_col);
Tensor conv_input_grad_cpu(const Tensor& go, const Tensor& w, const ConvGeom& g);
Tensor conv_weight_grad_cpu(const Tensor& go, const Tensor& x, const ConvGeom& g, const Tensor& kept_col);

}  // namespace ct
