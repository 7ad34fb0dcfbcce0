#!/usr/bin/env python3
"""tests/html_report.py BUILD CORPUS HISTORIES OUTDIR STRUCTURE/REPRODUCER... - the web
page of every golden failure, checked in a real browser (headless Chromium).

For each reproducer: NAME_buggy_replay --html writes the page on both scheduler
backends (byte-equal: the page is stable), --json gives the steps and operations
it must hold.  Chromium loads the page with #op=N (the page clicks operation N,
as a person would) and dumps the DOM after the script ran; the DOM must hold
every step and every operation, and the clicked operation must be highlighted in
every view it appears in: scenario, interleaving, history, explanation.  A few
screenshots go to OUTDIR as artifacts for a person.  The same for weft-check's
page of a history file.  Exit 77 (ctest SKIP) when chromium is not installed.
"""
import concurrent.futures
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
SHOT = {"counter", "spin_barrier", "blocking_queue"}   # screenshots kept: a few seconds each


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Dom(html.parser.HTMLParser):
    """Per section id: the elements carrying data-op, and which are highlighted."""

    def __init__(self):
        super().__init__()
        self.section = None
        self.steps = 0
        self.bars = 0
        self.rendered = False
        self.weak_items = 0   # weak reads / delayed commits listed (issue 18)
        self.weak_rows = 0    # and their steps marked in the lanes
        self.ops = {}   # (section, op) -> [highlighted?...]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "section":
            self.section = a.get("id")
        if tag == "body" and a.get("data-rendered") == "yes":
            self.rendered = True
        if tag == "tr" and "step" in cls and "data-step" in a:
            self.steps += 1
            self.weak_rows += "weak" in cls
        if tag == "li" and self.section == "weak-memory":
            self.weak_items += 1
        if "bar" in cls:
            self.bars += 1
        if "data-op" in a:
            self.ops.setdefault((self.section, int(a["data-op"])), []).append("hl" in cls)


def chromium(exe, profile, *args):
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
           "--disable-dev-shm-usage", "--user-data-dir=" + profile] + list(args)
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="disabled:")
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, timeout=60)
    if r.returncode != 0:
        fail("chromium exited %d on %s" % (r.returncode, args[-1]))
    return r.stdout.decode("utf-8")


def page_data(path):
    text = open(path, encoding="utf-8").read()
    start = text.index('<script type="application/json" id="weft-data">') + 47
    return json.loads(text[start:text.index("</script>", start)])


def check_dom(name, exe, profile, page, data, n_steps, n_ops, shot_dir):
    lin = data.get("lin")
    if lin:
        op = lin["prefix"][0] if lin["prefix"] else lin["stuck"]
    else:   # the first operation with a step of its own
        op = next((s["op"] for s in data.get("steps", []) if s["op"] >= 0), 0)
    url = "file://" + os.path.abspath(page) + "#op=%d" % op
    dom = Dom()
    dom.feed(chromium(exe, profile, "--dump-dom", url))
    if not dom.rendered:
        fail("%s: the page's script did not finish" % name)
    if dom.steps != n_steps:
        fail("%s: the DOM holds %d steps, the execution has %d" % (name, dom.steps, n_steps))
    if dom.bars != n_ops:
        fail("%s: the DOM holds %d operations, the history has %d" % (name, dom.bars, n_ops))
    n_weak = len(data["weak"]["items"]) if "weak" in data else 0
    weak_steps = len({w["step"] for w in data["weak"]["items"]}) if n_weak else 0
    if dom.weak_items != n_weak or dom.weak_rows != weak_steps:
        fail("%s: the DOM lists %d weak reads / delayed commits and marks %d steps; the data "
             "has %d on %d steps" % (name, dom.weak_items, dom.weak_rows, n_weak, weak_steps))
    views = {"history"}
    if data.get("scenario") is not None and any(c["op"] == op for t in data["scenario"] for c in t):
        views.add("scenario")
    if any(s["op"] == op for s in data.get("steps", [])):
        views.add("interleaving")
    if lin and (op in lin["prefix"] or op == lin["stuck"]):
        views.add("linearizability")
    for view in sorted(views):
        marks = dom.ops.get((view, op))
        if not marks or not all(marks):
            fail("%s: clicking operation %d did not highlight it in the %s view" % (name, op, view))
    others = [k for k, v in dom.ops.items() if k[1] != op and any(v)]
    if others:
        fail("%s: clicking operation %d highlighted others too: %s" % (name, op, others[:3]))
    if shot_dir:
        png = os.path.join(shot_dir, name + ".png")
        chromium(exe, profile, "--window-size=1100,900", "--screenshot=" + png, url)
        if not os.path.getsize(png):
            fail("%s: empty screenshot" % name)
    return sorted(views)


def replay_page(build, corpus, spec, out):
    structure = spec.split("/")[0]
    replay = os.path.join(build, structure + "_buggy_replay")
    inp = os.path.join(corpus, spec + ".bin")
    pages = []
    for backend in ("fiber", "pthread"):
        page = os.path.join(out, "%s.%s.html" % (structure, backend))
        env = dict(os.environ, WEFT_BACKEND=backend)
        r = subprocess.run([replay, "--quiet", "--expect=fail", "--html=" + page, inp], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode != 0:
            fail("%s: replay --html exited %d: %s" % (structure, r.returncode, r.stderr[-300:]))
        pages.append(open(page, "rb").read())
    if pages[0] != pages[1]:
        fail("%s: the page differs between the fiber and pthread backends" % structure)
    js = subprocess.run([replay, "--json", "--expect=fail", inp], stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL).stdout
    report = json.loads(js.decode("utf-8").splitlines()[0])
    os.rename(os.path.join(out, structure + ".fiber.html"), os.path.join(out, structure + ".html"))
    return os.path.join(out, structure + ".html"), len(report["interleaving"]), len(report["history"])


def main():
    if len(sys.argv) < 6:
        fail("usage: html_report.py BUILD CORPUS HISTORIES OUTDIR STRUCTURE/REPRODUCER...")
    build, corpus, histories, out = sys.argv[1:5]
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("SKIP: chromium is not installed (apt-get install chromium); .ci/run installs it")
        sys.exit(SKIP)
    os.makedirs(out, exist_ok=True)

    def one(spec):   # Chromium mostly waits at start-up: a few at once, each its own profile
        structure = spec.split("/")[0]
        with tempfile.TemporaryDirectory() as profile:
            page, n_steps, n_ops = replay_page(build, corpus, spec, out)
            views = check_dom(structure, exe, profile, page, page_data(page), n_steps, n_ops,
                              out if structure in SHOT else None)
        return "html_report: %s: %d steps, %d operations, highlight in %s" % (
            structure, n_steps, n_ops, ", ".join(views))

    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for line in pool.map(one, sys.argv[5:]):
            print(line)
    with tempfile.TemporaryDirectory() as profile:
        page = os.path.join(out, "weft_check.html")
        hist = os.path.join(histories, "queue_exercise_2.txt")
        r = subprocess.run([os.path.join(build, "weft-check"), "--quiet", "--html=" + page, hist],
                           stdout=subprocess.DEVNULL)
        if r.returncode != 1:
            fail("weft-check --html exited %d, not 1 (not linearizable)" % r.returncode)
        data = page_data(page)
        views = check_dom("weft_check", exe, profile, page, data, 0, len(data["history"]), out)
        print("html_report: weft-check page: %d operations, highlight in %s" %
              (len(data["history"]), ", ".join(views)))
    print("html_report: every page holds its steps and operations; screenshots in " + out)


if __name__ == "__main__":
    main()
