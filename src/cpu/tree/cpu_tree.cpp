// CpuTree: input checks, the stages in order and their timing. The stages live in tree_build.cpp,
// tree_multipoles.cpp and tree_walk.cpp.
#include "cpu/tree/cpu_tree.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/parallel.hpp"
#include "core/tree/groups.hpp"
#include "cpu/force_f32.hpp"

namespace nbody {

static_assert(tree::kSelfFloor == kSelfInteractionFloor, "the tree and the direct loops soften alike");

CpuTree::CpuTree(int threads) : m_threads(resolve_threads(threads)) {}

std::size_t CpuTree::max_bodies() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    // In 64 bits also where size_t has 32 (WebAssembly), where 2^34 would not fit.
    const uint64_t mem = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t(1) << 34;
    // uint32_t body indices; keep below 2^31 so every count and offset also fits a signed int.
    return std::size_t(
        std::min<uint64_t>(mem / kBytesPerBody, uint64_t(std::numeric_limits<int32_t>::max())));
}

namespace {

void check_size(std::size_t n) {
    const std::size_t cap = CpuTree::max_bodies();
    if (n > cap)
        throw Error("tree: " + std::to_string(n) + " bodies need about " +
                    std::to_string(double(n) * CpuTree::kBytesPerBody / 1e9) +
                    " GB; this machine holds a tree of at most " + std::to_string(cap) + " bodies");
}

bool fits_float(double v) {
    return std::isfinite(static_cast<float>(v));
}

// What the tree cannot place: a NaN or infinite coordinate or mass, or one beyond float32's range.
template <class V>
[[noreturn]] void refuse_body(std::size_t i, const V& b) {
    const bool nan = std::isnan(b.x) || std::isnan(b.y) || std::isnan(b.z) || std::isnan(b.w);
    const bool inf = std::isinf(b.x) || std::isinf(b.y) || std::isinf(b.z) || std::isinf(b.w);
    throw Error("tree: body " + std::to_string(i) + ": position or mass " +
                (nan   ? "is NaN"
                 : inf ? "is infinite"
                       : "is beyond float32's range") +
                " (" + limits::format_number(double(b.x)) + ", " + limits::format_number(double(b.y)) + ", " +
                limits::format_number(double(b.z)) + ", m " + limits::format_number(double(b.w)) + ")");
}

// Rounds the bodies to float32 structure of arrays. Checked first, in order and on this thread, so the
// error names the first bad body whatever the thread count (and no worker thread ever throws).
template <class V>
void load(const V* in, std::size_t n, int threads, std::vector<float>& x, std::vector<float>& y,
          std::vector<float>& z, std::vector<float>& m) {
    for (std::size_t i = 0; i < n; ++i) {
        const V& b = in[i];
        if (!(fits_float(b.x) && fits_float(b.y) && fits_float(b.z) && fits_float(b.w))) refuse_body(i, b);
    }
    x.resize(n), y.resize(n), z.resize(n), m.resize(n);
    parallel_for(
        n, threads,
        [&](std::size_t b, std::size_t e) {
            for (std::size_t i = b; i < e; ++i) {
                x[i] = static_cast<float>(in[i].x), y[i] = static_cast<float>(in[i].y);
                z[i] = static_cast<float>(in[i].z), m[i] = static_cast<float>(in[i].w);
            }
        },
        4096);
}

double seconds_since(std::chrono::steady_clock::time_point& t) {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - t).count();
    t = now;
    return s;
}

}  // namespace

template <class V>
void CpuTree::load_and_run(const V* pos_mass, std::size_t n, const TreeParams& p, double eps, WalkOut out,
                           TreeStats* stats, bool acc_holds_last) {
    p.validate();
    check_size(n);
    load(pos_mass, n, m_threads, m_in_x, m_in_y, m_in_z, m_in_m);
    run(n, p, eps, out, stats, acc_holds_last);
}

void CpuTree::evaluate(const Double4* pos_mass, std::size_t n, const TreeParams& p, double eps, Float4* acc,
                       TreeStats* stats, bool acc_holds_last) {
    load_and_run(pos_mass, n, p, eps, WalkOut{acc, nullptr}, stats, acc_holds_last);
}

void CpuTree::evaluate(const Float4* pos_mass, std::size_t n, const TreeParams& p, double eps, Float4* acc,
                       TreeStats* stats, bool acc_holds_last) {
    load_and_run(pos_mass, n, p, eps, WalkOut{acc, nullptr}, stats, acc_holds_last);
}

namespace {
TreeParams without_criterion(TreeParams p) {
    p.alpha = 0;
    return p;
}
}  // namespace

void CpuTree::potentials(const Double4* pos_mass, std::size_t n, const TreeParams& p, double eps, double* phi,
                         TreeStats* stats) {
    load_and_run(pos_mass, n, without_criterion(p), eps, WalkOut{nullptr, phi}, stats, false);
}

void CpuTree::potentials(const Float4* pos_mass, std::size_t n, const TreeParams& p, double eps, double* phi,
                         TreeStats* stats) {
    load_and_run(pos_mass, n, without_criterion(p), eps, WalkOut{nullptr, phi}, stats, false);
}

