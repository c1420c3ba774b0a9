package io.memorychain.api.grpc;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import io.memorychain.api.auth.AccessRules;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.quota.Quotas;
import io.memorychain.api.routing.GrpcRouting;
import io.memorychain.api.routing.OwnerGuard;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.Set;

/**
 * Authentication and the role/space rules on gRPC, as {@code AuthFilter} does for REST: the metadata
 * {@code authorization: Bearer <key>} is checked with {@link ApiKeys#authenticate} before the call starts (else
 * UNAUTHENTICATED); the request message's {@code space} field is checked with {@link AccessRules} before the method
 * sees it (else PERMISSION_DENIED with SPACE_NOT_ALLOWED or ROLE_NOT_ALLOWED). The caller's {@link Principal} is then
 * available to the service as {@link #PRINCIPAL} (its actor is the actor of the events a call produces). A call about a
 * space another instance owns is then relayed to that owner once ({@link GrpcRouting}, {@link OwnerProxy},
 * docs/architecture.md §19) instead of reaching the local method.
 *
 * <p>Every service is guarded except the standard health and reflection services (fail closed: a service added later is
 * authenticated without anyone remembering to). Each method's scope comes from the {@link Operation} catalogue; a
 * method missing there is content, so an admin key can call nothing else by accident.
 */
@Singleton
class GrpcAuthInterceptor implements ServerInterceptor {

    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    /** The authenticated caller of the current call. */
    public static final Context.Key<Principal> PRINCIPAL = Context.key("memorychain.principal");
    /** The current call's {@code authorization} value (long streams re-check it: a revoked key ends them). */
    static final Context.Key<String> CREDENTIALS = Context.key("memorychain.credentials");

    private static final Set<String> OPEN_SERVICES = Set.of(
            "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection");

    private static final Metadata.Key<String> FORWARDED_BY =
            Metadata.Key.of(GrpcRouting.FORWARDED_BY, Metadata.ASCII_STRING_MARSHALLER);

    private final ApiKeys keys;
    private final Quotas quotas;
    private final OwnerGuard owners;
    private final GrpcRouting routing;
    private final String instanceId;

    public GrpcAuthInterceptor(
            ApiKeys keys, Quotas quotas, OwnerGuard owners, GrpcRouting routing, MemoryConfig config) {
        this.keys = keys;
        this.quotas = quotas;
        this.owners = owners;
        this.routing = routing;
        this.instanceId = config.instanceName();
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String method = call.getMethodDescriptor().getFullMethodName();
        if (OPEN_SERVICES.contains(call.getMethodDescriptor().getServiceName())) {
            return next.startCall(call, headers);
        }
        Operation operation =
                Operation.ofGrpc(call.getMethodDescriptor().getBareMethodName()).orElse(null);
        Principal caller;
        try {
            caller = keys.authenticate(headers.get(AUTHORIZATION));
            quotas.charge(caller, operation);
        } catch (RuntimeException e) {
            close(call, GrpcErrors.of(e, method));
            return new ServerCall.Listener<>() {};
        }
        AccessRules.Scope scope = operation == null ? AccessRules.Scope.CONTENT : operation.scope(); // unknown: content
        ServerCall.Listener<Q> delegate = Contexts.interceptCall(
                Context.current().withValues(PRINCIPAL, caller, CREDENTIALS, headers.get(AUTHORIZATION)),
                call,
                headers,
                next);
        return new SimpleForwardingServerCallListener<>(delegate) {
            private boolean refused;
            /** Set when the call is relayed to the space's owner: the local method never sees it. */
            private OwnerProxy<Q, R> proxy;

            @Override
            public void onMessage(Q message) {
                if (refused) {
                    return;
                }
                if (message == null) { // bytes that are no request: MalformedRequests answers INVALID_ARGUMENT
                    super.onMessage(null);
                    return;
                }
                if (proxy != null) {
                    proxy.message(message);
                    return;
                }
                try {
                    String space = space(message);
                    AccessRules.authorize(caller, scope, space, method);
                    if (space != null && !space.isEmpty()) {
                        // another instance owns the space: relayed there once (docs/architecture.md §19)
                        Optional<GrpcRouting.Target> owner = routing.ownerOf(space, headers.get(FORWARDED_BY));
                        if (owner.isPresent()) {
                            proxy = OwnerProxy.start(call, headers, routing, owner.get(), instanceId);
                            proxy.message(message);
                            return;
                        }
                        owners.requireServedHere(space);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    refused = true;
                    close(call, GrpcErrors.of(e, method));
                    return;
                } catch (RuntimeException e) {
                    refused = true;
                    close(call, GrpcErrors.of(e, method));
                    return;
                }
                super.onMessage(message);
            }

            @Override
            public void onHalfClose() {
                if (proxy != null) {
                    proxy.halfClose();
                } else if (!refused) {
                    super.onHalfClose();
                }
            }

            @Override
            public void onCancel() {
                if (proxy != null) {
                    proxy.cancel();
                }
                super.onCancel();
            }

            @Override
            public void onReady() {
                if (!refused && proxy == null) {
                    super.onReady();
                }
            }
        };
    }

    /** The request's {@code space} field (every MemoryService request about a space has one), or null. */
    static String space(Object message) {
        if (message instanceof Message m) {
            FieldDescriptor field = m.getDescriptorForType().findFieldByName("space");
            if (field != null && field.getJavaType() == FieldDescriptor.JavaType.STRING && !field.isRepeated()) {
                return (String) m.getField(field);
            }
        }
        return null;
    }

    private static void close(ServerCall<?, ?> call, StatusRuntimeException e) {
        call.close(e.getStatus(), e.getTrailers() == null ? new Metadata() : e.getTrailers());
    }
}
