// The panels at projector scales (a headless GL context, no platform window: the display size is given to
// Ui::new_frame): no two panels overlap at UI scales 1, 1.5 and 2 in 1280x720 and 1600x900; DejaVu Sans is
// loaded at the scaled pixel size when installed; the presentation layout shows only its windows; the
// scene card comes and goes; a panel the ini file places stays where the user put it; every shipped scene's
// name is whole in the Scene panel's list.
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName, the window list: which windows were built, and where

#include <cfloat>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

#include "gl_test_util.hpp"
#include "panel_rig.hpp"
#include "scene/scene_file.hpp"
#include "ui/panels.hpp"  // break_at_spaces
#include "ui/ui.hpp"
#include "ui_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

bool dejavu_installed() {
    return !find_ui_font().path.empty();
}

// The shipped scenes, named and counted as the sandbox's Scene panel lists them.
std::vector<SceneEntry> shipped_scenes() {
    std::vector<SceneEntry> out;
    for (const auto& f : std::filesystem::directory_iterator(std::string(NBODY_SOURCE_DIR) + "/scenes")) {
        const SceneSpec s = load_scene_file(f.path().string());
        out.push_back({f.path().string(), s.name, s.description, s.total_bodies()});
    }
    return out;
}

// The Scene panel's list box (its only child window) when it was drawn last frame.
const ImGuiWindow* scene_list_box() {
    const ImGuiWindow* scene = ImGui::FindWindowByName("Scene");
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if (w->Active && w->ParentWindow == scene && (w->Flags & ImGuiWindowFlags_ChildWindow)) return w;
    return nullptr;
}

}  // namespace

TEST(PanelLayout, NothingOverlapsAtProjectorScales) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{1600, 900}, std::pair{1920, 1080}}) {
        for (const float scale : {1.0f, 1.5f, 2.0f}) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " scale " + std::to_string(scale));
            Rig rig(*ctx, scale);
            rig.frames(10, w, h);
            const std::vector<Rect> rects = active_windows();
            std::set<std::string> names;
            for (const Rect& r : rects) {
                names.insert(r.name);
                EXPECT_GE(r.x0, 0) << r.name;
                EXPECT_GE(r.y0, 0) << r.name;
                EXPECT_LE(r.x1, float(w)) << r.name;
                EXPECT_LE(r.y1, float(h)) << r.name;
            }
            EXPECT_EQ(names, (std::set<std::string>{"Scene", "Physics", "Kernel", "Timeline", "View", "Measure",
                                                    "Performance", "Diagnostics", "Legend"}));
            for (std::size_t i = 0; i < rects.size(); ++i)
                for (std::size_t j = i + 1; j < rects.size(); ++j)
                    EXPECT_FALSE(overlap(rects[i], rects[j])) << rects[i].name << " and " << rects[j].name;
            // The scene comes first: the free area beside the column is where the panels are not, and at scale 1
            // in 1280x720 the panels cover at most 40% of the window.
            const Rect free{"free", rig.state.scene_left + 1, 0, rig.state.scene_right - 1, float(h)};
            float covered = 0;
            for (const Rect& r : rects) {
                if (r.name == "Legend") continue;
                EXPECT_FALSE(overlap(r, free)) << r.name << " spans x " << r.x0 << " to " << r.x1;
                covered += (r.x1 - r.x0) * (r.y1 - r.y0);
            }
            if (scale == 1.0f && w == 1280) {
                EXPECT_LE(covered, 0.4f * float(w * h));
            }
            // No widget cut at a panel's edge (items wider than the window's inner width).
            EXPECT_EQ(clipped_items(), "");
            // Not passing by folding everything: Scene stays open, and at scale 1 Physics too.
            EXPECT_FALSE(collapsed("Scene"));
            if (scale == 1.0f) {
                EXPECT_FALSE(collapsed("Physics"));
            }
            // The text follows the scale (a font rasterised at that size, not a stretched bitmap).
            EXPECT_NEAR(ImGui::GetFontSize(), (dejavu_installed() ? 16.0f : 13.0f) * scale, 0.5f);
            EXPECT_FLOAT_EQ(ImGui::GetIO().FontGlobalScale, 1.0f);
        }
    }
}

