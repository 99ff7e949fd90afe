# nn.jl - functional NN ops in Julia layout (features first, batch last: ctensor's [N, C, H, W] is Julia's
# (W, H, C, N)), losses with 1-based class targets, and layers (Linear, Conv2d, pooling, BatchNorm, Dropout,
# Embedding, Chain) that are callable structs holding parameter Tensors.

const REDUCTIONS = Dict(:none => Int32(0), :mean => Int32(1), :sum => Int32(2))
reduction(r::Symbol) = get(REDUCTIONS, r) do; throw(ArgumentError("reduction must be :none, :mean or :sum, got :$r")); end
opt(t) = t === nothing ? C_NULL : handle(t)

"x (in, batch...) -> (out, batch...); weight is (in, out) in Julia (ctensor's [out, in])."
linear(x::Tensor, w::Tensor, b::Union{Tensor,Nothing} = nothing) = newtensor(o -> LibCT.ct_linear(x, w, opt(b), o))
softmax(x::Tensor; dims::Integer = 1) = newtensor(o -> LibCT.ct_softmax(x, ctdim(x, dims), o))
logsoftmax(x::Tensor; dims::Integer = 1) = newtensor(o -> LibCT.ct_log_softmax(x, ctdim(x, dims), o))
targets(y) = index_arg(y)   # 1-based class labels -> ctensor's 0-based
function with_targets(f, y)
    t = targets(y)
    try f(t) finally release!(t) end
end
"Cross entropy of logits (C, N) and 1-based labels (N,)."
crossentropy(logits::Tensor, y; agg::Symbol = :mean, weight = nothing, label_smoothing::Real = 0, ignore_index::Integer = -100) =
    with_targets(y) do t
        newtensor(o -> LibCT.ct_cross_entropy_ex(logits, t, opt(weight), reduction(agg), Int64(ignore_index - 1), Float64(label_smoothing), o))
    end
nll_loss(logp::Tensor, y; agg::Symbol = :mean, weight = nothing, ignore_index::Integer = -100) =
    with_targets(y) do t
        newtensor(o -> LibCT.ct_nll_loss_ex(logp, t, opt(weight), reduction(agg), Int64(ignore_index - 1), o))
    end
mse(x::Tensor, y::Tensor; agg::Symbol = :mean) = newtensor(o -> LibCT.ct_mse_loss(x, y, reduction(agg), o))
binarycrossentropy(p::Tensor, y::Tensor; agg::Symbol = :mean) = newtensor(o -> LibCT.ct_binary_cross_entropy(p, y, reduction(agg), o))
logitbinarycrossentropy(x::Tensor, y::Tensor; agg::Symbol = :mean) = newtensor(o -> LibCT.ct_binary_cross_entropy_with_logits(x, y, reduction(agg), o))
dropout(x::Tensor, p::Real; training::Bool = true, gen = nothing) = GC.@preserve gen newtensor(o -> LibCT.ct_dropout(x, Float64(p), Int32(training), genptr(gen), o))
"Rows of weight (dim, num) at 1-based indices: result (dim, size(indices)...)."
embedding(w::Tensor, idx) = with_targets(idx) do t; newtensor(o -> LibCT.ct_embedding(w, t, o)); end
hw(x::Integer) = Int64[x, x]
hw(x::Tuple) = Int64[x[2], x[1]]   # Julia (w, h) order -> ctensor {h, w}
"2-D convolution of x (W, H, C, N) with weight (kW, kH, C/groups, O)."
conv2d(x::Tensor, w::Tensor, b = nothing; stride = 1, pad = 0, dilation = 1, groups::Integer = 1) =
    newtensor(o -> LibCT.ct_conv2d(x, w, opt(b), hw(stride), hw(pad), hw(dilation), Int64(groups), o))
