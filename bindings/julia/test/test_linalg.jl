# test_linalg.jl - LinearAlgebra's functions on Tensor matrices agree with the same functions on Julia matrices
# (inv, det, logabsdet, logdet, \, cholesky, svd, svdvals, eigen/eigvals of Symmetric), torch.linalg's names on
# batches, a gradient against finite differences, and error kinds.
@testset "linalg" begin
    A = [4.0 1.0 0.5; 2.0 5.0 1.0; 0.0 1.0 3.0]
    b = [1.0, 2.0, 3.0]
    B = [1.0 2.0; 3.0 4.0; 5.0 6.0]
    t = tensor(A)
    @test Array(inv(t)) ≈ inv(A)
    @test det(t)[] ≈ det(A)
    la, s = logabsdet(t)
    @test la[] ≈ logabsdet(A)[1] && s[] == logabsdet(A)[2]
    @test logdet(t)[] ≈ logdet(A)
    @test isnan(logdet(tensor([0.0 1.0; 1.0 0.0]))[])
    @test Array(t \ tensor(b)) ≈ A \ b
    @test Array(t \ tensor(B)) ≈ A \ B
    S = A * A' + I
    F = cholesky(tensor(S))
    @test Array(F.factors) ≈ cholesky(S).U
    @test Array(svdvals(tensor(B))) ≈ svdvals(B)
    G = svd(tensor(B))
    @test Array(G.U) * Diagonal(Array(G.S)) * Array(G.Vt) ≈ B
    @test size(G.U) == (3, 2) && size(G.Vt) == (2, 2)
    E = eigen(Symmetric(tensor(S)))
    @test Array(E.values) ≈ eigen(Symmetric(S)).values
    @test S * Array(E.vectors) ≈ Array(E.vectors) * Diagonal(Array(E.values))
    for uplo in (:U, :L)  # only the named triangle is read, as for a Julia Matrix
        M = [2.0 1.0; 99.0 3.0]
        uplo == :L && (M = collect(M'))
        @test Array(eigvals(Symmetric(tensor(M), uplo))) ≈ eigvals(Symmetric(M, uplo))
    end
    # torch.linalg's names on a batch (Julia's trailing dim; the ctensor matrices are the Julia ones transposed)
    batch = tensor(cat(A, 2A; dims = 3))
    @test Array(C.linalg_det(batch)) ≈ [det(A), det(2A)]
    q, r = C.linalg_qr(tensor(B); mode = :reduced)
    @test Array(r) * Array(q) ≈ B   # ctensor's Q R of B' is, transposed, R' Q' = B
    l = C.linalg_cholesky(tensor(S))
    @test Array(l)' * Array(l) ≈ S
    # d logdet(A) / dA = inv(A)'
    x = requires_grad!(tensor(A))
    backward!(logdet(x))
    @test Array(grad(x)) ≈ inv(A)'
    # the composites
    @test Array(t^3) ≈ A^3
    @test Array(t^-2) ≈ inv(A)^2
    @test Array(pinv(tensor(B))) ≈ pinv(B)
    @test rank(tensor([1.0 2.0; 2.0 4.0]))[] == 1
    @test Array(cross(tensor([1.0, 0.0, 0.0]), tensor([0.0, 1.0, 0.0]))) == [0.0, 0.0, 1.0]
    for p in (1, 2, Inf)
        @test opnorm(t, p)[] ≈ opnorm(A, p)
    end
    @test C.linalg_vector_norm(t, 3; dims = 1)[2] ≈ norm(A[:, 2], 3)
    @test vec(Array(C.linalg_lstsq(tensor(collect(B')), tensor([1.0 2.0 4.0])))) ≈ B \ [1.0, 2.0, 4.0]
    # lstsq's drivers (ctensor layout: the Julia 2×3 tensor is the ctensor 3×2 matrix)
    tall = tensor([1.0 0.0 1.0; 0.0 1.0 1.0])
    rhs = tensor([1.0 2.0 4.0])
    for d in (:gelsy, :gels, :gelsd, :gelss)
        r = C.linalg_lstsq_ex(tall, rhs; driver = d)
        @test vec(Array(r.solution)) ≈ [4 / 3, 7 / 3]
        @test d == :gelsy ? length(r.residuals) == 0 : Array(r.residuals)[1] ≈ 1 / 3
        d in (:gelsd, :gelss) && @test Array(r.singular_values) ≈ [sqrt(3), 1]
    end
    # complex A = (1 + i) A0, B = (1 + 2i) b0: x = x0 (3 + i) / 2, residuals |1 + 2i|^2 / 3 and singular values
    # |1 + i| [sqrt(3), 1] real
    ctall, crhs = tensor(ComplexF64[1 0 1; 0 1 1] .* (1 + im)), tensor(ComplexF64[1 2 4] .* (1 + 2im))
    for d in (:gelsy, :gels, :gelsd, :gelss)
        r = C.linalg_lstsq_ex(ctall, crhs; driver = d)
        @test eltype(r.solution) == ComplexF64 && vec(Array(r.solution)) ≈ [4 / 3, 7 / 3] .* (3 + im) / 2
        @test eltype(r.residuals) == Float64
        @test d == :gelsy ? length(r.residuals) == 0 : Array(r.residuals)[1] ≈ 5 / 3
        d in (:gelsd, :gelss) && @test Array(r.singular_values) ≈ [sqrt(6), sqrt(2)]
    end
    e = try C.linalg_lstsq_ex(ctall, rhs) catch err; err end
    @test e isa CTensorError && e.kind == C.ERR_DTYPE && occursin("same dtype", e.message)
    low = tensor([1.0 2.0 3.0; 2.0 4.0 6.0])  # rank 1: pinv(A) b = 17/70 [1, 2]
    r = C.linalg_lstsq_ex(low, tensor([1.0, 2.0, 4.0]))
    @test Array(r.solution) ≈ [17 / 70, 34 / 70]
    @test r.rank[] == 1
    e = try C.linalg_lstsq_ex(tensor([1.0 0.0 2.0; 0.0 0.0 0.0]), rhs; driver = :gels) catch err; err end
    @test e isa CTensorError && e.kind == C.ERR_INVALID_ARGUMENT && occursin("full rank", e.message)
    @test_throws ArgumentError C.linalg_lstsq_ex(tall, rhs; driver = :foo)
    # the general eigenproblem: eigenvalues do not depend on the layout (A and its transpose share them)
    rot = tensor([0.0 -2.0; 2.0 0.0])
    w, v = C.linalg_eig(rot)
    @test eltype(w) == ComplexF64 && size(v) == (2, 2)
    @test sort(Array(w), by = imag) ≈ [-2im, 2im]
    @test sort(Array(C.linalg_eigvals(tensor(Float32[3 1; 0 2]))), by = real) ≈ ComplexF32[2, 3]
    e = try C.linalg_eigvals(tensor([1.0 NaN; 0.0 1.0])) catch err; err end
    @test e isa CTensorError && e.kind == C.ERR_INVALID_ARGUMENT && occursin("infs or NaNs", e.message)
    # errors
    @test_throws CTensorError inv(tensor([1.0 2.0; 2.0 4.0]))
    e = try cholesky(tensor([1.0 2.0; 2.0 1.0])) catch err; err end
    @test e isa CTensorError && e.kind == C.ERR_INVALID_ARGUMENT && occursin("not positive-definite", e.message)
    e = try det(tensor([1 0; 0 1])) catch err; err end
    @test e isa CTensorError && e.kind == C.ERR_DTYPE
    e = try det(tensor(B)) catch err; err end
    @test e isa CTensorError && e.kind == C.ERR_SHAPE
end
