#!/usr/bin/env bash
# The many-core throughput run (docs/benchmarks.md, "Many cores"), for a many-core machine without a JDK.
# Here, from the project root: build the jar (mvn -B -ntp -q -pl jmh -am package -DskipTests
# -Djmh.smoke.skip=true) and run ../shared/device/prepare.sh, which packs a runtime and the jar into
# .device/. There, from the project root:   bash jmh/many-core.sh OUTDIR
# It writes OUTDIR/tp-SHAPE.json per shape (shapes in the order the goals need them, each run bounded
# by `timeout`, so that one that hangs costs its own shape only) and OUTDIR/log.txt with the machine;
# with WAIT_KINDS="pht:1024 pht:1024,search=probe ..." also OUTDIR/waits.md (parks per element);
# with ROUND_TRIP_KINDS="abq,sq,..." also OUTDIR/rt.json (RoundTrip, average time, and the
# machine's cache-line and wake round trips, MachineLimits: about 5 s per kind and 20 s more).
# Environment: KINDS (comma-separated, JMH names), SHAPES (space-separated), SHAPE_LIMIT (s).
# Back here: merge the JSON arrays into docs/data/many-core-COMMIT.json, write its .properties
# (machine, commit, command) and render with dev.handoff.jmh.report.ManyCorePage.
set -u
out=${1:?usage: many-core.sh OUTDIR}
cd "$(dirname "$0")/.."
java=".device/run.sh -XX:+IgnoreUnrecognizedVMOptions --sun-misc-unsafe-memory-access=allow -Xms1g -Xmx4g"
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
  timeout ${SHAPE_LIMIT:-150} $java -jar .device/benchmarks.jar "HandoffThroughput.$shape\$" -p kind=$list $times -prof gc \
      -rf json -rff "$file" 2>&1 | grep --line-buffered -E '^# Parameters|handoffs:|Run complete|ERROR|Exception'
}
{
  echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"; nproc
  lscpu | grep -E 'Model name|Socket|Core|Thread|NUMA node\(s\)'; free -g | head -2
  start=$(date +%s)
  for shape in ${SHAPES:-p4c4 p4c1slow p8c8 p1c4 p1c1 p1c50}; do
    run_shape "$shape" "$kinds" "$out/tp-$shape.json"
    echo "== $shape done at $(( $(date +%s) - start )) s"
  done
  if [ -n "${ROUND_TRIP_KINDS:-}" ]; then
    timeout ${RT_LIMIT:-150} $java -jar .device/benchmarks.jar 'latency\.(RoundTrip|MachineLimits)\.' \
        -p kind=$ROUND_TRIP_KINDS -bm avgt -tu ns -f 1 -wi 1 -w 1s -i 3 -r 1s -rf json -rff "$out/rt.json" 2>&1 \
        | grep --line-buffered -E '^# Parameters|^(RoundTrip|MachineLimits)|Run complete|ERROR|Exception'
    echo "== round trips done at $(( $(date +%s) - start )) s"
  fi
  # Parks, probes and conflicts per element (dev.handoff.WaitCounts): needs src/target/classes and
  # src/target/test-classes carried along (mvn -B -ntp -q -pl src test-compile here first)
  if [ -n "${WAIT_KINDS:-}" ] && [ -d src/target/test-classes ]; then
    timeout ${WAIT_LIMIT:-200} $java -cp src/target/test-classes:src/target/classes dev.handoff.WaitCounts $WAIT_KINDS \
        | tee "$out/waits.md"
    echo "== waits done at $(( $(date +%s) - start )) s"
  fi
} 2>&1 | tee "$out/log.txt"
