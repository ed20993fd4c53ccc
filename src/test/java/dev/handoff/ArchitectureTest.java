/*
 * Copyright 2026 the handoff authors. Licensed under the Apache License, Version 2.0.
 */
package dev.handoff;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The layout's rules (docs/developing.md, "Module map"), checked on the library's compiled
 * classes: the contract and the kinds' public classes in {@code dev.handoff}, one internal package
 * per mechanism under {@code dev.handoff.internal}, and which of them may use which.
 */
class ArchitectureTest {

    /** The mechanisms any internal package may use. */
    private static final List<String> SHARED = List.of("waiting", "observe", "probe", "guard");

    /** The packages that hold one kind's mechanism each; none may use another. */
    private static final List<String> KIND_ROOMS = List.of("circular", "linked", "table", "pipe", "classes");

    /** The types of dev.handoff that an internal package may use: the contract, nothing built on it. */
    private static final Set<String> CONTRACT = Set.of("Handoff", "Handoff$Ordering", "HandoffStats",
            "HandoffClosedException", "HandoffSpec", "Importance", "Classifier");

    private static final JavaClasses LIBRARY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.handoff");

    private static String internal(String room) {
        return "dev.handoff.internal." + room;
    }

    @Test
    void noKindsRoomUsesAnotherKindsRoom() {
        for (String room : KIND_ROOMS) {
            String[] others = KIND_ROOMS.stream().filter(r -> !r.equals(room))
                    .map(r -> internal(r) + "..").toArray(String[]::new);
            noClasses().that().resideInAPackage(internal(room) + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(others)
                    .because("each kind's mechanism has its own room; what two kinds share is a shared mechanism")
                    .check(LIBRARY);
        }
    }

    @Test
    void sharedMechanismsUseNoKindsRoom() {
        String[] rooms = KIND_ROOMS.stream().map(r -> internal(r) + "..").toArray(String[]::new);
        noClasses().that().resideInAnyPackage(SHARED.stream().map(r -> internal(r) + "..").toArray(String[]::new))
                .should().dependOnClassesThat().resideInAnyPackage(rooms)
                .check(LIBRARY);
    }

    @Test
    void internalPackagesUseOnlyTheContractOfDevHandoff() {
        DescribedPredicate<JavaClass> beyondTheContract = new DescribedPredicate<>(
                "classes of dev.handoff other than the contract " + CONTRACT) {
            @Override
            public boolean test(JavaClass type) {
                JavaClass c = type.getBaseComponentType(); // an array of a contract type is the contract
                return c.getPackageName().equals("dev.handoff") && !CONTRACT.contains(topLevelName(c))
                        && !CONTRACT.contains(c.getSimpleName());
            }
        };
        noClasses().that().resideInAPackage("dev.handoff.internal..")
                .should().dependOnClassesThat(beyondTheContract)
                .because("a mechanism gets what it needs passed in and never reaches back into a kind")
                .check(LIBRARY);
    }

    @Test
    void theMechanismsThatParkNameTheirOwnerAsAnObject() {
        // the blocker of a park is any Object, as the JDK's is; JFR's events read it through HandoffReader
        noClasses().that().resideInAnyPackage(internal("circular") + "..", internal("linked") + "..",
                        internal("table") + "..", internal("pipe") + "..", internal("waiting") + "..",
                        internal("observe") + "..")
                .should().dependOnClassesThat().haveFullyQualifiedName("dev.handoff.Handoff")
                .because("a mechanism parks on behalf of an owner it does not need to know as a Handoff")
                .check(LIBRARY);
    }

    @Test
    void nothingCallsUpIntoTheFactory() {
        noClasses().that().resideOutsideOfPackage("dev.handoff.micrometer..")
                .and().doNotHaveSimpleName("Handoffs").and().doNotHaveSimpleName("HandoffSpec")
                .and().doNotHaveSimpleName("SpecParser").and().doNotHaveSimpleName("Classifier")
                .and(new DescribedPredicate<>("not nested in the factory or the spec types") {
                    @Override
                    public boolean test(JavaClass c) {
                        String top = topLevelName(c);
                        return !top.equals("Handoffs") && !top.equals("HandoffSpec") && !top.equals("SpecParser");
                    }
                })
                .should().dependOnClassesThat().haveSimpleName("Handoffs")
                .orShould().dependOnClassesThat().haveSimpleName("SpecParser")
                .because("the factory builds the kinds; a kind or a mechanism that called it would close a cycle")
                .check(LIBRARY);
    }

    @Test
    void publicApiExposesNoInternalType() {
        methods().that().arePublic().and().areDeclaredInClassesThat().arePublic()
                .and().areDeclaredInClassesThat().resideInAnyPackage("dev.handoff", "dev.handoff.micrometer")
                .should(new ArchCondition<JavaMethod>("name no internal type in their signature") {
                    @Override
                    public void check(JavaMethod m, ConditionEvents events) {
                        boolean leaks = m.getRawReturnType().getPackageName().startsWith("dev.handoff.internal")
                                || m.getRawParameterTypes().stream()
                                        .anyMatch(p -> p.getPackageName().startsWith("dev.handoff.internal"));
                        if (leaks) {
                            events.add(SimpleConditionEvent.violated(m, m.getFullName() + " names an internal type"));
                        }
                    }
                })
                .check(LIBRARY);
        classes().that().resideInAPackage("dev.handoff").and().arePublic()
                .should().notBeAssignableTo(new DescribedPredicate<JavaClass>("an internal type") {
                    @Override
                    public boolean test(JavaClass c) {
                        return c.getPackageName().startsWith("dev.handoff.internal")
                                && c.getModifiers().contains(JavaModifier.PUBLIC);
                    }
                })
                .check(LIBRARY);
    }

    @Test
    void theModuleExportsTheContractAndTheMicrometerBindingOnly() throws IOException, URISyntaxException {
        Path classes = Path.of(Handoff.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            ModuleDescriptor module = ModuleDescriptor.read(in);
            assertEquals("dev.handoff", module.name());
            Set<String> exported = module.exports().stream().map(ModuleDescriptor.Exports::source)
                    .collect(Collectors.toSet());
            assertEquals(Set.of("dev.handoff", "dev.handoff.micrometer"), exported);
            assertEquals(Set.of(), module.opens(), "no package is opened to reflection");
        }
    }

    private static String topLevelName(JavaClass c) {
        String name = c.getName().substring(c.getPackageName().length() + 1);
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }
}
