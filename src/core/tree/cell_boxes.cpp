#include "core/tree/cell_boxes.hpp"

#include <algorithm>

#include "core/tree/morton.hpp"

namespace nbody {

std::vector<TreeCellBox> cell_boxes(const tree::TreeCell* cells, std::size_t count, const tree::KeyBox& box,
                                    int depth) {
    depth = std::clamp(depth, 0, kMaxCellDrawDepth);
    std::vector<TreeCellBox> out;
    for (std::size_t i = 0; i < count; ++i) {
        const tree::TreeCell& c = cells[i];
        if (c.level > depth) break;  // breadth first: every later cell is at least as deep
        const tree::CellBox b = tree::cell_box(c.key, c.level, box);
        out.push_back({float(b.cx), float(b.cy), float(b.cz), float(0.5 * b.side), int(c.level)});
    }
    return out;
}

}  // namespace nbody
