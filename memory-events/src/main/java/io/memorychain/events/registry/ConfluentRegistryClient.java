package io.memorychain.events.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client for the Confluent Schema Registry REST API, which Confluent Schema Registry, Apicurio Registry (its
 * {@code /apis/ccompat/v7} API), Karapace and Redpanda all speak. Only Avro schemas without references are handled.
 *
 * <p>The base URL is the API root, e.g. {@code http://127.0.0.1:8080/apis/ccompat/v7} for Apicurio or
 * {@code http://127.0.0.1:8081} for Confluent. Calls used:
 *
 * <ul>
 *   <li>{@link #register}: {@code POST /subjects/{subject}/versions} with {@code {"schema": "<json>"}} answering
 *       {@code {"id": n}};
 *   <li>{@link #byId}: {@code GET /schemas/ids/{id}} answering {@code {"schema": "<json>"}};
 *   <li>{@link #isCompatible}: {@code POST /compatibility/subjects/{subject}/versions/latest} answering
 *       {@code {"is_compatible": bool}}; a subject without versions (HTTP 404, error code 40401 or 40402) is
 *       compatible;
 *   <li>{@link #setCompatibility}: {@code PUT /config/{subject}} with {@code {"compatibility": "BACKWARD"}}.
 * </ul>
 *
 * Ids are cached per (subject, schema) and schemas per id, so the registry is called once per schema and subject: while
 * the registry is down, everything already cached keeps serializing and deserializing (docs/architecture.md §19,
 * "Faults"). A call the registry cannot answer (unreachable, timed out, HTTP 5xx) is tried {@value #ATTEMPTS} times
 * with a doubling back-off from {@link #RETRY_BACKOFF}, then throws {@link SchemaRegistryUnavailableException}:
 * retryable, the record is not at fault. Other failures throw {@link SchemaRegistryException} carrying the HTTP status
 * and the registry's {@code error_code} (e.g. HTTP 409 for an incompatible schema). Thread-safe.
 */
public final class ConfluentRegistryClient implements SchemaRegistry {

    /** The media type of the Confluent Schema Registry API. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    /** Request timeout used when none is given. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** Tries of a call the registry cannot answer before {@link SchemaRegistryUnavailableException} is thrown. */
    public static final int ATTEMPTS = 3;
    /** Wait before the second try; doubled before each further one. */
    public static final Duration RETRY_BACKOFF = Duration.ofMillis(200);

    /** Confluent's subject compatibility levels. */
    public enum CompatibilityLevel {
        NONE,
        BACKWARD,
        BACKWARD_TRANSITIVE,
        FORWARD,
        FORWARD_TRANSITIVE,
        FULL,
        FULL_TRANSITIVE
    }

    private static final Logger LOG = LoggerFactory.getLogger(ConfluentRegistryClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SUBJECT_NOT_FOUND = 40401;
    private static final int VERSION_NOT_FOUND = 40402;
    private static final int MAX_ERROR_BODY = 500;

    private final String baseUrl;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final Map<SubjectSchema, Integer> idBySubjectSchema = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemaById = new ConcurrentHashMap<>();

    private record SubjectSchema(String subject, Schema schema) {}

    /** A client with the {@linkplain #DEFAULT_REQUEST_TIMEOUT default request timeout}. */
    public ConfluentRegistryClient(String baseUrl) {
        this(baseUrl, DEFAULT_REQUEST_TIMEOUT);
    }

    /**
     * @param baseUrl the API root, http or https, e.g. {@code http://127.0.0.1:8080/apis/ccompat/v7}
     * @param requestTimeout bound on connecting and on each request
     */
    public ConfluentRegistryClient(String baseUrl, Duration requestTimeout) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive: " + requestTimeout);
        }
        String trimmed = baseUrl.strip();
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        URI uri = URI.create(trimmed);
        if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("Schema registry URL must be http or https: " + baseUrl);
        }
        this.baseUrl = trimmed;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(requestTimeout)
                .build();
    }

    /** The API root this client talks to. */
    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public int register(String subject, Schema schema) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(schema, "schema");
        SubjectSchema key = new SubjectSchema(subject, schema);
        Integer cached = idBySubjectSchema.get(key);
        if (cached != null) {
            return cached;
        }
        JsonNode answer;
        try {
            answer = call("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema));
        } catch (SchemaRegistryException e) {
            if (e.httpStatus() != 409) {
                throw e;
            }
            // Two registrations of a new subject at once (two threads or two instances writing their first record
            // of a topic): Apicurio's Confluent API creates the subject for one and answers the other 409 "already
            // exists". Once more, the subject exists and the schema gets its id; an incompatible schema is refused
            // with 409 again and fails here.
            LOG.info("Registration under subject {} answered 409 ({}); registering once more", subject, e.getMessage());
            answer = call("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema));
        }
        JsonNode id = answer.get("id");
        if (id == null || !id.canConvertToInt()) {
            throw new SchemaRegistryException("Schema registry answered registration under subject " + subject
                    + " without an id: " + truncate(answer.toString()));
        }
        int value = id.intValue();
        idBySubjectSchema.putIfAbsent(key, value);
        schemaById.putIfAbsent(value, schema);
        LOG.debug("Registered schema {} under subject {} with id {}", schema.getFullName(), subject, value);
        return value;
    }

    @Override
    public Schema byId(int id) {
        Schema cached = schemaById.get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = call("GET", "/schemas/ids/" + id, null);
        JsonNode type = answer.get("schemaType");
        if (type != null && type.isTextual() && !"AVRO".equalsIgnoreCase(type.asText())) {
            throw new SchemaRegistryException("Schema id " + id + " is a " + type.asText() + " schema, not Avro");
        }
        JsonNode text = answer.get("schema");
        if (text == null || !text.isTextual()) {
            throw new SchemaRegistryException(
                    "Schema registry answered schema id " + id + " without a schema: " + truncate(answer.toString()));
        }
        Schema schema;
        try {
            schema = new Schema.Parser().parse(text.asText());
        } catch (SchemaParseException e) {
            throw new SchemaRegistryException(
                    "Schema id " + id + " is not a self-contained Avro schema: " + e.getMessage(), e);
        }
        Schema previous = schemaById.putIfAbsent(id, schema);
        return previous != null ? previous : schema;
    }

    @Override
    public boolean isCompatible(String subject, Schema schema) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(schema, "schema");
        JsonNode answer;
        try {
            answer =
                    call("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest", schemaBody(schema));
        } catch (SchemaRegistryException e) {
            if (e.httpStatus() == 404 && (e.errorCode() == SUBJECT_NOT_FOUND || e.errorCode() == VERSION_NOT_FOUND)) {
                LOG.debug("Subject {} has no version yet: any schema is compatible", subject);
                return true;
            }
            throw e;
        }
        JsonNode compatible = answer.get("is_compatible");
        if (compatible == null || !compatible.isBoolean()) {
            throw new SchemaRegistryException("Schema registry answered the compatibility check for subject " + subject
                    + " without is_compatible: " + truncate(answer.toString()));
        }
        return compatible.booleanValue();
    }

    /** Sets the subject's compatibility level ({@code PUT /config/{subject}}); the subject need not exist yet. */
    public void setCompatibility(String subject, CompatibilityLevel level) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(level, "level");
        ObjectNode body = JSON.createObjectNode().put("compatibility", level.name());
        call("PUT", "/config/" + encode(subject), body);
        LOG.debug("Set compatibility of subject {} to {}", subject, level);
    }

    /** Clears the caches; {@link HttpClient} has no close on Java 17 and is released when unreachable. */
    @Override
    public void close() {
        idBySubjectSchema.clear();
        schemaById.clear();
    }

    private static ObjectNode schemaBody(Schema schema) {
        return JSON.createObjectNode().put("schema", schema.toString());
    }

    /** {@link #callOnce}, retried with back-off while the registry cannot answer. */
    private JsonNode call(String method, String path, JsonNode body) {
        long backoffMs = RETRY_BACKOFF.toMillis();
        for (int attempt = 1; ; attempt++) {
            try {
                return callOnce(method, path, body);
            } catch (SchemaRegistryUnavailableException e) {
                if (attempt >= ATTEMPTS || Thread.currentThread().isInterrupted()) {
                    throw new SchemaRegistryUnavailableException(
                            e.getMessage() + " (" + attempt + " attempts)", e.getCause());
                }
                LOG.warn(
                        "Schema registry call failed (attempt {} of {}), retrying in {} ms: {}",
                        attempt,
                        ATTEMPTS,
                        backoffMs,
                        e.getMessage());
                try {
                    Thread.sleep(backoffMs); // back-off between calls to a registry that cannot answer
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new SchemaRegistryUnavailableException(
                            e.getMessage() + " (interrupted while retrying)", e.getCause());
                }
                backoffMs *= 2;
            }
        }
    }

    private JsonNode callOnce(String method, String path, JsonNode body) {
        URI uri = URI.create(baseUrl + path);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(requestTimeout)
                .header("Accept", CONTENT_TYPE + ", application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", CONTENT_TYPE)
                    .method(method, HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw new SchemaRegistryUnavailableException(
                    "Schema registry " + method + " " + uri + " timed out after " + requestTimeout, e);
        } catch (IOException e) {
            throw new SchemaRegistryUnavailableException("Cannot reach the schema registry at " + uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryUnavailableException("Interrupted while calling the schema registry at " + uri, e);
        }
        int status = response.statusCode();
        String text = response.body() == null ? "" : response.body();
        if (status >= 200 && status < 300) {
            try {
                return text.isBlank() ? JSON.createObjectNode() : JSON.readTree(text);
            } catch (JsonProcessingException e) {
                throw new SchemaRegistryException(
                        "Schema registry " + method + " " + uri + " answered HTTP " + status
                                + " with a body that is not JSON: " + truncate(text),
                        e);
            }
        }
        int errorCode = -1;
        String message = truncate(text);
        try {
            JsonNode error = JSON.readTree(text);
            if (error != null && error.isObject()) {
                errorCode = error.path("error_code").asInt(-1);
                if (error.hasNonNull("message")) {
                    message = truncate(error.get("message").asText());
                }
            }
        } catch (JsonProcessingException e) {
            // not a registry error document: keep the raw body as the message
        }
        String failure = "Schema registry " + method + " " + uri + " failed: HTTP " + status + ", error_code "
                + errorCode + ": " + message;
        if (status >= 500) {
            throw new SchemaRegistryUnavailableException(failure, null);
        }
        throw new SchemaRegistryException(failure, status, errorCode);
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String truncate(String text) {
        return text.length() <= MAX_ERROR_BODY ? text : text.substring(0, MAX_ERROR_BODY) + "...";
    }
}
