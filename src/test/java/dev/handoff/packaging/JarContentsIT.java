/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff.packaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.handoff.Handoff;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a user of {@code dev.handoff:handoff} gets, read from the packaged jars (failsafe runs this
 * after {@code package}, with the jar on the class path in place of {@code target/classes}): the
 * manifest's implementation entries, META-INF/LICENSE in the jar and the sources jar, the Javadoc
 * jar, the module descriptor, and the module working on the module path without Micrometer,
 * JFR events included.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JarContentsIT {

    /** The library's jar: where {@link Handoff} was loaded from. */
    static Path jar() throws Exception {
        Path jar = Path.of(Handoff.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(jar.toString().endsWith(".jar"), () -> "run by failsafe, against the jar: " + jar);
        return jar;
    }

    /** A jar beside the library's, e.g. {@code -sources.jar}. */
    static Path besideTheJar(String suffix) throws Exception {
        Path jar = jar();
        String name = jar.getFileName().toString();
        return jar.resolveSibling(name.substring(0, name.length() - ".jar".length()) + suffix);
    }

    static String version() {
        return System.getProperty("handoff.version");
    }

    static byte[] license() throws IOException {
        return Files.readAllBytes(Path.of(System.getProperty("handoff.license")));
    }

    static byte[] entry(JarFile jar, String name) throws IOException {
        assertNotNull(jar.getEntry(name), () -> jar.getName() + " has no " + name);
        try (InputStream in = jar.getInputStream(jar.getEntry(name))) {
            return in.readAllBytes();
        }
    }

    @Test
    void theManifestNamesTheImplementationAndItsVersion() throws Exception {
        assertNotNull(version(), "failsafe passes handoff.version");
        try (JarFile jar = new JarFile(jar().toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertEquals("handoff", main.getValue(Attributes.Name.IMPLEMENTATION_TITLE));
            assertEquals(version(), main.getValue(Attributes.Name.IMPLEMENTATION_VERSION));
        }
        assertEquals(version(), Handoff.class.getPackage().getImplementationVersion());
    }

    @Test
    void theJarAndTheSourcesJarCarryTheLicense() throws Exception {
        try (JarFile jar = new JarFile(jar().toFile())) {
            assertArrayEquals(license(), entry(jar, "META-INF/LICENSE"));
        }
        try (JarFile sources = new JarFile(besideTheJar("-sources.jar").toFile())) {
            assertArrayEquals(license(), entry(sources, "META-INF/LICENSE"));
            entry(sources, "module-info.java");
            entry(sources, "dev/handoff/Handoff.java");
        }
    }

    @Test
    void theJavadocJarIsBuilt() throws Exception {
        try (JarFile javadoc = new JarFile(besideTheJar("-javadoc.jar").toFile())) {
            entry(javadoc, "index.html");
            assertNotNull(javadoc.getEntry("dev.handoff/dev/handoff/Handoff.html"),
                    () -> javadoc.stream().limit(20).map(Object::toString).collect(Collectors.joining(", ")));
        }
    }

    @Test
    void theModuleRequiresOnlyTheJdkAndMicrometerStatically() throws Exception {
        ModuleDescriptor module = ModuleFinder.of(jar()).find("dev.handoff")
                .orElseThrow(() -> new AssertionError("no module dev.handoff in the jar")).descriptor();
        Map<String, Set<Requires.Modifier>> requires = module.requires().stream()
                .collect(Collectors.toMap(Requires::name, Requires::modifiers));
        assertEquals(Set.of("java.base", "jdk.jfr", "micrometer.core"), requires.keySet());
        assertEquals(Set.of(), requires.get("jdk.jfr"));
        assertEquals(Set.of(Requires.Modifier.STATIC), requires.get("micrometer.core"));
        assertEquals(Set.of("dev.handoff", "dev.handoff.micrometer"),
                module.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertEquals(version(), module.rawVersion().orElse(null));
    }

    /**
     * The jar alone as a named module in a layer of its own (the platform loader as parent, so
     * nothing of this class path is visible): it resolves and works without Micrometer, JFR
     * records its events, and only HandoffMetrics needs Micrometer.
     */
    @Test
    void theModuleWorksOnTheModulePathWithoutMicrometer() throws Exception {
        ModuleLayer boot = ModuleLayer.boot();
        Configuration config = boot.configuration().resolve(ModuleFinder.of(jar()), ModuleFinder.of(), Set.of("dev.handoff"));
        assertTrue(config.findModule("micrometer.core").isEmpty());
        ModuleLayer layer = boot.defineModulesWithOneLoader(config, ClassLoader.getPlatformClassLoader());
        ClassLoader loader = layer.findLoader("dev.handoff");
        Class<?> handoffs = loader.loadClass("dev.handoff.Handoffs");
        assertEquals("dev.handoff", handoffs.getModule().getName());

        @SuppressWarnings("unchecked")
        BlockingQueue<String> handoff = (BlockingQueue<String>) handoffs.getMethod("create", String.class)
                .invoke(null, "circular:1,stats");
        Path file = Files.createTempFile("module-path", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.handoff.Wait").withThreshold(Duration.ZERO);
            recording.enable("dev.handoff.Stats").with("period", "endChunk");
            recording.start();
            Thread consumer = Thread.ofPlatform().name("module-path-consumer").start(() -> {
                try {
                    handoff.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (consumer.getState() != Thread.State.WAITING) {
                if (System.nanoTime() > deadline) {
                    fail("the consumer did not wait");
                }
                Thread.onSpinWait();
            }
            handoff.put("x");
            consumer.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(consumer.isAlive());
            recording.stop();
            recording.dump(file);
            int identity = System.identityHashCode(handoff);
            List<String> names = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("dev.handoff."))
                    .filter(e -> e.getInt("identity") == identity)
                    .map(RecordedEvent::getEventType).map(t -> t.getName()).distinct().sorted().toList();
            assertEquals(List.of("dev.handoff.Stats", "dev.handoff.Wait"), names);
        } finally {
            Files.deleteIfExists(file);
        }

        assertThrows(NoClassDefFoundError.class,
                () -> Class.forName("dev.handoff.micrometer.HandoffMetrics", true, loader),
                "HandoffMetrics, and nothing else, needs Micrometer");
    }
}
