package org.nearduplicate.opensearch.common;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.Query;

import org.opensearch.index.mapper.MappedFieldType;

/**
 * What the probe queries and rescorers ask of a shard's search context (its mappings, its reader, its errors), so that
 * their code reads the same on both platforms, whose context types differ in name. Each adapter's
 * {@link Platform#shardContext} implements it; the adapter's query and rescorer builder bases hand one over.
 */
public interface ShardContext {
    /** The type of a mapped field, or null when the shard's index does not map it. */
    MappedFieldType fieldType(String field);

    /** The name of the shard's index. */
    String indexName();

    /** The shard's reader, or null when it is not at hand. */
    IndexReader indexReader();

    /** What matches the document of {@code id} on this shard, or null when the index maps no {@code _id}. */
    Query idQuery(String id);

    /** The shard's error for a request it cannot answer (a 400 that names the index); {@code cause} may be null. */
    RuntimeException failure(String message, Throwable cause);

    /** {@link #failure(String, Throwable)} without a cause. */
    default RuntimeException failure(String message) {
        return failure(message, null);
    }
}
