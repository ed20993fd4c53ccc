#!/usr/bin/env bash
# What ,sojourn costs where users work: WorkThroughput (geometric work of mean 100 and 1,000
# tokens between operations, capacity 1,024) at 1P/1C and 4P/1C for circular, lock-split and
# pht+slots=cas, each plain and with sojourn in one JMH run (so that each ratio is to the plain kind
# of the same run), rendered by OptionCostPage into docs/data/sojourn-cost-COMMIT.md: elements per
# second and CPU-seconds per million elements, each with the option's ratio; then the real async logger (AsyncLoggerRun, 5
# rounds, the counting appender) with circular and lock-split, plain and with sojourn, beside ABQ,
# into docs/data/async-logger-sojourn-COMMIT.md. From the repository root, after
#   mvn -B -ntp -q -pl jmh -am package -DskipTests -Djmh.smoke.skip=true
# About 4.5 minutes on 2 CPUs. Uses the newest JDK under /usr/lib/jvm, or JAVA if set.
set -euo pipefail
cd "$(dirname "$0")/.."
J=${JAVA:-$(ls -d /usr/lib/jvm/*/bin/java 2>/dev/null | sort -V | tail -1)}
J=${J:-java}
c=$(git rev-parse --short HEAD)
page=docs/data/sojourn-cost-$c.md
{
  echo "# What \`,sojourn\` costs where users work, commit \`$c\`"
  echo
  echo "$(nproc) CPUs, $("$J" -version 2>&1 | head -1), $(date -u +%Y-%m-%d): \`WorkThroughput\` (geometric"
  echo "work of mean 100 and 1,000 tokens between operations, capacity 1,024) at 1 producer/1 consumer and"
  echo "4/1 (5 threads: oversubscribed on 2 CPUs), each kind plain and with \`sojourn\` in one JMH run:"
  echo "elements taken per second and CPU-seconds per million elements (the benchmark threads'), medians"
  echo "over 2 forks of 3 one-second iterations, each with the option's ratio to the plain kind. The"
  echo "real client: [async-logger-sojourn-$c.md](async-logger-sojourn-$c.md). Command:"
  echo "\`bash jmh/sojourn-cost.sh\` ([regenerate.md](../regenerate.md#benchmarks))."
} > "$page"
for k in circular lock-split pht+slots=cas; do
  name=${k%+slots=cas}
  json=docs/data/sojourn-cost-$name-$c.json
  "$J" -jar jmh/target/benchmarks.jar 'WorkThroughput.p(1c1|4c1)$' -f 2 -wi 1 -i 3 -w 1 -r 1 \
      -p kind=$k,$k+sojourn -p capacity=1024 -p work=100,1000 -rf json -rff "$json" > /dev/null
  printf '\n## %s\n\n<!-- BEGIN OPTION-COST %s by dev.handoff.jmh.report.OptionCostPage: do not edit by hand -->\n<!-- END OPTION-COST %s -->\n' \
      "$k" "$name" "$name" >> "$page"
  "$J" -cp jmh/target/benchmarks.jar dev.handoff.jmh.report.OptionCostPage "$json" "$page" "$name" sojourn
done
"$J" -cp jmh/target/benchmarks.jar dev.handoff.jmh.clients.AsyncLoggerRun docs/data/async-logger-sojourn-$c.md \
    --rounds 5 --kinds abq,circular,circular+sojourn,lock-split,lock-split+sojourn --variants count
