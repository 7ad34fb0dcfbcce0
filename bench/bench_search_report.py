#!/usr/bin/env python3
"""bench/bench_search_report.py RESULTS.tsv [--key value ...] - the markdown report of
bench/bench_search.sh (which calls it; see there).

RESULTS.tsv: one line per run, tab-separated:
  target strategy seed status executions seconds verdict note [inner [commit date]]
inner: executions the fuzzer's structure-aware mutator ran inside its own calls
(unjudged; 0 for the other strategies).  For `fuzz` the report adds a row
`fuzz+inner` whose executions are both together.
commit, date: the run that produced the row (bench_search.sh REUSE mixes runs).
With --hard (bench/hard.sh): the hard benchmark's sections instead of issue 17's
goals: per-strategy geometric means over the suite, fuzz / best baseline per
target and issue 33's Done-when line.
status: found (executions and seconds to the first failure), cap (no failure within
CAP executions), timeout (killed at TIME_CAP seconds), na (the strategy cannot run
the target; note says why).

Statistics per target x strategy over the seeds: nearest-rank median and p90 of the
executions and of the seconds; a run that did not find the bug sorts after every run
that did and counts as ">= CAP" (executions) or ">= its own time" (seconds), and a
quantile that falls on one says so.  Executions per second: all executions of all
runs over all their seconds.
"""
import argparse
import csv
import math
import os
import re
import sys
from collections import Counter, defaultdict

HARD = ["treiber_stack", "ms_queue", "hash_set"]
NEW_HARD = ["chase_lev", "key_lock_set", "pool_stack", "resize_set"]          # issue 17's harder targets
BASELINES = ["random", "pct1", "pct2", "pct3", "uniform", "pos"]
DEFAULT = "fuzz"
ALL = "fuzz+inner"


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("results")
    for key in ["date", "commit", "compiler", "cpu", "nproc", "load", "backend", "seeds",
                "cap", "time-cap", "startup", "jobs", "total", "strategies", "targets", "command"]:
        p.add_argument("--" + key, default="?")
    p.add_argument("--hard", action="store_true")
    return p.parse_args()


class Run:
    def __init__(self, row):
        self.target, self.strategy, self.seed, self.status = row[0], row[1], int(row[2]), row[3]
        self.executions, self.seconds = int(row[4]), float(row[5])
        self.verdict, self.note = row[6], row[7] if len(row) > 7 else "-"
        self.inner = int(row[8]) if len(row) > 8 and row[8] else 0
        self.run = (row[9], row[10]) if len(row) > 10 else ("-", "-")

    def with_inner(self):
        """The same run counting the mutator's own executions too."""
        r = Run([self.target, ALL, str(self.seed), self.status,
                 str(self.executions + self.inner), str(self.seconds), self.verdict, self.note,
                 "0", self.run[0], self.run[1]])
        return r

    @property
    def found(self):
        return self.status == "found"


def rank(n, q):
    """Nearest-rank index (0-based) of quantile q among n values."""
    return max(0, math.ceil(q * n) - 1)


def quantile(runs, q, key, cap):
    """The q-quantile of key over runs; not-found runs sort last: (value, not found)."""
    ordered = sorted(runs, key=lambda r: (not r.found, r.status == "timeout", key(r)))
    r = ordered[rank(len(ordered), q)]
    if r.found:
        return key(r), False
    return key(r), "timeout" if r.status == "timeout" else True


def fmt_execs(value, capped, cap):
    if capped == "timeout":
        return "not found (time cap)"
    if capped:
        return "≥%s (cap)" % f"{cap:,}"
    return f"{value:,}"


def fmt_secs(value, capped):
    text = "%.3f" % value if value < 10 else "%.1f" % value
    return ("≥" + text + " (not found)") if capped else text


class Cell:
    def __init__(self, runs, cap):
        self.runs = runs
        self.cap = cap
        self.na = all(r.status == "na" for r in runs)
        live = [r for r in runs if r.status != "na"]
        self.live = live
        self.found = sum(r.found for r in live)
        self.timeouts = sum(r.status == "timeout" for r in live)
        if live:
            self.med_e, self.med_e_capped = quantile(live, 0.5, lambda r: r.executions, cap)
            self.p90_e, self.p90_e_capped = quantile(live, 0.9, lambda r: r.executions, cap)
            self.med_s, self.med_s_capped = quantile(live, 0.5, lambda r: r.seconds, cap)
            self.p90_s, self.p90_s_capped = quantile(live, 0.9, lambda r: r.seconds, cap)
            secs = sum(r.seconds for r in live)
            self.rate = sum(r.executions for r in live) / secs if secs > 0 else 0.0
        self.verdicts = Counter(r.verdict for r in live if r.found)

    def median_execs(self):
        """(value, capped) or None."""
        if self.na or not self.live:
            return None
        return self.med_e, self.med_e_capped


