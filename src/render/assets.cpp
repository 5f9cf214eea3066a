#include "render/assets.hpp"

#include <cstdlib>
#include <filesystem>

#include <stb_image.h>  // libstb.so exports stbi_load: no implementation macro here

namespace nbody {

namespace fs = std::filesystem;

std::string installed_dir(const char* env, const std::string& name, const std::string& probe) {
    if (const char* v = std::getenv(env); v && *v) return v;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    for (const fs::path& d : {exe.parent_path() / name, exe.parent_path() / "../share/nbody-sandbox" / name})
        if (fs::exists(d / probe, ec)) return d.string();
    return (fs::path(NBODY_SOURCE_DIR) / name).string();
}

std::string asset_dir() { return installed_dir("NBODY_ASSET_DIR", "assets", "icon.png"); }

RgbaImage load_rgba(const std::string& path, std::string* why) {
    RgbaImage img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 4);
    if (!data) {
        if (why) *why = path + ": " + (stbi_failure_reason() ? stbi_failure_reason() : "cannot decode");
        img.width = img.height = 0;
        return img;
    }
    img.pixels.assign(data, data + static_cast<std::size_t>(img.width) * img.height * 4);
    stbi_image_free(data);
    return img;
}

}  // namespace nbody
