#!/bin/sh
# tests/program_races.sh DIR - the data-race check (scheduler/race.c) on small programs
# built with the pass (issue 30):
# - race-free twins report nothing with WEFT_RACES=1 under every memory model, 300
#   executions of random and of POS each (tests/program_race_free.c: adjacent ints under
#   two locks, per-thread int and char slots, struct fields, a barrier's per-thread slots,
#   release/acquire and fence publication, a block handed over by a semaphore;
#   tests/program_race_cxx.cpp: std::thread arguments, std::mutex, new/delete);
# - tests/program_racy.c's three races (a relaxed flag publishing plain data, a free
#   unordered with a read of the block, a plain read of an atomic counter) are each
#   printed exactly once by WEFT_RACES=warn over 300 executions, which run to the end
#   (verdict pass), and WEFT_RACES=1 makes the first one found the verdict;
# - a C++ race names its functions demangled.
dir=$1
src=$(dirname "$0")/program_racy.c
line() {  # line TEXT: where TEXT is in program_racy.c, so that comments may move it
	n=$(grep -nF "$1" "$src" | head -1 | cut -d: -f1)
	[ -n "$n" ] || fail "'$1' not in $src"
	echo "$n"
}
fail() { echo "FAIL (program_races): $*"; exit 1; }
for prog in program_race_free program_race_cxx_fixed; do
	for memory in sc c11 tso pso; do
		for s in random pos; do
			out=$(WEFT_RACES=1 WEFT_MEMORY=$memory "$dir/${prog}_replay" --explore=$s \
				--max-executions=300 2>&1) ||
				fail "$prog under $memory, $s: $out"
			echo "$out" | grep -q ' executions=300 .* verdict=pass ' || fail "$prog: $out"
		done
	done
done
out=$(WEFT_RACES=warn WEFT_MEMORY=sc "$dir/program_racy_replay" --explore=random \
	--max-executions=300 2>&1) || fail "warn mode failed the run: $out"
echo "$out" | grep -q ' executions=300 .* verdict=pass ' || fail "warn mode: $out"
expect_once() {
	n=$(echo "$out" | grep -c "^==weft== WARNING: data race in program_racy: .*$1")
	[ "$n" -eq 1 ] || fail "warn mode printed '$1' $n times: $out"
}
l_data_read=$(line 'seen = data;') l_data_write=$(line 'data = 42;')
l_free=$(line 'free(block);') l_block_read=$(line 'seen += *block;')
l_hits_read=$(line 'int plain_hits =') l_hits_add=$(line 'atomic_fetch_add_explicit(&hits')
expect_once "reads program_racy.c:$l_data_read (reader), unordered with thread 1's write at program_racy.c:$l_data_write (publisher)"
expect_once "frees program_racy.c:$l_free (weft_program_main), unordered with thread 2's read at program_racy.c:$l_block_read (reader)"
expect_once "program_racy.c:$l_hits_read (weft_program_main), unordered with thread 2's atomic write at program_racy.c:$l_hits_add (reader)\|program_racy.c:$l_hits_add (reader), unordered with thread 0's read at program_racy.c:$l_hits_read"
[ "$(echo "$out" | grep -c 'WARNING: data race')" -eq 3 ] || fail "not three warnings: $out"
for s in random pos; do
	out=$(WEFT_RACES=1 WEFT_MEMORY=sc "$dir/program_racy_replay" --explore=$s \
		--max-executions=300 --quiet 2>&1)
	[ $? -eq 1 ] && echo "$out" | grep -q ' verdict=data-race ' || fail "$s: $out"
done
out=$(WEFT_RACES=1 "$dir/program_race_cxx_racy_replay" --explore=pos --max-executions=300 2>&1)
echo "$out" | grep -q "reads program_race_cxx.cpp:29 ((anonymous namespace)::tally::bump), unordered with thread [0-9]'s write at program_race_cxx.cpp:29 ((anonymous namespace)::tally::bump)" ||
	fail "the C++ race, demangled: $out"
echo "program_races: the race-free twins pass under sc, c11, tso and pso; the three races are each warned once; C++ names demangled"
