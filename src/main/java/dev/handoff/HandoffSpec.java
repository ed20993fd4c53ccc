/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import dev.handoff.internal.classes.ImportanceClasses;
import dev.handoff.internal.observe.CountedHandoffs;
import dev.handoff.CircularBuffer.Core;
import dev.handoff.CircularBuffer.Waiting;
import dev.handoff.ParallelHashTable.KeySource;
import dev.handoff.ParallelHashTable.Search;
import dev.handoff.ParallelHashTable.SlotForm;
import java.util.List;
import java.util.Objects;

/**
 * What a handoff is built from: its kind, its capacity, whether it counts statistics, and the
 * options of its kind. Immutable; two equal specs build handoffs of the same class with the same
 * configuration.
 *
 * <p>A spec is written in Java, starting from {@link Handoffs#circular(int)},
 * {@link Handoffs#lockSplit(int)}, {@link Handoffs#hashTable(int)} or {@link Handoffs#pipe(int)},
 * or parsed from a string by {@link #parse(String)}; both give equal specs:
 * <pre>{@code
 * HandoffSpec.Circular typed = Handoffs.circular(1024).spinning().withStats();
 * HandoffSpec parsed = HandoffSpec.parse("circular:1024,wait=spin,stats");
 * typed.equals(parsed);                              // true
 * CircularBuffer<Runnable> buffer = typed.build();   // counts, and spins before it parks
 * }</pre>
 * Each kind has a type of its own ({@link Circular}, {@link LockSplit}, {@link HashTable},
 * {@link Pipe}) that offers only that kind's options, so that an option the kind lacks does not
 * compile. Every method that returns a spec returns a new one. A capacity outside
 * {@code [1, the kind's limit]} or a null option is refused where it is given, with an
 * {@link IllegalArgumentException} naming the limit or a {@link NullPointerException}.
 *
 * <p>{@link #toString()} is the canonical spec string: the kind, the capacity, every option of
 * the kind written out (defaults included) in a fixed order, then {@code stats} and {@code sojourn}
 * when on, for instance {@code "pht:1031,slots=cas,key=random,search=summary"}. It parses back to an equal spec. The grammar
 * of spec strings, the options of each kind and the capacity limits are in {@link Handoffs}.
 */
