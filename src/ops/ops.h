// ops.h - the engine's op API in C++ (one function per op; differentiable ones record autograd history).
// The C API in src/capi wraps these one to one. Implementations live in one file per family.
#pragma once
#include <cstdint>
#include <optional>
#include "autograd/node.h"
#include "core/tensor.h"

#include "ops/complex_ops.h"  // complex64 / complex128 ops (issue 15)

namespace ct {

class Generator;
using IntList = std::vector<int64_t>;

// ---- creation (creation.cpp, random.cpp) ----
Tensor empty(const Shape& shape, DType dtype, Device device);
Tensor zeros(const Shape& shape, DType dtype, Device device);
Tensor ones(const Shape& shape, DType dtype, Device device);
Tensor full(const Shape& shape, double value, DType dtype, Device device);
Tensor scalar_tensor(double value, DType dtype, Device device);
Tensor wrapped_scalar(double value, bool is_integer);  // float64/int64 0-d with wrapped_number = true
Tensor wrapped_scalar_bool(bool value);               // bool 0-d with wrapped_number = true
Tensor arange(double start, double end, double step, DType dtype, Device device);
Tensor linspace(double start, double end, int64_t steps, DType dtype, Device device);
Tensor eye(int64_t n, int64_t m, DType dtype, Device device);
Tensor zeros_like(const Tensor& t);
Tensor ones_like(const Tensor& t);
Tensor full_like(const Tensor& t, double value);
Tensor from_data(const void* data, int64_t nbytes, const Shape& shape, DType dtype, Device device);
// A tensor over caller memory (no copy); strides in elements, NULL = contiguous, negative ones refused. release
// runs when the storage dies; on failure it never runs (the caller keeps the memory).
Tensor from_blob(void* data, const Shape& sizes, const int64_t* strides, DType dtype, Device device,
                 std::function<void()> release);
void copy_to_host(const Tensor& t, void* dst, int64_t nbytes);
double item(const Tensor& t);
int64_t item_int64(const Tensor& t);
Tensor rand(const Shape& shape, DType dtype, Device device, Generator* gen);
Tensor randn(const Shape& shape, DType dtype, Device device, Generator* gen);
Tensor randint(int64_t low, int64_t high, const Shape& shape, DType dtype, Device device, Generator* gen);
Tensor bernoulli(const Tensor& p, Generator* gen);
Tensor randperm(int64_t n, Device device, Generator* gen);

// ---- views and layout (views.cpp) ----
Tensor reshape(const Tensor& t, const Shape& shape);
Tensor view(const Tensor& t, const Shape& shape);
Tensor transpose(const Tensor& t, int64_t d0, int64_t d1);
Tensor permute(const Tensor& t, const IntList& perm);
Tensor squeeze(const Tensor& t, int64_t dim);
Tensor squeeze_all(const Tensor& t);
Tensor unsqueeze(const Tensor& t, int64_t dim);
Tensor expand(const Tensor& t, const Shape& shape);
Tensor flatten(const Tensor& t, int64_t start_dim, int64_t end_dim);
Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor& t, int64_t dim, int64_t start, int64_t end, int64_t step);
Tensor select(const Tensor& t, int64_t dim, int64_t index);
Tensor diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2);
Tensor contiguous(const Tensor& t);
Tensor clone(const Tensor& t);
Tensor detach(const Tensor& t);
Tensor to_dtype(const Tensor& t, DType dtype);
Tensor to_device(const Tensor& t, Device device);
Tensor t2d(const Tensor& t);  // ct_t

