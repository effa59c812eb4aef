package org.nearduplicate.bench.harness;

import java.time.LocalTime;

/** A benchmark's progress lines on stderr, {@code [name hh:mm:ss] message}. */
public record Log(String name) {
    public void log(String s) {
        System.err.println("[" + name + " " + LocalTime.now().withNano(0) + "] " + s);
    }
}
