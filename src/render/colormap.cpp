#include "render/colormap.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/errors.hpp"
#include "io/colormap_file.hpp"

namespace nbody {

namespace {
// Control points, chosen by eye to rise monotonically in brightness (so speed reads as light) and
// to stay saturated in the middle; interpolated linearly.
constexpr std::array<glm::vec3, 6> kRamp = {glm::vec3(0.10f, 0.05f, 0.35f), glm::vec3(0.35f, 0.10f, 0.60f),
                                            glm::vec3(0.75f, 0.20f, 0.45f), glm::vec3(0.95f, 0.40f, 0.20f),
                                            glm::vec3(1.00f, 0.70f, 0.25f), glm::vec3(1.00f, 0.95f, 0.75f)};
}  // namespace

glm::vec3 colormap(float t) {
    const float x = std::clamp(t, 0.0f, 1.0f) * float(kRamp.size() - 1);
    const int i = std::min(int(x), int(kRamp.size()) - 2);
    return glm::mix(kRamp[i], kRamp[i + 1], x - float(i));
}

ColormapTable colormap_table() {
    ColormapTable t{};
    for (int i = 0; i < kColormapSize; ++i) t[i] = colormap(float(i) / float(kColormapSize - 1));
    return t;
}

ColormapTable resample_colormap(const std::vector<std::array<float, 3>>& rows) {
    ColormapTable t{};
    const auto at = [&](std::size_t i) { return glm::vec3(rows[i][0], rows[i][1], rows[i][2]); };
    const std::size_t last = rows.size() - 1;
    for (int i = 0; i < kColormapSize; ++i) {
        const double x = double(i) / double(kColormapSize - 1) * double(last);
        const std::size_t j = std::min(std::size_t(x), last - 1);
        t[std::size_t(i)] = glm::mix(at(j), at(j + 1), float(x - double(j)));
    }
    return t;
}

std::vector<std::string> colormap_names(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& f : std::filesystem::directory_iterator(dir + "/colormaps", ec))
        if (f.path().extension() == ".txt") names.push_back(f.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

LoadedColormap load_colormap(const std::string& dir, const std::string& name) {
    const std::string path = dir + "/colormaps/" + name + ".txt";
    try {
        return {resample_colormap(read_colormap_file(path)), path, ""};
    } catch (const Error& e) {
        return {colormap_table(), "built-in", e.what()};
    }
}

glm::vec3 group_colour(uint32_t group) {
    // Hues spaced by the golden angle stay distinct for any number of groups; the first two are the
    // classic blue and orange of two colliding galaxies.
    static constexpr std::array<glm::vec3, kGroupColours> kGroups = {
        glm::vec3(0.35f, 0.60f, 1.00f), glm::vec3(1.00f, 0.55f, 0.20f), glm::vec3(0.40f, 1.00f, 0.45f),
        glm::vec3(1.00f, 0.35f, 0.55f), glm::vec3(0.85f, 0.85f, 0.30f), glm::vec3(0.70f, 0.45f, 1.00f),
        glm::vec3(0.30f, 0.95f, 0.95f), glm::vec3(0.95f, 0.95f, 0.95f)};
    return kGroups[group % kGroupColours];
}

const char* color_mode_name(ColorMode m) {
    switch (m) {
        case ColorMode::Group:
            return "component";
        case ColorMode::Speed:
            return "speed";
        case ColorMode::Depth:
            return "depth";
        case ColorMode::Density:
            return "density";
        case ColorMode::Potential:
            return "potential";
    }
    return "?";
}

}  // namespace nbody
