package dev.idgen.cli;

/** Input the tool cannot work with: one line naming the argument, exit code {@link IdgenCli#USAGE}. */
final class UsageException extends RuntimeException {

    UsageException(String message) {
        super(message);
    }
}
