#pragma once
// The UI scale a display wants by default, from what GLFW says about the monitor (pure arithmetic here so
// the rule is unit-tested; GlfwWindow::display_info() collects the numbers).
namespace nbody {

struct DisplayInfo {
    float content_scale = 1;              // the desktop's own scale setting (2 on a HiDPI laptop)
    int width_mm = 0, height_mm = 0;      // physical size from EDID; 0 when the monitor does not say
    int mode_width = 0, mode_height = 0;  // current video mode, pixels
};

inline constexpr float kMinAutoUiScale = 1.0f, kMaxAutoUiScale = 3.0f;

// The rule (the larger of three, clamped to [kMinAutoUiScale, kMaxAutoUiScale], rounded to 0.25):
//  1. the desktop's content scale;
//  2. a dense desk monitor (at most 1 m wide, read from ~60 cm): its pixel density over 96 dpi (3.78 px/mm),
//     so a 16 px line keeps its 4 mm height when X11 reports content scale 1 on a 4K panel;
//  3. a screen wider than 1 m (a projector or a TV: large pixels, read from several metres away): a text line
//     of at least 1/36 of the screen's height, the size slide guides ask of the back row (a 16 px line at
//     scale 1 is 1/67 of a 1080 px screen; the rule gives 2 there (1.875 rounded), 1.25 at 720 px).
// Unknown sizes (0 mm: many projectors and virtual displays) leave rules 2 and 3 out.
float ui_scale_for_display(const DisplayInfo& d);

}  // namespace nbody
