#pragma once
// Direct summation on the CPU: in fp32 the vectorised float32 loop (cpu/force_f32.hpp) over float copies of
// the bodies, in ds and fp64 the float64 loops (cpu/force_modes.hpp). The float32 sum is its own class too,
// since the tree sums few due bodies directly with it (core/tree/sub_step_rule.hpp).
#include <cstddef>
#include <vector>

#include "cpu/cpu_force_evaluator.hpp"
#include "cpu/force_f32.hpp"

namespace nbody {

// Each i row is summed by one thread in a fixed j order, so a row's bits are the same for any thread count,
// any split of the rows over ranks, and whether it is summed alone (evaluate_rows) or with the others.
class DirectF32Sum {
  public:
    void evaluate(Bodies& b, double eps, std::size_t begin, std::size_t end, int threads);
    void evaluate_rows(Bodies& b, double eps, const std::vector<std::size_t>& rows, int threads);

  private:
    SourcesF32 float_sources(const Bodies& b);  // the bodies rounded into m_fx .. m_fm
    std::vector<float> m_fx, m_fy, m_fz, m_fm, m_fax, m_fay, m_faz;
};

class DirectEvaluator final : public CpuForceEvaluator {
  public:
    void evaluate(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads) override;
    void evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                       int threads) override;

  private:
    DirectF32Sum m_f32;
};

}  // namespace nbody
