// Colour-map files (src/io/colormap_file.cpp) and the renderer's loading of them with the built-in ramp as
// the fallback (src/render/colormap.cpp); the UI-scale rule for monitors (src/render/display_scale.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include <unistd.h>

#include "core/errors.hpp"
#include "io/colormap_file.hpp"
#include "render/colormap.hpp"
#include "render/display_scale.hpp"

using namespace nbody;
namespace fs = std::filesystem;

namespace {

std::string error_of(const std::string& text) {
    try {
        parse_colormap(text, "m.txt");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// A temporary asset folder with colormaps/<name>.txt holding `text`.
struct AssetDir {
    fs::path dir = fs::temp_directory_path() / ("nbody-colormaps-" + std::to_string(::getpid()));
    AssetDir() { fs::create_directories(dir / "colormaps"); }
    ~AssetDir() { fs::remove_all(dir); }
    void write(const std::string& name, const std::string& text) const {
        std::ofstream(dir / "colormaps" / (name + ".txt"), std::ios::binary) << text;
    }
};

}  // namespace

TEST(ColormapFile, ParsesRowsCommentsBlankLinesAndCrLf) {
    const auto rows = parse_colormap("# a ramp\n\n0 0 0   # black\r\n\t0.5 0.25 1\n1 1 1", "m.txt");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_FLOAT_EQ(rows[1][0], 0.5f);
    EXPECT_FLOAT_EQ(rows[1][1], 0.25f);
    EXPECT_FLOAT_EQ(rows[1][2], 1.0f);
    EXPECT_FLOAT_EQ(rows[2][2], 1.0f);
}

TEST(ColormapFile, AMalformedLineIsReportedWithItsNumber) {
    EXPECT_EQ(error_of("0 0 0\n# ok\n1 1\n"),
              "m.txt:3: expected three numbers 'r g b' in 0..1, found 2 words");
    EXPECT_NE(error_of("0 0 0\n0 0 0 0\n").find("m.txt:2: expected three numbers"), std::string::npos);
    EXPECT_NE(error_of("0 0 0\n0 x 0\n").find("m.txt:2: 'x' is not a number"), std::string::npos);
    EXPECT_NE(error_of("0 0 0\n0 0.5e 0\n").find("m.txt:2: '0.5e' is not a number"), std::string::npos);
    EXPECT_NE(error_of("0 0 0\n\n\n0 1.5 0\n").find("m.txt:4: '1.5' is outside 0..1"), std::string::npos);
    EXPECT_NE(error_of("0 -0.1 0\n1 1 1\n").find("m.txt:1:"), std::string::npos);
    EXPECT_NE(error_of("nan 0 0\n1 1 1\n").find("m.txt:1:"), std::string::npos);
    EXPECT_NE(error_of("inf 0 0\n1 1 1\n").find("m.txt:1:"), std::string::npos);
    EXPECT_NE(error_of("1e999 0 0\n1 1 1\n").find("m.txt:1:"), std::string::npos);
}

TEST(ColormapFile, TooFewOrTooManyRowsAreRefused) {
    EXPECT_EQ(error_of(""), "m.txt: 0 rows; a colour map needs at least 2 ('r g b' lines)");
    EXPECT_NE(error_of("# only\n0 0 0\n").find("1 rows"), std::string::npos);
    std::string many;
    for (std::size_t i = 0; i <= kMaxColormapRows; ++i) many += "0 0 0\n";
    EXPECT_NE(error_of(many).find("m.txt:4097: more than 4096 rows"), std::string::npos);
}

TEST(ColormapFile, AMissingFileIsAnErrorNamingIt) {
    try {
        read_colormap_file("/nonexistent/ember.txt");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "/nonexistent/ember.txt: cannot read (no such file)");
    }
}

TEST(Colormap, ResamplesTheRowsLinearlyFromEndToEnd) {
    const ColormapTable t = resample_colormap({{0, 0, 0}, {1, 0.5f, 0.25f}});
    EXPECT_FLOAT_EQ(t.front().x, 0);
    EXPECT_FLOAT_EQ(t.back().x, 1);
    EXPECT_FLOAT_EQ(t.back().y, 0.5f);
    EXPECT_NEAR(t[128].x, 128.0f / 255.0f, 1e-6f);
}

TEST(Colormap, AMissingFileFallsBackToTheBuiltInRamp) {
    AssetDir a;
    const LoadedColormap m = load_colormap(a.dir.string(), "absent");
    EXPECT_EQ(m.source, "built-in");
    EXPECT_NE(m.error.find("absent.txt: cannot read"), std::string::npos) << m.error;
    EXPECT_EQ(m.table, colormap_table());
}

TEST(Colormap, AMalformedFileFallsBackWithFileAndLine) {
    AssetDir a;
    a.write("bad", "# header\n0 0 0\n0.5 0.5\n1 1 1\n");
    const LoadedColormap m = load_colormap(a.dir.string(), "bad");
    EXPECT_EQ(m.source, "built-in");
    EXPECT_NE(m.error.find("bad.txt:3: expected three numbers"), std::string::npos) << m.error;
    EXPECT_EQ(m.table, colormap_table());
}

TEST(Colormap, AGoodFileIsUsed) {
    AssetDir a;
    a.write("grey", "0 0 0\n1 1 1\n");
    const LoadedColormap m = load_colormap(a.dir.string(), "grey");
    EXPECT_TRUE(m.error.empty()) << m.error;
    EXPECT_NE(m.source.find("grey.txt"), std::string::npos);
    EXPECT_FLOAT_EQ(m.table[255].y, 1.0f);
    EXPECT_NEAR(m.table[51].z, 0.2f, 1e-6f);
}

// tools/make_colormaps.py writes ember.txt from the same control points the fallback is built from.
TEST(Colormap, TheShippedEmberFileMatchesTheBuiltInRamp) {
    const LoadedColormap m = load_colormap(std::string(NBODY_SOURCE_DIR) + "/assets");
    ASSERT_TRUE(m.error.empty()) << m.error;
    const ColormapTable builtin = colormap_table();
    for (int i = 0; i < kColormapSize; ++i)
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(m.table[i][c], builtin[i][c], 2e-6f) << i << " " << c;
}

TEST(DisplayScale, DeskMonitorsFollowTheirContentScaleAndDensity) {
    EXPECT_EQ(ui_scale_for_display({1, 531, 299, 1920, 1080}), 1.0f);   // 24" 1080p, 3.6 px/mm
    EXPECT_EQ(ui_scale_for_display({2, 302, 189, 2880, 1800}), 2.5f);   // a HiDPI laptop: its density wins
    EXPECT_EQ(ui_scale_for_display({1, 597, 336, 3840, 2160}), 1.75f);  // 27" 4K where X11 says scale 1
    EXPECT_EQ(ui_scale_for_display({1.5f, 0, 0, 1920, 1080}), 1.5f);    // size unknown: the desktop's setting
}

TEST(DisplayScale, FarScreensGetALineOfAThirtySixthOfTheirHeight) {
    EXPECT_EQ(ui_scale_for_display({1, 2000, 1125, 1920, 1080}), 2.0f);  // a projector at 1080p: 1080/576
    EXPECT_EQ(ui_scale_for_display({1, 1600, 900, 1280, 720}), 1.25f);
    EXPECT_EQ(ui_scale_for_display({1, 1440, 810, 3840, 2160}), 3.0f);  // a 65" 4K TV: clamped
}

TEST(DisplayScale, NonsenseIsClamped) {
    EXPECT_EQ(ui_scale_for_display({0, 0, 0, 0, 0}), 1.0f);
    EXPECT_EQ(ui_scale_for_display({-3, 5, 5, 100000, 100000}), 3.0f);
    EXPECT_EQ(ui_scale_for_display({std::numeric_limits<float>::quiet_NaN(), 0, 0, 0, 0}), 1.0f);
    EXPECT_EQ(ui_scale_for_display({0.5f, 0, 0, 800, 600}), 1.0f);
}

TEST(ColormapFile, AFolderInPlaceOfTheFileIsAnError) {
    EXPECT_THROW(read_colormap_file(fs::temp_directory_path().string()), Error);
}
