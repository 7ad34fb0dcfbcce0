#!/usr/bin/env python3
"""tests/gen_kv_history.py - seeded key-value histories in Jepsen's map-style EDN
(one map per line, the form weft-check --format=edn reads), with their verdicts.

A simulated store (one text per key, initially "") serves CLIENTS clients.  At
each step a random client moves: an idle client invokes get, put or append on a
random key; an invoked call takes effect (its linearization point: the store
changes, a get reads the text) or times out (:info, no effect) or is refused
(:fail, no effect); a call that took effect returns :ok, or sometimes :info
(the client never learns it worked).  A process that saw :info is retired and
the client continues as a new process, as in Jepsen.  So every history is
linearizable by construction: the effects happened in one order, each inside
its call's interval.

Every written value is a fresh piece "<N>", so texts decode uniquely.
An anomaly is a short pattern run on one key while no other call on that key
is in flight (other keys keep going), each call returning before the next is
invoked, so its verdict needs no search to be sure:
  stale-read      put x1; put x2; get -> x1      (x2 was overwritten by nothing)
  lost-append     put x0; append a; get -> x0    (the store acknowledged and lost a)
  duplicated-put  put x1; put x2; append z; get -> x1 z  (the store replayed put x1)
A pending (:info) call cannot explain them: no other call writes x0, x1 or z.
The linearizable variant runs the same pattern with the correct results.

The first line is an EDN comment with the verdict weft-check must give:
  ; expect-exit: 0 linearizable | ; expect-exit: 1 stale-read ...
The random generator is xorshift64* with the seed, so output never depends on
Python's version.

Usage: gen_kv_history.py [--seed S] [--clients C] [--ops N] [--keys K]
                         [--anomaly none|stale-read|lost-append|duplicated-put]
                         [--info P] [--fail P] [--sequential]
       gen_kv_history.py --suite DIR [--seed S]   (a set of files, see suite())
"""
import argparse
import os
import sys

ANOMALIES = ("none", "stale-read", "lost-append", "duplicated-put")


