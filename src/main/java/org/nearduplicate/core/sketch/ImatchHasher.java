package org.nearduplicate.core.sketch;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.nearduplicate.core.ImatchSettings;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.extract.TextNormalizer;
import org.nearduplicate.core.features.FeaturePipeline;
import org.nearduplicate.core.features.IdfTable;
import org.nearduplicate.core.options.InvalidOptionException;

/**
 * Exact-content keys for exact-duplicate lookup and {@code collapse}:
 *
 * <ul>
 *   <li><b>I-Match</b> (Chowdhury, Frieder, Grossman and McCabe, ACM TOIS 2002): the SHA-1 of the sorted set of the
 *       main text's distinct words whose IDF lies in [{@code min_idf}, {@code max_idf}] (joined by {@code \n}). Frequent
 *       words (low IDF) and very rare ones (high IDF: typos, numbers, one-off names) are left out, so a key survives
 *       changes that only touch them. When no word falls in the band, all distinct words are used.</li>
 *   <li><b>Normalized text</b>: the SHA-1 of the main text after NFKC and the engine's quote/dash folding, lower-cased,
 *       with every run of characters that are not letters or digits replaced by one space (trimmed): equal for
 *       cosmetic, whitespace, markup-only and template-only differences.</li>
 * </ul>
 *
 * Keys are 40 lower-case hex digits. Thread-safe.
 */
public final class ImatchHasher {
    /** I-Match at the node's gateway: the pipeline is the term settings, the sketch the keys. */
    public static final Sketcher<ImatchSettings, ImatchHasher, Keys> SKETCHER = new Sketcher<>() {
        @Override
        public SimHashSettings pipeline(ImatchSettings settings) {
            return settings.termSettings();
        }

        @Override
        public ImatchHasher hasher(ImatchSettings settings) {
            return new ImatchHasher(settings);
        }

        @Override
        public Keys sketch(ImatchHasher hasher, String content) {
            return hasher.keys(content);
        }
    };

    public record Keys(String imatch, String text, int terms) {
    }

    private final ImatchSettings settings;
    private final FeaturePipeline pipeline;
    private final IdfTable idf;

    public ImatchHasher(ImatchSettings settings) {
        this(settings, IdfTable::builtin);
    }

    public ImatchHasher(ImatchSettings settings, Function<String, IdfTable> idfTables) {
        this.settings = settings;
        this.pipeline = new FeaturePipeline(settings.featureSettings());
        this.idf = idfTables.apply(settings.idf());
        if (idf == null) throw new InvalidOptionException("idf", "unknown table [" + settings.idf() + "]");
    }

    public ImatchSettings settings() {
        return settings;
    }

    /** @throws org.nearduplicate.core.EngineInputException for null, blank or too long content, or content without words */
    public Keys keys(String content) {
        Map<String, Integer> words = pipeline.features(content).counts();
        List<String> kept = new ArrayList<>();
        for (String w : words.keySet()) {
            double v = idf.idf(w);
            if (v >= settings.minIdf() && v <= settings.maxIdf()) kept.add(w);
        }
        if (kept.isEmpty()) kept.addAll(words.keySet());
        kept.sort(null);
        String imatch = sha1(String.join("\n", kept));
        return new Keys(imatch, textKey(pipeline.extractText(content)), kept.size());
    }

    /** The normalized-text key of an already extracted text. */
    public static String textKey(String text) {
        String n = TextNormalizer.normalize(text).toLowerCase(Locale.ROOT);
        StringBuilder sb = new StringBuilder(n.length());
        boolean gap = false;
        for (int i = 0; i < n.length();) {
            int cp = n.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetterOrDigit(cp)) {
                if (gap && sb.length() > 0) sb.append(' ');
                gap = false;
                sb.appendCodePoint(cp);
            } else {
                gap = true;
            }
        }
        return sha1(sb.toString());
    }

    /** SHA-1 of the UTF-8 bytes, 40 lower-case hex digits (what OpenSearch's {@code fingerprint} processor uses by default). */
    public static String sha1(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is a required JDK algorithm", e);
        }
    }
}
