#!/bin/sh
# scripts/weft_campaign.sh - a long fuzzing campaign on one target, in one command.
#
# Runs JOBS fuzzers (libFuzzer processes sharing one corpus directory, or AFL++ as one
# -M main and JOBS-1 -S secondaries) for SECONDS, prints a progress line every INTERVAL
# seconds (executions, rate, coverage, corpus size, crash files, unique failures) and
# triages every crash as it appears:
#   kind       the verdict of TARGET_replay --json (linearizability, validation,
#              step-budget, nondeterministic), or "died" when the replay itself dies
#              (a sanitizer report or a signal in the target's code);
#   signature  kind + the bytes weft's simplifier (--simplify) turns the crash into: the
#              simplifier is a normal form (fewest preemptions, then switches,
#              operations, threads), so crashes of one bug meet in one signature;
#   new        a signature not seen before is minimized and simplified in full
#              (libFuzzer: scripts/weft_reduce.sh; AFL++: afl-tmin, then --simplify) into
#              OUT/failures/KIND-ID/reproducer.bin with its report.txt; a known one only
#              adds the crash file's name to that failure's crashes.txt.
# At the end (or on SIGINT/SIGTERM) it stops the fuzzers, triages what is left and
# writes OUT/summary.txt, which ends with the distributions of what the corpus runs
# (TARGET_replay --stats).
#
# Resuming: run the same command again.  The corpus directory is the fuzzers' own
# (libFuzzer writes each new input there as it finds it; AFL++ resumes its -o directory
# with AFL_AUTORESUME), and OUT keeps the triaged crashes, the failures and the
# executions of earlier sessions, so an interrupted campaign loses nothing it had
# written and reports each failure once.
#
# Why worker loops rather than libFuzzer's -fork: in fork mode a job's new inputs reach
# the corpus only when the job ends (up to 300 s later), so an interruption would lose
# them; a plain libFuzzer process writes each input at once.  A worker that crashes is
# restarted with the next seed (it reloads the shared corpus, -reload=1 meanwhile).
usage() {
	cat <<USAGE
usage: scripts/weft_campaign.sh [options] TARGET
  TARGET            a built target, e.g. counter_buggy (BUILD/TARGET_fuzz, BUILD/TARGET_replay)
  --engine NAME     libfuzzer (default) or afl (BUILD built with CC=afl-clang-fast)
  --time SECONDS    length of this session (default: 3600)
  --jobs N          fuzzers in parallel (default: 1)
  --corpus DIR      corpus, kept and resumed (default: OUT/corpus); for afl, afl-fuzz's -o
  --out DIR         failures, logs, summary.txt (default: out/campaign/TARGET)
  --build DIR       build tree (default: build/clang, or build/afl with --engine afl)
  --seeds DIR       seed inputs added to a new corpus (default: corpus/STRUCTURE/seed-*.bin)
  --seed N          first fuzzer seed (default: 1)
  --interval S      seconds between progress lines (default: 10)
  --help            this text
Writes OUT/summary.txt, OUT/failures/KIND-ID/{reproducer.bin,report.txt,report.html,crashes.txt},
OUT/crashes/ (every crash file), OUT/logs/.
Exit status: 0 the campaign ran (failures or not; see the summary), 2 bad usage or
missing binaries.
USAGE
}
die_usage() { echo "weft_campaign: $*" >&2; echo "(see --help)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
engine=libfuzzer time=3600 jobs=1 corpus= out= build= seeds= seed=1 interval=10
while [ $# -gt 0 ]; do
	case $1 in
	--engine|--time|--jobs|--corpus|--out|--build|--seeds|--seed|--interval)
		[ $# -ge 2 ] || die_usage "$1 needs a value"
		opt=${1#--}; eval "$opt=\$2"; shift 2 ;;
	--help|-h) usage; exit 0 ;;
	--*) die_usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || die_usage "one TARGET expected"
target=$1
case $engine in libfuzzer|afl) ;; *) die_usage "--engine is libfuzzer or afl" ;; esac
case $time$jobs$seed$interval in *[!0-9]*|'') die_usage "--time, --jobs, --seed, --interval take numbers" ;; esac
[ "$jobs" -ge 1 ] && [ "$interval" -ge 1 ] || die_usage "--jobs and --interval must be at least 1"
[ -n "$build" ] || { [ "$engine" = afl ] && build=$root/build/afl || build=$root/build/clang; }
[ -n "$out" ] || out=$root/out/campaign/$target
[ -n "$corpus" ] || corpus=$out/corpus
structure=${target%_buggy}; structure=${structure%_fixed}
[ -n "$seeds" ] || seeds=$root/corpus/$structure
fuzz=$build/${target}_fuzz replay=$build/${target}_replay
for bin in "$fuzz" "$replay"; do
	[ -x "$bin" ] || die_usage "$bin not found (build: cmake -S . -B $build -DCMAKE_C_COMPILER=clang, or CC=afl-clang-fast for afl)"
