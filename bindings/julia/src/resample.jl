# resample.jl - interpolate / Upsample over ct_interpolate in Julia layout (spatial dims first: ctensor's
# [N, C, H, W] is Julia's (W, H, C, N)). size and scale_factor are a number (every spatial dim) or a tuple in
# Julia's order (reversed for C, as conv_nd.jl's `spatial`).

const INTERP_MODES = Dict(:nearest => Int32(0), :nearest_exact => Int32(1), :linear => Int32(2),
                          :bilinear => Int32(2), :trilinear => Int32(2), :bicubic => Int32(3), :area => Int32(4))

"Scale factors v for n dims in ctensor's order."
spatial_scale(v::Real, n::Integer) = fill(Float64(v), n)
function spatial_scale(v::Tuple, n::Integer)
    length(v) == n || throw(ArgumentError("expected $n scale factors, got $v"))
    Float64[reverse(v)...]
end

"""
    interpolate(x; size = nothing, scale_factor = nothing, mode = :nearest, align_corners = nothing,
                recompute_scale_factor = false)

torch's F.interpolate of x (spatial..., C, N) with 1-3 spatial dims: exactly one of size and scale_factor; mode
:nearest, :nearest_exact, :linear / :bilinear / :trilinear, :bicubic (2 spatial dims) or :area; align_corners
(linear and bicubic only) true / false / nothing.
"""
function interpolate(x::Tensor; size = nothing, scale_factor = nothing, mode::Symbol = :nearest,
                     align_corners = nothing, recompute_scale_factor::Bool = false)
    haskey(INTERP_MODES, mode) || throw(ArgumentError("interpolate: unknown mode :$mode"))
    n = ndims(x) - 2
    s = size === nothing ? C_NULL : spatial(size, n)
    f = scale_factor === nothing ? C_NULL : spatial_scale(scale_factor, n)
    a = align_corners === nothing ? Int32(-1) : Int32(align_corners)
    newtensor(o -> LibCT.ct_interpolate(x, s, f, Int32(n), INTERP_MODES[mode], a, Int32(recompute_scale_factor), o))
end

"Upsample(; size, scale_factor, mode = :nearest, align_corners): a layer applying interpolate (no parameters)."
struct Upsample <: Layer
    size::Any
    scale_factor::Any
    mode::Symbol
    align_corners::Any
end
Upsample(; size = nothing, scale_factor = nothing, mode::Symbol = :nearest, align_corners = nothing) =
    Upsample(size, scale_factor, mode, align_corners)
(u::Upsample)(x::Tensor) = interpolate(x; size = u.size, scale_factor = u.scale_factor, mode = u.mode,
                                       align_corners = u.align_corners)
params(::Upsample) = Tensor[]

merge!(OPS, Dict{String,Any}("interpolate" => interpolate))
