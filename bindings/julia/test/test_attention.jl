# test_attention.jl - scaled_dot_product_attention and multi_head_attention_forward against Julia math (columns are
# queries: ctensor's [L, E] is Julia's (E, L)), a causal mask, and the error for heads not dividing the width.

naive_attention(Q, K, V; keep = (i, j) -> true) = begin
    S = (K' * Q) ./ sqrt(size(Q, 1))                   # (S, L): column i holds query i's scores
    S = [keep(i, j) ? S[j, i] : -Inf for j in 1:size(K, 2), i in 1:size(Q, 2)]
    P = exp.(S .- maximum(S; dims = 1))
    V * (P ./ sum(P; dims = 1))
end

@testset "attention" begin
    Q, K, V = randn(4, 70), randn(4, 150), randn(3, 150)
    @test Array(C.scaled_dot_product_attention(tensor(Q), tensor(K), tensor(V))) ≈ naive_attention(Q, K, V) rtol = 1e-10
    @test Array(C.scaled_dot_product_attention(tensor(Q), tensor(K), tensor(V); causal = true)) ≈
          naive_attention(Q, K, V; keep = (i, j) -> j <= i) rtol = 1e-10
    E, N, L = 8, 2, 5
    x = randn(E, N, L)
    win, wout = randn(E, 3 * E) ./ 4, randn(E, E) ./ 4
    out, w = C.multi_head_attention_forward(tensor(x), tensor(x), tensor(x), 2, tensor(win), nothing, tensor(wout), nothing)
    @test size(out) == (E, N, L) && size(w) == (L, L, N)
    @test all(isapprox.(sum(Array(w); dims = 1), 1; rtol = 1e-10))
    # one head: the output is wout' * (attention of the projected columns of batch 1)
    out1, _ = C.multi_head_attention_forward(tensor(x), tensor(x), tensor(x), 1, tensor(win), nothing, tensor(wout), nothing;
                                             need_weights = false)
    X = x[:, 1, :]
    Wq, Wk, Wv = win[:, 1:E], win[:, E+1:2*E], win[:, 2*E+1:3*E]
    @test Array(out1)[:, 1, :] ≈ wout' * naive_attention(Wq' * X, Wk' * X, Wv' * X) rtol = 1e-9
    err = try C.multi_head_attention_forward(tensor(x), tensor(x), tensor(x), 3, tensor(win), nothing, tensor(wout), nothing); nothing catch e; e end
    @test err isa C.CTensorError && occursin("not divisible by num_heads 3", err.message)
end