// ---- elementwise (unary.cpp, binary.cpp) ----
Tensor neg(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor sign(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor log1p(const Tensor& x);
Tensor expm1(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor rsqrt(const Tensor& x);
Tensor sin(const Tensor& x);
Tensor cos(const Tensor& x);
Tensor tan(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor relu(const Tensor& x);
Tensor gelu(const Tensor& x);
Tensor silu(const Tensor& x);
Tensor softplus(const Tensor& x);
Tensor floor(const Tensor& x);
Tensor ceil(const Tensor& x);
Tensor round(const Tensor& x);
Tensor reciprocal(const Tensor& x);
Tensor logical_not(const Tensor& x);
Tensor pow_scalar(const Tensor& x, double exponent);
Tensor clamp(const Tensor& x, std::optional<double> lo, std::optional<double> hi);

Tensor add(const Tensor& a, const Tensor& b, double alpha = 1.0);
Tensor sub(const Tensor& a, const Tensor& b, double alpha = 1.0);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor pow(const Tensor& a, const Tensor& b);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);
Tensor atan2(const Tensor& a, const Tensor& b);
Tensor remainder(const Tensor& a, const Tensor& b);
Tensor floor_divide(const Tensor& a, const Tensor& b);  // Python's //: integers exact, floats floor(a / b); no gradient
Tensor eq(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Tensor& b);
Tensor logical_and(const Tensor& a, const Tensor& b);
Tensor logical_or(const Tensor& a, const Tensor& b);
Tensor logical_xor(const Tensor& a, const Tensor& b);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
// Scalar conveniences used inside the engine (b is a wrapped number).
Tensor add_scalar(const Tensor& a, double s);
Tensor mul_scalar(const Tensor& a, double s);

// ---- reductions (reduce.cpp) ----
Tensor sum(const Tensor& x, const IntList& dims, bool keepdim);
Tensor mean(const Tensor& x, const IntList& dims, bool keepdim);
Tensor prod(const Tensor& x, const IntList& dims, bool keepdim);
Tensor var(const Tensor& x, const IntList& dims, double correction, bool keepdim);
Tensor std_(const Tensor& x, const IntList& dims, double correction, bool keepdim);
Tensor logsumexp(const Tensor& x, const IntList& dims, bool keepdim);
Tensor norm(const Tensor& x, double p, const IntList& dims, bool keepdim);
Tensor all(const Tensor& x, const IntList& dims, bool keepdim);
Tensor any(const Tensor& x, const IntList& dims, bool keepdim);
Tensor max_all(const Tensor& x);
Tensor min_all(const Tensor& x);
std::pair<Tensor, Tensor> max_dim(const Tensor& x, int64_t dim, bool keepdim);
std::pair<Tensor, Tensor> min_dim(const Tensor& x, int64_t dim, bool keepdim);
Tensor argmax(const Tensor& x, int64_t dim, bool keepdim);
Tensor argmin(const Tensor& x, int64_t dim, bool keepdim);
Tensor argmax_all(const Tensor& x);
Tensor argmin_all(const Tensor& x);
Tensor cumsum(const Tensor& x, int64_t dim);
// Sums g over broadcast dims so that it has shape (the backward of broadcasting).
Tensor sum_to(const Tensor& g, const Shape& shape);

// ---- linear algebra (linalg.cpp) ----
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor dot(const Tensor& a, const Tensor& b);
Tensor outer(const Tensor& a, const Tensor& b);

// ---- indexing and joining (indexing.cpp, join.cpp) ----
Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index);
Tensor gather(const Tensor& x, int64_t dim, const Tensor& index);
Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value);
Tensor masked_select(const Tensor& x, const Tensor& mask);
Tensor nonzero(const Tensor& x);
Tensor cat(const TensorList& tensors, int64_t dim);
Tensor stack(const TensorList& tensors, int64_t dim);
// split and chunk as plans, so that a caller checks the piece count before any piece is made: piece i is
// narrow(x, dim, i * size, ...) for i < count (PyTorch's sizes; an empty dim gives empty pieces).
struct SplitPlan {
    int64_t dim, count, size;
};
SplitPlan split_plan(const Tensor& x, int64_t split_size, int64_t dim);
SplitPlan chunk_plan(const Tensor& x, int64_t chunks, int64_t dim);
Tensor split_piece(const Tensor& x, const SplitPlan& plan, int64_t i);

// ---- in-place (inplace.cpp); each bumps dst's version ----
void add_(Tensor& dst, const Tensor& b, double alpha);
void sub_(Tensor& dst, const Tensor& b, double alpha);
void mul_(Tensor& dst, const Tensor& b);
void div_(Tensor& dst, const Tensor& b);
void zero_(Tensor& dst);
void fill_(Tensor& dst, double value);
void copy_(Tensor& dst, const Tensor& src);
void clamp_(Tensor& dst, std::optional<double> lo, std::optional<double> hi);

// ---- nn functional (nn_*.cpp) ----
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias);
Tensor softmax(const Tensor& x, int64_t dim);
Tensor log_softmax(const Tensor& x, int64_t dim);
// BatchMean (kl_div only): the sum divided by the input's dim 0.
enum class Reduction : int32_t { None = 0, Mean = 1, Sum = 2, BatchMean = 3 };
Tensor cross_entropy(const Tensor& logits, const Tensor& target, Reduction r, int64_t ignore_index);
Tensor nll_loss(const Tensor& log_probs, const Tensor& target, Reduction r, int64_t ignore_index);
// The full forms (nn_loss_class.cpp): [C], [N, C] or [N, C, d...] inputs, class weights (undefined = none),
// label smoothing, and (cross_entropy) floating class-probability targets of the input's shape.
Tensor cross_entropy_ex(const Tensor& logits, const Tensor& target, const Tensor& weight, Reduction r,
                        int64_t ignore_index, double label_smoothing);
