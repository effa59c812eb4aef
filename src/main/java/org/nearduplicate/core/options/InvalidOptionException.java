package org.nearduplicate.core.options;

/**
 * A bad value for one named option. Carries the option's name, so that an adapter can report it where its platform
 * wants it (an ingest configuration error names the property) without reading it back out of the message. The message
 * starts with the name in brackets, as every message of the engine does: {@code [hashes] must be an integer, got [x]}.
 */
public class InvalidOptionException extends IllegalArgumentException {
    private final String option;
    private final String problem;

    public InvalidOptionException(String option, String problem) {
        this(null, option, problem);
    }

    /** With an {@code owner} (e.g. the query {@code near_duplicate}) named first: {@code [owner] [option] problem}. */
    public InvalidOptionException(String owner, String option, String problem) {
        super((owner == null ? "" : "[" + owner + "] ") + "[" + option + "] " + problem);
        this.option = option;
        this.problem = problem;
    }

    /** The option's name, e.g. {@code max_distance}. */
    public String option() {
        return option;
    }

    /** The message without the leading {@code [owner] [option] }. */
    public String problem() {
        return problem;
    }
}
