#include "ui/panels.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <optional>
#include <string>

#include "core/rows/param_registry.hpp"
#include "core/kernels/kernel_tuning.hpp"  // with_commas
#include "render/colormap.hpp"
#include "ui/plain_words.hpp"
#include "ui/race_panel.hpp"
#include "ui/registry_range.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/param_checks.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/session/measurements.hpp"

namespace nbody {

namespace {

// A combo over one of core's named-value tables (precision, integrator); true when the user changed it. Rows
// outside `allowed` (bits 1 << value) are greyed, their tooltip ending with `why_not`.
template <class E, class Table>
bool named_combo(const char* label, E& value, const Table& table, unsigned allowed = ~0u,
                 const std::string& why_not = {}) {
    bool changed = false;
    if (ImGui::BeginCombo(label, std::string(name_of(table, value)).c_str())) {
        for (const NamedValue<E>& row : table) {
            const bool off = !(allowed & bit(row.value));
            ImGui::BeginDisabled(off);
            if (ImGui::Selectable(std::string(row.name).c_str(), row.value == value) && row.value != value) {
                value = row.value;
                changed = true;
            }
            ImGui::EndDisabled();
            if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                wrapped_tooltipf("%s%s", std::string(row.description).c_str(), off ? why_not.c_str() : "");
        }
        ImGui::EndCombo();
    }
    return changed;
}

}  // namespace

void wrapped_tooltip(const std::string& text) {
    // 32 em wide at most, and never wider than the window less the tooltip's own padding (a 1280-pixel
    // window at scale 1 keeps it whole).
    const float wrap = std::min(32.0f * ImGui::GetFontSize(), 0.45f * ImGui::GetMainViewport()->WorkSize.x);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

std::string break_at_spaces(const ImFont* font, const std::string& text, float width) {
    auto wide = [&](const std::string& line) {
        return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, line.c_str()).x > width;
    };
    std::string out, line, word;
    auto end_word = [&] {
        if (!line.empty() && wide(line + ' ' + word)) {
            out += line + '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        word.clear();
    };
    for (const char ch : text) {
        if (ch != ' ' && ch != '\n') {
            word += ch;
            continue;
        }
        end_word();
        if (ch == '\n') out += line + '\n', line.clear();
    }
    end_word();
    return out + line;
}

void disabled_wrapped(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

void wrapped_tooltipf(const char* fmt, ...) {
    std::va_list args;
    va_start(args, fmt);
    std::va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::string text(n > 0 ? std::size_t(n) : 0, '\0');
    if (n > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, again);
    va_end(again);
    wrapped_tooltip(text);
}

void same_line_if_fits(const char* next_label, NextItem kind) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float text = ImGui::CalcTextSize(next_label, nullptr, true).x;
    // A checkbox is its square (a frame's height) and the gap before its label; a button pads its label.
    const float next = kind == NextItem::Checkbox ? ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + text
                                                  : text + 2 * st.FramePadding.x;
    const float right_of_last = ImGui::GetItemRectMax().x + st.ItemSpacing.x;
    const float edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (right_of_last + next <= edge) ImGui::SameLine();
}

bool input_positive(const char* label, double& v, const char* fmt, double min_value) {
    double t = v;
    if (ImGui::InputDouble(label, &t, 0, 0, fmt, ImGuiInputTextFlags_EnterReturnsTrue) && t >= min_value &&
        std::isfinite(t)) {
        v = t;
        return true;
    }
    return false;
}

void draw_panels(PanelContext& c) {
    UiState& s = c.state;
    // Widths in font units: 26 and 31 em are the 340 and 400 px the panels had at 13 px.
    if (s.presentation) {
        // Physics first: dt and eps are what a class is shown changing; Scene folded, to leave the view.
        // A picked body brings its Measure read-outs under the Read-out: clicking a star in front of a class
        // must not need P to see its speed and period.
        const bool picked = s.measure && s.measure->picked();
        const PanelRow rows[] = {{{"Physics", false, false, 26}, &s.show_physics, physics_panel},
                                 {{"Scene", false, true, 26}, &s.show_scene, scene_panel},
                                 {{"Read-out", true, false, 24}, nullptr, readout_panel},
                                 {{"Measure", true, false, 24}, &s.show_measure, measure_panel}};
        draw_rows(c, rows, std::size(rows) - (picked ? 0 : 1));
    } else {
        // One column at the left edge, the scene gets the rest: Scene and Physics open, the others folded to
        // their title bars (a click opens one; Tab hides the column).
        const PanelRow rows[] = {{{"Scene", false, false, 26}, &s.show_scene, scene_panel},
                                 {{"Physics", false, false, 26}, &s.show_physics, physics_panel},
                                 {{"View", false, true, 26}, &s.show_view, view_panel},
                                 {{"Measure", false, true, 26}, &s.show_measure, measure_panel},
                                 {{"Performance", false, true, 26}, &s.show_perf, performance_panel},
                                 {{"Diagnostics", false, true, 26}, &s.show_diag, diagnostics_panel},
                                 {{"Kernel", false, true, 26}, &s.show_kernel, kernel_panel},
                                 {{"Timeline", false, true, 26}, &s.show_timeline, timeline_panel}};
        draw_rows(c, rows, std::size(rows));
    }
    legend_overlay(c);
}

namespace {
// A row of the scene list that wraps its text to the list's width: at UI scale 1.5 a 1280-pixel window's
// column is narrower than the longer names, and a list box cuts a row at its right edge (it does not scroll
// sideways). The whole row, all its lines, selects. Returns (clicked, hovered, visible) of the row.
struct RowState {
    bool clicked, hovered, visible;
};
RowState wrapped_row(const std::string& text, const std::string& id, bool selected) {
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float h = ImGui::CalcTextSize(text.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
    const RowState row{ImGui::Selectable(("##" + id).c_str(), selected, 0, ImVec2(0, h)),
                       ImGui::IsItemHovered(), ImGui::IsItemVisible()};
    ImGui::SetCursorScreenPos(top);  // the text over the selectable's highlight, wrapped as measured
    ImGui::TextWrapped("%s", text.c_str());
    return row;
}

// ImGui wraps text after a comma too, which split "1,048,576" over two lines; a no-break space (in every
// font's Latin-1 range) groups the digits instead, and ties the count to the name's last word.
constexpr const char* kNoBreakSpace = "\xC2\xA0";
std::string count_kept_whole(std::size_t n) {
    std::string out;
    for (const char ch : with_commas(n)) out += ch == ',' ? std::string(kNoBreakSpace) : std::string(1, ch);
    return out;
}

// The shipped scenes: as many lines as a fifth of the window's height holds (at least 4: Scene and Physics
// must both fit at 1280x720), and a line under the list that says how many more it scrolls to.
void scene_list(PanelContext& c) {
    const std::vector<SceneEntry>& scenes = *c.view.scenes;
    const float row = ImGui::GetTextLineHeightWithSpacing();
    const float room = 0.2f * ImGui::GetMainViewport()->WorkSize.y;
    const int rows = std::max(4, std::min(int(scenes.size()), int(room / row)));
    if (!ImGui::BeginListBox("##scenes", ImVec2(-1, (float(rows) + 0.25f) * row))) return;
    int shown_to = 0;
    for (int i = 0; i < int(scenes.size()); ++i) {
        const SceneEntry& e = scenes[std::size_t(i)];
        const RowState item = wrapped_row(e.name + kNoBreakSpace + "(" + count_kept_whole(e.bodies) + ")",
                                          e.path, c.state.scene_index == i);
        if (item.clicked) c.state.scene_index = i;
        if (item.hovered && !e.description.empty()) wrapped_tooltip(e.path + "\n" + e.description);
        if (item.visible) shown_to = i + 1;
    }
    ImGui::EndListBox();
    if (shown_to < int(scenes.size()))
        ImGui::TextDisabled("%d more below: scroll the list", int(scenes.size()) - shown_to);
}
}  // namespace

void scene_panel(PanelContext& c) {
    const UiView& v = c.view;
    ImGui::TextWrapped("%s", v.scene_name.c_str());
    ImGui::Text("N = %s bodies", with_commas(c.sim.facts().size).c_str());
    // The frame rate, in the panel every layout opens. While another scene is generated, the steps are still
    // this one's: said so, or the rate reads as the new scene's.
    ImGui::TextWrapped("%s%s", rates_line(c.sim).c_str(), v.generating ? " (this scene, until the next is made)" : "");
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Pictures drawn per second, and simulation steps per second (more in Performance)");
    if (v.scenes && !v.scenes->empty()) scene_list(c);
    ImGui::SliderFloat("bodies x", &c.state.body_multiplier, 0.125f, 8.0f, "%.3g",
                       ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered()) wrapped_tooltipf("Particle-count multiplier applied when a scene is loaded");
    const bool have_sel = v.scenes && c.state.scene_index >= 0 && c.state.scene_index < int(v.scenes->size());
    if (have_sel)
        ImGui::TextDisabled("loads with N = %s",
                            with_commas(std::size_t(std::llround(
                                            double((*v.scenes)[std::size_t(c.state.scene_index)].bodies) *
                                            c.state.body_multiplier)))
                                .c_str());
    if (!have_sel) ImGui::BeginDisabled();
    if (ImGui::Button("Load selected") && have_sel) {
        c.req.load_path = (*v.scenes)[std::size_t(c.state.scene_index)].path;
        c.req.load_multiplier = c.state.body_multiplier;
    }
    if (!have_sel) ImGui::EndDisabled();
    same_line_if_fits("Reset (R)");
    if (ImGui::Button("Reset (R)")) c.req.reset = true;
    if (!v.load_error.empty()) {  // wrapped: the progress line and a scene file's error are longer than the panel
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.4f, 1));
        ImGui::TextWrapped("%s", in_words(v.load_error).c_str());
        ImGui::PopStyleColor();
    }
    if (!v.reduced_note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.35f, 1));
        ImGui::TextWrapped("%s", v.reduced_note.c_str());
        ImGui::PopStyleColor();
        const std::string full = "Load full N (" + with_commas(v.full_bodies) + " bodies)";
        if (ImGui::Button(full.c_str())) c.req.load_full = true;
        if (ImGui::IsItemHovered()) wrapped_tooltipf("Every body the scene asks for: each step takes longer");
    }
    if (ImGui::CollapsingHeader("Description")) {
        if (!v.scene_watch.empty()) ImGui::TextWrapped("%s", v.scene_watch.c_str());
        ImGui::TextWrapped("%s", v.scene_description.c_str());  // the physics in full
    }
    if (ImGui::CollapsingHeader("Open a scene file")) {
        ImGui::InputTextWithHint("##open", "path/to/scene.toml", &c.state.open_path);
        ImGui::SameLine();
        if (ImGui::Button("Open") && !c.state.open_path.empty()) {
            c.req.load_path = c.state.open_path;
            c.req.load_multiplier = c.state.body_multiplier;
        }
    }
}

