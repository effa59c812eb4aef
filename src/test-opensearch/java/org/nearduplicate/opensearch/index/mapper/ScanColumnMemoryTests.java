package org.nearduplicate.opensearch.index.mapper;

import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.Directory;

import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreakingException;
import org.opensearch.core.common.breaker.NoopCircuitBreaker;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.lucene.FingerprintColumns;
import org.nearduplicate.lucene.SketchFields;

/** The column cache on the node: its setting and its accounting in the near_duplicate breaker. */
public class ScanColumnMemoryTests extends OpenSearchTestCase {

    /** A breaker with a limit that counts what is held. */
    private static final class LimitedBreaker extends NoopCircuitBreaker {
        final AtomicLong used = new AtomicLong();
        final long limit;

        LimitedBreaker(long limit) {
            super("near_duplicate");
            this.limit = limit;
        }

        @Override
        public double addEstimateBytesAndMaybeBreak(long bytes, String label) {
            if (used.get() + bytes > limit) {
                throw new CircuitBreakingException("[near_duplicate] would be too large: " + label, bytes, limit, Durability.TRANSIENT);
            }
            return used.addAndGet(bytes);
        }

        @Override
        public long addWithoutBreaking(long bytes) {
            return used.addAndGet(bytes);
        }
    }

    public void testSetting() {
        assertNotNull(ScanColumnMemory.columns(Settings.EMPTY, () -> new NoopCircuitBreaker("near_duplicate")));
        // 0 turns the column path off, but the cache exists so that the dynamic setting can turn it on
        FingerprintColumns off = ScanColumnMemory.columns(
            Settings.builder().put("near_duplicate.scan_cache.size", "0b").build(),
            () -> null
        );
        assertEquals(0, off.maxBytes());
        assertTrue(ScanColumnMemory.SIZE_SETTING.isDynamic());
        FingerprintColumns sized = ScanColumnMemory.columns(
            Settings.builder().put("near_duplicate.scan_cache.size", "64mb").build(),
            () -> new NoopCircuitBreaker("near_duplicate")
        );
        assertEquals(64L << 20, sized.maxBytes());
    }

    public void testColumnsAreAccountedInTheBreakerAndFallBackWhenItTrips() throws IOException {
        BlockLayout layout = new BlockLayout(4, 16);
        try (Directory dir = newDirectory()) {
            try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig())) {
                for (int i = 0; i < 1000; i++) {
                    Document doc = new Document();
                    for (var f : SketchFields.simHashFields("fp", layout, randomLong())) {
                        doc.add(f);
                    }
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
            }
            LimitedBreaker roomy = new LimitedBreaker(1 << 20);
            LimitedBreaker tight = new LimitedBreaker(1000);
            Settings settings = Settings.builder().put("near_duplicate.scan_cache.size", "1mb").build();
            FingerprintColumns accounted = ScanColumnMemory.columns(settings, () -> roomy);
            FingerprintColumns refused = ScanColumnMemory.columns(settings, () -> tight);
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                LeafReaderContext leaf = reader.leaves().get(0);
                assertNotNull(accounted.get(leaf, "fp"));
                assertEquals(accounted.stats().bytes(), roomy.used.get());
                assertTrue(roomy.used.get() >= 8000);
                assertNull("the breaker refuses: no column, no error", refused.get(leaf, "fp"));
                assertEquals(1, refused.stats().fallbacks());
                assertEquals(0, tight.used.get());
            }
            assertEquals("released when the segment closes", 0, roomy.used.get());
        }
    }
}
