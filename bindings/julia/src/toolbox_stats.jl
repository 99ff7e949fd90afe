# toolbox_stats.jl - the rest of the toolbox of issue 14: repeat_interleave, meshgrid, median / nanmedian,
# quantile / nanquantile and cdist, thin wrappers over the C ABI. Dims are Julia dims, positions 1-based.
# Layout (column-major, Note in tensor.jl): meshgrid's grid k varies along Julia dim n + 1 - k (ctensor's dim k);
# quantile's 1-D q becomes the LAST Julia dim; cdist takes points as columns, x1 (M, P, B..) and x2 (M, R, B..),
# and gives D (R, P, B..) with D[j, i] = ||x1[:, i] - x2[:, j]||_p.

_optdim(t, d) = d === nothing ? (Int64(0), Int32(0)) : (ctdim(t, d), Int32(1))

"""
    repeat_interleave(t, repeats; dims = nothing, output_size = nothing)

Each element of t repeated `repeats` times (an integer, or one count per slice along Julia dim `dims`) along dims;
`dims = nothing` works on vec(t). The gradient sums each element's copies.
"""
function repeat_interleave(t::Tensor, repeats; dims = nothing, output_size = nothing)
    d, hd = _optdim(t, dims)
    os, hos = output_size === nothing ? (Int64(0), Int32(0)) : (Int64(output_size), Int32(1))
    repeats isa Integer &&
        return newtensor(o -> LibCT.ct_repeat_interleave(t, C_NULL, Int64(repeats), d, hd, os, hos, o))
    r = repeats isa Tensor ? repeats : tensor(Int64.(collect(repeats)))
    try
        GC.@preserve r newtensor(o -> LibCT.ct_repeat_interleave(t, handle(r), Int64(0), d, hd, os, hos, o))
    finally
        r === repeats || release!(r)
    end
end

"""
    meshgrid(ts...; indexing = :ij)

Coordinate grids of 0-d or 1-D tensors of one element type (`:xy`: numpy's Cartesian indexing, the first two
swapped), as expanded views in ctensor's dim order (grid k varies along Julia dim n + 1 - k).
"""
function meshgrid(ts::Tensor...; indexing::Symbol = :ij)
    indexing in (:ij, :xy) || throw(ArgumentError("meshgrid: indexing must be :ij or :xy, got :$indexing"))
    h = Ptr{Cvoid}[handle(t) for t in ts]
    outs = fill(C_NULL, length(h))
    GC.@preserve ts @check LibCT.ct_meshgrid(h, Int32(length(h)), Int32(indexing === :xy), outs, Int32(length(outs)))
    Tuple(wrap(p) for p in outs)
end

"""
    median(t)            # 0-d lower median of all elements (NaN when one is NaN)
    median(t; dims, keepdim = false) -> (values, 1-based indices)

The lower median (torch.median); a slice holding NaN gives its first NaN.
"""
median(t::Tensor; dims = nothing, keepdim::Bool = false) =
    dims === nothing ? newtensor(o -> LibCT.ct_median(t, o)) : _two(LibCT.ct_median_dim, t, ctdim(t, dims), Int32(keepdim))
"`median` ignoring NaN (torch.nanmedian)."
nanmedian(t::Tensor; dims = nothing, keepdim::Bool = false) =
    dims === nothing ? newtensor(o -> LibCT.ct_nanmedian(t, o)) :
    _two(LibCT.ct_nanmedian_dim, t, ctdim(t, dims), Int32(keepdim))

const QUANTILE_MODES = Dict(:linear => Int32(0), :lower => Int32(1), :higher => Int32(2), :midpoint => Int32(3),
                            :nearest => Int32(4))   # CT_QUANTILE_*

function _quantile(c, t::Tensor, q, dims, keepdim::Bool, interpolation::Symbol)
    mode = get(QUANTILE_MODES, interpolation) do
        throw(ArgumentError("quantile: interpolation must be one of $(keys(QUANTILE_MODES)), got :$interpolation"))
    end
    d, hd = _optdim(t, dims)
    q isa Real && return newtensor(o -> c(t, C_NULL, Float64(q), d, hd, Int32(keepdim), mode, o))
    qt = q isa Tensor ? q : tensor(eltype(t).(collect(q)))
    try
        GC.@preserve qt newtensor(o -> c(t, handle(qt), 0.0, d, hd, Int32(keepdim), mode, o))
    finally
        qt === q || release!(qt)
    end
end
"""
    quantile(t, q; dims = nothing, keepdim = false, interpolation = :linear)

torch.quantile of a Float32/Float64 tensor: q a number in [0, 1] or a vector of them (its dim comes out LAST in
Julia order); interpolation :linear, :lower, :higher, :midpoint or :nearest.
"""
quantile(t::Tensor, q; dims = nothing, keepdim::Bool = false, interpolation::Symbol = :linear) =
    _quantile(LibCT.ct_quantile, t, q, dims, keepdim, interpolation)
"`quantile` ignoring NaN (torch.nanquantile)."
nanquantile(t::Tensor, q; dims = nothing, keepdim::Bool = false, interpolation::Symbol = :linear) =
    _quantile(LibCT.ct_nanquantile, t, q, dims, keepdim, interpolation)

"""
    cdist(x1, x2; p = 2, compute_mode = 0)

p-norm distances between the columns of x1 (M, P, B..) and x2 (M, R, B..): D (R, P, B..) with D[j, i] the distance
of x1[:, i] and x2[:, j]; compute_mode as torch (0: matmul form for p = 2 when P or R > 25, 1: always, 2: never).
"""
cdist(x1::Tensor, x2::Tensor; p::Real = 2, compute_mode::Integer = 0) =
    newtensor(o -> LibCT.ct_cdist(x1, x2, Float64(p), Int32(compute_mode), o))

merge!(OPS, Dict{String,Any}("repeat_interleave" => repeat_interleave, "meshgrid" => meshgrid, "median" => median,
                             "nanmedian" => nanmedian, "median_dim" => median, "nanmedian_dim" => nanmedian,
                             "quantile" => quantile, "nanquantile" => nanquantile, "cdist" => cdist))
