/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import dev.handoff.jmh.ProcessCounters;
import dev.handoff.jmh.Queues;
import org.openjdk.jmh.infra.Blackhole;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Throughput of two or more queues measured in alternating short windows, each queue in a JVM of
 * its own, and each one's ratio to the first taken window by window: a comparison that the
 * machine's changing state cannot tilt.
 *
 * <p>Why: on the reference machine the host moves the two vCPUs near each other and apart again
 * within seconds ({@code MachineLimits.lineRoundTrip} changes several-fold from one one-second
 * iteration to the next: docs/benchmarks.md, "Paired comparisons"), and a 1P/1C handoff that moves
 * a cache line or two per element speeds up or slows down with it. {@link HandoffThroughput} runs
 * one queue after another, so two queues' medians can come from different machine states. Here the
 * queues take turns in windows of a few hundred milliseconds (order A B B A, so neither always
 * goes first), and the ratio is taken between neighbouring windows.
 *
 * <p>Each queue runs in a child JVM of its own (this class with {@code --serve}), started with
 * this JVM's options and class path, so that, as in a JMH fork, the benchmark's calls
 * {@code queue.put} and {@code queue.take} see one class and are compiled for it: in one shared
 * JVM they see every queue of the run, and C2 inlines two classes and calls the rest, which
 * tilts the comparison. A child warms up with {@value #WARM_UP_WINDOWS} windows,
 * then waits on its standard input (no CPU) until the driver asks it for a window; only one
 * child runs at a time.
 *
 * <p>A window builds a fresh queue of capacity 1024, starts the producers ({@code put}) and
 * consumers ({@code take}) of the shape, lets them run a quarter window, counts the elements the
 * consumers take in the window and the CPU time the child JVM spent meanwhile (printed as
 * CPU-seconds per million handoffs, the median over windows), then stops the producers and frees the consumers with one
 * {@link EndOfWindow#POISON} each. A thread still blocked 10 s later is a lost wake-up: the child
 * fails, and so does the run.
 *
 * <p>Two options load the comparison as servers are loaded. {@code --busy N} starts N threads in
 * the driver that loop without pause for the whole run, so that every window shares the CPUs with
 * N runnable threads of another process (a busy machine: other processes, GC threads, other
 * pools). {@code --timed} makes the producers and consumers use {@code offer(e, 1 s)} and
 * {@code poll(1 s)} instead of {@code put} and {@code take}. A shape that ends in {@code slow}
 * ({@code p4c1slow}) gives each consumer about a microsecond of work per element, as
 * {@link HandoffThroughput}'s shape of that name: the queue stays full and the producers wait.
 *
 * <p>A name may end in {@code @JAR}: that queue's child then runs from another build's benchmarks
 * jar, so that a change is compared with the code before it, side by side in one run
 * ({@code circular@/tmp/before.jar circular}).
 *
 * <p>Run (JDK 21+): {@code java -cp jmh/target/benchmarks.jar
 * dev.handoff.jmh.throughput.PairedThroughput [--shape p1c1] [--window-ms 200] [--rounds 20]
 * [--forks 3] [--busy 2] [--timed] lbq lock-split}; the names are those of {@code Queues}. {@link
 * dev.handoff.jmh.report.Twins} runs the comparisons of every handoff with its twin.
 */
public final class PairedThroughput {

    private static final Integer[] ELEMENTS =
            new SplittableRandom(2026).ints(4096).boxed().toArray(Integer[]::new);

    /** Longs between two consumers' counters, so that they do not share a cache line. */
    private static final int STRIDE = 16;

    /** Windows a child runs before it reports ready, so that its queue's paths are compiled. */
    static final int WARM_UP_WINDOWS = 5;

    /**
     * How a child's lines to the driver begin; the driver passes any other line through, since
     * the JVM itself may print on standard output (diagnostic options such as PrintCompilation).
     */
    private static final String TAG = "paired: ";

    /** What a child prints when its warm-up is done. */
    private static final String READY = TAG + "ready";

    private PairedThroughput() {
    }

    /**
     * Runs a comparison and prints it, or, with {@code --serve}, serves one queue's windows as a
     * child JVM.
     *
     * @param args {@code [--shape p1c1] [--window-ms 200] [--rounds 20] [--forks 3] [--busy N] [--timed]
     *        kind kind...}
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        String shape = "p1c1";
        long windowMillis = 200;
        int rounds = 20;
        int forks = 3;
        String served = null;
        int busy = 0;
        List<String> kinds = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--shape" -> shape = args[++i];
                case "--window-ms" -> windowMillis = Long.parseLong(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--forks" -> forks = Integer.parseInt(args[++i]);
                case "--serve" -> served = args[++i];
                case "--busy" -> busy = Integer.parseInt(args[++i]);
                case "--timed" -> timed = true;
                default -> kinds.add(args[i]);
            }
        }
        int[] threads = parseShape(shape);
        if (served != null) {
            serve(served, threads, windowMillis);
            return;
        }
        if (busy > 0) {
            System.out.printf(Locale.ROOT, "%d busy-looping threads beside every window%n", busy);
        }
        if (timed) {
            System.out.println("timed offer(e, 1 s) and poll(1 s) instead of put and take");
        }
        List<Thread> busyThreads = startBusyLoops(busy);
        try {
            compare(kinds, shape, windowMillis, forks, rounds).print();
        } finally {
            busyThreads.forEach(Thread::interrupt);
        }
    }

    /** Whether producers and consumers use the timed offer and poll (--timed); children inherit it. */
    private static boolean timed;

    /** Starts n daemon threads that loop until interrupted, each keeping a CPU busy. */
    private static List<Thread> startBusyLoops(int n) {
        List<Thread> loops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            loops.add(Thread.ofPlatform().daemon().name("busy-" + i).start(() -> {
                long spins = 0;
                while (!Thread.currentThread().isInterrupted()) {
                    spins++;
                }
                BLACKHOLE.setOpaque(spins); // so the loop is not removed
            }));
        }
        return loops;
    }

    private static final AtomicLong BLACKHOLE = new AtomicLong();

    /**
     * Measures the queues in alternating windows, each in a child JVM of its own.
     *
     * @param kinds the queues, by their {@code Queues} names; the first is the yardstick
     * @param shape producers and consumers, as {@code p1c4}
     * @param windowMillis the length of a window
     * @param forks how many times to start a fresh set of child JVMs
     * @param rounds windows per queue in each set
     * @return every window's rate
     * @throws IllegalArgumentException if fewer than two queues are named, a name is unknown, the
     *         shape is malformed, or the window, forks or rounds are not positive
     */
    public static Comparison compare(List<String> kinds, String shape, long windowMillis, int forks,
            int rounds) throws IOException, InterruptedException {
        if (kinds.size() < 2) {
            throw new IllegalArgumentException("name at least two queues, the first is the yardstick");
        }
        if (windowMillis <= 0 || forks <= 0 || rounds <= 0) {
            throw new IllegalArgumentException("window, forks and rounds must be positive, were "
                    + windowMillis + " ms, " + forks + ", " + rounds);
        }
        parseShape(shape);
        kinds.forEach(kind -> Queues.create(queueOf(kind), 1024)); // an unknown name fails here, not in a child
        double[][] rates = new double[kinds.size()][forks * rounds];
        double[][] cpu = new double[kinds.size()][forks * rounds];
        for (int f = 0; f < forks; f++) {
            runFork(kinds, shape, windowMillis, rounds, rates, cpu, f * rounds);
        }
        return new Comparison(List.copyOf(kinds), shape, windowMillis, forks, rounds, rates, cpu);
    }

    /**
     * The windows of one comparison: rates[k][f * rounds + r] is queue k's rate in round r of
     * fork f, in elements per second, and cpuNanos[k][f * rounds + r] the CPU time its child JVM
     * spent in that window per element (every thread of that JVM: the benchmark's, GC and JIT).
     */
    public record Comparison(List<String> kinds, String shape, long windowMillis, int forks, int rounds,
            double[][] rates, double[][] cpuNanos) {

        /** Queue k's rate over the yardstick's, window by window. */
        public double[] ratios(int k) {
            double[] ratio = new double[rates[k].length];
            for (int r = 0; r < ratio.length; r++) {
                ratio[r] = rates[k][r] / rates[0][r];
            }
            return ratio;
        }

        /** First quartile, median and third quartile of queue k's ratio to the yardstick. */
        public double[] ratioQuartiles(int k) {
            return quartiles(ratios(k));
        }

        /** The median of queue k's ratio to the yardstick in each fork. */
        public double[] forkMedians(int k) {
            double[] ratio = ratios(k);
            double[] medians = new double[forks];
            for (int f = 0; f < forks; f++) {
                medians[f] = quartiles(Arrays.copyOfRange(ratio, f * rounds, (f + 1) * rounds))[1];
            }
            return medians;
        }

        /** First quartile, median and third quartile of queue k's rate. */
        public double[] rateQuartiles(int k) {
            return quartiles(rates[k]);
        }

        /** Prints the comparison as a table on standard output. */
        public void print() {
            System.out.printf(Locale.ROOT, "shape %s, %d forks (a JVM per queue) of %d rounds of %d ms windows%n",
                    shape, forks, rounds, windowMillis);
            System.out.printf(Locale.ROOT, "%-22s %10s %10s %26s %9s   %s%n", "kind", "median/s", "IQR/2",
                    "ratio to " + kinds.get(0) + " (q1 median q3)", "CPU s/M", "median ratio per fork");
            for (int k = 0; k < kinds.size(); k++) {
                StringBuilder perFork = new StringBuilder();
                for (double m : forkMedians(k)) {
                    perFork.append(String.format(Locale.ROOT, " %.2f", m));
                }
                double[] q = rateQuartiles(k);
                double[] rq = ratioQuartiles(k);
                // CPU-seconds per million handoffs: the median of the windows' CPU per handoff, in us
                System.out.printf(Locale.ROOT, "%-22s %8.2f M %8.2f M %8.2f %8.2f %8.2f %9.3f  %s%n", kinds.get(k),
                        q[1] / 1e6, (q[2] - q[0]) / 2e6, rq[0], rq[1], rq[2], quartiles(cpuNanos[k])[1] / 1e3, perFork);
            }
        }
    }

    /**
     * Starts one child JVM per queue and fills rates[k][from .. from + rounds) with their
     * alternating windows.
     */
    private static void runFork(List<String> kinds, String shape, long windowMillis, int rounds,
            double[][] rates, double[][] cpu, int from) throws IOException, InterruptedException {
        List<Child> children = new ArrayList<>();
        try {
            for (String kind : kinds) { // one at a time, so that warm-ups do not share the CPUs
                children.add(Child.start(kind, shape, windowMillis));
            }
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < kinds.size(); k++) {
                    int q = r % 2 == 0 ? k : kinds.size() - 1 - k; // A B, then B A
                    double[] w = children.get(q).window();
                    rates[q][from + r] = w[0];
                    cpu[q][from + r] = w[1];
                }
            }
        } finally {
            for (Child child : children) {
                child.stop();
            }
        }
    }

    /**
     * The child's side: warms up, prints {@link #READY}, then runs one window per line read from
     * standard input and prints its rate, until the input ends.
     */
    private static void serve(String kind, int[] threads, long windowMillis)
            throws IOException, InterruptedException {
        long window = TimeUnit.MILLISECONDS.toNanos(windowMillis);
        for (int i = 0; i < WARM_UP_WINDOWS; i++) {
            measure(kind, threads[0], threads[1], threads[2] == 1, window);
        }
        System.out.println(READY);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (in.readLine() != null) {
            double[] w = measure(kind, threads[0], threads[1], threads[2] == 1, window);
            System.out.println(TAG + w[0] + " " + w[1]);
        }
    }

    /** A child JVM that serves one queue's windows. */
    private record Child(String kind, Process process, BufferedReader out, Writer in) {

        static Child start(String kind, String shape, long windowMillis) throws IOException {
            int at = kind.indexOf('@');
            String classPath = at < 0 ? System.getProperty("java.class.path") : kind.substring(at + 1);
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            command.addAll(List.of("-cp", classPath,
                    PairedThroughput.class.getName(), "--serve", queueOf(kind), "--shape", shape,
                    "--window-ms", Long.toString(windowMillis)));
            if (timed) {
                command.add("--timed");
            }
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT) // a lost wake-up's message
                    .start();
            Child child = new Child(kind, process,
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)),
                    new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
            child.expect(READY);
            return child;
        }

        /** Runs one window in the child; returns the elements taken per second and the CPU ns per element. */
        double[] window() throws IOException {
            in.write("window\n");
            in.flush();
            String[] figures = next().substring(TAG.length()).split(" ");
            // a child from an earlier build's jar (kind@JAR) may report the rate only
            return new double[] {Double.parseDouble(figures[0]),
                    figures.length > 1 ? Double.parseDouble(figures[1]) : Double.NaN};
        }

        private void expect(String line) throws IOException {
            String got = next();
            if (!got.equals(line)) {
                throw new IllegalStateException(kind + ": expected " + line + ", got " + got);
            }
        }

        /** The child's next tagged line; its other lines are printed as they come. */
        private String next() throws IOException {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith(TAG)) {
                    return line;
                }
                System.out.println(line);
            }
            throw new IllegalStateException(kind + ": child JVM ended (exit " + exitCode()
                    + "); its error output is above");
        }

        private String exitCode() {
            try {
                return process.waitFor(10, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none yet";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "unknown";
            }
        }

        /** Ends the child: closing its input ends its loop; kill it if it does not end. */
        void stop() throws InterruptedException {
            try {
                in.close();
            } catch (IOException e) {
                // the child is gone already
            }
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** The queue's name without the {@code @JAR} of another build's jar. */
    static String queueOf(String kind) {
        int at = kind.indexOf('@');
        return at < 0 ? kind : kind.substring(0, at);
    }

    /**
     * {"p1c4"} to {1, 4, 0}; {"p4c1slow"} to {4, 1, 1}: with {@code slow}, each consumer burns
     * {@link HandoffThroughput#SLOW_CONSUMER_TOKENS} of CPU per element, as in that benchmark's
     * {@code p4c1slow}.
     */
    static int[] parseShape(String shape) {
        Matcher m = Pattern.compile("p(\\d+)c(\\d+)(slow)?").matcher(shape);
        if (!m.matches()) {
            throw new IllegalArgumentException("shape must look like p1c4 or p4c1slow, was " + shape);
        }
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), m.group(3) != null ? 1 : 0};
    }

    /**
     * Runs one window of the given queue; returns the elements consumers took per second and the
     * CPU time this JVM spent per element in the window, in ns.
     */
    static double[] measure(String kind, int producers, int consumers, boolean slow, long windowNanos)
            throws InterruptedException {
        BlockingQueue<Object> queue = Queues.create(kind, 1024);
        AtomicLongArray taken = new AtomicLongArray((consumers + 1) * STRIDE);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> producerThreads = new ArrayList<>();
        List<Thread> consumerThreads = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            int slot = (c + 1) * STRIDE;
            consumerThreads.add(Thread.ofPlatform().daemon().start(() -> consume(queue, taken, slot, slow)));
        }
        for (int p = 0; p < producers; p++) {
            int start = p * 64;
            producerThreads.add(Thread.ofPlatform().daemon().start(() -> produce(queue, stop, start)));
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(windowNanos) / 4);
        long before = sum(taken);
        long cpu0 = ProcessCounters.readCpuNanos();
        long t0 = System.nanoTime();
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(windowNanos));
        long after = sum(taken);
        long t1 = System.nanoTime();
        long cpu1 = ProcessCounters.readCpuNanos();
        stop.set(true);
        for (Thread t : producerThreads) {
            joinOrFail(t, kind); // consumers still take, so a producer blocked in put returns
        }
        for (int c = 0; c < consumers; c++) {
            queue.put(EndOfWindow.POISON);
        }
        for (Thread t : consumerThreads) {
            joinOrFail(t, kind);
        }
        long handoffs = Math.max(after - before, 1);
        return new double[] {(after - before) * 1e9 / (t1 - t0), (double) (cpu1 - cpu0) / handoffs};
    }

    /** Waits for t; a thread still blocked after 10 s is a lost wake-up, and ends the run. */
    private static void joinOrFail(Thread t, String kind) throws InterruptedException {
        if (!t.join(Duration.ofSeconds(10))) {
            throw new IllegalStateException(kind + ": " + t + " still blocked 10 s after its window");
        }
    }

    private static void produce(BlockingQueue<Object> queue, AtomicBoolean stop, int start) {
        try {
            for (int i = start; !stop.getOpaque(); i++) { // opaque: the stop is a hint, seen soon enough
                Object e = ELEMENTS[i & (ELEMENTS.length - 1)];
                if (timed) {
                    while (!queue.offer(e, 1, TimeUnit.SECONDS) && !stop.getOpaque()) {
                        // full for a second: try again until the window ends
                    }
                } else {
                    queue.put(e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void consume(BlockingQueue<Object> queue, AtomicLongArray taken, int slot, boolean slow) {
        try {
            long n = 0;
            for (Object e; (e = timed ? queue.poll(1, TimeUnit.SECONDS) : queue.take()) != EndOfWindow.POISON; ) {
                if (e != null) { // null: the timed poll's second ran out
                    if (slow) {
                        Blackhole.consumeCPU(HandoffThroughput.SLOW_CONSUMER_TOKENS); // the work of handling it
                    }
                    taken.setOpaque(slot, ++n); // one writer per slot; the main thread reads it twice
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long sum(AtomicLongArray taken) {
        long s = 0;
        for (int i = 0; i < taken.length(); i += STRIDE) {
            s += taken.getOpaque(i);
        }
        return s;
    }

    /** First quartile, median, third quartile. */
    static double[] quartiles(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return new double[] {at(v, 0.25), at(v, 0.5), at(v, 0.75)};
    }

    private static double at(double[] sorted, double p) {
        double i = p * (sorted.length - 1);
        int lo = (int) Math.floor(i);
        int hi = (int) Math.ceil(i);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
    }
}
