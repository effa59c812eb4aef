package org.nearduplicate.core.options;

/**
 * A bad value for one named option. Carries the option's name, so that an adapter can report it where its platform
 * wants it (an ingest configuration error names the property) without reading it back out of the message. The message
 * starts with the name in brackets, as every message of the engine does: {@code [hashes] must be an integer, got [x]}.
 */
public class InvalidOptionException extends IllegalArgumentException {
    private final String option;

    public InvalidOptionException(String option, String problem) {
        super("[" + option + "] " + problem);
        this.option = option;
    }

    /** The option's name, e.g. {@code max_distance}. */
    public String option() {
        return option;
    }

    /** The message without the leading {@code [option] }. */
    public String problem() {
        return getMessage().substring(option.length() + 3);
    }
}
