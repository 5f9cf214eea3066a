#include "ui/panel_layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName, FindWindowSettings: is a panel the user's or the layout's

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>
#include <vector>

#include "ui/panels.hpp"

namespace nbody {

namespace {
// Frames during which collapse is decided after a change: each panel's height is known one frame after the
// one above it settles, and a column has three panels.
constexpr int kSettleFrames = 6;
constexpr float kMinBodyLines = 5;       // fewer lines than this left for a panel: it starts collapsed
constexpr float kKeepLines = 6;          // kept for each open panel below one that would take more
constexpr float kMaxColumnShare = 0.36f;  // of the window's width, per column: the scene keeps >= 60%
}  // namespace

PanelLayout::Entry& PanelLayout::entry(const PanelSpec& spec) {
    auto [it, fresh] = m_entries.try_emplace(spec.title);
    Entry& e = it->second;
    if (fresh) {
        // An ini file that already places the panel: the user's placement from an earlier run.
        e.managed = ImGui::FindWindowSettings(ImHashStr(spec.title)) == nullptr;
        e.want_open = !spec.start_collapsed;
        e.settle = kSettleFrames;
    }
    return e;
}

bool PanelLayout::managed(const std::string& title) const {
    const auto it = m_entries.find(title);
    return it != m_entries.end() && it->second.managed;
}

float PanelLayout::max_height(const std::string& title) const {
    const auto it = m_entries.find(title);
    return it != m_entries.end() && it->second.managed ? it->second.max_h : 0.0f;
}

void PanelLayout::plan(const PanelSpec* specs, const bool* open, std::size_t count) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float f = ImGui::GetFontSize();
    // Which panels the columns hold: a panel closed, or the presentation layout toggled, frees or takes room.
    std::string open_set;
    for (std::size_t i = 0; i < count; ++i)
        if (open[i]) open_set += std::string(specs[i].title) + '\n';
    if (vp->WorkSize.x != m_view_w || vp->WorkSize.y != m_view_h || f != m_font || open_set != m_open_set)
        for (auto& [title, e] : m_entries) e.settle = kSettleFrames;
    m_view_w = vp->WorkSize.x, m_view_h = vp->WorkSize.y, m_font = f, m_open_set = open_set;

    const float margin = std::round(0.6f * f), title_h = f + 2 * st.FramePadding.y;
    // The legend sits centred at the bottom (legend_overlay): one line, its padding and a margin below.
    const float bottom = vp->WorkPos.y + vp->WorkSize.y - (f + 2 * st.WindowPadding.y + 2 * margin);
    const float min_h =
        title_h + kMinBodyLines * ImGui::GetTextLineHeightWithSpacing() + 2 * st.WindowPadding.y;
    const float keep = title_h + kKeepLines * ImGui::GetTextLineHeightWithSpacing() + 2 * st.WindowPadding.y;

    std::vector<std::size_t> cols[2];
    float want_w[2] = {0, 0};
    for (std::size_t i = 0; i < count; ++i) {
        if (!open[i] || !entry(specs[i]).managed) continue;
        cols[specs[i].right].push_back(i);
        want_w[specs[i].right] = std::max(want_w[specs[i].right], specs[i].width_em * f);
    }
    // Two columns side by side with a margin each side and between them; narrower when that is too wide.
    const float room = vp->WorkSize.x - 3 * margin, total = want_w[0] + want_w[1];
    const float shrink = total > room && total > 0 ? std::max(room, 0.0f) / total : 1.0f;
    m_scene_left = vp->WorkPos.x, m_scene_right = vp->WorkPos.x + vp->WorkSize.x,
    m_scene_bottom = bottom + margin;
    for (int c = 0; c < 2; ++c) {
        // Each column, margin included, at most 36% of the window: the middle shows the simulation.
        const float w = std::floor(std::min(want_w[c] * shrink, kMaxColumnShare * vp->WorkSize.x - margin));
        const float x = c ? vp->WorkPos.x + vp->WorkSize.x - margin - w : vp->WorkPos.x + margin;
        if (!cols[c].empty()) (c ? m_scene_right : m_scene_left) = c ? x - margin : x + w + margin;
        place_column(specs, cols[c], x, w, vp->WorkPos.y + margin, bottom, margin, title_h, min_h, keep);
    }
}