Tensor nll_loss_ex(const Tensor& log_probs, const Tensor& target, const Tensor& weight, Reduction r,
                   int64_t ignore_index);
Tensor mse_loss(const Tensor& input, const Tensor& target, Reduction r);
Tensor binary_cross_entropy(const Tensor& probs, const Tensor& target, Reduction r);
Tensor binary_cross_entropy_with_logits(const Tensor& logits, const Tensor& target, Reduction r);
Tensor dropout(const Tensor& x, double p, bool training, Generator* gen);
// nn_loss_pointwise.cpp, nn_loss_margin.cpp: torch.nn.functional's further losses, composed of the ops above
Tensor l1_loss(const Tensor& input, const Tensor& target, Reduction r);
Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, Reduction r, double beta);
Tensor huber_loss(const Tensor& input, const Tensor& target, Reduction r, double delta);
Tensor kl_div(const Tensor& input, const Tensor& target, Reduction r, bool log_target);
Tensor soft_margin_loss(const Tensor& input, const Tensor& target, Reduction r);
Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps, Reduction r);
Tensor gaussian_nll_loss(const Tensor& input, const Tensor& target, const Tensor& var, bool full, double eps,
                         Reduction r);
Tensor hinge_embedding_loss(const Tensor& input, const Tensor& target, double margin, Reduction r);
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                           Reduction r);
Tensor multilabel_soft_margin_loss(const Tensor& input, const Tensor& target, const Tensor& weight, Reduction r);
Tensor multi_margin_loss(const Tensor& input, const Tensor& target, int64_t p, double margin, const Tensor& weight,
                         Reduction r);
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                             Reduction r);
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin,
                           double p, double eps, bool swap, Reduction r);
// nn_ctc.cpp: log_probs [T, N, C] or [T, C]; targets [N, S] or concatenated; one length of each per sample
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const IntList& input_lengths,
                const IntList& target_lengths, int64_t blank, Reduction r, bool zero_infinity);
// activations.cpp: torch.nn.functional's further activations, composed of the ops above
Tensor elu(const Tensor& x, double alpha, double scale, double input_scale);
Tensor leaky_relu(const Tensor& x, double negative_slope);
Tensor hardtanh(const Tensor& x, double min_val, double max_val);
Tensor hardsigmoid(const Tensor& x);
Tensor hardswish(const Tensor& x);
Tensor softshrink(const Tensor& x, double lambd);
Tensor hardshrink(const Tensor& x, double lambd);
Tensor threshold(const Tensor& x, double threshold_value, double value);
Tensor mish(const Tensor& x);
Tensor log_sigmoid(const Tensor& x);
Tensor softsign(const Tensor& x);
Tensor tanhshrink(const Tensor& x);
Tensor softmin(const Tensor& x, int64_t dim);
Tensor glu(const Tensor& x, int64_t dim);
Tensor prelu(const Tensor& x, const Tensor& weight);
Tensor rrelu(const Tensor& x, double lower, double upper, bool training, Generator* gen);
Tensor embedding(const Tensor& weight, const Tensor& indices);
// embedding with padding_idx (no gradient for that row) and scale_grad_by_freq (nn_embedding_bag.cpp).
Tensor embedding_ex(const Tensor& weight, const Tensor& indices, std::optional<int64_t> padding_idx,
                    bool scale_grad_by_freq);
// Scales the rows of weight named in indices whose norm exceeds max_norm, in place, without autograd.
void embedding_renorm_(Tensor& weight, const Tensor& indices, double max_norm, double norm_type);
// Sum / mean / max (CT_EMBEDDING_BAG_*) of bags of weight's rows (ct_embedding_bag in ctensor.h).
Tensor embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets, int32_t mode,
                     const Tensor& per_sample_weights, bool include_last_offset, std::optional<int64_t> padding_idx,
                     bool scale_grad_by_freq);
