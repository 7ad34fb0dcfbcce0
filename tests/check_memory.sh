#!/bin/sh
# tests/check_memory.sh WEFT_CHECK - weft-check keeps within --max-memory (issue 29,
# item 6): a kv history whose search fills any memo (3000 operations, 30 clients, 2
# keys; linearizable, but far beyond a 32 MiB memo) is 'unknown' (exit 3) at
# --max-memory=32 with the process's peak RSS at most 32 MiB + 10% (the cap counts
# the history, the search's buffers and both memo tables; it counted only the memo
# and one table, and RSS reached 43 MB).  Under `ulimit -v` the same search runs out
# of memory: a message and exit 3, never abort.  Not under sanitizers (their shadow
# memory is RSS).  Peak RSS is read with getrusage, not timed.
set -u
check=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
python3 "$here/gen_kv_history.py" --seed 5 --clients 30 --ops 3000 --keys 2 > "$tmp/kv.edn"

python3 - "$check" "$tmp/kv.edn" <<'EOF' || fail=1
import resource, subprocess, sys
check, history = sys.argv[1], sys.argv[2]
cap_mib = 32
p = subprocess.run([check, "--quiet", "--max-memory=%d" % cap_mib, history],
                   capture_output=True, text=True)
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss   # Linux: KiB
limit_kib = cap_mib * 1024 * 11 // 10
print("check_memory: --max-memory=%d: exit %d, peak RSS %d KiB (limit %d KiB)"
      % (cap_mib, p.returncode, peak_kib, limit_kib))
ok = True
if p.returncode != 3 or "reached --max-memory" not in p.stdout:
    print("FAIL: want 'unknown' at the cap (exit 3), got %d: %s%s" % (p.returncode, p.stdout, p.stderr))
    ok = False
if peak_kib > limit_kib:
    print("FAIL: peak RSS %d KiB is over --max-memory + 10%% (%d KiB)" % (peak_kib, limit_kib))
    ok = False
sys.exit(0 if ok else 1)
EOF

# Out of memory without a cap: 40 MB of address space, a message, exit 3 (not 134).
(ulimit -v 40000; exec "$check" --quiet "$tmp/kv.edn") > "$tmp/out" 2>&1
got=$?
[ "$got" = 3 ] || { echo "FAIL: under ulimit -v: exit $got, want 3"; cat "$tmp/out"; fail=1; }
grep -q "unknown (out of memory after" "$tmp/out" || { echo "FAIL: under ulimit -v, no message:"; cat "$tmp/out"; fail=1; }

[ "$fail" = 0 ] && echo "check_memory: RSS within the cap; out of memory reported"
exit $fail