void CpuTree::evaluate_active(const Float4* pos_mass, std::size_t n, const uint8_t* active,
                              const TreeParams& p, double eps, Float4* acc, TreeStats* stats,
                              bool acc_holds_last, bool may_refit) {
    m_active = active;
    m_may_refit = may_refit;
    try {
        load_and_run(pos_mass, n, p, eps, WalkOut{acc, nullptr}, stats, acc_holds_last);
    } catch (...) {
        m_active = nullptr, m_may_refit = false;
        throw;
    }
    m_active = nullptr, m_may_refit = false;
}

void CpuTree::prepare(const Float4* pos_mass, std::size_t n, const TreeParams& p, TreeStats* stats,
                      bool may_refit) {
    p.validate();
    check_size(n);
    load(pos_mass, n, m_threads, m_in_x, m_in_y, m_in_z, m_in_m);
    TreeStats st;
    make_tree(n, p, st, may_refit);
    if (stats) *stats = st;
}

bool CpuTree::can_refit(std::size_t n, const TreeParams& p, bool may_refit) const {
    return may_refit && n == m_n && !m_cells.empty() && p.leaf == m_built_leaf && p.group == m_built_group;
}

void CpuTree::build_tree(const TreeParams& p, TreeStats& st) {
    m_cells.clear(), m_moments.clear(), m_level_start.clear(), m_groups.clear();
    m_order.clear(), m_keys.clear();
    auto t = std::chrono::steady_clock::now();
    bounding_box();
    st.t_box = seconds_since(t);
    // Short keys or full keys, as the rule in tree_defs.hpp settles it (a second build where the first guess
    // was not the rule's tree: the sort and build times then hold both).
    double key_seconds = 0;
    tree::build_settled(m_short_keys, [&](bool short_keys) {
        sort_by_key(short_keys);  // keys, then the sort; the key time is measured inside
        key_seconds += m_key_seconds;
        st.t_sort += seconds_since(t);
        build(p.leaf);
        st.t_build += seconds_since(t);
        return int(m_level_start.size()) - 2;
    });
    compute_moments(p.open_all ? std::numeric_limits<double>::infinity() : 1.0 / double(p.theta), p.alpha);
    st.t_multipoles = seconds_since(t);
    m_built_leaf = p.leaf, m_built_group = p.group;
    // sort_by_key left the key time in m_key_seconds' place: split it out of the sort's.
    st.t_keys = key_seconds;
    st.t_sort -= key_seconds;
}

// tree/sub_step_rule.hpp: the cells, key order and groups stay; the bodies are gathered into that order from
// where they are now and every cell's multipoles and box are made anew.
void CpuTree::refit_tree(const TreeParams& p, TreeStats& st) {
    auto t = std::chrono::steady_clock::now();
    gather_key_order();
    compute_moments(p.open_all ? std::numeric_limits<double>::infinity() : 1.0 / double(p.theta), p.alpha);
    st.t_multipoles = seconds_since(t);
    st.refitted = true;
}

void CpuTree::run(std::size_t n, const TreeParams& p, double eps, WalkOut out, TreeStats* stats,
                  bool acc_holds_last) {
    if (!(std::isfinite(eps) && eps >= 0)) throw ParamError("eps", "must be >= 0 and finite");
    TreeStats st;
    if (!make_tree(n, p, st, m_may_refit)) {
        if (stats) *stats = st;
        return;
    }
    auto t = std::chrono::steady_clock::now();
    const float soft2 = tree::softening2(eps);
    const bool criterion = p.reads_last_accelerations();
    // The accelerations the criterion needs, under theta alone, for every body (a group's smallest is read)
    if (criterion && !acc_holds_last) walk(soft2, WalkOut{out.acc, nullptr}, st, false, nullptr, false);
    walk(soft2, out, st, criterion, m_active, m_active && tree::walks_active_members(uint32_t(p.group)));
    st.t_walk = seconds_since(t);
    if (stats) *stats = st;
}

bool CpuTree::make_tree(std::size_t n, const TreeParams& p, TreeStats& st, bool may_refit) {
    st.bodies = n;
    const bool refit = can_refit(n, p, may_refit);
    m_n = n;
    m_group_cells.clear(), m_group_bodies.clear();
    if (n == 0) {
        m_cells.clear(), m_moments.clear(), m_level_start.clear(), m_groups.clear();
        m_order.clear(), m_keys.clear();
        return false;
    }
    if (refit)
        refit_tree(p, st);
    else
        build_tree(p, st);
    if (!refit) make_groups(p.group);  // a refit keeps the last tree's
    st.groups = m_groups.size();
    st.cells = m_cells.size();
    st.depth = int(m_level_start.size()) - 2;
    for (const auto& c : m_cells) st.leaves += c.n_children == 0;
    return true;
}

tree::CellBox CpuTree::cell_box(std::size_t cell) const {
    return tree::cell_box(m_cells[cell].key, m_cells[cell].level, m_box);
}

}  // namespace nbody
