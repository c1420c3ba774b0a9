package io.memorychain.projector.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DateExpressionsTest {

    /** A Monday. */
    private static final LocalDate MONDAY_8_MAY_2023 = LocalDate.of(2023, 5, 8);

    private static List<DateSpan> spans(String text) {
        return DateExpressions.spans(text, MONDAY_8_MAY_2023);
    }

    private static DateSpan span(String first, String last) {
        return new DateSpan(LocalDate.parse(first), LocalDate.parse(last));
    }

    @ParameterizedTest(name = "{0} -> {1}..{2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "We met on 2023-05-07.                 | 2023-05-07 | 2023-05-07",
                "We met on 7 May 2023.                 | 2023-05-07 | 2023-05-07",
                "We met on the 7th of May, 2023.       | 2023-05-07 | 2023-05-07",
                "We met on May 7, 2023.                | 2023-05-07 | 2023-05-07",
                "We met on May 7th 2023.               | 2023-05-07 | 2023-05-07",
                "We met on Aug 3, 2022.                | 2022-08-03 | 2022-08-03",
                "We met on 3 Sept 2022.                | 2022-09-03 | 2022-09-03",
                "We met on 7 May.                      | 2023-05-07 | 2023-05-07",
                "We met on March 3.                    | 2023-03-03 | 2023-03-03",
                "It opened in May 2023.                | 2023-05-01 | 2023-05-31",
                "It opened in February, 2024.          | 2024-02-01 | 2024-02-29",
                "It opened in May.                     | 2023-05-01 | 2023-05-31",
                "It opened in early March.             | 2023-03-01 | 2023-03-31",
                "It opened mid-July.                   | 2023-07-01 | 2023-07-31",
                "It opened last May.                   | 2022-05-01 | 2022-05-31",
                "It opened last April.                 | 2023-04-01 | 2023-04-30",
                "It opens next May.                    | 2024-05-01 | 2024-05-31",
                "It opened in 2022.                    | 2022-01-01 | 2022-12-31",
                "We travelled in the summer of 2021.   | 2021-06-01 | 2021-08-31",
                "We travelled last summer.             | 2022-06-01 | 2022-08-31",
                "We travel this summer.                | 2023-06-01 | 2023-08-31",
                "I went yesterday.                     | 2023-05-07 | 2023-05-07",
                "I went there last night.              | 2023-05-07 | 2023-05-07",
                "I went the day before yesterday.      | 2023-05-06 | 2023-05-06",
                "I go today.                           | 2023-05-08 | 2023-05-08",
                "I go tonight.                         | 2023-05-08 | 2023-05-08",
                "I go tomorrow.                        | 2023-05-09 | 2023-05-09",
                "I went last week.                     | 2023-05-01 | 2023-05-07",
                "I go this week.                       | 2023-05-08 | 2023-05-14",
                "I go next week.                       | 2023-05-15 | 2023-05-21",
                "I went last month.                    | 2023-04-01 | 2023-04-30",
                "I go next month.                      | 2023-06-01 | 2023-06-30",
                "I went last year.                     | 2022-01-01 | 2022-12-31",
                "I went in the past week.              | 2023-05-01 | 2023-05-07",
                "I went last Saturday.                 | 2023-05-06 | 2023-05-06",
                "I went last Monday.                   | 2023-05-01 | 2023-05-01",
                "I go next Friday.                     | 2023-05-12 | 2023-05-12",
                "I go this Friday.                     | 2023-05-12 | 2023-05-12",
                "I go this weekend.                    | 2023-05-13 | 2023-05-14",
                "I went last weekend.                  | 2023-05-06 | 2023-05-07",
                "I go next weekend.                    | 2023-05-20 | 2023-05-21",
                "I went two weeks ago.                 | 2023-04-21 | 2023-04-27",
                "I went 3 days ago.                    | 2023-05-05 | 2023-05-05",
                "I went a week ago.                    | 2023-04-28 | 2023-05-04",
                "I went a few days ago.                | 2023-05-03 | 2023-05-06",
                "I went a couple of days ago.          | 2023-05-06 | 2023-05-06",
                "I went two months ago.                | 2023-03-01 | 2023-03-31",
                "I went ten years ago.                 | 2013-01-01 | 2013-12-31",
                "I go in three days.                   | 2023-05-11 | 2023-05-11",
                "It failed in the last three days.     | 2023-05-05 | 2023-05-08",
                "Runs of the past 2 weeks.             | 2023-04-24 | 2023-05-08",
                "Merged two to three weeks ago.        | 2023-04-14 | 2023-04-27",
                "Ran between one and two months ago.   | 2023-03-01 | 2023-04-30",
            })
    void resolvesEachExpression(String text, String first, String last) {
        assertThat(spans(text)).containsExactly(span(first, last));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "May I ask you something?",
                "may I ask you something?",
                "You may want to rest.",
                "We will march on regardless.",
                "March on, my friends!",
                "The band will march in the parade.",
                "I may 2 or 3 times a day say so.",
                "She has 2000 followers and 2023 likes.",
                "I ran 5 km on Saturday.",
                "We had a great day and a long week.",
                "Give me a second.",
                "Call me at 555-2023.",
                "august company, an august occasion",
                "The dec value and the jan variable.",
                "Room 12 may be free.",
                "I hope it lasts a year.",
                "It was 31 February 2023, or so he said.",
            })
    void ordinaryWordsAreNoDates(String text) {
        assertThat(DateExpressions.find(text, MONDAY_8_MAY_2023)).isEmpty();
    }

    @Test
    void findsEveryExpressionInOrderWithItsPlaceAndKind() {
        List<DateMention> found = DateExpressions.find(
                "Yesterday I booked a trip for May 20, 2023; we also went there last summer.", MONDAY_8_MAY_2023);

        assertThat(found).extracting(DateMention::text).containsExactly("Yesterday", "May 20, 2023", "last summer");
        assertThat(found).extracting(DateMention::relative).containsExactly(true, false, true);
        assertThat(found.get(1).start()).isEqualTo(30);
        assertThat(found.get(1).span()).isEqualTo(DateSpan.day(LocalDate.of(2023, 5, 20)));
    }

    @Test
    void theLongestExpressionWinsWhereTwoOverlap() {
        assertThat(DateExpressions.find("on 7 May 2023", MONDAY_8_MAY_2023))
                .extracting(DateMention::text)
                .containsExactly("7 May 2023");
        assertThat(DateExpressions.find("the day before yesterday", MONDAY_8_MAY_2023))
                .hasSize(1);
    }

    @Test
    void relativeExpressionsFollowTheReferenceDate() {
        LocalDate sunday = LocalDate.of(2023, 5, 14);
        assertThat(DateExpressions.spans("this weekend", sunday)).containsExactly(span("2023-05-13", "2023-05-14"));
        assertThat(DateExpressions.spans("last weekend", sunday)).containsExactly(span("2023-05-06", "2023-05-07"));
        assertThat(DateExpressions.spans("last Sunday", sunday)).containsExactly(span("2023-05-07", "2023-05-07"));
        LocalDate newYear = LocalDate.of(2024, 1, 2);
        assertThat(DateExpressions.spans("yesterday", newYear)).containsExactly(span("2024-01-01", "2024-01-01"));
        assertThat(DateExpressions.spans("last month", newYear)).containsExactly(span("2023-12-01", "2023-12-31"));
        assertThat(DateExpressions.spans("last December", newYear)).containsExactly(span("2023-12-01", "2023-12-31"));
        assertThat(DateExpressions.spans("last winter", newYear)).containsExactly(span("2022-12-01", "2023-02-28"));
    }

    /**
     * The word prefilter only skips rules that cannot match: on thousands of texts mixing date expressions (every case,
     * spacing and form), look-alikes, non-ASCII letters and filler, every text has exactly the dates the rules find
     * when all of them run.
     */
    @Test
    void prefilterFindsExactlyWhatEveryRuleFinds() {
        String[] fragments = {
            "2023-05-07",
            "7 May 2023",
            "the 7th of May, 2023",
            "May 7, 2023",
            "MAY 7th 2023",
            "Aug 3, 2022",
            "3 Sept 2022",
            "7 May",
            "March 3",
            "in May 2023",
            "February, 2024",
            "in May",
            "in early March",
            "mid-July",
            "last May",
            "Last April",
            "next May",
            "in 2022",
            "the summer of 2021",
            "last summer",
            "This Summer",
            "yesterday",
            "YESTERDAY",
            "last  night",
            "the day before yesterday",
            "the day after tomorrow",
            "today",
            "Tonight",
            "this morning",
            "tomorrow",
            "last week",
            "this week",
            "next\tweek",
            "last month",
            "next month",
            "last year",
            "the past week",
            "past month",
            "last weekend",
            "this weekend",
            "last Saturday",
            "next friday",
            "this Sunday",
            "two weeks ago",
            "2 days ago",
            "a few months ago",
            "a couple of years ago",
            "several days ago",
            "two to three weeks ago",
            "between one and two months ago",
            "the last three days",
            "the past 3 weeks",
            "in three days",
            "in a week",
            "in 2 months",
            "31 February 2023",
            "2021-13-40",
            "may I",
            "march on",
            "Aug",
            "spring",
            "fall 2020",
            "winter of 1999",
            "since 1987",
            "around 2019",
            "year 2030",
            "İn May",
            "Ķ",
            "ſunday",
            "Kelvin",
            "\u00e9t\u00e9 2022",
            "last-week",
            "pre-2020",
            "20th",
            "19",
            "day",
            "ago",
            "in",
            "the",
            "Monday",
            "weekday",
            "mayday",
            "decade",
            "monthly",
            "yearly",
            "daily"
        };
        String[] filler = {
            "we",
            "met",
            "and",
            "then",
            "talked",
            "about",
            "the",
            "project",
            "on",
            ",",
            ".",
            "\n",
            "budget",
            "i",
            "went",
            "there",
            "#42",
            "x",
            "espresso",
            "Berlin"
        };
        Random random = new Random(20231108);
        int withDates = 0;
        for (int t = 0; t < 5_000; t++) {
            StringBuilder text = new StringBuilder();
            int words = 1 + random.nextInt(25);
            for (int w = 0; w < words; w++) {
                text.append(
                                random.nextInt(3) == 0
                                        ? fragments[random.nextInt(fragments.length)]
                                        : filler[random.nextInt(filler.length)])
                        .append(random.nextInt(8) == 0 ? "" : " ");
            }
            LocalDate reference = MONDAY_8_MAY_2023.plusDays(random.nextInt(800) - 400);
            List<DateMention> everyRule = DateExpressions.find(text.toString(), reference, false);
            assertThat(DateExpressions.find(text.toString(), reference, true))
                    .as(text.toString())
                    .isEqualTo(everyRule);
            withDates += everyRule.isEmpty() ? 0 : 1;
        }
        assertThat(withDates).as("texts with at least one date").isGreaterThan(2_000);
    }

    @Test
    void asciiLowerCaseChangesOnlyAsciiCapitals() {
        assertThat(DateExpressions.asciiLowerCase("Last MAY İn Ķ é 7TH")).isEqualTo("last may İn Ķ é 7th");
    }

    @Test
    void blankTextHasNoDates() {
        assertThat(DateExpressions.find("", MONDAY_8_MAY_2023)).isEmpty();
        assertThat(DateExpressions.find(null, MONDAY_8_MAY_2023)).isEmpty();
    }

    @Test
    void spansOverlapWhenTheyShareADay() {
        assertThat(span("2023-05-01", "2023-05-07").overlaps(span("2023-05-07", "2023-05-09")))
                .isTrue();
        assertThat(span("2023-05-01", "2023-05-07").overlaps(span("2023-05-08", "2023-05-09")))
                .isFalse();
        assertThat(span("2023-05-01", "2023-05-31").days()).isEqualTo(31);
    }
}
