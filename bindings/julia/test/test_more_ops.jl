# test_more_ops.jl - issue 14's last reductions and products (logcumsumexp, aminmax, var_mean / std_mean, kron,
# tensordot, inner) against Julia's own computations on the same arrays, and error kinds.
using CTensor, Test, LinearAlgebra, Statistics

@testset "more ops" begin
    A = [0.5 -1.0 2.0; 3.0 0.0 -700.0]
    t = tensor(A)
    @test Array(logcumsumexp(t; dims = 2)) ≈ log.(cumsum(exp.(A); dims = 2)) rtol = 1e-14
    @test Array(logcumsumexp(t; dims = 1)) ≈ log.(cumsum(exp.(A); dims = 1)) rtol = 1e-14
    lo, hi = aminmax(t)
    @test (lo[], hi[]) == (-700.0, 3.0)
    lo, hi = aminmax(t; dims = 2)
    @test Array(lo) == vec(minimum(A; dims = 2)) && Array(hi) == vec(maximum(A; dims = 2))
    v, m = var_mean(t; dims = 2)
    @test Array(v) ≈ var(A; dims = 2) && Array(m) ≈ mean(A; dims = 2)
    s, m = std_mean(t; corrected = false)
    @test s[] ≈ std(A; corrected = false) && m[] ≈ mean(A)
    B = [1.0 2.0; 3.0 4.0]; D = [0.0 5.0 1.0; 6.0 7.0 2.0]
    @test Array(kron(tensor(B), tensor(D))) == kron(B, D)
    @test Array(kron(tensor([1.0, 2.0]), tensor(D))) == kron([1.0, 2.0], D)
    @test Array(tensordot(tensor(B), tensor(D), [1], [1])) ≈ D' * B   # b's free dims, then a's
    @test tensordot(tensor(B), tensor(B), 2)[] ≈ sum(B .* B)
    @test Array(inner(tensor(B), tensor(D))) ≈ D' * B
    @test errkind(() -> tensordot(tensor(B), tensor(D), [1], [2])) == C.ERR_SHAPE
    @test errkind(() -> logcumsumexp(tensor([1, 2]); dims = 1)) == C.ERR_DTYPE
end
