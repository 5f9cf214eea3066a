#include "io/output_path.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"

namespace nbody {

void check_writable(const std::string& path, const std::string& flag) {
    namespace fs = std::filesystem;
    const auto fail = [&](const std::string& why) { throw Error(flag + " " + path + ": " + why); };
    if (path.empty()) fail("empty file name");
    std::error_code ec;
    if (fs::is_directory(path, ec)) fail("is a folder, not a file");
    const bool existed = fs::exists(path, ec);
    {
        std::ofstream probe(path, std::ios::app);  // append: an existing file keeps its contents
        if (!probe) fail(std::string("cannot open for writing (") + std::strerror(errno) + ")");
    }
    if (!existed) fs::remove(path, ec);
}

}  // namespace nbody
