# `cmake --install <build> --prefix P`: flyhoist as a library.
#
#   P/include/flyhoist, flyhoist-c   headers, .td files, generated .inc files
#   P/lib/libFlyHoist*.a             the C++ libraries and the C API archive
#   P/lib/libFlyHoistMLIRCAPI.so     the C API with MLIR's, over libMLIR.so
#   P/lib/FlyHoistPlugin.so          the mlir-opt plugin
#   P/lib/flyhoist/toolkit           llvm/bin/ld.lld for format=bin
#   P/bin/fly-opt
#   P/lib/cmake/flyhoist             find_package(FlyHoist CONFIG):
#                                    FlyHoist::<target> imported targets
#   P/lib/pkgconfig/flyhoist.pc      the C API (libFlyHoistMLIRCAPI.so)
#   P/lib/pkgconfig/flyhoist-cxx.pc  the C++ libraries
#   P/lib/python3/dist-packages/flyhoist   the Python package
#
# Everything links Debian's shared libMLIR.so/libLLVM.so (MLIR_LINK_MLIR_DYLIB),
# found through an RPATH to LLVM's library folder; the CMake package finds
# MLIR itself, and the pkg-config files carry its include and library paths.

include(CMakePackageConfigHelpers)

set(FLYHOIST_INSTALL_LIBDIR lib)
set(FLYHOIST_INSTALL_CMAKEDIR ${FLYHOIST_INSTALL_LIBDIR}/cmake/flyhoist)
set(FLYHOIST_INSTALL_PYTHONDIR ${FLYHOIST_INSTALL_LIBDIR}/python3/dist-packages
  CACHE STRING "Where `cmake --install` puts the flyhoist Python package, relative to the prefix")

# The exported libraries, as FlyHoist::<name>.
set(flyhoist_libraries
  FlyHoistSpecDialect FlyHoistAnalysis FlyHoistTransforms FlyHoistPipelines
  FlyHoistCAPI FlyHoistMLIRCAPI)
foreach(library ${flyhoist_libraries})
  target_include_directories(${library} INTERFACE
    $<INSTALL_INTERFACE:include>)
endforeach()
foreach(library FlyHoistSpecDialect FlyHoistAnalysis FlyHoistTransforms
    FlyHoistPipelines FlyHoistCAPI)
  target_compile_features(${library} INTERFACE cxx_std_17)
endforeach()
# libMLIR.so.22.1 is not on the loader's path on Debian: point at it.
set_target_properties(FlyHoistMLIRCAPI FlyHoistPlugin PROPERTIES
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
set_target_properties(fly-opt PROPERTIES
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")

install(TARGETS ${flyhoist_libraries} fly-opt FlyHoistPlugin
  EXPORT FlyHoistTargets
  ARCHIVE DESTINATION ${FLYHOIST_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${FLYHOIST_INSTALL_LIBDIR}
  RUNTIME DESTINATION bin)
install(EXPORT FlyHoistTargets
  NAMESPACE FlyHoist::
  DESTINATION ${FLYHOIST_INSTALL_CMAKEDIR})

# Headers: the sources' and the generated ones (ODS, passes, C API passes).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/flyhoist
                  ${PROJECT_SOURCE_DIR}/include/flyhoist-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/flyhoist
                  ${PROJECT_BINARY_DIR}/include/flyhoist-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# The AMDGPU toolkit folder (lib/Pipelines/Pipelines.cpp looks for it next
# to the library or executable holding the pipelines).
if(FLYHOIST_LD_LLD)
  install(CODE "
    set(toolkit \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${FLYHOIST_INSTALL_LIBDIR}/flyhoist/toolkit/llvm/bin\")
    file(MAKE_DIRECTORY \"\${toolkit}\")
    file(CREATE_LINK \"${FLYHOIST_LD_LLD}\" \"\${toolkit}/ld.lld\" SYMBOLIC)
    message(STATUS \"Installing: \${toolkit}/ld.lld -> ${FLYHOIST_LD_LLD}\")")
endif()

# The CMake package.
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/FlyHoistConfig.cmake.in
  ${PROJECT_BINARY_DIR}/FlyHoistConfig.cmake
  INSTALL_DESTINATION ${FLYHOIST_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/FlyHoistConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/FlyHoistConfig.cmake
              ${PROJECT_BINARY_DIR}/FlyHoistConfigVersion.cmake
  DESTINATION ${FLYHOIST_INSTALL_CMAKEDIR})

# pkg-config: relocatable (the prefix is found from the .pc file's folder).
set(FLYHOIST_MLIR_INCLUDE_DIR ${MLIR_INCLUDE_DIRS})
list(GET FLYHOIST_MLIR_INCLUDE_DIR 0 FLYHOIST_MLIR_INCLUDE_DIR)
foreach(pc flyhoist flyhoist-cxx)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in
    ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc
    DESTINATION ${FLYHOIST_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# The Python package, with a note of where the library is from its folder.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/flyhoist
  DESTINATION ${FLYHOIST_INSTALL_PYTHONDIR}
  PATTERN "__pycache__" EXCLUDE
  PATTERN "*.pyc" EXCLUDE)
file(RELATIVE_PATH library
  /prefix/${FLYHOIST_INSTALL_PYTHONDIR}/flyhoist
  /prefix/${FLYHOIST_INSTALL_LIBDIR}/libFlyHoistMLIRCAPI.so)
include(${CMAKE_CURRENT_LIST_DIR}/FlyHoistPythonPackage.cmake)
flyhoist_install_python_note(${FLYHOIST_INSTALL_PYTHONDIR}/flyhoist ${library})
