# test_arrays.jl - Tensor as a Julia array: the layout convention, zero-copy in and out, indexing and views,
# broadcasting, reductions with dims=, matmul and shape ops against Julia's own arrays.

ctshape_of(t) = (nd = Ref{Int32}(0); d = Vector{Int64}(undef, 8); C.LibCT.ct_tensor_shape(t, d, Int32(8), nd); d[1:nd[]])

@testset "layout convention and zero copy" begin
    a = reshape(collect(1.0:24.0), 2, 3, 4)
    t = Tensor(a)
    @test size(t) == (2, 3, 4)
    @test ctshape_of(t) == [4, 3, 2]                 # Julia dims reversed
    @test Array(t) == a
    @test t[2, 3, 4] == a[2, 3, 4] && t[1, 2, 3] == a[1, 2, 3]
    t[1, 1, 1] = -5                                   # writes reach the wrapped array
    @test a[1, 1, 1] == -5
    a[2, 2, 2] = 99                                   # and the other way
    @test t[2, 2, 2] == 99
    c = tensor(a)                                     # a copy
    a[1, 1, 1] = 0
    @test c[1, 1, 1] == -5
    u = C.unsafe_array(c)
    @test u == Array(c)
    u[1] = 7
    @test c[1, 1, 1] == 7
    @test eltype(tensor(Int32[1, 2])) == Int32 && eltype(tensor([true])) == Bool && eltype(tensor(UInt8[1])) == UInt8
    @test C.dtype(tensor(Float32[1])) == "float32"
end

@testset "indexing and views" begin
    a = reshape(collect(Float32, 1:20), 4, 5)
    t = tensor(a)
    @test Array(t[2, :]) == a[2, :]
    @test Array(t[:, 3]) == a[:, 3]
    @test Array(t[2:3, 2:2:5]) == a[2:3, 2:2:5]
    @test Array(t[end, :]) == a[end, :]
    @test Array(t[1:end-1, end]) == a[1:end-1, end]
    @test Array(t[[3, 1], :]) == a[[3, 1], :]
    @test t[end, end] == a[end, end]
    v = t[2:3, :]
    shares = Ref{Int32}(0); C.LibCT.ct_tensor_shares_storage(v, t, shares)
    @test shares[] == 1                               # a view
    v[1, 1] = 100                                     # writes through the view
    @test t[2, 1] == 100
    t[:, 1] = [9, 8, 7, 6]
    @test Array(t[:, 1]) == [9, 8, 7, 6]
    t[1:2, 2:3] = 0
    t[4, :] .= 5                                      # dot-assignment into a view
    @test Array(t[4, :]) == fill(5f0, 5)
    t[3, 1:2] .= t[4, 1:2] .* 2
    @test Array(t[3, 1:2]) == [10f0, 10f0]
    @test all(Array(t[1:2, 2:3]) .== 0)
    @test_throws BoundsError t[5, 1]
    @test_throws BoundsError t[0, 1]
    @test Array(reshape(t, 2, 10)) == reshape(Array(t), 2, 10)
    @test Array(reshape(t, :, 2)) == reshape(Array(t), :, 2)
    @test Array(permutedims(tensor(rand(2, 3, 4)) |> (x -> (y = x; y)), (3, 1, 2))) isa Array
    b = rand(2, 3, 4)
    @test Array(permutedims(tensor(b), (3, 1, 2))) == permutedims(b, (3, 1, 2))
    @test Array(transpose(tensor(a))) == transpose(a)
    @test Array(reverse(tensor(a); dims = 2)) == reverse(a; dims = 2)
    @test Array(circshift(tensor(a), (1, 2))) == circshift(a, (1, 2))
    @test Array(vcat(tensor(a), tensor(a))) == vcat(a, a)
    @test Array(hcat(tensor(a), tensor(a))) == hcat(a, a)
    @test Array(LinearAlgebra.tril(tensor(a))) == tril(a) && Array(LinearAlgebra.triu(tensor(a), 1)) == triu(a, 1)
    @test Array(LinearAlgebra.diag(tensor(a))) == diag(a)
    @test Array(copy(t)) == Array(t) && similar(t) isa Tensor{Float32,2}
end

