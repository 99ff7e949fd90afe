# test_embedding_bag.jl - embedding_bag / embedding_ex / embedding_renorm! in Julia layout (weight (dim, num),
# 1-based indices, offsets and padding): bag values against Julia sums, means and maxima, the padding column's zero
# gradient, frequency scaling, renormalisation, the layer, and error kinds.
@testset "embedding_bag" begin
    wv = reshape(collect(-4.0:7.0), 3, 4)                  # columns [-4 -3 -2] [-1 0 1] [2 3 4] [5 6 7]
    W = requires_grad!(tensor(copy(wv)))
    idx, off = [1, 3, 4, 2], [1, 3]                        # bags {1, 3} and {4, 2}
    bags = [[1, 3], [4, 2]]
    @test Array(embedding_bag(W, idx, off; mode = :sum)) ≈ hcat([sum(wv[:, b], dims = 2) for b in bags]...)
    @test Array(embedding_bag(W, idx, off; mode = :mean)) ≈ hcat([sum(wv[:, b], dims = 2) / 2 for b in bags]...)
    @test Array(embedding_bag(W, idx, off; mode = :max)) ≈ hcat([maximum(wv[:, b], dims = 2) for b in bags]...)
    @test Array(embedding_bag(W, reshape(idx, 2, 2); mode = :sum)) ≈ hcat([sum(wv[:, b], dims = 2) for b in bags]...)
    psw = tensor([1.0, 0.5, 2.0, 0.0])
    @test Array(embedding_bag(W, idx, off; mode = :sum, per_sample_weights = psw)) ≈
          hcat(wv[:, 1] + 0.5wv[:, 3], 2wv[:, 4])
    out = embedding_bag(W, idx, off; mode = :sum, pad = 4)  # column 4 left out
    @test Array(out) ≈ hcat(wv[:, 1] + wv[:, 3], wv[:, 2])
    backward!(sum(out))
    @test Array(grad(W)) == [1.0 1.0 1.0 0.0; 1.0 1.0 1.0 0.0; 1.0 1.0 1.0 0.0]
    W2 = requires_grad!(tensor(copy(wv)))
    backward!(sum(embedding_ex(W2, [2, 2, 3, 1]; pad = 1, scale_grad_by_freq = true)))
    @test Array(grad(W2)) == repeat([0.0 1.0 1.0 0.0], 3)
    V = tensor([3.0 0.3; 4.0 0.4; 0.0 0.0])
    embedding_renorm!(V, [1, 2], 1.0)
    @test Array(V)[:, 1] ≈ [3.0, 4.0, 0.0] ./ (5.0 + 1e-7) && Array(V)[:, 2] == [0.3, 0.4, 0.0]
    layer = EmbeddingBag(5 => 2; mode = :max)
    @test size(layer([1, 2, 3], [1, 2])) == (2, 2)
    @test length(C.params(layer)) == 1
    @test_throws CTensorError embedding_bag(W, [1, 9], [1])
    err = try embedding_bag(W, [1, 2], [2]); nothing catch e; e end
    @test err isa CTensorError && err.kind == C.ERR_INVALID_ARGUMENT && occursin("offsets[0] must be 0", err.message)
    @test_throws ArgumentError embedding_bag(W, idx, off; mode = :median)
end
