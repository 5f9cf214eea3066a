// nbody-bench's table (bench_table.hpp): the configurations, one measured row each, and a row's fields.
#include "bench/bench_table.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"

#include <map>
#include <memory>

#include "core/errors.hpp"
#include "engine/backend_rows.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"

namespace nbody {

// Rounded to float32 values: every precision then starts from the same numbers, so the force errors compare
// the arithmetic of the kernels, not the rounding of the input (which only the float32 paths would pay).
State bench_state(std::size_t n, const std::string& scene_path) {
    if (scene_path.empty()) return rounded_to_float32(build_scene(henon_plummer_scene(n, 20081)));
    SceneSpec s = load_scene_file(scene_path);
    rescale_bodies(s, n);
    return rounded_to_float32(build_scene(s));
}

namespace {

template <class Parse>
auto parsed(const char* field, const std::string& name, Parse parse) {
    const auto v = parse(name);
    if (!v) throw ParamError(field, "unknown name '" + name + "'");
    return *v;
}

std::vector<int> or_default(const std::vector<int>& given, const std::vector<int>& all, int def, bool sweep) {
    if (!given.empty()) return given;
    return sweep ? all : std::vector<int>{def};
}

// Every (method, precision, integrator, GPU count, tree shape) the table names, applied to `base`; the GPU
// counts only `with_gpus` (the CPU backend has none), the tree's opening tests, group and leaf sizes only for
// the tree.
std::vector<SimParams> axes(const BenchTable& t, const SimParams& base, bool with_gpus) {
    std::vector<TreeParams> trees;
    for (double theta : t.thetas)
        for (double alpha : t.alphas)
            for (int group : t.tree_groups)
                for (int leaf : t.tree_leaves) {
                    TreeParams tp;
                    tp.theta = float(theta), tp.alpha = float(alpha), tp.group = group, tp.leaf = leaf;
                    trees.push_back(tp);
                }
    std::vector<SimParams> out;
    for (const std::string& me : t.methods)
        for (const std::string& pr : t.precisions)
            for (const std::string& in : t.integrators)
                for (int g : with_gpus ? t.gpus : std::vector<int>{1}) {
                    const ForceMethod method = parsed("methods", me, parse_method);
                    for (const TreeParams& tp : method_info(method).has_cells ? trees : std::vector<TreeParams>{{}}) {
                        SimParams p = base;
                        p.method = method;
                        p.precision = parsed("precisions", pr, parse_precision);
                        p.integrator = parsed("integrators", in, parse_integrator);
                        p.eta = t.eta;
                        p.gpus = g;
                        p.tree = tp;
                        out.push_back(p);
                    }
                }
    return out;
}

// The variant column of a tree row: "tree 1 a0.001" (theta, alpha; "tree 0.5" with alpha off), with the group
// and leaf sizes where not the defaults ("tree 0.5 g64 l8").
std::string tree_variant(const TreeParams& t) {
    std::string v = "tree " + theta_text(t.theta);
    if (t.alpha > 0) v += " a" + theta_text(t.alpha);
    if (t.group != TreeParams{}.group) v += " g" + std::to_string(t.group);
    if (t.leaf != TreeParams{}.leaf) v += " l" + std::to_string(t.leaf);
    return v;
}

// The shapes to run for one variant: the cartesian product of the k, u, block and q lists, keeping
// those valid for the variant.
std::vector<KernelShape> shapes_for(KernelVariant v, const BenchTable& t) {
    const VariantInfo& info = variant_info(v);
    std::vector<int> all_k, all_u;
    for (int k : info.rules.allowed_k)
        if (k) all_k.push_back(k);
    for (int u : info.rules.allowed_u)
        if (u) all_u.push_back(u);
    std::vector<KernelShape> out;
    for (int k : or_default(t.ks, all_k, info.default_shape.k, t.sweep))
        for (int u : or_default(t.us, all_u, info.default_shape.u, t.sweep))
            for (int b : or_default(t.blocks, {}, info.default_shape.block, false))
                for (int q : or_default(t.qs, {}, 0, false))
                    for (int sp : or_default(t.ss, {}, info.default_shape.s, false)) {
                        const KernelShape s{k, u, b, q, sp};
                        try {
                            validate_shape(v, s);
                            out.push_back(s);
                        } catch (const ParamError&) {
                            // combinations the variant does not allow are skipped (k = 2 for 'none', ...)
                        }
                    }
    return out;
}

// One CUDA backend per GPU count asked for, made on first use by the factory's row (each holds its own
// buffers and streams).
class GpuBackends {
  public:
    GpuBackends(const BenchTableHooks& h, int parts_per_gpu) : m_hooks(h), m_make{parts_per_gpu} {}
    Backend* get(int gpus) {
        auto& slot = m_by_count[gpus];
        if (!slot) {
            SimParams p;
            p.gpus = gpus;
            std::string why, note;
            slot = try_make_backend(backend_rows(), BackendKind::Cuda, p, &why, &note, m_make);
            if (!slot && m_hooks.note)
                m_hooks.note("no CUDA backend for " + std::to_string(gpus) + " GPU(s): " + why);
            if (!note.empty() && m_hooks.note) m_hooks.note(note);
        }
        return slot.get();
    }

