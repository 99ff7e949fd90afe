# test_binary_math.jl - the binary math and integer ops of issue 14 in dot syntax against Julia's own functions on
# the same arrays (hypot, copysign, <<, >>, gcd, lcm, &, |, xor, ~ from Base; logaddexp .. nextafter from CTensor).
using CTensor, Test

@testset "binary math" begin
    a = [1.5 -2.0 0.0; 0.25 3.0 -1.0]
    b = [0.5 3.0 -1.0; 2.0 -0.5 0.0]
    ta, tb = Tensor(copy(a)), Tensor(copy(b))
    @test isapprox(Array(logaddexp.(ta, tb)), log.(exp.(a) .+ exp.(b)); rtol = 1e-14)
    @test isapprox(Array(logaddexp2.(ta, tb)), log2.(exp2.(a) .+ exp2.(b)); rtol = 1e-14)
    @test isapprox(Array(hypot.(ta, tb)), hypot.(a, b); rtol = 1e-15)
    @test Array(copysign.(ta, tb)) == copysign.(a, b)
    @test Array(fmax.(Tensor([NaN, 1.0]), Tensor([2.0, NaN]))) == [2.0, 1.0]
    @test Array(fmin.(Tensor([NaN, 1.0]), Tensor([2.0, NaN]))) == [2.0, 1.0]
    @test Array(xlogy.(Tensor([0.0, 2.0]), Tensor([0.0, 3.0]))) == [0.0, 2 * log(3.0)]
    @test Array(heaviside.(ta, 0.5)) == [1.0 0.0 0.5; 1.0 1.0 0.0]
    @test Array(nextafter.(Tensor([1.0]), Tensor([2.0]))) == [nextfloat(1.0)]
    @test logaddexp(-Inf, -Inf) == -Inf
    @test_throws CTensorError logaddexp.(Tensor([1, 2]), Tensor([1, 2]))
end

@testset "integer ops" begin
    x = Int64[5, -3, 0, 7]
    y = Int64[3, 2, 1, 4]
    tx, ty = Tensor(copy(x)), Tensor(copy(y))
    @test Array(tx .& ty) == x .& y
    @test Array(tx .| ty) == x .| y
    @test Array(xor.(tx, ty)) == xor.(x, y)
    @test Array(.~tx) == .~x
    @test Array(tx .<< ty) == x .<< y
    @test Array(tx .>> ty) == x .>> y
    @test Array(tx .<< 64) == x .<< 64      # Julia also shifts every bit out
    @test Array(tx .>> 64) == x .>> 64
    @test Array(gcd.(Tensor([-12, 0, 0]), Tensor([18, 0, -5]))) == gcd.([-12, 0, 0], [18, 0, -5])
    @test Array(lcm.(Tensor([-4, 0, 6]), Tensor([6, 5, -4]))) == lcm.([-4, 0, 6], [6, 5, -4])
    m, n = Tensor([true, false, true]), Tensor([true, true, false])
    @test Array(m .& n) == [true, false, false]
    @test Array(CTensor.logical_and.(Tensor([2, 0]), Tensor([1, 1]))) == [true, false]
    @test_throws CTensorError Tensor([1.0]) .& Tensor([1.0])
end

@testset "addcmul / addcdiv" begin
    x, a, b = Tensor([1.0, 2.0]), Tensor([2.0, -1.0]), Tensor([0.5, 4.0])
    @test Array(addcmul(x, a, b; value = -0.5)) == [0.5, 4.0]
    @test Array(addcdiv(x, a, b; value = 2)) == [9.0, 1.5]
    @test_throws CTensorError addcdiv(Tensor([1]), Tensor([1]), Tensor([1]))
end
