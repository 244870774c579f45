# Optional test programs, each in its own file; included by tests/CMakeLists.txt.
include(${CMAKE_CURRENT_SOURCE_DIR}/extra_occupancy.cmake)