// A scene's name in the list is read whole at a projector's 1280x720 from UI scale 1 to 1.5: no row is wider
// than the list box (a list box does not scroll sideways, so a longer row is cut at its right edge). The
// Scene panel is scrolled down its length, as a user would, until the list has shown.
TEST(PanelLayout, EveryShippedSceneNameFitsTheSceneListAt1280x720) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    const std::vector<SceneEntry> scenes = shipped_scenes();
    ASSERT_GE(scenes.size(), 10u);
    for (const float scale : {1.0f, 1.25f, 1.5f}) {
        SCOPED_TRACE("scale " + std::to_string(scale));
        Rig rig(*ctx, scale);
        rig.view.scenes = &scenes;
        rig.frames(10, 1280, 720);
        bool seen = false;
        for (int k = 0; k < 20 && !seen; ++k) {
            if (scene_list_box()) {
                seen = true;
                // A child window's content size is its previous frame's, and its scroll bar comes a frame
                // after its first.
                rig.frames(2, 1280, 720);
                const ImGuiWindow* list = scene_list_box();
                ASSERT_NE(list, nullptr);
                EXPECT_LE(list->ContentSize.x, list->ContentRegionRect.GetWidth() + 1)
                    << "a row is cut at the list's right edge";
            } else {
                ImGuiWindow* panel = ImGui::FindWindowByName("Scene");
                ASSERT_LT(panel->Scroll.y, panel->ScrollMax.y) << "scrolled to the end without the list";
                ImGui::SetScrollY(panel, panel->Scroll.y + ImGui::GetFontSize());
                rig.frames(1, 1280, 720);
            }
        }
        EXPECT_TRUE(seen) << "the scene list never showed";
        EXPECT_EQ(clipped_items(), "");
    }
}

TEST(PanelLayout, ARescaleRelaysTheColumnsOut) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    Rig rig(*ctx, 1.0f);
    rig.frames(10, 1280, 720);
    const ImVec2 physics = ImGui::FindWindowByName("Physics")->Pos;
    rig.state.ui_scale = 2.0f;  // as the View panel's slider sets it
    rig.frames(10, 1280, 720);
    EXPECT_NEAR(ImGui::GetFontSize(), (dejavu_installed() ? 32.0f : 26.0f), 0.5f);
    // Relaid: the taller Scene panel pushes Physics down its column, or (the smaller fallback font, where
    // DejaVu is missing) into the next column.
    const ImVec2 moved = ImGui::FindWindowByName("Physics")->Pos;
    EXPECT_TRUE(moved.y > physics.y || moved.x != physics.x) << moved.x << ", " << moved.y;
    const std::vector<Rect> rects = active_windows();
    for (std::size_t i = 0; i < rects.size(); ++i)
        for (std::size_t j = i + 1; j < rects.size(); ++j)
            EXPECT_FALSE(overlap(rects[i], rects[j])) << rects[i].name << " and " << rects[j].name;
}

TEST(PanelLayout, DejaVuSansLoadsAtTheScaledSizeWhenInstalled) {
    if (!dejavu_installed()) GTEST_SKIP() << "DejaVu Sans is not installed (apt install fonts-dejavu-core)";
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    Rig rig(*ctx, 1.5f);
    rig.frames(2, 1280, 720);
    EXPECT_EQ(rig.ui.fonts().status.rfind("DejaVu Sans 24 px (", 0), 0u) << rig.ui.fonts().status;
    ASSERT_NE(rig.ui.fonts().huge, nullptr);
    EXPECT_FLOAT_EQ(rig.ui.fonts().huge->FontSize, 66.0f);  // 2.75 x 24
    EXPECT_NE(ImGui::GetIO().Fonts->TexID, nullptr);        // uploaded by the OpenGL3 backend
}

