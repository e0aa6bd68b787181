# Where the package finds libFlyHoistMLIRCAPI.so in a source checkout (the
# package installed with a library is installed_library.py): FLYHOIST_CAPI_LIB
# first, then $FLYHOIST_BUILD_DIR/lib, build/lib, the other build*/lib by
# name; a sanitized build (build-asan, or FLYHOIST_SANITIZE in its
# CMakeCache.txt) only when named, since its library needs the sanitizer
# runtime preloaded. The checkout is a made-up folder tree here.
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %s %t | FileCheck %s

import os
import sys

from flyhoist import _capi, _discovery

root = sys.argv[1]
_discovery.ROOT = root
for name in ('FLYHOIST_CAPI_LIB', 'FLYHOIST_BUILD_DIR'):
    os.environ.pop(name, None)


def build(name, cmake_cache=''):
    lib = os.path.join(root, name, 'lib')
    os.makedirs(lib, exist_ok=True)
    open(os.path.join(lib, _capi.LIBRARY_NAME), 'w').close()
    if cmake_cache:
        with open(os.path.join(root, name, 'CMakeCache.txt'), 'w') as f:
            f.write(cmake_cache)


def found():
    try:
        return os.path.relpath(_capi.find_library(), root)
    except _capi.LibraryNotFound as error:
        return f'LibraryNotFound: {str(error).rsplit("; ", 1)[-1]}'


# CHECK: only build-asan: LibraryNotFound: {{.*}}/build-asan is a sanitized build, used only when named by FLYHOIST_CAPI_LIB
build('build-asan')
print('only build-asan:', found())
# CHECK: asan and build-release: build-release/lib/libFlyHoistMLIRCAPI.so
build('build-release')
print('asan and build-release:', found())
# CHECK: and build: build/lib/libFlyHoistMLIRCAPI.so
build('build')
print('and build:', found())
# CHECK: FLYHOIST_BUILD_DIR: build-release/lib/libFlyHoistMLIRCAPI.so
os.environ['FLYHOIST_BUILD_DIR'] = os.path.join(root, 'build-release')
print('FLYHOIST_BUILD_DIR:', found())
del os.environ['FLYHOIST_BUILD_DIR']
# CHECK: FLYHOIST_CAPI_LIB: build-asan/lib/libFlyHoistMLIRCAPI.so
os.environ['FLYHOIST_CAPI_LIB'] = os.path.join(root, 'build-asan', 'lib',
                                               _capi.LIBRARY_NAME)
print('FLYHOIST_CAPI_LIB:', found())
del os.environ['FLYHOIST_CAPI_LIB']
# CHECK: explicit: build-asan/lib/libFlyHoistMLIRCAPI.so
print('explicit:', os.path.relpath(_capi.find_library(os.path.join(
    root, 'build-asan', 'lib', _capi.LIBRARY_NAME)), root))
# A sanitized build by its CMakeCache.txt, whatever its name.
os.rename(os.path.join(root, 'build'), os.path.join(root, 'build-hidden'))
build('build-a', 'FLYHOIST_SANITIZE:BOOL=ON\n')
build('build-b', 'CMAKE_CXX_FLAGS:STRING=-fsanitize=address\n')
os.rename(os.path.join(root, 'build-release'), os.path.join(root, 'build-z'))
# CHECK: by CMakeCache.txt: build-hidden/lib/libFlyHoistMLIRCAPI.so
print('by CMakeCache.txt:', found())
for name in ('build-tsan', 'build_ubsan', 'build.msan', 'build-sanitized'):
    print(name, _capi.is_sanitizer_build(os.path.join(root, name)))
for name in ('build-release', 'build-sandbox', 'build-asanity'):
    print(name, _capi.is_sanitizer_build(os.path.join(root, name)))
# CHECK: build-tsan True
# CHECK: build_ubsan True
# CHECK: build.msan True
# CHECK: build-sanitized True
# CHECK: build-release False
# CHECK: build-sandbox False
# CHECK: build-asanity False
print('order:', [os.path.relpath(c, root).split(os.sep)[0]
                 for c in _capi.library_candidates()])
# CHECK: order: ['build', 'build-hidden', 'build-z']
