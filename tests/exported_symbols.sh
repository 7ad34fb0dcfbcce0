#!/bin/sh
# tests/exported_symbols.sh LIBWEFT.a - libweft exports only weft_* symbols
# (internals are hidden), so it cannot collide with a user's names.
lib=$1
[ -f "$lib" ] || exit 1   # no library: nothing to check is a failure
# ASan (gcc) adds an ODR-violation indicator, __odr_asan.NAME, beside each exported global
# variable (weft_model_queue, ...): it carries the global's name, so it counts as weft_'s.
bad=$(readelf -sW "$lib" | awk '$5 == "GLOBAL" && $6 == "DEFAULT" && $7 != "UND" && $8 !~ /^(__odr_asan\.)?weft_/ { print $8 }' | sort -u)
count=$(readelf -sW "$lib" | awk '$5 == "GLOBAL" && $6 == "DEFAULT" && $7 != "UND"' | wc -l)
[ "$count" -gt 5 ] || { echo "FAIL: only $count exported symbols found: is $lib right?"; exit 1; }
if [ -n "$bad" ]; then
	echo "FAIL: exported symbols outside the weft_ prefix:"; echo "$bad"; exit 1
fi
echo "exported_symbols: $count exported, all weft_*"
