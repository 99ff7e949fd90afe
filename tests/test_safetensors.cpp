// test_safetensors.cpp - named tensors saved and loaded as safetensors files through the C API: round trips of
// every dtype (read and mapped, views and non-contiguous inputs, empty and 0-d tensors, metadata), the byte layout
// the format defines (checked by hand here), and hostile files: each must fail with CT_ERR_IO (or CT_ERR_DTYPE)
// and a message saying what is wrong, never crash or read out of bounds (the suite also runs under ASan).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include "ct_test.h"

using namespace ctt;

namespace {

// Owns one safetensors handle.
struct F {
    ct_safetensors f = nullptr;
    ~F() { ct_safetensors_release(f); }
};

std::string temp_path(const char* tag) {
    return ::testing::TempDir() + "ct_safetensors_" + tag + "_" + std::to_string(::getpid()) + ".safetensors";
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), (std::streamsize)bytes.size());
}

// A file of the format from a JSON header text and data bytes (header size written as given, or its true size).
std::string file_bytes(const std::string& header, const std::string& data, int64_t claimed_size = -1) {
    uint64_t n = claimed_size < 0 ? header.size() : (uint64_t)claimed_size;
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[i] = (char)(n >> (8 * i));
    return out + header + data;
}

std::string name_of(ct_safetensors f, int32_t i) {
    int32_t len = 0;
    ok(ct_safetensors_name(f, i, nullptr, 0, &len));
    std::string s(len, '\0');
    ok(ct_safetensors_name(f, i, s.data(), len + 1, &len));
    return s;
}

H get(ct_safetensors f, const char* name) {
    H t;
    ok(ct_safetensors_get(f, name, t.out()));
    return t;
}

}  // namespace

TEST(Safetensors, RoundTripsEveryDtypeAndMetadata) {
    std::string path = temp_path("roundtrip");
    H a = make({1.5, -2.25, 3, 4, 5, 6}, {2, 3}, CT_FLOAT32);
    H b = make({1e300, -1e-300}, {2}, CT_FLOAT64);
    H c = make({-7, 2147483647}, {2}, CT_INT32);
    H d = make({-9007199254740993.0, 42}, {2, 1}, CT_INT64);
    H e = make({0, 255, 17}, {3}, CT_UINT8);
    H g = make({1, 0, 1, 1}, {2, 2}, CT_BOOL);
    H scalar0 = make({3.25}, {}, CT_FLOAT64);
    H empty = make({}, {0, 4}, CT_FLOAT32);
    H t;  // a non-contiguous view: stored row-major
    CT_ASSERT_OK(ct_transpose(a.get(), 0, 1, t.out()));
    {
        F f;
        CT_ASSERT_OK(ct_safetensors_new(&f.f));
        const std::vector<std::pair<const char*, H*>> all = {{"a", &a}, {"b", &b}, {"c", &c}, {"d", &d}, {"e", &e},
                                                             {"g", &g}, {"scalar", &scalar0}, {"empty", &empty}, {"a.T", &t}};
        for (auto& [name, h] : all) CT_ASSERT_OK(ct_safetensors_add(f.f, name, h->get()));
        CT_ASSERT_OK(ct_safetensors_set_metadata(f.f, "format", "pt"));
        CT_ASSERT_OK(ct_safetensors_set_metadata(f.f, "note", "ünïcode ✓"));
        CT_ASSERT_OK(ct_save_safetensors(f.f, path.c_str()));
    }
    for (int map = 0; map < 2; ++map) {
        SCOPED_TRACE(map ? "mapped" : "read");
        F f;
        CT_ASSERT_OK(ct_load_safetensors(path.c_str(), ct_cpu(), map, &f.f));
        int32_t n = 0;
        CT_ASSERT_OK(ct_safetensors_count(f.f, &n));
        ASSERT_EQ(n, 9);
        std::vector<std::string> names;
        for (int32_t i = 0; i < n; ++i) names.push_back(name_of(f.f, i));
        EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "d", "e", "g", "scalar", "empty", "a.T"}));
        for (auto& [name, h] : std::vector<std::pair<const char*, H*>>{
                 {"a", &a}, {"b", &b}, {"c", &c}, {"d", &d}, {"e", &e}, {"g", &g}, {"scalar", &scalar0}, {"empty", &empty}, {"a.T", &t}}) {
            H got = get(f.f, name);
            EXPECT_EQ(dtype(got), dtype(*h)) << name;
            EXPECT_EQ(shape(got), shape(*h)) << name;
            EXPECT_EQ(values(got), values(*h)) << name;
        }
        EXPECT_EQ(values(get(f.f, "d"))[0], -9007199254740993.0);  // int64 exactly, not through a double
        int32_t nm = 0, len = 0;
        CT_ASSERT_OK(ct_safetensors_metadata_count(f.f, &nm));
        EXPECT_EQ(nm, 2);
        char buf[64];
        CT_ASSERT_OK(ct_safetensors_metadata_get(f.f, "note", buf, sizeof buf, &len));
        EXPECT_EQ(std::string(buf), "ünïcode ✓");
        CT_ASSERT_OK(ct_safetensors_metadata_key(f.f, 0, buf, sizeof buf, &len));
        EXPECT_EQ(std::string(buf), "format");
        CT_EXPECT_ERR(ct_safetensors_metadata_get(f.f, "absent", buf, sizeof buf, &len), CT_ERR_INDEX, "absent");
        CT_EXPECT_ERR(ct_safetensors_name(f.f, 9, buf, sizeof buf, &len), CT_ERR_INDEX, "out of range");
        H missing;
        CT_EXPECT_ERR(ct_safetensors_get(f.f, "zz", missing.out()), CT_ERR_INDEX, "no tensor named \"zz\"");
        // a loaded tensor is an ordinary tensor: writable, differentiable, and (mapped) never written back
        H w = get(f.f, "b");
        CT_ASSERT_OK(ct_mul_(w.get(), w.get()));
    }
    F again;
    CT_ASSERT_OK(ct_load_safetensors(path.c_str(), ct_cpu(), 1, &again.f));
    EXPECT_EQ(values(get(again.f, "b")), values(b));  // the in-place write above reached only the private mapping
    std::remove(path.c_str());
}

