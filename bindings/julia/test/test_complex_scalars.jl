# test_complex_scalars.jl - Julia's Complex beside tensors (issue 15): `t * (1+2im)`, `t .+ 1im`, the number on
# either side, result element types as torch 1.13 gives them for a Python complex (Float32 / integer / Bool /
# Float16 -> ComplexF32, Float64 -> ComplexF64, complex keeps its type), values printed by torch, == / != and the
# refusal of ordering, and the gradient of a real tensor through a complex quotient.
using CTensor, Test

@testset "complex scalars" begin
    s = 0.5 + 2im
    for (T, R) in ((Bool, ComplexF32), (UInt8, ComplexF32), (Int32, ComplexF32), (Int64, ComplexF32),
                   (Float16, ComplexF32), (Float32, ComplexF32), (Float64, ComplexF64),
                   (ComplexF32, ComplexF32), (ComplexF64, ComplexF64))
        x = Tensor(T[1, 1])
        y = x * s
        @test eltype(y) == R
        @test Array(y) == R[0.5 + 2im, 0.5 + 2im]
        z = x .+ s
        @test eltype(z) == R
        @test Array(z) == R[1.5 + 2im, 1.5 + 2im]
        @test eltype(s .* x) == R
    end
    # torch 1.13, x = [1., -2.] (float64), s = 0.5+2j
    x = Tensor([1.0, -2.0])
    @test Array(x .* s) == ComplexF64[0.5 + 2im, -1 - 4im]
    @test Array(s ./ x) == ComplexF64[0.5 + 2im, -0.25 - 1im]
    @test Array(x .- s) == ComplexF64[0.5 - 2im, -2.5 - 2im]
    @test Array(s .- x) == ComplexF64[-0.5 + 2im, 2.5 + 2im]
    @test isapprox(Array(x / (0.25 + 1im)), ComplexF64[0.25 - 1im, -0.5 + 2im] ./ 1.0625; atol = 1e-15)
    @test isapprox(Array(x .^ s), ComplexF64[1, -0.0025961397312833884 + 0.0004845030526940058im]; atol = 1e-12)
    @test eltype(Tensor(ComplexF32[1 + 1im]) .* 1im .+ 1) == ComplexF32   # (1+i) i + 1 = i
    @test Array(Tensor(ComplexF32[1 + 1im]) .* 1im .+ 1) == ComplexF32[1im]
    @test eltype(Tensor(Float32[1]) .+ 1im) == ComplexF32
    # == and != work, ordering refuses, bool - z refuses (torch)
    xi = Tensor(Int32[1, 2])
    @test Array(xi .== (1 + 0im)) == [true, false]
    @test Array(xi .!= 1im) == [true, true]
    e = try xi .< 1im; nothing catch err; err end
    @test e isa CTensorError && e.kind == CTensor.ERR_NOT_SUPPORTED && occursin("complex64", e.message)
    @test_throws CTensorError Tensor([true]) .- 1im
    # d imag(s / x) / dx = -2 / x^2 (torch 1.13)
    xg = requires_grad!(Tensor([1.0, -2.0]))
    backward!(sum(imag(s ./ xg)))
    @test Array(grad(xg)) == [-2.0, -0.5]
end
