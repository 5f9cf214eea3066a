// The Measure panel at a projector's 1280x720, at UI scales 1 and 1.5, in the usual and the presentation
// layout: with a body picked and a second one for the ruler in the two-body and three-body scenes, the panel
// shows, no read-out runs past its right edge (a panel scrolls only vertically, so a cut line could never be
// read), and what does not fit in its height is reached by scrolling the panel with the mouse wheel.
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName: the panel's size, content size and scroll

#include <memory>
#include <string>

#include "core/physics/unit_words.hpp"
#include "core/session/measurements.hpp"
#include "drawn_text.hpp"
#include "gl_test_util.hpp"
#include "panel_rig.hpp"
#include "scene/group_labels.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 1280, kH = 720;

struct PickedScene {
    std::unique_ptr<Simulation> sim = cpu_simulation();
    PhysicalUnits units;
    std::vector<std::string> group_names;
};

PickedScene load(const std::string& name) {
    PickedScene out;
    const SceneSpec spec = load_scene_file(std::string(NBODY_SOURCE_DIR) + "/scenes/" + name + ".toml");
    SimParams p = spec.apply_to({});
    p.backend = BackendKind::Cpu;
    p.cpu_threads = 1;
    out.sim->load(build_scene(spec), p);
    out.units = spec.units;
    out.group_names = group_labels(spec);
    return out;
}

// A rig with the scene loaded, body 0 picked and body 1 at the ruler's other end.
struct PickedRig {
    PickedRig(GlContext& ctx, const std::string& scene, float scale, bool presentation)
        : s(load(scene)), rig(ctx, scale, "", std::move(s.sim)) {
        rig.view.units = s.units;
        rig.view.group_names = s.group_names;
        rig.state.presentation = presentation;
        m.new_scene(rig.sim.backend().size(), 1.0);
        m.pick(0);
        m.pick_second(1);
        m.update(rig.sim.backend(), rig.sim.backend().time(), Double3{});
        rig.state.measure = &m;
    }
    PickedScene s;
    Rig rig;
    Measurements m;
};

// Frames of the panels with the picks read each frame, as the sandbox does.
void frames(Rig& rig, Measurements& m, int n) {
    for (int i = 0; i < n; ++i) {
        rig.frames(1, kW, kH);
        m.update(rig.sim.backend(), rig.sim.backend().time(), Double3{});
    }
}

// Each case of the tests: the two-body and three-body scenes, UI scales 1 and 1.5, the usual and the
// presentation layout. `check(scene, scale, presentation)` returns early (an ASSERT) to go on to the next.
template <class Check>
void for_each_case(Check check) {
    for (const char* scene : {"two-body", "three-body-figure8"}) {
        for (const float scale : {1.0f, 1.5f}) {
            for (const bool presentation : {false, true}) {
                SCOPED_TRACE(std::string(scene) + " scale " + std::to_string(scale) +
                             (presentation ? " presentation" : ""));
                check(scene, scale, presentation);
            }
        }
    }
}
}  // namespace

TEST(MeasurePanel, EveryReadOutIsReachableAt1280x720) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    for_each_case([&](const char* scene, float scale, bool presentation) {
        PickedRig p(*ctx, scene, scale, presentation);
        Rig& rig = p.rig;
        Measurements& m = p.m;
        frames(rig, m, 10);

        const ImGuiWindow* w = ImGui::FindWindowByName("Measure");
        if (!w || !w->Active || w->Collapsed) {  // on to the other cases: each says what it lacks
            ADD_FAILURE() << "no open Measure panel with a body picked";
            return;
        }
        EXPECT_GE(w->Pos.y, 0);
        EXPECT_LE(w->Pos.y + w->Size.y, float(kH));
        EXPECT_EQ(clipped_items(), "");  // no line wider than its panel

        // The wheel over the panel reaches its last line (the Clear picks button) when it does not
        // fit.
        const float inner_h = w->Size.y - w->TitleBarHeight() - 2 * ImGui::GetStyle().WindowPadding.y;
        if (w->ContentSize.y > inner_h + 1) {
            EXPECT_TRUE(w->ScrollbarY) << "cut at the bottom with no scroll bar";
            ImGuiIO& io = ImGui::GetIO();
            io.MousePos = ImVec2(w->Pos.x + 0.5f * w->Size.x, w->Pos.y + 0.5f * w->Size.y);
            for (int k = 0; k < 20; ++k) {
                io.MouseWheel = -5;  // one notch is five lines; ImGui clears it each frame
                frames(rig, m, 1);
            }
            w = ImGui::FindWindowByName("Measure");
            EXPECT_GT(w->ScrollMax.y, 0);
            EXPECT_NEAR(w->Scroll.y, w->ScrollMax.y, 0.5f) << "the wheel stops short of the last line";
        }
    });
}

// A class that picks two bodies is shown their distance at once: the ruler's line lies inside the Measure
// panel's visible area with the panel unscrolled, and in the presentation layout the Read-out's last line
// (frame rate, N and the force loop) is not left under its bottom edge.
TEST(MeasurePanel, TheRulerAndTheReadOutsLastLineShowWithoutScrollingAt1280x720) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    for_each_case([&](const char* scene, float scale, bool presentation) {
        PickedRig p(*ctx, scene, scale, presentation);
        frames(p.rig, p.m, 9);
        ASSERT_TRUE(p.m.ruler_length());
        const std::string distance = length_words(p.rig.view.units, *p.m.ruler_length());
        p.rig.frames(1, kW, kH);  // drawn from the reading above
        const ImGuiWindow* w = ImGui::FindWindowByName("Measure");
        ASSERT_TRUE(w && w->Active && !w->Collapsed);
        EXPECT_EQ(w->Scroll.y, 0);
        const std::string shown = visible_text(*w);
        EXPECT_NE(shown.find(without_spaces("ruler to body 1")), std::string::npos) << shown;
        EXPECT_NE(shown.find(without_spaces(distance)), std::string::npos) << distance << " in " << shown;
        if (!presentation) return;
        const ImGuiWindow* r = ImGui::FindWindowByName("Read-out");
        ASSERT_TRUE(r && r->Active && !r->Collapsed);
        EXPECT_EQ(r->Scroll.y, 0);
        const std::string last = without_spaces(p.rig.sim.facts().kernel_label);
        ASSERT_FALSE(last.empty());
        EXPECT_NE(visible_text(*r).find(last), std::string::npos) << last << " in " << visible_text(*r);
    });
}
