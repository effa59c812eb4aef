package org.nearduplicate.orchestration.groups;

import java.io.IOException;

/** The primitive reads of a transport stream that the neutral wire formats use; each adapter wraps its stream. */
public interface WireIn {
    int readVInt() throws IOException;

    /** A zig-zag variable-length long. */
    long readZLong() throws IOException;

    long readLong() throws IOException;

    boolean readBoolean() throws IOException;

    void readBytes(byte[] b, int offset, int length) throws IOException;
}
