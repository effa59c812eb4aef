package org.nearduplicate.orchestration.groups;

import java.util.List;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;

/** The write-back's marker in {@code _meta} and the mappings it adds for its fields. */
public class WriteMarkerTests extends PlatformTestCase {

    public void testMarkerSaysWhatRanAndHowItEnded() {
        WriteMarker marker = new WriteMarker("node:7", "fp", null, 0.4, "dup.group", "dup.distance", 0);
        Map<String, Object> running = marker.value("running", Map.of());
        assertEquals(
            List.of("status", "task", "field", "min_similarity", "group_field", "distance_field", "started"),
            List.copyOf(running.keySet())
        );
        assertEquals("node:7", running.get("task"));
        assertEquals("1970-01-01T00:00:00Z", running.get("started"));
        Map<String, Object> failed = marker.value("failed", WriteMarker.outcome(new WriteCounts(), new IllegalStateException("boom")));
        assertEquals("failed", failed.get("status"));
        assertTrue(failed.containsKey("ended"));
        assertEquals("boom", failed.get("reason"));
        assertEquals(0L, failed.get("written"));

        Map<String, Object> meta = WriteMarker.withMarker(Map.of("other", 1), running);
        assertEquals(Map.of("other", 1, WriteMarker.KEY, running), meta);
        assertEquals("completed", WriteMarker.status(new WriteBack.Done(0, List.of())));
        assertEquals("completed_with_failures", WriteMarker.status(new WriteBack.Done(1, List.of("[a]: x"))));
    }

    public void testMissingMappingsAreAddedAndWrongTypesRefused() {
        assertEquals(
            Map.of("dup", Map.of("properties", Map.of("group", Map.of("type", "keyword"), "distance", Map.of("type", "integer")))),
            WriteMarker.missingMappings("dup.group", null, "dup.distance", null)
        );
        assertEquals(Map.of(), WriteMarker.missingMappings("g", "keyword", "d", "long"));
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> WriteMarker.missingMappings("g", "text", "d", null)
        );
        assertTrue(e.getMessage(), e.getMessage().startsWith("[group_field] [g] is mapped as [text]"));
        e = expectThrows(IllegalArgumentException.class, () -> WriteMarker.missingMappings("g", null, "d", "keyword"));
        assertTrue(e.getMessage(), e.getMessage().startsWith("[distance_field] [d] is mapped as [keyword]"));
    }

    public void testPutPathBuildsObjects() {
        Map<String, Object> doc = new java.util.HashMap<>();
        WriteMarker.putPath(doc, "a.b", "x", false);
        WriteMarker.putPath(doc, "a.c", null, false);
        java.util.Map<String, Object> inner = new java.util.HashMap<>();
        inner.put("b", "x");
        inner.put("c", null);
        assertEquals(Map.of("a", inner), doc);
    }
}
