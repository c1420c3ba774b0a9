package io.memorychain.api.grpc;

/**
 * One feature's methods of {@code memorychain.v1.MemoryService} (memories, blocks and retrieval, the chain, grants,
 * ...), as REST has one controller per feature. {@link MemoryGrpcService} binds every feature into the one service; a
 * method no feature binds stops the service from starting.
 */
interface GrpcFeature {

    void bind(GrpcMethods methods);
}