namespace {
// Under the theta and alpha sliders: what they cost in accuracy, measured on the running state (ForceErrorSampler).
void force_error_line(const Simulation& sim) {
    const std::optional<ForceErrorResult>& r = sim.force_error().latest();
    // Wrapped: the line is longer than the panel is wide at most scales.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s",
                       r ? force_error_text(r->median, r->p99, r->sample, sim.wall_now() - r->wall).c_str()
                         : "force error vs direct: measuring...");
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
        wrapped_tooltipf(
            "How far the tree's pull on a body is from the exact pull (every other body summed one by "
            "one in double precision), as a fraction of it: half of the sampled bodies are off by less "
            "than the median, 99 in 100 by less than the 99%% figure. Measured about once a second on a "
            "sample spread over all bodies (fewer at large N, to keep it cheap), in the background, "
            "and measured again when theta, alpha or the scene changes.");
}

// The tree's two opening tests. Switching alpha on or off also moves theta to where it serves: the guard (1)
// beside alpha, Barnes's classic 0.5 alone, so either way the force error stays near 1e-4.
void tree_opening_controls(TreeParams& t) {
    float theta = t.theta;
    const SliderRange<float> theta_range = registry_range<float>("theta");
    if (ImGui::SliderFloat("theta", &theta, theta_range.lo, theta_range.hi, "%.2f")) t.theta = theta;
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Opening angle (Barnes): a group of bodies that looks smaller than theta (its size / "
                          "its distance) may pull as one. Smaller: more accurate and slower. Alone (alpha off), "
                          "0.5 keeps the typical force error near 1e-4; with alpha on, 1 only keeps a group "
                          "from pulling a body that is inside or next to it");
    bool criterion = t.alpha > 0;
    if (ImGui::Checkbox("##alpha on", &criterion)) {
        const TreeParams d;
        t.alpha = criterion ? d.alpha : 0.0f;
        t.theta = criterion ? d.theta : std::min(t.theta, 0.5f);
    }
    if (ImGui::IsItemHovered()) wrapped_tooltipf("Acceleration criterion on or off");
    ImGui::SameLine();
    if (criterion) {
        float alpha = t.alpha;
        if (ImGui::SliderFloat("alpha", &alpha, 1e-5f, 1e-1f, "%.1e", ImGuiSliderFlags_Logarithmic))
            t.alpha = std::clamp(alpha, 1e-5f, 1e-1f);
    } else {
        ImGui::TextDisabled("alpha off: theta alone");
    }
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Acceleration criterion (as GADGET and GOTHIC): a far group pulls as one only when the "
                          "error it leaves is below alpha times the weakest pull felt by the bodies it acts "
                          "on. It spends work where pulls are weak and saves it where they are strong: the "
                          "same accuracy as theta alone for about half the work at a million bodies. "
                          "Smaller: more accurate and slower; 0.001 keeps the typical error near 1e-4");
}