// Normalisation layers (nn_norms.cpp; ct_layer_norm / ct_group_norm / ct_batch_norm in ctensor.h). weight / bias
// may be undefined; batch_norm updates running_mean / running_var in place when training and they are defined.
Tensor layer_norm(const Tensor& x, const IntList& normalized_shape, const Tensor& weight, const Tensor& bias,
                  double eps);
Tensor group_norm(const Tensor& x, int64_t num_groups, const Tensor& weight, const Tensor& bias, double eps);
Tensor batch_norm(const Tensor& x, const Tensor& running_mean, const Tensor& running_var, const Tensor& weight,
                  const Tensor& bias, bool training, double momentum, double eps);
struct Conv2dParams {
    int64_t stride[2] = {1, 1};
    int64_t padding[2] = {0, 0};
    int64_t dilation[2] = {1, 1};
    int64_t groups = 1;
};
Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias, const Conv2dParams& p);
// N-d convolution (Note [Conv rank]): input [N, C, in...] (or unbatched [C, in...]), nd = 1, 2 or 3 spatial dims;
// arrays hold nd values. Direct: weight [O, C/groups, k...]. Transposed (the direct one's input gradient):
// weight [C, O/groups, k...], output size (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1.
struct ConvNdParams {
    int32_t nd = 2;
    int64_t stride[3] = {1, 1, 1};
    int64_t padding[3] = {0, 0, 0};
    int64_t dilation[3] = {1, 1, 1};
    int64_t output_padding[3] = {0, 0, 0};  // transposed only
    int64_t groups = 1;
    bool transposed = false;
};
Tensor convolution(const Tensor& x, const Tensor& weight, const Tensor& bias, const ConvNdParams& p);
struct Pool2dParams {
    int64_t kernel[2] = {1, 1};
    int64_t stride[2] = {1, 1};
    int64_t padding[2] = {0, 0};
    int64_t dilation[2] = {1, 1};   // max pooling only
    bool ceil_mode = false;
    bool count_include_pad = true;  // avg pooling only
    int64_t divisor_override = 0;   // avg pooling only; 0 = none
};
Tensor max_pool2d(const Tensor& x, const Pool2dParams& p);
// max_pool2d and its int64 argmax (flat h * W + w within each plane, like torch's return_indices).
std::pair<Tensor, Tensor> max_pool2d_with_indices(const Tensor& x, const Pool2dParams& p);
Tensor avg_pool2d(const Tensor& x, const Pool2dParams& p);
// Adaptive pooling to output_size {oh, ow}: output i covers [floor(i * H / oh), ceil((i + 1) * H / oh)).
Tensor adaptive_avg_pool2d(const Tensor& x, const int64_t output_size[2]);
std::pair<Tensor, Tensor> adaptive_max_pool2d(const Tensor& x, const int64_t output_size[2]);
// N-d pooling (nd = 1, 2 or 3 spatial dims; arrays hold nd values) with the options of Pool2dParams; input
// [N, C, spatial...] or [C, spatial...]. Indices are flat positions within each input plane (row-major over the
// nd spatial dims), like torch's return_indices. (nn_pool_nd.cpp: composed of the 2-d pooling above.)
struct PoolNdParams {
    int32_t nd = 2;
    int64_t kernel[3] = {1, 1, 1};
    int64_t stride[3] = {1, 1, 1};
    int64_t padding[3] = {0, 0, 0};
    int64_t dilation[3] = {1, 1, 1};  // max pooling only
    bool ceil_mode = false;
    bool count_include_pad = true;    // avg pooling only
    int64_t divisor_override = 0;     // avg pooling only; 0 = none
};
std::pair<Tensor, Tensor> max_pool_nd(const Tensor& x, const PoolNdParams& p);
Tensor avg_pool_nd(const Tensor& x, const PoolNdParams& p);
Tensor adaptive_avg_pool_nd(const Tensor& x, int32_t nd, const int64_t* output_size);
std::pair<Tensor, Tensor> adaptive_max_pool_nd(const Tensor& x, int32_t nd, const int64_t* output_size);
// torch's F.interpolate of x [N, C, d1..dk] by mode CT_INTERP_* (ct_interpolate in ctensor.h; nn_interpolate.cpp).
Tensor interpolate(const Tensor& x, const int64_t* size, const double* scale_factors, int32_t k, int32_t mode,
                   int32_t align_corners, bool recompute_scale_factor);

