# linalg.jl - torch.linalg from Julia. Two layers (README, "Linear algebra"):
#  * LinearAlgebra's own functions on Tensor matrices, meaning what they mean for a Julia Matrix: inv, det,
#    logabsdet, logdet, `\`, cholesky (a Cholesky whose factors is a Tensor), svd (a named tuple U, S, Vt), svdvals,
#    eigen/eigvals of a Symmetric Tensor (an Eigen of Tensors), ^, pinv, rank, cross, opnorm;
#  * torch.linalg's names (linalg_inv, linalg_qr, ..., linalg_solve_triangular) acting on the ctensor matrices
#    exactly as the C ABI does, batched over the leading ctensor dims (Julia's trailing ones). Under the layout
#    convention a Julia m×n Tensor is the ctensor n×m matrix, its transpose, so these see A^T where
#    LinearAlgebra sees A.

_mT(t::Tensor) = newtensor(o -> LibCT.ct_transpose(t, -2, -1, o))  # swaps the two matrix dims (a view)

function _outs(c, n::Int, t::Tensor, args...)
    hs = [Ref{Ptr{Cvoid}}(C_NULL) for _ in 1:n]
    @check c(t, args..., hs...)
    Tuple(wrap(h[]) for h in hs)
end

const QR_MODES = Dict(:reduced => Int32(0), :complete => Int32(1), :r => Int32(2))

"torch.linalg.inv on the ctensor matrices."
linalg_inv(t::Tensor) = unary(LibCT.ct_linalg_inv, t)
"torch.linalg.det on the ctensor matrices: a Tensor of the batch dims."
linalg_det(t::Tensor) = unary(LibCT.ct_linalg_det, t)
"(sign, logabsdet) of torch.linalg.slogdet."
linalg_slogdet(t::Tensor) = _outs(LibCT.ct_linalg_slogdet, 2, t)
"X with A X = B for the ctensor matrices A of `a` and B of `b` (B a vector when 1-D or of A's shape without its last dim)."
linalg_solve(a::Tensor, b::Tensor) = binary(LibCT.ct_linalg_solve, a, b)
"Cholesky factor L (ctensor A = L L^T), or U = L^T with `upper = true`."
linalg_cholesky(t::Tensor; upper::Bool = false) = newtensor(o -> LibCT.ct_linalg_cholesky(t, Int32(upper), o))
"(Q, R) of the ctensor matrices; `mode` is :reduced, :complete or :r (Q then an empty Tensor)."
function linalg_qr(t::Tensor; mode::Symbol = :reduced)
    haskey(QR_MODES, mode) || throw(ArgumentError("linalg_qr: mode must be :reduced, :complete or :r, got :$mode"))
    _outs(LibCT.ct_linalg_qr, 2, t, QR_MODES[mode])
end
"(ascending eigenvalues, eigenvectors as ctensor columns) of symmetric ctensor matrices, read from `uplo` ('L' or 'U')."
linalg_eigh(t::Tensor; uplo::Char = 'L') = _outs(LibCT.ct_linalg_eigh, 2, t, Int32(_upper(uplo)))
linalg_eigvalsh(t::Tensor; uplo::Char = 'L') = newtensor(o -> LibCT.ct_linalg_eigvalsh(t, Int32(_upper(uplo)), o))
"(complex eigenvalues, unit-norm eigenvectors as ctensor columns) of real square ctensor matrices (torch.linalg.eig)."
linalg_eig(t::Tensor) = _outs(LibCT.ct_linalg_eig, 2, t)
"The complex eigenvalues of real square ctensor matrices (torch.linalg.eigvals)."
linalg_eigvals(t::Tensor) = newtensor(o -> LibCT.ct_linalg_eigvals(t, o))
"(U, S, Vh) with ctensor A = U diag(S) Vh."
linalg_svd(t::Tensor; full_matrices::Bool = true) = _outs(LibCT.ct_linalg_svd, 3, t, Int32(full_matrices))
linalg_svdvals(t::Tensor) = unary(LibCT.ct_linalg_svdvals, t)
"X with A X = B (left) or X A = B for triangular ctensor matrices A (unitriangular: diagonal taken as 1)."
linalg_solve_triangular(a::Tensor, b::Tensor; upper::Bool, left::Bool = true, unitriangular::Bool = false) =
    newtensor(o -> LibCT.ct_linalg_solve_triangular(a, b, Int32(upper), Int32(left), Int32(unitriangular), o))

