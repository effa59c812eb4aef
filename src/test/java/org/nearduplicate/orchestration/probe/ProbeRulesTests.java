package org.nearduplicate.orchestration.probe;

import java.util.Map;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.SimHashSettings;

/** The probe's rules, the same for every method and platform. */
public class ProbeRulesTests extends PlatformTestCase {
    private static final String[] KEYS = { "fingerprint", "fingerprints" };

    public void testExactlyOneProbe() {
        ProbeRules.requireOne(1, KEYS, false, false, false);
        ProbeRules.requireOne(0, KEYS, false, true, false);
        IllegalArgumentException none = expectThrows(
            IllegalArgumentException.class,
            () -> ProbeRules.requireOne(0, KEYS, false, false, false)
        );
        assertEquals("exactly one of [fingerprint], [fingerprints], [like], [text] or [html] is required, got none", none.getMessage());
        IllegalArgumentException two = expectThrows(
            IllegalArgumentException.class,
            () -> ProbeRules.requireOne(1, KEYS, true, false, false)
        );
        assertEquals("exactly one of [fingerprint], [fingerprints], [like], [text] or [html] is required, got 2", two.getMessage());
    }

    public void testAlgorithmGoesWithAValue() {
        ProbeRules.requireAlgorithmWithValue(true, 1, "fingerprint");
        ProbeRules.requireAlgorithmWithValue(false, 0, "fingerprint");
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> ProbeRules.requireAlgorithmWithValue(true, 0, "signature")
        );
        assertEquals("[algorithm] describes a [signature] probe and cannot be combined with [like], [text] or [html]", e.getMessage());
    }

    public void testFieldAlgorithm() {
        ProbeRules.requireFieldAlgorithm(null, "fp", "simhash-v3", "the probe fingerprint was", "fingerprints");
        ProbeRules.requireFieldAlgorithm("simhash-v3", "fp", "simhash-v3", "the probe fingerprint was", "fingerprints");
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> ProbeRules.requireFieldAlgorithm("simhash-v2", "fp", "simhash-v3", "the probe fingerprint was", "fingerprints")
        );
        assertEquals(
            "the probe fingerprint was made with algorithm [simhash-v2] but field [fp] is mapped with algorithm [simhash-v3]; "
                + "fingerprints made differently cannot be compared",
            e.getMessage()
        );
        // v6 and v7 of one option set make the same fingerprint and signature: either probes the other's field
        String v6 = SimHashSettings.DEFAULT_V6.algorithmId(), v7 = SimHashSettings.DEFAULT_V7.algorithmId();
        ProbeRules.requireFieldAlgorithm(v7, "fp", v6, "the probe fingerprint was", "fingerprints");
        ProbeRules.requireFieldAlgorithm(v6, "fp", v7, "the probe fingerprint was", "fingerprints");
        String v5 = SimHashSettings.defaults(5).algorithmId();
        expectThrows(
            IllegalArgumentException.class,
            () -> ProbeRules.requireFieldAlgorithm(v5, "fp", v7, "the probe fingerprint was", "fingerprints")
        );
    }

    public void testStoredValue() {
        assertEquals(new ProbeRules.StoredValue("00ff", null), ProbeRules.StoredValue.of("doc", "fp", "00ff", "fingerprint", "algorithm"));
        ProbeRules.StoredValue object = ProbeRules.StoredValue.of(
            "doc",
            "fp",
            Map.of("fingerprint", "00ff", "algorithm", "simhash-v3"),
            "fingerprint",
            "algorithm"
        );
        assertEquals(new ProbeRules.StoredValue("00ff", "simhash-v3"), object);
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> ProbeRules.StoredValue.of("doc", "fp", Map.of("algorithm", "a"), "fingerprint", "algorithm")
        );
        assertEquals("doc has no [fingerprint] in field [fp]", e.getMessage());
    }
}
