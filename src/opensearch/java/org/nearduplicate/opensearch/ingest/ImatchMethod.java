package org.nearduplicate.opensearch.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

import org.nearduplicate.core.ImatchSettings;
import org.nearduplicate.core.sketch.ImatchHasher;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * The {@code imatch} ingest processor: exact-content keys for {@code term} lookups and {@code collapse}. Writes
 * {@code {"imatch": "<40 hex>", "text": "<40 hex>", "algorithm": "imatch-v1:..."}} into {@code target_field}
 * (default {@code imatch}); map {@code imatch.imatch} and {@code imatch.text} as {@code keyword}.
 */
public final class ImatchMethod extends NamedSketchMethod {
    public static final String TYPE = "imatch";

    public ImatchMethod(SketchingService sketching) {
        super(sketching, TYPE, "imatch", "imatch keys");
    }

    @Override
    public Sketcher sketcher(Map<String, Object> options) {
        ImatchSettings settings = sketching.iMatchSettings(options);
        return new Sketcher(settings.maxInputChars(), content -> {
            ImatchHasher.Keys keys = sketching.sketch(ImatchHasher.SKETCHER, settings, content);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("imatch", keys.imatch());
            result.put("text", keys.text());
            result.put("algorithm", settings.algorithmId());
            return result;
        });
    }
}