function _upper(uplo::Char)
    uplo in ('L', 'U') || throw(ArgumentError("uplo must be 'L' or 'U', got '$uplo'"))
    uplo == 'U'
end

# ---- LinearAlgebra on Julia matrices (inv and det are the same on A^T; the others reorient) ----
LinearAlgebra.inv(t::Tensor{T,2}) where {T} = linalg_inv(t)
"det of a Tensor matrix: a 0-dim Tensor (differentiable; `det(t)[]` is the number)."
LinearAlgebra.det(t::Tensor{T,2}) where {T} = linalg_det(t)
"(log|det|, sign) as Julia's logabsdet, both 0-dim Tensors."
LinearAlgebra.logabsdet(t::Tensor{T,2}) where {T} = reverse(linalg_slogdet(t))
function LinearAlgebra.logdet(t::Tensor{T,2}) where {T}
    sign, logabs = linalg_slogdet(t)
    neg = sign .< 0
    r = newtensor(o -> LibCT.ct_masked_fill(logabs, neg, NaN, o))
    release!(sign, logabs, neg)
    r
end
"A \\ b for a vector b and A \\ B for a matrix B (ctensor solves A^T's transpose: A itself)."
Base.:\(a::Tensor{<:Any,2}, b::Tensor{<:Any,1}) = linalg_solve(_mT(a), b)
function Base.:\(a::Tensor{<:Any,2}, b::Tensor{<:Any,2})
    at, bt = _mT(a), _mT(b)
    x = linalg_solve(at, bt)
    r = _mT(x)
    release!(at, bt, x)
    r
end
"cholesky(A): a Cholesky with uplo 'U' whose factors U (A = U'U) is a Tensor (ctensor's lower factor of A^T = A)."
LinearAlgebra.cholesky(t::Tensor{T,2}) where {T} = LinearAlgebra.Cholesky(linalg_cholesky(t), 'U', 0)
"""svd(A): the named tuple (U, S, Vt) of Tensors with A = U * Diagonal(S) * Vt (LinearAlgebra's SVD type stores S
as a Vector, so it cannot hold a Tensor). F.U is ctensor's Vh of A^T, F.Vt its U."""
function LinearAlgebra.svd(t::Tensor{T,2}; full::Bool = false) where {T}
    u, s, vh = linalg_svd(t; full_matrices = full)
    (U = vh, S = s, Vt = u)
end
LinearAlgebra.svdvals(t::Tensor{T,2}) where {T} = linalg_svdvals(t)
"eigen(Symmetric(A)): an Eigen of Tensors (ascending values, vectors as columns), reading A's uplo triangle."
function LinearAlgebra.eigen(s::LinearAlgebra.Symmetric{T,<:Tensor{T,2}}) where {T<:Real}
    w, v = linalg_eigh(parent(s); uplo = s.uplo == 'U' ? 'L' : 'U')  # Julia's upper triangle is ctensor's lower
    vt = _mT(v)
    release!(v)
    LinearAlgebra.Eigen(w, vt)
end
LinearAlgebra.eigvals(s::LinearAlgebra.Symmetric{T,<:Tensor{T,2}}) where {T<:Real} =
    linalg_eigvalsh(parent(s); uplo = s.uplo == 'U' ? 'L' : 'U')

# ---- the composites: torch.linalg's names (Julia dims, 1-based) and LinearAlgebra's where they mean the same ----
_tol(x) = x === nothing ? -1.0 : Float64(x)
"A^n of the ctensor matrices (n < 0 inverts first, n = 0 gives the identity)."
linalg_matrix_power(t::Tensor, n::Integer) = newtensor(o -> LibCT.ct_linalg_matrix_power(t, Int64(n), o))
"The cross product along Julia dim `dims` (size 3 there; same rank, broadcast)."
linalg_cross(a::Tensor, b::Tensor; dims::Integer = 1) = newtensor(o -> LibCT.ct_linalg_cross(a, b, ctdim(a, dims), o))
"(sum |x|^ord)^(1/ord) over Julia dims (`:` for all); infinite ord: max / min |x|; 0: the nonzero count."
function linalg_vector_norm(t::Tensor, ord::Real = 2; dims = :, keepdim::Bool = false)
    d = ctdims(t, dims)
    newtensor(o -> LibCT.ct_linalg_vector_norm(t, Float64(ord), d, Int32(length(d)), Int32(keepdim), o))
