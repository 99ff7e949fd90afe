# broadcast.jl - dot syntax on Tensors: a BroadcastStyle whose Broadcasted trees are evaluated node by
# node with ctensor ops (x .+ y -> ct_add, exp.(x) -> ct_exp, ...), never with element loops in Julia.
# Julia's broadcasting pads missing trailing dims, ctensor's missing leading dims: with Julia dims being
# ctensor's reversed, the two rules are the same.

using Base.Broadcast: Broadcasted, BroadcastStyle, AbstractArrayStyle, DefaultArrayStyle

struct TensorStyle <: BroadcastStyle end
Base.BroadcastStyle(::Type{<:Tensor}) = TensorStyle()
Base.BroadcastStyle(::TensorStyle, ::AbstractArrayStyle) = TensorStyle()
Base.BroadcastStyle(::TensorStyle, ::BroadcastStyle) = TensorStyle()

# elementwise functions with one tensor argument
const UNARY = IdDict{Any,Any}(
    (-) => LibCT.ct_neg, abs => LibCT.ct_abs, sign => LibCT.ct_sign, exp => LibCT.ct_exp, log => LibCT.ct_log,
    log1p => LibCT.ct_log1p, expm1 => LibCT.ct_expm1, sqrt => LibCT.ct_sqrt, sin => LibCT.ct_sin,
    cos => LibCT.ct_cos, tan => LibCT.ct_tan, tanh => LibCT.ct_tanh, floor => LibCT.ct_floor,
    ceil => LibCT.ct_ceil, round => LibCT.ct_round, inv => LibCT.ct_reciprocal, (!) => LibCT.ct_logical_not,
    identity => LibCT.ct_clone)
# elementwise functions of two arguments
const BINARY = IdDict{Any,Any}(
    (*) => LibCT.ct_mul, (/) => LibCT.ct_div, (^) => LibCT.ct_pow, max => LibCT.ct_maximum,
    min => LibCT.ct_minimum, atan => LibCT.ct_atan2, mod => LibCT.ct_remainder, fld => LibCT.ct_floor_divide, (==) => LibCT.ct_eq,
    (!=) => LibCT.ct_ne, (<) => LibCT.ct_lt, (<=) => LibCT.ct_le, (>) => LibCT.ct_gt, (>=) => LibCT.ct_ge,
    (&) => LibCT.ct_bitwise_and, (|) => LibCT.ct_bitwise_or, xor => LibCT.ct_bitwise_xor)  # Bool: the logical ops

# The functions that name ops with no Base counterpart, usable in dot syntax and directly.
for (jl, c) in ((:sigmoid, :ct_sigmoid), (:relu, :ct_relu), (:gelu, :ct_gelu), (:silu, :ct_silu),
                (:softplus, :ct_softplus), (:rsqrt, :ct_rsqrt), (:hardsigmoid, :ct_hardsigmoid),
                (:hardswish, :ct_hardswish), (:mish, :ct_mish), (:logsigmoid, :ct_log_sigmoid),
                (:softsign, :ct_softsign), (:tanhshrink, :ct_tanhshrink))
    @eval $jl(x::Tensor) = unary(LibCT.$c, x)
    @eval UNARY[$jl] = LibCT.$c
end
# ... and their scalar meaning, so that sigmoid.(x) also works on Julia numbers
sigmoid(x::Real) = one(x) / (one(x) + exp(-x))
relu(x::Real) = max(zero(x), x)
silu(x::Real) = x * sigmoid(x)
softplus(x::Real) = log1p(exp(x))
rsqrt(x::Real) = inv(sqrt(x))
hardsigmoid(x::Real) = clamp(x / 6 + oftype(float(x), 0.5), 0, 1)
hardswish(x::Real) = x * clamp(x + 3, 0, 6) / 6
mish(x::Real) = x * tanh(softplus(x))
logsigmoid(x::Real) = -softplus(-x)
softsign(x::Real) = x / (1 + abs(x))
tanhshrink(x::Real) = x - tanh(x)
gelu(x::Real) = x / 2 * (1 + erf_approx(x / sqrt(oftype(float(x), 2))))
erf_approx(x) = tanh(sqrt(oftype(float(x), 2 / pi)) * sqrt(oftype(float(x), 2)) * (x + oftype(float(x), 0.044715) * 2 * x^3))

# arguments: tensors stay, numbers become wrapped scalars (they never upcast a tensor), arrays are copied
# in; `tmp` collects what this evaluation created so it is released once the result exists.
bc_arg(x::Tensor, tmp) = x
bc_arg(x::Real, tmp) = (s = wrapped_scalar(x); push!(tmp, s); s)
bc_arg(x::AbstractArray, tmp) = (s = tensor(x); push!(tmp, s); s)
bc_arg(x::Base.RefValue, tmp) = bc_arg(x[], tmp)
bc_arg(bc::Broadcasted, tmp) = (s = bc_eval(bc, tmp); push!(tmp, s); s)

