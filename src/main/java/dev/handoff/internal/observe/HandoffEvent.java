/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;

/**
 * The fields that every JFR event of this library carries about its handoff: the kind, the
 * capacity, and an identity hash that tells two handoffs of one kind apart within a recording.
 * Abstract, so JFR registers only its subclasses, {@link WaitEvent} and {@link StatsEvent}.
 */
@Category("Handoff")
public abstract class HandoffEvent extends Event {

    @Label("Kind")
    @Description("The handoff's kind, as in Handoffs.create: circular, lock-split, pht or pipe")
    public String kind;

    @Label("Capacity")
    @Description("Elements the handoff holds; for the pipe kind, its worker slots")
    public int capacity;

    @Label("Identity")
    @Description("System.identityHashCode of the handoff: the same handoff has the same identity in every event")
    public int identity;

    /**
     * Fills the fields that say which handoff this event is about: its kind and capacity, read by
     * the installed {@link HandoffReader}, when it is a handoff (every owner a mechanism is given
     * is one), its class name otherwise.
     */
    public final void describe(Object handoff) {
        HandoffReader reader = HandoffReader.installed();
        String k = reader == null ? null : reader.kindOf(handoff);
        if (k != null) {
            kind = k;
            capacity = reader.capacityOf(handoff);
        } else {
            kind = handoff.getClass().getSimpleName();
        }
        identity = System.identityHashCode(handoff);
    }

}
