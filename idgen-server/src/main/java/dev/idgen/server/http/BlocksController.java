package dev.idgen.server.http;

import dev.idgen.core.segment.Segment;
import dev.idgen.server.Caller;
import dev.idgen.server.IdgenServerService;
import dev.idgen.server.IdgenServerService.BlockAccess;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Blocks of IDs over HTTP, for clients that serve IDs themselves from segments they take here: {@code POST} because
 * every call takes a new, durable range that is never handed out again.
 */
@RestController
@RequestMapping("/blocks")
final class BlocksController {

    private final IdgenServerService service;

    BlocksController(IdgenServerService service) {
        this.service = service;
    }

    /**
     * {@code POST /blocks/{name}?size=N&above=A}: the next N IDs of the name, all above A (default 0).
     *
     * @return {@code {"name":"orders","first":"1001","last":"2000","size":1000}}, first and last as decimal strings
     */
    @PostMapping("/{name}")
    BlockJson take(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String name,
            @RequestParam(required = false) String size,
            @RequestParam(required = false) String above) {
        Caller caller = service.authenticate(authorization, HttpArguments.HTTP);
        long blockSize = HttpArguments.longNumber("size", size);
        long floor = above == null ? 0 : HttpArguments.longNumber("above", above);
        Segment block = service.takeBlock(caller, name, blockSize, floor);
        return new BlockJson(name, Long.toString(block.first()), Long.toString(block.last()), block.size());
    }

    /**
     * {@code GET /blocks}: who the token belongs to and what it may take blocks of; the client's health check.
     *
     * @return {@code {"client":"app","names":["*"],"generators":["default"]}}
     */
    @GetMapping
    BlockAccess access(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        return service.blockAccess(service.authenticate(authorization, HttpArguments.HTTP));
    }

    /**
     * A block as JSON.
     *
     * @param name the sequence name
     * @param first the first ID, inclusive, as a decimal string (64-bit safe in JavaScript)
     * @param last the last ID, inclusive, as a decimal string
     * @param size how many IDs
     */
    record BlockJson(String name, String first, String last, long size) {}
}
