#!/usr/bin/env bash
# Installs the real servers the integration tests talk to (see docs/testing.md), idempotently:
#   nats-server, redis-server and chromium from Debian, mongo-java-server from Maven Central (+ the project's tiny main).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

missing=()
command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The floor plan's browser test drives Debian's chromium with playwright-core (never `playwright install`).
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-test-servers: apt-get install ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The Debian redis package starts a system-wide server on 6379; the tests start their own.
  (command -v systemctl >/dev/null 2>&1 && $sudo_cmd systemctl disable --now redis-server >/dev/null 2>&1) || true
fi

src="$root/packages/testkit/mongo-server"
cache="$root/.cache/mongo-java-server"
lib="$cache/lib"
if [ ! -f "$lib/mongo-java-server-core-1.47.0.jar" ] || [ ! -f "$lib/mongo-java-server-h2-backend-1.47.0.jar" ]; then
  echo "install-test-servers: fetching mongo-java-server 1.47.0 (memory and H2 backends) from Maven Central"
  mvn -B -q -f "$src/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$lib"
fi
if [ ! -f "$cache/classes/MongoTestServer.class" ] || [ "$src/MongoTestServer.java" -nt "$cache/classes/MongoTestServer.class" ] \
  || [ "$lib/mongo-java-server-h2-backend-1.47.0.jar" -nt "$cache/classes/MongoTestServer.class" ]; then
  mkdir -p "$cache/classes"
  javac -d "$cache/classes" -cp "$lib/*" "$src/MongoTestServer.java"
fi
# mailpit: the SMTP server (and HTTP API to read what arrived) the reminder tests send to (packages/testkit/src/mailpit.ts).
if [ ! -x "$root/.cache/go-bin/mailpit" ]; then
  echo "install-test-servers: go install github.com/axllent/mailpit@v1.33.1"
  GOBIN="$root/.cache/go-bin" go install github.com/axllent/mailpit@v1.33.1
fi
echo "install-test-servers: nats-server $(nats-server --version 2>&1 | head -1 | awk '{print $NF}'), redis-server $(redis-server --version | awk '{print $3}'), mongo-java-server 1.47.0"

# stripe-mock (garanzie's tests: Stripe's API with canned fixtures), built from source into .cache/go-bin.
STRIPE_MOCK_VERSION=v0.203.0
if [ ! -x "$root/.cache/go-bin/stripe-mock" ] || [ "$(cat "$root/.cache/go-bin/stripe-mock.version" 2>/dev/null)" != "$STRIPE_MOCK_VERSION" ]; then
  echo "install-test-servers: go install github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION"
  GOBIN="$root/.cache/go-bin" go install "github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION"
  echo "$STRIPE_MOCK_VERSION" > "$root/.cache/go-bin/stripe-mock.version"
fi
echo "install-test-servers: stripe-mock $STRIPE_MOCK_VERSION"