TEST(Safetensors, WritesTheFormatsLayout) {
    std::string path = temp_path("layout");
    H a = make({1, 2}, {2}, CT_FLOAT32);
    H b = make({7}, {1, 1}, CT_INT64);
    F f;
    CT_ASSERT_OK(ct_safetensors_new(&f.f));
    CT_ASSERT_OK(ct_safetensors_add(f.f, "w", a.get()));
    CT_ASSERT_OK(ct_safetensors_add(f.f, "step", b.get()));
    CT_ASSERT_OK(ct_save_safetensors(f.f, path.c_str()));
    std::string bytes = read_file(path);
    ASSERT_GE(bytes.size(), 8u);
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = n << 8 | (uint8_t)bytes[i];
    EXPECT_EQ(n % 8, 0u) << "the data must start 8-byte aligned";
    std::string header = bytes.substr(8, n);
    while (!header.empty() && header.back() == ' ') header.pop_back();
    EXPECT_EQ(header, R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                      R"("step":{"dtype":"I64","shape":[1,1],"data_offsets":[8,16]}})");
    ASSERT_EQ(bytes.size(), 8 + n + 16);
    float w[2];
    int64_t step;
    std::memcpy(w, bytes.data() + 8 + n, 8);
    std::memcpy(&step, bytes.data() + 8 + n + 8, 8);
    EXPECT_EQ(w[0], 1.0f);
    EXPECT_EQ(w[1], 2.0f);
    EXPECT_EQ(step, 7);
    EXPECT_NE(access((path + ".tmp").c_str(), F_OK), 0) << "the temporary file is renamed";
    std::remove(path.c_str());
}

