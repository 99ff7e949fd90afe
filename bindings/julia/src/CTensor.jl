# CTensor.jl - Julia arrays over ctensor: Tensor{T,N} <: AbstractArray with dot broadcasting mapped onto
# library ops, autograd, nn layers and optimizers. The library is found through CTENSOR_LIB_DIR or the
# repository's build tree and its ABI is checked when the package loads.
module CTensor

import Libdl
import LinearAlgebra
import Random

include("LibCT.jl")
include("errors.jl")
include("tensor.jl")
include("indexing.jl")
include("ops.jl")
include("broadcast.jl")
include("autograd.jl")
include("random.jl")
include("nn.jl")
include("activations.jl")
include("losses.jl")
include("attention.jl")
include("rnn.jl")
include("linalg.jl")
include("optim.jl")
include("safetensors.jl")
include("show.jl")
include("toolbox.jl")
include("oplist.jl")
include("conv_nd.jl")
include("embedding_bag.jl")
include("resample.jl")
include("norms.jl")
include("toolbox_stats.jl")
include("complex.jl")
include("dist.jl")
include("amp.jl")
include("unary_math.jl")
include("binary_math.jl")
include("promotion.jl")
include("more_ops.jl")

export Tensor, CTensorError, ErrorKind, tensor, release!, @ctscope, cpu, cuda, to, dtype, device, live_handles,
       set_cpu_memory_limit!, cpu_memory_stats, save_safetensors, load_safetensors,
       requires_grad!, backward!, grad, no_grad, custom_function, Generator, manual_seed,
       sigmoid, relu, gelu, silu, softplus, hardsigmoid, hardswish, mish, logsigmoid, softsign, tanhshrink,
       elu, selu, celu, leakyrelu, hardtanh, relu6, softshrink, hardshrink, trelu, glu, prelu, rrelu, Linear, Conv2d, MaxPool, MeanPool, BatchNorm, Dropout, Embedding,
       Chain, Sequential, SGD, Adam, AdamW, step!, zero_grad!, item,
       linalg_inv, linalg_det, linalg_slogdet, linalg_solve, linalg_cholesky, linalg_qr, linalg_eigh, linalg_eigvalsh,
       linalg_eig, linalg_eigvals,
       linalg_svd, linalg_svdvals, linalg_solve_triangular, linalg_matrix_power, linalg_cross, linalg_vector_norm,
       linalg_matrix_norm, linalg_pinv, linalg_matrix_rank, linalg_lstsq, linalg_lstsq_ex,
       scaled_dot_product_attention, multi_head_attention_forward
export EmbeddingBag, embedding_bag, embedding_ex, embedding_renorm!
export interpolate, Upsample
export LayerNorm, GroupNorm, layer_norm, group_norm, batch_norm
export autocast, is_autocast_enabled, GradScaler, unscale!, update!, get_scale
export erf, erfc, erfinv, lgamma, digamma, logit, sgn, isposinf, isneginf, positive, i0
export logaddexp, logaddexp2, xlogy, fmax, fmin, heaviside, nextafter, logical_and, logical_or, logical_xor,
       addcmul, addcdiv
export promote_types, can_cast, result_type
export logcumsumexp, aminmax, var_mean, std_mean, tensordot, inner

function __init__()
    LibCT.load!()
    PIN_DELETER[] = @cfunction(pin_released, Cvoid, (Ptr{Cvoid}, Ptr{Cvoid}))
    BACKWARD_C[] = @cfunction(custom_backward, Int32, (Ptr{Cvoid}, Ptr{Ptr{Cvoid}}, Int32, Ptr{Ptr{Cvoid}}, Int32))
    RELEASE_C[] = @cfunction(custom_release, Cvoid, (Ptr{Cvoid},))
end

end # module
