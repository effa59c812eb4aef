package org.nearduplicate.bench;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongFunction;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.lucene.SketchFields;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.orchestration.field.SimHashField;

/**
 * Bytes per document of the {@code simhash} field on disk: N documents in one force-merged segment, file sizes by
 * extension. Rows:
 * <ul>
 *   <li>a bare fingerprint and {@code simhash-v4}..{@code v6}'s fingerprint + signature, random values;</li>
 *   <li>{@code simhash-v6} and the default {@code simhash-v7} (fingerprint + signature + 28 candidate keys as docs-only
 *   terms of {@code <field>#keys}) on the same {@link KeysModel} documents (random full minima with the model's
 *   background sharing and planted pairs), each through {@link SimHashField#fields} as the mapper indexes them;</li>
 *   <li>{@code simhash-v7} with every key distinct (random full minima, no sharing, no pairs): the upper end.</li>
 * </ul>
 * Each {@code B:R} argument after the count adds a signed row with B band keys of the signature per document (R slots
 * each, as one term of a separate docs-only field): what a band index over the signatures would cost (a study of
 * docs/performance.md's open points, not a field option).
 * An argument {@code rows=1,3,4} keeps only those rows (numbered from 0 in the order above), e.g. to measure the
 * slow keyed rows alone at 10M.
 * usage: {@code bench/field_bytes.sh [docs [rows=R,R] [B:R ...]]}
 */
public final class FieldBytes {
    private static final String FIELD = "fp";

    private static IndexWriterConfig newConfig() {
        // plain files, no compound file, so that sizes can be read per extension
        org.apache.lucene.index.TieredMergePolicy merges = new org.apache.lucene.index.TieredMergePolicy();
        merges.setNoCFSRatio(0);
        return new IndexWriterConfig().setRAMBufferSizeMB(256).setUseCompoundFile(false).setMergePolicy(merges);
    }

    /** One row: its label and document i's Lucene fields. */
    private record Row(String label, LongFunction<List<IndexableField>> doc) {
    }

    public static void main(String[] args) throws Exception {
        int docs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        BlockLayout layout = new BlockLayout(SimHashFieldMapper.DEFAULT_BLOCKS, BlockLayout.MAX_DISTANCE);
        SimHashField v7 = new SimHashField(FIELD); // the default field
        if (v7.candidateKeys() == null || v7.algorithm().startsWith("simhash-v7:") == false) {
            throw new IllegalStateException("the default is no longer simhash-v7 with candidate keys: " + v7.algorithm());
        }
        SimHashField v6 = new SimHashField(FIELD, "simhash-v6", layout);
        KeysModel model = new KeysModel(docs);
        KeysModel distinct = new KeysModel(docs, 0); // no common values: every full minimum, so every key, is random

        List<Row> rows = new ArrayList<>();
        Random bare = new Random(42);
        rows.add(new Row("bare fingerprint (v3 and before), random", i -> SketchFields.simHashFields(FIELD, layout, bare.nextLong())));
        Random signed = new Random(42);
        rows.add(new Row("simhash-v4..v6 (fingerprint + signature), random", i -> {
            byte[] signature = new byte[Signature.BYTES];
            long fingerprint = signed.nextLong();
            signed.nextBytes(signature);
            return SketchFields.simHashFields(FIELD, layout, new SimHash(fingerprint, signature));
        }));
        rows.add(new Row("simhash-v6 field, KeysModel documents", i -> {
            KeysModel.Doc d = model.doc(i);
            return v6.fields(SimHashField.Value.of(new SimHash(d.fingerprint(), d.signature())));
        }));
        rows.add(new Row("simhash-v7 (default) field, KeysModel documents (background sharing, planted pairs)", i -> {
            KeysModel.Doc d = model.doc(i);
            return v7.fields(
                new SimHashField.Value(new SimHash(d.fingerprint(), d.signature()), v7.candidateKeys().packedHashes(d.minima()))
            );
        }));
        rows.add(new Row("simhash-v7 (default) field, every key distinct (random minima, no pairs)", i -> {
            KeysModel.Doc d = distinct.fresh(new SplittableRandom(KeysModel.SEED * 7_000_003 + i));
            return v7.fields(
                new SimHashField.Value(new SimHash(d.fingerprint(), d.signature()), v7.candidateKeys().packedHashes(d.minima()))
            );
        }));
        java.util.Set<Integer> keep = null;
        for (int a = 1; a < args.length; a++) {
            if (args[a].startsWith("rows=")) {
                keep = new java.util.HashSet<>();
                for (String r : args[a].substring(5).split(","))
                    keep.add(Integer.parseInt(r));
                continue;
            }
            String[] band = args[a].split(":");
            int bands = Integer.parseInt(band[0]), slots = Integer.parseInt(band[1]);
            Random random = new Random(42);
            rows.add(new Row("simhash-v4 + " + bands + " band keys of " + slots + " slots, random", i -> {
                List<IndexableField> fields = new ArrayList<>(SketchFields.simHashFields(FIELD, layout, random.nextLong()));
                byte[] signature = new byte[Signature.BYTES];
                random.nextBytes(signature);
                fields.add(new BinaryDocValuesField(SketchFields.signatureField(FIELD), new BytesRef(signature)));
                for (int b = 0; b < bands; b++) {
                    // band b: its number, then slots b*R .. b*R+R-1 (bands over disjoint slots, 32 / R per pass)
                    byte[] key = new byte[1 + slots];
                    key[0] = (byte) b;
                    for (int slot = 0; slot < slots; slot++)
                        key[1 + slot] = signature[(b * slots + slot) % Signature.SLOTS];
                    fields.add(
                        new org.apache.lucene.document.StringField(
                            FIELD + "._bands",
                            new BytesRef(key),
                            org.apache.lucene.document.Field.Store.NO
                        )
                    );
                }
                return fields;
            }));
        }

        if (keep != null) {
            List<Row> kept = new ArrayList<>();
            for (int r = 0; r < rows.size(); r++)
                if (keep.contains(r)) kept.add(rows.get(r));
            rows = kept;
        }
        System.out.printf(
            "| field | docs | terms + postings (tim/tip/tmd/doc) | doc values (dvd/dvm) | total bytes/doc | all segment files bytes/doc | seconds |%n"
                + "|---|---|---|---|---|---|---|%n"
        );
        for (Row row : rows) {
            long started = System.nanoTime();
            Path dir = Files.createTempDirectory("field-bytes");
            try (FSDirectory d = FSDirectory.open(dir); IndexWriter w = new IndexWriter(d, newConfig())) {
                for (long i = 0; i < docs; i++) {
                    Document doc = new Document();
                    for (IndexableField f : row.doc().apply(i))
                        doc.add(f);
                    w.addDocument(doc);
                }
                w.forceMerge(1);
                w.commit();
                Map<String, Long> byExt = new TreeMap<>();
                long all = 0;
                for (String file : d.listAll()) {
                    all += d.fileLength(file);
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
                    "| %s | %,d | %.1f | %.1f | %.1f | %.1f | %.0f |%n",
                    row.label(),
                    docs,
                    (double) terms / docs,
                    (double) dv / docs,
                    (double) (terms + dv) / docs,
                    (double) all / docs,
                    (System.nanoTime() - started) / 1e9
                );
            } finally {
                for (Path p : Files.list(dir).toList())
                    Files.delete(p);
                Files.delete(dir);
            }
        }
    }
}
