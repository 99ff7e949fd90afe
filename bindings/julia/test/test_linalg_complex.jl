# test_linalg_complex.jl - LinearAlgebra's inv, det, logabsdet and svdvals on ComplexF32/ComplexF64 Tensors against
# Julia's own (issue 15: complex torch.linalg); singular values and logabsdet come back real.
using CTensor, Test, LinearAlgebra

@testset "linalg complex" begin
    for T in (ComplexF32, ComplexF64)
        a = T[2 1im 0.5; 0 1+1im -1im; 0.25 2 3-1im]
        t = Tensor(copy(a))
        tol = T === ComplexF32 ? 1e-4 : 1e-10
        @test isapprox(Array(inv(t)), inv(a); rtol = tol)
        @test isapprox(det(t)[], det(a); rtol = tol)
        logabs, sign = logabsdet(t)
        @test isapprox(logabs[], logabsdet(a)[1]; rtol = tol)
        @test isapprox(sign[], logabsdet(a)[2]; rtol = tol)
        s = svdvals(t)
        @test eltype(s) == real(T)
        @test isapprox(Array(s), svdvals(a); rtol = tol)
    end
end
