#pragma once
// One force method's evaluator on the CPU backend, and the table that finds it by the method's id: the CPU
// backend (cpu/cpu_forces.hpp) asks the table for the running method's evaluator, so a new method is its row
// (core/rows/force_method.hpp), its evaluator and one add_cpu_force_evaluator call, with no switch to edit.
// Direct summation (cpu/direct_evaluator.hpp) and the tree (cpu/tree/tree_evaluator.hpp) are built in.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "core/counters.hpp"  // StepWork
#include "core/enums/force_method_id.hpp"
#include "core/rows/sim_params.hpp"
#include "core/tree/cell_boxes.hpp"
#include "cpu/bodies.hpp"

namespace nbody {

// Accelerations are written without G (CpuForces applies it, in float64, for every method alike). An
// evaluator may keep what it learnt from its last evaluation (the tree's last accelerations, its build) as
// long as the hooks below say those bodies are still the ones it saw.
class CpuForceEvaluator {
  public:
    virtual ~CpuForceEvaluator() = default;
    // The accelerations of rows [begin, end) from every body at its current position.
    virtual void evaluate(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads) = 0;
    // The accelerations of the bodies `rows` only (block steps' active set): each row gets the bits
    // evaluate() would give it.
    virtual void evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                               int threads) = 0;
    // The interactions of the last evaluation of `rows` bodies of n; by default direct summation's rows x n.
    virtual StepWork rows_work(std::size_t rows, std::size_t n) const { return direct_rows_work(rows, n); }
    static StepWork direct_rows_work(std::size_t rows, std::size_t n);
    // The last evaluation's cells down to `depth`, for drawing (a method whose row has has_cells).
    virtual std::vector<TreeCellBox> cells(int /*depth*/) const { return {}; }

    // Other bodies from now on: nothing of the last evaluation is theirs.
    virtual void forget() {}
    // Another method evaluated these bodies since this one did: its last accelerations are not theirs now.
    virtual void bodies_moved_on() {}
    // A checkpoint is written here: the next evaluation starts afresh (no refit), as the resumed run will.
    virtual void build_next_afresh() {}
    // Bodies from a checkpoint whose accelerations (G included) are their last evaluation's by this method.
    virtual void resume(const Bodies& /*b*/, const SimParams& /*p*/) {}
};

using CpuForceEvaluatorMaker = std::function<std::unique_ptr<CpuForceEvaluator>()>;

// Makes m's evaluator from now on (a CPU backend makes one the first time it runs m). Call it before a CPU
// backend runs m, and before anything reads the table on another thread.
void add_cpu_force_evaluator(ForceMethod m, CpuForceEvaluatorMaker make);
// Whether the table has an evaluator for m; a new one of m's evaluator, or null where it has none.
bool cpu_evaluates(ForceMethod m);
// Throws ParamError naming m where the table has no evaluator for it.
void check_cpu_evaluates(ForceMethod m);
std::unique_ptr<CpuForceEvaluator> make_cpu_force_evaluator(ForceMethod m);

}  // namespace nbody