// The integrator's own parameters (eta for block steps), from the parameter registry: a value outside the
// allowed range is not taken, and the tooltip gives the range.
void integrator_param_inputs(SimParams& p) {
    for (const ParamSpec& spec : param_registry()) {
        if (spec.integrators == 0 || !param_applies(spec, p)) continue;
        double v = spec.get(p);
        const std::string label(spec.name);
        if (ImGui::InputDouble(label.c_str(), &v, 0, 0, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue) &&
            param_problem(spec, v).empty())
            spec.set(p, v);
        if (ImGui::IsItemHovered()) wrapped_tooltipf("%s", param_help_text(spec).c_str());
    }
}

// A method's own parameter block in the Physics panel. A switch over every method, so the compiler names
// this place when a method is added.
void method_controls(SimParams& p, const Simulation& sim) {
    switch (p.method) {
        case ForceMethod::Direct: return;  // its kernel shape is the Kernel panel's
        case ForceMethod::Tree:
            tree_opening_controls(p.tree);
            force_error_line(sim);
            return;
    }
}

// One radio button per backend the factory offers; one this build cannot run is greyed with the reason. Auto
// shows what it picked; choosing one makes the choice explicit.
void backend_buttons(const std::vector<BackendOffer>& offers, BackendKind running, BackendKind& asked) {
    const BackendKind kind = marked_backend(asked, running);
    std::string missing;
    for (std::size_t i = 0; i < offers.size(); ++i) {
        const BackendOffer& o = offers[i];
        if (i > 0) ImGui::SameLine();
        const bool off = !o.unavailable.empty();
        if (off) ImGui::BeginDisabled();
        if (ImGui::RadioButton(o.label.c_str(), kind == o.kind)) asked = o.kind;
        if (off) ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            wrapped_tooltip(off ? o.unavailable : o.help);
        if (off) missing += (missing.empty() ? "" : "; ") + o.unavailable;
    }
    if (!missing.empty()) disabled_wrapped("(" + missing + ")");
}

}  // namespace

