package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.options.OptionValues;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;

import static org.opensearch.action.ValidateActions.addValidationError;

/**
 * The {@code _simhash} request without an index ({@link SimHashAction}): one input, optionally a second to compare, the
 * {@code simhash} processor options to fingerprint them with, optionally a block layout to show keys, and what to show.
 * {@link #parse} reads the REST body (and returns an {@link IndexSimHashRequest} when an index is given).
 */
public class SimHashRequest extends ActionRequest {
    public static final int DEFAULT_TOP_FEATURES = 20;
    public static final int MAX_TOP_FEATURES = 10_000;
    private static final Set<String> BODY_KEYS = Set.of(
        "text",
        "html",
        "compare",
        "settings",
        "field",
        "blocks",
        "max_distance",
        "top_features",
        "include_text",
        "id"
    );

    /**
     * An input and the key it came under ({@code text} or {@code html}), which decides how it is read; or, with an
     * index, the {@code id} of a stored document whose fingerprint in the field is shown (content and type null).
     */
    public record Input(String content, SketchingService.ProbeContent type, String id) {
        public Input {
            if (id == null) {
                Objects.requireNonNull(content);
                Objects.requireNonNull(type);
            } else if (content != null || type != null) {
                throw new IllegalArgumentException("a stored document's input has no content");
            }
        }

        public Input(String content, SketchingService.ProbeContent type) {
            this(content, type, null);
        }

        /** The stored document {@code id} of the request's index. */
        public static Input stored(String id) {
            return new Input(null, null, Objects.requireNonNull(id));
        }

        /** True for a stored document (read from the index, not fingerprinted). */
        public boolean isStored() {
            return id != null;
        }

        Input(StreamInput in) throws IOException {
            this(
                in.readOptionalString(),
                in.readBoolean() ? in.readEnum(SketchingService.ProbeContent.class) : null,
                in.readOptionalString()
            );
        }

        void writeTo(StreamOutput out) throws IOException {
            out.writeOptionalString(content);
            out.writeBoolean(type != null);
            if (type != null) {
                out.writeEnum(type);
            }
            out.writeOptionalString(id);
        }
    }

    private final Input input;
    private final Input compareInput;
    /** {@code simhash} processor options (empty: the defaults); none with an index (the mapping's algorithm). */
    private final Map<String, Object> settings;
    /** The layout whose keys to show ({@code blocks}, {@code max_distance}), or null: no keys; none with an index. */
    private final Integer blocks;
    private final Integer maxDistance;
    private final int topFeatures;
    private final boolean includeText;

    public SimHashRequest(
        Input input,
        Input compareInput,
        Map<String, Object> settings,
        Integer blocks,
        Integer maxDistance,
        int topFeatures,
        boolean includeText
    ) {
        this.input = input;
        this.compareInput = compareInput;
        this.settings = settings == null ? Map.of() : Collections.unmodifiableMap(new HashMap<>(settings)); // values may be null
        this.blocks = blocks;
        this.maxDistance = maxDistance;
        this.topFeatures = topFeatures;
        this.includeText = includeText;
    }

    public SimHashRequest(StreamInput in) throws IOException {
        super(in);
        input = new Input(in);
        compareInput = in.readBoolean() ? new Input(in) : null;
        settings = Collections.unmodifiableMap(readSettings(in));
        blocks = in.readOptionalVInt();
        maxDistance = in.readOptionalVInt();
        topFeatures = in.readVInt();
        includeText = in.readBoolean();
    }

    /** The settings as {@code writeGenericValue} wrote them. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> readSettings(StreamInput in) throws IOException {
        return (Map<String, Object>) in.readGenericValue();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        input.writeTo(out);
        out.writeBoolean(compareInput != null);
        if (compareInput != null) {
            compareInput.writeTo(out);
        }
        out.writeGenericValue(settings); // the bytes of writeMap on OpenSearch, writeGenericMap on Elasticsearch
        out.writeOptionalVInt(blocks);
        out.writeOptionalVInt(maxDistance);
        out.writeVInt(topFeatures);
        out.writeBoolean(includeText);
    }

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = null;
        if (input == null) e = addValidationError("[text] or [html] is required, exactly one of them", e);
        if (this instanceof IndexSimHashRequest == false
            && ((input != null && input.isStored()) || (compareInput != null && compareInput.isStored()))) {
            e = addValidationError("[id] (a stored document) needs an index: use /{index}/_simhash", e);
        }
        if (topFeatures < 0 || topFeatures > MAX_TOP_FEATURES) {
            e = addValidationError("[top_features] must be between 0 and " + MAX_TOP_FEATURES + ", got " + topFeatures, e);
        }
        if ((blocks == null) != (maxDistance == null)) e = addValidationError("[blocks] and [max_distance] go together", e);
        return e;
    }

    public Input input() {
        return input;
    }

    public Input compareInput() {
        return compareInput;
    }

    public Map<String, Object> settings() {
        return settings;
    }

    public Integer blocks() {
        return blocks;
    }

    public Integer maxDistance() {
        return maxDistance;
    }

    public int topFeatures() {
        return topFeatures;
    }

    public boolean includeText() {
        return includeText;
    }

    /**
     * The settings to fingerprint with: the options within the node's limits.
     *
     * @throws IllegalArgumentException for an invalid or unknown option, or a limit above the node's
     */
    public SimHashSettings simHashSettings(SketchingService sketching) {
        Map<String, Object> options = new HashMap<>(settings);
        SimHashSettings parsed = sketching.simHashSettings(options);
        if (options.isEmpty() == false) {
            throw new IllegalArgumentException("[settings] unknown options " + options.keySet());
        }
        return parsed;
    }

