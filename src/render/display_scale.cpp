#include "render/display_scale.hpp"

#include <algorithm>
#include <cmath>

namespace nbody {

namespace {
constexpr float kDeskPxPerMm = 96.0f / 25.4f;  // the density a scale of 1 is drawn for
constexpr int kFarScreenMm = 1000;             // wider than this: read from across a room
constexpr float kBaseLinePx = 16.0f;           // the UI's text size at scale 1 (ui_fonts.cpp)
constexpr float kLinesPerScreen = 36.0f;       // back-row readability: a line at least 1/36 of the height
}  // namespace

float ui_scale_for_display(const DisplayInfo& d) {
    float s = std::isfinite(d.content_scale) && d.content_scale > 0 ? d.content_scale : 1.0f;
    if (d.width_mm > 0 && d.mode_width > 0 && d.mode_height > 0) {
        if (d.width_mm <= kFarScreenMm) {
            s = std::max(s, float(d.mode_width) / float(d.width_mm) / kDeskPxPerMm);
        } else {
            s = std::max(s, float(d.mode_height) / (kLinesPerScreen * kBaseLinePx));
        }
    }
    s = std::round(s * 4.0f) / 4.0f;
    return std::clamp(s, kMinAutoUiScale, kMaxAutoUiScale);
}

}  // namespace nbody
