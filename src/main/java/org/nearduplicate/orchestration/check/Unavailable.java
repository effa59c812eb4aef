package org.nearduplicate.orchestration.check;

/**
 * Why a {@code near_duplicate_check} could not answer for sure, and the HTTP status of the error when
 * {@code on_unavailable} is {@code fail}. {@code mayFail}: {@code on_unavailable: fail} turns it into an ingest error;
 * a possibly stale search (the search ran, but may not show recent writes) is always tagged {@code unchecked}, so
 * that a bulk load with refresh off does not fail its documents.
 */
record Unavailable(String reason, int status, boolean mayFail) {
    static final int BAD_REQUEST = 400;
    static final int TOO_MANY_REQUESTS = 429;
    static final int SERVICE_UNAVAILABLE = 503;

    Unavailable(String reason, int status) {
        this(reason, status, true);
    }

    /** Prefix of the reason of a lookup that did not answer within the processor's {@code timeout}. */
    static final String TIMED_OUT = "lookup timed out after ";

    /** Whether the lookup timed out (counted apart in the stats). */
    boolean timedOut() {
        return reason != null && reason.startsWith(TIMED_OUT);
    }
}
