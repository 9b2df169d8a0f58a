#!/usr/bin/env python3
"""Top frames of a JFR recording's execution samples: by thread kind, self (the running method) and inclusive.

Usage: bench/jfr_top.py RECORDING.jfr [N] [KIND]   (N rows per table, default 25; KIND: one thread kind's samples
only, e.g. stomp-connect, for the frames of a kind that the busiest kind hides)

JFR samples only threads running Java code; time in system calls shows under jdk.NativeMethodSample, which is
counted by thread kind too. Thread kinds are names with their trailing numbers cut ("users 1-7" -> "users").
"""

import collections
import re
import subprocess
import sys

FRAME = re.compile(r"^\s+(\S.*?)\s+line: \d+")
THREAD = re.compile(r'sampledThread = "(.*?)"')


def samples(recording, event):
    text = subprocess.run(["jfr", "print", "--events", event, "--stack-depth", "200", recording],
                          capture_output=True, text=True, check=True).stdout
    for chunk in text.split(event + " {")[1:]:
        thread = THREAD.search(chunk)
        frames = [m.group(1) for m in map(FRAME.match, chunk.splitlines()) if m]
        yield (thread.group(1) if thread else "?"), frames


def kind(thread):
    return re.sub(r"[\s#-]*\d+([-#]\d+)*$", "", thread).strip() or thread


def method(frame):
    return re.sub(r"\(.*", "", frame)


def table(title, counter, total, rows):
    print(f"\n{title} ({total} samples)\n")
    print("| share | frame |\n| ---: | --- |")
    for name, n in counter.most_common(rows):
        print(f"| {100 * n / total:.1f}% | `{name}` |")


def main():
    recording = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    only = sys.argv[3] if len(sys.argv) > 3 else None
    threads, own, inclusive = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    for thread, frames in samples(recording, "jdk.ExecutionSample"):
        if not frames or (only and kind(thread) != only):
            continue
        total += 1
        threads[kind(thread)] += 1
        own[method(frames[0])] += 1
        for name in {method(f) for f in frames}:
            inclusive[name] += 1
    native = collections.Counter(kind(t) for t, _ in samples(recording, "jdk.NativeMethodSample"))
    table("Java execution samples by thread", threads, total, rows)
    table("In native code (system calls, waits) by thread", native, max(sum(native.values()), 1), rows)
    table("Self", own, total, rows)
    table("Inclusive", inclusive, total, rows * 2)


if __name__ == "__main__":
    main()
