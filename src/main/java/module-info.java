/**
 * Producer/consumer handoff primitives: a circular buffer, a lock-split queue, a parallel hash
 * table and a pipe handoff, each a drop-in {@link java.util.concurrent.BlockingQueue} behind the
 * {@link dev.handoff.Handoff} contract.
 *
 * <p>Observability needs no other library: every handoff emits the JFR events
 * {@code dev.handoff.Wait} (a blocked thread's park that lasted at least 10 ms) and, when built
 * with counting on, {@code dev.handoff.Stats} (its size and counters, every second) into any
 * running recording. {@link dev.handoff.micrometer.HandoffMetrics} binds a handoff to a Micrometer
 * registry; Micrometer is needed only by that package.
 */
module dev.handoff {
    requires jdk.jfr;
    requires static micrometer.core;

    exports dev.handoff;
    exports dev.handoff.micrometer;
}
