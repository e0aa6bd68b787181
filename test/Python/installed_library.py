# The library rule of an installed package (pip's wheel, `cmake --install`):
# the library installed with it first, FLYHOIST_CAPI_LIB second (said, not
# silently ignored, when the installed one wins), no checkout search; an
# error that lists what it tried; a library that does not load is an error
# naming it, not a skip; and a library of another flyhoist build (version or
# source revision) is refused. The package folder and its _installed.py are
# made up here; the real library is the build's, from FLYHOIST_CAPI_LIB.
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %s %t 2>&1 | FileCheck %s

import os
import re
import sys
import types
import warnings

from flyhoist import _capi, _discovery

root = sys.argv[1]
real = os.environ.pop('FLYHOIST_CAPI_LIB')
os.environ.pop('FLYHOIST_BUILD_DIR', None)
# A checkout with a build the rule must not look at for an installed package.
_discovery.ROOT = root
os.makedirs(os.path.join(root, 'build', 'lib'))
open(os.path.join(root, 'build', 'lib', _discovery.LIBRARY_NAME), 'w').close()

package = os.path.dirname(os.path.abspath(_discovery.__file__))
bundled = os.path.join(root, 'site', 'flyhoist', 'lib',
                       _discovery.LIBRARY_NAME)
_discovery._installed = types.SimpleNamespace(
    LIBRARY=os.path.relpath(bundled, package), VERSION='0.1.0',
    REVISION='git:abc')


def found():
    try:
        path, origin = _discovery.find()
        return f'{os.path.relpath(path, root)} ({origin})'
    except _discovery.LibraryNotFound as error:
        return 'LibraryNotFound: ' + str(error).replace(root, '<t>')


# CHECK-LABEL: nothing installed
print('nothing installed')
print(found())
# CHECK-NEXT: LibraryNotFound: libFlyHoistMLIRCAPI.so not found; tried <t>/site/flyhoist/lib/libFlyHoistMLIRCAPI.so (installed with the package): reinstall the package (pip install .)
os.environ['FLYHOIST_CAPI_LIB'] = os.path.join(root, 'nowhere.so')
print(found())
# CHECK-NEXT: tried <t>/site/flyhoist/lib/libFlyHoistMLIRCAPI.so (installed with the package); <t>/nowhere.so (FLYHOIST_CAPI_LIB): reinstall

# CHECK-LABEL: FLYHOIST_CAPI_LIB second
print('FLYHOIST_CAPI_LIB second')
os.environ['FLYHOIST_CAPI_LIB'] = real
print(found().replace(os.path.relpath(real, root), '<real>'))
# CHECK-NEXT: <real> (FLYHOIST_CAPI_LIB)

# CHECK-LABEL: installed first
print('installed first')
os.makedirs(os.path.dirname(bundled))
open(bundled, 'w').close()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    print(found())
    for warning in caught:
        print('warning:', str(warning.message).replace(root, '<t>').replace(
            real, '<real>'))
# CHECK-NEXT: site/flyhoist/lib/libFlyHoistMLIRCAPI.so (installed with the package)
# CHECK-NEXT: warning: FLYHOIST_CAPI_LIB=<real> is not used: <t>/site/flyhoist/lib/libFlyHoistMLIRCAPI.so (installed with the package) comes first
# The path given to load() comes before both.
print(os.path.relpath(_discovery.find_library(real), root) ==
      os.path.relpath(real, root))
# CHECK-NEXT: True

# CHECK-LABEL: not loadable
print('not loadable')
try:
    _capi.load()
except _discovery.LibraryError as error:
    print(type(error).__name__, str(error).replace(root, '<t>')[:95])
# CHECK-NEXT: LibraryError <t>/site/flyhoist/lib/libFlyHoistMLIRCAPI.so (installed with the package) does not load:

# CHECK-LABEL: identity
print('identity')
library = _capi.Library(real)
identity = library.build_identity
print(re.sub(r'\(.*\)', '(REV)', identity).split(', MLIR')[0])
# CHECK-NEXT: flyhoist 0.1.0 (REV)
for version, revision in (('0.1.0', 'git:abc'), ('0.2.0', ''),
                          ('', 'git:abc')):
    _discovery._installed.VERSION = version
    _discovery._installed.REVISION = revision
    try:
        _discovery.check_identity(real, 'FLYHOIST_CAPI_LIB', identity)
        print(version, revision, 'accepted')
    except _discovery.LibraryMismatch as error:
        text = str(error).replace(real, '<real>').replace(identity, '<id>')
        print(version, revision, text)
# CHECK-NEXT: 0.1.0 git:abc <real> (FLYHOIST_CAPI_LIB) is '<id>'; this package is flyhoist 0.1.0 (git:abc): load the library installed with it, or reinstall the package from the sources that library was built from
# CHECK-NEXT: 0.2.0 <real> (FLYHOIST_CAPI_LIB) is '<id>'; this package is flyhoist 0.2.0:
# CHECK-NEXT: git:abc <real> (FLYHOIST_CAPI_LIB) is '<id>'; this package is flyhoist  (git:abc):
# The identity the library reports is accepted.
match = re.match(r'flyhoist (\S+) \((.*)\), MLIR', identity)
_discovery._installed.VERSION, _discovery._installed.REVISION = match.groups()
_discovery.check_identity(real, 'FLYHOIST_CAPI_LIB', identity)
print('own identity accepted')
# CHECK-NEXT: own identity accepted
# And the source checkout's package (nothing installed) accepts any.
_discovery._installed = None
_discovery.check_identity(real, 'FLYHOIST_CAPI_LIB', 'flyhoist 9.9 (x), ')
print('checkout accepts')
# CHECK-NEXT: checkout accepts
