// How the desktop's window draws a scene's bodies, from the desktop's own sources: the groups' names
// (scene/group_labels.cpp), kinds and colours (scene/component_look.hpp, render/colormap.cpp), which kind is
// dark matter and the light it keeps while dimmed, the few-body scenes' sprite floor
// (render/particle_renderer.hpp), and the speed colour bar's words in the scene's physical units where it
// declares them (render/colour_scale.cpp); the tone map's numbers come from tone_map_web.cpp.
//
// Three rules of the window are repeated here, because they live in files that need GL and are not in the web
// build: the top speed of the colour map (app/viewer.cpp, typical_top_speed), the way scene looks fill the 8
// colour slots (app/viewer.cpp, apply_group_looks) and the sprite floor (render/particle_renderer.cpp,
// few_body_sprite_px). Each is a few lines; keep them in step.
#include "look_web.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "render/colour_scale.hpp"
#include "render/particle_renderer.hpp"
#include "scene/component_look.hpp"
#include "scene/group_labels.hpp"
#include "tone_map_web.hpp"

namespace nbody::web {
namespace {

using emscripten::val;

// The window's defaults. `groups` is given so that the GL renderer's default_group_styles
// (particle_renderer.cpp, not in the web build) is not called: every other member keeps the desktop's default.
const RenderSettings kDesktopDefaults{.groups = {}};

// app/viewer.cpp, typical_top_speed: 1.5 times the speed 90% of the bodies stay under at the start.
double typical_top_speed(const State& s) {
    std::vector<float> v(s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        v[i] = float(std::sqrt(s.vel[i].x * s.vel[i].x + s.vel[i].y * s.vel[i].y + s.vel[i].z * s.vel[i].z));
    if (v.empty()) return 1;
    auto mid = v.begin() + std::ptrdiff_t(v.size() * 9 / 10);
    std::nth_element(v.begin(), mid, v.end());
    return std::max(1.5f * *mid, 1e-6f);
}

struct Slot {
    glm::vec3 colour;
    bool dark_matter = false;
};

// app/viewer.cpp, apply_group_looks: slot g % 8 takes group g's colour (the scene's, else group_colour) and
// dark-matter flag, a later group overwriting an earlier one in the same slot.
std::vector<Slot> colour_slots(const std::vector<ComponentLook>& looks) {
    std::vector<Slot> slots(kGroupColours);
    for (int g = 0; g < kGroupColours; ++g) slots[std::size_t(g)].colour = group_colour(uint32_t(g));
    for (std::size_t g = 0; g < looks.size(); ++g) {
        Slot& s = slots[g % kGroupColours];
        if (looks[g].colour) s.colour = glm::vec3((*looks[g].colour)[0], (*looks[g].colour)[1], (*looks[g].colour)[2]);
        s.dark_matter = is_dark_matter(looks[g].kind);
    }
    return slots;
}

val rgb(glm::vec3 c) {
    return val::array(std::vector<double>{c.x, c.y, c.z});
}

}  // namespace

val scene_look(const SceneSpec& scene, const State& start) {
    std::size_t count = 1;
    for (uint32_t g : start.group) count = std::max<std::size_t>(count, std::size_t(g) + 1);
    std::vector<std::string> names = group_labels(scene);
    const std::vector<ComponentLook> looks = group_looks(scene);
    const std::vector<Slot> slots = colour_slots(looks);
    val groups = val::array();
    for (std::size_t g = 0; g < count; ++g) {
        const ComponentKind kind = g < looks.size() ? looks[g].kind : ComponentLook{}.kind;
        val v = val::object();
        v.set("name", g < names.size() ? names[g] : "group " + std::to_string(g));
        v.set("kind", std::string(component_kind_name(kind)));
        // Drawn, as in the window's legend, with its colour slot's style.
        v.set("darkMatter", slots[g % kGroupColours].dark_matter);
        v.set("colour", rgb(slots[g % kGroupColours].colour));
        groups.call<void>("push", v);
    }
    val slot_list = val::array();
    for (const Slot& s : slots) {
        val v = val::object();
        v.set("colour", rgb(s.colour));
        v.set("darkMatter", s.dark_matter);
        slot_list.call<void>("push", v);
    }
    const double top = typical_top_speed(start);
    const ColourBarText bar = colour_bar_text(ColorMode::Speed, scene.units, scene.G, {0, top, true});
    val speed_bar = val::object();
    speed_bar.set("title", bar.title);
    speed_bar.set("left", bar.left);
    speed_bar.set("right", bar.right);
    speed_bar.set("unit", bar.unit);
    val r = val::object();
    r.set("groups", groups);
    r.set("slots", slot_list);
    r.set("darkMatterLight", kDesktopDefaults.dark_matter_light);
    r.set("topSpeed", top);
    r.set("speedBar", speed_bar);
    // render/particle_renderer.cpp, few_body_sprite_px: a handful of stars drawn big enough for a room to see.
    r.set("minSpritePx", start.size() <= kFewBodies ? kFewBodySpritePx : 1.0f);
    r.set("toneMap", tone_map_look(start.size()));
    return r;
}

}  // namespace nbody::web
