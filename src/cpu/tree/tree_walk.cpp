// The group walk (Barnes 1990): consecutive bodies in key order form a group that shares one interaction
// list. Per group: its bounding box, a breadth-first pass over the tree with the shared opening test
// (accepted cells -> the cell list; opened leaves -> the body list), then the vectorised evaluation of what
// is asked for: accelerations, potentials, or both from the same lists.
// Groups are handed out to the threads in small blocks from an atomic counter (the centre of a galaxy costs
// more than its outskirts); each group's result depends only on the tree, so any thread count gives the
// same bits.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "core/tree/groups.hpp"
#include "core/tree/interactions.hpp"
#include "cpu/tree/cpu_tree.hpp"
#include "cpu/tree/tree_eval.hpp"
#include "cpu/tree/walk_scratch.hpp"

namespace nbody {

namespace {

// The bounding box of the bodies member[0..count) (key order), count >= 1.
tree::GroupBox members_box(const float* x, const float* y, const float* z, const uint32_t* member,
                           uint32_t count) {
    const uint32_t b = member[0];
    tree::GroupBox g{x[b], y[b], z[b], x[b], y[b], z[b]};
    for (uint32_t j = 1; j < count; ++j) {
        const uint32_t k = member[j];
        g.x0 = std::min(g.x0, x[k]), g.x1 = std::max(g.x1, x[k]);
        g.y0 = std::min(g.y0, y[k]), g.y1 = std::max(g.y1, y[k]);
        g.z0 = std::min(g.z0, z[k]), g.z1 = std::max(g.z1, z[k]);
    }
    return g;
}

}  // namespace

void CpuTree::make_groups(int group) {
    m_groups.clear();
    for (uint32_t c = 0; c < m_cells.size(); ++c)
        tree::emit_groups(m_cells.data(), m_moments_d.data(), c, uint32_t(group),
                          [&](uint32_t b, uint32_t k) {
                              m_groups.push_back({b, k});
                          });
}

void CpuTree::walk(float soft2, WalkOut out, TreeStats& st, bool use_last, const uint8_t* active,
                   bool sub_groups) {
    Float4* const acc = out.acc;
    const uint32_t groups = uint32_t(m_groups.size());
    st.groups = groups;
    m_group_cells.assign(groups, 0);
    m_group_bodies.assign(groups, 0);
    std::atomic<uint32_t> next{0};
    const uint32_t block = 4;  // groups taken at a time
    const int threads = int(std::min<uint32_t>(uint32_t(m_threads), (groups + block - 1) / block));
    const std::size_t used = std::size_t(std::max(1, threads));
    if (m_walk_scratch.size() < used) m_walk_scratch.resize(used);
    std::vector<WalkScratch>& scratch = m_walk_scratch;
    for (std::size_t t = 0; t < used; ++t) scratch[t].begin(m_cells.size());

    auto one_group = [&](WalkScratch& s, uint32_t g) {
        const uint32_t gb = m_groups[g].begin, ge = gb + m_groups[g].count;
        uint32_t ni = ge - gb;  // the bodies evaluated: all of the group, or its active ones
        if (active) {
            ni = 0;
            for (uint32_t k = gb; k < ge; ++k)
                if (active[m_order[k]]) s.picked[ni++] = k;
            if (ni == 0) return;  // no list: the group's bodies only drift this step
        }
        s.walked += ge - gb;
        // The members whose box and smallest acceleration decide the openings: the active ones alone in a
        // sub-group (tree::walks_active_members), else the whole group (every body of a full walk).
        const bool sub = active && sub_groups;
        if (!sub)
            for (uint32_t k = gb; k < ge; ++k) s.member[k - gb] = k;
        const uint32_t* member = sub ? s.picked : s.member;
        const uint32_t members = sub ? ni : ge - gb;
        const tree::GroupBox box = members_box(m_x.data(), m_y.data(), m_z.data(), member, members);
        float factor = tree::kNoAcceleration;
        if (use_last) {  // the members' last accelerations: only this group writes them, at its end
            float amin2 = HUGE_VALF;
            for (uint32_t j = 0; j < members; ++j) {
                const Float4& a = acc[m_order[member[j]]];
                amin2 = std::min(amin2, tree::norm2_rn(a.x, a.y, a.z));
            }
            factor = tree::group_accel_factor(amin2);
        }
        // breadth first: cells in queue order; accepted ones and opened leaves recorded by index
        uint32_t* queue = s.queue.data();
        uint32_t tail = 1, n_acc = 0, n_leaf = 0;
        std::size_t leaf_bodies = 0;
        queue[0] = 0;
        for (uint32_t head = 0; head < tail; ++head) {
            const uint32_t ci = queue[head];
            const tree::TreeCell& cell = m_cells[ci];
            if (tree::accept_cell(box, gb, ge, cell, m_moments[ci], factor)) {
                s.accepted[n_acc++] = ci;
            } else if (cell.n_children == 0) {
                s.leaves[n_leaf++] = ci;
                leaf_bodies += cell.body_count;
            } else {
                for (uint32_t k = 0; k < cell.n_children; ++k) queue[tail++] = cell.first_child + k;
            }
        }
        s.fit(n_acc, leaf_bodies, out.phi != nullptr);
        for (uint32_t k = 0; k < n_acc; ++k) {
            const tree::CellMoments& q = m_moments[s.accepted[k]];
            s.c[0][k] = q.x, s.c[1][k] = q.y, s.c[2][k] = q.z, s.c[3][k] = q.m, s.c[4][k] = q.qxx;
            s.c[5][k] = q.qyy, s.c[6][k] = q.qzz, s.c[7][k] = q.qxy, s.c[8][k] = q.qxz, s.c[9][k] = q.qyz;
            s.c[10][k] = tree::softened_trace(q.tr, soft2);
        }
        std::size_t nb = 0;
        for (uint32_t k = 0; k < n_leaf; ++k) {
            const tree::TreeCell& cell = m_cells[s.leaves[k]];
            const std::size_t bytes = cell.body_count * sizeof(float);
            std::memcpy(&s.b[0][nb], &m_x[cell.body_begin], bytes);
            std::memcpy(&s.b[1][nb], &m_y[cell.body_begin], bytes);
            std::memcpy(&s.b[2][nb], &m_z[cell.body_begin], bytes);
            std::memcpy(&s.b[3][nb], &m_m[cell.body_begin], bytes);
            if (out.phi)
                for (uint32_t j = 0; j < cell.body_count; ++j) s.bk[nb + j] = cell.body_begin + j;
            nb += cell.body_count;
        }
        const CellListF32 cl{s.c[0].data(), s.c[1].data(), s.c[2].data(),  s.c[3].data(),
                             s.c[4].data(), s.c[5].data(), s.c[6].data(),  s.c[7].data(),
                             s.c[8].data(), s.c[9].data(), s.c[10].data(), n_acc};
        const SourcesF32 bl{s.b[0].data(), s.b[1].data(), s.b[2].data(), s.b[3].data(), nb};
        // The evaluated bodies' positions in key order (the whole group's run of them, or the active ones
        // gathered) and their coordinates.
        const uint32_t* keys = active ? s.picked : s.member;
        if (active)
            for (uint32_t k = 0; k < ni; ++k) {
                const uint32_t b = s.picked[k];
                s.xi[k] = m_x[b], s.yi[k] = m_y[b], s.zi[k] = m_z[b];
            }
        const float* xi = active ? s.xi : &m_x[gb];
        const float* yi = active ? s.yi : &m_y[gb];
        const float* zi = active ? s.zi : &m_z[gb];
        if (acc) {
            tree_group_forces(cl, bl, xi, yi, zi, ni, soft2, s.ax, s.ay, s.az);
            for (uint32_t k = 0; k < ni; ++k) acc[m_order[keys[k]]] = {s.ax[k], s.ay[k], s.az[k], 0.f};
        }
        if (out.phi) {
            tree_group_potentials(cl, bl, s.bk.data(), xi, yi, zi, keys, ni, soft2, s.phi);
            for (uint32_t k = 0; k < ni; ++k) out.phi[m_order[keys[k]]] = -s.phi[k];
        }
        m_group_cells[g] = n_acc;
        m_group_bodies[g] = uint32_t(nb);
        s.body_cell += uint64_t(n_acc) * ni;
        s.body_body += uint64_t(nb) * ni;
    };
    auto worker = [&](WalkScratch& s) {
        for (uint32_t g0; (g0 = next.fetch_add(block, std::memory_order_relaxed)) < groups;)
            for (uint32_t g = g0; g < std::min(groups, g0 + block); ++g) one_group(s, g);
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < used; ++t) pool.emplace_back(worker, std::ref(scratch[t]));
    worker(scratch[0]);
    for (auto& th : pool) th.join();
    // this walk's lists (a first walk's are not the forces')
    st.body_body = st.body_cell = st.walked_bodies = 0;
    for (std::size_t t = 0; t < used; ++t) {
        const WalkScratch& s = scratch[t];
        st.body_body += s.body_body, st.body_cell += s.body_cell, st.walked_bodies += s.walked;
    }
}

}  // namespace nbody
