/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.guard;

/**
 * Refuses the calls that a caller's code makes back into a handoff while the calling thread holds
 * something in that handoff that only it can give back: the reservations of the importance
 * classes' drainTo and remove(Object), which run a drain target's add and an equals while they
 * hold them. Without a lock to ask (as {@link ReentryGuard} asks its lock), the guard marks the
 * thread itself for the length of the call. A remove called back from there could wait for a
 * reservation that its own thread holds, for ever.
 *
 * <p>Costs a thread-local look-up per guarded call, so it guards the removals and drains, which
 * hand out reservations in batches, not the takes.
 */
public final class HolderGuard {
    /*
     * holding is the calling thread's own mark: no other thread reads or writes it, so no
     * ordering is needed beyond program order.
     */

    private final ThreadLocal<Boolean> holding = new ThreadLocal<>();

    /**
     * Throws if the current thread is inside a call that this guard marks. Call at the start of
     * every guarded operation, before it acquires anything.
     *
     * @throws IllegalStateException if so
     */
    public void check() {
        if (holding.get() != null) {
            throw new IllegalStateException("this handoff is not usable from the code it is calling"
                    + " (a drainTo target's add, an equals)");
        }
    }

    /** Marks the current thread as holding; pair with {@link #release()} in a finally block. */
    public void hold() {
        holding.set(Boolean.TRUE);
    }

    /** Ends the mark that {@link #hold()} set. */
    public void release() {
        holding.remove();
    }
}
