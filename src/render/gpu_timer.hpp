#pragma once
// GPU time of a stretch of GL commands, from a pair of GL_TIMESTAMP queries, read a few frames late from a
// ring so measuring never stalls the pipeline. Timestamps (not GL_TIME_ELAPSED) so timers may nest: the
// window times the whole draw while the renderer times the sprites inside it.
namespace nbody {

class GpuTimer {
  public:
    GpuTimer();
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    void begin();
    void end();
    // The newest finished measurement, in seconds (0 before the first one is ready).
    double seconds() const { return m_seconds; }

  private:
    static constexpr int kRing = 4;
    unsigned m_queries[2 * kRing] = {};  // slot i: start 2i, end 2i + 1
    bool m_pending[kRing] = {};
    int m_next = 0;
    double m_seconds = 0;
};

}  // namespace nbody
