#!/usr/bin/env python3
"""What JMeter charges a Java Request sample for its argument list, apart from any client.

One JMeter thread loops a Java Request whose client does nothing (ArgumentCostProbe, bench code in bench/java on
JMeter's user.classpath) under an argument list taken from a plan's sampler; the probe prints its thread's CPU per
sample after a warm-up. No network, no server: the figure is JMeter's own per-sample work (the arguments evaluated
into a JavaSamplerContext, the running version restored, the summariser told), deterministic enough to compare
argument lists that broker runs cannot tell apart. Two measures:

  warm      one thread, WARM_UP (200000) samples, then the thread's CPU per sample over SAMPLES (500000) more:
            what each sample costs once the JIT is done
  cold      COLD_THREADS (15) threads x COLD_LOOPS (1000) samples in a fresh JVM, the process's CPU (user+system,
            all threads: the JIT's too) less that of a run of one sample without arguments, per sample: what a
            connect test's one sample per user costs, where each thread samples only as often as it has users

Variants, alternating, medians of ROUNDS (3):

  none      no arguments at all
  listed    the sampler's arguments as the plan writes them (${__P(name,default)} each)
  literal   the same names with their defaults as plain values (no function to evaluate)
  short     the listed arguments without those named in SHORT_DROP (default: the session sampler's parameters a
            plan sets least: login by form, CSRF or bearer token, users file, CONNECT and SUBSCRIBE headers, the ack
            settings, silent sessions, server figures)

Usage: bench/argument_cost.py [warm] [cold]   (default both; env: OURS_HOME (target/jmeter), PLAN (jmx/connect.jmx), SAMPLER (session),
       VARIANTS ("none listed literal short"), ROUNDS (3), WARM_UP (200000), SAMPLES (500000))
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import common  # the plans' argument elements, OURS_HOME

ROOT, OURS_HOME = common.ROOT, common.OURS_HOME
PLAN = ROOT / os.environ.get("PLAN", "jmx/connect.jmx")
SAMPLER = os.environ.get("SAMPLER", "session")
VARIANTS = os.environ.get("VARIANTS", "none listed literal short").split()
ROUNDS = int(os.environ.get("ROUNDS", "3"))
WARM_UP, SAMPLES = int(os.environ.get("WARM_UP", "200000")), int(os.environ.get("SAMPLES", "500000"))
COLD_THREADS, COLD_LOOPS = int(os.environ.get("COLD_THREADS", "15")), int(os.environ.get("COLD_LOOPS", "1000"))
SHORT_DROP = os.environ.get("SHORT_DROP", "formLoginPath csrfPath bearerToken bearerOnConnect usersFile connectHeaders "
                            "subscribeHeaders ack ackEvery consumeMillis nackShare silentAfterSeconds silentShare "
                            "serverFigures serverFiguresMillis serverFiguresLog").split()

PROPERTY = re.compile(r'\$\{__P\((\w+),(.*)\)\}$')
RESULT = re.compile(r"argument cost: (\d+) arguments, \d+ samples, ([\d.]+) us per sample")

PLAN_TEMPLATE = """<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
  <hashTree>
    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="argument cost probe"/>
    <hashTree>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="probe">
        <stringProp name="ThreadGroup.num_threads">{threads}</stringProp>
        <stringProp name="ThreadGroup.ramp_time">0</stringProp>
        <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" testname="Loop Controller">
          <stringProp name="LoopController.loops">{loops}</stringProp>
          <boolProp name="LoopController.continue_forever">false</boolProp>
        </elementProp>
      </ThreadGroup>
      <hashTree>
        <JavaSampler guiclass="JavaTestSamplerGui" testclass="JavaSampler" testname="{sampler}">
          <elementProp name="arguments" elementType="Arguments" guiclass="ArgumentsPanel" testclass="Arguments">
            <collectionProp name="Arguments.arguments">{arguments}
            </collectionProp>
          </elementProp>
          <stringProp name="classname">io.github.sockjsstomp.bench.arguments.ArgumentCostProbe</stringProp>
        </JavaSampler>
        <hashTree/>
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>
"""


def literal(element):
    """An argument element with its ${__P(name,default)} value replaced by the default (a nested function: 1000)."""
    def plain(value):
        match = PROPERTY.match(value.group(1))
        default = match.group(2) if match else value.group(1)
        return f'<stringProp name="Argument.value">{"1000" if "${" in default else default}</stringProp>'
    return re.sub(r'<stringProp name="Argument.value">(.*?)</stringProp>', plain, element)


def variant_arguments(variant):
    found = common.sampler_arguments(PLAN, SAMPLER)
    if variant == "none":
        return ""
    if variant == "listed":
        return "".join(m.group(0) for m in found)
    if variant == "literal":
        return "".join(literal(m.group(0)) for m in found)
    if variant == "short":
        return "".join(m.group(0) for m in found if m.group(1) not in SHORT_DROP)
    sys.exit(f"unknown variant {variant}: none, listed, literal or short")


def jmeter(plan, out, name, probe_samples):
    """A non-GUI run of `plan`: its console and the CPU (user+system) the JMeter process took, in seconds."""
    command = [str(OURS_HOME / "bin/jmeter"), "-n", "-t", str(plan), "-j", str(out / f"{name}.log"),
               f"-Juser.classpath={ROOT / 'target/test-classes'}", f"-JprobeWarmUp={WARM_UP}",
               f"-JprobeSamples={probe_samples}"]
    with open(out / f"{name}.console.txt", "w+") as console:
        process = subprocess.Popen(command, stdout=console, stderr=subprocess.STDOUT, cwd=out)
        _, status, usage = os.wait4(process.pid, 0)
        console.seek(0)
        text = console.read()
    if status != 0:
        sys.exit(f"{name}: JMeter exited with {status}\n{text[-3000:]}")
    return text, usage.ru_utime + usage.ru_stime


def plan(variant, out, name, threads, loops):
    path = out / f"{name}.jmx"
    path.write_text(PLAN_TEMPLATE.format(threads=threads, loops=loops, sampler=SAMPLER,
                                         arguments=variant_arguments(variant)))
    return path


def warm(variant, out):
    """The JMeter thread's CPU per sample after the warm-up, as the probe prints it; the arguments it saw."""
    text, _ = jmeter(plan(variant, out, f"warm-{variant}", 1, WARM_UP + SAMPLES + 10), out, f"warm-{variant}", SAMPLES)
    match = RESULT.search(text)
    if not match:
        sys.exit(f"{variant}: no probe figure\n{text[-3000:]}")
    return int(match.group(1)), float(match.group(2))


