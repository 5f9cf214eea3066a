#include "g6/neighbour_tree.hpp"

#include <algorithm>
#include <cmath>

namespace nbody::g6 {

namespace {
constexpr int kLeaf = 8;  // sources a leaf holds at most
}

NeighbourTree::NeighbourTree(const double* x, const double* y, const double* z, std::size_t sources)
    : m_x(x), m_y(y), m_z(z) {
    for (std::size_t s = 0; s < sources; ++s)
        if (std::isfinite(x[s]) && std::isfinite(y[s]) && std::isfinite(z[s])) m_order.push_back(static_cast<int>(s));
    m_nodes.reserve(2 * m_order.size() / kLeaf + 2);
    if (!m_order.empty()) build(0, static_cast<int>(m_order.size()));
}

// Splits at the median of the widest side (nth_element: O(n) a level, so O(n log n) in all; depth log2(n / 8)).
int NeighbourTree::build(int begin, int end) {
    const int id = static_cast<int>(m_nodes.size());
    m_nodes.push_back({});
    Node n{};
    n.begin = begin, n.end = end;
    for (int a = 0; a < 3; ++a) n.lo[a] = HUGE_VAL, n.hi[a] = -HUGE_VAL;
    const double* c[3] = {m_x, m_y, m_z};
    for (int k = begin; k < end; ++k)
        for (int a = 0; a < 3; ++a) {
            const double v = c[a][m_order[std::size_t(k)]];
            n.lo[a] = std::min(n.lo[a], v), n.hi[a] = std::max(n.hi[a], v);
        }
    if (end - begin > kLeaf) {
        int axis = 0;
        for (int a = 1; a < 3; ++a)
            if (n.hi[a] - n.lo[a] > n.hi[axis] - n.lo[axis]) axis = a;
        const int mid = begin + (end - begin) / 2;
        const double* v = c[axis];
        std::nth_element(m_order.begin() + begin, m_order.begin() + mid, m_order.begin() + end,
                         [v](int p, int q) { return v[p] < v[q]; });
        n.left = build(begin, mid);
        n.right = build(mid, end);
    }
    m_nodes[std::size_t(id)] = n;
    return id;
}

double NeighbourTree::box_dist2(const Node& n, const double p[3]) const {
    double d2 = 0;
    for (int a = 0; a < 3; ++a) {
        const double d = p[a] < n.lo[a] ? n.lo[a] - p[a] : (p[a] > n.hi[a] ? p[a] - n.hi[a] : 0.0);
        d2 += d * d;
    }
    return d2;
}

// Branch and bound: a box farther than the best so far (strictly: an equal one may hold a lower position) is
// passed over; the nearer child first.
void NeighbourTree::nearest_in(int id, const double p[3], double& best, int& out) const {
    const Node& n = m_nodes[std::size_t(id)];
    if (box_dist2(n, p) > best * (1 + 1e-12)) return;  // the margin: the box's and the sources' roundings differ
    if (n.left < 0) {
        for (int k = n.begin; k < n.end; ++k) {
            const int s = m_order[std::size_t(k)];
            const double r2 = dist2(m_x[s], m_y[s], m_z[s], p[0], p[1], p[2]);
            if (r2 > 0 && (r2 < best || (r2 == best && s < out))) best = r2, out = s;
        }
        return;
    }
    const Node& l = m_nodes[std::size_t(n.left)];
    const Node& r = m_nodes[std::size_t(n.right)];
    const bool left_first = box_dist2(l, p) <= box_dist2(r, p);
    nearest_in(left_first ? n.left : n.right, p, best, out);
    nearest_in(left_first ? n.right : n.left, p, best, out);
}

void NeighbourTree::within_in(int id, const double p[3], double h2, std::vector<int>& out) const {
    const Node& n = m_nodes[std::size_t(id)];
    if (!(box_dist2(n, p) < h2 * (1 + 1e-12))) return;
    if (n.left < 0) {
        for (int k = n.begin; k < n.end; ++k) {
            const int s = m_order[std::size_t(k)];
            const double r2 = dist2(m_x[s], m_y[s], m_z[s], p[0], p[1], p[2]);
            if (r2 > 0 && r2 < h2) out.push_back(s);
        }
        return;
    }
    within_in(n.left, p, h2, out);
    within_in(n.right, p, h2, out);
}

int NeighbourTree::nearest(double px, double py, double pz) const {
    if (m_nodes.empty() || !std::isfinite(px) || !std::isfinite(py) || !std::isfinite(pz)) return -1;
    const double p[3] = {px, py, pz};
    double best = HUGE_VAL;
    int out = -1;
    nearest_in(0, p, best, out);
    return out;
}

void NeighbourTree::within(double px, double py, double pz, double h2, std::vector<int>& out) const {
    out.clear();
    if (m_nodes.empty() || !std::isfinite(px) || !std::isfinite(py) || !std::isfinite(pz) || !(h2 > 0)) return;
    const double p[3] = {px, py, pz};
    within_in(0, p, h2, out);
    std::sort(out.begin(), out.end());
}

}  // namespace nbody::g6
