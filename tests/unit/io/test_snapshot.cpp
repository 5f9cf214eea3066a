// CSV snapshots: save and reload give the same state bit for bit, a reloaded state steps exactly like the
// one that never left memory, and malformed files are errors that name the line.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "io/snapshot.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {

bool same_bits(const State& a, const State& b) {
    return a.size() == b.size() && a.group == b.group && a.time == b.time &&
           std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Float4)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Float4)) == 0;
}

State cartwheel_small() {
    SceneSpec s = load_scene_file(NBODY_SOURCE_DIR "/scenes/cartwheel.toml");
    rescale_bodies(s, 600);
    return build_scene(s);
}

std::string error_of(const std::string& text) {
    try {
        parse_snapshot_csv(text, "snap.csv");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Snapshot, RoundTripsBitForBitAndStepsIdentically) {
    SimParams p;
    p.dt = 1.0 / 128, p.eps = 0.01;
    CpuBackend a(1);
    a.reset(cartwheel_small(), p);
    a.step(7);  // a time that is not a short decimal: 7/128
    State mid;
    a.read_state(mid);
    const auto path = std::filesystem::temp_directory_path() / "nbody_snapshot_test.csv";
    write_snapshot_csv(mid, {p.G, p.eps, p.dt, "Cartwheel"}, path.string());
    const Snapshot back = read_snapshot_csv(path.string());
    std::filesystem::remove(path);
    ASSERT_TRUE(same_bits(mid, back.state));
    EXPECT_EQ(back.info.scene, "Cartwheel");
    EXPECT_EQ(*back.info.dt, p.dt);
    EXPECT_EQ(*back.info.eps, p.eps);

    // Continue the original and a fresh backend from the reloaded state: same bits after 5 more steps.
    CpuBackend b(2);
    b.reset(back.state, p);
    a.step(5), b.step(5);
    State sa, sb;
    a.read_state(sa), b.read_state(sb);
    EXPECT_TRUE(same_bits(sa, sb));
}

TEST(Snapshot, ReadsTheCommonFormatWithoutGroups) {
    const Snapshot s =
        parse_snapshot_csv("# time = 1.5\nid,mass,x,y,z,vx,vy,vz\n0,1,2,3,4,5,6,7\n1,0.5,0,0,0,0,0,0\n", "s");
    ASSERT_EQ(s.state.size(), 2u);
    EXPECT_EQ(s.state.time, 1.5);
    EXPECT_EQ(s.state.pos_mass[0].z, 4.f);
    EXPECT_EQ(s.state.vel[0].z, 7.f);
    EXPECT_EQ(s.state.group[1], 0u);
    EXPECT_FALSE(s.info.G.has_value());
}

TEST(Snapshot, MalformedFilesNameTheLine) {
    const std::string cols = "id,group,mass,x,y,z,vx,vy,vz\n";
    EXPECT_EQ(error_of(cols + "0,0,1,2,3,4,5,6\n"), "snap.csv:2: expected 9 comma-separated values, got 8");
    EXPECT_EQ(error_of(cols + "0,0,1,2,x3,4,5,6,7\n"),
              "snap.csv:2: column 'y': expected a finite number, got 'x3'");
    EXPECT_EQ(error_of("# N = 2\n" + cols + "0,0,1,2,3,4,5,6,7\n"),
              "snap.csv:3: the header says N = 2 but there are 1 bodies");
    EXPECT_EQ(error_of(cols + "0,0,1,2,3,4,5,6,7\n5,0,1,2,3,4,5,6,7\n"),
              "snap.csv:3: column 'id': expected 1 (bodies in order), got '5'");
    EXPECT_EQ(error_of(cols + "0,0,-1,2,3,4,5,6,7\n"), "snap.csv:2: column 'mass': must be >= 0");
    EXPECT_EQ(error_of(cols + "0,0,1,2,3,nan,5,6,7\n"), "snap.csv:2: column 'z': expected a finite number, got 'nan'");
    EXPECT_NE(error_of("x,y,z\n1,2,3\n").find("snap.csv:1: expected the column line"), std::string::npos);
    EXPECT_NE(error_of("# time = soon\n" + cols).find("snap.csv:1: column 'time'"), std::string::npos);
    EXPECT_NE(error_of("").find("no column line"), std::string::npos);
    EXPECT_THROW(read_snapshot_csv("/nonexistent/snap.csv"), Error);
}
