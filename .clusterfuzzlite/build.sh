#!/bin/bash -eu
# .clusterfuzzlite/build.sh - ClusterFuzzLite's build: OSS-Fuzz's build script,
# restricted to the fixed variants.  The buggy variants carry their bugs on purpose
# (they are weft's demonstrations and tests); in code-change mode they would fail every
# pull request with a known crash.  OSS-Fuzz itself builds them all.
WEFT_FUZZ_TARGETS='*_fixed' exec "$SRC/weft/oss-fuzz/build.sh"