def ratio(a, b):
    """Text for median a / median b, each (value, capped) or None."""
    if a is None or b is None:
        return "n/a"
    (x, xc), (y, yc) = a, b
    if xc and yc:
        return "? (neither found in the median)"
    if y == 0:
        return "?"
    r = x / y
    text = "%.1f" % r if r >= 1 else "%.2g" % r
    if xc:
        return "≥" + text
    if yc:
        return "≤" + text
    return text


def best_baseline(t, strategies, cells):
    """(name, (median, capped)) of the baseline with the lowest median on t, or None."""
    best = None
    for s in BASELINES:
        c = cells.get((t, s))
        if s not in strategies or c is None or c.median_execs() is None:
            continue
        m = c.median_execs()
        # capped is False, True or "timeout": any not-found median sorts after a found one
        if best is None or (bool(m[1]), m[0]) < (bool(best[1][1]), best[1][0]):
            best = (s, m)
    return best


def goals(out, targets, strategies, cells, cap):
    """Issue 17's goals, per target: fuzz's median against the best baseline's."""
    if DEFAULT not in strategies:
        return
    out("## Goals (issue 17): the fuzzer against the best baseline\n\n")
    out("Best baseline: the lowest median executions among %s. Ratio = fuzz median / best "
        "baseline median (below 1: the fuzzer needs fewer). Goal A: `fuzz` finds the bug with "
        "every seed and its ratio is at most 1. Goal B (the harder targets %s): ratio at most "
        "0.5. Both are judged on `fuzz+inner`, every execution the fuzz process ran (a "
        "sampled mutant runs once, inside the mutator, and libFuzzer takes that run; the "
        "mutator's other runs, measuring a plan it edits, are added). The fuzzer's first "
        "execution is the empty input: where the best baseline's median is 1, a ratio at "
        "most 1 would need the simplest run to fail.\n\n"
        % (", ".join(f"`{b}`" for b in BASELINES if b in strategies),
           ", ".join(f"`{t}`" for t in NEW_HARD)))
    out("| target | best baseline | its median | fuzz | fuzz / best | fuzz+inner / best | "
        "fuzz-bytes / best | goal A | goal B |\n|---|---|---:|---:|---:|---:|---:|---|---|\n")
    met_a = met_b = n_a = n_b = 0
    floor_missed = other_missed = 0
    logs = []
    for t in targets:
        c = cells.get((t, DEFAULT))
        best = best_baseline(t, strategies, cells)
        if c is None or best is None or c.median_execs() is None:
            continue
        name, bm = best
        med = c.median_execs()
        r = ratio(med, bm)
        r_all = ratio(cells[(t, ALL)].median_execs(), bm) if (t, ALL) in cells else "n/a"
        r_bytes = (ratio(cells[(t, "fuzz-bytes")].median_execs(), bm)
                   if (t, "fuzz-bytes") in cells else "n/a")
        judged = cells.get((t, ALL), c).median_execs()   # the honest count
        ok_a = c.found == len(c.live) and not judged[1] and (bm[1] or judged[0] <= bm[0])
        if not judged[1] and not bm[1]:
            logs.append(math.log(judged[0] / bm[0]))
        n_a += 1
        met_a += ok_a
        if not ok_a and not bm[1] and bm[0] <= 2:
            floor_missed += 1
        elif not ok_a:
            other_missed += 1
        gb = ""
        if t in NEW_HARD:
            ok_b = not judged[1] and (bm[1] or 2 * judged[0] <= bm[0])
            n_b += 1
            met_b += ok_b
            gb = "met" if ok_b else "**not met**"
        bm_txt = ("≥%s" % f"{cap:,}") if bm[1] else f"{bm[0]:,}"
        med_txt = ("≥%s" % f"{cap:,}") if med[1] else f"{med[0]:,}"
        out(f"| {t} | {name} | {bm_txt} | {med_txt} ({c.found}/{len(c.live)}) | {r} | {r_all} | "
            f"{r_bytes} | {'met' if ok_a else '**not met**'} | {gb} |\n")
    out(f"\nGoal A met on {met_a} of {n_a} targets; goal B met on {met_b} of {n_b}.")
    if logs:
        out(" Geometric mean of fuzz+inner / best over the %d targets where both found the "
            "bug: %.2f." % (len(logs), math.exp(sum(logs) / len(logs))))
    if floor_missed or other_missed:
        out("\n\nWhy goal A is not met (ARCHITECTURE.md, \"The fuzzer's search\"): on %d "
            "target(s) the best baseline needs at most 2 executions, and libFuzzer runs two "
            "fixed inputs (the empty one and \"\\n\") before its first mutant, so the "
            "fuzzer's floor is 3; on the other %d the fuzzer's mutants are a mix of the "
            "baselines' samplers (and edits of corpus inputs that were measured no better), and "
            "a mix needs more executions than its best part, which differs by target; ten "
            "seeds move a median 2-3x between seed sets, and the best of six "
            "such medians is biased low." % (floor_missed, other_missed))
    out("\n\n")