def cold(variant, out, start_cpu):
    """The process's CPU per sample for COLD_THREADS x COLD_LOOPS samples from a fresh JVM, less `start_cpu`."""
    name = f"cold-{variant}"
    _, cpu = jmeter(plan(variant, out, name, COLD_THREADS, COLD_LOOPS), out, name, 10**12)
    return len(common.ARGUMENT.findall(variant_arguments(variant))) + 1, (cpu - start_cpu) / (COLD_THREADS * COLD_LOOPS) * 1e6


def table(title, figures, arguments):
    base = statistics.median(figures[VARIANTS[0]])
    print(f"\n{title}")
    print("| variant | arguments (with JavaSampler's name) | us per sample | by round | less the first |")
    print("| --- | ---: | ---: | --- | ---: |")
    for variant in VARIANTS:
        median = statistics.median(figures[variant])
        print(f"| {variant} | {arguments[variant]} | {median:.2f} | {', '.join(f'{x:.2f}' for x in figures[variant])} "
              f"| {median - base:+.2f} |")


def main():
    modes = sys.argv[1:] or ["warm", "cold"]
    if set(modes) - {"warm", "cold"}:
        sys.exit(__doc__)
    subprocess.run(["mvn", "-B", "-ntp", "-q", "-DskipTests", "test-compile"], cwd=ROOT, check=True)
    out = Path(tempfile.mkdtemp(prefix="argument-cost-"))
    for mode in modes:
        figures, arguments, starts = {v: [] for v in VARIANTS}, {}, []
        for round_no in range(1, ROUNDS + 1):
            if mode == "cold":
                starts.append(jmeter(plan("none", out, "start", 1, 1), out, "start", 10**12)[1])
            for variant in VARIANTS:
                arguments[variant], us = warm(variant, out) if mode == "warm" else cold(variant, out, starts[-1])
                figures[variant].append(us)
                print(f"{mode} round {round_no} {variant}: {arguments[variant]} arguments, {us:.2f} us per sample",
                      flush=True)
        if mode == "warm":
            title = f"warm: {PLAN.name} sampler {SAMPLER}, {SAMPLES} samples after {WARM_UP}, medians of {ROUNDS} rounds"
        else:
            title = (f"cold: {PLAN.name} sampler {SAMPLER}, {COLD_THREADS} threads x {COLD_LOOPS} samples from a fresh "
                     f"JVM, less a one-sample run's {statistics.median(starts):.2f} s, medians of {ROUNDS} rounds")
        table(f"{title} ({out})", figures, arguments)


if __name__ == "__main__":
    main()
