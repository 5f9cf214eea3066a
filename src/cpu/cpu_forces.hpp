#pragma once
// The CPU backend's force evaluator, apart from its integrators as the GPU engines are: the accelerations of
// rows [begin, end) at the bodies' current positions (G included), by the evaluator of SimParams::method that
// the table of cpu/cpu_force_evaluator.hpp makes (direct summation in each precision, the CPU tree, or one
// added there). Each method's evaluator is made at its first use and kept, with what it carries between
// evaluations, while the backend lives.
#include <cstddef>
#include <memory>
#include <vector>

#include "core/rows/sim_params.hpp"
#include "core/tree/cell_boxes.hpp"
#include "cpu/bodies.hpp"
#include "cpu/cpu_force_evaluator.hpp"

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
    void forget();
    // A checkpoint is written here: the next block step builds its tree (core/tree/sub_step_rule.hpp) as the run
    // resumed from it will, so both go on with the same bits.
    void build_next_tree();
    // Bodies from a checkpoint, whose accelerations (G included) are their last evaluation's: the tree's
    // acceleration criterion reads them as the running simulation's tree did: a resumed run keeps its bits.
    void resume(const Bodies& b, const SimParams& p);

  private:
    // p.method's evaluator, made at first use; the others are told that the bodies moved on without them.
    // Throws ParamError where the table has no evaluator for the method.
    CpuForceEvaluator& evaluator_for(ForceMethod m);
    const CpuForceEvaluator* made(ForceMethod m) const;  // null before its first use

    std::vector<std::unique_ptr<CpuForceEvaluator>> m_evaluators;  // by method id
};

}  // namespace nbody
