package org.nearduplicate.orchestration.field;

/**
 * A mapping parameter or combination of parameters a field refuses: each platform throws its mapper parsing
 * exception with this message and this cause.
 */
public class MappingException extends IllegalArgumentException {
    public MappingException(String message) {
        super(message);
    }

    public MappingException(String message, Throwable cause) {
        super(message, cause);
    }
}
