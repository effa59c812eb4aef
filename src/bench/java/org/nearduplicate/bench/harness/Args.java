package org.nearduplicate.bench.harness;

import java.util.Arrays;

/** A benchmark's command line: options one by one, their values, and --help (prints the usage and exits). */
public final class Args {
    private final String[] args;
    private final String usage;
    private int i = -1;

    public Args(String[] args, String usage) {
        this.args = args;
        this.usage = usage;
    }

    /** The next option, or null at the end; --help and -h print the usage and exit. */
    public String next() {
        if (++i >= args.length) return null;
        if (args[i].equals("--help") || args[i].equals("-h")) {
            System.err.println(usage);
            System.exit(0);
        }
        return args[i];
    }

    /** The current option's value. */
    public String value() {
        if (i + 1 >= args.length) throw new IllegalArgumentException(args[i] + " needs a value\n" + usage);
        return args[++i];
    }

    public int intValue() {
        return Integer.parseInt(value());
    }

    public long longValue() {
        return Long.parseLong(value());
    }

    public double doubleValue() {
        return Double.parseDouble(value());
    }

    /** A comma-separated list of ints. */
    public int[] ints() {
        return Arrays.stream(value().split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
    }

    public IllegalArgumentException unknown() {
        return new IllegalArgumentException("unknown option " + args[i] + "\n" + usage);
    }
}
