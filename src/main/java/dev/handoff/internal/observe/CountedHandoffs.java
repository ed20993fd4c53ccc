/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import dev.handoff.Handoff;

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
 * <p>Each kind's constructor calls {@link #register(Handoff)} as its last statement. A
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
     * Visibility: register() runs after the constructor's last write, and its add to the
     * concurrent set happens-before the emitting thread's iteration that finds the entry, so the
     * periodic hook sees the handoff fully built. That is what javac's this-escape lint warns of
     * in each kind's constructor, and why it is suppressed there. The one case it does not cover
     * is a subclass of a kind: it is registered before its own constructor body runs, so a
     * subclass that overrides size() or capacity() must not rely on its own fields in them.
     */

    /** One entry per live registered handoff; identity equality (WeakReference's own). */
    private static final Set<Entry> LIVE = ConcurrentHashMap.newKeySet();

    /** Entries whose handoff the collector has cleared. */
    private static final ReferenceQueue<Handoff<?>> DROPPED = new ReferenceQueue<>();

    /** Set by the first registration, which adds the listener. */
    private static final AtomicBoolean LISTENING = new AtomicBoolean();

    private CountedHandoffs() {
    }

    /** A registered handoff, held weakly. */
    private static final class Entry extends WeakReference<Handoff<?>> {
        public Entry(Handoff<?> handoff) {
            super(handoff, DROPPED);
        }
    }

    /**
     * Registers a fully constructed handoff for the periodic {@code dev.handoff.Stats} event if
     * it counts or records sojourn times; does nothing otherwise.
     */
    public static void register(Handoff<?> handoff) {
        if (!handoff.spec().stats() && !handoff.spec().sojourn()) {
            return;
        }
        forgetDropped();
        LIVE.add(new Entry(handoff));
        // CAS against the other first registrations only (volatile get, then one winner installs).
        if (!LISTENING.get() && LISTENING.compareAndSet(false, true)) {
            FlightRecorder.addListener(new InstallOnFirstRecording());
        }
    }

    /**
     * Registers {@code outer}, a fully constructed handoff built around {@code inner}, in place
     * of {@code inner}: the event then names the handoff its caller holds, once.
     */
    public static void registerInstead(Handoff<?> outer, Handoff<?> inner) {
        LIVE.removeIf(entry -> entry.get() == inner);
        register(outer);
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
            Handoff<?> handoff = entry.get();
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
