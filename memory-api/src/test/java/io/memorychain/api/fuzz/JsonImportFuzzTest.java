package io.memorychain.api.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.export.SpaceExport;
import io.memorychain.api.export.SpaceTransfer;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.request.InputRules;

/**
 * A JSON import document (POST /import, gRPC ImportSpace) up to the writes: decoded with the service's strict JSON,
 * checked as {@link SpaceTransfer#importInto} checks it, and each memory mapped to its creation request. Every document
 * is accepted or refused as a 400 (unreadable JSON or an {@link ApiException}); nothing else escapes.
 */
class JsonImportFuzzTest {

    private static final MemoryRequests REQUESTS = new MemoryRequests(new InputRules(2_000, 10));

    @FuzzTest(maxDuration = "2m")
    void importDocument(byte[] data) {
        SpaceExport export = FuzzJson.read(FuzzJson.text(data), SpaceExport.class);
        if (export == null) {
            return;
        }
        try {
            SpaceTransfer.check(export);
            if (export.memories() != null) {
                for (MemoryJson m : export.memories()) {
                    REQUESTS.create(SpaceTransfer.body(m));
                }
            }
        } catch (ApiException refused) {
            // a 400 naming the problem
        }
    }
}
