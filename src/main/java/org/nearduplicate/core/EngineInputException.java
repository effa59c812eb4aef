package org.nearduplicate.core;

/**
 * The content cannot be fingerprinted: it is null, blank, too long, or yields no features. The plugin reports it as a
 * client error (an ingest failure that on_failure can handle, or HTTP 400).
 */
public class EngineInputException extends IllegalArgumentException {
    public EngineInputException(String message) {
        super(message);
    }
}
