/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import com.conversantmedia.util.concurrent.DisruptorBlockingQueue;
import dev.handoff.Handoffs;
import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * The one factory every benchmark builds its queue with: a name, as used in the benchmarks'
 * {@code @Param("kind")} lists, maps to a queue of the given capacity.
 *
 * <p>Peers: {@code abq} ({@link ArrayBlockingQueue}, the yardstick), {@code lbq}
 * ({@link LinkedBlockingQueue}), {@code ltq} ({@link LinkedTransferQueue}, unbounded, {@code put}),
 * {@code ltq-transfer} (the same, {@code put} calls {@code transfer}), {@code sq}
 * ({@link SynchronousQueue}), {@code jctools} (JCTools {@code MpmcArrayQueue} behind
 * {@link SpinParkBlockingQueue}), {@code disruptor} (Conversant {@link DisruptorBlockingQueue}).
 *
 * <p>Every other name is a handoff spec without its capacity, with {@code +} for the spec's commas
 * (JMH splits {@code -p} values on commas): {@code circular}, {@code circular+stats},
 * {@code pht+slots=cas}, ... become {@code Handoffs.create("circular:1024")},
 * {@code "circular:1024,stats"}, {@code "pht:1024,slots=cas"}. The pipe has no buffer; its
 * capacity is its number of worker slots, always {@value #PIPE_WORKER_SLOTS} here. With importance
 * classes ({@code circular+classes=4}) the capacity is per class, and the benchmarks' elements,
 * which are not {@link dev.handoff.Importance}, all go to the least important class, so every take
 * looks at every class: the cost of each extra class, measured against the plain kind in
 * {@code docs/importance-classes.md}. The suite ({@link #all()}) does not run these variants.
 */
public final class Queues {

    private Queues() {
    }

    /** The JDK and third-party queues every handoff is ranked against, yardstick first. */
    public static final List<String> PEERS =
            List.of("abq", "lbq", "ltq", "ltq-transfer", "sq", "jctools", "disruptor");

    /** Variants of each handoff kind that the suite measures; a kind not built yet is skipped. */
    private static final List<String> HANDOFF_VARIANTS = List.of(
            "circular", "circular+stats", "circular+wait=spin", "circular+core=ring", "circular+core=ring+wait=spin",
            "lock-split", "lock-split+stats",
            "pht+slots=monitor", "pht+slots=monitor+stats",
            "pht+slots=cas", "pht+slots=cas+stats",
            "pipe", "pipe+stats");

    /**
     * The pipe's capacity is its number of worker slots, not a buffer: enough for the 50 consumers
     * of the largest shape and the thread that frees blocked producers at the end of a window.
     */
    static final int PIPE_WORKER_SLOTS = 64;

    /**
     * Creates the queue a benchmark name stands for.
     *
     * @param name a peer name or a handoff spec without capacity, {@code +} for commas
     * @param capacity the bound (ignored by the unbounded and synchronous peers)
     * @return a new empty queue
     * @throws IllegalArgumentException if the name is unknown
     */
    public static <E> BlockingQueue<E> create(String name, int capacity) {
        return switch (name) {
            case "abq" -> new ArrayBlockingQueue<>(capacity);
            case "lbq" -> new LinkedBlockingQueue<>(capacity);
            case "ltq" -> new LinkedTransferQueue<>();
            case "ltq-transfer" -> new TransferOnPut<>();
            case "sq" -> new SynchronousQueue<>();
            case "jctools" -> new SpinParkBlockingQueue<>(capacity);
            case "disruptor" -> new DisruptorBlockingQueue<>(capacity);
            default -> Handoffs.create(spec(name, name.startsWith("pipe") ? PIPE_WORKER_SLOTS : capacity));
        };
    }

    /** The handoff spec of a benchmark name: {@code "pht+slots=cas"} to {@code "pht:1024,slots=cas"}. */
    public static String spec(String name, int capacity) {
        String[] parts = name.split("\\+", 2);
        return parts[0] + ":" + capacity + (parts.length > 1 ? "," + parts[1].replace('+', ',') : "");
    }

    /** Whether the name is one of the library's handoffs rather than a peer. */
    public static boolean isHandoff(String name) {
        return !PEERS.contains(name);
    }

    /** The handoff variants whose kind this build of the library knows. */
    public static List<String> handoffVariants() {
        List<String> known = new ArrayList<>();
        for (String v : HANDOFF_VARIANTS) {
            if (Handoffs.kinds().contains(v.split("\\+", 2)[0])) {
                known.add(v);
            }
        }
        return known;
    }

    /** Every name the suite measures: the peers, then the handoff variants this build knows. */
    public static List<String> all() {
        List<String> all = new ArrayList<>(PEERS);
        all.addAll(handoffVariants());
        return all;
    }

    /** LinkedTransferQueue whose put waits until a consumer has received the element. */
    static final class TransferOnPut<E> extends AbstractQueue<E> implements BlockingQueue<E> {
        private final LinkedTransferQueue<E> queue = new LinkedTransferQueue<>();

        @Override
        public void put(E e) throws InterruptedException {
            queue.transfer(e);
        }

        @Override
        public boolean offer(E e) {
            return queue.offer(e);
        }

        @Override
        public boolean offer(E e, long timeout, TimeUnit unit) throws InterruptedException {
            return queue.tryTransfer(e, timeout, unit);
        }

        @Override
        public E take() throws InterruptedException {
            return queue.take();
        }

        @Override
        public E poll(long timeout, TimeUnit unit) throws InterruptedException {
            return queue.poll(timeout, unit);
        }

        @Override
        public E poll() {
            return queue.poll();
        }

        @Override
        public E peek() {
            return queue.peek();
        }

        @Override
        public int remainingCapacity() {
            return queue.remainingCapacity();
        }

        @Override
        public int drainTo(Collection<? super E> c) {
            return queue.drainTo(c);
        }

        @Override
        public int drainTo(Collection<? super E> c, int maxElements) {
            return queue.drainTo(c, maxElements);
        }

        @Override
        public Iterator<E> iterator() {
            return queue.iterator();
        }

        @Override
        public int size() {
            return queue.size();
        }
    }
}
