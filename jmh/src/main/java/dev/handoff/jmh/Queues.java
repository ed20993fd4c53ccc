/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh;

import com.conversantmedia.util.concurrent.DisruptorBlockingQueue;
import dev.handoff.Handoffs;
import dev.handoff.server.MonitorBuffer;
import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The one grammar by which the benchmarks, the twins and the server experiment name a queue: a
 * name maps to a new, empty queue.
 *
 * <pre>
 * name    := ["handoff:"] kind [":" capacity] {("," | "+") option}
 * </pre>
 *
 * <p>Peers ({@link #PEERS}, no options): {@code abq} ({@link ArrayBlockingQueue}, the yardstick),
 * {@code jox} (a jox buffered {@code Channel} of the capacity, behind {@link JoxBlockingQueue}),
 * {@code lbq} ({@link LinkedBlockingQueue}), {@code ltq} ({@link LinkedTransferQueue}, unbounded,
 * {@code put}), {@code ltq-transfer} (the same, {@code put} calls {@code transfer}), {@code sq}
 * ({@link SynchronousQueue}), {@code jox-rendezvous} (a jox rendezvous channel, behind
 * {@link JoxBlockingQueue}), {@code jctools} (JCTools {@code MpmcArrayQueue} behind
 * {@link SpinParkBlockingQueue}), {@code disruptor} (Conversant {@link DisruptorBlockingQueue}) and
 * {@code monitor} (the papers' shared buffer, {@link MonitorBuffer}). The jox peers have no
 * {@code size} or iterator; the benchmarks that run them need neither.
 *
 * <p>Every other kind is a {@link Handoffs#create(String)} kind, and the name is its spec, with
 * {@code +} allowed for the spec's commas (JMH splits {@code -p} values on commas) and the
 * capacity optional: {@code circular}, {@code circular+stats}, {@code pht+slots=cas} and
 * {@code handoff:pht:101,stats} become {@code Handoffs.create("circular:1024")},
 * {@code "circular:1024,stats"}, {@code "pht:1024,slots=cas"} and {@code "pht:101,stats"}. A name
 * without a capacity gets the caller's; the pipe, which has no buffer, then gets
 * {@value #PIPE_WORKER_SLOTS} worker slots. With importance classes ({@code circular+classes=4})
 * the capacity is per class, and the benchmarks' elements, which are not
 * {@link dev.handoff.Importance}, all go to the least important class, so every take looks at
 * every class: the cost of each extra class, measured against the plain kind in
 * {@code docs/importance-classes.md}. The suite ({@link #all()}) does not run these variants.
 */
public final class Queues {

    private Queues() {
    }

    /**
     * The JDK and third-party queues every handoff is ranked against, yardstick first; each jox
     * channel beside the JDK queue it resembles.
     */
    public static final List<String> PEERS = List.of(
            "abq", "jox", "lbq", "ltq", "ltq-transfer", "sq", "jox-rendezvous", "jctools", "disruptor");

    /** The papers' shared buffer: a peer of the server experiment, not of the benchmark suite. */
    private static final String MONITOR = "monitor";

    /** Variants of each handoff kind that the suite measures. */
    private static final List<String> HANDOFF_VARIANTS = List.of(
            "circular", "circular+stats", "circular+sojourn", "circular+wait=spin", "circular+core=ring", "circular+core=ring+wait=spin",
            "circular+core=cells", "circular+core=cells+wait=spin",
            "lock-split", "lock-split+stats", "lock-split+sojourn",
            "pht+slots=monitor", "pht+slots=monitor+stats", "pht+slots=monitor+sojourn",
            "pht+slots=cas", "pht+slots=cas+stats", "pht+slots=cas+sojourn", "pht+slots=cas+search=probe", "pht+slots=cas+search=cursor",
            "pipe", "pipe+stats");

    /**
     * The pipe's capacity when its name gives none; it is its number of worker slots, not a
     * buffer: enough for the 50 consumers of the largest shape and the thread that frees blocked
     * producers at the end of a window.
     */
    static final int PIPE_WORKER_SLOTS = 64;

    /**
     * Creates the queue a name stands for.
     *
     * @param name a name in the grammar of the class comment
     * @param capacity the bound when the name gives none (ignored by the unbounded and synchronous peers)
     * @return a new empty queue
     * @throws IllegalArgumentException if the name is malformed, its kind unknown, a peer has options,
     *         or the handoff refuses the spec
     */
    public static <E> BlockingQueue<E> create(String name, int capacity) {
        Name n = Name.parse(name);
        return n.isPeer() ? peer(n.kind(), n.capacityOr(capacity)) : Handoffs.create(n.handoffSpec(capacity));
    }

    /**
     * Creates the queue a name with its capacity stands for, as the server experiment's specs
     * ({@code circular:101}, {@code monitor:101}, {@code abq:101}) give it.
     *
     * @param name a name in the grammar of the class comment, with a capacity
     * @return a new empty queue
     * @throws IllegalArgumentException if the name has no capacity, or as {@link #create(String, int)}
     */
    public static <E> BlockingQueue<E> create(String name) {
        return create(name, Name.parse(name).requireCapacity());
    }

    /**
     * The {@link Handoffs#create(String)} spec of a handoff's name:
     * {@code "pht+slots=cas"} to {@code "pht:1024,slots=cas"}.
     *
     * @param name a name in the grammar of the class comment
     * @param capacity the capacity when the name gives none
     * @return the spec
     * @throws IllegalArgumentException if the name is malformed or names a peer
     */
    public static String handoffSpec(String name, int capacity) {
        Name n = Name.parse(name);
        if (n.isPeer()) {
            throw new IllegalArgumentException("'" + name + "' names a peer, not a handoff");
        }
        return n.handoffSpec(capacity);
    }

    /**
     * Whether the name is a variant that the suite runs only to read an option's cost against the
     * plain kind: {@code +stats} (the counters) or {@code +sojourn} (the sojourn times).
     */
    public static boolean isCostVariant(String name) {
        return name.contains("stats") || name.contains("sojourn");
    }

    /** Whether the name is one of the library's handoffs rather than a peer. */
    public static boolean isHandoff(String name) {
        return !Name.parse(name).isPeer();
    }

    /** Every name the suite measures: the peers, then the handoff variants. */
    public static List<String> all() {
        List<String> all = new ArrayList<>(PEERS);
        all.addAll(HANDOFF_VARIANTS);
        return all;
    }

    private static <E> BlockingQueue<E> peer(String kind, int capacity) {
        return switch (kind) {
            case "abq" -> new ArrayBlockingQueue<>(capacity);
            case "jox" -> JoxBlockingQueue.buffered(capacity);
            case "lbq" -> new LinkedBlockingQueue<>(capacity);
            case "ltq" -> new LinkedTransferQueue<>();
            case "ltq-transfer" -> new TransferOnPut<>();
            case "sq" -> new SynchronousQueue<>();
            case "jox-rendezvous" -> JoxBlockingQueue.rendezvous();
            case "jctools" -> new SpinParkBlockingQueue<>(capacity);
            case "disruptor" -> new DisruptorBlockingQueue<>(capacity);
            case MONITOR -> new MonitorBuffer<>(capacity);
            default -> throw new AssertionError(kind);
        };
    }

    /**
     * A name taken apart: its kind, its capacity if it gives one, and its options.
     *
     * @param capacity the capacity the name gives, or -1 for none
     */
    private record Name(String name, String kind, int capacity, List<String> options) {

        private static final int NONE = -1;

        static Name parse(String name) {
            String rest = name.trim();
            if (rest.startsWith("handoff:")) {
                rest = rest.substring("handoff:".length());
            }
            List<String> parts = List.of(rest.split("[,+]", -1));
            String head = parts.get(0).trim();
            int colon = head.indexOf(':');
            String kind = (colon < 0 ? head : head.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
            if (kind.isEmpty()) {
                throw new IllegalArgumentException("queue name '" + name + "' has no kind");
            }
            int capacity = colon < 0 ? NONE : capacityOf(name, head.substring(colon + 1).trim());
            List<String> options = parts.subList(1, parts.size()).stream().map(String::trim).toList();
            Name n = new Name(name, kind, capacity, options);
            if (n.isPeer() && !options.isEmpty()) {
                throw new IllegalArgumentException("queue '" + name + "': " + kind + " takes no options");
            }
            return n;
        }

        private static int capacityOf(String name, String text) {
            try {
                return Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("queue '" + name + "' wants kind:capacity, the capacity a number", e);
            }
        }

        boolean isPeer() {
            return PEERS.contains(kind) || kind.equals(MONITOR);
        }

        int capacityOr(int fallback) {
            return capacity != NONE ? capacity : fallback;
        }

        int requireCapacity() {
            if (capacity == NONE) {
                throw new IllegalArgumentException("queue '" + name + "' wants kind:capacity");
            }
            return capacity;
        }

        String handoffSpec(int fallback) {
            int c = capacityOr(kind.equals("pipe") ? PIPE_WORKER_SLOTS : fallback);
            return kind + ":" + c + options.stream().map(o -> "," + o).collect(Collectors.joining());
        }
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
