#!/bin/sh
# tests/etcd_verdicts.sh WEFT_CHECK DATA_DIR - weft-check agrees with the known
# verdict of every Jepsen etcd history listed in DATA_DIR/VERDICTS (exit 0 for
# linearizable, 1 for not-linearizable; 102 logs from porcupine's test suite,
# see DATA_DIR/README.md), and takes the empty etcd_095.log (no verdict) as an
# empty, linearizable history without crashing.  Prints a tally.
checker=$1 data=$2
[ -x "$checker" ] || { echo "FAIL: no executable '$checker'"; exit 1; }
[ -f "$data/VERDICTS" ] || { echo "FAIL: no $data/VERDICTS"; exit 1; }
fail=0 total=0 agree=0 lin=0 nonlin=0
while read -r log verdict; do
	case $verdict in
	linearizable) want=0 ;;
	not-linearizable) want=1 ;;
	*) echo "FAIL: VERDICTS: '$log $verdict'"; fail=1; continue ;;
	esac
	total=$((total + 1))
	out=$("$checker" "$data/$log" 2>&1); got=$?
	case $out in   # a sanitizer report could hide behind the expected exit status 1
	*Sanitizer* | *"runtime error:"*) echo "FAIL: $log: sanitizer report"; echo "$out"; fail=1 ;;
	esac
	if [ "$got" = "$want" ]; then
		agree=$((agree + 1))
		[ "$want" = 0 ] && lin=$((lin + 1)) || nonlin=$((nonlin + 1))
	else
		echo "FAIL: $log: exit $got, want $want ($verdict)"
		fail=1
	fi
done < "$data/VERDICTS"
[ "$total" = 102 ] || { echo "FAIL: $total verdicts read, want 102"; fail=1; }

out=$("$checker" "$data/etcd_095.log" 2>&1); got=$?
case $out in
*"etcd_095.log: linearizable (0 operations"*) ;;
*) echo "FAIL: etcd_095.log (empty): '$out'"; fail=1 ;;
esac
[ "$got" = 0 ] || { echo "FAIL: etcd_095.log (empty): exit $got, want 0"; fail=1; }

echo "etcd_verdicts: $agree/$total agree ($lin linearizable, $nonlin not), empty log: exit $got"
[ $fail = 0 ] || exit 1
exit 0
