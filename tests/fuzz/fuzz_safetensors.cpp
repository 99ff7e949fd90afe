// fuzz_safetensors.cpp - libFuzzer target for the safetensors reader: the input (after one option byte) is
// written to a file and loaded, mapped or copied; what loads is read back, saved and loaded again, and must
// give the same names, metadata and bytes. Every hostile file must be refused with a status, never a crash.
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "fuzz_common.h"

namespace {

using namespace fz;

std::string g_dir;

void write_file(const std::string& path, const uint8_t* data, size_t size) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || (size && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) die("fuzz_safetensors", "cannot write", path.c_str());
}

// Name i of f, checked like every (buf, cap, len) text getter.
std::string text_of(ct_safetensors f, int32_t i, bool key) {
    int32_t len = -1;
    ct_status st = key ? ct_safetensors_metadata_key(f, i, nullptr, 0, &len) : ct_safetensors_name(f, i, nullptr, 0, &len);
    check_status(key ? "safetensors_metadata_key" : "safetensors_name", st, false);
    if (len < 0) die("safetensors_name", "negative length");
    std::vector<char> buf((size_t)len + 1, 'Z');
    int32_t len2 = -1;
    st = key ? ct_safetensors_metadata_key(f, i, buf.data(), len + 1, &len2) : ct_safetensors_name(f, i, buf.data(), len + 1, &len2);
    check_status("safetensors_name", st, false);
    if (len2 != len || buf[(size_t)len] != '\0') die("safetensors_name", "length or NUL terminator wrong");
    if (!valid_utf8(buf.data(), (size_t)len)) die("safetensors_name", "a name is not valid UTF-8");
    return std::string(buf.data(), (size_t)len);
}

// Everything f holds: names, tensor bytes and metadata as one comparable list of strings.
std::vector<std::string> contents(ct_safetensors f) {
    std::vector<std::string> out;
    int32_t n = -1, m = -1;
    check_status("safetensors_count", ct_safetensors_count(f, &n), false);
    check_status("safetensors_metadata_count", ct_safetensors_metadata_count(f, &m), false);
    if (n < 0 || m < 0) die("safetensors_count", "negative count");
    for (int32_t i = 0; i < n; ++i) {
        std::string name = text_of(f, i, false);
        ct_tensor t = kSentinel;
        check_status("safetensors_get", ct_safetensors_get(f, name.c_str(), &t), false);
        check_tensor("safetensors_get", t);
        int64_t numel = 0;
        ct_dtype dt = 0;
        ct_tensor_numel(t, &numel);
        ct_tensor_dtype(t, &dt);
        std::string bytes((size_t)numel * (size_t)ct_dtype_size(dt), '\0');
        if (ct_tensor_copy_to_host(t, bytes.data(), (int64_t)bytes.size()) != CT_OK) die("copy_to_host", ct_last_error());
        int32_t nd = 0;
        int64_t dims[64];
        ct_tensor_shape(t, dims, 64, &nd);
        std::string meta = name + "|" + std::to_string(dt) + "|";
        for (int d = 0; d < nd && d < 64; ++d) meta += std::to_string(dims[d]) + ",";
        out.push_back(meta + "|" + bytes);
        ct_tensor_release(t);
    }
    for (int32_t i = 0; i < m; ++i) {
        std::string key = text_of(f, i, true);
        int32_t len = -1;
        check_status("safetensors_metadata_get", ct_safetensors_metadata_get(f, key.c_str(), nullptr, 0, &len), false);
        std::vector<char> buf((size_t)len + 1);
        check_status("safetensors_metadata_get", ct_safetensors_metadata_get(f, key.c_str(), buf.data(), len + 1, &len), false);
        out.push_back("meta:" + key + "=" + std::string(buf.data(), (size_t)len));
    }
    ct_tensor missing = kSentinel;
    ct_status st = ct_safetensors_get(f, "\xff not a name", &missing);
    check_status("safetensors_get", st, true);
    if (missing != kSentinel) die("safetensors_get", "an out-parameter was written by a failed call");
    return out;
}

