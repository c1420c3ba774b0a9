package io.memorychain.domain.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.domain.messages.TriggerDetector.Detection;
import io.memorychain.domain.messages.TriggerDetector.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TriggerDetectorTest {

    @Test
    void rememberThatGivesTheTextAfterThePhrase() {
        Detection d = TriggerDetector.detect("remember that my sister lives in Porto");
        assertThat(d.trigger()).isEqualTo(Trigger.REMEMBER);
        assertThat(d.text()).isEqualTo("my sister lives in Porto");
        assertThat(d.phrase()).isEqualTo("remember that");
    }

    /** Seed 001 §8.1, each phrase as a user would write it. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Remember that I prefer window seats.|REMEMBER|I prefer window seats.",
                "Don't forget my dentist appointment is on Friday|REMEMBER|my dentist appointment is on Friday",
                "Keep in mind that Ana is vegetarian|REMEMBER|Ana is vegetarian",
                "Note that the deploy window is Tuesdays|REMEMBER|the deploy window is Tuesdays",
                "Important: the API key rotates monthly|REMEMBER|the API key rotates monthly",
                "For future reference, the wifi password is in the drawer|REMEMBER|the wifi password is in the drawer",
                "Save this: the staging URL is staging.example.com|REMEMBER|the staging URL is staging.example.com",
                "FYI for later, Bob moved to Berlin|REMEMBER|Bob moved to Berlin",
                "OK, please remember my birthday is 3 May|REMEMBER|my birthday is 3 May",
                "I moved last week. Remember that my new street is Rua Augusta.|REMEMBER|my new street is Rua Augusta.",
                "Forget about my old job at Globex|FORGET|my old job at Globex",
                "Never mind about the trip to Rome.|FORGET|the trip to Rome",
                "Disregard what I said about the budget|FORGET|the budget",
                "The old office address, that's no longer relevant|FORGET|The old office address",
                "My cat is called Tom. Scratch that.|FORGET|My cat is called Tom",
                "Ignore what I said about moving to Lisbon|FORGET|moving to Lisbon",
                "Remove from memory my phone number|FORGET|my phone number",
                "Delete the memory about my ex|FORGET|my ex",
                "Reflect on our last few conversations|REFLECT|our last few conversations",
                "Please consolidate your memories|REFLECT|''",
                "Review your memories about work|REFLECT|about work",
                "Clean up your memory|REFLECT|''",
                "What do you remember about my sister?|RECALL|my sister",
                "hey, what do you know about Project Atlas?|RECALL|Project Atlas",
                "REMEMBER THAT THE BOILER IS SERVICED IN MAY|REMEMBER|THE BOILER IS SERVICED IN MAY"
            })
    void detectsTheSeedsPhrases(String message, Trigger trigger, String text) {
        Detection d = TriggerDetector.detect(message);
        assertThat(d.trigger()).as(message).isEqualTo(trigger);
        assertThat(d.text()).as(message).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "I don't remember the name",
                "forget it, let's eat",
                "Do you remember me?",
                "I always forget about lunch when I'm busy",
                "Can you note the time?",
                "This is important for the launch",
                "I need to reflect a bit more",
                "Let me review your draft",
                "They never mind the noise",
                "I keep forgetting my keys",
                "Remember when we went to Rome?",
                "what should I remember to pack?",
                "I'll save this for later",
                "",
                "   "
            })
    void firesNothingOnLookAlikes(String message) {
        assertThat(TriggerDetector.detect(message)).as(message).isEqualTo(Detection.NONE);
    }

    @Test
    void theFirstPhraseWinsAndDontForgetIsNotAForget() {
        assertThat(TriggerDetector.detect("Don't forget that Ana's flight lands at 9. Forget about the taxi.")
                        .trigger())
                .isEqualTo(Trigger.REMEMBER);
        assertThat(TriggerDetector.detect("Forget about the taxi. Remember that Ana lands at 9.")
                        .trigger())
                .isEqualTo(Trigger.FORGET);
    }

    @Test
    void isDeterministic() {
        String m = "btw, remember that   the   gate code is 4821";
        assertThat(TriggerDetector.detect(m)).isEqualTo(TriggerDetector.detect(m));
        assertThat(TriggerDetector.detect(m).text()).isEqualTo("the gate code is 4821");
    }
}
