package org.nearduplicate.orchestration.check;

import org.junit.Test;

import java.util.List;
import java.util.Map;

import org.nearduplicate.orchestration.check.CheckFakes.Document;
import org.nearduplicate.orchestration.check.CheckFakes.Searches;
import org.nearduplicate.orchestration.check.CheckFakes.StatusError;
import org.nearduplicate.orchestration.check.CheckFakes.Timers;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

/** The check's orchestration on fakes of the platform: what it asks the search, and how it answers each document. */
public class NearDuplicateCheckTests {
    private final Searches searches = new Searches();
    private final Timers timers = new Timers();

    @Test
    public void testOneDocumentIsSearchedAloneWithoutItself() {
        NearDuplicateCheck check = CheckFakes.check(Map.of(), searches, timers);
        Document doc = new Document("a", 0x1234L);
        check.check(doc);
        assertEquals(1, searches.requests.size());
        CandidateSearch.Request request = searches.requests.get(0);
        assertTrue(request.single());
        assertEquals("pages", request.targetIndex());
        assertEquals("simhash", request.field());
        assertEquals("x", request.algorithm());
        assertEquals(3, request.maxDistance());
        assertArrayEquals(new long[] { 0x1234L }, request.fingerprints());
        assertEquals("a", request.id());
        assertEquals("pages", request.index());
        assertEquals(1, request.size());
        assertEquals(List.of(), request.sourceIncludes());
        assertEquals("5s", request.timeout().value());
        assertEquals("waits for its search", 0, doc.answers);

        searches.answer(0);
        assertEquals(1, doc.answers);
        assertTrue(doc.passed);
        assertEquals(Map.of("status", "unique"), doc.result());
        assertEquals("the timer is cancelled", 0, timers.tasks.size());
        assertEquals(64, check.availableLookups());
    }

    @Test
    public void testAHitWithinKIsADuplicateOfTheIndexAndItsGroup() {
        NearDuplicateCheck check = CheckFakes.check(Map.of("group_field", "group"), searches, timers);
        Document doc = new Document("b", 0b1111L);
        check.check(doc);
        assertEquals(List.of("group"), searches.requests.get(0).sourceIncludes());
        searches.answer(0, new CandidateSearch.Hit("orig", "pages", "000000000000000c", path -> "g-orig"));
        Map<String, Object> result = doc.result();
        assertEquals("duplicate", result.get("status"));
        assertEquals("orig", result.get("_id"));
        assertEquals("pages", result.get("_index"));
        assertEquals(2, result.get("distance"));
        assertEquals("index", result.get("source"));
        assertEquals("g-orig", doc.fields.get("group"));
    }

    @Test
    public void testABulkRequestSharesOneSearchAndComparesItsDocumentsWithEachOther() {
        NearDuplicateCheck check = CheckFakes.check(Map.of("window_size", 0, "on_unavailable", "tag"), searches, timers);
        Document first = new Document("first", 0xF0L);
        Document copy = new Document("copy", 0xF1L);
        Document other = new Document("other", ~0xF0L);
        check.checkAll(List.of(first, copy, other));
        assertEquals(1, searches.requests.size());
        CandidateSearch.Request request = searches.requests.get(0);
        assertFalse(request.single());
        assertEquals(30, request.size());
        assertArrayEquals(new long[] { 0xF0L, 0xF1L, ~0xF0L }, request.fingerprints());

        searches.answer(0);
        assertEquals(Map.of("status", "unique"), first.result());
        assertEquals(Map.of("status", "unique"), other.result());
        assertEquals("duplicate", copy.result().get("status"));
        assertEquals("first", copy.result().get("_id"));
        assertEquals("recent", copy.result().get("source"));
        assertEquals(1, copy.result().get("distance"));
    }