    /** The layout whose keys to show, or null. */
    public BlockLayout layout() {
        return blocks == null ? null : new BlockLayout(blocks, maxDistance);
    }

    /**
     * Reads and validates a REST body; with {@code index} (from the path) an {@link IndexSimHashRequest}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    @SuppressWarnings("unchecked")
    public static SimHashRequest parse(Map<String, Object> body, String index, SketchingService sketching) {
        for (String key : body.keySet()) {
            if (BODY_KEYS.contains(key) == false) {
                throw new IllegalArgumentException(
                    "[_simhash] unknown parameter [" + key + "], expected one of " + new TreeSet<>(BODY_KEYS)
                );
            }
        }
        boolean stored = index != null;
        Input input = readInput(body, "", stored);
        Input compareInput = null;
        Object compare = body.get("compare");
        if (compare != null) {
            if (compare instanceof Map == false) {
                throw new IllegalArgumentException("[compare] must be an object with [text] or [html]");
            }
            Map<String, Object> compareBody = (Map<String, Object>) compare;
            for (String key : compareBody.keySet()) {
                if (key.equals("text") == false && key.equals("html") == false && key.equals("id") == false) {
                    throw new IllegalArgumentException("[compare] unknown parameter [" + key + "], expected [text], [html] or [id]");
                }
            }
            compareInput = readInput(compareBody, "compare.", stored);
        }
        int topFeatures = readInt(body, "top_features", DEFAULT_TOP_FEATURES, 0, MAX_TOP_FEATURES);
        Object includeTextValue = body.getOrDefault("include_text", false);
        if (includeTextValue instanceof Boolean == false) {
            throw new IllegalArgumentException("[include_text] must be true or false");
        }
        boolean includeText = (Boolean) includeTextValue;
        if (index != null) {
            if (body.containsKey("settings") || body.containsKey("blocks") || body.containsKey("max_distance")) {
                throw new IllegalArgumentException(
                    "[settings], [blocks] and [max_distance] come from the mapping when an index is given; leave them out"
                );
            }
            Object fieldValue = body.get("field");
            if (fieldValue instanceof String == false || ((String) fieldValue).isEmpty()) {
                throw new IllegalArgumentException("[field] (the index's simhash field) is required when an index is given");
            }
            return new IndexSimHashRequest(index, (String) fieldValue, input, compareInput, topFeatures, includeText);
        }
        if (body.containsKey("field")) {
            throw new IllegalArgumentException("[field] needs an index: use /{index}/_simhash");
        }
        Object settingsValue = body.getOrDefault("settings", Map.of());
        if (settingsValue instanceof Map == false) {
            throw new IllegalArgumentException("[settings] must be an object of simhash processor options");
        }
        Integer blocks = null;
        Integer maxDistance = null;
        if (body.containsKey("blocks") || body.containsKey("max_distance")) {
            BlockLayout layout = SimHashFieldMapper.layoutOf(body);
            blocks = layout.blocks();
            maxDistance = layout.maxDistance();
        }
        SimHashRequest request = new SimHashRequest(
            input,
            compareInput,
            (Map<String, Object>) settingsValue,
            blocks,
            maxDistance,
            topFeatures,
            includeText
        );
        request.simHashSettings(sketching); // a bad option or a limit above the node's is a 400 before anything runs
        return request;
    }

    /** {@code text}, {@code html} or, with an index ({@code stored}), the {@code id} of a stored document. */
    private static Input readInput(Map<String, Object> body, String prefix, boolean stored) {
        Object text = body.get("text");
        Object html = body.get("html");
        Object id = body.get("id");
        if (id != null) {
            if (stored == false) {
                throw new IllegalArgumentException("[" + prefix + "id] (a stored document) needs an index: use /{index}/_simhash");
            }
            if (text != null || html != null) {
                throw new IllegalArgumentException(
                    "[" + prefix + "text], [" + prefix + "html] or [" + prefix + "id] is required, exactly one of them"
                );
            }
            if (id instanceof String == false || ((String) id).isEmpty()) {
                throw new IllegalArgumentException("[" + prefix + "id] must be a non-empty string");
            }
            return Input.stored((String) id);
        }
        if ((text == null) == (html == null)) {
            throw new IllegalArgumentException(
                stored
                    ? "[" + prefix + "text], [" + prefix + "html] or [" + prefix + "id] is required, exactly one of them"
                    : "[" + prefix + "text] or [" + prefix + "html] is required, exactly one of them"
            );
        }
        Object value = text != null ? text : html;
        if (value instanceof String == false) {
            throw new IllegalArgumentException("[" + prefix + (text != null ? "text" : "html") + "] must be a string");
        }
        return new Input((String) value, text != null ? SketchingService.ProbeContent.TEXT : SketchingService.ProbeContent.HTML);
    }

    private static int readInt(Map<String, Object> body, String key, int defaultValue, int min, int max) {
        Object value = body.get(key);
        if (value == null) {
            return defaultValue;
        }
        return OptionValues.integer(key, value, min, max); // numbers as strings too, as every endpoint reads them
    }

    @Override
    public boolean equals(Object o) {
        if (o == null || o.getClass() != getClass()) return false;
        SimHashRequest that = (SimHashRequest) o;
        return Objects.equals(input, that.input)
            && Objects.equals(compareInput, that.compareInput)
            && settings.equals(that.settings)
            && Objects.equals(blocks, that.blocks)
            && Objects.equals(maxDistance, that.maxDistance)
            && topFeatures == that.topFeatures
            && includeText == that.includeText;
    }

    @Override
    public int hashCode() {
        return Objects.hash(input, compareInput, settings, blocks, maxDistance, topFeatures, includeText);
    }
}
