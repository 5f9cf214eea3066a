#include "arrays.hpp"

#include <string>

namespace nbody::python {

namespace {
std::string shape_text(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

std::string wanted_shape(std::size_t rows, std::size_t columns) {
    const std::string n = rows ? std::to_string(rows) : "N";
    return columns ? "(" + n + ", " + std::to_string(columns) + ")" : "(" + n + ",)";
}
}  // namespace

py::array_t<double, py::array::c_style> as_float64(const py::handle& obj, const char* name, std::size_t rows,
                                                   std::size_t columns) {
    const std::string field = name;
    py::array a = py::array::ensure(obj);
    if (!a)
        throw py::value_error(field + ": must be an array of numbers (got " +
                              std::string(Py_TYPE(obj.ptr())->tp_name) + ")");
    // 'f' float, 'i' signed and 'u' unsigned integers convert exactly enough; 'b' bool, 'c' complex, 'O'
    // objects, 'U'/'S' strings would be a silent misreading.
    const char kind = a.dtype().kind();
    if (kind != 'f' && kind != 'i' && kind != 'u')
        throw py::value_error(field + ": dtype " + std::string(py::str(a.dtype())) +
                              " is not a real number type (float64 expected)");
    const bool rank_ok = a.ndim() == (columns ? 2 : 1);
    const bool rows_ok = rank_ok && (rows == 0 || a.shape(0) == static_cast<py::ssize_t>(rows));
    const bool columns_ok = rank_ok && (columns == 0 || a.shape(1) == static_cast<py::ssize_t>(columns));
    if (!rows_ok || !columns_ok)
        throw py::value_error(field + ": shape " + shape_text(a) + " where " + wanted_shape(rows, columns) +
                              " is needed");
    auto out = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!out) throw py::error_already_set();
    return out;
}

py::array_t<double, py::array::c_style> float64_rows(std::size_t n, std::size_t columns) {
    if (columns == 0) return py::array_t<double, py::array::c_style>({static_cast<py::ssize_t>(n)});
    return py::array_t<double, py::array::c_style>(
        {static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(columns)});
}

}  // namespace nbody::python
