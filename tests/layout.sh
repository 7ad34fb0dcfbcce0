#!/bin/sh
# tests/layout.sh SRCDIR - the tree tells the data path (ARCHITECTURE.md, "Step -> room -> file"):
#   1. every library source is in a room of the data path, and harness/ holds only
#      the engine glue and the command lines;
#   2. a room includes only rooms before it in the data path (so no two rooms include
#      each other, and the include graph has no cycle):
#        scheduler, oracle, input, report, runner, search, mutate, reduce, harness
#      (include/weft/ is public and may be included from anywhere);
#   3. no room holds more than a quarter of the library's lines (the library's:
#      weft-check's main and its history-file readers, oracle/history_*, are the
#      tool's (CMake's weft_histories), not libweft).
set -u
src=${1:-.}
cd "$src" || exit 1
order="scheduler oracle input report runner search mutate reduce harness"
glue="fuzz_libfuzzer.c crash_file.c afl_mutator.c replay_main.c program_main.c program_interpose.c cli.c cli.h explore_cli.c systematic_cli.c watchdog.c watchdog.h death_record.c"
fail=0
rank() { i=0; for r in $order; do [ "$r" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }

# 1. rooms
n=0
for f in $(ls -d */*.c */*.h 2>/dev/null); do
	room=${f%%/*}
	# instrument/: the compiler pass (C++, a plugin of clang), not a room of the library
	case $room in tests|bench|examples|targets|include|cmake|docs|corpus|scripts|oss-fuzz|instrument) continue;; esac
	n=$((n + 1))
	[ "$(rank "$room")" -ge 0 ] || { echo "FAIL: $f is in '$room', not a room of the data path"; fail=1; }
done
[ "$n" -gt 40 ] || { echo "FAIL: only $n library sources found under $src"; exit 1; }
for f in harness/*; do
	case " $glue " in *" ${f#harness/} "*) ;; *) echo "FAIL: $f is not engine glue or a command line"; fail=1;; esac
done

# 2. includes follow the order
for f in $(ls -d */*.c */*.h); do
	room=${f%%/*}
	me=$(rank "$room")
	[ "$me" -ge 0 ] || continue
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\.\/\([a-z_]*\)\/.*/\1/p' "$f"); do
		other=$(rank "$inc")
		if [ "$other" -lt 0 ]; then
			echo "FAIL: $f includes from '$inc', not a room"; fail=1
		elif [ "$other" -ge "$me" ]; then
			echo "FAIL: $f ($room) includes $inc, which comes later in the data path"; fail=1
		fi
	done
done

# 3. sizes
tools="oracle/weft_check_main.c oracle/history_io.c oracle/history_io.h oracle/history_text.c oracle/history_jepsen.c oracle/history_edn.c"
lib_files() { for f in $(ls "$@" 2>/dev/null); do case " $tools " in *" $f "*) ;; *) echo "$f";; esac; done; }
total=$(cat $(for r in $order; do lib_files "$r"/*.c "$r"/*.h; done) | wc -l)
for r in $order; do
	lines=$(cat $(lib_files "$r"/*.c "$r"/*.h) | wc -l)
	echo "layout: $r $lines lines ($((lines * 100 / total))%)"
	[ $((lines * 4)) -le "$total" ] || { echo "FAIL: $r holds more than a quarter of $total lines"; fail=1; }
done
[ "$fail" = 0 ] && echo "layout: $n sources in rooms, includes follow the data path"
exit $fail