function bc_eval(bc::Broadcasted, tmp)
    f, args = bc.f, map(a -> a isa Base.RefValue ? a[] : a, bc.args)
    if f === Base.literal_pow && args[3] isa Val      # x .^ 2 reaches us as literal_pow(^, x, Val(2))
        p = typeof(args[3]).parameters[1]
        x = bc_arg(args[2], tmp)
        return newtensor(o -> LibCT.ct_pow_scalar(x, Float64(p), o))
    end
    if f === clamp && length(args) == 3 && args[2] isa Real && args[3] isa Real
        x = bc_arg(args[1], tmp)
        return newtensor(o -> LibCT.ct_clamp(x, Float64(args[2]), Int32(1), Float64(args[3]), Int32(1), o))
    end
    if f === ifelse && length(args) == 3
        c, a, b = (bc_arg(x, tmp) for x in args)
        return newtensor(o -> LibCT.ct_where(c, a, b, o))
    end
    if haskey(PARAMETRIC, f) && args[1] isa Union{Tensor,Broadcasted} && all(a -> a isa Real, args[2:end])
        return PARAMETRIC[f](bc_arg(args[1], tmp), args[2:end]...)
    end
    if length(args) == 1 && haskey(UNARY, f)
        x = bc_arg(args[1], tmp)
        return newtensor(o -> UNARY[f](x, o))
    end
    if length(args) == 2 && (f === (+) || f === (-))
        a, b = bc_arg(args[1], tmp), bc_arg(args[2], tmp)
        c = f === (+) ? LibCT.ct_add : LibCT.ct_sub
        return newtensor(o -> c(a, b, 1.0, o))
    end
    if length(args) == 2 && haskey(BINARY, f)
        a, b = bc_arg(args[1], tmp), bc_arg(args[2], tmp)
        return newtensor(o -> BINARY[f](a, b, o))
    end
    if f === (+) && length(args) > 2   # a .+ b .+ c parses as one call
        return bc_eval(Broadcasted(+, (Broadcasted(+, args[1:2]), args[3:end]...)), tmp)
    end
    if f === (*) && length(args) > 2
        return bc_eval(Broadcasted(*, (Broadcasted(*, args[1:2]), args[3:end]...)), tmp)
    end
    throw(ArgumentError("CTensor: `$f` with $(length(args)) argument(s) has no ctensor op for broadcasting; " *
                        "use Array(t) to compute it in Julia"))
end

# Fast path: + - * / of two floating tensors of one element type; the result's type and size are known
# here, so it is wrapped without asking the library for its metadata.
const FastBinary = Union{typeof(+),typeof(-),typeof(*),typeof(/)}
function Base.copy(bc::Broadcasted{TensorStyle,<:Tuple,F,<:Tuple{Tensor{T},Tensor{T}}}) where {F<:FastBinary,T<:Union{Float32,Float64}}
    a, b = bc.args
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = F === typeof(+) ? LibCT.ct_add(a, b, 1.0, out) : F === typeof(-) ? LibCT.ct_sub(a, b, 1.0, out) :
         F === typeof(*) ? LibCT.ct_mul(a, b, out) : LibCT.ct_div(a, b, out)
    st == 0 || throw_status(st)
    wrap_as(out[], T, map(length, axes(bc)))
end

function Base.copy(bc::Broadcasted{TensorStyle})
    tmp = Tensor[]
    try
        return bc_eval(bc, tmp)
    finally
        foreach(release!, tmp)
    end
end

# dest .= expr: evaluate, then copy into dest (converted to dest's dtype, broadcast to its shape)
function Base.copyto!(dest::Tensor, bc::Broadcasted{TensorStyle})
    r = copy(bc)
    @check LibCT.ct_copy_(dest, r)
    release!(r)
    dest
end
function Base.copyto!(dest::Tensor, bc::Broadcasted{<:AbstractArrayStyle{0}})
    fill!(dest, bc.f(map(a -> a isa Base.RefValue ? a[] : a, bc.args)...))
end
Base.Broadcast.broadcastable(t::Tensor) = t
# Shapes that do not broadcast are ctensor's CT_ERR_SHAPE in every language: Julia's DimensionMismatch (raised
# while the axes are combined, before any op runs) becomes a CTensorError of kind ERR_SHAPE.
function Base.Broadcast.instantiate(bc::Broadcasted{TensorStyle})
    try
        invoke(Base.Broadcast.instantiate, Tuple{Broadcasted}, bc)
    catch e
        e isa DimensionMismatch || rethrow()
        throw(CTensorError(ERR_SHAPE, Int32(ERR_SHAPE), "broadcast: " * e.msg))
    end
end

# Array arithmetic that Julia does without dots
Base.:+(a::Tensor, b::Tensor) = a .+ b
Base.:-(a::Tensor, b::Tensor) = a .- b
Base.:-(a::Tensor) = .-a
Base.:*(a::Tensor, s::Real) = a .* s
Base.:*(s::Real, a::Tensor) = s .* a
Base.:/(a::Tensor, s::Real) = a ./ s
