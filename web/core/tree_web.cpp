// The tree the page's WGSL walk reads (web/src/tree_kernel.ts): the desktop's CPU tree (src/cpu/tree/) builds
// it, so the bounding box, the Morton keys, the octree, the quadrupole multipoles, both opening radii
// (Barnes's theta and the acceleration criterion, tree/multipoles.hpp's walk_moments) and the groups
// (tree/groups.hpp) are the desktop's bit for bit. Only the walk moves to the GPU: CpuTree::prepare builds
// (or refits) the tree and its groups and walks none. WebGPU has no barrier across a dispatch's workgroups,
// so a GPU build needs a dispatch a level and a sort of several more; the C++ build in WebAssembly is the one
// the desktop's tests already hold to the accuracy goal. The refits between builds run on the GPU
// (web/src/tree_refit.ts) from this build's cells, level ranges and cell centres; the refit here stays for
// the tests' comparison and the page's A/B.
//
// After build(), the arrays below are views on WebAssembly memory, valid until the next call into the core:
// the page copies each into its GPU buffer at once (queue.writeBuffer copies).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/parallel.hpp"
#include "core/tree/tree_params.hpp"
#include "cpu/tree/cpu_tree.hpp"
#include "threads_web.hpp"

namespace nbody::web {

using emscripten::val;

static_assert(sizeof(tree::CellMoments) == 16 * sizeof(float), "the walk reads a cell as four vec4f rows");
static_assert(sizeof(Float4) == 4 * sizeof(float), "the page's bodies are copied in as x, y, z, m");

class TreeBuild {
  public:
    // The desktop's defaults (TreeParams: theta 1, alpha 0.001, leaf 32, group 32) unless told otherwise; the
    // stages on every thread the module has (the same tree for any count: src/cpu/tree/tree_build.cpp).
    TreeBuild(float theta, float alpha) : m_tree(core_threads()) {
        m_params.theta = theta, m_params.alpha = alpha;
    }

    // Builds the tree of the bodies (a Float32Array of x, y, z, m), or refits the last one where `refit` and
    // the count is the same (its cells, key order and groups kept, every multipole and box made anew from
    // these positions). "" or why not (the tree's words: a NaN body, bad parameters).
    std::string build(const val& pos_mass, bool refit) {
        using clock = std::chrono::steady_clock;
        const auto t0 = clock::now();
        try {
            m_params.validate();
            // One copy, straight into the bodies (x, y, z, m a Float4, as the array holds them).
            const std::size_t n = pos_mass["length"].as<std::size_t>() / 4;
            m_pos.resize(n);
            val(emscripten::typed_memory_view(4 * n, reinterpret_cast<float*>(m_pos.data())))
                .call<void>("set", pos_mass.call<val>("subarray", 0, 4 * n));
            const auto t1 = clock::now();
            m_tree.prepare(m_pos.data(), n, m_params, &m_stats, refit);
            const auto t2 = clock::now();
            pack();
            m_copy_s = std::chrono::duration<double>(t1 - t0).count() +
                       std::chrono::duration<double>(clock::now() - t2).count();
            return {};
        } catch (const std::exception& e) {
            return e.what();
        }
    }

    // 4 u32 a cell, breadth first (root 0): first body (key order), body count, first child, child count (0:
    // a leaf).
    val cells() const { return view(m_cells); }
    // 16 f32 a cell: tree::CellMoments (centre of mass and r_open2; mass and quadrupole; the off-diagonal
    // quadrupole and the trace; r_acc2 and r_far2).
    val moments() const { return view(m_moments); }
    // x, y, z, m of each body in key order (what the leaves' ranges index).
    val sorted() const { return view(m_sorted); }
    // Body k in key order is input body order()[k].
    val order() const { return view(m_tree.order()); }
    // First cell of each level, breadth first, and one past the last cell (levels() has depth + 2 entries): a
    // GPU refit takes the internal cells a level a dispatch, the deepest first.
    val levels() const { return view(m_tree.level_starts()); }
    // 4 f32 a cell: its geometric centre (x, y, z) and side, length units (tree::cell_box, rounded to
    // float32): the point the leaf and parent moments sum about, so the float32 sums keep their digits.
    val centres() const { return view(m_centres); }
    // 4 u32 a group: its first body in key order, its count (at most `group`), and two the walk writes (its
    // list's cells and bodies).
    val groups() const { return view(m_groups); }

