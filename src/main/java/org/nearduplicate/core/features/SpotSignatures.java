package org.nearduplicate.core.features;

import org.apache.lucene.analysis.CharArraySet;

import java.util.List;
import java.util.function.Consumer;

/**
 * Spot signatures (Theobald, Siddharth and Paepcke, "SpotSigs: Robust and Efficient Near Duplicate Detection in Large
 * Web Collections", SIGIR 2008): every occurrence of an antecedent (here: a stopword — Lucene's English stopwords and
 * the engine's Chinese function words) followed by the next {@code chain} non-stopwords (spot distance 1) gives the
 * feature {@code antecedent:word1:...:wordN}. Stopwords are dense in running prose and rare in navigation, menus and
 * footers, so spots come mostly from the main content even when extraction keeps some boilerplate.
 *
 * <p>Only complete chains are emitted: an antecedent with fewer than {@code chain} non-stopwords after it gives none.
 */
public final class SpotSignatures {
    private SpotSignatures() {}

    /** Emits the spot signatures of {@code tokens} (already lower-cased) in order, duplicates included. */
    public static void extract(List<String> tokens, CharArraySet antecedents, int chain, Consumer<String> out) {
        if (chain < 1) throw new IllegalArgumentException("chain length must be >= 1, got " + chain);
        int n = tokens.size();
        boolean[] stop = new boolean[n];
        for (int i = 0; i < n; i++) {
            stop[i] = antecedents.contains(tokens.get(i));
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (stop[i] == false) continue;
            sb.setLength(0);
            sb.append(tokens.get(i));
            int found = 0;
            for (int j = i + 1; j < n && found < chain; j++) {
                if (stop[j]) continue;
                sb.append(':').append(tokens.get(j));
                found++;
            }
            if (found == chain) out.accept(sb.toString());
        }
    }

    /** The antecedents the engine uses: Lucene's English stopwords and the Chinese function words. */
    public static CharArraySet defaultAntecedents() {
        return Stopwords.SET;
    }
}
