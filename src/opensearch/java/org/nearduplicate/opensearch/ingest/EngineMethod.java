package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * A {@link SketchMethod} of the node's sketching engine: its names, and the engine's limits version, so that a method
 * is its {@link #sketcher} alone.
 */
abstract class EngineMethod implements SketchMethod {
    final SketchingService sketching;
    private final String type;
    private final String defaultTargetField;
    private final String what;

    EngineMethod(SketchingService sketching, String type, String defaultTargetField, String what) {
        this.sketching = sketching;
        this.type = type;
        this.defaultTargetField = defaultTargetField;
        this.what = what;
    }

    @Override
    public final int limitsVersion() {
        return sketching.limitsVersion();
    }

    @Override
    public final String type() {
        return type;
    }

    @Override
    public final String defaultTargetField() {
        return defaultTargetField;
    }

    @Override
    public final String what() {
        return what;
    }
}