    // Counts and seconds a stage of the last build.
    val stats() const {
        val s = val::object();
        s.set("bodies", double(m_stats.bodies));
        s.set("cells", double(m_tree.cells().size()));
        s.set("groups", double(m_tree.groups().size()));
        s.set("depth", int(m_tree.level_starts().size()) - 2);
        s.set("refitted", m_stats.refitted);
        s.set("box", m_stats.t_box);
        s.set("keys", m_stats.t_keys);
        s.set("sort", m_stats.t_sort);
        s.set("build", m_stats.t_build);
        s.set("multipoles", m_stats.t_multipoles);
        s.set("copy", m_copy_s);
        s.set("threads", core_threads());
        return s;
    }

    std::string label() const { return tree_label(m_params); }

  private:
    template <class T>
    static val view(const std::vector<T>& v) {
        return val(emscripten::typed_memory_view(v.size(), v.data()));
    }

    // The flat arrays the WGSL walk reads (tree::TreeCell holds a 64-bit key WGSL has no type for).
    void pack() {
        const auto& cells = m_tree.cells();
        m_cells.resize(4 * cells.size());
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const tree::TreeCell& k = cells[c];
            m_cells[4 * c] = k.body_begin, m_cells[4 * c + 1] = k.body_count;
            m_cells[4 * c + 2] = k.first_child, m_cells[4 * c + 3] = k.n_children;
        }
        m_centres.resize(4 * cells.size());
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const tree::CellBox b = m_tree.cell_box(c);
            m_centres[4 * c] = float(b.cx), m_centres[4 * c + 1] = float(b.cy);
            m_centres[4 * c + 2] = float(b.cz), m_centres[4 * c + 3] = float(b.side);
        }
        const auto& order = m_tree.order();
        m_sorted.resize(4 * order.size());
        parallel_for(  // a gather from anywhere in 16 MB at 1M bodies: the copy's longest part
            order.size(), core_threads(),
            [&](std::size_t b, std::size_t e) {
                for (std::size_t k = b; k < e; ++k) {
                    const Float4& p = m_pos[order[k]];
                    m_sorted[4 * k] = p.x, m_sorted[4 * k + 1] = p.y, m_sorted[4 * k + 2] = p.z,
                                 m_sorted[4 * k + 3] = p.w;
                }
            },
            16384);
        const auto& groups = m_tree.groups();
        m_groups.assign(4 * groups.size(), 0);
        for (std::size_t g = 0; g < groups.size(); ++g)
            m_groups[4 * g] = groups[g].begin, m_groups[4 * g + 1] = groups[g].count;
        // The opening radii of a leaf of one or two bodies are infinite (never accepted); WGSL may assume no
        // infinities, so the largest float stands for them (the same comparisons for every finite distance).
        const auto& moments = m_tree.moments();
        m_moments.resize(16 * moments.size());
        std::memcpy(m_moments.data(), moments.data(), m_moments.size() * sizeof(float));
        for (float& v : m_moments)
            if (std::isinf(v)) v = std::copysign(std::numeric_limits<float>::max(), v);
    }

    CpuTree m_tree;
    TreeParams m_params;
    TreeStats m_stats;
    std::vector<Float4> m_pos;
    std::vector<uint32_t> m_cells, m_groups;
    std::vector<float> m_sorted, m_moments, m_centres;
    double m_copy_s = 0;
};

}  // namespace nbody::web

EMSCRIPTEN_BINDINGS(nbody_tree_build) {
    using nbody::web::TreeBuild;
    emscripten::class_<TreeBuild>("TreeBuild")
        .constructor<float, float>()
        .function("build", &TreeBuild::build)
        .function("cells", &TreeBuild::cells)
        .function("moments", &TreeBuild::moments)
        .function("sorted", &TreeBuild::sorted)
        .function("order", &TreeBuild::order)
        .function("groups", &TreeBuild::groups)
        .function("levels", &TreeBuild::levels)
        .function("centres", &TreeBuild::centres)
        .function("stats", &TreeBuild::stats)
        .function("label", &TreeBuild::label);
}
