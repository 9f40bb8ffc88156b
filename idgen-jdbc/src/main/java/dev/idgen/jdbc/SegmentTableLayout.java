package dev.idgen.jdbc;

/**
 * The columns of a segment table and what its {@code max_id} means: idgen's own table, or Leaf's {@code leaf_alloc},
 * taken over in place while Leaf servers may still be running on it.
 *
 * <p>Both layouts advance a row by the step an allocation asks for, in one statement, so any mix of instances and
 * steps keeps blocks apart: the row lock orders the updates, and each writer takes exactly the IDs between the value
 * it moved the row from and the value it moved it to. The layouts differ in which end of that interval they count.
 */
public enum SegmentTableLayout {

    /**
     * idgen's table ({@code name}, {@code max_id}, {@code step}, {@code version}, {@code update_time}, {@code writer}):
     * {@code max_id} is the highest ID handed out, and a block moving it to {@code m} by {@code s} is
     * {@code [m - s + 1, m]}.
     */
    IDGEN("name", "segment", "the segment table", "segment"),

    /**
     * Meituan Leaf's {@code leaf_alloc} ({@code biz_tag}, {@code max_id}, {@code step}, {@code description},
     * {@code update_time}): {@code max_id} is the first ID not handed out yet, and a block moving it to {@code m} by
     * {@code s} is {@code [m - s, m - 1]}, as a Leaf server computes it after its
     * {@code UPDATE leaf_alloc SET max_id = max_id + step} (the row's step, or its adaptive step). idgen adds the
     * nullable {@code writer} column where it manages the schema (Leaf reads only its own columns), and a name new to
     * the table gets a row with {@value #NEW_ROW_STEP} as Leaf's step.
     */
    LEAF("biz_tag", "leaf", "Leaf's table", "leaf_alloc row");

    /** The {@code step} column of a row idgen inserts into Leaf's table: Leaf servers start that tag at this step. */
    public static final int NEW_ROW_STEP = 1000;

    private final String key;
    private final String ddlKind;
    private final String description;
    private final String what;

    SegmentTableLayout(String key, String ddlKind, String description, String what) {
        this.key = key;
        this.ddlKind = ddlKind;
        this.description = description;
        this.what = what;
    }

    /** @return the column holding a row's name */
    String key() {
        return key;
    }

    /** @return the DDL resource's kind, {@code META-INF/idgen/<kind>-<database>.sql} */
    String ddlKind() {
        return ddlKind;
    }

    /** @return the table in words, before its name */
    String description() {
        return description;
    }

    /** @return a row in words, for the log */
    String what() {
        return what;
    }

    /**
     * @param table a checked table name
     * @param identity the writer identity's SQL, or {@code null} without the writer column
     * @return the insert of a new row, whose parameters are its name and its {@code max_id}
     */
    String insert(String table, String identity) {
        String writer = identity == null ? "" : ", " + WriterColumn.NAME;
        String writerValue = identity == null ? "" : ", " + identity;
        return switch (this) {
            // Only max_id moves: nothing reads step, version or update_time, and their defaults keep the row valid.
            // The insert, once per name, still fills them, for tables created without those defaults.
            case IDGEN ->
                "INSERT INTO " + table + " (name, max_id, step, version, update_time" + writer
                        + ") VALUES (?, ?, 0, 0, CURRENT_TIMESTAMP" + writerValue + ")";
            case LEAF ->
                "INSERT INTO " + table + " (biz_tag, max_id, step, description, update_time" + writer
                        + ") VALUES (?, ?, " + NEW_ROW_STEP + ", 'created by idgen', CURRENT_TIMESTAMP" + writerValue
                        + ")";
        };
    }

    /**
     * @param initialValue the value before a new name's first ID
     * @return the {@code max_id} a new row starts with
     */
    long initialMax(long initialValue) {
        return this == LEAF ? initialValue + 1 : initialValue;
    }

    /**
     * @param floor the highest ID the caller served
     * @return the value the row is raised to before the step is added, so that the block lies above {@code floor}
     */
    long counterFloor(long floor) {
        return this == LEAF ? floor + 1 : floor;
    }

    /** @return the first ID of the block that moved the row to {@code max} by {@code step} */
    long firstOf(long max, long step) {
        return this == LEAF ? max - step : max - step + 1;
    }

    /** @return the last ID of the block that moved the row to {@code max} */
    long lastOf(long max) {
        return this == LEAF ? max - 1 : max;
    }
}
