package org.nearduplicate.opensearch.index.query;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.Writeable;

import java.io.IOException;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.opensearch.index.query.minhash.MinHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

/**
 * What {@link Probe} does for every method: the wire layout (the method's value, then {@link ProbeInput}) that nodes
 * of earlier releases read, and the {@code like} document's value with its errors.
 */
public class ProbeTests extends PlatformTestCase {

    /**
     * SimHashProbe's layout: optional fingerprint, optional fingerprints, then (since 0.6.0) optional signature and
     * optional signatures, then (with simhash-v7's candidate keys) optional keys and optional keys per fingerprint, then
     * the input. Nodes of one cluster run the same plugin release (docs/reliability.md).
     */
    public void testSimHashWireLayout() throws IOException {
        long fingerprint = randomLong();
        long[] fingerprints = { randomLong(), randomLong() };
        String algorithm = randomBoolean() ? null : randomAlphaOfLength(6);
        byte[] signature = org.nearduplicate.core.sketch.Signature.of(randomLong(), randomLong());
        assertLayout(SimHashProbe.fingerprint(fingerprint, algorithm), out -> {
            out.writeOptionalLong(fingerprint);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false); // no keys
            out.writeBoolean(false);
            writeInput(out, algorithm, null, null, null);
        }, SimHashProbe::new);
        assertLayout(SimHashProbe.fingerprint(new org.nearduplicate.core.sketch.SimHash(fingerprint, signature), algorithm), out -> {
            out.writeOptionalLong(fingerprint);
            out.writeBoolean(false);
            out.writeBoolean(true);
            out.writeByteArray(signature);
            out.writeBoolean(false);
            out.writeBoolean(false); // no keys
            out.writeBoolean(false);
            writeInput(out, algorithm, null, null, null);
        }, SimHashProbe::new);
        assertLayout(SimHashProbe.fingerprints(fingerprints, new byte[][] { signature, signature }, algorithm), out -> {
            out.writeOptionalLong(null);
            out.writeBoolean(true);
            out.writeLongArray(fingerprints);
            out.writeBoolean(false);
            out.writeBoolean(true);
            out.writeVInt(2);
            out.writeBoolean(true);
            out.writeByteArray(signature);
            out.writeBoolean(true);
            out.writeByteArray(signature);
            out.writeBoolean(false); // no keys
            out.writeBoolean(false);
            writeInput(out, algorithm, null, null, null);
        }, SimHashProbe::new);
        assertLayout(SimHashProbe.like("pages", "42", "r"), out -> {
            out.writeOptionalLong(null);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            writeInput(out, null, new LikeDocument("pages", "42", "r"), null, null);
        }, SimHashProbe::new);
        assertLayout(SimHashProbe.html("<p>a</p>"), out -> {
            out.writeOptionalLong(null);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            writeInput(out, null, null, null, "<p>a</p>");
        }, SimHashProbe::new);
        // simhash-v7's candidate keys (packed hashes) follow the signatures: one with a fingerprint, one per entry with several
        byte[] keys = randomByteArrayOfLength(112);
        assertLayout(SimHashProbe.fingerprint(new org.nearduplicate.core.sketch.SimHash(fingerprint, signature), keys, algorithm), out -> {
            out.writeOptionalLong(fingerprint);
            out.writeBoolean(false);
            out.writeBoolean(true);
            out.writeByteArray(signature);
            out.writeBoolean(false);
            out.writeBoolean(true);
            out.writeByteArray(keys);
            out.writeBoolean(false);
            writeInput(out, algorithm, null, null, null);
        }, SimHashProbe::new);
        assertLayout(
            SimHashProbe.fingerprints(fingerprints, new byte[][] { signature, null }, new byte[][] { keys, null }, algorithm),
            out -> {
                out.writeOptionalLong(null);
                out.writeBoolean(true);
                out.writeLongArray(fingerprints);
                out.writeBoolean(false);
                out.writeBoolean(true);
                out.writeVInt(2);
                out.writeBoolean(true);
                out.writeByteArray(signature);
                out.writeBoolean(false);
                out.writeBoolean(false);
                out.writeBoolean(true);
                out.writeVInt(2);
                out.writeBoolean(true);
                out.writeByteArray(keys);
                out.writeBoolean(false);
                writeInput(out, algorithm, null, null, null);
            },
            SimHashProbe::new
        );
    }

    /** The layout MinHashProbe wrote before: optional base64 signature, input. */
    public void testMinHashWireLayout() throws IOException {
        String signature = MinHashSignatures.toBase64(new int[] { randomInt(), randomInt() });
        String algorithm = randomBoolean() ? null : randomAlphaOfLength(6);
        assertLayout(MinHashProbe.signature(signature, algorithm), out -> {
            out.writeOptionalString(signature);
            writeInput(out, algorithm, null, null, null);
        }, MinHashProbe::new);
        assertLayout(MinHashProbe.text("a b c"), out -> {
            out.writeOptionalString(null);
            writeInput(out, null, null, "a b c", null);
        }, MinHashProbe::new);
        assertLayout(MinHashProbe.like("pages", "7", null), out -> {
            out.writeOptionalString(null);
            writeInput(out, null, new LikeDocument("pages", "7", null), null, null);
        }, MinHashProbe::new);
    }

    private static void writeInput(BytesStreamOutput out, String algorithm, LikeDocument like, String text, String html)
        throws IOException {
        out.writeOptionalString(algorithm);
        out.writeOptionalWriteable(like);
        out.writeOptionalString(text);
        out.writeOptionalString(html);
        out.writeOptionalWriteable(null); // no excluded document
    }

    /** {@code include_like: false}: the input's layout, then the excluded document (the like, then its concrete index). */
    public void testExcludedLikeWireLayout() throws IOException {
        LikeDocument like = new LikeDocument("pages", "42", null);
        SimHashProbe probe = SimHashProbe.like("pages", "42", null);
        SimHashProbe excluding = SimHashProbe.stored("what", "fp", "00000000000000ff");
        assertLayout(excludingLike(probe), out -> {
            out.writeOptionalLong(null);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeBoolean(false);
            out.writeOptionalString(null);
            out.writeOptionalWriteable(like);
            out.writeOptionalString(null);
            out.writeOptionalString(null);
            out.writeOptionalWriteable(like);
        }, SimHashProbe::new);
        assertEquals(255L, (long) excluding.fingerprint());
        assertNull(probe.excluded());
        assertEquals(like, excludingLike(probe).excluded());
        assertEquals("like[pages][42] excluding [pages][42]", excludingLike(probe).toString());
    }

    private static <V, P extends Probe<V, P>> P excludingLike(Probe<V, P> probe) {
        return methodOf(probe).create(probe.value, probe.input.excluding(probe.like()));
    }

    private interface Layout {
        void write(BytesStreamOutput out) throws IOException;
    }

    private static <P extends Probe<?, P>> void assertLayout(P probe, Layout expected, Writeable.Reader<P> reader) throws IOException {
        try (BytesStreamOutput actual = new BytesStreamOutput(); BytesStreamOutput written = new BytesStreamOutput()) {
            probe.writeTo(actual);
            expected.write(written);
            assertEquals(probe.toString(), written.bytes(), actual.bytes());
            try (StreamInput in = written.bytes().streamInput()) {
                P read = reader.read(in);
                assertEquals(probe, read);
                assertEquals(probe.hashCode(), read.hashCode());
                assertEquals(probe.toString(), read.toString());
            }
        }
    }

    public void testLikeDocumentValues() {
        String what = "[like] document [pages][1]";
        SimHashProbe plain = Probe.fromSourceValue(methodOf(SimHashProbe.fingerprint(0)), what, "fp", "00000000000000ff");
        assertEquals(SimHashProbe.fingerprint(255), plain);
        SimHashProbe object = Probe.fromSourceValue(
            methodOf(SimHashProbe.fingerprint(0)),
            what,
            "fp",
            Map.of("fingerprint", 255, "algorithm", "a")
        );
        assertEquals(SimHashProbe.fingerprint(255, "a"), object);
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> Probe.fromSourceValue(methodOf(SimHashProbe.fingerprint(0)), what, "fp", 1.5)
        );
        assertThat(e.getMessage(), startsWith(what + " has an invalid value in field [fp]: "));
        e = expectThrows(
            IllegalArgumentException.class,
            () -> Probe.fromSourceValue(methodOf(SimHashProbe.fingerprint(0)), what, "fp", Map.of("algorithm", "a"))
        );
        assertEquals(what + " has no [fingerprint] in field [fp]", e.getMessage());
        // simhash-v7: the processor's object carries the candidate keys, which the like probe keeps
        org.nearduplicate.core.SimHashSettings v7 = org.nearduplicate.core.SimHashSettings.DEFAULT_V7;
        org.nearduplicate.core.sketch.SimHash sketch = new org.nearduplicate.core.sketch.SimHasher(v7).sketch("a harbor bridge reopened");
        String keys = org.nearduplicate.core.keys.StoredKeys.of(v7, sketch);
        SimHashProbe keyed = Probe.fromSourceValue(
            methodOf(SimHashProbe.fingerprint(0)),
            what,
            "fp",
            Map.of(
                "fingerprint",
                org.nearduplicate.core.sketch.Fingerprints.toHex(sketch.fingerprint()),
                "signature",
                org.nearduplicate.core.sketch.Signature.toHex(sketch.signature()),
                "keys",
                keys,
                "algorithm",
                v7.algorithmId()
            )
        );
        assertArrayEquals(org.nearduplicate.core.keys.CandidateKeys.V7.packedHashes(sketch.minima()), keyed.keys());
        assertArrayEquals(sketch.signature(), keyed.signature());
        e = expectThrows(
            IllegalArgumentException.class,
            () -> Probe.fromSourceValue(methodOf(SimHashProbe.fingerprint(0)), what, "fp", Map.of("fingerprint", 255, "keys", "%%%"))
        );
        assertThat(e.getMessage(), startsWith(what + " has an invalid value in field [fp]: invalid [keys] [%%%]: not base64"));

        String signature = MinHashSignatures.toBase64(new int[] { 1, 2, 3 });
        MinHashProbe signed = Probe.fromSourceValue(
            methodOf(MinHashProbe.signature(signature, null)),
            what,
            "mh",
            Map.of("signature", signature, "algorithm", "m")
        );
        assertEquals(MinHashProbe.signature(signature, "m"), signed);
        e = expectThrows(
            IllegalArgumentException.class,
            () -> Probe.fromSourceValue(methodOf(MinHashProbe.signature(signature, null)), what, "mh", 12)
        );
        assertEquals(what + " has no base64 signature in field [mh], got [12]", e.getMessage());
        e = expectThrows(
            IllegalArgumentException.class,
            () -> Probe.fromSourceValue(methodOf(MinHashProbe.signature(signature, null)), what, "mh", "%%%")
        );
        assertThat(e.getMessage(), startsWith(what + " has an invalid value in field [mh]: "));
        assertThat(e.getMessage(), containsString("base64"));
    }

    private static <V, P extends Probe<V, P>> ProbeValueType<V, P> methodOf(Probe<V, P> probe) {
        return probe.type();
    }
}