class Rand:
    """xorshift64*: the same numbers from every Python."""

    def __init__(self, seed):
        self.s = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF or 1

    def next(self):
        x = self.s
        x ^= x >> 12
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 27
        self.s = x
        return (x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF

    def below(self, n):
        return (self.next() >> 11) % n

    def chance(self, p):
        return (self.next() >> 11) / float(1 << 53) < p


def edn_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Sim:
    def __init__(self, args):
        self.r = Rand(args.seed)
        self.args = args
        self.store = {}
        self.lines = []
        self.pieces = 0
        self.clients = [{"proc": c, "call": None} for c in range(args.clients)]
        self.busy_keys = {}      # key -> calls in flight on it
        self.frozen = None       # the key an anomaly pattern owns

    def piece(self):
        self.pieces += 1
        return "<%d>" % self.pieces

    def emit(self, proc, typ, f, key, value):
        v = "nil" if value is None else edn_string(value)
        self.lines.append("{:process %d, :type :%s, :f :%s, :key %s, :value %s, :index %d}"
                          % (proc, typ, f, edn_string(key), v, len(self.lines)))

    def invoke(self, c, f, key, value):
        c["call"] = {"f": f, "key": key, "value": value, "done": False, "read": None}
        self.busy_keys[key] = self.busy_keys.get(key, 0) + 1
        self.emit(c["proc"], "invoke", f, key, value)

    def take_effect(self, call):
        key, text = call["key"], self.store.get(call["key"], "")
        if call["f"] == "get":
            call["read"] = text
        else:
            self.store[key] = call["value"] if call["f"] == "put" else text + call["value"]
        call["done"] = True

    def finish(self, c, typ):
        call = c["call"]
        value = call["value"]
        if call["f"] == "get":
            value = None if typ != "ok" or call["read"] == "" else call["read"]
        self.emit(c["proc"], typ, call["f"], call["key"], value)
        self.busy_keys[call["key"]] -= 1
        c["call"] = None
        if typ == "info":
            c["proc"] += len(self.clients)   # retired: a new process number

    def random_call(self, c):
        keys = ["k%d" % k for k in range(self.args.keys) if "k%d" % k != self.frozen]
        f = ("get", "put", "append")[self.r.below(3)]
        key = keys[self.r.below(len(keys))]
        self.invoke(c, f, key, None if f == "get" else self.piece())

    def step(self, c, invoke_more):
        call = c["call"]
        a = self.args
        if call is None:
            if invoke_more:
                self.random_call(c)
        elif not call["done"]:
            if self.r.chance(a.info):
                self.finish(c, "info")                      # timed out, no effect
            elif call["f"] != "get" and self.r.chance(a.fail):
                self.finish(c, "fail")                      # refused, no effect
            else:
                self.take_effect(call)
        else:
            self.finish(c, "info" if self.r.chance(a.info) else "ok")

    def run(self, n_ops, pattern_at):
        invoked = 0
        while invoked < n_ops or any(c["call"] for c in self.clients):
            if invoked == pattern_at:
                self.pattern()
                pattern_at = -1
            c = self.clients[self.r.below(len(self.clients))]
            if self.args.sequential:
                busy = [x for x in self.clients if x["call"]]
                c = busy[0] if busy else c
            before = c["call"]
            self.step(c, invoked < n_ops)
            invoked += before is None and c["call"] is not None
        if pattern_at >= 0:
            self.pattern()

    def settle(self, key):
        """Others run (on other keys) until no call on `key` is in flight."""
        self.frozen = key
        while self.busy_keys.get(key, 0):
            c = self.clients[self.r.below(len(self.clients))]
            self.step(c, self.args.keys > 1)

    def solo(self, f, key, value, read=None):
        """One call on `key`, invoked and returned while others keep working."""
        idle = [c for c in self.clients if c["call"] is None]
        while not idle:
            self.step(self.clients[self.r.below(len(self.clients))], False)
            idle = [c for c in self.clients if c["call"] is None]
        c = idle[self.r.below(len(idle))]
        self.invoke(c, f, key, value)
        for _ in range(self.r.below(3)):
            others = [x for x in self.clients if x is not c]
            if others:
                self.step(others[self.r.below(len(others))], self.args.keys > 1)
        self.take_effect(c["call"])
        if read is not None:
            c["call"]["read"] = read                          # the anomaly
        self.finish(c, "ok")

    def pattern(self):
        kind = self.args.anomaly
        key = "k%d" % self.r.below(self.args.keys)
        self.settle(key)
        wrong = kind != "none"
        x1, x2 = self.piece(), self.piece()
        self.solo("put", key, x1)
        choice = self.r.below(3) if kind == "none" else ANOMALIES.index(kind) - 1
        if choice == 0:     # stale read
            self.solo("put", key, x2)
            self.solo("get", key, None, x1 if wrong else None)
        elif choice == 1:   # lost append: the store acknowledges x2 and drops it
            self.solo("append", key, x2)
            if wrong:
                self.store[key] = x1
            self.solo("get", key, None)
        else:               # duplicated put: put x1 is applied again after put x2
            self.solo("put", key, x2)
            if wrong:
                self.store[key] = x1
            self.solo("append", key, self.piece())
            self.solo("get", key, None)
        self.frozen = None


def generate(args):
    sim = Sim(args)
    at = -1
    if args.anomaly != "none" or args.pattern:
        at = args.ops // 2 if args.ops else 0
    sim.run(args.ops, at)
    verdict = "0 linearizable" if args.anomaly == "none" else "1 " + args.anomaly
    return ["; expect-exit: %s (seed %d, %d clients, %d keys)"
            % (verdict, args.seed, args.clients, args.keys)] + sim.lines


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--clients", type=int, default=5)
    p.add_argument("--ops", type=int, default=100)
    p.add_argument("--keys", type=int, default=3)
    p.add_argument("--anomaly", choices=ANOMALIES, default="none")
    p.add_argument("--pattern", action="store_true",
                   help="run a correct pattern even without --anomaly")
    p.add_argument("--info", type=float, default=0.03, help="chance of :info per step")
    p.add_argument("--fail", type=float, default=0.03, help="chance of :fail per write")
    p.add_argument("--sequential", action="store_true", help="one call at a time")
    p.add_argument("--suite", metavar="DIR", help="write a set of histories into DIR")
    a = p.parse_args(argv)
    if not 1 <= a.clients <= 1000 or a.ops < 0 or a.keys < 1:
        p.error("want 1 <= --clients <= 1000, --ops >= 0, --keys >= 1")
    return a


def suite(args):
    """Every anomaly (and none) with 1, 5, 20 and 50 clients, seeds from --seed."""
    os.makedirs(args.suite, exist_ok=True)
    n = 0
    for clients, ops, keys in ((1, 40, 1), (5, 200, 3), (20, 400, 4), (50, 600, 5)):
        for anomaly in ANOMALIES:
            a = parse(["--seed", str(args.seed + n), "--clients", str(clients), "--ops",
                       str(ops), "--keys", str(keys), "--anomaly", anomaly, "--pattern"])
            name = "c%02d_%s_s%d.edn" % (clients, anomaly, a.seed)
            with open(os.path.join(args.suite, name), "w") as f:
                f.write("\n".join(generate(a)) + "\n")
            n += 1
    return 0


def main(argv):
    args = parse(argv)
    if args.suite:
        return suite(args)
    sys.stdout.write("\n".join(generate(args)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
