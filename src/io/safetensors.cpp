// safetensors.cpp - NamedTensors and the safetensors file format (see safetensors.h). Every number read from a
// file is checked before use: the header size against the file, each tensor's byte range against its dtype and
// shape and against the data region, and the ranges against each other.
#include "io/safetensors.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include "autograd/grad_mode.h"
#include "core/checked_math.h"
#include "core/quote.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {

using Json = nlohmann::ordered_json;

namespace {

constexpr uint64_t kMaxHeaderBytes = uint64_t(100) << 20;  // the reference implementation's limit
constexpr const char* kMetadataKey = "__metadata__";

struct FormatDType {
    const char* name;
    DType dtype;
};
constexpr FormatDType kFormatDTypes[] = {{"F32", DType::Float32}, {"F64", DType::Float64}, {"I32", DType::Int32},
                                         {"I64", DType::Int64},   {"U8", DType::UInt8},     {"BOOL", DType::Bool},
                                         {"F16", DType::Float16}, {"BF16", DType::BFloat16}, {"I8", DType::Int8},
                                         {"I16", DType::Int16},   {"C64", DType::Complex64}};
// C64 (safetensors >= 0.6, torch.complex64): interleaved float32 (real, imag) pairs, our complex64 layout. The
// format has no complex128 code. The format's dtypes that ctensor has no dtype for yet (CT_ERR_DTYPE rather than
// "not a safetensors file"):
constexpr const char* kOtherFormatDTypes[] = {"U16", "U32", "U64", "F8_E4M3", "F8_E5M2"};

const char* format_name(DType d) {
    for (const auto& f : kFormatDTypes)
        if (f.dtype == d) return f.name;
    // complex128 (Note [Complex dtypes]): the format has C64 only
    fail(CT_ERR_DTYPE, "save_safetensors: dtype ", dtype_name(d),
         " has no safetensors dtype code (the format has C64 = complex64 only); save view_as_real(t) (its float64 "
         "parts) or t.to(complex64) instead");
}

bool valid_utf8(const std::string& s) { return escape_utf8(s) == s; }

// Throws CT_ERR_IO "op: "path": what...".
template <typename... Parts> [[noreturn]] void fail_file(const char* op, const std::string& path, const Parts&... what) {
    fail(CT_ERR_IO, op, ": ", quote_text(path), ": ", what...);
}

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// The whole file mapped private and writable (copy on write); unmapped when the last tensor viewing it goes.
struct Mapping {
    void* base = MAP_FAILED;
    size_t size = 0;
    ~Mapping() {
        if (base != MAP_FAILED) ::munmap(base, size);
    }
};

// Reads exactly n bytes at offset; a short file (changed meanwhile) or a read error is CT_ERR_IO.
void read_exact(int fd, uint64_t offset, void* dst, size_t n, const std::string& path) {
    auto* p = static_cast<unsigned char*>(dst);
    while (n > 0) {
        ssize_t got = ::pread(fd, p, n, (off_t)offset);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) fail_file("load_safetensors", path, "read failed: ", std::strerror(errno));
        if (got == 0) fail_file("load_safetensors", path, "the file ended early (was it changed while loading?)");
        p += got, n -= (size_t)got, offset += (uint64_t)got;
    }
}

// One tensor's entry of the header, checked.
struct Entry {
    std::string name;
    DType dtype;
    Shape shape;
    uint64_t begin, end;
};

uint64_t header_uint(const Json& v, const std::string& path, const std::string& name, const char* field) {
    if (!v.is_number_unsigned() || v.get<uint64_t>() > (uint64_t)INT64_MAX)
        fail_file("load_safetensors", path, "tensor ", quote_text(name), ": ", field, " holds ", v.dump(),
                  ", not an integer in [0, 2^63)");
    return v.get<uint64_t>();
}

// Names, metadata keys and values cross the C ABI as NUL-terminated strings: a file's string holding a NUL byte
// could not be looked up or given back whole, so it is refused.
void check_c_string(const std::string& path, const char* what, const std::string& s) {
    if (s.find('\0') != std::string::npos)
        fail_file("load_safetensors", path, what, " ", quote_text(s), " holds a NUL byte (the C API takes C strings)");
}