void physics_panel(PanelContext& c) {
    Simulation& sim = c.sim;
    SimParams& p = sim.pending();
    const std::string physical = physical_time(c.view.units, sim.facts().time);  // the scene's [units]
    if (physical.empty())
        ImGui::Text("t = %.6g   steps %lld", sim.facts().time, sim.facts().steps);
    else
        ImGui::Text("t = %.6g = %s   steps %lld", sim.facts().time, physical.c_str(), sim.facts().steps);
    // Pause first: the control a class needs at once, never below the fold.
    if (sim.paused()) {
        if (ImGui::Button("Run (Space)")) sim.set_paused(false);
    } else if (ImGui::Button("Pause (Space)")) {
        sim.set_paused(true);
    }
    same_line_if_fits("Step (Right)");
    if (ImGui::Button("Step (Right)")) sim.request_step();
    same_line_if_fits("Reset");
    if (ImGui::Button("Reset")) c.req.reset = true;
    // N-body units (G = 1 in most scenes): a time unit is about one crossing or orbit of the inner region.
    input_positive("dt (time)", p.dt, "%.6g", 1e-12);
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Time step, in N-body time units. Larger: the picture moves faster but close "
                          "passes go wrong (energy error grows, bodies fly off). Smaller: slower and more "
                          "accurate. Type a value and press Enter.");
    if (!c.view.step_note.empty()) ImGui::TextWrapped("%s", c.view.step_note.c_str());  // why this dt
    input_positive("eps (length)", p.eps, "%.6g", 0.0);
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Softening length, in N-body length units: gravity is smoothed closer than about "
                          "eps. Larger: close passes are gentle, clusters look puffier. Smaller: tight "
                          "binaries and sharp slingshots, which need a smaller dt. Enter applies.");
    input_positive("G", p.G, "%.6g", 1e-12);
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Gravitational constant (1 in N-body units). Larger: every pull is stronger, so "
                          "the system collapses and orbits faster. Smaller: bodies drift apart. Enter "
                          "applies.");
    // The method's integrators only: under the tree, leapfrog and leapfrog-block (block steps on or off).
    const MethodInfo& method = method_info(p.method);
    named_combo("integrator", p.integrator, integrator_table(), method.integrators,
                "\n(not with method " + std::string(method.name) + ")");
    if (ImGui::IsItemHovered()) wrapped_tooltipf("Applied at the next step boundary; the particles stay");
    integrator_param_inputs(p);
    if (const SimParams before = p; named_combo("method", p.method, method_table())) {
        fit_to_method(p);  // what the method runs with: picked for the user rather than refused, and said
        if (std::string said = method_fit_text(before, p); !said.empty()) c.state.message = said;
    }
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("direct: every body pulls every other, N^2 pairs a step (exact, slow at large N).\n"
                          "tree: far groups of bodies pull as one (Barnes-Hut): about N log N, much faster at "
                          "large N, with a small force error set by theta and alpha");
    method_controls(p, sim);
    named_combo("precision", p.precision, precision_table());
    bool autos = sim.auto_steps();
    if (ImGui::Checkbox("as fast as possible", &autos)) sim.set_auto_steps(autos);
    if (autos) {
        ImGui::Text("steps per frame: %d (fills the frame budget)", sim.steps_last_frame());
    } else {
        const SliderRange<int> steps_range = registry_range<int>("steps_per_frame");
        ImGui::SliderInt("steps/frame", &p.steps_per_frame, steps_range.lo, steps_range.hi, "%d",
                         ImGuiSliderFlags_Logarithmic);
    }
}

