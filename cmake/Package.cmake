# `cpack -G DEB` in a build tree (scripts/package.sh): one nbody-sandbox .deb with the programs, libnbody and its
# headers, CMake and pkg-config files, the GRAPE-6 library, the Python module, scenes, shaders, assets and docs,
# installed under /usr. Its library dependencies come from dpkg-shlibdeps; what is found at run time is named here.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME nbody-sandbox)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "nbody-sandbox developers <nbody-sandbox@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch galaxies collide in real time on a GPU (direct and tree N-body gravity)")
set(CPACK_PACKAGE_DESCRIPTION
    "nbody-sandbox simulates and draws colliding galaxies, star clusters and few-body orbits: direct summation on CUDA "
    "kernels in selectable unrolling variants, a GPU tree code, leap-frog and Hermite integrators, and a vectorised "
    "CPU backend where no NVIDIA GPU runs. With nbody-bench, libnbody (C++ API), a Python module and a GRAPE-6 "
    "library.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The Python module imports numpy; GL and EGL are loaded at run time (glad); the panels' font and Mesa (GL on the CPU)
# are found at run time; ffmpeg records video.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3-numpy, libgl1, libegl1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core, libegl-mesa0, libgl1-mesa-dri, ffmpeg")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}\n ${CPACK_PACKAGE_DESCRIPTION}")
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/nbody-sandbox)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/nbody-sandbox PATTERN "bench" EXCLUDE PATTERN "sass" EXCLUDE)
include(CPack)
