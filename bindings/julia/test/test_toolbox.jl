# test_toolbox.jl - the toolbox ops of issue 14 (in-place scatters, index_add, index_copy, index_put and their
# `!` forms) against the same writes on Julia arrays, a gradient against finite differences, and error kinds.
@testset "toolbox" begin
    A = [1.0 2.0; 3.0 4.0; 5.0 6.0]
    S = [10.0 20.0; 30.0 40.0]
    t, s = tensor(A), tensor(S)
    R = copy(A); R[3, :] .+= 2 .* S[1, :]; R[1, :] .+= 2 .* S[2, :]
    @test Array(C.index_add(t, 1, [3, 1], s; alpha = 2)) == R
    R = copy(A); R[2, :] = S[1, :]; R[1, :] = S[2, :]
    @test Array(C.index_copy(t, 1, [2, 1], s)) == R
    R = copy(A); R[:, 2] = [7.0, 8.0, 9.0]
    @test Array(C.index_put(t, ([2],), tensor(reshape([7.0, 8.0, 9.0], 3, 1)))) == R
    R = copy(A); R[1, 2] = 10.0; R[3, 2] = 20.0
    @test Array(C.index_put(t, ([1, 3], [2, 2]), tensor([10.0, 20.0]))) == R
    R = copy(A); R[2, 1] += 3.0
    @test Array(C.index_put(t, ([2, 2, 2], [1, 1, 1]), tensor([1.0, 1.0, 1.0]); accumulate = true)) == R
    u = tensor(copy(A))
    C.index_add!(u, 2, [1], tensor(ones(3, 1)))
    C.index_copy!(u, 1, [2], tensor([0.0 0.0]))
    C.index_put!(u, ([3], [2]), tensor([-1.0]); accumulate = true)
    C.scatter!(u, 1, [1 1], tensor([9.0 9.0]))
    C.scatter_add!(u, 1, [3 3], tensor([1.0 1.0]))
    @test Array(u) == [9.0 9.0; 0.0 0.0; 7.0 6.0]
    # scatter_reduce: 1-based positions along Julia dim 1
    v, w = tensor([1.0, 2.0, 3.0]), tensor([4.0, 5.0, 6.0])
    @test Array(C.scatter_reduce(v, 1, [1, 1, 3], w, :prod)) == [20.0, 2.0, 18.0]
    @test Array(C.scatter_reduce(v, 1, [1, 1, 3], w, :mean; include_self = false)) == [4.5, 2.0, 6.0]
    @test Array(C.scatter_reduce!(tensor([1.0, 2.0, 3.0]), 1, [1, 1, 3], w, :amax)) == [5.0, 2.0, 6.0]
    @test_throws ArgumentError C.scatter_reduce(v, 1, [1], w, :max)
    @test errkind(() -> C.scatter_reduce(v, 1, [4, 1, 1], w, :sum)) == C.ERR_INDEX
    # gradient of index_put with accumulate against finite differences
    f(x) = C.index_put(x, ([1, 3, 3], [2, 2, 1]), tensor([1.0, 2.0, 3.0]); accumulate = true)
    x = requires_grad!(tensor(A))
    backward!(sum(f(x) .^ 2))
    @test Array(grad(x)) ≈ fd_grad(p -> sum(Array(f(tensor(p))) .^ 2), A) rtol = 1e-5 atol = 1e-7
    @test errkind(() -> C.index_put(t, ([4],), tensor([1.0]))) == C.ERR_INDEX
    @test errkind(() -> C.index_add(t, 1, [1, 2], tensor(ones(2, 1)))) == C.ERR_SHAPE
    @test errkind(() -> C.index_copy!(requires_grad!(tensor(copy(A))), 1, [1], tensor([0.0 0.0]))) == C.ERR_AUTOGRAD
    # counting and searching: positions and indices 1-based like Base's
    seq, vals = [1.0, 3.0, 5.0, 7.0], [3.0, 0.0, 8.0, 5.5]
    @test Array(searchsortedfirst(tensor(seq), tensor(vals))) == [searchsortedfirst(seq, v) for v in vals]
    @test Array(searchsortedlast(tensor(seq), tensor(vals))) == [searchsortedlast(seq, v) for v in vals]
    raw = [5.0, 1.0, 3.0]
    @test Array(searchsortedfirst(tensor(raw), tensor([4.0]); sorter = sortperm(raw))) == [3]
    @test Array(C.bincount(tensor([1, 1, 3]); minlength = 5)) == [0, 2, 0, 1, 0]
    @test Array(C.bincount(tensor([1, 1, 3]); weights = tensor([0.5, 1.0, 2.0]))) == [0.0, 1.5, 0.0, 2.0]
    @test Array(C.histc(tensor([0.0, 1.0, 2.0, 3.0, 4.0]); bins = 4, min = 0, max = 4)) == [1.0, 1.0, 1.0, 2.0]
    M = [1.0 4.0; 3.0 2.0; 3.0 5.0]
    v, i = C.cummax(tensor(M); dims = 1)
    @test Array(v) == accumulate(max, M; dims = 1) && Array(i) == [1 1; 2 1; 3 3]
    v, i = C.cummin(tensor(M); dims = 2)
    @test Array(v) == accumulate(min, M; dims = 2) && Array(i) == [1 1; 1 2; 1 1]
    x = requires_grad!(tensor([1.0, 3.0, 2.0]))
    backward!(sum(C.cummax(x; dims = 1)[1]))
    @test Array(grad(x)) == [1.0, 2.0, 0.0]
    @test errkind(() -> C.bincount(tensor([-1]))) == C.ERR_INVALID_ARGUMENT
    # composites and dtype limits
    @test Array(C.nan_to_num(tensor([1.0, NaN, Inf, -Inf]); neginf = -7)) == [1.0, 0.0, floatmax(Float64), -7.0]
    M = [1.0 4.0 9.0; 2.0 3.0 5.0]
    @test Array(diff(tensor(M); dims = 2)) == diff(M; dims = 2)
    @test Array(diff(tensor(M); dims = 1)) == diff(M; dims = 1)
    @test Array(diff(tensor(M); dims = 2, n = 2, prepend = tensor(zeros(2, 1)))) == diff(diff(hcat(zeros(2), M); dims = 2); dims = 2)
    @test Array(C.take_along_dim(tensor(M), [3 1]'; dims = 2)) == reshape([M[1, 3], M[2, 1]], 2, 1)
    @test Array(C.take_along_dim(tensor(M), [2]; dims = nothing)) == [M[2, 1]]   # flattened: ctensor row-major = Julia column-major
    f = C.finfo(Float32)
    @test f.bits == 32 && f.eps == eps(Float32) && f.max == floatmax(Float32) && f.tiny == floatmin(Float32) && f.resolution == 1e-6
    @test C.iinfo(Int64) == (bits = 64, min = typemin(Int64), max = typemax(Int64))
    @test errkind(() -> C.finfo(Int32)) == C.ERR_DTYPE
end