// A new set made from f's tensors under names and metadata taken from the input's tail (hostile: duplicates,
// "__metadata__", invalid UTF-8, empty); what is accepted is saved and must load back with the same contents.
void rebuild(ct_safetensors f, const uint8_t* data, size_t size, const std::string& path) {
    ct_safetensors g = (ct_safetensors)kSentinel;
    check_status("safetensors_new", ct_safetensors_new(&g), false);
    if (ct_safetensors_retain(g) != g) die("safetensors_retain", "did not return its argument");
    ct_safetensors_release(g);
    int32_t n = 0;
    ct_safetensors_count(f, &n);
    size_t pos = size > 24 ? size - 24 : 0;  // names are cut from the last bytes of the input
    for (int32_t i = 0; i < n; ++i) {
        std::string name = text_of(f, i, false);
        ct_tensor t = nullptr;
        check_status("safetensors_get", ct_safetensors_get(f, name.c_str(), &t), false);
        std::string other(data + pos, data + pos + (size - pos < 3 ? size - pos : 3));
        pos = pos + 3 < size ? pos + 3 : pos;
        const char* names[] = {name.c_str(), other.c_str(), "__metadata__", ""};
        const char* pick = names[(other.empty() ? 0 : (uint8_t)other[0]) % 4];
        bool must_fail = !valid_utf8(pick, std::strlen(pick)) || std::strcmp(pick, "__metadata__") == 0;
        ct_status st = ct_safetensors_add(g, pick, t);
        check_status("safetensors_add", st, must_fail);
        ct_tensor_release(t);
    }
    std::string key(data + pos, data + size);
    key = key.substr(0, std::strlen(key.c_str()));  // up to the first NUL
    check_status("safetensors_set_metadata", ct_safetensors_set_metadata(g, key.c_str(), key.c_str()),
                 !valid_utf8(key.c_str(), key.size()));
    ct_status st = ct_save_safetensors(g, path.c_str());
    check_status("save_safetensors", st, false);
    if (st == CT_OK) {
        ct_safetensors h = nullptr;
        check_status("load_safetensors (of a rebuilt set)", ct_load_safetensors(path.c_str(), ct_cpu(), 0, &h), false);
        std::vector<std::string> a = contents(g), b = contents(h);
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b) die("save_safetensors", "a rebuilt set loads back different from what was saved");
        ct_safetensors_release(h);
    }
    ct_safetensors_release(g);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    init_library();
    char tmpl[] = "/tmp/ctensor_fuzz_st_XXXXXX";
    if (!mkdtemp(tmpl)) die("fuzz_safetensors", "mkdtemp failed");
    g_dir = tmpl;
    std::atexit([] {
        std::remove((g_dir + "/in.safetensors").c_str());
        std::remove((g_dir + "/again.safetensors").c_str());
        rmdir(g_dir.c_str());
    });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    int32_t map = data[0] & 1;
    std::string path = g_dir + "/in.safetensors", again = g_dir + "/again.safetensors";
    write_file(path, data + 1, size - 1);
    ct_safetensors f = (ct_safetensors)kSentinel;
    ct_status st = ct_load_safetensors(path.c_str(), ct_cpu(), map, &f);
    check_status("load_safetensors", st, false);
    if (st != CT_OK) {
        if (f != (ct_safetensors)kSentinel) die("load_safetensors", "an out-parameter was written by a failed call");
        if (ct_live_handles() != 0) die("load_safetensors", "a failed load left live handles");
        return 0;
    }
    std::vector<std::string> first = contents(f);
    st = ct_save_safetensors(f, again.c_str());
    check_status("save_safetensors", st, false);
    ct_safetensors g = (ct_safetensors)kSentinel;
    st = ct_load_safetensors(again.c_str(), ct_cpu(), map ^ 1, &g);
    check_status("load_safetensors (of a saved file)", st, false);
    std::vector<std::string> second = contents(g);
    std::sort(first.begin(), first.end());  // file order is the writer's choice
    std::sort(second.begin(), second.end());
    if (first != second) die("save_safetensors", "a saved file loads back different from what was saved");
    ct_safetensors_release(g);
    rebuild(f, data, size, again);
    ct_safetensors_release(f);
    if (ct_live_handles() != 0) die("safetensors_release", "handles left after releasing everything");
    return 0;
}
