package org.nearduplicate.lucene;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;

import org.nearduplicate.core.groups.WrittenGroup;

/**
 * What documents' group fields hold, read from their doc values for the write-back ({@link WrittenGroup}): one group
 * value and one distance, else {@link WrittenGroup#UNKNOWN} (the document is written). Shared by both platforms' shard
 * passes; one per pass (not thread-safe).
 */
public final class WrittenGroupValues {
    private final String groupField;
    private final String distanceField;
    private final WrittenGroup hash = new WrittenGroup();

    /** The fields' names; either null (not mapped yet): every document is unknown. */
    public WrittenGroupValues(String groupField, String distanceField) {
        this.groupField = groupField;
        this.distanceField = distanceField;
    }

    /** The values of one segment, or null when the fields are not mapped. */
    public Leaf leaf(LeafReader reader) throws IOException {
        if (groupField == null || distanceField == null) return null;
        return new Leaf(DocValues.getSortedSet(reader, groupField), DocValues.getSortedNumeric(reader, distanceField));
    }

    /** One segment's group and distance values, read in increasing document order. */
    public final class Leaf {
        private final SortedSetDocValues groups;
        private final SortedNumericDocValues distances;

        private Leaf(SortedSetDocValues groups, SortedNumericDocValues distances) {
            this.groups = groups;
            this.distances = distances;
        }

        /** The state of {@code doc}'s group fields. */
        public long state(int doc) throws IOException {
            if (groups.advanceExact(doc) == false || groups.docValueCount() != 1) return WrittenGroup.UNKNOWN;
            if (distances.advanceExact(doc) == false || distances.docValueCount() != 1) return WrittenGroup.UNKNOWN;
            BytesRef group = groups.lookupOrd(groups.nextOrd());
            return hash.state(group.bytes, group.offset, group.length, distances.nextValue());
        }
    }
}
