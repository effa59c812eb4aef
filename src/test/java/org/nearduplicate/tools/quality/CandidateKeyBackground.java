package org.nearduplicate.tools.quality;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.IntStream;
import java.util.zip.GZIPInputStream;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.sketch.SimHasher;

/**
 * Where the candidate keys' unrelated candidates come from (issue 40): every pair of different base documents of a
 * corpus, split into same language and same source (one manual, one mailing list, one parliament), same language and
 * different sources, and different languages; per slice, the share of pairs whose full min-wise values agree in one
 * slot, and the share that shares at least 1, 2 and 3 of the 28 {@code simhash-v7} keys. A crawl's store mixes many
 * sources, so its per-pair rate sits between the two same-language slices: the cost per probe of the keys path grows
 * as that rate times N.
 *
 * <pre>$J -Xmx4g org.nearduplicate.tools.quality.CandidateKeyBackground /work/shared/eval/public</pre>
 */
public final class CandidateKeyBackground {
    private static final String[] SLICES = { "same language, same source", "same language, other source", "other language" };

    private CandidateKeyBackground() {}

    /** The {@code source} of every document id (the corpus's own label of where a page came from). */
    static Map<String, String> sources(Path docsFile) throws IOException {
        Map<String, String> sources = new HashMap<>();
        JsonFactory json = new JsonFactory();
        try (
            BufferedReader r = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(docsFile), 1 << 16), StandardCharsets.UTF_8)
            )
        ) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank()) continue;
                String id = null, source = "";
                try (JsonParser p = json.createParser(line)) {
                    p.nextToken();
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        JsonToken t = p.nextToken();
                        if (field.equals("id")) id = p.getText();
                        else if (field.equals("source")) source = p.getText();
                        else if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) p.skipChildren();
                    }
                }
                sources.put(id, source);
            }
        }
        return sources;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Corpus corpus = Corpus.load(dir);
        Map<String, String> sources = sources(dir.resolve("docs.jsonl.gz"));
        Map<String, String> groups = corpus.groups();
        SimHasher hasher = new SimHasher(SimHashSettings.DEFAULT);
        List<String> ids = new ArrayList<>(corpus.docs().keySet());
        CandidateKeyStudy.Doc[] docs = IntStream.range(0, ids.size())
            .parallel()
            .mapToObj(i -> CandidateKeyStudy.sketch(hasher, corpus.docs().get(ids.get(i)), groups.get(ids.get(i))))
            .toArray(CandidateKeyStudy.Doc[]::new);
        CandidateKeys layout = CandidateKeys.V7;
        long[][] hashes = new long[docs.length][];
        for (int d = 0; d < docs.length; d++)
            if (docs[d].valid()) hashes[d] = layout.hashes(docs[d].minima());
        String[] lang = ids.stream().map(id -> corpus.docs().get(id).lang()).toArray(String[]::new);
        String[] source = ids.stream().map(sources::get).toArray(String[]::new);
        // per slice: pairs, agreeing slots (summed), pairs sharing >= 1, 2, 3 keys
        AtomicLongArray counts = new AtomicLongArray(SLICES.length * 5);
        IntStream.range(0, docs.length).parallel().forEach(i -> {
            if (docs[i].valid() == false) return;
            long[] local = new long[SLICES.length * 5];
            for (int j = i + 1; j < docs.length; j++) {
                if (docs[j].valid() == false || docs[i].base().equals(docs[j].base())) continue;
                int slice = lang[i].equals(lang[j]) == false ? 2 : source[i].equals(source[j]) ? 0 : 1;
                int base = slice * 5;
                local[base]++;
                local[base + 1] += CandidateKeyStudy.fullAgreeing(docs[i].minima(), docs[j].minima());
                int shared = 0;
                long[] a = hashes[i], b = hashes[j];
                for (int k = 0; k < a.length; k++)
                    if (a[k] == b[k]) shared++;
                for (int s = 1; s <= 3; s++)
                    if (shared >= s) local[base + 1 + s]++;
            }
            for (int c = 0; c < local.length; c++)
                if (local[c] != 0) counts.addAndGet(c, local[c]);
        });
        PrintStream out = System.out;
        out.printf(Locale.ROOT, "# %s: %,d documents, keys %s%n%n", dir, docs.length, layout.id());
        out.println(
            "| unrelated pairs | pairs | full values agreeing per slot | sharing >= 1 key | >= 2 keys | >= 3 keys | "
                + ">= 2 keys per probe at 1e6 / 1e9 documents |"
        );
        out.println("|---|---|---|---|---|---|---|");
        for (int slice = 0; slice < SLICES.length; slice++) {
            int base = slice * 5;
            double pairs = counts.get(base);
            double two = counts.get(base + 3) / pairs;
            out.printf(
                Locale.ROOT,
                "| %s | %,d | %.2e | %.2e | %.2e | %.2e | %,.1f / %,.0f |%n",
                SLICES[slice],
                (long) pairs,
                counts.get(base + 1) / pairs / CandidateKeys.SLOTS,
                counts.get(base + 2) / pairs,
                two,
                counts.get(base + 4) / pairs,
                two * 1e6,
                two * 1e9
            );
        }
    }
}
