package io.memorychain.api.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsMaterialTest {

    @TempDir
    static Path dir;

    static TestCa ca;
    static KeyPair serverKeys;

    @BeforeAll
    static void makeCa() throws Exception {
        ca = new TestCa(dir, "ca");
        serverKeys = ca.issue("server");
        ca.issue("other");
    }

    @Test
    void pemCertificateAndKeyLoadAsOneIdentity() {
        TlsMaterial.Identity id = TlsMaterial.fromPem(
                "memory.tls.cert", dir.resolve("server.crt"), "memory.tls.key", dir.resolve("server.key"));
        assertThat(id.chain()).hasSize(1);
        assertThat(id.chain().get(0).getSubjectX500Principal().getName()).isEqualTo("CN=server");
        assertThat(id.key().getEncoded()).isEqualTo(serverKeys.getPrivate().getEncoded());
    }

    @Test
    void pkcs12KeyStoreLoadsItsKeyAndChain() {
        TlsMaterial.Identity id =
                TlsMaterial.fromPkcs12("memory.tls.keystore", dir.resolve("server.p12"), TestCa.PASSWORD);
        assertThat(id.chain()).hasSize(2);
        assertThat(id.chain().get(1)).isEqualTo(ca.certificate());
        assertThat(id.key().getEncoded()).isEqualTo(serverKeys.getPrivate().getEncoded());
    }

    @Test
    void trustFromPemBundleAndFromPkcs12TrustStore() {
        assertThat(TlsMaterial.trusted("memory.tls.trust", dir.resolve("ca.crt"), null))
                .containsExactly(ca.certificate());
        assertThat(TlsMaterial.trusted("memory.tls.trust", dir.resolve("ca.p12"), TestCa.PASSWORD))
                .containsExactly(ca.certificate());
    }

    @Test
    void missingFileNamesTheKeyAndTheFile() {
        Path missing = dir.resolve("nope.crt");
        assertThatThrownBy(() ->
                        TlsMaterial.fromPem("memory.tls.cert", missing, "memory.tls.key", dir.resolve("server.key")))
                .isInstanceOf(TlsConfigException.class)
                .hasMessage("memory.tls.cert: file not found: " + missing);
    }

    @Test
    void wrongPkcs12PasswordIsNamed() {
        assertThatThrownBy(() ->
                        TlsMaterial.fromPkcs12("memory.tls.keystore", dir.resolve("server.p12"), "wrong".toCharArray()))
                .isInstanceOf(TlsConfigException.class)
                .hasMessage("memory.tls.keystore: wrong password for " + dir.resolve("server.p12"));
    }

    @Test
    void keyNotMatchingTheCertificateIsRefused() {
        assertThatThrownBy(() -> TlsMaterial.fromPem(
                        "memory.tls.cert", dir.resolve("server.crt"), "memory.tls.key", dir.resolve("other.key")))
                .isInstanceOf(TlsConfigException.class)
                .hasMessageContaining("memory.tls.key (" + dir.resolve("other.key") + ") does not match")
                .hasMessageContaining("memory.tls.cert (" + dir.resolve("server.crt") + ")");
    }

    @Test
    void aFileWithoutACertificateIsNamed() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.pem"), "nothing here\n");
        assertThatThrownBy(() -> TlsMaterial.trusted("memory.tls.trust", empty, null))
                .isInstanceOf(TlsConfigException.class)
                .hasMessage("memory.tls.trust: no certificate in " + empty);
    }
}
