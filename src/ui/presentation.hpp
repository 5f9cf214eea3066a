#pragma once
// For teaching in a room: the scene's description as a card when a scene loads, and the presentation
// layout's read-out (panels.hpp: readout_panel) of the energy error and the speed in a font the back row
// can read.
#include <string>

namespace nbody {

struct UiView;
struct UiFonts;

// The loaded scene's description, beside or under the panels (never over a control) for kCardSeconds after
// the scene changes (fading out over the last two), until Dismiss; larger in the presentation layout. The
// Scene panel keeps it under "Description" afterwards.
class DescriptionCard {
  public:
    static constexpr double kCardSeconds = 15;
    static constexpr const char* kTitle = "##scene card";

    // Call each frame inside the ImGui frame; `now` in seconds (ImGui's clock).
    // In the free area between x = left and right (display pixels), at its bottom above the legend; or across
    // the window under every panel (their lowest edge: `panels_bottom`) where its words fit there as large.
    // Returns the card's top (display pixels) while it shows, else a huge value: the bodies are framed above
    // it.
    float draw(const UiView& view, const UiFonts& fonts, bool presentation, float left, float right,
               float panels_bottom);
    bool showing() const { return m_start >= 0 && !m_dismissed; }

  private:
    std::string m_key;  // name and description of the scene the card is for
    double m_start = -1;
    bool m_dismissed = false;
};

}  // namespace nbody
