# test_promotion.jl - torch's type promotion queries from Julia (issue 15): promote_types and can_cast against values
# torch 1.13 prints (torch.promote_types / torch.can_cast), and result_type against the element type an op gives,
# for tensors, 0-d tensors and Julia numbers.
using CTensor, Test

@testset "promotion queries" begin
    for (T, S, R) in ((Float16, Int64, Float16), (Int8, UInt8, Int16), (Bool, Int8, Int8),
                      (Float64, ComplexF32, ComplexF64), (Int32, Float16, Float16), (Float16, Float32, Float32))
        @test CTensor.promote_types(T, S) == R
        @test CTensor.promote_types(S, T) == R
    end
    @test can_cast(Int64, Float16)
    @test can_cast(Float64, Float16)
    @test !can_cast(Float32, Int64)
    @test !can_cast(ComplexF32, Float64)
    @test !can_cast(Int32, Bool)
    x = Tensor(Int32[1, 2])
    for (other, R) in ((2.5, Float32), (3, Int32), (true, Int32), (1 + 2im, ComplexF32), (Tensor(fill(1.0)), Float64),
                       (Tensor(fill(Int64(1))), Int32), (Tensor(Int64[1, 1]), Int64))
        @test result_type(x, other) == R
        @test result_type(other, x) == R
        @test eltype(x .+ other) == R
    end
    @test_throws ArgumentError CTensor.promote_types(String, Float32)
end

@testset "a Julia Bool is torch's Python bool" begin
    # torch 1.13: torch.tensor([True, False]) + True is bool; int8 * True stays int8; t - True is refused
    mask = Tensor([true, false])
    r = mask .+ true
    @test eltype(r) == Bool
    @test Array(r) == [true, true]
    @test result_type(mask, true) == Bool
    @test eltype(CTensor.wrapped_scalar_bool(true)) == Bool
    for T in (UInt8, Int8, Int32, Int64, Float16, Float32, Float64, ComplexF32)
        x = Tensor(T[1, 0])
        @test eltype(x .* true) == T
        @test result_type(x, false) == T
        @test Array(x .* false) == T[0, 0]
        @test_throws CTensorError x .- true
    end
end