public sealed interface HandoffSpec
        permits HandoffSpec.Circular, HandoffSpec.LockSplit, HandoffSpec.HashTable, HandoffSpec.Pipe,
                HandoffSpec.Classed, SojournSpec {

    /**
     * Parses a spec string such as {@code "circular:101"} or {@code "pht:1031,slots=monitor,stats"};
     * the grammar, the options of each kind and the capacity limits are in {@link Handoffs}.
     *
     * @param spec {@code kind:capacity[,option...]}
     * @return the spec it denotes
     * @throws NullPointerException if spec is null
     * @throws IllegalArgumentException naming the spec, if the kind is unknown (the message lists
     *         the valid kinds), the capacity is not an integer in {@code [1, the kind's limit]}
     *         (the message names the limit), or an option is unknown, repeated, lacks its value,
     *         has a value it does not take, or has an unknown value (the message lists the
     *         kind's valid options)
     */
    static HandoffSpec parse(String spec) {
        return SpecParser.parse(spec);
    }

    /** {@return the kind's name in a spec string: {@code circular}, {@code lock-split}, {@code pht}, {@code pipe}} */
    String kind();

    /** {@return the capacity, within the kind's limit: the number of elements held, or a pipe's worker slots} */
    int capacity();

    /** {@return whether the handoff counts statistics ({@link Handoff#stats()})} */
    boolean stats();

    /**
     * Returns whether the handoff holds elements: true for every kind but the pipe, which hands
     * each element to a waiting worker and whose {@link #capacity()} is its worker slots.
     * Importance classes and sojourn times do not change it.
     *
     * @return false for a pipe, with or without classes; true otherwise
     */
    default boolean buffered() {
        return true;
    }

    /** {@return the number of importance classes, K of {@code classes=K}; 1 for a spec without the option} */
    default int classes() {
        return 1;
    }

    /** {@return a spec equal to this one but with counting of statistics on} */
    HandoffSpec withStats();

    /** {@return whether the handoff records how long each element stays ({@link HandoffStats#sojourn()})} */
    default boolean sojourn() {
        return false;
    }

    /**
     * Returns this spec with the time each element stays inside recorded: {@code ...,sojourn}.
     *
     * @return a {@link SojournSpec} over this one; for {@link Classed}, the classes over one;
     *         this spec if it records them already
     * @throws IllegalArgumentException for a pipe, which holds no element to time
     */
    default HandoffSpec withSojourn() {
        return SojournSpec.over(this);
    }

    /**
     * Builds a new, open, empty handoff of this kind, capacity and options.
     *
     * <p>Every spec builds through one composition, in this order: the kind, with its capacity
     * and options, counting if {@link #stats()}; then its importance classes
     * ({@link #withClasses(int)}): K handoffs of the kind behind one, or for the pipe its waiting
     * producers served by class; then the recorder of sojourn times around them
     * ({@link #withSojourn()}); last, when the handoff counts or records sojourn times, its
     * registration for JFR's periodic {@code dev.handoff.Stats} event. Only the handoff returned
     * is registered, once it is fully built; a handoff built inside it (a class, the kind under
     * the recorder) never is.
     *
     * @param <E> the element type
     * @return the new handoff
     */
    default <E> Handoff<E> build() {
        return compose(this, null);
    }

    /**
     * Builds the handoff with elements classified by {@code classifier}, as
     * {@link Classed#build(Classifier)} does; only a spec with importance classes takes one.
     *
     * @param classifier the class of each element, in {@code [0, K)}
     * @param <E> the element type
     * @return the new handoff
     * @throws NullPointerException if classifier is null
     * @throws IllegalArgumentException if this spec has no importance classes (no {@code classes=K})
     */
    default <E> Handoff<E> build(Classifier<? super E> classifier) {
        Objects.requireNonNull(classifier, "classifier");
        throw new IllegalArgumentException("handoff spec '" + this + "': a classifier needs the option classes=K");
    }

    /**
     * Returns this spec with {@code classes} importance classes, each of this spec's capacity,
     * served by the rule of {@link Importance} with the default {@code fair=16}:
     * {@code ...,classes=K}.
     *
     * @param classes K, from 1 to 64
     * @return the new spec
     * @throws IllegalArgumentException if classes is out of range, or K times the capacity
     *         exceeds {@code Integer.MAX_VALUE}
     */
    default Classed withClasses(int classes) {
        return new Classed(this, classes, ImportanceClasses.DEFAULT_FAIR);
    }

    /** {@return the canonical spec string ({@code "circular:1024,wait=spin,stats"}): it parses back to an equal spec} */
    @Override
    String toString();

    /*
     * Implementation notes.
     *
     * The one composition of the options, the order that build() states: kind, classes,
     * sojourn, registration. A spec is one of three shapes (SojournSpec's constructor and
     * Classed's refuse the rest): a kind; a SojournSpec over a kind; a Classed over either. Each
     * step asks the spec, never the handoff it built, and each kind's record builds its own
     * handoffs (newHandoff, and newClass for one class of many), so no handoff type learns
     * another option's type. Registration is the last step, after every constructor returned:
     * see CountedHandoffs for why no constructor registers.
     */

    /**
     * Builds spec's handoff: its kind and classes, the sojourn recorder around them if asked,
     * then registers the handoff returned.
     *
     * @param classifier the classes' classifier; null when the spec has no classes
     */
    private static <E> Handoff<E> compose(HandoffSpec spec, Classifier<? super E> classifier) {
        Handoff<E> built = spec.sojourn()
                ? SojournHandoff.around(spec, classifier, spec::kindWithClasses)
                : spec.kindWithClasses(classifier);
        if (spec.stats() || spec.sojourn()) {
            CountedHandoffs.register(built); // the periodic Stats event reports what a handoff counts
        }
        return built;
    }

    /**
     * The first two steps of {@link #compose}: the kind, with importance classes if the spec has
     * them; unregistered.
     *
     * @param classifier the classes' classifier; null when the spec has no classes
     */
    private <T> AbstractHandoff<T> kindWithClasses(Classifier<? super T> classifier) {
        HandoffSpec kind = kindOf(this);
        return this instanceof Classed classed ? classed.newHandoff(kind, classifier) : newKind(kind);
    }

    /** The kind under a spec's classes and sojourn option: a Circular, LockSplit, HashTable or Pipe. */
    private static HandoffSpec kindOf(HandoffSpec spec) {
        return switch (spec) {
            case Classed classed -> kindOf(classed.base());
            case SojournSpec timed -> kindOf(timed.base());
            default -> spec;
        };
    }

    /** The handoff of a kind, counting if its spec counts; unregistered. */
    private static <T> AbstractHandoff<T> newKind(HandoffSpec kind) {
        return switch (kind) {
            case Circular circular -> circular.newHandoff();
            case LockSplit lockSplit -> lockSplit.newHandoff();
            case HashTable table -> table.newHandoff();
            case Pipe pipe -> pipe.newHandoff();
            case Classed classed -> throw new AssertionError(classed); // kindOf took it off
            case SojournSpec timed -> throw new AssertionError(timed);
        };
    }

    /** The handoff of K > 1 classes of a kind: K handoffs of it, or the pipe serving producers by class. */
    private static <T> AbstractHandoff<T> newClasses(HandoffSpec kind, Classed spec, ImportanceClasses<T> importance) {
        return switch (kind) {
            case Circular circular -> new ClassedHandoff<>(spec, importance, circular::newClass);
            case LockSplit lockSplit -> new ClassedHandoff<>(spec, importance, lockSplit::newClass);
            case HashTable table -> new ClassedHandoff<>(spec, importance, table::newClass);
            case Pipe pipe -> pipe.newHandoff(spec, importance);
            case Classed classed -> throw new AssertionError(classed); // kindOf took it off
            case SojournSpec timed -> throw new AssertionError(timed);
        };
    }

    /**
     * A {@link CircularBuffer}: {@code circular:capacity[,wait=park|spin][,core=lock|ring|cells][,stats]}.
     *
     * @param capacity the number of elements held, 1 to {@link CircularBuffer#MAX_CAPACITY}
     *        ({@link CircularBuffer#MAX_RING_CAPACITY} with {@code core=ring})
     * @param waiting how a thread waits for an element or for room: {@code wait=park} (the
     *        default) or {@code wait=spin}
     * @param core what the buffer is built on: {@code core=lock} (the default), one lock as in
     *        {@code ArrayBlockingQueue}, {@code core=ring}, a lock-free ring whose puts and
     *        takes lock only to wait, or {@code core=cells}, positions claimed by fetch-and-add
     * @param stats whether the buffer counts statistics
     */
    record Circular(int capacity, Waiting waiting, Core core, boolean stats) implements HandoffSpec {
        private static final SpecParser.Choice<Circular, Waiting> WAIT =
                SpecParser.Choice.of("wait", Waiting.values(), Waiting::specName, Waiting.PARK, Circular::waiting);
        private static final SpecParser.Choice<Circular, Core> CORE =
                SpecParser.Choice.of("core", Core.values(), Core::specName, Core.LOCK, Circular::core);

        /** The kind's options, as spec strings write them: its part of the parser's grammar. */
        static final SpecParser.Grammar<Circular> GRAMMAR = new SpecParser.Grammar<>("circular",
                List.<SpecParser.Choice<Circular, ?>>of(WAIT, CORE),
                (capacity, given, stats) -> new Circular(capacity, given.get(WAIT), given.get(CORE), stats));

        /**
         * Checks the arguments, as {@link CircularBuffer}'s constructor does.
         *
         * @throws IllegalArgumentException if capacity is not in {@code [1, MAX_CAPACITY]} of the core
         * @throws NullPointerException if waiting or core is null
         */
        public Circular {
            Objects.requireNonNull(waiting, "waiting");
            CircularBuffer.checkCapacity(capacity, Objects.requireNonNull(core, "core"));
        }

        /**
         * A spec with {@code core=lock}.
         *
         * @param capacity the number of elements held, 1 to {@link CircularBuffer#MAX_CAPACITY}
         * @param waiting how a thread waits for an element or for room
         * @param stats whether the buffer counts statistics
         * @throws IllegalArgumentException if capacity is not in {@code [1, MAX_CAPACITY]}
         * @throws NullPointerException if waiting is null
         */
        public Circular(int capacity, Waiting waiting, boolean stats) {
            this(capacity, waiting, Core.LOCK, stats);
        }

        /**
         * Returns this spec with the given core.
         *
         * @param on what the buffer is built on
         * @return the new spec
         * @throws IllegalArgumentException if the capacity is beyond the core's limit
         * @throws NullPointerException if on is null
         */
        public Circular core(Core on) {
            return new Circular(capacity, waiting, on, stats);
        }

        /**
         * Returns this spec with {@link Core#RING}: {@code core=ring}.
         *
         * @return the new spec
         * @throws IllegalArgumentException if the capacity is over {@link CircularBuffer#MAX_RING_CAPACITY}
         */
        public Circular ring() {
            return core(Core.RING);
        }

        /** {@return this spec with {@link Core#CELLS}: {@code core=cells}} */
        public Circular cells() {
            return core(Core.CELLS);
        }

        /**
         * Returns this spec with the given waiting policy.
         *
         * @param policy how a thread waits for an element or for room
         * @return the new spec
         * @throws NullPointerException if policy is null
         */
        public Circular waiting(Waiting policy) {
            return new Circular(capacity, policy, core, stats);
        }

        /** {@return this spec with {@link Waiting#SPIN_THEN_PARK}: {@code wait=spin}} */
        public Circular spinning() {
            return waiting(Waiting.SPIN_THEN_PARK);
        }

        @Override
        public Circular withStats() {
            return new Circular(capacity, waiting, core, true);
        }

        @Override
        public String kind() {
            return GRAMMAR.kind();
        }

        @Override
        public <E> CircularBuffer<E> build() {
            return (CircularBuffer<E>) HandoffSpec.<E>compose(this, null);
        }

        /** The buffer of this spec, unregistered. */
        <E> CircularBuffer<E> newHandoff() {
            return new CircularBuffer<>(this);
        }

        /** One class of a buffer with importance classes: this buffer, counting nothing (the classes count). */
        <E> CircularBuffer<E> newClass() {
            return new CircularBuffer<>(new Circular(capacity, waiting, core, false));
        }

        @Override
        public String toString() {
            return GRAMMAR.write(this);
        }
    }

    /**
     * A {@link LockSplitQueue}: {@code lock-split:capacity[,stats]}.
     *
     * @param capacity the number of elements held, 1 to {@link LockSplitQueue#MAX_CAPACITY}
     * @param stats whether the queue counts statistics
     */
    record LockSplit(int capacity, boolean stats) implements HandoffSpec {
        /** The kind's options (none but the common ones): its part of the parser's grammar. */
        static final SpecParser.Grammar<LockSplit> GRAMMAR = new SpecParser.Grammar<>("lock-split", List.of(),
                (capacity, given, stats) -> new LockSplit(capacity, stats));

        /**
         * Checks the capacity, as {@link LockSplitQueue}'s constructor does.
         *
         * @throws IllegalArgumentException if capacity {@code <= 0}
         */
        public LockSplit {
            LockSplitQueue.checkCapacity(capacity, "LockSplitQueue");
        }

        @Override
        public LockSplit withStats() {
            return new LockSplit(capacity, true);
        }

        @Override
        public String kind() {
            return GRAMMAR.kind();
        }

        @Override
        public <E> LockSplitQueue<E> build() {
            return (LockSplitQueue<E>) HandoffSpec.<E>compose(this, null);
        }

        /** The queue of this spec, unregistered. */
        <E> LockSplitQueue<E> newHandoff() {
            return new LockSplitQueue<>(this);
        }

        /** One class of a queue with importance classes: this queue, counting nothing (the classes count). */
        <E> LockSplitQueue<E> newClass() {
            return new LockSplitQueue<>(new LockSplit(capacity, false));
        }

        @Override
        public String toString() {
            return GRAMMAR.write(this);
        }
    }

    /**
     * A {@link ParallelHashTable}:
     * {@code pht:capacity[,slots=monitor|cas][,key=random|hash][,search=summary|probe|cursor][,stats]}.
     *
     * @param capacity the number of slots, 1 to {@link ParallelHashTable#MAX_CAPACITY}, or to
     *        {@link ParallelHashTable#MAX_MONITOR_CAPACITY} with monitor slots
     * @param slots the slot form: {@code slots=cas} (the default) or {@code slots=monitor}
     * @param keys where a producer's probe starts: {@code key=random} (the default) or
     *        {@code key=hash}, the element's {@code hashCode()}
     * @param search how a consumer finds an element: {@code search=summary} (the default),
     *        {@code search=probe}, the papers' probe sequence, or {@code search=cursor}, the
     *        probe sequence and a walk from the consumer's own cursor in turn
     * @param stats whether the table counts statistics
     */
    record HashTable(int capacity, SlotForm slots, KeySource keys, Search search, boolean stats)
            implements HandoffSpec {
        private static final SpecParser.Choice<HashTable, SlotForm> SLOTS = SpecParser.Choice.of("slots",
                SlotForm.values(), SlotForm::specName, ParallelHashTable.DEFAULT_SLOT_FORM, HashTable::slots);
        private static final SpecParser.Choice<HashTable, KeySource> KEY = SpecParser.Choice.of("key",
                KeySource.values(), KeySource::specName, ParallelHashTable.DEFAULT_KEY_SOURCE, HashTable::keys);
        private static final SpecParser.Choice<HashTable, Search> SEARCH = SpecParser.Choice.of("search",
                Search.values(), Search::specName, ParallelHashTable.DEFAULT_SEARCH, HashTable::search);

        /** The kind's options, as spec strings write them: its part of the parser's grammar. */
        static final SpecParser.Grammar<HashTable> GRAMMAR = new SpecParser.Grammar<>("pht",
                List.<SpecParser.Choice<HashTable, ?>>of(SLOTS, KEY, SEARCH),
                (capacity, given, stats) -> new HashTable(capacity, given.get(SLOTS), given.get(KEY),
                        given.get(SEARCH), stats));

        /**
         * Checks the arguments, as {@link ParallelHashTable}'s constructor does.
         *
         * @throws IllegalArgumentException if capacity is not in {@code [1, the form's limit]}
         * @throws NullPointerException if slots, keys or search is null
         */
        public HashTable {
            Objects.requireNonNull(slots, "slot form");
            Objects.requireNonNull(keys, "key source");
            Objects.requireNonNull(search, "search");
            ParallelHashTable.checkCapacity(capacity, slots);
        }

        /**
         * Returns this spec with the given slot form.
         *
         * @param form how the slots are built
         * @return the new spec
         * @throws IllegalArgumentException if the capacity is above the form's limit
         * @throws NullPointerException if form is null
         */
        public HashTable slots(SlotForm form) {
            return new HashTable(capacity, form, keys, search, stats);
        }

        /**
         * Returns this spec with the given key source.
         *
         * @param source where a producer's probe starts
         * @return the new spec
         * @throws NullPointerException if source is null
         */
        public HashTable keys(KeySource source) {
            return new HashTable(capacity, slots, source, search, stats);
        }

        /**
         * Returns this spec with the given search.
         *
         * @param how how a consumer finds an element
         * @return the new spec
         * @throws NullPointerException if how is null
         */
        public HashTable search(Search how) {
            return new HashTable(capacity, slots, keys, how, stats);
        }

        @Override
        public HashTable withStats() {
            return new HashTable(capacity, slots, keys, search, true);
        }

        @Override
        public String kind() {
            return GRAMMAR.kind();
        }

        @Override
        public <E> ParallelHashTable<E> build() {
            return (ParallelHashTable<E>) HandoffSpec.<E>compose(this, null);
        }

        /** The table of this spec, unregistered. */
        <E> ParallelHashTable<E> newHandoff() {
            return new ParallelHashTable<>(this);
        }

        /** One class of a table with importance classes: this table, counting nothing (the classes count). */
        <E> ParallelHashTable<E> newClass() {
            return new ParallelHashTable<>(new HashTable(capacity, slots, keys, search, false));
        }

        @Override
        public String toString() {
            return GRAMMAR.write(this);
        }
    }

    /**
     * A {@link PipeHandoff}: {@code pipe:workerSlots[,stats]}.
     *
     * @param capacity the number of worker slots, 1 to {@link PipeHandoff#MAX_CAPACITY}
     * @param stats whether the pipe counts statistics
     */
    record Pipe(int capacity, boolean stats) implements HandoffSpec {
        /** The kind's options (none but the common ones): its part of the parser's grammar. */
        static final SpecParser.Grammar<Pipe> GRAMMAR = new SpecParser.Grammar<>("pipe", List.of(),
                (capacity, given, stats) -> new Pipe(capacity, stats));

        /**
         * Checks the number of worker slots, as {@link PipeHandoff}'s constructor does.
         *
         * @throws IllegalArgumentException if capacity is not in {@code [1, MAX_CAPACITY]}
         */
        public Pipe {
            PipeHandoff.checkCapacity(capacity);
        }

        @Override
        public Pipe withStats() {
            return new Pipe(capacity, true);
        }

        /** {@return false: a pipe holds no element, and its capacity is its worker slots} */
        @Override
        public boolean buffered() {
            return false;
        }

        @Override
        public String kind() {
            return GRAMMAR.kind();
        }

        @Override
        public <E> PipeHandoff<E> build() {
            return (PipeHandoff<E>) HandoffSpec.<E>compose(this, null);
        }

        /** The pipe of this spec, unregistered. */
        <E> PipeHandoff<E> newHandoff() {
            return new PipeHandoff<>(this);
        }

        /**
         * The pipe of {@code classed}, K > 1 classes over this spec, unregistered: the pipe holds
         * nothing, so the classes are those of its waiting producers.
         */
        <E> PipeHandoff<E> newHandoff(Classed classed, ImportanceClasses<E> importance) {
            return new PipeHandoff<>(classed, this, importance);
        }

        @Override
        public String toString() {
            return GRAMMAR.write(this);
        }
    }

    /**
     * A kind with importance classes: {@code kind:capacity[,option...],classes=K,fair=N[,stats]}.
     * The handoff holds K handoffs of the base spec, one per class, so that {@link #capacity()}
     * is the capacity of each class and the handoff's own {@link Handoff#capacity()} is K times
     * it; for the pipe, the base's worker slots, whose waiting producers are served by class.
     * See {@link Importance} for which element a take returns and the bound on waiting.
     *
     * @param base the kind, its capacity per class and its options, or a {@link SojournSpec} of
     *        them; not itself {@code Classed}
     * @param classes K, the number of classes, from 1 to 64 (one class builds the base kind)
     * @param fair N, every N-th take serves the classes in turn, {@code >= 1}
     */
    record Classed(HandoffSpec base, int classes, int fair) implements HandoffSpec {
        /**
         * Checks the arguments.
         *
         * @throws IllegalArgumentException if classes or fair is out of range, base is itself
         *         classed, or K times the capacity exceeds {@code Integer.MAX_VALUE}
         * @throws NullPointerException if base is null
         */
        public Classed {
            Objects.requireNonNull(base, "base spec");
            if (base instanceof Classed) {
                throw new IllegalArgumentException("a spec has importance classes once: " + base);
            }
            new ImportanceClasses<>(classes, fair, Classifier.byImportance(classes)); // checks K and N
            if (base.buffered() && (long) classes * base.capacity() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(classes + " classes of capacity " + base.capacity()
                        + " hold more than Integer.MAX_VALUE elements");
            }
        }

        /**
         * Returns this spec with every N-th take serving the classes in turn: {@code fair=N}.
         *
         * @param n N, {@code >= 1}
         * @return the new spec
         * @throws IllegalArgumentException if n {@code < 1}
         */
        public Classed fair(int n) {
            return new Classed(base, classes, n);
        }

        @Override
        public Classed withClasses(int k) {
            return new Classed(base, k, fair);
        }

        @Override
        public Classed withStats() {
            return new Classed(base.withStats(), classes, fair);
        }

        @Override
        public String kind() {
            return base.kind();
        }

        /** Returns the capacity of each class (for the pipe, its worker slots). */
        @Override
        public int capacity() {
            return base.capacity();
        }

        @Override
        public boolean stats() {
            return base.stats();
        }

        @Override
        public boolean sojourn() {
            return base.sojourn();
        }

        /** {@return the base's: classes add no worker slots to a pipe, and make no other kind a pipe} */
        @Override
        public boolean buffered() {
            return base.buffered();
        }

        /**
         * Builds the handoff with elements classified by {@link Classifier#byImportance(int)}:
         * an element that implements {@link Importance} by its class, any other in the least
         * important class.
         */
        @Override
        public <E> Handoff<E> build() {
            return build(Classifier.byImportance(classes));
        }

        /**
         * Builds the handoff with elements classified by {@code classifier}.
         *
         * @param classifier the class of each element, in {@code [0, K)}
         * @param <E> the element type
         * @return the new handoff
         * @throws NullPointerException if classifier is null
         */
        @Override
        public <E> Handoff<E> build(Classifier<? super E> classifier) {
            return compose(this, Objects.requireNonNull(classifier, "classifier"));
        }

        /**
         * The handoff of these classes over {@code kind}, the kind under the base, unregistered;
         * with one class, the kind itself (the classifier is never called: every element is of
         * class 0).
         */
        <T> AbstractHandoff<T> newHandoff(HandoffSpec kind, Classifier<? super T> classifier) {
            ImportanceClasses<T> importance = new ImportanceClasses<>(classes, fair, classifier);
            if (classes == 1) {
                return newKind(kind);
            }
            return newClasses(kind, base == kind ? this : new Classed(kind, classes, fair), importance);
        }

        @Override
        public String toString() {
            return SpecParser.writeClasses(this);
        }
    }
}
