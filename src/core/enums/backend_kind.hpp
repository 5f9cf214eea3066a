#pragma once
// Which backend runs the simulation: an axis of SimParams, in its own header so the rows that name backends need
// not include the whole parameter block.
#include <array>
#include <optional>
#include <string_view>

#include "core/named_enum.hpp"

namespace nbody {

enum class BackendKind { Auto, Cpu, Cuda, Gl };

const std::array<NamedValue<BackendKind>, 4>& backend_kind_table();  // for lists and help texts
std::optional<BackendKind> parse_backend_kind(std::string_view s);  // "auto", "cpu", "cuda", "gl"
std::string_view backend_kind_name(BackendKind k);

}  // namespace nbody
