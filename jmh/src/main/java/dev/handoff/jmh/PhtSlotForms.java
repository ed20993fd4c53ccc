/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The parallel hash table's two slot forms against each other: the papers' monitor per slot
 * ({@code slots=monitor}) and the lock-free VarHandle array ({@code slots=cas}). Same table, same
 * algorithm, only the slot differs. The score to read is {@code taken}: elements handed over per
 * microsecond.
 *
 * <p>{@code single} is one thread alternating a non-blocking offer and poll: the uncontended cost
 * of the two operations. {@code p1c1} and {@code p1c3} (the papers' shape: one producer, several
 * consumers) use the timed blocking {@code offer}/{@code poll} with a 10 ms timeout, so a side
 * that cannot proceed parks and gives its CPU to the other side (on a machine with more threads
 * than CPUs a spinning {@code offer}/{@code poll} measures the scheduler: each side fills or
 * empties the table in its own time slice and then fails until the next one); the timeout only
 * lets an iteration end while a side is blocked. Calls that time out are counted
 * ({@code fullOffers}, {@code emptyPolls}), so a form that is fast because it fails shows up.
 *
 * <pre>
 * mvn -B -q -pl src,jmh -am package -DskipTests -Djmh.smoke.skip=true -Djcstress.skip=true
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar jmh/target/benchmarks.jar PhtSlotForms -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PhtSlotForms {

    /** Distinct elements with spread-out hash codes; a constant element would hash to one sequence. */
    private static final Integer[] ELEMENTS = new SplittableRandom(2026).ints(1024).boxed().toArray(Integer[]::new);

    @Param({"monitor", "cas"})
    public String slots;

    @Param({"101"})
    public int capacity;

    private BlockingQueue<Integer> table;

    @Setup(Level.Iteration)
    public void createTable() {
        table = Queues.create("pht+slots=" + slots, capacity); // the benchmarks' one grammar
    }

    /** A producer's position in ELEMENTS. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        Integer nextElement() {
            return ELEMENTS[next++ & (ELEMENTS.length - 1)];
        }
    }

    /** Per-thread outcomes; reported per microsecond. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcomes {
        public long taken;
        public long emptyPolls;
        public long fullOffers;

        @Setup(Level.Iteration)
        public void reset() {
            taken = 0;
            emptyPolls = 0;
            fullOffers = 0;
        }
    }

    private static final long TIMEOUT_MS = 10;

    private void produce(Cursor cursor, Outcomes outcomes) throws InterruptedException {
        if (!table.offer(cursor.nextElement(), TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            outcomes.fullOffers++;
        }
    }

    private Integer consume(Outcomes outcomes) throws InterruptedException {
        return counted(table.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS), outcomes);
    }

    private static Integer counted(Integer e, Outcomes outcomes) {
        if (e == null) {
            outcomes.emptyPolls++;
        } else {
            outcomes.taken++;
        }
        return e;
    }

    /** One thread: an offer and a poll in turn, the cost of the two operations uncontended. */
    @Benchmark
    @Group("single")
    @GroupThreads(1)
    public Integer offerThenPoll(Cursor cursor, Outcomes outcomes) {
        if (!table.offer(cursor.nextElement())) {
            outcomes.fullOffers++;
        }
        return counted(table.poll(), outcomes);
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public void p1c1Producer(Cursor cursor, Outcomes outcomes) throws InterruptedException {
        produce(cursor, outcomes);
    }

    @Benchmark
    @Group("p1c1")
    @GroupThreads(1)
    public Integer p1c1Consumer(Outcomes outcomes) throws InterruptedException {
        return consume(outcomes);
    }

    @Benchmark
    @Group("p1c3")
    @GroupThreads(1)
    public void p1c3Producer(Cursor cursor, Outcomes outcomes) throws InterruptedException {
        produce(cursor, outcomes);
    }

    @Benchmark
    @Group("p1c3")
    @GroupThreads(3)
    public Integer p1c3Consumer(Outcomes outcomes) throws InterruptedException {
        return consume(outcomes);
    }
}
