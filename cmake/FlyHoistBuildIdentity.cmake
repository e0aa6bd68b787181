# Writes the build identity header of libFlyHoistMLIRCAPI.so (the source
# revision flyhoistGetBuildIdentity reports), run by `cmake -P` on every
# build (lib/CAPI/CMakeLists.txt, target FlyHoistBuildIdentity):
#
#   SOURCE_DIR  the project's sources
#   OUTPUT      the header to write (only rewritten when its text changes,
#               so an unchanged revision recompiles nothing)
#   TEMPLATE    lib/CAPI/BuildIdentity.h.in
#   VERSION     the project version
#   OVERRIDE    FLYHOIST_SOURCE_REVISION: used as given when not empty
#
# The revision, in order:
#   OVERRIDE                          as given
#   git:<commit>                      a clean checkout
#   git:<commit>-dirty.<digest>       changes to what the library is built
#                                     from (lib, include, cmake,
#                                     CMakeLists.txt) since the commit: the
#                                     digest is SHA-256 (first 16 digits) of
#                                     their diff and of the files git does
#                                     not track there, so two different
#                                     dirty trees never share an identity
#   src-sha256:<digest>               not a git checkout (a release
#                                     tarball): SHA-256 of those files
#
# It runs at build time rather than at configure time: a commit made after
# configuring must not keep the old identity (a shared code-object cache
# keys objects by it).

set(paths lib include cmake CMakeLists.txt)

function(flyhoist_digest_files out)
  set(text "")
  foreach(file ${ARGN})
    if(EXISTS "${SOURCE_DIR}/${file}" AND NOT IS_DIRECTORY "${SOURCE_DIR}/${file}")
      file(SHA256 "${SOURCE_DIR}/${file}" hash)
      string(APPEND text "${file} ${hash}\n")
    endif()
  endforeach()
  string(SHA256 digest "${text}")
  set(${out} "${digest}" PARENT_SCOPE)
endfunction()

set(revision "${OVERRIDE}")
if(revision STREQUAL "")
  find_program(GIT git)
  set(commit "")
  if(GIT)
    execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" rev-parse --verify HEAD
                    OUTPUT_VARIABLE commit ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
    if(failed)
      set(commit "")
    endif()
  endif()
  if(NOT commit STREQUAL "")
    execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" diff HEAD --binary
                            -- ${paths}
                    OUTPUT_VARIABLE diff ERROR_QUIET)
    execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" ls-files --others
                            --exclude-standard -- ${paths}
                    OUTPUT_VARIABLE untracked ERROR_QUIET)
    set(revision "git:${commit}")
    if(NOT diff STREQUAL "" OR NOT untracked STREQUAL "")
      string(REPLACE "\n" ";" untracked "${untracked}")
      flyhoist_digest_files(files ${untracked})
      string(SHA256 digest "${diff}\n${files}")
      string(SUBSTRING "${digest}" 0 16 digest)
      set(revision "${revision}-dirty.${digest}")
    endif()
  else()
    set(sources "")
    foreach(path ${paths})
      if(IS_DIRECTORY "${SOURCE_DIR}/${path}")
        file(GLOB_RECURSE found RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${path}/*")
        list(APPEND sources ${found})
      else()
        list(APPEND sources ${path})
      endif()
    endforeach()
    list(SORT sources)
    flyhoist_digest_files(digest ${sources})
    string(SUBSTRING "${digest}" 0 16 digest)
    set(revision "src-sha256:${digest}")
  endif()
endif()

# A C string literal whatever the override holds.
string(REGEX REPLACE "[\r\n]" " " revision "${revision}")
string(REPLACE "\\" "\\\\" revision "${revision}")
string(REPLACE "\"" "\\\"" revision "${revision}")
set(FLYHOIST_BUILD_VERSION "${VERSION}")
set(FLYHOIST_BUILD_REVISION "${revision}")
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