TEST(PanelLayout, ABadFontOverrideFallsBackWithTheReason) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    const auto junk = std::filesystem::temp_directory_path() / "nbody-not-a-font.ttf";
    std::ofstream(junk) << "not a font";
    ::setenv("NBODY_FONT", junk.c_str(), 1);
    const FontChoice c = find_ui_font();
    {
        Rig rig(*ctx, 1.0f);  // must not crash on the junk file
        rig.frames(2, 640, 480);
        EXPECT_NE(rig.ui.fonts().status.find("px ("), std::string::npos);
    }
    ::unsetenv("NBODY_FONT");
    std::filesystem::remove(junk);
    EXPECT_NE(c.path, junk.string());
    EXPECT_NE(c.note.find("NBODY_FONT=" + junk.string() + ": not a readable"), std::string::npos) << c.note;
}

TEST(PanelLayout, PresentationShowsOnlyScenePhysicsAndTheReadOut) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    for (const auto& [w, h, scale] : {std::tuple{1280, 720, 1.0f}, std::tuple{1280, 720, 1.5f},
                                      std::tuple{1280, 720, 2.0f}, std::tuple{1920, 1080, 1.0f},
                                      std::tuple{1920, 1080, 1.5f}, std::tuple{1920, 1080, 2.0f}}) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " scale " + std::to_string(scale));
        Rig rig(*ctx, scale);
        rig.frames(10, w, h);  // the full layout first (at scale 2 it folds Physics), then P
        rig.state.presentation = true;
        rig.frames(10, w, h);
        EXPECT_EQ(clipped_items(), "");  // item rectangles, not only windows: "Reset" is not cut to "Re"
        EXPECT_FALSE(collapsed("Physics")) << "the presentation layout re-decides what fits";
        std::set<std::string> names;
        const std::vector<Rect> rects = active_windows();
        for (const Rect& r : rects) names.insert(r.name);
        EXPECT_EQ(names, (std::set<std::string>{"Scene", "Physics", "Read-out", "Legend"})) << scale;
        for (std::size_t i = 0; i < rects.size(); ++i)
            for (std::size_t j = i + 1; j < rects.size(); ++j)
                EXPECT_FALSE(overlap(rects[i], rects[j])) << rects[i].name << " and " << rects[j].name;
        for (const Rect& r : rects) {  // inside the viewport
            EXPECT_GE(r.x0, 0) << r.name;
            EXPECT_GE(r.y0, 0) << r.name;
            EXPECT_LE(r.x1, float(w)) << r.name;
            EXPECT_LE(r.y1, float(h)) << r.name;
        }
        rig.state.presentation = false;  // P again: every panel is back
        rig.frames(3, w, h);
        EXPECT_TRUE(ImGui::FindWindowByName("Kernel")->Active);
    }
}

TEST(PanelLayout, TheSceneCardShowsOnLoadAndGoesAfterFifteenSeconds) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    Rig rig(*ctx, 1.0f);
    rig.view.scene_description = "Watch the tails form after the first passage (t = 20).";
    rig.frames(3, 1280, 720);
    const ImGuiWindow* card = ImGui::FindWindowByName(DescriptionCard::kTitle);
    ASSERT_NE(card, nullptr);
    EXPECT_TRUE(card->Active);
    // The runs line's measured rates change every second where the backend does not keep up: the card's
    // clock goes on (it was restarted by each new rate, so the card never closed).
    for (int s = 0; s < 16; ++s) {
        rig.view.scene_runs = "Runs: direct summation. Here about " + std::to_string(5 + s % 3) + " steps/s.";
        rig.frames(1, 1280, 720, 1.0);
    }
    EXPECT_FALSE(ImGui::FindWindowByName(DescriptionCard::kTitle)->Active);
    rig.view.scene_name = "another";  // a new scene loads: its card shows again
    rig.frames(2, 1280, 720);
    EXPECT_TRUE(ImGui::FindWindowByName(DescriptionCard::kTitle)->Active);
}

