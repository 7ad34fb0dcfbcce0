#!/bin/sh
# scripts/weft_campaign.sh - a long fuzzing campaign on one target, in one command.
#
# Runs JOBS fuzzers (libFuzzer processes sharing one corpus directory, or AFL++ as one
# -M main and JOBS-1 -S secondaries) until a deadline, prints a progress line every
# INTERVAL seconds and triages every crash as it appears:
#   symptom    weft-reduce --symptom: weft's verdict and failing site(s) (the replay's
#              JSON "symptom", report/symptom.c), or for a replay that dies (a sanitizer
#              report or a signal in the target's code) "died: KIND at SITE", the error
#              kind and first frame in the program;
#   kind       the verdict, or the death's KIND (e.g. heap-use-after-free);
#   signature  the symptom: one failure per root cause, however the crashes of one
#              bug are spelled (the simplified bytes were not: one bug once made 56);
#              a crash that does not fail when replayed in a fresh process is kept
#              apart as "unreproducible", with the reason (failures/ID/reason); an
#              empty crash file is the engine's, never a failure (counted apart);
#   new        a new signature gets OUT/failures/KIND-ID/ with the raw crash as its
#              reproducer and its report at once, then is reduced (libFuzzer:
#              scripts/weft_reduce.sh; AFL++: afl-tmin, then --simplify); the reduced
#              reproducer and report replace the raw ones only when reduction finished.
#
# The contract: whenever and however the campaign is killed (SIGINT, SIGTERM, SIGKILL),
# running the same command again loses nothing and repeats nothing.
#   - every state file is written to a temporary name in its folder, then renamed;
#     a failure folder is built aside and renamed into place complete; a write that
#     fails (a full disk) stops the session with an error naming the file (exit 2),
#     the previous state left as it was;
#   - one session at a time on OUT: OUT/lock held with flock(1) for the session's life
#     (two campaigns started at the same instant: the second exits 2);
#   - a crash file is triaged once: OUT/triage/NAME (the failure's id) is its marker;
#     each failure's crashes.txt and OUT/signatures are derived from the markers; a
#     failure whose reduction gives another's reproducer is merged into it, and its
#     signature becomes an alias (OUT/aliases/ID) so later crashes go to the other;
#   - reduction is pending while failures/ID/reduce.todo exists: a session that is
#     stopped or reaches its deadline leaves it for the next one, which (libFuzzer)
#     resumes from failures/ID/reduce.progress, the smallest crash the minimizer had
#     found, so a reduction longer than any one session still ends;
#   - --time is a deadline for everything, reduction included;
#   - every child runs in a process group of its own (coreutils timeout, which also
#     enforces the deadline), listed in OUT/run/SESSION/; a watchdog ends those groups
#     when the campaign's shell dies, even by SIGKILL, and the next session ends any
#     group a dead session left;
#   - OUT/sessions.d/SESSION holds each session's executions, rewritten every second;
#     a killed session's figure is recounted from its own logs when the next starts.
# At the end OUT/summary.txt lists the failures and ends with the distributions of what
# the corpus runs (TARGET_replay --stats).
# Why a shell script and not a C program: ARCHITECTURE.md, "campaign".
#
# Why worker loops rather than libFuzzer's -fork: in fork mode a job's new inputs reach
# the corpus only when the job ends (up to 300 s later), so an interruption would lose
# them; a plain libFuzzer process writes each input at once.  A worker that crashes is
# restarted with the next seed (it reloads the shared corpus, -reload=1 meanwhile).
# Installed (cmake --install) as bin/weft-campaign: it then takes the binaries of the
# user's build (--build DIR, or the current directory), writes to out/campaign/TARGET
# under the current directory, and reduces with the weft-reduce next to it.
self=$(basename "$0")
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$here/../CMakeLists.txt" ] && [ -f "$here/weft_reduce.sh" ]; then
	root=$(cd "$here/.." && pwd) reduce=$here/weft_reduce.sh   # weft's source tree
	build_default="build/clang, or build/afl with --engine afl,
                    in weft's source tree"
	out_default="out/campaign/TARGET in weft's source tree"
	seeds_default="corpus/STRUCTURE/seed-*.bin in weft's
                    source tree when that folder exists (STRUCTURE: TARGET without
                    _buggy or _fixed); none otherwise"
else
	root=. reduce=$here/weft-reduce   # installed: bin/weft-campaign
	build_default="the current directory"
	out_default="out/campaign/TARGET under the current directory"
	seeds_default="none"
