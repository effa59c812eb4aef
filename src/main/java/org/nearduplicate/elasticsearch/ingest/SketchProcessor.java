package org.nearduplicate.elasticsearch.ingest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.elasticsearch.ingest.AbstractProcessor;
import org.elasticsearch.ingest.ConfigurationUtils;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.ingest.Processor;

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
    private final SketchMethod.Sketcher sketcher;

    SketchProcessor(
        String tag,
        String description,
        SketchMethod method,
        List<String> fields,
        String targetField,
        boolean ignoreMissing,
        SketchMethod.Sketcher sketcher
    ) {
        super(tag, description);
        this.method = method;
        this.fields = List.copyOf(fields);
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.sketcher = sketcher;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
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
            SketchMethod.Sketcher sketcher;
            try {
                sketcher = method.sketcher(options);
            } catch (IllegalArgumentException e) {
                throw SourceText.configurationError(type, tag, e);
            }
            // only the options the method consumed are removed, so the pipeline reports the rest as unknown
            config.keySet().retainAll(options.keySet());
            return new SketchProcessor(tag, description, method, fields, targetField, ignoreMissing, sketcher);
        }
    }
}
