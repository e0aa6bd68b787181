# The Python package as pip builds it (pyproject.toml, scikit-build-core):
#
#   cmake --install <build> --component flyhoist-python --prefix <platlib>
#
#   <platlib>/flyhoist/lib/libFlyHoistMLIRCAPI.so   the C API library
#   <platlib>/flyhoist/lib/flyhoist/toolkit/llvm/bin/ld.lld
#                                  LLVM 22's linker, by a two-line script: a
#                                  wheel holds no symbolic links, and the
#                                  library looks for its toolkit next to it
#   <platlib>/flyhoist/_installed.py  where the library is, and the build
#                                  identity it was built with
#
# The Python sources themselves are copied by scikit-build-core
# (wheel.packages). The rules are EXCLUDE_FROM_ALL: a full `cmake --install`
# (FlyHoistInstall.cmake) leaves them out, and the component leaves out
# everything else, so pip needs only the FlyHoistMLIRCAPI target built
# (pyproject.toml's build.targets).

set(FLYHOIST_PYTHON_COMPONENT flyhoist-python)

# Installs, at install time, <package>/_installed.py: `library` relative to
# the package folder, and the version and source revision of the build
# (the header lib/CAPI writes for flyhoistGetBuildIdentity).
#   flyhoist_install_python_note(<package folder> <library> [<install args>])
function(flyhoist_install_python_note package library)
  string(MAKE_C_IDENTIFIER "${package}" name)
  set(FLYHOIST_IDENTITY_HEADER
    ${PROJECT_BINARY_DIR}/lib/CAPI/FlyHoistBuildIdentity.h)
  set(FLYHOIST_PYTHON_TO_LIBRARY ${library})
  set(FLYHOIST_PYTHON_PACKAGE_DIR ${package})
  set(FLYHOIST_INSTALLED_TEMPLATE ${PROJECT_SOURCE_DIR}/cmake/_installed.py.in)
  set(script ${PROJECT_BINARY_DIR}/python-package/${name}.cmake)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/FlyHoistPythonIdentity.cmake.in
    ${script} @ONLY)
  install(SCRIPT ${script} ${ARGN})
endfunction()

install(TARGETS FlyHoistMLIRCAPI
  LIBRARY DESTINATION flyhoist/lib
  COMPONENT ${FLYHOIST_PYTHON_COMPONENT} EXCLUDE_FROM_ALL)

if(FLYHOIST_LD_LLD)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/ld.lld.in
    ${PROJECT_BINARY_DIR}/python-package/ld.lld @ONLY)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/python-package/ld.lld
    DESTINATION flyhoist/lib/flyhoist/toolkit/llvm/bin
    COMPONENT ${FLYHOIST_PYTHON_COMPONENT} EXCLUDE_FROM_ALL)
endif()

flyhoist_install_python_note(flyhoist lib/libFlyHoistMLIRCAPI.so
  COMPONENT ${FLYHOIST_PYTHON_COMPONENT} EXCLUDE_FROM_ALL)
