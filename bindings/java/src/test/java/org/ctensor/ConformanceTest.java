// ConformanceTest.java - the conformance suite (Conformance.java) as a JUnit test, so the Maven run covers it too;
// CMake's ctest runs Conformance.main directly as conformance_java instead.
package org.ctensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConformanceTest {
    @Test
    void everyCasePasses() throws Exception {
        Conformance.Result r = Conformance.run(Conformance.casesDir());
        Conformance.report(r);
        assertEquals(java.util.List.of(), r.failures.subList(0, Math.min(20, r.failures.size())),
                     r.failures.size() + " cases failed");
        assertEquals(true, r.passed > 0, "no case ran");
        Leaks.assertNone();
    }
}
