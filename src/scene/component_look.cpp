#include "scene/component_look.hpp"

#include <cmath>
#include <cstddef>

namespace nbody {

namespace {
// Colours as a display shows them (sRGB), converted to linear light for the renderer.
struct NamedColour {
    const char* name;
    unsigned rgb;  // 0xRRGGBB, sRGB
};
constexpr NamedColour kNamed[] = {
    {"white", 0xffffff},  {"grey", 0x9a9a9a},    {"red", 0xff5040},  {"orange", 0xffa040},
    {"yellow", 0xffe070}, {"green", 0x60e070},   {"cyan", 0x50e0f0}, {"blue", 0x5080ff},
    {"violet", 0xb070ff}, {"magenta", 0xff60d0}, {"pink", 0xffa0c0}, {"brown", 0xb07040},
};

float srgb_to_linear(unsigned byte) {
    return std::pow(float(byte) / 255.0f, 2.2f);  // the tone map's gamma (shaders/tonemap.frag)
}

std::array<float, 3> linear_of(unsigned rgb) {
    return {srgb_to_linear((rgb >> 16) & 0xff), srgb_to_linear((rgb >> 8) & 0xff),
            srgb_to_linear(rgb & 0xff)};
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
}  // namespace

const std::vector<std::string>& component_kind_names() {
    static const std::vector<std::string> names{"disk",   "bulge",    "halo",    "star",
                                                "planet", "intruder", "cluster", "galaxy"};
    return names;
}

const char* component_kind_name(ComponentKind k) {
    return component_kind_names()[std::size_t(k)].c_str();
}

const std::vector<std::string>& colour_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const NamedColour& c : kNamed) v.emplace_back(c.name);
        return v;
    }();
    return names;
}

std::optional<std::array<float, 3>> parse_colour(const std::string& text) {
    if (text.size() == 7 && text[0] == '#') {
        unsigned rgb = 0;
        for (std::size_t i = 1; i < 7; ++i) {
            const int d = hex_digit(text[i]);
            if (d < 0) return std::nullopt;
            rgb = rgb << 4 | unsigned(d);
        }
        return linear_of(rgb);
    }
    for (const NamedColour& c : kNamed)
        if (text == c.name) return linear_of(c.rgb);
    return std::nullopt;
}

}  // namespace nbody
