# test_safetensors.jl - save_safetensors / load_safetensors: values, Julia's dimension order (stored reversed, as
# every other language sees the tensor), metadata and file order; bad files are ERR_IO.

@testset "safetensors" begin
    path = joinpath(mktempdir(), "model.safetensors")
    w = tensor(Float32[1 2 3; 4 5 6])               # Julia size (2, 3): stored with shape [3, 2]
    steps = tensor(Int64[typemin(Int64), 7])
    mask = tensor([true, false, true])
    save_safetensors(path, ["w" => w, "steps" => steps, "mask" => mask]; metadata = Dict("format" => "pt"))
    tensors, metadata = load_safetensors(path)
    @test first.(tensors) == ["w", "steps", "mask"]
    @test metadata == Dict("format" => "pt")
    d = Dict(tensors)
    @test size(d["w"]) == (2, 3) && Array(d["w"]) == Float32[1 2 3; 4 5 6]
    @test Array(d["steps"]) == [typemin(Int64), 7]
    @test Array(d["mask"]) == [true, false, true]
    # the bytes on disk: header size, then the row-major data of shape [3, 2] (Julia's column-major bytes)
    bytes = read(path)
    n = Int(reinterpret(UInt64, bytes[1:8])[1])
    header = String(bytes[9:8+n])
    @test occursin("\"w\":{\"dtype\":\"F32\",\"shape\":[3,2],\"data_offsets\":[0,24]}", header)
    @test reinterpret(Float32, bytes[9+n:8+n+24]) == Float32[1, 4, 2, 5, 3, 6]
    foreach(p -> release!(p.second), tensors)

    bad = joinpath(dirname(path), "bad.safetensors")
    write(bad, UInt8[16, 0, 0, 0, 0, 0, 0, 0, UInt8('{')])
    e = try load_safetensors(bad) catch err; err end
    @test e isa CTensorError && e.kind == C.ERR_IO && occursin("header claims", e.message)
    @test errkind(() -> save_safetensors(path, ["__metadata__" => w])) == C.ERR_INVALID_ARGUMENT
    @test errkind(() -> load_safetensors(joinpath(dirname(path), "missing"))) == C.ERR_IO
end
