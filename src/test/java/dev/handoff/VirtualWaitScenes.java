/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The child JVM of {@link VirtualWaitLivenessTest}: virtual threads that wait for a partner held
 * in the middle of its operation, on as many carriers as the parent gave (one, for the
 * deterministic reproducer).
 *
 * <p>Run as {@code VirtualWaitScenes spec|scene ...}. For each argument it builds the handoff,
 * holds one element in the middle of its removal, by a {@code drainTo} from a platform thread
 * whose target's {@code add} blocks until released (the element's cell or slot stays claimed by
 * the drain), and then lets {@value #WAITERS} virtual threads, started from a virtual thread so
 * that they queue on the carrier as a busy program's do, run into that element:
 * <ul>
 *   <li>{@code poll}: {@code WAITERS + 1} elements inside, each waiter calls {@code poll()} until
 *       it gets one. A {@code core=cells} poll finds its position's cell claimed (TAKING) and waits
 *       for the remover.</li>
 *   <li>{@code take}: the held element alone inside, each waiter calls {@code take()}. The one that
 *       claims the held position waits for the remover; the others wait for an element.</li>
 *   <li>{@code timed-poll}: as {@code take}, with {@code poll(20, MILLISECONDS)} in a loop until it
 *       gets one, as a pool of virtual consumers does.</li>
 *   <li>{@code remove}: with classes, two elements inside, a drain that reserved both and holds
 *       the one it reserved first, and each waiter calls {@code remove(second)}: every reservation
 *       is held, the match is still inside, and the removal waits for a reservation to come
 *       free.</li>
 * </ul>
 * While the element is held it samples the waiters' states (a waiter that waits for a partner
 * must be parked, WAITING or TIMED_WAITING, not RUNNABLE), then, from this platform thread,
 * starts one more virtual thread that only counts down a latch: if it has not run within
 * {@value #PROGRESS_SECONDS} s, the carriers are taken by the waiters and nothing else runs (the
 * stall of a wait that yields instead of parking). Then it releases the drain, lets the waiters finish, and checks that every
 * element left exactly once: through the drain or to one waiter.
 *
 * <p>Prints one line per argument,
 * {@code RESULT spec=... scene=... progress=ok|STALL parked=ok|SPINNING outcome=ok|...}, then a
 * few lines of where a waiter was if it did not park, and exits with 1 if any line is not all ok.
 */
final class VirtualWaitScenes {

    /** Virtual threads that run into the held element. */
    static final int WAITERS = Integer.getInteger("scenes.waiters", 4);

    /** How long the probe thread may take to run: the definition of a stall (no timing is asserted). */
    static final long PROGRESS_SECONDS = 10;

    /** How long the waiters and the drain may take once the element is released. */
    static final long FINISH_SECONDS = 20;

    /** The first element; the held one. */
    static final int FIRST = 100;

    private VirtualWaitScenes() {
    }

    public static void main(String[] args) throws Exception {
        boolean allOk = true;
        for (String arg : args) {
            int bar = arg.lastIndexOf('|');
            String line = run(arg.substring(0, bar), arg.substring(bar + 1));
            System.out.println(line);
            System.out.flush();
            allOk &= !line.contains("STALL") && !line.contains("SPINNING") && line.endsWith("outcome=ok");
        }
        System.exit(allOk ? 0 : 1);
    }