done
if [ "$engine" = afl ]; then
	for tool in afl-fuzz afl-tmin; do command -v $tool >/dev/null 2>&1 || die_usage "$tool not found"; done
	# What a container needs (README: AFL++); the caller's settings win.
	export AFL_SKIP_CPUFREQ=${AFL_SKIP_CPUFREQ:-1} AFL_NO_AFFINITY=${AFL_NO_AFFINITY:-1}
	export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=${AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES:-1}
	export AFL_NO_UI=1 AFL_AUTORESUME=1
	# afl-fuzz refuses sanitizer options that do not abort on an error.
	export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0
	export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:symbolize=0
fi
mkdir -p "$out/crashes" "$out/failures" "$out/logs" "$corpus" || die_usage "cannot create $out or $corpus"
touch "$out/triaged" "$out/signatures"
tmp=$(mktemp -d)

# ---- state carried across sessions (OUT/sessions: one line per finished session) ----
previous_execs() { awk '{ s += $2 } END { print s + 0 }' "$out/sessions"  2>/dev/null || echo 0; }
session_count() { if [ -f "$out/sessions" ]; then wc -l < "$out/sessions"; else echo 0; fi; }

# ---- the fuzzers ----
libfuzzer_worker() {  # libfuzzer_worker I DEADLINE: restart after each crash until DEADLINE
	i=$1 deadline=$2 n=0
	while [ "$(date +%s)" -lt "$deadline" ]; do
		left=$((deadline - $(date +%s)))
		[ "$left" -gt 0 ] || break
		"$fuzz" -seed=$((seed + 1000 * i + n)) -max_total_time="$left" -reload=1 -print_final_stats=1 \
			-artifact_prefix="$out/crashes/" -max_len=256 "$corpus" >> "$out/logs/worker-$i.log" 2>&1 &
		echo $! > "$out/logs/worker-$i.pid"
		wait $!
		n=$((n + 1))
	done
	rm -f "$out/logs/worker-$i.pid"
}

afl_instance() {  # afl_instance I DEADLINE
	i=$1 left=$(($2 - $(date +%s)))
	if [ "$i" -eq 0 ]; then role="-M main"; else role="-S s$i"; fi
	# shellcheck disable=SC2086
	afl-fuzz $role -s $((seed + i)) -V "$left" -i "$tmp/seeds" -o "$corpus" -- "$fuzz" \
		>> "$out/logs/afl-$i.log" 2>&1 &
	echo $! > "$out/logs/worker-$i.pid"
	wait $!
	rm -f "$out/logs/worker-$i.pid"
}

seed_corpus() {  # new libFuzzer corpora start from the seeds; AFL++ reads them with -i
	mkdir -p "$tmp/seeds"
	for f in "$seeds"/seed-*.bin; do
		[ -s "$f" ] && cp "$f" "$tmp/seeds/"       # AFL++ refuses empty files
		[ "$engine" = libfuzzer ] && [ ! -e "$corpus/$(basename "$f")" ] && cp "$f" "$corpus/"
	done
	[ -n "$(ls "$tmp/seeds")" ] || printf '0' > "$tmp/seeds/simplest"   # '0' reads as 0
}

stop_workers() {  # the loops first (so none starts another fuzzer), then the fuzzers
	for w in $workers; do kill "$w" 2>/dev/null; done
	pids=
	for p in "$out"/logs/worker-*.pid; do
		[ -f "$p" ] && pids="$pids $(cat "$p")"
	done
	for p in $pids; do kill "$p" 2>/dev/null; done
	for _ in 1 2 3 4 5 6 7 8 9 10; do   # they write their last inputs, then exit
		running=0
		for p in $pids; do kill -0 "$p" 2>/dev/null && running=1; done
		[ "$running" -eq 0 ] && break
		sleep 0.5
	done
	wait 2>/dev/null
	rm -f "$out"/logs/worker-*.pid
}

