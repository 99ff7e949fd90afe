# test_header.jl - the ccall layer against include/ctensor.h (parsed here independently of LibCT's parser)
# and the library's exports; every op of abi/ops.tsv reachable from Julia.

@testset "ccall layer vs header" begin
    text = read(joinpath(REPO, "include", "ctensor.h"), String)
    text = replace(text, r"/\*.*?\*/"s => "")
    decls = Dict{Symbol,Int}()
    for stmt in split(text, ';')
        i = findfirst("CT_API", stmt)
        (i === nothing || occursin("#define", stmt[1:first(i)])) && continue
        body = stmt[last(i)+1:end]
        m = match(r"(ct_\w+)\s*\((.*)\)\s*$"s, body)
        @test m !== nothing
        m === nothing && continue
        args = strip(m[2])
        decls[Symbol(m[1])] = args == "void" ? 0 : count(==(','), args) + 1
    end
    @test length(decls) == length(C.LibCT.DECLS) > 200
    for (name, nargs) in decls
        @test isdefined(C.LibCT, name)
        isdefined(C.LibCT, name) || continue
        ms = methods(getfield(C.LibCT, name))
        @test length(ms) == 1 && first(ms).nargs - 1 == nargs
        @test Libdl.dlsym_e(C.LibCT.LIB[], name) != C_NULL
    end
    @test C.LibCT.ct_abi_version() == C.LibCT.ABI_VERSION
    @test C.LibCT.ct_check_abi(C.LibCT.ABI_VERSION, C.LibCT.MIN_MINOR) == 0
end

@testset "ops.tsv reachable" begin
    n = 0
    for line in eachline(joinpath(REPO, "abi", "ops.tsv"))
        (isempty(line) || startswith(line, "#")) && continue
        name, cfun = split(line, '\t')[1:2]
        @test haskey(C.OPS, name)
        @test isdefined(C.LibCT, Symbol(cfun))
        n += 1
    end
    @test n == length(C.OPS)
    # the elementwise entries compute what Julia's scalar functions compute
    a = [0.3 -1.2 2.5; 0.7 1.9 -0.4]
    b = [1.5 0.5 -2.0; 2.0 -0.3 0.9]
    x, y = tensor(a), tensor(b)
    for (name, f) in (("abs", abs), ("exp", exp), ("sin", sin), ("cos", cos), ("tan", tan), ("tanh", tanh),
                      ("floor", floor), ("ceil", ceil), ("round", round), ("reciprocal", inv), ("sign", sign),
                      ("sigmoid", C.sigmoid), ("relu", C.relu), ("silu", C.silu), ("softplus", C.softplus),
                      ("neg", -), ("expm1", expm1))
        @test Array(C.OPS[name](x)) ≈ f.(a)
    end
    for (name, f) in (("log", log), ("log1p", log1p), ("sqrt", sqrt), ("rsqrt", C.rsqrt))
        @test Array(C.OPS[name](tensor(abs.(a)))) ≈ f.(abs.(a))
    end
    for (name, f) in (("add", +), ("sub", -), ("mul", *), ("div", /), ("maximum", max), ("minimum", min),
                      ("atan2", atan), ("remainder", mod), ("floor_divide", fld), ("eq", ==), ("ne", !=), ("lt", <), ("le", <=),
                      ("gt", >), ("ge", >=))
        @test Array(C.OPS[name](x, y)) ≈ f.(a, b)
    end
    @test Array(C.OPS["pow"](tensor(abs.(a)), y)) ≈ abs.(a) .^ b
    @test Array(C.OPS["where"](x .> 0, x, y)) == ifelse.(a .> 0, a, b)
end