    /**
     * simhash-v7 documents carry their candidate keys (the processor's {@code keys}): each search passes them with the
     * fingerprints, so the target's query reads the keys' postings; a batch with a bare value passes a null entry for it,
     * a batch without keys none; malformed keys fail the document, naming the field.
     */
    @Test
    public void testCandidateKeysTravelWithTheirFingerprints() {
        byte[] keysA = new byte[112], keysB = new byte[112];
        keysA[0] = 1;
        keysB[0] = 2;
        Document alone = keyed("alone", 0x10L, keysA);
        CheckFakes.check(Map.of(), searches, timers).check(alone);
        CandidateSearch.Request single = searches.requests.get(0);
        assertEquals(1, single.keys().length);
        assertArrayEquals(keysA, single.keys()[0]);

        Document a = keyed("a", 0x20L, keysA), b = keyed("b", 0x20L, keysB), bare = new Document("bare", 1L << 50);
        CheckFakes.check(Map.of("window_size", 0), searches, timers).checkAll(List.of(a, b, bare));
        CandidateSearch.Request batch = searches.requests.get(1);
        assertFalse(batch.single());
        // the same fingerprint with other keys is another probe: each document's keys are looked up
        assertArrayEquals(new long[] { 0x20L, 0x20L, 1L << 50 }, batch.fingerprints());
        assertArrayEquals(keysA, batch.keys()[0]);
        assertArrayEquals(keysB, batch.keys()[1]);
        assertNull(batch.keys()[2]);

        CheckFakes.check(Map.of("window_size", 0), searches, timers).checkAll(List.of(new Document("c", 3L), new Document("d", 4L)));
        assertNull("no document has keys", searches.requests.get(2).keys());

        Document bad = new Document("pages", "bad");
        bad.fields.put("simhash", Map.of("fingerprint", "0000000000000001", "keys", "%%%", "algorithm", "x"));
        CheckFakes.check(Map.of(), searches, timers).check(bad);
        assertTrue(String.valueOf(bad.failure), bad.failure.getMessage().startsWith("field [simhash] has invalid [keys]: "));
        assertEquals("not searched", 3, searches.requests.size());
    }

    private static Document keyed(String id, long fingerprint, byte[] keys) {
        Document doc = new Document("pages", id);
        doc.fields.put(
            "simhash",
            Map.of(
                "fingerprint",
                org.nearduplicate.core.sketch.Fingerprints.toHex(fingerprint),
                "keys",
                java.util.Base64.getEncoder().encodeToString(keys),
                "algorithm",
                "x"
            )
        );
        return doc;
    }

    @Test
    public void testAFullBatchIsLookedUpAgainOneByOne() {
        NearDuplicateCheck check = CheckFakes.check(Map.of("window_size", 0), searches, timers);
        Document a = new Document("a", 1L), b = new Document("b", 1L << 40);
        check.checkAll(List.of(a, b));
        CandidateSearch.Hit[] full = new CandidateSearch.Hit[20];
        for (int i = 0; i < full.length; i++) {
            full[i] = Searches.hit("h" + i, ~0L);
        }
        searches.answer(0, full);
        assertEquals("each alone", 3, searches.requests.size());
        assertTrue(searches.requests.get(1).single());
        assertTrue(searches.requests.get(2).single());
        searches.answer(1);
        searches.answer(2, Searches.hit("near-b", (1L << 40) | 1));
        assertEquals(Map.of("status", "unique"), a.result());
        assertEquals("near-b", b.result().get("_id"));
    }

    @Test
    public void testAFailedSearchFailsTheDocumentWithItsStatusOrTagsIt() {
        NearDuplicateCheck fail = CheckFakes.check(Map.of(), searches, timers);
        Document refused = new Document("a", 7L);
        fail.check(refused);
        searches.listeners.get(0).onFailure(new StatusError("rejected", 429));
        StatusError error = (StatusError) refused.failure;
        assertEquals(429, error.status);
        assertEquals("[near_duplicate_check] could not check for near-duplicates: lookup failed: rejected", error.getMessage());

        Document broken = new Document("b", 8L);
        fail.check(broken);
        searches.listeners.get(1).onFailure(new StatusError("boom", 500));
        assertEquals("a server error is a 503", 503, ((StatusError) broken.failure).status);

        NearDuplicateCheck tag = CheckFakes.check(Map.of("on_unavailable", "tag"), searches, timers);
        Document tagged = new Document("c", 9L);
        tag.check(tagged);
        searches.listeners.get(2).onFailure(new StatusError("rejected", 429));
        assertTrue(tagged.passed);
        assertEquals(Map.of("status", "unchecked", "reason", "lookup failed: rejected"), tagged.result());
    }

