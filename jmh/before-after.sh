#!/usr/bin/env bash
# Each kind of this build against the same kind of an earlier build, side by side in one
# PairedThroughput run (alternating windows, a JVM per queue), at 1P/1C and 4P/4C.
# From the project root, after `mvn -B -ntp -q -pl jmh -am package -DskipTests -Djmh.smoke.skip=true`
# here and in a checkout of the earlier commit:
#   bash jmh/before-after.sh BEFORE_JAR OUTFILE.md
# About 5 minutes on 2 CPUs. Ratios are this build's over the earlier one's.
# KINDS, SHAPES (default p1c1 p4c4), ROUNDS and FORKS choose the runs; BASELINE names a queue run
# first in each (abq, say), so that both builds' ratios to it are shown too.
set -euo pipefail
before=${1:?usage: before-after.sh BEFORE_JAR OUTFILE.md}
out=${2:?usage: before-after.sh BEFORE_JAR OUTFILE.md}
cd "$(dirname "$0")/.."
java=${JAVA:-$(ls -d /usr/lib/jvm/*/bin/java 2>/dev/null | sort -V | tail -1)}
kinds=${KINDS:-circular circular+core=ring lock-split pht pipe}
{
  echo "# This build against $before"
  echo
  echo "Written by \`KINDS='$kinds' SHAPES='${SHAPES:-p1c1 p4c4}' BASELINE='${BASELINE:-}' ROUNDS=${ROUNDS:-10}"
  echo "FORKS=${FORKS:-1} bash jmh/before-after.sh\` on commit \`$(git rev-parse --short HEAD)\`, $(nproc) CPUs,"
  echo "$($java -version 2>&1 | head -1); each table: ${BASELINE:+$BASELINE, then }the earlier build, then this one;"
  echo "ratios are to the first row."
  for shape in ${SHAPES:-p1c1 p4c4}; do
    for kind in $kinds; do
      echo
      echo "## $kind, $shape"
      echo
      echo '```'
      $java -Xmx1g -cp jmh/target/benchmarks.jar dev.handoff.jmh.throughput.PairedThroughput --shape $shape \
          --window-ms 200 --rounds ${ROUNDS:-10} --forks ${FORKS:-1} ${BASELINE:-} "$kind@$before" "$kind" \
          2>&1 | grep -v '^$'
      echo '```'
    done
  done
} | tee "$out"