Entry parse_entry(const std::string& name, const Json& v, uint64_t data_size, const std::string& path) {
    const char* op = "load_safetensors";
    check_c_string(path, "the tensor name", name);
    if (!v.is_object()) fail_file(op, path, "tensor ", quote_text(name), " is described by ", v.type_name(), ", not an object");
    auto dt = v.find("dtype");
    auto shape = v.find("shape");
    auto offsets = v.find("data_offsets");
    if (dt == v.end() || shape == v.end() || offsets == v.end())
        fail_file(op, path, "tensor ", quote_text(name), " lacks one of \"dtype\", \"shape\", \"data_offsets\"");
    if (!dt->is_string()) fail_file(op, path, "tensor ", quote_text(name), ": dtype is not a string");
    Entry e{name, DType::Float32, {}, 0, 0};
    const std::string dname = dt->get<std::string>();
    bool known = false;
    for (const auto& f : kFormatDTypes)
        if (dname == f.name) e.dtype = f.dtype, known = true;
    if (!known) {
        for (const char* other : kOtherFormatDTypes)
            if (dname == other)
                fail(CT_ERR_DTYPE, op, ": ", quote_text(path), ": tensor ", quote_text(name), " has dtype ", dname,
                     ", which ctensor does not support");
        fail_file(op, path, "tensor ", quote_text(name), " has unknown dtype ", quote_text(dname));
    }
    if (!shape->is_array()) fail_file(op, path, "tensor ", quote_text(name), ": shape is not an array");
    int64_t numel = 1;
    for (const Json& d : *shape) {
        int64_t size = (int64_t)header_uint(d, path, name, "shape");
        e.shape.push_back(size);
        if (!mul_fits(numel, size, &numel))
            fail_file(op, path, "tensor ", quote_text(name), ": shape ", shape->dump(), " has more elements than int64 holds");
    }
    checked_numel(e.shape, op);  // Note [Shape bound] (sizes of 0 count as 1): CT_ERR_SHAPE
    if (!offsets->is_array() || offsets->size() != 2)
        fail_file(op, path, "tensor ", quote_text(name), ": data_offsets is not a pair [begin, end]");
    e.begin = header_uint((*offsets)[0], path, name, "data_offsets");
    e.end = header_uint((*offsets)[1], path, name, "data_offsets");
    int64_t nbytes = 0;
    if (!mul_fits(numel, (int64_t)dtype_size(e.dtype), &nbytes) || e.begin > e.end || e.end - e.begin != (uint64_t)nbytes)
        fail_file(op, path, "tensor ", quote_text(name), " of shape ", shape_str(e.shape), " and dtype ", dname,
                  " needs ", numel, " * ", dtype_size(e.dtype), " bytes but data_offsets are [", e.begin, ", ", e.end, "]");
    if (e.end > data_size)
        fail_file(op, path, "tensor ", quote_text(name), ": data_offsets end ", e.end, " is past the data (", data_size,
                  " bytes)");
    return e;
}

bool all_bool_bytes(const void* data, int64_t n) {
    auto* p = static_cast<const uint8_t*>(data);
    for (int64_t i = 0; i < n; ++i)
        if (p[i] > 1) return false;
    return true;
}

}  // namespace

// ---- NamedTensors --------------------------------------------------------------------------------------

void NamedTensors::add(const std::string& name, const Tensor& t) {
    if (!valid_utf8(name)) fail(CT_ERR_INVALID_ARGUMENT, "safetensors_add: name ", quote_text(name), " is not valid UTF-8");
    if (name == kMetadataKey) fail(CT_ERR_INVALID_ARGUMENT, "safetensors_add: the name \"__metadata__\" is reserved");
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& e : entries_)
        if (e.first == name) fail(CT_ERR_INVALID_ARGUMENT, "safetensors_add: a tensor named ", quote_text(name), " is already there");
    entries_.emplace_back(name, t);
}

void NamedTensors::set_metadata(const std::string& key, const std::string& value) {
    if (!valid_utf8(key) || !valid_utf8(value))
        fail(CT_ERR_INVALID_ARGUMENT, "safetensors_set_metadata: key ", quote_text(key), " or its value is not valid UTF-8");
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& m : metadata_)
        if (m.first == key) {
            m.second = value;
            return;
        }
    metadata_.emplace_back(key, value);
}

size_t NamedTensors::size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return entries_.size();
}

std::string NamedTensors::name(size_t i) const {
    std::lock_guard<std::mutex> lock(mu_);
    if (i >= entries_.size()) fail(CT_ERR_INDEX, "safetensors_name: index ", i, " is out of range for ", entries_.size(), " tensors");
    return entries_[i].first;
}

