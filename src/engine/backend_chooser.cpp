#include "engine/backend_chooser.hpp"

#include <string>
#include <vector>

#include "core/errors.hpp"

namespace nbody {

namespace {

// Why each row tried before the one that runs did not: the terminal's words and the banner's.
struct Refusals {
    std::vector<std::string> notes, banners;
    void add(const BackendStart& s) {
        notes.push_back(s.refused_note);
        banners.push_back(s.refused_banner);
    }
};

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& s : parts) out += (out.empty() ? "" : "; ") + s;
    return out;
}

std::string flag_words(BackendKind k) {
    return "--backend " + std::string(backend_kind_name(k)) + ": ";
}

std::unique_ptr<Backend> chosen(BackendKind asked, const BackendRow& row, BackendStart s, const Refusals& r,
                                BackendChoice* choice) {
    BackendChoice c;
    c.asked = asked;
    c.running = row.kind;
    c.stand_in = row.fallback.kind;
    c.caution = s.caution;
    c.note = r.notes.empty() ? s.note : joined(r.notes) + "; using the " + s.note;
    // The banner's words are for a backend on the CPU where a GPU one was asked for or ranked above it; a GPU
    // backend after a refused one (GL compute where CUDA has no device) needs no excuse.
    if (!s.backend->caps().gpu) c.fallback = joined(r.banners);
    if (choice) *choice = c;
    return std::move(s.backend);
}

// The rows that take over from `from`, one after the other along their fallbacks, until one starts.
std::unique_ptr<Backend> fall_back(const BackendRows& rows, const BackendRow& from, const SimParams& p,
                                   const BackendMakeOptions& o, Refusals r, BackendChoice* choice) {
    const BackendRow* row = &from;
    for (std::size_t hops = 0; hops < rows.size(); ++hops) {
        row = row->fallback.kind ? find_backend_row(rows, *row->fallback.kind) : nullptr;
        if (!row) break;
        BackendStart s = start_row(*row, p, o, BackendPick::Auto);  // a stand-in, not asked for by name
        if (s.backend) return chosen(p.backend, *row, std::move(s), r, choice);
        r.add(s);
    }
    throw BackendError(flag_words(p.backend) + joined(r.notes));
}

std::unique_ptr<Backend> by_name(const BackendRows& rows, const SimParams& p, BackendChoice* choice,
                                 WhenAskedFails when_fails, const BackendMakeOptions& o) {
    const BackendRow* row = find_backend_row(rows, p.backend);
    if (!row)
        throw BackendError(
            flag_words(p.backend) + "not among this front end's backends (" + backend_list_text(rows) +
            "); libnbody alone has no GL: nbody-sandbox, nbody-bench and the Python module add "
            "the GL compute row (gl_backend/gl_backend_factory.hpp)");
    BackendStart s = start_row(*row, p, o, BackendPick::ByHand);
    if (s.backend) return chosen(p.backend, *row, std::move(s), {}, choice);
    const bool hand_over = s.broke || (when_fails == WhenAskedFails::FallBack && row->fallback.when_asked);
    if (!hand_over || !row->fallback.kind) throw BackendError(flag_words(p.backend) + s.why);
    Refusals r;
    r.add(s);
    return fall_back(rows, *row, p, o, std::move(r), choice);
}

std::unique_ptr<Backend> by_rank(const BackendRows& rows, const SimParams& p, BackendChoice* choice,
                                 const BackendMakeOptions& o) {
    Refusals r;
    for (const BackendRow* row : rows_by_auto_rank(rows)) {
        BackendStart s = start_row(*row, p, o, BackendPick::Auto);
        if (s.backend) return chosen(p.backend, *row, std::move(s), r, choice);
        r.add(s);
    }
    throw BackendError("no backend can run here: " + joined(r.notes));
}

}  // namespace

std::unique_ptr<Backend> choose_backend(const BackendRows& rows, const SimParams& p, BackendChoice* choice,
                                        WhenAskedFails when_asked_fails, const BackendMakeOptions& o) {
    if (p.backend == BackendKind::Auto) return by_rank(rows, p, choice, o);
    return by_name(rows, p, choice, when_asked_fails, o);
}

}  // namespace nbody
