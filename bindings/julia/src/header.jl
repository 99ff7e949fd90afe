# header.jl - parses include/ctensor.h into declarations (name, return type, parameter types) and maps
# C types to Julia ccall types. Used by LibCT to generate the wrappers and by the tests to check them.

"One `CT_API` declaration of the header: C names as written, Julia types for ccall."
struct CDecl
    name::Symbol
    ret::String
    params::Vector{String}
end

"Reads every `CT_API` function declaration of the header text (comments and preprocessor lines dropped)."
function parse_header(text::AbstractString)
    text = replace(text, r"/\*.*?\*/"s => " ")
    text = replace(text, r"^\s*#[^\n]*"m => " ")
    decls = CDecl[]
    for m in eachmatch(r"CT_API\s+([^;(){}]*?)\b(ct_\w+)\s*\(([^()]*)\)\s*;", text)
        args = strip(replace(m[3], r"\s+" => " "))
        params = (args == "void" || isempty(args)) ? String[] : [String(strip(a)) for a in split(args, ',')]
        push!(decls, CDecl(Symbol(m[2]), String(strip(m[1])), params))
    end
    decls
end

const C_BASE_TYPES = Dict{String,Any}(
    "void" => Cvoid, "char" => UInt8, "int32_t" => Int32, "int64_t" => Int64, "uint64_t" => UInt64,
    "double" => Cdouble, "size_t" => Csize_t, "ct_status" => Int32, "ct_dtype" => Int32,
    "ct_tensor" => Ptr{Cvoid}, "ct_generator" => Ptr{Cvoid}, "ct_optimizer" => Ptr{Cvoid}, "ct_safetensors" => Ptr{Cvoid},
    "ct_process_group" => Ptr{Cvoid}, "ct_work" => Ptr{Cvoid}, "ct_reduce_op" => Int32, "ct_data_parallel" => Ptr{Cvoid},
    "ct_qr_mode" => Int32,
    "ct_deleter_fn" => Ptr{Cvoid}, "ct_backward_fn" => Ptr{Cvoid}, "ct_ctx_release_fn" => Ptr{Cvoid},
    "ct_tensor_hook_fn" => Ptr{Cvoid}, "DLManagedTensor" => Cvoid, "DLManagedTensorVersioned" => Cvoid)

"Julia ccall type of a C type or parameter (`const int64_t* shape` -> Ptr{Int64}; `const char*` -> Cstring)."
function julia_type(decl::AbstractString, device_type, is_param::Bool)
    words = split(replace(decl, "*" => " * "))
    filter!(w -> !(w in ("const", "struct")), words)
    stars = count(==("*"), words)
    names = filter(w -> w != "*", words)
    # a parameter ends with its name unless it is only a type ("void")
    base = is_param && length(names) > 1 ? names[end-1] : names[1]
    base == "char" && stars == 1 && occursin("const", decl) && return Cstring
    T = base == "ct_device" ? device_type : get(C_BASE_TYPES, base) do
        error("header.jl: unknown C type `$base` in `$decl`")
    end
    for _ in 1:stars
        T = Ptr{T}
    end
    T
end
