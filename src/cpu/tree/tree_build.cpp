// The tree's first stages on the CPU: bounding box, Morton keys, sort, octree level by level (Bonsai's
// build: a cell at level L is the bodies sharing a 3L-bit key prefix; a cell of more than `leaf` bodies is
// split into its non-empty children, found by binary search on the sorted keys).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/parallel.hpp"
#include "cpu/tree/cpu_tree.hpp"

namespace nbody {

// The bodies' bounding box, reduced in parallel; the key cube from it as the GPU tree makes it.
void CpuTree::bounding_box() {
    struct Box {
        float lo[3], hi[3];
    };
    const int parts = std::max(1, std::min<int>(m_threads, int(m_n / 4096) + 1));
    std::vector<Box> part(std::size_t(parts),
                          Box{{m_in_x[0], m_in_y[0], m_in_z[0]}, {m_in_x[0], m_in_y[0], m_in_z[0]}});
    const std::size_t chunk = (m_n + std::size_t(parts) - 1) / std::size_t(parts);
    parallel_for(
        std::size_t(parts), parts,
        [&](std::size_t b, std::size_t e) {
            for (std::size_t w = b; w < e; ++w) {
                Box& bx = part[w];
                for (std::size_t i = w * chunk; i < std::min(m_n, (w + 1) * chunk); ++i) {
                    const float v[3] = {m_in_x[i], m_in_y[i], m_in_z[i]};
                    for (int a = 0; a < 3; ++a)
                        bx.lo[a] = std::min(bx.lo[a], v[a]), bx.hi[a] = std::max(bx.hi[a], v[a]);
                }
            }
        },
        1);
    Box all = part[0];
    for (const Box& b : part)
        for (int a = 0; a < 3; ++a)
            all.lo[a] = std::min(all.lo[a], b.lo[a]), all.hi[a] = std::max(all.hi[a], b.hi[a]);
    m_box = tree::key_box_from_bounds(all.lo, all.hi);
}

// Keys in parallel, then a stable LSD radix sort of (key, body) by bytes, skipping bytes every key shares:
// ties keep input order, so the order is a function of the input alone (deterministic for any thread count).
// Each pass runs on parts of the input in parallel: every part counts its byte values, the counts become
// where each (value, part) run starts, value major and part minor (where a serial pass puts them), and every
// part scatters its bodies into its runs in input order.
void CpuTree::sort_by_key(bool short_keys) {
    const auto t0 = std::chrono::steady_clock::now();
    m_keys.resize(m_n), m_keys_tmp.resize(m_n), m_order.resize(m_n), m_order_tmp.resize(m_n);
    parallel_for(
        m_n, m_threads,
        [&](std::size_t b, std::size_t e) {
            for (std::size_t i = b; i < e; ++i) {
                const uint64_t key = tree::body_key(m_in_x[i], m_in_y[i], m_in_z[i], m_box);
                m_keys[i] = short_keys ? key & tree::kShortKeyMask : key;
                m_order[i] = uint32_t(i);
            }
        },
        4096);
    m_key_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // Parts of at least 16,384 bodies: a part's 256 counters are summed serially each pass.
    const std::size_t parts = std::size_t(std::max(1, std::min<int>(m_threads, int(m_n / 16384) + 1)));
    const std::size_t chunk = (m_n + parts - 1) / parts;
    std::vector<std::array<std::size_t, 256>> runs(parts);  // a part's count, then where its next body goes
    auto each_part = [&](auto&& fn) {
        parallel_for(
            parts, int(parts),
            [&](std::size_t b, std::size_t e) {
                for (std::size_t p = b; p < e; ++p) fn(p, p * chunk, std::min(m_n, (p + 1) * chunk));
            },
            1);
    };
    for (int shift = 0; shift < 64; shift += 8) {
        each_part([&](std::size_t p, std::size_t b, std::size_t e) {
            runs[p].fill(0);
            for (std::size_t i = b; i < e; ++i) ++runs[p][(m_keys[i] >> shift) & 0xff];
        });
        std::size_t at = 0, values = 0;
        for (std::size_t d = 0; d < 256; ++d) {
            std::size_t all = 0;
            for (std::size_t p = 0; p < parts; ++p) {
                const std::size_t c = runs[p][d];
                runs[p][d] = at + all;
                all += c;
            }
            at += all;
            values += all > 0;
        }
        if (values == 1) continue;  // one byte value: order unchanged
        each_part([&](std::size_t p, std::size_t b, std::size_t e) {
            for (std::size_t i = b; i < e; ++i) {
                const std::size_t to = runs[p][(m_keys[i] >> shift) & 0xff]++;
                m_keys_tmp[to] = m_keys[i];
                m_order_tmp[to] = m_order[i];
            }
        });
        m_keys.swap(m_keys_tmp);
        m_order.swap(m_order_tmp);
    }
    gather_key_order();
}

void CpuTree::gather_key_order() {
    m_x.resize(m_n), m_y.resize(m_n), m_z.resize(m_n), m_m.resize(m_n);
    parallel_for(
        m_n, m_threads,
        [&](std::size_t b, std::size_t e) {
            for (std::size_t k = b; k < e; ++k) {
                const uint32_t i = m_order[k];
                m_x[k] = m_in_x[i], m_y[k] = m_in_y[i], m_z[k] = m_in_z[i], m_m[k] = m_in_m[i];
            }
        },
        4096);
}

// Level by level: the cells of level L (a contiguous range, breadth first) append their non-empty children,
// which therefore form level L + 1 in order and sit contiguously per parent. A cell at kMaxLevel is a leaf
// whatever its count.
void CpuTree::build(int leaf) {
    m_cells.clear();
    m_level_start.assign(1, 0);
    m_cells.push_back({0, 0, uint32_t(m_n), 0, 0, 0, 0});
    for (int level = 0;; ++level) {
        const uint32_t begin = m_level_start.back(), end = uint32_t(m_cells.size());
        m_level_start.push_back(end);
        if (begin == end) break;
        if (level == tree::kMaxLevel) continue;  // the next pass finds the level empty and stops
        for (uint32_t c = begin; c < end; ++c) {
            tree::TreeCell cell = m_cells[c];
            if (cell.body_count <= uint32_t(leaf)) continue;
            const uint64_t* first = m_keys.data() + cell.body_begin;
            const uint64_t* last = first + cell.body_count;
            cell.first_child = uint32_t(m_cells.size());
            const int shift = tree::level_shift(level + 1);
            for (int o = 0; o < 8 && first != last; ++o) {
                // keys of octant o are the run with (key >> shift) & 7 == o; octants ascend within the cell
                const uint64_t* upto = std::partition_point(
                    first, last, [&](uint64_t k) { return int((k >> shift) & 7u) <= o; });
                if (upto == first) continue;
                const uint64_t prefix = (*first >> shift) << shift;
                m_cells.push_back({prefix, uint32_t(first - m_keys.data()), uint32_t(upto - first), 0, 0,
                                   uint8_t(level + 1), 0});
                ++cell.n_children;
                first = upto;
            }
            m_cells[c] = cell;
        }
    }
    m_level_start.pop_back();  // the empty level's start equals the end: keep one "one past the last" entry
}

}  // namespace nbody
