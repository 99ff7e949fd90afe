# test_resample.jl - interpolate / Upsample in Julia layout: nearest and linear values against Julia-computed ones,
# a size tuple in Julia order, the gradient of a bilinear upsample, and an error kind.
@testset "resample" begin
    x = tensor(reshape([0.0, 1.0, 2.0, 3.0], 4, 1, 1))                 # (W, C, N)
    @test vec(Array(interpolate(x; scale_factor = 2))) == [0, 0, 1, 1, 2, 2, 3, 3]
    @test vec(Array(interpolate(x; size = 7, mode = :linear, align_corners = true))) ≈ 0:0.5:3
    img = reshape(collect(1.0:6.0), 3, 2, 1, 1)                          # (W = 3, H = 2, C, N)
    y = interpolate(tensor(img); size = (6, 4), mode = :nearest)          # (W, H) in Julia order
    @test Base.size(Array(y)) == (6, 4, 1, 1)
    @test Array(y)[:, :, 1, 1] == img[[1, 1, 2, 2, 3, 3], [1, 1, 2, 2], 1, 1]
    X = requires_grad!(tensor(reshape([1.0, 2.0, 3.0, 4.0], 2, 2, 1, 1)))
    backward!(sum(Upsample(scale_factor = 2, mode = :bilinear)(X)))
    @test Array(grad(X)) == fill(4.0, 2, 2, 1, 1)
    @test_throws CTensorError interpolate(x; size = 4, mode = :nearest, align_corners = true)
end
