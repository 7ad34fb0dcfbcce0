#!/usr/bin/env python3
"""tests/ci_needed_targets.py BUILD [CTEST ARGS...] - the binaries a ctest selection runs.

run_all.sh's clang-asan suite runs only the tests gcc-asan could not (libFuzzer, the
instrumentation pass, clang's sanitizers), about 80 of 280: building every binary under
ASan for them cost CI a minute and a half.  This prints (one a line) the binaries those
tests may run, for tests/CMakeLists.txt's WEFT_CI_TARGETS: a binary (NAME_replay,
NAME_fuzz, test_NAME) is needed when its name, its variant's (NAME without _replay or
_fuzz) or its program's (without _buggy or _fixed too) appears as a word in the command
line of a selected test or in a file that command line names (its script), or begins
with the literal head of a name a script builds from a variable (first_access_${p}_...).
The match over-approximates on purpose: a binary built for nothing costs seconds, one
missing can make a script skip a part (`[ -x "$dir/NAME_fuzz" ] || ...`).  Libraries,
tools and the pass are built anyway.  The targets are read from the Makefile generator's
`help` (the CI's); with another generator nothing is printed and run_all.sh builds all.
"""
import json
import os
import re
import subprocess
import sys


def selected_tests(build, ctest_args):
    out = subprocess.run(["ctest", "--show-only=json-v1", *ctest_args], cwd=build,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["tests"]


def text_of(tests):
    """The names and command lines of TESTS and the text of the files they name."""
    parts = []
    for t in tests:   # a test whose binary is not built yet has no command: its name is it
        parts.append(re.sub(r"_(fiber|pthread)$", "", t["name"]))
        for arg in t.get("command", []):
            parts.append(arg)
            if os.path.isfile(arg) and os.path.getsize(arg) < 1 << 20:
                with open(arg, "rb") as f:
                    data = f.read()
                if not data.startswith(b"\x7fELF"):   # a script, not a binary
                    parts.append(data.decode(errors="replace"))
    return "\n".join(parts)


def binaries(build):
    """The executable targets of BUILD that tests run (Makefile generator's `help`)."""
    out = subprocess.run(["cmake", "--build", build, "--target", "help"], check=True,
                         capture_output=True, text=True).stdout
    names = re.findall(r"^\.\.\. ([A-Za-z0-9_-]+)$", out, re.M)
    return [n for n in names if re.search(r"_(replay|fuzz)$|^test_", n)]


def words(name):
    """NAME, and the words a script builds it from: its variant (NAME without _replay or
    _fuzz) and its program (without _buggy or _fixed too)."""
    variant = re.sub(r"_(replay|fuzz)$", "", name)
    program = re.sub(r"_(buggy|fixed)$", "", variant)
    return [name, variant, program]


def prefixes(text):
    """The literal heads of names a script builds from a variable (first_access_${p}_...):
    every binary they begin is needed."""
    return set(re.findall(r"(?<![A-Za-z0-9_$])([A-Za-z][A-Za-z0-9_]*_)\$\{?[A-Za-z_]", text))


def main():
    build, ctest_args = sys.argv[1], sys.argv[2:]
    text = text_of(selected_tests(build, ctest_args))
    heads = tuple(prefixes(text))
    for name in binaries(build):
        if name.startswith(heads) or any(
                re.search(r"(?<![A-Za-z0-9_])" + re.escape(w) + r"(?![A-Za-z0-9_])", text)
                for w in words(name)):
            print(name)


if __name__ == "__main__":
    main()
