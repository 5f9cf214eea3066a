#include "core/integrator_state.hpp"

#include <cmath>

#include "core/errors.hpp"

namespace nbody {

namespace {
constexpr double kLoBase = 4294967296.0;  // 2^32: one half of a count

bool whole_in(double v, double top) { return v >= 0 && v < top && v == std::floor(v); }

long long joined(double hi, double lo) {
    return static_cast<long long>(hi) * static_cast<long long>(kLoBase) + static_cast<long long>(lo);
}
}  // namespace

const std::vector<double>& need_array(const IntegratorState& st, const std::string& name, std::size_t n) {
    const std::vector<double>* a = st.array(name);
    if (!a) throw Error("integrator state: array '" + name + "' is missing");
    if (a->size() != n)
        throw Error("integrator state: array '" + name + "' has " + std::to_string(a->size()) +
                    " values, expected " + std::to_string(n));
    for (std::size_t i = 0; i < n; ++i)
        if (!std::isfinite((*a)[i]))
            throw Error("integrator state: array '" + name + "' value " + std::to_string(i) + " is not finite");
    return *a;
}

double need_scalar(const IntegratorState& st, const std::string& name) {
    const double* v = st.scalar(name);
    if (!v) throw Error("integrator state: scalar '" + name + "' is missing");
    if (!std::isfinite(*v)) throw Error("integrator state: scalar '" + name + "' is not finite");
    return *v;
}

std::vector<uint32_t> need_groups(const IntegratorState& st, std::size_t n) {
    const std::vector<double>& g = need_array(st, "group", n);
    std::vector<uint32_t> group(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (!whole_in(g[i], kLoBase))
            throw Error("integrator state: array 'group' value " + std::to_string(i) + " is not a group number");
        group[i] = static_cast<uint32_t>(g[i]);
    }
    return group;
}

void put_counts(IntegratorState& st, const std::string& name, const std::vector<long long>& v) {
    std::vector<double> hi(v.size()), lo(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        hi[i] = static_cast<double>(v[i] / static_cast<long long>(kLoBase)),
        lo[i] = static_cast<double>(v[i] % static_cast<long long>(kLoBase));
    st.arrays.emplace_back(name + "_hi", std::move(hi));
    st.arrays.emplace_back(name + "_lo", std::move(lo));
}

std::vector<long long> need_counts(const IntegratorState& st, const std::string& name, std::size_t n) {
    const std::vector<double>& hi = need_array(st, name + "_hi", n);
    const std::vector<double>& lo = need_array(st, name + "_lo", n);
    std::vector<long long> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (!whole_in(hi[i], 2147483648.0) || !whole_in(lo[i], kLoBase))
            throw Error("integrator state: array '" + name + "' value " + std::to_string(i) +
                        " is not a count (its _hi must be a whole number in [0, 2^31), its _lo in [0, 2^32))");
        v[i] = joined(hi[i], lo[i]);
    }
    return v;
}

void put_count(IntegratorState& st, const std::string& name, long long v) {
    st.scalars.emplace_back(name + "_hi", static_cast<double>(v / static_cast<long long>(kLoBase)));
    st.scalars.emplace_back(name + "_lo", static_cast<double>(v % static_cast<long long>(kLoBase)));
}

long long need_count(const IntegratorState& st, const std::string& name) {
    const double hi = need_scalar(st, name + "_hi"), lo = need_scalar(st, name + "_lo");
    if (!whole_in(hi, 2147483648.0) || !whole_in(lo, kLoBase))
        throw Error("integrator state: scalar '" + name +
                    "' is not a count (its _hi must be a whole number in [0, 2^31), its _lo in [0, 2^32))");
    return joined(hi, lo);
}

}  // namespace nbody
