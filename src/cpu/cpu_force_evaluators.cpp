#include "cpu/cpu_force_evaluator.hpp"

#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "cpu/direct_evaluator.hpp"
#include "cpu/tree/tree_evaluator.hpp"

namespace nbody {

namespace {
template <class Evaluator>
CpuForceEvaluatorMaker maker() {
    return [] { return std::make_unique<Evaluator>(); };
}

// Indexed by the method's id; an empty entry: no evaluator for that id.
std::vector<CpuForceEvaluatorMaker>& makers() {
    static std::vector<CpuForceEvaluatorMaker> table = [] {
        std::vector<CpuForceEvaluatorMaker> t(2);
        t[static_cast<std::size_t>(ForceMethod::Direct)] = maker<DirectEvaluator>();
        t[static_cast<std::size_t>(ForceMethod::Tree)] = maker<TreeEvaluator>();
        return t;
    }();
    return table;
}
}  // namespace

StepWork CpuForceEvaluator::direct_rows_work(std::size_t rows, std::size_t n) {
    const double pairs = double(rows) * double(n);
    return {pairs, 0.0, pairs};
}

void add_cpu_force_evaluator(ForceMethod m, CpuForceEvaluatorMaker make) {
    std::vector<CpuForceEvaluatorMaker>& table = makers();
    const auto k = static_cast<std::size_t>(m);
    if (table.size() <= k) table.resize(k + 1);
    table[k] = std::move(make);
}

bool cpu_evaluates(ForceMethod m) {
    const auto k = static_cast<std::size_t>(m);
    return k < makers().size() && makers()[k];
}

void check_cpu_evaluates(ForceMethod m) {
    if (!cpu_evaluates(m))
        throw ParamError("method", "the cpu backend has no evaluator for method " + std::string(method_name(m)) +
                                       " (add_cpu_force_evaluator in cpu/cpu_force_evaluator.hpp)");
}

std::unique_ptr<CpuForceEvaluator> make_cpu_force_evaluator(ForceMethod m) {
    return cpu_evaluates(m) ? makers()[static_cast<std::size_t>(m)]() : nullptr;
}

}  // namespace nbody
