#include "render/image_stats.hpp"

#include <algorithm>
#include <cmath>

namespace nbody {

std::array<int, 3> background_rgb8(const glm::vec3& bg) {
    std::array<int, 3> out{};
    for (int c = 0; c < 3; ++c)
        out[std::size_t(c)] =
            int(std::lround(255.0 * std::pow(std::clamp(double(bg[c]), 0.0, 1.0), 1 / 2.2)));
    return out;
}

PictureStats picture_stats(const Image& img, const std::array<int, 3>& background, int margin) {
    PictureStats s;
    s.pixels = (long long)img.width * img.height;
    for (long long i = 0; i < s.pixels; ++i) {
        const uint8_t* p = &img.rgba[std::size_t(i) * 4];
        bool clipped = false, lit = false;
        for (int c = 0; c < 3; ++c) {
            clipped = clipped || p[c] == 255;
            lit = lit || int(p[c]) >= background[std::size_t(c)] + margin;
        }
        s.clipped += clipped;
        s.lit += lit;
    }
    return s;
}

void RegionBrightness::add(const Image& img, int x, int y) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
    const uint8_t* p = &img.rgba[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4];
    sum += std::max({p[0], p[1], p[2]});
    ++count;
}

}  // namespace nbody
