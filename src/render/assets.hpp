#pragma once
// Files the program loads that are neither code, shaders nor scenes (assets/: the window icon), found like
// the shaders are.
#include <string>
#include <vector>

namespace nbody {

// A folder of files the program reads at run time: $<env> when set, else the first of <exe>/<name> and
// <exe>/../share/nbody-sandbox/<name> that holds `probe`, else the source tree's <name>/.
std::string installed_dir(const char* env, const std::string& name, const std::string& probe);

// installed_dir("NBODY_ASSET_DIR", "assets", "icon.png").
std::string asset_dir();

struct RgbaImage {
    int width = 0, height = 0;
    std::vector<unsigned char> pixels;  // width x height x 4, rows top to bottom
};

// Decodes a PNG into 8-bit RGBA; an empty image (width 0) with the reason in *why when the file is missing
// or not an image.
RgbaImage load_rgba(const std::string& path, std::string* why = nullptr);

}  // namespace nbody
