package dev.idgen.cli;

/** The database could not be reached or read: one line, exit code {@link IdgenCli#FAILURE}. */
final class CheckFailure extends RuntimeException {

    CheckFailure(String message) {
        super(message);
    }
}
