# test_unary_math.jl - the unary math ops of issue 14 from Julia: dot syntax on Base's functions and the exported
# special functions, against Julia's own functions and closed forms.
using CTensor, Test

@testset "unary math" begin
    x = [-0.5, 0.25]
    t = Tensor(copy(x))
    for f in (asin, acos, atan, sinh, cosh, asinh, atanh, sinc, deg2rad, rad2deg)
        @test isapprox(Array(f.(t)), f.(x); rtol = 1e-14)
    end
    @test isapprox(Array(acosh.(Tensor([2.0]))), [acosh(2.0)]; rtol = 1e-14)
    @test Array(signbit.(Tensor([-0.0, 1.0]))) == [true, false]
    @test isapprox(Array(erfinv(erf(t))), x; rtol = 1e-13)
    @test isapprox(Array(erfc(t)) .+ Array(erf(t)), [1.0, 1.0]; rtol = 1e-15)
    @test isapprox(Array(lgamma(Tensor([4.0]))), [log(6.0)]; rtol = 1e-14)
    @test isapprox(Array(digamma(Tensor([1.0]))), [-0.5772156649015329]; rtol = 1e-14)
    @test isapprox(Array(i0(Tensor([1.0]))), [1.2660658777520084]; rtol = 1e-14)
    @test isapprox(Array(logit(Tensor([0.0, 0.5]); eps = 0.1)), [log(0.1 / 0.9), 0.0]; atol = 1e-12)
    @test Array(logit(Tensor([1.0]))) == [Inf]
    @test Array(sgn(Tensor([-2.0, 0.0, 3.0]))) == [-1.0, 0.0, 1.0]
    @test Array(isposinf(Tensor([Inf, -Inf]))) == [true, false]
    @test Array(isneginf(Tensor([Inf, -Inf]))) == [false, true]
    @test Array(positive(t)) == x
    @test_throws CTensorError positive(Tensor([true]))
end
