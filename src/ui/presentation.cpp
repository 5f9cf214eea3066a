#include "ui/presentation.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the Read-out window's last content height and title bar

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/limits.hpp"
#include "ui/panels.hpp"

namespace nbody {

namespace {
// The card says what to watch for (the scene's `watch`; a scene without one shows its description), and what
// the scene runs.
const std::string& card_say(const UiView& v) {
    return v.scene_watch.empty() ? v.scene_description : v.scene_watch;
}
std::string card_text(const UiView& v) {
    const std::string& say = card_say(v);
    return v.scene_runs.empty() || say.empty() ? say : say + "\n\n" + v.scene_runs;
}
// The card's words broken at spaces to fit `wrap_w` (pixels) in `body`: a rate like "3.29 steps/s" stays on
// one line (a pixel of slack, so that ImGui's own wrap finds every line fits).
std::string card_words(const UiView& v, const ImFont* body, float wrap_w) {
    return break_at_spaces(body, card_text(v), wrap_w - 1);
}
}  // namespace

// ---------------------------------------------------------------------------------------------------------
// The scene card
// ---------------------------------------------------------------------------------------------------------

namespace {

struct CardFonts {
    ImFont* title;
    ImFont* body;
};

// A card's sizes, largest first: the presentation layout starts at the first, the others at the third.
std::array<CardFonts, 4> card_font_options(const UiFonts& fonts) {
    return {{{fonts.huge, fonts.large},
             {fonts.large, fonts.large},
             {fonts.large, fonts.regular},
             {fonts.regular, fonts.regular}}};
}

constexpr const char* kCardNote = "closes in %.0f s; the physics: Scene panel, Description";

// The card's heights at `wrap_w` (pixels, inside its padding) in `f`: the words alone, and the whole card
// (padding, title, words and the Dismiss row, whose note wraps beside the button in a narrow card).
struct CardHeights {
    float words, total;
};
CardHeights card_heights(const UiView& view, const UiFonts& fonts, const CardFonts& f, float wrap_w) {
    const ImGuiStyle& st = ImGui::GetStyle();
    auto height = [](ImFont* font, const std::string& text, float wrap) {
        return font->CalcTextSizeA(font->FontSize, FLT_MAX, wrap, text.c_str()).y;
    };
    const float button_w = fonts.regular->CalcTextSizeA(fonts.regular->FontSize, FLT_MAX, 0, "Dismiss").x +
                           2 * st.FramePadding.x;
    const float note_h = height(fonts.regular, kCardNote, wrap_w - button_w - st.ItemSpacing.x);
    // The note beside the button starts at the button's text baseline, a frame padding down.
    const float row = std::max(fonts.regular_px + 2 * st.FramePadding.y, st.FramePadding.y + note_h);
    const float words = height(f.body, card_words(view, f.body, wrap_w), wrap_w);
    return {words, 2 * st.WindowPadding.y + height(f.title, view.scene_name, wrap_w) + words + row +
                       3 * st.ItemSpacing.y};
}

// The largest sizes whose card fits in `max_h` (a long description at scale 2 in a 720-pixel window would
// otherwise push the Dismiss button out of sight), at the width `width(body font)` gives; index -1 when
// none does.
struct CardFit {
    int index = -1;
    float w = 0;
};
template <class Width>
CardFit fitting_fonts(const UiView& view, const UiFonts& fonts, bool presentation, float max_h, Width width) {
    const std::array<CardFonts, 4> options = card_font_options(fonts);
    const float pad = 2 * ImGui::GetStyle().WindowPadding.x;
    for (std::size_t i = presentation ? 0 : 2; i < options.size(); ++i) {
        const float w = width(options[i].body);
        if (card_heights(view, fonts, options[i], w - pad).total <= max_h) return {int(i), w};
    }
    return {};
}

}  // namespace

float DescriptionCard::draw(const UiView& view, const UiFonts& fonts, bool presentation, float left,
                            float right, float panels_bottom) {
    // The scene's words, not the runs line: that one carries the measured rates, which change every second
    // where the backend does not keep up (the card then never closed, and came back after Dismiss).
    const std::string key = view.scene_name + '\n' + card_say(view);
    const double now = ImGui::GetTime();
    if (key != m_key) {  // a scene (re)loaded: show its card afresh
        m_key = key;
        m_start = card_say(view).empty() ? -1 : now;
        m_dismissed = false;
    }
    const double age = now - m_start;
    if (!showing() || age > kCardSeconds) return FLT_MAX;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const ImGuiStyle& st = ImGui::GetStyle();
    const float margin = std::round(0.6f * ImGui::GetFontSize());
    const float body_px = presentation ? fonts.regular_px * 1.5f : fonts.regular_px;
    const float legend = 2 * fonts.regular_px + 2 * st.WindowPadding.y;
    const float bottom = vp->WorkPos.y + vp->WorkSize.y - legend;  // above the legend
    // In the free area: about 55 characters to the line (at the body size), at most 60% of the window high,
    // below the PAUSED mark.
    const float free_w = std::max(right - left, 0.3f * vp->WorkSize.x);
    const float narrow_w = std::min(free_w * 0.9f, body_px * 30.0f), narrow_h = vp->WorkSize.y * 0.6f;
    const CardFit narrow =
        fitting_fonts(view, fonts, presentation, narrow_h, [&](ImFont*) { return narrow_w; });
    // Or under every panel, across the window, up to about 80 characters to the line of its words, where the
    // columns are short (the presentation layout): the bodies keep the whole free area above it. Taken
    // when the words fit there at least as large as in the free area; no higher than in the free area (with
    // every panel closed there are none to lie under).
    const float wide_h = bottom - std::max(panels_bottom, vp->WorkPos.y + vp->WorkSize.y - narrow_h);
    const CardFit wide =
        wide_h > 0 ? fitting_fonts(view, fonts, presentation, wide_h,
                                   [&](ImFont* body) {
                                       return std::min(vp->WorkSize.x - 2 * margin, 40.0f * body->FontSize);
                                   })
                   : CardFit{};
    const bool across =
        wide.index >= 0 && wide.w > narrow_w && (narrow.index < 0 || wide.index <= narrow.index);
    const CardFit chosen = across ? wide : narrow;
    const float w = across ? wide.w : narrow_w, max_h = across ? wide_h : narrow_h;
    const CardFonts f = card_font_options(fonts)[std::size_t(chosen.index >= 0 ? chosen.index : 3)];
    // Where even the smallest words do not fit, they scroll and the Dismiss row stays in sight below them.
    const CardHeights need = card_heights(view, fonts, f, w - 2 * st.WindowPadding.x);
    const float words_room = std::max(need.words - (need.total - max_h), body_px);
    const float half = 0.5f * w, lo = vp->WorkPos.x + margin + half,
                hi = vp->WorkPos.x + vp->WorkSize.x - margin - half;
    const float cx = across ? std::clamp(0.5f * (left + right), lo, std::max(lo, hi)) : 0.5f * (left + right);
    ImGui::SetNextWindowPos(ImVec2(cx, bottom), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowSize(ImVec2(w, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0), ImVec2(w, max_h));
    ImGui::SetNextWindowBgAlpha(0.94f);  // readable over a panel it may cover
    const float fade = float(std::clamp((kCardSeconds - age) / 2.0, 0.0, 1.0));  // the last two seconds
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, fade);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoNav;
    float top = FLT_MAX;
    if (ImGui::Begin(kTitle, nullptr, flags)) {
        top = ImGui::GetWindowPos().y;
        ImGui::PushFont(f.title);
        ImGui::TextWrapped("%s", view.scene_name.c_str());
        ImGui::PopFont();
        const bool scroll = chosen.index < 0;
        if (scroll) ImGui::BeginChild("##card words", ImVec2(0, words_room), false);
        ImGui::PushFont(f.body);
        ImGui::TextWrapped("%s", card_words(view, f.body, ImGui::GetContentRegionAvail().x).c_str());
        ImGui::PopFont();
        if (scroll) ImGui::EndChild();
        ImGui::Spacing();
        if (ImGui::Button("Dismiss")) m_dismissed = true;
        ImGui::SameLine();
        // wrapped: with a narrow font (ImGui's own where DejaVu is missing) one line ran past the card's edge
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped(kCardNote, std::max(0.0, kCardSeconds - age));
        ImGui::PopStyleColor();
    }
    ImGui::End();
    ImGui::PopStyleVar();
    return top;
}

// ---------------------------------------------------------------------------------------------------------
// The presentation read-out
// ---------------------------------------------------------------------------------------------------------

namespace {

constexpr int kBigValues = 3;  // the energy error, flop/s and interactions/s

// The big values' font: the huge size when the whole read-out fits, at that size, in the height the layout
// gives it, else the large one. The Measure panel under it takes the rest of the column, and a read-out line
// left under the bottom edge would need a scroll in front of a class (at 1280x720 and UI scale 1.5). The
// height at the huge size comes from last frame's contents, whichever size they were drawn at, so the choice
// does not flip between frames.
ImFont* value_font(const PanelContext& c) {
    ImGuiStorage* store = ImGui::GetStateStorage();
    const ImGuiID key = ImGui::GetID("big values at the large size");
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    const float room = c.layout.max_height(w->Name), drawn = w->ContentSizeIdeal.y;
    const float drawn_px = store->GetBool(key) ? c.fonts.large->FontSize : c.fonts.huge->FontSize;
    const float need_huge = drawn + kBigValues * (c.fonts.huge->FontSize - drawn_px) +
                            2 * ImGui::GetStyle().WindowPadding.y + w->TitleBarHeight();
    const bool large = room > 0 && drawn > 0 && need_huge > room;
    store->SetBool(key, large);
    return large ? c.fonts.large : c.fonts.huge;
}

// A small label over a big value, the value in `colour`.
void big_value(ImFont* font, const char* label, const std::string& value, ImVec4 colour) {
    ImGui::TextDisabled("%s", label);
    ImGui::PushFont(font);
    ImGui::TextColored(colour, "%s", value.c_str());
    ImGui::PopFont();
}

// Green while the energy is conserved to 1e-4 (leap-frog at a sensible dt), amber to 1e-2, red beyond:
// what a class can see at a glance when dt or eps is pushed too far.
ImVec4 energy_colour(double err) {
    if (err < 1e-4) return ImVec4(0.45f, 1.0f, 0.5f, 1);
    if (err < 1e-2) return ImVec4(1.0f, 0.8f, 0.3f, 1);
    return ImVec4(1.0f, 0.4f, 0.35f, 1);
}

}  // namespace

void readout_panel(PanelContext& c) {
    const ImVec4 white(1, 1, 1, 1);
    DiagnosticsSampler& d = c.sim.diagnostics();
    const auto last = d.latest();
    char text[64];
    ImFont* big = value_font(c);
    if (!d.enabled(c.sim.facts().size)) {
        big_value(big, "relative energy error |dE/E0|", "off", white);
        if (d.declined())
            disabled_wrapped("not sampled: the exact energy costs many tree steps at this N");
        else
            ImGui::TextDisabled("not sampled above N = %s on the CPU", with_commas(d.max_n()).c_str());
    } else if (!d.baseline() || !last) {
        big_value(big, "relative energy error |dE/E0|", "...", white);
    } else {
        std::snprintf(text, sizeof text, "%.1e", last->energy_error);
        big_value(big, "relative energy error |dE/E0|", text, energy_colour(last->energy_error));
    }
    const PerfSample s = rate_sample(c.sim);
    big_value(big, "flop/s", format_si(s.rate.gflops * 1e9), white);  // the rate format of every panel
    if (ImGui::IsItemHovered()) wrapped_tooltipf("at %g flops per interaction", s.rate.flops_per_pair);
    big_value(big, "interactions/s", format_si(s.rate.interactions_per_s), white);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s   N = %s   %s", rates_line(c.sim).c_str(), with_commas(c.sim.facts().size).c_str(),
                       c.sim.facts().kernel_label.c_str());
    ImGui::PopStyleColor();
}