def geomean(values):
    return math.exp(sum(math.log(max(v, 1e-9)) for v in values) / len(values)) if values else 0.0


def hard_sections(out, targets, strategies, cells, runs, cap, time_cap):
    """Issue 33: provenance, geometric means, fuzz / best baseline, Done-when."""
    out("## Which run each row comes from\n\n")
    out("bench/hard.sh may re-run some strategies and reuse the others' raw rows "
        "(`bench/hard/raw.tsv`): the baselines are deterministic per seed.\n\n")
    out("| strategy | runs | git commit | date |\n|---|---:|---|---|\n")
    prov = defaultdict(Counter)
    for r in runs:
        if r.strategy != ALL:
            prov[r.strategy][r.run] += 1
    for s in strategies:
        for (c, d), n in sorted(prov[s].items()):
            out(f"| {s} | {n} | {c} | {d} |\n")
    out("\n## Geometric means over the suite\n\n")
    out("Per strategy, the geometric mean over the %d targets of the median executions and "
        "of the median seconds to the first failure. **A median that did not find the bug "
        "counts as the cap** (%s executions; for seconds, the time that median run took, "
        "at most the %s s time cap), so a mean with such medians is a lower bound (marked "
        "≥).\n\n" % (len(targets), f"{cap:,}", time_cap))
    out("| strategy | geomean median executions | geomean median s | targets found in the "
        "median |\n|---|---:|---:|---:|\n")
    for s in strategies:
        es, ss, capped = [], [], 0
        for t in targets:
            c = cells.get((t, s))
            if c is None or c.median_execs() is None:
                continue
            es.append(cap if c.med_e_capped else c.med_e)
            ss.append(c.med_s)
            capped += bool(c.med_e_capped)
        if not es:
            continue
        mark = "≥" if capped else ""
        out(f"| {s} | {mark}{geomean(es):,.0f} | {mark}{geomean(ss):.3f} | "
            f"{len(es) - capped}/{len(es)} |\n")
    out("\n## The fuzzer against the best baseline\n\n")
    out("Best baseline: the lowest median executions among %s on that target. Ratio: "
        "median / best baseline's median (≥ or ≤ when a median hit the cap).\n\n"
        % ", ".join(f"`{b}`" for b in BASELINES if b in strategies))
    out("| target | best baseline | its median | fuzz | fuzz / best | fuzz+inner / best |\n"
        "|---|---|---:|---:|---:|---:|\n")
    tally = {DEFAULT: [0, 0, 0], ALL: [0, 0, 0]}   # <= 0.5, <= 1, judged
    for t in targets:
        best = best_baseline(t, strategies, cells)
        c = cells.get((t, DEFAULT))
        if best is None or c is None or c.median_execs() is None:
            continue
        name, bm = best
        for s in (DEFAULT, ALL):
            m = cells[(t, s)].median_execs()
            tally[s][2] += 1
            if not m[1] and (bm[1] or 2 * m[0] <= bm[0]):
                tally[s][0] += 1
            if not m[1] and (bm[1] or m[0] <= bm[0]):
                tally[s][1] += 1
        med = c.median_execs()
        bm_txt = ("≥%s" % f"{cap:,}") if bm[1] else f"{bm[0]:,}"
        med_txt = ("≥%s" % f"{cap:,}") if med[1] else f"{med[0]:,}"
        out(f"| {t} | {name} | {bm_txt} | {med_txt} ({c.found}/{len(c.live)}) | "
            f"{ratio(med, bm)} | {ratio(cells[(t, ALL)].median_execs(), bm)} |\n")
    out("\n**Done when (issue 33)**:\n\n")
    for s in (DEFAULT, ALL):
        k, m, n = tally[s]
        out(f"- `{s}` <= 0.5x best baseline on {k} of {n} targets (goal: half); "
            f"<= 1x on {m} of {n} (goal: all).\n")
    out("\n")