TEST(Safetensors, RefusesBadNamesAndArguments) {
    F f;
    CT_ASSERT_OK(ct_safetensors_new(&f.f));
    H a = make({1}, {1});
    CT_ASSERT_OK(ct_safetensors_add(f.f, "x", a.get()));
    CT_EXPECT_ERR(ct_safetensors_add(f.f, "x", a.get()), CT_ERR_INVALID_ARGUMENT, "already there");
    CT_EXPECT_ERR(ct_safetensors_add(f.f, "__metadata__", a.get()), CT_ERR_INVALID_ARGUMENT, "reserved");
    CT_EXPECT_ERR(ct_safetensors_add(f.f, "bad\xff", a.get()), CT_ERR_INVALID_ARGUMENT, "bad\\xff");
    CT_EXPECT_ERR(ct_safetensors_add(f.f, nullptr, a.get()), CT_ERR_INVALID_ARGUMENT, "name is NULL");
    CT_EXPECT_ERR(ct_safetensors_add(f.f, "y", nullptr), CT_ERR_INVALID_HANDLE, "safetensors_add");
    CT_EXPECT_ERR(ct_safetensors_add(nullptr, "y", a.get()), CT_ERR_INVALID_HANDLE, "NULL safetensors handle");
    CT_EXPECT_ERR(ct_safetensors_set_metadata(f.f, "k", "\xc3"), CT_ERR_INVALID_ARGUMENT, "not valid UTF-8");
    CT_EXPECT_ERR(ct_save_safetensors(f.f, "/nonexistent-dir/x.safetensors"), CT_ERR_IO, "cannot create");
    ct_safetensors out = reinterpret_cast<ct_safetensors>(uintptr_t(0x5a5a));
    CT_EXPECT_ERR(ct_load_safetensors("/nonexistent-dir/x.safetensors", ct_cpu(), 0, &out), CT_ERR_IO, "cannot open");
    EXPECT_EQ(out, reinterpret_cast<ct_safetensors>(uintptr_t(0x5a5a)));
    CT_EXPECT_ERR(ct_load_safetensors("/tmp", ct_cpu(), 0, &out), CT_ERR_IO, "not a regular file");
    CT_EXPECT_ERR(ct_load_safetensors(nullptr, ct_cpu(), 0, &out), CT_ERR_INVALID_ARGUMENT, "path is NULL");
    CT_EXPECT_ERR(ct_load_safetensors("x", ct_device{7, 0}, 0, &out), CT_ERR_DEVICE, "load_safetensors");
}

// Each hostile file: status and a fragment of the message. Run read and mapped.
TEST(Safetensors, HostileFilesFailCleanly) {
    const std::string f32x2 = R"("dtype":"F32","shape":[2])";
    struct Case {
        const char* what;
        std::string bytes;
        ct_status status;
        const char* fragment;
    };
    std::string eight(8, '\x01');
    std::vector<Case> cases = {
        {"empty file", "", CT_ERR_IO, "8-byte header size"},
        {"short size", "abc", CT_ERR_IO, "8-byte header size"},
        {"huge header size", file_bytes("{}", "", int64_t(1) << 40), CT_ERR_IO, "more than the limit"},
        {"header past the end", file_bytes("{}", "", 3000), CT_ERR_IO, "only 2 after the size"},
        {"header size near 2^64", file_bytes("{}", "", -2 /* 2^64 - 2 */), CT_ERR_IO, "more than the limit"},
        {"not JSON", file_bytes("{\"a\":", ""), CT_ERR_IO, "not valid JSON"},
        {"invalid UTF-8 in JSON", file_bytes("{\"\xff\":1}", ""), CT_ERR_IO, "not valid JSON"},
        {"JSON array", file_bytes("[1,2]", ""), CT_ERR_IO, "not a JSON object"},
        {"entry not object", file_bytes(R"({"a":3})", ""), CT_ERR_IO, "not an object"},
        {"missing field", file_bytes(R"({"a":{"dtype":"F32","shape":[1]}})", eight), CT_ERR_IO, "lacks one of"},
        {"unknown dtype", file_bytes(R"({"a":{"dtype":"Q7","shape":[1],"data_offsets":[0,1]}})", eight), CT_ERR_IO,
         "unknown dtype \"Q7\""},
        {"foreign dtype", file_bytes(R"({"a":{"dtype":"U16","shape":[1],"data_offsets":[0,2]}})", eight), CT_ERR_DTYPE,
         "dtype U16, which ctensor does not support"},
        {"negative size", file_bytes(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", eight), CT_ERR_IO,
         "not an integer"},
        {"float size", file_bytes(R"({"a":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})", eight), CT_ERR_IO,
         "not an integer"},
        {"overflowing shape",
         file_bytes(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})", eight),
         CT_ERR_IO, "more elements than int64"},
        {"bytes do not match shape", file_bytes("{\"a\":{" + f32x2 + R"(,"data_offsets":[0,4]}})", eight), CT_ERR_IO,
         "needs 2 * 4 bytes"},
        {"begin after end", file_bytes("{\"a\":{" + f32x2 + R"(,"data_offsets":[8,0]}})", eight), CT_ERR_IO,
         "data_offsets are [8, 0]"},
        {"past the data", file_bytes("{\"a\":{" + f32x2 + R"(,"data_offsets":[4,12]}})", eight), CT_ERR_IO,
         "past the data (8 bytes)"},
        {"huge offsets",
         file_bytes("{\"a\":{" + f32x2 + R"(,"data_offsets":[18446744073709551608,18446744073709551616]}})", eight),
         CT_ERR_IO, "not an integer"},
        {"overlap",
         file_bytes("{\"a\":{" + f32x2 + R"(,"data_offsets":[0,8]},"b":{)" + f32x2 + R"(,"data_offsets":[4,12]}})",
                    eight + eight),
         CT_ERR_IO, "overlap"},
        {"duplicate name",
         file_bytes("{\"a\":{" + f32x2 + R"(,"data_offsets":[0,8]},"a":{)" + f32x2 + R"(,"data_offsets":[8,16]}})",
                    eight + eight),
         CT_ERR_IO, "names \"a\" twice"},
        {"metadata not strings", file_bytes(R"({"__metadata__":{"k":1}})", ""), CT_ERR_IO, "is not a string"},
        {"metadata not object", file_bytes(R"({"__metadata__":[]})", ""), CT_ERR_IO, "__metadata__ is not an object"},
    };
    cases[4].bytes[0] = '\xfe';
    for (int i = 1; i < 8; ++i) cases[4].bytes[i] = '\xff';
    std::string path = temp_path("hostile");
    int64_t live = ct_live_handles();
    for (const Case& c : cases) {
        write_file(path, c.bytes);
        for (int map = 0; map < 2; ++map) {
            SCOPED_TRACE(std::string(c.what) + (map ? " (mapped)" : " (read)"));
            ct_safetensors out = nullptr;
            CT_EXPECT_ERR(ct_load_safetensors(path.c_str(), ct_cpu(), map, &out), c.status, c.fragment);
            EXPECT_EQ(out, nullptr);
            EXPECT_EQ(ct_live_handles(), live);
        }
    }
    std::remove(path.c_str());
}

