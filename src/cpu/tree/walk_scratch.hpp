#pragma once
// One walking thread's reusable lists (cpu/tree/tree_walk.cpp), kept by the tree from walk to walk. The
// breadth-first pass writes its queue and the accepted cells' and opened leaves' indices through raw indices,
// so those three hold every cell; the cell and body lists the evaluation reads are grown to a group's needs
// before they are filled (one check a group, not an element). Sized for every body and cell at every walk,
// a 1M-body walk had written about 23 MB a thread before the first interaction.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nbody {

struct WalkScratch {
    std::vector<uint32_t> queue, accepted, leaves;
    std::vector<float> c[11];  // cell list: x, y, z, m, qxx, qyy, qzz, qxy, qxz, qyz, softened trace term
    std::vector<float> b[4];   // body list: x, y, z, m
    std::vector<uint32_t> bk;  // and each entry's position in key order (potentials: a body skips itself)
    float ax[128], ay[128], az[128];
    double phi[128];
    float xi[128], yi[128], zi[128];  // an active-only walk's evaluated bodies, gathered
    uint32_t picked[128];             // their positions in key order
    uint32_t member[128];             // a whole group's positions in key order (its box and acceleration)
    uint64_t body_body = 0, body_cell = 0, walked = 0;

    // A walk over a tree of `cells` cells begins: the traversal's lists hold them all, the counts restart.
    void begin(std::size_t cells) {
        for (auto* v : {&queue, &accepted, &leaves}) grow(*v, cells);
        body_body = body_cell = walked = 0;
    }
    // A group's lists: `cells` accepted cells and `bodies` bodies from opened leaves (with their positions in
    // key order where `keys`).
    void fit(std::size_t cells, std::size_t bodies, bool keys) {
        for (auto& v : c) grow(v, cells);
        for (auto& v : b) grow(v, bodies);
        if (keys) grow(bk, bodies);
    }

  private:
    // At least `need` entries, growing by half again at a time so a walk grows its lists a few times only.
    template <class T>
    static void grow(std::vector<T>& v, std::size_t need) {
        if (v.size() < need) v.resize(std::max(need, v.size() + v.size() / 2));
    }
};

}  // namespace nbody
