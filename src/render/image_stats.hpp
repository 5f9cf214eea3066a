#pragma once
// What a picture shows, counted on its pixels: the share clipped to white (a channel at 255) and the share
// lit (brighter than the empty sky by a margin). The headless run prints them after a screenshot; the gl
// tests assert the picture's goals with them (at most 0.05% clipped while at least 2% is lit).
#include <array>
#include <cstdint>

#include <glm/glm.hpp>

#include "render/image_capture.hpp"

namespace nbody {

// The 8-bit colour the tone map gives a pixel that received no light: the background, sRGB-encoded.
std::array<int, 3> background_rgb8(const glm::vec3& linear_background);

struct PictureStats {
    long long pixels = 0;
    long long clipped = 0;  // pixels with a channel at 255
    long long lit = 0;      // pixels with a channel `margin` or more above the background's
    double clipped_share() const { return pixels ? double(clipped) / double(pixels) : 0.0; }
    double lit_share() const { return pixels ? double(lit) / double(pixels) : 0.0; }
};

PictureStats picture_stats(const Image& img, const std::array<int, 3>& background, int margin = 16);

// The mean over a set of pixels of their brightest channel (0..255), for comparing regions of a picture.
struct RegionBrightness {
    double sum = 0;
    long long count = 0;
    void add(const Image& img, int x, int y);  // ignores pixels outside the image
    double mean() const { return count ? sum / double(count) : 0.0; }
};

}  // namespace nbody
