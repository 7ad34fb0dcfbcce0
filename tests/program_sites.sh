#!/bin/sh
# tests/program_sites.sh DIR - sites name the user's code (issue 32 item 3,
# instrument/weft_sites.cpp):
# - tests/program_sites.cpp: a std::atomic<int> lost update (load, then store) found by
#   --explore; its report names program_sites.cpp's lines for the load and the store,
#   never atomic_base.h; the race of std::swap on two plain ints is warned at the
#   swap's line in the user's function (visit), never at move.h (std::swap<int>);
# - tests/program_sites.c: a race inside a static inline helper of the program's own
#   header stays at that header's line, in the helper (a user header is user code).
dir=$1 here=$(dirname "$0")
fail() { echo "FAIL (program_sites): $*"; exit 1; }
line() {  # line FILE TEXT: where TEXT is in FILE, so that comments may move it
	n=$(grep -nF "$2" "$here/$1" | head -1 | cut -d: -f1)
	[ -n "$n" ] || fail "'$2' not in $1"
	echo "$n"
}
load=$(line program_sites.cpp 'visits.load();') store=$(line program_sites.cpp 'visits.store(')
swap=$(line program_sites.cpp 'std::swap(left, right);')
out=$(WEFT_RACES=warn "$dir/program_sites_cxx_replay" --explore=random --max-executions=300 2>&1)
echo "$out" | grep -q ' verdict=assertion ' || fail "no lost update found: $out"
echo "$out" | grep -Eq "^ +[0-9]+ +load program_sites.cpp:$load -> 0$" || fail "load not at :$load: $out"
echo "$out" | grep -Eq "^ +[0-9]+ +store program_sites.cpp:$store <- 1$" || fail "store not at :$store: $out"
echo "$out" | grep -q 'WARNING: data race in program_sites_cxx: .* program_sites.cpp:'"$swap"' (visit), unordered with .* at program_sites.cpp:'"$swap"' (visit)$' ||
	fail "the swap's race not at program_sites.cpp:$swap (visit): $out"
echo "$out" | grep -E 'atomic_base\.h|move\.h|std::swap|_Z' && fail "a system header or a mangled name named: $out"
helper=$(line program_sites_tally.h '*slot += n;')
out=$(WEFT_RACES=warn "$dir/program_sites_c_replay" --explore=random --max-executions=50 2>&1)
echo "$out" | grep -q "WARNING: data race in program_sites_c: .* program_sites_tally.h:$helper (tally_add), unordered with .* at program_sites_tally.h:$helper (tally_add)$" ||
	fail "the helper's race not at program_sites_tally.h:$helper (tally_add): $out"
echo "program_sites: C++ sites at program_sites.cpp:$load, :$store, :$swap (visit); the C helper at program_sites_tally.h:$helper (tally_add)"
