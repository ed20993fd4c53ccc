#!/usr/bin/env bash
# What the options cost: HandoffThroughput at 1P/1C and 4P/4C for each of circular, lock-split and
# pht+slots=cas, plain, with classes=2 and 4, with stats and with sojourn, one JMH run per kind
# (so that each ratio is to the plain kind of the same run), rendered by JmhTable into
# docs/data/option-cost-COMMIT.md. From the repository root, after
#   mvn -B -ntp -q -pl jmh -am package -DskipTests -Djmh.smoke.skip=true
# About 6 minutes on 2 CPUs. Uses the newest JDK under /usr/lib/jvm, or JAVA if set.
set -euo pipefail
cd "$(dirname "$0")/.."
J=${JAVA:-$(ls -d /usr/lib/jvm/*/bin/java 2>/dev/null | sort -V | tail -1)}
J=${J:-java}
c=$(git rev-parse --short HEAD)
page=docs/data/option-cost-$c.md
{
  echo "# What the options cost, commit \`$c\`"
  echo
  echo "$(nproc) CPUs, $("$J" -version 2>&1 | head -1), $(date -u +%Y-%m-%d): \`HandoffThroughput\` at 1 producer/1"
  echo "consumer and 4/4, each kind plain, with two and four importance classes (every element in the"
  echo "last class, so every take passes every class: the worst case), with \`stats\` and with \`sojourn\`."
  echo "Elements taken per second (the secondary score \`handoffs\`, JMH's mean and 99.9% error over 2"
  echo "forks of 3 one-second iterations) and the ratio to the plain kind in the same run. Command:"
  echo "\`bash jmh/option-cost.sh\` ([regenerate.md](../regenerate.md#benchmarks))."
} > "$page"
for k in circular lock-split pht+slots=cas; do
  name=${k%+slots=cas}
  json=docs/data/option-cost-$name-$c.json
  "$J" -jar jmh/target/benchmarks.jar 'HandoffThroughput.p(1c1|4c4)$' -f 2 -wi 2 -i 3 -w 1 -r 1 \
      -p kind=$k,$k+classes=2,$k+classes=4,$k+stats,$k+sojourn -rf json -rff "$json" > /dev/null
  printf '\n## %s\n\n<!-- BEGIN JMH-TABLE %s by dev.handoff.jmh.report.JmhTable: do not edit by hand -->\n<!-- END JMH-TABLE %s -->\n' \
      "$k" "$name" "$name" >> "$page"
  "$J" -cp jmh/target/benchmarks.jar dev.handoff.jmh.report.JmhTable "$json" "$page" "$name" handoffs
done
