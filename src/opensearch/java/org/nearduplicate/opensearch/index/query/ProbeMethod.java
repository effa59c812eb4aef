package org.nearduplicate.opensearch.index.query;

import org.opensearch.core.common.io.stream.StreamInput;

import java.io.IOException;

/**
 * What a method's query part ({@link ProbeQuerying}) and rescorer part ({@link ProbeRescoring}) both answer from its
 * probe's {@link ProbeKind}: the name, reading the probe from the wire and parsing it.
 *
 * @param <P> the method's probe
 */
public interface ProbeMethod<P extends Probe<?, P>> {
    /** The method's probe: the name (JSON key and NamedWriteable name, e.g. {@code near_duplicate}), reader, parser. */
    ProbeKind<P> kind();

    default String name() {
        return kind().name();
    }

    default P readProbe(StreamInput in) throws IOException {
        return kind().readProbe(in);
    }

    default Probe.Parser<?, P> probeParser() {
        return kind().probeParser();
    }
}
