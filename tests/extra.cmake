# Optional test programs, each in its own file; included by tests/CMakeLists.txt.
include(${CMAKE_CURRENT_SOURCE_DIR}/extra_occupancy.cmake)
add_test(NAME e2e_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_cli.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
