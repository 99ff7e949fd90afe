// quote.cpp - escaping of caller strings for error messages (core/quote.h).
#include "core/quote.h"

namespace ct {
namespace {

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 when the bytes there are not one.
size_t utf8_length(std::string_view s, size_t i) {
    const unsigned char c = (unsigned char)s[i];
    if (c < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte (no overlongs, no surrogates)
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return 0;
    if (i + n > s.size()) return 0;
    const unsigned char c1 = (unsigned char)s[i + 1];
    if (c1 < lo || c1 > hi) return 0;
    for (size_t k = 2; k < n; ++k)
        if (((unsigned char)s[i + k] & 0xC0) != 0x80) return 0;
    return n;
}

void append_hex(std::string& out, unsigned char c) {
    static const char digits[] = "0123456789abcdef";
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 15];
}

}  // namespace

std::string escape_utf8(std::string_view s, char quote) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = (unsigned char)s[i];
        const size_t n = utf8_length(s, i);
        if (n == 0 || (quote && (c < 0x20 || c == 0x7f))) {
            append_hex(out, c);
            ++i;
            continue;
        }
        if (quote && (c == '\\' || c == (unsigned char)quote)) out += '\\';
        out.append(s.data() + i, n);
        i += n;
    }
    return out;
}

}  // namespace ct
