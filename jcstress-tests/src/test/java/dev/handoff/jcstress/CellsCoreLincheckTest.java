/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jcstress;


import dev.handoff.Handoff;
import dev.handoff.Handoffs;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.TimeUnit;
import kotlin.Unit;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.CustomScenarioDSLKt;
import org.jetbrains.kotlinx.lincheck.DSLThreadScenario;
import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the circular buffer's {@code core=cells} (capacity 2) against
 * {@link BlockingFifoSpec}: puts and takes that claim positions by fetch-and-add and meet at
 * cells must still look like one FIFO queue whose operations each take effect at one instant.
 *
 * <p>What holds, and is checked on every build:
 * <ul>
 *   <li>{@link OneProducerOneConsumer}: offer and poll, each side in one thread, model-checked
 *       and stressed; {@link OneProducerOneConsumerTimed}: with timed offers and polls of
 *       {@value #TIMEOUT_MICROS} us, which claim a position and may give it up, stressed;</li>
 *   <li>{@link Blocking}: put and take from both threads, in fixed scenarios in which no wait
 *       is endless (Lincheck reports such a wait as a failure, and random scenarios have them),
 *       model-checked and stressed;</li>
 *   <li>{@link ManyProducersManyConsumers}: offer and poll from both threads, model-checked and
 *       stressed, with three fixed histories that failed while a poll or an offer claimed a
 *       position it then gave back (a claim counted by another thread's emptiness or fullness
 *       check, or read in the wrong order); offer and poll now claim by CAS, and only a ready
 *       cell;</li>
 *   <li>{@link SizeWithOfferAndPoll}: the history in which size() counted such a poll.</li>
 * </ul>
 *
 * <p>{@link ManyProducersManyConsumersTimed}: timed offers and polls from both threads, stressed.
 * It found a timed poll that gave up at a slow put's position with an element behind it; a timed
 * poll or offer that runs out of time now makes one last non-blocking attempt.
 *
 * <p>Timed operations cannot be model-checked with Lincheck 2.34: its model checker replaces
 * {@code System.nanoTime()} with a clock that does not move, so a timed wait never expires and
 * the run is reported as hung.
 */
abstract class CellsCoreLincheckTest {

    /** The timed operations' timeout: short, so that they give up around their partners. */
    static final long TIMEOUT_MICROS = 20;

    final Handoff<Integer> handoff = Handoffs.create("circular:" + FifoSpec.CAPACITY + ",core=cells");

    boolean timedOffer(int e) throws InterruptedException {
        return handoff.offer(e, TIMEOUT_MICROS, TimeUnit.MICROSECONDS);
    }

    Integer timedPoll() throws InterruptedException {
        return handoff.poll(TIMEOUT_MICROS, TimeUnit.MICROSECONDS);
    }

    /** Stress mode: real threads, the interleavings the hardware gives, many invocations. */
    static StressOptions stress() {
        return new StressOptions()
                .iterations(Integer.getInteger("lincheck.iterations", 20))
                .invocationsPerIteration(Integer.getInteger("lincheck.invocations", 1_000))
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2);
    }

    static void modelCheck(Class<?> test) {
        LinCheckerKt.check(LincheckSupport.modelChecking().sequentialSpecification(BlockingFifoSpec.class), test);
    }

    static void stress(Class<?> test) {
        LinCheckerKt.check(stress().sequentialSpecification(BlockingFifoSpec.class), test);
    }

    /** One producer thread and one consumer thread (the non-parallel groups keep each side in one). */
    public static class OneProducerOneConsumer extends CellsCoreLincheckTest {
        @Operation(nonParallelGroup = "producer")
        public boolean offer(@Param(gen = IntGen.class, conf = "1:4") int e) {
            return handoff.offer(e);
        }

        @Operation(nonParallelGroup = "consumer")
        public Integer poll() {
            return handoff.poll();
        }

        @Test
        void modelChecked() {
            modelCheck(getClass());
        }

        @Test
        void stressed() {
            stress(getClass());
        }
    }

    /** The same, with timed offers and polls that claim their position first and may give it up. */
    public static class OneProducerOneConsumerTimed extends CellsCoreLincheckTest {
        @Operation(nonParallelGroup = "producer")
        public boolean offer(@Param(gen = IntGen.class, conf = "1:4") int e) {
            return handoff.offer(e);
        }

        @Operation(nonParallelGroup = "producer")
        public boolean offerTimed(@Param(gen = IntGen.class, conf = "1:4") int e) throws InterruptedException {
            return timedOffer(e);
        }

        @Operation(nonParallelGroup = "consumer")
        public Integer poll() {
            return handoff.poll();
        }

        @Operation(nonParallelGroup = "consumer")
        public Integer pollTimed() throws InterruptedException {
            return timedPoll();
        }

        @Test
        void stressed() {
            stress(getClass());
        }
    }

    /**
     * put and take from both threads, in fixed scenarios where every wait ends: no thread takes
     * more than the two threads put in all, and no put finds the buffer full for good.
     */
    public static class Blocking extends CellsCoreLincheckTest {
        @Operation
        public boolean offer(int e) {
            return handoff.offer(e);
        }

        @Operation
        public void put(int e) throws InterruptedException {
            handoff.put(e);
        }

        @Operation
        public Integer take() throws InterruptedException {
            return handoff.take();
        }

        /** Three puts into two cells against three takes: the third put waits for room, takes for puts. */
        static ExecutionScenario producerConsumer() {
            return scenario(Blocking.class, List.of(), List.of(op("put", 1), op("put", 2), op("put", 3)),
                    List.of(op("take"), op("take"), op("take")));
        }

        /** From full, each thread takes, puts and takes: the puts wait for room a lap ahead. */
        static ExecutionScenario takePutTakeFromFull() {
            return scenario(Blocking.class, List.of(op("offer", 1), op("offer", 2)),
                    List.of(op("take"), op("put", 3), op("take")),
                    List.of(op("take"), op("put", 4), op("take")));
        }

        /** From empty, thread 1's take waits for thread 2's puts, the second of which may wait for room. */
        static ExecutionScenario takeWaitsForTheOther() {
            return scenario(Blocking.class, List.of(),
                    List.of(op("take"), op("put", 1)),
                    List.of(op("put", 2), op("put", 3), op("take")));
        }

        @Test
        void modelChecked() {
            LinCheckerKt.check(LincheckSupport.modelChecking().iterations(0)
                    .addCustomScenario(producerConsumer())
                    .addCustomScenario(takePutTakeFromFull())
                    .addCustomScenario(takeWaitsForTheOther())
                    .sequentialSpecification(BlockingFifoSpec.class), getClass());
        }

        @Test
        void stressed() {
            LinCheckerKt.check(stress().iterations(0)
                    .addCustomScenario(producerConsumer())
                    .addCustomScenario(takePutTakeFromFull())
                    .addCustomScenario(takeWaitsForTheOther())
                    .sequentialSpecification(BlockingFifoSpec.class), getClass());
        }
    }

    /**
     * size() reads the put count, the take count and the skew one after the other, so while a
     * poll is under way it may count that poll's position as taken: here thread 1's poll claims
     * position 1 and gives it back (no put there yet), while thread 2 polls 3, offers 3 and reads
     * size 0 with 3 inside.
     */
    public static class SizeWithOfferAndPoll extends CellsCoreLincheckTest {
        @Operation
        public boolean offer(int e) {
            return handoff.offer(e);
        }

        @Operation
        public Integer poll() {
            return handoff.poll();
        }

        @Operation
        public int size() {
            return handoff.size();
        }

        /**
         * The history that showed a poll's claim in size() before offer and poll claimed by CAS
         * (a poll then claimed an empty position and gave it back): it must now pass.
         */
        @Test
        void sizeNoLongerCountsAPollThatFindsNothing() {
            LinCheckerKt.check(LincheckSupport.modelChecking().iterations(0)
                    .invocationsPerIteration(5_000)
                    .addCustomScenario(scenario(getClass(), List.of(op("offer", 3)), List.of(op("poll")),
                            List.of(op("poll"), op("offer", 3), op("size"))))
                    .sequentialSpecification(BlockingFifoSpec.class), getClass());
        }
    }

    /** offer and poll from both threads, with the histories that failed before offer and poll claimed by CAS. */
    public static class ManyProducersManyConsumers extends CellsCoreLincheckTest {
        @Operation
        public boolean offer(@Param(gen = IntGen.class, conf = "1:4") int e) {
            return handoff.offer(e);
        }

        @Operation
        public Integer poll() {
            return handoff.poll();
        }

        @Test
        void modelChecked() {
            modelCheck(getClass());
        }

        @Test
        void stressed() {
            stress(getClass());
        }

        private void check(ExecutionScenario scenario) {
            LinCheckerKt.check(LincheckSupport.modelChecking().iterations(0).invocationsPerIteration(5_000)
                    .addCustomScenario(scenario).sequentialSpecification(BlockingFifoSpec.class), getClass());
        }

        @Test
        void pollFindsNothingInABufferNeverEmpty() {
            check(scenario(getClass(), List.of(op("offer", 3)), List.of(op("offer", 2), op("poll")),
                    List.of(op("poll"))));
        }

        @Test
        void pollFindsNothingWithAnElementInside() {
            check(scenario(getClass(), List.of(op("offer", 2)), List.of(op("poll")),
                    List.of(op("poll"), op("offer", 3), op("poll"))));
        }

        @Test
        void offerRefusedWithRoom() {
            check(scenario(getClass(), List.of(op("offer", 3)),
                    List.of(op("offer", 3), op("poll"), op("offer", 2)), List.of(op("offer", 3))));
        }
    }

    /** Timed offers and polls from both threads: see the class notes. */
    public static class ManyProducersManyConsumersTimed extends CellsCoreLincheckTest {
        @Operation
        public boolean offer(@Param(gen = IntGen.class, conf = "1:4") int e) {
            return handoff.offer(e);
        }

        @Operation
        public boolean offerTimed(@Param(gen = IntGen.class, conf = "1:4") int e) throws InterruptedException {
            return timedOffer(e);
        }

        @Operation
        public Integer poll() {
            return handoff.poll();
        }

        @Operation
        public Integer pollTimed() throws InterruptedException {
            return timedPoll();
        }

        @Test
        void stressed() {
            stress(getClass());
        }
    }

    // ---- fixed scenarios with arguments (LincheckSupport.scenario takes none) ----

    record Op(String name, List<Object> args) {
    }

    static Op op(String name, Object... args) {
        return new Op(name, List.of(args));
    }

    static ExecutionScenario scenario(Class<?> test, List<Op> initial, List<Op> thread1, List<Op> thread2) {
        return CustomScenarioDSLKt.scenario(builder -> {
            builder.initial(part -> add(part, test, initial));
            builder.parallel(threads -> {
                threads.thread(part -> add(part, test, thread1));
                threads.thread(part -> add(part, test, thread2));
                return Unit.INSTANCE;
            });
            return Unit.INSTANCE;
        });
    }

    private static Unit add(DSLThreadScenario part, Class<?> test, List<Op> ops) {
        for (Op op : ops) {
            part.add(new Actor(method(test, op), op.args(), false, false, false, false, false));
        }
        return Unit.INSTANCE;
    }

    private static Method method(Class<?> test, Op op) {
        for (Method m : test.getMethods()) {
            if (m.getName().equals(op.name()) && m.getParameterCount() == op.args().size()) {
                return m;
            }
        }
        throw new IllegalArgumentException("no operation " + op.name() + "/" + op.args().size() + " in " + test);
    }
}
