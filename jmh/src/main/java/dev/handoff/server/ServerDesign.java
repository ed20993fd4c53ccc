/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.server;

import dev.handoff.Handoff;
import dev.handoff.HandoffClosedException;
import dev.handoff.HandoffStats;
import dev.handoff.Handoffs;
import dev.handoff.jmh.Queues;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One way of organising a TCP server, chosen by name so that switching designs is a flag and not
 * a code change (the CAL paper's argument). The names, as {@code --design} takes them:
 * <ul>
 *   <li>{@code iterative}: one thread accepts and serves every connection in turn;</li>
 *   <li>{@code thread-per-connection}: the accepting thread starts a new platform thread per
 *       connection;</li>
 *   <li>{@code virtual-thread-per-connection}: the same with a virtual thread (the Loom fibers paper's
 *       question, with the API that shipped);</li>
 *   <li>{@code accept-lock}: pre-threaded; the workers take turns in {@code accept()} under one
 *       lock;</li>
 *   <li>{@code handoff:SPEC}: pre-threaded; one thread accepts and hands each connected socket to
 *       the workers through the queue {@code SPEC} names, in the benchmarks' grammar
 *       ({@link Queues}) with a capacity: any {@link Handoffs#create(String)} spec
 *       ({@code circular:101}, {@code lock-split:101}, {@code pht:101,stats},
 *       {@code pipe:W}), {@code monitor:101} for the papers' shared buffer
 *       ({@link MonitorBuffer}), {@code abq:101} for {@link ArrayBlockingQueue} or another peer;</li>
 *   <li>{@code pool:SPEC}: a {@link ThreadPoolExecutor} of the workers over the queue
 *       {@code SPEC} names; the accepting thread submits one task per connection.</li>
 * </ul>
 * In a spec the capacity {@code W} stands for the number of workers ({@code pipe:W}: one worker
 * slot per worker, as the pipe handoff needs).
 * A design serves exactly the given number of connections and then its threads end by themselves;
 * {@link #stop(long)} ends them early (listener closed, queue closed, threads interrupted).
 *
 * <p>In the mixed workload ({@code classify}), the accepting thread of a {@code handoff:SPEC}
 * design reads each connection's request byte itself and hands over a {@link Job} that carries the
 * client's importance class, so that a spec with {@code classes=2} serves important connections
 * first; every other design serves the mixed workload as any other, its workers reading the byte.
 */
abstract class ServerDesign {

    /** The names accepted by {@link #parse}, for messages. */
    static final String NAMES = "iterative, thread-per-connection, virtual-thread-per-connection, accept-lock, "
            + "handoff:SPEC, pool:SPEC (SPEC: a queue name with its capacity, as circular:101, monitor:101 or abq:101)";

    final List<Thread> threads = new ArrayList<>();

    /**
     * Builds the design a name selects, its handoff holding sockets.
     *
     * @param design the name, see the class comment
     * @param workers the number of pre-spawned workers (ignored by the designs without a pool)
     * @return a design not yet started
     * @throws IllegalArgumentException if the name or spec is invalid
     */
    static ServerDesign parse(String design, int workers) {
        return parse(design, workers, false);
    }

    /**
     * Builds the design a name selects.
     *
     * @param design the name, see the class comment
     * @param workers the number of pre-spawned workers (ignored by the designs without a pool)
     * @param classify whether a {@code handoff:SPEC} design's acceptor reads each request and hands
     *        over a {@link Job} carrying its importance class (the mixed workload) instead of the
     *        bare socket
     * @return a design not yet started
     * @throws IllegalArgumentException if the name or spec is invalid
     */
    static ServerDesign parse(String design, int workers, boolean classify) {
        if (workers <= 0) {
            throw new IllegalArgumentException("workers must be > 0, was " + workers);
        }
        // capacity "W" stands for the worker count: the pipe handoff needs one slot per worker
        String name = design.trim().replaceAll(":W(?=,|$)", ":" + workers);
        if (name.startsWith("handoff:")) {
            String spec = name.substring("handoff:".length());
            return classify
                    ? new Prethreaded<>(ServerDesign.<Job>socketQueue(spec), workers, Intake.JOBS)
                    : new Prethreaded<>(ServerDesign.<Socket>socketQueue(spec), workers, Intake.SOCKETS);
        }
        if (name.startsWith("pool:")) {
            return new Pool(name.substring("pool:".length()), workers);
        }
        return switch (name) {
            case "iterative" -> new Iterative();
            case "thread-per-connection" -> new ThreadPerConnection(Thread.ofPlatform().name("conn-", 0).factory());
            case "virtual-thread-per-connection" -> new ThreadPerConnection(Thread.ofVirtual().name("vconn-", 0).factory());
            case "accept-lock" -> new AcceptLock(workers);
            default -> throw new IllegalArgumentException("unknown design '" + design + "'; valid: " + NAMES);
        };
    }

    /**
     * Builds the queue a spec names, in the benchmarks' grammar ({@link Queues}): the papers'
     * monitor buffer, the JDK's array queue or a handoff, with its capacity.
     */
    static <E> BlockingQueue<E> socketQueue(String spec) {
        return Queues.create(spec);
    }

    /**
     * Starts the design's threads; they serve {@code requests} connections from the listener.
     *
     * @param listener the bound, listening socket
     * @param service the per-connection work
     * @param requests how many connections to accept in all
     */
    abstract void start(ServerSocket listener, Service service, int requests);

    /**
     * Ends every thread of the design: closes the listener and the queue, interrupts, joins.
     *
     * @param listener the design's listener
     * @param graceMillis how long to wait for each thread
     * @return the number of threads still alive afterwards (0 when all ended)
     */
    int stop(ServerSocket listener, long graceMillis) {
        closeQuietly(listener);
        closeQueue();
        for (Thread t : snapshotThreads()) {
            t.interrupt();
        }
        int alive = 0;
        for (Thread t : snapshotThreads()) {
            try {
                if (!t.join(java.time.Duration.ofMillis(graceMillis))) {
                    alive++;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                alive++;
            }
        }
        return alive;
    }

    /** Closes the design's queue, if it has one. */
    void closeQueue() {
    }

    /**
     * Returns the counters of the design's handoff, or null when it has none or does not count.
     *
     * @return the handoff's stats or null
     */
    HandoffStats stats() {
        return null;
    }

    /**
     * Returns measurements particular to the design (e.g. take() times), as key=value pairs.
     *
     * @return extra measurements, possibly empty
     */
    List<String> extras() {
        return List.of();
    }

    final synchronized Thread register(Thread t) {
        threads.add(t);
        return t;
    }

    private synchronized List<Thread> snapshotThreads() {
        return new ArrayList<>(threads);
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // stopping: nothing left to do with it
        }
    }

    /** Accepts or returns null once the listener is closed (the run is being stopped). */
    static Socket acceptOrNull(ServerSocket listener) {
        try {
            return listener.accept();
        } catch (IOException closed) {
            return null;
        }
    }

    /** Design 1: one thread accepts and serves, one connection at a time. */
    static final class Iterative extends ServerDesign {
        @Override
        void start(ServerSocket listener, Service service, int requests) {
            register(Thread.ofPlatform().name("iterative").start(() -> {
                for (int i = 0; i < requests; i++) {
                    Socket s = acceptOrNull(listener);
                    if (s == null) {
                        return;
                    }
                    service.serve(s);
                }
            }));
        }
    }

    /** Designs 2 and 8: a new thread, platform or virtual, for every connection. */
    static final class ThreadPerConnection extends ServerDesign {
        private final ThreadFactory factory;

        ThreadPerConnection(ThreadFactory factory) {
            this.factory = factory;
        }

        @Override
        void start(ServerSocket listener, Service service, int requests) {
            register(Thread.ofPlatform().name("acceptor").start(() -> {
                for (int i = 0; i < requests; i++) {
                    Socket s = acceptOrNull(listener);
                    if (s == null) {
                        return;
                    }
                    Thread t = factory.newThread(() -> service.serve(s));
                    register(t).start();
                }
            }));
        }
    }

    /** Design 3: pre-spawned workers, each taking its turn in accept() under one lock. */
    static final class AcceptLock extends ServerDesign {
        private final int workers;
        private final ReentrantLock acceptLock = new ReentrantLock();
        /** Connections still to accept. Guarded by acceptLock. */
        private int remaining;

        AcceptLock(int workers) {
            this.workers = workers;
        }

        @Override
        void start(ServerSocket listener, Service service, int requests) {
            remaining = requests; // published to the workers by Thread.start
            for (int w = 0; w < workers; w++) {
                register(Thread.ofPlatform().name("worker-" + w).start(() -> {
                    Socket s;
                    while ((s = acceptInTurn(listener)) != null) {
                        service.serve(s);
                    }
                }));
            }
        }

        /** The papers' mutex around accept: only the lock holder is in accept(). */
        private Socket acceptInTurn(ServerSocket listener) {
            try {
                acceptLock.lockInterruptibly();
            } catch (InterruptedException e) {
                return null;
            }
            try {
                if (remaining == 0) {
                    return null;
                }
                Socket s = acceptOrNull(listener);
                if (s != null) {
                    remaining--;
                }
                return s;
            } finally {
                acceptLock.unlock();
            }
        }
    }

    /**
     * What the acceptor of a pre-threaded design hands the workers, and how each side deals with
     * it: the bare socket (the papers' servers), or a {@link Job} whose request the acceptor has
     * read (the mixed workload, so that a handoff with classes can order connections by class).
     *
     * @param <E> the element type of the handoff
     */
    interface Intake<E> {
        /** The papers' way: the acceptor hands over the socket, the worker reads the request. */
        Intake<Socket> SOCKETS = new Intake<>() {
            @Override
            public Socket receive(Socket connection, Service service) {
                return connection;
            }

            @Override
            public void serve(Socket connection, Service service) {
                service.serve(connection);
            }

            @Override
            public Socket socketOf(Socket connection) {
                return connection;
            }
        };

        /** The mixed workload's way: the acceptor reads the request and hands over its class too. */
        Intake<Job> JOBS = new Intake<>() {
            @Override
            public Job receive(Socket connection, Service service) {
                return service.receive(connection);
            }

            @Override
            public void serve(Job job, Service service) {
                service.serve(job);
            }

            @Override
            public Socket socketOf(Job job) {
                return job.socket();
            }
        };

        /**
         * Called by the acceptor for each accepted connection.
         *
         * @return the element to hand over, or null when the connection failed (already closed
         *         and counted by the service)
         */
        E receive(Socket connection, Service service);

        /** Called by a worker for each element it took. */
        void serve(E element, Service service);

        /** The element's socket, to close when the handoff refuses the element. */
        Socket socketOf(E element);
    }

    /**
     * Designs 4 to 7 and the papers' baseline: one accepting thread puts each connected socket
     * (or, in the mixed workload, each {@link Job}) into a queue; pre-spawned workers take and serve.
     *
     * @param <E> what the queue holds, see {@link Intake}
     */
    static final class Prethreaded<E> extends ServerDesign {
        private final BlockingQueue<E> queue;
        private final Intake<E> intake;
        private final int workers;
        private final boolean sampleLoad;
        /**
         * Each worker's take() durations in ns, merged after the run; with counting on, only the takes
         * that began with an element inside (so that they measure retrieval, not waiting for work).
         */
        private final List<long[]> takeNanos = new ArrayList<>();
        /** Sum of size() seen before each put, and puts sampled; written by the acceptor only. */
        private long putSizeSum;
        private long putSamples;
        /** Roussev and Wu (2006)'s bounds at the load each operation saw, summed (Theorem 1 per put, 2 per take). */
        private double insertBoundSum;
        private final java.util.concurrent.atomic.DoubleAdder searchBoundSum = new java.util.concurrent.atomic.DoubleAdder();
        private final java.util.concurrent.atomic.LongAdder searchSamples = new java.util.concurrent.atomic.LongAdder();

        Prethreaded(BlockingQueue<E> queue, int workers, Intake<E> intake) {
            this.queue = queue;
            this.intake = intake;
            this.workers = workers;
            this.sampleLoad = queue instanceof Handoff<?> h && h.stats().enabled();
        }

        @Override
        void start(ServerSocket listener, Service service, int requests) {
            int perWorker = requests + 1;
            for (int w = 0; w < workers; w++) {
                long[] times = new long[perWorker + 1]; // times[0] = count
                takeNanos.add(times);
                register(Thread.ofPlatform().name("worker-" + w).start(() -> work(service, times)));
            }
            register(Thread.ofPlatform().name("acceptor").start(() -> {
                for (int i = 0; i < requests; i++) {
                    Socket s = acceptOrNull(listener);
                    if (s == null) {
                        return;
                    }
                    E element = intake.receive(s, service);
                    if (element != null && !hand(element)) {
                        return;
                    }
                }
            }));
        }

        private boolean hand(E element) {
            if (sampleLoad) {
                // Theorem 1: an insert at load a = n/m probes at most 1/(1 - a) slots on average. A put
                // into a full table waits for a free slot and then inserts at load (m - 1)/m.
                int m = ((Handoff<?>) queue).capacity();
                int n = Math.min(queue.size(), m - 1);
                putSizeSum += n;
                putSamples++;
                insertBoundSum += 1.0 / (1.0 - (double) n / m);
            }
            try {
                queue.put(element);
                return true;
            } catch (InterruptedException | HandoffClosedException stopping) {
                closeQuietly(intake.socketOf(element));
                return false;
            }
        }

        private void work(Service service, long[] times) {
            while (true) {
                E element;
                boolean timed = true;
                if (sampleLoad) {
                    // Theorem 2: a random search at load a finds an element in at most 1/a probes on
                    // average. A take from an empty table waits and then searches at load 1/m.
                    int m = ((Handoff<?>) queue).capacity();
                    int size = queue.size();
                    searchBoundSum.add((double) m / Math.max(1, Math.min(size, m)));
                    searchSamples.increment();
                    timed = size > 0; // t_a of Theorem 3 is the retrieval, not the wait for work
                }
                long start = System.nanoTime();
                try {
                    element = queue.take();
                } catch (InterruptedException | HandoffClosedException stopping) {
                    return;
                }
                long n = times[0];
                if (timed && n + 1 < times.length) {
                    times[(int) n + 1] = System.nanoTime() - start;
                    times[0] = n + 1;
                }
                intake.serve(element, service);
            }
        }

        @Override
        void closeQueue() {
            if (queue instanceof AutoCloseable c) {
                closeQuietly(c);
            }
        }

        @Override
        HandoffStats stats() {
            return queue instanceof Handoff<?> h && h.stats().enabled() ? h.stats() : null;
        }

        /** Call only after stop(): the workers' arrays are then stable (Thread.join). */
        @Override
        List<String> extras() {
            List<Long> all = new ArrayList<>();
            for (long[] times : takeNanos) {
                for (int i = 1; i <= times[0]; i++) {
                    all.add(times[i]);
                }
            }
            List<String> out = new ArrayList<>();
            if (!all.isEmpty()) {
                all.sort(null);
                out.add("takeMedianNanos=" + all.get(all.size() / 2));
                out.add("takeCount=" + all.size());
            }
            if (putSamples > 0) {
                out.add("meanSizeAtPut=" + (double) putSizeSum / putSamples);
                out.add("insertProbeBound=" + insertBoundSum / putSamples);
                out.add("capacity=" + ((Handoff<?>) queue).capacity());
            }
            if (searchSamples.sum() > 0) {
                out.add("searchProbeBound=" + searchBoundSum.sum() / searchSamples.sum());
            }
            return out;
        }
    }

    /**
     * Design 9: a ThreadPoolExecutor whose work queue is the named queue: a handoff through the
     * library's {@link Handoffs#newThreadPool(String, int, ThreadFactory,
     * java.util.concurrent.RejectedExecutionHandler)}, the monitor buffer or the JDK's array queue
     * through the JDK's constructor.
     */
    static final class Pool extends ServerDesign {
        private final ThreadPoolExecutor pool;

        Pool(String spec, int workers) {
            ThreadFactory threads = Thread.ofPlatform().name("pool-", 0).factory();
            BlockingQueue<Runnable> queue = socketQueue(spec); // validates the spec
            this.pool = queue instanceof Handoff<?>
                    ? Handoffs.newThreadPool(Queues.handoffSpec(spec, workers), workers, threads, Pool::waitForRoom)
                    : new ThreadPoolExecutor(workers, workers, 0, TimeUnit.MILLISECONDS, queue, threads,
                            Pool::waitForRoom);
        }

        /** When the queue is full the acceptor waits for room, as with put() in the other designs. */
        private static void waitForRoom(Runnable task, ThreadPoolExecutor executor) {
            if (executor.isShutdown()) {
                throw new RejectedExecutionException("pool shut down");
            }
            try {
                executor.getQueue().put(task); // safe: every core thread is prestarted and stays alive
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RejectedExecutionException("interrupted while waiting for room", e);
            }
        }

        @Override
        void start(ServerSocket listener, Service service, int requests) {
            pool.prestartAllCoreThreads();
            register(Thread.ofPlatform().name("acceptor").start(() -> {
                for (int i = 0; i < requests; i++) {
                    Socket s = acceptOrNull(listener);
                    if (s == null) {
                        return;
                    }
                    try {
                        pool.execute(() -> service.serve(s));
                    } catch (RejectedExecutionException | HandoffClosedException stopping) {
                        closeQuietly(s);
                        return;
                    }
                }
            }));
        }

        @Override
        int stop(ServerSocket listener, long graceMillis) {
            int alive = super.stop(listener, graceMillis);
            pool.shutdownNow();
            try {
                if (!pool.awaitTermination(graceMillis, TimeUnit.MILLISECONDS)) {
                    alive += pool.getPoolSize();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return alive;
        }

        @Override
        HandoffStats stats() {
            return pool.getQueue() instanceof Handoff<?> h && h.stats().enabled() ? h.stats() : null;
        }
    }
}
