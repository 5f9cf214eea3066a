#pragma once
// Neighbour searches for the GRAPE-6 calls (g6calc_lasthalf2's nearest neighbour, g6_read_neighbour_list) over a
// k-d tree of the batch's predicted j-particles, instead of every j-particle for every i-particle (O(ni nj): 2e9
// distance checks for a batch of 16,384 against 131,072). A k-d tree rather than a grid of cells: a cluster's
// core is thousands of times denser than its outskirts, and a uniform grid puts most of the core in a few cells.
// The answers are the brute force's exactly: the same distances (dist2), the same tests (r^2 > 0, r^2 < h2), ties
// to the lowest source position, lists in source order.
#include <cstddef>
#include <vector>

namespace nbody::g6 {

// The squared distance every search and its brute-force reference computes, in this one order.
inline double dist2(double ax, double ay, double az, double bx, double by, double bz) {
    const double dx = ax - bx, dy = ay - by, dz = az - bz;
    return dx * dx + dy * dy + dz * dz;
}

class NeighbourTree {
  public:
    // Sources are points 0..sources-1 of x, y, z (kept by pointer: they must outlive the tree). Points with a
    // non-finite coordinate are left out: their distances are never above 0 and finite, so no search takes them.
    NeighbourTree(const double* x, const double* y, const double* z, std::size_t sources);

    // The source nearest to (px, py, pz) at a distance above 0, lowest position among equals; -1 if none.
    int nearest(double px, double py, double pz) const;
    // Sources with 0 < r^2 < h2, in increasing position, into `out` (replaced).
    void within(double px, double py, double pz, double h2, std::vector<int>& out) const;

  private:
    struct Node {
        double lo[3], hi[3];  // the bounding box of its sources
        int begin, end;       // its sources: m_order[begin, end)
        int left = -1, right = -1;
    };
    int build(int begin, int end);
    double box_dist2(const Node& n, const double p[3]) const;  // 0 inside the box
    void nearest_in(int node, const double p[3], double& best, int& out) const;
    void within_in(int node, const double p[3], double h2, std::vector<int>& out) const;

    const double *m_x, *m_y, *m_z;
    std::vector<int> m_order;  // source positions, grouped by leaf
    std::vector<Node> m_nodes;
};

}  // namespace nbody::g6