void kernel_panel(PanelContext& c) {
    SimParams& p = c.sim.pending();
    const BackendFacts& b = c.sim.facts();
    ImGui::TextWrapped("%s", b.name.c_str());
    if (ImGui::IsItemHovered() && !c.sim.backend_note().empty())  // why this backend: the factory's words
        wrapped_tooltipf("%s", c.sim.backend_note().c_str());
    backend_buttons(c.view.backends, c.sim.backend_choice().running, p.backend);
    ImGui::TextWrapped("running: %s", b.kernel_label.c_str());
    if (const std::string& why = b.kernel_choice; !why.empty()) ImGui::TextWrapped("auto: %s", why.c_str());
    race_section(c);
    if (!b.caps.kernel_variants)
        disabled_wrapped("this backend has one force loop: the kernel choice below applies to CUDA and GL");
    if (const MethodInfo& m = method_info(p.method); !m.kernel_families) {
        disabled_wrapped("the " + std::string(m.name) +
                         " has no kernel variants: its own parameters (Physics) set its accuracy and speed");
        return;
    }
    const auto& table = variant_table();
    const std::string current = p.kernel_auto ? "auto" : std::string(variant_name(p.variant));
    if (ImGui::BeginCombo("variant", current.c_str())) {
        if (ImGui::Selectable("auto", p.kernel_auto)) p.kernel_auto = true;
        if (ImGui::IsItemHovered()) wrapped_tooltipf("The variant and shape measured fastest for this N and GPU");
        for (const FamilyInfo& v : table) {
            if (v.method != p.method) continue;  // the families of the force method chosen above
            if (ImGui::Selectable(std::string(v.name).c_str(), !p.kernel_auto && v.variant == p.variant) &&
                (p.kernel_auto || v.variant != p.variant)) {
                p.kernel_auto = false;
                p.variant = v.variant;
                p.shape = v.default_shape;
            }
            if (ImGui::IsItemHovered()) wrapped_tooltipf("%s", std::string(v.description).c_str());
        }
        ImGui::EndCombo();
    }
    if (p.kernel_auto) {
        ImGui::TextDisabled("pick a variant to set its shape by hand");
        return;
    }
    const FamilyInfo& info = variant_info(p.variant);
    auto choice = [](const char* label, int& value, const std::array<int, 3>& allowed) {
        for (int a : allowed) {
            if (a == 0) continue;
            ImGui::SameLine();
            if (ImGui::RadioButton((std::to_string(a) + "##" + label).c_str(), value == a)) value = a;
        }
    };
    ImGui::Text("k");
    choice("k", p.shape.k, info.rules.allowed_k);
    ImGui::Text("u");
    choice("u", p.shape.u, info.rules.allowed_u);
    int block = p.shape.block;
    const DirectRules& r = info.rules;
    if (ImGui::SliderInt("block", &block, 64, r.max_block)) p.shape.block = std::clamp(block / 32 * 32, 64, r.max_block);
    if (r.q_choices[0] != 0) {  // q from a short list (pairs: warps sharing one set of i-bodies)
        ImGui::Text("%s", std::string(r.q_meaning).c_str());
        const int was = std::max(1, p.shape.q);
        int q = was;
        choice("q", q, r.q_choices);
        if (q != was) p.shape.q = q;
        disabled_wrapped("changes keep the particles where they are");
        return;
    }
    bool auto_q = p.shape.q == 0;
    if (ImGui::Checkbox("threads per body: auto", &auto_q)) p.shape.q = auto_q ? 0 : 1;
    if (!auto_q && r.max_q > 1) {
        int log2q = int(std::log2(std::max(p.shape.q, 1)));
        if (ImGui::SliderInt("q = 2^", &log2q, 0, int(std::log2(r.max_q)))) p.shape.q = 1 << log2q;
        ImGui::SameLine();
        ImGui::Text("= %d", p.shape.q);
    }
    disabled_wrapped("changes keep the particles where they are");
}

