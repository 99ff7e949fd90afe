// Callbacks.java - static methods the JNI code calls: building the exception of a failed status (with the Java
// exception a callback threw as its cause), describing such an exception, and decoding UTF-8 text.
package org.ctensor.internal;

import java.nio.charset.StandardCharsets;
import org.ctensor.CTensorException;

public final class Callbacks {
    /** The exception the last failed callback on this thread threw, until a status reports it. */
    private static final ThreadLocal<Throwable> PENDING = new ThreadLocal<>();

    private Callbacks() {}

    /** Called by ctj_throw_status: the exception for status with ctensor's message. */
    public static RuntimeException error(int status, byte[] message) {
        Throwable cause = PENDING.get();
        PENDING.remove();
        return CTensorException.of(status, utf8(message), status == CT.CT_ERR_CALLBACK ? cause : null);
    }

    /** Called when a Java callback threw: keeps t as the cause of the coming error and returns its text. */
    public static byte[] describe(Throwable t) {
        PENDING.set(t);
        return String.valueOf(t).getBytes(StandardCharsets.UTF_8);
    }

    /** UTF-8 bytes to a String (null stays null; invalid bytes become U+FFFD). */
    public static String utf8(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The first len bytes of a NUL-padded buffer as text. */
    public static String utf8(byte[] bytes, long len) {
        return new String(bytes, 0, (int) Math.min(len, bytes.length), StandardCharsets.UTF_8);
    }
}
