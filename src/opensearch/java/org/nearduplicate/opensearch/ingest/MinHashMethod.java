package org.nearduplicate.opensearch.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.core.sketch.MinHasher;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * The {@code minhash} ingest processor: writes {@code {"signature": "<base64 of m big-endian ints>", "algorithm":
 * "minhash-v1:..."}} into {@code target_field} (default {@code minhash}), for a {@code minhash} field.
 */
public final class MinHashMethod extends NamedSketchMethod {
    public static final String TYPE = "minhash";

    public MinHashMethod(SketchingService sketching) {
        super(sketching, TYPE, "minhash", "a minhash signature");
    }

    @Override
    public Sketcher sketcher(Map<String, Object> options) {
        MinHashSettings settings = sketching.settings(MinHasher.SKETCHER, options);
        return new Sketcher(settings.features().maxInputChars(), content -> {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put(
                MinHashFieldMapper.OBJECT_SIGNATURE,
                MinHashSignatures.toBase64(sketching.sketch(MinHasher.SKETCHER, settings, content))
            );
            result.put(MinHashFieldMapper.OBJECT_ALGORITHM, settings.algorithmId());
            return result;
        });
    }
}