Tensor NamedTensors::get(const std::string& name) const {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& e : entries_)
        if (e.first == name) return e.second;
    fail(CT_ERR_INDEX, "safetensors_get: no tensor named ", quote_text(name));
}

size_t NamedTensors::metadata_size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return metadata_.size();
}

std::string NamedTensors::metadata_key(size_t i) const {
    std::lock_guard<std::mutex> lock(mu_);
    if (i >= metadata_.size())
        fail(CT_ERR_INDEX, "safetensors_metadata_key: index ", i, " is out of range for ", metadata_.size(), " keys");
    return metadata_[i].first;
}

std::string NamedTensors::metadata_value(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& m : metadata_)
        if (m.first == key) return m.second;
    fail(CT_ERR_INDEX, "safetensors_metadata_get: no metadata key ", quote_text(key));
}

std::vector<std::pair<std::string, Tensor>> NamedTensors::entries() const {
    std::lock_guard<std::mutex> lock(mu_);
    return entries_;
}

std::vector<std::pair<std::string, std::string>> NamedTensors::metadata() const {
    std::lock_guard<std::mutex> lock(mu_);
    return metadata_;
}

// ---- save ----------------------------------------------------------------------------------------------

void save_safetensors(const NamedTensors& tensors, const std::string& path) {
    const char* op = "save_safetensors";
    NoGradGuard no_grad;
    Json header = Json::object();
    auto metadata = tensors.metadata();
    if (!metadata.empty()) {
        Json& m = header[kMetadataKey] = Json::object();
        for (const auto& kv : metadata) m[kv.first] = kv.second;
    }
    std::vector<Tensor> host;  // contiguous CPU copies (or the tensors themselves), in file order
    int64_t offset = 0;
    for (const auto& [name, t] : tensors.entries()) {
        Tensor h = contiguous(t.device().is_cpu() ? t : copy_to_device(t, Device{}));
        int64_t nbytes = checked_nbytes(h.numel(), (int64_t)h.itemsize(), op);
        int64_t end = checked_add(offset, nbytes, op, "file size", CT_ERR_OUT_OF_MEMORY);
        header[name] = Json{{"dtype", format_name(h.dtype())}, {"shape", h.sizes()}, {"data_offsets", {offset, end}}};
        offset = end;
        host.push_back(h);
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
    unsigned char size_le[8];
    for (int i = 0; i < 8; ++i) size_le[i] = (unsigned char)((uint64_t)text.size() >> (8 * i));

    const std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) fail_file(op, tmp, "cannot create: ", std::strerror(errno));
    bool ok = std::fwrite(size_le, 1, 8, f) == 8 && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    std::vector<uint8_t> bools;
    for (size_t i = 0; ok && i < host.size(); ++i) {
        const Tensor& h = host[i];
        size_t n = (size_t)(h.numel() * (int64_t)h.itemsize());
        if (n == 0) continue;
        const void* data = h.raw_data();
        if (h.dtype() == DType::Bool) {  // stored as 0 and 1 whatever bytes the storage holds
            auto* p = static_cast<const uint8_t*>(data);
            bools.assign(p, p + n);
            for (uint8_t& b : bools) b = b != 0;
            data = bools.data();
        }
        ok = std::fwrite(data, 1, n, f) == n;
    }
    int err = ok ? 0 : errno;
    if (std::fclose(f) != 0 && ok) ok = false, err = errno;
    if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) ok = false, err = errno;
    if (!ok) {
        std::remove(tmp.c_str());
        fail_file(op, path, "cannot write: ", std::strerror(err));
    }
}

// ---- load ----------------------------------------------------------------------------------------------

