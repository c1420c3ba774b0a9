package io.memorychain.api.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads and checks TLS key material: a certificate chain with its private key from PEM files or a PKCS#12 key store,
 * and trusted CA certificates from a PEM bundle or a PKCS#12 trust store. Every failure is a {@link TlsConfigException}
 * naming the configuration key and the file (missing file, wrong password, no key, a key that does not match the
 * certificate), so a bad configuration fails start-up with one clear line.
 */
final class TlsMaterial {

    private static final Pattern PEM =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

    private TlsMaterial() {}

    /** A private key and its certificate chain (leaf first). */
    public record Identity(PrivateKey key, List<X509Certificate> chain) {
        public Identity {
            chain = List.copyOf(chain);
        }
    }

    /**
     * The identity from PEM files: a certificate chain (leaf first) and an unencrypted PKCS#8 private key ({@code BEGIN
     * PRIVATE KEY}, RSA or EC).
     */
    public static Identity fromPem(String certKey, Path certFile, String keyKey, Path keyFile) {
        List<X509Certificate> chain = certificates(certKey, certFile);
        if (chain.isEmpty()) {
            throw new TlsConfigException(certKey + ": no certificate in " + certFile);
        }
        PrivateKey key = privateKey(keyKey, keyFile);
        requireMatch(
                key,
                chain.get(0),
                keyKey + " (" + keyFile + ") does not match the certificate in " + certKey + " (" + certFile + ")");
        return new Identity(key, chain);
    }

    /** The identity from a PKCS#12 key store: its first private key entry. */
    public static Identity fromPkcs12(String storeKey, Path storeFile, char[] password) {
        KeyStore store = pkcs12(storeKey, storeFile, password);
        try {
            for (String alias : Collections.list(store.aliases())) {
                if (!store.isKeyEntry(alias)) {
                    continue;
                }
                Key key = store.getKey(alias, password);
                Certificate[] certs = store.getCertificateChain(alias);
                if (key instanceof PrivateKey privateKey && certs != null && certs.length > 0) {
                    List<X509Certificate> chain = new ArrayList<>();
                    for (Certificate c : certs) {
                        chain.add((X509Certificate) c);
                    }
                    requireMatch(
                            privateKey,
                            chain.get(0),
                            storeKey + ": the key of entry '" + alias + "' does not match its certificate in "
                                    + storeFile);
                    return new Identity(privateKey, chain);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException(
                    storeKey + ": cannot read the private key in " + storeFile + " (" + e.getMessage() + ")");
        }
        throw new TlsConfigException(storeKey + ": no private key with a certificate in " + storeFile);
    }

    /**
     * Trusted CA certificates: a PKCS#12 trust store when the file name ends in {@code .p12}/{@code .pfx}, else a PEM
     * bundle.
     */
    public static List<X509Certificate> trusted(String trustKey, Path trustFile, char[] password) {
        String name = trustFile.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        List<X509Certificate> certs = new ArrayList<>();
        if (name.endsWith(".p12") || name.endsWith(".pfx")) {
            KeyStore store = pkcs12(trustKey, trustFile, password);
            try {
                for (String alias : Collections.list(store.aliases())) {
                    if (store.getCertificate(alias) instanceof X509Certificate c) {
                        certs.add(c);
                    }
                }
            } catch (GeneralSecurityException e) {
                throw new TlsConfigException(trustKey + ": cannot read " + trustFile + " (" + e.getMessage() + ")");
            }
        } else {
            certs.addAll(certificates(trustKey, trustFile));
        }
        if (certs.isEmpty()) {
            throw new TlsConfigException(trustKey + ": no certificate in " + trustFile);
        }
        return List.copyOf(certs);
    }

    private static List<X509Certificate> certificates(String configKey, Path file) {
        List<X509Certificate> out = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (byte[] der : pemBlocks(configKey, file, "CERTIFICATE")) {
                try (InputStream in = new java.io.ByteArrayInputStream(der)) {
                    out.add((X509Certificate) factory.generateCertificate(in));
                }
            }
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsConfigException(
                    configKey + ": not a valid certificate in " + file + " (" + e.getMessage() + ")");
        }
        return out;
    }

    private static PrivateKey privateKey(String configKey, Path file) {
        List<byte[]> blocks = pemBlocks(configKey, file, "PRIVATE KEY");
        if (blocks.isEmpty()) {
            throw new TlsConfigException(configKey + ": no unencrypted PKCS#8 key (BEGIN PRIVATE KEY) in " + file);
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(blocks.get(0));
        for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw new TlsConfigException(configKey + ": not an RSA, EC or Ed25519 private key in " + file);
    }

    private static List<byte[]> pemBlocks(String configKey, Path file, String type) {
        String text = read(configKey, file);
        List<byte[]> out = new ArrayList<>();
        Matcher m = PEM.matcher(text);
        while (m.find()) {
            if (m.group(1).equals(type)) {
                try {
                    out.add(Base64.getMimeDecoder().decode(m.group(2)));
                } catch (IllegalArgumentException e) {
                    throw new TlsConfigException(configKey + ": broken PEM block in " + file);
                }
            }
        }
        return out;
    }

    private static String read(String configKey, Path file) {
        if (!Files.isRegularFile(file)) {
            throw new TlsConfigException(configKey + ": file not found: " + file);
        }
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new TlsConfigException(configKey + ": cannot read " + file + " (" + e.getMessage() + ")");
        }
    }

    private static KeyStore pkcs12(String configKey, Path file, char[] password) {
        if (!Files.isRegularFile(file)) {
            throw new TlsConfigException(configKey + ": file not found: " + file);
        }
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof java.security.UnrecoverableKeyException
                    || String.valueOf(e.getMessage()).contains("password")) {
                throw new TlsConfigException(configKey + ": wrong password for " + file);
            }
            throw new TlsConfigException(configKey + ": not a PKCS#12 file: " + file + " (" + e.getMessage() + ")");
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException(configKey + ": cannot open " + file + " (" + e.getMessage() + ")");
        }
    }

    /** Signs a probe with the key and verifies it with the certificate's public key. */
    private static void requireMatch(PrivateKey key, X509Certificate cert, String message) {
        PublicKey pub = cert.getPublicKey();
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        try {
            byte[] probe = "memory-chain tls key check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(pub);
            verifier.update(probe);
            if (!pub.getAlgorithm().equals(key.getAlgorithm()) || !verifier.verify(signature)) {
                throw new TlsConfigException(message);
            }
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException(message);
        }
    }
}
