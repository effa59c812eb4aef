package org.nearduplicate.lucene;

/** How {@link SimHashQuery} answers one segment; every path but {@link #CANDIDATE_KEYS} is exact. */
public enum SegmentPath {
    /** The probed block keys' postings, verified against the doc values. */
    KEYS,
    /** A scan of the segment's cached {@link FingerprintColumn} ({@link ColumnScan}). */
    COLUMN,
    /** A scan of every fingerprint through the doc values. */
    DOC_VALUES,
    /**
     * The probes' candidate keys (full min-wise values, {@code core.keys.CandidateKeys}), verified against the doc
     * values: exact for the documents that share the query's minimum of keys with a probe, which includes every
     * document the keys' guarantee covers.
     */
    CANDIDATE_KEYS
}
