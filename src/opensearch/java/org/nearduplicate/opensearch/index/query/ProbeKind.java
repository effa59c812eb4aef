package org.nearduplicate.opensearch.index.query;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.Writeable;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * What a method's query and rescorer pieces both need of its probe: the name they are registered under (the query's
 * and the rescorer's JSON key), how the probe is read from the wire and how it is parsed. One per probe, so that the
 * two pieces cannot disagree.
 *
 * @param <P> the method's probe
 */
public record ProbeKind<P extends Probe<?, P>>(String name, Writeable.Reader<P> reader, Supplier<? extends Probe.Parser<?, P>> parser) {

    /** Reads a probe of the method. */
    public P readProbe(StreamInput in) throws IOException {
        return reader.read(in);
    }

    /** A parser that collects the method's probe keys. */
    public Probe.Parser<?, P> probeParser() {
        return parser.get();
    }
}
