package org.nearduplicate.orchestration.check;

/**
 * One ingest document of a {@code near_duplicate_check} as the platform hands it over, with its answer: the check
 * reads its fields and metadata, writes its result, then answers exactly once ({@link #pass}, {@link #drop} or
 * {@link #fail}), which continues the document's pipeline.
 */
public interface CheckDocument {
    /** The value at {@code path}; null when missing. */
    Object value(String path);

    /** The document's {@code _index} (an index, alias or data stream name); null when not set. */
    String index();

    /** The document's {@code _id}; null when not set. */
    String id();

    /** Writes {@code value} at {@code path} (dotted names make objects). */
    void set(String path, Object value);

    /** Continues the pipeline with the document. */
    void pass();

    /** Drops the document (the ingest {@code drop} semantics: it is not indexed). */
    void drop();

    /** Fails the document with {@code e}, an ingest error that {@code on_failure} can catch. */
    void fail(Exception e);

    /** The platform's error for a check that could not answer, with the HTTP {@code status} it reports. */
    Exception error(String message, int status);
}
