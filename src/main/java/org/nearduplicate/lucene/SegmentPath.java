package org.nearduplicate.lucene;

/** How {@link SimHashQuery} answers one segment; every path is exact. */
public enum SegmentPath {
    /** The probed block keys' postings, verified against the doc values. */
    KEYS,
    /** A scan of the segment's cached {@link FingerprintColumn} ({@link ColumnScan}). */
    COLUMN,
    /** A scan of every fingerprint through the doc values. */
    DOC_VALUES
}
