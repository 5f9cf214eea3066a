#pragma once
// How many threads the core's CPU work may take: 1 in nbody_core.wasm (no threads: it loads on any host), and
// in nbody_threads.wasm (the same sources compiled with -pthread, for a cross-origin isolated page) the size
// of its pool of workers, which the caller passes as createNbodyThreads({threads}) and which is filled before
// the module is ready. Never more: a thread made later needs its new worker to start on the event loop of the
// thread that asked for it, and that thread is blocked in join (the page's, or the tree build's worker).
#include <algorithm>

#ifdef __EMSCRIPTEN_PTHREADS__
#include <emscripten/em_asm.h>
#endif

namespace nbody::web {

inline int core_threads() {
#ifdef __EMSCRIPTEN_PTHREADS__
    return std::max(1, EM_ASM_INT({ return Module['threads'] | 0; }));
#else
    return 1;
#endif
}

}  // namespace nbody::web