gamma_like(x) = x
@testset "broadcasting" begin
    a = randn(3, 4); b = randn(3); r = randn(1, 4)
    x, y, z = tensor(a), tensor(b), tensor(r)
    @test Array(x .+ y) ≈ a .+ b
    @test Array(x .* z .- y) ≈ a .* r .- b
    @test Array(exp.(x)) ≈ exp.(a)
    @test Array(max.(x, 0)) == max.(a, 0)
    @test Array(2 .* x .^ 2 .+ sin.(x) ./ 3) ≈ 2 .* a .^ 2 .+ sin.(a) ./ 3     # fused dot expression
    @test Array(x .+ b) ≈ a .+ b                                               # a Julia array argument
    @test Array(clamp.(x, -0.5, 0.5)) == clamp.(a, -0.5, 0.5)
    @test Array(x + x) ≈ 2a && Array(x - x) == zero(a) && Array(-x) == -a && Array(3 * x) ≈ 3a
    w = C.zeros(Float64, 3, 4)
    w .= x .* 2
    @test Array(w) ≈ 2a
    @test eltype(tensor(Float32[1]) .+ 1) == Float32                          # numbers never upcast
    @test Array(tensor([1, 2, 3]) .+ 1) == [2, 3, 4]
    @test_throws ArgumentError Array(gamma_like.(x))
end

@testset "reductions and linear algebra" begin
    a = randn(3, 4, 2)
    x = tensor(a)
    @test sum(x)[] ≈ sum(a)
    @test Array(sum(x; dims = 2)) ≈ sum(a; dims = 2)
    @test Array(sum(x; dims = (1, 3))) ≈ sum(a; dims = (1, 3))
    @test Array(C.mean(x; dims = 1)) ≈ sum(a; dims = 1) ./ 3
    @test Array(maximum(x; dims = 3)) == maximum(a; dims = 3)
    @test minimum(x)[] == minimum(a)
    @test Array(prod(x; dims = 2)) ≈ prod(a; dims = 2)
    @test argmax(x)[] == argmax(vec(a))
    @test Array(argmax(x; dims = 1)) == map(i -> i[1], argmax(a; dims = 1))
    @test Array(cumsum(x; dims = 2)) ≈ cumsum(a; dims = 2)
    m, i = findmax(x; dims = 2)                       # values and 1-based positions along dims, kept
    @test Array(m) == maximum(a; dims = 2) && Array(i) == map(c -> c[2], findmax(a; dims = 2)[2])
    m, i = findmin(x; dims = 3)
    @test Array(m) == minimum(a; dims = 3) && Array(i) == map(c -> c[3], findmin(a; dims = 3)[2])
    m, i = findmax(x)
    @test m[] == maximum(a) && i[] == argmax(vec(a))
    @test Array(dropdims(sum(x; dims = (1, 3)); dims = (1, 3))) ≈ dropdims(sum(a; dims = (1, 3)); dims = (1, 3))
    @test Array(dropdims(sum(x; dims = 2); dims = 2)) ≈ dropdims(sum(a; dims = 2); dims = 2)
    r = reshape(x, :, 4)                                # a Colon is inferred by the library: still a Tensor
    @test r isa Tensor && Array(r) == reshape(a, :, 4) && size(reshape(x, 2, :)) == (2, 12)
    @test (try reshape(x, :, 5); nothing catch e; e.kind end) == C.ERR_SHAPE
    v = a[:, 1, 1]
    @test C.var(tensor(v))[] ≈ sum((v .- sum(v) / 3) .^ 2) / 2
    @test norm(tensor(v))[] ≈ norm(v)
    A, B, u = randn(3, 5), randn(5, 2), randn(5)
    @test Array(tensor(A) * tensor(B)) ≈ A * B
    @test Array(tensor(A) * tensor(u)) ≈ A * u
    @test dot(tensor(u), tensor(u))[] ≈ dot(u, u)
    @test Array(C.outer(tensor(u), tensor(v))) ≈ u * v'
    @test Array(C.einsum("ij,jk->ik", tensor(A), tensor(B))) ≈ A * B
    s, i = C.sort_with_indices(tensor(v))
    @test Array(s) == sort(v) && Array(i) == sortperm(v)
    @test Array(C.index_select(tensor(A), 2, [5, 1])) == A[:, [5, 1]]
    @test Array(C.gather(tensor(A), 1, tensor([3 1 2 3 1]))) == [A[3, 1] A[1, 2] A[2, 3] A[3, 4] A[1, 5]]
    @test Array(C.stack([tensor(u), tensor(u)])) == hcat(u, u)
    @test [Array(p) for p in split(tensor(A), 2; dims = 2)] == [A[:, 1:2], A[:, 3:4], A[:, 5:5]]
end

@testset "devices" begin
    ok, why = C.cuda_available()
    if ok
        t = C.to(tensor([1.0, 2.0]), cuda(0))
        @test C.device(t) == cuda(0) && Array(t) == [1.0, 2.0]
    else
        e = try C.to(tensor([1.0]), cuda(0)); nothing catch err; err end
        @test e isa CTensorError && e.kind in (C.ERR_NOT_COMPILED, C.ERR_DEVICE) && occursin("cuda", e.message)
        @test !isempty(why)
    end
    @test C.device(tensor([1])) == cpu
end
