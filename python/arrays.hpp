#pragma once
// numpy arrays in and out of the module: input arrays checked by name (shape and dtype here; NaN, inf and
// negative masses by libnbody, which names the index), output arrays freshly allocated and filled by the
// library's get_* calls.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>

namespace nbody::python {

namespace py = pybind11;

// `obj` as a C-ordered float64 array of shape (rows, columns), or (rows,) for columns == 0; rows == 0 takes
// any length. Throws py::value_error naming the array when it is not an array of real numbers (int, uint
// or float dtypes are converted; bool, complex, object and strings are refused) or has the wrong shape.
py::array_t<double, py::array::c_style> as_float64(const py::handle& obj, const char* name, std::size_t rows,
                                                   std::size_t columns);

// An uninitialised C-ordered float64 array of shape (n, 3) or (n,).
py::array_t<double, py::array::c_style> float64_rows(std::size_t n, std::size_t columns);

}  // namespace nbody::python
