package org.nearduplicate.bench;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.nearduplicate.bench.harness.Args;
import org.nearduplicate.core.SimHashSettings;

/**
 * New documents for {@code bench/check_scale.py --keys-model}: checked against a target loaded with the same
 * {@link KeysModel} ({@code bench/run.sh --reps fpk --load-only}). A share of them are edited copies of random target
 * documents that still match ({@link KeysModel#edit}: 0..8 of the 32 full values replaced, 1..10 fingerprint bits
 * flipped, as the script's signed mode), the others fresh documents of the model (unrelated, but sharing the topics'
 * common values as the target's do). Prints one JSON line per document: {@code {"planted": bool, "source": {field:
 * the processor's object}}}, the object with {@code keys} for version 7. Deterministic from the seed.
 */
public final class KeysCheckDocs {
    static final String USAGE = """
        usage: KeysCheckDocs --target-docs N --count M [--planted 0.1] [--seed 26] [--version 7|6] [--field fpk]""";

    private KeysCheckDocs() {}

    public static void main(String[] args) throws Exception {
        long targetDocs = -1, count = -1, seed = 26;
        double planted = 0.1;
        int version = 7;
        String field = "fpk";
        Args a = new Args(args, USAGE);
        for (String o; (o = a.next()) != null;) {
            switch (o) {
                case "--target-docs" -> targetDocs = a.longValue();
                case "--count" -> count = a.longValue();
                case "--planted" -> planted = Double.parseDouble(a.value());
                case "--seed" -> seed = a.longValue();
                case "--version" -> version = a.intValue();
                case "--field" -> field = a.value();
                default -> throw a.unknown();
            }
        }
        if (targetDocs <= 0 || count < 0) throw new IllegalArgumentException(USAGE);
        KeysModel model = new KeysModel(targetDocs);
        String algorithm = (version >= 7 ? SimHashSettings.DEFAULT_V7 : SimHashSettings.DEFAULT).algorithmId();
        SplittableRandom r = new SplittableRandom(seed);
        try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16)) {
            for (long i = 0; i < count; i++) {
                boolean isPlanted = r.nextDouble() < planted;
                KeysModel.Doc d = isPlanted
                    ? model.edit(model.doc(r.nextLong(targetDocs)), r, r.nextInt(9), 1 + r.nextInt(10))
                    : model.fresh(r.split());
                out.write("{\"planted\":" + isPlanted + ",\"source\":{\"" + field + "\":{\"fingerprint\":\"" + d.fingerprintHex());
                out.write("\",\"signature\":\"" + d.signatureHex());
                if (version >= 7) out.write("\",\"keys\":\"" + d.storedKeys());
                out.write("\",\"algorithm\":\"" + algorithm + "\"}}}\n");
            }
        }
    }
}
