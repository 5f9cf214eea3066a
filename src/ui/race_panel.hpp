#pragma once
// The Kernel panel's race section (race_panel.cpp): the Race button, progress and Cancel while it runs, then
// a bar chart of interactions/s per entry with Gflop/s and the force error, and CSV / JSON export.
#include "ui/panels.hpp"

namespace nbody {

void race_section(PanelContext& c);

}  // namespace nbody
