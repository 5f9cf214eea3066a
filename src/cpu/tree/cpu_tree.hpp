#pragma once
// The CPU tree code (Barnes-Hut, quadrupole cells, group walk; Barnes 1990 and 1994, staged as Bonsai):
// the reference the GPU tree is tested against and the CPU's fast path at large N. Each evaluate() builds
// the tree afresh: bounding box, 63-bit Morton keys, radix sort, octree level by level, multipoles bottom-up,
// then one interaction list per group of consecutive bodies, evaluated vectorised over all threads. The
// per-element math is shared with the GPU tree (src/core/tree/), so both make the same decisions.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/float4.hpp"
#include "core/tree/morton.hpp"
#include "core/tree/multipoles.hpp"
#include "core/tree/tree_defs.hpp"
#include "core/tree/tree_params.hpp"
#include "cpu/tree/walk_scratch.hpp"

namespace nbody {

class CpuTree {
  public:
    explicit CpuTree(int threads = 0);

    // acc[i] = sum over the tree of body i's acceleration without G (w = 0), at Plummer softening eps.
    // The acceleration criterion (p.alpha > 0) needs each body's last acceleration: with acc_holds_last, acc
    // holds it on entry (the last step's, same bodies and order); without, a first walk under Barnes's test
    // alone finds it (one evaluation then costs about one and a half).
    // Throws ParamError for bad params, nbody::Error naming the first body whose position or mass is NaN,
    // infinite or outside float32's range, and nbody::Error before allocating when n exceeds max_bodies().
    // n = 0 does nothing. Positions are rounded to float32 first: the tree sees what the GPU tree sees.
    void evaluate(const Double4* pos_mass, std::size_t n, const TreeParams& p, double eps, Float4* acc,
                  TreeStats* stats = nullptr, bool acc_holds_last = false);
    void evaluate(const Float4* pos_mass, std::size_t n, const TreeParams& p, double eps, Float4* acc,
                  TreeStats* stats = nullptr, bool acc_holds_last = false);

    // The same for the bodies with active[i] != 0 (input order) only, block steps' active set: the tree is
    // built over every body and only the groups holding an active body are walked, with groups of at most 32
    // each for its active bodies alone (tree::walks_active_members: their box, their smallest acceleration),
    // larger ones whole. With every body active that is evaluate() bit for bit. The other bodies' acc entries
    // are left as they are (the acceleration criterion reads them as their last accelerations); stats count
    // the active bodies'. may_refit (tree::refits' decision, which the caller takes from its active count):
    // the last tree is refitted where it is one of these n bodies under the same leaf and group sizes.
    void evaluate_active(const Float4* pos_mass, std::size_t n, const uint8_t* active, const TreeParams& p,
                         double eps, Float4* acc, TreeStats* stats, bool acc_holds_last,
                         bool may_refit = false);

    // The tree of these bodies and its groups, with no walk: for a walk elsewhere (the page's WGSL walk reads
    // cells(), moments(), order() and groups()). may_refit as above. Throws as evaluate(); n = 0 leaves no
    // tree.
    void prepare(const Float4* pos_mass, std::size_t n, const TreeParams& p, TreeStats* stats,
                 bool may_refit = false);

    // phi[i] = -sum_{j != i} m_j / sqrt(r_ij^2 + eps^2) through the tree, without G: each body's softened
    // potential from the same build and walk as the accelerations, the walk writing potentials in their place
    // (the accepted cells' expansion to quadrupole order, tree::body_cell_potential; each body's sum in
    // float64). Barnes's test alone opens the cells: p.alpha is not read, since the acceleration criterion
    // needs the accelerations this walk does not make. Throws as evaluate(); n = 0 does nothing.
    void potentials(const Double4* pos_mass, std::size_t n, const TreeParams& p, double eps, double* phi,
                    TreeStats* stats = nullptr);
    void potentials(const Float4* pos_mass, std::size_t n, const TreeParams& p, double eps, double* phi,
                    TreeStats* stats = nullptr);

    // The most bodies this machine's memory holds a tree for (about kBytesPerBody a body, all stages).
    static std::size_t max_bodies();
    static constexpr std::size_t kBytesPerBody = 192;

