#pragma once
// Which backend runs the simulation: an axis of SimParams, in its own header so the rows that name backends need
// not include the whole parameter block.
#include <optional>
#include <string_view>

namespace nbody {

enum class BackendKind { Auto, Cpu, Cuda, Gl };

std::optional<BackendKind> parse_backend_kind(std::string_view s);  // "auto", "cpu", "cuda", "gl"
std::string_view backend_kind_name(BackendKind k);

}  // namespace nbody
