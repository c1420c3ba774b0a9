package io.memorychain.console.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChartsTest {

    @Test
    void columnsScaleToTheLargestValueAndKeepSmallNonZeroValuesVisible() {
        Charts.Chart chart = Charts.columns("c", "Created", List.of("a", "b", "c"), List.of(0L, 1L, 1000L), 2);

        assertThat(chart.max()).isEqualTo(1000);
        assertThat(chart.bars()).extracting(Charts.Bar::height).satisfies(h -> {
            assertThat(h.get(0)).isZero();
            assertThat(h.get(1)).isEqualTo(1);
            assertThat(h.get(2)).isGreaterThan(90);
        });
        assertThat(chart.bars())
                .allSatisfy(b -> assertThat(b.y() + b.height())
                        .isEqualTo(chart.bars().get(2).y() + chart.bars().get(2).height()));
        assertThat(chart.bars())
                .extracting(Charts.Bar::labelShown)
                .as("labelled from the last bar back")
                .containsExactly(true, false, true);
    }

    @Test
    void rowsAreOnePerValueInOrderWithinTheChart() {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("active", 40L);
        counts.put("archived", 20L);
        Charts.Chart chart = Charts.rows("r", "State", counts);

        assertThat(chart.bars()).extracting(Charts.Bar::label).containsExactly("active", "archived");
        assertThat(chart.bars().get(0).width())
                .isEqualTo(2 * chart.bars().get(1).width());
        assertThat(chart.bars()).allSatisfy(b -> assertThat(b.x() + b.width()).isLessThanOrEqualTo(chart.width()));
        assertThat(chart.bars().get(1).y() + chart.bars().get(1).height()).isLessThanOrEqualTo(chart.height());
    }

    @Test
    void anEmptySeriesIsAnEmptyChart() {
        assertThat(Charts.rows("e", "None", Map.of()).empty()).isTrue();
        assertThat(Charts.columns("e", "None", List.of("a"), List.of(0L), 1).empty())
                .isTrue();
    }
}