std::shared_ptr<NamedTensors> load_safetensors(const std::string& path, Device device, bool map) {
    const char* op = "load_safetensors";
    check_device_usable(op, device);
    Fd file;
    file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file.fd < 0) fail_file(op, path, "cannot open: ", std::strerror(errno));
    struct stat st;
    if (::fstat(file.fd, &st) != 0) fail_file(op, path, "cannot stat: ", std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail_file(op, path, "not a regular file");
    const uint64_t file_size = (uint64_t)st.st_size;
    if (file_size < 8) fail_file(op, path, "the file has ", file_size, " bytes; a safetensors file starts with an 8-byte header size");
    unsigned char size_le[8];
    read_exact(file.fd, 0, size_le, 8, path);
    uint64_t header_size = 0;
    for (int i = 7; i >= 0; --i) header_size = header_size << 8 | size_le[i];
    if (header_size > kMaxHeaderBytes)
        fail_file(op, path, "the header claims ", header_size, " bytes, more than the limit of ", kMaxHeaderBytes);
    if (header_size > file_size - 8)
        fail_file(op, path, "the header claims ", header_size, " bytes but the file has only ", file_size - 8, " after the size");
    std::string text(header_size, '\0');
    read_exact(file.fd, 8, text.data(), header_size, path);

    // nlohmann keeps the last of duplicate keys silently: collect the top-level keys while parsing.
    std::set<std::string> names;
    std::string duplicate;
    auto on_event = [&](int depth, nlohmann::json::parse_event_t event, Json& parsed) {
        if (event == nlohmann::json::parse_event_t::key && depth == 1 && !names.insert(parsed.get<std::string>()).second)
            duplicate = parsed.get<std::string>();
        return true;
    };
    Json header;
    try {
        header = Json::parse(text, on_event);
    } catch (const nlohmann::json::exception& e) {
        fail_file(op, path, "the header is not valid JSON: ", e.what());
    }
    if (!duplicate.empty()) fail_file(op, path, "the header names ", quote_text(duplicate), " twice");
    if (!header.is_object()) fail_file(op, path, "the header is ", header.type_name(), ", not a JSON object");

    const uint64_t data_start = 8 + header_size, data_size = file_size - data_start;
    auto result = std::make_shared<NamedTensors>();
    std::vector<Entry> entries;
    for (const auto& item : header.items()) {
        if (item.key() == kMetadataKey) {
            if (!item.value().is_object()) fail_file(op, path, "__metadata__ is not an object");
            for (const auto& m : item.value().items()) {
                if (!m.value().is_string())
                    fail_file(op, path, "__metadata__ value of ", quote_text(m.key()), " is not a string");
                check_c_string(path, "the metadata key", m.key());
                check_c_string(path, "the metadata value", m.value().get<std::string>());
                result->set_metadata(m.key(), m.value().get<std::string>());
            }
            continue;
        }
        entries.push_back(parse_entry(item.key(), item.value(), data_size, path));
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
    const Entry* previous = nullptr;
    for (const Entry& e : entries) {
        if (e.begin == e.end) continue;  // empty tensors occupy no bytes
        if (previous && e.begin < previous->end)
            fail_file(op, path, "the data of tensors ", quote_text(previous->name), " [", previous->begin, ", ", previous->end,
                      ") and ", quote_text(e.name), " [", e.begin, ", ", e.end, ") overlap");
        previous = &e;
    }

    std::shared_ptr<Mapping> mapping;
    if (map && device.is_cpu()) {
        mapping = std::make_shared<Mapping>();
        mapping->base = ::mmap(nullptr, (size_t)file_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, file.fd, 0);
        mapping->size = (size_t)file_size;
        if (mapping->base == MAP_FAILED) mapping.reset();  // not mappable (a pipe-like file): read instead
    }
    for (const Entry& e : entries) {
        const size_t nbytes = (size_t)(e.end - e.begin);
        const char* mapped = mapping ? static_cast<const char*>(mapping->base) + data_start + e.begin : nullptr;
        Tensor t;
        if (mapped && (uintptr_t)mapped % dtype_size(e.dtype) == 0 &&
            (e.dtype != DType::Bool || all_bool_bytes(mapped, (int64_t)nbytes))) {
            std::shared_ptr<Mapping> keep = mapping;  // the view keeps the mapping
            t = from_blob(const_cast<char*>(mapped), e.shape, nullptr, e.dtype, Device{}, [keep]() {});
        } else {
            t = empty_tensor(e.shape, e.dtype, Device{}, op);
            if (nbytes && mapped) std::memcpy(t.raw_data(), mapped, nbytes);
            if (nbytes && !mapped) read_exact(file.fd, data_start + e.begin, t.raw_data(), nbytes, path);
            if (e.dtype == DType::Bool) normalise_bool_bytes(t.raw_data(), t.numel());  // Note [Bool bytes]
        }
        if (!device.is_cpu()) t = copy_to_device(t, device);
        result->add(e.name, t);
    }
    return result;
}

}  // namespace ct
