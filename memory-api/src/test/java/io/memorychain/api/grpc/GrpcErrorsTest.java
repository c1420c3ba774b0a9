package io.memorychain.api.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.memorychain.api.auth.KeyStoreUnavailableException;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrpcErrorsTest {

    @Test
    void mapsEveryApiCodeToItsDocumentedStatus() {
        assertThat(GrpcErrors.statusOf(ErrorCodes.UNAUTHENTICATED)).isEqualTo(Status.Code.UNAUTHENTICATED);
        for (String code : List.of(
                ErrorCodes.SPACE_NOT_ALLOWED,
                ErrorCodes.ROLE_NOT_ALLOWED,
                ErrorCodes.CATEGORY_NOT_ALLOWED,
                ErrorCodes.CONSTITUTIONAL,
                ErrorCodes.FORBIDDEN,
                ErrorCodes.NOT_IN_REFINEMENT)) {
            assertThat(GrpcErrors.statusOf(code)).as(code).isEqualTo(Status.Code.PERMISSION_DENIED);
        }
        for (String code : List.of(
                ErrorCodes.INVALID_ARGUMENT,
                ErrorCodes.UNKNOWN_BLOCK_LABEL,
                ErrorCodes.INVALID_PATH,
                ErrorCodes.TOO_LARGE)) {
            assertThat(GrpcErrors.statusOf(code)).as(code).isEqualTo(Status.Code.INVALID_ARGUMENT);
        }
        assertThat(GrpcErrors.statusOf(ErrorCodes.NOT_FOUND)).isEqualTo(Status.Code.NOT_FOUND);
        assertThat(GrpcErrors.statusOf(ErrorCodes.VERSION_CONFLICT)).isEqualTo(Status.Code.ABORTED);
        assertThat(GrpcErrors.statusOf(ErrorCodes.PATCH_CONFLICT)).isEqualTo(Status.Code.ABORTED);
        assertThat(GrpcErrors.statusOf(ErrorCodes.INVALID_STATE)).isEqualTo(Status.Code.FAILED_PRECONDITION);
        assertThat(GrpcErrors.statusOf(ErrorCodes.ALREADY_LINKED)).isEqualTo(Status.Code.ALREADY_EXISTS);
        assertThat(GrpcErrors.statusOf(ErrorCodes.TIMEOUT)).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(GrpcErrors.statusOf(ErrorCodes.UNAVAILABLE)).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(GrpcErrors.statusOf(ErrorCodes.INTERNAL)).isEqualTo(Status.Code.INTERNAL);
    }

    @Test
    void everyCodeOfTheRestApiHasAnExplicitStatusAndUnknownRejectionsAreFailedPreconditions()
            throws IllegalAccessException {
        for (Field f : ErrorCodes.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                assertThat(GrpcErrors.isMapped((String) f.get(null)))
                        .as(f.getName())
                        .isTrue();
            }
        }
        assertThat(GrpcErrors.statusOf("SOME_FUTURE_RULE")).isEqualTo(Status.Code.FAILED_PRECONDITION);
        assertThat(GrpcErrors.of(new ApiException("SOME_FUTURE_RULE", "new rule"))
                        .getTrailers()
                        .get(GrpcErrors.ERROR_CODE))
                .isEqualTo("SOME_FUTURE_RULE");
    }

    @Test
    void carriesTheCodeAndRequestIdInTrailersAndTheCodeFirstInTheDescription() {
        StatusRuntimeException e =
                GrpcErrors.of(new ApiException(ErrorCodes.VERSION_CONFLICT, "memory m1 is at version 3", "req-7"));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.ABORTED);
        assertThat(e.getStatus().getDescription()).isEqualTo("VERSION_CONFLICT: memory m1 is at version 3");
        assertThat(e.getTrailers().get(GrpcErrors.ERROR_CODE)).isEqualTo("VERSION_CONFLICT");
        assertThat(e.getTrailers().get(GrpcErrors.REQUEST_ID)).isEqualTo("req-7");
        assertThat(GrpcErrors.of(ApiException.notFound("no memory x"))
                        .getTrailers()
                        .get(GrpcErrors.REQUEST_ID))
                .isNull();
    }

    @Test
    void unexpectedFailuresAreInternalWithoutAnyDetailAndAKeyStoreOutageIsUnavailable() {
        StatusRuntimeException e =
                GrpcErrors.of(new IllegalStateException("secret internals at io.memorychain.X"), "m");
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
        assertThat(e.getStatus().getDescription()).isEqualTo("INTERNAL: Internal error; see the server log");
        assertThat(e.getStatus().getCause()).isNull();
        StatusRuntimeException keys = GrpcErrors.of(new KeyStoreUnavailableException("store closed", null), "m");
        assertThat(keys.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(keys.getTrailers().get(GrpcErrors.ERROR_CODE)).isEqualTo("UNAVAILABLE");
    }
}
