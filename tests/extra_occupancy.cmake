# tests/extra_occupancy.cmake -- compares sim/occupancy.c with NVIDIA's own
# occupancy calculator (cuda_occupancy.h, a header-only part of the CUDA
# toolkit) on random launches for every preset. Built only where the header is
# found; nothing else of CUDA is needed (no nvcc, no driver, no GPU).
find_path(CUDA_OCC_H cuda_occupancy.h
  HINTS $ENV{CUDA_HOME}/include $ENV{CUDA_PATH}/include
  PATHS /usr/local/cuda/include /opt/cuda/include /usr/include)
if(CUDA_OCC_H)
  add_executable(occupancy_ref ${CMAKE_CURRENT_SOURCE_DIR}/occupancy_ref.cpp)
  target_include_directories(occupancy_ref SYSTEM PRIVATE ${CUDA_OCC_H})
  target_link_libraries(occupancy_ref PRIVATE gpusim)
  add_test(NAME occupancy_ref COMMAND occupancy_ref)
  set_tests_properties(occupancy_ref PROPERTIES LABELS unit)
  message(STATUS "occupancy_ref: comparing with ${CUDA_OCC_H}/cuda_occupancy.h")
else()
  message(STATUS "occupancy_ref: cuda_occupancy.h not found (set CUDA_HOME); test skipped")
endif()
