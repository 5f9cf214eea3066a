// Snapshot files by format (io/snapshot_file): the extension picks CSV, tipsy or HDF5 in one place, each
// writes and reads back through the same two calls, and any other name is one error naming the file and the
// formats.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/errors.hpp"
#include "io/hdf5_snapshot.hpp"
#include "io/snapshot_file.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {
std::string temp(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("nbody_snapshot_file_" + name)).string();
}

std::string error_of(const std::string& path) {
    try {
        snapshot_format_of(path);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(SnapshotFile, TheExtensionPicksTheFormat) {
    EXPECT_EQ(snapshot_format_of("a/b.csv"), SnapshotFormat::Csv);
    EXPECT_EQ(snapshot_format_of("b.CSV"), SnapshotFormat::Csv);
    for (const char* p : {"b.tipsy", "b.std", "c/b.bin"})
        EXPECT_EQ(snapshot_format_of(p), SnapshotFormat::Tipsy) << p;
    for (const char* p : {"b.hdf5", "b.h5", "b.H5"})
        EXPECT_EQ(snapshot_format_of(p), SnapshotFormat::Hdf5) << p;
    EXPECT_TRUE(is_tipsy_path("x.std"));
    EXPECT_FALSE(is_tipsy_path("x.csv"));
    EXPECT_TRUE(is_hdf5_path("x.h5"));
    EXPECT_FALSE(is_hdf5_path("x.dat"));
}

TEST(SnapshotFile, AnUnknownNameIsOneErrorNamingTheFileAndTheFormats) {
    const std::string formats =
        "the formats are CSV (*.csv), tipsy (*.tipsy, *.std, *.bin) or HDF5 (*.hdf5, *.h5)";
    EXPECT_EQ(error_of("out/run.dat"), "out/run.dat: unknown extension '.dat' for a snapshot; " + formats);
    EXPECT_EQ(error_of("final"), "final: no extension for a snapshot; " + formats);
    const std::string path = temp("unknown.txt");
    std::filesystem::remove(path);
    EXPECT_THROW(write_snapshot(test::plummer_state(4), {}, path), Error);
    EXPECT_FALSE(std::filesystem::exists(path));  // refused before anything is written
    EXPECT_THROW(read_snapshot(path), Error);
}

// CSV and HDF5 keep every bit, G, eps, dt and the scene; tipsy float32 values and the time.
TEST(SnapshotFile, EachFormatReadsBackWhatItKeeps) {
    State s = test::plummer_state(64, 3);
    s.time = 2.5;
    const SnapshotInfo info{1.5, 0.05, 0.0078125, "Plummer"};
    for (const char* ext : {".csv", ".hdf5"}) {
        if (std::string(ext) == ".hdf5" && !hdf5_supported()) continue;
        const std::string path = temp(std::string("exact") + ext);
        write_snapshot(s, info, path);
        const Snapshot back = read_snapshot(path);
        EXPECT_TRUE(test::bit_identical(back.state, s)) << ext;
        EXPECT_EQ(back.state.group, s.group) << ext;
        EXPECT_EQ(back.info.G, info.G) << ext;
        EXPECT_EQ(back.info.eps, info.eps) << ext;
        EXPECT_EQ(back.info.dt, info.dt) << ext;
        EXPECT_EQ(back.info.scene, info.scene) << ext;
        std::filesystem::remove(path);
    }
    const std::string path = temp("float32.tipsy");
    write_snapshot(s, info, path);
    const Snapshot back = read_snapshot(path);
    ASSERT_EQ(back.state.size(), s.size());
    EXPECT_EQ(back.state.time, 2.5);
    for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(back.state.pos_mass[i].x, double(float(s.pos_mass[i].x)));
        EXPECT_EQ(back.state.vel[i].z, double(float(s.vel[i].z)));
    }
    std::filesystem::remove(path);
}
