#!/bin/sh
# tests/races_fixed_programs.sh DIR RUNS PROGRAM... - every fixed program target draws
# no data race (WEFT_RACES=1, scheduler/race.c), RUNS executions each of random and POS
# (issue 30: plain_wrong_lock_fixed and plain_spawn_order_fixed were reported for two
# variables sharing an 8-byte granule, cxx_bounded_buffer_fixed and cxx_lazy_config_fixed
# for std::thread's argument tuple in a state block libstdc++ freed and the next
# std::thread reused).  plain_check_then_use_fixed is not listed: its race on `current`
# is intended (README, "Data races").  bench/ runs the long version (RUNS=20000).
dir=$1 runs=$2
shift 2
fail() { echo "FAIL (races_fixed_programs): $*"; exit 1; }
for prog in "$@"; do
	for s in random pos; do
		out=$(WEFT_RACES=1 "$dir/${prog}_replay" --explore=$s --max-executions="$runs" --quiet 2>&1) ||
			fail "$prog, $s: $out"
		echo "$out" | grep -q " executions=$runs .* verdict=pass " || fail "$prog: $out"
	done
done
echo "races_fixed_programs: $# fixed programs, $runs executions of random and POS each, no data race"
