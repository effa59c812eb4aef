package org.nearduplicate.orchestration.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.window.RecentFingerprints;

/** Platform fakes for the check's neutral code: documents, options, a search that answers when told, and timers. */
final class CheckFakes {
    private CheckFakes() {}

    /** An error with a status, as a platform's status exception. */
    static final class StatusError extends RuntimeException {
        final int status;

        StatusError(String message, int status) {
            super(message);
            this.status = status;
        }
    }

    /** A document in {@code pages} with a fingerprint of algorithm {@code x}; records its answer. */
    static final class Document implements CheckDocument {
        final Map<String, Object> fields = new HashMap<>();
        final String index;
        final String id;
        int answers;
        boolean passed;
        boolean dropped;
        Exception failure;

        Document(String id, long fingerprint) {
            this("pages", id);
            fields.put("simhash", Map.of("fingerprint", Fingerprints.toHex(fingerprint), "algorithm", "x"));
        }

        Document(String index, String id) {
            this.index = index;
            this.id = id;
        }

        @Override
        public Object value(String path) {
            return fields.get(path);
        }

        @Override
        public String index() {
            return index;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public void set(String path, Object value) {
            fields.put(path, value);
        }

        @Override
        public void pass() {
            answers++;
            passed = true;
        }

        @Override
        public void drop() {
            answers++;
            dropped = true;
        }

        @Override
        public void fail(Exception e) {
            answers++;
            failure = e;
        }

        @Override
        public Exception error(String message, int status) {
            return new StatusError(message, status);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> result() {
            return (Map<String, Object>) fields.get("near_duplicate");
        }
    }

    /** Options from a map, as a pipeline's configuration; durations in s, ms or m. */
    static CheckOptions options(Map<String, Object> config) {
        Map<String, Object> left = new HashMap<>(config);
        CheckOptions options = CheckOptions.parse(new CheckOptions.Reader() {
            @Override
            public String string(String name, String defaultValue) {
                Object value = left.remove(name);
                if (value == null && defaultValue == null) throw invalid(name, "is missing");
                return value == null ? defaultValue : value.toString();
            }

            @Override
            public String optionalString(String name) {
                Object value = left.remove(name);
                return value == null ? null : value.toString();
            }

            @Override
            public boolean bool(String name, boolean defaultValue) {
                Object value = left.remove(name);
                return value == null ? defaultValue : (Boolean) value;
            }

            @Override
            public int integer(String name, int defaultValue) {
                Object value = left.remove(name);
                return value == null ? defaultValue : (Integer) value;
            }

            @Override
            public Object remove(String name) {
                return left.remove(name);
            }

            @Override
            public TimeSpan time(String name, String defaultValue) {
                String value = string(name, defaultValue);
                long millis = value.endsWith("ms") ? Long.parseLong(value.substring(0, value.length() - 2))
                    : value.endsWith("s") ? 1000 * Long.parseLong(value.substring(0, value.length() - 1))
                    : 60_000 * Long.parseLong(value.substring(0, value.length() - 1));
                return new TimeSpan(value, millis, value);
            }

            @Override
            public RuntimeException invalid(String name, String problem) {
                return new IllegalArgumentException("[" + name + "] " + problem);
            }

            @Override
            public RuntimeException invalid(IllegalArgumentException e) {
                return e;
            }
        });
        if (left.isEmpty() == false) throw new IllegalArgumentException("unknown options " + left.keySet());
        return options;
    }

    /** Timers that run when the test runs them; durations printed in ms. */
    static final class Timers implements Scheduling {
        final List<Runnable> tasks = new ArrayList<>();

        @Override
        public Timer schedule(long delayMillis, Runnable task) {
            tasks.add(task);
            return () -> tasks.remove(task);
        }

        @Override
        public String text(long millis) {
            return millis + "ms";
        }

        /** Runs the timers set so far (not those they set). */
        void runAll() {
            for (Runnable task : new ArrayList<>(tasks)) {
                tasks.remove(task);
                task.run();
            }
        }
    }

    /** A search that records its requests and answers when the test tells it. */
    static final class Searches implements CandidateSearch {
        final List<Request> requests = new ArrayList<>();
        final List<Listener> listeners = new ArrayList<>();

        @Override
        public void search(Request request, Listener listener) {
            requests.add(request);
            listeners.add(listener);
        }

        @Override
        public boolean missingIndex(Exception e) {
            return e instanceof StatusError s && s.status == 404;
        }

        @Override
        public int status(Exception e) {
            return e instanceof StatusError s ? s.status : 500;
        }

        /** Answers the {@code i}th search with {@code hits}, every shard answering. */
        void answer(int i, Hit... hits) {
            listeners.get(i).onResponse(new Response(List.of(hits), 0, null, 0));
        }

        /** A hit in {@code pages} without {@code _source}. */
        static Hit hit(String id, long fingerprint) {
            return new Hit(id, "pages", Fingerprints.toHex(fingerprint), path -> null);
        }
    }

    /** A check of target {@code pages} (k 3 by default, no cluster state) over fresh windows. */
    static NearDuplicateCheck check(Map<String, Object> config, Searches searches, Timers timers) {
        TargetIndices targets = (index, field) -> 3;
        return new NearDuplicateCheck(options(config), targets, new RecentFingerprints.Registry(() -> 0L), null, searches, timers);
    }
}
