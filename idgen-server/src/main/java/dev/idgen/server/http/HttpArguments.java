package dev.idgen.server.http;

import dev.idgen.server.ServerRefusal;
import dev.idgen.server.ServerRefusal.Reason;

/** Request parameters read as numbers, a malformed one refused naming it, whatever Spring would have said. */
final class HttpArguments {

    /** The transport tag of requests over HTTP. */
    static final String HTTP = "http";

    private HttpArguments() {}

    static int wholeNumber(String parameter, String value) {
        long number = longNumber(parameter, value);
        if (number != (int) number) {
            throw malformed(parameter, value);
        }
        return (int) number;
    }

    static long longNumber(String parameter, String value) {
        if (value == null) {
            throw new ServerRefusal(Reason.BAD_ARGUMENT, parameter, null, parameter + " is required: a whole number");
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw malformed(parameter, value);
        }
    }

    private static ServerRefusal malformed(String parameter, String value) {
        String shown = value.length() > 80 ? value.substring(0, 80) + "..." : value;
        return new ServerRefusal(
                Reason.BAD_ARGUMENT,
                parameter,
                null,
                parameter + " must be a whole number in range, but was '" + shown + "'");
    }
}
