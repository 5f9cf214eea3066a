#pragma once
// The CPU backend's force evaluator, apart from its integrators as the GPU engines are: the accelerations of
// rows [begin, end) at the bodies' current positions (G included), by SimParams::method and precision.
// Direct summation in fp32 runs the vectorised float32 loop (force_f32), in ds and fp64 the float64 loops
// (force_modes); the tree runs the CPU tree (cpu/tree) in float32 over every body.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/float4.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/sim_params.hpp"
#include "core/tree/cell_boxes.hpp"
#include "cpu/bodies.hpp"
#include "cpu/force_f32.hpp"
#include "cpu/tree/cpu_tree.hpp"

namespace nbody {

class CpuForces {
  public:
    void evaluate(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads);
    // The accelerations of the bodies `rows` only (G included) from every body at its current position: block
    // steps' active set. A row gets the bits evaluate() gives it (the same loops; the tree: the same lists).
    void evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows, int threads);
    // The interactions of the last evaluation of n bodies (the tree: those it evaluated).
    StepWork last_work(const SimParams& p, std::size_t n) const { return rows_work(p, n, n); }
    // The same for `rows` bodies of n (evaluate_rows): direct rows x n, the tree the lists it walked.
    StepWork rows_work(const SimParams& p, std::size_t rows, std::size_t n) const;
    // The last evaluation's cells down to `depth`, for drawing; empty for a method without cells.
    std::vector<TreeCellBox> cells(const SimParams& p, int depth) const;
    // Other bodies from now on: what the last evaluation left (the tree's last accelerations) is not theirs.
    void forget() { m_tree_acc_current = false, m_tree_refittable = false; }
    // A checkpoint is written here: the next block step builds its tree (core/tree/sub_step_rule.hpp) as the run
    // resumed from it will, so both go on with the same bits.
    void build_next_tree() { m_tree_refittable = false; }
    // Bodies from a checkpoint, whose accelerations (G included) are their last evaluation's: the tree's
    // acceleration criterion reads them as the running simulation's tree did: a resumed run keeps its bits.
    void resume(const Bodies& b, const SimParams& p);

  private:
    void direct_f32(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads);
    void direct_f32_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows, int threads);
    SourcesF32 float_sources(const Bodies& b);  // the bodies rounded into m_fx .. m_fm
    void tree_rows_directly(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows, int threads);
    // rows: the bodies to evaluate (null: all), as a mask over every body, `due` of them set
    void tree(Bodies& b, const SimParams& p, int threads, const std::vector<uint8_t>* rows = nullptr,
              std::size_t due = 0);

    std::vector<float> m_fx, m_fy, m_fz, m_fm, m_fax, m_fay, m_faz;  // the fp32 loop's float arrays
    // The tree (made at first use), its input and output in float32, and the last evaluation's counts.
    std::unique_ptr<CpuTree> m_tree;
    std::vector<Float4> m_tree_pos, m_tree_acc;
    bool m_tree_acc_current = false;  // m_tree_acc is its last evaluation of these bodies (alpha reads it)
    bool m_tree_refittable = false;   // the tree's last build is of these bodies and may be refitted
    TreeStats m_tree_stats;
    std::vector<uint8_t> m_row_mask;  // evaluate_rows' bodies, for the tree
};

}  // namespace nbody