// The presentation layout's card, with the default scene's words and a runs line as long as a slow machine
// writes: its Dismiss row is in sight at every projector size (the card itself never scrolls; the words do
// where even the smallest type does not fit), and where the short columns leave room under them it lies
// there, across the window, so the bodies keep the free area above it. Where it goes depends on the type's
// widths: asserted with DejaVu Sans (the package's font); with ImGui's own narrow font, only that a card
// under the panels frames the bodies above it.
TEST(PanelLayout, ThePresentationCardKeepsDismissInSightAndLiesUnderShortColumns) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    const SceneSpec eight = load_scene_file(NBODY_SOURCE_DIR "/scenes/figure8-3.toml");
    for (const auto& [w, h, scale, across] :
         {std::tuple{1280, 720, 1.0f, true}, std::tuple{1280, 720, 1.5f, false},
          std::tuple{1280, 720, 2.0f, false}, std::tuple{1920, 1080, 1.0f, true},
          std::tuple{1920, 1080, 1.5f, true}, std::tuple{1920, 1080, 2.0f, false}}) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " scale " + std::to_string(scale));
        Rig rig(*ctx, scale);
        rig.view.scene_name = eight.name;
        rig.view.scene_watch = eight.watch;
        rig.view.scene_runs =
            "Runs: direct summation, leapfrog at dt 1/64, 4 steps a frame. Here about 0.94 a "
            "frame (4.36 steps/s at 4.69 frames/s): this backend does not keep up with 4 a "
            "frame at this N, and the frames do not wait for it.";
        rig.state.presentation = true;
        rig.frames(10, w, h);
        const ImGuiWindow* card = ImGui::FindWindowByName(DescriptionCard::kTitle);
        ASSERT_TRUE(card && card->Active);
        EXPECT_LE(card->ScrollMax.y, 0.5f) << "the Dismiss row is scrolled out of the card: " << card->Size.y
                                           << " px high, " << card->ContentSize.y << " px of content";
        EXPECT_GE(card->Pos.y, 0);
        EXPECT_LE(card->Pos.y + card->Size.y, float(h));
        const Rect c{"card", card->Pos.x, card->Pos.y, card->Pos.x + card->Size.x,
                     card->Pos.y + card->Size.y};
        float panels_bottom = 0;
        for (const Rect& r : active_windows())
            if (r.name == "Physics" || r.name == "Scene" || r.name == "Read-out")
                panels_bottom = std::max(panels_bottom, r.y1);
        if (dejavu_installed()) {
            EXPECT_EQ(c.y0 >= panels_bottom, across)
                << "card " << c.y0 << " to " << c.y1 << ", panels to " << panels_bottom;
            if (across) {
                EXPECT_GE(c.x1 - c.x0, 0.5f * float(w));  // across the window
            }
        }
        if (c.y0 >= panels_bottom) {
            EXPECT_LE(rig.state.scene_bottom, c.y0);
        }
    }
}

// The card's words break at spaces only: a rate ("4.53 steps/s") is never split at its point, as ImGui's own
// wrap splits it; each line with more than one word fits the width, and the next word would not have.
TEST(PanelLayout, WordsBreakAtSpacesAndKeepNumbersWhole) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    Rig rig(*ctx, 1.0f);
    rig.frames(1, 1280, 720);
    const ImFont* font = ImGui::GetFont();
    const std::string text =
        "Runs: direct summation, leapfrog at dt 1/64, 4 steps a frame. Here about 0.94 a frame "
        "(4.53 steps/s at 4.81 frames/s): this backend does not keep up.\n\nWatch them cross.";
    auto width = [&](const std::string& s) {
        return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, s.c_str()).x;
    };
    for (float w = 30; w < 900; w += 7) {
        SCOPED_TRACE(w);
        const std::string broken = break_at_spaces(font, text, w);
        std::string back = broken;
        for (std::size_t i = 0; i < back.size(); ++i)  // the breaks it added were spaces
            if (back[i] == '\n' && text[i] == ' ') back[i] = ' ';
        ASSERT_EQ(back, text);
        std::size_t start = 0;
        while (start <= broken.size()) {
            const std::size_t end = std::min(broken.find('\n', start), broken.size());
            const std::string line = broken.substr(start, end - start);
            if (line.find(' ') != std::string::npos) {
                EXPECT_LE(width(line), w) << line;
            }
            if (end < broken.size() && text[end] == ' ') {  // a break it added: the next word did not fit
                const std::size_t next = std::min(broken.find_first_of(" \n", end + 1), broken.size());
                EXPECT_GT(width(line + " " + broken.substr(end + 1, next - end - 1)), w) << line;
            }
            start = end + 1;
        }
    }
}