fi
usage() {
	cat <<USAGE
usage: $self [options] TARGET
  TARGET            a built target, e.g. counter_buggy (BUILD/TARGET_fuzz, BUILD/TARGET_replay)
  --engine NAME     libfuzzer (default) or afl (BUILD built with CC=afl-clang-fast)
  --time SECONDS    deadline of this session, reduction included (default: 3600)
  --jobs N          fuzzers in parallel (default: 1)
  --corpus DIR      corpus, kept and resumed (default: OUT/corpus); for afl, afl-fuzz's -o
  --out DIR         failures, logs, summary.txt
                    (default: $out_default)
  --build DIR       build tree with TARGET_fuzz and TARGET_replay, configured with clang
                    or CC=afl-clang-fast for afl (default: $build_default)
  --seeds DIR       seed inputs added to a new corpus (default: $seeds_default)
  --seed N          first fuzzer seed (default: 1)
  --interval S      seconds between progress lines (default: 10)
  --timeout S       an execution running longer is a crash (libFuzzer -timeout, AFL++
                    -t; default: 10)
  --help            this text
Writes OUT/summary.txt (ending with --stats of the corpus),
OUT/failures/KIND-ID/{reproducer.bin,report.txt,report.html,crashes.txt},
OUT/crashes/ (every crash file), OUT/logs/.  Run the same command again to resume:
unfinished reductions and untriaged crashes are taken up, executions add up.
Exit status: 0 the campaign ran (failures or not; see the summary), 1 the session
was stuck (its fuzzers ran no execution), 2 bad usage, missing binaries, another
session running on OUT, or a write that failed (the file is named).
USAGE
}
die_usage() { echo "$self: $*" >&2; echo "(see --help)" >&2; exit 2; }

engine=libfuzzer time=3600 jobs=1 corpus= out= build= seeds= seed=1 interval=10 timeout=10
while [ $# -gt 0 ]; do
	case $1 in
	--engine|--time|--jobs|--corpus|--out|--build|--seeds|--seed|--interval|--timeout)
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
case $time$jobs$seed$interval$timeout in *[!0-9]*|'') die_usage "--time, --jobs, --seed, --interval, --timeout take numbers" ;; esac
[ "$jobs" -ge 1 ] && [ "$interval" -ge 1 ] && [ "$timeout" -ge 1 ] ||
	die_usage "--jobs, --interval and --timeout must be at least 1"
if [ -z "$build" ]; then
	if [ "$root" = . ]; then build=.
	elif [ "$engine" = afl ]; then build=$root/build/afl
	else build=$root/build/clang
	fi
fi
[ -n "$out" ] || out=$root/out/campaign/$target
[ -n "$corpus" ] || corpus=$out/corpus
structure=${target%_buggy}; structure=${structure%_fixed}
[ -n "$seeds" ] || [ "$root" = . ] || seeds=$root/corpus/$structure
fuzz=$build/${target}_fuzz replay=$build/${target}_replay
for bin in "$fuzz" "$replay"; do
	[ -x "$bin" ] || die_usage "$bin not found (a build configured with CC=clang, or CC=afl-clang-fast for afl; --build DIR names it)"
done
build=$(cd "$build" && pwd)
command -v timeout > /dev/null 2>&1 || die_usage "timeout (coreutils) not found"
command -v flock > /dev/null 2>&1 || die_usage "flock (util-linux) not found"
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
mkdir -p "$out/crashes" "$out/failures" "$out/logs" "$out/triage" "$out/aliases" "$out/sessions.d" "$out/run" "$out/tmp" "$corpus" ||
	die_usage "cannot create $out or $corpus"
out=$(cd "$out" && pwd)
# One session per OUT: the lock is the open file, released when this shell ends however
# it ends (children never hold it: 9>&- below), so there is no stale lock to clean.
{ exec 9>> "$out/lock"; } 2>/dev/null || die_usage "cannot open $out/lock"
flock -n 9 || die_usage "another session is running on $out (OUT/lock is held)"