end
"""A matrix norm over the Julia dims `dims` (ctensor's rows are the first): ord "fro", "nuc", "inf", "-inf", "1",
"-1", "2" or "-2" as torch.linalg.matrix_norm of the ctensor matrices."""
function linalg_matrix_norm(t::Tensor, ord::AbstractString = "fro"; dims = (2, 1), keepdim::Bool = false)
    # below 2 dims there is no matrix: the library says so (CT_ERR_SHAPE) before any dim is converted
    d0, d1 = ndims(t) < 2 ? (-2, -1) : (ctdim(t, dims[1]), ctdim(t, dims[2]))
    newtensor(o -> LibCT.ct_linalg_matrix_norm(t, ord, d0, d1, Int32(keepdim), o))
end
"The pseudo-inverse of the ctensor matrices (`nothing`: torch's default tolerance)."
linalg_pinv(t::Tensor; atol = nothing, rtol = nothing) = newtensor(o -> LibCT.ct_linalg_pinv(t, _tol(atol), _tol(rtol), o))
linalg_matrix_rank(t::Tensor; atol = nothing, rtol = nothing) =
    newtensor(o -> LibCT.ct_linalg_matrix_rank(t, _tol(atol), _tol(rtol), o))
"The minimum-norm least-squares solution X of the ctensor equation A X = B (the default driver, gelsy: any rank)."
linalg_lstsq(a::Tensor, b::Tensor) = binary(LibCT.ct_linalg_lstsq, a, b)

const LSTSQ_DRIVERS = Dict(:gelsy => Int32(0), :gels => Int32(1), :gelsd => Int32(2), :gelss => Int32(3))

"""
    linalg_lstsq_ex(a, b; rcond = nothing, driver = :gelsy)

torch.linalg.lstsq on the ctensor matrices (CPU, LAPACK): the named tuple (solution, residuals, rank,
singular_values). `driver` is :gelsy (any rank), :gels (full rank), :gelsd or :gelss (any rank, with singular
values); `rcond` `nothing` is eps * max(m, n). Residuals only when m > n, the driver is not gelsy and A has full
rank; rank is empty for gels. The solution's gradient is that of pinv(A) B.
"""
function linalg_lstsq_ex(a::Tensor, b::Tensor; rcond = nothing, driver::Symbol = :gelsy)
    haskey(LSTSQ_DRIVERS, driver) || throw(ArgumentError("linalg_lstsq_ex: driver must be one of " *
                                                         "$(sort(collect(keys(LSTSQ_DRIVERS))))"))
    x, r, k, s = _outs(LibCT.ct_linalg_lstsq_ex, 4, a, b, _tol(rcond), LSTSQ_DRIVERS[driver])
    (solution = x, residuals = r, rank = k, singular_values = s)
end

"A^n (pinv and matrix powers commute with the transpose, so the ctensor op gives Julia's meaning)."
Base.:^(t::Tensor{T,2}, n::Integer) where {T} = linalg_matrix_power(t, n)
LinearAlgebra.pinv(t::Tensor{T,2}; atol = nothing, rtol = nothing) where {T} = linalg_pinv(t; atol = atol, rtol = rtol)
"rank(A): a 0-dim Int64 Tensor (singular values above torch's tolerance)."
LinearAlgebra.rank(t::Tensor{T,2}; atol = nothing, rtol = nothing) where {T} =
    linalg_matrix_rank(t; atol = atol, rtol = rtol)
LinearAlgebra.cross(a::Tensor{T,1}, b::Tensor{T,1}) where {T} = linalg_cross(a, b)
"opnorm(A, p) for p = 1, 2, Inf: Julia's column sums are ctensor's row sums, so 1 and Inf swap."
function LinearAlgebra.opnorm(t::Tensor{T,2}, p::Real = 2) where {T}
    ord = p == 1 ? "inf" : p == Inf ? "1" : p == 2 ? "2" : throw(ArgumentError("opnorm: p must be 1, 2 or Inf, got $p"))
    linalg_matrix_norm(t, ord)
end
