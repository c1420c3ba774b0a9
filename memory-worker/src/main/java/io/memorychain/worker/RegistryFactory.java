package io.memorychain.worker;

import io.memorychain.events.registry.SchemaRegistry;

/** Opens the schema registry a command reads writer schemas from (a seam so tests can supply their own). */
@FunctionalInterface
interface RegistryFactory {

    /** The registry at {@code spec}; the caller closes it. */
    SchemaRegistry open(RegistrySpec spec);
}
