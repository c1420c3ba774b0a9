package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.UnknownFieldSet;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;
import io.memorychain.api.auth.AccessRules;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.grpc.GrpcErrors;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.WhoAmIRequest;
import io.micronaut.http.HttpStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A hostile client of every gRPC method: the methods come from the service descriptor (a method added to the proto is
 * fuzzed without anyone listing it), and each request is built from its message descriptor: missing fields, malformed
 * ids and spaces, oversized strings and repeated fields, extreme numbers, unknown fields, wrongly typed and broken wire
 * bytes (sent raw, past the generated stubs), bad or missing authorization metadata, cancelled streams and deadlines.
 * Every call must end within its deadline with OK or a refusal of the API's one error table: an {@code error-code}
 * trailer whose gRPC status is {@link GrpcErrors#statusOf} of that code and whose REST status
 * ({@link ErrorCodes#statusOf}) is a 4xx; never INTERNAL or UNKNOWN, never a Java class name in the description.
 */
public abstract class GrpcFuzzContract {

    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final long DEADLINE_SECONDS = 20;
    /** Below gRPC's 4 MiB message limit, above every text limit of the API. */
    private static final int OVERSIZED = 1 << 20;

    private static final List<String> HOSTILE_STRINGS = List.of(
            "",
            "../../etc/passwd",
            "a\u0000b",
            "\uD83D\uDE00 \u202E \uFFFF",
            "2024-13-45T99:99:99Z",
            "x".repeat(70_000));
    private static final List<String> HOSTILE_SPACES = List.of("", "../other", "s".repeat(10_000), "*");

    private final AtomicInteger calls = new AtomicInteger();
    private ManagedChannel channel;
    private String agent;
    private String admin;
    private String space;

    protected abstract int grpcPort();

    protected abstract ApiKeys apiKeys();

    /** WatchChanges streams open on the server. */
    protected abstract int openWatchStreams();

    /** Methods this application cannot serve at all (e.g. those reading the topics on TopologyTestDriver). */
    protected Set<String> notServedHere() {
        return Set.of();
    }

    @BeforeEach
    void openChannel() {
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort())
                .usePlaintext()
                .maxInboundMessageSize(64 << 20)
                .build();
        space = "fuzz-" + UUID.randomUUID().toString().substring(0, 8);
        agent = key(Role.AGENT, "fuzzer");
        admin = key(Role.ADMIN, "fuzzer");
    }

    @AfterEach
    void closeChannel() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    /** One dynamic test per method of the service descriptor, each with every hostile request built for it. */
    @TestFactory
    Stream<DynamicTest> everyMethodAnswersHostileRequestsWithTheRestErrorTable() {
        return methods().stream()
                .filter(m -> !notServedHere().contains(m.getBareMethodName()))
                .map(m -> DynamicTest.dynamicTest(m.getBareMethodName(), () -> {
                    List<String> violations = new ArrayList<>();
                    boolean stream = m.getType() == MethodDescriptor.MethodType.SERVER_STREAMING;
                    for (Variant v : variants(m)) {
                        // a stream that is accepted goes on (WatchChanges): it is cut by a deadline and judged as it
                        // ended
                        Outcome outcome = call(m, v.bytes(), v.key(), stream ? 1_500 : 0);
                        check(m, v.name(), outcome, stream).ifPresent(violations::add);
                    }
                    assertThat(violations)
                            .as("hostile calls of %s answered outside the error table", m.getFullMethodName())
                            .isEmpty();
                }));
    }

    @Test
    void badOrMissingAuthorizationIsUnauthenticatedOnEveryMethod() {
        List<String> bad = Arrays.asList(
                null,
                "",
                "Basic dXNlcjpwYXNz",
                "Bearer mc_nope",
                "Bearer " + "k".repeat(4_000),
                "bearer " + agent.substring(7).toUpperCase());
        List<String> violations = new ArrayList<>();
        for (MethodDescriptor<byte[], byte[]> m : methods()) {
            if (Operation.ofGrpc(m.getBareMethodName())
                    .map(o -> o == Operation.CHAIN_KEYS)
                    .orElse(false)) {
                continue; // the public keys are served to any caller
            }
            byte[] request = withSpace(m, space).toByteArray();
            for (String authorization : bad) {
                Outcome o = call(m, request, authorization, 0);
                check(m, "authorization " + abbreviate(authorization), o, false).ifPresent(violations::add);
                if (o.status().getCode() != Status.Code.UNAUTHENTICATED
                        || !ErrorCodes.UNAUTHENTICATED.equals(o.code())) {
                    violations.add(m.getBareMethodName() + " with authorization " + abbreviate(authorization)
                            + " answered " + o);
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void aMessageOverTheTransportLimitIsRefusedAsResourceExhaustedAndTheChannelStaysUsable() {
        MethodDescriptor<byte[], byte[]> create = method("CreateMemory");
        byte[] huge = withSpace(create, space).toBuilder()
                .setField(field(create, "content"), "y".repeat(5 << 20))
                .build()
                .toByteArray();
        Outcome o = call(create, huge, agent, 0);
        assertThat(o.status().getCode()).as(o.toString()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(whoAmI()).isEqualTo(Status.Code.OK);
    }

    @Test
    void cancelledAndExpiredStreamsAreClosedOnTheServer() {
        for (MethodDescriptor<byte[], byte[]> m : methods()) {
            if (m.getType() != MethodDescriptor.MethodType.SERVER_STREAMING
                    || notServedHere().contains(m.getBareMethodName())) {
                continue;
            }
            byte[] request = withSpace(m, space).toByteArray();
            String key = keyFor(m);
            // cancelled by the client once started, and ended by a deadline shorter than the stream
            Outcome cancelled = call(m, request, key, -1);
            assertThat(cancelled.status().getCode())
                    .as(m.getBareMethodName() + " " + cancelled)
                    .isIn(
                            Status.Code.CANCELLED,
                            Status.Code.OK,
                            Status.Code.FAILED_PRECONDITION,
                            Status.Code.UNIMPLEMENTED);
            Outcome expired = call(m, request, key, 300);
            assertThat(expired.status().getCode())
                    .as(m.getBareMethodName() + " " + expired)
                    .isIn(
                            Status.Code.DEADLINE_EXCEEDED,
                            Status.Code.OK,
                            Status.Code.FAILED_PRECONDITION,
                            Status.Code.UNIMPLEMENTED);
        }
        Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> openWatchStreams() == 0);
        assertThat(whoAmI()).isEqualTo(Status.Code.OK);
    }

    /**
     * Found by this fuzzer (its "strings" variants give every method of a space the same idempotency key): a key used
     * first by CreateMemory, then by StartRefinement, got the memory's outcome answered again, which the refinement
     * could not read back: INTERNAL. It is 409 INVALID_STATE, as REST answers the same reuse of an Idempotency-Key.
     */
    @Test
    void anIdempotencyKeyReusedByAnotherOperationIsInvalidStateNotInternal() {
        String reused = "../../etc/passwd-" + UUID.randomUUID().toString().substring(0, 8);
        MethodDescriptor<byte[], byte[]> create = method("CreateMemory");
        Outcome created = call(
                create,
                withSpace(create, space).toBuilder()
                        .setField(field(create, "content"), "the first request with this key")
                        .setField(field(create, "idempotency_key"), reused)
                        .build()
                        .toByteArray(),
                agent,
                0);
        assertThat(created.status().getCode()).as(created.toString()).isEqualTo(Status.Code.OK);
        MethodDescriptor<byte[], byte[]> start = method("StartRefinement");
        Outcome o = call(
                start,
                withSpace(start, space).toBuilder()
                        .setField(field(start, "idempotency_key"), reused)
                        .setField(field(start, "reason"), "../../etc/passwd")
                        .build()
                        .toByteArray(),
                agent,
                0);
        assertThat(check(start, "an idempotency key CreateMemory used", o, false))
                .isEmpty();
        assertThat(o.code()).as(o.toString()).isEqualTo(ErrorCodes.INVALID_STATE);
        assertThat(o.status().getDescription()).contains(reused);
    }

    // ---------------------------------------------------------------- the hostile requests of one method

    private record Variant(String name, byte[] bytes, String key) {}

    private List<Variant> variants(MethodDescriptor<byte[], byte[]> m) {
        String key = keyFor(m);
        Descriptors.Descriptor type = inputType(m);
        List<Variant> out = new ArrayList<>();
        out.add(new Variant("empty request", new byte[0], key));
        DynamicMessage valid = withSpace(m, space);
        out.add(new Variant("only the space", valid.toByteArray(), key));
        for (String s : HOSTILE_SPACES) {
            if (type.findFieldByName("space") != null) {
                out.add(new Variant("space " + abbreviate(s), withSpace(m, s).toByteArray(), key));
            }
        }
        for (String s : HOSTILE_STRINGS) {
            out.add(new Variant(
                    "strings " + abbreviate(s), fill(valid, f -> strings(f, s)).toByteArray(), key));
        }
        out.add(new Variant(
                "oversized strings",
                fill(valid, f -> strings(f, "z".repeat(OVERSIZED / 8))).toByteArray(),
                key));
        out.add(new Variant(
                "numbers at their minimum", fill(valid, f -> number(f, true)).toByteArray(), key));
        out.add(new Variant(
                "numbers at their maximum", fill(valid, f -> number(f, false)).toByteArray(), key));
        out.add(new Variant(
                "every field set", fill(valid, GrpcFuzzContract::plausible).toByteArray(), key));
        out.add(new Variant("oversized repeated fields", repeated(valid, 1_000).toByteArray(), key));
        out.add(new Variant(
                "unknown fields",
                valid.toBuilder()
                        .setUnknownFields(UnknownFieldSet.newBuilder()
                                .addField(
                                        9_999,
                                        UnknownFieldSet.Field.newBuilder()
                                                .addVarint(7)
                                                .build())
                                .addField(
                                        10_000,
                                        UnknownFieldSet.Field.newBuilder()
                                                .addLengthDelimited(ByteString.copyFromUtf8("unexpected"))
                                                .build())
                                .build())
                        .build()
                        .toByteArray(),
                key));
        out.add(new Variant("fields with the wrong wire type", wrongWireTypes(valid), key));
        out.add(new Variant("a string that is not UTF-8", invalidUtf8(valid), key));
        byte[] full = fill(valid, GrpcFuzzContract::plausible).toByteArray();
        if (full.length > 2) {
            out.add(new Variant("truncated", Arrays.copyOf(full, full.length - 1), key));
        }
        out.add(new Variant("a length past the end", concat(valid.toByteArray(), new byte[] {0x0a, 0x7f, 0x61}), key));
        out.add(new Variant("an invalid wire type", concat(valid.toByteArray(), new byte[] {0x0f, 0x01}), key));
        out.add(new Variant(
                "an endless varint",
                concat(valid.toByteArray(), new byte[] {
                    0x08,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    (byte) 0xff,
                    0x01
                }),
                key));
        out.add(new Variant("the wrong role", valid.toByteArray(), key.equals(agent) ? admin : agent));
        return out;
    }

    /** A string field (not repeated) set to the value; others unchanged. */
    private static Object strings(FieldDescriptor f, String value) {
        if (f.isRepeated()
                || f.getJavaType() != FieldDescriptor.JavaType.STRING
                || f.getName().equals("space")) {
            return null;
        }
        return value;
    }

    private static Object number(FieldDescriptor f, boolean min) {
        if (f.isRepeated()) {
            return null;
        }
        return switch (f.getJavaType()) {
            case INT -> min ? Integer.MIN_VALUE : Integer.MAX_VALUE;
            case LONG -> min ? Long.MIN_VALUE : Long.MAX_VALUE;
            case DOUBLE -> min ? Double.NEGATIVE_INFINITY : Double.NaN;
            case FLOAT -> min ? Float.NEGATIVE_INFINITY : Float.NaN;
            default -> null;
        };
    }

    /** A value of the right type that looks like one a client would send. */
    private static Object plausible(FieldDescriptor f) {
        if (f.isRepeated() || f.getName().equals("space")) {
            return null;
        }
        return switch (f.getJavaType()) {
            case STRING -> "fuzz value";
            case INT -> 1;
            case LONG -> 1L;
            case DOUBLE -> 0.5d;
            case FLOAT -> 0.5f;
            case BOOLEAN -> true;
            case MESSAGE -> DynamicMessage.getDefaultInstance(f.getMessageType());
            default -> null;
        };
    }

    private static DynamicMessage fill(DynamicMessage base, Function<FieldDescriptor, Object> value) {
        DynamicMessage.Builder b = base.toBuilder();
        for (FieldDescriptor f : base.getDescriptorForType().getFields()) {
            Object v = value.apply(f);
            if (v != null) {
                b.setField(f, v);
            }
        }
        return b.build();
    }

    private static DynamicMessage repeated(DynamicMessage base, int n) {
        DynamicMessage.Builder b = base.toBuilder();
        for (FieldDescriptor f : base.getDescriptorForType().getFields()) {
            if (!f.isRepeated() || f.isMapField()) {
                continue;
            }
            for (int i = 0; i < n; i++) {
                switch (f.getJavaType()) {
                    case STRING -> b.addRepeatedField(f, "item-" + i);
                    case INT -> b.addRepeatedField(f, i);
                    case LONG -> b.addRepeatedField(f, (long) i);
                    case DOUBLE -> b.addRepeatedField(f, (double) i);
                    case FLOAT -> b.addRepeatedField(f, (float) i);
                    case BOOLEAN -> b.addRepeatedField(f, true);
                    case MESSAGE -> b.addRepeatedField(f, DynamicMessage.getDefaultInstance(f.getMessageType()));
                    default -> {}
                }
            }
        }
        return b.build();
    }

    /** Every declared field once more with a wire type it does not have (parsers keep these as unknown fields). */
    private static byte[] wrongWireTypes(DynamicMessage base) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            for (FieldDescriptor f : base.getDescriptorForType().getFields()) {
                boolean lengthDelimited = f.getJavaType() == FieldDescriptor.JavaType.STRING
                        || f.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                        || f.getJavaType() == FieldDescriptor.JavaType.BYTE_STRING;
                if (lengthDelimited) {
                    out.writeFixed32(f.getNumber(), 42);
                } else {
                    out.writeString(f.getNumber(), "not a number");
                }
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return concat(base.toByteArray(), bytes.toByteArray());
    }

    /** The first string field (space if there is one) with bytes that are not UTF-8, which proto3 refuses to parse. */
    private static byte[] invalidUtf8(DynamicMessage base) {
        FieldDescriptor f = base.getDescriptorForType().getFields().stream()
                .filter(x -> x.getJavaType() == FieldDescriptor.JavaType.STRING)
                .findFirst()
                .orElse(null);
        if (f == null) {
            return base.toByteArray();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.writeBytes(f.getNumber(), ByteString.copyFrom(new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xff}));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return concat(base.toByteArray(), bytes.toByteArray());
    }

    // ---------------------------------------------------------------- calls and their judgement

    /** How a call ended: its status, its {@code error-code} trailer and the messages it answered. */
    protected record Outcome(Status status, String code, int messages) {
        @Override
        public String toString() {
            return status.getCode() + " " + code + " \"" + abbreviate(status.getDescription()) + "\" after " + messages
                    + " messages";
        }
    }

    /**
     * Calls a method with raw request bytes, its deadline {@value #DEADLINE_SECONDS} s. {@code cutAfterMillis} 0 waits
     * for the end; above 0 it is the call's deadline instead; -1 cancels the call once it has started.
     */
    private Outcome call(
            MethodDescriptor<byte[], byte[]> m, byte[] request, String authorization, long cutAfterMillis) {
        calls.incrementAndGet();
        CallOptions options = cutAfterMillis > 0
                ? CallOptions.DEFAULT.withDeadlineAfter(cutAfterMillis, TimeUnit.MILLISECONDS)
                : CallOptions.DEFAULT.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
        ClientCall<byte[], byte[]> call = channel.newCall(m, options);
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        AtomicInteger messages = new AtomicInteger();
        Metadata headers = new Metadata();
        if (authorization != null) {
            headers.put(AUTHORIZATION, authorization);
        }
        call.start(
                new ClientCall.Listener<>() {
                    @Override
                    public void onMessage(byte[] message) {
                        messages.incrementAndGet();
                        call.request(1);
                    }

                    @Override
                    public void onClose(Status status, Metadata trailers) {
                        done.complete(new Outcome(status, trailers.get(GrpcErrors.ERROR_CODE), messages.get()));
                    }
                },
                headers);
        call.request(1);
        call.sendMessage(request);
        call.halfClose();
        if (cutAfterMillis < 0) {
            call.cancel("the fuzzer cancels", null);
        }
        try {
            return done.get(DEADLINE_SECONDS + 5, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            call.cancel("no answer within the deadline", null);
            return new Outcome(
                    Status.DEADLINE_EXCEEDED.withDescription("the call hung past its deadline"), null, messages.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** A violation of the error table by one call, if any. */
    private static java.util.Optional<String> check(
            MethodDescriptor<byte[], byte[]> m, String variant, Outcome o, boolean streamCut) {
        Status.Code status = o.status().getCode();
        String where = m.getBareMethodName() + " / " + variant + ": " + o;
        if (status == Status.Code.OK) {
            return java.util.Optional.empty();
        }
        if (status == Status.Code.INTERNAL || status == Status.Code.UNKNOWN) {
            return java.util.Optional.of(where + " (never INTERNAL or UNKNOWN)");
        }
        if (status == Status.Code.DEADLINE_EXCEEDED) { // a live stream cut by the fuzzer's own deadline is fine
            return streamCut ? java.util.Optional.empty() : java.util.Optional.of(where + " (hung)");
        }
        if (o.code() == null) {
            return java.util.Optional.of(where + " (no error-code trailer)");
        }
        if (GrpcErrors.statusOf(o.code()) != status) {
            return java.util.Optional.of(where + " (the table says " + GrpcErrors.statusOf(o.code()) + ")");
        }
        HttpStatus rest = ErrorCodes.statusOf(o.code());
        if (rest.getCode() >= 500 && !ALLOWED_5XX.contains(o.code())) {
            return java.util.Optional.of(where + " (REST would answer " + rest.getCode() + ")");
        }
        String description =
                o.status().getDescription() == null ? "" : o.status().getDescription();
        if (LEAK.matcher(description).find()) {
            return java.util.Optional.of(where + " (a Java exception leaks into the description)");
        }
        return java.util.Optional.empty();
    }

    /** A Java exception or stack frame in a description. */
    private static final java.util.regex.Pattern LEAK =
            java.util.regex.Pattern.compile("\\b[A-Z]\\w{0,60}Exception\\b|\\bat [a-z]+\\.[a-z]+\\.|java\\.lang\\.");

    /** A feature this application runs without (REST 501). */
    private static final Set<String> ALLOWED_5XX = Set.of(ErrorCodes.NOT_AVAILABLE);

    private Status.Code whoAmI() {
        MethodDescriptor<byte[], byte[]> who = method("WhoAmI");
        return call(who, WhoAmIRequest.getDefaultInstance().toByteArray(), agent, 0)
                .status()
                .getCode();
    }

    // ---------------------------------------------------------------- descriptors

    /** Every method of the service, as raw bytes in and out. */
    private static List<MethodDescriptor<byte[], byte[]>> methods() {
        return MemoryServiceGrpc.getServiceDescriptor().getMethods().stream()
                .map(m -> m.toBuilder(RawBytes.MARSHALLER, RawBytes.MARSHALLER).build())
                .sorted(java.util.Comparator.comparing(MethodDescriptor::getFullMethodName))
                .toList();
    }

    private static MethodDescriptor<byte[], byte[]> method(String name) {
        return methods().stream()
                .filter(m -> m.getBareMethodName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static Descriptors.Descriptor inputType(MethodDescriptor<?, ?> m) {
        return ((ProtoMethodDescriptorSupplier) m.getSchemaDescriptor())
                .getMethodDescriptor()
                .getInputType();
    }

    private static FieldDescriptor field(MethodDescriptor<?, ?> m, String name) {
        return inputType(m).findFieldByName(name);
    }

    private static DynamicMessage withSpace(MethodDescriptor<?, ?> m, String space) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(inputType(m));
        FieldDescriptor f = inputType(m).findFieldByName("space");
        if (f != null && f.getJavaType() == FieldDescriptor.JavaType.STRING && !f.isRepeated()) {
            b.setField(f, space);
        }
        return b.build();
    }

    /** The key of the role the method is for: admins for key management, agents for the rest. */
    private String keyFor(MethodDescriptor<?, ?> m) {
        AccessRules.Scope scope =
                Operation.ofGrpc(m.getBareMethodName()).map(Operation::scope).orElse(AccessRules.Scope.CONTENT);
        return scope == AccessRules.Scope.KEYS ? admin : agent;
    }

    private String key(Role role, String name) {
        Principal principal = new Principal(
                role.name().toLowerCase() + "-" + name + "-"
                        + UUID.randomUUID().toString().substring(0, 8),
                role,
                name,
                List.of("*"));
        return "Bearer " + apiKeys().issue(principal, "fuzz").key();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "(none)";
        }
        String printable = s.replaceAll("\\p{Cntrl}", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "...(" + s.length() + " chars)" : printable;
    }
}
