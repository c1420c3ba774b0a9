package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.events.chain.SuspectRange;
import io.memorychain.events.chain.VerificationResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verify command's lines: the verdict, then the events of compromised keys as SUSPECT lines. */
class VerifyCommandTest {

    @Test
    void anIntactChainWithoutSuspectsIsOneLine() {
        assertThat(VerifyCommand.line("alice", VerificationResult.intact(25, "ok")))
                .isEqualTo("OK space=alice events=25");
    }

    @Test
    void eachSuspectRangeFollowsTheVerdictOnALineOfItsOwn() {
        VerificationResult result = VerificationResult.intact(9, "ok")
                .withSuspects(List.of(
                        new SuspectRange("83561b20a58314fc", 2, 3, 1, 6),
                        new SuspectRange("0123456789abcdef", 8, 9, 7, 9)));

        assertThat(VerifyCommand.line("alice", result).lines())
                .containsExactly(
                        "OK space=alice events=9",
                        "SUSPECT space=alice key=83561b20a58314fc seqs=2..3 trusted_up_to=1 marked_at=6",
                        "SUSPECT space=alice key=0123456789abcdef seqs=8..9 trusted_up_to=7 marked_at=9");
    }
}
