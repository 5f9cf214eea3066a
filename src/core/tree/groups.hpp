#pragma once
// The walk's groups (TreeGroup: consecutive bodies in key order sharing one interaction list, one warp on the
// GPU), made of cells by one rule that both trees run (NBODY_TREE_HD), so the CPU tree (src/cpu/tree/) and
// the GPU tree (cuda/tree/tree_groups.cu) walk the same groups.
#include <math.h>

#include <cstdint>

#include "core/tree/multipoles.hpp"
#include "core/tree/tree_defs.hpp"

namespace nbody::tree {

// Block steps' active-only walk: with groups of at most 32 bodies (the GPU walk's one body a lane) a group
// holding active bodies walks for them alone, a sub-group: their box and smallest acceleration decide the
// openings, so a body that only drifts this step neither widens the box nor takes a lane (Milky Way-Andromeda
// at eta 0.4: a tenth of the lanes walked were inactive bodies'). Larger groups walk whole. Both trees follow
// this rule, so they open the same cells.
NBODY_TREE_HD bool walks_active_members(uint32_t group) {
    return group <= 32;
}

// An axis-aligned box of bodies, closed (exact float32 minima and maxima): a cell's from its moments, or the
// union of the pieces packed into a group.
struct BodyBox {
    float lo[3], hi[3];
};

NBODY_TREE_HD BodyBox body_box(const MomentsD& q) {
    return {{q.lo[0], q.lo[1], q.lo[2]}, {q.hi[0], q.hi[1], q.hi[2]}};
}

NBODY_TREE_HD BodyBox united(const BodyBox& a, const BodyBox& b) {
    BodyBox u;
    for (int k = 0; k < 3; ++k) u.lo[k] = fminf(a.lo[k], b.lo[k]), u.hi[k] = fmaxf(a.hi[k], b.hi[k]);
    return u;
}

// Closed boxes: touching counts.
NBODY_TREE_HD bool overlap(const BodyBox& a, const BodyBox& b) {
    for (int k = 0; k < 3; ++k)
        if (a.hi[k] < b.lo[k] || b.hi[k] < a.lo[k]) return false;
    return true;
}

// The groups are made of cells, so their bodies are close together (consecutive bodies in key order are not:
// the Morton curve jumps, and a group across a jump spans half the system and opens almost every cell). Cell p
// emits its children that hold at most `group` bodies or are leaves (the root itself when it is one of those),
// a leaf larger than `group` (leaf > group, or capped at the deepest level) in chunks of `group` (each taking
// the leaf's box), and packs consecutive pieces into one group while the box of the packed bodies overlaps no
// split child of p (one with more than `group` bodies, which emits its own children); a piece that does not fit
// whole tops the group up to exactly `group` bodies and starts the next with its rest. Packing fills a warp's
// lanes: one group a child left them 9 of 32 full on a Plummer sphere of 1M bodies; packing whole pieces fills
// 23 and halves the walk's work at the same lists; topping up fills 25.4 for 8% fewer groups, whose lists are
// 3% longer (a group now spans parts of two siblings): the 1M walk 6.6% faster on an H100.
// Why the box: a few outskirt bodies on either side of a cluster's dense core, packed, make a group whose box
// spans the core; that group opens the core down to its leaves and one warp walks the list while the rest of
// the GPU waits. Where a core sits inside a cell rather than at a cell's corner (a cluster off the key cube's
// centre: two clusters 1e4 apart), such a group listed 56,000 bodies at N = 131,072, 15 times the mean group's
// work. With the rule the costliest group is about 3 times the mean on one Plummer sphere, two far clusters and
// the Cartwheel alike, for 1% more groups (tests/unit/core/tree/test_tree_groups.cpp).
// moments[c]: cell c's (their lo, hi). visit(begin, count) is called once per group, in order; returns how many.
template <class Visit>
NBODY_TREE_HD uint32_t emit_groups(const TreeCell* cells, const MomentsD* moments, uint32_t p, uint32_t group,
                                   Visit&& visit) {
    const TreeCell& c = cells[p];
    const auto whole = [&](const TreeCell& k) { return k.body_count <= group || k.n_children == 0; };
    uint32_t split = 0;  // bit k: child k is split (it emits its own children)
    for (uint32_t k = 0; k < c.n_children; ++k)
        if (!whole(cells[c.first_child + k])) split |= 1u << k;
    const auto blocked = [&](const BodyBox& b) {
        for (uint32_t k = 0; k < c.n_children; ++k)
            if ((split >> k & 1u) && overlap(b, body_box(moments[c.first_child + k]))) return true;
        return false;
    };
    uint32_t made = 0, begin = 0, count = 0;  // the group being packed: [begin, begin + count)
    BodyBox box{};                            // and its bodies' box
    auto flush = [&]() {
        if (count == 0) return;
        visit(begin, count);
        ++made;
        count = 0;
    };
    // Piece [b, b + k) (k <= group) with box kb; pieces are contiguous only between emitted siblings. A piece
    // that may join the group but does not fit tops it up to exactly `group` (the whole piece's box bounding its
    // part's) and starts the next group with its rest.
    auto add = [&](uint32_t b, uint32_t k, const BodyBox& kb) {
        const BodyBox u = united(box, kb);
        if (count > 0 && (begin + count != b || (split != 0 && blocked(u)))) flush();
        if (count > 0 && count + k > group) {
            const uint32_t take = group - count;
            count = group, box = u;
            flush();
            b += take, k -= take;
        }
        if (count == 0)
            begin = b, box = kb;
        else
            box = u;
        count += k;
    };
    auto chunks = [&](uint32_t ci) {
        const TreeCell& k = cells[ci];
        const BodyBox kb = body_box(moments[ci]);
        for (uint32_t b = 0; b < k.body_count; b += group)
            add(k.body_begin + b, k.body_count - b < group ? k.body_count - b : group, kb);
    };
    if (p == 0 && whole(c)) chunks(0);
    if (c.body_count > group && c.n_children > 0)
        for (uint32_t k = 0; k < c.n_children; ++k)
            if (!(split >> k & 1u)) chunks(c.first_child + k);
    flush();
    return made;
}

}  // namespace nbody::tree
