package dev.idgen.spring;

import dev.idgen.core.IdArguments;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@link IdgenId} member of an entity class: a field, or a getter with its setter, read and written through
 * method handles. The members of each class are found, checked and cached once ({@link #of(Class)}).
 */
final class IdgenIdMember {

    /** What the integrations can fill in. */
    static final String ALLOWED_TYPES = "long, Long or String";

    /** The Java types idgen fills in. */
    enum Kind {
        /** {@code long}: 0 means unset. */
        PRIMITIVE_LONG,
        /** {@code Long}: {@code null} means unset. */
        LONG,
        /** {@code String}: {@code null} means unset; filled with the generator's canonical string form. */
        STRING
    }

    private static final ClassValue<List<IdgenIdMember>> MEMBERS = new ClassValue<>() {
        @Override
        protected List<IdgenIdMember> computeValue(Class<?> type) {
            return scan(type);
        }
    };

    private final String generator;

    private final Kind kind;

    private final String where;

    private final String property;

    private final MethodHandle getter;

    /** {@code null} for a final field (a record's, say), which only a Spring Data property accessor can set. */
    private final MethodHandle setter;

    private IdgenIdMember(
            String generator, Kind kind, String where, String property, MethodHandle getter, MethodHandle setter) {
        this.generator = generator;
        this.kind = kind;
        this.where = where;
        this.property = property;
        this.getter = getter.asType(MethodType.methodType(Object.class, Object.class));
        this.setter =
                setter == null ? null : setter.asType(MethodType.methodType(void.class, Object.class, Object.class));
    }

    /**
     * @param type an entity class
     * @return its {@link IdgenId} members, its superclasses' included; empty for a class without any
     * @throws IllegalStateException naming the class and member when one cannot be filled in (type, final field,
     *         getter without setter, bad generator name)
     */
    static List<IdgenIdMember> of(Class<?> type) {
        return MEMBERS.get(type);
    }

    /**
     * @param type the Java type of an {@link IdgenId} member
     * @param where the member, for the message: {@code com.example.Order.id}
     * @return what idgen fills into it
     * @throws IllegalStateException naming the member and the allowed types when the type is not one of them
     */
    static Kind kind(Class<?> type, String where) {
        if (type == long.class) {
            return Kind.PRIMITIVE_LONG;
        }
        if (type == Long.class) {
            return Kind.LONG;
        }
        if (type == String.class) {
            return Kind.STRING;
        }
        throw new IllegalStateException("@IdgenId on " + where + ": its type " + type.getTypeName()
                + " is not supported; idgen fills in " + ALLOWED_TYPES);
    }

    /**
     * @param generator the annotation's generator name
     * @param where the member, for the message
     * @return the name, checked
     * @throws IllegalStateException naming the member when the name breaks the rule of sequence names
     */
    static String generator(String generator, String where) {
        try {
            return IdArguments.checkName(generator);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("@IdgenId(\"" + generator + "\") on " + where + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param value the member's current value
     * @param kind the member's kind
     * @return whether idgen should fill it in: {@code null}, or 0 for a primitive {@code long}
     */
    static boolean isUnset(Object value, Kind kind) {
        return value == null || (kind == Kind.PRIMITIVE_LONG && ((Long) value) == 0L);
    }

    String generator() {
        return generator;
    }

    Kind kind() {
        return kind;
    }

    String where() {
        return where;
    }

    /** @return the property's name: the field's, or the getter's without {@code get} */
    String property() {
        return property;
    }

    Object get(Object entity) {
        try {
            return getter.invokeExact(entity);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("Could not read @IdgenId " + where, e);
        }
    }

    void set(Object entity, Object value) {
        if (setter == null) {
            throw new IllegalStateException("@IdgenId on " + where + ": the field is final, so idgen cannot fill it"
                    + " in; make it a non-final field of type " + ALLOWED_TYPES);
        }
        try {
            setter.invokeExact(entity, value);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("Could not write @IdgenId " + where, e);
        }
    }

    boolean isUnset(Object entity) {
        return isUnset(get(entity), kind);
    }

    private static List<IdgenIdMember> scan(Class<?> type) {
        if (type.isPrimitive() || type.isArray() || type.getName().startsWith("java.")) {
            return List.of();
        }
        List<IdgenIdMember> members = new ArrayList<>();
        // Superclass members first, as a mapped superclass's id comes first in the entity.
        for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
            List<IdgenIdMember> declared = new ArrayList<>();
            for (Field field : current.getDeclaredFields()) {
                IdgenId id = field.getAnnotation(IdgenId.class);
                if (id != null) {
                    declared.add(field(field, id));
                }
            }
            for (Method method : current.getDeclaredMethods()) {
                IdgenId id = method.getAnnotation(IdgenId.class);
                // On a record component the annotation lands on the field and on its accessor too: the field is it.
                if (id != null && !method.isBridge() && !isRecordAccessor(current, method)) {
                    declared.add(getter(method, id));
                }
            }
            members.addAll(0, declared);
        }
        return List.copyOf(members);
    }

    private static IdgenIdMember field(Field field, IdgenId id) {
        String where = field.getDeclaringClass().getName() + "." + field.getName();
        Kind kind = kind(field.getType(), where);
        String generator = generator(id.value(), where);
        if (Modifier.isStatic(field.getModifiers())) {
            throw new IllegalStateException("@IdgenId on " + where + ": the field is static; idgen fills in an"
                    + " instance field of type " + ALLOWED_TYPES);
        }
        try {
            MethodHandles.Lookup lookup =
                    MethodHandles.privateLookupIn(field.getDeclaringClass(), MethodHandles.lookup());
            return new IdgenIdMember(
                    generator,
                    kind,
                    where,
                    field.getName(),
                    lookup.unreflectGetter(field),
                    Modifier.isFinal(field.getModifiers()) ? null : lookup.unreflectSetter(field));
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalStateException(
                    "@IdgenId on " + where + ": idgen cannot reach the field (" + e.getMessage()
                            + "); open its package to idgen",
                    e);
        }
    }

    private static IdgenIdMember getter(Method getter, IdgenId id) {
        String where = getter.getDeclaringClass().getName() + "." + getter.getName() + "()";
        String property = property(getter.getName());
        if (Modifier.isStatic(getter.getModifiers()) || getter.getParameterCount() != 0 || property == null) {
            throw new IllegalStateException("@IdgenId on " + where + ": a method must be an instance getter"
                    + " (getX() with a setX(..) beside it); or annotate the field");
        }
        Kind kind = kind(getter.getReturnType(), where);
        String generator = generator(id.value(), where);
        Method setter = null;
        for (Class<?> current = getter.getDeclaringClass();
                current != null && setter == null;
                current = current.getSuperclass()) {
            try {
                setter = current.getDeclaredMethod("set" + property, getter.getReturnType());
            } catch (NoSuchMethodException e) {
                // look further up
            }
        }
        if (setter == null) {
            throw new IllegalStateException("@IdgenId on " + where + ": there is no set" + property + "("
                    + getter.getReturnType().getSimpleName() + ") for idgen to fill it in; add one, or annotate the"
                    + " field");
        }
        try {
            MethodHandles.Lookup lookup =
                    MethodHandles.privateLookupIn(getter.getDeclaringClass(), MethodHandles.lookup());
            MethodHandles.Lookup setterLookup =
                    MethodHandles.privateLookupIn(setter.getDeclaringClass(), MethodHandles.lookup());
            MethodHandle write = setterLookup.unreflect(setter);
            if (setter.getReturnType() != void.class) {
                // A fluent setter returns the entity; the result is not needed.
                write = MethodHandles.dropReturn(write);
            }
            return new IdgenIdMember(
                    generator,
                    kind,
                    where,
                    Character.toLowerCase(property.charAt(0)) + property.substring(1),
                    lookup.unreflect(getter),
                    write);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalStateException(
                    "@IdgenId on " + where + ": idgen cannot reach the getter or setter (" + e.getMessage()
                            + "); open its package to idgen",
                    e);
        }
    }

    private static boolean isRecordAccessor(Class<?> type, Method method) {
        if (!type.isRecord() || method.getParameterCount() != 0) {
            return false;
        }
        for (var component : type.getRecordComponents()) {
            if (component.getName().equals(method.getName())) {
                return true;
            }
        }
        return false;
    }

    private static String property(String getter) {
        if (getter.startsWith("get") && getter.length() > 3) {
            return getter.substring(3);
        }
        return null;
    }
}
