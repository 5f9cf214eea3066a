#pragma once
// The tree's cells drawn over the bodies (the View panel's "tree cells"): each cell a wire box of 12 thin
// lines, coloured by its depth, blended translucently over the tone-mapped image so the boxes read the same
// whatever the bodies' brightness. One instanced draw: a box per instance, its 24 line ends from gl_VertexID.
#include <cstddef>
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "core/tree/cell_boxes.hpp"

namespace nbody {

class ShaderProgram;

struct CellSettings {
    bool on = false;
    int depth = 3;          // deepest level drawn (root 0), at most kMaxCellDrawDepth
    float opacity = 0.55f;  // of every line over what is under it
};

// The display-space (sRGB-encoded, 0..1) colour of the lines of cells at `depth`: the root pale, then one hue
// a level, so a class can tell the levels apart; depths past the table reuse its last colour.
glm::vec3 cell_colour(int depth);

class CellRenderer {
  public:
    // Throws GlError (file:line) when cells.vert or cells.frag does not compile.
    explicit CellRenderer(const std::string& shader_directory);
    ~CellRenderer();
    CellRenderer(const CellRenderer&) = delete;
    CellRenderer& operator=(const CellRenderer&) = delete;

    // The boxes to draw until the next call (uploaded now: a few times a second at most).
    void set_boxes(const std::vector<TreeCellBox>& boxes);
    std::size_t boxes() const { return m_count; }
    // Into the framebuffer bound now (display space, after the tone map), alpha-blended.
    void draw(const glm::mat4& view, const glm::mat4& proj, const CellSettings& s);

  private:
    std::unique_ptr<ShaderProgram> m_prog;
    unsigned m_vao = 0, m_buffer = 0;
    std::size_t m_count = 0, m_capacity = 0;  // boxes held, and what the buffer has room for
};

}  // namespace nbody
