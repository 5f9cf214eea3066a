#pragma once
// Shared by the gl tests: a headless context or a skip, pixel access, PNG header reading.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "render/camera.hpp"
#include "render/gl_context.hpp"
#include "render/image_capture.hpp"

namespace nbody::test {

struct Rgb {
    int r, g, b;
    int sum() const { return r + g + b; }
};

inline Rgb pixel(const Image& img, int x, int y) {
    const std::size_t i = (std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4;
    return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]};
}

// The camera the render tests look through: the unit sphere around the origin framed, seen from -y (x to
// the right, z up).
inline Camera front_view() {
    Camera cam;
    cam.frame_all(glm::vec3(0), 1.0f);
    cam.set_angles(-1.5707964f, 0);
    return cam;
}

// Brightest pixel in a (2r+1)^2 box around (x, y): sprites are a few pixels wide.
inline Rgb brightest_near(const Image& img, int x, int y, int r) {
    Rgb best{0, 0, 0};
    for (int j = std::max(0, y - r); j <= std::min(img.height - 1, y + r); ++j)
        for (int i = std::max(0, x - r); i <= std::min(img.width - 1, x + r); ++i)
            if (pixel(img, i, j).sum() > best.sum()) best = pixel(img, i, j);
    return best;
}

// Width and height from a PNG's IHDR chunk, or {0, 0} when the file is not a PNG.
inline std::pair<int, int> png_size(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char h[24] = {};
    in.read(reinterpret_cast<char*>(h), 24);
    const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (!in || std::memcmp(h, sig, 8) != 0 || std::memcmp(h + 12, "IHDR", 4) != 0) return {0, 0};
    auto be32 = [&](int o) {
        return int(h[o]) << 24 | int(h[o + 1]) << 16 | int(h[o + 2]) << 8 | int(h[o + 3]);
    };
    return {be32(16), be32(20)};
}

}  // namespace nbody::test

// Creates `ctx` (a headless EGL context of w x h) or skips the test with the reason.
#define NBODY_HEADLESS_OR_SKIP(ctx, w, h)                              \
    std::string why_##ctx;                                             \
    auto ctx = ::nbody::create_headless_context((w), (h), &why_##ctx); \
    if (!ctx) GTEST_SKIP() << "no headless OpenGL 4.5 context: " << why_##ctx