  private:
    const BenchTableHooks& m_hooks;
    BackendMakeOptions m_make;
    std::map<int, std::unique_ptr<Backend>> m_by_count;
};

// Measures the rows of one table into `rows`, calling the hooks.
class TableRun {
  public:
    TableRun(const BenchTable& t, const BenchTableHooks& h) : m_t(t), m_h(h) {}

    std::vector<BenchRow> run() {
        std::string why;
        const std::unique_ptr<Backend> own =
            m_h.cpu ? nullptr : try_make_backend(backend_rows(), BackendKind::Cpu, {}, &why);
        Backend& cpu = m_h.cpu ? *m_h.cpu : *own;
        std::string device;
        GpuBackends gpus(m_h, m_t.parts_per_gpu);
        const std::string no_cuda = find_backend_row(backend_rows(), BackendKind::Cuda)->unavailable();
        Backend* gpu = m_t.gpu && no_cuda.empty() ? gpus.get(m_t.gpus.front()) : nullptr;
        if (m_t.gpu && !no_cuda.empty())
            say(no_cuda + (m_t.gl ? ": no CUDA rows" : "; CPU rows only"));
        else if (m_t.gpu && !gpu)
            say(m_t.gl ? "no CUDA rows" : "CPU rows only");
        if (gpu) device = gpu->name();
        if (device.empty()) device = cpu.name();
        if (m_t.gl && !m_h.gl) say("no GL compute backend: no gl rows");
        if (m_t.gl && m_h.gl) device += "; " + m_h.gl->name();
        if (m_h.start) m_h.start(device);
        for (long long n : m_t.sizes) {
            const State state = bench_state(static_cast<std::size_t>(n), m_t.scene);
            const double eps = m_t.scene.empty() ? m_t.eps : load_scene_file(m_t.scene).eps;
            ForceReference ref;
            if (m_t.accuracy) {
                ref.rows = reference_rows(state.size(), kBenchReferencePairs, kBenchMinReferenceRows);
                say("N = " + std::to_string(n) + ": float64 reference force" +
                    (ref.rows.size() < state.size() ? " on " + std::to_string(ref.rows.size()) + " bodies spread "
                                                      "over all (the error columns are theirs)..."
                                                    : "..."));
                ref.acc = reference_accelerations(state, ref.rows, eps, 1.0);
            } else {
                say("N = " + std::to_string(n) + ": ");
            }
            SimParams p;
            p.eps = eps;
            p.dt = 1e-4;  // small: the state barely moves while being timed, so every repeat does the same work
            // CPU rows where asked for, or where no GPU rows (CUDA or GL compute) are measured
            const bool gl_rows = m_t.gl && m_h.gl;
            const bool want_cpu = m_t.cpu || (!gpu && !gl_rows);
            if (want_cpu)
                for (const SimParams& c : axes(m_t, p, false))
                    try_row(cpu, state, c, ref, m_h.cpu_label,
                            method_info(c.method).kernel_families ? m_h.cpu_variant : tree_variant(c.tree));
            if (gpu)
                for (const SimParams& a : axes(m_t, p, true))
                    if (Backend* g = gpus.get(a.gpus)) variant_rows(*g, "cuda", a, state, ref);
            if (gl_rows)
                for (const SimParams& a : axes(m_t, p, false)) variant_rows(*m_h.gl, "gl", a, state, ref);
            if (m_h.after_size) m_h.after_size(n, state, p);
        }
        return std::move(m_rows);
    }

