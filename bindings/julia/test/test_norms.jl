# test_norms.jl - layer_norm / group_norm / batch_norm and the LayerNorm / GroupNorm / BatchNorm layers in Julia
# layout: values against Julia means and variances, the running-statistic update, a zero gradient, error kinds.
@testset "norms" begin
    xv = [1.0 2.0; 2.0 4.0; 3.0 6.0]                       # (3, 2): two columns (samples) [1 2 3] and [2 4 6]
    X = requires_grad!(tensor(copy(xv)))
    ref = (xv .- sum(xv, dims = 1) ./ 3) ./ sqrt.(sum((xv .- sum(xv, dims = 1) ./ 3) .^ 2, dims = 1) ./ 3)
    Y = layer_norm(X, (3,); eps = 0)
    @test Array(Y) ≈ ref
    backward!(sum(Y))                                      # each column of Y sums to zero
    @test maximum(abs.(Array(grad(X)))) < 1e-12
    @test Array(group_norm(reshape(X, 1, 3, 2), 1; eps = 0))[1, :, :] ≈ ref
    rm, rv = tensor(zeros(3)), tensor(ones(3))
    B = batch_norm(X, rm, rv; momentum = 0.5, eps = 0)   # channels are the rows: (1, 2) (2, 4) (3, 6)
    @test Array(B) ≈ [-1.0 1.0; -1.0 1.0; -1.0 1.0]
    @test Array(rm) ≈ [0.75, 1.5, 2.25] && Array(rv) ≈ [0.75, 1.5, 2.75]
    bn = BatchNorm(3)
    @test size(bn(tensor(rand(Float32, 3, 4)))) == (3, 4)
    @test size(LayerNorm(3)(tensor(rand(Float32, 3, 4)))) == (3, 4)
    @test size(GroupNorm(1, 3)(tensor(rand(Float32, 5, 3, 2)))) == (5, 3, 2)
    err = try group_norm(tensor(zeros(4, 2)), 3); nothing catch e; e end
    @test err isa CTensorError && err.kind == C.ERR_INVALID_ARGUMENT && occursin("num_groups=3", err.message)
    @test_throws CTensorError layer_norm(X, (5,))
end
