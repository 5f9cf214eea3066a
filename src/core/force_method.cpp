#include "core/force_method.hpp"

namespace nbody {

const std::array<NamedValue<ForceMethod>, 2>& method_table() {
    static const std::array<NamedValue<ForceMethod>, 2> table = {{
        {ForceMethod::Direct, "direct", "direct summation: every pair of bodies, N^2 interactions a step"},
        {ForceMethod::Tree, "tree",
         "Barnes-Hut tree: near bodies one by one, far groups as one cell (opening angle theta); about N log N "
         "interactions a step, leap-frog in fp32"},
    }};
    return table;
}
std::optional<ForceMethod> parse_method(std::string_view s) { return parse_named(method_table(), s); }
std::string_view method_name(ForceMethod m) { return name_of(method_table(), m); }

}  // namespace nbody
