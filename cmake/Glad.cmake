# glad2 GL 4.5 core + EGL 1.5 loaders, generated at configure/build time into the build tree from the
# specifications bundled in Debian's python3-glad (--reproducible: nothing is downloaded). The EGL device and
# surfaceless-platform extensions are what the headless context needs (see ../shared/ECOSYSTEM.md).
# Debian's /usr/bin/python3 on purpose: a pyenv python3 earlier on PATH may lack the glad module.
set(NBODY_GLAD_PYTHON /usr/bin/python3 CACHE FILEPATH "Python interpreter that has the glad2 module")
set(_glad_dir ${PROJECT_BINARY_DIR}/glad)
set(_glad_egl_ext
    EGL_EXT_device_base,EGL_EXT_device_enumeration,EGL_EXT_device_query,EGL_EXT_platform_base,EGL_EXT_platform_device,EGL_MESA_platform_surfaceless)
set(_glad_outputs ${_glad_dir}/src/gl.c ${_glad_dir}/src/egl.c ${_glad_dir}/include/glad/gl.h
                  ${_glad_dir}/include/glad/egl.h)

execute_process(COMMAND ${NBODY_GLAD_PYTHON} -c "import glad" RESULT_VARIABLE _glad_missing OUTPUT_QUIET ERROR_QUIET)
if(_glad_missing)
  message(FATAL_ERROR "${NBODY_GLAD_PYTHON} cannot import glad: install python3-glad (scripts/install-deps.sh)")
endif()

add_custom_command(
  OUTPUT ${_glad_outputs}
  COMMAND ${NBODY_GLAD_PYTHON} -m glad --quiet --reproducible --api gl:core=4.5,egl=1.5
          --extensions=${_glad_egl_ext} --out-path ${_glad_dir} c --loader
  COMMENT "Generating the glad2 GL 4.5 core / EGL 1.5 loader"
  VERBATIM)

add_library(nbody_glad STATIC ${_glad_outputs})
target_include_directories(nbody_glad SYSTEM PUBLIC ${_glad_dir}/include)
target_link_libraries(nbody_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(nbody_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
