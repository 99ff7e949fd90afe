# promotion.jl - torch's type promotion queries (issue 15) over Julia element types: promote_types, can_cast and
# result_type, straight through the C ABI (ct_promote_types, ct_can_cast, ct_result_type); the rules live in the
# core, none are copied here. Julia's Base.promote_type has rules of its own; these say what a ctensor op returns.

"""
    promote_types(T, S)

The element type two tensors of element types `T` and `S` promote to in ctensor ops (torch.promote_types).
"""
function promote_types(::Type{T}, ::Type{S}) where {T,S}
    r = Ref{Int32}(0)
    @check LibCT.ct_promote_types(dtype_of(T), dtype_of(S), r)
    eltype_of(r[])
end

"""
    can_cast(from, to)

Whether an op's result of element type `from` may be stored in a tensor of element type `to` (torch.can_cast):
never to a lower category (Bool < integer < floating < complex); within one any cast is allowed.
"""
function can_cast(::Type{T}, ::Type{S}) where {T,S}
    r = Ref{Int32}(0)
    @check LibCT.ct_can_cast(dtype_of(T), dtype_of(S), r)
    r[] == 1
end

"""
    result_type(a, b)

The element type of an elementwise op of `a` and `b`, each a Tensor or a number (torch.result_type): a 0-d tensor
or a number only promotes when it is of a higher category.
"""
function result_type(a::Union{Tensor,Number}, b::Union{Tensor,Number})
    tmp = Tensor[]
    try
        x, y = bc_arg(a, tmp), bc_arg(b, tmp)
        r = Ref{Int32}(0)
        @check LibCT.ct_result_type(x, y, r)
        eltype_of(r[])
    finally
        foreach(release!, tmp)
    end
end
