package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * A {@link SketchMethod} with its names, over the node's {@link SketchingService} (whose limits version it reports), so
 * that each method adds only how it sketches.
 */
abstract class NamedSketchMethod implements SketchMethod {
    final SketchingService sketching;
    private final String type;
    private final String defaultTargetField;
    private final String what;

    NamedSketchMethod(SketchingService sketching, String type, String defaultTargetField, String what) {
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
