package org.nearduplicate.orchestration.groups;

import java.io.IOException;

/** The primitive writes of a transport stream that the neutral wire formats use; each adapter wraps its stream. */
public interface WireOut {
    void writeVInt(int v) throws IOException;

    /** A zig-zag variable-length long. */
    void writeZLong(long v) throws IOException;

    void writeLong(long v) throws IOException;

    void writeBoolean(boolean v) throws IOException;

    void writeBytes(byte[] b, int offset, int length) throws IOException;
}
