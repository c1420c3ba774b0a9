package io.memorychain.api.relations;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.avro.view.Relation;
import io.micronaut.serde.annotation.Serdeable;

/** One relation edge. */
@Serdeable
public record RelationJson(
        @JsonProperty("from_id") String fromId,
        @JsonProperty("to_id") String toId,
        String type,
        double strength,
        long seq) {

    static RelationJson of(Relation r) {
        return new RelationJson(r.getFromId(), r.getToId(), r.getRelationType(), r.getStrength(), r.getSeq());
    }
}