maxpool2d(x::Tensor, k; stride = k, pad = 0) = newtensor(o -> LibCT.ct_max_pool2d(x, hw(k), hw(stride), hw(pad), o))
meanpool2d(x::Tensor, k; stride = k, pad = 0) = newtensor(o -> LibCT.ct_avg_pool2d(x, hw(k), hw(stride), hw(pad), o))
maxpool2d_ex(x::Tensor, k; stride = k, pad = 0, dilation = 1, ceil_mode::Bool = false) =
    newtensor(o -> LibCT.ct_max_pool2d_ex(x, hw(k), hw(stride), hw(pad), hw(dilation), Int32(ceil_mode), o, C_NULL))
"The pooled values and, for each, the 1-based linear index of its maximum in the input's (W, H) plane."
function maxpool2d_with_indices(x::Tensor, k; stride = k, pad = 0, dilation = 1, ceil_mode::Bool = false)
    _with_indices((o, i) -> LibCT.ct_max_pool2d_ex(x, hw(k), hw(stride), hw(pad), hw(dilation), Int32(ceil_mode), o, i))
end
"adaptive_maxpool2d with the 1-based linear index of each maximum in the input's (W, H) plane."
adaptive_maxpool2d_with_indices(x::Tensor, out) = _with_indices((o, i) -> LibCT.ct_adaptive_max_pool2d(x, hw(out), o, i))
function _with_indices(call)
    v = Ref{Ptr{Cvoid}}(C_NULL); i = Ref{Ptr{Cvoid}}(C_NULL)
    @check call(v, i)
    vi = wrap(v[]); ii = wrap(i[])
    s = shift_index(ii, 1); release!(ii)
    (vi, s)
end
meanpool2d_ex(x::Tensor, k; stride = k, pad = 0, ceil_mode::Bool = false, count_include_pad::Bool = true, divisor::Integer = 0) =
    newtensor(o -> LibCT.ct_avg_pool2d_ex(x, hw(k), hw(stride), hw(pad), Int32(ceil_mode), Int32(count_include_pad), Int64(divisor), o))
adaptive_meanpool2d(x::Tensor, out) = newtensor(o -> LibCT.ct_adaptive_avg_pool2d(x, hw(out), o))
adaptive_maxpool2d(x::Tensor, out) = newtensor(o -> LibCT.ct_adaptive_max_pool2d(x, hw(out), o, C_NULL))

# ---- layers -------------------------------------------------------------------------------------------
"Uniform(-bound, bound) parameter requiring grad (PyTorch's default init for Linear and Conv2d)."
function uniform_param(bound::Real, dims::Integer...; gen = nothing)
    u = rand(Float32, dims...; gen = gen)
    p = no_grad(() -> (u .* (2 * bound)) .- bound)
    release!(u)
    requires_grad!(p)
end

abstract type Layer end
struct Linear <: Layer
    weight::Tensor{Float32,2}
    bias::Union{Tensor{Float32,1},Nothing}
end
"Linear(in => out): weight (in, out) in Julia (ctensor's [out, in]), bias (out,)."
Linear(io::Pair{<:Integer,<:Integer}; bias::Bool = true, gen = nothing) =
    Linear(uniform_param(1 / sqrt(io.first), io.first, io.second; gen = gen), bias ? uniform_param(1 / sqrt(io.first), io.second; gen = gen) : nothing)
(l::Linear)(x::Tensor) = linear(x, l.weight, l.bias)

struct Conv2d <: Layer
    weight::Tensor{Float32,4}
    bias::Union{Tensor{Float32,1},Nothing}
    stride::Int; pad::Int; dilation::Int; groups::Int
end
"Conv2d((kw, kh), cin => cout; stride, pad): on (W, H, C, N) input."
function Conv2d(k::Tuple{Int,Int}, io::Pair{<:Integer,<:Integer}; stride = 1, pad = 0, dilation = 1, groups = 1, bias = true, gen = nothing)
    bound = 1 / sqrt(io.first ÷ groups * k[1] * k[2])
    Conv2d(uniform_param(bound, k[1], k[2], io.first ÷ groups, io.second; gen = gen),
           bias ? uniform_param(bound, io.second; gen = gen) : nothing, stride, pad, dilation, groups)
