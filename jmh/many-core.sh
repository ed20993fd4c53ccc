#!/usr/bin/env bash
# The many-core throughput run (docs/benchmarks.md, "Many cores"), on any many-core machine.
# From the project root:   bash jmh/many-core.sh OUTDIR
# Which Java and which jar, in this order:
#  - .device/run.sh exists (a runtime packed with the jar for a machine without a JDK: build the jar
#    here and run ../shared/device/prepare.sh, which writes .device/): it, with .device/benchmarks.jar;
#  - otherwise $JAVA_HOME/bin/java, or else `java` on the PATH, which must be Java 21 or newer, with
#    jmh/target/benchmarks.jar (build it first: mvn -B -ntp -q -pl jmh -am package -DskipTests
#    -Djmh.smoke.skip=true). The first lines of OUTDIR/log.txt name the Java and the jar used.
# It writes OUTDIR/work-SHAPE-wTOKENS.json per work shape and setting (WorkThroughput: work between
# operations, capacity WORK_CAPACITY), then OUTDIR/tp-SHAPE.json per no-work shape (HandoffThroughput;
# shapes in the order the goals need them, each run bounded by `timeout`, so that one that hangs costs
# its own shape only) and OUTDIR/log.txt with the machine;
# with WAIT_KINDS="pht:1024 pht:1024,search=probe ..." also OUTDIR/waits.md (parks per element);
# with ROUND_TRIP_KINDS="abq,sq,..." also OUTDIR/rt.json (RoundTrip, average time, and the
# machine's cache-line and wake round trips, MachineLimits: about 5 s per kind and 20 s more).
# with CLIENT_KINDS="abq,circular,..." also OUTDIR/async-logger.md and .json (the Log4j2 AsyncAppender
# client, AsyncLoggerRun, CLIENT_ROUNDS rounds, default 3: about 5 s per kind and round).
# Environment: KINDS (comma-separated, JMH names), SHAPES (space-separated; "" for none), WORK_SHAPES
# (space-separated; "" for none), WORK ("100 1000": mean tokens), WORK_CAPACITY (1024), SHAPE_LIMIT (s),
# JAVA_HOME (the JDK to use when there is no .device/run.sh).
# Back here: merge the JSON arrays into docs/data/many-core-COMMIT.json, write its .properties
# (machine, commit, command) and render with dev.handoff.jmh.report.ManyCorePage.
set -u
out=${1:?usage: many-core.sh OUTDIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
if [ -e .device/run.sh ]; then
  runner=.device/run.sh
  jar=.device/benchmarks.jar
else
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    runner=$JAVA_HOME/bin/java
  elif command -v java >/dev/null; then
    runner=$(command -v java)
  else
    echo "many-core.sh: no Java: set JAVA_HOME to a JDK 21 or newer, or put its java on the PATH" >&2
    exit 1
  fi
  # "17.0.9", "21", "25.0.3", or "1.8.0_402" for Java 8
  version=$("$runner" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -1)
  major=${version%%.*}
  [ "$major" = 1 ] && major=$(echo "$version" | cut -d. -f2)
  if ! [ "${major:-0}" -ge 21 ] 2>/dev/null; then
    echo "many-core.sh: $runner is Java ${version:-of unknown version}; the benchmarks need Java 21 or newer (set JAVA_HOME)" >&2
    exit 1
  fi
  jar=jmh/target/benchmarks.jar
  if [ ! -f "$jar" ]; then
    echo "many-core.sh: no $jar: build it first (mvn -B -ntp -q -pl jmh -am package -DskipTests -Djmh.smoke.skip=true)" >&2
    exit 1
  fi
fi
java=("$runner" -XX:+IgnoreUnrecognizedVMOptions --sun-misc-unsafe-memory-access=allow -Xms1g -Xmx4g)
times="-f 2 -wi 1 -w 1s -i 3 -r 500ms -to 20s"
kinds=${KINDS:-abq,lbq,sq,jox,jox-rendezvous,circular,circular+core=ring,circular+core=cells,lock-split,pht+slots=cas,pht+slots=cas+search=probe,pht+slots=cas+search=cursor,pipe}
# SynchronousQueue at 1P/50C once never finished an iteration on a 16-core machine: there it runs
# alone, after the others, into a file of its own
run_shape() {
  local shape=$1 list=$2 file=$3
  if [ "$shape" = p1c50 ] && [ "$list" != sq ] && [[ ",$list," == *,sq,* ]]; then
    list=$(echo ",$list," | sed 's/,sq,/,/; s/^,//; s/,$//')
    run_shape p1c50 "$list" "$file"
    run_shape p1c50 sq "${file%.json}-sq.json"
    return
  fi
  timeout ${SHAPE_LIMIT:-150} "${java[@]}" -jar "$jar" "HandoffThroughput.$shape\$" -p kind=$list $times -prof gc \
      -rf json -rff "$file" 2>&1 | grep --line-buffered -E '^# Parameters|handoffs:|Run complete|ERROR|Exception'
}
{
  echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "java $runner ($("$runner" -version 2>&1 | head -1)), jar $jar"; nproc
  lscpu | grep -E 'Model name|Socket|Core|Thread|NUMA node\(s\)'; free -g | head -2
  start=$(date +%s)
  for shape in ${WORK_SHAPES-p4c4 p8c8 p4c1 p1c4 p1c1}; do
    for tokens in ${WORK:-100 1000}; do
      timeout ${SHAPE_LIMIT:-150} "${java[@]}" -jar "$jar" "WorkThroughput.$shape\$" -p kind=$kinds \
          -p work=$tokens -p capacity=${WORK_CAPACITY:-1024} $times -prof gc -rf json -rff "$out/work-$shape-w$tokens.json" 2>&1 \
          | grep --line-buffered -E '^# Parameters|handoffs:|Run complete|ERROR|Exception'
      echo "== work $shape, $tokens tokens done at $(( $(date +%s) - start )) s"
    done
  done
  for shape in ${SHAPES-p4c4 p4c1slow p8c8 p1c4 p1c1 p1c50}; do
    run_shape "$shape" "$kinds" "$out/tp-$shape.json"
    echo "== $shape done at $(( $(date +%s) - start )) s"
  done
  if [ -n "${CLIENT_KINDS:-}" ]; then
    timeout ${CLIENT_LIMIT:-300} "${java[@]}" -cp "$jar" dev.handoff.jmh.clients.AsyncLoggerRun --kinds "$CLIENT_KINDS" \
        --rounds ${CLIENT_ROUNDS:-3} "$out/async-logger.md" 2>&1 | grep --line-buffered -E '^round|ERROR|Exception|FAIL'
    echo "== async logger done at $(( $(date +%s) - start )) s"
  fi
  if [ -n "${ROUND_TRIP_KINDS:-}" ]; then
    timeout ${RT_LIMIT:-150} "${java[@]}" -jar "$jar" 'latency\.(RoundTrip|MachineLimits)\.' \
        -p kind=$ROUND_TRIP_KINDS -bm avgt -tu ns -f 1 -wi 1 -w 1s -i 3 -r 1s -rf json -rff "$out/rt.json" 2>&1 \
        | grep --line-buffered -E '^# Parameters|^(RoundTrip|MachineLimits)|Run complete|ERROR|Exception'
    echo "== round trips done at $(( $(date +%s) - start )) s"
  fi
  # Parks, probes and conflicts per element (dev.handoff.WaitCounts): needs src/target/classes and
  # src/target/test-classes carried along (mvn -B -ntp -q -pl src test-compile here first)
  if [ -n "${WAIT_KINDS:-}" ] && [ -d src/target/test-classes ]; then
    timeout ${WAIT_LIMIT:-200} "${java[@]}" -cp src/target/test-classes:src/target/classes dev.handoff.WaitCounts $WAIT_KINDS \
        | tee "$out/waits.md"
    echo "== waits done at $(( $(date +%s) - start )) s"
  fi
} 2>&1 | tee "$out/log.txt"