// ---------------------------------------------------------------------------------------------------------
// The View panel's scale, layout and font lines
// ---------------------------------------------------------------------------------------------------------

void ui_scale_controls(PanelContext& c) {
    UiState& s = c.state;
    // The slider edits a copy kept in ImGui's storage and applies it on release: every new scale re-makes
    // the font atlas, which is too slow to do at every pixel of a drag.
    ImGuiStorage* store = ImGui::GetStateStorage();
    float* edit = store->GetFloatRef(ImGui::GetID("ui scale edit"), s.ui_scale);
    bool* dragging = store->GetBoolRef(ImGui::GetID("ui scale dragging"), false);
    if (!*dragging) *edit = s.ui_scale;
    ImGui::SliderFloat("UI scale", edit, 0.75f, 3.0f, "%.2f");
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Text and panel size (projectors: 2 and up); applied on release");
    *dragging = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivatedAfterEdit()) s.ui_scale = std::clamp(*edit, 0.75f, 3.0f);
    ImGui::Checkbox("presentation layout (P)", &s.presentation);
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Only the Scene and Physics panels, and the energy error and Gflop/s in big type");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("font: %s", c.fonts.status.c_str());
    if (c.view.colormap) {
        const LoadedColormap& m = *c.view.colormap;
        ImGui::TextWrapped("colour map: %s%s%s", m.source.c_str(), m.error.empty() ? "" : " -- ",
                           m.error.c_str());
    }
    ImGui::PopStyleColor();
}

}  // namespace nbody
