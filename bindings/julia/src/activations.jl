# activations.jl - activations with parameters (NNlib's names and defaults where NNlib has them): each is a
# function on a Tensor, a scalar function on a Real, and usable in dot syntax as f.(x, params...) on a
# Tensor (broadcast.jl's PARAMETRIC table). GLU, softmin, PReLU and RReLU take a tensor and dims or weights.

const SELU_ALPHA, SELU_SCALE = 1.6732632423543772848, 1.0507009873554804934

"scale * (x if x > 0 else alpha * (exp(input_scale * x) - 1)): the op under elu, selu and celu."
elu_general(x::Tensor, alpha::Real, scale::Real, input_scale::Real) =
    newtensor(o -> LibCT.ct_elu(x, Float64(alpha), Float64(scale), Float64(input_scale), o))
elu(x::Tensor, α::Real = 1) = elu_general(x, α, 1, 1)
selu(x::Tensor) = elu_general(x, SELU_ALPHA, SELU_SCALE, 1)
function celu(x::Tensor, α::Real = 1)
    α == 0 && throw(CTensorError(ERR_INVALID_ARGUMENT, 1, "celu: alpha cannot be 0"))
    elu_general(x, α, 1, 1 / α)
end
"x if x > 0 else a * x."
leakyrelu(x::Tensor, a::Real = 0.01) = newtensor(o -> LibCT.ct_leaky_relu(x, Float64(a), o))
"x clamped to [lo, hi]; the gradient flows strictly inside."
hardtanh(x::Tensor, lo::Real = -1, hi::Real = 1) = newtensor(o -> LibCT.ct_hardtanh(x, Float64(lo), Float64(hi), o))
relu6(x::Tensor) = hardtanh(x, 0, 6)
"x - λ above λ, x + λ below -λ, else 0 (λ >= 0)."
softshrink(x::Tensor, λ::Real = 0.5) = newtensor(o -> LibCT.ct_softshrink(x, Float64(λ), o))
"x where |x| > λ, else 0."
hardshrink(x::Tensor, λ::Real = 0.5) = newtensor(o -> LibCT.ct_hardshrink(x, Float64(λ), o))
"x where x > θ, else value (torch's threshold; NNlib's trelu is threshold(x, θ, 0))."
threshold(x::Tensor, θ::Real, value::Real) = newtensor(o -> LibCT.ct_threshold(x, Float64(θ), Float64(value), o))
trelu(x::Tensor, θ::Real = 1) = threshold(x, θ, 0)

# scalar meanings, so that the same names work on Julia numbers
elu(x::Real, α::Real = 1) = x > 0 ? float(x) : α * expm1(x)
selu(x::Real) = SELU_SCALE * elu(x, SELU_ALPHA)
celu(x::Real, α::Real = 1) = x > 0 ? float(x) : α * expm1(x / α)
leakyrelu(x::Real, a::Real = 0.01) = x > 0 ? float(x) : a * x
hardtanh(x::Real, lo::Real = -1, hi::Real = 1) = clamp(float(x), lo, hi)
relu6(x::Real) = hardtanh(x, 0, 6)
softshrink(x::Real, λ::Real = 0.5) = x > λ ? x - λ : x < -λ ? x + λ : zero(float(x))
hardshrink(x::Real, λ::Real = 0.5) = abs(x) > λ ? float(x) : zero(float(x))
threshold(x::Real, θ::Real, value::Real) = x > θ ? x : oftype(x, value)
trelu(x::Real, θ::Real = 1) = threshold(x, θ, 0)

const PARAMETRIC = IdDict{Any,Any}(elu => elu, selu => selu, celu => celu, leakyrelu => leakyrelu,
                                   hardtanh => hardtanh, relu6 => relu6, softshrink => softshrink,
                                   hardshrink => hardshrink, threshold => threshold, trelu => trelu)

"softmax(-x) along Julia dim `dims`."
softmin(x::Tensor; dims::Integer = 1) = newtensor(o -> LibCT.ct_softmin(x, ctdim(x, dims), o))
"a .* sigmoid.(b) for the halves a, b of x along Julia dim `dims` (Flux's default: the first)."
glu(x::Tensor, dims::Integer = 1) = newtensor(o -> LibCT.ct_glu(x, ndims(x) == 0 ? 0 : ctdim(x, dims), o))  # 0-d: ERR_SHAPE
"x if x > 0 else w * x; w has 1 element or one per channel (Julia dim ndims(x) - 1, ctensor's dim 1)."
prelu(x::Tensor, w::Tensor) = newtensor(o -> LibCT.ct_prelu(x, w, o))
"x if x > 0 else r * x: r ~ U(lo, hi) per element when training, (lo + hi) / 2 otherwise."
rrelu(x::Tensor, lo::Real = 1 / 8, hi::Real = 1 / 3; training::Bool = true, gen = nothing) =
    GC.@preserve gen newtensor(o -> LibCT.ct_rrelu(x, Float64(lo), Float64(hi), Int32(training), genptr(gen), o))
