# complex.jl - complex64 / complex128 (issue 15): Tensor{ComplexF32} / Tensor{ComplexF64} (Julia's Complex is
# the same interleaved (re, im) pair, so Tensor(a::Array{ComplexF32}) and Array(t) copy nothing), real / imag
# (views), conj, angle, abs, complex, polar, view_as_real / view_as_complex (the pair dim is Julia's FIRST dim),
# thin wrappers over the C ABI.

Base.real(t::Tensor) = newtensor(o -> LibCT.ct_real(t, o))
Base.imag(t::Tensor) = newtensor(o -> LibCT.ct_imag(t, o))
Base.conj(t::Tensor) = newtensor(o -> LibCT.ct_conj(t, o))
Base.angle(t::Tensor) = newtensor(o -> LibCT.ct_angle(t, o))
"complex(re, im): re + im*i of two Float32 or two Float64 tensors (broadcast)."
Base.complex(re::Tensor, im::Tensor) = newtensor(o -> LibCT.ct_complex(re, im, o))
"polar(abs, angle): abs * (cos(angle) + i sin(angle))."
polar(abs::Tensor, angle::Tensor) = newtensor(o -> LibCT.ct_polar(abs, angle, o))
"view_as_real(t): the (re, im) pairs of a complex tensor as a real view with a new first dim of size 2."
view_as_real(t::Tensor) = newtensor(o -> LibCT.ct_view_as_real(t, o))
"view_as_complex(t): the inverse of view_as_real (first dim of size 2, stride 1)."
view_as_complex(t::Tensor) = newtensor(o -> LibCT.ct_view_as_complex(t, o))
"full_complex(dims, z; T): a Tensor{Complex{T}} filled with z."
full_complex(dims::Dims, z::Complex, ::Type{T} = ComplexF32; device = cpu) where {T<:Complex} =
    newtensor(o -> LibCT.ct_full_complex(ctshape(dims), Int32(length(dims)), Float64(real(z)), Float64(imag(z)),
                                          dtype_of(T), device, o))

"""
    wrapped_scalar_complex(z::Complex)

Julia's complex number `z` as a 0-d wrapped scalar (ComplexF64): it promotes by category only, as torch 1.13 does a
Python complex - Float32 / integer / Bool / Float16 tensors give ComplexF32, Float64 ComplexF64, complex tensors
keep their type. Broadcasting makes one of every Complex operand: `t .* (1+2im)`, `t .+ 1im`, `t * 2im`.
"""
wrapped_scalar_complex(z::Complex) =
    newtensor(o -> LibCT.ct_wrapped_scalar_complex(Float64(real(z)), Float64(imag(z)), o))
bc_arg(z::Complex, tmp) = (s = wrapped_scalar_complex(z); push!(tmp, s); s)
Base.:*(a::Tensor, z::Complex) = a .* z
Base.:*(z::Complex, a::Tensor) = z .* a
Base.:/(a::Tensor, z::Complex) = a ./ z

merge!(OPS, Dict{String,Any}("wrapped_scalar_complex" => wrapped_scalar_complex, "full_complex" => full_complex, "complex" => complex, "real" => real, "imag" => imag,
                             "view_as_real" => view_as_real, "view_as_complex" => view_as_complex, "conj" => conj,
                             "angle" => angle, "polar" => polar))
