# castra_target_options(<target>): the one place that sets warnings and sanitizers.
# Every Castra target goes through it; warnings are errors on our own code.
set(CASTRA_SANITIZE "" CACHE STRING "Sanitizers for every target: empty, or a list such as address,undefined")
option(CASTRA_WERROR "Treat warnings as errors in Castra's own code" ON)

function(castra_target_options target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  # Debug and sanitizer builds run each rule set's check() after every log entry
  # (common/match/invariants.hpp); every target alike, so a match template never differs.
  target_compile_definitions(${target} PRIVATE $<$<CONFIG:Debug>:CASTRA_CHECK_INVARIANTS>)
  if(CASTRA_SANITIZE)
    target_compile_definitions(${target} PRIVATE CASTRA_CHECK_INVARIANTS)
  endif()
  if(CASTRA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(CASTRA_SANITIZE)
    # A report fails the test that caused it instead of scrolling past in its output.
    target_compile_options(${target} PRIVATE -fsanitize=${CASTRA_SANITIZE} -fno-omit-frame-pointer
      -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${CASTRA_SANITIZE})
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
    target_compile_options(${target} PRIVATE -fsanitize=${CASTRA_SANITIZE} -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=${CASTRA_SANITIZE})
  endif()
endfunction()