end
(c::Conv2d)(x::Tensor) = conv2d(x, c.weight, c.bias; stride = c.stride, pad = c.pad, dilation = c.dilation, groups = c.groups)

struct MaxPool <: Layer; k::Int; stride::Int; end
MaxPool(k::Integer; stride = k) = MaxPool(k, stride)
(p::MaxPool)(x::Tensor) = maxpool2d(x, p.k; stride = p.stride)
struct MeanPool <: Layer; k::Int; stride::Int; end
MeanPool(k::Integer; stride = k) = MeanPool(k, stride)
(p::MeanPool)(x::Tensor) = meanpool2d(x, p.k; stride = p.stride)

mutable struct Dropout <: Layer
    p::Float64
    training::Bool
    gen::Union{Generator,Nothing}
end
Dropout(p::Real; gen = nothing) = Dropout(p, true, gen)
(d::Dropout)(x::Tensor) = dropout(x, d.p; training = d.training, gen = d.gen)

struct Embedding <: Layer
    weight::Tensor{Float32,2}
end
"Embedding(num => dim): weight (dim, num); indices are 1-based."
function Embedding(nd::Pair{<:Integer,<:Integer}; gen = nothing)
    w = randn(Float32, nd.second, nd.first; gen = gen)
    Embedding(requires_grad!(w))
end
(e::Embedding)(idx) = embedding(e.weight, idx)

"BatchNorm(C) over dim C of (C, N) or (W, H, C, N) input: batch statistics in training, running ones in eval."
mutable struct BatchNorm <: Layer
    weight::Tensor{Float32,1}
    bias::Tensor{Float32,1}
    running_mean::Tensor{Float32,1}
    running_var::Tensor{Float32,1}
    momentum::Float64
    eps::Float64
    training::Bool
end
BatchNorm(c::Integer; momentum = 0.1, eps = 1e-5) =
    BatchNorm(requires_grad!(ones(Float32, c)), requires_grad!(zeros(Float32, c)), zeros(Float32, c), ones(Float32, c), momentum, eps, true)
(bn::BatchNorm)(x::Tensor) = batch_norm(x, bn.running_mean, bn.running_var; weight = bn.weight, bias = bn.bias,
                                          training = bn.training, momentum = bn.momentum, eps = bn.eps)

"Chain(layers...): applies each layer (or function) in turn (one layer, or none, is a Chain too)."
struct Chain <: Layer
    layers::Vector{Any}
    # the only constructor: without it Julia's default Chain(x) would try convert(Vector{Any}, x) for one layer
    Chain(ls...) = new(Any[ls...])
end
const Sequential = Chain
(c::Chain)(x) = foldl((h, l) -> l(h), c.layers; init = x)

"The parameter tensors of a layer (in order)."
params(l::Linear) = l.bias === nothing ? [l.weight] : [l.weight, l.bias]
params(c::Conv2d) = c.bias === nothing ? [c.weight] : [c.weight, c.bias]
params(e::Embedding) = [e.weight]
params(b::BatchNorm) = [b.weight, b.bias]
params(c::Chain) = reduce(vcat, (params(l) for l in c.layers); init = Tensor[])
params(::Any) = Tensor[]
"The state tensors of a layer that are saved but not trained (BatchNorm's running statistics), in order."
buffers(b::BatchNorm) = [b.running_mean, b.running_var]
buffers(c::Chain) = reduce(vcat, (buffers(l) for l in c.layers); init = Tensor[])
buffers(::Any) = Tensor[]
trainmode!(l, on::Bool = true) = (for x in (l isa Chain ? l.layers : [l]); hasproperty(x, :training) && (x.training = on); end; l)
testmode!(l) = trainmode!(l, false)
