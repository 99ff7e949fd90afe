# attention.jl - attention in Julia layout (dims reversed, batch last): scaled_dot_product_attention of q (E, L,
# batch...), k (E, S, batch...), v (Ev, S, batch...) -> (Ev, L, batch...); multi_head_attention_forward of query
# (E, N, L) (ctensor's seq-first [L, N, E]) with a packed in-projection; thin wrappers of the C ops.

"softmax(k'q * scale + mask) weighted v per query column; mask (S, L, batch...) bool (true = attend) or float (added);
causal masks key j > query i; scale `nothing` = 1/sqrt(E); dropout_p of the probabilities dropped."
scaled_dot_product_attention(q::Tensor, k::Tensor, v::Tensor; mask = nothing, dropout_p::Real = 0, causal::Bool = false,
                             scale = nothing, gen = nothing) =
    GC.@preserve mask gen newtensor(o -> LibCT.ct_scaled_dot_product_attention(q, k, v, opt(mask), Float64(dropout_p),
                                                                                 Int32(causal), scale === nothing ? NaN : Float64(scale),
                                                                                 genptr(gen), o))

"""Multi-head attention (torch's F.multi_head_attention_forward, packed weights): query (E, N, L), key/value (E, N, S),
in_proj_weight (E, 3E), in_proj_bias (3E,), out_proj weight (E, E) and bias; key_padding_mask (S, N), attn_mask (S, L)
(bool: true = not allowed). Returns (output (E, N, L), weights (S, L, N) averaged over heads, or `nothing`)."""
function multi_head_attention_forward(query::Tensor, key::Tensor, value::Tensor, num_heads::Integer, in_proj_weight::Tensor,
                                      in_proj_bias, out_proj_weight::Tensor, out_proj_bias; key_padding_mask = nothing,
                                      attn_mask = nothing, need_weights::Bool = true, dropout_p::Real = 0,
                                      training::Bool = true, causal::Bool = false, gen = nothing)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    w = Ref{Ptr{Cvoid}}(C_NULL)
    GC.@preserve in_proj_bias out_proj_bias key_padding_mask attn_mask gen begin
        @check(LibCT.ct_multi_head_attention_forward(query, key, value, Int64(num_heads), in_proj_weight, opt(in_proj_bias),
                                                    C_NULL, C_NULL, Int32(0), Float64(dropout_p), out_proj_weight,
                                                    opt(out_proj_bias), Int32(training), opt(key_padding_mask),
                                                    Int32(need_weights), opt(attn_mask), C_NULL, C_NULL, C_NULL, Int32(1),
                                                    Int32(causal), genptr(gen), out, w))
    end
    o = wrap(out[])
    return o, w[] == C_NULL ? nothing : wrap(w[])
end
