package org.nearduplicate.orchestration.groups;

/** The write-back's {@code requests_per_second}: documents written per second; -1, unlimited. */
public final class RequestsPerSecond {
    private RequestsPerSecond() {}

    /** The slowest throttle: one document per 100 seconds (a lower rate could not be told from a stuck task). */
    public static final float MIN = 0.01f;

    /**
     * A finite number of at least {@link #MIN}, or -1 / "unlimited" for no throttling (the spelling
     * {@code _update_by_query} accepts).
     */
    public static float parse(Object v) {
        if ("unlimited".equals(v)) return -1;
        if (v instanceof String s) {
            try {
                v = Float.parseFloat(s);
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (d == -1) return -1;
            if (Double.isFinite(d) && d >= MIN && d <= Float.MAX_VALUE) return (float) d;
        }
        throw new IllegalArgumentException(invalid(v));
    }

    /** Whether a rate set directly (not parsed) is one {@link #parse} accepts. */
    public static boolean valid(float rate) {
        return rate == -1 || rate >= MIN;
    }

    /** The message of an invalid rate. */
    public static String invalid(Object v) {
        return "[requests_per_second] must be a positive number of at least " + MIN + ", -1 or \"unlimited\", got [" + v + "]";
    }
}
