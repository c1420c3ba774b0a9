package io.memorychain.projector.search;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.YearMonth;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the date expressions of an English text and the days each means (docs/architecture.md §7, dates). Deterministic
 * and clock-free: relative expressions are resolved against the reference date the caller gives (a memory's
 * {@code created_at} day, or the time a query is asked about).
 *
 * <ul>
 *   <li>Absolute: "2023-05-07", "7 May 2023", "7th of May, 2023", "May 7, 2023", "May 7" and "7 May" (the reference's
 *       year), "May 2023", "in May" (the reference's year), "last May" / "next May", "in 2022", "summer 2022".
 *   <li>Relative: "today", "tonight", "yesterday", "last night", "the day before yesterday", "tomorrow", "last / this /
 *       next week, month, year, weekend", "the past week / month / year", "last / this / next Saturday", "two weeks
 *       ago" (digits, number words, "a", "a few", "a couple of", "several"), "two to three weeks ago", "the last three
 *       days", "in three days", "last / this / next summer".
 * </ul>
 *
 * <p>Weeks run Monday to Sunday; "N weeks ago" is the 7 days centred on the day N weeks back; "N months ago" and "N
 * years ago" are the whole calendar month or year. Words that are also month names count only where they can only be a
 * date: "May" and "March" need a capital and a day, a year or a preposition ("in May"), so "may I" and "March on" are
 * no dates; abbreviations ("Aug") need a day or a year. Bare weekdays ("on Saturday") and bare numbers are not
 * resolved: they could be past or future, a year or a count.
 */
public final class DateExpressions {

    private static final String MONTH_NAMES =
            "january|february|march|april|may|june|july|august|september|october|november|december";
    private static final String MONTH_ANY =
            "(?<month>" + MONTH_NAMES + "|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?";
    private static final String MONTH_FULL = "(?<month>" + MONTH_NAMES + ")";
    private static final String DAY = "(?<day>[0-3]?\\d)(?:st|nd|rd|th)?";
    private static final String YEAR = "(?<year>(?:19|20)\\d\\d)";
    private static final String WEEKDAY = "(?<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
    private static final String SEASON = "(?<season>spring|summer|autumn|fall|winter)";
    private static final String COUNT = "(?<count>\\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven"
            + "|twelve|a\\s+few|few|a\\s+couple\\s+of|a\\s+couple|couple\\s+of|several)";
    private static final String UNIT = "(?<unit>day|week|month|year)s?";

    private static final Map<String, Integer> NUMBERS = Map.ofEntries(
            Map.entry("a", 1),
            Map.entry("an", 1),
            Map.entry("one", 1),
            Map.entry("two", 2),
            Map.entry("three", 3),
            Map.entry("four", 4),
            Map.entry("five", 5),
            Map.entry("six", 6),
            Map.entry("seven", 7),
            Map.entry("eight", 8),
            Map.entry("nine", 9),
            Map.entry("ten", 10),
            Map.entry("eleven", 11),
            Map.entry("twelve", 12));

    /**
     * One kind of expression. {@code needs} is a cheap necessary condition on the text with its ASCII letters
     * lower-cased (words every match contains): a rule whose words are absent cannot match, and its regex is not run.
     * Scanning every text with all the case-insensitive patterns was half of the projection's CPU in a write-path
     * profile (docs/benchmarks.md, "Write path"); the patterns match ASCII case-insensitively only (no
     * {@code UNICODE_CASE}), so an ASCII lower-cased copy has every word a match has.
     */
    private record Rule(
            Pattern pattern,
            boolean relative,
            BiFunction<Matcher, LocalDate, DateSpan> resolve,
            Predicate<String> needs) {}

    private static Rule rule(
            Predicate<String> needs, String regex, boolean relative, BiFunction<Matcher, LocalDate, DateSpan> resolve) {
        return new Rule(
                Pattern.compile("(?<![\\w-])" + regex + "(?![\\w-])", Pattern.CASE_INSENSITIVE),
                relative,
                resolve,
                needs);
    }

    /** True when the (lower-cased) text contains any of {@code words}. */
    private static Predicate<String> anyOf(String... words) {
        return text -> {
            for (String word : words) {
                if (text.contains(word)) {
                    return true;
                }
            }
            return false;
        };
    }

    /** Every month name and abbreviation contains one of these. */
    private static final Predicate<String> A_MONTH =
            anyOf("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    /** Every {@link #YEAR}. */
    private static final Predicate<String> A_YEAR = anyOf("19", "20");

    private static final Predicate<String> A_DIGIT = anyOf("0", "1", "2", "3", "4", "5", "6", "7", "8", "9");
    private static final Predicate<String> A_SEASON = anyOf("spring", "summer", "autumn", "fall", "winter");
    private static final Predicate<String> A_SHIFT = anyOf("last", "next", "this");
    /** Every {@link #UNIT}, and every weekday ("day"). */
    private static final Predicate<String> A_UNIT = anyOf("day", "week", "month", "year");

    private static final List<Rule> RULES = List.of(
            // absolute days
            rule(
                    A_YEAR,
                    YEAR + "-(?<m>[01]\\d)-" + "(?<day>[0-3]\\d)",
                    false,
                    (m, ref) -> day(year(m), Integer.parseInt(m.group("m")), day(m))),
            rule(
                    A_MONTH.and(A_YEAR),
                    DAY + "\\s+(?:of\\s+)?" + MONTH_ANY + ",?\\s+" + YEAR,
                    false,
                    (m, ref) -> day(year(m), month(m), day(m))),
            rule(
                    A_MONTH.and(A_YEAR),
                    MONTH_ANY + "\\s+" + DAY + ",?\\s+" + YEAR,
                    false,
                    (m, ref) -> day(year(m), month(m), day(m))),
            rule(
                    A_MONTH.and(A_DIGIT),
                    DAY + "\\s+(?:of\\s+)?" + MONTH_ANY,
                    false,
                    (m, ref) -> capitalised(m) ? day(ref.getYear(), month(m), day(m)) : null),
            rule(
                    A_MONTH.and(A_DIGIT),
                    MONTH_ANY + "\\s+" + DAY,
                    false,
                    (m, ref) -> capitalised(m) ? day(ref.getYear(), month(m), day(m)) : null),
            // absolute months, seasons and years
            rule(
                    A_MONTH.and(A_YEAR),
                    MONTH_ANY + ",?\\s+(?:of\\s+)?" + YEAR,
                    false,
                    (m, ref) -> month(YearMonth.of(year(m), month(m)))),
            rule(
                    A_MONTH.and(A_SHIFT),
                    "(?<shift>last|next|this)\\s+" + MONTH_FULL,
                    true,
                    DateExpressions::shiftedMonth),
            rule(
                    A_MONTH,
                    "(?:in|of|during|since|until|till|by|throughout|early|late|mid|in\\s+early|in\\s+late"
                            + "|in\\s+mid)-?\\s*" + MONTH_FULL,
                    false,
                    (m, ref) -> capitalised(m) ? month(YearMonth.of(ref.getYear(), month(m))) : null),
            rule(
                    A_SEASON.and(A_YEAR),
                    SEASON + ",?\\s+(?:of\\s+)?" + YEAR,
                    false,
                    (m, ref) -> season(m.group("season"), year(m))),
            rule(A_SEASON.and(A_SHIFT), "(?<shift>last|next|this)\\s+" + SEASON, true, DateExpressions::shiftedSeason),
            rule(
                    A_YEAR,
                    "(?:in|during|since|until|till|by|of|from|before|after|around|throughout|year)\\s+" + YEAR,
                    false,
                    (m, ref) -> new DateSpan(LocalDate.of(year(m), 1, 1), LocalDate.of(year(m), 12, 31))),
            // relative days
            rule(
                    anyOf("yesterday"),
                    "the\\s+day\\s+before\\s+yesterday",
                    true,
                    (m, ref) -> DateSpan.day(ref.minusDays(2))),
            rule(anyOf("tomorrow"), "the\\s+day\\s+after\\s+tomorrow", true, (m, ref) -> DateSpan.day(ref.plusDays(2))),
            rule(
                    anyOf("yesterday", "night"),
                    "yesterday|last\\s+night",
                    true,
                    (m, ref) -> DateSpan.day(ref.minusDays(1))),
            rule(
                    anyOf("today", "tonight", "morning", "afternoon", "evening"),
                    "today|tonight|this\\s+(?:morning|afternoon|evening)",
                    true,
                    (m, ref) -> DateSpan.day(ref)),
            rule(anyOf("tomorrow"), "tomorrow", true, (m, ref) -> DateSpan.day(ref.plusDays(1))),
            rule(A_SHIFT.and(A_UNIT), "(?<shift>last|next|this)\\s+" + WEEKDAY, true, DateExpressions::weekday),
            rule(
                    anyOf("last", "next", "this", "past").and(A_UNIT),
                    "(?<shift>last|next|this|the\\s+past|past)\\s+(?<period>week|weekend|month|year)",
                    true,
                    DateExpressions::period),
            rule(
                    anyOf("ago").and(A_UNIT),
                    "(?:between\\s+)?" + COUNT.replace("<count>", "<low>") + "\\s+(?:and|to|or)\\s+" + COUNT + "\\s+"
                            + UNIT + "\\s+ago",
                    true,
                    DateExpressions::agoBetween),
            rule(
                    anyOf("last", "past").and(A_UNIT),
                    "(?:the\\s+)?(?:last|past)\\s+" + COUNT + "\\s+" + UNIT,
                    true,
                    DateExpressions::lastFew),
            rule(anyOf("ago").and(A_UNIT), COUNT + "\\s+" + UNIT + "\\s+ago", true, (m, ref) -> ago(m, ref)),
            rule(anyOf("in").and(A_UNIT), "in\\s+" + COUNT + "\\s+" + UNIT, true, (m, ref) -> ahead(m, ref)));

    /** Marks an expression naming no real day while overlaps are resolved. */
    private static final DateSpan IMPOSSIBLE = DateSpan.day(LocalDate.MIN);

    private DateExpressions() {}

    /**
     * The date expressions of {@code text}, in order of appearance, none overlapping (where two overlap, the longer
     * wins: "in May 2023" is May 2023, not "in May"). An expression naming an impossible day ("31 February 2023") is
     * left out, and so are the shorter ones inside it.
     *
     * @param reference the day relative expressions are resolved against
     */
    public static List<DateMention> find(String text, LocalDate reference) {
        return find(text, reference, true);
    }

    /** {@link #find(String, LocalDate)}; without {@code prefilter} every rule's regex runs (tests compare the two). */
    static List<DateMention> find(String text, LocalDate reference, boolean prefilter) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        String lower = prefilter ? asciiLowerCase(text) : null;
        List<DateMention> found = new ArrayList<>();
        for (Rule rule : RULES) {
            if (prefilter && !rule.needs.test(lower)) {
                continue;
            }
            Matcher m = rule.pattern.matcher(text);
            while (m.find()) {
                DateSpan span;
                try {
                    span = rule.resolve.apply(m, reference);
                } catch (DateTimeException e) {
                    span = IMPOSSIBLE; // "31 February 2023": no day, and no month either
                }
                if (span != null) {
                    found.add(new DateMention(m.start(), m.end(), m.group(), span, rule.relative));
                }
            }
        }
        found.sort(Comparator.comparingInt((DateMention d) -> d.end() - d.start())
                .reversed()
                .thenComparingInt(DateMention::start));
        List<DateMention> kept = new ArrayList<>();
        for (DateMention d : found) {
            if (kept.stream().noneMatch(k -> k.start() < d.end() && d.start() < k.end())) {
                kept.add(d);
            }
        }
        return kept.stream()
                .filter(d -> d.span() != IMPOSSIBLE)
                .sorted(Comparator.comparingInt(DateMention::start))
                .toList();
    }

    /** {@code text} with A-Z turned into a-z and every other character unchanged (as the patterns compare letters). */
    static String asciiLowerCase(String text) {
        char[] chars = text.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            char c = chars[i];
            if (c >= 'A' && c <= 'Z') {
                chars[i] = (char) (c + ('a' - 'A'));
            }
        }
        return new String(chars);
    }

    /** The spans of {@link #find}. */
    public static List<DateSpan> spans(String text, LocalDate reference) {
        return find(text, reference).stream().map(DateMention::span).toList();
    }

    private static int year(Matcher m) {
        return Integer.parseInt(m.group("year"));
    }

    private static int day(Matcher m) {
        return Integer.parseInt(m.group("day"));
    }

    private static int month(Matcher m) {
        String name = m.group("month").toLowerCase(Locale.ROOT);
        for (Month month : Month.values()) {
            if (month.name().toLowerCase(Locale.ROOT).startsWith(name.substring(0, 3))) {
                return month.getValue();
            }
        }
        throw new IllegalStateException("not a month: " + name);
    }

    /**
     * Without a year, a month name must be written with a capital, and "May" / "March" must be the full word (an
     * abbreviation without a year or a day is never a month): "may I", "march on" are not dates.
     */
    private static boolean capitalised(Matcher m) {
        return Character.isUpperCase(m.group("month").charAt(0));
    }

    private static DateSpan day(int year, int month, int day) {
        return DateSpan.day(LocalDate.of(year, month, day));
    }

    private static DateSpan month(YearMonth month) {
        return new DateSpan(month.atDay(1), month.atEndOfMonth());
    }

    /**
     * "last May": the latest May before the reference's month; "next May": the first after; "this May": this year's.
     */
    private static DateSpan shiftedMonth(Matcher m, LocalDate ref) {
        if (!capitalised(m)) {
            return null;
        }
        YearMonth now = YearMonth.from(ref);
        YearMonth named = YearMonth.of(ref.getYear(), month(m));
        switch (m.group("shift").toLowerCase(Locale.ROOT)) {
            case "last" -> named = named.isBefore(now) ? named : named.minusYears(1);
            case "next" -> named = named.isAfter(now) ? named : named.plusYears(1);
            default -> {}
        }
        return month(named);
    }

    /** Spring March-May, summer June-August, autumn September-November, winter December to February. */
    private static DateSpan season(String name, int year) {
        int start = switch (name.toLowerCase(Locale.ROOT)) {
            case "spring" -> 3;
            case "summer" -> 6;
            case "autumn", "fall" -> 9;
            default -> 12;
        };
        YearMonth first = YearMonth.of(year, start);
        return new DateSpan(first.atDay(1), first.plusMonths(2).atEndOfMonth());
    }

    /**
     * "last summer": the latest one over before the reference; "next summer": the first starting after it; "this
     * summer": the one the reference is in, else the reference year's.
     */
    private static DateSpan shiftedSeason(Matcher m, LocalDate ref) {
        String name = m.group("season");
        String shift = m.group("shift").toLowerCase(Locale.ROOT);
        for (int year = ref.getYear() + 1; year >= ref.getYear() - 2; year--) {
            DateSpan season = season(name, year);
            if (shift.equals("last")
                    ? season.last().isBefore(ref)
                    : shift.equals("this")
                            && !season.first().isAfter(ref)
                            && !season.last().isBefore(ref)) {
                return season;
            }
        }
        if (shift.equals("this")) {
            return season(name, ref.getYear());
        }
        DateSpan season = season(name, ref.getYear() - 1);
        while (!season.first().isAfter(ref)) {
            season = season(name, season.first().getYear() + 1);
        }
        return season;
    }

    /**
     * "last Saturday": the latest Saturday before the reference; "next Saturday": the first after; "this Saturday": the
     * Saturday of the reference's week (Monday to Sunday).
     */
    private static DateSpan weekday(Matcher m, LocalDate ref) {
        DayOfWeek day = DayOfWeek.valueOf(m.group("weekday").toUpperCase(Locale.ROOT));
        return DateSpan.day(
                switch (m.group("shift").toLowerCase(Locale.ROOT)) {
                    case "last" -> ref.with(TemporalAdjusters.previous(day));
                    case "next" -> ref.with(TemporalAdjusters.next(day));
                    default -> ref.with(DayOfWeek.MONDAY).plusDays(day.getValue() - 1L);
                });
    }

    private static DateSpan period(Matcher m, LocalDate ref) {
        String shift = m.group("shift").toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        int offset = switch (shift) {
            case "last" -> -1;
            case "next" -> 1;
            default -> 0;
        };
        String period = m.group("period").toLowerCase(Locale.ROOT);
        if (shift.endsWith("past")) { // the past week: the days just before the reference
            int days = switch (period) {
                case "week" -> 7;
                case "weekend" -> 3;
                case "month" -> 30;
                default -> 365;
            };
            return new DateSpan(ref.minusDays(days), ref.minusDays(1));
        }
        return switch (period) {
            case "week" -> {
                LocalDate monday = ref.with(DayOfWeek.MONDAY).plusWeeks(offset);
                yield new DateSpan(monday, monday.plusDays(6));
            }
            case "weekend" -> weekend(ref, offset);
            case "month" -> month(YearMonth.from(ref).plusMonths(offset));
            default ->
                new DateSpan(LocalDate.of(ref.getYear() + offset, 1, 1), LocalDate.of(ref.getYear() + offset, 12, 31));
        };
    }

    /**
     * "this weekend": the reference's own weekend when it is a Saturday or Sunday, else the coming one; "last weekend":
     * the one before that; "next weekend": the one after.
     */
    private static DateSpan weekend(LocalDate ref, int offset) {
        LocalDate saturday = ref.getDayOfWeek() == DayOfWeek.SUNDAY
                ? ref.minusDays(1)
                : ref.with(TemporalAdjusters.nextOrSame(DayOfWeek.SATURDAY));
        if (offset < 0 && ref.getDayOfWeek().getValue() < DayOfWeek.SATURDAY.getValue()) {
            saturday = ref.with(TemporalAdjusters.previous(DayOfWeek.SATURDAY)); // said on a weekday: the one just over
        } else {
            saturday = saturday.plusWeeks(offset);
        }
        return new DateSpan(saturday, saturday.plusDays(1));
    }

    /** The count of "two weeks ago"; "a few" / "several" are approximate (low, high). */
    private static int[] count(Matcher m) {
        return count(m.group("count"));
    }

    private static int[] count(String text) {
        String c = text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        if (c.contains("few") || c.contains("several")) {
            return new int[] {2, 5};
        }
        if (c.contains("couple")) {
            return new int[] {2, 2};
        }
        int n = NUMBERS.containsKey(c) ? NUMBERS.get(c) : Integer.parseInt(c);
        return new int[] {n, n};
    }

    private static DateSpan ago(Matcher m, LocalDate ref) {
        int[] n = count(m);
        return shifted(m.group("unit").toLowerCase(Locale.ROOT), ref, -n[1], -n[0]);
    }

    /** "two to three weeks ago", "between one and two months ago". */
    private static DateSpan agoBetween(Matcher m, LocalDate ref) {
        int high = count(m)[1];
        int low = count(m.group("low"))[0];
        return low > high ? null : shifted(m.group("unit").toLowerCase(Locale.ROOT), ref, -high, -low);
    }

    /** "the last two weeks", "the past 3 days": from that long before the reference up to it. */
    private static DateSpan lastFew(Matcher m, LocalDate ref) {
        int n = count(m)[1];
        LocalDate from = switch (m.group("unit").toLowerCase(Locale.ROOT)) {
            case "day" -> ref.minusDays(n);
            case "week" -> ref.minusWeeks(n);
            case "month" -> ref.minusMonths(n);
            default -> ref.minusYears(n);
        };
        return new DateSpan(from, ref);
    }

    private static DateSpan ahead(Matcher m, LocalDate ref) {
        int[] n = count(m);
        return shifted(m.group("unit").toLowerCase(Locale.ROOT), ref, n[0], n[1]);
    }

    /** The days {@code from..to} units away from the reference (weeks: give or take 3 days; months, years: whole). */
    private static DateSpan shifted(String unit, LocalDate ref, int from, int to) {
        return switch (unit) {
            case "day" -> new DateSpan(ref.plusDays(from), ref.plusDays(to));
            case "week" ->
                new DateSpan(ref.plusWeeks(from).minusDays(3), ref.plusWeeks(to).plusDays(3));
            case "month" ->
                new DateSpan(
                        YearMonth.from(ref).plusMonths(from).atDay(1),
                        YearMonth.from(ref).plusMonths(to).atEndOfMonth());
            default -> new DateSpan(LocalDate.of(ref.getYear() + from, 1, 1), LocalDate.of(ref.getYear() + to, 12, 31));
        };
    }
}
