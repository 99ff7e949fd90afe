# embedding_bag.jl - embedding with torch's options and EmbeddingBag, over ct_embedding_ex / ct_embedding_renorm_ /
# ct_embedding_bag. Julia layout: weight (dim, num), 1-based indices, offsets and padding index; bags come out as
# columns (dim, bags); a 2-D index (n, bags) holds a bag per column.

const BAG_MODES = Dict(:sum => Int32(0), :mean => Int32(1), :max => Int32(2))   # CT_EMBEDDING_BAG_*

padding_arg(pad) = pad === nothing ? (Int64(0), Int32(0)) : (Int64(pad) - 1, Int32(1))

"Scales the columns of weight (dim, num) named in idx (1-based) whose norm_type-norm exceeds max_norm, in place."
function embedding_renorm!(w::Tensor, idx, max_norm::Real, norm_type::Real = 2)
    with_targets(idx) do t
        @check LibCT.ct_embedding_renorm_(w, t, Float64(max_norm), Float64(norm_type))
    end
    w
end

"""
    embedding_ex(w, idx; pad = nothing, max_norm = nothing, norm_type = 2, scale_grad_by_freq = false)

Columns of weight (dim, num) at 1-based idx, with torch's options: column `pad` gets no gradient, `max_norm`
renormalises the looked-up columns in place first, `scale_grad_by_freq` divides gradients by the columns' counts.
"""
function embedding_ex(w::Tensor, idx; pad = nothing, max_norm = nothing, norm_type::Real = 2,
                      scale_grad_by_freq::Bool = false)
    max_norm === nothing || embedding_renorm!(w, idx, max_norm, norm_type)
    p, has = padding_arg(pad)
    with_targets(idx) do t
        newtensor(o -> LibCT.ct_embedding_ex(w, t, p, has, Int32(scale_grad_by_freq), o))
    end
end

"""
    embedding_bag(w, idx, offsets = nothing; mode = :mean, per_sample_weights = nothing, include_last_offset = false,
                  pad = nothing, max_norm = nothing, norm_type = 2, scale_grad_by_freq = false)

Reduces bags of weight's columns (w is (dim, num)) to (dim, bags) by mode (:sum, :mean or :max): idx (n, bags) with
a bag per column, or a vector with 1-based offsets starting each bag. per_sample_weights (idx's shape, :sum only)
scale the columns; columns equal to pad are left out; an empty bag gives zeros.
"""
function embedding_bag(w::Tensor, idx, offsets = nothing; mode::Symbol = :mean, per_sample_weights = nothing,
                       include_last_offset::Bool = false, pad = nothing, max_norm = nothing, norm_type::Real = 2,
                       scale_grad_by_freq::Bool = false)
    haskey(BAG_MODES, mode) || throw(ArgumentError("embedding_bag: mode must be :sum, :mean or :max, got :$mode"))
    max_norm === nothing || embedding_renorm!(w, idx, max_norm, norm_type)
    p, has = padding_arg(pad)
    with_targets(idx) do t
        run(off) = newtensor(o -> LibCT.ct_embedding_bag(w, t, off, BAG_MODES[mode], opt(per_sample_weights),
                                                         Int32(include_last_offset), p, has, Int32(scale_grad_by_freq), o))
        offsets === nothing ? run(C_NULL) : with_targets(ot -> run(handle(ot)), offsets)
    end
end

"EmbeddingBag(num => dim; mode = :mean): a (dim, num) table from N(0, 1); (b::EmbeddingBag)(idx, offsets = nothing)."
struct EmbeddingBag <: Layer
    weight::Tensor{Float32,2}
    mode::Symbol
end
EmbeddingBag(nd::Pair{<:Integer,<:Integer}; mode::Symbol = :mean, gen = nothing) =
    EmbeddingBag(requires_grad!(randn(Float32, nd.second, nd.first; gen = gen)), mode)
(b::EmbeddingBag)(idx, offsets = nothing; kw...) = embedding_bag(b.weight, idx, offsets; mode = b.mode, kw...)
params(b::EmbeddingBag) = [b.weight]

merge!(OPS, Dict{String,Any}("embedding_ex" => embedding_ex, "embedding_renorm_" => embedding_renorm!,
                             "embedding_bag" => embedding_bag))
