#include "io/tipsy.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/errors.hpp"

namespace nbody {

namespace {

constexpr std::size_t kHeaderBytes = 32;
constexpr std::size_t kFloats[3] = {12, 9, 11};  // floats per gas, dark, star record

[[noreturn]] void fail(const std::string& path, std::size_t offset, const std::string& why) {
    throw Error(path + ": byte " + std::to_string(offset) + ": " + why);
}

// Up to `limit` bytes of a regular file (not a pipe or a device: /dev/zero would never end), and its size.
std::vector<unsigned char> read_bytes(const std::string& path, std::size_t limit, std::size_t& size) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw Error(path + ": not a regular file (or it does not exist)");
    size = std::filesystem::file_size(path, ec);
    std::ifstream in(path, std::ios::binary);
    if (ec || !in) throw Error(path + ": cannot open the tipsy file");
    std::vector<unsigned char> b(std::min(size, limit));
    in.read(reinterpret_cast<char*>(b.data()), std::streamsize(b.size()));
    if (std::size_t(in.gcount()) != b.size()) throw Error(path + ": cannot read the tipsy file");
    return b;
}

// Reads a value of type T at `at` in the given byte order.
template <class T>
T load(const std::vector<unsigned char>& b, std::size_t at, bool big) {
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, b.data() + at, sizeof(T));
    if (big != (std::endian::native == std::endian::big))
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(raw[i], raw[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, raw, sizeof(T));
    return v;
}

// The header in one byte order, or false when it does not describe a file of `file_size` bytes.
bool parse_header(const std::vector<unsigned char>& b, std::size_t file_size, bool big, TipsyHeader& h) {
    const int32_t n = load<int32_t>(b, 8, big), ndim = load<int32_t>(b, 12, big);
    const int32_t counts[3] = {load<int32_t>(b, 16, big), load<int32_t>(b, 20, big),
                               load<int32_t>(b, 24, big)};
    if (ndim != 3 || n < 0 || counts[0] < 0 || counts[1] < 0 || counts[2] < 0) return false;
    if (int64_t{counts[0]} + counts[1] + counts[2] != n) return false;
    std::size_t size = kHeaderBytes;
    for (int k = 0; k < 3; ++k) size += std::size_t(counts[k]) * kFloats[k] * 4;
    if (size != file_size) return false;
    h.time = load<double>(b, 0, big);
    h.nsph = uint32_t(counts[0]), h.ndark = uint32_t(counts[1]), h.nstar = uint32_t(counts[2]);
    h.big_endian = big;
    return std::isfinite(h.time);
}

TipsyHeader header_of(const std::vector<unsigned char>& b, std::size_t file_size, const std::string& path) {
    if (b.size() < kHeaderBytes)
        fail(path, b.size(), "file ends inside the 32-byte header (" + std::to_string(b.size()) + " bytes)");
    TipsyHeader h;
    if (parse_header(b, file_size, true, h) || parse_header(b, file_size, false, h)) return h;
    const int32_t n = load<int32_t>(b, 8, true), ndim = load<int32_t>(b, 12, true);
    fail(path, 8,
         "not a tipsy header in either byte order (big-endian reading: nbodies " + std::to_string(n) +
             ", ndim " + std::to_string(ndim) + "; the counts must add up, ndim be 3, and the file be " +
             "32 + 48 nsph + 36 ndark + 44 nstar bytes, it is " + std::to_string(file_size) + ")");
}

}  // namespace

TipsyHeader read_tipsy_header(const std::string& path) {
    std::size_t size = 0;
    const std::vector<unsigned char> b = read_bytes(path, kHeaderBytes, size);
    return header_of(b, size, path);
}

State read_tipsy(const std::string& path) {
    std::size_t size = 0;
    const std::vector<unsigned char> b = read_bytes(path, std::size_t(-1), size);
    return parse_tipsy(b, path);
}

State parse_tipsy(const std::vector<unsigned char>& b, const std::string& path) {
    const TipsyHeader h = header_of(b, b.size(), path);
    State s;
    s.resize(h.bodies());
    s.time = h.time;
    std::size_t at = kHeaderBytes, i = 0;
    const uint32_t counts[3] = {h.nsph, h.ndark, h.nstar};
    for (uint32_t kind = 0; kind < 3; ++kind)
        for (uint32_t k = 0; k < counts[kind]; ++k, ++i, at += kFloats[kind] * 4) {
            float v[7];  // mass, x, y, z, vx, vy, vz lead every record
            for (int c = 0; c < 7; ++c) {
                v[c] = load<float>(b, at + 4 * std::size_t(c), h.big_endian);
                if (!std::isfinite(v[c])) fail(path, at + 4 * std::size_t(c), "not a finite number");
            }
            if (v[0] < 0) fail(path, at, "negative mass");
            s.pos_mass[i] = {v[1], v[2], v[3], v[0]};
            s.vel[i] = {v[4], v[5], v[6], 0.0};
            s.group[i] = kind;
        }
    return s;
}

namespace {
// Appends v in big-endian byte order (the standard tipsy files are XDR).
template <class T>
void put_big(std::vector<unsigned char>& out, T v) {
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, &v, sizeof(T));
    if (std::endian::native != std::endian::big)
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(raw[i], raw[sizeof(T) - 1 - i]);
    out.insert(out.end(), raw, raw + sizeof(T));
}
}  // namespace

void write_tipsy(const State& s, double eps, const std::string& path) {
    if (s.size() > 0x7fffffffu) throw Error(path + ": " + std::to_string(s.size()) + " bodies do not fit a tipsy header");
    const auto n = static_cast<int32_t>(s.size());
    std::vector<unsigned char> out;
    out.reserve(32 + s.size() * 36);
    put_big<double>(out, s.time);
    for (int32_t v : {n, int32_t{3}, int32_t{0}, n, int32_t{0}, int32_t{0}}) put_big<int32_t>(out, v);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Double4 p = s.pos_mass[i], v = s.vel[i];
        for (double f : {p.w, p.x, p.y, p.z, v.x, v.y, v.z, eps, 0.0}) put_big<float>(out, static_cast<float>(f));
    }
    std::ofstream f(path, std::ios::binary);
    if (!f || !f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size())))
        throw Error(path + ": cannot write the tipsy file");
}

}  // namespace nbody
