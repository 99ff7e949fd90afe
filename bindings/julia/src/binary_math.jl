# binary_math.jl - the binary math and integer ops of issue 14 in dot syntax: hypot.(a, b), copysign.(a, b),
# a .<< b, a .>> b, .~a, gcd.(a, b), lcm.(a, b) (Base names; .& .| xor. are in broadcast.jl: bitwise, which on
# Bool is logical), and logaddexp, logaddexp2, xlogy, fmax, fmin, heaviside, nextafter, logical_and/or/xor
# (functions of this package, callable on two Tensors and on Julia numbers, so the dot form works on both).

BINARY[hypot] = LibCT.ct_hypot
BINARY[copysign] = LibCT.ct_copysign
BINARY[(<<)] = LibCT.ct_bitwise_left_shift
BINARY[(>>)] = LibCT.ct_bitwise_right_shift
BINARY[gcd] = LibCT.ct_gcd
BINARY[lcm] = LibCT.ct_lcm
UNARY[(~)] = LibCT.ct_bitwise_not
for (jl, c) in ((:logaddexp, :ct_logaddexp), (:logaddexp2, :ct_logaddexp2), (:xlogy, :ct_xlogy), (:fmax, :ct_fmax),
                (:fmin, :ct_fmin), (:heaviside, :ct_heaviside), (:nextafter, :ct_nextafter),
                (:logical_and, :ct_logical_and), (:logical_or, :ct_logical_or), (:logical_xor, :ct_logical_xor))
    @eval $jl(a::Tensor, b::Tensor) = binary(LibCT.$c, a, b)
    @eval BINARY[$jl] = LibCT.$c
end

# the same functions on Julia numbers (torch's formulas)
function logaddexp(a::Real, b::Real)
    a == b && isinf(a) && return float(a)
    m = max(a, b)
    return m + log1p(exp(-abs(a - b)))
end
function logaddexp2(a::Real, b::Real)
    a == b && isinf(a) && return float(a)
    m = max(a, b)
    return m + log1p(exp2(-abs(a - b))) / log(oftype(float(m), 2))
end
xlogy(a::Real, b::Real) = isnan(b) ? float(b) : (iszero(a) ? zero(float(a)) : a * log(b))
fmax(a::Real, b::Real) = isnan(a) ? b : (isnan(b) ? a : max(a, b))
fmin(a::Real, b::Real) = isnan(a) ? b : (isnan(b) ? a : min(a, b))
heaviside(a::Real, b::Real) = iszero(a) ? b : oftype(b, a > 0)
logical_and(a::Number, b::Number) = !iszero(a) & !iszero(b)
logical_or(a::Number, b::Number) = !iszero(a) | !iszero(b)
logical_xor(a::Number, b::Number) = !iszero(a) != !iszero(b)
nextafter(a::AbstractFloat, b::Real) = (isnan(a) || isnan(b)) ? oftype(a, NaN) : a == b ? oftype(a, b) : b > a ? nextfloat(a) : prevfloat(a)

"addcmul(x, t1, t2; value = 1): x + value * t1 * t2 (broadcast over the three)."
addcmul(x::Tensor, t1::Tensor, t2::Tensor; value::Real = 1) =
    newtensor(o -> LibCT.ct_addcmul(x, t1, t2, Float64(value), o))
"addcdiv(x, t1, t2; value = 1): x + value * t1 / t2 (t1 and t2 may not both be integer tensors)."
addcdiv(x::Tensor, t1::Tensor, t2::Tensor; value::Real = 1) =
    newtensor(o -> LibCT.ct_addcdiv(x, t1, t2, Float64(value), o))

merge!(OPS, Dict{String,Any}("logaddexp" => (a, b) -> logaddexp.(a, b), "logaddexp2" => (a, b) -> logaddexp2.(a, b),
                             "hypot" => (a, b) -> hypot.(a, b), "xlogy" => (a, b) -> xlogy.(a, b),
                             "copysign" => (a, b) -> copysign.(a, b), "fmax" => (a, b) -> fmax.(a, b),
                             "fmin" => (a, b) -> fmin.(a, b), "heaviside" => (a, b) -> heaviside.(a, b),
                             "nextafter" => (a, b) -> nextafter.(a, b), "bitwise_and" => (a, b) -> a .& b,
                             "bitwise_or" => (a, b) -> a .| b, "bitwise_xor" => (a, b) -> xor.(a, b),
                             "bitwise_not" => x -> .~x, "bitwise_left_shift" => (a, b) -> a .<< b,
                             "bitwise_right_shift" => (a, b) -> a .>> b, "gcd" => (a, b) -> gcd.(a, b),
                             "lcm" => (a, b) -> lcm.(a, b), "addcmul" => addcmul, "addcdiv" => addcdiv))
