# castra_target_options(<target>): the one place that sets warnings and sanitizers.
# Every Castra target goes through it; warnings are errors on our own code.
set(CASTRA_SANITIZE "" CACHE STRING "Sanitizers for every target: empty, or a list such as address,undefined")
option(CASTRA_WERROR "Treat warnings as errors in Castra's own code" ON)

# The sanitized pass builds at -O0 (tools/dev sanitize): a third of -O1's compile time on the
# Beast code. These targets stay at -O1 there: the rules and match libraries and the
# random-game programs, where that pass's tests spend nearly all their time (six times as long
# at -O0). docs/reliability.md, "The sanitized pass".
set(CASTRA_SANITIZED_O1_TARGETS castra_rules castra_match
  optio_rules_test optio_property_test optio_reasons_test optio_forecast_test
  stand_property_test stand_reasons_test stand_forecast_test)

# tools/fuzz's build (libFuzzer's coverage): the standard library's templates, Boost's buffer
# and executor machinery and the rules engines' oracle are left out of the coverage
# instrumentation; tests/fuzz/coverage_ignore.txt says why.
set(CASTRA_COVERAGE_OPTIONS "")
if(CASTRA_SANITIZE MATCHES "fuzzer")
  set(ignorelist ${PROJECT_SOURCE_DIR}/tests/fuzz/coverage_ignore.txt)
  # Neither ninja nor ccache sees the list as an input of a compilation, so the build uses a
  # copy named by its hash: a change of the list re-runs cmake, and the new name in every
  # command line rebuilds every object instead of reusing stale ones. (A -D of the hash would
  # not do: ccache's preprocessor mode leaves macros out of its hash.)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ignorelist})
  file(SHA1 ${ignorelist} ignorelist_sha1)
  set(hashed_ignorelist ${PROJECT_BINARY_DIR}/coverage_ignore-${ignorelist_sha1}.txt)
  configure_file(${ignorelist} ${hashed_ignorelist} COPYONLY)
  set(CASTRA_COVERAGE_OPTIONS -fsanitize-coverage-ignorelist=${hashed_ignorelist})
endif()
# ... and the rules engines keep their edge coverage but not libFuzzer's comparison tracing
# (trace-cmp): nearly all their comparisons are of a state's values with each other and with
# the rules' constants, a fifth of the engines target's samples for hints no input can use.
# The fuzzer's bytes are first compared where they are parsed (protobuf, wire/), which stays
# traced. docs/reliability.md, "Fuzzing", has the figures.
set(CASTRA_FUZZ_UNTRACED_TARGETS castra_rules)

function(castra_target_options target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  # Debug and sanitizer builds run each rule set's check() after every log entry
  # (common/match/invariants.hpp); every target alike, so a match template never differs.
  target_compile_definitions(${target} PRIVATE $<$<CONFIG:Debug>:CASTRA_CHECK_INVARIANTS>)
  if(CASTRA_SANITIZE)
    # CASTRA_SANITIZED: the tests' random-game budgets (tests/support/game_budget.hpp).
    target_compile_definitions(${target} PRIVATE CASTRA_CHECK_INVARIANTS CASTRA_SANITIZED)
  endif()
  if(CASTRA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(CASTRA_SANITIZE)
    # A report fails the test that caused it instead of scrolling past in its output.
    target_compile_options(${target} PRIVATE -fsanitize=${CASTRA_SANITIZE} -fno-omit-frame-pointer
      -fno-sanitize-recover=all ${CASTRA_COVERAGE_OPTIONS})
    target_link_options(${target} PRIVATE -fsanitize=${CASTRA_SANITIZE})
    if(CASTRA_SANITIZE MATCHES "fuzzer" AND target IN_LIST CASTRA_FUZZ_UNTRACED_TARGETS)
      target_compile_options(${target} PRIVATE -fno-sanitize-coverage=trace-cmp)
    endif()
    # Only over -O0 (or no level at all): an optimized sanitized build such as tools/fuzz's
    # -O2 keeps its own level.
    string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
    set(flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${config}}")
    if(target IN_LIST CASTRA_SANITIZED_O1_TARGETS AND NOT flags MATCHES "-O[1-3sz]")
      target_compile_options(${target} PRIVATE -O1)
    endif()
    # GCC's maybe-uninitialized analysis sees through the sanitizers' instrumentation badly
    # (false alarms in std::variant moves); the plain build keeps the warning as an error.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
  endif()
endfunction()

# Generated protobuf code is not ours: same standard and sanitizers, no -Werror.
function(castra_generated_options target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  if(CASTRA_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${CASTRA_SANITIZE} -fno-omit-frame-pointer
      ${CASTRA_COVERAGE_OPTIONS})
    target_link_options(${target} PRIVATE -fsanitize=${CASTRA_SANITIZE})
  endif()
endfunction()
