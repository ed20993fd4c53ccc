/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import java.util.Objects;

/**
 * A buffered kind that records how long each element stays inside, its sojourn time:
 * {@code kind:capacity[,option...][,stats],sojourn}, written in Java as
 * {@link HandoffSpec#withSojourn()}. Its handoff is the base's kind, with every guarantee of that
 * kind, and {@link HandoffStats#sojourn()} filled in (what is timed, and the error of the
 * percentiles, are said there). Counting ({@code stats}) is a separate option: either may be on
 * without the other.
 * <pre>{@code
 * Handoff<Runnable> tasks = Handoffs.create("circular:1024,sojourn");
 * long p99 = tasks.stats().sojourn().p99Nanos();   // how long 99% of the tasks waited, at most
 * }</pre>
 *
 * <p>Only the handoff built with the option pays: one {@code System.nanoTime()} and one small
 * object per insert, one clock read and one histogram update per take. A handoff built without
 * it is the kind itself, with no timing code on its paths.
 *
 * <p>The pipe holds nothing, so no element stays to be timed: a pipe spec is refused. With
 * importance classes the spec is a {@link HandoffSpec.Classed} whose base is this one; the times
 * are those of the whole handoff, every class together.
 *
 * @param base a circular buffer, lock-split queue or hash table spec, with or without stats
 */
public record SojournSpec(HandoffSpec base) implements HandoffSpec {

    /**
     * Checks the base.
     *
     * @throws IllegalArgumentException if base is a pipe (it holds no element to time), or is
     *         itself a {@code SojournSpec} or a {@link HandoffSpec.Classed} (write the classes
     *         over the timed spec: {@code spec.withSojourn().withClasses(k)})
     * @throws NullPointerException if base is null
     */
    public SojournSpec {
        switch (Objects.requireNonNull(base, "base spec")) {
            case HandoffSpec.Pipe p -> throw new IllegalArgumentException("'" + p + "' with sojourn: a pipe holds"
                    + " no element, so none stays to be timed; time the consumers' work instead");
            case HandoffSpec.Classed c -> throw new IllegalArgumentException("'" + c + "' with sojourn: write"
                    + " the classes over the timed spec, spec.withSojourn().withClasses(k)");
            case SojournSpec s -> throw new IllegalArgumentException("'" + s + "' records sojourn times already");
            default -> { } // a buffered kind
        }
    }

    /**
     * The spec with sojourn times recorded, in the one form each combination has: over a kind,
     * a {@code SojournSpec}; over classes, the classes over a {@code SojournSpec}.
     */
    static HandoffSpec over(HandoffSpec spec) {
        return switch (spec) {
            case SojournSpec timed -> timed;
            case HandoffSpec.Classed c -> new HandoffSpec.Classed(over(c.base()), c.classes(), c.fair());
            default -> new SojournSpec(spec);
        };
    }

    @Override
    public String kind() {
        return base.kind();
    }

    @Override
    public int capacity() {
        return base.capacity();
    }

    @Override
    public boolean stats() {
        return base.stats();
    }

    /** {@return true: this spec records sojourn times} */
    @Override
    public boolean sojourn() {
        return true;
    }

    @Override
    public SojournSpec withStats() {
        return new SojournSpec(base.withStats());
    }

    /** {@return the canonical string: the base's, then {@code ,sojourn}} */
    @Override
    public String toString() {
        return base + ",sojourn";
    }
}
