/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.jmh.throughput;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.infra.Control;

class EndOfWindowTest {

    /**
     * JMH's threads may reach the iteration's teardown ({@code stop()}) right after JMH closes
     * the measurement, before the window's thread has looked for the closing edge: the window
     * must still be measured. Fails (the figures NaN) when stop() does not let the window's
     * thread read the edge first, nearly every time, since it looks only every
     * {@value EndOfWindow#EDGE_POLL_MICROS} us.
     */
    @RepeatedTest(5)
    @Timeout(30)
    void aStopRightAfterTheMeasurementClosesKeepsTheFigures() throws InterruptedException {
        EndOfWindow window = new EndOfWindow(new ArrayBlockingQueue<>(1), TimeUnit.MILLISECONDS.toNanos(20));
        Control control = new Control();
        window.watch(control);
        control.startMeasurement = true;
        Thread.sleep(40); // past the window's end: the window's thread now looks for the closing edge
        control.stopMeasurement = true;
        window.stop();
        assertFalse(Double.isNaN(window.figures().handoffsPerSecond()), "the window was measured");
    }
}
