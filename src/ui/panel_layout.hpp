#pragma once
// Where the panels go, following the font size: two columns (left and right edge), each panel stacked under
// the previous one's height as drawn last frame, widths in font units (narrowed when both columns would not
// fit side by side), heights capped so that every panel below still has room for its title bar, and a
// panel collapsed when less than a few lines would be left for it. Nothing overlaps at any UI scale.
//
// A panel stays under this layout until the user drags it; from then on ImGui and its ini file keep it where
// the user put it (a panel the ini file already places is the user's from the start). Collapse decisions are
// made only for a few frames after the panel appears, the window is resized, the font size changes or the
// set of open panels changes (the presentation layout), so the user's own folding and unfolding sticks.
// Of the panels that start folded, one is open at a time: unfolding one folds another that is open.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace nbody {

struct PanelSpec {
    const char* title;
    bool right;            // column: the right edge, else the left
    bool start_collapsed;  // folded the first time
    float width_em;        // width in units of the font size
};

class PanelLayout {
  public:
    // Computes this frame's places of the managed open panels (`open[i]` for `specs[i]`), in column order.
    // Call after ImGui::NewFrame and before the panels' Begin.
    void plan(const PanelSpec* specs, const bool* open, std::size_t count);
    // Before Begin(spec.title): the next-window position, size and (while settling) collapse of a managed
    // panel, no higher than min_y (the bottom of the panel above as drawn this frame, margin included);
    // returns the window flags it needs (NoSavedSettings while the layout places it).
    int place(const PanelSpec& spec, float min_y = -1e30f);
    // Inside the window (after Begin, whether or not it returned true): records its size and state.
    void record(const PanelSpec& spec);
    bool managed(const std::string& title) const;
    // The most height (pixels, title bar included) the layout lets a managed panel take this frame; 0 for a
    // panel the user placed, which ImGui sizes to its contents.
    float max_height(const std::string& title) const;
    // Unfolds an optional panel at the next frame, as a click on its title would (the first pick opens Measure).
    void unfold(const std::string& title) { m_unfold_now = title; }
    // The free area between the columns planned last (display pixels): where the camera centres the bodies
    // and the marks and the scene card go.
    float scene_left() const { return m_scene_left; }
    float scene_right() const { return m_scene_right; }
    float scene_bottom() const { return m_scene_bottom; }  // the legend's top
    // The lowest edge (display pixels, margin included) of the panels draw_rows drew this frame;
    // kPanelsAnywhere while a panel the user placed is open (it may lie anywhere). The scene card may lie
    // below it, across the window, where the presentation layout's short columns leave room.
    static constexpr float kPanelsAnywhere = 1e30f;
    float panels_bottom() const { return m_panels_bottom; }
    void set_panels_bottom(float y) { m_panels_bottom = y; }

  private:
    struct Entry {
        bool managed = true, want_open = true, collapse = false, last_collapsed = false, placed = false;
        float x = 0, y = 0, w = 0, max_h = 0, expanded_h = 0;  // pixels; expanded_h 0: not known yet
        float set_x = -1, set_y = -1;                          // where place() put it last frame
        int settle = 0;                                        // frames left to decide collapsing
    };
    Entry& entry(const PanelSpec& spec);
    void place_column(const PanelSpec* specs, const std::vector<std::size_t>& col, float x, float w,
                      float top, float bottom, float margin, float title_h, float min_h, float keep);

    std::map<std::string, Entry> m_entries;
    float m_view_w = 0, m_view_h = 0, m_font = 0;
    float m_scene_left = 0, m_scene_right = 0, m_scene_bottom = 0;
    float m_panels_bottom = kPanelsAnywhere;
    std::string m_open_set;  // the open panels' titles last frame: a change re-decides collapsing
    std::string m_unfolded;  // the optional panel the user unfolded last (the other optional ones fold)
    std::string m_unfold_now;  // the optional panel to unfold at its next place() (unfold)
};

}  // namespace nbody
