# test_dtypes_half.jl - Float16, Int8 and Int16 as ctensor dtypes (float16, int8, int16), round trips and
# arithmetic; bfloat16 has no Julia type and is refused with a dtype error.
@testset "half and small integer dtypes" begin
    for T in (Float16, Int8, Int16)
        a = T[1 2 3; -4 5 -6]
        t = C.Tensor(a)
        @test eltype(t) == T
        @test Array(t) == a
        C.release!(t)
    end
    h = C.Tensor(Float16[0.5, 1.5, 2.0])
    s = h + h
    @test eltype(s) == Float16
    @test Array(s) == Float16[1.0, 3.0, 4.0]
    C.release!(h, s)
    @test_throws C.CTensorError C.eltype_of(7)
end
