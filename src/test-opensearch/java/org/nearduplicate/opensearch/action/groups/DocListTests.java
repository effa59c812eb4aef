package org.nearduplicate.opensearch.action.groups;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.CircuitBreakingException;
import org.opensearch.core.common.breaker.NoopCircuitBreaker;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.test.OpenSearchTestCase;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.orchestration.groups.DocList;
import org.nearduplicate.orchestration.groups.Reservation;

/** The shard answers' document list: what goes in comes out (also over the wire), and every growth is reserved first. */
public class DocListTests extends OpenSearchTestCase {

    /** A breaker that counts and trips above {@code limit}. */
    static final class CountingBreaker extends NoopCircuitBreaker {
        final AtomicLong used = new AtomicLong();
        final long limit;

        CountingBreaker(long limit) {
            super(CircuitBreaker.REQUEST);
            this.limit = limit;
        }

        @Override
        public double addEstimateBytesAndMaybeBreak(long bytes, String label) {
            if (used.get() + bytes > limit) throw new CircuitBreakingException(
                "[near_duplicate] would be too large: " + label,
                bytes,
                limit,
                Durability.TRANSIENT
            );
            return used.addAndGet(bytes);
        }

        @Override
        public long addWithoutBreaking(long bytes) {
            return used.addAndGet(bytes);
        }

        @Override
        public long getUsed() {
            return used.get();
        }
    }

    public void testWhatGoesInComesOutAlsoOverTheWire() throws Exception {
        CountingBreaker breaker = new CountingBreaker(Long.MAX_VALUE);
        List<Object[]> expected = new ArrayList<>();
        DocList docs;
        try (Reservation reservation = new Reservation(GroupsComputation.breaker(breaker), "test")) {
            boolean signed = randomBoolean(); // a field that verifies: a signature per document (or none)
            boolean written = randomBoolean(); // the write-back's members pass: what each member's group fields hold
            DocList.Builder builder = new DocList.Builder(reservation, signed, written);
            int n = randomIntBetween(0, 500);
            for (int i = 0; i < n; i++) {
                long fp = randomLong();
                String id = randomBoolean() ? randomAlphaOfLengthBetween(1, 30) : randomUnicodeOfLengthBetween(1, 12);
                String routing = randomBoolean() ? null : randomFrom("", randomUnicodeOfLengthBetween(1, 5));
                byte[] signature = signed && randomBoolean() ? randomByteArrayOfLength(Signature.BYTES) : null;
                if (signature != null) signature[0] |= 1; // zeros read as none
                long state = written ? randomLong() : org.nearduplicate.core.groups.WrittenGroup.UNKNOWN;
                builder.add(fp, signature, id, routing, state);
                expected.add(new Object[] { fp, id, routing, signature, state });
            }
            docs = builder.build();
            assertEquals(signed, docs.signed());
            // every array's growth was reserved first: only the arrays' headers are not
            assertThat(reservation.held(), org.hamcrest.Matchers.greaterThanOrEqualTo(docs.ramBytes() - 5 * 16));
        }
        assertEquals(0, breaker.getUsed());
        BytesStreamOutput out = new BytesStreamOutput();
        docs.writeTo(StreamWire.out(out));
        DocList copy;
        try (StreamInput in = out.bytes().streamInput()) {
            copy = DocList.readFrom(StreamWire.in(in));
        }
        for (DocList d : List.of(docs, copy)) {
            assertEquals(expected.size(), d.size());
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i)[0], d.fingerprint(i));
                assertEquals(expected.get(i)[1], d.id(i));
                assertEquals(expected.get(i)[2], d.routing(i));
                assertArrayEquals((byte[]) expected.get(i)[3], d.signature(i));
                assertEquals(expected.get(i)[4], d.written(i));
            }
        }
    }

    public void testGrowthBeyondTheBudgetTripsBeforeItAllocatesAndGivesEverythingBack() {
        CountingBreaker breaker = new CountingBreaker(randomIntBetween(1_000, 50_000));
        Reservation reservation = new Reservation(GroupsComputation.breaker(breaker), "near_duplicate groups");
        DocList.Builder builder = new DocList.Builder(reservation, randomBoolean());
        CircuitBreakingException e = expectThrows(CircuitBreakingException.class, () -> {
            for (int i = 0; i < 1_000_000; i++)
                builder.add(i, "document-" + i, null);
        });
        assertThat(e.getMessage(), org.hamcrest.Matchers.containsString("near_duplicate groups"));
        assertThat(breaker.getUsed(), org.hamcrest.Matchers.lessThanOrEqualTo(breaker.limit));
        reservation.close();
        assertEquals(0, breaker.getUsed());
        reservation.reserve(100, "after close"); // a late answer cannot leave bytes behind
        assertEquals(0, breaker.getUsed());
    }

    public void testTransferMovesBytesWithoutReleasingThem() {
        CountingBreaker breaker = new CountingBreaker(Long.MAX_VALUE);
        Reservation run = new Reservation(GroupsComputation.breaker(breaker), "run");
        run.reserve(1000, "a");
        Reservation result = run.transfer(600);
        run.close();
        assertEquals(600, breaker.getUsed());
        result.close();
        result.close();
        assertEquals(0, breaker.getUsed());
    }
}
