#pragma once
// What each fuzz target does with one input, shared by the libFuzzer entry points (fuzz/*.cpp) and the unit
// test that replays fuzz/regressions/ through the normal parsers (tests/unit/io/test_fuzz_regressions.cpp).
// Bad input must end in an nbody::Error, which is caught here; anything else escaping (another exception,
// a crash, a sanitizer report, a run past libFuzzer's -timeout) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "io/colormap_file.hpp"
#include "io/snapshot.hpp"
#include "io/tipsy.hpp"
#include "scene/scene_file.hpp"

namespace nbody::fuzz {

// The bytes as a scene file, through the reader and, when it parses, the generators with the body count
// capped at 64 (so one run takes milliseconds; the generators' bounds do not depend on N). Returns whether
// the scene was built.
inline bool scene_input(const uint8_t* data, std::size_t size) {
    try {
        SceneSpec s = parse_scene(std::string(reinterpret_cast<const char*>(data), size), "fuzz.toml");
        constexpr std::size_t kCap = 64;
        if (s.total_bodies() > kCap) rescale_bodies(s, kCap);
        if (s.total_bodies() > kCap) return false;  // a tipsy file's own count: not the generators' business
        build_scene(s);
        return true;
    } catch (const Error&) {
        return false;
    }
}

// The bytes through the CSV snapshot parser, the tipsy parser and the colour-map parser (assets/colormaps:
// plain text too, so it shares this target's time rather than adding one). Returns how many read.
inline int snapshot_input(const uint8_t* data, std::size_t size) {
    int read = 0;
    try {
        parse_snapshot_csv(std::string(reinterpret_cast<const char*>(data), size), "fuzz.csv");
        ++read;
    } catch (const Error&) {
    }
    try {
        parse_tipsy(std::vector<unsigned char>(data, data + size), "fuzz.bin");
        ++read;
    } catch (const Error&) {
    }
    try {
        parse_colormap(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.txt");
        ++read;
    } catch (const Error&) {
    }
    return read;
}

}  // namespace nbody::fuzz
