# safetensors.jl - named tensors in the safetensors format: save_safetensors / load_safetensors, so weights move
# between ctensor's languages and PyTorch. A Julia tensor of size (d1, ..., dN) is stored with the shape
# [dN, ..., d1] (tensor.jl's convention), which is how every other language sees the same tensor.

"A ct_safetensors handle for the duration of f(handle)."
function with_safetensors(f, make)
    h = Ref{Ptr{Cvoid}}(C_NULL)
    @check make(h)
    try
        f(h[])
    finally
        LibCT.ct_safetensors_release(h[])
    end
end

"One of the handle's texts (name i, metadata key i, or the value of a key): asks its length, then reads it."
function safetensors_text(call)
    len = Ref{Int32}(0)
    @check call(C_NULL, Int32(0), len)
    buf = Vector{UInt8}(undef, len[] + 1)
    @check call(buf, Int32(length(buf)), len)
    String(buf[1:len[]])
end

"""
    save_safetensors(path, tensors; metadata = Dict{String,String}())

Writes `tensors` (an `AbstractDict` or a collection of `name => Tensor` pairs; any device) and string metadata
to `path` in the safetensors format.
"""
function save_safetensors(path::AbstractString, tensors; metadata = Dict{String,String}())
    with_safetensors(LibCT.ct_safetensors_new) do f
        for (name, t) in tensors
            @check LibCT.ct_safetensors_add(f, String(name), t)
        end
        for (key, value) in metadata
            @check LibCT.ct_safetensors_set_metadata(f, String(key), String(value))
        end
        @check LibCT.ct_save_safetensors(f, String(path))
    end
    nothing
end

"""
    load_safetensors(path; device = cpu) -> (tensors, metadata)

Reads and checks the safetensors file at `path`: `tensors` is a `Vector` of `name => Tensor` pairs in the order
of their data in the file (`Dict(tensors)` for lookup by name), `metadata` a `Dict{String,String}`. A bad file
throws a `CTensorError` of kind `ERR_IO`. CPU tensors view a private mapping of the file (zero-copy).
"""
function load_safetensors(path::AbstractString; device::Device = cpu)
    with_safetensors(h -> LibCT.ct_load_safetensors(String(path), device, Int32(1), h)) do f
        n, nm = Ref{Int32}(0), Ref{Int32}(0)
        @check LibCT.ct_safetensors_count(f, n)
        @check LibCT.ct_safetensors_metadata_count(f, nm)
        tensors = Pair{String,Tensor}[]
        for i in 0:n[]-1
            name = safetensors_text((buf, cap, len) -> LibCT.ct_safetensors_name(f, Int32(i), buf, cap, len))
            push!(tensors, name => newtensor(o -> LibCT.ct_safetensors_get(f, name, o)))
        end
        metadata = Dict{String,String}()
        for i in 0:nm[]-1
            key = safetensors_text((buf, cap, len) -> LibCT.ct_safetensors_metadata_key(f, Int32(i), buf, cap, len))
            metadata[key] = safetensors_text((buf, cap, len) -> LibCT.ct_safetensors_metadata_get(f, key, buf, cap, len))
        end
        (tensors, metadata)
    end
end
