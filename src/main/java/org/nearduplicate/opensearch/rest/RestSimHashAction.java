package org.nearduplicate.opensearch.rest;

import org.nearduplicate.core.sketch.Analysis;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsRequest;
import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsResponse;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.BytesRestResponse;
import org.opensearch.rest.RestRequest;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.node.NodeClient;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.opensearch.rest.RestRequest.Method.GET;
import static org.opensearch.rest.RestRequest.Method.POST;

/**
 * {@code _simhash}: the debugging tool for "why are these two pages (not) near-duplicates", in the spirit of
 * {@code _analyze}. Fingerprints one input (or two, and compares them) with explicit settings or with the settings
 * and block layout of an index's {@code simhash} field, and shows the main text, the heaviest features, the
 * fingerprint, its algorithm and its block keys.
 */
public class RestSimHashAction extends BaseRestHandler {
    static final int DEFAULT_TOP_FEATURES = 20;
    static final int MAX_TOP_FEATURES = 10_000;
    private static final Set<String> BODY_KEYS = Set.of(
        "text", "html", "compare", "settings", "field", "blocks", "max_distance", "top_features", "include_text"
    );

    private final NearDuplicateEngine engine;

    public RestSimHashAction(NearDuplicateEngine engine) {
        this.engine = engine;
    }