# ---- progress figures ----
libfuzzer_execs() {  # this session: finished runs' final stats + running runs' last status line
	for log in "$out"/logs/worker-*.log; do
		[ -f "$log" ] || continue
		awk -v from="$session_mark" 'FNR == 1 && from == "" { on = 1 }
			/^== weft_campaign session / { on = ($4 == from) }
			!on { next }
			/^#[0-9]+/ { cur = substr($1, 2) + 0 }
			/^stat::number_of_executed_units:/ { total += $2; cur = 0 }
			END { print total + cur }' "$log"
	done | awk '{ s += $1 } END { print s + 0 }'
}
libfuzzer_cov() {
	cat "$out"/logs/worker-*.log 2>/dev/null | sed -n 's/.* cov: \([0-9]*\) .*/\1/p' | sort -n | tail -n 1
}
afl_stat() {  # afl_stat FIELD: summed over instances (bitmap_cvg: the largest)
	cat "$corpus"/*/fuzzer_stats 2>/dev/null | awk -v f="$1" '$1 == f { v = $3 + 0; if (f == "bitmap_cvg") { if (v > s) s = v } else s += v }
		END { print s + 0 }'
}
session_execs() { if [ "$engine" = afl ]; then afl_stat execs_done; else libfuzzer_execs; fi; }
coverage() {
	if [ "$engine" = afl ]; then echo "$(afl_stat bitmap_cvg)% of the map"; else echo "$(libfuzzer_cov) edges"; fi
}
corpus_size() {
	if [ "$engine" = afl ]; then afl_stat corpus_count; else ls "$corpus" | wc -l; fi
}
unique_failures() { wc -l < "$out/signatures"; }

# ---- triage ----
collect_afl_crashes() {
	for f in "$corpus"/*/crashes/id:*; do
		[ -f "$f" ] || continue
		inst=$(basename "$(dirname "$(dirname "$f")")")
		name=afl-$inst-$(basename "$f" | cut -d, -f1 | tr ':' '-')
		[ -e "$out/crashes/$name" ] || cp "$f" "$out/crashes/$name"
	done
}

reduce() {  # reduce CRASH DIR: minimize + simplify into DIR/reproducer.bin and report.txt
	if [ "$engine" = libfuzzer ]; then
		sh "$root/scripts/weft_reduce.sh" --build "$build" "$target" "$1" "$2/reproducer.bin" \
			> "$2/reduce.log" 2>&1 && mv "$2/reproducer.bin.txt" "$2/report.txt" && return 0
	else
		afl-tmin -i "$1" -o "$2/tmin.bin" -- "$fuzz" > "$2/reduce.log" 2>&1 &&
			"$replay" --quiet --simplify="$2/reproducer.bin" "$2/tmin.bin" >> "$2/reduce.log" 2>&1 &&
			"$replay" "$2/reproducer.bin" 2>&1 | grep -v '^weft-replay:\|^==weft== input ' > "$2/report.txt" &&
			return 0
	fi
	cp "$1" "$2/reproducer.bin"      # could not reduce: keep the crash itself
	"$replay" "$1" > "$2/report.txt" 2>&1
	return 0
}

triage_one() {  # triage_one CRASH
	crash=$1
	"$replay" --json "$crash" > "$tmp/json" 2> "$tmp/replay.err"
	kind=$(sed -n 's/^{"target": "[^"]*", "verdict": "\([a-z-]*\)".*/\1/p' "$tmp/json" | head -n 1)
	case $kind in
	'')   # the replay died before reporting: sign it by the sanitizer's summary line
		kind=died
		key=$(grep -m 1 '^SUMMARY: ' "$tmp/replay.err" || grep -m 1 -i 'error\|abort\|signal' "$tmp/replay.err") ;;
	pass|error)   # does not fail when replayed: kept apart, one entry per file
		kind=unreproducible key=$(basename "$crash") ;;
	*)
		if "$replay" --quiet --simplify="$tmp/simple.bin" "$crash" > /dev/null 2>&1; then
			key=$(od -An -tx1 -v "$tmp/simple.bin" | tr -d ' \n')
		else
			key=$(od -An -tx1 -v "$crash" | tr -d ' \n')
		fi ;;
	esac
	id=$kind-$(printf '%s %s' "$kind" "$key" | cksum | cut -d' ' -f1)
	dir=$out/failures/$id
	if [ ! -d "$dir" ]; then
		mkdir -p "$dir"
		echo "   new failure $id ($(basename "$crash")): minimizing and simplifying"
		reduce "$crash" "$dir"
		"$replay" --quiet --expect=fail --html="$dir/report.html" "$dir/reproducer.bin" > /dev/null 2>&1
		c=$("$replay" --quiet --expect=fail --complexity "$dir/reproducer.bin" 2>/dev/null | cut -d' ' -f1-4)
		echo "$id $kind ${c:-(unknown)} $(od -An -tx1 -v "$dir/reproducer.bin" | tr -d '\n' | cut -c1-120)" >> "$out/signatures"
	fi
	basename "$crash" >> "$dir/crashes.txt"
}

