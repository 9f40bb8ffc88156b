package dev.idgen.spring.boot.autoconfigure.diagnostics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link IdgenStartupException} in Spring Boot's "APPLICATION FAILED TO START" report: what is wrong and
 * what to do, instead of a stack trace.
 */
public final class IdgenFailureAnalyzer extends AbstractFailureAnalyzer<IdgenStartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, IdgenStartupException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
