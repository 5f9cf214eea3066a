#pragma once
// The window's scene changes: a scene asked for by the Scene panel (reduced when a step of all its bodies
// would stall the window here, app/load_plan.hpp; on the CPU as app/step_probe.hpp measures it), "Load full
// N", generation off the frame loop with a progress line, Esc's cancel, and the reduced scene's steps timed
// for the note's estimate.
#include <map>
#include <optional>
#include <string>

#include "app/load_plan.hpp"
#include "app/viewer.hpp"
#include "core/rows/force_method.hpp"

namespace nbody {

class SceneSwitch {
  public:
    explicit SceneSwitch(Viewer& v) : m_viewer(v) {}

    // The plan the window started with (window_start_options), kept for "Load full N".
    LoadPlan& plan() { return m_plan; }
    // Starts loading `asked` (a copy: it may be the plan's own full request, which planning replaces); `full`
    // loads every body. Returns a message when it replaced a load under way, else "".
    std::string load(LoadRequest asked, bool full = false);
    std::string load_full();  // the reduced scene's full request, if any
    // Each frame: true when a new scene took over this frame. status() is the progress line while one
    // generates, else the last load's error ("" after a success).
    bool poll();
    const std::string& status() const { return m_status; }
    // Each frame after stepping: the reduced scene's steps, timed (the estimate is printed on stderr once).
    void measure();

  private:
    std::size_t smooth_bodies(ForceMethod method, int threads);  // measured once per method (step_probe.hpp)

    Viewer& m_viewer;
    LoadPlan m_plan;          // the scene loading or, once it runs, running
    LoadPlan m_running_plan;  // the running scene's while another loads
    std::string m_loading_name;  // the scene being generated, for the progress line
    std::string m_status;
    std::map<ForceMethod, std::size_t> m_smooth;  // each method's CPU smooth body count once measured
};

// The command line's scene, reduced as the Scene panel reduces one (a snapshot or a checkpoint loads as it
// is): the window opens at once on a scene it can step smoothly, with "Load full N" for the rest.
AppOptions window_start_options(const AppOptions& o, LoadPlan& plan);

}  // namespace nbody
