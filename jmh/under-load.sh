#!/usr/bin/env bash
# Every kind side by side under load (docs/benchmarks.md, "Under load"): PairedThroughput with
# BUSY busy-looping threads beside every window (default: as many as CPUs), with put/take and with
# the timed offer/poll, at 1P/1C and 4P/4C; the yardstick is the lock core of circular. Small
# capacities (4, and 5 slots for the hash table), so that producers and consumers wait and the
# waiting, not the buffer, decides: the buffered kinds with 1024 places hardly wait at all.
# From the project root, after `mvn -B -ntp -q -pl jmh -am package -DskipTests -Djmh.smoke.skip=true`:
#   bash jmh/under-load.sh OUTFILE.md [JAR]
# OUTFILE.md is markdown: one section per shape, operations and load, each holding
# PairedThroughput's own table (ratios to the first kind, window by window).
# About 6 minutes on 2 CPUs. JAR defaults to jmh/target/benchmarks.jar, so that an older build's
# jar can be measured with the same command. The JDK is the one the build used (JAVA, or the
# newest under /usr/lib/jvm).
set -euo pipefail
out=${1:?usage: under-load.sh OUTFILE [JAR]}
jar=${2:-jmh/target/benchmarks.jar}
cd "$(dirname "$0")/.."
java=${JAVA:-$(ls -d /usr/lib/jvm/*/bin/java 2>/dev/null | sort -V | tail -1)}
busy=${BUSY:-$(nproc)}
kinds=${KINDS:-circular:4 circular:4+core=ring circular:4+core=cells lock-split:4 pht:5 pipe:4}
{
  echo "# Every kind under load"
  echo
  echo "Written by \`bash jmh/under-load.sh\` on commit \`$(git rev-parse --short HEAD)\`, $(nproc) CPUs,"
  echo "$($java -version 2>&1 | head -1), jar \`$jar\`; ratios are to the first kind, window by window."
  for ops in "" --timed; do
    for shape in p1c1 p4c4; do
      for load in 0 "$busy"; do
        echo
        label="put/take"; [ -n "$ops" ] && label="timed offer/poll"
        echo "## $shape, $label, $load busy threads"
        echo
        echo '```'
        $java -Xmx1g -cp "$jar" dev.handoff.jmh.throughput.PairedThroughput --shape $shape --window-ms 200 \
            --rounds ${ROUNDS:-8} --forks 1 --busy $load $ops $kinds 2>&1 | grep -v '^$'
        echo '```'
      done
    done
  done
} | tee "$out"
