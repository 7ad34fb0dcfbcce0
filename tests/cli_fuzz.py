#!/usr/bin/env python3
"""tests/cli_fuzz.py BINDIR CORPUS_FILE [N] - fuzz every command line of weft (issue 20, item 4).

A seeded black-box fuzzer of the option parsers as users meet them: it reads each
mode's --help (the replay tool, --systematic, --explore, weft-check), so a new
option is fuzzed the day it is added, and builds N command lines from its
options with values drawn from valid ones, boundaries (0, -1, 2^63, 2^64, huge),
empty, repeated, unknown and binary garbage, and now and then one of the
WEFT_* environment variables the sources read, with a drawn value.  Each runs with a time limit and
must:
  - exit with one of the statuses its --help lists (no signal, no sanitizer
    report, no 'runtime error');
  - on exit 2 (bad usage), say something on stderr, and never echo a
    non-printable byte raw (garbage is escaped);
  - never write an output file outside the scratch directory.
A command line that runs to the time limit is a long legal search (counted,
not failed): hangs on bad files have their own cases in cli_bad_input.sh.
Deterministic: seed WEFT_CLI_FUZZ_SEED (default 1); N defaults to 120 (CI);
bench-sized runs: N=5000.  The first failure prints its command line, replayable.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TIME_LIMIT = 4.0
HISTORY = ('model counter\n0 invoke increment\n1 invoke get\n1 ok 0\n0 ok\n')


def help_options(cmd):
    """(flag, takes_value) of every option a --help lists."""
    out = subprocess.run(cmd, capture_output=True, timeout=20).stdout.decode() + \
        subprocess.run(cmd, capture_output=True, timeout=20).stderr.decode()
    opts = []
    for m in re.finditer(r'^\s+(--[a-z-]+)(=\S+)?\s', out, re.M):
        if m.group(1) != '--help':
            opts.append((m.group(1), bool(m.group(2))))
    return opts


NUMBERS = ['0', '1', '2', '3', '-1', '8', '64', '1000', '9223372036854775807',
           '9223372036854775808', '18446744073709551615', '18446744073709551616',
           '99999999999999999999999', '0x10', '1e3', ' 1', '1 ', '+1', '--1']
RANGES = ['1..2', '2..1', '0..0', '-9223372036854775807..9223372036854775807',
          '-9223372036854775808..9223372036854775807', '1..', '..2', '1...2', 'a..b']
WORDS = ['random', 'pct', 'uniform', 'pos', 'bytes', 'stress', 'pass', 'fail',
         'linearizability', 'text', 'jepsen', 'edn', 'auto', 'queue', 'kv', 'register']


def garbage(rng):
    n = rng.randint(1, 6)
    raw = bytes(rng.choice([1, 7, 27, 127, 0xff, 0xe9, 0x80]) for _ in range(n))
    return os.fsdecode(raw)   # passed to the process as these very bytes


def value(rng, scratch):
    r = rng.random()
    if r < 0.35:
        return rng.choice(NUMBERS[:8])
    if r < 0.5:
        return rng.choice(NUMBERS)
    if r < 0.62:
        return rng.choice(RANGES)
    if r < 0.74:
        return rng.choice(WORDS)
    if r < 0.82:
        return os.path.join(scratch, 'out%d' % rng.randint(0, 3))
    if r < 0.9:
        return ''
    return garbage(rng)


def option(rng, opts, scratch):
    flag, takes = rng.choice(opts)
    r = rng.random()
    if r < 0.08:
        return flag + ('' if takes else '=1')          # value missing / unexpected
    if r < 0.12:
        return '--' + rng.choice(['nope', 'thread', 'Threads', '', '-']) + '=1'
    if r < 0.15:
        return garbage(rng)
    return flag + ('=' + value(rng, scratch) if takes else '')


def command_line(rng, tools, scratch, corpus):
    name = rng.choice(sorted(tools))
    binary, mode, opts, statuses = tools[name]
    args = list(mode)
    if mode == ['--explore']:
        args = ['--explore=' + rng.choice(WORDS[:6] + [''])]
        args.append('--max-executions=' + rng.choice(['1', '20', '200', '0']))
    elif mode == ['--systematic']:
        args.append('--max-executions=' + rng.choice(['1', '50', '500']))
    for _ in range(rng.randint(0, 4)):
        args.append(option(rng, opts, scratch))
    if name in ('replay', 'check'):
        files = [corpus if name == 'replay' else os.path.join(scratch, 'h.txt')]
        if rng.random() < 0.2:
            files.append(rng.choice([scratch, '/dev/null', os.path.join(scratch, 'missing')]))
        args += files
    rng.shuffle(args) if rng.random() < 0.1 else None
    return name, binary, args, statuses


def weft_variables():
    """Every WEFT_* environment variable the sources read: they are options too."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    names = set()
    for room in ('scheduler', 'oracle', 'input', 'report', 'runner', 'search', 'mutate',
                 'reduce', 'harness'):
        for f in os.listdir(os.path.join(root, room)):
            if f.endswith('.c'):
                with open(os.path.join(root, room, f), errors='replace') as src:
                    names |= set(re.findall(r'getenv\("(WEFT_[A-Z_]+)"\)', src.read()))
    return sorted(names)


