package io.memorychain.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import io.memorychain.avro.view.AuditEntry;
import org.apache.avro.util.ClassSecurityValidator;
import org.junit.jupiter.api.Test;

class AvroTrustTest {

    @Test
    void addsOurPackageToAnExistingAllowList() {
        String saved = System.getProperty(AvroTrust.PROPERTY);
        try {
            System.setProperty(AvroTrust.PROPERTY, "com.example.avro");
            AvroTrust.setSystemProperty();
            assertThat(System.getProperty(AvroTrust.PROPERTY)).isEqualTo("com.example.avro,io.memorychain.avro");
            AvroTrust.setSystemProperty();
            assertThat(System.getProperty(AvroTrust.PROPERTY)).isEqualTo("com.example.avro,io.memorychain.avro");
            System.clearProperty(AvroTrust.PROPERTY);
            AvroTrust.setSystemProperty();
            assertThat(System.getProperty(AvroTrust.PROPERTY)).isEqualTo("io.memorychain.avro");
        } finally {
            if (saved == null) {
                System.clearProperty(AvroTrust.PROPERTY);
            } else {
                System.setProperty(AvroTrust.PROPERTY, saved);
            }
        }
    }

    @Test
    void trustsGeneratedClassesAndSubpackagesOnly() {
        AvroTrust.install();
        assertThat(ClassSecurityValidator.getGlobal().isTrusted(Memory.class)).isTrue();
        assertThat(ClassSecurityValidator.getGlobal().isTrusted(AuditEntry.class))
                .isTrue();
        assertThat(AvroTrust.ours(Memory.class)).isTrue();
        assertThat(AvroTrust.ours(AvroTrust.class)).isFalse();
    }
}