void view_panel(PanelContext& c) {
    RenderSettings& r = c.render;
    UiState& s = c.state;
    int mode = static_cast<int>(r.color_mode);
    const char* modes[kColorModes];
    for (int m = 0; m < kColorModes; ++m) modes[m] = color_mode_name(static_cast<ColorMode>(m));
    if (ImGui::Combo("colour by", &mode, modes, kColorModes)) r.color_mode = static_cast<ColorMode>(mode);
    if (r.color_mode == ColorMode::Potential && !c.view.colour_note.empty())
        disabled_wrapped(c.view.colour_note.c_str());
    if (r.color_mode == ColorMode::Density)
        disabled_wrapped("the mass in each cell of a 64\xC2\xB3 grid around the view's centre, over the cell's volume");
    components_controls(c);
    ImGui::SliderFloat("point size", &r.point_size, 0.5f, 32.0f, "%.2g px", ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("brightness", &r.brightness, 0.01f, 100.0f, "%.3g", ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("glow", &r.glow, 0.0f, 4.0f, "%.2f");
    ImGui::Checkbox("auto exposure", &r.auto_exposure);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Set from each frame's own brightness: cores never clip, faint tails stay visible");
    if (r.auto_exposure)
        ImGui::SliderFloat("exposure", &r.exposure_ev, -6.0f, 6.0f, "%+.1f stops");
    else
        ImGui::SliderFloat("exposure", &r.exposure, 1e-3f, 1e4f, "%.3g", ImGuiSliderFlags_Logarithmic);
    if (r.color_mode == ColorMode::Speed)
        ImGui::SliderFloat("top speed", &r.speed_max, 0.01f, 100.0f, "%.3g", ImGuiSliderFlags_Logarithmic);
    if (r.color_mode != ColorMode::Group && ImGui::BeginCombo("colour map", r.colormap.c_str())) {
        for (const std::string& name : c.view.colormap_names)
            if (ImGui::Selectable(name.c_str(), name == r.colormap)) r.colormap = name;
        ImGui::EndCombo();
    }
    ImGui::ColorEdit3("background", &r.background.x, ImGuiColorEditFlags_Float);
    trails_controls(c);
    if (!c.view.guide_label.empty()) {
        ImGui::Checkbox(("orbit guide: " + c.view.guide_label).c_str(), &r.orbit_guides);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "The path point masses would follow, dashed (each dash the same time, so longer where they move "
                "faster), and a ring where each would be now. The galaxies start on their rings: watch when "
                "they leave them.");
    }
    tree_cells_controls(c);
    ImGui::Checkbox("follow centre of mass", &s.follow_com);
    if (ImGui::Button("Reset camera (C)")) c.req.reset_camera = true;
    same_line_if_fits("Frame all (F)");
    if (ImGui::Button("Frame all (F)")) c.req.frame_all = true;
    if (ImGui::Checkbox("vsync", &s.vsync)) c.req.vsync_changed = true;
    // Only where it chooses something: a GPU backend that does not write the vertex buffer itself (CUDA). The CPU
    // always uploads and GL compute always writes in place; a box there would claim a path that is not taken.
    if (const BackendCaps caps = c.sim.facts().caps; caps.gpu && !caps.gl_positions) {
        same_line_if_fits("CUDA-GL interop", NextItem::Checkbox);
        if (ImGui::Checkbox("CUDA-GL interop", &s.allow_interop)) c.req.interop_changed = true;
    }
    ui_scale_controls(c);
    if (ImGui::Button("Screenshot (F12)")) c.req.screenshot = true;
    same_line_if_fits("Record video (V)");
    if (ImGui::Button(c.view.recording ? "Stop video (V)" : "Record video (V)")) c.req.toggle_record = true;
    if (!s.message.empty()) ImGui::TextWrapped("%s", s.message.c_str());
}

}  // namespace nbody
