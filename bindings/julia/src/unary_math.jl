# unary_math.jl - the unary math ops of issue 14: Base's functions in dot syntax (asin.(t) .. atanh.(t), sinc.(t),
# deg2rad.(t), rad2deg.(t), signbit.(t) -> ct_asin ..), and exported functions for those Base lacks (erf, erfc,
# erfinv, lgamma, digamma, logit, sgn, isposinf, isneginf, positive, i0; SpecialFunctions is not a dependency),
# also usable in dot syntax on Tensors. Thin wrappers over the C ABI.

for (f, c) in ((asin, :ct_asin), (acos, :ct_acos), (atan, :ct_atan), (sinh, :ct_sinh), (cosh, :ct_cosh),
               (asinh, :ct_asinh), (acosh, :ct_acosh), (atanh, :ct_atanh), (sinc, :ct_sinc),
               (deg2rad, :ct_deg2rad), (rad2deg, :ct_rad2deg), (signbit, :ct_signbit))
    UNARY[f] = getfield(LibCT, c)
end

for (jl, c) in ((:erf, :ct_erf), (:erfc, :ct_erfc), (:erfinv, :ct_erfinv), (:lgamma, :ct_lgamma),
                (:digamma, :ct_digamma), (:sgn, :ct_sgn), (:isposinf, :ct_isposinf), (:isneginf, :ct_isneginf),
                (:i0, :ct_i0))
    @eval $jl(x::Tensor) = unary(LibCT.$c, x)
    @eval UNARY[$jl] = LibCT.$c
end

"logit(x; eps = nothing): log(p / (1 - p)) of x clamped to [eps, 1 - eps] (no clamp when eps is nothing)."
logit(x::Tensor; eps = nothing) = newtensor(o -> LibCT.ct_logit(x, eps === nothing ? -1.0 : Float64(eps), o))
"positive(x): +x, a new handle to the same tensor (storage and history shared); an error for a Bool tensor."
positive(x::Tensor) = newtensor(o -> LibCT.ct_positive(x, o))

merge!(OPS, Dict{String,Any}(
    "asin" => x -> asin.(x), "acos" => x -> acos.(x), "atan" => x -> atan.(x), "sinh" => x -> sinh.(x),
    "cosh" => x -> cosh.(x), "asinh" => x -> asinh.(x), "acosh" => x -> acosh.(x), "atanh" => x -> atanh.(x),
    "erf" => erf, "erfc" => erfc, "erfinv" => erfinv, "lgamma" => lgamma, "digamma" => digamma, "logit" => logit,
    "sinc" => x -> sinc.(x), "sgn" => sgn, "deg2rad" => x -> deg2rad.(x), "rad2deg" => x -> rad2deg.(x),
    "signbit" => x -> signbit.(x), "isposinf" => isposinf, "isneginf" => isneginf, "positive" => positive,
    "i0" => i0))