    @Test
    public void testAMissingTargetIsAnEmptyOne() {
        NearDuplicateCheck check = CheckFakes.check(Map.of(), searches, timers);
        Document doc = new Document("a", 7L);
        check.check(doc);
        searches.listeners.get(0).onFailure(new StatusError("no such index", 404));
        assertEquals(Map.of("status", "unique"), doc.result());
    }

    @Test
    public void testShardFailuresMakeNoMatchUnchecked() {
        NearDuplicateCheck check = CheckFakes.check(Map.of("on_unavailable", "tag"), searches, timers);
        Document doc = new Document("a", 7L);
        check.check(doc);
        searches.listeners.get(0).onResponse(new CandidateSearch.Response(List.of(), 2, "another algorithm", 400));
        assertEquals(Map.of("status", "unchecked", "reason", "lookup failed on 2 shard(s): another algorithm"), doc.result());
    }

    @Test
    public void testATimedOutLookupIsAnsweredOnceAndItsLateAnswerIgnored() {
        NearDuplicateCheck check = CheckFakes.check(Map.of("on_unavailable", "tag", "timeout", "2s"), searches, timers);
        Document doc = new Document("a", 7L);
        check.check(doc);
        timers.runAll();
        assertEquals(Map.of("status", "unchecked", "reason", "lookup timed out after 2s"), doc.result());
        searches.answer(0, Searches.hit("late", 7L));
        assertEquals(1, doc.answers);
        assertEquals(64, check.availableLookups());
    }

    @Test
    public void testOnDuplicateDropDropsACopy() {
        NearDuplicateCheck check = CheckFakes.check(Map.of("on_duplicate", "drop"), searches, timers);
        Document doc = new Document("a", 7L);
        check.check(doc);
        searches.answer(0, Searches.hit("orig", 7L));
        assertTrue(doc.dropped);
        assertFalse(doc.passed);
    }

    @Test
    public void testAMissingFieldFailsUnlessIgnored() {
        NearDuplicateCheck check = CheckFakes.check(Map.of(), searches, timers);
        Document missing = new Document("pages", "a");
        check.check(missing);
        assertEquals("field [simhash] is missing, cannot check for near-duplicates", missing.failure.getMessage());

        NearDuplicateCheck ignoring = CheckFakes.check(Map.of("ignore_missing", true), searches, timers);
        Document ignored = new Document("pages", "b");
        ignoring.check(ignored);
        assertTrue(ignored.passed);
        assertNull(ignored.result());
        assertEquals(0, searches.requests.size());
    }

    @Test
    public void testOptionRules() {
        assertEquals(100, CheckFakes.options(Map.of()).batchSize());
        assertEquals(
            "[batch_size] must be between 1 and 1000, got 0",
            assertThrows(IllegalArgumentException.class, () -> CheckFakes.options(Map.of("batch_size", 0))).getMessage()
        );
        assertEquals(
            "[on_duplicate] must be one of [tag, drop], got [keep]",
            assertThrows(IllegalArgumentException.class, () -> CheckFakes.options(Map.of("on_duplicate", "keep"))).getMessage()
        );
        assertEquals(
            "[max_in_flight] must be at least 1, got 0",
            assertThrows(IllegalArgumentException.class, () -> CheckFakes.options(Map.of("max_in_flight", 0))).getMessage()
        );
    }
}