// The column's height goes to its unfolded panels in order, each taking what it needs but leaving every open
// panel below it `keep` (or its need, when smaller): the first panels show whole as before, and a panel
// unfolded under two long ones still gets about six lines (the ones above it scroll). While settling, a
// panel after the first with less than min_h to grow into folds.
void PanelLayout::place_column(const PanelSpec* specs, const std::vector<std::size_t>& col, float x, float w,
                               float top, float bottom, float margin, float title_h, float min_h,
                               float keep) {
    const std::size_t n = col.size();
    if (n == 0) return;
    std::vector<Entry*> es;
    for (std::size_t i : col) es.push_back(&entry(specs[i]));
    std::vector<bool> folded(n);
    std::vector<float> share(n, 0.0f), cap(n, 0.0f);  // cap: what it may grow to (its content grew)
    for (int pass = 0; pass < 2; ++pass) {
        std::size_t open_count = 0;
        for (std::size_t k = 0; k < n; ++k) {
            Entry& e = *es[k];
            if (pass == 0) folded[k] = e.settle > 0 ? !e.want_open : e.last_collapsed;
            open_count += !folded[k];
        }
        float room = bottom - top - float(n - 1) * margin - float(n - open_count) * title_h;
        auto need = [&](std::size_t k) { return es[k]->expanded_h > 0 ? es[k]->expanded_h : room; };
        for (std::size_t k = 0; k < n; ++k) {
            if (folded[k]) continue;
            float reserve = 0;
            for (std::size_t j = k + 1; j < n; ++j)
                if (!folded[j]) reserve += std::min(need(j), keep);
            cap[k] = std::max(room - reserve, title_h);
            share[k] = std::max(std::min(need(k), cap[k]), title_h);
            room -= share[k];
        }
        bool changed = false;
        for (std::size_t k = 1; k < n; ++k)
            if (es[k]->settle > 0 && !folded[k] && cap[k] < min_h) folded[k] = changed = true;
        if (!changed) break;
    }
    float y = top;
    for (std::size_t k = 0; k < n; ++k) {
        Entry& e = *es[k];
        if (e.settle > 0) e.collapse = folded[k];
        const float below = float(n - k - 1) * (title_h + margin);
        // A folded panel may be unfolded by a click before the next plan: it gets what lies below.
        e.x = x, e.y = y, e.w = w, e.max_h = folded[k] ? std::max(bottom - y - below, title_h) : cap[k];
        y += (folded[k] ? title_h : share[k]) + margin;
    }
}

