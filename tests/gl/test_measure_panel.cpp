// The Measure panel at a projector's 1280x720, at UI scales 1 and 1.5, in the usual and the presentation
// layout: with a body picked and a second one for the ruler in the two-body and three-body scenes, the panel
// shows, no read-out runs past its right edge (a panel scrolls only vertically, so a cut line could never be
// read), and what does not fit in its height is reached by scrolling the panel with the mouse wheel.
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName: the panel's size, content size and scroll

#include <memory>
#include <string>

#include "core/session/measurements.hpp"
#include "gl_test_util.hpp"
#include "panel_rig.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 1280, kH = 720;

struct PickedScene {
    std::unique_ptr<Simulation> sim = cpu_simulation();
    PhysicalUnits units;
};

PickedScene load(const std::string& name) {
    PickedScene out;
    const SceneSpec spec = load_scene_file(std::string(NBODY_SOURCE_DIR) + "/scenes/" + name + ".toml");
    SimParams p = spec.apply_to({});
    p.backend = BackendKind::Cpu;
    p.cpu_threads = 1;
    out.sim->load(build_scene(spec), p);
    out.units = spec.units;
    return out;
}

// Frames of the panels with the picks read each frame, as the sandbox does.
void frames(Rig& rig, Measurements& m, int n) {
    for (int i = 0; i < n; ++i) {
        rig.frames(1, kW, kH);
        m.update(rig.sim.backend(), rig.sim.backend().time(), Double3{});
    }
}
}  // namespace

TEST(MeasurePanel, EveryReadOutIsReachableAt1280x720) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 64);
    for (const char* scene : {"two-body", "three-body-figure8"}) {
        for (const float scale : {1.0f, 1.5f}) {
            for (const bool presentation : {false, true}) {
                SCOPED_TRACE(std::string(scene) + " scale " + std::to_string(scale) +
                             (presentation ? " presentation" : ""));
                PickedScene s = load(scene);
                Rig rig(*ctx, scale, "", std::move(s.sim));
                rig.view.units = s.units;
                rig.state.presentation = presentation;
                Measurements m;
                m.new_scene(rig.sim.backend().size(), 1.0);
                m.pick(0);
                m.pick_second(1);
                m.update(rig.sim.backend(), rig.sim.backend().time(), Double3{});
                rig.state.measure = &m;
                frames(rig, m, 10);

                const ImGuiWindow* w = ImGui::FindWindowByName("Measure");
                if (!w || !w->Active || w->Collapsed) {  // on to the other cases: each says what it lacks
                    ADD_FAILURE() << "no open Measure panel with a body picked";
                    continue;
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
                    EXPECT_NEAR(w->Scroll.y, w->ScrollMax.y, 0.5f)
                        << "the wheel stops short of the last line";
                }
            }
        }
    }
}
