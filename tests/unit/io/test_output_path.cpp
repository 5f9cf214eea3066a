// --json / --save / --screenshot paths are checked before the run: bad ones fail at once, good ones are
// untouched.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "io/output_path.hpp"

using namespace nbody;
namespace fs = std::filesystem;

namespace {
std::string message_of(const std::string& path) {
    try {
        check_writable(path, "--json");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(OutputPath, AMissingFolderOrAFolderIsRefusedNamingFlagAndPath) {
    const fs::path dir = fs::temp_directory_path() / "nbody_output_path_test";
    fs::create_directories(dir);
    const std::string missing = (dir / "no_such_folder" / "run.json").string();
    const std::string m = message_of(missing);
    EXPECT_NE(m.find("--json " + missing), std::string::npos) << m;
    EXPECT_NE(m.find("cannot open for writing"), std::string::npos) << m;
    EXPECT_NE(message_of(dir.string()).find("is a folder"), std::string::npos);
    EXPECT_NE(message_of("").find("empty file name"), std::string::npos);
    fs::remove_all(dir);
}

TEST(OutputPath, AWritablePathPassesAndNothingIsLeftOrLost) {
    const fs::path dir = fs::temp_directory_path() / "nbody_output_path_test2";
    fs::create_directories(dir);
    const fs::path fresh = dir / "new.json", old = dir / "old.csv";
    EXPECT_NO_THROW(check_writable(fresh.string(), "--json"));
    EXPECT_FALSE(fs::exists(fresh));  // the probe leaves no empty file behind
    std::ofstream(old) << "kept\n";
    EXPECT_NO_THROW(check_writable(old.string(), "--save"));
    std::ifstream in(old);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "kept");  // an existing file keeps its contents until the run writes it
    fs::remove_all(dir);
}