triage() {
	[ "$engine" = afl ] && collect_afl_crashes
	for crash in "$out"/crashes/*; do
		[ -f "$crash" ] || continue
		grep -qxF "$(basename "$crash")" "$out/triaged" && continue
		triage_one "$crash"
		basename "$crash" >> "$out/triaged"
	done
}

# ---- summary ----
write_summary() {  # write_summary HOW (finished | interrupted)
	execs=$(session_execs) now=$(date +%s)
	secs=$((now - start))
	total=$(( $(previous_execs) + execs ))
	echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $execs $secs $1" >> "$out/sessions"
	{
		echo "weft campaign: $target, engine $engine, $jobs job(s)"
		echo "sessions: $(session_count) (this one $secs s, $1)"
		echo "executions: $total in all sessions; this session $execs ($((execs / (secs > 0 ? secs : 1)))/s)"
		echo "coverage: $(coverage)"
		echo "corpus: $(corpus_size) inputs in $corpus"
		echo "crash files: $(ls "$out/crashes" | wc -l) in $out/crashes"
		echo "unique failures: $(unique_failures)"
		while read -r id kind a b c d bytes; do
			echo "  $id: $kind, complexity $a $b $c $d (preemptions, switches, operations, threads)"
			echo "    reproducer: $out/failures/$id/reproducer.bin ($bytes)"
			echo "    report:     $out/failures/$id/report.txt (web page: report.html)"
			echo "    seen in:    $(wc -l < "$out/failures/$id/crashes.txt") crash file(s)"
			sed -n '1s/^/    /p' "$out/failures/$id/report.txt"
		done < "$out/signatures"
		echo "what the corpus runs (TARGET_replay --stats on it):"
		corpus_stats
	} > "$out/summary.txt"
}

# The distributions of the corpus's inputs (threads, operations, kinds, arguments,
# preemptions, verdicts): does the fuzzer ever make the scenario a bug needs?
corpus_stats() {
	if [ "$engine" = afl ]; then set -- "$corpus"/*/queue; else set -- "$corpus"; fi
	"$replay" --stats --quiet --expect=fail --timeout=10 "$@" 2> /dev/null | sed 's/^/  /'
}

# ---- the campaign ----
start=$(date +%s)
deadline=$((start + time))
session_mark=$start
seed_corpus
echo "== weft campaign: $target, $engine, $jobs job(s), ${time}s; corpus $corpus; session $(( $(session_count) + 1 ))"
workers=
i=0
while [ "$i" -lt "$jobs" ]; do
	if [ "$engine" = afl ]; then
		afl_instance "$i" "$deadline" &
	else
		echo "== weft_campaign session $session_mark" >> "$out/logs/worker-$i.log"
		libfuzzer_worker "$i" "$deadline" &
	fi
	workers="$workers $!"
	i=$((i + 1))
done
how=finished
trap 'how=interrupted; deadline=0' INT TERM
last=0
while [ "$(date +%s)" -lt "$deadline" ]; do
	alive=0
	for w in $workers; do kill -0 "$w" 2>/dev/null && alive=1; done
	[ "$alive" -eq 1 ] || break
	sleep 1
	[ "$deadline" -eq 0 ] && break
	triage
	el=$(( $(date +%s) - start ))
	if [ $((el - last)) -ge "$interval" ]; then
		e=$(session_execs)
		printf '[%5ds] executions %s (%s/s)  coverage %s  corpus %s  crash files %s  unique failures %s\n' \
			"$el" "$(( $(previous_execs) + e ))" "$((e / (el > 0 ? el : 1)))" "$(coverage)" "$(corpus_size)" \
			"$(ls "$out/crashes" | wc -l)" "$(unique_failures)"
		last=$el
	fi
done
trap - INT TERM
stop_workers
triage
write_summary "$how"
rm -rf "$tmp"
echo "== campaign $how; summary: $out/summary.txt"
cat "$out/summary.txt"
exit 0