# ---- processes: every child in a group of its own, ended with the campaign ----
alive() {  # alive PID: running and not a zombie (a SIGKILLed shell is one until reaped)
	kill -0 "$1" 2>/dev/null || return 1
	[ -r "/proc/$1/stat" ] || return 0
	[ "$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
end_groups() {  # end_groups RUNDIR: TERM every group listed there, KILL what is left
	for sig in TERM KILL; do
		for f in "$1"/*.pgid; do
			[ -f "$f" ] || continue
			g=$(cat "$f")
			# a stale id may name a reused pid: only a timeout we started leads a group
			[ "$(cat "/proc/$g/comm" 2>/dev/null || echo timeout)" = timeout ] || continue
			kill -s "$sig" -- "-$g" 2>/dev/null
		done
		[ "$sig" = TERM ] && sleep 1
	done
}
spawn() {  # spawn NAME SECONDS LOG CMD...: CMD under timeout (own group, deadline), in the background
	sp_name=$1 sp_secs=$2 sp_log=$3; shift 3
	[ "$sp_secs" -gt 0 ] || sp_secs=1
	# the child names its group itself before it becomes timeout (same pid): a campaign
	# killed between the fork and the line after it would leave a group nobody listed
	sh -c 'echo $$ > "$1"; shift; exec timeout -k 3 "$@"' spawn "$run/$sp_name.pgid" \
		"$sp_secs" "$@" >> "$sp_log" 2>&1 9>&- &
	spawned=$!
	echo "$spawned" > "$run/$sp_name.pgid"
}
await() {  # await PID: its exit status; on an interruption its group is ended (status 130)
	while :; do
		wait "$1"; aw_rc=$?
		[ "$aw_rc" -gt 128 ] && alive "$1" || return "$aw_rc"
		[ "$how" = interrupted ] && { kill -s TERM -- "-$1" 2>/dev/null; wait "$1"; return 130; }
	done
}
checkpoint() {  # checkpoint STAGE: test hook (tests/campaign_kill.sh) to stop at a known point
	[ "${WEFT_CAMPAIGN_PAUSE_AT:-}" = "$1" ] && [ -z "$paused" ] || return 0
	paused=1
	: > "$out/paused-at-$1"
	spawn pause 30 /dev/null sleep 30
	await "$spawned"
}
put() {  # put FILE: stdin into FILE by write-then-rename (never a half-written FILE)
	{ cat > "$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"; } 2> /dev/null
	p_rc=$?
	[ "$p_rc" -eq 0 ] && return 0
	rm -f "$1.tmp.$$"
	# cat or mv ended by a signal (a Ctrl-C reaches the whole group): not a failed write,
	# the caller stops and the next session does it again
	[ "$p_rc" -gt 128 ] && return 1
	write_failed "$1"
}
write_failed() {  # write_failed FILE: the session stops (USR1 reaches the main shell from subshells)
	echo "$self: cannot write $1 (a full disk? a file-size limit?)" >&2
	kill -s USR1 "$main" 2>/dev/null
	return 1
}

# ---- sessions: OUT/sessions.d/SESSION = "start-time executions seconds how" ----
libfuzzer_execs() {  # libfuzzer_execs LOGDIR: executions of the runs logged there
	for log in "$1"/worker-*.log; do
		[ -f "$log" ] || continue
		# a run ends with its final stats, or (killed) with its last "#N" line
		awk '/^INFO: Seed: / { total += cur; cur = 0 }
			/^#[0-9]+/ { cur = substr($1, 2) + 0 }
			/^stat::number_of_executed_units:/ { total += $2; cur = 0 }
			END { print total + cur }' "$log"
	done | awk '{ s += $1 } END { print s + 0 }'
}
afl_stat() {  # afl_stat FIELD: summed over instances (bitmap_cvg: the largest)
	cat "$corpus"/*/fuzzer_stats 2>/dev/null | awk -v f="$1" '$1 == f { v = $3 + 0; if (f == "bitmap_cvg") { if (v > s) s = v } else s += v }
		END { print s + 0 }'
}
session_execs() {
	if [ "$engine" = afl ]; then echo $(( $(afl_stat execs_done) - afl_base )); else libfuzzer_execs "$logs"; fi
}
record_session() {  # record_session HOW: this session's line, rewritten (atomically)
	echo "$started $(session_execs) $(( $(date +%s) - start )) $1" | put "$out/sessions.d/$sid"
}
close_dead_sessions() {  # a killed session: end its groups, recount its executions
	for dir in "$out"/run/*/; do
		[ -d "$dir" ] || continue
		s=$(basename "$dir")
		if alive "${s#*-}"; then
			die_usage "another session (pid ${s#*-}) is running on $out"
		fi
		end_groups "$dir"
		rec=$out/sessions.d/$s
		if [ -f "$rec" ] && [ "$engine" = libfuzzer ] && [ -d "$out/logs/$s" ]; then
			read -r st _ secs _ < "$rec"
			echo "$st $(libfuzzer_execs "$out/logs/$s") $secs killed" | put "$rec"
		elif [ -f "$rec" ]; then
			read -r st ex secs _ < "$rec"
			echo "$st $ex $secs killed" | put "$rec"
		fi
		rm -rf "$dir" "$out/tmp/$s"
	done
	rm -rf "$out"/failures/.new-* "$out"/failures/.dup-* "$out"/*.tmp.* "$out"/*/*.tmp.* "$out"/failures/*/.reduced.*
}
migrate_old() {  # a folder of the old script: OUT/triaged and crashes.txt become markers
	[ -f "$out/triaged" ] || return 0
	for d in "$out"/failures/*/; do
		[ -d "$d" ] && [ ! -f "$d/kind" ] || continue
		# a failure whose reduction was killed kept no reproducer: its crashes are triaged again
		[ -s "$d/reproducer.bin" ] || { rm -rf "$d"; continue; }
		id=$(basename "$d")
		echo "${id%-*}" | put "$d/kind"
		while read -r name; do echo "$id" | put "$out/triage/$name"; done < "$d/crashes.txt"
	done
	mv -f "$out/triaged" "$out/triaged.old"
}
all_sessions() {  # "COUNT EXECUTIONS" over every session (and the old OUT/sessions file)
	cat "$out/sessions" "$out"/sessions.d/* 2>/dev/null | awk '{ n++; s += $2 } END { print n + 0, s + 0 }'
}

# ---- the fuzzers ----
libfuzzer_worker() {  # libfuzzer_worker I: restart after each crash until the deadline
	i=$1 n=0
	while alive "$main"; do
		left=$((deadline - $(date +%s)))
		[ "$left" -gt 0 ] || break
		spawn "worker-$i" "$left" "$logs/worker-$i.log" "$fuzz" -seed=$((seed + 1000 * i + n)) \
			-max_total_time="$left" -timeout="$timeout" -reload=1 -print_final_stats=1 \
			-artifact_prefix="$out/crashes/" -max_len=256 "$corpus"
		wait "$spawned"
		n=$((n + 1))
	done
}
afl_instance() {  # afl_instance I
	i=$1 left=$((deadline - $(date +%s)))
	if [ "$i" -eq 0 ]; then role="-M main"; else role="-S s$i"; fi
	# shellcheck disable=SC2086
	spawn "worker-$i" "$left" "$logs/afl-$i.log" afl-fuzz $role -s $((seed + i)) -V "$left" -t "${timeout}000" \
		-i "$tmp/seeds" -o "$corpus" -- "$fuzz"
	wait "$spawned"
}
seed_corpus() {  # new libFuzzer corpora start from the seeds; AFL++ reads them with -i
	mkdir -p "$tmp/seeds"
	[ -z "$seeds" ] || for f in "$seeds"/seed-*.bin; do
		[ -f "$f" ] || continue      # no seeds (a target outside weft's tree): none copied
		[ -s "$f" ] && cp "$f" "$tmp/seeds/"       # AFL++ refuses empty files
		[ "$engine" = libfuzzer ] && [ ! -e "$corpus/$(basename "$f")" ] && cp "$f" "$corpus/"
	done
	[ -n "$(ls "$tmp/seeds")" ] || printf '0' > "$tmp/seeds/simplest"   # '0' reads as 0
}
stop_workers() {  # the loops first (so none starts another fuzzer), then the fuzzers
	for w in $workers; do kill "$w" 2>/dev/null; done
	for f in "$run"/worker-*.pgid; do
		[ -f "$f" ] && kill -s TERM -- "-$(cat "$f")" 2>/dev/null
	done
	for w in $workers; do   # they write their last inputs, then exit (timeout -k: 3 s at most)
		while kill -0 "$w" 2>/dev/null; do wait "$w"; done
	done
	rm -f "$run"/worker-*.pgid
}

# ---- progress figures ----
coverage() {
	if [ "$engine" = afl ]; then echo "$(afl_stat bitmap_cvg)% of the map"
	else echo "$(cat "$logs"/worker-*.log 2>/dev/null | sed -n 's/.* cov: \([0-9]*\) .*/\1/p' | sort -n | tail -n 1) edges"; fi
}
corpus_size() {
	if [ "$engine" = afl ]; then afl_stat corpus_count; else ls "$corpus" | wc -l; fi
}
kind_of() { cat "$1/kind" 2>/dev/null; }   # kind_of DIR: a failure's kind ("" if none yet)
failure_groups() {  # "KIND ID" per failure folder, sorted: one folder = one unique failure
	for d in "$out"/failures/*/; do
		[ -f "$d/kind" ] || continue
		echo "$(kind_of "$d") $(basename "$d")"
	done | sort
}
unique_failures() { failure_groups | grep -vc '^unreproducible '; }

# ---- triage ----
collect_afl_crashes() {
	for f in "$corpus"/*/crashes/id:*; do
		[ -f "$f" ] || continue
		inst=$(basename "$(dirname "$(dirname "$f")")")
		name=afl-$inst-$(basename "$f" | cut -d, -f1 | tr ':' '-')
		[ -e "$out/crashes/$name" ] || { cp "$f" "$tmp/afl.crash" && mv -f "$tmp/afl.crash" "$out/crashes/$name"; }
	done
}
report_of() {  # report_of INPUT: the replay's report without its tool lines
	"$replay" "$1" 2>&1 | grep -v '^weft-replay:\|^==weft== input '
}
new_failure() {  # new_failure CRASH ID KIND SYMPTOM [REASON]: the folder, complete, renamed into place
	new=$out/failures/.new-$2
	rm -rf "$new" && mkdir "$new" || { write_failed "$new"; return 1; }
	cp "$1" "$new/crash.bin" 2>/dev/null && cp "$1" "$new/reproducer.bin" 2>/dev/null ||
		{ write_failed "$new/crash.bin"; return 1; }
	report_of "$1" | put "$new/report.txt" || return 1
	"$replay" --quiet --expect=fail --html="$new/report.html" "$1" > /dev/null 2>&1
	echo "$3" | put "$new/kind" && echo "$4" | put "$new/symptom" || return 1
	[ -z "${5:-}" ] || echo "$5" | put "$new/reason" || return 1
	[ "$3" = unreproducible ] || : > "$new/reduce.todo" || { write_failed "$new/reduce.todo"; return 1; }
	s0=$signals
	checkpoint triage
	[ "$signals" = "$s0" ] || return 1
	mv "$new" "$out/failures/$2" || { write_failed "$out/failures/$2"; return 1; }
}
triage_one() {  # triage_one CRASH: its failure (new or known), then its marker
	crash=$1 s0=$signals reason=
	if [ ! -s "$crash" ]; then   # the engine wrote nothing: not a failure (issue 29)
		echo empty | put "$out/triage/$(basename "$crash")"
		return
	fi
	timeout -k 3 $((3 * timeout + 10)) sh "$reduce" --build "$build" --symptom "$target" "$crash" \
		> "$tmp/symptom" 2> "$tmp/replay.err"
	rc=$?
	# A replay a Ctrl-C reached (it shares the terminal's group) says nothing: retry later.
	[ "$signals" = "$s0" ] || return 1
	case $rc in
	0)	# sed ended by a Ctrl-C (it is in the campaign's group) reads nothing: retry later
		symptom=$(sed -n 1p "$tmp/symptom") || return 1
		case $symptom in
		'died: '*) kind=$(echo "$symptom" | sed 's/^died: \([^ ]*\).*/\1/; s/[^a-zA-Z0-9_-]/-/g') ;;
		*) kind=${symptom%%:*} ;;
		esac
		[ -n "$symptom" ] || { [ "$signals" = "$s0" ] && write_failed "$tmp/symptom"; return 1; } ;;
	1)	# does not fail when replayed in a fresh process: kept apart, one entry per file
		kind=unreproducible symptom="unreproducible $(basename "$crash")"
		reason="replayed in a fresh process, it $("$replay" --quiet --expect=fail --complexity "$crash" 2>/dev/null |
			awk '{ sub(/^\([^)]*\) /, ""); print "gives the verdict " $1; exit }')"
		[ "$reason" != "replayed in a fresh process, it " ] || reason="does not fail when replayed"
		[ "$signals" = "$s0" ] || return 1 ;;   # that replay a Ctrl-C ended proves nothing
	124|137)	kind=timeout symptom="timeout: the replay ran over $((3 * timeout + 10)) s" ;;
	3)	write_failed "$tmp (the replay's output was lost)"; return 1 ;;
	*)	cat "$tmp/replay.err" >&2; return 1 ;;
	esac
	id=$kind-$(printf '%s' "$symptom" | cksum | cut -d' ' -f1)
	[ -f "$out/aliases/$id" ] && id=$(cat "$out/aliases/$id")     # reduced to a known failure
	if [ ! -d "$out/failures/$id" ]; then
		echo "   new failure $id ($(basename "$crash")): $symptom"
		new_failure "$crash" "$id" "$kind" "$symptom" "$reason" || return 1
	fi
	echo "$id" | put "$out/triage/$(basename "$crash")"
}
index_failures() {  # each failure's crashes.txt and OUT/signatures, from the markers
	find "$out/triage" -type f ! -name '*.tmp.*' -exec grep -H '' {} + 2>/dev/null | sort > "$tmp/markers"
	for d in "$out"/failures/*/; do
		[ -d "$d" ] || continue
		id=$(basename "$d")
		awk -F: -v id="$id" '$NF == id { n = split($1, p, "/"); print p[n] }' "$tmp/markers" | put "$d/crashes.txt"
	done
	failure_groups | awk '{ print $2, $1 }' | put "$out/signatures"
}
triage() {  # triage [all]: crash files not yet triaged (without "all": only those seen a pass ago)
	[ "$engine" = afl ] && collect_afl_crashes
	ls "$out/crashes" > "$tmp/crashes.now"
	done_any=0
	while read -r name; do
		[ -f "$out/triage/$name" ] && continue
		# a file new since the last pass may still be being written by its fuzzer
		[ "${1:-}" = all ] || grep -qxF "$name" "$tmp/crashes.seen" 2>/dev/null || continue
		[ "$how" = interrupted ] && [ "${1:-}" != all ] && break
		triage_one "$out/crashes/$name" && done_any=1
	done < "$tmp/crashes.now"
	mv -f "$tmp/crashes.now" "$tmp/crashes.seen"
	[ "$done_any" -eq 1 ] || [ ! -f "$out/signatures" ] && index_failures
	return 0
}

# ---- reduction: resumable, under the deadline ----
reduce_one() {  # reduce_one DIR: 0 reduced or given up, 1 stopped (left for later)
	d=$1 left=$((deadline - $(date +%s)))
	[ "$left" -gt 0 ] && [ "$how" != interrupted ] || return 1
	rm -f "$d/.reduced.bin" "$d/.reduced.bin.txt"
	if [ "$engine" = libfuzzer ]; then
		# resumed from the smallest crash an earlier, stopped reduction found (reduce.progress:
		# the minimizer's artifact, rewritten at each step); a file cut short by a kill that no
		# longer fails is dropped
		from=$d/crash.bin
		[ -s "$d/reduce.progress" ] && "$replay" --quiet --expect=fail "$d/reduce.progress" > /dev/null 2>&1 &&
			from=$d/reduce.progress
		echo "   reducing $(basename "$d") (${left}s left$([ "$from" = "$d/crash.bin" ] ||
			echo ", resumed from $(wc -c < "$from") bytes"))"
		spawn reduce "$left" "$d/reduce.log" sh "$reduce" --build "$build" --progress "$d/reduce.progress" \
			"$target" "$from" "$d/.reduced.bin"
	else
		echo "   reducing $(basename "$d") (${left}s left)"
		spawn reduce "$left" "$d/reduce.log" sh -c 'afl-tmin -i "$1" -o "$2.tmin" -- "$3" &&
			"$4" --quiet --simplify="$2" "$2.tmin" && "$4" "$2" 2>&1 | grep -v "^weft-replay:\|^==weft== input " > "$2.txt"' \
			sh "$d/crash.bin" "$d/.reduced.bin" "$fuzz" "$replay"
	fi
	await "$spawned"; rc=$?
	rm -f "$run/reduce.pgid"
	case $rc in
	0)	s0=$signals
		checkpoint reduce
		[ "$signals" = "$s0" ] || return 1
		same=$(same_failure "$d")
		if [ -n "$same" ]; then merge_into "$d" "$same"; return 0; fi
		"$replay" --quiet --expect=fail --html="$d/.reduced.html" "$d/.reduced.bin" > /dev/null 2>&1 &&
			mv -f "$d/.reduced.html" "$d/report.html"
		mv -f "$d/.reduced.bin.txt" "$d/report.txt" && mv -f "$d/.reduced.bin" "$d/reproducer.bin" &&
			rm -f "$d/reduce.todo" "$d/reduce.progress" ;;
	1|2)	echo "$self: could not reduce; the crash itself is the reproducer" >> "$d/reduce.log"
		rm -f "$d/reduce.todo" "$d/reduce.progress" ;;
	*)	echo "$self: reduction stopped (status $rc); the next session resumes it" >> "$d/reduce.log"
		return 1 ;;
	esac
}
same_failure() {  # same_failure DIR: a reduced failure of DIR's kind whose reproducer is DIR's result
	for o in "$out"/failures/*/; do
		[ "$o" != "$1" ] && [ ! -f "$o/reduce.todo" ] && [ "$(kind_of "$o")" = "$(kind_of "$1")" ] &&
			cmp -s "$o/reproducer.bin" "$1/.reduced.bin" && { basename "$o"; return; }
	done
}
merge_into() {  # merge_into DIR ID: DIR's signature becomes an alias of ID, its crashes ID's
	# each step is atomic and repeatable: killed midway, DIR keeps reduce.todo and is merged again
	echo "   $(basename "$1") reduces to the same reproducer as $2: merged"
	echo "$2" | put "$out/aliases/$(basename "$1")"
	grep -lx "$(basename "$1")" "$out"/triage/* 2>/dev/null | while read -r m; do echo "$2" | put "$m"; done
	mv "$1" "$out/failures/.dup-$(basename "$1")" && rm -rf "$out/failures/.dup-$(basename "$1")"
}
reduce_pending() {
	for todo in "$out"/failures/*/reduce.todo; do
		[ -f "$todo" ] || continue
		reduce_one "$(dirname "$todo")" || return 0
	done
	index_failures
}

