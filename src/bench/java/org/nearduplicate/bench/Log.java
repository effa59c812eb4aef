package org.nearduplicate.bench;

import java.time.LocalTime;

/** A benchmark's progress lines on stderr, {@code [name hh:mm:ss] message}. */
record Log(String name) {
    void log(String s) {
        System.err.println("[" + name + " " + LocalTime.now().withNano(0) + "] " + s);
    }
}
