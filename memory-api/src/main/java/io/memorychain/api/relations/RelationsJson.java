package io.memorychain.api.relations;

import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/** The relation edges of one memory, outgoing then incoming. */
@Serdeable
public record RelationsJson(String id, List<RelationJson> relations) {}
