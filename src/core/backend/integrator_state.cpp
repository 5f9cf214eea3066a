#include "core/backend/integrator_state.hpp"

#include <cmath>

#include "core/errors.hpp"

namespace nbody {

namespace {
constexpr long long kLoBase = 1LL << 32;  // a count is hi x 2^32 + lo
constexpr double kHiTop = 2147483648.0;   // 2^31: the largest hi, so the count stays within long long

bool whole_in(double v, double top) { return v >= 0 && v < top && v == std::floor(v); }

void split(long long v, double& hi, double& lo) {
    hi = static_cast<double>(v / kLoBase), lo = static_cast<double>(v % kLoBase);
}

// hi x 2^32 + lo, or Error naming `what` where either is not a whole number in its range.
long long joined(double hi, double lo, const std::string& what) {
    if (!whole_in(hi, kHiTop) || !whole_in(lo, static_cast<double>(kLoBase)))
        throw Error("integrator state: " + what +
                    " is not a count (its _hi must be a whole number in [0, 2^31), its _lo in [0, 2^32))");
    return static_cast<long long>(hi) * kLoBase + static_cast<long long>(lo);
}
}  // namespace

void need_backend(const IntegratorState& st, const std::string& backend) {
    if (st.backend != backend)
        throw Error("integrator state written by the '" + st.backend + "' backend, not the " + backend + " backend");
}

std::size_t need_body_count(const IntegratorState& st) {
    const std::vector<double>* x = st.array("x");
    if (!x) throw Error("integrator state: array 'x' is missing");
    return x->size();
}

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
        if (!whole_in(g[i], static_cast<double>(kLoBase)))
            throw Error("integrator state: array 'group' value " + std::to_string(i) + " is not a group number");
        group[i] = static_cast<uint32_t>(g[i]);
    }
    return group;
}

void put_groups(IntegratorState& st, const std::vector<uint32_t>& group, std::size_t n) {
    std::vector<double> g(group.begin(), group.end());
    g.resize(n, 0.0);
    st.arrays.emplace_back("group", std::move(g));
}

void put_counts(IntegratorState& st, const std::string& name, const std::vector<long long>& v) {
    std::vector<double> hi(v.size()), lo(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) split(v[i], hi[i], lo[i]);
    st.arrays.emplace_back(name + "_hi", std::move(hi));
    st.arrays.emplace_back(name + "_lo", std::move(lo));
}

std::vector<long long> need_counts(const IntegratorState& st, const std::string& name, std::size_t n) {
    const std::vector<double>& hi = need_array(st, name + "_hi", n);
    const std::vector<double>& lo = need_array(st, name + "_lo", n);
    std::vector<long long> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = joined(hi[i], lo[i], "array '" + name + "' value " + std::to_string(i));
    return v;
}

void put_count(IntegratorState& st, const std::string& name, long long v) {
    double hi = 0, lo = 0;
    split(v, hi, lo);
    st.scalars.emplace_back(name + "_hi", hi);
    st.scalars.emplace_back(name + "_lo", lo);
}

long long need_count(const IntegratorState& st, const std::string& name) {
    return joined(need_scalar(st, name + "_hi"), need_scalar(st, name + "_lo"), "scalar '" + name + "'");
}

}  // namespace nbody