    @Override
    public String getName() {
        return "near_duplicate_simhash_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(
            new Route(GET, "/_simhash"),
            new Route(POST, "/_simhash"),
            new Route(GET, "/{index}/_simhash"),
            new Route(POST, "/{index}/_simhash")
        );
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String index = request.param("index");
        Map<String, Object> body;
        if (request.hasContentOrSourceParam() == false) {
            throw new IllegalArgumentException("[_simhash] needs a request body with [text] or [html]");
        }
        try (XContentParser parser = request.contentOrSourceParamParser()) {
            body = parser.map();
        }
        SimHashRequest parsed = SimHashRequest.parse(body, index, engine);
        return channel -> {
            ActionListener<XContentBuilder> respond = ActionListener.wrap(
                builder -> channel.sendResponse(new BytesRestResponse(RestStatus.OK, builder)),
                e -> {
                    try {
                        channel.sendResponse(new BytesRestResponse(channel, e));
                    } catch (IOException io) {
                        io.addSuppressed(e);
                        logger.warn("failed to send the [_simhash] error response", io);
                    }
                }
            );
            if (parsed.index == null) {
                runAnalysis(client, parsed, parsed.settings, parsed.layout, channel.newBuilder(), respond);
            } else {
                resolveFromMapping(client, parsed, channel.newBuilder(), respond);
            }
        };
    }

    /** Reads the algorithm and layout of {@code index}'s simhash field, so the answer matches what is indexed. */
    private void resolveFromMapping(NodeClient client, SimHashRequest parsed, XContentBuilder builder, ActionListener<XContentBuilder> listener) {
        GetFieldMappingsRequest mappings = new GetFieldMappingsRequest().indices(parsed.index).fields(parsed.field).includeDefaults(true);
        client.admin().indices().getFieldMappings(mappings, ActionListener.wrap(response -> {
            Map<String, Object> field = simhashFieldMapping(response, parsed.index, parsed.field);
            SimHashSettings settings = engine.simHashSettings(String.valueOf(field.get("algorithm")));
            BlockLayout layout = SimHashFieldMapper.layoutOf(field);
            runAnalysis(client, parsed, settings, layout, builder, listener);
        }, listener::onFailure));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> simhashFieldMapping(GetFieldMappingsResponse response, String index, String field) {
        if (response.mappings().isEmpty()) {
            throw new IllegalArgumentException("no index matches [" + index + "]");
        }
        if (response.mappings().size() > 1) {
            throw new IllegalArgumentException("[" + index + "] matches " + response.mappings().size() + " indices; name one index");
        }
        String concreteIndex = response.mappings().keySet().iterator().next();
        GetFieldMappingsResponse.FieldMappingMetadata metadata = response.fieldMappings(concreteIndex, field);
        if (metadata == null || metadata.sourceAsMap().isEmpty()) {
            throw new IllegalArgumentException("index [" + concreteIndex + "] has no field [" + field + "]");
        }
        Object mapping = metadata.sourceAsMap().values().iterator().next();
        if (mapping instanceof Map == false || "simhash".equals(((Map<String, Object>) mapping).get("type")) == false) {
            throw new IllegalArgumentException("field [" + field + "] of index [" + concreteIndex + "] is not a [simhash] field");
        }
        return (Map<String, Object>) mapping;
    }

    /** Fingerprinting is CPU work on possibly large pages: it runs on the search pool, not on a network thread. */
    private void runAnalysis(
        NodeClient client,
        SimHashRequest parsed,
        SimHashSettings settings,
        BlockLayout layout,
        XContentBuilder builder,
        ActionListener<XContentBuilder> listener
    ) {
        client.threadPool().executor(ThreadPool.Names.SEARCH).execute(() -> {
            try {
                // the declared type (text or html) counts as it does for a probe of the query, so both show one fingerprint
                Analysis first = engine.analyze(NearDuplicateEngine.declared(settings, parsed.input.type()), parsed.input.content(), parsed.topFeatures);
                Analysis second = parsed.compareInput == null
                    ? null
                    : engine.analyze(NearDuplicateEngine.declared(settings, parsed.compareInput.type()), parsed.compareInput.content(), parsed.topFeatures);
                builder.startObject();
                builder.field("algorithm", settings.algorithmId());
                if (layout != null) {
                    builder.startObject("layout")
                        .field("bits", BlockLayout.BITS)
                        .field("blocks", layout.blocks())
                        .field("max_distance", layout.maxDistance())
                        .field("keys_per_fingerprint", layout.keyCount())
                        .endObject();
                }
                if (second == null) {
                    writeAnalysis(builder, first, layout, parsed.includeText);
                } else {
                    builder.field("distance", Fingerprints.distance(first.fingerprint(), second.fingerprint()));
                    if (layout != null) {
                        builder.field("shared_keys", sharedKeys(layout, first.fingerprint(), second.fingerprint()));
                    }
                    builder.startObject("first");
                    writeAnalysis(builder, first, layout, parsed.includeText);
                    builder.endObject();
                    builder.startObject("second");
                    writeAnalysis(builder, second, layout, parsed.includeText);
                    builder.endObject();
                    writeDifference(builder, first, second);
                }
                builder.endObject();
                listener.onResponse(builder);
            } catch (Exception e) {
                listener.onFailure(e);
            }
        });
    }

    private static void writeAnalysis(XContentBuilder builder, Analysis analysis, BlockLayout layout, boolean includeText)
        throws IOException {
        long fingerprint = analysis.fingerprint();
        builder.field("fingerprint", Fingerprints.toHex(fingerprint));
        builder.field("fingerprint_unsigned", Fingerprints.toUnsignedDecimal(fingerprint));
        builder.field("fingerprint_signed", fingerprint);
        builder.field("content_type", analysis.contentType().name().toLowerCase(java.util.Locale.ROOT));
        builder.field("feature_count", analysis.featureCount());
        if (includeText) {
            builder.field("main_text", analysis.mainText());
        }
        builder.startArray("features");
        for (Analysis.WeightedFeature feature : analysis.topFeatures()) {
            builder.startObject()
                .field("feature", feature.feature())
                .field("tf", feature.termFrequency())
                .field("weight", feature.weight())
                .endObject();
        }
        builder.endArray();
        if (layout != null) {
            builder.startArray("keys");
            for (byte[] key : layout.keys(fingerprint)) {
                builder.value(layout.keyToString(key));
            }
            builder.endArray();
        }
    }

    private static int sharedKeys(BlockLayout layout, long a, long b) {
        byte[][] keysA = layout.keys(a);
        byte[][] keysB = layout.keys(b);
        int shared = 0;
        for (int c = 0; c < keysA.length; c++) {
            if (java.util.Arrays.equals(keysA[c], keysB[c])) {
                shared++;
            }
        }
        return shared;
    }

    /** Features among the listed top features of one input that the other input's top features lack. */
    private static void writeDifference(XContentBuilder builder, Analysis first, Analysis second) throws IOException {
        Set<String> inFirst = new HashSet<>();
        first.topFeatures().forEach(f -> inFirst.add(f.feature()));
        Set<String> inSecond = new HashSet<>();
        second.topFeatures().forEach(f -> inSecond.add(f.feature()));
        builder.startObject("differing_top_features");
        builder.startArray("only_in_first");
        for (Analysis.WeightedFeature f : first.topFeatures()) {
            if (inSecond.contains(f.feature()) == false) builder.value(f.feature());
        }
        builder.endArray();
        builder.startArray("only_in_second");
        for (Analysis.WeightedFeature f : second.topFeatures()) {
            if (inFirst.contains(f.feature()) == false) builder.value(f.feature());
        }
        builder.endArray();
        builder.endObject();
    }

    /** An input and the key it came under ({@code text} or {@code html}), which decides how it is read. */
    record Input(String content, NearDuplicateEngine.ProbeContent type) {}

    /** The parsed and validated request body. */
    static final class SimHashRequest {
        final String index;
        final String field;
        final Input input;
        final Input compareInput;
        final SimHashSettings settings;
        final BlockLayout layout;
        final int topFeatures;
        final boolean includeText;

        private SimHashRequest(
            String index, String field, Input input, Input compareInput, SimHashSettings settings, BlockLayout layout,
            int topFeatures, boolean includeText
        ) {
            this.index = index;
            this.field = field;
            this.input = input;
            this.compareInput = compareInput;
            this.settings = settings;
            this.layout = layout;
            this.topFeatures = topFeatures;
            this.includeText = includeText;
        }

        @SuppressWarnings("unchecked")
        static SimHashRequest parse(Map<String, Object> body, String index, NearDuplicateEngine engine) {
            for (String key : body.keySet()) {
                if (BODY_KEYS.contains(key) == false) {
                    throw new IllegalArgumentException("[_simhash] unknown parameter [" + key + "], expected one of " + new java.util.TreeSet<>(BODY_KEYS));
                }
            }
            Input input = readInput(body, "");
            Input compareInput = null;
            Object compare = body.get("compare");
            if (compare != null) {
                if (compare instanceof Map == false) {
                    throw new IllegalArgumentException("[compare] must be an object with [text] or [html]");
                }
                Map<String, Object> compareBody = (Map<String, Object>) compare;
                for (String key : compareBody.keySet()) {
                    if (key.equals("text") == false && key.equals("html") == false) {
                        throw new IllegalArgumentException("[compare] unknown parameter [" + key + "], expected [text] or [html]");
                    }
                }
                compareInput = readInput(compareBody, "compare.");
            }
            int topFeatures = readInt(body, "top_features", DEFAULT_TOP_FEATURES, 0, MAX_TOP_FEATURES);
            Object includeTextValue = body.getOrDefault("include_text", false);
            if (includeTextValue instanceof Boolean == false) {
                throw new IllegalArgumentException("[include_text] must be true or false");
            }
            String field = null;
            SimHashSettings settings = null;
            BlockLayout layout = null;
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
                field = (String) fieldValue;
            } else {
                if (body.containsKey("field")) {
                    throw new IllegalArgumentException("[field] needs an index: use /{index}/_simhash");
                }
                Object settingsValue = body.getOrDefault("settings", Map.of());
                if (settingsValue instanceof Map == false) {
                    throw new IllegalArgumentException("[settings] must be an object of simhash processor options");
                }
                Map<String, Object> options = new HashMap<>((Map<String, Object>) settingsValue);
                settings = engine.simHashSettings(options);
                if (options.isEmpty() == false) {
                    throw new IllegalArgumentException("[settings] unknown options " + options.keySet());
                }
                if (body.containsKey("blocks") || body.containsKey("max_distance")) {
                    layout = SimHashFieldMapper.layoutOf(body);
                }
            }
            return new SimHashRequest(index, field, input, compareInput, settings, layout, topFeatures, (Boolean) includeTextValue);
        }

        private static Input readInput(Map<String, Object> body, String prefix) {
            Object text = body.get("text");
            Object html = body.get("html");
            if ((text == null) == (html == null)) {
                throw new IllegalArgumentException("[" + prefix + "text] or [" + prefix + "html] is required, exactly one of them");
            }
            Object value = text != null ? text : html;
            if (value instanceof String == false) {
                throw new IllegalArgumentException("[" + prefix + (text != null ? "text" : "html") + "] must be a string");
            }
            return new Input((String) value, text != null ? NearDuplicateEngine.ProbeContent.TEXT : NearDuplicateEngine.ProbeContent.HTML);
        }

        private static int readInt(Map<String, Object> body, String key, int defaultValue, int min, int max) {
            Object value = body.get(key);
            if (value == null) {
                return defaultValue;
            }
            if (value instanceof Integer == false) {
                throw new IllegalArgumentException("[" + key + "] must be an integer, got [" + value + "]");
            }
            int v = (Integer) value;
            if (v < min || v > max) {
                throw new IllegalArgumentException("[" + key + "] must be between " + min + " and " + max + ", got " + v);
            }
            return v;
        }
    }

    @Override
    protected Set<String> responseParams() {
        return Set.of();
    }
}
