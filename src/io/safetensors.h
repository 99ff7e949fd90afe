// safetensors.h - named tensors with string metadata, and their files in the safetensors format
// (an 8-byte little-endian header size, a JSON header naming each tensor's dtype, shape and byte range, then the
// raw row-major little-endian data). The JSON is read and written by nlohmann-json, never by hand.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>
#include "core/tensor.h"

namespace ct {

// An ordered set of uniquely named tensors plus string metadata; what a file holds, or what will be saved.
// Safe to use from several threads (one lock).
class NamedTensors {
  public:
    // Adds t under name (non-empty, valid UTF-8, not "__metadata__", not present yet).
    void add(const std::string& name, const Tensor& t);
    // Sets metadata key to value (both valid UTF-8); an existing key gets the new value.
    void set_metadata(const std::string& key, const std::string& value);
    size_t size() const;
    std::string name(size_t i) const;            // CT_ERR_INDEX past the end
    Tensor get(const std::string& name) const;   // CT_ERR_INDEX "no tensor named ..." when absent
    size_t metadata_size() const;
    std::string metadata_key(size_t i) const;    // CT_ERR_INDEX past the end
    std::string metadata_value(const std::string& key) const;  // CT_ERR_INDEX when absent
    // Snapshot of the entries (for save).
    std::vector<std::pair<std::string, Tensor>> entries() const;
    std::vector<std::pair<std::string, std::string>> metadata() const;

  private:
    mutable std::mutex mu_;
    std::vector<std::pair<std::string, Tensor>> entries_;
    std::vector<std::pair<std::string, std::string>> metadata_;
};

// Writes every tensor (any device; stored row-major) and the metadata to path, through path + ".tmp" renamed
// over path, so a failed save never leaves a partial file at path. CT_ERR_IO when the file cannot be written.
void save_safetensors(const NamedTensors& tensors, const std::string& path);

// Reads and validates a safetensors file: every tensor on device, in the order of its data in the file. With
// map, CPU tensors whose data is aligned view a private copy-on-write mapping of the file (zero-copy; writes
// never reach the file) that lives as long as any of them. CT_ERR_IO for a file that cannot be read or is not a
// valid safetensors file (truncated, lying sizes, bad JSON, offsets out of range or overlapping, duplicate
// names); CT_ERR_DTYPE for a dtype ctensor lacks.
std::shared_ptr<NamedTensors> load_safetensors(const std::string& path, Device device, bool map);

}  // namespace ct
