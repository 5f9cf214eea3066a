#include "core/session/measurements.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/physics/unit_words.hpp"

namespace nbody {

namespace {
// The largest arrow at a new scale is this share of the view's radius: long enough to read its direction,
// short enough to stay in the picture.
constexpr double kArrowShare = 0.4;
Double3 xyz(const Double4& d) { return {d.x, d.y, d.z}; }
double norm(Double3 a) { return std::sqrt(dot(a, a)); }
}  // namespace

ArrowScale arrow_scale_for(double max_speed, double max_accel, double length) {
    ArrowScale s;
    if (!(length > 0)) length = 1;
    // A body at rest, or one feeling no force, still gets a finite scale (its arrow is simply short).
    s.velocity_time = round_125(max_speed > 0 ? length / max_speed : 1);
    s.accel_per_length = round_125(max_accel > 0 ? max_accel / length : 1);
    return s;
}

void Measurements::new_scene(std::size_t n, double view_radius) {
    m_n = n;
    m_view_radius = view_radius > 0 && std::isfinite(view_radius) ? view_radius : 1;
    clear();
    m_scale = {};
    follow = false;
}

void Measurements::pick(std::size_t i) {
    if (i >= m_n)
        throw Error("body " + std::to_string(i) + " cannot be picked: the scene has " + std::to_string(m_n) +
                    " bodies (0 to " + std::to_string(m_n ? m_n - 1 : 0) + ")");
    if (m_first != i) m_trace.clear();
    m_first = i;
    if (m_second == i) m_second.reset();
    if (!few_bodies()) m_scale = {};  // scaled to this body's own speed and pull
    m_read_once = false;
}

void Measurements::pick_second(std::size_t i) {
    if (!m_first) return pick(i);
    if (i >= m_n) return pick(i);  // the same refusal
    if (i == *m_first) return;     // a ruler from a body to itself measures nothing
    m_second = i;
    m_read_once = false;
}

void Measurements::clear() {
    m_first.reset();
    m_second.reset();
    m_trace.clear();
    m_readings.clear();
    m_rows_read.clear();
    m_read_once = false;
}

std::vector<std::size_t> Measurements::rows_wanted() const {
    std::vector<std::size_t> rows;
    if (arrows_for_every_body()) {
        for (std::size_t i = 0; i < m_n; ++i) rows.push_back(i);
        return rows;
    }
    if (m_first) rows.push_back(*m_first);
    if (m_second) rows.push_back(*m_second);
    return rows;
}

void Measurements::update(Backend& backend, double time, Double3 centre) {
    const std::vector<std::size_t> rows = rows_wanted();
    if (backend.size() != m_n) {  // a new backend of another size before new_scene: nothing to read safely
        m_readings.clear();
        return;
    }
    if (m_read_once && rows == m_rows_read && time == m_time) return;
    m_rows_read = rows;
    m_time = time;
    m_centre = centre;
    m_read_once = true;
    m_readings.clear();
    if (rows.empty()) return;
    backend.read_bodies_of(rows, m_pos, m_vel);
    backend.read_accelerations_of(rows, m_acc);
    double max_speed = 0, max_accel = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        BodyReading b{rows[r], xyz(m_pos[r]), xyz(m_vel[r]), xyz(m_acc[r]), m_pos[r].w};
        max_speed = std::max(max_speed, norm(b.vel));
        max_accel = std::max(max_accel, norm(b.acc));
        m_readings.push_back(b);
    }
    if (m_scale.velocity_time == 0) m_scale = arrow_scale_for(max_speed, max_accel, kArrowShare * m_view_radius);
    if (const BodyReading* p = m_first ? reading_of(*m_first) : nullptr) m_trace.add({time, p->pos, centre});
}

const BodyReading* Measurements::reading_of(std::size_t i) const {
    for (const BodyReading& b : m_readings)
        if (b.index == i) return &b;
    return nullptr;
}

std::optional<double> Measurements::distance_from_centre() const {
    const BodyReading* p = m_first ? reading_of(*m_first) : nullptr;
    if (!p) return std::nullopt;
    return norm(p->pos - m_centre);
}

std::string Measurements::summary(const PhysicalUnits& u) const {
    const BodyReading* r = m_first ? reading_of(*m_first) : nullptr;
    if (!r) return {};
    std::string s = "body " + std::to_string(r->index) + ": " + length_words(u, norm(r->pos - m_centre)) +
                    " from the centre of mass, speed " + speed_words(u, norm(r->vel)) + ", acceleration " +
                    acceleration_words(u, norm(r->acc));
    const PeriodReading p = period();
    s += p.period ? ", period " + time_words(u, *p.period) + " (" + period_method_words(p.method) + ")"
                  : std::string(", no period yet");
    if (const std::optional<double> d = ruler_length())
        s += "; ruler to body " + std::to_string(*m_second) + ": " + length_words(u, *d);
    return s;
}

std::optional<double> Measurements::ruler_length() const {
    const BodyReading* a = m_first ? reading_of(*m_first) : nullptr;
    const BodyReading* b = m_second ? reading_of(*m_second) : nullptr;
    if (!a || !b) return std::nullopt;
    return norm(a->pos - b->pos);
}

}  // namespace nbody
