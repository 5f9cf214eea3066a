#pragma once
// The sandbox's ImGui panels: Scene, Physics, Kernel, View, Performance, Diagnostics, Help, and the alert
// shown when the simulation stops (NaN) or a request fails.
#include "ui/ui.hpp"

struct ImFont;

namespace nbody {

struct PanelContext {
    Simulation& sim;
    RenderSettings& render;
    Camera& camera;
    UiState& state;
    const UiView& view;
    UiRequests& req;
    const UiFonts& fonts;
    PanelLayout& layout;
};

void draw_panels(PanelContext& c);
void draw_help(UiState& state);
void draw_alerts(Simulation& sim, UiState& state, UiRequests& req);
// PAUSED, the CPU-fallback banner, the quit hint and a status message (`toast`, empty: none), over the scene
// and under the panels (overlays.cpp). Returns the y under the banner (the top of the free area).
float scene_overlays(Simulation& sim, const UiState& state, const UiFonts& fonts, const std::string& toast);

// Panels, one function each (panels.cpp, panels_perf.cpp).
void scene_panel(PanelContext& c);
void physics_panel(PanelContext& c);
void kernel_panel(PanelContext& c);
void view_panel(PanelContext& c);
void performance_panel(PanelContext& c);
void diagnostics_panel(PanelContext& c);
void legend_overlay(PanelContext& c);
// colour_bar.cpp: the legend's ramp with its title, end values and unit (speed, depth, density, potential).
void colour_bar_item(PanelContext& c);
void readout_panel(PanelContext& c);      // presentation.cpp: big energy error and Gflop/s
void ui_scale_controls(PanelContext& c);  // presentation.cpp: the View panel's scale slider, layout, font

// The newest performance sample that saw a step finish (one step beside the frames for seconds leaves most
// samples empty); paused, the newest. And "60 frames/s   12.3 steps/s" from it, for every layout's read-out.
PerfSample rate_sample(Simulation& sim);
std::string rates_line(Simulation& sim);

// One panel of the column layout: where it goes, its close flag (null: none), and what it draws.
struct PanelRow {
    PanelSpec spec;
    bool* open;
    void (*body)(PanelContext&);
};
// Draws `rows` (open ones only) placed by c.layout (panel_layout.cpp).
void draw_rows(PanelContext& c, const PanelRow* rows, std::size_t count);
// Trails (a block of the View panel) and the rewind timeline (timeline_panel.cpp).
void trails_controls(PanelContext& c);
// Each component's visibility and colour, and the dark-matter switch (a block of the View panel).
void components_controls(PanelContext& c);
// The tree's cells over the bodies (a block of the View panel; method tree only).
void tree_cells_controls(PanelContext& c);
// ImGui::SameLine() when the next item (a button or a checkbox labelled `next_label`) still fits on this
// line, else the next line: rows of them wrap at large UI scales and narrow fonts instead of being cut at the
// panel's edge.
enum class NextItem { Button, Checkbox };
void same_line_if_fits(const char* next_label, NextItem kind = NextItem::Button);
// `text` with a line break at the last space before each point where a line in `font` would pass `width`
// (pixels). ImGui's own wrap also breaks after '.' and ',', which splits a number across lines ("3.\n29
// steps/s"); a word wider than `width` alone is left to it.
std::string break_at_spaces(const ImFont* font, const std::string& text, float width);
// A tooltip whose text wraps, so it never runs past the window's edge.
void wrapped_tooltip(const std::string& text);
// A greyed note that wraps to the panel (ImGui::TextDisabled does not wrap: long notes were cut at its edge).
void disabled_wrapped(const std::string& text);
// The same with printf formatting: every tooltip of the panels wraps to the window (none runs off the screen).
void wrapped_tooltipf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// A number typed and confirmed with Enter: taken into v when finite and >= min_value (returns true), else v kept.
bool input_positive(const char* label, double& v, const char* fmt, double min_value);
void timeline_panel(PanelContext& c);
void measure_panel(PanelContext& c);  // measure_panel.cpp: the picked bodies' read-outs and the tools' switches

}  // namespace nbody