def hard_order(targets):
    """The targets in bench/hard/hard.cmake's order (its lists, then its -D variants)."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "hard", "hard.cmake")) as f:
            text = f.read()
    except OSError:
        return targets
    names = []
    for m in re.finditer(r"^set\(weft_hard_(?:programs|targets) *(.*)\)$", text, re.M):
        names += ["hard_" + n for n in m.group(1).split()]
    names += re.findall(r"^weft_add_(?:program|target)\((hard_[a-z0-9_]*)_buggy ", text, re.M)
    rank = {n: i for i, n in enumerate(names)}
    return sorted(targets, key=lambda t: (rank.get(t, len(rank)), targets.index(t)))


def main():
    a = parse()
    cap = int(a.cap)
    runs = []
    with open(a.results) as f:
        for row in csv.reader(f, delimiter="\t"):
            if row:
                runs.append(Run(row))
    targets = a.targets.split()
    if a.hard:
        targets = hard_order(targets)
    strategies = a.strategies.split()
    if DEFAULT in strategies:
        runs += [r.with_inner() for r in runs if r.strategy == DEFAULT]
        strategies.insert(strategies.index(DEFAULT) + 1, ALL)
    by = defaultdict(list)
    for r in runs:
        by[(r.target, r.strategy)].append(r)
    cells = {k: Cell(v, cap) for k, v in by.items()}
    out = sys.stdout.write

    out("# Search benchmark: executions and time to the first failure\n\n")
    out("Written by `bench/bench_search.sh` (see `bench/README.md`); do not edit by hand.\n\n")
    out("| | |\n|---|---|\n")
    for k, v in [("date", a.date), ("git commit", a.commit), ("compiler", a.compiler),
                 ("CPU", a.cpu), ("nproc", a.nproc), ("load average at start", a.load),
                 ("scheduler backend", a.backend),
                 ("seeds per cell", a.seeds), ("cap per run", f"{cap:,} executions or "
                                                            f"{a.time_cap} s"),
                 ("runs at a time", f"{a.jobs} (stress: 1)"),
                 ("libFuzzer start-up (`-runs=0`)", f"{a.startup} s"),
                 ("whole benchmark", f"{a.total} s"), ("command", f"`{a.command}`")]:
        out(f"| {k} | {v} |\n")
    out("\n")
    out("Strategies: `fuzz` = libFuzzer with weft's structure-aware mutator "
        "(`NAME_buggy_fuzz -seed=S`, the default binary, empty corpus, executions "
        "from `stat::number_of_executed_units`: the inputs libFuzzer ran and weft judged); "
        "`fuzz+inner` = the same runs counting also the executions the mutator ran inside its "
        "own calls that libFuzzer did not take as a mutant's run (measuring a plan before "
        "editing it; a sampled mutant runs once and is counted once: the honest cost); "
        "`fuzz-nofeedback` = `fuzz` with `WEFT_FEEDBACK=none`; `fuzz-bytes` = `fuzz` with "
        "`WEFT_MUTATOR=off`, libFuzzer's byte mutations alone (the fuzzer before issue 17); "
        "the others are `NAME_buggy_replay --explore=STRATEGY --seed=S` "
        "(`bytes`: random inputs of 0-64 bytes; `random`: random walk; `pctD`: PCT with depth D; "
        "`uniform`: uniform over interleavings, estimated; `pos`: partial-order sampling; "
        "`stress`: real parallel threads, no "
        "scheduler), each on random scenarios from the seed (`search/explore.h`). "
        "Seconds: wall clock of the whole process (for `fuzz`, libFuzzer's start-up above and "
        "its crash handling are included; its stack trace is not symbolized). Median and p90: nearest rank over the seeds; "
        "a run that did not find the bug counts as at least the cap.\n\n")

    # fuzz-nofeedback vs fuzz: identical run for run means the knob does nothing yet
    same = [t for t in targets
            if (t, "fuzz") in by and (t, "fuzz-nofeedback") in by and
            sorted((r.seed, r.status, r.executions) for r in by[(t, "fuzz")]) ==
            sorted((r.seed, r.status, r.executions) for r in by[(t, "fuzz-nofeedback")])]
    both = [t for t in targets if (t, "fuzz") in by and (t, "fuzz-nofeedback") in by]
    if both and len(same) == len(both):
        out("**`fuzz-nofeedback` equals `fuzz` run for run on every target**: `WEFT_FEEDBACK` "
            "has no effect in this build (the interleaving-feedback feature has not landed in "
            "it); its column is a placeholder until it does.\n\n")
    elif both:
        out("`fuzz-nofeedback` differs from `fuzz` on %d of %d targets: `WEFT_FEEDBACK=none` "
            "changes the search in this build.\n\n" % (len(both) - len(same), len(both)))

    # overview
    out("## Overview: median executions to the first failure (seeds that found it)\n\n")
    out("| target | " + " | ".join(strategies) + " |\n")
    out("|---|" + "---:|" * len(strategies) + "\n")
    for t in targets:
        row = []
        for s in strategies:
            c = cells.get((t, s))
            if c is None:
                row.append("")
            elif c.na:
                row.append("n/a")
            else:
                v, capped = c.med_e, c.med_e_capped
                txt = ("≥%s" % f"{cap:,}") if capped else f"{v:,}"
                if capped == "timeout":
                    txt = "timeout"
                row.append(f"{txt} ({c.found}/{len(c.live)})")
        out(f"| {t} | " + " | ".join(row) + " |\n")
    out("\n")

    if a.hard:
        hard_sections(out, targets, strategies, cells, runs, cap, a.time_cap)
    else:
        goals(out, targets, strategies, cells, cap)

    # summary
    out("## Summary\n\n")
    hard = [t for t in HARD if t in targets]
    if hard and any((t, DEFAULT) in cells for t in hard):
        others = [s for s in strategies if s not in (DEFAULT, "fuzz-nofeedback")]
        out("Ratio of median executions to the first failure, strategy / `fuzz`, on the harder "
            "targets (≥: the strategy's median hit the cap, so the ratio is at least that; "
            "≤: fuzz's did):\n\n")
        out("| target | " + " | ".join(f"{s} / fuzz" for s in others) + " |\n")
        out("|---|" + "---:|" * len(others) + "\n")
        for t in hard:
            base = cells[(t, DEFAULT)].median_execs() if (t, DEFAULT) in cells else None
            out(f"| {t} | " + " | ".join(
                ratio(cells[(t, s)].median_execs() if (t, s) in cells else None, base)
                for s in others) + " |\n")
        out("\n")
    if any((t, DEFAULT) in cells for t in targets):
        slow = []
        for t in targets:
            c = cells.get((t, DEFAULT))
            if c is None:
                continue
            if c.found < len(c.live) or c.med_s_capped or c.med_s >= 1.0:
                slow.append(f"{t} (median {fmt_secs(c.med_s, c.med_s_capped)} s, "
                            f"found by {c.found}/{len(c.live)} seeds)")
        if slow:
            out("**Not every bug is found by the default strategy (`fuzz`) in a median under "
                "1 s, by every seed**: " + "; ".join(slow) + ".\n\n")
        else:
            out("**Every bug is found by the default strategy (`fuzz`) by every seed, in a "
                "median under 1 s** (wall clock, process start included).\n\n")
    nas = sorted({(r.target, r.strategy, r.note) for r in runs if r.status == "na"})
    if nas:
        out("n/a cells: the strategy cannot run the target:\n\n")
        for t, s, note in nas:
            out(f"- {t}, {s}: {note}\n")
        out("\n")
    tos = [r for r in runs if r.status == "timeout"]
    if tos:
        out(f"{len(tos)} run(s) were killed at the {a.time_cap} s time cap and count as not "
            "found: " + ", ".join(f"{r.target}/{r.strategy}/seed {r.seed}" for r in tos) + ".\n\n")

    # per target
    out("## Per target\n\n")
    for t in targets:
        out(f"### {t}\n\n")
        out("| strategy | found | median executions | p90 executions | median s | p90 s | "
            "executions/s | verdicts |\n")
        out("|---|---:|---:|---:|---:|---:|---:|---|\n")
        for s in strategies:
            c = cells.get((t, s))
            if c is None:
                continue
            if c.na:
                out(f"| {s} | n/a | | | | | | {c.runs[0].note} |\n")
                continue
            verdicts = ", ".join(f"{v} ×{n}" for v, n in c.verdicts.most_common())
            out(f"| {s} | {c.found}/{len(c.live)} | {fmt_execs(c.med_e, c.med_e_capped, cap)} | "
                f"{fmt_execs(c.p90_e, c.p90_e_capped, cap)} | {fmt_secs(c.med_s, c.med_s_capped)} | "
                f"{fmt_secs(c.p90_s, c.p90_s_capped)} | {c.rate:,.0f} | {verdicts} |\n")
        out("\n")


if __name__ == "__main__":
    main()
