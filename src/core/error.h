// error.h - the one exception type the engine throws; the C API turns it into a status + message.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include "ctensor.h"

namespace ct {

class Error : public std::runtime_error {
  public:
    Error(ct_status status, const std::string& msg) : std::runtime_error(msg), status_(status) {}
    ct_status status() const { return status_; }
  private:
    ct_status status_;
};

// The C function running on this thread (its name without "ct_"; null outside one), for messages raised far
// below the op's own checks, such as the allocator's out-of-memory. guard() clears it; the C boundary's
// argument helpers (check_out, get_tensor) set it.
inline thread_local const char* t_current_op = nullptr;

// "[2, 3]" for messages.
std::string shape_str(const std::vector<int64_t>& shape);

namespace detail {
inline void append(std::ostringstream&) {}
template <typename T, typename... Rest> void append(std::ostringstream& os, const T& v, const Rest&... rest) {
    os << v;
    append(os, rest...);
}
}  // namespace detail

// Throws Error(status, concatenation of parts).
template <typename... Parts> [[noreturn]] void fail(ct_status status, const Parts&... parts) {
    std::ostringstream os;
    detail::append(os, parts...);
    throw Error(status, os.str());
}

#define CT_CHECK(cond, status, ...) \
    do { if (!(cond)) ::ct::fail(status, __VA_ARGS__); } while (0)

}  // namespace ct
