# bench/hard/hard.cmake - the hard benchmark's programs and targets (issue 33;
# bench/hard.sh runs them).  Included by the top CMakeLists.txt when
# WEFT_BENCH_HARD is ON, so weft_add_target / weft_add_program resolve their
# paths from the top directory.  Each gives NAME_buggy_{replay,fuzz} and a
# NAME_fixed twin that must pass.
set(weft_hard_programs torn_record order_chain three_races stale_quad lease_timeout retry_duplicate)
set(weft_hard_targets aba_borrow tso_room pso_publish seqlock_register)
foreach(name ${weft_hard_programs})
  string(TOUPPER ${name} upper)
  weft_add_program(hard_${name}_buggy bench/hard/${name}.c)
  weft_add_program(hard_${name}_fixed bench/hard/${name}.c DEFINES HARD_${upper}_FIXED)
endforeach()
foreach(name ${weft_hard_targets})
  string(TOUPPER ${name} upper)
  weft_add_target(hard_${name}_buggy bench/hard/${name}.c)
  weft_add_target(hard_${name}_fixed bench/hard/${name}.c DEFINES HARD_${upper}_FIXED)
endforeach()
# Variants of one source by -D (one concept, two sizes).
weft_add_program(hard_order_chain_crowd_buggy bench/hard/order_chain.c DEFINES THREADS=120 DEPTH=6)
weft_add_program(hard_order_chain_crowd_fixed bench/hard/order_chain.c
                 DEFINES THREADS=120 DEPTH=6 HARD_ORDER_CHAIN_FIXED)
weft_add_program(hard_torn_record_crowd_buggy bench/hard/torn_record.c DEFINES WRITERS=100 FIELDS=4 TRY_ONCE)
weft_add_program(hard_torn_record_crowd_fixed bench/hard/torn_record.c
                 DEFINES WRITERS=100 FIELDS=4 TRY_ONCE HARD_TORN_RECORD_FIXED)
