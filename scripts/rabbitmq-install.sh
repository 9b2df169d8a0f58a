#!/usr/bin/env bash
# RabbitMQ for the broker tests: Debian's rabbitmq-server (3.10 on Debian 12, with its Web-STOMP and management
# plugins), installed where the machine does not have it. The tests start a private node of their own from its
# scripts (src/test/java/io/github/sockjsstomp/broker/RabbitBroker.java), on free loopback ports, so the system
# service the package starts is stopped again: it is not what they use, and it would hold ports and memory.
set -euo pipefail

if [[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ]]; then
    exit 0
fi
if [[ $(id -u) -eq 0 ]]; then
    as_root=()
elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
    as_root=(sudo -n)
else
    echo "rabbitmq-install: RabbitMQ is not installed and installing it needs root:" \
        "run 'sudo apt-get install rabbitmq-server' (the broker tests start their own node from it)" >&2
    exit 1
fi
if ! command -v apt-get > /dev/null; then
    echo "rabbitmq-install: no apt-get here; install RabbitMQ 3.10+ so that /usr/lib/rabbitmq/bin/rabbitmq-server" \
        "exists (the broker tests start their own node from it)" >&2
    exit 1
fi
echo "rabbitmq-install: installing rabbitmq-server from Debian's packages (for the broker tests)"
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends rabbitmq-server \
    > /dev/null
# the package starts its service where it can; the tests run nodes of their own
if command -v service > /dev/null; then
    "${as_root[@]}" service rabbitmq-server stop > /dev/null 2>&1 || true
fi
test -x /usr/lib/rabbitmq/bin/rabbitmq-server
