# jmeter-sockjs-stomp: build, test and demo. README.md documents the two entry points: `make demo`, `make test`.
SHELL := /bin/bash
MVN ?= mvn
MVN_FLAGS ?= -B -ntp
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: all build release jmeter venv rabbitmq test test-java test-python test-style test-shell demo demo-distributed server bench-client bench-generator bench-timing-log bench-wire bench-analysis bench-home gui-check clean

all: build

## build: the plugin jar, target/jmeter-sockjs-stomp-<version>.jar (unit tests skipped)
build:
	$(MVN) $(MVN_FLAGS) -DskipTests package

## release: what a Maven Central release needs, staged as a Maven repository in target/staging: the jar, the pom
## that declares no dependencies, the sources and javadoc jars, their checksums. From a clean build, with every test
## `mvn verify` runs (RELEASE_FLAGS adds Maven options). Signing and the upload are the maintainer's (docs/releasing.md).
release: rabbitmq
	$(MVN) $(MVN_FLAGS) -Prelease clean deploy -DaltDeploymentRepository=staging::file://$(CURDIR)/target/staging \
		$(RELEASE_FLAGS)
	@echo "release: staged in target/staging:"; cd target/staging && find . -type f | sort

## jmeter: a JMeter 5.6.3 home in target/jmeter from Maven Central, with the plugin and jmeter-config/ applied
jmeter: build
	bash scripts/jmeter-home.sh

## venv: the Python environment of analysis/
$(VENV)/.installed: analysis/pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e 'analysis[dev]'
	touch $@

venv: $(VENV)/.installed

## test: every test, Java (unit + integration against the demo server and a real JMeter) and Python, ShellCheck
## over every shell script, and the formatter and style checks `mvn verify` runs. The Python side (its environment
## made on a clean clone, then its tests: over a minute), ShellCheck, then the formatter and style checks, run beside
## Maven's tests, whose integration tests leave
## part of the CPU idle (the checks would otherwise come after the last of them: 20 s on a clean clone); their
## output follows Maven's, and any failing fails the target.
test:
	@mkdir -p target
	@{ $(MAKE) --no-print-directory test-python; py=$$?; $(MAKE) --no-print-directory test-shell; sh=$$?; \
		$(MAKE) --no-print-directory test-style && exit $$((py | sh)); } \
		> target/test-beside.log 2>&1 & beside=$$!; \
	$(MAKE) --no-print-directory test-java MVN_VERIFY_FLAGS="$(NO_STYLE)"; java=$$?; \
	wait $$beside; other=$$?; \
	echo "== make test-python test-shell test-style (beside test-java): exit $$other"; cat target/test-beside.log; \
	test $$java -eq 0 && test $$other -eq 0

## the checks `mvn verify` runs after the integration tests, skipped there when test-style runs them beside
NO_STYLE := -Dspotless.check.skip=true -Dcheckstyle.skip=true

test-java: rabbitmq
	$(MVN) $(MVN_FLAGS) verify $(MVN_VERIFY_FLAGS)

## rabbitmq: Debian's RabbitMQ where it is missing (root or sudo): the broker tests start private nodes from it
rabbitmq:
	bash scripts/rabbitmq-install.sh

test-style:
	$(MVN) $(MVN_FLAGS) -q spotless:check checkstyle:check

## test-shell: ShellCheck (from the Python environment) over every shell script the project keeps, sourced files
## followed; the list is git's, so a new script is checked without being named here
test-shell: venv
	$(VENV)/bin/shellcheck -x $$(git ls-files '*.sh' .ci/run jmeter-home/bin/jmeter)

## test-python: analysis/'s tests and the benchmark tree's (the arithmetic that turns counters into figures), both
## held to ruff's rules and formatter (bench/ruff.toml: analysis/'s rules)
test-python: venv
	$(VENV)/bin/ruff check analysis bench
	$(VENV)/bin/ruff format --check analysis bench
	$(VENV)/bin/pytest -q analysis/tests
	$(VENV)/bin/pytest -q bench/tests

## demo: the main job: a real load test of the embedded demo server, ending in the aggregated report
demo: jmeter venv
	bash scripts/demo.sh

## demo-distributed: two JMeter engines on loopback run send.jmx, then the per-engine and merged report
demo-distributed: jmeter venv
	bash scripts/demo-distributed.sh

## server: the demo server alone, on port 8080 (PORT=0 for a random one)
server:
	bash scripts/demo-server.sh --port $${PORT:-8080}

## bench-client: JMeter CPU and memory per message against the demo server (see bench/client-cost.sh)
bench-client: jmeter
	bash bench/client-cost.sh

## bench-generator: generator cost next to the incumbent WebSocket Samplers plugin (bench/README.md), ~15 min
bench-generator: jmeter
	python3 bench/generator_efficiency.py

## bench-wire: the timing log's latencies against a loopback packet capture (needs tcpdump), ~2 min
bench-wire: jmeter
	python3 bench/wire_check.py

## bench-timing-log: JMH, the timing log's sustained records/s and a sender's cost per record
bench-timing-log:
	bash bench/timing-log.sh

## bench-home: COMMIT=<rev>: the JMeter home of another commit in target/bench-homes/<rev> (its plans in jmx/ there),
## built in a temporary worktree: the "before" side of an A/B (HOME_before=target/bench-homes/<rev>, bench/README.md)
bench-home:
	@test -n "$(COMMIT)" || { echo "make bench-home COMMIT=<rev>" >&2; exit 2; }
	bash bench/build-home.sh $(COMMIT)

## bench-analysis: 10 and 100 million timing records through analysis/ (13 GB under /tmp, removed at the end),
## next to JMeter's own dashboard generator
bench-analysis: jmeter venv
	$(PY) bench/analysis/bench_aggregate.py --records 10000000 --records 100000000 --phases --clean

## gui-check: JMeter's GUI under Xvfb (needs xvfb, xdotool, imagemagick): echo.jmx run from the GUI against the demo
## server, fails unless every message is answered; screenshots in target/gui-check (manual check, not in `make test`)
gui-check: jmeter
	bash scripts/gui-check.sh

clean:
	$(MVN) $(MVN_FLAGS) -q clean
	rm -rf $(VENV) results
