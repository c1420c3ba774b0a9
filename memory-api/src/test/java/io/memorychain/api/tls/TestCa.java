package io.memorychain.api.tls;

import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority a test makes: a CA, and certificates it signs (server: SAN localhost and 127.0.0.1), written
 * as PEM ({@code <name>.crt}, {@code <name>.key}) and PKCS#12 ({@code <name>.p12}) under a directory.
 */
final class TestCa {

    static final char[] PASSWORD = "changeit".toCharArray();

    private final Path dir;
    private final KeyPair caKeys;
    private final X509Certificate caCert;
    private long serial = 1;

    TestCa(Path dir, String name) throws Exception {
        this.dir = dir;
        this.caKeys = rsa();
        X500Name subject = new X500Name("CN=" + name);
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                subject,
                BigInteger.valueOf(serial++),
                Date.from(Instant.now().minus(Duration.ofMinutes(5))),
                Date.from(Instant.now().plus(Duration.ofDays(2))),
                subject,
                caKeys.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        this.caCert = sign(b);
        writePem(dir.resolve(name + ".crt"), "CERTIFICATE", caCert.getEncoded());
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", caCert);
        try (OutputStream out = Files.newOutputStream(dir.resolve(name + ".p12"))) {
            trust.store(out, PASSWORD);
        }
    }

    /** A certificate for {@code name} (SAN DNS localhost, IP 127.0.0.1) as name.crt / name.key / name.p12. */
    KeyPair issue(String name) throws Exception {
        KeyPair keys = rsa();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                caCert,
                BigInteger.valueOf(serial++),
                Date.from(Instant.now().minus(Duration.ofMinutes(5))),
                Date.from(Instant.now().plus(Duration.ofDays(2))),
                new X500Name("CN=" + name),
                keys.getPublic());
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")
        }));
        X509Certificate cert = sign(b);
        writePem(dir.resolve(name + ".crt"), "CERTIFICATE", cert.getEncoded());
        writePem(dir.resolve(name + ".key"), "PRIVATE KEY", keys.getPrivate().getEncoded());
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(name, keys.getPrivate(), PASSWORD, new Certificate[] {cert, caCert});
        try (OutputStream out = Files.newOutputStream(dir.resolve(name + ".p12"))) {
            store.store(out, PASSWORD);
        }
        return keys;
    }

    X509Certificate certificate() {
        return caCert;
    }

    private X509Certificate sign(JcaX509v3CertificateBuilder b) throws Exception {
        return new JcaX509CertificateConverter()
                .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withRSA").build(caKeys.getPrivate())));
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    static void writePem(Path file, String type, byte[] der) throws Exception {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der);
        Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
    }
}
