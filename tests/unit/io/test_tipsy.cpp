// Tipsy snapshots: both byte orders read, errors give the byte offset, and a tipsy file works as a scene
// component (centred, scaled to the component's mass, fixed body count).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/errors.hpp"
#include "io/snapshot_file.hpp"
#include "io/tipsy.hpp"
#include "scene/scene_file.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {

// Appends v in big- or native-endian byte order.
template <class T>
void put(std::vector<unsigned char>& out, T v, bool big) {
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, &v, sizeof(T));
    if (big != (std::endian::native == std::endian::big))
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(raw[i], raw[sizeof(T) - 1 - i]);
    for (unsigned char c : raw) out.push_back(c);
}

// One gas particle, two dark-matter particles, one star: body k has mass k + 1 and x = 10 k.
std::vector<unsigned char> tipsy_bytes(bool big) {
    std::vector<unsigned char> b;
    put(b, 2.5, big);
    for (int32_t v : {4, 3, 1, 2, 1, 0}) put(b, v, big);
    const std::size_t floats[] = {12, 9, 9, 11};
    for (int k = 0; k < 4; ++k)
        for (std::size_t f = 0; f < floats[k]; ++f)
            put(b, f == 0 ? float(k + 1) : f == 1 ? float(10 * k) : f == 5 ? 0.5f : 0.f, big);
    return b;
}

std::string write(const std::string& name, const std::vector<unsigned char>& bytes) {
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), long(bytes.size()));
    return path.string();
}

std::string error_of(const std::string& path) {
    try {
        read_tipsy(path);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Tipsy, ReadsBothByteOrders) {
    for (bool big : {true, false}) {
        const State s = read_tipsy(write("nbody_test.tipsy", tipsy_bytes(big)));
        ASSERT_EQ(s.size(), 4u);
        EXPECT_EQ(s.time, 2.5);
        EXPECT_EQ(s.pos_mass[3].w, 4.f);
        EXPECT_EQ(s.pos_mass[3].x, 30.f);
        EXPECT_EQ(s.vel[2].y, 0.5f);
        EXPECT_EQ(s.group[0], 0u);
        EXPECT_EQ(s.group[2], 1u);
        EXPECT_EQ(s.group[3], 2u);
        EXPECT_EQ(read_tipsy_header(write("nbody_test.tipsy", tipsy_bytes(big))).big_endian, big);
    }
}

TEST(Tipsy, ErrorsNameTheByteOffset) {
    auto bytes = tipsy_bytes(true);
    EXPECT_NE(error_of(write("nbody_short.tipsy", {bytes.begin(), bytes.begin() + 20}))
                  .find("byte 20: file ends inside the 32-byte header"),
              std::string::npos);
    EXPECT_NE(error_of(write("nbody_cut.tipsy", {bytes.begin(), bytes.end() - 4})).find("byte 8: not a tipsy header"),
              std::string::npos);
    // NaN in the second body's y (gas record 48 bytes, then mass, x: offset 32 + 48 + 8)
    const float nan = std::nanf("");
    unsigned char raw[4];
    std::memcpy(raw, &nan, 4);
    if (std::endian::native == std::endian::little) std::swap(raw[0], raw[3]), std::swap(raw[1], raw[2]);
    std::memcpy(bytes.data() + 32 + 48 + 8, raw, 4);
    EXPECT_NE(error_of(write("nbody_nan.tipsy", bytes)).find("byte 88: not a finite number"), std::string::npos);
    EXPECT_THROW(read_tipsy("/nonexistent.tipsy"), Error);
}

TEST(Tipsy, WorksAsASceneComponent) {
    const std::string file = write("nbody_component.tipsy", tipsy_bytes(false));
    const auto scene_path = std::filesystem::temp_directory_path() / "nbody_tipsy_scene.toml";
    std::ofstream(scene_path) << "[[component]]\ntype = \"tipsy\"\nfile = \"nbody_component.tipsy\"\nmass = 2.0\n"
                                 "position = [1, 0, 0]\n[[component]]\ntype = \"plummer\"\nn = 10\n";
    SceneSpec s = load_scene_file(scene_path.string());
    EXPECT_EQ(s.components[0].n, 4u);
    rescale_bodies(s, 24);  // the tipsy component keeps its 4 bodies
    EXPECT_EQ(s.components[0].n, 4u);
    const State st = build_scene(s);
    double m = 0, mx = 0;
    for (std::size_t i = 0; i < 4; ++i) m += st.pos_mass[i].w, mx += st.pos_mass[i].w * st.pos_mass[i].x;
    EXPECT_NEAR(m, 2.0, 1e-6);       // masses 1:2:3:4 scaled to the component's mass
    EXPECT_NEAR(mx / m, 1.0, 1e-5);  // centred, then placed at position
    std::ofstream(scene_path) << "[[component]]\ntype = \"tipsy\"\nfile = \"missing.tipsy\"\n";
    try {
        load_scene_file(scene_path.string());
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.line, 3);
        EXPECT_NE(std::string(e.what()).find("field 'component[0].file'"), std::string::npos) << e.what();
    }
}

// Export: a written tipsy file reads back as the same bodies rounded to float32 (the format's precision),
// as dark matter, big-endian (the standard byte order), with the state's time; an unwritable path throws.
TEST(TipsyWriter, RoundTripsThroughTheReader) {
    nbody::State s = nbody::test::plummer_state(257, 3);
    s.time = 1.25;
    const std::string path = (std::filesystem::temp_directory_path() / "nbody_roundtrip.tipsy").string();
    nbody::write_tipsy(s, 0.01, path);
    const nbody::TipsyHeader h = nbody::read_tipsy_header(path);
    EXPECT_TRUE(h.big_endian);
    EXPECT_EQ(h.ndark, 257u);
    const nbody::State r = nbody::read_tipsy(path);
    ASSERT_EQ(r.size(), s.size());
    EXPECT_EQ(r.time, 1.25);
    for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(r.pos_mass[i].x, static_cast<double>(static_cast<float>(s.pos_mass[i].x))) << i;
        EXPECT_EQ(r.pos_mass[i].w, static_cast<double>(static_cast<float>(s.pos_mass[i].w))) << i;
        EXPECT_EQ(r.vel[i].z, static_cast<double>(static_cast<float>(s.vel[i].z))) << i;
        EXPECT_EQ(r.group[i], 1u);  // dark matter
    }
    EXPECT_TRUE(nbody::is_tipsy_path("a/b.tipsy"));
    EXPECT_FALSE(nbody::is_tipsy_path("a/b.csv"));
    EXPECT_THROW(nbody::write_tipsy(s, 0.01, "/nonexistent/x.tipsy"), nbody::Error);
    std::filesystem::remove(path);
}