# ---- summary ----
write_summary() {  # write_summary HOW
	record_session "$1"
	secs=$(( $(date +%s) - start )) execs=$(session_execs)
	set -- $(all_sessions)
	pending=$(ls "$out"/failures/*/reduce.todo 2>/dev/null | wc -l)
	empty=$(grep -lx empty "$out"/triage/* 2>/dev/null | wc -l)
	{
		echo "weft campaign: $target, engine $engine, $jobs job(s)"
		echo "sessions: $1 (this one $secs s, $how)"
		echo "executions: $2 in all sessions; this session $execs ($((execs / (secs > 0 ? secs : 1)))/s)"
		echo "coverage: $(coverage)"
		echo "corpus: $(corpus_size) inputs in $corpus"
		echo "crash files: $(ls "$out/crashes" | wc -l) in $out/crashes ($(ls "$out/triage" | wc -l) triaged)"
		echo "unique failures: $(unique_failures)"
		[ "$pending" -eq 0 ] || echo "reductions pending: $pending (run the same command again to finish them)"
		[ "$empty" -eq 0 ] || echo "empty crash files from the engine: $empty (not failures: the engine wrote no bytes)"
		failure_groups | while read -r kind id; do
			f=$out/failures/$id
			# the complexity tuple, which may start with weak reads: "(1 weak reads, 0, 1, 2, 2)"
			c=$("$replay" --quiet --expect=fail --complexity "$f/reproducer.bin" 2>/dev/null | sed -n 's/^\(([^)]*)\).*/\1/p')
			state=; [ -f "$f/reduce.todo" ] && state=", not reduced yet"
			if [ "$kind" = unreproducible ]; then
				echo "  $id: does not replay in a fresh process: $(cat "$f/reason" 2>/dev/null || echo "no failure when replayed")"
				echo "    crash file: $f/crash.bin"
				continue
			fi
			echo "  $id: $kind, complexity ${c:-(unknown)} (preemptions, switches, operations, threads)$state"
			echo "    symptom:    $(cat "$f/symptom" 2>/dev/null)"
			echo "    reproducer: $f/reproducer.bin ($(od -An -tx1 -v "$f/reproducer.bin" | tr -d '\n' | cut -c1-120))"
			echo "    report:     $f/report.txt (web page: report.html)"
			echo "    covers:     $(wc -l < "$f/crashes.txt" 2>/dev/null || echo 0) crash file(s)"
			grep -m 1 -v '^$' "$f/report.txt" | sed 's/^/    /'
		done
		echo "what the corpus runs (TARGET_replay --stats on it):"
		corpus_stats
	} > "$tmp/summary.txt" || { write_failed "$tmp/summary.txt"; return 1; }
	checkpoint summary
	mv -f "$tmp/summary.txt" "$out/summary.txt" || write_failed "$out/summary.txt"
}

