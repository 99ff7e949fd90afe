# LibCT.jl - the low-level layer: one `ccall` wrapper per declaration of include/ctensor.h, generated from
# the header when the package is compiled, calling through symbol addresses looked up when it loads.
module LibCT

using Libdl

include("header.jl")

"ct_device passed by value: DLPack device type and index."
struct CtDevice
    type::Int32
    index::Int32
end

const ABI_VERSION = Int32(1)   # CT_ABI_VERSION this package was written against
const MIN_MINOR = Int32(0)     # the oldest 1.y whose declarations it needs

const HEADER = get(ENV, "CTENSOR_HEADER", normpath(joinpath(@__DIR__, "..", "..", "..", "include", "ctensor.h")))
include_dependency(HEADER)
const DECLS = parse_header(read(HEADER, String))
const LIB = Ref{Ptr{Cvoid}}(C_NULL)
const LIB_PATH = Ref{String}("")

for d in DECLS
    ptr = Symbol("_p_", d.name)
    argnames = [Symbol("a", i) for i in 1:length(d.params)]
    argtypes = [julia_type(p, CtDevice, true) for p in d.params]
    rettype = julia_type(d.ret, CtDevice, false)
    @eval const $ptr = Ref{Ptr{Cvoid}}(C_NULL)
    @eval $(d.name)($(argnames...)) = ccall($ptr[], $rettype, ($(argtypes...),), $(argnames...))
end

"Candidate paths of libctensor: CTENSOR_LIB_DIR, then the repository's build trees, then the system loader."
function library_candidates()
    repo = normpath(joinpath(@__DIR__, "..", "..", ".."))
    dirs = String[]
    haskey(ENV, "CTENSOR_LIB_DIR") && push!(dirs, ENV["CTENSOR_LIB_DIR"])
    append!(dirs, [joinpath(repo, "build"), joinpath(repo, "build", "src")])
    [[joinpath(d, "libctensor.so") for d in dirs]; "libctensor.so.1"]
end

"Opens libctensor, resolves every declared symbol and checks the ABI version; errors say what was tried."
function load!()
    tried = String[]
    for path in library_candidates()
        h = Libdl.dlopen_e(path)
        if h == C_NULL
            push!(tried, path)
            continue
        end
        LIB[] = h
        LIB_PATH[] = path
        break
    end
    LIB[] == C_NULL && error("CTensor: cannot load libctensor; tried: ", join(tried, ", "),
                             ". Set CTENSOR_LIB_DIR to the folder holding libctensor.so.")
    missing_syms = Symbol[]
    for d in DECLS
        p = Libdl.dlsym_e(LIB[], d.name)
        p == C_NULL ? push!(missing_syms, d.name) : (getfield(LibCT, Symbol("_p_", d.name))[] = p)
    end
    # the version functions first: a library too old to export a newer symbol gets the version message
    if getfield(LibCT, :_p_ct_check_abi)[] != C_NULL && ct_check_abi(ABI_VERSION, MIN_MINOR) != 0
        error("CTensor: ", LIB_PATH[], " has ABI ", ct_abi_version(), " / version ", ct_version(),
              " but this package needs ABI ", ABI_VERSION, ".", MIN_MINOR, "+: ", unsafe_string(ct_last_error()))
    end
    isempty(missing_syms) || error("CTensor: ", LIB_PATH[], " does not export ", join(missing_syms, ", "),
                                   " (library older than include/ctensor.h?)")
    nothing
end

end # module
