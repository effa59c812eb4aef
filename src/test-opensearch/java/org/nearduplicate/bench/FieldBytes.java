package org.nearduplicate.bench;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.lucene.SketchFields;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;

/**
 * Bytes per document of the default {@code simhash} field on disk, with and without the {@code simhash-v4} signature:
 * N documents of random fingerprints (and random signatures) in one force-merged segment, file sizes by extension.
 * Each {@code B:R} argument after the count adds a signed row with B band keys of the signature per document (R slots
 * each, as one term of a separate docs-only field): what a band index over the signatures would cost (a study of
 * docs/performance.md's open points, not a field option).
 * usage: {@code bench/field_bytes.sh [docs [B:R ...]]}
 */
public final class FieldBytes {
    private static IndexWriterConfig newConfig() {
        // plain files, no compound file, so that sizes can be read per extension
        org.apache.lucene.index.TieredMergePolicy merges = new org.apache.lucene.index.TieredMergePolicy();
        merges.setNoCFSRatio(0);
        return new IndexWriterConfig().setRAMBufferSizeMB(256).setUseCompoundFile(false).setMergePolicy(merges);
    }

    public static void main(String[] args) throws Exception {
        int docs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        BlockLayout layout = new BlockLayout(SimHashFieldMapper.DEFAULT_BLOCKS, org.nearduplicate.core.keys.BlockLayout.MAX_DISTANCE);
        System.out.printf(
            "| field | docs | terms + postings (tim/tip/tmd/doc) | doc values (dvd/dvm) | total bytes/doc |%n|---|---|---|---|---|%n"
        );
        java.util.List<int[]> variants = new java.util.ArrayList<>(java.util.List.of(new int[] { 0, 0, 0 }, new int[] { 1, 0, 0 }));
        for (int a = 1; a < args.length; a++) {
            String[] band = args[a].split(":");
            variants.add(new int[] { 1, Integer.parseInt(band[0]), Integer.parseInt(band[1]) });
        }
        for (int[] variant : variants) {
            boolean signed = variant[0] == 1;
            int bands = variant[1], slots = variant[2];
            Path dir = Files.createTempDirectory("field-bytes");
            Random random = new Random(42);
            try (FSDirectory d = FSDirectory.open(dir); IndexWriter w = new IndexWriter(d, newConfig())) {
                byte[] signature = new byte[Signature.BYTES];
                for (int i = 0; i < docs; i++) {
                    Document doc = new Document();
                    for (var f : SketchFields.simHashFields("fp", layout, random.nextLong()))
                        doc.add(f);
                    if (signed) {
                        random.nextBytes(signature);
                        doc.add(new BinaryDocValuesField("fp" + SketchFields.SIGNATURE_FIELD_SUFFIX, new BytesRef(signature.clone())));
                        for (int b = 0; b < bands; b++) {
                            // band b: its number, then slots b*R .. b*R+R-1 (bands over disjoint slots, 32 / R per pass)
                            byte[] key = new byte[1 + slots];
                            key[0] = (byte) b;
                            for (int slot = 0; slot < slots; slot++)
                                key[1 + slot] = signature[(b * slots + slot) % Signature.SLOTS];
                            doc.add(
                                new org.apache.lucene.document.StringField(
                                    "fp._bands",
                                    new BytesRef(key),
                                    org.apache.lucene.document.Field.Store.NO
                                )
                            );
                        }
                    }
                    w.addDocument(doc);
                }
                w.forceMerge(1);
                w.commit();
                Map<String, Long> byExt = new TreeMap<>();
                for (String file : d.listAll()) {
                    int dot = file.lastIndexOf('.');
                    if (dot < 0) continue;
                    byExt.merge(file.substring(dot + 1), d.fileLength(file), Long::sum);
                }
                long terms = 0, dv = 0;
                for (String ext : new String[] { "tim", "tip", "tmd", "doc" })
                    terms += byExt.getOrDefault(ext, 0L);
                for (String ext : new String[] { "dvd", "dvm" })
                    dv += byExt.getOrDefault(ext, 0L);
                System.out.printf(
                    "| %s | %,d | %.1f | %.1f | %.1f |%n",
                    bands > 0 ? "simhash-v4 + " + bands + " band keys of " + slots + " slots"
                        : signed ? "simhash-v4 (fingerprint + signature)"
                        : "bare fingerprint (v3 and before)",
                    docs,
                    (double) terms / docs,
                    (double) dv / docs,
                    (double) (terms + dv) / docs
                );
            } finally {
                for (Path p : Files.list(dir).toList())
                    Files.delete(p);
                Files.delete(dir);
            }
        }
    }
}
