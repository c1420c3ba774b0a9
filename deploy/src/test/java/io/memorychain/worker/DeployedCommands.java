package io.memorychain.worker;

import java.util.List;
import java.util.Map;

/**
 * The command lines the deployment files give {@code memory-worker}, checked by its own parsers (this class lives in
 * memory-worker's package to reach them): a typo in an option of a manifest fails the build, not the rollout.
 */
public final class DeployedCommands {

    private DeployedCommands() {}

    /**
     * Parses {@code args} (the command and its options, as after {@code memory-worker}) as memory-worker would.
     *
     * @throws IllegalArgumentException naming the command and the parser's message when it refuses them
     */
    public static void parse(List<String> args) {
        List<String> rest = args.subList(1, args.size());
        Map<String, String> environment = Map.of();
        try {
            switch (args.get(0)) {
                case "tom" -> TomCommand.parse(rest, environment);
                case "consolidate" -> ConsolidateCommand.parse(rest, environment);
                case "reflect" -> ReflectCommand.parse(rest, environment);
                case "lifecycle" -> LifecycleCommand.parse(rest);
                case "link" -> LinkCommand.parse(rest);
                case "refine" -> RefineCommand.parse(rest);
                case "keygen" -> KeygenCommand.parse(rest);
                default -> throw new IllegalArgumentException("not a memory-worker job or keygen: " + args.get(0));
            }
        } catch (UsageException e) {
            throw new IllegalArgumentException(
                    "memory-worker " + args.get(0) + " refuses " + rest + ": " + e.getMessage(), e);
        }
    }
}
