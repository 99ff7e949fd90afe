// quote.h - caller strings in error messages: one escaping rule so that every message stays valid UTF-8
// (bindings decode it as UTF-8) whatever bytes the caller passed.
#pragma once
#include <string>
#include <string_view>

namespace ct {

// s with every byte that is not part of valid UTF-8 written as \xNN; when quote is not 0, also control characters
// (below 0x20 and 0x7f) as \xNN, and backslash and the quote character with a backslash. Valid UTF-8 out.
std::string escape_utf8(std::string_view s, char quote = 0);

// A caller string quoted for a message with q around it: q + escape_utf8(s, q) + q. Not named quoted: with a
// std::string argument, argument-dependent lookup would prefer std::quoted (<iomanip>), which escapes nothing.
inline std::string quote_text(std::string_view s, char q = '"') { return q + escape_utf8(s, q) + q; }

}  // namespace ct
