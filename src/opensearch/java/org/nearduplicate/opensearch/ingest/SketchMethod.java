package org.nearduplicate.opensearch.ingest;

import java.util.Map;
import java.util.function.Function;

/**
 * The method-specific piece of a {@link SketchProcessor}: its processor type, where it writes by default, and how it
 * reads its own options into a {@link Sketcher}. Everything else a sketch processor does (the fields it reads,
 * {@code target_field}, {@code ignore_missing}, which options are left for the pipeline to report as unknown) is the
 * processor's, so that a new method is one small implementation of this interface.
 */
public interface SketchMethod {

    /** The processor type, e.g. {@code simhash}. */
    String type();

    /** The {@code target_field} when none is given. */
    String defaultTargetField();

    /** What the processor computes, for the error of a null field: {@code "cannot compute " + what()}. */
    String what();

    /**
     * Reads and removes the options this method knows from {@code options} (the rest stay, for the pipeline to report
     * as unknown). An invalid option throws an {@link IllegalArgumentException} whose message starts with the option's
     * name in brackets, so that the configuration error names it once.
     */
    Sketcher sketcher(Map<String, Object> options);

    /**
     * Changes when the node limits the sketcher's settings were resolved with change (they are dynamic): the processor
     * then resolves its options again, so that a pipeline obeys the node's current limits.
     */
    default int limitsVersion() {
        return 0;
    }

    /**
     * A method with its settings: the longest text it accepts, and the value map it stores in {@code target_field} for
     * a text.
     */
    record Sketcher(int maxInputChars, Function<String, Map<String, Object>> sketch) {
    }
}
