package io.memorychain.events;

import org.apache.avro.util.ClassSecurityValidator;

/**
 * Avro 1.12.2 refuses to instantiate generated classes outside its allow-list ({@code SecurityException: Forbidden}).
 * The launcher passes {@code -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro}; {@link #install()} makes it
 * hold however the JVM was started: it sets the property when nothing has read it yet and, in case Avro already read
 * it, adds our packages to the global validator.
 */
public final class AvroTrust {

    public static final String PROPERTY = "org.apache.avro.SERIALIZABLE_PACKAGES";
    public static final String PACKAGE = "io.memorychain.avro";
    private static volatile boolean installed;

    private AvroTrust() {}

    /** Sets the system property only; call before any Avro class is loaded (first line of main). */
    public static void setSystemProperty() {
        String current = System.getProperty(PROPERTY);
        if (current == null || current.isBlank()) {
            System.setProperty(PROPERTY, PACKAGE);
        } else if (!java.util.Arrays.asList(current.split(",")).contains(PACKAGE)) {
            System.setProperty(PROPERTY, current + "," + PACKAGE);
        }
    }

    /** Property plus global validator; idempotent. */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        setSystemProperty();
        ClassSecurityValidator.ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(previous, AvroTrust::ours));
        installed = true;
    }

    static boolean ours(Class<?> type) {
        String pkg = type.getPackageName();
        return pkg.equals(PACKAGE) || pkg.startsWith(PACKAGE + ".");
    }
}