int PanelLayout::place(const PanelSpec& spec, float min_y) {
    Entry& e = entry(spec);
    if (!e.managed) return 0;
    if (e.y < min_y) {  // the panel above is taller than planned: below it, with that much less room
        e.max_h = std::max(e.max_h - (min_y - e.y), ImGui::GetFrameHeight());
        e.y = min_y;
    }
    // A drag moves the window in NewFrame, before this: a position other than the one set last frame.
    if (const ImGuiWindow* w = ImGui::FindWindowByName(spec.title);
        w && e.placed && (std::abs(w->Pos.x - e.set_x) > 0.5f || std::abs(w->Pos.y - e.set_y) > 0.5f)) {
        e.managed = false;
        ImGui::MarkIniSettingsDirty();
        return 0;
    }
    ImGui::SetNextWindowPos(ImVec2(e.x, e.y), ImGuiCond_Always);
    // Height 0: fit the contents every frame, within what the column leaves.
    ImGui::SetNextWindowSize(ImVec2(e.w, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(e.w, 0), ImVec2(e.w, e.max_h));
    if (e.settle > 0) ImGui::SetNextWindowCollapsed(e.collapse, ImGuiCond_Always);
    if (m_unfold_now == spec.title) {  // unfold(): as a click on its title would
        ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
        e.want_open = true;  // and kept open while the layout settles
        m_unfolded = spec.title;
        m_unfold_now.clear();
    }
    // One optional panel open at a time: another one just unfolded folds this one, so that Scene and Physics
    // above keep their room (two more would leave each a few lines).
    if (spec.start_collapsed && !m_unfolded.empty() && m_unfolded != spec.title && !e.last_collapsed) {
        ImGui::SetNextWindowCollapsed(true, ImGuiCond_Always);
        e.want_open = false;
    }
    e.set_x = e.x, e.set_y = e.y, e.placed = true;
    return ImGuiWindowFlags_NoSavedSettings;
}

void PanelLayout::record(const PanelSpec& spec) {
    Entry& e = entry(spec);
    const bool collapsed = ImGui::IsWindowCollapsed();
    if (!collapsed) {
        // What its contents need (not its size, which the layout may have capped); 0 (unknown) until a frame
        // has laid them out.
        const ImGuiWindow* w = ImGui::GetCurrentWindow();
        const float need =
            w->ContentSizeIdeal.y + 2 * ImGui::GetStyle().WindowPadding.y + w->TitleBarHeight();
        e.expanded_h = w->ContentSizeIdeal.y > 0 ? need : 0;
    }
    if (e.settle > 0) {
        --e.settle;
    } else if (collapsed != e.last_collapsed) {
        e.want_open = !collapsed;  // the user folded or unfolded it: kept through later re-layouts
        if (!collapsed && spec.start_collapsed) m_unfolded = spec.title;  // the others fold next frame
    }
    if (m_unfolded == spec.title && collapsed) m_unfolded.clear();
    e.last_collapsed = collapsed;
}

namespace {
// Inside a window: its title bar was clicked and let go there, not dragged, and not on its arrow or close
// button (those act on their own).
bool title_clicked() {
    const ImGuiIO& io = ImGui::GetIO();
    const float slop = io.MouseDragThreshold;
    const ImRect bar = ImGui::GetCurrentWindow()->TitleBarRect();
    return ImGui::IsWindowHovered() && !ImGui::IsAnyItemHovered() &&
           ImGui::IsMouseReleased(ImGuiMouseButton_Left) && bar.Contains(io.MouseClickedPos[ImGuiMouseButton_Left]) &&
           bar.Contains(io.MousePos) && io.MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] < slop * slop;
}
}  // namespace

void draw_rows(PanelContext& c, const PanelRow* rows, std::size_t count) {
    std::vector<PanelSpec> specs;
    const std::unique_ptr<bool[]> open(new bool[count]);
    for (std::size_t i = 0; i < count; ++i) {
        specs.push_back(rows[i].spec);
        open[i] = !rows[i].open || *rows[i].open;
    }
    c.layout.plan(specs.data(), open.get(), count);
    // Each column's lowest drawn edge so far this frame: a panel that grew since its height was recorded
    // pushes the ones below it down now, not a frame later (a frame lasts seconds at a heavy scene).
    float below[2] = {-FLT_MAX, -FLT_MAX};
    const float margin = std::round(0.6f * ImGui::GetFontSize());
    bool users_panel = false;
    for (std::size_t i = 0; i < count; ++i) {
        if (!open[i]) continue;
        const bool managed = c.layout.managed(rows[i].spec.title);
        const int flags = c.layout.place(rows[i].spec, below[rows[i].spec.right]);
        const bool visible = ImGui::Begin(rows[i].spec.title, rows[i].open, flags);
        if (managed) below[rows[i].spec.right] = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y + margin;
        users_panel |= !managed;
        // A panel's title, clicked anywhere (not only its arrow): folds or unfolds it from the next frame.
        if (title_clicked()) ImGui::SetWindowCollapsed(!ImGui::IsWindowCollapsed());
        c.layout.record(rows[i].spec);
        if (visible) {
            // Widgets fill the width less 7 em for their labels ("steps/frame", "brightness"), so a label
            // is not cut off when a large font narrows the panel (ImGui's default is 65% of the width).
            ImGui::PushItemWidth(-7.0f * ImGui::GetFontSize());
            rows[i].body(c);
            ImGui::PopItemWidth();
        }
        ImGui::End();
    }
    c.layout.set_panels_bottom(users_panel ? PanelLayout::kPanelsAnywhere : std::max(below[0], below[1]));
}

}  // namespace nbody
