package dev.idgen.core;

/**
 * An {@link IdSequence} on one service and one checked name.
 */
record BoundIdSequence(IdService service, String name, String generator) implements IdSequence {

    @Override
    public String strategy() {
        return service.strategy();
    }

    @Override
    public long nextId() {
        return service.nextId(name);
    }

    @Override
    public long[] nextIds(int count) {
        return service.nextIds(name, count);
    }

    @Override
    public DecodedId decode(long id) {
        return GeneratorDecodedId.of(generator, service.decode(name, id));
    }
}
