/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * The live handoffs built with counting or sojourn times on, held weakly, and the JFR hook that emits one
 * {@link StatsEvent} for each of them every period.
 *
 * <p>A spec's {@code build()} calls {@link #register(Object)} once, with the handoff it returns
 * to its caller, after every option is composed around the kind (see {@code HandoffSpec}); no
 * constructor registers, and a handoff built inside another (a class of a handoff with
 * importance classes, the kind under a sojourn recorder) is never registered itself. A kind built
 * with its public {@code (int capacity)} constructor counts nothing and is not registered. A
 * dropped handoff is forgotten: its entry is cleared by the collector and removed at the next
 * registration or emission. Nothing here runs on a handoff's put or take.
 */
public final class CountedHandoffs {
    /*
     * Implementation notes.
     *
     * Installation is lazy in two steps. The first registration adds a FlightRecorderListener,
     * which is cheap; FlightRecorder.addPeriodicEvent initializes JFR's metadata, which is not, so
     * it runs only in recorderInitialized, which JFR calls once, when a recording is first created
     * in this JVM (or at once if one was before the listener): a program that never records pays
     * nothing for it.
     *
     * Visibility: register() runs after the constructor of the handoff has returned (the spec
     * registers what it built), and its add to the concurrent set happens-before the emitting
     * thread's iteration that finds the entry, so the periodic hook sees the handoff fully built.
     * Registration is therefore kept out of every constructor: published there, a handoff would
     * be read by the JFR thread before its constructor ends.
     *
     * What a constructor still hands 'this' to: a kind's mechanism (its core, its slots, its
     * reservation count) keeps the handoff to name it as the park blocker and in dev.handoff.Wait
     * events, and the pipe's mechanism reads the closed flag through it. The mechanism only
     * stores the reference during construction and uses it once an operation runs, after the
     * constructor returned. Every public kind is final, and the abstract bases are package-private
     * with package-private constructors, so no class outside the package can extend one and see
     * its handoff half-built; javac's this-escape lint (on in this build, -Xlint:all) warns of
     * neither, and no suppression is needed.
     */

    /** One entry per live registered handoff; identity equality (WeakReference's own). */
    private static final Set<Entry> LIVE = ConcurrentHashMap.newKeySet();

    /** Entries whose handoff the collector has cleared. */
    private static final ReferenceQueue<Object> DROPPED = new ReferenceQueue<>();

    /** Set by the first registration, which adds the listener. */
    private static final AtomicBoolean LISTENING = new AtomicBoolean();

    private CountedHandoffs() {
    }

    /** A registered handoff, held weakly. */
    private static final class Entry extends WeakReference<Object> {
        Entry(Object handoff) {
            super(handoff, DROPPED);
        }
    }

    /**
     * Registers a fully constructed handoff for the periodic {@code dev.handoff.Stats} event, which
     * reads it through the installed {@link HandoffReader}: call it only for a handoff that counts
     * or records sojourn times.
     */
    public static void register(Object handoff) {
        forgetDropped();
        LIVE.add(new Entry(handoff));
        // CAS against the other first registrations only (volatile get, then one winner installs).
        if (!LISTENING.get() && LISTENING.compareAndSet(false, true)) {
            FlightRecorder.addListener(new InstallOnFirstRecording());
        }
    }

    /** Installs the periodic hook when JFR initializes; JFR does that once per JVM. */
    private static final class InstallOnFirstRecording implements FlightRecorderListener {
        @Override
        public void recorderInitialized(FlightRecorder recorder) {
            FlightRecorder.addPeriodicEvent(StatsEvent.class, CountedHandoffs::emitAll);
        }
    }

    /** The periodic hook: one event per live registered handoff. Runs on a JFR thread. */
    private static void emitAll() {
        forgetDropped();
        for (Entry entry : LIVE) {
            Object handoff = entry.get();
            if (handoff != null) {
                StatsEvent event = new StatsEvent();
                event.read(handoff);
                event.commit();
            }
        }
    }

    private static void forgetDropped() {
        for (Reference<?> dropped; (dropped = DROPPED.poll()) != null; ) {
            LIVE.remove(dropped);
        }
    }

    /** Returns how many registered handoffs are held now, dropped ones not yet forgotten included. */
    public static int registered() {
        forgetDropped();
        return LIVE.size();
    }
}
