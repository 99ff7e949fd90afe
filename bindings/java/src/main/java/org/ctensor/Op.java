// Op.java - marks the Java methods that expose the ops of abi/ops.tsv (checked by the coverage test).
package org.ctensor;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface Op {
    /** Names of the ops (first column of abi/ops.tsv) this method calls. */
    String[] value();
}
