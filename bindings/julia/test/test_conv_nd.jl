# test_conv_nd.jl - issue 14 in Julia layout: conv / conv_transpose against hand sums, 1-d and 3-d pooling with
# 1-based argmax, unfold / fold round trip and pixel_shuffle, and a bad call's error kind.

@testset "conv_nd" begin
    x = tensor(reshape([1.0, 2, 3, 4], 4, 1, 1))               # (L, C, N)
    w = tensor(reshape([1.0, 10], 2, 1, 1))                    # (k, C, O)
    @test vec(Array(C.conv(x, w, tensor([0.5]); pad = 1))) == [10.5, 21.5, 32.5, 43.5, 4.5]
    @test vec(Array(C.conv_transpose(x, w; stride = 2))) == [1.0, 10, 2, 20, 3, 30, 4, 40]
    cube = tensor(reshape(collect(0.0:7.0), 2, 2, 2, 1, 1))    # (W, H, D, C, N)
    @test vec(Array(C.conv(cube, C.ones(Float64, 2, 2, 2, 1, 1)))) == [28.0]
    v, i = C.maxpool(cube, 2; with_indices = true)
    @test vec(Array(v)) == [7.0] && vec(Array(i)) == [8]        # 1-based linear index into the (W, H, D) block
    @test vec(Array(C.meanpool(cube, 2))) == [3.5]
    @test vec(Array(C.adaptive_meanpool(cube, (2, 1, 1)))) == [3.0, 4.0]
    s = tensor(reshape([1.0, 5, 2, 4, 3, 0], 6, 1, 1))
    v1, i1 = C.adaptive_maxpool(s, 2; with_indices = true)
    @test vec(Array(v1)) == [5.0, 4.0] && vec(Array(i1)) == [2, 4]
    img = C.randn(Float64, 4, 4, 2, 1)
    cols = C.unfold(img, 2; stride = 2)
    @test size(cols) == (4, 8, 1)
    @test Array(C.fold(cols, 4, 2; stride = 2)) ≈ Array(img)
    ps = C.pixel_shuffle(reshape(img, 2, 2, 8, 1), 2)
    @test size(ps) == (4, 4, 2, 1)
    @test Array(C.pixel_unshuffle(ps, 2)) ≈ Array(reshape(img, 2, 2, 8, 1))
    err = try C.conv(x, tensor(zeros(3, 2, 2)); groups = 2); nothing catch e; e end
    @test err isa C.CTensorError && occursin("conv1d", err.message)
end
