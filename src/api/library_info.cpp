// The library's version, build and where its shipped scenes are.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "engine/backend_factory.hpp"
#include "nbody/nbody.hpp"

namespace nbody::api {

// NBODY_VERSION_STRING as this library was compiled with it (the caller may have compiled with other
// headers).
std::string version() {
    return NBODY_VERSION_STRING;
}

bool cuda_built() {
    return nbody::cuda_built();
}

int cuda_device_count() {
    return nbody::cuda_device_count();
}

std::string scenes_dir() {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("NBODY_SCENE_DIR"); env && *env) return env;
    std::error_code ec;
    // The installed layout, relative to this library's own file: <prefix>/lib/libnbody.so ->
    // <prefix>/share/nbody-sandbox/scenes (NBODY_LIB_TO_SCENES, from the install directories).
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&scenes_dir), &info) && info.dli_fname) {
        const fs::path dir = fs::path(info.dli_fname).parent_path() / NBODY_LIB_TO_SCENES;
        if (fs::exists(dir / "plummer.toml", ec)) return fs::weakly_canonical(dir, ec).string();
    }
    const fs::path source = fs::path(NBODY_SOURCE_DIR) / "scenes";
    if (fs::exists(source / "plummer.toml", ec)) return source.string();
    return {};
}

}  // namespace nbody::api