# The distributions of the corpus's inputs (threads, operations, kinds, arguments,
# preemptions, verdicts): does the fuzzer ever make the scenario a bug needs?
corpus_stats() {
	if [ "$engine" = afl ]; then set -- "$corpus"/*/queue; else set -- "$corpus"; fi
	"$replay" --stats --quiet --expect=fail --timeout=10 "$@" 2> /dev/null | sed 's/^/  /'
}

# ---- the campaign ----
main=$$ how=finished signals=0 paused= wrote_badly=
# a write that failed (put, from any subshell): stop here, keep what is on disk; a
# file-size limit (ulimit -f) makes writes fail (EFBIG) rather than kill the writer
trap 'how="stopped: a write failed" deadline=0 wrote_badly=1' USR1
trap '' XFSZ
close_dead_sessions
migrate_old
start=$(date +%s) started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
sid=$start-$main deadline=$((start + time))
run=$out/run/$sid logs=$out/logs/$sid tmp=$out/tmp/$sid
mkdir -p "$run" "$logs" "$tmp"
export TMPDIR="$tmp"        # what reducers leave behind when killed stays in OUT/tmp
# twice: a child forked just before the shell died lists its group, or becomes timeout,
# a moment later (spawn)
( while alive "$main"; do sleep 0.3; done; end_groups "$run"; sleep 1; end_groups "$run" ) > /dev/null 2>&1 9>&- &
watchdog=$!
afl_base=0; [ "$engine" = afl ] && afl_base=$(afl_stat execs_done)
record_session running
# The first signal stops the session in order (triage, summary); a second one ends it now
# (the state on disk is consistent at every instant; the watchdog ends the children).
trap 'signals=$((signals + 1)) how=interrupted deadline=0; [ "$signals" -lt 2 ] || exit 130' INT TERM

seed_corpus
echo "== weft campaign: $target, $engine, $jobs job(s), ${time}s; corpus $corpus; session $(all_sessions | cut -d' ' -f1)"
workers= i=0
while [ "$i" -lt "$jobs" ]; do
	if [ "$engine" = afl ]; then afl_instance "$i" 9>&- & else libfuzzer_worker "$i" 9>&- & fi
	workers="$workers $!" i=$((i + 1))
done
triage all; reduce_pending       # what earlier sessions left, while the fuzzers run
last=0
while [ "$(date +%s)" -lt "$deadline" ]; do
	alive=0
	for w in $workers; do kill -0 "$w" 2>/dev/null && alive=1; done
	[ "$alive" -eq 1 ] || break
	spawn tick 2 /dev/null sleep 1; await "$spawned"
	[ "$how" = interrupted ] || [ -n "$wrote_badly" ] && break
	triage; reduce_pending; record_session running
	el=$(( $(date +%s) - start ))
	if [ $((el - last)) -ge "$interval" ]; then
		e=$(session_execs)
		printf '[%5ds] executions %s (%s/s)  coverage %s  corpus %s  crash files %s  unique failures %s\n' \
			"$el" "$(( $(all_sessions | cut -d' ' -f2) ))" "$((e / (el > 0 ? el : 1)))" "$(coverage)" "$(corpus_size)" \
			"$(ls "$out/crashes" | wc -l)" "$(unique_failures)"
		last=$el
	fi
done
stop_workers
if [ -n "$wrote_badly" ]; then   # nothing more is written: the state on disk is the last good one
	kill "$watchdog" 2>/dev/null
	rm -rf "$run" "$tmp"
	echo "$self: session stopped: a write failed (the error above names the file); the state before it is kept" >&2
	exit 2
fi
triage all; reduce_pending
write_summary "$how"
kill "$watchdog" 2>/dev/null
rm -rf "$run" "$tmp"
[ -z "$wrote_badly" ] || { echo "$self: session stopped: a write failed (the error above names the file)" >&2; exit 2; }
echo "== campaign $how; summary: $out/summary.txt"
cat "$out/summary.txt"
if [ "$how" = finished ] && [ "$(session_execs)" -eq 0 ]; then
	echo "$self: stuck: the fuzzers ran no execution this session (an execution that hangs? logs: $logs)" >&2
	exit 1
fi
exit 0