    /** A drainTo target whose first add blocks until released. */
    static final class HoldingTarget extends AbstractCollection<Integer> {
        final List<Integer> added = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch inAdd = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public boolean add(Integer e) {
            added.add(e);
            if (added.size() == 1) {
                inAdd.countDown();
                try {
                    release.await();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            return true;
        }

        @Override
        public Iterator<Integer> iterator() {
            return added.iterator();
        }

        @Override
        public int size() {
            return added.size();
        }
    }

    static String run(String spec, String scene) throws Exception {
        String head = "RESULT spec=" + spec + " scene=" + scene + " carriers="
                + System.getProperty("jdk.virtualThreadScheduler.parallelism", "?");
        Handoff<Integer> h = Handoffs.create(spec);
        boolean remove = scene.equals("remove");
        int inside = scene.equals("poll") ? WAITERS + 1 : remove ? 2 : 1;
        for (int i = 0; i < inside; i++) {
            h.put(FIRST + i);
        }

        HoldingTarget target = new HoldingTarget();
        AtomicInteger drained = new AtomicInteger(-1);
        Thread drain = Thread.ofPlatform().name("drain").daemon().start(() -> drained.set(h.drainTo(target, remove ? 2 : 1)));
        if (!target.inAdd.await(PROGRESS_SECONDS, TimeUnit.SECONDS)) {
            return head + " outcome=the drain did not reach its target";
        }

        // The waiters, started by a virtual thread: they queue on its carrier, as in a busy program.
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger started = new AtomicInteger();
        ConcurrentLinkedQueue<Object> got = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        List<Thread> waiters = Collections.synchronizedList(new ArrayList<>());
        Thread.ofVirtual().name("spawner").start(() -> {
            for (int w = 0; w < WAITERS; w++) {
                waiters.add(Thread.ofVirtual().name("waiter-" + w).start(() -> {
                    started.incrementAndGet();
                    try {
                        Object r = waitOnce(h, scene, stop);
                        if (r != null) {
                            got.add(r);
                        }
                    } catch (Throwable t) {
                        errors.add(t.toString());
                    }
                }));
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PROGRESS_SECONDS);
        while (started.get() < WAITERS && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Thread.sleep(100); // a platform sleep: the waiters get to the held element meanwhile

        // Parked, not spinning: sampled over a short window while the element is held.
        List<Thread> alive = waiters(waiters);
        int[] runnable = new int[alive.size()];
        int samples = 100;
        for (int s = 0; s < samples; s++) {
            for (int w = 0; w < alive.size(); w++) {
                if (alive.get(w).getState() == Thread.State.RUNNABLE) {
                    runnable[w]++;
                }
            }
            Thread.sleep(2);
        }
        List<String> spinners = new ArrayList<>();
        for (int w = 0; w < alive.size(); w++) {
            if (runnable[w] > samples / 2) {
                spinners.add(alive.get(w).getName() + " RUNNABLE in " + runnable[w] + "/" + samples + " samples at "
                        + where(alive.get(w)));
            }
        }

        // Progress: a virtual thread started now must get a carrier.
        CountDownLatch ran = new CountDownLatch(1);
        Thread.ofVirtual().name("probe").start(ran::countDown);
        boolean progress = ran.await(PROGRESS_SECONDS, TimeUnit.SECONDS);
        String stalledAt = progress || alive.isEmpty() ? "" : where(alive.get(0));

        // Release the drain; give the waiters what they wait for; every element exactly once.
        target.release.countDown();
        drain.join(TimeUnit.SECONDS.toMillis(FINISH_SECONDS));
        if (!remove && !scene.equals("poll")) {
            for (int i = 0; i < WAITERS; i++) {
                h.put(FIRST + inside + i);
            }
        }
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FINISH_SECONDS);
        for (Thread w : waiters(waiters)) {
            w.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        List<Thread> left = waiters(waiters).stream().filter(Thread::isAlive).toList();
        stop.set(true);
        String outcome = left.isEmpty() ? check(h, spec, scene, inside, target, drained.get(), got, errors)
                : left.size() + " waiter(s) did not finish after the release, " + left.get(0).getName() + " at " + where(left.get(0));

        StringBuilder line = new StringBuilder(head)
                .append(" waiting=").append(alive.size())
                .append(" progress=").append(progress ? "ok" : "STALL")
                .append(" parked=").append(spinners.isEmpty() ? "ok" : "SPINNING")
                .append(" outcome=").append(outcome);
        if (!progress) {
            line.append("\n  STALL: the probe thread did not run in ").append(PROGRESS_SECONDS)
                    .append(" s; a waiter was at ").append(stalledAt);
        }
        for (String s : spinners) {
            line.append("\n  SPINNING: ").append(s);
        }
        return line.toString();
    }

    /** What one waiter does: the element it got, the answer of its remove, or null if stopped. */
    private static Object waitOnce(Handoff<Integer> h, String scene, AtomicBoolean stop) throws InterruptedException {
        switch (scene) {
            case "poll":
                for (Integer e; !stop.get(); Thread.sleep(1)) {
                    if ((e = h.poll()) != null) {
                        return e;
                    }
                }
                return null;
            case "take":
                return h.take();
            case "timed-poll":
                while (!stop.get()) {
                    Integer e = h.poll(20, TimeUnit.MILLISECONDS);
                    if (e != null) {
                        return e;
                    }
                }
                return null;
            case "remove":
                return h.remove(FIRST + 1);
            default:
                throw new IllegalArgumentException("scene " + scene);
        }
    }

    /**
     * Every element exactly once, through the drain or to one waiter; nothing left inside; and in
     * a FIFO kind the drain held the first element. The hash table is unordered: its drain may
     * reserve and hold either element first.
     */
    private static String check(Handoff<Integer> h, String spec, String scene, int inside, HoldingTarget target, int drained,
            ConcurrentLinkedQueue<Object> got, ConcurrentLinkedQueue<String> errors) {
        if (!errors.isEmpty()) {
            return "a waiter threw " + errors.peek();
        }
        List<Integer> received = new ArrayList<>(target.added);
        if (drained != target.added.size()) {
            return "drainTo answered " + drained + " but added " + target.added;
        }
        if (scene.equals("remove")) {
            long removed = got.stream().filter(Boolean.TRUE::equals).count();
            for (int i = 0; i < removed; i++) {
                received.add(FIRST + 1);
            }
        } else {
            got.forEach(e -> received.add((Integer) e));
        }
        int total = scene.equals("remove") || scene.equals("poll") ? inside : inside + WAITERS;
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            expected.add(FIRST + i);
        }
        Collections.sort(received);
        if (!received.equals(expected)) {
            return "elements not received exactly once: expected " + expected + ", received " + received;
        }
        boolean ordered = !spec.startsWith("pht");
        if (target.added.isEmpty() || ordered && target.added.get(0) != FIRST) {
            return "the drain did not move the held element: " + target.added;
        }
        if (!h.isEmpty()) {
            return "left inside: " + Arrays.toString(h.toArray());
        }
        return "ok";
    }

    private static List<Thread> waiters(List<Thread> waiters) {
        synchronized (waiters) {
            return new ArrayList<>(waiters);
        }
    }

    /** The top frames of t, for a report. */
    static String where(Thread t) {
        return Arrays.stream(t.getStackTrace()).limit(6).map(String::valueOf).collect(Collectors.joining(" <- "));
    }
}
