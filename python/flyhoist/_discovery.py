"""Which libFlyHoistMLIRCAPI.so the package loads, by one rule.

In order, the first that exists is the one (docs/INTEGRATION.md,
"Installing the Python package"):

1. the path given to `_capi.load(path)` (a caller's own choice);
2. the library installed with the package: bundled in it by pip
   (flyhoist/lib/), or in the prefix of `cmake --install`; its
   `_installed.py` says where;
3. $FLYHOIST_CAPI_LIB;
4. only for the package in a source checkout (nothing installed with it):
   $FLYHOIST_BUILD_DIR/lib, the checkout's build/lib, then its other
   build*/lib folders by name, leaving out sanitized builds (their library
   needs the sanitizer runtime preloaded; name one in FLYHOIST_CAPI_LIB).

A path that exists but does not load, or holds a library of another
flyhoist build than an installed package's, is an error: it is never
skipped for the next one, since it was named or installed on purpose. The
error lists every place tried.
"""

from __future__ import annotations

import glob
import os
import re
import warnings

#: The source checkout the package may live in (python/flyhoist/..).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

LIBRARY_NAME = 'libFlyHoistMLIRCAPI.so'

try:  # written at install time (cmake/_installed.py.in)
    from . import _installed
except ImportError:  # the package in a source checkout
    _installed = None


class LibraryError(RuntimeError):
    """The C API library cannot be used: not found, not loadable, or of
    another flyhoist build."""


class LibraryNotFound(LibraryError):
    """No libFlyHoistMLIRCAPI.so where the package looked."""


class LibraryMismatch(LibraryError):
    """The library is of another flyhoist build than the package."""


_SANITIZER_NAME = re.compile(r'(^|[-_.])(a|ub|t|m|hwa)?san(itize[dr]?)?'
                             r'($|[-_.])', re.IGNORECASE)


def is_sanitizer_build(build_dir: str) -> bool:
    """Whether `build_dir` is a sanitized build (scripts/sanitize.sh's
    build-asan): by its name, or by its CMakeCache.txt. Its library needs
    the sanitizer runtime loaded first, which a plain python3 does not do."""
    if _SANITIZER_NAME.search(os.path.basename(os.path.normpath(build_dir))):
        return True
    try:
        with open(os.path.join(build_dir, 'CMakeCache.txt'),
                  errors='replace') as f:
            cache = f.read()
    except OSError:
        return False
    return 'FLYHOIST_SANITIZE:BOOL=ON' in cache or '-fsanitize=address' in \
        cache


def installed_library() -> str | None:
    """The library installed with the package, or None in a checkout."""
    if _installed is None:
        return None
    return os.path.normpath(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), _installed.LIBRARY))


def sources(explicit: str | None = None) -> list[tuple[str, str]]:
    """[(path, where it comes from)] in the order of the rule."""
    found = []
    if explicit:
        found.append((explicit, 'given to load()'))
    installed = installed_library()
    if installed:
        found.append((installed, 'installed with the package'))
    if os.environ.get('FLYHOIST_CAPI_LIB'):
        found.append((os.environ['FLYHOIST_CAPI_LIB'], 'FLYHOIST_CAPI_LIB'))
    if installed:
        return found  # an installed package has no checkout around it
    builds = []
    if os.environ.get('FLYHOIST_BUILD_DIR'):
        builds.append((os.environ['FLYHOIST_BUILD_DIR'], 'FLYHOIST_BUILD_DIR'))
    builds.append((os.path.join(ROOT, 'build'), 'the checkout'))
    builds += [(b, 'the checkout')
               for b in sorted(glob.glob(os.path.join(ROOT, 'build?*')))]
    for build, origin in builds:
        if not is_sanitizer_build(build):
            found.append((os.path.join(build, 'lib', LIBRARY_NAME), origin))
    return found


def library_candidates(explicit: str | None = None) -> list[str]:
    """The paths sources() lists, in order."""
    return [path for path, _ in sources(explicit)]


def find(explicit: str | None = None) -> tuple[str, str]:
    """(path, where it comes from) of the first library that exists."""
    tried = sources(explicit)
    for path, origin in tried:
        if os.path.exists(path):
            _warn_if_overridden(path, origin)
            return path, origin
    sanitized = [] if installed_library() else [
        b for b in glob.glob(os.path.join(ROOT, 'build*'))
        if is_sanitizer_build(b) and
        os.path.exists(os.path.join(b, 'lib', LIBRARY_NAME))]
    hint = ''
    if sanitized:
        hint = (f'; {", ".join(sorted(sanitized))} is a sanitized build, '
                f'used only when named by FLYHOIST_CAPI_LIB (with the '
                f'sanitizer runtime preloaded)')
    places = '; '.join(f'{p} ({o})' for p, o in tried) or 'nowhere'
    advice = ('reinstall the package (pip install .)' if installed_library()
              else 'build the project (ninja -C build FlyHoistMLIRCAPI), '
                   'install the package (pip install .) or set '
                   'FLYHOIST_CAPI_LIB')
    raise LibraryNotFound(f'{LIBRARY_NAME} not found; tried {places}: '
                          f'{advice}{hint}')


def find_library(explicit: str | None = None) -> str:
    """The path of the library the rule picks (LibraryNotFound if none)."""
    return find(explicit)[0]


def _warn_if_overridden(path, origin):
    """FLYHOIST_CAPI_LIB set but not used is said, not silently ignored."""
    named = os.environ.get('FLYHOIST_CAPI_LIB')
    if origin == 'FLYHOIST_CAPI_LIB' or not named or \
            os.path.realpath(named) == os.path.realpath(path):
        return
    warnings.warn(f'FLYHOIST_CAPI_LIB={named} is not used: {path} '
                  f'({origin}) comes first', stacklevel=4)


_IDENTITY = re.compile(r'^flyhoist (?P<version>\S+) \((?P<revision>.*)\), ')


def package_identity() -> tuple[str, str] | None:
    """(version, revision) of the build the package was installed from;
    None in a source checkout, which is the sources of whatever it loads."""
    if _installed is None:
        return None
    return (getattr(_installed, 'VERSION', ''),
            getattr(_installed, 'REVISION', ''))


def package_version() -> str:
    """The flyhoist version: the installed build's, or in a checkout the
    CMake project's (CMakeLists.txt, where pip reads it too)."""
    if _installed is not None:
        return getattr(_installed, 'VERSION', '') or 'unknown'
    try:
        with open(os.path.join(ROOT, 'CMakeLists.txt')) as f:
            match = re.search(r'project\(flyhoist VERSION ([0-9.]+)',
                              f.read())
    except OSError:
        match = None
    return match[1] if match else 'unknown'


def check_identity(path: str, origin: str, identity: str) -> None:
    """Raises LibraryMismatch when an installed package would load a library
    of another flyhoist build (version and source revision): its Python
    side and the library's C side would disagree, and a code-object cache
    keyed by the library's identity would not be the package's."""
    expected = package_identity()
    if expected is None:
        return
    version, revision = expected
    match = _IDENTITY.match(identity)
    if match and version in ('', match['version']) and \
            revision in ('', match['revision']):
        return
    wanted = f'flyhoist {version}' + (f' ({revision})' if revision else '')
    raise LibraryMismatch(
        f'{path} ({origin}) is {identity!r}; this package is {wanted}: '
        f'load the library installed with it, or reinstall the package '
        f'from the sources that library was built from')
