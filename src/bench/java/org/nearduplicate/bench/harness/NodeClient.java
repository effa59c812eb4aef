package org.nearduplicate.bench.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;

/** The benchmarks' HTTP client of one node: JSON requests, bulk loads retried on 429, errors carrying their status. */
public final class NodeClient {
    /** A response with a status of 300 or more; the message has the method, path, status and the body's start. */
    public static final class HttpError extends IOException {
        public final int status;

        public HttpError(int status, String msg) {
            super(msg);
            this.status = status;
        }
    }

    private final String url;
    private final HttpClient http;
    private final Duration timeout;
    private final Log log;

    /** {@code threads}: the client's executor; {@code timeout}: of one request. */
    public NodeClient(String url, int threads, Duration timeout, Log log) {
        this.url = url;
        this.timeout = timeout;
        this.log = log;
        this.http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .executor(Executors.newFixedThreadPool(threads))
            .build();
    }

    public String url() {
        return url;
    }

    public String send(String method, String path, String body, String contentType) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(timeout);
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("Content-Type", contentType);
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new HttpError(
                r.statusCode(),
                method + " " + path + " -> " + r.statusCode() + ": " + r.body().substring(0, Math.min(2000, r.body().length()))
            );
        }
        return r.body();
    }

    public String get(String path) throws IOException, InterruptedException {
        return send("GET", path, null, null);
    }

    /** GET of a JSON object. */
    public Map<?, ?> getJson(String path) throws IOException, InterruptedException {
        return Json.map(get(path));
    }

    public String post(String path, String body) throws IOException, InterruptedException {
        return send("POST", path, body, "application/json");
    }

    public String put(String path, String body) throws IOException, InterruptedException {
        return send("PUT", path, body, "application/json");
    }

    /** DELETE, any failure ignored (e.g. the index is not there). */
    public void delete(String path) {
        try {
            send("DELETE", path, null, null);
        } catch (Exception ignored) {}
    }

    /**
     * A bulk request of documents with explicit ids (so a repeat is idempotent), retried with backoff on 429 (the
     * node's circuit breakers or write queue pushing back), as bulk clients are expected to.
     */
    public String bulkWithRetry(String path, String body) throws IOException, InterruptedException {
        for (int attempt = 1;; attempt++) {
            String r;
            try {
                r = send("POST", path, body, "application/x-ndjson");
            } catch (HttpError e) {
                if (attempt < 10 && e.status == 429) {
                    log.log("  bulk rejected with 429, retry " + attempt + " in " + attempt + " s");
                    Thread.sleep(1000L * attempt);
                    continue;
                }
                throw e;
            }
            if (r.contains("\"errors\":true")) {
                if (attempt < 10 && r.contains("\"status\":429")) {
                    log.log("  bulk items rejected with 429, retry " + attempt + " in " + attempt + " s");
                    Thread.sleep(1000L * attempt);
                    continue;
                }
                throw new IOException("bulk errors: " + r.substring(0, Math.min(1500, r.length())));
            }
            return r;
        }
    }
}
