#!/usr/bin/env python3
"""make_corpus.py - writes the seed corpus of the fuzz targets (tests/fuzz/corpus/<target>/): a few programs
that create small tensors and then call ops with fixed pseudo-random bytes, and valid and hostile safetensors
files. Deterministic: running it again gives the same files. Usage: python3 tests/fuzz/make_corpus.py"""
import json
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes(data))


# ---- fuzz_ops / fuzz_autograd programs (the byte layout is the one LLVMFuzzerTestOneInput reads) ----
SEED = [0, 0, 0, 0, 0, 0, 0, 42]  # the generator seed (u64)


def create_rand(shape, dtype, slot):
    # action 0 (create), which 4 (rand), n sizes, sizes, dtype, device cpu, shape not NULL, default generator, slot
    return [0, 4, len(shape)] + list(shape) + [dtype, 0, 0, 0, slot]


def create_randint(shape, slot):
    # action 0 (create), which 6 (randint), sizes, int64, cpu, not NULL, gen, low = 0 (edge 0), high = 4 (edge 5)
    return [0, 6, len(shape)] + list(shape) + [3, 0, 0, 0, 0, 5, slot]


def leaf(shape0, shape1, nd, slot):
    # autograd action 2 (leaf): sizes 1 + b % 4, rank b % 3, float32, slot
    return [2, shape0 - 1, shape1 - 1, nd, 0, slot]


def programs():
    rng = random.Random(1234)
    out = {}
    base = SEED + create_rand([2, 3], 0, 0) + create_rand([3, 2], 0, 1) + create_randint([2, 3], 2) + \
        create_rand([3], 1, 3)
    for k in range(5):
        out["fuzz_ops"] = out.get("fuzz_ops", []) + [base + [rng.randrange(256) for _ in range(48 + 32 * k)]]
    # one program of each op group on the tensors above (action 4 + group, group byte, sub byte, then random)
    for group in range(10):
        prog = base + [4, group, rng.randrange(256)] + [rng.randrange(256) for _ in range(24)]
        out["fuzz_ops"].append(prog)
    abase = SEED + leaf(2, 3, 2, 0) + leaf(3, 3, 2, 1) + leaf(3, 1, 1, 2) + create_rand([2, 3], 1, 3)
    out["fuzz_autograd"] = [abase + [rng.randrange(256) for _ in range(40 + 40 * k)] for k in range(6)]
    for action in (8, 9, 10, 11, 12, 13):  # backward, grad access, hooks, custom functions, optimizers
        out["fuzz_autograd"].append(abase + [4, 1, 0, 0, 1, 2, 0] + [action] +
                                    [rng.randrange(256) for _ in range(32)])
    # recurrent nets: a GRU stack then a GRU cell step on tensors that fit (input 3, hidden 1): x, hx, w_ih, w_hh,
    # b_ih, b_hh in slots 0-5, the cell's x and hx in 6-7; each call is group 7 (nn), sub 8, then recurrent()'s bytes
    rbase = SEED + create_rand([2, 1, 3], 0, 0) + create_rand([1, 1, 1], 0, 1) + create_rand([3, 3], 0, 2) + \
        create_rand([3, 1], 0, 3) + create_rand([3], 0, 4) + create_rand([3], 0, 5) + create_rand([1, 3], 0, 6) + \
        create_rand([1, 1], 0, 7)

    def gru_call(x, h, stack):
        # x, hx, no opt, reduction, ignore index; mode GRU, 4 weights (slots 2-5), no batch sizes, 1 layer,
        # bias, eval, one direction, time-major, proj 0, dropout 0, default generator, stack or cell; then the
        # slots the results go to (out and hy into 0 and 1 for the stack, hy into 0 for the cell)
        return [4, 7, 8, x, h, 0, 0, 0, 0, 3, 4, 2, 3, 4, 5, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, stack] + \
            ([0, 1] if stack else [0])
    out["fuzz_ops"].append(rbase + gru_call(0, 1, 1) + gru_call(6, 7, 0))
    return out


# ---- safetensors files (first byte: map flag) ----
def st_file(tensors, metadata=None, map_flag=0, header_pad=b""):
    header, data = {}, b""
    for name, (dtype, shape, payload) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(payload)]}
        data += payload
    if metadata is not None:
        header["__metadata__"] = metadata
    h = json.dumps(header).encode() + header_pad
    return bytes([map_flag]) + struct.pack("<Q", len(h)) + h + data


def safetensors_files():
    f32 = struct.pack("<6f", 1, 2, 3, 4, 5, 6)
    files = {
        "f32_matrix": st_file({"w": ("F32", [2, 3], f32)}, {"format": "pt"}),
        "mapped_two": st_file({"a": ("I64", [2], struct.pack("<2q", -1, 7)), "b": ("BOOL", [3], b"\x00\x01\x07")},
                              map_flag=1),
        "empty_and_scalar": st_file({"e": ("F64", [0, 4], b""), "s": ("U8", [], b"\x05")}),
        "padded_header": st_file({"x": ("I32", [1], struct.pack("<i", 3))}, header_pad=b"   "),
        "overlap": bytes([0]) + struct.pack("<Q", 96) + json.dumps({
            "a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
            "b": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}).encode().ljust(96) + b"\0" * 4,
        "huge_shape": st_file({"x": ("F32", [2 ** 62, 4], f32)}),
        "short": bytes([0]) + struct.pack("<Q", 1 << 40) + b"{}",
    }
    return files


def main():
    for target, progs in programs().items():
        for i, p in enumerate(progs):
            write(target, "seed%02d" % i, p)
    for name, data in safetensors_files().items():
        write("fuzz_safetensors", name, data)


if __name__ == "__main__":
    main()
