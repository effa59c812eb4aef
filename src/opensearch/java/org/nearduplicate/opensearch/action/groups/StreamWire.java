package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

import org.nearduplicate.orchestration.groups.WireIn;
import org.nearduplicate.orchestration.groups.WireOut;

/** The platform's transport streams as the neutral wire formats' {@link WireOut} and {@link WireIn}. */
public final class StreamWire {
    private StreamWire() {}

    public static WireOut out(StreamOutput out) {
        return new WireOut() {
            @Override
            public void writeVInt(int v) throws IOException {
                out.writeVInt(v);
            }

            @Override
            public void writeZLong(long v) throws IOException {
                out.writeZLong(v);
            }

            @Override
            public void writeLong(long v) throws IOException {
                out.writeLong(v);
            }

            @Override
            public void writeBoolean(boolean v) throws IOException {
                out.writeBoolean(v);
            }

            @Override
            public void writeBytes(byte[] b, int offset, int length) throws IOException {
                out.writeBytes(b, offset, length);
            }
        };
    }

    public static WireIn in(StreamInput in) {
        return new WireIn() {
            @Override
            public int readVInt() throws IOException {
                return in.readVInt();
            }

            @Override
            public long readZLong() throws IOException {
                return in.readZLong();
            }

            @Override
            public long readLong() throws IOException {
                return in.readLong();
            }

            @Override
            public boolean readBoolean() throws IOException {
                return in.readBoolean();
            }

            @Override
            public void readBytes(byte[] b, int offset, int length) throws IOException {
                in.readBytes(b, offset, length);
            }
        };
    }
}
