# Optional test programs, each in its own file; included by tests/CMakeLists.txt.
include(${CMAKE_CURRENT_SOURCE_DIR}/extra_occupancy.cmake)
add_test(NAME e2e_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_cli.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
add_test(NAME e2e_run COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_run.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
add_test(NAME e2e_sweep COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_sweep.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
# A sweep SIGKILLed at random moments and resumed: nothing lost, nothing
# twice (tests/e2e_sweep_kill.sh; E2E_SEED=N replays a run's kill times).
add_test(NAME e2e_sweep_kill COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_sweep_kill.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
add_test(NAME e2e_format COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_format.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
if(TARGET gpusim-viz)
  add_test(NAME e2e_viz COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_viz.sh $<TARGET_FILE:gpusim-viz> ${CMAKE_SOURCE_DIR})
endif()
if(TARGET gpusim-validate)
  add_test(NAME e2e_validate COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_validate.sh $<TARGET_FILE:gpusim-validate> ${CMAKE_SOURCE_DIR} $<TARGET_FILE:gpusim_cli>)
endif()
add_test(NAME e2e_workloads_b COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_workloads_b.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
add_test(NAME e2e_workloads_a COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_workloads_a.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
add_test(NAME e2e_claims COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_claims.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
add_test(NAME e2e_reliability COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_reliability.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
# The per-instruction view (gpusim run --source) of every shipped workload and a PTX kernel.
add_test(NAME e2e_source COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_source.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
# The simulator against the committed H200 measurements (validate/RESULTS.md):
# a model change that loses agreement fails here; one that gains it should
# tighten the bounds. Minutes of simulation, so labelled slow.
add_test(NAME compare_h200 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compare_h200.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
set_tests_properties(compare_h200 PROPERTIES LABELS slow TIMEOUT 1800)
# Every printed number and word of the shipped workloads, pinned (tests/golden/).
add_test(NAME golden COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/golden.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
# A minute of simulation: the sanitizer stage leaves it out with the comparison.
set_tests_properties(golden PROPERTIES LABELS slow)
# --threads N changes nothing but the host time: every shipped workload on 1,
# 2 and 3 threads, byte for byte (minutes of simulation, so labelled slow).
add_test(NAME e2e_threads COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_threads.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
set_tests_properties(e2e_threads PROPERTIES LABELS slow TIMEOUT 1800)
# The PTX front end: bad-input corpus, the twins' committed PTX, docs/PTX.md,
# and the CUDA workloads where nvcc is installed (tests/e2e_ptx.sh).
add_test(NAME e2e_ptx COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_ptx.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
# Every CUDA twin through its own PTX on the h200 and a100 presets, checked
# (minutes of nvcc where it is installed; skips with a message elsewhere).
add_test(NAME twins_ptx COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/twins_ptx.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
set_tests_properties(twins_ptx PROPERTIES LABELS slow TIMEOUT 1800)
# The PTX path against the same measurements (compare_h200.sh --from-ptx): slow, and
# skipped with a message where nvcc is not installed.
add_test(NAME compare_h200_ptx COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compare_h200.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR} --from-ptx)
set_tests_properties(compare_h200_ptx PROPERTIES LABELS slow TIMEOUT 1800)
# The labs of docs/labs/: every command of every lab runs, every Check: claim
# holds and every number the labs quote is what the simulator prints
# (tests/labs.py; --update rewrites the numbers). Without gpusim-viz the
# snapshot claims are skipped.
if(TARGET gpusim-viz)
  add_test(NAME labs COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/labs.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR} $<TARGET_FILE:gpusim-viz>)
else()
  add_test(NAME labs COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/labs.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
endif()
set_tests_properties(labs PROPERTIES TIMEOUT 600)
# The user's guides the same way: every output sample of README.md,
# docs/SWEEPS.md, workloads/README.md and docs/VISUALIZER.md is what its command prints, every
# number in their prose is what a run or a committed record gives
# (tests/labs.py; update with labs.sh ... --update FILES).
set(GPUSIM_GUIDES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/docs/SWEEPS.md ${CMAKE_SOURCE_DIR}/workloads/README.md
    ${CMAKE_SOURCE_DIR}/docs/VISUALIZER.md ${CMAKE_SOURCE_DIR}/isa/ISA.md)
if(TARGET gpusim-viz)
  add_test(NAME guides COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/labs.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR} $<TARGET_FILE:gpusim-viz> ${GPUSIM_GUIDES})
else()
  add_test(NAME guides COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/labs.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR} ${GPUSIM_GUIDES})
endif()
set_tests_properties(guides PROPERTIES LABELS e2e TIMEOUT 600)
# validate/counters.py: ncu's counters beside compare --json's sim_stats.
add_test(NAME e2e_counters COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_counters.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})

# The floors hold for calls too: no floor's library uses a symbol defined
# only above it (nm); and a floor's private header (*_int.h) is not on
# another floor's include path, while its public ones are.
add_test(NAME floors_calls COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/floors_calls.sh ${CMAKE_BINARY_DIR})
add_test(NAME floors_public COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -I${GPUSIM_FLOOR_ROOT_workloads}
         ${CMAKE_CURRENT_SOURCE_DIR}/floors_private.c)
add_test(NAME floors_private_refused COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -DPRIVATE
         -I${GPUSIM_FLOOR_ROOT_workloads} ${CMAKE_CURRENT_SOURCE_DIR}/floors_private.c)
set_tests_properties(floors_private_refused PROPERTIES WILL_FAIL TRUE)
set_tests_properties(floors_calls floors_public floors_private_refused PROPERTIES LABELS unit)

# The code's shape: no C file over 900 lines, no function over 120 but the
# executors' switches (tests/code_shape.py).
add_test(NAME code_shape COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/code_shape.py ${CMAKE_SOURCE_DIR})
set_tests_properties(code_shape PROPERTIES LABELS unit)

# Every function, constant and file docs/ARCHITECTURE.md names exists.
add_test(NAME docs_names COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/docs_names.py ${CMAKE_SOURCE_DIR})
set_tests_properties(docs_names PROPERTIES LABELS unit)

# bench/compare.sh copies the whole working tree (it once copied part of it
# and then stopped without a word, when the tree outgrew one xargs batch).
add_test(NAME bench_compare_copy COMMAND bash ${CMAKE_SOURCE_DIR}/bench/compare.sh HEAD)
set_tests_properties(bench_compare_copy PROPERTIES ENVIRONMENT GPUSIM_COMPARE_COPY_ONLY=1)
# ... and its table reads today's bench rows and an old revision's (no CPU
# time, no RSS: it once stopped with a Python traceback on those).
add_test(NAME bench_compare_report COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bench_compare_report.sh ${CMAKE_SOURCE_DIR})

# bench/scaling.sh: one launch's speed over host threads (tests/bench_scaling.sh).
add_test(NAME bench_scaling COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bench_scaling.sh $<TARGET_FILE:gpusim-bench> ${CMAKE_SOURCE_DIR})

# --jobs N changes the time a run takes, never its report (tests/e2e_jobs.sh).
add_test(NAME e2e_jobs COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_jobs.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})

# The simulated block lifetimes RESULTS.md quotes beside the H200's
# (validate/block_life.py; a few seconds, traces of 16384-65536 blocks).
add_test(NAME block_life COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/block_life.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
set_tests_properties(block_life PROPERTIES LABELS slow TIMEOUT 600)
# gpusim exec: the CUDA programs of tests/exec/ with our runtime (where nvcc
# and the runtime are built; the option checks run anyway).
add_test(NAME e2e_exec COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e_exec.sh $<TARGET_FILE:gpusim_cli> ${CMAKE_SOURCE_DIR})
# The fatbinary reader of our runtime (cudart/fatbin.c), where it is built.
if(TARGET gpusim_cudart)
  add_executable(fatbin_check fatbin_check.c ${CMAKE_SOURCE_DIR}/cudart/fatbin.c)
  target_include_directories(fatbin_check PRIVATE ${GPUSIM_FLOOR_ROOT_cudart})
  target_link_libraries(fatbin_check PRIVATE gpusim_base PkgConfig::CHECK PkgConfig::ZSTD)
  add_test(NAME fatbin_check COMMAND fatbin_check)
  set_tests_properties(fatbin_check PROPERTIES LABELS unit)
endif()
