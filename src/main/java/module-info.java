/**
 * Producer/consumer handoff primitives: a circular buffer, a lock-split queue, a parallel hash
 * table and a pipe handoff, each a drop-in {@link java.util.concurrent.BlockingQueue} behind the
 * {@link dev.handoff.Handoff} contract.
 */
module dev.handoff {
    exports dev.handoff;
}