TEST(PanelLayout, APanelTheIniFilePlacesStaysWhereTheUserPutIt) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    const auto ini = std::filesystem::temp_directory_path() / "nbody-layout-test.ini";
    std::ofstream(ini) << "[Window][Scene]\nPos=500,300\nSize=300,200\nCollapsed=0\n";
    {
        Rig rig(*ctx, 1.0f, ini.string());
        rig.frames(10, 1280, 720);
        const ImGuiWindow* scene = ImGui::FindWindowByName("Scene");
        EXPECT_FLOAT_EQ(scene->Pos.x, 500);
        EXPECT_FLOAT_EQ(scene->Pos.y, 300);
        // Physics is still the layout's: the top of the left column, now that Scene is elsewhere.
        EXPECT_LT(ImGui::FindWindowByName("Physics")->Pos.y, 50);
    }
    std::filesystem::remove(ini);
}

TEST(PanelLayout, APanelTheUserDragsStaysWhereItWasDropped) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    Rig rig(*ctx, 1.0f);
    rig.frames(10, 1280, 720);
    const ImVec2 start = ImGui::FindWindowByName("Scene")->Pos;
    ImGuiIO& io = ImGui::GetIO();
    // Press on the title bar, move the mouse 150 right and 240 down over a few frames, let go.
    io.MousePos = ImVec2(start.x + 80, start.y + ImGui::GetFontSize() * 0.5f + 2);
    io.MouseDown[0] = true;
    rig.frames(2, 1280, 720);
    for (int i = 1; i <= 3; ++i) {
        io.MousePos.x += 50, io.MousePos.y += 80;
        rig.frames(1, 1280, 720);
    }
    io.MouseDown[0] = false;
    rig.frames(10, 1280, 720);
    const ImGuiWindow* scene = ImGui::FindWindowByName("Scene");
    EXPECT_NEAR(scene->Pos.x, start.x + 150, 1);
    EXPECT_NEAR(scene->Pos.y, start.y + 240, 1);
    EXPECT_FALSE(scene->Flags & ImGuiWindowFlags_NoSavedSettings);      // the ini file keeps it now
    EXPECT_LT(ImGui::FindWindowByName("Physics")->Pos.y, start.y + 1);  // the column closes up
}

// The marks over the scene: PAUSED while paused (not while running), the quit hint after one Esc, a status
// message for a few seconds; all in the free area, none over a panel.
TEST(PanelLayout, PausedQuitHintAndMessagesShowOverTheScene) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    Rig rig(*ctx, 1.0f);
    auto vertices = [](ImDrawList* dl) { return dl->VtxBuffer.Size; };
    rig.sim.set_paused(false);
    rig.frames(3, 1280, 720);
    const int running = vertices(ImGui::GetBackgroundDrawList());
    rig.sim.set_paused(true);
    rig.frames(1, 1280, 720);
    const int paused = vertices(ImGui::GetBackgroundDrawList());
    EXPECT_GT(paused, running + 4 * 6);  // "PAUSED": at least a quad per letter more
    const ImDrawList* bg = ImGui::GetBackgroundDrawList();
    for (int i = running; i < paused; ++i)  // the mark lies in the free area, right of the column
        EXPECT_GE(bg->VtxBuffer[i].pos.x, rig.state.scene_left - 1) << i;
    const int no_hint = vertices(ImGui::GetForegroundDrawList());
    rig.state.quit_hint = true;
    rig.frames(1, 1280, 720);
    EXPECT_GT(vertices(ImGui::GetForegroundDrawList()), no_hint + 20);
    rig.state.quit_hint = false;
    rig.state.message = "saved screenshot.png";
    rig.frames(1, 1280, 720);
    EXPECT_GT(vertices(ImGui::GetBackgroundDrawList()), paused + 20);
    rig.frames(8, 1280, 720, 1.0);  // 8 s later the message is gone from the scene
    EXPECT_EQ(vertices(ImGui::GetBackgroundDrawList()), paused);
}
