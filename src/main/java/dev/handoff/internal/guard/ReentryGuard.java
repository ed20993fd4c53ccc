/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.internal.guard;

import java.util.Collection;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * Refuses the calls that a caller's code makes back into a handoff while the handoff runs that
 * code under its lock: a drainTo target's add, the equals that remove(Object) asks. The lock,
 * being reentrant, would let such a call in while the handoff is in the middle of its elements,
 * where a take would hand out the element being added a second time.
 */
public final class ReentryGuard {
    /*
     * callingOut is plain. Only the thread holding lock writes it, and it clears it before it
     * unlocks; so a thread holding lock reads its own latest write, and a thread not holding it
     * may read anything but does not act on it (check() asks isHeldByCurrentThread).
     */

    private final ReentrantLock lock;

    /** Whether the holder of lock is running the caller's code. */
    private boolean callingOut;

    /** @param lock the lock under which the handoff runs the caller's code */
    public ReentryGuard(ReentrantLock lock) {
        this.lock = lock;
    }

    /**
     * Throws if the current thread is inside the caller's code that this guard runs. Call at the
     * start of every operation, before taking any lock the thread might not hold yet: a thread in
     * that code holds lock, and taking a second lock after it could invert the lock order.
     *
     * @throws IllegalStateException if so
     */
    public void check() {
        if (callingOut && lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("this handoff is not usable from the code it is calling"
                    + " (a drainTo target's add, an equals)");
        }
    }

    /** Adds e to target, refusing calls back meanwhile. Call only when holding lock. */
    public <E> void add(Collection<? super E> target, E e) {
        callingOut = true;
        try {
            target.add(e);
        } finally {
            callingOut = false;
        }
    }

    /** Asks match about e, refusing calls back meanwhile. Call only when holding lock. */
    public boolean test(Predicate<Object> match, Object e) {
        callingOut = true;
        try {
            return match.test(e);
        } finally {
            callingOut = false;
        }
    }
}
