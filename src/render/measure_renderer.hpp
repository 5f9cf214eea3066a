#pragma once
// Draws the measuring tools' triangles (measure_overlay.hpp) over the tone-mapped picture, alpha-blended, in
// display space as the tree cells are: the arrows read the same whatever the bodies' brightness.
#include <memory>
#include <vector>

#include "render/measure_overlay.hpp"

namespace nbody {

class ShaderProgram;

class MeasureRenderer {
  public:
    // Throws GlError (file:line) when overlay.vert or overlay.frag does not compile.
    explicit MeasureRenderer(const std::string& shader_directory);
    ~MeasureRenderer();
    MeasureRenderer(const MeasureRenderer&) = delete;
    MeasureRenderer& operator=(const MeasureRenderer&) = delete;

    // Into `target_fbo`, a width x height picture; nothing when `triangles` is empty.
    void draw(const std::vector<OverlayVertex>& triangles, int width, int height, unsigned target_fbo);

  private:
    std::unique_ptr<ShaderProgram> m_prog;
    unsigned m_vao = 0, m_buffer = 0;
    std::size_t m_capacity = 0;  // vertices the buffer has room for
};

}  // namespace nbody
