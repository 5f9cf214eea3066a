#pragma once
// Tipsy binary snapshots (Quinn, Katz, Stadel): a 32-byte header {double time; int nbodies, ndim, nsph,
// ndark, nstar, pad} followed by nsph gas records (12 floats: mass, x, y, z, vx, vy, vz, rho, temp, h,
// metals, phi), ndark dark-matter records (9 floats: mass, x..vz, eps, phi) and nstar star records (11
// floats: mass, x..vz, metals, tform, eps, phi). The standard files are big-endian (XDR, as pynbody writes
// them); NVIDIA's CUDA nbody sample reads the same layout in the machine's own byte order. Both are read:
// the byte order is the one in which the header makes sense (ndim 3, counts adding up, file size matching).
#include <cstdint>
#include <string>
#include <vector>

#include "core/physics/state.hpp"

namespace nbody {

struct TipsyHeader {
    double time = 0;
    uint32_t nsph = 0, ndark = 0, nstar = 0;
    bool big_endian = true;
    std::size_t bodies() const { return std::size_t{nsph} + ndark + nstar; }
};

// Reads the header only (32 bytes and the file's size). Throws nbody::Error "path: byte N: why" for a short
// or inconsistent file.
TipsyHeader read_tipsy_header(const std::string& path);

// Reads every particle: gas, then dark matter, then stars; State::group is the kind (0 gas, 1 dark, 2 star)
// and State::time the header's time. Throws nbody::Error naming the byte offset of the first bad value.
State read_tipsy(const std::string& path);
// The same from the file's bytes already in memory; `path` names it in messages.
State parse_tipsy(const std::vector<unsigned char>& bytes, const std::string& path);

// Writes a standard (big-endian) tipsy file: every body as a dark-matter record (mass, position, velocity in
// float32, softening eps, phi 0) and the state's time, so other tools (pynbody, NVIDIA's sample) can read it.
// Throws nbody::Error when the file cannot be written or N does not fit the header's 32-bit count.
void write_tipsy(const State& s, double eps, const std::string& path);

}  // namespace nbody
