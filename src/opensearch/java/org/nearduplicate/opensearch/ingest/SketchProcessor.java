package org.nearduplicate.opensearch.ingest;

import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code simhash}, {@code minhash} and {@code imatch} ingest processors: reads the text of {@code field} or
 * {@code fields} ({@link SourceText}) and writes what its {@link SketchMethod} makes of it into {@code target_field}.
 * The options common to every method are read here once, so that the methods cannot drift apart in how they treat them.
 */
public final class SketchProcessor extends AbstractProcessor {
    private final SketchMethod method;
    private final List<String> fields;
    private final String targetField;
    private final boolean ignoreMissing;
    /** The method's own options as configured, to resolve them again when the node limits change. */
    private final Map<String, Object> options;
    /** The sketcher of the node limits at {@link #limitsVersion}. */
    private volatile SketchMethod.Sketcher sketcher;
    private volatile int limitsVersion;

    SketchProcessor(
        String tag,
        String description,
        SketchMethod method,
        List<String> fields,
        String targetField,
        boolean ignoreMissing,
        Map<String, Object> options,
        SketchMethod.Sketcher sketcher,
        int limitsVersion
    ) {
        super(tag, description);
        this.method = method;
        this.fields = List.copyOf(fields);
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.options = java.util.Collections.unmodifiableMap(new HashMap<>(options)); // values may be null
        this.sketcher = sketcher;
        this.limitsVersion = limitsVersion;
    }

    /**
     * The sketcher of the node's current limits: resolved again after a limit changed, so an option left out takes the
     * new node value, and an explicit option above a lowered node limit fails the document naming the node setting.
     */
    private SketchMethod.Sketcher sketcher() {
        int version = method.limitsVersion();
        if (version != limitsVersion) {
            SketchMethod.Sketcher resolved = method.sketcher(new HashMap<>(options));
            sketcher = resolved;
            limitsVersion = version;
            return resolved;
        }
        return sketcher;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        SketchMethod.Sketcher sketcher = sketcher();
        String content = SourceText.read(document, fields, ignoreMissing, method.what(), sketcher.maxInputChars());
        if (content == null) {
            return document; // ignore_missing: none of the fields is present
        }
        document.setFieldValue(targetField, sketcher.sketch().apply(content));
        return document;
    }

    @Override
    public String getType() {
        return method.type();
    }

    /** Reads the common options, then lets the method read its own. */
    public static final class Factory implements Processor.Factory {
        private final SketchMethod method;

        public Factory(SketchMethod method) {
            this.method = method;
        }

        @Override
        public SketchProcessor create(Map<String, Processor.Factory> registry, String tag, String description, Map<String, Object> config) {
            String type = method.type();
            List<String> fields = SourceText.readFields(type, tag, config);
            String targetField = ConfigurationUtils.readStringProperty(type, tag, config, "target_field", method.defaultTargetField());
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(type, tag, config, "ignore_missing", false);
            Map<String, Object> options = new HashMap<>(config);
            int limitsVersion = method.limitsVersion();
            SketchMethod.Sketcher sketcher;
            try {
                sketcher = method.sketcher(options);
            } catch (IllegalArgumentException e) {
                throw SourceText.configurationError(type, tag, e);
            }
            Map<String, Object> consumed = new HashMap<>(config);
            consumed.keySet().removeAll(options.keySet());
            // only the options the method consumed are removed, so the pipeline reports the rest as unknown
            config.keySet().retainAll(options.keySet());
            return new SketchProcessor(tag, description, method, fields, targetField, ignoreMissing, consumed, sketcher, limitsVersion);
        }
    }
}
