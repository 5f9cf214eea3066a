#pragma once
// The tree on the CPU backend: the CPU tree (cpu/tree/cpu_tree.hpp) in float32 over every body, with what the
// acceleration criterion and block steps carry from one evaluation to the next (its last accelerations, a
// build that may be refitted; core/tree/sub_step_rule.hpp).
#include <cstdint>
#include <memory>
#include <vector>

#include "core/float4.hpp"
#include "cpu/cpu_force_evaluator.hpp"
#include "cpu/direct_evaluator.hpp"
#include "cpu/tree/cpu_tree.hpp"

namespace nbody {

class TreeEvaluator final : public CpuForceEvaluator {
  public:
    void evaluate(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads) override;
    void evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                       int threads) override;
    // The lists it walked (or the direct sum's pairs where few due bodies summed directly).
    StepWork rows_work(std::size_t rows, std::size_t n) const override;
    std::vector<TreeCellBox> cells(int depth) const override;

    void forget() override { m_acc_current = false, m_refittable = false; }
    void bodies_moved_on() override { m_acc_current = false; }
    void build_next_afresh() override { m_refittable = false; }
    void resume(const Bodies& b, const SimParams& p) override;

  private:
    // rows: the bodies to evaluate (null: all), as a mask over every body, `due` of them set
    void walk(Bodies& b, const SimParams& p, int threads, const std::vector<uint8_t>* rows = nullptr,
              std::size_t due = 0);
    void rows_directly(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows, int threads);

    // The tree (made at first use), its input and output in float32, and the last evaluation's counts.
    std::unique_ptr<CpuTree> m_tree;
    std::vector<Float4> m_pos, m_acc;
    bool m_acc_current = false;  // m_acc is its last evaluation of these bodies (alpha reads it)
    bool m_refittable = false;   // the tree's last build is of these bodies and may be refitted
    TreeStats m_stats;
    std::vector<uint8_t> m_row_mask;  // evaluate_rows' bodies
    DirectF32Sum m_direct;            // few due bodies' sums
};

}  // namespace nbody
