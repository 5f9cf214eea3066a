// One fused leap-frog step of direct-summation gravity, the GLSL twin of cuda/direct/step_kernel.cuh (fp32).
// The host prepends "#version 430" and the shape: WG (invocations a work group), K (i-bodies an invocation
// keeps in registers), U (j-bodies an inner iteration reads), Q (invocations sharing one i-body's j range) and
// ROLLED (1: the j loop one body at a time, the paper's none and i-unrolled variants; 0: U at a time, ij) and
// TL (j-bodies each invocation loads into a tile: a slice then reads WG x TL / Q bodies between barriers).
// j-bodies come through shared-memory tiles of WG x TL bodies; invocation t serves lane
// t / Q and slice t % Q, and slice s reads tile entries s, s + Q, s + 2 Q, ... so the Q slices of a lane read
// neighbouring entries and lanes with the same slice read one address (a broadcast).
//
// Between steps the host keeps  vel = v_n, acc = a_n, pos_in = x_{n+1} = x_n + (v_n + a_n h) dt  (h = dt / 2);
// a step evaluates a_{n+1} at pos_in and writes v_{n+1} = (v_n + a_n h) + a_{n+1} h, acc = a_{n+1} and
// pos_out = x_{n+2}. With prime set it evaluates a_n at pos_in = x_n, keeps vel and writes pos_out = x_{n+1}.
// With draw set it also copies pos_in (the positions after the step) into the renderer's vertex buffer.
// A step may take several dispatches, each summing the j-bodies [j_begin, j_end) on top of the running sums in
// `partial` (Mesa's llvmpipe stops every loop of an invocation after 65,535 iterations in all, so there the j
// range comes in chunks); only the last one (last_chunk) updates the bodies.
//
// One interaction: 3 FADD (d), 3 FFMA (r2), inversesqrt, 3 FMUL (m / r^3), 3 FFMA (a): 20 flops by NVIDIA's
// convention, the same count as the CUDA kernels.
layout(local_size_x = WG) in;

layout(std430, binding = 0) readonly buffer PosIn { vec4 pos_in[]; };
layout(std430, binding = 1) writeonly buffer PosOut { vec4 pos_out[]; };
layout(std430, binding = 2) buffer Vel { vec4 vel[]; };
layout(std430, binding = 3) buffer Acc { vec4 acc[]; };
layout(std430, binding = 4) writeonly buffer Drawn { vec4 drawn[]; };
layout(std430, binding = 5) buffer Partial { vec4 partial[]; };

uniform int n;          // bodies
uniform float soft2;    // eps^2 + a floor that keeps the self term finite (length^2)
uniform float G;
uniform float half_dt;  // h
uniform float dt;
uniform bool prime;
uniform bool draw;
uniform int j_begin, j_end;  // this dispatch's j-bodies
uniform bool first_chunk, last_chunk;

const int LANES = WG / Q;  // i-lanes a work group; it updates LANES x K bodies
const int TILE = WG * TL;
const int PER_SLICE = TILE / Q;  // a whole number of U groups (the host checks)

shared vec4 tile[TILE];

void interact(vec3 xi, vec4 bj, inout vec3 a) {
    vec3 d = bj.xyz - xi;
    float r2 = fma(d.z, d.z, fma(d.y, d.y, fma(d.x, d.x, soft2)));
    float inv_r = inversesqrt(r2);
    float s = bj.w * inv_r * inv_r * inv_r;  // zero-mass padding adds exactly nothing
    a = fma(d, vec3(s), a);
}

void leapfrog_update(int i, vec3 sum) {
    vec3 a_new = G * sum;
    vec4 v = vel[i];
    if (!prime) {
        v.xyz = (v.xyz + acc[i].xyz * half_dt) + a_new * half_dt;
        vel[i] = v;
    }
    acc[i] = vec4(a_new, 0.0);
    vec4 p = pos_in[i];
    pos_out[i] = vec4(p.xyz + (v.xyz + a_new * half_dt) * dt, p.w);
    if (draw) drawn[i] = p;
}

// Shared-memory writes visible to the whole work group, then everyone waits (older GLSL specs and drivers
// need the memory barrier beside barrier()).
void sync_tile() {
    memoryBarrierShared();
    barrier();
}

vec4 load_j(int j) { return j < j_end ? pos_in[j] : vec4(0.0); }

// The sum over this dispatch's j-bodies added to the earlier chunks' (in chunk order), then kept or used.
void finish(int i, vec3 sum) {
    if (!first_chunk) sum = partial[i].xyz + sum;
    if (last_chunk)
        leapfrog_update(i, sum);
    else
        partial[i] = vec4(sum, 0.0);
}

void main() {
    int t = int(gl_LocalInvocationID.x);
    int lane = t / Q, slice = t % Q;
    int first = int(gl_WorkGroupID.x) * LANES * K;
    vec3 xi[K];
    vec3 ai[K];
    for (int k = 0; k < K; ++k) {
        int i = first + k * LANES + lane;  // neighbouring lanes take neighbouring bodies
        xi[k] = pos_in[min(i, n - 1)].xyz;
        ai[k] = vec3(0.0);
    }
    // The next tile's bodies are read into registers while this one is summed (the loads' latency hides
    // behind a tile of arithmetic; zero-mass bodies pad the last tile).
    vec4 next[TL];
    for (int l = 0; l < TL; ++l) next[l] = load_j(j_begin + l * WG + t);
    for (int base = j_begin; base < j_end; base += TILE) {
        for (int l = 0; l < TL; ++l) tile[l * WG + t] = next[l];
        sync_tile();
        for (int l = 0; l < TL; ++l) next[l] = load_j(base + TILE + l * WG + t);
#if ROLLED
        for (int jj = 0; jj < PER_SLICE; ++jj) {
            vec4 bj = tile[jj * Q + slice];
            for (int k = 0; k < K; ++k) interact(xi[k], bj, ai[k]);
        }
#else
        for (int jj = 0; jj < PER_SLICE; jj += U) {
            vec4 bj[U];
            for (int u = 0; u < U; ++u) bj[u] = tile[(jj + u) * Q + slice];
            for (int u = 0; u < U; ++u)
                for (int k = 0; k < K; ++k) interact(xi[k], bj[u], ai[k]);
        }
#endif
        sync_tile();
    }
#if Q == 1
    for (int k = 0; k < K; ++k) {
        int i = first + k * LANES + lane;
        if (i < n) finish(i, ai[k]);
    }
#else
    // The Q slices' sums of each i-body through the tile, added in slice order (the same total whichever
    // invocation adds them); slice k % Q updates body k, spreading the writes.
    for (int k = 0; k < K; ++k) {
        tile[t] = vec4(ai[k], 0.0);
        sync_tile();
        int i = first + k * LANES + lane;
        if (slice == k % Q && i < n) {
            vec3 sum = vec3(0.0);
            for (int s = 0; s < Q; ++s) sum += tile[lane * Q + s].xyz;
            finish(i, sum);
        }
        sync_tile();
    }
#endif
}
