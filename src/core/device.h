// device.h - explicit devices (DLPack numbering) and their text form for messages.
#pragma once
#include <cstdint>
#include <string>

namespace ct {

enum class DeviceType : int32_t { CPU = 1, CUDA = 2 };

struct Device {
    DeviceType type = DeviceType::CPU;
    int32_t index = 0;
    bool operator==(const Device& o) const { return type == o.type && index == o.index; }
    bool operator!=(const Device& o) const { return !(*this == o); }
    bool is_cpu() const { return type == DeviceType::CPU; }
};

inline std::string device_str(const Device& d) {
    return d.is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(d.index);
}

}  // namespace ct
