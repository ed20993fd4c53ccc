/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.clients;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks that the lines of a run arrived exactly once and, per producer, in order: producer
 * {@code p} logged its sequence numbers {@code 0, 1, ..., expected[p] - 1} in that order, and a
 * line may interleave with other producers' lines but never overtake, repeat or skip one of its own.
 *
 * <p>A line's message is {@link #MESSAGE} with the producer and its sequence number; the check
 * finds the message anywhere in a line, so it reads a layout's full line (time, thread, level)
 * as well as the bare message.
 *
 * <p>Not thread-safe: one thread feeds it (the appender's thread, or the reader of the file).
 * Another thread may read {@link #problems()} after that thread has been joined.
 */
public final class SequenceCheck {

    /** The message every producer logs, as a Log4j parameterized message: producer, then sequence. */
    public static final String MESSAGE = "producer={} seq={}";

    private static final String PRODUCER = "producer=";
    private static final String SEQ = " seq=";

    /** Problems kept in full; beyond these only {@link #problemCount} grows. */
    private static final int KEPT = 10;

    /** Lines each producer logs. */
    private final long[] expected;

    /** The sequence number each producer's next line must carry. Invariant: next[p] <= expected[p]. */
    private final long[] next;

    private final List<String> problems = new ArrayList<>();
    private long problemCount;
    private long lines;

    /**
     * @param expected the number of lines each producer logs, indexed by producer id
     */
    public SequenceCheck(long[] expected) {
        this.expected = expected.clone();
        this.next = new long[expected.length];
    }

    /** A check for {@code lines} lines split as evenly as possible over {@code producers} producers. */
    public static SequenceCheck forLines(long lines, int producers) {
        return new SequenceCheck(share(lines, producers));
    }

    /** Lines per producer: {@code lines / producers}, the first {@code lines % producers} one more. */
    public static long[] share(long lines, int producers) {
        long[] share = new long[producers];
        for (int p = 0; p < producers; p++) {
            share[p] = lines / producers + (p < lines % producers ? 1 : 0);
        }
        return share;
    }

    /** Checks one line of text that contains a message of the form {@link #MESSAGE}. */
    public void acceptLine(CharSequence line) {
        String text = line.toString();
        int at = text.lastIndexOf(PRODUCER);
        int seqAt = at < 0 ? -1 : text.indexOf(SEQ, at);
        if (seqAt < 0) {
            problem("malformed line: " + text);
            return;
        }
        try {
            int producer = Integer.parseInt(text, at + PRODUCER.length(), seqAt, 10);
            long seq = Long.parseLong(text, seqAt + SEQ.length(), text.length(), 10);
            accept(producer, seq);
        } catch (NumberFormatException e) {
            problem("malformed line: " + text);
        }
    }

    /** Checks that {@code seq} is the next sequence number of {@code producer}. */
    public void accept(int producer, long seq) {
        lines++;
        if (producer < 0 || producer >= next.length) {
            problem("line " + lines + ": unknown producer " + producer);
        } else if (seq != next[producer]) {
            problem(String.format(Locale.ROOT, "line %d: producer %d sent seq %d, expected %d (%s)",
                    lines, producer, seq, next[producer], seq < next[producer] ? "repeated or late" : "skipped or early"));
            next[producer] = Math.max(next[producer], seq + 1);
        } else {
            next[producer]++;
        }
    }

    /** Lines accepted so far, well-formed or not. */
    public long lines() {
        return lines;
    }

    /**
     * What went wrong, first problems first, with every producer whose lines did not all arrive;
     * empty when every line arrived exactly once and in order.
     */
    public List<String> problems() {
        List<String> all = new ArrayList<>(problems);
        if (problemCount > KEPT) {
            all.add((problemCount - KEPT) + " more problems");
        }
        for (int p = 0; p < next.length; p++) {
            if (next[p] != expected[p]) {
                all.add(String.format(Locale.ROOT, "producer %d: last seq seen %d, expected %d lines", p, next[p] - 1, expected[p]));
            }
        }
        return all;
    }

    private void problem(String text) {
        if (problemCount++ < KEPT) {
            problems.add(text);
        }
    }
}
