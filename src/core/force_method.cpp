#include "core/force_method.hpp"

namespace nbody {

const std::array<NamedValue<ForceMethod>, 1>& method_table() {
    static const std::array<NamedValue<ForceMethod>, 1> table = {{
        {ForceMethod::Direct, "direct", "direct summation: every pair of bodies, N^2 interactions a step"},
    }};
    return table;
}
std::optional<ForceMethod> parse_method(std::string_view s) { return parse_named(method_table(), s); }
std::string_view method_name(ForceMethod m) { return name_of(method_table(), m); }

}  // namespace nbody
