package org.nearduplicate.orchestration.check;

/**
 * A duration option of a {@code near_duplicate_check}, as the platform parsed it: {@code value} as configured (or the
 * default's), {@code millis}, and {@code text}, how the platform prints it (in messages such as a timeout's reason).
 */
public record TimeSpan(String value, long millis, String text) {
    @Override
    public String toString() {
        return text;
    }
}