    // The tree of the last evaluation, for drawing and for tests. Cells are breadth first (root at 0).
    const std::vector<tree::TreeCell>& cells() const { return m_cells; }
    const std::vector<tree::CellMoments>& moments() const { return m_moments; }
    tree::KeyBox key_box() const { return m_box; }
    tree::CellBox cell_box(std::size_t cell) const;
    // Body k in key order is input body order()[k].
    const std::vector<uint32_t>& order() const { return m_order; }
    const std::vector<uint64_t>& keys() const { return m_keys; }
    // The groups of the last walk (tree::emit_groups: siblings packed to at most `group` bodies, clear of
    // dense siblings) and per group its interaction list's lengths.
    const std::vector<tree::TreeGroup>& groups() const { return m_groups; }
    const std::vector<uint32_t>& group_cell_counts() const { return m_group_cells; }
    const std::vector<uint32_t>& group_body_counts() const { return m_group_bodies; }
    // First cell index of each level, and one past the last cell (levels = size() - 1).
    const std::vector<uint32_t>& level_starts() const { return m_level_start; }

  private:
    // What a walk writes for the bodies it evaluates, in input order (null: not wanted): accelerations,
    // potentials. Both come from the same interaction lists.
    struct WalkOut {
        Float4* acc = nullptr;
        double* phi = nullptr;
    };
    template <class V>
    void load_and_run(const V* pos_mass, std::size_t n, const TreeParams& p, double eps, WalkOut out,
                      TreeStats* stats, bool acc_holds_last);
    void run(std::size_t n, const TreeParams& p, double eps, WalkOut out, TreeStats* stats,
             bool acc_holds_last);
    // The tree of the loaded bodies (built, or the last refitted where may_refit and can_refit) and its
    // groups; false where n is 0 (no tree).
    bool make_tree(std::size_t n, const TreeParams& p, TreeStats& st, bool may_refit);
    // The new tree (box, keys, sort, octree, multipoles, groups) or the last one refitted; fills st's stages.
    void build_tree(const TreeParams& p, TreeStats& st);
    void refit_tree(const TreeParams& p, TreeStats& st);
    bool can_refit(std::size_t n, const TreeParams& p, bool may_refit) const;
    void bounding_box();
    void sort_by_key(bool short_keys);
    void gather_key_order();  // m_x.. from m_in_x.. through m_order  // tree_defs.hpp: short keys keep the
                              // top 3 kShortLevels bits
    void build(int leaf);
    void compute_moments(double inv_theta, double alpha);
    void make_groups(int group);  // m_groups, tree::emit_groups' rule
    // Over m_groups. use_last: take each group's smallest acceleration from out.acc (read before the group's
    // own write); active (null: all): evaluate those bodies only, skipping the groups without one, each group
    // for its active members alone where sub_groups (tree::walks_active_members of the groups' size limit).
    void walk(float soft2, WalkOut out, TreeStats& st, bool use_last, const uint8_t* active, bool sub_groups);

    int m_threads;
    std::size_t m_n = 0;
    std::vector<float> m_in_x, m_in_y, m_in_z, m_in_m;  // input order
    std::vector<float> m_x, m_y, m_z, m_m;              // key order
    std::vector<uint64_t> m_keys, m_keys_tmp;
    std::vector<uint32_t> m_order, m_order_tmp;
    tree::KeyBox m_box{};
    std::vector<tree::TreeCell> m_cells;
    std::vector<uint32_t> m_level_start;
    std::vector<tree::MomentsD> m_moments_d;
    std::vector<tree::CellMoments> m_moments;
    std::vector<tree::TreeGroup> m_groups;
    std::vector<uint32_t> m_group_cells, m_group_bodies;
    std::vector<WalkScratch> m_walk_scratch;  // a walking thread's lists, kept from walk to walk
    double m_key_seconds = 0;                 // the keys stage of the last sort_by_key()
    bool m_short_keys = true;                 // what the last build settled on: the next one tries it first
    const uint8_t* m_active = nullptr;        // evaluate_active's mask, for the duration of that call
    bool m_may_refit = false;                 // and its refit decision
    int m_built_leaf = 0, m_built_group = 0;  // the sizes the cells and groups were made with
};

}  // namespace nbody
