# test_toolbox_stats.jl - the rest of the toolbox of issue 14 (repeat_interleave, meshgrid, median, quantile, cdist)
# against Julia computations and torch 1.13's values, a gradient against finite differences, and error kinds.
@testset "toolbox stats" begin
    A = [1.0 2.0; 3.0 4.0]                      # ctensor [[1, 3], [2, 4]]
    t = tensor(A)
    @test Array(C.repeat_interleave(t, 2)) == repeat(vec(A); inner = 2)
    @test Array(C.repeat_interleave(t, [1, 2]; dims = 2)) == [1.0 2.0 2.0; 3.0 4.0 4.0]
    @test Array(C.repeat_interleave(t, 2; dims = 1)) == [1.0 2.0; 1.0 2.0; 3.0 4.0; 3.0 4.0]
    @test errkind(() -> C.repeat_interleave(t, -1)) == C.ERR_INVALID_ARGUMENT
    g = C.meshgrid(tensor([1.0, 2.0]), tensor([3.0, 4.0, 5.0]))
    @test size(g[1]) == (3, 2)
    @test Array(g[1]) == [1.0 2.0; 1.0 2.0; 1.0 2.0]
    @test Array(g[2]) == [3.0 3.0; 4.0 4.0; 5.0 5.0]
    M = [1.0 NaN 2.0; 3.0 5.0 4.0]'             # Julia (3, 2): columns [1, NaN, 2] and [3, 5, 4]
    m = tensor(collect(M))
    @test isnan(C.median(m)[])
    @test C.nanmedian(m)[] == 3.0
    v, i = C.nanmedian(m; dims = 1)
    @test Array(v) == [1.0, 4.0]
    @test Array(i) == [1, 3]
    v, i = C.median(m; dims = 1)
    @test isnan(Array(v)[1]) && Array(i) == [2, 3]
    Y = [3.0 1.0 4.0 1.0; 5.0 9.0 2.0 6.0]'     # Julia (4, 2): torch's rows as columns
    y = tensor(collect(Y))
    @test C.quantile(y, 0.4)[] ≈ 2.8
    @test Array(C.quantile(y, [0.25, 0.5, 0.9]; dims = 1)) ≈ [1.0 2.0 3.7; 4.25 5.5 8.1]
    @test Array(C.quantile(y, [0.25, 0.5, 0.9]; dims = 1, interpolation = :nearest)) == [1.0 3.0 4.0; 5.0 6.0 9.0]
    @test errkind(() -> C.quantile(y, 1.5)) == C.ERR_INVALID_ARGUMENT
    X1 = [0.0 1.0 3.0; 0.0 2.0 -1.0]            # points as columns
    X2 = [1.0 0.0; 1.0 0.0]
    D = C.cdist(tensor(X1), tensor(X2); p = 1)
    @test Array(D) == [sum(abs.(X1[:, i] - X2[:, j])) for j in 1:2, i in 1:3]
    @test Array(C.cdist(tensor(X1), tensor(X2); p = Inf)) == [maximum(abs.(X1[:, i] - X2[:, j])) for j in 1:2, i in 1:3]
    @test errkind(() -> C.cdist(tensor(X1), tensor(ones(3, 2)))) == C.ERR_SHAPE
    f(x) = C.cdist(x, tensor(X2); p = 3)
    x = requires_grad!(tensor(X1 .+ 0.1))
    backward!(sum(f(x) .^ 2))
    @test Array(grad(x)) ≈ fd_grad(p -> sum(Array(f(tensor(p))) .^ 2), X1 .+ 0.1) rtol = 1e-5 atol = 1e-7
end