def environment(rng, variables):
    """The process environment: now and then a WEFT_* variable with a drawn value."""
    env = dict(os.environ)
    for var in variables:
        env.pop(var, None)
    if rng.random() < 0.25:
        var = rng.choice(variables)
        env[var] = rng.choice(['0', '1', 'on', 'off', 'fiber', 'pthread', 'shared', 'all',
                               'verify', '', 'x', '-1', '18446744073709551616'])
    return env


def check(name, binary, args, statuses, scratch, env):
    """None if the run behaved, else what went wrong."""
    try:
        p = subprocess.run([binary] + args, capture_output=True, timeout=TIME_LIMIT,
                           cwd=scratch, env=env)
    except subprocess.TimeoutExpired:
        return 'timeout'
    err = p.stderr
    if p.returncode < 0:
        return 'killed by signal %d' % -p.returncode
    if b'runtime error' in err or b'Sanitizer' in err:
        return 'sanitizer report: ' + err.decode(errors='replace')[-400:]
    if p.returncode not in statuses:
        return 'exit %d, not one of %s' % (p.returncode, statuses)
    if p.returncode == 2 and not err.strip():
        return 'exit 2 with nothing on stderr'
    raw = [b for b in err if (b < 32 and b not in (9, 10)) or b >= 127]
    if raw:
        return 'non-printable byte 0x%02x echoed raw on stderr' % raw[0]
    return None


def main():
    bindir, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 120
    seed = int(os.environ.get('WEFT_CLI_FUZZ_SEED', '1'))
    replay = os.path.join(bindir, 'counter_buggy_replay')
    check_tool = os.path.join(bindir, 'weft-check')
    tools = {
        'replay': (replay, [], help_options([replay, '--help']), (0, 1, 2)),
        'systematic': (replay, ['--systematic'], help_options([replay, '--systematic', '--help']),
                       (0, 1, 2, 3)),
        'explore': (replay, ['--explore'], help_options([replay, '--explore', '--help']),
                    (0, 1, 2, 3)),
    }
    if os.path.exists(check_tool):
        tools['check'] = (check_tool, [], help_options([check_tool, '--help']), (0, 1, 2, 3))
    for name, (_, _, opts, _) in tools.items():
        if len(opts) < 3:
            print('FAIL: %s --help lists %d options: the help format changed?' % (name, len(opts)))
            return 1
    variables = weft_variables()
    if len(variables) < 5:
        print('FAIL: found only %s read from the environment' % variables)
        return 1
    rng = random.Random(seed)
    scratch = tempfile.mkdtemp(prefix='weft-clifuzz.')
    timeouts = 0
    try:
        with open(os.path.join(scratch, 'h.txt'), 'w') as f:
            f.write(HISTORY)
        for i in range(n):
            name, binary, args, statuses = command_line(rng, tools, scratch, corpus)
            env = environment(rng, variables)
            what = check(name, binary, args, statuses, scratch, env)
            if what == 'timeout':
                timeouts += 1
                continue
            if what:
                set_vars = ' '.join('%s=%r' % (v, env[v]) for v in variables if v in env)
                print('FAIL: command line %d (seed %d): %s\n  %s %s %s' % (
                    i, seed, what, set_vars, binary, ' '.join(repr(a) for a in args)))
                return 1
        stray = [f for f in os.listdir('.') if f.startswith('out') and f[3:].isdigit()]
        if stray:
            print('FAIL: output written outside the scratch directory: %s' % stray)
            return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print('cli_fuzz: %d command lines over %s (seed %d) behaved; %d ran to the %.0f s limit'
          % (n, ', '.join(sorted(tools)), seed, timeouts, TIME_LIMIT))
    return 0


if __name__ == '__main__':
    sys.exit(main())