TEST(Safetensors, BoolBytesAndUnalignedDataAreCopied) {
    // bool bytes other than 0 and 1 in a file are read as true; an odd data offset still loads (copied)
    std::string path = temp_path("bools");
    std::string data = std::string("\x00\x02\x01\xff", 4) + std::string("\x01", 1) + std::string("\x00\x00\x80\x3f", 4);
    write_file(path, file_bytes(R"({"b":{"dtype":"BOOL","shape":[4],"data_offsets":[0,4]},)"
                                R"("u":{"dtype":"U8","shape":[1],"data_offsets":[4,5]},)"
                                R"("f":{"dtype":"F32","shape":[1],"data_offsets":[5,9]}})",
                                data));
    for (int map = 0; map < 2; ++map) {
        F f;
        CT_ASSERT_OK(ct_load_safetensors(path.c_str(), ct_cpu(), map, &f.f));
        EXPECT_EQ(values(get(f.f, "b")), (std::vector<double>{0, 1, 1, 1}));
        H s;
        CT_ASSERT_OK(ct_sum(get(f.f, "b").get(), nullptr, 0, 0, s.out()));
        EXPECT_EQ(values(s), std::vector<double>{3});
        EXPECT_EQ(values(get(f.f, "f")), std::vector<double>{1.0});
    }
    std::remove(path.c_str());
}

TEST(Safetensors, ReleasedHandlesAndLiveCount) {
    int64_t live = ct_live_handles();
    ct_safetensors f = nullptr;
    CT_ASSERT_OK(ct_safetensors_new(&f));
    EXPECT_EQ(ct_live_handles(), live + 1);
    EXPECT_EQ(ct_safetensors_retain(f), f);
    ct_safetensors_release(f);
    ct_safetensors_release(f);
    EXPECT_EQ(ct_live_handles(), live);
    int32_t n = 0;
    CT_EXPECT_ERR(ct_safetensors_count(f, &n), CT_ERR_INVALID_HANDLE, "not a live safetensors");
    H t = make({1}, {1}), got;
    CT_EXPECT_ERR(ct_safetensors_get(reinterpret_cast<ct_safetensors>(t.get()), "x", got.out()), CT_ERR_INVALID_HANDLE,
                  "safetensors_get");
    ct_safetensors_release(nullptr);
}
