#pragma once
// GPU time of a stretch of GL commands (GL_TIME_ELAPSED queries), read a few frames late from a ring of
// queries so measuring never stalls the pipeline.
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
    unsigned m_queries[kRing] = {};
    bool m_pending[kRing] = {};
    int m_next = 0;
    double m_seconds = 0;
};

}  // namespace nbody