  private:
    void say(const std::string& s) const {
        if (m_h.note) m_h.note(s);
    }

    // One measured row, or a note saying why the configuration was skipped (a combination the backend does
    // not run, a block too large for the registers).
    void try_row(Backend& b, const State& state, const SimParams& p, const ForceReference& ref,
                 const std::string& backend, const std::string& variant) {
        try {
            BenchRow r = measure(b, backend_clock_ms, state, p, ref, m_t.timing);
            r.backend = backend, r.variant = variant;
            if (m_h.row) m_h.row(r);
            m_rows.push_back(r);
        } catch (const ParamError& e) {
            say("skipped " + backend + " " + variant + " " + std::string(precision_name(p.precision)) + " " +
                std::string(integrator_name(p.integrator)) + ": " + e.what());
        }
    }

    // The rows of every variant and shape the table names on one backend (CUDA or GL compute).
    void variant_rows(Backend& b, const std::string& label, SimParams a, const State& state,
                      const ForceReference& ref) {
        if (!method_info(a.method).kernel_families) {  // one row per opening angle, not per family
            try_row(b, state, a, ref, label, tree_variant(a.tree));
            return;
        }
        for (const std::string& vname : m_t.variants) {
            if (vname == "auto") {
                a.kernel_auto = true;
                try_row(b, state, a, ref, label, "auto");
                continue;
            }
            a.kernel_auto = false;
            a.variant = parsed("variants", vname, parse_variant);
            if (variant_info(a.variant).method != a.method) continue;  // another method's family
            for (const KernelShape& s : shapes_for(a.variant, m_t)) {
                a.shape = s;
                try_row(b, state, a, ref, label, std::string(variant_name(a.variant)));
            }
        }
    }

    const BenchTable& m_t;
    const BenchTableHooks& m_h;
    std::vector<BenchRow> m_rows;
};

}  // namespace

std::vector<BenchRow> run_bench_table(const BenchTable& t, const BenchTableHooks& h) {
    return TableRun(t, h).run();
}

std::vector<std::pair<std::string, BenchValue>> bench_row_fields(const BenchRow& r) {
    using I = long long;
    std::vector<std::pair<std::string, BenchValue>> f = {
        {"n", I(r.n)},
        {"interactions_per_s", r.rate.interactions_per_s},  // evaluated: body-body + body-cell
        {"method", r.method},
        {"body_body_per_s", r.rate.body_body_per_s},
        {"body_cell_per_s", r.rate.body_cell_per_s},
        {"equivalent_direct_per_s", r.rate.equivalent_direct_per_s},
        {"backend", r.backend},
        {"variant", r.variant},
        {"kernel", r.kernel},
        {"precision", r.precision},
        {"integrator", r.integrator},
        {"gpus", I(r.gpus)},
        {"gflops_integrator", r.rate.gflops},
        {"flops_per_interaction_integrator", r.rate.flops_per_pair},
        {"k", I(r.k)},
        {"u", I(r.u)},
        {"block", I(r.block)},
        {"q", I(r.q)},
        {"s", I(r.s)},
        {"registers", I(r.registers)},
        {"gflops_20", r.rate.gflops20},
        {"gflops_38", r.rate.gflops38},
        {"steps_per_s", r.rate.steps_per_s},
        {"ms_per_step", r.ms_per_step},
        {"repeat_spread", r.ms_spread},
        {"steps_per_repeat", I(r.steps_per_repeat)},
        {"repeats", I(r.repeats)},
    };
    if (r.error.max_rel >= 0) {
        f.emplace_back("max_rel_force_error", r.error.max_rel);
        f.emplace_back("median_rel_force_error", r.error.median_rel);
        f.emplace_back("p99_rel_force_error", r.error.p99_rel);
        f.emplace_back("force_error_bodies", I(r.error.counted));  // every body, or the sample's
    }
    if (!r.stages.empty()) f.emplace_back("stages", r.stages);
    return f;
}

}  // namespace nbody