// ---- ordering, scans, reordering, einsum (sort.cpp, cumprod.cpp, reorder.cpp, einsum.cpp) ----
// Sorted values and int64 positions along dim (stable; NaN sorts last ascending, first descending).
std::pair<Tensor, Tensor> sort(const Tensor& x, int64_t dim, bool descending);
Tensor argsort(const Tensor& x, int64_t dim, bool descending);
// The k largest (or smallest) values along dim, in order, with their int64 positions.
std::pair<Tensor, Tensor> topk(const Tensor& x, int64_t k, int64_t dim, bool largest);
// The k-th smallest value along dim (k counts from 1) and its position.
std::pair<Tensor, Tensor> kthvalue(const Tensor& x, int64_t k, int64_t dim, bool keepdim);
struct UniqueResult {
    Tensor values, inverse, counts;  // values 1-D; inverse has x's shape; counts like values (int64)
};
// Distinct values of flattened x: sorted, or in order of first occurrence (not differentiable).
UniqueResult unique(const Tensor& x, bool sorted);
Tensor cumprod(const Tensor& x, int64_t dim);
Tensor flip(const Tensor& x, const IntList& dims);
Tensor roll(const Tensor& x, const IntList& shifts, const IntList& dims);
Tensor tril(const Tensor& x, int64_t diagonal);
Tensor triu(const Tensor& x, int64_t diagonal);
Tensor einsum(const std::string& equation, const TensorList& operands);

// ---- checks shared by ops (checks.cpp) ----
// Throws CT_ERR_DEVICE naming op and both devices unless a and b are on one device.
void check_same_device(const char* op, const Tensor& a, const Tensor& b);
// Throws CT_ERR_DTYPE unless t is floating.
void check_floating(const char* op, const Tensor& t);
// Broadcast shape of a and b; throws CT_ERR_SHAPE naming op and both shapes.
Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b);
// Result dtype of a binary op under PyTorch promotion (wrapped numbers and 0-d tensors rank lower).
DType result_type(const Tensor& a, const Tensor& b);
// Note [Scalar range]: a wrapped integer scalar (a Python int, a C int argument) computed in an integer dtype must
// fit it: uint8 + 300 or int32 * 2^40 fail ("op: value 300 cannot be converted to uint8 without overflow") instead
// of wrapping the scalar first. Called by the binary kernels with the dtype they compute in.
void check_scalar_fits(const char* op, const Tensor& t, DType compute);
// Note [Bool bytes]: kernels load bool elements as C++ bool, so bool storage must hold only the bytes 0 and 1.
// Memory ctensor copies in is normalised (nonzero becomes 1); memory it wraps without copying (from_blob,
// DLPack) is checked once at import and refused when it holds another byte. Writes to wrapped memory after
// that are the caller's promise (the header says so). empty() zeroes bool tensors for the same reason.
void normalise_bool_bytes(void* data, int64_t n);
// Fails with CT_ERR_INVALID_ARGUMENT when a bool tensor over wrapped memory holds a byte other than 0 and 1.
void check_bool_bytes(const char* op, const Tensor& t);
// Normalises a dim list against ndim (empty = all dims); throws on repeats / out of range.
std::vector<bool> reduce_mask(const char* op, const IntList& dims, int64_t ndim);

// ---- more reductions and products (issue 14: logcumsumexp.cpp, reduce_minmax.cpp, reduce_stats.cpp,
// products.cpp) ----
// log(cumsum(exp(x))) along dim, stable (one log-add-exp per step); floating x only (half computes in float32).
Tensor logcumsumexp(const Tensor& x, int64_t dim);
// (min, max) over all elements (dim empty) or along *dim, in one pass; no gradient (torch 1.13 has none).
std::pair<Tensor, Tensor> aminmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim);
// (var, mean) and (std, mean): the var/std and mean ops themselves, so gradients flow through both outputs.
std::pair<Tensor, Tensor> var_mean(const Tensor& x, const IntList& dims, double correction, bool keepdim);
std::pair<Tensor, Tensor> std_mean(const Tensor& x, const IntList& dims, double correction, bool keepdim);
// Kronecker product, tensordot over dim lists and inner product: composites of reshape/permute/mul/matmul.
Tensor kron(const Tensor& a, const Tensor& b);
Tensor tensordot(const Tensor& a, const Tensor& b, const IntList& dims_a, const IntList& dims_b);
Tensor inner(const Tensor& a, const Tensor& b);

}  // namespace ct
