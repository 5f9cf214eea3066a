#pragma once
// Local density for colouring bodies, from the vertex buffer the renderer draws (positions and masses, which
// every backend fills): two GL compute passes deposit each body's mass into a kGrid^3 grid over a box around
// what the camera looks at, and turn cells into densities in a 3D texture the sprites sample. The colour
// ramp's range comes from a histogram of the cells' log10 density, read back a few frames late through a
// fence (never a stall, except once for the very first range).
//
// Recomputed every frame it is shown: it costs one atomic add a body plus kGrid^3 cells (262,144), less than
// the sprite draw itself (tens of blended fragments a body), and a grid that follows the camera and the
// bodies every frame never lags behind a fast merger.
#include <cstddef>
#include <memory>
#include <string>

#include "render/colour_scale.hpp"
#include "render/gpu_timer.hpp"

namespace nbody {

class DensityGrid {
  public:
    static constexpr int kGrid = 64;  // cells along an edge: about 8 bodies a cell at 2,097,152 bodies
    // The histogram: log10 density from kLogLo to kLogHi, 1/16 decade a bin.
    static constexpr int kBins = 640;
    static constexpr double kLogLo = -20, kLogHi = 20;

    explicit DensityGrid(const std::string& shader_dir);  // throws GlError when a shader fails
    ~DensityGrid();
    DensityGrid(const DensityGrid&) = delete;
    DensityGrid& operator=(const DensityGrid&) = delete;

    // The grid over `box` from n bodies of `pos_buffer` (float4 x, y, z, mass), `total_mass` setting the
    // fixed point (mass units).
    void compute(unsigned pos_buffer, std::size_t n, const GridBox& box, double total_mass);
    unsigned texture() const { return m_texture; }  // R32F, kGrid^3, density in mass / length^3
    const GridBox& box() const { return m_box; }
    // log10 density at the ramp's two ends (the 1st and 99.9th percentiles by mass); invalid before the
    // first.
    const ValueRange& log_range() const { return m_range; }
    double seconds() const { return m_timer.seconds(); }  // GPU time of both passes, a few frames old

  private:
    void read_histogram(bool wait);

    unsigned m_deposit = 0, m_cells_program = 0;
    unsigned m_cells = 0, m_histogram = 0, m_texture = 0;
    void* m_fence = nullptr;  // GLsync of the histogram's last accumulation; null when none is pending
    GridBox m_box;
    ValueRange m_range;
    GpuTimer m_timer;
};

}  // namespace nbody
