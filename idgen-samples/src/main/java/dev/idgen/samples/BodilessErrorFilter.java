package dev.idgen.samples;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives an error status that comes without a body a problem+json body: actuator endpoints answer an unknown meter
 * or health component with a bare 404. Sending the status as an error forwards it to {@link ProblemErrorController}.
 */
final class BodilessErrorFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        BodyWatch watched = new BodyWatch(response);
        chain.doFilter(request, watched);
        int status = response.getStatus();
        if (status >= 400 && !watched.bodyUsed && !response.isCommitted()) {
            response.sendError(status);
        }
    }

    /** Notes whether the body was asked for; an answer that never asks has no body. */
    private static final class BodyWatch extends HttpServletResponseWrapper {

        private boolean bodyUsed;

        BodyWatch(HttpServletResponse response) {
            super(response);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            bodyUsed = true;
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            bodyUsed = true;
            return super.getWriter();
        }
    }
}
